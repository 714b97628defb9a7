"""Fast path for INSERT ... VALUES of literal rows (placeholder)."""


def parse_fast_insert(sql):
    return None

"""Reserved words: never identifiers unless quoted, even where the parser could take one."""

# With the contextual lexer most keywords stay usable as names; these cannot, so that
# `SELECT FROM t` is an error rather than a column named "from".
RESERVED_WORDS = frozenset(
    """
    all and as between by case cast cross distinct else end except exists from group having
    in inner intersect into is join like limit not null on or order select then union using
    values when where with
    """.split()
)

# Databend's reserved identifiers: never an alias, with or without AS (`t AS left` is an error).
NEVER_ALIAS_WORDS = frozenset(
    """
    all analyze and any asc anti both case cast cross current_timestamp desc distinct else end
    false full in inner is join leading left like natural not null or right select pivot
    unpivot some semi then trailing true using when
    """.split()
)

# Clause keywords: an alias only after AS (`SELECT 1 window` is an error, `SELECT 1 AS window`
# is not), so a clause the grammar does not know never silently becomes an alias.
IMPLICIT_ALIAS_FORBIDDEN_WORDS = NEVER_ALIAS_WORDS | frozenset(
    """
    array as between create attach except for from group having intersect into limit format
    offset on of order over partition rows range qualify stage share shares to union where
    window with ignore_result masking policy
    """.split()
)

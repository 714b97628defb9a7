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

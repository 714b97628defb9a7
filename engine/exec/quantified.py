"""`x op ALL|ANY|SOME (subquery)`: the subquery's values are summarised once (a set, the least and
greatest value, whether a NULL came) and each row is answered from that summary in O(1), with
SQL's NULL semantics."""

from __future__ import annotations

from engine.core.memory import HASH_ENTRY_BYTES, growth_bytes
from engine.types.keys import greatest, least, sort_value


def summarise(batches, key=None):
    """(non-NULL values as a set, least, greatest, whether a NULL came) of one-column batches;
    `key` makes a value its hash key (engine.types.keys: every NaN one value), and the least and
    greatest are sort keys (a NaN the greatest of all)."""
    values = set()
    for batch in batches:
        values.update(r[0] for r in batch)
        yield None
    has_null = None in values
    values.discard(None)
    if key is not None:
        values = set(map(key, values))
    low = sort_value(least(values)) if values else None
    high = sort_value(greatest(values)) if values else None
    yield (values, low, high, has_null)


def summary_bytes(summary) -> int:
    values = summary[0]
    return growth_bytes(values, len(values), HASH_ENTRY_BYTES)


def decide(op: str, quantifier: str, x, summary):
    """TRUE, FALSE or NULL (None) for `x op quantifier (values)`."""
    values, low, high, has_null = summary
    if not values:
        if not has_null:
            return quantifier == "ALL"  # ALL over nothing is TRUE, ANY over nothing FALSE
        return None
    if x is None:
        return None
    o = sort_value(x)  # x ordered against `low` and `high`, sort keys (a NaN as NAN_LAST)
    if quantifier == "ANY":
        if op == "=":
            hit = x in values
        elif op == "<>":
            hit = len(values) > 1 or x not in values
        elif op == "<":
            hit = o < high
        elif op == "<=":
            hit = o <= high
        elif op == ">":
            hit = o > low
        else:
            hit = o >= low
        return True if hit else (None if has_null else False)
    # ALL: FALSE as soon as one value compares FALSE
    if op == "=":
        miss = len(values) > 1 or x not in values
    elif op == "<>":
        miss = x in values
    elif op == "<":
        miss = not o < low
    elif op == "<=":
        miss = not o <= low
    elif op == ">":
        miss = not o > high
    else:
        miss = not o >= high
    return False if miss else (None if has_null else True)

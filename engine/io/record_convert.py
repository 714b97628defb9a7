"""Column-at-a-time conversion of a batch of CSV/TSV records (lists of field texts) into rows.

Loading spends its time turning texts into values; a converter call per value costs several
times the csv module's own parsing. Here a batch is transposed (zip) and each column converted
with C-level loops where its type allows: `map(int, ...)` with one min/max range check,
`map(float, ...)`, strings as they are, booleans through a dict; NULL texts are looked for
once per column (`in`), so a column without NULLs never pays for them. Other types go value by
value through their column converter.

This is the fast path only: a batch it refuses (a wrong field count, a bad number, NULL in a NOT
NULL column...) raises, and the caller converts that batch again record by record to name the
failing line and column (or skip it, with ON_ERROR).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from itertools import repeat

from engine.types import sqltype as T

_BOOLEANS = {"true": True, "false": False, "TRUE": True, "FALSE": False, "True": True,
             "False": False, "1": True, "0": False}


@contextmanager
def collection_paused():
    """Cyclic garbage collection paused for a bounded piece of work that allocates many objects
    none of which can be in a cycle (it is resumed even when the work fails)."""
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Refused(Exception):
    """A batch the fast path does not take (the slow path then says why)."""


class ColumnStats:
    """What the converted batches held, per written column: whether a NULL came out and the
    least integer (for Table.append, which then need not scan the rows for them)."""

    def __init__(self, width: int):
        self.nulls = [False] * width
        self.least: list = [None] * width

    def saw(self, i: int, values: list, has_null: bool, least) -> None:
        if has_null:
            self.nulls[i] = True
        if least is not None and (self.least[i] is None or least < self.least[i]):
            self.least[i] = least


def _column_converter(i: int, stats: ColumnStats, t, convert, empty_value, null_display: str,
                      empty_is_text: bool):
    """A function: tuple of field texts -> list of values of type t (Refused when one is bad).
    `empty_value` is what an empty field becomes unless `empty_is_text`; what came out is noted
    in `stats` (column `i`)."""
    nullable = t.nullable
    name = t.name
    if name in T.INT_RANGES:
        lo, hi = T.INT_RANGES[name]
        plain = int
    elif name == "Float64":
        lo = hi = None
        plain = float
    elif name == "String":
        lo = hi = None
        plain = None
    elif name == "Boolean":
        lo = hi = None
        plain = _BOOLEANS.__getitem__
    else:
        lo = hi = None
        plain = convert

    def special(v):
        """NULL and empty fields; None when v is an ordinary text."""
        if v == null_display:
            if not nullable:
                raise Refused
            return None
        if v == "" and not empty_is_text:
            if empty_value is None and not nullable:
                raise Refused
            return empty_value
        return v

    # int, float and the boolean lookup refuse the NULL text and "" themselves: their columns
    # skip the two scans for them and take the special path only when a conversion fails
    refuses_specials = plain is int or plain is float or name == "Boolean"

    def checked_least(values):
        """The least of the integers `values` (None for other types); Refused out of range."""
        if lo is None or not values:
            return None
        least = min(values)
        if least < lo or max(values) > hi:
            raise Refused
        return least

    def convert_column(column):
        if refuses_specials:
            try:
                out = list(map(plain, column))
            except (ValueError, KeyError):
                out = None
            if out is not None:
                stats.saw(i, out, False, checked_least(out))
                return out
        if null_display in column or (not empty_is_text and "" in column):
            values = [special(v) for v in column]
            if plain is None:
                stats.saw(i, values, True, None)
                return values
            out = [None if v is None else plain(v) for v in values]
            checked = [v for v in out if v is not None]
            has_null = len(checked) != len(out)
        else:
            if plain is None:
                return list(column)
            out = checked = list(map(plain, column))
            has_null = False
        stats.saw(i, out, has_null, checked_least(checked))
        return out

    return convert_column


def batch_converter(types: list, converters: list, defaults: list, positions: list,
                    table_defaults: list, null_display: str, empty_field_as: str):
    """A function: list of records (each a list of len(types) texts) -> list of table rows
    (tuples of the table's width: unwritten columns take `table_defaults`); its `stats`
    (ColumnStats) say what the written columns held."""
    empty_is_text = empty_field_as == "string"
    stats = ColumnStats(len(types))
    columns = [
        _column_converter(i, stats, t, conv, None if empty_field_as == "null" else default,
                          null_display, empty_is_text)
        for i, (t, conv, default) in enumerate(zip(types, converters, defaults, strict=True))]
    width = len(types)
    place = {position: i for i, position in enumerate(positions)}
    layout = [place.get(j) for j in range(len(table_defaults))]
    in_order = layout == list(range(width))

    def convert(records):
        if not records:
            return []
        # a record of another width makes the transposition fail (ValueError): slow path
        return convert_columns(zip(*records, strict=True), len(records))

    def convert_columns(texts, n: int):
        """The rows of a batch given as its columns of field texts (n records)."""
        converted = [c(col) for c, col in zip(columns, texts, strict=True)]
        if len(converted) != width:  # records of no field at all
            raise Refused
        if in_order:
            return list(zip(*converted, strict=True))
        full = [converted[i] if i is not None else repeat(table_defaults[j], n)
                for j, i in enumerate(layout)]
        return list(zip(*full, strict=False))  # the repeats are endless; the rest are n long

    convert.stats = stats
    convert.columns = convert_columns
    return convert

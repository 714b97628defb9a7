"""INSERT ... VALUES into a table kept in columns: each step's converted rows transposed once and
appended to a version built for the table, which the commit point takes whole (Table.append_version).

Row storage copies a big VALUES batch's numbers and strings row after row (insert_statements
`_compact`: values parsed out of SQL text lie scattered among the parser's garbage). Columns need
less: a NULL-free number column goes into an `array` (no boxed value is kept, so there is nothing
to copy), so only strings, and numbers of a column that holds a NULL (a list), are copied, a
column at a time; the NULL and negative flags are found a column at a time as well (`None in
list`, `min`), so the commit scans no row.
"""

from __future__ import annotations

from itertools import repeat

from engine.catalog.column_data import transposed

# an empty translation table: str.translate with it copies a string (the copy is allocated now,
# next to the other values of its column)
_NO_CHANGE: dict = {}
# rows of a batch below which its values are not copied (as insert_statements._compact)
COMPACT_ROWS = 64


def takes_columns(table) -> bool:
    """Whether VALUES rows for `table` go in as columns (its storage keeps columns)."""
    return table.data.columnar and bool(table.columns)


class ValuesColumns:
    """The VALUES rows of one INSERT, converted a step at a time, as a version built for `table`
    (`version`, handed to commit_append with `known()`)."""

    __slots__ = ("table", "version", "has_null", "has_negative", "_kinds")

    def __init__(self, table):
        self.table = table
        self.version = table.data.empty_like()
        width = len(table.columns)
        self.has_null = [False] * width
        self.has_negative = [False] * width
        self._kinds = tuple(_copy_kind(c.type) for c in table.columns)

    def add(self, rows: list[tuple]) -> None:
        """Append `rows` (converted table rows, each as wide as the table)."""
        if not rows:
            return
        columns = transposed(rows, len(self.table.columns))
        self._note_flags(columns)
        if len(rows) >= COMPACT_ROWS:
            columns = [_compacted(values, kind) if kind else values
                       for values, kind in zip(columns, self._kinds, strict=True)]
        self.version.append_columns(columns, len(rows))

    def known(self) -> tuple[list, list]:
        """Per column whether the rows added hold a NULL and a negative integer (Table.append's `known`)."""
        return self.has_null, self.has_negative

    def _note_flags(self, columns: list) -> None:
        # as Table._scan_column_flags finds them for rows appended without `known`
        has_null, has_negative, table_columns = self.has_null, self.has_negative, self.table.columns
        for i, values in enumerate(columns):
            if not has_null[i] and table_columns[i].type.nullable and None in values:
                has_null[i] = True
        for i in self.table.int_positions:
            if not has_negative[i] and min(filter(None, columns[i]), default=0) < 0:
                has_negative[i] = True


def _copy_kind(sql_type) -> str:
    """How a column's values are copied (as insert_statements._compact): "s" strings, "f"
    floats, "i" integers (numbers only when the column holds a NULL: else an array keeps them
    unboxed), "" not at all."""
    name = sql_type.name
    return "s" if name == "String" else "f" if sql_type.is_float else "i" if sql_type.is_int else ""


def _compacted(values: list, kind: str) -> list:
    """`values` copied, allocated one after the other (see the module's docstring)."""
    if None not in values:
        if kind == "s":  # a C-level map: no Python frame a value
            return list(map(str.translate, values, repeat(_NO_CHANGE)))
        return values  # numbers without NULL: the column's array boxes nothing
    if kind == "s":
        return [v if v is None else v.translate(_NO_CHANGE) for v in values]
    if kind == "f":
        return [v if v is None else v * 1.0 for v in values]
    return [v if v is None else v + 0 for v in values]

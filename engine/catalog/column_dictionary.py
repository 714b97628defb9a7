"""Dictionary codes of a string column kept by ColumnData (issue 24): one small integer a row.

A table's string column has one `Dictionary` shared by every version of the table: its distinct
values, each with a code (its index in `values`; code 0 is NULL), up to CODES_LIMIT of them. A
version keeps, beside the column's list of values, an `array` of the codes of a prefix of its
rows, extended when a reader asks for codes (`ColumnData.dictionary_codes`), a batch at a time:
writes pay nothing for it (a bulk write or a recovery appends as before), and a column never
read by code never gets codes. A test of the column against constants (LIKE, =, IN, <...) then
runs once a distinct value and selects rows by code (engine.exec.column_filters), and GROUP BY
the column can count by code.

A value's code never changes and codes only grow in number, so codes of different versions
(a transaction's private copy, the version a Rewrite builds) mean the same values. A column
that holds a value the full Dictionary has no code for (ids, unique labels) keeps no codes.
"""

from __future__ import annotations

import operator
from array import array
from itertools import compress, repeat

# the array typecode of codes: two bytes a row (the list's slot for the value takes eight)
KEY_TYPECODE = "H"
# distinct values (NULL one of them) a column's Dictionary gives a code
CODES_LIMIT = 1 << 16


class Dictionary:
    """A string column's distinct values with their codes (shared by the table's versions)."""

    __slots__ = ("code_of", "values")

    def __init__(self):
        self.code_of: dict = {None: 0}  # value -> its code
        self.values: list = [None]  # code -> value

    def __len__(self) -> int:
        return len(self.values)

    def encode(self, values) -> list | None:
        """The codes of `values` (new ones given to values not seen before), or None when some
        value finds no room: C-level maps over the values (a Python loop runs only over the
        distinct new ones, never)."""
        code_of = self.code_of
        codes = list(map(code_of.get, values))
        if None not in codes:
            return codes
        known = self.values
        fresh = list(dict.fromkeys(compress(values, map(operator.is_, codes, repeat(None)))))
        if len(known) + len(fresh) > CODES_LIMIT:
            return None
        code_of.update(zip(fresh, range(len(known), len(known) + len(fresh)), strict=True))
        known += fresh
        return list(map(code_of.__getitem__, values))


def new_keys(dictionary: Dictionary | None):
    """An empty array of codes for a column of `dictionary` (None for a column without one)."""
    return None if dictionary is None else array(KEY_TYPECODE)


def extend_keys(dictionary: Dictionary, keys: array, column, stop: int) -> bool:
    """Code the values of `column` (the version's list) from len(keys) to `stop` into `keys`;
    False when one of them finds no room in the Dictionary (nothing is appended then)."""
    have = len(keys)
    if have >= stop:
        return True
    codes = dictionary.encode(column[have:stop])
    if codes is None:
        return False
    keys.fromlist(codes)
    return True

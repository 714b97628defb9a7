"""Grouped COUNT/SUM/AVG/MIN/MAX of groups numbered 0..size-1 (codes) in numpy, exact (issue 24).

`CodedGroups` takes a block of row codes (a NULL-free integer key less its least value, a day
number less the first one, or a dictionary code of a string column) and the block's values of
the aggregated columns, in row order, and keeps per group what the row-by-row step keeps in a
group's accumulator list (engine.codegen.aggregate `_Slots`), with the same values:

- COUNT: `numpy.bincount(codes)`.
- SUM of doubles: `numpy.bincount(codes, weights=values)` adds each group's values in row
  order starting from 0.0 (its C loop is `out[code[i]] += weight[i]`), as the row step's
  `a += v`; a group's sum so far is carried into the next block by putting it first (codes
  0..size-1 and the sums, then the block's codes and values), so the additions stay
  sequential. Starting from 0.0 instead of the first value differs only for a group whose
  every value is -0.0 (0.0 + -0.0 is 0.0; the row step keeps -0.0): such groups, counted,
  are given -0.0 at the end. NaN and infinities add as in Python (both are IEEE doubles).
- SUM of integers of at most 32 bits: a block's bincount in doubles is exact (every partial
  sum below 2**53 for blocks of at most 2**20 rows), added to an int64 total (exact below
  2**31 rows); the finish wraps or raises on the total as the row path does (it is its finish).
- MIN and MAX: `fmin.at` (a NaN only when every value is one: the row step holds NaN as the
  greatest sort key) and `maximum.at` (any NaN gives NaN), a block's extreme merged with the
  group's so far. 0.0 and -0.0 are equal, and the row step keeps the first of equal values:
  where a group's extreme is a zero, it is the group's first zero (kept across blocks).

Groups are listed in the order of their first row (`order`), as the row path's dict has them.
"""

from __future__ import annotations

# integer typecodes whose values a block's double bincount sums exactly (at most 32 bits)
SMALL_INTEGERS = frozenset("bBhHiI")
INTEGERS = frozenset("bBhHiIqQ")
MAX_BLOCK_ROWS = 1 << 20  # rows of a block whose integer sums stay below 2**53 in doubles
MAX_TABLE_ROWS = 1 << 31  # rows whose 32-bit integer sums stay within an int64 total


class CodedGroups:
    """The accumulators of groups 0..size-1 fed blocks of codes (module docstring).

    `parts` maps a value column's number to the set of what is kept of it: "sum", "min",
    "max"; `kinds` maps it to its array typecode ("d" for doubles)."""

    def __init__(self, np, size: int, parts: dict, kinds: dict):
        self.np = np
        self.size = 0
        self.parts, self.kinds = parts, kinds
        self.count = np.zeros(0, np.int64)
        self.order: list[int] = []  # codes in the order of their groups' first rows
        self.sums: dict = {}
        self.negative_zeros: dict = {}  # column -> per group, values that were -0.0
        self.mins: dict = {}
        self.maxs: dict = {}
        self.resize(size)

    def _blank(self, column, kind: str):
        """The state of a group with no value yet for `kind` of `column`."""
        np, code = self.np, self.kinds[column]
        if kind == "sum":
            return np.zeros(self.size, np.float64 if code == "d" else np.int64)
        if code == "d":  # fmin(NaN, x) is x; maximum(-inf, x) is x
            return np.full(self.size, np.nan if kind == "min" else -np.inf)
        info = np.iinfo(np.dtype(code))
        return np.full(self.size, info.max if kind == "min" else info.min, np.dtype(code))

    def resize(self, size: int, shift: int = 0) -> None:
        """Room for `size` codes; `shift` new codes before the present ones (their codes grow by it)."""
        np = self.np
        old, self.size = self.size, size
        after = size - old - shift

        def grown(state, blank):
            return np.concatenate((blank[:shift], state, blank[:after]))

        self.count = grown(self.count, np.zeros(size, np.int64))
        for column, parts in self.parts.items():
            for kind, states in (("sum", self.sums), ("min", self.mins), ("max", self.maxs)):
                if kind in parts:
                    blank = self._blank(column, kind)
                    states[column] = blank if column not in states else grown(states[column], blank)
            if column in self.negative_zeros:
                self.negative_zeros[column] = grown(self.negative_zeros[column], np.zeros(size, np.int64))
        if shift:
            self.order = [code + shift for code in self.order]

    @property
    def nbytes(self) -> int:
        """Bytes the per-group arrays hold (what the query is charged for them)."""
        states = [self.count, *self.sums.values(), *self.mins.values(), *self.maxs.values(),
                  *self.negative_zeros.values()]
        return sum(s.nbytes for s in states)

    def add(self, codes, columns: dict) -> None:
        """Fold a block: `codes` (intp, each below size) and per value column its values (numpy
        arrays of the block's rows, in row order)."""
        np, size = self.np, self.size
        counted = np.bincount(codes, minlength=size)
        new = np.flatnonzero((counted > 0) & (self.count == 0))
        if new.size:  # groups first seen in this block, in the order of their first rows
            first = np.full(size, len(codes), np.intp)
            np.minimum.at(first, codes, np.arange(len(codes)))
            self.order.extend(new[np.argsort(first[new], kind="stable")].tolist())
        self.count += counted
        for column, parts in self.parts.items():
            values = columns[column]
            floats = self.kinds[column] == "d"
            if "sum" in parts:
                self._sum(column, codes, values, floats)
            if "min" in parts or "max" in parts:
                self._extremes(column, parts, codes, values, floats)

    def _sum(self, column, codes, values, floats: bool) -> None:
        np, size = self.np, self.size
        if not floats:
            self.sums[column] += np.bincount(codes, values, minlength=size).astype(np.int64)
            return
        # the sums so far first, then the block's values: one sequential addition a group
        sums = self.sums[column]
        if size <= len(codes):
            self.sums[column] = np.bincount(np.concatenate((np.arange(size), codes)),
                                            np.concatenate((sums, values)), minlength=size)
        else:  # more groups than rows: only the block's groups carried, renumbered 0..k-1
            present = np.flatnonzero(np.bincount(codes, minlength=size))
            renumbered = np.zeros(size, np.intp)
            renumbered[present] = np.arange(len(present))
            sums[present] = np.bincount(np.concatenate((np.arange(len(present)), renumbered[codes])),
                                        np.concatenate((sums[present], values)), minlength=len(present))
        negative = (values == 0) & np.signbit(values)
        if negative.any():
            found = np.bincount(codes[negative], minlength=size)
            held = self.negative_zeros.get(column)
            self.negative_zeros[column] = found if held is None else held + found

    def _extremes(self, column, parts, codes, values, floats: bool) -> None:
        np = self.np
        zeros = None
        if floats:  # the first zero of each group with one in this block (0.0 and -0.0 tie)
            at = np.flatnonzero(values == 0)
            if at.size:
                groups, first = np.unique(codes[at], return_index=True)
                zeros = groups, values[at[first]]
        for kind, states, fold in (("min", self.mins, np.fmin if floats else np.minimum),
                                   ("max", self.maxs, np.maximum)):
            if kind not in parts:
                continue
            block = self._blank(column, kind)
            with np.errstate(invalid="ignore"):  # a NaN compared is an answer here, not an error
                fold.at(block, codes, values)
            before = states[column]
            merged = fold(before, block)
            if zeros is not None:
                groups, first_zero = zeros
                # a zero extreme is the group's first zero: the one before this block if it was
                # a zero already, else the block's first
                held = before[groups]
                zero = merged[groups] == 0
                merged[groups[zero]] = np.where(held == 0, held, first_zero)[zero]
            states[column] = merged

    def sums_of(self, column, codes) -> list:
        """The SUM states of the groups `codes` (a numpy array), as Python numbers."""
        np = self.np
        sums = self.sums[column][codes]
        held = self.negative_zeros.get(column)
        if held is not None:  # every value -0.0: the row step's sum is -0.0
            sums = np.where(held[codes] == self.count[codes], -0.0, sums)
        return sums.tolist()

"""A transaction's private version described over the shared rows it was copied from, so that
COMMIT of a rewrite hands the log the runs of shared rows it kept instead of every row.

The private table's `recorder` is a Lineage: Table tells it of every append and replace as it
tells the log's recorder (engine.storage.durability), and it keeps flat (start, count) runs
that describe the private version over the first rows of the shared one (start -1: rows the
transaction wrote, read back from the private version itself at COMMIT, so nothing is held
twice). Composing a statement's Rewrite runs with them is a walk over the runs, never over rows.
"""

from __future__ import annotations

from bisect import bisect_right


class Lineage:
    """The runs that rebuild a private version from the shared rows it was copied from."""

    # not the log: writers seal nothing for it (the transaction's COMMIT is the record)
    durable = False

    __slots__ = ("runs",)

    def __init__(self, count: int):
        self.runs: list[int] = [0, count] if count else []

    def appended(self, table, rows) -> None:
        _add(self.runs, len(rows))

    def appended_range(self, table, data, start: int, stop: int) -> None:
        _add(self.runs, stop - start)

    def undo_with(self, undo) -> None:
        """Nothing reaches the log before COMMIT: a failed statement fails the transaction."""

    def replaced(self, table, old, new, rewrite=None) -> None:
        """`new` in place of `old`: composed with the rewrite's runs over `old` when it built
        `new` from it, else (TRUNCATE's empty version) every row of `new` is the transaction's."""
        if rewrite is None or rewrite.old is not old:
            self.runs = [-1, len(new)] if len(new) else []
            return
        self.runs = compose(self.runs, rewrite.runs)

    def added_rows(self, data) -> list | None:
        """The rows the runs with start -1 take, read from `data` (the private version the runs
        describe), or None when the runs do not describe its length (then every row is new)."""
        runs, rows, position = self.runs, [], 0
        for i in range(0, len(runs), 2):
            if runs[i] < 0:
                rows += data.rows(position, position + runs[i + 1])
            position += runs[i + 1]
        return rows if position == len(data) else None


def _add(runs: list[int], n: int) -> None:
    if n <= 0:
        return
    if runs and runs[-2] == -1:
        runs[-1] += n
    else:
        runs += (-1, n)


def _keep(runs: list[int], start: int, n: int) -> None:
    if runs and runs[-2] >= 0 and runs[-2] + runs[-1] == start:
        runs[-1] += n
    else:
        runs += (start, n)


def compose(base: list[int], over: list[int]) -> list[int]:
    """Runs over the shared rows for a version that `over` describes over a version that `base`
    describes over the shared rows (both flat (start, count), start -1 for new rows)."""
    starts, position = [], 0  # where each base run begins in the version it describes
    for i in range(0, len(base), 2):
        starts.append(position)
        position += base[i + 1]
    out: list[int] = []
    for i in range(0, len(over), 2):
        start, n = over[i], over[i + 1]
        if start < 0:
            _add(out, n)
            continue
        while n > 0:
            k = bisect_right(starts, start) - 1
            offset = start - starts[k]
            take = min(n, base[2 * k + 1] - offset)
            if k < 0 or take <= 0:
                raise ValueError(f"runs past the {position} rows they describe")
            if base[2 * k] < 0:
                _add(out, take)
            else:
                _keep(out, base[2 * k] + offset, take)
            start += take
            n -= take
    return out

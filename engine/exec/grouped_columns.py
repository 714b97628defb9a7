"""GROUP BY over a table scan without a loop in Python a row (issue 24).

- Counting (every aggregate COUNT(*) or COUNT of a NULL-free column): the groups' counts come from
  a Counter fed a batch of keys at a time (C's `_count_elements`), the keys read as a column (a
  slice of a column kept whole, or an itemgetter map over rows). A key is a plain column (not a
  float that may be a NaN: those are made one NaN first) or a date part that a NULL-free Date or
  Timestamp column's date decides (engine.functions.dates' `date_only`): the rows' day numbers
  are counted (C's toordinal), and the part taken once a day, the counts of a group's days added.
- Any other GROUP BY over a scan of columns runs the row-by-row step over rows of just the
  columns it reads, zipped from the columns (`column_scan.zipped_batches`), not full-width rows.

Groups come out in the order of their first row, as from the row-by-row step (engine.exec.aggregate).
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from itertools import islice
from operator import itemgetter

from engine.core.memory import HASH_ENTRY_BYTES, charge_growth
from engine.exec.column_scan import scan_batches
from engine.ir import plan as P
from engine.ir.expr import Col, Func

_DAY_NUMBER = date.toordinal  # of a date or a datetime (a date's subclass): its date's
_FROM_DAY_NUMBER = date.fromordinal


def grouped_counts_run(plan: P.Aggregate, rt, args, code):
    """The run of the GROUP BY `plan` (`code` its row-by-row code, `args` its arguments) that only
    counts, from Counters of its keys; None when it does not qualify (module docstring)."""
    scan, cg = plan.child, args.cg
    if type(scan) is not P.Scan or rt.profile is not None or cg.correlated or cg.prefetched:
        return None
    if set(code.slot_of) != {("count", None)}:
        return None
    for a in plan.aggs:
        if a.name != "count" or a.collected is not None or a.folded is not None or a.distinct or a.extra:
            return None
        if a.arg is not None and (not isinstance(a.arg, Col) or cg.nullable(a.arg)):
            return None
    position = {cid: i for i, cid in enumerate(scan.layout)}
    keys = _key_sources(plan.keys, cg, position)
    if keys is None:
        return None
    return _counting_run(plan, rt, code.finish, keys)


def _key_sources(keys, cg, position):
    """Per GROUP BY key: (column position, the getter of what is counted of a value or None, the
    function of that to the key or None); None if a key does not qualify."""
    sources = []
    for k in keys:
        if isinstance(k, Col):
            if cg.hash_key("k", k) != "k":  # a float that may be a NaN, or values holding floats
                return None
            sources.append((position[k.column], None, None))
            continue
        if not isinstance(k, Func) or len(k.args) != 1 or not isinstance(k.args[0], Col):
            return None
        arg, impl = k.args[0], k.fn.impl
        if not getattr(impl, "date_only", False) or arg.type.name not in ("Date", "Timestamp") or cg.nullable(arg):
            return None
        # the day number of a Date or of a Timestamp's date; the part taken once a day counted
        sources.append((position[arg.column], _DAY_NUMBER, _of_day_number(impl)))
    return sources


def _of_day_number(impl):
    return lambda day: impl(_FROM_DAY_NUMBER(day))


def _key_converter(keys):
    """What was counted of a row -> the group's key (None when that is the key itself)."""
    converters = [make for _, _, make in keys]
    if not any(converters):
        return None
    if len(converters) == 1:
        return converters[0]
    return lambda parts: tuple([v if make is None else make(v) for make, v in zip(converters, parts, strict=True)])


def _counting_run(plan, rt, finish, keys):
    """Per batch, the Counter counts the batch's keys; then the groups' rows in chunks."""
    data, out_rows, memory = plan.child.data, rt.batch, rt.memory
    convert = _key_converter(keys)
    columnar = data.columnar

    def column(pos, getter, i, stop):
        values = data.column_values(pos, i, stop) if columnar else map(itemgetter(pos), data.rows(i, stop))
        return values if getter is None else map(getter, values)

    def run(p):
        counts = Counter()
        charged = 0  # memory: groups charged so far
        for i, stop in scan_batches(plan.child, rt):
            columns = [column(pos, getter, i, stop) for pos, getter, _ in keys]
            counts.update(columns[0] if len(columns) == 1 else zip(*columns, strict=True))
            charged = charge_growth(memory, counts, charged, HASH_ENTRY_BYTES)
            yield []
        if convert is not None:  # several days may make one group: their counts add up
            merged: dict = {}
            charged = 0  # memory: groups of `merged` charged so far
            counted = iter(counts.items())
            while part := list(islice(counted, out_rows)):
                for day, n in part:
                    key = convert(day)
                    merged[key] = merged.get(key, 0) + n
                charged = charge_growth(memory, merged, charged, HASH_ENTRY_BYTES)
                yield []
            counts = merged
        # (key, (count,)): the finish reads a group's count as a[0], as of an accumulator list
        items = zip(counts.keys(), zip(counts.values()), strict=True)
        counts = None
        while part := list(islice(items, out_rows)):
            yield finish(part)

    return run

"""GROUP BY over a table scan without a loop in Python a row (issue 24).

- Counting (every aggregate COUNT(*) or COUNT of a NULL-free column): the groups' counts come from
  a Counter fed a batch of keys at a time (C's `_count_elements`), the keys read as a column (a
  slice of a column kept whole, or an itemgetter map over rows). A key is a plain column (not a
  float that may be a NaN: those are made one NaN first) or a date part that a NULL-free Date or
  Timestamp column's date decides (engine.functions.dates' `date_only`): the rows' day numbers
  are counted (C's toordinal), and the part taken once a day, the counts of a group's days added.
- COUNT/SUM/AVG/MIN/MAX grouped by a NULL-free integer column of a small range (its values less
  the least one are codes), of NULL-free number columns, and the counts of day numbers, in numpy
  (engine.core.vectors) by engine.exec.coded_groups' exact kernel, a block of
  `rt.step_rows` rows a step; the integer key's range is found first (a pass of steps).
- Any other GROUP BY over a scan of columns runs the row-by-row step over rows of just the
  columns it reads, zipped from the columns (`column_scan.zipped_batches`), not full-width rows.

Groups come out in the order of their first row, as from the row-by-row step (engine.exec.aggregate).
"""

from __future__ import annotations

from array import array
from collections import Counter
from datetime import date, datetime
from itertools import islice
from operator import itemgetter

from engine.core.memory import HASH_ENTRY_BYTES, charge_growth
from engine.core.vectors import vectorised
from engine.exec.coded_groups import (
    INTEGERS,
    MAX_BLOCK_ROWS,
    MAX_TABLE_ROWS,
    SMALL_INTEGERS,
    CodedGroups,
)
from engine.exec.column_scan import scan_batches
from engine.ir import plan as P
from engine.ir.expr import Col, Func
from engine.types.keys import NAN_LAST

_DAY_NUMBER = date.toordinal  # of a date or a datetime (a date's subclass): its date's
_MIDNIGHT_OF_DAY_NUMBER = datetime.fromordinal
# codes (an integer key's range, days) the numpy kernel keeps arrays for: wider falls back
MAX_CODES = 1 << 16


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
    # a midnight datetime, which a date part (UTC) reads as it is: of a Date it first makes one
    def of_day(day):
        return impl(_MIDNIGHT_OF_DAY_NUMBER(day))

    of_day.many = lambda days: map(impl, map(_MIDNIGHT_OF_DAY_NUMBER, days))  # C maps, no frame a day
    return of_day


def _key_converter(keys):
    """What was counted of rows (an iterable) -> their groups' keys (None when those are the keys)."""
    converters = [make for _, _, make in keys]
    if not any(converters):
        return None
    if len(converters) == 1:
        return converters[0].many
    return lambda parts: [tuple([v if make is None else make(v) for make, v in zip(converters, key, strict=True)])
                          for key in parts]


def _counting_run(plan, rt, finish, keys):
    """Per batch, the Counter counts the batch's keys; then the groups' rows in chunks."""
    data, out_rows, memory = plan.child.data, rt.batch, rt.memory
    convert = _key_converter(keys)
    columnar = data.columnar

    def column(pos, getter, i, stop):
        values = data.column_values(pos, i, stop) if columnar else map(itemgetter(pos), data.rows(i, stop))
        return values if getter is None else map(getter, values)

    np = vectorised()
    days = np is not None and columnar and len(keys) == 1 and keys[0][1] is _DAY_NUMBER

    def run(p):
        if days:  # numpy counts the day numbers
            counts = yield from _counted_days(np, plan.child, rt, keys[0][0])
        else:
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
                for key, n in zip(convert(map(itemgetter(0), part)), map(itemgetter(1), part), strict=True):
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


# ---------------------------------------------------------------- numpy: codes of an integer key

_CODED_AGGREGATES = frozenset({"count", "sum", "avg", "min", "max"})


def _typecode(data, position: int) -> str | None:
    """The array typecode of the scan's column at `position` (None: a list, it holds NULLs)."""
    values = data.column_values(position, 0, 0)
    return values.typecode if type(values) is array else None


def _numbers(np, values, code: str):
    """A block's values as a numpy array: a view of an array's slice, or (a column that became a
    list after the query planned, with the same NULL-free values for its rows) converted."""
    return np.frombuffer(values, dtype=code) if type(values) is array else np.array(values, dtype=code)


def _blocks(scan: P.Scan, rt, rows: int, count: bool = True):
    """(start, stop) of each block of `rows` rows of the scan's snapshot, counting the scan's
    progress on the way as scan_batches does (`count`)."""
    progress, n = rt.progress, scan.count
    width = max(len(scan.layout), 1) * 8
    for i in range(0, n, rows):
        stop = min(i + rows, n)
        if count:
            progress.scan_rows += stop - i
            progress.scan_bytes += (stop - i) * width
        yield i, stop


def _slot_sources(plan: P.Aggregate, args, code, data, position):
    """Per accumulator slot in order: (kind, column position or None, holds sort keys), with the
    kernel's parts and typecodes per column; None when an aggregate or column does not qualify."""
    cg, column_of, sorted_keys = args.cg, {}, set()
    for a, v in zip(plan.aggs, args.value_names, strict=True):
        if a.name not in _CODED_AGGREGATES or a.distinct or a.collected is not None or a.folded is not None or a.extra:
            return None
        if a.arg is None:
            continue
        if not isinstance(a.arg, Col):
            return None
        column_of[v] = position[a.arg.column]
        if a.name in ("min", "max") and a.arg.type.is_float and cg.may_be_nan(a.arg):
            sorted_keys.add((a.name, v))  # the slot holds sort_value(v): NaN as NAN_LAST
    slots, parts, kinds = [None] * len(code.slot_of), {}, {}
    for (kind, v), s in code.slot_of.items():
        if kind == "count":  # of rows, or of a column's values when it holds no NULL: the same
            if v is not None and _typecode(data, column_of[v]) is None:
                return None
            slots[s] = ("count", None, False)
            continue
        if kind not in ("sum", "min", "max"):
            return None
        column = column_of[v]
        typecode = _typecode(data, column)
        if typecode != "d" and typecode not in (SMALL_INTEGERS if kind == "sum" else INTEGERS):
            return None
        parts.setdefault(column, set()).add(kind)
        kinds[column] = typecode
        slots[s] = (kind, column, (kind, v) in sorted_keys)
    return slots, parts, kinds


def coded_fold(plan: P.Aggregate, rt, args, code):
    """`fold(size, codes_of, keys_of)`: the steps of the GROUP BY `plan` over a scan of columns
    whose groups are numbered 0..size-1 (`codes_of(start, stop)`: the codes of rows [start,
    stop), a numpy intp array; `keys_of(codes)`: the group keys of a list of codes) folded in
    numpy (engine.exec.coded_groups), a block of step_rows rows a step, then its output rows;
    None when numpy is off or an aggregate or its column does not qualify (NULL-free numbers)."""
    np = vectorised()
    scan, cg = plan.child, args.cg
    if (np is None or type(scan) is not P.Scan or not scan.data.columnar or rt.profile is not None
            or cg.correlated or cg.prefetched or scan.count >= MAX_TABLE_ROWS):
        return None
    data = scan.data
    position = {cid: i for i, cid in enumerate(scan.layout)}
    found = _slot_sources(plan, args, code, data, position)
    if found is None:
        return None
    slots, parts, kinds = found
    rows = max(1, min(rt.step_rows, MAX_BLOCK_ROWS))

    def fold(size: int, codes_of, keys_of):
        groups = CodedGroups(np, size, parts, kinds)
        rt.memory.charge(groups.nbytes)
        charged = 0  # memory: groups charged so far
        for i, stop in _blocks(scan, rt, rows):
            groups.add(codes_of(i, stop), {c: _numbers(np, data.column_values(c, i, stop), kinds[c]) for c in parts})
            charged = charge_growth(rt.memory, groups.order, charged, HASH_ENTRY_BYTES)
            yield []
        yield from _finished(np, groups, slots, keys_of, code.finish, rt.batch)

    return fold


def integer_groups_run(plan: P.Aggregate, rt, args, code, fallback):
    """The run of the GROUP BY `plan` by one NULL-free integer column over a scan of columns in
    numpy (its values less the least one are the codes; a pass of steps finds that range first),
    `fallback` (the row-by-row run) when the range proves too wide; None when numpy is off or the
    query does not qualify."""
    if len(plan.keys) != 1 or not isinstance(plan.keys[0], Col):
        return None
    scan = plan.child
    if type(scan) is not P.Scan or not scan.data.columnar:
        return None
    data = scan.data
    key = {cid: i for i, cid in enumerate(scan.layout)}[plan.keys[0].column]
    key_code = _typecode(data, key)
    fold = coded_fold(plan, rt, args, code) if key_code in INTEGERS else None
    if fold is None:
        return None
    np = vectorised()
    rows = max(1, min(rt.step_rows, MAX_BLOCK_ROWS))

    def keys_at(i, stop):
        keys = _numbers(np, data.column_values(key, i, stop), key_code)
        return keys if key_code == "Q" else keys.astype(np.int64)

    def run(p):
        low = high = None
        for i, stop in _blocks(scan, rt, rows, count=False):  # the key's range, a block a step
            keys = keys_at(i, stop)
            low = int(keys.min()) if low is None else min(low, int(keys.min()))
            high = int(keys.max()) if high is None else max(high, int(keys.max()))
            yield []
        if low is None:
            return
        if high - low >= MAX_CODES:
            yield from fallback(p)
            return
        base = np.uint64(low) if key_code == "Q" else low
        yield from fold(high - low + 1, lambda i, stop: (keys_at(i, stop) - base).astype(np.intp),
                        lambda codes: [c + low for c in codes])

    return run


def _finished(np, groups: CodedGroups, slots, keys_of, finish, out_rows: int):
    """The output rows of the groups in chunks of `out_rows`, in the order of their first rows:
    each group's accumulators as the row step holds them, through the step's own `finish`."""
    order = groups.order
    for start in range(0, len(order), out_rows):
        chunk = order[start:start + out_rows]
        codes = np.array(chunk, np.intp)
        columns = []
        for kind, column, sort_keys in slots:
            if kind == "count":
                columns.append(groups.count[codes].tolist())
            elif kind == "sum":
                columns.append(groups.sums_of(column, codes))
            else:
                values = (groups.mins if kind == "min" else groups.maxs)[column][codes].tolist()
                columns.append([NAN_LAST if x != x else x for x in values] if sort_keys else values)
        accumulators = zip(*columns, strict=True) if columns else [()] * len(chunk)
        yield finish(list(zip(keys_of(chunk), accumulators, strict=True)))


def _counted_days(np, scan: P.Scan, rt, position: int):
    """Steps counting the day numbers of the NULL-free Date or Timestamp column at `position` (a
    block of step_rows rows a step: C's toordinal a value, numpy's bincount of the days less the
    least so far); returns {day: count} in the order of each day's first row. Days spanning
    MAX_CODES or more go on in a Counter."""
    memory = rt.memory
    groups, base, counter = None, 0, None
    charged = held = 0  # memory: groups and kernel bytes charged so far
    # one iterator over the column's values, a block taken a step (no slice copied; a column
    # object only grows past the snapshot's rows, and the blocks take exactly its rows)
    values = scan.data.column_iterator(position, 0, scan.count)
    for i, stop in _blocks(scan, rt, max(1, rt.step_rows)):
        days = np.fromiter(map(_DAY_NUMBER, islice(values, stop - i)), np.int64, stop - i)
        if counter is None:
            low, high = int(days.min()), int(days.max())
            if groups is not None:
                low, high = min(low, base), max(high, base + groups.size - 1)
            if high - low >= MAX_CODES:  # too wide for arrays: a Counter from here on
                counter = Counter() if groups is None else Counter(_day_counts(np, groups, base))
                charged = 0
            elif groups is None:
                groups, base = CodedGroups(np, high - low + 1, {}, {}), low
            elif low < base or high >= base + groups.size:
                groups.resize(high - low + 1, base - low)
                base = low
        if counter is not None:
            counter.update(days.tolist())
            charged = charge_growth(memory, counter, charged, HASH_ENTRY_BYTES)
        else:
            groups.add((days - base).astype(np.intp), {})
            charged = charge_growth(memory, groups.order, charged, HASH_ENTRY_BYTES)
            memory.charge(max(0, groups.nbytes - held))
            held = max(held, groups.nbytes)
        yield []
    if counter is not None:
        return counter
    return {} if groups is None else _day_counts(np, groups, base)


def _day_counts(np, groups: CodedGroups, base: int) -> dict:
    """{day: count} of the kernel's groups (codes less `base`), in the order of their first rows."""
    order = groups.order
    return dict(zip([c + base for c in order], groups.count[np.array(order, np.intp)].tolist(), strict=True))

"""GROUP BY a string column kept with dictionary codes, counted and summed by code in numpy.

`SELECT name, COUNT(*), SUM(val) FROM t GROUP BY name` over a scan of columns where `name` keeps
dictionary codes (engine.catalog.column_dictionary) and every aggregate is COUNT(*) (or COUNT of
a NULL-free column), or SUM / AVG of a NULL-free DOUBLE column: per batch, the groups' counts
are numpy's bincount of the codes and their sums numpy's `add.at` of the values at the codes,
which adds them one at a time in row order, as the row-by-row step does (`a[s] += v`); a sum
starts at -0.0, the identity of float addition (-0.0 + v is v for every v, -0.0 and NaN
included), so it equals the step's start from the group's first value. The groups come out in
the order of their first row (the step's dict order) through the step's own finish, from
accumulator lists laid out as its slots are. Without numpy, or for any other shape, None: the
caller's path runs.
"""

from __future__ import annotations

from itertools import chain, islice

from engine.core.memory import HASH_ENTRY_BYTES, value_bytes
from engine.exec.column_filters import vectorised
from engine.exec.column_scan import scan_batches
from engine.ir import plan as P
from engine.ir.expr import Col


def coded_groups_run(plan: P.Aggregate, rt, args, code):
    """The run of the GROUP BY `plan` (`code` its GroupedCode, `args` its arguments) by code;
    None when it does not qualify (module docstring)."""
    np = vectorised()
    scan, cg = plan.child, args.cg
    if np is None or type(scan) is not P.Scan or not scan.data.columnar or rt.profile is not None \
            or cg.correlated or cg.prefetched or len(plan.keys) != 1 or type(plan.keys[0]) is not Col:
        return None
    if cg.hash_key("k", plan.keys[0]) != "k":  # a key grouped by more than its value (collation)
        return None
    data = scan.data
    position = {cid: i for i, cid in enumerate(scan.layout)}
    key = position.get(plan.keys[0].column)
    if key is None or not hasattr(data, "dictionary_values") or data.dictionary_values(key) is None:
        return None
    summed = _summed_columns(plan, args, position, data, cg)
    if summed is None:
        return None
    slots = []  # per accumulator slot: None for a count, else the position of the summed column
    for kind, v in sorted(code.slot_of, key=code.slot_of.get):
        if kind == "count" and v is None:
            slots.append(None)
        elif kind == "sum" and v in summed:
            slots.append(summed[v])
        else:
            return None
    if not slots:  # GROUP BY alone (DISTINCT): a set of the values is faster
        return None
    return _coded_run(plan, rt, np, key, slots, code)


def _summed_columns(plan, args, position, data, cg) -> dict | None:
    """Argument variable -> position of the NULL-free DOUBLE column SUM/AVG adds; None when an
    aggregate is not COUNT(*), COUNT/SUM/AVG of such a column."""
    summed = {}
    for a, v in zip(plan.aggs, args.value_names, strict=True):
        if a.collected is not None or a.folded is not None or a.distinct or a.extra:
            return None
        if a.arg is None and a.name == "count":
            continue
        if type(a.arg) is not Col or cg.nullable(a.arg) or a.arg.column not in position:
            return None
        where = position[a.arg.column]
        if a.name == "count" and data.holds_no_null(where):
            continue
        if a.name not in ("sum", "avg") or a.arg.type.name != "Float64" or not data.holds_no_null(where):
            return None
        summed[v] = where
    return summed


def _grown(np, held, size: int, fill):
    """`held` (a numpy array) lengthened to `size` with `fill` (the Dictionary grew)."""
    if len(held) >= size:
        return held
    return np.concatenate([held, np.full(size - len(held), fill, dtype=held.dtype)])


def _coded_run(plan, rt, np, key: int, slots: list, code):
    data, out_rows, memory, finish = plan.child.data, rt.batch, rt.memory, code.finish
    summed = sorted({s for s in slots if s is not None})

    def run(p):
        counts = np.zeros(0, dtype=np.int64)
        sums = {s: np.zeros(0, dtype=np.float64) for s in summed}
        seen = np.zeros(0, dtype=bool)
        order = []  # the groups' codes in the order of their first row, a batch's worth a part
        values = []
        batches = scan_batches(plan.child, rt)
        for i, stop in batches:
            coded = data.dictionary_codes(key, i, stop)
            if coded is None:  # a value found no code: the groups so far go on by the step
                acc = dict(_groups(np, order, counts, sums, slots, values))
                for j, end in chain([(i, stop)], batches):
                    code.step(data.rows(j, end), p, acc)
                    yield []
                items = iter(acc.items())
                while part := list(islice(items, out_rows)):
                    yield finish(part)
                return
            codes, values = coded
            size = len(values)
            counts, seen = _grown(np, counts, size, 0), _grown(np, seen, size, False)
            batch = np.frombuffer(codes, dtype=np.uint16)
            counts += np.bincount(batch, minlength=size)
            for s in summed:
                sums[s] = _grown(np, sums[s], size, -0.0)
                column = data.column_values(s, i, stop)
                with np.errstate(all="ignore"):  # overflow to infinity, NaN: as Python adds
                    np.add.at(sums[s], batch, np.frombuffer(column, dtype=np.float64)
                              if type(column) is not list else np.array(column, dtype=np.float64))
            fresh = batch[~seen[batch]]
            if len(fresh):
                found, first = np.unique(fresh, return_index=True)
                fresh = found[np.argsort(first, kind="stable")]
                seen[fresh] = True
                order.append(fresh)
                memory.charge(len(fresh) * (value_bytes(values[int(fresh[0])]) + 8 * len(slots) + 56
                                            + HASH_ENTRY_BYTES))
            yield []
        items = _groups(np, order, counts, sums, slots, values)
        while part := list(islice(items, out_rows)):
            yield finish(part)

    return run


def _groups(np, order: list, counts, sums: dict, slots: list, values: list):
    """(key, accumulator list) of each group, in the order of their first row."""
    if not order:
        return iter(())
    groups = np.concatenate(order)
    columns = [counts[groups].tolist() if s is None else sums[s][groups].tolist() for s in slots]
    keys = map(values.__getitem__, groups.tolist())
    return zip(keys, map(list, zip(*columns, strict=True)), strict=True)

"""GROUP BY a string column kept with dictionary codes, folded by code in numpy (issue 24).

`SELECT name, COUNT(*), SUM(val) FROM t GROUP BY name` over a scan of columns where `name` keeps
dictionary codes (engine.catalog.column_dictionary): a first pass of steps reads the codes of
the snapshot's rows a batch at a time (coding the rows not coded yet), then the groups, numbered
by code, are folded by engine.exec.grouped_columns' `coded_fold` (engine.exec.coded_groups:
COUNT, SUM, AVG, MIN, MAX of NULL-free numbers, exact as the row step, the groups in the order
of their first rows, through the step's own finish). A column that loses its codes during the
first pass (a value the full Dictionary has no room for) runs the row-by-row GROUP BY instead.
"""

from __future__ import annotations

from engine.core.vectors import vectorised
from engine.exec.grouped_columns import coded_fold
from engine.ir import plan as P
from engine.ir.expr import Col


def dictionary_groups_run(plan: P.Aggregate, rt, args, code, fallback):
    """The run of the GROUP BY `plan` by code, `fallback` (the row-by-row run) if the key column
    loses its codes; None when numpy is off or the query does not qualify."""
    scan, cg = plan.child, args.cg
    if len(plan.keys) != 1 or type(plan.keys[0]) is not Col or not plan.aggs or type(scan) is not P.Scan \
            or not scan.data.columnar or not hasattr(scan.data, "dictionary_values"):
        return None  # (GROUP BY alone, DISTINCT: a set of the values is faster)
    if cg.hash_key("k", plan.keys[0]) != "k":  # a key grouped by more than its value
        return None
    data = scan.data
    key = {cid: i for i, cid in enumerate(scan.layout)}.get(plan.keys[0].column)
    if key is None or data.dictionary_values(key) is None:
        return None
    fold = coded_fold(plan, rt, args, code)
    if fold is None:
        return None
    np = vectorised()

    def run(p):
        rt.memory.charge(2 * scan.count)  # the snapshot's codes, held through the fold
        codes = np.empty(scan.count, np.uint16)
        values = [None]  # the column's code -> value list (the Dictionary's own, it only grows)
        for i in range(0, scan.count, rt.batch):
            stop = min(i + rt.batch, scan.count)
            coded = data.dictionary_codes(key, i, stop)
            if coded is None:
                yield from fallback(p)
                return
            codes[i:stop] = np.frombuffer(coded[0], dtype=np.uint16)
            values = coded[1]
            yield []
        yield from fold(len(values), lambda start, stop: codes[start:stop].astype(np.intp),
                        lambda chunk: [values[c] for c in chunk])

    return run

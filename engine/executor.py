"""Executor: turns a logical plan into a pipeline of generators over row batches (lists of tuples).

Every operator does bounded work per step: a breaker (sort, aggregate, join build) consumes one
input batch per step and yields [] meanwhile, so callers can interleave other work, and no step
emits more than the step budget (Limits.step_rows) of rows. Joins are in engine/join.py, sorts in
engine/sort.py.
"""

from __future__ import annotations

import decimal
from itertools import chain, islice
from operator import itemgetter

from engine import expr as P
from engine.batch_source import column_refs, map_source
from engine.compile import Codegen
from engine.errors import EngineError
from engine.join import build_join
from engine.lateral_join import build_lateral_join
from engine.memory import HASH_ENTRY_BYTES, LIST_SLOT_BYTES, batch_bytes, charge_growth
from engine.recursive import build_recursive_union, build_work_table_scan
from engine.semi_join import build_semi_join
from engine.sort import build_sort, limit_batches
from engine.subquery import correlated_rows, prefetching, subquery_runner
from engine.window import build_window

BATCH = 2048
COLLECTED_VALUE_BYTES = 40  # memory: one value a collected aggregate holds (its slot and object)


def collected_final(agg):
    """values -> the collected aggregate's result (over distinct values for DISTINCT)."""
    final, params = agg.collected.final, agg.params
    if agg.distinct:
        return lambda values: final(list(dict.fromkeys(values)), params)
    return lambda values: final(values, params)


class Runtime:
    """What a running query shares: the session context and its progress counters."""

    def __init__(self, ctx, progress, nonnull=frozenset(), nonneg=frozenset()):
        self.ctx = ctx
        self.progress = progress
        # the step budget: no step emits more rows (tests shrink it to make bounds visible)
        self.step_rows = max(1, ctx.limits.step_rows)
        self.batch = min(BATCH, self.step_rows)  # rows per scan batch and per output chunk
        self.nonnull = nonnull  # column ids that hold no NULL in the planned snapshot
        self.nonneg = nonneg  # integer column ids that hold no negative value in it
        self.memory = ctx.memory  # engine.memory.QueryMemory: breakers charge the rows they hold

    # Operators in other modules (engine.join, engine.sort, engine.subquery) build their inputs
    # through these, so they need not import this module (which imports them).
    def build(self, plan):
        return build(plan, self)

    def build_one_pass(self, plan):
        return _build_one_pass(plan, self)

    def codegen(self):
        return _codegen(self)


def build(plan: P.Plan, rt: Runtime):
    """plan -> run(p) returning an iterator of batches; p is the tuple of outer values."""
    kind = type(plan).__name__
    if kind in ("Filter", "Project"):
        return _build_map(plan, rt)
    return _BUILDERS[kind](plan, rt)


UNPACK_WIDTH = 10  # table rows up to this wide are unpacked into loop variables


class _RowVars(dict):
    """Column id -> loop variable `_c<i>`, remembering which columns generated code asked for."""

    def __init__(self, layout):
        super().__init__((cid, f"_c{i}") for i, cid in enumerate(layout))
        self.width = len(layout)
        self.used: set[str] = set()

    def __getitem__(self, cid):
        name = dict.__getitem__(self, cid)
        self.used.add(name)
        return name

    def target(self) -> str:
        """The unpacking target: `_c<i>` for the columns used, `_` for the others."""
        names = [n if (n := f"_c{i}") in self.used else "_" for i in range(self.width)]
        return ", ".join(names) + ("," if len(names) == 1 else "")


def _row_vars(child):
    """Columns as loop variables (`for _c0, _, _c2 in b`: one unpacking per row instead of a
    subscript per use, ~5-15% faster loops) when the rows are a table's, of a known small
    width; None otherwise."""
    if isinstance(child, P.Scan) and 0 < len(child.layout) <= UNPACK_WIDTH:
        return _RowVars(child.layout)
    return None


def _codegen(rt):
    return Codegen(lambda sq: subquery_runner(sq, rt), rt.nonnull, rt.nonneg)


def _resliced(run_child, size):
    """The child's batches cut into batches of at most `size` rows."""
    def run(p):
        for batch in run_child(p):
            if not isinstance(batch, list):
                batch = list(batch)
            if len(batch) <= size:
                yield batch
                continue
            for i in range(0, len(batch), size):
                yield batch[i:i + size]

    return run


def _map_parts(plan):
    """Collapse Project(Filter(child)) / Filter(child) / Project(child) -> (child, predicate, exprs)."""
    exprs = None
    if isinstance(plan, P.Project):
        exprs = plan.exprs
        plan = plan.child
        if isinstance(plan, P.Filter):
            return plan.child, plan.predicate, exprs
        return plan, None, exprs
    return plan.child, plan.predicate, None


def _build_map(plan, rt, as_set=False):
    """Filter and/or projection as one generated comprehension per batch (a set comprehension
    when feeding DISTINCT)."""
    child, pred, exprs = _map_parts(plan)
    if isinstance(child, P.Join) and child.kind in ("INNER", "CROSS") and not as_set:
        return _build_join(child, rt, pred, exprs)
    if isinstance(child, P.Sort) and pred is None and exprs is not None and not as_set:
        swapped = _project_before_sort(plan, child, exprs)
        if swapped is not None:
            return _build_sort(swapped, rt)
    cg = _codegen(rt)
    cols = None
    if isinstance(child, P.Scan) and exprs is not None \
            and [e.value if e.kind == "col" else None for e in exprs] != list(child.layout):
        cols = _row_vars(child)  # not for an identity projection: that one passes `r` on
    unpacked = cols is not None
    if not unpacked:
        cols = column_refs(child.layout)
    proj, cond = map_source(cg, child.layout, pred, exprs, cols=cols)
    if proj == "r" and not cond and not as_set:
        return build(child, rt)
    scalar = as_set and exprs is not None and len(exprs) == 1
    if scalar:
        # one column: a set of plain values (cheaper to hash than 1-tuples); tupled on output
        proj = cg.expr(exprs[0], cols)
    target = cols.target() if unpacked and proj != "r" else "r"
    if as_set:
        fn = cg.build(["b", "p"], [f"return {{{proj} for {target} in b{cond}}}"])
        fn.scalar = scalar
    else:
        fn = cg.build(["b", "p"], [f"return [{proj} for {target} in b{cond}]"])
    small = correlated_rows(cg, rt.step_rows)
    if small:
        run_child = _resliced(build(child, rt), small)

        def run(p):
            for batch in run_child(p):
                yield fn(batch, p) if batch else batch
    elif isinstance(child, P.Scan):
        run = _scan(child, rt, fn)
    elif isinstance(child, P.OneRow):
        def run(p):  # SELECT without FROM: one generator, not two
            yield fn(_ONE_ROW, p)
    else:
        run_child = build(child, rt)

        def run(p):
            for batch in run_child(p):
                yield fn(batch, p) if batch else batch

    run = prefetching(cg, run)
    run.scalar = getattr(fn, "scalar", False)
    return run


def _scan(plan: P.Scan, rt, fn=None, lazy=False):
    """Batches of the table's snapshot: lists, or with `lazy` one-pass iterators over the rows.

    A single-pass consumer (a generated comprehension or row loop) gets `lazy` batches: a slice
    would be a fresh container referencing thousands of old rows, which every young-generation
    garbage collection triggered by the consumer's own allocations walks again (~20% of a
    projection's time)."""
    progress = rt.progress
    width = max(len(plan.layout), 1) * 8

    rows, n = plan.rows, plan.count  # the snapshot: later appends are not seen
    step = rt.batch

    if fn is not None or lazy:
        def run_lazy(p):
            it = iter(rows)  # rows are only ever appended to, so the first n stay put
            for i in range(0, n, step):
                size = min(step, n - i)
                progress.scan_rows += size
                progress.scan_bytes += size * width
                batch = islice(it, size)
                yield fn(batch, p) if fn is not None else batch

        return run_lazy

    def run(p):
        for i in range(0, n, step):
            batch = rows[i:min(i + step, n)]
            progress.scan_rows += len(batch)
            progress.scan_bytes += len(batch) * width
            yield batch

    return run


def _build_one_pass(plan, rt):
    """`build` for a consumer that walks each batch once: a table scan hands out lazy batches."""
    if isinstance(plan, P.Scan):
        return _scan(plan, rt, lazy=True)
    return build(plan, rt)


def _build_scan(plan, rt):
    return _scan(plan, rt)


def _build_numbers(plan: P.Numbers, rt):
    count = plan.count
    progress = rt.progress
    step = rt.batch

    def run(p):
        for start in range(0, count, step):
            batch = list(zip(range(start, min(start + step, count))))
            progress.scan_rows += len(batch)
            progress.scan_bytes += len(batch) * 8
            yield batch

    return run


_ONE_ROW = ((),)


def _build_one(plan, rt):
    def run(p):
        yield [()]

    return run


def _build_materialized(plan: P.Materialized, rt):
    step = rt.batch

    def run(p):
        rows = plan.produce(rt.ctx)
        rt.memory.charge(batch_bytes(rows))
        for i in range(0, len(rows), step):
            yield rows[i:i + step]

    return run


def _build_streamed(plan: P.Streamed, rt):
    progress = rt.progress

    def run(p):
        for batch in plan.produce(rt.ctx, rt.batch):
            progress.scan_rows += len(batch)
            yield batch

    return run


# ---------------------------------------------------------------- joins


def _build_join(plan: P.Join, rt, pred=None, exprs=None):
    if plan.kind in ("SEMI", "ANTI"):
        return build_semi_join(plan, rt)
    return build_join(plan, rt, pred, exprs)


# ---------------------------------------------------------------- aggregation


def _build_aggregate(plan: P.Aggregate, rt):
    # a collected aggregate charges its values by the batch's length: it takes list batches
    one_pass = plan.keys and not any(a.collected is not None for a in plan.aggs)
    child_run = _build_one_pass(plan.child, rt) if one_pass else build(plan.child, rt)
    cg = _codegen(rt)
    row_vars = _row_vars(plan.child) if plan.keys else None
    cols = row_vars or column_refs(plan.child.layout)
    aggs = plan.aggs
    arg_src = {}
    lines = []
    value_names = []
    for a in aggs:
        if a.arg is None:
            value_names.append(None)
            continue
        src = cg.expr(a.arg, cols)
        if a.extra:  # a collected aggregate of several arguments gathers a tuple a row
            src = "(" + ", ".join([src] + [cg.expr(x, cols) for x in a.extra]) + ",)"
        if src not in arg_src:
            arg_src[src] = f"v{len(arg_src)}"
        value_names.append(arg_src[src])
    small = correlated_rows(cg, rt.step_rows)
    if small:
        child_run = _resliced(child_run, small)
    if not plan.keys:
        return prefetching(cg, _build_global_aggregate(plan, rt, cg, cols, arg_src, value_names, child_run))
    for src, name in arg_src.items():
        lines.append(f"    {name} = {src}")
    keys = [cg.expr(k, cols) for k in plan.keys]
    key = keys[0] if len(keys) == 1 else "(" + ", ".join(keys) + ",)"
    init: list[str] = []
    update: list[str] = []
    slot_of: dict = {}

    def slot(kind, v, nullable):
        """The accumulator slot for (kind, value), shared by aggregates that need the same one."""
        key = (kind, v if (kind != "count" or nullable) else None)
        if key in slot_of:
            return slot_of[key]
        s = slot_of[key] = len(init)
        if kind == "count":
            if key[1] is None:
                init.append("1")
                update.append(f"a[{s}] += 1")
            else:
                init.append(f"(0 if {v} is None else 1)")
                update.append(f"if {v} is not None: a[{s}] += 1")
        elif kind == "distinct":
            init.append(f"({{{v}}} if {v} is not None else set())" if nullable else f"{{{v}}}")
            update.append(f"if {v} is not None: a[{s}].add({v})" if nullable else f"a[{s}].add({v})")
        elif kind == "sum":
            init.append(v)
            update.append(f"if {v} is not None: a[{s}] = {v} if a[{s}] is None else a[{s}] + {v}"
                          if nullable else f"a[{s}] += {v}")
        elif kind in ("min", "max"):
            op = "<" if kind == "min" else ">"
            init.append(v)
            update.append(f"if {v} is not None and (a[{s}] is None or {v} {op} a[{s}]): a[{s}] = {v}"
                          if nullable else f"if {v} {op} a[{s}]: a[{s}] = {v}")
        elif kind == "any":
            init.append(v)
            if nullable:
                update.append(f"if a[{s}] is None: a[{s}] = {v}")
        elif kind == "collect":
            init.append(f"[{v}]")
            update.append(f"a[{s}].append({v})")
        else:
            raise EngineError(f"unknown aggregate {kind}")
        return s

    out_cg = _codegen(rt)
    finals = []  # source of each aggregate's value from the accumulator list `a`
    for i, a in enumerate(aggs):
        v = value_names[i]
        nullable = a.arg is not None and cg.nullable(a.arg)
        if a.collected is not None:
            finals.append(f"{out_cg.bind(collected_final(a))}(a[{slot('collect', v, nullable)}])")
        elif a.distinct and v is not None:
            fn = _distinct_final(a.name, slot("distinct", v, nullable), a)
            finals.append(f"{out_cg.bind(fn)}(a)")
        elif a.name == "count":
            finals.append(f"a[{slot('count', v, nullable)}]")
        elif a.name == "avg":
            s_sum, s_cnt = slot("sum", v, nullable), slot("count", v, nullable)
            if a.type.name == "Decimal":
                finals.append(f"{out_cg.bind(_mean(a))}(a[{s_sum}], a[{s_cnt}])")
            else:
                finals.append(f"(None if a[{s_cnt}] == 0 else float(a[{s_sum}]) / a[{s_cnt}])")
        else:
            finals.append(f"a[{slot(a.name, v, nullable)}]")
    body = ["get = acc.get", "for r in b:"] + lines + [
        f"    k = {key}",
        "    a = get(k)",
        "    if a is None:",
        f"        acc[k] = [{', '.join(init)}]",
    ]
    if update:
        body += ["    else:"] + ["        " + u for u in update]
    if row_vars is not None:
        body[1] = f"for {row_vars.target()} in b:"
    step = cg.build(["b", "p", "acc"], body)
    key_out = "k, " if len(keys) == 1 else "".join(f"k[{i}], " for i in range(len(keys)))
    # one generated comprehension turns a chunk of (key, accumulators) into output rows
    finish = out_cg.build(["part"], [f"return [({key_out}{''.join(f + ', ' for f in finals)}) for k, a in part]"])

    out_rows = rt.batch
    collecting = sum(1 for a in aggs if a.collected is not None)  # memory: values held a row

    def run(p):
        acc = {}
        groups = 0  # memory: groups charged so far
        for batch in child_run(p):
            if batch:
                step(batch, p, acc)
                groups = charge_growth(rt.memory, acc, groups, HASH_ENTRY_BYTES)
                if collecting:
                    rt.memory.charge(len(batch) * collecting * COLLECTED_VALUE_BYTES)
            yield []
        # the groups in chunks straight off the dict (no step copies every group at once)
        items = iter(acc.items())
        acc = None
        while part := list(islice(items, out_rows)):
            yield finish(part)

    return prefetching(cg, run)


def _mean(agg):
    """(total, count) -> AVG value: Float64, or for a Decimal argument a Decimal of the result
    scale (Databend rounds AVG half up, and truncates AVG(DISTINCT))."""
    if agg.type.name != "Decimal":
        return lambda total, count: None if count == 0 else float(total) / count
    unit = decimal.Decimal(1).scaleb(-agg.type.scale)
    rounding = decimal.ROUND_DOWN if agg.distinct else decimal.ROUND_HALF_UP
    context = decimal.Context(prec=100)

    def mean(total, count):
        if count == 0:
            return None
        return context.divide(decimal.Decimal(total), count).quantize(unit, rounding=rounding, context=context)

    return mean


def _distinct_final(name, s, agg=None):
    if name == "count":
        return lambda acc: len(acc[s])
    if name == "sum":
        return lambda acc: sum(acc[s]) if acc[s] else None
    if name == "avg":
        mean = _mean(agg)
        return lambda acc: mean(sum(acc[s]), len(acc[s]))
    if name == "min":
        return lambda acc: min(acc[s]) if acc[s] else None
    if name == "max":
        return lambda acc: max(acc[s]) if acc[s] else None
    return lambda acc: next(iter(acc[s])) if acc[s] else None


def _build_global_aggregate(plan, rt, cg, cols, arg_src, value_names, child_run):
    """No GROUP BY: per batch, gather each argument column once and fold it with builtins."""
    aggs = plan.aggs
    lines = []
    nullable_of = {}
    for a, v in zip(aggs, value_names, strict=False):
        if v is not None:
            nullable_of[v] = nullable_of.get(v, False) or cg.nullable(a.arg)
    position = {cid: i for i, cid in enumerate(plan.child.layout)}
    column_of = {v: position[a.arg.value] for a, v in zip(aggs, value_names, strict=False)
                 if v is not None and a.arg.kind == "col" and not a.extra}
    for src, name in arg_src.items():
        if name in column_of:
            # a plain column: gathered by a C-level itemgetter map
            values = f"map({cg.bind(itemgetter(column_of[name]))}, b)"
            if nullable_of.get(name):
                lines.append(f"{name} = [x for x in {values} if x is not None]")
            else:
                lines.append(f"{name} = list({values})")
        elif nullable_of.get(name):
            lines.append(f"{name} = [x for r in b if (x := {src}) is not None]")
        else:
            lines.append(f"{name} = [{src} for r in b]")
    summed = set()  # argument lists whose batch sum is computed already (SUM and AVG share it)
    for i, (a, v) in enumerate(zip(aggs, value_names, strict=False)):
        if a.collected is not None:
            lines.append(f"st[{i}].extend({v})")
        elif a.distinct:
            lines.append(f"st[{i}].update({v})")
        elif a.name == "count":
            lines.append(f"st[{i}] += len({'b' if v is None else v})")
        elif a.name in ("sum", "avg"):
            if v not in summed:
                summed.add(v)
                lines.append(f"s_{v} = sum({v}) if {v} else None")
            lines += [f"if s_{v} is not None:", f"    st[{i}] = s_{v} if st[{i}] is None else st[{i}] + s_{v}"]
            if a.name == "avg":
                lines.append(f"cnt[{i}] += len({v})")
        elif a.name in ("min", "max"):
            op = "<" if a.name == "min" else ">"
            lines += [f"if {v}:", f"    x = {a.name}({v})",
                      f"    if st[{i}] is None or x {op} st[{i}]: st[{i}] = x"]
        elif a.name == "any":
            lines += [f"if {v} and st[{i}] is None:", f"    st[{i}] = {v}[0]"]
    step = cg.build(["b", "p", "st", "cnt"], lines or ["pass"])

    distinct_slots = [i for i, a in enumerate(aggs) if a.distinct]  # memory: sets that grow

    collected = [i for i, a in enumerate(aggs) if a.collected is not None]  # memory: lists that grow

    def run(p):
        st = [[] if a.collected is not None else set() if a.distinct else 0 if a.name == "count" else None
              for a in aggs]
        cnt = [0] * len(aggs)
        held = [0] * len(aggs)  # memory: values of each DISTINCT set or collected list charged so far
        seen = False  # any input row (the empty grouping set of no rows is no group)
        for batch in child_run(p):
            if batch:
                seen = True
                step(batch, p, st, cnt)
                for i in distinct_slots:
                    held[i] = charge_growth(rt.memory, st[i], held[i], HASH_ENTRY_BYTES)
                for i in collected:
                    held[i] = charge_growth(rt.memory, st[i], held[i], LIST_SLOT_BYTES)
            yield []
        if plan.grouping_set and not seen:
            return
        row = []
        for i, a in enumerate(aggs):
            v = st[i]
            if a.collected is not None:
                row.append(collected_final(a)(v))
            elif a.distinct:
                row.append(_distinct_final(a.name, 0, a)([v]))
            elif a.name == "avg":
                row.append(_mean(a)(v, cnt[i]))
            else:
                row.append(v)
        yield [tuple(row)]

    return run


# ---------------------------------------------------------------- sort, limit, distinct, set ops


def _project_before_sort(plan, sort: P.Sort, exprs):
    """Project(Sort(x)) as Sort(Project(x)) when every sort key is a projected column: the
    projection then reads the rows in storage order and the sort moves the narrower output rows,
    instead of projecting rows picked from all over memory after sorting (~20% of a full sort).
    Every row is projected either way, so the same values (and errors) come out."""
    position = {}
    for i, e in enumerate(exprs):
        if e.kind == "col":
            position.setdefault(e.value, i)
    keys = []
    for pos, desc, nulls_first in sort.keys:
        i = position.get(sort.child.layout[pos])
        if i is None:
            return None
        keys.append((i, desc, nulls_first))
    inner = P.Project(plan.layout, plan.types, child=sort.child, exprs=exprs)
    return P.Sort(plan.layout, plan.types, child=inner, keys=keys)


def _build_sort(plan: P.Sort, rt, limit=None, offset=0):
    return build_sort(plan, rt, limit, offset)


def _build_limit(plan: P.Limit, rt):
    if isinstance(plan.child, P.Sort) and plan.limit is not None:
        return _build_sort(plan.child, rt, plan.limit, plan.offset)
    if isinstance(plan.child, P.Distinct):
        child_run = _build_distinct(plan.child, rt, streaming=True)
    else:
        child_run = build(plan.child, rt)
    limit, offset = plan.limit, plan.offset

    def run(p):
        if limit == 0:
            return
        yield from limit_batches(child_run(p), limit, offset)

    return run


def _build_distinct(plan: P.Distinct, rt, streaming=False):
    """DISTINCT. By default a pipeline breaker: each step folds one batch into a set with C-level
    builtins (set.update over a map or a generated set comprehension), and the set is emitted at
    the end. Under a LIMIT (`streaming`) only the rows new in each batch go on at once, so the
    limit can stop the scan early. Output order is not promised either way."""
    values_run, scalar = _distinct_values(plan.child, rt)

    def run_sets(p):
        seen = set()
        held = 0  # memory: distinct rows charged so far
        for values in values_run(p):
            if values is None:
                yield []
                continue
            if not isinstance(values, set):
                values = set(values)
            fresh = values - seen if seen else values  # iterates the batch's set, not `seen`
            seen |= fresh
            held = charge_growth(rt.memory, seen, held, HASH_ENTRY_BYTES)
            yield fresh

    def run_breaker(p):
        seen = set()
        held = 0  # memory: distinct rows charged so far
        for values in values_run(p):
            if values is not None:
                seen.update(values)
                held = charge_growth(rt.memory, seen, held, HASH_ENTRY_BYTES)
            yield []
        yield from _chunks(seen, scalar, rt.batch)

    def run_streaming(p):
        for fresh in run_sets(p):
            yield list(zip(fresh)) if scalar else list(fresh)

    return run_streaming if streaming else run_breaker


def _chunks(values, scalar, size):
    """A collection as output batches of at most `size` rows (1-tuples made when `scalar`)."""
    it = iter(values)
    while True:
        part = list(zip(islice(it, size))) if scalar else list(islice(it, size))
        if not part:
            return
        yield part


def _distinct_values(child, rt):
    """(run yielding per batch an iterable of the rows to deduplicate, or None for a step
    without rows; whether those are bare values of one column rather than row tuples)."""
    if isinstance(child, (P.Project, P.Filter)):
        source, pred, exprs = _map_parts(child)
        if pred is None and exprs and all(e.kind == "col" for e in exprs) \
                and not (isinstance(source, P.Join) and source.kind in ("INNER", "CROSS")):
            # plain columns: an itemgetter over the row (one C call per row, no generated loop)
            pos = {cid: i for i, cid in enumerate(source.layout)}
            getter = itemgetter(*[pos[e.value] for e in exprs])
            source_run = _build_one_pass(source, rt)

            def run_columns(p):
                for batch in source_run(p):
                    yield map(getter, batch) if batch else None

            return run_columns, len(exprs) == 1
        sets_run = _build_map(child, rt, as_set=True)

        def run_sets(p):
            for values in sets_run(p):
                yield values if values else None

        return run_sets, sets_run.scalar
    child_run = build(child, rt)

    def run_rows(p):
        for batch in child_run(p):
            yield batch if batch else None

    return run_rows, False


def _build_setop(plan: P.SetOp, rt):
    left_run = build(plan.left, rt)
    right_run = build(plan.right, rt)
    op, all_ = plan.op, plan.all

    def run(p):
        if op == "UNION":
            if all_:
                yield from left_run(p)
                yield from right_run(p)
                return
            seen = set()
            add = seen.add
            held = 0  # memory: distinct rows charged so far
            for batch in chain(left_run(p), right_run(p)):
                out = [r for r in batch if not (r in seen or add(r))]
                held = charge_growth(rt.memory, seen, held, HASH_ENTRY_BYTES)
                yield out
            return
        other = set()
        held = 0  # memory: rows of `other` and then of `seen` charged so far
        for batch in right_run(p):
            other.update(batch)
            held = charge_growth(rt.memory, other, held, HASH_ENTRY_BYTES)
            yield []
        seen = set()
        add = seen.add
        held = 0
        for batch in left_run(p):
            if op == "EXCEPT":
                out = [r for r in batch if r not in other and not (r in seen or add(r))]
            else:
                out = [r for r in batch if r in other and not (r in seen or add(r))]
            held = charge_growth(rt.memory, seen, held, HASH_ENTRY_BYTES)
            yield out

    return run


_BUILDERS = {
    "Scan": _build_scan,
    "Numbers": _build_numbers,
    "OneRow": _build_one,
    "Materialized": _build_materialized,
    "Streamed": _build_streamed,
    "Join": _build_join,
    "Aggregate": _build_aggregate,
    "Sort": _build_sort,
    "Limit": _build_limit,
    "Distinct": _build_distinct,
    "SetOp": _build_setop,
    "RecursiveUnion": build_recursive_union,
    "WorkTableScan": build_work_table_scan,
    "LateralJoin": build_lateral_join,
    "Window": build_window,
}


# ---------------------------------------------------------------- EXPLAIN


def explain(plan: P.Plan, indent: int = 0) -> list[str]:
    pad = "    " * indent
    kind = type(plan).__name__
    detail = ""
    if isinstance(plan, P.Scan):
        detail = f" table: {plan.label}, rows: {len(plan.table.rows)}"
    elif isinstance(plan, P.Numbers):
        detail = f" numbers({plan.count})"
    elif isinstance(plan, (P.Materialized, P.Streamed)):
        detail = f" {plan.label}"
    elif isinstance(plan, P.Join):
        detail = f" {plan.kind}" + (" hash" if plan.left_keys else " nested loop") + \
            (f", {len(plan.left_keys)} key(s)" if plan.left_keys else "")
    elif isinstance(plan, P.Aggregate):
        detail = f" keys: {len(plan.keys)}, aggregates: {', '.join(a.name for a in plan.aggs)}"
    elif isinstance(plan, P.Sort):
        detail = " keys: " + ", ".join(f"#{k[0]}{' DESC' if k[1] else ''}" for k in plan.keys)
    elif isinstance(plan, P.Limit):
        detail = f" limit: {plan.limit}, offset: {plan.offset}"
    elif isinstance(plan, P.SetOp):
        detail = f" {plan.op}{' ALL' if plan.all else ''}"
    elif isinstance(plan, P.Project):
        detail = f" {len(plan.exprs)} column(s)"
    elif isinstance(plan, P.Window):
        detail = " functions: " + ", ".join(f.name for f in plan.funcs)
    lines = [f"{pad}{kind}{detail}"]
    for c in plan.children():
        lines.extend(explain(c, indent + 1))
    return lines

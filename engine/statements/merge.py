"""MERGE INTO and UPDATE ... FROM: a source's rows matched against a snapshot of the target table.

The target's rows are indexed by the ON condition's equi keys (one step per step budget of rows),
then the source runs batch by batch: each source row finds its target rows, the first WHEN clause
that applies says what happens (UPDATE, DELETE; INSERT for a source row that matched nothing).
Changes are collected and the table's new version is built and swapped in at the end, so a
failure leaves the table as it was (and scans that started earlier keep their snapshot).
UPDATE t SET ... FROM s WHERE c is MERGE INTO t USING s ON c WHEN MATCHED THEN UPDATE SET ...
"""

from __future__ import annotations

from engine.bind.scope import Scope, and_all, split_and
from engine.catalog.routines import SequenceDefault
from engine.catalog.table_storage import Rewrite
from engine.core.errors import (
    SEMANTIC,
    UNRESOLVABLE_CONFLICT,
    BadArguments,
    EngineError,
)
from engine.core.memory import LIST_SLOT_BYTES, batch_bytes
from engine.core.steps import rows_for_cost
from engine.exec.executor import Runtime
from engine.exec.result import Column, Progress, Result
from engine.exec.subquery import prefetch_steps
from engine.plan.clauses import split_equi_keys
from engine.plan.planner import Planner
from engine.statements.writers import check_snapshot, commit_append, commit_rewrite, serialized
from engine.types import sqltype as T
from engine.types.convert import type_default, value_converter
from grammar import ast as A

INSERTED, UPDATED, DELETED = "number of rows inserted", "number of rows updated", "number of rows deleted"


class _Clause:
    """One bound WHEN clause: its action, its condition (a compiled test or None) and the compiled
    function making the new or inserted row."""

    def __init__(self, action, test, make, written):
        self.action = action
        self.test = test
        self.make = make
        self.written = written  # target column positions an UPDATE writes


def run_merge(ctx, stmt: A.Merge) -> Result:
    return serialized(ctx, lambda progress: _Merge(ctx, stmt, progress).result(update_only=False))


def run_update_from(ctx, stmt: A.Update) -> Result:
    """UPDATE t SET ... FROM s [WHERE c]: MERGE INTO t USING s ON c WHEN MATCHED THEN UPDATE."""
    on = stmt.where if stmt.where is not None else A.Literal(True, "bool", pos=stmt.pos)
    merge = A.Merge(stmt.table, stmt.alias, stmt.from_, on,
                    (A.MergeClause("UPDATE", None, stmt.assignments, pos=stmt.pos),), pos=stmt.pos)
    return serialized(ctx, lambda progress: _Merge(ctx, merge, progress).result(update_only=True))


class _Merge:
    def __init__(self, ctx, stmt: A.Merge, progress: Progress):
        self.ctx = ctx
        self.stmt = stmt
        database, name = ctx.resolve_table_name(stmt.table)
        self.database = database
        self.table = ctx.catalog.table(database, name, stmt.pos)
        planner = self.planner = Planner(ctx)
        target = planner.table_relation(A.TableRef(stmt.table, stmt.alias, pos=stmt.pos))
        self.data, self.count = target.plan.data, target.plan.count  # the snapshot
        source = planner._relation(stmt.source, None, {})
        self.source_plan = source.plan
        width = len(target.columns)
        self.width = width
        # a pair (target row, source row) is one tuple: the target's columns, then the source's
        self.cols = {cid: f"r[{i}]" for i, cid in enumerate(target.plan.layout + source.plan.layout)}
        self.progress = progress
        self.runtime = Runtime(ctx, self.progress, planner.nonnull, planner.nonneg, planner.nonnan)
        self.codegen = self.runtime.codegen()
        both = Scope(target.columns + source.columns)
        source_only = Scope(source.columns)
        self.target_columns, self.source_columns = target.columns, source.columns
        on = split_and(planner.binder.boolean(planner.bind(stmt.on, both)))
        tset, sset = set(target.plan.layout), set(source.plan.layout)
        tkeys, skeys, residual = split_equi_keys(on, tset, sset)
        cg = self.codegen
        tcols = {cid: f"r[{i}]" for i, cid in enumerate(target.plan.layout)}
        scols = {cid: f"r[{i}]" for i, cid in enumerate(source.plan.layout)}
        self.target_key = cg.build(["r", "p"], [f"return ({''.join(cg.expr(k, tcols) + ', ' for k in tkeys)})"])
        self.source_key = cg.build(["r", "p"], [f"return ({''.join(cg.expr(k, scols) + ', ' for k in skeys)})"])
        rest = and_all(residual)
        self.residual = None if rest is None else cg.build(["r", "p"], [f"return {cg.pred(rest, self.cols)}"])
        self.clauses = [self._clause(c, both, source_only) for c in stmt.clauses]
        self.kinds = [k for k in ("INSERT", "UPDATE", "DELETE") if any(c.action == k for c in self.clauses)]

    # ------------------------------------------------------------ binding

    def _clause(self, clause: A.MergeClause, both: Scope, source_only: Scope) -> _Clause:
        planner, cg, table = self.planner, self.codegen, self.table
        scope = both if clause.action != "INSERT" else source_only
        test = None
        if clause.condition is not None:
            cond = planner.binder.boolean(planner.bind(clause.condition, scope))
            test = cg.build(["r", "p"], [f"return {cg.pred(cond, self.cols)}"])
        if clause.action == "DELETE":
            return _Clause("DELETE", test, None, ())
        if clause.action == "UPDATE":
            assigned = {}
            for a in clause.assignments if clause.assignments is not None else self._star_assignments(clause):
                i = table.column_index(a.column)
                if i is None:
                    valid = ", ".join(f'"{c.name}"' for c in table.columns)
                    raise BadArguments(f'Unable to get field named "{a.column}". Valid fields: [{valid}]',
                                       position=a.pos)
                if i in assigned:
                    raise BadArguments(f"Multiple assignments in the single statement to column "
                                       f"`{table.columns[i].name}`", position=a.pos)
                assigned[i] = planner.bind(a.value, both)
            parts = []
            for i, column in enumerate(table.columns):
                if i in assigned:
                    convert = cg.bind(value_converter(column.type, column.name, "UPDATE"))
                    parts.append(f"{convert}({cg.expr(assigned[i], self.cols)})")
                else:
                    parts.append(f"r[{i}]")
            make = cg.build(["r", "p"], [f"return ({''.join(p + ', ' for p in parts)})"])
            return _Clause("UPDATE", test, make, tuple(assigned))
        # INSERT
        if clause.values is None:  # INSERT *: the source's columns of the same names
            names = [c.name for c in table.columns]
            values = [self._source_column(n, clause) for n in names]
        else:
            names = list(clause.columns) if clause.columns is not None else [c.name for c in table.columns]
            values = list(clause.values)
            if len(values) != len(names):
                raise EngineError("insert columns and values are not matched", code=SEMANTIC, position=clause.pos)
        exprs = {}
        for n, v in zip(names, values, strict=False):
            i = table.column_index(n)
            if i is None:
                valid = ", ".join(f'"{c.name}"' for c in table.columns)
                raise BadArguments(f'Unable to get field named "{n}". Valid fields: [{valid}]', position=clause.pos)
            exprs[i] = planner.bind(v, source_only) if not isinstance(v, A.Default) else None
        parts = []
        for i, column in enumerate(table.columns):
            e = exprs.get(i)
            if e is None:
                default = column.default if column.default is not None else type_default(column.type)
                # DEFAULT nextval(s): called per inserted row
                parts.append(f"{cg.bind(default.next)}()" if type(default) is SequenceDefault else cg.bind(default))
            else:
                convert = cg.bind(value_converter(column.type, column.name))
                parts.append(f"{convert}({cg.expr(e, self.cols)})")
        make = cg.build(["r", "p"], [f"return ({''.join(p + ', ' for p in parts)})"])
        return _Clause("INSERT", test, make, ())

    def _source_column(self, name: str, clause) -> A.ColumnRef:
        for alias, column, _, _ in self.source_columns:
            if column.lower() == name.lower():
                return A.ColumnRef((alias, column) if alias else (column,), pos=clause.pos)
        raise EngineError(f"source has no column `{name}` for `{clause.action} *`", code=SEMANTIC,
                          position=self.stmt.pos)

    def _star_assignments(self, clause):
        return [A.Assignment(c.name, self._source_column(c.name, clause), pos=clause.pos)
                for c in self.table.columns]

    # ------------------------------------------------------------ running

    def result(self, update_only: bool) -> Result:
        if update_only:
            names = [UPDATED]
            types = [T.UINT64]
        else:
            names = [{"INSERT": INSERTED, "UPDATE": UPDATED, "DELETE": DELETED}[k] for k in self.kinds]
            types = [T.INT32] * len(names)
        schema = [Column(n, t.display()) for n, t in zip(names, types, strict=False)]
        return Result(schema, self._steps(update_only), progress=self.progress, types=types)

    def _steps(self, update_only: bool):
        rt, p, memory = self.runtime, (), self.ctx.memory
        budget = rt.step_rows
        yield from prefetch_steps(self.codegen)
        # 1. index the target snapshot by its ON keys
        index: dict = {}
        data, count, target_key = self.data, self.count, self.target_key
        target_row = data.row
        for start in range(0, count, budget):
            for i, r in enumerate(data.rows(start, min(start + budget, count)), start):
                index.setdefault(target_key(r, p), []).append(i)
            memory.charge((min(start + budget, count) - start) * 3 * LIST_SLOT_BYTES)
            self.progress.scan_rows += min(start + budget, count) - start
            yield []
        # 2. match the source rows: a step tests about a step budget of (target, source) pairs,
        # fewer when the ON condition or the clauses call functions declared costly
        pairs = rows_for_cost(self.codegen.row_cost, budget)
        updates: dict[int, tuple] = {}
        deletes: set[int] = set()
        touched: set[int] = set()
        inserts: list[tuple] = []
        matched_clauses = [c for c in self.clauses if c.action != "INSERT"]
        insert_clauses = [c for c in self.clauses if c.action == "INSERT"]
        source_key, residual, nulls = self.source_key, self.residual, (None,) * self.width
        run_source = rt.build(self.source_plan)
        work = 0  # pairs tested and rows made since the last step
        inserted_before, updated = 0, []
        # error_on_nondeterministic_update = 0: a target row several source rows match takes the
        # first (Databend's setting; on by default: 4001)
        strict = self.ctx.session.setting("error_on_nondeterministic_update") not in ("0", 0)

        def charge():
            """The rows made since the last step, held until the commit."""
            memory.charge(batch_bytes(inserts[inserted_before:]) + batch_bytes(updated, LIST_SLOT_BYTES))

        for batch in run_source(p):
            for s in batch:
                key = source_key(s, p)
                group = index.get(key, ()) if None not in key else ()
                hits = []
                for start in range(0, len(group), pairs):
                    part = group[start:start + pairs]
                    hits += part if residual is None else [i for i in part if residual(target_row(i) + s, p)]
                    work += len(part)
                    if work >= pairs:
                        charge()
                        inserted_before, updated, work = len(inserts), [], 0
                        yield []
                work += 1
                if not hits:
                    pair = nulls + s
                    for clause in insert_clauses:
                        if clause.test is None or clause.test(pair, p):
                            inserts.append(clause.make(pair, p))
                            break
                for i in hits:
                    if i in touched:
                        if not strict:
                            continue
                        raise EngineError("multi rows from source match one and the same row in the "
                                          "target_table multi times", code=UNRESOLVABLE_CONFLICT)
                    touched.add(i)
                    pair = target_row(i) + s
                    for clause in matched_clauses:
                        if clause.test is None or clause.test(pair, p):
                            if clause.action == "DELETE":
                                deletes.add(i)
                            else:
                                updates[i] = row = clause.make(pair, p)
                                updated.append(row)
                            break
                if work >= pairs:
                    charge()
                    inserted_before, updated, work = len(inserts), [], 0
                    yield []
            charge()
            inserted_before, updated = len(inserts), []
            yield []
        # 3. the new version, built a step budget of rows per step, swapped in at the end
        rewrite = None
        if updates or deletes:
            rewrite = Rewrite(data, count)
            yield from self._rewrite_steps(rewrite, updates, deletes)
        self._commit(rewrite, inserts)
        self.progress.write_rows = len(inserts) + len(updates)
        if update_only:
            yield [(len(updates),)]
            return
        counts = {"INSERT": len(inserts), "UPDATE": len(updates), "DELETE": len(deletes)}
        yield [tuple(counts[k] for k in self.kinds)]

    def _rewrite_steps(self, rewrite, updates, deletes):
        """Fill `rewrite` with the snapshot's rows, updated and deleted, a step budget of rows
        per step (each step yields [])."""
        count, budget, memory = self.count, self.runtime.step_rows, self.ctx.memory
        for start in range(0, count, budget):
            stop = min(start + budget, count)
            changed = sorted(i for i in range(start, stop) if i in updates or i in deletes)
            position = start
            for i in changed:
                rewrite.keep(position, i - position)
                if i in updates:
                    rewrite.add([updates[i]])
                position = i + 1
            rewrite.keep(position, stop - position)
            memory.charge((stop - start) * LIST_SLOT_BYTES)
            yield []

    def _commit(self, rewrite, inserts) -> None:
        table = self.table
        check_snapshot(self.ctx, self.database, table, self.data)  # rewritten meanwhile: run again
        if rewrite is not None:
            # the rewritten columns' flags set first (a flag set in vain only costs a check)
            written = {i for c in self.clauses for i in c.written}
            for i in written:
                column = table.columns[i]
                if column.type.nullable:
                    table.has_null[i] = True
                if column.type.is_int:
                    table.has_negative[i] = True
            commit_rewrite(self.ctx, self.database, table, rewrite, inserts)
        else:
            commit_append(self.ctx, self.database, table, inserts)
        self.ctx.memory.release()

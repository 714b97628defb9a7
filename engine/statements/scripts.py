"""Scripts in Databend's language run in bounded steps: EXECUTE IMMEDIATE and the body of a
stored procedure (grammar.script parses them).

A script is a generator the statement's Result pulls: every script statement and every step of
a statement inside it is one step of the reactor's work, so `WHILE true` never holds the
server; `script_max_steps` (at most Limits.script_max_steps) counts statements and loop
iterations, and a script past it fails with 3129. Statements inside run through the session, as
if sent one after another (privileges, the process list and the log as for any statement).
Variables reach the statements only as constant nodes of the syntax tree, never as text: a
bare name in an expression, `:name` in a statement."""

from __future__ import annotations

import decimal

import grammar
from engine.bind.params import value_node
from engine.bind.routine_calls import rewrite_names
from engine.core.errors import SCRIPT_EXECUTION_ERROR, SCRIPT_SEMANTIC_ERROR, EngineError
from engine.exec.result import Column, Progress, Result
from engine.types import render as R
from engine.types import sqltype as T
from grammar import ast as A
from grammar.script import parse_script

RESULT = T.STRING.as_nullable(True)


class _Return(Exception):  # noqa: N818 - control flow, not an error
    def __init__(self, value):
        self.value = value


class _Break(Exception):  # noqa: N818
    pass


class _Continue(Exception):  # noqa: N818
    pass


class ResultSet:
    """A RESULTSET variable (or a cursor's rows): column names, types and rows."""

    def __init__(self, names, types, rows):
        self.names = [n.lower() for n in names]
        self.types = list(types)
        self.rows = rows

    def row(self, i: int) -> dict:
        return {n: (v, t) for n, v, t in zip(self.names, self.rows[i], self.types, strict=True)}


def _type_name(t: T.SqlType) -> A.TypeName:
    """The syntax of type `t` (for a CAST of a value of it)."""
    query = grammar.parse(f"SELECT CAST(NULL AS {t.sql_name()})")
    return query.items[0].expr.type


def constant(value, t: T.SqlType | None):
    """A variable's value as a constant node of type `t`."""
    if value is None or t is None or t.name == "Null":
        return A.Literal(None, "null")
    if isinstance(value, bool) or t.is_int or isinstance(value, str) and t.name == "String":
        return value_node(value)
    if isinstance(value, decimal.Decimal):
        return A.Literal(str(value), "decimal")
    if isinstance(value, float) and t.name == "Float64":
        return A.Literal(value, "float64")
    text = value if isinstance(value, str) else R.renderer_for(t)(value)
    return A.Cast(A.Literal(text, "string"), _type_name(t.as_nullable(False)))


class Script:
    """One run of a script: its variables, result sets and cursors, and its step count."""

    def __init__(self, session, ctx, statements):
        self.session = session
        self.ctx = ctx
        self.statements = statements
        self.variables: dict = {}  # name -> (value, SqlType)
        self.rows: dict = {}  # row variables of FOR loops: name -> {column: (value, SqlType)}
        self.sets: dict = {}  # name -> ResultSet
        self.cursors: dict = {}  # name -> [ResultSet or None, source, next row]
        limit = int(session.setting("script_max_steps"))
        self.max_steps = min(limit, ctx.limits.script_max_steps)
        self.steps = 0
        self.last_query = None  # the result set of the latest query statement

    # ---------------------------------------------------------------- values

    def _name(self, ref, bound):
        if isinstance(ref, A.Placeholder):
            if ref.name is None:
                raise EngineError("a script names variables as :name, not ?", code=SCRIPT_SEMANTIC_ERROR,
                                  position=ref.pos)
            found = self._variable(ref.name.lower())
            if found is None:
                raise EngineError(f"`{ref.name}` is not defined", code=SCRIPT_SEMANTIC_ERROR, position=ref.pos)
            return constant(*found)
        return ref

    def _bare_name(self, ref, bound):
        if isinstance(ref, A.ColumnRef):
            parts = [p.lower() for p in ref.parts]
            if len(parts) == 1:
                found = self._variable(parts[0])
                if found is not None:
                    return constant(*found)
            elif len(parts) == 2 and parts[0] in self.rows and parts[1] in self.rows[parts[0]]:
                return constant(*self.rows[parts[0]][parts[1]])
            return ref
        return self._name(ref, bound)

    def _variable(self, name: str):
        return self.variables.get(name)

    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise EngineError(f"Execution of script has exceeded the limit of {self.max_steps} steps "
                              f"(script_max_steps)", code=SCRIPT_EXECUTION_ERROR)

    def query(self, stmt, text: str | None = None):
        """Run a statement (its `:name`s bound); its rows as a ResultSet (generator: a step at a time)."""
        stmt = rewrite_names(stmt, self._name, frozenset())
        result = self.session.execute(text or "(a statement of a script)", statement=stmt)
        rows = []
        limit = self.ctx.limits.script_result_rows
        for batch in result.batches():
            rows.extend(batch)
            if len(rows) > limit:
                result.close()
                raise EngineError(f"a script's result set holds more than {limit} rows (script_result_rows)",
                                  code=SCRIPT_EXECUTION_ERROR)
            yield []
        return ResultSet([c.name for c in result.schema], result.types or [RESULT] * len(result.schema), rows)

    def _eval(self, expr):
        node = rewrite_names(expr, self._bare_name, frozenset())
        found = yield from self.query(A.Select((A.SelectItem(node),)))
        if not found.rows:
            return None, T.NULL
        return found.rows[0][0], found.types[0]

    def _set(self, source):
        """A RESULTSET's rows: a named one, or a query run now."""
        if isinstance(source, str):
            found = self.sets.get(source)
            if found is None:
                raise EngineError(f"`{source}` is not a result set", code=SCRIPT_SEMANTIC_ERROR)
            return found
        return (yield from self.query(source))

    # ---------------------------------------------------------------- statements

    def run(self):
        """The generator of the script's steps; returns what RETURN gave (None without one)."""
        try:
            yield from self._block(self.statements)
        except _Return as done:
            return done.value
        except (_Break, _Continue):
            raise EngineError("BREAK or CONTINUE outside a loop", code=SCRIPT_SEMANTIC_ERROR) from None
        if len(self.statements) == 1 and self.statements[0].kind == "sql" and self.last_query is not None:
            return ("table", self.last_query)  # a script of one query answers its rows
        return None

    def _block(self, body):
        """Run statements in order (also a nested BEGIN ... END, the statement kind 'block')."""
        for statement in body:
            self._step()
            yield []
            yield from getattr(self, "_" + statement.kind)(*statement.parts)

    def _sql(self, stmt, text):
        found = yield from self.query(stmt, text)
        self.last_query = found

    def _let(self, name, expr):
        self.variables[name] = yield from self._eval(expr)

    _assign = _let

    def _let_set(self, name, query):
        self.sets[name] = yield from self.query(query)

    def _let_cursor(self, name, source):
        self.cursors[name] = [None, source, 0]
        yield from ()

    def _open(self, name):
        cursor = self._cursor(name)
        cursor[0] = yield from self._set(cursor[1])
        cursor[2] = 0

    def _fetch(self, name, into):
        cursor = self._cursor(name)
        if cursor[0] is None:
            cursor[0] = yield from self._set(cursor[1])
        if cursor[2] < len(cursor[0].rows):
            self.variables[into] = (cursor[0].rows[cursor[2]][0], cursor[0].types[0])
            cursor[2] += 1

    def _close(self, name):
        self._cursor(name)[0] = None
        yield from ()

    def _cursor(self, name):
        cursor = self.cursors.get(name)
        if cursor is None:
            raise EngineError(f"`{name}` is not a cursor", code=SCRIPT_SEMANTIC_ERROR)
        return cursor

    def _if(self, branches, otherwise):
        for condition, body in branches:
            value, _ = yield from self._eval(condition)
            if value:
                yield from self._block(body)
                return
        yield from self._block(otherwise)

    def _loop_body(self, body):
        """Runs one iteration; False once BREAK left the loop."""
        try:
            yield from self._block(body)
        except _Continue:
            pass
        except _Break:
            return False
        return True

    def _for_range(self, name, lower, upper, reverse, body):
        low, _ = yield from self._eval(lower)
        high, _ = yield from self._eval(upper)
        if low is None or high is None:
            raise EngineError("FOR bounds must not be NULL", code=SCRIPT_EXECUTION_ERROR)
        if low > high:
            raise EngineError("start must be less than or equal to end when step is positive",
                              code=SCRIPT_EXECUTION_ERROR)
        values = range(high, low - 1, -1) if reverse else range(low, high + 1)
        for value in values:
            self._step()
            self.variables[name] = (value, T.INT64)
            if not (yield from self._loop_body(body)):
                break

    def _for_set(self, name, source, body):
        if isinstance(source, str) and source in self.cursors:
            cursor = self.cursors[source]
            rows = cursor[0] if cursor[0] is not None else (yield from self._set(cursor[1]))
        else:
            rows = yield from self._set(source)
        for i in range(len(rows.rows)):
            self._step()
            self.rows[name] = rows.row(i)
            if not (yield from self._loop_body(body)):
                break

    def _while(self, condition, body):
        while True:
            self._step()
            value, _ = yield from self._eval(condition)
            if not value or not (yield from self._loop_body(body)):
                break

    def _repeat(self, condition, body):
        while True:
            self._step()
            if not (yield from self._loop_body(body)):
                break
            value, _ = yield from self._eval(condition)
            if value:
                break

    def _loop(self, body):
        while True:
            self._step()
            if not (yield from self._loop_body(body)):
                break

    def _break(self):
        raise _Break()
        yield  # a generator like the other statements

    def _continue(self):
        raise _Continue()
        yield

    def _return(self, expr):
        if expr is None:
            raise _Return(None)
        value = yield from self._eval(expr)
        raise _Return(("scalar", *value))

    def _return_table(self, source):
        rows = yield from self._set(source)
        raise _Return(("table", rows))

    def _throw(self, expr):
        value, _ = yield from self._eval(expr)
        raise EngineError(str(value), code=SCRIPT_EXECUTION_ERROR)


def _final_rows(ctx, returned) -> tuple[list, list, list]:
    """(column names, types, rows rendered as text) of what the script returned."""
    if returned is None:
        return ["Result"], [RESULT], [(None,)]
    if returned[0] == "scalar":
        _, value, t = returned
        shown = None if value is None else R.renderers_in_zone([t], ctx.timezone)[0](value)
        return ["Result"], [t.as_nullable(True) if t.name != "Null" else RESULT], [(shown,)]
    rows = returned[1]
    renderers = R.renderers_in_zone(rows.types, ctx.timezone)
    shown = [tuple(None if v is None else r(v) for v, r in zip(row, renderers, strict=True)) for row in rows.rows]
    return rows.names, rows.types, shown


def script_result(session, ctx, statements, start=None, finish=None) -> Result:
    """The Result of running `statements`: one column Result until the script ends, then what it
    returned (a value, or RETURN TABLE's columns), rendered as text. `start(script)` may set
    variables first (a procedure's arguments), `finish(script, returned)` convert the returned
    value (a procedure's RETURNS type); both are generators of steps."""
    script = Script(session, ctx, statements)
    schema = [Column("Result", RESULT.display())]
    types = [RESULT]
    result = Result(schema, iter(()), progress=Progress(), types=types, timezone=ctx.timezone)
    result.logged_reads = True  # the rows show only once what the script wrote is on disk
    result.rows_are_text = True

    def steps():
        if start is not None:
            yield from start(script)
        returned = yield from script.run()
        if finish is not None:
            returned = yield from finish(script, returned)
        names, real_types, rows = _final_rows(ctx, returned)
        # what the script returned decides the columns (as Databend sets its schema at the end);
        # the rows are text already, so the renderer made for the first schema serves them
        schema[:] = [Column(n, t.display()) for n, t in zip(names, real_types, strict=True)]
        types[:] = [T.STRING.as_nullable(True)] * len(names)
        yield rows

    result._rows = steps()
    return result


def execute_immediate(session, ctx, stmt: A.ExecuteImmediate) -> Result:
    try:
        statements = parse_script(stmt.script)
    except grammar.SqlSyntaxError as exc:
        raise EngineError(exc.message, code=exc.code, position=stmt.pos) from None
    return script_result(session, ctx, statements)


__all__ = ["Script", "constant", "execute_immediate", "script_result"]

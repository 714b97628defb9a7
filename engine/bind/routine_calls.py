"""Calls of user functions and of nextval(sequence).

A user function is bound by expansion: the definition's body with every parameter replaced by
the call's argument (as Databend expands a lambda UDF), bound where the call is.

A lambda inside the body binds its own parameter names: the UDF's parameters are not
replaced there. The checks CREATE FUNCTION makes (every name in the body is a parameter,
every parameter used, no call of itself) are here too, beside the walk they share."""

from __future__ import annotations

from dataclasses import fields, replace

import grammar
from engine.bind.lambdas import split_lambda
from engine.bind.names import UNIT_CALLS
from engine.core.errors import SemanticError, SqlSyntaxError, Unimplemented
from engine.functions.arrays import LAMBDA_FUNCTIONS
from engine.functions.registry import ScalarFunction
from engine.ir.expr import Func
from engine.types import sqltype as T
from grammar import ast as A
from grammar.ast_base import map_children

MAX_EXPANSION_DEPTH = 16  # user functions calling user functions, nested this deep at most


def _lambda_names(node) -> frozenset:
    """The parameter names of a lambda argument `x -> ...` / `(a, b) -> ...` (none: not a lambda)."""
    try:
        found = split_lambda(node)
    except SemanticError:
        return frozenset()
    return frozenset(found[0]) if found is not None else frozenset()


# the unit words date_diff / date_add / date_trunc / date_part / extract take as their first argument
_UNIT_WORDS = frozenset({"year", "quarter", "month", "week", "day", "hour", "minute", "second", "doy", "dow",
                         "isodow", "yearweek", "millennium", "epoch", "microsecond", "millisecond"})


def _is_unit(node) -> bool:
    return isinstance(node, A.ColumnRef) and len(node.parts) == 1 and node.parts[0].lower() in _UNIT_WORDS


def rewrite_names(node, visit, bound: frozenset):
    """`node` rebuilt with visit(ref, bound) in place of every column name and `:name`
    placeholder (visit returns the replacement, or the node itself); `bound` holds the names
    the lambdas around the place bind."""
    if isinstance(node, A.ColumnRef | A.Placeholder):
        return visit(node, bound)
    if isinstance(node, A.FunctionCall) and node.name in UNIT_CALLS and node.args and _is_unit(node.args[0]):
        # date_diff(year, a, b): `year` is the unit, no name to rewrite
        rest = tuple(rewrite_names(a, visit, bound) for a in node.args[1:])
        return replace(node, args=(node.args[0], *rest))
    if isinstance(node, A.FunctionCall) and node.name in LAMBDA_FUNCTIONS and node.args:
        args = [rewrite_names(node.args[0], visit, bound)]
        args += [rewrite_names(a, visit, bound | _lambda_names(a)) for a in node.args[1:]]
        node = replace(node, args=tuple(args))
        changes = {f: rewrite_names(getattr(node, f), visit, bound) for f in ("params", "filter", "within_group")}
        return replace(node, **changes)
    return map_children(node, lambda child: rewrite_names(child, visit, bound))


def _calls(node, name: str) -> bool:
    if isinstance(node, A.FunctionCall) and node.name == name:
        return True
    if isinstance(node, A.Node):
        return any(_calls(getattr(node, f.name), name) for f in fields(node) if f.name != "pos")
    if isinstance(node, tuple):
        return any(_calls(x, name) for x in node)
    return False


def check_definition(definition) -> None:
    """CREATE FUNCTION's checks of a lambda UDF's body, with Databend's texts (1005)."""
    body = scalar_body(definition)
    if body is None:
        return
    params = {p.name.lower() for p in definition.params}
    used: set[str] = set()
    undeclared: list[str] = []

    def visit(ref, bound):
        if isinstance(ref, A.ColumnRef) and len(ref.parts) == 1 and ref.parts[0].lower() not in bound:
            name = ref.parts[0].lower()
            if name in params:
                used.add(name)
            else:
                undeclared.append(name)
        return ref

    rewrite_names(body, visit, frozenset())
    message = ""
    if undeclared:
        message += "Parameters are not declared: {" + ", ".join(f'"{n}"' for n in dict.fromkeys(undeclared)) + "}"
    unused = [p.name for p in definition.params if p.name.lower() not in used]
    if unused:
        message += "Parameters are not used: {" + ", ".join(f'"{n}"' for n in unused) + "}"
    if message:
        raise SqlSyntaxError(message, position=definition.pos)
    if _calls(body, definition.name):
        raise SqlSyntaxError("Recursive UDF is not supported", position=definition.pos)


def scalar_body(definition):
    """The expression of a scalar SQL user function: the lambda's body, or the text between $$
    parsed as an expression (None for a table function or another language)."""
    if definition.body is not None:
        return definition.body
    if definition.language != "SQL" or definition.returns_table is not None or definition.body_text is None:
        return None
    try:
        query = grammar.parse("SELECT " + definition.body_text)
    except grammar.SqlSyntaxError as exc:
        raise SqlSyntaxError(f"the body of function {definition.name} is not an expression: {exc.reason}",
                             position=definition.pos) from None
    if not isinstance(query, A.Select) or len(query.items) != 1 or query.from_ is not None \
            or query.items[0].alias is not None or isinstance(query.items[0].expr, A.Star):
        raise SqlSyntaxError(f"the body of function {definition.name} is not one expression",
                             position=definition.pos)
    return query.items[0].expr


def expand_call(udf, n: A.FunctionCall, depth: int):
    """The AST a call `n` of user function `udf` stands for."""
    d = udf.definition
    if depth >= MAX_EXPANSION_DEPTH:
        raise SemanticError(f"user function {udf.name} expands more than {MAX_EXPANSION_DEPTH} levels deep "
                            f"(user functions calling each other in a cycle?)", position=n.pos)
    if d.returns_table is not None:
        raise SemanticError(f"{udf.name} is a table function: call it in FROM", position=n.pos)
    body = scalar_body(d)
    if body is None:
        raise Unimplemented(f"user function {udf.name} is written in {d.language}, which this server "
                            f"does not run (only SQL user functions)", position=n.pos)
    if n.distinct or n.star or n.params or n.filter is not None or n.within_group:
        raise SemanticError(f"user function {udf.name} takes plain arguments only", position=n.pos)
    if len(n.args) != len(d.params):
        raise SqlSyntaxError(f"Require {len(d.params)} parameters, but got: {len(n.args)}", position=n.pos)
    arguments = {p.name.lower(): (a if p.type is None else A.Cast(a, p.type, pos=a.pos))
                 for p, a in zip(d.params, n.args, strict=True)}

    def visit(ref, bound):
        if isinstance(ref, A.ColumnRef) and len(ref.parts) == 1 and ref.parts[0].lower() not in bound:
            return arguments.get(ref.parts[0].lower(), ref)
        return ref

    expanded = rewrite_names(body, visit, frozenset())
    if d.returns is not None:
        expanded = A.Cast(expanded, d.returns, pos=n.pos)
    return expanded


def bind_user_function(binder, udf, n: A.FunctionCall, scope, aliases):
    """A call of user function `udf`, bound as its expansion (binder: the statement's Planner)."""
    depth = binder.udf_depth
    expanded = expand_call(udf, n, depth)
    binder.udf_depth = depth + 1
    try:
        return binder.bind(expanded, scope, aliases)
    finally:
        binder.udf_depth = depth


def _nextval_result(types):
    return T.UINT64


def bind_nextval(binder, n: A.FunctionCall):
    """nextval(s): the next value of sequence s, one per row (never folded); the statement is
    marked as using a sequence, so its run is logged (values it hands out are never reused)."""
    if len(n.args) != 1 or not isinstance(n.args[0], A.ColumnRef) or len(n.args[0].parts) != 1:
        raise SemanticError("nextval takes one argument, the name of a sequence", position=n.pos)
    sequence = binder.ctx.catalog.routines.sequence(n.args[0].parts[0], n.pos)
    binder.ctx.uses_sequences = True
    if getattr(binder.ctx, "plan_record", None) is not None:
        binder.ctx.plan_record.cacheable = False  # its run must be logged: planned each time
    fn = ScalarFunction("nextval", sequence.next_value, _nextval_result, 0, 0, strict=False, volatile=True)
    return Func(T.UINT64, args=(), fn=fn)

"""is_error(x), is_not_error(x) and error_or(a, b, ...): functions that observe whether their
argument's evaluation fails, per row. Each argument is compiled into a function of its own (as a
lambda body is, engine.bind.lambdas) and called inside a try, so a failing row answers instead of
failing the statement. An argument that already fails while it is bound (a constant that cannot
be folded, `cast('x' as int)`) fails on every row."""

from __future__ import annotations

import decimal

from engine.bind.scope import Scope
from engine.codegen.compile import Codegen
from engine.core.errors import BadArguments, EngineError
from engine.functions.registry import ScalarFunction
from engine.ir.expr import Expr, Func
from engine.types import cast as casting
from engine.types import sqltype as T

__all__ = ["ERROR_FUNCTIONS", "bind_error_call"]

# what a failing evaluation raises: a function's refusal (1006) or a Python arithmetic / value
# error (engine.core.errors.as_engine_error words them); never a memory limit or a KILL
_EVALUATION_ERRORS = (BadArguments, ArithmeticError, decimal.InvalidOperation, TypeError, ValueError)

ERROR_FUNCTIONS = frozenset({"is_error", "is_not_error", "error_or"})


class _Failing:
    """An argument whose binding failed: every evaluation fails with that error."""

    def __init__(self, error: EngineError):
        self.error = error
        self.type = T.NULL


def _compile(binder, node, outer_scope):
    """(bound argument or _Failing, function(p) evaluating it, the outer expressions it reads)."""
    scope = Scope([], outer_scope, ctes=outer_scope.ctes)
    try:
        bound = binder.bind(node, scope)
    except EngineError as error:
        failing = _Failing(error)

        def fail(_p):
            raise failing.error
        return failing, fail, []
    cg = Codegen()
    source = cg.expr(bound, {})
    return bound, cg.build(["p"], [f"return {source}"], name="_guarded"), scope.params


def bind_error_call(binder, n, scope, aliases) -> Expr:
    """Bind is_error / is_not_error / error_or (binder: the statement's Planner)."""
    name = n.name.lower()
    if name != "error_or" and len(n.args) != 1:
        raise BadArguments(f"function {name} takes 1 argument, got {len(n.args)}", position=n.pos)
    if not n.args:
        raise BadArguments("function error_or takes at least 1 argument", position=n.pos)
    compiled = [_compile(binder, a, scope) for a in n.args]
    outer: list = []
    slices = []
    for _, _, params in compiled:
        slices.append((len(outer), len(outer) + len(params)))
        outer.extend(params)
    functions = [fn for _, fn, _ in compiled]
    if name == "error_or":
        types = [b.type for b, _, _ in compiled if not isinstance(b, _Failing)]
        result = T.common_type(types).as_nullable(True) if types else T.NULL
        converters = [_converter(b, result) for b, _, _ in compiled]
        impl = _first_success(functions, slices, converters)
    else:
        result = T.BOOLEAN
        impl = _succeeds(functions[0], name == "is_not_error")
    fn = ScalarFunction(name, impl, None, len(outer), len(outer), strict=False)
    return Func(result, args=tuple(outer), fn=fn)


def _converter(bound, result):
    """A function converting the argument's value to the common type (None: none needed)."""
    if isinstance(bound, _Failing) or bound.type.as_nullable(False) == result.as_nullable(False):
        return None
    caster = casting.caster_from(bound.type.as_nullable(False), result.as_nullable(False))
    return lambda v: None if v is None else caster(v)


def _succeeds(fn, wanted: bool):
    def check(*p):
        try:
            fn(p)
        except _EVALUATION_ERRORS:
            return not wanted
        return wanted
    return check


def _first_success(functions, slices, converters):
    def first(*p):
        for fn, (start, end), convert in zip(functions, slices, converters, strict=True):
            try:
                value = fn(p[start:end])
            except _EVALUATION_ERRORS:
                continue
            return value if convert is None else convert(value)
        return None
    return first

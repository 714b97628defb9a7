"""Binding of the -State / -Merge combinators (engine.functions.aggregate_states) into AggSpecs
of collected aggregates: `<agg>_state(args)` gathers the arguments and makes the state once per
group; `<agg>_merge(state)` and `<agg>_merge_state(state)` gather states (NULLs skipped) and
merge them into the result, or into one state. A merged state must be of the same aggregate
with the same parameters (else 1006), or a plain tuple of its fields; anything else is 1010."""

from __future__ import annotations

from engine.core.errors import BadArguments, BadDataValueType
from engine.functions.aggregate_states import STATE_KINDS, state_type
from engine.functions.collected import Collected
from engine.ir.expr import Const
from engine.ir.plan import AggSpec
from engine.types import sqltype as T


def state_spec(planner, node, base: str, suffix: str, bind, bind_constant) -> AggSpec:
    """The AggSpec of `node`, a call `<base><suffix>(...)`; `bind` binds an argument AST,
    `bind_constant` a parameter's."""
    kind = STATE_KINDS[base]
    name = node.name
    params = tuple(_parameter(bind_constant(p), name) for p in node.params)
    if base == "quantile_tdigest":
        if not params or any(not 0 <= p <= 1 for p in params):
            raise BadDataValueType(f"{name} expects levels between 0 and 1", position=node.pos)
    elif params:
        raise BadArguments(f"{name} takes no parameters", position=node.pos)
    if node.star or not node.args:
        raise BadArguments(f"{name} expects at least one argument", position=node.pos)
    bound = [bind(a) for a in node.args]
    if suffix == "_state":
        arg_types = tuple(b.type for b in bound)
        expected = 2 if base in ("arg_min", "arg_max") else 1
        if len(arg_types) != expected and base != "count":
            raise BadArguments(f"{name} expects {expected} argument(s), got {len(arg_types)}", position=node.pos)

        def make(values, _params, types=arg_types):
            return kind.make(values, types)

        result = state_type(base, params, arg_types)
        return _spec(name, bound, result, make)
    if len(bound) != 1:
        raise BadArguments(f"{name} expects one argument, got {len(bound)}", position=node.pos)
    arg_types = _merged_argument_types(base, params, bound[0].type, name, node.pos)

    def merged(values, _params, types=arg_types):
        return kind.merge([v for v in values if v is not None], types)

    if suffix == "_merge_state":
        return _spec(name, bound, state_type(base, params, arg_types), merged)

    def finished(values, p, types=arg_types, levels=params):
        return kind.finish(merged(values, p), types, levels)

    return _spec(name, bound, kind.result(arg_types, params), finished)


def _spec(name, bound, result, final) -> AggSpec:
    entry = Collected(name, (1, len(bound)), lambda types: result, final)
    return AggSpec(name, bound[0], False, result, extra=tuple(bound[1:]), params=(), collected=entry)


def _merged_argument_types(base, params, t: T.SqlType, name, pos) -> tuple:
    """The argument types of the states `t` holds (a state of `base`, or its plain tuple)."""
    if t.state:
        function, state_params, arg_types = t.state
        if function != base:
            raise BadDataValueType(f"{name} cannot merge a state of {function}", position=pos)
        if tuple(state_params) != params:
            raise BadArguments(f"{name} parameters {list(params)} differ from the state's {list(state_params)}",
                               position=pos)
        return arg_types
    legacy = STATE_KINDS[base].legacy(t.args) if t.name == "Tuple" else None
    if legacy is None:
        raise BadDataValueType(f"{name} does not support type '{t.display()}'", position=pos)
    return tuple(a.as_nullable(False) for a in legacy)


def _parameter(e, name):
    if not isinstance(e, Const) or isinstance(e.value, bool) or not isinstance(e.value, int | float) and \
            not hasattr(e.value, "as_tuple"):
        raise BadArguments(f"the parameters of {name} must be constant numbers")
    return float(e.value)

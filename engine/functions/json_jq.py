"""jq(filter, v): Databend's set-returning jq function, one VARIANT row per output of a jq filter
run on a VARIANT, through the `jq` package (bindings of the reference C jq; the optional extra
`queryhttp[jq]`, imported on the first call: without it the call is 1002 naming the extra).

Databend runs filters with jaq, a Rust clone of jq; the standard library the tests use (select,
to_entries, min/max/add, ascii_upcase, if/elif, object and array construction) answers the same.
Outputs are made canonical VARIANT text (object keys sorted, as Databend's JSONB keeps them). A
NULL input gives no row; a filter that does not parse or compile, or fails on a value, is 1006.
In a SELECT list the call spreads over rows like unnest (engine.plan.unnest); in FROM it is a
table function as FLATTEN is (engine.plan.flatten: of a constant, or once per row of the FROM
items before it, column `jq`). The outputs of one call are counted as they come and refused past Limits.array_elements (a filter like `repeat(.)` never
ends). Known limit: C jq has no step budget, so a filter that computes long without an output
(`[range(1e9)] | length`, `until(false; .)`) holds the thread that runs it."""

from __future__ import annotations

import functools
import importlib

from engine.core.errors import BadArguments, Unimplemented
from engine.core.limits import Limits
from engine.functions.json import VARIANT_OR_NULL, _checked
from engine.functions.registry import fixed, register
from engine.runtime.bounded import array_too_long
from engine.types import nested as N
from engine.types import variant as V

MISSING = "jq needs the jq package, the optional extra: pip install 'queryhttp[jq]'"

_loaded = []  # the jq module once imported (a list, so that tests can empty it)


def _import():
    return importlib.import_module("jq")


def jq_module():
    """The `jq` package, or 1002 naming the extra when it is not installed."""
    if not _loaded:
        try:
            _loaded.append(_import())
        except ImportError:
            raise Unimplemented(MISSING) from None
    return _loaded[0]


@functools.lru_cache(maxsize=64)
def _compiled(source: str):
    """A filter compiled once per text (the same filter runs for every row of a column)."""
    try:
        return jq_module().compile(source)
    except ValueError as e:
        # jaq's wording: a filter that does not parse fails to load, an unknown name to compile
        stage = "load" if "syntax error" in str(e) else "compile"
        raise BadArguments(f"Invalid jq filter {stage} error: {_first_line(e)}") from None


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _canonical(value):
    """A jq output as Databend's JSONB holds it: object keys sorted, at every depth."""
    if isinstance(value, dict):
        return {k: _canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_canonical(x) for x in value]
    return value


def make_jq(limits: Limits):
    max_outputs = limits.array_elements

    def jq(source, v):
        """The outputs of filter `source` on VARIANT `v`, as a list of VARIANT texts (NULL: none)."""
        if source is None:
            raise BadArguments("jq filter must be a scalar string")
        program = _compiled(source)
        if v is None:
            return None
        outputs = []
        try:
            for value in program.input_text(v):
                if len(outputs) == max_outputs:
                    raise array_too_long("jq output", max_outputs + 1, max_outputs)
                outputs.append(V.dumps(_canonical(value)))
        except ValueError as e:
            raise BadArguments(f"{_first_line(e)} while evaluating function `jq({V.sql_literal(source)}, "
                               f"{V.sql_literal(v)})`") from None
        return N.ArrayValue(outputs)

    return jq


# never folded into constants (volatile): the planner must see each call to spread it
register("jq", make_jq, _checked("jq", ("string", "variant"), fixed(VARIANT_OR_NULL)), 2, strict=False,
         bounded=True, volatile=True)

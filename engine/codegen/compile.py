"""Code generation: bound expressions -> Python source for whole-batch loops, compiled once per query.

Safety: generated source is assembled only from fixed templates chosen by expression class. Every value
that comes from the query (literals, names, patterns, functions) is passed in as a closure
variable named `_k<n>`; no user text is ever placed in the source.
"""

from __future__ import annotations

import decimal
import re

from engine.codegen.calls import _SIMPLE, CallCodegen, _may_be_nan
from engine.codegen.value_ranges import (
    RangeFinder,
    exact_range,
    fits,
    type_range,
)
from engine.functions.registry import CAST_ROW_COSTS
from engine.ir.expr import (
    And,
    Arith,
    Case,
    Cast,
    Cmp,
    Col,
    Const,
    Expr,
    Func,
    InList,
    IsNull,
    Like,
    Neg,
    Not,
    Or,
    Param,
    SubqueryExpr,
    may_be_null,
)
from engine.runtime.helpers import (
    DECIMAL_CONTEXT,
    decimal_divide,
    decimal_multiply,
    div_trunc,
    in3,
    in3_nan_equal,
    in_set3,
    mod_trunc,
    try_call,
)
from engine.types import cast as casting
from engine.types import integer_wrap as W
from engine.types import sqltype as T
from engine.types.keys import hash_function, hash_key_source, hash_value, holds_nan

_CMP = {"=": "==", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
# a source read twice costs nothing more: a name or an item of a row or of the parameters
_CHEAP_TO_READ = re.compile(r"[A-Za-z_]\w*(\[\d+\])?")

# Decimal + - * in the engine's wide context (engine.runtime.helpers.DECIMAL_CONTEXT), not Python's
# 28-digit default
_DECIMAL_OPERATIONS = {"+": DECIMAL_CONTEXT.add, "-": DECIMAL_CONTEXT.subtract,
                       "*": DECIMAL_CONTEXT.multiply}


def _scale(t) -> int:
    return t.scale if t.name == "Decimal" else 0


class Codegen(CallCodegen):
    """Collects the closure variables for one generated function and renders expressions."""

    def __init__(self, subquery_runner=None, nonnull=frozenset(), nonneg=frozenset(), nonnan=frozenset()):
        self.nonnull = nonnull  # column ids known to hold no NULL in this query's snapshot
        self.nonneg = nonneg  # integer column ids known to hold no negative value in it
        self.nonnan = nonnan  # float column ids known to hold no NaN in it (no NaN test for them)
        self.ranges = RangeFinder(nonneg)  # value ranges of integer expressions (overflow checks)
        self._nullable: dict[int, bool] = {}
        self.bindings: dict[str, object] = {}
        self._ids: dict[int, str] = {}
        self.temps = 0
        self.subquery_runner = subquery_runner
        self.correlated: list = []  # correlated subqueries compiled in: each runs per row
        self.uncorrelated: list = []  # runners of the uncorrelated ones: each runs once
        self.has_subqueries = False  # whether any subquery is compiled in (bound to one run)
        self.prefetched: list = []  # (bound impl, argument sources) of calls a batch may prefetch
        # the declared cost per row of the calls compiled in, in microseconds (ScalarFunction.row_cost;
        # both branches of a conditional counted): steps over this code take fewer rows
        # (engine.core.steps.rows_for_cost)
        self.row_cost = 0

    def nullable(self, e: Expr) -> bool:
        """Whether `e` can evaluate to NULL here (declared types, narrowed by the data snapshot)."""
        key = id(e)
        hit = self._nullable.get(key)
        if hit is None:
            hit = self._nullable[key] = may_be_null(e, self.nonnull)
        return hit

    def may_be_nan(self, e: Expr) -> bool:
        """Whether the float expression `e` may be a NaN here (see _may_be_nan)."""
        return _may_be_nan(e, self.nonnan)

    def hash_key(self, src: str, e: Expr) -> str:
        """Source of the hash key of `e` (source `src`): NaNs made one value
        (engine.types.keys), unless `e` is a float that cannot be a NaN here."""
        if e.type is not None and e.type.is_float and not self.may_be_nan(e):
            return src
        return hash_key_source(src, e.type, self.bind)

    def bind(self, value) -> str:
        """A closure variable holding `value` (the only way a value reaches the source)."""
        key = id(value)
        name = self._ids.get(key)
        if name is not None and self.bindings[name] is value:
            return name
        name = f"_k{len(self.bindings)}"
        self.bindings[name] = value
        self._ids[key] = name
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def build(self, params: list[str], body_lines: list[str], name: str = "_fn"):
        """Compile `def name(params): body` inside a factory binding the closure variables."""
        names = list(self.bindings)
        lines = [f"def _factory({', '.join(names)}):", f"    def {name}({', '.join(params)}):"]
        lines += ["        " + line for line in body_lines]
        lines.append(f"    return {name}")
        source = "\n".join(lines)
        factory = _FACTORIES.get(source)
        if factory is None:
            namespace: dict = {}
            exec(compile(source, "<query>", "exec"), {"__builtins__": _BUILTINS}, namespace)
            factory = namespace["_factory"]
            if len(_FACTORIES) >= 4096:
                _FACTORIES.clear()
            _FACTORIES[source] = factory
        fn = factory(*[self.bindings[n] for n in names])
        fn.source = source
        return fn

    # ------------------------------------------------------------ values

    def expr(self, e: Expr, cols) -> str:
        """Source of `e`'s value; `cols` maps column ids to the sources reading them."""
        match e:  # the leaves: most nodes of a tree
            case Col(column=column):
                return cols[column]
            case Const(value=v):
                if v is None:
                    return "None"
                if v is True:
                    return "True"
                if v is False:
                    return "False"
                return self.bind(v)
            case Param(index=index):
                return f"p[{int(index)}]"
        template = _TEMPLATES.get(type(e))
        if template is None:
            raise TypeError(f"the code generator has no template for {type(e).__name__}")
        return template(self, e, cols)

    def _null_checks(self, operands, cols, test: str):
        """Sources of `operands` and, for the nullable ones, checks `<src> <test>` (test is
        'is None' or 'is not None'); a non-simple operand is bound to a temporary by its
        check, so it runs once."""
        srcs = []
        checks = []
        for o in operands:
            src = self.expr(o, cols)
            if self.nullable(o):
                if isinstance(o, _SIMPLE):
                    checks.append(f"{src} {test}")
                else:
                    t = self.temp()
                    checks.append(f"({t} := {src}) {test}")
                    src = t
            srcs.append(src)
        return srcs, checks

    def _guarded(self, operands, cols, template):
        """`template` formatted with operand sources, NULL-guarded for nullable operands."""
        srcs, checks = self._null_checks(operands, cols, "is None")
        body = template(*srcs)
        if checks:
            return f"(None if {' or '.join(checks)} else {body})"
        return body

    def _v_arith(self, e: Arith, cols) -> str:
        op = e.op
        a, b = e.args
        if e.type.is_int and op != "/":
            ranges = self.ranges.operands(e)
            if ranges is not None:  # integer operands: Databend's wrapping, saturating, modulo
                return self._guarded(e.args, cols, self._integer_template(e, *ranges))
        fa = a.type.name == "Decimal" and (b.type.is_float or e.type.is_float)
        fb = b.type.name == "Decimal" and (a.type.is_float or e.type.is_float)
        # DIV of a float or a decimal: through Float64 (as Databend computes it), saturated
        float_div = op == "DIV" and any(x.type.is_float or x.type.name == "Decimal" for x in e.args)

        def tmpl(x, y):
            if fa:
                x = f"float({x})"
            if fb:
                y = f"float({y})"
            if op == "/" and e.type.name == "Decimal":
                quantum = decimal.Decimal(1).scaleb(-e.type.scale)
                return f"{self.bind(decimal_divide)}({x}, {y}, {self.bind(quantum)})"
            if op == "*" and e.type.name == "Decimal" and e.type.scale < _scale(a.type) + _scale(b.type):
                quantum = decimal.Decimal(1).scaleb(-e.type.scale)  # the product rounded to the scale
                return f"{self.bind(decimal_multiply)}({x}, {y}, {self.bind(quantum)})"
            if e.type.name == "Decimal" and op in _DECIMAL_OPERATIONS:
                return f"{self.bind(_DECIMAL_OPERATIONS[op])}({x}, {y})"
            if op in ("+", "-", "*", "/"):
                return f"({x} {op} {y})"
            if float_div:
                return f"{self.bind(W.integer_division(e.type.name))}({x}, {y})"
            if op == "DIV":
                return f"{self.bind(div_trunc)}({x}, {y})"
            return f"{self.bind(mod_trunc)}({x}, {y})"

        return self._guarded(e.args, cols, tmpl)

    def _integer_template(self, e: Arith, ra, rb):
        """The template of an integer operator whose operands lie in ranges ra, rb: plain Python
        arithmetic where the ranges show the exact answer is Databend's, its overflow rules
        (engine.types.integer_wrap) where they may differ."""
        op, (a, b), name = e.op, e.args, e.type.name
        if op in ("+", "-", "*"):
            exact = exact_range(op, ra, rb)
            if fits(exact, type_range(e.type)):
                return lambda x, y: f"({x} {op} {y})"
            return lambda x, y: W.overflow_check(f"{x} {op} {y}", self.temp(), exact, name,
                                                 self.bind(W.WRAPPERS[name]))
        unsigned = a.type.name.startswith("U") and b.type.name.startswith("U")
        if isinstance(a, Col) and a.column in self.nonneg and isinstance(b, Const) and isinstance(b.value, int) \
                and b.value > 0:
            # no negative dividend in the data: truncated and floored division agree
            unsigned = True
        if op == "DIV":
            if not _exact_division(ra, rb, type_range(e.type)):
                return lambda x, y: f"{self.bind(W.integer_division(name))}({x}, {y})"
            if unsigned:
                return lambda x, y: f"({x} // {y})"
            return lambda x, y: f"{self.bind(div_trunc)}({x}, {y})"
        common = W.super_type(a.type, b.type)
        whole = T.INT_RANGES[common]
        if common[0] == "I" and not (fits(ra, whole) and fits(rb, whole) and -W.EXACT_FLOAT_LIMIT < rb[0]
                                     and rb[1] < W.EXACT_FLOAT_LIMIT):
            return lambda x, y: f"{self.bind(W.signed_modulo(common, name))}({x}, {y})"
        if unsigned:
            return lambda x, y: f"({x} % {y})"
        if isinstance(b, Const) and isinstance(b.value, int) and b.value > 0 and isinstance(a, _SIMPLE):
            # the sign of the dividend, as MySQL and Databend do
            return lambda x, y: f"({x} % {y} if {x} >= 0 else -(-{x} % {y}))"
        return lambda x, y: f"{self.bind(mod_trunc)}({x}, {y})"

    def _v_neg(self, e: Neg, cols) -> str:
        operand = e.args[0]
        limit = W.negation_limit(operand.type.name)
        r = self.ranges.of(operand) if limit is not None else None
        if r is None or (r[0] > limit[1] if limit[0] == ">" else r[1] <= limit[1]):
            return self._guarded(e.args, cols, lambda x: f"(-{x})")
        # -x leaves Int64 for some x: Databend's error for those
        refuse = self.bind(W.negation_overflow)

        def checked(x):
            t = self.temp()
            return f"(-{t} if ({t} := {x}) {limit[0]} {limit[1]} else {refuse}({t}))"

        return self._guarded(e.args, cols, checked)

    def _v_cmp(self, e: Cmp, cols) -> str:
        op = _CMP[e.op]
        if not _nan_aware(e, self.nonnan):
            return self._guarded(e.args, cols, lambda x, y: f"({x} {op} {y})")
        return self._guarded(e.args, cols, lambda x, y: self._nan_comparison(e, x, y))

    def _nan_comparison(self, e: Cmp, x: str, y: str) -> str:
        """`x op y` in Databend's order of floats (engine.types.keys): a NaN equals a NaN and is
        greater than every other float. Python's operators are right unless an operand is a NaN,
        so each adds only the tests its NaN cases need, after the plain comparison decides the
        common case:
          x = y:  x == y or (x is NaN and y is NaN)      x <> y: x != y and (x or y is no NaN)
          x < y:  x < y or (y is NaN and x is not)       x <= y: x <= y or y is NaN
          x > y:  x > y or (x is NaN and y is not)       x >= y: x >= y or x is NaN
        An operand that cannot be a NaN (an integer, a constant number) drops its tests."""
        a, b = e.args
        op = _CMP[e.op]
        if holds_nan(a.type) and not (a.type.is_float or b.type.is_float):
            # nested values holding floats: = and <> by their hash keys (every NaN one value)
            fa, fb = self.bind(hash_function(a.type)), self.bind(hash_function(b.type))
            return f"({fa}({x}) {op} {fb}({y}))"
        nan_x, nan_y = _may_be_nan(a, self.nonnan), _may_be_nan(b, self.nonnan)
        x_first, x = self._read_twice(x)
        y_first, y = self._read_twice(y)
        plain = f"{x_first} {op} {y_first}"
        if op == "==":
            extra = f" or ({x} != {x} and {y} != {y})" if nan_x and nan_y else ""
        elif op == "!=":
            extra = f" and ({x} == {x} or {y} == {y})" if nan_x and nan_y else ""
        elif op in ("<", ">"):
            greater, lesser = (y, x) if op == "<" else (x, y)
            nan_greater, nan_lesser = (nan_y, nan_x) if op == "<" else (nan_x, nan_y)
            extra = ""
            if nan_greater:
                extra = f" or ({greater} != {greater} and {lesser} == {lesser})" if nan_lesser \
                    else f" or {greater} != {greater}"
        else:  # <= and >=: true whenever the greater side is a NaN
            greater, nan_greater = (y, nan_y) if op == "<=" else (x, nan_x)
            extra = f" or {greater} != {greater}" if nan_greater else ""
        return f"({plain}{extra})"

    def _read_twice(self, src: str):
        """(the source to read first, the source to read after it): a temporary assigned at the
        first read unless reading `src` again costs nothing."""
        if _CHEAP_TO_READ.fullmatch(src):
            return src, src
        t = self.temp()
        return f"({t} := {src})", t

    def _v_and(self, e: And, cols) -> str:
        if not self.nullable(e):
            return "(" + " and ".join(self.expr(a, cols) for a in e.args) + ")"
        return self._logic3(e, cols, False)

    def _v_or(self, e: Or, cols) -> str:
        if not self.nullable(e):
            return "(" + " or ".join(self.expr(a, cols) for a in e.args) + ")"
        return self._logic3(e, cols, True)

    def _logic3(self, e: And | Or, cols, decisive: bool) -> str:
        """Three-valued AND (decisive False) / OR (decisive True), evaluated left to right and
        stopping at the first decisive operand, so `x <> 0 AND 10 DIV x > 1` never divides by 0.

        One flat `or` chain of tests, however many operands: the source nests two parentheses
        deep, not one level per operand (CPython refuses sources nested 200 deep). When no test
        is decisive every operand ran, so every temporary the NULL check reads is assigned."""
        word = "True" if decisive else "False"
        tests, temps = [], []
        for arg in e.args:
            src = self.expr(arg, cols)
            if self.nullable(arg):
                t = self.temp()
                temps.append(t)
                tests.append(f"({t} := {src}) is {word}")
            else:
                tests.append(src if decisive else f"not {src}")
        undecided = f"(None if {' or '.join(t + ' is None' for t in temps)} else {not decisive})"
        return f"({word} if {' or '.join(tests)} else {undecided})"

    def _v_not(self, e: Not, cols) -> str:
        return self._guarded(e.args, cols, lambda x: f"(not {x})")

    def _v_isnull(self, e: IsNull, cols) -> str:
        src = self.expr(e.args[0], cols)
        return f"({src} is not None)" if e.negated else f"({src} is None)"

    def _v_inlist(self, e: InList, cols) -> str:
        operand, *items = e.args
        neg = e.negated
        src = self.expr(operand, cols)
        floats = operand.type.is_float
        if all(isinstance(i, Const) for i in items):
            values = frozenset(i.value for i in items if i.value is not None)
            has_null = any(i.value is None for i in items)
            if floats and any(v != v for v in values):
                # a NaN in the list: found by the hash keys, with which every NaN is one object
                values = frozenset(map(hash_value, values))
                src = f"{self.bind(hash_value)}({src})"
            if not has_null and not self.nullable(operand):
                return f"({src} {'not in' if neg else 'in'} {self.bind(values)})"
            inner = f"{self.bind(in_set3)}({src}, {self.bind(values)}, {has_null})"
        else:
            test = in3_nan_equal if floats else in3
            inner = f"{self.bind(test)}({src}, ({', '.join(self.expr(i, cols) for i in items)},))"
        if neg:
            t = self.temp()
            return f"(None if ({t} := {inner}) is None else not {t})"
        return inner

    def _v_like(self, e: Like, cols) -> str:
        neg = e.negated
        kind, arg = e.matcher
        k = self.bind(arg)
        if kind == "dynamic":  # arg(s, pattern) for a pattern taken from a column
            test = self._guarded(e.args, cols, lambda s, p: f"{k}({s}, {p})")
        else:
            template = {
                "equals": lambda s: f"({s} == {k})",
                "contains": lambda s: f"({k} in {s})",
                "prefix": lambda s: f"{s}.startswith({k})",
                "suffix": lambda s: f"{s}.endswith({k})",
                "match": lambda s: f"{k}({s})",
            }[kind]
            test = self._guarded(e.args, cols, template)
        if neg:
            if self.nullable(e):
                t = self.temp()
                return f"(None if ({t} := {test}) is None else not {t})"
            return f"(not {test})"
        return test

    def _v_case(self, e: Case, cols) -> str:
        args = e.args
        parts = []
        for i in range(0, len(args) - 1, 2):
            parts.append(f"{self.expr(args[i + 1], cols)} if {self.pred(args[i], cols)} else ")
        return "(" + "".join(parts) + self.expr(args[-1], cols) + ")"

    def _v_cast(self, e: Cast, cols) -> str:
        target, try_ = e.target, e.try_
        operand = e.args[0]
        fn = casting.caster_from(operand.type, target)
        self.row_cost += CAST_ROW_COSTS.get(target.name, 0)
        if target.name == "Float64" and (operand.type.is_int or operand.type.is_float
                                          or operand.type.name == "Decimal"):
            fn = float  # (a Float32 target rounds to single precision: casting.to_float32)
        if try_:
            k, f = self.bind(try_call), self.bind(fn)
            return self._guarded(e.args, cols, lambda x: f"{k}({f}, {x})")
        f = self.bind(fn)
        return self._guarded(e.args, cols, lambda x: f"{f}({x})")

    def _v_subquery(self, e: SubqueryExpr, cols) -> str:
        sq = e.subquery
        self.has_subqueries = True
        evaluate = self.subquery_runner(sq)
        if sq.correlated:
            self.correlated.append(sq)
        elif hasattr(evaluate, "prefetch"):
            self.uncorrelated.append(evaluate)
        runner = self.bind(evaluate)
        params = "(" + "".join(self.expr(p, cols) + ", " for p in sq.params) + ")"
        if sq.mode == "in" or sq.mode == "quantified":
            return f"{runner}({params}, {self.expr(e.args[0], cols)})"
        return f"{runner}({params})"

    # ------------------------------------------------------------ predicates

    def pred(self, e: Expr, cols) -> str:
        """Source that is truthy exactly when `e` is TRUE (NULL and FALSE both reject)."""
        match e:
            case And():
                return "(" + " and ".join(self.pred(a, cols) for a in e.args) + ")"
            case Or():
                return "(" + " or ".join(self.pred(a, cols) for a in e.args) + ")"
            case Cmp(args=(a, b)) if self.nullable(e) and _nan_aware(e, self.nonnan):
                (sa, sb), checks = self._null_checks((a, b), cols, "is not None")
                return "(" + " and ".join(checks + [self._nan_comparison(e, sa, sb)]) + ")"
            case Cmp(args=(a, b)) if self.nullable(e):
                op = _CMP[e.op]
                if op == "==" and not (self.nullable(a) and self.nullable(b)):
                    return f"({self.expr(a, cols)} == {self.expr(b, cols)})"
                (sa, sb), checks = self._null_checks((a, b), cols, "is not None")
                return "(" + " and ".join(checks + [f"{sa} {op} {sb}"]) + ")"
            case Const(value=value):
                return "True" if value is True else "False"
        src = self.expr(e, cols)
        if self.nullable(e):
            return f"({src} is True)"
        return src


# expression class -> the method rendering it (by exact class: compiling a class missing here,
# a subclass included, raises)
_TEMPLATES = {
    Arith: Codegen._v_arith,
    Neg: Codegen._v_neg,
    Cmp: Codegen._v_cmp,
    And: Codegen._v_and,
    Or: Codegen._v_or,
    Not: Codegen._v_not,
    IsNull: Codegen._v_isnull,
    InList: Codegen._v_inlist,
    Like: Codegen._v_like,
    Case: Codegen._v_case,
    Cast: Codegen._v_cast,
    Func: Codegen._v_func,
    SubqueryExpr: Codegen._v_subquery,
}

# source text -> compiled factory: the same query shape compiles once per process (values differ
# between queries but only ever arrive as the factory's arguments)
_FACTORIES: dict[str, object] = {}

_BUILTINS = {
    "float": float, "int": int, "str": str, "len": len, "None": None, "True": True, "False": False,
    "abs": abs, "min": min, "max": max, "sum": sum, "tuple": tuple, "list": list, "id": id, "set": set,
    "map": map, "zip": zip, "enumerate": enumerate,
}


def _nan_aware(e: Cmp, nonnan=frozenset()) -> bool:
    """Whether the comparison `e` needs more than Python's operator for Databend's order of
    floats: = and <> of two operands that may be NaNs (or nested values holding floats), < and
    <= whose right operand may be one, > and >= whose left may. (`x < 2.5` is Python's own.)"""
    a, b = e.args
    if e.op in ("=", "<>"):
        return (_may_be_nan(a, nonnan) and _may_be_nan(b, nonnan)) or (holds_nan(a.type) and holds_nan(b.type)
                                                        and not (a.type.is_float or b.type.is_float))
    return _may_be_nan(b, nonnan) if e.op in ("<", "<=") else _may_be_nan(a, nonnan)




def _exact_division(ra, rb, result) -> bool:
    """Whether integer division of values in ra by values in rb, done exactly, gives what
    Databend's Float64 division gives: a dividend converting to Float64 exactly and a quotient
    that needs no saturation into the result range."""
    limit = W.EXACT_FLOAT_LIMIT
    if not (-limit < ra[0] and ra[1] < limit):
        return False
    if rb[0] > 0:  # positive divisors: the quotient lies between 0 and the dividend
        quotient = (min(ra[0], 0), max(ra[1], 0))
    elif rb[1] < 0:
        quotient = (min(-ra[1], 0), max(-ra[0], 0))
    else:
        most = max(-ra[0], ra[1])
        quotient = (-most, most)
    return fits(quotient, result)


def evaluate_constant(e: Expr):
    """Evaluate an expression without columns (constant folding at bind time)."""
    cg = Codegen()
    src = cg.expr(e, {})
    fn = cg.build([], [f"return {src}"])
    return fn()

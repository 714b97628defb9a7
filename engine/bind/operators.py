"""Operators of expressions: arithmetic, comparisons, logic, IS NULL, BETWEEN, IN lists, LIKE and
CASE, bound with Databend's coercions and folded when constant (a mixin of the Binder)."""

from __future__ import annotations

import decimal
from dataclasses import replace

from engine import functions as F
from engine.codegen.compile import evaluate_constant
from engine.core.errors import (
    BadArguments,
    SemanticError,
)
from engine.ir.expr import (
    And,
    Arith,
    Case,
    Cmp,
    Const,
    Expr,
    InList,
    IsNull,
    Like,
    Neg,
    Not,
    Or,
    SubqueryExpr,
)
from engine.runtime.helpers import check_like_pattern, like_dynamic, like_matcher
from engine.types import cast as casting
from engine.types import integer_wrap as W
from engine.types import sqltype as T
from engine.types.keys import comparison_casts
from grammar import ast as A

# constant folding of decimals: room for Decimal256 values (Python's default keeps 28 digits)
_FOLD_CONTEXT = decimal.Context(prec=90, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)

# NOT (a op b) is a (inverse op) b
_INVERSE_COMPARISON = {"=": "<>", "<>": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


class OperatorBinder:
    """Binds operator nodes; uses the Binder's bind, cast and _function."""

    def _bind_UnaryOp(self, n: A.UnaryOp, scope, aliases):
        operand = self.bind(n.operand, scope, aliases)
        if n.op == "NOT":
            return self._not(self.boolean(operand))
        if n.op == "+":
            return operand
        if n.op == "~":
            return self._bitwise("~", [operand], n.pos)
        t = operand.type
        if t.is_string:
            operand = self.cast(operand, T.FLOAT64.as_nullable(t.nullable), False)
            t = operand.type
        if t.name == "Boolean":  # as Databend: minus has no Boolean overload
            raise SemanticError(f"no overload satisfies `minus({t.display()})`", position=n.pos)
        if isinstance(operand, Const):
            if operand.value is None:
                return operand
            if t.is_int:  # typed by value; beyond Int64 Databend's error
                v = W.negate(operand.value, t.name)
                return Const(casting.value_type(v), value=v)
            return Const(t, value=-operand.value)
        if t.is_int:
            rt = T.negation_type(t)
        else:
            rt = t.as_nullable(False)
        return Neg(rt.as_nullable(t.can_be_null), args=(operand,))

    def _bind_BinaryOp(self, n: A.BinaryOp, scope, aliases):
        op = n.op
        if op == "^":  # x ^ y is pow(x, y)
            return self._bind_FunctionCall(A.FunctionCall("pow", (n.left, n.right), pos=n.pos), scope, aliases)
        step = F.interval_call(op, n.left, n.right, n.pos)  # d ± INTERVAL n unit: add_days(d, n)...
        if step is not None:
            fn, interval_args = step
            return self._function(fn, [self.bind(a, scope, aliases) for a in interval_args], n.pos)
        left = self.bind(n.left, scope, aliases)
        right = self.bind(n.right, scope, aliases)
        if op in ("AND", "OR"):
            left, right = self.boolean(left), self.boolean(right)
            return self._logic(And if op == "AND" else Or, [left, right])
        if op in ("=", "<>", "<", "<=", ">", ">="):
            return self.compare(op, left, right)
        if op == "||":
            if left.type.name == "Variant" and right.type.name in ("Variant", "Null") or \
                    right.type.name == "Variant" and left.type.name == "Null":
                return self._function(F.SCALARS["json_concat"], [left, right])
            return self._function(F.SCALARS["concat"], [left, right])
        if op == "-" and left.type.name == "Variant":  # v - 'key' / v - index
            name = "delete_by_index" if right.type.is_int else "delete_by_name"
            return self._function(F.SCALARS[name], [left, right], n.pos)
        if op in F.BITWISE_FUNCTIONS:
            return self._bitwise(op, [left, right], n.pos)
        # `a // b` is DIV, as Databend reads it (its column name keeps the `//` it was written with)
        return self.arith("DIV" if op == "//" else op, left, right, n.pos)

    def _bitwise(self, op, args, pos):
        """`& | # << >> ~`: strings are read as integers first (as Databend does)."""
        args = [self.cast(a, T.UINT64.as_nullable(a.type.can_be_null), False) if a.type.is_string else a
                for a in args]
        return self._function(F.BITWISE_FUNCTIONS[op], args, pos)

    def arith(self, op, left, right, pos=None):
        interval_math = F.interval_arithmetic(op, left.type, right.type, (
            left.value if isinstance(left, Const) else None, right.value if isinstance(right, Const) else None))
        if interval_math is not None:  # date / timestamp / interval ± interval, n * interval
            fn, conversions = interval_math
            args = [a if t is None else self.cast(a, t, False) for a, t in zip((left, right), conversions, strict=True)]
            return self._function(fn, args, pos)
        date_math = F.date_arithmetic(op, left.type, right.type)
        if date_math is not None:
            e = self._function(date_math, [left, right], pos)
            if isinstance(e, Const) and e.type.is_int:  # a folded day / microsecond count keeps its
                e = Const(date_math.result([left.type, right.type]), value=e.value)  # INT / BIGINT
            return e
        for side in (left, right):
            if side.type.name in ("Date", "Timestamp") and op in ("+", "-"):
                raise BadArguments(f"no function matches `{op}` for {side.type.display()}", position=pos)
        left, right = self._variant_operands(left, right)
        # text beside an integer is read as a UInt64 (refused when it is not one: '333' + 4 is 337),
        # beside anything else as a Float64
        if left.type.is_string:
            left = self._text_operand(left, right.type)
        if right.type.is_string:
            right = self._text_operand(right, left.type)
        # as Databend, an integer constant operand counts as the narrowest type holding its value
        # (9223372036854775807::INT64 + 1 is a UInt64 sum)
        left, right = (Const(casting.value_type(x.value), value=x.value) if isinstance(x, Const) and x.type.is_int
                       and type(x.value) is int else x for x in (left, right))
        nullable = left.type.can_be_null or right.type.can_be_null
        rt = T.arithmetic_type(op, left.type, right.type)
        if rt.name == "Null":
            return Const(T.NULL, value=None)
        e = Arith(rt.as_nullable(nullable), args=(left, right), op=op)
        if isinstance(left, Const) and isinstance(right, Const):

            if left.value is None or right.value is None:
                return Const(T.NULL, value=None)
            try:
                v = evaluate_constant(e)
            except (ArithmeticError, decimal.InvalidOperation):
                return e  # e.g. a division by zero: an error only if a row ever evaluates it
            t = casting.value_type(v) if rt.is_int and isinstance(v, int) else rt
            if isinstance(v, int) and not T.fits_decimal(v):  # an integer beyond Decimal(76, 0)
                raise BadArguments("arithmetic overflow", position=pos)
            if rt.name == "Decimal" and isinstance(v, decimal.Decimal):
                v = v.quantize(decimal.Decimal(1).scaleb(-rt.scale), context=_FOLD_CONTEXT)
                if len(v.as_tuple().digits) > 76:  # beyond Decimal(76): Databend overflows
                    raise BadArguments("arithmetic overflow", position=pos)
                # as Databend types a folded decimal: by its digits (1.5 + 2.25 is Decimal(3, 2))
                t = T.SqlType("Decimal", False, max(len(v.as_tuple().digits), rt.scale, 1), rt.scale)
            return Const(t, value=v)
        return e

    def _variant_operands(self, left: Expr, right: Expr):
        """A VARIANT beside a number is read as one, TRY (Databend's auto cast: parse_json('"1"')
        + 1 is 2, parse_json('"foo"') + 1 is NULL): as an Int64 beside an integer, else a
        Float64."""
        for mine, other in ((left, right), (right, left)):
            if mine.type.name == "Variant" and other.type.is_numeric:
                target = T.INT64 if other.type.is_int else T.FLOAT64
                converted = self.cast(mine, target.as_nullable(True), True)
                return (converted, right) if mine is left else (left, converted)
        return left, right

    def _text_operand(self, e: Expr, other: T.SqlType) -> Expr:
        if other.is_int:
            return self.cast(e, T.UINT64.as_nullable(e.type.can_be_null), False)
        return self.cast(e, T.FLOAT64.as_nullable(e.type.can_be_null), True)

    def compare(self, op, left, right):
        F.check_nested_comparison(op, left.type, right.type)
        F.check_bitmap_comparison(op, left.type, right.type)
        F.check_geo_comparison(op, left.type, right.type)
        left, right = self._comparable(left, right)
        nullable = left.type.can_be_null or right.type.can_be_null
        if left.type.name == "Null" or right.type.name == "Null":
            return Const(T.NULL, value=None)
        e = Cmp(T.BOOLEAN.as_nullable(nullable), args=(left, right), op=op)
        if isinstance(left, Const) and isinstance(right, Const):
            return Const(T.BOOLEAN, value=evaluate_constant(e))
        return e

    def _comparable(self, left, right):
        F.check_bitmap_comparison("=", left.type, right.type)  # IN lists
        F.check_geo_comparison("=", left.type, right.type)
        variant_keys = F.variant_comparison(left, right, self._function)
        if variant_keys is not None:
            return variant_keys
        left_to, left_try, right_to, right_try = comparison_casts(left.type, right.type)
        if left_to is not None:
            left = self.cast(left, left_to, left_try)
        if right_to is not None:
            right = self.cast(right, right_to, right_try)
        return left, right

    def boolean(self, e: Expr) -> Expr:
        if e.type.name in ("Boolean", "Null"):
            return e
        if e.type.is_numeric or e.type.is_string:
            return self.cast(e, T.BOOLEAN.as_nullable(e.type.can_be_null), e.type.is_string)
        raise BadArguments(f"expected a Boolean, got {e.type.display()}")

    def _logic(self, cls: type[And | Or], args):
        """AND (cls And) or OR (cls Or) of `args`: nested ones of the same class flattened,
        constants folded."""
        flat = []
        for a in args:
            if type(a) is cls:
                flat.extend(a.args)
            else:
                flat.append(a)
        if all(type(a) is Const for a in flat):
            vals = [a.value for a in flat]
            if cls is And:
                v = False if False in vals else None if None in vals else True
            else:
                v = True if True in vals else None if None in vals else False
            return Const(T.BOOLEAN if v is not None else T.NULL, value=v)
        nullable = any(a.type.can_be_null for a in flat)
        return cls(T.BOOLEAN.as_nullable(nullable), args=tuple(flat))

    def _not(self, e: Expr) -> Expr:
        match e:
            case Const(value=v):
                return Const(e.type, value=None if v is None else not v)
            case Not(args=(operand,)):
                return operand
            case Cmp(op=op):
                return replace(e, op=_INVERSE_COMPARISON[op])
            case And():
                return Or(e.type, args=tuple(self._not(a) for a in e.args))
            case Or():
                return And(e.type, args=tuple(self._not(a) for a in e.args))
            case IsNull(negated=negated) | InList(negated=negated) | Like(negated=negated):
                return replace(e, negated=not negated)
            case SubqueryExpr(subquery=sq) if sq.mode in ("exists", "in"):
                return replace(e, subquery=replace(sq, negated=not sq.negated))
        return Not(e.type, args=(e,))

    def _bind_IsNull(self, n: A.IsNull, scope, aliases):
        operand = self.bind(n.operand, scope, aliases)
        if isinstance(operand, Const):
            return Const(T.BOOLEAN, value=(operand.value is None) != n.negated)
        if not operand.type.can_be_null:
            return Const(T.BOOLEAN, value=n.negated)
        return IsNull(T.BOOLEAN, args=(operand,), negated=n.negated)

    def _bind_Between(self, n: A.Between, scope, aliases):
        operand = self.bind(n.operand, scope, aliases)
        low = self.bind(n.low, scope, aliases)
        high = self.bind(n.high, scope, aliases)
        e = self._logic(And, [self.compare(">=", operand, low), self.compare("<=", operand, high)])
        return self._not(e) if n.negated else e

    def _bind_InList(self, n: A.InList, scope, aliases):
        max_items = self.ctx.limits.in_list_items
        if len(n.items) > max_items:
            raise BadArguments(f"IN list of {len(n.items)} items exceeds the limit in_list_items = {max_items}",
                               position=n.pos)
        operand = self.bind(n.operand, scope, aliases)
        if scope.group_hook is None:
            # literals bound directly (a list may hold 100,000 of them: no dispatch per item)
            literal = self._bind_Literal
            items = [literal(i, scope, aliases) if type(i) is A.Literal else self.bind(i, scope, aliases)
                     for i in n.items]
        else:
            items = [self.bind(i, scope, aliases) for i in n.items]
        if any(e.type.name == "Variant" for e in (operand, *items)):  # compared in the order of VARIANT values
            return self._in_as_comparisons(operand, items, n.negated)
        coerced = []
        as_is = set()  # item types compared with the operand without any conversion
        for item in items:
            if item.type in as_is:
                coerced.append(item)
                continue
            a, b = self._comparable(operand, item)
            if a is not operand:
                # the operand needed conversion (a constant one too: the list keeps the operand
                # as it is): compare item by item instead
                return self._in_as_comparisons(operand, items, n.negated)
            if a is operand and b is item:
                as_is.add(item.type)  # the conversion depends on the two types only
            coerced.append(b)
        nullable = operand.type.can_be_null or any(i.type.can_be_null for i in coerced)
        e = InList(T.BOOLEAN.as_nullable(nullable), args=(operand, *coerced), negated=n.negated)
        if isinstance(operand, Const) and all(isinstance(i, Const) for i in coerced):
            v = evaluate_constant(e)
            return Const(T.BOOLEAN if v is not None else T.NULL, value=v)
        return e

    def _in_as_comparisons(self, operand, items, negated):
        e = self._logic(Or, [self.compare("=", operand, i) for i in items])
        return self._not(e) if negated else e

    def _bind_Like(self, n: A.Like, scope, aliases):
        operand = self.bind(n.operand, scope, aliases)
        pattern = self.bind(n.pattern, scope, aliases)
        if not operand.type.is_string and operand.type.name != "Null":
            operand = self.cast(operand, T.STRING.as_nullable(operand.type.can_be_null), False)
        if not pattern.type.is_string and pattern.type.name != "Null":
            pattern = self.cast(pattern, T.STRING.as_nullable(pattern.type.can_be_null), False)
        nullable = operand.type.can_be_null or pattern.type.can_be_null
        if isinstance(pattern, Const):
            if pattern.value is None:
                return Const(T.NULL, value=None)
            text = str(pattern.value)
            check_like_pattern(text, self.ctx.limits.like_pattern_chars)
            return Like(T.BOOLEAN.as_nullable(nullable), args=(operand,), negated=n.negated, matcher=like_matcher(text))
        dynamic = ("dynamic", like_dynamic(self.ctx.limits.like_pattern_chars))
        return Like(T.BOOLEAN.as_nullable(nullable), args=(operand, pattern), negated=n.negated, matcher=dynamic)

    def _bind_Case(self, n: A.Case, scope, aliases):
        args = []
        results = []
        operand = self.bind(n.operand, scope, aliases) if n.operand is not None else None
        for cond, res in n.whens:
            c = self.bind(cond, scope, aliases)
            c = self.compare("=", operand, c) if operand is not None else self.boolean(c)
            r = self.bind(res, scope, aliases)
            args.extend([c, r])
            results.append(r)
        else_ = self.bind(n.else_, scope, aliases) if n.else_ is not None else Const(T.NULL, value=None)
        results.append(else_)
        t = T.common_type([r.type for r in results])
        args = [a if i % 2 == 0 else self._to_type(a, t) for i, a in enumerate(args)]
        args.append(self._to_type(else_, t))
        return Case(t, args=tuple(args))

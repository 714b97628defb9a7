"""Code generation of function calls: the generic call with its NULL checks, and the calls compiled
to their own templates (COALESCE, IF, NULLIF, concat, integer lookups); a mixin of the Codegen.
As everywhere in generated code, values reach the source only as bound closure variables."""

from __future__ import annotations

from engine.codegen.value_ranges import integer_text_chars
from engine.core.limits import Limits
from engine.core.memory import ALLOCATION_CHARGE_BYTES
from engine.ir.expr import Cast, Col, Const, Expr, Func, Param
from engine.runtime.bounded import concat_large

# operands cheap enough to read twice (a NULL check, then the value)
_SIMPLE = (Col, Param, Const)


class CallCodegen:
    """Function-call templates; uses the Codegen's expr, bind, temp and null checks."""

    def _v_func(self, e: Func, cols) -> str:
        fn = e.fn
        self.row_cost += fn.row_cost
        lazy = _LAZY_FUNCTIONS.get(fn.name)
        if lazy is not None:
            return lazy(self, e, cols)
        of_int = getattr(fn.impl, "of_int", None)
        if of_int is not None and fn.strict and len(e.args) == 1 and e.args[0].type.is_int:
            return self._guarded(e.args, cols, lambda x: self._int_call(of_int, x))
        f = self.bind(fn.impl)
        if fn.strict:
            return self._guarded(e.args, cols, lambda *xs: f"{f}({', '.join(xs)})")
        args = [self.expr(a, cols) for a in e.args]
        if hasattr(fn.impl, "prefetch") and all(isinstance(a, Col | Const) for a in e.args):
            self.prefetched.append((f, args))  # its batch's arguments at once (batch_source.prefetching_body)
        return f"{f}({', '.join(args)})"

    def _int_call(self, of_int, x: str) -> str:
        """A strict function of one integer through its integer implementation `of_int` (e.g.
        to_date(int): engine.types.datetimes.date_from_days); one with a `cache` (a dict of
        its truthy answers by argument) looks the argument up there first, a C-level call."""
        f = self.bind(of_int)
        cache = getattr(of_int, "cache", None)
        if cache is None:
            return f"{f}({x})"
        first, again = self._read_twice(x)
        return f"({self.bind(cache.get)}({first}) or {f}({again}))"

    def _coalesce(self, e: Func, cols) -> str:
        """COALESCE / IFNULL as a conditional chain: an argument runs only when all before it
        are NULL, so `COALESCE(x, 1 DIV 0)` fails only for rows where x is NULL."""
        tail = "None"
        for arg in reversed(e.args):
            src = self.expr(arg, cols)
            if not self.nullable(arg):
                tail = src
            elif isinstance(arg, _SIMPLE):
                tail = f"({src} if {src} is not None else {tail})"
            else:
                t = self.temp()
                tail = f"({t} if ({t} := {src}) is not None else {tail})"
        return tail

    def _if(self, e: Func, cols) -> str:
        """IF(c, a, b): only the chosen branch runs."""
        cond, then, otherwise = e.args
        return f"({self.expr(then, cols)} if {self.pred(cond, cols)} else {self.expr(otherwise, cols)})"

    def _nullif(self, e: Func, cols) -> str:
        """NULLIF(a, b): b runs only when a is not NULL (otherwise the answer is NULL anyway)."""
        a, b = e.args
        ta, tb = self.temp(), self.temp()
        differ = f"{ta} != {tb}"
        if _may_be_nan(a, self.nonnan) and _may_be_nan(b, self.nonnan):  # a NaN equals a NaN (engine.types.keys)
            differ += f" and ({ta} == {ta} or {tb} == {tb})"
        return (f"(None if ({ta} := {self.expr(a, cols)}) is None else "
                f"({ta} if ({tb} := {self.expr(b, cols)}) is None or {differ} else None))")

    def _concat(self, e: Func, cols) -> str:
        """CONCAT / `||` of strings as plain `+` (NULL-guarded) after checking the summed lengths
        against string_result_chars; other types go through the (checked) function. A result of
        ALLOCATION_CHARGE_BYTES characters or more goes through `concat_large`, which refuses it
        beyond the limit or charges it to the query before building it."""
        if all(a.type.is_string for a in e.args):
            fn = e.fn
            max_chars = fn.limits.string_result_chars if fn.limits else Limits().string_result_chars
            # constant operands' lengths are known now: only the others are measured per row
            constant = [isinstance(a, Const) and isinstance(a.value, str) for a in e.args]
            fixed = sum(len(a.value) for a, c in zip(e.args, constant, strict=True) if c)
            # an integer's text has at most its type's digits: not measured when all such
            # operands together stay inline anyway
            bounded = [None if c else integer_text_chars(a) for a, c in zip(e.args, constant, strict=True)]
            most = fixed + sum(b for b in bounded if b is not None)
            if most < min(max_chars, ALLOCATION_CHARGE_BYTES - 1):
                fixed = most
                constant = [c or b is not None for c, b in zip(constant, bounded, strict=True)]
            # at most this many measured characters are added inline (the rest: concat_large)
            inline = min(max_chars, ALLOCATION_CHARGE_BYTES - 1) - fixed
            k_room, k_large = self.bind(inline), self.bind(concat_large(max_chars))
            measured = [not c for c in constant]

            def checked(*xs):
                parts, sizes = [], []
                for x, measure in zip(xs, measured, strict=True):
                    if measure:
                        t = self.temp()
                        sizes.append(f"len({t} := {x})")
                        x = t
                    parts.append(x)
                if not sizes:  # all constant (folded at bind time): decided now
                    if fixed > max_chars:
                        return f"{k_large}({', '.join(parts)})"
                    return "(" + " + ".join(parts) + ")"
                return (f"({' + '.join(parts)} if {' + '.join(sizes)} <= {k_room} "
                        f"else {k_large}({', '.join(parts)}))")

            return self._guarded(e.args, cols, checked)
        f = self.bind(e.fn.impl)
        return self._guarded(e.args, cols, lambda *xs: f"{f}({', '.join(xs)})")


# calls compiled to templates of their own: their arguments are evaluated lazily (COALESCE stops
# at the first non-NULL)
_LAZY_FUNCTIONS = {"coalesce": CallCodegen._coalesce, "ifnull": CallCodegen._coalesce, "if": CallCodegen._if,
                   "nullif": CallCodegen._nullif, "concat": CallCodegen._concat}


def _may_be_nan(e: Expr, nonnan=frozenset()) -> bool:
    """Whether `e` may evaluate to a NaN: a float that is not a constant number, a number
    converted to a float, nor a column of a table column holding no NaN in the query's snapshot
    (`nonnan`, as `nonnull` for NULLs)."""
    if e.type is None or not e.type.is_float:
        return False
    if isinstance(e, Col):
        return e.column not in nonnan
    if isinstance(e, Const):
        return e.value != e.value
    if isinstance(e, Cast):
        source = e.args[0].type
        return source is None or not (source.is_int or source.name in ("Decimal", "Boolean"))
    return True

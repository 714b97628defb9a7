"""Bitwise operators `& | # << >> ~` (Databend's bit_and, bit_or, bit_xor, bit_shift_left,
bit_shift_right, bit_not): integer operands, an Int64 answer wrapped to 64 bits."""

from __future__ import annotations

from engine.core.errors import SemanticError
from engine.functions.registry import ScalarFunction
from engine.types import sqltype as T

_NAMES = {"&": "bit_and", "|": "bit_or", "#": "bit_xor", "<<": "bit_shift_left", ">>": "bit_shift_right",
          "~": "bit_not"}
_SHIFTS = ("<<", ">>")


def _wrap(v: int) -> int:
    """v as a signed 64-bit integer (Databend's Int64 arithmetic wraps)."""
    v &= 0xFFFF_FFFF_FFFF_FFFF
    return v - (1 << 64) if v >= 1 << 63 else v


def _and(a, b):
    return _wrap(int(a) & int(b))


def _or(a, b):
    return _wrap(int(a) | int(b))


def _xor(a, b):
    return _wrap(int(a) ^ int(b))


def _shift_left(a, n):
    return _wrap(_wrap(int(a)) << (int(n) % 64))


def _shift_right(a, n):
    return _wrap(int(a)) >> (int(n) % 64)


def _not(a):
    return _wrap(~int(a))


def _result(op):
    name = _NAMES[op]

    def rule(types):
        ok = all(t.is_int or t.name == "Boolean" for t in types)
        if op in _SHIFTS and ok:
            ok = not types[1].is_int or types[1].name.startswith("U")
        if not ok:
            shown = ", ".join(t.display() for t in types)
            raise SemanticError(f"no overload satisfies `{name}({shown})`")
        return T.INT64

    return rule


BITWISE_FUNCTIONS = {
    op: ScalarFunction(_NAMES[op], impl, _result(op), arity, arity)
    for op, impl, arity in (("&", _and, 2), ("|", _or, 2), ("#", _xor, 2), ("<<", _shift_left, 2),
                            (">>", _shift_right, 2), ("~", _not, 1))
}

"""Vector distance functions: cosine_distance (`<=>`), l1_distance (`<+>`), l2_distance (`<->`),
inner_product, vector_dims and vector_norm, as Databend's (src/common/vector): arrays of
integers or Float32 (and VECTOR(n) values) are computed in single precision, arrays of
Float64 or Decimal in double precision; the sums follow ndarray's eightfold unrolled order
where Databend sums with ndarray, so that the last digit agrees."""

from __future__ import annotations

import math
import struct

from engine.core.errors import BadArguments, SemanticError
from engine.functions.registry import register
from engine.types import nested as N
from engine.types import sqltype as T

_F32 = struct.Struct("<f")


def _f32(x: float) -> float:
    """x rounded to single precision (each operation of a Float32 computation is rounded so)."""
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _f64(x: float) -> float:
    return x


def _precision(types) -> str:
    """'f32' or 'f64': the Databend overload the arguments' element types select."""
    wide = False
    for t in types:
        if t.name == "Null":
            continue
        if t.name != "Array":
            raise SemanticError(f"vector functions take arrays of numbers, not {t.display()}")
        element = N.element_of(t)
        if element.name in ("Float64", "Decimal"):
            wide = True
        elif not (element.is_int or element.name in ("Float32", "Nothing", "Null")):
            raise SemanticError(f"vector functions take arrays of numbers, not {t.display()}")
    return "f64" if wide else "f32"


def _result_type(types):
    return T.FLOAT64 if _precision(types) == "f64" else T.FLOAT32


def _values(arr, r) -> list[float]:
    return [r(float(x)) if x is not None else 0.0 for x in arr]


def _unrolled_sum(xs, r) -> float:
    """ndarray's sum of a contiguous array: eight partial sums, paired, then the rest in order."""
    partial = [0.0] * 8
    whole = len(xs) - len(xs) % 8
    for i in range(0, whole, 8):
        for j in range(8):
            partial[j] = r(partial[j] + xs[i + j])
    total = 0.0
    for j in range(4):
        total = r(total + r(partial[j] + partial[j + 4]))
    for x in xs[whole:]:
        total = r(total + x)
    return total


def _sequential_sum(xs, r) -> float:
    total = 0.0
    for x in xs:
        total = r(total + x)
    return total


def _pair(a, b, r):
    if len(a) != len(b):
        raise BadArguments(f"Vector length not equal: {len(a)} != {len(b)}")
    return _values(a, r), _values(b, r)


def _cosine(a, b, r):
    xs, ys = _pair(a, b, r)
    aa = _unrolled_sum([r(x * x) for x in xs], r)
    bb = _unrolled_sum([r(y * y) for y in ys], r)
    ab = _unrolled_sum([r(x * y) for x, y in zip(xs, ys, strict=True)], r)
    denominator = r(r(math.sqrt(aa)) * r(math.sqrt(bb)))
    if denominator == 0.0:
        return math.nan if ab == 0.0 else math.copysign(math.inf, -ab)
    return r(1.0 - r(ab / denominator))


def _l1(a, b, r):
    xs, ys = _pair(a, b, r)
    return _sequential_sum([abs(r(x - y)) for x, y in zip(xs, ys, strict=True)], r)


def _l2(a, b, r):
    xs, ys = _pair(a, b, r)
    return r(math.sqrt(_sequential_sum([r(r(x - y) ** 2) for x, y in zip(xs, ys, strict=True)], r)))


def _inner(a, b, r):
    xs, ys = _pair(a, b, r)
    return _unrolled_sum([r(x * y) for x, y in zip(xs, ys, strict=True)], r)


def _norm(a, r):
    xs = _values(a, r)
    return r(math.sqrt(_unrolled_sum([r(x * x) for x in xs], r)))


def _specialized(compute):
    def specialize(types):
        r = _f64 if _precision(types) == "f64" else _f32
        return lambda *arrays: compute(*arrays, r)
    return specialize


for _name, _compute in (("cosine_distance", _cosine), ("l1_distance", _l1), ("l2_distance", _l2),
                        ("inner_product", _inner)):
    register(_name, None, _result_type, 2, specialize=_specialized(_compute))
register("vector_norm", None, _result_type, 1, specialize=_specialized(_norm))
register("vector_dims", len, lambda ts: (_precision(ts), T.INT32)[1], 1)

"""Geo functions on plain coordinates (no GEOMETRY values, no extra needed): GEO_DISTANCE,
GREAT_CIRCLE_ANGLE, GREAT_CIRCLE_DISTANCE (ClickHouse's fast single-precision formulas with their
lookup tables, as Databend's geo.rs computes them, bit for bit), GEOHASH_ENCODE, GEOHASH_DECODE,
POINT_IN_POLYGON and POINT_IN_ELLIPSES."""

from __future__ import annotations

import functools
import math
import struct

from engine.core.errors import SemanticError
from engine.functions.geometry import geohash_box, geohash_encode
from engine.functions.registry import declare_row_costs, fixed, register
from engine.types import nested as N
from engine.types import sqltype as T

_F32 = struct.Struct("<f")


def f32(x: float) -> float:
    """x rounded to single precision (the arithmetic of Rust's f32)."""
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _index(x: float) -> int:
    """Rust's saturating `x as usize`."""
    if x != x or x <= 0:
        return 0
    return min(int(x), 2**64 - 1)


PI_F = f32(math.pi)
RAD_IN_DEG = f32(math.pi / 180)
RAD_IN_DEG_HALF = f32(math.pi / 360)
COS_LUT_SIZE = 1024
ASIN_SQRT_LUT_SIZE = 512
METRIC_LUT_SIZE = 1024
EARTH_DIAMETER = f32(2 * f32(6371007.180918475))
_COS_SCALE = f32(f32(1024.0 / PI_F) / 2)


@functools.cache
def _tables() -> dict:
    """The lookup tables, made on first use (geo_dist_init)."""
    cos_lut = [f32(math.cos(2 * math.pi * i / COS_LUT_SIZE)) for i in range(COS_LUT_SIZE + 1)]
    asin_lut = [f32(math.asin(math.sqrt(i / ASIN_SQRT_LUT_SIZE))) for i in range(ASIN_SQRT_LUT_SIZE + 1)]
    wgs84 = [0.0] * (2 * (METRIC_LUT_SIZE + 1))  # (Databend fills it with this index pattern)
    sphere_meters, sphere = [], []
    for i in range(METRIC_LUT_SIZE + 1):
        latitude = i * (math.pi / METRIC_LUT_SIZE) - math.pi * 0.5
        wgs84[i] = f32(math.sqrt(111132.09 - 566.05 * math.cos(2 * latitude) + 1.20 * math.cos(4 * latitude)))
        wgs84[i * 2 + 1] = f32(math.sqrt(111415.13 * math.cos(latitude) - 94.55 * math.cos(3 * latitude)
                                          + 0.12 * math.cos(5 * latitude)))
        sphere_meters.append(f32(((EARTH_DIAMETER * math.pi / 360) * math.cos(latitude)) ** 2))
        sphere.append(f32(math.cos(latitude) ** 2))
    return {"cos": cos_lut, "asin": asin_lut, "wgs84": wgs84, "sphere_meters": sphere_meters, "sphere": sphere}


def _lerp(table, i, frac):
    return f32(table[i] + f32(f32(table[i + 1] - table[i]) * frac))


def _fast_cos(x: float, shift: int = 0) -> float:
    y = f32(abs(x) * _COS_SCALE)
    i = _index(y)
    y = f32(y - f32(i))
    return _lerp(_tables()["cos"], (i - shift) & (COS_LUT_SIZE - 1), y)


def _fast_sin(x: float) -> float:
    return _fast_cos(x, COS_LUT_SIZE // 4)  # cos(x - pi / 2)


def _fast_asin_sqrt(x: float) -> float:
    if x < 0.122:
        y = math.sqrt(x)
        return f32(y + x * y * 0.166666666666666 + x * x * y * 0.075 + x * x * x * y * 0.044642857142857)
    if x < 0.948:
        x = f32(x * ASIN_SQRT_LUT_SIZE)
        i = _index(x)
        return _lerp(_tables()["asin"], i, f32(x - f32(i)))
    return f32(math.asin(f32(math.sqrt(x))))


def _deg_diff(f: float) -> float:
    f = abs(f)
    return f32(360 - f) if f > 180 else f


def _near_factors(method: str, mid: float) -> tuple[float, float]:
    """(k_lat, k_lon) of the flat formula for points less than 13 degrees of longitude apart."""
    i = _index(mid) & (METRIC_LUT_SIZE - 1)
    frac = f32(mid - f32(i))
    tables = _tables()
    if method == "degrees":
        return 1.0, _lerp(tables["sphere"], i, frac)
    if method == "meters":
        k = f32(f32(EARTH_DIAMETER * PI_F) / 360)
        return f32(k * k), _lerp(tables["sphere_meters"], i, frac)
    wgs84 = tables["wgs84"]
    k_lat = f32(wgs84[i * 2] + f32(f32(wgs84[(i + 1) * 2] - wgs84[i * 2]) * frac))
    k_lon = f32(wgs84[i * 2 + 1] + f32(f32(wgs84[(i + 1) * 2 + 1] - wgs84[i * 2 + 1]) * frac))
    return k_lat, k_lon


def distance(lon1, lat1, lon2, lat2, method: str) -> float:
    lon1, lat1, lon2, lat2 = f32(lon1), f32(lat1), f32(lon2), f32(lat2)
    lat_diff = _deg_diff(f32(lat1 - lat2))
    lon_diff = _deg_diff(f32(lon1 - lon2))
    if lon_diff < 13:
        mid = f32(f32(f32(f32(lat1 + lat2) + 180) * METRIC_LUT_SIZE) / 360)
        k_lat, k_lon = _near_factors(method, mid)
        total = f32(f32(f32(k_lat * lat_diff) * lat_diff) + f32(f32(k_lon * lon_diff) * lon_diff))
        return f32(math.sqrt(total)) if total >= 0 else math.nan
    s1 = _fast_sin(f32(lat_diff * RAD_IN_DEG_HALF))
    s2 = _fast_sin(f32(lon_diff * RAD_IN_DEG_HALF))
    cosines = f32(_fast_cos(f32(lat1 * RAD_IN_DEG)) * _fast_cos(f32(lat2 * RAD_IN_DEG)))
    a = f32(f32(s1 * s1) + f32(cosines * f32(s2 * s2)))
    if method == "degrees":
        return f32(f32(360 / PI_F) * _fast_asin_sqrt(a))
    return f32(EARTH_DIAMETER * _fast_asin_sqrt(a))


def _distance_function(name, method):
    def call(lon1, lat1, lon2, lat2):
        return distance(float(lon1), float(lat1), float(lon2), float(lat2), method)
    register(name, call, fixed(T.FLOAT32), 4)


_distance_function("geo_distance", "wgs84")
_distance_function("great_circle_angle", "degrees")
_distance_function("great_circle_distance", "meters")


# ---------------------------------------------------------------- geohash


def _geohash_encode(lon, lat, precision=12):
    precision = int(precision)
    return geohash_encode(float(lon), float(lat), precision if 1 <= precision <= 12 else 12)


def _geohash_decode(text):
    x0, y0, x1, y1 = geohash_box(text)
    return N.TupleValue(((x0 + x1) / 2, (y0 + y1) / 2))


register("geohash_encode", _geohash_encode, fixed(T.STRING), 2, 3)
register("geohash_decode", _geohash_decode, fixed(T.SqlType("Tuple", args=(T.FLOAT64, T.FLOAT64))), 1)


# ---------------------------------------------------------------- point in polygon / ellipses


def _is_pair(t: T.SqlType) -> bool:
    return t.name == "Tuple" and len(t.args) == 2 and all(a.is_numeric for a in t.args)


def _ring_type(t: T.SqlType, depth: int) -> bool:
    """An Array of (x, y) tuples (depth 1) or an Array of those (depth 2)."""
    if t.name != "Array" or not t.args:
        return False
    inner = t.args[0]
    return _is_pair(inner) if depth == 1 else _ring_type(inner, 1)


def _polygon_type(types):
    """UInt8; a call outside Databend's three forms is refused as Databend refuses it (1065)."""
    point, rings = types[0], types[1:]
    forms_ok = _is_pair(point) and rings and (
        (len(rings) == 1 and (_ring_type(rings[0], 1) or _ring_type(rings[0], 2)))
        or all(_ring_type(r, 1) for r in rings))
    if not forms_ok:
        shown = ", ".join(t.display() for t in types)
        raise SemanticError(f"no overload satisfies `point_in_polygon({shown})`")
    return T.UINT8


def _inside_ring(x: float, y: float, ring: list) -> int:
    """-1 on the ring's boundary, else 1 inside, 0 outside (crossing number)."""
    inside = False
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        if (x - x1) * (y2 - y1) == (y - y1) * (x2 - x1) and min(x1, x2) <= x <= max(x1, x2) \
                and min(y1, y2) <= y <= max(y1, y2):
            return -1
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return 1 if inside else 0


def _point_in_polygon(point, first, *holes):
    x, y = float(point[0]), float(point[1])
    if holes or not first or not isinstance(first[0], N.ArrayValue):
        rings = [first, *holes]
    else:
        rings = list(first)
    rings = [[(float(p[0]), float(p[1])) for p in ring] for ring in rings]
    # contains: strictly inside the outer ring and outside (not on) every hole
    if _inside_ring(x, y, rings[0]) != 1:
        return 0
    return 0 if any(_inside_ring(x, y, hole) != 0 for hole in rings[1:]) else 1


register("point_in_polygon", _point_in_polygon, _polygon_type, 2, 1 << 16)


def _point_in_ellipses(x, y, *numbers):
    if len(numbers) < 4 or len(numbers) % 4:
        raise SemanticError("point_in_ellipses takes 2 + 4 * n arguments")
    x, y = float(x), float(y)
    values = [float(n) for n in numbers]
    for i in range(0, len(values), 4):
        ex, ey, a, b = values[i:i + 4]
        p1, p2 = (x - ex) / a, (y - ey) / b
        if ex - a <= x <= ex + a and ey - b <= y <= ey + b and p1 * p1 + p2 * p2 <= 1.0:
            return 1
    return 0


register("point_in_ellipses", _point_in_ellipses, fixed(T.UINT8), 6, 1 << 16)

# microseconds a call costs (CPU time measured over 2,000 rows; a polygon's test grows with its
# vertices): a step over them takes fewer rows (engine.core.steps.rows_for_cost)
declare_row_costs({
    "geo_distance": 9, "great_circle_distance": 8, "great_circle_angle": 8, "geohash_encode": 9,
    "geohash_decode": 5, "point_in_polygon": 4,
})

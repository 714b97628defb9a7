"""GEOMETRY / GEOGRAPHY predicates, measures and operations: ST_CONTAINS, ST_INTERSECTS,
ST_DISJOINT, ST_WITHIN, ST_EQUALS, ST_COVERS, ST_COVEREDBY, ST_DWITHIN; ST_DISTANCE, ST_LENGTH,
ST_AREA, ST_PERIMETER, ST_AZIMUTH, ST_HAUSDORFFDISTANCE, HAVERSINE (planar for a GEOMETRY,
on the sphere / WGS84 ellipsoid for a GEOGRAPHY, as Databend's geo crate measures); ST_CONVEXHULL,
ST_CENTROID, ST_ENVELOPE, ST_UNION, ST_INTERSECTION, ST_DIFFERENCE, ST_SYMDIFFERENCE,
ST_SIMPLIFY, ST_ISVALID, ST_BUFFER, ST_TRANSFORM (pyproj) and ST_HILBERT. Measures are rounded
to 9 decimals and transformed coordinates to 6, as Databend rounds them."""

from __future__ import annotations

import math
import struct
from dataclasses import replace

from engine.core.errors import SemanticError
from engine.functions.geometry import (
    GeometryError,
    check_same_srid,
    geo_arg,
    like_first,
    maybe_null,
    same_kind,
)
from engine.functions.registry import SCALARS, declare_row_costs, fixed, register
from engine.types import geo_values as G
from engine.types import sqltype as T

BOOLEAN, FLOAT64 = T.BOOLEAN, T.FLOAT64
EARTH_MEAN_RADIUS = 6371008.8  # metres, the geo crate's Haversine radius


def round9(v: float) -> float:
    """As Databend rounds a measure: (v * 1e9).round() / 1e9, halves away from zero."""
    return math.copysign(math.floor(abs(v) * 1e9 + 0.5), v) / 1e9


def _pair(a, b):
    """The shapes of two GEOMETRY arguments of one SRID."""
    a, b = geo_arg(a), geo_arg(b)
    check_same_srid(a, b)
    return G.shape(a), G.shape(b)


# ---------------------------------------------------------------- predicates


def _predicate(name, method):
    def test(a, b):
        left, right = _pair(a, b)
        return bool(getattr(left, method)(right))
    register(name, test, fixed(BOOLEAN), 2)


for _name, _method in (("st_contains", "contains"), ("st_intersects", "intersects"),
                       ("st_disjoint", "disjoint"), ("st_within", "within"), ("st_equals", "equals"),
                       ("st_covers", "covers"), ("st_coveredby", "covered_by")):
    _predicate(_name, _method)


def _dwithin(a, b, distance):
    left, right = _pair(a, b)
    return bool(left.distance(right) <= float(distance))


register("st_dwithin", _dwithin, fixed(BOOLEAN), 3)


# ---------------------------------------------------------------- measures


def haversine_metres(lon1, lat1, lon2, lat2) -> float:
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi, dlam = phi2 - phi1, math.radians(lon2 - lon1)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlam / 2) ** 2
    return 2 * EARTH_MEAN_RADIUS * math.asin(math.sqrt(h))


def _haversine(lat1, lon1, lat2, lon2):
    return round9(haversine_metres(float(lon1), float(lat1), float(lon2), float(lat2)) * 0.001)


register("haversine", _haversine, fixed(FLOAT64), 4)


def _unit(lon: float, lat: float) -> tuple:
    phi, lam = math.radians(lat), math.radians(lon)
    return math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi)


def _cross3(a, b):
    return a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]


def _dot3(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _arc_distance(p, a, b) -> float:
    """Metres from the point p to the great-circle arc a-b ((lon, lat) pairs): to the foot of
    the perpendicular when it falls inside the arc, else to the nearer end."""
    ends = min(haversine_metres(*p, *a), haversine_metres(*p, *b))
    up, ua, ub = _unit(*p), _unit(*a), _unit(*b)
    normal = _cross3(ua, ub)
    size = math.sqrt(_dot3(normal, normal))
    if size < 1e-15:
        return ends
    normal = tuple(c / size for c in normal)
    along = _dot3(up, normal)
    foot = tuple(u - along * n for u, n in zip(up, normal, strict=True))
    if _dot3(_cross3(ua, foot), normal) < 0 or _dot3(_cross3(foot, ub), normal) < 0:
        return ends
    lon, lat = math.degrees(math.atan2(foot[1], foot[0])), math.degrees(math.atan2(foot[2], math.hypot(foot[0], foot[1])))
    return min(ends, haversine_metres(*p, lon, lat))


def _point_to_shape(p, shp) -> float:
    """Metres from the point p to a GEOGRAPHY shape, as the geo crate's haversine closest point:
    0 on (or, for a polygon, inside) it."""
    kind = shp.geom_type
    if kind == "Point":
        return haversine_metres(*p, shp.x, shp.y)
    if kind in ("LineString", "Polygon"):
        if kind == "Polygon" and shp.intersects(G.library().Point(p)):
            return 0.0
        rings = [shp] if kind == "LineString" else [shp.exterior, *shp.interiors]
        segments = [(c[i], c[i + 1]) for r in rings for c in [list(r.coords)] for i in range(len(c) - 1)]
        if not segments:
            return haversine_metres(*p, *rings[0].coords[0])
        return min(_arc_distance(p, a, b) for a, b in segments)
    parts = [part for part in shp.geoms if not part.is_empty]
    if not parts:
        raise GeometryError("failed to calculate distance for empty geography")
    return min(_point_to_shape(p, part) for part in parts)


def _sphere_distance(left, right) -> float:
    """Databend's distance between two GEOGRAPHY shapes: from a point to the other shape, else
    the least distance from a vertex of either to the other."""
    if left.is_empty or right.is_empty:
        raise GeometryError("failed to calculate distance for empty geography")
    if left.geom_type == "Point":
        return _point_to_shape((left.x, left.y), right)
    if right.geom_type == "Point":
        return _point_to_shape((right.x, right.y), left)
    shapely = G.library()
    return min(*(_point_to_shape(tuple(c), right) for c in shapely.get_coordinates(left).tolist()),
               *(_point_to_shape(tuple(c), left) for c in shapely.get_coordinates(right).tolist()))


def _distance(a, b):
    a, b = geo_arg(a), geo_arg(b)
    if type(a) is G.GeographyValue or type(b) is G.GeographyValue:
        return round9(_sphere_distance(G.shape(a), G.shape(b)))
    check_same_srid(a, b)
    return round9(G.shape(a).distance(G.shape(b)))


register("st_distance", _distance, fixed(FLOAT64), 2)


def _lines(shp):
    kind = shp.geom_type
    if kind == "LineString":
        return [shp]
    if kind == "MultiLineString":
        return list(shp.geoms)
    if kind == "GeometryCollection":
        return [part for part in shp.geoms if part.geom_type == "LineString"]
    return []


def _geodesic():
    return G.library("pyproj").Geod(ellps="WGS84")


def _length(v):
    v = geo_arg(v)
    lines = _lines(G.shape(v))
    if type(v) is G.GeographyValue:
        geod = _geodesic()
        return round9(sum(geod.geometry_length(line) for line in lines))
    return round9(sum(line.length for line in lines))


def _area(v):
    v = geo_arg(v)
    shp = G.shape(v)
    if type(v) is G.GeographyValue:
        if shp.geom_type not in ("Polygon", "MultiPolygon", "GeometryCollection"):
            return 0.0
        return round9(abs(_geodesic().geometry_area_perimeter(shp)[0]))
    return round9(shp.area)


def _perimeter(v):
    shp = G.shape(geo_arg(v))
    polygons = [shp] if shp.geom_type == "Polygon" else list(shp.geoms) if shp.geom_type == "MultiPolygon" else []
    return round9(sum(ring.length for p in polygons for ring in [p.exterior, *p.interiors]))


register("st_length", _length, fixed(FLOAT64), 1)
register("st_area", _area, fixed(FLOAT64), 1)
register("st_perimeter", _perimeter, fixed(FLOAT64), 1)


def _azimuth(a, b):
    left, right = _pair(a, b)
    if left.geom_type != "Point" or right.geom_type != "Point":
        raise GeometryError("st_azimuth only accepts Point geometries")
    if left.equals(right):
        return None
    angle = math.atan2(right.x - left.x, right.y - left.y)
    return round9(angle + 2 * math.pi if angle < 0 else angle)


maybe_null("st_azimuth", _azimuth, FLOAT64, 2)


def _hausdorff(a, b):
    left, right = _pair(a, b)
    shapely = G.library()
    points = shapely.points(shapely.get_coordinates(left)), shapely.points(shapely.get_coordinates(right))
    # the geo crate's: the largest distance from a vertex of one to the other geometry
    farthest = max(max(float(d) for d in shapely.distance(points[0], right)),
                   max(float(d) for d in shapely.distance(points[1], left)))
    return round9(farthest)


register("st_hausdorffdistance", _hausdorff, fixed(FLOAT64), 2)
register("st_isvalid", lambda v: bool(G.shape(geo_arg(v)).is_valid), fixed(BOOLEAN), 1)


# ---------------------------------------------------------------- shapes from shapes


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull_ring(coords: list) -> list:
    """The convex hull's closed ring as the geo crate's quick hull gives it: counter-clockwise,
    from the vertex after the lexicographically least one; fewer than four points as they are."""
    if len(coords) < 4:
        ring = [c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1]]
        if len(ring) == 1:
            ring.append(ring[0])
        if ring[0] != ring[-1]:
            ring.append(ring[0])
        area = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(ring, ring[1:], strict=False))
        return ring[::-1] if area < 0 else ring
    points = sorted(set(coords))
    lower, upper = [], []
    for p in points:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(points):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    ccw = lower[:-1] + upper[:-1]  # from the least point, counter-clockwise
    ring = ccw[1:] + ccw[:1]
    return ring + ring[:1]


def _hull_coords(shp) -> list:
    kind = shp.geom_type
    if kind == "Polygon":
        return list(shp.exterior.coords)
    if kind == "MultiPolygon":
        return [c for p in shp.geoms for c in p.exterior.coords]
    return [tuple(c) for c in G.library().get_coordinates(shp).tolist()]


def _convex_hull(v):
    v = geo_arg(v)
    coords = [(float(x), float(y)) for x, y in _hull_coords(G.shape(v))]
    return _ring_value(convex_hull_ring(coords), v)


def _ring_value(ring, like):
    """A polygon of one ring, written as WKB here: GEOS refuses the degenerate rings (a hull of
    one point or of a segment) that Databend answers."""
    wkb = struct.pack("<bIII", 1, 3, 1, len(ring)) + b"".join(struct.pack("<dd", x, y) for x, y in ring)
    if type(like) is G.GeographyValue:
        return G.GeographyValue(wkb)
    return G.GeometryValue(G.with_srid(wkb, G.srid_of(like.ewkb)))


def _centroid(v):
    v = geo_arg(v)
    shp = G.shape(v)
    return None if shp.is_empty else same_kind(shp.centroid, v)


def _envelope(v):
    v = geo_arg(v)
    shp = G.shape(v)
    if shp.is_empty:
        return None
    x0, y0, x1, y1 = shp.bounds
    return _ring_value([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], v)


register("st_convexhull", _convex_hull, like_first, 1)
maybe_null("st_centroid", _centroid, like_first, 1)
maybe_null("st_envelope", _envelope, like_first, 1)


def _overlay(method):
    def combine(a, b):
        a, b = geo_arg(a), geo_arg(b)
        check_same_srid(a, b)
        out = getattr(G.shape(a), method)(G.shape(b))
        return None if out.is_empty else same_kind(out, a)
    return combine


for _name, _method in (("st_union", "union"), ("st_intersection", "intersection"),
                       ("st_difference", "difference"), ("st_symdifference", "symmetric_difference")):
    maybe_null(_name, _overlay(_method), like_first, 2)


def _simplify(v, tolerance):
    v = geo_arg(v)
    shp = G.shape(v)
    if shp.geom_type == "GeometryCollection":
        raise GeometryError("st_simplify is not supported for GeometryCollection")
    if shp.geom_type in ("Point", "MultiPoint"):
        return v
    return same_kind(shp.simplify(float(tolerance), preserve_topology=False), v)


register("st_simplify", _simplify, like_first, 2)


def _buffer(v, distance):
    v = geo_arg(v)
    shp = G.shape(v)
    kind = shp.geom_type
    if kind == "GeometryCollection":
        raise GeometryError("ST_BUFFER is not supported for GeometryCollection")
    distance = float(distance)
    effective = abs(distance) if kind in ("Point", "MultiPoint", "LineString", "MultiLineString") else distance
    if effective == 0:
        return same_kind(_as_multipolygon(shp), v) if kind in ("Polygon", "MultiPolygon") else None
    out = shp.buffer(effective, quad_segs=8)  # 32 segments a circle, as Databend's buffer style
    if out.is_empty:
        return None
    return same_kind(_as_multipolygon(out), v)


def _as_multipolygon(shp):
    return G.library().MultiPolygon([shp]) if shp.geom_type == "Polygon" else shp


maybe_null("st_buffer", _buffer, like_first, 2)


# ---------------------------------------------------------------- projections and curves


def _transform(v, first, second=None):
    v = geo_arg(v)
    if second is None:
        source, target = G.srid_of(v.ewkb), int(first)
        if source is None:
            raise GeometryError("input geometry must has the correct SRID")
    else:
        source, target = int(first), int(second)
    pyproj = G.library("pyproj")
    try:
        transformer = pyproj.Transformer.from_crs(f"EPSG:{source}", f"EPSG:{target}", always_xy=True)
    except pyproj.exceptions.CRSError:
        raise GeometryError("invalid srid") from None

    def move(coords):
        xs, ys = transformer.transform(coords[:, 0], coords[:, 1])
        shapely = G.library()
        return shapely.get_coordinates(shapely.points(xs, ys)).round(6)

    return G.geometry(G.library().transform(G.shape(v), move), target)


register("st_transform", _transform, fixed(T.GEOMETRY), 2, 3)


def _interleave(x: int) -> int:
    x = (x | (x << 8)) & 0x00FF00FF
    x = (x | (x << 4)) & 0x0F0F0F0F
    x = (x | (x << 2)) & 0x33333333
    return (x | (x << 1)) & 0x55555555


def hilbert_encode(x: int, y: int) -> int:
    """Databend's 16-level Hilbert index of (x, y) (src/query/expression/src/hilbert/spatial.rs)."""
    a = x ^ y
    b = 0xFFFF ^ a
    c = 0xFFFF ^ (x | y)
    d = x & (y ^ 0xFFFF)
    a0, b0 = a | (b >> 1), (a >> 1) ^ a
    c0 = ((c >> 1) ^ (b & (d >> 1))) ^ c
    d0 = ((a & (c >> 1)) ^ (d >> 1)) ^ d
    for shift in (2, 4):
        a, b, c, d = a0, b0, c0, d0
        a0 = (a & (a >> shift)) ^ (b & (b >> shift))
        b0 = (a & (b >> shift)) ^ (b & ((a ^ b) >> shift))
        c0 ^= (a & (c >> shift)) ^ (b & (d >> shift))
        d0 ^= (b & (c >> shift)) ^ ((a ^ b) & (d >> shift))
    a, b, c, d = a0, b0, c0, d0
    c0 ^= (a & (c >> 8)) ^ (b & (d >> 8))
    d0 ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8))
    a, b = c0 ^ (c0 >> 1), d0 ^ (d0 >> 1)
    i0 = x ^ y
    i1 = b | (0xFFFF ^ (i0 | a))
    return ((_interleave(i1 & 0xFFFFFFFF) << 1) | _interleave(i0 & 0xFFFFFFFF)) & 0xFFFFFFFF


def _f32_key(v: float) -> int:
    """A coordinate as an order-preserving unsigned 32-bit integer (of its Float32 bits)."""
    (bits,) = struct.unpack("<I", struct.pack("<f", v))
    return bits ^ 0xFFFFFFFF if bits & 0x80000000 else bits | 0x80000000


def _grid(x, y, bounds):
    xmin, ymin, xmax, ymax = bounds
    if not all(math.isfinite(n) for n in (x, y, xmin, ymin, xmax, ymax)):
        raise GeometryError("ST_HILBERT bounds must be finite")
    if xmax - xmin <= 0 or ymax - ymin <= 0:
        raise GeometryError("ST_HILBERT bounds must be increasing")
    top = 65535.0
    gx = min(max((x - xmin) * (top / (xmax - xmin)), 0.0), top)
    gy = min(max((y - ymin) * (top / (ymax - ymin)), 0.0), top)
    return int(gx), int(gy)


def _hilbert(v, bounds=None):
    v = geo_arg(v)
    shp = G.shape(v)
    if shp.is_empty:
        return None
    x0, y0, x1, y1 = shp.bounds
    x, y = x0 + (x1 - x0) / 2, y0 + (y1 - y0) / 2
    if bounds is not None:
        if len(bounds) != 4:
            raise GeometryError("ST_HILBERT bounds must have 4 elements")
        return hilbert_encode(*_grid(x, y, [float(b) for b in bounds]))
    if type(v) is G.GeographyValue:
        return hilbert_encode(*_grid(x, y, (-180.0, -90.0, 180.0, 90.0)))
    try:
        x32, y32 = struct.unpack("<ff", struct.pack("<ff", x, y))
    except OverflowError:
        raise GeometryError("ST_HILBERT coordinates must be finite") from None
    if not (math.isfinite(x32) and math.isfinite(y32)):
        raise GeometryError("ST_HILBERT coordinates must be finite")
    return hilbert_encode(_f32_key(x32), _f32_key(y32))


maybe_null("st_hilbert", _hilbert, T.UINT64, 1, 2)


# ---------------------------------------------------------------- argument types

# how many leading arguments of each function are GEOMETRY / GEOGRAPHY values (text, binary and
# VARIANT are read as one; a number or a date is refused, as Databend finds no overload: 1065)
_GEO_ARGUMENTS = {
    **dict.fromkeys(("st_geohash", "st_makepolygon", "st_makepolygonoriented", "st_asgeojson", "st_asewkb",
                     "st_aswkb", "st_asewkt", "st_aswkt", "st_x", "st_y", "st_srid", "st_setsrid", "st_xmin",
                     "st_ymin", "st_xmax", "st_ymax", "st_npoints", "st_dimension", "st_startpoint",
                     "st_endpoint", "st_pointn", "st_length", "st_area", "st_perimeter", "st_isvalid",
                     "st_convexhull", "st_centroid", "st_envelope", "st_simplify", "st_buffer", "st_transform",
                     "st_hilbert", "to_geometry", "try_to_geometry", "to_geography", "try_to_geography",
                     "st_geometryfromwkt", "st_geometryfromwkb", "st_geographyfromwkt", "st_geographyfromwkb"), 1),
    **dict.fromkeys(("st_makeline", "st_contains", "st_intersects", "st_disjoint", "st_within", "st_equals",
                     "st_covers", "st_coveredby", "st_dwithin", "st_distance", "st_azimuth",
                     "st_hausdorffdistance", "st_union", "st_intersection", "st_difference",
                     "st_symdifference"), 2),
}
_GEO_INPUTS = frozenset({"Geometry", "Geography", "String", "Binary", "Variant", "Null"})


def _checked(name, rule, count):
    def check(types):
        if any(t.name not in _GEO_INPUTS for t in types[:count]):
            shown = ", ".join(t.display() for t in types)
            raise SemanticError(f"no function matches signature `{name}({shown})`, "
                                "you might need to add explicit type casts.")
        return rule(types)
    return check


def _check_geo_arguments() -> None:
    checked = {}
    for key, fn in list(SCALARS.items()):
        count = _GEO_ARGUMENTS.get(fn.name)
        if count:
            if fn.name not in checked:
                checked[fn.name] = replace(fn, result=_checked(fn.name, fn.result, count))
            SCALARS[key] = checked[fn.name]


_check_geo_arguments()

# microseconds a call costs (CPU time measured over 2,000 small polygons and points; a GEOGRAPHY's
# area is geodesic, ~4x a GEOMETRY's): a step over them takes fewer rows
# (engine.core.steps.rows_for_cost)
declare_row_costs({
    "st_contains": 12, "st_intersects": 10, "st_within": 9, "st_disjoint": 9, "st_equals": 14,
    "st_covers": 9, "st_coveredby": 9, "st_dwithin": 10, "st_distance": 10, "st_area": 20,
    "st_length": 8, "st_perimeter": 8, "st_hausdorffdistance": 25, "st_isvalid": 5, "st_convexhull": 14,
    "st_centroid": 12, "st_envelope": 9, "st_simplify": 14, "st_union": 18, "st_intersection": 29,
    "st_difference": 22, "st_symdifference": 18, "st_buffer": 46, "st_transform": 275, "st_hilbert": 11,
    "st_azimuth": 10,
})

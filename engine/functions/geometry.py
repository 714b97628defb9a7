"""GEOMETRY / GEOGRAPHY constructors, output spellings and accessors: TO_GEOMETRY,
TRY_TO_GEOMETRY, ST_GEOMETRYFROMWKT / WKB / GEOHASH, ST_MAKEGEOMPOINT, ST_MAKELINE,
ST_MAKEPOLYGON, TO_GEOGRAPHY, ST_GEOGRAPHYFROMWKT / WKB, ST_MAKEPOINT; ST_ASWKT / ASEWKT /
ASWKB / ASEWKB / ASGEOJSON, ST_GEOHASH, TO_STRING / CAST by `geometry_output_format`; ST_X,
ST_Y, ST_SRID, ST_SETSRID, ST_XMAX..., ST_NPOINTS, ST_DIMENSION, ST_STARTPOINT / ENDPOINT /
POINTN. As Databend's src/query/functions/src/scalars/geographic (geometry.rs, geography.rs)
answers; the values are engine.types.geo_values, shapely (the geo extra) does the geometry."""

from __future__ import annotations

from engine.core.errors import EngineError, SemanticError
from engine.functions.registry import declare_row_costs, fixed, register
from engine.types import geo_values as G
from engine.types import sqltype as T
from engine.types import variant as V

GEOMETRY, GEOGRAPHY = T.GEOMETRY, T.GEOGRAPHY
GeometryError = G.GeometryError


def geo_arg(v) -> G.GeometryValue:
    """A GEOMETRY / GEOGRAPHY argument: a value as it is, text or bytes read as a geometry."""
    return v if isinstance(v, G.GeometryValue) else G.to_geometry(v)


def like_first(types) -> T.SqlType:
    """Result type rule: a GEOGRAPHY for a GEOGRAPHY first argument, else a GEOMETRY."""
    return GEOGRAPHY if types[0].name == "Geography" else GEOMETRY


def same_kind(shp, like: G.GeometryValue, srid: int | None = None) -> G.GeometryValue:
    """A result of the kind of `like`: a GEOGRAPHY, or a GEOMETRY with the SRID of `like`."""
    if type(like) is G.GeographyValue:
        return G.geography(shp)
    return G.geometry(shp, G.srid_of(like.ewkb) if srid is None else srid)


def maybe_null(name, impl, result, min_args, max_args=None, aliases=()):
    """A function that may answer NULL for arguments that are not (a NULL argument: NULL)."""
    def call(*args):
        return None if any(a is None for a in args) else impl(*args)

    def rule(types):
        if any(t.name == "Null" for t in types):
            return T.NULL
        return (result(types) if callable(result) else result).as_nullable(True)

    register(name, call, rule, min_args, max_args, strict=False, aliases=aliases)


def _try(convert):
    def attempt(*args):
        try:
            return convert(*args)
        except EngineError:
            return None
    return attempt


# ---------------------------------------------------------------- GEOMETRY constructors


def _to_geometry(v, srid=None):
    return G.to_geometry(v, None if srid is None else int(srid))


def _from_wkt(text, srid=None):
    shp, found = G.parse_ewkt(text)
    return G.geometry(shp, found if srid is None else int(srid))


def _from_wkb(data, srid=None):
    if isinstance(data, str):
        try:
            data = bytes.fromhex(data)
        except ValueError:
            raise GeometryError("invalid binary input") from None
    shp, found = G.parse_ewkb(data)
    return G.geometry(shp, found if srid is None else int(srid))


register("to_geometry", _to_geometry, fixed(GEOMETRY), 1, 2)
maybe_null("try_to_geometry", _try(_to_geometry), GEOMETRY, 1, 2)
register("st_geometryfromwkt", _from_wkt, fixed(GEOMETRY), 1, 2,
         aliases=("st_geomfromwkt", "st_geometryfromewkt", "st_geomfromewkt", "st_geometryfromtext",
                  "st_geomfromtext"))
register("st_geometryfromwkb", _from_wkb, fixed(GEOMETRY), 1, 2,
         aliases=("st_geomfromwkb", "st_geometryfromewkb", "st_geomfromewkb"))


def _make_geom_point(x, y):
    return G.geometry(G.library().Point(float(x), float(y)))


register("st_makegeompoint", _make_geom_point, fixed(GEOMETRY), 2, aliases=("st_geom_point",))


# ---------------------------------------------------------------- geohash


_BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz"


def geohash_box(text: str) -> tuple[float, float, float, float]:
    """(min lon, min lat, max lon, max lat) of a geohash."""
    if len(text) > 12:
        raise GeometryError("Currently the precision only implement within 12 digits!")
    lon, lat = [-180.0, 180.0], [-90.0, 90.0]
    even = True
    for ch in text:
        index = _BASE32.find(ch)
        if index < 0:
            raise GeometryError("invalid geohash")
        for bit in (16, 8, 4, 2, 1):
            half = lon if even else lat
            middle = (half[0] + half[1]) / 2
            half[0 if index & bit else 1] = middle
            even = not even
    return lon[0], lat[0], lon[1], lat[1]


def geohash_encode(lon: float, lat: float, precision: int = 12) -> str:
    G.check_point(lon, lat)
    lons, lats = [-180.0, 180.0], [-90.0, 90.0]
    out, even, bits, index = [], True, 0, 0
    while len(out) < precision:
        half, value = (lons, lon) if even else (lats, lat)
        middle = (half[0] + half[1]) / 2
        index <<= 1
        if value >= middle:
            index |= 1
            half[0] = middle
        else:
            half[1] = middle
        even = not even
        bits += 1
        if bits == 5:
            out.append(_BASE32[index])
            bits = index = 0
    return "".join(out)


def _box_polygon(text):
    x0, y0, x1, y1 = geohash_box(text)
    # geo's Rect as a polygon: from (max x, min y) counter-clockwise
    return G.library().Polygon([(x1, y0), (x1, y1), (x0, y1), (x0, y0), (x1, y0)])


def _box_center(text):
    x0, y0, x1, y1 = geohash_box(text)
    return G.library().Point((x0 + x1) / 2, (y0 + y1) / 2)


register("st_geomfromgeohash", lambda s: G.geometry(_box_polygon(s)), fixed(GEOMETRY), 1)
register("st_geompointfromgeohash", lambda s: G.geometry(_box_center(s)), fixed(GEOMETRY), 1)
register("st_geogfromgeohash", lambda s: G.geography(_box_polygon(s)), fixed(GEOGRAPHY), 1)
register("st_geogpointfromgeohash", lambda s: G.geography(_box_center(s)), fixed(GEOGRAPHY), 1)


def _st_geohash(v, precision=12):
    precision = int(precision)
    if precision > 12:
        raise GeometryError("Currently the precision only implement within 12 digits!")
    shp = G.shape(geo_arg(v))
    if shp.geom_type != "Point" or shp.is_empty:
        raise GeometryError(f"Expected type Point, found {G.type_name_of(shp)}")
    return geohash_encode(shp.x, shp.y, precision)


register("st_geohash", _st_geohash, fixed(T.STRING), 1, 2)


# ---------------------------------------------------------------- GEOGRAPHY constructors


def _geog_from_wkt(text):
    shp, srid = G.parse_ewkt(text)
    G.check_geography_srid(srid)
    return G.geography(shp)


def _geog_from_wkb(data):
    if isinstance(data, str):
        try:
            data = bytes.fromhex(data)
        except ValueError as exc:
            raise GeometryError(str(exc)) from None
    shp, srid = G.parse_ewkb(data)
    G.check_geography_srid(srid)
    return G.geography(shp)


def _make_point(lon, lat):
    return G.geography(G.library().Point(float(lon), float(lat)))


register("to_geography", G.to_geography, fixed(GEOGRAPHY), 1)
maybe_null("try_to_geography", _try(G.to_geography), GEOGRAPHY, 1)
register("st_geographyfromwkt", _geog_from_wkt, fixed(GEOGRAPHY), 1,
         aliases=("st_geogfromwkt", "st_geographyfromewkt", "st_geogfromewkt", "st_geographyfromtext",
                  "st_geogfromtext"))
register("st_geographyfromwkb", _geog_from_wkb, fixed(GEOGRAPHY), 1,
         aliases=("st_geogfromwkb", "st_geogetryfromwkb", "st_geogfromewkb", "st_geographyfromewkb"))
register("st_makepoint", _make_point, fixed(GEOGRAPHY), 2, aliases=("st_point",))


# ---------------------------------------------------------------- lines and polygons


def _points_of(shp):
    kind = shp.geom_type
    if kind == "Point":
        return list(shp.coords)
    if kind == "LineString":
        return list(shp.coords)
    if kind == "MultiPoint":
        return [p.coords[0] for p in shp.geoms]
    raise GeometryError("Geometry expression must be a Point, MultiPoint, or LineString, "
                        f"but got {G.type_name_of(shp)}")


def _make_line(a, b):
    a, b = geo_arg(a), geo_arg(b)
    check_same_srid(a, b)
    coords = _points_of(G.shape(a)) + _points_of(G.shape(b))
    return same_kind(G.library().LineString(coords), a)


def _ring_polygon(v, name):
    v = geo_arg(v)
    shp = G.shape(v)
    if shp.geom_type != "LineString":
        raise GeometryError(f"Type {G.type_name_of(shp)} is not supported as argument to {name}")
    coords = list(shp.coords)
    if len(coords) < 4:
        raise GeometryError(f"Input lines must have at least 4 points, but got {len(coords)}")
    if coords[0] != coords[-1]:
        raise GeometryError("The first point and last point are not equal")
    return v, G.library().Polygon(coords)


def _make_polygon(v):
    v, polygon = _ring_polygon(v, "ST_MAKEPOLYGON")
    return same_kind(polygon, v)


def _make_polygon_oriented(v):
    v, polygon = _ring_polygon(v, "st_makepolygonoriented")
    if not polygon.is_valid:
        raise GeometryError("Input line does not form a valid polygon")
    return same_kind(polygon, v)


register("st_makeline", _make_line, like_first, 2, aliases=("st_make_line",))
register("st_makepolygon", _make_polygon, like_first, 1, aliases=("st_polygon",))
register("st_makepolygonoriented", _make_polygon_oriented, like_first, 1)


def check_same_srid(a: G.GeometryValue, b: G.GeometryValue) -> None:
    left, right = G.value_srid(a), G.value_srid(b)
    if left != right:
        raise GeometryError(f"Incompatible SRID: {left} and {right}")


# ---------------------------------------------------------------- output spellings


def _as_geojson(v):
    return V.parse_json(G.geojson(G.tree(geo_arg(v))))


def _as_ewkb(v):
    v = geo_arg(v)
    if type(v) is G.GeographyValue:
        return G.with_srid(v.ewkb, G.GEOGRAPHY_SRID)
    return v.ewkb


def _as_ewkt(v):
    v = geo_arg(v)
    srid = G.GEOGRAPHY_SRID if type(v) is G.GeographyValue else G.srid_of(v.ewkb)
    return G.ewkt(G.tree(v), srid)


register("st_asgeojson", _as_geojson, fixed(T.SqlType("Variant")), 1)
register("st_asewkb", _as_ewkb, fixed(T.BINARY), 1)
register("st_aswkb", lambda v: G.plain_wkb(geo_arg(v).ewkb), fixed(T.BINARY), 1, aliases=("st_asbinary",))
register("st_asewkt", _as_ewkt, fixed(T.STRING), 1)
register("st_aswkt", lambda v: G.wkt(G.tree(geo_arg(v))), fixed(T.STRING), 1, aliases=("st_astext",))


def geo_cast(source: T.SqlType, target: T.SqlType, ctx):
    """The conversion of a GEOMETRY / GEOGRAPHY to text (CAST, ::String, TO_STRING) in the
    session's `geometry_output_format`; None for other casts."""
    if target.name != "String" or source.name not in ("Geometry", "Geography"):
        return None
    fmt = ctx.session.setting("geometry_output_format")
    return lambda v: G.format_value(v, fmt)


_COMPARISON_NAMES = {"=": "eq", "<>": "noteq", "!=": "noteq", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def check_geo_comparison(op: str, left: T.SqlType, right: T.SqlType) -> None:
    """Refuse comparing a GEOMETRY / GEOGRAPHY (=, <, IN...), as Databend, which registers no
    comparison for them, does (1065); DISTINCT, GROUP BY and ORDER BY still order their bytes."""
    geo = ("Geometry", "Geography")
    if (left.name in geo or right.name in geo) and "Null" not in (left.name, right.name):
        name = _COMPARISON_NAMES.get(op, op)
        raise SemanticError(f"no function matches signature `{name}({left.as_nullable(False).display()}, "
                            f"{right.as_nullable(False).display()})`, you might need to add explicit type casts.")


# ---------------------------------------------------------------- accessors


def _point_part(name, index):
    def part(v):
        shp = G.shape(geo_arg(v))
        if shp.geom_type != "Point" or shp.is_empty:
            raise GeometryError(f"Type {G.type_name_of(shp)} is not supported as argument to {name}")
        return float(shp.coords[0][index])
    return part


register("st_x", _point_part("ST_X", 0), fixed(T.FLOAT64), 1)
register("st_y", _point_part("ST_Y", 1), fixed(T.FLOAT64), 1)
register("st_srid", lambda v: G.value_srid(geo_arg(v)), fixed(T.INT32), 1)


def _set_srid(v, srid):
    v = geo_arg(v)
    return G.GeometryValue(G.with_srid(v.ewkb, int(srid)))


register("st_setsrid", _set_srid, fixed(GEOMETRY), 2)


def _extreme(index):
    def extreme(v):
        shp = G.shape(geo_arg(v))
        if shp.is_empty:
            return None
        return float(shp.bounds[index])
    return extreme


maybe_null("st_xmin", _extreme(0), T.FLOAT64, 1)
maybe_null("st_ymin", _extreme(1), T.FLOAT64, 1)
maybe_null("st_xmax", _extreme(2), T.FLOAT64, 1)
maybe_null("st_ymax", _extreme(3), T.FLOAT64, 1)


def count_points(shp) -> int:
    kind = shp.geom_type
    if kind in ("Point", "LineString", "LinearRing"):
        return 0 if shp.is_empty else len(shp.coords)
    if kind == "Polygon":
        return 0 if shp.is_empty else sum(len(r.coords) for r in [shp.exterior, *shp.interiors])
    return sum(count_points(part) for part in shp.geoms)


register("st_npoints", lambda v: count_points(G.shape(geo_arg(v))), fixed(T.UINT32), 1,
         aliases=("st_numpoints",))


def _dimension(v):
    shp = G.shape(geo_arg(v))
    if shp.is_empty:
        return None
    return int(G.library().get_dimensions(shp))


maybe_null("st_dimension", _dimension, T.INT32, 1)


def _line_points(v, name):
    v = geo_arg(v)
    shp = G.shape(v)
    if shp.geom_type != "LineString":
        raise GeometryError(f"Type {G.type_name_of(shp)} is not supported as argument to {name}")
    return v, list(shp.coords)


def _point_at(v, name, position):
    v, coords = _line_points(v, name)
    if not coords or not -len(coords) <= position < len(coords):
        return None
    point = G.library().Point(coords[position])
    # Databend keeps the SRID of a GEOMETRY; a GEOGRAPHY is always 4326
    return same_kind(point, v)


def _point_n(v, n):
    n = int(n)
    if n == 0:
        return None
    return _point_at(v, "ST_POINTN", n - 1 if n > 0 else n)


maybe_null("st_startpoint", lambda v: _point_at(v, "ST_STARTPOINT", 0), like_first, 1)
maybe_null("st_endpoint", lambda v: _point_at(v, "ST_ENDPOINT", -1), like_first, 1)
maybe_null("st_pointn", _point_n, like_first, 2)

# microseconds a call costs (CPU time measured over 2,000 small polygons and points): each call
# reads its arguments' EWKB into shapes and writes its answer's; a step over them takes fewer
# rows (engine.core.steps.rows_for_cost)
declare_row_costs({
    "to_geometry": 12, "try_to_geometry": 12, "st_geometryfromwkt": 12, "st_geometryfromwkb": 10,
    "to_geography": 18, "try_to_geography": 18, "st_geographyfromwkt": 18, "st_geographyfromwkb": 12,
    "st_makegeompoint": 12, "st_makepoint": 14, "st_geomfromgeohash": 24, "st_geompointfromgeohash": 16,
    "st_geogfromgeohash": 29, "st_geogpointfromgeohash": 16, "st_geohash": 14, "st_asgeojson": 20,
    "st_asewkt": 6, "st_aswkt": 6, "st_x": 7, "st_y": 7, "st_xmin": 7, "st_xmax": 7, "st_ymin": 7,
    "st_ymax": 7, "st_npoints": 9, "st_dimension": 7, "st_startpoint": 22, "st_endpoint": 22,
    "st_pointn": 22, "st_makeline": 28, "st_makepolygon": 30, "st_makepolygonoriented": 30,
})

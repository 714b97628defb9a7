"""GEOMETRY and GEOGRAPHY values: EWKB bytes as Databend stores them, read from WKT / EWKT /
WKB / EWKB / GeoJSON and written in each of the `geometry_output_format` spellings.

A value is a GeometryValue or GeographyValue holding little-endian EWKB (the SRID flag set only
when a SRID was given; a GEOGRAPHY is stored without one and is always SRID 4326, as Databend
does). Parsing and geometry work go through shapely (GEOS), an optional extra loaded on first
use: without it every GEOMETRY / GEOGRAPHY value and function answers an error naming the
extra. The text writers are written here, to spell numbers and brackets as Databend's geozero
writers do (`POINT(1 2)`, `MULTIPOINT(45 21,12 54)`, whole numbers without a point)."""

from __future__ import annotations

import decimal
import importlib
import json
import math
import struct
import sys

from engine.core.errors import EngineError, Unimplemented

GEOMETRY_ERROR = 1090  # Databend's ErrorCode::GeometryError
GEOGRAPHY_SRID = 4326
MISSING_EXTRA = ("GEOMETRY and GEOGRAPHY need shapely and pyproj, the optional extra: "
                 "pip install 'queryhttp[geo]'")
FORMATS = ("WKT", "WKB", "EWKT", "EWKB", "GEOJSON")
DEFAULT_FORMAT = "GEOJSON"
_SRID_FLAG = 0x20000000
_TYPE_NAMES = {1: "Point", 2: "LineString", 3: "Polygon", 4: "MultiPoint", 5: "MultiLineString",
               6: "MultiPolygon", 7: "GeometryCollection"}


class GeometryError(EngineError):
    """A value that is no geometry, or an operation a geometry does not allow (Databend 1090)."""

    code = GEOMETRY_ERROR


def library(name: str = "shapely"):
    """The module `name` of the geo extra (shapely, pyproj), imported on first use; without it
    error 1002 naming the extra. Not cached here: importlib answers from sys.modules."""
    try:
        return importlib.import_module(name)
    except ImportError:
        raise Unimplemented(MISSING_EXTRA) from None


class GeometryValue:
    """A GEOMETRY value: its EWKB bytes (compared and hashed by them)."""

    __slots__ = ("ewkb",)
    kind = "Geometry"

    def __init__(self, ewkb: bytes):
        self.ewkb = ewkb

    def __eq__(self, other):
        return type(other) is type(self) and other.ewkb == self.ewkb

    def __hash__(self):
        return hash((self.kind, self.ewkb))

    def __lt__(self, other):
        return self.ewkb < other.ewkb

    def __repr__(self):
        return f"{self.kind}Value({self.ewkb.hex()})"

    def __sizeof__(self):  # with its bytes, so memory accounting (getsizeof) counts them
        return object.__sizeof__(self) + sys.getsizeof(self.ewkb)


class GeographyValue(GeometryValue):
    """A GEOGRAPHY value: EWKB without SRID, longitude/latitude degrees of SRID 4326."""

    __slots__ = ()
    kind = "Geography"


GEO_VALUE_TYPES = (GeometryValue, GeographyValue)


# ---------------------------------------------------------------- EWKB headers


def srid_of(ewkb: bytes) -> int | None:
    """The SRID written in an EWKB header, or None."""
    if len(ewkb) < 9:
        return None
    order = "<" if ewkb[0] == 1 else ">"
    (kind,) = struct.unpack_from(order + "I", ewkb, 1)
    if not kind & _SRID_FLAG:
        return None
    return struct.unpack_from(order + "i", ewkb, 5)[0]


def plain_wkb(ewkb: bytes) -> bytes:
    """The WKB of an EWKB: its header without SRID."""
    if srid_of(ewkb) is None:
        return ewkb
    order = "<" if ewkb[0] == 1 else ">"
    (kind,) = struct.unpack_from(order + "I", ewkb, 1)
    return ewkb[:1] + struct.pack(order + "I", kind & ~_SRID_FLAG) + ewkb[9:]


def with_srid(wkb: bytes, srid: int | None) -> bytes:
    """EWKB of a WKB with `srid` in its header (None: as plain WKB)."""
    wkb = plain_wkb(wkb)
    if srid is None:
        return wkb
    order = "<" if wkb[0] == 1 else ">"
    (kind,) = struct.unpack_from(order + "I", wkb, 1)
    return wkb[:1] + struct.pack(order + "Ii", kind | _SRID_FLAG, srid) + wkb[5:]


def value_srid(v: GeometryValue) -> int:
    """ST_SRID: a geometry's SRID (0 when none was given); a geography's is 4326."""
    if type(v) is GeographyValue:
        return GEOGRAPHY_SRID
    srid = srid_of(v.ewkb)
    return 0 if srid is None else srid


# ---------------------------------------------------------------- shapes


def shape(v: GeometryValue):
    """The shapely geometry of a value."""
    shapely = library()
    try:
        return shapely.from_wkb(plain_wkb(v.ewkb))
    except shapely.errors.GEOSException as exc:
        raise GeometryError(str(exc)) from None


def geometry(shp, srid: int | None = None) -> GeometryValue:
    """A GEOMETRY value of a shapely geometry, with `srid` (None: none written)."""
    wkb = library().to_wkb(shp, byte_order=1, output_dimension=2)
    return GeometryValue(with_srid(wkb, srid))


def geography(shp) -> GeographyValue:
    """A GEOGRAPHY value of a shapely geometry, its coordinates checked as Databend does."""
    shapely = library()
    for x, y in shapely.get_coordinates(shp):
        check_point(float(x), float(y))
    return GeographyValue(shapely.to_wkb(shp, byte_order=1, output_dimension=2))


def check_point(lon: float, lat: float) -> None:
    if not -180.0 <= lon <= 180.0:
        raise GeometryError("longitude is out of range")
    if not -90.0 <= lat <= 90.0:
        raise GeometryError("latitude is out of range")


def check_geography_srid(srid: int | None) -> None:
    if srid is not None and srid != GEOGRAPHY_SRID:
        raise GeometryError(f"SRIDs other than 4326 are not supported. Got SRID: {srid}")


# ---------------------------------------------------------------- parsing


def parse_ewkb(data: bytes) -> tuple:
    """(shapely geometry, SRID or None) of WKB / EWKB bytes."""
    shapely = library()
    try:
        srid = srid_of(data)
        shp = shapely.from_wkb(plain_wkb(data))
    except (shapely.errors.GEOSException, struct.error, ValueError) as exc:
        raise GeometryError(f"invalid WKB: {exc}") from None
    return shp, srid


def parse_ewkt(text: str) -> tuple:
    """(shapely geometry, SRID or None) of WKT or EWKT ('SRID=4326;POINT(1 2)')."""
    shapely = library()
    text = text.strip()
    srid = None
    if text[:1] in ("s", "S"):
        head, sep, rest = text.partition(";")
        name, eq, number = head.partition("=")
        if not sep or not eq or name.strip().upper() != "SRID":
            raise GeometryError("invalid srid")
        try:
            srid = int(number.strip())
        except ValueError:
            raise GeometryError("invalid srid") from None
        text = rest
    try:
        return shapely.from_wkt(text), srid
    except shapely.errors.GEOSException as exc:
        raise GeometryError(str(exc)) from None


def parse_geojson(text: str):
    """The shapely geometry of a GeoJSON geometry object."""
    shapely = library()
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or "type" not in data:
            raise ValueError("not a GeoJSON geometry")
        return shapely.geometry.shape(data)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError,
            shapely.errors.ShapelyError) as exc:
        raise GeometryError(f"invalid GeoJSON: {exc}") from None


def parse_text(text: str) -> tuple:
    """(shapely geometry, SRID or None) of any of Databend's input spellings: GeoJSON ('{'),
    hex (E)WKB ('00' / '01'), (E)WKT."""
    text = text.strip()
    if text.startswith("{"):
        return parse_geojson(text), None
    if text.startswith(("00", "01")):
        try:
            data = bytes.fromhex(text)
        except ValueError as exc:
            raise GeometryError(str(exc)) from None
        return parse_ewkb(data)
    return parse_ewkt(text)


def parse_any(v, srid: int | None = None) -> tuple:
    """(shape, SRID) of text (any spelling), bytes ((E)WKB) or a value; `srid` overrides."""
    if isinstance(v, GeometryValue):
        shp, found = shape(v), (GEOGRAPHY_SRID if type(v) is GeographyValue else srid_of(v.ewkb))
    elif isinstance(v, bytes):
        shp, found = parse_ewkb(v)
    elif isinstance(v, str):
        shp, found = parse_text(v)
    else:
        raise GeometryError(f"cannot read a geometry from {type(v).__name__}")
    return shp, (found if srid is None else srid)


def to_geometry(v, srid: int | None = None) -> GeometryValue:
    """TO_GEOMETRY / CAST(... AS GEOMETRY)."""
    if type(v) is GeometryValue and srid is None:
        return v
    shp, found = parse_any(v, srid)
    return geometry(shp, found)


def to_geography(v) -> GeographyValue:
    """TO_GEOGRAPHY / CAST(... AS GEOGRAPHY): SRID 4326 or none, coordinates in range."""
    if type(v) is GeographyValue:
        return v
    shp, found = parse_any(v)
    check_geography_srid(found)
    return geography(shp)


# ---------------------------------------------------------------- writing


def number_text(v: float) -> str:
    """A coordinate as Rust's f64 Display writes it: shortest digits, no exponent, whole
    numbers without a point."""
    if not math.isfinite(v):
        return "NaN" if v != v else ("inf" if v > 0 else "-inf")
    if v == int(v):
        return str(int(v))
    text = repr(v)
    return format(decimal.Decimal(text), "f") if "e" in text else text


def decode(wkb: bytes) -> tuple:
    """The tree of a (2-D) WKB / EWKB: (kind, payload) where a Point's payload is (x, y) or None
    (empty), a LineString's its coordinates, a Polygon's its rings, a multi kind's and a
    collection's their member trees. Read here, without GEOS, so that every value can be shown
    as Databend shows it (also rings GEOS refuses, such as a convex hull of one point)."""
    node, _ = _read(wkb, 0)
    return node


def _read(data: bytes, pos: int) -> tuple:
    order = "<" if data[pos] == 1 else ">"
    (code,) = struct.unpack_from(order + "I", data, pos + 1)
    pos += 9 if code & _SRID_FLAG else 5
    kind = _TYPE_NAMES.get(code & 0xFFFF)
    if kind is None:
        raise GeometryError(f"unsupported WKB geometry type {code}")
    if kind == "Point":
        x, y = struct.unpack_from(order + "dd", data, pos)
        return (kind, None if x != x and y != y else (x, y)), pos + 16
    (count,) = struct.unpack_from(order + "I", data, pos)
    pos += 4
    if kind == "LineString":
        return (kind, _coords(data, pos, count, order)), pos + 16 * count
    if kind == "Polygon":
        rings = []
        for _ in range(count):
            (n,) = struct.unpack_from(order + "I", data, pos)
            rings.append(_coords(data, pos + 4, n, order))
            pos += 4 + 16 * n
        return (kind, rings), pos
    parts = []
    for _ in range(count):
        part, pos = _read(data, pos)
        parts.append(part)
    return (kind, parts), pos


def _coords(data: bytes, pos: int, count: int, order: str) -> list:
    flat = struct.unpack_from(f"{order}{2 * count}d", data, pos)
    return list(zip(flat[::2], flat[1::2], strict=True))


def _pair(xy) -> str:
    return f"{number_text(xy[0])} {number_text(xy[1])}"


def _ring(coords) -> str:
    return "(" + ",".join(_pair(c) for c in coords) + ")"


def _rings(rings) -> str:
    return "(" + ",".join(_ring(r) for r in rings) + ")"


def wkt(node) -> str:
    """WKT of a decoded tree as Databend writes it: no space before brackets, none after commas."""
    kind, payload = node
    if not payload:
        return kind.upper() + " EMPTY"
    if kind == "Point":
        return "POINT(" + _pair(payload) + ")"
    if kind == "LineString":
        return "LINESTRING" + _ring(payload)
    if kind == "Polygon":
        return "POLYGON" + _rings(payload)
    if kind == "MultiPoint":
        return "MULTIPOINT(" + ",".join(_pair(p[1]) if p[1] else "EMPTY" for p in payload) + ")"
    if kind == "MultiLineString":
        return "MULTILINESTRING(" + ",".join(_ring(p[1]) if p[1] else "EMPTY" for p in payload) + ")"
    if kind == "MultiPolygon":
        return "MULTIPOLYGON(" + ",".join(_rings(p[1]) if p[1] else "EMPTY" for p in payload) + ")"
    return "GEOMETRYCOLLECTION(" + ",".join(wkt(part) for part in payload) + ")"


def _json_pair(xy) -> str:
    return "[" + number_text(xy[0]) + "," + number_text(xy[1]) + "]"


def _json_coords(node) -> str:
    kind, payload = node
    if kind == "Point":
        return _json_pair(payload) if payload else "[]"
    if kind == "LineString":
        return "[" + ",".join(_json_pair(c) for c in payload) + "]"
    if kind == "Polygon":
        return "[" + ",".join("[" + ",".join(_json_pair(c) for c in r) + "]" for r in payload) + "]"
    return "[" + ",".join(_json_coords(part) for part in payload) + "]"


def geojson(node) -> str:
    """GeoJSON of a decoded tree as Databend's geozero writer spells it:
    {"type": "Point", "coordinates": [1,2]}."""
    kind, payload = node
    if kind == "GeometryCollection":
        return '{"type": "GeometryCollection", "geometries": [' + ",".join(geojson(p) for p in payload) + "]}"
    return '{"type": "' + kind + '", "coordinates": ' + _json_coords(node) + "}"


def ewkt(node, srid: int | None) -> str:
    """EWKT: 'SRID=n;' before the WKT when a SRID other than 0 is known."""
    return (f"SRID={srid};" if srid else "") + wkt(node)


def tree(v: GeometryValue) -> tuple:
    """The decoded tree of a value."""
    try:
        return decode(v.ewkb)
    except struct.error:
        raise GeometryError("Invalid ewkb format") from None


def format_value(v: GeometryValue, fmt: str) -> str:
    """A value in one of the `geometry_output_format` spellings (text and result pages)."""
    fmt = fmt.upper()
    if not v.ewkb:
        return ""  # a column's default value: no geometry (Databend shows its bytes, none)
    is_geography = type(v) is GeographyValue
    if fmt == "WKB":
        return plain_wkb(v.ewkb).hex().upper()
    srid = GEOGRAPHY_SRID if is_geography else (srid_of(v.ewkb) or 0)
    if fmt == "EWKB":
        return with_srid(v.ewkb, srid).hex().upper()
    node = tree(v)
    if fmt == "WKT":
        return wkt(node)
    if fmt == "EWKT":
        return ewkt(node, srid)
    return geojson(node)


def type_name_of(shp) -> str:
    """The geometry type name Databend's errors use (Point, LineString...)."""
    kind = shp.geom_type
    return "LineString" if kind == "LinearRing" else kind

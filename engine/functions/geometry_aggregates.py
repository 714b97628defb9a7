"""GEOMETRY / GEOGRAPHY aggregates: ST_COLLECT, ST_UNION_AGG, ST_INTERSECTION_AGG and
ST_ENVELOPE_AGG, final functions of collected aggregates (engine.functions.collected): each
group's values are gathered, then combined as Databend's geographic aggregates combine them
(one SRID for all of a group, a SRID of 0 answered as none)."""

from __future__ import annotations

from functools import reduce

from engine.functions.geometry import GeometryError, like_first
from engine.types import geo_values as G


def result_type(types):
    return like_first(types).as_nullable(True)


def _gathered(values):
    """(shapes of the non-NULL values, the first value, their common output SRID)."""
    present = [v if isinstance(v, G.GeometryValue) else G.to_geometry(v) for v in values if v is not None]
    if not present:
        return [], None, None
    srids = {G.value_srid(v) for v in present}
    if len(srids) > 1:
        first, second = sorted(srids)[:2]
        raise GeometryError(f"Incompatible SRID: {first} and {second}")
    srid = srids.pop()
    return [G.shape(v) for v in present], present[0], (srid or None)


def _answer(shp, like, srid):
    if shp is None or shp.is_empty:
        return None
    if type(like) is G.GeographyValue:
        return G.geography(shp)
    return G.geometry(shp, srid)


def st_collect(values, _params):
    shapes, like, srid = _gathered(values)
    if not shapes:
        return None
    shapely = G.library()
    kinds = {s.geom_type for s in shapes}
    many = {"Point": shapely.MultiPoint, "LineString": shapely.MultiLineString,
            "Polygon": shapely.MultiPolygon}
    maker = many.get(kinds.pop()) if len(kinds) == 1 else None
    return _answer((maker or shapely.GeometryCollection)(shapes), like, srid)


def _overlay(method):
    def final(values, _params):
        shapes, like, srid = _gathered(values)
        if not shapes:
            return None
        return _answer(reduce(lambda a, b: getattr(a, method)(b), shapes), like, srid)
    return final


st_union_agg = _overlay("union")
st_intersection_agg = _overlay("intersection")


def st_envelope_agg(values, _params):
    shapes, like, srid = _gathered(values)
    boxes = [s.bounds for s in shapes if not s.is_empty]
    if not boxes:
        return None
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    ring = G.library().Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])
    return _answer(ring, like, srid)

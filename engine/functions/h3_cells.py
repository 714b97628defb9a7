"""The H3 functions (geo_to_h3, h3_to_geo, h3_k_ring, h3_to_parent, h3_distance, the
unidirectional edges...), as Databend answers them, through Uber's H3 binding `h3` (the optional
extra `queryhttp[geo]`, imported on the first call: without it each function is 1002 naming the
extra).

Databend computes H3 with h3o, a Rust port of H3: its average edge lengths and hexagon areas are
h3o's tables (below, more digits than the C library's), faces come sorted, a parent finer than the
cell is 0, children coarser than the cell are [], a ring through a pentagon is an error (h3o's
`grid_ring_fast`), and an invalid index is error 1006 naming it as h3o does; centres, boundaries,
cell areas and exact edge lengths are h3o's own arithmetic (engine.functions.h3_coordinates, a
port), bit for bit. Arrays that grow with an argument (k rings, children, lines) are counted before they are built and refused above
Limits.array_elements."""

from __future__ import annotations

import importlib

from engine.core.errors import BadArguments, Unimplemented
from engine.core.limits import Limits
from engine.core.memory import ALLOCATION_CHARGE_BYTES, keep, reserve
from engine.functions import h3_coordinates as G
from engine.functions.h3_tables import EARTH_RADIUS_KM
from engine.functions.registry import declare_row_costs, fixed, register
from engine.runtime.bounded import ARRAY_ELEMENT_BYTES, ARRAY_SLOT_BYTES, array_too_long
from engine.types import nested as N
from engine.types import sqltype as T

MISSING = "the H3 functions need the h3 package, the optional extra: pip install 'queryhttp[geo]'"

_loaded = []  # the h3 integer API once imported (a list, so that tests can empty it)


def _import():
    return importlib.import_module("h3.api.basic_int")


def h3_api():
    """The `h3` package's integer API, or 1002 naming the extra when it is not installed."""
    if not _loaded:
        try:
            _loaded.append(_import())
        except ImportError:
            raise Unimplemented(MISSING) from None
    return _loaded[0]


# h3o's per-resolution averages (HydroniumLabs/h3o src/resolution.rs, BSD-3-Clause), which
# Databend answers: edge length in metres and kilometres, hexagon area in m² and km²
_EDGE_M = (1281256.0107413644, 483056.8390711111, 182512.95648916735, 68979.22178775584,
           26071.75968017739, 9854.090989971206, 3724.5326671400767, 1406.4757626435987,
           531.4140100625567, 200.78614761193546, 75.86378286883358, 28.66389748307224,
           10.830187842605124, 4.092010473292413, 1.546099657446663, 0.5841686296646657)
_EDGE_KM = (1281.2560107413644, 483.0568390711111, 182.51295648916735, 68.97922178775585,
            26.07175968017739, 9.854090989971207, 3.7245326671400765, 1.4064757626435986,
            0.5314140100625567, 0.20078614761193547, 0.07586378286883358, 0.02866389748307224,
            0.010830187842605124, 0.004092010473292413, 0.001546099657446663, 0.0005841686296646656)
_AREA_M2 = (4.35744941607839e12, 6.097884417941339e11, 8.680178039899731e10, 1.239343465508818e10,
            1.770347654491309e9, 2.529038581819452e8, 3.61290621644125e7, 5.161293359717198e6,
            7.373275975944188e5, 1.053325134272069e5, 1.504750190766437e4, 2.149643129451882e3,
            3.070918756316063e2, 4.387026794728301e1, 6.267181135324322, 8.953115907605802e-1)
_AREA_KM2 = (4.357449416078383e6, 6.097884417941332e5, 8.68017803989972e4, 1.239343465508816e4,
             1.770347654491307e3, 2.529038581819449e2, 3.612906216441245e1, 5.161293359717191,
             7.373275975944177e-1, 1.053325134272067e-1, 1.504750190766435e-2, 2.149643129451879e-3,
             3.07091875631606e-4, 4.387026794728296e-5, 6.267181135324313e-6, 8.95311590760579e-7)
# degrees per metre on H3's sphere (180 / pi / earth radius), as Databend's h3_edge_angle
_DEGREES_PER_METRE = 8.99320592271288e-6

_COORD = T.SqlType("Tuple", args=(T.FLOAT64, T.FLOAT64))
_CELLS = N.array_type(T.UINT64)


def _error(name, reason, *args):
    shown = ", ".join(repr(a) if isinstance(a, str) else str(a) for a in args)
    return BadArguments(f"{reason} while evaluating function `{name}({shown})`")


def _cell(name, h, *args):
    """`h` checked to be an H3 cell index."""
    if not h3_api().is_valid_cell(h):
        reason = "invalid index mode" if (h >> 59) & 0xF != 1 else "invalid cell index"
        raise _error(name, f"invalid cell index (got Some({h})): {reason}", *args)
    return h


def _edge(name, h):
    """`h` checked to be an H3 directed edge index."""
    if not h3_api().is_valid_directed_edge(h):
        raise _error(name, f"invalid directed edge index (got Some({h})): invalid index mode", h)
    return h


def _resolution(name, r, *args):
    if not 0 <= r <= 15:
        raise _error(name, f"invalid resolution (got Some({r})): out of range", *args)
    return r


def _by_resolution(name, table):
    return lambda r: table[_resolution(name, r, r)]


def _cells_array(name, count, max_elements, build):
    """The array of `count` cells `build()` makes, refused above the limit before it is built."""
    if count > max_elements:
        raise array_too_long(name, count, max_elements)
    if count * ARRAY_SLOT_BYTES >= ALLOCATION_CHARGE_BYTES:
        reserve(count * ARRAY_ELEMENT_BYTES)
        return keep(N.ArrayValue(build()))
    return N.ArrayValue(build())


def _latlng_pairs(points, lng_first=True):
    return N.ArrayValue(N.TupleValue((lng, lat) if lng_first else (lat, lng)) for lat, lng in points)


def geo_to_h3(lon, lat, r):
    _resolution("geo_to_h3", r, lon, lat, r)
    return h3_api().latlng_to_cell(lat, lon, r)


def h3_to_geo(h):
    lat, lng = G.degrees(G.cell_center(_cell("h3_to_geo", h, h)))
    return N.TupleValue((lng, lat))


def h3_to_geo_boundary(h):
    return _latlng_pairs(G.degrees(p) for p in G.cell_boundary(_cell("h3_to_geo_boundary", h, h)))


def _edge_boundary(api, e):
    return _latlng_pairs((G.degrees(p) for p in G.edge_boundary(e)), lng_first=False)


def make_k_ring(limits: Limits):
    max_elements = limits.array_elements

    def h3_k_ring(h, k):
        _cell("h3_k_ring", h, h, k)
        return _cells_array("h3_k_ring", 3 * k * (k + 1) + 1, max_elements, lambda: h3_api().grid_disk(h, k))

    return h3_k_ring


def make_hex_ring(limits: Limits):
    max_elements = limits.array_elements

    def h3_hex_ring(h, k):
        _cell("h3_hex_ring", h, h, k)
        count = 6 * k if k else 1
        if count > max_elements:
            raise array_too_long("h3_hex_ring", count, max_elements)
        api = h3_api()
        # h3o's grid_ring_fast fails where a pentagon distorts the rings up to k
        if any(api.is_pentagon(c) for c in api.grid_disk(h, k)):
            raise _error("h3_hex_ring", "a pentagon (or a pentagon distortion) is encountered", h, k)
        return _cells_array("h3_hex_ring", count, max_elements, lambda: api.grid_ring(h, k))

    return h3_hex_ring


def make_children(limits: Limits):
    max_elements = limits.array_elements

    def h3_to_children(h, r):
        _cell("h3_to_children", h, h, r)
        _resolution("h3_to_children", r, h, r)
        api = h3_api()
        if r < api.get_resolution(h):
            return N.ArrayValue()
        return _cells_array("h3_to_children", api.cell_to_children_size(h, r), max_elements,
                            lambda: sorted(api.cell_to_children(h, r)))

    return h3_to_children


def make_line(limits: Limits):
    max_elements = limits.array_elements

    def h3_line(a, b):
        _cell("h3_line", a, a, b)
        _cell("h3_line", b, a, b)
        api = h3_api()
        try:
            count = api.grid_distance(a, b) + 1
            return _cells_array("h3_line", count, max_elements, lambda: api.grid_path_cells(a, b))
        except (ValueError, RuntimeError) as e:  # h3's errors are ValueError subclasses
            if isinstance(e, BadArguments):
                raise
            raise _error("h3_line", "local IJ coordinates overflow/underflow", a, b) from None

    return h3_line


def h3_distance(a, b):
    _cell("h3_distance", a, a, b)
    _cell("h3_distance", b, a, b)
    try:
        return h3_api().grid_distance(a, b)
    except ValueError:
        raise _error("h3_distance", "local IJ coordinates overflow/underflow", a, b) from None


def h3_to_parent(h, r):
    _cell("h3_to_parent", h, h, r)
    _resolution("h3_to_parent", r, h, r)
    api = h3_api()
    return 0 if r > api.get_resolution(h) else api.cell_to_parent(h, r)


def h3_to_center_child(h, r):
    _cell("h3_to_center_child", h, h, r)
    _resolution("h3_to_center_child", r, h, r)
    api = h3_api()
    return 0 if r < api.get_resolution(h) else api.cell_to_center_child(h, r)


def h3_indexes_are_neighbors(a, b):
    _cell("h3_indexes_are_neighbors", a, a, b)
    _cell("h3_indexes_are_neighbors", b, a, b)
    api = h3_api()
    return api.get_resolution(a) == api.get_resolution(b) and api.are_neighbor_cells(a, b)


def string_to_h3(s):
    try:
        h = int(s, 16) if s and all(c in "0123456789abcdefABCDEF" for c in s) else None
    except ValueError:
        h = None
    if h is None or h >= 1 << 64:
        raise _error("string_to_h3", "invalid cell index (got None): invalid 64-bit hex number", s)
    return _cell("string_to_h3", h, s)


def h3_get_unidirectional_edge(a, b):
    _cell("h3_get_unidirectional_edge", a, a, b)
    _cell("h3_get_unidirectional_edge", b, a, b)
    api = h3_api()
    if api.get_resolution(a) != api.get_resolution(b) or not api.are_neighbor_cells(a, b):
        return 0
    return api.cells_to_directed_edge(a, b)


def _edge_length(unit):
    """h3o's length_rads, length_km (× the earth's radius) and length_m (× 1000 more)."""
    name = "h3_exact_edge_length_" + unit

    def length(e):
        rads = G.path_length_rads(G.edge_boundary(_edge(name, e)))
        if unit == "rads":
            return rads
        km = rads * EARTH_RADIUS_KM
        return km if unit == "km" else km * 1000.0

    return length


def _cell_area(unit):
    """h3o's area_rads2 and area_m2 (× the earth's radius twice, then 1000 twice)."""
    name = "h3_cell_area_" + unit

    def area(h):
        rads2 = G.cell_area_rads2(_cell(name, h, h))
        return rads2 if unit == "rads2" else rads2 * EARTH_RADIUS_KM * EARTH_RADIUS_KM * 1000.0 * 1000.0

    return area


def _cell_fn(name, call):
    return lambda h: call(h3_api(), _cell(name, h, h))


def _edge_fn(name, call):
    return lambda e: call(h3_api(), _edge(name, e))


_U64 = fixed(T.UINT64)
_F64 = fixed(T.FLOAT64)
_BOOL = fixed(T.BOOLEAN)
_U8 = fixed(T.UINT8)

register("geo_to_h3", geo_to_h3, _U64, 3)
register("h3_to_geo", h3_to_geo, fixed(_COORD), 1)
register("h3_to_geo_boundary", h3_to_geo_boundary, fixed(N.array_type(_COORD)), 1)
register("h3_k_ring", make_k_ring, fixed(_CELLS), 2, bounded=True)
register("h3_hex_ring", make_hex_ring, fixed(_CELLS), 2, bounded=True)
register("h3_to_children", make_children, fixed(_CELLS), 2, bounded=True)
register("h3_line", make_line, fixed(_CELLS), 2, bounded=True)
register("h3_is_valid", lambda h: h3_api().is_valid_cell(h), _BOOL, 1)
register("h3_get_resolution", _cell_fn("h3_get_resolution", lambda api, h: api.get_resolution(h)), _U8, 1)
register("h3_get_base_cell", _cell_fn("h3_get_base_cell", lambda api, h: api.get_base_cell_number(h)), _U8, 1)
register("h3_is_res_class_iii", _cell_fn("h3_is_res_class_iii", lambda api, h: api.is_res_class_III(h)), _BOOL, 1)
register("h3_is_pentagon", _cell_fn("h3_is_pentagon", lambda api, h: api.is_pentagon(h)), _BOOL, 1)
register("h3_get_faces", _cell_fn("h3_get_faces", lambda api, h: N.ArrayValue(sorted(api.get_icosahedron_faces(h)))),
         fixed(N.array_type(T.UINT8)), 1)
register("h3_cell_area_m2", _cell_area("m2"), _F64, 1)
register("h3_cell_area_rads2", _cell_area("rads2"), _F64, 1)
register("h3_to_string", _cell_fn("h3_to_string", lambda api, h: format(h, "x")), fixed(T.STRING), 1)
register("string_to_h3", string_to_h3, _U64, 1)
register("h3_edge_length_m", _by_resolution("h3_edge_length_m", _EDGE_M), _F64, 1)
register("h3_edge_length_km", _by_resolution("h3_edge_length_km", _EDGE_KM), _F64, 1)
register("h3_hex_area_m2", _by_resolution("h3_hex_area_m2", _AREA_M2), _F64, 1)
register("h3_hex_area_km2", _by_resolution("h3_hex_area_km2", _AREA_KM2), _F64, 1)
register("h3_edge_angle", lambda r: _DEGREES_PER_METRE * _EDGE_M[_resolution("h3_edge_angle", r, r)], _F64, 1)
register("h3_num_hexagons", lambda r: 2 + 120 * 7 ** _resolution("h3_num_hexagons", r, r), _U64, 1)
register("h3_indexes_are_neighbors", h3_indexes_are_neighbors, _BOOL, 2)
register("h3_to_parent", h3_to_parent, _U64, 2)
register("h3_to_center_child", h3_to_center_child, _U64, 2)
register("h3_distance", h3_distance, fixed(T.INT32), 2)
register("h3_get_unidirectional_edge", h3_get_unidirectional_edge, _U64, 2)
register("h3_exact_edge_length_m", _edge_length("m"), _F64, 1)
register("h3_exact_edge_length_km", _edge_length("km"), _F64, 1)
register("h3_exact_edge_length_rads", _edge_length("rads"), _F64, 1)
register("h3_unidirectional_edge_is_valid", lambda e: h3_api().is_valid_directed_edge(e), _BOOL, 1)
register("h3_get_origin_index_from_unidirectional_edge",
         _edge_fn("h3_get_origin_index_from_unidirectional_edge", lambda api, e: api.get_directed_edge_origin(e)),
         _U64, 1)
register("h3_get_destination_index_from_unidirectional_edge",
         _edge_fn("h3_get_destination_index_from_unidirectional_edge",
                  lambda api, e: api.get_directed_edge_destination(e)), _U64, 1)
register("h3_get_indexes_from_unidirectional_edge",
         _edge_fn("h3_get_indexes_from_unidirectional_edge",
                  lambda api, e: N.TupleValue(api.directed_edge_to_cells(e))),
         fixed(T.SqlType("Tuple", args=(T.UINT64, T.UINT64))), 1)
register("h3_get_unidirectional_edges_from_hexagon",
         _cell_fn("h3_get_unidirectional_edges_from_hexagon",
                  lambda api, h: N.ArrayValue(api.origin_to_directed_edges(h))), fixed(_CELLS), 1)
register("h3_get_unidirectional_edge_boundary",
         _edge_fn("h3_get_unidirectional_edge_boundary",
                  _edge_boundary),
         fixed(N.array_type(_COORD)), 1)

# microseconds a call costs (CPU time measured over 2,000 cells of resolution 9): the exact
# geometry of the pure-Python h3o port walks a cell's boundary; a step over them takes fewer rows
# (engine.core.steps.rows_for_cost). Rings, children and lines grow with their size argument.
declare_row_costs({
    "h3_to_geo": 15, "h3_to_geo_boundary": 45, "h3_k_ring": 8, "h3_hex_ring": 8, "h3_to_children": 10,
    "h3_line": 10, "h3_cell_area_m2": 60, "h3_cell_area_rads2": 60, "h3_exact_edge_length_m": 30,
    "h3_exact_edge_length_km": 30, "h3_exact_edge_length_rads": 30, "h3_get_unidirectional_edge_boundary": 30,
    "h3_get_unidirectional_edges_from_hexagon": 3,
})

"""Cell centres, boundaries, areas and edge lengths as Databend's H3 library (h3o 0.9) computes
them, to the last bit: a port of h3o's FaceIJK arithmetic (src/coord/faceijk.rs, ijk.rs, vec2d.rs,
latlng.rs, src/index/cell.rs, edge.rs and triangle.rs, BSD-3-Clause) in the same order of
floating-point operations, with libm's fma where Rust calls mul_add.

A cell's index gives its face and (i, j, k) coordinates on that face's hex grid; its vertices are
points of the aperture-3 substrate grid around it; where an edge of a Class III cell crosses an
edge of the icosahedron, an extra (distortion) vertex is put at the crossing. Points are
(lat, lng) in radians; `degrees` converts as Rust's to_degrees does."""

from __future__ import annotations

import ctypes
import ctypes.util
import math

from engine.functions.h3_tables import (
    AP7_ROT_RADS,
    BASE_CELL_HOMES,
    BASE_CELL_ROTATIONS,
    CENTRAL,
    DEGREES,
    EPSILON,
    F32_EPSILON,
    FACE_AXES_AZIMUTHS,
    FACE_CENTERS,
    FACE_NEIGHBORS,
    IJ,
    INV_SQRT7_POWERS,
    JK,
    KI,
    MAX_DIM_BY_CII_RES,
    ONE_THIRD,
    PENTAGON_BASE_CELLS,
    PENTAGON_DIRECTION_FACES,
    RES0_U_GNOMONIC,
    SQRT3_2,
    TWO_PI,
    UNIT_SCALE_BY_CII_RES,
    VERTICES_CII,
    VERTICES_CIII,
)


def _libm():
    """Rust's mul_add and hypot: Python's math.fma (3.13+; an exact fused multiply-add, as any)
    or else the C library's through ctypes (slower: about a microsecond a call); libm's hypot
    (CPython's math.hypot is its own algorithm)."""
    name = ctypes.util.find_library("m")
    try:
        lib = ctypes.CDLL(name)
        lib.fma.restype = lib.hypot.restype = ctypes.c_double
        lib.fma.argtypes = [ctypes.c_double] * 3
        lib.hypot.argtypes = [ctypes.c_double] * 2
        return getattr(math, "fma", lib.fma), lib.hypot
    except (OSError, AttributeError, TypeError):  # no C math library: the unfused forms
        return (getattr(math, "fma", None) or (lambda a, b, c: a * b + c)), math.hypot


_fma, _hypot = _libm()

# overage outcomes of _adjust_overage
_NO_OVERAGE, _FACE_EDGE, _NEW_FACE = 0, 1, 2
_JK_AXIS, _I_AXIS, _IK_AXIS = 3, 4, 5  # direction digits
_POLAR_PENTAGONS = (4, 117)
_PENTAGONS_IN_ORDER = sorted(PENTAGON_BASE_CELLS)
# the vertex where the edge in each direction starts (K to IJ for a hexagon, J to IJ for a pentagon)
_TO_VERTEX_HEXAGON = (3, 1, 2, 5, 4, 0)
_TO_VERTEX_PENTAGON = (1, 2, 4, 3, 0)
_ROTATE_CW_ONCE = (0, 3, 6, 2, 5, 1, 4)  # a direction digit turned 60 degrees clockwise


# --- (i, j, k) coordinates on a face's hex grid, as h3o's CoordIJK ------------------------------

def _normalize(i, j, k):
    low = min(i, j, k)
    return i - low, j - low, k - low


def _combine(c, i_vec, j_vec, k_vec):
    """i * i_vec + j * j_vec + k * k_vec, normalized."""
    i, j, k = c
    return _normalize(i * i_vec[0] + j * j_vec[0] + k * k_vec[0], i * i_vec[1] + j * j_vec[1] + k * k_vec[1],
                      i * i_vec[2] + j * j_vec[2] + k * k_vec[2])


def _down_aperture7(c, ccw):
    return _combine(c, (3, 0, 1), (1, 3, 0), (0, 1, 3)) if ccw else _combine(c, (3, 1, 0), (0, 3, 1), (1, 0, 3))


def _down_aperture3(c, ccw):
    return _combine(c, (2, 0, 1), (1, 2, 0), (0, 1, 2)) if ccw else _combine(c, (2, 1, 0), (0, 2, 1), (1, 0, 2))


def _rotate60(c, ccw):
    return _combine(c, (1, 1, 0), (0, 1, 1), (1, 0, 1)) if ccw else _combine(c, (1, 0, 1), (1, 1, 0), (0, 1, 1))


def _round_half_away(x):
    """Rust's f64::round (Python's round() rounds half to even)."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def _up_aperture7_cw(c):
    i, j = c[0] - c[2], c[1] - c[2]
    return _normalize(_round_half_away((2 * i + j) / 7.0), _round_half_away((3 * j - i) / 7.0), 0)


def _add(a, b):
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _vec2d(c):
    """The centre of hex `c` in the face's cartesian plane (h3o's Vec2d::from(CoordIJK))."""
    i, j = float(c[0] - c[2]), float(c[1] - c[2])
    # mul_add(0.5, -j, i): halving an integer is exact, so the unfused sum rounds once as well
    return 0.5 * -j + i, j * SQRT3_2


# --- a cell's face and coordinates (h3o's From<CellIndex> for FaceIJK) -------------------------

def _digit(bits, resolution):
    return (bits >> ((15 - resolution) * 3)) & 7


def _first_axis(bits, resolution):
    """The first non-zero direction digit, or 0."""
    return next((d for d in (_digit(bits, r) for r in range(1, resolution + 1)) if d), 0)


def _rotated_cw(bits, resolution):
    for r in range(1, resolution + 1):
        shift = (15 - r) * 3
        bits = (bits & ~(7 << shift)) | (_ROTATE_CW_ONCE[(bits >> shift) & 7] << shift)
    return bits


def _onto_neighbor(orientation, coord, scale):
    """(face, coord): `coord` in the coordinates of the neighbouring face `orientation` describes
    (a FACE_NEIGHBORS entry), `scale` grid units a unit of its translation."""
    face, translate, ccw_rot60 = orientation
    for _ in range(ccw_rot60):
        coord = _rotate60(coord, True)
    return face, _normalize(*_add(coord, (translate[0] * scale, translate[1] * scale, translate[2] * scale)))


def _adjust_overage(face, coord, class2_res, is_pent4, substrate):
    """(face, coord, overage): `coord` moved to the neighbouring face when it lies beyond its own."""
    factor = 3 if substrate else 1
    max_dim = MAX_DIM_BY_CII_RES[class2_res] * factor
    dimension = sum(coord)
    if substrate and dimension == max_dim:
        return face, coord, _FACE_EDGE
    if dimension <= max_dim:
        return face, coord, _NO_OVERAGE
    if coord[2] > 0:
        if coord[1] > 0:
            quadrant = JK
        else:
            if is_pent4:  # rotate around the pentagon's centre for the missing sequence
                origin = (max_dim, 0, 0)
                coord = _add(_rotate60((coord[0] - max_dim, coord[1], coord[2]), False), origin)
            quadrant = KI
    else:
        quadrant = IJ
    face, coord = _onto_neighbor(FACE_NEIGHBORS[face][quadrant], coord, UNIT_SCALE_BY_CII_RES[class2_res] * factor)
    if substrate and sum(coord) == max_dim:
        return face, coord, _FACE_EDGE
    return face, coord, _NEW_FACE


def face_ijk(cell):
    """(face, (i, j, k)) of the cell's centre on the grid of its resolution."""
    bits = cell
    base_cell = (bits >> 45) & 0x7F
    resolution = (bits >> 52) & 0xF
    pentagon = base_cell in PENTAGON_BASE_CELLS
    if pentagon and _first_axis(bits, resolution) == _IK_AXIS:
        bits = _rotated_cw(bits, resolution)
    face, coord = BASE_CELL_HOMES[base_cell]
    for r in range(1, resolution + 1):
        coord = _down_aperture7(coord, r % 2 == 1)  # Class III turns counterclockwise
        d = _digit(bits, r)
        coord = _normalize(coord[0] + (d >> 2 & 1), coord[1] + (d >> 1 & 1), coord[2] + (d & 1))
    if not pentagon and resolution == 0 and coord == (0, 0, 0):
        return face, coord
    original = coord
    class2_res = resolution
    if resolution % 2:  # Class III: into the next finer Class II grid
        coord = _down_aperture7(coord, False)
        class2_res += 1
    is_pent4 = pentagon and _first_axis(bits, resolution) == _I_AXIS
    face, coord, overage = _adjust_overage(face, coord, class2_res, is_pent4, False)
    if overage != _NO_OVERAGE:
        if pentagon:  # secondary overages
            while overage != _NO_OVERAGE:
                face, coord, overage = _adjust_overage(face, coord, class2_res, False, False)
        if class2_res != resolution:
            coord = _up_aperture7_cw(coord)
    elif class2_res != resolution:
        coord = original
    return face, coord


# --- from the plane back to the sphere ----------------------------------------------------------

def _positive(angle):
    if angle < 0.0:
        return angle + TWO_PI
    return angle - TWO_PI if angle >= TWO_PI else angle


def _coord_at(lat0, lng0, azimuth, distance):
    """h3o's LatLng::coord_at: the point at `distance` along `azimuth` from (lat0, lng0) (each sine
    and cosine computed once: the same values as h3o's repeated calls)."""
    if distance < EPSILON:
        return lat0, lng0
    azimuth = _positive(azimuth)
    north_south = abs(azimuth) <= EPSILON or abs(azimuth - math.pi) <= EPSILON
    sin_lat0, cos_lat0 = math.sin(lat0), math.cos(lat0)
    sin_distance, cos_distance = math.sin(distance), math.cos(distance)
    if north_south:
        lat = lat0 + distance if abs(azimuth) <= EPSILON else lat0 - distance
    else:
        lat = math.asin(max(-1.0, min(1.0, _fma(sin_lat0, cos_distance,
                                                  cos_lat0 * sin_distance * math.cos(azimuth)))))
    if abs(lat - math.pi / 2) <= EPSILON:
        return math.pi / 2, 0.0
    if abs(lat + math.pi / 2) <= EPSILON:
        return -math.pi / 2, 0.0
    lng = lng0
    if not north_south:
        cos_lat = math.cos(lat)
        sin_lng = max(-1.0, min(1.0, math.sin(azimuth) * sin_distance / cos_lat))
        cos_lng = _fma(sin_lat0, math.sin(-lat), cos_distance) / cos_lat0 / cos_lat
        lng = lng0 + math.atan2(sin_lng, cos_lng)
    while lng > math.pi:
        lng -= TWO_PI
    while lng < -math.pi:
        lng += TWO_PI
    return lat, lng


def _unit_scaled(r, resolution, substrate):
    """A distance on the grid of `resolution` (a substrate grid has 3 units a hex) in units of
    resolution 0. h3o multiplies by the inverses (0.4, in Databend 1.2, divided by 7^(res/2) and 3)."""
    r *= INV_SQRT7_POWERS[resolution]
    if substrate:
        r *= ONE_THIRD
    return r


def _to_latlng(point, face, resolution, substrate):
    """h3o's Vec2d::to_latlng: a point of the face's plane back to (lat, lng) in radians."""
    x, y = point
    r = _hypot(x, y)
    if r < EPSILON:
        return FACE_CENTERS[face]
    r = math.atan(_unit_scaled(r, resolution, substrate) * RES0_U_GNOMONIC)
    theta = math.atan2(y, x)
    if not substrate and resolution % 2:
        theta = _positive(theta + AP7_ROT_RADS)
    return _coord_at(*FACE_CENTERS[face], _positive(FACE_AXES_AZIMUTHS[face] - theta), r)


def degrees(point):
    """(lat, lng) in degrees, as h3o's LatLng::lat() and lng() give them."""
    return point[0] * DEGREES, point[1] * DEGREES


def is_pentagon(cell):
    resolution = (cell >> 52) & 0xF
    return (cell >> 45) & 0x7F in PENTAGON_BASE_CELLS and not _first_axis(cell, resolution)


def cell_center(cell, at=None):
    """(lat, lng) in radians of the centre of `cell` (`at`: its face_ijk when known)."""
    face, coord = at or face_ijk(cell)
    return _to_latlng(_vec2d(coord), face, (cell >> 52) & 0xF, False)


# --- boundaries -----------------------------------------------------------------------------------

def _substrate_vertices(face, coord, resolution, count):
    """The cell's centre and its `count` vertices on the substrate grid, and that grid's resolution."""
    coord = _down_aperture3(_down_aperture3(coord, True), False)
    if resolution % 2:  # Class III: a clockwise aperture 7 down to the next Class II
        coord = _down_aperture7(coord, False)
        offsets, resolution = VERTICES_CIII, resolution + 1
    else:
        offsets = VERTICES_CII
    return [_normalize(*_add(coord, offsets[v])) for v in range(count)], resolution


def _adjacent_quadrant(face, other):
    """Which quadrant of `face` (IJ, KI, JK; CENTRAL for the face itself) `other` lies in."""
    for quadrant in (CENTRAL, IJ, KI, JK):
        if FACE_NEIGHBORS[face][quadrant][0] == other:
            return quadrant
    raise AssertionError(f"faces {face} and {other} are not adjacent")


def _face_edge(quadrant, resolution):
    """The ends of the face's edge towards `quadrant`, in substrate units."""
    max_dim = float(MAX_DIM_BY_CII_RES[resolution])
    v0 = (3.0 * max_dim, 0.0)
    v1 = (-1.5 * max_dim, 3.0 * SQRT3_2 * max_dim)
    v2 = (-1.5 * max_dim, -3.0 * SQRT3_2 * max_dim)
    return {IJ: (v0, v1), JK: (v1, v2), KI: (v2, v0)}[quadrant]


def _intersection(a0, a1, b0, b1):
    """h3o's Vec2d::intersection of the lines (a0, a1) and (b0, b1)."""
    s1x, s1y = a1[0] - a0[0], a1[1] - a0[1]
    s2x, s2y = b1[0] - b0[0], b1[1] - b0[1]
    t = _fma(s2x, a0[1] - b0[1], -s2y * (a0[0] - b0[0])) / _fma(-s2x, s1y, s1x * s2y)
    return _fma(t, s1x, a0[0]), _fma(t, s1y, a0[1])


def _same_point(a, b):
    return abs(a[0] - b[0]) <= F32_EPSILON and abs(a[1] - b[1]) <= F32_EPSILON


def _hexagon_boundary(face, coord, resolution, start, length):
    """h3o's FaceIJK::hexagon_boundary: `length` vertices from `start`, each on its own face,
    and where a Class III edge crosses to another face, the crossing (unless it is a vertex)."""
    vertices, substrate_res = _substrate_vertices(face, coord, resolution, 6)
    boundary = []
    last_face, last_overage = None, _NO_OVERAGE
    # a whole loop checks the last edge for a crossing too
    for vert in range(start, start + length + (length == 6)):
        v = vert % 6
        v_face, v_coord, overage = _adjust_overage(face, vertices[v], substrate_res, False, True)
        if resolution % 2 and vert > start and v_face != last_face and last_overage != _FACE_EDGE:
            # the edge crosses the icosahedron's edge: a vertex where it does (on the centre's face)
            orig0, orig1 = _vec2d(vertices[(v + 5) % 6]), _vec2d(vertices[v])
            other = v_face if last_face == face else last_face
            crossing = _intersection(orig0, orig1, *_face_edge(_adjacent_quadrant(face, other), substrate_res))
            if not (_same_point(orig0, crossing) or _same_point(orig1, crossing)):
                boundary.append(_to_latlng(crossing, face, substrate_res, True))
        if vert < start + 6:
            boundary.append(_to_latlng(_vec2d(v_coord), v_face, substrate_res, True))
        last_face, last_overage = v_face, overage
    return boundary


def _pentagon_vertex(face, coord, substrate_res):
    """A pentagon's vertex moved onto the face it lies on (a pentagon can overflow twice)."""
    overage = _NEW_FACE
    while overage == _NEW_FACE:
        face, coord, overage = _adjust_overage(face, coord, substrate_res, False, True)
    return face, coord


def _pentagon_boundary(face, coord, resolution, start, length):
    """h3o's FaceIJK::pentagon_boundary: as a hexagon's, but every vertex is moved across faces
    until it is on one, and every Class III edge gets its crossing."""
    vertices, substrate_res = _substrate_vertices(face, coord, resolution, 5)
    boundary = []
    last_face, last_coord = 0, (0, 0, 0)  # read from the second vertex on
    for vert in range(start, start + length + (length == 5)):
        v_face, v_coord = _pentagon_vertex(face, vertices[vert % 5], substrate_res)
        if resolution % 2 and vert > start:
            # every Class III pentagon edge crosses an icosahedron edge: the last vertex and this one
            # in the last vertex's face, then the crossing of the edge between the two faces
            tmp_face, tmp_coord = _onto_neighbor(FACE_NEIGHBORS[v_face][_adjacent_quadrant(v_face, last_face)],
                                                 v_coord, UNIT_SCALE_BY_CII_RES[substrate_res] * 3)
            edge = _face_edge(_adjacent_quadrant(tmp_face, v_face), substrate_res)
            crossing = _intersection(_vec2d(last_coord), _vec2d(tmp_coord), *edge)
            boundary.append(_to_latlng(crossing, tmp_face, substrate_res, True))
        if vert < start + 5:
            boundary.append(_to_latlng(_vec2d(v_coord), v_face, substrate_res, True))
        last_face, last_coord = v_face, v_coord
    return boundary


def cell_boundary(cell, start=0, length=None, at=None):
    """The vertices ((lat, lng) in radians) of `cell` from topological vertex `start`: `length` of
    them (all by default), with the distortion vertices between them (`at`: its face_ijk when known)."""
    face, coord = at or face_ijk(cell)
    resolution = (cell >> 52) & 0xF
    if is_pentagon(cell):
        return _pentagon_boundary(face, coord, resolution, start, 5 if length is None else length)
    return _hexagon_boundary(face, coord, resolution, start, 6 if length is None else length)


def _vertex_rotations(cell, face):
    """h3o's CellIndex::vertex_rotations: how many 60-degree counterclockwise turns the cell's
    vertex numbers are from the directions of its neighbours, on `face` (the cell's)."""
    base_cell = (cell >> 45) & 0x7F
    rotations = BASE_CELL_ROTATIONS[base_cell][face]
    if base_cell in PENTAGON_BASE_CELLS:
        leading = _first_axis(cell, (cell >> 52) & 0xF)
        direction_faces = PENTAGON_DIRECTION_FACES[_PENTAGONS_IN_ORDER.index(base_cell)]
        ik_face, jk_face = direction_faces[_IK_AXIS - 2], direction_faces[_JK_AXIS - 2]
        if face != BASE_CELL_HOMES[base_cell][0] and (base_cell in _POLAR_PENTAGONS or face == ik_face):
            rotations = (rotations + 1) % 6
        if leading == _JK_AXIS and face == ik_face:  # crosses a deleted subsequence from JK to IK
            rotations = (rotations + 5) % 6
        elif leading == _IK_AXIS and face == jk_face:  # and from IK to JK
            rotations = (rotations + 1) % 6
    return rotations


def edge_boundary(edge):
    """The vertices ((lat, lng) in radians) of a directed edge: its origin's boundary from the
    vertex where the edge starts, 2 vertices and the distortion vertex between them if any."""
    direction = (edge >> 56) & 7
    origin = (edge & ~(0xF << 59) & ~(7 << 56)) | (1 << 59)  # the cell: index mode 1, no edge
    at = face_ijk(origin)
    rotations = _vertex_rotations(origin, at[0])
    if is_pentagon(origin):
        start = (_TO_VERTEX_PENTAGON[direction - 2] + 5 - rotations) % 5
    else:
        start = (_TO_VERTEX_HEXAGON[direction - 1] + 6 - rotations) % 6
    return cell_boundary(origin, start, 2, at)


# --- measures -------------------------------------------------------------------------------------

def distance_rads(a, b):
    """h3o's LatLng::distance_rads (haversine)."""
    sin_lat = math.sin((b[0] - a[0]) / 2.0)
    sin_lng = math.sin((b[1] - a[1]) / 2.0)
    h = _fma(sin_lat, sin_lat, math.cos(a[0]) * math.cos(b[0]) * sin_lng * sin_lng)
    return 2.0 * math.atan2(math.sqrt(h), math.sqrt(1.0 - h))


def _area_from_sides(side_a, side_b, side_c):
    """h3o's Triangle::area from its sides' lengths: l'Huilier's theorem."""
    s = (side_a + side_b + side_c) / 2.0
    side_a, side_b, side_c = (s - side_a) / 2.0, (s - side_b) / 2.0, (s - side_c) / 2.0
    s /= 2.0
    return 4.0 * math.atan(math.sqrt(math.tan(s) * math.tan(side_a) * math.tan(side_b) * math.tan(side_c)))


def cell_area_rads2(cell):
    """The area of `cell` on the unit sphere: the triangles (vertex i, vertex i + 1, centre), summed
    in order (a plain loop: Python 3.12's sum() compensates, Rust's does not). Each distance from
    the centre serves two triangles: the haversine gives the same bits both ways round."""
    at = face_ijk(cell)
    center = cell_center(cell, at)
    boundary = cell_boundary(cell, at=at)
    count = len(boundary)
    to_center = [distance_rads(vertex, center) for vertex in boundary]
    total = 0.0
    for i, vertex in enumerate(boundary):
        j = (i + 1) % count
        total += _area_from_sides(distance_rads(vertex, boundary[j]), to_center[j], to_center[i])
    return total


def path_length_rads(points):
    """The length of the path through `points` on the unit sphere, as h3o's length_rads sums it."""
    total = 0.0
    for i in range(len(points) - 1):
        total += distance_rads(points[i], points[i + 1])
    return total

"""Cell centres and boundary vertices in degrees as Databend's H3 library (h3o 0.9) computes
them, to the last bit: the C library (the `h3` package) finds the point, which is then placed
on its icosahedron face's hex grid (a centre on the cell's grid, a vertex on the aperture-3
substrate grid), where every such point has integer coordinates, and projected back with h3o's
floating-point steps (libm's fma and hypot, as Rust calls them).

A boundary whose edges cross an icosahedron edge has extra vertices that are not grid points:
those cells keep the C library's answer, which may differ from Databend's in the last digit."""

from __future__ import annotations

import ctypes
import ctypes.util
import math

# h3o's constants (HydroniumLabs/h3o src/coord/mod.rs and src/face.rs, BSD-3-Clause)
_EPSILON = 1e-16
_RES0_U_GNOMONIC = 0.381966011250105
_AP7_ROT_RADS = 0.3334731722518321
_SQRT3_2 = 0.8660254037844386
_ONE_THIRD = 0.3333333333333333
_TWO_PI = 6.283185307179586
_DEGREES = 57.29577951308232  # Rust's to_degrees multiplies (CPython's math.degrees divides)
_INV_SQRT7_POWERS = (
    1.0, 0.3779644730092272, 0.14285714285714285, 0.05399492471560388, 0.02040816326530612,
    0.007713560673657697, 0.002915451895043731, 0.0011019372390939565, 0.0004164931278633901,
    0.00015741960558485093, 0.00005949901826619858, 0.00002248851508355013, 0.000008499859752314082,
    0.000003212645011935733, 0.0000012142656789020115, 0.0000004589492874193903, 0.00000017346652555743034)
# each face's centre (lat, lng in radians) and the azimuth of its Class II i-axis
_FACE_CENTERS = (
    (0.80358264971899, 1.2483974196173961), (1.3077478834556382, 2.5369450098779214),
    (1.054751253523952, -1.3475173589003966), (0.6001915955381868, -0.45060390946975576),
    (0.49171542819877384, 0.40198820291130694), (0.1727453274156187, 1.6781468852804338),
    (0.6059293215713507, 2.9539233298124117), (0.42737051832897965, -1.8888762003362853),
    (-0.07906611854921283, -0.7334295133808677), (-0.23096164445538364, 0.506495587332349),
    (0.07906611854921283, 2.4081631402089254), (0.23096164445538364, -2.635097066257444),
    (-0.1727453274156187, -1.4634457683093596), (-0.6059293215713507, -0.18766932377738163),
    (-0.42737051832897965, 1.2527164532535078), (-0.6001915955381868, 2.6909887441200375),
    (-0.49171542819877384, -2.7396044506784865), (-0.80358264971899, -1.8931952339723972),
    (-1.3077478834556382, -0.6046476437118721), (-1.054751253523952, 1.7940752946893965))
_FACE_AXES_AZIMUTHS = (
    5.6199582685239395, 5.7603390817141875, 0.78021365439343, 0.4304693639799999, 6.130269123335111,
    2.692877706530643, 2.982963003477244, 3.532912002790141, 3.494305004259568, 3.0032141694995382,
    5.930472956509812, 0.13837848409025486, 0.4487149470591504, 0.15862965011254937, 5.891865957979238,
    2.711123289609793, 3.294508837434268, 3.80481969224544, 3.6644388790551923, 2.361378999196363)
_SNAP_TOLERANCE = 1e-3  # a point further from a grid point than this is not one (hex units)


def _libm():
    name = ctypes.util.find_library("m")
    try:
        lib = ctypes.CDLL(name)
        lib.fma.restype = lib.hypot.restype = ctypes.c_double
        lib.fma.argtypes = [ctypes.c_double] * 3
        lib.hypot.argtypes = [ctypes.c_double] * 2
        return lib.fma, lib.hypot
    except (OSError, AttributeError, TypeError):  # no C math library: the unfused forms
        return (getattr(math, "fma", None) or (lambda a, b, c: a * b + c)), math.hypot


_fma, _hypot = _libm()


def _positive(angle):
    if angle < 0.0:
        return angle + _TWO_PI
    return angle - _TWO_PI if angle >= _TWO_PI else angle


def _unit(lat, lng):
    return math.cos(lat) * math.cos(lng), math.cos(lat) * math.sin(lng), math.sin(lat)


def _squared_distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


def _nearest_face(lat, lng):
    point = _unit(lat, lng)
    return min(range(20), key=lambda f: _squared_distance(point, _unit(*_FACE_CENTERS[f])))


def _hex2d(lat, lng, face, resolution, substrate):
    """The point's coordinates on the face's grid of `resolution` (the inverse of _to_latlng)."""
    center_lat, center_lng = _FACE_CENTERS[face]
    r = math.acos(max(-1.0, min(1.0, 1 - _squared_distance(_unit(lat, lng), _unit(center_lat, center_lng)) / 2)))
    r = math.tan(r) / _RES0_U_GNOMONIC / _INV_SQRT7_POWERS[resolution] * (3 if substrate else 1)
    azimuth = math.atan2(math.cos(lat) * math.sin(lng - center_lng), math.cos(center_lat) * math.sin(lat)
                         - math.sin(center_lat) * math.cos(lat) * math.cos(lng - center_lng))
    theta = _positive(_FACE_AXES_AZIMUTHS[face] - _positive(azimuth))
    if not substrate and resolution % 2:
        theta = _positive(theta - _AP7_ROT_RADS)
    return r * math.cos(theta), r * math.sin(theta)


def _snapped(x, y):
    """The grid point nearest (x, y), as h3o computes a grid point's coordinates; or None."""
    j = round(y / _SQRT3_2)
    i = round(x + 0.5 * j)
    gx, gy = _fma(0.5, -float(j), float(i)), j * _SQRT3_2
    return (gx, gy) if abs(gx - x) < _SNAP_TOLERANCE and abs(gy - y) < _SNAP_TOLERANCE else None


def _coord_at(lat0, lng0, azimuth, distance):
    """h3o's LatLng::coord_at: the point at `distance` along `azimuth` from (lat0, lng0)."""
    if distance < _EPSILON:
        return lat0, lng0
    azimuth = _positive(azimuth)
    north_south = abs(azimuth) <= _EPSILON or abs(azimuth - math.pi) <= _EPSILON
    if north_south:
        lat = lat0 + distance if abs(azimuth) <= _EPSILON else lat0 - distance
    else:
        lat = math.asin(max(-1.0, min(1.0, _fma(math.sin(lat0), math.cos(distance),
                                                  math.cos(lat0) * math.sin(distance) * math.cos(azimuth)))))
    if abs(lat - math.pi / 2) <= _EPSILON:
        return math.pi / 2, 0.0
    if abs(lat + math.pi / 2) <= _EPSILON:
        return -math.pi / 2, 0.0
    lng = lng0
    if not north_south:
        sin_lng = max(-1.0, min(1.0, math.sin(azimuth) * math.sin(distance) / math.cos(lat)))
        cos_lng = _fma(math.sin(lat0), math.sin(-lat), math.cos(distance)) / math.cos(lat0) / math.cos(lat)
        lng = lng0 + math.atan2(sin_lng, cos_lng)
    while lng > math.pi:
        lng -= _TWO_PI
    while lng < -math.pi:
        lng += _TWO_PI
    return lat, lng


def _to_latlng(x, y, face, resolution, substrate):
    """h3o's Vec2d::to_latlng: a grid point of the face back to (lat, lng) in radians."""
    r = _hypot(x, y)
    if r < _EPSILON:
        return _FACE_CENTERS[face]
    r *= _INV_SQRT7_POWERS[resolution]
    if substrate:
        r *= _ONE_THIRD
    r = math.atan(r * _RES0_U_GNOMONIC)
    theta = math.atan2(y, x)
    if not substrate and resolution % 2:
        theta = _positive(theta + _AP7_ROT_RADS)
    return _coord_at(*_FACE_CENTERS[face], _positive(_FACE_AXES_AZIMUTHS[face] - theta), r)


def _exact(lat_deg, lng_deg, face, resolution, substrate):
    """(lat, lng) in degrees as h3o gives the grid point at about (lat_deg, lng_deg); None when
    there is no grid point there."""
    lat, lng = math.radians(lat_deg), math.radians(lng_deg)
    point = _snapped(*_hex2d(lat, lng, face, resolution, substrate))
    if point is None:
        return None
    lat, lng = _to_latlng(*point, face, resolution, substrate)
    return lat * _DEGREES, lng * _DEGREES


def cell_center(api, cell):
    """(lat, lng) in degrees of the centre of `cell`."""
    lat, lng = api.cell_to_latlng(cell)
    exact = _exact(lat, lng, _nearest_face(math.radians(lat), math.radians(lng)), api.get_resolution(cell), False)
    return exact or (lat, lng)


def boundary_vertices(api, cell, points):
    """`points` ((lat, lng) in degrees: vertices of `cell` from the C library) as h3o computes
    them, unchanged when one is not a grid point of the cell's face (an edge crossing)."""
    resolution = api.get_resolution(cell)
    lat, lng = api.cell_to_latlng(cell)
    face = _nearest_face(math.radians(lat), math.radians(lng))
    substrate_resolution = resolution + 1 if resolution % 2 else resolution  # Class III: next Class II
    out = []
    for lat, lng in points:
        if _nearest_face(math.radians(lat), math.radians(lng)) != face:
            return list(points)
        exact = _exact(lat, lng, face, substrate_resolution, True)
        if exact is None:
            return list(points)
        out.append(exact)
    return out

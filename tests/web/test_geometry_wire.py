"""GEOMETRY / GEOGRAPHY values over the query protocol: written in the session's
geometry_output_format (GeoJSON by default), with the type names Geometry and Geography."""

import pytest

from tests.web.harness import DATABEND_HEADERS

pytest.importorskip("shapely")


def test_geometry_is_written_as_geojson_by_default(h):
    h.post("CREATE TABLE g (id INT, a GEOMETRY, b GEOGRAPHY)")
    h.post("INSERT INTO g VALUES (1, 'SRID=4326;POINT(1 2)', 'POINT(3 4)'), (2, NULL, NULL)")
    a = h.post("SELECT a, b FROM g ORDER BY id", headers=DATABEND_HEADERS).json
    assert a["error"] is None
    assert [c["type"] for c in a["schema"]] == ["Nullable(Geometry)", "Nullable(Geography)"]
    assert a["data"] == [['{"type": "Point", "coordinates": [1,2]}', '{"type": "Point", "coordinates": [3,4]}'],
                         [None, None]]


def test_geometry_is_written_in_the_session_output_format(h):
    ewkt = {"settings": {"geometry_output_format": "EWKT"}}
    a = h.post("SELECT to_geometry('SRID=4326;POINT(1 2)'), st_point(3, 4), [to_geometry('POINT(5 6)')]",
               headers=DATABEND_HEADERS, session=ewkt).json
    assert a["error"] is None
    assert a["data"] == [["SRID=4326;POINT(1 2)", "SRID=4326;POINT(3 4)", '["POINT(5 6)"]']]

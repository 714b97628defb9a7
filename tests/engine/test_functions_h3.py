"""The H3 functions (engine.functions.h3_cells), with the answers of Databend's own test file
query/functions/02_0060_function_geo_h3.test, its errors for invalid indexes, the array limit,
and the error naming the `geo` extra when the h3 package is missing."""

import pytest

import engine
from engine.core.limits import Limits
from engine.functions import h3_cells
from tests.engine.sql_helpers import error_code, q

pytest.importorskip("h3")


@pytest.fixture(scope="module")
def session():
    return engine.Database().session()


@pytest.mark.parametrize(("sql", "expected"), [
    ("h3_k_ring(644325524701193974, 1)", [644325524701193974, 644325524701193899, 644325524701193869,
                                          644325524701193970, 644325524701193968, 644325524701193972,
                                          644325524701193897]),
    ("h3_is_valid(1)", False),
    ("h3_is_valid(644325524701193974)", True),
    ("h3_get_resolution(644325524701193974)", 15),
    # h3o's tables, which have more digits than the C library's
    ("h3_edge_length_m(1)", 483056.8390711111),
    ("h3_edge_length_km(3)", 68.97922178775585),
    ("h3_hex_area_m2(1)", 609788441794.1339),
    ("h3_hex_area_km2(4)", 1770.347654491307),
    ("h3_edge_angle(10)", 0.0006822586214153981),
    ("h3_num_hexagons(10)", 33897029882),
    ("h3_get_base_cell(644325524701193974)", 8),
    ("h3_indexes_are_neighbors(644325524701193974, 644325524701193897)", True),
    ("h3_to_children(644325524701193897, 15)", [644325524701193897]),
    ("h3_to_children(635318325446452991, 14)", [639821925073823431, 639821925073823439, 639821925073823447,
                                                639821925073823455, 639821925073823463, 639821925073823471,
                                                639821925073823479]),
    ("h3_to_children(635318325446452991, 12)", []),  # coarser than the cell
    ("h3_to_parent(635318325446452991, 12)", 630814725819082751),
    ("h3_to_parent(635318325446452991, 14)", 0),  # finer than the cell
    ("h3_to_string(635318325446452991)", "8d11aa6a38826ff"),
    ("string_to_h3('8d11aa6a38826ff')", 635318325446452991),
    ("h3_is_res_class_iii(635318325446452991)", True),
    ("h3_is_pentagon(599119489002373119)", True),
    ("h3_get_faces(599119489002373119)", [0, 1, 2, 3, 4]),  # sorted, as h3o gives them
    ("h3_to_center_child(599119489002373119, 15)", 644155484202336256),
    ("h3_line(599119489002373119, 599119491149856767)", [599119489002373119, 599119491149856767]),
    ("h3_distance(599119489002373119, 599119491149856767)", 1),
    ("h3_get_unidirectional_edge(644325524701193897, 644325524701193754)", 1581074247194257065),
    ("h3_get_unidirectional_edge(644325524701193974, 644325528491955313)", 0),  # not neighbours
    ("h3_unidirectional_edge_is_valid(1248204388774707199)", True),
    ("h3_get_origin_index_from_unidirectional_edge(1248204388774707199)", 599686042433355775),
    ("h3_get_destination_index_from_unidirectional_edge(1248204388774707199)", 599686043507097599),
    ("h3_get_indexes_from_unidirectional_edge(1248204388774707199)", (599686042433355775, 599686043507097599)),
    ("h3_get_unidirectional_edges_from_hexagon(644325524701193754)",
     [1292843871042545178, 1364901465080473114, 1436959059118401050, 1509016653156328986,
      1581074247194256922, 1653131841232184858]),
    ("geo_to_h3(37.79506683, 55.71290588, 15)", 644325524701193974),
])
def test_the_suites_answers(session, sql, expected):
    [(value,)] = q(session, f"SELECT {sql}")
    assert (list(value) if isinstance(expected, list) else value) == expected


@pytest.mark.parametrize(("sql", "expected"), [
    # h3o's arithmetic to the last bit (the C library gives 37.795066168302505, 55.71290243145668)
    ("h3_to_geo(644325524701193974)", (37.79506616830257, 55.712902431456676)),
    ("h3_to_geo(644325528491955313)", (37.59813515180213, 55.720758442874214)),
    ("h3_to_geo_boundary(644325524701193974)[1]", (37.79505811173477, 55.712900225355526)),
    ("h3_to_geo_boundary(644325524701193974)[6]", (37.79505921006456, 55.712905521957914)),
    # (lat, lng) for an edge, as Databend
    ("h3_get_unidirectional_edge_boundary(1248204388774707199)[2]", (37.33755608435298, -122.09042892904397)),
])
def test_coordinates_as_h3o_computes_them(session, sql, expected):
    [(value,)] = q(session, f"SELECT {sql}")
    assert tuple(value) == expected


def test_types_and_nulls(session):
    result = session.execute("SELECT h3_to_geo(644325524701193974), h3_get_resolution(NULL), h3_distance(0, NULL),"
                             " h3_get_faces(599119489002373119)")
    assert [c.type for c in result.schema] == [
        "Tuple(Float64, Float64)", "NULL", "NULL", "Array(UInt8)"]
    [(lng_lat, *rest)] = list(result)
    assert lng_lat[0] == pytest.approx(37.79506616830257) and lng_lat[1] == pytest.approx(55.712902431456676)
    assert rest[:2] == [None, None] and list(rest[2]) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("sql", [
    "h3_to_geo(0)", "h3_get_resolution(1)", "h3_edge_length_m(16)", "h3_to_parent(635318325446452991, 16)",
    "string_to_h3('xxxx')", "h3_exact_edge_length_m(599119489002373119)",
    "h3_hex_ring(599119489002373119, 2)",  # a pentagon on the way: h3o's grid_ring_fast fails
])
def test_invalid_indexes_are_1006(session, sql):
    assert error_code(session, f"SELECT {sql}") == 1006


def test_arrays_are_counted_before_they_are_built():
    s = engine.Database(limits=Limits(array_elements=100)).session()
    assert len(q(s, "SELECT h3_k_ring(644325524701193974, 5)")[0][0]) == 91
    assert error_code(s, "SELECT h3_k_ring(644325524701193974, 6)") == 1006  # 127 cells
    assert error_code(s, "SELECT h3_to_children(599119489002373119, 8)") == 1006


def test_without_the_h3_package_each_function_names_the_extra(monkeypatch):
    def missing():
        raise ImportError("No module named 'h3'")

    monkeypatch.setattr(h3_cells, "_loaded", [])
    monkeypatch.setattr(h3_cells, "_import", missing)
    s = engine.Database().session()
    for sql in ("SELECT h3_is_valid(1)", "SELECT h3_to_geo(644325524701193974)"):
        with pytest.raises(engine.EngineError) as info:
            q(s, sql)
        assert info.value.code == 1002 and "pip install 'queryhttp[geo]'" in str(info.value)

"""BITMAP values over the query protocol: Databend 1.2.453 writes `<bitmap binary>` for every
bitmap in both formats (to_string shows the numbers), with the type name Bitmap."""

from tests.web.harness import DATABEND_HEADERS


def test_a_bitmap_is_written_as_bitmap_binary_in_the_databend_format(h):
    h.post("CREATE TABLE tb (id INT, b BITMAP)")
    h.post("INSERT INTO tb VALUES (1, '1,2'), (2, NULL)")
    a = h.post("SELECT b, to_string(b), to_bitmap('3'), [to_bitmap('3')] FROM tb ORDER BY id",
               headers=DATABEND_HEADERS).json
    assert a["error"] is None
    assert [c["type"] for c in a["schema"]] == ["Nullable(Bitmap)", "Nullable(String)", "Bitmap", "Array(Bitmap)"]
    assert a["data"] == [["<bitmap binary>", "1,2", "<bitmap binary>", '["<bitmap binary>"]'],
                         [None, None, "<bitmap binary>", '["<bitmap binary>"]']]


def test_a_bitmap_is_written_as_bitmap_binary_in_the_spec_format(h):
    a = h.post("SELECT to_bitmap('1,2') AS b, bitmap_count(to_bitmap('1,2')) AS n").json
    assert a["error"] is None
    assert [(f["data_type"], f["nullable"]) for f in a["schema"]["fields"]] == [
        ({"type": "Bitmap"}, False), ({"type": "UInt8"}, False)]
    assert a["data"] == [["<bitmap binary>", "2"]]

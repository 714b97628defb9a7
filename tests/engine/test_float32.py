"""FLOAT (Float32) columns hold single-precision values, as Databend 1.2.453 stores them."""

import engine


def _session():
    s = engine.Database().session()
    s.execute("CREATE TABLE f (x FLOAT, y DOUBLE)")
    s.execute("INSERT INTO f VALUES " + ", ".join(["(0.1, 0.1)"] * 10))
    return s


def test_a_float_column_rounds_to_single_precision_and_sums_as_databend():
    s = _session()
    (total,) = list(s.execute("SELECT sum(x) FROM f"))[0]
    assert total == 1.0000000149011612  # Databend: 1.0000000149 (ten single-precision 0.1)
    assert list(s.execute("SELECT x * 3, x::DOUBLE FROM f LIMIT 1")) == [
        (0.30000000447034836, 0.10000000149011612)]


def test_float32_values_show_their_shortest_single_precision_text():
    s = _session()
    result = s.execute("SELECT x, 1.1::FLOAT, to_float32(2.5), typeof(1.1::FLOAT) FROM f LIMIT 1")
    rows = list(result)
    assert result.renderer(False)(rows) == [("0.1", "1.1", "2.5", "FLOAT")]
    assert rows[0][1] == 1.100000023841858  # 1.1::FLOAT + 1 is Float64 2.1000000238...

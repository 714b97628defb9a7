"""Window frames: ROWS and RANGE bounds (offsets, CURRENT ROW, UNBOUNDED), ascending and
descending, with NULL keys, checked against a brute-force evaluation of every frame (and a
sample against Databend 1.2.453's answer)."""

import random

import pytest

import engine

N = 300


@pytest.fixture(scope="module")
def data():
    rng = random.Random(9)
    values = rng.sample(range(3 * N), N)
    rows = []
    for i, v in enumerate(values):
        g = None if i % 17 == 0 else i % 4
        rows.append((i, g, None if i % 23 == 5 else v))  # NULL keys, unique otherwise
    return rows


@pytest.fixture(scope="module")
def session(data):
    s = engine.Database().session()
    list(s.execute("CREATE TABLE r (id INT, g INT, v INT)"))
    values = ", ".join(f"({i}, {'NULL' if g is None else g}, {'NULL' if v is None else v})" for i, g, v in data)
    list(s.execute(f"INSERT INTO r VALUES {values}"))
    return s


def _ordered(part, desc, nulls_first):
    values = sorted((r for r in part if r[2] is not None), key=lambda r: r[2], reverse=desc)
    nulls = [r for r in part if r[2] is None]
    return nulls + values if nulls_first else values + nulls


def _frame(rows, i, units, start, end, desc, nulls_first, prev_end):
    """[lo, hi) of row i's frame, by definition. RANGE as Databend 1.2.453 answers: a NULL key
    counts as beyond every value on its side of the order; a NULL current row's offset bounds
    are its peer group's, except UNBOUNDED PRECEDING .. n PRECEDING after values, which ends
    where the previous row's frame did."""
    n = len(rows)
    if units == "ROWS":
        lo = {"UP": 0, "CR": i}.get(start[0], i - start[1] if start[0] == "P" else i + start[1])
        hi = {"UF": n - 1, "CR": i}.get(end[0], i - end[1] if end[0] == "P" else i + end[1]) + 1
        lo, hi = min(max(lo, 0), n), min(max(hi, 0), n)
        return lo, max(lo, hi)
    v = rows[i][2]
    if v is None:
        nulls = [j for j, r in enumerate(rows) if r[2] is None]
        lo = 0 if start[0] == "UP" else nulls[0]
        hi = n if end[0] == "UF" else nulls[-1] + 1
        if start[0] == "UP" and end[0] == "P" and nulls[0] > 0:
            hi = prev_end
        return lo, max(lo, hi)
    beyond = float("-inf") if nulls_first else float("inf")
    inside = []
    for j, r in enumerate(rows):
        x = r[2]
        delta = beyond if x is None else (x - v) if not desc else (v - x)  # how far after row i
        ok = True
        for (kind, off), is_start in ((start, True), (end, False)):
            if kind not in ("UP", "UF"):
                bound = 0 if kind == "CR" else (-off if kind == "P" else off)
                ok = ok and (delta >= bound if is_start else delta <= bound)
        if ok:
            inside.append(j)
    if not inside:
        return i, i
    return inside[0], inside[-1] + 1


def _expected(data, func, units, start, end, desc, nulls_first):
    parts = {}
    for r in data:
        parts.setdefault(r[1], []).append(r)
    expected = {}
    for part in parts.values():
        rows = _ordered(part, desc, nulls_first)
        prev_end = 0
        for i, r in enumerate(rows):
            lo, prev_end = _frame(rows, i, units, start, end, desc, nulls_first, prev_end)
            vals = [rows[j][2] for j in range(lo, prev_end)]
            nonnull = [x for x in vals if x is not None]
            if func == "count":
                expected[r[0]] = len(vals)
            elif func == "sum":
                expected[r[0]] = sum(nonnull) if nonnull else None
            elif func == "min":
                expected[r[0]] = min(nonnull) if nonnull else None
            elif func == "max":
                expected[r[0]] = max(nonnull) if nonnull else None
            elif func == "first_value":
                expected[r[0]] = vals[0] if vals else None
            else:  # last_value
                expected[r[0]] = vals[-1] if vals else None
    return expected


def _sql_bound(b):
    return {"UP": "UNBOUNDED PRECEDING", "UF": "UNBOUNDED FOLLOWING", "CR": "CURRENT ROW"}.get(
        b[0], f"{b[1]} {'PRECEDING' if b[0] == 'P' else 'FOLLOWING'}")


FRAMES = [
    ("ROWS", ("P", 2), ("F", 1)),
    ("ROWS", ("P", 3), ("P", 1)),
    ("ROWS", ("CR", 0), ("UF", 0)),
    ("ROWS", ("F", 1), ("F", 3)),
    ("ROWS", ("UP", 0), ("CR", 0)),
    ("ROWS", ("UP", 0), ("P", 2)),
    ("RANGE", ("P", 50), ("F", 50)),
    ("RANGE", ("P", 100), ("CR", 0)),
    ("RANGE", ("CR", 0), ("F", 70)),
    ("RANGE", ("UP", 0), ("P", 30)),
    ("RANGE", ("F", 10), ("UF", 0)),
    ("RANGE", ("UP", 0), ("CR", 0)),
    ("ROWS", ("UP", 0), ("UF", 0)),  # the whole partition
    ("RANGE", ("UP", 0), ("UF", 0)),
]


@pytest.mark.parametrize("units, start, end", FRAMES)
@pytest.mark.parametrize("func", ["sum", "count", "min", "max", "first_value", "last_value"])
@pytest.mark.parametrize("desc, nulls_first", [(False, False), (True, False), (False, True)])
def test_frame_matches_its_definition(session, data, func, units, start, end, desc, nulls_first):
    arg = "*" if func == "count" else "v"
    order = "v" + (" DESC" if desc else "") + (" NULLS FIRST" if nulls_first else "")
    sql = (f"SELECT id, {func}({arg}) OVER (PARTITION BY g ORDER BY {order} {units} BETWEEN "
           f"{_sql_bound(start)} AND {_sql_bound(end)}) FROM r")
    got = dict(session.execute(sql))
    assert got == _expected(data, func, units, start, end, desc, nulls_first)


def test_frames_as_databend_answers():
    # as Databend 1.2.453 answers
    s = engine.Database().session()
    list(s.execute("CREATE TABLE r (v INT)"))
    list(s.execute("INSERT INTO r VALUES (1), (3), (4), (8), (9), (15), (NULL), (NULL)"))
    rows = list(s.execute(
        "SELECT v, sum(v) OVER (ORDER BY v DESC RANGE BETWEEN 5 PRECEDING AND 2 FOLLOWING), "
        "count(*) OVER (ORDER BY v DESC RANGE BETWEEN CURRENT ROW AND 6 FOLLOWING), "
        "max(v) OVER (ORDER BY v NULLS FIRST RANGE BETWEEN 4 PRECEDING AND CURRENT ROW) FROM r ORDER BY v DESC"))
    assert rows == [(15, 15, 2, 15), (9, 17, 4, 9), (8, 17, 3, 8), (4, 24, 3, 4), (3, 16, 2, 3), (1, 8, 1, 1),
                    (None, None, 2, None), (None, None, 2, None)]


def test_default_frames():
    # as Databend 1.2.453 answers: with ORDER BY the frame ends at the current row's last peer;
    # without, it is the whole partition
    s = engine.Database().session()
    list(s.execute("CREATE TABLE t (g INT, v INT NOT NULL)"))
    list(s.execute("INSERT INTO t VALUES (1, 10), (1, 20), (1, 20), (2, 5), (2, 7)"))
    assert list(s.execute("SELECT sum(v) OVER (PARTITION BY g ORDER BY v), sum(v) OVER (PARTITION BY g), "
                          "last_value(v) OVER (PARTITION BY g ORDER BY v) FROM t ORDER BY g, v")) == [
        (10, 50, 10), (50, 50, 20), (50, 50, 20), (5, 12, 5), (12, 12, 7)]
    assert list(s.execute("SELECT v, sum(v) OVER (ORDER BY v ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) "
                          "FROM t WHERE g = 2 ORDER BY v")) == [(5, 12), (7, 7)]


@pytest.mark.parametrize("nulls, expected_null_rows", [
    ("", (2, 2, 5, 2, 2, 8, 2, 2)),
    (" NULLS FIRST", (2, 2, 2, 2, 2, 2, 8, 2)),
])
def test_range_frames_of_null_rows_as_databend_answers(nulls, expected_null_rows):
    # as Databend 1.2.453 answers
    s = engine.Database().session()
    list(s.execute("CREATE TABLE r (v INT)"))
    list(s.execute("INSERT INTO r VALUES (1), (3), (4), (8), (9), (15), (NULL), (NULL)"))
    frames = ["CURRENT ROW AND 6 FOLLOWING", "3 PRECEDING AND 3 FOLLOWING", "UNBOUNDED PRECEDING AND 3 PRECEDING",
              "3 PRECEDING AND CURRENT ROW", "3 FOLLOWING AND 6 FOLLOWING", "UNBOUNDED PRECEDING AND 3 FOLLOWING",
              "3 PRECEDING AND UNBOUNDED FOLLOWING", "10 PRECEDING AND 7 PRECEDING"]
    items = ", ".join(f"count(*) OVER (ORDER BY v{nulls} RANGE BETWEEN {f})" for f in frames)
    rows = list(s.execute(f"SELECT v, {items} FROM r ORDER BY v{nulls}"))
    assert [r[1:] for r in rows if r[0] is None] == [expected_null_rows] * 2
    by_value = {r[0]: r[1:] for r in rows if r[0] is not None}
    if nulls:
        assert by_value[1] == (3, 3, 2, 1, 1, 5, 6, 0)
        assert by_value[15] == (1, 1, 7, 1, 0, 8, 1, 1)
    else:
        assert by_value[1] == (3, 3, 0, 1, 1, 3, 8, 0)
        assert by_value[15] == (1, 1, 5, 1, 0, 6, 3, 1)


def test_range_offsets_follow_the_key_type():
    s = engine.Database().session()
    list(s.execute("CREATE TABLE k (s VARCHAR, d DECIMAL(10, 2), f DOUBLE, i INT)"))
    list(s.execute("INSERT INTO k VALUES ('a', 1.25, 1.5, 1), ('b', 2.50, 2.5, 3), ('c', 2.75, 3.0, 4)"))
    frame = "RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW"
    assert list(s.execute(f"SELECT sum(f) OVER (ORDER BY d {frame}) FROM k ORDER BY d")) == [(1.5,), (4.0,), (7.0,)]
    assert list(s.execute(f"SELECT sum(f) OVER (ORDER BY i {frame}) FROM k ORDER BY i")) == [(1.5,), (2.5,), (5.5,)]
    with pytest.raises(engine.EngineError) as info:
        list(s.execute(f"SELECT sum(f) OVER (ORDER BY s {frame}) FROM k"))
    assert info.value.code == 1065
    with pytest.raises(engine.EngineError) as info:
        list(s.execute("SELECT sum(f) OVER (ORDER BY d, i RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM k"))
    assert info.value.code == 1065

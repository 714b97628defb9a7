"""Snapshots of the Python source the code generator makes for representative queries.

Each query's generated functions are compared with tests/engine/generated/<name>.txt, so a
change in generated code (a NULL guard, a loop shape) shows up in review. To rewrite the
snapshots after an intended change: UPDATE_GENERATED_SOURCE=1 pytest tests/engine/test_generated_source.py
"""

import io
import keyword
import os
import pathlib
import re
import tokenize

import pytest

import engine
from engine.catalog import table_storage
from engine.codegen import compile as C

SNAPSHOTS = pathlib.Path(__file__).parent / "generated"
UPDATE = os.environ.get("UPDATE_GENERATED_SOURCE") == "1"

# Literal values here are distinctive so that a test can show none reaches the source text.
QUERIES = {
    "filter": "SELECT a FROM t WHERE a > 424242",
    # numbers()' one-column rows unpacked; to_date of an integer looks the day cache up first
    "numbers_to_date": "SELECT number % 30303, to_date(number % 20202) FROM numbers(10)",
    "projection_nullable": "SELECT a + c, b || 'zzliteral' FROM t",
    "projection_not_null": "SELECT id * 31337, label FROM u",
    "case": "SELECT CASE WHEN a > 7001 THEN 'caseliteral' WHEN a IS NULL THEN b ELSE 'elseliteral' END FROM t",
    "like": "SELECT b FROM t WHERE b LIKE 'likeliteral%'",
    "in_list": "SELECT a FROM t WHERE a IN (90001, 90002, 90003)",
    "coalesce_is_null": "SELECT COALESCE(a, 55501), a IS NULL, c IS NOT NULL FROM t",
    "aggregate_group_by": "SELECT b, COUNT(*), SUM(a), MAX(c) FROM t GROUP BY b",
    "aggregate_global": "SELECT COUNT(a), AVG(c), MIN(b) FROM t WHERE c < 12121.5",
    "hash_join": "SELECT t.b, u.label FROM t JOIN u ON t.a = u.id WHERE u.label <> 'joinliteral'",
    "left_join": "SELECT t.a, u.label FROM t LEFT JOIN u ON t.a = u.id AND u.id < 64646",
    "window": "SELECT a, ROW_NUMBER() OVER (PARTITION BY b ORDER BY a), SUM(a) OVER (ORDER BY a) FROM t",
    # the select list and QUALIFY run in the window's comprehension, over two functions' values
    "window_qualify": "SELECT a, RANK() OVER (PARTITION BY b ORDER BY c) + 60606 AS r2 FROM t "
                      "QUALIFY ROW_NUMBER() OVER (PARTITION BY b ORDER BY c) < 70707",
    # QUALIFY alone over the window (the sort by c, not selected, comes before the projection)
    "window_qualify_sorted": "SELECT a FROM t QUALIFY LAG(a) OVER (ORDER BY c) > 92929 ORDER BY c",
    "order_by_expression": "SELECT a, c FROM t ORDER BY a * 3331 DESC LIMIT 2",
    "scalar_subquery": "SELECT a, (SELECT MAX(id) FROM u WHERE id < 80808) FROM t",
    # Int64 arithmetic that may overflow: one inline comparison, the wrap called only beyond it
    "integer_wrap": "SELECT id * 9999999999, -(id * 9999999999), id * 2 + 1 FROM u",
}
# the same over tables kept column by column (engine.catalog.column_data.ColumnData): loops
# over just the columns read, row numbers picked by a filter, whole-column aggregates
COLUMN_QUERIES = {
    "columns_filter_picked": "SELECT a, b FROM t WHERE c < 12121.5",
    "columns_filter_tested": "SELECT c FROM t WHERE c < 12121.5",
    "columns_projection": "SELECT a + c, b || 'zzliteral' FROM t",
    "columns_aggregate_global": "SELECT COUNT(*), COUNT(a), AVG(c), MIN(b), SUM(c) FROM t",
    "columns_aggregate_filtered": "SELECT COUNT(a), AVG(c), MIN(b) FROM t WHERE c < 12121.5",
    # a simple test first, then a conjunct left to a comprehension over the rows it kept
    "columns_filter_rest": "SELECT b FROM t WHERE c < 12121.5 AND a % 3331 = 1",
    "columns_count_filtered": "SELECT COUNT(*) FROM t WHERE c < 12121.5 AND a > 3331",
    "columns_aggregate_grouped": "SELECT b, COUNT(*), SUM(c), MAX(a) FROM t GROUP BY b",
}
LITERALS = ["424242", "zzliteral", "31337", "7001", "caseliteral", "elseliteral", "likeliteral", "90001",
            "90002", "90003", "55501", "12121", "joinliteral", "64646", "3331", "80808", "9999999999",
            "60606", "70707", "92929"]


def _database(columns=False):
    db = engine.Database()
    # the snapshots of QUERIES are of row storage, whichever storage new tables get by default
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_storage, "COLUMNS", columns)
        _fill(db)
    return db


def _fill(db):
    s = db.session()
    for sql in [
        "CREATE TABLE t (a INT, b VARCHAR, c DOUBLE)",
        "INSERT INTO t VALUES (1, 'x', 1.5), (2, 'y', NULL), (NULL, 'z', 3.25), (4, NULL, -1.0)",
        "CREATE TABLE u (id INT NOT NULL, label VARCHAR NOT NULL)",
        "INSERT INTO u VALUES (1, 'one'), (2, 'two'), (3, 'three')",
    ]:
        list(s.execute(sql))


def generated_source(sql: str, columns=False) -> str:
    """The source of every function generated while the query plans and runs, in order."""
    sources = []
    original = C.Codegen.build

    def build(self, params, body, name="_fn"):
        fn = original(self, params, body, name)
        sources.append(fn.source)
        return fn

    C.Codegen.build = build
    try:
        list(_database(columns).session().execute(sql))
    finally:
        C.Codegen.build = original
    return f"-- {sql}\n" + "".join(f"\n# ---- function {i + 1}\n{s}\n" for i, s in enumerate(sources))


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_generated_source_matches_snapshot(name):
    source = generated_source(QUERIES[name])
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE:
        path.write_text(source, encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}: run with UPDATE_GENERATED_SOURCE=1"
    assert source == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(COLUMN_QUERIES))
def test_generated_source_over_columns_matches_snapshot(name):
    source = generated_source(COLUMN_QUERIES[name], columns=True)
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE:
        path.write_text(source, encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}: run with UPDATE_GENERATED_SOURCE=1"
    assert source == path.read_text(encoding="utf-8")


def test_generation_is_deterministic():
    sql = QUERIES["aggregate_group_by"]
    assert generated_source(sql) == generated_source(sql)


@pytest.mark.parametrize("name", sorted([*QUERIES, *COLUMN_QUERIES]))
def test_no_literal_of_the_query_reaches_the_source(name):
    # the snapshot's first line is the query itself; the functions come after it
    functions = (SNAPSHOTS / f"{name}.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    assert "# ---- function 1" in functions
    for literal in LITERALS:
        assert literal not in functions, f"{literal} reached the generated source of {name}"


def test_every_snapshot_belongs_to_a_query():
    assert sorted(p.stem for p in SNAPSHOTS.glob("*.txt")) == sorted([*QUERIES, *COLUMN_QUERIES])


# Names the operators' templates use (loop variables, accumulators, list and str methods); any
# other name must be a generated one (bindings _k<n>, temporaries _t<n>, columns _c<n>, v<n>, window
# function values _w<n>).
TEMPLATE_NAMES = {"_", "a", "acc", "append", "b", "cnt", "g", "get", "hit", "ht", "k", "l", "m", "ms", "out",
                  "p", "part", "r", "right", "seen", "st", "startswith", "x", "_fn", "_factory",
                  "i", "s", "sel", "_j",  # loops over columns (first row, columns, row numbers)
                  "kept", "picked"}  # column-wise selections (engine.exec.column_filters)
GENERATED_NAME = re.compile(r"_[ktcw]\d+|(s_)?v\d+")


@pytest.mark.parametrize("name", sorted([*QUERIES, *COLUMN_QUERIES]))
def test_generated_tokens_are_from_the_allowlist(name):
    functions = (SNAPSHOTS / f"{name}.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    for tok in tokenize.generate_tokens(io.StringIO(functions).readline):
        if tok.type == tokenize.NAME:
            assert keyword.iskeyword(tok.string) or tok.string in C._BUILTINS or tok.string in TEMPLATE_NAMES \
                or GENERATED_NAME.fullmatch(tok.string), f"{tok.string!r} in the source of {name}"
        elif tok.type == tokenize.NUMBER:
            assert tok.string.isdigit(), f"number {tok.string!r} in the source of {name}"  # positions only
        else:
            assert tok.type != tokenize.STRING, f"string {tok.string!r} in the source of {name}"

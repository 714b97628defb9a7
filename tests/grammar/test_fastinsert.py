"""The INSERT ... VALUES fast path builds exactly the AST the full grammar builds."""

import dataclasses
import gc

import pytest

from grammar import ast, fastinsert, parse
from grammar.fastinsert import parse_fast_insert
from grammar.parser import get_parser


def _positions(node, out):
    """Every (node type, pos) in the tree, in order (pos is left out of == on purpose)."""
    if isinstance(node, tuple):
        for child in node:
            _positions(child, out)
    elif dataclasses.is_dataclass(node):
        out.append((type(node).__name__, node.pos))
        for field in dataclasses.fields(node):
            _positions(getattr(node, field.name), out)
    return out


FAST = [
    "INSERT INTO t VALUES (1)",
    "insert into t values(1),(2);",
    "INSERT INTO t VALUES (1, 'a'), (2, 'b') ;  ",
    "INSERT INTO db.t (a, b, c) VALUES (1, NULL, TRUE), (-2, 'x', false)",
    "INSERT INTO t(a,b) VALUES(-1.5,1e3)",
    "INSERT INTO t VALUES (0.0, .5, 7., 1.5E-3, -2e+2, - 3)",
    "INSERT INTO t VALUES ('it''s', 'back\\\\slash', 'q\\'q', 'new\\nline', '')",
    "INSERT INTO t VALUES ('multi\nline', 1),\n  (2, 'x')\n",
    "INSERT INTO t VALUES\n(1,\n'a'),\n(2,\n'b')",
    'INSERT INTO "My Table" ("A", `b c`) VALUES (1, 2)',
    "INSERT INTO MyTable (MyCol) VALUES (NULL)",
    "INSERT INTO t VALUES ()",
    "INSERT INTO t VALUES (18446744073709551616, -9223372036854775808)",
    "INSERT INTO t VALUES ('a,b', '(x)', 'NULL', ';')",
    "  INSERT   INTO   t   VALUES   ( 1 , 2 )  ",
    "INSERT INTO name (value, count) VALUES (1, 2)",
]


@pytest.mark.parametrize("sql", FAST)
def test_fast_path_matches_the_grammar(sql):
    fast = parse_fast_insert(sql)
    assert fast is not None
    slow = get_parser().parse(sql)
    assert fast == slow
    assert _positions(fast, []) == _positions(slow, [])
    assert parse(sql) == slow


FALLBACK = [
    "INSERT INTO t VALUES (1 + 1)",
    "INSERT INTO t VALUES (now())",
    "INSERT INTO t VALUES (- - 1)",
    "INSERT INTO t VALUES (+1)",
    "INSERT INTO t VALUES (1) -- comment",
    "INSERT INTO t /* c */ VALUES (1)",
    "INSERT INTO t VALUES (CAST(1 AS INT))",
    "INSERT INTO t VALUES (x'41')",
    "INSERT INTO t VALUES (1::int)",
    "INSERT INTO t SELECT 1",
    "INSERT INTO t VALUES (-'a')",
]


@pytest.mark.parametrize("sql", FALLBACK)
def test_anything_else_falls_back_to_the_grammar(sql):
    assert parse_fast_insert(sql) is None
    assert isinstance(parse(sql), ast.Insert)


MALFORMED = [
    "INSERT INTO t VALUES (?)(?)",
    "INSERT INTO t VALUES (1,)",
    "INSERT INTO t VALUES (1) (2)",
    "INSERT INTO t VALUES (1),",
    "INSERT INTO t VALUES (1); (2)",
    "INSERT INTO t VALUES (1",
    "INSERT INTO t VALUES ('a)",
    "INSERT INTO t VALUES (1abc)",
    "INSERT INTO t VALUES (1.2.3)",
    "INSERT INTO t VALUES (-)",
    "INSERT INTO t VALUES (1) garbage",
    "INSERT INTO select VALUES (1)",
    "INSERT INTO t (from) VALUES (1)",
    "INSERT INTO table VALUES (1)",
    "INSERT INTO t VALUES (1e999)",
]


@pytest.mark.parametrize("sql", MALFORMED)
def test_malformed_inserts_are_left_to_the_grammar_which_rejects_them(sql):
    from grammar import SqlSyntaxError

    assert parse_fast_insert(sql) is None
    with pytest.raises(SqlSyntaxError):
        parse(sql)


def test_generated_rows_match_the_grammar():
    values = [
        "0", "-1", "42", "1.25", "-0.5", "3e2", "-1E-2", "NULL", "TRUE", "FALSE",
        "'plain'", "'o''neil'", "'c:\\\\dir'", "'tab\\there'", "'%_'", "'\\%'", "'é ü'",
    ]
    rows = []
    for i in range(60):
        row = [values[(i * 7 + j) % len(values)] for j in range(1 + i % 5)]
        rows.append("(" + ", ".join(row) + ")")
    sql = "INSERT INTO t VALUES " + ",\n".join(rows)
    fast = parse_fast_insert(sql)
    slow = get_parser().parse(sql)
    assert fast == slow
    assert _positions(fast, []) == _positions(slow, [])


def test_the_values_scan_runs_with_the_collector_paused_and_resumes_it(monkeypatch):
    seen = []
    original = fastinsert._scan_rows

    def recording(*args):
        seen.append(gc.isenabled())
        if len(seen) == 2:
            raise RuntimeError("a failing scan")
        return original(*args)

    monkeypatch.setattr(fastinsert, "_scan_rows", recording)
    was_enabled = gc.isenabled()
    gc.enable()
    try:
        assert parse_fast_insert("INSERT INTO t VALUES (1, 'a')") is not None
        assert seen == [False] and gc.isenabled()
        with pytest.raises(RuntimeError):
            parse_fast_insert("INSERT INTO t VALUES (2, 'b')")
        assert gc.isenabled()  # resumed after a failure too
        gc.disable()  # an embedder's disabled collector stays disabled
        assert parse_fast_insert("INSERT INTO t VALUES (3, 'c')") is not None
        assert seen == [False, False, False] and not gc.isenabled()
    finally:
        if was_enabled:
            gc.enable()

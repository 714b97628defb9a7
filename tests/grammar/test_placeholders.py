"""Placeholders `?` and `:name` in the grammar, and the INSERT ... FROM @stage source."""

import pytest

from grammar import ast
from grammar.parser import parse


def placeholders(node, found=None):
    found = [] if found is None else found
    if isinstance(node, ast.Placeholder):
        found.append(node)
    elif isinstance(node, ast.Node):
        for name in node.__dataclass_fields__:
            placeholders(getattr(node, name), found)
    elif isinstance(node, (tuple, list)):
        for item in node:
            placeholders(item, found)
    return found


def test_question_marks_and_names_are_placeholder_nodes_with_positions():
    found = placeholders(parse("SELECT ?, :name FROM t WHERE a = ?"))
    assert [(p.name, p.pos) for p in found] == [(None, (1, 8)), ("name", (1, 11)), (None, (1, 34))]


@pytest.mark.parametrize("sql", [
    "SELECT '?', ':name', 'a ? b'",
    "SELECT 1 -- ? and :name",
    "SELECT /* ? :name */ 1",
    'SELECT "?x" FROM t',
])
def test_no_placeholder_inside_strings_quoted_names_or_comments(sql):
    assert placeholders(parse(sql)) == []


def test_colon_after_an_operand_stays_a_json_path_and_a_cast():
    stmt = parse("SELECT v:a, v::INT, {'k': 1}")
    assert placeholders(stmt) == []
    assert stmt.items[0].expr.name == "json_subscript"


def test_insert_values_of_placeholders_keeps_them_for_params():
    stmt = parse("INSERT INTO t VALUES (?, ?)")
    assert stmt.rows == ((ast.Placeholder(), ast.Placeholder()),)


@pytest.mark.parametrize("sql, columns, values, options", [
    ("INSERT INTO t VALUES (?, ?) FROM @~/client/load/3 FILE_FORMAT = (TYPE = CSV)", None, 2,
     (("file_format", (("type", "CSV"),)),)),
    ("insert into t (a, b) from @s/p file_format = (type = csv skip_header = 1) purge = true",
     ("a", "b"), None, (("file_format", (("type", "csv"), ("skip_header", "1"))), ("purge", "true"))),
    ("INSERT INTO t VALUES FROM @~/x", None, None, ()),
])
def test_insert_from_stage(sql, columns, values, options):
    stmt = parse(sql)
    assert stmt.rows is None and stmt.query is None and stmt.columns == columns
    assert stmt.stage.options == options
    assert (len(stmt.stage.values) if stmt.stage.values is not None else None) == values


def test_replace_from_stage():
    stmt = parse("REPLACE INTO t ON (a) VALUES (?, ?) FROM @~/x FILE_FORMAT = (TYPE = CSV)")
    assert stmt.keys == ("a",) and stmt.stage.location == "@~/x" and stmt.rows is None

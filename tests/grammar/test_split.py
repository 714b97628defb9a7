"""grammar.split: a script cut into statements where the grammar ends them, never inside a
string, a quoted name, a comment; a statement the grammar cannot read ends the split."""

import pytest

from grammar.split import StatementSpan, TooManyStatements, split_statements


def texts(script, **kwargs):
    return [(span.text(script), span.complete) for span in split_statements(script, **kwargs)]


def test_a_script_of_ddl_dml_and_a_query():
    script = ("CREATE TABLE t (a INT, s STRING);\n"
              "INSERT INTO t VALUES (1, 'a;b'), (2, 'c');\n"
              "SELECT * FROM t ORDER BY a;")
    assert texts(script) == [("CREATE TABLE t (a INT, s STRING)", True),
                             ("INSERT INTO t VALUES (1, 'a;b'), (2, 'c')", True),
                             ("SELECT * FROM t ORDER BY a", True)]


def test_semicolons_in_strings_names_and_comments_do_not_split():
    script = ("SELECT 'x;y' AS \"a;b\", `c;d` -- no; end here\n"
              "FROM numbers(1) /* nor; here */ ; SELECT 'it''s;' AS q")
    assert [text for text, _ in texts(script)] == [
        "SELECT 'x;y' AS \"a;b\", `c;d` -- no; end here\nFROM numbers(1)",
        "SELECT 'it''s;' AS q"]


def test_empty_statements_and_comments_alone_are_skipped():
    assert texts("") == [] and texts("  ;; -- nothing\n/* at all */ ;\n") == []
    assert texts(";; SELECT 1 ;;\n; -- trailing\n") == [("SELECT 1", True)]


def test_the_last_statement_needs_no_semicolon():
    assert texts("SELECT 1; SELECT 2") == [("SELECT 1", True), ("SELECT 2", True)]


def test_a_statement_the_grammar_cannot_read_ends_the_split():
    # the rest of the script from there is one span: running it reports the parser's error
    assert texts("SELECT 1; SELEC 2; SELECT 3") == [("SELECT 1", True),
                                                    ("SELEC 2; SELECT 3", False)]
    assert texts("SELECT 1 FROM") == [("SELECT 1 FROM", False)]
    assert texts("SELECT 'unclosed; SELECT 2") == [("SELECT 'unclosed; SELECT 2", False)]


def test_positions_are_characters_of_the_script():
    script = "SELECT 'é😀';\n  SELECT 2"
    spans = split_statements(script)
    assert spans == [StatementSpan(0, 11), StatementSpan(15, 23)]


def test_keywords_a_regex_would_miss():
    # a `;` is only an end where a whole statement stands before it
    script = "CREATE VIEW v AS SELECT ';' AS s; SELECT * FROM v"
    assert [t for t, _ in texts(script)] == ["CREATE VIEW v AS SELECT ';' AS s",
                                             "SELECT * FROM v"]


def test_too_many_statements_is_refused_at_the_limit():
    assert len(split_statements("SELECT 1;" * 3, max_statements=3)) == 3
    with pytest.raises(TooManyStatements, match="more than 3 statements"):
        split_statements("SELECT 1;" * 4, max_statements=3)


def test_long_scripts_split_in_linear_work():
    # each statement's lexer starts where the last one ended (no re-scan of the text before)
    script = "".join(f"INSERT INTO t VALUES ({i}, 'row {i}');\n" for i in range(3000))
    spans = split_statements(script)
    assert len(spans) == 3000 and spans[-1].text(script) == "INSERT INTO t VALUES (2999, 'row 2999')"


def test_named_placeholders_of_each_statement():
    script = "SELECT :low, ':no' FROM t WHERE a > :low AND b < :high; SELECT 1; SELECT :x +"
    assert [span.params for span in split_statements(script)] == [("low", "high"), (), ("x",)]

"""The grammar builds under Lark's strict mode: no terminal collisions, no shift/reduce conflicts."""

from grammar.parser import build_parser


def test_grammar_builds_in_strict_mode():
    # strict mode needs the `interegular` package (a test extra) to compare terminal regexes
    parser = build_parser(strict=True)
    assert parser.parse("SELECT 1") is not None

"""The layout document behind EXPLAIN SYNTAX: groups go flat when they fit, else break."""

from grammar.pretty_doc import LINE, LINE_, cat, render, text


def _list(*words):
    return cat(text("("), cat(LINE_, *[cat(text(w), LINE) for w in words[:-1]], text(words[-1])).nest(2),
               LINE_, text(")")).group()


def test_group_that_fits_stays_on_one_line():
    assert render(_list("a", "b"), 10) == "(a b)"


def test_group_that_does_not_fit_breaks_every_line_and_indents():
    assert render(_list("alpha", "beta"), 10) == "(\n  alpha\n  beta\n)"


def test_text_after_a_group_counts_up_to_the_next_line_break():
    doc = cat(_list("a", "b"), text("tail"), LINE, text("next"))
    assert render(doc, 8) == "(\n  a\n  b\n)tail\nnext"
    assert render(doc, 9) == "(a b)tail\nnext"


def test_deep_documents_render_without_recursion():
    doc = text("x")
    for _ in range(5000):
        doc = cat(text("("), doc, text(")")).group()
    assert render(doc, 10) == "(" * 5000 + "x" + ")" * 5000

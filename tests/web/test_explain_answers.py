"""EXPLAIN SYNTAX and EXPLAIN ANALYZE over the query protocol: one String column `explain`."""


def test_explain_syntax_answers_one_row_per_line(h):
    a = h.post("EXPLAIN SYNTAX select a from t where 1=1").json
    assert a["state"] == "Succeeded"
    assert [f["name"] for f in a["schema"]["fields"]] == ["explain"]
    assert a["data"] == [["SELECT a"], ["FROM"], ["    t"], ["WHERE"], ["    (1 = 1)"]]


def test_explain_analyze_runs_the_query_and_answers_the_tree(h):
    a = h.post("EXPLAIN ANALYZE SELECT number % 3 AS k, COUNT(*) FROM numbers(1000) GROUP BY k").json
    lines = [row[0] for row in a["data"]]
    while a["next_uri"]:
        a = h.get(a["next_uri"]).json
        lines += [row[0] for row in a["data"]]
    assert a["state"] == "Succeeded" and a["error"] is None
    assert lines[0] == "Project 2 column(s)"
    assert "├── output rows: 3" in lines

"""bench.memory runs end to end at a tiny size, and both engines build the same tables."""

from __future__ import annotations

import pytest

from bench import memory as bench_memory


@pytest.mark.parametrize("table", sorted(bench_memory.TABLES))
def test_both_engines_fill_the_same_rows(table):
    runs = [bench_memory.child(name, table, 300) for name in bench_memory.ENGINES]
    assert [r["rows"] for r in runs] == [300, 300]
    # the same strings in both engines: the SQL of each dialect computes the same values
    assert runs[0]["text_length"] == runs[1]["text_length"] > 0
    assert all(r["seconds"] > 0 and isinstance(r["bytes"], int) for r in runs)


def test_tiny_run_prints_a_line_per_table(capsys):
    bench_memory.main(["--rows", "500", "--tables", "narrow,strings", "--tracemalloc",
                       "--timeout", "60"])
    out = capsys.readouterr().out
    assert "qh B/row" in out and "error" not in out
    lines = [line.split() for line in out.splitlines()]
    assert [line[0] for line in lines if line and line[0] in bench_memory.TABLES] == \
        ["narrow", "strings"]
    assert out.count("queryhttp, tracemalloc:") == 2


def test_unknown_table_is_refused():
    with pytest.raises(SystemExit):
        bench_memory.main(["--tables", "narrow,nope"])

"""Print parser timings: build, small statements, and a bulk INSERT against ast.literal_eval.

    python -m tests.grammar.measure_parse [--rows 10000]

Not a test (timings vary by machine); the figures go into reports. The bulk INSERT is compared
with `ast.literal_eval` of the same rows written as Python tuples, the floor issue 5 sets
(within 2x).
"""

from __future__ import annotations

import argparse
import ast as python_ast
import random
import time

from grammar import parser as grammar_parser
from grammar.fastinsert import parse_fast_insert

LOOP = range(2000)


def _best(function, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def _bulk_insert(rows: int) -> tuple[str, str]:
    """The same rows as an INSERT statement and as a Python literal."""
    rng = random.Random(1)
    values = [
        (i, f"name {i} it's", round(rng.random() * 1000, 2), None if i % 7 == 0 else -i)
        for i in range(rows)
    ]

    def sql_value(value):
        if value is None:
            return "NULL"
        if isinstance(value, str):
            return "'" + value.replace("'", "''") + "'"
        return str(value)

    sql = "INSERT INTO t (a, b, c, d) VALUES " + ", ".join(
        "(" + ", ".join(sql_value(v) for v in row) + ")" for row in values
    )
    python = "[" + ", ".join(repr(row) for row in values) + "]"
    return sql, python


def main(argv=None) -> None:
    options_parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options_parser.add_argument("--rows", type=int, default=10000)
    options = options_parser.parse_args(argv)

    started = time.perf_counter()
    lark = grammar_parser.get_parser()
    print(
        f"parser build (grammar analysis cached on disk): {1000 * (time.perf_counter() - started):.0f} ms"
    )

    for sql in (
        "SELECT 1",
        "SELECT a, b FROM t WHERE a > 1 ORDER BY b LIMIT 10",
        "SELECT DISTINCT - col0 * + 78 + - col1 AS col2 FROM tab1 AS cor0 "
        "WHERE NOT ( col2 ) BETWEEN - col0 AND NULL GROUP BY col0, col1 ORDER BY 1",
    ):
        uncached = _best(lambda sql=sql: [grammar_parser._parse(sql) for _ in LOOP], 3) / len(LOOP)
        cached = _best(lambda sql=sql: [grammar_parser.parse(sql) for _ in LOOP], 3) / len(LOOP)
        print(f"{1e6 * uncached:8.1f} us parse, {1e6 * cached:6.2f} us cached: {sql[:60]}")

    sql, python = _bulk_insert(options.rows)
    floor = _best(lambda: python_ast.literal_eval(python), 5)
    fast = _best(lambda: parse_fast_insert(sql), 5)
    slow = _best(lambda: lark.parse(sql), 2)
    print(f"bulk INSERT of {options.rows} rows ({len(sql) / 1024:.0f} KB of SQL):")
    print(f"  ast.literal_eval of the tuples {1000 * floor:7.1f} ms")
    print(f"  fast path                      {1000 * fast:7.1f} ms ({fast / floor:.2f}x)")
    print(f"  full LALR grammar              {1000 * slow:7.1f} ms ({slow / floor:.2f}x)")


if __name__ == "__main__":
    main()

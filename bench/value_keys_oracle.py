"""Records Databend's answers to the value-semantics cases (NaN, ±inf, -0.0, mixed-type IN) for tests/engine/test_value_keys.py.

    python -m bench.value_keys_oracle --oracle-python ORACLE_VENV/bin/python

Runs SETUP and CASES in the real Databend engine (the `databend` wheel, 1.2.453, through
bench.oracle_worker) and writes tests/engine/value_keys_golden.json: each query with Databend's
column types and canonical rows (bench.oracle_values). CI replays the file without the wheel.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from bench.oracle import oracle_answers

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "engine" / "value_keys_golden.json"

SETUP = [
    "CREATE TABLE f (x DOUBLE NOT NULL)",
    "INSERT INTO f VALUES (3), ('nan'::DOUBLE), (1), (2), ('nan'::DOUBLE), (0), (5), (-1)",
    "CREATE TABLE g (k INT NOT NULL, x DOUBLE NOT NULL)",
    "INSERT INTO g VALUES (1, 3), (1, 'nan'::DOUBLE), (1, 1), (2, 2), (2, 5), (3, 'nan'::DOUBLE)",
    "CREATE TABLE gn (k INT, x DOUBLE)",
    "INSERT INTO gn VALUES (1, 3), (1, 'nan'::DOUBLE), (1, NULL), (2, 2), (2, 5), (3, 'nan'::DOUBLE), (3, NULL),"
    " (4, NULL), (NULL, 'nan'::DOUBLE)",
    "CREATE TABLE s (x DOUBLE NOT NULL, i INT NOT NULL)",
    "INSERT INTO s VALUES ('inf'::DOUBLE, 1), ('nan'::DOUBLE, 2), ('-inf'::DOUBLE, 3), (1.5, 4), ('nan'::DOUBLE, 5),"
    " (-2.5, 6), ('inf'::DOUBLE, 7)",
    "CREATE TABLE d (d DECIMAL(10, 2) NOT NULL)",
    "INSERT INTO d VALUES (1.00), (1.10), (2.50)",
    "CREATE TABLE a (f DOUBLE NOT NULL)",
    "INSERT INTO a VALUES (1.0), (1.1)",
    "CREATE TABLE u (n BIGINT UNSIGNED NOT NULL)",
    "INSERT INTO u VALUES (18446744073709551615), (9223372036854775808), (1)",
    "CREATE TABLE dt (d DATE NOT NULL)",
    "INSERT INTO dt VALUES ('2024-01-01'), ('2024-02-29')",
]

# every query orders its rows (or returns one), so the comparison needs no sorting
CASES = [
    # NaN in sorts: NaN after every float (+inf included), NaN first in a descending order
    "SELECT x FROM f ORDER BY x",
    "SELECT x FROM f ORDER BY x DESC",
    "SELECT x FROM f ORDER BY x LIMIT 3",
    "SELECT x FROM f ORDER BY x DESC LIMIT 3",
    "SELECT x, i FROM s ORDER BY x, i",
    "SELECT x, i FROM s ORDER BY x DESC, i",
    "SELECT x, i FROM s ORDER BY x LIMIT 4",
    "SELECT k, x FROM gn ORDER BY x NULLS FIRST, k",
    "SELECT k, x FROM gn ORDER BY x DESC NULLS LAST, k",
    "SELECT n, sqrt(n) AS r FROM (SELECT number - 4 AS n FROM numbers(10)) ORDER BY r, n",
    "SELECT x, row_number() OVER (ORDER BY x) AS rn FROM f ORDER BY rn",
    "SELECT x, rank() OVER (ORDER BY x DESC) AS rk FROM f ORDER BY rk, x",
    "SELECT x, row_number() OVER (PARTITION BY x ORDER BY x) AS rn FROM f ORDER BY x, rn",
    "SELECT i, x, rank() OVER (ORDER BY x) AS rk FROM s ORDER BY i",
    # NaN in grouping: all NaNs one group / one distinct value
    "SELECT count(DISTINCT x) FROM f",
    "SELECT x, count(*) FROM f GROUP BY x ORDER BY x",
    "SELECT DISTINCT x FROM f ORDER BY x",
    "SELECT x, count(*) FROM s GROUP BY x ORDER BY x",
    "SELECT x, k, count(*) FROM g GROUP BY x, k ORDER BY x, k",
    "SELECT k, max(x), min(x), count(DISTINCT x), min(DISTINCT x), max(DISTINCT x) FROM g GROUP BY k ORDER BY k",
    "SELECT k, max(x), min(x), count(DISTINCT x) FROM gn GROUP BY k ORDER BY k",
    "SELECT count(DISTINCT x) FROM (SELECT 'nan'::FLOAT AS x UNION ALL SELECT 1.5::FLOAT UNION ALL SELECT 'nan'::FLOAT)",
    "SELECT x FROM (SELECT 'nan'::FLOAT AS x UNION ALL SELECT 1.5::FLOAT UNION ALL SELECT 'nan'::FLOAT"
    " UNION ALL SELECT '-inf'::FLOAT) ORDER BY x",
    # NaN in joins, IN (subquery), = ANY / ALL, set operations
    "SELECT count(*) FROM f AS a JOIN f AS b ON a.x = b.x",
    "SELECT 'nan'::DOUBLE IN (SELECT x FROM f)",
    "SELECT count(*) FROM f WHERE x IN (SELECT 'nan'::DOUBLE)",
    "SELECT count(*) FROM f WHERE x NOT IN (SELECT 'nan'::DOUBLE)",
    "SELECT 'nan'::DOUBLE = ANY (SELECT x FROM g)",
    "SELECT 'nan'::DOUBLE > ALL (SELECT x FROM g WHERE k = 2)",
    "SELECT x FROM f INTERSECT SELECT 'nan'::DOUBLE",
    "SELECT count(*) FROM (SELECT x FROM f UNION SELECT 'nan'::DOUBLE)",
    "SELECT count(*) FROM (SELECT x FROM f EXCEPT SELECT 'nan'::DOUBLE)",
    # IN (subquery) in the comparison common type, as = ANY (code review N2)
    "SELECT 1 IN (SELECT '1')",
    "SELECT 1 = ANY (SELECT '1')",
    "SELECT 1.10 IN (SELECT 1.1::DOUBLE)",
    "SELECT '2024-01-01'::DATE IN (SELECT '2024-01-01')",
    "SELECT count(*) FROM numbers(3) WHERE number IN (SELECT '1')",
    "SELECT count(*) FROM numbers(3) WHERE number NOT IN (SELECT '1')",
    "SELECT d FROM d WHERE d IN (SELECT f FROM a) ORDER BY d",
    "SELECT d FROM d WHERE d NOT IN (SELECT f FROM a) ORDER BY d",
    "SELECT d FROM dt WHERE d IN (SELECT '2024-02-29') ORDER BY d",
    "SELECT count(*) FROM dt WHERE d NOT IN (SELECT '2024-02-29')",
    "SELECT n FROM u WHERE n IN (SELECT 18446744073709551615) ORDER BY n",
    "SELECT n FROM u WHERE n IN (SELECT '9223372036854775808') ORDER BY n",
    "SELECT n FROM u ORDER BY n",
    "SELECT n, count(*) FROM u GROUP BY n ORDER BY n",
    "SELECT count(*) FROM u AS a JOIN u AS b ON a.n = b.n",
    # -0.0: equal to 0.0 in comparisons
    "SELECT -0.0::DOUBLE = 0.0::DOUBLE",
    "SELECT count(*) FROM (SELECT -0.0::DOUBLE AS z UNION ALL SELECT 0.0::DOUBLE) WHERE z IN (0.0, 5)",
    "SELECT -0.0::DOUBLE < 0.0::DOUBLE, -0.0::DOUBLE <= 0.0::DOUBLE, -0.0::DOUBLE <> 0.0::DOUBLE",
    # -0.0: one value here in grouping, DISTINCT, joins and set operations too (on purpose: 1.2.453
    # hashes it apart from 0.0 though `=` finds them equal)
    "SELECT count(DISTINCT x) FROM (SELECT -0.0::DOUBLE AS x UNION ALL SELECT 0.0::DOUBLE)",
    "SELECT count(*) FROM (SELECT x FROM (SELECT -0.0::DOUBLE AS x UNION ALL SELECT 0.0::DOUBLE) GROUP BY x)",
    "SELECT count(*) FROM (SELECT -0.0::DOUBLE AS x) AS a JOIN (SELECT 0.0::DOUBLE AS y) AS b ON a.x = b.y",
    "SELECT count(*) FROM (SELECT -0.0::DOUBLE AS x INTERSECT SELECT 0.0::DOUBLE)",
    # NaN in comparison operators: equal to itself, greater than every other float (+inf included)
    "SELECT 'nan'::DOUBLE = 'nan'::DOUBLE, 'nan'::DOUBLE <> 'nan'::DOUBLE, 'nan'::DOUBLE < 'nan'::DOUBLE,"
    " 'nan'::DOUBLE <= 'nan'::DOUBLE, 'nan'::DOUBLE > 'nan'::DOUBLE, 'nan'::DOUBLE >= 'nan'::DOUBLE",
    "SELECT 'nan'::DOUBLE > 1, 'nan'::DOUBLE < 1, 'nan'::DOUBLE > 'inf'::DOUBLE, 1 < 'nan'::DOUBLE,"
    " 'nan'::DOUBLE = 1, 'nan'::DOUBLE <> 1",
    "SELECT 'nan'::FLOAT = 'nan'::FLOAT, 'nan'::FLOAT > 1::FLOAT, 'nan'::FLOAT > 'nan'::DOUBLE",
    "SELECT 'nan'::DOUBLE = 'nan', 'nan'::DOUBLE > 1::DECIMAL(5, 2), 'nan'::DOUBLE > 10000000000",
    "SELECT x, x = 'nan'::DOUBLE, x > 2, x < 2, x <= 'nan'::DOUBLE, x >= 'nan'::DOUBLE, x <> 'nan'::DOUBLE"
    " FROM f ORDER BY x",
    "SELECT k, x, x = 'nan'::DOUBLE, x > 2, x < 2, x >= 'nan'::DOUBLE, x <> 'nan'::DOUBLE FROM gn ORDER BY k, x",
    "SELECT count(*) FROM f WHERE x > 2",
    "SELECT count(*) FROM f WHERE x = x",
    "SELECT count(*) FROM gn WHERE x >= 3",
    "SELECT count_if(x > 1) FROM f",
    "SELECT count(*) FROM f WHERE x BETWEEN 1 AND 'nan'::DOUBLE",
    "SELECT count(*) FROM f WHERE x NOT BETWEEN 0 AND 3",
    "SELECT 'nan'::DOUBLE BETWEEN 1 AND 'inf'::DOUBLE, 'nan'::DOUBLE BETWEEN 1 AND 'nan'::DOUBLE",
    "SELECT 'nan'::DOUBLE IN ('nan'::DOUBLE, 1), 'nan'::DOUBLE NOT IN ('nan'::DOUBLE, 1), 'nan'::DOUBLE IN (1, 2)",
    "SELECT count(*) FROM f WHERE x IN ('nan'::DOUBLE, 1)",
    "SELECT count(*) FROM f WHERE x NOT IN ('nan'::DOUBLE, 1)",
    "SELECT count(*) FROM gn WHERE x IN ('nan'::DOUBLE, 2)",
    "SELECT x, x IN (x, 1) FROM f ORDER BY x",
    "SELECT x, CASE x WHEN 'nan'::DOUBLE THEN 'n' WHEN 1 THEN 'one' ELSE 'other' END FROM f ORDER BY x",
    "SELECT x, CASE WHEN x > 3 THEN 'big' ELSE 'small' END FROM f ORDER BY x",
    "SELECT nullif('nan'::DOUBLE, 'nan'::DOUBLE), if('nan'::DOUBLE = 'nan'::DOUBLE, 1, 0)",
    "SELECT [1.0, 'nan'::DOUBLE] = [1.0, 'nan'::DOUBLE], ('nan'::DOUBLE, 1) = ('nan'::DOUBLE, 1)",
    # joins' residual conditions
    "SELECT count(*) FROM f AS a JOIN f AS b ON a.x = b.x AND a.x >= b.x",
    "SELECT count(*) FROM f AS a JOIN f AS b ON a.x < b.x",
    "SELECT count(*) FROM f AS a LEFT JOIN g AS b ON a.x = b.x AND b.x > 1",
    "SELECT 'nan'::DOUBLE = ANY (SELECT x FROM g), 'nan'::DOUBLE > ANY (SELECT x FROM g)",
    "SELECT count(*) FROM f WHERE x > ALL (SELECT x FROM g WHERE k = 2)",
    # greatest / least, arg_max / arg_min, window MIN / MAX
    "SELECT greatest(1, 'nan'::DOUBLE, 3), least(1, 'nan'::DOUBLE, 3), greatest('nan'::DOUBLE, 1),"
    " least('nan'::DOUBLE, 'nan'::DOUBLE)",
    "SELECT x, greatest(x, 2), least(x, 2) FROM f ORDER BY x",
    "SELECT i % 2 AS p, arg_max(i, x), arg_min(i, x) FROM s GROUP BY p ORDER BY p",
    "SELECT k, arg_max(k, x), arg_min(x, k) FROM g GROUP BY k ORDER BY k",
    "SELECT k, x, min(x) OVER (PARTITION BY k), max(x) OVER (PARTITION BY k) FROM g ORDER BY k, x",
    "SELECT k, x, max(x) OVER (PARTITION BY k ORDER BY x), min(x) OVER (ORDER BY x DESC) FROM g ORDER BY k, x",
    "SELECT x, max(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM f ORDER BY x",
    "SELECT k, x, max(x) OVER (PARTITION BY k ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),"
    " min(x) OVER (PARTITION BY k) FROM gn ORDER BY k, x",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle-python", default=os.environ.get("ORACLE_PYTHON"))
    args = parser.parse_args()
    if not args.oracle_python:
        raise SystemExit("give --oracle-python (an interpreter with `pip install databend pyarrow`)")
    answers = oracle_answers(args.oracle_python, SETUP + CASES)
    refused = [(sql, a) for sql, a in zip(SETUP, answers, strict=False) if "error" in a]
    if refused:
        raise SystemExit(f"the oracle refused the setup: {refused}")
    cases = [{"sql": sql, "databend": answer}
             for sql, answer in zip(CASES, answers[len(SETUP):], strict=True) if "panic" not in answer]
    GOLDEN.write_text(json.dumps({"setup": SETUP, "cases": cases}, indent=1) + "\n")
    print(f"recorded {len(cases)} answers in {GOLDEN.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

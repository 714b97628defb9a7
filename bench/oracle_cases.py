"""Generated cases for the differential tester (bench.oracle): one table of every supported
scalar type with edge values and NULLs, and random queries over typed expression templates
(arithmetic, comparisons, logic, CASE, casts, string, numeric, date, hash and conditional
functions, VARIANT access, arrays, 64-bit arithmetic at its edges, and GROUP BY aggregates), plus
fixed cases of the features a template cannot vary (bitmaps, PIVOT, windows, grouping sets).
Deterministic for a seed."""

from __future__ import annotations

import random

SETUP = [
    "CREATE TABLE t (id INT, g INT, i8 TINYINT, i32 INT, u16 SMALLINT UNSIGNED, i64 BIGINT, "
    "f DOUBLE, dec DECIMAL(10, 2), s VARCHAR, b BOOLEAN, d DATE, ts TIMESTAMP, r FLOAT, "
    "v VARIANT NULL, arr ARRAY(INT NULL) NULL)",
    "INSERT INTO t VALUES "
    "(1, 1, 1, 10, 7, 100, 1.5, 12.34, 'apple', true, '2024-01-31', '2024-01-31 10:20:30', 0.1, "
    "parse_json('{\"n\":5,\"s\":\"x\",\"a\":[1,2]}'), [1, NULL, 3]), "
    "(2, 1, -3, -20, 0, -7, -2.25, -0.5, 'Banana', false, '2024-02-29', '2024-02-29 23:59:59', -2.5, "
    "parse_json('[1,2,\"3\"]'), []), "
    "(3, 2, NULL, 5, 12, NULL, 0.0, NULL, 'cherry pie', NULL, NULL, NULL, NULL, NULL, NULL), "
    "(4, 2, 127, NULL, 65535, 9000, NULL, 99.99, NULL, true, '1999-12-31', '1999-12-31 00:00:00', 3.25, "
    "parse_json('\"str\"'), [7]), "
    "(5, 3, -128, 2147483647, NULL, -9000, 3.75, 0.01, '', false, '2000-02-28', '2000-02-28 12:00:00', 1e6, "
    "parse_json('{\"n\":-9223372036854775808,\"s\":\"\",\"f\":2.5}'), [2147483647, 1]), "
    "(6, 3, 0, 0, 1, 0, -0.5, 1.00, 'x', true, '2023-12-31', NULL, 0.3, "
    "parse_json('{\"n\":1.5,\"s\":null}'), [NULL]), "
    "(7, 1, 42, -2147483648, 300, 123456789, 1e10, -12.30, 'a%b_c', NULL, '2024-06-15', '2024-06-15 06:07:08', -0.7, "
    "parse_json('true'), [-5, 0, 5]), "
    "(8, 2, 5, 77, 5, 55, 2.5, 3.14, 'Zebra', false, '2024-03-01', '2024-03-01 00:00:01', 12.5, "
    "parse_json('{\"n\":\"12\",\"a\":[]}'), [100, 200])",
    "CREATE TABLE sales (empid INT, amount INT, month VARCHAR)",
    "INSERT INTO sales VALUES (1, 10000, 'JAN'), (1, 400, 'JAN'), (2, 4500, 'JAN'), (2, 35000, 'JAN'), "
    "(1, 5000, 'FEB'), (1, 3000, 'FEB'), (2, 200, 'FEB'), (2, 90500, 'FEB'), (1, 6000, 'MAR'), (3, NULL, 'MAR')",
    "CREATE TABLE quarters (id INT, q1 INT, q2 INT, q3 INT)",
    "INSERT INTO quarters VALUES (1, 10, 20, NULL), (2, -5, 0, 7)",
]

NUMERIC_COLUMNS = ["i8", "i32", "u16", "i64", "f", "dec", "g", "r"]
SMALL_INTS = ["0", "1", "2", "3", "-1", "10"]

# templates: the kind of value they give -> list of (template, kinds of the holes)
TEMPLATES = {
    "num": [
        ("{0} + {1}", "nn"), ("{0} - {1}", "nn"), ("{0} * {1}", "nn"), ("{0} / {1}", "nn"),
        ("{0} % 3", "n"), ("-{0}", "n"), ("abs({0})", "n"), ("round({0})", "n"),
        ("round({0}, {1})", "ni"), ("floor({0})", "n"), ("ceil({0})", "n"),
        ("truncate({0}, 1)", "n"), ("sign({0})", "n"), ("coalesce({0}, {1})", "nn"),
        ("ifnull({0}, 0)", "n"), ("if({0}, {1}, {2})", "bnn"), ("nullif({0}, {1})", "nn"),
        ("CASE WHEN {0} THEN {1} ELSE {2} END", "bnn"), ("length({0})", "s"),
        ("to_year({0})", "d"), ("to_month({0})", "d"), ("to_day_of_month({0})", "d"),
        ("to_day_of_week({0})", "d"), ("to_hour({0})", "t"), ("CAST({0} AS BIGINT)", "n"),
        ("CAST({0} AS DOUBLE)", "n"), ("{0} DIV 2", "n"), ("greatest({0}, {1})", "nn"),
        ("least({0}, {1})", "nn"), ("crc32({0})", "s"), ("ascii({0})", "s"),
        ("octet_length({0})", "s"), ("locate('a', {0})", "s"), ("{0}", "n"),
        # VARIANT access, arrays and 64-bit arithmetic at its edges (Databend wraps)
        ("{0}:n::BIGINT", "v"), ("TRY_CAST({0}:n AS INT)", "v"), ("{0}[0]::INT", "v"),
        ("{0}['a'][1]::INT", "v"), ("array_length({0})", "a"), ("array_sum({0})", "a"),
        ("{0}[1]", "a"), ("array_max({0})", "a"), ("array_min({0})", "a"),
        ("{0} * 9223372036854775807", "k"), ("{0} + 9223372036854775000", "k"),
        ("{0} - 9223372036854775000", "k"), ("{0} * 4611686018427387904", "k"),
    ],
    "str": [
        ("upper({0})", "s"), ("lower({0})", "s"), ("concat({0}, {1})", "ss"), ("{0} || {1}", "ss"),
        ("substring({0}, 2, 3)", "s"), ("trim({0})", "s"), ("reverse({0})", "s"),
        ("left({0}, 2)", "s"), ("right({0}, 3)", "s"), ("lpad({0}, 6, '*')", "s"),
        ("replace({0}, 'a', 'A')", "s"), ("to_string({0})", "n"), ("coalesce({0}, 'none')", "s"),
        ("md5({0})", "s"), ("repeat({0}, 2)", "s"), ("CAST({0} AS VARCHAR)", "n"),
        ("to_string({0})", "d"), ("CAST({0} AS VARCHAR)", "b"), ("{0}", "s"),
        ("if({0}, {1}, 'no')", "bs"), ("split_part({0}, 'a', 1)", "s"), ("space(2) || {0}", "s"),
        ("{0}:s::STRING", "v"), ("json_typeof({0})", "v"), ("to_string({0})", "v"),
        ("CAST({0} AS VARCHAR)", "r"), ("to_string({0} * 2)", "r"),
    ],
    "bool": [
        ("{0} < {1}", "nn"), ("{0} = {1}", "nn"), ("{0} >= {1}", "nn"), ("{0} <> {1}", "ss"),
        ("{0} LIKE 'a%'", "s"), ("{0} NOT LIKE '%e%'", "s"), ("{0} AND {1}", "bb"),
        ("{0} OR {1}", "bb"), ("NOT {0}", "b"), ("{0} IS NULL", "n"), ("{0} IS NOT NULL", "s"),
        ("{0} BETWEEN -5 AND 50", "n"), ("{0} IN (1, 5, 127, 0)", "n"), ("{0} < {1}", "dd"),
        ("{0}", "b"), ("is_object({0})", "v"), ("is_array({0})", "v"), ("{0}:n IS NULL", "v"),
    ],
    "date": [
        ("add_days({0}, 1)", "d"), ("add_months({0}, 1)", "d"), ("to_start_of_month({0})", "d"),
        ("{0} + 3", "d"), ("to_date({0})", "t"), ("{0}", "d"),
    ],
    "ts": [
        ("to_start_of_day({0})", "t"), ("add_hours({0}, 5)", "t"), ("to_start_of_hour({0})", "t"),
        ("{0}", "t"),
    ],
}
# holes of kinds without templates of their own (i, v, a, r, k) always take a leaf; k: an integer
# column (Databend 1.2.453's sums of floats and decimals near 2**64 are off by 2**64)
_LEAVES = {"n": NUMERIC_COLUMNS, "s": ["s"], "b": ["b"], "d": ["d"], "t": ["ts"], "i": SMALL_INTS,
           "v": ["v"], "a": ["arr"], "r": ["r"], "k": ["i8", "i32", "u16", "i64", "g"]}
_HOLE_KIND = {"n": "num", "s": "str", "b": "bool", "d": "date", "t": "ts"}


def expression(rng: random.Random, kind: str, depth: int) -> str:
    """A random expression of `kind` (num, str, bool, date, ts), nested at most `depth`."""
    if depth <= 0:
        leaf = {"num": "n", "str": "s", "bool": "b", "date": "d", "ts": "t"}[kind]
        return rng.choice(_LEAVES[leaf])
    template, holes = rng.choice(TEMPLATES[kind])
    args = []
    for hole in holes:
        if hole not in _HOLE_KIND:
            args.append(rng.choice(_LEAVES[hole]))
        elif rng.random() < 0.55:
            args.append(rng.choice(_LEAVES[hole]))
        else:
            args.append(f"({expression(rng, _HOLE_KIND[hole], depth - 1)})")
    return template.format(*args)


def queries(count: int, seed: int) -> list[str]:
    """`count` SELECTs (rows of expressions ordered by id, and some aggregations by group), then
    the fixed cases."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        if rng.random() < 0.2:
            measure = expression(rng, "num", 1)
            out.append(f"SELECT g, count(*) AS c0, sum({measure}) AS c1, min({measure}) AS c2, "
                       f"max({measure}) AS c3 FROM t GROUP BY g ORDER BY g")
            continue
        kinds = [rng.choice(["num", "num", "str", "bool", "date", "ts"]) for _ in range(2)]
        items = ", ".join(f"{expression(rng, k, rng.randint(1, 2))} AS c{i}" for i, k in enumerate(kinds))
        out.append(f"SELECT id, {items} FROM t ORDER BY id")
    return out + FIXED


# Fixed cases beside the generated ones: features whose shape a template cannot vary much
# (bitmaps, PIVOT / UNPIVOT, windows, grouping sets, named tuples, 64-bit sums that wrap).
FIXED = [
    "SELECT bitmap_count(to_bitmap('1,2,3,3')), bitmap_contains(to_bitmap('1,5'), 5), "
    "bitmap_max(build_bitmap([4, 9, 2])), bitmap_min(build_bitmap([4, 9, 2]))",
    "SELECT to_string(bitmap_or(to_bitmap('1,2'), to_bitmap('2,3'))), "
    "to_string(bitmap_and(to_bitmap('1,2'), to_bitmap('2,3'))), "
    "to_string(bitmap_xor(to_bitmap('1,2'), to_bitmap('2,3'))), "
    "to_string(bitmap_not(to_bitmap('1,2'), to_bitmap('2,3')))",
    "SELECT bitmap_has_all(to_bitmap('1,2,3'), to_bitmap('1,3')), bitmap_has_any(to_bitmap('1'), to_bitmap('2'))",
    "SELECT to_string(bitmap_subset_limit(to_bitmap('1,4,7,9'), 3, 2)), "
    "to_string(bitmap_subset_in_range(to_bitmap('1,4,7,9'), 4, 9)), "
    "to_string(sub_bitmap(to_bitmap('1,4,7,9'), 1, 2))",
    "SELECT g, bitmap_count(bitmap_union(to_bitmap(u16))), bitmap_or_count(to_bitmap(u16)) "
    "FROM t WHERE u16 IS NOT NULL GROUP BY g ORDER BY g",
    "SELECT to_bitmap('1,a')",
    "SELECT g, sum(i64 * 1000000000000000), avg(i64 * 1000000000000000) FROM t GROUP BY g ORDER BY g",
    "SELECT sum(9223372036854775807 + i8) FROM t",
    "SELECT -(-9223372036854775807 - 1)",
    "SELECT 9223372036854775807 + 1, i64 + 9223372036854775807 FROM t ORDER BY id",
    "SELECT i64 DIV 7, i64 % 7, i64 // 7 FROM t ORDER BY id",
    "SELECT * FROM sales PIVOT (sum(amount) FOR month IN ('JAN', 'FEB', 'MAR')) ORDER BY empid",
    "SELECT * FROM sales PIVOT (count(amount) FOR month IN ('JAN', 'FEB')) ORDER BY empid",
    "SELECT * FROM quarters UNPIVOT (amount FOR quarter IN (q1, q2, q3)) ORDER BY id, quarter",
    "SELECT id, row_number() OVER (PARTITION BY g ORDER BY id), rank() OVER (ORDER BY g), "
    "sum(i32) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t ORDER BY id",
    "SELECT id, lag(s, 1, 'none') OVER (ORDER BY id), lead(i8) OVER (ORDER BY id), "
    "first_value(s) OVER (PARTITION BY g ORDER BY id), ntile(3) OVER (ORDER BY id) FROM t ORDER BY id",
    "SELECT g, b, count(*), GROUPING(g), GROUPING(b) FROM t GROUP BY ROLLUP (g, b) ORDER BY g, b",
    "SELECT g, count(*) FROM t GROUP BY CUBE (g) ORDER BY g",
    "SELECT CAST((1, 'x') AS TUPLE(a INT, b STRING)):a, CAST((1, 'x') AS TUPLE(a INT, b STRING))['b']",
    "SELECT id, arr[1] + 1, array_sum(arr) * 2, array_length(arr) FROM t ORDER BY id",
    "SELECT id, v:a[0]::INT, v['s']::STRING, json_typeof(v:a) FROM t ORDER BY id",
    "SELECT to_string(CAST(0.1 AS FLOAT)), CAST(CAST(1.5 AS FLOAT) AS VARCHAR), CAST(r AS VARCHAR) FROM t ORDER BY id",
    "SELECT round(-0.4), round(-0.4::DOUBLE), truncate(-0.4::DOUBLE), round(-4, -1)",
    "SELECT arg_min(s, i32), arg_max(s, i32), median(i32), stddev_pop(i32), count_if(b), sum_if(i32, b) FROM t",
    "SELECT g, arg_min(s, id), quantile_cont(0.5)(i32), covar_pop(i32, i8) FROM t GROUP BY g ORDER BY g",
    "SELECT string_agg(s, '-') WITHIN GROUP (ORDER BY s) FROM t",
    "SELECT id, i32 IS DISTINCT FROM i8, i8 IS NOT DISTINCT FROM NULL FROM t ORDER BY id",
]

"""The engine benchmark's workload: deterministic data, the SQL queries and their hand-written Python floors.

Tables
  t  (big):  id INT, grp INT (0..99), val DOUBLE, name VARCHAR, flag BOOLEAN
  d  (dim):  gid INT (0..999), label VARCHAR, weight DOUBLE     -- 1,000 rows
  t2 (insert target): same columns as t, starts empty
  ev (events): id INT, ts TIMESTAMP, d DATE, attrs VARIANT -- derived from t (see gen_events)

Every SELECT has a "floor": the same computation in plain idiomatic Python over lists of
tuples (comprehensions, sorted/heapq, dict-based GROUP BY), roughly the best a pure-Python
engine could reach. The data, queries and floors are those of the project's performance
anchors (perf/workload.py), so figures stay comparable with them. Standard library only.
"""
from __future__ import annotations

import ast
import datetime
import heapq
import json
import random
from itertools import accumulate
from operator import itemgetter

SEED = 20240601
WORDS = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
    "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa",
]
T_COLS = ("id", "grp", "val", "name", "flag")
D_COLS = ("gid", "label", "weight")

T_DDL = "CREATE TABLE t (id INTEGER, grp INTEGER, val DOUBLE, name VARCHAR, flag BOOLEAN)"
T2_DDL = "CREATE TABLE t2 (id INTEGER, grp INTEGER, val DOUBLE, name VARCHAR, flag BOOLEAN)"
D_DDL = "CREATE TABLE d (gid INTEGER, label VARCHAR, weight DOUBLE)"


def gen_big(n: int, seed: int = SEED) -> list[tuple]:
    """n rows of (id, grp, val, name, flag).

    name = WORD-k with k uniform in [0, n/4): ~0.25*n distinct names (high
    cardinality), used for LIKE / DISTINCT / GROUP BY name.
    val  = uniform [0, 1000) full double (no ties, so ORDER BY val is total).
    """
    rng = random.Random(seed)
    kmax = max(1, n // 4)
    rows = []
    for i in range(n):
        k = rng.randrange(kmax)
        rows.append((
            i,
            rng.randrange(100),
            rng.random() * 1000.0,
            f"{WORDS[k % 16]}-{k}",
            rng.random() < 0.5,
        ))
    return rows


def gen_dim(seed: int = SEED + 1) -> list[tuple]:
    rng = random.Random(seed)
    return [(g, f"label{g:04d}", round(rng.random() * 2.0, 4)) for g in range(1000)]


# --------------------------------------------------------------------------
# SELECT workload.  kind: "ordered" results are compared in order, others as
# multisets.  floor(t, d) -> list of tuples.
# --------------------------------------------------------------------------

def _f_scan_filter(t, d):
    return [(r[0], r[3], r[2]) for r in t if r[1] < 10]


def _f_project(t, d):
    return [(r[0], r[2] * 2 + 1, r[0] % 7, r[2] / (r[1] + 1)) for r in t]


def _f_agg_all(t, d):
    vals = [r[2] for r in t]
    n = len(vals)
    s = sum(vals)
    return [(n, s, s / n, min(vals), max(vals))]


def _f_group_low(t, d):
    acc: dict = {}
    for r in t:
        v = r[2]
        a = acc.get(r[1])
        if a is None:
            acc[r[1]] = [1, v, v, v]
        else:
            a[0] += 1
            a[1] += v
            if v < a[2]:
                a[2] = v
            if v > a[3]:
                a[3] = v
    return [(g, c, s, s / c, mn, mx) for g, (c, s, mn, mx) in acc.items()]


def _f_group_high(t, d):
    acc: dict = {}
    for r in t:
        a = acc.get(r[3])
        if a is None:
            acc[r[3]] = [1, r[2]]
        else:
            a[0] += 1
            a[1] += r[2]
    return [(k, c, s) for k, (c, s) in acc.items()]


def _f_topk(t, d):
    return [(r[0], r[2]) for r in heapq.nlargest(10, t, key=itemgetter(2))]


def _f_sort_full(t, d):
    return [(r[0], r[2]) for r in sorted(t, key=itemgetter(2))]


def _f_join(t, d):
    dim = {r[0]: r for r in d}
    out = []
    for r in t:
        m = dim.get(r[1])
        if m is not None:
            out.append((r[0], m[1], r[2] * m[2]))
    return out


def _f_like(t, d):
    # name LIKE '%a-1%'  ==  substring test
    return [(r[0], r[3]) for r in t if "a-1" in r[3]]


def _f_distinct(t, d):
    return [(x,) for x in {r[3] for r in t}]


def _f_count_filter(t, d):
    return [(sum(1 for r in t if r[4] and r[2] > 500.0),)]


def _f_window_rank(t, d):
    parts: dict = {}
    for r in t:
        parts.setdefault(r[1], []).append(r)
    out = []
    for rows in parts.values():
        rows.sort(key=itemgetter(2))
        out.extend([(r[0], r[1], i) for i, r in enumerate(rows, 1)])
    return out


def _f_window_running(t, d):
    rows = sorted(t, key=itemgetter(0))
    return [(r[0], s) for r, s in zip(rows, accumulate(r[2] for r in rows), strict=True)]


# --------------------------------------------------------------------------
# Date workload: table ev (events), derived from t so every engine sees the same rows:
#   ev: id INT, ts TIMESTAMP (2020-01-01 + val * 126,000 s: about four years), d DATE (ts's day),
#       attrs VARIANT (a JSON object {"kind": "k<grp % 7>", "n": <id % 100>}, held as its text)
# --------------------------------------------------------------------------

EV_DDL = "CREATE TABLE ev (id INTEGER, ts TIMESTAMP, d DATE, attrs VARIANT)"
# engines without a VARIANT type keep the JSON text
EV_DDL_TEXT = "CREATE TABLE ev (id INTEGER, ts TIMESTAMP, d DATE, attrs TEXT)"
_EV_START = datetime.datetime(2020, 1, 1)
_EVENTS: dict = {}


def gen_events(t) -> list[tuple]:
    """The ev rows for big table t (computed once per t)."""
    rows = _EVENTS.get(id(t))
    if rows is None or len(rows) != len(t):
        rows = []
        for r in t:
            ts = _EV_START + datetime.timedelta(microseconds=int(r[2] * 126_000_000_000))
            attrs = json.dumps({"kind": f"k{r[1] % 7}", "n": r[0] % 100}, separators=(",", ":"))
            rows.append((r[0], ts, ts.date(), attrs))
        _EVENTS.clear()
        _EVENTS[id(t)] = rows
    return rows


def events_values_row(r) -> str:
    return f"({r[0]}, '{r[1].isoformat(sep=' ')}', '{r[2].isoformat()}', '{r[3]}')"


def _f_date_group(t, d):
    acc: dict = {}
    for r in gen_events(t):
        ts = r[1]
        m = datetime.date(ts.year, ts.month, 1)
        acc[m] = acc.get(m, 0) + 1
    return list(acc.items())


_JAN_2022, _FEB_2022 = datetime.date(2022, 1, 1), datetime.date(2022, 2, 1)


def _f_date_filter(t, d):
    return [(r[0], r[2]) for r in gen_events(t) if _JAN_2022 <= r[2] < _FEB_2022]


def _f_json_access(t, d):
    out = []
    for r in gen_events(t):
        attrs = json.loads(r[3])
        out.append((r[0], attrs["n"], attrs["kind"]))
    return out


QUERIES = [
    dict(name="scan_filter", kind="set", floor=_f_scan_filter,
         sql="SELECT id, name, val FROM t WHERE grp < 10"),
    dict(name="project_arith", kind="set", floor=_f_project,
         sql="SELECT id, val * 2 + 1 AS a, id % 7 AS b, val / (grp + 1) AS c FROM t"),
    dict(name="agg_all", kind="set", floor=_f_agg_all,
         sql="SELECT COUNT(*) AS n, SUM(val) AS s, AVG(val) AS a, MIN(val) AS mn, MAX(val) AS mx FROM t"),
    dict(name="count_filter", kind="set", floor=_f_count_filter,
         sql="SELECT COUNT(*) AS n FROM t WHERE flag AND val > 500.0"),
    dict(name="group_low", kind="set", floor=_f_group_low,
         sql="SELECT grp, COUNT(*) AS n, SUM(val) AS s, AVG(val) AS a, MIN(val) AS mn, MAX(val) AS mx "
             "FROM t GROUP BY grp"),
    dict(name="group_high", kind="set", floor=_f_group_high,
         sql="SELECT name, COUNT(*) AS n, SUM(val) AS s FROM t GROUP BY name"),
    dict(name="topk", kind="ordered", floor=_f_topk,
         sql="SELECT id, val FROM t ORDER BY val DESC LIMIT 10"),
    dict(name="sort_full", kind="ordered", floor=_f_sort_full,
         sql="SELECT id, val FROM t ORDER BY val"),
    dict(name="join_dim", kind="set", floor=_f_join,
         sql="SELECT t.id, d.label, t.val * d.weight AS w FROM t JOIN d ON t.grp = d.gid"),
    dict(name="like", kind="set", floor=_f_like,
         sql="SELECT id, name FROM t WHERE name LIKE '%a-1%'"),
    dict(name="distinct", kind="set", floor=_f_distinct,
         sql="SELECT DISTINCT name FROM t"),
    dict(name="window_rank", kind="set", floor=_f_window_rank,
         sql="SELECT id, grp, ROW_NUMBER() OVER (PARTITION BY grp ORDER BY val) AS rn FROM t"),
    dict(name="window_running", kind="set", floor=_f_window_running,
         sql="SELECT id, SUM(val) OVER (ORDER BY id) AS running FROM t"),
    dict(name="date_group", kind="set", floor=_f_date_group,
         sql="SELECT to_start_of_month(ts) AS m, COUNT(*) AS n FROM ev GROUP BY to_start_of_month(ts)",
         sqlite_sql="SELECT date(ts, 'start of month') AS m, COUNT(*) AS n FROM ev GROUP BY 1",
         duckdb_sql="SELECT CAST(date_trunc('month', ts) AS DATE) AS m, COUNT(*) AS n FROM ev GROUP BY 1"),
    dict(name="date_filter", kind="set", floor=_f_date_filter,
         sql="SELECT id, d FROM ev WHERE d >= '2022-01-01' AND d < '2022-02-01'"),
    # two key reads of a VARIANT per row, each cast; the floor parses each row's JSON once
    dict(name="json_access", kind="set", floor=_f_json_access,
         sql="SELECT id, attrs:n::INT AS n, attrs:kind::STRING AS kind FROM ev",
         sqlite_sql="SELECT id, CAST(json_extract(attrs, '$.n') AS INTEGER), "
                    "json_extract(attrs, '$.kind') FROM ev",
         duckdb_sql="SELECT id, CAST(attrs->>'$.n' AS INTEGER), attrs->>'$.kind' FROM ev"),
]

# Queries also run at 1,000,000 rows (scan / aggregate family).
BIG_QUERIES = ["scan_filter", "agg_all", "count_filter", "group_low", "like"]


# --------------------------------------------------------------------------
# INSERT workload (target table t2).
# --------------------------------------------------------------------------

def _lit(v) -> str:
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return repr(v)


def values_row(r) -> str:
    return "(" + ", ".join(_lit(v) for v in r) + ")"


def insert_bulk_sql(rows) -> str:
    """One INSERT statement with a VALUES list of all rows."""
    return "INSERT INTO t2 VALUES " + ", ".join(values_row(r) for r in rows)


def insert_single_sqls(rows) -> list[str]:
    """One INSERT statement per row."""
    return ["INSERT INTO t2 VALUES " + values_row(r) for r in rows]


_PYLIT = {"TRUE": "True", "FALSE": "False"}


def floor_insert(sql: str, table: list) -> int:
    """Python floor for INSERT ... VALUES: hand-written fast path that turns
    the VALUES text into tuples with ast.literal_eval (C tokenizer/parser) and
    appends them.  Not a general SQL parser -- a lower bound on parse+append."""
    i = sql.index(" VALUES ") + 8
    body = sql[i:].replace("TRUE", "True").replace("FALSE", "False")
    vals = ast.literal_eval("[" + body + "]")
    table.extend(vals)
    return len(vals)


# --------------------------------------------------------------------------
# Result normalisation for cross-engine checks.
# --------------------------------------------------------------------------

def _norm_val(v):
    if isinstance(v, datetime.date):  # dates and times compare as ISO text (sqlite keeps text)
        return v.isoformat(sep=" ") if isinstance(v, datetime.datetime) else v.isoformat()
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return int(v)
        return float(f"{v:.6g}")
    if hasattr(v, "__float__") and not isinstance(v, (int, str)):  # Decimal
        return _norm_val(float(v))
    return v


def normalise(rows, kind: str):
    out = [tuple(_norm_val(v) for v in r) for r in rows]
    if kind != "ordered":
        out.sort(key=repr)
    return out

"""Per-record outcomes of bench.dbsuite and the comparison of two engines' outcomes.

    python -m bench.dbsuite -j 2 -q --outcomes-out ours.json
    python -m bench.dbsuite -j 2 -q --engine databend --outcomes-out databend.json
    python -m bench.dbsuite --compare ours.json databend.json

An outcomes file is JSON: ``{"engine": ..., "records": {"dir/file.test:line": "pass" | "fail"
| "skip"}, "failures": {key: {"cause", "detail", "sql"}}}``. The comparison answers the issue's
question: of the records the embedded Databend passes, how many queryhttp passes (skipped ones
count as not passed), per directory, and which it fails, grouped by cause.
"""

from __future__ import annotations

import collections
import json
import os
import sys


def write_outcomes(path, results, engine):
    """Write the outcomes of bench.dbsuite's per-file results."""
    records, failures = {}, {}
    for r in results:
        records.update(r.get("outcomes", {}))
        for f in r["failures"]:
            key = f.get("key") or f"{f['file']}:{f['line']}"
            records.setdefault(key, "fail")
            failures[key] = {"cause": f["cause"], "detail": f["detail"], "sql": f["sql"]}
    with open(path, "w") as fh:
        json.dump({"engine": engine, "records": dict(sorted(records.items())),
                   "failures": failures}, fh, indent=0)


def load_outcomes(path):
    with open(path) as fh:
        return json.load(fh)


def directory_of_key(key):
    return os.path.dirname(key.split(">")[0].rsplit(":", 1)[0]) or "."


def compare(ours, theirs):
    """{directory: Counter(theirs_pass, pass, fail, skip, missing)} and the records Databend
    passes that queryhttp fails or skips, as {cause: [key, ...]}."""
    table = collections.defaultdict(collections.Counter)
    lost = collections.defaultdict(list)
    our_records, our_failures = ours["records"], ours.get("failures", {})
    for key, outcome in theirs["records"].items():
        if outcome != "pass":
            continue
        counts = table[directory_of_key(key)]
        counts["theirs_pass"] += 1
        mine = our_records.get(key, "missing")
        counts[mine] += 1
        if mine == "fail":
            lost[our_failures.get(key, {}).get("cause", "unknown")].append(key)
        elif mine != "pass":
            lost[f"({mine} here)"].append(key)
    return table, lost


def _rate(n, d):
    return f"{100.0 * n / d:.1f}%" if d else "-"


def print_comparison(ours, theirs, top=25, out=None):
    out = out or sys.stdout
    table, lost = compare(ours, theirs)
    theirs_all = collections.Counter(theirs["records"].values())
    ours_all = collections.Counter(ours["records"].values())
    total_records = len(theirs["records"])
    print(f"# Databend ({theirs.get('engine')}) passes {theirs_all['pass']} of {total_records} "
          f"records ({_rate(theirs_all['pass'], total_records)}); queryhttp passes "
          f"{ours_all['pass']} of {len(ours['records'])}", file=out)
    print("\n| directory | Databend passes | queryhttp passes them | fails | skips | "
          "rate |", file=out)
    print("|---|---:|---:|---:|---:|---:|", file=out)
    whole = collections.Counter()
    for name in sorted(table):
        whole.update(table[name])
    for name in sorted(table) + ["total"]:
        t = whole if name == "total" else table[name]
        print(f"| {name} | {t['theirs_pass']} | {t['pass']} | {t['fail']} | "
              f"{t['skip'] + t['missing']} | {_rate(t['pass'], t['theirs_pass'])} |", file=out)
    both_fail = sum(1 for k, v in theirs["records"].items()
                    if v != "pass" and ours["records"].get(k) == "pass")
    print(f"\nqueryhttp passes {both_fail} records the embedded Databend does not pass.",
          file=out)
    print(f"\n## Records Databend passes that queryhttp does not, by cause "
          f"({sum(map(len, lost.values()))})\n", file=out)
    failures = ours.get("failures", {})
    for cause, keys in sorted(lost.items(), key=lambda kv: -len(kv[1]))[:top]:
        example = failures.get(keys[0], {})
        sql = " ".join(example.get("sql", "").split())[:110]
        print(f"- {len(keys)} × {cause}" + (f" — e.g. `{sql}`" if sql else ""), file=out)
        print("    " + " ".join(keys[:30]) + (" …" if len(keys) > 30 else ""), file=out)
    if len(lost) > top:
        rest = sorted(lost.items(), key=lambda kv: -len(kv[1]))[top:]
        print(f"- … {sum(len(k) for _, k in rest)} more records in {len(rest)} causes", file=out)
    return whole


def compare_main(ours_path, theirs_path, top=25):
    whole = print_comparison(load_outcomes(ours_path), load_outcomes(theirs_path), top)
    return 0 if whole["pass"] == whole["theirs_pass"] else 1

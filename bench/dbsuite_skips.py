"""Records of Databend's suite that need what queryhttp leaves out, each rule with its reason.

Only what the project leaves out on purpose (README, Status): Fuse storage internals, the
enterprise edition, external storage and connections, and the system tables of a cluster.
A record is skipped when its SQL matches a rule; it still counts among the suite's records.
"""

from __future__ import annotations

import re

# (pattern searched in a record's SQL, case-insensitive; the reason reported)
RULES: list[tuple[str, str]] = [
    (r"\bfuse_(snapshot|segment|block|column|statistic|encoding|page|time_travel_size|"
     r"dump_snapshots|vacuum|amend|tag)\w*\s*\(", "Fuse internals (fuse_* table functions)"),
    (r"^\s*(optimize\s+table|vacuum\b|alter\s+table\s+\S+\s+recluster|select\s+.*\bclustering_information\s*\()",
     "Fuse internals (compaction, vacuum, clustering)"),
    (r"\b(at|before)\s*\(\s*(snapshot|timestamp|stream|offset)\s*=>", "Fuse time travel"),
    (r"\b(virtual\s+column|aggregating\s+index|inverted\s+index|ngram\s+index|"
     r"masking\s+policy|row\s+access\s+policy|storage\s+quota)\b", "enterprise feature"),
    (r"^\s*(create|drop|show|desc|describe)\s+(or\s+replace\s+)?connections?\b|\bconnection\s*=\s*\(|"
     # a web address only as a location or endpoint: in a string function it is plain text
     r"'(s3|azblob|gcs|oss|cos|hdfs|webhdfs|ipfs)://|\b(url|endpoint_url|location)\s*=\s*'https?://|\b(from|into)\s+'https?://",
     "external storage or connection"),
    (r"^\s*attach\s+table\b", "external storage (ATTACH TABLE)"),
    (r"\bsystem\.(metrics|clusters|caches|locks|backtrace|malloc_stats\w*|temp_files|"
     r"queries_profiling|query_cache|background_\w+|notification\w*)\b",
     "system table of the cluster"),
    (r"^\s*set\s+sandbox_tenant\b", "multi-tenant cluster setting"),
]

_COMPILED = [(re.compile(p, re.I | re.S | re.M), reason) for p, reason in RULES]


# CREATE FUNCTION ... LANGUAGE python | javascript: a script UDF, which the project leaves out
# (README): the records that call one are skipped, the CREATE itself runs (it is accepted)
_SCRIPT_UDF = re.compile(r"^\s*create\s+(?:or\s+replace\s+)?function\s+(?:if\s+not\s+exists\s+)?"
                         r"[`\"]?(\w+)[`\"]?.*\blanguage\s+(?:python|javascript)\b", re.I | re.S)
SCRIPT_UDF_REASON = "JavaScript or Python UDF"


def script_udf_name(sql: str) -> str | None:
    """The name a record's CREATE FUNCTION gives a script UDF, or None."""
    m = _SCRIPT_UDF.search(sql)
    return m.group(1).lower() if m else None


def calls_any(sql: str, names: set) -> bool:
    """Whether the SQL calls one of `names` (a word followed by an opening parenthesis)."""
    return any(m.group(1).lower() in names for m in re.finditer(r"\b(\w+)\s*\(", sql))


def skip_reason(sql: str) -> str | None:
    """The reason a record is not run, or None when it runs."""
    for pattern, reason in _COMPILED:
        if pattern.search(sql):
            return reason
    return None

"""sqllogictest format: record parsing, sqllogictest-style value rendering and result comparison.

Adapted from the project's conformance kit runner (slt_runner.py, a stdlib implementation
written from the format description in SQLite's sqllogictest about.wiki): only the parts an
in-process engine needs. The rules are the kit's: NULL -> "NULL"; I truncates reals toward
zero; R is SQLite's printf("%.3f"); T prints text, "(empty)" for "" and "@" for bytes outside
printable ASCII; rowsort/valuesort compare rendered strings; large results hash with MD5.
"""

from __future__ import annotations

import decimal
import hashlib
import re
import sqlite3

HASH_RE = re.compile(r"^(\d+) values hashing to ([0-9a-fA-F]{32})$")
INDEX_DDL_RE = re.compile(r"^\s*(CREATE\s+(UNIQUE\s+)?INDEX|DROP\s+INDEX|REINDEX)\b", re.I)


class Record:
    """One record of a script; kind is 'statement', 'query', 'hash-threshold', 'halt' or
    'unknown'."""

    __slots__ = ("kind", "line", "conds", "expect_ok", "sql", "types", "sortmode", "label",
                 "expected", "arg", "header")

    def __init__(self, kind, line, conds, header):
        self.kind = kind
        self.line = line
        self.conds = conds          # [('skipif'|'onlyif', engine name)]
        self.header = header        # tokens of the header line
        self.expect_ok = True
        self.sql = ""
        self.types = ""
        self.sortmode = "nosort"
        self.label = None
        self.expected = None        # result lines
        self.arg = None


def _logical_lines(text):
    """(lineno, line) with comments removed and blank lines turned into ''."""
    for n, raw in enumerate(text.split("\n"), 1):
        if raw.endswith("\r"):
            raw = raw[:-1]
        if raw.strip() == "":
            yield n, ""
        elif not raw.startswith("#"):
            yield n, raw


def parse_records(text):
    """Yield the Records of a script's text (records are separated by blank lines)."""
    block = []
    for n, line in _logical_lines(text):
        if line == "":
            if block:
                yield _make_record(block)
                block = []
        else:
            block.append((n, line))
    if block:
        yield _make_record(block)


def _make_record(block):
    conds = []
    i = 0
    while i < len(block):
        toks = block[i][1].split()
        if toks and toks[0] in ("skipif", "onlyif"):
            conds.append((toks[0], toks[1] if len(toks) > 1 else ""))
            i += 1
        else:
            break
    if i >= len(block):
        return Record("unknown", block[-1][0], conds, [])
    lineno, header = block[i]
    toks = header.split()
    body = [text for _, text in block[i + 1:]]
    kind = toks[0] if toks else ""
    if kind == "statement":
        rec = Record("statement", lineno, conds, toks)
        rec.expect_ok = not (len(toks) > 1 and toks[1] == "error")
        if len(toks) > 1 and toks[1] not in ("ok", "error"):
            rec.kind = "unknown"
        rec.sql = "\n".join(body)
        return rec
    if kind == "query":
        rec = Record("query", lineno, conds, toks)
        rec.types = toks[1] if len(toks) > 1 else ""
        rec.sortmode = toks[2] if len(toks) > 2 else "nosort"
        rec.label = toks[3] if len(toks) > 3 else None
        sql, expected, seen_sep = [], [], False
        for text in body:
            if not seen_sep and text == "----":
                seen_sep = True
            elif seen_sep:
                expected.append(text)
            else:
                sql.append(text)
        rec.sql = "\n".join(sql)
        rec.expected = expected
        return rec
    if kind == "hash-threshold":
        rec = Record("hash-threshold", lineno, conds, toks)
        try:
            rec.arg = int(toks[1])
        except (IndexError, ValueError):
            rec.arg = 0
        return rec
    if kind == "halt":
        return Record("halt", lineno, conds, toks)
    return Record("unknown", lineno, conds, toks)


def record_applies(rec, engine):
    """False when a skipif/onlyif prefix excludes the record for this engine name."""
    engine = engine.lower()
    for kind, name in rec.conds:
        match = name.lower() == engine
        if (kind == "skipif" and match) or (kind == "onlyif" and not match):
            return False
    return True


def split_statements(sql):
    """Split a record's SQL on top-level ';' (outside quotes and comments)."""
    if ";" not in sql:
        return [sql]
    parts, buf, i, n = [], [], 0, len(sql)
    while i < n:
        c = sql[i]
        if c in "'\"`[":
            close = "]" if c == "[" else c
            j = i + 1
            while j < n:
                if sql[j] == close:
                    if close != "]" and j + 1 < n and sql[j + 1] == close:
                        j += 2
                        continue
                    break
                j += 1
            buf.append(sql[i:j + 1])
            i = j + 1
            continue
        if sql.startswith("--", i):
            j = sql.find("\n", i)
            j = n if j < 0 else j
            buf.append(sql[i:j])
            i = j
            continue
        if sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            j = n if j < 0 else j + 2
            buf.append(sql[i:j])
            i = j
            continue
        if c == ";":
            parts.append("".join(buf))
            buf = []
        else:
            buf.append(c)
        i += 1
    parts.append("".join(buf))
    parts = [p.strip() for p in parts if p.strip()]
    return parts or [sql]


# --------------------------------------------------------------------------- rendering

_NUM_PREFIX = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_INT_PREFIX = re.compile(r"^\s*([-+]?\d+)")


def sqlite_printf_3f(x):
    """SQLite's printf("%.3f", x): round half up to 3 decimals, at most 16 significant
    digits (so -9223372036854775808.0 prints as -9223372036854776000.000)."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Inf" if x > 0 else "-Inf"
    if x == 0.0:
        return "0.000"
    sign = "-" if x < 0 else ""
    d = decimal.Decimal(abs(x))
    int_digits = d.adjusted() + 1
    q = decimal.Decimal(1).scaleb(int_digits - 16) if int_digits + 3 > 16 \
        else decimal.Decimal("0.001")
    with decimal.localcontext() as ctx:
        ctx.prec = 400
        r = d.quantize(q, rounding=decimal.ROUND_HALF_UP).quantize(decimal.Decimal("0.001"))
    return sign + format(r, "f")


def _float_to_int(f):
    if f != f:
        return 0
    if f >= 9.223372036854775e18:
        return 9223372036854775807
    if f <= -9.223372036854775e18:
        return -9223372036854775808
    return int(f)


def render_text(s):
    if s == "":
        return "(empty)"
    if all(" " <= c <= "~" for c in s):
        return s
    b = s.encode("utf-8", "surrogateescape")
    return "".join(chr(c) if 32 <= c <= 126 else "@" for c in b)


class Formatter:
    """Renders typed Python values as the reference (SQLite-driven) runner does."""

    def __init__(self):
        self._sqlite = None
        self._real_cache = {}
        self._text_cache = {}

    def real(self, x):
        if x == 0.0:
            return "0.000"
        s = self._real_cache.get(x)
        if s is None:
            s = sqlite_printf_3f(x)
            if len(self._real_cache) < 200_000:
                self._real_cache[x] = s
        return s

    def float_text(self, x):
        """The text SQLite gives a REAL (for REAL values in T columns)."""
        s = self._text_cache.get(x)
        if s is None:
            if x != x:
                s = "NaN"
            else:
                if self._sqlite is None:
                    self._sqlite = sqlite3.connect(":memory:")
                s = self._sqlite.execute("SELECT CAST(? AS TEXT)", (x,)).fetchone()[0]
            if len(self._text_cache) < 200_000:
                self._text_cache[x] = s
        return s

    def render(self, v, t):
        """One value in a column of type letter t ('I', 'R' or 'T')."""
        if v is None:
            return "NULL"
        if isinstance(v, bytes):
            v = v.decode("utf-8", "surrogateescape")
        if isinstance(v, decimal.Decimal):
            if t == "T":
                return render_text(str(v))
            v = float(v)
        if t == "I":
            if isinstance(v, int):           # bool included
                return str(int(v))
            if isinstance(v, float):
                return str(_float_to_int(v))
            m = _INT_PREFIX.match(str(v))
            return str(int(m.group(1))) if m else "0"
        if t == "R":
            if isinstance(v, (int, float)):
                return self.real(float(v))
            m = _NUM_PREFIX.match(str(v))
            return self.real(float(m.group(1))) if m else "0.000"
        if isinstance(v, bool):
            return str(int(v))
        if isinstance(v, int):
            return str(v)
        if isinstance(v, float):
            return self.float_text(v)
        return render_text(str(v))


def md5_values(values):
    h = hashlib.md5()
    for v in values:
        h.update(v.encode("utf-8", "surrogateescape"))
        h.update(b"\n")
    return h.hexdigest()


def sort_results(rec, values):
    """Apply the record's sort mode to a flat list of rendered values."""
    ncol = len(rec.types) or 1
    if rec.sortmode == "rowsort":
        rows = [values[i:i + ncol] for i in range(0, len(values), ncol)]
        rows.sort()
        return [v for r in rows for v in r]
    if rec.sortmode == "valuesort":
        return sorted(values)
    return values


def compare(rec, actual):
    """None if the rendered, sorted values match the record, else (mismatch kind, detail)."""
    exp = rec.expected or []
    if len(exp) == 1:
        m = HASH_RE.match(exp[0])
        if m:
            n, h = int(m.group(1)), m.group(2).lower()
            got = md5_values(actual)
            if n == len(actual) and h == got:
                return None
            if n != len(actual):
                return ("row count", f"expected {n} values, got {len(actual)}")
            return ("values (hashed)", f"{n} values, hash {got} instead of {h}")
    if exp == actual:
        return None
    ncol = len(rec.types)
    if ncol > 1 and len(actual) == len(exp) * ncol:  # row-per-line layout
        rows = [" ".join(actual[i:i + ncol]) for i in range(0, len(actual), ncol)]
        if [" ".join(e.split()) for e in exp] == rows:
            return None
    if len(exp) != len(actual):
        return ("row count", f"expected {len(exp)} values, got {len(actual)}")
    for i, (e, a) in enumerate(zip(exp, actual, strict=True)):
        if e != a:
            return ("values", f"value {i} differs: expected [{e}] got [{a}]")
    return ("values", "results differ")

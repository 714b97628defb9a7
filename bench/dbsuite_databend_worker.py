"""Runs one sqllogictest file's SQL in the embedded Databend engine for ``bench.dbsuite --engine databend``.

    DATABEND_PYTHON -m bench.dbsuite_databend_worker SCRATCH_DIR

Runs under the oracle's own Python (the ``databend`` wheel and pyarrow; nothing of queryhttp's
engine is imported). It opens one ``databend.SessionContext`` in SCRATCH_DIR (the embedded engine
keeps its ``.databend/`` in the working directory), then reads one JSON line per SQL text on stdin
and answers one JSON line each: ``{"rows": [[cell, ...], ...]}`` with every cell the string
current Databend's HTTP handler puts in its JSON page, which the suite's files expect
(``FieldEncoderToString``: booleans ``1``/``0``, floats in shortest form with ``.0`` or a
signed exponent, strings quoted with ``"`` only inside arrays, maps and tuples, VARIANT as JSON
text, binary as upper-case hex; see ``Renderer``), or
``{"error": [code, message]}``, or ``{"panic": text}`` when the engine panicked. The parent
(bench.dbsuite_databend) enforces the per-record time limit and survives the worker's crashes.
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import re
import struct
import sys

# --------------------------------------------------------------------------- numbers


def _shortest_digits(value, single):
    """(digits, exponent) of the shortest text that reads back as the positive `value` (as an
    f32 when single): value == 0.<digits> * 10**exponent."""
    text = repr(value)
    if single:
        packed = struct.pack("<f", value)
        for precision in range(0, 9):
            text = f"{value:.{precision}e}"
            if struct.pack("<f", float(text)) == packed:
                break
    _, digits, exp = decimal.Decimal(text).normalize().as_tuple()
    text_digits = "".join(map(str, digits))
    return text_digits, len(text_digits) + exp


def http_float(value, single=False):
    """A float as current Databend's HTTP handler writes it (the zmij crate's format_finite):
    shortest digits, ``4.0``, ``609788441794.1339``, ``-1e-6``, ``1.0234567899999998e+81``
    (ryu's layout with a signed positive exponent); ``NaN``, ``Infinity``, ``-Infinity``."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    text = ryu_float(value, single)
    mantissa, e, exponent = text.partition("e")
    return f"{mantissa}e+{exponent}" if e and not exponent.startswith("-") else text


def ryu_float(value, single=False):
    """A float as the ryu crate's ``format`` prints it (jsonb's numbers): ``1.5``, ``4.0``,
    ``1e20``, ``1.5e-7``."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    sign = "-" if value < 0 or str(value).startswith("-") else ""
    if value == 0:
        return sign + "0.0"
    digits, kk = _shortest_digits(abs(value), single)
    n = len(digits)
    k = kk - n
    if 0 <= k and kk <= 16:
        return f"{sign}{digits}{'0' * k}.0"
    if 0 < kk <= 16:
        return f"{sign}{digits[:kk]}.{digits[kk:]}"
    if -5 < kk <= 0:
        return f"{sign}0.{'0' * -kk}{digits}"
    if n == 1:
        return f"{sign}{digits}e{kk - 1}"
    return f"{sign}{digits[0]}.{digits[1:]}e{kk - 1}"


# --------------------------------------------------------------------------- jsonb

_JSON_ESCAPES = {0x5C: "\\\\", 0x22: '\\"', 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n",
                 0x0D: "\\r", 0x09: "\\t"}


def _json_string(raw):
    out = []
    for byte_text in raw.decode("utf-8", "replace"):
        out.append(_JSON_ESCAPES.get(ord(byte_text), byte_text))
    return '"' + "".join(out) + '"'


def _jsonb_number(raw):
    tag, body = raw[0], raw[1:]
    if tag == 0x00:
        return "0"
    if tag == 0x10:
        return "NaN"
    if tag == 0x20:
        return "inf"
    if tag == 0x30:
        return "-inf"
    if tag in (0x40, 0x50):
        return str(int.from_bytes(body, "big", signed=tag == 0x40))
    return ryu_float(struct.unpack(">d", body)[0])


def _jsonb_scalar(data, entry, start):
    kind, length = entry & 0x70000000, entry & 0x0FFFFFFF
    if kind == 0x00000000:
        return "null"
    if kind == 0x40000000:
        return "true"
    if kind == 0x30000000:
        return "false"
    if kind == 0x20000000:
        return _jsonb_number(data[start:start + length])
    if kind == 0x10000000:
        return _json_string(data[start:start + length])
    return _jsonb_container(data, start)


def _jsonb_container(data, offset):
    header = struct.unpack_from(">I", data, offset)[0]
    kind, count = header & 0xE0000000, header & 0x1FFFFFFF
    if kind == 0x20000000:
        return _jsonb_scalar(data, struct.unpack_from(">I", data, offset + 4)[0], offset + 8)
    entries = struct.unpack_from(f">{count * (2 if kind == 0x40000000 else 1)}I", data, offset + 4)
    position = offset + 4 + 4 * len(entries)
    if kind == 0x80000000:
        items = []
        for entry in entries:
            items.append(_jsonb_scalar(data, entry, position))
            position += entry & 0x0FFFFFFF
        return "[" + ",".join(items) + "]"
    keys = []
    for entry in entries[:count]:
        keys.append(_json_string(data[position:position + (entry & 0x0FFFFFFF)]))
        position += entry & 0x0FFFFFFF
    items = []
    for key, entry in zip(keys, entries[count:], strict=True):
        items.append(f"{key}:{_jsonb_scalar(data, entry, position)}")
        position += entry & 0x0FFFFFFF
    return "{" + ",".join(items) + "}"


def jsonb_text(data):
    """jsonb::to_string of a VARIANT value (the jsonb crate's binary form)."""
    if not data:
        return "null"
    if data[0] not in (0x80, 0x40, 0x20):
        return data.decode("utf-8", "replace")
    try:
        return _jsonb_container(data, 0)
    except (struct.error, IndexError, ValueError):
        return ""


# --------------------------------------------------------------------------- cells


def _quoted(text):
    return '"' + text.replace('"', '\\"') + '"'


class Renderer:
    """Cell text of arrow values, as current Databend's HTTP handler writes a column
    (FieldEncoderToString): what the suite's files expect, so that where the 1.2.453 engine
    fails a record it is for its answer, not for its older wire format (1.2.453 quoted nested
    strings with ' and nested VARIANT values, and wrote floats with the lexical crate)."""

    def __init__(self):
        self.timezone = None          # None: UTC; else a zoneinfo.ZoneInfo

    def column(self, field):
        """A function (python value) -> cell text for one result column."""
        write = self._writer(field.type, field.metadata or {})
        return lambda value: "NULL" if value is None else write(value, False)

    def _writer(self, arrow_type, metadata):
        import pyarrow as pa  # noqa: PLC0415 - the oracle's environment has it

        extension = (metadata.get(b"Extension") or b"").decode()
        t = pa.types

        def text(s, nested):
            return _quoted(s) if nested else s

        if t.is_null(arrow_type):
            return (lambda v, nested: "{}") if extension == "EmptyMap" else (lambda v, n: "NULL")
        if t.is_boolean(arrow_type):
            return lambda v, nested: "1" if v else "0"
        if t.is_integer(arrow_type):
            return lambda v, nested: str(v)
        if t.is_float32(arrow_type):
            return lambda v, nested: http_float(v, single=True)
        if t.is_floating(arrow_type):
            return lambda v, nested: http_float(v)
        if t.is_decimal(arrow_type):
            return lambda v, nested: format(v, "f")
        if t.is_string(arrow_type) or t.is_large_string(arrow_type):
            return text
        if t.is_binary(arrow_type) or t.is_large_binary(arrow_type):
            if extension == "Variant":
                return lambda v, nested: jsonb_text(v)
            if extension == "Bitmap":
                return lambda v, nested: text("<bitmap binary>", nested)
            return lambda v, nested: v.hex().upper()   # Geometry too: not rendered here
        if t.is_date(arrow_type):
            return lambda v, nested: text(v.isoformat(), nested)
        if t.is_timestamp(arrow_type):
            return lambda v, nested: text(self._timestamp(v), nested)
        if t.is_map(arrow_type):
            key = self._writer(arrow_type.key_type, arrow_type.key_field.metadata or {})
            item = self._writer(arrow_type.item_type, arrow_type.item_field.metadata or {})
            return lambda v, nested: "{" + ",".join(
                f"{_nested(key, k)}:{_nested(item, x)}" for k, x in v) + "}"
        if t.is_list(arrow_type) or t.is_large_list(arrow_type):
            child = arrow_type.value_field
            inner = self._writer(child.type, child.metadata or {})
            return lambda v, nested: "[" + ",".join(_nested(inner, x) for x in v) + "]"
        if t.is_struct(arrow_type):
            fields = [arrow_type.field(i) for i in range(arrow_type.num_fields)]
            inners = [self._writer(f.type, f.metadata or {}) for f in fields]
            return lambda v, nested: "(" + ",".join(
                _nested(w, x) for w, x in zip(inners, v.values(), strict=True)) + ")"
        return lambda v, nested: text(str(v), nested)

    def _timestamp(self, value):
        if self.timezone is not None:
            value = value.replace(tzinfo=datetime.UTC).astimezone(self.timezone)
        return f"{value.year:04d}-{value:%m-%d %H:%M:%S.%f}"


def _nested(write, value):
    return "NULL" if value is None else write(value, True)


# --------------------------------------------------------------------------- the session

_ERROR = re.compile(r"Code: (\d+), Text = (.*)", re.S)
_BACKTRACE = re.compile(r"\n\s*\n\s+0: .*", re.S)


def error_of(exc):
    """(code, message) of the wheel's exception text, its backtrace and final '.' removed."""
    text = str(exc)
    match = _ERROR.search(text)
    if not match:
        return 1001, text.strip()
    message = _BACKTRACE.sub("", match.group(2)).rstrip()
    if message.endswith("."):
        message = message[:-1].rstrip()
    return int(match.group(1)), message


class Session:
    """One SessionContext and the renderer following its time zone."""

    def __init__(self):
        import databend  # noqa: PLC0415 - only in the oracle's environment

        self.context = databend.SessionContext()
        self.renderer = Renderer()

    def run(self, sql):
        frame = self.context.sql(sql)
        rows = []
        for batch in frame.to_py_arrow():      # collecting is what executes the statement
            writers = [self.renderer.column(f) for f in batch.schema]
            columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
            rows.extend([w(v) for w, v in zip(writers, row, strict=True)]
                        for row in zip(*columns, strict=True))
        if re.match(r"\s*(set|unset)\b", sql, re.I):
            self._follow_timezone()
        return rows

    def _follow_timezone(self):
        import zoneinfo  # noqa: PLC0415

        batches = self.context.sql("SELECT timezone()").to_py_arrow()
        name = batches[0].column(0).to_pylist()[0] if batches else "UTC"
        try:
            self.renderer.timezone = None if name == "UTC" else zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            self.renderer.timezone = None


def answer(session, sql):
    """The JSON answer to one SQL text."""
    try:
        return {"rows": session.run(sql)}
    except Exception as exc:  # noqa: BLE001 - an error is an answer
        return {"error": list(error_of(exc))}
    except BaseException as exc:  # a Rust panic: pyo3's PanicException is a BaseException
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        return {"panic": str(exc)[:300]}


def main(argv):
    os.chdir(argv[1])
    session = Session()
    out = sys.stdout
    print(json.dumps({"ready": True}), file=out, flush=True)
    for line in sys.stdin:
        sql = json.loads(line)["sql"]
        print(json.dumps(answer(session, sql)), file=out, flush=True)


if __name__ == "__main__":
    main(sys.argv)

"""Parsing and validation of a QueryRequest body (POST /v1/query): strict UTF-8 JSON, typed fields.

Bodies: UTF-8 JSON only. A leading UTF-8 byte order mark is refused (400), as Databend's
decoder (serde_json) refuses it; so are UTF-16 and UTF-32 documents (which Python's json
would otherwise sniff and accept), invalid UTF-8, and strings holding lone surrogates
(`"\\ud800"`, not encodable as UTF-8).

Every field a client may send has a type, checked here as serde checks Databend's
HttpQueryRequest; a wrong type is a 400 naming the field and what it must be. As there, `null`
is refused where Databend's field is not an Option (`pagination`, its three fields,
`string_fields`, `session.need_sticky`, `session.need_keep_alive`), and integers must fit
its types (`wait_time_secs` a u32, the row counts a u64). Unknown keys are ignored (clients echo the real server's session object).
`pagination.wait_time_secs` must be a non-negative integer (JSON floats such as 1.5 or 1e400
are refused); values above the server's --max_wait_secs are clamped by the app, not refused.
"""

from __future__ import annotations

import codecs
import json
from dataclasses import dataclass, field

from engine import SYNTAX, StageAttachment
from web.errors import BadRequest, FailedToStart


@dataclass(slots=True)
class QueryRequest:
    sql: str
    session: dict = field(default_factory=dict)  # the request's session object, as sent
    session_id: str = ""  # a kept server-side session to reuse
    database: str | None = None
    settings: dict[str, str] = field(default_factory=dict)
    keep_secs: int = 0
    wait_secs: int | None = None  # None: the format's default
    page_rows: int | None = None
    buffer_rows: int | None = None
    attachment: object = None  # engine.StageAttachment of `stage_attachment`, if sent
    nulls_as_text: bool = False  # render NULL as the text NULL unless the session says otherwise
    params: list | dict | None = None  # `params`: values of the SQL's `?` (array) or `:name` (object)
    arrow_result_version_max: int | None = None  # the client's highest Arrow result version
    arrow_features: dict | None = None  # `arrow_features` ({"decimal64": bool}), if sent
    arrow: object = None  # the web.arrow_pages.ArrowEncoding the query negotiated (app sets it)


_UTF16_32_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE,
                  codecs.BOM_UTF16_BE)


def _show(value) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1


def _int(value, name: str, minimum: int, maximum: int = U64_MAX) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        kind = "a positive" if minimum > 0 else "a non-negative"
        bound = f" up to {maximum}" if isinstance(value, int) and value > maximum else ""
        raise BadRequest(f"parse error: `{name}` must be {kind} integer{bound}, "
                         f"not {_show(value)}")
    return value


def _text(value, name: str) -> str:
    """A JSON string that is valid Unicode (no lone surrogates from \\u escapes)."""
    if not isinstance(value, str):
        raise BadRequest(f"parse error: `{name}` must be a string, not {_show(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise BadRequest(f"parse error: `{name}` is not valid UTF-8: a lone surrogate "
                         f"\\u{ord(value[e.start]):04x} at character {e.start}") from None
    return value


def _optional(kind, value, name: str):
    return None if value is None else kind(value, name)


def _object(value, name: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadRequest(f"parse error: `{name}` must be an object, not {_show(value)}")
    return value


def _bool(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise BadRequest(f"parse error: `{name}` must be true or false, not {_show(value)}")
    return value


def _text_list(value, name: str) -> list:
    if not isinstance(value, list):
        raise BadRequest(f"parse error: `{name}` must be a list of strings, not {_show(value)}")
    for item in value:
        _text(item, f"{name}[]")
    return value


def _txn_state(value, name: str) -> str:
    """A session's txn_state: one of Databend's three (web.transactions reads it)."""
    _text(value, name)
    if value not in ("AutoCommit", "Active", "Fail"):
        raise BadRequest(f"parse error: `{name}` must be AutoCommit, Active or Fail, not {_show(value)}")
    return value


# Fields of the session object the real server defines, other than database and settings
# (which are read below): checked for their type only, then echoed back as sent.
_SESSION_FIELDS = {"id": _text, "catalog": _text, "role": _text, "txn_state": _txn_state,
                   "internal": _text, "need_sticky": _bool, "need_keep_alive": _bool,
                   "secondary_roles": _text_list}


def decode_body(body: bytes) -> str:
    """The body as text: UTF-8 (a leading BOM ignored); anything else is a 400."""
    if body.startswith(codecs.BOM_UTF8):
        raise BadRequest("parse error: the body starts with a byte order mark (UTF-8 JSON "
                         "without one is expected)")
    if body.startswith(_UTF16_32_BOMS) or b"\x00" in body[:4]:
        raise BadRequest("parse error: the body must be UTF-8 JSON (UTF-16 and UTF-32 are "
                         "not accepted)")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadRequest(f"parse error: the body is not valid UTF-8 (byte "
                         f"0x{body[e.start]:02x} at offset {e.start})") from None


# json's scanner, called directly for a body that is one object with nothing around it (what
# clients send): json.loads adds two regular-expression matches and three Python calls
_scan_once = json.JSONDecoder().scan_once


def parse_json(body: bytes):
    """The JSON document of a request body; BadRequest (400) when it is not UTF-8 JSON."""
    text = decode_body(body)
    if text[:1] == "{" and text[-1:] == "}":
        try:
            doc, end = _scan_once(text, 0)
        except (ValueError, StopIteration, RecursionError):
            pass  # json.loads says why, below
        else:
            if end == len(text):
                return doc
    try:
        return json.loads(text)
    except ValueError as e:
        raise BadRequest(f"parse error: invalid JSON: {e}") from None
    except RecursionError:
        raise BadRequest("parse error: invalid JSON: nested too deeply") from None


def parse_query_request(body: bytes) -> QueryRequest:
    doc = parse_json(body)
    if not isinstance(doc, dict):
        raise BadRequest("parse error: the body must be a JSON object (a QueryRequest)")
    if "sql" not in doc:
        raise BadRequest("parse error: missing field `sql`")
    request = QueryRequest(_text(doc["sql"], "sql"))
    session = doc.get("session")
    if session is not None:  # absent or null: no session fields (the request's is {})
        _read_session(request, session)
    session = request.session
    session_id = _optional(_text, doc.get("session_id"), "session_id") or session.get("id")
    if session_id:
        request.session_id = session_id

    if "pagination" in doc and doc["pagination"] is None:  # a struct with a default in Databend
        raise BadRequest("parse error: `pagination` must be an object, not null")
    pagination = _object(doc.get("pagination"), "pagination")
    if "wait_time_secs" in pagination:
        request.wait_secs = _int(pagination["wait_time_secs"], "pagination.wait_time_secs", 0,
                                 U32_MAX)
    if "max_rows_per_page" in pagination:
        request.page_rows = _int(pagination["max_rows_per_page"],
                                 "pagination.max_rows_per_page", 1)
    if "max_rows_in_buffer" in pagination:
        request.buffer_rows = _int(pagination["max_rows_in_buffer"],
                                   "pagination.max_rows_in_buffer", 0)
    if len(doc) > 2 or "pagination" not in doc:  # more than sql and pagination: the rest
        _read_options(request, doc)
    return request


def _read_session(request: QueryRequest, value) -> None:
    """The request's `session` object: its fields checked, database, settings and kept-session
    seconds read."""
    session = _object(value, "session")
    request.session = session
    for name, kind in _SESSION_FIELDS.items():
        if name not in session:  # absent is null (most requests send none of them)
            continue
        if kind is _bool:  # a plain bool in Databend: null is refused
            _bool(session[name], f"session.{name}")
        else:
            _optional(kind, session[name], f"session.{name}")
    for name in ("database", "db"):
        database = _optional(_text, session.get(name), f"session.{name}")
        if database is not None:
            request.database = database or None
            break
    settings = _object(session.get("settings"), "session.settings")
    for key, value in settings.items():
        _text(key, "session.settings key")
        if not isinstance(value, str):
            raise BadRequest(f"parse error: setting `{key}` must be a string, "
                             f"not {_show(value)}")
        _text(value, f"session.settings.{key}")
    request.settings = settings
    if session.get("keep_server_session_secs") is not None:
        request.keep_secs = _int(session["keep_server_session_secs"],
                                 "session.keep_server_session_secs", 0)


def _read_options(request: QueryRequest, doc: dict) -> None:
    """The fields other than sql, session and pagination."""
    if "string_fields" in doc:
        _bool(doc["string_fields"], "string_fields")
    if doc.get("stage_attachment") is not None:
        request.attachment = _stage_attachment(doc["stage_attachment"])
    if doc.get("params") is not None:
        request.params = _params(doc["params"])
    if doc.get("arrow_result_version_max") is not None:  # an Option<u64> in Databend
        request.arrow_result_version_max = _int(doc["arrow_result_version_max"],
                                                "arrow_result_version_max", 0)
    if doc.get("arrow_features") is not None:
        request.arrow_features = _arrow_features(doc["arrow_features"])


def _arrow_features(value) -> dict:
    """`arrow_features`: {"decimal64": true | false | null} (web.arrow_pages reads it)."""
    features = _object(value, "arrow_features")
    if features.get("decimal64") is not None:
        _bool(features["decimal64"], "arrow_features.decimal64")
    return features


def _params(value):
    """`params` (databend-driver >= 0.34): a JSON array binds the SQL's `?` in order, an object
    its `:name`s; the values are JSON values, bound by engine.bind.params."""
    if not isinstance(value, (list, dict)):
        raise BadRequest(f"parse error: `params` must be an array or an object, not {_show(value)}")
    return value


def _options(value, name: str) -> dict[str, str]:
    """An options object of a stage attachment: names and values as strings (clients send
    either case, and numbers or booleans where Databend documents strings)."""
    options = _object(value, name)
    out = {}
    for key, item in options.items():
        _text(key, f"{name} key")
        if not isinstance(item, (str, int, float, bool)):
            raise BadRequest(f"parse error: `{name}.{key}` must be a string, not {_show(item)}")
        out[key] = str(item).lower() if isinstance(item, bool) else str(item)
    return out


def _stage_attachment(value):
    """`stage_attachment`: {"location": "@~/path", "file_format_options": {...},
    "copy_options": {...}}."""
    doc = _object(value, "stage_attachment")
    location = doc.get("location")
    if location is None:
        raise BadRequest("parse error: missing field `stage_attachment.location`")
    return StageAttachment(_text(location, "stage_attachment.location"),
                           _options(doc.get("file_format_options"),
                                    "stage_attachment.file_format_options"),
                           _options(doc.get("copy_options"), "stage_attachment.copy_options"))


def check_sql_size(sql: str, limit: int) -> None:
    """Refuse SQL longer than `limit` UTF-8 bytes (the max_sql_bytes limit) before any parsing:
    a Failed answer with the engine's code for the same limit (1005)."""
    size = sql_bytes(sql, limit)
    if size > limit:
        raise FailedToStart(SYNTAX, f"SQL text is {size} bytes, larger than the "
                                           f"max_sql_bytes limit ({limit} bytes)")


def sql_bytes(sql: str, bound: int) -> int:
    """The UTF-8 size of `sql`, or a smaller number when it is surely at most `bound` (a
    character is at most 4 bytes: short texts are not encoded)."""
    if len(sql) * 4 <= bound:
        return len(sql)
    return len(sql.encode("utf-8"))

"""One internal query-answer model, rendered as the seed (spec) or the databend wire format."""

from __future__ import annotations

import json
import json.encoder
from dataclasses import dataclass, field

import engine

SPEC = "spec"
DATABEND = "databend"

RUNNING = "Running"
SUCCEEDED = "Succeeded"
FAILED = "Failed"

_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
_c_encoder = None if json.encoder.c_make_encoder is None else json.encoder.c_make_encoder(
    None, _ENCODER.default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False,
    True)


def _encode(value) -> str:
    """`value` as compact JSON, exactly as JSONEncoder.encode writes it. The C encoder is made
    once here: JSONEncoder.encode makes a new one on every call (~2.5 us of a SELECT 1 answer)."""
    if _c_encoder is None or isinstance(value, str):
        return _ENCODER.encode(value)
    return "".join(_c_encoder(value, 0))
_ZERO_PROGRESS = (0, 0, 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class QueryError:
    code: int
    message: str


@dataclass(slots=True)
class SessionView:
    """A session as the answer echoes it: the request's session with the statement applied."""

    database: str
    settings: dict[str, str]
    request: dict = field(default_factory=dict)  # keys the client sent, echoed verbatim
    keep_secs: int = 0
    txn_state: str = "AutoCommit"  # the session's transaction: AutoCommit, Active or Fail
    internal: str | None = None  # the `internal` text to send instead of the client's
    role: str | None = None  # the engine session's current role (None: the request's, else account_admin)
    temp_tables: bool = False  # the client session keeps temporary tables on this server


@dataclass(slots=True)
class Answer:
    """Everything either format needs to say about one query at one moment."""

    query_id: str  # "" when the query never started
    state: str
    session_id: str = ""
    error: QueryError | None = None
    schema: list = field(default_factory=list)  # engine.Column
    data: list = field(default_factory=list)  # rendered rows
    affect: object = None  # engine.UseDB | engine.ChangeSettings | None
    progress: tuple = _ZERO_PROGRESS  # scan rows/bytes, write rows/bytes, result rows/bytes
    running_time_ms: float = 0.0
    next_page: int | None = None  # the page to ask next; None once no rows remain
    final: bool = False  # the answer to /final: no further hop
    session: SessionView | None = None
    result_timeout_secs: int = 60
    timezone: str = "UTC"  # the zone the rows' Timestamps were written in (the session's)
    node_id: str = ""  # this server's id (clients send it back as X-DATABEND-STICKY-NODE)


def choose_format(setting: str, header_names) -> str:
    """The wire format of one request: forced by the server option, else `databend` for any
    request carrying an X-DATABEND-* header (every real Databend client sends one)."""
    if setting == SPEC or setting == DATABEND:
        return setting
    for name in header_names:
        if name[:11].lower() == b"x-databend-":
            return DATABEND
    return SPEC


def _strip_nullable(type_name: str) -> tuple[str, bool]:
    if type_name.startswith("Nullable(") and type_name.endswith(")"):
        return type_name[9:-1], True
    if type_name.endswith(" NULL"):
        return type_name[:-5], True
    if type_name.upper() == "NULL":
        return type_name, True
    return type_name, False


# Answers are encoded by filling templates: keys and constant values are written once here,
# and only the values of one answer are encoded (json's encoder spends most of its time on
# keys and on building the intermediate dicts).
_str = json.encoder.encode_basestring_ascii  # a JSON string literal, as json.dumps writes it


def _optional_str(value: str | None) -> str:
    return "null" if value is None else _str(value)


def _json_or_null(value) -> str:
    return "null" if value is None else _encode(value)


def _uris(a: Answer) -> tuple[str, str, str, str]:
    """stats_uri, final_uri, kill_uri and the next page's uri, as JSON values."""
    if not a.query_id:
        return "null", "null", "null", "null"
    base = _str("/v1/query/" + a.query_id)[:-1]  # the JSON string without its closing quote
    next_uri = "null" if a.next_page is None else f'{base}/page/{a.next_page}"'
    return base + '"', base + '/final"', base + '/kill"', next_uri


# -- the seed (spec) format ---------------------------------------------------------------------

_SPEC = ('{"id":%s,"session_id":%s,"session":%s,"state":%s,"error":%s,"schema":%s,"data":%s,'
         '"affect":%s,"stats":{"running_time_ms":%r,"scan_progress":{"rows":%d,"bytes":%d},'
         '"write_progress":{"rows":%d,"bytes":%d},"result_progress":{"rows":%d,"bytes":%d}},'
         '"stats_uri":%s,"next_uri":%s,"kill_uri":%s,"final_uri":%s}')
_SPEC_FIELD = '{"name":%s,"data_type":{"type":%s},"nullable":%s,"default_expr":null}'
_SPEC_SCHEMA = '{"fields":[%s],"metadata":{}}'
_SPEC_SESSION = '{"database":%s,"keep_server_session_secs":%d,"settings":%s}'
_SPEC_ERROR = '{"code":%d,"stats":%d,"message":%s,"backtrace":""}'


# The schema's JSON by the id of the engine's column list (the plan cache hands the same list
# to every run of a repeated statement): (the list, a copy of it, spec JSON, databend JSON).
# The copy is compared (by identity first, then by value) before an entry is used, so a list
# changed since, or another list at a recycled id, is encoded anew; bounded by clearing.
_SCHEMA_CACHE: dict[int, list] = {}
_SCHEMA_CACHE_ENTRIES = 256


def _cached_schema(columns: list, encoder, slot: int) -> str:
    if not columns:  # no result set (a failure's answer): a new empty list each time
        return encoder(columns)
    entry = _SCHEMA_CACHE.get(id(columns))
    if entry is None or entry[0] is not columns or entry[1] != columns:
        if len(_SCHEMA_CACHE) >= _SCHEMA_CACHE_ENTRIES:
            _SCHEMA_CACHE.clear()
        entry = _SCHEMA_CACHE[id(columns)] = [columns, list(columns), None, None]
    text = entry[slot]
    if text is None:
        text = entry[slot] = encoder(columns)
    return text


def _spec_schema(columns: list) -> str:
    fields = []
    for column in columns:
        name, nullable = _strip_nullable(column.type)
        fields.append(_SPEC_FIELD % (_str(column.name), _str(name),
                                     "true" if nullable else "false"))
    return _SPEC_SCHEMA % ",".join(fields)


def _spec_affect(affect) -> dict | None:
    if affect is None:
        return None
    if isinstance(affect, engine.UseDB):
        return {"type": "UseDB", "name": affect.name}
    if isinstance(affect, engine.ChangeSettings) and affect.keys:
        return {"type": "ChangeSetting", "key": affect.keys[0], "value": affect.values[0],
                "is_global": affect.is_globals[0]}
    return None


def _spec_session(view: SessionView | None) -> str:
    if view is None:
        return "null"
    settings = _encode(view.settings) if view.settings else "{}"
    return _SPEC_SESSION % (_str(view.database), view.keep_secs, settings)


def _spec_error(error: QueryError | None) -> str:
    if error is None:
        return "null"
    return _SPEC_ERROR % (error.code, error.code, _str(error.message))


def encode_spec(a: Answer) -> bytes:
    stats_uri, final_uri, kill_uri, next_uri = _uris(a)
    return (_SPEC % (_str(a.query_id), _str(a.session_id), _spec_session(a.session),
                     _str(a.state), _spec_error(a.error), _cached_schema(a.schema, _spec_schema, 2),
                     _encode(a.data),
                     _json_or_null(_spec_affect(a.affect)), a.running_time_ms, *a.progress,
                     stats_uri, next_uri, kill_uri, final_uri)).encode()


# -- the databend format ------------------------------------------------------------------------

_DATABEND = ('{"id":%s,"session_id":%s,"node_id":%s,"state":%s,"session":%s,"error":%s,'
             '"warnings":[],"has_result_set":%s,"schema":%s,"data":%s,"affect":%s,'
             '"result_timeout_secs":%d,"settings":%s,"stats":{"scan_progress":{"rows":%d,"bytes":%d},'
             '"write_progress":{"rows":%d,"bytes":%d},"result_progress":{"rows":%d,"bytes":%d},'
             '"total_scan":{"rows":%d,"bytes":%d},"spill_progress":{"file_nums":0,"bytes":0},'
             '"running_time_ms":%r},"stats_uri":%s,"final_uri":%s,"next_uri":%s,"kill_uri":%s}')
_DATABEND_COLUMN = '{"name":%s,"type":%s}'
_DATABEND_ERROR = '{"code":%d,"message":%s}'


def _databend_schema(columns: list) -> str:
    return "[" + ",".join(_DATABEND_COLUMN % (_str(c.name), _str(c.type)) for c in columns) + "]"


def _databend_affect(affect) -> dict | None:
    if isinstance(affect, engine.UseDB):
        return {"type": "UseDB", "name": affect.name}
    if isinstance(affect, engine.ChangeSettings):
        return {"type": "ChangeSettings", "keys": list(affect.keys),
                "values": list(affect.values), "is_globals": list(affect.is_globals)}
    return None


def _databend_session(view: SessionView | None) -> dict | None:
    if view is None:
        return None
    echoed = {k: v for k, v in view.request.items() if k not in ("id", "keep_server_session_secs")}
    echoed.update(
        catalog=view.request.get("catalog") or "default",
        database=view.database,
        role=view.role or view.request.get("role") or "account_admin",
        settings=view.settings,
        txn_state=view.txn_state,
        # an open transaction or temporary tables live on this server: clients route there
        # and heartbeat to keep them
        need_sticky=view.txn_state == "Active" or view.temp_tables,
        need_keep_alive=view.txn_state == "Active" or view.temp_tables,
    )
    if view.internal is not None:
        echoed["internal"] = view.internal
    return echoed


def _databend_settings(timezone: str) -> str:
    """The answer's `settings`, as current Databend sends them: the drivers read Timestamp text in
    `timezone` (UTC when absent), so a session zone must be named or instants come back shifted.
    This server writes Binary as hex, GeoJSON for geometry and the `display` JSON mode."""
    return ('{"timezone":' + _str(timezone) + ',"geometry_output_format":"GeoJSON",'
            '"binary_output_format":"hex","http_json_result_mode":"display"}')


def _databend_error(error: QueryError | None) -> str:
    if error is None:
        return "null"
    return _DATABEND_ERROR % (error.code, _str(error.message))


def encode_databend(a: Answer) -> bytes:
    stats_uri, final_uri, kill_uri, next_uri = _uris(a)
    if a.next_page is None and not a.final:
        next_uri = final_uri
    p = a.progress
    return (_DATABEND % (_str(a.query_id), _str(a.session_id), _str(a.node_id), _str(a.state),
                         _json_or_null(_databend_session(a.session)), _databend_error(a.error),
                         "true" if a.schema else "false",
                         _cached_schema(a.schema, _databend_schema, 3),
                         _encode(a.data), _json_or_null(_databend_affect(a.affect)),
                         a.result_timeout_secs, _databend_settings(a.timezone),
                         *p, p[0], p[1], a.running_time_ms,
                         stats_uri, final_uri, next_uri, kill_uri)).encode()


def encode_answer(fmt: str, answer: Answer) -> bytes:
    return encode_databend(answer) if fmt == DATABEND else encode_spec(answer)


def encode_json(value) -> bytes:
    return _encode(value).encode()


def error_body(fmt: str, code: int, message: str) -> tuple[bytes, bytes]:
    """The body and content type of a non-200 answer: JSON {"error": ...} in the databend
    format, the reason as plain text in the spec format."""
    if fmt == DATABEND:
        return encode_json({"error": {"code": code, "message": message}}), b"application/json"
    return message.encode(), b"text/plain; charset=utf-8"

"""One internal query-answer model, rendered as the seed (spec) or the databend wire format."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import engine

SPEC = "spec"
DATABEND = "databend"

RUNNING = "Running"
SUCCEEDED = "Succeeded"
FAILED = "Failed"

_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
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


def _uris(query_id: str) -> tuple[str | None, str | None, str | None]:
    if not query_id:
        return None, None, None
    base = "/v1/query/" + query_id
    return base, base + "/final", base + "/kill"


def _progress(p: tuple, i: int) -> dict:
    return {"rows": p[i], "bytes": p[i + 1]}


# -- the seed (spec) format ---------------------------------------------------------------------

def _spec_schema(columns: list) -> dict:
    fields = []
    for column in columns:
        name, nullable = _strip_nullable(column.type)
        fields.append({"name": column.name, "data_type": {"type": name},
                       "nullable": nullable, "default_expr": None})
    return {"fields": fields, "metadata": {}}


def _spec_affect(affect) -> dict | None:
    if isinstance(affect, engine.UseDB):
        return {"type": "UseDB", "name": affect.name}
    if isinstance(affect, engine.ChangeSettings) and affect.keys:
        return {"type": "ChangeSetting", "key": affect.keys[0], "value": affect.values[0],
                "is_global": affect.is_globals[0]}
    return None


def _spec_session(view: SessionView | None) -> dict | None:
    if view is None:
        return None
    return {"database": view.database, "keep_server_session_secs": view.keep_secs,
            "settings": view.settings}


def render_spec(a: Answer) -> dict:
    stats_uri, final_uri, kill_uri = _uris(a.query_id)
    error = None
    if a.error is not None:
        error = {"code": a.error.code, "stats": a.error.code, "message": a.error.message,
                 "backtrace": ""}
    p = a.progress
    return {
        "id": a.query_id,
        "session_id": a.session_id,
        "session": _spec_session(a.session),
        "state": a.state,
        "error": error,
        "schema": _spec_schema(a.schema),
        "data": a.data,
        "affect": _spec_affect(a.affect),
        "stats": {"running_time_ms": a.running_time_ms, "scan_progress": _progress(p, 0),
                  "write_progress": _progress(p, 2), "result_progress": _progress(p, 4)},
        "stats_uri": stats_uri,
        "next_uri": None if a.next_page is None else f"{stats_uri}/page/{a.next_page}",
        "kill_uri": kill_uri,
        "final_uri": final_uri,
    }


# -- the databend format ------------------------------------------------------------------------

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
        role=view.request.get("role") or "account_admin",
        settings=view.settings,
        txn_state=view.request.get("txn_state") or "AutoCommit",
        need_sticky=False,
        need_keep_alive=False,
    )
    return echoed


def render_databend(a: Answer) -> dict:
    stats_uri, final_uri, kill_uri = _uris(a.query_id)
    if a.next_page is not None:
        next_uri = f"{stats_uri}/page/{a.next_page}"
    elif a.final:
        next_uri = None
    else:
        next_uri = final_uri
    p = a.progress
    return {
        "id": a.query_id,
        "session_id": a.session_id,
        "node_id": "",
        "state": a.state,
        "session": _databend_session(a.session),
        "error": None if a.error is None else {"code": a.error.code, "message": a.error.message},
        "warnings": [],
        "has_result_set": bool(a.schema),
        "schema": [{"name": c.name, "type": c.type} for c in a.schema],
        "data": a.data,
        "affect": _databend_affect(a.affect),
        "result_timeout_secs": a.result_timeout_secs,
        "stats": {"scan_progress": _progress(p, 0), "write_progress": _progress(p, 2),
                  "result_progress": _progress(p, 4), "total_scan": _progress(p, 0),
                  "spill_progress": {"file_nums": 0, "bytes": 0},
                  "running_time_ms": a.running_time_ms},
        "stats_uri": stats_uri,
        "final_uri": final_uri,
        "next_uri": next_uri,
        "kill_uri": kill_uri,
    }


def encode_answer(fmt: str, answer: Answer) -> bytes:
    render = render_databend if fmt == DATABEND else render_spec
    return _encode(render(answer)).encode()


def encode_json(value) -> bytes:
    return _encode(value).encode()


def error_body(fmt: str, code: int, message: str) -> tuple[bytes, bytes]:
    """The body and content type of a non-200 answer: JSON {"error": ...} in the databend
    format, the reason as plain text in the spec format."""
    if fmt == DATABEND:
        return encode_json({"error": {"code": code, "message": message}}), b"application/json"
    return message.encode(), b"text/plain; charset=utf-8"

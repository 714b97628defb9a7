"""The templated answer encoders write exactly what json.dumps writes for the documented shape."""

import json

import pytest

import engine
from web.wire import (
    DATABEND,
    FAILED,
    RUNNING,
    SPEC,
    SUCCEEDED,
    Answer,
    QueryError,
    SessionView,
    encode_answer,
)


def strip_nullable(type_name):
    if type_name.startswith("Nullable(") and type_name.endswith(")"):
        return type_name[9:-1], True
    if type_name.endswith(" NULL"):
        return type_name[:-5], True
    return type_name, type_name.upper() == "NULL"


def uris(a):
    if not a.query_id:
        return None, None, None
    base = "/v1/query/" + a.query_id
    return base, base + "/final", base + "/kill"


def progress(p, i):
    return {"rows": p[i], "bytes": p[i + 1]}


def reference_spec(a):
    stats_uri, final_uri, kill_uri = uris(a)
    affect = None
    if isinstance(a.affect, engine.UseDB):
        affect = {"type": "UseDB", "name": a.affect.name}
    elif isinstance(a.affect, engine.ChangeSettings) and a.affect.keys:
        affect = {"type": "ChangeSetting", "key": a.affect.keys[0],
                  "value": a.affect.values[0], "is_global": a.affect.is_globals[0]}
    fields = []
    for column in a.schema:
        name, nullable = strip_nullable(column.type)
        fields.append({"name": column.name, "data_type": {"type": name}, "nullable": nullable,
                       "default_expr": None})
    p = a.progress
    return {
        "id": a.query_id,
        "session_id": a.session_id,
        "session": None if a.session is None else {
            "database": a.session.database, "keep_server_session_secs": a.session.keep_secs,
            "settings": a.session.settings},
        "state": a.state,
        "error": None if a.error is None else {"code": a.error.code, "stats": a.error.code,
                                               "message": a.error.message, "backtrace": ""},
        "schema": {"fields": fields, "metadata": {}},
        "data": a.data,
        "affect": affect,
        "stats": {"running_time_ms": a.running_time_ms, "scan_progress": progress(p, 0),
                  "write_progress": progress(p, 2), "result_progress": progress(p, 4)},
        "stats_uri": stats_uri,
        "next_uri": None if a.next_page is None else f"{stats_uri}/page/{a.next_page}",
        "kill_uri": kill_uri,
        "final_uri": final_uri,
    }


def reference_databend(a):
    stats_uri, final_uri, kill_uri = uris(a)
    if a.next_page is not None:
        next_uri = f"{stats_uri}/page/{a.next_page}"
    else:
        next_uri = None if a.final else final_uri
    session = None
    if a.session is not None:
        request = a.session.request
        session = {k: v for k, v in request.items() if k not in ("id", "keep_server_session_secs")}
        session.update(catalog=request.get("catalog") or "default", database=a.session.database,
                       role=request.get("role") or "account_admin", settings=a.session.settings,
                       txn_state=a.session.txn_state,
                       need_sticky=a.session.txn_state == "Active",
                       need_keep_alive=a.session.txn_state == "Active")
        if a.session.internal is not None:
            session["internal"] = a.session.internal
    affect = None
    if isinstance(a.affect, engine.UseDB):
        affect = {"type": "UseDB", "name": a.affect.name}
    elif isinstance(a.affect, engine.ChangeSettings):
        affect = {"type": "ChangeSettings", "keys": list(a.affect.keys),
                  "values": list(a.affect.values), "is_globals": list(a.affect.is_globals)}
    p = a.progress
    return {
        "id": a.query_id, "session_id": a.session_id, "node_id": "", "state": a.state,
        "session": session,
        "error": None if a.error is None else {"code": a.error.code, "message": a.error.message},
        "warnings": [], "has_result_set": bool(a.schema),
        "schema": [{"name": c.name, "type": c.type} for c in a.schema],
        "data": a.data, "affect": affect, "result_timeout_secs": a.result_timeout_secs,
        "settings": {"timezone": a.timezone, "geometry_output_format": "GeoJSON",
                     "binary_output_format": "hex", "http_json_result_mode": "display"},
        "stats": {"scan_progress": progress(p, 0), "write_progress": progress(p, 2),
                  "result_progress": progress(p, 4), "total_scan": progress(p, 0),
                  "spill_progress": {"file_nums": 0, "bytes": 0},
                  "running_time_ms": a.running_time_ms},
        "stats_uri": stats_uri, "final_uri": final_uri, "next_uri": next_uri, "kill_uri": kill_uri,
    }


COLUMNS = [engine.Column("n", "Int32"), engine.Column("é \"x\"", "Nullable(String)"),
           engine.Column("v", "Int8 NULL"), engine.Column("z", "NULL")]
ANSWERS = [
    Answer("q1", SUCCEEDED, schema=COLUMNS[:1], data=[["1"]], progress=(1, 8, 0, 0, 1, 8),
           running_time_ms=0.4105, session=SessionView("default", {})),
    Answer("q2", RUNNING, session_id="s1", schema=COLUMNS, next_page=3,
           data=[["1", None, "ü\n\"", "\u2028"], [None, "", "\\", "\x00"]],
           progress=(10**12, 2, 3, 4, 5, 6), running_time_ms=1e-7, result_timeout_secs=5,
           session=SessionView("db", {"timezone": "Asia/Tokyo", "x": "\"q\""},
                               {"database": "old", "id": "s1", "keep_server_session_secs": 9,
                                "role": "r", "extra": [1, {"a": None}], "catalog": ""}, 30)),
    Answer("", FAILED, session_id="clïent \"id\"", error=QueryError(1067, "too many\n\"queries\""),
           session=SessionView("d", {"k": "v"}, {"txn_state": "Active"}, 5, "Fail")),
    Answer("q7", SUCCEEDED, session=SessionView("d", {}, {"internal": "{}"}, 0, "Active",
                                                '{"last_query_ids":["q7"]}')),
    Answer("q3", FAILED, error=QueryError(1043, "canceled"), final=True, running_time_ms=12.0),
    Answer("q4", SUCCEEDED, affect=engine.UseDB("other"), session=SessionView("other", {})),
    Answer("q5", SUCCEEDED, affect=engine.ChangeSettings(("a", "b"), ("1", "2"), (False, True)),
           running_time_ms=123456789.125),
    Answer("q6", SUCCEEDED, affect=engine.ChangeSettings((), (), ())),
]


@pytest.mark.parametrize("answer", ANSWERS)
@pytest.mark.parametrize("fmt, reference", [(SPEC, reference_spec),
                                            (DATABEND, reference_databend)])
def test_encoded_answer_is_json_dumps_of_the_reference_shape(answer, fmt, reference):
    expected = json.dumps(reference(answer), separators=(",", ":")).encode()
    assert encode_answer(fmt, answer) == expected


def test_a_schema_list_changed_after_it_was_encoded_is_encoded_anew():
    # the schema's JSON is kept per column list (a repeated statement's plan hands out the same
    # list); a list changed in place since (a script's Result sets its columns at its end)
    # must not answer with the old columns
    schema = [engine.Column("a", "Int32")]
    for fmt in (SPEC, DATABEND):
        answer = Answer(query_id="q", state=SUCCEEDED, schema=schema, data=[])
        assert '"a"' in encode_answer(fmt, answer).decode()
        schema[:] = [engine.Column("b", "Nullable(String)")]
        changed = json.loads(encode_answer(fmt, answer))
        assert '"a"' not in json.dumps(changed["schema"]) and '"b"' in json.dumps(changed["schema"])
        schema[:] = [engine.Column("a", "Int32")]


def test_values_encode_as_json_dumps_writes_them():
    from web.wire import encode_json

    value = {"x": [1, 2.5, None, True, "é\n", float("inf")], "y": {"z": []}}
    assert encode_json(value) == json.dumps(value, separators=(",", ":")).encode()
    assert encode_json("text") == json.dumps("text").encode()

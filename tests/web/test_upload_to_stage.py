"""PUT /v1/upload_to_stage and POST /v1/query with a stage_attachment, as the clients send them."""

from tests.web.harness import Harness
from web.config import ServiceConfig

BOUNDARY = "----queryhttp-test"


def _multipart(filename: str, data: bytes, field: str = "upload") -> bytes:
    return (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; "
            f"filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode() \
        + data + f"\r\n--{BOUNDARY}--\r\n".encode()


def _upload(h, filename, data, stage="~", relative_path=None, headers=None):
    all_headers = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                   "X-DATABEND-STAGE-NAME": stage, "X-DATABEND-QUERY-ID": "up-1"}
    if relative_path is not None:
        all_headers["X-DATABEND-RELATIVE-PATH"] = relative_path
    all_headers.update(headers or {})
    return h.request("PUT", "/v1/upload_to_stage", _multipart(filename, data), all_headers)


def test_the_driver_path_upload_then_insert_with_a_stage_attachment():
    h = Harness()
    h.post("CREATE TABLE t (a INT, b VARCHAR)")
    reply = _upload(h, "client/load/1", b"1,one\n2,\"t,wo\"\n")
    assert reply.status == 200
    assert reply.json == {"id": "up-1", "stage_name": "~", "state": "SUCCESS",
                            "files": ["client/load/1"]}
    answer = h.post("INSERT INTO t (a, b) VALUES (?, ?)", stage_attachment={
        "location": "@~/client/load/1",
        "file_format_options": {"type": "CSV", "field_delimiter": ",", "record_delimiter": "\n",
                                "skip_header": "0"},
        "copy_options": {"purge": "true"}}).json
    assert answer["state"] == "Succeeded", answer
    rows = h.post("SELECT a, b FROM t ORDER BY a").json["data"]
    assert rows == [["1", "one"], ["2", "t,wo"]]
    assert h.db.stages.list("root", __import__("engine").parse_location("@~")) == []  # purged


def test_relative_path_and_databend_py_option_spelling():
    h = Harness()
    h.post("CREATE TABLE t (a INT, b VARCHAR)")
    assert _upload(h, "rows.csv", b"3,x\r\n", relative_path="batch/7").status == 200
    answer = h.post("insert into t (a, b) values", stage_attachment={
        "location": "@~/batch/7/rows.csv",
        "file_format_options": {"type": "CSV", "RECORD_DELIMITER": "\r\n", "COMPRESSION": "AUTO"},
        "copy_options": {"PURGE": False}}).json
    assert answer["state"] == "Succeeded", answer
    assert h.post("SELECT a, b FROM t").json["data"] == [["3", "x"]]


def test_a_bad_row_fails_the_query_with_its_line_and_column():
    h = Harness()
    h.post("CREATE TABLE t (a INT, b VARCHAR)")
    _upload(h, "bad.csv", b"1,x\nnope,y\n")
    answer = h.post("INSERT INTO t VALUES", stage_attachment={"location": "@~/bad.csv"}).json
    assert answer["state"] == "Failed"
    assert answer["error"]["code"] == 1046 and "at line 2" in answer["error"]["message"]


def test_uploads_without_a_file_a_stage_or_multipart_are_400():
    h = Harness()
    no_stage = h.request("PUT", "/v1/upload_to_stage", _multipart("f.csv", b"1"),
                         {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"})
    assert no_stage.status == 400 and b"X-DATABEND-STAGE-NAME" in no_stage.body
    not_multipart = h.request("PUT", "/v1/upload_to_stage", b"1,2\n",
                              {"Content-Type": "text/csv", "X-DATABEND-STAGE-NAME": "~"})
    assert not_multipart.status == 400 and b"multipart/form-data" in not_multipart.body
    no_file = h.request("PUT", "/v1/upload_to_stage",
                        f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
                        f"v\r\n--{BOUNDARY}--\r\n".encode(),
                        {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                         "X-DATABEND-STAGE-NAME": "~"})
    assert no_file.status == 400 and b"no file" in no_file.body


def test_an_unknown_stage_or_a_file_over_the_stage_limit_is_refused():
    h = Harness()
    unknown = _upload(h, "f.csv", b"1\n", stage="nosuch")
    assert unknown.status == 400 and b"2501" in unknown.body
    h.db.stages.file_bytes = 4
    assert _upload(h, "ok.csv", b"1234").status == 200
    over = _upload(h, "big.csv", b"12345")
    assert over.status == 400 and b"stage_file_bytes = 4" in over.body


def test_an_upload_needs_credentials():
    h = Harness()
    reply = h.request("PUT", "/v1/upload_to_stage", _multipart("f.csv", b"1"),
                      {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                       "X-DATABEND-STAGE-NAME": "~"}, auth=None)
    assert reply.status == 401


def test_stage_attachment_fields_are_type_checked():
    h = Harness()
    reply = h.post("INSERT INTO t VALUES", stage_attachment={"location": 5})
    assert reply.status == 400 and b"stage_attachment.location" in reply.body
    reply = h.post("INSERT INTO t VALUES", stage_attachment={"file_format_options": {}})
    assert reply.status == 400 and b"missing field `stage_attachment.location`" in reply.body


def test_the_upload_limit_is_a_server_option():
    assert ServiceConfig().max_upload_bytes == 256 * 1024 * 1024


def _presign(h, sql):
    answer = h.post(sql, headers={"Host": "db.example:8123"}).json
    assert answer["state"] == "Succeeded", answer
    (method, headers, url), = answer["data"]
    return method, headers, url


def test_the_databend_py_path_presign_put_then_copy_into():
    h = Harness()
    h.post("CREATE TABLE t (a INT, b VARCHAR)")
    method, headers, url = _presign(h, "presign upload @~/1f2e.csv")
    assert (method, headers) == ("PUT", "{}") and url.startswith("http://db.example:8123/v1/presigned/")
    path = url[len("http://db.example:8123"):]
    put = h.request("PUT", path, b"1,a\r\n2,b\r\n", {"Content-Type": "text/csv"}, auth=None)
    assert put.status == 200
    answer = h.post("COPY INTO t FROM @~/1f2e.csv FILE_FORMAT = (type = CSV RECORD_DELIMITER = "
                    "'\\r\\n' COMPRESSION = AUTO) PURGE = False FORCE = False SIZE_LIMIT=0 "
                    "ON_ERROR = abort").json
    assert answer["state"] == "Succeeded", answer
    assert answer["data"] == [["1f2e.csv", "2", "0", "NULL", "NULL"]]  # spec format: NULL as text
    assert h.post("SELECT a, b FROM t ORDER BY a").json["data"] == [["1", "a"], ["2", "b"]]
    method, _, url = _presign(h, "PRESIGN DOWNLOAD @~/1f2e.csv")
    download = h.request("GET", url[len("http://db.example:8123"):], auth=None)
    assert method == "GET" and download.status == 200 and download.body == b"1,a\r\n2,b\r\n"


def test_presigned_urls_refuse_tampering_the_other_method_and_expiry():
    h = Harness()
    _, _, url = _presign(h, "PRESIGN UPLOAD @~/f.csv EXPIRE = 60")
    path = url[len("http://db.example:8123"):]
    tampered = path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB")
    assert h.request("PUT", tampered, b"x", auth=None).status == 403
    assert h.request("GET", path, auth=None).status == 403  # an upload URL does not download
    h.clock.advance(61)
    expired = h.request("PUT", path, b"x", auth=None)
    assert expired.status == 403 and b"expired" in expired.body
    assert h.db.stages.list("root", __import__("engine").parse_location("@~")) == []


def test_a_presigned_download_of_a_missing_file_is_404():
    h = Harness()
    _, _, url = _presign(h, "PRESIGN @~/none.csv")
    assert h.request("GET", url[len("http://db.example:8123"):], auth=None).status == 404


def test_an_upload_to_a_named_stage_takes_write_on_it():
    from twisted.internet.task import Clock

    from tests.web.harness import run_now
    from tests.web.test_sql_users import basic
    from web.auth import Authenticator

    h = Harness(authenticator=Authenticator(clock=Clock(), run_in_thread=run_now))
    for sql in ("CREATE STAGE shared", "CREATE USER u IDENTIFIED BY 'pw'"):
        assert h.post(sql).json["error"] is None
    reply = h.request("PUT", "/v1/upload_to_stage", _multipart("f.csv", b"1\n"),
                      {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                       "X-DATABEND-STAGE-NAME": "shared", "X-DATABEND-QUERY-ID": "up-2"},
                      auth=basic("u", "pw"))
    assert reply.status == 403 and "[Write] is required on STAGE shared" in reply.body.decode()
    assert h.db.stages.named["shared"].files == {}
    assert h.post("GRANT WRITE ON STAGE shared TO u").json["error"] is None
    reply = h.request("PUT", "/v1/upload_to_stage", _multipart("f.csv", b"1\n"),
                      {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                       "X-DATABEND-STAGE-NAME": "shared", "X-DATABEND-QUERY-ID": "up-3"},
                      auth=basic("u", "pw"))
    assert reply.status == 200 and list(h.db.stages.named["shared"].files) == ["f.csv"]

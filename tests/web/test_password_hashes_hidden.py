"""A password hash (nor its salt or key) never leaves the server: not in a listing, EXPLAIN,
error message, answer or log line."""

import base64

from twisted.logger import formatEvent, globalLogPublisher

from tests.web.harness import DATABEND_HEADERS, Harness
from web.config import ServiceConfig

STATEMENTS = [
    "SHOW USERS",
    "SELECT * FROM system.users",
    "DESC USER alice",
    "SHOW GRANTS FOR alice",
    "EXPLAIN CREATE USER bob IDENTIFIED BY 'pw2'",
    "EXPLAIN SELECT * FROM system.users",
    "CREATE USER alice IDENTIFIED BY 'again'",  # an error: the user exists
    "ALTER USER nobody IDENTIFIED BY 'x'",  # an error: no such user
    "SELECT * FROM system.query_log",
    "SELECT * FROM system.processes",
]


def test_password_hashes_appear_in_no_answer_or_log_line():
    events = []
    globalLogPublisher.addObserver(events.append)
    try:
        h = Harness(config=ServiceConfig(log_query_start=True))
        assert h.post("CREATE USER alice IDENTIFIED BY 'secret-pw'").json["state"] == "Succeeded"
        encoded = h.app.db.users.password_hash("alice")
        assert encoded and encoded.startswith("scrypt$")
        _, _, _, _, salt, key = encoded.split("$")
        secrets = [encoded, salt, key, "secret-pw",
                   base64.b64decode(salt).hex(), base64.b64decode(key).hex()]
        answers = []
        for sql in STATEMENTS:
            reply = h.post(sql)
            answers.append(reply.body.decode())
            answers.append(h.post(sql, headers=DATABEND_HEADERS).body.decode())
        # a failed and a good login of alice, whose log lines name her
        h.post("SELECT 1", auth="Basic " + base64.b64encode(b"alice:wrong").decode())
        h.clock.advance(60)
        h.post("SELECT 1", auth="Basic " + base64.b64encode(b"alice:secret-pw").decode())
    finally:
        globalLogPublisher.removeObserver(events.append)
    lines = [formatEvent(e) for e in events]
    assert any("login refused: user 'alice'" in line for line in lines)
    assert any("alice" in answer for answer in answers)  # the listings did list her
    leaks = [(s, text) for s in secrets for text in answers + lines if s in text]
    assert not leaks

"""A real `twistd queryhttp --data_dir` killed with SIGKILL while clients write (INSERT, UPDATE,
DELETE, CREATE/DROP, transactions over several requests): every
acknowledged effect survives the restart and no unacknowledged statement is half-applied; a
clean restart, a torn and a corrupt log tail, and a second server on the same directory."""

from __future__ import annotations

import glob
import json
import os
import random
import signal
import threading
import urllib.error

import pytest

from tests.e2e.server import RunningServer
from tests.e2e.test_twistd import call, post

CLIENTS = 4


DATABEND = {"X-DATABEND-ROUTE": "warehouse"}  # the databend format: sessions carry txn_state


def run(url: str, sql: str, session: dict | None = None) -> dict:
    """The statement's final answer (following next_uri); raises OSError when the server went
    away before it answered, i.e. the statement was not acknowledged. With `session`, in the
    databend format, as a driver keeps a transaction going."""
    body = {"sql": sql, "pagination": {"wait_time_secs": 5}}
    headers = None
    if session is not None:
        body["session"] = session
        headers = DATABEND
    status, answer = post(url, body, headers=headers)
    data = list(answer.get("data") or [])
    latest_session = answer.get("session")
    while answer.get("next_uri"):
        status, raw = call(url, answer["next_uri"], headers=headers)
        answer = json.loads(raw)
        data += answer.get("data") or []
        latest_session = answer.get("session") or latest_session  # sent when it changes
    if status != 200:
        raise AssertionError(f"{sql}: HTTP {status} {answer}")
    answer["rows"] = data
    answer["session"] = latest_session
    return answer


def ok(url: str, sql: str) -> list:
    answer = run(url, sql)
    assert answer["state"] == "Succeeded", (sql, answer["error"])
    return answer["rows"]


class Client:
    """What one client was told across rounds: rows acknowledged, rows it deleted, its counter's
    acknowledged bumps, and the one statement in flight when the server died."""

    def __init__(self, number: int):
        self.number = number
        self.seq = 0
        self.acked_rows: set[int] = set()
        self.deleted: set[int] = set()
        self.bumps = 0
        self.transactions = 0  # committed and acknowledged
        self.in_flight: tuple | None = None
        self.failure: BaseException | None = None  # an unexpected answer stops its writer


class Writer(threading.Thread):
    """Inserts numbered rows, bumps its counter, deletes some of its rows, creates and drops a
    table, until the server dies under it."""

    def __init__(self, url: str, client: Client):
        super().__init__(daemon=True)
        self.url, self.client = url, client

    def execute(self, kind: str, sql: str, value=None) -> bool:
        self.client.in_flight = (kind, value)
        try:
            answer = run(self.url, sql)
        except (OSError, urllib.error.URLError, ValueError):
            return False  # the server died under it: not acknowledged, in_flight says what
        if answer["state"] != "Succeeded":
            raise AssertionError(f"{sql}: {answer['error']}")
        self.client.in_flight = None
        return True

    def transaction(self, n: int) -> bool:
        """BEGIN; a row and a counter bump; COMMIT: acknowledged by the COMMIT's answer."""
        c = self.client
        c.in_flight = ("txn", n)
        session = {"database": "default"}
        try:
            for sql in ("BEGIN", f"INSERT INTO rows VALUES ({c.number}, {n}, 'v{n}')",
                        f"UPDATE counters SET n = n + 1 WHERE client = {c.number}", "COMMIT"):
                answer = run(self.url, sql, session)
                if answer["state"] != "Succeeded" and sql == "COMMIT" and answer["error"]["code"] == 4001:
                    c.in_flight = None  # lost a conflict with another client's bump: nothing applied
                    return True
                if answer["state"] != "Succeeded":
                    raise AssertionError(f"{sql}: {answer['error']}")
                session = answer["session"]
        except (OSError, urllib.error.URLError, ValueError):
            return False
        c.acked_rows.add(n)
        c.bumps += 1
        c.transactions += 1
        c.in_flight = None
        return True

    def run(self):
        try:
            self.write()
        except BaseException as exc:  # noqa: BLE001 - reported by the test, not lost in a thread
            self.client.failure = exc

    def write(self):
        c = self.client
        table = f"scratch_{c.number}"
        while True:
            c.seq += 1
            n = c.seq
            if not self.execute("insert", f"INSERT INTO rows VALUES ({c.number}, {n}, 'v{n}')", n):
                return
            c.acked_rows.add(n)
            if n % 3 == 0:
                if not self.execute("bump", f"UPDATE counters SET n = n + 1 WHERE client = {c.number}"):
                    return
                c.bumps += 1
            if n % 5 == 0 and n - 2 in c.acked_rows:
                if not self.execute("delete", f"DELETE FROM rows WHERE client = {c.number} AND seq = {n - 2}",
                                    n - 2):
                    return
                c.deleted.add(n - 2)
            if n % 4 == 0:
                c.seq += 1
                if not self.transaction(c.seq):
                    return
            if n % 7 == 0:
                if not self.execute("ddl", f"CREATE OR REPLACE TABLE {table} (x int) AS SELECT {n}", n):
                    return
                if not self.execute("ddl", f"DROP TABLE {table}", n):
                    return


def _check_and_settle(url: str, clients: list[Client]) -> None:
    """Every acknowledged effect is there, nothing else is (but the statement in flight, whole
    or not at all); then what the in-flight statement did becomes part of what is known."""
    rows = ok(url, "SELECT client, seq, payload FROM rows ORDER BY client, seq")
    present: dict[int, set[int]] = {c.number: set() for c in clients}
    for client, seq, payload in rows:
        assert payload == f"v{seq}"
        assert int(seq) not in present[int(client)], "a row was applied twice"
        present[int(client)].add(int(seq))
    counters = {int(c): int(n) for c, n in ok(url, "SELECT client, n FROM counters")}
    for c in clients:
        kind, value = c.in_flight or (None, None)
        expected = c.acked_rows - c.deleted
        have = present[c.number]
        maybe = set()
        if kind == "insert":
            maybe = {value}
        elif kind == "delete":
            expected = expected - {value}
            maybe = {value}
        elif kind == "txn":  # all of it or nothing: its row and its bump together
            maybe = {value}
            bumped = value in have
            assert counters[c.number] == c.bumps + bumped, (c.number, "half a transaction")
        missing = expected - have
        assert not missing, f"client {c.number}: acknowledged rows lost: {sorted(missing)[:10]}"
        extra = have - expected - maybe
        assert not extra, f"client {c.number}: rows nobody acknowledged: {sorted(extra)[:10]}"
        high = c.bumps + (1 if kind in ("bump", "txn") else 0)
        assert c.bumps <= counters[c.number] <= high, (c.number, counters[c.number], c.bumps)
        # settle the statement in flight by what recovery kept of it
        if kind in ("insert", "txn") and value in have:
            c.acked_rows.add(value)
        if kind == "delete" and value not in have:
            c.deleted.add(value)
        c.bumps = counters[c.number]
        c.in_flight = None


def test_sigkill_while_clients_write_loses_nothing_acknowledged(tmp_path):
    data_dir = str(tmp_path / "data")
    server = RunningServer("--data_dir", data_dir)
    try:
        ok(server.url, "CREATE TABLE rows (client INT, seq INT, payload VARCHAR)")
        ok(server.url, "CREATE TABLE counters (client INT, n INT)")
        ok(server.url, "INSERT INTO counters VALUES " + ", ".join(f"({c}, 0)" for c in range(CLIENTS)))
    except BaseException:
        server.stop()
        raise
    rng = random.Random(20261125)
    clients = [Client(n) for n in range(CLIENTS)]
    for _ in range(3):
        writers = [Writer(server.url, c) for c in clients]
        for w in writers:
            w.start()
        threading.Event().wait(rng.uniform(0.3, 1.5))  # a random moment to crash at
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
        for w in writers:
            w.join(30)
            assert not w.is_alive()
            assert w.client.failure is None, repr(w.client.failure)
        assert sum(len(c.acked_rows) for c in clients) > 0, "no statement got through before the kill"
        server = RunningServer("--data_dir", data_dir)
        try:
            assert b"recovered" in server.output
            _check_and_settle(server.url, clients)
        except BaseException:
            server.stop()
            raise
    server.stop()
    assert sum(c.transactions for c in clients) > 0, "no transaction committed"


def test_clean_restart_keeps_everything_and_checkpoints(tmp_path):
    data_dir = str(tmp_path / "data")
    server = RunningServer("--data_dir", data_dir)
    try:
        ok(server.url, "CREATE DATABASE shop")
        ok(server.url, "CREATE TABLE shop.items (id INT, price DECIMAL(10, 2), added DATE, note VARCHAR NULL)")
        ok(server.url, "INSERT INTO shop.items VALUES (1, 9.99, '2026-01-02', NULL), (2, 0.10, '2026-02-03', 'x')")
        ok(server.url, "CREATE VIEW shop.cheap AS SELECT id FROM shop.items WHERE price < 1")
        ok(server.url, "SET GLOBAL max_result_rows = 12345")
        ok(server.url, "CREATE STAGE files")
    finally:
        server.stop()  # SIGTERM: a checkpoint, then exit
    assert "checkpoint written" in server.output.decode()
    assert glob.glob(os.path.join(data_dir, "checkpoint-*.qhc"))
    server = RunningServer("--data_dir", data_dir)
    try:
        assert ok(server.url, "SELECT id, price, added, note FROM shop.items ORDER BY id") == [
            ["1", "9.99", "2026-01-02", "NULL"], ["2", "0.10", "2026-02-03", "x"]]
        assert ok(server.url, "SELECT * FROM shop.cheap") == [["2"]]
        assert ok(server.url, "SELECT value FROM system.settings WHERE name = 'max_result_rows'") == [["12345"]]
        assert ok(server.url, "SHOW STAGES")[0][0] == "files"
    finally:
        server.stop()


def _segments(data_dir: str) -> list[str]:
    return sorted(glob.glob(os.path.join(data_dir, "wal-*.log")))


def test_a_torn_tail_is_cut_off_and_a_corrupt_middle_refuses_to_start(tmp_path):
    data_dir = str(tmp_path / "data")
    server = RunningServer("--data_dir", data_dir)
    ok(server.url, "CREATE TABLE t (a INT)")
    for i in range(3):
        ok(server.url, f"INSERT INTO t VALUES ({i})")
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait()
    last = _segments(data_dir)[-1]
    with open(last, "ab") as f:  # a record the crash cut short: a header and half a payload
        f.write(b"\x40\x00\x00\x00\x01\x02\x03\x04" + b'{"lsn":99,"chan')
    server = RunningServer("--data_dir", data_dir)
    try:
        assert b"cut short by a crash" in server.output
        assert ok(server.url, "SELECT a FROM t ORDER BY a") == [["0"], ["1"], ["2"]]
        for i in range(3, 6):
            ok(server.url, f"INSERT INTO t VALUES ({i})")  # the log goes on after the cut
    finally:
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
    # damage a record in the middle of the log (valid ones follow): the server must refuse to
    # start rather than drop acknowledged data silently
    segment = max(_segments(data_dir), key=os.path.getsize)
    with open(segment, "r+b") as f:
        data = f.read()
        middle = data.index(b'"op":"append"')
        f.seek(middle + 2)
        f.write(b"X")
    with pytest.raises(RuntimeError, match="cannot open --data_dir"):
        RunningServer("--data_dir", data_dir, timeout=20)


def test_a_second_server_on_the_same_data_dir_is_refused(tmp_path):
    data_dir = str(tmp_path / "data")
    first = RunningServer("--data_dir", data_dir)
    try:
        with pytest.raises(RuntimeError, match="in use by another process"):
            RunningServer("--data_dir", data_dir, timeout=20)
        assert ok(first.url, "SELECT 1") == [["1"]]
    finally:
        first.stop()


# ------------------------------------------------------------ writers racing DDL (review N1)

BULK_ROWS = 30_000  # an INSERT ... SELECT of this many rows runs over several engine steps
COPY_ROWS = 5_000
REFUSED = (2009, 4001)  # refused whole (its table changed under it, a conflict): nothing applied


class Lane:
    """One client's statements of one kind: the numbers acknowledged, the one in flight."""

    def __init__(self, name: str):
        self.name = name
        self.acked: set[int] = set()
        self.in_flight: int | None = None
        self.failure: BaseException | None = None
        self.state = None  # the DDL lane: ("table", n) or ("dropped", n) as last acknowledged


def attempt(url: str, lane: Lane, n: int, sql: str, refusable=REFUSED) -> bool | None:
    """Run `sql` as lane's statement n: True acknowledged, False refused (nothing applied),
    None the server went away (n stays in flight)."""
    lane.in_flight = n
    try:
        answer = run(url, sql)
    except (OSError, urllib.error.URLError, ValueError):
        return None
    lane.in_flight = None
    if answer["state"] == "Succeeded":
        return True
    if refusable is None or answer["error"]["code"] in refusable:
        return False
    raise AssertionError(f"{sql}: {answer['error']}")


def lane_steps(url: str, lane: Lane, start: int):
    """The statements of `lane` from number `start` on, one (acknowledged or not) per step."""
    n = start
    while True:
        n += 1
        kind, client = lane.name.split("-")
        if kind == "bulk":
            sql = f"INSERT INTO bulk (client, batch, k) SELECT {client}, {n}, number FROM numbers({BULK_ROWS})"
            outcome = attempt(url, lane, n, sql)
        elif kind == "copy":
            folder = f"@~/r{client}_{n}/"
            unload = attempt(url, Lane("unload"), n, f"COPY INTO {folder} FROM (SELECT {client}, {n}, number "
                                                     f"FROM numbers({COPY_ROWS})) FILE_FORMAT=(TYPE=CSV)")
            if unload is None:  # n stays in flight: the next round must not unload into its folder
                lane.in_flight = n  # again (a second file there would load twice)
                return
            outcome = attempt(url, lane, n, f"COPY INTO copied (client, batch, k) FROM {folder} "
                                            f"FILE_FORMAT=(TYPE=CSV)")
        elif kind == "merge":
            outcome = attempt(url, lane, n, f"MERGE INTO counters USING (SELECT {client} AS c) AS s "
                                            f"ON counters.client = s.c WHEN MATCHED THEN UPDATE SET n = counters.n + 1")
        else:  # ddl: ALTER TABLE ADD/DROP COLUMN on every written table, CREATE OR REPLACE, DROP
            op = n % 8
            if op < 6:
                table = ("bulk", "copied", "counters")[op // 2]
                change = f"ADD COLUMN e{n} INT" if op % 2 == 0 else f"DROP COLUMN e{n - 1}"
                outcome = attempt(url, lane, n, f"ALTER TABLE {table} {change}", refusable=None)
                lane.in_flight = None  # not checked: the writers' rows are
            elif op == 6:
                outcome = attempt(url, lane, n, f"CREATE OR REPLACE TABLE ddl (x INT) AS SELECT {n}")
                if outcome:
                    lane.state = ("table", n)
            else:
                outcome = attempt(url, lane, n, "DROP TABLE IF EXISTS ddl")
                if outcome:
                    lane.state = ("dropped", n)
        if outcome is None:
            return
        if outcome:
            lane.acked.add(n)
        yield n


class LaneThread(threading.Thread):
    def __init__(self, url: str, lane: Lane, start: int):
        super().__init__(daemon=True)
        self.url, self.lane, self.start_at, self.last = url, lane, start, start

    def run(self):
        try:
            for n in lane_steps(self.url, self.lane, self.start_at):
                self.last = n
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.lane.failure = exc
        if self.lane.in_flight is not None:
            self.last = self.lane.in_flight


def _check_batches(url: str, table: str, lanes: list[Lane], rows: int) -> None:
    """Each acknowledged batch whole, the one in flight whole or absent, nothing else."""
    counts = {(int(c), int(b)): int(n) for c, b, n in
              ok(url, f"SELECT client, batch, count(*) FROM {table} GROUP BY client, batch")}
    for lane in lanes:
        client = int(lane.name.split("-")[1])
        have = {b: n for (c, b), n in counts.items() if c == client}
        partial = {b: n for b, n in have.items() if n != rows}
        assert not partial, (table, lane.name, "partial batches", partial, "in flight", lane.in_flight)
        missing = lane.acked - set(have)
        assert not missing, f"{table}: {lane.name}: acknowledged batches lost: {sorted(missing)[:10]}"
        extra = set(have) - lane.acked - {lane.in_flight}
        assert not extra, f"{table}: {lane.name}: batches nobody acknowledged: {sorted(extra)[:10]}"
        if lane.in_flight in have:
            lane.acked.add(lane.in_flight)
        lane.in_flight = None


def _check_ddl_round(url: str, lanes: dict[str, Lane]) -> None:
    _check_batches(url, "bulk", [lanes["bulk-0"], lanes["bulk-1"]], BULK_ROWS)
    _check_batches(url, "copied", [lanes["copy-2"]], COPY_ROWS)
    merge = lanes["merge-3"]
    (bumps,), = ok(url, "SELECT n FROM counters WHERE client = 3")
    high = len(merge.acked) + (merge.in_flight is not None)
    assert len(merge.acked) <= int(bumps) <= high, ("MERGE bumps", bumps, len(merge.acked))
    if int(bumps) > len(merge.acked):
        merge.acked.add(merge.in_flight)
    merge.in_flight = None
    ddl = lanes["ddl-4"]
    tables = [name for (name,) in ok(url, "SELECT name FROM system.tables WHERE database = 'default'")]
    in_flight = ddl.in_flight
    if "ddl" in tables:
        (x,), = ok(url, "SELECT x FROM ddl")
        assert ddl.state == ("table", int(x)) or (in_flight is not None and int(x) == in_flight), (x, ddl.state)
    else:
        assert ddl.state is None or ddl.state[0] == "dropped" or in_flight is not None, ddl.state
    ddl.in_flight = None


def test_sigkill_while_writers_race_alter_replace_and_drop_loses_nothing_acknowledged(tmp_path):
    data_dir = str(tmp_path / "data")
    server = RunningServer("--data_dir", data_dir)
    try:
        for sql in ("CREATE TABLE bulk (client INT, batch INT, k INT)",
                    "CREATE TABLE copied (client INT, batch INT, k INT)",
                    "CREATE TABLE counters (client INT, n INT)", "INSERT INTO counters VALUES (3, 0)"):
            ok(server.url, sql)
    except BaseException:
        server.stop()
        raise
    rng = random.Random(20261128)
    lanes = {name: Lane(name) for name in ("bulk-0", "bulk-1", "copy-2", "merge-3", "ddl-4")}
    starts = dict.fromkeys(lanes, 0)
    for _ in range(3):
        threads = [LaneThread(server.url, lane, starts[name]) for name, lane in lanes.items()]
        for t in threads:
            t.start()
        threading.Event().wait(rng.uniform(1.0, 2.5))  # a random moment to crash at
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
        for t in threads:
            t.join(30)
            assert not t.is_alive() and t.lane.failure is None, (t.lane.name, repr(t.lane.failure))
            starts[t.lane.name] = t.last
        server = RunningServer("--data_dir", data_dir)
        try:
            _check_ddl_round(server.url, lanes)
        except BaseException:
            server.stop()
            raise
    server.stop()
    assert all(lane.acked for lane in lanes.values()), {n: len(lane.acked) for n, lane in lanes.items()}

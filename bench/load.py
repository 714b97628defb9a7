"""Bulk-load benchmark: a CSV file through COPY INTO (embedded) and through databend-driver's
load_file and stream_load (HTTP, a real `twistd queryhttp`), beside sqlite3's executemany of the
same rows and the floor: Python's csv module reading the file into typed rows.

    python -m bench.load                  # 1,000,000 rows
    python -m bench.load --rows 100000

Rows are (id INT, name VARCHAR, score DOUBLE, flag BOOLEAN). Every number is rows per second of
the median of --rounds runs (3 by default), all measured in the same process run (each with
gc.collect() before it, the inputs gc.freeze()-d); the rounds alternate the measurements, so the
machine's noise hits them all, and the ratio column is the median of each round's ratio. The
database runs in memory (no --data_dir). The floor, as in bench.engine, is the same computation in plain Python: the csv
module reads the file and each field is converted to its column's type (the row tuples a
hand-written loader would keep); the ratio column is the floor's time over each one's (the goal
for COPY INTO is >= 0.5). The csv module merely iterating over the file, converting nothing, is
shown too. load_file includes the connection, the upload, the HTTP round trips and the server's
load; stream_load also has the driver turn Python rows into CSV first; sqlite3 gets the rows
already parsed (its executemany is C code).
"""

from __future__ import annotations

import argparse
import csv
import gc
import io
import os
import sqlite3
import statistics
import tempfile
import time

import engine
from bench.server_process import ServerProcess, queryhttp_command
from engine.catalog.stages import parse_location


def make_csv(rows: int) -> bytes:
    return "".join(f"{i},name{i % 1000},{i * 0.5},{'true' if i % 2 else 'false'}\n"
                   for i in range(rows)).encode()


def timed(fn) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def floor(data: bytes) -> list:
    """The same load in plain Python: typed row tuples from the csv module's records."""
    truth = {"true": True, "false": False}
    return [(int(a), b, float(c), truth[d]) for a, b, c, d in csv.reader(io.StringIO(data.decode()))]


def csv_iteration(data: bytes) -> None:
    for _ in csv.reader(io.StringIO(data.decode())):
        pass


def copy_into(data: bytes) -> None:
    db = engine.Database()
    session = db.session()
    session.execute("CREATE TABLE t (id INT, name VARCHAR, score DOUBLE, flag BOOLEAN)")
    db.stages.put("root", parse_location("@~/data.csv"), data)
    answer = list(session.execute("COPY INTO t FROM @~/data.csv FILE_FORMAT = (TYPE = CSV)"))
    assert answer[0][1] == data.count(b"\n"), answer


def sqlite_executemany(rows: list) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (id INTEGER, name TEXT, score REAL, flag INTEGER)")
    db.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", rows)
    db.commit()


def _connection(port: int):
    import databend_driver  # noqa: PLC0415 - a test extra, only the HTTP measurements need it

    return databend_driver.BlockingDatabendClient(
        f"databend://root:@127.0.0.1:{port}/default?sslmode=disable").get_conn()


def load_file(port: int, path: str, rows: int) -> None:
    conn = _connection(port)
    conn.exec("DROP TABLE IF EXISTS t")
    conn.exec("CREATE TABLE t (id INT, name VARCHAR, score DOUBLE, flag BOOLEAN)")
    conn.load_file("INSERT INTO t VALUES", path, format_options={"type": "CSV"})
    count = conn.query_row("SELECT count(*) FROM t").values()[0]
    assert count == rows, count


def stream_load(port: int, rows: list) -> None:
    conn = _connection(port)
    conn.exec("DROP TABLE IF EXISTS t")
    conn.exec("CREATE TABLE t (id INT, name VARCHAR, score DOUBLE, flag BOOLEAN)")
    conn.stream_load("INSERT INTO t VALUES", rows)
    count = conn.query_row("SELECT count(*) FROM t").values()[0]
    assert count == len(rows), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3, help="runs of each (the median)")
    parser.add_argument("--no-http", action="store_true", help="skip stream_load over HTTP")
    args = parser.parse_args()
    list(engine.Database().session().execute("SELECT 1"))  # the parser is built once, not timed
    data = make_csv(args.rows)
    text_rows = [r for r in csv.reader(io.StringIO(data.decode()))]
    typed_rows = [(int(a), b, float(c), d == "true") for a, b, c, d in text_rows]
    gc.collect()
    gc.freeze()  # the inputs are not what is measured: collections should not walk them
    measures = [("floor: csv module + conversion to typed rows", lambda: floor(data)),
                ("csv module iterating, converting nothing", lambda: csv_iteration(data)),
                ("queryhttp COPY INTO (embedded)", lambda: copy_into(data)),
                ("sqlite3 executemany (rows parsed)", lambda: sqlite_executemany(typed_rows))]
    with tempfile.TemporaryDirectory() as folder:
        server = None
        if not args.no_http:
            path = os.path.join(folder, "data.csv")
            with open(path, "wb") as out:
                out.write(data)
            server = ServerProcess(queryhttp_command("--max_upload_bytes", str(1 << 30)),
                                   name="queryhttp")
            measures += [("queryhttp load_file (HTTP: upload + load, driver)",
                          lambda: load_file(server.port, path, args.rows)),
                         ("queryhttp stream_load (HTTP; the driver writes the CSV)",
                          lambda: stream_load(server.port, text_rows))]
        try:
            times: dict = {name: [] for name, _ in measures}
            for _ in range(args.rounds):
                for name, fn in measures:
                    times[name].append(timed(fn))
        finally:
            if server is not None:
                server.stop()
    floors = times[measures[0][0]]
    print(f"| load of {args.rows:,} rows (median of {args.rounds}) | rows/s | floor time / time |")
    print("|---|---:|---:|")
    for name, _ in measures:
        ratio = statistics.median(f / t for f, t in zip(floors, times[name], strict=True))
        print(f"| {name} | {args.rows / statistics.median(times[name]):,.0f} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()

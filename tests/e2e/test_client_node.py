"""The Node databend-driver (npm) against `twistd queryhttp`: Timestamps at their instant in a
session time zone (SET) and a DSN time zone, and now() at the client's clock.

The driver is installed with npm into .node-clients/ on the first run (the npm registry must be
reachable once); without node and npm, or when the install fails, these tests are skipped and
say why."""

import datetime
import json
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLIENTS = os.path.join(ROOT, ".node-clients")
DRIVER_VERSION = "0.33.7"  # npm's newest databend-driver when written
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "node_client.js")


@pytest.fixture(scope="module")
def node_driver():
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed for the Node databend-driver tests")
    package = os.path.join(CLIENTS, "node_modules", "databend-driver", "package.json")
    if not os.path.exists(package):
        os.makedirs(CLIENTS, exist_ok=True)
        done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", CLIENTS,
                               f"databend-driver@{DRIVER_VERSION}"],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            pytest.skip(f"npm could not install databend-driver: {done.stderr.strip()[-300:]}")
    return os.path.join(CLIENTS, "node_modules")


def run(node_driver, dsn, steps):
    env = dict(os.environ, NODE_PATH=node_driver)
    done = subprocess.run(["node", SCRIPT, dsn, json.dumps(steps)], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def dsn(server, extra=""):
    return f"databend://root:@127.0.0.1:{server.port}/default?sslmode=disable{extra}"


def test_node_reads_stored_instants_in_session_and_dsn_time_zones(node_driver, server):
    run(node_driver, dsn(server), [
        {"exec": "CREATE TABLE node_ts (ts TIMESTAMP)"},
        {"exec": "INSERT INTO node_ts VALUES ('2024-02-29 13:45:06.123456')"}])  # a UTC session
    stored = "2024-02-29T13:45:06.123Z"
    in_new_york = run(node_driver, dsn(server), [
        {"exec": "SET timezone = 'America/New_York'"}, {"row": "SELECT ts FROM node_ts"}])
    assert in_new_york[1] == [stored]
    in_shanghai = run(node_driver, dsn(server, "&timezone=Asia/Shanghai"),
                      [{"row": "SELECT ts, to_string(ts) FROM node_ts"}])
    assert in_shanghai[0] == [stored, "2024-02-29 21:45:06.123456"]  # the text is Shanghai's


def test_node_now_is_the_clients_clock_in_any_zone(node_driver, server):
    before = datetime.datetime.now(datetime.UTC)
    (row,) = run(node_driver, dsn(server, "&timezone=Asia/Shanghai"), [{"row": "SELECT now()"}])
    after = datetime.datetime.now(datetime.UTC)
    now = datetime.datetime.fromisoformat(row[0].replace("Z", "+00:00"))
    assert before - datetime.timedelta(seconds=5) <= now <= after + datetime.timedelta(seconds=5)

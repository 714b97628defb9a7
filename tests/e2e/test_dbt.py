"""dbt end to end: the real `dbt-databend-cloud` adapter runs a project twice against
`twistd queryhttp` (a table, a view, an incremental append and an incremental delete+insert
model, and a seed loaded with `dbt seed`), then `dbt test` (not_null, unique).

dbt lives in its own virtual environment (`.venv-dbt`, built on first use from PyPI, or the
one QUERYHTTP_DBT_VENV names): its pins (dbt-core 1.8, an older databend-sqlalchemy) conflict
with the project's test extras. When that environment cannot be built (no package index),
the test is skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.e2e.test_twistd import post

ROOT = Path(__file__).resolve().parents[2]
# dbt-databend-cloud 1.8 is built for dbt-core 1.8; databend-sqlalchemy there still imports
# pkg_resources, which setuptools 80 and later no longer ship
DBT_PACKAGES = ["dbt-databend-cloud==1.8.1", "dbt-core~=1.8.0", "setuptools<80"]
RUN_TIMEOUT = 300

MODELS = {
    "base_table.sql": """
        {{ config(materialized='table') }}
        select number as id, number * 10 as amount, concat('n', to_string(number)) as label
        from numbers({{ var('n', 5) }})
    """,
    "base_view.sql": """
        {{ config(materialized='view') }}
        select id, amount from {{ ref('base_table') }} where id > 1
    """,
    "inc_append.sql": """
        {{ config(materialized='incremental', incremental_strategy='append') }}
        select id, amount from {{ ref('base_table') }}
        {% if is_incremental() %}
        where id > (select max(id) from {{ this }})
        {% endif %}
    """,
    "inc_merge.sql": """
        {{ config(materialized='incremental', incremental_strategy='delete_insert', unique_key='id') }}
        select id, amount + {{ var('n', 5) }} as amount from {{ ref('base_table') }}
    """,
    "schema.yml": """
        version: 2
        models:
          - name: base_table
            columns:
              - name: id
                data_tests: [not_null, unique]
          - name: inc_merge
            columns:
              - name: id
                data_tests: [not_null, unique]
          - name: inc_append
            columns:
              - name: id
                data_tests: [not_null, unique]
    """,
}


def _dbt_executable() -> Path:
    venv = Path(os.environ.get("QUERYHTTP_DBT_VENV") or ROOT / ".venv-dbt")
    dbt = venv / "bin" / "dbt"
    if dbt.exists():
        return dbt
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=120)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *DBT_PACKAGES], check=True,
                       capture_output=True, timeout=900)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        output = getattr(exc, "stderr", b"") or b""
        pytest.skip(f"cannot build the dbt environment: {output.decode(errors='replace')[-500:]}")
    return dbt


@pytest.fixture(scope="module")
def dbt():
    return _dbt_executable()


def _project(tmp_path: Path, port: int) -> Path:
    (tmp_path / "models").mkdir()
    (tmp_path / "seeds").mkdir()
    (tmp_path / "dbt_project.yml").write_text(
        "name: qh\nversion: '1.0'\nconfig-version: 2\nprofile: qh\nmodel-paths: ['models']\n"
        "seed-paths: ['seeds']\n")
    # a seed goes through databend-py: PRESIGN, a PUT of the CSV, then COPY INTO
    (tmp_path / "seeds" / "people.csv").write_text("id,name,city\n1,ann,paris\n2,bob,rome\n3,cy,\n")
    (tmp_path / "profiles.yml").write_text(textwrap.dedent(f"""
        qh:
          target: dev
          outputs:
            dev:
              type: databend
              host: 127.0.0.1
              port: {port}
              schema: dbt_e2e
              user: root
              pass: ""
              secure: false
              threads: 1
    """))
    for name, text in MODELS.items():
        (tmp_path / "models" / name).write_text(textwrap.dedent(text))
    return tmp_path


def _dbt(dbt: Path, project: Path, *args: str) -> str:
    env = dict(os.environ, DO_NOT_TRACK="1", DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    done = subprocess.run([str(dbt), *args, "--profiles-dir", str(project), "--project-dir", str(project)],
                          cwd=project, env=env, capture_output=True, timeout=RUN_TIMEOUT)
    output = done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")
    assert done.returncode == 0, output[-4000:]
    return output


def _rows(server, sql):
    status, answer = post(server.url, {"sql": sql})
    assert status == 200 and answer["state"] == "Succeeded", answer
    return answer["data"]


def test_dbt_seed_run_twice_and_test(server, dbt, tmp_path):
    project = _project(tmp_path, server.port)
    # the profile's schema does not exist yet: dbt connects with it and creates it
    _dbt(dbt, project, "seed")
    assert _rows(server, "SELECT id, name, city FROM dbt_e2e.people ORDER BY id") == [
        ["1", "ann", "paris"], ["2", "bob", "rome"], ["3", "cy", "NULL"]]
    _dbt(dbt, project, "run")
    assert _rows(server, "SELECT count(*) FROM dbt_e2e.inc_append") == [["5"]]
    assert _rows(server, "SELECT id, amount FROM dbt_e2e.base_view ORDER BY id") == [
        ["2", "20"], ["3", "30"], ["4", "40"]]
    # the second run sees two more source rows: the append adds them, delete+insert replaces all
    _dbt(dbt, project, "run", "--vars", json.dumps({"n": 7}))
    assert _rows(server, "SELECT count(*), max(id) FROM dbt_e2e.inc_append") == [["7", "6"]]
    assert _rows(server, "SELECT count(*), min(amount) FROM dbt_e2e.inc_merge") == [["7", "7"]]
    assert _rows(server, "SELECT count(*) FROM dbt_e2e.base_view") == [["5"]]
    assert _rows(server, "SELECT name, engine FROM system.tables WHERE database = 'dbt_e2e' ORDER BY name") == [
        ["base_table", "FUSE"], ["base_view", "VIEW"], ["inc_append", "FUSE"], ["inc_merge", "FUSE"],
        ["people", "FUSE"]]
    output = _dbt(dbt, project, "test")
    assert "PASS=6" in output

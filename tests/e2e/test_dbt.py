"""dbt with the dbt-databend-cloud adapter against `twistd queryhttp`: seed, run twice, test.

dbt and the adapter pin versions that conflict with the main test extras (an older
databend-sqlalchemy), so they live in their own virtual environment, `.venv-dbt`, which
`make test` creates (`make dbt-env`); the test is skipped where it does not exist. The project
in tests/e2e/dbt_project has a seed, a table, a view, an append incremental and a
delete+insert incremental model, and not_null / unique tests.
"""

import shutil
import subprocess
from pathlib import Path

import databend_driver
import pytest

ROOT = Path(__file__).resolve().parents[2]
DBT = ROOT / ".venv-dbt" / "bin" / "dbt"
PROJECT = Path(__file__).resolve().parent / "dbt_project"

pytestmark = pytest.mark.skipif(not DBT.exists(), reason="no .venv-dbt (run `make dbt-env`)")


@pytest.fixture(scope="module")
def project(server, tmp_path_factory):
    path = tmp_path_factory.mktemp("dbt") / "project"
    shutil.copytree(PROJECT, path)
    (path / "profiles.yml").write_text(
        "qh:\n  target: dev\n  outputs:\n    dev:\n      type: databend\n"
        f"      host: 127.0.0.1\n      port: {server.port}\n      schema: analytics\n"
        "      user: root\n      pass: ''\n      secure: false\n")
    return path


def dbt(project, *args) -> str:
    done = subprocess.run([str(DBT), *args, "--profiles-dir", str(project), "--project-dir",
                           str(project)], capture_output=True, text=True, timeout=300,
                          cwd=project)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    return done.stdout


def rows(server, sql):
    client = databend_driver.BlockingDatabendClient(
        f"databend://root:@127.0.0.1:{server.port}/default?sslmode=disable")
    return [tuple(row.values()) for row in client.get_conn().query_iter(sql)]


def test_seed_run_twice_and_test(server, project):
    assert "Completed successfully" in dbt(project, "seed")
    assert rows(server, "SELECT id, name, city FROM analytics.people ORDER BY id") == [
        (1, "ann", "paris"), (2, "bob", "rome"), (3, "cy", "paris")]
    for _ in range(2):
        out = dbt(project, "run")
        assert "PASS=5" in out, out
    assert rows(server, "SELECT count(*), sum(n) FROM analytics.base_numbers") == [(10, 45)]
    assert rows(server, "SELECT grp, cnt FROM analytics.grp_view ORDER BY grp") == [
        (0, 4), (1, 3), (2, 3)]
    # the append model added nothing the second time (no n above the max); delete+insert
    # replaced its rows by key
    assert rows(server, "SELECT count(*) FROM analytics.inc_append") == [(10,)]
    assert rows(server, "SELECT grp, cnt FROM analytics.inc_di ORDER BY grp") == [
        (0, 4), (1, 3), (2, 3)]
    assert rows(server, "SELECT city, people FROM analytics.people_by_city ORDER BY city") == [
        ("paris", 2), ("rome", 1)]
    assert "PASS=4" in dbt(project, "test")

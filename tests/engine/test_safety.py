"""Generated code is built from node kinds only: hostile SQL text never becomes Python source."""

import subprocess
import sys

import pytest

import engine
from engine.codegen import compile as C

HOSTILE = "'); import os; os.system('echo pwned > /dev/null') #"


def test_hostile_strings_and_identifiers_are_data(db, captured_sources, monkeypatch):
    import os

    calls = []
    monkeypatch.setattr(os, "system", lambda *a: calls.append(a))
    s = db.session()
    quoted = HOSTILE.replace("'", "''")
    list(s.execute(f'CREATE TABLE "{HOSTILE}" ("{HOSTILE}" VARCHAR)'))
    list(s.execute(f"INSERT INTO \"{HOSTILE}\" VALUES ('{quoted}')"))
    rows = list(s.execute(
        f'SELECT "{HOSTILE}", "{HOSTILE}" || \'{quoted}\' AS "x{HOSTILE}" FROM "{HOSTILE}" '
        f"WHERE \"{HOSTILE}\" = '{quoted}' AND \"{HOSTILE}\" LIKE '%{quoted}%' "
        f"AND \"{HOSTILE}\" IN ('{quoted}', 'b') ORDER BY 1"))
    assert rows == [(HOSTILE, HOSTILE + HOSTILE)]
    assert calls == []
    assert captured_sources
    for source in captured_sources:
        assert "import" not in source and "os." not in source and "pwned" not in source


def test_generated_source_has_no_literal_text(db, captured_sources):
    list(db.session().execute("SELECT a * 12345 + 0.5, b = 'secret' FROM t WHERE c > 99.25"))
    text = "\n".join(captured_sources)
    assert "12345" not in text and "secret" not in text and "99.25" not in text
    assert "_k" in text


def test_generated_code_has_no_builtins_to_abuse():
    cg = C.Codegen()
    fn = cg.build([], ["return __import__"])
    with pytest.raises(NameError):
        fn()


def test_importing_engine_and_grammar_loads_no_web_stack():
    code = (
        "import sys, engine, grammar\n"
        "db = engine.Database(); list(db.session().execute('SELECT 1'))\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('twisted', 'klein', 'treq', 'web')]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_error_is_an_engine_error(db):
    s = db.session()
    for sql in ["SELECT 'a' + 1", "SELECT CAST('2020-13-45' AS DATE)", "SELECT SUBSTRING('abc', 'x')",
                "SELECT a FROM t ORDER BY 9"]:
        try:
            list(s.execute(sql))
        except engine.EngineError as exc:
            assert isinstance(exc.code, int)


def test_same_query_shape_with_other_values_is_not_confused(run):
    # the compiled code is shared by shape; the values must still be this query's own
    assert run("SELECT id FROM u WHERE label = 'two'") == [(2,)]
    assert run("SELECT id FROM u WHERE label = 'three'") == [(3,)]
    assert run("SELECT id * 10 FROM u WHERE id = 1") == [(10,)]
    assert run("SELECT id * 100 FROM u WHERE id = 1") == [(100,)]

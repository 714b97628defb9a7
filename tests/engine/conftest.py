"""Fixtures for engine tests: a database with small tables and a helper to run SQL."""

import pytest

import engine
from engine.codegen import compile as C


@pytest.fixture
def db():
    database = engine.Database()
    s = database.session()
    for sql in [
        "CREATE TABLE t (a INT, b VARCHAR, c DOUBLE)",
        "INSERT INTO t VALUES (1, 'x', 1.5), (2, 'y', NULL), (NULL, 'z', 3.25), (4, NULL, -1.0)",
        "CREATE TABLE u (id INT NOT NULL, label VARCHAR NOT NULL)",
        "INSERT INTO u VALUES (1, 'one'), (2, 'two'), (3, 'three')",
        "CREATE TABLE n (x INT)",
        "INSERT INTO n VALUES (1), (NULL)",
    ]:
        list(s.execute(sql))
    return database


@pytest.fixture
def session():
    """A session of a fresh, empty database."""
    return engine.Database().session()


@pytest.fixture
def run(db):
    session = db.session()

    def run_sql(sql):
        return list(session.execute(sql))

    return run_sql


@pytest.fixture
def captured_sources(monkeypatch):
    """The source of every function the code generator builds while the test runs, in order."""
    sources = []
    original = C.Codegen.build

    def build(self, params, body, name="_fn"):
        fn = original(self, params, body, name)
        sources.append(fn.source)
        return fn

    monkeypatch.setattr(C.Codegen, "build", build)
    return sources

"""The real databend-sqlalchemy dialect (SQLAlchemy Core on databend-driver) against `twistd queryhttp`.

The dialect opens a new driver connection (login + fresh session) for every statement, so the
database comes from the URL path, never from `USE`.  Reflection reads information_schema.tables /
columns and system.tables / temporary_tables; Core update() / delete() take their rowcount from
the one-row `number of rows updated` / `deleted` answer.
"""

import datetime
import decimal

import pytest

sqlalchemy = pytest.importorskip("sqlalchemy")
pytest.importorskip("databend_sqlalchemy")

from sqlalchemy import (  # noqa: E402  (after the importorskip guards)
    Boolean,
    Column,
    Date,
    DateTime,
    Integer,
    MetaData,
    Numeric,
    String,
    Table,
    create_engine,
    func,
    insert,
    inspect,
    select,
    text,
)
from sqlalchemy.exc import DBAPIError  # noqa: E402

# connect_timeout / page_request_timeout_secs are driver DSN keys (the dialect copies the URL
# query into the DSN): a server that stops answering fails a test instead of hanging it.
BOUNDED = "sslmode=disable&connect_timeout=5&page_request_timeout_secs=15"


def engine_for(server, database="default"):
    return create_engine(f"databend://root:@127.0.0.1:{server.port}/{database}?{BOUNDED}")


@pytest.fixture(scope="module")
def engine(server):
    eng = engine_for(server)
    yield eng
    eng.dispose()


@pytest.fixture
def conn(engine):
    with engine.connect() as connection:
        yield connection


def people_table(name):
    return Table(name, MetaData(), Column("id", Integer, nullable=False), Column("name", String(20)))


def test_connect_parses_the_server_version_and_default_database(engine, conn):
    # First connect ran SELECT VERSION() (parsed with the dialect's v<maj>.<min>.<patch>-...( regex)
    # and SELECT currentDatabase().
    assert engine.dialect.server_version_info == (1, 2, 934)
    assert engine.dialect.default_schema_name == "default"
    assert conn.scalar(text("SELECT currentDatabase()")) == "default"


def test_text_select_rows_and_nulls(conn):
    rows = conn.execute(text(
        "SELECT number AS n, CASE WHEN number % 2 = 0 THEN NULL ELSE 'odd' END AS s "
        "FROM numbers(4) ORDER BY n")).all()
    assert [tuple(r) for r in rows] == [(0, None), (1, "odd"), (2, None), (3, "odd")]
    assert conn.execute(text("SELECT NULL AS a, 1 + 1 AS b")).one()._mapping == {"a": None, "b": 2}


def test_text_bound_parameters_are_escaped(conn):
    tricky = "it's a\\b 100%"
    assert conn.scalar(text("SELECT :s"), {"s": tricky}) == tricky
    assert conn.scalar(text("SELECT :a + :b"), {"a": 40, "b": 2}) == 42


def test_create_table_and_insert_via_text_answers_the_inserted_count(conn):
    conn.execute(text("CREATE TABLE sa_text (x INT, y VARCHAR)"))
    inserted = conn.execute(text("INSERT INTO sa_text VALUES (1, 'a'), (2, NULL), (3, 'c')"))
    assert inserted.all() == [(3,)]  # the one-row `number of rows inserted` answer
    assert conn.execute(text("SELECT x, y FROM sa_text ORDER BY x")).all() == [
        (1, "a"), (2, None), (3, "c")]


def test_core_insert_rowcount_comes_from_the_one_row_answer(conn):
    people = people_table("sa_core")
    conn.execute(text("CREATE TABLE sa_core (id INT NOT NULL, name VARCHAR)"))
    assert conn.execute(insert(people).values(id=1, name="ann")).rowcount == 1
    assert conn.execute(insert(people).values(id=2, name=None)).rowcount == 1
    assert conn.scalar(select(func.count()).select_from(people)) == 2


def test_core_executemany_insert_is_one_multi_row_statement(conn):
    people = people_table("sa_many")
    conn.execute(text("CREATE TABLE sa_many (id INT NOT NULL, name VARCHAR)"))
    result = conn.execute(insert(people), [
        {"id": 1, "name": "ann"}, {"id": 2, "name": "o'hara"}, {"id": 3, "name": None}])
    assert result.rowcount == 3
    assert conn.execute(select(people).order_by(people.c.id)).all() == [
        (1, "ann"), (2, "o'hara"), (3, None)]


def test_core_select_with_where_order_by_limit_offset(conn):
    people = people_table("sa_select")
    conn.execute(text("CREATE TABLE sa_select (id INT NOT NULL, name VARCHAR)"))
    conn.execute(insert(people), [{"id": i, "name": f"p{i}"} for i in range(1, 7)])
    query = (select(people.c.id, people.c.name)
             .where(people.c.id > 2, people.c.name.like("p%"))
             .order_by(people.c.id.desc()))
    assert conn.execute(query).all() == [(6, "p6"), (5, "p5"), (4, "p4"), (3, "p3")]
    assert conn.execute(query.limit(2).offset(1)).all() == [(5, "p5"), (4, "p4")]
    assert conn.execute(select(people.c.name).where(people.c.id.in_([1, 4, 9]))
                        .order_by(people.c.name)).scalars().all() == ["p1", "p4"]


def test_ddl_from_metadata_and_typed_values_round_trip(engine, conn):
    # checkfirst=False: no existence checks here (test_create_all_and_drop_all_... covers them).
    metadata = MetaData()
    typed = Table("sa_typed", metadata,
                  Column("id", Integer, nullable=False), Column("ok", Boolean),
                  Column("amount", Numeric(10, 2)), Column("day", Date),
                  Column("at", DateTime), Column("label", String(10)))
    metadata.create_all(engine, checkfirst=False)
    conn.execute(insert(typed), [
        {"id": 1, "ok": True, "amount": decimal.Decimal("2.50"), "day": datetime.date(2024, 1, 2),
         "at": datetime.datetime(2024, 1, 2, 3, 4, 5), "label": "x"},
        {"id": 2, "ok": False, "amount": None, "day": None, "at": None, "label": None}])
    assert conn.execute(select(typed).order_by(typed.c.id)).all() == [
        (1, True, decimal.Decimal("2.50"), datetime.date(2024, 1, 2),
         datetime.datetime(2024, 1, 2, 3, 4, 5), "x"),
        (2, False, None, None, None, None)]
    metadata.drop_all(engine, checkfirst=False)
    assert "sa_typed" not in conn.execute(text("SHOW TABLES")).scalars().all()


def test_failing_query_raises_dbapierror_with_code_1025(conn):
    with pytest.raises(DBAPIError, match=r"\[1025\]Unknown table `default`.`no_such_table`"):
        conn.execute(text("SELECT * FROM no_such_table"))


def test_database_comes_from_the_url_path(server, conn):
    conn.execute(text("CREATE DATABASE sa_db"))
    other = engine_for(server, "sa_db")
    try:
        with other.connect() as c:
            assert other.dialect.default_schema_name == "sa_db"
            c.execute(text("CREATE TABLE only_here (x INT)"))
            c.execute(text("INSERT INTO only_here VALUES (7)"))
            assert c.scalar(text("SELECT x FROM only_here")) == 7
    finally:
        other.dispose()
    assert conn.scalar(text("SELECT x FROM sa_db.only_here")) == 7
    with pytest.raises(DBAPIError, match=r"\[1025\]"):
        conn.execute(text("SELECT x FROM only_here"))


def test_inspector_schema_names_use_show_databases(engine):
    assert {"default", "system", "information_schema"} <= set(inspect(engine).get_schema_names())


def test_inspector_table_names(engine, conn):
    conn.execute(text("CREATE TABLE sa_listed (x INT)"))
    assert "sa_listed" in inspect(engine).get_table_names()


def test_inspector_has_table(engine, conn):
    conn.execute(text("CREATE TABLE sa_present (x INT)"))
    inspector = inspect(engine)
    assert inspector.has_table("sa_present")
    assert not inspector.has_table("sa_absent")


def test_create_all_and_drop_all_check_for_existing_tables(engine, conn):
    metadata = MetaData()
    Table("sa_checked", metadata, Column("id", Integer))
    metadata.create_all(engine)
    metadata.create_all(engine)  # exists now: no second CREATE TABLE
    metadata.drop_all(engine)
    assert "sa_checked" not in conn.execute(text("SHOW TABLES")).scalars().all()


def test_inspector_columns(engine, conn):
    conn.execute(text("CREATE TABLE sa_cols (id INT NOT NULL, name VARCHAR)"))
    columns = inspect(engine).get_columns("sa_cols")
    assert [(c["name"], type(c["type"]).__name__, c["nullable"]) for c in columns] == [
        ("id", "INTEGER", False), ("name", "VARCHAR", True)]


def test_table_reflection(engine, conn):
    conn.execute(text("CREATE TABLE sa_reflected (id INT NOT NULL, name VARCHAR)"))
    reflected = Table("sa_reflected", MetaData(), autoload_with=engine)
    assert list(reflected.columns.keys()) == ["id", "name"]
    assert not reflected.c.id.nullable and reflected.c.name.nullable
    assert conn.execute(select(reflected)).all() == []
    assert inspect(engine).get_table_options("sa_reflected") == {"databend_engine": "FUSE"}


def test_metadata_reflect(engine, conn):
    conn.execute(text("CREATE TABLE sa_all (x INT)"))
    metadata = MetaData()
    metadata.reflect(engine)
    assert "sa_all" in metadata.tables


def test_core_update_and_delete_rowcounts(conn):
    people = people_table("sa_dml")
    conn.execute(text("CREATE TABLE sa_dml (id INT NOT NULL, name VARCHAR)"))
    conn.execute(insert(people), [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}])
    assert conn.execute(people.update().where(people.c.id == 1).values(name="z")).rowcount == 1
    assert conn.execute(people.delete().where(people.c.id == 2)).rowcount == 1
    assert conn.execute(select(people)).all() == [(1, "z")]
    conn.execute(insert(people), [{"id": 3, "name": "c"}, {"id": 4, "name": "d"}])
    assert conn.execute(people.update().values(id=people.c.id * 10)).rowcount == 3
    assert conn.execute(people.delete().where(people.c.id > 100)).rowcount == 0
    assert conn.execute(select(people.c.id).order_by(people.c.id)).scalars().all() == [10, 30, 40]
    assert conn.execute(people.delete()).rowcount == 3

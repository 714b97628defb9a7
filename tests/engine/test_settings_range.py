"""SHOW SETTINGS and system.settings: Databend's column order and `range` column."""

import pytest

from engine.core.errors import EngineError

COLUMNS = ["name", "value", "default", "range", "level", "description", "type"]


def test_show_settings_columns_in_databend_order(db):
    r = db.session().execute("SHOW SETTINGS LIKE 'max_threads'")
    assert [c.name for c in r.schema] == COLUMNS
    # as Databend 1.2.453 answers
    assert list(r) == [("max_threads", "2", "2", "[1, 1024]", "DEFAULT",
                        "Sets the maximum number of threads to execute a request.", "UInt64")]


def test_system_settings_has_range_column(db):
    r = db.session().execute("SELECT * FROM system.settings")
    assert [c.name for c in r.schema] == COLUMNS


@pytest.mark.parametrize("name, expected", [
    # as Databend 1.2.453 answers
    ("enable_query_result_cache", "[0, 1]"),
    ("http_handler_result_timeout_secs", "[0, 18446744073709551615]"),
    ("max_block_size", "[1, 18446744073709551615]"),
    ("max_execute_time_in_seconds", "[0, 18446744073709551615]"),
    ("max_memory_usage", "[0, 18446744073709551615]"),
    ("max_result_rows", "[0, 18446744073709551615]"),
    ("max_threads", "[1, 1024]"),
    ("sql_dialect", '["PostgreSQL", "MySQL", "Experimental", "Hive", "Prql"]'),
    ("timezone", "[\"Africa/Abidjan\", \"Africa/Accra\", \"Africa/Addis_Ababa\", \"Africa..."),
])
def test_setting_range(db, name, expected):
    rows = list(db.session().execute(f"SELECT \"range\" FROM system.settings WHERE name = '{name}'"))
    assert rows == [(expected,)]


@pytest.mark.parametrize("value", [0, 2000])
def test_value_outside_range_is_refused(db, value):
    with pytest.raises(EngineError) as e:
        db.session().execute(f"SET max_threads = {value}")
    # as Databend 1.2.453 answers
    assert (e.value.code, e.value.message) == (2803, f"Value {value} is not within the range [1, 1024].")

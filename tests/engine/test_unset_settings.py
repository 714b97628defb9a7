"""UNSET [SESSION | GLOBAL] as Databend's suite has it (base/05_ddl/05_0026_ddl_unset_settings):
GLOBAL drops the global value too (durably), an unknown name is skipped, SHOW SETTINGS LIKE
matches names whatever their case."""

from __future__ import annotations

import engine
from tests.engine.sql_helpers import error_code, q

SQL = "SELECT name, value, default, level FROM system.settings WHERE name IN ('sql_dialect', 'timezone')"


def test_unset_global_and_session():
    db = engine.Database()
    s = db.session()
    q(s, "SET GLOBAL sql_dialect = 'MySQL'")
    q(s, "SET GLOBAL timezone = 'Asia/Shanghai'")
    assert q(s, SQL) == [("sql_dialect", "MySQL", "PostgreSQL", "GLOBAL"),
                         ("timezone", "Asia/Shanghai", "UTC", "GLOBAL")]
    q(s, "UNSET GLOBAL (timezone)")
    q(s, "UNSET stl_dialect")  # no such setting: nothing to do (Databend warns)
    assert error_code(s, "SET stl_dialect = 'MySQL'") == 2801
    q(s, "UNSET GLOBAL sql_dialect")
    assert q(s, SQL) == [("sql_dialect", "PostgreSQL", "PostgreSQL", "DEFAULT"), ("timezone", "UTC", "UTC", "DEFAULT")]
    q(s, "SET GLOBAL load_file_metadata_expire_hours = 12")
    q(s, "SET load_file_metadata_expire_hours = 13")
    show = "SHOW SETTINGS LIKE 'LOAD_FILE_METADATA_EXPIRE_HOURS'"
    assert [r[:5] for r in q(s, show)] == [("load_file_metadata_expire_hours", "13", "24",
                                            "[0, 18446744073709551615]", "SESSION")]
    q(s, "UNSET SESSION load_file_metadata_expire_hours")
    assert [r[1] for r in q(s, show)] == ["12"]
    q(s, "UNSET load_file_metadata_expire_hours")  # no session value left: the global one stays
    assert [(r[1], r[4]) for r in q(s, show)] == [("12", "GLOBAL")]
    q(s, "UNSET GLOBAL load_file_metadata_expire_hours")
    assert [(r[1], r[4]) for r in q(s, show)] == [("24", "DEFAULT")]
    user = db.session(user="nobody")
    assert error_code(user, "UNSET GLOBAL timezone") == 1063  # SUPER, as SET GLOBAL


def test_unset_global_survives_a_restart(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "SET GLOBAL timezone = 'Asia/Shanghai'")
    q(s, "SET GLOBAL sql_dialect = 'MySQL'")
    q(s, "UNSET GLOBAL timezone")
    db.close()
    db = engine.Database(data_dir=data_dir)
    assert q(db.session(), SQL) == [("sql_dialect", "MySQL", "PostgreSQL", "GLOBAL"),
                                    ("timezone", "UTC", "UTC", "DEFAULT")]
    db.close()

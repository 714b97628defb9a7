"""SHOW FUNCTIONS and system.functions list the function registry with Databend's columns."""

import engine
from engine.functions import SCALARS, UNLISTED


def rows(sql):
    result = engine.Database().session().execute(sql)
    return [c.name for c in result.schema], list(result)


def test_system_functions_columns_and_rows():
    # as Databend 1.2.453 answers (its description, syntax and example are empty)
    names, found = rows("SELECT * FROM system.functions WHERE name IN ('abs', 'md5', 'sum', 'regexp_like') "
                        "ORDER BY name")
    assert names == ["name", "is_aggregate", "description", "syntax", "example"]
    assert found == [("abs", False, "", "", ""), ("md5", False, "", "", ""), ("regexp_like", False, "", "", ""),
                     ("sum", True, "", "", "")]


def test_show_functions_like():
    names, found = rows("SHOW FUNCTIONS LIKE 'md%'")
    assert names == ["name", "is_aggregate", "description"]
    assert found == [("md5", False, "")]


def test_every_registered_function_is_listed():
    _, found = rows("SELECT name FROM system.functions")
    listed = {r[0] for r in found}
    assert set(SCALARS) - UNLISTED <= listed  # [..], {..}, (..) and FLATTEN's rows are not listed
    assert not UNLISTED & listed
    assert {"to_int8", "try_to_uint64", "bit_and", "bit_shift_left", "regexp_replace", "city64withseed",
            "greatest", "nvl2", "translate"} <= listed

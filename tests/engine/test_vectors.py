"""Vector distance functions and operators (cosine_distance / <=>, l1_distance / <+>,
l2_distance / <->, inner_product, vector_dims, vector_norm) and the VECTOR(n) column type, with
the answers of Databend's query/functions/02_0063_function_vector.test: single precision for
integer / Float32 / VECTOR elements, double precision for Decimal / Float64 ones."""

from __future__ import annotations

import pytest

import engine
from tests.engine.test_nested_values import error, wire


@pytest.fixture
def s():
    return engine.Database().session()


def rows(session, sql):
    return wire(session, sql)[2]


def test_double_precision_for_decimal_arrays(s):
    assert rows(s, "SELECT cosine_distance([3.0, 45.0, 7.0, 2.0, 5.0, 20.0, 13.0, 12.0], "
                   "[2.0, 54.0, 13.0, 15.0, 22.0, 34.0, 50.0, 1.0])") == [("0.12641934893868967",)]
    assert rows(s, "SELECT l1_distance([1.1,2.2,3], [1,1,1]), l2_distance([1.1,2.2,3], [1,1,1]), "
                   "inner_product([1.1,2.2,3], [1,1,1])") == [
        ("3.3000000000000003", "2.3345235059857505", "6.300000000000001")]


def test_single_precision_operators_and_vector_type(s):
    assert rows(s, "SELECT [1, 2] <=> [2, 3], [1, 2] <+> [2, 3], [1, 2] <-> [2, 3]") == [
        ("0.0077221394", "2.0", "1.4142135")]
    assert rows(s, "SELECT cosine_distance([1.1,2.2,3]::vector(3), [1,1,1]::vector(3)), "
                   "l1_distance([1.1,2.2,3]::vector(3), [1,1,1]::vector(3))") == [("0.06241274", "3.3000002")]
    s.execute("CREATE TABLE vectors (a VECTOR(3), b VECTOR(3))")
    s.execute("INSERT INTO vectors VALUES ([1,2,3], [3,5,7]), (NULL, [7,8,9])")
    assert rows(s, "SELECT cosine_distance(a, b), l2_distance(a, b), vector_dims(a), vector_norm(a) FROM vectors") == [
        ("0.0025851727", "5.3851647", "3", "3.7416575"), ("NULL", "NULL", "NULL", "NULL")]
    assert error(s, "SELECT l2_distance([1, 2], [1, 2, 3])")[0] == 1006

"""Replays the differential tester's golden answers (bench.oracle): generated queries whose
column types and rows the real Databend engine (1.2.453, embedded) gave when they were recorded.
Every answer must agree, except the differences listed with a reason in known_differences.json
(which must still differ: a fixed one is removed from the list)."""

import json
from pathlib import Path

import pytest

from bench.oracle import agrees, difference, our_answer, our_session

HERE = Path(__file__).resolve().parent
GOLDEN = [json.loads(line) for line in (HERE / "golden.jsonl").read_text().splitlines() if line]
KNOWN = json.loads((HERE / "known_differences.json").read_text())


@pytest.fixture(scope="module")
def session():
    return our_session()


def test_the_golden_file_is_large_and_the_known_differences_are_few():
    assert len(GOLDEN) >= 500
    assert len(KNOWN) <= len(GOLDEN) // 100  # agreement stays at 99 % or more
    assert set(KNOWN) <= {case["sql"] for case in GOLDEN}


@pytest.mark.parametrize("case", GOLDEN, ids=lambda case: case["sql"][:80])
def test_answers_agree_with_databend(session, case):
    ours = our_answer(session, case["sql"])
    if case["sql"] in KNOWN:
        assert not agrees(ours, case["databend"]), "a known difference is fixed: remove it from the list"
    else:
        assert agrees(ours, case["databend"]), difference(ours, case["databend"])

"""Streaming behaviour: snapshots, bounded work per step, early stop, close, progress."""

import engine


def _steps(result):
    return list(result.batches())


def test_scan_reads_a_snapshot(db):
    s = db.session()
    list(s.execute("CREATE TABLE big (x INT)"))
    list(s.execute("INSERT INTO big SELECT number FROM numbers(10000)"))
    result = s.execute("SELECT x FROM big")
    it = result.batches()
    first = next(it)
    list(db.session().execute("INSERT INTO big VALUES (-1), (-2)"))
    rest = [r for batch in it for r in batch]
    assert len(first) + len(rest) == 10000
    assert (-1,) not in rest
    assert list(s.execute("SELECT count(*) FROM big")) == [(10002,)]


def test_truncate_during_scan_does_not_disturb_it(db):
    s = db.session()
    list(s.execute("CREATE TABLE big (x INT)"))
    list(s.execute("INSERT INTO big SELECT number FROM numbers(5000)"))
    it = s.execute("SELECT x FROM big").batches()
    first = next(it)
    list(db.session().execute("TRUNCATE TABLE big"))
    assert len(first) + sum(len(b) for b in it) == 5000


def _max_step_rows(result):
    sizes = []
    empty_steps = 0
    for batch in result.batches():
        sizes.append(len(batch))
        empty_steps += not batch
    return sizes, empty_steps


def test_sort_yields_empty_steps_before_rows(db):
    sizes, empty = _max_step_rows(db.session().execute("SELECT number FROM numbers(50000) ORDER BY number DESC"))
    assert empty >= 10 and sum(sizes) == 50000 and max(sizes) <= 4096


def test_group_by_yields_empty_steps(db):
    sizes, empty = _max_step_rows(db.session().execute(
        "SELECT number % 10, count(*) FROM numbers(50000) GROUP BY number % 10"))
    assert empty >= 10 and sum(sizes) == 10


def test_hash_join_build_yields_empty_steps(db):
    sizes, empty = _max_step_rows(db.session().execute(
        "SELECT count(*) FROM numbers(20000) a JOIN numbers(20000) b ON a.number = b.number"))
    assert empty >= 10


def test_distinct_yields_empty_steps_and_bounded_batches(db):
    sizes, empty = _max_step_rows(db.session().execute("SELECT DISTINCT number % 9000 FROM numbers(50000)"))
    assert empty >= 10 and sum(sizes) == 9000 and max(sizes) <= 4096


def test_distinct_of_columns_and_expressions(db, run):
    s = db.session()
    list(s.execute("CREATE TABLE dd (a INT, b VARCHAR)"))
    list(s.execute("INSERT INTO dd VALUES (1, 'x'), (1, 'x'), (2, 'x'), (NULL, NULL), (NULL, 'y')"))
    assert sorted(s.execute("SELECT DISTINCT b FROM dd"), key=repr) == [("x",), ("y",), (None,)]
    assert sorted(s.execute("SELECT DISTINCT b, a FROM dd"), key=repr) == [
        ("x", 1), ("x", 2), ("y", None), (None, None)]
    assert sorted(s.execute("SELECT DISTINCT a + 1 FROM dd WHERE a IS NOT NULL")) == [(2,), (3,)]


def test_distinct_under_limit_streams(db):
    result = db.session().execute("SELECT DISTINCT number % 5 FROM numbers(100000000) LIMIT 5")
    assert sorted(result) == [(0,), (1,), (2,), (3,), (4,)]
    assert result.progress.scan_rows <= 4096


def test_limit_stops_the_pipeline_early(db):
    result = db.session().execute("SELECT number FROM numbers(100000000) LIMIT 3")
    assert list(result) == [(0,), (1,), (2,)]
    assert result.progress.scan_rows <= 4096


def test_top_k_keeps_order(run):
    assert run("SELECT number FROM numbers(10000) ORDER BY number DESC LIMIT 3") == [(9999,), (9998,), (9997,)]
    assert run("SELECT number % 7 AS m, number FROM numbers(100) ORDER BY m DESC, number LIMIT 2 OFFSET 1") == [
        (6, 13), (6, 20)]


def test_numbers_is_streamed_not_materialised(db):
    it = db.session().execute("SELECT number FROM numbers(1000000000000)").batches()
    assert next(it)[0] == (0,)


def test_close_stops_and_is_idempotent(db):
    result = db.session().execute("SELECT number FROM numbers(1000000)")
    it = result.batches()
    next(it)
    result.close()
    result.close()
    assert list(it) == []


def test_progress_counts_scan_and_result_rows(db):
    result = db.session().execute("SELECT a FROM t WHERE a > 1")
    rows = list(result)
    assert result.progress.scan_rows == 4
    assert result.progress.result_rows == len(rows) == 2
    assert result.progress.result_bytes > 0


def test_big_sort_in_runs_is_correct():
    from engine.core.limits import Limits

    session = engine.Database(limits=Limits(step_rows=1000, sort_run_rows=1000)).session()

    def run(sql):
        return list(session.execute(sql))

    rows = run("SELECT number FROM numbers(5000) ORDER BY number % 100, number DESC LIMIT 3")
    assert rows == [(4900,), (4800,), (4700,)]
    # LIMIT + OFFSET beyond the step budget: sorted in runs, merged, then cut
    rows = run("SELECT number FROM numbers(5000) ORDER BY number % 100, number DESC LIMIT 3 OFFSET 1000")
    assert rows == [(4920,), (4820,), (4720,)]
    rows = run("SELECT number FROM numbers(5000) ORDER BY number DESC")
    assert [r[0] for r in rows] == list(range(4999, -1, -1))


def test_schema_known_before_rows(db):
    result = db.session().execute("SELECT number AS n FROM numbers(3)")
    assert result.schema == [engine.Column("n", "UInt64")]


def test_mod_and_div_follow_the_dividend_sign_after_negatives_arrive(db):
    s = db.session()
    list(s.execute("CREATE TABLE m (x INT)"))
    list(s.execute("INSERT INTO m VALUES (7), (8), (NULL)"))
    query = "SELECT x % 3, x DIV 2 FROM m ORDER BY x"
    assert list(s.execute(query)) == [(1, 3), (2, 4), (None, None)]  # no negatives yet: fast path
    list(s.execute("INSERT INTO m VALUES (-7)"))
    assert list(s.execute(query)) == [(-1, -3), (1, 3), (2, 4), (None, None)]
    list(s.execute("TRUNCATE TABLE m"))
    list(s.execute("INSERT INTO m VALUES (7)"))
    assert list(s.execute(query)) == [(1, 3)]
    list(s.execute("UPDATE m SET x = -x"))
    assert list(s.execute(query)) == [(-1, -3)]
    list(s.execute("INSERT INTO m SELECT -number FROM numbers(5)"))
    assert [r[0] for r in s.execute("SELECT x % 3 FROM m WHERE x = -4")] == [-1]


def test_steps_pause_the_collector_and_restore_it(db):
    import gc

    assert gc.isenabled()
    seen = []
    s = db.session()
    list(s.execute("CREATE TABLE g (x INT)"))
    list(s.execute("INSERT INTO g VALUES (1), (0)"))
    for _batch in s.execute("SELECT number FROM numbers(5000)").batches():
        seen.append(gc.isenabled())  # the consumer runs between steps: collector on
    assert seen and all(seen)
    try:
        list(s.execute("SELECT 1 DIV x FROM g"))
    except engine.EngineError:
        pass
    assert gc.isenabled()  # a failing step leaves it on
    gc.disable()
    try:
        list(s.execute("SELECT number FROM numbers(10)"))
        assert not gc.isenabled()  # an embedder's choice is kept
    finally:
        gc.enable()


def test_full_sort_of_projected_columns(db):
    s = db.session()
    list(s.execute("CREATE TABLE so (a INT, b VARCHAR, c DOUBLE)"))
    list(s.execute("INSERT INTO so VALUES (3, 'x', 1.5), (1, NULL, 2.5), (2, 'y', NULL), (NULL, 'z', 0.5)"))
    assert list(s.execute("SELECT b, a FROM so ORDER BY a")) == [(None, 1), ("y", 2), ("x", 3), ("z", None)]
    assert list(s.execute("SELECT a, c FROM so ORDER BY c DESC NULLS FIRST")) == [
        (2, None), (1, 2.5), (3, 1.5), (None, 0.5)]
    assert list(s.execute("SELECT c * 2 AS d, b FROM so ORDER BY b DESC, d")) == [
        (1.0, "z"), (None, "y"), (3.0, "x"), (5.0, None)]
    assert list(s.execute("SELECT b FROM so ORDER BY c")) == [("z",), ("x",), (None,), ("y",)]
    assert list(s.execute("SELECT a, a AS again FROM so ORDER BY again DESC")) == [
        (3, 3), (2, 2), (1, 1), (None, None)]  # NULLs last unless asked


def test_top_k_over_many_batches_keeps_the_first_of_ties(run):
    # ties with the k-th key arrive in later batches and must not displace earlier rows
    assert run("SELECT number % 10 AS m, number FROM numbers(10000) ORDER BY m DESC LIMIT 3") == [
        (9, 9), (9, 19), (9, 29)]
    assert run("SELECT number % 10 AS m, number FROM numbers(10000) ORDER BY m LIMIT 3 OFFSET 2") == [
        (0, 20), (0, 30), (0, 40)]
    assert run("SELECT number FROM numbers(10000) ORDER BY number DESC LIMIT 2") == [(9999,), (9998,)]


def test_global_aggregates_of_plain_columns_across_batches(db):
    s = db.session()
    list(s.execute("CREATE TABLE ga (x INT, y DOUBLE)"))
    list(s.execute("INSERT INTO ga SELECT number, number / 2 FROM numbers(5000)"))
    list(s.execute("INSERT INTO ga VALUES (NULL, NULL), (-3, NULL)"))
    assert list(s.execute("SELECT count(*), count(x), sum(x), avg(x), min(x), max(x), sum(y), avg(y) FROM ga")) == [
        (5002, 5001, 12497497, 12497497 / 5001, -3, 4999, 6248750.0, 6248750.0 / 5000)]
    assert list(s.execute("SELECT sum(x), avg(x), min(y), count(y) FROM ga WHERE x > 10000")) == [
        (None, None, None, 0)]

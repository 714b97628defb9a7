"""Failed logins in the log: each (user, address, reason) once per window, at most LINES
lines a window, the rest summed up in one line at the window's end (a Clock, no sleeps)."""

from twisted.internet.task import Clock

from web.login_log import FailedLoginLog


def make(lines=3, window=60.0):
    clock = Clock()
    written = []
    log = FailedLoginLog(lambda fmt, **fields: written.append(fmt.format(**fields)),
                         lambda: clock, window_secs=window, lines=lines)
    return log, clock, written


def test_a_repeated_failure_is_logged_once_per_window_then_summed_up():
    log, clock, written = make()
    for _ in range(5):
        log.refused("mallory", "10.0.0.1", "unknown user")
    assert written == ["login refused: user 'mallory' from 10.0.0.1: unknown user"]
    clock.advance(59.9)
    assert len(written) == 1
    clock.advance(0.1)  # the window ends: one line for the four not logged
    assert len(written) == 2
    assert written[1].startswith("login refused 4 more times in 60 s from 1 address(es), "
                                 "not logged one by one")
    clock.advance(600)
    assert len(written) == 2  # nothing more to say
    log.refused("mallory", "10.0.0.1", "unknown user")  # a new window: logged again
    assert written[2] == written[0]


def test_distinct_failures_are_each_logged_up_to_the_lines_of_a_window():
    log, clock, written = make(lines=3)
    for i in range(10):
        log.refused(f"user{i}", f"10.0.0.{i}", "unknown user")
    assert written == [f"login refused: user 'user{i}' from 10.0.0.{i}: unknown user"
                       for i in range(3)]
    clock.advance(60)
    assert written[3].startswith("login refused 7 more times in 60 s from 7 address(es)")
    assert len(written) == 4


def test_the_reason_is_part_of_what_is_logged_once():
    log, clock, written = make()
    log.refused("alice", "10.0.0.1", "wrong password")
    log.refused("alice", "10.0.0.1", "user is disabled")
    log.refused("alice", "10.0.0.1", "wrong password")
    assert written == ["login refused: user 'alice' from 10.0.0.1: wrong password",
                       "login refused: user 'alice' from 10.0.0.1: user is disabled"]


def test_a_flood_from_many_addresses_costs_bounded_memory_and_lines():
    log, clock, written = make(lines=20)
    for i in range(50_000):
        log.refused("root", f"10.{i // 65536}.{i // 256 % 256}.{i % 256}", "wrong password")
    clock.advance(60)
    assert len(written) == 21
    assert "49980 more times in 60 s from 1000+ address(es)" in written[-1]

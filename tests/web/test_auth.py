"""Users file, password hashes, and queries readable only by their owner."""

import base64

import pytest
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.logger import Logger, formatEvent
from twisted.python.failure import Failure

from engine.catalog.passwords import SCRYPT_PARAMETERS
from tests.web.harness import Harness, ManualThreads, run_now
from web.auth import (
    BACKOFF_MAX_SECS,
    BACKOFF_SECS,
    DUMMY_HASH,
    LOGIN_REFUSED,
    Authenticator,
    hash_password,
    load_users,
    main,
    verify_password,
)
from web.errors import Unauthorized


def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def test_hash_round_trip_and_salt():
    encoded = hash_password("s3cret")
    assert encoded.startswith("scrypt$") and "s3cret" not in encoded
    assert verify_password("s3cret", encoded)
    assert not verify_password("wrong", encoded)
    assert hash_password("s3cret") != encoded  # a fresh salt each time
    assert not verify_password("x", "garbage")


def test_users_file(tmp_path):
    path = tmp_path / "users"
    path.write_text(f"# team\nalice:{hash_password('a')}\n\nbob:{hash_password('')}\n")
    users = load_users(str(path))
    assert set(users) == {"alice", "bob"}
    bad = tmp_path / "bad"
    bad.write_text("alice:plaintext\n")
    with pytest.raises(ValueError, match="bad:1"):
        load_users(str(bad))


class FakeUserStore:
    """The two questions the authenticator asks the engine's user store."""

    def __init__(self, hashes, disabled=()):
        self.hashes = hashes
        self.disabled = set(disabled)

    def password_hash(self, user):
        return self.hashes.get(user)

    def is_disabled(self, user):
        return user in self.disabled


def outcome(result):
    """The value or the failure of a Deferred that has fired (or a plain value)."""
    if not isinstance(result, Deferred):
        return result
    out = []
    result.addBoth(out.append)
    assert out, "the verification has not finished"
    if isinstance(out[0], Failure):
        return out[0].value
    return out[0]


def test_authenticator_with_users_file_rejects_root_and_wrong_passwords():
    clock = Clock()
    auth = Authenticator({"alice": hash_password("a")}, clock=clock, run_in_thread=run_now)
    assert outcome(auth.authenticate(basic("alice", "a").encode())) == "alice"
    assert auth.authenticate(basic("alice", "a").encode()) == "alice"  # cached: no Deferred
    refused = outcome(auth.authenticate(basic("alice", "b").encode()))
    assert isinstance(refused, Unauthorized) and refused.message == LOGIN_REFUSED
    clock.advance(BACKOFF_MAX_SECS)
    root = auth.authenticate(basic("root", "").encode())
    clock.advance(BACKOFF_MAX_SECS)
    refused = outcome(root)
    assert isinstance(refused, Unauthorized) and refused.message == LOGIN_REFUSED


def pending(d: Deferred) -> bool:
    """True when `d` has no result yet (nothing is consumed: results are only peeked)."""
    return not d.called or isinstance(getattr(d, "result", None), Deferred)


def test_password_hashing_runs_in_the_thread_runner_not_inline():
    threads = ManualThreads()
    auth = Authenticator({"alice": hash_password("a")}, clock=Clock(), run_in_thread=threads)
    d = auth.authenticate(basic("alice", "a").encode())
    assert isinstance(d, Deferred) and pending(d)
    assert [f for f, _, _ in threads.calls] == [verify_password]
    assert threads.finish() == 1
    assert outcome(d) == "alice"


def refusal_of(auth, threads, header, client):
    """(the hashing calls made, the refusal's code and message) of one failed login."""
    d = auth.authenticate(header.encode(), client)
    calls = [(f, args[1]) for f, args, _ in threads.calls]
    threads.finish()
    refused = outcome(d)
    assert isinstance(refused, Unauthorized)
    return calls, refused.status, refused.code, refused.message


@pytest.mark.parametrize("users_file", [True, False])
def test_unknown_user_and_wrong_password_answer_alike_after_the_same_hashing(users_file):
    """The same answer and one scrypt verification each (the unknown user's against the dummy
    hash, in the same thread runner); only the log tells them apart."""
    alice = hash_password("a")
    threads = ManualThreads()
    auth = Authenticator({"alice": alice} if users_file else None, clock=Clock(),
                         run_in_thread=threads)
    store = FakeUserStore({} if users_file else {"alice": alice})
    auth._sql_users = store
    events = []
    auth.log = Logger(observer=events.append)
    wrong = refusal_of(auth, threads, basic("alice", "b"), "10.0.0.1")
    unknown = refusal_of(auth, threads, basic("mallory", "b"), "10.0.0.2")
    assert wrong[0] == [(verify_password, alice)]
    assert unknown[0] == [(verify_password, DUMMY_HASH)]
    assert wrong[1:] == unknown[1:] == (401, 5100, LOGIN_REFUSED)
    lines = [formatEvent(e) for e in events]
    assert lines == ["login refused: user 'alice' from 10.0.0.1: wrong password",
                     "login refused: user 'mallory' from 10.0.0.2: unknown user"]
    assert not any("b" in e.get("reason", "") for e in events)  # the password is never logged


def test_the_dummy_hash_costs_what_a_real_one_does():
    scheme, n, r, p, salt, key = DUMMY_HASH.split("$")
    assert scheme == "scrypt" and (int(n), int(r), int(p)) == tuple(SCRYPT_PARAMETERS.values())
    real = hash_password("x").split("$")
    assert len(base64.b64decode(salt)) == len(base64.b64decode(real[4]))
    assert len(base64.b64decode(key, validate=True)) == len(base64.b64decode(real[5]))


def test_root_without_users_file_wrong_password_is_hashed_and_refused_alike():
    threads = ManualThreads()
    auth = Authenticator(None, clock=Clock(), run_in_thread=threads)
    assert auth.authenticate(basic("root", "").encode()) == "root"  # no hashing at all
    calls, *answer = refusal_of(auth, threads, basic("root", "x"), "10.0.0.1")
    assert calls == [(verify_password, DUMMY_HASH)] and answer == [401, 5100, LOGIN_REFUSED]


def test_a_disabled_user_is_told_so_only_with_the_right_password():
    threads = ManualThreads()
    auth = Authenticator(None, clock=Clock(), run_in_thread=threads)
    auth._sql_users = FakeUserStore({"carol": hash_password("c")}, disabled={"carol"})
    _, *wrong = refusal_of(auth, threads, basic("carol", "x"), "10.0.0.1")
    assert wrong == [401, 5100, LOGIN_REFUSED]
    auth._retry_at.clear()
    _, *right = refusal_of(auth, threads, basic("carol", "c"), "10.0.0.1")
    assert right[2] == "AuthenticateFailure: user carol is disabled. Not allowed to login"


def test_malformed_credentials_are_logged_without_the_token():
    auth = Authenticator(None, clock=Clock(), run_in_thread=run_now)
    events = []
    auth.log = Logger(observer=events.append)
    with pytest.raises(Unauthorized, match="malformed"):
        auth.authenticate(b"Basic !!secret!!", "10.0.0.9")
    assert [formatEvent(e) for e in events] == [
        "login refused: user '' from 10.0.0.9: Authentication error: malformed Basic credentials"]


def test_a_repeated_failed_login_is_logged_once_per_window():
    """Malformed headers skip the back-off (nothing to hash): the log's own limit holds."""
    clock = Clock()
    auth = Authenticator(None, clock=clock, run_in_thread=run_now)
    events = []
    auth.log = Logger(observer=events.append)
    for _ in range(100):
        with pytest.raises(Unauthorized):
            auth.authenticate(b"Basic !!", "10.0.0.9")
    assert len(events) == 1
    clock.advance(60)
    assert [formatEvent(e) for e in events][1].startswith("login refused 99 more times in 60 s")


def test_failed_logins_back_off_per_address_and_run_one_at_a_time():
    clock = Clock()
    threads = ManualThreads()
    users = {"alice": hash_password("a"), "bob": hash_password("b")}
    auth = Authenticator(users, clock=clock, run_in_thread=threads)
    first = auth.authenticate(basic("alice", "x").encode(), "10.0.0.1")
    second = auth.authenticate(basic("bob", "y").encode(), "10.0.0.1")
    assert len(threads.calls) == 1  # one verification per address at a time
    threads.finish()
    assert isinstance(outcome(first), Unauthorized)
    assert threads.calls == [] and pending(second)  # waits out the address's back-off
    other = auth.authenticate(basic("alice", "a").encode(), "10.0.0.2")
    assert threads.finish() == 1 and outcome(other) == "alice"  # other addresses: no delay
    clock.advance(BACKOFF_SECS - 0.01)
    assert threads.calls == []
    clock.advance(0.02)
    assert threads.finish() == 1 and isinstance(outcome(second), Unauthorized)
    third = auth.authenticate(basic("bob", "b").encode(), "10.0.0.1")
    clock.advance(2 * BACKOFF_SECS - 0.01)  # the back-off doubled
    assert threads.calls == []
    clock.advance(0.02)
    assert threads.finish() == 1 and outcome(third) == "bob"
    fourth = auth.authenticate(basic("alice", "z").encode(), "10.0.0.1")
    assert threads.finish() == 1  # a success reset the back-off
    assert isinstance(outcome(fourth), Unauthorized)


@pytest.mark.parametrize("limit", [BACKOFF_MAX_SECS, 1.0])
def test_the_back_off_is_bounded_by_its_option(limit):
    clock = Clock()
    threads = ManualThreads()
    auth = Authenticator({"alice": hash_password("a")}, clock=clock, run_in_thread=threads,
                         backoff_max_secs=limit)
    for _ in range(12):
        d = auth.authenticate(basic("alice", "x").encode(), "10.0.0.1")
        clock.advance(limit)
        assert threads.finish() == 1 and isinstance(outcome(d), Unauthorized)
    d = auth.authenticate(basic("alice", "a").encode(), "10.0.0.1")
    clock.advance(limit - 0.01)
    assert threads.calls == []  # still waiting: the back-off reached the limit
    clock.advance(0.02)
    assert threads.finish() == 1 and outcome(d) == "alice"


def test_the_remembered_addresses_are_bounded(monkeypatch):
    monkeypatch.setattr("web.auth._CLIENT_LIMIT", 4)
    clock = Clock()
    auth = Authenticator({"alice": hash_password("a")}, clock=clock, run_in_thread=run_now)
    for i in range(10):
        outcome(auth.authenticate(basic("alice", "x").encode(), f"10.0.0.{i}"))
    assert len(auth._failures) <= 4 and set(auth._failures) == set(auth._retry_at)
    assert "10.0.0.9" in auth._failures  # the newest is kept


def test_queries_belong_to_their_user():
    h = Harness(authenticator=Authenticator({"alice": hash_password("a"),
                                             "bob": hash_password("b")},
                                            run_in_thread=run_now))
    a = h.post("SELECT 1", auth=basic("alice", "a")).json
    assert a["state"] == "Succeeded"
    unknown = a["stats_uri"].replace(a["id"], a["id"][:-1] + "x")
    for suffix in ("", "/kill", "/final", "/page/0"):
        # another user's query answers exactly as an unknown id: no existence oracle
        theirs = h.get(a["stats_uri"] + suffix, auth=basic("bob", "b"))
        nobody = h.get(unknown + suffix, auth=basic("bob", "b"))
        assert theirs.status == nobody.status == 404
        assert theirs.body == nobody.body.replace(a["id"][:-1].encode() + b"x",
                                                  a["id"].encode())
    assert h.get(a["stats_uri"], auth=basic("alice", "a")).status == 200
    assert h.request("POST", a["final_uri"], auth=basic("bob", "b")).status == 404
    assert h.request("POST", a["kill_uri"], auth=basic("bob", "b")).status == 404
    heartbeat = h.request("POST", "/v1/session/heartbeat", {"node_to_queries": {"": [a["id"]]}},
                          auth=basic("bob", "b"))
    assert heartbeat.json == {"queries_to_remove": [a["id"]]}  # not bob's to keep alive
    assert h.app.queries.find(a["id"]).closed is None  # nothing bob did closed it


def test_hash_command_help_prints_help_and_no_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m web.auth [-h] NAME") and "scrypt$" not in out


@pytest.mark.parametrize("name", ["a:b", "", " bob"])
def test_hash_command_refuses_a_name_a_users_file_cannot_hold(name, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([name])
    assert exit_.value.code == 2 and "scrypt$" not in capsys.readouterr().out


def test_hash_command_prints_a_users_file_line(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("pw\n"))
    assert main(["carol"]) == 0
    name, encoded = capsys.readouterr().out.strip().split(":", 1)
    assert name == "carol" and verify_password("pw", encoded)

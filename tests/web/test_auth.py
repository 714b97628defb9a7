"""Users file, password hashes, and queries readable only by their owner."""

import base64

import pytest
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.python.failure import Failure

from tests.web.harness import Harness, ManualThreads, run_now
from web.auth import (
    BACKOFF_MAX_SECS,
    BACKOFF_SECS,
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
    assert isinstance(refused, Unauthorized) and "wrong password" in refused.message
    with pytest.raises(Unauthorized, match="unknown user"):
        auth.authenticate(basic("root", "").encode())


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


def test_failed_verifications_back_off_per_user_and_run_one_at_a_time():
    clock = Clock()
    threads = ManualThreads()
    users = {"alice": hash_password("a"), "bob": hash_password("b")}
    auth = Authenticator(users, clock=clock, run_in_thread=threads)
    first = auth.authenticate(basic("alice", "x").encode())
    second = auth.authenticate(basic("alice", "y").encode())
    assert len(threads.calls) == 1  # one verification of a user at a time
    threads.finish()
    assert isinstance(outcome(first), Unauthorized)
    assert threads.calls == [] and pending(second)  # waits out the back-off
    bob = auth.authenticate(basic("bob", "b").encode())
    assert threads.finish() == 1 and outcome(bob) == "bob"  # other users are not delayed
    clock.advance(BACKOFF_SECS - 0.01)
    assert threads.calls == []
    clock.advance(0.02)
    assert threads.finish() == 1 and isinstance(outcome(second), Unauthorized)
    third = auth.authenticate(basic("alice", "a").encode())
    clock.advance(2 * BACKOFF_SECS - 0.01)  # the back-off doubled
    assert threads.calls == []
    clock.advance(0.02)
    assert threads.finish() == 1 and outcome(third) == "alice"
    fourth = auth.authenticate(basic("alice", "z").encode())
    assert threads.finish() == 1  # a success reset the back-off
    assert isinstance(outcome(fourth), Unauthorized)


def test_the_back_off_is_bounded():
    clock = Clock()
    auth = Authenticator({"alice": hash_password("a")}, clock=clock, run_in_thread=run_now)
    for _ in range(12):
        d = auth.authenticate(basic("alice", "x").encode())
        clock.advance(BACKOFF_MAX_SECS)
        assert isinstance(outcome(d), Unauthorized)
    d = auth.authenticate(basic("alice", "a").encode())
    clock.advance(BACKOFF_MAX_SECS)
    assert outcome(d) == "alice"


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


def test_hash_command_prints_a_users_file_line(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("pw\n"))
    assert main(["carol"]) == 0
    name, encoded = capsys.readouterr().out.strip().split(":", 1)
    assert name == "carol" and verify_password("pw", encoded)

"""Users file, password hashes, and queries readable only by their owner."""

import base64

import pytest

from tests.web.harness import Harness
from web.auth import Authenticator, hash_password, load_users, main, verify_password
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


def test_authenticator_with_users_file_rejects_root_and_wrong_passwords():
    auth = Authenticator({"alice": hash_password("a")})
    assert auth.authenticate(basic("alice", "a").encode()) == "alice"
    assert auth.authenticate(basic("alice", "a").encode()) == "alice"  # cached path
    with pytest.raises(Unauthorized, match="wrong password"):
        auth.authenticate(basic("alice", "b").encode())
    with pytest.raises(Unauthorized, match="unknown user"):
        auth.authenticate(basic("root", "").encode())


def test_queries_belong_to_their_user():
    h = Harness(authenticator=Authenticator({"alice": hash_password("a"),
                                             "bob": hash_password("b")}))
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

"""HTTP Basic authentication against built-in root (empty password) or a users file of hashes,
and the users CREATE USER made (the engine's user store, engine.catalog.users).

A users file has one `name:hash` per line (`#` starts a comment). Make a line with
`python -m web.auth NAME` (reads the password from the terminal or stdin); hashes are
`scrypt$n$r$p$salt$key` with a random salt, base64 fields.
"""

from __future__ import annotations

import base64
import binascii
import sys

from twisted.internet.defer import Deferred, DeferredLock, succeed
from twisted.internet.task import deferLater

from engine import hash_password, is_encoded_hash, verify_password
from web.errors import Unauthorized

__all__ = ["Authenticator", "hash_password", "load_users", "verify_password"]

AUTHENTICATE_FAILED = 5100
UNKNOWN_USER = 2201

_CACHE_LIMIT = 1024
# After a failed password check of a user, their next check waits this long, doubling with
# each further failure up to BACKOFF_MAX_SECS (a success resets it).
BACKOFF_SECS = 0.25
BACKOFF_MAX_SECS = 8.0


def load_users(path: str) -> dict[str, str]:
    """name -> encoded hash, from a users file; ValueError names the bad line."""
    users: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, encoded = line.partition(":")
            if not sep or not name or not is_encoded_hash(encoded):
                raise ValueError(f"{path}:{number}: expected name:scrypt$n$r$p$salt$key")
            users[name] = encoded
    if not users:
        raise ValueError(f"{path}: no users")
    return users


class Authenticator:
    """Checks the Authorization header of a request and names its user.

    Without a users file `root` with an empty password exists (no hashing: answered at once).
    With one, its users do instead. Either way the users SQL created (`use_sql_users`, the
    engine's user store) may log in too. A password is checked with scrypt (~65 ms of CPU) in a thread
    (`run_in_thread`, deferToThread by default), so `authenticate` returns a Deferred and the
    event loop keeps serving. Verifications of one user run one at a time, and each failed
    one delays that user's next by a back-off (BACKOFF_SECS, doubling to BACKOFF_MAX_SECS,
    reset by a success): guessing a password costs the server at most one hash per back-off
    per user. Verified headers are remembered (a bounded cache; failures never are) with the
    hash they matched, so the hash runs once per credential, and a dropped SQL user or a changed
    password no longer logs in.
    """

    def __init__(self, users: dict[str, str] | None = None, *, clock=None,
                 run_in_thread=None):
        self._users = users
        self._clock = clock
        self._run_in_thread = run_in_thread
        self._sql_users = None  # engine.catalog.users.UserStore, once use_sql_users is called
        self._verified: dict[bytes, tuple[str, str | None]] = {}  # header -> (user, hash matched)
        self._failures: dict[str, int] = {}  # user -> failed verifications in a row
        self._retry_at: dict[str, float] = {}  # user -> earliest next verification
        self._locks: dict[str, DeferredLock] = {}

    def use_sql_users(self, store) -> None:
        """Let the users of `store` (engine.catalog.users.UserStore) log in, and make the users file's
        users (or root) its bootstrap administrators."""
        self._sql_users = store
        store.add_bootstrap_users(dict(self._users) if self._users is not None else {"root": None})

    def authenticate(self, header: bytes | None) -> str | Deferred:
        """The user, or a Deferred firing with it; Unauthorized (raised or as the Deferred's
        failure) for missing, malformed or wrong credentials."""
        if header is None:
            raise Unauthorized("Authentication error: no authorization header provided",
                               code=AUTHENTICATE_FAILED)
        known = self._verified.get(header)
        if known is not None:
            user, encoded = known
            if encoded is None or (self._password_hash(user) == encoded and not self._disabled(user)):
                return user
            del self._verified[header]  # a dropped or disabled SQL user, or a changed password
        user, password = self._parse(header)
        if self._users is None and user == "root":
            if password != "":
                raise Unauthorized("Authentication error: wrong password",
                                   code=AUTHENTICATE_FAILED)
            self._remember(header, user, None)
            return user
        encoded = self._password_hash(user)
        if encoded is None:
            raise Unauthorized(f"Authentication error: unknown user {user!r}",
                               code=UNKNOWN_USER)
        if self._disabled(user):
            raise Unauthorized(f"AuthenticateFailure: user {user} is disabled. Not allowed to login",
                               code=AUTHENTICATE_FAILED)
        lock = self._locks.setdefault(user, DeferredLock())
        d = lock.run(self._verify, user, password, encoded)
        d.addBoth(self._unlock, user, lock)
        d.addCallback(self._verified_or_refused, header, user, encoded)
        return d

    def _password_hash(self, user: str) -> str | None:
        """The hash `user` logs in with: the users file's, else a SQL user's; None: no such user."""
        if self._users is not None:
            encoded = self._users.get(user)
            if encoded is not None:
                return encoded
        elif user == "root":
            return None
        return self._sql_users.password_hash(user) if self._sql_users is not None else None

    def _disabled(self, user: str) -> bool:
        """A SQL user made with DISABLED = true (users-file users never are)."""
        if self._users is not None and user in self._users:
            return False
        return self._sql_users is not None and self._sql_users.is_disabled(user)

    def _remember(self, header: bytes, user: str, encoded: str | None) -> None:
        if len(self._verified) >= _CACHE_LIMIT:
            self._verified.clear()
        self._verified[header] = (user, encoded)

    def _now(self) -> float:
        return self._reactor().seconds()

    def _reactor(self):
        if self._clock is None:
            from twisted.internet import reactor

            self._clock = reactor
        return self._clock

    def _verify(self, user: str, password: str, encoded: str) -> Deferred:
        """Under the user's lock: wait out its back-off, then hash in a thread."""
        delay = self._retry_at.get(user, 0.0) - self._now()
        d = deferLater(self._reactor(), delay, lambda: None) if delay > 0 else succeed(None)
        run = self._run_in_thread
        if run is None:
            from twisted.internet.threads import deferToThread as run
        d.addCallback(lambda _: run(verify_password, password, encoded))
        d.addCallback(self._record, user)
        return d

    def _record(self, ok: bool, user: str) -> bool:
        if ok:
            self._failures.pop(user, None)
            self._retry_at.pop(user, None)
        else:
            failures = self._failures[user] = self._failures.get(user, 0) + 1
            backoff = min(BACKOFF_SECS * 2 ** min(failures - 1, 30), BACKOFF_MAX_SECS)
            self._retry_at[user] = self._now() + backoff
        return ok

    def _unlock(self, result, user: str, lock: DeferredLock):
        if not lock.locked and not lock.waiting and self._locks.get(user) is lock:
            del self._locks[user]
        return result

    def _verified_or_refused(self, ok: bool, header: bytes, user: str, encoded: str) -> str:
        if not ok:
            raise Unauthorized("Authentication error: wrong password", code=AUTHENTICATE_FAILED)
        self._remember(header, user, encoded)
        return user

    @staticmethod
    def _parse(header: bytes) -> tuple[str, str]:
        scheme, _, token = header.strip().partition(b" ")
        if scheme.lower() != b"basic":
            raise Unauthorized("Authentication error: only Basic authorization is supported",
                               code=AUTHENTICATE_FAILED)
        try:
            decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            raise Unauthorized("Authentication error: malformed Basic credentials",
                               code=AUTHENTICATE_FAILED) from None
        user, sep, password = decoded.partition(":")
        if not sep or not user:
            raise Unauthorized("Authentication error: malformed Basic credentials",
                               code=AUTHENTICATE_FAILED)
        return user, password


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m web.auth NAME   (prints a users-file line)", file=sys.stderr)
        return 2
    if sys.stdin.isatty():
        import getpass

        password = getpass.getpass(f"password for {argv[0]}: ")
    else:
        password = sys.stdin.readline().rstrip("\n")
    print(f"{argv[0]}:{hash_password(password)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

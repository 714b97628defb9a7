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
from twisted.logger import Logger

from engine import hash_password, is_encoded_hash, verify_password
from web.errors import Unauthorized
from web.login_log import FailedLoginLog
from web.tokens import SESSION

__all__ = ["Authenticator", "client_host", "hash_password", "load_users", "verify_password"]

AUTHENTICATE_FAILED = 5100

_CACHE_LIMIT = 1024
# Addresses whose back-off is remembered; past it, those whose back-off has run out are forgotten
# first, then the oldest (a bounded map even when many addresses guess).
_CLIENT_LIMIT = 10_000
# After a failed login from an address, its next check waits BACKOFF_SECS, doubling with each
# further failure up to the server's --login_backoff_max_secs (a success resets it).
BACKOFF_SECS = 0.25
BACKOFF_MAX_SECS = 8.0
# The one answer to an unknown user, a wrong password and a disabled user with a wrong password:
# which of them it was is logged, never told to the client.
LOGIN_REFUSED = "Authentication error: unknown user or wrong password"
# What an unknown user's password is checked against, so it costs the same scrypt work as a known
# user's (same parameters as hash_password; the password behind it is random and never kept, and
# a match is refused anyway).
DUMMY_HASH = ("scrypt$16384$8$1$MDEyMzQ1Njc4OWFiY2RlZg==$"
              "2Zbm5b8jn6kyTgVU4wk2sxIVzkRgWS/Fc9GeXLy5cDg=")


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


def client_host(address) -> str:
    """The host of a peer address (IPv4Address, IPv6Address), what back-off and logs key on."""
    return str(getattr(address, "host", None) or address)


class Authenticator:
    """Checks the Authorization header of a request and names its user.

    Without a users file `root` with an empty password exists (answered at once, no hashing).
    With one, its users do instead. Either way the users SQL created (`use_sql_users`, the
    engine's user store) may log in too. A password is checked with scrypt (~65 ms of CPU) in a
    thread (`run_in_thread`, deferToThread by default), so `authenticate` returns a Deferred and
    the event loop keeps serving.

    A refused login leaks nothing: an unknown user's password is hashed against DUMMY_HASH in
    the same thread path as a known user's, a disabled user is told so only with the right
    password, and every refusal answers LOGIN_REFUSED with code 5100; the log says which it was
    (user, client address, reason; rate-limited by web.login_log). Verifications from one
    client address run one at a time, and each failed one delays that address's next by a
    back-off (BACKOFF_SECS, doubling to `backoff_max_secs`, reset by a success): a guesser
    costs the server at most one hash per back-off per address. Verified headers are remembered (a bounded cache; failures never are)
    with the hash they matched, so the hash runs once per credential, and a dropped SQL user or
    a changed password no longer logs in.
    """

    log = Logger()

    def __init__(self, users: dict[str, str] | None = None, *, clock=None,
                 run_in_thread=None, backoff_max_secs: float = BACKOFF_MAX_SECS):
        self._users = users
        self._clock = clock
        self._run_in_thread = run_in_thread
        self.backoff_max_secs = backoff_max_secs
        self._sql_users = None  # engine.catalog.users.UserStore, once use_sql_users is called
        self.tokens = None  # web.tokens.SessionTokens: Bearer session tokens, once the app sets it
        self._verified: dict[bytes, tuple[str, str | None]] = {}  # header -> (user, hash matched)
        self._failures: dict[str, int] = {}  # client address -> failed logins in a row
        self._retry_at: dict[str, float] = {}  # client address -> earliest next verification
        self._locks: dict[str, DeferredLock] = {}  # client address -> one verification at a time
        # self.log is looked up at each line: tests replace it after construction
        self._failure_log = FailedLoginLog(lambda fmt, **fields: self.log.warn(fmt, **fields),
                                           self._reactor)

    def use_sql_users(self, store) -> None:
        """Let the users of `store` (engine.catalog.users.UserStore) log in, and make the users file's
        users (or root) its bootstrap administrators."""
        self._sql_users = store
        store.add_bootstrap_users(dict(self._users) if self._users is not None else {"root": None})

    def authenticate(self, header: bytes | None, client: str = "unknown") -> str | Deferred:
        """The user, or a Deferred firing with it; Unauthorized (raised or as the Deferred's
        failure) for missing, malformed or wrong credentials. `client` is the peer's address:
        the key of the back-off and what a failure's log line names."""
        if header is None:
            raise Unauthorized("Authentication error: no authorization header provided",
                               code=AUTHENTICATE_FAILED)
        if header[:7].lower() == b"bearer ":
            return self._token_user(header[7:].strip(), client)
        known = self._verified.get(header)
        if known is not None:
            user, encoded = known
            if encoded is None or (self._password_hash(user) == encoded and not self._disabled(user)):
                return user
            del self._verified[header]  # a dropped or disabled SQL user, or a changed password
        try:
            user, password = self._parse(header)
        except Unauthorized as refusal:
            self._log_failure("", client, refusal.message)
            raise
        if self._users is None and user == "root" and password == "":
            self._remember(header, user, None)
            return user
        encoded = self._password_hash(user)
        lock = self._locks.setdefault(client, DeferredLock())
        d = lock.run(self._verify, client, password, encoded)
        d.addBoth(self._unlock, client, lock)
        d.addCallback(self._verified_or_refused, header, user, encoded, client)
        return d

    def _password_hash(self, user: str) -> str | None:
        """The hash `user` logs in with: the users file's, else a SQL user's; None: no such user
        (or root without a users file, whose password is empty and never hashed)."""
        if self._users is not None:
            encoded = self._users.get(user)
            if encoded is not None:
                return encoded
        elif user == "root":
            return None
        return self._sql_users.password_hash(user) if self._sql_users is not None else None

    def _token_user(self, token: bytes, client: str) -> str:
        """The user of a session token this server issued (web.tokens); Unauthorized otherwise."""
        if self.tokens is None:
            raise Unauthorized("Authentication error: session tokens are not enabled",
                               code=AUTHENTICATE_FAILED)
        try:
            claim = self.tokens.verify(token.decode("latin-1"), SESSION)
        except Unauthorized as refusal:
            self._log_failure("", client, refusal.message)
            raise
        if not self.may_log_in(claim.user):
            self._log_failure(claim.user, client, "the token's user is dropped or disabled")
            raise Unauthorized(LOGIN_REFUSED, code=AUTHENTICATE_FAILED)
        return claim.user

    def may_log_in(self, user: str) -> bool:
        """Whether `user` still exists and is enabled: a session token a login issued stops
        working once its user is dropped or disabled."""
        if self._users is None and user == "root":
            return True
        return self._password_hash(user) is not None and not self._disabled(user)

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

    def _verify(self, client: str, password: str, encoded: str | None) -> Deferred:
        """Under the address's lock: wait out its back-off, then hash in a thread (against
        DUMMY_HASH when there is no user to check: the same work, always refused)."""
        delay = self._retry_at.get(client, 0.0) - self._now()
        d = deferLater(self._reactor(), delay, lambda: None) if delay > 0 else succeed(None)
        run = self._run_in_thread
        if run is None:
            from twisted.internet.threads import deferToThread as run
        d.addCallback(lambda _: run(verify_password, password, encoded or DUMMY_HASH))
        d.addCallback(self._record, client, encoded is not None)
        return d

    def _record(self, ok: bool, client: str, exists: bool) -> bool:
        """Still under the address's lock, so its next verification sees the new back-off."""
        ok = ok and exists
        if ok:
            self._failures.pop(client, None)
            self._retry_at.pop(client, None)
        else:
            self._record_failure(client)
        return ok

    def _record_failure(self, client: str) -> None:
        failures = self._failures.pop(client, 0) + 1
        self._retry_at.pop(client, None)
        if len(self._failures) >= _CLIENT_LIMIT:
            self._forget_clients()
        self._failures[client] = failures  # (re)inserted last: the dicts stay oldest first
        backoff = min(BACKOFF_SECS * 2 ** min(failures - 1, 30), self.backoff_max_secs)
        self._retry_at[client] = self._now() + backoff

    def _forget_clients(self) -> None:
        """Drop the addresses whose back-off has run out, then the oldest half if still full."""
        now = self._now()
        for client in [c for c, at in self._retry_at.items() if at <= now]:
            del self._retry_at[client], self._failures[client]
        if len(self._failures) >= _CLIENT_LIMIT:
            for client in list(self._failures)[:_CLIENT_LIMIT // 2]:
                del self._retry_at[client], self._failures[client]

    def _unlock(self, result, client: str, lock: DeferredLock):
        if not lock.locked and not lock.waiting and self._locks.get(client) is lock:
            del self._locks[client]
        return result

    def _verified_or_refused(self, ok: bool, header: bytes, user: str, encoded: str | None,
                             client: str) -> str:
        if not ok:
            exists = encoded is not None or (self._users is None and user == "root")
            reason = "wrong password" if exists else "unknown user"
            self._log_failure(user, client, reason)
            raise Unauthorized(LOGIN_REFUSED, code=AUTHENTICATE_FAILED)
        if self._disabled(user):  # told only to who knows the password, as Databend words it
            self._log_failure(user, client, "user is disabled")
            raise Unauthorized(f"AuthenticateFailure: user {user} is disabled. Not allowed to login",
                               code=AUTHENTICATE_FAILED)
        self._remember(header, user, encoded)
        return user

    def _log_failure(self, user: str, client: str, reason: str) -> None:
        self._failure_log.refused(user, client, reason)

    @staticmethod
    def _parse(header: bytes) -> tuple[str, str]:
        scheme, _, token = header.strip().partition(b" ")
        if scheme.lower() != b"basic":
            raise Unauthorized("Authentication error: unsupported authorization header format",
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
    """`python -m web.auth NAME`: prints a users-file line for NAME (the password is read from
    the terminal, or from the first line of stdin)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m web.auth",
        description="Print a users-file line (NAME:scrypt-hash) for twistd queryhttp "
                    "--users_file. The password is asked on the terminal, or read from the "
                    "first line of stdin when it is not a terminal.",
        epilog="Example: python -m web.auth alice >> users.txt")
    parser.add_argument("name", metavar="NAME", help="the user's name (no ':' and not empty)")
    args = parser.parse_args(argv)
    if not args.name or ":" in args.name or args.name != args.name.strip():
        parser.error(f"a user name is not empty and holds no ':' or surrounding spaces: "
                     f"{args.name!r}")
    if sys.stdin.isatty():
        import getpass

        password = getpass.getpass(f"password for {args.name}: ")
    else:
        password = sys.stdin.readline().rstrip("\n")
    print(f"{args.name}:{hash_password(password)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

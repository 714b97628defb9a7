"""HTTP Basic authentication against built-in root (empty password) or a users file of hashes.

A users file has one `name:hash` per line (`#` starts a comment). Make a line with
`python -m web.auth NAME` (reads the password from the terminal or stdin); hashes are
`scrypt$n$r$p$salt$key` with a random salt, base64 fields.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import sys

from web.errors import Unauthorized

AUTHENTICATE_FAILED = 5100
UNKNOWN_USER = 2201

_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}
_CACHE_LIMIT = 1024


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = salt or os.urandom(16)
    key = hashlib.scrypt(password.encode(), salt=salt, dklen=32, **_SCRYPT)
    b64 = base64.b64encode
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${b64(salt).decode()}${b64(key).decode()}"


def verify_password(password: str, encoded: str) -> bool:
    try:
        scheme, n, r, p, salt, key = encoded.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(key)
        got = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r),
                             p=int(p), dklen=len(expected))
    except (ValueError, binascii.Error):
        return False
    return hmac.compare_digest(got, expected)


def load_users(path: str) -> dict[str, str]:
    """name -> encoded hash, from a users file; ValueError names the bad line."""
    users: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, encoded = line.partition(":")
            if not sep or not name or not encoded.startswith("scrypt$") or encoded.count("$") != 5:
                raise ValueError(f"{path}:{number}: expected name:scrypt$n$r$p$salt$key")
            users[name] = encoded
    if not users:
        raise ValueError(f"{path}: no users")
    return users


class Authenticator:
    """Checks the Authorization header of a request and names its user.

    Without a users file only `root` with an empty password exists. Verified headers are
    remembered (a bounded cache), so the deliberately slow hash runs once per credential.
    """

    def __init__(self, users: dict[str, str] | None = None, *, clock=None):
        self._users = users
        self._clock = clock
        self._verified: dict[bytes, str] = {}

    def authenticate(self, header: bytes | None) -> str:
        if header is None:
            raise Unauthorized("Authentication error: no authorization header provided",
                               code=AUTHENTICATE_FAILED)
        user = self._verified.get(header)
        if user is not None:
            return user
        user, password = self._parse(header)
        if self._users is None:
            if user != "root":
                raise Unauthorized(f"Authentication error: unknown user {user!r}",
                                   code=UNKNOWN_USER)
            if password != "":
                raise Unauthorized("Authentication error: wrong password",
                                   code=AUTHENTICATE_FAILED)
        else:
            encoded = self._users.get(user)
            if encoded is None:
                raise Unauthorized(f"Authentication error: unknown user {user!r}",
                                   code=UNKNOWN_USER)
            if not verify_password(password, encoded):
                raise Unauthorized("Authentication error: wrong password",
                                   code=AUTHENTICATE_FAILED)
        if len(self._verified) >= _CACHE_LIMIT:
            self._verified.clear()
        self._verified[header] = user
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

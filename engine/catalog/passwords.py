"""Password hashes: scrypt with a random salt, encoded `scrypt$n$r$p$salt$key` (base64 fields).

The one place passwords are hashed and checked: the server's users file and the users that
CREATE USER makes share the scheme (pure hashlib; web.auth re-exports these)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import re

SCRYPT_PARAMETERS = {"n": 2 ** 14, "r": 8, "p": 1}


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = salt or os.urandom(16)
    params = SCRYPT_PARAMETERS
    key = hashlib.scrypt(password.encode(), salt=salt, dklen=32, **params)
    b64 = base64.b64encode
    return f"scrypt${params['n']}${params['r']}${params['p']}${b64(salt).decode()}${b64(key).decode()}"


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


def is_encoded_hash(encoded: str) -> bool:
    """Whether `encoded` has the shape of a hash from hash_password."""
    return encoded.startswith("scrypt$") and encoded.count("$") == 5


# IDENTIFIED [WITH auth_type] BY '<password>' in CREATE / ALTER USER
_PASSWORD_CLAUSE = re.compile(r"(\bIDENTIFIED\b(?:\s+WITH\s+\w+)?\s+BY\s+)'(?:[^'\\]|''|\\.)*'",
                              re.IGNORECASE | re.DOTALL)


# first characters no CREATE / ALTER statement starts with (spaces and comments may come first)
NOT_USER_STATEMENT = frozenset("bBdDeEgGiIkKlLmMpPrRsStTuUvVwW(")


def redact_passwords(sql: str) -> str:
    """`sql` with the password of a CREATE / ALTER USER shown as '******' (what the process
    list, the query log and the server's log keep); other statements are returned as they are,
    at the cost of one prefix test."""
    first = sql[:1]
    if first in NOT_USER_STATEMENT:  # most statements: one slice and one set lookup
        return sql
    head = sql[:256].lstrip()[:6].lower()
    if not (head.startswith("create") or head.startswith("alter")):
        return sql
    return _PASSWORD_CLAUSE.sub(r"\1'******'", sql)

"""Databend session tokens: what /v1/session/login issues, /v1/session/refresh renews and
`Authorization: Bearer` presents.

A token is `bend-v1-<s|r>-<base64 of its JSON claim>` as Databend writes it (s: a session token,
for queries; r: a refresh token, for /v1/session/refresh only). Databend keeps the hash of each
token in its meta service; this server signs the claim instead (HMAC-SHA256 with a random key
of this process), so a token is checked without a lookup, and only revoked tokens (logout, a
refresh replacing them) are remembered until they expire. Tokens do not outlive a restart (nor
do revocations, which is why the key is not kept): a client then logs in again, as it must
anyway to find its temporary tables and open transactions gone. Lifetimes are Databend's: a
refresh token lives `idle_secs` (http_session_timeout_secs), a session token a quarter of it.

The standard library's hmac is enough here: PyJWT would only rename the same three steps, and
tokens of an external issuer (JWT, key pairs) are not accepted (docs/security.rst says why).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets

from twisted.logger import Logger

from web.errors import Unauthorized

PREFIX = "bend-v1-"
SESSION = "s"
REFRESH = "r"
SESSION_TOKEN_EXPIRED = 5101
REFRESH_TOKEN_EXPIRED = 5102
SESSION_TOKEN_NOT_FOUND = 5103
REFRESH_TOKEN_NOT_FOUND = 5104
MAX_TOKEN_CHARS = 4096
AUTHENTICATE_FAILED = 5100
# Revoked tokens are remembered until they would expire; past this many (a client logging in
# and out in a loop), the signing key changes instead, which revokes every token at once
# (clients log in again) rather than letting the set grow without bound.
MAX_REVOKED = 100_000
MAX_VERIFIED = 10_000  # checked tokens remembered (past it the memory starts over)
log = Logger()


class TokenClaim:
    __slots__ = ("user", "role", "session_id", "expires_at", "kind", "token")

    def __init__(self, user, role, session_id, expires_at, kind, token):
        self.user = user
        self.role = role
        self.session_id = session_id
        self.expires_at = expires_at
        self.kind = kind
        self.token = token


class SessionTokens:
    """Issues, checks and revokes this server's session and refresh tokens."""

    def __init__(self, clock, idle_secs: int):
        self.clock = clock
        self._key = secrets.token_bytes(32)
        self.idle_secs = idle_secs
        self._revoked: dict[str, float] = {}  # token digest -> when it would expire anyway
        # tokens already checked -> their claims (bounded): each request presents its token,
        # often twice (credentials, then its session), and a repeat costs one lookup
        self._verified: dict[str, TokenClaim] = {}

    @property
    def session_ttl(self) -> int:
        return max(1, self.idle_secs // 4)

    def issue(self, user: str, role: str | None, session_id: str) -> dict:
        """A new token pair for the client session: the `tokens` object of Databend's answer."""
        now = int(self.clock.seconds())
        refresh = self._encode(REFRESH, user, role, session_id, now + self.idle_secs)
        session = self._encode(SESSION, user, role, session_id, now + self.session_ttl)
        return {"session_token_ttl_in_secs": self.session_ttl, "session_token": session,
                "refresh_token": refresh}

    def _encode(self, kind: str, user: str, role: str | None, session_id: str, exp: int) -> str:
        claim = {"tenant": "default", "user": user, "auth_role": role, "sid": session_id,
                 "nonce": secrets.token_hex(16), "exp": exp}
        body = json.dumps(claim, separators=(",", ":"), sort_keys=True).encode()
        claim["mac"] = hmac.new(self._key, kind.encode() + body, hashlib.sha256).hexdigest()
        encoded = base64.b64encode(json.dumps(claim, separators=(",", ":")).encode()).decode()
        return f"{PREFIX}{kind}-{encoded}"

    def verify(self, token: str, kind: str) -> TokenClaim:
        """The claim of a valid, unexpired, unrevoked token of `kind`; Unauthorized with
        Databend's codes otherwise (5101/5102 expired, 5103/5104 unknown, 5100 malformed)."""
        claim = self._verified.get(token)
        if claim is None or claim.kind != kind:
            claim = self._checked(token, kind)
            if len(self._verified) >= MAX_VERIFIED:
                self._verified.clear()
            self._verified[token] = claim
        if self.clock.seconds() > claim.expires_at:
            raise Unauthorized(f"Authentication failed: {_name(kind)} token has expired",
                               code=SESSION_TOKEN_EXPIRED if kind == SESSION else REFRESH_TOKEN_EXPIRED)
        return claim

    def _checked(self, token: str, kind: str) -> TokenClaim:
        """The claim of a well-formed token of `kind` this server signed and did not revoke."""
        if len(token) > MAX_TOKEN_CHARS or not token.startswith(PREFIX) or len(token) < 11:
            raise Unauthorized("Authentication error: invalid Bearer token", code=AUTHENTICATE_FAILED)
        token_kind = token[len(PREFIX)]
        if token_kind != kind or token[len(PREFIX) + 1] != "-":
            raise Unauthorized("Authentication error: incorrect token type for this endpoint",
                               code=AUTHENTICATE_FAILED)
        not_found = SESSION_TOKEN_NOT_FOUND if kind == SESSION else REFRESH_TOKEN_NOT_FOUND
        try:
            claim = json.loads(base64.b64decode(token[len(PREFIX) + 2:], validate=True))
            mac = claim.pop("mac")
            body = json.dumps(claim, separators=(",", ":"), sort_keys=True).encode()
            user, sid, exp = claim["user"], claim["sid"], int(claim["exp"])
        except (ValueError, KeyError, TypeError, binascii.Error, AttributeError):
            raise Unauthorized("Authentication error: failed to decode token",
                               code=AUTHENTICATE_FAILED) from None
        expected = hmac.new(self._key, kind.encode() + body, hashlib.sha256).hexdigest()
        if not isinstance(mac, str) or not hmac.compare_digest(mac, expected):
            raise Unauthorized(f"Authentication failed: {_name(kind)} token not found",
                               code=not_found)
        if self._digest(token) in self._revoked:
            raise Unauthorized(f"Authentication failed: {_name(kind)} token not found",
                               code=not_found)
        return TokenClaim(user, claim.get("auth_role"), sid, exp, kind, token)

    def revoke(self, claim: TokenClaim) -> None:
        self._sweep()
        self._verified.pop(claim.token, None)
        if len(self._revoked) >= MAX_REVOKED:
            log.warn("{n} revoked session tokens: the token key changes, every client logs in "
                     "again", n=len(self._revoked))
            self._key = secrets.token_bytes(32)
            self._revoked.clear()
            self._verified.clear()
            return
        self._revoked[self._digest(claim.token)] = claim.expires_at

    def revoke_text(self, token: str | None, kind: str) -> None:
        """Revoke a token the client names (the old session token of a refresh), if valid."""
        if not token:
            return
        try:
            self.revoke(self.verify(token, kind))
        except Unauthorized:
            pass

    @staticmethod
    def _digest(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    def _sweep(self) -> None:
        now = self.clock.seconds()
        for digest in [d for d, exp in self._revoked.items() if exp < now]:
            del self._revoked[digest]


def _name(kind: str) -> str:
    return "session" if kind == SESSION else "refresh"

"""Presigned stage URLs: PRESIGN's answer, and the credential of PUT/GET /v1/presigned/<token>.

A token is `payload.signature`: the payload (base64url JSON: method, user, stage, path, expiry
in epoch seconds) and its HMAC-SHA256 under a key made when the server starts, so tokens die
with the server (stages are in memory too). The signature is the credential: whoever holds the
URL may PUT (UPLOAD) or GET (DOWNLOAD) that one file of that user's stage until it expires, with
no Basic auth (clients such as databend-py send none). A tampered, expired or wrong-method token
is 403.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os

from web.errors import HTTPError

PRESIGNED_PATH = "/v1/presigned/"


class Forbidden(HTTPError):
    status = 403


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Presigner:
    """Makes and checks presigned URLs; `clock()` gives epoch seconds (the reactor's)."""

    def __init__(self, clock, key: bytes | None = None, base_url: str = "http://127.0.0.1:8000"):
        self._clock = clock
        self._key = key or os.urandom(32)
        # scheme://host:port the URLs point at: the Host of the request that runs PRESIGN
        # (what the client reached), else where the server listens
        self.base_url = base_url

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode("ascii"), hashlib.sha256).digest())

    def __call__(self, method: str, user: str, location, expire_secs: int) -> tuple[str, str]:
        """The engine's `Database.presigner`: (headers as JSON text, URL) for PRESIGN."""
        claims = {"m": method, "u": user, "s": location.stage, "p": location.path,
                  "e": int(self._clock()) + int(expire_secs)}
        payload = _b64(json.dumps(claims, separators=(",", ":")).encode("utf-8"))
        return "{}", f"{self.base_url}{PRESIGNED_PATH}{payload}.{self._sign(payload)}"

    def verify(self, token: str, method: str) -> tuple[str, str, str]:
        """(user, stage, path) of a valid, unexpired token for `method`; Forbidden otherwise."""
        payload, _, signature = token.partition(".")
        if not payload or not hmac.compare_digest(signature.encode("ascii", "replace"),
                                                  self._sign(payload).encode("ascii")):
            raise Forbidden("the presigned URL's signature is not valid")
        try:
            claims = json.loads(_unb64(payload))
            expires, claimed = int(claims["e"]), claims["m"]
            user, stage, path = claims["u"], claims["s"], claims["p"]
        except (ValueError, KeyError, TypeError):
            raise Forbidden("the presigned URL's signature is not valid") from None
        if self._clock() > expires:
            raise Forbidden("the presigned URL has expired")
        if claimed != method:
            raise Forbidden(f"the presigned URL is for {claimed}, not {method}")
        return user, stage, path

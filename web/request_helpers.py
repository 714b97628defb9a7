"""What the endpoints of web.app share: the credentials check around an endpoint, the refusal of
an upload body that was not kept, reading a body in a thread, and parsing a long statement in one."""

from __future__ import annotations

from functools import wraps
from urllib.parse import unquote

from twisted.internet.defer import Deferred

from web.auth import client_host
from web.errors import PayloadTooLarge
from web.presign import PRESIGNED_PATH

# type -> whether it is a Deferred: twisted's Deferred is an abstract base class (Awaitable),
# whose isinstance runs ABCMeta's check in Python; the hot path asks it of every answer
_IS_DEFERRED: dict[type, bool] = {Deferred: True, bytes: False, str: False}


def is_deferred(value) -> bool:
    """isinstance(value, Deferred), answered from a per-type table after the first ask."""
    kind = type(value)
    known = _IS_DEFERRED.get(kind)
    if known is None:
        known = _IS_DEFERRED[kind] = issubclass(kind, Deferred)
    return known


def authenticated(endpoint):
    """Run `endpoint` with `user=` the request's verified user: at once when the credentials
    are known (or root without a users file), else once the password hash, computed in a
    thread, has been checked (the answer is then a Deferred)."""

    @wraps(endpoint)
    def run(self, request, *args, **kwargs):
        user = self.auth.authenticate(request.getHeader(b"authorization"),
                                      client_host(request.getClientAddress()))
        if is_deferred(user):
            return user.addCallback(lambda name: endpoint(self, request, *args, user=name,
                                                          **kwargs))
        return endpoint(self, request, *args, user=user, **kwargs)

    return run


def check_upload_body(request, config) -> None:
    """The refusal of an upload whose body was not kept: larger than --max_upload_bytes (413),
    or the uploads in flight outgrew their budget while it arrived (503)."""
    if getattr(request, "body_too_large", False):
        raise PayloadTooLarge(f"upload is larger than {config.max_upload_bytes} bytes "
                              "(server option --max_upload_bytes)")
    refusal = getattr(request, "upload_refusal", None)
    if refusal is not None:
        raise refusal


def read_all(content) -> bytes:
    """A request body (in memory or spooled to a temporary file), read in a thread."""
    content.seek(0)
    return content.read()


def prepare_long_statement(session, sql: str, query_id: str):
    """Run in a thread for a long statement: its parse tree, nothing more. Parsing is pure;
    binding reads the catalog, which belongs to the event loop's thread (engine/__init__.py),
    so it happens back there (_execute)."""
    return session.parse(sql)


def check_upload_credentials(presigner, auth, method: bytes, path: bytes, headers, client: str):
    """An upload's credentials, checked when its headers arrive: the presign token of
    /v1/presigned/..., else the Basic credentials; raises the refusal (403, 401), returns the
    user or a Deferred of it (a password hashed in a thread)."""
    path = path.split(b"?", 1)[0]
    if PRESIGNED_PATH.encode() in path:
        token = unquote(path.split(PRESIGNED_PATH.encode(), 1)[1].decode("ascii", "replace"))
        return presigner.verify(token, method.decode("ascii", "replace"))[0]
    header = headers.getRawHeaders(b"authorization")
    return auth.authenticate(header[0] if header else None, client)

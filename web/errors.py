"""Errors answered with a non-200 HTTP status, each with a code and a human reason."""

from __future__ import annotations


class HTTPError(Exception):
    """Answered as HTTP `status`; the body carries `message` (and `code` in the databend format)."""

    status = 400

    def __init__(self, message: str, code: int | None = None, status: int | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
        self.code = code if code is not None else self.status


class BadRequest(HTTPError):
    status = 400


class Unauthorized(HTTPError):
    status = 401


class NotFound(HTTPError):
    status = 404


class PayloadTooLarge(HTTPError):
    status = 413


class FailedToStart(Exception):
    """A query that cannot start (unknown session, limits): answered 200 with state Failed."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

"""Engine errors, each carrying its Databend error code."""

from __future__ import annotations

INTERNAL = 1001
UNIMPLEMENTED = 1002
UNKNOWN_DATABASE = 1003
SYNTAX = 1005
BAD_ARGUMENTS = 1006
ILLEGAL_DATA_TYPE = 1007
UNKNOWN_FUNCTION = 1008
UNKNOWN_TABLE = 1025
ABORTED_QUERY = 1043
TIMEOUT = 1122
UNKNOWN_SESSION = 1053
UNKNOWN_COLUMN = 1058
PERMISSION_DENIED = 1063
SEMANTIC = 1065
TABLE_SCHEMA_MISMATCH = 1303
DATABASE_ALREADY_EXISTS = 2301
TABLE_ALREADY_EXISTS = 2302
MEMORY_EXCEEDS_LIMIT = 2411
UNKNOWN_VARIABLE = 2801


class EngineError(Exception):
    """An error a user can cause: `code` is the Databend code, `message` the text shown,
    `position` the (line, column) in the SQL when known."""

    code = INTERNAL

    def __init__(self, message: str, code: int | None = None, position=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.position = position

    def __str__(self) -> str:
        return self.message


class SqlSyntaxError(EngineError):
    code = SYNTAX


class UnknownDatabase(EngineError):
    code = UNKNOWN_DATABASE


class UnknownTable(EngineError):
    code = UNKNOWN_TABLE


class UnknownColumn(EngineError):
    code = UNKNOWN_COLUMN


class UnknownFunction(EngineError):
    code = UNKNOWN_FUNCTION


class BadArguments(EngineError):
    code = BAD_ARGUMENTS


class UnknownVariable(EngineError):
    code = UNKNOWN_VARIABLE


class DatabaseAlreadyExists(EngineError):
    code = DATABASE_ALREADY_EXISTS


class TableAlreadyExists(EngineError):
    code = TABLE_ALREADY_EXISTS


class Unimplemented(EngineError):
    code = UNIMPLEMENTED


class AbortedQuery(EngineError):
    """The query was killed, timed out (max_execute_time_in_seconds) or the server stops."""

    code = ABORTED_QUERY


class MemoryExceedsLimit(EngineError):
    """The query's memory (max_memory_usage) or the server's memory budget is exhausted."""

    code = MEMORY_EXCEEDS_LIMIT


class UnknownSession(EngineError):
    """KILL of an id no running statement has (Databend: 'Not found session id <id>')."""

    code = UNKNOWN_SESSION


class PermissionDenied(EngineError):
    """KILL QUERY of another user's statement by a user other than root."""

    code = PERMISSION_DENIED

"""Engine errors, each carrying its Databend error code: the one place those codes are defined."""

from __future__ import annotations

import decimal

INTERNAL = 1001
UNIMPLEMENTED = 1002
UNKNOWN_DATABASE = 1003
SYNTAX = 1005
BAD_ARGUMENTS = 1006
ILLEGAL_DATA_TYPE = 1007
UNKNOWN_FUNCTION = 1008
BAD_DATA_ARRAY_LENGTH = 1018
UNKNOWN_TABLE = 1025
UNKNOWN_VIEW = 1026
UNKNOWN_CATALOG = 1119
VIEW_DEPENDENCY = 1029  # a view whose query reaches itself
ADD_COLUMN_EXISTS = 1108
DROP_COLUMN_EMPTY = 1109
TABLE_ENGINE_NOT_SUPPORTED = 1302
ABORTED_QUERY = 1043
TIMEOUT = 1122
UNKNOWN_SESSION = 1053
BAD_BYTES = 1046
UNKNOWN_COLUMN = 1058
PERMISSION_DENIED = 1063
SEMANTIC = 1065
TOO_MANY_CONNECTIONS = 1067
TABLE_SCHEMA_MISMATCH = 1303
TABLE_VERSION_MISMATCHED = 2009
DATABASE_ALREADY_EXISTS = 2301
TABLE_ALREADY_EXISTS = 2302
VIEW_ALREADY_EXISTS = 2306
UNDROP_TABLE_ALREADY_EXISTS = 2308
UNDROP_TABLE_HAS_NO_HISTORY = 2309
MEMORY_EXCEEDS_LIMIT = 2411
UNKNOWN_STAGE = 2501
STAGE_ALREADY_EXISTS = 2502
UNKNOWN_FILE_FORMAT = 2507
ILLEGAL_FILE_FORMAT = 2508
FILE_FORMAT_ALREADY_EXISTS = 2509
UNKNOWN_VARIABLE = 2801
WRONG_VALUE_FOR_VARIABLE = 2803
BAD_DATA_VALUE_TYPE = 1010
NUMBER_ARGUMENTS_NOT_MATCH = 1028
STORAGE_OTHER = 4000  # e.g. REPLACE: two source rows with the same key
UNRESOLVABLE_CONFLICT = 4001  # e.g. MERGE: two source rows match one target row
CURRENT_TRANSACTION_IS_ABORTED = 4002  # a statement in a failed transaction
TRANSACTION_TIMEOUT = 4003  # an HTTP session's open transaction is gone from the server
SESSION_LOST = 5111  # an HTTP session's transaction lives on another server
INVALID_SESSION_STATE = 5112  # an HTTP session says Active but not where its transaction is
INVALID_ARGUMENT = 2004
# users, roles and privileges (engine.catalog.users)
ILLEGAL_GRANT = 1061
UNKNOWN_USER = 2201
USER_ALREADY_EXISTS = 2202
UNKNOWN_ROLE = 2204
INVALID_ROLE = 2206
ROLE_ALREADY_EXISTS = 2216
ILLEGAL_ROLE = 2217
ILLEGAL_USER = 2218
# user functions, sequences, scripts and procedures (engine.catalog.routines)
ALTER_TABLE_ERROR = 1132
UNKNOWN_SEQUENCE = 1126
SEQUENCE_ERROR = 3101
UNKNOWN_UDF = 2602
UDF_ALREADY_EXISTS = 2603
SCRIPT_SEMANTIC_ERROR = 3128
SCRIPT_EXECUTION_ERROR = 3129
UNKNOWN_PROCEDURE = 3130
PROCEDURE_ALREADY_EXISTS = 3131


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


class UnknownCatalog(EngineError):
    code = UNKNOWN_CATALOG


class UnknownColumn(EngineError):
    code = UNKNOWN_COLUMN


class ColumnNotFound(UnknownColumn):
    """A column a query names that none of the tables in scope has: Databend's binder answers
    1065 (a SemanticError), where ALTER TABLE's `Cannot find column` is 1058."""

    code = SEMANTIC


class UnknownFunction(EngineError):
    code = UNKNOWN_FUNCTION


class BadArguments(EngineError):
    code = BAD_ARGUMENTS


class UnknownVariable(EngineError):
    code = UNKNOWN_VARIABLE


class WrongValueForVariable(EngineError):
    code = WRONG_VALUE_FOR_VARIABLE


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
    """A statement needing a privilege its user lacks (engine.catalog.users), or KILL QUERY of another
    user's statement by a user other than root."""

    code = PERMISSION_DENIED


class InternalError(EngineError):
    """A bug of the engine, never a user's mistake (the cause stays chained for the log)."""

    code = INTERNAL


class SemanticError(EngineError):
    code = SEMANTIC


class BadDataValueType(EngineError):
    """A value out of a function's range (Databend's BadDataValueType, e.g. a quantile level)."""

    code = BAD_DATA_VALUE_TYPE


class InvalidArgument(EngineError):
    """A function argument out of its domain (Databend's InvalidArgument, e.g. ntile(0))."""

    code = INVALID_ARGUMENT


class TableVersionMismatched(EngineError):
    """A table changed under an UPDATE or DELETE between its snapshot and its commit."""

    code = TABLE_VERSION_MISMATCHED


class BadBytes(EngineError):
    """A field of a loaded file that does not convert to its column's type (Databend's BadBytes)."""

    code = BAD_BYTES


class UnknownStage(EngineError):
    """A stage name no stage has (Databend: "Stage 'x' does not exist.")."""

    code = UNKNOWN_STAGE


class StageAlreadyExists(EngineError):
    code = STAGE_ALREADY_EXISTS


class UnreadableFile(Exception):  # noqa: N818 - a reader's signal, made an EngineError by its caller
    """What a staged file's reader raises for something its format cannot read: `reason` (as
    Databend words it) and the record's 0-based `line` when the reader knows it. Not an
    EngineError: the code reading the file knows its path and makes the error
    (engine.io.stage_load.file_error)."""

    def __init__(self, reason: str, line: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.line = line


class IllegalFileFormat(EngineError):
    """FILE_FORMAT options Databend refuses (its IllegalFileFormat)."""

    code = ILLEGAL_FILE_FORMAT


def arithmetic_message(exc: BaseException) -> str:
    """A fixed text for a Python arithmetic error (Python's own text names its internals)."""
    if isinstance(exc, (ZeroDivisionError, decimal.DivisionByZero)):
        return "divided by zero"
    if isinstance(exc, (OverflowError, decimal.Overflow)):
        return "arithmetic overflow"
    return "value out of range"


def as_engine_error(exc: BaseException) -> EngineError:
    """Any exception raised while running a query, as an EngineError with a Databend code and a
    message that shows no Python internals (class names, reprs, interpreter texts)."""
    if isinstance(exc, EngineError):
        return exc
    if isinstance(exc, (ArithmeticError, decimal.InvalidOperation)):
        return BadArguments(arithmetic_message(exc))
    if isinstance(exc, TypeError):
        return BadArguments("incompatible argument types")
    if isinstance(exc, ValueError):  # e.g. int('x') for a function's integer argument
        return BadArguments("bad argument value")
    if isinstance(exc, RecursionError):
        return InternalError("query is nested too deeply")
    if isinstance(exc, MemoryError):
        return MemoryExceedsLimit("out of memory")
    return InternalError("internal error")


class StorageError(EngineError):
    """The data directory could not take a change (disk full, I/O error): nothing acknowledged."""

    code = STORAGE_OTHER

"""queryhttp's embeddable SQL engine: Database -> Session -> Result (no HTTP, no Twisted).

    db = engine.Database()
    s = db.session()
    list(s.execute("SELECT 1"))      # -> [(1,)]

This is the contract web/ relies on (see docs/architecture.rst):
- One thread owns the engine's state: the thread that created the Database (a server's event
  loop). It alone may bind statements, run their steps, read or change the catalog (tables,
  views, dropped tables, table ids), the stages, users, settings, `db.processes` and the memory
  accounting (`db.memory`, a query's `Result.memory`). Other threads may only parse
  (`session.parse(sql)`: pure, reads no state) and encode and write log records (the data
  directory's writer and checkpoint threads, which get immutable snapshots: table versions
  are never changed in place). The catalog checks its owner thread on every lookup and change when
  `engine.catalog.catalog.CHECK_OWNER_THREAD` is on (QUERYHTTP_CHECK_THREAD=1; the test suite
  turns it on, it is off by default for speed) and raises `WrongThread`.
- `Database()` owns the catalog; `db.session(database="default", settings=None, user="root")`.
- `session.execute(sql) -> Result` parses and binds at once and raises `EngineError` (with a
  Databend `code`) for any error found before the first row.
- `Result.schema` is a list of `Column(name, type)` known before any row; `type` is the Databend
  display name ('UInt8', 'Nullable(Int32)', 'String', 'Decimal(10, 2)'...).
- `Result.affect` is None, `UseDB` or `ChangeSettings`; `session.database` / `session.settings`
  (session-level values as strings) hold the state after the statement.
- `Result.batches()` yields lists of row tuples of Python values; each step does bounded work and
  may yield []. `Result.progress` counts scan/write/result rows and bytes so far.
- `Result.renderer(null_as_str)` returns a function turning a batch into wire rows (lists of
  strings, None for NULL unless null_as_str, then "NULL").
- `Result.close()` stops the pipeline; idempotent.
- `Result.memory` is the query's memory tracker (engine.core.memory.QueryMemory): a consumer that
  buffers rows may `charge(nbytes)` (raises MemoryExceedsLimit, 2411) and `release(nbytes)`;
  everything is freed when the result ends or is closed. `Result.past_deadline()` says the
  query ran out of max_execute_time_in_seconds (its steps then fail with 1043,
  TIME_LIMIT_MESSAGE).
- `session.execute(sql, statement=None, query_id=None)`: the statement is in `db.processes`
  (engine.catalog.processes) under `query_id` (generated when None) until its Result ends, fails, is
  closed or dropped, then in the bounded query log; KILL QUERY calls the entry's `kill`.
- `session.txn_state` is Databend's 'AutoCommit', 'Active' or 'Fail' (BEGIN / COMMIT /
  ROLLBACK, engine.catalog.transactions); `session.transaction` is the open transaction, which a server
  may move to another session with `set_transaction(transaction)`; `fail_transaction()` fails
  it (a statement failed outside the engine).
- Client sessions (a server keeps them between requests): `session.temp_tables` is the
  session's `TempTables` (CREATE TEMP TABLE; a fresh private one per Session): attach a client
  session's container to each of its requests' Sessions; `is_empty()`, `drop_all()` (frees their
  memory) when the client session ends. `session.export_variables()` -> [(name, JSON text)]
  and `import_variables(pairs)` carry SET VARIABLE's values (1046 for what export never gives);
  `session.query_ids` (a deque, oldest first) answers last_query_id(); `session.result_cache`
  (a `ResultCache`, the Session's own unless attached) keeps finished query results for
  RESULT_SCAN when enable_query_result_cache is on; `clear()` frees them.
- `db.users` (engine.catalog.users.UserStore) holds users, roles and grants: `add_bootstrap_users({name:
  hash})` names administrators SQL cannot drop (root always is), `password_hash(user)` serves
  logins, `snapshot()` / `restore(data)` give and rebuild the SQL-made state as JSON data; a
  session's `user` and `role` (SET ROLE) decide what its statements may do (1063 otherwise).
- `Database(data_dir=PATH)` persists everything (docs/durability.rst); a log record or
  checkpoint that does not replay raises `CorruptLog` (an EngineError, code 4000) naming its
  file and offset; `recover_to_last_good=True` instead sets the log from the bad record on
  aside and says what in `db.recovery_dropped`. A data directory open to group or others
  raises `UnsafeDataDirectory`; files are created 0600, the directory 0700.
- `db.stages` (engine.catalog.stages.StageStore) holds uploaded files: `put(user, parse_location(
  "@~/path"), data)`; `session.execute("INSERT INTO t VALUES", attachment=StageAttachment(
  "@~/path", file_format_options, copy_options))` loads one (engine.io.stage_load).

A server needs a few more names, re-exported here so that it imports nothing else of the engine
(tests/engine/test_layers.py checks web/): the Databend error codes it answers with itself,
`Limits`, `VERSION`, `batch_bytes` (what a buffered batch costs), password hashing and redaction,
`KILLED_MESSAGE`, a script's statements (`split_statements`, parse-only like `session.parse`:
any thread may call it), the transaction states and `Transaction`, `StageLocation`, the stage check of
an upload (`check_user_stage`, `STAGE_WRITE`), and the two errors
of opening a data directory (`DataDirectoryError` and its kinds `DataDirectoryInUse`, `CorruptLog`)
and `check_data_directory`, which says before a start whether one would open.
"""

from __future__ import annotations

from engine.catalog.passwords import (
    hash_password,
    is_encoded_hash,
    redact_passwords,
    verify_password,
)
from engine.catalog.privileges import check_user_stage
from engine.catalog.processes import KILLED_MESSAGE
from engine.catalog.result_cache import ResultCache
from engine.catalog.stages import StageLocation, parse_location
from engine.catalog.temp_tables import TempTables
from engine.catalog.transactions import ACTIVE, AUTO_COMMIT, FAIL, Transaction
from engine.catalog.users import WRITE as STAGE_WRITE
from engine.core.errors import (
    ABORTED_QUERY,
    BAD_ARGUMENTS,
    INTERNAL,
    INVALID_SESSION_STATE,
    SESSION_LOST,
    STORAGE_OTHER,
    SYNTAX,
    TIMEOUT,
    TOO_MANY_CONNECTIONS,
    TRANSACTION_TIMEOUT,
    UNKNOWN_SESSION,
    EngineError,
    SqlSyntaxError,
)
from engine.core.limits import Limits
from engine.core.memory import batch_bytes
from engine.core.version import VERSION, VERSION_STRING
from engine.exec.result import TIME_LIMIT_MESSAGE, ChangeSettings, Column, Progress, Result, UseDB
from engine.io.stage_load import StageAttachment
from engine.session import Database, Session
from engine.storage.durability import DataDirectoryInUse, check_data_directory
from engine.storage.journal import CorruptLog, DataDirectoryError
from grammar.split import StatementSpan, TooManyStatements, split_statements

__all__ = [
    "ABORTED_QUERY",
    "ACTIVE",
    "AUTO_COMMIT",
    "BAD_ARGUMENTS",
    "batch_bytes",
    "ChangeSettings",
    "Column",
    "CorruptLog",
    "DataDirectoryError",
    "Database",
    "DataDirectoryInUse",
    "EngineError",
    "FAIL",
    "hash_password",
    "INTERNAL",
    "INVALID_SESSION_STATE",
    "is_encoded_hash",
    "KILLED_MESSAGE",
    "Limits",
    "parse_location",
    "Progress",
    "redact_passwords",
    "Result",
    "ResultCache",
    "Session",
    "SESSION_LOST",
    "split_statements",
    "SqlSyntaxError",
    "StageAttachment",
    "StageLocation",
    "StatementSpan",
    "STAGE_WRITE",
    "check_user_stage",
    "check_data_directory",
    "STORAGE_OTHER",
    "SYNTAX",
    "TIME_LIMIT_MESSAGE",
    "TIMEOUT",
    "TooManyStatements",
    "TOO_MANY_CONNECTIONS",
    "Transaction",
    "TRANSACTION_TIMEOUT",
    "TempTables",
    "UNKNOWN_SESSION",
    "UseDB",
    "verify_password",
    "VERSION",
    "VERSION_STRING",
]

"""Database and Session: parse a statement, dispatch it, and hand back a Result."""

from __future__ import annotations

import datetime
import time
import uuid
from collections import deque

import grammar
from engine.bind.params import bind_params
from engine.catalog.catalog import Catalog
from engine.catalog.processes import ProcessList
from engine.catalog.result_cache import ResultCache, keep_result
from engine.catalog.stages import StageStore
from engine.catalog.temp_tables import TempTables, session_catalog, writes_only_temporary
from engine.catalog.transactions import before_statement, statement_catalog, txn_state
from engine.catalog.users import UserStore
from engine.core import settings as S
from engine.core.errors import (
    BAD_BYTES,
    AbortedQuery,
    BadArguments,
    EngineError,
    InternalError,
    SqlSyntaxError,
    StorageError,
    UnknownDatabase,
)
from engine.core.limits import Limits
from engine.core.memory import QueryMemory, ServerMemory, enter_step, leave_step
from engine.exec.result import Progress, Result, as_engine_error
from engine.functions.json_jq import stop_worker as stop_jq_worker
from engine.plan.plan_cache import PlanCache, PlanRecord
from engine.statements.ddl import check_catalog
from engine.statements.dispatch import QUERY_TYPES, run_planned_query, run_statement
from engine.statements.session_variables import decode_variable, variables_bytes
from engine.statements.statement_settings import run_with_settings
from engine.storage.durability import DataDirectory
from grammar import ast as A

# Statements that change rows only, never definitions (a table they create is seen by the
# recorder as a table id the last catalog image lacks): no catalog image is taken after them.
# (A COMMIT is not one of them: a COPY INTO in the transaction changes its table's load history.)
ROW_WRITES = (A.Insert, A.Update, A.Delete, A.Replace, A.Merge, A.InsertMulti)
# Statements that change nothing a data directory keeps: they read, or change only the session
# (USE, SET ROLE, a session SET / UNSET). They are not logged: no record is sealed and no catalog
# image built or compared after them (that costs ~10 us a table, 5-7 ms for 500 tables).
_CHANGE_NOTHING = QUERY_TYPES + (A.Show, A.ShowStageObjects, A.ShowAccounts, A.Describe,
                                 A.DescribeUser, A.Explain, A.UseDatabase, A.Presign, A.Kill,
                                 A.SetRole, A.UnsetVariable, A.DescribeSequence, A.ShowRoutines,
                                 A.DescribeProcedure, A.SetSessionVariables, A.UnsetSessionVariables,
                                 A.ExistsTable)

QUERY_IDS_KEPT = 1000  # statement ids a session remembers for last_query_id(index)


class Database:
    """Owns the catalog and the global settings; sessions share it (one thread only)."""

    def __init__(self, limits: Limits | None = None, clock=time.monotonic, data_dir: str | None = None,
                 fsync: bool = True, wait_durable: bool = True, log=None, recover_to_last_good: bool = False):
        self.limits = limits or Limits()
        # what all running queries hold together (engine.core.memory); each query charges it
        self.memory = ServerMemory(self.limits.memory_budget())
        # seconds, read for max_execute_time_in_seconds (injectable for tests)
        self.clock = clock
        # running statements and the last limits.query_log_size finished ones (engine.catalog.processes)
        self.processes = ProcessList(self.limits.query_log_size, self.limits.logged_sql_chars)
        # plans of repeated queries (engine.plan.plan_cache); its counters are in /metrics
        self.plan_cache = PlanCache(self.limits.plan_cache_entries)
        # (method, user, location, expire) -> (headers JSON, URL) for PRESIGN; a server sets it
        self.presigner = None
        self._fresh_state()
        # With a data directory every change is logged (engine.storage.durability); a write statement's
        # Result then ends only once its record is on disk, unless `wait_durable` is False (a
        # server waits without blocking, through `durable_after`). `recover_to_last_good`: a log
        # record that does not fit does not stop the start; it and all later ones are set aside
        # (`recovery_dropped` says what; docs/durability.rst).
        self.durability = None
        self.wait_durable = wait_durable
        if data_dir is not None:
            self.durability = DataDirectory(self, data_dir, fsync=fsync, log=log or _no_log,
                                            recover_to_last_good=recover_to_last_good,
                                            fresh_state=self._fresh_state)
        self.recovery_dropped = self.durability.dropped if self.durability is not None else None

    def _fresh_state(self) -> None:
        """The state a data directory restores, empty (at creation; again when
        recover_to_last_good replays the log anew without its bad tail)."""
        # databases, tables, views; its owner thread is this one (engine.catalog.catalog)
        self.catalog = Catalog()
        self.global_settings: dict[str, str] = {}
        # files uploaded to stages (engine.catalog.stages), bounded by limits.stage_bytes
        self.stages = StageStore(self.limits.stage_bytes, self.limits.stage_file_bytes)
        # users, roles and privileges (engine.catalog.users): root, the server's configured users, and
        # those SQL creates
        self.users = UserStore()

    def commit_changes(self) -> int | None:
        """Log what changed outside a statement (a file uploaded to a stage); the record's
        sequence number to wait for, or None without a data directory."""
        if self.durability is None:
            return None
        return self.durability.seal()

    def durable_after(self, lsn: int | None, callback) -> None:
        """Call `callback()` once log record `lsn` is on disk (at once when there is nothing to
        wait for); it may run in the log's writer thread."""
        if lsn is None or self.durability is None:
            callback()
        else:
            self.durability.writer.when_durable(lsn, callback)

    def log_failure(self) -> str | None:
        """Why the log cannot take records, or None while it can (call on the engine's thread:
        the first call after the failure undoes what the lost records changed)."""
        if self.durability is None:
            return None
        return self.durability.failure()

    def close(self) -> None:
        """Checkpoint and release the data directory (a clean shutdown) and end the jq worker
        process (engine.functions.json_jq; a later jq call starts a new one); idempotent."""
        stop_jq_worker()
        if self.durability is not None:
            durability, self.durability = self.durability, None
            durability.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def databases(self):
        return self.catalog.databases

    def session(self, database: str = "default", settings=None, user: str = "root") -> Session:
        return Session(self, database, settings, user)


def _no_log(message: str) -> None:
    pass


_QUERY_WORDS = ("select", "with", "values")


def _may_be_query(sql: str) -> bool:
    """Whether `sql` may be a query whose plan the cache keeps (a cheap look at its first word,
    so other statements do not pay for a lookup)."""
    head = sql.lstrip()[:6].lower()
    return head.startswith(_QUERY_WORDS) or head.startswith("(")


def changes_nothing(stmt) -> bool:
    """Whether `stmt` leaves everything a data directory keeps as it was (LIST, not REMOVE; a
    session SET, not SET GLOBAL; EXPLAIN ANALYZE runs queries only)."""
    if isinstance(stmt, _CHANGE_NOTHING):
        return True
    if isinstance(stmt, A.ListStage):
        return not stmt.remove
    if isinstance(stmt, A.SetVariable):
        return not stmt.is_global
    return False


def _ends_without_writing(stmt) -> bool:
    """BEGIN, ROLLBACK / ABORT: a transaction statement that writes nothing."""
    return isinstance(stmt, A.TransactionStatement) and stmt.action != "COMMIT"


class QueryContext:
    """What binding and execution of one statement may read from the session."""

    def __init__(self, session: Session):
        self.session = session
        # the shared catalog (seen through the session's temporary tables when it has some), or
        # in a transaction the view with its private table copies
        catalog = session_catalog(session, session.db.catalog)
        self.catalog = catalog if session.transaction is None else statement_catalog(session, catalog)
        self.database = session.database
        self.user = session.user
        # the user's privileges (engine.catalog.users.Access), None for an administrator: nothing to check
        self.access = session.db.users.access(session.user)
        self.session_settings = session.settings
        self.global_settings = session.db.global_settings
        self.limits = session.db.limits
        # max_memory_usage, session else global (explicit_setting inlined: once per statement)
        limit = session.settings.get("max_memory_usage")
        if limit is None:
            limit = self.global_settings.get("max_memory_usage")  # unset: the default, 0 (none)
        self.memory = QueryMemory(session.db.memory, int(limit) if limit else 0)
        self.attachment = None  # a stage attachment sent with the statement (engine.io.stage_load)
        self._now = None
        self.sql: str | None = None  # the statement's text (a view keeps its query's text)
        self.views_expanding: list | None = None  # (database, view) being planned (engine.catalog.views)
        # nextval was bound: the statement's run is logged like a write (engine.bind.routine_calls)
        self.uses_sequences = False
        self._timezone = None
        self._datetime_parsing: tuple[bool, bool] | None = None
        # set when the plan cache may keep this statement's plan: what planning read, and its key
        self.plan_record: PlanRecord | None = None
        self.plan_cache_key = None

    @property
    def now(self) -> datetime.datetime:
        """The statement's clock reading, a Timestamp value (naive UTC; read once per statement)."""
        if self._now is None:
            self._now = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
        return self._now

    @property
    def timezone(self) -> str:
        """The session's `timezone` setting (read once per statement)."""
        zone = self._timezone
        if zone is None:
            zone = self._timezone = self.session.setting("timezone")
        return zone

    @property
    def datetime_parsing(self) -> tuple[bool, bool]:
        """(enable_auto_detect_datetime_format, not enable_strict_datetime_parser): how date
        functions read text beyond ISO 8601 (engine.functions.date_parsing)."""
        parsing = self._datetime_parsing
        if parsing is None:
            setting = self.session.setting
            parsing = self._datetime_parsing = (setting("enable_auto_detect_datetime_format") == "1",
                                                setting("enable_strict_datetime_parser") == "0")
        return parsing

    def resolve_table_name(self, parts: tuple[str, ...]) -> tuple[str, str]:
        if len(parts) == 1:
            return self.database, parts[0]
        if len(parts) == 2:
            return parts[0], parts[1]
        check_catalog(parts[-3])
        return parts[-2], parts[-1]


class Session:
    def __init__(self, db: Database, database: str = "default", settings=None, user="root"):
        self.db = db
        self.database = database or "default"
        # Known settings are validated (a bad value is BadArguments, 1006) and normalised;
        # unknown names are ignored, as Databend does with a client's session settings.
        self.settings: dict[str, str] = {
            key.lower(): S.validate(key, value)
            for key, value in dict(settings).items() if key.lower() in S.SETTINGS
        } if settings else {}
        self.user = user
        self.role: str | None = None  # the role SET ROLE chose (engine.catalog.users.UserStore.current_role)
        self._connection_id: str | None = None  # connection_id(), made on first use
        # ids of the session's latest statements (last_query_id()), the oldest dropped first
        self.query_ids: deque[str] = deque(maxlen=QUERY_IDS_KEPT)
        # the open explicit transaction (engine.catalog.transactions.Transaction), None in AutoCommit
        self.transaction = None
        # SET VARIABLE's values: name -> engine.statements.session_variables.Variable (replaced
        # whole by each SET / UNSET, never changed in place)
        self.variables: dict = {}
        # the client session's temporary tables (engine.catalog.temp_tables.TempTables): the
        # Session's own unless a server attaches the container its client session keeps
        self.temp_tables = TempTables()
        # finished query results RESULT_SCAN reads (engine.catalog.result_cache.ResultCache), kept
        # with enable_query_result_cache = 1: the Session's own unless a server attaches one
        self.result_cache = ResultCache()

    @property
    def connection_id(self) -> str:
        """The session's id for connection_id(): a uuid4 made when first asked (a session per
        request is the common case over HTTP, and most never ask)."""
        if self._connection_id is None:
            self._connection_id = str(uuid.uuid4())
        return self._connection_id

    @property
    def txn_state(self) -> str:
        """Databend's txn_state of the session: 'AutoCommit', 'Active' or 'Fail'."""
        return txn_state(self)

    def set_transaction(self, transaction) -> None:
        """Make `transaction` (engine.catalog.transactions.Transaction, or None) the session's: a server
        resumes a client's open transaction in the session of its next request."""
        self.transaction = transaction

    def fail_transaction(self) -> None:
        """A statement of the session failed (here or in a server): an open transaction fails."""
        if self.transaction is not None:
            self.transaction.fail()

    def export_variables(self) -> list[tuple[str, str]]:
        """The session variables as (name, JSON text) pairs, sorted by name: what a server keeps
        for a client session between requests (`import_variables` gives them back exactly)."""
        return [(name, variable.text) for name, variable in sorted(self.variables.items())]

    def import_variables(self, pairs) -> None:
        """Make the session's variables those `pairs` (from `export_variables`) hold; an
        undecodable pair raises EngineError BadBytes (1046), one past the session_variables_bytes
        limit BadArguments (1006), and either leaves the variables as they were."""
        variables = {}
        for pair in pairs:
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                raise EngineError("a session variable is a [name, value] pair", code=BAD_BYTES)
            name, text = pair
            variables[name] = decode_variable(name, text)
        limit = self.db.limits.session_variables_bytes
        if variables_bytes(variables) > limit:
            raise BadArguments(f"session variables take more than the limit session_variables_bytes = {limit}")
        self.variables = variables

    def set_role(self, role: str, pos=None) -> None:
        """SET ROLE (or a client's session role): InvalidRole (2206) unless the user has it."""
        self.db.users.require_available_role(self.user, role, pos)
        self.role = role

    def require_database(self, name: str) -> None:
        """A login's database check: UnknownDatabase (1003) unless `name` exists."""
        if not self.db.catalog.has_database(name):
            raise UnknownDatabase(f"Unknown database '{name}'")

    def current_role(self) -> str:
        """current_role(): the role set while the user still has it (then public, for good, as
        Databend resets it), else the user's default role."""
        role = self.db.users.current_role(self.user, self.role)
        if self.role is not None and role != self.role:
            self.role = role
        return role

    def explicit_setting(self, name: str) -> str | None:
        """The session's or else the global value of `name`; None when neither was set."""
        value = self.settings.get(name)
        return value if value is not None else self.db.global_settings.get(name)

    def setting(self, name: str) -> str:
        value = self.explicit_setting(name)
        return S.SETTINGS[name].default if value is None else value

    def parse(self, sql: str):
        """The statement's syntax tree. Pure (reads no catalog or session state), so a server may
        run it in another thread for a long statement; `execute(sql, statement=...)` then binds
        and runs it. Raises SqlSyntaxError (1005), also for SQL longer than the sql_bytes limit
        or nested deeper than expr_depth."""
        limits = self.db.limits
        # len(sql) bounds the UTF-8 size from below (and 4 * len(sql) from above): encode only
        # when the answer is not already known
        if len(sql) > limits.sql_bytes or (4 * len(sql) > limits.sql_bytes
                                           and len(sql.encode("utf-8", "surrogatepass")) > limits.sql_bytes):
            size = len(sql.encode("utf-8", "surrogatepass"))
            raise SqlSyntaxError(f"SQL text of {size} bytes exceeds the limit sql_bytes = {limits.sql_bytes}")
        try:
            return grammar.parse(sql, limits.expr_depth)
        except grammar.SqlSyntaxError as exc:
            if exc.code != SqlSyntaxError.code:  # parsed, but against a rule (1065)
                raise EngineError(exc.reason, code=exc.code, position=(exc.line, exc.column)) from None
            raise SqlSyntaxError(exc.message, position=(exc.line, exc.column)) from None
        except RecursionError:
            raise InternalError("statement is nested too deeply") from None

    def execute(self, sql: str, statement=None, query_id: str | None = None, attachment=None,
                params=None) -> Result:
        """Parse (unless `statement`, the result of `parse(sql)`, is given), bind and start `sql`.
        `attachment` (engine.StageAttachment) gives the rows of `INSERT INTO t VALUES` from a
        staged file, as a POST /v1/query's stage_attachment does. `params` (a list for `?`, a
        dict for `:name`, of JSON values) binds the statement's placeholders as values
        (engine.bind.params); None: the statement has none.

        The statement is in the process list under `query_id` (a generated id when None) until
        its Result ends, fails or is closed, and then in the query log."""
        processes = self.db.processes
        process = processes.start(self, sql, query_id)
        self.query_ids.append(process.query_id)
        # enable_query_result_cache (session, else global): the clock is read only when it is on
        keeping = self.result_cache is not None and self.explicit_setting("enable_query_result_cache") == "1"
        started = self.db.clock() if keeping else 0.0
        try:
            stmt, result, temporary_only = self._start(sql, statement, attachment, params)
            if keeping and isinstance(stmt, QUERY_TYPES):
                self._keep_result(result, process.query_id, started)
            if self.db.durability is not None and (result.logged_reads
                                                   or not (temporary_only or changes_nothing(stmt))):
                result = self._logged(result, not isinstance(stmt, ROW_WRITES) and not changes_nothing(stmt))
        except BaseException as exc:  # EngineError, or KeyboardInterrupt and the like
            error = exc if isinstance(exc, EngineError) else AbortedQuery(type(exc).__name__)
            processes.finish(process, error)
            raise
        if result.complete:
            processes.done(process, stmt, result)
        else:
            processes.attach(process, stmt, result)
        return result

    def _keep_result(self, result: Result, query_id: str, started: float) -> None:
        """Let the query's result be kept for RESULT_SCAN (engine.catalog.result_cache)."""
        db = self.db
        keep_result(result, self.result_cache, query_id, db.memory, int(self.setting("query_result_cache_max_bytes")),
                    db.limits.result_cache_entries, int(self.setting("query_result_cache_min_execute_secs")),
                    db.clock, started)

    def _logged(self, result: Result, definitions: bool) -> Result:
        """A write statement's Result whose changes reach the log: sealed after every step (a
        record per step: never half a statement), definitions checked at the end, and the end
        held back until the record is durable (embedded use) or marked for the server to wait.
        `definitions`: whether the statement may change the catalog's definitions (not just rows)."""
        db = self.db
        if result.complete:
            try:
                result.commit_lsn = db.durability.seal(definitions)
                if db.wait_durable:
                    db.durability.writer.wait(result.commit_lsn)
            except OSError as exc:
                db.log_failure()  # what the lost record changed is undone before anyone reads it
                raise StorageError(str(exc)) from None
            return result
        result._rows = _sealed_steps(db, result, result._rows, definitions)
        return result

    def _start(self, sql: str, statement, attachment=None, params=None) -> tuple:
        # max_execute_time_in_seconds counts from here (0 or unset: no limit, no clock read)
        seconds = self.settings.get("max_execute_time_in_seconds")
        if seconds is None:
            seconds = self.db.global_settings.get("max_execute_time_in_seconds")
        started = self.db.clock() if seconds and seconds != "0" else None
        ctx = None
        prefix = None  # a SETTINGS (...) prefix (grammar.ast.StatementSettings)
        temporary_only = False
        try:
            cache = self.db.plan_cache
            key = cached = None
            # not cached: statements of a transaction (its own snapshot), with params, or of a
            # session whose variables or temporary tables a plan may have bound
            if statement is None and params is None and attachment is None \
                    and self.transaction is None and not self.variables \
                    and self.temp_tables.is_empty() and _may_be_query(sql):
                catalog = self.db.catalog
                key = cache.key(self, sql, (catalog.version, catalog.routines.version))
            if key is not None:
                ctx = QueryContext(self)
                ctx.sql = sql
                cached = cache.lookup(key, ctx)  # its SELECT privileges checked again
            if cached is not None:
                stmt = cached.stmt
            else:
                stmt = statement if statement is not None else self.parse(sql)
                stmt = bind_params(stmt, params, sql)
                if isinstance(stmt, A.StatementSettings):  # SETTINGS (...) stmt: for stmt only
                    prefix, stmt = stmt, stmt.statement
                if self.db.durability is not None:
                    self._refuse_if_log_failed(stmt)
                if self.transaction is not None:
                    before_statement(self, stmt)  # DDL commits it first; a failed one refuses (4002)
                # An unknown session database is not an error by itself (Databend's HTTP handler
                # sets it unchecked: dbt connects with its schema, then creates it); resolving a
                # name in it is (1003, from the catalog).
                if ctx is None:
                    ctx = QueryContext(self)
                if attachment is not None:
                    ctx.attachment = attachment
                ctx.sql = sql
                if key is not None and prefix is None and isinstance(stmt, QUERY_TYPES):
                    cache.misses += 1
                    ctx.plan_record, ctx.plan_cache_key = PlanRecord(), key
                # a write of temporary tables only is not logged (checked before it runs: a
                # DROP TABLE or RENAME does not find its table after)
                temporary_only = self.db.durability is not None and writes_only_temporary(self, stmt)
            # binding and eager statements build values too: charged to this query (N9)
            previous = enter_step(ctx.memory)
            try:
                if cached is not None:
                    result = run_planned_query(self, ctx, cached)
                elif prefix is not None:
                    result = run_with_settings(self, ctx, prefix, lambda: run_statement(self, ctx, stmt))
                else:
                    result = run_statement(self, ctx, stmt)
            finally:
                leave_step(ctx.memory, previous)
        except BaseException as exc:  # noqa: BLE001 - free what it held; no raw exception escapes
            if ctx is not None:
                ctx.memory.release()
            self.fail_transaction()
            if isinstance(exc, EngineError) or not isinstance(exc, Exception):
                raise
            if isinstance(exc, RecursionError):
                raise InternalError("statement is nested too deeply") from None
            raise as_engine_error(exc) from exc
        result.memory = ctx.memory
        if ctx.uses_sequences:
            result.logged_reads = True
        if self.transaction is not None and not result.complete:
            result.on_finish.append(self.transaction.failed_if)  # a statement failing mid-way
        if started is not None:
            result.set_deadline(self.db.clock, started + int(seconds))
        return stmt, result, temporary_only

    def _refuse_if_log_failed(self, stmt) -> None:
        """Once the log has failed, every write is refused before it runs (4000); reads go on,
        over the state the log kept (the failure's lost changes are undone here first)."""
        failure = self.db.durability.failure()
        if failure is not None and not changes_nothing(stmt) and not _ends_without_writing(stmt):
            raise StorageError(f"{failure}; writes are refused until the server restarts")

    def new_result(self, schema, rows, types=(), affect=None, progress=None) -> Result:
        return Result(schema, rows, affect=affect, progress=progress or Progress(), types=list(types))



def _sealed_steps(db, result: Result, steps, definitions: bool):
    durability = db.durability
    try:
        for batch in steps:
            before = durability.recorder.last_lsn
            lsn = durability.seal()
            if lsn != before and batch and result.logged_reads:  # values reserved in this step
                if db.wait_durable:
                    durability.writer.wait(lsn)
                else:
                    result.held_lsn = lsn
            yield batch
        result.commit_lsn = durability.seal(definitions)
        if db.wait_durable:
            durability.writer.wait(result.commit_lsn)
    except OSError as exc:
        db.log_failure()  # what the lost records changed is undone before anyone reads it
        raise StorageError(str(exc)) from None
    finally:
        close = getattr(steps, "close", None)
        if close is not None:
            close()

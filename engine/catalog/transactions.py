"""Explicit transactions as Databend runs them: BEGIN, COMMIT, ROLLBACK / ABORT and the
session's txn_state (AutoCommit, Active, Fail).

Inside a transaction every statement reads and writes the transaction's private copy of each
table, made at the table's first use in the transaction (a snapshot): the session sees its own
writes, other sessions see nothing. COMMIT applies every changed table to the shared catalog in
one synchronous step, only through the shared tables' `append` and `replace` (so a table
recorder sees the whole COMMIT at once). A shared table another statement changed meanwhile:
a transaction that only appended to it appends its rows to the current ones (rebase); one that
rewrote it keeps the rows others appended meanwhile, and fails the COMMIT (4001, everything
rolled back) if someone else rewrote it too. A failed statement puts the transaction into Fail:
further statements fail with 4002 until COMMIT or ROLLBACK, which both roll it back. A statement
a transaction cannot hold (DDL) commits the open transaction first and then runs on its own.
"""

from __future__ import annotations

import dataclasses
import weakref

from engine.catalog.lineage import Lineage
from engine.catalog.table_storage import Rewrite
from engine.catalog.temp_tables import SessionCatalog, charge_temporary, session_catalog
from engine.core.errors import CURRENT_TRANSACTION_IS_ABORTED, UNRESOLVABLE_CONFLICT, EngineError
from engine.core.memory import LIST_SLOT_BYTES, QueryMemory
from grammar import ast as A

AUTO_COMMIT = "AutoCommit"
ACTIVE = "Active"
FAIL = "Fail"

ABORTED_MESSAGE = "Current transaction is aborted, commands ignored until end of transaction block"

# Statements a transaction holds (Databend's allowed_in_multi_statement): queries, DML, COPY,
# SET / UNSET (of settings and variables) / USE, SHOW, DESCRIBE (of a table or a user), EXPLAIN, KILL, LIST / REMOVE, PRESIGN
# and the transaction statements. Any other statement (CREATE, DROP, ALTER, TRUNCATE, RENAME, UNDROP...) commits
# the open transaction first.
_HELD_IN_TRANSACTION = (
    A.Select, A.SetOperation, A.With, A.Values, A.Insert, A.InsertMulti, A.Replace, A.Merge,
    A.Update, A.Delete, A.CopyIntoTable, A.CopyIntoStage, A.SetVariable, A.UnsetVariable,
    A.SetSessionVariables, A.UnsetSessionVariables,
    A.UseDatabase, A.Show, A.ShowStageObjects, A.Describe, A.Explain, A.Kill, A.ListStage,
    A.Presign, A.TransactionStatement, A.DescribeUser,
)


class _TableCopy:
    """A transaction's private copy of one shared table, and the snapshot it was made from."""

    __slots__ = ("database", "shared", "base", "count", "private", "start_data", "copied_files")

    def __init__(self, database: str, shared):
        self.database = database
        self.shared = shared
        self.base = shared.data  # the shared version at the snapshot (appends extend it)
        self.count = len(shared.data)
        self.start_data = shared.data.copy(self.count)  # the private version (appends extend it)
        self.copied_files = dict(shared.copied_files)
        # every field copied (new ones too), the mutable ones fresh; its recorder is a Lineage,
        # not the log's: a private copy's changes reach the shared table (and its recorder)
        # only at COMMIT, as runs over the shared rows
        self.private = dataclasses.replace(
            shared, data=self.start_data, has_null=list(shared.has_null),
            has_negative=list(shared.has_negative), insert_plans={},
            copied_files=dict(shared.copied_files), recorder=Lineage(self.count))

    def changed(self) -> bool:
        private = self.private
        return (private.data is not self.start_data or len(private.data) != self.count
                or private.copied_files != self.copied_files)


class Transaction:
    """An explicit transaction: its state (Active or Fail) and its private table copies. It
    belongs to one session at a time; a server may move it to the session of a client's next
    request (Databend's HTTP handler keeps it between requests)."""

    def __init__(self, state: str = ACTIVE, server_memory=None):
        self.state = state
        self._copies: dict[int, _TableCopy] = {}  # id(shared table) -> its copy
        self._privates: set = set()  # the private copies (tables hash by identity)
        # the copies' row slots, held against the server's memory budget (engine.core.memory) until
        # the transaction ends or is dropped unended (a session or server forgetting it)
        self.memory = None
        if server_memory is not None:
            self.memory = QueryMemory(server_memory, 0)
            weakref.finalize(self, self.memory.release)

    def catalog(self, shared) -> TransactionCatalog:
        """The catalog as this transaction's statements see it (one per statement: nothing
        refers back to the transaction, which is then freed as soon as nobody holds it)."""
        return TransactionCatalog(shared, self)

    def private_copy(self, database: str, shared):
        """The transaction's copy of `shared`, made now at the table's first use."""
        if shared in self._privates:
            return shared
        copy = self._copies.get(id(shared))
        if copy is None:
            if self.memory is not None:  # MemoryExceedsLimit (2411) fails the statement
                self.memory.charge(len(shared.data) * LIST_SLOT_BYTES)
            copy = self._copies[id(shared)] = _TableCopy(database, shared)
            self._privates.add(copy.private)
        return copy.private

    def holds(self, table) -> bool:
        return table in self._privates

    def fail(self) -> None:
        """A statement failed: the transaction's changes are gone and it waits for its end."""
        if self.state == ACTIVE:
            self.state = FAIL
            self.drop_copies()

    def drop_copies(self) -> None:
        """Forget the private copies (the transaction ended, failed or was committed)."""
        self._copies.clear()
        self._privates.clear()
        if self.memory is not None:
            self.memory.release()

    def failed_if(self, error) -> None:
        """A statement's end (Result.on_finish): one that failed fails the transaction."""
        if error is not None:
            self.fail()

    def commit(self, catalog, server_memory=None) -> None:
        """Apply every changed table to the shared catalog (`catalog`: the session's view of it,
        its temporary tables included) in one synchronous step, or nothing (EngineError 4001)
        when another statement rewrote a table this one changed, or (2411) when the temporary
        tables' new rows do not fit in `server_memory`."""
        changes = []
        for copy in self._copies.values():
            if not copy.changed():
                continue
            shared, private = copy.shared, copy.private
            if not is_current(catalog, copy.database, shared):
                raise _conflict(copy, "was dropped, replaced or altered")
            current = shared.data
            if private.data is copy.start_data:  # appends only: added to the current rows
                changes.append((copy, None, _appended_part(private.data, copy.count)))
            elif current is copy.base:  # others appended at most: their rows follow ours
                rewrite = Rewrite(current, copy.count)
                added = private.recorder.added_rows(private.data)
                if added is None:  # (not expected) every private row as a new one
                    rewrite.add(private.data.rows())
                else:  # the shared rows it kept as runs, the log writes only the others
                    rewrite.take(private.data, private.recorder.runs, added)
                changes.append((copy, rewrite, None))
            else:
                raise _conflict(copy, "was changed by another statement")
        charge_temporary(server_memory, [_temporary_bytes(copy.shared, new_rows, appended)
                                         for copy, new_rows, appended in changes if copy.shared.temporary])
        for copy, rewrite, appended in changes:  # nothing below can fail
            shared, private = copy.shared, copy.private
            # the private copy's flags cover its rows (it started with the shared ones): the
            # rows are not scanned again
            known = (private.has_null, private.has_negative)
            if rewrite is not None:  # the private rows, then those others appended meanwhile
                shared.replace(rewrite.finish(), rewrite)
                shared.note_flags(known)
            elif isinstance(appended, list):
                if appended:
                    shared.append(appended, known)
            else:  # the columns whole
                shared.append_version(appended, known)
            shared.copied_files.update(private.copied_files)
        self.drop_copies()


def _appended_part(data, count: int):
    """The rows of `data` past `count`: row tuples, or for a storage that takes columns a
    version holding them (its columns sliced, no row built)."""
    if not data.columnar:
        return data.rows(count)
    part = data.empty_like()
    part.extend_from(data, count, len(data))
    return part


def _temporary_bytes(table, rewrite, appended) -> tuple:
    """(table, the bytes its rows will hold) for a temporary table a COMMIT changes."""
    if rewrite is not None:
        return table, rewrite.estimated_bytes()
    added = table.data.appended_bytes(appended) if isinstance(appended, list) else appended.estimated_bytes()
    return table, table.temporary.charged_bytes(table) + added


def _conflict(copy: _TableCopy, what: str) -> EngineError:
    return EngineError(f"Unresolvable conflict detected for table {copy.shared.table_id}: "
                       f"`{copy.database}`.`{copy.shared.name}` {what} after this transaction "
                       f"first read it; the transaction was rolled back", code=UNRESOLVABLE_CONFLICT)


class TransactionCatalog:
    """The shared catalog as a transaction's statements see it: a table is the transaction's
    private copy of it; everything else is the shared catalog's."""

    def __init__(self, shared, transaction: Transaction):
        self.shared = shared
        self.transaction = transaction

    def table(self, database: str, name: str, pos=None):
        return self.transaction.private_copy(database, self.shared.table(database, name, pos))

    def __getattr__(self, name):
        return getattr(self.shared, name)


def is_current(catalog, database: str, table) -> bool:
    """Whether `table` is still what its name resolves to (not dropped, replaced or altered since
    a statement looked it up); a transaction's private copy is current while the transaction is."""
    if isinstance(catalog, TransactionCatalog):
        return catalog.transaction.holds(table)
    if isinstance(catalog, SessionCatalog):
        return catalog.is_current(database, table)
    return catalog.databases.get(database, {}).get(table.name) is table


def statement_catalog(session, shared):
    """The catalog a statement of `session` reads and writes (`shared`: the session's view of
    the shared catalog, engine.catalog.temp_tables.session_catalog)."""
    transaction = session.transaction
    if transaction is not None and transaction.state == ACTIVE:
        return transaction.catalog(shared)
    return shared


def before_statement(session, stmt) -> None:
    """What Databend does before planning a statement: one a transaction cannot hold commits the
    open transaction (a failed one just ends), then a statement in a failed transaction is
    refused (4002) unless it is BEGIN, COMMIT or ROLLBACK."""
    transaction = session.transaction
    if transaction is None:
        return
    if not isinstance(stmt, _HELD_IN_TRANSACTION):
        end_transaction(session, commit=True)
    elif transaction.state == FAIL and type(stmt) is not A.TransactionStatement:
        raise EngineError(ABORTED_MESSAGE, code=CURRENT_TRANSACTION_IS_ABORTED,
                          position=getattr(stmt, "pos", None))


def end_transaction(session, commit: bool) -> None:
    """End the session's transaction: COMMIT applies an active one (the session is in
    AutoCommit afterwards even when that fails); ROLLBACK, or COMMIT of a failed one, drops it."""
    transaction, session.transaction = session.transaction, None
    if transaction is None:
        return
    try:
        if commit and transaction.state == ACTIVE:
            transaction.commit(session_catalog(session, session.db.catalog), session.db.memory)
    finally:
        transaction.drop_copies()


def txn_state(session) -> str:
    transaction = session.transaction
    return AUTO_COMMIT if transaction is None else transaction.state

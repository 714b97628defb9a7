"""A persistent database: the data directory's lock, recovery (last checkpoint, then the log),
the recorder that turns each engine step's changes into one log record, and checkpoints.

Every change to a catalog table's rows goes through Table.append / Table.replace, which tell
the Recorder; staged files tell it through StageStore. Changes pile up in `pending` while a step
runs; `seal()` after the step makes them one record (a statement's writes all happen in one
step, so a record never holds half a statement). Definitions (tables, views, stages, settings,
users) are written as a whole catalog image whenever a statement changed them.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
import threading
import time
from collections import deque

from engine.catalog.stages import StagedFile
from engine.catalog.table_storage import table_data
from engine.core.errors import TableVersionMismatched
from engine.storage import checkpoint_files as C
from engine.storage.catalog_image import catalog_image, restore_catalog, tables_by_id
from engine.storage.change_codec import decode_chunks, record_pieces, rewritten, staged_file
from engine.storage.journal import DataDirectoryError, LogWriter, fsync_directory, open_private
from engine.storage.row_codec import decode_columns

CHECKPOINT_LOG_BYTES = 64 << 20  # a checkpoint starts once the log's segment passes this
DIRECTORY_MODE = 0o700  # the data directory: its files hold every row and the password hashes


class DataDirectoryInUse(DataDirectoryError):
    pass


class UnsafeDataDirectory(DataDirectoryError):
    """The data directory is readable or writable by group or others (as PostgreSQL, the
    server refuses it rather than serve data anyone on the machine may read)."""


def image_text(image: dict) -> str:
    """A catalog image as the log writes it (compact, keys sorted: equal images, equal texts)."""
    return json.dumps(image, separators=(",", ":"), sort_keys=True)


class Recorder:
    """Collects one step's changes and seals them into one log record.

    The record is the commit: with every change it keeps how to undo it, and when the log does
    not take the record (`submit` refuses, or the writer thread fails before the record is on
    disk) the changes are undone on the engine's thread (`seal`, `revert_unwritten`), so a
    change the log lost is never visible after its statement failed. A change to a table
    version that is no longer the catalog's is refused (2009): such a record would replay into
    the wrong version."""

    durable = True  # its records reach the log (a private copy's Lineage is told the same)

    def __init__(self, db, writer: LogWriter):
        self.db = db
        self.writer = writer
        self.pending: list = []
        self.undo: list = []  # how to undo each pending change, in order
        # (lsn, undo) of the records submitted but not yet known to be on disk, oldest first
        self.unwritten: deque = deque()
        self.last_image = ""
        self.known_ids: set[int] = set()
        self.last_lsn = writer.next_lsn - 1

    def _check_current(self, table) -> None:
        if self.db.catalog.databases.get(table.database, {}).get(table.name) is not table:
            raise TableVersionMismatched(f"table `{table.database}`.`{table.name}` was dropped, replaced "
                                         f"or altered by another statement; its change is not logged")

    def appended(self, table, rows) -> None:
        if rows:
            self._check_current(table)
            self.pending.append(("append", table.table_id, [c.type for c in table.columns], rows))
            self.undo.append(("version", table, table.data, len(table.data) - len(rows)))

    def appended_range(self, table, data, start: int, stop: int) -> None:
        """Rows [start:stop] of the version `data` were appended to `table` (the record encodes
        them column by column from `data`, which never changes below `stop`)."""
        if stop > start:
            self._check_current(table)
            self.pending.append(("append_range", table.table_id, [c.type for c in table.columns],
                                 data, start, stop))
            self.undo.append(("version", table, table.data, len(table.data) - (stop - start)))

    def replaced(self, table, old, new, rewrite=None) -> None:
        """`new` (a TableData) in place of `old`; `rewrite`, when given, built `new` from `old`
        and knows the rows it kept (the record then holds only the new rows, found without
        comparing any)."""
        if not len(old) and not len(new):
            return  # nothing to say (a new, empty table entering the catalog)
        self._check_current(table)
        types = [c.type for c in table.columns]
        if rewrite is not None and rewrite.old is old:
            self.pending.append(("edit_runs", table.table_id, types, rewrite.runs, rewrite.added))
        else:
            self.pending.append(("edit", table.table_id, types, old, len(old), new, len(new)))
        self.undo.append(("version", table, old, len(old)))

    def staged(self, owner: str, stage: str, path: str, staged: StagedFile) -> None:
        self.pending.append(("stage_put", owner, stage, path, staged))

    def unstaged(self, owner: str, stage: str, path: str) -> None:
        self.pending.append(("stage_remove", owner, stage, path))

    def stage_cleared(self, stage: str) -> None:
        self.pending.append(("stage_clear", stage))

    def sequence_reserved(self, sequence, old_reserved: int) -> None:
        """A sequence may hand out values up to (not including) sequence.reserved: logged before
        any of them leaves the engine; a lost record puts the old bound back."""
        self.pending.append(("sequence", sequence.name, sequence.reserved))
        self.undo.append(("call", lambda: setattr(sequence, "reserved", min(sequence.reserved, old_reserved))))

    def undo_with(self, undo) -> None:
        """`undo()` puts back a change made in this step that the row and stage changes do not
        cover (a load history, a table version): run if the step's record is lost."""
        self.undo.append(("call", undo))

    def note_image(self, text: str, image: dict) -> None:
        self.last_image = text
        self.known_ids = {t["id"] for t in image["tables"]} | {t["id"] for t in image["dropped"]}

    def seal(self, definitions: bool = False) -> int:
        """Make the pending changes one log record (with the catalog image first when
        `definitions` may have changed, or a change names a table the last image lacks);
        returns the last record's sequence number. When the log refuses the record, every
        pending change is undone and the OSError raised."""
        pending = self.pending
        if not definitions and pending:
            known = self.known_ids
            definitions = any(c[0] in ("append", "append_range", "edit") and c[1] not in known for c in pending)
        image_before = (self.last_image, self.known_ids)
        if definitions:
            image = catalog_image(self.db)
            text = image_text(image)
            if text != self.last_image:
                self.note_image(text, image)
                pending.insert(0, ("catalog", text))
        if not pending:
            return self.last_lsn
        undo = self.undo
        self.pending, self.undo = [], []
        try:
            self.last_lsn = self.writer.submit(lambda lsn, changes=pending: record_pieces(lsn, changes))
        except OSError:
            self.last_image, self.known_ids = image_before
            self._revert([undo])
            raise
        unwritten = self.unwritten
        durable = self.writer.durable_lsn
        while unwritten and unwritten[0][0] <= durable:
            unwritten.popleft()
        if undo:
            unwritten.append((self.last_lsn, undo))
        return self.last_lsn

    def revert_unwritten(self) -> int:
        """Once the log has failed: undo the changes of every record that did not reach the
        disk, newest first (on the engine's thread); returns how many were undone."""
        durable = self.writer.durable_lsn
        lost = [undo for lsn, undo in self.unwritten if lsn > durable]
        self.unwritten.clear()
        if self.undo:
            lost.append(self.undo)
        self.pending, self.undo = [], []
        return self._revert(lost)

    def _revert(self, undos: list) -> int:
        count = 0
        for undo in reversed(undos):
            for entry in reversed(undo):
                if entry[0] == "call":
                    entry[1]()
                else:  # the version the table had before, cut to the length it had
                    _, table, data, length = entry
                    table.restore(data.prefix(length))
                count += 1
        # what undoing told the recorder is no change to log
        self.pending, self.undo = [], []
        return count


# ---------------------------------------------------------------- replay


def apply_change(db, tables: dict, change: dict) -> dict:
    """Apply one logged change to db (whose recorder is off); returns the tables by id."""
    op = change["op"]
    if op == "catalog":
        restore_catalog(db, change["image"])
        return tables_by_id(db)
    if op in ("append", "edit"):
        table_id = change["table"]
        table = tables.get(table_id)
        if table is None:
            if not isinstance(table_id, int) or table_id >= db.catalog.peek_table_id():
                raise ValueError(f"a change to table id {table_id!r}, which the catalog never had")
            return tables  # a table replaced or dropped for good before this record
        types = [c.type for c in table.columns]
        where = f"{op} to table {table.database}.{table.name} (id {table_id})"
        try:
            if op == "append":
                table.append_columns(*decode_columns(types, change["rows"]))
                return tables
            rows = decode_chunks(types, change["rows"])
            _check_runs(change["runs"], len(table.data), len(rows))
        except (ValueError, TypeError, ArithmeticError, IndexError) as exc:
            raise ValueError(f"{where}: {exc}") from None
        table.scan_flags(rows)  # the new rows' (flags are never cleared but by TRUNCATE)
        into = table_data(types)  # the table's columns now (an ALTER's image came before)
        table.restore(rewritten(table.data, change["runs"], rows, into), rescan=False)
        return tables
    if op == "sequence":
        sequence = db.catalog.routines.sequences.get(change["name"])
        if sequence is not None:  # else dropped before this record's image was taken
            sequence.current = sequence.reserved = max(sequence.reserved, change["next"])
        return tables
    stages = db.stages
    if op == "stage_put":
        files = stages.files_of(change["owner"], change["stage"])
        if files is not None:
            files[change["path"]] = staged_file(change)
    elif op == "stage_remove":
        files = stages.files_of(change["owner"], change["stage"])
        if files is not None:
            files.pop(change["path"], None)
    elif op == "stage_clear":
        stage = stages.named.get(change["stage"])
        if stage is not None:
            stage.files = {}
    else:
        raise ValueError(f"an unknown change {op!r}")
    return tables


def _check_runs(runs: list, old_rows: int, new_rows: int) -> None:
    """An edit's runs (pairs start, count) stay within the table's rows and take exactly its
    new rows; anything else is a record that does not fit its table."""
    if len(runs) % 2:
        raise ValueError("its runs are not pairs")
    taken = 0
    for i in range(0, len(runs), 2):
        start, count = runs[i], runs[i + 1]
        if start < 0:
            taken += count
        elif start + count > old_rows:
            raise ValueError(f"it keeps rows {start}..{start + count - 1} of a table of {old_rows} rows")
    if taken != new_rows:
        raise ValueError(f"its runs take {taken} new rows, it holds {new_rows}")


# ---------------------------------------------------------------- the data directory


class DataDirectory:
    """Owns a data directory for one Database: lock, recovery, the log writer, checkpoints."""

    def __init__(self, db, path: str, fsync: bool = True, checkpoint_bytes: int = CHECKPOINT_LOG_BYTES,
                 log=print, recover_to_last_good: bool = False, fresh_state=None):
        """`recover_to_last_good`: a log record that is damaged or does not fit the database
        does not stop the start; it and every later one are set aside (`dropped` says what,
        and the log says it), and `fresh_state()` empties db for replay to start over."""
        self.db = db
        self.path = os.path.abspath(path)
        self.fsync = fsync
        self.checkpoint_bytes = checkpoint_bytes
        self.log = log
        _make_private_directory(self.path)
        self._lock_file = _lock(self.path)
        self._checkpointing: threading.Thread | None = None
        self.checkpoint_error: BaseException | None = None
        self.failure_seen = False  # the log's failure was noticed (its lost changes undone)
        self.checkpoints = 0  # written since start
        self.last_checkpoint_seconds = 0.0
        started = time.monotonic()
        try:
            stats = self._recover(recover_to_last_good, fresh_state)
        except BaseException:
            os.close(self._lock_file)
            raise
        self.recovered = stats
        self.writer = LogWriter(self.path, stats["next_segment"], fsync=fsync, next_lsn=stats["next_lsn"])
        self.recorder = Recorder(db, self.writer)
        image = catalog_image(db)
        self.recorder.note_image(image_text(image), image)
        self._attach()
        seconds = time.monotonic() - started
        stats["seconds"] = seconds
        log(f"data directory {self.path}: recovered {stats['tables']} tables, {stats['rows']} rows "
            f"and {stats['records']} log records in {seconds:.2f} s")
        if stats["records"]:
            self.checkpoint()

    def _recover(self, recover_to_last_good: bool, fresh_state) -> dict:
        stats = C.recover(self.db, self.path, apply_change, self.log, recover_to_last_good)
        self.dropped = None  # what recover_to_last_good set aside
        if stats["bad"] is not None:
            # the database holds part of the bad record: set the tail aside, start over
            self.dropped = C.set_aside_tail(self.path, stats["bad"])
            d = self.dropped
            self.log(f"recover_to_last_good: {d['file']} offset {d['offset']}: {d['reason']}; dropped "
                     f"{d['records']} log records ({d['bytes']} bytes) from there on, kept in "
                     f"{', '.join(d['saved_as'])}")
            fresh_state()
            stats = C.recover(self.db, self.path, apply_change, self.log)
        stats["dropped"] = self.dropped
        return stats

    def _attach(self) -> None:
        recorder = self.recorder
        self.db.catalog.recorder = recorder
        for tables in self.db.catalog.databases.values():  # dropped versions never log
            for table in tables.values():
                table.recorder = recorder
        self.db.stages.recorder = recorder
        self.db.catalog.routines.recorder = recorder

    def failure(self) -> str | None:
        """Why the log cannot take records, or None while it can. The first call that sees the
        failure (on the engine's thread) undoes the changes of every record the log did not
        keep, and logs why writes are refused from now on."""
        error = self.writer.error
        if error is None:
            return None
        reason = f"the write-ahead log failed: {error}"
        if not self.failure_seen:
            self.failure_seen = True
            undone = self.recorder.revert_unwritten()
            self.log(f"{reason}; every write is refused until a restart ({undone} changes of "
                     f"records it did not keep were undone), reads go on")
        return reason

    def seal(self, definitions: bool = False) -> int:
        lsn = self.recorder.seal(definitions)
        if self.writer.segment_bytes > self.checkpoint_bytes:
            self.checkpoint()
        return lsn

    def checkpoint(self, wait: bool = False) -> None:
        """Write a checkpoint (in a thread; `wait` joins it) and drop the log it covers."""
        running = self._checkpointing
        if running is not None and running.is_alive():
            if wait:
                running.join()
            else:
                return
        self.recorder.seal(True)
        segment = self.writer.segment + 1
        self.writer.rotate(segment)
        snapshot = C.capture(self.db, self.recorder.last_image)
        thread = threading.Thread(target=self._write_checkpoint, args=(segment, snapshot),
                                  name="queryhttp-checkpoint", daemon=True)
        self._checkpointing = thread
        thread.start()
        if wait:
            thread.join()

    def _write_checkpoint(self, segment: int, snapshot) -> None:
        started = time.monotonic()
        try:
            C.write_checkpoint(self.path, segment, snapshot, self.fsync)
            self.checkpoints += 1
            self.last_checkpoint_seconds = time.monotonic() - started
        except BaseException as exc:  # noqa: BLE001 - the log still holds everything; say so
            self.checkpoint_error = exc
            self.log(f"checkpoint failed (the log keeps every change): {exc!r}")

    def close(self) -> None:
        """Checkpoint, stop the writer, release the lock (a clean shutdown)."""
        self.checkpoint(wait=True)
        running = self._checkpointing
        if running is not None:
            running.join()
        self.writer.close()
        os.close(self._lock_file)


def _make_private_directory(path: str) -> None:
    """Create the data directory 0700 (whatever the umask), or check that an existing one
    is not open to group or others."""
    try:
        os.makedirs(path, DIRECTORY_MODE)  # parents as the umask says; the directory itself 0700
    except FileExistsError:
        pass
    else:
        os.chmod(path, DIRECTORY_MODE)  # mkdir's mode is masked by the umask; 0700 is wanted
        return
    mode = os.stat(path).st_mode
    if not stat.S_ISDIR(mode):
        raise UnsafeDataDirectory(f"data directory {path} is not a directory")
    if mode & 0o077:
        raise UnsafeDataDirectory(f"data directory {path} has group or world access (mode "
                                  f"{stat.S_IMODE(mode):04o}); it must be 0700: chmod 700 {path}")


def check_data_directory(path: str) -> None:
    """Whether a server could open `path` as its data directory, creating and opening nothing
    (a start-up check made before anything else is opened): DataDirectoryError saying why not
    when it is not a directory, cannot be created or written, is open to group or others, or
    another process holds its lock. The open itself checks again: this only fails earlier."""
    path = os.path.abspath(path)
    if not os.path.lexists(path):
        parent = os.path.dirname(path)
        while not os.path.lexists(parent):
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            raise UnsafeDataDirectory(f"data directory {path} cannot be created: {parent} is "
                                      "not a directory")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise UnsafeDataDirectory(f"data directory {path} cannot be created: {parent} is "
                                      "not writable")
        return
    if not os.path.isdir(path):
        raise UnsafeDataDirectory(f"data directory {path} is not a directory")
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        raise UnsafeDataDirectory(f"data directory {path} is not writable")
    mode = os.stat(path).st_mode
    if mode & 0o077:
        raise UnsafeDataDirectory(f"data directory {path} has group or world access (mode "
                                  f"{stat.S_IMODE(mode):04o}); it must be 0700: chmod 700 {path}")
    try:  # an existing LOCK only: a directory without one is held by no server
        fd = os.open(os.path.join(path, "LOCK"), os.O_RDWR)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UnsafeDataDirectory(f"data directory {path}: cannot open its LOCK: {exc}") from None
    try:
        _hold_lock(fd, path)
    finally:
        os.close(fd)  # closing releases the probe's lock


def _hold_lock(fd: int, path: str) -> None:
    """Take the exclusive lock of an open LOCK file, or DataDirectoryInUse naming its holder."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 64).decode(errors="replace").strip()
        raise DataDirectoryInUse(f"data directory {path} is in use by another process"
                                 f"{f' (pid {holder})' if holder else ''}") from None


def _lock(path: str) -> int:
    fd = open_private(os.path.join(path, "LOCK"), os.O_RDWR | os.O_CREAT)
    try:
        _hold_lock(fd, path)
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    fsync_directory(path)
    return fd


__all__ = ["DataDirectory", "DataDirectoryInUse", "Recorder", "UnsafeDataDirectory",
           "check_data_directory"]

"""The write-ahead log's files: checksummed records in numbered segments, written and fsynced by
one writer thread that lets every commit waiting at once share one fsync (group commit).

A record on disk is an 8-byte header, little-endian (payload length, CRC-32 of the payload),
then the payload: UTF-8 JSON. A segment file `wal-NNNNNNNN.log` starts with the line
MAGIC; records follow until the end of the file. See docs/durability.rst for the payloads.
"""

from __future__ import annotations

import os
import struct
import threading
import zlib
from collections import deque
from collections.abc import Callable, Iterable

from engine.core.errors import StorageError

MAGIC = b"QUERYHTTP-WAL 1\n"
HEADER = struct.Struct("<II")
MAX_RECORD_BYTES = 1 << 31  # a length beyond this is garbage, not a record


FILE_MODE = 0o600  # the log, checkpoints and LOCK hold every row and the users' password hashes


class DataDirectoryError(StorageError):
    """The data directory cannot be opened (in use, unsafe, damaged): the start stops with it."""


class CorruptLog(DataDirectoryError):
    """A record before the log's tail fails its checksum, or a record does not fit the
    database it is replayed into: the data directory needs a person. `offset` is where the
    bad record starts in its file, when known."""

    def __init__(self, message: str, offset: int | None = None):
        super().__init__(message)
        self.offset = offset


def open_private(path: str, flags: int):
    """os.open with mode FILE_MODE (0600 whatever the umask: a file it creates is never
    readable by group or others); an existing file is made 0600 too."""
    fd = os.open(path, flags, FILE_MODE)
    try:
        if os.fstat(fd).st_mode & 0o777 != FILE_MODE:
            os.fchmod(fd, FILE_MODE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_record(file, pieces: Iterable[str | bytes]) -> int:
    """Write one record to `file`: its header, then its payload, given as pieces of text or
    bytes whose concatenation is the payload (each encoded on its own: a piece is small enough
    that no call holds the interpreter long); returns the bytes written. The pieces are
    gathered before anything is written, as the header comes first and holds the payload's
    length and checksum. Log segments and checkpoints are both written through here."""
    chunks = []
    length = checksum = 0
    for piece in pieces:
        if isinstance(piece, str):
            piece = piece.encode()
        chunks.append(piece)
        length += len(piece)
        checksum = zlib.crc32(piece, checksum)
    file.write(HEADER.pack(length, checksum))
    for chunk in chunks:
        file.write(chunk)
    return HEADER.size + length


def read_records(data: bytes, start: int, offsets: list[int] | None = None
                 ) -> tuple[list[bytes], int, str | None]:
    """(payloads of the valid records from `start`, offset where they end, why reading stopped
    early or None at a clean end); each record's offset is appended to `offsets` when given.
    A bad record followed by valid ones is corruption inside the log (CorruptLog, whose
    `offset` is the bad record's); one at the very end is a torn tail (a write the crash cut
    short)."""
    payloads = []
    pos = start
    end = len(data)
    while pos < end:
        if end - pos < HEADER.size:
            return payloads, pos, f"{end - pos} bytes of a torn record header"
        length, checksum = HEADER.unpack_from(data, pos)
        body = pos + HEADER.size
        if length > MAX_RECORD_BYTES or body + length > end:
            if _valid_record_after(data, pos + 1):
                raise CorruptLog(f"record at offset {pos} has a bad length and valid records follow it", pos)
            return payloads, pos, f"a torn record at offset {pos} ({end - pos} bytes)"
        payload = data[body:body + length]
        if zlib.crc32(payload) != checksum:
            if _valid_record_at(data, body + length):
                raise CorruptLog(f"record at offset {pos} fails its checksum and valid records follow it", pos)
            return payloads, pos, f"a record with a bad checksum at offset {pos} ({end - pos} bytes)"
        payloads.append(payload)
        if offsets is not None:
            offsets.append(pos)
        pos = body + length
    return payloads, pos, None


def _valid_record_at(data: bytes, pos: int) -> bool:
    if pos + HEADER.size > len(data):
        return False
    length, checksum = HEADER.unpack_from(data, pos)
    body = pos + HEADER.size
    return body + length <= len(data) and length > 0 and zlib.crc32(data[body:body + length]) == checksum


def _valid_record_after(data: bytes, pos: int) -> bool:
    """Whether a valid record starts anywhere after `pos`."""
    return next_valid_record(data, pos) is not None


def next_valid_record(data: bytes, pos: int) -> int | None:
    """Where the first valid record at or after `pos` starts (a record's JSON starts with '{'),
    or None."""
    while True:
        pos = data.find(b"{", pos + HEADER.size)
        if pos < 0:
            return None
        if _valid_record_at(data, pos - HEADER.size):
            return pos - HEADER.size
        pos += 1 - HEADER.size


def segment_name(number: int) -> str:
    return f"wal-{number:08d}.log"


def fsync_directory(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class LogWriter:
    """Appends records to the current segment from a writer thread, in submission order.

    `submit(encode)` queues a function of the record's sequence number returning the payload
    as pieces (write_record; run in the thread, so encoding a million rows never holds up the
    caller) and returns its log sequence number; `when_durable
    (lsn, callback)` calls back (in the writer thread, or at once) when that record and every one
    before it are on disk: written and, with fsync on, fsynced. Records queued while an fsync
    runs share the next one."""

    def __init__(self, directory: str, segment: int, fsync: bool = True, next_lsn: int = 1):
        self.directory = directory
        self.fsync = fsync
        self.segment = segment
        self.segment_bytes = 0
        self._file = None
        self._open_segment(segment)
        self._lock = threading.Condition()
        self._queue: deque = deque()
        self._waiters: list[tuple[int, Callable[[], None]]] = []
        self.next_lsn = next_lsn
        self.durable_lsn = next_lsn - 1
        self.error: BaseException | None = None
        # what /metrics shows: records and bytes written, fsyncs made (records / fsyncs is the
        # group commit's batching)
        self.records_written = 0
        self.bytes_written = 0
        self.fsyncs = 0
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="queryhttp-wal", daemon=True)
        self._thread.start()

    def _open_segment(self, number: int) -> None:
        path = os.path.join(self.directory, segment_name(number))
        new = not os.path.exists(path) or os.path.getsize(path) == 0
        # held open for the segment's life; 0600 (open_private)
        self._file = os.fdopen(open_private(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT), "ab")
        if new:
            self._file.write(MAGIC)
            self._file.flush()
            os.fsync(self._file.fileno())
            fsync_directory(self.directory)
        self.segment_bytes = self._file.tell()
        self._synced_bytes = self.segment_bytes  # the segment's length at its last sync

    # -- the caller's side (the engine's thread) -------------------------------------------

    def submit(self, encode: Callable[[int], list[bytes]]) -> int:
        with self._lock:
            if self.error is None and not self._thread.is_alive():
                self.error = RuntimeError("the log's writer thread is gone")
            if self.error is not None:
                raise OSError(f"the write-ahead log failed: {self.error}")
            lsn = self.next_lsn
            self.next_lsn += 1
            self._queue.append((lsn, encode))
            self._lock.notify()
            return lsn

    def alive(self) -> bool:
        """Whether the writer thread still takes records (False once it failed or stopped)."""
        return self.error is None and self._thread.is_alive()

    def rotate(self, number: int) -> None:
        """Records submitted from now on go to segment `number`."""
        with self._lock:
            self._queue.append((None, number))
            self._lock.notify()

    def when_durable(self, lsn: int, callback: Callable[[], None]) -> None:
        with self._lock:
            if self.durable_lsn >= lsn or self.error is not None:
                ready = True
            else:
                self._waiters.append((lsn, callback))
                ready = False
        if ready:
            callback()

    def wait(self, lsn: int) -> None:
        """Block until record `lsn` is durable (embedded use without an event loop)."""
        done = threading.Event()
        self.when_durable(lsn, done.set)
        done.wait()
        if self.error is not None:
            raise OSError(f"the write-ahead log failed: {self.error}")

    def close(self) -> None:
        """Write and fsync what is queued, then stop the thread."""
        with self._lock:
            self._stopping = True
            self._lock.notify()
        self._thread.join()
        if self._file is not None:
            self._file.close()
            self._file = None

    # -- the writer thread -----------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._stopping:
                    self._lock.wait()
                if not self._queue and self._stopping:
                    return
                batch = list(self._queue)
                self._queue.clear()
            try:
                last = self._write(batch)
            except BaseException as exc:  # noqa: BLE001 - a dead log must fail commits, loudly
                self._cut_unsynced()
                with self._lock:
                    self.error = exc
                    waiters, self._waiters = self._waiters, []
                for _, callback in waiters:
                    callback()
                return
            with self._lock:
                self.durable_lsn = last
                ready = [w for w in self._waiters if w[0] <= last]
                self._waiters = [w for w in self._waiters if w[0] > last]
            for _, callback in ready:
                callback()

    def _write(self, batch) -> int:
        last = self.durable_lsn
        for lsn, item in batch:
            if lsn is None:  # a rotation: finish this segment, start the next
                self._sync()
                self._file.close()
                self.segment = item
                self._open_segment(item)
                continue
            # the payload comes in pieces (no joined copy of many megabytes; short GIL holds)
            size = write_record(self._file, item(lsn))
            self.segment_bytes += size
            self.records_written += 1
            self.bytes_written += size
            last = lsn
        self._sync()
        return last

    def _sync(self) -> None:
        self._file.flush()
        if self.fsync:
            os.fsync(self._file.fileno())
            self.fsyncs += 1
        self._synced_bytes = self.segment_bytes

    def _cut_unsynced(self) -> None:
        """After a failed write or fsync: cut the segment back to its last synced length, so
        the records whose statements failed (and whose changes were undone) cannot come back
        at recovery. Best effort: a disk that fails may refuse this too, and recovery then
        finds at most a torn tail or records no one was told are stored."""
        file, self._file = self._file, None
        if file is None:
            return
        try:
            file.raw.close()  # the buffered bytes are dropped: closing the buffer never writes them
        except OSError:
            pass
        try:
            fd = os.open(os.path.join(self.directory, segment_name(self.segment)), os.O_WRONLY)
        except OSError:
            return
        try:
            os.ftruncate(fd, self._synced_bytes)
            if self.fsync:
                os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)

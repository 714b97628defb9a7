"""Query results: schema, affect, progress counters, the batch iterator and wire rendering."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from gc import disable as gc_disable
from gc import enable as gc_enable
from gc import isenabled as gc_isenabled
from itertools import chain

from engine.core.errors import AbortedQuery, EngineError, as_engine_error
from engine.core.memory import enter_step, leave_step
from engine.types import render as R

TIME_LIMIT_MESSAGE = "Aborted query, because the execution time exceeds the maximum execution time limit"


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: str


@dataclass(frozen=True, slots=True)
class UseDB:
    name: str


@dataclass(frozen=True, slots=True)
class ChangeSettings:
    keys: tuple[str, ...]
    values: tuple[str, ...]
    is_globals: tuple[bool, ...]


@dataclass(slots=True)
class Progress:
    scan_rows: int = 0
    scan_bytes: int = 0
    write_rows: int = 0
    write_bytes: int = 0
    result_rows: int = 0
    result_bytes: int = 0


_LIST_ITERATOR = type(iter([]))
_END = object()  # next()'s default: the pipeline has no more steps


@dataclass(eq=False)
class Result:
    schema: list[Column]
    _rows: Iterator[list[tuple]]
    affect: UseDB | ChangeSettings | None = None
    progress: Progress = field(default_factory=Progress)
    types: list = field(default_factory=list)  # SqlType per column (for rendering)
    timezone: str = "UTC"  # the session zone Timestamps are shown in
    geometry_format: str = "GeoJSON"  # the session's geometry_output_format (GEOMETRY / GEOGRAPHY values)
    binary_format: str = "hex"  # the session's binary_output_format (BINARY values)
    max_rows: int = 0
    pause_gc: bool = True  # False for pipelines too small to gain from pausing the collector
    memory: object = None  # the query's engine.core.memory.QueryMemory; freed when the result is released
    _clock: Callable[[], float] | None = None  # with _deadline: max_execute_time_in_seconds
    _deadline: float = 0.0
    # called once, with the error or None, when the result ends, fails, is closed or aborted
    # (engine.catalog.processes logs the statement there): once per result, never per row
    on_finish: list = field(default_factory=list)
    # with a data directory: the log record a write statement waits for before it may end
    commit_lsn: int | None = None
    # a query that hands out sequence values (nextval) is logged as a write is; `held_lsn` is the
    # log record the rows of its latest batch wait for before they may be shown (a server holds
    # them until it is on disk, so a value seen is never handed out again after a crash)
    logged_reads: bool = False
    held_lsn: int | None = None
    # the rows are text already and their columns known only at the end (a script's answer):
    # rendered as they are, never as typed values (no Arrow pages)
    rows_are_text: bool = False
    _failure: EngineError | None = None  # why it failed or was aborted
    _closed: bool = False

    @property
    def complete(self) -> bool:
        """Whether the rows were all computed already (a list: nothing runs when read)."""
        return type(self._rows) is _LIST_ITERATOR

    def set_deadline(self, clock: Callable[[], float], deadline: float) -> None:
        """Fail the query with AbortedQuery (1043) at the first step once clock() passes `deadline`."""
        self._clock = clock
        self._deadline = deadline

    def past_deadline(self) -> bool:
        """Whether the query has run out of max_execute_time_in_seconds (checked once per step)."""
        return self._clock is not None and self._clock() > self._deadline

    def batches(self) -> Iterator[list[tuple]]:
        """The result's batches; each next() runs one bounded step of the pipeline.

        The cyclic garbage collector is paused while a step runs (and runs between steps): a
        step allocates thousands of acyclic row tuples, and letting every 700 of them start a
        young collection, which also walks the step's live batch lists, cost up to ~25% of a
        projection or join; a long query also ran into full collections that walk every live
        result. Pausing is decided when iteration starts, and skipped when the embedder has the
        collector disabled then."""
        rows = self._rows
        progress = self.progress
        width = max(len(self.schema), 1) * 8
        limit = self.max_rows
        past_deadline = self.past_deadline if self._clock is not None else None
        # batches computed already need no pause; nor does an embedder's disabled collector
        pause = self.pause_gc and type(rows) is not _LIST_ITERATOR and gc_isenabled()
        if pause:
            gc_disable()
        memory = self.memory
        try:
            while True:
                # the step charges what it builds to this query (engine.core.memory.reserve)
                previous = enter_step(memory)
                try:
                    batch = next(rows, _END)  # runs with the collector paused...
                finally:
                    leave_step(memory, previous)
                if batch is _END:
                    break
                if pause:
                    gc_enable()  # ...the consumer runs with it on
                if self._closed:
                    if self._failure is not None:
                        raise self._failure  # aborted (KILL QUERY) between two steps
                    return
                if past_deadline is not None and past_deadline():
                    raise AbortedQuery(TIME_LIMIT_MESSAGE)
                if limit:
                    room = limit - progress.result_rows
                    if len(batch) >= room:
                        batch = batch[:room]
                        progress.result_rows += len(batch)
                        progress.result_bytes += len(batch) * width
                        yield batch
                        return
                progress.result_rows += len(batch)
                progress.result_bytes += len(batch) * width
                yield batch
                if pause:
                    gc_disable()
            if self._failure is not None:
                raise self._failure  # aborted while suspended: the pipeline was closed under it
        except GeneratorExit:
            raise
        except Exception as exc:
            error = as_engine_error(exc)
            if self._failure is None:
                self._failure = error
            if error is exc:
                raise
            raise error from exc
        finally:
            if pause:
                gc_enable()  # idempotent: the collector is on whenever this generator is not running
            self._release()

    def renderer(self, null_as_str: bool) -> Callable[[list[tuple]], list[tuple[str | None, ...]]]:
        """A function turning a batch into wire rows: tuples of strings (None for NULL unless
        null_as_str). Tuples, not lists: a tuple of strings leaves the garbage collector's
        care after one collection, so the pages a server buffers cost full collections almost
        nothing (64 queries' buffers of 20,000 rows: a 105 ms pause as lists, 15 ms as tuples)."""
        null = "NULL" if null_as_str else None
        types = self.types or [None] * len(self.schema)
        convs = R.renderers_in_zone(types, self.timezone, self.geometry_format)  # (Timestamps stored in UTC, shown in the zone)
        if self.binary_format != "hex":
            binary = R.binary_renderer(self.binary_format)
            if binary is not None:
                convs = [binary if t is not None and t.name == "Binary" else c for c, t in zip(convs, types, strict=True)]
        if self.rows_are_text or all(c is str for c in convs):
            def render_plain(batch):
                return [tuple([null if v is None else str(v) for v in row]) for row in batch]

            return render_plain
        if len(convs) == 1:
            conv = convs[0]

            def render_one(batch):
                return [(null if row[0] is None else conv(row[0]),) for row in batch]

            return render_one

        def render(batch):
            return [tuple([null if v is None else c(v) for c, v in zip(convs, row, strict=False)])
                    for row in batch]

        return render

    def close(self, error: EngineError | None = None) -> None:
        """Stop and free the pipeline; `error` says why, when it ended the query as failed."""
        if error is not None and self._failure is None:
            self._failure = error
        self._closed = True
        self._release()

    def abort(self, error: EngineError) -> None:
        """Stop now (KILL QUERY): the next step raises `error` instead of giving rows."""
        self.close(error)

    def _release(self) -> None:
        rows = self._rows
        self._rows = iter(())
        close = getattr(rows, "close", None)
        if close is not None:
            try:
                close()
            except Exception:  # noqa: BLE001 - closing must never fail
                pass
        if self.memory is not None:
            self.memory.release()  # the pipeline's rows are gone now
        if self.on_finish:
            callbacks, self.on_finish = self.on_finish, []
            for callback in callbacks:
                callback(self._failure)

    def __iter__(self) -> Iterator[tuple]:
        return chain.from_iterable(self.batches())

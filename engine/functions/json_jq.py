"""jq(filter, v): Databend's set-returning jq function, one VARIANT row per output of a jq filter
run on a VARIANT, through the `jq` package (bindings of the reference C jq; the optional extra
`queryhttp[jq]`: without it the call is 1002 naming the extra).

Databend runs filters with jaq, a Rust clone of jq; the standard library the tests use (select,
to_entries, min/max/add, ascii_upcase, if/elif, object and array construction) answers the same.
Outputs are made canonical VARIANT text (object keys sorted, as Databend's JSONB keeps them). A
NULL input gives no row; a filter that does not parse or compile, or fails on a value, is 1006.
In a SELECT list the call spreads over rows like unnest (engine.plan.unnest); in FROM it is a
table function as FLATTEN is (engine.plan.flatten: of a constant, or once per row of the FROM
items before it, column `jq`).

C jq holds the GIL and has no step budget (`[range(1e9)] | length`, `until(false; .)` compute
without end), so filters run in a worker process (engine.functions.jq_worker: a fresh
interpreter, started on the first call, kept for the next ones, ended at interpreter exit and
with Database.close). Each call waits at most Limits.jq_call_milliseconds: then the worker is
killed, a new one started, and the call is 1006 saying the filter exceeded its time budget. The
worker's address space is capped at WORKER_MEMORY_BYTES (C jq aborts on an allocation past it:
1006 saying so). The outputs of one call are counted and sized in the worker as they come and
refused past Limits.array_elements outputs or Limits.string_result_chars bytes (`repeat(.)`
never ends).

A call costs a pipe round trip (10-100 microseconds, by how busy the machine is). In a SELECT
list, when its arguments are columns or constants, the rows of a step go in one request: the batch function of the projection prefetches the
(filter, input) pairs of its rows (engine.codegen.batch_source.prefetching_body), the worker runs
each input under an alarm of the call budget (it ends itself past it), and the calls find their
answers; a row without one (an error, a batch cut at string_result_chars) computes its own, so
errors are the row's own. jq in FROM after a table (LATERAL) runs once per row: one request each.

The reactor waits for the worker, so one step's jq time is bounded too: the requests made
during one step (engine.core.steps: a batch's request, or the calls of a LATERAL's rows) wait
at most Limits.jq_step_milliseconds in all. Past it the worker is killed as above and the
statement is 1006 naming that limit."""

from __future__ import annotations

import atexit
import functools
import importlib.util
import json
import math
import os
import re
import select
import signal
import subprocess
import sys
import time

from engine.core import steps
from engine.core.errors import BadArguments, Unimplemented
from engine.core.limits import Limits
from engine.functions import jq_worker as W
from engine.functions.json import VARIANT_OR_NULL, _checked
from engine.functions.registry import fixed, register
from engine.runtime.bounded import array_too_long
from engine.types import nested as N
from engine.types import variant as V

MISSING = "jq needs the jq package, the optional extra: pip install 'queryhttp[jq]'"
# The worker's address space (RLIMIT_AS): a filter building a huge value fails instead of
# taking the machine's memory. The interpreter and jq need ~30 MB of it.
WORKER_MEMORY_BYTES = 512 << 20
# How long the first call (or the first after a kill) may wait for a new worker to be ready
# (an interpreter start and `import jq`, ~50 ms; more on a loaded machine).
WORKER_START_SECONDS = 10.0

# How long compiling a filter may take (C jq links its builtins for each filter: a few ms).
COMPILE_SECONDS = 0.5

_loaded = []  # the jq package's import spec once found (a list, so that tests can empty it)


def _import():
    spec = importlib.util.find_spec("jq")
    if spec is None:
        raise ImportError("No module named 'jq'")
    return spec


def jq_module():
    """The `jq` package's spec (the worker imports it), or 1002 naming the extra when it is not installed."""
    if not _loaded:
        try:
            _loaded.append(_import())
        except ImportError:
            raise Unimplemented(MISSING) from None
    return _loaded[0]


class WorkerStopped(Exception):
    """The worker ended during a call: killed past the time budget, or dead (out of memory)."""


class JqWorker:
    """The client end of one jq worker process (engine.functions.jq_worker), restarted as needed."""

    def __init__(self, memory_bytes: int = WORKER_MEMORY_BYTES):
        self.memory_bytes = memory_bytes
        self.process: subprocess.Popen | None = None
        self.ready = False
        self.buffer = bytearray()

    def start(self) -> None:
        # a fresh interpreter running the worker's file (not `-m`, which would import the engine
        # package); -P keeps the file's directory, which holds a json.py, off sys.path
        self.process = subprocess.Popen(
            [sys.executable, "-P", W.__file__, str(self.memory_bytes)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0, close_fds=True)
        self.ready = False
        self.buffer.clear()
        self.write_fd, self.read_fd = self.process.stdin.fileno(), self.process.stdout.fileno()
        self.readable = select.poll()
        self.readable.register(self.read_fd, select.POLLIN)

    def stop(self) -> int | None:
        """Kill and reap the worker (no zombie); its exit status, None when there was none."""
        process, self.process = self.process, None
        if process is None:
            return None
        if process.poll() is None:
            process.kill()
        status = process.wait()
        process.stdin.close()
        process.stdout.close()
        return status

    def request(self, kind: bytes, payload: bytes, seconds: float) -> tuple[bytes, bytes]:
        """Send one request and wait at most `seconds` for its reply (WorkerStopped past it)."""
        if self.process is None or self.process.poll() is not None:  # none yet, or it died (killed)
            self.stop()
            self.start()
        if not self.ready:
            self._reply(time.monotonic() + WORKER_START_SECONDS)
            self.ready = True
        try:
            W.write_all(self.write_fd, W.frame(kind, payload))
        except BrokenPipeError:
            raise WorkerStopped(self._ended()) from None
        return self._reply(time.monotonic() + seconds)

    def _reply(self, deadline: float) -> tuple[bytes, bytes]:
        buffer, header = self.buffer, W.HEADER
        while True:
            if len(buffer) >= header.size:
                kind, size = header.unpack_from(buffer)
                end = header.size + size
                if len(buffer) >= end:
                    payload = bytes(buffer[header.size:end])
                    del buffer[:end]
                    return kind, payload
            left_ms = math.ceil((deadline - time.monotonic()) * 1000)
            if left_ms <= 0 or not self.readable.poll(left_ms):
                self.stop()
                self.start()  # the next call finds it started (its start overlaps other work)
                raise WorkerStopped("waited")
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                raise WorkerStopped(self._ended())
            buffer += chunk

    def _ended(self) -> str:
        status = self.stop()
        # C jq aborts (SIGABRT) when an allocation fails: the address-space cap
        # an input of a batch past the budget: the worker's alarm ended it (jq_worker._run_many)
        if status == -signal.SIGALRM:
            return "time"
        return "memory" if status == -signal.SIGABRT else f"exit status {status}"


WORKER = JqWorker()
atexit.register(WORKER.stop)


def stop_worker() -> None:
    """End the jq worker process (a later call starts a new one): at Database.close and exit."""
    WORKER.stop()


def _worker_error(reason: str, seconds: float) -> BadArguments:
    if reason in ("time", "waited"):
        return BadArguments(f"jq filter exceeded its time budget of {seconds * 1000:g} ms "
                            f"(jq_call_milliseconds)")
    if reason == "memory":
        return BadArguments(f"jq filter exceeded its memory limit of {WORKER_MEMORY_BYTES >> 20} MB")
    return BadArguments(f"jq worker ended unexpectedly ({reason})")


def _step_error(step_seconds: float) -> BadArguments:
    return BadArguments(f"jq filters exceeded the time budget of one step, {step_seconds * 1000:g} ms "
                        f"(jq_step_milliseconds)")


_clock = time.monotonic  # the wall clock a step's jq time is measured with (tests set their own)

# [the step's serial number (engine.core.steps), seconds the reactor waited for the worker in it]
_step_time = [-1, 0.0]


def _step_spent() -> float:
    """Seconds waited for the worker in the running step so far (0 at a new step, and outside
    any step: a call made directly counts alone)."""
    serial = steps.current()
    if serial is None or _step_time[0] != serial:
        _step_time[0], _step_time[1] = serial, 0.0
    return _step_time[1]


def _ask(kind: bytes, payload: bytes, seconds: float, wait: float | None = None,
         step_seconds: float | None = None) -> tuple[bytes, bytes]:
    """The worker's reply to one request of a call budget of `seconds` (waiting `wait`, for a
    batch: its inputs' budgets), or the 1006 saying why the worker ended. Every wait counts
    towards the running step's; with `step_seconds` (Limits.jq_step_milliseconds) the wait is
    cut at what the step has left, and past it the statement is 1006 naming that budget."""
    wait = seconds if wait is None else wait
    cut = False
    spent = _step_spent()
    if step_seconds is not None:
        left = step_seconds - spent
        if left <= 0:
            raise _step_error(step_seconds)
        cut, wait = left < wait, min(wait, left)
    started = _clock()
    try:
        return WORKER.request(kind, payload, wait)
    except WorkerStopped as e:
        if cut and str(e) == "waited":
            raise _step_error(step_seconds) from None
        raise _worker_error(str(e), seconds) from None
    finally:
        _step_time[1] = spent + _clock() - started


@functools.lru_cache(maxsize=64)
def _compiled(source: str) -> str:
    """A filter checked once per text (the same filter runs for every row of a column): 1006
    when it does not compile. The worker keeps its compiled program."""
    jq_module()
    reply, message = _ask(b"C", source.encode(), COMPILE_SECONDS)
    if reply == b"E":
        raise BadArguments(message.decode())
    return source


# a number written as a float (Python's float repr always has a point or an exponent): its text
# must come from V.dumps, which writes floats as Databend does
_MAYBE_FLOAT = re.compile(r"\d[.eE]|Infinity|NaN")


def _variant_text(text: str) -> str:
    """A worker's output (keys sorted already) as VARIANT text: floats written by V.dumps."""
    return V.dumps(json.loads(text)) if _MAYBE_FLOAT.search(text) else text


def _texts(payload: bytes) -> list[str]:
    """The VARIANT texts of a worker's b"O" reply."""
    return [_variant_text(t) for t in payload.decode().split("\n")] if payload else []


def _prefetch(arguments, answers: dict, max_outputs: int, max_bytes: int, seconds: float,
              step_seconds: float) -> None:
    """Fill `answers` ((filter, input) -> output texts) for the (filter, input) pairs of a batch's
    rows: one MANY request a filter (the worker ends itself when one input passes the budget)."""
    by_source: dict = {}
    for source, v in arguments:
        if source is not None and v is not None:
            by_source.setdefault(source, {})[v] = None  # its distinct inputs, in order
    for source, inputs in by_source.items():
        _compiled(source)
        filter_bytes = source.encode()
        parts = [W.MANY.pack(len(filter_bytes), max_outputs, max_bytes, int(seconds * 1e6), len(inputs)),
                 filter_bytes]
        for v in inputs:
            text = v.encode()
            parts += (W.LENGTH.pack(len(text)), text)
        reply, payload = _ask(b"M", b"".join(parts), seconds, seconds * (len(inputs) + 1), step_seconds)
        if reply != b"M":
            continue
        at = 0
        for v in inputs:
            if at == len(payload):
                break  # the batch stopped at max_bytes: these inputs are computed by their calls
            kind, size = W.HEADER.unpack_from(payload, at)
            if kind == b"O":
                answers[(source, v)] = _texts(payload[at + W.HEADER.size:at + W.HEADER.size + size])
            at += W.HEADER.size + size


def make_jq(limits: Limits):
    max_outputs, max_bytes = limits.array_elements, limits.string_result_chars
    seconds = limits.jq_call_milliseconds / 1000
    step_seconds = limits.jq_step_milliseconds / 1000
    answers: dict = {}  # a batch's prefetched outputs (engine.codegen.batch_source.prefetching_body)

    def jq(source, v):
        """The outputs of filter `source` on VARIANT `v`, as a list of VARIANT texts (NULL: none)."""
        if answers:
            texts = answers.get((source, v))
            if texts is not None:
                return N.ArrayValue(texts)
        if source is None:
            raise BadArguments("jq filter must be a scalar string")
        _compiled(source)
        if v is None:
            return None
        filter_bytes = source.encode()
        reply, payload = _ask(b"R", W.RUN.pack(len(filter_bytes), max_outputs, max_bytes) + filter_bytes
                              + v.encode(), seconds, None, step_seconds)
        if reply == b"O":
            return N.ArrayValue(_texts(payload))
        if reply == b"N":
            raise array_too_long("jq output", int(payload), max_outputs)
        if reply == b"B":
            raise BadArguments(f"jq output of {int(payload)} bytes exceeds the limit "
                               f"string_result_chars = {max_bytes}")
        if reply == b"E":
            raise BadArguments(payload.decode())
        raise BadArguments(f"{payload.decode()} while evaluating function `jq({V.sql_literal(source)}, "
                           f"{V.sql_literal(v)})`")

    def prefetch(arguments) -> None:
        """Compute the outputs of a batch's (filter, input) pairs in one request a filter; a call
        without an answer (an error on its input, a batch cut short) computes its own and meets
        the error. A filter that does not compile, or an input past the time budget (the worker
        ended), fails the statement here, as its call would (without waiting again)."""
        answers.clear()
        try:
            _prefetch(arguments, answers, max_outputs, max_bytes, seconds, step_seconds)
        except BaseException:
            answers.clear()
            raise

    jq.prefetch, jq.release = prefetch, answers.clear
    return jq


# never folded into constants (volatile): the planner must see each call to spread it
register("jq", make_jq, _checked("jq", ("string", "variant"), fixed(VARIANT_OR_NULL)), 2, strict=False,
         bounded=True, volatile=True)

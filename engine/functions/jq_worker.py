"""The jq worker process: runs C jq (the `jq` package) for engine.functions.json_jq outside the server.

C jq holds the GIL and has no step budget, so it cannot run in the reactor's process: the server
starts this module as a fresh interpreter (its path run by sys.executable; it imports only the
standard library and jq, so it holds no engine state), talks to it over its stdin/stdout pipes,
and kills it when a call passes its time budget. The worker caps its own address space
(RLIMIT_AS, argv[1] bytes): an allocation past it makes C jq abort, which the server reports.
It ends when its stdin closes (the server exited or stopped it).

Frames both ways: HEADER (a kind byte, the payload's length) then the payload.
  server -> worker  b"C" filter text: compile it (a reply b"K" or an error);
                    b"R" RUN (filter length, max outputs, max bytes) + filter + input JSON text;
                    b"M" MANY (filter length, max outputs, max bytes, microseconds an input may
                    take, count of inputs) + filter + the inputs, each LENGTH + JSON text.
  worker -> server  b"K" ready / compiled; b"O" the outputs, canonical JSON texts joined by "\\n"
                    (object keys sorted; JSON text never holds a raw newline); b"E" a compile
                    error (the whole message); b"V" an evaluation error (its first line);
                    b"N" more outputs than allowed; b"B" more output bytes than allowed;
                    b"M" the replies to a MANY's inputs (frames of the kinds above), in order.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import signal
import struct
import sys
from collections import OrderedDict

HEADER = struct.Struct("<cI")
RUN = struct.Struct("<III")
MANY = struct.Struct("<IIIII")
LENGTH = struct.Struct("<I")
# canonical JSON text (one encoder: json.dumps with options builds a new one every call)
_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode
COMPILED_FILTERS = 256  # compiled programs kept (least recently used dropped first)


def frame(kind: bytes, payload: bytes) -> bytes:
    return HEADER.pack(kind, len(payload)) + payload


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class _Programs:
    """Compiled filters by text, bounded (a client can send any number of distinct filters)."""

    def __init__(self, jq_module):
        self.jq = jq_module
        self.cache: OrderedDict = OrderedDict()

    def get(self, source: str):
        program = self.cache.get(source)
        if program is not None:
            self.cache.move_to_end(source)
            return program
        program = self.jq.compile(source)
        self.cache[source] = program
        if len(self.cache) > COMPILED_FILTERS:
            self.cache.popitem(last=False)
        return program


def _compile_error(error: ValueError) -> bytes:
    # jaq's wording (Databend's): a filter that does not parse fails to load, an unknown name to compile
    stage = "load" if "syntax error" in str(error) else "compile"
    return frame(b"E", f"Invalid jq filter {stage} error: {_first_line(error)}".encode())


def _evaluate(program, text: str, max_outputs: int, max_bytes: int) -> bytes:
    """One input's reply frame: its outputs, or why there are none."""
    outputs, size = [], 0
    try:
        for value in program.input_text(text):
            if len(outputs) == max_outputs:
                return frame(b"N", str(max_outputs + 1).encode())
            output = _ENCODE(value)
            size += len(output) + 1
            if size > max_bytes:
                return frame(b"B", str(size).encode())
            outputs.append(output)
    except (ValueError, MemoryError, RecursionError) as e:
        return frame(b"V", _first_line(e).encode())
    return frame(b"O", "\n".join(outputs).encode())


def _run(programs: _Programs, payload: bytes) -> bytes:
    source_length, max_outputs, max_bytes = RUN.unpack_from(payload)
    try:
        program = programs.get(payload[RUN.size:RUN.size + source_length].decode())
    except ValueError as e:
        return _compile_error(e)
    return _evaluate(program, payload[RUN.size + source_length:].decode(), max_outputs, max_bytes)


def _run_many(programs: _Programs, payload: bytes) -> bytes:
    """A batch (MANY): the replies of its inputs, each a frame, in one b"M" frame. Each input
    runs under an alarm of the call budget whose default action ends this process (C jq cannot
    be interrupted), and the batch stops once its replies pass max_bytes (the server computes
    the inputs left one by one)."""
    source_length, max_outputs, max_bytes, budget_us, count = MANY.unpack_from(payload)
    at = MANY.size + source_length
    try:
        program = programs.get(payload[MANY.size:at].decode())
    except ValueError as e:
        return _compile_error(e)
    replies, size = [], 0
    for _ in range(count):
        (length,) = LENGTH.unpack_from(payload, at)
        text = payload[at + LENGTH.size:at + LENGTH.size + length].decode()
        at += LENGTH.size + length
        signal.setitimer(signal.ITIMER_REAL, budget_us / 1e6)  # re-armed for each input
        reply = _evaluate(program, text, max_outputs, max_bytes)
        size += len(reply)
        if size > max_bytes:
            break
        replies.append(reply)
    signal.setitimer(signal.ITIMER_REAL, 0)
    return frame(b"M", b"".join(replies))


def serve(read_fd: int, write_fd: int) -> None:
    """Answer requests until the server closes the pipe."""
    # imported here, after the address-space cap, so that its allocations count
    programs = _Programs(importlib.import_module("jq"))
    requests = open(read_fd, "rb", buffering=1 << 16)  # a request's frame in one read, mostly
    write_all(write_fd, frame(b"K", b""))
    while True:
        header = requests.read(HEADER.size)
        if len(header) < HEADER.size:
            return
        kind, size = HEADER.unpack(header)
        payload = requests.read(size)
        if len(payload) < size:
            return
        if kind == b"C":
            try:
                programs.get(payload.decode())
                reply = frame(b"K", b"")
            except ValueError as e:
                reply = _compile_error(e)
        elif kind == b"M":
            reply = _run_many(programs, payload)
        else:
            reply = _run(programs, payload)
        write_all(write_fd, reply)


def main(argv: list[str]) -> None:
    memory_bytes = int(argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    # the protocol moves to private descriptors; jq's own writes (debug, stderr) go nowhere
    read_fd, write_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    serve(read_fd, write_fd)


if __name__ == "__main__":
    main(sys.argv)

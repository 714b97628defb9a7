"""The jq worker process: runs C jq (the `jq` package) for engine.functions.json_jq outside the server.

C jq holds the GIL and has no step budget, so it cannot run in the reactor's process: the server
starts this module as a fresh interpreter (its path run by sys.executable; it imports only the
standard library and jq, so it holds no engine state), talks to it over its stdin/stdout pipes,
and kills it when a call passes its time budget. The worker caps its own address space
(RLIMIT_AS, argv[1] bytes): an allocation past it makes C jq abort, which the server reports.
It ends when its stdin closes (the server exited or stopped it).

Frames both ways: HEADER (a kind byte, the payload's length) then the payload.
  server -> worker  b"C" filter text: compile it (a reply b"K" or an error);
                    b"R" RUN (filter length, max outputs, max bytes) + filter + input JSON text.
  worker -> server  b"K" ready / compiled; b"O" the outputs, canonical JSON texts joined by "\\n"
                    (object keys sorted; JSON text never holds a raw newline); b"E" a compile
                    error (the whole message); b"V" an evaluation error (its first line);
                    b"N" more outputs than allowed; b"B" more output bytes than allowed.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import struct
import sys
from collections import OrderedDict

HEADER = struct.Struct("<cI")
RUN = struct.Struct("<III")
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


def _run(programs: _Programs, payload: bytes) -> bytes:
    source_length, max_outputs, max_bytes = RUN.unpack_from(payload)
    source = payload[RUN.size:RUN.size + source_length].decode()
    try:
        program = programs.get(source)
    except ValueError as e:
        return _compile_error(e)
    outputs, size = [], 0
    try:
        for value in program.input_text(payload[RUN.size + source_length:].decode()):
            if len(outputs) == max_outputs:
                return frame(b"N", str(max_outputs + 1).encode())
            text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            size += len(text) + 1
            if size > max_bytes:
                return frame(b"B", str(size).encode())
            outputs.append(text)
    except (ValueError, MemoryError, RecursionError) as e:
        return frame(b"V", _first_line(e).encode())
    return frame(b"O", "\n".join(outputs).encode())


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

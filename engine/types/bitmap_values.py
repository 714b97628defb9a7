"""BITMAP values: a set of unsigned 64-bit integers, held as a frozenset of ints (union,
intersection, difference, membership and counting are C-level set operations; it hashes, so
GROUP BY and DISTINCT take it). Databend's text form ('1, 2, 3') read and written, the byte form
Databend 1.2.453 stores and orders bitmaps by (MIN / MAX), and the Limits.array_elements bound on
how many numbers one value is built from or shown as."""

from __future__ import annotations

import re
import struct

from engine.core.errors import BadArguments
from engine.core.limits import Limits

U64_MAX = 2**64 - 1
EMPTY: frozenset = frozenset()
# every bitmap in a query HTTP result, as Databend shows it (its values encoder writes no numbers)
WIRE_TEXT = "<bitmap binary>"
# the bound of conversions that run without a database's Limits (INSERT's column conversion)
DEFAULT_LIMIT = Limits().array_elements
# memory: one number a bitmap held by an aggregate gains (its set entry with spare room, its int)
ELEMENT_BYTES = 64

# Python's str.split() takes these for whitespace, Rust's char::is_whitespace (Databend) does not
_NOT_RUST_SPACE = re.compile("[\x1c-\x1f]")
_SHOWN_CHARS = 1024  # of a refused text in its error message


def too_many(what: str, count: int, limit: int) -> BadArguments:
    return BadArguments(f"{what} of {count} numbers exceeds the limit array_elements = {limit}")


def parse(text: str, limit: int = DEFAULT_LIMIT) -> frozenset:
    """to_bitmap(text): comma-separated unsigned integers, whitespace anywhere dropped first (as
    Databend: '1 2' is 12, '+1' is 1); refused in Databend's words when malformed, and past
    `limit` numbers before any is read. Only C-level str operations touch the whole text."""
    count = text.count(",") + 1
    if count > limit:
        raise too_many("to_bitmap of a text", count, limit)
    squeezed = "".join(text.split())
    parts = squeezed.split(",")
    if "+" in squeezed:
        parts = [p[1:] if p[:1] == "+" else p for p in parts]
    if not (squeezed.isascii() and all(map(str.isdigit, parts))) or _NOT_RUST_SPACE.search(text):
        raise _invalid_text(text)
    try:
        values = frozenset(map(int, parts))
    except ValueError:  # a part past Python's int conversion limit (4300 digits)
        values = frozenset(map(_long_int, parts))
    if max(values) > U64_MAX:
        raise _invalid_text(text)
    return values


def _long_int(digits: str) -> int:
    significant = digits.lstrip("0")
    return int(significant or "0") if len(significant) <= 20 else U64_MAX + 1


def _invalid_text(text: str) -> BadArguments:
    shown = text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "..."
    # the call shows the text quoted as it is (Databend escapes no quote there: to_bitmap('a'b'))
    return BadArguments(f"BadBytes. Code: 1046, Text = Invalid Bitmap value: {_rust_debug(shown)}. "
                        f"while evaluating function `to_bitmap('{shown}')`")


# Rust's `{:?}` of a str: quotes, backslashes and control characters escaped
_RUST_ESCAPES = {**{c: f"\\u{{{c:x}}}" for c in [*range(32), 127]},
                 ord("\t"): "\\t", ord("\n"): "\\n", ord("\r"): "\\r", 0: "\\0", ord('"'): '\\"',
                 ord("\\"): "\\\\"}


def _rust_debug(text: str) -> str:
    return '"' + text.translate(_RUST_ESCAPES) + '"'


def to_text(v: frozenset, limit: int = DEFAULT_LIMIT) -> str:
    """to_string(b) / CAST(b AS VARCHAR): the numbers ascending, comma-separated ('' when empty)."""
    return ",".join(map(str, ascending(v, limit, "the text of a bitmap")))


def ascending(v: frozenset, limit: int, what: str) -> list[int]:
    """The numbers of a bitmap in order, refused past `limit` (before sorting them)."""
    if len(v) > limit:
        raise too_many(what, len(v), limit)
    return sorted(v)


# ---------------------------------------------------------------- Databend's byte form

_TREEMAP_HEAD = struct.Struct("<Q")
_HIGH_KEY = struct.Struct("<I")
_ROARING_HEAD = struct.Struct("<II")
_NO_RUN_COOKIE = 12346  # roaring's portable format without run containers
_ARRAY_LIMIT = 4096  # a container holds at most this many numbers as a sorted array, else 8 KiB of bits


def serialized(v: frozenset) -> bytes:
    """The bytes Databend 1.2.453 stores a bitmap as (a RoaringTreemap: the count of 32-bit
    bitmaps, then each under its high 32 bits in roaring's portable format). MIN and MAX of
    bitmaps compare these bytes, so {3} is less than {1, 2} (its container holds fewer numbers)."""
    highs: dict[int, list[int]] = {}
    for x in sorted(v):
        highs.setdefault(x >> 32, []).append(x & 0xFFFF_FFFF)
    parts = [_TREEMAP_HEAD.pack(len(highs))]
    for high, lows in highs.items():
        parts.append(_HIGH_KEY.pack(high))
        parts.append(_roaring(lows))
    return b"".join(parts)


_HYBRID_SMALL_LIMIT = 32  # current Databend's HybridBitmap keeps up to 32 numbers as a plain list


def hybrid_serialized(v: frozenset) -> bytes:
    """The bytes current Databend's to_binary(bitmap) answers (its HybridBitmap): 'HB', version 1,
    then kind 0, a count byte and the numbers as little-endian u64 for up to 32 numbers, else
    kind 1 and the RoaringTreemap bytes."""
    if len(v) <= _HYBRID_SMALL_LIMIT:
        values = sorted(v)
        return b"HB\x01\x00" + bytes((len(values),)) + struct.pack(f"<{len(values)}Q", *values)
    return b"HB\x01\x01" + serialized(v)


def _roaring(lows: list[int]) -> bytes:
    containers: dict[int, list[int]] = {}
    for x in lows:
        containers.setdefault(x >> 16, []).append(x & 0xFFFF)
    n = len(containers)
    descriptions, offsets, bodies = [], [], []
    offset = 8 + 8 * n  # cookie, count, then a (key, count - 1) pair and an offset per container
    for key, values in containers.items():
        descriptions.append(struct.pack("<HH", key, len(values) - 1))
        if len(values) <= _ARRAY_LIMIT:
            body = struct.pack(f"<{len(values)}H", *values)
        else:
            words = [0] * 1024
            for x in values:
                words[x >> 6] |= 1 << (x & 63)
            body = struct.pack("<1024Q", *words)
        offsets.append(_HIGH_KEY.pack(offset))
        offset += len(body)
        bodies.append(body)
    return _ROARING_HEAD.pack(_NO_RUN_COOKIE, n) + b"".join(descriptions) + b"".join(offsets) + b"".join(bodies)

"""Hash and encoding functions: md5, sha1, sha2, blake3, crc32, siphash (SipHash-1-3),
xxhash32/64, city64withseed, uuid, hex/unhex, to_base64/from_base64, inet_aton/inet_ntoa.

Values match Databend's: a number is hashed as the little-endian bytes of its type (an Int32 as
4 bytes, a Float64 as its 8 IEEE bytes), a string as its UTF-8 bytes."""

from __future__ import annotations

import base64
import binascii
import datetime
import decimal
import hashlib
import ipaddress
import struct
import uuid
import zlib

import blake3
import xxhash

from engine.core.errors import BadArguments, SemanticError
from engine.functions.cityhash import city_hash64_with_seed
from engine.functions.json_extensions import variant_to_binary
from engine.functions.registry import declare_row_costs, fixed, register
from engine.types import cast as casting
from engine.types import sqltype as T

UINT32 = T.SqlType("UInt32")
_EPOCH = datetime.datetime(1970, 1, 1)
_EPOCH_DATE = _EPOCH.date()
_MICROSECOND = datetime.timedelta(microseconds=1)
_INT_WIDTHS = {"Int8": 1, "Int16": 2, "Int32": 4, "Int64": 8, "UInt8": 1, "UInt16": 2, "UInt32": 4,
               "UInt64": 8}


def _utf8(v) -> bytes:
    if isinstance(v, bytes):  # Binary
        return v
    return (v if isinstance(v, str) else casting.to_string(v)).encode("utf-8")


def _encoder(t: T.SqlType, last_write_only: bool = False):
    """value -> the bytes Databend hashes for a value of type t (`last_write_only`: its
    city64withseed hasher keeps only the last bytes written, a DECIMAL's unscaled integer)."""
    width = _INT_WIDTHS.get(t.name)
    if width is not None:
        signed = not t.name.startswith("U")
        return lambda v: int(v).to_bytes(width, "little", signed=signed)
    if t.name == "Boolean":
        return lambda v: b"\x01" if v else b"\x00"
    if t.name == "Float32":
        return lambda v: struct.pack("<f", v)
    if t.name == "Float64":
        return lambda v: struct.pack("<d", float(v))
    if t.name == "Decimal":  # its scale (a u8), then its unscaled integer as an i128 (i256 beyond 38 digits)
        scale, size = t.scale, 16 if t.precision <= 38 else 32
        head = b"" if last_write_only else bytes((scale,))
        return lambda v: head + int(decimal.Decimal(v).scaleb(scale)).to_bytes(size, "little", signed=True)
    if t.name in T.NESTED_NAMES:  # Databend's siphash64 of any other value hashes no bytes at all
        return lambda v: b""
    if t.name == "Date":  # Int32 days since 1970-01-01
        return lambda v: (v - _EPOCH_DATE).days.to_bytes(4, "little", signed=True)
    if t.name == "Timestamp":  # Int64 microseconds since 1970-01-01
        return lambda v: ((v.replace(tzinfo=None) - _EPOCH) // _MICROSECOND).to_bytes(8, "little", signed=True)
    return _utf8


def _strings_only(name, result, also=()):
    def rule(types):
        if not types[0].is_string and types[0].name not in also:
            raise SemanticError(f"no overload satisfies `{name}({types[0].display()})`")
        return result

    return rule


def _siphash13(data: bytes) -> int:
    """SipHash-1-3 with zero keys (Rust's DefaultHasher, which Databend's siphash uses)."""
    mask = 0xFFFF_FFFF_FFFF_FFFF
    v0, v1, v2, v3 = 0x736F6D6570736575, 0x646F72616E646F6D, 0x6C7967656E657261, 0x7465646279746573

    def sip_round(v0, v1, v2, v3):
        v0 = (v0 + v1) & mask
        v1 = ((v1 << 13) | (v1 >> 51)) & mask ^ v0
        v0 = ((v0 << 32) | (v0 >> 32)) & mask
        v2 = (v2 + v3) & mask
        v3 = ((v3 << 16) | (v3 >> 48)) & mask ^ v2
        v0 = (v0 + v3) & mask
        v3 = ((v3 << 21) | (v3 >> 43)) & mask ^ v0
        v2 = (v2 + v1) & mask
        v1 = ((v1 << 17) | (v1 >> 47)) & mask ^ v2
        v2 = ((v2 << 32) | (v2 >> 32)) & mask
        return v0, v1, v2, v3

    n = len(data)
    end = n - n % 8
    for i in range(0, end, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v3 ^= m
        v0, v1, v2, v3 = sip_round(v0, v1, v2, v3)
        v0 ^= m
    m = ((n & 0xFF) << 56) | int.from_bytes(data[end:], "little")
    v3 ^= m
    v0, v1, v2, v3 = sip_round(v0, v1, v2, v3)
    v0 ^= m
    v2 ^= 0xFF
    for _ in range(3):
        v0, v1, v2, v3 = sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def _typed_hash(hash_bytes, last_write_only=False):
    """specialize(types) for a hash of any type: encode the value as its type's bytes, then hash."""

    def specialize(types):
        encode = _encoder(types[0], last_write_only)
        if len(types) == 2:
            return lambda v, seed: hash_bytes(encode(v), seed)
        return lambda v: hash_bytes(encode(v))

    return specialize


def _md5(s):
    return hashlib.md5(_utf8(s), usedforsecurity=False).hexdigest()


def _sha1(s):
    return hashlib.sha1(_utf8(s), usedforsecurity=False).hexdigest()


_SHA2 = {0: hashlib.sha256, 224: hashlib.sha224, 256: hashlib.sha256, 384: hashlib.sha384,
         512: hashlib.sha512}


def _sha2(s, bits):
    fn = _SHA2.get(int(bits))
    if fn is None:
        raise BadArguments(f"Expected [0, 224, 256, 384, 512] as sha2 encode options, but got {bits}")
    return fn(_utf8(s)).hexdigest()


def _blake3(s):
    return blake3.blake3(_utf8(s)).hexdigest()


def _crc32(s):
    return zlib.crc32(_utf8(s))


def _uuid():
    return str(uuid.uuid4())


def _hex(v):
    """hex(x): an integer in upper-case digits (as Databend's conv-style hex), text in lower case."""
    if isinstance(v, int) and not isinstance(v, bool):
        return format(v & 0xFFFF_FFFF_FFFF_FFFF, "X")
    return _utf8(v).hex()


def _to_hex(v):
    if isinstance(v, int) and not isinstance(v, bool):
        return format(v & 0xFFFF_FFFF_FFFF_FFFF, "x")
    return _utf8(v).hex()


def _decoded_text(decode):
    """hex_decode_string / base64_decode_string: the decoded bytes as UTF-8 text."""
    def text(s):
        try:
            return decode(s).decode("utf-8")
        except UnicodeDecodeError:
            raise BadArguments("invalid utf8 sequence while decoding the string") from None
    return text


def _hex_type(types):
    t = types[0]
    if not (t.is_string or t.is_int or t.name == "Binary"):
        raise SemanticError(f"no overload satisfies `to_hex({t.display()})`")
    return T.STRING


def _unhex(s):
    s = _utf8(s).decode("ascii", errors="replace")
    for i, c in enumerate(s):
        if c not in "0123456789abcdefABCDEF":
            raise BadArguments(f"Invalid character '{c}' at position {i}")
    if len(s) % 2:
        raise BadArguments("Odd number of digits")
    return bytes.fromhex(s)


def _to_base64(s):
    return base64.b64encode(_utf8(s)).decode("ascii")


def _from_base64(s):
    data = _utf8(s)
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        bad = next((i for i, b in enumerate(data) if chr(b) not in _BASE64_CHARS), 0)
        raise BadArguments(f"Invalid byte {data[bad] if data else 0}, offset {bad}.") from None


_BASE64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def _inet_aton(s):
    try:
        return int(ipaddress.IPv4Address(_utf8(s).decode("utf-8").strip()))
    except ValueError:
        raise BadArguments("invalid IPv4 address syntax") from None


def _inet_ntoa(n):
    n = int(n)
    if not 0 <= n <= 0xFFFF_FFFF:
        raise BadArguments(f"Failed to parse '{n}' into a IPV4 address")
    return str(ipaddress.IPv4Address(n))


register("md5", _md5, _strings_only("md5", T.STRING), 1)
register("sha1", _sha1, _strings_only("sha1", T.STRING), 1, aliases=("sha",))
register("sha2", _sha2, _strings_only("sha2", T.STRING), 2)
register("blake3", _blake3, _strings_only("blake3", T.STRING), 1)
register("crc32", _crc32, _strings_only("crc32", UINT32), 1)
register("siphash64", _siphash13, fixed(T.UINT64), 1, aliases=("siphash",), specialize=_typed_hash(_siphash13))
register("xxhash64", xxhash.xxh64_intdigest, fixed(T.UINT64), 1,
         specialize=_typed_hash(xxhash.xxh64_intdigest))
register("xxhash32", xxhash.xxh32_intdigest, fixed(UINT32), 1, specialize=_typed_hash(xxhash.xxh32_intdigest))
register("city64withseed", city_hash64_with_seed, fixed(T.UINT64), 2,
         specialize=_typed_hash(lambda data, seed: city_hash64_with_seed(data, int(seed)), last_write_only=True))
register("uuid", _uuid, fixed(T.STRING), 0, aliases=("gen_random_uuid",), volatile=True)
register("hex", _hex, _hex_type, 1)
register("to_hex", _to_hex, _hex_type, 1, aliases=("hex_encode",))
register("unhex", _unhex, fixed(T.BINARY), 1, aliases=("from_hex",))
register("to_base64", _to_base64, fixed(T.STRING), 1)
register("from_base64", _from_base64, fixed(T.BINARY), 1)
register("hex_decode_string", _decoded_text(_unhex), fixed(T.STRING), 1)
register("base64_decode_string", _decoded_text(_from_base64), fixed(T.STRING), 1)
def _to_binary_type(types):
    if types[0].name == "Variant":  # a JSON null is NULL
        return T.BINARY.as_nullable(True)
    return _strings_only("to_binary", T.BINARY, also=("Bitmap", "Geometry", "Geography"))(types)


def binary_input_reader(input_format: str):
    """Text to Binary under `binary_input_format`: 'hex' and 'base64' decode the text (as
    from_hex / from_base64); 'utf-8' (the default) answers None: the plain cast takes its bytes."""
    return {"hex": _unhex, "base64": _from_base64}.get(input_format.lower())


def _formatted_binary(text, fmt):
    """to_binary(text, format): the bytes the text spells in 'hex', 'base64' or 'utf-8'."""
    fmt = _utf8(fmt).decode("utf-8", "replace").lower()
    if fmt == "hex":
        return _unhex(text)
    if fmt == "base64":
        return _from_base64(text)
    if fmt == "utf-8":
        return _utf8(text)
    raise BadArguments("The format option only supports hex, base64, and utf-8")


def _binary_specialized(types):
    if len(types) == 2:
        return _formatted_binary
    return variant_to_binary if types[0].name == "Variant" else casting.to_binary


def _to_binary_types(types):
    if len(types) == 2:  # to_binary(text, format): text only
        return _strings_only("to_binary", T.BINARY)(types)
    return _to_binary_type(types)


register("to_binary", casting.to_binary, _to_binary_types, 1, 2, specialize=_binary_specialized)
register("inet_aton", _inet_aton, fixed(UINT32), 1, aliases=("ipv4_string_to_num",))
register("inet_ntoa", _inet_ntoa, fixed(T.STRING), 1, aliases=("ipv4_num_to_string",))


def _try(fn):
    def attempt(*args):
        try:
            return fn(*args)
        except BadArguments:
            return None

    return attempt


def _nullable(t):
    return lambda types: t.as_nullable(True)


# try_ forms: NULL instead of an error (non-strict: they may answer NULL for any input)
for _name, _fn, _t in (("try_from_hex", _unhex, T.BINARY),
                       ("try_from_base64", _from_base64, T.BINARY), ("try_to_binary", casting.to_binary, T.BINARY), ("try_inet_aton", _inet_aton, UINT32),
                       ("try_ipv4_string_to_num", _inet_aton, UINT32), ("try_inet_ntoa", _inet_ntoa, T.STRING),
                       ("try_ipv4_num_to_string", _inet_ntoa, T.STRING),
                       ("try_hex_decode_string", _decoded_text(_unhex), T.STRING),
                       ("try_base64_decode_string", _decoded_text(_from_base64), T.STRING)):
    register(_name, _try(_fn), _nullable(_t), 1)
# try_to_binary of a VARIANT: as to_binary reads it (a BINARY's bytes, a string's UTF-8), NULL else
register("try_to_binary", _try(casting.to_binary), _nullable(T.BINARY), 1, 2,
         specialize=lambda types: _try(_binary_specialized(types)))

# microseconds a call costs (pure-Python hashes, measured over strings of ~45 bytes): a step over
# them takes fewer rows (engine.core.steps.rows_for_cost)
declare_row_costs({
    "siphash64": 10, "city64withseed": 5,
})

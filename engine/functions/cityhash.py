"""CityHash64WithSeed as of CityHash 1.0.2 (the version ClickHouse and Databend's
city64withseed use; later CityHash releases hash differently)."""

from __future__ import annotations

_MASK = 0xFFFF_FFFF_FFFF_FFFF
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F
_K3 = 0xC949D7C7509E6557
_KMUL = 0x9DDFEA08EB382D69


def _fetch64(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 8], "little")


def _fetch32(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 4], "little")


def _rotate(v: int, shift: int) -> int:
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & _MASK


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _hash_len16(u: int, v: int) -> int:
    a = ((u ^ v) * _KMUL) & _MASK
    a ^= a >> 47
    b = ((v ^ a) * _KMUL) & _MASK
    b ^= b >> 47
    return (b * _KMUL) & _MASK


def _hash_len0to16(s: bytes, n: int) -> int:
    if n > 8:
        a = _fetch64(s, 0)
        b = _fetch64(s, n - 8)
        return _hash_len16(a, _rotate((b + n) & _MASK, n)) ^ b
    if n >= 4:
        a = _fetch32(s, 0)
        return _hash_len16((n + (a << 3)) & _MASK, _fetch32(s, n - 4))
    if n > 0:
        y = (s[0] + (s[n >> 1] << 8)) & 0xFFFF_FFFF
        z = (n + (s[n - 1] << 2)) & 0xFFFF_FFFF
        return (_shift_mix(((y * _K2) ^ (z * _K3)) & _MASK) * _K2) & _MASK
    return _K2


def _hash_len17to32(s: bytes, n: int) -> int:
    a = (_fetch64(s, 0) * _K1) & _MASK
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * _K2) & _MASK
    d = (_fetch64(s, n - 16) * _K0) & _MASK
    return _hash_len16((_rotate((a - b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK,
                       (a + _rotate(b ^ _K3, 20) - c + n) & _MASK)


def _weak_hash_len32_with_seeds(s: bytes, i: int, a: int, b: int) -> tuple[int, int]:
    w, x, y, z = _fetch64(s, i), _fetch64(s, i + 8), _fetch64(s, i + 16), _fetch64(s, i + 24)
    a = (a + w) & _MASK
    b = _rotate((b + a + z) & _MASK, 21)
    c = a
    a = (a + x + y) & _MASK
    b = (b + _rotate(a, 44)) & _MASK
    return (a + z) & _MASK, (b + c) & _MASK


def _hash_len33to64(s: bytes, n: int) -> int:
    z = _fetch64(s, 24)
    a = (_fetch64(s, 0) + (n + _fetch64(s, n - 16)) * _K0) & _MASK
    b = _rotate((a + z) & _MASK, 52)
    c = _rotate(a, 37)
    a = (a + _fetch64(s, 8)) & _MASK
    c = (c + _rotate(a, 7)) & _MASK
    a = (a + _fetch64(s, 16)) & _MASK
    vf = (a + z) & _MASK
    vs = (b + _rotate(a, 31) + c) & _MASK
    a = (_fetch64(s, 16) + _fetch64(s, n - 32)) & _MASK
    z = _fetch64(s, n - 8)
    b = _rotate((a + z) & _MASK, 52)
    c = _rotate(a, 37)
    a = (a + _fetch64(s, n - 24)) & _MASK
    c = (c + _rotate(a, 7)) & _MASK
    a = (a + _fetch64(s, n - 16)) & _MASK
    wf = (a + z) & _MASK
    ws = (b + _rotate(a, 31) + c) & _MASK
    r = _shift_mix(((vf + ws) * _K2 + (wf + vs) * _K0) & _MASK)
    return (_shift_mix((r * _K0 + vs) & _MASK) * _K2) & _MASK


def city_hash64(s: bytes) -> int:
    n = len(s)
    if n <= 16:
        return _hash_len0to16(s, n)
    if n <= 32:
        return _hash_len17to32(s, n)
    if n <= 64:
        return _hash_len33to64(s, n)
    x = _fetch64(s, 0)
    y = _fetch64(s, n - 16) ^ _K1
    z = _fetch64(s, n - 56) ^ _K0
    v = _weak_hash_len32_with_seeds(s, n - 64, n, y)
    w = _weak_hash_len32_with_seeds(s, n - 32, (n * _K1) & _MASK, _K0)
    z = (z + _shift_mix(v[1]) * _K1) & _MASK
    x = (_rotate((z + x) & _MASK, 39) * _K1) & _MASK
    y = (_rotate(y, 33) * _K1) & _MASK
    remaining = (n - 1) & ~63
    i = 0
    while True:
        x = (_rotate((x + y + v[0] + _fetch64(s, i + 16)) & _MASK, 37) * _K1) & _MASK
        y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & _MASK, 42) * _K1) & _MASK
        x ^= w[1]
        y ^= v[0]
        z = _rotate(z ^ w[0], 33)
        v = _weak_hash_len32_with_seeds(s, i, (v[1] * _K1) & _MASK, (x + w[0]) & _MASK)
        w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _MASK, y)
        z, x = x, z
        i += 64
        remaining -= 64
        if remaining == 0:
            break
    return _hash_len16((_hash_len16(v[0], w[0]) + _shift_mix(y) * _K1 + z) & _MASK,
                       (_hash_len16(v[1], w[1]) + x) & _MASK)


def city_hash64_with_seed(s: bytes, seed: int) -> int:
    return _hash_len16((city_hash64(s) - _K2) & _MASK, seed & _MASK)

"""The t-digest quantiles: quantile_tdigest(level...)(x), quantile_tdigest_weighted(level...)(x, w)
and median_tdigest(x), computed with Databend's own t-digest (a port of its
aggregate_quantile_tdigest.rs: compression 100, compressed every 2,047 centroids, the same
interpolation), so the approximations are Databend's. Collected aggregates: `final` feeds a
group's gathered values to a digest once."""

from __future__ import annotations

import math
import struct

from engine.functions.collected import COLLECTED, Collected
from engine.types import nested as N
from engine.types import sqltype as T

_EPSILON = 100.0
_MAX_CENTROIDS = 2048


class TDigest:
    """Centroids as [mean, weight] lists, merged in batches as Databend does."""

    __slots__ = ("centroids", "max", "min", "total", "unmerged", "unmerged_total")

    def __init__(self):
        self.total = 0.0
        self.centroids: list = []
        self.unmerged_total = 0.0
        self.unmerged: list = []
        self.min = math.inf
        self.max = -math.inf

    def add(self, value: float, weight: float = 1.0):
        if len(self.unmerged) + len(self.centroids) >= _MAX_CENTROIDS - 1:
            self.compress()
        self.unmerged.append([value, weight])
        self.unmerged_total += weight

    def compress(self):
        if self.unmerged_total > 0.0:
            incoming = self.unmerged + self.centroids
            self.unmerged = []
            self._merge(incoming)
            self.unmerged_total = 0.0

    def _merge(self, incoming):
        incoming.sort(key=lambda c: c[0])
        self.total += self.unmerged_total
        total = self.total
        normalizer = _EPSILON / (math.pi * total)
        current = list(incoming[0])
        first_mean = current[0]
        centroids = []
        so_far = 0.0
        for mean, weight in incoming[1:]:
            proposed = current[1] + weight
            z = normalizer * proposed
            q0 = so_far / total
            q2 = (so_far + proposed) / total
            if z * z <= q0 * (1.0 - q0) and z * z <= q2 * (1.0 - q2):
                current[1] = proposed
                current[0] += (mean - current[0]) * weight / current[1]
            else:
                so_far += current[1]
                centroids.append(current)
                current = [mean, weight]
        if total > 0.0:
            self.min = min(self.min, first_mean)
            self.max = max(self.max, current[0])
        centroids.append(current)
        self.centroids = centroids

    def quantile(self, level: float) -> float:  # noqa: PLR0911 (Databend's cases, in its order)
        self.compress()
        cs = self.centroids
        if not cs:
            return 0.0
        if len(cs) == 1:
            return cs[0][0]
        (first_mean, first_weight), (last_mean, last_weight) = cs[0], cs[-1]
        total = self.total
        index = level * total
        if index < 1.0:
            return self.min
        if first_weight > 1.0 and index < first_weight / 2.0:
            return self.min + (index - 1.0) / (first_weight / 2.0 - 1.0) * (first_mean - self.min)
        if index > total - 1.0:
            return self.max
        if last_weight > 1.0 and total - index <= last_weight / 2.0:
            if last_weight / 2.0 <= 1.0:
                return self.max
            return self.max - (total - index - 1.0) / (last_weight / 2.0 - 1.0) * (self.max - last_mean)
        so_far = first_weight / 2.0
        for (left_mean, left_weight), (right_mean, right_weight) in zip(cs, cs[1:], strict=False):
            dw = (left_weight + right_weight) / 2.0
            if so_far + dw > index:
                left_unit = right_unit = 0.0
                if left_weight == 1.0:
                    if index - so_far < 0.5:
                        return left_mean
                    left_unit = 0.5
                if right_weight == 1.0:
                    if so_far + dw - index <= 0.5:
                        return right_mean
                    right_unit = 0.5
                z1 = index - so_far - left_unit
                z2 = so_far + dw - index - right_unit
                return _weighted_average(left_mean, z2, right_mean, z1)
            so_far += dw
        z1 = index - total - last_weight / 2.0
        z2 = last_weight / 2.0 - z1
        return _weighted_average(last_mean, z1, self.max, z2)


def _weighted_average(m1, w1, m2, w2):
    low, high = min(m1, m2), max(m1, m2)
    return max(low, min(high, (m1 * w1 + m2 * w2) / (w1 + w2)))


def _answer(digest, levels, nan):
    if nan:
        return math.nan if len(levels) == 1 else N.ArrayValue(math.nan for _ in levels)
    if len(levels) == 1:
        return digest.quantile(levels[0])
    return N.ArrayValue(digest.quantile(level) for level in levels)


def _quantiles(weighted):
    def final(values, params):
        levels = params[:-1] or [0.5]  # median_tdigest: the 0.5 quantile
        digest, nan, seen = TDigest(), False, False
        for row in values:
            v, w = row if weighted else (row, 1)
            if v is None or w is None:
                continue
            seen = True
            if w == 0:
                continue
            v = float(v)
            if v != v:
                nan = True
            elif not nan:
                digest.add(v, float(w))
        return _answer(digest, levels, nan) if seen else None

    return final


def _float(types):
    return T.FLOAT64.as_nullable(True)


_ENTRIES = [
    Collected("quantile_tdigest", (1, 1), _float, _quantiles(False), params=1, param_range=(1, 64)),
    Collected("quantile_tdigest_weighted", (2, 2), _float, _quantiles(True), params=1, param_range=(1, 64)),
    Collected("median_tdigest", (1, 1), _float, _quantiles(False)),
]
COLLECTED.update((c.name, c) for c in _ENTRIES)


_HEADER = struct.Struct("<3d")
_CENTROID = struct.Struct("<2d")


def digest_bytes(digest: TDigest) -> bytes:
    """A digest's state (compressed) as bytes: what an aggregate state holds."""
    digest.compress()
    return _HEADER.pack(digest.total, digest.min, digest.max) + b"".join(
        _CENTROID.pack(mean, weight) for mean, weight in digest.centroids)


def digest_from_bytes(data: bytes) -> TDigest:
    digest = TDigest()
    digest.total, digest.min, digest.max = _HEADER.unpack_from(data)
    digest.centroids = [list(c) for c in _CENTROID.iter_unpack(data[_HEADER.size:])]
    return digest


def merge_digest(into: TDigest, other: TDigest) -> None:
    """Databend's merge of two digests: the other's centroids merged in as new ones."""
    if other.total + other.unmerged_total == 0:
        return
    other.compress()
    into.unmerged.extend(list(c) for c in other.centroids)
    into.unmerged_total += sum(w for _, w in other.centroids)
    into.compress()


def digest_of(values) -> TDigest:
    """A digest of the non-NULL values (floats)."""
    digest = TDigest()
    for v in values:
        if v is not None:
            digest.add(float(v))
    return digest

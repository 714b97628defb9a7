"""Prometheus metrics of the HTTP service (GET /metrics), on one registry per app.

The prometheus-client library writes the exposition format; a registry per QueryApp (never
the library's global one) keeps tests and several apps in one process apart. Counters and the
histogram move once per finished query; gauges are read when scraped, so serving rows costs
nothing more.
"""

from __future__ import annotations

from bisect import bisect_left

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.utils import floatToGoString

from web.build import build_labels
from web.wire import RUNNING

CONTENT_TYPE = CONTENT_TYPE_LATEST.encode()
# seconds; Prometheus' default buckets stop at 10 s, and queries here may run for minutes
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
                   300.0, float("inf"))


def _memory_used(db) -> int:
    """Bytes the engine's running queries hold, when the engine accounts memory (else 0)."""
    used = getattr(getattr(db, "memory", None), "used", 0)
    return used if isinstance(used, int) else 0


class Metrics:
    """The service's metrics: queries by final state, refused queries, running, queued and
    paused queries, queue waits, latency, rows and bytes produced, engine memory, sessions and slow engine steps;
    the process (process_*), the Python (python_info) and the build (queryhttp_build_info)."""

    def __init__(self, app):
        self.registry = registry = CollectorRegistry(auto_describe=True)
        # finished queries: plain counters moved once per query on the reactor, turned into
        # series when scraped (a prometheus-client Counter takes a lock per inc: 4 of them per
        # query were a tenth of a SELECT 1 round trip's own work)
        self.finished = _FinishedQueries()
        registry.register(self.finished)
        self.refused = Counter("queryhttp_refused_queries", "Queries refused before they "
                               "started (too many running or held queries, or sessions), by "
                               "error code", ["code"], registry=registry)
        self.queue_wait = Histogram("queryhttp_queue_wait_seconds", "Time queries waited "
                                    "in the queue for a running slot, of those admitted",
                                    registry=registry, buckets=LATENCY_BUCKETS)
        self.slow_steps = Counter("queryhttp_slow_steps", "Engine steps that held the reactor "
                                  "longer than the slow-step threshold", registry=registry)
        queries = app.queries
        Gauge("queryhttp_running_queries", "Queries still producing rows",
              registry=registry).set_function(lambda: queries.running)
        Gauge("queryhttp_queued_queries", "Queries waiting in the queue for a running slot "
              "(over max_running_queries or max_running_queries_per_user)",
              registry=registry).set_function(lambda: queries.queued)
        Gauge("queryhttp_paused_queries", "Running queries paused until their client reads a "
              "page (their page buffer is full)",
              registry=registry).set_function(lambda: _paused(queries))
        Gauge("queryhttp_held_queries", "Queries the server holds (running, or keeping pages "
              "for their client)", registry=registry).set_function(lambda: len(queries))
        sessions = app.sessions
        Gauge("queryhttp_sessions", "Server-side sessions kept for clients",
              registry=registry).set_function(lambda: len(sessions))
        db = app.db
        Gauge("queryhttp_memory_bytes", "Bytes running queries hold, as the engine accounts "
              "them (0 when it does not)", registry=registry).set_function(
            lambda: _memory_used(db))

        if getattr(db, "durability", None) is not None:
            _durability_gauges(db, registry)
        # the library's standard series, read when scraped: process_* (CPU seconds, resident
        # and virtual memory, open and max file descriptors, start time; from /proc, so Linux
        # only) and python_info
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        Info("queryhttp_build", "queryhttp's version, the Databend version it answers as, and "
             "its Twisted and Python", registry=registry).info(build_labels())
        if getattr(db, "plan_cache", None) is not None:
            registry.register(_PlanCacheCollector(db.plan_cache))

    def query_ended(self, state: str, code: int, seconds: float, rows: int, nbytes: int) -> None:
        self.finished.add(state, code, seconds, rows, nbytes)

    def render(self) -> bytes:
        return generate_latest(self.registry)


def _durability_gauges(db, registry) -> None:
    """The data directory's log and checkpoints (with --data_dir only)."""
    def reading(read):
        def value():
            durability = db.durability
            return 0 if durability is None else read(durability)
        return value

    for name, help_text, read in (
        ("queryhttp_log_records", "Log records written since start", lambda d: d.writer.records_written),
        ("queryhttp_log_bytes", "Log bytes written since start", lambda d: d.writer.bytes_written),
        ("queryhttp_log_fsyncs", "fsyncs of the log since start (records / fsyncs: group commit)",
         lambda d: d.writer.fsyncs),
        ("queryhttp_log_segment_bytes", "Bytes in the log since the last checkpoint began",
         lambda d: d.writer.segment_bytes),
        ("queryhttp_checkpoints", "Checkpoints written since start", lambda d: d.checkpoints),
        ("queryhttp_last_checkpoint_seconds", "How long the last checkpoint took",
         lambda d: d.last_checkpoint_seconds),
        ("queryhttp_log_failed", "1 once the log failed (its write, fsync or thread; the server log "
         "says why): writes are refused until a restart, reads go on",
         lambda d: 1 if d.writer.error is not None or not d.writer.alive() else 0),
    ):
        Gauge(name, help_text, registry=registry).set_function(reading(read))


class _FinishedQueries:
    """Queries finished (by state and error code), their durations (a histogram) and the rows
    and bytes they produced: counted in plain attributes, exposed as series when scraped."""

    def __init__(self):
        self.by_outcome: dict = {}  # (state, code as text) -> count
        self.buckets = [0] * len(LATENCY_BUCKETS)  # per bucket, not cumulative
        self.seconds = 0.0
        self.rows = 0
        self.bytes = 0

    def add(self, state: str, code: int, seconds: float, rows: int, nbytes: int) -> None:
        key = (state, code)
        self.by_outcome[key] = self.by_outcome.get(key, 0) + 1
        seconds = max(seconds, 0.0)
        self.buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1
        self.seconds += seconds
        self.rows += rows
        self.bytes += nbytes

    def describe(self):
        return list(self.collect())

    def collect(self):
        queries = CounterMetricFamily("queryhttp_queries", "Queries finished, by final state "
                                      "(Succeeded or Failed) and error code (0: none)",
                                      labels=["state", "code"])
        for (state, code), count in sorted(self.by_outcome.items()):
            queries.add_metric([state, str(code)], count)
        yield queries
        cumulative, running = [], 0
        for bound, count in zip(LATENCY_BUCKETS, self.buckets, strict=True):
            running += count
            cumulative.append((floatToGoString(bound), running))
        yield HistogramMetricFamily("queryhttp_query_duration_seconds",
                                    "Time from a query's start to its end",
                                    buckets=cumulative, sum_value=self.seconds)
        yield CounterMetricFamily("queryhttp_result_rows", "Result rows produced for clients",
                                  value=self.rows)
        yield CounterMetricFamily("queryhttp_result_bytes", "Result bytes produced for clients "
                                  "(the engine's estimate)", value=self.bytes)


class _PlanCacheCollector:
    """The engine's plan cache (engine.Database.plan_cache), read when scraped."""

    def __init__(self, cache):
        self.cache = cache

    def describe(self):
        return list(self._families(0, 0, 0))

    def collect(self):
        cache = self.cache
        return list(self._families(cache.hits, cache.misses, len(cache)))

    @staticmethod
    def _families(hits, misses, entries):
        yield CounterMetricFamily("queryhttp_plan_cache_hits", "Queries run from a kept plan",
                                  value=hits)
        yield CounterMetricFamily("queryhttp_plan_cache_misses", "Queries planned (none kept "
                                  "for them, or the kept one was stale)", value=misses)
        yield GaugeMetricFamily("queryhttp_plan_cache_entries", "Plans kept (at most the "
                                "plan_cache_entries limit)", value=entries)


def _paused(queries) -> int:
    """Running queries whose producer waits for the client (read when scraped)."""
    return sum(1 for q in queries if q.state == RUNNING and q.buffer.full)

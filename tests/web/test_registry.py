"""The query registry's eviction: oldest drained queries go first, in amortised passes."""

from twisted.internet.task import Clock

from web.query_registry import QueryRegistry
from web.wire import RUNNING, SUCCEEDED


class FakeBuffer:
    waiting = 0
    full = False


class FakeQuery:
    checks = 0

    def __init__(self, query_id, drained):
        self.id = query_id
        self.state = SUCCEEDED
        self._drained = drained
        self.finalized = False
        self.buffer = FakeBuffer()
        self.last_access = 0.0
        self.result_timeout = 60

    @property
    def drained(self):
        FakeQuery.checks += 1
        return self._drained

    def finalize(self):
        self.finalized = True

    def expire(self):
        self.finalized = True


def test_oldest_drained_queries_are_evicted_down_to_90_percent():
    registry = QueryRegistry(Clock(), max_running=10, max_retained=10)
    queries = [FakeQuery(f"q{i}", drained=i != 1) for i in range(11)]
    for query in queries:
        registry.add(query)
    assert len(registry) == 9
    assert [q.id for q in queries if q.finalized] == ["q0", "q2"]
    assert registry.find("q1") is queries[1]  # unread rows: kept


def test_unread_queries_are_not_rescanned_on_every_add():
    registry = QueryRegistry(Clock(), max_running=10, max_retained=100)
    for i in range(101):
        registry.add(FakeQuery(f"unread{i}", drained=False))
    FakeQuery.checks = 0
    for i in range(100):
        registry.add(FakeQuery(f"more{i}", drained=False))
    # one pass per 10 adds (a tenth of the limit), not one per add (about 15,000 checks)
    assert FakeQuery.checks < 2000


def test_a_sweep_restores_the_limit():
    clock = Clock()
    registry = QueryRegistry(clock, max_running=10, max_retained=10)
    for i in range(11):
        registry.add(FakeQuery(f"unread{i}", drained=False))
    clock.advance(61)
    registry.sweep()
    assert len(registry) == 0
    for i in range(11):
        registry.add(FakeQuery(f"done{i}", drained=True))
    assert len(registry) == 10 - 1


def test_running_queries_are_counted():
    registry = QueryRegistry(Clock(), max_running=10, max_retained=10)
    query = FakeQuery("r", drained=False)
    query.state = RUNNING
    query.user = "root"
    registry.add(query)
    assert registry.running == 0  # held, not yet started
    started = []
    assert registry.admit_or_queue(query, lambda: started.append(query))
    assert registry.running == 1 and started == [query]

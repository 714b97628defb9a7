"""The window operator's partitions: the rows of each partition sorted by the window's ORDER BY,
partitions in the order of their keys, with None between the steps that produce them.

The planner puts a Sort by (partition keys, order keys) under each Window. When the partition
keys are hashable scalars (or there are none) the window takes that sort over: it distributes
the rows into a dict of partitions (or one list), one input batch per step, orders the
partitions by their keys and sorts each by the ORDER BY alone. Both sorts are stable, so the
rows come out as the full sort orders them, for a fraction of its work (sorting n rows in k
partitions costs about n log(n/k) per pass, not n log n, and the partition key pass runs over
k rows, not n), and the rows are never cut into batches and gathered again. Otherwise the
sorted child's rows are cut into partitions by itertools.groupby as its batches come.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from operator import itemgetter

from engine.codegen.sort_keys import sort_passes
from engine.core.memory import HASH_ENTRY_BYTES, SORT_SLOT_BYTES, batch_bytes
from engine.exec.sort import sort_in_steps
from engine.ir import plan as P
from engine.types.keys import columns_key

_NO_PARTITION = object()
# one partition of the dict: its entry and its list's header (the rows' slots are charged apart)
PARTITION_BYTES = HASH_ENTRY_BYTES + 56

# partition key types whose values are hashable, and equal exactly when the sort finds them equal
# (a float key's NaNs are one partition, as in Databend: engine.types.keys.columns_key)
_HASHED_KEY_TYPES = frozenset({"Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
                               "Float32", "Float64", "Decimal", "String", "Boolean", "Date", "Timestamp"})


def partition_source(plan, rt):
    """p -> an iterator of the window's partitions (lists of rows), None after each step."""
    partition_key = columns_key(plan.partition, plan.child.types)
    if gathers(plan):
        return _gathered(plan.child, plan, partition_key, rt)
    return _sorted(rt.build(plan.child), partition_key, rt.memory)


def gathers(plan) -> bool:
    """Whether the window takes over the Sort under it: the sort by its partition keys (ascending,
    NULLs first) and order keys, over partition keys of hashable scalar types (and no BITMAP
    order key: the sort refuses those, naming every key)."""
    child = plan.child
    return isinstance(child, P.Sort) \
        and child.keys == [(pos, False, True) for pos in plan.partition] + list(plan.order) \
        and all(child.types[pos].name in _HASHED_KEY_TYPES for pos in plan.partition) \
        and all(child.types[pos].name != "Bitmap" for pos, _, _ in plan.order)


def _sorted(child_run, partition_key, memory):
    """Partitions of a child sorted by (partition, order) keys, cut as its batches come; the rows
    of the partition being gathered are charged to the query's memory until it is out."""

    def partitions(p):
        part: list = []
        held = 0  # memory charged for the rows of `part`
        current = _NO_PARTITION
        for batch in child_run(p):
            if not batch:
                yield None
                continue
            if partition_key is None:
                part.extend(batch)
            else:
                for key, group in groupby(batch, partition_key):
                    if part and key != current:
                        yield part
                        memory.release(held)
                        held = 0
                        part = []
                    current = key
                    part.extend(group)
            nbytes = batch_bytes(batch)
            memory.charge(nbytes)
            held += nbytes
            yield None
        if part:
            yield part
        memory.release(held)

    return partitions


def _gathered(sort, plan, partition_key, rt):
    """Partitions gathered from the unsorted input of `sort` (in a dict by key, or one list
    without PARTITION BY), then ordered by key and each sorted by the ORDER BY."""
    child_run = rt.build(sort.child)
    npart = len(plan.partition)
    key_passes = sort_passes(sort.keys[:npart], sort.child, rt.nonnull)
    # the partitions are ordered by their first rows' keys
    group_passes = [(lambda g, key=key: key(g[0]), reverse) for key, reverse in key_passes]
    order_passes = sort_passes(sort.keys[npart:], sort.child, rt.nonnull) if plan.order else None
    memory = rt.memory
    step = rt.step_rows
    run_rows = max(1, rt.ctx.limits.sort_run_rows)
    # the position of the one partition column whose values are its keys (not a float)
    single = plan.partition[0] if type(partition_key) is itemgetter and npart == 1 else None

    def partitions(p):
        parts = defaultdict(list)
        whole: list = []  # the rows, without PARTITION BY
        held = 0  # memory charged for the rows and partitions gathered
        for batch in child_run(p):
            if batch:
                before = len(parts)
                if partition_key is None:
                    whole += batch
                elif single is not None:  # one column, its values the keys: no call per row
                    for row in batch:
                        parts[row[single]].append(row)
                else:
                    for key, row in zip(map(partition_key, batch), batch, strict=True):
                        parts[key].append(row)
                nbytes = batch_bytes(batch, SORT_SLOT_BYTES) + (len(parts) - before) * PARTITION_BYTES
                memory.charge(nbytes)
                held += nbytes
            yield None
        if partition_key is None:
            groups = [whole] if whole else []
        else:
            groups = list(parts.values())
            groups = yield from sort_in_steps(groups, group_passes, run_rows, step)
        parts = whole = None
        sorted_rows = 0  # rows sorted since the last step
        for i, part in enumerate(groups):
            groups[i] = None  # let an emitted partition go
            if order_passes is not None:
                if sorted_rows and sorted_rows + len(part) > step:
                    yield None
                    sorted_rows = 0
                part = yield from sort_in_steps(part, order_passes, run_rows, step)
                sorted_rows += len(part)
            yield part
        memory.release(held)

    return partitions

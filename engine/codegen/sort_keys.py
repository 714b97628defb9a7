"""Sort keys: the key functions a sort applies as successive stable passes, built once per
sort from the ORDER BY keys (NULL placement, DESC, NaN after every float as Databend orders it,
VARIANT in Databend's order), and the sort of a list by them. Used by ORDER BY and window
partitions (engine.exec) and by WITHIN GROUP / ordered aggregates (engine.bind)."""

from __future__ import annotations

from operator import itemgetter

from engine.codegen.compile import Codegen
from engine.core.errors import Unimplemented
from engine.ir import plan as P
from engine.ir.expr import Col
from engine.types.keys import NAN_LAST, float_column_key, rows_key
from engine.types.type_debug import rust_debug
from engine.types.variant import variant_sort_key


def _refuse_bitmap_keys(keys, child) -> None:
    """Databend 1.2.453 sorts no BITMAP (ORDER BY, a window's ORDER BY / PARTITION BY): 1002,
    naming every key of the sort as its Rust debug form does."""
    if any(child.types[pos].name == "Bitmap" for pos, _, _ in keys):
        fields = ", ".join(f"SortField {{ data_type: {rust_debug(child.types[pos])}, asc: {str(not desc).lower()}, "
                           f"nulls_first: {str(bool(nulls_first)).lower()} }}" for pos, desc, nulls_first in keys)
        raise Unimplemented(f"Row format is not yet support for [{fields}]")


def sort_passes(keys, child, nonnull):
    """[(key function, reverse)] sorting rows of `child` by `keys` ((position, desc, nulls_first))
    as ORDER BY does: to apply as successive stable sorts (last key first); refuses BITMAP keys
    as a sort does."""
    _refuse_bitmap_keys(keys, child)
    groups = []
    for pos, desc, nulls_first in keys:
        nullable = child.types[pos].can_be_null and child.layout[pos] not in nonnull
        if nulls_first is None:
            nulls_first = False
        groups.append((pos, desc, nulls_first, nullable))
    # merge adjacent nullable keys with the same direction into one tuple key; a NULL-free key
    # is a pass of its own (an itemgetter: a stable sort on plain values is several times faster
    # than one on tuples of them)
    passes = []
    nan_free = nan_free_columns(child)
    # positions of float keys whose values come from a table column holding no NaN: plain keys
    plain_floats = {pos for pos, _, _, _ in groups if child.layout[pos] in nan_free} if nan_free else set()
    i = 0
    while i < len(groups):
        j = i
        while groups[i][3] and j + 1 < len(groups) and groups[j + 1][1] == groups[i][1] and groups[j + 1][3]:
            j += 1
        if child.types[groups[i][0]].name == "Variant":  # in Databend's order of VARIANT values
            j = i
            passes.append((variant_sort_key(*groups[i]), groups[i][1]))
        else:
            passes.append((_key_function(groups[i:j + 1], child.types, plain_floats), groups[i][1]))
        i = j + 1
    return passes


def nan_free_columns(plan) -> set:
    """Ids of the columns of `plan`'s output whose values are those of a table column that holds
    no NaN (Table.nan_free) in the snapshot the plan scans: found through the operators that pass
    a column's values on unchanged (filters, plain projections, joins, limits, sorts, windows).
    A table whose version of its rows was replaced since the plan was made is not trusted."""
    if isinstance(plan, P.Scan):
        table = plan.table
        nan_free = getattr(table, "nan_free", None)
        if nan_free is None or plan.data is not table.data:
            return set()
        return {cid for cid, free in zip(plan.layout, nan_free, strict=False) if free}
    if isinstance(plan, P.Project):
        below = nan_free_columns(plan.child)
        return {cid for cid, e in zip(plan.layout, plan.exprs, strict=False)
                if isinstance(e, Col) and e.column in below}
    if isinstance(plan, P.Filter | P.Join | P.Limit | P.Sort | P.Window):
        free = set().union(*map(nan_free_columns, plan.children()))
        return free.intersection(plan.layout)
    return set()


def _key_function(group, types, plain_floats=frozenset()):
    # float columns: a NaN sorts after every float (nested values keep Python's tuple order),
    # but for a column known to hold none (`plain_floats`), whose values sort as they are
    floats = {pos for pos, _, _, _ in group if types[pos].is_float and pos not in plain_floats}
    if not any(nullable for _, _, _, nullable in group):
        if floats:  # one NULL-free float column (such a pass has one key)
            return float_column_key(group[0][0])
        return itemgetter(*[pos for pos, _, _, _ in group])  # one value, or a tuple of several
    cg = Codegen()
    parts = []
    for pos, desc, nulls_first, nullable in group:
        if nullable:
            # sorted ascending by (flag, value) then maybe reversed: the flag puts NULLs where asked
            # (two NULLs have equal flags and equal values, so None is never compared with <)
            null_flag_high = nulls_first == desc
            parts.append(f"(r[{pos}] is None)" if null_flag_high else f"(r[{pos}] is not None)")
        if pos in floats:  # NaN after every float, as Databend orders it (None passes)
            parts.append(f"(r[{pos}] if r[{pos}] == r[{pos}] else {cg.bind(NAN_LAST)})")
        else:
            parts.append(f"r[{pos}]")
    return cg.build(["r"], [f"return ({', '.join(parts)},)"])


def sort_rows(rows, passes):
    """The list `rows` sorted in place by `passes` (see sort_passes), and returned."""
    for key, reverse in reversed(passes):
        rows.sort(key=rows_key(key, rows), reverse=reverse)
    return rows

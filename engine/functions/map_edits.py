"""Functions that make a changed copy of a MAP: map_delete(m, k1, k2...) and map_pick(m, k1,
k2...) (the keys may also be given as one array), and map_insert(m, key, value[, update])."""

from __future__ import annotations

from engine.core.errors import BadArguments, SemanticError
from engine.functions.registry import register
from engine.types import nested as N
from engine.types import sqltype as T


def _map_type(name, t: T.SqlType) -> T.SqlType:
    if t.name == "Null":
        return T.SqlType("Map", args=(N.nothing(),))
    if t.name != "Map":
        raise SemanticError(f"no overload satisfies `{name}({t.display()}, ..)`")
    return t


def _keys(args) -> set:
    """The keys named by map_delete's / map_pick's arguments: one array of them, or each one."""
    if len(args) == 1 and isinstance(args[0], N.ArrayValue):
        return set(args[0])
    return set(args)


def _delete(m, *keys):
    if m is None:
        return None
    drop = _keys(keys)
    return N.MapValue((k, v) for k, v in m if k not in drop)


def _pick(m, *keys):
    if m is None:
        return None
    keep = _keys(keys)
    return N.MapValue((k, v) for k, v in m if k in keep)


register("map_delete", _delete, lambda ts: _map_type("map_delete", ts[0]), 2, 1 << 16, strict=False)
register("map_pick", _pick, lambda ts: _map_type("map_pick", ts[0]), 2, 1 << 16, strict=False)


def _insert_type(types):
    """The map's type widened to hold the new key and value ({} takes theirs)."""
    t = _map_type("map_insert", types[0])
    key, value = N.map_parts(t)
    if key.name == "Nothing":
        return N.map_type(types[1].as_nullable(False), types[2])
    return N.map_type(T.common_type([key, types[1]]).as_nullable(False), T.common_type([value, types[2]]))


def _insert(m, key, value, update=False):
    """map_insert: a NULL map is an empty one; an existing key is refused unless `update`."""
    pairs = [] if m is None else list(m)
    if any(k == key for k, _ in pairs):
        if not update:
            raise BadArguments(f"map_insert: duplicate key {key!r}; pass update = true to replace its value")
        return N.MapValue((k, value if k == key else v) for k, v in pairs)
    return N.MapValue([*pairs, (key, value)])


register("map_insert", _insert, _insert_type, 3, 4, strict=False)

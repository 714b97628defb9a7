"""The functions behind Databend's JSON operators on VARIANT values (as current Databend has them):
`?` json_exists_key, `?|` json_exists_any_keys, `?&` json_exists_all_keys, `@>`
json_contains_in_left, `<@` json_contains_in_right, `#>` get_by_keypath, `#>>`
get_by_keypath_string, `#-` delete_by_keypath, and `-` / `||` between VARIANTs (delete_by_name,
delete_by_index, the JSON concatenation). Containment follows PostgreSQL's jsonb @>, which
Databend copies: objects contain the pairs of the other (recursively), arrays every element of
the other, an array also a scalar it holds."""

from __future__ import annotations

import functools

from engine.core.errors import BadArguments
from engine.functions.json import VARIANT, VARIANT_OR_NULL, register
from engine.functions.registry import fixed
from engine.types import cast as _casting
from engine.types import sqltype as T
from engine.types import variant as V

BOOLEAN = T.BOOLEAN
STRING_OR_NULL = T.STRING.as_nullable(True)


def _key_in(value, key) -> bool:
    """An object's top-level key, or a string element of an array."""
    if isinstance(value, dict):
        return key in value
    if isinstance(value, list):
        return any(isinstance(x, str) and x == key for x in value)
    return False


def exists_key(v, key):
    return _key_in(V.load(v), key)


def exists_any_keys(v, keys):
    value = V.load(v)
    return any(k is not None and _key_in(value, k) for k in keys)


def exists_all_keys(v, keys):
    value = V.load(v)
    return all(k is not None and _key_in(value, k) for k in keys)


def _same(a, b) -> bool:
    """JSON scalar equality (true is not 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def contains(a, b, top=True) -> bool:
    """Whether JSON value a contains b (jsonb @>)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and all(k in a and contains(a[k], x, False) for k, x in b.items())
    if isinstance(a, list):
        if isinstance(b, list):
            return all(any(_element_contains(x, y) for x in a) for y in b)
        # an array contains a scalar it holds, at the top only
        return top and not isinstance(b, dict) and any(
            not isinstance(x, (list, dict)) and _same(x, b) for x in a)
    if isinstance(b, (list, dict)):
        return False
    return _same(a, b)


def _element_contains(x, y) -> bool:
    if isinstance(y, (list, dict)):
        return type(x) is type(y) and contains(x, y, False)
    return not isinstance(x, (list, dict)) and _same(x, y)


def contains_in_left(a, b):
    return contains(V.load(a), V.load(b))


def contains_in_right(a, b):
    return contains(V.load(b), V.load(a))


@functools.lru_cache(maxsize=256)
def parse_keypath(text: str) -> tuple:
    """'{a, 0, "b c"}' -> ('a', '0', 'b c'): the keys of a key path, as written."""
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise BadArguments(f"Invalid keypath text: '{text}'")
    body = body[1:-1].strip()
    if not body:
        return ()
    keys, i, n = [], 0, len(body)
    while i < n:
        while i < n and body[i] == " ":
            i += 1
        if i < n and body[i] == '"':
            j = body.find('"', i + 1)
            if j < 0:
                raise BadArguments(f"Invalid keypath text: '{text}'")
            keys.append(body[i + 1:j])
            i = body.find(",", j)
        else:
            j = body.find(",", i)
            keys.append((body[i:] if j < 0 else body[i:j]).strip())
            i = j
        if i < 0:
            break
        i += 1
    return tuple(keys)


def _index(key: str, length: int):
    """The array position a key names (negative from the end), None if none."""
    try:
        k = int(key)
    except ValueError:
        return None
    k = k + length if k < 0 else k
    return k if 0 <= k < length else None


_MISSING = object()


def _follow(value, keys):
    for key in keys:
        if isinstance(value, dict):
            value = value.get(key, _MISSING)
        elif isinstance(value, list):
            i = _index(key, len(value))
            value = _MISSING if i is None else value[i]
        else:
            return _MISSING
        if value is _MISSING:
            return _MISSING
    return value


def get_by_keypath(v, path):
    found = _follow(V.load(v), parse_keypath(path))
    return None if found is _MISSING else V.dumps(found)


def get_by_keypath_string(v, path):
    found = _follow(V.load(v), parse_keypath(path))
    if found is _MISSING or found is None:
        return None
    return found if isinstance(found, str) else V.dumps(found)


def _deleted(value, keys):
    """A copy of value without what the key path names (unchanged when it names nothing)."""
    if not keys:
        return value
    key, rest = keys[0], keys[1:]
    if isinstance(value, dict):
        if key not in value:
            return value
        if not rest:
            return {k: x for k, x in value.items() if k != key}
        return {k: (_deleted(x, rest) if k == key else x) for k, x in value.items()}
    if isinstance(value, list):
        i = _index(key, len(value))
        if i is None:
            return value
        if not rest:
            return value[:i] + value[i + 1:]
        return value[:i] + [_deleted(value[i], rest)] + value[i + 1:]
    return value


def delete_by_keypath(v, path):
    return V.dumps(_deleted(V.load(v), parse_keypath(path)))


def delete_by_name(v, name):
    """v - 'k': an object without key k, an array without its string elements equal to k."""
    value = V.load(v)
    if isinstance(value, dict):
        value = {k: x for k, x in value.items() if k != name}
    elif isinstance(value, list):
        value = [x for x in value if not (isinstance(x, str) and x == name)]
    else:
        raise BadArguments("Invalid json type for delete_by_name: not an array or object")
    return V.dumps(value)


def delete_by_index(v, index):
    """v - n: an array without its element n (negative from the end)."""
    value = V.load(v)
    if not isinstance(value, list):
        raise BadArguments("Invalid json type for delete_by_index: not an array")
    i = _index(str(index), len(value))
    return V.dumps(value if i is None else value[:i] + value[i + 1:])


def concat(a, b):
    """v || w: two objects merged (w's values win, keys sorted), else the two as arrays joined."""
    left, right = V.load(a), V.load(b)
    if isinstance(left, dict) and isinstance(right, dict):
        return V.dumps(dict(sorted({**left, **right}.items())))
    left = left if isinstance(left, list) else [left]
    right = right if isinstance(right, list) else [right]
    return V.dumps(left + right)


def _keys_array(types):
    return BOOLEAN.as_nullable(any(t.can_be_null for t in types))


register("json_exists_key", exists_key, fixed(BOOLEAN), 2, kinds=("variant", "string"))
register("json_exists_any_keys", exists_any_keys, _keys_array, 2, kinds=("variant", "any"))
register("json_exists_all_keys", exists_all_keys, _keys_array, 2, kinds=("variant", "any"))
register("json_contains_in_left", contains_in_left, fixed(BOOLEAN), 2, kinds=("variant", "variant"))
register("json_contains_in_right", contains_in_right, fixed(BOOLEAN), 2, kinds=("variant", "variant"))
register("get_by_keypath", get_by_keypath, fixed(VARIANT_OR_NULL), 2, kinds=("variant", "string"))
register("get_by_keypath_string", get_by_keypath_string, fixed(STRING_OR_NULL), 2,
         kinds=("variant", "string"))
register("delete_by_keypath", delete_by_keypath, fixed(VARIANT), 2, kinds=("variant", "string"))
register("delete_by_name", delete_by_name, fixed(VARIANT), 2, kinds=("variant", "string"))
register("delete_by_index", delete_by_index, fixed(VARIANT), 2, kinds=("variant", "any"))
register("json_concat", concat, fixed(VARIANT), 2, kinds=("variant", "variant"))


# ---------------------------------------------------------------- arrays and objects of VARIANTs
# (current Databend's variant.rs: array_intersection / array_except / array_overlap, each also
# json_array_*; a value that is not an array counts as an array of itself; duplicates count)

def _as_list(v):
    value = V.load(v)
    return value if isinstance(value, list) else [value]


def _counts(values):
    counts = {}
    for x in values:
        key = V.dumps(x)  # canonical text: objects with the same pairs are equal
        counts[key] = counts.get(key, 0) + 1
    return counts


def array_intersection(a, b):
    remaining, out = _counts(_as_list(b)), []
    for x in _as_list(a):
        key = V.dumps(x)
        if remaining.get(key, 0) > 0:
            remaining[key] -= 1
            out.append(x)
    return V.dumps(out)


def array_except(a, b):
    remaining, out = _counts(_as_list(b)), []
    for x in _as_list(a):
        key = V.dumps(x)
        if remaining.get(key, 0) > 0:
            remaining[key] -= 1
        else:
            out.append(x)
    return V.dumps(out)


def array_overlap(a, b):
    right = _counts(_as_list(b))
    return any(V.dumps(x) in right for x in _as_list(a))


def _object_insert_maker(types):
    """object_insert(object, key, value[, update]) for a value of types[2]: NULL leaves the
    object as it is (with update: removes the key); an existing key is refused (1006) unless
    update is true; a key of another type is its text."""
    value_type = types[2] if len(types) > 2 else None
    is_variant = value_type is not None and value_type.name == "Variant"

    def insert(obj, key, value, update=False):
        if obj is None or key is None:
            return None
        target = V.load(obj)
        if not isinstance(target, dict):
            raise BadArguments("Invalid json object for object_insert")
        key = key if isinstance(key, str) else str(key)
        if value is None:
            return V.dumps({k: x for k, x in target.items() if k != key}) if update else obj
        if key in target and not update:
            raise BadArguments(f"ObjectDuplicateKey: the key `{key}` already exists")
        inserted = V.load(value) if is_variant else V.load(_casting.from_value(value, value_type))
        return V.dumps(dict(sorted({**target, key: inserted}.items())))
    return insert


register("array_intersection", array_intersection, fixed(VARIANT), 2, kinds=("variant", "variant"),
         aliases=("json_array_intersection",))
register("array_except", array_except, fixed(VARIANT), 2, kinds=("variant", "variant"),
         aliases=("json_array_except",))
register("array_overlap", array_overlap, fixed(BOOLEAN), 2, kinds=("variant", "variant"),
         aliases=("json_array_overlap",))
register("object_insert", _object_insert_maker([]), fixed(VARIANT_OR_NULL), 3, 4, strict=False,
         kinds=("variant", "any", "any", "any"), specialize=_object_insert_maker,
         aliases=("json_object_insert",))

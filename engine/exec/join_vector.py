"""A dimension join's probe as whole-column steps (numpy, engine.core.vectors).

An inner join over a left scan of columns whose build keys are unique small non-negative
integers (a dimension table keyed 0..n) and whose projection reads left columns, right columns
and float + - * of one of each (engine.codegen.join ColumnProbe.vector) is probed a batch at a
time without a Python loop per row: the batch's key array indexes a table of build-row positions,
the right columns are gathered by those positions and the float operations run elementwise.
Each element is one IEEE operation on the same doubles Python's operator would take, so the
answer is Python's to the bit (the row path's order, types and objects: right values are the
build rows' own). A batch this cannot take (a key column with NULLs, a float operand that is not
a double array) goes to the row-at-a-time probe; so does a build side that does not qualify.
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import itemgetter

from engine.core.errors import MemoryExceedsLimit
from engine.core.vectors import vectorised

# build sides this path takes: at most this many rows, keys below max(4 x rows, _DENSE_SLACK)
VECTOR_MAX_ROWS = 65_536
_DENSE_SLACK = 1_024
_INT_CODES = frozenset("bBhHiIlLqQ")
_INT, _FLOAT = {int}, {float}
# value types numpy stores into an object array as they are when given a list of them
_SCALARS = frozenset({str, int, float, bool, type(None), bytes})


class VectorProbe:
    """The tables of one build side (positions by key, right columns as numpy arrays) and the
    probe of a batch of left columns over them."""

    def __init__(self, np, shape, positions, objects, floats):
        self.np = np
        self.key, self.items = shape
        self.positions = positions  # numpy intp: build key -> its row's position, -1 for none
        self.objects = objects  # right column -> numpy object array of its values, build order
        self.floats = floats  # right column -> numpy float64 array (its values all floats)
        self.float_inputs = frozenset(item[1] for item in self.items if item[0] not in ("l", "r"))

    def probe(self, columns):
        """The joined rows of one batch (`columns`: the probe's left column values), or None
        when the batch has to take the row-at-a-time probe."""
        np = self.np
        keys = columns[self.key]
        if type(keys) is not array or keys.typecode not in _INT_CODES:
            return None
        for i in self.float_inputs:
            if type(columns[i]) is not array or columns[i].typecode != "d":
                return None
        if not keys:
            return []
        k = np.frombuffer(keys, dtype=keys.typecode)
        table = self.positions
        size = len(table)
        if k.min() >= 0 and k.max() < size:
            found = table[k]
        else:  # keys outside the build keys' range match nothing
            inside = (k >= 0) & (k < size)
            found = np.full(len(k), -1, dtype=table.dtype)
            found[inside] = table[k[inside]]
        matched = found >= 0
        selected = None
        if not matched.all():
            selected = matched.tolist()
            found = found[matched]
            if not len(found):
                return []
        parts = []
        for item in self.items:
            kind = item[0]
            if kind == "l":
                values = columns[item[1]]
                parts.append(values if selected is None else compress(values, selected))
            elif kind == "r":
                parts.append(self.objects[item[1]][found].tolist())
            else:
                operator, i, j, left_first = item
                left = np.frombuffer(columns[i], dtype="d")
                if selected is not None:
                    left = left[matched]
                right = self.floats[j][found]
                function = getattr(np, operator)
                with np.errstate(all="ignore"):  # inf and NaN are answers here, as in Python
                    result = function(left, right) if left_first else function(right, left)
                parts.append(result.tolist())
        return list(zip(*parts, strict=True))


def vector_probe(shape, unique, rt):
    """Generator: builds a VectorProbe for the unique-key hash table `unique` (key -> its one
    right row) a step of rows at a time (yielding []), and returns it, or None where it does not
    apply (numpy missing, keys not small non-negative ints, a float operand not all floats)."""
    np = vectorised()
    if np is None or shape is None or not unique or len(unique) > VECTOR_MAX_ROWS:
        return None
    keys = list(unique)
    rows = list(unique.values())
    right = {item[1] for item in shape[1] if item[0] == "r"}
    float_right = {item[2] for item in shape[1] if item[0] not in ("l", "r")}
    objects = {j: np.empty(len(rows), dtype=object) for j in right}
    float_values = {j: [] for j in float_right}
    size = 0
    for start in range(0, len(rows), rt.step_rows):
        part_keys = keys[start:start + rt.step_rows]
        if set(map(type, part_keys)) != _INT or min(part_keys) < 0:
            return None
        size = max(size, max(part_keys) + 1)
        part = rows[start:start + rt.step_rows]
        for j, values in float_values.items():
            new = list(map(itemgetter(j), part))
            if set(map(type, new)) != _FLOAT:
                return None
            values.extend(new)
        for j, column in objects.items():
            values = list(map(itemgetter(j), part))
            if set(map(type, values)) <= _SCALARS:
                column[start:start + len(values)] = values
            else:  # element by element: a value that is itself a sequence stays one object
                for i, value in enumerate(values, start):
                    column[i] = value
        yield []
    if size > max(4 * len(keys), _DENSE_SLACK):
        return None
    try:
        rt.memory.charge(8 * size + 8 * len(rows) * (len(right) + len(float_right)))
    except MemoryExceedsLimit:  # no room for the tables: the comprehension answers (nothing charged)
        return None
    positions = np.full(size, -1, dtype=np.intp)
    positions[np.array(keys, dtype=np.intp)] = np.arange(len(keys), dtype=np.intp)
    floats = {j: np.array(values, dtype=np.float64) for j, values in float_values.items()}
    return VectorProbe(np, shape, positions, objects, floats)

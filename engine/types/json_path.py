"""SQL/JSON paths of json_path_query_first, json_path_query_array and json_path_exists: '$', member
access (.a, ."a b", ["a"], .*), array elements ([0], [1, 3], [0 to 2], [last], [last - 1], [*]);
a path may leave out its leading '$.' ('a.b'). Filters (?(...)) are not supported."""

from __future__ import annotations

import re

from engine.core.errors import BadArguments

_STEP = re.compile(r"""\s*(?:
    \.\s*(?P<star>\*)
  | \.\s*"(?P<dquoted>(?:[^"\\]|\\.)*)"
  | \.\s*(?P<name>[A-Za-z_$][\w$]*)
  | \[\s*(?P<bstar>\*)\s*\]
  | \[\s*"(?P<bdquoted>(?:[^"\\]|\\.)*)"\s*\]
  | \[\s*'(?P<bsquoted>[^']*)'\s*\]
  | \[(?P<indexes>[^\]"']*)\]
)""", re.VERBOSE)
_INDEX = re.compile(r"\s*(?:(last)\s*(?:-\s*(\d+))?|(\d+))\s*\Z")


def compile_path(path: str) -> list:
    """The steps of a path: ('key', name), ('values',), ('elements',), ('index', [(lo, hi)...])
    with each bound an int or ('last', n); BadArguments for what is not a path."""
    text = path.strip()
    if text.startswith("$"):
        i = 1
    else:
        text, i = "." + text, 0  # 'a.b' reads as '$.a.b'
    steps = []
    while i < len(text):
        m = _STEP.match(text, i)
        if m is None or m.end() == i:
            raise BadArguments(f"Invalid JSON Path '{path}'")
        i = m.end()
        g = m.groupdict()
        if g["star"]:
            steps.append(("values",))
        elif g["bstar"]:
            steps.append(("elements",))
        elif g["indexes"] is not None:
            steps.append(("index", [_range(part, path) for part in g["indexes"].split(",")]))
        else:
            name = next(g[k] for k in ("name", "dquoted", "bdquoted", "bsquoted") if g[k] is not None)
            steps.append(("key", name))
    return steps


def _range(part: str, path: str):
    pieces = re.split(r"\s+to\s+", part.strip(), maxsplit=1)
    low = _bound(pieces[0], path)
    return low, _bound(pieces[1], path) if len(pieces) == 2 else low


def _bound(text: str, path: str):
    m = _INDEX.match(text)
    if m is None:
        raise BadArguments(f"Invalid JSON Path '{path}'")
    if m.group(1):
        return ("last", int(m.group(2) or 0))
    return int(m.group(3))


def _position(bound, length: int) -> int:
    return length - 1 - bound[1] if isinstance(bound, tuple) else bound


def query(value, steps) -> list:
    """Every value the path selects in `value` (a loaded JSON value), in document order."""
    current = [value]
    for step in steps:
        found = []
        kind = step[0]
        for v in current:
            if kind == "key":
                if isinstance(v, dict) and step[1] in v:
                    found.append(v[step[1]])
            elif kind == "values":
                if isinstance(v, dict):
                    found.extend(v.values())
            elif kind == "elements":
                if isinstance(v, list):
                    found.extend(v)
            elif isinstance(v, list):
                for low, high in step[1]:
                    lo, hi = _position(low, len(v)), _position(high, len(v))
                    found.extend(v[max(lo, 0):hi + 1] if lo <= hi else [])
        current = found
    return current

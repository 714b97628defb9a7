"""Regular expressions that take text apart: regexp_extract, regexp_extract_all,
regexp_split_to_array (regexp_split_to_table is unnest of it, rewritten by the binder) and GLOB,
on the same bounded RE2 patterns as engine.functions.regex (Limits.regex_pattern_chars); the
arrays they build are bounded by Limits.array_elements."""

from __future__ import annotations

import re2

from engine.core.errors import BadArguments, SemanticError
from engine.core.limits import Limits
from engine.functions.regex import _regex, _text
from engine.functions.registry import declare_row_costs, fixed, register
from engine.runtime.bounded import array_too_long
from engine.types import nested as N
from engine.types import sqltype as T


def _group_index(group, regex, function: str, allowed: int) -> int:
    """The group number, refused (1006) beyond `allowed` (Databend's bound, which differs
    between regexp_extract and regexp_extract_all)."""
    group = int(group)
    if group < 0 or group > allowed:
        raise BadArguments(f"{function}: group index {group} is out of range, the pattern has "
                           f"{regex.groups} capture groups")
    return group


def _group_text(m, group: int) -> str:
    """Group `group` of match `m`; '' when the group took no part in the match (or is absent)."""
    if m is None or group > m.re.groups:
        return ""
    return m.group(group) or ""


def make_regexp_extract(limits: Limits):
    max_chars = limits.regex_pattern_chars

    def regexp_extract(s, pattern, group=0):
        regex = _regex(pattern, "c", "regexp_extract", max_chars)
        m = regex.search(_text(s))
        if isinstance(group, N.ArrayValue):  # regexp_extract(s, p, ['y', 'm', 'd']): a map
            names = [_text(name) for name in group]
            if len(names) > regex.groups:
                raise BadArguments(f"regexp_extract: {len(names)} names given for a pattern of "
                                   f"{regex.groups} capture groups")
            return N.MapValue((name, _group_text(m, i)) for i, name in enumerate(names, 1))
        # as Databend: one past the last group is '' rather than an error
        return _group_text(m, _group_index(group, regex, "regexp_extract", regex.groups + 1))

    return regexp_extract


def _extract_type(types):
    if len(types) == 3 and types[2].name == "Array":
        return N.map_type(T.STRING, T.STRING)
    if len(types) == 3 and not (types[2].is_int or types[2].name == "Null"):
        raise SemanticError(f"no overload satisfies `regexp_extract({', '.join(t.display() for t in types)})`")
    return T.STRING


def make_regexp_extract_all(limits: Limits):
    max_chars = limits.regex_pattern_chars
    max_elements = limits.array_elements

    def regexp_extract_all(s, pattern, group=0):
        regex = _regex(pattern, "c", "regexp_extract_all", max_chars)
        group = _group_index(group, regex, "regexp_extract_all", regex.groups)
        parts = []
        for m in regex.finditer(_text(s)):
            if len(parts) >= max_elements:
                raise array_too_long("regexp_extract_all", len(parts) + 1, max_elements)
            parts.append(m.group(group) or "")
        return N.ArrayValue(parts)

    return regexp_extract_all


def make_regexp_split_to_array(limits: Limits):
    """PostgreSQL's split (as Databend): an empty match at the start or the end of the text, or
    right after the previous match, does not split."""
    max_chars = limits.regex_pattern_chars
    max_elements = limits.array_elements

    def regexp_split_to_array(s, pattern, match_type=""):
        s = _text(s)
        regex = _regex(pattern, _text(match_type) or "c", "regexp_split_to_array", max_chars)
        parts, last = [], 0
        for m in regex.finditer(s):
            start, end = m.start(), m.end()
            if start == end and (start == 0 or start == len(s) or start == last):
                continue
            if len(parts) + 1 >= max_elements:  # this part and the last one
                raise array_too_long("regexp_split_to_array", len(parts) + 2, max_elements)
            parts.append(s[last:start])
            last = end
        parts.append(s[last:])
        return N.ArrayValue(parts)

    return regexp_split_to_array


def _glob_regex(pattern: str) -> str:
    """SQLite's GLOB as an RE2 pattern: * any text, ? one character, [...] a set ([^...] its
    complement), everything else literal and case-sensitive."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            out.append("(?s:.*)")
        elif c == "?":
            out.append("(?s:.)")
        elif c == "[" and pattern.find("]", i + 2) > 0:
            close = pattern.find("]", i + 2)
            body = pattern[i + 1:close]
            negated = body.startswith("^")
            body = body[1:] if negated else body
            members = "".join("\\" + ch if ch in "\\]^[" else ch for ch in body)
            out.append(f"[{'^' if negated else ''}{members}]")
            i = close
        else:
            out.append(re2.escape(c))
        i += 1
    return "".join(out)


def make_glob(limits: Limits):
    max_chars = limits.regex_pattern_chars

    def glob(s, pattern):
        regex = _regex(_glob_regex(_text(pattern)), "c", "glob", max_chars)
        return regex.fullmatch(_text(s)) is not None

    return glob


register("regexp_extract", make_regexp_extract, _extract_type, 2, 3, bounded=True)
register("regexp_extract_all", make_regexp_extract_all, fixed(N.array_type(T.STRING)), 2, 3, bounded=True)
register("regexp_split_to_array", make_regexp_split_to_array, fixed(N.array_type(T.STRING)), 2, 3,
         bounded=True)
register("glob", make_glob, fixed(T.BOOLEAN), 2, bounded=True)

# microseconds a call costs (as engine.functions.regex's table: a guess of a few matches)
declare_row_costs({
    "regexp_extract": 7, "regexp_extract_all": 20, "regexp_split_to_array": 20, "glob": 5,
})

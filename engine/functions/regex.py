"""Regular expressions: REGEXP / RLIKE and regexp_like, regexp_replace, regexp_substr,
regexp_instr, on RE2 (linear-time matching, the syntax of Databend's Rust `regex` crate): no
pattern can make a match backtrack for minutes. Pattern sizes are bounded by the database's
Limits (regex_pattern_chars), and regexp_replace's work by regex_replace_matches."""

from __future__ import annotations

import functools
import re

import re2

from engine.core.errors import BadArguments
from engine.core.limits import Limits
from engine.core.memory import keep, reserve, text_bytes
from engine.functions.registry import declare_row_costs, fixed, register
from engine.runtime.bounded import result_too_long
from engine.types import cast as casting
from engine.types import sqltype as T

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # a bad pattern is the user's error (1006), not a log line
_MATCH_TYPES = {"c": ("i", False), "i": ("i", True), "n": ("s", True), "m": ("m", True)}


def _text(v):
    return v if isinstance(v, str) else casting.to_string(v)


@functools.lru_cache(maxsize=256)
def _compile(pattern: str, match_type: str, function: str):
    """The compiled pattern with MySQL match-type letters (c i n m; the last of c/i wins)."""
    flags = {}
    for letter in match_type:
        if letter not in _MATCH_TYPES:
            raise BadArguments(f"Incorrect arguments to {function} match type: {match_type}")
        flag, on = _MATCH_TYPES[letter]
        flags[flag] = on
    prefix = "".join(f for f, on in flags.items() if on)
    try:
        return re2.compile(f"(?{prefix}){pattern}" if prefix else pattern, _OPTIONS)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else ""
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", errors="replace")
        raise BadArguments(f"Unable to build regex from {function} pattern: regex parse error: "
                           f"{reason}") from None


def _regex(pattern, match_type, function, max_chars):
    pattern = _text(pattern)
    if len(pattern) > max_chars:
        raise BadArguments(f"regular expression of {len(pattern)} characters exceeds the limit "
                           f"regex_pattern_chars = {max_chars}")
    # as Databend's: no match type (or '') is 'i', case-insensitive (MySQL's default collation)
    return _compile(pattern, _text(match_type) or "i", function)


def compile_pattern(pattern: str, max_chars: int, what: str):
    """A compiled RE2 pattern (Databend's syntax, linear-time), refused with 1006 beyond
    `max_chars` characters or when it does not compile; `what` names the user of the pattern
    in those errors (e.g. PATTERN of a COPY)."""
    return _regex(pattern, "c", what, max_chars)  # (file names: case-sensitive)


def _position(pos, function):
    pos = int(pos)
    if pos <= 0:
        raise BadArguments(f"Incorrect arguments to {function}: position must be positive, but got {pos}")
    return pos


def _occurrence(n, function):
    n = int(n)
    if n < 0:
        raise BadArguments(f"Incorrect arguments to {function}: occurrence must not be negative, but got {n}")
    return n


def _nth_match(regex, s, pos, occurrence):
    """The occurrence-th match (1-based) at or after character `pos` (1-based), or None."""
    for i, m in enumerate(regex.finditer(s, pos - 1), 1):
        if i >= occurrence:
            return m
    return None


def make_regexp_like(limits: Limits):
    max_chars = limits.regex_pattern_chars

    def regexp_like(s, pattern, match_type=""):
        if pattern == "":  # as Databend (MySQL): an empty pattern matches nothing
            return False
        return _regex(pattern, match_type, "regexp_like", max_chars).search(_text(s)) is not None

    return regexp_like


def make_regexp_substr(limits: Limits):
    max_chars = limits.regex_pattern_chars

    def regexp_substr(s, pattern, pos=1, occurrence=1, match_type=""):
        if s is None or pattern is None or pos is None or occurrence is None or match_type is None:
            return None
        regex = _regex(pattern, match_type, "regexp_substr", max_chars)
        if s == "" or pattern == "":  # as Databend (MySQL): nothing to find
            return None
        m = _nth_match(regex, _text(s), _position(pos, "regexp_substr"),
                       max(_occurrence(occurrence, "regexp_substr"), 1))
        return None if m is None else m.group(0)

    return regexp_substr


def make_regexp_instr(limits: Limits):
    max_chars = limits.regex_pattern_chars

    def regexp_instr(s, pattern, pos=1, occurrence=1, return_option=0, match_type=""):
        regex = _regex(pattern, match_type, "regexp_instr", max_chars)
        if s == "" or pattern == "":  # as Databend (MySQL): nothing to find
            return 0
        m = _nth_match(regex, _text(s), _position(pos, "regexp_instr"),
                       max(_occurrence(occurrence, "regexp_instr"), 1))
        if m is None:
            return 0
        return (m.end() if int(return_option) else m.start()) + 1

    return regexp_instr


def _expand(m, replacement: str) -> str:
    """`replacement` with $n / ${n} replaced by the groups of `m` (Rust regex syntax; $$ is $)."""
    if "$" not in replacement:
        return replacement
    out, i, n = [], 0, len(replacement)
    while i < n:
        c = replacement[i]
        if c != "$" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        nxt = replacement[i + 1]
        if nxt == "$":
            out.append("$")
            i += 2
            continue
        if nxt == "{":
            close = replacement.find("}", i + 2)
            name = replacement[i + 2:close] if close > 0 else ""
            end = close + 1
        else:
            j = i + 1
            while j < n and (replacement[j].isalnum() or replacement[j] == "_"):
                j += 1
            name, end = replacement[i + 1:j], j
        if not name:
            out.append(c)
            i += 1
            continue
        try:
            group = m.group(int(name)) if name.isdigit() else m.group(name)
        except (IndexError, KeyError, re2.error):
            group = ""
        out.append(group or "")
        i = end
    return "".join(out)


# Characters that make a pattern more than its literal text (RE2 syntax).
_REGEX_SYNTAX = frozenset("\\.^$|?*+()[]{}")


def _literal(pattern: str, match_type: str) -> bool:
    """Whether `pattern` matches exactly its own text (no syntax; case-sensitive, or without
    letters that have a case: the default match type is case-insensitive)."""
    return _REGEX_SYNTAX.isdisjoint(pattern) and (_case_sensitive(match_type) or pattern.lower() == pattern.upper())


def _case_sensitive(match_type: str) -> bool:
    return "c" in match_type and match_type.rfind("c") > match_type.rfind("i")


def make_regexp_replace(limits: Limits):
    """regexp_replace, whose work is bounded before or while it runs (the code review's N12): a
    literal pattern with a plain replacement is counted and replaced by str methods (the result's
    size is known, and refused, before anything is built); any other pattern is matched one match
    at a time, at most regex_replace_matches of them a call, with the result's size checked as it
    grows."""
    max_chars = limits.regex_pattern_chars
    max_result = limits.string_result_chars
    max_matches = limits.regex_replace_matches

    def regexp_replace(s, pattern, replacement, pos=1, occurrence=0, match_type=""):
        s, replacement = _text(s), _text(replacement)
        pattern, match_type = _text(pattern), _text(match_type)
        pos = _position(pos, "regexp_replace")
        occurrence = _occurrence(occurrence, "regexp_replace")
        if not pattern or not s:  # as Databend (MySQL): nothing to replace
            return s
        regex = _regex(pattern, match_type, "regexp_replace", max_chars)
        if not occurrence and "$" not in replacement:
            if _literal(pattern, match_type):
                return _replace_literal(s, pattern, replacement, pos - 1, max_result)
            if _REGEX_SYNTAX.isdisjoint(pattern) and s.isascii() and pattern.isascii():
                return _replace_literal_ignoring_case(s, pattern, replacement, pos - 1, max_result)
        return _replace_matches(regex, s, replacement, pos - 1, occurrence, max_result, max_matches)

    return regexp_replace


def _replace_literal(s: str, old: str, new: str, start: int, max_result: int) -> str:
    """Every `old` in s[start:] replaced by `new`: counted first (at C speed), so an oversized
    result is refused (1006) before any work, and a large one charged to the query."""
    count = s.count(old, start)
    if not count:
        return s
    size = len(s) + count * (len(new) - len(old))
    if size > max_result:
        raise result_too_long(size, max_result)
    reserve(text_bytes(size, s, new))
    return keep(s[:start] + s[start:].replace(old, new) if start else s.replace(old, new))


def _replace_literal_ignoring_case(s: str, old: str, new: str, start: int, max_result: int) -> str:
    """_replace_literal for the default case-insensitive match of ASCII text: counted on the
    lower-cased text (ASCII keeps its length), replaced by one C-speed substitution of the
    escaped literal (no backtracking is possible)."""
    count = s.lower().count(old.lower(), start)
    if not count:
        return s
    size = len(s) + count * (len(new) - len(old))
    if size > max_result:
        raise result_too_long(size, max_result)
    reserve(text_bytes(size, s, new))
    replaced = re.compile(re.escape(old), re.IGNORECASE).sub(lambda _m: new, s[start:])
    return keep(s[:start] + replaced)


def _replace_matches(regex, s: str, replacement: str, start: int, occurrence: int, max_result: int,
                     max_matches: int) -> str:
    """The matches of `regex` in s[start:] (only the occurrence-th when occurrence > 0) replaced,
    one match at a time: at most max_matches of them are looked at (more is 1006), and the result
    is refused as soon as it would exceed max_result characters."""
    parts, size, last = [], 0, 0
    for i, m in enumerate(regex.finditer(s, start), 1):
        if i > max_matches:
            raise BadArguments(f"regexp_replace found more than {max_matches} matches, the limit "
                               f"regex_replace_matches (matching them would hold the server too long)")
        if occurrence and i < occurrence:
            continue
        piece = _expand(m, replacement)
        size += m.start() - last + len(piece)
        if size > max_result:
            raise result_too_long(size, max_result)
        parts.append(s[last:m.start()])
        parts.append(piece)
        last = m.end()
        if occurrence:
            break
    if not parts:
        return s
    size += len(s) - last
    if size > max_result:
        raise result_too_long(size, max_result)
    parts.append(s[last:])
    reserve(text_bytes(size, s, replacement))
    return keep("".join(parts))


register("regexp_like", make_regexp_like, fixed(T.BOOLEAN), 2, 3, bounded=True)
register("regexp", make_regexp_like, fixed(T.BOOLEAN), 2, bounded=True, aliases=("rlike",))
register("regexp_replace", make_regexp_replace, fixed(T.STRING), 3, 6, bounded=True)
register("regexp_substr", make_regexp_substr, lambda ts: T.STRING.as_nullable(True), 2, 5, strict=False,
         bounded=True)
register("regexp_instr", make_regexp_instr, fixed(T.UINT64), 2, 6, bounded=True)

# microseconds a call costs (CPU time measured over 2,000 strings of ~45 characters; one that
# goes match by match costs ~5 a match, so a guess of a few matches): a step over them takes fewer
# rows (engine.core.steps.rows_for_cost)
declare_row_costs({
    "regexp_like": 5, "regexp": 5, "regexp_instr": 6, "regexp_substr": 7, "regexp_replace": 20,
})

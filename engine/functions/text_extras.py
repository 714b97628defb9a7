"""Text functions of Databend's current test files: char / chr (code points to text) and
like_escape_pattern, the rewrite of `x LIKE p ESCAPE 'c'` into a pattern of the default
backslash escape (the grammar calls it; the LIKE matcher stays the one of engine.runtime)."""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.functions.registry import fixed, register
from engine.types import sqltype as T

_SURROGATES = range(0xD800, 0xE000)


def _char(*codes):
    """char(c1, c2, ...): the text of those Unicode code points (NULL when one is NULL)."""
    out = []
    for code in codes:
        if code is None:
            return None
        code = int(code)
        if not 0 <= code <= 0x10FFFF or code in _SURROGATES:
            raise BadArguments("Invalid character code in the CHR input")
        out.append(chr(code))
    return "".join(out)


register("char", _char, fixed(T.STRING), 1, 1 << 16, strict=False, aliases=("chr",))


def _like_escape_pattern(pattern, escape):
    """`pattern` written with `escape` as its escape character, rewritten for the backslash."""
    escape = str(escape)
    if len(escape) != 1:
        raise BadArguments(f"the escape of LIKE must be one character, got {escape!r}")
    out = []
    chars = iter(str(pattern))
    for ch in chars:
        if ch == escape:
            following = next(chars, None)
            out.append(escape if following is None else "\\" + following)
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


register("like_escape_pattern", _like_escape_pattern, fixed(T.STRING), 2)


def _unicode(s):
    """unicode(s): the code point of the first character (0 for '')."""
    return ord(s[0]) if s else 0


register("unicode", _unicode, fixed(T.UINT32), 1)

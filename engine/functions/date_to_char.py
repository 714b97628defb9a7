"""to_char(d, format) of a Date or Timestamp with PostgreSQL's template patterns (YYYY, MON, DD,
HH12, AM, MI, SS, TZH...), as Databend translates them into its strftime-style date_format."""

from __future__ import annotations

import functools

from engine.core.errors import SemanticError
from engine.functions.dates import _make_date_format, register_zoned_impl
from engine.functions.registry import register
from engine.types import cast as casting
from engine.types import sqltype as T
from engine.types.datetimes import UTC

_TZH = "\0TZH\0"  # the zone's hours (+08), filled in by to_char itself

# PostgreSQL's patterns (matched case-insensitively, longest first) and their strftime equivalents
_PATTERNS = (
    ("yyyy", "%Y"), ("yy", "%y"), ("month", "%B"), ("mon", "%b"), ("mm", "%m"), ("day", "%A"),
    ("ddd", "%j"), ("dd", "%d"), ("dy", "%a"), ("hh24", "%H"), ("hh12", "%I"), ("hh", "%I"),
    ("mi", "%M"), ("ss", "%S"), ("am", "%p"), ("pm", "%p"), ("us", "%6f"), ("ms", "%3f"),
    ("tzh", _TZH), ("tz", "%Z"),
)


@functools.lru_cache(maxsize=256)
def _strftime(template: str) -> str:
    """The strftime format of a PostgreSQL template; other text is kept (a % doubled)."""
    out, i, lower = [], 0, template.lower()
    while i < len(template):
        for pattern, directive in _PATTERNS:
            if lower.startswith(pattern, i):
                out.append(directive)
                i += len(pattern)
                break
        else:
            out.append("%%" if template[i] == "%" else template[i])
            i += 1
    return "".join(out)


def _make_to_char(tz):
    date_format = _make_date_format(tz, pg=False)  # the template is translated here

    def to_char(v, template):
        fmt = _strftime(casting.to_string(template))
        if _TZH in fmt:
            fmt = fmt.replace(_TZH, date_format(v, "%z")[:3])
        return date_format(v, fmt)
    return to_char


def _to_char_type(types):
    if types[0].name not in ("Date", "Timestamp") or not types[1].is_string:
        raise SemanticError(f"no overload satisfies `to_char({', '.join(t.display() for t in types)})`")
    return T.STRING


register("to_char", _make_to_char(UTC), _to_char_type, 2)
register_zoned_impl("to_char", _make_to_char)

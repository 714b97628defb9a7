"""The console's /v1/console/split: a script's statements, as the grammar cuts it (the console
runs them one by one)."""

from __future__ import annotations

from bisect import bisect_left

import engine
from web.errors import BadRequest

#: statements one script may hold for /v1/console/split (400 above)
MAX_SCRIPT_STATEMENTS = 10_000


def script_of(doc) -> str:
    """The `sql` of /v1/console/split's body ({"sql": "..."}); BadRequest otherwise."""
    if not isinstance(doc, dict) or not isinstance(doc.get("sql"), str):
        raise BadRequest('parse error: expected {"sql": "<script>"}')
    return doc["sql"]


def split_answer(script: str) -> dict:
    """/v1/console/split's answer: {"statements": [{"start", "end", "complete", "params"}]},
    offsets in UTF-16 code units (JavaScript's string indices), `params` the names of the
    statement's `:name` placeholders. Parse-only work, run in a thread."""
    try:
        spans = engine.split_statements(script, MAX_SCRIPT_STATEMENTS)
    except engine.TooManyStatements as exc:
        raise BadRequest(f"{exc} (the console runs at most {MAX_SCRIPT_STATEMENTS})") from None
    to_utf16 = _utf16_offsets(script)
    return {"statements": [{"start": to_utf16(span.start), "end": to_utf16(span.end),
                            "complete": span.complete, "params": list(span.params)}
                           for span in spans]}


def _utf16_offsets(script: str):
    """A function from a code point offset of `script` to its UTF-16 offset (characters past
    U+FFFF take two units)."""
    if not script or max(script) <= "\uffff":
        return lambda offset: offset
    astral = [i for i, char in enumerate(script) if char > "\uffff"]
    return lambda offset: offset + bisect_left(astral, offset)

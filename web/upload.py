"""PUT /v1/upload_to_stage: files of a multipart/form-data body into a stage.

Databend's File Upload API, as the clients send it: the stage in the header `stage_name` or
`X-DATABEND-STAGE-NAME` (`~` is the user stage), an optional folder in `relative_path` or
`X-DATABEND-RELATIVE-PATH`, and the file in the form field `upload` (its filename, e.g.
`client/load/1`, is its path under that folder). The answer is Databend's
`{"id", "stage_name", "state": "SUCCESS", "files": [...]}`.

The body is split with bytes.find (linear, no email parser), in a thread: an upload may be
hundreds of megabytes.
"""

from __future__ import annotations

import re

from web.errors import BadRequest

_BOUNDARY_RE = re.compile(rb'boundary="?([^";]+)"?', re.I)
_DISPOSITION_RE = re.compile(rb'content-disposition:[^\r\n]*', re.I)
_PARAM_RE = re.compile(rb'\b(name|filename)="((?:[^"\\]|\\.)*)"', re.I)


def stage_headers(request) -> tuple[str, str]:
    """(stage name, relative path) from the request headers."""
    def header(*names: bytes) -> str:
        for name in names:
            value = request.getHeader(name)
            if value:
                return value.decode("utf-8", "replace").strip()
        return ""

    stage = header(b"x-databend-stage-name", b"stage_name", b"stage-name")
    if not stage:
        raise BadRequest("upload_to_stage needs the stage in the header X-DATABEND-STAGE-NAME "
                         "(~ for the user stage)")
    return stage.lstrip("@"), header(b"x-databend-relative-path", b"relative_path", b"relative-path")


def split_multipart(content_file, content_type: bytes | None) -> list[tuple[str, bytes]]:
    """(filename, data) of each file part of a multipart/form-data body (read from
    `content_file`, a file object); BadRequest when the body holds no file."""
    match = _BOUNDARY_RE.search(content_type or b"")
    if not content_type or not content_type.lower().startswith(b"multipart/form-data") or not match:
        raise BadRequest("upload_to_stage takes a multipart/form-data body with the file in the "
                         "field `upload`")
    if hasattr(content_file, "getvalue"):  # a body kept in memory: its bytes, not a copy
        body = content_file.getvalue()
    else:
        content_file.seek(0)
        body = content_file.read()
    delimiter = b"--" + match.group(1)
    files = []
    position = body.find(delimiter)
    while position >= 0:
        start = position + len(delimiter)
        if body[start:start + 2] == b"--":
            break  # the closing delimiter
        headers_end = body.find(b"\r\n\r\n", start)
        if headers_end < 0:
            break
        next_delimiter = body.find(b"\r\n" + delimiter, headers_end + 4)
        if next_delimiter < 0:
            raise BadRequest("the multipart body ends inside a part (no closing boundary)")
        headers = body[start:headers_end]
        disposition = _DISPOSITION_RE.search(headers)
        params = dict((k.lower(), v) for k, v in _PARAM_RE.findall(disposition.group(0))) \
            if disposition else {}
        if b"filename" in params:
            filename = params[b"filename"].decode("utf-8", "replace")
            files.append((filename, body[headers_end + 4:next_delimiter]))
        position = next_delimiter + 2
    if not files:
        raise BadRequest("no file in the upload: send it in the form field `upload`")
    return files


def stored_path(relative_path: str, filename: str) -> str:
    """Where a file lands in the stage: its filename under the relative path."""
    folder = relative_path.strip("/")
    name = filename.strip("/")
    return f"{folder}/{name}" if folder else name

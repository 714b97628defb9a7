"""Named stages and file formats: CREATE / DROP / SHOW STAGE(S), DESC STAGE, and CREATE / DROP /
SHOW FILE FORMAT(S). Columns as Databend 1.2.453 answers them; stages are internal (in memory)."""

from __future__ import annotations

import datetime

from engine.catalog.privileges import stage_visible
from engine.catalog.stages import NamedStage
from engine.core.errors import (
    FILE_FORMAT_ALREADY_EXISTS,
    UNKNOWN_FILE_FORMAT,
    BadArguments,
    EngineError,
    Unimplemented,
)
from engine.exec.result import Column, Progress, Result
from engine.io.formats import resolve_file_format
from engine.io.stage_load import FileFormat
from engine.runtime.helpers import like_predicate
from engine.types import sqltype as T
from grammar import ast as A

_S = T.STRING
_NS = T.STRING.as_nullable(True)
_NU64 = T.UINT64.as_nullable(True)
_STAGES = [("name", _S), ("stage_type", _S), ("number_of_files", _NU64), ("creator", _NS),
           ("created_on", T.TIMESTAMP), ("comment", _S)]
_DESC_STAGE = [("name", _S), ("stage_type", _S), ("stage_params", _S), ("copy_options", _S),
               ("file_format_options", _S), ("number_of_files", _NU64), ("creator", _NS),
               ("created_on", T.TIMESTAMP), ("comment", _S), ("owner", _NS)]
_FILE_FORMATS = [("name", _S), ("format_options", _S)]
_STAGE_OPTIONS = frozenset({"file_format", "copy_options", "comment"})


def _answer(names_types, rows) -> Result:
    return Result([Column(n, t.display()) for n, t in names_types], iter([rows]),
                  progress=Progress(), types=[t for _, t in names_types])


def _options(value, what: str) -> dict:
    if isinstance(value, str):
        raise BadArguments(f"{what} takes options in parentheses: {what} = (NAME = value ...)")
    return {str(k).lower(): str(v) for k, v in value}


def format_options_text(options: dict) -> str:
    """A file format as SHOW FILE FORMATS writes it: `TYPE = CSV FIELD_DELIMITER = ',' ...`."""
    fmt = FileFormat.from_options(options)
    return (f"TYPE = {fmt.type.upper()} COMPRESSION = {fmt.compression.capitalize()} "
            f"FIELD_DELIMITER = {fmt.field_delimiter!r} RECORD_DELIMITER = {fmt.record_delimiter!r} "
            f"QUOTE = {fmt.quote!r} SKIP_HEADER = {fmt.skip_header} "
            f"NULL_DISPLAY = {fmt.null_display!r} EMPTY_FIELD_AS = {fmt.empty_field_as.upper()}")


def create_stage(session, ctx, stmt: A.CreateStage) -> Result:
    options = dict(stmt.options)
    unknown = sorted(set(options) - _STAGE_OPTIONS)
    if unknown:
        if unknown[0] in ("url", "connection", "credentials", "encryption"):
            raise Unimplemented("external stages (URL = ...) are not supported: stages are kept by "
                                "the server", position=stmt.pos)
        raise BadArguments(f"unknown stage option {unknown[0].upper()}", position=stmt.pos)
    stages = ctx.session.db.stages
    file_format = resolve_file_format(stages, _options(options.get("file_format", ()), "FILE_FORMAT"))
    FileFormat.from_options(file_format)  # checked now, not at the first COPY
    copy_options = _options(options.get("copy_options", ()), "COPY_OPTIONS")
    comment = options.get("comment", "")
    stage = NamedStage(stmt.name, file_format, copy_options, comment if isinstance(comment, str) else "",
                       ctx.user, stages.clock())
    stages.create_stage(stage, stmt.or_replace, stmt.if_not_exists)
    return _answer([], [])


def create_file_format(session, ctx, stmt: A.CreateFileFormat) -> Result:
    options = {str(k).lower(): str(v) for k, v in stmt.options}
    FileFormat.from_options(options)
    formats = ctx.session.db.stages.file_formats
    if stmt.name in formats and not stmt.or_replace:
        if stmt.if_not_exists:
            return _answer([], [])
        raise EngineError(f"File format {stmt.name} already exists", code=FILE_FORMAT_ALREADY_EXISTS,
                          position=stmt.pos)
    formats[stmt.name] = options
    return _answer([], [])


def drop_stage_object(session, ctx, stmt: A.DropStageObject) -> Result:
    stages = ctx.session.db.stages
    if stmt.kind == "STAGE":
        stages.drop_stage(stmt.name, stmt.if_exists)
    elif stages.file_formats.pop(stmt.name, None) is None and not stmt.if_exists:
        raise EngineError(f"Unknown file format {stmt.name}", code=UNKNOWN_FILE_FORMAT, position=stmt.pos)
    return _answer([], [])


def _utc(epoch: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(epoch, datetime.UTC).replace(tzinfo=None)


def show_stage_objects(session, ctx, stmt: A.ShowStageObjects) -> Result:
    stages = ctx.session.db.stages
    if stmt.kind == "FILE FORMATS":
        return _answer(_FILE_FORMATS, [(name, format_options_text(options))
                                       for name, options in sorted(stages.file_formats.items())])
    if stmt.kind == "STAGES":
        match = like_predicate(stmt.like) if stmt.like is not None else None
        rows = [(s.name, "Internal", len(s.files), f"'{s.creator}'@'%'", _utc(s.created_on), s.comment)
                for name, s in sorted(stages.named.items())
                if (match is None or match(name)) and stage_visible(ctx.access, stages, name)]
        return _answer(_STAGES, rows)
    stage = stages.named.get(stmt.name)
    if stage is None:
        stages.check_stage_name(stmt.name)
    copy = " ".join(f"{k.upper()} = {v}" for k, v in sorted(stage.copy_options.items()))
    return _answer(_DESC_STAGE, [(stage.name, "Internal", "StageParams { storage: Memory }", copy,
                                  format_options_text(stage.file_format), len(stage.files),
                                  f"'{stage.creator}'@'%'", _utc(stage.created_on), stage.comment,
                                  None)])

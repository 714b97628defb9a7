"""Which file format a COPY or a query over a stage reads and writes: named file formats resolved, the
COPY's own FILE_FORMAT, else the stage's, else CSV."""

from __future__ import annotations

from engine.catalog.stages import parse_location
from engine.core.errors import BadArguments, IllegalFileFormat, Unimplemented
from engine.io.stage_load import FileFormat, truthy
from grammar import ast as A


def resolve_file_format(stages, options: dict) -> dict:
    """FILE_FORMAT options with FORMAT_NAME = 'f' replaced by that named format's options."""
    name = options.get("format_name")
    if name is None:
        return options
    named = stages.file_formats.get(name.lower())
    if named is None:
        raise BadArguments(f"Unknown file format {name}")
    return {**named, **{k: v for k, v in options.items() if k != "format_name"}}


def copy_file_format(stages, stage: str, given, pos=None) -> FileFormat:
    """The format a COPY INTO <table> (from a stage or from a query over one) reads the stage's
    files with, and a COPY INTO @stage writes them with, as Databend decides it: the COPY's own
    FILE_FORMAT = (...) when it gives one (it replaces the stage's format, nothing of that is
    kept; it must say TYPE or FORMAT_NAME), else the named stage's format, else CSV."""
    if isinstance(given, str):
        raise BadArguments("FILE_FORMAT takes options in parentheses: FILE_FORMAT = (TYPE = CSV)",
                           position=pos)
    options = {str(k).lower(): str(v) for k, v in given or ()}
    if not options:
        named = stages.named.get(stage)
        return FileFormat.from_options(named.file_format if named is not None else {})
    if "type" not in options and "format_name" not in options:
        raise IllegalFileFormat("Invalid FILE_FORMAT options: FILE_FORMAT must include at least one "
                                "of the TYPE or NAME option. Currently, neither is specified.",
                                position=pos)
    return FileFormat.from_options(resolve_file_format(stages, options))


def stage_source_file(ctx, source):
    """(location, file format, purge, bytes) of `INSERT|REPLACE ... [VALUES (?, ...)] FROM
    @stage[/path] [FILE_FORMAT = (...)] [PURGE = b]`: the format as COPY INTO decides it (its own,
    else the named stage's, else CSV). A VALUES row names the file's fields in order, so only
    `?` items are taken (constants and expressions are refused, 1002)."""
    for item in source.values or ():
        if not isinstance(item, A.Placeholder) or item.name is not None:
            raise Unimplemented("INSERT ... VALUES (...) FROM @stage takes only `?` items here (each "
                                "the file's next field)", position=getattr(item, "pos", None))
    location = parse_location(source.location)
    options = dict(source.options)
    stages = ctx.session.db.stages
    fmt = copy_file_format(stages, location.stage, options.get("file_format"), source.pos)
    return location, fmt, truthy(options.get("purge", "false")), stages.get(ctx.user, location)

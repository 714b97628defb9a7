"""The catalog's definitions as one JSON object (databases, tables without their rows, views,
dropped tables kept for UNDROP, stages and file formats, GLOBAL settings, users, user functions,
sequences and procedures), and the
catalog rebuilt from it: what the data directory's checkpoints and log records hold."""

from __future__ import annotations

import datetime

import grammar
from engine.catalog.catalog import Table, TableColumn, View
from engine.catalog.routines import Procedure, Sequence, SequenceDefault, UserFunction
from engine.catalog.stages import NamedStage
from engine.storage.row_codec import decode_value, encode_value, type_from_json, type_to_json

FORMAT_VERSION = 1


def _time(value: datetime.datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _parse_time(text: str | None) -> datetime.datetime | None:
    return None if text is None else datetime.datetime.fromisoformat(text)


def _column_image(c: TableColumn) -> dict:
    image = {"name": c.name, "type": type_to_json(c.type), "default_sql": c.default_sql, "comment": c.comment}
    if type(c.default) is SequenceDefault:  # DEFAULT nextval(s)
        image["default"], image["sequence"] = None, c.default.name
    else:
        image["default"] = encode_value(c.type, c.default)
    return image


def table_image(table: Table) -> dict:
    return {
        "id": table.table_id, "database": table.database, "name": table.name,
        "columns": [_column_image(c) for c in table.columns],
        "engine": table.engine, "created_on": _time(table.created_on), "comment": table.comment,
        "cluster_by": table.cluster_by, "transient": table.transient,
        "has_null": list(table.has_null), "has_negative": list(table.has_negative),
        "copied_files": [[*key, modified] for key, modified in table.copied_files.items()],
        "constraints": dict(table.constraints), "options": dict(table.options),
    }


def _view_image(view: View) -> dict:
    # the text is SQL as written (or as CREATE VIEW rewrote it for a column list): it parses back
    # to the same query, whatever its syntax
    return {"id": view.table_id, "database": view.database, "name": view.name, "text": view.text,
            "created_on": _time(view.created_on),
            "updated_on": _time(view.updated_on),
            "columns": [[name, type_to_json(t)] for name, t in view.columns]}


def _stage_image(stage: NamedStage) -> dict:
    return {"name": stage.name, "file_format": stage.file_format, "copy_options": stage.copy_options,
            "comment": stage.comment, "creator": stage.creator, "created_on": stage.created_on}


def _routines_image(routines) -> dict:
    """User functions and procedures as their definitions' text; sequences with the bound up to
    which values may have been handed out (a restart starts there)."""
    return {
        "functions": [{"name": f.name, "source": f.source, "created_on": _time(f.created_on),
                       "updated_on": _time(f.updated_on)} for f in routines.functions.values()],
        "sequences": [{"name": q.name, "start": q.start, "increment": q.increment, "comment": q.comment,
                       "next": max(q.current, q.reserved), "created_on": _time(q.created_on),
                       "updated_on": _time(q.updated_on)} for q in routines.sequences.values()],
        "procedures": [{"name": p.name, "source": p.source, "created_on": _time(p.created_on)}
                       for p in routines.procedures.values()],
    }


def _definition(kind: str, name: str, source: str):
    """A user function's or procedure's definition parsed back from its kept text."""
    return grammar.parse(f"CREATE {kind} `{name.replace('`', '``')}` {source}")


def _restore_routines(routines, image: dict | None) -> None:
    routines.functions = {}
    routines.sequences = {}
    routines.procedures = {}
    if image is None:  # an image from before routines were kept
        return
    for data in image["functions"]:
        routines.functions[data["name"]] = UserFunction(
            data["name"], _definition("FUNCTION", data["name"], data["source"]), data["source"],
            _parse_time(data["created_on"]), _parse_time(data["updated_on"]))
    for data in image["sequences"]:
        sequence = Sequence(data["name"], data["start"], data["increment"], data["comment"], owner=routines,
                            current=data["next"], reserved=data["next"],
                            created_on=_parse_time(data["created_on"]), updated_on=_parse_time(data["updated_on"]))
        routines.sequences[sequence.name] = sequence
    for data in image["procedures"]:
        procedure = Procedure(data["name"], _definition("PROCEDURE", data["name"], data["source"]), data["source"],
                              _parse_time(data["created_on"]))
        routines.procedures[procedure.signature] = procedure


def catalog_image(db) -> dict:
    """Everything but rows and staged files, as plain JSON values."""
    catalog = db.catalog
    users = getattr(db, "users", None)
    return {
        "version": FORMAT_VERSION,
        "next_table_id": catalog.peek_table_id(),
        "databases": list(catalog.databases),
        "tables": [table_image(t) for tables in catalog.databases.values() for t in tables.values()],
        "dropped": [table_image(t) for t in catalog.dropped.values()],
        "views": [_view_image(v) for views in catalog.views.values() for v in views.values()],
        "stages": [_stage_image(s) for s in db.stages.named.values()],
        "file_formats": db.stages.file_formats,
        "global_settings": dict(db.global_settings),
        "users": users.snapshot() if users is not None and hasattr(users, "snapshot") else None,
        "routines": _routines_image(catalog.routines),
    }


def _restore_table(data: dict, old: Table | None, routines) -> Table:
    columns = []
    for c in data["columns"]:
        t = type_from_json(c["type"])
        sequence = c.get("sequence")
        default = SequenceDefault(routines, sequence) if sequence is not None else decode_value(t, c["default"])
        columns.append(TableColumn(c["name"], t, default, c["default_sql"], c["comment"]))
    # the rows replayed so far stay; an empty version is made anew, for the columns the image
    # says (an ALTER of an empty table logs no rows, and a version of columns has its width and
    # kinds built in: the next append is of the new columns)
    kept = old.data if old is not None and len(old.data) else None
    table = Table(data["database"], data["name"], columns, data=kept,
                  engine=data["engine"], has_null=list(data["has_null"]), has_negative=list(data["has_negative"]),
                  table_id=data["id"], created_on=_parse_time(data["created_on"]), comment=data["comment"],
                  cluster_by=data["cluster_by"], transient=data["transient"],
                  constraints=dict(data.get("constraints", {})), options=dict(data.get("options", {})))
    table.copied_files = {tuple(entry[:-1]): entry[-1] for entry in data["copied_files"]}
    return table


def _restore_view(data: dict) -> View:
    query = grammar.parse(data["text"])
    view = View(data["database"], data["name"], query, data["text"], table_id=data["id"],
                created_on=_parse_time(data["created_on"]), updated_on=_parse_time(data["updated_on"]))
    view.columns = [(name, type_from_json(t)) for name, t in data["columns"]]
    return view


def tables_by_id(db) -> dict[int, Table]:
    """Every table the catalog holds rows for (live and dropped), by id."""
    catalog = db.catalog
    found = {t.table_id: t for t in catalog.dropped.values()}
    for tables in catalog.databases.values():
        for t in tables.values():
            found[t.table_id] = t
    return found


def restore_catalog(db, image: dict) -> None:
    """Make db's catalog, stages' definitions, settings and users what `image` says; a table
    that was there already (same id) keeps its rows."""
    if image.get("version") != FORMAT_VERSION:
        raise ValueError(f"catalog image version {image.get('version')!r} is not {FORMAT_VERSION}")
    catalog = db.catalog
    old = tables_by_id(db)
    catalog.databases = {name: {} for name in image["databases"]}
    catalog.views = {}
    catalog.dropped = {}
    for data in image["tables"]:
        table = _restore_table(data, old.get(data["id"]), catalog.routines)
        catalog.databases[table.database][table.name] = table
    for data in image["dropped"]:
        table = _restore_table(data, old.get(data["id"]), catalog.routines)
        catalog.dropped[(table.database, table.name)] = table
    for data in image["views"]:
        view = _restore_view(data)
        catalog.views.setdefault(view.database, {})[view.name] = view
    catalog.reset_table_ids(image["next_table_id"])
    _restore_routines(catalog.routines, image.get("routines"))
    stages = db.stages
    kept_files = {name: s.files for name, s in stages.named.items()}
    stages.named = {}
    for data in image["stages"]:
        stage = NamedStage(data["name"], data["file_format"], data["copy_options"], data["comment"],
                           data["creator"], data["created_on"])
        stage.files = kept_files.get(stage.name, {})
        stages.named[stage.name] = stage
    stages.recount()
    stages.file_formats = dict(image["file_formats"])
    db.global_settings.clear()
    db.global_settings.update(image["global_settings"])
    users = getattr(db, "users", None)
    if image.get("users") is not None and users is not None and hasattr(users, "restore"):
        users.restore(image["users"])

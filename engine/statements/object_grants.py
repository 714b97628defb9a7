"""GRANT / REVOKE on the objects beyond tables and stages: ON UDF f (USAGE), ON WAREHOUSE w
(USAGE), ON CONNECTION c (ACCESS CONNECTION), ON SEQUENCE s (ACCESS SEQUENCE), as Databend keeps
them (engine.catalog.users holds them as a principal's `object_grants`); SHOW GRANTS ON <object>.

They are kept and shown; nothing here checks them yet (calling a UDF or nextval needs no
privilege, there are no warehouses or connections), as SHOW GRANTS is what Databend's tests read."""

from __future__ import annotations

from engine.catalog.users import ACCOUNT_ADMIN, identity, privileges_text
from engine.core.errors import ILLEGAL_GRANT, ILLEGAL_USER, UNKNOWN_UDF, EngineError
from engine.exec.result import Column, Progress, Result
from engine.types import sqltype as T

# what each kind of object can be granted (ALL: all of them)
OBJECT_PRIVILEGES = {"UDF": ("USAGE",), "WAREHOUSE": ("USAGE",), "CONNECTION": ("ACCESS CONNECTION",),
                     "SEQUENCE": ("ACCESS SEQUENCE",)}
SHOW_GRANTS_COLUMNS = [("privileges", T.STRING), ("object_name", T.STRING),
                       ("object_id", T.UINT64.as_nullable(True)), ("grant_to", T.STRING), ("name", T.STRING),
                       ("grants", T.STRING.as_nullable(True))]


def _result(names_types, rows) -> Result:
    return Result([Column(n, t.display()) for n, t in names_types], iter([list(rows)]), progress=Progress(),
                  types=[t for _, t in names_types])


def grant_on_object(ctx, store, stmt) -> Result:
    """GRANT | REVOKE privileges ON UDF | WAREHOUSE | CONNECTION | SEQUENCE name TO | FROM grantee."""
    kind, name = stmt.object
    allowed = OBJECT_PRIVILEGES[kind]
    words = set(allowed) if "ALL" in stmt.privileges else set(stmt.privileges)
    if not words <= set(allowed):  # OWNERSHIP among them: ownership is not granted here
        raise EngineError("Illegal GRANT/REVOKE command; please consult the manual to see which privileges "
                          "can be used", code=ILLEGAL_GRANT, position=stmt.pos)
    if stmt.grantee_kind == "USER" and kind != "UDF":
        raise EngineError(f"{kind.lower()} privileges can only be granted to a role, not to user "
                          f"{identity(stmt.grantee)}", code=ILLEGAL_USER, position=stmt.pos)
    routines = ctx.catalog.routines
    if kind == "UDF" and routines.function(name) is None:
        raise EngineError(f"UDF not found: '{name}'", code=UNKNOWN_UDF, position=stmt.pos)
    if kind == "SEQUENCE":
        routines.sequence(name, stmt.pos)  # 1126 for an unknown one
    verb, what = ("revoke", "privileges from") if stmt.revoke else ("grant", "privileges to")
    record = store.grantee(stmt.grantee_kind, stmt.grantee, verb, what, stmt.pos)
    store.change_object_privileges(record, kind, name, words, grant=not stmt.revoke)
    return _result([], [])


def object_grant_rows(store, own: dict, granted, kind: str, name: str, shown_as: str) -> list[tuple]:
    """SHOW GRANTS FOR's rows of the object grants a principal holds (`own`) or gets through its
    roles (`granted` and the roles they hold)."""
    held = {key: set(words) for key, words in own.items()}
    for role in store.related_roles(granted):
        for key, words in store.roles[role].get("object_grants", {}).items():
            held.setdefault(key, set()).update(words)
    rows = []
    for (object_kind, object_name), words in sorted(held.items()):
        privileges = ",".join(sorted(words))
        rows.append((privileges, object_name, None, kind, name,
                     f"GRANT {privileges} ON {object_kind} {object_name} TO {shown_as}"))
    return rows


def show_grants_on(store, stmt) -> Result:
    """SHOW GRANTS ON UDF | STAGE | WAREHOUSE | CONNECTION | SEQUENCE name: each role holding a
    privilege on it (by name), then its owner (account_admin here: objects have no other owner)."""
    kind, name = stmt.grantee_kind, stmt.grantee
    rows = []
    for role, record in sorted(store.roles.items()):
        if kind == "STAGE":
            mask = record["stage_grants"].get(name)
            privileges = privileges_text(mask, None) if mask else None
        else:
            words = record.get("object_grants", {}).get((kind, name))
            privileges = ",".join(sorted(words)) if words else None
        if privileges:
            rows.append((privileges, name, None, "ROLE", role, ""))
    rows.append(("OWNERSHIP", name, None, "ROLE", ACCOUNT_ADMIN, ""))
    return _result(SHOW_GRANTS_COLUMNS, rows)

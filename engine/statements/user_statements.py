"""Users, roles and privileges as statements: CREATE / ALTER / DROP / DESCRIBE USER, CREATE / DROP
ROLE, GRANT, REVOKE, SHOW USERS / ROLES / GRANTS, SET ROLE, and the system.users / system.roles rows
(engine.catalog.users holds the state; engine.catalog.privileges says who may run what)."""

from __future__ import annotations

from engine.catalog.passwords import hash_password
from engine.catalog.users import (
    ACCOUNT_ADMIN,
    GLOBAL,
    GRANT,
    PRIVILEGE_BITS,
    SHOW_ROLES_COLUMNS,
    STAGE_PRIVILEGES,
    USERS_COLUMNS,
    available_privileges,
    identity,
    object_text,
    privileges_text,
    show_roles_rows,
    users_rows,
)
from engine.core.errors import (
    ILLEGAL_GRANT,
    ILLEGAL_ROLE,
    ILLEGAL_USER,
    EngineError,
    PermissionDenied,
    UnknownDatabase,
    UnknownStage,
)
from engine.exec.result import Column, Progress, Result
from engine.runtime.helpers import check_like_pattern, like_predicate
from engine.statements.object_grants import grant_on_object, object_grant_rows, show_grants_on
from engine.types import sqltype as T
from grammar import ast as A

_S = T.STRING
_NULLABLE_S = T.STRING.as_nullable(True)

SHOW_USERS_COLUMNS = ("name", "hostname", "auth_type", "is_configured", "default_role", "roles", "disabled",
                      "network_policy", "password_policy", "must_change_password")
# DESC USER as current Databend answers it
DESCRIBE_USER_COLUMNS = [
    ("name", _S), ("hostname", _S), ("auth_type", _S), ("default_role", _S), ("default_warehouse", _S),
    ("roles", _S), ("disabled", T.BOOLEAN), ("network_policy", _NULLABLE_S), ("password_policy", _NULLABLE_S),
    ("must_change_password", T.BOOLEAN.as_nullable(True)), ("workload_group", _NULLABLE_S),
    ("public_keys", T.UINT64.as_nullable(True)),
]
SHOW_GRANTS_COLUMNS = [("privileges", _S), ("object_name", _S), ("object_id", T.UINT64.as_nullable(True)),
                       ("grant_to", _S), ("name", _S), ("grants", _NULLABLE_S)]


def _result(names_types=(), rows=()) -> Result:
    schema = [Column(n, t.display()) for n, t in names_types]
    return Result(schema, iter([list(rows)] if names_types else ()), progress=Progress(),
                  types=[t for _, t in names_types])


def _store(ctx):
    return ctx.session.db.users


# what a user or role name may not hold (Databend's illegal_ident_name: quotes, \b and \f)
_ILLEGAL_NAME_CHARACTERS = frozenset("'\"\b\f")


def _checked_user_name(name: str, pos) -> str:
    if not _ILLEGAL_NAME_CHARACTERS.isdisjoint(name):
        raise EngineError(f"Illegal Username: Illegal user name [{name}], not support username contain ' or \"",
                          code=ILLEGAL_USER, position=pos)
    return name


def _checked_role_name(name: str, pos) -> str:
    if not _ILLEGAL_NAME_CHARACTERS.isdisjoint(name):
        raise EngineError(f"Illegal Role Name: Illegal role name [{name}], not support username contain ' or \"",
                          code=ILLEGAL_ROLE, position=pos)
    return name


# ---------------------------------------------------------------- users and roles


def create_user(session, ctx, stmt: A.CreateUser) -> Result:
    store = _store(ctx)
    name = _checked_user_name(stmt.name, stmt.pos)
    if stmt.if_not_exists and name in store.users:
        return _result()  # no hashing for nothing
    store.create_user(name, stmt.auth_type, hash_password(stmt.password), stmt.default_role or "",
                      stmt.if_not_exists, stmt.or_replace, stmt.pos, disabled=bool(stmt.disabled),
                      default_warehouse=stmt.default_warehouse or "")
    return _result()


def alter_user(session, ctx, stmt: A.AlterUser) -> Result:
    store = _store(ctx)
    store.check_not_bootstrap(stmt.name, stmt.pos)
    store.user(stmt.name, stmt.pos)
    changes = {}
    if stmt.password is not None:
        changes.update(auth_type=stmt.auth_type, password=hash_password(stmt.password))
    if stmt.default_role is not None:
        changes["default_role"] = stmt.default_role
    if stmt.disabled is not None:
        changes["disabled"] = stmt.disabled
    if stmt.default_warehouse is not None:
        changes["default_warehouse"] = stmt.default_warehouse
    store.alter_user(stmt.name, stmt.pos, **changes)
    return _result()


def describe_user(session, ctx, stmt: A.DescribeUser) -> Result:
    """One row of the user's settings (SUPER on *.* was checked: engine.catalog.privileges)."""
    store = _store(ctx)
    name = stmt.name
    if name in store.bootstrap:
        encoded = store.bootstrap[name]
        row = (name, "%", "no_password" if encoded is None else "sha256_password", ACCOUNT_ADMIN, "",
               ACCOUNT_ADMIN, False)
    else:
        u = store.user(name, stmt.pos)
        row = (name, "%", u["auth_type"], u["default_role"], u.get("default_warehouse", ""),
               ", ".join(sorted(u["roles"])), u["disabled"])
    return _result(DESCRIBE_USER_COLUMNS, [row + (None, None, None, None, None)])


def drop_user(session, ctx, stmt: A.DropUser) -> Result:
    _store(ctx).drop_user(stmt.name, stmt.if_exists, stmt.pos)
    return _result()


def create_role(session, ctx, stmt: A.CreateRole) -> Result:
    _store(ctx).create_role(_checked_role_name(stmt.name, stmt.pos), stmt.if_not_exists, stmt.pos,
                            comment=stmt.comment or "")
    return _result()


def alter_role(session, ctx, stmt: A.AlterRole) -> Result:
    _store(ctx).set_role_comment(stmt.name, stmt.comment or "", stmt.if_exists, stmt.pos)
    return _result()


def drop_role(session, ctx, stmt: A.DropRole) -> Result:
    _store(ctx).drop_role(stmt.name, stmt.if_exists, stmt.pos)
    return _result()


def set_role(session, ctx, stmt: A.SetRole) -> Result:
    session.set_role(stmt.name, stmt.pos)
    return _result()


# ---------------------------------------------------------------- GRANT / REVOKE


def _grant_object(ctx, on: tuple, pos) -> tuple:
    """The object key of `*.*`, `db.*`, `db.t` or `t`; the database or table must exist."""
    catalog = ctx.catalog
    if on == ("*", "*"):
        return GLOBAL
    if on[-1] == "*":
        db = on[0]
        if not catalog.has_database(db):
            raise UnknownDatabase(f"Unknown database '{db}'", position=pos)
        return (db, None)
    db, name = ctx.resolve_table_name(on)
    if db.lower() not in ("system", "information_schema"):
        view = catalog.view(db, name) if db in catalog.databases else None
        name = view.name if view is not None else catalog.table(db, name, pos).name
    return (db, name)


def grant_privileges(session, ctx, stmt: A.GrantPrivileges) -> Result:
    store = _store(ctx)
    if stmt.object is not None:  # ON UDF | WAREHOUSE | CONNECTION | SEQUENCE (engine.statements.object_grants)
        return grant_on_object(ctx, store, stmt)
    if stmt.stage is not None:  # ON STAGE s: READ, WRITE or ALL; the stage must exist
        if stmt.stage not in ctx.session.db.stages.named:
            raise UnknownStage(f"stage {stmt.stage} not exists", position=stmt.pos)
        key, available, field = stmt.stage, STAGE_PRIVILEGES, "stage_grants"
    else:
        key = _grant_object(ctx, stmt.on, stmt.pos)
        available, field = available_privileges(key), "grants"
    mask = 0
    for word in stmt.privileges:
        mask |= available if word == "ALL" else PRIVILEGE_BITS[word]
    if mask & ~available:
        raise EngineError("Illegal GRANT/REVOKE command; please consult the manual to see which privileges "
                          "can be used", code=ILLEGAL_GRANT, position=stmt.pos)
    if stmt.revoke and stmt.grantee_kind == "ROLE" and stmt.grantee == ACCOUNT_ADMIN:
        raise EngineError("Illegal REVOKE command. Can not revoke built-in role [ account_admin ]",
                          code=ILLEGAL_GRANT, position=stmt.pos)
    verb, what = ("revoke", "privileges from") if stmt.revoke else ("grant", "privileges to")
    record = store.grantee(stmt.grantee_kind, stmt.grantee, verb, what, stmt.pos)
    store.change_privileges(record, key, mask, grant=not stmt.revoke, field=field)
    return _result()


def grant_role(session, ctx, stmt: A.GrantRole) -> Result:
    store = _store(ctx)
    verb, what = ("revoke", "role from") if stmt.revoke else ("grant", "role to")
    if not stmt.revoke:
        store.role(stmt.role, stmt.pos)
    record = store.grantee(stmt.grantee_kind, stmt.grantee, verb, what, stmt.pos)
    if stmt.revoke:
        store.revoke_role(record, stmt.role)
    else:
        store.grant_role(record, stmt.role, stmt.grantee if stmt.grantee_kind == "ROLE" else None, stmt.pos)
    return _result()


# ---------------------------------------------------------------- SHOW and system tables


def show_accounts(session, ctx, stmt: A.ShowAccounts) -> Result:
    if stmt.kind == "USERS":
        positions = [[n for n, _ in USERS_COLUMNS].index(name) for name in SHOW_USERS_COLUMNS]
        rows = sorted((tuple(row[i] for i in positions) for row in users_rows(ctx)), key=lambda r: r[0])
        return _result([USERS_COLUMNS[i] for i in positions], rows)
    if stmt.kind == "ROLES":
        return _show_roles(session, ctx, stmt)
    if stmt.kind == "GRANTS_OF":
        return _show_role_grantees(ctx, stmt)
    if stmt.kind == "GRANTS_ON":
        access = ctx.access
        if access is not None and not access.allows(GRANT):
            _refuse_show_grants(_store(ctx), session.user, stmt.pos)
        return show_grants_on(_store(ctx), stmt)
    return _show_grants(session, ctx, stmt)


def _show_role_grantees(ctx, stmt) -> Result:
    """SHOW GRANTS OF ROLE r (Databend's show_grants('role_grantee', r)): the users holding r,
    then the roles holding it; GRANT on *.* needed, as for SHOW GRANTS FOR another."""
    store = _store(ctx)
    access = ctx.access
    if access is not None and not access.allows(GRANT):
        _refuse_show_grants(store, ctx.session.user, stmt.pos)
    name = stmt.grantee
    store.role(name, stmt.pos)  # 2204 for an unknown role
    rows = [(name, "USER", user) for user, record in sorted(store.users.items()) if name in record["roles"]]
    rows += [(name, "ROLE", role) for role, record in sorted(store.roles.items()) if name in record["roles"]]
    return _result([("role", _S), ("granted_to", _S), ("grantee_name", _S)], rows)


def _show_roles(session, ctx, stmt) -> Result:
    match = None
    if stmt.like is not None:
        check_like_pattern(stmt.like, ctx.limits.like_pattern_chars)
        match = like_predicate(stmt.like)
    return _result(SHOW_ROLES_COLUMNS, show_roles_rows(ctx, match))


def _show_grants(session, ctx, stmt) -> Result:
    store = _store(ctx)
    user = session.user
    access = ctx.access
    kind, name = stmt.grantee_kind or "USER", stmt.grantee or user
    may_grant = access is None or access.allows(GRANT)
    if kind == "USER":
        if name not in store.bootstrap:
            store.user(name, stmt.pos)
        if name != user and not may_grant:
            _refuse_show_grants(store, user, stmt.pos)
        if name in store.bootstrap:
            own, own_stages, granted, own_objects = {}, {}, {ACCOUNT_ADMIN}, {}
        else:
            record = store.users[name]
            own, own_stages, granted = record["grants"], record["stage_grants"], record["roles"]
            own_objects = record.get("object_grants", {})
        shown_as = identity(name)
    else:
        if name not in store.available_roles(user) and not may_grant:
            _refuse_show_grants(store, user, stmt.pos)
        record = store.role(name, stmt.pos)
        own, own_stages, granted = record["grants"], record["stage_grants"], record["roles"]
        own_objects = record.get("object_grants", {})
        shown_as = f"ROLE `{name}`"
    grants, stage_grants = dict(own), dict(own_stages)
    for role in store.related_roles(granted):
        for held, theirs in ((grants, store.roles[role]["grants"]), (stage_grants, store.roles[role]["stage_grants"])):
            for key, mask in theirs.items():
                held[key] = held.get(key, 0) | mask
    rows = []
    for key, mask in sorted(grants.items(), key=_grant_order):
        privileges = privileges_text(mask, key)
        db, table = key
        object_name = "*.*" if db is None else f"default.{db}.*" if table is None else f"default.{db}.{table}"
        rows.append((privileges, object_name, None, kind, name,
                     f"GRANT {privileges} ON {object_text(key)} TO {shown_as}"))
    for stage, mask in sorted(stage_grants.items()):  # after the other objects, as Databend lists them
        privileges = privileges_text(mask, None)
        rows.append((privileges, stage, None, kind, name, f"GRANT {privileges} ON STAGE {stage} TO {shown_as}"))
    rows += object_grant_rows(store, own_objects, granted, kind, name, shown_as)
    return _result(SHOW_GRANTS_COLUMNS, rows)


def _grant_order(item) -> tuple:
    (db, table), _ = item
    return (db is not None, db or "", table is not None, table or "")


def _refuse_show_grants(store, user: str, pos) -> None:
    record = store.users.get(user)
    roles = ",".join(sorted(record["roles"])) if record is not None else ""
    raise PermissionDenied(f"Permission denied: privilege [Grant] is required on *.* for user {identity(user)} "
                           f"with roles [{roles}]", position=pos)


USER_HANDLERS = {
    A.CreateUser: create_user,
    A.AlterUser: alter_user,
    A.DropUser: drop_user,
    A.DescribeUser: describe_user,
    A.CreateRole: create_role,
    A.DropRole: drop_role,
    A.AlterRole: alter_role,
    A.SetRole: set_role,
    A.GrantPrivileges: grant_privileges,
    A.GrantRole: grant_role,
    A.ShowAccounts: show_accounts,
}

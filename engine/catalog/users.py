"""Users, roles and their privileges (Databend's model): the store a Database owns as `db.users`.

Privileges are bit masks (Databend's UserPrivilegeType bits) granted on an object: `*.*`
(GLOBAL), a database (`db.*`) or a table (`db.t`). A user holds its own grants and roles; a
role holds grants and other roles. `account_admin` (every privilege, and every role) and
`public` (every user has it) always exist. Bootstrap users (root and the server's configured
users) have account_admin and cannot be dropped or altered by SQL.

`snapshot()` is a JSON-serialisable dict of everything SQL changed; `restore(data)` rebuilds
exactly that state (`version` counts the changes, so an unchanged store need not be
snapshotted again). `access(user)` answers the privilege checks of a statement (None for an
administrator: nothing to check), from a cache cleared by every change.
"""

from __future__ import annotations

import datetime
import time

from engine.core.errors import (
    ILLEGAL_ROLE,
    INVALID_ROLE,
    ROLE_ALREADY_EXISTS,
    UNKNOWN_ROLE,
    UNKNOWN_USER,
    USER_ALREADY_EXISTS,
    EngineError,
    PermissionDenied,
)
from engine.types import sqltype as T

CREATE = 1 << 1
SELECT = 1 << 2
INSERT = 1 << 3
UPDATE = 1 << 5
DELETE = 1 << 6
DROP = 1 << 7
ALTER = 1 << 8
SUPER = 1 << 9
GRANT = 1 << 12
USAGE = 1 << 0  # only ALL grants it (on a database or *.*), as Databend's ALL does
READ = 1 << 18  # stages: LIST, SELECT FROM @s, COPY INTO t FROM @s, PRESIGN DOWNLOAD
WRITE = 1 << 19  # stages: REMOVE, COPY INTO @s, PRESIGN UPLOAD, uploads
# in bit order, as Databend lists them; the second name is its Debug form (error messages)
PRIVILEGES = (
    ("USAGE", "Usage", USAGE),
    ("CREATE", "Create", CREATE), ("SELECT", "Select", SELECT), ("INSERT", "Insert", INSERT),
    ("UPDATE", "Update", UPDATE), ("DELETE", "Delete", DELETE), ("DROP", "Drop", DROP),
    ("ALTER", "Alter", ALTER), ("SUPER", "Super", SUPER), ("GRANT", "Grant", GRANT),
    ("READ", "Read", READ), ("WRITE", "Write", WRITE),
)
PRIVILEGE_BITS = {name: bit for name, _, bit in PRIVILEGES}
# how SHOW GRANTS writes a privilege: the keyword, but Read and Write as Databend displays them
_SHOWN = {bit: (debug if bit in (READ, WRITE) else name) for name, debug, bit in PRIVILEGES}
# what ALL grants on a table, a database, a stage and *.* (which covers every stage too)
TABLE_PRIVILEGES = CREATE | SELECT | INSERT | UPDATE | DELETE | DROP | ALTER | GRANT
DATABASE_PRIVILEGES = TABLE_PRIVILEGES | USAGE
STAGE_PRIVILEGES = READ | WRITE
GLOBAL_PRIVILEGES = DATABASE_PRIVILEGES | SUPER | STAGE_PRIVILEGES

ACCOUNT_ADMIN = "account_admin"
PUBLIC = "public"
BUILTIN_ROLES = (ACCOUNT_ADMIN, PUBLIC)
GLOBAL = (None, None)  # the object *.*; (db, None) is db.*, (db, table) a table
AUTH_TYPES = ("double_sha1_password", "sha256_password")
CREATE_NOTE = (". Note: Please ensure that your current role have the appropriate permissions to "
               "create a new Warehouse|Database|Table|UDF|Stage.")
# current Databend's note after a refused stage privilege
OBJECT_NOTE = (". Note: Please ensure that your current role have the appropriate permissions to "
               "create a new Object")


def identity(user: str) -> str:
    """A user as Databend shows it: 'name'@'%'."""
    return f"'{user}'@'%'"


def object_text(key: tuple) -> str:
    """An object as in GRANT statements and messages: *.*, 'default'.'db'.* or 'default'.'db'.'t'."""
    db, table = key
    if db is None:
        return "*.*"
    return f"'default'.'{db}'.*" if table is None else f"'default'.'{db}'.'{table}'"


def available_privileges(key: tuple) -> int:
    """What ALL means on the object `key`."""
    db, table = key
    return GLOBAL_PRIVILEGES if db is None else DATABASE_PRIVILEGES if table is None else TABLE_PRIVILEGES


def privileges_text(mask: int, key: tuple | None) -> str:
    """SELECT,INSERT ... in Databend's order, ALL when the mask holds all of the object's
    (`key` None: a stage)."""
    every = STAGE_PRIVILEGES if key is None else available_privileges(key)
    if mask & every == every:
        return "ALL"
    return ",".join(_SHOWN[bit] for _, _, bit in PRIVILEGES if mask & bit)


class Access:
    """The privileges of one user: its grants and those of all its roles, merged."""

    __slots__ = ("user", "roles_text", "grants", "stage_grants")

    def __init__(self, user: str, roles: list[str], grants: dict, stage_grants: dict | None = None):
        self.user = user
        self.roles_text = ",".join(roles)
        self.grants = grants
        self.stage_grants = stage_grants or {}  # stage name -> mask (GRANT ... ON STAGE s)

    def allows_stage(self, privilege: int, stage: str) -> bool:
        """The privilege on the named stage: granted on it, or on *.* (which covers every stage)."""
        return bool((self.grants.get(GLOBAL, 0) | self.stage_grants.get(stage, 0)) & privilege)

    def require_stage(self, privilege: int, stage: str, pos=None) -> None:
        """PermissionDenied (1063) with current Databend's text unless the privilege is held."""
        if self.allows_stage(privilege, stage):
            return
        name = next(debug for _, debug, bit in PRIVILEGES if bit == privilege)
        raise PermissionDenied(f"Permission denied: privilege [{name}] is required on STAGE {stage} for user "
                               f"{identity(self.user)} with roles [{self.roles_text}]{OBJECT_NOTE}",
                               position=pos)

    def allows(self, privilege: int, db: str | None = None, table: str | None = None) -> bool:
        grants = self.grants
        mask = grants.get(GLOBAL, 0)
        if db is not None:
            mask |= grants.get((db, None), 0)
            if table is not None:
                mask |= grants.get((db, table), 0)
        return bool(mask & privilege)

    def require(self, privilege: int, db: str | None = None, table: str | None = None, pos=None) -> None:
        """PermissionDenied (1063) with Databend's text unless the privilege is held on the object."""
        if self.allows(privilege, db, table):
            return
        name = next(debug for _, debug, bit in PRIVILEGES if bit == privilege)
        text = (f"Permission denied: privilege [{name}] is required on {object_text((db, table))} "
                f"for user {identity(self.user)} with roles [{self.roles_text}]")
        if table is None:
            text += CREATE_NOTE
        raise PermissionDenied(text, position=pos)


def _new_principal(now: int, **fields) -> dict:
    return {"roles": set(), "grants": {}, "stage_grants": {}, "object_grants": {}, "created_on": now,
            "update_on": now, **fields}


class UserStore:
    """SQL users and roles, the bootstrap users, and the access cache (one thread only)."""

    def __init__(self, clock=time.time):
        self.clock = clock
        # name -> encoded password hash, or None (root without a password); not in snapshots
        self.bootstrap: dict[str, str | None] = {"root": None}
        self.users: dict[str, dict] = {}
        self.roles: dict[str, dict] = {}
        self._access: dict[str, Access | None] = {}
        # counts the changes: a snapshot need not be taken again while it stays the same
        self.version = 0
        self._add_builtin_roles()

    def _now(self) -> int:
        return int(self.clock() * 1_000_000)

    def _add_builtin_roles(self) -> None:
        now = self._now()
        for name in BUILTIN_ROLES:
            if name not in self.roles:
                self.roles[name] = _new_principal(now, comment="")
        self.roles[ACCOUNT_ADMIN]["grants"] = {GLOBAL: GLOBAL_PRIVILEGES}

    def changed(self) -> None:
        self._access.clear()
        self.version += 1

    # ------------------------------------------------------------ bootstrap users

    def add_bootstrap_users(self, users: dict[str, str | None]) -> None:
        """Users of the server's users file (name -> hash): administrators SQL cannot drop."""
        self.bootstrap.update(users)
        self.changed()

    def is_bootstrap(self, user: str) -> bool:
        return user in self.bootstrap

    def password_hash(self, user: str) -> str | None:
        """The stored hash of a SQL user (None: no such SQL user)."""
        record = self.users.get(user)
        return record["password"] if record is not None else None

    def is_disabled(self, user: str) -> bool:
        """Whether the SQL user `user` may not log in (DISABLED = true)."""
        record = self.users.get(user)
        return record is not None and record["disabled"]

    # ------------------------------------------------------------ roles of a user

    def related_roles(self, names) -> set[str]:
        """`names` and every role they contain, transitively (account_admin contains all);
        names of roles that no longer exist are left out."""
        seen: set[str] = set()
        stack = list(names)
        while stack:
            name = stack.pop()
            if name in seen or name not in self.roles:
                continue
            seen.add(name)
            if name == ACCOUNT_ADMIN:
                stack.extend(self.roles)
            else:
                stack.extend(self.roles[name]["roles"])
        return seen

    def available_roles(self, user: str) -> set[str]:
        """The roles a session of `user` may use (SET ROLE) and whose privileges it has."""
        if user in self.bootstrap:
            return set(self.roles)
        record = self.users.get(user)
        granted = record["roles"] if record is not None else ()
        return self.related_roles([*granted, PUBLIC])

    def default_role(self, user: str) -> str:
        """The user's DEFAULT_ROLE as set ('' when none); account_admin for bootstrap users."""
        if user in self.bootstrap:
            return ACCOUNT_ADMIN
        record = self.users.get(user)
        return (record or {}).get("default_role") or ""

    def current_role(self, user: str, chosen: str | None) -> str:
        """The session's role: the one SET ROLE chose (public once it is no longer available),
        else the user's default role when available, else public."""
        if user in self.bootstrap:  # every role is available to them (no set built per statement)
            role = ACCOUNT_ADMIN if chosen is None else chosen
            return role if role in self.roles else PUBLIC
        available = self.available_roles(user)
        if chosen is not None:
            return chosen if chosen in available else PUBLIC
        default = self.default_role(user)
        return default if default and default in available else PUBLIC

    def require_available_role(self, user: str, role: str, pos=None) -> None:
        """InvalidRole (2206) unless a session of `user` may SET ROLE `role`."""
        available = self.available_roles(user)
        if role not in available:
            raise EngineError(f"Invalid role {role} for current session, available: "
                              f"{','.join(sorted(available))}", code=INVALID_ROLE, position=pos)

    def current_role_access(self, user: str, role: str) -> Access:
        """The privileges of `user` through its own grants and its current `role` only (with the
        roles that role holds), for the checks Databend makes on the current role alone."""
        roles = self.related_roles([role])
        grants: dict = {GLOBAL: GLOBAL_PRIVILEGES} if ACCOUNT_ADMIN in roles else {}
        return Access(user, [role], self._merged_grants(user, roles, grants),
                      self._merged_grants(user, roles, {}, "stage_grants"))

    def _merged_grants(self, user: str, roles, grants: dict, field: str = "grants") -> dict:
        """`grants` with the user's own grants and those of `roles` added (masks or-ed);
        `field`: "grants" (objects *.*, databases, tables) or "stage_grants" (stage names)."""
        record = self.users.get(user)
        sources = [self.roles[r][field] for r in roles]
        if record is not None:
            sources.append(record[field])
        for source in sources:
            for key, mask in source.items():
                grants[key] = grants.get(key, 0) | mask
        return grants

    def access(self, user: str) -> Access | None:
        """What `user` may do; None for an administrator (every check passes)."""
        try:
            return self._access[user]
        except KeyError:
            pass
        if user in self.bootstrap:
            result = None
        else:
            roles = self.available_roles(user)
            if ACCOUNT_ADMIN in roles:
                result = None
            else:
                result = Access(user, sorted(roles), self._merged_grants(user, roles, {}),
                                self._merged_grants(user, roles, {}, "stage_grants"))
        if len(self._access) > 4096:
            self._access.clear()
        self._access[user] = result
        return result

    # ------------------------------------------------------------ changes (SQL statements)

    def user(self, name: str, pos=None) -> dict:
        record = self.users.get(name)
        if record is None:
            raise EngineError(f"User {identity(name)} does not exist.", code=UNKNOWN_USER, position=pos)
        return record

    def role(self, name: str, pos=None) -> dict:
        record = self.roles.get(name)
        if record is None:
            raise EngineError(f"Role '{name}' does not exist.", code=UNKNOWN_ROLE, position=pos)
        return record

    def create_user(self, name: str, auth_type: str, password_hash: str, default_role: str,
                    if_not_exists: bool = False, or_replace: bool = False, pos=None,
                    disabled: bool = False, default_warehouse: str = "") -> None:
        if name in self.bootstrap:
            raise EngineError(f"Same name with configured user `{name}`", code=USER_ALREADY_EXISTS,
                              position=pos)
        if name in self.users and not or_replace:
            if if_not_exists:
                return
            raise EngineError(f"User {identity(name)} already exists.", code=USER_ALREADY_EXISTS,
                              position=pos)
        self.users[name] = _new_principal(self._now(), auth_type=auth_type, password=password_hash,
                                          default_role=default_role, disabled=disabled,
                                          default_warehouse=default_warehouse)
        self.changed()

    def alter_user(self, name: str, pos=None, **changes) -> None:
        """Set a user's password (auth_type, password), default_role and/or disabled."""
        self.check_not_bootstrap(name, pos)
        record = self.user(name, pos)
        record.update(changes)
        record["update_on"] = self._now()
        self.changed()

    def drop_user(self, name: str, if_exists: bool, pos=None) -> None:
        if name in self.bootstrap:
            raise EngineError(f"Built-in user `{name}` cannot be dropped", code=USER_ALREADY_EXISTS,
                              position=pos)
        if self.users.pop(name, None) is None and not if_exists:
            raise EngineError(f"User {identity(name)} does not exist.", code=UNKNOWN_USER, position=pos)
        self.changed()

    def set_role_comment(self, name: str, comment: str, if_exists: bool, pos=None) -> None:
        """ALTER ROLE [IF EXISTS] r SET COMMENT = '...' (UNSET COMMENT: comment '')."""
        role = self.roles.get(name)
        if role is None:
            if if_exists:
                return
            raise EngineError(f"Role '{name}' does not exist.", code=UNKNOWN_ROLE, position=pos)
        role["comment"] = comment
        role["update_on"] = self._now()
        self.changed()

    def create_role(self, name: str, if_not_exists: bool, pos=None, comment: str = "") -> None:
        if name.lower() in BUILTIN_ROLES:
            raise EngineError("Illegal Create Role command. Can not create built-in role "
                              "[ account_admin | public ]", code=ILLEGAL_ROLE, position=pos)
        if name in self.roles:
            if if_not_exists:
                return
            raise EngineError(f"Role '{name}' already exists", code=ROLE_ALREADY_EXISTS, position=pos)
        self.roles[name] = _new_principal(self._now(), comment=comment)
        self.changed()

    def drop_role(self, name: str, if_exists: bool, pos=None) -> None:
        if name.lower() in BUILTIN_ROLES:
            raise EngineError("Illegal Drop Role command. Can not drop built-in role "
                              "[ account_admin | public ]", code=ILLEGAL_ROLE, position=pos)
        if self.roles.pop(name, None) is None and not if_exists:
            raise EngineError(f"Role '{name}' does not exist (while drop role)", code=UNKNOWN_ROLE,
                              position=pos)
        self.changed()

    def grantee(self, kind: str, name: str, verb: str, what: str, pos=None) -> dict:
        """The record of USER or ROLE `name` that a GRANT or REVOKE changes."""
        if kind == "ROLE":
            return self.role(name, pos)
        if name in self.bootstrap:
            raise EngineError(f"Cannot {verb} {what} built-in user `{name}`", code=USER_ALREADY_EXISTS,
                              position=pos)
        return self.user(name, pos)

    def check_not_bootstrap(self, name: str, pos=None) -> None:
        if name in self.bootstrap:
            raise EngineError(f"Built-in user `{name}` cannot be updated", code=USER_ALREADY_EXISTS,
                              position=pos)

    def change_privileges(self, record: dict, key, mask: int, grant: bool, field: str = "grants") -> None:
        """GRANT (or REVOKE) `mask` on `key`: an object of "grants" ((db, table)) or, with
        field="stage_grants", a stage name."""
        grants = record[field]
        held = grants.get(key, 0)
        held = held | mask if grant else held & ~mask
        if held:
            grants[key] = held
        else:
            grants.pop(key, None)
        record["update_on"] = self._now()
        self.changed()

    def change_object_privileges(self, record: dict, kind: str, name: str, words: set, grant: bool) -> None:
        """GRANT (or REVOKE) privileges (their names) on a UDF, warehouse, connection or sequence."""
        grants = record.setdefault("object_grants", {})
        held = set(grants.get((kind, name), ()))
        held = held | words if grant else held - words
        if held:
            grants[(kind, name)] = sorted(held)
        else:
            grants.pop((kind, name), None)
        record["update_on"] = self._now()
        self.changed()

    def grant_role(self, record: dict, role: str, target_role: str | None, pos=None) -> None:
        """GRANT ROLE `role` TO the record (a user, or the role `target_role`)."""
        self.role(role, pos)
        if target_role is not None and target_role in self.related_roles([role]):
            raise EngineError(f"{role} contains {target_role}, can not be grant to {target_role}",
                              code=INVALID_ROLE, position=pos)
        record["roles"].add(role)
        record["update_on"] = self._now()
        self.changed()

    def revoke_role(self, record: dict, role: str) -> None:
        record["roles"].discard(role)
        record["update_on"] = self._now()
        self.changed()

    # ------------------------------------------------------------ snapshot / restore

    def snapshot(self) -> dict:
        """Everything SQL created (users, roles, grants) as plain JSON-serialisable data."""
        return {
            "users": [
                {"name": name, "auth_type": u["auth_type"], "password": u["password"],
                 "default_role": u["default_role"], "disabled": u["disabled"], "roles": sorted(u["roles"]),
                 "default_warehouse": u.get("default_warehouse", ""),
                 "grants": _grants_list(u["grants"]), "stage_grants": sorted(u["stage_grants"].items()),
                 "object_grants": _object_grants_list(u),
                 "created_on": u["created_on"], "update_on": u["update_on"]}
                for name, u in sorted(self.users.items())
            ],
            "roles": [
                {"name": name, "roles": sorted(r["roles"]), "grants": _grants_list(r["grants"]),
                 "stage_grants": sorted(r["stage_grants"].items()), "object_grants": _object_grants_list(r),
                 "comment": r["comment"], "created_on": r["created_on"], "update_on": r["update_on"]}
                for name, r in sorted(self.roles.items())
            ],
        }

    def restore(self, data: dict) -> None:
        """Replace the SQL-made state by a snapshot's (the bootstrap users stay)."""
        self.users = {
            u["name"]: {"auth_type": u["auth_type"], "password": u["password"],
                        "default_role": u["default_role"], "disabled": bool(u.get("disabled", False)),
                        "default_warehouse": u.get("default_warehouse", ""),
                        "roles": set(u["roles"]),
                        "grants": _grants_dict(u["grants"]),
                        "stage_grants": dict(u.get("stage_grants", ())), "created_on": u["created_on"],
                        "object_grants": _object_grants_dict(u), "update_on": u["update_on"]}
            for u in data.get("users", ())
        }
        self.roles = {
            r["name"]: {"roles": set(r["roles"]), "grants": _grants_dict(r["grants"]),
                        "stage_grants": dict(r.get("stage_grants", ())), "object_grants": _object_grants_dict(r),
                        "comment": r.get("comment", ""), "created_on": r["created_on"],
                        "update_on": r["update_on"]}
            for r in data.get("roles", ())
        }
        self._add_builtin_roles()
        self.changed()


def _object_grants_list(record: dict) -> list:
    """Object grants (UDF, warehouse, connection, sequence) as [[kind, name, [privileges]], ...]."""
    return [[kind, name, list(words)] for (kind, name), words in sorted(record.get("object_grants", {}).items())]


def _object_grants_dict(data: dict) -> dict:
    return {(kind, name): list(words) for kind, name, words in data.get("object_grants", ())}


def _grants_list(grants: dict) -> list:
    """Grants as [[db, table, mask], ...] in a fixed order (db and table may be None)."""
    return [[db, table, mask] for (db, table), mask in sorted(grants.items(), key=_object_order)]


def _object_order(item) -> tuple:
    """*.* first, then databases and tables by name (None sorts before any name)."""
    (db, table), _ = item
    return (db is not None, db or "", table is not None, table or "")


def _grants_dict(grants: list) -> dict:
    """Grants from `_grants_list`; ALL on *.* saved before stages had privileges (READ, WRITE)
    comes back as the ALL of now, which covers them."""
    restored = {(db, table): mask for db, table, mask in grants}
    held = restored.get(GLOBAL, 0)
    if held & _GLOBAL_BEFORE_STAGES == _GLOBAL_BEFORE_STAGES:
        restored[GLOBAL] = held | STAGE_PRIVILEGES
    return restored


_GLOBAL_BEFORE_STAGES = DATABASE_PRIVILEGES | SUPER


# ---------------------------------------------------------------- system.users, system.roles

_S = T.STRING
_NULLABLE_S = T.STRING.as_nullable(True)
_NULLABLE_TS = T.TIMESTAMP.as_nullable(True)

USERS_COLUMNS = [
    ("name", _S), ("hostname", _S), ("auth_type", _S), ("default_role", _S), ("is_configured", _S),
    ("disabled", T.BOOLEAN), ("roles", _S), ("network_policy", _NULLABLE_S),
    ("password_policy", _NULLABLE_S), ("must_change_password", T.BOOLEAN.as_nullable(True)),
    ("created_on", _NULLABLE_TS), ("update_on", _NULLABLE_TS),
]
ROLES_COLUMNS = [
    ("name", _S), ("inherited_roles", T.UINT64), ("inherited_roles_name", _S), ("created_on", T.TIMESTAMP),
    ("update_on", T.TIMESTAMP),
]


def _timestamp(micros: int | None):
    if micros is None:
        return None
    return datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=micros)


def users_rows(ctx) -> list[tuple]:
    """system.users: the SQL users, then the configured (bootstrap) ones."""
    store = ctx.session.db.users
    rows = []
    for name, u in sorted(store.users.items()):
        rows.append((name, "%", u["auth_type"], u["default_role"], "NO", u["disabled"], ", ".join(sorted(u["roles"])),
                     None, None, None, _timestamp(u["created_on"]), _timestamp(u["update_on"])))
    for name, encoded in sorted(store.bootstrap.items()):
        rows.append((name, "%", "no_password" if encoded is None else "sha256_password", ACCOUNT_ADMIN, "YES",
                     False, ACCOUNT_ADMIN, None, None, None, None, None))
    return rows


# SHOW ROLES and the show_roles() table function, as current Databend answers them
SHOW_ROLES_COLUMNS = [("name", _S), ("inherited_roles", T.UINT64), ("inherited_roles_name", _S),
                      ("is_current", T.BOOLEAN), ("is_default", T.BOOLEAN), ("comment", _S)]


def show_roles_rows(ctx, match=None) -> list[tuple]:
    """The roles the session's user may use (those whose name `match` accepts), by name."""
    session = ctx.session
    store = session.db.users
    current = store.current_role(session.user, session.role)
    default = store.default_role(session.user)
    rows = []
    for name in sorted(store.available_roles(session.user)):
        if match is None or match(name):
            role = store.roles[name]
            held = role["roles"]
            rows.append((name, len(held), ", ".join(sorted(held)), name == current, name == default,
                         role.get("comment") or ""))
    return rows


def roles_rows(ctx) -> list[tuple]:
    return [(name, len(r["roles"]), ", ".join(sorted(r["roles"])), _timestamp(r["created_on"]),
             _timestamp(r["update_on"])) for name, r in sorted(ctx.session.db.users.roles.items())]

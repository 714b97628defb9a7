"""Syntax tree nodes of users, roles and privileges: CREATE / ALTER / DROP / DESCRIBE USER, CREATE /
DROP ROLE, GRANT, REVOKE, SHOW USERS / ROLES / GRANTS, SET ROLE (re-exported by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass

from grammar.ast_base import Node

__all__ = ["CreateUser", "AlterUser", "DropUser", "DescribeUser", "CreateRole", "DropRole", "GrantPrivileges",
           "GrantRole", "ShowAccounts", "SetRole"]


@dataclass(frozen=True, slots=True)
class CreateUser(Node):
    """CREATE [OR REPLACE] USER [IF NOT EXISTS] u IDENTIFIED [WITH auth_type] BY 'password'
    [WITH DEFAULT_ROLE = 'r', DISABLED = true|false]."""

    name: str
    auth_type: str
    password: str
    default_role: str | None = None
    default_warehouse: str | None = None  # WITH DEFAULT_WAREHOUSE = 'w': kept and shown only
    if_not_exists: bool = False
    or_replace: bool = False
    disabled: bool | None = None


@dataclass(frozen=True, slots=True)
class AlterUser(Node):
    """ALTER USER u IDENTIFIED [WITH auth_type] BY 'password' [WITH options], or ALTER USER u
    WITH options (password None); options DEFAULT_ROLE = 'r', DISABLED = true|false (None: as
    they were)."""

    name: str
    auth_type: str | None = None
    password: str | None = None
    default_role: str | None = None
    default_warehouse: str | None = None  # WITH DEFAULT_WAREHOUSE = 'w': kept and shown only
    disabled: bool | None = None


@dataclass(frozen=True, slots=True)
class DropUser(Node):
    name: str
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class DescribeUser(Node):
    """DESC[RIBE] USER u."""

    name: str


@dataclass(frozen=True, slots=True)
class CreateRole(Node):
    name: str
    if_not_exists: bool = False
    comment: str | None = None


@dataclass(frozen=True, slots=True)
class DropRole(Node):
    name: str
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class GrantPrivileges(Node):
    """GRANT privileges ON object TO [USER] u | ROLE r (REVOKE ... FROM with revoke=True).
    privileges: upper-case names, ALL for ALL [PRIVILEGES]; on: ('*', '*') for *.*, (db, '*'),
    (db, table) or (table,), () for a stage; stage: the name of ON STAGE s (else None);
    grantee_kind: USER or ROLE."""

    privileges: tuple[str, ...]
    on: tuple[str, ...]
    grantee_kind: str
    grantee: str
    revoke: bool = False
    stage: str | None = None
    object: tuple[str, str] | None = None  # ON UDF | WAREHOUSE | CONNECTION | SEQUENCE name: (kind, name)


@dataclass(frozen=True, slots=True)
class GrantRole(Node):
    """GRANT ROLE r TO [USER] u | ROLE r2 (REVOKE ROLE ... FROM with revoke=True)."""

    role: str
    grantee_kind: str
    grantee: str
    revoke: bool = False


@dataclass(frozen=True, slots=True)
class ShowAccounts(Node):
    """SHOW USERS, SHOW ROLES [LIKE], SHOW GRANTS [FOR [USER] u | ROLE r] (kind: USERS, ROLES,
    GRANTS; grantee None: the session's user)."""

    kind: str
    like: str | None = None
    grantee_kind: str | None = None
    grantee: str | None = None


@dataclass(frozen=True, slots=True)
class SetRole(Node):
    name: str

"""Parse callbacks for users, roles and privileges: CREATE / ALTER / DROP / DESCRIBE USER, CREATE /
DROP ROLE, GRANT, REVOKE, SHOW USERS / ROLES / GRANTS and SET ROLE."""

from __future__ import annotations

from lark import Token, Transformer, v_args

from grammar import ast
from grammar.rule_helpers import SemanticSyntaxError, pos_of, unescape_string

AUTH_TYPES = ("double_sha1_password", "sha256_password")


def _text(token: Token) -> str:
    """An identifier's name or a string literal's value."""
    return unescape_string(token.value) if token.type == "STRING" else str(token.value)


class _StageObject:
    """ON STAGE s of a GRANT or REVOKE (a table object is a tuple of names)."""

    __slots__ = ("name", "kind")

    def __init__(self, name: str, kind: str = "STAGE"):
        self.kind = kind
        self.name = name


@v_args(inline=True)
class UserRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform); v_args applies per class."""

    def user_name(self, name, host):
        if host is not None and unescape_string(host.value) != "%":
            raise SemanticSyntaxError("only the host '%' is supported", pos_of(host), len(host.value))
        return name.update(value=_text(name))

    def role_name(self, name):
        return name.update(value=_text(name))

    def identified_by(self, auth_type, password):
        kind = "double_sha1_password"
        if auth_type is not None:
            kind = str(auth_type.value).lower()
            if kind not in AUTH_TYPES:
                raise SemanticSyntaxError(f"unknown auth type {auth_type.value}, expecting "
                                          + " or ".join(AUTH_TYPES), pos_of(auth_type), len(auth_type))
        return kind, unescape_string(password.value)

    def user_options(self, *options):
        """{'default_role': ..., 'disabled': ...}: the options given (a later one wins)."""
        return dict(options)

    def default_role_option(self, role):
        return "default_role", str(role.value)

    def default_warehouse_option(self, text):
        return "default_warehouse", unescape_string(text.value)

    def disabled_option(self, value):
        return "disabled", value.value.lower() == "true"

    def create_user(self, or_replace, if_not_exists, name, identified, options):
        if or_replace and if_not_exists:
            raise SemanticSyntaxError("option IF NOT EXISTS and OR REPLACE are incompatible.",
                                      pos_of(name), len(name.value))
        auth_type, password = identified
        return ast.CreateUser(str(name.value), auth_type, password, if_not_exists=bool(if_not_exists),
                              or_replace=bool(or_replace), **(options or {}), pos=pos_of(name))

    def alter_user_password(self, name, identified, options):
        auth_type, password = identified
        return ast.AlterUser(str(name.value), auth_type, password, **(options or {}), pos=pos_of(name))

    def alter_user_options(self, name, options):
        return ast.AlterUser(str(name.value), **options, pos=pos_of(name))

    def drop_user(self, if_exists, name):
        return ast.DropUser(str(name.value), bool(if_exists), pos=pos_of(name))

    def show_users(self):
        return ast.ShowAccounts("USERS")

    def describe_user(self, name):
        if name is None:  # DESC user: the table named user
            return ast.Describe(("user",))
        return ast.DescribeUser(str(name.value), pos=pos_of(name))

    def describe_user_table(self, table):
        """DESC user.t: the table t of the database named user."""
        return ast.Describe(("user", str(table.value)))

    def create_role(self, if_not_exists, name, comment=None):
        return ast.CreateRole(str(name.value), bool(if_not_exists), comment, pos=pos_of(name))

    def drop_role(self, if_exists, name):
        return ast.DropRole(str(name.value), bool(if_exists), pos=pos_of(name))

    def show_roles(self, like):
        return ast.ShowAccounts("ROLES", like)

    def privilege_list(self, *privileges):
        return privileges

    def privilege(self, *tokens):
        words = [str(t.value).upper() for t in tokens if t is not None]
        word = "ALL" if words[0] == "ALL" else " ".join(words)  # ACCESS CONNECTION: two words
        return word, pos_of(tokens[0])

    def grant_on_global(self, *_stars):
        return ("*", "*")

    def grant_on_database(self, db, _star):
        return (str(db.value), "*")

    def grant_on_stage(self, name):
        return _StageObject(str(name.value))

    def grant_on_object(self, kind, name):
        return _StageObject(str(name.value), str(kind.value).upper())

    def show_grants_on(self, *items):
        """SHOW GRANTS ON UDF | STAGE | ... name: the roles holding privileges on the object."""
        name = items[-1]
        kind = str(items[0].value).upper() if len(items) == 2 else "STAGE"
        return ast.ShowAccounts("GRANTS_ON", grantee_kind=kind, grantee=str(name.value), pos=pos_of(name))

    def grant_on_table(self, *names):
        return tuple(str(n.value) for n in names)

    def user_grantee(self, name):
        return "USER", name

    def role_grantee(self, name):
        return "ROLE", name

    def grant_privileges(self, privileges, on, grantee):
        return self._privileges(privileges, on, grantee, False)

    def revoke_privileges(self, privileges, on, grantee):
        return self._privileges(privileges, on, grantee, True)

    @staticmethod
    def _privileges(privileges, on, grantee, revoke):
        kind, name = grantee
        stage = on.name if isinstance(on, _StageObject) and on.kind == "STAGE" else None
        other = (on.kind, on.name) if isinstance(on, _StageObject) and on.kind != "STAGE" else None
        return ast.GrantPrivileges(tuple(word for word, _ in privileges), () if stage or other else on, kind,
                                   str(name.value), revoke, stage=stage, object=other, pos=privileges[0][1])

    def grant_role(self, role, grantee):
        kind, name = grantee
        return ast.GrantRole(str(role.value), kind, str(name.value), pos=pos_of(role))

    def revoke_role(self, role, grantee):
        kind, name = grantee
        return ast.GrantRole(str(role.value), kind, str(name.value), revoke=True, pos=pos_of(role))

    def show_grants(self, grantee):
        if grantee is None:
            return ast.ShowAccounts("GRANTS")
        kind, name = grantee
        return ast.ShowAccounts("GRANTS", grantee_kind=kind, grantee=str(name.value), pos=pos_of(name))

    def show_grants_of_role(self, name):
        """SHOW GRANTS OF ROLE r: who holds the role (users, then roles)."""
        return ast.ShowAccounts("GRANTS_OF", grantee_kind="ROLE", grantee=str(name.value), pos=pos_of(name))

    def set_role(self, name):
        return ast.SetRole(str(name.value), pos=pos_of(name))

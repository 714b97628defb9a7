"""Parse callbacks for [catalog.]database names, ALTER DATABASE, EXISTS TABLE and ALTER TABLE
... REFRESH CACHE."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import ident_name, ident_names, pos_of, unescape_string


@v_args(inline=True)
class MoreDdlRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform) for the catalog statements of grammar.ast_ddl_more."""

    def database_ref(self, first, second):
        """(catalog name or None, the database's token)."""
        if second is None:
            return None, first
        return ident_name(first), second

    def rename_database(self, if_exists, ref, new_name):
        catalog, name = ref
        return ast.AlterDatabase(ident_name(name), ident_name(new_name), catalog, bool(if_exists),
                                 pos=pos_of(name))

    def refresh_database_cache(self, if_exists, ref):
        catalog, name = ref
        return ast.AlterDatabase(ident_name(name), None, catalog, bool(if_exists), pos=pos_of(name))

    def exists_table(self, *items):
        name = items[-1]
        return ast.ExistsTable(ident_names(name), pos=pos_of(name[0]))

    def refresh_table_cache(self, *_tokens):
        return ast.RefreshCache()

    def role_comment(self, text):
        return unescape_string(text)

    def alter_role_comment(self, if_exists, name, comment=None):
        """ALTER ROLE ... SET COMMENT = '...' (comment given) or UNSET COMMENT (None)."""
        return ast.AlterRole(str(name.value), comment, bool(if_exists), pos=pos_of(name))

    def check_option(self, expr):
        """CHECK (expr) written with a column: a constraint Databend names."""
        return ast.CheckConstraint(None, expr, pos=expr.pos)

    def check_constraint(self, name, expr):
        return ast.CheckConstraint(None if name is None else ident_name(name), expr, pos=expr.pos)

    def add_constraint(self, name, expr):
        return ast.CheckConstraint(ident_name(name), expr, pos=pos_of(name))

    def drop_constraint(self, name):
        return ast.DropConstraint(ident_name(name), pos=pos_of(name))

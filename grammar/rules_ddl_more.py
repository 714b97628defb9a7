"""Parse callbacks for [catalog.]database names, ALTER DATABASE, EXISTS TABLE and ALTER TABLE
... REFRESH CACHE."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import (
    SemanticSyntaxError,
    ident_name,
    ident_names,
    pos_of,
    unescape_string,
)


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

    def add_column_if_not_exists(self, _if_not_exists, column, position):
        first, after = position if position is not None else (False, None)
        return ast.AddColumn(column, first, after, if_not_exists=True, pos=column.pos)

    def modify_columns(self, *columns):
        return ast.ModifyColumns(tuple(ast.ModifyColumn(c, pos=c.pos) for c in columns), pos=columns[0].pos)

    def modify_column_comment(self, name, text):
        return ast.SetComment(unescape_string(text.value), ident_name(name), pos=pos_of(name))

    def set_table_comment(self, text):
        return ast.SetComment(unescape_string(text.value), pos=pos_of(text))

    def swap_table_with(self, name):
        return ast.SwapTables(ident_names(name), pos=pos_of(name[0]))

    def comment_on_table(self, name, text):
        return ast.AlterTable(ident_names(name), ast.SetComment(unescape_string(text.value), pos=pos_of(text)),
                              pos=pos_of(name[0]))

    def comment_on_column(self, name, text):
        """COMMENT ON COLUMN [db.]t.c IS '...'."""
        parts = ident_names(name)
        if len(parts) < 2:
            raise SemanticSyntaxError("COMMENT ON COLUMN needs table.column", pos_of(name[0]), len(parts[0]))
        return ast.AlterTable(parts[:-1], ast.SetComment(unescape_string(text.value), parts[-1], pos=pos_of(text)),
                              pos=pos_of(name[0]))

    def unset_global(self, _global, *names):
        return ast.UnsetGlobal(tuple(ident_name(n).lower() for n in names), pos=pos_of(names[0]))

    def star_exclude_call(self, name, exclude):
        """f(* EXCLUDE ...): COLUMNS(* EXCLUDE c) (engine.plan.clauses.columns_matching)."""
        pos = pos_of(name)
        return ast.FunctionCall(ident_name(name).lower(), (ast.Star(exclude=exclude, pos=pos),), pos=pos)

"""Parse callbacks for views, ALTER TABLE, RENAME TABLE, UNDROP TABLE and the SHOW statements
that describe them (SHOW VIEWS, SHOW COLUMNS, SHOW TABLE STATUS, SHOW ENGINES...)."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import (
    SemanticSyntaxError,
    ident_name,
    ident_names,
    option_text,
    pos_of,
)


@v_args(inline=True)
class DdlRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform) for the DDL beyond CREATE/DROP TABLE."""

    def or_replace(self, *_tokens):
        return True

    def view_as(self, token):
        return token

    def create_view(self, or_replace, if_not_exists, name, columns, as_token, query):
        if or_replace and if_not_exists:
            raise SemanticSyntaxError("option IF NOT EXISTS and OR REPLACE are incompatible.",
                                      pos_of(name[0]), len(name[0].value))
        return ast.CreateView(ident_names(name), _names(columns), query, as_token.end_pos,
                              or_replace=bool(or_replace), if_not_exists=bool(if_not_exists),
                              pos=pos_of(name[0]))

    def alter_view(self, name, columns, as_token, query):
        return ast.CreateView(ident_names(name), _names(columns), query, as_token.end_pos, alter=True,
                              pos=pos_of(name[0]))

    def drop_view(self, if_exists, name):
        return ast.DropView(ident_names(name), bool(if_exists), pos=pos_of(name[0]))

    def alter_table(self, if_exists, name, action):
        return ast.AlterTable(ident_names(name), action, bool(if_exists), pos=pos_of(name[0]))

    def add_column(self, column, position):
        first, after = position if position is not None else (False, None)
        return ast.AddColumn(column, first, after, pos=column.pos)

    def column_position(self, word, name):
        """FIRST or AFTER <column>."""
        keyword = word.value.upper() if word.type == "NAME" else ""
        if keyword == "FIRST" and name is None:
            return (True, None)
        if keyword == "AFTER" and name is not None:
            return (False, ident_name(name))
        raise SemanticSyntaxError(f"unexpected `{word.value}`, expecting `FIRST` or `AFTER`",
                                  (word.line, word.column), len(word.value))

    def drop_column(self, name):
        return ast.DropColumn(ident_name(name), pos=(name.line, name.column))

    def rename_column(self, old, new):
        return ast.RenameColumn(ident_name(old), ident_name(new), pos=(old.line, old.column))

    def set_table_options(self, options):
        return ast.SetTableOptions(options)

    def named_option_list(self, *items):
        return tuple((str(items[i].value).lower(), option_text(items[i + 1]))
                     for i in range(0, len(items), 2))

    def unset_table_options(self, *names):
        return ast.SetTableOptions(tuple((str(n.value).lower(), "") for n in names), unset=True,
                                   pos=pos_of(names[0]))

    def rename_table_to(self, name):
        return ast.RenameTableTo(ident_names(name), pos=pos_of(name[0]))

    def modify_column(self, column):
        return ast.ModifyColumn(column, pos=column.pos)

    def rename_table(self, if_exists, name, new_name):
        return ast.RenameTable(ident_names(name), ident_names(new_name), bool(if_exists), pos=pos_of(name[0]))

    def undrop_table(self, name):
        return ast.UndropTable(ident_names(name), pos=pos_of(name[0]))

    # ------------------------------------------------------------ SHOW

    def show_views(self, full, database, like):
        return ast.Show("VIEWS", database=database, like=like, full=full is not None)

    def show_create_view(self, name):
        return ast.Show("CREATE_VIEW", table=ident_names(name), pos=pos_of(name[0]))

    def show_create_database(self, name):
        return ast.Show("CREATE_DATABASE", database=ident_name(name), pos=(name.line, name.column))

    def show_columns(self, full, name, database, like):
        table = ident_names(name)
        if database is not None:
            table = (database, table[-1])
        return ast.Show("COLUMNS", table=table, like=like, full=full is not None, pos=pos_of(name[0]))

    def show_table_status(self, database, like):
        return ast.Show("TABLE_STATUS", database=database, like=like)

    def show_engines(self):
        return ast.Show("ENGINES")


def _names(columns):
    return None if columns is None else tuple(columns)

"""Parse callbacks for statements: DDL, DML, SET, SHOW, DESCRIBE, EXPLAIN, KILL."""

from __future__ import annotations

from lark import Token, Transformer, v_args

from grammar import ast
from grammar.keywords import IMPLICIT_ALIAS_FORBIDDEN_WORDS, NEVER_ALIAS_WORDS
from grammar.rule_helpers import (
    CommentOption,
    NamedOption,
    SemanticSyntaxError,
    check_assignments,
    checked_alias,
    ident_name,
    ident_names,
    option_text,
    pos_of,
    unescape_string,
)

# ENGINE = ... as Databend's parser knows them
TABLE_ENGINES = ("fuse", "memory", "null", "view", "random", "iceberg", "delta", "paimon", "proxy")


@v_args(inline=True)
class StatementRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform); v_args applies per class (Lark wraps only a
    class\'s own methods)."""

    # ------------------------------------------------------------ statements

    def if_not_exists(self, *_tokens):
        return True

    def if_exists(self, *_tokens):
        return True

    def create_database(self, or_replace, if_not_exists, ref):
        catalog, name = ref  # database_ref (grammar.rules_ddl_more)
        pos = (name.line, name.column)
        if or_replace and if_not_exists:
            raise SemanticSyntaxError("option IF NOT EXISTS and OR REPLACE are incompatible.", pos, len(name.value))
        return ast.CreateDatabase(ident_name(name), bool(if_not_exists), or_replace=bool(or_replace),
                                  catalog=catalog, pos=pos)

    def drop_database(self, if_exists, ref):
        catalog, name = ref
        return ast.DropDatabase(ident_name(name), bool(if_exists), catalog=catalog, pos=(name.line, name.column))

    def use_database(self, name):
        return ast.UseDatabase(ident_name(name), pos=(name.line, name.column))

    def create_table(self, or_replace, transient, if_not_exists, name, body, temporary=False):
        elements, query, (comment, cluster_by, engine, options), like = body
        columns = tuple(e for e in elements if isinstance(e, ast.ColumnDef))
        constraints = tuple(c for e in elements
                            for c in (e.checks if isinstance(e, ast.ColumnDef) else (e,)))
        if or_replace and if_not_exists:
            raise SemanticSyntaxError("option IF NOT EXISTS and OR REPLACE are incompatible.",
                                      pos_of(name[0]), len(name[0].value))
        return ast.CreateTable(
            ident_names(name),
            columns,
            bool(if_not_exists),
            query,
            comment,
            or_replace=bool(or_replace),
            transient=transient is not None,
            like=ident_names(like) if like is not None else None,
            cluster_by=cluster_by,
            temporary=temporary,
            engine=engine,
            options=options,
            constraints=constraints,
            pos=pos_of(name[0]),
        )

    def create_temp_table(self, or_replace, _temporary, if_not_exists, name, body):
        return self.create_table(or_replace, None, if_not_exists, name, body, temporary=True)

    def columns_body(self, columns, options):
        return (columns, None, options, None)

    def columns_as_body(self, columns, options, query):
        return (columns, query, options, None)

    def as_body(self, options, query):
        return ((), query, options, None)

    def like_body(self, name, options):
        return ((), None, options, name)

    def table_elements(self, *elements):
        return tuple(e for e in elements if e is not None)

    def column_def(self, name, type_name, *options):
        default = comment = None
        checks = tuple(o for o in options if isinstance(o, ast.CheckConstraint))
        for option in options:
            if isinstance(option, CommentOption):
                comment = option.text
            elif option is not None and not isinstance(option, ast.CheckConstraint):
                default = option
        return ast.ColumnDef(ident_name(name), type_name, default, comment, checks, pos=(name.line, name.column))

    def comment_option(self, token):
        return CommentOption(unescape_string(token.value))

    def default_option(self, expr):
        return expr

    def ignored_option(self, *_args):
        return None

    def table_constraint(self, *_args):
        return None

    def key_parts(self, *_args):
        return None

    def key_part(self, *_args):
        return None

    def table_options(self, *options):
        """(COMMENT, CLUSTER BY keys, ENGINE, other options) of the table (the last written of
        each of the first three; the others as (name, value) pairs, checked by the engine)."""
        comments = [o.text for o in options if isinstance(o, CommentOption)]
        clusters = [o for o in options if isinstance(o, tuple)]
        engines = [o for o in options if isinstance(o, str)]
        named = tuple((o.name, o.value) for o in options if isinstance(o, NamedOption))
        return (comments[-1] if comments else None, clusters[-1] if clusters else (),
                engines[-1] if engines else None, named)

    def engine_option(self, token):
        """ENGINE = name: Databend's engines (lower-cased); another name is a syntax error."""
        engine = token.value.lower()
        if engine not in TABLE_ENGINES:
            raise SemanticSyntaxError(f"unexpected `{token.value}`, expecting one of the table engines "
                                      f"{', '.join(e.upper() for e in TABLE_ENGINES)}", pos_of(token),
                                      len(token.value))
        return engine

    def named_option(self, name, value):
        return NamedOption(str(name.value).lower(), option_text(value))

    def table_option_value(self, token):
        return token

    def cluster_by_option(self, *args):
        return tuple(args[-1])

    def table_comment(self, token):
        return CommentOption(unescape_string(token.value))

    def drop_table(self, if_exists, name, purge=None):
        return ast.DropTable(ident_names(name), bool(if_exists), purge is not None, pos=pos_of(name[0]))

    def truncate_table(self, *args):
        name = args[-1]
        return ast.TruncateTable(ident_names(name), pos=pos_of(name[0]))

    def insert(self, *args):
        name, columns, (kind, source) = args[-3:]
        if kind == "rows":
            return ast.Insert(ident_names(name), columns, rows=source, pos=pos_of(name[0]))
        if kind == "attached":  # neither rows nor a query: the rows come from a stage attachment
            return ast.Insert(ident_names(name), columns, pos=pos_of(name[0]))
        if kind == "stage":  # `... FROM @stage FILE_FORMAT = (...)`: the rows of a staged file
            return ast.Insert(ident_names(name), columns, stage=source, pos=pos_of(name[0]))
        return ast.Insert(ident_names(name), columns, query=source, pos=pos_of(name[0]))

    def insert_values(self, *rows):
        return ("rows", rows)

    def insert_attached(self):
        return ("attached", None)

    def insert_from_stage(self, *args):
        """`[VALUES [(...)]] FROM @stage [options]` (the optional VALUES row arrives as a tuple of
        expressions or None, the options as (name, value) pairs)."""
        values = next((a for a in args if isinstance(a, (tuple, list)) and not _is_option(a)), None)
        location = next(a for a in args if isinstance(a, Token) and a.type == "STAGE_LOCATION")
        options = tuple(a for a in args if _is_option(a))
        return ("stage", ast.StageSource(str(location), options,
                                         tuple(values) if values is not None else None,
                                         pos=pos_of(location)))

    def values_row(self, items):
        return items or ()

    def insert_query(self, query):
        return ("query", query)

    def update(self, name, alias, *rest):
        *assignments, from_, where = rest
        check_assignments(assignments, ident_names(name), alias)
        return ast.Update(ident_names(name), tuple(assignments), where, alias, from_, pos=pos_of(name[0]))

    def assignment(self, *items):
        *names, value = items
        qualifier = ".".join(ident_names(names[:-1])) or None
        return ast.Assignment(ident_name(names[-1]), value, qualifier, pos=pos_of(names[0]))

    def delete(self, name, alias, where):
        return ast.Delete(ident_names(name), where, alias, pos=pos_of(name[0]))

    def explicit_dml_alias(self, name):
        return ident_name(checked_alias(name, NEVER_ALIAS_WORDS))

    def implicit_dml_alias(self, name):
        return ident_name(checked_alias(name, IMPLICIT_ALIAS_FORBIDDEN_WORDS))

    def set_variable(self, is_global, name, value):
        return ast.SetVariable(
            ident_name(name).lower(), value, is_global is not None, pos=(name.line, name.column)
        )

    def unset_variable(self, *names):
        return ast.UnsetVariable(tuple(ident_name(n).lower() for n in names), pos=pos_of(names[0]))

    def show_databases(self, like):
        return ast.Show("DATABASES", like=like)

    def show_tables(self, full, database, like):
        return ast.Show("TABLES", database=database, like=like, full=full is not None)

    def show_settings(self, like):
        return ast.Show("SETTINGS", like=like)

    def show_functions(self, like):
        return ast.Show("FUNCTIONS", like=like)

    def show_create_table(self, name):
        return ast.Show("CREATE_TABLE", table=ident_names(name), pos=pos_of(name[0]))

    def show_processlist(self, where):
        """As Databend: SELECT * FROM system.processes [WHERE ...]."""
        return ast.Select((ast.SelectItem(ast.Star()),), ast.TableRef(("system", "processes")),
                          where=where)

    def kill(self, target, object_id):
        return ast.Kill(target.value.upper(), object_id, pos=(target.line, target.column))

    def begin_transaction(self, *_tokens):
        return ast.TransactionStatement("BEGIN")

    def commit_transaction(self, *_tokens):
        return ast.TransactionStatement("COMMIT")

    def abort_transaction(self, *_tokens):
        return ast.TransactionStatement("ABORT")

    def kill_id_string(self, token):
        return unescape_string(token.value)

    def kill_id_word(self, token):
        return str(token.value)

    def show_from(self, name):
        return ident_name(name)

    def like_pattern(self, *tokens):
        return unescape_string(tokens[-1].value)

    def describe(self, *args):
        name = args[-1]
        return ast.Describe(ident_names(name), pos=pos_of(name[0]))

    def explain(self, kind, statement):
        return ast.Explain(statement, kind=kind.value.upper() if kind is not None else "", pos=statement.pos)


def _is_option(item) -> bool:
    """Whether a child of insert_from_stage is a copy option: a (lower-case name, value) pair."""
    return isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)

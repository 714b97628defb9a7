"""Parse callbacks for stages: LIST, REMOVE, PRESIGN, COPY INTO (load and unload), named stages
and file formats, and @stage in FROM with its $1, $2 ... fields."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import (
    SemanticSyntaxError,
    ident_name,
    ident_names,
    pos_of,
    table_alias_name,
    unescape_string,
)

# the format types of FILE_FORMAT = (TYPE = ...): Databend's parser refuses them as a file format's name
_FORMAT_TYPES = frozenset({"csv", "tsv", "ndjson", "json", "parquet", "orc", "xml", "avro", "text"})


@v_args(inline=True)
class StageRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform); v_args applies per class."""

    def list_stage(self, location, pattern):
        return ast.ListStage(str(location), pattern, pos=pos_of(location))

    def remove_stage(self, location, pattern):
        return ast.ListStage(str(location), pattern, remove=True, pos=pos_of(location))

    def stage_pattern(self, token):
        return unescape_string(token)

    def presign(self, method, location, expire):
        seconds = None
        if expire is not None:
            if "." in expire or "e" in expire.lower():
                raise SemanticSyntaxError("EXPIRE takes whole seconds", (expire.line, expire.column),
                                          len(expire))
            seconds = int(expire)
        return ast.Presign(str(method).upper() if method is not None else "DOWNLOAD", str(location),
                           seconds, pos=pos_of(location))

    def copy_into_table(self, name, columns, location, *options):
        return ast.CopyIntoTable(ident_names(name), columns, str(location), tuple(options),
                                 pos=pos_of(name[0]))

    def copy_into_table_query(self, name, columns, query, *options):
        return ast.CopyIntoTable(ident_names(name), columns, None, tuple(options), query,
                                 pos=pos_of(name[0]))

    def stage_ref(self, location, args, alias):
        return ast.StageRef(str(location), tuple(args or ()), table_alias_name(alias),
                            pos=pos_of(location))

    def stage_table_args(self, *args):
        return args

    def stage_arg(self, name, value):
        return (str(name).lower(), value)

    def stage_arg_list(self, name, *values):
        return (str(name).lower(), tuple(values))

    def dollar_column(self, token):
        return ast.ColumnRef((str(token),), pos=pos_of(token))

    def placeholder(self, token):
        return ast.Placeholder(pos=pos_of(token))

    def named_placeholder(self, token):
        return ast.Placeholder(str(token)[1:], pos=pos_of(token))

    def copy_into_stage(self, location, source, *options):
        if isinstance(source, ast.Node):
            return ast.CopyIntoStage(str(location), None, source, tuple(options), pos=pos_of(location))
        return ast.CopyIntoStage(str(location), ident_names(source), None, tuple(options),
                                 pos=pos_of(location))

    def create_stage(self, or_replace, if_not_exists, name, *options):
        return ast.CreateStage(ident_name(name), bool(or_replace), bool(if_not_exists),
                               tuple(options), pos=pos_of(name))

    def create_file_format(self, or_replace, if_not_exists, name, *options):
        if or_replace and if_not_exists:
            raise SemanticSyntaxError("option IF NOT EXISTS and OR REPLACE are incompatible.", pos_of(name),
                                      len(name.value))
        if ident_name(name).lower() in _FORMAT_TYPES:  # as Databend's parser: a type is no name
            raise SemanticSyntaxError(f"File format name `{ident_name(name)}` is reserved: it is a format type",
                                      pos_of(name), len(name.value))
        return ast.CreateFileFormat(ident_name(name), bool(or_replace), bool(if_not_exists),
                                    tuple(options), pos=pos_of(name))

    def drop_stage(self, if_exists, name):
        return ast.DropStageObject("STAGE", ident_name(name), bool(if_exists), pos=pos_of(name))

    def drop_file_format(self, if_exists, name):
        return ast.DropStageObject("FILE FORMAT", ident_name(name), bool(if_exists), pos=pos_of(name))

    def show_stages(self, like):
        return ast.ShowStageObjects("STAGES", like)

    def show_file_formats(self):
        return ast.ShowStageObjects("FILE FORMATS")

    def describe_stage(self, name):
        return ast.ShowStageObjects("DESC STAGE", name=ident_name(name), pos=pos_of(name))

    def copy_option_group(self, name, *items):
        if items and all(isinstance(item, str) for item in items):
            return (str(name).lower(), tuple(items))  # FILES = ('a.csv', 'b.csv')
        return (str(name).lower(), tuple(item for item in items if isinstance(item, tuple)))

    def copy_option_value(self, name, value):
        return (str(name).lower(), value)

    def option_item(self, name, value):
        return (str(name).lower(), value)

    def option_list_item(self, value):
        return value

    def option_string(self, token):
        return unescape_string(token)

    def option_number(self, token):
        return str(token)

    def option_word(self, token):
        return str(token)

    def option_true(self):
        return "true"

    def option_false(self):
        return "false"

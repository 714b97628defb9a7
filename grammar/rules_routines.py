"""Parse callbacks for user functions (CREATE / ALTER / DROP FUNCTION, SHOW USER FUNCTIONS) and
sequences (CREATE / DROP / DESCRIBE SEQUENCE, SHOW SEQUENCES)."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import SemanticSyntaxError, ident_name, pos_of, unescape_string

# SHOW USER FUNCTIONS as Databend rewrites it (its binder's show.rs): these columns of
# system.user_functions, ordered by name
_SHOW_USER_FUNCTIONS_COLUMNS = ("name", "is_aggregate", "description", "arguments", "language", "created_on")
_SHOW_PROCEDURES_COLUMNS = ("name", "procedure_id", "arguments", "comment", "description", "created_on")


def _no_both(or_replace, if_not_exists, name) -> None:
    if or_replace and if_not_exists:
        raise SemanticSyntaxError("option IF NOT EXISTS and OR REPLACE are incompatible.",
                                  pos_of(name), len(name.value))


def _show_filter(filter_, column: str = "name"):
    """The WHERE of SHOW ... [LIKE 'p' | WHERE e] rewritten as a query of a system table."""
    if filter_ is None:
        return None
    if isinstance(filter_, str):
        return ast.Like(ast.ColumnRef((column,)), ast.Literal(filter_, "string"))
    return filter_


@v_args(inline=True)
class RoutineRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform) for user functions and sequences."""

    def udf_param(self, name, type_name):
        return ast.UdfParam(ident_name(name), type_name, pos=pos_of(name))

    def lambda_udf(self, *items):
        *params, arrow, body, desc = items
        if arrow.value != "->":
            raise SemanticSyntaxError("expected `->` after a function's parameters", pos_of(arrow), 3)
        params = tuple(p for p in params if p is not None)
        return {"params": params, "body": body, "description": desc or ""}

    def udf_sized_type_param(self, name, *sizes):
        """`DECIMAL(19, 5)` as a parameter of a typed function: a type without a name."""
        type_name = ast.TypeName(ident_name(name).upper(), tuple(int(s.value) for s in sizes), pos=pos_of(name))
        return ast.UdfParam("", type_name, pos=pos_of(name))

    def typed_udf(self, *items):
        # `(INT, DECIMAL(19, 5)) RETURNS ...`: parameters written as their types alone (Databend's
        # form for JavaScript / Python functions) are named arg1, arg2...
        params = tuple(p if p.type is not None and p.name else
                       ast.UdfParam(f"arg{i}", p.type or ast.TypeName(p.name.upper(), pos=p.pos), pos=p.pos)
                       for i, p in enumerate((p for p in items if isinstance(p, ast.UdfParam)), start=1))
        rest = [x for x in items if not isinstance(x, ast.UdfParam) and x is not None]
        returns, *options = rest
        spec = {"params": params, "body": None, "language": "SQL", "description": ""}
        if isinstance(returns, tuple):
            spec["returns_table"] = returns
        else:
            spec["returns"] = returns
        for option in options:
            if isinstance(option, str):  # the DESC clause
                spec["description"] = option
            elif option[0] != "ignored":
                spec[option[0]] = option[1]
        return spec

    def udf_returns_type(self, type_name):
        return type_name

    def udf_returns_table(self, *fields):
        return tuple(fields)

    def udf_language(self, token):
        return ("language", str(token.value).upper() if str(token.value).lower() == "sql" else str(token.value).lower())

    def udf_ignored_option(self, _value):
        return ("ignored", None)

    def udf_body(self, token):
        return ("body_text", token.value[2:-2])

    def udf_desc(self, *tokens):  # (DESC | COMMENT) = 'text': DESC is kept, COMMENT is not
        return unescape_string(tokens[-1].value)

    def _function(self, name, spec: dict, **flags):
        params = spec["params"]
        seen = set()
        for p in params:
            if p.name.lower() in seen:
                raise SemanticSyntaxError(f"duplicate parameter name `{p.name}`", p.pos, len(p.name))
            seen.add(p.name.lower())
        return ast.CreateFunction(ident_name(name), params, spec["body"], name.end_pos,
                                  body_text=spec.get("body_text"), description=spec["description"],
                                  returns=spec.get("returns"), returns_table=spec.get("returns_table"),
                                  language=spec.get("language", "SQL"), pos=pos_of(name), **flags)

    def create_lambda_udf(self, or_replace, if_not_exists, name, spec):
        _no_both(or_replace, if_not_exists, name)
        return self._function(name, spec, or_replace=bool(or_replace), if_not_exists=bool(if_not_exists))

    def alter_lambda_udf(self, name, spec):
        return self._function(name, spec, alter=True)

    create_typed_udf = create_lambda_udf
    alter_typed_udf = alter_lambda_udf

    def drop_function(self, if_exists, name):
        return ast.DropFunction(ident_name(name), bool(if_exists), pos=pos_of(name))

    def show_filter(self, item):
        return item

    def show_user_functions(self, filter_):
        items = tuple(ast.SelectItem(ast.ColumnRef((c,))) for c in _SHOW_USER_FUNCTIONS_COLUMNS)
        return ast.Select(items, ast.TableRef(("system", "user_functions")),
                          where=_show_filter(filter_),
                          order_by=(ast.OrderItem(ast.ColumnRef(("name",))),))

    # ---------------------------------------------------------------- sequences

    def sequence_start(self, number):
        return ("start", number)

    def sequence_increment(self, number):
        return ("increment", number)

    def sequence_comment(self, text):
        return ("comment", text)

    def create_sequence(self, or_replace, if_not_exists, name, *options):
        _no_both(or_replace, if_not_exists, name)
        values = {}
        for key, token in options:
            if key == "comment":
                values[key] = unescape_string(token.value)
                continue
            if not token.value.isdigit():
                raise SemanticSyntaxError(f"expected an unsigned integer, got `{token.value}`", pos_of(token),
                                          len(token.value))
            values[key] = int(token.value)
        return ast.CreateSequence(ident_name(name), or_replace=bool(or_replace),
                                  if_not_exists=bool(if_not_exists), pos=pos_of(name), **values)

    def drop_sequence(self, if_exists, name):
        return ast.DropSequence(ident_name(name), bool(if_exists), pos=pos_of(name))

    def describe_sequence(self, name):
        return ast.DescribeSequence(ident_name(name), pos=pos_of(name))

    def show_sequences(self, filter_):
        return ast.ShowRoutines("SEQUENCES", like=filter_ if isinstance(filter_, str) else None,
                                where=None if isinstance(filter_, str) else filter_)


    # ---------------------------------------------------------------- scripts and procedures

    def execute_immediate(self, token):
        text = token.value
        script = text[2:-2] if token.type == "DOLLAR_STRING" else unescape_string(text)
        return ast.ExecuteImmediate(script, pos=pos_of(token))

    def create_procedure(self, or_replace, if_not_exists, name, *items):
        _no_both(or_replace, if_not_exists, name)
        params = tuple(p for p in items if isinstance(p, ast.UdfParam))
        returns, language, comment, body = [x for x in items if not isinstance(x, ast.UdfParam)][-4:]
        if str(language.value).upper() != "SQL":
            raise SemanticSyntaxError("a procedure's LANGUAGE must be SQL", pos_of(language), len(language.value))
        return ast.CreateProcedure(ident_name(name), params, None if isinstance(returns, tuple) else returns,
                                   returns if isinstance(returns, tuple) else None, body.value[2:-2],
                                   name.end_pos, comment or "", or_replace=bool(or_replace),
                                   if_not_exists=bool(if_not_exists), pos=pos_of(name))

    def drop_procedure(self, if_exists, name, *types):
        return ast.DropProcedure(ident_name(name), tuple(t for t in types if t is not None), bool(if_exists),
                                 pos=pos_of(name))

    def describe_procedure(self, name, *types):
        return ast.DescribeProcedure(ident_name(name), tuple(t for t in types if t is not None), pos=pos_of(name))

    def call_procedure(self, name, args):
        return ast.CallProcedure(ident_name(name), tuple(args or ()), pos=pos_of(name))

    def show_procedures(self, filter_):
        """As Databend: a query of system.procedures, ordered by name."""
        items = tuple(ast.SelectItem(ast.ColumnRef((c,))) for c in _SHOW_PROCEDURES_COLUMNS)
        return ast.Select(items, ast.TableRef(("system", "procedures")), where=_show_filter(filter_),
                          order_by=(ast.OrderItem(ast.ColumnRef(("name",))),))

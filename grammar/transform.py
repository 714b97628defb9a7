"""Lark parse callbacks -> AST nodes (grammar/ast.py), applied inline while parsing."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from lark import Token, Transformer, v_args

from grammar import ast
from grammar.keywords import IMPLICIT_ALIAS_FORBIDDEN_WORDS, NEVER_ALIAS_WORDS

# Types a column or a CAST may name (Databend names and the usual aliases), upper-cased.
KNOWN_TYPES = frozenset(
    """
    BOOL BOOLEAN
    INT INTEGER BIGINT SMALLINT TINYINT MEDIUMINT SIGNED UNSIGNED
    INT8 INT16 INT32 INT64 UINT8 UINT16 UINT32 UINT64
    FLOAT REAL DOUBLE FLOAT32 FLOAT64
    DECIMAL NUMERIC
    VARCHAR CHAR CHARACTER TEXT STRING
    DATE TIMESTAMP DATETIME
    VARIANT JSON BINARY VARBINARY
    """.split()
)
NESTED_TYPES = frozenset({"NULLABLE"})
TYPED_LITERAL_TYPES = frozenset({"DATE", "TIMESTAMP", "DATETIME"})

_BINARY_OP_NAMES = {"!=": "<>", "==": "=", "MOD": "%"}

# MySQL-style backslash escapes inside '...' strings; any other escaped character stands for
# itself, except \% and \_ which keep their backslash (they are LIKE escapes).
_BACKSLASH_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "Z": "\x1a",
    "%": "\\%",
    "_": "\\_",
}
_STRING_ESCAPE_RE = re.compile(r"\\(.)|''", re.S)


def _replace_escape(match: re.Match) -> str:
    escaped = match.group(1)
    if escaped is None:
        return "'"
    return _BACKSLASH_ESCAPES.get(escaped, escaped)


def unescape_string(quoted: str) -> str:
    """The value of a '...' string literal as written in SQL (quotes included)."""
    body = quoted[1:-1]
    if "\\" not in body and "''" not in body:
        return body
    return _STRING_ESCAPE_RE.sub(_replace_escape, body)


def number_literal(text: str, pos: ast.Pos) -> ast.Literal:
    """Classify a numeric token: 'int', 'decimal' (value kept as text) or 'float' (exponent)."""
    if "e" in text or "E" in text:
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise SemanticSyntaxError(f"number `{text}` is out of range", pos, len(text))
        return ast.Literal(value, "float", pos=pos)
    if "." in text:
        return ast.Literal(text, "decimal", pos=pos)
    digits = len(text.lstrip("0"))
    if digits > 309:  # beyond any Float64 (Python's int() also refuses over 4300 digits)
        raise SemanticSyntaxError(f"number of {digits} digits is out of range", pos, len(text))
    return ast.Literal(int(text), "int", pos=pos)


class SemanticSyntaxError(Exception):
    """A problem found while building the AST (unknown type, bad literal); parser.py turns it
    into a SqlSyntaxError with the caret context."""

    def __init__(self, reason: str, pos: ast.Pos, width: int = 1):
        super().__init__(reason)
        self.reason = reason
        self.pos = pos or (1, 1)
        self.width = width


def _pos_of(item) -> ast.Pos:
    if isinstance(item, Token):
        return (item.line, item.column)
    if isinstance(item, ast.Node):
        return item.pos
    if isinstance(item, tuple) and item:
        return _pos_of(item[0])
    return None


def _name(token: Token) -> str:
    return str(token.value)


def _names(tokens) -> tuple[str, ...]:
    return tuple(str(t.value) for t in tokens)


def _can_take_tail(query: ast.Node) -> bool:
    """Whether `query` is a Select or SetOperation with no ORDER BY / LIMIT / OFFSET yet."""
    if isinstance(query, ast.Select | ast.SetOperation):
        return not query.order_by and query.limit is None and query.offset is None
    return False


def _attach_tail(query: ast.Node, order_by, limit, offset) -> ast.Node:
    """Give `query` an ORDER BY / LIMIT / OFFSET, wrapping it in SELECT * FROM (query) when it
    already has its own (e.g. a parenthesised query with a LIMIT)."""
    if not order_by and limit is None and offset is None:
        return query
    if _can_take_tail(query):
        return replace(query, order_by=order_by, limit=limit, offset=offset)
    pos = query.pos
    return ast.Select(
        items=(ast.SelectItem(ast.Star(pos=pos), pos=pos),),
        from_=ast.SubqueryRef(query, pos=pos),
        order_by=order_by,
        limit=limit,
        offset=offset,
        pos=pos,
    )


@dataclass(frozen=True, slots=True)
class _Comment:
    """A COMMENT option, told apart from a DEFAULT expression among a column's options."""

    text: str


@v_args(inline=True)
class AstBuilder(Transformer):
    """One callback per grammar rule (or alias); tokens arrive with their positions."""

    # ------------------------------------------------------------ names

    def plain_ident(self, token):
        return token.update(value=token.value.lower())

    def quoted_ident(self, token):
        return token.update(value=token.value[1:-1].replace('""', '"'))

    def backquoted_ident(self, token):
        return token.update(value=token.value[1:-1].replace("``", "`"))

    def ident_path(self, *parts):
        if len(parts) == 1:
            return parts
        return (*parts[0], parts[1])

    def table_name(self, path):
        return path

    def ident_list(self, *idents):
        return idents

    def column_list(self, idents):
        return _names(idents)

    # ------------------------------------------------------------ literals

    def number(self, token):
        return number_literal(token.value, (token.line, token.column))

    def string(self, token):
        return ast.Literal(unescape_string(token.value), "string", pos=(token.line, token.column))

    def hex_string(self, token):
        digits = token.value[2:-1]
        if len(digits) % 2:
            raise SemanticSyntaxError(
                "hex literal needs an even number of digits",
                (token.line, token.column),
                len(token.value),
            )
        value = bytes.fromhex(digits).decode("latin-1")
        return ast.Literal(value, "string", pos=(token.line, token.column))

    def null(self, *tokens):
        return ast.Literal(None, "null", pos=_pos_of(tokens[0]) if tokens else None)

    def true(self, token):
        return ast.Literal(True, "bool", pos=(token.line, token.column))

    def false(self, token):
        return ast.Literal(False, "bool", pos=(token.line, token.column))

    # ------------------------------------------------------------ expressions

    def binary(self, left, op, right):
        name = op.value.upper()
        return ast.BinaryOp(_BINARY_OP_NAMES.get(name, name), left, right, pos=left.pos)

    def equal(self, left, right):
        return ast.BinaryOp("=", left, right, pos=left.pos)

    def multiply(self, left, right):
        return ast.BinaryOp("*", left, right, pos=left.pos)

    def unary(self, op, operand):
        name = op.value.upper()
        if name == "NOT" and isinstance(operand, ast.Exists) and not operand.negated:
            return ast.Exists(operand.query, negated=True, pos=(op.line, op.column))
        return ast.UnaryOp(name, operand, pos=(op.line, op.column))

    def is_null(self, operand, negated, *_null):
        return ast.IsNull(operand, negated is not None, pos=operand.pos)

    def between(self, operand, negated, low, high):
        return ast.Between(operand, low, high, negated is not None, pos=operand.pos)

    def in_list(self, operand, negated, items):
        return ast.InList(operand, items, negated is not None, pos=operand.pos)

    def in_subquery(self, operand, negated, query):
        return ast.InSubquery(operand, query, negated is not None, pos=operand.pos)

    def like(self, operand, negated, _like, pattern):
        return ast.Like(operand, pattern, negated is not None, pos=operand.pos)

    def double_colon_cast(self, operand, type_name):
        return ast.Cast(operand, type_name, double_colon=True, pos=operand.pos)

    def cast(self, keyword, operand, type_name):
        return ast.Cast(
            operand,
            type_name,
            try_=keyword.value.upper() == "TRY_CAST",
            pos=(keyword.line, keyword.column),
        )

    def scalar_subquery(self, query):
        return ast.ScalarSubquery(query, pos=query.pos)

    def exists(self, keyword, query):
        return ast.Exists(query, pos=(keyword.line, keyword.column))

    def current_timestamp(self, token):
        return ast.FunctionCall("current_timestamp", pos=(token.line, token.column))

    def current_date(self, token):
        return ast.FunctionCall("current_date", pos=(token.line, token.column))

    def column_ref(self, path):
        return ast.ColumnRef(_names(path), pos=_pos_of(path[0]))

    def function_call(self, name, quantifier, args):
        return ast.FunctionCall(
            _name(name).lower(),
            args or (),
            distinct=quantifier == "DISTINCT",
            pos=(name.line, name.column),
        )

    def from_form_call(self, name, first, second, third):
        """SUBSTRING(s FROM a [FOR b]) and TRIM(chars FROM s)."""
        function = _name(name).lower()
        pos = (name.line, name.column)
        if function in ("substring", "substr"):
            args = (first, second) if third is None else (first, second, third)
            return ast.FunctionCall(function, args, pos=pos)
        if function == "trim" and third is None:
            return ast.FunctionCall("trim_both", (second, first), pos=pos)
        raise SemanticSyntaxError(f"`{name.value}` takes no FROM argument", pos, len(name.value))

    def trim_side_call(self, name, side, chars, operand):
        pos = (name.line, name.column)
        if _name(name).lower() != "trim":
            raise SemanticSyntaxError(f"`{name.value}` takes no {side.value}", pos, len(name.value))
        function = "trim_" + side.value.lower()
        chars = chars if chars is not None else ast.Literal(" ", "string", pos=pos)
        return ast.FunctionCall(function, (operand, chars), pos=pos)

    def typed_literal(self, name, token):
        """DATE '2024-01-01', TIMESTAMP '...': a cast of the string to that type."""
        type_name = _name(name).upper()
        pos = (name.line, name.column)
        if type_name not in TYPED_LITERAL_TYPES:
            raise SemanticSyntaxError(
                f"unexpected string after `{name.value}`",
                (token.line, token.column),
                len(token.value),
            )
        literal = ast.Literal(
            unescape_string(token.value), "string", pos=(token.line, token.column)
        )
        return ast.Cast(literal, ast.TypeName(type_name, pos=pos), pos=pos)

    def function_quantifier(self, token):
        return token.value.upper()

    def count_star(self, name):
        return ast.FunctionCall(_name(name).lower(), star=True, pos=(name.line, name.column))

    def case_expr(self, keyword, operand, *rest):
        *whens, else_ = rest
        return ast.Case(operand, tuple(whens), else_, pos=(keyword.line, keyword.column))

    def case_when(self, condition, result):
        return (condition, result)

    def case_else(self, result):
        return result

    def expr_list(self, *exprs):
        return exprs

    # ------------------------------------------------------------ types

    def type_word(self, token):
        return token

    def column_type(self, base, nullable):
        if nullable is None:
            return base
        return replace(base, nullable=nullable)

    def type_nullability(self, *tokens):
        return len(tokens) == 1

    def base_type(self, name, second_word, *params):
        type_name = _name(name).upper()
        if second_word is not None:
            word = second_word.value.upper()
            if (type_name, word) not in (
                ("DOUBLE", "PRECISION"),
                ("SIGNED", "INTEGER"),
                ("UNSIGNED", "INTEGER"),
            ):
                raise SemanticSyntaxError(
                    f"unknown type `{name.value} {second_word.value}`",
                    (name.line, name.column),
                    len(name.value),
                )
        if type_name not in KNOWN_TYPES:
            raise SemanticSyntaxError(
                f"unknown type `{name.value}`", (name.line, name.column), len(name.value)
            )
        numbers = []
        for token in params:
            if token is None:
                continue
            if not token.value.isdigit():
                raise SemanticSyntaxError(
                    f"type parameter `{token.value}` is not an integer",
                    (token.line, token.column),
                    len(token.value),
                )
            numbers.append(int(token.value))
        return ast.TypeName(type_name, tuple(numbers), pos=(name.line, name.column))

    def nested_type(self, name, *args):
        type_name = _name(name).upper()
        if type_name not in NESTED_TYPES or len(args) != 1:
            raise SemanticSyntaxError(
                f"unknown type `{name.value}(...)`", (name.line, name.column), len(name.value)
            )
        return ast.TypeName(type_name, args=args, pos=(name.line, name.column))

    # ------------------------------------------------------------ queries

    def start(self, statement):
        return statement

    def query(self, with_clause, body, order_by, limit_clause):
        limit, offset = limit_clause or (None, None)
        body = _attach_tail(body, order_by or (), limit, offset)
        if with_clause is not None:
            return ast.With(with_clause, body, pos=with_clause[0].pos)
        return body

    def with_clause(self, _recursive, *ctes):
        return ctes

    def cte(self, name, columns, query):
        return ast.CommonTableExpr(_name(name), query, columns, pos=(name.line, name.column))

    def parenthesized_query(self, query):
        return query

    def set_operation(self, left, op, quantifier, right):
        return ast.SetOperation(
            op.value.upper(), left, right, all_=quantifier == "ALL", pos=left.pos
        )

    def set_quantifier(self, token):
        return token.value.upper()

    def select_quantifier(self, token):
        return token.value.upper()

    def select_core(self, quantifier, items, from_, where, group_by, having):
        return ast.Select(
            items=items,
            from_=from_,
            where=where,
            group_by=group_by or (),
            having=having,
            distinct=quantifier == "DISTINCT",
            pos=items[0].pos,
        )

    def select_list(self, *items):
        return items

    def star(self, token):
        pos = (token.line, token.column)
        return ast.SelectItem(ast.Star(pos=pos), pos=pos)

    def qualified_star(self, path):
        pos = _pos_of(path[0])
        return ast.SelectItem(ast.Star(_names(path), pos=pos), pos=pos)

    def select_item(self, expr, alias):
        return ast.SelectItem(expr, _alias_text(alias), pos=expr.pos)

    def explicit_alias(self, name):
        return _checked_alias(name, NEVER_ALIAS_WORDS)

    def implicit_alias(self, name):
        return _checked_alias(name, IMPLICIT_ALIAS_FORBIDDEN_WORDS)

    def string_alias(self, token):
        return unescape_string(token.value)

    def from_clause(self, *refs):
        result = refs[0]
        for right in refs[1:]:
            result = ast.Join("CROSS", result, right, pos=result.pos)
        return result

    def where_clause(self, expr):
        return expr

    def group_by(self, exprs):
        return exprs

    def having(self, expr):
        return expr

    def order_by(self, *items):
        return items

    def order_item(self, expr, direction, nulls_first):
        desc = direction is not None and direction.value.upper() == "DESC"
        return ast.OrderItem(expr, desc, nulls_first, pos=expr.pos)

    def nulls_order(self, token):
        return token.value.upper() == "FIRST"

    def limit_only(self, limit):
        return (limit, None)

    def limit_offset(self, limit, offset):
        return (limit, offset)

    def limit_comma(self, offset, limit):
        return (limit, offset)

    def offset_only(self, offset):
        return (None, offset)

    def explicit_table_alias(self, name, columns):
        return (_checked_alias(name, NEVER_ALIAS_WORDS), columns)

    def implicit_table_alias(self, name, columns):
        return (_checked_alias(name, IMPLICIT_ALIAS_FORBIDDEN_WORDS), columns)

    def table_ref(self, path, alias):
        alias_name = _table_alias_name(alias)
        return ast.TableRef(_names(path), alias_name, pos=_pos_of(path[0]))

    def table_function(self, name, args, alias):
        alias_name = _table_alias_name(alias)
        return ast.TableFunction(
            _name(name).lower(), args or (), alias_name, pos=(name.line, name.column)
        )

    def subquery_ref(self, query, alias):
        alias_name, columns = (_name(alias[0]), alias[1]) if alias else (None, None)
        return ast.SubqueryRef(query, alias_name, columns, pos=query.pos)

    def join(self, left, kind, right, condition):
        on, using = None, None
        if condition is not None:
            if condition[0] == "on":
                on = condition[1]
            else:
                using = condition[1]
        return ast.Join(kind, left, right, on=on, using=using, pos=left.pos)

    def natural_join(self, left, _natural, kind, right):
        return ast.Join(kind, left, right, natural=True, pos=left.pos)

    def cross_join(self, left, _cross, right):
        return ast.Join("CROSS", left, right, pos=left.pos)

    def join_kind(self, *tokens):
        for token in tokens:
            if token is not None and token.value.upper() in ("LEFT", "RIGHT", "FULL"):
                return token.value.upper()
        return "INNER"

    def join_on(self, expr):
        return ("on", expr)

    def join_using(self, idents):
        return ("using", _names(idents))

    # ------------------------------------------------------------ statements

    def if_not_exists(self, *_tokens):
        return True

    def if_exists(self, *_tokens):
        return True

    def create_database(self, if_not_exists, name):
        return ast.CreateDatabase(_name(name), bool(if_not_exists), pos=(name.line, name.column))

    def drop_database(self, if_exists, name):
        return ast.DropDatabase(_name(name), bool(if_exists), pos=(name.line, name.column))

    def use_database(self, name):
        return ast.UseDatabase(_name(name), pos=(name.line, name.column))

    def create_table(self, _transient, if_not_exists, name, body):
        columns, query, comment = body
        return ast.CreateTable(
            _names(name),
            columns,
            bool(if_not_exists),
            query,
            comment,
            pos=_pos_of(name[0]),
        )

    def columns_body(self, columns, comment):
        return (columns, None, comment)

    def columns_as_body(self, columns, comment, query):
        return (columns, query, comment)

    def as_body(self, comment, query):
        return ((), query, comment)

    def table_elements(self, *elements):
        return tuple(e for e in elements if e is not None)

    def column_def(self, name, type_name, *options):
        default = comment = None
        for option in options:
            if isinstance(option, _Comment):
                comment = option.text
            elif option is not None:
                default = option
        return ast.ColumnDef(_name(name), type_name, default, comment, pos=(name.line, name.column))

    def comment_option(self, token):
        return _Comment(unescape_string(token.value))

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
        """The table's COMMENT (the last one written), if any; other options are ignored."""
        comments = [o.text for o in options if isinstance(o, _Comment)]
        return comments[-1] if comments else None

    def table_option(self, *_args):
        return None

    def table_comment(self, token):
        return _Comment(unescape_string(token.value))

    def drop_table(self, if_exists, name):
        return ast.DropTable(_names(name), bool(if_exists), pos=_pos_of(name[0]))

    def truncate_table(self, *args):
        name = args[-1]
        return ast.TruncateTable(_names(name), pos=_pos_of(name[0]))

    def insert(self, *args):
        name, columns, (kind, source) = args[-3:]
        if kind == "rows":
            return ast.Insert(_names(name), columns, rows=source, pos=_pos_of(name[0]))
        return ast.Insert(_names(name), columns, query=source, pos=_pos_of(name[0]))

    def insert_values(self, *rows):
        return ("rows", rows)

    def values_row(self, exprs):
        return exprs or ()

    def insert_query(self, query):
        return ("query", query)

    def update(self, name, alias, *rest):
        *assignments, where = rest
        return ast.Update(_names(name), tuple(assignments), where, alias, pos=_pos_of(name[0]))

    def assignment(self, column, value):
        return ast.Assignment(_name(column), value, pos=(column.line, column.column))

    def delete(self, name, alias, where):
        return ast.Delete(_names(name), where, alias, pos=_pos_of(name[0]))

    def explicit_dml_alias(self, name):
        return _name(_checked_alias(name, NEVER_ALIAS_WORDS))

    def implicit_dml_alias(self, name):
        return _name(_checked_alias(name, IMPLICIT_ALIAS_FORBIDDEN_WORDS))

    def set_variable(self, is_global, name, value):
        return ast.SetVariable(
            _name(name).lower(), value, is_global is not None, pos=(name.line, name.column)
        )

    def unset_variable(self, *names):
        return ast.UnsetVariable(tuple(_name(n).lower() for n in names), pos=_pos_of(names[0]))

    def show_databases(self, like):
        return ast.Show("DATABASES", like=like)

    def show_tables(self, full, database, like):
        return ast.Show("TABLES", database=database, like=like, full=full is not None)

    def show_settings(self, like):
        return ast.Show("SETTINGS", like=like)

    def show_functions(self, like):
        return ast.Show("FUNCTIONS", like=like)

    def show_create_table(self, name):
        return ast.Show("CREATE_TABLE", table=_names(name), pos=_pos_of(name[0]))

    def show_processlist(self, where):
        """As Databend: SELECT * FROM system.processes [WHERE ...]."""
        return ast.Select((ast.SelectItem(ast.Star()),), ast.TableRef(("system", "processes")),
                          where=where)

    def kill(self, target, object_id):
        return ast.Kill(target.value.upper(), object_id, pos=(target.line, target.column))

    def kill_id_string(self, token):
        return unescape_string(token.value)

    def kill_id_word(self, token):
        return str(token.value)

    def show_from(self, name):
        return _name(name)

    def like_pattern(self, *tokens):
        return unescape_string(tokens[-1].value)

    def describe(self, *args):
        name = args[-1]
        return ast.Describe(_names(name), pos=_pos_of(name[0]))

    def explain(self, statement):
        return ast.Explain(statement, pos=statement.pos)


def _checked_alias(name: Token, reserved: frozenset[str]) -> Token:
    """`name` unless it is an unquoted reserved word (quote it to use it as an alias)."""
    if name.type == "NAME" and name.value.lower() in reserved:
        raise SemanticSyntaxError(
            f"unexpected `{name.value}`: a reserved keyword cannot be an alias unless quoted",
            (name.line, name.column),
            len(name.value),
        )
    return name


def _table_alias_name(alias) -> str | None:
    """The alias of a table or table function; column aliases are for subqueries only."""
    if alias is None:
        return None
    name, columns = alias
    if columns is not None:
        raise SemanticSyntaxError(
            "column aliases are only supported for subqueries",
            (name.line, name.column),
            len(name.value),
        )
    return _name(name)


def _alias_text(alias) -> str | None:
    if alias is None:
        return None
    if isinstance(alias, Token):
        return str(alias.value)
    return alias

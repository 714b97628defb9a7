"""Parse callbacks for expressions and type names."""

from __future__ import annotations

from dataclasses import replace

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import (
    BINARY_OP_NAMES,
    KNOWN_TYPES,
    NESTED_ARITY,
    NESTED_TYPES,
    TYPED_LITERAL_TYPES,
    UNSIGNED_TYPES,
    SemanticSyntaxError,
    ident_name,
    ident_names,
    pos_of,
    unescape_string,
)


@v_args(inline=True)
class ExpressionRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform); v_args applies per class (Lark wraps only a
    class\'s own methods)."""

    # ------------------------------------------------------------ expressions

    def binary(self, left, op, right):
        name = op.value.upper()
        return ast.BinaryOp(BINARY_OP_NAMES.get(name, name), left, right, pos=left.pos)

    def vector_distance(self, left, op, right):
        """a <=> b, a <+> b, a <-> b: cosine, L1 and L2 distance (engine.functions.vectors)."""
        name = {"<=>": "cosine_distance", "<+>": "l1_distance", "<->": "l2_distance"}[op.value]
        return ast.FunctionCall(name, (left, right), pos=left.pos)

    def equal(self, left, right):
        return ast.BinaryOp("=", left, right, pos=left.pos)

    def binary_not(self, left, op, not_token, right):
        return self.binary(left, op, self.unary(not_token, right))

    def equal_not(self, left, not_token, right):
        return self.equal(left, self.unary(not_token, right))

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

    def like_escape(self, operand, negated, _like, pattern, _escape, escape):
        """x LIKE p ESCAPE 'c': the pattern rewritten to the default escape (engine.functions.strings_more)."""
        pattern = ast.FunctionCall("like_escape_pattern", (pattern, escape), pos=pattern.pos)
        return ast.Like(operand, pattern, negated is not None, pos=operand.pos)

    def sounds_like(self, operand, _sounds, _like, other):
        """a SOUNDS LIKE b: soundex(a) = soundex(b)."""
        return ast.BinaryOp("=", ast.FunctionCall("soundex", (operand,), pos=operand.pos),
                            ast.FunctionCall("soundex", (other,), pos=other.pos), pos=operand.pos)

    def logical_xor(self, left, _xor, right):
        return ast.FunctionCall("xor", (left, right), pos=left.pos)

    def ilike(self, operand, negated, _ilike, pattern):
        return ast.FunctionCall("ilike", (operand, pattern), pos=operand.pos, negated=negated is not None,
                                operator="ilike")

    def regexp(self, operand, negated, keyword, pattern):
        return ast.FunctionCall("regexp", (operand, pattern), pos=operand.pos, negated=negated is not None,
                                operator=keyword.value.lower())

    def in_form_call(self, keyword, needle, haystack):
        """POSITION(needle IN haystack)."""
        return ast.FunctionCall("position", (needle, haystack), pos=(keyword.line, keyword.column),
                                operator="in")

    def position_call(self, keyword, needle, haystack):
        """POSITION(needle, haystack): POSITION is a keyword (for its IN form)."""
        return ast.FunctionCall("position", (needle, haystack), pos=(keyword.line, keyword.column))

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

    def interval(self, keyword, value, unit):
        """INTERVAL n unit: beside + or - a date step, else the INTERVAL value 'n unit'."""
        return ast.Interval(value, unit.value.lower(), pos=(keyword.line, keyword.column))

    def prefix_function(self, op, operand):
        """|/ x, ||/ x and @ x: sqrt(x), cbrt(x) and abs(x)."""
        name = {"|/": "sqrt", "||/": "cbrt", "@": "abs"}[op.value]
        return ast.FunctionCall(name, (operand,), pos=(op.line, op.column))

    def factorial(self, operand, op):
        return ast.FunctionCall("factorial", (operand,), pos=operand.pos)

    def interval_cast(self, keyword, value):
        """INTERVAL x (no unit): CAST(x AS INTERVAL), as Databend reads it."""
        pos = (keyword.line, keyword.column)
        return ast.Cast(value, ast.TypeName("INTERVAL", pos=pos), pos=pos)

    def signed_number(self, sign, number):
        return self.unary(sign, self.number(number))

    def interval_column(self, token):
        return ast.ColumnRef((token.value.lower(),), pos=(token.line, token.column))

    def column_ref(self, path):
        return ast.ColumnRef(ident_names(path), pos=pos_of(path[0]))

    def function_call(self, name, quantifier, args):
        # a quoted name keeps its case: `F`(x) calls the user function named F (Databend)
        written = ident_name(name)
        return ast.FunctionCall(
            written.lower() if name.type == "NAME" else written,
            args or (),
            distinct=quantifier == "DISTINCT",
            pos=(name.line, name.column),
        )

    def from_form_call(self, name, first, second, third):
        """SUBSTRING(s FROM a [FOR b]) and TRIM(chars FROM s)."""
        function = ident_name(name).lower()
        pos = (name.line, name.column)
        if function in ("substring", "substr"):
            args = (first, second) if third is None else (first, second, third)
            return ast.FunctionCall(function, args, pos=pos)
        if function == "trim" and third is None:
            return ast.FunctionCall("trim_both", (second, first), pos=pos)
        if function == "extract" and third is None:  # EXTRACT(unit FROM d)
            return ast.FunctionCall("extract", (first, second), pos=pos)
        raise SemanticSyntaxError(f"`{name.value}` takes no FROM argument", pos, len(name.value))

    def trim_side_call(self, name, side, chars, operand):
        pos = (name.line, name.column)
        if ident_name(name).lower() != "trim":
            raise SemanticSyntaxError(f"`{name.value}` takes no {side.value}", pos, len(name.value))
        function = "trim_" + side.value.lower()
        chars = chars if chars is not None else ast.Literal(" ", "string", pos=pos)
        return ast.FunctionCall(function, (operand, chars), pos=pos)

    def typed_literal(self, name, token):
        """DATE '2024-01-01', TIMESTAMP '...': a cast of the string to that type."""
        type_name = ident_name(name).upper()
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
        return ast.FunctionCall(ident_name(name).lower(), star=True, pos=(name.line, name.column))

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
        type_name = ident_name(name).upper()
        if second_word is not None and second_word.type == "WITH_TIME_ZONE" and type_name == "TIMESTAMP":
            type_name, second_word = "TIMESTAMP_TZ", None  # TIMESTAMP WITH TIME ZONE
        if second_word is not None:
            word = second_word.value.upper()
            if (type_name, word) not in (
                ("DOUBLE", "PRECISION"),
                ("SIGNED", "INTEGER"),
                ("UNSIGNED", "INTEGER"),
            ) and not (word == "UNSIGNED" and type_name in UNSIGNED_TYPES):
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
        if second_word is not None and second_word.value.upper() == "UNSIGNED":
            type_name = UNSIGNED_TYPES[type_name]
        return ast.TypeName(type_name, tuple(numbers), pos=(name.line, name.column))

    def width_unsigned_type(self, name, width, unsigned):
        """MySQL's `TINYINT(10) UNSIGNED`: the display width, then UNSIGNED (the width means nothing)."""
        type_name = ident_name(name).upper()
        if type_name not in UNSIGNED_TYPES:
            raise SemanticSyntaxError(f"unknown type `{name.value} {unsigned.value}`", (name.line, name.column),
                                      len(name.value))
        return ast.TypeName(UNSIGNED_TYPES[type_name], (int(width.value),), pos=(name.line, name.column))

    def nested_type(self, name, *args):
        type_name = ident_name(name).upper()
        if type_name not in NESTED_TYPES:
            raise SemanticSyntaxError(
                f"unknown type `{name.value}(...)`", (name.line, name.column), len(name.value)
            )
        if type_name in NESTED_ARITY and len(args) != NESTED_ARITY[type_name]:
            raise SemanticSyntaxError(
                f"{type_name} takes {NESTED_ARITY[type_name]} type(s), got {len(args)}",
                (name.line, name.column), len(name.value)
            )
        return ast.TypeName(type_name, args=args, pos=(name.line, name.column))

    def named_tuple_type(self, name, *fields):
        """TUPLE(a INT, b STRING): the field names travel as field_names of the TypeName."""
        if ident_name(name).upper() != "TUPLE":
            raise SemanticSyntaxError(
                f"unknown type `{name.value}(...)`", (name.line, name.column), len(name.value)
            )
        return ast.TypeName("TUPLE", args=tuple(t for _, t in fields),
                            field_names=tuple(n for n, _ in fields), pos=(name.line, name.column))

    def tuple_field(self, name, type_name):
        return (ident_name(name), type_name)

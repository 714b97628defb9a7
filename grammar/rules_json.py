"""Parse callbacks of the JSON access operators: v[k], v:a.b, v -> k and v ->> k, each a call of
the function that does the access, marked with the operator it was written as."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast

# operator -> the function Databend calls for it (JsonOperator::to_func_name)
JSON_OPERATORS = {
    "#>": "get_by_keypath", "#>>": "get_by_keypath_string", "#-": "delete_by_keypath",
    "?": "json_exists_key", "?|": "json_exists_any_keys", "?&": "json_exists_all_keys",
    "@>": "json_contains_in_left", "<@": "json_contains_in_right",
    "@?": "json_path_exists", "@@": "json_path_match",
}


@v_args(inline=True)
class JsonRules(Transformer):
    def subscript(self, operand, key):
        return ast.FunctionCall("json_subscript", (operand, key), pos=operand.pos, operator="[]")

    def colon_access(self, operand, names):
        result = operand
        for token in names:
            key = ast.Literal(token.value, "string", pos=(token.line, token.column))
            result = ast.FunctionCall("json_subscript", (result, key), pos=operand.pos, operator=":")
        return result

    def json_colon_path(self, *names):
        return list(names)

    def json_key(self, token):
        """A key after `:` as written (case kept), quotes removed."""
        if token.type == "NAME":
            return token
        quote = token.value[0]
        return token.update(value=token.value[1:-1].replace(quote * 2, quote))

    def json_operator(self, operand, op, right):
        return ast.FunctionCall(JSON_OPERATORS[op.value], (operand, right), pos=operand.pos,
                                operator=op.value)

    def json_arrow_not(self, operand, arrow, not_token, body):
        negated = ast.UnaryOp("NOT", body, pos=(not_token.line, not_token.column))
        return self.json_arrow(operand, arrow, negated)

    def json_arrow(self, operand, arrow, key):
        name = "get" if arrow.value == "->" else "json_arrow_text"
        return ast.FunctionCall(name, (operand, key), pos=operand.pos, operator=arrow.value)

"""Parse callbacks for session variables: SET VARIABLE, UNSET VARIABLE, SHOW VARIABLES and `$name`."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import SemanticSyntaxError, ident_name, pos_of


@v_args(inline=True)
class SessionRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform) for the session's variables."""

    def set_session_variable(self, name, value):
        return self._set((name,), value)

    def set_session_variables(self, names, value):
        return self._set(names, value)

    def _set(self, names, value):
        """`= (SELECT ...)` is a query giving one row (a column per name, as Databend binds a lone
        subquery); `(a, b) = (x, y)` gives one value per name."""
        pos = pos_of(names[0])
        lowered = tuple(ident_name(n).lower() for n in names)
        if isinstance(value, ast.ScalarSubquery):
            return ast.SetSessionVariables(lowered, query=value.query, pos=pos)
        if len(lowered) > 1 and isinstance(value, ast.FunctionCall) and value.name == "tuple_literal" \
                and value.operator == "(...)":
            values = value.args
        else:
            values = (value,)
        if len(values) != len(lowered):
            raise SemanticSyntaxError(f"Expect {len(lowered)} values in set statement, but got {len(values)}",
                                      pos, code=1006)
        return ast.SetSessionVariables(lowered, values, pos=pos)

    def statement_settings(self, *items):
        *assignments, statement = items
        names = tuple(name for name, _, _ in assignments)
        return ast.StatementSettings(names, tuple(value for _, value, _ in assignments), statement,
                                     pos=assignments[0][2])

    def setting_assignment(self, name, value):
        return ident_name(name).lower(), value, pos_of(name)

    def unset_session_variables(self, *names):
        return ast.UnsetSessionVariables(tuple(ident_name(n).lower() for n in names), pos=pos_of(names[0]))

    def show_variables(self, like):
        return ast.Show("VARIABLES", like=like)

    def dollar_variable(self, token):
        """$name: getvariable('name'), as Databend's parser rewrites it."""
        pos = pos_of(token)
        name = ast.Literal(str(token)[1:].lower(), "string", pos=pos)
        return ast.FunctionCall("getvariable", (name,), pos=pos)

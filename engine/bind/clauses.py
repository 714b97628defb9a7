"""Binding of the predicates Databend adds to plain comparisons: IS [NOT] DISTINCT FROM,
IS [NOT] TRUE|FALSE and `x op ALL|ANY|SOME (subquery)` (a base class of engine.bind.binder.Binder)."""

from __future__ import annotations

from dataclasses import replace

from engine import functions as F
from engine.core.errors import SEMANTIC, BadArguments, EngineError
from engine.functions.context import last_query_id
from engine.ir.expr import And, Col, Const, Expr, IsNull, Or, Subquery, SubqueryExpr
from engine.ir.plan import Project
from engine.types import sqltype as T
from grammar import ast as A

FALSE = Const(T.BOOLEAN, value=False)


class ClauseBinder:
    """Binds IsDistinctFrom, IsTruth and QuantifiedComparison nodes; lowered onto the binder's
    comparisons, NULL tests and COALESCE, so they compile like any other expression."""

    def _false_if_null(self, e: Expr) -> Expr:
        """COALESCE(e, FALSE): a Boolean that is never NULL."""
        if not e.type.can_be_null and e.type.name != "Null":
            return e
        out = self._function(F.SCALARS["coalesce"], [e, FALSE])
        # COALESCE answers Nullable as Databend types it; with a FALSE last this one never is NULL
        return replace(out, type=out.type.as_nullable(False))

    def bind_last_query_id(self, args, pos) -> Expr:
        """last_query_id(index): the id of an earlier statement of the session."""
        if len(args) != 1 or not isinstance(args[0], Const) or not isinstance(args[0].value, int):
            raise BadArguments("last_query_id takes one constant integer index", position=pos)
        value = last_query_id(self.ctx, args[0].value)
        return Const(T.STRING if value is not None else T.NULL, value=value)

    def bind_getvariable(self, args, pos) -> Expr:
        """getvariable(name) and $name: the session variable's value (SET VARIABLE) as a constant
        of its type, NULL when unset."""
        if len(args) != 1 or not isinstance(args[0], Const) or not isinstance(args[0].value, str | None):
            raise BadArguments("getvariable takes one constant string, the variable's name", position=pos)
        name = args[0].value
        variable = self.ctx.session.variables.get(name.lower()) if name is not None else None
        if variable is None:
            return Const(T.NULL, value=None)
        return Const(variable.type, value=variable.value)

    def _bind_IsDistinctFrom(self, n: A.IsDistinctFrom, scope, aliases):
        left = self.bind(n.left, scope, aliases)
        right = self.bind(n.right, scope, aliases)
        equal = self._false_if_null(self.compare("=", left, right))
        both_null = self._logic(And, [self._is_null(left), self._is_null(right)])
        same = self._logic(Or, [both_null, equal])
        same = same if isinstance(same, Const) else replace(same, type=T.BOOLEAN)
        return same if n.negated else self._not(same)

    def _is_null(self, e: Expr) -> Expr:
        if isinstance(e, Const):
            return Const(T.BOOLEAN, value=e.value is None)
        if not e.type.can_be_null:
            return Const(T.BOOLEAN, value=False)
        return IsNull(T.BOOLEAN, args=(e,), negated=False)

    def _bind_IsTruth(self, n: A.IsTruth, scope, aliases):
        operand = self.boolean(self.bind(n.operand, scope, aliases))
        test = operand if n.value else self._not(operand)
        e = self._false_if_null(test)
        return self._not(e) if n.negated else e

    def _bind_QuantifiedComparison(self, n: A.QuantifiedComparison, scope, aliases):
        operand = self.bind(n.operand, scope, aliases)
        sq, _ = self._subquery(n.query, scope, "quantified")
        if len(sq.plan.layout) != 1:
            raise EngineError(f"Subquery must return only one column, but got {len(sq.plan.layout)} columns",
                              code=SEMANTIC, position=n.pos)
        column = Col(sq.plan.types[0], column=sq.plan.layout[0])
        operand, column = self._comparable(operand, column)
        plan = sq.plan
        if not isinstance(column, Col):  # the subquery's values converted to the operand's type
            plan = Project([self.cid()], [column.type], child=plan, exprs=[column])
        quantified = Subquery("quantified", plan, sq.params, correlated=sq.correlated,
                              quantifier=(n.op, "ALL" if n.quantifier == "ALL" else "ANY"))
        return SubqueryExpr(T.BOOLEAN.as_nullable(True), args=(operand,), subquery=quantified)

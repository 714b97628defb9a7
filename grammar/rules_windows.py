"""Parse callbacks for window functions (OVER, WINDOW, QUALIFY), parametric aggregate calls
and the GROUP BY forms GROUPING SETS, ROLLUP, CUBE and ALL."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import SemanticSyntaxError, ident_name


@v_args(inline=True)
class WindowRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform) for windows and grouping sets."""

    # ------------------------------------------------------------ windows

    def window_call(self, func, window):
        return ast.WindowCall(func, window, pos=func.pos)

    def window_name(self, name):
        return ident_name(name)

    def window_spec(self, base, partition_by, order_by, frame):
        return ast.WindowSpec(ident_name(base) if base is not None else None, partition_by or (),
                              order_by or (), frame)

    def partition_by(self, exprs):
        return exprs

    def frame_start_only(self, units, start):
        return ast.WindowFrame(units.value.upper(), start, ast.FrameBound("CURRENT ROW"), between=False)

    def frame_between(self, units, start, end):
        return ast.WindowFrame(units.value.upper(), start, end)

    def frame_unbounded(self, direction):
        return ast.FrameBound("UNBOUNDED " + direction.value.upper())

    def frame_current_row(self):
        return ast.FrameBound("CURRENT ROW")

    def frame_offset(self, offset, direction):
        return ast.FrameBound(direction.value.upper(), offset, pos=offset.pos)

    def window_clause(self, *windows):
        return windows

    def named_window(self, name, spec):
        return ast.NamedWindow(ident_name(name), spec, pos=(name.line, name.column))

    def qualify_clause(self, expr):
        return expr

    def parametric_call(self, name, params, args):
        """quantile_cont(0.5)(x): an aggregate with constant parameters before its arguments."""
        return ast.FunctionCall(ident_name(name).lower(), args or (), params=params, pos=(name.line, name.column))

    def filtered_call(self, call, condition):
        """agg(x) FILTER (WHERE condition)."""
        if not isinstance(call, ast.FunctionCall) or call.filter is not None:
            raise SemanticSyntaxError("FILTER applies to one aggregate call", call.pos, 6)
        return replace(call, filter=condition)

    def within_group_call(self, call, _keyword, order_by):
        """agg(x) WITHIN GROUP (ORDER BY ...): written after the call's parentheses and before
        FILTER and OVER, once, as the current Databend parses it (Databend 1.2.453 has no such
        clause). Which functions take it is the binder's check (engine.bind.ordered_aggregates)."""
        if not isinstance(call, ast.FunctionCall) or call.star or call.operator is not None:
            raise SemanticSyntaxError("WITHIN GROUP applies to one aggregate call", call.pos, 6)
        if call.within_group:  # ordered already (by ORDER BY in its arguments)
            raise SemanticSyntaxError("ORDER BY inside aggregate arguments cannot be combined with WITHIN GROUP",
                                      call.pos, 6)
        if call.filter is not None:
            raise SemanticSyntaxError("WITHIN GROUP must come before FILTER", call.pos, 6)
        return replace(call, within_group=tuple(order_by))

    def argument_order_call(self, name, quantifier, args, order_by):
        """agg(x, ... ORDER BY ...): the current Databend's other spelling of WITHIN GROUP (the
        same call, printed with WITHIN GROUP)."""
        return ast.FunctionCall(ident_name(name).lower(), args, distinct=quantifier == "DISTINCT",
                                within_group=tuple(order_by), pos=(name.line, name.column))

    # ------------------------------------------------------------ GROUP BY forms

    def group_by(self, *items):
        """The GROUP BY items: plain expressions, or one GroupingSets when an item is ROLLUP (...),
        CUBE (...) or GROUPING SETS (...): then every item's sets crossed, as Databend
        (`a, ROLLUP (b)` is GROUPING SETS ((a, b), (a)))."""
        options = [_item_sets(item) for item in items]
        if all(o is None for o in options):
            return items
        if len(items) == 1:
            return (options[0],)
        sets = [()]
        for item, o in zip(items, options, strict=True):
            choices = ((item,),) if o is None else o.sets
            sets = [done + more for done in sets for more in choices]
        # a key twice in a set, or a set twice (as sets of keys): once, as Databend dedupes them
        unique, seen = [], set()
        for keys in sets:
            keys = tuple(dict.fromkeys(keys))
            if frozenset(keys) not in seen:
                seen.add(frozenset(keys))
                unique.append(keys)
        return (ast.GroupingSets(tuple(unique), pos=None),)

    def group_by_all(self, token):
        return (ast.GroupByAll(pos=(token.line, token.column)),)

    def grouping_sets(self, *sets):
        return ast.GroupingSets(sets, pos=None)

    def empty_grouping_set(self):
        return ()

    def grouping_set_list(self, first, rest):
        return (first, *rest)

    def grouping_set(self, expr):
        if isinstance(expr, ast.FunctionCall) and expr.operator == "(...)":
            return expr.args  # `(a, b)`: a list of expressions, not a tuple value
        return (expr,)


def _item_sets(item):
    """A GROUP BY item's grouping sets (a GroupingSets), None for a plain expression."""
    if isinstance(item, ast.GroupingSets):
        return item
    if isinstance(item, ast.FunctionCall) and not item.distinct and item.name in ("rollup", "cube") and item.args:
        keys = item.args
        if item.name == "rollup":
            sets = tuple(keys[:n] for n in range(len(keys), -1, -1))
        else:
            sets = tuple(c for n in range(len(keys), -1, -1) for c in combinations(keys, n))
        return ast.GroupingSets(sets, written=(item.name.upper(), keys), pos=item.pos)
    return None

"""Parse callbacks for DML beyond INSERT/UPDATE/DELETE (INSERT OVERWRITE, REPLACE, MERGE, multi-table
INSERT, VALUES) and the query clauses that come with it (TOP, EXCLUDE, SEMI/ANTI joins,
quantified comparisons, IS [NOT] DISTINCT FROM, IS [NOT] TRUE|FALSE)."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import check_assignments, ident_name, ident_names, number_literal, pos_of


def _token_pos(token):
    return (token.line, token.column)


@v_args(inline=True)
class DmlRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform); v_args applies per class (Lark wraps only a
    class\'s own methods)."""

    # ------------------------------------------------------------ VALUES items

    def values_items(self, *items):
        return items

    def default_value(self, token):
        return ast.Default(pos=_token_pos(token))

    # ------------------------------------------------------------ statements

    def insert_overwrite(self, name, columns, source):
        kind, rows_or_query = source
        if kind == "rows":
            return ast.Insert(ident_names(name), columns, rows=rows_or_query, overwrite=True, pos=pos_of(name[0]))
        return ast.Insert(ident_names(name), columns, query=rows_or_query, overwrite=True, pos=pos_of(name[0]))

    def replace_into(self, name, columns, keys, source):
        kind, rows_or_query = source
        if kind == "stage":  # `... FROM @stage FILE_FORMAT = (...)`
            return ast.Replace(ident_names(name), columns, ident_names(keys), stage=rows_or_query,
                               pos=pos_of(name[0]))
        rows, query = (rows_or_query, None) if kind == "rows" else (None, rows_or_query)
        return ast.Replace(ident_names(name), columns, ident_names(keys), rows, query, pos=pos_of(name[0]))

    def update_from(self, *refs):
        result = refs[0]
        for right in refs[1:]:
            result = ast.Join("CROSS", result, right, pos=result.pos)
        return result

    def values_statement(self, *args):
        *rows, order_by, limit_clause = args
        limit, offset = limit_clause or (None, None)
        return ast.Values(tuple(rows), order_by or (), limit, offset, pos=_first_pos(rows))

    def values_ref(self, *args):
        *rows, alias = args
        values = ast.Values(tuple(rows), pos=_first_pos(rows))
        alias_name, columns = (ident_name(alias[0]), alias[1]) if alias else (None, None)
        return ast.ValuesRef(values, alias_name, columns, pos=values.pos)

    def lateral_ref(self, keyword, query, alias):
        alias_name, columns = (ident_name(alias[0]), alias[1]) if alias else (None, None)
        return ast.LateralRef(query, alias_name, columns, pos=_token_pos(keyword))

    # ------------------------------------------------------------ multi-table INSERT

    def multi_into(self, name, columns, values):
        return ast.IntoTarget(ident_names(name), columns, values, pos=pos_of(name[0]))

    def multi_when(self, condition, *targets):
        return (condition, targets)

    def multi_else(self, *targets):
        return targets

    def multi_source(self, with_clause, body, order_by, limit_clause):
        return self.query(with_clause, body, order_by, limit_clause)

    def insert_multi_all(self, _all, *args):
        *targets, query = args
        return ast.InsertMulti(False, ((None, tuple(targets)),), (), query, pos=targets[0].pos)

    def insert_multi_when(self, kind, *args):
        *branches, else_, query = args
        return ast.InsertMulti(kind.value.upper() == "FIRST", tuple(branches), else_ or (), query,
                               pos=_token_pos(kind))

    # ------------------------------------------------------------ MERGE

    def merge(self, name, alias, source, on, *clauses):
        for clause in clauses:
            if clause.action == "UPDATE" and clause.assignments:
                check_assignments(clause.assignments, ident_names(name), alias)
        return ast.Merge(ident_names(name), alias, source, on, clauses, pos=pos_of(name[0]))

    def merge_update(self, condition, *assignments):
        return ast.MergeClause("UPDATE", condition, tuple(assignments))

    def merge_update_star(self, condition):
        return ast.MergeClause("UPDATE", condition, None)

    def merge_delete(self, condition):
        return ast.MergeClause("DELETE", condition)

    def merge_insert(self, condition, columns, values):
        return ast.MergeClause("INSERT", condition, columns=columns, values=values)

    def merge_insert_star(self, condition):
        return ast.MergeClause("INSERT", condition)

    # ------------------------------------------------------------ query clauses

    def top_quantifier(self, token):
        return number_literal(token.value, _token_pos(token))

    def distinct_top_quantifier(self, _distinct, token):
        return ("DISTINCT", self.top_quantifier(token))

    def exclude(self, names):
        if isinstance(names, tuple):
            return ident_names(names)
        return (ident_name(names),)

    def semi_join_kind(self, *tokens):
        words = [t.value.upper() for t in tokens if t is not None]
        side = "RIGHT" if words[0] == "RIGHT" else "LEFT"
        return f"{side} {words[-1]}"

    # ------------------------------------------------------------ predicates

    def quantified_comparison(self, operand, op, quantifier, query):
        name = {"!=": "<>", "==": "="}.get(op.value, op.value)
        return ast.QuantifiedComparison(name, operand, quantifier.value.upper(), query, pos=operand.pos)

    def quantified_equal(self, operand, quantifier, query):
        return ast.QuantifiedComparison("=", operand, quantifier.value.upper(), query, pos=operand.pos)

    def any_call_comparison(self, operand, op, word, args):
        name = {"!=": "<>", "==": "="}.get(op.value, op.value)
        call = ast.FunctionCall("any", args, pos=_token_pos(word))
        return ast.BinaryOp(name, operand, call, pos=operand.pos)

    def any_call_equal(self, operand, word, args):
        return self.any_call_comparison(operand, word.update(value="="), word, args)

    def is_distinct_from(self, left, negated, _distinct, right):
        return ast.IsDistinctFrom(left, right, negated is not None, pos=left.pos)

    def is_truth(self, operand, negated, token):
        return ast.IsTruth(operand, token.value.upper() == "TRUE", negated is not None, pos=operand.pos)


def _first_pos(rows):
    for row in rows:
        for item in row:
            if getattr(item, "pos", None) is not None:
                return item.pos
    return None



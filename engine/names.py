"""Column names for unaliased select items, printed from the AST the way Databend prints them:
the expression text in lower case, with parentheses only where precedence needs them."""

from __future__ import annotations

import decimal
from dataclasses import replace

from engine.nested import cast_type, typeof_name
from engine.types import type_from_ast
from grammar import ast as A

# Binding strength, loosest first (as in the grammar); a child operand is parenthesised only when
# it binds more loosely than its parent (so `a - (1 - 2)` prints as `a - 1 - 2`, as Databend does).
_OR, _AND, _NOT, _COMPARE, _BIT, _SHIFT, _CONCAT, _ADD, _MUL, _UNARY, _CAST, _ATOM = range(12)
_BINARY_PRECEDENCE = {
    "OR": _OR, "AND": _AND,
    "=": _COMPARE, "<>": _COMPARE, "<": _COMPARE, "<=": _COMPARE, ">": _COMPARE, ">=": _COMPARE,
    "&": _BIT, "|": _BIT, "#": _BIT, "<<": _SHIFT, ">>": _SHIFT,
    "||": _CONCAT, "+": _ADD, "-": _ADD, "*": _MUL, "/": _MUL, "DIV": _MUL, "%": _MUL,
}
_UNIT_CALLS = frozenset({"date_part", "date_add", "date_sub", "date_diff", "date_trunc", "extract"})
_SUBSTRING_NAMES = frozenset({"substring", "substr", "mid"})
_TRIM_SIDES = {"trim_both": "both", "trim_leading": "leading", "trim_trailing": "trailing"}


def column_name(expr) -> str:
    """The name Databend gives an unaliased select item."""
    if isinstance(expr, A.ColumnRef):
        return expr.parts[-1]
    return display(expr).lower()


def display(node) -> str:
    fn = _PRINTERS.get(type(node))
    return fn(node) if fn else type(node).__name__.lower()


def _precedence(node) -> int:
    if isinstance(node, A.BinaryOp):
        return _BINARY_PRECEDENCE.get(node.op, _COMPARE)
    if isinstance(node, A.UnaryOp):
        return _NOT if node.op == "NOT" else _UNARY
    if isinstance(node, A.IsNull | A.Between | A.InList | A.InSubquery | A.Like | A.IsDistinctFrom
                  | A.IsTruth | A.QuantifiedComparison):
        return _COMPARE
    if isinstance(node, A.FunctionCall) and node.operator in _JSON_ACCESS:
        return _ATOM if node.operator in ("[]", ":") else _UNARY
    if isinstance(node, A.FunctionCall) and node.operator is not None and node.operator != "in" \
            and node.operator not in _NESTED_LITERALS:
        return _COMPARE
    if isinstance(node, A.Cast) and node.double_colon:
        return _CAST
    return _ATOM


def _operand(node, parent_precedence: int) -> str:
    text = display(node)
    return f"({text})" if _precedence(node) < parent_precedence else text


_STRING_ESCAPES = str.maketrans({"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"})


def _literal(n: A.Literal) -> str:
    if n.kind == "string":
        return "'" + str(n.value).translate(_STRING_ESCAPES) + "'"
    if n.kind == "null":
        return "NULL"
    if n.kind == "bool":
        return "TRUE" if n.value else "FALSE"
    if n.kind == "float":
        # Databend reads 1e3 as the exact number 1000 and prints it that way
        return format(decimal.Decimal(repr(n.value)).normalize(), "f")
    if n.kind == "decimal":
        text = str(n.value)
        return "0" + text if text.startswith(".") else text.rstrip(".")
    return str(n.value)


def _type(t: A.TypeName) -> str:
    try:
        written = cast_type(t)
        if written.args:  # array(int32 null), map(string, int32), tuple(int32, string)
            return typeof_name(written).lower()
        return type_from_ast(t).display().lower()
    except Exception:  # noqa: BLE001 - an unknown type is reported by the binder, not here
        return t.name.lower()


def _cast(n: A.Cast) -> str:
    if n.double_colon:
        type_text = _type(n.type)
        if type_text.startswith("nullable(") and type_text.endswith(")"):
            type_text = type_text[len("nullable("):-1] + " null"
        return f"{_operand(n.operand, _CAST)}::{type_text}"
    return f"{'try_cast' if n.try_ else 'cast'}({display(n.operand)} as {_type(n.type)})"


def _window_call(n: A.WindowCall) -> str:
    """`f(x) over w` or `f(x) over ( partition by .. order by .. rows between .. and .. )`."""
    func = n.func
    if func.name == "avg" and not func.distinct and len(func.args) == 1:
        func = A.FunctionCall("avg_", func.args)  # no AVG rewrite for a window aggregate
        head = _func(func).replace("avg_(", "avg(", 1)
    else:
        head = _func(func)
    if isinstance(n.window, str):
        return f"{head} over {n.window}"
    spec = n.window
    parts = []
    if spec.base:
        parts.append(spec.base)
    if spec.partition_by:
        parts.append("partition by " + ", ".join(display(e) for e in spec.partition_by))
    if spec.order_by:
        items = []
        for o in spec.order_by:
            text = display(o.expr) + (" desc" if o.desc else "")
            if o.nulls_first is not None:
                text += " nulls first" if o.nulls_first else " nulls last"
            items.append(text)
        parts.append("order by " + ", ".join(items))
    if spec.frame is not None:
        f = spec.frame
        parts.append(f"{f.units.lower()} between {_bound(f.start)} and {_bound(f.end)}")
    return f"{head} over ( {' '.join(parts)}{' ' if parts else ''})"


_JSON_ACCESS = frozenset({"[]", ":", "->", "->>"})


def _json_access(n: A.FunctionCall) -> str:
    """As Databend names JSON access: v['k'], v[0], v:a:b, v -> 'k', v ->> 'k'."""
    operand, key = n.args
    if n.operator == "[]":
        return f"{_operand(operand, _ATOM)}[{display(key)}]"
    if n.operator == ":":
        return f"{_operand(operand, _ATOM)}:{key.value}"
    return f"{_operand(operand, _UNARY)} {n.operator} {_operand(key, _UNARY + 1)}"


_NESTED_LITERALS = frozenset({"[...]", "{...}", "(...)", "."})


def _nested_literal(n: A.FunctionCall) -> str:
    """As Databend names literals: [1, 2], {'a':1,'b':2} (no spaces), (1, 'x')."""
    items = [display(a) for a in n.args]
    if n.operator == "[...]":
        return f"[{', '.join(items)}]"
    if n.operator == "{...}":
        return "{" + ",".join(f"{k}:{v}" for k, v in zip(items[0::2], items[1::2], strict=True)) + "}"
    return f"({', '.join(items)})"


def _bound(b: A.FrameBound) -> str:
    if b.offset is None:
        return b.kind.lower()
    return f"{display(b.offset)} {b.kind.lower()}"


def _func(n: A.FunctionCall) -> str:
    if n.filter is not None:
        return f"{_func(replace(n, filter=None))} filter (where {display(n.filter)})"
    if n.star:
        return f"{n.name}(*)"
    if n.operator in _JSON_ACCESS:
        return _json_access(n)
    if n.operator == ".":  # a tuple's field: t.1
        return f"{_operand(n.args[0], _ATOM)}.{n.args[1].value}"
    if n.operator in _NESTED_LITERALS:
        return _nested_literal(n)
    if n.operator == "in":
        return f"position({display(n.args[0])} in {display(n.args[1])})"
    if n.operator is not None:  # a REGEXP b, a NOT RLIKE b, a ILIKE b
        left, right = (_operand(a, _BIT) for a in n.args)
        return f"{left} {_not(n.negated)}{n.operator} {right}"
    args = [display(a) for a in n.args]
    if n.name in _SUBSTRING_NAMES and 2 <= len(args) <= 3:
        tail = f" for {args[2]}" if len(args) == 3 else ""
        return f"substring({args[0]} from {args[1]}{tail})"
    if n.name in _TRIM_SIDES and len(args) == 2:
        return f"trim({_TRIM_SIDES[n.name]} {args[1]} from {args[0]})"
    if n.name in _UNIT_CALLS and args and isinstance(n.args[0], A.Literal) and n.args[0].kind == "string":
        args[0] = str(n.args[0].value).lower()  # DATE_PART('day', d) is named date_part(day, d)
    if n.name == "extract" and len(args) == 2:
        return f"extract({args[0]} from {args[1]})"
    distinct = "distinct " if n.distinct else ""
    if n.params:
        return f"{n.name}({', '.join(display(p) for p in n.params)})({distinct}{', '.join(args)})"
    if n.name == "avg" and not n.distinct and len(args) == 1:
        # Databend rewrites AVG(x) before naming the column
        x = args[0]
        return f"sum({x}) / if(count({x}) = 0, 1, count({x}))"
    return f"{n.name}({distinct}{', '.join(args)})"


def _case(n: A.Case) -> str:
    parts = ["case"]
    if n.operand is not None:
        parts.append(display(n.operand) + " ")  # Databend prints two spaces here
    for cond, res in n.whens:
        parts.append(f"when {display(cond)} then {display(res)}")
    if n.else_ is not None:
        parts.append(f"else {display(n.else_)}")
    parts.append("end")
    return " ".join(parts)


def _binary(n: A.BinaryOp) -> str:
    precedence = _BINARY_PRECEDENCE.get(n.op, _COMPARE)
    op = n.op.lower() if n.op.isalpha() else n.op
    return f"{_operand(n.left, precedence)} {op} {_operand(n.right, precedence)}"


def _unary(n: A.UnaryOp) -> str:
    if n.op == "NOT":
        return f"not {_operand(n.operand, _NOT)}"
    return f"{n.op} {_operand(n.operand, _UNARY)}"


def _not(negated: bool) -> str:
    return "not " if negated else ""


# ---------------------------------------------------------------- queries (subquery columns)


def _query(n) -> str:
    if isinstance(n, A.With):
        recursive = ""
        ctes = ", ".join(_cte(c) for c in n.ctes)
        return f"with {recursive}{ctes} {_query(n.query)}"
    if isinstance(n, A.SetOperation):
        quantifier = " all" if n.all_ else ""
        text = f"{_query(n.left)} {n.op.lower()}{quantifier} {_query(n.right)}"
        return text + _tail(n)
    if isinstance(n, A.Select):
        return _select(n)
    return display(n)


def _cte(c: A.CommonTableExpr) -> str:
    columns = f"({', '.join(c.columns)})" if c.columns else ""
    return f"{c.name}{columns} as ({_query(c.query)})"


def _select(n: A.Select) -> str:
    parts = ["select"]
    if n.distinct:
        parts.append("distinct")
    parts.append(", ".join(_select_item(i) for i in n.items))
    if n.from_ is not None:
        parts.append("from " + _from(n.from_))
    if n.where is not None:
        parts.append("where " + display(n.where))
    if n.group_by:
        parts.append("group by " + ", ".join(display(g) for g in n.group_by))
    if n.having is not None:
        parts.append("having " + display(n.having))
    return " ".join(parts) + _tail(n)


def _tail(n) -> str:
    text = ""
    if n.order_by:
        text += " order by " + ", ".join(_order_item(o) for o in n.order_by)
    if n.limit is not None:
        text += " limit " + display(n.limit)
    if n.offset is not None:
        text += " offset " + display(n.offset)
    return text


def _order_item(o: A.OrderItem) -> str:
    text = display(o.expr)
    if o.desc:
        text += " desc"
    elif o.nulls_first is not None:
        text += " asc"
    if o.nulls_first is not None:
        text += " nulls first" if o.nulls_first else " nulls last"
    return text


def _select_item(i: A.SelectItem) -> str:
    text = display(i.expr)
    return f"{text} as {i.alias}" if i.alias is not None else text


def _alias(alias) -> str:
    return f" as {alias}" if alias else ""


_JOIN_WORDS = {"INNER": "inner join", "LEFT": "left outer join", "RIGHT": "right outer join",
               "FULL": "full outer join", "CROSS": "cross join"}


def _table_arg(a) -> str:
    return f"{a.name} => {display(a.value)}" if isinstance(a, A.NamedArg) else display(a)


def _from(n) -> str:
    if isinstance(n, A.TableRef):
        return ".".join(n.name) + _alias(n.alias)
    if isinstance(n, A.TableFunction):
        return f"{n.name}({', '.join(_table_arg(a) for a in n.args)})" + _alias(n.alias)
    if isinstance(n, A.LateralFunction):
        return "lateral " + _from(n.function)
    if isinstance(n, A.SubqueryRef):
        columns = f"({', '.join(n.column_aliases)})" if n.column_aliases else ""
        return f"({_query(n.query)}){_alias(n.alias)}{columns}"
    if isinstance(n, A.Pivot | A.Unpivot):
        return _pivoted(n)
    if isinstance(n, A.Join):
        natural = "natural " if n.natural else ""
        text = f"{_from(n.left)} {natural}{_JOIN_WORDS.get(n.kind, 'join')} {_from(n.right)}"
        if n.on is not None:
            text += " on " + display(n.on)
        elif n.using:
            text += f" using({', '.join(n.using)})"
        return text
    return display(n)


def _pivoted(n) -> str:
    """Databend's text of a pivoted FROM item: `t as a pivot(sum(x) for k in ('v'))`."""
    text = _from(n.source)
    if isinstance(n, A.Pivot):
        values = ", ".join(display(v) for v in n.values)
        return f"{text} pivot({display(n.aggregate)} for {n.key} in ({values}))"
    columns = ", ".join(c.source_text if c.label is None else f"{c.source_text} as {quoted(c.label)}"
                        for c in n.columns)
    return f"{text} unpivot({n.value_column} for {n.name_column} in ({columns}))"


_PRINTERS = {
    A.Interval: lambda n: f"interval {display(n.value)} {n.unit}",
    A.Literal: _literal,
    A.ColumnRef: lambda n: ".".join(n.parts),
    A.Star: lambda n: ".".join((*n.table, "*")) if n.table else "*",
    A.UnaryOp: _unary,
    A.BinaryOp: _binary,
    A.IsNull: lambda n: f"{_operand(n.operand, _COMPARE)} is {_not(n.negated)}null",
    A.Between: lambda n: (f"{_operand(n.operand, _COMPARE)} {_not(n.negated)}between "
                          f"{_operand(n.low, _CONCAT)} and {_operand(n.high, _CONCAT)}"),
    A.InList: lambda n: (f"{_operand(n.operand, _COMPARE)} {_not(n.negated)}"
                         f"in({', '.join(display(i) for i in n.items)})"),
    A.InSubquery: lambda n: f"{_operand(n.operand, _COMPARE)} {_not(n.negated)}in({_query(n.query)})",
    A.Like: lambda n: f"{_operand(n.operand, _COMPARE)} {_not(n.negated)}like {_operand(n.pattern, _CONCAT)}",
    A.Exists: lambda n: f"{_not(n.negated)}exists ({_query(n.query)})",
    A.ScalarSubquery: lambda n: f"({_query(n.query)})",
    A.Case: _case,
    A.Cast: _cast,
    A.FunctionCall: _func,
    A.WindowCall: lambda n: _window_call(n),
    A.Select: _query,
    A.SetOperation: _query,
    A.With: _query,
}

_PRINTERS.update({
    A.IsDistinctFrom: lambda n: (f"{_operand(n.left, _COMPARE)} is {_not(n.negated)}distinct from "
                                 f"{_operand(n.right, _COMPARE)}"),
    A.IsTruth: lambda n: f"{_operand(n.operand, _COMPARE)} is {_not(n.negated)}{'true' if n.value else 'false'}",
    A.QuantifiedComparison: lambda n: (f"{_operand(n.operand, _COMPARE)} {n.op} {n.quantifier.lower()} "
                                       f"({_query(n.query)})"),
})


def quoted(text: str) -> str:
    """A string as a SQL literal the way Databend writes one back: single quotes, backslash
    escapes for backslashes and quotes."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def default_text(value, written) -> str:
    """A column default as DESCRIBE and SHOW CREATE TABLE show it: the folded constant (`1 + 2`
    shows as 3), else the expression as written."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | decimal.Decimal):
        return str(value)
    if isinstance(value, str):
        return quoted(value)
    return display(written)

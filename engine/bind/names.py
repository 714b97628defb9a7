"""Column names for unaliased select items, printed from the AST the way Databend prints them:
the expression text in lower case, with parentheses only where precedence needs them.

`DisplayPrinter` is the printer; engine.statements.view_text derives the printer of view text from it
(upper-case keywords, every parenthesis the tree needs)."""

from __future__ import annotations

import decimal
from dataclasses import replace

from engine.types.float_text import shortest_single
from engine.types.nested import cast_type, typeof_name
from engine.types.sqltype import type_from_ast
from grammar import ast as A

# Binding strength, loosest first (as in the grammar); a child operand is parenthesised only when
# it binds more loosely than its parent (so `a - (1 - 2)` prints as `a - 1 - 2`, as Databend does).
OR, AND, NOT, COMPARE, BIT, SHIFT, CONCAT, ADD, MUL, UNARY, CAST, ATOM = range(12)
BINARY_PRECEDENCE = {
    "OR": OR, "AND": AND,
    "=": COMPARE, "<>": COMPARE, "<": COMPARE, "<=": COMPARE, ">": COMPARE, ">=": COMPARE,
    "&": BIT, "|": BIT, "#": BIT, "<<": SHIFT, ">>": SHIFT,
    "||": CONCAT, "+": ADD, "-": ADD, "*": MUL, "/": MUL, "DIV": MUL, "//": MUL, "%": MUL,
}
UNIT_CALLS = frozenset({"date_part", "date_add", "date_sub", "date_diff", "date_trunc", "extract"})
_SUBSTRING_NAMES = frozenset({"substring", "substr", "mid"})
TRIM_SIDES = {"trim_both": "both", "trim_leading": "leading", "trim_trailing": "trailing"}
JSON_ACCESS = frozenset({"[]", ":", "->", "->>", "#>", "#>>", "#-", "?", "?|", "?&", "@>", "<@",
                         "@?", "@@"})
NESTED_LITERALS = frozenset({"[...]", "{...}", "(...)", "."})
_STRING_ESCAPES = str.maketrans({"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"})
_JOIN_WORDS = {"INNER": "inner join", "LEFT": "left outer join", "RIGHT": "right outer join",
               "FULL": "full outer join", "CROSS": "cross join"}


def precedence(node) -> int:
    """How tightly `node` binds as an operand (ATOM: never parenthesised)."""
    if isinstance(node, A.BinaryOp):
        return BINARY_PRECEDENCE.get(node.op, COMPARE)
    if isinstance(node, A.UnaryOp):
        return NOT if node.op == "NOT" else UNARY
    if isinstance(node, A.IsNull | A.Between | A.InList | A.InSubquery | A.Like | A.IsDistinctFrom
                  | A.IsTruth | A.QuantifiedComparison):
        return COMPARE
    if isinstance(node, A.FunctionCall) and node.operator in JSON_ACCESS:
        return ATOM if node.operator in ("[]", ":") else UNARY
    if isinstance(node, A.FunctionCall) and node.operator is not None and node.operator != "in" \
            and node.operator not in NESTED_LITERALS:
        return COMPARE
    if isinstance(node, A.Cast) and node.double_colon:
        return CAST
    return ATOM


class DisplayPrinter:
    """Prints expressions (and the subqueries in them) as Databend names columns: keywords in
    lower case, a child parenthesised only when it binds more loosely than its parent, AVG(x)
    printed as Databend rewrites it. Subclasses change the hooks (`kw`, `ident`, `operand`,
    `literal`, `type_text`, `query`)."""

    avg_rewrite = True

    def __init__(self):
        self.printers = {node_type: getattr(self, method) for node_type, method in _METHODS.items()}

    def text(self, node) -> str:
        printer = self.printers.get(type(node))
        return printer(node) if printer is not None else type(node).__name__.lower()

    # ------------------------------------------------------------ hooks

    def kw(self, word: str) -> str:
        """A keyword, as this printer writes keywords."""
        return word

    def ident(self, name: str) -> str:
        """An identifier (column, table, alias)."""
        return name

    def name(self, parts) -> str:
        return ".".join(self.ident(p) for p in parts)

    def operand(self, node, parent: int, right: bool = False) -> str:
        """`node` as an operand of an operator binding with strength `parent` (`right`: the
        right operand of a binary operator)."""
        text = self.text(node)
        return f"({text})" if precedence(node) < parent else text

    def literal(self, n: A.Literal) -> str:
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
        if n.kind == "binary":
            return f"X'{n.value.hex().upper()}'"
        return str(n.value)

    def type_text(self, t: A.TypeName) -> str:
        try:
            written = cast_type(t, keep_names=True)
            if written.args:  # array(int32 null), map(string, int32), tuple(a int32, b string)
                return typeof_name(written, with_names=True).lower()
            return type_from_ast(t).display().lower()
        except Exception:  # noqa: BLE001 - an unknown type is reported by the binder, not here
            return t.name.lower()

    # ------------------------------------------------------------ expressions

    def column_ref(self, n: A.ColumnRef) -> str:
        return ".".join(n.parts)

    def star(self, n: A.Star) -> str:
        return ".".join((*(self.ident(p) for p in n.table), "*")) if n.table else "*"

    def interval(self, n: A.Interval) -> str:
        return f"{self.kw('interval')} {self.text(n.value)} {self.interval_unit(n.unit)}"

    def interval_unit(self, unit: str) -> str:
        return unit

    def cast(self, n: A.Cast) -> str:
        if n.double_colon:
            type_text = self.type_text(n.type)
            if type_text.startswith("nullable(") and type_text.endswith(")"):
                type_text = type_text[len("nullable("):-1] + " null"
            return f"{self.operand(n.operand, CAST)}::{type_text}"
        head = self.kw("try_cast" if n.try_ else "cast")
        return f"{head}({self.text(n.operand)} {self.kw('as')} {self.type_text(n.type)})"

    def window_call(self, n: A.WindowCall) -> str:
        """`f(x) over w` or `f(x) over ( partition by .. order by .. rows between .. and .. )`."""
        func = n.func
        if self.avg_rewrite and func.name == "avg" and not func.distinct and len(func.args) == 1:
            func = A.FunctionCall("avg_", func.args)  # no AVG rewrite for a window aggregate
            head = self.func(func).replace("avg_(", "avg(", 1)
        else:
            head = self.func(func)
        if isinstance(n.window, str):
            return f"{head} {self.kw('over')} {self.ident(n.window)}"
        return f"{head} {self.kw('over')} {self.window_spec(n.window)}"

    def window_spec(self, spec: A.WindowSpec) -> str:
        k = self.kw
        parts = []
        if spec.base:
            parts.append(self.ident(spec.base))
        if spec.partition_by:
            parts.append(f"{k('partition by')} " + ", ".join(self.text(e) for e in spec.partition_by))
        if spec.order_by:
            parts.append(f"{k('order by')} " + ", ".join(self.window_order_item(o) for o in spec.order_by))
        if spec.frame is not None:
            f = spec.frame
            parts.append(f"{k(f.units.lower())} {k('between')} {self.bound(f.start)} {k('and')} {self.bound(f.end)}")
        return f"( {' '.join(parts)}{' ' if parts else ''})"

    def window_order_item(self, o: A.OrderItem) -> str:
        """A key of a window's ORDER BY or of WITHIN GROUP: ASC only when written, as Databend."""
        k = self.kw
        text = self.text(o.expr) + (f" {k('desc')}" if o.desc else f" {k('asc')}" if o.asc else "")
        if o.nulls_first is not None:
            text += f" {k('nulls first')}" if o.nulls_first else f" {k('nulls last')}"
        return text

    def bound(self, b: A.FrameBound) -> str:
        if b.offset is None:
            return self.kw(b.kind.lower())
        return f"{self.text(b.offset)} {self.kw(b.kind.lower())}"

    def json_access(self, n: A.FunctionCall) -> str:
        """As Databend names JSON access: v['k'], v[0], v:a:b, v -> 'k', v ->> 'k'."""
        operand, key = n.args
        if n.operator == "[]":
            return f"{self.operand(operand, ATOM)}[{self.text(key)}]"
        if n.operator == ":":
            return f"{self.operand(operand, ATOM)}:{key.value}"
        return f"{self.operand(operand, UNARY)} {n.operator} {self.operand(key, UNARY + 1, right=True)}"

    def nested_literal(self, n: A.FunctionCall) -> str:
        """As Databend names literals: [1, 2], {'a':1,'b':2} (no spaces), (1, 'x')."""
        items = [self.text(a) for a in n.args]
        if n.operator == "[...]":
            return f"[{', '.join(items)}]"
        if n.operator == "{...}":
            return "{" + ",".join(f"{k}:{v}" for k, v in zip(items[0::2], items[1::2], strict=True)) + "}"
        return f"({', '.join(items)})"

    def func(self, n: A.FunctionCall) -> str:  # noqa: C901 - one case per form Databend prints apart
        k = self.kw
        if n.filter is not None:
            return f"{self.func(replace(n, filter=None))} {k('filter')} ({k('where')} {self.text(n.filter)})"
        if n.within_group:  # as the current Databend prints it: f(x) WITHIN GROUP ( ORDER BY k )
            keys = ", ".join(self.window_order_item(o) for o in n.within_group)
            return f"{self.func(replace(n, within_group=()))} {k('within group')} ( {k('order by')} {keys} )"
        if n.star:
            return self.count_star(n)
        if n.operator in JSON_ACCESS:
            return self.json_access(n)
        if n.operator == ".":  # a tuple's field: t.1
            return f"{self.operand(n.args[0], ATOM)}.{n.args[1].value}"
        if n.operator in NESTED_LITERALS:
            return self.nested_literal(n)
        if n.operator == "in":
            return f"{k('position')}({self.text(n.args[0])} {k('in')} {self.text(n.args[1])})"
        if n.operator is not None:  # a REGEXP b, a NOT RLIKE b, a ILIKE b
            left, right = self.operand(n.args[0], BIT), self.operand(n.args[1], BIT, right=True)
            return f"{left} {self.negation(n.negated)}{k(n.operator)} {right}"
        args = [self.text(a) for a in n.args]
        if n.name in _SUBSTRING_NAMES and 2 <= len(args) <= 3 and self.substring_form(n):
            tail = f" {k('for')} {args[2]}" if len(args) == 3 else ""
            return f"{k('substring')}({args[0]} {k('from')} {args[1]}{tail})"
        if n.name in TRIM_SIDES and len(args) == 2:
            return f"{k('trim')}({k(TRIM_SIDES[n.name])} {args[1]} {k('from')} {args[0]})"
        if n.name in UNIT_CALLS and args:
            args[0] = self.unit(n.args[0], args[0])
        if n.name == "extract" and len(args) == 2:
            return f"{k('extract')}({args[0]} {k('from')} {args[1]})"
        distinct = f"{k('distinct')} " if n.distinct else ""
        name = self.function_name(n)
        if n.params:
            return f"{name}({', '.join(self.text(p) for p in n.params)})({distinct}{', '.join(args)})"
        if self.avg_rewrite and n.name == "avg" and not n.distinct and len(args) == 1:
            # Databend rewrites AVG(x) before naming the column
            x = args[0]
            return f"sum({x}) / if(count({x}) = 0, 1, count({x}))"
        return f"{name}({distinct}{', '.join(args)})"

    def count_star(self, n: A.FunctionCall) -> str:
        return f"{n.name}(*)"

    def substring_form(self, n: A.FunctionCall) -> bool:
        """Whether SUBSTRING(x, a[, b]) prints as SUBSTRING(x FROM a [FOR b])."""
        return True

    def function_name(self, n: A.FunctionCall) -> str:
        return n.name

    def unit(self, node, text: str) -> str:
        """The unit argument of DATE_PART and its kin: DATE_PART('day', d) is named date_part(day, d)."""
        if isinstance(node, A.Literal) and node.kind == "string":
            return str(node.value).lower()
        return text

    def case(self, n: A.Case) -> str:
        k = self.kw
        parts = [k("case")]
        if n.operand is not None:
            parts.append(self.text(n.operand) + " ")  # Databend prints two spaces here
        for cond, res in n.whens:
            parts.append(f"{k('when')} {self.text(cond)} {k('then')} {self.text(res)}")
        if n.else_ is not None:
            parts.append(f"{k('else')} {self.text(n.else_)}")
        parts.append(k("end"))
        return " ".join(parts)

    def binary(self, n: A.BinaryOp) -> str:
        op = n.op
        strength = BINARY_PRECEDENCE.get(op, COMPARE)
        if op.isalpha():
            op = self.kw(op.lower())
        return f"{self.operand(n.left, strength)} {op} {self.operand(n.right, strength, right=True)}"

    def unary(self, n: A.UnaryOp) -> str:
        if n.op == "NOT":
            return f"{self.kw('not')} {self.operand(n.operand, NOT)}"
        return f"{n.op} {self.operand(n.operand, UNARY)}"

    def negation(self, negated: bool) -> str:
        return f"{self.kw('not')} " if negated else ""

    def is_null(self, n: A.IsNull) -> str:
        return f"{self.operand(n.operand, COMPARE)} {self.kw('is')} {self.negation(n.negated)}{self.kw('null')}"

    def between(self, n: A.Between) -> str:
        k = self.kw
        return (f"{self.operand(n.operand, COMPARE)} {self.negation(n.negated)}{k('between')} "
                f"{self.operand(n.low, CONCAT)} {k('and')} {self.operand(n.high, CONCAT)}")

    def in_list(self, n: A.InList) -> str:
        return (f"{self.operand(n.operand, COMPARE)} {self.negation(n.negated)}{self.kw('in')}"
                f"({', '.join(self.text(i) for i in n.items)})")

    def in_subquery(self, n: A.InSubquery) -> str:
        return f"{self.operand(n.operand, COMPARE)} {self.negation(n.negated)}{self.kw('in')}({self.query(n.query)})"

    def like(self, n: A.Like) -> str:
        return (f"{self.operand(n.operand, COMPARE)} {self.negation(n.negated)}{self.kw('like')} "
                f"{self.operand(n.pattern, CONCAT, right=True)}")

    def exists(self, n: A.Exists) -> str:
        return f"{self.negation(n.negated)}{self.kw('exists')} ({self.query(n.query)})"

    def scalar_subquery(self, n: A.ScalarSubquery) -> str:
        return f"({self.query(n.query)})"

    def is_distinct_from(self, n: A.IsDistinctFrom) -> str:
        k = self.kw
        return (f"{self.operand(n.left, COMPARE)} {k('is')} {self.negation(n.negated)}{k('distinct from')} "
                f"{self.operand(n.right, COMPARE, right=True)}")

    def is_truth(self, n: A.IsTruth) -> str:
        k = self.kw
        return f"{self.operand(n.operand, COMPARE)} {k('is')} {self.negation(n.negated)}{k('true' if n.value else 'false')}"

    def quantified(self, n: A.QuantifiedComparison) -> str:
        return f"{self.operand(n.operand, COMPARE)} {n.op} {self.kw(n.quantifier.lower())} ({self.query(n.query)})"

    # ------------------------------------------------------------ queries (subquery columns)

    def query(self, n) -> str:
        k = self.kw
        if isinstance(n, A.With):
            ctes = ", ".join(self.cte(c) for c in n.ctes)
            return f"{k('with')} {ctes} {self.query(n.query)}"
        if isinstance(n, A.SetOperation):
            quantifier = f" {k('all')}" if n.all_ else ""
            text = f"{self.query(n.left)} {k(n.op.lower())}{quantifier} {self.query(n.right)}"
            return text + self.tail(n)
        if isinstance(n, A.Select):
            return self.select(n)
        return self.text(n)

    def cte(self, c: A.CommonTableExpr) -> str:
        columns = f"({', '.join(self.ident(c) for c in c.columns)})" if c.columns else ""
        return f"{self.ident(c.name)}{columns} {self.kw('as')} ({self.query(c.query)})"

    def select(self, n: A.Select) -> str:
        k = self.kw
        parts = [k("select")]
        if n.distinct:
            parts.append(k("distinct"))
        parts.append(", ".join(self.select_item(i) for i in n.items))
        if n.from_ is not None:
            parts.append(f"{k('from')} " + self.from_item(n.from_))
        if n.where is not None:
            parts.append(f"{k('where')} " + self.text(n.where))
        if n.group_by:
            parts.append(f"{k('group by')} " + ", ".join(self.text(g) for g in n.group_by))
        if n.having is not None:
            parts.append(f"{k('having')} " + self.text(n.having))
        return " ".join(parts) + self.tail(n)

    def tail(self, n) -> str:
        k = self.kw
        text = ""
        if n.order_by:
            text += f" {k('order by')} " + ", ".join(self.order_item(o) for o in n.order_by)
        if n.limit is not None:
            text += f" {k('limit')} " + self.text(n.limit)
        if n.offset is not None:
            text += f" {k('offset')} " + self.text(n.offset)
        return text

    def order_item(self, o: A.OrderItem) -> str:
        k = self.kw
        text = self.text(o.expr)
        if o.desc:
            text += f" {k('desc')}"
        elif o.asc or o.nulls_first is not None:
            text += f" {k('asc')}"
        if o.nulls_first is not None:
            text += f" {k('nulls first')}" if o.nulls_first else f" {k('nulls last')}"
        return text

    def select_item(self, i: A.SelectItem) -> str:
        text = self.text(i.expr)
        return f"{text} {self.kw('as')} {self.ident(i.alias)}" if i.alias is not None else text

    def alias(self, alias) -> str:
        return f" {self.kw('as')} {self.ident(alias)}" if alias else ""

    def join_words(self, n: A.Join) -> str:
        return _JOIN_WORDS.get(n.kind, "join")

    def table_arg(self, a) -> str:
        return f"{a.name} => {self.text(a.value)}" if isinstance(a, A.NamedArg) else self.text(a)

    def from_item(self, n) -> str:
        if isinstance(n, A.TableRef):
            return self.name(n.name) + self.alias(n.alias)
        if isinstance(n, A.TableFunction):
            return f"{n.name}({', '.join(self.table_arg(a) for a in n.args)})" + self.alias(n.alias)
        if isinstance(n, A.LateralFunction):
            return f"{self.kw('lateral')} " + self.from_item(n.function)
        if isinstance(n, A.SubqueryRef):
            columns = f"({', '.join(n.column_aliases)})" if n.column_aliases else ""
            return f"({self.query(n.query)}){self.alias(n.alias)}{columns}"
        if isinstance(n, A.Pivot | A.Unpivot):
            return self.pivoted(n)
        if isinstance(n, A.Join):
            natural = f"{self.kw('natural')} " if n.natural else ""
            text = f"{self.from_item(n.left)} {natural}{self.join_words(n)} {self.join_right(n.right)}"
            if n.on is not None:
                text += f" {self.kw('on')} " + self.text(n.on)
            elif n.using:
                text += f" {self.kw('using')}({', '.join(self.ident(u) for u in n.using)})"
            return text
        return self.text(n)

    def join_right(self, n) -> str:
        return self.from_item(n)

    def pivoted(self, n) -> str:
        """Databend's text of a pivoted FROM item: `t as a pivot(sum(x) for k in ('v'))`."""
        k = self.kw
        text = self.from_item(n.source)
        if isinstance(n, A.Pivot):
            values = ", ".join(self.text(v) for v in n.values)
            return f"{text} {k('pivot')}({self.text(n.aggregate)} {k('for')} {self.ident(n.key)} {k('in')} ({values}))"
        columns = ", ".join(c.source_text if c.label is None
                            else f"{c.source_text} {k('as')} {quoted(c.label)}"
                            for c in n.columns)
        return (f"{text} {k('unpivot')}({self.ident(n.value_column)} {k('for')} "
                f"{self.ident(n.name_column)} {k('in')} ({columns}))")


_METHODS = {
    A.Interval: "interval",
    A.Literal: "literal",
    A.ColumnRef: "column_ref",
    A.Star: "star",
    A.UnaryOp: "unary",
    A.BinaryOp: "binary",
    A.IsNull: "is_null",
    A.Between: "between",
    A.InList: "in_list",
    A.InSubquery: "in_subquery",
    A.Like: "like",
    A.Exists: "exists",
    A.ScalarSubquery: "scalar_subquery",
    A.Case: "case",
    A.Cast: "cast",
    A.FunctionCall: "func",
    A.WindowCall: "window_call",
    A.Select: "query",
    A.SetOperation: "query",
    A.With: "query",
    A.IsDistinctFrom: "is_distinct_from",
    A.IsTruth: "is_truth",
    A.QuantifiedComparison: "quantified",
}

class _ColumnNamePrinter(DisplayPrinter):
    """Names of select items. A column reference loses its qualifier when reached through
    operators only, and keeps it inside a function call, CASE, CAST(x AS t), an array or tuple
    (the 1.2.453 engine: `s.day + abs(s.day)` is named `day + abs(s.day)`, `s.day::string`
    `day::string`, `cast(s.day as string)` as written; `default.src.day + 1` is `day + 1`)."""

    def text(self, node) -> str:
        if isinstance(node, _QUALIFIERS_KEPT) or (isinstance(node, A.Cast) and not node.double_colon):
            return _DISPLAY.text(node)
        return super().text(node)

    def column_ref(self, n: A.ColumnRef) -> str:
        return n.parts[-1]


_QUALIFIERS_KEPT = (A.FunctionCall, A.WindowCall, A.Case, A.ScalarSubquery, A.Exists, A.Select,
                    A.SetOperation, A.With)


_DISPLAY = DisplayPrinter()
_COLUMN_NAMES = _ColumnNamePrinter()


def column_name(expr) -> str:
    """The name Databend gives an unaliased select item."""
    if isinstance(expr, A.ColumnRef):
        return expr.parts[-1]
    return _COLUMN_NAMES.text(expr).lower()


def display(node) -> str:
    """`node` printed as Databend writes it back (qualified names kept; before lower-casing)."""
    return _DISPLAY.text(node)


def quoted(text: str) -> str:
    """A string as a SQL literal the way Databend writes one back: single quotes, backslash
    escapes for backslashes and quotes."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def default_text(value, written, single=False) -> str:
    """A column default as DESCRIBE and SHOW CREATE TABLE show it: the folded constant (`1 + 2`
    shows as 3), else the expression as written. A FLOAT column's (`single`) default shows in
    its shortest single-precision form (0.1, not the double 0.10000000149011612)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if single and isinstance(value, float):
        return str(float(shortest_single(value)))
    if isinstance(value, int | float | decimal.Decimal):
        return str(value)
    if isinstance(value, str):
        return quoted(value)
    return display(written)


def quoted_name_hint(sql, pos, name: str) -> str:
    """", do you mean 'x'?" when the unknown column at `pos` (line, column) of the statement's
    text `sql` was written in double quotes ("x": a string in other SQL dialects), as Databend
    hints; else ""."""
    if not sql or not pos:
        return ""
    lines = sql.split("\n")
    line, column = pos
    if not 1 <= line <= len(lines):
        return ""
    written = lines[line - 1][max(column - 1, 0):][:len(name) * 2 + 80]
    return f", do you mean '{name}'?" if f'"{name}"' in written else ""

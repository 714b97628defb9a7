"""A view's query as Databend keeps it: re-printed from the syntax tree with upper-case keywords
and every table named by one part qualified by the view's database (`SELECT a, b FROM
default.t WHERE a > 1`), as SHOW CREATE VIEW, system.views and information_schema.views show it.

The printed text is kept only when it parses back to the same tree (`same_tree`); otherwise the
view keeps the text as written, so it always means what its author wrote. Unlike Databend
1.2.453 the printer keeps the parentheses the tree needs (`a - (1 - 2)`), leaves the names of
CTEs alone and keeps QUALIFY."""

from __future__ import annotations

import decimal
import re
from dataclasses import fields, replace

import grammar
from engine.bind import names as N
from engine.core.errors import EngineError
from engine.types.nested import cast_type
from engine.types.sqltype import (
    decimal_literal_type,
    exponent_literal,
    int_literal_type,
    type_from_ast,
)
from grammar import ast as A
from grammar.ast_base import map_children
from grammar.format import TYPE_NAMES
from grammar.keywords import IMPLICIT_ALIAS_FORBIDDEN_WORDS, NEVER_ALIAS_WORDS, RESERVED_WORDS

_PLAIN_NAME = re.compile(r"[^\W\d][\w$]*")
_KEYWORDS = RESERVED_WORDS | NEVER_ALIAS_WORDS | IMPLICIT_ALIAS_FORBIDDEN_WORDS
# the calls Databend parses as syntax of their own and prints with an upper-case name
_SYNTAX_CALLS = frozenset({"trim", "extract", "date_part", "date_add", "date_sub", "date_trunc"})
_JOIN_WORDS = {"INNER": "INNER JOIN", "LEFT": "LEFT OUTER JOIN", "RIGHT": "RIGHT OUTER JOIN",
               "FULL": "FULL OUTER JOIN", "CROSS": "CROSS JOIN", "LEFT SEMI": "LEFT SEMI JOIN",
               "LEFT ANTI": "LEFT ANTI JOIN", "RIGHT SEMI": "RIGHT SEMI JOIN", "RIGHT ANTI": "RIGHT ANTI JOIN"}
# syntax-only fields: how a thing was written, not what it means
_COSMETIC = {(A.Select, "top"), (A.WindowFrame, "between"), (A.OrderItem, "asc")}


class Unprintable(Exception):
    """A node the view printer does not know: the view keeps its text as written."""


def _string(value: str) -> str:
    """A string literal as Databend writes one: backslash escapes, \\xNN for control characters."""
    out = []
    for ch in value:
        if ch == "\\":
            out.append("\\\\")
        elif ch == "'":
            out.append("\\'")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch < " ":
            out.append(f"\\x{ord(ch):02X}")
        else:
            out.append(ch)
    return "'" + "".join(out) + "'"


class ViewTextPrinter(N.DisplayPrinter):
    """Databend's display of a query, exact: upper-case keywords, Databend's type names, and
    every parenthesis the tree needs (a right operand binding as tightly as its operator keeps
    them, so `a - (1 - 2)` stays so). `quote_all` quotes every identifier."""

    avg_rewrite = False

    def __init__(self, quote_all: bool = False):
        super().__init__()
        self.quote_all = quote_all

    def text(self, node) -> str:
        printer = self.printers.get(type(node))
        if printer is None:
            raise Unprintable(type(node).__name__)
        return printer(node)

    # ------------------------------------------------------------ hooks

    def kw(self, word: str) -> str:
        return word.upper()

    def ident(self, name: str) -> str:
        if self.quote_all or name != name.lower() or name in _KEYWORDS or not _PLAIN_NAME.fullmatch(name):
            return '"' + name.replace('"', '""') + '"'
        return name

    def operand(self, node, parent: int, right: bool = False) -> str:
        text = self.text(node)
        strength = N.precedence(node)
        if strength < parent or (strength == parent and strength != N.ATOM and (right or parent == N.COMPARE)):
            return f"({text})"
        return text

    def column_ref(self, n: A.ColumnRef) -> str:
        return self.name(n.parts)

    def binary(self, n: A.BinaryOp) -> str:
        strength = N.BINARY_PRECEDENCE.get(n.op, N.COMPARE)
        op = n.op.upper()
        left = self.text(n.left)
        if N.precedence(n.left) < strength:  # the left side of a chain needs none: a - b - c
            left = f"({left})"
        return f"{left} {op} {self.operand(n.right, strength, right=True)}"

    def literal(self, n: A.Literal) -> str:
        if n.kind == "string":
            return _string(str(n.value))
        if n.kind == "decimal":  # as written (`1.` is a Decimal, `1` is not), `.5` as 0.5
            text = str(n.value)
            return "0" + text if text.startswith(".") else text
        return super().literal(n)

    def interval_unit(self, unit: str) -> str:
        return unit.upper()

    def type_text(self, t: A.TypeName, nullable_suffix: bool = True) -> str:
        """Databend's name of a written type; `nullable_suffix`: NULLABLE(T) as `T NULL` (CAST
        takes it), else as Nullable(T) (`::` does not)."""
        name = t.name.upper()
        if name == "NULLABLE" and t.args:
            inner = self.type_text(t.args[0], nullable_suffix)
            return f"{inner} NULL" if nullable_suffix else f"Nullable({inner})"
        if name in ("DECIMAL", "NUMERIC"):
            resolved = type_from_ast(t)
            text = f"Decimal({resolved.precision}, {resolved.scale})"
        elif name in ("ARRAY", "MAP", "TUPLE") and t.args:
            inner = [self.type_text(a, nullable_suffix) for a in t.args]
            if t.field_names:
                inner = [f"{self.ident(f)} {i}" for f, i in zip(t.field_names, inner, strict=True)]
            text = f"{name}({', '.join(inner)})"
        else:
            text = TYPE_NAMES.get(name)
            if text is None:
                raise Unprintable(name)
        if t.nullable is True:
            return f"{text} NULL" if nullable_suffix else f"Nullable({text})"
        if t.nullable is False:
            if not nullable_suffix:
                raise Unprintable("NOT NULL")
            return f"{text} NOT NULL"
        return text

    def cast(self, n: A.Cast) -> str:
        if n.double_colon:
            return f"{self.operand(n.operand, N.CAST)}::{self.type_text(n.type, nullable_suffix=False)}"
        head = "TRY_CAST" if n.try_ else "CAST"
        return f"{head}({self.text(n.operand)} AS {self.type_text(n.type)})"

    def count_star(self, n: A.FunctionCall) -> str:
        return "COUNT(*)" if n.name == "count" else f"{n.name}(*)"

    def substring_form(self, n: A.FunctionCall) -> bool:
        return n.name == "substring"  # substr(x, 1) reads back as substr, not substring

    def function_name(self, n: A.FunctionCall) -> str:
        return n.name.upper() if n.name in _SYNTAX_CALLS else n.name

    def unit(self, node, text: str) -> str:
        if isinstance(node, A.ColumnRef) and len(node.parts) == 1:
            return node.parts[0].upper()  # DATE_ADD(DAY, 1, d): a unit keyword reads back as it was
        return text  # DATE_PART('day', d) stays a string

    # ------------------------------------------------------------ queries

    def query(self, n) -> str:
        if isinstance(n, A.With):
            ctes = ", ".join(self.cte(c) for c in n.ctes)
            return f"WITH {'RECURSIVE ' if n.recursive else ''}{ctes} {self.query(n.query)}"
        if isinstance(n, A.SetOperation):
            quantifier = " ALL" if n.all_ else ""
            left = self.set_operand(n.left, n.op, right=False)
            right = self.set_operand(n.right, n.op, right=True)
            return f"{left} {n.op.upper()}{quantifier} {right}{self.tail(n)}"
        if isinstance(n, A.Select):
            return self.select(n)
        if isinstance(n, A.Values):
            return self.values(n) + self.tail(n)
        raise Unprintable(type(n).__name__)

    def set_operand(self, n, op: str, right: bool) -> str:
        """A side of UNION / EXCEPT / INTERSECT, parenthesised when it has clauses of its own or
        would group otherwise (INTERSECT binds tighter than UNION and EXCEPT)."""
        text = self.query(n)
        if isinstance(n, A.With) or n.order_by or n.limit is not None or n.offset is not None:
            return f"({text})"
        if isinstance(n, A.SetOperation) and (right or (op == "INTERSECT" and n.op != "INTERSECT")):
            return f"({text})"
        return text

    def values(self, n: A.Values) -> str:
        return "VALUES" + ", ".join(f"({', '.join(self.text(v) for v in row)})" for row in n.rows)

    def select(self, n: A.Select) -> str:
        parts = ["SELECT"]
        if n.distinct:
            parts.append("DISTINCT")
        parts.append(", ".join(self.select_item(i) for i in n.items))
        if n.from_ is not None:
            parts.append("FROM " + self.from_item(n.from_))
        if n.where is not None:
            parts.append("WHERE " + self.text(n.where))
        if n.group_by:
            parts.append("GROUP BY " + self.group_by(n.group_by))
        if n.having is not None:
            parts.append("HAVING " + self.text(n.having))
        if n.windows:
            parts.append("WINDOW " + ", ".join(f"{self.ident(w.name)} AS {self.window_spec(w.spec)}"
                                               for w in n.windows))
        if n.qualify is not None:  # (Databend 1.2.453 drops it: the view would mean something else)
            parts.append("QUALIFY " + self.text(n.qualify))
        return " ".join(parts) + self.tail(n)

    def group_by(self, items) -> str:
        if len(items) == 1 and isinstance(items[0], A.GroupByAll):
            return "ALL"
        if len(items) == 1 and isinstance(items[0], A.GroupingSets):
            node = items[0]
            if node.written is not None:
                keyword, exprs = node.written
                return f"{keyword.upper()} ({', '.join(self.text(e) for e in exprs)})"
            sets = ", ".join(f"({', '.join(self.text(e) for e in s)})" for s in node.sets)
            return f"GROUPING SETS ({sets})"
        return ", ".join(self.text(g) for g in items)

    def select_item(self, i: A.SelectItem) -> str:
        expr = i.expr
        if isinstance(expr, A.Star) and expr.exclude:
            return f"{self.star(expr)} EXCLUDE ({', '.join(self.ident(c) for c in expr.exclude)})"
        return super().select_item(i)

    def column_list(self, columns) -> str:
        return f"({', '.join(self.ident(c) for c in columns)})" if columns else ""

    def from_item(self, n) -> str:
        if isinstance(n, A.TableRef):
            return self.name(n.name) + self.alias(n.alias)
        if isinstance(n, A.TableFunction):
            args = ""
            for i, a in enumerate(n.args):
                if i:
                    args += ", " if not isinstance(a, A.NamedArg) and not isinstance(n.args[i - 1], A.NamedArg) else ","
                args += f"{a.name}=>{self.text(a.value)}" if isinstance(a, A.NamedArg) else self.text(a)
            return f"{n.name}({args}){self.alias(n.alias)}{self.column_list(n.column_aliases)}"
        if isinstance(n, A.LateralFunction):
            return "LATERAL " + self.from_item(n.function)
        if isinstance(n, A.SubqueryRef | A.LateralRef):
            lateral = "LATERAL " if isinstance(n, A.LateralRef) else ""
            return f"{lateral}({self.query(n.query)}){self.alias(n.alias)}{self.column_list(n.column_aliases)}"
        if isinstance(n, A.ValuesRef):
            return f"({self.query(n.values)}){self.alias(n.alias)}{self.column_list(n.column_aliases)}"
        if isinstance(n, A.Pivot | A.Unpivot):
            return self.pivoted(n)
        if isinstance(n, A.Join):
            if n.comma:
                return f"{self.from_item(n.left)}, {self.join_right(n.right)}"
            natural = "NATURAL " if n.natural else ""
            words = _JOIN_WORDS.get(n.kind)
            if words is None:
                raise Unprintable(n.kind)
            text = f"{self.from_item(n.left)} {natural}{words} {self.join_right(n.right)}"
            if n.on is not None:
                text += " ON " + self.text(n.on)
            elif n.using:
                text += f" USING({', '.join(self.ident(u) for u in n.using)})"
            return text
        raise Unprintable(type(n).__name__)

    def join_right(self, n) -> str:
        text = self.from_item(n)
        return f"({text})" if isinstance(n, A.Join) else text


# ---------------------------------------------------------------- qualification


def qualify(query, database: str):
    """`query` with every table named by one part qualified by `database`, as Databend keeps a
    view's query; a name that may be a CTE's (any CTE of an enclosing WITH) stays as written."""
    return _qualified(query, database, frozenset())


def _qualified(node, database: str, ctes: frozenset):
    if isinstance(node, A.TableRef):
        if len(node.name) == 1 and node.name[0].lower() not in ctes:
            return replace(node, name=(database, node.name[0]))
        return node
    if isinstance(node, A.With):
        ctes = ctes | {c.name.lower() for c in node.ctes}
    return map_children(node, lambda child: _qualified(child, database, ctes))


# ---------------------------------------------------------------- the round trip


def same_tree(a, b) -> bool:
    """Whether two syntax trees say the same thing: every field but positions and syntax-only
    ones (TOP n, a frame written without BETWEEN), types compared by the type they name,
    INTERVAL units whatever their case."""
    if isinstance(a, A.Node):
        if type(a) is not type(b):
            return False
        if isinstance(a, A.TypeName):
            return _same_type(a, b)
        if isinstance(a, A.Literal) and a.kind in _NUMBER_KINDS and b.kind in _NUMBER_KINDS:
            return _number(a) == _number(b)
        for f in fields(a):
            name = f.name
            if name == "pos" or (type(a), name) in _COSMETIC:
                continue
            x, y = getattr(a, name), getattr(b, name)
            if isinstance(a, A.Interval) and name == "unit":
                if x.lower() != y.lower():
                    return False
            elif not same_tree(x, y):
                return False
        return True
    if isinstance(a, tuple | list):
        return isinstance(b, tuple | list) and len(a) == len(b) and all(same_tree(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


_NUMBER_KINDS = frozenset({"int", "decimal", "float"})


def _number(n: A.Literal) -> tuple:
    """(value, type) of a number literal as the binder reads it: 1e3 is the UInt16 1000, as
    1000 is, so Databend's printing of 1e3 as 1000 says the same."""
    if n.kind == "int":
        t = int_literal_type(n.value)
        return (float(n.value) if t.is_float else n.value), t
    if n.kind == "decimal":
        text = str(n.value)
        return decimal.Decimal(text), decimal_literal_type(text)
    return exponent_literal(float(n.value))


def _same_type(a: A.TypeName, b: A.TypeName) -> bool:
    try:
        return type_from_ast(a) == type_from_ast(b) and cast_type(a) == cast_type(b)
    except Exception:  # noqa: BLE001 - a type the engine refuses: only the same text is the same
        return a == b


def printed(query) -> str | None:
    """The text of `query` as Databend prints it, when that text parses back to the same tree
    (identifiers quoted where needed, else all quoted); None when no printing does."""
    for printer in (ViewTextPrinter(), ViewTextPrinter(quote_all=True)):
        try:
            text = printer.query(query)
            if same_tree(grammar.parse(text), query):
                return text
        except (Unprintable, grammar.SqlSyntaxError, EngineError, RecursionError):
            continue
    return None


def view_text(query, database: str, name: str, columns) -> tuple | None:
    """(query, text) a view keeps as Databend keeps them: the query with its tables qualified by
    `database` and its text printed from it (with a column list, wrapped as Databend wraps it:
    `select * from (...) v(x, y)`); None when the printed text would not read back the same."""
    query = qualify(query, database)
    text = printed(query)
    if text is None:
        return None
    if not columns:
        return query, text
    printer = ViewTextPrinter()
    wrapped = A.Select((A.SelectItem(A.Star()),), from_=A.SubqueryRef(query, name, tuple(columns)))
    text = f"select * from ({text}) {printer.ident(name)}{printer.column_list(columns)}"
    try:
        if same_tree(grammar.parse(text), wrapped):
            return wrapped, text
    except (grammar.SqlSyntaxError, EngineError, RecursionError):
        pass
    return None

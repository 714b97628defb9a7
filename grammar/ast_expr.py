"""Syntax tree nodes of expressions and queries: literals, operators, calls, SELECT, joins, windows,
set operations and WITH (re-exported by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grammar.ast_base import Node, Pos

__all__ = [
    "literal",
    "Literal",
    "ColumnRef",
    "Placeholder",
    "Star",
    "UnaryOp",
    "BinaryOp",
    "IsNull",
    "Between",
    "InList",
    "InSubquery",
    "Like",
    "Exists",
    "ScalarSubquery",
    "Case",
    "TypeName",
    "Cast",
    "Interval",
    "FunctionCall",
    "SelectItem",
    "OrderItem",
    "TableRef",
    "TableFunction",
    "SubqueryRef",
    "Pivot",
    "UnpivotColumn",
    "Unpivot",
    "Join",
    "Select",
    "FrameBound",
    "WindowFrame",
    "WindowSpec",
    "WindowCall",
    "NamedWindow",
    "GroupingSets",
    "GroupByAll",
    "SetOperation",
    "CommonTableExpr",
    "With",
]


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class Literal(Node):
    """A constant. kind: 'int' (value int), 'decimal' (value str as written, e.g. '1.50'),
    'float' (value float, exponent form), 'float64' (value float, a Float64: a bound parameter),
    'string' (value str), 'bool' (value bool), 'null' (value None)."""

    value: Any
    kind: str


_new_object = object.__new__
_set_literal_value = Literal.__dict__["value"].__set__
_set_literal_kind = Literal.__dict__["kind"].__set__
_set_node_pos = Node.__dict__["pos"].__set__


def literal(value: Any, kind: str, pos: Pos) -> Literal:
    """`Literal(value, kind, pos=pos)`, made without the frozen dataclass's checked __init__
    (its object.__setattr__ per field costs half a microsecond more): the bulk INSERT fast path
    makes one per value."""
    node = _new_object(Literal)
    _set_literal_value(node, value)
    _set_literal_kind(node, kind)
    _set_node_pos(node, pos)
    return node


@dataclass(frozen=True, slots=True)
class ColumnRef(Node):
    """A possibly qualified column name: ('a',), ('t', 'a'), ('db', 't', 'a')."""

    parts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Placeholder(Node):
    """`?` (name None: the next value of a params array) or `:name` (the value `name` of a params
    object); engine.bind.params replaces it with the value before the statement binds."""

    name: str | None = None


@dataclass(frozen=True, slots=True)
class Star(Node):
    """`*` or `t.*` in a select list (table is the qualifier parts, or None)."""

    table: tuple[str, ...] | None = None
    exclude: tuple[str, ...] = ()  # `* EXCLUDE (a, b)`: column names left out


@dataclass(frozen=True, slots=True)
class UnaryOp(Node):
    """op: '-', '+', 'NOT'."""

    op: str
    operand: Node


@dataclass(frozen=True, slots=True)
class BinaryOp(Node):
    """op: '+', '-', '*', '/', 'DIV', '%', '||', '=', '<>', '<', '<=', '>', '>=', 'AND', 'OR'.
    ('!=' is normalised to '<>', '==' to '=', 'MOD' to '%'.)"""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class IsNull(Node):
    operand: Node
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Between(Node):
    operand: Node
    low: Node
    high: Node
    negated: bool = False


@dataclass(frozen=True, slots=True)
class InList(Node):
    operand: Node
    items: tuple[Node, ...]
    negated: bool = False


@dataclass(frozen=True, slots=True)
class InSubquery(Node):
    operand: Node
    query: Node
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Like(Node):
    operand: Node
    pattern: Node
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Exists(Node):
    query: Node
    negated: bool = False


@dataclass(frozen=True, slots=True)
class ScalarSubquery(Node):
    query: Node


@dataclass(frozen=True, slots=True)
class Case(Node):
    """Simple CASE when operand is set, searched CASE otherwise.
    whens: ((condition_or_value, result), ...); else_ may be None."""

    operand: Node | None
    whens: tuple[tuple[Node, Node], ...]
    else_: Node | None = None


@dataclass(frozen=True, slots=True)
class TypeName(Node):
    """A type as written: name upper-cased ('INT', 'VARCHAR', 'DECIMAL', 'NULLABLE'...),
    params are integer parameters (DECIMAL(10, 2) -> (10, 2)), args nested types
    (NULLABLE(INT) -> args=(TypeName('INT'),)). nullable: True for `T NULL`, False for
    `T NOT NULL`, None when unsaid."""

    name: str
    params: tuple[int, ...] = ()
    args: tuple[TypeName, ...] = ()
    nullable: bool | None = None
    field_names: tuple[str, ...] = ()  # TUPLE(a INT, b STRING): the field names


@dataclass(frozen=True, slots=True)
class Cast(Node):
    """CAST(x AS t), x::t (try_=False) or TRY_CAST(x AS t) (try_=True)."""

    operand: Node
    type: TypeName
    try_: bool = False
    # written as x::t (only the printed column name differs)
    double_colon: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class Interval(Node):
    """INTERVAL value unit (unit as written, e.g. 'DAY'): only as an operand of + or -."""

    value: Node
    unit: str


@dataclass(frozen=True, slots=True)
class FunctionCall(Node):
    """name lower-cased. COUNT(*) has star=True and no args."""

    name: str
    args: tuple[Node, ...] = ()
    distinct: bool = False
    star: bool = False
    params: tuple[Node, ...] = ()  # quantile_cont(0.5)(x): the parameters before the arguments
    filter: Node | None = None  # agg(x) FILTER (WHERE condition)
    # agg(x) WITHIN GROUP (ORDER BY ...): the order of the values an ordered aggregate (string_agg,
    # listagg, group_concat, array_agg, list) takes; () without the clause
    within_group: tuple[OrderItem, ...] = ()
    # written as an operator: `a REGEXP b` / `a RLIKE b` / `a ILIKE b` (operator "regexp", "rlike",
    # "ilike", negated for NOT ...) or POSITION(a IN b) (operator "in")
    negated: bool = False
    operator: str | None = None


# ---------------------------------------------------------------- queries


@dataclass(frozen=True, slots=True)
class SelectItem(Node):
    expr: Node  # an expression or Star
    alias: str | None = None


@dataclass(frozen=True, slots=True)
class OrderItem(Node):
    expr: Node
    desc: bool = False
    nulls_first: bool | None = None  # None: the default for the direction
    # ASC written out: Databend prints it back (column names, EXPLAIN SYNTAX), the order is the same
    asc: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class TableRef(Node):
    """A named table: ('t',) or ('db', 't')."""

    name: tuple[str, ...]
    alias: str | None = None


@dataclass(frozen=True, slots=True)
class TableFunction(Node):
    """A table function in FROM, e.g. numbers(10). name lower-cased."""

    name: str
    args: tuple[Node, ...]
    alias: str | None = None
    column_aliases: tuple[str, ...] | None = None  # generate_series(1, 3) AS t(g)


@dataclass(frozen=True, slots=True)
class SubqueryRef(Node):
    query: Node
    alias: str | None = None
    column_aliases: tuple[str, ...] | None = None

@dataclass(frozen=True, slots=True)
class Pivot(Node):
    """`source PIVOT (aggregate FOR key IN (values))`: source is a TableRef or a SubqueryRef,
    whose alias names the pivoted rows; aggregate and values as written (the planner checks
    them, as Databend does at binding)."""

    source: Node
    aggregate: Node
    key: str
    values: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class UnpivotColumn(Node):
    """One column of UNPIVOT's IN list: its name (as names resolve), its name as written (case
    kept, quotes dropped) and its label (`c AS 'label'`), None when not given."""

    name: str
    written: str
    label: str | None = None

    @property
    def source_text(self) -> str:
        """The name as SQL writes it back: in double quotes when written quoted (its case kept)."""
        if self.name == self.written.lower():
            return self.written
        return '"' + self.written.replace('"', '""') + '"'


@dataclass(frozen=True, slots=True)
class Unpivot(Node):
    """`source UNPIVOT (value_column FOR name_column IN (columns))`: one row per listed column
    of each source row, the column's label in name_column and its value in value_column."""

    source: Node
    value_column: str
    name_column: str
    columns: tuple[UnpivotColumn, ...]



@dataclass(frozen=True, slots=True)
class Join(Node):
    """kind: 'INNER', 'LEFT', 'RIGHT', 'FULL', 'CROSS' (comma joins are CROSS), 'LEFT SEMI',
    'LEFT ANTI', 'RIGHT SEMI', 'RIGHT ANTI'.
    natural: NATURAL join, i.e. USING all the column names both sides have."""

    kind: str
    left: Node
    right: Node
    on: Node | None = None
    using: tuple[str, ...] | None = None
    natural: bool = False
    comma: bool = field(default=False, compare=False)  # written `FROM a, b` (only EXPLAIN SYNTAX differs)


@dataclass(frozen=True, slots=True)
class Select(Node):
    items: tuple[SelectItem, ...]
    from_: Node | None = None
    where: Node | None = None
    group_by: tuple[Node, ...] = ()
    having: Node | None = None
    order_by: tuple[OrderItem, ...] = ()
    limit: Node | None = None
    offset: Node | None = None
    distinct: bool = False
    top: bool = field(default=False, compare=False)  # limit written as SELECT TOP n
    windows: tuple[NamedWindow, ...] = ()  # WINDOW w AS (...), ...
    qualify: Node | None = None


@dataclass(frozen=True, slots=True)
class FrameBound(Node):
    """One end of a window frame. kind: 'UNBOUNDED PRECEDING', 'UNBOUNDED FOLLOWING',
    'CURRENT ROW', 'PRECEDING' or 'FOLLOWING' (the last two with an offset expression)."""

    kind: str
    offset: Node | None = None


@dataclass(frozen=True, slots=True)
class WindowFrame(Node):
    """ROWS|RANGE BETWEEN start AND end (a frame given by its start alone ends at CURRENT ROW)."""

    units: str
    start: FrameBound
    end: FrameBound
    between: bool = True


@dataclass(frozen=True, slots=True)
class WindowSpec(Node):
    """(base PARTITION BY ... ORDER BY ... frame); base names a window of the WINDOW clause."""

    base: str | None = None
    partition_by: tuple[Node, ...] = ()
    order_by: tuple[OrderItem, ...] = ()
    frame: WindowFrame | None = None


@dataclass(frozen=True, slots=True)
class WindowCall(Node):
    """func(...) OVER window: window is a WindowSpec or the name of a WINDOW clause entry."""

    func: FunctionCall
    window: WindowSpec | str


@dataclass(frozen=True, slots=True)
class NamedWindow(Node):
    name: str
    spec: WindowSpec


@dataclass(frozen=True, slots=True)
class GroupingSets(Node):
    """GROUP BY GROUPING SETS (...), ROLLUP (...) or CUBE (...), as the list of its sets;
    the only item of a Select's group_by."""

    sets: tuple[tuple[Node, ...], ...]
    # ROLLUP (a, b) / CUBE (a, b) as written: ("ROLLUP", (a, b)); None for GROUPING SETS
    written: tuple[str, tuple[Node, ...]] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class GroupByAll(Node):
    """GROUP BY ALL: the only item of a Select's group_by."""


@dataclass(frozen=True, slots=True)
class SetOperation(Node):
    """op: 'UNION', 'EXCEPT', 'INTERSECT'; all_=True for UNION ALL etc. order_by/limit/offset
    apply to the combined result."""

    op: str
    left: Node
    right: Node
    all_: bool = False
    order_by: tuple[OrderItem, ...] = ()
    limit: Node | None = None
    offset: Node | None = None


@dataclass(frozen=True, slots=True)
class CommonTableExpr(Node):
    name: str
    query: Node
    columns: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class With(Node):
    ctes: tuple[CommonTableExpr, ...]
    query: Node
    recursive: bool = False

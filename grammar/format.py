"""EXPLAIN SYNTAX: a statement pretty-printed as Databend 1.2.453 prints it (10 columns wide)."""

from __future__ import annotations

import decimal

from grammar import ast as A
from grammar.pretty_doc import LINE, LINE_, NIL, SPACE, Doc, cat, intersperse, render, text

NEST = 4
WIDTH = 10

# Databend's display names of the types a statement can name
TYPE_NAMES = {
    "BOOLEAN": "BOOLEAN", "BOOL": "BOOLEAN",
    "TINYINT": "Int8", "INT8": "Int8", "SMALLINT": "Int16", "INT16": "Int16",
    "INT": "Int32", "INTEGER": "Int32", "INT32": "Int32", "BIGINT": "Int64", "INT64": "Int64",
    "TINYINT UNSIGNED": "UInt8", "UINT8": "UInt8", "SMALLINT UNSIGNED": "UInt16", "UINT16": "UInt16",
    "INT UNSIGNED": "UInt32", "UINT32": "UInt32", "BIGINT UNSIGNED": "UInt64", "UINT64": "UInt64",
    "FLOAT": "Float32", "FLOAT32": "Float32", "REAL": "Float32",
    "DOUBLE": "Float64", "FLOAT64": "Float64", "DOUBLE PRECISION": "Float64",
    "VARCHAR": "STRING", "STRING": "STRING", "TEXT": "STRING", "CHAR": "STRING",
    "DATE": "DATE", "TIMESTAMP": "TIMESTAMP", "DATETIME": "TIMESTAMP", "TIMESTAMP_TZ": "TIMESTAMP_TZ",
    "VARIANT": "VARIANT", "JSON": "VARIANT", "BINARY": "BINARY", "VARBINARY": "BINARY",
    "ARRAY": "ARRAY", "MAP": "MAP", "TUPLE": "TUPLE", "BITMAP": "BITMAP", "INTERVAL": "INTERVAL",
    "GEOMETRY": "GEOMETRY", "GEOGRAPHY": "GEOGRAPHY",
}


def explain_syntax(statement: A.Node) -> list[str] | None:
    """The lines of EXPLAIN SYNTAX for a parsed statement (None: a statement it cannot show)."""
    doc = pretty_statement(statement)
    return None if doc is None else render(doc, WIDTH).split("\n")


_QUERY_NODES = (A.Select, A.SetOperation, A.With, A.Values)


def pretty_statement(node: A.Node) -> Doc | None:
    if isinstance(node, _QUERY_NODES):
        return pretty_query(node)
    if isinstance(node, A.Insert):
        return _insert(node)
    if isinstance(node, A.Update) and node.from_ is None:
        return _update(node)
    if isinstance(node, A.Delete):
        return _delete(node)
    if isinstance(node, A.CreateTable) and node.like is None and not node.cluster_by:
        return _create_table(node)
    line = _one_line(node)
    return None if line is None else text(line)


def _one_line(node: A.Node) -> str | None:
    """Statements Databend shows on one line, as it writes them."""
    if isinstance(node, A.DropTable):
        return "DROP TABLE " + ("IF EXISTS " if node.if_exists else "") + _name(node.name)
    if isinstance(node, A.CreateDatabase) and not node.or_replace:
        return "CREATE DATABASE " + ("IF NOT EXISTS " if node.if_not_exists else "") + node.name
    if isinstance(node, A.DropDatabase):
        return "DROP DATABASE " + ("IF EXISTS " if node.if_exists else "") + node.name
    if isinstance(node, A.TruncateTable):
        return "TRUNCATE TABLE " + _name(node.name)
    if isinstance(node, A.UseDatabase):
        return "USE " + node.name
    if isinstance(node, A.Describe):
        return "DESCRIBE " + _name(node.table)
    if isinstance(node, A.SetVariable) and not node.is_global:
        return f"SET {node.name} = {_flat(pretty_expr(node.value))}"
    return None


# ---------------------------------------------------------------- helpers


def _interweave(docs) -> Doc:
    return intersperse(docs, cat(text(","), LINE))


def _inline(docs) -> Doc:
    return intersperse(docs, text(", "))


def _parenthesized(doc: Doc) -> Doc:
    return cat(cat(text("("), LINE_, doc).nest(NEST), LINE_, text(")")).group()


def _flat(doc: Doc) -> str:
    return render(doc.group(), 1 << 30)


def _name(parts) -> str:
    return ".".join(parts)


def _list_clause(keyword: str, items: list[Doc]) -> Doc:
    """`KEYWORD x` for one item, else KEYWORD then the items, one a line unless they fit."""
    sep = LINE if len(items) > 1 else SPACE
    return cat(LINE, text(keyword), sep.nest(NEST), _interweave(items).nest(NEST).group())


# ---------------------------------------------------------------- queries


def pretty_query(node: A.Node) -> Doc:
    with_ = NIL
    if isinstance(node, A.With):
        ctes = [cat(text(f"{c.name}{_column_list(c.columns)} AS "), LINE.group(), _parenthesized(pretty_query(c.query)))
                for c in node.ctes]
        with_ = cat(text("WITH RECURSIVE" if node.recursive else "WITH"), LINE.nest(NEST),
                    _interweave(ctes).nest(NEST).group(), LINE)
        node = node.query
    order_by, limit, offset = (), None, None
    if isinstance(node, (A.Select, A.SetOperation, A.Values)):
        order_by, limit, offset = node.order_by, node.limit, node.offset
    doc = cat(with_, _body(node))
    if order_by:
        doc = doc + _list_clause("ORDER BY", [text(_flat(_order_item(o))) for o in order_by])
    if limit is not None:
        doc = doc + _list_clause("LIMIT", [pretty_expr(limit)])
    if offset is not None:
        doc = doc + cat(LINE, text("OFFSET"), SPACE.nest(NEST), pretty_expr(offset))
    return doc.group()


def _column_list(columns) -> str:
    return f"({', '.join(columns)})" if columns else ""


def _body(node: A.Node) -> Doc:
    if isinstance(node, A.SetOperation):
        op = node.op.upper() + (" ALL" if node.all_ else "")
        return cat(_operand(node.left), LINE, text(op), LINE, _operand(node.right))
    if isinstance(node, A.Values):
        return cat(text("VALUES"), _inline([_row(row) for row in node.rows]))
    if isinstance(node, A.With):  # a parenthesized query as an operand of a set operation
        return _parenthesized(pretty_query(node))
    if not isinstance(node, A.Select):
        return text(type(node).__name__)
    items = [_select_item(i) for i in node.items]
    doc = cat(text("SELECT DISTINCT" if node.distinct else "SELECT"),
              (LINE if len(items) > 1 else SPACE).nest(NEST), _interweave(items).nest(NEST).group())
    if node.from_ is not None:
        tables = _from_items(node.from_)
        doc = doc + cat(LINE, text("FROM"), LINE.nest(NEST),
                        _interweave([_table(t) for t in tables]).nest(NEST).group())
    if node.where is not None:
        doc = doc + _condition("WHERE", node.where)
    if node.group_by:
        doc = doc + _group_by(node.group_by)
    if node.having is not None:
        doc = doc + cat(LINE, text("HAVING"), LINE.nest(NEST), pretty_expr(node.having))
    if node.windows:  # (Databend 1.2.453 leaves QUALIFY out of its layout: so does this)
        defs = [text(f"{w.name} AS ({_window_text(w.spec)})") for w in node.windows]
        doc = doc + cat(LINE, text("WINDOW"), LINE.nest(NEST), _interweave(defs).nest(NEST).group())
    return doc


def _operand(node: A.Node) -> Doc:
    """A set operation's side: in parentheses when it has clauses of its own."""
    if isinstance(node, A.With) or getattr(node, "order_by", ()) or getattr(node, "limit", None) is not None \
            or getattr(node, "offset", None) is not None:
        return _parenthesized(pretty_query(node))
    return _body(node)


def _condition(keyword: str, expr: A.Node) -> Doc:
    return cat(LINE, text(keyword), cat(LINE.nest(NEST), pretty_expr(expr).nest(NEST).group()))


def _group_by(group_by) -> Doc:
    if len(group_by) == 1 and isinstance(group_by[0], A.GroupByAll):
        return cat(LINE, text("GROUP BY ALL"))
    if len(group_by) == 1 and isinstance(group_by[0], A.GroupingSets):
        node = group_by[0]
        if node.written is not None:
            keyword, items = node.written[0], [pretty_expr(e) for e in node.written[1]]
        else:
            keyword = "GROUPING SETS"
            items = [cat(text("("), _inline([pretty_expr(e) for e in s]), text(")")) for s in node.sets]
        return cat(LINE, text(f"GROUP BY {keyword} ("), LINE.nest(NEST), _interweave(items).nest(NEST).group(),
                   LINE, text(")"))
    return _list_clause("GROUP BY", [pretty_expr(e) for e in group_by])


def _from_items(node: A.Node) -> list[A.Node]:
    """The comma-separated FROM items (`FROM a, b` parses as a cross join marked `comma`)."""
    if isinstance(node, A.Join) and node.comma:
        return _from_items(node.left) + _from_items(node.right)
    return [node]


def _select_item(item: A.SelectItem) -> Doc:
    expr = item.expr
    if isinstance(expr, A.Star):
        doc = text(_name((*expr.table, "*")) if expr.table else "*")
        if expr.exclude:
            doc = doc + text(" EXCLUDE (" + ", ".join(expr.exclude) + ")")
        return doc
    doc = pretty_expr(expr)
    return doc + text(f" AS {item.alias}") if item.alias is not None else doc


_JOIN_NAMES = {"INNER": "INNER JOIN", "LEFT": "LEFT OUTER JOIN", "RIGHT": "RIGHT OUTER JOIN",
               "FULL": "FULL OUTER JOIN", "CROSS": "CROSS JOIN", "COMMA": "CROSS JOIN",
               "LEFT SEMI": "LEFT SEMI JOIN", "LEFT ANTI": "LEFT ANTI JOIN",
               "RIGHT SEMI": "RIGHT SEMI JOIN", "RIGHT ANTI": "RIGHT ANTI JOIN"}


def _table(node: A.Node) -> Doc:
    if isinstance(node, A.TableRef):
        return text(_name(node.name) + (f" AS {node.alias}" if node.alias else ""))
    if isinstance(node, A.ValuesRef):
        return cat(_parenthesized(pretty_query(node.values)),
                   text(f" AS {node.alias}{_column_list(node.column_aliases)}") if node.alias else NIL)
    if isinstance(node, A.SubqueryRef):
        return cat(_parenthesized(pretty_query(node.query)),
                   text(f" AS {node.alias}{_column_list(node.column_aliases)}") if node.alias else NIL)
    if isinstance(node, A.TableFunction):
        args = [cat(text(f"{a.name} => "), pretty_expr(a.value)) if isinstance(a, A.NamedArg) else pretty_expr(a)
                for a in node.args]
        return cat(text(f"{node.name}("), _inline(args), text(")"),
                   text(f" AS {node.alias}{_column_list(node.column_aliases)}") if node.alias else NIL)
    if isinstance(node, A.LateralFunction):
        return cat(text("LATERAL "), _table(node.function))
    if isinstance(node, A.Pivot | A.Unpivot):
        return _pivoted(node)
    if isinstance(node, A.Join):
        kind = node.kind.upper()
        doc = cat(_table(node.left), LINE, text("NATURAL ") if node.natural else NIL,
                  text(_JOIN_NAMES.get(kind, kind + " JOIN")), SPACE, _table(node.right))
        if node.on is not None:
            doc = doc + cat(text(" ON "), pretty_expr(node.on))
        elif node.using:
            doc = doc + text(f" USING({', '.join(node.using)})")
        return doc
    return text(type(node).__name__)


def _pivoted(node: A.Pivot | A.Unpivot) -> Doc:
    """`t PIVOT(...) AS a`: Databend 1.2.453 prints the source's alias after the operator."""
    source = node.source
    if isinstance(source, A.TableRef):
        doc = text(_name(source.name))
    else:
        doc = _parenthesized(pretty_query(source.query))
    if isinstance(node, A.Pivot):
        values = ", ".join(_flat(pretty_expr(v)) for v in node.values)
        operator = f" PIVOT({_flat(pretty_expr(node.aggregate))} FOR {node.key} IN ({values}))"
    else:
        names = ", ".join(c.source_text if c.label is None else
                          f"{c.source_text} AS {literal_text(A.Literal(c.label, 'string'))}" for c in node.columns)
        operator = f" UNPIVOT({node.value_column} FOR {node.name_column} IN ({names}))"
    columns = getattr(source, "column_aliases", None)
    alias = f" AS {source.alias}{_column_list(columns)}" if source.alias else ""
    return cat(doc, text(operator + alias))


def _order_item(o: A.OrderItem) -> Doc:
    doc = pretty_expr(o.expr) + (text(" DESC") if o.desc else text(" ASC") if o.asc else NIL)
    if o.nulls_first is not None:
        doc = doc + text(" NULLS FIRST" if o.nulls_first else " NULLS LAST")
    return doc


# ---------------------------------------------------------------- expressions


def pretty_expr(node: A.Node) -> Doc:  # noqa: C901 - one case per expression node
    if isinstance(node, A.ColumnRef):
        return text(_name(node.parts))
    if isinstance(node, A.Literal):
        return text(literal_text(node))
    if isinstance(node, A.BinaryOp):
        op = node.op.upper()
        if op in ("AND", "OR", "XOR"):
            return _parenthesized(cat(pretty_expr(node.left), LINE_, text(op), SPACE, pretty_expr(node.right)))
        return cat(text("("), pretty_expr(node.left), text(f" {op} "), pretty_expr(node.right), text(")"))
    if isinstance(node, A.Like):
        op = "NOT LIKE" if node.negated else "LIKE"
        return cat(text("("), pretty_expr(node.operand), text(f" {op} "), pretty_expr(node.pattern), text(")"))
    if isinstance(node, A.UnaryOp):
        return cat(text(f"({node.op} "), pretty_expr(node.operand), text(")"))
    if isinstance(node, A.IsNull):
        return pretty_expr(node.operand) + text(" IS NOT NULL" if node.negated else " IS NULL")
    if isinstance(node, A.Between):
        return cat(pretty_expr(node.operand), text(" NOT BETWEEN " if node.negated else " BETWEEN "),
                   pretty_expr(node.low), text(" AND "), pretty_expr(node.high))
    if isinstance(node, A.InList):
        return cat(pretty_expr(node.operand), text(" NOT IN (" if node.negated else " IN ("),
                   _inline([pretty_expr(i) for i in node.items]), text(")"))
    if isinstance(node, A.InSubquery):
        return cat(pretty_expr(node.operand), text(" NOT IN (" if node.negated else " IN ("),
                   pretty_query(node.query), text(")"))
    if isinstance(node, A.Exists):
        return cat(text("NOT EXISTS " if node.negated else "EXISTS "), _parenthesized(pretty_query(node.query)))
    if isinstance(node, A.ScalarSubquery):
        return _parenthesized(pretty_query(node.query))
    if isinstance(node, A.Case):
        return _case(node)
    if isinstance(node, A.Cast):
        type_name = type_text(node.type)
        if node.double_colon:
            return cat(pretty_expr(node.operand), text(f"::{type_name}"))
        return cat(text("TRY_CAST(" if node.try_ else "CAST("), pretty_expr(node.operand), text(f" AS {type_name})"))
    if isinstance(node, A.Interval):
        return cat(text("INTERVAL "), pretty_expr(node.value), text(f" {node.unit.upper()}"))
    if isinstance(node, A.FunctionCall):
        return _function(node)
    if isinstance(node, A.WindowCall):
        return _function(node.func) + text(f" OVER ({_window_text(node.window)})")
    return text(type(node).__name__)


def _case(node: A.Case) -> Doc:
    whens = [cat(text("WHEN "), pretty_expr(c), text(" THEN "), pretty_expr(r)) for c, r in node.whens]
    doc = cat(text("CASE"), cat(SPACE, pretty_expr(node.operand)) if node.operand is not None else NIL,
              cat(LINE, _interweave(whens)).nest(NEST).group())
    if node.else_ is not None:
        doc = doc + cat(LINE.nest(NEST), text("ELSE "), pretty_expr(node.else_))
    return cat(doc, LINE, text("END"))


def _function(node: A.FunctionCall) -> Doc:
    call = _call(node)
    # the clauses after the call as the current Databend prints them (Databend 1.2.453 has neither)
    if node.within_group:
        keys = ", ".join(_flat(_order_item(o)) for o in node.within_group)
        call = call + text(f" WITHIN GROUP ( ORDER BY {keys} )")
    if node.filter is not None:
        call = call + text(f" FILTER ( WHERE {_flat(pretty_expr(node.filter))} )")
    return call


def _call(node: A.FunctionCall) -> Doc:
    if node.star and node.name == "count":
        return text("COUNT(*)")
    if node.name in ("substr", "substring") and len(node.args) in (2, 3):
        parts = [text("SUBSTRING("), pretty_expr(node.args[0]), text(" FROM "), pretty_expr(node.args[1])]
        if len(node.args) == 3:
            parts += [text(" FOR "), pretty_expr(node.args[2])]
        return cat(*parts, text(")"))
    params = cat(text("("), _inline([pretty_expr(p) for p in node.params]), text(")")) if node.params else NIL
    return cat(text(node.name), params, text("("), text("DISTINCT ") if node.distinct else NIL,
               _inline([pretty_expr(a) for a in node.args]), text(")"))


def _window_text(window) -> str:
    if isinstance(window, str):
        return window
    parts = []
    if window.base:
        parts.append(window.base)
    if window.partition_by:
        parts.append("PARTITION BY " + ", ".join(_flat(pretty_expr(e)) for e in window.partition_by))
    if window.order_by:
        parts.append("ORDER BY " + ", ".join(_flat(_order_item(o)) for o in window.order_by))
    if window.frame is not None:
        f = window.frame
        parts.append(f"{f.units.upper()} BETWEEN {_bound(f.start)} AND {_bound(f.end)}")
    return "(" + "".join(" " + part for part in parts) + " )"


def _bound(b: A.FrameBound) -> str:
    kind = b.kind.upper().replace("_", " ")
    if b.offset is not None:
        return f"{_flat(pretty_expr(b.offset))} {kind}"
    return kind


def literal_text(node: A.Literal) -> str:
    if node.kind == "string":
        return "'" + node.value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if node.kind == "bool":
        return "TRUE" if node.value else "FALSE"
    if node.kind == "null":
        return "NULL"
    if node.kind == "float":  # an exponent literal reads as the decimal number it is
        return format(decimal.Decimal(repr(node.value)).normalize(), "f")
    if node.kind == "binary":
        return f"X'{node.value.hex().upper()}'"
    return str(node.value)


def type_text(t: A.TypeName) -> str:
    name = t.name.upper()
    if name in ("DECIMAL", "NUMERIC"):
        bare = (18, 3) if name == "NUMERIC" else (18, 0)  # a bare NUMERIC is Databend's Decimal(18, 3)
        precision, scale = (tuple(t.params) + (18, 0))[:2] if t.params else bare
        return f"Decimal({precision}, {scale})"
    if name == "NULLABLE" and t.args:
        return f"Nullable({type_text(t.args[0])})"
    shown = TYPE_NAMES.get(name, name)
    if t.args:
        return f"{shown}({', '.join(type_text(a) for a in t.args)})"
    return shown


# ---------------------------------------------------------------- DML and DDL


def _insert(node: A.Insert) -> Doc:
    target = _name(node.table) + (f" ({', '.join(node.columns)})" if node.columns else "")
    doc = cat(text("INSERT OVERWRITE" if node.overwrite else "INSERT INTO"), cat(LINE.nest(NEST), text(target)), LINE)
    if node.rows is not None:
        rows = [_row(row) for row in node.rows]
        return doc + cat(text("VALUES"), cat(LINE.nest(NEST), _interweave(rows).nest(NEST).group()))
    return doc + pretty_query(node.query)


def _row(values) -> Doc:
    return cat(text("("), _inline([pretty_expr(v) for v in values]), text(")"))


def _target(table, alias) -> Doc:
    return text(_name(table) + (f" AS {alias}" if alias else ""))


def _update(node: A.Update) -> Doc:
    items = [cat(text(f"{a.column} = "), pretty_expr(a.value)) for a in node.assignments]
    doc = cat(text("UPDATE"), cat(LINE.nest(NEST), _target(node.table, node.alias)), LINE, text("SET"),
              (LINE if len(items) > 1 else SPACE).nest(NEST), _interweave(items).nest(NEST).group())
    return doc + _condition("WHERE", node.where) if node.where is not None else doc


def _delete(node: A.Delete) -> Doc:
    doc = cat(text("DELETE FROM"), cat(LINE.nest(NEST), _target(node.table, node.alias)))
    return doc + _condition("WHERE", node.where) if node.where is not None else doc


def _create_table(node: A.CreateTable) -> Doc:
    head = "CREATE " + ("OR REPLACE " if node.or_replace else "") + ("TRANSIENT " if node.transient else "") + \
        "TABLE " + ("IF NOT EXISTS " if node.if_not_exists else "") + _name(node.name)
    if node.as_query is not None and not node.columns:
        return cat(text(head), LINE, text("AS"), cat(LINE, pretty_query(node.as_query)).nest(NEST))
    head += " ("
    columns = [text(_column_def(c)) for c in node.columns]
    return cat(text(head), cat(LINE, _interweave(columns)).nest(NEST), LINE, text(")"))


def _column_def(c: A.ColumnDef) -> str:
    out = f"{c.name} {type_text(c.type)}"
    if c.type.nullable is True:
        out += " NULL"
    elif c.type.nullable is False:
        out += " NOT NULL"
    if c.default is not None:
        out += " DEFAULT " + _flat(pretty_expr(c.default))
    if c.comment is not None:
        out += " COMMENT " + literal_text(A.Literal(c.comment, "string"))
    return out

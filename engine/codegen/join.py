"""Join code generation: a join's hash-build, probe and slice functions as generated source (no run state).

The run loop that calls them a bounded step at a time, and charges the memory the build side
holds, is engine.exec.join; this module only turns the plan into compiled functions.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from engine.codegen.batch_source import column_refs, map_source
from engine.codegen.compile import Codegen
from engine.ir.expr import And


@dataclass(frozen=True)
class JoinCode:
    """The generated functions of one join (each compiled from source, its values bound in).

    A hash join has `add_to_table` and `probe_keys`; a nested loop has neither."""

    cg: Codegen  # the probe's generator: the subqueries compiled into the condition
    inner: bool  # INNER or CROSS: no NULL-extended rows
    # (b, p, ht): adds each right row of batch b to its key's group in ht (NULL keys left out)
    add_to_table: object
    # (b, p) -> the probe key of each left row of b (used only when a group exceeds the budget)
    probe_keys: object
    # (b, p, ht, right[, seen]) -> the joined rows of left batch b (projected and filtered if inner)
    probe: object
    # (l, p, ms, seen) -> left row l joined with the slice ms of its group
    piece: object
    # (b, p, ht, right) -> as probe, where ht maps each key to its single row (inner hash joins)
    unique_probe: object
    # (b, p) -> the filter and projection above an outer join applied to its rows, or None
    post: object


def join_code(plan, new_codegen, pred=None, exprs=None) -> JoinCode:
    """The generated functions of `plan` (a P.Join). A filter `pred` and projection `exprs`
    above an inner join are fused into its probe; above an outer join they become `post`.
    `new_codegen()` makes a Codegen (each compiles its own subqueries)."""
    cg = new_codegen()
    lcols = column_refs(plan.left.layout, "l")
    rcols = column_refs(plan.right.layout, "m")
    both = {**lcols, **rcols}
    inner = plan.kind in ("INNER", "CROSS")
    residual = plan.residual
    if inner and residual is not None:
        pred = residual if pred is None else And(pred.type, args=(residual, pred))
        residual = None
    add_to_table = probe_keys = lkey = None
    if plan.left_keys:
        lkey, add_to_table, probe_keys = _hash_table_code(plan, new_codegen, cg, lcols)
    empty = cg.bind(())
    source = "ht.get(" + lkey + ", " + empty + ")" if lkey else "right"
    if inner:
        probe, piece, unique_probe = _inner_code(cg, both, pred, exprs, lkey, source)
        post = None
    else:
        unique_probe = None
        probe, piece = _outer_code(cg, both, plan.kind, len(plan.right.layout), residual, source)
        post = None
        if pred is not None or exprs is not None:
            post_cg = new_codegen()
            proj, pcond = map_source(post_cg, plan.layout, pred, exprs)
            post = post_cg.build(["b", "p"], [f"return [{proj} for r in b{pcond}]"])
    return JoinCode(cg, inner, add_to_table, probe_keys, probe, piece, unique_probe, post)


def _hash_table_code(plan, new_codegen, cg, lcols):
    """(probe key source of a left row `l`, the build function, the probe keys function)."""
    # float keys by their hash keys (every NaN one value); other keys as they are
    lk = [cg.hash_key(cg.expr(k, lcols), k) for k in plan.left_keys]
    rk_cg = new_codegen()
    rk = [rk_cg.hash_key(rk_cg.expr(k, column_refs(plan.right.layout, "m")), k) for k in plan.right_keys]
    lkey = lk[0] if len(lk) == 1 else "(" + ", ".join(lk) + ",)"
    rkey = rk[0] if len(rk) == 1 else "(" + ", ".join(rk) + ",)"
    # the key's parts tested as computed (a key expression is not run twice)
    null_checks = "k is None" if len(rk) == 1 else " or ".join(f"k[{i}] is None" for i in range(len(rk)))
    add_to_table = rk_cg.build(["b", "p", "ht"], [
        "for m in b:",
        f"    k = {rkey}",
        f"    if {null_checks}:" if null_checks else "    if False:",
        "        continue",
        "    g = ht.get(k)",
        "    if g is None:",
        "        ht[k] = [m]",
        "    else:",
        "        g.append(m)",
    ])
    add_to_table.row_cost = rk_cg.row_cost  # the right keys' declared cost a row (engine.exec.join)
    probe_keys = cg.build(["b", "p"], [f"return [{lkey} for l in b]"])
    return lkey, add_to_table, probe_keys


def _inner_code(cg, both, pred, exprs, lkey, source):
    """(probe, piece, unique_probe) of an inner join: the filter and projection run in the probe."""
    if exprs is not None:
        proj = "(" + "".join(cg.expr(e, both) + ", " for e in exprs) + ")"
    else:
        proj = "l + m"
    cond_src = None if pred is None else cg.pred(pred, both)
    cond = "" if pred is None else " if " + cond_src
    probe = cg.build(["b", "p", "ht", "right"], [f"return [{proj} for l in b for m in {source}{cond}]"])
    # one left row against one slice of its group
    piece = cg.build(["l", "p", "ms", "seen"], [f"return [{proj} for m in ms{cond}]"])
    unique_probe = None
    if lkey:
        # every build key unique (a dimension table): one dict lookup per probe row, no inner loop
        extra = "" if cond_src is None else " and " + cond_src
        unique_probe = cg.build(["b", "p", "ht", "right"],
                                [f"return [{proj} for l in b if (m := ht.get({lkey})) is not None{extra}]"])
    return probe, piece, unique_probe


def _outer_code(cg, both, kind, right_width, residual, source):
    """(probe, piece) of a LEFT or FULL join: a left row without a match gets NULLs, and a FULL
    join marks the right rows matched (`seen`) for the NULL-extended rest at the end."""
    nulls = cg.bind((None,) * right_width)
    cond = cg.pred(residual, both) if residual is not None else "True"
    lines = [
        "out = []",
        "for l in b:",
        "    hit = False",
        f"    for m in {source}:",
        f"        if {cond}:",
        "            out.append(l + m)",
        "            hit = True",
    ]
    if kind == "FULL":
        lines.append("            seen.add(id(m))")
    lines += ["    if not hit:", f"        out.append(l + {nulls})", "return out"]
    probe = cg.build(["b", "p", "ht", "right", "seen"], lines)
    piece_lines = ["out = []", "for m in ms:", f"    if {cond}:", "        out.append(l + m)"]
    if kind == "FULL":
        piece_lines.append("        seen.add(id(m))")
    piece = cg.build(["l", "p", "ms", "seen"], piece_lines + ["return out"])
    return probe, piece


@dataclass(frozen=True)
class ColumnProbe:
    """An inner hash join's probe over a left scan of columns (issue 24): its generated loops walk
    the left table's columns at `positions` zipped (`for _c0, _c2 in b`), so no left row is
    built; only the joined rows are."""

    positions: tuple  # the left table's columns the probe reads, in the loop target's order
    probe: object  # (b, p, ht, right) -> the joined rows of left batch b, as JoinCode.probe
    unique_probe: object  # (b, p, ht, right) -> as JoinCode.unique_probe
    # the unique-key probe's projection as whole-column steps (engine.exec.join_vector), or None:
    # (index of the key in `positions`, items); each item ("l", i) the left column at positions[i],
    # ("r", j) the right row's column j, or (operator, i, j, left first) a float + - * of the two
    vector: tuple | None = None


# float operators whose numpy form gives each element exactly Python's answer (one IEEE operation,
# never an exception); division is not one (Python raises on 0.0, numpy gives inf)
_VECTOR_OPERATORS = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply"}


def _vector_shape(proj: str, positions: tuple, key: int):
    """`proj` (the source of a tuple of left columns `_cN`, right columns `m[j]` and binary + - *
    of one of each) as ColumnProbe.vector; None for any other projection."""
    try:
        tree = ast.parse(proj, mode="eval").body
    except SyntaxError:
        return None

    def operand(node):
        if isinstance(node, ast.Name) and (found := re.fullmatch(r"_c(\d+)", node.id)):
            return ("l", positions.index(int(found.group(1))))
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "m" \
                and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
            return ("r", node.slice.value)
        return None

    if not isinstance(tree, ast.Tuple) or not tree.elts:
        return None
    items = []
    for node in tree.elts:
        item = operand(node)
        if item is None and isinstance(node, ast.BinOp) and type(node.op) in _VECTOR_OPERATORS:
            a, b = operand(node.left), operand(node.right)
            if a is not None and b is not None and {a[0], b[0]} == {"l", "r"}:
                left, right = (a, b) if a[0] == "l" else (b, a)
                item = (_VECTOR_OPERATORS[type(node.op)], left[1], right[1], a[0] == "l")
        if item is None:
            return None
        items.append(item)
    return positions.index(key), tuple(items)


def column_probe_code(plan, new_codegen, pred=None, exprs=None) -> ColumnProbe | None:
    """The probe of an inner hash join (P.Join) over the left table's zipped columns, the filter
    `pred` and projection `exprs` fused in as in `join_code`; None where it does not apply (an
    outer join, no equi keys, a subquery or an out-of-process call in the code)."""
    if plan.kind != "INNER" or not plan.left_keys:
        return None
    cg = new_codegen()
    lcols = {cid: f"_c{i}" for i, cid in enumerate(plan.left.layout)}
    both = {**lcols, **column_refs(plan.right.layout, "m")}
    if plan.residual is not None:
        pred = plan.residual if pred is None else And(pred.type, args=(plan.residual, pred))
    lk = [cg.hash_key(cg.expr(k, lcols), k) for k in plan.left_keys]
    lkey = lk[0] if len(lk) == 1 else "(" + ", ".join(lk) + ",)"
    if exprs is not None:
        proj = "(" + "".join(cg.expr(e, both) + ", " for e in exprs) + ")"
    else:  # the whole left row, then the right one
        proj = "(" + "".join(v + ", " for v in lcols.values()) + ") + m"
    cond_src = None if pred is None else cg.pred(pred, both)
    if cg.has_subqueries or cg.prefetched:
        return None
    code = proj + " " + lkey + " " + (cond_src or "")
    positions = tuple(i for i in range(len(plan.left.layout)) if re.search(rf"\b_c{i}\b", code))
    if not positions:
        return None
    target = ", ".join(f"_c{i}" for i in positions) + ("," if len(positions) == 1 else "")
    cond = "" if cond_src is None else " if " + cond_src
    empty = cg.bind(())
    # b: the values of the columns at `positions`, one sequence each
    probe = cg.build(["b", "p", "ht", "right"],
                     [f"return [{proj} for {target} in zip(*b) for m in ht.get({lkey}, {empty}){cond}]"])
    extra = "" if cond_src is None else " and " + cond_src
    key = re.fullmatch(r"_c(\d+)", lkey)
    if key is not None:
        # a plain column is its own hash key: its groups are looked up by a C-level map, and the
        # key column joins the loop only where the row reads it
        k = positions.index(int(key.group(1)))
        read = [i for i in positions if i != int(key.group(1)) or re.search(rf"\b{lkey}\b", proj + (cond_src or ""))]
        names = "".join(f"_c{i}, " for i in read)
        columns = "".join(f"b[{positions.index(i)}], " for i in read)
        unique_probe = cg.build(["b", "p", "ht", "right"], [
            f"return [{proj} for {names}m in zip({columns}map(ht.get, b[{k}])) if m is not None{extra}]"])
        if cond_src is None:  # without a condition, whole-column steps may do it
            return ColumnProbe(positions, probe, unique_probe,
                               _vector_shape(proj, positions, int(key.group(1))))
    else:
        unique_probe = cg.build(["b", "p", "ht", "right"],
                                [f"return [{proj} for {target} in zip(*b) if (m := ht.get({lkey})) is not None{extra}]"])
    return ColumnProbe(positions, probe, unique_probe)

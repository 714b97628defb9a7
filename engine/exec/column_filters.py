"""Row selection over a scan of columns at C speed (issue 24): a filter's conjuncts of the simple
shapes (a column compared with a constant, a column's truth, `IS [NOT] NULL`, a plain-substring
LIKE, an IN list) run as `map` of an `operator` function over a column's slice, each conjunct
only over the rows the ones before it kept; the rows kept are then picked, column by column.

The semantics are the row path's by construction: each conjunct is first rendered by the same
Codegen the row path uses (so NULL tests, NaN-aware comparisons, collations and casts come out
as they do there), and only when that source is itself of the form `_c1 < _k0`, `_c4`,
`_c2 is not None`, `_k0 in _c3`... is it run as `map(operator.lt, values, repeat(constant))`,
which is what the source evaluates, value by value. Conjuncts of any other form, and all after
one, run as one generated comprehension over the rows kept so far, left to right as `and` does
(a conjunct never sees a row an earlier one dropped, so none raises where the row path would not).
"""

from __future__ import annotations

import ast
import operator
import re
from array import array
from itertools import compress, repeat
from operator import itemgetter

from engine.codegen.batch_source import RowVars
from engine.core.vectors import vectorised
from engine.exec.dictionary_filters import coded_test
from engine.ir.expr import And, SubqueryExpr

# comparison node -> the operator function evaluating it (`a < b` is `operator.lt(a, b)`)
_OPERATORS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
              ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_, ast.IsNot: operator.is_not}
_COLUMN = re.compile(r"_c(\d+)$")
_CONSTANT = re.compile(r"_k\d+$")

# numpy (engine.core.vectors) compares an array column's batch with a constant without boxing a
# value: used where it answers as Python's operator does (`exact_codes`); NUMPY off, or numpy
# missing, the same tests run as `map` over the values


_ORDERINGS = frozenset({operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne})
_INT_RANGES = {code: (array(code, [0]).itemsize, code.isupper()) for code in "bBhHiIqQ"}


def exact_codes(function, constant) -> frozenset:
    """The array typecodes whose values numpy compares with `constant` by `function` exactly as
    Python does: a float constant with doubles and with integers of at most 32 bits (exact in a
    double), an integer constant with integers whose type holds it and with doubles when it is
    exact in a double (beyond 2**53 Python compares exactly, numpy after rounding)."""
    if function not in _ORDERINGS:
        return frozenset()
    if type(constant) is float:
        return frozenset("dbBhHiI")
    if type(constant) is not int:  # bool, Decimal, str, dates...: the map path
        return frozenset()
    codes = {"d"} if -2 ** 53 <= constant <= 2 ** 53 else set()
    for code, (size, unsigned) in _INT_RANGES.items():
        low, high = (0, 2 ** (8 * size) - 1) if unsigned else (-2 ** (8 * size - 1), 2 ** (8 * size - 1) - 1)
        if low <= constant <= high:
            codes.add(code)
    return frozenset(codes)


# row numbers 0, 1, 2... shared by every selection (compress over them boxes no new int)
_ROW_NUMBERS: list[int] = []
_ROW_NUMBERS_LIMIT = 1 << 16  # batches longer than this number their rows with a range


def row_numbers(n: int):
    """A sequence holding 0..n-1 at least (it may be longer: compress stops at its selectors)."""
    if n > len(_ROW_NUMBERS):
        if n > _ROW_NUMBERS_LIMIT:
            return range(n)
        _ROW_NUMBERS.extend(range(len(_ROW_NUMBERS), n))
    return _ROW_NUMBERS


def picker(kept: list):
    """column -> its values at the row numbers `kept` (not empty), in order: an itemgetter,
    which picks at C speed (a `map` of the column's `__getitem__` costs a call a value)."""
    if len(kept) > 1:
        return itemgetter(*kept)
    row = kept[0]
    return lambda column: (column[row],)


class Selection:
    """A predicate over a scan's columns as tests run a batch at a time: `select(slices, n, p)`
    -> the numbers (from 0) of the batch's rows it keeps, `slices[i]` the batch's values of
    column i for each position in `tested`."""

    __slots__ = ("tests", "rest", "tested", "truths")

    def __init__(self, tests: list, rest, tested: tuple):
        # (position, function, constant, column first, array typecodes numpy compares exactly),
        # function None for a column's truth (constant True) or falsity (False)
        self.tests = tests
        self.rest = rest  # None, or (positions, fn(kept so far, value iterables, p) -> kept)
        self.tested = tested
        # per test: its Truth over a dictionary column's distinct values (engine.exec.
        # dictionary_filters), made when a batch first comes with the column's codes
        self.truths = [None] * len(tests)

    def select(self, slices, n: int, p, coded=None) -> list:
        """`coded`, when given: position -> (codes, values, fetch) of the batch's dictionary
        columns (dictionary_filters.batch_codes): their tests then run once a distinct value
        (their slices may be None: `fetch` gives the values if a test needs them)."""
        kept = self._kept(slices, n, p, self.tests, coded)
        if kept is None:
            kept = list(row_numbers(n)[:n])
        if kept and self.rest is not None:
            positions, fn = self.rest
            pick = picker(kept)
            kept = fn(kept, [pick(slices[i]) for i in positions], p)
        return kept

    def count(self, slices, n: int, p, coded=None) -> int:
        """How many of the batch's rows `select` keeps (the last test only counts its rows)."""
        if coded:
            return len(self.select(slices, n, p, coded))
        np = vectorised()
        if np is not None and self.rest is None:
            mask = _numpy_mask(np, slices, self.tests)
            if mask is not None:
                return int(np.count_nonzero(mask))
        if self.rest is not None or len(self.tests) < 2 and np is None:
            return len(self.select(slices, n, p))
        kept = self._kept(slices, n, p, self.tests[:-1])
        if kept is not None and not kept:
            return 0
        position, function, constant, column_first, exact = self.tests[-1]
        column = slices[position]
        if np is not None and type(column) is array and column.typecode in exact:
            return int(np.count_nonzero(_numpy_compared(np, column, kept, function, constant, column_first)))
        return len(_map_test(column, kept, n, function, constant, column_first))

    def _kept(self, slices, n: int, p, tests, coded=None) -> list | None:
        """The rows (numbers from 0) the `tests` keep, None for all (no test)."""
        kept = None
        np = vectorised()
        for index, (position, function, constant, column_first, exact) in enumerate(tests):
            column = slices[position]
            if coded and position in coded:
                found = coded_test(self, index, coded[position], kept, n, np)
                if found is not None:
                    kept = found
                    if not kept:
                        return kept
                    continue
                if column is None:  # tested by value after all: the batch's values
                    column = slices[position] = coded[position][2]()
            if np is not None and type(column) is array and column.typecode in exact:
                kept = _numpy_test(np, column, kept, function, constant, column_first)
            else:
                kept = _map_test(column, kept, n, function, constant, column_first)
            if not kept:
                return kept
        return kept


def _numpy_mask(np, slices, tests):
    """The rows every test keeps as one numpy mask over the whole batch, when numpy evaluates
    each test exactly (a comparison of an array column `exact_codes` allows, or the truth of
    an array column or of a list of bools and small integers); else None. The tests see rows an
    earlier one dropped, which changes no count: none of these raises."""
    mask = None
    for position, function, constant, column_first, exact in tests:
        column = slices[position]
        if function is None and column_first is not None:  # a column's truth (or falsity)
            if type(column) is array:
                passed = np.frombuffer(column, dtype=column.typecode) != 0  # NaN is true, -0.0 false
            else:
                try:  # bools and integers 0..255 only (None, other values raise): their truth
                    passed = np.frombuffer(bytes(column), dtype=np.uint8) != 0
                except (TypeError, ValueError):
                    return None
            if not constant:
                passed = ~passed
        elif type(column) is array and column.typecode in exact:
            values = np.frombuffer(column, dtype=column.typecode)
            passed = function(values, constant) if column_first else function(constant, values)
        else:
            return None
        mask = passed if mask is None else mask & passed
    return mask


def _map_test(column, kept, n: int, function, constant, column_first) -> list:
    """The rows of `kept` (None: all `n`) whose value in `column` (the batch's slice) passes,
    by a `map` of the operator function over the values (or the values' own truth)."""
    values = column if kept is None else picker(kept)(column)
    if column_first is None:  # fused tests: a generated comprehension
        return function(row_numbers(n) if kept is None else kept, values)
    if function is None:  # a column's truth (constant True) or its falsity
        selectors = values if constant else map(operator.not_, values)
    elif column_first:
        selectors = map(function, values, repeat(constant))
    else:
        selectors = map(function, repeat(constant), values)
    return list(compress(row_numbers(n) if kept is None else kept, selectors))


def _numpy_compared(np, column: array, kept, function, constant, column_first):
    """numpy's truth of the comparison for the rows of `kept` (None: all) of `column` (the
    batch's slice, the caller's own: numpy's view of it never outlives this call)."""
    values = np.frombuffer(column, dtype=column.typecode)
    if kept is not None:
        values = values[np.fromiter(kept, np.intp, len(kept))]
    return function(values, constant) if column_first else function(constant, values)


def _numpy_test(np, column: array, kept, function, constant, column_first) -> list:
    """The rows of `kept` (None: all) whose value in `column` passes the comparison, in numpy."""
    mask = _numpy_compared(np, column, kept, function, constant, column_first)
    if kept is None:
        return np.flatnonzero(mask).tolist()
    return list(compress(kept, mask.tolist()))


def conjuncts(pred) -> list:
    """The predicate's top-level AND operands, nested ANDs flattened, in order."""
    if type(pred) is And:
        return [c for a in pred.args for c in conjuncts(a)]
    return [pred]


def compile_selection(cg, pred, layout) -> Selection | None:
    """The Selection evaluating `pred` over a scan of `layout`, or None when its first conjunct
    is not of a simple shape (the caller's generated comprehension is then as good)."""
    if _holds_subquery(pred):  # rendered once, by the path that runs it (each render plans it)
        return None
    try:
        return _compiled(cg, pred, layout)
    except RecursionError:  # a predicate nested deeper than Python's ast walks: the row loop
        return None


def _holds_subquery(e) -> bool:
    return type(e) is SubqueryExpr or any(_holds_subquery(a) for a in e.args)


def _compiled(cg, pred, layout) -> Selection | None:
    cols = RowVars(layout)
    parts = []
    for conjunct in conjuncts(pred):
        parts.extend(_and_operands(ast.parse(cg.pred(conjunct, cols).strip(), mode="eval").body))
    tests, tested = [], set()
    simple = 0  # the leading parts of simple shapes
    for part in parts:
        test = _simple_test(part, cg.bindings)
        if test is None:
            break
        simple += 1
        if test is not True:  # a constant TRUE keeps every row: no test
            if tests and not test[4] and tests[-1][0] == test[0] and not tests[-1][4]:
                tests[-1] = _fused(cg, tests[-1], part)
            else:
                tests.append((*test, part))
            tested.add(test[0])
    tests = [test[:5] for test in tests]
    if not tests:
        return None
    rest = None
    if simple < len(parts):
        rest = _rest_function(cg, parts[simple:])
        tested.update(rest[0])
    return Selection(tests, rest, tuple(sorted(tested)))


def _fused(cg, test, part) -> tuple:
    """A test of a column that numpy never compares (dates, strings...) followed by another of
    the same column, as one comprehension over its values (`d >= _k0 and d < _k1`): a value is
    then fetched once for both, and no list is made of the rows the first keeps."""
    parts = test[6] if len(test) > 6 else [test[5]]
    parts = [*parts, part]
    name = f"_c{test[0]}"
    source = " and ".join(f"({ast.unparse(p)})" for p in parts)
    fn = cg.build(["kept", "values"], [f"return [_j for _j, {name} in zip(kept, values) if {source}]"])
    return (test[0], fn, None, None, frozenset(), None, parts)


def _and_operands(node) -> list:
    """The operands of `a and b and ...` in order; `(None if _c1 is None else E) is True`, the
    source of a test E of a nullable column (LIKE...), as `_c1 is not None` and E when E is a
    comparison (whose value is a bool: `is True` of it is its truth)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [o for v in node.values for o in _and_operands(v)]
    if (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Is)
            and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is True
            and isinstance(choice := node.left, ast.IfExp) and isinstance(choice.body, ast.Constant)
            and choice.body.value is None and isinstance(choice.orelse, ast.Compare)
            and isinstance(test := choice.test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Is) and _column(test.left) is not None
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None):
        return [ast.Compare(left=test.left, ops=[ast.IsNot()], comparators=[test.comparators[0]]),
                choice.orelse]
    return [node]


def _column(node):
    """The position of a loop variable `_c<i>`, else None."""
    if isinstance(node, ast.Name) and (m := _COLUMN.match(node.id)):
        return int(m.group(1))
    return None


def _constant(node, bindings):
    """(True, value) for a bound constant `_k<i>` or a literal; (False, None) for anything else."""
    if isinstance(node, ast.Constant):
        return True, node.value
    if isinstance(node, ast.Name) and _CONSTANT.match(node.id) and node.id in bindings:
        return True, bindings[node.id]
    return False, None


def _simple_test(node, bindings):
    """A test tuple for the selection of a simple conjunct's source, True for a constant TRUE,
    None for one of any other shape (or a constant FALSE/NULL: rare, left to generated code)."""
    position = _column(node)
    if position is not None:
        return (position, None, True, True, frozenset())
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        position = _column(node.operand)
        return None if position is None else (position, None, False, True, frozenset())
    if isinstance(node, ast.Constant):
        return True if node.value is True else None
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    left, right, op = node.left, node.comparators[0], type(node.ops[0])
    if op is ast.In:  # `a in b` is operator.contains(b, a)
        left, right, function = right, left, operator.contains
    else:
        function = _OPERATORS.get(op)
        if function is None:
            return None
    position = _column(left)
    if position is not None:
        found, value = _constant(right, bindings)
        return (position, function, value, True, exact_codes(function, value)) if found else None
    position = _column(right)
    if position is not None:
        found, value = _constant(left, bindings)
        return (position, function, value, False, exact_codes(function, value)) if found else None
    return None


def _rest_function(cg, parts):
    """(positions read, fn(kept, values, p) -> the rows of `kept` for which every part holds),
    the parts' source rendered back and joined with `and` (left to right, as the row path)."""
    source = " and ".join(f"({ast.unparse(part)})" for part in parts)
    positions = sorted({position for part in parts for node in ast.walk(part)
                        if (position := _column(node)) is not None})
    names = "".join(f", _c{i}" for i in positions)
    values = "".join(f", picked[{k}]" for k in range(len(positions)))
    fn = cg.build(["kept", "picked", "p"], [f"return [_j for _j{names} in zip(kept{values}) if {source}]"])
    return positions, fn


def kept_rows_function(cg, proj: str, positions) -> tuple:
    """(fn(kept, picked, p) -> the output rows `proj` (source over `_c<i>`) of the rows kept,
    `picked` the values of each column it reads at those rows; the positions of those columns,
    in the order the projection first reads them)."""
    found = {i: m.start() for i in positions if (m := re.search(rf"\b_c{i}\b", proj))}
    read = sorted(found, key=found.get)
    if not read:  # nothing read of the rows kept: their number is what counts
        return cg.build(["kept", "picked", "p"], [f"return [{proj}] * len(kept)"]), read
    if proj == "(" + ", ".join(f"_c{i}" for i in read) + ", )":  # the picked columns zipped
        return cg.build(["kept", "picked", "p"], ["return list(zip(*picked))"]), read
    target = ", ".join(f"_c{i}" for i in read) + ("," if len(read) == 1 else "")
    return cg.build(["kept", "picked", "p"], [f"return [{proj} for {target} in zip(*picked)]"]), read


def kept_values(data, positions, slices, kept: list, start: int, n: int) -> list:
    """The values of the columns at `positions` at the rows `kept` (numbers from 0) of the batch
    of `n` rows from `start`: picked from the batch's slice where the selection made one (or
    most rows are kept), else from the whole column at the rows' own numbers (no slice copied
    for a few rows)."""
    relative = picker(kept)
    absolute = None
    np = vectorised()
    rows = None  # numpy's array of the kept row numbers, made when an array column needs it
    picked = []
    for c in positions:
        values = slices[c]
        if np is not None and (values is None or type(values) is array):
            if values is None:
                values = data.column_values(c, start, start + n)
            if type(values) is array:  # boxed by numpy's tolist, only the rows kept
                if rows is None:
                    rows = np.fromiter(kept, np.intp, len(kept))
                picked.append(np.frombuffer(values, dtype=values.typecode)[rows].tolist())
                continue
        if values is not None:
            picked.append(relative(values))
        elif len(kept) * 4 >= n:
            picked.append(relative(data.column_values(c, start, start + n)))
        else:
            if absolute is None:
                absolute = picker([k + start for k in kept]) if start else relative
            picked.append(data.pick(c, absolute))
    return picked

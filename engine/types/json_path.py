"""SQL/JSON paths as Databend reads them (the jsonb crate's path syntax and selector): '$', member
access (.a, ."a b", :a, ["a"], .*), recursive descent (.**, .**{2}, .**{1 to last}), array
elements ([0], [1, 3], [0 to 2], [last], [last - 1], [*]), filters (?(@.a > 1 && @.b starts
with "x"), exists(@.c)), and root expressions: predicates ('$.a == 1', for json_path_match / @@)
and arithmetic ('-$.a', '$.a[0] + 3'). A path may leave out its leading '$.' ('a.b')."""

from __future__ import annotations

import json
import math
import re

from engine.core.errors import BadArguments

_SPACE = " \t\r\n"
# characters that end a bare (unquoted) member name, as the jsonb crate's raw_string has them
_NAME_END = frozenset(" ,.:{}[]()?@$|<>!=+-*/%\"'")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)")
_INT = re.compile(r"[+-]?\d+")
# comparison and arithmetic operators, longest first (`starts with` is one operator)
_OPERATORS = ("==", "!=", "<>", "<=", "<", ">=", ">", "starts with", "+", "-", "*", "/", "%")
_COMPARISONS = frozenset({"==", "!=", "<>", "<=", "<", ">=", ">", "starts with"})


class _Fail(Exception):
    """The text does not parse here (the parser backtracks)."""


class _Raw:
    """An array or object met in a filter comparison: it compares with nothing."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class JsonPath:
    """A parsed path: `steps` (a selection from the root) or `expr` (a root expression)."""

    __slots__ = ("expr", "steps", "text")

    def __init__(self, text, steps=None, expr=None):
        self.text, self.steps, self.expr = text, steps, expr

    @property
    def is_predicate(self) -> bool:
        return self.expr is not None


# ---------------------------------------------------------------- parsing


class _Parser:
    def __init__(self, text: str):
        self.text = text

    def space(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in _SPACE:
            i += 1
        return i

    def take(self, i: int, token: str, ignore_case=False) -> int:
        piece = self.text[i:i + len(token)]
        if (piece.lower() if ignore_case else piece) != token:
            raise _Fail
        return i + len(token)

    def attempt(self, *alternatives):
        """The first alternative (a function of no argument) that parses."""
        for alternative in alternatives:
            try:
                return alternative()
            except _Fail:
                continue
        raise _Fail

    # strings and names
    def quoted(self, i: int):
        if not self.text.startswith('"', i):
            raise _Fail
        j = i + 1
        while j < len(self.text) and self.text[j] != '"':
            j += 2 if self.text[j] == "\\" else 1
        if j >= len(self.text) or j == i + 1:
            raise _Fail
        return _unescape(self.text[i + 1:j]), j + 1

    def bare(self, i: int):
        j = i
        while j < len(self.text) and self.text[j] not in _NAME_END:
            j += 2 if self.text[j] == "\\" else 1
        if j == i:
            raise _Fail
        return _unescape(self.text[i:j]), j

    def name(self, i: int):
        return self.attempt(lambda: self.quoted(i), lambda: self.bare(i))

    # steps
    def index(self, i: int):
        m = _INT.match(self.text, i)
        if m:
            return int(m.group()), m.end()
        i = self.take(i, "last", ignore_case=True)
        j = self.space(i)
        if j < len(self.text) and self.text[j] in "+-":
            m = _INT.match(self.text, self.space(j + 1))
            if m:
                n = int(m.group())
                return ("last", -n if self.text[j] == "-" else n), m.end()
        return ("last", 0), i

    def array_index(self, i: int):
        low, i = self.index(i)
        try:
            j = self.take(self.space(i), "to", ignore_case=True)
            high, j = self.index(self.space(j))
            return (low, high), j
        except _Fail:
            return (low, low), i

    def level(self, i: int):
        """{n} or {n to m} or {n to last} after .**"""
        i = self.space(self.take(i, "{"))
        m = re.compile(r"\d+").match(self.text, i)
        if not m or int(m.group()) > 255:
            raise _Fail
        start, i = int(m.group()), self.space(m.end())
        end = None
        if self.text[i:i + 2].lower() == "to":
            i = self.space(i + 2)
            if self.text[i:i + 4].lower() == "last":
                end, i = "last", i + 4
            else:
                m = re.compile(r"\d+").match(self.text, i)
                if not m or int(m.group()) > 255:
                    raise _Fail
                end, i = int(m.group()), m.end()
        return (start, end), self.take(self.space(i), "}")

    def inner_step(self, i: int):
        text = self.text
        if text.startswith(".**", i):
            try:
                level, j = self.level(i + 3)
            except _Fail:
                level, j = None, i + 3
            return ("recursive", level), j
        if text.startswith(".*", i):
            return ("values",), i + 2
        if text.startswith("[", i):
            j = self.space(i + 1)
            if text.startswith("*", j) and text.startswith("]", self.space(j + 1)):
                return ("elements",), self.space(j + 1) + 1
        if text.startswith(":", i) or text.startswith(".", i):
            name, j = self.name(i + 1)
            return ("key", name), j
        if text.startswith("[", i):
            return self.attempt(lambda: self.indices(i), lambda: self.bracket_name(i))
        raise _Fail

    def indices(self, i: int):
        i, ranges = i + 1, []
        while True:
            bounds, i = self.array_index(self.space(i))
            ranges.append(bounds)
            i = self.space(i)
            if self.text.startswith(",", i):
                i += 1
                continue
            return ("index", ranges), self.take(i, "]")

    def bracket_name(self, i: int):
        name, i = self.quoted(self.space(i + 1))
        return ("key", name), self.take(self.space(i), "]")

    def step(self, i: int):
        """A step of a path: a member or element step, or a filter ?(...)."""
        i = self.space(i)
        try:
            found, i = self.inner_step(i)
        except _Fail:
            found, i = self.filter(i)
        return found, self.space(i)

    def filter(self, i: int):
        i = self.space(self.take(i, "?"))
        i = self.space(self.take(i, "("))
        expr, i = self.expr_or(i, False)
        return ("filter", expr), self.take(self.space(i), ")")

    def steps(self, i: int, first):
        steps = [first]
        while True:
            try:
                found, i = self.step(i)
            except _Fail:
                return steps, i
            steps.append(found)

    def paths(self, i: int):
        if self.text.startswith("$", i):
            return self.steps(i + 1, ("root",))
        try:
            name, j = self.bare(self.space(i))
            return self.steps(self.space(j), ("key", name))
        except _Fail:
            return self.steps(i, ("root",))

    # expressions
    def expr_paths(self, i: int, is_root: bool):
        if self.text.startswith("$", i):
            steps, i = [("root",)], i + 1
        elif self.text.startswith("@", i) and not is_root:
            steps, i = [("current",)], i + 1
        else:
            raise _Fail
        while True:
            try:
                found, j = self.inner_step(self.space(i))
            except _Fail:
                return ("paths", steps), i
            steps.append(found)
            i = self.space(j)

    def value(self, i: int):
        for word, value in (("null", None), ("true", True), ("false", False)):
            if self.text.startswith(word, i):
                return ("value", value), i + len(word)
        m = _NUMBER.match(self.text, i)
        if m:
            text = m.group()
            number = int(text) if _INT.fullmatch(text) else float(text)
            return ("value", number), m.end()
        name, i = self.quoted(i)
        return ("value", name), i

    def inner_expr(self, i: int, is_root: bool):
        return self.attempt(lambda: self.expr_paths(i, is_root), lambda: self.value(i))

    def operator(self, i: int):
        for op in _OPERATORS:
            if self.text.startswith(op, i):
                return op, i + len(op)
        raise _Fail

    def atom(self, i: int, is_root: bool):
        def unary():
            if not self.text.startswith(("+", "-"), i):
                raise _Fail
            operand, j = self.inner_expr(self.space(i + 1), is_root)
            return ("unary", self.text[i], operand), self.space(j)

        def binary():
            left, j = self.inner_expr(self.space(i), is_root)
            op, j = self.operator(self.space(j))
            right, j = self.inner_expr(self.space(j), is_root)
            return ("binary", op, left, right), self.space(j)

        def parenthesized():
            j = self.space(self.take(i, "("))
            expr, j = self.expr_or(j, is_root)
            return expr, self.take(self.space(j), ")")

        def exists():
            j = self.space(self.take(i, "exists"))
            j = self.space(self.take(j, "("))
            if self.text.startswith("$", j):
                steps, j = self.steps(j + 1, ("root",))
            else:
                steps, j = self.steps(self.take(j, "@"), ("current",))
            return ("exists", steps), self.take(self.space(j), ")")

        return self.attempt(unary, binary, parenthesized, exists)

    def expr_logic(self, i: int, is_root: bool, token: str, operand):
        expr, i = operand(i, is_root)
        while True:
            j = self.space(i)
            if not self.text.startswith(token, j):
                return expr, i
            try:
                right, k = operand(self.space(j + 2), is_root)
            except _Fail:
                return expr, i
            expr, i = ("binary", token, expr, right), k

    def expr_and(self, i: int, is_root: bool):
        return self.expr_logic(i, is_root, "&&", self.atom)

    def expr_or(self, i: int, is_root: bool):
        return self.expr_logic(i, is_root, "||", self.expr_and)


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    try:
        return json.loads('"' + text + '"', strict=False)
    except ValueError:
        raise _Fail from None


def compile_path(path: str) -> JsonPath:
    """The parsed path; BadArguments (Invalid JSON Path) for what is not a path."""
    parser = _Parser(path)
    start = parser.space(0)
    try:
        expr, end = parser.expr_or(start, True)
        parsed = JsonPath(path, expr=expr)
    except _Fail:
        try:
            steps, end = parser.paths(start)
        except _Fail:
            raise BadArguments(f"Invalid JSON Path '{path}'") from None
        parsed = JsonPath(path, steps=steps)
    if parser.space(end) != len(path):
        raise BadArguments(f"Invalid JSON Path '{path}'")
    return parsed


# ---------------------------------------------------------------- selecting


def _position(bound, length: int) -> int:
    return length + bound[1] - 1 if isinstance(bound, tuple) else bound


def _child(loc, key):
    return None if loc is None else (*loc, key)


def _recursive(value, loc, level, bounds, out):
    if bounds is None:
        matches, further = True, True
    else:
        start, end = bounds
        if end is None:
            matches, further = level == start, level < start
        elif end == "last":
            matches, further = level >= start, True
        else:
            matches = start <= level <= end
            further = matches or (level < start <= end)
    if matches:
        out.append((value, loc))
    if further:
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, child in children:
            _recursive(child, _child(loc, key), level + 1, bounds, out)


def _step(items, step, root):
    """The (value, location) pairs a step selects from `items` (a location is the tuple of keys
    and indexes from the root, None when not followed)."""
    kind = step[0]
    if kind in ("root", "current"):
        return items
    if kind == "filter":
        return [(v, loc) for v, loc in items if _condition(v, step[1], root) is True]
    found = []
    for v, loc in items:
        if kind == "key":
            if isinstance(v, dict) and step[1] in v:
                found.append((v[step[1]], _child(loc, step[1])))
        elif kind == "values":
            if isinstance(v, dict):
                found.extend((x, _child(loc, k)) for k, x in v.items())
        elif kind == "elements":
            if isinstance(v, list):
                found.extend((x, _child(loc, i)) for i, x in enumerate(v))
            else:
                found.append((v, loc))  # lax: a non-array is its own element
        elif kind == "recursive":
            _recursive(v, loc, 0, step[1], found)
        elif isinstance(v, list):
            n = len(v)
            for low, high in step[1]:
                lo, hi = _position(low, n), _position(high, n)
                if low == high:
                    if 0 <= lo < n:
                        found.append((v[lo], _child(loc, lo)))
                else:
                    # the jsonb crate selects a range's indexes in array order
                    found.extend((v[i], _child(loc, i)) for i in range(max(lo, 0), min(hi, n - 1) + 1))
    return found


def _select(steps, current, root, located=False):
    start = current if steps[0][0] == "current" else root
    items = [(start, () if located else None)]
    for step in steps:
        items = _step(items, step, root)
    return items if located else [v for v, _ in items]


def locate(value, path: JsonPath) -> list:
    """(value, location) of each value the path selects, for json_path_transform: BadArguments
    when the path is an expression, or selects a value twice or a value and one inside it (a
    replacement would be ambiguous)."""
    if path.expr is not None or path.steps[0][0] == "current":
        raise BadArguments(f"Invalid JSON Path '{path.text}'")
    found = _select(path.steps, value, value, located=True)
    locations = sorted(loc for _, loc in found)
    for before, after in zip(locations, locations[1:], strict=False):
        if after[:len(before)] == before:
            raise BadArguments(f"JSON Path '{path.text}' selects overlapping values")
    return found


def query(value, path: JsonPath) -> list:
    """Every value the path selects in `value` (a loaded JSON value), in document order; a root
    expression gives its one answer (a predicate true, false or null; numbers for arithmetic)."""
    if path.expr is not None:
        return _root_expression(value, path.expr)
    if path.steps[0][0] == "current":
        raise BadArguments(f"Invalid JSON Path '{path.text}'")
    return _select(path.steps, value, value)


def match(value, path: JsonPath):
    """json_path_match / @@: the predicate's answer (None when the path is no predicate or its
    answer is unknown)."""
    if path.expr is None:
        return None
    found = _root_expression(value, path.expr)
    return found[0] if found and isinstance(found[0], bool) else None


def _root_expression(value, expr) -> list:
    kind = expr[0]
    if kind == "unary":
        numbers = _numbers(_operand(value, expr[2], value))
        return numbers if expr[1] == "+" else [-n for n in numbers]
    if kind == "binary" and expr[1] in ("+", "-", "*", "/", "%"):
        return [_arithmetic(expr[1], _number(_operand(value, expr[2], value)),
                            _number(_operand(value, expr[3], value)))]
    if kind in ("binary", "exists"):
        return [_condition(value, expr, value)]
    if kind == "value":
        return [expr[1]]
    raise BadArguments("InvalidJsonPath")


def _is_number(x) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _numbers(values) -> list:
    if not all(_is_number(x) for x in values):
        raise BadArguments("InvalidJsonPath")
    return list(values)


def _number(values):
    if len(values) != 1:
        raise BadArguments("InvalidJsonPath")
    return _numbers(values)[0]


def _arithmetic(op, a, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise BadArguments("Division by zero")
    if op == "/":
        return float(a) / float(b)
    if isinstance(a, int) and isinstance(b, int):  # the sign of the dividend, as Rust's %
        return int(math.copysign(abs(a) % abs(b), a))
    return math.fmod(a, b)


def _operand(item, expr, root) -> list:
    """The values of an operand of a comparison: a literal, or what a path selects, an array
    selected giving its elements (a nested array or object is _Raw)."""
    if expr[0] == "value":
        return [expr[1]]
    if expr[0] != "paths":
        raise BadArguments("InvalidJsonPath")
    values = []
    for found in _select(expr[1], item, root):
        if isinstance(found, list):
            values.extend(_Raw(x) if isinstance(x, list | dict) else x for x in found)
        else:
            values.append(_Raw(found) if isinstance(found, dict) else found)
    return values


def _condition(item, expr, root):
    """A filter expression's answer: True, False or None (unknown)."""
    kind = expr[0]
    if kind == "exists":
        return bool(_select(expr[1], item, root))
    if kind != "binary":
        raise BadArguments("InvalidJsonPath")
    op = expr[1]
    if op in ("&&", "||"):
        left, right = _condition(item, expr[2], root), _condition(item, expr[3], root)
        if left is None or right is None:
            return None
        return (left and right) if op == "&&" else (left or right)
    if op not in _COMPARISONS:
        return None
    lefts, rights = _operand(item, expr[2], root), _operand(item, expr[3], root)
    for left in lefts:
        for right in rights:
            answer = _compare(op, left, right)
            if answer is None:
                return None
            if answer:
                return True
    return False


def _kind(x):
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "bool"
    if _is_number(x):
        return "number"
    if isinstance(x, str):
        return "string"
    return None  # _Raw


def _compare(op, left, right):
    kind = _kind(left)
    if kind is None or _kind(right) is None:
        return None
    if op == "starts with":
        return left.startswith(right) if kind == "string" and _kind(right) == "string" else None
    if kind != _kind(right):
        return True if op in ("!=", "<>") else None
    if kind == "null":
        left = right = 0
    if op == "==":
        return left == right
    if op in ("!=", "<>"):
        return left != right
    if op == "<":
        return left < right
    if op == "<=":
        return left <= right
    if op == ">":
        return left > right
    return left >= right

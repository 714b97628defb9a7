"""Databend's script language (EXECUTE IMMEDIATE, stored procedures) to a tree of script
statements; the SQL and the expressions inside are parsed by grammar.parse.

A script is `[BEGIN] statement; ... [END;]` where a statement is LET v := expr, LET v RESULTSET
:= query, LET c CURSOR FOR query | resultset, v := expr, IF ... THEN ... [ELSEIF ... THEN ...]
[ELSE ...] END IF, FOR v IN [REVERSE] a TO b DO ... END FOR, FOR r IN resultset | cursor | query
DO ... END FOR, WHILE c DO ... END WHILE, REPEAT ... UNTIL c END REPEAT, LOOP ... END LOOP,
BREAK, CONTINUE, RETURN [expr | TABLE(resultset | query)], THROW expr, OPEN / FETCH c INTO v /
CLOSE, a nested BEGIN ... END, or any SQL statement (`:v` names a variable's value)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from grammar import ast
from grammar.errors import SqlSyntaxError
from grammar.parser import parse

__all__ = ["ScriptStatement", "parse_script"]

_TOKEN = re.compile(r"""
  (?P<skip>\s+|--[^\n]*|/\*.*?\*/)
| (?P<string>\$\$.*?\$\$|'(?:[^'\\]|''|\\.)*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`)
| (?P<word>[^\W\d][\w$]*)
| (?P<assign>:=)
| (?P<open>[(\[{])
| (?P<close>[)\]}])
| (?P<other>.)
""", re.S | re.X)


@dataclass(frozen=True)
class ScriptStatement:
    """One statement of a script: `kind` ('let', 'let_set', 'let_cursor', 'assign', 'if', 'for_range',
    'for_set', 'while', 'repeat', 'loop', 'break', 'continue', 'return', 'return_table', 'throw',
    'open', 'fetch', 'close', 'block', 'sql'), its parsed parts, and its line in the script."""

    kind: str
    parts: tuple
    line: int


class _Tokens:
    def __init__(self, text: str):
        self.text = text
        self.items = []  # (kind, upper-cased word or text, start, end)
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup
            if kind != "skip":
                value = m.group()
                self.items.append((kind, value.upper() if kind == "word" else value, m.start(), m.end()))
        self.i = 0

    def peek(self, ahead: int = 0):
        j = self.i + ahead
        return self.items[j] if j < len(self.items) else ("end", "", len(self.text), len(self.text))

    def word(self, ahead: int = 0) -> str:
        kind, value, _, _ = self.peek(ahead)
        return value if kind == "word" else ""

    def take(self, *words: str) -> None:
        for word in words:
            if self.word() != word:
                self.fail(f"expected {word}")
            self.i += 1

    def accept(self, value: str) -> bool:
        kind, text, _, _ = self.peek()
        if (kind == "word" and text == value) or (kind != "word" and text == value):
            self.i += 1
            return True
        return False

    def line(self) -> int:
        return self.text.count("\n", 0, self.peek()[2]) + 1

    def fail(self, reason: str):
        start = self.peek()[2]
        line = self.text.count("\n", 0, start) + 1
        column = start - (self.text.rfind("\n", 0, start) + 1) + 1
        raise SqlSyntaxError(f"script syntax error at line {line}, column {column}: {reason}", line, column)

    def span(self, stop_words=(), stop_semicolon: bool = True) -> str:
        """The text up to a stop word or `;` outside brackets (not consumed)."""
        depth = 0
        start = self.peek()[2]
        while True:
            kind, value, begin, _ = self.peek()
            if kind == "end":
                break
            if depth == 0 and ((kind == "word" and value in stop_words) or (stop_semicolon and value == ";")):
                break
            depth += kind == "open"
            depth -= kind == "close"
            self.i += 1
        text = self.text[start:self.peek()[2]].strip()
        if not text:
            self.fail("expected an expression or a statement")
        return text


def _expression(text: str):
    query = parse("SELECT " + text)
    if not isinstance(query, ast.Select) or len(query.items) != 1 or query.from_ is not None:
        raise SqlSyntaxError(f"not an expression: {text}")
    return query.items[0].expr


def _name(tokens: _Tokens) -> str:
    kind, value, start, end = tokens.peek()
    if kind == "word":
        tokens.i += 1
        return tokens.text[start:end].lower()
    if kind == "string" and value[0] in '"`':
        tokens.i += 1
        return value[1:-1]
    tokens.fail("expected a name")


def _end(tokens: _Tokens, *words: str) -> None:
    tokens.take("END", *words)
    tokens.accept(";")


def _block(tokens: _Tokens, stops: tuple) -> tuple:
    body = []
    while True:
        kind, value, _, _ = tokens.peek()
        if kind == "end" or (kind == "word" and value in stops):
            return tuple(body)
        if tokens.accept(";"):
            continue
        body.append(_statement(tokens))


def _let(tokens: _Tokens, line: int) -> ScriptStatement:
    name = _name(tokens)
    if tokens.word() == "RESULTSET":
        tokens.i += 1
        if not tokens.accept(":="):
            tokens.fail("expected :=")
        return ScriptStatement("let_set", (name, parse(tokens.span())), line)
    if tokens.word() == "CURSOR":
        tokens.take("CURSOR", "FOR")
        text = tokens.span()
        source = text.lower() if re.fullmatch(r"[^\W\d][\w$]*", text) else parse(text)
        return ScriptStatement("let_cursor", (name, source), line)
    if not tokens.accept(":="):
        tokens.fail("expected :=")
    return ScriptStatement("let", (name, _expression(tokens.span())), line)


def _if(tokens: _Tokens, line: int) -> ScriptStatement:
    branches = []
    otherwise = ()
    while True:
        condition = _expression(tokens.span(("THEN",), False))
        tokens.take("THEN")
        branches.append((condition, _block(tokens, ("ELSEIF", "ELSE", "END"))))
        if tokens.word() == "ELSEIF":
            tokens.i += 1
            continue
        if tokens.word() == "ELSE":
            tokens.i += 1
            otherwise = _block(tokens, ("END",))
        _end(tokens, "IF")
        return ScriptStatement("if", (tuple(branches), otherwise), line)


def _for(tokens: _Tokens, line: int) -> ScriptStatement:
    name = _name(tokens)
    tokens.take("IN")
    reverse = tokens.word() == "REVERSE"
    if reverse:
        tokens.i += 1
    source = tokens.span(("DO", "TO"), False)
    if tokens.word() == "TO":
        tokens.i += 1
        upper = tokens.span(("DO",), False)
        tokens.take("DO")
        body = _block(tokens, ("END",))
        _end(tokens, "FOR")
        return ScriptStatement("for_range", (name, _expression(source), _expression(upper), reverse, body), line)
    tokens.take("DO")
    body = _block(tokens, ("END",))
    _end(tokens, "FOR")
    over = source.lower() if re.fullmatch(r"[^\W\d][\w$]*", source) else parse(source)
    return ScriptStatement("for_set", (name, over, body), line)


def _loops(tokens: _Tokens, word: str, line: int) -> ScriptStatement:
    if word == "WHILE":
        condition = _expression(tokens.span(("DO",), False))
        tokens.take("DO")
        body = _block(tokens, ("END",))
        _end(tokens, "WHILE")
        return ScriptStatement("while", (condition, body), line)
    if word == "REPEAT":
        body = _block(tokens, ("UNTIL",))
        tokens.take("UNTIL")
        condition = _expression(tokens.span(("END",), False))
        _end(tokens, "REPEAT")
        return ScriptStatement("repeat", (condition, body), line)
    body = _block(tokens, ("END",))
    _end(tokens, "LOOP")
    return ScriptStatement("loop", (body,), line)


def _return(tokens: _Tokens, line: int) -> ScriptStatement:
    if tokens.accept(";") or tokens.peek()[0] == "end" or tokens.word() == "END":
        return ScriptStatement("return", (None,), line)
    if tokens.word() == "TABLE" and tokens.peek(1)[1] == "(":
        tokens.i += 1
        text = tokens.span()
        inner = text[1:-1].strip() if text.startswith("(") and text.endswith(")") else text
        source = inner.lower() if re.fullmatch(r"[^\W\d][\w$]*", inner) else parse(inner)
        return ScriptStatement("return_table", (source,), line)
    return ScriptStatement("return", (_expression(tokens.span()),), line)


def _statement(tokens: _Tokens) -> ScriptStatement:  # noqa: C901 - one case per statement kind
    line = tokens.line()
    word = tokens.word()
    if word == "BEGIN" and tokens.peek(1)[1] not in (";", "TRANSACTION") and tokens.peek(1)[0] != "end":
        tokens.i += 1
        body = _block(tokens, ("END",))
        _end(tokens)
        return ScriptStatement("block", (body,), line)
    if word == "LET":
        tokens.i += 1
        return _let(tokens, line)
    if word and tokens.peek(1)[1] == ":=":
        name = _name(tokens)
        tokens.i += 1
        return ScriptStatement("assign", (name, _expression(tokens.span())), line)
    if word == "IF":
        tokens.i += 1
        return _if(tokens, line)
    if word == "FOR":
        tokens.i += 1
        return _for(tokens, line)
    if word in ("WHILE", "REPEAT", "LOOP"):
        tokens.i += 1
        return _loops(tokens, word, line)
    if word in ("BREAK", "CONTINUE"):
        tokens.i += 1
        if tokens.peek()[0] == "word":
            tokens.i += 1  # a loop label: loops are left innermost first here
        return ScriptStatement(word.lower(), (), line)
    if word == "RETURN":
        tokens.i += 1
        return _return(tokens, line)
    if word == "THROW":
        tokens.i += 1
        return ScriptStatement("throw", (_expression(tokens.span()),), line)
    if word in ("OPEN", "CLOSE"):
        tokens.i += 1
        return ScriptStatement(word.lower(), (_name(tokens),), line)
    if word == "FETCH":
        tokens.i += 1
        cursor = _name(tokens)
        tokens.take("INTO")
        return ScriptStatement("fetch", (cursor, _name(tokens)), line)
    text = tokens.span()
    return ScriptStatement("sql", (parse(text), text), line)


def parse_script(text: str) -> tuple[ScriptStatement, ...]:
    """The statements of a script (a single SQL statement is a script of one)."""
    tokens = _Tokens(text)
    body = _block(tokens, ())
    if len(body) == 1 and body[0].kind == "block":
        return body[0].parts[0]
    return body

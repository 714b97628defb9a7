"""User functions, sequences and stored procedures: objects of the whole server (as in Databend,
they belong to no database), and the sequence allocator whose handed-out values stay unique
across restarts.

A sequence logs how far it may hand out values (`reserved`) in ranges of SEQUENCE_RESERVE
increments, so that most `nextval` calls cost no log record; after a restart it starts from
the last logged bound, skipping what the lost range did not use, never reusing a value."""

from __future__ import annotations

import datetime
import functools
import json
import re
from dataclasses import dataclass, field

from engine import functions as F
from engine.core.errors import (
    PROCEDURE_ALREADY_EXISTS,
    SEQUENCE_ERROR,
    UDF_ALREADY_EXISTS,
    UNKNOWN_PROCEDURE,
    UNKNOWN_SEQUENCE,
    UNKNOWN_UDF,
    EngineError,
)
from engine.types import sqltype as T

SEQUENCE_RESERVE = 1000  # increments a sequence logs ahead at once
UINT64_MAX = (1 << 64) - 1
# called like functions but not in the registry: taken as builtin names too
_OTHER_BUILTINS = frozenset({"nextval", "grouping", "unnest", "last_query_id"})


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


@functools.cache
def _builtin_names() -> frozenset:
    return frozenset(F.all_function_names()) | frozenset(F.SCALARS) | _OTHER_BUILTINS


def is_builtin_function(name: str) -> bool:
    """Whether a user function may not take `name` (a builtin's, whatever its case: 2603)."""
    return name.lower() in _builtin_names()


@dataclass(eq=False)
class UserFunction:
    """A user function: its parsed definition (grammar.ast.CreateFunction) and that definition's
    text after the name, as written (what the catalog image keeps)."""

    name: str
    definition: object
    source: str
    created_on: datetime.datetime = field(default_factory=_now)
    updated_on: datetime.datetime | None = None


@dataclass(eq=False)
class Sequence:
    name: str
    start: int
    increment: int
    comment: str | None
    owner: Routines | None = None
    current: int = 0  # the value the next nextval hands out
    reserved: int = 0  # the first value not covered by the logged bound (values below may be out)
    created_on: datetime.datetime = field(default_factory=_now)
    updated_on: datetime.datetime = field(default_factory=_now)

    def next_value(self) -> int:
        value = self.current
        following = value + self.increment
        if following > self.reserved:
            self._reserve(following)
        self.current = following
        return value

    def _reserve(self, needed: int) -> None:
        if needed - self.increment > UINT64_MAX:
            raise EngineError(f"sequence {self.name} is exhausted (its values are UInt64)", code=SEQUENCE_ERROR)
        old = self.reserved
        self.reserved = needed + (SEQUENCE_RESERVE - 1) * self.increment
        recorder = self.owner.recorder if self.owner is not None else None
        if recorder is not None:
            recorder.sequence_reserved(self, old)


class SequenceDefault:
    """A column's DEFAULT nextval(s): each row that does not write the column takes the next
    value of sequence s (looked up when used: 3101 once it is dropped)."""

    __slots__ = ("routines", "name")

    def __init__(self, routines: Routines, name: str):
        self.routines = routines
        self.name = name

    def next(self) -> int:
        return self.routines.sequence(self.name).next_value()


@dataclass(eq=False)
class Procedure:
    """A stored procedure: name, parameters ((name, TypeName)), the script's text, and the
    definition's text as written (what the catalog image keeps)."""

    name: str
    definition: object  # grammar.ast.CreateProcedure
    source: str
    created_on: datetime.datetime = field(default_factory=_now)

    @property
    def signature(self) -> tuple:
        """(name, argument types as Databend shows them): a procedure's identity (overloads)."""
        return (self.name, tuple(procedure_type_text(p.type) for p in self.definition.params))


class Routines:
    """The catalog's user functions, sequences and procedures (one thread: the catalog's)."""

    def __init__(self):
        # bumped by every change of functions, sequences or procedures: the plan cache's key
        self.version = 0
        self.functions: dict[str, UserFunction] = {}
        self.sequences: dict[str, Sequence] = {}
        self.procedures: dict[tuple[str, int], Procedure] = {}  # (name, argument count) -> procedure
        # told when a sequence reserves values (engine.storage.durability's recorder), or None
        self.recorder = None

    # ---------------------------------------------------------------- functions

    def function(self, name: str) -> UserFunction | None:
        return self.functions.get(name)

    def add_function(self, udf: UserFunction, or_replace: bool, if_not_exists: bool, pos=None) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if is_builtin_function(udf.name):
            raise EngineError(f"UDF already exists: '{udf.name}';  It is a builtin function.",
                              code=UDF_ALREADY_EXISTS, position=pos)
        old = self.functions.get(udf.name)
        if old is not None and not or_replace:
            if if_not_exists:
                return
            raise EngineError(f"UDF already exists: '{udf.name}'; ", code=UDF_ALREADY_EXISTS, position=pos)
        self.functions[udf.name] = udf

    def alter_function(self, udf: UserFunction, pos=None) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if is_builtin_function(udf.name):
            raise EngineError(f"UDF already exists: '{udf.name}';  It is a builtin function.",
                              code=UDF_ALREADY_EXISTS, position=pos)
        old = self.functions.get(udf.name)
        if old is None:
            raise EngineError(f"UDF not found: '{udf.name}'; while alter_udf.", code=UNKNOWN_UDF, position=pos)
        udf.created_on = old.created_on
        udf.updated_on = _now()
        self.functions[udf.name] = udf

    def drop_function(self, name: str, if_exists: bool, pos=None) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if self.functions.pop(name, None) is None and not if_exists:
            raise EngineError(f"UDF not found: '{name}'; while drop_udf.", code=UNKNOWN_UDF, position=pos)

    # ---------------------------------------------------------------- sequences

    def sequence(self, name: str, pos=None) -> Sequence:
        """The sequence `name`; SequenceError (3101) when there is none (as nextval says it)."""
        found = self.sequences.get(name)
        if found is None:
            raise EngineError(f"Sequence '{name}' does not exist", code=SEQUENCE_ERROR, position=pos)
        return found

    def add_sequence(self, sequence: Sequence, or_replace: bool, if_not_exists: bool, pos=None) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if sequence.name in self.sequences and not or_replace:
            if if_not_exists:
                return
            raise EngineError(f"Sequence '{sequence.name}' already exists", code=SEQUENCE_ERROR, position=pos)
        sequence.owner = self
        sequence.current = sequence.start
        sequence.reserved = sequence.start
        self.sequences[sequence.name] = sequence

    def drop_sequence(self, name: str, if_exists: bool, pos=None) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        found = self.sequences.pop(name, None)
        if found is None:
            if if_exists:
                return
            raise EngineError(f"Unknown sequence '{name}'", code=UNKNOWN_SEQUENCE, position=pos)
        found.owner = None

    def sequence_described(self, name: str, pos=None) -> Sequence:
        found = self.sequences.get(name)
        if found is None:
            raise EngineError(f"Unknown sequence '{name}'", code=UNKNOWN_SEQUENCE, position=pos)
        return found

    # ---------------------------------------------------------------- procedures

    def procedure(self, name: str, arity: int, pos=None) -> Procedure:
        """The procedure `name` taking `arity` arguments (CALL picks by the count)."""
        for (found_name, types), procedure in sorted(self.procedures.items()):
            if found_name == name and len(types) == arity:
                return procedure
        raise EngineError(f"Unknown procedure {name}", code=UNKNOWN_PROCEDURE, position=pos)

    def procedure_of(self, name: str, types: tuple, pos=None) -> Procedure | None:
        return self.procedures.get((name, tuple(procedure_type_text(t) for t in types)))

    def add_procedure(self, procedure: Procedure, or_replace: bool, if_not_exists: bool, pos=None) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        key = procedure.signature
        if key in self.procedures and not or_replace:
            if if_not_exists:
                return
            raise EngineError(f"Procedure {procedure.name} already exists", code=PROCEDURE_ALREADY_EXISTS,
                              position=pos)
        self.procedures[key] = procedure

    def drop_procedure(self, name: str, types: tuple, if_exists: bool, pos=None) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        key = (name, tuple(procedure_type_text(t) for t in types))
        if self.procedures.pop(key, None) is None and not if_exists:
            raise EngineError(f"Unknown procedure {name}", code=UNKNOWN_PROCEDURE, position=pos)


# ---------------------------------------------------------------- system tables


def procedure_type_text(type_name) -> str:
    """A procedure argument's or result's type as Databend shows it (Int32, Decimal(4, 2))."""
    return T.type_from_ast(type_name).as_nullable(False).display()


def _procedure_arguments(procedure: Procedure) -> str:
    d = procedure.definition
    if d.returns_table is not None:
        returns = ", ".join(f"{n} {procedure_type_text(t)}" for n, t in d.returns_table)
    else:
        returns = procedure_type_text(d.returns)
    return f"{procedure.name}({','.join(procedure.signature[1])}) RETURN ({returns})"


def procedure_rows(routines, local) -> list[tuple]:
    """system.procedures: name, procedure_id, arguments, comment, description, created_on."""
    found = sorted(routines.procedures.values(), key=lambda p: (p.name, p.signature[1]))
    return [(p.name, i + 1, _procedure_arguments(p), p.definition.comment, "user-defined procedure",
             local(p.created_on)) for i, p in enumerate(found)]


PROCEDURES_COLUMNS = [("name", T.STRING), ("procedure_id", T.UINT64), ("arguments", T.STRING),
                      ("comment", T.STRING), ("description", T.STRING), ("created_on", T.TIMESTAMP)]


def _type_text(type_name) -> str:
    t = T.type_from_ast(type_name, default_nullable=True)
    return t.as_nullable(False).display() + (" NULL" if t.nullable else "")


# a lambda's trailing `DESC = '...'` / `COMMENT = '...'` clause
_DESCRIPTION_CLAUSE = re.compile(r"\s+(?:DESC|COMMENT)\s*=\s*'(?:[^'\\]|''|\\.)*'\s*$", re.I | re.S)


def definition_text(udf: UserFunction) -> str:
    """A user function's definition as system.user_functions shows it: ` (a, b) -> a + b` for a
    lambda (its body as written), the signature and body for the others."""
    definition = udf.definition
    params = ", ".join(p.name if p.type is None else f"{p.name} {_type_text(p.type)}" for p in definition.params)
    if definition.body is not None:
        body = udf.source[udf.source.find("->") + 2:]
        if definition.description:
            body = _DESCRIPTION_CLAUSE.sub("", body)
        return f" ({params}) -> {body.strip()}"
    if definition.returns_table is not None:
        returns = "TABLE (" + ", ".join(f"{n} {_type_text(t)}" for n, t in definition.returns_table) + ")"
    else:
        returns = _type_text(definition.returns)
    body = "" if definition.body_text is None else f" AS $${definition.body_text}$$"
    return f" ({params}) RETURNS {returns} LANGUAGE {definition.language}{body}"


def user_function_rows(routines, local) -> list[tuple]:
    """system.user_functions: name, is_aggregate, description, arguments, language, definition,
    created_on (`local` turns an instant into a Timestamp value)."""
    rows = []
    for name in sorted(routines.functions):
        udf = routines.functions[name]
        d = udf.definition
        arguments = json.dumps({"parameters": [p.name for p in d.params]}, separators=(",", ":"))
        rows.append((name, None, d.description, arguments, d.language, definition_text(udf), local(udf.created_on)))
    return rows


USER_FUNCTIONS_COLUMNS = [
    ("name", T.STRING), ("is_aggregate", T.BOOLEAN.as_nullable(True)), ("description", T.STRING),
    ("arguments", T.SqlType("Variant")), ("language", T.STRING), ("definition", T.STRING), ("created_on", T.TIMESTAMP),
]

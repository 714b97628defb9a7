"""to_decimal / to_number / to_numeric and their try_ forms, as current Databend types them:
to_decimal(p, s)(x) and to_decimal(x[, p[, s]]) are CAST(x AS DECIMAL(p, s)) (Decimal(38, 0) when
unsaid); to_decimal(text, format[, p[, s]]) first reads the text by its format ('9999D99',
'S9G999', engine.functions.decimal_format), then casts it; as_decimal(variant ...) casts the
VARIANT's number (NULL for any other JSON value)."""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.functions.decimal_format import (
    DECIMAL_CONVERSIONS,
    FORMATTED_TEXT,
    JSON_NUMBER,
    TRY_FORMATTED_TEXT,
)
from engine.ir.expr import Const, Func
from engine.types import sqltype as T
from grammar import ast as A


def _integer(node_or_expr, name: str) -> int:
    """A precision or scale: an integer constant (a literal parameter or a constant argument)."""
    value = node_or_expr.value if isinstance(node_or_expr, A.Literal | Const) else None
    if type(value) is not int:
        raise BadArguments(f"{name} takes integer constants for its precision and scale")
    return value


def bind_decimal_conversion(binder, name: str, n: A.FunctionCall, args: list):
    """The bound conversion `name`(args) (with n.params when written to_decimal(p, s)(x))."""
    try_ = DECIMAL_CONVERSIONS[name]
    if not args:
        raise BadArguments(f"{name} expects at least one argument", position=n.pos)
    value, rest = args[0], list(args[1:])
    form = None
    if rest and value.type.is_string and rest[0].type.is_string:  # to_decimal(text, '9999D99', ...)
        form, rest = rest[0], rest[1:]
    sizes = [_integer(p, name) for p in n.params] if n.params else [_integer(a, name) for a in rest]
    if len(sizes) > 2 or (n.params and rest):
        raise BadArguments(f"{name} takes a precision and a scale at most", position=n.pos)
    precision = sizes[0] if sizes else 38
    scale = sizes[1] if len(sizes) > 1 else 0
    if not 1 <= precision <= T.MAX_DECIMAL_PRECISION or not 0 <= scale <= precision:
        raise BadArguments(f"Invalid Decimal({precision}, {scale})", position=n.pos)
    if name == "as_decimal":
        if value.type.name != "Variant":
            raise BadArguments(f"as_decimal expects a VARIANT, got {value.type.display()}", position=n.pos)
        value = Func(T.STRING.as_nullable(True), args=(value,), fn=JSON_NUMBER)
    if form is not None:
        nullable = try_ or value.type.can_be_null or form.type.can_be_null
        value = Func(T.STRING.as_nullable(nullable), args=(value, form),
                     fn=TRY_FORMATTED_TEXT if try_ else FORMATTED_TEXT)
    return binder.cast(value, T.SqlType("Decimal", False, precision, scale), try_)

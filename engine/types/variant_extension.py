"""VARIANT values that carry one of Databend's JSONB extension types: a BINARY, DATE, TIMESTAMP,
TIMESTAMP_TZ or INTERVAL turned into a VARIANT (to_variant(x), x::VARIANT) keeps its type, which
is_date / as_date and the other is_* / as_* functions and the casts back read.

A VARIANT is held as its canonical JSON text (engine.types.variant). An extension value is that
text, the JSON string Databend prints for it ("2025-01-01", "616263" for bytes, "10 months 2
days"), as a `str` subclass that also holds the kind (the SQL type's name) and the typed value:
everything that reads VARIANT text reads it as that JSON string, as Databend's JSON functions
read an extension value. Only the value as a whole carries the type; inside an array or object
built from it the value is its string. The storage codec writes the kind and value beside the
text (engine.storage.row_codec), so a stored value keeps its type across a restart."""

from __future__ import annotations

import json

# the kinds, by the name of the SQL type they come from
KINDS = frozenset({"Binary", "Date", "Timestamp", "TimestampTz", "Interval"})


class ExtensionVariant(str):
    """A VARIANT's JSON text holding an extension value: `kind` (a name of KINDS) and `value`
    (bytes, a date, a naive UTC datetime, an aware datetime or an Interval)."""

    __slots__ = ("kind", "value")

    def __new__(cls, text: str, kind: str, value):
        self = super().__new__(cls, text)
        self.kind = kind
        self.value = value
        return self

    def __reduce__(self):  # a copy keeps the kind and value
        return (ExtensionVariant, (str(self), self.kind, self.value))


def make(kind: str, value, shown: str) -> ExtensionVariant:
    """The VARIANT of an extension value printed as `shown` (the JSON string's content)."""
    return ExtensionVariant(json.dumps(shown, ensure_ascii=False), kind, value)


def kind_of(v) -> str | None:
    """The extension kind of a VARIANT value (None for plain JSON and for NULL)."""
    return v.kind if type(v) is ExtensionVariant else None


def value_as(v, kind: str):
    """as_date(v) and the like: the value when `v` carries an extension value of `kind`, else None."""
    return v.value if type(v) is ExtensionVariant and v.kind == kind else None

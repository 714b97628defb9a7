"""Canonical text of a result value, shared by the oracle worker and our side of bench.oracle:
the same value in both engines gives the same text whatever Python type carries it."""

from __future__ import annotations

import datetime
import decimal


def canonical(value):
    """None, or a string: booleans true/false, integers as written, floats with 12 significant
    digits, decimals without trailing zeros, dates and timestamps in ISO form (microseconds)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return format(value, ".12g")
    if isinstance(value, decimal.Decimal):
        text = format(value.normalize(), "f")
        return "0" if text in ("-0", "0") else text
    if isinstance(value, datetime.datetime):
        return value.replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    return str(value)

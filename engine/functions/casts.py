"""Conversion functions: to_string (CAST and TRY_CAST are bound by the binder)."""

from __future__ import annotations

from engine import types as T
from engine.functions.registry import fixed, register
from engine.functions.strings import _str

register("to_string", _str, fixed(T.STRING), 1)

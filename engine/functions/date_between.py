"""date_between(unit, a, b) (alias datebetween): the number of WHOLE units from a to b, as
current Databend counts (unlike date_diff, which counts unit boundaries crossed): calendar units
from the wall-clock times in the session zone, clock units from the instants; truncated toward
zero, negative when b is before a."""

from __future__ import annotations

from engine.core.errors import BadArguments, SemanticError
from engine.functions.dates import (
    _TEMPORAL_NAMES,
    _div0,
    _local_reader,
    instant_reader,
    register_zoned_impl,
)
from engine.functions.registry import register
from engine.types import cast as casting
from engine.types import sqltype as T
from engine.types.datetimes import UTC, micros_of

# calendar units: months in one unit
_MONTHS = {"year": 12, "isoyear": 12, "quarter": 3, "month": 1, "decade": 120, "century": 1200,
           "millennium": 12000}
# clock units: microseconds in one unit
_MICROS = {"week": 7 * 86_400_000_000, "yearweek": 7 * 86_400_000_000, "day": 86_400_000_000,
           "hour": 3_600_000_000, "minute": 60_000_000, "second": 1_000_000, "millisecond": 1_000,
           "microsecond": 1}


def _whole_months(a, b) -> int:
    """Whole months from wall-clock time a to b: a month counts once b's day and time of day
    reach a's."""
    months = (b.year - a.year) * 12 + b.month - a.month
    rest_a, rest_b = (a.day, a.time()), (b.day, b.time())
    if months > 0 and rest_b < rest_a:
        months -= 1
    elif months < 0 and rest_b > rest_a:
        months += 1
    return months


def _make_date_between(tz):
    local = _local_reader(tz)
    instant = instant_reader(tz)

    def date_between(unit, a, b):
        unit = casting.to_string(unit).lower()
        if unit in _MONTHS:
            return _div0(_whole_months(local(a), local(b)), _MONTHS[unit])
        per = _MICROS.get(unit)
        if per is None:
            raise BadArguments(f"date_between: unknown unit '{unit}', expecting one of "
                               f"{', '.join([*_MONTHS, *_MICROS])}")
        return _div0(micros_of(instant(b)) - micros_of(instant(a)), per)
    return date_between


def _date_between_type(types):
    if not (types[0].is_string or types[0].name == "Null") or any(
            t.name not in _TEMPORAL_NAMES for t in types[1:]):
        raise SemanticError(f"no overload satisfies `date_between({', '.join(t.display() for t in types)})`")
    return T.INT64


register("date_between", _make_date_between(UTC), _date_between_type, 3, aliases=("datebetween",))
register_zoned_impl("date_between", _make_date_between)

"""Known settings: defaults, types, descriptions and validation of values set by users."""

from __future__ import annotations

import datetime
import zoneinfo
from dataclasses import dataclass

from engine.core.errors import BadArguments, EngineError, UnknownVariable, WrongValueForVariable
from engine.core.settings_known import ACCEPTED

INVALID_TIMEZONE = 1078  # Databend's InvalidTimezone


@dataclass(frozen=True, slots=True)
class Setting:
    name: str
    default: str
    type: str  # 'UInt64' or 'String'
    description: str
    choices: tuple[str, ...] | None = None
    max_value: int | None = None
    min_value: int = 0


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in [
        Setting("enable_query_result_cache", "0", "UInt64",
                "Enables caching query results to improve performance for identical queries.", max_value=1),
        Setting("query_result_cache_max_bytes", "1048576", "UInt64",
                "Sets the maximum byte size of cache for a single query result."),
        Setting("query_result_cache_min_execute_secs", "1", "UInt64",
                "For a query to be cached, it must take at least this many seconds to fetch the first block. "
                "It helps to avoid caching queries that are too fast to execute or queries with streaming scan."),
        Setting("format_null_as_str", "0", "UInt64",
                "Format NULL as str, only works when output format is JSON", max_value=1),
        Setting("http_handler_result_timeout_secs", "60", "UInt64",
                "Set the timeout in seconds that a http query session expires without any polls."),
        Setting("max_block_size", "65536", "UInt64", "Sets the maximum rows size of a single data block "
                "that can be read.", min_value=1),
        Setting("max_execute_time_in_seconds", "0", "UInt64",
                "Sets the maximum query execution time in seconds. Setting it to 0 means no limit."),
        # Databend's default is 80% of the machine's memory (or of its max_server_memory_usage),
        # so it differs per machine; here the default 0 (no per-query limit) leaves the server's
        # memory budget (Limits.memory_budget()) as the effective cap.
        Setting("max_memory_usage", "0", "UInt64",
                "Sets the maximum memory usage in bytes for processing a single query."),
        Setting("max_result_rows", "0", "UInt64",
                "Auto limit max result rows if user not specify the limit, default value is 0 means no limit."),
        Setting("script_max_steps", "10000", "UInt64",
                "The maximum steps allowed in a single execution of script."),
        Setting("max_threads", "2", "UInt64", "Sets the maximum number of threads to execute a request.",
                min_value=1, max_value=1024),
        Setting("sql_dialect", "PostgreSQL", "String", "Sets the SQL dialect. Available values include "
                "\"PostgreSQL\", \"MySQL\", \"Experimental\", \"Prql\", and \"Hive\".",
                choices=("PostgreSQL", "MySQL", "Experimental", "Hive", "Prql")),
        Setting("timezone", "UTC", "String", "Sets the timezone."),
    ]
}
# the settings accepted and kept without effect (engine/core/settings_known.py)
SETTINGS.update((entry[0], Setting(*entry)) for entry in ACCEPTED if entry[0] not in SETTINGS)
SETTINGS = dict(sorted(SETTINGS.items()))


_UINT64_MAX = 2 ** 64 - 1
_RANGE_TEXT_LIMIT = 64  # Databend cuts a long range text to 64 characters and appends '...'


def range_text(setting: Setting) -> str:
    """The `range` column of SHOW SETTINGS, as Databend 1.2.453 renders it.

    Numeric settings give '[min, max]' ('[1, 1024]' for max_threads); string settings with a
    fixed set of values list them quoted; the timezone lists every zone name, cut short."""
    if setting.type == "UInt64":
        high = setting.max_value if setting.max_value is not None else _UINT64_MAX
        return f"[{setting.min_value}, {high}]"
    if setting.choices is not None:
        values = setting.choices
    elif setting.name == "timezone":
        values = sorted(zoneinfo.available_timezones())
    else:
        return ""
    text = "[" + ", ".join(f'"{v}"' for v in values) + "]"
    if len(text) > _RANGE_TEXT_LIMIT:
        text = text[:_RANGE_TEXT_LIMIT] + "..."
    return text


def validate(name: str, value) -> str:
    """Check `name` is known and `value` acceptable; return the value normalised as a string.

    Raises UnknownVariable (2801) or BadArguments (1006)."""
    setting = SETTINGS.get(name.lower())
    if setting is None:
        raise UnknownVariable(f'Unknown variable: "{name}"')
    text = _text(value)
    if setting.type == "UInt64":
        try:
            number = int(text.strip())
        except ValueError:
            raise BadArguments(f"{setting.name}: {text!r} is not a valid integer value") from None
        if number < 0:
            raise BadArguments(f"{setting.name}: value {number} is out of range")
        if number < setting.min_value or (setting.max_value is not None and number > setting.max_value):
            raise WrongValueForVariable(f"Value {number} is not within the range {range_text(setting)}.")
        return str(number)
    if setting.choices is not None:
        for choice in setting.choices:
            if choice.lower() == text.lower():
                return choice
        raise BadArguments(f"{setting.name}: {text!r} is not one of {', '.join(setting.choices)}")
    if setting.name == "timezone":
        try:
            zoneinfo.ZoneInfo(text)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise EngineError(f"Invalid Timezone: {text}", code=INVALID_TIMEZONE) from None
    return text


def _text(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def default(name: str) -> str:
    return SETTINGS[name].default


def timezone(value: str) -> datetime.tzinfo:
    if value == "UTC":
        return datetime.UTC
    return zoneinfo.ZoneInfo(value)

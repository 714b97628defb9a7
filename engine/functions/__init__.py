"""Scalar and aggregate functions: the registry (engine.functions.registry) and the family
modules that fill it. Adding a function is one `register(...)` entry in its family module."""

from __future__ import annotations

# the family modules register their functions on import
from engine.functions import (  # noqa: F401
    array_aggregates,
    array_sets,
    arrays,
    bitmaps,
    casts,
    conditionals,
    date_between,
    date_to_char,
    dates,
    geo_points,
    geometry,
    geometry_ops,
    h3_cells,
    hashes,
    intervals,
    logic,
    map_edits,
    numeric,
    regex,
    regex_extract,
    strings,
    text_extras,
    time_slice,
    vectors,
)
from engine.functions import json as _json  # noqa: F401
from engine.functions import json_arrays as _json_arrays  # noqa: F401
from engine.functions import json_extensions as _json_extensions  # noqa: F401
from engine.functions import json_jq as _json_jq  # noqa: F401
from engine.functions import json_objects as _json_objects  # noqa: F401
from engine.functions import json_operators as _json_operators  # noqa: F401
from engine.functions import json_sets as _json_sets  # noqa: F401
from engine.functions.aggregates import AGGREGATES, aggregate_type
from engine.functions.arrays import (
    LAMBDA_FUNCTIONS,
    LITERAL_BUILDERS,
    RANGE_ROWS,
    check_nested_comparison,
    nested_override,
)
from engine.functions.bitmap_aggregates import (
    BITMAP_AGGREGATES,
    bitmap_aggregate_spec,
    bitmap_extreme,
)
from engine.functions.bitmaps import bitmap_cast, check_bitmap_comparison
from engine.functions.bitwise import BITWISE_FUNCTIONS
from engine.functions.casts import (
    CAST_FUNCTIONS,
    check_cast,
    lossy_binary_text,
    truncating_cast,
)
from engine.functions.context import CONTEXT_FUNCTIONS, KEYED_CONTEXT_FUNCTIONS, context_value
from engine.functions.date_operators import date_arithmetic
from engine.functions.date_parsing import variant_override, variant_temporal_cast, with_parsing
from engine.functions.date_units import UNIT_CALLS, interval_call, trunc_call, unit_call
from engine.functions.dates import (
    function_override as date_override,
)
from engine.functions.dates import (
    temporal_cast as date_temporal_cast,
)
from engine.functions.dates import (
    try_call_of,
    with_timezone,
)
from engine.functions.decimal_format import DECIMAL_CONVERSIONS
from engine.functions.geometry import check_geo_comparison, geo_cast
from engine.functions.hashes import binary_input_reader
from engine.functions.intervals import TOTAL_MICROS as INTERVAL_TOTAL
from engine.functions.intervals import interval_arithmetic, interval_override
from engine.functions.json import (
    JSON_OPERATORS,
    variant_aggregate,
    variant_cast,
    variant_comparison,
    variant_get_cast,
)
from engine.functions.number_to_char import number_to_char_override
from engine.functions.numeric import (
    NEGATION_FUNCTIONS,
    NUMERIC_ARGUMENT_FUNCTIONS,
    OPERATOR_FUNCTIONS,
    UNSIGNED_ARGUMENT_FUNCTIONS,
)
from engine.functions.registry import SCALARS, ScalarFunction, with_limits
from engine.functions.timestamp_tz import timestamp_tz_cast, timestamp_tz_override
from engine.types.datetimes import zone

# results Databend 1.2.453 types as nullable whatever the arguments
ALWAYS_NULLABLE = frozenset({"coalesce", "ifnull", "nvl"})
# rounding functions whose constant Decimal(p, 0) answers fold into integer constants
INTEGRAL_FOLDS = frozenset({"round", "truncate", "floor", "ceil", "ceiling"})

__all__ = ["AGGREGATES", "INTERVAL_TOTAL", "ALWAYS_NULLABLE", "BITMAP_AGGREGATES", "BITWISE_FUNCTIONS", "CAST_FUNCTIONS",
           "bitmap_aggregate_spec", "bitmap_cast", "check_cast", "check_geo_comparison", "geo_cast", "binary_input_reader", "lossy_binary_text", "truncating_cast", "bitmap_extreme", "check_bitmap_comparison",
           "check_nested_comparison", "CONTEXT_FUNCTIONS", "KEYED_CONTEXT_FUNCTIONS",
           "INTEGRAL_FOLDS", "JSON_OPERATORS", "NEGATION_FUNCTIONS", "NUMERIC_ARGUMENT_FUNCTIONS", "OPERATOR_FUNCTIONS",
           "UNSIGNED_ARGUMENT_FUNCTIONS",
           "SCALARS", "ScalarFunction", "aggregate_type", "all_function_names", "context_value",
           "date_arithmetic", "function_override", "function_rows", "interval_arithmetic", "interval_call", "temporal_cast",
           "trunc_call", "try_call_of", "unit_call", "variant_aggregate", "variant_cast",
           "variant_comparison", "variant_get_cast", "with_limits", "with_parsing", "with_timezone"]


def function_override(name: str, types):
    """Another family's version of a function for these argument types (arrays' length, dates'
    to_string...), or None."""
    return (number_to_char_override(name, types) or nested_override(name, types) or date_override(name, types)
            or interval_override(name, types) or timestamp_tz_override(name, types)
            or variant_override(name, types) or _json_arrays.variant_override(name, types))


def temporal_cast(source, target, timezone: str, parsing: tuple = (False, False)):
    """The cast function of a cast the session time zone decides (to or from TIMESTAMP_TZ,
    engine.functions.timestamp_tz; text or Date to Timestamp...: engine.functions.dates), or None;
    `parsing`: (enable_auto_detect_datetime_format, not enable_strict_datetime_parser), the first
    of which VARIANT casts follow (engine.functions.date_parsing)."""
    # a Date keeps the JSON family's cast (and its error text) unless auto-detection is on
    if source.name == "Variant" and (target.name != "Date" or parsing[0]):
        cast = variant_temporal_cast(target.name, zone(timezone), parsing[0])
        if cast is not None:
            return cast
    return timestamp_tz_cast(source, target, timezone) or date_temporal_cast(source, target, timezone)


# registered for the planner's own calls, not functions a user calls: the builders of [..], {..}
# and (..) literals, and FLATTEN's set-returning row function (engine.plan.flatten)
UNLISTED = LITERAL_BUILDERS | {"like_escape_pattern", "_flatten_rows", "_flatten_each_row", RANGE_ROWS}  # (bound internally)


def all_function_names() -> list[str]:
    bitwise = {fn.name for fn in BITWISE_FUNCTIONS.values()}
    return sorted((set(SCALARS) - UNLISTED) | AGGREGATES | CONTEXT_FUNCTIONS | set(CAST_FUNCTIONS) | bitwise
                  | set(OPERATOR_FUNCTIONS) | NEGATION_FUNCTIONS | UNIT_CALLS | LAMBDA_FUNCTIONS | set(DECIMAL_CONVERSIONS)
                  | {"typeof", "to_date", "regexp_split_to_table"})


def function_rows() -> list[tuple[str, bool, str, str, str]]:
    """(name, is_aggregate, description, syntax, example) of every function, by name: the rows of
    system.functions (SHOW FUNCTIONS shows the first three). Databend 1.2.453 leaves the last
    three empty."""
    return [(name, name in AGGREGATES, "", "", "") for name in all_function_names()]

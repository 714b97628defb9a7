"""Table engines and options of CREATE TABLE and ALTER TABLE SET / UNSET OPTIONS, checked as
Databend checks them (interpreters/common/table_option_validation.rs) and then kept without
effect: one in-memory storage serves every engine (Fuse, Memory, Null, Random), and the Fuse
options tune blocks, segments, compression and indexes this engine does not have."""

from __future__ import annotations

from engine.core.errors import BAD_ARGUMENTS, SYNTAX, TABLE_ENGINE_NOT_SUPPORTED, EngineError
from engine.statements.cluster_keys import check_deterministic
from engine.types import sqltype as T

TABLE_OPTION_INVALID = 1301
UNKNOWN_STORAGE_FORMAT = 1074
UNKNOWN_COMPRESSION = 1075
STORAGE_OPTION_REFUSED = 3001
UNSUPPORTED_CLUSTER = 2703

ENGINES = ("fuse", "memory", "null", "random")
LAKE_ENGINES = ("iceberg", "delta", "paimon", "hive")

# the options CREATE TABLE takes for a Fuse table (Databend's CREATE_FUSE_OPTIONS, less the
# ones its binder adds itself)
FUSE_OPTIONS = frozenset({
    "row_per_page", "block_per_segment", "row_per_block", "block_size_threshold", "file_size",
    "recluster_depth", "aggressive_recluster", "data_retention_period_in_hours",
    "data_retention_num_snapshots_to_keep", "enable_auto_vacuum", "enable_auto_analyze",
    "enable_virtual_column", "auto_compaction_imperfect_blocks_threshold", "bloom_index_columns",
    "bloom_index_type", "approx_distinct_columns", "compression", "storage_format", "comment",
    "change_tracking", "write_distribution_mode", "segment_format", "copy_dedup_full_path",
    "enable_schema_evolution", "enable_parquet_dictionary", "data_page_rows", "data_page_bytes",
    "analyze_histogram_algorithm", "analyze_histogram_kll_relative_error",
    "analyze_frequency_columns", "analyze_top_n_size", "analyze_count_min_sketch_error_rate",
})
RANDOM_OPTIONS = frozenset({"seed", "min_string_len", "max_string_len", "max_array_len"})
# what ALTER TABLE ... UNSET OPTIONS may remove (UNSET_TABLE_OPTIONS_WHITE_LIST)
UNSET_OPTIONS = frozenset({
    "row_per_page", "block_per_segment", "row_per_block", "block_size_threshold", "file_size",
    "row_avg_depth_threshold", "recluster_depth", "aggressive_recluster",
    "data_retention_period_in_hours", "data_retention_num_snapshots_to_keep",
    "auto_compaction_imperfect_blocks_threshold", "enable_virtual_column", "copy_dedup_full_path",
    "data_page_rows", "data_page_bytes", "analyze_histogram_algorithm",
    "analyze_histogram_kll_relative_error", "analyze_frequency_columns", "analyze_top_n_size",
    "analyze_count_min_sketch_error_rate",
})
# the largest value of each number option (data retention: Databend's default maximum, 90 days)
_LIMITS = {"row_per_block": 1_000_000, "block_per_segment": 1000, "data_retention_period_in_hours": 90 * 24}
_COMPRESSIONS = ("zstd", "lz4", "snappy", "none")
_STORAGE_FORMATS = ("native", "parquet")
# types a bloom index cannot cover (Databend's BloomIndex::supported_type refuses them)
_NO_BLOOM = frozenset({"Decimal", "Float32", "Float64", "Array", "Map", "Tuple", "Variant",
                       "Bitmap", "Binary", "Boolean"})


def check_engine(engine: str | None, pos=None) -> str:
    """The engine's lower-case name (fuse when none is written)."""
    name = (engine or "fuse").lower()
    if name in LAKE_ENGINES:
        raise EngineError(f"ENGINE = {engine} reads external storage, which queryhttp leaves out",
                          code=TABLE_ENGINE_NOT_SUPPORTED, position=pos)
    if name not in ENGINES:
        raise EngineError(f"unknown table engine {engine}", code=SYNTAX, position=pos)
    return name


def check_create_options(engine, options, columns, pos=None, cluster_by=()) -> None:
    """CREATE TABLE's options for the engine and the table's columns (TableColumn list)."""
    name = check_engine(engine, pos)
    if cluster_by and name != "fuse":
        raise EngineError(f"Unsupported cluster type for the table engine {engine}",
                          code=UNSUPPORTED_CLUSTER, position=pos)
    check_deterministic(cluster_by, pos)
    allowed = {"fuse": FUSE_OPTIONS, "random": RANDOM_OPTIONS}.get(name, frozenset())
    for key, value in options:
        if key == "snapshot_location":
            raise EngineError("cannot create a table with the option snapshot_location",
                              code=STORAGE_OPTION_REFUSED, position=pos)
        if key not in allowed:
            raise EngineError(f"table option {key} is invalid for create table statement",
                              code=TABLE_OPTION_INVALID, position=pos)
        _check_value(key, value, columns, pos)


def stored_options(engine, options) -> dict:
    """The options a new table keeps (Table.options): as written, and for a Fuse table
    enable_auto_analyze = '1' unless given, as Databend's create interpreter adds it."""
    kept = {key: value for key, value in options if key != "comment"}
    if (engine or "fuse").lower() == "fuse":
        kept.setdefault("enable_auto_analyze", "1")
    return kept


# options naming columns, comma-separated: a dropped column leaves them, a renamed one is renamed
_COLUMN_LISTS = ("bloom_index_columns", "approx_distinct_columns", "analyze_frequency_columns")


def _column_list(value: str) -> list[str]:
    return [part.strip().strip('`"') for part in value.split(",") if part.strip()]


def options_after_column_change(options: dict, old: str, new: str | None) -> dict:
    """The options once column `old` is dropped (new None) or renamed to `new`."""
    changed = dict(options)
    for key in _COLUMN_LISTS:
        if key in changed:
            names = _column_list(changed[key])
            if old in names:
                names = [n for n in names if n != old] if new is None else [new if n == old else n for n in names]
                changed[key] = ",".join(names)
    return changed


_BLOOM_TYPES = frozenset((T.NUMERIC_NAMES - {"Decimal"}) | {"String", "Timestamp", "Date"})
_STAT_TYPES = frozenset(T.NUMERIC_NAMES | {"String", "Timestamp", "TimestampTz", "Date"})


def check_modified_type(options: dict, name: str, new_type, pos=None) -> None:
    """MODIFY COLUMN to `new_type` of a column an index option names: 1301 when that index does
    not take the type (Databend's BloomIndex / RangeIndex supported types)."""
    for key, supported, what in (("bloom_index_columns", _BLOOM_TYPES, "bloom index"),
                                 ("approx_distinct_columns", _STAT_TYPES, "approx distinct columns"),
                                 ("analyze_frequency_columns", _STAT_TYPES, "analyze frequency columns")):
        if name in _column_list(options.get(key, "")) and new_type.name not in supported:
            raise EngineError(f"Unsupported data type '{new_type.display()}' for {what}",
                              code=TABLE_OPTION_INVALID, position=pos)


def check_set_options(options, columns, pos=None) -> None:
    """ALTER TABLE ... SET OPTIONS (on a Fuse table)."""
    for key, value in options:
        if key in ("database_id", "storage_format", "comment") or key not in FUSE_OPTIONS:
            raise EngineError(f"table option {key} is invalid for alter table statement",
                              code=TABLE_OPTION_INVALID, position=pos)
        _check_value(key, value, columns, pos)


def check_unset_options(options, pos=None) -> None:
    for key, _ in options:
        if key not in UNSET_OPTIONS:
            raise EngineError(f"table option {key} is invalid for unset table options",
                              code=TABLE_OPTION_INVALID, position=pos)


def _check_value(key, value, columns, pos) -> None:
    if key in _LIMITS:
        try:
            number = int(value)
        except ValueError:
            raise EngineError(f"invalid {key} option {value!r}", code=BAD_ARGUMENTS, position=pos) from None
        if number > _LIMITS[key]:
            raise EngineError(f"invalid {key} option, can't be over {_LIMITS[key]}",
                              code=TABLE_OPTION_INVALID, position=pos)
    elif key == "compression" and value.lower() not in _COMPRESSIONS:
        raise EngineError(f"unsupported table compression: {value}", code=UNKNOWN_COMPRESSION,
                          position=pos)
    elif key == "storage_format" and value.lower() not in _STORAGE_FORMATS:
        raise EngineError(f"unsupported table storage format: {value}", code=UNKNOWN_STORAGE_FORMAT,
                          position=pos)
    elif key == "bloom_index_columns":
        _check_bloom_columns(value, columns, pos)


def _check_bloom_columns(value, columns, pos) -> None:
    by_name = {c.name.lower(): c for c in columns}
    for part in value.split(","):
        name = part.strip().strip('`"').lower()
        if not name:
            continue
        column = by_name.get(name)
        if column is None:
            raise EngineError(f"bloom index definition column `{name}` does not exist",
                              code=BAD_ARGUMENTS, position=pos)
        if column.type.name in _NO_BLOOM:
            raise EngineError(f"Unsupported data type '{column.type.display()}' for bloom index",
                              code=TABLE_OPTION_INVALID, position=pos)

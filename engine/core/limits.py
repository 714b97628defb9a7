"""One table of the engine's limits: what a single statement may make the server hold or do.

Every limit has a default safe for a shared server, is passed to `Database(limits=Limits(...))`
(the server exposes the operator-tunable ones as `twistd queryhttp` options), and is tested at
its value N (accepted) and at N + 1 (refused with a stable Databend error code and a message that
names the limit). SQLite's limits page gives the reason: a bound that is not written down and
tested becomes a bug when someone pushes past it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


def _physical_memory_bytes() -> int:
    """The machine's memory (0 when the platform does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 0


def default_server_memory_bytes() -> int:
    """Half the machine's memory (1 GiB if unknown): room for the tables themselves, which are
    held in memory too and are not part of any query's budget."""
    physical = _physical_memory_bytes()
    return physical // 2 if physical else 1 << 30


@dataclass(frozen=True, slots=True)
class Limits:
    """The engine's limits; each field's comment says what exceeding it answers."""

    # SQL text of one statement, in UTF-8 bytes (checked before parsing): 1005, the syntax code,
    # because the statement is refused as text, before it has any meaning.
    sql_bytes: int = 1 << 20
    # Nesting of expressions and subqueries: the grammar refuses deeper input, and the code
    # generator is guaranteed to compile anything the grammar accepts. Deeper is 1005 with the
    # position of the first node too deep. 64 because generated code spends up to three
    # parentheses per level and CPython refuses 200 nested ones; it also keeps the binder's
    # recursion far from Python's stack limit.
    expr_depth: int = 64
    # Items of one IN (...) list: more is 1006 (bad arguments), checked before the items are bound.
    in_list_items: int = 100_000
    # Characters of one LIKE pattern (SQLite's default for the same denial-of-service reason):
    # longer is 1006, at bind time for a constant pattern, per row for one taken from a column.
    like_pattern_chars: int = 50_000
    # Characters of one regular expression (REGEXP, RLIKE, regexp_*): longer is 1006. Matching
    # itself is linear in the input (RE2 never backtracks), so the pattern size is the only bound.
    regex_pattern_chars: int = 10_000
    # Matches one regexp_replace call may go through: a pattern that is not a plain literal is
    # matched one match at a time (3 to 6 microseconds each), so more is 1006 naming the limit and
    # one call holds the server for under ~100 ms. A literal pattern with a plain replacement is
    # replaced at C speed and bounded by string_result_chars alone.
    regex_replace_matches: int = 20_000
    # Characters of one string a function or operator builds (REPEAT, LPAD, RPAD, SPACE, REPLACE,
    # ||, CONCAT, CONCAT_WS): longer is 1006, refused before the string is built.
    string_result_chars: int = 64 << 20
    # Wall-clock milliseconds one jq(filter, v) call may run (C jq has no step budget, so it runs
    # in a worker process, engine.functions.jq_worker): past it the server stops waiting, kills
    # the worker (a new one starts) and the statement fails with 1006 naming the budget.
    jq_call_milliseconds: int = 50
    # Wall-clock milliseconds the jq calls of one step may wait for the worker in all (a batch's
    # request, or the one-by-one calls of a LATERAL's rows): past it the worker is killed as
    # above and the statement fails with 1006 naming this budget, so a step never holds the
    # reactor for rows x jq_call_milliseconds. Ordinary filters take
    # 16-100 ms of it in a scan step of 2,048 rows (measured: docs/limits.rst).
    jq_step_milliseconds: int = 500
    # |digits| of ROUND and TRUNCATE; beyond it the argument is refused (1006) instead of
    # computing 10**N.
    round_digits: int = 1000
    # The per-step budget: no step of a pipeline emits (or processes in one go) more rows.
    step_rows: int = 8192
    # Rows one step sorts: a larger ORDER BY is sorted in runs of this size, one per step, and
    # the runs are merged step_rows at a time. Measured on 100,000 rows of (int, string): with
    # 131,072-row runs the whole sort took 52 ms and its longest step 29 ms; with 65,536-row
    # runs the longest step was 21 ms but merging made the sort 80 ms.
    sort_run_rows: int = 131_072
    # The server-wide memory budget shared by all running queries, in bytes (0: the default,
    # half the machine). A query's own budget is the max_memory_usage setting.
    server_memory_bytes: int = 0
    # Finished statements system.query_log keeps (the oldest is dropped for a new one): a
    # bounded log, so a busy server's history never grows without end.
    query_log_size: int = 1000
    # Characters of a statement's SQL text (and error message) the process list and the query
    # log keep; longer text is cut and ends with '...'. Bounds the log to about
    # query_log_size x this, where whole statements (up to sql_bytes each) could fill 1 GiB.
    logged_sql_chars: int = 16_384
    # Plans of repeated queries kept by the plan cache (engine.plan.plan_cache), least recently
    # used dropped first; 0 turns the cache off. An entry holds a plan and the row-list snapshots
    # it planned over until it is next looked up, evicted or the catalog changes.
    plan_cache_entries: int = 256
    # Bytes all stages may hold together (files uploaded to @~ and named stages), and one file:
    # a write past either is 1006 and stores nothing. One file is also bounded by the server's
    # upload body limit.
    stage_bytes: int = 1 << 30
    stage_file_bytes: int = 256 << 20
    # Iterations of one WITH RECURSIVE CTE (each runs its step over the previous one's rows):
    # more is 1006 naming the limit, so a recursion without an end stops (MySQL's default too).
    recursive_cte_iterations: int = 1000
    # Steps one script (EXECUTE IMMEDIATE, CALL PROCEDURE) may take, every statement and loop
    # iteration counting one: the most the session setting script_max_steps may ask (more is
    # 3129, as Databend's limit of that setting); a step is a bounded unit of the reactor's work.
    script_max_steps: int = 1_000_000
    # Rows a script holds in one RESULTSET or cursor (and returns with RETURN TABLE): more is 3129.
    script_result_rows: int = 1_000_000
    # Numbers one BITMAP value is built from or shown as: to_bitmap / CAST of a text of more
    # comma-separated numbers, build_bitmap of a longer array, bitmap_to_array or the text of a
    # larger bitmap (an aggregate's union can grow past it) are 1006, refused before the work.
    # A million numbers parse in ~0.2 s; a 20 MB text of ten million would hold the loop for seconds.
    array_elements: int = 1_000_000
    # Bytes of one session's variables (SET VARIABLE), names and values in their exported JSON
    # form together: a SET past it is 1006 naming the limit and changes nothing. An HTTP client
    # session carries them in every answer and request (`session.internal`), so they stay small.
    session_variables_bytes: int = 64 << 10
    # Query results one session keeps for RESULT_SCAN (with enable_query_result_cache = 1; each
    # at most the query_result_cache_max_bytes setting): the oldest is dropped for a new one.
    result_cache_entries: int = 8

    def memory_budget(self) -> int:
        return self.server_memory_bytes or default_server_memory_bytes()

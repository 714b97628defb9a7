"""Bound query to plan tree: relations, joins, aggregates, grouping sets, windows, recursion, stage scans, RESULT_SCAN."""

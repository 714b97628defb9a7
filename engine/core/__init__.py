"""Errors with their Databend codes, limits, settings, the memory tracker and the version: what every layer needs."""

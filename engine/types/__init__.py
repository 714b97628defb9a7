"""Databend's types and values: the type algebra, casts, nested values, variant, dates, wire text and overflow rules."""

"""Bound expressions to generated Python source plus bindings, compiled once per query shape."""

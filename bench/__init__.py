"""Benchmarks: python -m bench.<name> prints figures and ratios against peers."""

"""Tests of the documentation: its examples run and its tables match the code."""

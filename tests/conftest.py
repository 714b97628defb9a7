"""Shared pytest configuration: the catalog's owner-thread check is on for every test (and the
servers the end-to-end tests start inherit it through the environment)."""

import os

os.environ.setdefault("QUERYHTTP_CHECK_THREAD", "1")

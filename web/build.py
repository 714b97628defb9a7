"""queryhttp's own version and the Databend version it answers as (--version, /metrics)."""

from __future__ import annotations

import platform
from importlib import metadata

import engine
import twisted

DATABEND_VERSION = engine.VERSION


def queryhttp_version() -> str:
    """The installed distribution's version ('unknown' when run from a source tree that was
    never installed)."""
    try:
        return metadata.version("queryhttp")
    except metadata.PackageNotFoundError:
        return "unknown"


def version_line() -> str:
    """What `twistd queryhttp --version` prints."""
    return (f"queryhttp {queryhttp_version()}, answering as Databend {DATABEND_VERSION} "
            f"(Twisted {twisted.__version__}, Python {platform.python_version()})")


def build_labels() -> dict[str, str]:
    """The labels of /metrics' queryhttp_build_info series."""
    return {"version": queryhttp_version(), "databend_version": DATABEND_VERSION,
            "twisted_version": twisted.__version__, "python_version": platform.python_version()}

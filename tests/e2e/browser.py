"""Headless Chromium for the console's browser tests: the system's Chromium driven by
Playwright (no browser download), or a clear reason why the tests cannot run here."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """QUERYHTTP_CHROMIUM, else the first Chromium on PATH (Debian: `apt-get install chromium`)."""
    configured = os.environ.get("QUERYHTTP_CHROMIUM")
    if configured:
        return configured if Path(configured).exists() else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def unavailable_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (it is in the test extras: pip install '.[test]')"
    if find_chromium() is None:
        return ("no Chromium found (Debian: apt-get install chromium; or set "
                "QUERYHTTP_CHROMIUM to a Chromium executable)")
    return None


def screenshot_dir() -> Path:
    """Where the tests save a screenshot of each state (ignored by git):
    QUERYHTTP_ARTIFACTS/console, by default artifacts/console in the repository."""
    base = Path(os.environ.get("QUERYHTTP_ARTIFACTS") or ROOT / "artifacts")
    folder = base / "console"
    folder.mkdir(parents=True, exist_ok=True)
    return folder

"""engine.check_data_directory: says whether a data directory would open, creating and opening
nothing (the server's start-up check, made before the port is bound)."""

from __future__ import annotations

import os

import pytest

import engine
from engine.storage.durability import DataDirectoryInUse, UnsafeDataDirectory


def listing(root):
    return sorted(os.listdir(root))


def test_a_missing_directory_under_a_writable_parent_would_open(tmp_path):
    engine.check_data_directory(str(tmp_path / "a" / "b"))
    assert listing(tmp_path) == []


def test_a_directory_no_server_holds_would_open_and_is_left_as_it_was(tmp_path):
    data = tmp_path / "data"
    engine.Database(data_dir=str(data)).close()
    before = {name: (data / name).stat().st_mtime_ns for name in listing(data)}
    engine.check_data_directory(str(data))
    assert {name: (data / name).stat().st_mtime_ns for name in listing(data)} == before
    engine.Database(data_dir=str(data)).close()  # the probe released the lock


def test_a_held_directory_names_its_holder(tmp_path):
    data = tmp_path / "data"
    db = engine.Database(data_dir=str(data))
    try:
        with pytest.raises(DataDirectoryInUse, match=rf"in use by another process \(pid {os.getpid()}\)"):
            engine.check_data_directory(str(data))
    finally:
        db.close()


def test_a_file_is_not_a_directory(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(UnsafeDataDirectory, match="is not a directory"):
        engine.check_data_directory(str(tmp_path / "f"))
    with pytest.raises(UnsafeDataDirectory, match=f"cannot be created: {tmp_path / 'f'} is not a directory"):
        engine.check_data_directory(str(tmp_path / "f" / "sub" / "deeper"))


def test_a_directory_open_to_others_is_refused_before_it_is_opened(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    with pytest.raises(UnsafeDataDirectory, match="chmod 700"):
        engine.check_data_directory(str(data))


def test_the_check_errors_are_data_directory_errors():
    assert issubclass(DataDirectoryInUse, engine.DataDirectoryError)
    assert issubclass(UnsafeDataDirectory, engine.DataDirectoryError)

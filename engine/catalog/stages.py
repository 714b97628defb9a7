"""Stages: named places holding files to load from (and, later, unload to), kept in memory.

Each user has a user stage, `@~`, that only they see (as in Databend). Files are addressed by a
relative path (`client/load/1`, `data/2024.csv`); `@~/client/load/1` names one file and
`@~/client/` everything under that prefix. The store is bounded: `Limits.stage_bytes` is the
total all stages may hold and `Limits.stage_file_bytes` one file; past either a write fails with
Databend's StageFileTooLarge-style error (1006 BadArguments here, with the limit named) and stores
nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.core.errors import BadArguments, StageAlreadyExists, UnknownStage
from engine.functions.regex import compile_pattern

USER_STAGE = "~"


@dataclass(slots=True)
class StagedFile:
    """One file in a stage: its bytes and when it was written (epoch seconds). A file put with
    logged=False (a streaming load's upload, removed once loaded) never reaches the data
    directory: neither its log nor its checkpoints."""

    data: bytes
    last_modified: float
    logged: bool = True


@dataclass(frozen=True, slots=True)
class StageLocation:
    """A parsed `@stage[/path]`: the stage name (`~` for the user stage) and the path in it
    (no leading slash; empty for the whole stage; ending in `/` for a prefix)."""

    stage: str
    path: str

    @property
    def text(self) -> str:
        return f"@{self.stage}/{self.path}" if self.path else f"@{self.stage}"


def parse_location(text: str) -> StageLocation:
    """`@~/a/b.csv` -> StageLocation('~', 'a/b.csv'). A location must start with `@`."""
    text = text.strip()
    if not text.startswith("@") or len(text) == 1:
        raise BadArguments(f"stage location must look like @stage/path, not {text!r}")
    body = text[1:]
    stage, _, path = body.partition("/")
    if not stage:
        raise BadArguments(f"stage location must name a stage: {text!r}")
    return StageLocation(stage, _clean_path(path, keep_trailing_slash=True))


def _clean_path(path: str, keep_trailing_slash: bool = False) -> str:
    """A relative path without leading slashes, empty segments, `.` or `..` (refused)."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise BadArguments(f"stage paths may not contain '..': {path!r}")
    cleaned = "/".join(parts)
    if keep_trailing_slash and path.endswith("/") and cleaned:
        cleaned += "/"
    return cleaned


@dataclass(slots=True)
class NamedStage:
    """A stage made with CREATE STAGE: shared by every user, with its own default file format and
    copy options (lower-case names, string values)."""

    name: str
    file_format: dict
    copy_options: dict
    comment: str
    creator: str
    created_on: float
    files: dict = field(default_factory=dict)


def stage_pattern(limits, pattern):
    """PATTERN's compiled regex (RE2: linear time, Databend's syntax), None without one; it is
    searched for in each file's path below the location."""
    if pattern is None:
        return None
    if not isinstance(pattern, str):
        raise BadArguments("PATTERN takes a regular expression in quotes")
    return compile_pattern(pattern, limits.regex_pattern_chars, "PATTERN")


class StageStore:
    """All stages of a Database (user stages by user name, named stages by name, each holding a
    dict path -> StagedFile) and the named file formats."""

    def __init__(self, total_bytes: int, file_bytes: int, clock=time.time):
        self.total_bytes = total_bytes
        self.file_bytes = file_bytes
        self.clock = clock
        self._user_stages: dict[str, dict[str, StagedFile]] = {}
        self.named: dict[str, NamedStage] = {}
        self.file_formats: dict[str, dict] = {}  # CREATE FILE FORMAT name -> options
        self.held = 0  # bytes of all stored files
        self.recorder = None  # told of every stored and removed file (engine.storage.durability), or None

    def all_files(self):
        """(owner, stage, {path: StagedFile}) of every stage: owner is the user of a user stage,
        '' for a named stage."""
        for user, files in self._user_stages.items():
            yield user, USER_STAGE, files
        for name, stage in self.named.items():
            yield "", name, stage.files

    def files_of(self, owner: str, stage: str) -> dict | None:
        """The files of a user stage (`owner`'s, made when missing) or of a named stage (None
        when it does not exist)."""
        if stage == USER_STAGE:
            return self._user_stages.setdefault(owner, {})
        named = self.named.get(stage)
        return None if named is None else named.files

    def recount(self) -> None:
        """Recompute the bytes held (after files were restored from the data directory)."""
        self.held = sum(len(f.data) for files in self._user_stages.values() for f in files.values()) + sum(
            len(f.data) for stage in self.named.values() for f in stage.files.values())

    def _files(self, user: str, stage: str, create: bool = False) -> dict[str, StagedFile]:
        if stage != USER_STAGE:
            named = self.named.get(stage)
            if named is None:
                raise UnknownStage(f"Stage '{stage}' does not exist.")
            return named.files
        files = self._user_stages.get(user)
        if files is None:
            files = {}
            if create:
                self._user_stages[user] = files
        return files

    def create_stage(self, stage: NamedStage, or_replace: bool, if_not_exists: bool) -> None:
        """CREATE STAGE: 2502 when it exists (unless OR REPLACE, which drops its files, or IF
        NOT EXISTS, which keeps the old one)."""
        old = self.named.get(stage.name)
        if old is not None:
            if if_not_exists and not or_replace:
                return
            if not or_replace:
                raise StageAlreadyExists(f"Stage '{stage.name}' already exists.")
            self.held -= sum(len(f.data) for f in old.files.values())
            if self.recorder is not None:
                self.recorder.stage_cleared(stage.name)
        self.named[stage.name] = stage

    def drop_stage(self, name: str, if_exists: bool) -> None:
        old = self.named.pop(name, None)
        if old is None:
            if if_exists:
                return
            raise UnknownStage(f"Unknown stage {name}")
        self.held -= sum(len(f.data) for f in old.files.values())
        if self.recorder is not None:
            self.recorder.stage_cleared(name)

    def check_stage(self, location: StageLocation) -> None:
        """UnknownStage (2501) unless the location's stage exists."""
        self._files("", location.stage)

    def check_stage_name(self, name: str) -> None:
        self._files("", name)

    def put(self, user: str, location: StageLocation, data: bytes, logged: bool = True) -> str:
        """Store `data` at `location` (a file path, replacing a file already there); returns the
        path stored. Refused, storing nothing, past the file or the total limit. `logged`:
        False for a temporary file the data directory does not keep (StagedFile)."""
        path = _clean_path(location.path)
        if not path:
            raise BadArguments("a file needs a path in the stage, e.g. @~/data.csv")
        size = len(data)
        if size > self.file_bytes:
            raise BadArguments(f"file of {size} bytes exceeds the limit stage_file_bytes = "
                               f"{self.file_bytes}")
        files = self._files(user, location.stage, create=True)
        old = files.get(path)
        held = self.held - (len(old.data) if old is not None else 0) + size
        if held > self.total_bytes:
            raise BadArguments(f"storing {size} more bytes would take the stages past the limit "
                               f"stage_bytes = {self.total_bytes}")
        staged = files[path] = StagedFile(data, self.clock(), logged)
        held_before, self.held = self.held, held
        if self.recorder is not None:
            self.recorder.undo_with(lambda: self._put_back(files, path, old, held_before))
            owner = user if location.stage == USER_STAGE else ""
            if logged:
                self.recorder.staged(owner, location.stage, path, staged)
            elif old is not None and old.logged:  # the kept file is gone
                self.recorder.unstaged(owner, location.stage, path)
        return path

    def _put_back(self, files: dict, path: str, staged, held: int) -> None:
        """Undo a put or a removal the log did not keep: `staged` (None: no file) at `path`."""
        if staged is None:
            files.pop(path, None)
        else:
            files[path] = staged
        self.held = held

    def put_many(self, user: str, files: list[tuple[StageLocation, bytes]]) -> None:
        """Store several new files, all or none (each is checked against the file limit and
        together against the total before any is stored)."""
        total = 0
        for _, data in files:
            if len(data) > self.file_bytes:
                raise BadArguments(f"file of {len(data)} bytes exceeds the limit stage_file_bytes = "
                                   f"{self.file_bytes}")
            total += len(data)
        if self.held + total > self.total_bytes:
            raise BadArguments(f"storing {total} more bytes would take the stages past the limit "
                               f"stage_bytes = {self.total_bytes}")
        for location, data in files:
            self.put(user, location, data)

    def get(self, user: str, location: StageLocation) -> bytes:
        """The bytes of the one file at `location`; 1006 when there is none."""
        path = _clean_path(location.path)
        staged = self._files(user, location.stage).get(path)
        if staged is None:
            raise BadArguments(f"no file at {location.text}")
        return staged.data

    def list(self, user: str, location: StageLocation) -> list[tuple[str, StagedFile]]:
        """Files at `location`: the file itself, or every file under it as a prefix, by path."""
        files = self._files(user, location.stage)
        prefix = location.path
        if not prefix:
            return sorted(files.items())
        exact = files.get(prefix.rstrip("/"))
        if exact is not None and not prefix.endswith("/"):
            return [(prefix, exact)]
        folder = prefix if prefix.endswith("/") else prefix + "/"
        return sorted((p, f) for p, f in files.items() if p.startswith(folder))

    def choose(self, user: str, location: StageLocation, names=None,
               pattern=None) -> list[tuple[str, StagedFile]]:
        """(path, file) of the files a COPY, LIST or stage scan reads: FILES (`names`) under the
        location's folder, else the file the location names or every file under it; with a
        PATTERN (a compiled regex), those whose path below the location it finds a match in."""
        if names is None:
            files = self.list(user, location)
            if pattern is None:
                return files
            start = len(location.path) if location.path.endswith("/") else (
                len(location.path) + 1 if location.path else 0)
            return [(p, f) for p, f in files if pattern.search(p[start:]) is not None]
        if isinstance(names, str):
            names = (names,)
        folder = location.path if not location.path or location.path.endswith("/") else location.path + "/"
        chosen = []
        for file_name in names:
            found = self.list(user, StageLocation(location.stage, folder + file_name.lstrip("/")))
            chosen.extend(found[:1])
        return chosen

    def remove(self, user: str, location: StageLocation) -> int:
        """Remove the files `list` would show; returns how many were removed."""
        files = self._files(user, location.stage)
        removed = self.list(user, location)
        for path, staged in removed:
            if files.pop(path, None) is not None:
                held_before = self.held
                self.held -= len(staged.data)
                if self.recorder is not None:
                    self.recorder.undo_with(
                        lambda path=path, staged=staged, held=held_before: self._put_back(files, path, staged, held))
                if self.recorder is not None and staged.logged:
                    self.recorder.unstaged(user if location.stage == USER_STAGE else "", location.stage, path)
        return len(removed)

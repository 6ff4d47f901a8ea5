"""Atomic, deterministic file writes (temp file in the same folder + rename), and run locks.

Lives in `theory/` because every layer writes results and imports only point down; it uses no
mathematics and no torch. An interrupted writer leaves either the old file or the new one;
`run_lock` lets several processes share one list of runs without training any twice.
"""
from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable

_UMASK = os.umask(0)
os.umask(_UMASK)


def atomic_write(path: Path | str, write: Callable[[str], None]) -> Path:
    """Call `write(tmp_path)` on a temporary sibling of `path`, then rename it over `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the file ordinary permissions
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def atomic_write_text(path: Path | str, text: str) -> Path:
    return atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def atomic_write_json(path: Path | str, data: Any) -> Path:
    return atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


@contextmanager
def run_lock(folder: Path, stem: str):
    """Claim the run `stem` for this process: yields True when `<folder>/<stem>.lock` (holding this
    process's pid) was created, or taken over from a process that no longer exists; False when a
    live process holds it. The lock appears atomically with its content (hard link of a written
    temporary file), so a reader never sees it empty."""
    folder.mkdir(parents=True, exist_ok=True)
    lock = folder / f"{stem}.lock"
    tmp = folder / f".{stem}.lock.{os.getpid()}"
    tmp.write_text(str(os.getpid()))
    try:
        for _ in range(2):
            try:
                os.link(tmp, lock)
            except FileExistsError:
                try:
                    os.kill(int(lock.read_text()), 0)
                except ProcessLookupError:
                    lock.unlink(missing_ok=True)  # stale: its process is gone
                    continue
                except (ValueError, FileNotFoundError):
                    continue  # released or unreadable in between: try again
                except PermissionError:
                    pass  # a live process of another user
                yield False
                return
            try:
                yield True
            finally:
                lock.unlink(missing_ok=True)
            return
        yield False
    finally:
        tmp.unlink(missing_ok=True)

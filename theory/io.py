"""Atomic, deterministic file writes (temp file in the same folder + rename).

Lives in `theory/` because every layer writes results and imports only point down; it uses no
mathematics and no torch. An interrupted writer leaves either the old file or the new one.
"""
from __future__ import annotations

import json
import os
import tempfile
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

"""Command-line plumbing shared by every CLI: `python -m claims`, `python -m figures`,
`python -m particles.lm` and `python -m particles.sp_train`.

Bad input is answered before any long work starts, with one line that names the parameter and the
accepted values, exit status 2 and no traceback (`Parser.error`). Output paths are checked by a
probe file in the deepest folder that exists, so a rejected command creates nothing.

docs/ holds the committed full-budget figures and ledger page: a quick-budget or partial run may
not write there (`writable(..., into_docs=False)`). Lives in `theory/` (like `theory/io.py`: no
mathematics, no torch) because every layer has a CLI and imports only point down.
"""
from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line, `PROG: error: MESSAGE (see --help)`, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())} (see --help)\n")


def number(kind: type, *, positive: bool = False):
    """An argparse `type` reading an int or a finite float (`kind`), and with `positive` one > 0;
    anything else is an ArgumentTypeError that names what was expected."""
    what = ("a positive " + ("integer" if kind is int else "number") if positive
            else "an integer" if kind is int else "a number")

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if kind is float and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        if positive and not value > 0:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value
    return parse


def writable(parser: Parser, param: str, path: Path, *, folder: bool, into_docs: bool) -> Path:
    """Check that `path` (a folder to write into when `folder`, else a file to write) can be
    written, creating nothing: an existing path has the right kind, and a probe file can be
    created (and is removed) in the deepest existing folder on the way to it. Unless `into_docs`,
    a path under docs/ is refused. Returns `path`; bad input ends the process through
    `parser.error` (parameter `param` named, exit status 2)."""
    path = Path(path).expanduser()
    if not into_docs and path.resolve().is_relative_to(DOCS):
        parser.error(f"{param}: {path} is under docs/, which only the full-budget run of "
                     f"everything writes; write quick or partial output elsewhere, e.g. under runs/")
    if path.exists() and path.is_dir() != folder:
        parser.error(f"{param}: {path} is a {'file' if folder else 'folder'}; "
                     f"give a {'folder' if folder else 'file'} path")
    anchor = path if folder else path.parent
    while not anchor.exists():
        anchor = anchor.parent
    if not anchor.is_dir():
        parser.error(f"{param}: cannot create {path}: {anchor} is a file")
    try:
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=anchor)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        parser.error(f"{param}: cannot write {path} ({exc.strerror or exc} in "
                     f"{anchor}); choose a writable path")
    return path


def shown(path: Path) -> str:
    """`path` as the user would type it: relative to the working folder when inside it."""
    path = Path(path).absolute()
    return str(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)


@contextlib.contextmanager
def stdout_to_stderr():
    """Send whatever runs inside to stderr, at the Python level and at file descriptor 1 (a
    library's warning, a compiler run as a child process: KeOps prints "[KeOps] Warning : CUDA
    libraries not found" to stdout), so that a command's machine-readable stdout carries its
    output alone."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:   # no descriptor 1 (an embedded interpreter): the Python level only
        saved = None
    try:
        if saved is not None:
            os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)

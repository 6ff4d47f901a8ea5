"""`python -m figures --check`: does a regeneration on this machine reproduce the committed page?

The command regenerates every figure and the ledger page at the full budget (reading the committed
results, as `make figures` does) into a scratch folder, then compares each file with its committed
counterpart in docs/figures/, docs/claims.md and docs/coverage.md, and names every difference.

What counts as the same (the tolerances are the precision each file is written at):
- data files (`.csv`, `.json`) and pages (`.md`) are read as text with numbers in it: the text
  between the numbers must be identical; an integer (no point, no exponent) must be equal; two
  floats a, b must satisfy |a − b| ≤ rtol·max(|a|, |b|) + atol. For a figure written at D
  significant digits above a floor F (`@figure(digits=D, floor=F)`, figures/_registry.py),
  rtol = 10^(1−D) (one unit in the last written digit: a value on a rounding boundary may round
  either way on another machine) and atol = 2F (a value at the floor may be written as 0.0 on one
  side). A figure with `digits=None` (a peer benchmark: its data is the committed measurement
  results/bench/<name>.json, copied as read, so it reproduces byte for byte) must match exactly.
  The ledger page prints 3 significant digits and floats below `claims._report.FLOAT_FLOOR` as
  `|x| < FLOOR`: rtol = 1e-2, atol = 2·FLOAT_FLOOR, and `|x| < FLOOR` reads as the number FLOOR.
  The coverage page holds counts and must match exactly.
- images (`.png`) must have the same size and an RMS difference (0-255 scale) of at most
  PNG_RMS: a value that moves by a last-digit amount can flip the antialiasing of a few edge
  pixels, which is not a change of the figure.
A file present on one side only is a difference too.
"""
from __future__ import annotations

import difflib
import glob
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from claims._report import FLOAT_FLOOR
from theory.cli import shown

# RMS (0-255 scale) of a few edge pixels whose antialiasing flips when a plotted value moves by a
# last-digit amount: measured 0.002 for 3 pixels of ab2-order; a changed label, marker or curve
# moves hundreds of pixels by up to 255 (RMS >= 0.5 on these image sizes).
PNG_RMS = 0.1
SHOWN = 20  # differences listed per file; the rest are counted

# a number that stands alone: not part of a word (`seed0`, `x86`) nor of a dotted version's tail
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?!\w)")


@dataclass(frozen=True)
class Tolerance:
    """How far two floats of one file may be apart: |a − b| ≤ rtol·max(|a|, |b|) + atol."""

    rtol: float = 0.0
    atol: float = 0.0
    bound: str | None = None  # a printed bound `|x| < B` that reads as the number B

    @classmethod
    def at(cls, digits: int | None, floor: float = 0.0) -> "Tolerance":
        """The tolerance of a file written at `digits` significant digits (None: exactly as
        computed) with values below `floor` written as 0.0 (module docstring)."""
        if digits is None:
            return cls(0.0, 2.0 * floor)
        if isinstance(digits, bool) or not isinstance(digits, int) or digits < 1:
            raise ValueError(f"digits must be a positive int or None, got {digits!r}")
        return cls(10.0 ** (1 - digits), 2.0 * floor)


# the ledger page (claims/_report.py): 3 significant digits, floats below FLOAT_FLOOR as a bound
LEDGER = Tolerance(1e-2, 2.0 * FLOAT_FLOOR, bound=f"{FLOAT_FLOOR:g}")
EXACT = Tolerance()  # the coverage page: counts and names


def _numbers_equal(a: str, b: str, tol: Tolerance) -> bool:
    if a == b:
        return True
    if not any(c in s for s in (a, b) for c in ".eE"):  # integers: counts, seeds, sizes
        return False
    x, y = float(a), float(b)
    return abs(x - y) <= tol.rtol * max(abs(x), abs(y)) + tol.atol


def _split(line: str, tol: Tolerance) -> tuple[str, list[str]]:
    """The line's text with each number replaced by `#`, and the numbers in order."""
    if tol.bound is not None:
        line = line.replace(f"|x| < {tol.bound}", tol.bound)
    return NUMBER.sub("#", line), NUMBER.findall(line)


def _short(line: str, width: int = 160) -> str:
    line = line.strip()
    return line if len(line) <= width else line[:width - 1] + "…"


def compare_text(committed: str, regenerated: str, tol: Tolerance) -> list[str]:
    """Every difference between two text files beyond `tol`, one line each: `line N: ...`
    (N the committed file's line). Lines are aligned on their text with the numbers masked, so an
    inserted or deleted line is named once and the lines around it are still compared."""
    old, new = committed.splitlines(), regenerated.splitlines()
    old_split, new_split = [_split(s, tol) for s in old], [_split(s, tol) for s in new]
    matcher = difflib.SequenceMatcher(None, [s for s, _ in old_split], [s for s, _ in new_split],
                                      autojunk=False)
    found = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                pairs = [(a, b) for a, b in zip(old_split[i][1], new_split[j][1])
                         if not _numbers_equal(a, b, tol)]
                if pairs:
                    listed = ", ".join(f"{a} -> {b}" for a, b in pairs[:4])
                    more = f" (+{len(pairs) - 4} more)" if len(pairs) > 4 else ""
                    found.append(f"line {i + 1}: {listed}{more} (allowed: rtol {tol.rtol:.0e}, "
                                 f"atol {tol.atol:.0e}) in `{_short(old[i])}`")
            continue
        for i in range(i1, i2):
            found.append(f"line {i + 1}: committed `{_short(old[i])}`"
                         + (" is not regenerated" if op == "delete" else ""))
        for j in range(j1, j2):
            found.append(f"line {i1 + 1}: regenerated `{_short(new[j])}`"
                         + (" is not committed" if op == "insert" else ""))
    return found


def compare_png(committed: Path, regenerated: Path, rms_tol: float = PNG_RMS) -> list[str]:
    """The difference between two image files beyond `rms_tol` (module docstring), or []."""
    return png_differences(committed.read_bytes(), regenerated.read_bytes(), rms_tol)


def png_differences(committed: bytes, regenerated: bytes, rms_tol: float = PNG_RMS) -> list[str]:
    """The difference between two PNG images (their bytes) beyond `rms_tol`, or []."""
    if committed == regenerated:
        return []
    import matplotlib.image as mpimg
    a, b = (np.asarray(mpimg.imread(io.BytesIO(x), format="png"), dtype=float)
            for x in (committed, regenerated))
    if a.shape != b.shape:
        return [f"image size {a.shape[1]}x{a.shape[0]} -> {b.shape[1]}x{b.shape[0]}"]
    scale = 255.0 if a.dtype.kind == "f" and a.max(initial=0) <= 1.0 else 1.0
    rms = math.sqrt(float(np.mean((a - b) ** 2))) * scale
    if rms <= rms_tol:
        return []
    diff = np.abs(a - b).reshape(a.shape[0], a.shape[1], -1).max(axis=-1) > 0
    ys, xs = np.nonzero(diff)
    return [f"image RMS difference {rms:.3g} (allowed {rms_tol:g}) over {len(ys)} pixels in "
            f"x {xs.min()}..{xs.max()}, y {ys.min()}..{ys.max()}"]


def compare_file(committed: Path, regenerated: Path, tol: Tolerance) -> list[str]:
    """Every difference between one committed file and its regeneration (module docstring)."""
    if committed.suffix == ".png":
        return compare_png(committed, regenerated)
    return compare_text(committed.read_text(encoding="utf-8"),
                        regenerated.read_text(encoding="utf-8"), tol)


def compare(pairs: Iterable[tuple[Path, Path, Tolerance]]) -> list[str]:
    """Every difference of every (committed, regenerated, tolerance) pair, each line starting with
    the committed path; at most SHOWN per file, then how many more."""
    report = []
    for committed, regenerated, tol in pairs:
        if not committed.exists() and not regenerated.exists():
            continue
        if not regenerated.exists():
            report.append(f"{shown(committed)}: committed, not regenerated")
            continue
        if not committed.exists():
            report.append(f"{shown(committed)}: not committed, regenerated as {shown(regenerated)}")
            continue
        found = compare_file(committed, regenerated, tol)
        report += [f"{shown(committed)}: {d}" for d in found[:SHOWN]]
        if len(found) > SHOWN:
            report.append(f"{shown(committed)}: … {len(found) - SHOWN} more differences")
    return report


def figure_files(folder: Path, name: str) -> dict[str, Path]:
    """The files of figure `name` in `folder` (`<name>.png`, `<name>.csv`, `<name>.json`, ...)
    by file name."""
    return {p.name: p for p in sorted(folder.glob(f"{glob.escape(name)}.*")) if p.is_file()}


def figure_pairs(checked: Iterable, committed: Path,
                 regenerated: Path) -> list[tuple[Path, Path, Tolerance]]:
    """(committed file, its regeneration, tolerance) for every file either folder holds of each
    registered figure in `checked` (`figures.Figure`: its name, digits and floor)."""
    pairs = []
    for spec in checked:
        tol = Tolerance.at(spec.digits, spec.floor)
        names = {*figure_files(committed, spec.name), *figure_files(regenerated, spec.name)}
        pairs += [(committed / n, regenerated / n, tol) for n in sorted(names)]
    return pairs


def strays(committed: Path, registered: Iterable[str]) -> list[str]:
    """Committed files of the figure folder that no registered figure writes, one line each."""
    known = set(registered)
    return [f"{shown(p)}: committed, written by no figure" for p in sorted(committed.iterdir())
            if p.is_file() and not p.name.startswith(".") and p.name.split(".")[0] not in known]

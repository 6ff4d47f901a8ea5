"""The figure registry: one module per figure, each registering `draw(ctx)` with `@figure`.

A figure writes `<out>/<name>.png` and its data next to it (`<name>.json` or `<name>.csv`),
deterministically: fixed seeds, no timestamps, so a rerun yields identical bytes.

Reproducible on another machine: float kernels differ between x86 CPUs (SIMD width, BLAS, libm),
so a value computed here and there can differ in its last bits (`0.1643041066936036` here,
`0.16430410669360357` there). Every figure therefore states the precision of its data:
`@figure(..., digits=D, floor=F)` writes each float of its data file rounded to D significant
digits, and a float with |x| < F as 0.0 (F: the level below which the figure's quantity is
rounding noise; 0 where small values are accurate). D and F are module constants of the figure,
with the reason for their values; `python -m figures --check` (figures/_check.py) compares a
regeneration with the committed files within one unit in the D-th digit and 2F. `digits=None`
writes full precision: only for data read verbatim from committed files (the peer benchmarks).
"""
from __future__ import annotations

import csv
import importlib
import io
import json
import math
import pkgutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from tqdm import tqdm  # noqa: E402

import claims  # noqa: E402
from claims._jobs import lookup  # noqa: E402
from theory.cli import shown  # noqa: E402
from theory.io import atomic_write, atomic_write_text  # noqa: E402

from ._check import png_differences  # noqa: E402


@dataclass(frozen=True)
class Figure:
    name: str
    draw: Callable[["Context"], None]
    claims: tuple[str, ...]
    description: str
    digits: int | None = None  # significant digits of the data file's floats (None: as computed)
    floor: float = 0.0         # |x| < floor is written as 0.0


_FIGURES: dict[str, Figure] = {}


def figure(name: str, *, claims: Sequence[str] = (), digits: int | None = None,
           floor: float = 0.0):
    """Register `draw(ctx)` as the figure `name`; `claims` are the ledger ids it illustrates;
    `digits` and `floor` the precision of its data file (module docstring)."""
    if digits is not None and (isinstance(digits, bool) or not isinstance(digits, int)
                               or not 1 <= digits <= 17):
        raise ValueError(f"digits must be an int in 1..17 or None, got {digits!r}")
    if not (isinstance(floor, (int, float)) and math.isfinite(floor) and floor >= 0):
        raise ValueError(f"floor must be a finite float >= 0, got {floor!r}")

    def wrap(draw: Callable[[Context], None]):
        if name in _FIGURES and _FIGURES[name].draw is not draw:
            raise ValueError(f"figure {name} registered twice")
        doc = (draw.__doc__ or "").strip().splitlines()
        _FIGURES[name] = Figure(name, draw, tuple(claims), doc[0] if doc else "", digits,
                                float(floor))
        return draw

    return wrap


def rounded(x: Any, digits: int | None, floor: float = 0.0) -> Any:
    """`x` (numbers, numpy/torch arrays and scalars, dicts, lists, tuples) with every float rounded
    to `digits` significant digits and every float with |x| < floor replaced by 0.0 (−0.0 by 0.0
    too); a float dict key (a κ grid, a step size) is rounded to `digits` as well, and two keys
    that round alike raise ValueError. The rounding of a decimal string is exact and
    machine-independent, so two machines whose values differ in the last bits write the same file
    unless a value lies on a rounding boundary. `digits=None` keeps full precision (the floor still
    applies)."""
    if isinstance(x, float):
        if not math.isfinite(x):
            return x
        if abs(x) < floor or x == 0.0:
            return 0.0
        return x if digits is None else float(f"{x:.{digits}g}")
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            key = rounded(k, digits) if isinstance(k, float) else k
            if key in out:
                raise ValueError(f"digits: keys {k!r} and another round to the same {key!r}")
            out[key] = rounded(v, digits, floor)
        return out
    if isinstance(x, (list, tuple)):
        return [rounded(v, digits, floor) for v in x]
    if hasattr(x, "tolist") and not isinstance(x, (str, bytes)):  # numpy / torch arrays, scalars
        return rounded(x.tolist(), digits, floor)
    return x


def load() -> dict[str, Figure]:
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):  # this package's modules
        if not info.name.startswith("_"):
            importlib.import_module(f"figures.{info.name}")
    return dict(sorted(_FIGURES.items()))


@dataclass
class Context:
    """What a figure's `draw` gets: where to write, the budget, and memoized claim evidence."""

    out: Path
    budget: str
    name: str = ""
    _results: dict[str, claims.Result] = field(default_factory=dict)
    # What this run computed, for its timing table: each claim run (id, the figure drawing when it
    # ran or "" for the ledger, seconds) and each figure's drawing time, its claims' runs excluded.
    runs: list[tuple[str, str, float]] = field(default_factory=list)
    drawn: dict[str, float] = field(default_factory=dict)

    @property
    def recompute(self) -> bool:
        """`--recompute`: recompute long studies and cached results instead of reading them. One
        switch for figures and claims: `claims.settings.recompute`, set by the command line."""
        return claims.settings.recompute

    def result(self, claim_id: str) -> claims.Result:
        """Run (once per process) the ledger claim `claim_id` at this budget."""
        if claim_id not in self._results:
            claim = lookup(claim_id, claims.load)  # imports its paper's package, not every paper's
            if claim is None:
                raise KeyError(f"claim_id: no claim {claim_id!r} in the ledger")
            start = time.perf_counter()
            result = claims.run(claim, self.budget)
            self.remember(result, self.name, time.perf_counter() - start)
        return self._results[claim_id]

    def remember(self, result: claims.Result, where: str, seconds: float) -> None:
        """Record the run of a claim (here, or in a worker process of `python -m figures --jobs`);
        the first result of a claim is the one its figures and the ledger page use."""
        self._results.setdefault(result.claim.id, result)
        self.runs.append((result.claim.id, where, seconds))

    def draw(self, figure: "Figure") -> str | None:
        """Draw `figure` here; None, or the line `python -m figures` reports when it raised."""
        self.name = figure.name
        ran, start = len(self.runs), time.perf_counter()
        try:
            figure.draw(self)
            failure = None
        except Exception as exc:  # keep going; reported at the end with a non-zero exit
            failure = f"{figure.name}: {type(exc).__name__}: {' '.join(str(exc).split())}"
        claims_seconds = sum(s for _, _, s in self.runs[ran:])
        self.drawn[figure.name] = time.perf_counter() - start - claims_seconds
        return failure

    def evidence(self, claim_id: str) -> claims.Evidence:
        r = self.result(claim_id)
        if r.evidence is None:  # its first line, the exception; the traceback is on the ledger page
            exception = (r.error or "").partition("\n")[0]
            raise RuntimeError(f"claim {claim_id} raised while drawing {self.name}: {exception}")
        return r.evidence

    def path(self, suffix: str) -> Path:
        return self.out / f"{self.name}{suffix}"

    def _data(self, x: Any) -> Any:
        """`x` as the data file holds it: JSON values at the figure's stated precision (a name
        that is not registered, e.g. a test's probe, writes full precision)."""
        spec = _FIGURES.get(self.name)
        return claims.jsonable(rounded(x, spec.digits if spec else None,
                                       spec.floor if spec else 0.0))

    def save(self, fig: "plt.Figure", suffix: str = ".png") -> Path:
        """Save deterministically (no software/date metadata) and close the figure. An existing
        PNG that is the same image within `--check`'s tolerance (figures/_check.py: a few edge
        pixels whose antialiasing flips when matplotlib's log and affine transforms, which run on
        numpy's CPU-specific kernels, move a point by a last-bit amount) keeps its bytes, so a
        rerun on another machine changes no file for such noise."""
        meta = {"Software": None} if suffix == ".png" else {"Date": None, "Creator": None}
        buf = io.BytesIO()
        fig.savefig(buf, format=suffix.lstrip("."), dpi=120, metadata=meta, bbox_inches="tight")
        plt.close(fig)
        data, path = buf.getvalue(), self.path(suffix)
        if suffix == ".png" and path.is_file() and not png_differences(path.read_bytes(), data):
            return path
        return atomic_write(path, lambda tmp: Path(tmp).write_bytes(data))

    def written(self, values: Any) -> np.ndarray:
        """`values` (an array or a sequence of floats) as the figure's data file writes them: a
        figure that draws quantities at the rounding level (defects of structure-preserving maps)
        draws these, so that its image, like its data, does not depend on the machine's float
        kernels."""
        return np.asarray(self._data(np.asarray(values, dtype=float)), dtype=float)

    def save_json(self, data: Mapping[str, Any]) -> Path:
        """`<name>.json`: keys sorted, floats at the figure's precision."""
        return atomic_write_text(self.path(".json"),
                                 json.dumps(self._data(data), indent=2, sort_keys=True) + "\n")

    def save_csv(self, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> Path:
        """`<name>.csv`: floats at the figure's precision, written as Python writes them (always
        with a point or an exponent, so a float column never reads as integers)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(header)
        for row in rows:
            w.writerow([repr(v) if isinstance(v, float) else v for v in self._data(row)])
        return atomic_write_text(self.path(".csv"), buf.getvalue())

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        """Resume support for long intermediate results: `compute()` stored as JSON under
        `<out>/.cache/` and reused on rerun (recomputed under `--recompute`). The file records the
        figure, key and budget it was written for; one that does not parse or was written for
        something else is named in one line on stderr and rebuilt. Written atomically, so an
        interrupted run leaves the previous file intact."""
        path = self.out / ".cache" / f"{self.name}-{key}-{self.budget}.json"
        stamp = {"figure": self.name, "key": key, "budget": self.budget}
        if path.exists() and not self.recompute:
            record, problem = _read_cache(path, stamp)
            if problem is None:
                return record["value"]
            rerun = " ".join(["python -m figures", *(["--quick"] if self.budget == "quick" else []),
                              "--only", self.name, "--out", shown(self.out)])
            tqdm.write(f"figures: cache {shown(path)} {problem}; rebuilding it now "
                       f"(`{rerun}` rebuilds it)", file=sys.stderr)
        value = claims.jsonable(compute())
        atomic_write_text(path, json.dumps({**stamp, "value": value}, sort_keys=True))
        return value


def _read_cache(path: Path, stamp: Mapping[str, str]) -> tuple[Any, str | None]:
    """The record in the cache file `path` and None, or None and why it cannot serve `stamp`."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"is unreadable ({type(exc).__name__}: {exc})"
    if not isinstance(record, dict) or set(record) != {*stamp, "value"}:
        return None, f"is not a cache record (keys {sorted({*stamp, 'value'})})"
    written = {k: record[k] for k in stamp}
    if written != dict(stamp):
        return None, f"is stale (written for {written})"
    return record, None

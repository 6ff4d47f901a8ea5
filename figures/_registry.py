"""The figure registry: one module per figure, each registering `draw(ctx)` with `@figure`.

A figure writes `<out>/<name>.png` and its data next to it (`<name>.json` or `<name>.csv`),
deterministically: fixed seeds, no timestamps, so a rerun yields identical bytes.
"""
from __future__ import annotations

import csv
import importlib
import io
import json
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import claims  # noqa: E402
from theory.io import atomic_write, atomic_write_text  # noqa: E402


@dataclass(frozen=True)
class Figure:
    name: str
    draw: Callable[["Context"], None]
    claims: tuple[str, ...]
    description: str


_FIGURES: dict[str, Figure] = {}


def figure(name: str, *, claims: Sequence[str] = ()):
    """Register `draw(ctx)` as the figure `name`; `claims` are the ledger ids it illustrates."""

    def wrap(draw: Callable[[Context], None]):
        if name in _FIGURES and _FIGURES[name].draw is not draw:
            raise ValueError(f"figure {name} registered twice")
        doc = (draw.__doc__ or "").strip().splitlines()
        _FIGURES[name] = Figure(name, draw, tuple(claims), doc[0] if doc else "")
        return draw

    return wrap


def load() -> dict[str, Figure]:
    from . import __path__ as pkg_path
    for info in pkgutil.iter_modules(pkg_path):
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

    def result(self, claim_id: str) -> claims.Result:
        """Run (once per process) the ledger claim `claim_id` at this budget."""
        if claim_id not in self._results:
            registered = claims.load()
            if claim_id not in registered:
                raise KeyError(f"claim_id: no claim {claim_id!r} in the ledger")
            self._results[claim_id] = claims.run(registered[claim_id], self.budget)
        return self._results[claim_id]

    def evidence(self, claim_id: str) -> claims.Evidence:
        r = self.result(claim_id)
        if r.evidence is None:
            raise RuntimeError(f"claim {claim_id} raised while drawing {self.name}: {r.error}")
        return r.evidence

    def path(self, suffix: str) -> Path:
        return self.out / f"{self.name}{suffix}"

    def save(self, fig: "plt.Figure", suffix: str = ".png") -> Path:
        """Save deterministically (no software/date metadata) and close the figure."""
        meta = {"Software": None} if suffix == ".png" else {"Date": None, "Creator": None}
        path = atomic_write(self.path(suffix), lambda tmp: fig.savefig(
            tmp, format=suffix.lstrip("."), dpi=120, metadata=meta, bbox_inches="tight"))
        plt.close(fig)
        return path

    def save_json(self, data: Mapping[str, Any]) -> Path:
        return atomic_write_text(self.path(".json"),
                                 json.dumps(claims.jsonable(data), indent=2, sort_keys=True) + "\n")

    def save_csv(self, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> Path:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(header)
        for row in rows:
            w.writerow([f"{v:.10g}" if isinstance(v, float) else v for v in claims.jsonable(row)])
        return atomic_write_text(self.path(".csv"), buf.getvalue())

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        """Resume support for long studies: JSON result stored under `.cache/`, reused on rerun."""
        path = self.out / ".cache" / f"{self.name}-{key}-{self.budget}.json"
        if path.exists():
            return json.loads(path.read_text())
        value = claims.jsonable(compute())
        atomic_write_text(path, json.dumps(value, sort_keys=True))
        return value

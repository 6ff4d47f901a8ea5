"""The claims ledger: every checked statement of the five papers, one package per paper.

`claims/<paper>/` holds a paper's claims in modules named for its sections (its `__init__`
docstring is the paper's map) and its inventory; the shared machinery sits at the top of this
package: `_ledger`, `_stats`, `_report`, `_inventory`, `_printed`, `_misprints`, `_committed`, and
for the training path's claims `_experiment` and `_protocol` (the loss tables), `_structure`
(counts and causality without training) and `_wallclock`/`_gpu` (step times).

`load(papers)` imports the packages of `papers` (default: all five; each module registers its
claims on import); `select(only)` filters by paper tag or claim id and
loads only the packages it needs; `run_all` runs them at a budget.
"""
from __future__ import annotations

import importlib
import pkgutil

from ._ledger import (BUDGETS, ERROR, KINDS, PAPERS, VERDICTS, Claim, Evidence, Result, Slip, claim, decide,
                      decide_readings, disagreement, jsonable, reading, register, registry, run, settings,
                      verdict_from)

__all__ = ["BUDGETS", "ERROR", "KINDS", "PAPERS", "VERDICTS", "Claim", "Evidence", "Result", "Slip", "claim", "decide",
           "decide_readings", "disagreement", "jsonable", "reading", "register", "registry", "run", "settings",
           "verdict_from", "load", "select", "run_all"]


def load(papers=None) -> dict[str, Claim]:
    """Import the claim modules of the packages of `papers` (default: every paper); return the
    registry (every claim registered so far), sorted by id."""
    for package in papers or PAPERS:
        module = importlib.import_module(f"{__name__}.{package}")
        for info in pkgutil.iter_modules(module.__path__):
            if not info.name.startswith("_"):
                importlib.import_module(f"{__name__}.{package}.{info.name}")
    return dict(sorted(registry().items()))


def select(only: list[str] | None = None) -> list[Claim]:
    """Claims whose paper tag or id is in `only` (all when `only` is empty)."""
    if not only:
        return list(load().values())
    claims = load(sorted({o.partition(":")[0] for o in only if o.partition(":")[0] in PAPERS}) or None)
    unknown = [o for o in only if o not in PAPERS and o not in claims]
    if unknown:
        raise ValueError(f"only: unknown paper tag or claim id {unknown}; "
                         f"papers are {sorted(PAPERS)}")
    return [c for c in claims.values() if c.paper in only or c.id in only]


def run_all(claims: list[Claim], budget: str = "quick", progress: bool = False,
            jobs: int = 1) -> list[Result]:
    """Run `claims` at `budget`, in their order; `jobs` > 1 runs them in that many worker
    processes (`claims._jobs`: the same results, in the same order)."""
    claims = list(claims)
    if jobs > 1 and len(claims) > 1:
        from ._jobs import run_pooled
        return run_pooled(claims, budget, jobs, load, progress)
    if progress:
        from tqdm import tqdm
        claims = tqdm(claims, desc=f"claims ({budget})", unit="claim")
    return [run(c, budget) for c in claims]

"""The claims ledger: every checked statement of the five papers, one module per paper.

`load()` imports every paper module in this package (each registers its claims on import);
`select(only)` filters by paper tag or claim id; `run_all` runs them at a budget.
"""
from __future__ import annotations

import importlib
import pkgutil

from ._ledger import (BUDGETS, ERROR, PAPERS, VERDICTS, Claim, Evidence, Result, claim, decide,
                      decide_readings, jsonable, reading, register, registry, run, settings,
                      verdict_from)

__all__ = ["BUDGETS", "ERROR", "PAPERS", "VERDICTS", "Claim", "Evidence", "Result", "claim", "decide",
           "decide_readings", "jsonable", "reading", "register", "registry", "run", "settings",
           "verdict_from", "load", "select", "run_all"]


def load() -> dict[str, Claim]:
    """Import every paper module of the package and return the registry, sorted by id."""
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    return dict(sorted(registry().items()))


def select(only: list[str] | None = None) -> list[Claim]:
    """Claims whose paper tag or id is in `only` (all when `only` is empty)."""
    claims = load()
    if not only:
        return list(claims.values())
    unknown = [o for o in only if o not in PAPERS and o not in claims]
    if unknown:
        raise ValueError(f"only: unknown paper tag or claim id {unknown}; "
                         f"papers are {sorted(PAPERS)}")
    return [c for c in claims.values() if c.paper in only or c.id in only]


def run_all(claims: list[Claim], budget: str = "quick", progress: bool = False) -> list[Result]:
    if progress:
        from tqdm import tqdm
        claims = tqdm(claims, desc=f"claims ({budget})", unit="claim")
    return [run(c, budget) for c in claims]

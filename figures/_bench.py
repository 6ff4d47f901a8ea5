"""Peer benchmarks as committed measurements (figures `bench-sinkhorn`, `bench-lm-peer`, `bench-pepit`).

A timing is not byte-reproducible, so a bench figure separates measuring from drawing: its
module exposes `measure(budget) -> result` and `draw_from(ctx, result)`. The full budget draws the
committed measurement results/bench/<figure>.json (`claims._committed`: config and provenance,
commit, versions, CPU model, threads); `--recompute` re-measures and rewrites that file; the quick
budget always measures (seconds, toy sizes) and never writes under results/. The figure writes the
result it drew as <figure>.json next to its PNG.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from claims._committed import (RESULTS, THREADS, StaleResult, committed_path, package_versions,  # noqa: F401 (re-exported)
                               provenance, read_committed, write_committed)


def measured(ctx, config: Callable[[str], Mapping[str, Any]], measure: Callable[[str], dict]) -> dict:
    """The result a bench figure draws (the rule of the module docstring). `config(budget)` is what
    the measurement depends on; `measure(budget)` returns a dict holding it under "config"."""
    if ctx.budget == "quick":
        return measure("quick")
    if ctx.recompute:
        result = measure(ctx.budget)
        write_committed(ctx.name, result)
        return result
    return read_committed(ctx.name, config(ctx.budget))


def ratio_axes(ax, positions, summaries, **kw) -> None:
    """Medians with their confidence intervals (`particles.lm.bench.ratio_summary` dicts)."""
    med = np.array([s["median"] for s in summaries])
    err = [med - np.array([s["ci_lo"] for s in summaries]),
           np.array([s["ci_hi"] for s in summaries]) - med]
    ax.errorbar(positions, med, yerr=err, capsize=3, **kw)


def save(ctx, fig, result: Mapping[str, Any], what: str) -> None:
    """Title the figure with `what` and the measurement's provenance, then write the PNG and the
    result it drew (<figure>.json) next to each other."""
    prov = result["provenance"]
    fig.suptitle(f"{ctx.name} ({ctx.budget}): {what}\n{prov['cpu']}, {prov['threads']} thread, "
                 f"torch {prov['torch']}, commit {prov['commit'][:12]}", fontsize=9)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json(result)

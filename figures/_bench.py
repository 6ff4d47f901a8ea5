"""Peer benchmarks as committed measurements (figures `bench-sinkhorn`, `bench-lm-peer`, `bench-pepit`).

A timing is not byte-reproducible, so a bench figure separates measuring from drawing: its
module exposes `measure(budget) -> result` and `draw_from(ctx, result)`. The full budget draws the
committed measurement results/bench/<figure>.json (one JSON with its config and provenance:
commit, versions, CPU model, threads); `--recompute` re-measures and rewrites that file; the quick
budget always measures (seconds, toy sizes) and never writes under results/. The figure writes the
result it drew as <figure>.json next to its PNG. Every measurement runs on one CPU thread
(`particles.threads.torch_threads(1)`): the reported numbers are ratios of times taken in one
process, interleaved round by round (`particles.lm.bench.time_interleaved`).
"""
from __future__ import annotations

import json
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np
import torch

import claims
from particles.lm import train as lm_train
from theory.io import atomic_write_text

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results" / "bench"
THREADS = 1


def package_versions(*names: str) -> dict[str, str | None]:
    """Installed versions of the named distributions (None when one is not installed)."""
    out = {}
    for name in names:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


def provenance(*packages: str) -> dict:
    """Commit, python/torch/numpy and the named packages' versions, CPU model, and the torch threads
    every bench measurement runs under (`torch_threads(THREADS)`)."""
    return {**lm_train.provenance(torch.device("cpu")), "threads": THREADS, "numpy": np.__version__,
            "clock": "process CPU time (time.process_time)", "packages": package_versions(*packages)}


class StaleResult(RuntimeError):
    """The committed measurement was taken with another configuration than the code's."""


def committed_path(name: str) -> Path:
    return RESULTS / f"{name}.json"


def read_committed(name: str, config: Mapping[str, Any]) -> dict:
    """The committed result of figure `name`; raises (naming the command that rewrites it) when the
    file is missing or unreadable, or when its config differs from `config` (naming the fields)."""
    path = committed_path(name)
    rerun = f"`python -m figures --only {name} --recompute` re-measures it"
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise FileNotFoundError(f"committed benchmark {path} is missing or unreadable "
                                f"({type(exc).__name__}); {rerun}") from exc
    if not isinstance(result, dict) or "config" not in result or "provenance" not in result:
        raise StaleResult(f"committed benchmark {path} lacks config/provenance; {rerun}")
    wanted = claims.jsonable(dict(config))
    differ = sorted(k for k in set(wanted) | set(result["config"])
                    if wanted.get(k) != result["config"].get(k))
    if differ:
        raise StaleResult(f"committed benchmark {path} is stale: config fields {differ} differ from "
                          f"the code's; {rerun}")
    return result


def write_committed(name: str, result: Mapping[str, Any]) -> Path:
    return atomic_write_text(committed_path(name),
                             json.dumps(claims.jsonable(result), indent=2, sort_keys=True) + "\n")


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

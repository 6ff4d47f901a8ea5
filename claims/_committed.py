"""Committed measurements: timings kept as results (results/bench/<name>.json) with provenance.

A timing is not byte-reproducible, so a benchmark (a bench figure, or the ledger's wall-clock
claims) separates measuring from reading: the full budget reads the committed measurement,
`--recompute` (`claims.settings.recompute`) measures again and rewrites it. A committed file whose
config differs from what the code would measure is stale and refused, naming the fields.
Every measurement runs on one CPU thread (`THREADS`); the numbers reported are ratios of times
taken in one process, interleaved round by round (`particles.lm.bench.time_interleaved`).
"""
from __future__ import annotations

import json
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Mapping

import numpy as np
import torch

from particles.lm import train as lm_train
from theory.io import atomic_write_text

from ._ledger import jsonable

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
    wanted = jsonable(dict(config))
    differ = sorted(k for k in set(wanted) | set(result["config"])
                    if wanted.get(k) != result["config"].get(k))
    if differ:
        raise StaleResult(f"committed benchmark {path} is stale: config fields {differ} differ from "
                          f"the code's; {rerun}")
    return result


def write_committed(name: str, result: Mapping[str, Any]) -> Path:
    return atomic_write_text(committed_path(name),
                             json.dumps(jsonable(result), indent=2, sort_keys=True) + "\n")



"""The GPU measurements of the papers' step times (tools/cuda_session.py, committed as
results/bench/cuda-measurements.json): reading and validating the committed file, the measurement
groups of each paper and execution, the per-round ratios of a pair, and the roofline held against
them. `claims.lm_wallclock` decides the wall-clock claims on these.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from claims._committed import committed_path, read_committed
from particles.lm import bench

# Measured on a lent GPU (tools/cuda_session.py, committed as results/bench/cuda-measurements.json):
# one optimizer step of every compared variant at the paper's size, interleaved rounds. The
# execution each paper times: seed 002 trains compiled (App. D.4, Table 6); seeds 004 ('we did not
# optimize throughput', §5) and 000 do not say, read as PyTorch's default, eager.
CUDA_MEASUREMENTS = "cuda-measurements"
PAPER_EXECUTION = {"momentum_streams": "compiled", "yurii": "eager", "sympformer": "eager"}


def cuda_config() -> dict:
    """What a committed CUDA measurement must have measured (another config is stale)."""
    from claims.lm_wallclock import PAPER_STEPS, PAPER_VARIANTS
    return {"papers": {p: {"setting": s.as_dict(), "variants": list(PAPER_VARIANTS[p])}
                       for p, s in PAPER_STEPS.items()}}


@lru_cache(maxsize=1)
def cuda_measurements() -> dict | None:
    """The committed GPU measurement (config validated), or None where none was ever taken."""
    if not committed_path(CUDA_MEASUREMENTS).exists():
        return None
    return read_committed(CUDA_MEASUREMENTS, cuda_config())


def measured_on_cuda(paper: str, a: str, b: str) -> dict:
    """Per execution ('eager', 'compiled') with both variants measured at the paper's size: the
    `bench.ratio_summary` of the per-round ratios t_a / t_b (rounds are paired in time), with the
    device; {} when the pair was not measured."""
    out = {}
    for execution in EXECUTIONS_MEASURED:
        part = next((g for g in measured_groups(execution, paper) if a in g["variants"] and b in g["variants"]), None)
        if part:
            r = np.asarray(part["variants"][a]["step_seconds"]) / np.asarray(part["variants"][b]["step_seconds"])
            out[execution] = bench.ratio_summary(r) | {"device": part["device"], "torch": part["torch"]}
    return out


def measured_groups(execution: str, paper: str) -> list[dict]:
    """The committed measurement groups of `paper` under `execution`: variants timed together in
    interleaved rounds (key `paper`, then any `paper/<name>` measured later beside it, e.g. the
    compiled MuonFormer and AdamWFormer of 26 Nov 2026). Ratios pair rounds only within a group."""
    part = (cuda_measurements() or {}).get(execution) or {}
    return [part[k] for k in sorted(part, key=lambda k: (k != paper, k)) if k == paper or k.startswith(paper + "/")]


EXECUTIONS_MEASURED = ("eager", "compiled")  # the roofline's "eager" and "fused" (ideal fusion) beside them
PREDICTED_AS = {"eager": "eager", "compiled": "fused"}


def cuda_check(paper: str, comparisons: dict[str, dict]) -> dict | str:
    """The roofline's paper-size prediction held against the GPU measurement, per pair
    (`comparisons`: 'a / b' -> `comparison`) and execution: measured median, predicted H100 ratio,
    relative error (a GPU check of the model; the measurement itself is on the device named)."""
    m = cuda_measurements()
    if m is None:
        return ("no GPU measurement committed: the H100 ratios are roofline predictions from counted "
                "FLOPs and bytes")
    rows = {}
    for name, comp in comparisons.items():
        a, b = name.split(" / ")
        for execution, meas in measured_on_cuda(paper, a, b).items():
            pred = comp["h100"][PREDICTED_AS[execution]]
            rows.setdefault(f"{a} / {b}", {})[execution] = {
                "measured": meas["median"], "measured_ci": [meas["ci_lo"], meas["ci_hi"]],
                "ci_coverage": meas["ci_coverage"], "rounds": meas["rounds"],
                f"predicted_h100_{PREDICTED_AS[execution]}": pred, "rel_error": pred / meas["median"] - 1}
    return {"device": next((p["device"] for x in EXECUTIONS_MEASURED for p in (m.get(x) or {}).values()), None),
            "excluded": m["provenance"].get("excluded", {}), "note": m["provenance"].get("note", ""),
            "pairs": rows}

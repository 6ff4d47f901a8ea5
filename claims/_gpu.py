"""The GPU measurements of the papers' step times (tools/cuda_session.py, committed as
results/bench/cuda-measurements.json): reading and validating the committed file, the measurement
groups of each paper and execution, the per-round ratios of a pair, and the roofline held against
them. The wall-clock claims (`claims._wallclock`) are decided on these.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from claims._committed import committed_path, read_committed
from claims.momentum_streams.diagnostics import MOMENTUM_002, SYMPFORMER_SOFTMAX
from particles.lm import bench
from particles.lm import cost_model as cm

# One optimizer step per device at each paper's stated size (GPT-2 BPE vocabulary 50,304;
# bfloat16 autocast as traced by CPU autocast: seed 000 trains in float16, the same bytes):
PAPER_STEPS = {
    # seed 002 App. D.1-D.4: 12L/12H/768, T = 1024; micro-batch 8, 60 accumulation steps on
    # 2-GPU DDP (480 sequences per step: 30 micro-batches per GPU); Muon on 2-D weights + AdamW
    "momentum_streams": cm.StepSetting(12, 12, 768, 1024, 50_304, batch_size=8, accumulation=30,
                                       autocast="bfloat16", optimizer="muon"),
    # seed 004 §5 'Training': 12L/12H/768, T = 1024, 30 sequences per micro-step on 2x H200
    # (15 per GPU) x 16 accumulation steps = 491,520 tokens per step; the AdamW-Muon recipe
    "yurii": cm.StepSetting(12, 12, 768, 1024, 50_304, batch_size=15, accumulation=16,
                            autocast="bfloat16", optimizer="muon"),
    # seed 000 App. B (Table 1): 8L/8H/64, block 512, batch 6, 16 accumulation steps, AdamW only
    "sympformer": cm.StepSetting(8, 8, 64, 512, 50_304, batch_size=6, accumulation=16,
                                 autocast="bfloat16", optimizer="adamw"),
}
PAPER_VARIANTS = {
    "momentum_streams": ("gd-lt", *MOMENTUM_002, "adamw", "rmsprop", "soap", "shampoo", "muon"),
    "yurii": ("gd-lt", "polyak-euler", "nesterov-euler", "polyak-lt", "nesterov-lt"),
    "sympformer": ("gd-lt", "nesterov-lt", *SYMPFORMER_SOFTMAX),
}

# Measured on a lent GPU (tools/cuda_session.py, committed as results/bench/cuda-measurements.json):
# one optimizer step of every compared variant at the paper's size, interleaved rounds. The
# execution each paper times: seed 002 trains compiled (App. D.4, Table 6); seeds 004 ('we did not
# optimize throughput', §5) and 000 do not say, read as PyTorch's default, eager.
CUDA_MEASUREMENTS = "cuda-measurements"
PAPER_EXECUTION = {"momentum_streams": "compiled", "yurii": "eager", "sympformer": "eager"}


def cuda_config() -> dict:
    """What a committed CUDA measurement must have measured (another config is stale)."""
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

"""bench-ensemble: the seeds of one arm trained together as one `torch.func` ensemble
(`particles.lm.bench.Ensemble`: stacked parameters, vmap of the per-model gradient, one AdamW)
against the same seeds trained one after the other (issue 12, item 4: train seeds together where
that is faster, and say by how much). Committed measurement, one thread (figures/_bench.py).

Each seed has its own batch (the studies pair arms by seed, so each seed keeps its own batch
order); both sides do the same arithmetic. speedup = t_one_after_the_other / t_together per
interleaved round, its median with a distribution-free confidence interval: above 1 the ensemble
is faster. On one CPU thread it is not: `scaled_dot_product_attention` has no vmap batching rule
(torch falls back to a per-sample loop), and with a plain matmul-softmax attention, which has one,
the ensemble still lost (0.88x and 0.97x of the one-after-the-other SDPA steps in a side
measurement): each seed's matmuls already keep the core busy, so stacking them saves nothing. The
studies therefore train one run per process, one process per core.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure
from figures import _bench
from particles.lm import bench

N_MODELS = 3  # the studies' seeds per arm (>= 3)


def config(budget: str) -> dict:
    return {"variant": bench.BASELINE, "n_models": N_MODELS, "threads": _bench.THREADS,
            "settings": {label: {"model": s["config"].as_dict(), "batch_size": s["batch_size"],
                                 "rounds": s["rounds"], "steps": s["steps"]}
                         for label, s in bench.ensemble_settings(budget).items()}}


def measure(budget: str) -> dict:
    result = bench.ensemble_speedup(budget, n_models=N_MODELS, threads=_bench.THREADS)
    return {"config": config(budget), "ensemble": result,
            "summary": {label: c["speedup"] for label, c in result["configs"].items()},
            "provenance": _bench.provenance("torch", "numpy")}


def draw_from(ctx: Context, result: dict) -> None:
    configs = result["ensemble"]["configs"]
    labels = list(configs)
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(11, 3.6))
    x, w = np.arange(len(labels)), 0.38
    for i, (side, color) in enumerate((("one after the other", "C0"), ("together", "C1"))):
        a0.bar(x + (i - 0.5) * w, [configs[c]["tokens_per_s"][side] for c in labels], w, color=color,
               label=side)
    a0.set_xticks(x, labels, fontsize=8)
    a0.set_ylabel(f"training tokens / s ({result['config']['n_models']} seeds, median round)")
    a0.legend(fontsize=8)
    _bench.ratio_axes(a1, x, [configs[c]["speedup"] for c in labels], fmt="o", color="C1")
    a1.axhline(1.0, color="k", lw=0.8)
    a1.set_xticks(x, labels, fontsize=8)
    a1.set_xlim(-0.6, len(labels) - 0.4)
    cov = min(configs[c]["speedup"]["ci_coverage"] for c in labels)
    a1.set_ylabel(f"speedup of the ensemble (median, {cov:.1%} CI)")
    a1.set_title("t(one after the other) / t(together); > 1: the ensemble is faster", fontsize=9)
    a1.grid(alpha=0.3)
    _bench.save(ctx, fig, result, f"{result['config']['n_models']} seeds of {result['config']['variant']} "
                                  "as one torch.func ensemble vs one after the other")


# Data precision (figures/_registry.py): the committed measurement copied as read (a timing is
# measured, not recomputed: the full budget reads results/bench/, so the file reproduces byte
# for byte); no rounding.
DIGITS, FLOOR = None, 0.0


@figure("bench-ensemble", digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """Seeds of one arm as one torch.func ensemble vs one after the other: tokens/s and speedup."""
    draw_from(ctx, _bench.measured(ctx, config, measure))


def summary_markdown(result: dict) -> str:
    """The docs/benchmarks.md table of a measurement (tests/test_bench.py checks the page quotes it)."""
    lines = ["| configuration | tokens/s one after the other | tokens/s together | speedup (median [CI]) |",
             "|---|---|---|---|"]
    for label, c in result["ensemble"]["configs"].items():
        s, t = c["speedup"], c["tokens_per_s"]
        lines.append(f"| {label} | {t['one after the other']:.0f} | {t['together']:.0f} | "
                     f"{s['median']:.2f}× [{s['ci_lo']:.2f}, {s['ci_hi']:.2f}] ({s['ci_coverage']:.1%}) |")
    return "\n".join(lines)

"""flatness: seed 002 §6.1 sharpness diagnostics (App. G) of trained models of the main study."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from claims.momentum_streams import diagnostics as lmd
from figures import Context, figure
from particles.lm.variants import VARIANTS

CLAIM = "momentum_streams:sec-6.1-flatness"


# Data precision (figures/_registry.py): means, CIs and tests over seeds of the committed
# diagnostics, decided at 3 digits on the page (seed noise ~1e-2 relative); 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("flatness", claims=[CLAIM], digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """tr(H)/N, λ_max and the filter-normalized loss curve per variant (mean ± std over seeds)."""
    ev = ctx.evidence(CLAIM)
    study = lmd.flatness_study(ctx.budget)  # the per-seed rows the claim summarized
    stats = ev.numbers["stats"]
    variants = list(study)
    labels = [VARIANTS[v].label.split(" (")[0] for v in variants]
    x = np.arange(len(variants))

    fig, axes = plt.subplots(1, 4, figsize=(16, 3.8))
    for ax, key, title, scale in ((axes[0], "trace_per_param", "tr(H)/N  (×1e-3)", 1e3),
                                  (axes[1], "lambda_max", "λ_max (power iteration)", 1.0),
                                  (axes[2], "curve_range", "filter-normalized loss range", 1.0)):
        mean = np.array([stats[v][key]["mean"] for v in variants]) * scale
        std = np.array([stats[v][key]["std"] or 0.0 for v in variants]) * scale
        ax.bar(x, mean, yerr=std, color="tab:blue", alpha=0.8, capsize=3, label="measured")
        for i, v in enumerate(variants):
            ax.plot(np.full(len(study[v]), i), [r[key] * scale for r in study[v]], "k.", ms=4)
        if key == "trace_per_param":
            paper = [lmd.PAPER_TRACE_PER_PARAM.get(v, np.nan) for v in variants]
            ax.plot(x, paper, "rD", label="paper Fig. 3(a) (OWT)")
            ax.legend(fontsize=7)
        ax.set_xticks(x, labels, rotation=20, fontsize=8)
        ax.set_title(title, fontsize=9)
    ax = axes[3]
    for v, label in zip(variants, labels):
        curves = np.array([r["curve"] for r in study[v]])
        alphas = study[v][0]["alphas"]
        ax.plot(alphas, curves.mean(0), label=label)
        if len(curves) > 1:
            ax.fill_between(alphas, curves.mean(0) - curves.std(0, ddof=1),
                            curves.mean(0) + curves.std(0, ddof=1), alpha=0.2)
    ax.set_xlabel("α  (θ + α d, d filter-normalized per tensor, eq. (5))")
    ax.set_ylabel("validation loss")
    ax.set_title("φ(α), mean ± std over seeds", fontsize=9)
    ax.legend(fontsize=7)
    fig.suptitle(f"flatness ({ctx.budget}, seeds {ev.numbers['seeds']}): {CLAIM} → {ev.verdict}",
                 fontsize=10)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json({"verdict": ev.verdict, "criterion": ev.criterion, "numbers": ev.numbers,
                   "per_seed": study})

"""jacobian-diagnostics: seed 002 §5.3 full-block Jacobian spectra of trained models of the main study,
laid out as the paper's Figure 2 (a)-(d)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from claims.momentum_streams import diagnostics as lmd
from figures import Context, figure
from particles.lm.variants import VARIANTS

CLAIM = "momentum_streams:sec-5.3-jacobian"


# Data precision (figures/_registry.py): means, CIs and tests over seeds of the committed Jacobian
# diagnostics, decided at 3 digits on the page (seed noise ~1e-2 relative); 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("jacobian-diagnostics", claims=[CLAIM], digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """P vs validation loss, layerwise log σ_min^eff, stable rank and spread per variant."""
    ev = ctx.evidence(CLAIM)
    study = lmd.jacobian_study(ctx.budget)  # the per-seed rows the claim summarized
    # the other reading of the unstated cutoff (float64's rank tolerance), where it is computable:
    # its exploration (main-replica, ×) and its confirmatory sample (main-confirm, +)
    tails = [(ev.numbers["rank_tolerance_exploration"].get("per_model", {}), "x"),
             (ev.numbers["rank_tolerance_source"].get("per_model", {}), "+")]
    fig, axes = plt.subplots(1, 4, figsize=(17, 3.8))
    for k, (v, rows) in enumerate(study.items()):
        color, label = f"C{k}", VARIANTS[v].label.split(" (")[0]
        axes[0].plot([r["val_loss_full"] for r in rows], [r["persistence"] for r in rows], "o",
                     color=color, label=label)
        for tail, marker in tails:
            if v in tail:
                axes[0].plot(tail[v]["val_loss_full"], tail[v]["persistence_rank_tolerance"], marker, color=color)
        for ax, key in zip(axes[1:], ("log_min_gain", "stable_rank", "spread")):
            per_layer = np.array([r[key] for r in rows])
            layers = np.arange(1, per_layer.shape[1] + 1)
            ax.plot(layers, per_layer.mean(0), "o-", color=color, label=label)
            if len(rows) > 1:
                ax.fill_between(layers, per_layer.min(0), per_layer.max(0), color=color, alpha=0.15)
    for (tail, marker), what in zip(tails, ("exploration, main-replica", "confirmation, main-confirm")):
        if tail:
            axes[0].plot([], [], marker, color="0.4", label=f"{marker}: P at float64's rank tolerance ({what})")
    axes[0].set_xlabel("validation loss (full split)")
    axes[0].set_ylabel("P = Σ_ℓ log σ_min^eff(J_ℓ)")
    confirmed = ev.numbers["spearman_test_rank_tolerance"]
    explored = ev.numbers["rank_tolerance_exploration"].get("spearman_test")
    at_tolerance = (f" (+ {confirmed['rho']:.2f})" if confirmed else
                    f" (× {explored['rho']:.2f})" if explored else "")
    axes[0].set_title(f"(a) min-gain persistence vs loss; Spearman ρ = "
                      f"{ev.numbers['spearman_persistence_vs_loss']:.2f}"
                      + at_tolerance, fontsize=9)
    for ax, title in zip(axes[1:], ("(b) log σ_min^eff(J_ℓ)", "(c) stable rank ‖J‖_F²/‖J‖_2²",
                                    "(d) spread σ_max^eff/σ_min^eff")):
        ax.set_xlabel("layer ℓ")
        ax.set_title(title + " (mean, seed range)", fontsize=9)
    axes[3].set_yscale("log")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"jacobian-diagnostics ({ctx.budget}, seeds {ev.numbers['seeds']}, cutoff "
                 f"{ev.numbers['cutoff']:g}): {CLAIM} → {ev.verdict}", fontsize=10)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json({"verdict": ev.verdict, "criterion": ev.criterion, "numbers": ev.numbers,
                   "per_seed": study})

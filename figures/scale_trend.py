"""scale-trend: each paper's headline gap against model size, from the committed runs (issue 25
item 7): the paired difference d = loss(b) - loss(a) (positive: the paper's sign) with its 95% CI
over seeds, at the proxy size the ledger decides on and one size up (width 128), and at width 128
with the smaller size's training tokens per parameter (`wide-tpp`, drawn slightly to the right)."""
from __future__ import annotations

import matplotlib.pyplot as plt

from claims._experiment import SCALE_TREND
from figures import Context, figure

# Data precision (figures/_registry.py): paired loss differences and their CIs over seeds of the
# committed runs (seed noise ~1e-3 on losses ~1-3; the papers print 4 decimals): 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("scale-trend", claims=list(SCALE_TREND), digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """Headline gaps (d > 0: the paper's sign) with 95% CIs against parameters, per comparison."""
    panels = [(cid, label, trend) for cid in SCALE_TREND
              for label, trend in ctx.evidence(cid).numbers["scale_trend"].items()]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.6), squeeze=False)
    data = {}
    for ax, (cid, label, trend) in zip(axes[0], panels):
        pts = trend["points"]
        for i, p in enumerate(pts):
            lo, hi = p["ci95"]
            same_size = sum(q["params"] == p["params"] for q in pts[:i])   # side by side, not on top
            ax.errorbar([p["params"] * 1.08 ** same_size], [p["mean_diff"]],
                        yerr=[[p["mean_diff"] - lo], [hi - p["mean_diff"]]], fmt="o", capsize=4,
                        label=f"{p['study']} ({p['n_seeds']} seeds, {p['tokens_per_param']:.0f} tokens/param)")
        for m in trend["not_yet_trained"]:
            ax.axvline(m["params"], color="0.7", ls=":", lw=1)
            ax.text(m["params"], 0, f" {m['study']}: not trained", rotation=90, fontsize=7, color="0.4",
                    va="bottom")
        ax.axhline(0, color="k", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("parameters (baseline arm)")
        ax.set_ylabel("d = loss(b) − loss(a), nats/byte")
        n_sizes = len(pts) + len(trend["not_yet_trained"])
        moves = {True: "moves toward the paper's sign", False: "moves away from it",
                 None: f"{len(pts)} of {n_sizes} sizes trained"}[trend["toward_paper_sign"]]
        ax.set_title(f"{cid}\n{label}: {moves}", fontsize=8)
        ax.grid(alpha=0.3)
        if pts:
            ax.legend(fontsize=7)
        data[f"{cid} | {label}"] = trend
    fig.suptitle("scale-trend: headline gaps against model size (committed runs; d > 0 is the paper's sign)",
                 fontsize=9)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json(data)

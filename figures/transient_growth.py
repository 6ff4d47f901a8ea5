"""Non-normal transient growth of the momentum iteration matrices (seed 002, Lemma F.2)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure

LABELS = {"heavy_ball_tuned": "heavy ball (Lemma F.2 tuning)",
          "nesterov_classical": "NAG (classical tuning)", "tmm_vsfl": "TMM (VSFL tuning)"}


# Data precision (figures/_registry.py): ‖T^N‖/ρ^N of 2×2 iteration matrices, computed by
# products that keep relative accuracy (the smallest, ~1e-18, decay geometrically and are
# accurate); the check compares with 1 + (1+ρ)N at 1e-9 relative: 6 digits draw the curves.
DIGITS, FLOOR = 6, 0.0


@figure("transient-growth", claims=["momentum_streams:lemma-F.2"], digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """‖T(λ)^N‖/ρ^N against depth N at λ = μ, √(μL), L (κ = 100): no constant C_mom bounds it."""
    data = ctx.evidence("momentum_streams:lemma-F.2").numbers["power_norm_over_rho^N_kappa100"]
    fig, axes = plt.subplots(1, len(data), figsize=(13, 4), sharey=True)
    rows = []
    for ax, (method, curves) in zip(axes, data.items()):
        for (point, ratio), color in zip(curves.items(), ("C0", "C1", "C3")):
            n = np.arange(len(ratio))
            ax.plot(n, ratio, color=color, label=f"λ = {point}")
            rows += [(method, point, int(k), float(r)) for k, r in zip(n, ratio)]
        ax.set(title=LABELS[method], xlabel="depth N", yscale="log")
        ax.grid(alpha=0.3, which="both")
    axes[0].set_ylabel("‖T(λ)^N‖₂ / ρ^N")
    axes[0].legend(fontsize=8)
    ctx.save(fig)
    ctx.save_csv(["method", "lambda", "N", "norm_over_rho_N"], rows)

"""Conformal-symplectic defect ‖DφᵀJDφ − σ_kJ‖/‖σ_kJ‖ of the one-step schemes of seed 000 §2 on a
separable and a non-separable test Hamiltonian, versus the step size."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import NullFormatter

from figures import Context, figure

LABELS = {"explicit_euler": "explicit Euler (14)", "exponential_euler": "exponential Euler (16)",
          "conformal_symplectic_euler": "conf. sympl. Euler (15), as printed",
          "conformal_symplectic_euler_implicit": "(15) with implicit kick (correction)",
          "conformal_midpoint": "conformal midpoint (Strang)"}
FLOOR = 1e-17  # plotted in place of an exact zero


@figure("scheme-defects", claims=["sympformer:eq-14", "sympformer:eq-15",
                                  "sympformer:eq-15-nonseparable"])
def draw(ctx: Context) -> None:
    """Max relative conformal defect (factor σ_k) over sample points, per scheme and step size."""
    panels = {"separable H": ctx.evidence("sympformer:eq-15").numbers["sweep"],
              "non-separable H": ctx.evidence("sympformer:eq-15-nonseparable").numbers["sweep"]}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    data = {}
    for ax, (title, sweep) in zip(axes, panels.items()):
        h = np.asarray(sweep["h"])
        for scheme, defect in sweep["relative_defect"].items():
            ax.loglog(h, np.maximum(defect, FLOOR), "o-", ms=3, label=LABELS[scheme])
        ax.axhline(1e-12, color="k", lw=0.8, ls=":", label="tolerance 1e-12")
        ax.set_title(f"{title} ({sweep['schedule']})", fontsize=9)
        ax.set_xlabel("step size h")
        ax.grid(True, which="both", alpha=0.3)
        ax.xaxis.set_minor_formatter(NullFormatter())
        data[title] = sweep
    axes[0].set_ylabel("max ‖DφᵀJDφ − σ_kJ‖ / ‖σ_kJ‖")
    axes[1].legend(fontsize=7, loc="center right")
    fig.suptitle("Seed 000 §2: which schemes are conformally symplectic", fontsize=10)
    ctx.save(fig)
    ctx.save_json(data)

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
COLORS = {name: f"C{i}" for i, name in enumerate(LABELS)}
FLOOR = 1e-17  # plotted in place of a defect written as 0.0 (below DATA_FLOOR: rounding level)


# Data precision (figures/_registry.py): a scheme is conformally symplectic when its relative
# defect is < 1e-12 (the check), and not when it is > 1e-6; the structure-preserving schemes sit at
# the float64 rounding level (<= 1e-15), written as 0.0 below DATA_FLOOR, the others (>= 6e-6)
# at 6 digits.
DIGITS, DATA_FLOOR = 6, 1e-13


@figure("scheme-defects", claims=["sympformer:eq-14", "sympformer:eq-15",
                                  "sympformer:eq-15-nonseparable", "sympformer:eq-15-on-34"],
        digits=DIGITS, floor=DATA_FLOOR)
def draw(ctx: Context) -> None:
    """Max relative conformal defect (factor σ_k) over sample points, per scheme and step size;
    third panel: the same defect of each scheme on the softmax system (34) (claim eq-15-on-34)."""
    panels = {"separable H": ctx.evidence("sympformer:eq-15").numbers["sweep"],
              "non-separable H": ctx.evidence("sympformer:eq-15-nonseparable").numbers["sweep"]}
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), sharey=True,
                             gridspec_kw={"width_ratios": [1, 1, 0.8]})
    data = {}
    for ax, (title, sweep) in zip(axes[:2], panels.items()):
        h = np.asarray(sweep["h"])
        for scheme, defect in sweep["relative_defect"].items():
            ax.loglog(h, np.maximum(ctx.written(defect), FLOOR), "o-", ms=3, color=COLORS[scheme],
                      label=LABELS[scheme])
        ax.axhline(1e-12, color="k", lw=0.8, ls=":",
                   label=f"tolerance 1e-12 (< {DATA_FLOOR:g}: rounding, drawn at {FLOOR:g})")
        ax.set_title(f"{title} ({sweep['schedule']})", fontsize=9)
        ax.set_xlabel("step size h")
        ax.grid(True, which="both", alpha=0.3)
        ax.xaxis.set_minor_formatter(NullFormatter())
        data[title] = sweep
    axes[0].set_ylabel("max ‖DφᵀJDφ − σ_kJ‖ / ‖σ_kJ‖")
    axes[1].legend(fontsize=7, loc="center right")
    softmax = ctx.evidence("sympformer:eq-15-on-34").numbers
    ax = axes[2]
    defects = softmax["relative_conformal_defect"]
    names = [n for n in LABELS if n in defects] + sorted(n for n in defects if n not in LABELS)
    values = np.maximum(ctx.written([defects[n] for n in names]), FLOOR)
    ax.bar(range(len(names)), values, color=[COLORS.get(n, "C7") for n in names])
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)), [LABELS.get(n, n) for n in names], rotation=35, ha="right",
                  fontsize=7)
    ax.axhline(1e-12, color="k", lw=0.8, ls=":")
    ax.set_title(f"softmax system (34), N = {softmax['N']}, d = {softmax['d']}, "
                 f"h = {softmax['h']}", fontsize=9)
    data["softmax (34)"] = {"h": softmax["h"], "relative_defect": softmax["relative_conformal_defect"]}
    fig.suptitle("Seed 000 §2: which schemes are conformally symplectic", fontsize=10)
    ctx.save(fig)
    ctx.save_json(data)

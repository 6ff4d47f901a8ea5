"""The abstract's claim, measured: attention energy against counted oracle calls, classical flow vs the
accelerated schemes (seed 000), plus the conformal-symplectic defect of each scheme on (34)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure

LABELS = {"classical": "classical flow (21), Euler", "explicit_euler": "explicit Euler (14)",
          "conformal_symplectic_euler": "conf. sympl. Euler (15)", "exponential_euler": "exponential Euler (16)",
          "ab2": "AB-2 (17)", "etd_ab2": "ETD-AB2 on (12)",
          "conformal_symplectic_euler_implicit": "sympl. Euler, implicit + damping",
          "conformal_midpoint": "conformal midpoint"}


# Data precision (figures/_registry.py): the abstract's check compares energies between schemes
# (ratios far from 1) and the defects against 1e-10; 6 digits show both. Defects below 1e-13 are
# the float64 rounding of DᵀJD (~1e-16 here; the energies are >= 7e-5 in absolute value): 0.0.
DIGITS, FLOOR = 6, 1e-13


@figure("accelerated-vs-classical", claims=["sympformer:abstract", "sympformer:eq-15-on-34"],
        digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """F^lin and F^SM after k counted oracle calls (best step size/damping per k); conformal defect on (34)."""
    ev = ctx.evidence("sympformer:abstract").numbers
    defects = ctx.evidence("sympformer:eq-15-on-34").numbers["relative_conformal_defect"]
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.4))
    rows = []
    for ax, pname in zip(axes[:2], ("linear", "softmax")):
        for method, curve in ev["curves"][pname].items():
            e = np.asarray(curve, dtype=float)
            k = np.arange(e.size)
            style = "k-" if method == "classical" else "-"
            y = e if pname == "softmax" else np.where(e > 0, e, np.nan)
            ax.plot(k, y, style, lw=1.6 if method == "classical" else 1.0, label=LABELS[method])
            rows += [(pname, method, int(i), float(v)) for i, v in zip(k, e)]
        ax.set_xlabel("oracle calls k (counted)")
        ax.grid(alpha=0.3, which="both")
    axes[0].set_yscale("log")
    axes[0].set_ylabel("F^lin(ρ_N) = ½ E yᵀWy  (V = −W, bounded below)")
    axes[0].set_title("linear attention: best (h, α) per k over the grid", fontsize=9)
    axes[1].set_yscale("symlog", linthresh=1.0)  # F^SM runs from −0.5 to −1e9: tokens fly apart
    axes[1].set_ylabel("F^SM(ρ_N)  (unbounded below; symlog)")
    axes[1].set_title("softmax attention: matched h = 0.1, α = 3/t; (33)'s particle system", fontsize=9)
    axes[0].legend(fontsize=7)
    ax = axes[2]
    names = list(defects)
    vals = np.maximum(ctx.written([defects[n] for n in names]), 1e-17)  # 0.0: rounding level
    ax.barh(range(len(names)), vals, color=["C3" if v > 1e-10 else "C2" for v in vals])
    ax.set_yticks(range(len(names)), [LABELS[n] for n in names], fontsize=8)
    ax.set_xscale("log")
    ax.axvline(1e-10, color="k", ls=":", lw=0.8)
    ax.set_xlabel("‖DᵀJD − σ_kJ‖ / ‖σ_kJ‖ on (34), h = 0.05")
    ax.set_title("conformal-symplectic defect of one step", fontsize=9)
    rows += [("defect-34", n, 0, float(defects[n])) for n in names]
    fig.suptitle("Seed 000, abstract: energy decrease per oracle call (classical vs accelerated)", fontsize=10)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_csv(["problem", "method", "k", "value"], rows)

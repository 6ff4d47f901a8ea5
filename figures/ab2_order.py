"""Error versus step size of the §2 time discretizations of seed 000 (AB-2 (17), ETD-AB2 on (12),
the first-order schemes (14)-(16), the conformal midpoint), with fitted slopes."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import NullFormatter

from figures import Context, figure

LABELS = {"ab2": "AB-2 (17) on (4)", "etd_ab2": "ETD-AB2: (17) on (12)",
          "conformal_midpoint": "conformal midpoint", "explicit_euler": "explicit Euler (14)",
          "conformal_symplectic_euler": "conf. sympl. Euler (15)",
          "exponential_euler": "exponential Euler (16), exact weight"}


# Data precision (figures/_registry.py): the check fits orders to 2 ± 0.1 from global errors
# >= 3e-7 that carry ~1e-10 relative noise across machines (DOP853 reference at rtol 1e-11), so 6
# digits keep every slope to 1e-5 and never show the noise.
DIGITS, FLOOR = 6, 0.0


@figure("ab2-order", claims=["sympformer:eq-17-order", "sympformer:eq-16"],
        digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """Global error at t0 + T vs maximal step size on uniform and variable grids, fitted slopes;
    third panel: exponential Euler (16) with the exact, the printed and the text weight."""
    study = ctx.evidence("sympformer:eq-17-order").numbers["study"]
    eq16 = ctx.evidence("sympformer:eq-16").numbers
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    rows = []
    for ax, grid in zip(axes[:2], ("uniform", "variable")):
        h = np.asarray(study[grid]["h_max"])
        for scheme, errs in study[grid]["errors"].items():
            slope = study[grid]["slopes"][scheme]
            ax.loglog(h, errs, "o-", ms=3, label=f"{LABELS[scheme]}: slope {slope:.2f}")
            rows += [(grid, scheme, float(hh), float(e), slope) for hh, e in zip(h, errs)]
        for order, style, anchor in ((1, ":", "explicit_euler"), (2, "--", "ab2")):
            e0 = study[grid]["errors"][anchor][-1]  # reference slopes through the finest point
            ax.loglog(h, 0.5 * e0 * (h / h[-1]) ** order, "k" + style, lw=0.8, label=f"∝ h^{order}")
        ax.set_title(f"{grid} grid")
        ax.text(0.03, 0.97, "\n".join(f"{k}: slope {study[grid]['slopes'][k]:.2f}"
                                       for k in ("ab2", "etd_ab2")),
                transform=ax.transAxes, va="top", fontsize=8)
        ax.set_xlabel("max step size h")
        ax.grid(True, which="both", alpha=0.3)
        ax.xaxis.set_minor_formatter(NullFormatter())
    axes[0].set_ylabel("‖(x, p)(T) − reference‖")
    axes[0].legend(fontsize=7, loc="upper left", bbox_to_anchor=(0.0, -0.14), ncol=2,
                   title="fitted slopes on the uniform grid", title_fontsize=7)
    ax = axes[2]
    labels16 = {"exact": "w_k = ∫_{t_k}^{t_k+h} (correction)", "printed": "h∫_0^h (printed (16))",
                "text": "∫_0^h (text after (16))"}
    for weight, errs in eq16["global_error"].items():
        slope = eq16["fitted_order"][weight]
        ax.loglog(eq16["h"], errs, "o-", ms=3, label=f"{labels16[weight]}: slope {slope:.2f}")
        rows += [("eq-16", f"exponential_euler/{weight}", float(hh), float(e), slope)
                 for hh, e in zip(eq16["h"], errs)]
    ax.set_title("exponential Euler (16) on ẍ + (3/t)ẋ + x = 0, t ∈ [1, 3]", fontsize=9)
    ax.set_xlabel("step size h")
    ax.grid(True, which="both", alpha=0.3)
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0.0, -0.14))
    fig.suptitle("Seed 000 §2: order of the damped-Hamiltonian schemes "
                 "(non-separable H, α = 3/t + 0.5, t ∈ [1, 3])", fontsize=10)
    ctx.save(fig)
    ctx.save_csv(["grid", "scheme", "h_max", "error", "fitted_slope"], rows)

"""The depth threshold N₀ of Theorem F.4 against the depth where momentum really wins."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure


# Data precision (figures/_registry.py): the checks read integer depths N*, N₀ off curves of
# powers ρ^N and filter maxima (relative accuracy ~1e-15; numpy's power differs in the last bit
# between float kernels); 6 digits draw the curves, the depths are integers.
DIGITS, FLOOR = 6, 0.0


@figure("threshold-N0", claims=["momentum_streams:thm-F.4", "momentum_streams:lemma-F.2"],
        digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """Printed N₀ (with constants valid to depth 12 / 48) vs the true crossing depth N*(κ)."""
    num = ctx.evidence("momentum_streams:thm-F.4").numbers
    true = num["true_threshold_N*"]
    kappa = np.array(sorted(true))
    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax0.plot(kappa, [true[k] for k in kappa], "o-", color="C3",
             label="true N*: sup_λ|q_N^HB| < ρ_van^N for all N ≥ N*")
    for depth, style in ((12, "s--"), (48, "^:")):
        printed = num["printed_N0_with_C_valid_to_depth"][depth]
        ax0.plot(kappa, [printed[k] for k in kappa], style, color="C0", mfc="none",
                 label=f"printed N₀ with C_mom = 1+(1+ρ)·{depth} (valid only to depth {depth})")
    ax0.plot(kappa, np.zeros_like(kappa), "k-", lw=0.8,
             label="printed N₀ with C_mom = 1 (the v₀ = 0 reading)")
    for depth in (12, 24):
        ax0.axhline(depth, color="gray", lw=0.6, ls="--")
        ax0.text(kappa[0], depth + 1, f"{depth} layers", fontsize=7, color="gray")
    ax0.set(xscale="log", yscale="symlog", ylim=(0, None), xlabel="κ", ylabel="depth",
            title="where the momentum bound drops below vanilla")
    ax0.legend(fontsize=7, loc="lower right")
    curve = num["bounds_vs_depth_kappa100"]
    n = np.arange(len(curve["vanilla"]))
    ax1.semilogy(n, curve["vanilla"], "k-", label="vanilla ρ_van^N (sharp)")
    ax1.semilogy(n, curve["sup_filter_heavy_ball"], color="C3",
                 label="heavy ball sup_λ |q_N(λ)| (sharp)")
    ax1.semilogy(n, curve["rho_mom^N"], color="C0", ls="--", label="C_mom ρ_mom^N with C_mom = 1")
    tuned = num["depth_12_worst_cases"][100.0]
    ax1.plot([12], [tuned["depth_tuned"]], "D", color="C2",
             label="family tuned for depth 12 (min_coeffs max_λ |q_12|)")
    ax1.plot([12], [tuned["chebyshev_floor"]], "_", color="k", ms=14,
             label="Chebyshev floor at depth 12")
    ax1.axvline(curve["true_threshold"], color="C3", ls=":", lw=1,
                label=f"N* = {curve['true_threshold']}")
    ax1.set(xlabel="depth N", ylabel="worst-case |e_N| / |e_0|", title="κ = 100")
    ax1.legend(fontsize=7)
    for ax in (ax0, ax1):
        ax.grid(alpha=0.3, which="both")
    ctx.save(fig)
    ctx.save_json({"true_threshold": true, "printed_N0": num["printed_N0_with_C_valid_to_depth"],
                   "bounds_vs_depth_kappa100": curve, "depth_12_kappa100": tuned})

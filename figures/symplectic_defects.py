"""Distributions of the symplectic defect and of log|det Dφ| for the layers of seed 001."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure

# (label, claim id, key of the defect samples, key of the log|det| samples)
MAPS = [
    ("SympNet, eq. (15)", "sp_transformer:eq-15-16", "defect_samples", "log_det_samples"),
    ("Cayley attention, general A", "sp_transformer:eq-21-not-symplectic", "standard_defect_samples",
     ("sp_transformer:eq-21-volume", "standard_log_det_samples")),
    ("Cayley attention, skew A", "sp_transformer:eq-21-not-symplectic", "skew_defect_samples",
     ("sp_transformer:eq-21-volume", "skew_log_det_samples")),
    ("softmax attention, eq. (6)", "sp_transformer:softmax-not-symplectic", "defect_samples",
     "log_det_samples"),
]
FLOOR = 1e-9  # where the samples written as 0.0 (below DATA_FLOOR: float64 rounding) are drawn


# Data precision (figures/_registry.py): the claims separate a preserved structure (defect
# < 1e-12·‖D‖², rounding level, here <= 5e-12 raw) from a violation (> 1e-6·‖D‖², here >= 1e-2
# raw); DATA_FLOOR sits in that gap: the rounding-level samples are written as 0.0, the others at
# 6 digits.
DIGITS, DATA_FLOOR = 6, 1e-8


@figure("symplectic-defects", claims=["sp_transformer:eq-15-16", "sp_transformer:eq-21-volume",
                                      "sp_transformer:eq-21-not-symplectic",
                                      "sp_transformer:softmax-not-symplectic"],
        digits=DIGITS, floor=DATA_FLOOR)
def draw(ctx: Context) -> None:
    """Symplectic defect ‖DφᵀJDφ − J‖_F and log|det Dφ| over random inputs and weights: SympNet,
    structure-preserving (Cayley) attention with general and skew A, softmax attention."""
    series = {}
    for label, cid, defect_key, logdet in MAPS:
        lcid, lkey = logdet if isinstance(logdet, tuple) else (cid, logdet)
        series[label] = (ctx.written(ctx.evidence(cid).numbers[defect_key]),
                         ctx.written(ctx.evidence(lcid).numbers[lkey]))

    fig, (ax_def, ax_vol) = plt.subplots(1, 2, figsize=(11, 4.2))
    largest = max(max(d.max(), np.abs(v).max()) for d, v in series.values())
    bins = np.logspace(np.log10(FLOOR), np.ceil(np.log10(max(largest, 1.0))), 64)  # all samples
    for label, (defect, logdet) in series.items():
        # both on log axes; rounding-level samples (written as 0.0) in the leftmost bin
        ax_def.hist(np.maximum(defect, FLOOR), bins=bins, histtype="step", lw=1.6, label=label)
        ax_vol.hist(np.maximum(np.abs(logdet), FLOOR), bins=bins, histtype="step", lw=1.6, label=label)
    for ax in (ax_def, ax_vol):
        ax.set_xscale("log")
        ax.axvline(DATA_FLOOR, color="0.6", ls=":", lw=1)
        ax.text(FLOOR, 0.98, f" < {DATA_FLOOR:g}: rounding", transform=ax.get_xaxis_transform(),
                fontsize=7, color="0.4", va="top")
    ax_def.set_xlabel(r"symplectic defect $\|D\varphi^\top J D\varphi - J\|_F$")
    ax_def.set_ylabel("count (random inputs × random weights)")
    ax_def.set_title("symplecticity (0 = symplectic)")
    ax_vol.set_xlabel(r"$|\log|\det D\varphi||$")
    ax_vol.set_title("volume (0 = volume preserving)")
    ax_vol.legend(fontsize=8, loc="upper center")
    fig.suptitle(f"seed 001: structure of SympNet and attention layers (budget {ctx.budget})", fontsize=10)
    fig.tight_layout()
    ctx.save(fig)

    rows = []
    for label, (defect, logdet) in series.items():
        rows += [(label, i, float(a), float(b)) for i, (a, b) in enumerate(zip(defect, logdet))]
    ctx.save_csv(["map", "sample", "symplectic_defect", "log_abs_det"], rows)

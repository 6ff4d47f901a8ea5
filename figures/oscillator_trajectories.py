"""Fig. 5 of seed 001: q1(t) of the coupled oscillator eq. (26) for the seven k of fig. 5 and the
test value k = 3.5 (implicit midpoint, h = 0.4, t ∈ [0, 100])."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure
from particles import oscillator


# Data precision (figures/_registry.py): implicit midpoint (Newton to 1e-13) on [0, 100]; the
# figure and fig. 5 read q1 by eye; 6 digits, far above the solver's accumulated error.
DIGITS, FLOOR = 6, 0.0


@figure("oscillator-trajectories", claims=["sp_transformer:k-3.5-training-set"],
        digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """q1 of eq. (26) for k = 0, 0.5, 0.75, 1, 2, 3, 4 (fig. 5) and the test value k = 3.5."""
    ev = ctx.evidence("sp_transformer:k-3.5-training-set").numbers
    ks = [*oscillator.K_FIG5, oscillator.K_TEST]
    trajs = {k: oscillator.trajectory(k) for k in ks}
    t = oscillator.H_STEP * np.arange(len(trajs[ks[0]]))
    fig, axes = plt.subplots(len(ks), 1, figsize=(9, 1.2 * len(ks)), sharex=True)
    for ax, k in zip(axes, ks):
        test = k == oscillator.K_TEST
        ax.plot(t, trajs[k][:, 0], lw=0.9, color="tab:red" if test else "tab:blue")
        ax.set_ylabel(f"k = {k:g}" + (" (test)" if test else ""), fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("t")
    fig.suptitle("Seed 001 fig. 5: q1(t), implicit midpoint h = 0.4 on [0, 100]; the test value "
                 f"k = 3.5 is not on our training grid linspace(0, 4, 40) (nearest "
                 f"{ev['linspace_nearest_training_k']:.4f}); it is on the step-0.1 grids",
                 fontsize=9)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_csv(["t", *[f"q1_k={k:g}" for k in ks]],
                 [(float(ti), *[float(trajs[k][i, 0]) for k in ks]) for i, ti in enumerate(t)])

"""Energy H(ẑ(t); k = 3.5) of eq. (26) along the rollouts of the four networks of seed 001 §5,
against implicit midpoint (fig. 7(d)'s "loses energy" / "keeps the same energy levels")."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure
from particles import oscillator, sp_rollouts, sp_train
from figures.oscillator_rollouts import LABELS


# Data precision (figures/_registry.py): energies of the committed rollouts (8 digits, float32
# networks) and of implicit midpoint; the check reads relative energy changes at 3 digits; 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("oscillator-energy", claims=["sp_transformer:fig-7ab", "sp_transformer:fig-7cd"],
        digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """H(ẑ(t)) per network (all seeds) and for implicit midpoint on [0, 600]."""
    change = {**ctx.evidence("sp_transformer:fig-7cd").numbers.get("energy_relative_change", {})}
    res = sp_train.collect(ctx.budget).records
    ref = sp_train.reference(sp_train.get_budget(ctx.budget).t_rollout)
    t = sp_rollouts.times(len(ref))
    E_ref = oscillator.energy(ref, oscillator.K_TEST)
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.6), sharey=True)
    header, columns = ["t", "H_implicit_midpoint"], [t, E_ref]
    for ax, (name, recs) in zip(axes, res.items()):
        for rec, color in zip(recs, ("tab:orange", "tab:green", "tab:red", "tab:purple")):
            traj = rec["rollout"]
            E = np.full(len(t), np.nan)
            finite = np.all(np.isfinite(traj), axis=-1)
            E[finite] = oscillator.energy(traj[finite], oscillator.K_TEST)
            ax.plot(t, E, lw=0.5, color=color, alpha=0.8, label=f"seed {rec['seed']}")
            header.append(f"H_{name}_seed{rec['seed']}")
            columns.append(E)
        title = LABELS[name]
        if name in change:
            title += ": Δ " + ", ".join(f"{c:+.0%}" for c in change[name])
        ax.set_title(title, fontsize=8)
        ax.set_xlabel("t")
        ax.plot(t, E_ref, color="k", lw=0.8, zorder=3, label="implicit midpoint")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    axes[0].set_ylabel("H(ẑ(t); k = 3.5)")
    fig.suptitle(f"Seed 001 §5: energy along the rollouts (budget {ctx.budget}); Δ = change of the "
                 "mean energy, last vs first tenth of [2, 600]", fontsize=9)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_csv(header, np.column_stack(columns).tolist())

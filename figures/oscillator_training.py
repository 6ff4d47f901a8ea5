"""Loss curves of the four networks of seed 001 §5 (Table 3: 2000 epochs), every seed: the one-step
training loss and the held-out k = 3.5 validation loss per epoch, log scale, with the convergence
criterion of `particles.sp_rollouts.convergence` evaluated per run."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure
from figures.oscillator_rollouts import LABELS
from particles import sp_rollouts, sp_train

CLAIMS = {"resnet": "sp_transformer:fig-7ab", "sympnet": "sp_transformer:fig-7ab",
          "transformer": "sp_transformer:fig-7cd", "sp_transformer": "sp_transformer:fig-7cd"}
COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink")


# Data precision (figures/_registry.py): committed loss curves (float32 training, stored at 7
# digits); the convergence check reads 5%-window means to 1e-2 relative; 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("oscillator-training", claims=sorted(set(CLAIMS.values())), digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """Training (solid) and k = 3.5 validation (dashed) loss per epoch, per network and seed."""
    evidence = {c: ctx.evidence(c).numbers for c in sorted(set(CLAIMS.values()))}  # (re)trains first
    got = sp_train.collect(ctx.budget)
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.8), sharey=True)
    header, columns, n_max = ["epoch"], [], max(
        [len(r["losses"]) for recs in got.records.values() for r in recs] or [1])
    for ax, (name, recs) in zip(axes, got.records.items()):
        training = evidence[CLAIMS[name]]["training"].get(name, {})
        drops = dict(zip(training.get("seeds", []), training.get("last_10pct_relative_drop", [])))
        for rec, color in zip(recs, COLORS):
            epochs = np.arange(1, len(rec["losses"]) + 1)
            drop = drops.get(rec["seed"], float("nan"))
            ax.semilogy(epochs, rec["losses"], color=color, lw=0.8,
                        label=f"seed {rec['seed']}: last 10% −{drop:.1%}")
            ax.semilogy(epochs, rec["val_losses"], color=color, lw=0.6, ls="--", alpha=0.7)
            for key, curve in (("train", rec["losses"]), ("val", rec["val_losses"])):
                header.append(f"{key}_{name}_seed{rec['seed']}")
                columns.append(np.pad(curve, (0, n_max - len(curve)), constant_values=np.nan))
        conv = training.get("converged", [])
        ax.set_title(f"{LABELS[name]}: {sum(conv)}/{len(conv)} seeds converged", fontsize=8)
        ax.set_xlabel("epoch")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=6)
    axes[0].set_ylabel("one-step MSE (solid: training, dashed: k = 3.5 validation)")
    missing = sorted({*got.missing, *got.stale, *got.corrupt})
    fig.suptitle(f"Seed 001 §5, Table 3 training (budget {ctx.budget}); converged: the last 10% of "
                 f"the epochs lower the training loss by < {sp_rollouts.CONVERGED_DROP:.0%} (means over "
                 f"5% windows)" + (f"; runs not usable: {', '.join(missing)}" if missing else ""),
                 fontsize=9)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_csv(header, np.column_stack([np.arange(1, n_max + 1), *columns]).tolist())

"""Fig. 7 of seed 001: q1 of the four trained networks against implicit midpoint on the test case
k = 3.5 (five implicit-midpoint warm-up states), on the paper's four horizons."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure
from particles import sp_rollouts, sp_train

LABELS = {"resnet": "ResNet", "sympnet": "SympNet", "transformer": "transformer",
          "sp_transformer": "SP transformer"}
# fig. 7: (a) ResNet/SympNet on [0, 10], (b) on [0, 18], (c) transformers on [0, 20], (d) on [0, 600]
PANELS = (("fig-7ab", ("resnet", "sympnet"), (10.0, 18.0)),
          ("fig-7cd", ("transformer", "sp_transformer"), (20.0, 600.0)))


# Data precision (figures/_registry.py): the committed rollouts are stored at 8 digits of float32
# networks; the checks read blow-up times and q1 errors at 3 digits; 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("oscillator-rollouts", claims=["sp_transformer:fig-7ab", "sp_transformer:fig-7cd"],
        digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """q1(t) of ResNet, SympNet, transformer and SP transformer vs implicit midpoint (k = 3.5)."""
    fig, axes = plt.subplots(2, 4, figsize=(16, 6.5))
    header, columns = ["t"], []
    for row, (claim, networks, horizons) in zip(axes, PANELS):
        ev = ctx.evidence(f"sp_transformer:{claim}").numbers
        res = sp_train.collect(ctx.budget, networks).records
        ref = sp_train.reference(sp_train.get_budget(ctx.budget).t_rollout)
        t = sp_rollouts.times(len(ref))
        if not columns:
            columns.append(t)
            header.append("q1_implicit_midpoint")
            columns.append(ref[:, 0])
        for j, t_end in enumerate(horizons):
            for i, name in enumerate(networks):
                ax = row[2 * j + i]
                sel = t <= t_end + 1e-9
                ax.plot(t[sel], ref[sel, 0], color="tab:blue", lw=1.2, label="implicit midpoint")
                for rec in res[name]:
                    first = rec is res[name][0]
                    ax.plot(t[sel], rec["rollout"][sel, 0], color="tab:orange",
                            lw=1.2 if first else 0.6, alpha=1.0 if first else 0.45,
                            label=f"{LABELS[name]} (seed {rec['seed']})" if first else None)
                ax.axvline(2.0, color="0.6", lw=0.6, ls=":")
                blow = ev.get("blowup_time", {}).get(name, [])
                ax.set_title(f"{LABELS[name]}, [0, {t_end:g}]; blow-up t: "
                             + ", ".join("none" if np.isinf(b) else f"{b:g}" for b in blow), fontsize=8)
                ax.tick_params(labelsize=7)
                ax.grid(alpha=0.3)
                if j == 0 and i == 0:
                    ax.set_ylabel("q1")
                ax.legend(fontsize=6, loc="lower left")
        for name in networks:
            for rec in res[name]:
                header.append(f"q1_{name}_seed{rec['seed']}")
                columns.append(rec["rollout"][:, 0])
    epochs = {n: sorted({r["epochs"] for r in recs})
              for n, recs in sp_train.collect(ctx.budget).records.items()}
    fig.suptitle("Seed 001 fig. 7 reproduced (k = 3.5, warm-up t = 0…1.6, dotted line t = 2): "
                 f"budget {ctx.budget}, epochs {epochs}; thin lines are further seeds", fontsize=9)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_csv(header, np.column_stack(columns).tolist())

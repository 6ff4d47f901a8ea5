"""training-curves: validation loss vs step of the compact sweep, per paper table (mean ± std)."""
from __future__ import annotations

import tempfile

import matplotlib.pyplot as plt
import numpy as np

from claims import lm as lm_claims
from particles.threads import torch_threads
from figures import Context, figure
from particles.lm import train as lm_train

# claim id -> (rows, sweep configuration, sweep name) exactly as the claim reads them
COMPACT = (None, lm_claims.SWEEP)
PANELS = {"yurii:table-2": (lm_claims.YURII_ROWS, *COMPACT),
          "yurii:table-5": (lm_claims.YURII_TABLE_5_ROWS, *COMPACT),
          "momentum_streams:table-1": (lm_claims.MS_TABLE_1_ROWS, *COMPACT),
          "momentum_streams:table-2": (lm_claims.MS_TABLE_2_ROWS, *COMPACT),
          "sympformer:table-1": (lm_claims.SYMP_TABLE_1_ROWS, *COMPACT),
          "sympformer:table-2": (lm_claims.SYMP_TABLE_2_ROWS, *COMPACT),
          "sympformer:table-3": (lm_claims.SYMP_TABLE_3_ROWS, lm_claims.LARGE,
                                 lm_claims.LARGE_SWEEP)}
QUICK_PANEL = {"quick: GD+Lie-Trotter": "gd-lt", "quick: Nesterov+Lie-Trotter": "nesterov-lt"}


def _quick_results() -> dict[str, list[dict]]:
    """Seconds-long runs (`particles.lm.train.QUICK`, 2 seeds) that exercise the drawing path."""
    base = lm_train.TrainConfig(**lm_train.QUICK)
    with tempfile.TemporaryDirectory() as tmp, torch_threads(1):
        rs = lm_train.sweep(QUICK_PANEL.values(), (0, 1), base, "quick", tmp)
    out: dict[str, list[dict]] = {}
    for r in rs:
        out.setdefault(r["variant"], []).append(r)
    return out


def _panel(ax, rows: dict[str, str], results: dict[str, list[dict]], title: str) -> dict:
    data = {}
    colors = [plt.cm.tab20(k % 20) if len(rows) > 10 else f"C{k}" for k in range(len(rows))]
    for k, (label, variant) in enumerate(rows.items()):
        runs = results.get(variant, [])
        if not runs:
            continue
        steps = np.array(runs[0]["curves"]["step"])
        val = np.array([r["curves"]["val_loss"] for r in runs])
        mean, std = val.mean(0), (val.std(0, ddof=1) if len(runs) > 1 else np.zeros_like(steps, float))
        ax.plot(steps, mean, color=colors[k], label=f"{label} ({len(runs)} seeds)")
        ax.fill_between(steps, mean - std, mean + std, color=colors[k], alpha=0.2)
        data[label] = {"variant": variant, "step": steps.tolist(), "mean": mean.tolist(),
                       "std": std.tolist(), "seeds": [r["seed"] for r in runs]}
    ax.set_title(title, fontsize=8)
    ax.set_xlabel("step")
    ax.set_ylabel("validation loss (nats/byte)")
    ax.legend(fontsize=6)
    return data


@figure("training-curves", claims=list(PANELS))
def draw(ctx: Context) -> None:
    """Validation loss vs step per variant of each reproduced table, mean ± std over seeds."""
    if ctx.budget == "quick":
        panels = {"quick (2 seeds)": (QUICK_PANEL, _quick_results())}
    else:
        panels = {}
        for cid, (rows, config, name) in PANELS.items():
            ctx.evidence(cid)  # the ordering claim runs the sweep for whatever is missing
            panels[f"{cid} → {ctx.evidence(cid).verdict}"] = (rows, lm_claims.compact_results(
                list(dict.fromkeys(rows.values())), ctx.budget, config, name))
    ncols = min(3, len(panels))
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.5 * ncols, 4.2 * nrows), squeeze=False)
    data = {title: _panel(ax, rows, results, title)
            for ax, (title, (rows, results)) in zip(axes.flat, panels.items())}
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    fig.suptitle(f"training-curves ({ctx.budget}): compact sweep, identical data order per seed",
                 fontsize=10)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json(data)

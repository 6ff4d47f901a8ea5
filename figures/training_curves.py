"""training-curves: validation loss vs step of the committed studies, per paper table (mean ± std)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from claims.momentum_streams import training as ms
from claims.sympformer import training as symp
from claims.yurii import training as yurii
from figures import Context, figure
from particles.lm.studies import get_study

# claim id -> rows exactly as the claim reads them; the study is the one its evidence names
PANELS = {"yurii:table-2": yurii.YURII_ROWS,
          "yurii:table-5": yurii.YURII_TABLE_5_ROWS,
          "momentum_streams:table-1": ms.MS_TABLE_1_ROWS,
          "momentum_streams:table-2": ms.MS_TABLE_2_ROWS,
          "momentum_streams:muon-soap-text": ms.MS_PRECOND_TEXT_ROWS,
          "sympformer:table-1": symp.SYMP_TABLE_1_ROWS,
          "sympformer:table-2": symp.SYMP_TABLE_2_ROWS,
          "sympformer:table-3": symp.SYMP_TABLE_3_ROWS}
# the settings a claim reports beside its decision (numbers['sensitivity']): claim id -> studies
SENSITIVITY = {"sympformer:table-2": ("linear", "linear-slr100")}


def _panel(ax, rows: dict[str, str], study: str, seeds: list[int], title: str) -> dict:
    """One table's curves over `seeds` (empty: each arm's committed seeds)."""
    got = get_study(study).collect(list(dict.fromkeys(rows.values())))
    data = {}
    colors = [plt.cm.tab20(k % 20) if len(rows) > 10 else f"C{k}" for k in range(len(rows))]
    for k, (label, variant) in enumerate(rows.items()):
        committed = got.results.get(variant, {})
        runs = [committed[s] for s in (seeds or sorted(committed)) if s in committed]
        if not runs:
            continue
        steps = np.array(runs[0]["curves"]["step"])
        val = np.array([r["curves"]["val_loss"] for r in runs])
        mean, std = val.mean(0), (val.std(0, ddof=1) if len(runs) > 1 else np.zeros_like(steps, float))
        ax.plot(steps, mean, color=colors[k], label=f"{label} ({len(runs)} seed{'s' if len(runs) > 1 else ''})")
        ax.fill_between(steps, mean - std, mean + std, color=colors[k], alpha=0.2)
        data[label] = {"variant": variant, "step": steps.tolist(), "mean": mean.tolist(),
                       "std": std.tolist(), "seeds": [r["seed"] for r in runs]}
    if not data:
        ax.text(0.5, 0.5, "no committed runs", ha="center", va="center", transform=ax.transAxes)
    ax.set_title(title, fontsize=8)
    ax.set_xlabel("step")
    ax.set_ylabel("validation loss (nats/byte)")
    ax.set_ylim(top=2.4)
    if data:
        ax.legend(fontsize=6)
    return data


# Data precision (figures/_registry.py): mean ± std validation curves over seeds of the committed
# runs; the papers print 4 decimals (losses ~1-3): 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("training-curves", claims=list(PANELS), digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """Validation loss vs step per variant of each table, mean ± std over the claim's paired
    seeds (over each arm's committed seeds while the claim has no paired seed), on the study the
    claim decides on; then the settings it reports beside the decision (`SENSITIVITY`)."""
    panels = [(cid, rows, None) for cid, rows in PANELS.items()]
    panels += [(cid, PANELS[cid], study) for cid, studies in SENSITIVITY.items() for study in studies]
    n = len(panels)
    ncols = 3
    nrows = -(-n // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.5 * ncols, 4.2 * nrows), squeeze=False)
    data = {}
    for ax, (cid, rows, sensitivity) in zip(axes.flat, panels):
        ev = ctx.evidence(cid)
        numbers = ev.numbers["sensitivity"][sensitivity] if sensitivity else ev.numbers
        study = sensitivity or ev.numbers["study"]
        verdict = numbers["verdict_at_this_setting"] + ", informs only" if sensitivity else ev.verdict
        seeds = numbers["seeds"]  # the claim's paired seeds; none yet: every committed run
        title = (f"{cid} ({study}, {len(seeds)} paired seeds) → {verdict}" if seeds else
                 f"{cid} ({study}, no paired seeds yet: the committed runs) → {verdict}")
        data[f"{cid} (sensitivity: {study})" if sensitivity else cid] = _panel(ax, rows, study, seeds, title)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.suptitle("training-curves: committed studies (results/lm), identical data order per seed",
                 fontsize=10)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json(data)

"""bench-training: vanilla GPT vs torch's own TransformerEncoderLayer model, and every variant's
training-step time over vanilla, measured interleaved in one process (particles.lm.bench)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch

from claims.momentum_streams import diagnostics as lmd
from figures import Context, figure
from particles.lm import bench
from particles.lm.variants import VARIANTS

CLAIMS = ["momentum_streams:wall-clock", "momentum_streams:wall-clock-muon",
          "momentum_streams:wall-clock-only-muon", "yurii:wall-clock", "sympformer:wall-clock"]
COLORS = {"yurii": "tab:blue", "momentum_streams": "tab:orange", "sympformer": "tab:green"}


def _paper_ratios() -> dict[str, tuple[float, float]]:
    """The papers' printed ratios over their baseline: seed 002 App. D.6 ranges, seed 000 Table 1."""
    lo_b, hi_b = lmd.PAPER_002_S_PER_STEP["gd-lt"]
    out = {v: (lo / hi_b, hi / lo_b) for v, (lo, hi) in lmd.PAPER_002_S_PER_STEP.items() if v != "gd-lt"}
    base = lmd.PAPER_000_TABLE_1_SECONDS["gd-lt"]
    out.update({v: (s / base, s / base) for v, s in lmd.PAPER_000_TABLE_1_SECONDS.items() if v != "gd-lt"})
    return out


# Data precision (figures/_registry.py): medians and CIs of the committed timings (run-to-run
# noise ~1e-2); the claims compare CIs with thresholds such as 1.10; 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("bench-training", claims=CLAIMS, digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """Training throughput: vanilla vs torch reference (tokens/s), each variant's step-time ratio."""
    verdicts = {cid: ctx.evidence(cid).verdict for cid in CLAIMS}
    t = lmd.throughput(ctx.budget)  # the measurement the wall-clock claims decided on
    models = t["models"]
    variants = [v for v in models if v not in (bench.REFERENCE, bench.BASELINE)]
    variants.sort(key=lambda v: (VARIANTS[v].paper, models[v]["ratio_to_baseline"]["median"]))
    paper = _paper_ratios()

    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(13, 0.28 * len(variants) + 2.5),
                                   gridspec_kw={"width_ratios": [1, 2.6]})
    names = [bench.BASELINE, bench.REFERENCE]
    tps = [models[n]["tokens_per_s"] for n in names]
    ax0.bar(["vanilla\n(gd-lt)", "torch\nreference"], tps, color=["tab:blue", "tab:gray"])
    r = t["vanilla_over_reference"]
    ax0.set_title(f"tokens/s, median of {t['rounds']} rounds ({len(t['seeds'])} seeds)\nvanilla/reference = "
                  f"{r['median']:.2f} ({r['ci_coverage']:.1%} CI {r['ci_lo']:.2f}–{r['ci_hi']:.2f}); target ≥ 0.95", fontsize=9)
    ax0.set_ylabel("training tokens / s")

    y = np.arange(len(variants))
    med = np.array([models[v]["ratio_to_baseline"]["median"] for v in variants])
    lo = med - np.array([models[v]["ratio_to_baseline"]["ci_lo"] for v in variants])
    hi = np.array([models[v]["ratio_to_baseline"]["ci_hi"] for v in variants]) - med
    ax1.barh(y, med, xerr=[lo, hi], color=[COLORS[VARIANTS[v].paper] for v in variants], alpha=0.8,
             error_kw={"lw": 0.8})
    for i, v in enumerate(variants):
        if v in paper:
            a, b = paper[v]
            ax1.plot([a, b], [i, i], "k-", lw=2.5)
            ax1.plot([a, b], [i, i], "k|", ms=8)
    ax1.axvline(1.0, color="k", lw=0.8)
    ax1.axvline(lmd.NEGLIGIBLE, color="k", lw=0.8, ls=":")
    ax1.set_yticks(y, [VARIANTS[v].label for v in variants], fontsize=7)
    ax1.set_xlabel(f"step time / vanilla step time (median and its {r['ci_coverage']:.1%} distribution-free CI "
                   f"over {t['rounds']} paired rounds: {len(t['seeds'])} seeds × {t['rounds_per_seed']}); black: paper")
    lines = [f"{c} → {v}" for c, v in verdicts.items()]
    ax1.set_title("\n".join("; ".join(lines[i:i + 3]) for i in range(0, len(lines), 3)), fontsize=8)
    ax1.legend(handles=[Patch(color=c, label=p) for p, c in COLORS.items()], fontsize=7,
               loc="lower right")
    cfg = t["config"]
    fig.suptitle(f"bench-training ({ctx.budget}): {cfg['n_layer']} layers, width {cfg['n_embd']}, "
                 f"{cfg['block_size']} tokens × batch {t['batch_size']}, {t['device']}, "
                 f"{t['threads']} thread(s), torch {t['torch']}", fontsize=9)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json({"throughput": t, "verdicts": verdicts, "paper_ratios": paper})

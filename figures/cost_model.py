"""cost-model: the roofline cost model behind the wall-clock claims (claims/lm_wallclock.py).

Left: its validation, the predicted CPU step-time ratio over vanilla at the benchmark's proxy size
(4 layers, width 128) against the committed measurement (median and 95% CI of 21 paired rounds).
Right: every comparison a wall-clock claim decides, at the paper's size on the H100 roofline:
the eager and ideal-fusion predictions and the band that decides (widened by the pair's CPU
validation error), with the paper's own printed ratios where it prints them. `--recompute`
rewrites the committed counts (results/bench/cost-model.json, about ten minutes)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from claims import lm_diagnostics as lmd
from claims import lm_wallclock as lw
from figures import Context, figure

CLAIMS = ["momentum_streams:wall-clock", "momentum_streams:wall-clock-muon",
          "momentum_streams:wall-clock-only-muon", "yurii:wall-clock", "sympformer:wall-clock"]
PAPER = {"momentum_streams:wall-clock": "momentum_streams", "momentum_streams:wall-clock-muon": "momentum_streams",
         "momentum_streams:wall-clock-only-muon": "momentum_streams", "yurii:wall-clock": "yurii",
         "sympformer:wall-clock": "sympformer"}

def printed_ratios() -> dict[str, tuple[float, float]]:
    """The papers' own printed step-time ratios of a compared pair (seed 002 App. D.6's ranges of
    s/step, seed 000 Table 1's wall clock), keyed like the comparisons: the paper's evidence."""
    lo_b, hi_b = lmd.PAPER_002_S_PER_STEP["gd-lt"]
    out = {f"{v} / gd-lt (momentum_streams)": (lo / hi_b, hi / lo_b)
           for v, (lo, hi) in lmd.PAPER_002_S_PER_STEP.items() if v != "gd-lt"}
    t1 = lmd.PAPER_000_TABLE_1_SECONDS
    for b in ("gd-lt", "nesterov-lt"):
        out |= {f"{v} / {b} (sympformer)": (t1[v] / t1[b],) * 2 for v in lmd.SYMPFORMER_SOFTMAX}
    return out


# Data precision (figures/_registry.py): counted FLOPs and bytes are exact integers up to 1e13;
# predicted ratios and the CPU's microbenchmarked constants carry run-to-run noise of ~1e-2; 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("cost-model", claims=CLAIMS, digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """Cost-model validation on CPU (proxy size) and the paper-size H100 bands of every comparison."""
    if ctx.recompute:
        lw.write_cost_model()
    model = lw.cost_model()
    val = lw.validation(model)
    rows = val["per_variant"]
    comps = {}
    for cid in CLAIMS:
        ev = ctx.evidence(cid)
        for name, c in ev.numbers["cost_model"]["comparisons"].items():
            comps.setdefault(f"{name} ({PAPER[cid]})", c)

    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(15, 0.3 * len(comps) + 3), gridspec_kw={"width_ratios": [1, 1.5]})
    names = sorted(rows, key=lambda v: rows[v]["measured"])
    meas = np.array([rows[v]["measured"] for v in names])
    pred = np.array([rows[v]["predicted"] for v in names])
    lo = meas - np.array([rows[v]["measured_ci95"][0] for v in names])
    hi = np.array([rows[v]["measured_ci95"][1] for v in names]) - meas
    ax0.errorbar(meas, pred, xerr=[lo, hi], fmt="o", ms=3, lw=0.7, color="tab:blue")
    lims = [0.8, 1.2 * max(meas.max(), pred.max())]
    ax0.plot(lims, lims, "k-", lw=0.8)
    e = val["max_rel_error"]
    ax0.fill_between(lims, [x * (1 - e) for x in lims], [x * (1 + e) for x in lims], color="k", alpha=0.06)
    for v, x, y in zip(names, meas, pred):
        if abs(rows[v]["rel_error"]) > 0.1:
            ax0.annotate(v, (x, y), fontsize=6, xytext=(3, -3), textcoords="offset points")
    ax0.set(xscale="log", yscale="log", xlim=lims, ylim=lims, xlabel="measured CPU ratio (median, 95% CI)",
            ylabel="predicted CPU ratio (roofline + per-op cost)")
    ax0.set_title(f"validation at proxy size, {len(rows)} variants: max |error| {e:.0%} ({val['worst']}), "
                  f"median {val['median_rel_error']:.0%}", fontsize=9)

    y = np.arange(len(comps))
    printed = printed_ratios()
    for i, (name, c) in enumerate(comps.items()):
        ax1.plot(c["band"], [i, i], "-", lw=5, color="tab:orange", alpha=0.5, solid_capstyle="butt")
        ax1.plot(c["h100"]["eager"], i, "k|", ms=10)
        ax1.plot(c["h100"]["fused"], i, "kx", ms=6)
        if name in printed:
            ax1.plot(printed[name], [i, i], "rD-", ms=4, lw=1)
    ax1.axvline(1.0, color="k", lw=0.8)
    ax1.set_xscale("log")
    ax1.set_yticks(y, list(comps), fontsize=7)
    ax1.set_xlabel("predicted step-time ratio at the paper's size, H100 roofline (|: eager, x: ideal fusion; "
                   "band: widened by the pair's CPU validation error; red: the paper's printed ratio)")
    ax1.set_title("; ".join(f"{cid} → {ctx.evidence(cid).verdict}" for cid in CLAIMS[:3]) + "\n" +
                  "; ".join(f"{cid} → {ctx.evidence(cid).verdict}" for cid in CLAIMS[3:]), fontsize=8)
    fig.suptitle(f"cost-model ({ctx.budget}): FLOPs and bytes traced per op under FakeTensorMode; "
                 f"no GPU measured (none lent)", fontsize=9)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json({"validation": val, "comparisons": comps, "printed": printed, "verdicts": {c: ctx.evidence(c).verdict for c in CLAIMS},
                   "machines": {"h100": model["config"]["h100"], "cpu": model["cpu"]}})

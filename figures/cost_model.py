"""cost-model: the roofline cost model behind the wall-clock claims (claims/_wallclock.py).

Left: its validation, the predicted CPU step-time ratio over vanilla at the benchmark's proxy size
(4 layers, width 128) against the committed measurement (median and 95% CI of 21 paired rounds).
Right: every comparison a wall-clock claim decides, at the paper's size on the H100 roofline:
the eager and ideal-fusion predictions and the band that decides (widened by the pair's CPU
validation error), with the paper's own printed ratios where it prints them, and the GPU
measurement at the paper's size where one is committed (results/bench/cuda-measurements.json:
eager and compiled medians with their 95% intervals). `--recompute` rewrites the committed counts
(results/bench/cost-model.json, about ten minutes); the GPU measurement is re-taken only on a GPU
(tools/cuda_session.py)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from claims.momentum_streams import diagnostics as lmd
from claims import _gpu, _wallclock as lw
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
            a, b = name.split(" / ")
            comps.setdefault(f"{name} ({PAPER[cid]})", c | {"gpu_measured": lw.measured_on_cuda(PAPER[cid], a, b)})

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
        gpu = c.get("gpu_measured", {})
        for execution, (color, dy) in (("eager", ("tab:blue", 0.2)), ("compiled", ("tab:green", -0.2))):
            if execution in gpu:
                g = gpu[execution]
                ax1.errorbar(g["median"], i + dy, xerr=[[g["median"] - g["ci_lo"]], [g["ci_hi"] - g["median"]]],
                             fmt="o", ms=3, lw=0.8, color=color)
    ax1.axvline(1.0, color="k", lw=0.8)
    ax1.set_xscale("log")
    ax1.set_yticks(y, list(comps), fontsize=7)
    ax1.set_xlabel("step-time ratio at the paper's size: H100 roofline (|: eager, x: ideal fusion; band: widened "
                   "by the pair's CPU validation error); red: the paper's printed ratio; measured on a GPU "
                   "(blue: eager, green: compiled; median, 95% CI)", fontsize=8)
    ax1.set_title("; ".join(f"{cid} → {ctx.evidence(cid).verdict}" for cid in CLAIMS[:3]) + "\n" +
                  "; ".join(f"{cid} → {ctx.evidence(cid).verdict}" for cid in CLAIMS[3:]), fontsize=8)
    measured = _gpu.cuda_measurements()
    gpu = (f"measured on {measured['eager']['momentum_streams']['device']} at the papers' sizes"
           if measured else "no GPU measurement committed")
    fig.suptitle(f"cost-model ({ctx.budget}): FLOPs and bytes traced per op under FakeTensorMode; {gpu}", fontsize=9)
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json({"validation": val, "comparisons": comps, "printed": printed, "verdicts": {c: ctx.evidence(c).verdict for c in CLAIMS},
                   "machines": {"h100": model["config"]["h100"], "cpu": model["cpu"]}})


def _vanilla_rate(measured: dict, paper: str) -> str:
    """Vanilla's tokens/s and MFU per execution: the cost model's counted FLOPs per step over the
    measured median step time, against the dense bf16 peak (`particles.lm.model.PEAK_BF16_FLOPS`)."""
    from particles.lm.model import peak_flops
    s = lw.PAPER_STEPS[paper]
    flops = lw.cost_model()["papers"][paper]["gd-lt"]["flops"]
    parts = []
    for execution in lw.EXECUTIONS_MEASURED:
        part = (measured.get(execution) or {}).get(paper)
        if part and "gd-lt" in part["variants"]:
            t = part["variants"]["gd-lt"]["median_step_s"]
            parts.append(f"{execution} {s.batch_size * s.accumulation * s.block_size / t:,.0f} tokens/s, "
                         f"MFU {flops / t / peak_flops(part['device']):.1%}")
    return "vanilla " + ", ".join(parts)


def summary_markdown(measured: dict) -> str:
    """docs/benchmarks.md's GPU section, generated from the committed measurement: tokens/s and MFU
    of the training path, and each paper's step-time ratios over vanilla (eager and compiled)."""
    out = [f"Step times on {measured['eager']['momentum_streams']['device']}, torch "
           f"{measured['eager']['momentum_streams']['torch']}. {measured['provenance']['note']}", "",
           "| training path, `particles.lm.train` (bf16 autocast, eager, 60 steps) | device | parameters | tokens/s | MFU |",
           "|---|---|---|---|---|"]
    for name, r in (measured.get("throughput") or {}).items():
        if name.endswith("-compiled"):  # 60 steps that include the compilation: not a throughput
            continue
        mfu = f"{r['mfu']:.2%}" if r["mfu"] is not None else "—"
        out.append(f"| `{name}` (width {r['config']['n_embd']}, {r['config']['n_layer']} layers, T = "
                   f"{r['config']['block_size']}, batch {r['config']['batch_size']}) | {r['device']} | {r['n_params']:,} | "
                   f"{r['tokens_per_s']:,.0f} | {mfu} |")
    for paper in ("momentum_streams", "yurii", "sympformer"):
        s = lw.PAPER_STEPS[paper]
        out += ["", f"**{paper}** at its size ({s.n_layer} layers, width {s.n_embd}, T = {s.block_size}, "
                f"vocabulary {s.vocab_size:,}, micro-batch {s.batch_size} x {s.accumulation}, {s.optimizer}): "
                "step time over vanilla, median [95% CI] (rounds); " + _vanilla_rate(measured, paper), "",
                "| variant | eager | compiled |", "|---|---|---|"]
        for v in lw.PAPER_VARIANTS[paper]:
            if v == "gd-lt":
                continue
            cells = []
            for execution in lw.EXECUTIONS_MEASURED:
                r = lw.measured_on_cuda(paper, v, "gd-lt").get(execution)
                cells.append(f"{r['median']:.3f} [{r['ci_lo']:.3f}, {r['ci_hi']:.3f}] ({r['rounds']})" if r else "—")
            out.append(f"| `{v}` | " + " | ".join(cells) + " |")
    excluded = measured["provenance"].get("excluded") or {}
    if excluded:
        out += ["", "Excluded: " + "; ".join(f"`{k}`: {why}" for k, why in excluded.items())]
    return "\n".join(out)

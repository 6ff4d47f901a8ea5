"""bench-lm-peer: the language-model training step of `particles.lm` (vanilla GPT, variant gd-lt)
against the same model built from torch's `nn.TransformerEncoderLayer`
(`particles.lm.bench.ReferenceGPT`: equal parameter count, causal mask, same width/depth/heads,
MLP ratio 4, pre-norm, GELU, no biases, tied head), and the overhead of every momentum variant
over vanilla (figures/_bench.py: committed measurement, one thread).

Measured by `particles.lm.bench.training_throughput`: AdamW training steps (forward, cross-entropy,
backward, step) on one fixed batch, every model timed interleaved round by round; the per-round
ratios give a median and its distribution-free confidence interval. Goal of issue 15: vanilla ≥
0.95 × the reference's tokens/s, i.e. the interval for t_reference / t_vanilla lies above 0.95.
The momentum variants are the rules with a velocity stream v and softmax attention (heavy ball,
Nesterov, TMM and their splittings of seeds 002 and 004); the overhead is the step-time ratio − 1.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from figures import Context, figure
from figures import _bench
from particles.lm import bench
from particles.lm.variants import VARIANTS

GOAL = 0.95  # vanilla tokens/s ≥ GOAL × reference tokens/s


def momentum_variants() -> list[str]:
    """Variants carrying a velocity stream (learned-embedding v) with softmax attention."""
    return [name for name, v in VARIANTS.items()
            if v.streams.get("v") == "embedding" and v.kwargs.get("attention", "softmax") == "softmax"]


def config(budget: str) -> dict:
    s = bench.bench_settings(budget)
    return {"model": s["config"].as_dict(), **{k: s[k] for k in ("batch_size", "rounds", "steps", "warmup", "seeds")},
            "baseline": bench.BASELINE, "reference": bench.REFERENCE, "variants": momentum_variants(),
            "threads": _bench.THREADS, "goal_vanilla_over_reference": GOAL}


def measure(budget: str) -> dict:
    t = bench.training_throughput(budget, momentum_variants(), threads=_bench.THREADS)
    ratio = t["vanilla_over_reference"]
    models = t["models"]
    overhead = {v: {k: models[v]["ratio_to_baseline"][k] - 1 for k in ("median", "ci_lo", "ci_hi")}
                for v in momentum_variants()}
    summary = {"vanilla_over_reference": ratio, "params_equal":
               models[bench.BASELINE]["params"] == models[bench.REFERENCE]["params"],
               "goal_met": ratio["ci_lo"] >= GOAL and ratio["ci_coverage"] >= bench.CI_LEVEL,
               "goal_missed": ratio["ci_hi"] < GOAL and ratio["ci_coverage"] >= bench.CI_LEVEL,
               "momentum_overhead": overhead}
    return {"config": config(budget), "throughput": t, "summary": summary,
            "provenance": _bench.provenance("torch", "numpy")}


def draw_from(ctx: Context, result: dict) -> None:
    t, s = result["throughput"], result["summary"]
    models, variants = t["models"], result["config"]["variants"]
    variants = sorted(variants, key=lambda v: models[v]["ratio_to_baseline"]["median"])
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(12, 0.3 * len(variants) + 2.5),
                                 gridspec_kw={"width_ratios": [1, 2.2]})
    r = s["vanilla_over_reference"]
    a0.bar(["vanilla\n(gd-lt)", "TransformerEncoderLayer\nreference"],
           [models[n]["tokens_per_s"] for n in (bench.BASELINE, bench.REFERENCE)], color=["C0", "C7"])
    a0.set_ylabel("training tokens / s (median round)")
    a0.set_title(f"vanilla / reference tokens/s = {r['median']:.3f}\n{r['ci_coverage']:.1%} CI "
                 f"{r['ci_lo']:.3f}–{r['ci_hi']:.3f}; goal ≥ {GOAL} met: {s['goal_met']}\n"
                 f"parameters equal: {s['params_equal']} ({models[bench.BASELINE]['params']:,})", fontsize=9)
    y = np.arange(len(variants))
    ratios = [models[v]["ratio_to_baseline"] for v in variants]
    med = np.array([q["median"] for q in ratios])
    a1.errorbar(med, y, xerr=[med - [q["ci_lo"] for q in ratios], [q["ci_hi"] for q in ratios] - med],
                fmt="o", capsize=2, color="C1")
    a1.axvline(1.0, color="k", lw=0.8)
    a1.set_yticks(y, [VARIANTS[v].label for v in variants], fontsize=7)
    a1.set_xlabel(f"step time / vanilla step time (median, {r['ci_coverage']:.1%} CI, {t['rounds']} rounds)")
    a1.set_title("overhead of each momentum variant = ratio − 1", fontsize=9)
    a1.grid(alpha=0.3)
    cfg = t["config"]
    _bench.save(ctx, fig, result, f"{cfg['n_layer']} layers, width {cfg['n_embd']}, {cfg['n_head']} heads, "
                                  f"{cfg['block_size']} tokens × batch {t['batch_size']}")


# Data precision (figures/_registry.py): the committed measurement copied as read (a timing is
# measured, not recomputed: the full budget reads results/bench/, so the file reproduces byte
# for byte); no rounding.
DIGITS, FLOOR = None, 0.0


@figure("bench-lm-peer", claims=["momentum_streams:wall-clock", "yurii:wall-clock"],
        digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """LM training step: vanilla vs a TransformerEncoderLayer model (tokens/s), momentum overheads."""
    draw_from(ctx, _bench.measured(ctx, config, measure))


def summary_markdown(result: dict) -> str:
    """The docs/benchmarks.md table of a measurement (tests/test_bench.py checks the page quotes it)."""
    s, models = result["summary"], result["throughput"]["models"]
    r = s["vanilla_over_reference"]
    lines = [f"Vanilla / reference tokens/s = **{r['median']:.3f}** ({r['ci_coverage']:.1%} CI "
             f"{r['ci_lo']:.3f}–{r['ci_hi']:.3f}, {r['rounds']} rounds; "
             f"{models[bench.BASELINE]['tokens_per_s']:.0f} vs {models[bench.REFERENCE]['tokens_per_s']:.0f} "
             f"tokens/s): goal ≥ {GOAL} met: {s['goal_met']}.", "",
             "| momentum variant | step-time overhead over vanilla (median [CI]) |", "|---|---|"]
    for v, o in sorted(s["momentum_overhead"].items(), key=lambda kv: kv[1]["median"]):
        lines.append(f"| {VARIANTS[v].label} (`{v}`) | {o['median']:+.1%} [{o['ci_lo']:+.1%}, {o['ci_hi']:+.1%}] |")
    return "\n".join(lines)

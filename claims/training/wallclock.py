"""The papers' wall-clock statements, decided at the papers' own sizes by a GPU measurement where
one was committed, else by a validated cost model (issue 25, item 5): seed 002 §4.2 and App. D.6,
seed 004 §6, seed 000 §6 / Table 1.

Measured (results/bench/cuda-measurements.json, `tools/cuda_session.py` on a lent GPU): one
optimizer step of every compared variant at the paper's size, eager and (for the variants of the
momentum-stream and Nesterov/Polyak statements) compiled, in interleaved rounds. A sub-assertion
is decided by the measurement under the paper's own execution when its interval for the median
per-round ratio reaches 95% coverage (`decide_pair`); the roofline prediction is held against
every measured pair (`cuda_check`: a GPU validation of the model).

The statements are about GPU seconds per step of 124M-parameter models (seed 000 Table 1: an
8-layer width-64 model with a 50,304-token vocabulary). Where no measurement decides, the verdict
comes from `particles.lm.cost_model`:

1. Count. One optimizer step of every compared variant at the paper's stated size, micro-batch,
   gradient accumulation, precision and parameter-training optimizer (`PAPER_STEPS`) is traced
   op by op under `FakeTensorMode`: FLOPs by `torch.utils.flop_counter`'s formulas (checked
   against `FlopCounterMode`), bytes read and written per op, under two execution models:
   eager (every op a kernel) and ideal fusion (pointwise chains fused, as torch.compile does at
   best). The same is done at the proxy size of the committed CPU benchmark (4 layers, width 128).
2. Predict. Seconds per step = the roofline max(FLOPs / peak, bytes / bandwidth) per kernel plus
   a fixed cost per op: on this CPU with constants measured by microbenchmarks
   (`cost_model.measure_cpu`), on an H100 with its datasheet numbers (`cost_model.H100`).
3. Validate. The CPU prediction at proxy size is compared with the committed measurement of
   the same steps (results/bench/bench-training.json): per variant predicted vs measured ratio
   over vanilla (median of 21 paired rounds) and the relative error.
4. Decide. A comparison's ratio at paper size lies in the band [min r (1 - e), max r (1 + e)],
   r over the two execution models on the H100 roofline, e the CPU validation error of that
   comparison (the same variant pair at proxy size). A sub-assertion 'ratio <= c' (>= c, inside
   [c1, c2]) holds when the whole band is on its side, fails when the whole band is on the other,
   and is undecided otherwise; a reading holds when every sub-assertion holds, fails when one
   fails; the paper is wrong only under every reading (`claims.decide_readings`).

The roofline's GPU side is a prediction: its datasheet peaks, its 5 µs launch floor and the
fusion envelope are stated; `cuda_check` reports its error against the GPU measurement (eager
vs the eager roofline, compiled vs ideal fusion). The measured CPU ratios at proxy size
are kept beside every verdict as proxy evidence. Counts and predictions are computed once and
committed (results/bench/cost-model.json, with the CPU's microbenchmarks and provenance;
`python -m figures --only cost-model --recompute` rewrites it, about ten minutes); the claims
read it at both budgets, and at the full budget re-trace every compared variant at a toy size
to check that the committed counts still describe the code.
"""
from __future__ import annotations

import math
from functools import lru_cache


from claims import Evidence, claim, decide_readings, reading
from claims._committed import StaleResult, provenance, read_committed, write_committed
from claims._protocol import get_protocol
from claims.momentum_streams.diagnostics import (
    LARGE_PENALTY, MOMENTUM_002, MUON_SLOWER, NEGLIGIBLE, NON_MUON_002, PAPER_000_TABLE_1_SECONDS,
    PAPER_002_S_PER_STEP, SYMPFORMER_SOFTMAX, committed_throughput)
from particles.lm import bench
from particles.lm import cost_model as cm
from particles.lm.variants import VARIANTS
from particles.threads import torch_threads
from claims.training.gpu import (  # noqa: F401
    CUDA_MEASUREMENTS, EXECUTIONS_MEASURED, PAPER_EXECUTION, PAPER_STEPS, PAPER_VARIANTS, PREDICTED_AS,
    cuda_check, cuda_config, cuda_measurements, measured_groups, measured_on_cuda)

COST_MODEL = "cost-model"  # results/bench/cost-model.json
PROXY = cm.StepSetting(n_layer=4, n_head=4, n_embd=128, block_size=128, vocab_size=256, batch_size=4)
TOY = cm.StepSetting(n_layer=2, n_head=2, n_embd=16, block_size=16, vocab_size=256, batch_size=2)
PROTOCOLS = {"momentum_streams": "momentum_streams OpenWebText", "yurii": "yurii TinyStories",
             "sympformer": "sympformer Table 1"}
EXECUTIONS = ("eager", "fused")


def cost_model_config() -> dict:
    """What the committed cost model depends on (another config is stale)."""
    return {"proxy": PROXY.as_dict(), "toy": TOY.as_dict(), "h100": cm.H100.as_dict(),
            "causal_fraction": cm.CAUSAL_FRACTION, "executions": list(EXECUTIONS),
            "papers": {p: {"setting": s.as_dict(), "variants": list(PAPER_VARIANTS[p])}
                       for p, s in PAPER_STEPS.items()}}


def _counts(trace: cm.StepTrace) -> dict:
    return {"params": trace.params, "flops": trace.flops, "flop_counter_total": trace.flop_counter_total,
            "bytes_eager": trace.bytes_moved(), "bytes_fused": trace.bytes_moved(fused=True),
            "dispatched_ops": trace.dispatched(), "kernels_eager": sum(m for _, m in trace.kernels()),
            "kernels_fused": sum(m for _, m in trace.kernels(fused=True))}


def _costed(trace: cm.StepTrace, cpu: cm.Machine) -> dict:
    return _counts(trace) | {"cpu_seconds": cm.predict_seconds(trace, cpu),
                             "h100_seconds": {x: cm.predict_seconds(trace, cm.H100, fused=x == "fused")
                                              for x in EXECUTIONS}}


def toy_fingerprint(variants) -> dict:
    """Counts of a training step of each variant at the toy size (real tensors, one thread): what
    the committed counts are checked against (a changed block changes them)."""
    with torch_threads(1):
        return {v: {k: c[k] for k in ("flops", "bytes_eager", "bytes_fused", "dispatched_ops")}
                for v in variants for c in [_counts(cm.trace_step(v, TOY, fake=False))]}


def compute_cost_model(progress: bool = True) -> dict:
    """Trace, count and predict every variant (minutes): the proxy size for every variant the
    committed benchmark measured (the validation set), each paper's size for its compared
    variants, the toy fingerprint; with this CPU's microbenchmarked roofline."""
    from tqdm import tqdm
    cpu = cm.measure_cpu(threads=1)
    measured = [v for v in committed_throughput()["models"] if v in VARIANTS]
    claimed = sorted({v for vs in PAPER_VARIANTS.values() for v in vs})
    jobs = [("proxy", v) for v in measured] + [(p, v) for p, vs in PAPER_VARIANTS.items() for v in vs]
    out = {"proxy": {}, "papers": {p: {} for p in PAPER_STEPS}}
    for where, v in tqdm(jobs, desc="cost model", unit="trace", disable=not progress):
        if where == "proxy":
            out["proxy"][v] = _costed(cm.trace_step(v, PROXY), cpu)
        else:  # foreach AdamW: torch's default on CUDA
            out["papers"][where][v] = _costed(cm.trace_step(v, PAPER_STEPS[where], foreach=True), cpu)
    return {"config": cost_model_config(), "provenance": provenance("torch", "numpy"),
            "cpu": cpu.as_dict(), **out, "toy": toy_fingerprint(claimed)}


def write_cost_model() -> dict:
    """Recompute the cost model and commit it (atomically) to results/bench/cost-model.json."""
    result = compute_cost_model()
    write_committed(COST_MODEL, result)
    cost_model.cache_clear()
    return result


@lru_cache(maxsize=2)
def cost_model(check_code: bool = False) -> dict:
    """The committed cost model (config validated); `check_code` re-traces every compared variant
    at the toy size and refuses the file when a count differs (the blocks changed since)."""
    result = read_committed(COST_MODEL, cost_model_config())
    if check_code:
        live = toy_fingerprint(sorted(result["toy"]))
        changed = sorted(v for v in live if any(not math.isclose(live[v][k], result["toy"][v][k], rel_tol=1e-12)
                                                for k in live[v]))
        if changed:
            raise StaleResult(f"committed cost model is stale: the toy-size counts of {changed} differ "
                              f"from the code's; `python -m figures --only cost-model --recompute` rewrites it")
    return result


# ---------------------------------------------------------------------------------------------
# validation and decision

def measured_ratio(a: str, b: str) -> dict:
    """The committed CPU benchmark's paired ratio t_a / t_b (median and 95% CI over 21 rounds)."""
    models = committed_throughput()["models"]
    if b == bench.BASELINE:
        return models[a]["ratio_to_baseline"]
    timings = {k: bench.Timing(k, tuple(models[k]["step_seconds"]), 1) for k in (a, b)}
    return bench.paired_ratio(timings, a, b)


def validation(model: dict) -> dict:
    """Per variant at proxy size: predicted CPU ratio over vanilla, measured median and 95% CI,
    relative error; the largest and the median error over every validated variant."""
    proxy = model["proxy"]
    base = proxy[bench.BASELINE]["cpu_seconds"]["seconds"]
    rows = {}
    for v, c in proxy.items():
        if v == bench.BASELINE:
            continue
        pred, meas = c["cpu_seconds"]["seconds"] / base, measured_ratio(v, bench.BASELINE)
        rows[v] = {"predicted": pred, "measured": meas["median"], "measured_ci95": [meas["ci_lo"], meas["ci_hi"]],
                   "rel_error": pred / meas["median"] - 1, "inside_measured_ci": meas["ci_lo"] <= pred <= meas["ci_hi"]}
    errors = sorted(abs(r["rel_error"]) for r in rows.values())
    worst = max(rows, key=lambda v: abs(rows[v]["rel_error"]))
    return {"per_variant": rows, "max_rel_error": errors[-1], "worst": worst,
            "median_rel_error": errors[len(errors) // 2],
            "share_inside_measured_ci": sum(r["inside_measured_ci"] for r in rows.values()) / len(rows),
            "measured": "results/bench/bench-training.json (CPU time, 1 thread, 3 seeds x 7 rounds)",
            "predicted": "cost_model.predict_seconds(eager trace at proxy size, this CPU's measured roofline)"}


def comparison(model: dict, paper: str, a: str, b: str) -> dict:
    """Ratio t_a / t_b: at proxy size predicted and measured on this CPU (the validation error e of
    this pair), at the paper's size on the H100 roofline per execution model, and the band
    [min r (1 - e), max r (1 + e)] that decides; beside it the CPU prediction at paper size and
    the H100 prediction at proxy size."""
    px, pp = model["proxy"], model["papers"][paper]
    pred = px[a]["cpu_seconds"]["seconds"] / px[b]["cpu_seconds"]["seconds"]
    meas = measured_ratio(a, b)
    e = abs(pred / meas["median"] - 1)
    h100 = {x: pp[a]["h100_seconds"][x]["seconds"] / pp[b]["h100_seconds"][x]["seconds"] for x in EXECUTIONS}
    return {"pair": f"{a} / {b}", "h100": h100, "band": [min(h100.values()) * (1 - e), max(h100.values()) * (1 + e)],
            "validation_error": e, "proxy_predicted": pred,
            "proxy_measured": {k: meas[k] for k in ("median", "ci_lo", "ci_hi", "ci_coverage")},
            "flops_ratio": pp[a]["flops"] / pp[b]["flops"],
            "bytes_ratio": {x: pp[a][f"bytes_{x}"] / pp[b][f"bytes_{x}"] for x in EXECUTIONS},
            "cpu_at_paper_size": pp[a]["cpu_seconds"]["seconds"] / pp[b]["cpu_seconds"]["seconds"],
            "h100_at_proxy_size": {x: px[a]["h100_seconds"][x]["seconds"] / px[b]["h100_seconds"][x]["seconds"]
                                   for x in EXECUTIONS}}


def status(band: list[float], *, at_least: float | None = None, at_most: float | None = None) -> str:
    """'holds' when the band lies on the bounds' good side, 'fails' when it lies beyond one bound,
    'undecided' when a bound cuts it (`bench.ratio_verdict` on the band as an exact interval)."""
    holds, decided = bench.ratio_verdict({"ci_lo": band[0], "ci_hi": band[1], "ci_coverage": 1.0},
                                         at_least=at_least, at_most=at_most)
    return "holds" if holds else "fails" if decided else "undecided"


def decide_pair(paper: str, a: str, b: str, band: list[float], lo: float | None, hi: float | None) -> dict:
    """A sub-assertion on t_a / t_b: decided by the GPU measurement at the paper's size under the
    paper's execution (`PAPER_EXECUTION`) when its interval for the median ratio has the coverage
    every ratio statement needs (`bench.CI_LEVEL`); else by the cost model's band, with the
    measurement's own status beside it."""
    execution = PAPER_EXECUTION[paper]
    meas = measured_on_cuda(paper, a, b).get(execution)
    if meas is None:
        return {"status": status(band, at_least=lo, at_most=hi),
                "decided_by": f"cost-model band (no {execution} GPU measurement at the paper's size)"}
    ci = [meas["ci_lo"], meas["ci_hi"]]
    measured = {"measured": meas["median"], "measured_ci": ci, "measured_status": status(ci, at_least=lo, at_most=hi)}
    if meas["ci_coverage"] >= bench.CI_LEVEL:
        return {"status": measured["measured_status"], **measured,
                "decided_by": f"measured: {execution}, {meas['device']}, the paper's size, {meas['rounds']} rounds"}
    return {"status": status(band, at_least=lo, at_most=hi), **measured,
            "decided_by": f"cost-model band: the {execution} GPU measurement has {meas['rounds']} rounds, its "
                          f"interval's coverage {meas['ci_coverage']:.4f} < {bench.CI_LEVEL}"}


def reading_verdict(subs: dict[str, dict]) -> bool | None:
    statuses = [s["status"] for s in subs.values()]
    return False if "fails" in statuses else True if all(s == "holds" for s in statuses) else None


def cost_evidence(paper: str, pairs, model: dict) -> dict:
    """The `cost_model` evidence key: the compared variants' counts at both sizes, the
    comparisons, the validation and the machines."""
    variants = sorted({v for p in pairs for v in p})
    keys = ("params", "flops", "bytes_eager", "bytes_fused", "dispatched_ops", "kernels_fused")
    comparisons = {f"{a} / {b}": comparison(model, paper, a, b) for a, b in pairs}
    return {
        "method": "roofline per kernel (max of FLOPs / peak and bytes / bandwidth) plus a fixed cost per "
                  "op, on counts traced under FakeTensorMode (particles.lm.cost_model); eager and "
                  "ideal-fusion execution; the band carries the pair's CPU validation error",
        "paper_size": PAPER_STEPS[paper].as_dict(), "proxy_size": PROXY.as_dict(),
        "counts": {v: {"paper": {k: model["papers"][paper][v][k] for k in keys},
                       "proxy": {k: model["proxy"][v][k] for k in keys}} for v in variants},
        "comparisons": comparisons,
        "validation": validation(model),
        "machines": {"h100": model["config"]["h100"], "cpu": model["cpu"]},
        "cuda_measurement": cuda_check(paper, comparisons),
    }


def timing_scale(paper: str) -> dict:
    """Ours (the CPU proxy measurement and the cost model's paper-size count) beside the paper's."""
    p = get_protocol(PROTOCOLS[paper])
    s = PAPER_STEPS[paper]
    model = cost_model()
    return {
        "ours_measured": {"params": model["proxy"][bench.BASELINE]["params"],
                          "layers_heads_width": f"{PROXY.n_layer}/{PROXY.n_head}/{PROXY.n_embd}",
                          "context": PROXY.block_size, "tokens_per_step": PROXY.batch_size * PROXY.block_size,
                          "tokenizer": "bytes (vocabulary 256; random tokens: timing does not depend on them)",
                          "precision": "float32", "execution": "PyTorch eager",
                          "hardware": "CPU, process time of 1 thread (AMD EPYC)"},
        "ours_cost_model": {"params": model["papers"][paper][bench.BASELINE]["params"],
                            "layers_heads_width": f"{s.n_layer}/{s.n_head}/{s.n_embd}", "context": s.block_size,
                            "tokens_per_step_per_device": s.batch_size * s.accumulation * s.block_size,
                            "micro_batch": s.batch_size, "accumulation": s.accumulation,
                            "tokenizer": f"vocabulary {s.vocab_size}", "precision": "bfloat16 autocast",
                            "hardware": cm.H100.name},
        "ours_measured_gpu": _gpu_scale(paper),
        "paper": {"params": p.params, "layers_heads_width": "/".join(str(p.settings[k]) for k in
                                                                      ("n_layer", "n_head", "n_embd")),
                  "context": p.settings["block_size"], "tokens_per_step": p.settings["batch_size"] * p.settings["block_size"],
                  **{k: p.fixed[k] for k in ("tokenizer", "corpus", "precision", "hardware")}, "source": p.locator},
    }


def _gpu_scale(paper: str) -> dict | str:
    """The committed GPU measurement's device, size and executions (or that there is none)."""
    groups = {x: measured_groups(x, paper) for x in EXECUTIONS_MEASURED}
    groups = {x: g for x, g in groups.items() if g}
    if not groups:
        return "none committed"
    s = PAPER_STEPS[paper]
    first = next(iter(groups.values()))[0]
    return {"device": first["device"], "torch": first["torch"], "params": model_params(paper),
            "layers_heads_width": f"{s.n_layer}/{s.n_head}/{s.n_embd}", "context": s.block_size,
            "micro_batch": s.batch_size, "accumulation": s.accumulation, "precision": "bfloat16 autocast",
            "executions": {x: {"rounds": g[0]["rounds"], "variants": sorted({v for part in g for v in part["variants"]}),
                               "groups": len(g)}
                           for x, g in groups.items()}}


def model_params(paper: str) -> int:
    return cost_model()["papers"][paper][bench.BASELINE]["params"]


EXECUTION_STATED = {"momentum_streams": "torch.compile (App. D.4, Table 6)", "yurii": "not stated ('we did not "
                    "optimize throughput', §5)", "sympformer": "not stated"}


def timing_deviations(paper: str) -> list[dict]:
    """What the cost-model verdict changes from the paper's timing protocol, and what the CPU
    proxy measurement beside it changes."""
    p = get_protocol(PROTOCOLS[paper])
    gpu = _gpu_scale(paper)
    return [
        {"setting": "timing", "paper": "seconds per step printed by the training loop",
         "ours": "seconds per optimizer step on one GPU, measured (accumulation x a micro-batch's forward + "
                 "backward + the optimizer step, interleaved rounds) where committed, else predicted (roofline)"},
        {"setting": "hardware", "paper": p.fixed["hardware"],
         "ours": f"measured: {gpu['device']}; predicted: {cm.H100.source}" if isinstance(gpu, dict) else cm.H100.source},
        {"setting": "execution", "paper": EXECUTION_STATED[paper],
         "ours": f"measured: {', '.join(gpu['executions'])} (the {PAPER_EXECUTION[paper]} one decides); "
                 "predicted: envelope of eager (every op a kernel) and ideal fusion (a lower bound on traffic)"
                 if isinstance(gpu, dict) else
                 "envelope of eager (every op a kernel) and ideal fusion (a lower bound on traffic)"},
        {"setting": "data parallel", "paper": p.fixed["hardware"],
         "ours": "one device's share of the step; gradient all-reduce not modeled"},
        {"setting": "precision", "paper": p.fixed["precision"],
         "ours": "bfloat16 autocast under torch's CPU autocast op lists (CUDA's differ in a few ops)"},
        {"setting": "proxy measurement (evidence beside the verdict)", "paper": f"{p.settings['n_layer']} layers, "
         f"width {p.settings['n_embd']}, T = {p.settings['block_size']}, GPU",
         "ours": f"{PROXY.n_layer} layers, width {PROXY.n_embd}, T = {PROXY.block_size}, batch {PROXY.batch_size}, "
                 "vocabulary 256, float32, AdamW on every parameter, CPU (1 thread)"},
    ]


def timing_evidence(budget: str, paper: str, readings: dict[str, dict[str, tuple]], criterion: str,
                    extra: dict | None = None) -> Evidence:
    """Decide every reading {text: {sub-assertion: (a, b, at_least, at_most)}} on the bands of
    the cost model at the paper's size; the paper is wrong only if every reading fails. Both
    budgets read the committed counts; the full budget also checks them against the code."""
    model = cost_model(check_code=budget == "full")
    pairs = list(dict.fromkeys((a, b) for subs in readings.values() for a, b, _, _ in subs.values()))
    cost = cost_evidence(paper, pairs, model)
    decided, rds = {}, []
    for text, subs in readings.items():
        rows = {}
        for name, (a, b, lo, hi) in subs.items():
            comp = cost["comparisons"][f"{a} / {b}"]
            rows[name] = {"pair": comp["pair"], "band": comp["band"], "at_least": lo, "at_most": hi,
                          **decide_pair(paper, a, b, comp["band"], lo, hi)}
        decided[text] = rows
        rds.append(reading(text, reading_verdict(rows), statuses={k: r["status"] for k, r in rows.items()}))
    t = committed_throughput()
    numbers = {"cost_model": cost, "sub_assertions": decided,
               "proxy_measured": {f"{a} / {b}": measured_ratio(a, b) for a, b in pairs},
               "scale": timing_scale(paper), "deviations": timing_deviations(paper),
               "flatness": "not applicable: timing", "n_seeds": len(t["seeds"]), "seeds": t["seeds"],
               "n_rounds": t["rounds"], **(extra or {})}
    failing = {f"{text}: {k}": r for text, rows in decided.items() for k, r in rows.items() if r["status"] == "fails"}
    return decide_readings(rds, criterion=criterion, numbers=numbers, counterexample=failing or None,
                           ambiguity="the readings disagree: " + "; ".join(f"{r['reading']} -> {r['verdict']}" for r in rds))


BAND = ("a sub-assertion on a step-time ratio is decided by the GPU measurement at the paper's size "
        "under the paper's execution (seed 002: compiled; seeds 000, 004: eager) when the 95% interval "
        "for its median per-round ratio has at least 95% coverage, else by the cost model's band = "
        "[min r (1 - e), max r (1 + e)], r the predicted ratio at the paper's size on the H100 roofline "
        "under eager and ideal-fusion execution, e the CPU validation error of the same pair at proxy "
        "size (cost_model.validation); it holds when the interval (band) lies on its side of the bound, "
        "fails when it lies on the other, else undecided; a reading holds when all hold, fails when one "
        "fails; the paper is wrong only if every reading fails")


# ---------------------------------------------------------------------------------------------
# seed 002 §4.2 and App. D.6

# Quoted from seed 002 App. D.6 (LaTeX form; the extraction drops the en dash of each printed
# range, e.g. "≈3.3–3.4", whose pieces it keeps as {\approx}3.3 and 3.4: restored here).
D6 = (r"The vanilla transformer and the momentum-stream variants are all comparable: "
      r"VanillaTransformer ${\approx}3.3$–$3.4$ s/step, TMMFormer ${\approx}2.7$–$3.9$ s/step, YuriiFormer "
      r"${\approx}2.8$ s/step, and AdamFormer ${\approx}3.4$ s/step. The TMMFormer auxiliary velocity "
      r"stream and per-layer scalars add negligible cost relative to attention and the MLP, so TMMFormer "
      r"does not materially increase runtime over the vanilla baseline.")
D6_MUON = (r"The only variant with a large penalty is MuonFormer, whose per-token Newton–Schulz iteration "
           r"runs at ${\approx}10$–$16$ s/step (${\approx}3$–$5\times$ slower).")
# "comparable" as the paper's own D.6 numbers are: TMMFormer's printed range against vanilla's
COMPARABLE_D6 = PAPER_002_S_PER_STEP["tmm"][1] / PAPER_002_S_PER_STEP["gd-lt"][0]  # 3.9 / 3.3 = 1.18


def _comparable(margin: float) -> dict[str, tuple]:
    return {"TMMFormer does not materially increase runtime": ("tmm", "gd-lt", None, margin),
            **{f"{label} comparable to vanilla": (v, "gd-lt", 1 / margin, margin)
               for label, v in (("YuriiFormer", "yurii"), ("AdamFormer", "adam"))}}


@claim("momentum_streams:wall-clock", locator="§4.2, Appendix D.6",
       statement="momentum-stream blocks (TMMFormer, YuriiFormer) and AdamFormer train at a step time "
                 "comparable to the vanilla transformer's; TMMFormer's velocity stream adds negligible "
                 "cost (decided at 12L/768/T=1024 by a GPU measurement at that size, else the validated cost model's H100 band)",
       method="experiment", expect="inconclusive", figures=["cost-model", "bench-training"],
       referee="changed, fails -> inconclusive: the fail was CPU process time at 4 layers, width 128. "
               "Now decided by the GPU measurement at the paper's size and execution (torch.compile, "
               "NVIDIA H200, 7 interleaved rounds; the H100 roofline band is reported beside it): "
               "step time over vanilla's TMMFormer 1.168 [1.160, 1.187], YuriiFormer 1.153 [1.147, "
               "1.160], AdamFormer 1.223 [1.166, 1.231]; all three fail the 10% reading of 'comparable' "
               "/ 'negligible'; under the paper's own D.6 spread (18%) YuriiFormer holds while "
               "TMMFormer's and AdamFormer's intervals straddle 1.18, so that reading is undecided",
       paper_text=r"TMMFormer also does not materially increase runtime: it and the vanilla transformer both "
                  r"train at ${\approx}3$ s/step on OpenWebText (no significant difference), with full "
                  r"per-variant wall-clock in Appendix D.6. [...] " + D6)
def momentum_wall_clock(budget: str) -> Evidence:
    """Sub-assertions: TMMFormer <= vanilla x m (§4.2, D.6 'negligible', 'not materially'),
    YuriiFormer and AdamFormer within [1/m, m] ('all comparable'). Readings of m: 1.10 (a tenth:
    'negligible'), or the spread the paper itself calls comparable (3.9 / 3.3 = 1.18). HBFormer
    is not in the sentence's list; its ratio is reported."""
    readings = {f"negligible / comparable = within {NEGLIGIBLE - 1:.0%}": _comparable(NEGLIGIBLE),
                f"comparable as the paper's own D.6 spread (TMMFormer {PAPER_002_S_PER_STEP['tmm'][1]} vs "
                f"vanilla {PAPER_002_S_PER_STEP['gd-lt'][0]} s/step: within {COMPARABLE_D6 - 1:.0%})":
                    _comparable(COMPARABLE_D6)}
    return timing_evidence(budget, "momentum_streams", readings, criterion=BAND, extra={
        "reported_not_decided": {"hb / gd-lt": comparison(cost_model(), "momentum_streams", "hb", "gd-lt")},
        "paper_ratio_range_D6": _paper_002_ranges()})


def _paper_002_ranges() -> dict:
    lo_b, hi_b = PAPER_002_S_PER_STEP["gd-lt"]
    return {v: [lo / hi_b, hi / lo_b] for v, (lo, hi) in PAPER_002_S_PER_STEP.items() if v != "gd-lt"}


@claim("momentum_streams:wall-clock-muon", locator="Appendix D.6",
       statement="MuonFormer, with its per-token head-wise Newton–Schulz iteration, trains ≈3–5× slower "
                 "per step than the vanilla transformer (decided at 12L/768/T=1024 by a GPU measurement at "
                 "that size, else the validated cost model's H100 band)",
       method="experiment", expect="holds", figures=["cost-model", "bench-training"],
       paper_text=D6_MUON,
       referee="changed, fails -> inconclusive -> holds (ambiguous) -> holds: the fail was CPU process "
               "time at 4 layers, width 128 (2.0-2.6x); the roofline band at the paper's size straddled "
               "3; the compiled measurement at the paper's size (H200, 26 Nov 2026, 7 rounds) gives "
               "2.79x [2.69, 2.88]: inside '≈3' read to its one significant digit. Issue 38 (both "
               "referees): the failing readings take 3 or the paper's own 10/3.4 = 2.94 as exact "
               "bounds, dropping the printed '≈', a tolerance the text does not give (R3): not admitted")
def muon_wall_clock(budget: str) -> Evidence:
    """App. D.6 (seed 002): MuonFormer at '≈10–16 s/step (≈3–5× slower)', values the paper calls
    indicative ('hardware varies across SLURM jobs'). Sub-assertions: MuonFormer slower than vanilla,
    by the printed factor. Readings of '≈3–5×': over its one-digit rounding [2.5, 5.5), the '≈' the
    text prints; as exact bounds [3, 5], or the paper's own seconds (10/3.4 to 16/3.3 = [2.94, 4.85])
    as exact bounds, which drop the '≈' (R3: shown, not deciding)."""
    lo_b, hi_b = PAPER_002_S_PER_STEP["gd-lt"]
    lo_m, hi_m = PAPER_002_S_PER_STEP["muon"]
    exact = "3-5x as exact bounds (the printed '≈' dropped)"
    seconds = f"the paper's own seconds ({lo_m}-{hi_m} vs {lo_b}-{hi_b} s/step) as exact bounds"
    ranges = {exact: MUON_SLOWER, "≈3-5x to its one significant digit": (2.5, 5.5),
              seconds: (lo_m / hi_b, hi_m / lo_b)}
    readings = {text: {"MuonFormer slower than vanilla": ("muon", "gd-lt", 1.0, None),
                       f"by {lo:.2f}-{hi:.2f}x": ("muon", "gd-lt", lo, hi)} for text, (lo, hi) in ranges.items()}
    ev = timing_evidence(budget, "momentum_streams", readings, criterion=BAND,
                         extra={"paper_ratio_range_D6": _paper_002_ranges()})
    verdict = {"holds": True, "fails": False, "inconclusive": None}
    rds = [reading(r["reading"], verdict[r["verdict"]], statuses=r["statuses"],
                   not_admitted="invented" if r["reading"] in (exact, seconds) else None)
           for r in ev.readings]   # a tolerance the text does not give (R3)
    return decide_readings(rds, criterion=ev.criterion, numbers=ev.numbers, counterexample=ev.counterexample)


@claim("momentum_streams:wall-clock-only-muon", locator="Appendix D.6",
       statement="the only optimizer-inspired variant with a large per-step penalty is MuonFormer "
                 "(decided at 12L/768/T=1024 by a GPU measurement at that size, else the validated cost model's H100 band)",
       method="experiment", expect="holds", figures=["cost-model", "bench-training"],
       paper_text=D6_MUON,
       referee="changed, fails -> inconclusive -> holds (ambiguous): the fail was SOAPFormer/ShampooFormer "
               "at 20x on CPU; D.6 reports the OpenWebText runs, which SOAPFormer did not complete (D.7), "
               "so 'the only variant' is read two ways: among the timed runs (the compiled H200 "
               "measurement at the paper's size, 26 Nov 2026: MuonFormer 2.79x, every other timed "
               "stream <= 1.23x: holds) and among every variant (SOAP/Shampoo >= 15x: fails)")
def only_muon_wall_clock(budget: str) -> Evidence:
    """'Large' read as at least `LARGE_PENALTY` x vanilla's step time (the paper's example is 3-5x).
    Readings of 'the only variant': among the variants D.6 times (TMMFormer, YuriiFormer,
    AdamFormer: the OpenWebText runs), or among every optimizer-inspired variant of the paper."""
    muon = {"MuonFormer has a large penalty": ("muon", "gd-lt", LARGE_PENALTY, None)}
    timed = {f"{v} has no large penalty": (v, "gd-lt", None, LARGE_PENALTY) for v in ("tmm", "yurii", "adam")}
    every = {f"{v} has no large penalty": (v, "gd-lt", None, LARGE_PENALTY) for v in NON_MUON_002}
    readings = {"among the variants D.6 times (the OpenWebText runs)": muon | timed,
                "among every optimizer-inspired variant of the paper": muon | every}
    return timing_evidence(budget, "momentum_streams", readings, criterion=BAND + f"; 'large' = at least "
                           f"{LARGE_PENALTY}x vanilla's step time")


# ---------------------------------------------------------------------------------------------
# seed 004 §6 and seed 000 §6

@claim("yurii:wall-clock", locator="§6 (Polyak vs Nesterov)",
       statement="Nesterov's lookahead comes at the same compute as Polyak's heavy ball (no extra "
                 "attention/MLP oracle calls), Euler and Lie–Trotter (FLOPs, and step time measured "
                 "on a GPU at 12L/768/T=1024)",
       method="experiment", expect="holds", figures=["cost-model", "bench-training"],
       paper_text="Compared to Polyak, Nesterov’s lookahead yields a small additional loss improvement at "
                  "the same compute and parameter budget (no extra attention/MLP oracle calls).")
def yurii_wall_clock(budget: str) -> Evidence:
    """Readings of 'the same compute': the same FLOPs per step (counted, exact: the equivalence
    margin is 0), or the same step time within 10% (`decide_pair`: the GPU measurement, else the
    cost-model band)."""
    model = cost_model()
    pp = model["papers"]["yurii"]
    flops = {s: pp[f"nesterov-{s}"]["flops"] / pp[f"polyak-{s}"]["flops"] for s in ("euler", "lt")}
    params = {s: pp[f"nesterov-{s}"]["params"] - pp[f"polyak-{s}"]["params"] for s in ("euler", "lt")}
    time = {f"Nesterov+{s} step time = Polyak+{s}'s": (f"nesterov-{s}", f"polyak-{s}", 1 / NEGLIGIBLE, NEGLIGIBLE)
            for s in ("euler", "lt")}
    ev = timing_evidence(budget, "yurii", {"the same step time, within 10%": time}, criterion=BAND)
    flop_rows = {f"Nesterov+{s} FLOPs = Polyak+{s}'s": {"ratio": r, "status": "holds" if r == 1.0 else "fails"}
                 for s, r in flops.items()}
    rds = [reading("the same FLOPs per step (matmul FLOPs counted by FlopCounterMode: the oracle calls)",
                   reading_verdict(flop_rows), statuses={k: r["status"] for k, r in flop_rows.items()}),
           *ev.readings]
    numbers = dict(ev.numbers, flops_ratio=flops, extra_parameters=params,
                   sub_assertions={rds[0]["reading"]: flop_rows, **ev.numbers["sub_assertions"]})
    return decide_readings(rds, criterion="FLOPs per step at the paper's size equal (exact count); or " + BAND,
                           numbers=numbers, ambiguity="the readings disagree: " + "; ".join(
                               f"{r['reading']} -> {r['verdict']}" for r in rds))


SYMP_TEXT = ("We observe that the oracle-preserving SympFormer outperforms the baseline and the Yuriiformer "
             "architecture, achieving lower validation loss at higher wall-time costs for the same number of "
             "iterations.")


@claim("sympformer:wall-clock", locator="§6, Table 1",
       statement="the SympFormer variants (softmax attention) cost more wall time per iteration than "
                 "the baseline transformer and YuriiFormer (decided at Table 1's 8L/8H/64, block 512 by "
                 "a GPU measurement at that size, else the validated cost model's H100 band)",
       method="experiment", expect="holds", figures=["cost-model", "bench-training"],
       paper_text=SYMP_TEXT)
def sympformer_wall_clock(budget: str) -> Evidence:
    """Each of Table 1's five SympFormer rows costs more per iteration (ratio > 1) than the
    Baseline; second reading: than both the Baseline and YuriiFormer-Lie-Trotter."""
    base = {f"{v} above Baseline": (v, "gd-lt", 1.0, None) for v in SYMPFORMER_SOFTMAX}
    yurii = {f"{v} above YuriiFormer": (v, "nesterov-lt", 1.0, None) for v in SYMPFORMER_SOFTMAX}
    t1 = PAPER_000_TABLE_1_SECONDS
    return timing_evidence(budget, "sympformer", {"higher than the Baseline": base,
                                          "higher than the Baseline and YuriiFormer": base | yurii},
                           criterion=BAND, extra={"paper_table_1_ratio": {k: v / t1["gd-lt"] for k, v in t1.items()}})

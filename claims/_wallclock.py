"""How the papers' wall-clock statements are decided (the claims: seed 002 §4.2 and App. D.6 in
`claims.momentum_streams.wallclock`, seed 004 §6 in `claims.yurii.training`, seed 000 §6 / Table 1
in `claims.sympformer.training`): at the papers' own sizes, by a GPU measurement where one was
committed, else by a validated cost model (issue 25, item 5).

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

from claims import Evidence, decide_readings, disagreement, reading
from claims._committed import StaleResult, provenance, read_committed, write_committed
from claims._gpu import (EXECUTIONS_MEASURED, PAPER_EXECUTION, PAPER_STEPS, PAPER_VARIANTS, cuda_check,
                         measured_groups, measured_on_cuda)
from claims._protocol import get_protocol
from claims.momentum_streams.diagnostics import committed_throughput
from particles.lm import bench
from particles.lm import cost_model as cm
from particles.lm.variants import VARIANTS
from particles.threads import torch_threads


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
                    extra: dict | None = None, not_admitted: dict[str, str] | None = None) -> Evidence:
    """Decide every reading {text: {sub-assertion: (a, b, at_least, at_most)}} on the bands of
    the cost model at the paper's size; the paper is wrong only if every admitted reading fails
    (`not_admitted`: {text: the rule's key}, a reading shown but not deciding). Both budgets read
    the committed counts; the full budget also checks them against the code."""
    not_admitted = not_admitted or {}
    if unknown := set(not_admitted) - set(readings):
        raise ValueError(f"not_admitted names no reading: {sorted(unknown)}")
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
        rds.append(reading(text, reading_verdict(rows), statuses={k: r["status"] for k, r in rows.items()},
                           not_admitted=not_admitted.get(text)))
    t = committed_throughput()
    numbers = {"cost_model": cost, "sub_assertions": decided,
               "proxy_measured": {f"{a} / {b}": measured_ratio(a, b) for a, b in pairs},
               "scale": timing_scale(paper), "deviations": timing_deviations(paper),
               "flatness": "not applicable: timing", "n_seeds": len(t["seeds"]), "seeds": t["seeds"],
               "n_rounds": t["rounds"], **(extra or {})}
    failing = {f"{text}: {k}": r for text, rows in decided.items() if text not in not_admitted
               for k, r in rows.items() if r["status"] == "fails"}
    return decide_readings(rds, criterion=criterion, numbers=numbers, counterexample=failing or None,
                           ambiguity=disagreement(rds))


BAND = ("a sub-assertion on a step-time ratio is decided by the GPU measurement at the paper's size "
        "under the paper's execution (seed 002: compiled; seeds 000, 004: eager) when the 95% interval "
        "for its median per-round ratio has at least 95% coverage, else by the cost model's band = "
        "[min r (1 - e), max r (1 + e)], r the predicted ratio at the paper's size on the H100 roofline "
        "under eager and ideal-fusion execution, e the CPU validation error of the same pair at proxy "
        "size (cost_model.validation); it holds when the interval (band) lies on its side of the bound, "
        "fails when it lies on the other, else undecided; a reading holds when all hold, fails when one "
        "fails; the paper is wrong only if every reading fails")

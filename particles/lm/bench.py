"""Training throughput of the residual-update variants, measured as ratios in one process.

Two comparisons, both paired and interleaved so that machine load cancels in the ratios:

* vanilla GPT vs `ReferenceGPT`, a model of the same size assembled from torch's own
  `nn.TransformerEncoderLayer` (pre-norm, GELU, causal mask, no biases): tokens/s of each and
  their ratio (the issue's target: vanilla ≥ 0.95 × reference);
* every variant's training-step time over vanilla, against the papers' wall-clock statements
  (seed 002 §4.2 and App. D.6: momentum streams add negligible cost, MuonFormer is ≈3–5× slower;
  seed 000 §6 / Table 1: SympFormer variants cost more wall time; seed 004 §6: Nesterov's
  lookahead comes at the same compute as Polyak and GD).

A training step is forward + cross-entropy + backward + AdamW step + zero_grad on one fixed
batch. Each round times `steps` consecutive steps of every model, in an order rotated between
rounds; the per-round ratio t_model / t_baseline is the paired statistic, summarized by its
median, quartiles and a distribution-free 95% confidence interval for the median (which decides
the ratio statements). On CPU the clock is the process's CPU time (`time.process_time`), which on a
shared machine excludes the time the process waits for a core; run single-threaded it is the
step's compute cost. On CUDA it is wall time after a device synchronization. Timings are
measurements, never unit-test assertions.
"""
from __future__ import annotations

import contextlib
import copy
import time
from typing import Callable, Mapping, Sequence

import numpy as np
import torch
from torch import nn

from particles.threads import torch_threads
from theory.checks import positive_int

# the timing primitives live in `particles.lm.timing` (shared with `cost_model` without an
# import circle) and stay importable from here
from .timing import (ForwardLoss, Timing, _sync, logits_cross_entropy, step_optimizers,  # noqa: F401
                     time_interleaved, time_training)

class ReferenceGPT(nn.Module):
    """A GPT built from torch's `nn.TransformerEncoderLayer` (the throughput reference).

    Token + learned position embeddings, `n_layer` pre-norm encoder layers (GELU MLP of width
    4·n_embd, dropout 0, no biases) under a causal mask, final LayerNorm, weight-tied head: the
    parameter set of the vanilla GPT backbone, wired by torch's own layers.
    """

    def __init__(self, vocab_size: int, block_size: int, n_layer: int, n_head: int, n_embd: int, *,
                 device: torch.device | str | None = None, dtype: torch.dtype | None = None):
        super().__init__()
        for name, value in (("vocab_size", vocab_size), ("block_size", block_size),
                            ("n_layer", n_layer), ("n_head", n_head), ("n_embd", n_embd)):
            positive_int(value, name)
        if n_embd % n_head:
            raise ValueError(f"n_embd={n_embd} must be divisible by n_head={n_head}")
        kw = {"device": device, "dtype": dtype}
        self.block_size = block_size
        self.wte = nn.Embedding(vocab_size, n_embd, **kw)
        self.wpe = nn.Embedding(block_size, n_embd, **kw)
        layer = nn.TransformerEncoderLayer(n_embd, n_head, 4 * n_embd, dropout=0.0, activation="gelu",
                                           batch_first=True, norm_first=True, bias=False, **kw)
        self.blocks = nn.TransformerEncoder(layer, n_layer, enable_nested_tensor=False)
        self.ln_f = nn.LayerNorm(n_embd, bias=False, **kw)
        self.head = nn.Linear(n_embd, vocab_size, bias=False, **kw)
        self.head.weight = self.wte.weight
        self.register_buffer("causal_mask", nn.Transformer.generate_square_subsequent_mask(
            block_size, device=device, dtype=dtype), persistent=False)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        T = idx.shape[1]
        if T > self.block_size:
            raise ValueError(f"idx has {T} tokens, more than block_size={self.block_size}")
        x = self.wte(idx) + self.wpe(torch.arange(T, device=idx.device))
        x = self.blocks(x, mask=self.causal_mask[:T, :T], is_causal=True)
        return self.head(self.ln_f(x))


CI_LEVEL = 0.95  # confidence of the interval that decides a ratio statement


def median_interval(n: int, level: float = CI_LEVEL) -> tuple[int, int, float]:
    """Distribution-free confidence interval for a median from n i.i.d. samples: the order
    statistics (k, n + 1 − k) (1-based) with the largest k whose coverage 1 − 2·P(Bin(n, ½) ≤ k − 1)
    is still ≥ `level`, and that coverage. For n < 6 no order-statistic interval reaches 95%: the
    full range (k = 1) is returned with its coverage 1 − 2^{1−n} < `level`."""
    from scipy.stats import binom
    n = positive_int(n, "n")
    if not 0 < level < 1:
        raise ValueError(f"level must lie in (0, 1), got {level!r}")
    k = 1
    while k + 1 <= (n + 1) // 2 and 1 - 2 * binom.cdf(k, n, 0.5) >= level:
        k += 1
    return k, n + 1 - k, float(1 - 2 * binom.cdf(k - 1, n, 0.5))


def ratio_summary(ratios) -> dict[str, float]:
    """Median, quartiles and the distribution-free confidence interval [ci_lo, ci_hi] for the
    median (`median_interval`) of per-round ratios, whose width shrinks like 1/√rounds, unlike the
    interquartile range."""
    r = np.asarray(ratios, dtype=np.float64)
    if r.ndim != 1 or r.size == 0 or not np.all(np.isfinite(r)) or np.any(r <= 0):
        raise ValueError(f"ratios must be a non-empty 1-D array of positive finite numbers, got {r!r}")
    q25, med, q75 = np.quantile(r, [0.25, 0.5, 0.75])
    lo, hi, coverage = median_interval(int(r.size))
    s = np.sort(r)
    return {"median": float(med), "q25": float(q25), "q75": float(q75), "rounds": int(r.size),
            "ci_lo": float(s[lo - 1]), "ci_hi": float(s[hi - 1]), "ci_coverage": coverage}


def paired_ratio(timings: Mapping[str, Timing], name: str, baseline: str) -> dict[str, float]:
    """`ratio_summary` of the per-round ratios t_name / t_baseline (rounds are paired in time)."""
    for key in (name, baseline):
        if key not in timings:
            raise KeyError(f"no timing for {key!r}; have {sorted(timings)}")
    return ratio_summary(np.asarray(timings[name].step_seconds) / np.asarray(timings[baseline].step_seconds))


def ratio_verdict(ratio: Mapping[str, float], *, at_most: float | None = None,
                  at_least: float | None = None, level: float = CI_LEVEL) -> tuple[bool, bool]:
    """(printed_holds, decided) for the statement 'at_least ≤ median ratio ≤ at_most'.

    A bound passes when the confidence interval [ci_lo, ci_hi] for the median paired ratio lies
    entirely on its good side and fails when it lies entirely on the bad side; a bound inside the
    interval is undecided (machine noise covers it), and so is every bound when the interval's
    coverage is below `level` (too few rounds). Any failing bound decides 'fails'; all passing,
    'holds'.
    """
    lo, hi = ratio["ci_lo"], ratio["ci_hi"]
    outcomes = []
    if at_most is not None:
        outcomes.append("pass" if hi <= at_most else "fail" if lo > at_most else "open")
    if at_least is not None:
        outcomes.append("pass" if lo >= at_least else "fail" if hi < at_least else "open")
    if not outcomes:
        raise ValueError("ratio_verdict needs at_most and/or at_least")
    if ratio["ci_coverage"] < level:
        return False, False
    if "fail" in outcomes:
        return False, True
    return all(o == "pass" for o in outcomes), all(o == "pass" for o in outcomes)


def parameter_count(model: nn.Module) -> int:
    """Distinct parameters (a tied weight counted once)."""
    return sum(p.numel() for p in {id(p): p for p in model.parameters()}.values())


def fixed_batch(vocab_size: int, batch_size: int, block_size: int, *, seed: int = 0,
                device: torch.device | str = "cpu") -> tuple[torch.Tensor, torch.Tensor]:
    """A deterministic random token batch (timing does not depend on the token values)."""
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, vocab_size, (batch_size, block_size + 1), generator=g)
    return tokens[:, :-1].to(device), tokens[:, 1:].to(device)


def bench(factories: Mapping[str, Callable[[], nn.Module]], *, baseline: str, vocab_size: int,
          batch_size: int, block_size: int, rounds: int, steps: int, warmup: int = 2,
          device: torch.device | str = "cpu", seeds: Sequence[int] = (0,)) -> dict:
    """For each seed in turn: build every model from that seed (the same seed for all, so the
    paired models start alike) and time them interleaved for `rounds` rounds on that seed's batch.
    Tokens/s and ratios are over the pooled rounds (`rounds × len(seeds)`; the pairing unit is a
    round, within one seed); `median_ratio_per_seed` shows the seeds' agreement."""
    seeds = tuple(seeds)
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct and non-empty, got {seeds!r}")
    if baseline not in factories:
        raise ValueError(f"baseline {baseline!r} is not one of the models {sorted(factories)}")
    per_seed, params = {}, {}
    for seed in seeds:
        models = {}
        for name, make in factories.items():
            torch.manual_seed(seed)  # the factories may draw their inits from the global generator
            models[name] = make().to(device)
            params[name] = parameter_count(models[name])
        idx, targets = fixed_batch(vocab_size, batch_size, block_size, seed=seed, device=device)
        per_seed[seed] = time_training(models, idx, targets, rounds=rounds, steps=steps, warmup=warmup)
        del models
    timings = {name: Timing(name, tuple(x for seed in seeds for x in per_seed[seed][name].step_seconds),
                            batch_size * block_size) for name in factories}
    rows = {}
    for name, t in timings.items():
        rows[name] = {"params": params[name], "median_step_s": t.median_step,
                      "tokens_per_s": t.tokens_per_second, "step_seconds": list(t.step_seconds),
                      "ratio_to_baseline": paired_ratio(timings, name, baseline),
                      "median_ratio_per_seed": {str(seed): paired_ratio(per_seed[seed], name, baseline)["median"]
                                                for seed in seeds}}
    clock = "wall (synchronized)" if torch.device(device).type == "cuda" else "process CPU time"
    return {"baseline": baseline, "device": str(torch.device(device)), "clock": clock,
            "torch": torch.__version__, "threads": torch.get_num_threads(), "batch_size": batch_size,
            "block_size": block_size, "seeds": list(seeds), "rounds_per_seed": rounds,
            "rounds": rounds * len(seeds), "steps": steps, "models": rows}


# ---------------------------------------------------------------------------------------------
# the training-path benchmark (figure `bench-training`, the ledger's wall-clock claims)

BASELINE = "gd-lt"  # vanilla GPT = GD + Lie-Trotter (seed 004 eq. (5), nanoGPT)
REFERENCE = "torch-reference"


def bench_settings(budget: str) -> dict:
    """Model size and timing schedule per budget: `quick` resolves nothing (seconds, toy size),
    `full` is the compact CPU configuration (4 layers, width 128, 128 tokens) in a few minutes:
    three model initialisations (seeds) of every variant, 7 interleaved rounds each, 21 paired
    rounds in all (the 95% interval for a median needs at least 6)."""
    from .model import GPTConfig
    if budget == "quick":
        return {"config": GPTConfig(block_size=16, n_layer=2, n_head=2, n_embd=16), "batch_size": 2,
                "rounds": 2, "steps": 1, "warmup": 1, "seeds": (0,)}
    if budget == "full":
        return {"config": GPTConfig(block_size=128, n_layer=4, n_head=4, n_embd=128), "batch_size": 4,
                "rounds": 7, "steps": 3, "warmup": 1, "seeds": (0, 1, 2)}
    raise ValueError(f"budget must be 'quick' or 'full', got {budget!r}")


def training_throughput(budget: str, variants: Sequence[str] | None = None, *,
                        threads: int | None = 1, device: str = "cpu") -> dict:
    """Every variant (default: all of `VARIANTS`) and the torch reference, timed interleaved
    against vanilla. `threads` pins torch's intra-op threads for the measurement (restored after):
    one thread keeps the comparison stable on a shared machine."""
    from .model import GPT
    from .variants import VARIANTS, get_variant
    s = bench_settings(budget)
    cfg = s["config"]
    names = list(VARIANTS) if variants is None else list(variants)
    for name in names:
        get_variant(name)
    if BASELINE not in names:
        names.insert(0, BASELINE)
    factories: dict[str, Callable[[], nn.Module]] = {
        REFERENCE: lambda: ReferenceGPT(cfg.vocab_size, cfg.block_size, cfg.n_layer, cfg.n_head,
                                        cfg.n_embd)}
    factories.update({name: (lambda name=name: GPT(cfg, name)) for name in names})
    with torch_threads(threads):
        out = bench(factories, baseline=BASELINE, vocab_size=cfg.vocab_size,
                    batch_size=s["batch_size"], block_size=cfg.block_size, rounds=s["rounds"],
                    steps=s["steps"], warmup=s["warmup"], device=device, seeds=s["seeds"])
    out["config"] = cfg.as_dict()
    out["budget"] = budget
    # vanilla / reference throughput = t_reference / t_vanilla per round
    out["vanilla_over_reference"] = out["models"][REFERENCE]["ratio_to_baseline"]
    return out


# ---------------------------------------------------------------------------------------------
# seeds together: one torch.func ensemble vs the seeds one after the other (figure `bench-ensemble`)

def ensemble_settings(budget: str) -> dict[str, dict]:
    """The configurations the ensemble is timed at: the studies' model (`particles.lm.studies`:
    4 layers, width 64, 64 tokens, batch 32) and the wider bench model; `quick` is a toy size."""
    from .model import GPTConfig
    if budget == "quick":
        return {"toy": {"config": GPTConfig(block_size=16, n_layer=1, n_head=2, n_embd=16),
                        "batch_size": 2, "rounds": 2, "steps": 1}}
    if budget == "full":
        from .studies import STUDIES
        study = STUDIES["main"].config
        return {"study (width 64)": {"config": study.model_config, "batch_size": study.batch_size,
                                     "rounds": 11, "steps": 2},
                "bench (width 128)": {"config": bench_settings("full")["config"], "batch_size": 4,
                                      "rounds": 11, "steps": 2}}
    raise ValueError(f"budget must be 'quick' or 'full', got {budget!r}")


class Ensemble:
    """Models of one architecture trained as one: their parameters stacked along a new leading
    axis (`torch.func.stack_module_state`, a copy: the models themselves are left alone), the
    per-model gradients by `vmap(grad(loss ∘ functional_call))`, one AdamW over the stacked
    tensors (AdamW acts elementwise, so this is each model's own AdamW). `step` takes batches
    (n_models, B, T)."""

    def __init__(self, models: Sequence[nn.Module], lr: float = 1e-4):
        from torch.func import functional_call, grad, stack_module_state, vmap
        self.params, self.buffers = stack_module_state(list(models))
        skeleton = copy.deepcopy(models[0]).to("meta")
        self.optimizer = torch.optim.AdamW(self.params.values(), lr=lr)

        def loss(p, b, idx, targets):
            return logits_cross_entropy(lambda x: functional_call(skeleton, (p, b), (x,)), idx, targets)

        self._grads = vmap(grad(loss))

    def step(self, idx: torch.Tensor, targets: torch.Tensor) -> None:
        for name, g in self._grads(self.params, self.buffers, idx, targets).items():
            self.params[name].grad = g
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)


def ensemble_speedup(budget: str, *, n_models: int = 3, variant: str = BASELINE,
                     threads: int | None = 1) -> dict:
    """Per configuration of `ensemble_settings`: `n_models` seeds of `variant` trained one after the
    other (an ordinary AdamW step each) vs together as one `Ensemble`, each seed on its own
    batch, timed interleaved; speedup = t_one_after_the_other / t_together per round (> 1: the
    ensemble is faster), summarized by `ratio_summary`."""
    from .model import GPT
    n_models = positive_int(n_models, "n_models")
    out = {}
    with torch_threads(threads):
        for label, s in ensemble_settings(budget).items():
            cfg, B = s["config"], s["batch_size"]
            models = []
            for seed in range(n_models):
                torch.manual_seed(seed)
                models.append(GPT(cfg, variant))
            batches = [fixed_batch(cfg.vocab_size, B, cfg.block_size, seed=seed) for seed in range(n_models)]
            idx, targets = (torch.stack(t) for t in zip(*batches))
            opts = [torch.optim.AdamW(m.parameters(), lr=1e-4) for m in models]
            together = Ensemble(models)

            def one_after_the_other() -> None:
                for m, o, (x, y) in zip(models, opts, batches):
                    logits_cross_entropy(m, x, y).backward()
                    o.step()
                    o.zero_grad(set_to_none=True)

            calls = {"one after the other": one_after_the_other, "together": lambda: together.step(idx, targets)}
            for call in calls.values():  # warm-up
                call()
            seconds = time_interleaved(calls, s["rounds"], repeat=s["steps"])
            t_seq, t_ens = (np.asarray(seconds[k]) for k in calls)
            out[label] = {"config": cfg.as_dict(), "batch_size": B, "rounds": s["rounds"], "steps": s["steps"],
                          "tokens_per_step": n_models * B * cfg.block_size,
                          "seconds": {k: list(v) for k, v in seconds.items()},
                          "tokens_per_s": {k: n_models * B * cfg.block_size / float(np.median(v))
                                           for k, v in seconds.items()},
                          "speedup": ratio_summary(t_seq / t_ens)}
    return {"variant": variant, "n_models": n_models, "threads": torch.get_num_threads() if threads is None
            else threads, "clock": "process CPU time", "configs": out}


# ---------------------------------------------------------------------------------------------
# Measured steps on a device (what the model predicts, timed where a GPU is lent)

def measure_steps(setting, variants, *, device: str = "cuda", rounds: int = 7,
                  micro_repeat: int = 3, seed: int = 0, compile: bool = False, progress: bool = True) -> dict:
    """Seconds of one optimizer step of every variant at `setting` (a `cost_model.StepSetting`),
    measured on `device`: the step `cost_model.trace_step` counts (`accumulation` forward + backward passes of a micro-batch under
    `setting.autocast`, then the optimizers of `timing.step_optimizers`, foreach AdamW), built on the device.

    Every model is resident at once and timed in interleaved rounds (`bench.time_interleaved`'s
    rotation, a device synchronization before each clock reading): per round and variant,
    `micro_repeat` micro-batches (mean: t_micro) then one optimizer step (t_update); the round's
    step time is accumulation x t_micro + t_update, and the paired statistic is the per-round
    ratio over the first variant. `compile`: the forward and backward through `torch.compile`
    (seed 002 App. D.4 trains compiled; the optimizer step stays eager); the compilation happens in
    the warm-up and is not timed. Returns per variant the per-round step seconds, the median
    micro and update times, and `bench.ratio_summary` of the ratio to the first variant."""
    from tqdm import tqdm

    from .model import GPT
    from .variants import get_variant
    variants = list(dict.fromkeys(variants))
    for v in variants:
        get_variant(v)
    rounds, micro_repeat = positive_int(rounds, "rounds"), positive_int(micro_repeat, "micro_repeat")
    dev = torch.device(device)
    cfg = setting.gpt_config()
    autocast = (torch.autocast(dev.type, dtype=torch.bfloat16) if setting.autocast == "bfloat16"
                else contextlib.nullcontext())
    idx, targets = fixed_batch(cfg.vocab_size, setting.batch_size, cfg.block_size, seed=seed, device=dev)
    models, opts = {}, {}
    for v in variants:
        torch.manual_seed(seed)
        models[v] = GPT(cfg, v).to(dev)
        opts[v] = step_optimizers(models[v], setting, foreach=dev.type == "cuda")

    # one compiled graph per model: dynamo counts them as recompilations of one frame and falls
    # back to eager past its limit (8 by default), which would time eager models as compiled ones
    if compile:
        torch._dynamo.reset()
    forward = {v: torch.compile(m) if compile else m for v, m in models.items()}

    def micro(v):
        with autocast:
            loss = logits_cross_entropy(forward[v], idx, targets)
        loss.backward()

    def update(v):
        for opt in opts[v]:
            opt.step()
        models[v].zero_grad(set_to_none=True)

    limit = (torch._dynamo.config.patch(recompile_limit=2 * len(models) + 8) if compile
             else contextlib.nullcontext())
    with limit:
        for v in variants:  # warm-up: autocast casts, gradients, optimizer state
            for _ in range(2):
                micro(v)
                update(v)
        clock = time.perf_counter if dev.type == "cuda" else time.process_time
        seconds = {v: {"micro": [], "update": [], "step": []} for v in variants}
        for r in tqdm(range(rounds), desc=f"measure {setting.n_layer}L/{setting.n_embd}", disable=not progress):
            for v in variants[r % len(variants):] + variants[: r % len(variants)]:
                _sync(dev)
                t0 = clock()
                for _ in range(micro_repeat):
                    micro(v)
                _sync(dev)
                t1 = clock()
                update(v)
                _sync(dev)
                t2 = clock()
                tm, tu = (t1 - t0) / micro_repeat, t2 - t1
                seconds[v]["micro"].append(tm)
                seconds[v]["update"].append(tu)
                seconds[v]["step"].append(setting.accumulation * tm + tu)
    base = np.asarray(seconds[variants[0]]["step"])
    out = {}
    for v in variants:
        step = np.asarray(seconds[v]["step"])
        out[v] = {"params": sum(p.numel() for p in models[v].parameters()),
                  "step_seconds": step.tolist(), "median_step_s": float(np.median(step)),
                  "median_micro_s": float(np.median(seconds[v]["micro"])),
                  "median_update_s": float(np.median(seconds[v]["update"])),
                  "ratio_to_first": ratio_summary(step / base)}
    peak = torch.cuda.max_memory_allocated(dev) if dev.type == "cuda" else None
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    return {"setting": setting.as_dict(), "device": name, "torch": torch.__version__,
            "clock": "wall (synchronized)" if dev.type == "cuda" else "process CPU time",
            "rounds": rounds, "micro_repeat": micro_repeat, "first": variants[0], "compiled": compile,
            "peak_memory_bytes": peak, "variants": out}

"""Training, sweeps and result files of the compact language-model path.

Results layout (how figures and diagnostics find the runs):

    <root>/<sweep>/<variant>-seed<k>.json   one result per run (written atomically at the end)
    <root>/<sweep>/<variant>-seed<k>.ckpt   checkpoint (model, optimizer, step, curves); resumable
    <root>/<sweep>/<variant>-seed<k>.pt     final weights (`load_model(result_path)` rebuilds it)

`<root>` defaults to ``runs/lm`` (git-ignored); the committed studies (`particles.lm.studies`) keep
their result JSONs in the tracked ``results/lm/<study>/``, their weights in ``runs/lm/<study>/``.
`load_results(sweep)` returns a sweep's finished results; `sweep(variants, seeds, base)` trains what
is missing (done: its JSON exists with the same configuration hash). `train` on a finished run
returns the recorded result without training, unless `force=True`.

A result JSON holds: ``config`` (the `TrainConfig`), ``config_hash``, ``data`` (source, sha256,
sizes, the byte entropies of the training split), ``variant``/``paper``/``label``, ``n_params``
and ``n_params_non_positional``, ``oracle_calls`` per block, ``curves`` (``step``, ``val_loss``,
``train_loss``, ``lr``), ``best_val_loss`` / ``final_val_loss`` (on the fixed evaluation batches of
the curve), ``val_loss_full`` (the final model on every non-overlapping window of the validation
split: the number the ledger compares), ``tokens_per_s``, ``step_time_s``, ``wall_clock_s``, and
the provenance ``commit``, ``torch``, ``python``, ``platform``, ``device``, ``threads``,
``world_size``, and ``flops_per_token`` (`model.flops_per_token`) with ``mfu``, the model FLOPs
utilisation against the device's bf16 peak (CUDA only).

Optimisers (seed 004 App. A.3, seed 002 App. D.3): AdamW by default with weight decay on matrices
and embeddings, none on norms and scalars, and the scalars at `scalar_lr_mult` times the learning
rate; `optimizer="muon"` routes 2-D block weights to `torch.optim.Muon` (momentum 0.95, Nesterov,
no weight decay) and the rest to AdamW. Linear warmup, then cosine to `min_lr_ratio` x peak for
every group; global gradient clipping. On CUDA: TF32 matmuls, fused AdamW, the forward under bf16
autocast (fp16 with a GradScaler where bf16 is unsupported), `torch.compile` when `compile=True`.
Launched by `torchrun` (WORLD_SIZE > 1) it trains with DistributedDataParallel (gloo on CPU, NCCL
on CUDA), every rank taking its rows of the same global batches; rank 0 writes.

A non-finite loss stops the run with `TrainingDiverged` naming the step and the learning rate;
the last checkpoint (written at the previous evaluation) is kept."""
from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import time
from contextlib import nullcontext
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Iterable

import numpy as np
import torch
import torch.nn.functional as F

from particles.provenance import ROOT, git
from particles.threads import torch_threads
from theory.io import atomic_write, atomic_write_json, run_lock

from .blocks import count_oracle_calls
from .data import DEFAULT_SOURCE, Batches, byte_entropies, load_corpus
from .model import GPT, GPTConfig, count_parameters, flops_per_token, peak_flops
from .variants import Variant, get_variant

DEFAULT_ROOT = Path("runs/lm")
VAL_SEED = 10_007  # the fixed validation batches of every curve, identical for every run


class TrainingDiverged(FloatingPointError):
    """The training loss became NaN or infinite."""


class ResultError(ValueError):
    """A result, checkpoint or weights file that is corrupt or belongs to another configuration."""


# Configuration fields added after results were committed, with their defaults: `as_dict` (and so
# the hash and the JSON) leaves them out at these values.
LATER_FIELDS = {"h0": None}


@dataclass(frozen=True)
class TrainConfig:
    """One training run. Defaults: the `main` study of docs/training.md (4 layers, 4 heads,
    width 64, block 64, batch 32, 4000 AdamW steps on the pinned Shakespeare corpus)."""

    variant: str = "gd-lt"
    seed: int = 0
    data: str = DEFAULT_SOURCE
    max_bytes: int | None = None
    # model
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 64
    block_size: int = 64
    # optimisation
    steps: int = 4000
    batch_size: int = 32
    lr: float = 3e-3
    min_lr_ratio: float = 0.1
    warmup: int = 100
    weight_decay: float = 0.1
    beta1: float = 0.9
    beta2: float = 0.95
    grad_clip: float = 1.0
    scalar_lr_mult: float = 5.0
    # seed 000 App. B's initial SympFormer step size h_X = h_Y per table (Table 1: 0.1, Table 3:
    # 0.3); None keeps each variant's own (Table 2's: 0.25 first-order, 0.01 second-order).
    # Variants without a step size are unaffected.
    h0: float | None = None
    optimizer: str = "adamw"  # or "muon" (hybrid Muon on 2-D block weights + AdamW)
    muon_lr: float = 0.02
    # evaluation
    eval_interval: int = 200
    eval_batches: int = 32
    # system
    device: str = "cpu"
    amp: bool = True  # autocast on CUDA (bf16, else fp16)
    compile: bool = False  # torch.compile the model (CUDA)
    threads: int | None = None  # torch.set_num_threads for this process when set (CPU runs)

    def __post_init__(self):
        get_variant(self.variant)
        for name in ("seed", "steps", "batch_size", "eval_interval", "eval_batches", "warmup",
                     "n_layer", "n_head", "n_embd", "block_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, got {value!r}")
        for name in ("steps", "batch_size", "eval_interval", "eval_batches"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed}")
        if not 0 <= self.warmup < self.steps:
            raise ValueError(f"warmup must be in [0, steps) = [0, {self.steps}), got {self.warmup}")
        for name in ("lr", "muon_lr", "min_lr_ratio", "weight_decay", "beta1", "beta2", "grad_clip",
                     "scalar_lr_mult"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
        for name in ("lr", "muon_lr", "grad_clip", "scalar_lr_mult"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)}")
        if self.h0 is not None and (isinstance(self.h0, bool) or not isinstance(self.h0, (int, float))
                                    or not math.isfinite(self.h0) or self.h0 <= 0):
            raise ValueError(f"h0 must be None or a finite number > 0, got {self.h0!r}")
        for name in ("min_lr_ratio", "beta1", "beta2"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)}")
        if self.weight_decay < 0:
            raise ValueError(f"weight_decay must be >= 0, got {self.weight_decay}")
        if self.optimizer not in ("adamw", "muon"):
            raise ValueError(f"optimizer must be 'adamw' or 'muon', got {self.optimizer!r}")
        if self.threads is not None and (isinstance(self.threads, bool) or not isinstance(self.threads, int)
                                         or self.threads < 1):
            raise ValueError(f"threads must be a positive int, got {self.threads!r}")
        _check_device(self.device)
        GPTConfig(block_size=self.block_size, n_layer=self.n_layer, n_head=self.n_head,
                  n_embd=self.n_embd)

    @property
    def model_config(self) -> GPTConfig:
        return GPTConfig(block_size=self.block_size, n_layer=self.n_layer, n_head=self.n_head,
                         n_embd=self.n_embd)

    @property
    def model_variant(self) -> Variant:
        """The variant the model is built from: `variant` with this configuration's `h0`."""
        v = get_variant(self.variant)
        if self.h0 is None or "h_x" not in v.scalars:
            return v
        return v.with_inits(h_x=self.h0, h_y=self.h0)

    def as_dict(self) -> dict:
        """The fields; those added after results were committed (`LATER_FIELDS`) only when they
        differ from their defaults, so every committed result keeps its configuration hash."""
        d = asdict(self)
        return {k: v for k, v in d.items() if k not in LATER_FIELDS or v != LATER_FIELDS[k]}

    def hash(self) -> str:
        """Hash of everything that changes the result (device/amp/compile included, threads not)."""
        return config_hash(self.as_dict())

    def differences(self, other: "TrainConfig | dict") -> dict[str, tuple]:
        """{field: (self's value, other's value)} for every field that changes the result."""
        theirs = other if isinstance(other, dict) else other.as_dict()
        return {k: (v, theirs.get(k, "<absent>")) for k, v in self.as_dict().items()
                if k != "threads" and theirs.get(k, "<absent>") != v}


def config_hash(fields: dict) -> str:
    """`TrainConfig.hash` of a configuration's `as_dict` (without building it: a CUDA one on a CPU)."""
    return hashlib.sha256(json.dumps({k: v for k, v in fields.items() if k != "threads"},
                                     sort_keys=True).encode()).hexdigest()[:16]


def _check_device(device: str) -> None:
    if not isinstance(device, str):
        raise TypeError(f"device must be a string such as 'cpu' or 'cuda:0', got {device!r}")
    try:
        dev = torch.device(device)
    except RuntimeError as exc:
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:N', got {device!r}") from exc
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"device {device!r}: CUDA is not available on this machine; use device 'cpu'")
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise ValueError(f"device {device!r}: only {torch.cuda.device_count()} CUDA device(s)")
    elif dev.type != "cpu":
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:N', got {device!r}")


QUICK = dict(n_layer=2, n_head=2, n_embd=32, block_size=32, steps=6, batch_size=4, warmup=2,
             eval_interval=3, eval_batches=2, max_bytes=400_000, threads=1)
"""A configuration that trains any variant in well under a second on one CPU core (tests)."""


def lr_factor(step: int, cfg: TrainConfig) -> float:
    """Linear warmup to 1, then cosine decay to `min_lr_ratio` at the last step."""
    if step < cfg.warmup:
        return (step + 1) / cfg.warmup
    progress = (step - cfg.warmup) / max(1, cfg.steps - cfg.warmup)
    return cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))


def param_groups(model: GPT) -> dict[str, list[torch.nn.Parameter]]:
    """Parameters by role: 'matrix' (2-D block weights), 'embedding', 'norm', 'scalar'."""
    groups = {"matrix": [], "embedding": [], "norm": [], "scalar": []}
    for name, p in model.named_parameters():
        if ".scalars." in name:
            groups["scalar"].append(p)
        elif name.startswith(("wte", "wpe", "aux_")):
            groups["embedding"].append(p)
        elif p.ndim >= 2:
            groups["matrix"].append(p)
        else:
            groups["norm"].append(p)
    return groups


def build_optimizers(model: GPT, cfg: TrainConfig) -> list[torch.optim.Optimizer]:
    g = param_groups(model)
    adamw = [{"params": g["embedding"], "weight_decay": cfg.weight_decay, "base_lr": cfg.lr},
             {"params": g["norm"], "weight_decay": 0.0, "base_lr": cfg.lr},
             {"params": g["scalar"], "weight_decay": 0.0, "base_lr": cfg.lr * cfg.scalar_lr_mult}]
    optimizers = []
    if cfg.optimizer == "muon":
        optimizers.append(torch.optim.Muon([{"params": g["matrix"], "base_lr": cfg.muon_lr}],
                                           lr=cfg.muon_lr, weight_decay=0.0, momentum=0.95,
                                           nesterov=True))
    else:
        adamw.insert(0, {"params": g["matrix"], "weight_decay": cfg.weight_decay, "base_lr": cfg.lr})
    adamw = [grp for grp in adamw if grp["params"]]
    for grp in adamw:
        grp["lr"] = grp["base_lr"]
    fused = torch.device(cfg.device).type == "cuda"  # one kernel per step on CUDA; foreach on CPU
    optimizers.insert(0, torch.optim.AdamW(adamw, betas=(cfg.beta1, cfg.beta2),
                                           **({"fused": True} if fused else {})))
    return optimizers


def run_stem(variant: str, seed: int) -> str:
    return f"{variant}-seed{seed}"


def _dist() -> tuple[int, int]:
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world > 1 and not torch.distributed.is_initialized():
        backend = "nccl" if torch.cuda.is_available() else "gloo"
        torch.distributed.init_process_group(backend)
    rank = torch.distributed.get_rank() if world > 1 else 0
    return rank, world


def _autocast(cfg: TrainConfig, device: torch.device):
    if device.type != "cuda" or not cfg.amp:
        return nullcontext(), None
    if torch.cuda.is_bf16_supported():
        return torch.autocast("cuda", dtype=torch.bfloat16), None
    return torch.autocast("cuda", dtype=torch.float16), torch.amp.GradScaler("cuda")


@torch.no_grad()
def evaluate(model: torch.nn.Module, batches: Batches, n: int, device, ctx) -> float:
    """Mean validation loss over the fixed batches 0..n-1 of `batches`."""
    model.eval()
    total = 0.0
    for k in range(n):
        x, y = (t.to(device) for t in batches.batch(k))
        with ctx:
            logits = model(x)
        total += F.cross_entropy(logits.float().flatten(0, 1), y.flatten()).item()
    model.train()
    return total / n


@torch.no_grad()
def evaluate_full(model: torch.nn.Module, tokens: np.ndarray, block_size: int, batch_size: int,
                  device, ctx) -> float:
    """Mean next-byte loss (nats/byte) over every non-overlapping window of `block_size` + 1 bytes
    of `tokens` (the whole validation split, in order; each target byte counted once)."""
    n = (tokens.size - 1) // block_size
    if n < 1:
        raise ValueError(f"tokens: {tokens.size} bytes hold no window of block_size {block_size}")
    t = torch.from_numpy(tokens[: n * block_size + 1].astype(np.int64))
    x_all, y_all = t[:-1].view(n, block_size), t[1:].view(n, block_size)
    model.eval()
    total = 0.0
    for i in range(0, n, batch_size):
        x, y = x_all[i: i + batch_size].to(device), y_all[i: i + batch_size].to(device)
        with ctx:
            logits = model(x)
        total += F.cross_entropy(logits.float().flatten(0, 1), y.flatten(), reduction="sum").item()
    model.train()
    return total / (n * block_size)


def git_commit() -> str:
    """`git rev-parse HEAD` of the toolkit's checkout (+ "-dirty" with uncommitted changes under
    particles/ or theory/); outside a checkout, ``PARTICLES_COMMIT`` or "unknown"."""
    if not (ROOT / ".git").exists():
        return os.environ.get("PARTICLES_COMMIT", "unknown")
    head, dirty = git("rev-parse", "HEAD"), git("status", "--porcelain", "--", "particles", "theory")
    if "unknown" in (head, dirty):
        return "unknown"
    return head + ("-dirty" if dirty else "")


def provenance(device: torch.device) -> dict:
    """Where and with what a result was computed."""
    return {"commit": git_commit(), "torch": torch.__version__, "python": platform.python_version(),
            "platform": f"{platform.system()}-{platform.machine()}", "cpu": _cpu_model(),
            # the kernels torch dispatches to (AVX2, AVX512, ...): one "AMD EPYC" model string
            # covers machines whose float results differ in the last bits
            "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "device": str(device) if device.type != "cuda" else torch.cuda.get_device_name(device),
            "threads": torch.get_num_threads()}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _read_json(path: Path, what: str) -> dict:
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return data
    except (OSError, ValueError) as exc:
        raise ResultError(f"{what} {path} is corrupt or unreadable ({type(exc).__name__}: {exc}); "
                          f"delete it to recompute the run") from exc


def read_result(path: Path | str, cfg: TrainConfig | None = None) -> dict:
    """A result JSON, validated: readable, with the keys every reader uses, and (given `cfg`) of
    that configuration; `ResultError` naming the file and the differing fields otherwise."""
    path = Path(path)
    r = _read_json(path, "result")
    missing = [k for k in ("config", "config_hash", "curves", "val_loss_full", "data") if k not in r]
    if missing:
        raise ResultError(f"result {path} lacks {missing}; delete it to recompute the run")
    if cfg is not None and r["config_hash"] != cfg.hash():
        diff = cfg.differences(r["config"])
        raise ResultError(f"result {path} is stale: its configuration differs in "
                          + ", ".join(f"{k} (result {theirs!r}, wanted {ours!r})"
                                      for k, (ours, theirs) in diff.items()))
    return r


def _load_checkpoint(path: Path, cfg: TrainConfig) -> dict:
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=False)
        if not isinstance(ckpt, dict) or "model" not in ckpt or "step" not in ckpt:
            raise ValueError("missing keys")
    except Exception as exc:
        raise ResultError(f"checkpoint {path} is corrupt or unreadable ({type(exc).__name__}: "
                          f"{exc}); delete it to restart the run") from exc
    if ckpt.get("config_hash") != cfg.hash():
        diff = cfg.differences(ckpt.get("config", {}))
        raise ResultError(f"checkpoint {path} belongs to another configuration, differing in "
                          + ", ".join(f"{k} (checkpoint {theirs!r}, this run {ours!r})"
                                      for k, (ours, theirs) in diff.items())
                          + "; delete it to restart, or rerun with the checkpoint's values")
    return ckpt


def train(cfg: TrainConfig, out_dir: Path | str | None = None, *, progress: bool = False,
          resume: bool = True, force: bool = False, weights_dir: Path | str | None = None,
          on_checkpoint=None) -> dict:
    """Train one run; write `<out_dir>/<variant>-seed<k>.json` (and the .ckpt/.pt next to it, or
    in `weights_dir`) when `out_dir` is given. A finished run of the same configuration is read
    back, not retrained, unless `force`. Returns the result dict (see the module docstring).
    `on_checkpoint(step, elapsed_s)` runs after each checkpoint (elapsed_s: training seconds of steps
    0..step, evaluations excluded); an exception it raises ends the run there, resumable."""
    if out_dir is not None and not force:
        done = Path(out_dir) / f"{run_stem(cfg.variant, cfg.seed)}.json"
        if done.exists():
            return read_result(done, cfg)
    with torch_threads(cfg.threads):
        return _train(cfg, out_dir, progress, resume, weights_dir, on_checkpoint)


def _train(cfg: TrainConfig, out_dir, progress: bool, resume: bool, weights_dir, on_checkpoint) -> dict:
    rank, world = _dist()
    device = torch.device(cfg.device)
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    corpus = load_corpus(cfg.data, max_bytes=cfg.max_bytes)
    train_batches = Batches(corpus.train, cfg.block_size, cfg.batch_size, cfg.seed, rank, world)
    # Validation batches are the same for every variant and seed.
    val_batches = Batches(corpus.val, cfg.block_size, cfg.batch_size, seed=VAL_SEED)

    torch.manual_seed(cfg.seed)  # model init; data order comes from Batches' own generators
    model = GPT(cfg.model_config, cfg.model_variant).to(device)
    optimizers = build_optimizers(model, cfg)
    ctx, scaler = _autocast(cfg, device)
    net = torch.compile(model) if cfg.compile else model
    if world > 1:
        net = torch.nn.parallel.DistributedDataParallel(
            net, device_ids=[device.index] if device.type == "cuda" else None)

    out_dir = Path(out_dir) if out_dir is not None else None
    weights_dir = Path(weights_dir) if weights_dir is not None else out_dir
    stem = run_stem(cfg.variant, cfg.seed)
    ckpt_path = weights_dir / f"{stem}.ckpt" if weights_dir else None
    curves = {"step": [], "val_loss": [], "train_loss": [], "lr": []}
    start, elapsed = 0, 0.0
    if resume and ckpt_path is not None and ckpt_path.exists():
        ckpt = _load_checkpoint(ckpt_path, cfg)
        model.load_state_dict(ckpt["model"])
        for opt, state in zip(optimizers, ckpt["optimizers"]):
            opt.load_state_dict(state)
        start, curves, elapsed = ckpt["step"], ckpt["curves"], ckpt["elapsed"]

    bar = None
    if progress and rank == 0:
        from tqdm import tqdm
        bar = tqdm(total=cfg.steps, initial=start, desc=stem, unit="step", leave=False)
    tokens_per_step = cfg.batch_size * cfg.block_size
    train_loss_acc, n_acc = 0.0, 0
    t0 = time.perf_counter()
    for step in range(start, cfg.steps):
        factor = lr_factor(step, cfg)
        for opt in optimizers:
            for grp in opt.param_groups:
                grp["lr"] = grp["base_lr"] * factor
        x, y = (t.to(device) for t in train_batches.batch(step))
        with ctx:
            logits = net(x)
        loss = F.cross_entropy(logits.float().flatten(0, 1), y.flatten())
        if not torch.isfinite(loss):
            if bar:
                bar.close()
            kept = f"; the checkpoint {ckpt_path} (step {start if not curves['step'] else curves['step'][-1]}) is kept" \
                if ckpt_path is not None and ckpt_path.exists() else ""
            raise TrainingDiverged(f"{stem}: the training loss is {loss.item()} at step {step} "
                                   f"(learning rate {cfg.lr * factor:.3g}); the likely cause is a "
                                   f"learning rate too large for this model (lr={cfg.lr}){kept}")
        (scaler.scale(loss) if scaler else loss).backward()
        if scaler:
            for opt in optimizers:
                scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        for opt in optimizers:
            (scaler.step(opt) if scaler else opt.step())
            opt.zero_grad(set_to_none=True)
        if scaler:
            scaler.update()
        train_loss_acc, n_acc = train_loss_acc + loss.item(), n_acc + 1
        if bar:
            bar.update(1)
        last = step + 1 == cfg.steps
        if (step + 1) % cfg.eval_interval == 0 or last:
            elapsed += time.perf_counter() - t0
            val = evaluate(model, val_batches, cfg.eval_batches, device, ctx)
            curves["step"].append(step + 1)
            curves["val_loss"].append(val)
            curves["train_loss"].append(train_loss_acc / n_acc)
            curves["lr"].append(factor)
            train_loss_acc, n_acc = 0.0, 0
            if bar:
                bar.set_postfix(val=f"{val:.4f}")
            if ckpt_path is not None and rank == 0 and not last:
                state = {"model": model.state_dict(), "optimizers": [o.state_dict() for o in optimizers],
                         "step": step + 1, "curves": curves, "elapsed": elapsed,
                         "config_hash": cfg.hash(), "config": cfg.as_dict()}
                atomic_write(ckpt_path, lambda tmp: torch.save(state, tmp))
                if on_checkpoint is not None:
                    on_checkpoint(step + 1, elapsed)
            t0 = time.perf_counter()
    if bar:
        bar.close()

    val_full = evaluate_full(model, corpus.val, cfg.block_size, cfg.batch_size, device, ctx)
    calls = count_oracle_calls(model.blocks[0], model.initial_state(train_batches.batch(0)[0][:1].to(device)))
    result = {
        "config": cfg.as_dict(), "config_hash": cfg.hash(),
        "data": corpus.describe() | {"entropy_nats_per_byte": byte_entropies(corpus.train)},
        "variant": cfg.variant, "paper": model.variant.paper, "label": model.variant.label,
        "seed": cfg.seed, "n_params": count_parameters(model),
        "n_params_non_positional": count_parameters(model, non_positional=True),
        "oracle_calls": {"attn": calls.attn, "mlp": calls.mlp},
        "curves": curves, "best_val_loss": min(curves["val_loss"]),
        "final_val_loss": curves["val_loss"][-1], "val_loss_full": val_full,
        # `elapsed` is every step's training time, those before a resumed checkpoint included
        "wall_clock_s": elapsed,
        "step_time_s": elapsed / cfg.steps,
        "tokens_per_s": tokens_per_step * cfg.steps / elapsed if elapsed > 0 else float("nan"),
        "resumed_from_step": start, "world_size": world, **provenance(device),
    }
    result["flops_per_token"] = flops_per_token(model, calls.attn, calls.mlp)
    peak = peak_flops(result["device"]) if device.type == "cuda" else None
    # model FLOPs utilisation of this process's GPU (all ranks together use world x peak)
    result["mfu"] = (result["tokens_per_s"] / world * result["flops_per_token"] / peak) if peak else None
    if out_dir is not None and rank == 0:
        atomic_write(weights_dir / f"{stem}.pt", lambda tmp: torch.save(model.state_dict(), tmp))
        atomic_write_json(out_dir / f"{stem}.json", result)
        if ckpt_path.exists():
            ckpt_path.unlink()
    return result


def load_model(result_path: Path | str, device: str = "cpu",
               weights_dir: Path | str | None = None) -> tuple[GPT, dict]:
    """Rebuild the trained model of a result JSON from its `.pt` weights (next to the JSON, or in
    `weights_dir`); returns (model, result)."""
    result_path = Path(result_path)
    result = read_result(result_path)
    cfg = TrainConfig(**(result["config"] | {"device": device}))
    model = GPT(cfg.model_config, cfg.model_variant)
    weights = Path(weights_dir or result_path.parent) / result_path.with_suffix(".pt").name
    try:
        model.load_state_dict(torch.load(weights, map_location=device, weights_only=True))
    except Exception as exc:
        raise ResultError(f"weights {weights} are missing or corrupt ({type(exc).__name__}); "
                          f"retrain the run to rebuild them") from exc
    return model.to(device), result


def is_done(out_dir: Path, cfg: TrainConfig) -> bool:
    path = out_dir / f"{run_stem(cfg.variant, cfg.seed)}.json"
    try:
        read_result(path, cfg)
    except ResultError:
        return False
    return True


def sweep(variants: Iterable[str], seeds: Iterable[int], base: TrainConfig | None = None,
          name: str = "compact", root: Path | str = DEFAULT_ROOT, *, progress: bool = False,
          weights_root: Path | str | None = None, force: bool = False) -> list[dict]:
    """Train every (variant, seed) of `base` that is not done under `<root>/<name>/`.

    Runs are ordered seed-major so an interrupted sweep has whole seeds first; finished runs are
    never retrained (same configuration hash) unless `force`, and an interrupted run resumes from
    its checkpoint. A finished result of another configuration is a `ResultError` naming the
    differing fields (never silently replaced). Several processes may run the same sweep: each
    run is claimed by a lock file (`theory.io.run_lock`), so a run another live process is training is
    skipped (and left out of the returned list), never trained twice. (The ranks of one torchrun
    job take no locks: they train each run together.)"""
    base = base or TrainConfig()
    variants, seeds = list(variants), list(seeds)
    for v in variants:
        get_variant(v)
    out_dir = Path(root) / name
    weights_dir = Path(weights_root) / name if weights_root is not None else None
    todo = [(s, v) for s in seeds for v in variants]
    it = todo
    if progress:
        from tqdm import tqdm
        it = tqdm(todo, desc=f"sweep {name}", unit="run")
    results = []
    # the ranks of one torchrun job train every run together: no lock between them
    distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1
    for seed, variant in it:
        cfg = replace(base, variant=variant, seed=seed)
        lock = nullcontext(True) if distributed else run_lock(weights_dir or out_dir,
                                                              run_stem(variant, seed))
        with lock as mine:
            if mine:
                results.append(train(cfg, out_dir, progress=progress, force=force,
                                     weights_dir=weights_dir))
    return results


def load_results(name: str = "compact", root: Path | str = DEFAULT_ROOT) -> list[dict]:
    """Every finished result JSON of the sweep `name`, validated, sorted by (variant, seed)."""
    out_dir = Path(root) / name
    results = [read_result(p) for p in sorted(out_dir.glob("*.json"))]
    return sorted(results, key=lambda r: (r["variant"], r["seed"]))


"""Training, sweeps and cached results of the compact language-model path.

Results layout (how figures and diagnostics find the runs):

    <root>/<sweep>/<variant>-seed<k>.json   one result per run (written atomically at the end)
    <root>/<sweep>/<variant>-seed<k>.ckpt   checkpoint (model, optimizer, step, curves); resumable
    <root>/<sweep>/<variant>-seed<k>.pt     final weights (`load_model(result_path)` rebuilds it)

`<root>` defaults to ``runs/lm`` (git-ignored). `load_results(sweep)` returns every finished
result of a sweep; `sweep(variants, seeds, base)` trains what is missing and skips what is done
(a run is done when its JSON exists with the same configuration hash).

A result JSON holds: ``config`` (the `TrainConfig`), ``config_hash``, ``data`` (source, sha256,
sizes), ``variant``/``paper``/``label``, ``n_params`` and ``n_params_non_positional``,
``oracle_calls`` per block, ``curves`` (``step``, ``val_loss``, ``train_loss``, ``lr``),
``best_val_loss``, ``final_val_loss``, ``tokens_per_s``, ``step_time_s``, ``wall_clock_s``,
``device``.

Optimisers (seed 004 App. A.3, seed 002 App. D.3): AdamW by default with weight decay on
matrices and embeddings, none on norms and scalars, and the scalars at `scalar_lr_mult` times the
learning rate; `optimizer="muon"` routes 2-D block weights to `torch.optim.Muon` (momentum 0.95,
Nesterov, no weight decay) and the rest to AdamW. Linear warmup, then cosine to
`min_lr_ratio` x peak for every group; global gradient clipping. On CUDA the forward runs under
bf16 autocast (fp16 with a GradScaler where bf16 is unsupported). Launched by `torchrun`
(WORLD_SIZE > 1) it trains with DistributedDataParallel, every rank taking its rows of the same
global batches; rank 0 writes.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import time
from contextlib import nullcontext
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Iterable

import torch
import torch.nn.functional as F

from particles.threads import torch_threads
from theory.io import atomic_write, atomic_write_json

from .blocks import count_oracle_calls
from .data import Batches, load_corpus
from .model import GPT, GPTConfig, count_parameters
from .variants import get_variant

DEFAULT_ROOT = Path("runs/lm")


@dataclass(frozen=True)
class TrainConfig:
    """One training run. Defaults are the compact CPU configuration of docs/training.md."""

    variant: str = "gd-lt"
    seed: int = 0
    data: str = "stdlib"
    max_bytes: int | None = None
    # model
    n_layer: int = 4
    n_head: int = 2
    n_embd: int = 32
    block_size: int = 32
    # optimisation
    steps: int = 200
    batch_size: int = 16
    lr: float = 3e-3
    min_lr_ratio: float = 0.1
    warmup: int = 20
    weight_decay: float = 0.1
    beta1: float = 0.9
    beta2: float = 0.95
    grad_clip: float = 1.0
    scalar_lr_mult: float = 5.0
    optimizer: str = "adamw"  # or "muon" (hybrid Muon on 2-D block weights + AdamW)
    muon_lr: float = 0.02
    # evaluation
    eval_interval: int = 25
    eval_batches: int = 8
    # system
    device: str = "cpu"
    amp: bool = True  # autocast on CUDA (bf16, else fp16)
    threads: int | None = None  # torch.set_num_threads for this process when set (CPU runs)

    def __post_init__(self):
        get_variant(self.variant)
        for name in ("steps", "batch_size", "eval_interval", "eval_batches"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if not 0 <= self.warmup <= self.steps:
            raise ValueError(f"warmup must be in [0, steps], got {self.warmup}")
        if self.lr <= 0 or self.muon_lr <= 0:
            raise ValueError(f"lr and muon_lr must be > 0, got {self.lr}, {self.muon_lr}")
        if not 0.0 <= self.min_lr_ratio <= 1.0:
            raise ValueError(f"min_lr_ratio must be in [0, 1], got {self.min_lr_ratio}")
        if self.optimizer not in ("adamw", "muon"):
            raise ValueError(f"optimizer must be 'adamw' or 'muon', got {self.optimizer!r}")
        GPTConfig(block_size=self.block_size, n_layer=self.n_layer, n_head=self.n_head,
                  n_embd=self.n_embd)

    @property
    def model_config(self) -> GPTConfig:
        return GPTConfig(block_size=self.block_size, n_layer=self.n_layer, n_head=self.n_head,
                         n_embd=self.n_embd)

    def as_dict(self) -> dict:
        return asdict(self)

    def hash(self) -> str:
        """Hash of everything that changes the result (device/amp included, threads not)."""
        d = self.as_dict()
        d.pop("threads")
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


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
    optimizers.insert(0, torch.optim.AdamW(adamw, betas=(cfg.beta1, cfg.beta2)))
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


def _load_checkpoint(path: Path, cfg: TrainConfig) -> dict:
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=False)
        if not isinstance(ckpt, dict) or "model" not in ckpt or "step" not in ckpt:
            raise ValueError("missing keys")
    except Exception as exc:
        raise RuntimeError(f"checkpoint {path} is corrupt or unreadable ({type(exc).__name__}: "
                           f"{exc}); delete it to restart the run") from exc
    if ckpt.get("config_hash") != cfg.hash():
        raise RuntimeError(f"checkpoint {path} belongs to another configuration "
                           f"({ckpt.get('config_hash')} != {cfg.hash()}); delete it to restart")
    return ckpt


def train(cfg: TrainConfig, out_dir: Path | str | None = None, *, progress: bool = False,
          resume: bool = True) -> dict:
    """Train one run; write `<out_dir>/<variant>-seed<k>.json` (+ .ckpt, .pt) when given.

    Returns the result dict (see the module docstring).
    """
    with torch_threads(cfg.threads):
        return _train(cfg, out_dir, progress, resume)


def _train(cfg: TrainConfig, out_dir, progress: bool, resume: bool) -> dict:
    rank, world = _dist()
    device = torch.device(cfg.device)
    corpus = load_corpus(cfg.data, max_bytes=cfg.max_bytes)
    train_batches = Batches(corpus.train, cfg.block_size, cfg.batch_size, cfg.seed, rank, world)
    # Validation batches are the same for every variant and seed.
    val_batches = Batches(corpus.val, cfg.block_size, cfg.batch_size, seed=10_007)

    torch.manual_seed(cfg.seed)  # model init; data order comes from Batches' own generators
    model = GPT(cfg.model_config, cfg.variant).to(device)
    optimizers = build_optimizers(model, cfg)
    ctx, scaler = _autocast(cfg, device)
    net = model
    if world > 1:
        net = torch.nn.parallel.DistributedDataParallel(
            model, device_ids=[device.index] if device.type == "cuda" else None)

    out_dir = Path(out_dir) if out_dir is not None else None
    stem = run_stem(cfg.variant, cfg.seed)
    ckpt_path = out_dir / f"{stem}.ckpt" if out_dir else None
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
            raise FloatingPointError(f"{stem}: loss is {loss.item()} at step {step}")
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
        train_loss_acc += loss.item()
        n_acc += 1
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
                         "config_hash": cfg.hash()}
                atomic_write(ckpt_path, lambda tmp: torch.save(state, tmp))
            t0 = time.perf_counter()
    if bar:
        bar.close()

    done = cfg.steps - start
    calls = count_oracle_calls(model.blocks[0], model.initial_state(train_batches.batch(0)[0][:1].to(device)))
    result = {
        "config": cfg.as_dict(), "config_hash": cfg.hash(), "data": corpus.describe(),
        "variant": cfg.variant, "paper": model.variant.paper, "label": model.variant.label,
        "seed": cfg.seed, "n_params": count_parameters(model),
        "n_params_non_positional": count_parameters(model, non_positional=True),
        "oracle_calls": {"attn": calls.attn, "mlp": calls.mlp},
        "curves": curves, "best_val_loss": min(curves["val_loss"]),
        "final_val_loss": curves["val_loss"][-1],
        "wall_clock_s": elapsed,
        "step_time_s": elapsed / max(1, cfg.steps),
        "tokens_per_s": tokens_per_step * cfg.steps / elapsed if elapsed > 0 else float("nan"),
        "resumed_from_step": start, "steps_this_session": done,
        "device": str(device) if device.type != "cuda" else torch.cuda.get_device_name(device),
        "world_size": world, "torch": torch.__version__,
    }
    if out_dir is not None and rank == 0:
        atomic_write(out_dir / f"{stem}.pt", lambda tmp: torch.save(model.state_dict(), tmp))
        atomic_write_json(out_dir / f"{stem}.json", result)
        if ckpt_path.exists():
            ckpt_path.unlink()
    return result


def load_model(result_path: Path | str, device: str = "cpu") -> tuple[GPT, dict]:
    """Rebuild the trained model of a result JSON from its `.pt` weights; returns (model, result)."""
    result_path = Path(result_path)
    result = json.loads(result_path.read_text())
    cfg = TrainConfig(**result["config"])
    model = GPT(cfg.model_config, cfg.variant)
    weights = result_path.with_suffix(".pt")
    try:
        model.load_state_dict(torch.load(weights, map_location=device, weights_only=True))
    except Exception as exc:
        raise RuntimeError(f"weights {weights} are missing or corrupt ({exc})") from exc
    return model.to(device), result


def is_done(out_dir: Path, cfg: TrainConfig) -> bool:
    path = out_dir / f"{run_stem(cfg.variant, cfg.seed)}.json"
    if not path.exists():
        return False
    try:
        return json.loads(path.read_text()).get("config_hash") == cfg.hash()
    except (json.JSONDecodeError, OSError):
        return False


def sweep(variants: Iterable[str], seeds: Iterable[int], base: TrainConfig | None = None,
          name: str = "compact", root: Path | str = DEFAULT_ROOT, *, progress: bool = False) -> list[dict]:
    """Train every (variant, seed) of `base` that is not done under `<root>/<name>/`.

    Runs are ordered seed-major so an interrupted sweep has whole seeds first; finished runs are
    never retrained (same configuration hash) and an interrupted run resumes from its checkpoint.
    """
    base = base or TrainConfig()
    variants, seeds = list(variants), list(seeds)
    for v in variants:
        get_variant(v)
    out_dir = Path(root) / name
    results = []
    todo = [(s, v) for s in seeds for v in variants]
    it = todo
    if progress:
        from tqdm import tqdm
        it = tqdm(todo, desc=f"sweep {name}", unit="run")
    for seed, variant in it:
        cfg = replace(base, variant=variant, seed=seed)
        path = out_dir / f"{run_stem(variant, seed)}.json"
        if is_done(out_dir, cfg):
            results.append(json.loads(path.read_text()))
        else:
            results.append(train(cfg, out_dir, progress=progress))
    return results


def load_results(name: str = "compact", root: Path | str = DEFAULT_ROOT) -> list[dict]:
    """Every finished result JSON of the sweep `name`, sorted by (variant, seed)."""
    out_dir = Path(root) / name
    results = [json.loads(p.read_text()) for p in sorted(out_dir.glob("*.json"))]
    return sorted(results, key=lambda r: (r["variant"], r["seed"]))


def config_fields() -> list[str]:
    return [f.name for f in fields(TrainConfig)]

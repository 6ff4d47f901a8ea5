"""Timing primitives of a training step, shared by `particles.lm.bench` (the measured ratios) and
`particles.lm.cost_model` (the roofline's CPU calibration and traced step): the loss of a logits
model, the optimizers of a traced or measured step, interleaved timing rounds and a timed AdamW
step. Both modules import from here and neither imports the other (issue 36); every name stays
importable from `particles.lm.bench`, where it lived before.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from theory.checks import positive_int

ForwardLoss = Callable[[nn.Module, torch.Tensor, torch.Tensor], torch.Tensor]


def logits_cross_entropy(model: nn.Module, idx: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean next-token cross-entropy of a model whose forward returns logits (B, T, V)."""
    logits = model(idx)
    if isinstance(logits, tuple):
        logits = logits[0]
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


@dataclass(frozen=True)
class Timing:
    """Per-round mean step time of one model (seconds) and the batch it was timed on."""

    name: str
    step_seconds: tuple[float, ...]
    tokens_per_step: int

    @property
    def median_step(self) -> float:
        return float(np.median(self.step_seconds))

    @property
    def tokens_per_second(self) -> float:
        return self.tokens_per_step / self.median_step


def time_interleaved(calls: Mapping[str, Callable[[], object]], rounds: int, *, repeat: int = 1,
                     clock: Callable[[], float] = time.process_time,
                     sync: Callable[[], None] = lambda: None) -> dict[str, tuple[float, ...]]:
    """Per-round mean seconds of `repeat` consecutive calls of every callable, interleaved: each
    round calls every entry, in an order rotated by one between rounds, so that slow drifts of the
    machine's load fall on all entries alike and cancel in the per-round ratios. `sync()` runs
    before each clock reading (a device synchronization)."""
    if not calls:
        raise ValueError("calls must name at least one callable")
    rounds, repeat = positive_int(rounds, "rounds"), positive_int(repeat, "repeat")
    names = list(calls)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[: r % len(names)]:  # rotate the order
            sync()
            start = clock()
            for _ in range(repeat):
                calls[name]()
            sync()
            seconds[name].append((clock() - start) / repeat)
    return {name: tuple(s) for name, s in seconds.items()}


def time_training(models: Mapping[str, nn.Module], idx: torch.Tensor, targets: torch.Tensor, *,
                  rounds: int = 5, steps: int = 3, warmup: int = 2, lr: float = 1e-4,
                  forward_loss: ForwardLoss = logits_cross_entropy) -> dict[str, Timing]:
    """Time `rounds` × `steps` AdamW training steps of every model, interleaved, on one batch."""
    if not models:
        raise ValueError("models must name at least one model")
    rounds, steps = positive_int(rounds, "rounds"), positive_int(steps, "steps")
    if isinstance(warmup, bool) or not isinstance(warmup, int) or warmup < 0:
        raise ValueError(f"warmup must be a non-negative int, got {warmup!r}")
    if idx.shape != targets.shape or idx.ndim != 2:
        raise ValueError(f"idx and targets must both have shape (B, T), got {tuple(idx.shape)} "
                         f"and {tuple(targets.shape)}")
    optimizers = {name: torch.optim.AdamW(m.parameters(), lr=lr) for name, m in models.items()}

    def step(name: str) -> None:
        model, opt = models[name], optimizers[name]
        loss = forward_loss(model, idx, targets)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    for name in models:
        models[name].train()
        for _ in range(warmup):
            step(name)
    cuda = idx.device.type == "cuda"
    seconds = time_interleaved({name: (lambda name=name: step(name)) for name in models}, rounds,
                               repeat=steps, clock=time.perf_counter if cuda else time.process_time,
                               sync=lambda: _sync(idx.device))
    return {name: Timing(name, s, idx.numel()) for name, s in seconds.items()}


def step_optimizers(model, setting, foreach: bool) -> list[torch.optim.Optimizer]:
    """The optimizers of the step `cost_model.trace_step` counts and `bench.measure_steps` times, for
    a `cost_model.StepSetting`: AdamW on every parameter (``setting.optimizer == "adamw"``), or on
    all but the 2-D block weights, which Muon takes (``"muon"``)."""
    from .train import param_groups
    groups = param_groups(model)
    adamw = [p for name, ps in groups.items() if name != "matrix" or setting.optimizer == "adamw" for p in ps]
    opts = [torch.optim.AdamW(adamw, lr=1e-4, foreach=foreach)]
    if setting.optimizer == "muon":
        opts.append(torch.optim.Muon(groups["matrix"], lr=1e-3, weight_decay=0.0))
    return opts

"""Training and rollouts of the four integrators of seed 001 §5 (fig. 7), cached and resumable.

    python -m particles.sp_train [--budget full|long|quick] [--networks ...] [--seeds ...] [--fresh]

trains every (network, seed) pair of the budget on the implicit-midpoint data of
`particles.oscillator`, then rolls each network out on the test case (k = 3.5, five implicit-midpoint
warm-up states, predictions from t = 2.0 to t = 600). A full-budget run writes one checkpoint per
pair under `runs/sp_transformer/full/` (model and optimizer states, losses, the epoch reached,
the rollout), atomically with `theory.io`, every `checkpoint_every` epochs; an interrupted run
resumes from the last checkpoint and a finished one is read back instantly. The quick budget
(seconds, used by the tests) trains in memory only.

Budgets (Table 3: Adam η = 1e-3, ρ1 = 0.9, ρ2 = 0.99, δ = 1e-8, 2000 epochs, batch 512):
- full: batch 512, all 40 k values, seeds 0, 1, 2; 1000 epochs (half the paper's 2000) for the
  ResNet and the SympNet and 150 epochs for the two transformers: 2000 epochs cost ~0.5 min
  (ResNet), 1.5 min (SympNet) and ~12 min (each transformer) per seed on one free CPU core, and
  the budget must fit a few minutes per claim on a shared 2-core machine. The epochs reached are
  part of every result.
- long: seed 0 of the transformers continued to 600 epochs (a documented side study).
- quick: 10 of the 40 k values, a few epochs, one seed: it exercises the pipeline, it cannot
  decide the claims.
"""
from __future__ import annotations

import argparse
import functools
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from particles import oscillator
from particles.sp_networks import NETWORKS, Table3, build, optimizers
from particles.threads import torch_threads
from theory.io import atomic_write

RUNS = Path(__file__).resolve().parents[1] / "runs" / "sp_transformer"  # gitignored
T_ROLLOUT = 600.0                  # fig. 7(d): the long horizon


@dataclass(frozen=True)
class Budget:
    """How much training a budget affords (see the module docstring for the reasons)."""

    name: str
    epochs: dict                   # network -> number of epochs
    seeds: tuple[int, ...]
    k_stride: int                  # train on K_TRAIN[::k_stride]
    batch_size: int = Table3.batch_size
    t_rollout: float = T_ROLLOUT
    checkpoint_every: int = 25

    def table3(self, network: str) -> Table3:
        return Table3(n_epochs=self.epochs[network], batch_size=self.batch_size)


BUDGETS = {
    "full": Budget("full", {"resnet": 1000, "sympnet": 1000, "transformer": 150,
                            "sp_transformer": 150}, seeds=(0, 1, 2), k_stride=1),
    # a longer run of the transformers (seed 0 only) continuing the full-budget checkpoints, to
    # see whether the SP transformer's fit is limited by the 150 epochs (docs, not the ledger)
    "long": Budget("long", {"resnet": 1000, "sympnet": 1000, "transformer": 600,
                            "sp_transformer": 600}, seeds=(0,), k_stride=1),
    "quick": Budget("quick", {"resnet": 3, "sympnet": 3, "transformer": 2, "sp_transformer": 2},
                    seeds=(0,), k_stride=4, t_rollout=100.0, checkpoint_every=0),
}


def get_budget(budget: str | Budget) -> Budget:
    if isinstance(budget, Budget):
        return budget
    if budget not in BUDGETS:
        raise ValueError(f"budget must be one of {sorted(BUDGETS)}, got {budget!r}")
    return BUDGETS[budget]


@functools.lru_cache(maxsize=4)
def data(k_stride: int) -> oscillator.OscillatorData:
    """The §5 training set on every `k_stride`-th of the 40 k values (memoized per process)."""
    return oscillator.training_data(oscillator.K_TRAIN[::k_stride])


@functools.lru_cache(maxsize=2)
def reference(t_end: float = T_ROLLOUT) -> np.ndarray:
    """Implicit-midpoint trajectory of the test case k = 3.5 on [0, t_end] (the blue line of fig. 7)."""
    return oscillator.trajectory(oscillator.K_TEST, t_end)


def loss_fn(model, Z: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean squared one-step error ‖𝒩𝒩(Z) − z^(t+sl)‖², averaged over the batch."""
    return (model(Z) - target).square().sum(-1).mean()


def _epoch_order(seed: int, epoch: int, n: int) -> torch.Tensor:
    """The shuffle of one epoch: a function of (seed, epoch) only, so a resumed run is identical."""
    return torch.randperm(n, generator=torch.Generator().manual_seed(1_000_003 * seed + epoch))


@torch.no_grad()
def rollout(model, warmup: np.ndarray, n_steps: int, blowup: float = 1e6) -> np.ndarray:
    """Feed the network its own predictions: states (len(warmup) + n_steps, 2d).

    The window is the last `model.seq_len` states. Once a state exceeds `blowup` in max-norm (or is
    not finite), the trajectory has blown up and the remaining states are NaN.
    """
    warmup = np.asarray(warmup, dtype=np.float64)
    if warmup.ndim != 2 or warmup.shape[0] < model.seq_len:
        raise ValueError(f"warmup must be (T0 >= {model.seq_len}, 2d), got {warmup.shape}")
    out = np.full((warmup.shape[0] + n_steps, warmup.shape[1]), np.nan)
    out[: warmup.shape[0]] = warmup
    window = torch.as_tensor(warmup[-model.seq_len:].T[None], dtype=torch.float64)
    for i in range(warmup.shape[0], out.shape[0]):
        z = model(window)[0]
        if not (torch.isfinite(z).all() and z.abs().max() < blowup):
            break
        out[i] = z.numpy()
        window = torch.cat([window[..., 1:], z[None, :, None]], dim=-1)
    return out


def train(network: str, seed: int, budget: str | Budget = "quick", *, fresh: bool = False,
          progress: bool = False) -> dict:
    """Train `network` with `seed` at `budget`; returns the result record (see `_record`).

    Full budget: resumes from / writes `runs/sp_transformer/<budget>/<network>-seed<seed>.pt`.
    """
    with torch_threads(1):
        return _train(network, seed, budget, fresh, progress)


def _train(network: str, seed: int, budget: str | Budget, fresh: bool, progress: bool) -> dict:
    b = get_budget(budget)
    if network not in NETWORKS:
        raise ValueError(f"network must be one of {sorted(NETWORKS)}, got {network!r}")
    settings = b.table3(network)
    path = RUNS / b.name / f"{network}-seed{seed}.pt"
    model = build(network, seed=seed)
    opts = optimizers(model, settings)
    state = {"epoch": 0, "losses": []}
    if b.checkpoint_every and path.exists() and not fresh:
        state = torch.load(path, weights_only=False)
        # a checkpoint may be extended to more epochs (same shuffles, same optimizer state), but
        # not continued under other optimizer settings or cut back
        same = {**state["settings"], "n_epochs": settings.n_epochs} == asdict(settings)
        if not same or state["epoch"] > settings.n_epochs:
            raise ValueError(f"checkpoint {path} was written with other settings {state['settings']}"
                             f" (epoch {state['epoch']}); rerun with --fresh")
        if state["epoch"] < settings.n_epochs:
            state.pop("rollout", None)
        model.load_state_dict(state["model"])
        for opt, s in zip(opts, state["optimizers"]):
            opt.load_state_dict(s)
        if state["epoch"] == settings.n_epochs and "rollout" in state:
            return _record(network, seed, b, state)
    Z, target = data(b.k_stride).training_pairs(model.seq_len)
    epochs = range(state["epoch"], settings.n_epochs)
    if progress:
        epochs = tqdm(epochs, desc=f"{network} seed {seed}", unit="epoch", leave=False,
                      initial=state["epoch"], total=settings.n_epochs)
    for epoch in epochs:
        order, total = _epoch_order(seed, epoch, Z.shape[0]), 0.0
        for batch in order.split(settings.batch_size):
            for opt in opts:
                opt.zero_grad(set_to_none=True)
            loss = loss_fn(model, Z[batch], target[batch])
            loss.backward()
            for opt in opts:
                opt.step()
            total += loss.item() * batch.numel()
        state["losses"].append(total / Z.shape[0])
        state["epoch"] = epoch + 1
        if b.checkpoint_every and (state["epoch"] % b.checkpoint_every == 0):
            _save(path, model, opts, settings, state)
    ref = reference(b.t_rollout)
    state["rollout"] = rollout(model, ref[: oscillator.WARMUP], ref.shape[0] - oscillator.WARMUP)
    state["model"] = model.state_dict()
    if b.checkpoint_every:
        _save(path, model, opts, settings, state)
    return _record(network, seed, b, state)


def _save(path: Path, model, opts, settings: Table3, state: dict) -> None:
    state.update(model=model.state_dict(), optimizers=[o.state_dict() for o in opts],
                 settings=asdict(settings))
    atomic_write(path, lambda tmp: torch.save(state, tmp))


def _record(network: str, seed: int, b: Budget, state: dict) -> dict:
    """What the claims and figures use: the trained model, its losses and its k = 3.5 rollout."""
    model = build(network, seed=seed)
    model.load_state_dict(state["model"])
    model.eval()
    return {"network": network, "seed": seed, "budget": b.name, "epochs": state["epoch"],
            "batch_size": b.batch_size, "losses": list(state["losses"]),
            "rollout": np.asarray(state["rollout"]), "model": model}


_MEMO: dict = {}  # (budget, network, seed) -> record, so claims and figures share one training


def experiment(budget: str | Budget = "quick", networks=tuple(NETWORKS), seeds=None, *,
               fresh: bool = False, progress: bool = False) -> dict:
    """{network: [record per seed]} at the budget; each (network, seed) is trained once per process."""
    b = get_budget(budget)
    seeds = b.seeds if seeds is None else tuple(seeds)
    jobs = [(n, s) for n in networks for s in seeds]
    it = tqdm(jobs, desc=f"sp_train ({b.name})", unit="run") if progress else jobs
    out: dict = {n: [] for n in networks}
    for n, s in it:
        key = (repr(b), n, s)
        if fresh or key not in _MEMO:
            _MEMO[key] = train(n, s, b, fresh=fresh, progress=progress)
        out[n].append(_MEMO[key])
    return out


# ------------------------------------------------------------------ rollout diagnostics


def times(n: int, h: float = oscillator.H_STEP) -> np.ndarray:
    return h * np.arange(n)


def blowup_time(traj: np.ndarray, ref: np.ndarray, factor: float = 10.0,
                h: float = oscillator.H_STEP) -> float:
    """First time at which the rollout leaves the ball of radius `factor` · max‖ref‖_∞ (or stops
    being finite); +inf when it never does."""
    bound = factor * np.max(np.abs(ref))
    bad = ~np.all(np.isfinite(traj) & (np.abs(traj) <= bound), axis=-1)
    return float(h * np.argmax(bad)) if bad.any() else float("inf")


def q1_error(traj: np.ndarray, ref: np.ndarray, t0: float, t1: float,
             h: float = oscillator.H_STEP) -> float:
    """RMS of q1 − q1_ref over t ∈ (t0, t1], divided by the RMS of q1_ref there (inf after a blow-up)."""
    t = times(len(ref), h)
    sel = (t > t0 + 1e-9) & (t <= t1 + 1e-9)
    e = traj[sel, 0] - ref[sel, 0]
    if not np.all(np.isfinite(e)):
        return float("inf")
    return float(np.sqrt(np.mean(e ** 2)) / np.sqrt(np.mean(ref[sel, 0] ** 2)))


def energy_drift(traj: np.ndarray, k: float = oscillator.K_TEST, t0: float = 2.0,
                 h: float = oscillator.H_STEP) -> dict:
    """Energy H(ẑ(t); k) along a rollout: least-squares slope over t ≥ t0, and the relative change
    of the mean energy of the last tenth against the first tenth of [t0, t_end]."""
    t = times(len(traj), h)
    sel = t >= t0 - 1e-9
    if not np.all(np.isfinite(traj[sel])):
        return {"slope": float("nan"), "relative_change": float("nan"), "finite": False}
    E, ts = oscillator.energy(traj[sel], k), t[sel]
    slope = float(np.polyfit(ts, E, 1)[0])
    m = max(1, len(E) // 10)
    first, last = float(E[:m].mean()), float(E[-m:].mean())
    return {"slope": slope, "relative_change": (last - first) / abs(first), "finite": True,
            "energy_first": first, "energy_last": last}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m particles.sp_train", description=__doc__.splitlines()[0])
    p.add_argument("--budget", choices=sorted(BUDGETS), default="full")
    p.add_argument("--networks", nargs="+", choices=sorted(NETWORKS), default=list(NETWORKS))
    p.add_argument("--seeds", nargs="+", type=int, default=None)
    p.add_argument("--fresh", action="store_true", help="ignore existing checkpoints")
    args = p.parse_args(argv)
    res = experiment(args.budget, tuple(args.networks), args.seeds, fresh=args.fresh, progress=True)
    ref = reference(get_budget(args.budget).t_rollout)
    for n, recs in res.items():
        for r in recs:
            print(f"{n:15s} seed {r['seed']}  epochs {r['epochs']:5d}  loss {r['losses'][-1]:.3e}  "
                  f"blow-up t {blowup_time(r['rollout'], ref):7.1f}  "
                  f"q1 err [0,20] {q1_error(r['rollout'], ref, 2.0, 20.0):.3f}  "
                  f"energy change {energy_drift(r['rollout'])['relative_change']:+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

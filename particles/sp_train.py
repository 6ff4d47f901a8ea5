"""Training and rollouts of the four integrators of seed 001 §5 (fig. 7): committed results.

    python -m particles.sp_train [--budget full|quick] [--networks ...] [--seeds ...]
                                 [--status] [--recompute] [--out DIR] [--cache DIR]

trains every (network, seed) pair of the budget on the implicit-midpoint data of
`particles.oscillator`, then rolls each network out on the test case (k = 3.5, five implicit-midpoint
warm-up states, predictions from t = 2.0 to t = 600); at the budgets n40 and quick the one-step
networks (ResNet, SympNet) are also rolled out from the warm-up of every training k to t = 18
(fig. 7(b)), q1 kept (`k_rollouts`: "similar trajectories regardless of the parameter k", §5).
Each finished run writes one small JSON (its configuration, provenance, per-epoch training and
validation loss, the k = 3.5 rollout, the diagnostics the claims need) into
`results/sp_transformer/` (tracked) for the full budget; the weights and optimizer states go to
checkpoints under `runs/sp_transformer/<budget>/` (git-ignored), written atomically every
`checkpoint_every` epochs, so an interrupted run resumes where it stopped. A finished run whose
result matches the asked configuration is reported, not retrained, unless `--recompute`; a result
written with another configuration, or a one-step network's result without the `k_rollouts` its
budget asks for (`k_rollouts_spec`, versioned), is *stale* (its differing fields are named) and is
retrained, continuing its checkpoint when only the epoch count grew (a finished checkpoint is only
rolled out again). The claims and figures read the committed results through `collect` and never
train at the full budget.

Budgets (Table 3: Adam η = 1e-3, ρ1 = 0.9, ρ2 = 0.99, δ = 1e-8, 2000 epochs, batch 512):
- full: Table 3 as printed (2000 epochs, batch 512) for all four networks, all 40 k values,
  seeds 0-4 (the claims' statistics need >= 3). One epoch costs 0.02 s (ResNet), 0.04 s
  (SympNet), 0.27 s (transformer) and 0.28 s (SP transformer) on one free core, 2-4 times more
  on the shared 2-core machine: 20-80 min per seed.
- long: a side study continuing the full budget's ResNet and SympNet checkpoints (seeds 0-2) to
  8000 epochs (results in `results/sp_transformer/long/`; the claims read it only as a side check).
- quick: 10 of the 40 k values, a few epochs, one seed, trained in memory (seconds, used by the
  tests): it exercises the pipeline, it cannot decide the claims.

Validation loss: the one-step loss on the k = 3.5 trajectory on [0, 100], which is not a training
trajectory (the nearest training value is 136/39, `sp_transformer:k-3.5-training-set`).
"""
from __future__ import annotations

import argparse
import functools
import json
import math
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from particles import oscillator
from particles.sp_networks import NETWORKS, Table2, Table3, build, optimizers
from particles.sp_rollouts import (BLOWUP_GUARD, K_ROLLOUTS_T_END, blowup_time, convergence,
                                   energy_drift, every_warmup_rollouts, every_warmup_spec, max_abs,
                                   q1_error, rollout, round_digits, structure)
from particles.provenance import code_session, config_diff, git
from particles.threads import torch_threads
from theory.cli import Parser, writable
from theory.io import atomic_write, atomic_write_text

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results" / "sp_transformer"   # tracked: one JSON per finished full-budget run
RUNS = ROOT / "runs" / "sp_transformer"         # git-ignored: checkpoints, non-committed results
SCHEMA = 2                                      # version of the result JSON
T_ROLLOUT = 600.0                               # fig. 7(d): the long horizon
MILESTONES = 10                                 # rollout diagnostics at every tenth of the epochs
HORIZONS = ((2.0, 10.0), (2.0, 18.0), (2.0, 20.0))  # fig. 7's fit windows (a)-(c)
COMMAND = "python -m particles.sp_train"


@dataclass(frozen=True)
class Budget:
    """How much training a budget affords (see the module docstring for the reasons)."""

    name: str
    epochs: dict                   # network -> number of epochs
    seeds: tuple[int, ...]
    k_stride: int                  # train on K_TRAIN[::k_stride]
    batch_size: int = Table3.batch_size
    t_rollout: float = T_ROLLOUT
    structure_windows: int = 40    # windows of the SP transformer's rollout for its Jacobians
    checkpoint_every: int = 25     # 0: train in memory, write nothing
    committed: bool = False        # results live in the tracked RESULTS folder
    extends: str | None = None     # a budget whose checkpoints this one continues
    table2: Table2 = Table2()      # the networks' dimensions (Table 2 under one reading)
    # horizon of the one-step networks' rollouts from the warm-up of every training k (0: none)
    k_rollouts: float = 0.0

    def table3(self, network: str) -> Table3:
        return Table3(n_epochs=self.epochs[network], batch_size=self.batch_size)


BUDGETS = {
    "full": Budget("full", {n: Table3.n_epochs for n in NETWORKS}, seeds=(0, 1, 2, 3, 4),
                   k_stride=1, committed=True),
    # side study: the ResNet and the SympNet continued from the full budget's checkpoints to 4x
    # Table 3's epochs, to see where their loss converges and whether fig. 7(a,b)'s verdict moves
    "long": Budget("long", {**{n: Table3.n_epochs for n in NETWORKS}, "resnet": 8000, "sympnet": 8000},
                   seeds=(0, 1, 2), k_stride=1, committed=True, extends="full"),
    # Table 2's '20' read as N (2N = 40, M = 2N = 40 as §5 prints): the reading under which the
    # paper agrees with itself (sp_transformer:table-2-dimensions); all four networks (fig. 7(a,b)'s
    # and fig. 7(c,d)'s), the transformers trained last
    "n40": Budget("n40", {n: Table3.n_epochs for n in NETWORKS}, seeds=(0, 1, 2, 3, 4), k_stride=1,
                  committed=True, table2=Table2(upscale=40, width=40), k_rollouts=K_ROLLOUTS_T_END),
    "quick": Budget("quick", {"resnet": 3, "sympnet": 3, "transformer": 2, "sp_transformer": 2},
                    seeds=(0,), k_stride=4, t_rollout=100.0, structure_windows=12,
                    checkpoint_every=0, k_rollouts=K_ROLLOUTS_T_END),
}


class ResultError(ValueError):
    """A result or checkpoint that cannot be used (corrupt, written with other settings) or a run
    that diverged; the message is one line naming the file and the command that rebuilds it."""


def get_budget(budget: str | Budget) -> Budget:
    if isinstance(budget, Budget):
        return budget
    if budget not in BUDGETS:
        raise ValueError(f"budget must be one of {sorted(BUDGETS)}, got {budget!r}")
    return BUDGETS[budget]


def _check_run(network: str, seed: int) -> None:
    if network not in NETWORKS:
        raise ValueError(f"network must be one of {sorted(NETWORKS)}, got {network!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")


def stem(network: str, seed: int) -> str:
    return f"{network}-seed{seed}"


def rebuild_command(network: str, seed: int, recompute: bool = False) -> str:
    return f"{COMMAND} --networks {network} --seeds {seed}" + (" --recompute" if recompute else "")


# ------------------------------------------------------------------ data


@functools.lru_cache(maxsize=4)
def data(k_stride: int) -> oscillator.OscillatorData:
    """The §5 training set on every `k_stride`-th of the 40 k values (memoized per process)."""
    return oscillator.training_data(oscillator.K_TRAIN[::k_stride])


@functools.lru_cache(maxsize=2)
def validation_pairs(seq_len: int) -> tuple[torch.Tensor, torch.Tensor]:
    """One-step windows of the k = 3.5 trajectory on [0, 100]: a held-out parameter value."""
    return oscillator.training_data([oscillator.K_TEST]).training_pairs(seq_len)


@functools.lru_cache(maxsize=2)
def reference(t_end: float = T_ROLLOUT) -> np.ndarray:
    """Implicit-midpoint trajectory of the test case k = 3.5 on [0, t_end] (the blue line of fig. 7)."""
    return oscillator.trajectory(oscillator.K_TEST, t_end)


def run_config(network: str, seed: int, budget: str | Budget) -> dict:
    """Everything a result depends on besides the code: what a claim asks of a committed run."""
    b = get_budget(budget)
    _check_run(network, seed)
    return {"schema": SCHEMA, "network": network, "seed": seed, "budget": b.name,
            "table2": asdict(b.table2), "table3": asdict(b.table3(network)),
            "data": {"k_train": f"numpy.linspace(0, 4, 40)[::{b.k_stride}]",
                     "n_k": len(oscillator.K_TRAIN[::b.k_stride]), "h": oscillator.H_STEP,
                     "t_end": oscillator.T_END, "newton_tol": oscillator.NEWTON_TOL},
            "loss": "mean squared one-step error", "validation": {"k": oscillator.K_TEST,
                                                                  "t_end": oscillator.T_END},
            "rollout": {"k": oscillator.K_TEST, "warmup": oscillator.WARMUP,
                        "t_end": b.t_rollout, "blowup_guard": BLOWUP_GUARD},
            "structure_windows": b.structure_windows if network == "sp_transformer" else 0}


def k_rollouts_spec(network: str, budget: str | Budget) -> dict | None:
    """`sp_rollouts.every_warmup_spec` at this budget's k stride and horizon (None for the
    transformers and the budgets without `k_rollouts`). Kept out of `run_config`, so that the other
    claims' runs keep their configuration; `collect(..., k_rollouts=True)` reports a result without
    it, or with another spec, as stale."""
    b = get_budget(budget)
    return every_warmup_spec(network, b.k_stride, b.k_rollouts) if b.k_rollouts else None


# ------------------------------------------------------------------ training


def loss_fn(model, Z: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean squared one-step error ‖𝒩𝒩(Z) − z^(t+sl)‖², averaged over the batch."""
    return (model(Z) - target).square().sum(-1).mean()


def _epoch_order(seed: int, epoch: int, n: int) -> torch.Tensor:
    """The shuffle of one epoch: a function of (seed, epoch) only, so a resumed run is identical."""
    return torch.randperm(n, generator=torch.Generator().manual_seed(1_000_003 * seed + epoch))


# the code a trained network depends on (its uncommitted changes are recorded with each session)
CODE = ("particles/sp_train.py", "particles/sp_rollouts.py", "particles/sp_networks.py",
        "particles/oscillator.py", "particles/sympnet.py", "particles/geometry.py",
        "particles/threads.py", "theory")


def train(network: str, seed: int, budget: str | Budget = "quick", *, recompute: bool = False,
          progress: bool = False, cache: Path | None = None) -> dict:
    """Train `network` with `seed` at `budget` (one torch thread) and return its result (the JSON
    content, see `_result`). With checkpoints (`budget.checkpoint_every` > 0) the run resumes from
    / writes `<cache>/<network>-seed<seed>.pt` (default cache `runs/sp_transformer/<budget>/`);
    `recompute` starts from scratch."""
    b = get_budget(budget)
    _check_run(network, seed)
    with torch_threads(1):
        return _train(network, seed, b, recompute, progress, cache)


def _load_checkpoint(path: Path, network: str, seed: int, settings: Table3) -> dict:
    try:
        state = torch.load(path, weights_only=False)
        if not isinstance(state, dict) or not {"epoch", "losses", "val_losses", "model", "milestones",
                                               "optimizers", "settings"} <= set(state):
            raise ValueError("missing fields")
    except Exception as exc:  # a truncated or foreign file: any unpickling error
        raise ResultError(f"{path}: unreadable checkpoint ({type(exc).__name__}); retrain with "
                          f"`{rebuild_command(network, seed, recompute=True)}`") from None
    # a checkpoint may be extended to more epochs (same shuffles, same optimizer state), but not
    # continued under other optimizer settings or cut back
    asked = asdict(settings)
    differ = config_diff({**state["settings"], "n_epochs": settings.n_epochs}, asked)
    if differ or state["epoch"] > settings.n_epochs:
        differ = differ or [f"epoch {state['epoch']} > n_epochs {settings.n_epochs}"]
        raise ResultError(f"{path}: checkpoint written with other settings ({'; '.join(differ)}); "
                          f"retrain with `{rebuild_command(network, seed, recompute=True)}`")
    return state


def _train(network: str, seed: int, b: Budget, recompute: bool, progress: bool,
           cache: Path | None) -> dict:
    settings = b.table3(network)
    cache = Path(cache) if cache else RUNS / b.name
    path = cache / f"{stem(network, seed)}.pt" if b.checkpoint_every else None
    model = build(network, b.table2, seed=seed)
    opts = optimizers(model, settings)
    state = {"epoch": 0, "losses": [], "val_losses": [], "wall_clock_s": 0.0, "sessions": [],
             "milestones": []}
    start = path
    if path is not None and not path.exists() and b.extends and not recompute:
        # continue the run of the budget this one extends, from its cache next to this one
        start = cache.parent / b.extends / path.name
    if start is not None and start.exists() and not recompute:
        state = _load_checkpoint(start, network, seed, settings)
        model.load_state_dict(state["model"])
        for opt, s in zip(opts, state["optimizers"]):
            opt.load_state_dict(s)
    if state["epoch"] < settings.n_epochs:
        state["sessions"].append({**code_session(CODE), "from_epoch": state["epoch"]})
    Z, target = data(b.k_stride).training_pairs(model.seq_len)
    Z_val, target_val = validation_pairs(model.seq_len)
    epochs = range(state["epoch"], settings.n_epochs)
    if progress:
        epochs = tqdm(epochs, desc=f"{network} seed {seed}", unit="epoch", leave=False,
                      initial=state["epoch"], total=settings.n_epochs)
    for epoch in epochs:
        start = time.perf_counter()
        model.train()
        order, total = _epoch_order(seed, epoch, Z.shape[0]), 0.0
        for batch in order.split(settings.batch_size):
            for opt in opts:
                opt.zero_grad(set_to_none=True)
            loss = loss_fn(model, Z[batch], target[batch])
            loss.backward()
            for opt in opts:
                opt.step()
            total += loss.item() * batch.numel()
        if not math.isfinite(total):
            kept = f"last good checkpoint kept: {path}" if path else "nothing written"
            raise ResultError(f"{network} seed {seed}: training loss {total} at epoch {epoch + 1} "
                              f"(learning rate η = {settings.eta} too large for this network?); {kept}")
        with torch.no_grad():
            state["val_losses"].append(loss_fn(model, Z_val, target_val).item())
        state["losses"].append(total / Z.shape[0])
        state["epoch"] = epoch + 1
        state["wall_clock_s"] += time.perf_counter() - start
        if state["epoch"] in milestone_epochs(settings.n_epochs):
            model.eval()
            state["milestones"].append(milestone(model, b, state))
        if path is not None and (state["epoch"] % b.checkpoint_every == 0
                                 or state["epoch"] == settings.n_epochs):
            _save(path, model, opts, settings, state)
    model.eval()
    return _result(network, seed, b, model, state)


def rollout_summary(traj: np.ndarray, t_end: float) -> dict:
    """The diagnostics the claims read from a rollout, on fig. 7's windows: relative q1 error and
    max‖ẑ‖∞ (NaN after a blow-up counts as the guard) per window, the same max over (2, t_end], and
    the relative energy change (NaN when the rollout is not finite)."""
    ref = reference(t_end)
    key = lambda t0, t1: f"{t0:g}-{t1:g}"  # noqa: E731
    return {"q1_error": {key(*w): q1_error(traj, ref, *w) for w in HORIZONS},
            "max_abs": {key(*w): max_abs(traj, *w) for w in (*HORIZONS, (2.0, t_end))},
            "energy_relative_change": energy_drift(traj)["relative_change"]}


def milestone_epochs(n_epochs: int) -> list[int]:
    """The epochs after which a milestone is recorded: every tenth of the run (every epoch for short
    runs)."""
    step = max(1, n_epochs // MILESTONES)
    return list(range(step, n_epochs + 1, step))


def milestone(model, b: Budget, state: dict) -> dict:
    """Losses and rollout diagnostics at the current epoch: do the verdict's numbers still move?"""
    ref = reference(b.t_rollout)
    traj = rollout(model, ref[: oscillator.WARMUP], ref.shape[0] - oscillator.WARMUP)
    return {"epoch": state["epoch"], "train_loss": state["losses"][-1],
            "val_loss": state["val_losses"][-1], **rollout_summary(traj, b.t_rollout)}


def _save(path: Path, model, opts, settings: Table3, state: dict) -> None:
    state.update(model=model.state_dict(), optimizers=[o.state_dict() for o in opts],
                 settings=asdict(settings))
    atomic_write(path, lambda tmp: torch.save(state, tmp))


def _result(network: str, seed: int, b: Budget, model, state: dict) -> dict:
    """The JSON of a finished run: config, provenance, loss curves, the k = 3.5 rollout (every step,
    8 significant digits: ~90 kB) and the diagnostics that need the weights (output bound of the
    ResNet, Jacobians of the SP transformer)."""
    ref = reference(b.t_rollout)
    traj = rollout(model, ref[: oscillator.WARMUP], ref.shape[0] - oscillator.WARMUP)
    out = {"config": run_config(network, seed, b), "epochs": state["epoch"],
           "train_loss": round_digits(state["losses"], 7), "val_loss": round_digits(state["val_losses"], 7),
           "final": {"train_loss": state["losses"][-1], "val_loss": state["val_losses"][-1]},
           "rollout": {"h": oscillator.H_STEP, "states": round_digits(traj, 8)},
           "milestones": round_digits(state["milestones"], 7),
           "provenance": {"commit": git("rev-parse", "HEAD"), "sessions": state["sessions"],
                          "torch": torch.__version__, "numpy": np.__version__,
                          "python": platform.python_version(), "platform": platform.platform(),
                          "device": "cpu", "threads": torch.get_num_threads(),
                          "wall_clock_s": round(state["wall_clock_s"], 1),
                          "seconds_per_epoch": round(state["wall_clock_s"] / max(1, state["epoch"]), 4)}}
    if network == "resnet":
        out["output_bound"] = model.output_bound().tolist()
    if network == "sp_transformer":
        out["structure"] = {k: round_digits(v, 10) for k, v in
                            structure(model, traj, b.structure_windows).items()}
    if (spec := k_rollouts_spec(network, b)) is not None:
        out["k_rollouts"] = every_warmup_rollouts(model, spec, data(b.k_stride))
    return out


# ------------------------------------------------------------------ results on disk


def default_out(budget: str | Budget) -> Path:
    """Where a budget's results go: the tracked folder (a subfolder for side studies) for committed
    budgets, runs/ otherwise."""
    b = get_budget(budget)
    if not b.committed:
        return RUNS / b.name / "results"
    return RESULTS if b.name == "full" else RESULTS / b.name


def write_result(path: Path, result: dict) -> Path:
    """One top-level key per line, values compact: small, diffable, valid JSON (atomic)."""
    lines = [f"{json.dumps(k)}: {json.dumps(result[k], sort_keys=True, separators=(',', ':'), allow_nan=False)}"
             for k in sorted(result)]
    return atomic_write_text(path, "{\n" + ",\n".join(lines) + "\n}\n")


def _require(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(what)


def read_result(path: Path, budget: str = "full") -> dict:
    """A result JSON, validated: a truncated or inconsistent file is a `ResultError` naming it and
    the command that rebuilds it."""
    path = Path(path)
    network, _, seed = path.stem.rpartition("-seed")
    command = rebuild_command(network or "NETWORK", int(seed) if seed.isdigit() else 0, True)
    if budget != "full":
        command = command.replace(COMMAND, f"{COMMAND} --budget {budget}")
    try:
        r = json.loads(path.read_text(encoding="utf-8"))
        cfg, n = r["config"], r["epochs"]
        if cfg["schema"] != SCHEMA:
            return r  # an older layout: `collect` reports it stale (config field `schema`)
        _require(len(r["train_loss"]) == len(r["val_loss"]) == n, "loss curves shorter than epochs")
        n_states = round(cfg["rollout"]["t_end"] / r["rollout"]["h"]) + 1
        _require(len(r["rollout"]["states"]) == n_states, "rollout has the wrong length")
        marks = [m["epoch"] for m in r["milestones"]]
        _require(bool(marks) and marks[-1] == n and marks == sorted(set(marks)), "milestones missing")
        _require(cfg["network"] != "resnet" or "output_bound" in r, "no output_bound")
        _require(cfg["network"] != "sp_transformer" or "structure" in r, "no structure")
        if "k_rollouts" in r:   # optional here; `collect(..., k_rollouts=True)` asks for it
            kr, spec = r["k_rollouts"], r["k_rollouts"]["spec"]
            n_t = round(spec["t_end"] / spec["h"]) + 1
            _require(len(kr["k"]) == len(kr["q1"]) == spec["n_k"]
                     and all(len(row) == n_t for row in kr["q1"]), "k_rollouts has the wrong shape")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ResultError(f"{path}: unusable result ({type(exc).__name__}: {exc}); restore it "
                          f"(`git checkout -- {path}`) or rebuild it with `{command}`") from None
    return r


def record(result: dict, path: Path | None = None) -> dict:
    """A result as the claims and figures use it: numpy arrays, NaN where the rollout blew up."""
    cfg = result["config"]
    nan = lambda v: np.nan if v is None else v  # noqa: E731
    return {"network": cfg["network"], "seed": cfg["seed"], "epochs": result["epochs"],
            "batch_size": cfg["table3"]["batch_size"], "path": path,
            "losses": np.array([nan(v) for v in result["train_loss"]], dtype=np.float64),
            "val_losses": np.array([nan(v) for v in result["val_loss"]], dtype=np.float64),
            "rollout": np.array([[nan(v) for v in row] for row in result["rollout"]["states"]],
                                dtype=np.float64),
            "milestones": result["milestones"],
            "output_bound": result.get("output_bound"), "structure": result.get("structure"),
            "k_rollouts": None if result.get("k_rollouts") is None else {
                "spec": result["k_rollouts"]["spec"],
                "k": np.asarray(result["k_rollouts"]["k"], dtype=np.float64),
                "q1": np.array([[nan(v) for v in row] for row in result["k_rollouts"]["q1"]],
                               dtype=np.float64)},
            "provenance": result["provenance"]}


@dataclass
class Collected:
    """The runs a claim asked for: usable records per network, and what is missing, stale, corrupt."""

    budget: str
    records: dict = field(default_factory=dict)        # network -> [record per seed, seed order]
    missing: list = field(default_factory=list)        # run names
    stale: dict = field(default_factory=dict)          # run name -> differing fields
    corrupt: dict = field(default_factory=dict)        # run name -> one-line message

    @property
    def complete(self) -> bool:
        return not (self.missing or self.stale or self.corrupt)

    def problems(self) -> dict:
        """What keeps the claim from deciding, and the command that trains what is absent."""
        bad = sorted({*self.missing, *self.stale, *self.corrupt})
        nets = sorted({b.rpartition("-seed")[0] for b in bad})
        seeds = sorted({int(b.rpartition("-seed")[2]) for b in bad})
        return {"missing": self.missing, "stale": self.stale, "corrupt": self.corrupt,
                "to_train": f"{COMMAND}{'' if self.budget == 'full' else ' --budget ' + self.budget}"
                            f" --networks {' '.join(nets)} --seeds "
                            f"{' '.join(map(str, seeds))}" if bad else None}


_MEMO: dict = {}  # (budget, network, seed) -> result of an in-memory (non-checkpointed) run


def _k_rollouts_diff(result: dict, network: str, b: Budget) -> list[str]:
    """The fields where a result's `k_rollouts` spec differs from the asked one (none asked: [])."""
    asked = k_rollouts_spec(network, b)
    if asked is None:
        return []
    have = (result.get("k_rollouts") or {}).get("spec")
    if have is None:
        return [f"k_rollouts: <absent> -> version {asked['version']} ({asked['n_k']} k, q1 to "
                f"t = {asked['t_end']:g})"]
    return config_diff(have, asked, "k_rollouts.")


def collect(budget: str | Budget = "full", networks=tuple(NETWORKS), seeds=None,
            out: Path | None = None, k_rollouts: bool = False) -> Collected:
    """The budget's runs. A committed budget reads the results under `out` (never trains); a
    budget without checkpoints (quick) trains in memory, once per process. With `k_rollouts`, a
    one-step network's result must also hold the rollouts from every training k's warm-up that
    the budget asks for (`k_rollouts_spec`): without them, or with another spec, it is stale."""
    b = get_budget(budget)
    seeds = b.seeds if seeds is None else tuple(seeds)
    got = Collected(b.name, {n: [] for n in networks})
    for n in networks:
        for s in seeds:
            if not b.checkpoint_every:
                key = (repr(b), n, s)
                if key not in _MEMO:
                    _MEMO[key] = train(n, s, b)
                got.records[n].append(record(_MEMO[key]))
                continue
            path = Path(out or default_out(b)) / f"{stem(n, s)}.json"
            if not path.exists():
                got.missing.append(stem(n, s))
                continue
            try:
                r = read_result(path, b.name)
            except ResultError as exc:
                got.corrupt[stem(n, s)] = str(exc)
                continue
            differ = config_diff(r["config"], run_config(n, s, b))
            if k_rollouts:
                differ += _k_rollouts_diff(r, n, b)
            if differ:
                got.stale[stem(n, s)] = differ
            else:
                got.records[n].append(record(r, path))
    return got


def fill(budget: str | Budget = "full", networks=tuple(NETWORKS), seeds=None, *,
         recompute: bool = False, out: Path | None = None, cache: Path | None = None,
         progress: bool = False, log=print) -> Collected:
    """Train what `collect` lacks (missing, stale, corrupt runs; everything with `recompute`) and
    write each result as it finishes; finished runs are reported, not retrained. The recompute
    path of the figures and the ledger (`fill("full", recompute=True)`)."""
    b = get_budget(budget)
    seeds = b.seeds if seeds is None else tuple(seeds)
    out = Path(out or default_out(b))
    for n in networks:
        for s in seeds:
            have = collect(b, (n,), (s,), out, k_rollouts=True)
            name = stem(n, s)
            if have.complete and not recompute:
                rec = have.records[n][0]
                log(f"{name}: finished ({rec['epochs']} epochs, loss {rec['losses'][-1]:.3e}), "
                    f"{rec['path']}; --recompute retrains it")
                continue
            why = ("--recompute" if recompute else "missing" if name in have.missing else
                   f"stale ({'; '.join(have.stale[name])})" if name in have.stale else
                   have.corrupt.get(name, ""))
            log(f"{name}: training ({why})")
            result = train(n, s, b, recompute=recompute, progress=progress, cache=cache)
            write_result(out / f"{name}.json", result)
            log(f"{name}: wrote {out / f'{name}.json'} ({result['epochs']} epochs, "
                f"{result['provenance']['wall_clock_s']:.0f} s)")
    return collect(b, networks, seeds, out, k_rollouts=True)


# ------------------------------------------------------------------ command line


def _seed(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    p = Parser(prog=COMMAND, description=__doc__.splitlines()[0])
    p.add_argument("--budget", choices=sorted(BUDGETS), default="full")
    p.add_argument("--networks", nargs="+", choices=sorted(NETWORKS), default=list(NETWORKS),
                   metavar="NETWORK", help=f"any of {', '.join(sorted(NETWORKS))} (default all)")
    p.add_argument("--seeds", nargs="+", type=_seed, default=None, metavar="SEED",
                   help="non-negative integers (default: the budget's seeds)")
    p.add_argument("--status", action="store_true", help="report finished/missing/stale runs, train nothing")
    p.add_argument("--recompute", action="store_true", help="retrain finished runs from scratch")
    p.add_argument("--out", type=Path, default=None,
                   help="results folder (default results/sp_transformer for full, runs/... otherwise)")
    p.add_argument("--cache", type=Path, default=None,
                   help="checkpoint folder (default runs/sp_transformer/<budget>)")
    args = p.parse_args(argv)
    b = get_budget(args.budget)
    if not b.checkpoint_every and (args.out or args.cache):
        p.error(f"argument --out/--cache: budget {b.name!r} trains in memory and writes nothing")
    out = args.out or default_out(b)
    for option, path in (("--out", out), ("--cache", args.cache or RUNS / b.name)):
        writable(p, f"argument {option}", path, folder=True, into_docs=True)
    seeds = b.seeds if args.seeds is None else tuple(dict.fromkeys(args.seeds))
    try:
        if args.status or not b.checkpoint_every:
            got = collect(b, tuple(args.networks), seeds, out, k_rollouts=True)
        else:
            got = fill(b, tuple(args.networks), seeds, recompute=args.recompute, out=out,
                       cache=args.cache, progress=True)
    except ResultError as exc:
        print(f"{COMMAND}: error: {exc}", file=sys.stderr)
        return 1
    ref = reference(b.t_rollout)
    for n, recs in got.records.items():
        for r in recs:
            conv = convergence(r["losses"])
            print(f"{n:15s} seed {r['seed']}  epochs {r['epochs']:5d}  loss {r['losses'][-1]:.3e}  "
                  f"val {r['val_losses'][-1]:.3e}  last-10% drop {conv['relative_drop']:+.3f}"
                  f"{'' if conv['converged'] else ' (not converged)'}  "
                  f"blow-up t {blowup_time(r['rollout'], ref):7.1f}  "
                  f"q1 err (2,20] {q1_error(r['rollout'], ref, 2.0, 20.0):.3f}  "
                  f"energy change {energy_drift(r['rollout'])['relative_change']:+.3f}")
    if not got.complete:
        problems = got.problems()
        for kind in ("missing", "stale", "corrupt"):
            if problems[kind]:
                print(f"{kind}: {problems[kind]}")
        print(f"to train them: {problems['to_train']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

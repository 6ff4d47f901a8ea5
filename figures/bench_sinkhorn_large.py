"""bench-sinkhorn-large: the O(N)-memory Sinkhorn solvers at N = 10⁵, where no N×N matrix fits
(figures/_bench.py: committed measurement, one thread; the dense cases are `bench-sinkhorn`'s).

The problem, tolerance and residual check are bench-sinkhorn's (two uniform samples of [0, 1]²,
C = ½|x − y|², ε = 0.1, ℓ2 marginal violation ≤ 1e-9, re-verified chunk by chunk). Solvers:

* ours online (`particles.sinkhorn.sinkhorn_points`, chunked online logsumexp), timed once;
* POT's O(N)-memory solver, `ot.bregman.empirical_sinkhorn(..., isLazy=True)` at its default batch
  of 100 rows (`bench_sinkhorn.pot_lazy`; its stopping test, the ℓ1 row violation ≤ tol every 10th
  iteration, is at least as strict as ours). One solve takes hours on one thread (~530 s per
  iteration at N = 10⁵: numpy distance blocks), so it runs *resumably*: in calls of 10 iterations,
  each warm-started from the previous call's potentials (POT's loop recomputes f from g, so (f, g)
  is its whole state, and its test falls on the 10th iteration of every call: the iterates and
  tests of one uninterrupted call). After each call the potentials, the call's process CPU time
  and its peak resident-set growth are saved atomically under runs/bench/ (validated on load:
  problem, tolerance, POT version and the points' sha256); its time is the sum over calls.
* GeomLoss, which has no O(N)-memory mode without KeOps: its tensorized backend holds two N×N
  float64 matrices (160 GB), and its KeOps backend segfaulted on the lent H200 (CUDA 13, KeOps
  2.3: tools/cuda_session.py part ``sinkhorn``) and takes ~5 ns per kernel evaluation on this CPU,
  about an hour per solve at 10⁵ plus twice that to find its stopping iteration. The row says so.

Ours is timed in the process that finishes POT's solve: the ratio is ours / POT's summed time.
"""
from __future__ import annotations

import hashlib
import math
import time
from pathlib import Path

import matplotlib.pyplot as plt
import torch
from tqdm import tqdm

from figures import Context, figure
from figures import _bench
from figures import bench_sinkhorn as bs
from particles.threads import torch_threads
from theory.io import atomic_write, run_lock

STATE = Path(__file__).resolve().parents[1] / "runs" / "bench"  # git-ignored: POT's resumable state
POT_TEST_PERIOD = 10   # POT's lazy loop tests its stopping rule on every 10th iteration of a call
SETTINGS = {"quick": {"cases": [[400, 0.1]]}, "full": {"cases": [[100_000, 0.1]]}}
GEOMLOSS_WHY = ("GeomLoss has no O(N)-memory mode without KeOps: tensorized it holds two N×N float64 "
                "matrices ({gb:.0f} GB); on KeOps it segfaulted on the lent H200 (CUDA 13) and needs about "
                "3 single-thread hours on this CPU at N = 10⁵ (a solve plus the search for its stopping iteration)")


def config(budget: str) -> dict:
    if budget not in SETTINGS:
        raise ValueError(f"budget must be one of {sorted(SETTINGS)}, got {budget!r}")
    return {**SETTINGS[budget], "tol": bs.TOL, "seed": bs.SEED, "cost": "half_sq", "domain": "[0,1]^2",
            "threads": _bench.THREADS, "pot_test_period": POT_TEST_PERIOD}


def _fingerprint(x: torch.Tensor, y: torch.Tensor, eps: float) -> dict:
    import ot
    digest = hashlib.sha256(x.numpy().tobytes() + y.numpy().tobytes()).hexdigest()
    return {"n": x.shape[0], "eps": eps, "tol": bs.TOL, "points_sha256": digest, "pot": ot.__version__}


def _load_state(path: Path, fingerprint: dict) -> dict | None:
    """The saved state of an interrupted solve, or None (absent, unreadable, or another problem:
    then the solve starts over, and says why)."""
    if not path.exists():
        return None
    try:
        state = torch.load(path, weights_only=True)
    except Exception as exc:  # a torn or foreign file: not ours to trust
        tqdm.write(f"bench-sinkhorn-large: {path} unreadable ({type(exc).__name__}); starting POT's solve over")
        return None
    if state.get("fingerprint") != fingerprint:
        tqdm.write(f"bench-sinkhorn-large: {path} is for another problem or POT version; starting over")
        return None
    return state


def pot_lazy_resumable(x: torch.Tensor, y: torch.Tensor, eps: float, state_dir: Path | None = None) -> dict:
    """POT's lazy solve in calls of `POT_TEST_PERIOD` iterations (module docstring), resumed from
    `state_dir`: {"f", "g" (our convention), "iterations", "seconds" (summed), "calls" (per call:
    seconds, peak RSS growth and mark), "converged"}; one process at a time (a lock file)."""
    state_dir = STATE if state_dir is None else state_dir
    xn, yn = x.numpy(), y.numpy()
    n, m = xn.shape[0], yn.shape[0]
    fp = _fingerprint(x, y, eps)
    stem = f"pot-lazy-n{n}-eps{eps:g}"
    path = state_dir / f"{stem}.pt"
    with run_lock(state_dir, stem) as mine:
        if not mine:
            raise RuntimeError(f"another process is resuming POT's solve ({state_dir / stem}.lock)")
        state = _solve(xn, yn, eps, path, fp)
    return {**state, "seconds": sum(c["seconds"] for c in state["calls"]),
            "f": eps * (state["f"] + math.log(n)), "g": eps * (state["g"] + math.log(m))}


def _solve(xn, yn, eps: float, path: Path, fp: dict) -> dict:
    import ot
    n = xn.shape[0]
    state = _load_state(path, fp) or {"fingerprint": fp, "f": None, "g": None, "iterations": 0, "calls": [],
                                      "converged": False}
    with tqdm(desc=f"POT lazy N={n} ε={eps:g}", unit="it", initial=state["iterations"]) as bar:
        while not state["converged"] and state["iterations"] < bs.MAX_ITER:
            warm = None if state["f"] is None else (state["f"].numpy(), state["g"].numpy())
            start = time.process_time()
            (f, g, log), memory = bs.peak_rss(lambda: ot.bregman.empirical_sinkhorn(
                xn, yn, 2 * eps, metric="sqeuclidean", numIterMax=POT_TEST_PERIOD, stopThr=bs.TOL,
                isLazy=True, log=True, warn=False, warmstart=warm))
            seconds = time.process_time() - start
            done = log["niter"] + 1
            state["f"], state["g"] = torch.as_tensor(f), torch.as_tensor(g)
            state["iterations"] += done
            state["converged"] = bool(log["err"]) and float(log["err"][-1]) <= bs.TOL
            state["calls"].append({"seconds": seconds, "iterations": done, "err": [float(e) for e in log["err"]],
                                   **memory})
            atomic_write(path, lambda tmp: torch.save(state, tmp))
            bar.update(done)
            bar.set_postfix(err=f"{state['calls'][-1]['err'][-1]:.2e}" if log["err"] else "-", s=f"{seconds:.0f}")
    return state


def case(n: int, eps: float) -> dict:
    """POT's lazy solve (resumed), then ours online timed once in this process
    (`bench_sinkhorn.online_only_case`), each re-verified chunk by chunk; the ratio ours / POT."""
    x, y = bs.points(n)
    pot = pot_lazy_resumable(x, y, eps) if "POT" not in bs.missing_peers() else None
    row = bs.online_only_case(n, eps)
    row["skipped"][bs.GEOMLOSS_ONLINE] = GEOMLOSS_WHY.format(gb=2 * n * n * 8 / 1e9)
    if pot is not None:
        memory = {k: max(c[k] or 0 for c in pot["calls"]) for k in ("peak_rss_increase_bytes", "peak_rss_bytes")}
        row["solvers"][bs.POT_LAZY] = {**bs.solver_entry([pot["seconds"]], pot["iterations"],
                                                   bs.chunked_residual(x, y, eps, pot["f"], pot["g"]), memory),
                                       "calls": pot["calls"]}
        row["ours_online_over_pot_lazy"] = (row["solvers"][bs.ONLINE]["median_seconds"]
                                            / row["solvers"][bs.POT_LAZY]["median_seconds"])
    return row


def measure(budget: str) -> dict:
    cfg = config(budget)
    with torch_threads(_bench.THREADS):
        rows = [case(n, eps) for n, eps in cfg["cases"]]
        provenance = _bench.provenance("POT", "geomloss", "torch", "numpy")
    return {"config": cfg, "rows": rows, "provenance": provenance,
            "summary": {"all_meet_tol": all(e["meets_tol"] for r in rows for e in r["solvers"].values()),
                        "within_memory_goal": all((r["solvers"][bs.ONLINE]["peak_rss_bytes"] or 0) <= bs.MEMORY_GOAL
                                                  for r in rows)}}


def draw_from(ctx: Context, result: dict) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for r in result["rows"]:
        names = [s for s in (bs.ONLINE, bs.POT_LAZY) if s in r["solvers"]]
        seconds = [r["solvers"][s]["median_seconds"] for s in names]
        mem = [(r["solvers"][s]["peak_rss_increase_bytes"] or 0) / 2 ** 20 for s in names]
        labels = [f"{bs.LABELS.get(s, s)}\n{r['solvers'][s]['iterations']} iterations" for s in names]
        axes[0].bar(labels, seconds, color=[f"C{i}" for i in range(len(names))])
        axes[1].bar(labels, mem, color=[f"C{i}" for i in range(len(names))])
        ratio = r.get("ours_online_over_pot_lazy")
        axes[0].set_title(f"N = {r['n']}, ε = {r['eps']:g}: CPU seconds per solve (1 thread)"
                          + (f"\nours / POT lazy = {ratio:.3f}" if ratio else "\nPOT not installed"))
    axes[0].set_yscale("log")
    axes[1].set(title="peak resident-set growth during a solve (MB)")
    axes[1].axhline(bs.MEMORY_GOAL / 2 ** 20, color="r", lw=0.8, ls=":")
    for ax in axes:
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(alpha=0.3, axis="y")
    packages = result["provenance"]["packages"]
    _bench.save(ctx, fig, result, f"O(N)-memory solvers, POT {packages.get('POT')}; GeomLoss: see its row")


@figure("bench-sinkhorn-large", claims=["heatflow:near-linear-time"])
def draw(ctx: Context) -> None:
    """Ours online vs POT's lazy solver at N = 10⁵ (equal tolerance, one thread, resumable)."""
    try:
        result = _bench.measured(ctx, config, measure)
    except FileNotFoundError as exc:   # the hours-long measurement is not committed yet: say so
        draw_pending(ctx, str(exc))
        return
    draw_from(ctx, result)


def draw_pending(ctx: Context, why: str) -> None:
    """The figure while no measurement is committed: what is missing and the command that resumes it."""
    fig, ax = plt.subplots(figsize=(9, 2.5))
    ax.axis("off")
    ax.text(0.01, 0.5, "Not measured yet (POT's lazy solve at N = 10⁵ takes ~3.5 single-thread hours,\n"
            "resumable across sittings under runs/bench/):\n" + why.replace("; ", ";\n"),
            fontsize=8, va="center", family="monospace")
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json({"pending": why})

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
  problem, tolerance, POT version, the points' sha256 and the machine: CPU model and kernels,
  torch); its time is the sum over calls.
* GeomLoss on KeOps LazyTensors (its online backend, `pip install -e '.[keops]'`; KeOps compiles
  C++ at first use), its own ε-scaling: the tensorized backend would hold two N×N float64 matrices
  (160 GB), and on the lent H200 (CUDA 13) KeOps segfaulted (tools/cuda_session.py part
  ``sinkhorn``). GeomLoss has no stopping rule; `geomloss_online_timed` runs it once to the first
  output that meets tol (checked every 8th iterate, the ones between on demand) and subtracts the
  checks' time: ~5 ns per kernel evaluation on this CPU, an hour or two at 10⁵. Its result is
  saved under runs/bench/ and reused when its fingerprint matches.

The two peers' solves (hours each) are prepared by this module's command, one core each, side by
side; the figure's `--recompute` at the full budget never runs them: it times ours and reads what
is prepared, and a peer not prepared yet (or POT's solve not yet converged) is recorded under the
row's "pending" with what is done and the command that continues it (`summary.complete` says
whether none is). The ratio is ours / the peer's time (POT's summed over its calls). The quick
budget's toy case runs everything inline.
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


def config(budget: str) -> dict:
    if budget not in SETTINGS:
        raise ValueError(f"budget must be one of {sorted(SETTINGS)}, got {budget!r}")
    return {**SETTINGS[budget], "tol": bs.TOL, "seed": bs.SEED, "cost": "half_sq", "domain": "[0,1]^2",
            "threads": _bench.THREADS, "pot_test_period": POT_TEST_PERIOD}


def _fingerprint(x: torch.Tensor, y: torch.Tensor, eps: float) -> dict:
    """What a saved state belongs to: the problem, POT's version, and the machine (a time summed
    over calls on two CPU models would be neither's)."""
    import ot
    digest = hashlib.sha256(x.numpy().tobytes() + y.numpy().tobytes()).hexdigest()
    machine = {k: str(_bench.provenance()[k]) for k in ("cpu", "cpu_capability", "torch")}
    return {"n": x.shape[0], "eps": eps, "tol": bs.TOL, "points_sha256": digest, "pot": ot.__version__, **machine}


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
        tqdm.write(f"bench-sinkhorn-large: {path} is for another problem, version or machine; starting over")
        return None
    return state


def pot_lazy_resumable(x: torch.Tensor, y: torch.Tensor, eps: float, state_dir: Path | None = None) -> dict:
    """POT's lazy solve in calls of `POT_TEST_PERIOD` iterations (module docstring), resumed from
    `state_dir`: {"f", "g" (our convention), "iterations", "seconds" (summed), "calls" (per call:
    seconds, peak RSS growth and mark), "converged"}; one process at a time (a lock file)."""
    state_dir = STATE if state_dir is None else state_dir
    stem = f"pot-lazy-n{x.shape[0]}-eps{eps:g}"
    with run_lock(state_dir, stem) as mine:
        if not mine:
            raise RuntimeError(f"another process is resuming POT's solve ({state_dir / stem}.lock)")
        state = _solve(x.numpy(), y.numpy(), eps, state_dir / f"{stem}.pt", _fingerprint(x, y, eps))
    return _in_our_convention(state, eps)


def pot_lazy_saved(x: torch.Tensor, y: torch.Tensor, eps: float, state_dir: Path | None = None) -> dict | None:
    """POT's saved state for this problem as `pot_lazy_resumable` returns it, without running an
    iteration (None when nothing valid is saved); `converged` says whether the solve is done."""
    state_dir = STATE if state_dir is None else state_dir
    state = _load_state(state_dir / f"pot-lazy-n{x.shape[0]}-eps{eps:g}.pt", _fingerprint(x, y, eps))
    return None if state is None or state["f"] is None else _in_our_convention(state, eps)


def _in_our_convention(state: dict, eps: float) -> dict:
    """POT's state with its seconds summed over the calls and its potentials in our convention
    (f = ε(f̂ + log N), g = ε(ĝ + log M))."""
    n, m = state["f"].shape[0], state["g"].shape[0]
    return {**state, "seconds": sum(c["seconds"] for c in state["calls"]),
            "f": eps * (state["f"] + math.log(n)), "g": eps * (state["g"] + math.log(m))}


def _solve(xn, yn, eps: float, path: Path, fp: dict) -> dict:
    n = xn.shape[0]
    state = _load_state(path, fp) or {"fingerprint": fp, "f": None, "g": None, "iterations": 0, "calls": [],
                                      "converged": False}
    with tqdm(desc=f"POT lazy N={n} ε={eps:g}", unit="it", initial=state["iterations"]) as bar:
        while not state["converged"] and state["iterations"] < bs.MAX_ITER:
            warm = None if state["f"] is None else (state["f"].numpy(), state["g"].numpy())
            start = time.process_time()
            (f, g, log), memory = bs.peak_rss(lambda: bs.pot_lazy_call(xn, yn, eps, bs.TOL, POT_TEST_PERIOD, warm))
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


GEOMLOSS_CHECK_EVERY = 8   # GeomLoss's iterates checked against tol every 8th (the ones between: on demand)


def keops_missing() -> str | None:
    """Why GeomLoss's online backend cannot run here (None when it can)."""
    try:
        import pykeops  # noqa: F401
        import geomloss  # noqa: F401
    except ImportError:
        return "GeomLoss's online backend needs KeOps: pip install -e '.[keops]' (and a C++ compiler)"
    return None


def geomloss_online_timed(x: torch.Tensor, y: torch.Tensor, eps: float, tol: float = bs.TOL,
                          n_max: int = bs.MAX_ITER, check_every: int = GEOMLOSS_CHECK_EVERY) -> dict:
    """GeomLoss on KeOps LazyTensors (its online backend), timed to the first output that meets tol,
    in one run instead of `bench_sinkhorn`'s two (oracle, then timed), which at N = 10⁵ would
    cost hours more. Iteration i's raw updates are the output of the run with n_iter = i
    (`bench_sinkhorn.geomloss_iterations`); the run records the process CPU time at which each is
    complete, keeps the ones since the last check, and checks every `check_every`-th past the ε
    floor (chunked residual); when one meets tol, the kept ones before it are checked in order and
    the first that meets tol is the answer. Its time: the clock when its raw updates were complete,
    minus the time of the checks made before then (each timed). The first passing iterate is exact
    when the residuals of GeomLoss's iterates decrease (tests/test_bench_sinkhorn_large.py checks
    that they do, and that the answer equals the oracle's at small N)."""
    from geomloss.ot._implementations.sample import softmin_sample
    eps_list = bs._geomloss_schedule(x, y, eps, n_max).eps_list
    floor = next(i for i, e in enumerate(eps_list) if e == eps_list[-1])
    pending, kept = [], []
    state = {"calls": 0, "checks": 0.0, "last_failed": floor, "answer": None}
    bar = tqdm(desc=f"GeomLoss online N={x.shape[0]} ε={eps:g}", unit="it", leave=False)
    start = time.process_time()

    def residual(f, g):
        t = time.process_time()
        r = bs.chunked_residual(x, y, eps, f, g)
        state["checks"] += time.process_time() - t
        return r

    def softmin(e, log_w, Cm, potential):
        out = softmin_sample(e, log_w, Cm, potential)
        if math.isfinite(e):
            pending.append(out)
        if len(pending) == 2:
            i, state["calls"] = state["calls"], state["calls"] + 1
            kept.append((i, pending[0] / 2, pending[1] / 2, time.process_time() - start - state["checks"]))
            pending.clear()
            bar.update()
            if i > floor and (i - floor) % check_every == 0:
                r = residual(*kept[-1][1:3])
                bar.set_postfix(residual=f"{r:.2e}")
                if r <= tol:
                    for j, f, g, t in kept:   # the first kept iterate that meets tol (the last one does)
                        if j > state["last_failed"] and (j == i or residual(f, g) <= tol):
                            state["answer"] = (j, f, g, t)
                            raise bs._Met(j)
                state["last_failed"] = i
                kept.clear()
        return out

    try:
        bs._geomloss_loop(x, y, eps, n_max, softmin=softmin, matrix_type="lazy")
    except bs._Met:
        pass
    finally:
        bar.close()
    if state["answer"] is None:
        raise RuntimeError(f"GeomLoss did not reach tol {tol} in {n_max} iterations")
    j, f, g, t = state["answer"]
    return {"n_iter": j, "updates": j + 1, "seconds": t, "f": f, "g": g,
            "run_seconds": time.process_time() - start, "check_seconds": state["checks"]}


def _geomloss_path(x: torch.Tensor, y: torch.Tensor, eps: float, state_dir: Path | None):
    from importlib.metadata import version
    state_dir = STATE if state_dir is None else state_dir
    fp = {**_fingerprint(x, y, eps), "geomloss": version("geomloss"), "pykeops": version("pykeops")}
    return state_dir / f"geomloss-online-n{x.shape[0]}-eps{eps:g}.pt", fp


def geomloss_online_saved(x: torch.Tensor, y: torch.Tensor, eps: float, state_dir: Path | None = None) -> dict | None:
    """The saved result of `geomloss_online_cached` for this problem, or None (nothing is run)."""
    return _load_state(*_geomloss_path(x, y, eps, state_dir))


def geomloss_online_cached(x: torch.Tensor, y: torch.Tensor, eps: float, state_dir: Path | None = None) -> dict:
    """`geomloss_online_timed` once per problem: its result is saved atomically under `state_dir`
    (runs/bench/) and reused when its fingerprint (problem, tolerance, POT, GeomLoss and KeOps
    versions, the points' sha256, the machine) matches. KeOps compiles its formulas first, on 50
    points (so no compilation is timed)."""
    path, fp = _geomloss_path(x, y, eps, state_dir)
    saved = _load_state(path, fp)
    if saved is not None:
        return saved
    geomloss_online_timed(*bs.points(50, seed=1), eps)   # compile KeOps's reductions, untimed
    result, memory = bs.peak_rss(lambda: geomloss_online_timed(x, y, eps))
    result |= {"fingerprint": fp, "memory": memory}
    atomic_write(path, lambda tmp: torch.save(result, tmp))
    return result


PREPARE = {bs.POT_LAZY: "python -m figures.bench_sinkhorn_large pot",
           bs.GEOMLOSS_ONLINE: "python -m figures.bench_sinkhorn_large geomloss"}


def case(n: int, eps: float, run_peers: bool) -> dict:
    """Ours online timed once in this process (`bench_sinkhorn.online_only_case`) beside the peers'
    solves, each re-verified chunk by chunk; the ratios ours / peer. With `run_peers` (the quick
    budget) the peers run here; otherwise (the full budget: hours each) their prepared results
    are read from runs/bench/ and a peer not prepared, or POT's solve not yet converged, is listed
    under "pending" with what is done and the command that continues it."""
    x, y = bs.points(n)
    pending = {}
    pot = geo = None
    if "POT" not in bs.missing_peers():
        pot = pot_lazy_resumable(x, y, eps) if run_peers else pot_lazy_saved(x, y, eps)
        if pot is None or not pot["converged"]:
            done = "nothing saved" if pot is None else (
                f"{pot['iterations']} iterations in {len(pot['calls'])} calls, {pot['seconds']:.0f} s, "
                f"last tested violation {pot['calls'][-1]['err'][-1] if pot['calls'][-1]['err'] else float('nan'):.2e}")
            pending[bs.POT_LAZY], pot = f"not converged ({done}): {PREPARE[bs.POT_LAZY]}", None
    if keops_missing() is None:
        geo = geomloss_online_cached(x, y, eps) if run_peers else geomloss_online_saved(x, y, eps)
        if geo is None:
            pending[bs.GEOMLOSS_ONLINE] = f"not run on this machine yet: {PREPARE[bs.GEOMLOSS_ONLINE]}"
    row = bs.online_only_case(n, eps)
    row["pending"] = pending
    if geo is None:
        if bs.GEOMLOSS_ONLINE not in pending:
            row["skipped"][bs.GEOMLOSS_ONLINE] = keops_missing()
    else:
        row["solvers"][bs.GEOMLOSS_ONLINE] = {
            **bs.solver_entry([geo["seconds"]], geo["updates"], bs.chunked_residual(x, y, eps, geo["f"], geo["g"]),
                              geo["memory"]),
            "run_seconds": geo["run_seconds"], "check_seconds": geo["check_seconds"]}
        row["ours_online_over_geomloss_online"] = (row["solvers"][bs.ONLINE]["median_seconds"] / geo["seconds"])
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
        rows = [case(n, eps, run_peers=budget == "quick") for n, eps in cfg["cases"]]
        provenance = _bench.provenance("POT", "geomloss", "pykeops", "torch", "numpy")
    return {"config": cfg, "rows": rows, "provenance": provenance,
            "summary": {"complete": not any(r["pending"] for r in rows),
                        "all_meet_tol": all(e["meets_tol"] for r in rows for e in r["solvers"].values()),
                        "within_memory_goal": all((r["solvers"][bs.ONLINE]["peak_rss_bytes"] or 0) <= bs.MEMORY_GOAL
                                                  for r in rows)}}


def draw_from(ctx: Context, result: dict) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for r in result["rows"]:
        names = [s for s in (bs.ONLINE, bs.POT_LAZY, bs.GEOMLOSS_ONLINE) if s in r["solvers"]]
        seconds = [r["solvers"][s]["median_seconds"] for s in names]
        mem = [max(r["solvers"][s]["peak_rss_increase_bytes"] or 0, 1) / 2 ** 20 for s in names]
        labels = [f"{bs.LABELS.get(s, s)}\n{r['solvers'][s]['iterations']} iterations" for s in names]
        axes[0].bar(labels, seconds, color=[f"C{i}" for i in range(len(names))])
        axes[1].bar(labels, mem, color=[f"C{i}" for i in range(len(names))])
        ratios = "; ".join(f"ours / {peer} = {r[key]:.3f}" for peer, key in (
            ("POT lazy", "ours_online_over_pot_lazy"), ("GeomLoss online", "ours_online_over_geomloss_online")) if key in r)
        waiting = "; ".join(f"{bs.LABELS.get(k, k)}: pending" for k in r.get("pending", {}))
        axes[0].set_title(f"N = {r['n']}, ε = {r['eps']:g}: CPU seconds per solve (1 thread)\n"
                          + ("; ".join(t for t in (ratios, waiting) if t) or "no peer installed"), fontsize=8)
    axes[0].set_yscale("log")
    axes[1].set_yscale("log")
    axes[1].set(title="peak resident-set growth during a solve (MB; dotted: 2 GB)")
    axes[1].axhline(bs.MEMORY_GOAL / 2 ** 20, color="r", lw=0.8, ls=":")
    for ax in axes:
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(alpha=0.3, axis="y")
    packages = result["provenance"]["packages"]
    _bench.save(ctx, fig, result, f"O(N)-memory solvers, POT {packages.get('POT')}, GeomLoss {packages.get('geomloss')}, "
                                  f"KeOps {packages.get('pykeops')}")


@figure("bench-sinkhorn-large", claims=["heatflow:near-linear-time"])
def draw(ctx: Context) -> None:
    """Ours online vs POT's lazy solver and GeomLoss on KeOps at N = 10⁵ (equal tolerance, one thread)."""
    try:
        result = _bench.measured(ctx, config, measure)
    except FileNotFoundError:   # the hours-long measurement is not committed yet: say so
        draw_pending(ctx)
        return
    draw_from(ctx, result)


PENDING = ("results/bench/bench-sinkhorn-large.json is not committed yet. To measure it (one core each, "
           "resumable under runs/bench/):",
           f"{PREPARE[bs.POT_LAZY]}        # POT's lazy solve, ~3.5 single-thread hours",
           f"{PREPARE[bs.GEOMLOSS_ONLINE]}   # GeomLoss on KeOps, ~1.5 h (pip install -e '.[keops]')",
           "python -m figures --only bench-sinkhorn-large --recompute")


def draw_pending(ctx: Context) -> None:
    """The figure while no measurement is committed: what is missing and the commands that make it
    (the same text on every machine)."""
    fig, ax = plt.subplots(figsize=(10, 2.5))
    ax.axis("off")
    ax.text(0.01, 0.5, "\n".join(PENDING), fontsize=8, va="center", family="monospace")
    fig.tight_layout()
    ctx.save(fig)
    ctx.save_json({"pending": list(PENDING)})


def prepare(peer: str, budget: str = "full") -> None:
    """Fill one peer's saved state for every case of `budget` (runs/bench/, untracked), so the two
    long solves can run side by side in two processes; the figure's `--recompute` then only times
    ours and reads them."""
    solve = {"pot": pot_lazy_resumable, "geomloss": geomloss_online_cached}[peer]
    with torch_threads(_bench.THREADS):
        for n, eps in config(budget)["cases"]:
            solve(*bs.points(n), eps)


if __name__ == "__main__":
    import argparse
    cli = argparse.ArgumentParser(description="bench-sinkhorn-large: run one peer's long solve, resumably "
                                              "(then `python -m figures --only bench-sinkhorn-large --recompute`)")
    cli.add_argument("peer", choices=("pot", "geomloss"))
    cli.add_argument("--quick", action="store_true", help="the quick budget's toy case")
    args = cli.parse_args()
    prepare(args.peer, "quick" if args.quick else "full")

"""bench-sinkhorn: our Sinkhorn entry point and its two solvers against POT and GeomLoss at equal
tolerance, up to N = 10⁵, with peak memory (figures/_bench.py: committed measurement, one thread).

Solvers. Ours: the entry point a user calls, `particles.sinkhorn.sinkhorn_points(x, y, eps)` on the
points ("ours-entry": it forms the cost and solves densely when 3 N×N float64 matrices fit 1 GiB,
N ≤ 6688, else online; `choose_solver`, the choice recorded per row, its time includes building
the cost), and the two evaluations it chooses between, each forced: `sinkhorn_log` on the N×N cost
("ours", log-stabilized scaling, the cost given, the plan formed) and `sinkhorn_points(...,
solver="online")` ("ours-online": chunked online logsumexp, O(N) memory, potentials returned).
POT 0.9.7: `ot.bregman.sinkhorn_log` (numpy and torch backends) and `ot.bregman.sinkhorn_stabilized`
(torch), each returning the plan. GeomLoss 0.3.1
("geomloss-tensorized"): its Sinkhorn loop (`geomloss.ot` `sinkhorn_loop`, symmetric averaged
updates, final extrapolation) on its dense cost matrices (KeOps is not available here), with its own
ε-scaling schedule (`annealing_parameters`, scaling 0.5 — SamplesLoss's default — from diam² to ε,
then iterations at ε), returning the potentials; this is `geomloss.ot.solve_sample` with a scaling
ratio instead of its ε-geomspace over all iterations, which ends a single iteration after reaching ε
and cannot meet a tolerance (nor can the legacy SamplesLoss: 8e-7 after 31 s at N = 1000).

Problem: x, y two independent uniform samples of N points of [0, 1]² (seed 0), cost C = ½|x − y|²
(GeomLoss: |x − y|² at 2ε, the same plan), uniform weights, ε = 0.1 and 0.01, tolerance 1e-9.

Equal tolerance. Every solver stops on the ℓ2 norm of the marginal violation of its plan,
≤ tol = 1e-9: ours and POT by their own test (ours after every iteration, POT every 10th or 20th),
GeomLoss, which has no stopping rule, at the smallest iteration count whose output meets tol (found
before timing from one untimed run that evaluates each iterate's would-be output; an oracle stop,
to GeomLoss's advantage). The bench then recomputes each returned plan's row and column violations
itself ("verified_residual", max of the two; from the dense cost up to 10⁴, chunk by chunk at 10⁵)
and records whether it is ≤ tol (the entry point's and ours-online's potentials included). POT
given Cᵀ runs our dense iterates (its column-then-row update is our row-then-column update from the
same start): run for our iteration count it reproduces our
plan to rounding, and at its own stop ‖π_ours − π_POT‖₁ ≤ 2·|Δk|·√N·max(r) + 1e-12 (the ℓ1
violation V of a Sinkhorn iterate never increases and consecutive half-steps differ by exactly V).
"ours-online" runs the same iterates as "ours" (same count; plans equal to rounding, recorded).

Timing: process CPU time of one thread, every solver of a case once per round, `rounds` rounds with
the order rotated (`particles.lm.bench.time_interleaved`), ratios per round; a solver's inputs
(points, and for the matrix solvers the cost matrix) are built before its clock starts. Memory:
the growth of the process's resident set during one untimed call of each solver (Linux: writing
5 to /proc/self/clear_refs resets the high-water mark VmHWM of /proc/self/status; freed heap is
returned with malloc_trim first), and the absolute high-water mark. At N = 10⁵ only ours-online
runs, once: the N×N cost that the others need is 80 GB in float64; the entry point chooses online
there (recorded: `entry_choice`), so that call is the entry point's.
"""
from __future__ import annotations

import ctypes
import math
import re
import time

import matplotlib.pyplot as plt
import numpy as np
import torch

from figures import Context, figure
from figures import _bench
from particles import sinkhorn as sk
from particles.lm.bench import ratio_summary, time_interleaved
from particles.sinkhorn_online import OnlineUpdates, default_chunk
from particles.threads import torch_threads

TOL = 1e-9
MAX_ITER = 100_000
SEED = 0
ROUNDING = 1e-12  # ℓ1 rounding allowance for N² entries summing to 1 (measured: ~1e-15)
GOAL_RATIO = 0.5  # the goal: ≤ 0.5× POT's time at every N ≤ 10⁴
MEMORY_GOAL = 2 * 1024 ** 3  # N = 10⁵ solved within 2 GB
GEOMLOSS_SCALING = 0.5
SETTINGS = {"quick": {"cases": [[100, 0.1], [200, 0.1], [100, 0.01], [200, 0.01]], "rounds": 2,
                      "online_only": [[2000, 0.1]]},
            # 6 rounds: the smallest count whose order-statistic CI for a median reaches 95%. ε = 0.01
            # stops at N = 3000: one POT solve at N = 10⁴ takes ~7 min there (141 iterations).
            "full": {"cases": [[1000, 0.1], [3000, 0.1], [10000, 0.1], [1000, 0.01], [3000, 0.01]],
                     "rounds": 6, "online_only": [[100000, 0.1]]}}
OURS, ONLINE, ENTRY, GEOMLOSS = "ours", "ours-online", "ours-entry", "geomloss-tensorized"
OURS_ALL = (ENTRY, OURS, ONLINE)
GEOMLOSS_ONLINE, POT_LAZY = "geomloss-online", "pot-lazy-numpy"   # the peers' O(N)-memory modes
POT_LOG = ("pot-log-numpy", "pot-log-torch")  # the peers
POT = (*POT_LOG, "pot-stabilized-torch")
PEERS = (*POT, GEOMLOSS)
LABELS = {ENTRY: "ours: sinkhorn_points (auto: dense ≤ 1 GiB, else online)", OURS: "ours dense (log-stabilized)", ONLINE: "ours online (chunked, O(N) memory)",
          "pot-log-numpy": "POT sinkhorn_log (numpy)", "pot-log-torch": "POT sinkhorn_log (torch)",
          "pot-stabilized-torch": "POT sinkhorn_stabilized (torch)",
          GEOMLOSS: "GeomLoss tensorized (ε-scaling 0.5)",
          POT_LAZY: "POT empirical_sinkhorn lazy (numpy)", GEOMLOSS_ONLINE: "GeomLoss online (KeOps)"}


def config(budget: str) -> dict:
    if budget not in SETTINGS:
        raise ValueError(f"budget must be one of {sorted(SETTINGS)}, got {budget!r}")
    return {**SETTINGS[budget], "tol": TOL, "seed": SEED, "cost": "half_sq", "domain": "[0,1]^2",
            "threads": _bench.THREADS, "geomloss_scaling": GEOMLOSS_SCALING,
            "entry": {"memory_budget": sk.DENSE_BUDGET, "dense_matrices": sk.DENSE_MATRICES}}


def points(n: int, seed: int = SEED) -> tuple[torch.Tensor, torch.Tensor]:
    """Two independent uniform samples x, y of n points of [0, 1]² (float64)."""
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.rand(n, 2, dtype=torch.float64, generator=g) for _ in range(2))


def cost(n: int, seed: int = SEED) -> torch.Tensor:
    """C_ij = ½|x_i − y_j|² for the clouds of `points`."""
    return sk.pairwise_cost(*points(n, seed), "half_sq")


def missing_peers() -> dict[str, str]:
    """Peer packages that are not installed, with the reason the bench runs without them."""
    missing = {}
    for package, module, extra in (("POT", "ot", "ot"), ("GeomLoss", "geomloss", "geomloss")):
        try:
            __import__(module)
        except ImportError:
            missing[package] = f"{package} not installed (pip install -e '.[{extra}]'): ours without it"
    return missing


def solvers(C: torch.Tensor, eps: float, tol: float = TOL, max_iter: int = MAX_ITER) -> dict:
    """Ours (dense) and POT's solvers (when installed): name -> () -> (plan in our orientation,
    iterations, ℓ2 marginal residual as the solver reports it)."""
    n = C.shape[0]

    def ours():
        f, g, report = sk.sinkhorn_log(C, eps, tol=tol, max_iter=max_iter)
        return torch.exp(sk.log_plan(C, eps, f, g)), report.iterations, report.residual

    calls = {OURS: ours}
    if "POT" in missing_peers():
        return calls
    import ot
    a = torch.full((n,), 1.0 / n, dtype=C.dtype)
    M = C.T.contiguous()
    Mn, an = M.numpy(), a.numpy()

    def pot(fn, backend):
        def run():
            P, log = fn(*((an, an, Mn) if backend == "numpy" else (a, a, M)), eps, numItermax=max_iter,
                        stopThr=tol, log=True, warn=False)
            iterations = (log["niter"] if "niter" in log else log["n_iter"]) + 1  # 0-based loop index
            return torch.as_tensor(P).T, iterations, float(log["err"][-1])
        return run

    return {**calls, "pot-log-numpy": pot(ot.bregman.sinkhorn_log, "numpy"),
            "pot-log-torch": pot(ot.bregman.sinkhorn_log, "torch"),
            "pot-stabilized-torch": pot(ot.bregman.sinkhorn_stabilized, "torch")}


def online(x: torch.Tensor, y: torch.Tensor, eps: float, tol: float = TOL, max_iter: int = MAX_ITER,
           chunk: int | None = None):
    """Ours online on the points: () -> (f, g, iterations); `chunk` rows per block (default: ~2^18 entries)."""
    def run():
        f, g, report = sk.sinkhorn_points(x, y, eps, tol=tol, max_iter=max_iter, chunk=chunk, solver="online")
        return f, g, report.iterations
    return run


def entry(x: torch.Tensor, y: torch.Tensor, eps: float, tol: float = TOL, max_iter: int = MAX_ITER):
    """The entry point as a user calls it, `sinkhorn_points(x, y, eps)` (its own choice of solver):
    () -> (f, g, iterations, report.solver)."""
    def run():
        f, g, report = sk.sinkhorn_points(x, y, eps, tol=tol, max_iter=max_iter)
        return f, g, report.iterations, report.solver
    return run


def pot_lazy(x: torch.Tensor, y: torch.Tensor, eps: float, tol: float = TOL, max_iter: int = MAX_ITER):
    """POT's O(N)-memory solver, `ot.bregman.empirical_sinkhorn(..., isLazy=True)` at its default
    batch of 100 rows (numpy distance blocks from `ot.dist`, log-domain updates): |x − y|² at 2ε
    (our plan), stopped by its own test, the ℓ1 norm of the row-marginal violation ≤ tol every 10th
    iteration (‖·‖₂ ≤ ‖·‖₁: at least as strict as ours). () -> (f, g, iterations) in our convention
    (POT's π = exp(f̂_i + ĝ_j − M_ij/reg), ours a_i b_j exp((f_i + g_j − C_ij)/ε): f = ε(f̂ − log a))."""
    xn, yn = x.cpu().numpy(), y.cpu().numpy()
    n, m = xn.shape[0], yn.shape[0]

    def run():
        f, g, log = pot_lazy_call(xn, yn, eps, tol, max_iter)
        return (eps * (torch.as_tensor(f) + math.log(n)), eps * (torch.as_tensor(g) + math.log(m)),
                log["niter"] + 1)   # 0-based loop index
    return run


def pot_lazy_call(xn, yn, eps: float, tol: float, max_iter: int, warmstart=None):
    """One call of POT's lazy solver on numpy points: its own (f̂, ĝ, log)."""
    import ot
    return ot.bregman.empirical_sinkhorn(xn, yn, 2 * eps, metric="sqeuclidean", numIterMax=max_iter, stopThr=tol,
                                         isLazy=True, log=True, warn=False, warmstart=warmstart)


def _geomloss_schedule(x, y, eps: float, n_iter: int):
    """GeomLoss's annealing schedule for |x − y|² at 2ε (our ½|x − y|² at ε): ε-scaling by 0.5
    from the squared diameter, then ε for the remaining iterations."""
    from geomloss.ot._abstract_solvers import annealing_parameters
    from geomloss.ot._implementations.sample import max_diameter
    return annealing_parameters(maxmin_cost=max_diameter(x, y) ** 2, eps=2 * eps,
                                scaling=GEOMLOSS_SCALING, n_iter=n_iter)


def _geomloss_loop(x, y, eps: float, n_iter: int, softmin=None, matrix_type: str = "dense"):
    """GeomLoss's Sinkhorn loop (as `geomloss.ot.solve_sample` runs it) with its annealing schedule,
    on its dense cost matrices (`matrix_type` "dense": the tensorized backend) or on KeOps
    LazyTensors ("lazy": its online backend, O(N) memory): potentials (f, g) of our problem
    (GeomLoss's / 2). A given `softmin` replaces GeomLoss's and drops the final extrapolation."""
    from geomloss import _backends as bk
    from geomloss._typing import CostMatrices
    from geomloss.ot._abstract_solvers import sinkhorn_loop
    from geomloss.ot._implementations.sample import cost_matrix, softmin_sample
    n, m = x.shape[0], y.shape[0]
    a, b = (torch.full((k,), 1.0 / k, dtype=x.dtype, device=x.device) for k in (n, m))
    descent = _geomloss_schedule(x, y, eps, n_iter)
    C = CostMatrices(xy=cost_matrix(x, y, matrix_type=matrix_type), yx=cost_matrix(y, x, matrix_type=matrix_type))
    # GeomLoss's loop switches autograd off and back on only at its end: a loop left early (the
    # `_Met` of `geomloss_iterations`) would leave this process without gradients, so the mode
    # is restored on exit, whatever happens
    with torch.set_grad_enabled(torch.is_grad_enabled()):
        p = sinkhorn_loop(softmin=softmin or softmin_sample, log_a_list=[bk.stable_log(a)],
                          log_b_list=[bk.stable_log(b)], C_list=[C], descent=descent, debias=False,
                          last_extrapolation=softmin is None)
    return p.f_ba / 2, p.g_ab / 2


class _Met(Exception):
    def __init__(self, n_iter: int):
        self.n_iter = n_iter


def geomloss_iterations(x, y, eps: float, tol: float = TOL, n_max: int = MAX_ITER, matrix_type: str = "dense",
                        chunk: int | None = None) -> int:
    """The smallest `n_iter` whose GeomLoss output meets tol: one untimed run whose softmin
    records each iteration's raw updates, which are the output (final extrapolation) of the run
    stopped one iteration earlier once ε has reached its floor. The residual is the dense one
    (`plan_residual`), or with `matrix_type` "lazy" the chunked one (`chunked_residual`)."""
    from geomloss.ot._implementations.sample import softmin_sample
    if matrix_type == "dense":
        C = sk.pairwise_cost(x, y)
        residual = lambda f, g: plan_residual(C, eps, f, g)  # noqa: E731
    else:
        residual = lambda f, g: chunked_residual(x, y, eps, f, g, chunk)  # noqa: E731
    eps_list = _geomloss_schedule(x, y, eps, n_max).eps_list
    floor = next(i for i, e in enumerate(eps_list) if e == eps_list[-1])
    pending = []

    def softmin(e, log_w, Cm, potential):
        out = softmin_sample(e, log_w, Cm, potential)
        if math.isfinite(e):
            pending.append(out)
        if len(pending) == 2:   # (f̃, g̃) of iteration i = the output of n_iter = i
            i = softmin.calls
            softmin.calls += 1
            f, g = pending[0] / 2, pending[1] / 2
            pending.clear()
            if i > floor and residual(f, g) <= tol:
                raise _Met(i)
        return out

    softmin.calls = 0
    try:
        _geomloss_loop(x, y, eps, n_max, softmin=softmin, matrix_type=matrix_type)
    except _Met as met:
        return met.n_iter
    raise RuntimeError(f"GeomLoss did not reach tol {tol} in {n_max} iterations")


def geomloss(x, y, eps: float, n_iter: int, matrix_type: str = "dense"):
    """GeomLoss at `n_iter` iterations: () -> (f, g, n_iter + 1 updates, the extrapolation included)."""
    def run():
        f, g = _geomloss_loop(x, y, eps, n_iter, matrix_type=matrix_type)
        return f, g, n_iter + 1
    return run


def plan_residual(C: torch.Tensor, eps: float, f: torch.Tensor, g: torch.Tensor) -> float:
    """max(‖π1 − a‖₂, ‖πᵀ1 − b‖₂) of π = exp((f ⊕ g − C)/ε)/(NM), from the dense cost."""
    return marginal_violation(torch.exp(sk.log_plan(C, eps, f, g)))


def marginal_violation(P: torch.Tensor) -> float:
    n, m = P.shape
    return max(float((P.sum(1) - 1.0 / n).norm()), float((P.sum(0) - 1.0 / m).norm()))


def chunked_residual(x, y, eps: float, f: torch.Tensor, g: torch.Tensor, chunk: int | None = None) -> float:
    """The same without the N×M cost: row i of π is a_i exp((f_i − rows(g)_i)/ε), evaluated by a
    fresh `OnlineUpdates` (its first call per side: the two-pass logsumexp, not the solver's path)."""
    n, m = x.shape[0], y.shape[0]
    la, lb = (torch.full((k,), -math.log(k), dtype=x.dtype, device=x.device) for k in (n, m))
    f, g = f.to(x.device), g.to(x.device)
    upd = OnlineUpdates(x, y, eps, "half_sq", chunk or default_chunk(max(n, m)))
    rows = torch.exp(la + (f - upd.rows(g, lb)) / eps) - 1.0 / n
    cols = torch.exp(lb + (g - upd.cols(f, la)) / eps) - 1.0 / m
    return max(float(rows.norm()), float(cols.norm()))


# ---------------------------------------------------------------- memory


def _status(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        return int(re.search(rf"^{field}:\s+(\d+) kB", fh.read(), re.M).group(1)) * 1024


def peak_rss(call):
    """(call's result, {"peak_rss_increase_bytes", "peak_rss_bytes"}): the resident set's growth
    during the call over its size before, and the absolute high-water mark (module docstring);
    None where /proc/self/clear_refs cannot reset the mark (not Linux)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        before = _status("VmRSS")
    except OSError:
        return call(), {"peak_rss_increase_bytes": None, "peak_rss_bytes": None}
    out = call()
    peak = _status("VmHWM")
    return out, {"peak_rss_increase_bytes": peak - before, "peak_rss_bytes": peak}


# ---------------------------------------------------------------- one case


def same_plan(P_ours, k_ours, r_ours, P_peer, k_peer, r_peer, n) -> dict:
    """‖π_ours − π_peer‖₁ against the bound 2·|Δk|·√N·max(r) + rounding (module docstring)."""
    l1 = float((P_ours - P_peer).abs().sum())
    bound = 2 * abs(k_peer - k_ours) * math.sqrt(n) * max(r_ours, r_peer) + ROUNDING
    return {"plan_l1": l1, "plan_l1_bound": bound, "same_plan": l1 <= bound}


def solver_entry(seconds, iterations, residual, memory) -> dict:
    median = float(np.median(seconds))
    return {"iterations": iterations, "verified_residual": residual, "meets_tol": residual <= TOL + 1e-15,
            "seconds": list(seconds), "median_seconds": median, "seconds_per_iteration": median / iterations,
            **memory}


def case(n: int, eps: float, rounds: int) -> dict:
    """One (N, ε): an untimed call of every solver (its memory, its plan checked), then `rounds`
    interleaved timed rounds and the per-round ratios of ours (dense and online) to every peer."""
    x, y = points(n)
    C = sk.pairwise_cost(x, y)
    calls = {**solvers(C, eps), ONLINE: online(x, y, eps), ENTRY: entry(x, y, eps)}
    if "GeomLoss" not in missing_peers():
        calls[GEOMLOSS] = geomloss(x, y, eps, geomloss_iterations(x, y, eps))
    choice, reason = sk.choose_solver(x, y)
    row = {"n": n, "eps": eps, "solvers": {}, "skipped": missing_peers(), "entry_choice": choice,
           "entry_choice_reason": reason}
    checks = {}
    (P0, k0, r0), memory = peak_rss(calls[OURS])
    checks[OURS] = (k0, marginal_violation(P0), memory)
    at_our_k = solvers(C, eps, max_iter=k0)   # the POT peers run exactly our iteration count
    for name in calls:
        if name == OURS:
            continue
        out, memory = peak_rss(calls[name])
        if name in POT:
            P, k, r = out
            checks[name] = (k, marginal_violation(P), memory,
                            {**same_plan(P0, k0, r0, P, k, r, n),
                             "plan_l1_at_equal_iterations": float((at_our_k[name]()[0] - P0).abs().sum())})
        else:
            f, g, k, *chosen = out
            if chosen and chosen[0] != choice:
                raise RuntimeError(f"the entry point ran {chosen[0]}, choose_solver said {choice}")
            checks[name] = (k, plan_residual(C, eps, f, g), memory,
                            {"plan_l1_to_ours": float((torch.exp(sk.log_plan(C, eps, f, g)) - P0).abs().sum())})
        del out
    del P0
    seconds = time_interleaved(calls, rounds)   # each output is dropped as soon as it is returned
    for name, (k, residual, memory, *extra) in checks.items():
        record = solver_entry(seconds[name], k, residual, memory)
        for extra_numbers in extra:
            record |= extra_numbers
        if name in PEERS:
            for ours in OURS_ALL:
                record[f"{ours}_over_peer"] = ratio_summary(np.asarray(seconds[ours]) / np.asarray(seconds[name]))
        if name == ONLINE:
            record["online_over_dense"] = ratio_summary(np.asarray(seconds[ONLINE]) / np.asarray(seconds[OURS]))
        if name == ENTRY:   # its overhead over the evaluation it chose (dense: building the cost)
            run = OURS if choice == "dense" else ONLINE
            record |= {"solver": choice, "solver_reason": reason,
                       "over_chosen": ratio_summary(np.asarray(seconds[ENTRY]) / np.asarray(seconds[run]))}
        row["solvers"][name] = record
    return row


def online_only_case(n: int, eps: float) -> dict:
    """ours-online alone, once (timed and memory-measured in the same call): the peers need the N×N
    cost matrix, N²·8 bytes. `entry_choice`: the entry point's choice at this size (online above
    N = 6688: then this call is what `sinkhorn_points(x, y, eps)` runs)."""
    x, y = points(n)
    choice, reason = sk.choose_solver(x, y)
    start = time.process_time()
    (f, g, k), memory = peak_rss(online(x, y, eps))
    elapsed = time.process_time() - start
    residual = chunked_residual(x, y, eps, f, g)
    why = f"needs the N×N cost matrix: {n * n * 8 / 1e9:.0f} GB in float64"
    return {"n": n, "eps": eps, "solvers": {ONLINE: solver_entry([elapsed], k, residual, memory)},
            "skipped": {**{p: why for p in (OURS, *PEERS)}, **missing_peers()}, "entry_choice": choice,
            "entry_choice_reason": reason}


def _ratios(rows, ours: str, peers) -> list[dict]:
    return [r["solvers"][p][f"{ours}_over_peer"] for r in rows for p in peers if p in r["solvers"]]


def measure(budget: str) -> dict:
    cfg = config(budget)
    with torch_threads(_bench.THREADS):
        rows = [case(n, eps, cfg["rounds"]) for n, eps in cfg["cases"]]
        large = [online_only_case(n, eps) for n, eps in cfg["online_only"]]
        provenance = _bench.provenance("POT", "geomloss", "torch", "numpy", "scipy")
    summary = {"skipped": missing_peers()}
    for ours in OURS_ALL:
        pot = _ratios(rows, ours, POT_LOG)
        geo = _ratios(rows, ours, (GEOMLOSS,))
        summary[ours] = {
            "at_most_half_of_pot_sinkhorn_log": all(q["ci_hi"] <= GOAL_RATIO for q in pot) if pot else None,
            "largest_over_pot_sinkhorn_log_median": max((q["median"] for q in pot), default=None),
            "largest_over_geomloss_median": max((q["median"] for q in geo), default=None),
            "faster_than_geomloss": all(q["ci_hi"] < 1 for q in geo) if geo else None}
    summary["decided"] = all(q["ci_coverage"] >= 0.95 for o in OURS_ALL for q in _ratios(rows, o, PEERS))
    summary["entry_choices"] = [{"n": r["n"], "eps": r["eps"], "solver": r["entry_choice"]} for r in rows + large]
    summary["same_plan_everywhere"] = all(r["solvers"][p]["same_plan"] for r in rows for p in POT if p in r["solvers"])
    summary["all_meet_tol"] = all(e["meets_tol"] for r in rows + large for e in r["solvers"].values())
    summary["largest"] = [{"n": r["n"], "eps": r["eps"], **{k: r["solvers"][ONLINE][k] for k in (
        "median_seconds", "iterations", "verified_residual", "peak_rss_increase_bytes", "peak_rss_bytes")},
        "within_memory_goal": (r["solvers"][ONLINE]["peak_rss_bytes"] or math.inf) <= MEMORY_GOAL,
        "entry_choice": r["entry_choice"]}
        for r in large]
    return {"config": cfg, "rows": rows, "online_only": large, "summary": summary, "provenance": provenance}


# ---------------------------------------------------------------- the figure


def _entry_rows(result: dict) -> list[dict]:
    """The rows with the entry point's time: every case, and an online-only row where the entry
    point chooses online (its call is then ours-online's, `online_only_case`)."""
    return result["rows"] + [{**r, "solvers": {**r["solvers"], ENTRY: r["solvers"][ONLINE]}}
                             for r in result["online_only"] if r.get("entry_choice") == "online"]


def draw_from(ctx: Context, result: dict) -> None:
    rows, large, cfg = result["rows"], result["online_only"], result["config"]
    fig, ((a1, a2), (a3, a4)) = plt.subplots(2, 2, figsize=(15, 10))
    styles = {eps: ls for eps, ls in zip(sorted({e for _, e in cfg["cases"]}, reverse=True), ("-", "--", ":"))}
    names = [s for s in (*OURS_ALL, *PEERS) if any(s in r["solvers"] for r in rows)]
    with_entry = _entry_rows(result)
    for i, name in enumerate(names):
        for eps, ls in styles.items():
            pool = with_entry if name == ENTRY else rows + (large if name == ONLINE else [])
            sel = [r for r in pool if r["eps"] == eps and name in r["solvers"]]
            if not sel:
                continue
            kw = {"marker": "Dos^v<>"[i], "color": f"C{i}"}
            a1.loglog([r["n"] for r in sel], [r["solvers"][name]["median_seconds"] for r in sel], ls,
                      label=f"{LABELS[name]}, ε = {eps}", **kw)
            mem = [(r["n"], r["solvers"][name]["peak_rss_increase_bytes"]) for r in sel]
            mem = [(n, b / 2 ** 20) for n, b in mem if b]
            if mem:
                a4.loglog(*zip(*mem), ls, label=f"{LABELS[name]}, ε = {eps}", **kw)
            if name in PEERS:
                at = [r["n"] * (1 + 0.03 * (i - 3)) for r in sel]
                _bench.ratio_axes(a2, at, [r["solvers"][name][f"{ENTRY}_over_peer"] for r in sel], fmt=ls,
                                  label=f"entry / {LABELS[name]}, ε = {eps}", **kw)
                for ours, fill in ((ONLINE, "full"), (OURS, "none")):
                    _bench.ratio_axes(a3, at, [r["solvers"][name][f"{ours}_over_peer"] for r in sel], fmt=ls,
                                      fillstyle=fill, label=f"{'online' if ours == ONLINE else 'dense'} "
                                      f"/ {LABELS[name]}, ε = {eps}", **kw)
    for ax in (a2, a3):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.axhline(1.0, color="k", lw=0.8)
        ax.axhline(GOAL_RATIO, color="r", lw=0.8, ls=":")
    a4.axhline(MEMORY_GOAL / 2 ** 20, color="r", lw=0.8, ls=":")
    s = result["summary"]
    skipped = "; ".join(s["skipped"].values())
    a1.set(xlabel="N", ylabel="CPU seconds per solve, 1 thread",
           title=f"C = ½|x−y|² on [0,1]², marginal tol {cfg['tol']:g} (ℓ2, verified)"
                 + (f"\n{skipped}" if skipped else ""))
    choices = ", ".join(f"{c['n']}: {c['solver']}" for c in s["entry_choices"] if c["eps"] == max(styles))
    a2.set(xlabel="N", ylabel="time entry point / time peer",
           title=f"sinkhorn_points as called (its choice, N: {choices}); median, CI over {cfg['rounds']} "
                 f"rounds\ngoal ≤ {GOAL_RATIO} × POT sinkhorn_log (dotted): met {s[ENTRY]['at_most_half_of_pot_sinkhorn_log']}")
    a3.set(xlabel="N", ylabel="time ours / time peer (filled: online, hollow: dense)",
           title=f"the two evaluations, each forced; goal ≤ {GOAL_RATIO} × POT sinkhorn_log\nonline meets it: "
                 f"{s[ONLINE]['at_most_half_of_pot_sinkhorn_log']}, dense: {s[OURS]['at_most_half_of_pot_sinkhorn_log']}")
    big = ", ".join(f"N = {b['n']}: {b['median_seconds']:.3g} s, peak RSS {b['peak_rss_bytes'] / 2 ** 20:.0f} MB"
                    for b in s["largest"] if b["peak_rss_bytes"])
    a4.set(xlabel="N", ylabel="peak resident-set growth during a solve (MB)",
           title=f"memory (inputs excluded; the entry point builds its cost); dotted: 2 GB\n{big}")
    for ax in (a1, a2, a3, a4):
        ax.grid(alpha=0.3, which="both")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=5)
    packages = result["provenance"]["packages"]
    _bench.save(ctx, fig, result, f"POT {packages.get('POT')}, GeomLoss {packages.get('geomloss')}")


@figure("bench-sinkhorn", claims=["heatflow:sinkhorn-sb", "heatflow:near-linear-time"])
def draw(ctx: Context) -> None:
    """Sinkhorn (the entry point, dense and online) vs POT and GeomLoss at equal tolerance up to N = 10⁵: seconds,
    ratios, memory."""
    draw_from(ctx, _bench.measured(ctx, config, measure))


def summary_markdown(result: dict) -> str:
    """The docs/benchmarks.md tables of a measurement (tests/test_bench.py checks the page quotes it)."""
    s = result["summary"]
    front = ["| N | ε | entry's choice | entry / POT log numpy | entry / POT log torch | entry / POT stabilized torch "
             "| entry / GeomLoss | entry / the forced solver it chose |", "|---|---|---|---|---|---|---|---|"]
    head = ["| N | ε | iterations ours / POT log / GeomLoss | online / POT log numpy | online / POT log torch "
            "| online / GeomLoss | dense / POT log numpy | dense / POT log torch | dense / GeomLoss "
            "| max ‖Δπ‖₁ / bound (POT) |", "|---|---|---|---|---|---|---|---|---|---|"]
    shown = (ENTRY, OURS, ONLINE, *PEERS)
    mem = ["| N | ε | " + " | ".join(LABELS[k] for k in shown) + " |", "|---|---|" + "---|" * len(shown)]

    def interval(q):
        return "—" if q is None else f"{q['median']:.3f} [{q['ci_lo']:.3f}, {q['ci_hi']:.3f}]"

    def ratio(v, ours, peer):
        return interval(v.get(peer, {}).get(f"{ours}_over_peer"))

    def mb(entry):
        b = entry.get("peak_rss_increase_bytes") if entry else None
        return "—" if b is None else f"{b / 2 ** 20:.0f}"

    for r in result["rows"]:
        v = r["solvers"]
        front.append(f"| {r['n']} | {r['eps']:g} | {r['entry_choice']} | {ratio(v, ENTRY, POT_LOG[0])} "
                     f"| {ratio(v, ENTRY, POT_LOG[1])} | {ratio(v, ENTRY, POT[2])} | {ratio(v, ENTRY, GEOMLOSS)} "
                     f"| {interval(v[ENTRY]['over_chosen'])} |")
        its = " / ".join(str(v[k]["iterations"]) if k in v else "—" for k in (OURS, POT_LOG[1], GEOMLOSS))
        worst = max((v[p]["plan_l1"] / v[p]["plan_l1_bound"] for p in POT if p in v), default=None)
        head.append(f"| {r['n']} | {r['eps']:g} | {its} | {ratio(v, ONLINE, POT_LOG[0])} | {ratio(v, ONLINE, POT_LOG[1])} "
                    f"| {ratio(v, ONLINE, GEOMLOSS)} | {ratio(v, OURS, POT_LOG[0])} | {ratio(v, OURS, POT_LOG[1])} "
                    f"| {ratio(v, OURS, GEOMLOSS)} | {'—' if worst is None else f'{worst:.2f}'} |")
    for r in result["rows"] + result["online_only"]:
        solvers = {**r["solvers"], **({ENTRY: r["solvers"][ONLINE]} if r.get("entry_choice") == "online" else {})}
        mem.append(f"| {r['n']} | {r['eps']:g} | " + " | ".join(mb(solvers.get(k)) for k in shown) + " |")
    cov = result["rows"][0]["solvers"][ONLINE]["online_over_dense"]["ci_coverage"]

    def largest(ours):
        q = s[ours]["largest_over_pot_sinkhorn_log_median"]
        return "POT not measured" if q is None else f"largest median {q:.3f}"

    big = "; ".join(f"N = {b['n']}, ε = {b['eps']:g} (the entry point chooses {b['entry_choice']}): "
                    f"{b['median_seconds']:.3g} s, {b['iterations']} iterations, "
                    f"verified residual {b['verified_residual']:.2e}, peak RSS {b['peak_rss_bytes'] / 2 ** 20:.0f} MB "
                    f"(growth {b['peak_rss_increase_bytes'] / 2 ** 20:.0f} MB), within 2 GB: {b['within_memory_goal']}"
                    for b in s["largest"])
    return "\n".join(front) + (
        f"\n\nThe entry point `sinkhorn_points(x, y, eps)` as a user calls it (its time includes building the "
        f"cost when it chooses dense). Goal ≤ {GOAL_RATIO}× POT `sinkhorn_log` (CI upper end) at every N ≤ 10⁴ "
        f"measured: {s[ENTRY]['at_most_half_of_pot_sinkhorn_log']} ({largest(ENTRY)}); faster than GeomLoss "
        f"everywhere: {s[ENTRY]['faster_than_geomloss']} (largest median {s[ENTRY]['largest_over_geomloss_median']:.3f})."
        if s[ENTRY]["largest_over_geomloss_median"] is not None else
        f"\n\nThe entry point `sinkhorn_points(x, y, eps)` as a user calls it. Goal ≤ {GOAL_RATIO}× POT "
        f"`sinkhorn_log` at every N ≤ 10⁴ measured: {s[ENTRY]['at_most_half_of_pot_sinkhorn_log']} ({largest(ENTRY)})."
    ) + "\n\n*The two evaluations it chooses between, each forced:*\n\n" + "\n".join(head) + (
        f"\n\nMedian time ratios with their {cov:.1%} confidence intervals ({result['config']['rounds']} rounds). "
        f"Goal ≤ {GOAL_RATIO}× POT `sinkhorn_log` (CI upper end) at every N ≤ 10⁴ measured: online "
        f"{s[ONLINE]['at_most_half_of_pot_sinkhorn_log']} ({largest(ONLINE)}), dense "
        f"{s[OURS]['at_most_half_of_pot_sinkhorn_log']} ({largest(OURS)}); faster than GeomLoss everywhere: "
        f"online {s[ONLINE]['faster_than_geomloss']}, dense {s[OURS]['faster_than_geomloss']}; every plan meets the "
        f"tolerance (verified): {s['all_meet_tol']}; POT's plan is ours within the bound everywhere: "
        f"{s['same_plan_everywhere']}.\n\n*Peak resident-set growth during one solve (MB; inputs excluded, "
        f"the entry point's own cost included):*\n\n"
        + "\n".join(mem) + f"\n\n{big}."
        + "".join(f"\n\nNot measured: {why}." for why in s["skipped"].values()))

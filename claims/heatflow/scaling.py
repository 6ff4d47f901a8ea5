"""Seed 003 (heatflow) at scale: the mean-field limit of Sinkformers and the cost of Sinkhorn,
decided with the O(N)-memory solver `particles.sinkhorn.sinkhorn_points` / `schrodinger_bridge(...,
chunk=...)` (no N×N matrix: the mean-field study runs N = 16000 particles, the timing N = 32000,
where the dense solver's cost and kernel alone would take 16 GB).

Mean-field limit (slide "Previous Work on Understanding Self-Attention"). The slides' infinite-
particle Sinkformer update (slides "Infinite particles", "Let's dive deeper...") with W_KᵀW_Q = I,
W_V = −I and the skip connection that makes it ρ^{k+1} = (2I − B_{ρ^k,ε})#ρ^k (heatflow:sinkformer-
update), B the barycentric projection of the same-marginal bridge of the Sinkformer kernel
Sinkhorn(xᵀy/ε) (cost ½|x − y|², heatflow:sinkhorn-sb). From ρ⁰ = N(0, 1) the flow stays Gaussian
and is known in closed form: ρ^k = N(0, v_k), v_{k+1} = (2 − a(v_k))²v_k, a(v) = (√(v² + ε²/4) −
ε/2)/v (theory/gaussian_ot.py: `sb_step_gaussian`, `barycentric_matrix`); each step is the linear
map x ↦ (2 − a(v_k))x. The N-particle flow is the same update with ρ^k replaced by the empirical
measure μ^N_k of N particles drawn i.i.d. from ρ⁰ (the first N of one seeded sequence, so the sizes
are nested). Measured per seed and N: W₂(μ^N_K, ρ^K) at the last step K (exact on the line,
between atoms and a Gaussian; the sup over k is attained at k = 0, where it is the sampling error
of μ^N_0 alone, so it says nothing of the flow) and the synchronous-coupling distance
sup_k (1/N Σ_i |X_i^k − X̄_i^k|²)^{1/2} between
each particle and its mean-field trajectory X̄_i^k = Π_{l<k}(2 − a(v_l))·X_i^0 from the same start
(the propagation-of-chaos distance: it tends to 0 only if the limit map is the closed form).

Near-linear time (slide "Sinkhorn Algorithm"). Seconds to solve the entropic problem between two
independent uniform clouds of N points of [0, 1]² (cost ½|x − y|², ε = 0.1) to an ℓ1 marginal error
≤ 1e-6 (the ℓ2 stopping tolerance 1e-6/√N implies it), by `sinkhorn_points` on one CPU thread,
timed in interleaved rounds (process CPU time, `particles.lm.bench.time_interleaved`); the slope
of log time against log N is fitted per round.

Both studies are long at the full budget: each is measured once and committed under results/bench/
(`claims._committed`: config, provenance), read by the full budget, re-measured with `--recompute`;
the quick budget measures small sizes live in seconds.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import torch

from claims import Evidence, claim, decide, decide_readings, reading, settings
from claims._committed import THREADS, provenance, read_committed, write_committed
from particles import sinkhorn as sk
from particles.lm.bench import median_interval, time_interleaved
from particles.sinkhorn_online import default_chunk
from particles.threads import torch_threads
from theory import gaussian_ot as go

F64 = torch.float64
SEED = 3

# ------------------------------------------------------------------ the mean-field limit

MEAN_FIELD = "heatflow-mean-field-limit"   # results/bench/heatflow-mean-field-limit.json
MF_EPS, MF_STEPS, MF_TOL = 0.2, 5, 1e-9    # T = steps·ε = 1; bridge marginal residual 1e-9 ≪ W₂
MF_SIZES = {"quick": {"n": [100, 200, 400, 800], "seeds": 6},
            # 6 seeds: the smallest count whose order-statistic interval for a median reaches 95%
            "full": {"n": [500, 1000, 2000, 4000, 8000, 16000], "seeds": 6}}


def mean_field_config(budget: str) -> dict:
    return {**MF_SIZES[budget], "eps": MF_EPS, "steps": MF_STEPS, "tol": MF_TOL, "cost": "half_sq",
            "rho0": "N(0,1)", "dimension": 1, "seed": SEED, "threads": THREADS,
            "chunk": "default_chunk(N) (2^18 entries per block)"}


def gaussian_flow(eps: float, steps: int) -> tuple[list[float], list[float]]:
    """The mean-field flow from N(0, 1): variances v_0..v_K and the step factors 2 − a(v_k)."""
    v, factors = [1.0], []
    for _ in range(steps):
        factors.append(2.0 - float(go.barycentric_matrix([[v[-1]]], eps, "half_sq")[0, 0]))
        v.append(float(go.sb_step_gaussian([[v[-1]]], eps, "half_sq")[0, 0]))
    return v, factors


def particle_run(n: int, seed: int, eps: float = MF_EPS, steps: int = MF_STEPS) -> dict:
    """N particles from N(0, 1) through the Sinkformer flow (2I − B)#μ; W₂ to the closed form and
    the coupling distance to the mean-field trajectories, at every step."""
    x0 = torch.tensor(np.random.default_rng(seed).standard_normal(n), dtype=F64)[:, None]
    path, iterations = sk.sb_scheme(x0, eps, steps, tol=MF_TOL, chunk=default_chunk(n))
    v, factors = gaussian_flow(eps, steps)
    xk = path[..., 0].numpy()
    mean_field = x0[:, 0].numpy() * np.concatenate([[1.0], np.cumprod(factors)])[:, None]
    w2 = [go.GaussianMixture.one_d([1.0], [0.0], [v[k]]).w2_to_points(xk[k]) for k in range(steps + 1)]
    coupling = np.sqrt(np.mean((xk - mean_field) ** 2, axis=1))
    return {"w2": w2, "coupling": coupling.tolist(), "sinkhorn_iterations": iterations}


def _median_ci(values) -> dict:
    """Median of the values with its distribution-free confidence interval (order statistics)."""
    v = np.sort(np.asarray(values, dtype=np.float64))
    lo, hi, coverage = median_interval(len(v))
    return {"median": float(np.median(v)), "ci_lo": float(v[lo - 1]), "ci_hi": float(v[hi - 1]),
            "ci_coverage": coverage, "values": v.tolist()}


def mean_field_study(budget: str) -> dict:
    cfg = mean_field_config(budget)
    seeds = list(range(SEED, SEED + cfg["seeds"]))
    with torch_threads(THREADS):
        # nested sizes: seed s's first N draws (np.random.default_rng(s).standard_normal(N) is a prefix)
        runs = {str(n): {str(s): particle_run(n, s) for s in seeds} for n in cfg["n"]}
    return {"config": cfg, "provenance": provenance("torch", "numpy", "scipy"), "runs": runs}


@lru_cache(maxsize=2)
def mean_field_result(budget: str) -> dict:
    """The quick budget measures; the full budget reads the committed study (`--recompute` redoes it)."""
    if budget == "quick":
        return mean_field_study(budget)
    if settings.recompute:
        result = mean_field_study(budget)
        write_committed(MEAN_FIELD, result)
        return result
    return read_committed(MEAN_FIELD, mean_field_config(budget))


def _slopes(ns, per_seed: dict[str, list[float]]) -> dict:
    """Per seed, the least-squares slope of log(metric) against log N; their median and CI."""
    logn = np.log(np.asarray(ns, dtype=np.float64))
    return _median_ci([float(np.polyfit(logn, np.log(m), 1)[0]) for m in per_seed.values()])


@claim("heatflow:mean-field-limit", locator="slide 'Previous Work on Understanding Self-Attention'",
       statement="the N-particle Sinkformer flow ((2I − B_{μ,ε})#μ, the slides' update with "
                 "W_KᵀW_Q = I, W_V = −I and its skip connection) converges as N → ∞ to the slides' "
                 "infinite-particle flow, known in closed form from ρ⁰ = N(0, 1): W₂ → 0 at T = 1",
       method="convergence", expect="holds", threads=THREADS,
       paper_text="We derive the mean-field limit of **Sinkformers**, proposed by [SABP22].")
def mean_field_limit(budget: str) -> Evidence:
    result = mean_field_result(budget)
    cfg, runs = result["config"], result["runs"]
    ns = cfg["n"]
    seeds = list(runs[str(ns[0])])
    w2_end = {s: [runs[str(n)][s]["w2"][-1] for n in ns] for s in seeds}
    sup_coupling = {s: [max(runs[str(n)][s]["coupling"]) for n in ns] for s in seeds}
    w2_start = {s: [runs[str(n)][s]["w2"][0] for n in ns] for s in seeds}
    rates = {"w2_at_T": _slopes(ns, w2_end), "sup_coupling": _slopes(ns, sup_coupling),
             "w2_at_k0": _slopes(ns, w2_start)}

    def median(metric):
        return [float(np.median([metric[s][i] for s in seeds])) for i in range(len(ns))]

    v, factors = gaussian_flow(cfg["eps"], cfg["steps"])
    numbers = {
        "setting": f"ρ⁰ = N(0, 1) on the line, ε = {cfg['eps']}, {cfg['steps']} steps (T = 1), cost "
                   f"½|x − y|² (the Sinkformer kernel), bridge tolerance {cfg['tol']:g}",
        "mean_field_variances": v, "mean_field_step_factors": factors,
        "n": ns, "seeds": [int(s) for s in seeds],
        "median_w2_at_T": median(w2_end), "median_sup_coupling": median(sup_coupling),
        "median_w2_at_k0": median(w2_start),
        "sinkhorn_iterations_seed0": [runs[str(n)][seeds[0]]["sinkhorn_iterations"] for n in ns],
        "rate_in_n": rates,
        "rate_note": "slopes of log metric vs log N; i.i.d. sampling alone gives W₂(μ^N_0, ρ⁰) ≈ "
                     "N^{-1/2} up to log factors on the line",
    }
    if budget == "full":
        numbers["provenance"] = result["provenance"]
    upper = [rates[k]["ci_hi"] for k in ("w2_at_T", "sup_coupling")]
    lower = [rates[k]["ci_lo"] for k in ("w2_at_T", "sup_coupling")]
    converges = all(u < 0 for u in upper)
    stalls = any(lo >= 0 for lo in lower)
    return decide(
        converges, decided=converges or stalls,
        criterion=f"the fitted rate p in W₂(μ^N_K, ρ^K) ~ N^p (T = Kε = 1) and in the coupling "
                  f"distance ~ N^p (per seed, {len(seeds)} seeds, median with its "
                  f"{rates['w2_at_T']['ci_coverage']:.1%} order-statistic interval) is negative with "
                  f"the whole interval below 0 for both (holds); an interval at or above 0 fails; "
                  f"else inconclusive",
        numbers=numbers,
        counterexample=None if converges else {"n": ns, "rates": rates})


# ------------------------------------------------------------------ near-linear time

NEAR_LINEAR = "heatflow-near-linear-time"   # results/bench/heatflow-near-linear-time.json
NL_EPS, NL_L1_TOL, NL_MAX_ITER = 0.1, 1e-6, 100_000
NL_SIZES = {"n": [1000, 2000, 4000, 8000, 16000, 32000], "rounds": 6}
POLYLOG = 2   # "near-linear": at most two logarithmic factors, O(M log² M) in the input size M


def near_linear_config() -> dict:
    return {**NL_SIZES, "eps": NL_EPS, "l1_tol": NL_L1_TOL, "cost": "half_sq",
            "domain": "[0,1]^2", "seed": 0, "threads": THREADS, "solver": "sinkhorn_points",   # with solver="online" (see near_linear_study)
            "chunk": "default_chunk(N) (2^18 entries per block)"}


def clouds(n: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Two independent uniform samples of n points of [0, 1]² (float64)."""
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.rand(n, 2, dtype=F64, generator=g) for _ in range(2))


def near_linear_study() -> dict:
    cfg = near_linear_config()
    reports = {}

    def solve(n, x, y):
        def run():
            # online at every N, as the committed measurement was taken: the default choice would
            # time the dense path up to N = 4000 and the online one above, a break in the slope
            reports[n] = sk.sinkhorn_points(x, y, NL_EPS, tol=NL_L1_TOL / math.sqrt(n),
                                            max_iter=NL_MAX_ITER, solver="online")[2]
        return run

    with torch_threads(THREADS):
        seconds = time_interleaved({n: solve(n, *clouds(n, cfg["seed"])) for n in cfg["n"]}, cfg["rounds"])
    return {"config": cfg, "provenance": provenance("torch", "numpy"),
            "seconds": {str(n): list(s) for n, s in seconds.items()},
            "iterations": {str(n): r.iterations for n, r in reports.items()},
            "residual": {str(n): r.residual for n, r in reports.items()}}


@lru_cache(maxsize=2)
def near_linear_result(budget: str) -> dict:
    """Both budgets decide on the committed measurement at N = 1000-32000 (`--recompute` at the
    full budget re-measures it, about 12 minutes). A quick re-measure at N <= 3200 cannot decide an
    asymptotic slope: there the dense cost matrix (1.3 MB at N = 400, 82 MB at N = 3200) crosses
    the CPU's cache sizes and the slope measures the memory hierarchy, which differs between
    machines (seen on two 2-core machines: 7.4x per doubling from N = 800 to 1600 on one, a slope
    in the entries straddling the bound on the other)."""
    if budget == "full" and settings.recompute:
        result = near_linear_study()
        write_committed(NEAR_LINEAR, result)
        return result
    return read_committed(NEAR_LINEAR, near_linear_config())


def _side(ci: dict, bound: float, scale: float = 1.0) -> bool | None:
    """True when the slope's whole interval (divided by `scale`) is <= bound, False when it is
    entirely above, None when it straddles the bound."""
    if ci["ci_hi"] / scale <= bound:
        return True
    return False if ci["ci_lo"] / scale > bound else None


@claim("heatflow:near-linear-time", locator="slide 'Sinkhorn Algorithm'",
       statement="Sinkhorn's algorithm computes the Schrödinger bridge (the entropic plan) to a fixed "
                 "marginal accuracy in time near-linear in the input: the log-log slope of time "
                 "against the N² cost entries is at most 1 + 2/ln(N²) (two log factors)",
       method="experiment", expect="holds", figures=["bench-sinkhorn", "bench-sinkhorn-large"],
       paper_text="Compute Schrödinger Bridges in near linear time [Cut13] via alternating projections")
def near_linear_time(budget: str) -> Evidence:
    result = near_linear_result(budget)
    cfg = result["config"]
    ns = np.asarray(cfg["n"], dtype=np.float64)
    times = np.array([result["seconds"][str(n)] for n in cfg["n"]])      # (sizes, rounds)
    slope = _median_ci([float(np.polyfit(np.log(ns), np.log(times[:, r]), 1)[0])
                        for r in range(times.shape[1])])
    entries_bound = 1 + POLYLOG / math.log(ns[0] ** 2)
    points_bound = 1 + POLYLOG / math.log(ns[0])
    medians = np.median(times, axis=1)
    iterations = [result["iterations"][str(n)] for n in cfg["n"]]
    numbers = {
        "n": cfg["n"], "median_seconds": medians, "iterations": iterations,
        "ns_per_entry_per_iteration": medians / (ns ** 2 * np.asarray(iterations)) * 1e9,
        "slope_in_n": slope, "slope_in_entries_n2": {k: slope[k] / 2 for k in ("median", "ci_lo", "ci_hi")},
        "near_linear_bound_entries": entries_bound, "near_linear_bound_points": points_bound,
        "n_seeds": 1,
        "scale": f"N = {cfg['n'][0]}–{cfg['n'][-1]} points in [0,1]², float64, ε = {cfg['eps']}, "
                 f"one CPU thread ({result['provenance']['cpu']}), {cfg['rounds']} interleaved rounds",
        "deviations": ["the slides state no setting: ours is uniform clouds in [0,1]², ε = 0.1, an "
                       "ℓ1 marginal error ≤ 1e-6 (as [Cut13]'s successors measure accuracy)",
                       "process CPU time of one thread, not wall time on the authors' hardware",
                       "one problem instance per N (seed 0), timed in interleaved rounds"],
        "flatness": "not applicable: no training",
    }
    readings = [
        reading("near-linear in the input size, the N² entries of the cost matrix (the sense of "
                "[Cut13] and of Altschuler-Weed-Rigollet 2017, 'near-linear time ... via Sinkhorn')",
                _side(slope, entries_bound, 2.0), slope_in_entries=slope["median"] / 2, bound=entries_bound),
        reading("near-linear in the number N of points", _side(slope, points_bound),
                slope_in_points=slope["median"], bound=points_bound,
                not_admitted="invented"),   # a variable the slide does not name (R3)
    ]
    return decide_readings(
        readings,
        criterion=f"the per-round log-log slope of CPU seconds against the input size has its "
                  f"{slope['ci_coverage']:.1%} median interval at or below 1 + {POLYLOG}/ln(size_min) "
                  f"(at most {POLYLOG} log factors) under the reading (holds) or above it (fails)",
        numbers=numbers)

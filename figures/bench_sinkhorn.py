"""bench-sinkhorn: our Sinkhorn (`particles.sinkhorn.sinkhorn_log`) against POT's
`ot.bregman.sinkhorn_log` (numpy and torch backends) and, for reference, POT's
`ot.bregman.sinkhorn_stabilized` (torch backend: the same algorithm class as ours), at equal
tolerance, N = 500–4000, ε = 0.1 and 0.01 (figures/_bench.py: committed measurement, one thread).

Problem: x, y two independent uniform samples of N points of [0, 1]² (seed 0), cost C = ½|x − y|²
(so C ∈ [0, 1] and ε is relative to the cost range), uniform weights. Each solver returns the plan.

Equal stopping criteria. POT is given M = Cᵀ (with b, a), which makes its iterates *the same
sequence* as ours: POT's column update followed by its row update is our row update followed by
our column update, from the same start (zero potentials), so after k iterations both hold the same
plan, with exact columns (ours) / rows (POT's, i.e. our columns) up to rounding: run for exactly
our iteration count (numItermax), each peer reproduces our plan to rounding (recorded). All solvers stop
on the same quantity, the ℓ2 norm of the marginal violation of that plan, ‖π1 − a‖₂ ≤ tol with
tol = stopThr = 1e-9; ours tests it after every iteration (the residual costs no pass over C), POT
every 10th (`sinkhorn_log`) or 20th (`sinkhorn_stabilized`) iteration, so POT runs the first
multiple of its check period past ours. Both times include forming the N×N plan.

Same plan. The ℓ1 marginal violation V of a Sinkhorn iterate never increases, and two consecutive
half-steps differ in ℓ1 by exactly V of the earlier one; so plans Δk iterations apart on the
sequence differ by at most 2·Δk·V ≤ 2·Δk·√N·r (r the ℓ2 residual at the earlier stop). The check is
‖π_ours − π_POT‖₁ ≤ 2·|Δk|·√N·max(r) + 1e-12 (rounding of N² entries that sum to 1).
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import torch

from figures import Context, figure
from figures import _bench
from particles import sinkhorn as sk
from particles.lm.bench import ratio_summary, time_interleaved
from particles.threads import torch_threads

TOL = 1e-9
MAX_ITER = 100_000
SEED = 0
ROUNDING = 1e-12  # ℓ1 rounding allowance for N² entries summing to 1 (measured: ~1e-15)
SETTINGS = {"quick": {"n": [100, 200], "eps": [0.1, 0.01], "rounds": 2},
            # 6 rounds: the smallest count whose order-statistic CI for a median reaches 95%
            "full": {"n": [500, 1000, 2000, 4000], "eps": [0.1, 0.01], "rounds": 6}}
OURS = "ours"
POT_LOG = ("pot-log-numpy", "pot-log-torch")  # the peers
PEERS = (*POT_LOG, "pot-stabilized-torch")
LABELS = {OURS: "ours (torch, log-stabilized)", "pot-log-numpy": "POT sinkhorn_log (numpy)",
          "pot-log-torch": "POT sinkhorn_log (torch)", "pot-stabilized-torch": "POT sinkhorn_stabilized (torch)"}


def config(budget: str) -> dict:
    if budget not in SETTINGS:
        raise ValueError(f"budget must be one of {sorted(SETTINGS)}, got {budget!r}")
    return {**SETTINGS[budget], "tol": TOL, "seed": SEED, "cost": "half_sq", "domain": "[0,1]^2",
            "threads": _bench.THREADS}


def cost(n: int, seed: int = SEED) -> torch.Tensor:
    """C_ij = ½|x_i − y_j|² for two independent uniform samples x, y of [0, 1]² (float64)."""
    g = torch.Generator().manual_seed(seed)
    x, y = (torch.rand(n, 2, dtype=torch.float64, generator=g) for _ in range(2))
    return sk.pairwise_cost(x, y, "half_sq")


def solvers(C: torch.Tensor, eps: float, tol: float = TOL, max_iter: int = MAX_ITER) -> dict:
    """name -> () -> (plan in our orientation (torch), iterations, ℓ2 marginal residual)."""
    import ot
    n = C.shape[0]
    a = torch.full((n,), 1.0 / n, dtype=C.dtype)
    M = C.T.contiguous()
    Mn, an = M.numpy(), a.numpy()

    def ours():
        f, g, report = sk.sinkhorn_log(C, eps, tol=tol, max_iter=max_iter)
        return torch.exp(sk.log_plan(C, eps, f, g)), report.iterations, report.residual

    def pot(fn, backend):
        def run():
            P, log = fn(*((an, an, Mn) if backend == "numpy" else (a, a, M)), eps, numItermax=max_iter,
                        stopThr=tol, log=True, warn=False)
            iterations = (log["niter"] if "niter" in log else log["n_iter"]) + 1  # 0-based loop index
            return torch.as_tensor(P).T, iterations, float(log["err"][-1])
        return run

    return {OURS: ours, "pot-log-numpy": pot(ot.bregman.sinkhorn_log, "numpy"),
            "pot-log-torch": pot(ot.bregman.sinkhorn_log, "torch"),
            "pot-stabilized-torch": pot(ot.bregman.sinkhorn_stabilized, "torch")}


def same_plan(P_ours, k_ours, r_ours, P_peer, k_peer, r_peer, n) -> dict:
    """‖π_ours − π_peer‖₁ against the bound 2·|Δk|·√N·max(r) + rounding (module docstring)."""
    l1 = float((P_ours - P_peer).abs().sum())
    bound = 2 * abs(k_peer - k_ours) * math.sqrt(n) * max(r_ours, r_peer) + ROUNDING
    return {"plan_l1": l1, "plan_l1_bound": bound, "same_plan": l1 <= bound}


def case(n: int, eps: float, rounds: int) -> dict:
    """Time every solver `rounds` times, interleaved, and compare the plans."""
    C = cost(n)
    calls = solvers(C, eps)
    last = {}
    seconds = time_interleaved({k: (lambda k=k: last.__setitem__(k, calls[k]())) for k in calls}, rounds)
    P0, k0, r0 = last[OURS]
    stopped_with_ours = solvers(C, eps, max_iter=k0)  # the peers run exactly our iteration count
    row = {"n": n, "eps": eps, "solvers": {}}
    for name, (P, k, r) in last.items():
        entry = {"iterations": k, "residual": r, "seconds": list(seconds[name]),
                 "median_seconds": float(np.median(seconds[name])),
                 "seconds_per_iteration": float(np.median(seconds[name])) / k}
        if name != OURS:
            entry |= same_plan(P0, k0, r0, P, k, r, n)
            entry["plan_l1_at_equal_iterations"] = float((stopped_with_ours[name]()[0] - P0).abs().sum())
            entry["ours_over_peer"] = ratio_summary(np.asarray(seconds[OURS]) / np.asarray(seconds[name]))
        row["solvers"][name] = entry
    return row


def measure(budget: str) -> dict:
    cfg = config(budget)
    with torch_threads(_bench.THREADS):
        rows = [case(n, eps, cfg["rounds"]) for eps in cfg["eps"] for n in cfg["n"]]
        provenance = _bench.provenance("POT", "torch", "numpy", "scipy")
    peers = [r["solvers"][p] for r in rows for p in POT_LOG]
    verdict = {"ours_at_least_as_fast_as_pot_sinkhorn_log": all(p["ours_over_peer"]["ci_hi"] <= 1 for p in peers),
               "decided": all(p["ours_over_peer"]["ci_coverage"] >= 0.95 for p in peers),
               "same_plan_everywhere": all(r["solvers"][p]["same_plan"] for r in rows for p in PEERS),
               "largest_ours_over_pot_sinkhorn_log_median": max(p["ours_over_peer"]["median"] for p in peers)}
    return {"config": cfg, "rows": rows, "summary": verdict,
            "provenance": provenance}


def draw_from(ctx: Context, result: dict) -> None:
    rows, cfg = result["rows"], result["config"]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.5))
    styles = {eps: ls for eps, ls in zip(cfg["eps"], ("-", "--", ":"))}
    for i, name in enumerate((OURS, *PEERS)):
        for eps in cfg["eps"]:
            sel = [r for r in rows if r["eps"] == eps]
            a1.loglog([r["n"] for r in sel], [r["solvers"][name]["median_seconds"] for r in sel],
                      styles[eps], marker="os^v"[i], color=f"C{i}", label=f"{LABELS[name]}, ε = {eps}")
            if name != OURS:
                _bench.ratio_axes(a2, [r["n"] * (1 + 0.04 * (i - 2)) for r in sel],
                                  [r["solvers"][name]["ours_over_peer"] for r in sel], fmt=styles[eps],
                                  marker="os^v"[i], color=f"C{i}", label=f"vs {LABELS[name]}, ε = {eps}")
    a2.set_xscale("log")
    a2.set_yscale("log")
    a2.axhline(1.0, color="k", lw=0.8)
    s = result["summary"]
    cov = rows[0]["solvers"][POT_LOG[0]]["ours_over_peer"]["ci_coverage"]
    a1.set(xlabel="N", ylabel="CPU seconds per solve (plan included), 1 thread",
           title=f"C = ½|x−y|² on [0,1]², marginal tol {cfg['tol']:g} (ℓ2, same quantity for all)")
    a2.set(xlabel="N", ylabel="time ours / time peer",
           title=f"median ratio, {cov:.1%} CI over {cfg['rounds']} interleaved rounds\n"
                 f"ours ≤ POT sinkhorn_log everywhere: {s['ours_at_least_as_fast_as_pot_sinkhorn_log']}; "
                 f"same plan within bound: {s['same_plan_everywhere']}", )
    for ax in (a1, a2):
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=6)
    _bench.save(ctx, fig, result, f"POT {result['provenance']['packages']['POT']}")


@figure("bench-sinkhorn", claims=["heatflow:sinkhorn-sb"])
def draw(ctx: Context) -> None:
    """Sinkhorn vs POT sinkhorn_log (numpy, torch) at equal tolerance: seconds and time ratios."""
    draw_from(ctx, _bench.measured(ctx, config, measure))


def summary_markdown(result: dict) -> str:
    """The docs/benchmarks.md table of a measurement (tests/test_bench.py checks the page quotes it)."""
    s, cov = result["summary"], result["rows"][0]["solvers"][POT_LOG[0]]["ours_over_peer"]["ci_coverage"]
    lines = [f"| N | ε | iterations ours / POT log / POT stabilized | time ours / POT log numpy | "
             f"ours / POT log torch | ours / POT stabilized torch | max ‖Δπ‖₁ / bound |",
             "|---|---|---|---|---|---|---|"]
    for r in result["rows"]:
        v = r["solvers"]
        ratio = [f"{q['median']:.3f} [{q['ci_lo']:.3f}, {q['ci_hi']:.3f}]"
                 for q in (v[p]["ours_over_peer"] for p in PEERS)]
        worst = max(v[p]["plan_l1"] / v[p]["plan_l1_bound"] for p in PEERS)
        lines.append(f"| {r['n']} | {r['eps']:g} | {v[OURS]['iterations']} / {v[POT_LOG[1]]['iterations']} / "
                     f"{v[PEERS[2]]['iterations']} | {' | '.join(ratio)} | {worst:.2f} |")
    lines.append(f"\nMedian time ratios with their {cov:.1%} confidence intervals ({result['config']['rounds']} "
                 f"rounds). Ours at least as fast as POT `sinkhorn_log` in every case (CI upper end ≤ 1): "
                 f"{s['ours_at_least_as_fast_as_pot_sinkhorn_log']}; largest median ratio "
                 f"{s['largest_ours_over_pot_sinkhorn_log_median']:.3f}; same plan within the bound everywhere: "
                 f"{s['same_plan_everywhere']}.")
    return "\n".join(lines)

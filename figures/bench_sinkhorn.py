"""Time per Sinkhorn solve against N: ours (torch, log domain) vs POT's ot.bregman.sinkhorn_log."""
from __future__ import annotations

import time

import matplotlib.pyplot as plt
import numpy as np
import torch

from claims.heatflow import RHO0, SEED
from figures import Context, figure
from particles import sinkhorn as sk

EPS, TOL = 1.0, 1e-9


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _bench(ns) -> list[dict]:
    try:
        import ot
    except ImportError:
        ot = None
    rows = []
    for n in ns:
        x = torch.tensor(RHO0.sample(n, np.random.default_rng(SEED)), dtype=torch.float64)
        C = sk.pairwise_cost(x, x, "half_sq")
        a = np.full(n, 1.0 / n)
        row = {"n": n}
        row["ours_s"] = min(_timed(lambda: sk.sinkhorn_log(C, EPS, tol=TOL, max_iter=100_000)) for _ in range(2))
        row["ours_iterations"] = sk.sinkhorn_log(C, EPS, tol=TOL, max_iter=100_000)[2].iterations
        row["ours_symmetric_s"] = min(_timed(lambda: sk.schrodinger_bridge(x, EPS, tol=TOL)) for _ in range(2))
        if ot is not None:
            Cn = C.numpy()
            row["pot_s"] = min(_timed(lambda: ot.bregman.sinkhorn_log(a, a, Cn, EPS, numItermax=100_000,
                                                                      stopThr=TOL)) for _ in range(2))
            row["ratio_ours_over_pot"] = row["ours_s"] / row["pot_s"]
        if torch.cuda.is_available():
            Cc = C.cuda()
            sk.sinkhorn_log(Cc, EPS, tol=TOL, max_iter=100_000)
            torch.cuda.synchronize()
            row["ours_cuda_s"] = _timed(lambda: (sk.sinkhorn_log(Cc, EPS, tol=TOL, max_iter=100_000),
                                                 torch.cuda.synchronize()))
        rows.append(row)
    return rows


@figure("bench-sinkhorn", claims=["heatflow:sinkhorn-sb"])
def draw(ctx: Context) -> None:
    """Seconds per solve (same cost ½|x−y|², ε = 1, marginal tol 1e-9) and the ratio ours/POT."""
    ns = [100, 200] if ctx.budget == "quick" else [250, 500, 1000, 2000]
    rows = ctx.cached("times", lambda: _bench(ns))
    n = np.array([r["n"] for r in rows])
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
    a1.loglog(n, [r["ours_s"] for r in rows], "o-", label="ours, alternating (torch)")
    a1.loglog(n, [r["ours_symmetric_s"] for r in rows], "s-", label="ours, same-marginal symmetric")
    if "pot_s" in rows[0]:
        a1.loglog(n, [r["pot_s"] for r in rows], "^-", label="POT sinkhorn_log (numpy)")
        a2.semilogx(n, [r["ratio_ours_over_pot"] for r in rows], "o-", color="C0")
        a2.axhline(1.0, color="k", lw=0.8)
    a1.set(xlabel="N", ylabel="seconds per solve", title=f"ε = {EPS}, tol = {TOL:g}")
    a2.set(xlabel="N", ylabel="time ours / time POT", title="ratio (< 1: ours faster)")
    for ax in (a1, a2):
        ax.grid(alpha=0.3, which="both")
    a1.legend(fontsize=8)
    ctx.save(fig)
    keys = sorted({k for r in rows for k in r})
    ctx.save_csv(keys, [[r.get(k) for k in keys] for r in rows])

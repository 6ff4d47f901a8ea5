"""Density snapshots of the SB scheme against the exact heat flow (seed 003, slide "Mixture of Gaussians")."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import torch

from claims.heatflow.bridges import DIFFUSIVITY_BROWNIAN, DIFFUSIVITY_PRINTED, RHO0, SEED
from figures import Context, figure
from particles import sinkhorn as sk
from theory import gaussian_ot as go

EPS = 0.01                       # the slide's ε
TIMES = (0.0, 0.25, 0.5, 1.0)


def _simulate(n: int) -> dict:
    """SB^k_ε for n sampled particles and for a weighted grid (the continuum scheme), at TIMES."""
    steps = int(round(TIMES[-1] / EPS))
    keep = [int(round(t / EPS)) for t in TIMES]
    x0 = torch.tensor(RHO0.sample(n, np.random.default_rng(SEED)), dtype=torch.float64)
    particles, _ = sk.sb_scheme(x0, EPS, steps, tol=1e-10)
    h = np.sqrt(EPS) / 4
    g = np.arange(-9, 9 + h / 2, h)
    a = np.exp(RHO0.logpdf(g))
    a /= a.sum()
    grid_path, _ = sk.sb_scheme(torch.tensor(g[:, None]), EPS, steps, torch.tensor(a), tol=1e-10)
    out = {"particles": [particles[k, :, 0].tolist() for k in keep],
           "grid": [grid_path[k, :, 0].tolist() for k in keep], "grid_weights": a.tolist()}
    out["w2_particles"] = {str(D): [RHO0.heat(t, D).w2_to_points(np.array(p)) for t, p in
                                    zip(TIMES, out["particles"])]
                           for D in (DIFFUSIVITY_BROWNIAN, DIFFUSIVITY_PRINTED)}
    return out


# Data precision (figures/_registry.py): W2 distances (>= 1e-6) from Sinkhorn at residual 1e-10
# (measured: 3e-11 relative between float kernels); 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("heatflow-mixture", claims=["heatflow:result-3", "heatflow:particle-ode"],
        digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """ρ₀ = ½N(−2,1) + ½N(2,1), ε = 0.01: SB particles and continuum SB vs the heat flows ½Δ and Δ."""
    n = 300 if ctx.budget == "quick" else 1500
    data = ctx.cached(f"n{n}", lambda: _simulate(n))
    a = np.array(data["grid_weights"])
    fig, axes = plt.subplots(1, len(TIMES), figsize=(15, 3.8), sharey=True)
    xs = np.linspace(-8, 8, 801)
    summary = {"eps": EPS, "n_particles": n, "times": TIMES, "w2_particles": data["w2_particles"],
               "w2_continuum_SB": {}}
    for ax, t, p, gk in zip(axes, TIMES, data["particles"], data["grid"]):
        gk = np.array(gk)
        # continuum SB density at the moved nodes: ρ_k(T(x_i)) = a_i / (local spacing of T(x_i))
        dens = a / np.gradient(gk)
        ax.hist(p, bins=50, density=True, color="0.8", label=f"SB particles (N={n})")
        inside = a > 1e-8
        ax.plot(gk[inside], dens[inside], color="C0", lw=2.5, alpha=0.6, label="SB, continuum (grid)")
        for D, color, label in ((DIFFUSIVITY_BROWNIAN, "k", "heat ∂ₜρ = ½Δρ"),
                                (DIFFUSIVITY_PRINTED, "C3", "heat ∂ₜρ = Δρ (printed)")):
            rho = RHO0.heat(t, D)
            ax.plot(xs, np.exp(rho.logpdf(xs)), color=color, ls="--", lw=1.2, label=label)
            if t > 0:
                summary["w2_continuum_SB"].setdefault(str(D), []).append(
                    go.monotone_map_w2(data["grid"][0], gk, a, RHO0, rho))
        ax.set(title=f"t = kε = {t:g}", xlabel="x")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("density")
    axes[0].legend(fontsize=7, loc="upper left")
    ctx.save(fig)
    ctx.save_json(summary)

"""Preconditioning inside a pre-norm block: the LayerNorm of seed 002 Appendix E, the diagonal
Adam/RMSProp preconditioner of Theorem E.1, and the token-side preconditioner of Appendix C.

Conventions. `layer_norm(x, eps)` is the zero-mean LayerNorm without gain or bias of seed 002
App. E, LN(x) = (x − x̄1)/(‖x − x̄1‖₂/√d), applied along the last axis; eps > 0 gives the
implemented variant (x − x̄1)/√(var(x) + eps) (torch.nn.LayerNorm's convention, var biased).
"""
from __future__ import annotations

import math

import numpy as np


def _array(x, name: str, ndim: int | None = None) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if ndim is not None and x.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimensions, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} contains NaN or inf")
    return x


def layer_norm(x, eps: float = 0.0) -> np.ndarray:
    """LN of seed 002 App. E along the last axis (eps = 0), or its eps-regularized variant."""
    x = _array(x, "x")
    if x.ndim < 1 or x.shape[-1] < 2:
        raise ValueError(f"x must have a last axis of length >= 2, got shape {x.shape}")
    if not (np.isfinite(eps) and eps >= 0):
        raise ValueError(f"eps must be finite and >= 0, got {eps}")
    centred = x - x.mean(axis=-1, keepdims=True)
    var = (centred**2).mean(axis=-1, keepdims=True)
    if eps == 0 and np.any(var == 0):
        raise ValueError("x: a constant row has no LayerNorm without eps")
    return centred / np.sqrt(var + eps)


def diagonal_preconditioner(s, delta: float) -> np.ndarray:
    """The diagonal of D_s = diag(1/(√s_i + δ)) (seed 002, Theorem E.1)."""
    s = _array(s, "s", ndim=1)
    if np.any(s <= 0):
        raise ValueError("s must be > 0 (second moments, rho_min > 0)")
    if not (np.isfinite(delta) and delta >= 0):
        raise ValueError(f"delta must be finite and >= 0, got {delta}")
    return 1.0 / (np.sqrt(s) + delta)


def theorem_e1_chain(s, delta: float, epsilon: float) -> dict[str, float]:
    """Every quantity of the proof of Theorem E.1 (seed 002), with α = d_max:

    deviation   ‖D_s/α − I‖₂ (computed from the matrix)
    exact       (ρ_max − ρ_min)/(ρ_max + δ)
    step1       (1 − 1/√(1+ε))/(1 + δ/ρ_max)
    step2       1 − 1/√(1+ε)
    step3       √(1+ε) − 1
    step4       ε/2
    statement   (√(1+ε) − 1)/(1 + δ/ρ_max)   (the bound printed in the theorem)

    under the balance assumption ρ_max²/ρ_min² ≤ 1 + ε, ε ∈ [0, 1] (checked here, with a 1e-12
    relative slack for the rounding of s = ρ²)."""
    d = diagonal_preconditioner(s, delta)
    if not (0 <= epsilon <= 1):
        raise ValueError(f"epsilon must lie in [0, 1], got {epsilon}")
    rho = np.sqrt(np.asarray(s, dtype=np.float64))
    rmin, rmax = rho.min(), rho.max()
    if rmax**2 / rmin**2 > (1 + epsilon) * (1 + 1e-12):  # slack: rounding of s = ρ²
        raise ValueError(f"s: balance assumption violated, rho_max²/rho_min² = "
                         f"{rmax**2 / rmin**2} > 1 + epsilon = {1 + epsilon}")
    alpha = d.max()
    root = np.sqrt(1.0 + epsilon)
    return {
        "deviation": float(np.linalg.norm(np.diag(d / alpha) - np.eye(d.size), ord=2)),
        "exact": float((rmax - rmin) / (rmax + delta)),
        "step1": float((1 - 1 / root) / (1 + delta / rmax)),
        "step2": float(1 - 1 / root),
        "step3": float(root - 1),
        "step4": float(epsilon / 2),
        "statement": float((root - 1) / (1 + delta / rmax)),
    }


def layer_norm_perturbation_bound(z, deviation: float) -> float:
    """Upper bound on ‖LN(Dz) − LN(z)‖₂ for a positive diagonal D with ‖D/α − I‖₂ ≤ deviation.

    LN(Dz) = LN(u) with u = Dz/α (scale invariance), ‖u − z‖ ≤ deviation·‖z‖; with the centring
    C (‖C‖ = 1) and ‖a/‖a‖ − b/‖b‖‖ ≤ 2‖a − b‖/‖b‖ this gives 2√d·deviation·‖z‖/‖Cz‖: the
    'O(ε) non-scalar deviation' of Theorem E.1 (seed 002), made explicit."""
    z = _array(z, "z", ndim=1)
    centred = np.linalg.norm(z - z.mean())
    if centred == 0:
        raise ValueError("z: a constant vector has no LayerNorm without eps")
    return float(2 * math.sqrt(z.size) * deviation * np.linalg.norm(z) / centred)


def token_preconditioner(G, damping: float) -> np.ndarray:
    """P = L^{-1/2} with L = Σ_k G_k G_kᵀ + damping·I (the token-side Shampoo/SOAP factor of
    seed 002 App. C), from a stack G of shape (K, T, d); eigendecomposition of the SPD L."""
    G = _array(G, "G", ndim=3)
    if not (np.isfinite(damping) and damping > 0):
        raise ValueError(f"damping must be > 0 (L must be SPD), got {damping}")
    L = np.einsum("ktd,ksd->ts", G, G) + damping * np.eye(G.shape[1])
    w, Q = np.linalg.eigh(L)
    return (Q / np.sqrt(w)) @ Q.T


def causal_softmax_attention(scores) -> np.ndarray:
    """Row-wise softmax of a (T, T) score matrix with the strictly upper triangle masked."""
    scores = _array(scores, "scores", ndim=2)
    if scores.shape[0] != scores.shape[1]:
        raise ValueError(f"scores must be square (T, T), got shape {scores.shape}")
    masked = np.where(np.tril(np.ones(scores.shape, dtype=bool)), scores, -np.inf)
    masked = masked - masked.max(axis=1, keepdims=True)
    w = np.exp(masked)
    return w / w.sum(axis=1, keepdims=True)

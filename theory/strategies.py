"""Hypothesis strategies for the matrices the theorems are about (numpy float64), for `@given` in
anyone's test file (needs the `test` extra: hypothesis).

    from hypothesis import given
    from theory.strategies import spd_matrices, symplectic_matrices

    @given(spd_matrices(n=3, cond=(1.0, 1e4)))
    def test_my_solver(A): ...

Each strategy states what it promises; tests/test_strategies.py checks every promise:

* `spd_matrices`: symmetric positive definite, condition number κ₂ inside the range asked for
  (to the rounding of forming Q Λ Qᵀ), eigenvalue scale inside its range;
* `skew_symmetric_matrices`: Aᵀ = −A exactly (bit for bit);
* `symplectic_matrices`: Mᵀ J M = J with J = [[0, I_d], [−I_d, 0]] (seed 001 §1) to float64
  rounding, as products of exact symplectic shears [[I, S], [0, I]] and [[I, 0], [S, I]]
  (S symmetric); shears generate the symplectic group.

Random matrices are drawn from a numpy Generator seeded by a drawn integer: hypothesis shrinks
sizes, ranges and seeds, not single entries.
"""
from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from theory.checks import positive, positive_int

__all__ = ["spd_matrices", "skew_symmetric_matrices", "symplectic_matrices"]

_SEEDS = st.integers(0, 2**32 - 1)


def sizes(n, name: str, minimum: int = 1) -> st.SearchStrategy[int]:
    """A fixed int (validated: >= `minimum`) or a strategy of ints, as a strategy."""
    if isinstance(n, st.SearchStrategy):
        return n.filter(lambda k: k >= minimum)
    n = positive_int(n, name)
    if n < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {n}")
    return st.just(n)


def log_range(bounds, name: str, minimum: float = 0.0) -> tuple[float, float]:
    """(lo, hi) with minimum <= lo <= hi, finite: a range sampled log-uniformly."""
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise TypeError(f"{name} must be a pair (lo, hi), got {bounds!r}")
    lo, hi = (positive(b, name) for b in bounds)
    if lo < minimum or hi < lo:
        raise ValueError(f"{name} must satisfy {minimum} <= lo <= hi, got {bounds!r}")
    return lo, hi


def _log_uniform(draw, lo: float, hi: float) -> float:
    if lo == hi:
        return lo
    return math.exp(draw(st.floats(math.log(lo), math.log(hi))))


def spd_matrices(n=st.integers(1, 6), cond=(1.0, 1e3), scale=(0.1, 10.0)
                 ) -> st.SearchStrategy[np.ndarray]:
    """n×n symmetric positive definite matrices with condition number κ₂ drawn log-uniformly in
    `cond` = (lo, hi), lo >= 1, and smallest eigenvalue drawn log-uniformly in `scale`.

    A = Q diag(λ) Qᵀ with Q a random orthogonal matrix (QR of a Gaussian) and
    λ = λ_min · (1, κ, κ^u₃, …) with u uniform in [0, 1]: the extreme eigenvalues are exact, so
    κ₂(A) = κ up to the rounding of the product (relative n·eps·κ). n is an int or a strategy;
    when lo > 1 sizes n = 1 are skipped (a 1×1 matrix has κ = 1)."""
    lo, hi = log_range(cond, "cond", minimum=1.0)
    s_lo, s_hi = log_range(scale, "scale")
    ns = sizes(n, "n", minimum=2 if lo > 1 else 1)

    @st.composite
    def draw_spd(draw) -> np.ndarray:
        k = draw(ns)
        kappa = _log_uniform(draw, lo, hi) if k > 1 else 1.0
        lam_min = _log_uniform(draw, s_lo, s_hi)
        rng = np.random.default_rng(draw(_SEEDS))
        Q, _ = np.linalg.qr(rng.standard_normal((k, k)))
        lam = lam_min * kappa ** np.concatenate([[0.0, 1.0], rng.uniform(size=k - 2)])[:k]
        A = (Q * lam) @ Q.T
        return (A + A.T) / 2

    return draw_spd()


def skew_symmetric_matrices(n=st.integers(1, 6), scale=(0.1, 10.0)) -> st.SearchStrategy[np.ndarray]:
    """n×n real antisymmetric matrices A = s (G − Gᵀ), G Gaussian, s log-uniform in `scale`:
    Aᵀ = −A holds bit for bit (fl(a − b) = −fl(b − a))."""
    s_lo, s_hi = log_range(scale, "scale")
    ns = sizes(n, "n")

    @st.composite
    def draw_skew(draw) -> np.ndarray:
        k = draw(ns)
        s = _log_uniform(draw, s_lo, s_hi)
        G = s * np.random.default_rng(draw(_SEEDS)).standard_normal((k, k))
        return G - G.T

    return draw_skew()


def symplectic_matrices(d=st.integers(1, 3), shears=st.integers(1, 4), scale=(0.01, 1.0)
                        ) -> st.SearchStrategy[np.ndarray]:
    """2d×2d symplectic matrices (Mᵀ J M = J, J = [[0, I_d], [−I_d, 0]]): products of `shears`
    alternating lower and upper symplectic shears [[I, 0], [S, I]], [[I, S], [0, I]] with S
    symmetric Gaussian times s, s log-uniform in `scale`. Each factor is exactly symplectic; the
    product carries the rounding of its matrix products, ‖MᵀJM − J‖ ≲ shears · 2d · eps · ‖M‖²."""
    s_lo, s_hi = log_range(scale, "scale")
    ds = sizes(d, "d")
    ks = sizes(shears, "shears")

    @st.composite
    def draw_symplectic(draw) -> np.ndarray:
        k, m = draw(ds), draw(ks)
        s = _log_uniform(draw, s_lo, s_hi)
        rng = np.random.default_rng(draw(_SEEDS))
        eye, zero = np.eye(k), np.zeros((k, k))
        M = np.eye(2 * k)
        for i in range(m):
            G = s * rng.standard_normal((k, k))
            S = G + G.T
            shear = np.block([[eye, zero], [S, eye]] if i % 2 == 0 else [[eye, S], [zero, eye]])
            M = shear @ M
        return M

    return draw_symplectic()

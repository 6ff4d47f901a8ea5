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
  (S symmetric); shears generate the symplectic group;
* `energy_shell_states`: states z with H(z) = E (|H(z) − E| ≤ 1e-12 · max(1, |E|)) for the
  Hamiltonian H you give, on a fixed shell or one drawn from a range: initial conditions for
  `particles.verify.assert_energy_bounded` and for anything that conserves H.

Random matrices are drawn from a numpy Generator seeded by a drawn integer: hypothesis shrinks
sizes, ranges and seeds, not single entries.
"""
from __future__ import annotations

import math

import numpy as np
from hypothesis import reject
from hypothesis import strategies as st
from scipy.optimize import brentq

from theory.checks import positive, positive_int, real

__all__ = ["spd_matrices", "skew_symmetric_matrices", "symplectic_matrices", "energy_shell_states"]

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


# |H(z) − E| ≤ SHELL_RTOL · max(1, |E|) for every state `energy_shell_states` yields
SHELL_RTOL = 1e-12


def energy_shell_states(H, energy, center, n=None, max_radius: float = 1e6
                        ) -> st.SearchStrategy[np.ndarray]:
    """States z ∈ R^m on the energy shell H(z) = E: float64 arrays of shape (m,) (n None) or
    (n, m), with |H(z) − E| ≤ 1e-12 · max(1, |E|) (`SHELL_RTOL`) for every row.

    H: a callable on a float64 array of shape (m,) returning a real number (numpy; wrap a torch
    H as `lambda z: float(H(torch.from_numpy(z)))`). energy: a real E, or a pair (lo, hi) from
    which one E per example is drawn uniformly (all n states share it). center: a point of
    shape (m,) with H(center) < E (lo for a range), e.g. the minimum of the potential.
    n: None, an int or a strategy of ints. max_radius: how far along a ray the shell is sought.

    Each state is z = center + r u with u uniform on the unit sphere (a normalized Gaussian) and
    r the first crossing of the ray with the shell: bracketed by doubling r from 1e-3 until
    H(center + r u) > E, then located by Brent's method to machine precision. The shell need not
    be convex or bounded in every direction (a ray that never reaches E within `max_radius`, or
    a crossing H cannot resolve to the promised accuracy, is rejected and redrawn); the states
    are not uniform in the shell's area measure. For H = |p|²/2 + V(q) (pendulum, Hénon–Heiles)
    every direction reaches any E above the minimum."""
    if not callable(H):
        raise TypeError(f"H must be a callable on float64 arrays, got {type(H).__name__}")
    if isinstance(energy, (tuple, list)):
        if len(energy) != 2:
            raise TypeError(f"energy must be a number or a pair (lo, hi), got {energy!r}")
        lo, hi = (real(e, "energy") for e in energy)
        if hi < lo:
            raise ValueError(f"energy must satisfy lo <= hi, got {energy!r}")
    else:
        lo = hi = real(energy, "energy")
    c = np.asarray(center, dtype=np.float64)
    if c.ndim != 1 or not c.size or not np.all(np.isfinite(c)):
        raise ValueError(f"center must be a finite point of shape (m,), got {center!r}")
    H0 = real(H(c), "H(center)")
    if not H0 < lo:
        raise ValueError(f"center must lie below the shell: H(center) = {H0!r} is not < E = {lo!r}")
    r_max = positive(max_radius, "max_radius")
    ns = None if n is None else sizes(n, "n")

    def on_shell(E: float, u: np.ndarray) -> np.ndarray:
        r = 1e-3
        while H(c + r * u) <= E:
            r *= 2
            if r > r_max:
                reject()  # this ray does not reach the shell
        r = brentq(lambda s: H(c + s * u) - E, r / 2 if r > 1e-3 else 0.0, r, xtol=1e-300,
                   rtol=4 * np.finfo(np.float64).eps)
        z = c + r * u
        if abs(H(z) - E) > SHELL_RTOL * max(1.0, abs(E)):
            reject()
        return z

    @st.composite
    def draw_states(draw) -> np.ndarray:
        E = lo if lo == hi else draw(st.floats(lo, hi))
        k = 1 if ns is None else draw(ns)
        g = np.random.default_rng(draw(_SEEDS)).standard_normal((k, c.size))
        Z = np.stack([on_shell(E, u / np.linalg.norm(u)) for u in g])
        return Z[0] if ns is None else Z

    return draw_states()

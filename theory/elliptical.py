"""Elliptically contoured distributions and the moment ODEs of accelerated linear attention.

Seed 000 (SympFormer), Section 4.2. A density is elliptically contoured, ρ = E(m, Σ, g), when

    ρ(x) = det(Σ)^{-1/2} g((x − m)ᵀ Σ^{-1} (x − m)),

with a density generator g: [0, ∞) → (0, ∞) normalized by ∫_0^∞ r^{d/2−1} g(r) dr = Γ(d/2)/π^{d/2}
(condition i)). Its mean is m and its covariance κ_g Σ with (Example 4.2)

    κ_g = (1/d) ∫_{R^d} ‖y‖² g(‖y‖²) dy = (1/d) · π^{d/2}/Γ(d/2) · ∫_0^∞ r^{d/2} g(r) dr,

the second form by polar coordinates (∫_{R^d} f(‖y‖²) dy = π^{d/2}/Γ(d/2) ∫_0^∞ r^{d/2−1} f(r) dr).

Proposition 4.3: if ρ_0 = E(m_0, Σ_0, g), the accelerated linear-attention PDE (24) keeps
ρ_t = E(m_t, Σ_t, g) and Φ_t(x) = ½ xᵀ P_t x with

    ṁ = C m,   Σ̇ = Σ Cᵀ + C Σ,   Ṗ = −α_t P − (Cᵀ P + P C) + V,   P_0 = 0,      (25)-(26)
    C = P (κ_g Σ + m mᵀ) A.

Corollary 4.4 (m_0 = 0): Σ̇ = κ_g (Σ A Σ P + P Σ A Σ), Ṗ = −α P − κ_g (A Σ P² + P² Σ A) + V (27).

Everything here is numpy/scipy/sympy; the particle systems live in `particles.accelerated`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import mpmath
import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp
from theory.checks import positive_int
from theory.checks import spd as check_spd
from theory.checks import symmetric as check_symmetric

r = sp.Symbol("r", positive=True)  # the argument of g: r = (x − m)ᵀ Σ^{-1} (x − m)

# ------------------------------------------------------------------ validation


def check_student_t_dof(v) -> float:
    """Degrees of freedom of Example 4.2's Student-t: v > 2 (finite variance, condition iii))."""
    v = float(v)
    if not np.isfinite(v) or v <= 2:
        raise ValueError(f"v (Student-t degrees of freedom) must be > 2 for a finite variance, got {v}")
    return v


# ------------------------------------------------------------------ density generators g (sympy)


def g_gaussian(d: int) -> sp.Expr:
    """Example 4.2: g(r) = (2π)^{-d/2} e^{-r/2}."""
    d = positive_int(d, "d")
    return (2 * sp.pi) ** sp.Rational(-d, 2) * sp.exp(-r / 2)


def g_student_t(d: int, v: sp.Expr | float) -> sp.Expr:
    """Example 4.2: g(r) = Γ((v+d)/2)/Γ(v/2) (vπ)^{-d/2} (1 + r/v)^{-(v+d)/2}, v > 2."""
    d = positive_int(d, "d")
    if not isinstance(v, sp.Basic):
        v = sp.nsimplify(check_student_t_dof(v))
    return (sp.gamma((v + d) / 2) / sp.gamma(v / 2) * (v * sp.pi) ** sp.Rational(-d, 2)
            * (1 + r / v) ** (-(v + d) / 2))


def g_power_exponential(d: int, beta: sp.Expr | float) -> sp.Expr:
    """Symmetric multivariate power-exponential (Kotz type) generator, one of the families that
    Example 4.2 lists after [30, Sec. 6]: g(r) = c_d(β) exp(−r^β / 2), with c_d fixed by i):
    c_d(β) = β Γ(d/2) / (π^{d/2} Γ(d/(2β)) 2^{d/(2β)}). β = 1 is the Gaussian."""
    d = positive_int(d, "d")
    if not isinstance(beta, sp.Basic):
        if not float(beta) > 0:
            raise ValueError(f"beta must be > 0, got {beta}")
        beta = sp.nsimplify(beta)
    c = beta * sp.gamma(sp.Rational(d, 2)) / (
        sp.pi ** sp.Rational(d, 2) * sp.gamma(d / (2 * beta)) * 2 ** (d / (2 * beta)))
    return c * sp.exp(-r ** beta / 2)


def radial_moment(g: sp.Expr, d: int, k: sp.Expr) -> sp.Expr:
    """π^{d/2}/Γ(d/2) ∫_0^∞ r^{d/2 − 1 + k} g(r) dr = ∫_{R^d} ‖y‖^{2k} g(‖y‖²) dy (polar coordinates)."""
    d = positive_int(d, "d")
    integral = sp.integrate(r ** (sp.Rational(d, 2) - 1 + k) * g, (r, 0, sp.oo), conds="none")
    return sp.gammasimp(sp.pi ** sp.Rational(d, 2) / sp.gamma(sp.Rational(d, 2)) * integral)


def normalization(g: sp.Expr, d: int) -> sp.Expr:
    """∫_{R^d} g(‖y‖²) dy; condition i) of Section 4.2 says it equals 1."""
    return sp.simplify(radial_moment(g, d, 0))


def kappa_g(g: sp.Expr, d: int) -> sp.Expr:
    """κ_g = (1/d) ∫ ‖y‖² g(‖y‖²) dy (Example 4.2), exactly, by sympy integration."""
    return sp.simplify(radial_moment(g, d, 1) / d)


def kappa_power_exponential(d: int, beta) -> sp.Expr:
    """Closed form of κ_g for the power-exponential family: 2^{1/β} Γ((d+2)/(2β)) / (d Γ(d/(2β)))."""
    d = positive_int(d, "d")
    beta = beta if isinstance(beta, sp.Basic) else sp.nsimplify(beta)
    return 2 ** (1 / beta) * sp.gamma(sp.Rational(d + 2, 2) / beta) / (d * sp.gamma(sp.Rational(d, 2) / beta))


def kappa_logistic(d: int) -> float:
    """κ_g for the multivariate logistic generator g(r) ∝ e^{−r}/(1 + e^{−r})² ([30, Sec. 6]).

    With ∫_0^∞ r^{s−1} e^{−r}/(1+e^{−r})² dr = Γ(s) η(s−1) (η the Dirichlet eta function),
    κ_g = η(d/2) / (2 η(d/2 − 1)); e.g. κ_g = ln 2 in d = 2."""
    d = positive_int(d, "d")
    return float(mpmath.altzeta(d / 2) / (2 * mpmath.altzeta(d / 2 - 1)))


def kappa_logistic_quadrature(d: int) -> float:
    """The same κ_g by adaptive quadrature of the radial integrals (mpmath, 30 digits)."""
    d = positive_int(d, "d")
    with mpmath.workdps(30):
        g = lambda x: mpmath.exp(-x) / (1 + mpmath.exp(-x)) ** 2  # noqa: E731
        num = mpmath.quad(lambda x: x ** (d / 2) * g(x), [0, 1, mpmath.inf])
        den = mpmath.quad(lambda x: x ** (d / 2 - 1) * g(x), [0, 1, mpmath.inf])
        return float(num / den / d)


# ------------------------------------------------------------------ sampling E(m, Σ, g)


def sample_elliptical(family: str, m, Sigma, N: int, rng: np.random.Generator,
                      v: float | None = None) -> np.ndarray:
    """N i.i.d. samples (rows) of E(m, Σ, g) for family 'gaussian' or 'student_t' (dof v > 2).

    Stochastic representation X = m + L Z / sqrt(W/v), LLᵀ = Σ, Z ~ N(0, I), W ~ χ²_v (W/v ≡ 1 for
    the Gaussian), so that Cov X = κ_g Σ."""
    m = np.asarray(m, dtype=np.float64)
    if m.ndim != 1 or not np.all(np.isfinite(m)):
        raise ValueError(f"m must be a finite vector, got shape {m.shape}")
    Sigma = check_spd(Sigma, "Sigma", m.size)
    N = positive_int(N, "N")
    L = np.linalg.cholesky(Sigma)
    Z = rng.standard_normal((N, m.size))
    if family == "gaussian":
        scale = np.ones((N, 1))
    elif family == "student_t":
        v = check_student_t_dof(v)
        scale = np.sqrt(rng.chisquare(v, size=(N, 1)) / v)
    else:
        raise ValueError(f"family must be 'gaussian' or 'student_t', got {family!r}")
    return m + (Z / scale) @ L.T


def kappa_value(family: str, v: float | None = None) -> float:
    """κ_g as a float for the sampled families (Example 4.2)."""
    if family == "gaussian":
        return 1.0
    if family == "student_t":
        v = check_student_t_dof(v)
        return v / (v - 2)
    raise ValueError(f"family must be 'gaussian' or 'student_t', got {family!r}")


# ------------------------------------------------------------------ the moment ODEs (25)-(27)


Damping = Callable[[float], float]


def _damping(alpha) -> Damping:
    if callable(alpha):
        return alpha
    a = float(alpha)
    if not np.isfinite(a) or a < 0:
        raise ValueError(f"alpha must be a non-negative damping (Proposition 4.1), got {alpha}")
    return lambda t: a


def C_matrix(m, Sigma, P, A, kappa: float) -> np.ndarray:
    """C_t = P_t (κ_g Σ_t + m_t m_tᵀ) A (Proposition 4.3)."""
    return P @ (kappa * Sigma + np.outer(m, m)) @ A


def rhs_25_26(t: float, m, Sigma, P, A, V, kappa: float, alpha: Damping):
    """Right-hand sides (ṁ, Σ̇, Ṗ) of (25)-(26)."""
    C = C_matrix(m, Sigma, P, A, kappa)
    return C @ m, Sigma @ C.T + C @ Sigma, -alpha(t) * P - (C.T @ P + P @ C) + V


def rhs_27(t: float, Sigma, P, A, V, kappa: float, alpha: Damping):
    """Right-hand sides (Σ̇, Ṗ) of Corollary 4.4, as printed."""
    S_dot = kappa * (Sigma @ A @ Sigma @ P + P @ Sigma @ A @ Sigma)
    P_dot = -alpha(t) * P - kappa * (A @ Sigma @ P @ P + P @ P @ Sigma @ A) + V
    return S_dot, P_dot


@dataclass(frozen=True)
class MomentPath:
    """Solution of (25)-(26) (or (27)) on the grid t: m (T×d), Sigma and P (T×d×d)."""

    t: np.ndarray
    m: np.ndarray
    Sigma: np.ndarray
    P: np.ndarray
    kappa: float

    @property
    def covariance(self) -> np.ndarray:
        """Cov ρ_t = κ_g Σ_t (Example 4.2)."""
        return self.kappa * self.Sigma

    @property
    def second_moment(self) -> np.ndarray:
        """E_{ρ_t}[x xᵀ] = κ_g Σ_t + m_t m_tᵀ."""
        return self.covariance + np.einsum("ti,tj->tij", self.m, self.m)


def _inputs(A, V, Sigma0, d: int):
    A = check_spd(A, "A", d)  # Section 4 assumes A symmetric positive definite
    V = check_symmetric(V, "V", d)  # F^lin needs V symmetric
    Sigma0 = check_spd(Sigma0, "Sigma0", d)
    return A, V, Sigma0


def _grid(t_eval, t0: float) -> np.ndarray:
    t_eval = np.asarray(t_eval, dtype=np.float64)
    if t_eval.ndim != 1 or t_eval.size < 1 or np.any(np.diff(t_eval) <= 0) or t_eval[0] < t0 \
            or t_eval[-1] <= t0:
        raise ValueError("t_eval must be an increasing 1-D grid in [t0, ∞) ending after t0")
    return t_eval


def solve_25_26(m0, Sigma0, A, V, kappa: float, alpha, t_eval, t0: float = 0.0,
                rtol: float = 1e-11, atol: float = 1e-13) -> MomentPath:
    """Solve Proposition 4.3's (25)-(26) from (m_0, Σ_0, P_{t0} = 0) with scipy's DOP853."""
    m0 = np.asarray(m0, dtype=np.float64)
    if m0.ndim != 1 or not np.all(np.isfinite(m0)):
        raise ValueError(f"m0 must be a finite vector, got shape {m0.shape}")
    d = m0.size
    A, V, Sigma0 = _inputs(A, V, Sigma0, d)
    if not kappa > 0:
        raise ValueError(f"kappa must be > 0, got {kappa}")
    alpha = _damping(alpha)
    t_eval = _grid(t_eval, t0)

    def f(t, z):
        m, S, P = z[:d], z[d:d + d * d].reshape(d, d), z[d + d * d:].reshape(d, d)
        dm, dS, dP = rhs_25_26(t, m, S, P, A, V, kappa, alpha)
        return np.concatenate([dm, dS.ravel(), dP.ravel()])

    z0 = np.concatenate([m0, Sigma0.ravel(), np.zeros(d * d)])
    sol = solve_ivp(f, (t0, t_eval[-1]), z0, method="DOP853", t_eval=t_eval, rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(f"solve_ivp failed on (25)-(26): {sol.message}")
    Z = sol.y.T
    return MomentPath(t_eval, Z[:, :d], Z[:, d:d + d * d].reshape(-1, d, d),
                      Z[:, d + d * d:].reshape(-1, d, d), float(kappa))


def solve_27(Sigma0, A, V, kappa: float, alpha, t_eval, t0: float = 0.0,
             rtol: float = 1e-11, atol: float = 1e-13) -> MomentPath:
    """Solve Corollary 4.4's (27) from (Σ_0, P_{t0} = 0); m_t ≡ 0."""
    Sigma0 = np.asarray(Sigma0, dtype=np.float64)
    d = Sigma0.shape[0] if Sigma0.ndim == 2 else -1
    A, V, Sigma0 = _inputs(A, V, Sigma0, d if d > 0 else None)
    if not kappa > 0:
        raise ValueError(f"kappa must be > 0, got {kappa}")
    alpha = _damping(alpha)
    t_eval = _grid(t_eval, t0)

    def f(t, z):
        S, P = z[:d * d].reshape(d, d), z[d * d:].reshape(d, d)
        dS, dP = rhs_27(t, S, P, A, V, kappa, alpha)
        return np.concatenate([dS.ravel(), dP.ravel()])

    z0 = np.concatenate([Sigma0.ravel(), np.zeros(d * d)])
    sol = solve_ivp(f, (t0, t_eval[-1]), z0, method="DOP853", t_eval=t_eval, rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(f"solve_ivp failed on (27): {sol.message}")
    Z = sol.y.T
    return MomentPath(t_eval, np.zeros((t_eval.size, d)), Z[:, :d * d].reshape(-1, d, d),
                      Z[:, d * d:].reshape(-1, d, d), float(kappa))


# ------------------------------------------------------------------ exact (sympy) reduction 4.3 → 4.4


def corollary_4_4_residual_sym(d: int = 2) -> tuple[sp.Matrix, sp.Matrix]:
    """(25)-(26) with m = 0 minus (27), for generic symmetric A, V, Σ, P of size d and symbolic κ_g:
    both residual matrices are identically zero iff Corollary 4.4 follows from Proposition 4.3."""
    d = positive_int(d, "d")

    def sym_matrix(name):
        return sp.Matrix(d, d, lambda i, j: sp.Symbol(f"{name}{min(i, j)}{max(i, j)}"))

    A, V, S, P = (sym_matrix(n) for n in ("a", "v", "s", "p"))
    kappa, alpha = sp.symbols("kappa alpha", positive=True)
    zero = sp.zeros(d, 1)
    C = P * (kappa * S + zero * zero.T) * A
    S_dot_43, P_dot_43 = S * C.T + C * S, -alpha * P - (C.T * P + P * C) + V
    S_dot_44 = kappa * (S * A * S * P + P * S * A * S)
    P_dot_44 = -alpha * P - kappa * (A * S * P ** 2 + P ** 2 * S * A) + V
    return (S_dot_43 - S_dot_44).applyfunc(sp.expand), (P_dot_43 - P_dot_44).applyfunc(sp.expand)

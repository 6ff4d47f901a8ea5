"""Damping schedules and the scalar coefficients of the time discretizations of seed 000, §2.

Setting (seed 000, eq. (4)): the linearly damped Hamiltonian system

    ẋ = ∇_p H(x, p),        ṗ = −α(t) p − ∇_x H(x, p),

with a damping schedule α(t) > 0. Every schedule of the paper is of the form

    α(t) = r/t + m          (r, m ≥ 0)

    constant      α ≡ μ        (r = 0, m = μ)      η(t) = μ (t − t₀)
    nesterov      α = 3/t      (r = 3, m = 0)      η(t) = 3 ln(t/t₀)        (eq. (2)-(3))
    power         α = r/t      (m = 0)
    log-linear    α = r/t + m                       (§6.1, Algorithm 1: η = c_log ln t + c_lin t)

η(t) = ∫_{t₀}^t α(s) ds (§2, "Time discretizations"), and on a grid t_{k+1} = t_k + h_k

    Δη_k = η(t_{k+1}) − η(t_k) = r ln(t_{k+1}/t_k) + m h_k,        σ_k = exp(−Δη_k).

The exponential-Euler weight is the variation-of-constants integral of ṗ = −α p − g with the
force g frozen on [t_k, t_{k+1}]:

    p(t_{k+1}) = σ_k p(t_k) − w_k g,      w_k = ∫_{t_k}^{t_{k+1}} exp(−∫_s^{t_{k+1}} α(z) dz) ds.

Closed forms (derived with sympy in `exp_euler_weight_sym`):

    r = 0:     w_k = (1 − e^{−m h})/m                         (= h when m = 0)
    m = 0:     w_k = (t_{k+1}^{r+1} − t_k^{r+1}) / ((r+1) t_{k+1}^r)
    general:   w_k = W(t_{k+1}) − σ_k W(t_k),   W(t) = ∫_0^t (s/t)^r e^{−m(t−s)} ds
                                                     = t ₁F₁(1; r+2; −m t)/(r+1)
               (evaluated by Gauss–Legendre when t_k ≥ h, where the difference cancels)

The paper prints (16) with the weight h ∫_0^h exp(−∫_s^h α) ds (an extra factor h and the
integral over [0, h] instead of [t_k, t_{k+1}]); `exp_euler_weight_printed` keeps that form so
the ledger can compare both (claim `sympformer:eq-16`).

Functions taking `xp` evaluate with any array namespace offering `exp`, `log`, `expm1`
(numpy by default; `torch` works and keeps gradients, without this module importing torch).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp
from scipy import special
from theory.checks import nonnegative as _nonnegative
from theory.checks import positive as _positive

# ------------------------------------------------------------------ validation


# ------------------------------------------------------------------ damping schedules

SCHEDULES = ("constant", "nesterov", "power", "log-linear")


@dataclass(frozen=True)
class Damping:
    """The damping schedule α(t) = r/t + m of seed 000 §2 (construct with `damping(kind, ...)`)."""

    kind: str
    r: float
    m: float

    def __post_init__(self):
        if self.kind not in SCHEDULES:
            raise ValueError(f"kind: unknown damping schedule {self.kind!r}; known: {SCHEDULES}")
        _nonnegative(self.r, "r")
        _nonnegative(self.m, "m")

    @property
    def singular_at_zero(self) -> bool:
        """α(t) = r/t + m blows up at t = 0 unless r = 0: then t₀ > 0 is required."""
        return self.r > 0

    def _check_time(self, t, name: str = "t") -> float:
        t = _nonnegative(t, name)
        if self.singular_at_zero and t == 0:
            raise ValueError(f"{name} must be > 0 for the schedule α(t) = {self.r:g}/t + {self.m:g}")
        return t

    def alpha(self, t) -> float:
        """α(t) (seed 000 eq. (3) for `nesterov`, §6.1 for `log-linear`)."""
        t = self._check_time(t)
        return self.m + (self.r / t if self.r else 0.0)

    def delta_eta(self, t_k, h, xp: Any = np) -> Any:
        """Δη_k = ∫_{t_k}^{t_k+h} α = r ln(1 + h/t_k) + m h.

        With the default `xp=np`, h must be a positive float; with another namespace (torch) h
        may be a tensor (a learned step size) and the result keeps its gradient.
        """
        t_k = self._check_time(t_k, "t_k")
        if xp is np:
            h = _positive(h, "h")
            return (self.r * math.log1p(h / t_k) if self.r else 0.0) + self.m * h
        return (self.r * xp.log1p(h / t_k) if self.r else 0.0) + self.m * h

    def eta(self, t, t0) -> float:
        """η(t) = ∫_{t₀}^t α(s) ds (seed 000 §2: η(t) = μ t for α ≡ μ, t₀ = 0; 3 ln(t/t₀) for 3/t)."""
        t0 = self._check_time(t0, "t0")
        t = self._check_time(t)
        if t < t0:
            raise ValueError(f"t must be >= t0 = {t0}, got {t}")
        return (self.r * math.log(t / t0) if self.r else 0.0) + self.m * (t - t0)

    def sigma(self, t_k, h, xp: Any = np) -> Any:
        """σ_k = exp(−∫_{t_k}^{t_k+h} α(s) ds), the discrete damping of seed 000 §2."""
        d = self.delta_eta(t_k, h, xp)
        return math.exp(-d) if xp is np else xp.exp(-d)

    def weight(self, t_k, h) -> float:
        """w_k = ∫_{t_k}^{t_k+h} exp(−∫_s^{t_k+h} α) ds: the exact exponential-Euler weight."""
        t_k = self._check_time(t_k, "t_k")
        h = _positive(h, "h")
        return exp_euler_weight(self.r, self.m, t_k, h)

    def weight_printed(self, h) -> float:
        """The weight printed in seed 000 eq. (16): h ∫_0^h exp(−∫_s^h α(z) dz) ds."""
        return h * exp_euler_weight(self.r, self.m, 0.0, _positive(h, "h"))

    def weight_text(self, h) -> float:
        """The weight stated in the text after (16): ∫_0^h exp(−∫_s^h α) ds (h/(r+1), (1−e^{−mh})/m)."""
        return exp_euler_weight(self.r, self.m, 0.0, _positive(h, "h"))


def damping(kind: str, *, mu: float | None = None, r: float | None = None,
            m: float | None = None) -> Damping:
    """Build a schedule by name: constant(mu), nesterov (3/t), power(r) = r/t, log-linear(r, m)."""
    if kind == "constant":
        return Damping(kind, 0.0, _positive(_required(mu, "mu"), "mu"))
    if kind == "nesterov":
        return Damping(kind, 3.0, 0.0)
    if kind == "power":
        return Damping(kind, _positive(_required(r, "r"), "r"), 0.0)
    if kind == "log-linear":
        return Damping(kind, _positive(_required(r, "r"), "r"), _positive(_required(m, "m"), "m"))
    raise ValueError(f"kind: unknown damping schedule {kind!r}; known: {SCHEDULES}")


def _required(value, name: str):
    if value is None:
        raise ValueError(f"{name} is required for this damping schedule")
    return value


# ------------------------------------------------------------------ exponential-Euler weight


def primitive_weight(r: float, m: float, t: float) -> float:
    """W(t) = ∫_0^t (s/t)^r e^{−m(t−s)} ds = t ₁F₁(1; r+2; −m t)/(r+1) (seed 000, text after (16))."""
    if t == 0:
        return 0.0
    if m == 0:
        return t / (r + 1.0)
    return t * special.hyp1f1(1.0, r + 2.0, -m * t) / (r + 1.0)


_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(24)


def exp_euler_weight(r: float, m: float, t_k: float, h: float) -> float:
    """w = ∫_{t_k}^{t_k+h} (s/(t_k+h))^r e^{−m(t_k+h−s)} ds for α(s) = r/s + m, to float64 precision.

    r = 0: −expm1(−m h)/m; m = 0: the power formula written with expm1/log1p; t_k = 0: W(h)
    (the ₁F₁ form). For r, m > 0 and t_k > 0 the ₁F₁ difference W(t_{k+1}) − σ_k W(t_k) loses
    about log10(t_k/h) digits, so when t_k ≥ h the integral of the analytic integrand is taken by
    24-point Gauss–Legendre instead: the nearest singularity (s = 0) lies ≥ 3 half-lengths from
    the midpoint, so the rule's error is below (3 + √8)^{−48} relative.
    """
    r, m = _nonnegative(r, "r"), _nonnegative(m, "m")
    t_k, h = _nonnegative(t_k, "t_k"), _positive(h, "h")
    t1 = t_k + h
    if r == 0:
        return h if m == 0 else -math.expm1(-m * h) / m
    if t_k == 0:
        return primitive_weight(r, m, h)
    if m == 0:
        # (t1^{r+1} − t_k^{r+1}) / ((r+1) t1^r) = t1 (1 − (t_k/t1)^{r+1})/(r+1)
        return -t1 * math.expm1((r + 1.0) * math.log1p(-h / t1)) / (r + 1.0)
    if t_k >= h:
        s = t_k + 0.5 * h * (1.0 + _GL_NODES)
        return float(0.5 * h * np.sum(_GL_WEIGHTS * np.exp(r * np.log(s / t1) - m * (t1 - s))))
    sigma = math.exp(-(r * math.log1p(h / t_k) + m * h))
    return primitive_weight(r, m, t1) - sigma * primitive_weight(r, m, t_k)


def exp_euler_weight_sym(kind: str) -> dict[str, sp.Expr]:
    """The exponential-Euler weight derived with sympy, for a general start time t_k.

    Returns {'integral': the sympy result of ∫_{t_k}^{t_k+h} exp(−∫_s^{t_k+h} α) ds,
    'closed_form': the closed form quoted in this module, 'at_zero': its value at t_k = 0},
    with positive symbols t_k, h, r, m (μ is called m for `constant`).
    `log-linear` returns the ₁F₁ form; its integral is checked by `primitive_weight_ode_residual`.
    """
    t_k, h, s, z = sp.symbols("t_k h s z", positive=True)
    r, m = sp.symbols("r m", positive=True)
    t1 = t_k + h
    if kind == "constant":
        alpha = m
    elif kind in ("power", "nesterov"):
        alpha = (r if kind == "power" else sp.Integer(3)) / z
    elif kind == "log-linear":
        W = lambda t: t * sp.hyper([1], [r + 2], -m * t) / (r + 1)  # noqa: E731
        closed = W(t1) - (t_k / t1) ** r * sp.exp(-m * h) * W(t_k)
        return {"integral": None, "closed_form": closed, "at_zero": closed.subs(t_k, 0)}
    else:
        raise ValueError(f"kind: unknown damping schedule {kind!r}; known: {SCHEDULES}")
    inner = sp.integrate(alpha, (z, s, t1))
    integral = sp.simplify(sp.integrate(sp.simplify(sp.exp(-inner)), (s, t_k, t1)))
    if kind == "constant":
        closed = (1 - sp.exp(-m * h)) / m
    else:
        rr = r if kind == "power" else sp.Integer(3)
        closed = (t1 ** (rr + 1) - t_k ** (rr + 1)) / ((rr + 1) * t1 ** rr)
    return {"integral": integral, "closed_form": closed,
            "at_zero": sp.simplify(closed.subs(t_k, 0))}


def primitive_weight_ode_residual(order: int = 12) -> sp.Expr:
    """W(t) = t ₁F₁(1; r+2; −m t)/(r+1) solves t W' = t − (r + m t) W, W(0) = 0, whose unique
    solution analytic at 0 is ∫_0^t exp(−∫_s^t (r/z + m) dz) ds (the homogeneous solution
    t^{−r}e^{−mt} is singular there). Returns the Taylor series of the residual
    t W' − t + (r + m t) W up to O(t^order) (exactly zero when the ₁F₁ form is right)."""
    t, r, m = sp.symbols("t r m", positive=True)
    W = sp.series(t * sp.hyper([1], [r + 2], -m * t) / (r + 1), t, 0, order + 1).removeO()
    residual = sp.expand(t * sp.diff(W, t) - t + (r + m * t) * W)
    # truncating W at O(t^{order+1}) leaves residual terms of degree >= order + 1 only
    return sp.simplify(sum(sp.simplify(residual.coeff(t, k)) * t ** k for k in range(order + 1)))


# ------------------------------------------------------------------ Table 4 prefactors

SCHEMES = ("plain-euler", "presymp-euler", "presymp-expeuler")


def zeta_table4(scheme: str, *, h, alpha_t_k=None, delta_eta=None, alpha_eff=None,
                alpha_learned=None, xp: Any = np) -> tuple[Any, Any]:
    """(ζ₁, ζ₂) as PRINTED in seed 000 Table 4, for the update y ← ζ₁ y + h_Y ζ₂ G of Algorithm 1.

    plain-euler        ζ₁ = α (a learned scalar in (0, 1)),  ζ₂ = 1
    presymp-euler      ζ₁ = 1 − α(t_k) h_Y,                  ζ₂ = 1
    presymp-expeuler   ζ₁ = e^{−Δη_k},                       ζ₂ = (1 − e^{−Δη_k}) / α_eff

    The paper does not define α_eff; `zeta_derived` gives what (14)-(16) imply.
    Arguments may be floats or tensors of the namespace `xp` (torch keeps gradients).
    """
    if scheme == "plain-euler":
        return _required(alpha_learned, "alpha_learned"), 1.0
    if scheme == "presymp-euler":
        return 1.0 - _required(alpha_t_k, "alpha_t_k") * h, 1.0
    if scheme == "presymp-expeuler":
        d = _required(delta_eta, "delta_eta")
        return xp.exp(-d), -xp.expm1(-d) / _required(alpha_eff, "alpha_eff")
    raise ValueError(f"scheme: unknown Table 4 scheme {scheme!r}; known: {SCHEMES}")


def zeta_derived(scheme: str, damping_: Damping, t_k: float, h: float,
                 alpha_learned: float | None = None) -> tuple[float, float]:
    """(ζ₁, ζ₂) that the schemes of seed 000 §2 imply for y ← ζ₁ y + h ζ₂ G, G = −∇_x H:

    plain-euler  (14)                    ζ₁ = α_k,   ζ₂ = 1
    presymp-euler (15) p⁺ = σ_k(p + hG)    ζ₁ = σ_k,   ζ₂ = σ_k
    presymp-expeuler (16), exact weight  ζ₁ = σ_k,   ζ₂ = w_k / h
    """
    h = _positive(h, "h")
    if scheme == "plain-euler":
        return _required(alpha_learned, "alpha_learned"), 1.0
    sigma = damping_.sigma(t_k, h)
    if scheme == "presymp-euler":
        return sigma, sigma
    if scheme == "presymp-expeuler":
        return sigma, damping_.weight(t_k, h) / h
    raise ValueError(f"scheme: unknown Table 4 scheme {scheme!r}; known: {SCHEMES}")


# ------------------------------------------------------------------ Adams–Bashforth


def ab2_coefficients(h, h_prev) -> tuple[float, float]:
    """Variable-step AB-2 weights of seed 000 eq. (17):
    y_{k+1} = y_k + h_k (β₀ f_k − β₁ f_{k−1}), β₀ = (2h_{k−1} + h_k)/(2h_{k−1}), β₁ = h_k/(2h_{k−1})."""
    h, h_prev = _positive(h, "h"), _positive(h_prev, "h_prev")
    return (2.0 * h_prev + h) / (2.0 * h_prev), h / (2.0 * h_prev)


def ab2_coefficients_sym() -> dict[str, sp.Expr]:
    """Derive the variable-step AB-2 weights: integrate the linear interpolant of f through
    (t_{k−1}, f_{k−1}), (t_k, f_k) over [t_k, t_k + h_k] and divide by h_k.
    Returns {'beta0', 'beta1'} (so that y_{k+1} = y_k + h_k(β₀ f_k − β₁ f_{k−1}))."""
    t, h, hp, fk, fkm = sp.symbols("t h_k h_km1 f_k f_km1", real=True)
    # t_k = 0, t_{k−1} = −h_{k−1}
    interp = fk + (fk - fkm) * t / hp
    step = sp.integrate(interp, (t, 0, h)) / h
    step = sp.expand(step)
    return {"beta0": sp.simplify(step.coeff(fk)), "beta1": sp.simplify(-step.coeff(fkm))}


def explicit_two_step_max_order() -> dict[str, Any]:
    """Order conditions of the general explicit two-step method
    y_{n+2} + a₁ y_{n+1} + a₀ y_n = h (b₁ f_{n+1} + b₀ f_n):
    the unique order-3 member and the roots of its first characteristic polynomial
    (zero-stable iff all roots in the closed unit disk, simple on the circle; Dahlquist's first
    barrier: order ≤ 2 for zero-stable explicit two-step methods)."""
    a0, a1, b0, b1, x = sp.symbols("a0 a1 b0 b1 x")
    alpha = {0: a0, 1: a1, 2: sp.Integer(1)}
    beta = {0: b0, 1: b1, 2: sp.Integer(0)}
    # C_q = Σ_j (j^q/q!) α_j − Σ_j (j^{q−1}/(q−1)!) β_j,  C_0 = Σ α_j
    conds = [sum(alpha.values())]
    for q in range(1, 4):
        conds.append(sum(sp.Integer(j) ** q / sp.factorial(q) * alpha[j] for j in range(3))
                     - sum(sp.Integer(j) ** (q - 1) / sp.factorial(q - 1) * beta[j]
                           for j in range(3)))
    sol = sp.solve(conds, [a0, a1, b0, b1], dict=True)[0]
    rho = (x ** 2 + a1 * x + a0).subs(sol)
    c4 = (sum(sp.Integer(j) ** 4 / 24 * alpha[j] for j in range(3))
          - sum(sp.Integer(j) ** 3 / 6 * beta[j] for j in range(3))).subs(sol)
    return {"method": sol, "roots": sp.solve(rho, x), "error_constant_order4": c4}


# ------------------------------------------------------------------ Nesterov (2)-(3)


def nesterov_scheme(grad, x0, tau: float, K: int):
    """Yield x^{(k)}, k = 0..K, of the scheme on the left of seed 000 eq. (2), as printed,

        x^{(k+1)} = y^{(k)} − τ∇F(y^{(k)}),   y^{(k+1)} = x^{(k+1)} + (1 − 3/(k+3))(x^{(k+1)} − x^{(k)}),
        x^{(0)} = y^{(0)} = x₀,

    for a gradient `grad` of F (numpy arrays; any shape `grad` maps to itself)."""
    tau = _positive(tau, "tau")
    if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or K < 0:
        raise ValueError(f"K must be an int >= 0, got {K!r}")
    x_prev = np.array(x0, dtype=np.float64)
    if not np.all(np.isfinite(x_prev)):
        raise ValueError("x0 must be finite")
    y = x_prev.copy()
    yield x_prev.copy()
    for k in range(K):
        x = y - tau * grad(y)
        y = x + (1.0 - 3.0 / (k + 3)) * (x - x_prev)
        x_prev = x
        yield x.copy()


def nesterov_modes(lam, tau: float, K: int):
    """`nesterov_scheme` for F(x) = ½λx² (x* = 0) and x₀ = 1, vectorized over the array `lam` of
    curvatures. A convex quadratic is a sum of such modes, so F(x^{(k)}) − F* =
    Σ_i ½λ_i x_k(λ_i)² x_{0,i}²."""
    lam = np.asarray(lam, dtype=np.float64)
    if lam.ndim != 1 or not np.all(np.isfinite(lam)) or np.any(lam < 0):
        raise ValueError("lam must be a 1-D array of finite curvatures >= 0")
    return nesterov_scheme(lambda y: lam * y, np.ones_like(lam), tau, K)


def nesterov_ode_quadratic(lam, t):
    """x(t) of ẍ + (3/t)ẋ + λx = 0, x(0) = 1, ẋ(0) = 0 (seed 000 eq. (2), right):
    x(t) = 2J₁(√λ t)/(√λ t) (Su, Boyd & Candès 2016, §3.2), with x = 1 at √λ t = 0."""
    s = np.sqrt(np.asarray(lam, dtype=np.float64)) * np.asarray(t, dtype=np.float64)
    safe = np.where(s == 0, 1.0, s)
    return np.where(s == 0, 1.0, 2.0 * special.j1(safe) / safe)

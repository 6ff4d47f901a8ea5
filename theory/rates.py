"""Contraction of first-order momentum recurrences on the strongly convex quadratic model.

The sandbox (seed 002, Appendix F.1): F(X) = ½⟨X − X*, H(X − X*)⟩ with μ ≤ λ_i(H) ≤ L, κ = L/μ.
Every method below acts on each eigenmode λ independently; the error e = x − x* and the
velocity v of one mode obey the linearized momentum substep of seed 002 §F.3,

    x̃ = x + a v,      v⁺ = b v − η ∇F(x̃),      x⁺ = x + c v⁺,

i.e. (e⁺, v⁺) = T(λ) (e, v) with

    T(λ) = [[1 − cηλ,  c(b − aηλ)],
            [   −ηλ,      b − aηλ ]],   tr T = α(λ) = 1 + b − (a + c)ηλ,   det T = θ(λ) = b − aηλ,

so e_{ℓ+1} = α(λ) e_ℓ − θ(λ) e_{ℓ−1} (seed 002, the display before Lemma F.2). The members:

    gradient descent (vanilla, F.2)          a = 0, b = 0, c = 1,   η
    heavy ball (Polyak; seed 004 §3.1)        a = 0, c = 1,          (b, η) = (β, γ)
    Nesterov / YuriiFormer (seed 004 eq. (6)) c = 1,                 (a, b, η) = (μ, β, γ)
    triple momentum (seed 002 §A.2)           (a, b, c, η) = (μ, β, ν, γ)

The characteristic polynomial r² − α(λ) r + θ(λ) depends on (a, b, c, η) only through the
*effective coefficients* (b, p, q) = (b, aη, (a + c)η), and so does the filter q_N(λ) started
from v_0 = 0 (its first step is 1 − cηλ = 1 − (q − p)λ). This is why the (μ, β, γ, ν) form
of seed 002 A.2 and the Nesterov form reach the same filters (Corollary F.3 holds with equality).

Worst case over the spectrum. For a real monic quadratic, both roots lie in the closed disk of
radius r iff |θ| ≤ r² and |α| r ≤ r² + θ (Schur–Cohn for r⁻²·p(r w)). For fixed r these are
affine inequalities in λ, so if they hold at λ = μ and λ = L they hold on [μ, L]: the worst
spectral radius of any member of the family is attained at an endpoint. `worst_case_rate`
still scans interior points (and the double-root points) and the tests assert the endpoint
theorem on random members.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence, TypeVar

import numpy as np
import sympy as sp
from scipy.optimize import minimize
from theory.checks import positive as _positive
from theory.checks import positive_int as _positive_int
from theory.checks import real as _finite

# ------------------------------------------------------------------ validation


def _kappa(kappa) -> float:
    """A condition number κ = L/μ ≥ 1 (below 1 no rate formula means anything)."""
    kappa = _finite(kappa, "kappa")
    if kappa < 1:
        raise ValueError(f"kappa must be >= 1 (kappa = L/mu), got {kappa}")
    return kappa


def _unit(value, name: str, upper_open: bool = False) -> float:
    """A momentum coefficient in [0, 1] ([0, 1) when `upper_open`)."""
    value = _finite(value, name)
    if value < 0 or value > 1 or (upper_open and value == 1):
        raise ValueError(f"{name} must lie in [0, 1{')' if upper_open else ']'}, got {value}")
    return value


def _rate(value, name: str) -> float:
    """A contraction factor ρ ∈ [0, 1)."""
    return _unit(value, name, upper_open=True)


def _nonnegative(value, name: str) -> float:
    value = _finite(value, name)
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value


def _interval(mu, L) -> tuple[float, float]:
    mu, L = _finite(mu, "mu"), _finite(L, "L")
    if mu <= 0:
        raise ValueError(f"mu must be > 0 (strong convexity), got {mu}")
    if L < mu:
        raise ValueError(f"L must be >= mu, got L={L} < mu={mu}")
    return mu, L


def _spectrum(lam, name: str = "lam") -> np.ndarray:
    lam = np.asarray(lam, dtype=np.float64)
    if not np.all(np.isfinite(lam)):
        raise ValueError(f"{name} contains NaN or inf")
    return lam


def _depth(N, name: str = "N") -> int:
    if isinstance(N, bool) or not isinstance(N, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(N).__name__}")
    if N < 0:
        raise ValueError(f"{name} must be >= 0, got {N}")
    return int(N)


# ------------------------------------------------------------------ the (a, b, c, η) family


@dataclass(frozen=True)
class Momentum:
    """One member of the linearized momentum family of seed 002 §F.3 (see the module docstring).

    Any finite real (a, b, c, η) defines the recurrence and its spectral radius (the grids and
    the minimax search range over all signs of the effective coefficients); the named methods
    (`gradient_descent`, `heavy_ball`, `nesterov`, `triple_momentum`) restrict their parameters
    to the ranges in which they are those methods."""

    a: float
    b: float
    c: float
    eta: float

    def __post_init__(self):
        for name in ("a", "b", "c", "eta"):
            object.__setattr__(self, name, _finite(getattr(self, name), name))

    @property
    def effective(self) -> tuple[float, float, float]:
        """(b, p, q) = (b, aη, (a + c)η): α(λ) = 1 + b − qλ, θ(λ) = b − pλ."""
        return self.b, self.a * self.eta, (self.a + self.c) * self.eta

    @classmethod
    def from_effective(cls, b: float, p: float, q: float) -> "Momentum":
        """The Nesterov-form (c = 1) member with effective coefficients (b, p, q); needs q ≠ p."""
        eta = _finite(q, "q") - _finite(p, "p")
        if eta == 0:
            raise ValueError("q must differ from p (the step cη = q − p is zero)")
        return cls(a=p / eta, b=b, c=1.0, eta=eta)


def gradient_descent(eta: float) -> Momentum:
    """Vanilla residual step x⁺ = x − η∇F(x) (seed 002 §F.2), step η > 0."""
    return Momentum(a=0.0, b=0.0, c=1.0, eta=_positive(eta, "eta"))


def heavy_ball(beta: float, gamma: float) -> Momentum:
    """Polyak: v⁺ = βv − γ∇f(x), x⁺ = x + v⁺ (seed 004 §3.1; seed 002 §A.1 with μ_k = 0);
    momentum β ∈ [0, 1], step γ > 0."""
    return Momentum(a=0.0, b=_unit(beta, "beta"), c=1.0, eta=_positive(gamma, "gamma"))


def nesterov(mu: float, beta: float, gamma: float) -> Momentum:
    """NAG, (μ, β, γ) form of seed 004 eq. (6): x̃ = x + μv, v⁺ = βv − γ∇f(x̃), x⁺ = x + v⁺;
    lookahead μ ≥ 0, momentum β ∈ [0, 1], step γ > 0."""
    return Momentum(a=_nonnegative(mu, "mu"), b=_unit(beta, "beta"), c=1.0,
                    eta=_positive(gamma, "gamma"))


def triple_momentum(mu: float, beta: float, gamma: float, nu: float) -> Momentum:
    """TMM in the (μ, β, γ, ν) form of seed 002 §A.2: as NAG but x⁺ = x + ν v⁺, with ν > 0
    (ν = softplus(raw), seed 002 App. D.2) and μ, β, γ as `nesterov`."""
    return Momentum(a=_nonnegative(mu, "mu"), b=_unit(beta, "beta"), c=_positive(nu, "nu"),
                    eta=_positive(gamma, "gamma"))


def gd_tuned(mu: float, L: float) -> Momentum:
    """η* = 2/(L + μ) (seed 002, Lemma F.1)."""
    mu, L = _interval(mu, L)
    return gradient_descent(2.0 / (L + mu))


def heavy_ball_tuned(mu: float, L: float) -> Momentum:
    """η = 4/(√L + √μ)², β = ((√L − √μ)/(√L + √μ))² (seed 002, proof of Lemma F.2)."""
    mu, L = _interval(mu, L)
    sL, sm = math.sqrt(L), math.sqrt(mu)
    return heavy_ball(beta=((sL - sm) / (sL + sm)) ** 2, gamma=4.0 / (sL + sm) ** 2)


def nesterov_classical(mu: float, L: float) -> Momentum:
    """Nesterov's constant-momentum tuning: μ = β = (√κ − 1)/(√κ + 1), γ = 1/L (Nesterov 2004,
    scheme 2.2.19), written in the form of seed 004 eq. (6)."""
    mu, L = _interval(mu, L)
    s = math.sqrt(L / mu)
    beta = (s - 1.0) / (s + 1.0)
    return nesterov(mu=beta, beta=beta, gamma=1.0 / L)


def triple_momentum_vsfl(mu: float, L: float) -> tuple[Momentum, float]:
    """The triple momentum method of Van Scoy, Freeman & Lynch (IEEE Control Syst. Lett. 2018):

        ξ⁺ = (1 + β)ξ − βξ⁻ − α∇f(y),   y = (1 + γ)ξ − γξ⁻,   x = (1 + δ)ξ − δξ⁻,
        ρ = 1 − 1/√κ, α = (1 + ρ)/L, β = ρ²/(2 − ρ), γ = ρ²/((1 + ρ)(2 − ρ)), δ = ρ²/(1 − ρ²).

    Its state recurrence is the Nesterov form with lookahead γ, momentum β, step α (ν = 1); the
    third momentum δ only extrapolates the *output* x and does not change the spectrum. Returns
    (the state recurrence as a `Momentum`, δ)."""
    mu, L = _interval(mu, L)
    rho = 1.0 - math.sqrt(mu / L)
    alpha = (1.0 + rho) / L
    beta = rho**2 / (2.0 - rho)
    gamma = rho**2 / ((1.0 + rho) * (2.0 - rho))
    delta = rho**2 / (1.0 - rho**2) if rho < 1 else math.inf
    return nesterov(mu=gamma, beta=beta, gamma=alpha), delta


def rate_vanilla(kappa: float) -> float:
    """(κ − 1)/(κ + 1) (Lemma F.1), κ ≥ 1."""
    kappa = _kappa(kappa)
    return (kappa - 1.0) / (kappa + 1.0)


def rate_momentum(kappa: float) -> float:
    """(√κ − 1)/(√κ + 1) (Lemma F.2; the heavy-ball / Chebyshev rate), κ ≥ 1."""
    s = math.sqrt(_kappa(kappa))
    return (s - 1.0) / (s + 1.0)


def rate_accelerated(kappa: float) -> float:
    """1 − 1/√κ: the quadratic-model spectral radius of classical NAG and of VSFL TMM, κ ≥ 1."""
    return 1.0 - 1.0 / math.sqrt(_kappa(kappa))


# ------------------------------------------------------------------ per-mode matrices and radii


def char_coefficients(m: Momentum, lam) -> tuple[np.ndarray, np.ndarray]:
    """(α(λ), θ(λ)) of r² − α(λ) r + θ(λ) (seed 002 §F.3)."""
    lam = _spectrum(lam)
    b, p, q = m.effective
    return 1.0 + b - q * lam, b - p * lam


def iteration_matrix(m: Momentum, lam) -> np.ndarray:
    """T(λ) acting on (e, v), shape lam.shape + (2, 2)."""
    lam = _spectrum(lam)
    theta = m.b - m.a * m.eta * lam
    T = np.empty(lam.shape + (2, 2))
    T[..., 0, 0] = 1.0 - m.c * m.eta * lam
    T[..., 0, 1] = m.c * theta
    T[..., 1, 0] = -m.eta * lam
    T[..., 1, 1] = theta
    return T


def spectral_radius(m: Momentum, lam) -> np.ndarray:
    """max |r| over the roots of r² − α r + θ, in closed form (no eigen-solver).

    Real roots: (|α| + √(α² − 4θ))/2; complex pair: √θ. The formula is continuous through a
    double root; there its value carries the intrinsic √(rounding) ≈ 1e-8 sensitivity of a
    double root to its coefficients."""
    return root_radius(*char_coefficients(m, lam))


def root_radius(alpha, theta) -> np.ndarray:
    """max |r| over the roots of r² − α r + θ for arrays of real (α, θ) (see `spectral_radius`)."""
    alpha, theta = _spectrum(alpha, "alpha"), _spectrum(theta, "theta")
    disc = alpha**2 - 4.0 * theta
    real = 0.5 * (np.abs(alpha) + np.sqrt(np.maximum(disc, 0.0)))
    return np.where(disc < 0.0, np.sqrt(np.abs(theta)), real)


def family_grid_minimum(mu: float, L: float, n: int = 61) -> tuple[float, tuple[float, float, float]]:
    """min over an n³ grid of effective coefficients (b, pL, qL) in the box [−1, 1] × [−1, 1] ×
    (0, 4] of the worst-case spectral radius over [μ, L] (endpoints, exact by the Schur–Cohn
    argument), and the minimizing (b, p, q). An optimizer-free probe of the Nesterov/TMM family
    around its tuned members (heavy ball: b = ρ², p = 0, qL = 4/(1 + 1/√κ)²): a grid value below
    the heavy-ball rate would refute its optimality; the converse is only sampled."""
    mu, L = _interval(mu, L)
    n = _grid_size(n, "n")
    b, pL, qL = np.meshgrid(np.linspace(-1, 1, n), np.linspace(-1, 1, n),
                            np.linspace(4 / n, 4, n), indexing="ij")
    p, q = pL / L, qL / L
    worst = np.maximum(root_radius(1 + b - q * mu, b - p * mu), root_radius(1 + b - q * L, b - p * L))
    i = np.unravel_index(np.argmin(worst), worst.shape)
    return float(worst[i]), (float(b[i]), float(p[i]), float(q[i]))


def _grid_size(n, name: str = "n_grid") -> int:
    n = _positive_int(n, name)
    if n < 2:
        raise ValueError(f"{name} must be >= 2 (the grid holds both endpoints), got {n}")
    return n


def _spectrum_grid(mu: float, L: float, n: int) -> np.ndarray:
    """The endpoints μ, L followed by n Chebyshev–Lobatto points of [μ, L] (n ≥ 2; the endpoints
    are set exactly, the Lobatto points reach them only up to rounding)."""
    k = np.arange(n)
    return np.concatenate([[mu, L], 0.5 * (mu + L) - 0.5 * (L - mu) * np.cos(np.pi * k / (n - 1))])


def worst_case_rate(m: Momentum, mu: float, L: float, n_interior: int = 256) -> tuple[float, float]:
    """max over λ ∈ [μ, L] of the spectral radius and a maximizing λ.

    Scans the endpoints, the double-root points (α² = 4θ, a quadratic in λ) inside (μ, L), and
    `n_interior` Chebyshev-spaced interior points. By the Schur–Cohn argument of the module
    docstring the maximum is at an endpoint; `n_interior=0` uses only the endpoints."""
    mu, L = _interval(mu, L)
    n_interior = _depth(n_interior, "n_interior")
    b, p, q = m.effective
    # α² − 4θ = q²λ² − (2q(1 + b) − 4p)λ + (1 + b)² − 4b
    roots = np.roots([q * q, -(2 * q * (1 + b) - 4 * p), (1 + b) ** 2 - 4 * b]) if q else []
    double = [r.real for r in np.atleast_1d(roots) if abs(r.imag) < 1e-12 and mu < r.real < L]
    lam = np.concatenate([_spectrum_grid(mu, L, n_interior + 2), double])
    rho = spectral_radius(m, lam)
    i = int(np.argmax(rho))
    return float(rho[i]), float(lam[i])


# ------------------------------------------------------------------ finite depth: filters, powers


def filter_values(m: Momentum, lam, N: int, v0: float = 0.0) -> np.ndarray:
    """q_0(λ), …, q_N(λ): the error of one mode after n layers from (e_0, v_0) = (1, v0).

    Row n is e_n for every λ (seed 002: E_N = q_N(H)E_0; v0 = 0 is the polynomial filter)."""
    N = _depth(N)
    T = iteration_matrix(m, lam)
    state = np.stack(np.broadcast_arrays(np.ones(T.shape[:-2]), _finite(v0, "v0")), axis=-1)
    out = [state[..., 0]]
    for _ in range(N):
        state = np.einsum("...ij,...j->...i", T, state)
        out.append(state[..., 0])
    return np.stack(out)


def power_norms(m: Momentum, lam, N: int) -> np.ndarray:
    """‖T(λ)ⁿ‖₂ for n = 0..N (rows), in the (e, v) coordinates of seed 002 §F.3."""
    N = _depth(N)
    T = iteration_matrix(m, lam)
    P = np.broadcast_to(np.eye(2), T.shape).copy()
    out = [np.linalg.norm(P, ord=2, axis=(-2, -1))]
    for _ in range(N):
        P = T @ P
        out.append(np.linalg.norm(P, ord=2, axis=(-2, -1)))
    return np.stack(out)


def worst_filter(m: Momentum, mu: float, L: float, N: int, n_grid: int = 2049) -> np.ndarray:
    """max over λ ∈ [μ, L] (endpoints + Chebyshev grid) of |q_n(λ)|, n = 0..N (v_0 = 0)."""
    mu, L = _interval(mu, L)
    lam = _spectrum_grid(mu, L, _grid_size(n_grid))
    return np.abs(filter_values(m, lam, N)).max(axis=1)


def heavy_ball_transient(rho: float, N, v0_over_e0: float = 0.0) -> np.ndarray:
    """sup_λ |e_N(λ)| / (ρ^N |e_0|) = 1 + (1 + ρ)N + ρN|v_0/e_0| for tuned heavy ball.

    With U_n = (r₁ⁿ⁺¹ − r₂ⁿ⁺¹)/(r₁ − r₂) and e_{−1} = e_0 − v_0, e_N = (U_N − ρ²U_{N−1}) e_0
    + ρ² U_{N−1} v_0. For r₁,₂ = ρe^{±iφ}, U_n = ρⁿ sin((n+1)φ)/sin φ, |U_n| ≤ (n+1)ρⁿ, so
    |e_N|/ρ^N ≤ (N + 1 + ρN)|e_0| + ρN|v_0|, with equality at φ = π, i.e. λ = L, where α(L) = −2ρ
    and the double root −ρ makes e_N = (−ρ)^N[(1 + (1 + ρ)N)e_0 − ρN v_0]. The bound grows
    linearly in N: no N-independent constant C_mom exists, whatever the initial velocity."""
    rho = _rate(rho, "rho")
    N = _spectrum(N, "N")
    if np.any(N < 0):
        raise ValueError("N must be >= 0 (a depth)")
    return 1.0 + (1.0 + rho) * N + rho * N * abs(_finite(v0_over_e0, "v0_over_e0"))


def _rates_pair(rho_vanilla, rho_mom) -> tuple[float, float]:
    """0 < ρ_mom < ρ_vanilla < 1: the thresholds compare two contraction factors."""
    rho_vanilla, rho_mom = _rate(rho_vanilla, "rho_vanilla"), _finite(rho_mom, "rho_mom")
    if not 0 < rho_mom < rho_vanilla:
        raise ValueError(f"rho_mom must lie in (0, rho_vanilla), got {rho_mom}, {rho_vanilla}")
    return rho_vanilla, rho_mom


def threshold_printed(C_mom: float, rho_vanilla: float, rho_mom: float) -> int:
    """N₀ = max{0, ⌈log C_mom / log(ρ_vanilla/ρ_mom)⌉} (seed 002, Theorem F.4)."""
    C_mom = _finite(C_mom, "C_mom")
    if C_mom <= 0:
        raise ValueError(f"C_mom must be > 0, got {C_mom}")
    rho_vanilla, rho_mom = _rates_pair(rho_vanilla, rho_mom)
    return max(0, math.ceil(math.log(C_mom) / math.log(rho_vanilla / rho_mom)))


def threshold_true(factor: Callable[[np.ndarray], np.ndarray], rho_vanilla: float, rho_mom: float,
                   N_max: int = 100_000) -> int:
    """Smallest N ≥ 1 with factor(n) ρ_mom^n < ρ_vanilla^n for every n ≥ N (up to N_max).

    `factor(n)` is the momentum bound's prefactor at depth n (a constant C_mom, or the sharp
    heavy-ball factor 1 + (1 + ρ)n). Computed in logs: log factor + n log(ρ_mom/ρ_vanilla) < 0."""
    rho_vanilla, rho_mom = _rates_pair(rho_vanilla, rho_mom)
    n = np.arange(_positive_int(N_max, "N_max") + 1, dtype=np.float64)
    below = np.log(factor(n)) + n * math.log(rho_mom / rho_vanilla) < 0
    if not below[-1]:
        raise ValueError(f"N_max: the momentum bound is not below vanilla by depth {N_max}")
    return below_for_good(below[1:])


def below_for_good(below: np.ndarray) -> int:
    """Given below[n − 1] = "the momentum bound is below vanilla at depth n" for n = 1..N, the
    smallest N₀ ≥ 1 with below at every depth n ≥ N₀ (N + 1 if the last depth is not below)."""
    above = np.flatnonzero(~np.asarray(below, dtype=bool))
    return int(above[-1] + 2) if above.size else 1


# ------------------------------------------------------------------ minimax tuning


FAMILIES = ("gd", "heavy_ball", "nesterov", "tmm")


def minimax_tuning(family: str, mu: float, L: float, lookahead_ratio: float | None = None
                   ) -> tuple[Momentum, float]:
    """Numerically minimize the worst-case spectral radius over [μ, L] within a family.

    Works in the effective coefficients (b, p, q) (module docstring): gd has b = p = 0, heavy
    ball p = 0, and nesterov and tmm range over all (b, p, q) (the same set of filters).
    `lookahead_ratio` (nesterov/tmm only) pins p = lookahead_ratio · b/L, i.e. a lookahead μ
    proportional to the momentum, to measure what a genuine lookahead costs. Nelder–Mead from
    the classical tunings, on the endpoint objective (exact by the Schur–Cohn argument)."""
    mu, L = _interval(mu, L)
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    if lookahead_ratio is not None and family not in ("nesterov", "tmm"):
        raise ValueError("lookahead_ratio applies to the nesterov and tmm families only")
    if lookahead_ratio is not None:
        lookahead_ratio = _finite(lookahead_ratio, "lookahead_ratio")
    ends = np.array([mu, L])

    def member(x) -> Momentum:
        if family == "gd":
            return Momentum.from_effective(0.0, 0.0, x[0])
        if family == "heavy_ball":
            return Momentum.from_effective(x[0], 0.0, x[1])
        p = x[2] if lookahead_ratio is None else lookahead_ratio * x[0] / L
        return Momentum.from_effective(x[0], p, x[1])

    def objective(x) -> float:
        return float(spectral_radius(member(x), ends).max())

    hb = heavy_ball_tuned(mu, L).effective
    nag = nesterov_classical(mu, L).effective
    if family == "gd":
        starts = [[2.0 / (L + mu)], [1.0 / L]]
    elif family == "heavy_ball" or lookahead_ratio is not None:
        starts = [[hb[0], hb[2]], [nag[0], nag[2]]]
    else:
        starts = [[hb[0], hb[2], 0.0], list(nag)]
    best = min((minimize(objective, np.asarray(x0, float), method="Nelder-Mead",
                         options=dict(xatol=1e-13, fatol=1e-15, maxiter=3000, maxfev=6000))
                for x0 in starts), key=lambda r: r.fun)
    return member(best.x), float(best.fun)


def chebyshev_floor(kappa: float, N: int) -> float:
    """min over real polynomials p of degree ≤ N with p(0) = 1 of max_{λ∈[μ,L]} |p(λ)|:
    1/T_N((κ+1)/(κ−1)) = 2rᴺ/(1 + r²ᴺ), r = (√κ − 1)/(√κ + 1). Every filter q_N of the family
    (and of any Krylov method) lies above it."""
    kappa, N = _kappa(kappa), _depth(N)
    r = rate_momentum(kappa)
    return 2 * r**N / (1 + r ** (2 * N))


def chebyshev_momentum(mu: float, L: float, N: int) -> list[Momentum]:
    """The Chebyshev semi-iterative method as N heavy-ball layers with per-layer coefficients:
    from v_0 = 0 its filter is q_N(λ) = T_N(σ(λ))/T_N(σ_0), σ(λ) = (L + μ − 2λ)/(L − μ),
    σ_0 = (L + μ)/(L − μ), so max_λ |q_N| = `chebyshev_floor` ≤ 2ρ^N with ρ = (√κ−1)/(√κ+1)
    (Golub & Varga 1961). Layer 0 is the gradient step 2/(L + μ); layer k ≥ 1 has
    β_k = ω_{k+1} − 1, γ_k = 2ω_{k+1}/(L + μ) with ω_2 = 2σ_0²/(2σ_0² − 1),
    ω_{k+1} = 1/(1 − ω_k/(4σ_0²)) (the three-term recurrence of T_k, without overflow)."""
    mu, L = _interval(mu, L)
    N = _depth(N)
    if L == mu:
        raise ValueError("L must be > mu (a Chebyshev filter needs a spectral interval)")
    s0 = (L + mu) / (L - mu)
    steps, omega = [gradient_descent(2.0 / (L + mu))], 2.0
    for _ in range(1, N):
        omega = 1.0 / (1.0 - omega / (4.0 * s0 * s0))
        steps.append(heavy_ball(beta=omega - 1.0, gamma=2.0 * omega / (L + mu)))
    return steps[:N]


def depth_tuning(mu: float, L: float, N: int, n_grid: int = 513) -> tuple[Momentum, float]:
    """Minimize the finite-depth worst case max_λ |q_N(λ)| (v_0 = 0) over all (b, p, q), i.e. the
    whole Nesterov/TMM family, on endpoints + a Chebyshev grid; Nelder–Mead from the classical
    tunings. This is the best a momentum stream can do at depth N with constant coefficients."""
    mu, L = _interval(mu, L)
    N = _depth(N)
    lam = _spectrum_grid(mu, L, _grid_size(n_grid))

    def objective(x) -> float:
        if x[2] == x[1]:
            return np.inf
        return float(np.abs(filter_values(Momentum.from_effective(*x), lam, N)[-1]).max())

    starts = [heavy_ball_tuned(mu, L).effective, nesterov_classical(mu, L).effective,
              (0.0, 0.0, 2.0 / (L + mu))]
    best = min((minimize(objective, np.asarray(x0, float), method="Nelder-Mead",
                         options=dict(xatol=1e-12, fatol=1e-14, maxiter=5000))
                for x0 in starts), key=lambda r: r.fun)
    return Momentum.from_effective(*best.x), float(best.fun)


# ------------------------------------------------------------------ trajectories on an oracle

V = TypeVar("V")


def run_momentum(grad: Callable[[V], V], x0: V, steps: Sequence[Momentum] | Iterable[Momentum],
                 v0: V | None = None) -> list[V]:
    """Iterates x_0, x_1, … of x̃ = x + a v, v⁺ = b v − η∇f(x̃), x⁺ = x + c v⁺, one `Momentum`
    per step (time-varying schedules allowed). Generic over the vector type: numpy arrays, floats,
    or PEPit points (only +, − and scalar products are used). v_0 = 0 unless given."""
    x = x0
    v = 0 * x0 if v0 is None else v0
    xs = [x]
    for m in steps:
        if not isinstance(m, Momentum):
            raise TypeError(f"steps must hold Momentum members, got {type(m).__name__}")
        v = m.b * v - m.eta * grad(x + m.a * v)
        x = x + m.c * v
        xs.append(x)
    return xs


def nesterov_convex_schedule(L: float, N: int) -> list[Momentum]:
    """NAG for L-smooth convex f in the form of seed 004 eq. (6): μ_t = β_t = (t − 1)/(t + 2),
    γ_t = 1/L (Su, Boyd & Candès 2016, eq. (1); v_0 = 0 makes t = 0 plain gradient descent).
    Guarantee: f(x_t) − f* ≤ 2L‖x_0 − x*‖²/(t + 1)² (ibid., Theorem 1 with s = 1/L)."""
    L = _positive(L, "L")
    return [nesterov(mu=m, beta=m, gamma=1.0 / L)
            for m in ((t - 1.0) / (t + 2.0) if t else 0.0 for t in range(_depth(N)))]


def lessard_gradient(x, mu: float = 1.0, L: float = 25.0):
    """∇f of the one-dimensional L-smooth μ-strongly convex counterexample of Lessard, Recht &
    Packard (SIAM J. Optim. 2016, §4.6): slope L on x < 1, μ on [1, 2), L on x ≥ 2, continuous."""
    mu, L = _interval(mu, L)
    x = np.asarray(x, dtype=np.float64)
    return np.where(x < 1, L * x, np.where(x < 2, mu * x + (L - mu), L * x - (L - mu)))


# ------------------------------------------------------------------ sympy: the algebraic steps


def lemma_f1_symbolic() -> dict[str, sp.Expr]:
    """Solve 1 − ημ = −(1 − ηL) for η and substitute (seed 002, proof of Lemma F.1)."""
    eta, mu, L = sp.symbols("eta mu L", positive=True)
    eta_star = sp.solve(sp.Eq(1 - eta * mu, -(1 - eta * L)), eta)[0]
    kappa = L / mu
    rho = sp.simplify(1 - eta_star * mu)
    return {"eta_star": eta_star, "rho": rho,
            "rho_minus_printed": sp.simplify(rho - (kappa - 1) / (kappa + 1))}


def rate_gap_symbolic() -> dict[str, sp.Expr]:
    """ρ_vanilla − ρ_mom with s = √κ, and its difference from the printed 2s(s−1)/((s²+1)(s+1))."""
    s = sp.symbols("s", positive=True)
    gap = (s**2 - 1) / (s**2 + 1) - (s - 1) / (s + 1)
    printed = 2 * s * (s - 1) / ((s**2 + 1) * (s + 1))
    return {"gap": sp.factor(gap), "gap_minus_printed": sp.simplify(gap - printed)}


def heavy_ball_charpoly_symbolic() -> dict[str, sp.Expr]:
    """det(rI − T(λ)) for heavy ball, the printed polynomial, and the tuned discriminant at μ, L."""
    r, lam, beta, eta, mu, L = sp.symbols("r lambda beta eta mu L", positive=True)
    T = sp.Matrix([[1 - eta * lam, beta], [-eta * lam, beta]])
    charpoly = sp.expand((r * sp.eye(2) - T).det())
    printed = r**2 - (1 - eta * lam + beta) * r + beta
    tuned = {eta: 4 / (sp.sqrt(L) + sp.sqrt(mu)) ** 2,
             beta: ((sp.sqrt(L) - sp.sqrt(mu)) / (sp.sqrt(L) + sp.sqrt(mu))) ** 2}
    disc = (1 - eta * lam + beta) ** 2 - 4 * beta
    return {"charpoly": charpoly, "charpoly_minus_printed": sp.simplify(charpoly - printed),
            "disc_at_mu": sp.simplify(disc.subs(tuned).subs(lam, mu)),
            "disc_at_L": sp.simplify(disc.subs(tuned).subs(lam, L))}

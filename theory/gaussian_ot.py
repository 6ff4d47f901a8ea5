"""Closed forms for the Gaussian side of seed 003 (Agarwal, Mulcahy, Pal, Harchaoui, slides on
[AHMP24]): same-marginal Schrödinger bridges, barycentric projections, Langevin couplings, the
heat semigroup of Gaussian mixtures, and Wasserstein-2 distances (Bures; exact 1-D quantiles).

Conventions (made explicit because the slides mix factors of 2)
----------------------------------------------------------------
* cost: the entropic problem is  min_{γ∈Π(ρ,ρ)} ∫ κ|x−y|² dγ + ε H(γ | ρ⊗ρ)  with
  ``cost="half_sq"`` (κ = 1/2, the convention of [AHMP24]) or ``cost="sq"`` (κ = 1, the slide
  "Entropic Regularization"). The Sinkformer kernel Sinkhorn(xᵀy/ε) of the slides is the
  ``half_sq`` plan: exp(xᵀy/ε) = exp(−|x−y|²/(2ε))·exp(|x|²/(2ε))·exp(|y|²/(2ε)) and the last two
  factors are absorbed by the Sinkhorn scalings. The plan for (κ, ε) is the ``half_sq`` plan at
  ε' = ε/(2κ) (`effective_eps`).
* heat equation: ∂ₜρ = D Δρ with diffusivity D (the slides print D = 1; the Brownian motion of the
  Langevin SDE gives D = 1/2). Its semigroup adds 2Dt·I to every covariance.
* Langevin SDE for ρ = e^{−g}: dXₜ = s·½∇g(Xₜ)dt + dBₜ with ``drift_sign`` s; s = −1 is the
  diffusion with stationary law ρ, s = +1 is the sign printed on the slide "Result 1".

Everything is float64 numpy; matrices are symmetric positive definite and validated.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp, ndtr
from theory import checks
from theory.checks import positive as _positive

COSTS = {"half_sq": 0.5, "sq": 1.0}

# ------------------------------------------------------------------ validation


def _spd(S, name: str) -> np.ndarray:
    """S (a scalar is a 1×1 matrix) symmetrized, after checking it is SPD."""
    S = checks.spd(np.atleast_2d(np.asarray(S, dtype=np.float64)), name)
    return 0.5 * (S + S.T)


def _drift_sign(s) -> int:
    if s not in (-1, 1):
        raise ValueError(f"drift_sign must be -1 or +1, got {s!r}")
    return int(s)


def cost_kappa(cost: str) -> float:
    """κ of the cost κ|x−y|² (``half_sq`` → 1/2, ``sq`` → 1)."""
    if cost not in COSTS:
        raise ValueError(f"cost must be one of {sorted(COSTS)}, got {cost!r}")
    return COSTS[cost]


def effective_eps(eps: float, cost: str) -> float:
    """ε' with π(κ|x−y|², ε) = π(½|x−y|², ε'): ε' = ε/(2κ)."""
    return _positive(eps, "eps") / (2.0 * cost_kappa(cost))


def sym_fn(S: np.ndarray, fn) -> np.ndarray:
    """fn applied to the eigenvalues of the symmetric matrix S (S^{1/2} with fn = np.sqrt)."""
    lam, U = np.linalg.eigh(S)
    return (U * fn(lam)) @ U.T


# ------------------------------------------------------------------ same-marginal Schrödinger bridge


def sb_cross_covariance(Sigma, eps: float, cost: str = "half_sq") -> np.ndarray:
    """Cross-covariance C = Cov(X, Y) of the same-marginal SB π_{ρ,ε}, ρ = N(m, Σ).

    Derivation (seed 003, slide "Self-attention update via same marginal Schrödinger bridges"):
    π ∝ exp(−|x−y|²/(2ε'))·a(x)a(y)ρ(x)ρ(y) is Gaussian with both marginals N(m, Σ); its
    precision has off-diagonal block −I/ε'. The off-diagonal block of the inverse of
    [[Σ, C], [C, Σ]] is −Σ⁻¹C(Σ − CΣ⁻¹C)⁻¹, so with C a function of Σ:  ε'C = Σ² − C², i.e.

        C = (Σ² + ε'²/4·I)^{1/2} − ε'/2·I,      ε' = ε/(2κ).
    """
    Sigma = _spd(Sigma, "Sigma")
    e = effective_eps(eps, cost)
    return sym_fn(Sigma, lambda s: np.sqrt(s * s + e * e / 4) - e / 2)


def sb_covariance(Sigma, eps: float, cost: str = "half_sq") -> np.ndarray:
    """Joint 2d×2d covariance [[Σ, C], [C, Σ]] of π_{ρ,ε} for ρ = N(m, Σ)."""
    Sigma = _spd(Sigma, "Sigma")
    C = sb_cross_covariance(Sigma, eps, cost)
    return np.block([[Sigma, C], [C.T, Sigma]])


def barycentric_matrix(Sigma, eps: float, cost: str = "half_sq") -> np.ndarray:
    """A with B_{ρ,ε}(x) = E_π[Y | X = x] = m + A(x − m), A = CΣ⁻¹ (= Σ⁻¹C, they commute)."""
    Sigma = _spd(Sigma, "Sigma")
    e = effective_eps(eps, cost)
    return sym_fn(Sigma, lambda s: (np.sqrt(s * s + e * e / 4) - e / 2) / s)


def sb_step_gaussian(Sigma, eps: float, cost: str = "half_sq") -> np.ndarray:
    """Covariance of SB¹_ε(ρ) = (2Id − B_{ρ,ε})#ρ for ρ = N(m, Σ) (the mean is kept)."""
    Sigma = _spd(Sigma, "Sigma")
    M = 2 * np.eye(len(Sigma)) - barycentric_matrix(Sigma, eps, cost)
    return M @ Sigma @ M.T


def euler_step_gaussian(Sigma, eps: float) -> np.ndarray:
    """Covariance of S¹_ε(ρ) = (Id − (ε/2)∇log ρ)#ρ for ρ = N(m, Σ): the map is x ↦ x + (ε/2)Σ⁻¹(x−m)."""
    Sigma = _spd(Sigma, "Sigma")
    M = np.eye(len(Sigma)) + 0.5 * _positive(eps, "eps") * np.linalg.inv(Sigma)
    return M @ Sigma @ M.T


# ------------------------------------------------------------------ Langevin coupling and Result 1


def langevin_coupling_covariance(Sigma, t: float, drift_sign: int = -1) -> np.ndarray:
    """Covariance of 𝒞_{ρ,t} = Law(X₀, X_t), dX = s·½∇g dt + dB, X₀ ~ ρ = N(m, Σ) = e^{−g}.

    With Θ = s·½Σ⁻¹ (an Ornstein-Uhlenbeck process): Cov(X₀, X_t) = Σe^{Θt},
    Cov(X_t) = e^{Θt}Σe^{Θt} + ∫₀ᵗ e^{2Θu}du. For s = −1 the second marginal is Σ again.
    """
    Sigma = _spd(Sigma, "Sigma")
    t = _positive(t, "t")
    s = _drift_sign(drift_sign)
    cross = sym_fn(Sigma, lambda v: v * np.exp(s * t / (2 * v)))
    var_t = sym_fn(Sigma, lambda v: v * np.exp(s * t / v) + v * s * np.expm1(s * t / v))
    return np.block([[Sigma, cross], [cross.T, var_t]])


def jeffreys_gaussian(Sigma1, Sigma2, delta=None) -> float:
    """H(N(0,Σ₁)|N(0,Σ₂)) + H(N(0,Σ₂)|N(0,Σ₁)) = ½ tr(M(I+M)⁻¹M), M = Σ₂⁻¹(Σ₁ − Σ₂).

    The log-determinants cancel in the symmetrized sum; passing the difference `delta` = Σ₁ − Σ₂
    computed without cancellation keeps the result accurate when both are nearly singular.
    """
    Sigma1 = _spd(Sigma1, "Sigma1")
    Sigma2 = _spd(Sigma2, "Sigma2")
    delta = Sigma1 - Sigma2 if delta is None else np.asarray(delta, dtype=np.float64)
    M = np.linalg.solve(Sigma2, delta)
    return float(0.5 * np.trace(M @ np.linalg.solve(np.eye(len(M)) + M, M)))


def _coupling_deviation_1d(v: float, eps: float, cost: str, drift_sign: int):
    """For ρ = N(0, v), the two joint covariances as v·[[1,1],[1,1]] + small part, computed with
    expm1 / rationalized square roots so that their O(ε³) difference is not lost to rounding."""
    e = effective_eps(eps, cost)
    a = e / 2
    c_sb = a * a / (np.sqrt(v * v + a * a) + v) - a                  # C_SB − v
    s = _drift_sign(drift_sign)
    c_l = v * np.expm1(s * eps / (2 * v))                           # C_L − v
    var_l = v * np.expm1(s * eps / v) + v * s * np.expm1(s * eps / v)  # Var(X_ε) − v
    sb = np.array([[0.0, c_sb], [c_sb, 0.0]])
    lang = np.array([[0.0, c_l], [c_l, var_l]])
    return sb, lang


def result1_jeffreys(Sigma, eps: float, cost: str = "half_sq", drift_sign: int = -1) -> float:
    """H(𝒞_{ρ,ε}|π_{ρ,ε}) + H(π_{ρ,ε}|𝒞_{ρ,ε}) for ρ = N(m, Σ) (seed 003, Result 1).

    Both couplings are functions of Σ, so in Σ's eigenbasis the 2d-dimensional problem splits
    into d independent 2×2 problems (one per eigenvalue v) whose Jeffreys divergences add.
    """
    Sigma = _spd(Sigma, "Sigma")
    _positive(eps, "eps")
    total = 0.0
    for v in np.linalg.eigvalsh(Sigma):
        sb, lang = _coupling_deviation_1d(v, eps, cost, drift_sign)
        base = v * np.ones((2, 2))
        total += jeffreys_gaussian(base + lang, base + sb, delta=lang - sb)
    return total


def fisher_information_gaussian(Sigma) -> float:
    """I(ρ) = ∫|∇log ρ|² dρ = tr Σ⁻¹ for ρ = N(m, Σ)."""
    return float(np.trace(np.linalg.inv(_spd(Sigma, "Sigma"))))


# ------------------------------------------------------------------ Wasserstein-2


def w2_gaussian(m1, Sigma1, m2, Sigma2) -> float:
    """W2(N(m₁,Σ₁), N(m₂,Σ₂))² = |m₁−m₂|² + tr Σ₁ + tr Σ₂ − 2 tr(Σ₁^{1/2}Σ₂Σ₁^{1/2})^{1/2}."""
    S1, S2 = _spd(Sigma1, "Sigma1"), _spd(Sigma2, "Sigma2")
    m1, m2 = np.atleast_1d(np.asarray(m1, float)), np.atleast_1d(np.asarray(m2, float))
    if m1.shape != (len(S1),) or m2.shape != (len(S2),) or len(S1) != len(S2):
        raise ValueError(f"m1, m2 must match the covariances' dimension, got {m1.shape}, {m2.shape}")
    r1 = sym_fn(S1, np.sqrt)
    cross = sym_fn(0.5 * (r1 @ S2 @ r1 + (r1 @ S2 @ r1).T), lambda v: np.sqrt(np.clip(v, 0, None)))
    w2sq = np.sum((m1 - m2) ** 2) + np.trace(S1) + np.trace(S2) - 2 * np.trace(cross)
    return float(np.sqrt(max(w2sq, 0.0)))


def _weighted_1d(x, w, name: str):
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} contains NaN or inf")
    if w is None:
        w = np.full(x.shape, 1.0 / len(x))
    w = np.asarray(w, dtype=np.float64).reshape(-1)
    if w.shape != x.shape:
        raise ValueError(f"weights of {name} must have shape {x.shape}, got {w.shape}")
    if np.any(w < 0) or not np.all(np.isfinite(w)) or abs(w.sum() - 1) > 1e-9:
        raise ValueError(f"weights of {name} must be >= 0 and sum to 1, got sum {w.sum()!r}")
    order = np.argsort(x, kind="stable")
    return x[order], w[order]


def w2_1d(x, y, a=None, b=None) -> float:
    """Exact W2 between Σ aᵢδ_{xᵢ} and Σ bⱼδ_{yⱼ} on the line: ∫₀¹ |Q_x(u) − Q_y(u)|² du with the
    (piecewise constant) quantile functions, merged at the union of their breakpoints."""
    x, a = _weighted_1d(x, a, "x")
    y, b = _weighted_1d(y, b, "y")
    ca, cb = np.cumsum(a), np.cumsum(b)
    ca[-1] = cb[-1] = 1.0
    u = np.unique(np.concatenate([[0.0], ca, cb]))
    du, mid = np.diff(u), 0.5 * (u[1:] + u[:-1])
    ix = np.minimum(np.searchsorted(ca, mid), len(x) - 1)
    iy = np.minimum(np.searchsorted(cb, mid), len(y) - 1)
    return float(np.sqrt(np.sum(du * (x[ix] - y[iy]) ** 2)))


# ------------------------------------------------------------------ Gaussian mixtures and heat flow


def _phi(z):
    return np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi)


@dataclass(frozen=True)
class GaussianMixture:
    """ρ = Σ_k w_k N(m_k, Σ_k) on R^d; `weights` (K,), `means` (K, d), `covs` (K, d, d)."""

    weights: np.ndarray
    means: np.ndarray
    covs: np.ndarray

    def __post_init__(self):
        w = np.asarray(self.weights, dtype=np.float64).reshape(-1)
        m = np.asarray(self.means, dtype=np.float64)
        m = m.reshape(len(w), -1)
        c = np.asarray(self.covs, dtype=np.float64).reshape(len(w), m.shape[1], m.shape[1])
        if np.any(w <= 0) or abs(w.sum() - 1) > 1e-12:
            raise ValueError(f"weights must be > 0 and sum to 1, got {w}")
        if not np.all(np.isfinite(m)):
            raise ValueError("means contains NaN or inf")
        for k in range(len(w)):
            _spd(c[k], f"covs[{k}]")
        object.__setattr__(self, "weights", w)
        object.__setattr__(self, "means", m)
        object.__setattr__(self, "covs", c)

    @classmethod
    def one_d(cls, weights, means, variances) -> "GaussianMixture":
        v = np.asarray(variances, dtype=np.float64).reshape(-1)
        return cls(weights, np.asarray(means, float).reshape(-1, 1), v.reshape(-1, 1, 1))

    @property
    def dim(self) -> int:
        return self.means.shape[1]

    def _points(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        if self.dim == 1 and (x.ndim == 1 or x.ndim == 0):
            x = x.reshape(-1, 1)
        if x.ndim != 2 or x.shape[1] != self.dim:
            raise ValueError(f"x must have shape (n, {self.dim}), got {x.shape}")
        if not np.all(np.isfinite(x)):
            raise ValueError("x contains NaN or inf")
        return x

    def _component_logpdf(self, x: np.ndarray) -> np.ndarray:
        """log w_k + log N(x; m_k, Σ_k), shape (n, K)."""
        L = np.linalg.cholesky(self.covs)                               # (K, d, d)
        diff = x[:, None, :] - self.means[None]                         # (n, K, d)
        z = np.linalg.solve(L[None], diff[..., None])[..., 0]           # L⁻¹(x − m)
        logdet = 2 * np.log(np.diagonal(L, axis1=1, axis2=2)).sum(-1)
        return (np.log(self.weights) - 0.5 * (z ** 2).sum(-1) - 0.5 * logdet
                - 0.5 * self.dim * np.log(2 * np.pi))

    def logpdf(self, x) -> np.ndarray:
        return logsumexp(self._component_logpdf(self._points(x)), axis=1)

    def score(self, x) -> np.ndarray:
        """∇log ρ(x) = Σ_k r_k(x)·(−Σ_k⁻¹(x − m_k)), r = softmax_k of the component log-densities."""
        x = self._points(x)
        lp = self._component_logpdf(x)
        r = np.exp(lp - logsumexp(lp, axis=1, keepdims=True))          # (n, K)
        grad = -np.linalg.solve(self.covs[None], (x[:, None, :] - self.means[None])[..., None])[..., 0]
        return (r[..., None] * grad).sum(1)

    def heat(self, t: float, diffusivity: float = 0.5) -> "GaussianMixture":
        """e^{tDΔ}ρ: the solution at time t of ∂ₜρ = DΔρ from ρ (covariances + 2Dt·I)."""
        if t == 0:
            return self
        add = 2 * _positive(diffusivity, "diffusivity") * _positive(t, "t")
        return GaussianMixture(self.weights, self.means, self.covs + add * np.eye(self.dim))

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        k = rng.choice(len(self.weights), size=n, p=self.weights)
        L = np.linalg.cholesky(self.covs)
        return self.means[k] + np.einsum("nij,nj->ni", L[k], rng.standard_normal((n, self.dim)))

    # ---- 1-D: cdf, quantile and the exact W2 to a weighted point cloud

    def _sd_1d(self):
        if self.dim != 1:
            raise ValueError(f"this operation needs a 1-D mixture, got dim {self.dim}")
        return self.means[:, 0], np.sqrt(self.covs[:, 0, 0])

    def cdf(self, q) -> np.ndarray:
        m, s = self._sd_1d()
        q = np.asarray(q, dtype=np.float64)
        return (self.weights * ndtr((q[..., None] - m) / s)).sum(-1)

    def quantile(self, u) -> np.ndarray:
        """F⁻¹(u) by bisection to machine precision (F is continuous and increasing)."""
        m, s = self._sd_1d()
        u = np.asarray(u, dtype=np.float64)
        if np.any((u < 0) | (u > 1)):
            raise ValueError("u must lie in [0, 1]")
        lo = np.full(u.shape, (m - 40 * s).min())
        hi = np.full(u.shape, (m + 40 * s).max())
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            below = self.cdf(mid) < u
            lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
            if np.all(hi - lo <= 4 * np.finfo(float).eps * np.maximum(1.0, np.abs(mid))):
                break
        q = 0.5 * (lo + hi)
        return np.where(u <= 0, -np.inf, np.where(u >= 1, np.inf, q))

    def w2_to_points(self, x, weights=None) -> float:
        """Exact W2(Σ aᵢδ_{xᵢ}, ρ) on the line: Σᵢ ∫_{q_{i−1}}^{q_i} (y − xᵢ)² ρ(y) dy with
        q_i = F⁻¹(a₁+…+aᵢ); each Gaussian piece in closed form, written around xᵢ (no cancellation):
        ∫_{z_a}^{z_b} (s z + δ)² φ(z) dz = s²[Φ − zφ] − 2sδ[φ] + δ²[Φ],  δ = m − xᵢ."""
        m, s = self._sd_1d()
        x, a = _weighted_1d(x, weights, "x")
        u = np.concatenate([[0.0], np.cumsum(a)])
        u[-1] = 1.0
        q = self.quantile(u)
        w2sq = 0.0
        for wk, mk, sk in zip(self.weights, m, s):
            z = (q - mk) / sk
            Phi = ndtr(z)
            finite = np.isfinite(z)
            zf = np.where(finite, z, 0.0)
            ph = np.where(finite, _phi(zf), 0.0)        # φ(±∞) = 0 and zφ(z) → 0
            zph = zf * ph
            d = mk - x
            piece = (sk ** 2 * np.diff(Phi - zph) - 2 * sk * d * np.diff(ph) + d ** 2 * np.diff(Phi))
            w2sq += wk * np.sum(piece)
        return float(np.sqrt(max(w2sq, 0.0)))


def monotone_map_w2(x0, Tx0, weights, source: GaussianMixture, target: GaussianMixture) -> float:
    """W2(T#ρ₀, ρ₁) for an increasing map T on the line, by quadrature on weighted nodes (x0, a):

        W2(T#ρ₀, ρ₁)² = ∫ |T(x) − F₁⁻¹(F₀(x))|² dρ₀(x) ≈ Σᵢ aᵢ |T(x0ᵢ) − F₁⁻¹(F₀(x0ᵢ))|²,

    (T#ρ₀ and ρ₁ are coupled by their quantile functions F₁⁻¹∘F₀ and T). With (x0, a) a fine grid
    quadrature of ρ₀ this measures the continuum scheme, free of the O(h) quantization error that
    W2 between the atoms and ρ₁ would add. Nodes where F₀ rounds to 0 or 1 carry no mass.
    """
    x0, a = np.asarray(x0, np.float64).reshape(-1), np.asarray(weights, np.float64).reshape(-1)
    Tx0 = np.asarray(Tx0, np.float64).reshape(-1)
    if not (x0.shape == Tx0.shape == a.shape):
        raise ValueError(f"x0, Tx0, weights must have one shape, got {x0.shape}, {Tx0.shape}, {a.shape}")
    if np.any(np.diff(Tx0[np.argsort(x0)]) < 0):
        raise ValueError("Tx0: the map is not increasing on the nodes")
    u = source.cdf(x0)
    inside = (u > 0) & (u < 1)
    M = target.quantile(u[inside])
    return float(np.sqrt(np.sum(a[inside] * (Tx0[inside] - M) ** 2)))

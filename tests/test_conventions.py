"""The conventions and weights the claims rest on, each against a literal formula or a second,
independent computation written out here (no toolkit helper on the reference side), in seconds.

A wrong convention of this kind (a weight right only for equal steps, a factor 2 in ε, a transposed
block, a mask that sees one token ahead) leaves most properties intact; these tests pin the
numbers themselves. tools/mutation.py checks that each such mutant fails here.
"""
import math

import numpy as np
import pytest
import torch
from scipy.integrate import quad

from claims.sympformer.schemes import one_step_exactness
from particles import attention as att
from particles import integrators as I
from particles import sinkhorn as sk
from particles.sympnet import (CayleyAttention, GradientLayer, cayley, correlation, lambda_tilde,
                               phi_skew)
from theory import gaussian_ot as go
from theory import rates as R
from theory import schemes as S
from theory.symplectic import canonical_J

F64 = torch.float64


def t64(a):
    return torch.as_tensor(np.asarray(a, dtype=np.float64))


def rng(seed):
    return np.random.default_rng(seed)


# ------------------------------------------------------------------ AB-2 / ETD-AB2 (seed 000 eq. (17))

# (h_k, h_{k−1}): unequal steps in both directions (equal steps hide a swapped ratio)
STEP_PAIRS = [(0.3, 0.1), (0.05, 0.2), (0.7, 0.35)]


@pytest.mark.parametrize("h, h_prev", STEP_PAIRS)
def test_ab2_weights_are_the_variable_step_weights_of_17(h, h_prev):
    b0, b1 = S.ab2_coefficients(h, h_prev)
    assert b0 == pytest.approx((2 * h_prev + h) / (2 * h_prev), rel=1e-15)
    assert b1 == pytest.approx(h / (2 * h_prev), rel=1e-15)


def test_ab2_and_etd_ab2_steps_are_exact_when_the_right_side_is_linear_in_time():
    """One step from exact history, with unequal steps, on problems whose right side is linear in
    time (the claim's own probe, `claims.sympformer.schemes.one_step_exactness`): AB-2 integrates
    the linear interpolant exactly for any step ratio; ETD-AB2 likewise in P = e^{η}p of (13)."""
    err = one_step_exactness(tuple((h, hp) for h, hp in STEP_PAIRS) + ((0.2, 0.2),))
    assert max(err.values()) < 1e-13, err


# ------------------------------------------------------------------ one-step weights (eqs. (14)-(16))


def alpha_integral(r, m, a, b):
    return quad(lambda s: r / s + m, a, b, epsabs=0, epsrel=1e-13)[0]


# (r, m, t_k, h): r = 0; t_k = 0; m = 0; t_k ≥ h; 0 < t_k < h — every branch of the weight
WEIGHT_CASES = [(0.0, 0.8, 1.0, 0.3), (3.0, 0.5, 0.0, 0.2), (3.0, 0.0, 2.0, 0.1), (2.5, 0.7, 1.3, 0.3),
                (2.5, 0.7, 0.1, 0.4)]


def frozen_weight(r, m, t_k, h):
    t1 = t_k + h
    return quad(lambda s: (s / t1) ** r * math.exp(-m * (t1 - s)), t_k, t1, epsabs=0, epsrel=1e-13)[0]


@pytest.mark.parametrize("r, m, t_k, h", WEIGHT_CASES)
def test_exponential_euler_weight_is_the_integral_of_16(r, m, t_k, h):
    """w_k = ∫_{t_k}^{t_k+h} exp(−∫_s^{t_k+h} α) ds for α = r/s + m, by scipy quadrature here."""
    assert S.exp_euler_weight(r, m, t_k, h) == pytest.approx(frozen_weight(r, m, t_k, h), rel=1e-12)


@pytest.mark.parametrize("r, m, t_k, h", [case for case in WEIGHT_CASES if case[2] > 0])
def test_exponential_euler_step_is_the_variation_of_constants_of_a_frozen_force(r, m, t_k, h):
    """One step of (16) with ∇_xH ≡ g, ∇_pH ≡ 0 is exactly p⁺ = σ_k p − w_k g, σ_k = exp(−∫α)."""
    damp = S.Damping("power" if m == 0 else ("constant" if r == 0 else "log-linear"), r, m)
    sigma = math.exp(-alpha_integral(r, m, t_k, t_k + h))
    g, p = 0.37, -1.1
    field = I.HamiltonianField(grad_q=lambda q, p_: torch.full_like(q, g),
                               grad_p=lambda q, p_: torch.zeros_like(p_))
    out = I.exponential_euler(t64([0.0]), t64([p]), t_k, h, field, damp)
    assert damp.sigma(t_k, h) == pytest.approx(sigma, rel=1e-13)
    assert float(out.p) == pytest.approx(sigma * p - frozen_weight(r, m, t_k, h) * g, rel=1e-12)


@pytest.mark.parametrize("scheme", ["explicit_euler", "conformal_symplectic_euler", "exponential_euler",
                                    "conformal_symplectic_euler_implicit", "conformal_midpoint"])
@pytest.mark.parametrize("damp", [S.damping("nesterov"), S.damping("log-linear", r=2.0, m=0.3)])
def test_without_forces_every_damping_exact_scheme_multiplies_p_by_sigma_k(scheme, damp):
    """H ≡ 0: p⁺ = σ_k p with σ_k = exp(−∫_{t_k}^{t_k+h} α) (quadrature here) for the schemes that
    integrate the damping exactly; explicit Euler (14) gives 1 − hα(t_k) instead."""
    t, h, p = 1.3, 0.4, t64([0.8, -0.5])
    zero = I.HamiltonianField(lambda q, p_: torch.zeros_like(q), lambda q, p_: torch.zeros_like(p_))
    out = I.get_scheme(scheme)(t64([0.1, 0.2]), p, t, h, zero, damp)
    factor = (1 - h * (damp.r / t + damp.m) if scheme == "explicit_euler"
              else math.exp(-alpha_integral(damp.r, damp.m, t, t + h)))
    np.testing.assert_allclose(out.p.numpy(), factor * p.numpy(), rtol=1e-13)
    np.testing.assert_allclose(out.q.numpy(), [0.1, 0.2], rtol=0, atol=0)


def test_one_step_formulas_of_14_and_15_literally():
    """H = ½pᵀMp + Σ(1 − cos q): (14) x⁺ = x + hMp, p⁺ = α_k p − h sin x; (15) p⁺ = σ_k(p − h sin x),
    x⁺ = x + hMp⁺ (the drift uses the new momentum)."""
    M = np.array([[1.0, 0.3], [0.3, 0.5]])
    field = I.HamiltonianField(grad_q=lambda q, p: torch.sin(q), grad_p=lambda q, p: p @ t64(M))
    x, p, t, h = np.array([0.4, -0.7]), np.array([0.2, 0.9]), 2.0, 0.25
    damp = S.damping("nesterov")
    e = I.explicit_euler(t64(x), t64(p), t, h, field, damp)
    a_k = 1 - h * 3 / t
    np.testing.assert_allclose(e.q.numpy(), x + h * p @ M, rtol=1e-15)
    np.testing.assert_allclose(e.p.numpy(), a_k * p - h * np.sin(x), rtol=1e-15)
    c = I.conformal_symplectic_euler(t64(x), t64(p), t, h, field, damp)
    sigma = (t / (t + h)) ** 3
    p_new = sigma * (p - h * np.sin(x))
    np.testing.assert_allclose(c.p.numpy(), p_new, rtol=1e-14)
    np.testing.assert_allclose(c.q.numpy(), x + h * p_new @ M, rtol=1e-14)


def test_rk4_has_order_four_on_a_linear_oscillator():
    """ẍ + x = 0 (α = 0, by a vanishing constant damping): global error at t = 1 falls 16× per
    halving of h (order 4); a wrong stage drops the order."""
    field = I.HamiltonianField(grad_q=lambda q, p: q, grad_p=lambda q, p: p)
    damp = S.damping("constant", mu=1e-300)
    errs = []
    for n in (8, 16, 32):
        _, Q, P = I.integrate("rk4", t64([1.0]), t64([0.0]), 0.0, [1.0 / n] * n, field, damp)
        errs.append(math.hypot(float(Q[-1, 0]) - math.cos(1.0), float(P[-1, 0]) + math.sin(1.0)))
    orders = np.log2(np.array(errs[:-1]) / np.array(errs[1:]))
    assert np.all(np.abs(orders - 4) < 0.2), orders


# ------------------------------------------------------------------ Sinkhorn: what ε multiplies (κ)


def sinkhorn_numpy(K, a, b, tol=1e-15, max_iter=100_000):
    """Plain alternating scaling (probability domain) of a positive kernel K to marginals a, b."""
    u, v = np.ones_like(a), np.ones_like(b)
    for _ in range(max_iter):
        u = a / (K @ v)
        v = b / (K.T @ u)
        if np.abs((u[:, None] * K * v[None, :]).sum(1) - a).max() < tol:
            break
    return u[:, None] * K * v[None, :]


def small_cloud(seed, n=6, d=2):
    return rng(seed).standard_normal((n, d)) * 0.8


def weights(seed, n=6):
    w = rng(seed).uniform(0.3, 1.0, n)
    return w / w.sum()


def sqdist(x, y):
    return ((x[:, None, :] - y[None, :, :]) ** 2).sum(-1)


def test_sinkhorn_log_is_the_plan_of_exp_minus_C_over_eps():
    x, y, a, b, eps = small_cloud(1), small_cloud(2, n=5), weights(3), weights(4, n=5), 0.7
    C = sqdist(x, y)
    f, g, _ = sk.sinkhorn_log(t64(C), eps, t64(a), t64(b), tol=1e-14)
    P = np.exp(sk.log_plan(t64(C), eps, f, g, t64(a), t64(b)).numpy())
    np.testing.assert_allclose(P, sinkhorn_numpy(np.exp(-C / eps), a, b), rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("cost, kappa", [("half_sq", 0.5), ("sq", 1.0)])
def test_every_bridge_entry_point_uses_kernel_exp_minus_kappa_sqdist_over_eps(cost, kappa):
    """schrodinger_bridge, barycentric_projection and sb_step (non-uniform ρ) against the plan of
    exp(−κ|x−y|²/ε) computed here; κ = ½ for half_sq, 1 for sq (pairwise_cost and cost_kappa too)."""
    x, a, eps = small_cloud(5), weights(6), 0.6
    P = sinkhorn_numpy(np.exp(-kappa * sqdist(x, x) / eps), a, a)
    assert go.cost_kappa(cost) == kappa
    np.testing.assert_allclose(sk.pairwise_cost(t64(x), t64(x), cost).numpy(), kappa * sqdist(x, x),
                               rtol=1e-14, atol=1e-15)
    br = sk.schrodinger_bridge(t64(x), eps, t64(a), cost=cost, tol=1e-14)
    np.testing.assert_allclose(np.exp(br.log_plan().numpy()), P, rtol=1e-9, atol=1e-14)
    B = P @ x / a[:, None]
    np.testing.assert_allclose(sk.barycentric_projection(t64(x), eps, t64(a), cost=cost, tol=1e-14).numpy(),
                               B, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(sk.sb_step(t64(x), eps, t64(a), cost=cost, tol=1e-14)[0].numpy(),
                               2 * x - B, rtol=1e-9, atol=1e-12)


def test_sinkformer_kernel_is_the_doubly_stochastic_scaling_of_exp_C_over_eps():
    x, eps = small_cloud(7, n=5), 0.9
    W_Q, W_K, W_V = (rng(8 + i).standard_normal((2, 2)) for i in range(3))
    C = (x @ W_Q.T) @ (x @ W_K.T).T
    n = len(x)
    K_ref = n * sinkhorn_numpy(np.exp(C / eps), np.full(n, 1 / n), np.full(n, 1 / n))
    out, K, _ = sk.sinkformer_attention(t64(x), eps, t64(W_Q), t64(W_K), t64(W_V), tol=1e-14)
    np.testing.assert_allclose(K.numpy(), K_ref, rtol=1e-9, atol=1e-13)
    np.testing.assert_allclose(out.numpy(), K_ref @ x @ W_V.T, rtol=1e-9, atol=1e-12)


def test_euler_step_and_kde_score_literally():
    """S¹_ε = Id − (ε/2)∇log ρ; the KDE score of Σ a_j N(x_j, h²I) written out."""
    x, a, eps, bw = small_cloud(9), weights(10), 0.3, 0.5
    s = rng(11).standard_normal(x.shape)
    np.testing.assert_allclose(sk.euler_step(t64(x), eps, t64(s)).numpy(), x - eps / 2 * s, rtol=1e-15)
    at = small_cloud(12, n=3)
    k = a[None, :] * np.exp(-sqdist(at, x) / (2 * bw ** 2))
    score = (k @ x / k.sum(1, keepdims=True) - at) / bw ** 2
    np.testing.assert_allclose(sk.kde_score(t64(at), t64(x), bw, t64(a)).numpy(), score, rtol=1e-12)


@pytest.mark.parametrize("cost, kappa", [("half_sq", 0.5), ("sq", 1.0)])
def test_gaussian_bridge_closed_form_against_a_grid_sinkhorn(cost, kappa):
    """Cov(X, Y) of the same-marginal bridge of N(0, v) with cost κ|x−y|²: closed form of
    theory.gaussian_ot against the plan of exp(−κ|x−y|²/ε) on a grid quadrature, both here."""
    v, eps = 0.8, 0.5
    x = np.arange(-8.0, 8.0001, 0.05)
    a = np.exp(-x ** 2 / (2 * v))
    a /= a.sum()
    P = sinkhorn_numpy(np.exp(-kappa * (x[:, None] - x[None, :]) ** 2 / eps), a, a, tol=1e-14)
    cov = float(x @ P @ x)
    assert float(go.sb_cross_covariance([[v]], eps, cost)[0, 0]) == pytest.approx(cov, rel=1e-8)
    assert go.effective_eps(eps, cost) == pytest.approx(eps / (2 * kappa), rel=1e-15)


# ------------------------------------------------------------------ Cayley, SympNet, Λ̃ (seed 001)


def test_cayley_and_phi_literally():
    Y = np.array([[0.0, 0.4, -1.1], [-0.4, 0.0, 0.7], [1.1, -0.7, 0.0]])
    I3 = np.eye(3)
    standard = (I3 - Y) @ np.linalg.inv(I3 + Y)
    np.testing.assert_allclose(cayley(t64(Y)).numpy(), standard, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(cayley(t64(Y), printed=True).numpy(), standard / 2, rtol=1e-14, atol=1e-15)
    C = np.arange(9.0).reshape(3, 3) - 3.5
    expected = np.array([[0, C[0, 1], C[0, 2]], [-C[0, 1], 0, C[1, 2]], [-C[0, 2], -C[1, 2], 0]])
    np.testing.assert_array_equal(phi_skew(t64(C)).numpy(), expected)


def test_gradient_layers_literally():
    """Seed 001 eq. (15): q-update (q + Kᵀ diag(a) σ(Kp + b), p), p-update (q, p + Kᵀ diag(a) σ(Kq + b))."""
    d, M = 2, 3
    K, a, b = rng(13).standard_normal((M, d)), rng(14).standard_normal(M), rng(15).standard_normal(M)
    q, p = rng(16).standard_normal(d), rng(17).standard_normal(d)
    z = t64(np.concatenate([q, p]))
    up_q = GradientLayer(d, M, "q", K=t64(K), a=t64(a), b=t64(b))(z).detach().numpy()
    up_p = GradientLayer(d, M, "p", K=t64(K), a=t64(a), b=t64(b))(z).detach().numpy()
    np.testing.assert_allclose(up_q, np.concatenate([q + K.T @ (a * np.tanh(K @ p + b)), p]), rtol=1e-14)
    np.testing.assert_allclose(up_p, np.concatenate([q, p + K.T @ (a * np.tanh(K @ q + b))]), rtol=1e-14)


def test_lambda_tilde_correlation_and_the_attention_layer_literally():
    """Λ̃ = I_{2d} ⊗ Λ (eq. (22) as printed), C = ZᵀAZ, and Z ↦ Z·Cayley(Φ(ZᵀAZ)) (eqs. (19)-(21))."""
    d, T = 1, 3
    Lam = rng(18).standard_normal((T, T))
    np.testing.assert_array_equal(lambda_tilde(t64(Lam), d).numpy(), np.kron(np.eye(2 * d), Lam))
    Z, A = rng(19).standard_normal((2 * d, T)), rng(20).standard_normal((2 * d, 2 * d))
    C = Z.T @ A @ Z
    np.testing.assert_allclose(correlation(t64(Z), t64(A)).numpy(), C, rtol=1e-14)
    U = np.triu(C, 1)
    Y = U - U.T
    Lam = (np.eye(T) - Y) @ np.linalg.inv(np.eye(T) + Y)
    layer = CayleyAttention(2 * d, A=t64(A))
    np.testing.assert_allclose(layer(t64(Z)).detach().numpy(), Z @ Lam, rtol=1e-13)


def test_canonical_J_literally():
    np.testing.assert_array_equal(canonical_J(2), [[0, 0, 1, 0], [0, 0, 0, 1], [-1, 0, 0, 0], [0, -1, 0, 0]])


# ------------------------------------------------------------------ attention masks and normalizations


def test_causal_mask_and_causality_of_the_fields():
    N = 5
    np.testing.assert_array_equal(att.causal_mask(N).numpy(), np.tril(np.ones((N, N), dtype=bool)))
    X = t64(rng(21).standard_normal((N, 2)))
    A, V = t64(rng(22).standard_normal((2, 2))), t64(rng(23).standard_normal((2, 2)))
    for field in (att.softmax_attention, att.linear_attention):
        base = field(X, A, V, causal=True)
        for j in range(1, N):          # moving token j changes no output i < j
            Xj = X.clone()
            Xj[j] += 1.0
            np.testing.assert_array_equal(field(Xj, A, V, causal=True)[:j].numpy(), base[:j].numpy())


def test_attention_fields_and_energies_literally():
    """Non-symmetric A: weight of j seen from i is exp(X_jᵀAX_i) (eq. (18)); linear attention and
    the energies carry the mean-field 1/N, 1/N² (Sections 3-5)."""
    N = 4
    X, A, V = rng(24).standard_normal((N, 2)), rng(25).standard_normal((2, 2)), rng(26).standard_normal((2, 2))
    L = np.array([[X[j] @ A @ X[i] for j in range(N)] for i in range(N)])
    W = np.exp(L) / np.exp(L).sum(1, keepdims=True)
    np.testing.assert_allclose(att.softmax_attention(t64(X), t64(A), t64(V)).numpy(), W @ X @ V.T, rtol=1e-13)
    np.testing.assert_allclose(att.linear_attention(t64(X), t64(A), t64(V)).numpy(), L @ X @ V.T / N, rtol=1e-13)
    S_ = A + A.T
    Vs = V + V.T
    assert float(att.energy_sm(t64(X), t64(S_))) == pytest.approx(
        -np.exp(np.array([[X[j] @ S_ @ X[i] for j in range(N)] for i in range(N)])).sum() / (2 * N * N), rel=1e-13)
    assert float(att.energy_lin(t64(X), t64(Vs))) == pytest.approx(
        -sum(X[i] @ Vs @ X[i] for i in range(N)) / (2 * N), rel=1e-13)


# ------------------------------------------------------------------ rate formulas (seed 002 App. F)


def test_rate_formulas_literally():
    assert R.rate_vanilla(3.0) == pytest.approx(0.5, rel=1e-15)          # (κ−1)/(κ+1)
    assert R.rate_momentum(9.0) == pytest.approx(0.5, rel=1e-15)         # (√κ−1)/(√κ+1)
    assert R.rate_momentum(100.0) == pytest.approx(9 / 11, rel=1e-15)
    assert R.rate_accelerated(4.0) == pytest.approx(0.5, rel=1e-15)      # 1 − 1/√κ
    rho = 0.6
    np.testing.assert_allclose(R.heavy_ball_transient(rho, np.arange(4)), 1 + (1 + rho) * np.arange(4),
                               rtol=1e-15)


@pytest.mark.parametrize("member", [(0.0, 0.0, 1.0, 0.3), (0.0, 0.6, 1.0, 0.2), (0.4, 0.6, 1.0, 0.2),
                                    (0.4, 0.6, 1.7, 0.15)])
def test_filters_and_spectral_radius_against_the_recurrence_run_by_hand(member):
    """x̃ = x + av, v⁺ = bv − ηλx̃, x⁺ = x + cv⁺ (seed 002 §F.3) run on scalars; the spectral radius
    against numpy's eigenvalues of the same 2×2 map."""
    a, b, c, eta = member
    m = R.Momentum(a=a, b=b, c=c, eta=eta)
    lam = np.array([0.5, 2.0, 4.5])
    x, v, rows = np.ones(3), np.zeros(3), [np.ones(3)]
    for _ in range(6):
        v = b * v - eta * lam * (x + a * v)
        x = x + c * v
        rows.append(x)
    np.testing.assert_allclose(R.filter_values(m, lam, 6), np.array(rows), rtol=1e-13, atol=1e-15)
    for i, l in enumerate(lam):
        T = np.array([[1 - c * eta * l, c * (b - a * eta * l)], [-eta * l, b - a * eta * l]])
        assert R.spectral_radius(m, np.array([l]))[0] == pytest.approx(np.abs(np.linalg.eigvals(T)).max(),
                                                                      rel=1e-7)


def test_triple_momentum_keeps_nu_as_the_drift_gain():
    m = R.triple_momentum(0.3, 0.5, 0.2, 1.7)
    assert (m.a, m.b, m.c, m.eta) == (0.3, 0.5, 1.7, 0.2)

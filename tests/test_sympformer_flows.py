"""The mathematics behind claims/sympformer/flows.py (seed 000, §1-§3), asserted directly in float64
or exactly: the rates and Nesterov's lower bound, the damping schedules, the symmetry that (11)
needs, the layers (18)-(21) and their mean-field scaling, and the counterexample of the printed
empirical measure."""
import math

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

from claims.sympformer.flows import _softmax_gamma_qk, nesterov_hard_function
from particles import attention as att

DT = torch.float64
seeds = st.integers(0, 2**31 - 1)


@given(lam=st.floats(1e-9, 1.0), k=st.integers(1, 10_000))
def test_gradient_descent_mode_obeys_the_1_over_k_bound(lam, k):
    # ½λ(1 − λ)^{2k} ≤ 1/(2(2k+1)) ≤ L‖x₀ − x*‖²/(2k) with L = 1 = ‖x₀ − x*‖ (its max over λ is at
    # λ = 1/(2k+1)); 1e-15 absorbs the rounding of the power
    assert 0.5 * lam * (1 - lam) ** (2 * k) <= 1 / (2 * (2 * k + 1)) + 1e-15


@given(k=st.integers(1, 40))
def test_no_krylov_method_beats_nesterovs_lower_bound(k):
    """[24, Thm 2.1.7] on f(x) = ½xᵀAx − x₁ (L = 4) in R^{2k+1}: the best point of span(e₁..e_k)
    is ≥ 3L‖x*‖²/(32(k+1)²) above f*. Relative 1e-12: a k×k solve in float64."""
    A, e1 = nesterov_hard_function(2 * k + 1)
    x_star = np.linalg.solve(A, e1)
    f = lambda x: 0.5 * x @ A @ x - x[0]  # noqa: E731
    xk = np.zeros(2 * k + 1)
    xk[:k] = np.linalg.solve(A[:k, :k], e1[:k])
    assert f(xk) - f(x_star) >= 3 * 4 * (x_star @ x_star) / (32 * (k + 1) ** 2) * (1 - 1e-12)


@given(k=st.integers(1, 12), seed=seeds)
def test_gradient_iterates_stay_in_the_krylov_span(k, seed):
    """Any iterate built from x₀ = 0 and the gradients at past iterates (random coefficients) has
    zeros beyond its first j coordinates after j steps: the premise of the lower bound."""
    A, e1 = nesterov_hard_function(2 * k + 1)
    rng = np.random.default_rng(seed)
    xs = [np.zeros(2 * k + 1)]
    for j in range(k):
        grads = [A @ x - e1 for x in xs]
        xs.append(sum(c * g for c, g in zip(rng.standard_normal(len(grads)), grads)))
        assert np.all(xs[-1][j + 1:] == 0)


@given(k=st.integers(2, 10_000))
def test_nesterov_alpha_k_matches_the_damping_of_3_over_t_to_third_order(k):
    # α_k − σ_k = c/k³ + O(1/k⁴) with σ_k = (k/(k+1))³; |c| ≤ 10 covers the constant (it is 3)
    alpha_k, sigma_k = (k - 1) / (k + 2), (k / (k + 1)) ** 3
    assert abs(alpha_k - sigma_k) * k ** 3 <= 10


@given(seed=seeds, N=st.integers(2, 8), d=st.integers(1, 3))
def test_printed_empirical_measure_is_one_atom_and_misses_proposition_4_5(seed, N, d):
    """Counterexample of claim sympformer:empirical-measure: (1/N)Σ_j δ_{X_i} puts all mass on X_i,
    so the velocity of (24) there is (X_iᵀAX_i)Y_i, not (1/N)Σ_j Y_j X_jᵀAX_i; δ_{X_j} gives it."""
    rng = np.random.default_rng(seed)
    X, Y = rng.standard_normal((N, d)), rng.standard_normal((N, d))
    Q = rng.standard_normal((d, d))
    A = Q @ Q.T + np.eye(d)
    prop_45 = np.einsum("jd,de,ie,jf->if", X, A, X, Y) / N
    printed = np.einsum("id,de,ie,if->if", X, A, X, Y)
    corrected = sum(np.einsum("d,de,ie->i", X[j], A, X)[:, None] * Y[j] for j in range(N)) / N
    np.testing.assert_allclose(corrected, prop_45, rtol=1e-12, atol=1e-12)
    # the printed measure agrees only if every Y_j X_jᵀ equals the average: not for generic draws
    assert np.linalg.norm(printed - prop_45) > 1e-6 * np.linalg.norm(prop_45)


@given(seed=seeds, N=st.integers(1, 7), d=st.integers(2, 4), m=st.integers(1, 4))
def test_attention_with_Q_K_is_the_kernel_of_A_equal_KtQ(seed, N, d, m):
    """Qx·KX_j = X_jᵀ(KᵀQ)x: Γ_X of §3 is the softmax field with the (non-symmetric) A = KᵀQ."""
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(N, d, generator=g, dtype=DT)
    Q, K, V = (torch.randn(*s, generator=g, dtype=DT) * 0.5 for s in ((m, d), (m, d), (d, d)))
    torch.testing.assert_close(_softmax_gamma_qk(X, X, Q, K, V), att.softmax_attention(X, K.T @ Q, V),
                               rtol=1e-12, atol=1e-12)


@given(seed=seeds, N=st.integers(1, 30), d=st.integers(1, 3))
def test_linear_attention_of_18_is_N_times_the_mean_field_velocity(seed, N, d):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(N, d, generator=g, dtype=DT)
    A, V = torch.randn(d, d, generator=g, dtype=DT), torch.randn(d, d, generator=g, dtype=DT)
    kernel = torch.einsum("jd,de,ie->ij", X, A, X)            # κ(X_i, X_j) = X_jᵀAX_i of (18)
    torch.testing.assert_close(kernel @ (X @ V.T), N * ((kernel / N) @ (X @ V.T)), rtol=1e-12, atol=1e-12)


@given(seed=seeds, n=st.integers(2, 8), d=st.integers(1, 3))
def test_stein_kinetic_variation_is_the_11_term_for_a_symmetric_kernel(seed, n, d):
    """δ/δρ ½∫∫∇Φ(x)ᵀ∇Φ(y)k(x,y)ρρ at x is ½∫∇Φ(x)ᵀ∇Φ(y)(k(x,y) + k(y,x))ρ(dy) (atoms) for any k; for a
    symmetric k (as (5) requires) it is (11)'s term read with y free, ∫∇Φ(x)ᵀ∇Φ(y)k(x,y)ρ(dx)."""
    g = torch.Generator().manual_seed(seed)
    G = torch.randn(n, d, generator=g, dtype=DT)             # ∇Φ at the atoms
    w0 = torch.rand(n, generator=g, dtype=DT) + 0.1
    K = torch.rand(n, n, generator=g, dtype=DT) + 0.1
    for kern in (K, 0.5 * (K + K.T)):
        w = w0.clone().requires_grad_(True)
        (dS,) = torch.autograd.grad(0.5 * w @ ((G @ G.T) * kern) @ w, w)
        torch.testing.assert_close(dS, 0.5 * ((G @ G.T) * (kern + kern.T)) @ w0, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(dS, ((G @ G.T) * kern).T @ w0, rtol=1e-12, atol=1e-12)


def test_eta_and_sigma_examples():
    # η(t) = 3 ln(t/t₀) and σ_k = (t_k/t_{k+1})³ for α = 3/t; η = μt, σ_k = e^{−μh} for α ≡ μ
    from theory.schemes import damping
    assert math.isclose(damping("nesterov").sigma(2.0, 0.5), (2.0 / 2.5) ** 3, rel_tol=1e-15)
    assert math.isclose(damping("constant", mu=0.7).sigma(3.0, 0.2), math.exp(-0.14), rel_tol=1e-15)

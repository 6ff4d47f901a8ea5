"""particles.accelerated: Proposition 4.5 / eq. (28), Proposition 5.2 / eq. (34), the Hamiltonians
(35)-(36), the PDE (33) on weighted measures, and the printed schemes (counterexamples kept)."""
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from particles import accelerated as acc
from particles.geometry import jacobian

DT = torch.float64
sizes = dict(seed=st.integers(0, 2**31 - 1), N=st.integers(1, 8), d=st.integers(1, 3))


def _gen(seed):
    return torch.Generator().manual_seed(seed)


def _linear(seed, N, d):
    g = _gen(seed)
    Q, W = torch.randn(d, d, generator=g, dtype=DT), torch.randn(d, d, generator=g, dtype=DT)
    A = Q @ Q.T / d + 0.3 * torch.eye(d, dtype=DT)
    X, Y = torch.randn(N, d, generator=g, dtype=DT), torch.randn(N, d, generator=g, dtype=DT)
    return X, Y, A, 0.5 * (W + W.T)


def _softmax(seed, N, d, scale=0.3):
    """A, B = V A^{-1} SPD with a common eigenbasis (Section 5.1)."""
    g = _gen(seed)
    U, _ = torch.linalg.qr(torch.randn(d, d, generator=g, dtype=DT))
    A = U @ torch.diag(scale * (0.5 + torch.rand(d, generator=g, dtype=DT))) @ U.T
    B = U @ torch.diag(0.5 + torch.rand(d, generator=g, dtype=DT)) @ U.T
    X, Y = torch.randn(N, d, generator=g, dtype=DT), torch.randn(N, d, generator=g, dtype=DT)
    return X, Y, 0.5 * (A + A.T), 0.5 * (B + B.T)


def _grads(H, X, Y):
    Xr, Yr = X.clone().requires_grad_(True), Y.clone().requires_grad_(True)
    return torch.autograd.grad(H(Xr, Yr), (Xr, Yr))


# float64 sums of O(N) terms of O(1)–O(e^{|X|²|A|}) size: 1e-12 relative throughout
TOL = dict(rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------ linear attention


@given(**sizes, alpha=st.floats(0, 3))
def test_prop_4_5_component_form_equals_matrix_form(seed, N, d, alpha):
    X, Y, A, V = _linear(seed, N, d)
    for a, b in zip(acc.linear_component_rhs(X, Y, A, V, alpha), acc.linear_matrix_rhs(X, Y, A, V, alpha)):
        torch.testing.assert_close(a, b, **TOL)


@given(**sizes)
def test_28_is_hamiltonian_with_H_lin(seed, N, d):
    X, Y, A, V = _linear(seed, N, d)
    gX, gY = _grads(lambda x, y: acc.hamiltonian_lin(x, y, A, V), X, Y)
    F, G = acc.linear_oracles(X, Y, A, V)
    torch.testing.assert_close(gY, F, **TOL)
    torch.testing.assert_close(-gX, G, **TOL)


@given(seed=st.integers(0, 2**31 - 1), N=st.integers(2, 7), d=st.integers(1, 3), data=st.data())
def test_causal_linear_oracles_ignore_future_tokens(seed, N, d, data):
    t = data.draw(st.integers(0, N - 2))
    X, Y, A, V = _linear(seed, N, d)
    X2, Y2 = X.clone(), Y.clone()
    X2[t + 1:] += 1.0
    Y2[t + 1:] -= 1.0
    for a, b in zip(acc.linear_oracles(X, Y, A, V, causal=True), acc.linear_oracles(X2, Y2, A, V, causal=True)):
        assert torch.equal(a[: t + 1], b[: t + 1])


def test_printed_linear_euler_misses_h_on_XV():
    """Counterexample of claim sympformer:prop-4.5-euler: printed − (14) = (1 − h) X V exactly."""
    X, Y, A, V = _linear(3, 5, 2)
    h, alpha_k = 0.01, 0.99
    Xp, Yp = acc.linear_euler_printed(X, Y, h, alpha_k, A, V)
    F, G = acc.linear_oracles(X, Y, A, V)
    torch.testing.assert_close(Xp, X + h * F, **TOL)
    torch.testing.assert_close(Yp - (alpha_k * Y + h * G), (1 - h) * X @ V, **TOL)


def test_linear_energy_is_conserved_by_the_reference_solver():
    X, Y, A, V = _linear(4, 6, 2)
    A, V, Y = 0.3 * A, 0.3 * V, 0.3 * Y
    Xt, Yt = acc.solve_particles(partial(acc.linear_oracles, A=A, V=V), X, Y, 0.0, [0.0, 0.5, 1.0])
    H = [float(acc.hamiltonian_lin(x, y, A, V)) for x, y in zip(Xt, Yt)]
    # DOP853 at rtol 1e-11 over t ≤ 1 with O(1) Lipschitz constants
    np.testing.assert_allclose(H, H[0], rtol=1e-8)


# ------------------------------------------------------------------ softmax attention


@given(**sizes, alpha=st.floats(0, 3))
def test_prop_5_2_component_form_equals_matrix_form_34(seed, N, d, alpha):
    X, Y, A, B = _softmax(seed, N, d)
    for a, b in zip(acc.softmax_component_rhs(X, Y, A, B, alpha), acc.softmax_matrix_rhs(X, Y, A, B, alpha)):
        torch.testing.assert_close(a, b, **TOL)


@given(**sizes)
def test_34_is_hamiltonian_with_35(seed, N, d):
    X, Y, A, B = _softmax(seed, N, d)
    gX, gY = _grads(lambda x, y: acc.hamiltonian_sm(x, y, A, B), X, Y)
    F, G = acc.softmax_oracles(X, Y, A, B)
    torch.testing.assert_close(gY, F, **TOL)
    torch.testing.assert_close(-gX, G, **TOL)


@given(**sizes, eta=st.floats(-2, 2))
def test_36_generates_the_damped_34(seed, N, d, eta):
    """Q = X, P = e^η Y: ∂H̃/∂P = Ẋ and −∂H̃/∂Q = e^η (Ẏ + η̇ Y) for (34) with α = η̇ (Example 5.4)."""
    X, Y, A, B = _softmax(seed, N, d)
    e = torch.tensor(eta, dtype=DT)
    gQ, gP = _grads(lambda q, p: acc.hamiltonian_sm_tilde(e, q, p, A, B), X, torch.exp(e) * Y)
    F, G = acc.softmax_oracles(X, Y, A, B)
    torch.testing.assert_close(gP, F, **TOL)
    torch.testing.assert_close(-gQ, torch.exp(e) * G, **TOL)


@given(**sizes)
def test_particle_system_of_33_is_prop_5_2_with_potential_over_N_squared(seed, N, d):
    X, Y, A, B = _softmax(seed, N, d)
    w = torch.full((N,), 1.0 / N, dtype=DT)
    mean_field = acc.softmax_characteristics(X, Y, X, w, Y, A, B, 0.5)
    corrected = acc.softmax_component_rhs(X, Y, A, B, 0.5, potential_scale=1.0 / N ** 2)
    for a, b in zip(mean_field, corrected):
        torch.testing.assert_close(a, b, **TOL)


def test_printed_prop_5_2_potential_force_is_N_squared_too_large():
    """Counterexample of claim sympformer:prop-5.2: the printed Ẏ minus the mean-field Ẏ is exactly
    (N − 1/N) Σ_j M_ij A X_j, i.e. the potential term scaled by N²."""
    N = 6
    X, Y, A, B = _softmax(7, N, 2)
    w = torch.full((N,), 1.0 / N, dtype=DT)
    printed = acc.softmax_component_rhs(X, Y, A, B)[1]
    mean_field = acc.softmax_characteristics(X, Y, X, w, Y, A, B)[1]
    M = torch.exp(X @ A @ X.T)
    torch.testing.assert_close(printed - mean_field, (N - 1.0 / N) * M @ X @ A, **TOL)


@given(**sizes)
def test_printed_34_is_the_corrected_one_rescaled(seed, N, d):
    """F_printed(X, N Y) = N F_c(X, Y), G_printed(X, N Y) = N² G_c(X, Y): t ↦ N t, Y ↦ N Y."""
    X, Y, A, B = _softmax(seed, N, d)
    Fp, Gp = acc.softmax_oracles(X, N * Y, A, B)
    Fc, Gc = acc.softmax_oracles(X, Y, A, B, potential_scale=1.0 / N ** 2)
    torch.testing.assert_close(Fp, N * Fc, **TOL)
    torch.testing.assert_close(Gp, N ** 2 * Gc, **TOL)


@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 6), d=st.integers(1, 3))
def test_first_variation_33_is_the_derivative_of_the_hamiltonian_functional(seed, n, d):
    X, Y, A, B = _softmax(seed, n, d)
    w0 = 0.2 + torch.rand(n, generator=_gen(seed), dtype=DT)
    w = w0.clone().requires_grad_(True)
    (dH,) = torch.autograd.grad(acc.hamiltonian_functional_sm(w, X, Y, A, B), w)
    torch.testing.assert_close(dH, acc.first_variation_33(X, Y, X, w0, Y, A, B), **TOL)


def test_causal_34_is_causal_but_not_hamiltonian():
    """Counterexample of claim sympformer:causal-34-structure: Jᵀ D(F, G) is symmetric without the
    mask (a Hessian) and far from symmetric with it."""
    N, d = 4, 2
    X, Y, A, B = _softmax(11, N, d)
    X2, Y2 = X.clone(), Y.clone()
    X2[2:] += 0.5
    for a, b in zip(acc.softmax_oracles(X, Y, A, B, causal=True), acc.softmax_oracles(X2, Y2, A, B, causal=True)):
        assert torch.equal(a[:2], b[:2])
    n = N * d
    J = torch.zeros(2 * n, 2 * n, dtype=DT)
    J[:n, n:], J[n:, :n] = torch.eye(n, dtype=DT), -torch.eye(n, dtype=DT)
    z = torch.stack([X, Y])[None]
    asym = {}
    for causal in (False, True):
        D = jacobian(lambda z: torch.stack(acc.softmax_oracles(z[0], z[1], A, B, causal=causal)), z, 3)[0]
        S = J.T @ D
        asym[causal] = float(torch.linalg.norm(S - S.T) / torch.linalg.norm(S))
    assert asym[False] < 1e-14 and asym[True] > 1e-2


def test_example_5_5_printed_updates_literally():
    X, Y, A, B = _softmax(5, 5, 2)
    tau, alpha_k = 0.05, 0.9
    Xp, Yp = acc.example_5_5_euler_printed(X, Y, tau, alpha_k, A, B)
    F, _ = acc.softmax_oracles(X, Y, A, B)
    torch.testing.assert_close(Xp, X + tau * F, **TOL)
    # Y⁺ = −α_k Y + τ(N/2)({R,M} + 2M) X⁺ A: the force uses X⁺ and the momentum enters with −α_k
    _, G_next_X = acc.softmax_oracles(Xp, Y, A, B)  # not what is printed: M, R stay at X
    assert not torch.allclose(Yp + alpha_k * Y, tau * G_next_X)
    sigma, weight = 0.97, 0.049
    Xe, Ye = acc.example_5_5_expeuler_printed(X, Y, 0.05, sigma, weight, A, B)
    _, G = acc.softmax_oracles(X, Y, A, B)
    torch.testing.assert_close(Ye, sigma * Y + 0.05 * weight * G, **TOL)
    torch.testing.assert_close(Xe, X + 0.05 * F, **TOL)


# ------------------------------------------------------------------ bad input


def test_bad_inputs_raise_naming_the_parameter():
    X, Y, A, B = _softmax(0, 3, 2)
    with pytest.raises(ValueError, match="B must be positive definite"):
        acc.softmax_matrix_rhs(X, Y, A, -B)
    with pytest.raises(ValueError, match="B must be symmetric"):
        acc.softmax_oracles(X, Y, A, B + torch.tensor([[0.0, 1.0], [0.0, 0.0]], dtype=DT))
    with pytest.raises(ValueError, match="A must be symmetric"):
        acc.hamiltonian_sm(X, Y, A + torch.tensor([[0.0, 1.0], [0.0, 0.0]], dtype=DT), B)
    with pytest.raises(ValueError, match="X and Y must have the same shape"):
        acc.linear_matrix_rhs(X, Y[:2], A, B)
    with pytest.raises(ValueError, match="Y contains NaN"):
        acc.linear_oracles(X, torch.full_like(Y, float("nan")), A, B)
    with pytest.raises(ValueError, match="alpha"):
        acc.linear_matrix_rhs(X, Y, A, B, alpha=-1.0)
    for h in (0.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match="h"):
            acc.linear_euler_printed(X, Y, h, 1.0, A, B)
        with pytest.raises(ValueError, match="h"):
            acc.example_5_5_expeuler_printed(X, Y, h, 1.0, 1.0, A, B)
    with pytest.raises(ValueError, match="B = V A"):
        acc.B_from(A, -A)  # V A^{-1} = −I is not positive definite
    with pytest.raises(ValueError, match="V must be symmetric"):
        acc.hamiltonian_lin(X, Y, A, torch.tensor([[0.0, 1.0], [0.0, 0.0]], dtype=DT))
    with pytest.raises(ValueError, match="w must be"):
        acc.first_variation_33(X, Y, X, torch.ones(2, dtype=DT), Y, A, B)


def test_B_from_commuting_A_V():
    _, _, A, B = _softmax(2, 2, 3)
    torch.testing.assert_close(acc.B_from(A, B @ A), B, rtol=1e-10, atol=1e-12)


# ------------------------------------------------------------------ Proposition 4.3 at finite N


@given(seed=st.integers(0, 2**31 - 1), N=st.integers(3, 12), mu=st.floats(0.0, 2.0))
def test_linear_particles_follow_the_moment_odes_with_empirical_moments(seed, N, mu):
    """Exact at finite N (claim sympformer:prop-4.3): Y = X P_t and (mean, covariance) of the cloud obey
    (25)-(26) with κ_gΣ replaced by the empirical covariance."""
    from theory import elliptical as ell
    rng = np.random.default_rng(seed)
    A, V = np.array([[1.0, 0.3], [0.3, 0.6]]), np.array([[-0.5, 0.2], [0.2, 0.3]])
    X0 = rng.standard_normal((N, 2)) * 0.5 + np.array([0.4, -0.2])
    t = [0.0, 0.5, 1.0]
    Xt, Yt = acc.solve_particles(partial(acc.linear_oracles, A=torch.tensor(A), V=torch.tensor(V)),
                                 torch.tensor(X0), torch.zeros(N, 2, dtype=DT), mu, t)
    m, K = X0.mean(0), np.cov(X0.T, bias=True)
    path = ell.solve_25_26(m, K, A, V, 1.0, mu, t)
    for k in range(3):
        X, Y = Xt[k].numpy(), Yt[k].numpy()
        # both sides by DOP853 at rtol 1e-11 over t ≤ 1: agreement to ~1e-10
        np.testing.assert_allclose(Y, X @ path.P[k], atol=1e-9)
        np.testing.assert_allclose(X.mean(0), path.m[k], atol=1e-9)
        np.testing.assert_allclose(np.cov(X.T, bias=True), path.covariance[k], atol=1e-9)


# ------------------------------------------------------------------ counted oracle calls


@pytest.mark.parametrize("scheme,per_step", [("explicit_euler", 1), ("conformal_symplectic_euler", 1),
                                             ("exponential_euler", 1), ("ab2", 1), ("etd_ab2", 1),
                                             ("conformal_symplectic_euler_implicit", 1)])
def test_every_accelerated_scheme_uses_one_attention_evaluation_per_step(scheme, per_step):
    """The abstract's 'same number of oracle calls', counted: evaluations at unchanged token positions
    X share one attention matrix (the implicit p-solve of symplectic Euler never moves X)."""
    from particles import attention as att
    from particles import integrators as integ
    from theory.schemes import damping
    X, Y, A, B = _softmax(3, 4, 2, scale=0.1)
    oracle = att.CountingOracle(lambda x, y: acc.softmax_oracles(x, y, A, B))
    field = integ.HamiltonianField(lambda q, p: -oracle(q, p)[1], lambda q, p: oracle(q, p)[0])
    integ.integrate(scheme, X, 0.1 * Y, 1.0, [0.02] * 7, field, damping("nesterov"))
    assert oracle.calls == 7 * per_step
    assert oracle.evaluations >= oracle.calls

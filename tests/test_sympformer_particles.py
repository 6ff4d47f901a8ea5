"""The mathematics behind claims/sympformer/remarks.py (seed 000, §4-§7) in float64: affine
invariance and moments of elliptical distributions, the proofs of Propositions 4.5 and 5.1
(the latter's counterexample), the mobility form, Remark 5.3's scaling, head averaging, the
kernel count of the simultaneous update and the exact damping of the structured schemes."""
import math

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st
from scipy.integrate import quad

from claims.sympformer.remarks import (_generator, elliptical_density, kernel_evaluations_per_step,
                                       linear_proof_residuals, proof_5_1_display)
from particles import accelerated as acc
from particles import integrators as I
from theory import schemes as S

DT = torch.float64
seeds = st.integers(0, 2**31 - 1)


def _spd(rng, d):
    Q = rng.standard_normal((d, d))
    return Q @ Q.T / d + 0.5 * np.eye(d)


def _commuting(rng, d, scale=0.3):
    U, _ = np.linalg.qr(rng.standard_normal((d, d)))
    A = U @ np.diag(scale * rng.uniform(0.5, 1.5, d)) @ U.T
    B = U @ np.diag(rng.uniform(0.5, 1.5, d)) @ U.T
    return (torch.as_tensor(0.5 * (M + M.T), dtype=DT) for M in (A, B))


@given(seed=seeds, d=st.integers(1, 3), family=st.sampled_from(["gaussian", "student_t"]))
def test_affine_pushforward_of_an_elliptical_density(seed, d, family):
    """Change of variables: ρ(A^{-1}(y − b))/|det A| is the density of E(Am + b, AΣAᵀ, g) for an
    invertible A (relative 1e-10: determinants and solves of well-conditioned matrices)."""
    rng = np.random.default_rng(seed)
    g = _generator(family, d)
    m, Sigma = rng.standard_normal(d), _spd(rng, d)
    A, b = rng.standard_normal((d, d)) + 3 * np.eye(d), rng.standard_normal(d)
    y = 2 * rng.standard_normal((5, d))
    push = elliptical_density(np.linalg.solve(A, (y - b).T).T, m, Sigma, g) / abs(np.linalg.det(A))
    np.testing.assert_allclose(push, elliptical_density(y, A @ m + b, A @ Sigma @ A.T, g), rtol=1e-10)


@given(seed=seeds, v=st.floats(2.5, 12.0))
def test_student_t_in_one_dimension_has_variance_kappa_sigma(seed, v):
    """d = 1: ∫ρ = 1, ∫xρ = m, ∫(x − m)²ρ = κ_gΣ with κ_g = v/(v − 2) (quad, relative 1e-8)."""
    rng = np.random.default_rng(seed)
    m, sigma = float(rng.standard_normal()), float(rng.uniform(0.2, 2.0))
    g = _generator("student_t", 1, v)
    dens = lambda x: elliptical_density(np.array([[x]]), np.array([m]), np.array([[sigma]]), g)[0]  # noqa: E731
    mass = quad(dens, -np.inf, np.inf, epsabs=0, epsrel=1e-11)[0]
    var = quad(lambda x: (x - m) ** 2 * dens(x), -np.inf, np.inf, epsabs=0, epsrel=1e-11)[0]
    assert math.isclose(mass, 1.0, rel_tol=1e-8)
    assert math.isclose(var, v / (v - 2) * sigma, rel_tol=1e-8)


@given(seed=seeds, N=st.integers(2, 6), d=st.integers(1, 3), alpha=st.floats(0, 2))
def test_proof_of_proposition_4_5_hessian_terms_cancel(seed, N, d, alpha):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(N, d, generator=g, dtype=DT)
    Q = torch.randn(d, d, generator=g, dtype=DT)
    A = Q @ Q.T / d + 0.5 * torch.eye(d, dtype=DT)
    W, P = torch.randn(d, d, generator=g, dtype=DT), torch.randn(d, d, generator=g, dtype=DT)
    b = torch.randn(d, generator=g, dtype=DT)
    err_display, err_chain = linear_proof_residuals(X, A, 0.5 * (W + W.T), 0.5 * (P + P.T), b, alpha)
    assert err_display < 1e-11 and err_chain < 1e-11  # float64 sums of N products


@given(seed=seeds, n=st.integers(2, 8), d=st.integers(1, 3))
def test_proof_of_proposition_5_1_last_display_needs_Z_of_y(seed, n, d):
    """Counterexample of claim sympformer:prop-5.1-proof: with Z(x)² the display is not the first
    variation of ∫ΦG^{-1}[Φ]; with Z(y)² it is (float64, 1e-11 relative)."""
    rng = np.random.default_rng(seed)
    A, B = _commuting(rng, d)
    pts = torch.as_tensor(rng.standard_normal((n, d)), dtype=DT)
    w0 = torch.as_tensor(rng.uniform(0.2, 1.0, n), dtype=DT)
    gphi = torch.as_tensor(rng.standard_normal((n, d)), dtype=DT)
    variation, printed, corrected = proof_5_1_display(pts, w0, gphi, A, B)
    torch.testing.assert_close(corrected, variation, rtol=1e-11, atol=1e-11)
    # the two differ by Σ_i w_i q_i E_ki (1/Z_k² − 1/Z_i²): zero only if all Z_i are equal
    Z = torch.exp(pts @ A @ pts.T) @ w0
    if float(Z.max() - Z.min()) > 1e-3 * float(Z.max()):
        assert float(torch.linalg.norm(printed - variation)) > 1e-9 * float(torch.linalg.norm(variation))


@given(seed=seeds, n=st.integers(1, 8), d=st.integers(1, 3))
def test_mobility_form_is_the_softmax_velocity(seed, n, d):
    """B∫e^{yᵀAx}Ay ρ(dy)/Z(x) = V∫y e^{yᵀAx}ρ(dy)/Z(x) with V = BA (commuting SPD A, B)."""
    rng = np.random.default_rng(seed)
    A, B = _commuting(rng, d)
    pts = torch.as_tensor(rng.standard_normal((n, d)), dtype=DT)
    w = torch.as_tensor(rng.uniform(0.2, 1.0, n), dtype=DT)
    E = torch.exp(pts @ A @ pts.T)
    v_chi = ((E * w) @ (pts @ A.T) @ B.T) / (E @ w)[:, None]
    gamma = (E * w) @ (pts @ (B @ A).T) / (E @ w)[:, None]
    torch.testing.assert_close(v_chi, gamma, rtol=1e-12, atol=1e-12)


@given(seed=seeds, N=st.integers(1, 10), d=st.integers(1, 3))
def test_second_summand_of_35_is_N_cubed_times_F_SM(seed, N, d):
    rng = np.random.default_rng(seed)
    A, B = _commuting(rng, d)
    X = torch.as_tensor(rng.standard_normal((N, d)), dtype=DT)
    M = torch.exp(X @ A @ X.T)
    kinetic_zero = acc.hamiltonian_sm(X, torch.zeros_like(X), A, B)   # Y = 0: only the potential
    F_SM = -M.sum() / (2 * N * N)
    torch.testing.assert_close(kinetic_zero, N ** 3 * F_SM, rtol=1e-12, atol=1e-12)


@given(seed=seeds, H=st.integers(1, 5), N=st.integers(1, 6), d=st.integers(1, 4))
def test_averaging_scores_over_heads_is_one_head_with_the_mean_A(seed, H, N, d):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(N, d, generator=g, dtype=DT)
    A = torch.randn(H, d, d, generator=g, dtype=DT)
    scores = torch.einsum("jd,hde,ie->hij", X, A, X)
    torch.testing.assert_close(torch.softmax(scores.mean(0), -1),
                               torch.softmax(torch.einsum("jd,de,ie->ij", X, A.mean(0), X), -1),
                               rtol=1e-12, atol=1e-12)


def test_conformal_euler_reuses_the_kernel_unless_it_looks_ahead():
    """(34): κ depends on X only, so (15) evaluates it once per step, like the simultaneous update;
    with a look-ahead X + μY it needs it twice."""
    rng = np.random.default_rng(3)
    A, B = _commuting(rng, 2)
    X0, Y0 = (torch.as_tensor(0.4 * rng.standard_normal((4, 2)), dtype=DT) for _ in range(2))
    f = lambda X, Y: acc.softmax_oracles(X, Y, A, B)  # noqa: E731
    assert kernel_evaluations_per_step(f, "conformal_symplectic_euler", X0, Y0) == 1
    assert kernel_evaluations_per_step(f, "explicit_euler", X0, Y0) == 1
    assert kernel_evaluations_per_step(f, "conformal_symplectic_euler", X0, Y0, look_ahead=0.5) == 2
    assert kernel_evaluations_per_step(f, "explicit_euler", X0, Y0, look_ahead=0.5) == 1


@given(r=st.floats(0, 4), m=st.floats(0, 2), t=st.floats(0.2, 3), steps=st.lists(st.floats(0.01, 0.3), min_size=1, max_size=5),
       scheme=st.sampled_from(["conformal_symplectic_euler", "exponential_euler", "etd_ab2"]))
def test_structured_schemes_integrate_the_dissipation_exactly(r, m, t, steps, scheme):
    """Without force, (15), (16) and ETD-AB2 multiply p by σ_k at every step (relative 1e-13)."""
    damp = S.Damping("log-linear", r, m)
    zero = I.HamiltonianField(lambda q, p: torch.zeros_like(q), lambda q, p: torch.zeros_like(p))
    p0 = torch.tensor([0.3, -0.8], dtype=DT)
    _, _, P = I.integrate(scheme, torch.zeros(2, dtype=DT), p0, t, steps, zero, damp)
    exact = p0 * math.prod(damp.sigma(t + sum(steps[:k]), h) for k, h in enumerate(steps))
    torch.testing.assert_close(P[-1], exact, rtol=1e-13, atol=1e-15)

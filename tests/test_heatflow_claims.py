"""The helpers behind seed 003's claims (claims/heatflow*.py), asserted directly in float64, and
the counterexamples of the slides' errata (heatflow:sinkhorn-sb, sinkformer-update, particle-ode,
claim-heat-flow, result-1-rhs) reproduced here."""
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import given
from hypothesis import strategies as st
from scipy.integrate import quad

from claims.heatflow import bridges as hf
from claims.heatflow.langevin import _interpolation_gap, ou_jeffreys
from claims.heatflow.ot import (_assignment_gap, _is_convex_gradient, _linear_pushforwards, brenier_map_gaussian,
                                graph_coupling, in_couplings, pushforward)
from claims.heatflow.sinkformer import measure_sinkhorn
from particles import sinkhorn as sk
from theory import gaussian_ot as go

F64 = torch.float64
costs = st.sampled_from(sorted(go.COSTS))


@st.composite
def spd2(draw):
    A = np.random.default_rng(draw(st.integers(0, 2 ** 31 - 1))).standard_normal((2, 2))
    return A @ A.T + draw(st.floats(0.1, 2.0)) * np.eye(2)


@given(st.floats(0.3, 3.0), st.floats(0.05, 2.0), costs, st.sampled_from([-1, 1]))
def test_ou_divergence_at_unit_variance_is_the_result1_closed_form(v, eps, cost, drift):
    """The direct OU formulas with σ² = 1 reproduce theory's cancellation-free Result-1 divergence
    where both are accurate (ε ≥ 0.05: the divergence is ≥ 1e-7, far above rounding)."""
    direct = ou_jeffreys(v, eps, cost, drift, 1.0)
    np.testing.assert_allclose(direct, go.result1_jeffreys([[v]], eps, cost, drift), rtol=1e-6, atol=1e-12)


@given(st.floats(0.3, 3.0), st.floats(1e-3, 0.1), costs)
def test_brownian_motion_of_variance_2t_never_matches_the_bridge(v, eps, cost):
    """With E B_t² = 2t the stationary-drift coupling's conditional variance is ≈ 2ε while the bridge's
    is ε or ε/2: the divergence stays of order one (≥ 0.05) as ε → 0, for either cost."""
    assert ou_jeffreys(v, eps, cost, -1, 2.0) > 0.05


@given(st.floats(0.3, 3.0), st.floats(1e-3, 0.5), costs)
def test_interpolation_gap_matches_direct_quadrature(v, eps, cost):
    """I(ρ) − ∫₀¹ I(ρ_t)dt for ρ = N(0, v), ρ_t the entropic interpolation: direct quadrature of
    1/v − 1/Var_t with Var_t = (1−t)²v + t²v + 2t(1−t)C + ε't(1−t) and C the closed-form
    cross-covariance; nonnegative and O(ε²): Var_t − v ≤ t(1−t)ε'²/(4v), so the gap is at most
    ε'²/(4v³)·∫t(1−t)dt = ε'²/(24 v³)."""
    e = go.effective_eps(eps, cost)
    C = float(go.sb_cross_covariance([[v]], eps, cost)[0, 0])
    var = lambda t: (1 - t) ** 2 * v + t ** 2 * v + 2 * t * (1 - t) * C + e * t * (1 - t)
    direct, _ = quad(lambda t: 1 / v - 1 / var(t), 0, 1, epsabs=1e-15, epsrel=1e-10)
    gap = _interpolation_gap([[v]], eps, cost)
    assert gap >= 0
    # the direct integrand cancels to ~1e-16/v: absolute tolerance at that level
    assert abs(gap - direct) <= 1e-8 * abs(direct) + 1e-13 / v
    assert gap <= e ** 2 / (24 * v ** 3) * (1 + 1e-9)


@given(st.floats(0.3, 3.0), st.floats(1e-3, 0.5), costs)
def test_result1_rhs_as_printed_is_not_o_eps2_and_the_difference_is(v, eps, cost):
    """heatflow:result-1-rhs's counterexample: with the printed bracket I(ρ) + ∫I(ρ_t)dt, RHS/(Cε²)
    is at least √I(ρ) = 1/√v for ρ = N(0, v) at every ε (I ≥ 0), so it does not vanish; the
    correction I(ρ) − ∫I(ρ_t)dt makes it at most ε'/√(24 v³) → 0 (the gap bound above)."""
    printed_floor = np.sqrt(go.fisher_information_gaussian(np.array([[v]])))
    assert printed_floor == pytest.approx(1 / np.sqrt(v), rel=1e-12) and printed_floor > 0
    e = go.effective_eps(eps, cost)
    assert np.sqrt(_interpolation_gap([[v]], eps, cost)) <= e / np.sqrt(24 * v ** 3) * (1 + 1e-9)


@given(st.floats(0.3, 3.0), st.floats(1e-2, 0.1))
def test_result1_bound_with_the_difference_holds_with_a_constant(v, eps):
    """heatflow:result-1-rhs's correction as an inequality: with π the bridge of ½|x−y|² the
    Jeffreys divergence of Result 1 is O(ε⁴) and ε²(I(ρ) − ∫I(ρ_t)dt)^{1/2} is Θ(ε³), so their
    ratio falls like ε: quartering ε divides it by about 4. Asserted ≤ ½ of it, which leaves the
    O(ε/v) ≤ 0.33 higher-order terms room (0.29 at worst on a grid of this box)."""
    def ratio(e):
        lhs = go.result1_jeffreys(np.array([[v]]), e, "half_sq", -1)
        return lhs / (e ** 2 * np.sqrt(_interpolation_gap([[v]], e, "half_sq")))
    assert 0 < ratio(eps / 4) <= 0.5 * ratio(eps)


def test_result1_printed_conventions_do_not_give_order_two():
    """Counterexample of the printed reading of Result 1 (drift +½∇g, cost |x−y|²): for N(0,1) the
    symmetrized KL tends to a constant; only −½∇g with ½|x−y|² is O(ε²) (in fact O(ε⁴))."""
    eps = np.geomspace(1e-1, 1e-3, 5)
    printed = [go.result1_jeffreys(np.eye(1), e, "sq", +1) for e in eps]
    fixed = [go.result1_jeffreys(np.eye(1), e, "half_sq", -1) for e in eps]
    assert hf._slope(eps, printed) < 0.5 and printed[-1] > 0.1
    assert hf._slope(eps, fixed) == pytest.approx(4.0, abs=0.05)


@st.composite
def discrete_instances(draw):
    n = draw(st.integers(1, 6))
    w = draw(st.lists(st.integers(1, 9), min_size=n, max_size=n))
    mu = {i: Fraction(a, sum(w)) for i, a in enumerate(w)}
    image = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return mu, (lambda x: image[x])


@given(discrete_instances(), st.booleans())
def test_graph_coupling_is_in_pi_exactly_when_nu_is_the_pushforward(instance, perturb):
    mu, T = instance
    nu = pushforward(mu, T)
    assert sum(nu.values()) == 1
    assert in_couplings(graph_coupling(mu, T), mu, nu)
    if perturb and len(nu) > 1:
        a, b = sorted(nu)[:2]
        other = nu | {a: nu[a] - nu[a] / 2, b: nu[b] + nu[a] / 2}
        assert not in_couplings(graph_coupling(mu, T), mu, other)


@given(spd2(), spd2())
def test_gaussian_brenier_map_is_a_convex_gradient_attaining_w2(S1, S2):
    T = brenier_map_gaussian(S1, S2)
    assert np.abs(T - T.T).max() < 1e-9 * np.abs(T).max()
    assert np.linalg.eigvalsh(T).min() > 0
    np.testing.assert_allclose(T @ S1 @ T, S2, atol=1e-9 * np.abs(S2).max())
    cost = np.trace(S1) + np.trace(S2) - 2 * np.trace(S1 @ T)
    assert cost == pytest.approx(go.w2_gaussian([0, 0], S1, [0, 0], S2) ** 2, rel=1e-8, abs=1e-10)


@given(spd2(), spd2(), st.floats(0.05, 2 * np.pi - 0.05))
def test_gaussian_brenier_map_is_the_only_linear_convex_gradient(S1, S2, offset):
    """Uniqueness in Brenier's theorem among linear push-forwards S2^{1/2}US1^{-1/2}: T is one of
    them (U* = S2^{-1/2}TS1^{1/2} is orthogonal), and a rotation of U* by any angle away from 0, or any
    reflection, gives a map that is not symmetric positive semidefinite. 1e-9: rounding of 2×2
    eigendecompositions."""
    T = brenier_map_gaussian(S1, S2)
    lam2, V2 = np.linalg.eigh(S2)
    lam1, V1 = np.linalg.eigh(S1)
    U_star = (V2 / np.sqrt(lam2)) @ V2.T @ T @ (V1 * np.sqrt(lam1)) @ V1.T
    np.testing.assert_allclose(U_star @ U_star.T, np.eye(2), atol=1e-9)
    a_star = np.arctan2(U_star[1, 0], U_star[0, 0])
    rotation, reflection = _linear_pushforwards(S1, S2, [a_star + offset])
    for L in (rotation, reflection):
        np.testing.assert_allclose(L @ S1 @ L.T, S2, atol=1e-9 * np.abs(S2).max())
    # a rotation by `offset` moves the map by O(offset); 1e-9 would only miss offsets below 1e-8
    assert not _is_convex_gradient(rotation, 1e-9 * np.abs(rotation).max())
    assert not _is_convex_gradient(reflection, 1e-9 * np.abs(reflection).max())
    assert _is_convex_gradient(_linear_pushforwards(S1, S2, [a_star])[0], 1e-9 * np.abs(T).max())


@given(st.floats(1e-3, 0.5), st.sampled_from([0, 1]))
def test_the_assignment_gap_is_zero_exactly_at_a_tie(shift, axis):
    """The symmetric 2-point problem {(±1, 0)} → {(0, ±1)} has two optimal assignments (gap 0). Moving
    the target (0, 1) sideways by `shift` makes the optimum unique: the two assignments' costs
    ½Σ|x − y|²/n differ by exactly `shift`; moving it along the axis keeps the tie."""
    x = np.array([[1.0, 0.0], [-1.0, 0.0]])
    y = np.array([[0.0, 1.0], [0.0, -1.0]])
    assert _assignment_gap(x, y)["gap_to_second_best"] == 0.0
    y[0, 0] += shift if axis == 0 else 0.0
    y[0, 1] += shift if axis == 1 else 0.0
    gap = _assignment_gap(x, y)["gap_to_second_best"]
    assert gap == (pytest.approx(shift, rel=1e-12) if axis == 0 else 0.0)


@given(st.integers(2, 12), st.integers(0, 2 ** 31 - 1))
def test_measure_sinkhorn_is_doubly_stochastic_against_the_weights(n, seed):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 2, dtype=F64, generator=gen)
    a = torch.rand(n, dtype=F64, generator=gen) + 0.1
    a = a / a.sum()
    k = measure_sinkhorn(0.3 * x @ x.T, a, sweeps=3000)
    assert float(((a @ k) - 1).abs().max()) < 1e-12      # the last normalization is over x
    assert float(((k @ a) - 1).abs().max()) < 1e-8       # converged (contraction, 3000 sweeps)


def test_particle_ode_displays_cannot_both_hold():
    """Counterexample of heatflow:particle-ode: on Gaussian heat flows N(0, s + 2Dt) the velocity
    −½∇log ρ transports ρ only for D = ½, the printed PDE holds only for D = 1."""
    f = hf._residual_factors()
    D = sp.Symbol("D", positive=True)
    assert sp.simplify(f["continuity"] - (D - sp.Rational(1, 2))) == 0
    assert sp.simplify(f["printed_pde"] - (D - 1)) == 0


def test_sinkformer_attention_is_minus_the_barycentric_projection():
    """Counterexample of heatflow:sinkformer-update: with W_KᵀW_Q = −W_V = I the slides' attention
    output is −B(x), not the printed 2x − B(x) (nor x − B(x) with a residual)."""
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(20, 2, dtype=F64, generator=gen)
    eye = torch.eye(2, dtype=F64)
    out, _, _ = sk.sinkformer_attention(x, 0.5, eye, eye, -eye, tol=1e-13)
    B = sk.barycentric_projection(x, 0.5, cost="half_sq", tol=1e-13)
    assert float((out + B).abs().max()) < 1e-9
    assert float((out - (2 * x - B)).abs().max()) > 1.0


def test_sinkformer_scheme_misses_the_printed_heat_flow():
    """Counterexample of heatflow:claim-heat-flow (and the Δ reading of Result 3): on N(0,1) the
    Sinkformer SB scheme's sup-W2 to ∂ₜρ = Δρ stays at ≈ 0.32 as ε → 0, while to ∂ₜρ = ½Δρ it
    decays like ε²."""
    printed = [hf.gaussian_sup_w2(e, 1.0, "sb_half_sq") for e in (0.1, 0.05, 0.025)]
    half = [hf.gaussian_sup_w2(e, 0.5, "sb_half_sq") for e in (0.1, 0.05, 0.025)]
    assert min(printed) > 0.3 and abs(printed[-1] - printed[0]) < 0.02
    assert half[-1] < half[0] / 10

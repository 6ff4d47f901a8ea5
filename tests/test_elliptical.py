"""theory.elliptical: κ_g of Example 4.2 (exact), sampling E(m, Σ, g), the moment ODEs (25)-(27)."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from theory import elliptical as ell

v = sp.Symbol("v", positive=True)


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_kappa_gaussian_is_one_and_generator_normalized(d):
    g = ell.g_gaussian(d)
    assert ell.kappa_g(g, d) == 1
    assert ell.normalization(g, d) == 1


@pytest.mark.parametrize("d", [1, 2, 3])
def test_kappa_student_t_is_v_over_v_minus_2(d):
    g = ell.g_student_t(d, v)
    assert sp.simplify(ell.kappa_g(g, d) - v / (v - 2)) == 0
    assert sp.simplify(ell.normalization(g, d) - 1) == 0


@pytest.mark.parametrize("d,beta", [(1, sp.Rational(1, 2)), (2, sp.Integer(2)), (3, sp.Rational(3, 2))])
def test_power_exponential_kappa_matches_closed_form(d, beta):
    g = ell.g_power_exponential(d, beta)
    assert sp.simplify(ell.normalization(g, d) - 1) == 0
    assert sp.simplify(ell.kappa_g(g, d) - ell.kappa_power_exponential(d, beta)) == 0


@pytest.mark.parametrize("d", [1, 2, 3])
def test_power_exponential_with_beta_one_is_the_gaussian(d):
    assert sp.simplify(ell.g_power_exponential(d, 1) - ell.g_gaussian(d)) == 0


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_logistic_kappa_closed_form_vs_quadrature(d):
    # 30-digit quadrature rounded to float64: agreement to a few ulps
    assert ell.kappa_logistic(d) == pytest.approx(ell.kappa_logistic_quadrature(d), rel=1e-13)


def test_logistic_kappa_in_two_dimensions_is_log_two():
    assert ell.kappa_logistic(2) == pytest.approx(np.log(2), rel=1e-15)


@pytest.mark.parametrize("family,dof", [("gaussian", None), ("student_t", 7.0)])
def test_sample_covariance_is_kappa_sigma(family, dof):
    m, Sigma = np.array([0.5, -1.0]), np.array([[1.0, 0.3], [0.3, 0.5]])
    X = ell.sample_elliptical(family, m, Sigma, 400_000, np.random.default_rng(0), v=dof)
    kappa = ell.kappa_value(family, dof)
    # Monte-Carlo: std of an entry of the sample covariance ≈ sqrt(Var(x_i x_j)/N) ≲ 4e-3 here (v = 7
    # has a finite fourth moment); 2.5e-2 is > 6 standard errors.
    np.testing.assert_allclose(X.mean(0), m, atol=1.5e-2)
    np.testing.assert_allclose(np.cov(X.T), kappa * Sigma, atol=2.5e-2)


def _spd(rng, d, lo=0.3, scale=1.0):
    Q = rng.standard_normal((d, d))
    return scale * (Q @ Q.T / d + lo * np.eye(d))


@given(seed=st.integers(0, 2**31 - 1), d=st.integers(1, 3), mu=st.floats(0.0, 2.0))
def test_moment_ode_invariants(seed, d, mu):
    """(25) is the push-forward by G_t (proof of Prop. 4.3), so m_tᵀ Σ_t^{-1} m_t is constant; Σ_t, P_t
    stay symmetric and Σ_t positive definite."""
    rng = np.random.default_rng(seed)
    A, Sigma0 = _spd(rng, d, scale=0.4), _spd(rng, d, scale=0.3)
    V = 0.3 * (lambda Q: (Q + Q.T) / 2)(rng.standard_normal((d, d)))
    m0 = 0.5 * rng.standard_normal(d)
    path = ell.solve_25_26(m0, Sigma0, A, V, 1.3, mu, np.linspace(0, 1, 6))
    q = [m @ np.linalg.solve(S, m) for m, S in zip(path.m, path.Sigma)]
    # tolerance: solve_ivp at rtol 1e-11 over an O(1) horizon with O(1) condition numbers
    np.testing.assert_allclose(q, q[0], rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(path.Sigma, np.swapaxes(path.Sigma, 1, 2), atol=1e-12)
    np.testing.assert_allclose(path.P, np.swapaxes(path.P, 1, 2), atol=1e-12)
    assert np.all(np.linalg.eigvalsh(path.Sigma) > 0)


@given(seed=st.integers(0, 2**31 - 1), d=st.integers(1, 3))
def test_corollary_4_4_equals_proposition_4_3_with_zero_mean(seed, d):
    rng = np.random.default_rng(seed)
    A, Sigma0 = _spd(rng, d, scale=0.4), _spd(rng, d, scale=0.3)
    V = -_spd(rng, d, scale=0.3)
    t = np.linspace(1.0, 2.0, 4)
    p43 = ell.solve_25_26(np.zeros(d), Sigma0, A, V, 1.5, lambda s: 3 / s, t, t0=1.0)
    p44 = ell.solve_27(Sigma0, A, V, 1.5, lambda s: 3 / s, t, t0=1.0)
    np.testing.assert_allclose(p43.Sigma, p44.Sigma, rtol=1e-8, atol=1e-11)
    np.testing.assert_allclose(p43.P, p44.P, rtol=1e-8, atol=1e-11)
    assert np.all(p43.m == 0)


def test_zero_value_matrix_freezes_the_flow():
    """V = 0 and P_0 = 0 give P ≡ 0, hence C ≡ 0 and constant (m, Σ)."""
    A, Sigma0 = np.eye(2), np.array([[1.0, 0.2], [0.2, 0.5]])
    path = ell.solve_25_26([0.3, 0.1], Sigma0, A, np.zeros((2, 2)), 2.0, 1.0, [0.0, 1.0, 5.0])
    assert np.all(path.P == 0)
    np.testing.assert_array_equal(path.Sigma[-1], Sigma0)


def test_symbolic_reduction_4_3_to_4_4():
    res_S, res_P = ell.corollary_4_4_residual_sym(2)
    assert res_S.is_zero_matrix and res_P.is_zero_matrix


def test_second_moment_of_a_path():
    path = ell.solve_25_26([1.0, 0.0], np.eye(2), np.eye(2), np.zeros((2, 2)), 2.0, 0.0, [0.0, 1.0])
    np.testing.assert_array_equal(path.second_moment[0], 2 * np.eye(2) + np.diag([1.0, 0.0]))


# ------------------------------------------------------------------ bad input


def test_bad_inputs_raise_naming_the_parameter():
    S, A = np.eye(2), np.eye(2)
    with pytest.raises(ValueError, match="A must be symmetric"):
        ell.solve_25_26([0, 0], S, [[1.0, 0.5], [0.0, 1.0]], np.zeros((2, 2)), 1.0, 0.0, [0.0, 1.0])
    with pytest.raises(ValueError, match="A must be positive definite"):
        ell.solve_25_26([0, 0], S, -np.eye(2), np.zeros((2, 2)), 1.0, 0.0, [0.0, 1.0])
    with pytest.raises(ValueError, match="V must be symmetric"):
        ell.solve_25_26([0, 0], S, A, [[0.0, 1.0], [0.0, 0.0]], 1.0, 0.0, [0.0, 1.0])
    with pytest.raises(ValueError, match="Sigma0 must be positive definite"):
        ell.solve_25_26([0, 0], np.diag([1.0, -1.0]), A, np.zeros((2, 2)), 1.0, 0.0, [0.0, 1.0])
    with pytest.raises(ValueError, match="kappa"):
        ell.solve_27(S, A, np.zeros((2, 2)), 0.0, 0.0, [0.0, 1.0])
    with pytest.raises(ValueError, match="alpha"):
        ell.solve_27(S, A, np.zeros((2, 2)), 1.0, -1.0, [0.0, 1.0])
    with pytest.raises(ValueError, match="t_eval"):
        ell.solve_27(S, A, np.zeros((2, 2)), 1.0, 0.0, [1.0, 0.0])
    with pytest.raises(ValueError, match="t_eval"):
        ell.solve_27(S, A, np.zeros((2, 2)), 1.0, 0.0, [0.0])
    with pytest.raises(ValueError, match="Sigma0 contains NaN"):
        ell.solve_27(np.full((2, 2), np.nan), A, np.zeros((2, 2)), 1.0, 0.0, [0.0, 1.0])


@pytest.mark.parametrize("dof", [2.0, 1.5, -3.0, float("nan")])
def test_student_t_needs_more_than_two_degrees_of_freedom(dof):
    with pytest.raises(ValueError, match="v"):
        ell.g_student_t(2, dof)
    with pytest.raises(ValueError, match="v"):
        ell.sample_elliptical("student_t", [0.0, 0.0], np.eye(2), 10, np.random.default_rng(0), v=dof)
    with pytest.raises(ValueError, match="v"):
        ell.kappa_value("student_t", dof)


def test_sampler_rejects_bad_family_and_size():
    with pytest.raises(ValueError, match="family"):
        ell.sample_elliptical("cauchy", [0.0], np.eye(1), 3, np.random.default_rng(0))
    with pytest.raises(ValueError, match="N"):
        ell.sample_elliptical("gaussian", [0.0], np.eye(1), 0, np.random.default_rng(0))
    with pytest.raises(TypeError, match="N"):
        ell.sample_elliptical("gaussian", [0.0], np.eye(1), 2.5, np.random.default_rng(0))
    with pytest.raises(TypeError, match="d"):
        ell.g_gaussian(2.0)
    with pytest.raises(ValueError, match="d"):
        ell.g_gaussian(0)
    with pytest.raises(ValueError, match="beta"):
        ell.g_power_exponential(2, 0.0)

"""Closed forms of theory/gaussian_ot.py (seed 003): the same-marginal SB of a Gaussian, the
Langevin coupling, the Result-1 divergence, W2 (Bures, 1-D quantiles), mixtures and heat flow."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.integrate import quad, solve_ivp

from theory import gaussian_ot as go

costs = st.sampled_from(sorted(go.COSTS))
eps_st = st.floats(1e-3, 10.0)


@st.composite
def spd(draw, dims=(1, 2, 3)):
    d = draw(st.sampled_from(dims))
    seed = draw(st.integers(0, 2 ** 31 - 1))
    A = np.random.default_rng(seed).standard_normal((d, d))
    return A @ A.T + draw(st.floats(0.1, 2.0)) * np.eye(d)


@given(spd(), eps_st, costs)
def test_sb_cross_covariance_solves_the_schrodinger_system(Sigma, eps, cost):
    """π ∝ exp(−κ|x−y|²/ε)ρ⊗ρ·(scalings): the joint precision has off-diagonal block −(2κ/ε)I."""
    joint = go.sb_covariance(Sigma, eps, cost)
    d = len(Sigma)
    P = np.linalg.inv(joint)
    e = go.effective_eps(eps, cost)
    # conditioning of the joint covariance is ≲ (‖Σ‖/ε' + 1)²; the check is relative to 1/ε'
    cond = np.linalg.cond(joint)
    np.testing.assert_allclose(P[:d, d:] * e, -np.eye(d), atol=1e-13 * cond)
    C = go.sb_cross_covariance(Sigma, eps, cost)
    np.testing.assert_allclose(e * C, Sigma @ Sigma - C @ C, atol=1e-11 * (1 + np.abs(Sigma).max()) ** 2)


@given(spd(), eps_st)
def test_cost_convention_is_a_rescaling_of_eps(Sigma, eps):
    np.testing.assert_allclose(go.sb_cross_covariance(Sigma, eps, "sq"),
                               go.sb_cross_covariance(Sigma, eps / 2, "half_sq"), rtol=1e-12, atol=1e-14)


@given(spd(), st.floats(1e-3, 0.2))
def test_barycentric_map_is_x_plus_half_eps_score_to_first_order(Sigma, eps):
    """Result 2 slide: B(x) = x + (ε/2)∇log ρ(x) + O(ε²) for the cost ½|x−y|²; A = I − (ε/2)Σ⁻¹ + O(ε²)."""
    A = go.barycentric_matrix(Sigma, eps, "half_sq")
    Sinv = np.linalg.inv(Sigma)
    lead = np.eye(len(Sigma)) - 0.5 * eps * Sinv
    # remainder: ε²/8·Σ⁻² (from √(s²+ε²/4) = s + ε²/(8s)), bounded by ε²‖Σ⁻¹‖²/8 plus rounding
    assert np.abs(A - lead).max() <= eps ** 2 * np.linalg.norm(Sinv, 2) ** 2 / 8 + 1e-12


@given(spd((1, 2)), st.floats(0.01, 2.0), st.sampled_from([-1, 1]))
def test_langevin_coupling_solves_the_lyapunov_equations(Sigma, t, s):
    """dCov(X_t)/dt = ΘV + VΘ + I, dCov(X₀,X_t)/dt = Cov(X₀,X_t)Θ, Θ = s·½Σ⁻¹ (OU process)."""
    d = len(Sigma)
    Theta = 0.5 * s * np.linalg.inv(Sigma)

    def rhs(_, y):
        V, X = y[: d * d].reshape(d, d), y[d * d:].reshape(d, d)
        return np.concatenate([(Theta @ V + V @ Theta.T + np.eye(d)).ravel(), (X @ Theta.T).ravel()])

    sol = solve_ivp(rhs, (0, t), np.concatenate([Sigma.ravel(), Sigma.ravel()]), rtol=1e-11, atol=1e-12)
    V, X = sol.y[: d * d, -1].reshape(d, d), sol.y[d * d:, -1].reshape(d, d)
    joint = go.langevin_coupling_covariance(Sigma, t, s)
    scale = np.abs(V).max()
    np.testing.assert_allclose(joint[d:, d:], V, atol=1e-8 * scale)   # ODE solver at rtol 1e-11
    np.testing.assert_allclose(joint[:d, d:], X, atol=1e-8 * scale)
    if s == -1:   # stationary: the second marginal is ρ again
        np.testing.assert_allclose(joint[d:, d:], Sigma, atol=1e-12 * scale)


@given(spd((1, 2)), st.floats(0.05, 1.0), costs, st.sampled_from([-1, 1]))
def test_result1_divergence_matches_the_direct_formula(Sigma, eps, cost, s):
    """The stable eigenvalue-wise Jeffreys divergence equals KL(P|Q) + KL(Q|P) from the full
    covariances (log-determinants included) where the latter is still accurate (ε ≥ 0.05)."""
    P = go.langevin_coupling_covariance(Sigma, eps, s)
    Q = go.sb_covariance(Sigma, eps, cost)
    n = len(P)

    def kl(A, B):
        return 0.5 * (np.trace(np.linalg.solve(B, A)) - n + np.linalg.slogdet(B)[1] - np.linalg.slogdet(A)[1])

    direct = kl(P, Q) + kl(Q, P)
    stable = go.result1_jeffreys(Sigma, eps, cost, s)
    assert stable >= 0
    # the direct formula cancels O(1) terms: absolute error ~1e-16·cond(Q)² ≲ 1e-9 here
    assert abs(stable - direct) <= 1e-7 * direct + 1e-9


@pytest.mark.parametrize("v", [0.5, 1.0, 3.0])
def test_result1_orders_for_each_convention(v):
    """Order of J(ε) = H(𝒞|π) + H(π|𝒞) for N(0, v): ε⁴ (cost ½, drift −½∇g), ε (drift +), ε⁰ (cost |x−y|²)."""
    S = np.array([[v]])
    order = {k: np.log2(go.result1_jeffreys(S, 2e-3, *k) / go.result1_jeffreys(S, 1e-3, *k))
             for k in [("half_sq", -1), ("half_sq", 1), ("sq", -1), ("sq", 1)]}
    # two-point orders; the next term of each expansion is O(ε/v) ≤ 0.4% relative here
    assert order[("half_sq", -1)] == pytest.approx(4, abs=0.05)
    assert order[("half_sq", 1)] == pytest.approx(1, abs=0.05)
    assert order[("sq", -1)] == pytest.approx(0, abs=0.05)
    assert order[("sq", 1)] == pytest.approx(0, abs=0.05)


@given(spd(), spd(), st.integers(0, 1000))
def test_w2_gaussian_properties(S1, S2, seed):
    if len(S1) != len(S2):
        S2 = S1 + np.eye(len(S1))
    d = len(S1)
    m1, m2 = np.random.default_rng(seed).standard_normal((2, d))
    w = go.w2_gaussian(m1, S1, m2, S2)
    assert w == pytest.approx(go.w2_gaussian(m2, S2, m1, S1), rel=1e-9, abs=1e-9)
    assert go.w2_gaussian(m1, S1, m1, S1) < 1e-6    # sqrt of a rounding-level W2²
    # commuting covariances: W2² = |Δm|² + ‖Σ₁^{1/2} − Σ₂^{1/2}‖_F²
    lam, U = np.linalg.eigh(S1)
    S3 = U @ np.diag(lam ** 2 + 1) @ U.T
    expect = np.sum((m1 - m2) ** 2) + np.sum((np.sqrt(lam) - np.sqrt(lam ** 2 + 1)) ** 2)
    assert go.w2_gaussian(m1, S1, m2, S3) ** 2 == pytest.approx(expect, rel=1e-9)
    ot = pytest.importorskip("ot")
    assert w == pytest.approx(float(ot.gaussian.bures_wasserstein_distance(m1, m2, S1, S2)), rel=1e-6, abs=1e-8)


@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 10 ** 6))
def test_w2_1d_matches_sorting_and_linear_programming(n, m, seed):
    rng = np.random.default_rng(seed)
    x, y = rng.standard_normal(n), rng.standard_normal(m) + 1
    if n == m:   # uniform weights, equal sizes: the sorted-samples formula
        assert go.w2_1d(x, y) == pytest.approx(np.sqrt(np.mean((np.sort(x) - np.sort(y)) ** 2)), rel=1e-12)
    assert go.w2_1d(x, x + 0.7) == pytest.approx(0.7, rel=1e-12)
    a, b = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(m))
    ot = pytest.importorskip("ot")
    lp = ot.emd2(a, b, (x[:, None] - y[None]) ** 2)
    assert go.w2_1d(x, y, a, b) ** 2 == pytest.approx(lp, rel=1e-9, abs=1e-12)


MIX = go.GaussianMixture.one_d([0.3, 0.7], [-1.0, 2.0], [0.5, 1.5])


@given(st.floats(-6, 6))
def test_mixture_score_is_the_gradient_of_logpdf(x):
    h = 1e-5
    fd = (MIX.logpdf(np.array([x + h])) - MIX.logpdf(np.array([x - h])))[0] / (2 * h)
    assert MIX.score(np.array([x]))[0, 0] == pytest.approx(fd, abs=1e-6)  # central FD error O(h²)+rounding/h


@given(st.floats(0.0, 3.0), st.floats(0.01, 3.0), st.floats(0.1, 2.0))
def test_heat_semigroup(s, t, D):
    """e^{tDΔ}e^{sDΔ} = e^{(s+t)DΔ}, and ∂ₜρ = DΔρ at a point (finite differences)."""
    a, b = MIX.heat(s, D).heat(t, D), MIX.heat(s + t, D)
    np.testing.assert_allclose(a.covs, b.covs, rtol=1e-12)
    x, dt, dx = np.array([0.3]), 1e-5, 1e-3
    drho_dt = (np.exp(MIX.heat(t + dt, D).logpdf(x)) - np.exp(MIX.heat(t - dt, D).logpdf(x))) / (2 * dt)
    p = lambda y: np.exp(MIX.heat(t, D).logpdf(np.array([y])))[0]
    lap = (p(x[0] + dx) - 2 * p(x[0]) + p(x[0] - dx)) / dx ** 2
    assert drho_dt[0] == pytest.approx(D * lap, rel=1e-4, abs=1e-7)   # FD errors O(dt², dx²)


@given(st.floats(1e-9, 1 - 1e-9))
def test_quantile_inverts_cdf(u):
    assert MIX.cdf(MIX.quantile(np.array([u])))[0] == pytest.approx(u, rel=1e-9, abs=1e-14)


@given(st.lists(st.floats(-5, 5), min_size=1, max_size=3), st.integers(0, 100))
def test_w2_to_points_exact(xs, seed):
    """W2(Σaᵢδ_{xᵢ}, ρ)² = ∫₀¹ (Q_atoms(u) − F⁻¹(u))² du: one atom in closed form, several by quad."""
    x = np.array(xs)
    a = np.random.default_rng(seed).dirichlet(np.ones(len(x)))
    if len(x) == 1:
        m, v = MIX.means[:, 0], MIX.covs[:, 0, 0]
        assert MIX.w2_to_points(x) ** 2 == pytest.approx(np.sum(MIX.weights * (v + (m - x[0]) ** 2)), rel=1e-10)
    order = np.argsort(x)
    q = MIX.quantile(np.r_[0.0, np.cumsum(a[order])[:-1], 1.0])   # atom i carries (q_{i−1}, q_i]
    m, sd = MIX.means[:, 0], np.sqrt(MIX.covs[:, 0, 0])
    pdf = lambda y: float(np.sum(MIX.weights * np.exp(-0.5 * ((y - m) / sd) ** 2) / (sd * np.sqrt(2 * np.pi))))
    ref = sum(quad(lambda y: (y - xi) ** 2 * pdf(y), lo, hi)[0]
              for xi, lo, hi in zip(x[order], q[:-1], q[1:]))
    assert MIX.w2_to_points(x, a) ** 2 == pytest.approx(ref, rel=1e-7)   # quad's default accuracy


def test_monotone_map_w2_on_gaussians():
    """T(x) = m₁ + (s₁/s₀)(x − m₀) pushes N(m₀,s₀²) to N(m₁,s₁²): W2 = 0; T + c gives |c|."""
    src = go.GaussianMixture.one_d([1.0], [0.5], [2.0])
    dst = go.GaussianMixture.one_d([1.0], [-1.0], [0.5])
    x = np.linspace(-12, 12, 4001)
    a = np.exp(src.logpdf(x))
    a /= a.sum()
    T = -1.0 + np.sqrt(0.5 / 2.0) * (x - 0.5)
    # F₀ near 1 keeps ~1e-16 absolute precision, so far-tail quantiles carry ~1e-9 errors at mass ~1e-17
    assert go.monotone_map_w2(x, T, a, src, dst) < 1e-8
    assert go.monotone_map_w2(x, T + 0.3, a, src, dst) == pytest.approx(0.3, rel=1e-9)
    with pytest.raises(ValueError, match="Tx0"):
        go.monotone_map_w2(x, -T, a, src, dst)


def test_bad_input():
    with pytest.raises(ValueError, match="eps"):
        go.sb_cross_covariance(np.eye(2), 0.0)
    with pytest.raises(ValueError, match="eps"):
        go.sb_cross_covariance(np.eye(2), float("nan"))
    with pytest.raises(TypeError, match="eps"):
        go.sb_cross_covariance(np.eye(2), "0.1")
    with pytest.raises(ValueError, match="positive definite"):
        go.sb_cross_covariance(np.diag([1.0, -1.0]), 0.1)
    with pytest.raises(ValueError, match="symmetric"):
        go.sb_cross_covariance(np.array([[1.0, 0.5], [0.0, 1.0]]), 0.1)
    with pytest.raises(ValueError, match="Sigma"):
        go.sb_cross_covariance(np.full((2, 2), np.nan), 0.1)
    with pytest.raises(ValueError, match="cost"):
        go.sb_cross_covariance(np.eye(2), 0.1, cost="l1")
    with pytest.raises(ValueError, match="drift_sign"):
        go.langevin_coupling_covariance(np.eye(2), 0.1, drift_sign=0)
    with pytest.raises(ValueError, match="weights"):
        go.w2_1d([0.0, 1.0], [0.0], a=[0.5, 0.6])
    with pytest.raises(ValueError, match="x contains NaN"):
        go.w2_1d([np.nan], [0.0])
    with pytest.raises(ValueError, match="weights"):
        go.GaussianMixture.one_d([0.5, 0.6], [0.0, 1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="diffusivity"):
        MIX.heat(1.0, 0.0)

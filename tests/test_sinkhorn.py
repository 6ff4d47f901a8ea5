"""particles/sinkhorn.py (seed 003): log-domain Sinkhorn, same-marginal Schrödinger bridges, the
SB / Euler / Sinkformer updates, against their defining properties and the Gaussian closed forms."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles import sinkhorn as sk
from theory import gaussian_ot as go

F64 = torch.float64


def cloud(seed, shape):
    return torch.randn(*shape, dtype=F64, generator=torch.Generator().manual_seed(seed))


def dirichlet(seed, shape):
    w = torch.rand(*shape, dtype=F64, generator=torch.Generator().manual_seed(seed)) + 0.1
    return w / w.sum(-1, keepdim=True)


def grid(v, h=0.08, radius=10.0):
    """Weighted grid quadrature of N(0, v) (spectrally accurate for smooth integrands)."""
    x = torch.arange(-radius, radius + h / 2, h, dtype=F64)[:, None]
    a = torch.exp(-x[:, 0] ** 2 / (2 * v))
    return x, a / a.sum()


@given(st.integers(2, 25), st.integers(2, 25), st.sampled_from([1, 2, 3]), st.floats(0.1, 5.0),
       st.sampled_from([(), (2,)]), st.integers(0, 10 ** 6))
def test_sinkhorn_plan_has_the_prescribed_marginals(n, m, d, eps, batch, seed):
    x, y = cloud(seed, batch + (n, d)), cloud(seed + 1, batch + (m, d))
    a, b = dirichlet(seed, batch + (n,)), dirichlet(seed + 2, batch + (m,))
    C = sk.pairwise_cost(x, y)
    tol = 1e-11
    f, g, report = sk.sinkhorn_log(C, eps, a, b, tol=tol)
    P = torch.exp(sk.log_plan(C, eps, f, g, a, b))
    assert report.converged and report.residual <= tol
    torch.testing.assert_close(P.sum(-2), b, rtol=0, atol=1e-13)   # the returned pair has exact columns
    assert float((P.sum(-1) - a).norm(dim=-1).max()) <= tol       # rows within the reported residual


@given(st.integers(2, 30), st.sampled_from([1, 2]), st.floats(0.05, 3.0), st.sampled_from(sorted(go.COSTS)),
       st.integers(0, 10 ** 6))
def test_same_marginal_bridge_is_the_unique_symmetric_plan(n, d, eps, cost, seed):
    """π_{ρ,ε} from the symmetric fixed point equals the alternating Sinkhorn plan (uniqueness of the
    entropic plan), is symmetric, and has both marginals a."""
    x, a = cloud(seed, (n, d)), dirichlet(seed, (n,))
    br = sk.schrodinger_bridge(x, eps, a, cost=cost, tol=1e-12)
    P = torch.exp(br.log_plan())
    # the plan is exp(f_i + f_j − C_ij/ε)a_i a_j with a symmetric C: symmetric up to rounding of O(1/n²)
    # entries; the marginal residual is ≤ tol = 1e-12 in ℓ2, 1e-11 leaves room for the final rounding
    torch.testing.assert_close(P, P.T, rtol=0, atol=1e-15)
    torch.testing.assert_close(P.sum(0), a, rtol=0, atol=1e-11)
    C = sk.pairwise_cost(x, x, cost)
    f, g, _ = sk.sinkhorn_log(C, eps, a, a, tol=1e-12, max_iter=200_000)
    # both plans satisfy the marginals to 1e-12; the plan is Lipschitz in the marginals with a
    # constant growing like e^{diam²/ε}, so compare at 1e-8
    torch.testing.assert_close(P, torch.exp(sk.log_plan(C, eps, f, g, a, a)), rtol=0, atol=1e-8)


@settings(max_examples=8)
@given(st.floats(0.5, 2.0), st.floats(0.2, 1.0), st.sampled_from(sorted(go.COSTS)))
def test_bridge_of_a_gaussian_matches_the_closed_form(v, eps, cost):
    """Sinkhorn on a grid quadrature of N(0, v) reproduces Cov(X, Y) = (v² + ε'²/4)^{1/2} − ε'/2 and
    the linear barycentric projection B(x) = (C/v)x (h = 0.08 ≪ √ε resolves the kernel)."""
    x, a = grid(v)
    br = sk.schrodinger_bridge(x, eps, a, cost=cost, tol=1e-13)
    P = torch.exp(br.log_plan())
    cross = float(x[:, 0] @ P @ x[:, 0])
    C = float(go.sb_cross_covariance([[v]], eps, cost)[0, 0])
    # quadrature error of the trapezoid rule on the resolved Gaussian is spectrally small; 1e-9 is
    # the marginal tolerance 1e-13 amplified by the plan's e^{diam²/ε} conditioning (ε ≥ 0.2 here)
    assert cross == pytest.approx(C, rel=1e-9)
    B = br.barycentric_projection()[:, 0]
    inner = x[:, 0].abs() < 3 * np.sqrt(v)
    A = float(go.barycentric_matrix([[v]], eps, cost)[0, 0])
    torch.testing.assert_close(B[inner], A * x[inner, 0], rtol=0, atol=1e-8)


@settings(max_examples=6)
@given(st.floats(0.5, 2.0), st.floats(0.2, 1.0))
def test_sb_and_euler_steps_match_their_gaussian_closed_forms(v, eps):
    x, a = grid(v)
    sb, _ = sk.sb_step(x, eps, a, tol=1e-13)
    euler = sk.euler_step(x, eps, lambda y: -y / v)        # ∇log N(0, v) = −x/v
    var = lambda y: float(a @ y[:, 0] ** 2)
    assert var(sb) == pytest.approx(float(go.sb_step_gaussian([[v]], eps)[0, 0]), rel=1e-9)
    # Euler is linear here: exactly (1 + ε/2v)² times the grid's own variance (which is v only up
    # to the ~1e-11 tail mass beyond the grid)
    assert var(euler) == pytest.approx((1 + eps / (2 * v)) ** 2 * var(x), rel=1e-12)
    assert var(euler) == pytest.approx(float(go.euler_step_gaussian([[v]], eps)[0, 0]), rel=1e-9)


def test_sb_scheme_follows_the_exact_gaussian_recursion():
    x, a = grid(1.0, h=0.04)
    eps, steps = 0.25, 4
    path, total = sk.sb_scheme(x, eps, steps, a, tol=1e-12)
    S = np.array([[1.0]])
    for k in range(1, steps + 1):
        S = go.sb_step_gaussian(S, eps)
        assert float(a @ path[k, :, 0] ** 2) == pytest.approx(S[0, 0], rel=1e-8)
    assert path.shape == (steps + 1,) + x.shape and total >= steps


def test_euler_scheme_with_the_gaussian_score_follows_the_exact_recursion():
    """S^k with the score −x/Var of the current (Gaussian) measure: Var_{k+1} = (1 + ε/2Var_k)²Var_k."""
    x, a = grid(1.0)
    eps, steps = 0.1, 5
    path = sk.euler_scheme(x, eps, steps, lambda y: -y / float(a @ y[:, 0] ** 2))
    S = np.array([[float(a @ x[:, 0] ** 2)]])
    for k in range(1, steps + 1):
        S = go.euler_step_gaussian(S, eps)
        assert float(a @ path[k, :, 0] ** 2) == pytest.approx(S[0, 0], rel=1e-12)   # linear maps: rounding only


def test_batched_clouds_are_solved_independently():
    x = cloud(0, (3, 40, 2))
    batched = sk.barycentric_projection(x, 0.3, tol=1e-12)
    for i in range(3):   # both converge to tol 1e-12; 1e-10 allows the plan conditioning at ε = 0.3
        torch.testing.assert_close(batched[i], sk.barycentric_projection(x[i], 0.3, tol=1e-12),
                                   rtol=0, atol=1e-10)


@pytest.mark.slow  # the plan convention is pinned in seconds by tests/test_conventions.py
def test_matches_pot_sinkhorn_log():
    ot = pytest.importorskip("ot")
    x, a = cloud(1, (50, 2)), dirichlet(1, (50,))
    C = sk.pairwise_cost(x, x)
    f, g, _ = sk.sinkhorn_log(C, 0.5, a, a, tol=1e-12)
    P_pot = ot.bregman.sinkhorn_log(a.numpy(), a.numpy(), C.numpy(), 0.5, numItermax=100_000, stopThr=1e-13)
    # both solvers stop at marginal residual ≤ 1e-12; plan entries are ≤ 1 and agree to ≪ 1e-10
    np.testing.assert_allclose(torch.exp(sk.log_plan(C, 0.5, f, g, a, a)).numpy(), P_pot, atol=1e-10)


def test_sinkformer_kernel_is_doubly_stochastic_and_the_half_square_bridge():
    """Sinkhorn(xᵀy/ε) = N·π for the cost ½|x−y|² (not |x−y|²); with W_V = −I the attention
    output is −B_{ρ,ε}(x), so (2I − B)#ρ needs a skip connection 2x."""
    x, eps = cloud(2, (30, 2)), 0.6
    eye = torch.eye(2, dtype=F64)
    out, K, report = sk.sinkformer_attention(x, eps, eye, eye, -eye, tol=1e-12)
    assert report.converged
    # the last half-step is a column normalization (exact to rounding); rows are off by the stopping
    # residual (tol 1e-12 on 1/N-scaled marginals, ×N = 30 for K), the plans by its e^{diam²/ε} multiple
    torch.testing.assert_close(K.sum(0), torch.ones(30, dtype=F64), rtol=0, atol=1e-12)
    torch.testing.assert_close(K.sum(1), torch.ones(30, dtype=F64), rtol=0, atol=1e-10)
    half = 30 * torch.exp(sk.schrodinger_bridge(x, eps, cost="half_sq", tol=1e-13).log_plan())
    sq = 30 * torch.exp(sk.schrodinger_bridge(x, eps, cost="sq", tol=1e-13).log_plan())
    torch.testing.assert_close(K, half, rtol=0, atol=1e-9)
    assert float((K - sq).abs().max()) > 1e-2
    B = sk.barycentric_projection(x, eps, tol=1e-13)
    torch.testing.assert_close(out, -B, rtol=0, atol=1e-9)


def test_kde_score_on_a_fine_grid_is_the_score_of_the_smoothed_density():
    """Σ_j a_j N(x_j, h²) with a grid quadrature of ρ is ρ * N(0, h²) = e^{(h²/2)Δ}ρ (closed form)."""
    mix = go.GaussianMixture.one_d([0.5, 0.5], [-2.0, 2.0], [1.0, 1.0])
    x = torch.arange(-9, 9.0001, 0.02, dtype=F64)[:, None]
    a = torch.tensor(np.exp(mix.logpdf(x.numpy())), dtype=F64)
    a = a / a.sum()
    bw = 0.2
    at = torch.linspace(-4, 4, 41, dtype=F64)[:, None]
    exact = mix.heat(bw ** 2, 0.5).score(at.numpy())
    np.testing.assert_allclose(sk.kde_score(at, x, bw, a).numpy(), exact, atol=1e-10)


@pytest.mark.slow
def test_stable_at_small_eps_with_thousands_of_particles():
    x = torch.tensor(go.GaussianMixture.one_d([0.5, 0.5], [-2, 2], [1, 1]).sample(
        2000, np.random.default_rng(0)), dtype=F64)
    br = sk.schrodinger_bridge(x, 1e-3, tol=1e-10)
    B = br.barycentric_projection()
    P = torch.exp(br.log_plan())
    assert torch.isfinite(B).all() and torch.isfinite(br.f).all()
    torch.testing.assert_close(P.sum(1), torch.full((2000,), 1 / 2000, dtype=F64), rtol=0, atol=1e-10)


def test_stable_at_small_eps():
    """No overflow at ε = 1e-3, 1e-4 (entries of C/ε up to ~1e6), also for the raw xᵀy/ε kernel
    (alternating updates converge slowly there; only finiteness is asserted for them)."""
    x = cloud(3, (300, 1)) * 3
    for eps in (1e-3, 1e-4):
        br = sk.schrodinger_bridge(x, eps, tol=1e-10)
        B = br.barycentric_projection()
        assert br.report.converged and torch.isfinite(B).all()
        # B(x) = E[Y | X = x] is a convex combination of the atoms: it stays in their hull
        assert float(x.min()) - 1e-12 <= float(B.min()) and float(B.max()) <= float(x.max()) + 1e-12
        f, g, _ = sk.sinkhorn_log(-x @ x.T, eps, tol=1e-9, max_iter=20, raise_on_fail=False)
        assert torch.isfinite(f).all() and torch.isfinite(g).all()


def test_bad_input():
    x = cloud(0, (5, 2))
    for eps in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="eps"):
            sk.schrodinger_bridge(x, eps)
    with pytest.raises(TypeError, match="eps"):
        sk.schrodinger_bridge(x, "0.1")
    with pytest.raises(ValueError, match="weights"):
        sk.schrodinger_bridge(x, 0.1, torch.full((5,), 0.3, dtype=F64))
    with pytest.raises(ValueError, match="weights"):
        sk.schrodinger_bridge(x, 0.1, torch.full((4,), 0.25, dtype=F64))
    bad = x.clone()
    bad[0, 0] = float("nan")
    with pytest.raises(ValueError, match="x contains NaN"):
        sk.schrodinger_bridge(bad, 0.1)
    with pytest.raises(TypeError, match="x"):
        sk.schrodinger_bridge(x.numpy(), 0.1)
    with pytest.raises(ValueError, match="cost"):
        sk.schrodinger_bridge(x, 0.1, cost="l1")
    for bw in (0.0, float("nan")):
        with pytest.raises(ValueError, match="bandwidth"):
            sk.kde_score(x, x, bw)
    with pytest.raises(TypeError, match="max_iter"):
        sk.sinkhorn_log(sk.pairwise_cost(x, x), 1.0, max_iter=2.5)
    with pytest.raises(ValueError, match="score"):
        sk.euler_step(x, 0.1, torch.zeros(5, 3, dtype=F64))
    with pytest.raises(ValueError, match="W_V"):
        sk.sinkformer_attention(x, 0.1, torch.eye(2, dtype=F64), torch.eye(2, dtype=F64), torch.eye(3, dtype=F64))
    with pytest.raises(sk.SinkhornNotConverged, match="residual") as info:
        y = cloud(4, (50, 1))
        sk.sinkhorn_log(sk.pairwise_cost(y, y), 1.0, tol=1e-14, max_iter=2)
    assert info.value.report.residual > info.value.report.tol and not info.value.report.converged
    with pytest.raises(sk.SinkhornNotConverged):
        sk.schrodinger_bridge(cloud(1, (50, 1)), 1e-3, tol=1e-14, max_iter=1)

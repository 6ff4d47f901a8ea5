"""particles/sinkhorn_online.py and `sinkhorn_points`'s online path (seed 003, slide "Sinkhorn
Algorithm"; a given chunk, or solver="online", selects it): the chunked O(N)-memory log-domain
Sinkhorn against the dense solver, its marginals, ε-scaling, and
its behaviour at small ε. float64 throughout."""
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles import sinkhorn as sk
from particles.sinkhorn_online import OnlineUpdates, default_chunk
from theory import gaussian_ot as go

F64 = torch.float64
EPS_MACH = torch.finfo(F64).eps


def cloud(seed, shape, scale=1.0, shift=0.0):
    return shift + scale * torch.randn(*shape, dtype=F64, generator=torch.Generator().manual_seed(seed))


def dirichlet(seed, shape):
    w = torch.rand(*shape, dtype=F64, generator=torch.Generator().manual_seed(seed)) + 0.1
    return w / w.sum(-1, keepdim=True)


def rounding_scale(x, y, f, g, eps, cost="half_sq"):
    """The size of the exponents' rounding in potential units: κ·R² (R the largest distance to the
    clouds' common mean, the expanded |o|² − 2o·p + |p|²) + the potentials + ε·log of the sums."""
    both = torch.cat([x, y], dim=-2)
    R2 = float((both - both.mean(dim=-2, keepdim=True)).square().sum(-1).max())
    n = max(x.shape[-2], y.shape[-2])
    return go.cost_kappa(cost) * R2 + float(torch.cat([f.abs(), g.abs()], -1).max()) + eps * (1 + math.log(n))


@given(st.integers(1, 24), st.integers(1, 24), st.sampled_from([1, 2, 3]), st.floats(0.1, 5.0),
       st.sampled_from([(), (2,)]), st.integers(1, 30), st.sampled_from(sorted(go.COSTS)),
       st.integers(0, 10 ** 6))
def test_equals_the_dense_solver_to_rounding_for_any_chunk(n, m, d, eps, batch, chunk, cost, seed):
    """Same updates, same stopping rule: the same iteration count, and potentials that differ by
    rounding only. Each update is 1-Lipschitz in the sup norm (a softmin), so the per-update
    rounding of the exponents (≈ a few ε_mach times `rounding_scale`) adds up at most linearly in
    the k iterations: |Δf|, |Δg| ≤ 4·(k + 1)·ε_mach·scale (measured: ≤ 0.02 of it over 60 draws)."""
    x, y = cloud(seed, batch + (n, d), scale=0.5), cloud(seed + 1, batch + (m, d), scale=0.5, shift=0.5)
    a, b = dirichlet(seed, batch + (n,)), dirichlet(seed + 2, batch + (m,))
    f0, g0, r0 = sk.sinkhorn_log(sk.pairwise_cost(x, y, cost), eps, a, b, tol=1e-11, max_iter=50_000)
    f1, g1, r1 = sk.sinkhorn_points(x, y, eps, a, b, cost=cost, tol=1e-11, max_iter=50_000, chunk=chunk)
    assert r1.iterations == r0.iterations and r1.converged
    bound = 4 * (r0.iterations + 1) * EPS_MACH * rounding_scale(x, y, f0, g0, eps, cost)
    assert float((f1 - f0).abs().max()) <= bound
    assert float((g1 - g0).abs().max()) <= bound


@given(st.integers(2, 40), st.integers(2, 40), st.floats(0.05, 2.0), st.sampled_from([None, 0.3, 0.7]),
       st.integers(1, 50), st.integers(0, 10 ** 6))
def test_returned_plan_meets_the_marginals_at_the_stated_tolerance(n, m, eps, scaling, chunk, seed):
    """The returned pair has exact columns and a row residual ‖π1 − a‖₂ ≤ tol, the report's
    residual being that of the plan itself (computed here from the dense cost)."""
    x, y = cloud(seed, (n, 2), scale=0.5), cloud(seed + 1, (m, 2), scale=0.5)
    a, b = dirichlet(seed, (n,)), dirichlet(seed + 2, (m,))
    tol = 1e-10
    f, g, report = sk.sinkhorn_points(x, y, eps, a, b, tol=tol, max_iter=100_000, eps_scaling=scaling,
                                      chunk=chunk)
    P = torch.exp(sk.log_plan(sk.pairwise_cost(x, y), eps, f, g, a, b))
    row = float((P.sum(1) - a).norm())
    assert report.converged and report.residual <= tol
    assert row <= tol + 1e-14          # the report's residual is the plan's, up to the final sum's rounding
    assert row == pytest.approx(report.residual, rel=1e-6, abs=1e-14)
    torch.testing.assert_close(P.sum(0), b, rtol=0, atol=1e-14)
    both = torch.cat([x, y])
    eps0 = 0.5 * float((both.amax(0) - both.amin(0)).norm()) ** 2   # ε-scaling starts at κ·diam²
    assert (report.annealing > 0) == (scaling is not None and eps0 > eps)


@settings(max_examples=25)
@given(st.integers(3, 30), st.floats(0.1, 1.0), st.sampled_from([0.2, 0.5, 0.8]), st.integers(0, 10 ** 6))
def test_eps_scaling_reaches_the_same_fixed_point(n, eps, scaling, seed):
    """Annealed and plain iterations stop at the same entropic plan (it is unique): both at
    marginal residual 1e-12, the plans agree to 1e-8 (the plan is Lipschitz in the marginals with
    a constant growing like e^{diam²/ε}, as in tests/test_sinkhorn.py); the same holds for the
    same-marginal bridge, dense and chunked."""
    x, y = cloud(seed, (n, 2), scale=0.5), cloud(seed + 1, (n + 3, 2), scale=0.5)
    C = sk.pairwise_cost(x, y)
    plans = []
    for q in (None, scaling):
        f, g, _ = sk.sinkhorn_points(x, y, eps, tol=1e-12, max_iter=20_000, eps_scaling=q, solver="online")
        plans.append(torch.exp(sk.log_plan(C, eps, f, g)))
    torch.testing.assert_close(plans[1], plans[0], rtol=0, atol=1e-8)
    bridges = [sk.schrodinger_bridge(x, eps, tol=1e-12, eps_scaling=q, chunk=c)
               for q, c in ((None, None), (scaling, None), (scaling, 4))]
    anneals = 0.5 * float((x.amax(0) - x.amin(0)).norm()) ** 2 > eps   # ε₀ = κ·diam² above ε
    for br in bridges[1:]:
        assert (br.report.annealing > 0) == anneals
        torch.testing.assert_close(torch.exp(br.log_plan()), torch.exp(bridges[0].log_plan()), rtol=0, atol=1e-8)


@settings(max_examples=25)
@given(st.integers(2, 40), st.sampled_from([1, 2]), st.floats(0.05, 2.0), st.sampled_from(sorted(go.COSTS)),
       st.integers(1, 45), st.integers(0, 10 ** 6))
def test_chunked_bridge_and_projection_equal_the_dense_ones(n, d, eps, cost, chunk, seed):
    """schrodinger_bridge(..., chunk=c) runs the same averaged iteration (same count) and its
    barycentric projection, evaluated chunk by chunk, equals the dense softmax to rounding (the
    projection is a convex combination of the points: its error is that of the weights, ≈ the
    exponents' rounding, times the cloud's radius)."""
    x, a = cloud(seed, (n, d)), dirichlet(seed, (n,))
    dense = sk.schrodinger_bridge(x, eps, a, cost=cost, tol=1e-11)
    online = sk.schrodinger_bridge(x, eps, a, cost=cost, tol=1e-11, chunk=chunk)
    assert online.report.iterations == dense.report.iterations
    scale = rounding_scale(x, x, dense.f, dense.f, eps, cost) / eps
    bound = 4 * (dense.report.iterations + 1) * EPS_MACH * scale
    assert float((online.f - dense.f).abs().max()) <= bound * eps
    radius = float(x.abs().max())
    torch.testing.assert_close(online.barycentric_projection(), dense.barycentric_projection(),
                               rtol=0, atol=bound * (1 + radius))


@pytest.mark.parametrize("eps", [1e-2, 1e-3, 1e-4])
def test_no_overflow_at_small_eps_far_from_the_origin(eps):
    """Clouds of radius 3 at distance 100 from the origin: C/ε reaches 10⁸, exp overflows in any
    scaling form. Fifty iterations stay finite and equal the dense (log-domain fallback) iterates;
    unconverged, the returned pair is the last row update's, so the plan's rows are exact
    (log-domain sums)."""
    x, y = cloud(0, (60, 2), scale=3.0, shift=100.0), cloud(1, (50, 2), scale=3.0, shift=101.0)
    f0, g0, r0 = sk.sinkhorn_log(sk.pairwise_cost(x, y), eps, max_iter=50, raise_on_fail=False)
    f1, g1, r1 = sk.sinkhorn_points(x, y, eps, max_iter=50, raise_on_fail=False, chunk=7)
    assert torch.isfinite(f1).all() and torch.isfinite(g1).all() and math.isfinite(r1.residual)
    bound = 4 * 51 * EPS_MACH * rounding_scale(x, y, f0, g0, eps)
    assert float((f1 - f0).abs().max()) <= bound and float((g1 - g0).abs().max()) <= bound
    log_p = sk.log_plan(sk.pairwise_cost(x, y), eps, f1, g1)
    assert not r1.converged
    torch.testing.assert_close(torch.logsumexp(log_p, dim=1).exp(), torch.full((60,), 1 / 60, dtype=F64),
                               rtol=1e-9, atol=0)


def _definition(o, p, v, log_w, eps, cost="half_sq"):
    """−ε log Σ_j w_j exp((v_j − κ|o_i − p_j|²)/ε), from the dense cost."""
    return -eps * torch.logsumexp((v - sk.pairwise_cost(o, p, cost)) / eps + log_w, dim=-1)


@pytest.mark.parametrize("offset", [0.0, 0.3, 500.0])
def test_shifted_and_fallback_paths_equal_the_definition(offset):
    """A call after the first uses the previous output as its shift: within e^{±τ} of it
    (offset 0, 0.3 in units of ε) the one-pass sum, beyond it (offset 500 ε: e^{500} overflows)
    the two-pass logsumexp; both equal the definition to rounding."""
    x, y = cloud(0, (37, 2)), cloud(1, (29, 2))
    log_b = torch.log(dirichlet(2, (29,)))
    eps = 0.05
    upd = OnlineUpdates(x, y, eps, "half_sq", 5)
    g = torch.zeros(29, dtype=F64)
    f = upd.rows(g, log_b)                        # first call: no shift, logsumexp
    torch.testing.assert_close(f, _definition(x, y, g, log_b, eps), rtol=1e-13, atol=1e-13)
    upd.f_prev = f + offset * eps                 # pretend the last output was this far off
    torch.testing.assert_close(upd.rows(g, log_b), _definition(x, y, g, log_b, eps), rtol=1e-13, atol=1e-13)


def test_default_chunk_bounds_the_block():
    assert default_chunk(1) == 1 << 18 and default_chunk(10 ** 5) == 2 and default_chunk(10 ** 7) == 1


def test_bad_input_names_the_parameter():
    x, y = cloud(0, (5, 2)), cloud(1, (4, 2))
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="eps"):
            sk.sinkhorn_points(x, y, bad)
    with pytest.raises(TypeError, match="eps"):
        sk.sinkhorn_points(x, y, "0.1")
    nan = x.clone()
    nan[0, 0] = float("nan")
    with pytest.raises(ValueError, match="x contains NaN"):
        sk.sinkhorn_points(nan, y, 0.1)
    with pytest.raises(ValueError, match="y must have"):
        sk.sinkhorn_points(x, cloud(1, (4, 3)), 0.1)
    with pytest.raises(ValueError, match="x must have shape"):
        sk.sinkhorn_points(x[0], y, 0.1)
    with pytest.raises(TypeError, match="y must be a torch.Tensor"):
        sk.sinkhorn_points(x, y.numpy(), 0.1)
    with pytest.raises(ValueError, match="tol"):
        sk.sinkhorn_points(x, y, 0.1, tol=0.0)
    with pytest.raises(ValueError, match="chunk"):
        sk.sinkhorn_points(x, y, 0.1, chunk=0)
    with pytest.raises(TypeError, match="chunk"):
        sk.schrodinger_bridge(x, 0.1, chunk=2.5)
    for bad in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError, match="eps_scaling"):
            sk.sinkhorn_points(x, y, 0.1, eps_scaling=bad)
    with pytest.raises(ValueError, match="eps_scaling"):
        sk.sinkhorn_log(sk.pairwise_cost(x, y), 0.1, eps_scaling=-0.5)
    with pytest.raises(ValueError, match="f must have shape"):
        sk.sinkhorn_points(x, y, 0.1, f=torch.zeros(4, dtype=F64))
    with pytest.raises(ValueError, match="g contains NaN"):
        sk.sinkhorn_points(x, y, 0.1, g=torch.full((4,), float("nan"), dtype=F64))
    with pytest.raises(ValueError, match="b must"):
        sk.sinkhorn_points(x, y, 0.1, b=torch.full((4,), 0.3, dtype=F64))
    with pytest.raises(ValueError, match="f must have shape"):
        sk.schrodinger_bridge(x, 0.1, f=torch.zeros(3, dtype=F64))


def test_not_converged_raises_with_the_residual_or_reports_it():
    x, y = cloud(0, (20, 2)), cloud(1, (20, 2))
    with pytest.raises(sk.SinkhornNotConverged, match="max_iter=3"):
        sk.sinkhorn_points(x, y, 0.01, max_iter=3, solver="online")
    f, g, report = sk.sinkhorn_points(x, y, 0.01, max_iter=3, raise_on_fail=False, eps_scaling=0.5, solver="online")
    assert not report.converged and report.residual > report.tol
    assert report.annealing > 0 and report.iterations == report.annealing + 3

"""Seed 002 §6.1 / App. G flatness estimators and §5.3 full-block Jacobian diagnostics, tested
against closed forms: quadratic losses (H = A exactly) and linear blocks (J = I_T ⊗ (I + W))."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles.lm import diagnostics as dg

F64 = torch.float64


def spd_with_gap(n: int, seed: int, top: float = 3.0, ratio: float = 0.5) -> np.ndarray:
    """A = Q diag(λ) Qᵀ with λ_1 = top and every other |λ_i| ≤ ratio·top."""
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    lam = np.concatenate([[top], rng.uniform(-ratio * top, ratio * top, n - 1)])
    return (Q * lam) @ Q.T


class Quadratic(torch.nn.Module):
    """L(θ) = ½ θᵀ A θ + bᵀ θ with θ split over two parameter tensors (shapes (k,) and (n-k,))."""

    def __init__(self, A: np.ndarray, k: int, seed: int):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        n = A.shape[0]
        self.A = torch.as_tensor(A, dtype=F64)
        self.b = torch.randn(n, generator=g, dtype=F64)
        theta = torch.randn(n, generator=g, dtype=F64)
        self.p1 = torch.nn.Parameter(theta[:k].clone())
        self.p2 = torch.nn.Parameter(theta[k:].clone())

    def theta(self) -> torch.Tensor:
        return torch.cat([self.p1, self.p2])

    def loss(self, batch=None) -> torch.Tensor:
        t = self.theta()
        return 0.5 * t @ self.A @ t + self.b @ t


def split(v: np.ndarray, k: int) -> list[torch.Tensor]:
    t = torch.as_tensor(v, dtype=F64)
    return [t[:k].clone(), t[k:].clone()]


sizes = st.integers(2, 12)
seeds = st.integers(0, 2**16)


# ---------------------------------------------------------------- Hessian-vector products (eq. 4)

@given(n=sizes, seed=seeds, data=st.data())
def test_hvp_of_quadratic_is_A_times_v(n, seed, data):
    k = data.draw(st.integers(1, n - 1))
    A = spd_with_gap(n, seed)
    model = Quadratic(A, k, seed)
    v = np.random.default_rng(seed + 1).standard_normal(n)
    hv = dg.hessian_vector_product(model.loss, list(model.parameters()), [None], split(v, k))
    # float64 products of O(1) entries: a few ulps times n
    np.testing.assert_allclose(torch.cat(hv).numpy(), A @ v, rtol=0, atol=1e-12 * n)


def test_hvp_matches_dense_hessian_of_a_nonlinear_net():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(7, 3, generator=g, dtype=F64)
    y = torch.randn(7, 2, generator=g, dtype=F64)
    W1 = torch.randn(5, 3, generator=g, dtype=F64, requires_grad=True)
    W2 = torch.randn(2, 5, generator=g, dtype=F64, requires_grad=True)

    def loss_of(w1, w2):
        return ((torch.tanh(x @ w1.T) @ w2.T - y) ** 2).mean()

    v = [torch.randn_like(W1), torch.randn_like(W2)]
    hv = dg.hessian_vector_product(lambda _: loss_of(W1, W2), [W1, W2], [None], v)
    flat = lambda th: loss_of(th[:15].reshape(5, 3), th[15:].reshape(2, 5))
    H = torch.func.hessian(flat)(torch.cat([W1.detach().flatten(), W2.detach().flatten()]))
    expected = H @ torch.cat([v[0].flatten(), v[1].flatten()])
    # two independent float64 autodiff paths on O(1) quantities
    torch.testing.assert_close(torch.cat([h.flatten() for h in hv]), expected, rtol=1e-10, atol=1e-12)


def test_hvp_is_averaged_over_the_fixed_batches():
    w = torch.tensor([0.3, -1.2], dtype=F64, requires_grad=True)
    scales = [1.0, 2.0, 5.0]  # L_b(w) = s_b Σ w⁴ / 4 -> H_b = 3 s_b diag(w²)
    loss = lambda s: s * (w ** 4).sum() / 4
    v = [torch.tensor([1.0, 1.0], dtype=F64)]
    hv = dg.hessian_vector_product(loss, [w], scales, v)[0]
    torch.testing.assert_close(hv, 3 * np.mean(scales) * w.detach() ** 2, rtol=1e-14, atol=0)


# ---------------------------------------------------------------- Hutchinson trace

@given(n=sizes, seed=seeds)
def test_hutchinson_per_probe_values_are_the_quadratic_forms(n, seed):
    A = spd_with_gap(n, seed)
    model = Quadratic(A, 1, seed)
    est = dg.hutchinson_trace(model.loss, list(model.parameters()), [None], probes=4,
                              generator=torch.Generator().manual_seed(seed))
    replay = torch.Generator().manual_seed(seed)
    for value in est.per_probe:
        v = torch.cat(dg.rademacher_like(list(model.parameters()), replay)).numpy()
        assert set(np.unique(v)) <= {-1.0, 1.0}
        assert abs(value - v @ A @ v) <= 1e-12 * n * np.abs(A).sum()
    assert est.n_params == n and math.isclose(est.trace_per_param, est.trace / n)


@given(n=sizes, seed=seeds)
def test_hutchinson_is_exact_for_a_diagonal_hessian(n, seed):
    # v_i² = 1 for Rademacher probes, so vᵀ diag(a) v = Σ a_i = tr exactly, with zero variance
    a = np.random.default_rng(seed).uniform(-2, 5, n)
    model = Quadratic(np.diag(a), n // 2 or 1, seed)
    est = dg.hutchinson_trace(model.loss, list(model.parameters()), [None], probes=3,
                              generator=torch.Generator().manual_seed(seed))
    assert abs(est.trace - a.sum()) <= 1e-12 * n * np.abs(a).max()
    assert est.std <= 1e-12 * n * np.abs(a).max()


def test_hutchinson_is_unbiased_with_the_rademacher_variance():
    # One probe has variance σ² = 2 Σ_{i≠j} A_ij². With P probes the mean has std σ/√P; a 5σ/√P
    # band fails with probability < 1/25 by Chebyshev (far less under the CLT), at a fixed seed.
    n, P = 10, 3000
    A = spd_with_gap(n, 7)
    sigma = math.sqrt(2 * ((A ** 2).sum() - (np.diag(A) ** 2).sum()))
    model = Quadratic(A, 4, 7)
    est = dg.hutchinson_trace(model.loss, list(model.parameters()), [None], probes=P,
                              generator=torch.Generator().manual_seed(1))
    assert abs(est.trace - np.trace(A)) < 5 * sigma / math.sqrt(P)
    # the reported probe spread estimates σ: relative error of a sample std with P samples ~ 1/√(2P)
    # times the kurtosis factor; 15% is > 5 such standard errors here
    assert abs(est.std - sigma) < 0.15 * sigma


# ---------------------------------------------------------------- power iteration

@given(n=sizes, seed=seeds)
def test_power_iteration_finds_the_dominant_eigenvalue(n, seed):
    # |λ_2/λ_1| ≤ 1/2: after k steps the Rayleigh quotient error is ≤ λ_1 (1/2)^{2k} · cond(v_0)
    A = spd_with_gap(n, seed, top=3.0, ratio=0.5)
    model = Quadratic(A, 1, seed)
    res = dg.power_iteration(model.loss, list(model.parameters()), [None], iters=80, tol=1e-14,
                             generator=torch.Generator().manual_seed(seed))
    assert abs(res.lambda_max - 3.0) < 1e-9


def test_power_iteration_returns_the_eigenvalue_of_largest_modulus():
    # documented behaviour away from a minimum: a negative eigenvalue can dominate
    A = np.diag([1.0, -4.0, 0.5])
    model = Quadratic(A, 1, 0)
    res = dg.power_iteration(model.loss, list(model.parameters()), [None], iters=100, tol=1e-15,
                             generator=torch.Generator().manual_seed(0))
    assert abs(res.lambda_max + 4.0) < 1e-9


def test_power_iteration_stops_early_at_the_paper_tolerance():
    A = np.diag([2.0, 1e-3, 1e-3])  # gap 2000: converges in a few steps
    model = Quadratic(A, 1, 0)
    res = dg.power_iteration(model.loss, list(model.parameters()), [None],
                             generator=torch.Generator().manual_seed(0))
    assert res.converged and len(res.history) < dg.POWER_ITERS
    assert abs(res.history[-1] - res.history[-2]) < dg.POWER_TOL * abs(res.history[-1])


# ---------------------------------------------------------------- filter-normalized curve

@given(seed=seeds, rows=st.integers(1, 5), cols=st.integers(1, 5))
def test_filter_normalized_direction_has_the_scale_of_theta(seed, rows, cols):
    g = torch.Generator().manual_seed(seed)
    W = torch.randn(rows, cols, generator=g, dtype=F64, requires_grad=True)
    b = torch.randn(rows, generator=g, dtype=F64, requires_grad=True)
    d_W, d_b = dg.filter_normalized_direction([W, b], g)  # eq. (5): per tensor
    assert math.isclose(float(d_W.norm()), float(W.detach().norm()), rel_tol=1e-12)
    assert math.isclose(float(d_b.norm()), float(b.detach().norm()), rel_tol=1e-12)
    f_W, f_b = dg.filter_normalized_direction([W, b], g, granularity="filter")  # Li et al.
    np.testing.assert_allclose(f_W.norm(dim=1).numpy(), W.detach().norm(dim=1).numpy(), rtol=1e-12)
    assert torch.count_nonzero(f_b) == 0


@given(n=sizes, seed=seeds)
def test_loss_curve_is_the_quadratic_along_the_line_and_restores_theta(n, seed):
    A = spd_with_gap(n, seed)
    model = Quadratic(A, 1, seed)
    params = list(model.parameters())
    theta = model.theta().detach().numpy().copy()
    d = dg.filter_normalized_direction(params, torch.Generator().manual_seed(seed))
    alphas = np.linspace(-0.5, 0.5, 11)
    curve = dg.loss_curve(model.loss, params, [None], d, alphas)
    dv = torch.cat(d).numpy()
    expected = [0.5 * (theta + a * dv) @ A @ (theta + a * dv) + model.b.numpy() @ (theta + a * dv)
                for a in alphas]
    np.testing.assert_allclose(curve, expected, rtol=1e-12, atol=1e-12 * n)
    np.testing.assert_array_equal(model.theta().detach().numpy(), theta)


def test_loss_curve_restores_theta_when_the_loss_raises():
    w = torch.nn.Parameter(torch.tensor([1.0, 2.0], dtype=F64))

    def loss(_):
        if w[0] != 1.0:
            raise RuntimeError("boom")
        return (w ** 2).sum()

    with pytest.raises(RuntimeError, match="boom"):
        dg.loss_curve(loss, [w], [None], [torch.ones(2, dtype=F64)], [0.0, 0.3])
    assert w.tolist() == [1.0, 2.0]


def test_filter_normalized_curve_is_invariant_under_a_scale_symmetry():
    # L(W) = CE(LN(W x)) is invariant under W -> cW (c > 0); with d ∝ ‖W‖ the curve φ is too (Li et al.)
    g = torch.Generator().manual_seed(3)
    x = torch.randn(16, 4, generator=g, dtype=F64)
    labels = torch.randint(0, 6, (16,), generator=g)
    W = torch.nn.Parameter(torch.randn(6, 4, generator=g, dtype=F64))
    loss = lambda _: torch.nn.functional.cross_entropy(
        torch.nn.functional.layer_norm(x @ W.T, (6,)), labels)
    curves = []
    for c in (1.0, 7.5):
        with torch.no_grad():
            W.mul_(c)
        d = dg.filter_normalized_direction([W], torch.Generator().manual_seed(0))
        curves.append(dg.loss_curve(loss, [W], [None], d, np.linspace(-0.5, 0.5, 5)))
    # LayerNorm's ε = 1e-5 breaks exact invariance at relative order ε / var(Wx)
    np.testing.assert_allclose(curves[0], curves[1], rtol=1e-4)


def test_flatness_bundles_the_three_diagnostics_with_app_g_defaults():
    A = np.diag([4.0, 1.0, 0.25, 0.25])
    model = Quadratic(A, 2, 0)
    with torch.no_grad():  # put θ at the minimum θ* = -A⁻¹ b
        star = -np.linalg.solve(A, model.b.numpy())
        model.p1.copy_(torch.as_tensor(star[:2])), model.p2.copy_(torch.as_tensor(star[2:]))
    rep = dg.flatness(model.loss, list(model.parameters()), [None],
                      generator=torch.Generator().manual_seed(0))
    assert len(rep.alphas) == dg.GRID and rep.alphas[0] == -dg.ALPHA_MAX
    assert len(rep.trace.per_probe) == dg.PROBES
    assert abs(rep.trace.trace - 5.5) < 1e-12  # diagonal H: Hutchinson is exact
    assert abs(rep.lambda_max - 4.0) < 4.0 * 1e-2  # τ = 1e-3 stop on a gap-4 spectrum
    assert rep.curve[dg.GRID // 2] == pytest.approx(rep.loss, abs=1e-14)
    assert rep.curve_range > 0 and rep.as_dict()["trace_per_param"] == pytest.approx(5.5 / 4)


# ---------------------------------------------------------------- full-block Jacobian (§5.3)

@given(T=st.integers(1, 4), d=st.integers(1, 5), seed=seeds)
def test_linear_tokenwise_block_has_kronecker_jacobian(T, d, seed):
    # F(X) = X (I + W)ᵀ acts on each token: J = I_T ⊗ (I + W), so the spectrum of J is that of
    # I + W repeated T times and r_st(J) = T · r_st(I + W)
    g = torch.Generator().manual_seed(seed)
    M = torch.eye(d, dtype=F64) + 0.5 * torch.randn(d, d, generator=g, dtype=F64)
    x = torch.randn(T, d, generator=g, dtype=F64)
    J = dg.block_jacobian(lambda X: X @ M.T, x)
    torch.testing.assert_close(J, torch.kron(torch.eye(T, dtype=F64), M), rtol=0, atol=1e-14)
    s = np.linalg.svd(M.numpy(), compute_uv=False)
    if s[-1] <= 1e-6:
        return
    spec = dg.jacobian_spectrum(J)
    assert math.isclose(spec.sigma_max_eff, s[0], rel_tol=1e-12)
    assert math.isclose(spec.sigma_min_eff, s[-1], rel_tol=1e-9)  # svd of the kron, cond-limited
    assert math.isclose(spec.stable_rank, T * (s ** 2).sum() / s[0] ** 2, rel_tol=1e-12)
    assert math.isclose(spec.spread, s[0] / s[-1], rel_tol=1e-9)


def test_cutoff_drops_null_directions_and_persistence_sums_logs():
    J1 = np.diag([3.0, 0.5, 1e-9])  # the 1e-9 direction is below the cutoff
    J2 = np.diag([2.0, 0.25, 1.0])
    s1, s2 = dg.jacobian_spectrum(J1, cutoff=1e-6), dg.jacobian_spectrum(J2, cutoff=1e-6)
    assert (s1.n_kept, s1.sigma_min_eff, s1.spread) == (2, 0.5, 6.0)
    assert s1.stable_rank == pytest.approx((9 + 0.25 + 1e-18) / 9, rel=1e-15)
    assert dg.minimum_gain_persistence([s1, s2]) == pytest.approx(math.log(0.5) + math.log(0.25))


@given(n=st.integers(2, 40), cut=st.integers(0, 5), seed=seeds)
def test_recorded_tail_gives_sigma_min_at_any_smaller_cutoff(n, cut, seed):
    # a spectrum with `cut` values far below 1e-6 and the rest in [0.1, 10]: the recorded tail
    # reproduces σ^eff_min exactly at 1e-6 and at the float64 rank tolerance, which keeps the tiny ones
    rng = np.random.default_rng(seed)
    cut = min(cut, n - 1)
    sigma = np.concatenate([rng.uniform(0.1, 10, n - cut), 10.0 ** rng.uniform(-10, -8, cut)])
    Q1, _ = np.linalg.qr(rng.standard_normal((n, n)))
    Q2, _ = np.linalg.qr(rng.standard_normal((n, n)))
    spec = dg.jacobian_spectrum(Q1 @ np.diag(sigma) @ Q2.T, cutoff=1e-6)
    assert list(spec.sigma_tail) == sorted(spec.sigma_tail) and len(spec.sigma_tail) == min(n, dg.SIGMA_TAIL)
    assert dg.sigma_min_at(spec.sigma_tail, n, 1e-6) == spec.sigma_min_eff
    tol = dg.rank_tolerance(spec.sigma_max_eff, n)
    # a backward-stable SVD moves each σ by at most ~ n·σ_max·ε = the tolerance itself, and the
    # designed values (>= 1e-10) lie far above it (<= 10·40·ε ≈ 1e-13): the kept minimum is the
    # smallest designed value, to within that bound
    want = float(np.min(sigma))
    assert abs(dg.sigma_min_at(spec.sigma_tail, n, tol) - want) <= tol
    with pytest.raises(ValueError, match="cutoff"):
        dg.sigma_min_at(spec.sigma_tail, n, 2 * spec.sigma_max_eff)


def test_persistence_at_matches_the_recorded_persistence_at_our_cutoff():
    blocks = [lambda X: X @ torch.diag(torch.tensor([2.0, 0.5, 1e-9], dtype=F64)),
              lambda X: X @ torch.diag(torch.tensor([1.0, 0.25, 3.0], dtype=F64))]
    x = torch.ones(2, 3, dtype=F64)
    out = dg.full_block_diagnostics(blocks, [x, x], dg.SIGMA_CUTOFF)
    rec = {k: out[k] for k in ("sigma_max_eff", "sigma_tail", "n_total")}
    ours = dg.persistence_at([rec], lambda smax, n: dg.SIGMA_CUTOFF)
    assert ours == pytest.approx((out["persistence"], float(np.mean(out["spread"]))), rel=1e-14)
    # the rank tolerance keeps the 1e-9 direction of the first layer: log 1e-9 replaces log 0.5
    at_rank, spread = dg.persistence_at([rec], dg.rank_tolerance)
    assert at_rank == pytest.approx(math.log(1e-9) + math.log(0.25), rel=1e-6)
    assert spread == pytest.approx((2.0 / 1e-9 + 3.0 / 0.25) / 2, rel=1e-6)
    with pytest.raises(ValueError, match="spectra"):
        dg.persistence_at([], dg.rank_tolerance)


def test_attention_block_jacobian_matches_finite_differences():
    g = torch.Generator().manual_seed(0)
    T, d = 5, 4
    Wq, Wk, Wv = (0.5 * torch.randn(d, d, generator=g, dtype=F64) for _ in range(3))

    def block(X):  # x + causal softmax attention of LN(x), one head
        h = torch.nn.functional.layer_norm(X, (d,))
        att = torch.nn.functional.scaled_dot_product_attention(
            (h @ Wq)[None], (h @ Wk)[None], (h @ Wv)[None], is_causal=True)[0]
        return X + att

    x = torch.randn(T, d, generator=g, dtype=F64)
    J = dg.block_jacobian(block, x)
    # causality: the output of token i does not depend on tokens j > i
    assert torch.all(J.reshape(T, d, T, d)[0, :, 1:, :] == 0)
    e = 1e-6
    fd = torch.stack([(block(x + e * u.reshape(T, d)) - block(x - e * u.reshape(T, d))).flatten() / (2 * e)
                      for u in torch.eye(T * d, dtype=F64)], dim=1)
    # central differences: truncation O(e²·|f'''|) ≈ 1e-12, rounding O(ulp/e) ≈ 1e-10
    torch.testing.assert_close(J, fd, rtol=0, atol=1e-8)
    out = dg.full_block_diagnostics([block, block], [x, block(x)])
    assert out["persistence"] == pytest.approx(sum(out["log_min_gain"]))
    assert len(out["stable_rank"]) == 2 and all(r >= 1 for r in out["stable_rank"])


# ---------------------------------------------------------------- bad input

def test_bad_inputs_raise_naming_the_parameter():
    w = torch.nn.Parameter(torch.ones(3, dtype=F64))
    loss = lambda _: (w ** 2).sum()
    g = torch.Generator().manual_seed(0)
    with pytest.raises(ValueError, match="params"):
        dg.hutchinson_trace(loss, [], [None], generator=g)
    with pytest.raises(ValueError, match="params"):
        dg.hutchinson_trace(loss, [torch.ones(3)], [None], generator=g)
    with pytest.raises(ValueError, match="batches"):
        dg.hessian_vector_product(loss, [w], [], [torch.ones(3, dtype=F64)])
    with pytest.raises(ValueError, match="v"):
        dg.hessian_vector_product(loss, [w], [None], [torch.ones(2, dtype=F64)])
    with pytest.raises(ValueError, match="v"):
        dg.hessian_vector_product(loss, [w], [None], [torch.full((3,), math.nan, dtype=F64)])
    with pytest.raises(ValueError, match="probes"):
        dg.hutchinson_trace(loss, [w], [None], probes=0, generator=g)
    with pytest.raises(ValueError, match="tol"):
        dg.power_iteration(loss, [w], [None], tol=0.0, generator=g)
    with pytest.raises(ValueError, match="granularity"):
        dg.filter_normalized_direction([w], g, granularity="layer")
    with pytest.raises(ValueError, match="alphas"):
        dg.loss_curve(loss, [w], [None], [torch.ones(3, dtype=F64)], [])
    with pytest.raises(ValueError, match="loss_fn"):
        dg.hessian_vector_product(lambda _: w ** 2, [w], [None], [torch.ones(3, dtype=F64)])
    with pytest.raises(ValueError, match="J"):
        dg.jacobian_spectrum(np.ones((2, 3)))
    with pytest.raises(ValueError, match="J"):
        dg.jacobian_spectrum(np.array([[np.nan]]))
    with pytest.raises(ValueError, match="cutoff"):
        dg.jacobian_spectrum(np.eye(2), cutoff=-1.0)
    with pytest.raises(ValueError, match="cutoff"):
        dg.jacobian_spectrum(np.eye(2) * 1e-9, cutoff=1e-6)
    with pytest.raises(ValueError, match="x"):
        dg.block_jacobian(lambda X: X, torch.ones(3, dtype=F64))
    with pytest.raises(TypeError, match="x"):
        dg.block_jacobian(lambda X: X, torch.ones(2, 3))  # float32: geometric diagnostics need float64
    with pytest.raises(ValueError, match="blocks"):
        dg.full_block_diagnostics([lambda X: X], [])


# ---------------------------------------------------------------- throughput harness (bench.py)

from particles.lm import bench  # noqa: E402


@given(n_layer=st.integers(1, 3), n_head=st.sampled_from([1, 2, 4]), width=st.integers(1, 4),
       vocab=st.integers(5, 40), block=st.integers(2, 9))
def test_reference_gpt_has_the_vanilla_parameter_count(n_layer, n_head, width, vocab, block):
    # tied head: V d + T d + L (12 d² + 2 d) + d (qkv 3d², out d², MLP 8d², two LN gains, final LN)
    d = n_head * width
    model = bench.ReferenceGPT(vocab, block, n_layer, n_head, d)
    assert bench.parameter_count(model) == vocab * d + block * d + n_layer * (12 * d * d + 2 * d) + d


def test_reference_gpt_is_causal():
    """The throughput reference (torch's TransformerEncoderLayer under a causal mask) is causal:
    bit-identical float64 logits up to t for every perturbation after t."""
    from particles.verify import assert_causal
    model = bench.ReferenceGPT(11, 6, 2, 2, 8, dtype=F64)
    idx = torch.randint(0, 11, (1, 6), generator=torch.Generator().manual_seed(0))
    dep = assert_causal(model, idx, vocab_size=11)
    assert (dep.dependence.diagonal() > 0).all()


def test_time_training_reports_every_model_in_interleaved_rounds():
    models = {"a": bench.ReferenceGPT(7, 4, 1, 1, 4), "b": bench.ReferenceGPT(7, 4, 2, 1, 4)}
    idx, targets = bench.fixed_batch(7, 2, 4)
    before = models["a"].wte.weight.detach().clone()
    t = bench.time_training(models, idx, targets, rounds=3, steps=1, warmup=0)
    assert set(t) == {"a", "b"} and all(len(x.step_seconds) == 3 for x in t.values())
    assert all(s > 0 for x in t.values() for s in x.step_seconds)
    assert t["a"].tokens_per_step == 8
    assert not torch.equal(before, models["a"].wte.weight)  # the optimizer really stepped


def test_median_interval_coverage_is_exact_binomial():
    from scipy.stats import binom
    # n = 21: [x(6), x(16)] covers the median with 1 − 2 P(Bin(21, ½) ≤ 5) = 0.9734; k = 7 would give
    # 1 − 2 P(≤ 6) = 0.9216 < 0.95. n = 7: only the full range reaches 95% (1 − 2/128).
    assert bench.median_interval(21)[:2] == (6, 16)
    np.testing.assert_allclose(bench.median_interval(21)[2], 1 - 2 * binom.cdf(5, 21, 0.5), rtol=1e-14)
    assert 1 - 2 * binom.cdf(6, 21, 0.5) < 0.95
    assert bench.median_interval(7) == (1, 7, pytest.approx(1 - 2 / 128, rel=1e-14))
    assert bench.median_interval(5)[2] < 0.95  # too few rounds for any 95% interval
    with pytest.raises(ValueError, match="n must"):
        bench.median_interval(0)


@settings(max_examples=25, deadline=None)
@given(st.integers(6, 40), st.integers(0, 2**31 - 1))
def test_median_interval_covers_at_least_level(n, seed):
    """Monte Carlo over skewed (lognormal) ratios: the interval covers the true median ≥ 95% of the
    time; 400 draws give a binomial standard error 1.1%, so 0.91 is 3.5 standard errors below 0.95."""
    rng = np.random.default_rng(seed)
    lo, hi, coverage = bench.median_interval(n)
    assert coverage >= 0.95
    s = np.sort(rng.lognormal(0.1, 0.3, size=(400, n)), axis=1)
    true_median = np.exp(0.1)
    assert np.mean((s[:, lo - 1] <= true_median) & (true_median <= s[:, hi - 1])) > 0.91


def test_paired_ratio_and_verdict_rule():
    base = (1.0, 2.0) * 4
    t = {"base": bench.Timing("base", base, 1),
         "x": bench.Timing("x", tuple(b * r for b, r in zip(base, (1.1, 1.2, 1.05, 1.1, 1.15, 1.12,
                                                                   1.08, 1.3))), 1)}
    r = bench.paired_ratio(t, "x", "base")
    ratios = [1.1, 1.2, 1.05, 1.1, 1.15, 1.12, 1.08, 1.3]
    np.testing.assert_allclose([r["q25"], r["median"], r["q75"]],
                               np.quantile(ratios, [0.25, 0.5, 0.75]), rtol=1e-14)
    # n = 8: the 95% interval is [x(2), x(7)] (coverage 1 − 2·9/256 = 0.930 < 0.95 for k = 2,
    # so k = 1: the full range, coverage 0.992)
    np.testing.assert_allclose([r["ci_lo"], r["ci_hi"]], [1.05, 1.3], rtol=1e-14)
    assert bench.ratio_verdict(r, at_most=1.5) == (True, True)  # CI below the bound
    assert bench.ratio_verdict(r, at_least=1.5) == (False, True)  # CI below: decisively fails
    assert bench.ratio_verdict(r, at_most=1.1) == (False, False)  # bound inside the CI
    assert bench.ratio_verdict(r, at_least=1.0, at_most=1.0) == (False, True)
    # the same ratios from too few rounds decide nothing, whatever the bound
    few = bench.paired_ratio({k: bench.Timing(k, v.step_seconds[:4], 1) for k, v in t.items()}, "x", "base")
    assert few["ci_coverage"] < 0.95
    assert bench.ratio_verdict(few, at_most=10.0) == (False, False)
    assert bench.ratio_verdict(few, at_least=10.0) == (False, False)
    with pytest.raises(ValueError, match="at_most"):
        bench.ratio_verdict(r)
    with pytest.raises(KeyError, match="nope"):
        bench.paired_ratio(t, "nope", "base")


def test_bench_bad_inputs():
    with pytest.raises(ValueError, match="n_embd"):
        bench.ReferenceGPT(7, 4, 1, 3, 4)
    with pytest.raises(ValueError, match="n_layer"):
        bench.ReferenceGPT(7, 4, 0, 1, 4)
    with pytest.raises(ValueError, match="block_size"):
        bench.ReferenceGPT(7, 4, 1, 1, 4)(torch.zeros(1, 5, dtype=torch.long))
    idx, targets = bench.fixed_batch(7, 2, 4)
    with pytest.raises(ValueError, match="models"):
        bench.time_training({}, idx, targets)
    with pytest.raises(ValueError, match="rounds"):
        bench.time_training({"a": bench.ReferenceGPT(7, 4, 1, 1, 4)}, idx, targets, rounds=0)
    with pytest.raises(ValueError, match="targets"):
        bench.time_training({"a": bench.ReferenceGPT(7, 4, 1, 1, 4)}, idx, targets[:, :2])


# ---------------------------------------------------------------- the ledger's study helpers

from claims.momentum_streams import diagnostics as lmd  # noqa: E402
from particles.lm.model import GPT, GPTConfig  # noqa: E402


@pytest.mark.parametrize("variant", ["gd-lt", "tmm", "adam", "symp-softmax-presymp-euler"])
def test_block_maps_replay_the_trajectory_with_frozen_streams(variant):
    # F_ℓ(X̄_ℓ) must be X̄_{ℓ+1}: the auxiliary streams frozen at their trajectory values (§5.3)
    torch.manual_seed(0)
    model = GPT(GPTConfig(block_size=6, n_layer=3, n_head=2, n_embd=8), variant).double()
    idx = torch.randint(0, 256, (1, 6), generator=torch.Generator().manual_seed(0))
    maps, xs = dg.block_maps(model, idx)
    with torch.no_grad():
        for f, x, x_next in zip(maps, xs, xs[1:]):
            torch.testing.assert_close(f(x), x_next, rtol=0, atol=0)
        final = maps[-1](xs[-1])[None]
        torch.testing.assert_close(model.head({"x": final}), model(idx), rtol=0, atol=1e-12)
    J = dg.block_jacobian(maps[0], xs[0])
    # causal: the first token's output ignores every later token
    assert torch.all(J.reshape(6, 8, 6, 8)[0, :, 1:, :] == 0)


def test_committed_training_throughput_is_current():
    """The wall-clock claims' committed measurement exists, was taken with the code's settings
    (one thread) on every variant the claims compare, and carries its provenance."""
    import json

    from claims._committed import committed_path
    t = lmd.committed_throughput()
    provenance = json.loads(committed_path(lmd.THROUGHPUT).read_text(encoding="utf-8"))["provenance"]
    assert provenance["threads"] == 1 and provenance["commit"] != "unknown"
    assert set(lmd.WALL_CLOCK_VARIANTS) <= set(t["models"]) and t["rounds"] == 21
    assert t["seeds"] == [0, 1, 2]  # the ledger's >= 3 seeds per experiment claim


def test_committed_throughput_refuses_a_measurement_without_a_compared_variant(tmp_path, monkeypatch):
    import json

    from claims import _committed
    from claims._committed import StaleResult, committed_path
    data = json.loads(committed_path(lmd.THROUGHPUT).read_text(encoding="utf-8"))
    data["config"]["variants"] = [v for v in data["config"]["variants"] if v != "muon"]
    (tmp_path / f"{lmd.THROUGHPUT}.json").write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(_committed, "RESULTS", tmp_path)
    lmd.committed_throughput.cache_clear()
    try:
        with pytest.raises(StaleResult, match="muon"):
            lmd.committed_throughput()
    finally:
        lmd.committed_throughput.cache_clear()

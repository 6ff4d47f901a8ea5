"""Seed 002 building blocks (claims/momentum_streams/methods.py, _remarks.py): the mathematics
each claim relies on, asserted directly."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from claims.momentum_streams import methods as M
from claims.momentum_streams import remarks as Rm
from particles.lm import blocks
from theory import preconditioning as P

seeds = st.integers(0, 2**32 - 1)


@given(seeds)
def test_softmax_attention_with_identity_values_ascends_the_interaction_energy(seed):
    """§3.1: with W_Q = W_K = W_V = I, Attn(X)_i = ∇_iℰ / (2Z_i), Z_i = Σ_j exp⟨x_i, x_j⟩ — a
    positive multiple of +∇ℰ; the value map −I gives −∇ℰ."""
    rng = np.random.default_rng(seed)
    X = 0.5 * rng.standard_normal((4, 3))
    Z = np.exp(X @ X.T).sum(axis=1, keepdims=True)
    grad = M.interaction_energy_grad(X)
    assert np.allclose(M.softmax_attention(X, np.eye(3)), grad / (2 * Z), rtol=1e-12, atol=1e-14)
    assert np.allclose(M.softmax_attention(X, -np.eye(3)), -grad / (2 * Z), rtol=1e-12, atol=1e-14)


def test_lie_trotter_block_is_first_order():
    errs = M.lie_trotter_errors([100, 200, 400])
    assert errs[100] / errs[200] == pytest.approx(2.0, rel=0.05)
    assert errs[200] / errs[400] == pytest.approx(2.0, rel=0.05)


@given(seeds)
def test_newton_schulz_singular_values_stay_in_the_muon_band(seed):
    """App. A.4 / D.2 with Muon's quintic coefficients: per-token (12, 64) Gaussian matrices come
    out with every singular value in [0.5, 1.5] after K = 5 steps."""
    g = torch.Generator().manual_seed(seed % 2**31)
    M_ = torch.randn(4, 768, generator=g, dtype=torch.float64)
    sv = torch.linalg.svdvals(blocks.newton_schulz(M_, n_head=12, steps=5, eps=0.0).reshape(4, 12, 64))
    assert 0.5 <= float(sv.min()) and float(sv.max()) <= 1.5


@given(st.floats(0.05, 0.999), st.integers(1, 30), seeds)
def test_soap_covariance_keeps_the_identity_floor(beta, layers, seed):
    """App. B.2: R_ℓ = βR_{ℓ−1} + (1−β)GᵀG from R_0 = I has λ_min ≥ β^ℓ; each GᵀG has rank ≤ 12."""
    rng = np.random.default_rng(seed)
    R = np.eye(64)
    for _ in range(layers):
        G = rng.standard_normal((12, 64))
        assert np.linalg.matrix_rank(G.T @ G) <= 12
        R = beta * R + (1 - beta) * G.T @ G
    assert np.linalg.eigvalsh(R).min() >= beta**layers * (1 - 1e-9)


def test_ten_newton_iterations_miss_an_ill_conditioned_inverse_square_root():
    w = np.geomspace(1.0, 1e-4, 64)
    R = torch.tensor(np.diag(w))
    approx = blocks.inverse_sqrt_newton(R, steps=10).numpy()
    assert np.abs(np.diag(approx) * np.sqrt(w) - 1).max() > 0.1
    well = blocks.inverse_sqrt_newton(torch.tensor(np.diag(np.geomspace(1.0, 0.1, 64))), steps=10)
    assert np.allclose(np.diag(well.numpy()) * np.sqrt(np.geomspace(1.0, 0.1, 64)), 1, atol=1e-8)


@given(st.lists(st.floats(-30, 30), min_size=2, max_size=12))
def test_cross_entropy_hessian_is_at_most_one_half(z):
    """Remark F.5 / eq. (3): the Hessian of CE in the logits, diag(p) − ppᵀ, has eigenvalues in
    [0, 1/2], so CE∘(XWᵀ) is ‖W‖₂²/2-smooth everywhere."""
    z = np.array(z)
    p = np.exp(z - z.max())
    p /= p.sum()
    w = np.linalg.eigvalsh(np.diag(p) - np.outer(p, p))
    assert w.min() >= -1e-12 and w.max() <= 0.5 + 1e-12


@given(st.floats(0.5, 50), st.floats(0.5, 50), seeds)
def test_sam_step_maximizes_the_linearized_loss(a1, a2, seed):
    """eq. (10): gᵀε* = ρ‖g‖ ≥ gᵀε for every ‖ε‖ ≤ ρ (Cauchy–Schwarz), the first-order worst case."""
    rng = np.random.default_rng(seed)
    theta, rho = rng.standard_normal(2), 0.05
    g = np.diag([a1, a2]) @ theta
    eps_star = rho * g / np.linalg.norm(g)
    eps = rng.standard_normal((64, 2))
    eps = rho * eps / np.linalg.norm(eps, axis=1, keepdims=True) * rng.uniform(0, 1, (64, 1))
    assert np.all(eps @ g <= g @ eps_star + 1e-12)


def test_the_heavy_ball_beats_vanilla_on_slow_modes_up_to_the_crossover():
    """Remark F.5: at κ = 100 the heavy ball filters faster than vanilla, at every depth ≤ 60, the
    modes up to λ_c = (L+μ)(1−ρ_mom)/2 = 9.18 (= 0.92√(μL)), and not the mode √(μL) itself."""
    from theory import rates as R
    kappa = 100.0
    lam_c = (1 + kappa) * (1 - R.rate_momentum(kappa)) / 2
    lam = np.array([1.0, 0.99 * lam_c, math.sqrt(kappa)])
    q = np.abs(R.filter_values(R.heavy_ball_tuned(1.0, kappa), lam, 60))[1:]
    v = np.abs(R.filter_values(R.gd_tuned(1.0, kappa), lam, 60))[1:]
    assert np.all(q[:, :2] <= v[:, :2] * (1 + 1e-12))
    assert np.any(q[:, 2] > v[:, 2])


@pytest.mark.parametrize("scale", [0.5, 2.0, 10.0])
def test_trace_of_a_scale_invariant_loss_scales_as_one_over_c_squared(scale):
    """§6.1 / App. G: tr(H)/N is not invariant to the weight scale that pre-norm networks ignore."""
    ratio = float(Rm._tiny_scale_invariant_hessian(scale).trace() / Rm._tiny_scale_invariant_hessian(1.0).trace())
    assert ratio == pytest.approx(1 / scale**2, rel=1e-9)


def test_balanced_expected_moments_of_dense_projections():
    """Remark E.2's mechanism: for unit-variance isotropic inputs the second moments of W LN(x)
    are the squared row norms of W, balanced for a dense Gaussian W (ratio < 2 at d = 768)."""
    rng = np.random.default_rng(0)
    W = rng.standard_normal((768, 768)) / math.sqrt(768)
    rows = (W**2).sum(1)
    assert rows.max() / rows.min() < 2
    x = P.layer_norm(rng.standard_normal((4000, 768)))
    assert np.allclose((x**2).mean(0), 1.0, atol=0.1)


def _probe(outcomes):
    return {"double_backward": {"device": "NVIDIA test", "torch": "x", "outcomes": outcomes}}


@pytest.mark.parametrize("flash, math_kernel, verdict", [
    ("no double backward", "double backward ok", "holds"),
    ("double backward ok", "double backward ok", "fails"),    # a fused kernel that does support it
    ("no double backward", "no double backward", "fails"),    # the math kernel that does not
    ("unavailable", "double backward ok", "inconclusive"),    # no fused kernel ran: nothing shown
])
def test_double_backward_claim_decides_on_the_committed_cuda_probe(monkeypatch, flash, math_kernel, verdict):
    """App. G's sentence is about CUDA's kernels: with a committed probe the claim decides on its
    outcomes (each row is one kernel and dtype), not on this machine's CPU kernels."""
    import claims._gpu
    monkeypatch.setattr(claims._gpu, "cuda_measurements", lambda: _probe(
        {"FLASH_ATTENTION/bfloat16": flash, "EFFICIENT_ATTENTION/float32": "unavailable",
         "MATH/bfloat16": math_kernel}))
    evidence = Rm.double_backward_kernels("quick")
    assert evidence.verdict == verdict
    assert evidence.numbers["device"] == "NVIDIA test"


def test_double_backward_outcome_on_cpu():
    """On the CPU the flash kernel runs a first backward but not the second; the math kernel runs
    both; the memory-efficient kernel has no CPU implementation."""
    assert Rm.double_backward_outcome("FLASH_ATTENTION", "cpu", torch.float64) == "no double backward"
    assert Rm.double_backward_outcome("MATH", "cpu", torch.float32) == "double backward ok"
    assert Rm.double_backward_outcome("EFFICIENT_ATTENTION", "cpu", torch.float32) == "unavailable"


@given(seeds, st.floats(0.0, 0.9), st.floats(0.0, 0.9), st.floats(0.2, 1.5), st.floats(0.01, 0.1))
def test_the_filter_needs_a_zero_initial_velocity(seed, a, b, c, eta):
    """App. F.3: E_N = q_N(H)E_0 + r_N(H)V_0 with r_0 = 0, r_1 = cθ and the same recurrence, so the
    printed E_N = q_N(H)E_0 holds from V_0 = 0 only; from E_0 = 0 a velocity moves the error by
    c(b − aηH)V_0 in one layer. Tolerance relative to the iterates (the unstable members grow):
    20 steps of 5×5 float64 products lose at most ~1e3 ulps, below 1e-9 relative."""
    from theory import rates as R
    rng = np.random.default_rng(seed)
    lams = rng.uniform(0.5, 10.0, 5)
    Q, _ = np.linalg.qr(rng.standard_normal((5, 5)))
    H = (Q * lams) @ Q.T
    m = R.Momentum(a=a, b=b, c=c, eta=eta)
    E0, V0 = rng.standard_normal((2, 5, 2))
    EN = R.run_momentum(lambda E: H @ E, E0, [m] * 20, v0=V0)[-1]
    q = R.filter_values(m, lams, 20)[-1]
    r = R.filter_values(m, lams, 20, v0=1.0)[-1] - q
    scale = max(1.0, float(np.abs(EN).max()))
    np.testing.assert_allclose(EN, (Q * q) @ Q.T @ E0 + (Q * r) @ Q.T @ V0, rtol=0, atol=1e-9 * scale)
    E1 = R.run_momentum(lambda E: H @ E, np.zeros((5, 2)), [m], v0=V0)[-1]
    np.testing.assert_allclose(E1, c * (b * np.eye(5) - a * eta * H) @ V0, rtol=0, atol=1e-12)

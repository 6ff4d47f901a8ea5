"""particles.sympnet: the layers of seed 001, each property asserted on its Jacobian (torch.func, float64)."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from particles import geometry
from particles.sympnet import (CayleyAttention, GradientLayer, PSDLayer, SoftmaxAttention, SympNet,
                               cayley, cayley_activation, correlation, lambda_tilde, phi_skew,
                               stiefel_random)
from theory.symplectic import canonical_J, log_volume, symplectic_defect

F64 = torch.float64
seeds = st.integers(0, 2**31 - 1)
ACTIVATIONS = {"tanh": torch.tanh, "sigmoid": torch.sigmoid, "sin": torch.sin,
               "softplus": torch.nn.functional.softplus}


def gen(seed):
    return torch.Generator().manual_seed(seed)


def jac(f, x, event_dims=1):
    return geometry.jacobian(f, x, event_dims).detach().numpy()


def relative_defect(D, J_out=None, J_in=None):
    # DᵀJD has entries of size ‖D‖²: float64 rounding of the product is ~1e-16·‖D‖² per entry
    return symplectic_defect(D, J_out, J_in) / np.maximum(1, np.linalg.norm(D, axis=(-2, -1)) ** 2)


# ------------------------------------------------------------------ eq. (15)-(16)


@given(d=st.integers(1, 5), M=st.integers(1, 8), update=st.sampled_from("qp"),
       act=st.sampled_from(sorted(ACTIVATIONS)), seed=seeds)
def test_gradient_layer_is_symplectic(d, M, update, act, seed):
    layer = GradientLayer(d, M, update, ACTIVATIONS[act], generator=gen(seed))
    z = 3 * torch.randn(4, 2 * d, generator=gen(seed + 1), dtype=F64)
    D = jac(layer, z)
    assert np.all(relative_defect(D) < 1e-13)
    # it changes only the updated half, by a map of the other half
    untouched = slice(d, 2 * d) if update == "q" else slice(0, d)
    torch.testing.assert_close(layer(z)[:, untouched], z[:, untouched], rtol=0, atol=0)


@given(d=st.integers(1, 4), M=st.integers(1, 6), depth=st.integers(1, 6), seed=seeds)
def test_sympnet_compositions_are_symplectic_and_volume_preserving(d, M, depth, seed):
    net = SympNet(d, M, depth, generator=gen(seed))
    z = 2 * torch.randn(4, 2 * d, generator=gen(seed + 1), dtype=F64)
    D = jac(net, z)
    assert np.all(relative_defect(D) < 1e-12)  # products of up to 6 unit-triangular blocks
    assert np.all(np.abs(log_volume(D)) < 1e-12)


@given(d=st.integers(1, 4), M=st.integers(1, 6), seed=seeds)
def test_gradient_layer_increment_is_a_gradient(d, M, seed):
    # Kᵀ diag(a) tanh(Kx + b) = ∇ₓ g,  g(x) = aᵀ log cosh(Kx + b)  (σ̃ = log cosh, σ̃' = tanh)
    layer = GradientLayer(d, M, "q", torch.tanh, generator=gen(seed))
    x = torch.randn(d, generator=gen(seed + 1), dtype=F64, requires_grad=True)
    g = (layer.a * torch.log(torch.cosh(x @ layer.K.T + layer.b))).sum()
    (grad,) = torch.autograd.grad(g, x)
    torch.testing.assert_close(layer.increment(x), grad, rtol=1e-13, atol=1e-13)


# ------------------------------------------------------------------ eq. (29)-(31)


@given(d=st.integers(1, 4), extra=st.integers(0, 6), seed=seeds)
def test_psd_upscaling_is_symplectic_between_dimensions(d, extra, seed):
    N = d + extra
    up = PSDLayer.random(N, d, generator=gen(seed))
    z = torch.randn(3, 2 * d, generator=gen(seed + 1), dtype=F64)
    D = jac(up, z)
    assert D.shape == (3, 2 * N, 2 * d)
    assert np.all(symplectic_defect(D) < 1e-13)  # eq. (31): Dᵀ J_{2N} D = J_{2d}
    np.testing.assert_allclose(D[0], up.matrix().detach().numpy(), atol=0)


@given(d=st.integers(1, 3), extra=st.integers(1, 5), seed=seeds)
def test_psd_downscaling_is_the_symplectic_inverse_not_symplectic(d, extra, seed):
    N = d + extra
    Phi = stiefel_random(N, d, generator=gen(seed))
    up, down = PSDLayer(Phi), PSDLayer(Phi, transpose=True)
    L, Dn = up.matrix().detach().numpy(), down.matrix().detach().numpy()
    np.testing.assert_allclose(Dn @ L, np.eye(2 * d), atol=1e-14)
    np.testing.assert_allclose(Dn @ canonical_J(N) @ Dn.T, canonical_J(d), atol=1e-14)
    # eq. (31) read for the down-scaling fails by exactly √(2(N − d))
    assert symplectic_defect(Dn, canonical_J(d), canonical_J(N)) == pytest.approx(math.sqrt(2 * extra), rel=1e-12)


def test_psd_retraction_returns_to_the_stiefel_manifold():
    layer = PSDLayer.random(6, 2, generator=gen(0))
    with torch.no_grad():
        layer.Phi.add_(0.1 * torch.randn(6, 2, generator=gen(1), dtype=F64))
    layer.retract_()
    Phi = layer.Phi.detach()
    torch.testing.assert_close(Phi.T @ Phi, torch.eye(2, dtype=F64), rtol=0, atol=1e-14)


# ------------------------------------------------------------------ eq. (19)-(20)


@given(T=st.integers(1, 12), seed=seeds)
def test_phi_skew_matches_eq_20(T, seed):
    C = torch.randn(T, T, generator=gen(seed), dtype=F64)
    P = phi_skew(C)
    for i in range(T):
        for j in range(T):
            expected = C[i, j] if i < j else (-C[j, i] if i > j else 0.0)
            assert P[i, j] == expected
    torch.testing.assert_close(phi_skew(P), P, rtol=0, atol=0)  # Φ copies skew matrices


@given(T=st.integers(1, 16), seed=seeds)
def test_standard_cayley_is_orthogonal_printed_has_gram_quarter(T, seed):
    G = torch.randn(T, T, generator=gen(seed), dtype=F64)
    Y = G - G.T
    eye = torch.eye(T, dtype=F64)
    Q = cayley(Y)
    # one LU solve with cond(I + Y) = sqrt(1 + ‖Y‖²) ≲ 1e2: rounding ~1e-14
    torch.testing.assert_close(Q.T @ Q, eye, rtol=0, atol=1e-12)
    assert torch.linalg.det(Q) == pytest.approx(1.0, abs=1e-12)
    torch.testing.assert_close(cayley(Y, printed=True), Q / 2, rtol=0, atol=0)
    Qp = cayley(Y, printed=True)
    torch.testing.assert_close(Qp.T @ Qp, eye / 4, rtol=0, atol=1e-12)  # not orthonormal


def test_cayley_by_hand_for_a_rotation_generator():
    c = 0.7
    Y = torch.tensor([[0.0, c], [-c, 0.0]], dtype=F64)
    theta = 2 * math.atan(c)
    R = torch.tensor([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]], dtype=F64)
    torch.testing.assert_close(cayley(Y), R, rtol=0, atol=1e-15)


# ------------------------------------------------------------------ eq. (21)-(24) and softmax attention


@given(d=st.integers(1, 3), T=st.integers(1, 6), seed=seeds)
def test_cayley_attention_and_lambda_tilde(d, T, seed):
    att = CayleyAttention(2 * d, generator=gen(seed))
    Z = torch.randn(2 * d, T, generator=gen(seed + 1), dtype=F64)
    Lam = att.weights(Z).detach()
    torch.testing.assert_close(Lam.T @ Lam, torch.eye(T, dtype=F64), rtol=0, atol=1e-12)
    torch.testing.assert_close(att(Z).detach(), Z @ Lam, rtol=0, atol=0)
    torch.testing.assert_close(Lam, cayley_activation(correlation(Z, att.A.detach())), rtol=0, atol=0)
    # Z_vec ↦ (I ⊗ Λᵀ) Z_vec is Z ↦ ZΛ; the printed blocks Λ give Z ↦ ZΛᵀ
    torch.testing.assert_close(lambda_tilde(Lam.T, d) @ Z.reshape(-1), (Z @ Lam).reshape(-1), rtol=0, atol=1e-13)
    torch.testing.assert_close(lambda_tilde(Lam, d) @ Z.reshape(-1), (Z @ Lam.T).reshape(-1), rtol=0, atol=1e-13)
    J = canonical_J(d * T)
    assert symplectic_defect(lambda_tilde(Lam, d).numpy(), J, J) < 1e-12


@given(d=st.integers(1, 3), T=st.integers(2, 5), seed=seeds)
def test_cayley_attention_with_skew_A_preserves_volume(d, T, seed):
    A = torch.randn(2 * d, 2 * d, generator=gen(seed), dtype=F64)
    att = CayleyAttention(2 * d, A=A - A.T)
    Z = torch.randn(3, 2 * d, T, generator=gen(seed + 1), dtype=F64)
    D = jac(att, Z, event_dims=2)
    assert np.all(np.abs(log_volume(D)) < 1e-10)


def test_cayley_attention_volume_counterexample_by_hand():
    # d = 1, T = 2, A = I, tokens (1, 0), (2, 0): c = 2, det = 1 + 2/(1 + c²)·(|z²|² − |z¹|²) = 2.2
    att = CayleyAttention(2, A=torch.eye(2, dtype=F64))
    Z = torch.tensor([[[1.0, 2.0], [0.0, 0.0]]], dtype=F64)
    D = jac(att, Z, event_dims=2)[0]
    assert np.linalg.det(D) == pytest.approx(2.2, rel=1e-14)
    assert symplectic_defect(D) > 0.1


@given(d=st.integers(1, 3), T=st.integers(1, 6), seed=seeds)
def test_softmax_attention_is_column_stochastic(d, T, seed):
    att = SoftmaxAttention(2 * d, generator=gen(seed))
    Z = torch.randn(2 * d, T, generator=gen(seed + 1), dtype=F64)
    W = att.weights(Z).detach()
    assert torch.all(W >= 0)
    torch.testing.assert_close(W.sum(0), torch.ones(T, dtype=F64), rtol=0, atol=1e-14)
    torch.testing.assert_close(att(Z).detach(), Z @ W, rtol=0, atol=0)


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("call, error, match", [
    (lambda: GradientLayer(2, 3, "x"), ValueError, "update"),
    (lambda: GradientLayer(0, 3), ValueError, "d must be >= 1"),
    (lambda: GradientLayer(2, 3, K=torch.zeros(2, 2, dtype=F64)), ValueError, "K must be M×d"),
    (lambda: GradientLayer(2, 3, generator=gen(0))(torch.zeros(3, dtype=F64)), ValueError, "last axis"),
    (lambda: GradientLayer(1, 3, generator=gen(0))(torch.tensor([0.0, math.nan], dtype=F64)), ValueError, "z contains NaN"),
    (lambda: GradientLayer(1, 3, generator=gen(0))([0.0, 1.0]), TypeError, "z must be a torch.Tensor"),
    (lambda: PSDLayer(torch.ones(3, 2, dtype=F64)), ValueError, "Phi must lie on the Stiefel"),
    (lambda: PSDLayer(torch.eye(3, dtype=F64)[:2]), ValueError, "Phi must be N×d with N >= d"),
    (lambda: PSDLayer(torch.full((3, 1), math.nan, dtype=F64)), ValueError, "Phi contains NaN"),
    (lambda: stiefel_random(2, 3), ValueError, "N >= d"),
    (lambda: phi_skew(torch.zeros(2, 3, dtype=F64)), ValueError, "C must be"),
    (lambda: cayley(torch.zeros(3, 2, dtype=F64)), ValueError, "Y must be"),
    (lambda: CayleyAttention(3), ValueError, "n must be even"),
    (lambda: CayleyAttention(4, A=torch.zeros(2, 2, dtype=F64)), ValueError, "A must be 4×4"),
    (lambda: CayleyAttention(2, generator=gen(0))(torch.zeros(4, 3, dtype=F64)), ValueError, "Z must be"),
    (lambda: SoftmaxAttention(2, generator=gen(0))(torch.full((2, 3), math.nan, dtype=F64)), ValueError, "Z contains NaN"),
    (lambda: lambda_tilde(torch.eye(2, dtype=F64), 0), ValueError, "d must be >= 1"),
])
def test_bad_input_names_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()

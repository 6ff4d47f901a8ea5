"""The four integrators of seed 001 fig. 6 and the Stiefel Adam (particles.sp_networks); training
and rollouts are in test_sp_train.py."""

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles import geometry
from particles.sp_networks import (NETWORKS, StiefelAdam, Table2, build, cayley_retraction,
                                   stiefel_project)
from theory import symplectic

# Jacobians of small float64 networks: entries O(1-10), products of a few matrices, so rounding
# leaves ~1e-13 in DᵀJD; 1e-10 separates "symplectic" from the O(1e-2..1) defects seen otherwise.
SYMPLECTIC_TOL = 1e-10


def _window(batch: int, cfg: Table2, seed: int = 0) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(batch, cfg.dim, cfg.seq_len, generator=g, dtype=torch.float64)


@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_networks_map_windows_to_next_state_and_depend_on_seed_only(name):
    cfg = Table2()
    Z = _window(7, cfg)
    out = build(name, seed=3)(Z)
    assert out.shape == (7, 4) and out.dtype == torch.float64
    torch.testing.assert_close(build(name, seed=3)(Z), out, rtol=0, atol=0)
    assert not torch.equal(build(name, seed=4)(Z), out)


@pytest.mark.parametrize("name", ["resnet", "sympnet"])
def test_one_step_networks_see_only_the_last_state(name):
    Z = _window(3, Table2())
    Z2 = Z.clone()
    Z2[..., :-1] += 1.0
    net = build(name)
    torch.testing.assert_close(net(Z), net(Z2), rtol=0, atol=0)


def test_transformers_see_the_whole_window():
    Z = _window(3, Table2())
    Z2 = Z.clone()
    Z2[..., 0] += 1.0
    for name in ("transformer", "sp_transformer"):
        net = build(name)
        assert (net(Z) - net(Z2)).abs().max() > 1e-6


@settings(max_examples=10)
@given(seed=st.integers(0, 10_000), scale=st.floats(1.0, 1e6))
def test_resnet_output_is_bounded_for_every_input(seed, scale):
    # y = tanh(·) and y + tanh(Wy + b) lie in [−2, 2]^{2N}: the fig. 6 ResNet cannot diverge.
    net = build("resnet", seed=seed)
    out = net(scale * _window(64, Table2(), seed))
    assert torch.all(out.abs() <= net.output_bound() + 1e-12)


@settings(max_examples=5)
@given(seed=st.integers(0, 10_000))
def test_sympnet_feedforward_and_psd_lift_are_symplectic(seed):
    # eq. (15)-(16) on R^{2N} and eq. (31) for the up-scaling Ψ = diag(Φ, Φ): R^{2d} → R^{2N}.
    net = build("sympnet", seed=seed)
    x = torch.randn(5, 20, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    D = geometry.jacobian(net.sympnet, x).detach().numpy()
    assert symplectic.symplectic_defect(D).max() < SYMPLECTIC_TOL
    Psi = net.up.matrix().detach().numpy()
    assert symplectic.symplectic_defect(Psi) < SYMPLECTIC_TOL


@settings(max_examples=5)
@given(seed=st.integers(0, 10_000))
def test_fig6_sympnet_is_not_symplectic_on_r2d_because_of_the_down_scaling(seed):
    # Counterexample to "PSD up/down-scaling keeps the SympNet symplectic": the down-scaling
    # Ψ'ᵀ: R^{2N} → R^{2d} satisfies Ψ' J_{2d} Ψ'ᵀ = J_{2N} Ψ'Ψ'ᵀ ≠ J_{2N} for N > d, and the
    # composite z ↦ Ψ'ᵀ G(Ψ z) has ‖DᵀJD − J‖ of order one. With N = d the PSD matrices are
    # orthogonal and symplectic, and the composite is symplectic again.
    x = _window(4, Table2(), seed)[..., -1:]
    for cfg, symplectic_expected in ((Table2(), False), (Table2(upscale=4, width=8), True)):
        net = build("sympnet", cfg, seed=seed)
        D = geometry.jacobian(lambda z: net(z[None, :, None])[0], x[..., 0]).detach().numpy()
        defect = symplectic.symplectic_defect(D)
        if symplectic_expected:
            assert defect.max() < SYMPLECTIC_TOL
        else:
            assert defect.min() > 1e-3


def test_sp_transformer_attention_weights_are_orthogonal():
    # With the standard Cayley transform (the correction of eq. (20)'s ½), Λ(Z)ᵀΛ(Z) = I_T.
    net = build("sp_transformer", seed=1)
    X = net.up(_window(6, Table2()).transpose(1, 2)).transpose(1, 2)
    Lam = net.attention[0].weights(X)
    eye = torch.eye(5, dtype=torch.float64)
    torch.testing.assert_close(Lam.mT @ Lam, eye.expand_as(Lam), rtol=0, atol=1e-12)


# ------------------------------------------------------------------ Stiefel Adam


def _stiefel(N, n, seed):
    g = torch.Generator().manual_seed(seed)
    Q, _ = torch.linalg.qr(torch.randn(N, n, generator=g, dtype=torch.float64))
    return Q, g


@given(N=st.integers(2, 12), n=st.integers(1, 4), seed=st.integers(0, 1000))
def test_riemannian_gradient_is_tangent_and_retraction_is_first_order(N, n, seed):
    n = min(n, N)
    Phi, g = _stiefel(N, n, seed)
    xi = stiefel_project(Phi, torch.randn(N, n, generator=g, dtype=torch.float64))
    # tangent space: Φᵀξ + ξᵀΦ = 0
    torch.testing.assert_close(Phi.T @ xi + xi.T @ Phi, torch.zeros(n, n, dtype=torch.float64),
                               rtol=0, atol=1e-12)
    # R_Φ(tξ) ∈ St and R_Φ(tξ) = Φ + tξ + O(t²): halving t divides the remainder by ≈ 4
    rem = []
    for t in (1e-2, 5e-3):
        R = cayley_retraction(Phi, t * xi)
        torch.testing.assert_close(R.T @ R, torch.eye(n, dtype=torch.float64), rtol=0, atol=1e-12)
        rem.append(torch.linalg.norm(R - Phi - t * xi).item())
    if rem[0] > 1e-12:  # else ξ's second-order term vanishes to rounding
        assert 3.5 < rem[0] / rem[1] < 4.5


def test_stiefel_adam_stays_on_the_manifold_and_finds_the_polar_factor():
    # min ½‖Φ − B‖² over St(N, n) is attained at the polar factor U Vᵀ of B = U S Vᵀ.
    Phi0, g = _stiefel(8, 3, 0)
    B = torch.randn(8, 3, generator=g, dtype=torch.float64)
    Phi = torch.nn.Parameter(Phi0.clone())
    opt = StiefelAdam([Phi], lr=1e-2)
    for _ in range(1500):
        opt.zero_grad()
        (0.5 * (Phi - B).square().sum()).backward()
        opt.step()
    torch.testing.assert_close(Phi.T @ Phi, torch.eye(3, dtype=torch.float64), rtol=0, atol=1e-12)
    U, _, Vh = torch.linalg.svd(B, full_matrices=False)
    # Adam at a fixed step η = 1e-2 ends within a few η of the minimizer.
    assert torch.linalg.norm(Phi.detach() - U @ Vh) < 5e-2


@pytest.mark.parametrize("make, match", [
    (lambda: Table2(upscale=5), "even"), (lambda: Table2(n_heads=3), "n_heads"),
    (lambda: Table2(upscale=2), "upscale"), (lambda: Table2(seq_len=0), "seq_len"),
    (lambda: build("lstm"), "name"), (lambda: build("resnet")(torch.zeros(2, 3, 1, dtype=torch.float64)), "Z"),
    (lambda: StiefelAdam([torch.nn.Parameter(torch.zeros(2, 3))]), "params"),
    (lambda: StiefelAdam([torch.nn.Parameter(torch.zeros(3, 2))], lr=0.0), "lr"),
])
def test_bad_input_raises_naming_the_parameter(make, match):
    with pytest.raises(ValueError, match=match):
        make()

"""particles.verify, structure of maps: the symplectic, conformally symplectic and volume checks
accept structure-preserving maps and refuse broken ones, in float64 and float32, on maps written
the way outsiders write them (Hénon–Heiles steps, gradient-module SympNets, NICE couplings,
damped steps); no false pass, no false fail: NaN, non-determinism, half precision and
undecidable precision each get their own answer, never a verdict on the structure."""
import math
import re

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from torch import nn

from particles.strategies import symplectic_matrices
from particles.threads import torch_threads
from particles.verify import (RESOLUTION, RTOL_ULPS, NondeterministicError, NonFiniteError,
                              StructureViolation, SymplecticReport, Undecidable, VolumeReport,
                              assert_conformally_symplectic, assert_symplectic,
                              assert_volume_preserving, jacobian, symplectic_residual)
from theory.symplectic import canonical_J

F64, F32 = torch.float64, torch.float32
DTYPES = [F64, F32]


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """Tiny maps: one intra-op thread (idle pool threads spin on a shared 2-core machine)."""
    with torch_threads(1):
        yield


def seeded(*shape, seed=0, dtype=F64, scale=1.0):
    return (scale * torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=F64)).to(dtype)


# ------------------------------------------------------------------ a coupled pendulum chain
# H(q, p) = ½|p|² + V(q), V(q) = Σ_i −cos(W q)_i: a nonlinear, coupled potential.

D_HALF = 3


def force(q, W):
    return -(W.T @ torch.sin(W @ q))  # −∇V


def leapfrog(W, h=0.1, steps=3):
    def step(z):
        q, p = z[:D_HALF], z[D_HALF:]
        for _ in range(steps):
            p = p + h / 2 * force(q, W)
            q = q + h * p
            p = p + h / 2 * force(q, W)
        return torch.cat([q, p])
    return step


def explicit_euler(W, h=0.1):
    def step(z):
        q, p = z[:D_HALF], z[D_HALF:]
        return torch.cat([q + h * p, p + h * force(q, W)])
    return step


def damped_symplectic_euler(W, h=0.1, gamma=0.5):
    """p⁺ = e^{−γh} p + h F(q), q⁺ = q + h p⁺: conformally symplectic with factor e^{−γh}."""
    def step(z):
        q, p = z[:D_HALF], z[D_HALF:]
        p = math.exp(-gamma * h) * p + h * force(q, W)
        return torch.cat([q + h * p, p])
    return step


def weights(dtype):
    return seeded(D_HALF, D_HALF, dtype=dtype) / math.sqrt(D_HALF)


def points(dtype, n=5, seed=1):
    return seeded(n, 2 * D_HALF, seed=seed, dtype=dtype, scale=2.0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_leapfrog_passes_with_a_report_of_what_was_checked(dtype):
    W = weights(dtype)
    report = assert_symplectic(leapfrog(W), points(dtype))
    assert isinstance(report, SymplecticReport) and report.outcome == "holds"
    assert report.points == 5 and report.violating == 0 and report.dtype == dtype
    assert report.max_defect <= report.tolerance <= report.resolution * 1.0 + 1e-300
    assert report.residual.shape == (5, 2 * D_HALF, 2 * D_HALF) and report.residual.dtype == F64
    text = str(report)
    assert "is symplectic: 5 of 5 points within tolerance" in text and "Resolution:" in text
    volume = assert_volume_preserving(leapfrog(W), points(dtype))
    assert isinstance(volume, VolumeReport) and torch.all(volume.sign == 1)
    assert volume.resolution < RESOLUTION


@pytest.mark.parametrize("dtype", DTYPES)
def test_explicit_euler_is_refused_in_the_style_of_torch_testing(dtype):
    """Explicit Euler: DᵀJD = J + O(h²) (h = 0.1: defect ~1e-2 ≫ 16 eps ‖D‖_F² in both dtypes)."""
    W = weights(dtype)
    with pytest.raises(StructureViolation) as err:
        assert_symplectic(explicit_euler(W), points(dtype))
    msg = str(err.value)
    assert msg.startswith("step (test_verify.py:") and "is not symplectic!\nPoints violating" in msg
    assert "Points violating: 5 / 5 (100.0%)" in msg
    assert re.search(r"Greatest max\|Dfᵀ J Df - J\|: \S+ at point \(\d,\), entry \(\d, \d\) "
                     r"\(up to \S+ allowed\)", msg)
    assert f"rtol {RTOL_ULPS * torch.finfo(dtype).eps!r}" in msg and "Resolution:" in msg
    assert isinstance(err.value, AssertionError) and err.value.report.violating == 5
    with pytest.raises(StructureViolation, match="is not volume preserving"):
        assert_volume_preserving(explicit_euler(W), points(dtype))


def test_the_reported_location_is_the_largest_entry():
    """A map symplectic except at the third point: the message names that point and entry."""
    x = torch.zeros(3, 4, dtype=F64)
    x[2, 0] = 1.0

    def f(z):  # D = diag(1 + 1e-3 z₀, 1, 1, 1): defect 1e-3 at the third point only
        return z + torch.stack([1e-3 * z[0] ** 2 / 2, z[0] * 0, z[0] * 0, z[0] * 0])

    with pytest.raises(StructureViolation, match=r"1\.000e-03 at point \(2,\), entry \(0, 2\)"):
        assert_symplectic(f, x)


# ------------------------------------------------------------------ Hénon–Heiles steps
# H = ½(p_x² + p_y²) + ½(x² + y²) + x²y − y³/3; states below the escape energy 1/6.


def hh_field(z):
    x, y, px, py = z[..., 0], z[..., 1], z[..., 2], z[..., 3]
    return torch.stack([px, py, -(x + 2 * x * y), -(y + x * x - y * y)], -1)


def hh_leapfrog(z, h=0.1):
    q, p = z[..., :2], z[..., 2:]
    p = p + h / 2 * hh_field(torch.cat([q, p], -1))[..., 2:]
    q = q + h * p
    p = p + h / 2 * hh_field(torch.cat([q, p], -1))[..., 2:]
    return torch.cat([q, p], -1)


def hh_rk4(z, h=0.1):
    k1 = hh_field(z)
    k2 = hh_field(z + h / 2 * k1)
    k3 = hh_field(z + h / 2 * k2)
    return z + h / 6 * (k1 + 2 * k2 + 2 * k3 + hh_field(z + h * k3))


def hh_euler(z, h=0.1):
    return z + h * hh_field(z)


def hh_states(dtype, n=6):
    return seeded(n, 4, seed=4, dtype=dtype, scale=0.2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_henon_heiles_leapfrog_passes_and_rk4_and_euler_are_refused(dtype):
    """Leapfrog (10 steps) is symplectic; explicit Euler's O(h²) defect (1.6e-2 at h = 0.1) is
    refused in both dtypes; RK4's O(h⁵) defect (1.8e-7) is refused in float64 (tolerance 1.4e-14)
    and passes in float32, whose tolerance 16 eps ‖D‖_F² = 7.7e-6 the report states."""
    z = hh_states(dtype)
    ten = lambda v: [v := hh_leapfrog(v) for _ in range(10)][-1]  # noqa: E731
    assert_symplectic(ten, z)
    assert_volume_preserving(ten, z)
    with pytest.raises(StructureViolation):
        assert_symplectic(hh_euler, z)
    if dtype == F64:
        with pytest.raises(StructureViolation, match="not symplectic"):
            assert_symplectic(hh_rk4, z)
    else:
        report = assert_symplectic(hh_rk4, z)  # below float32's resolution, which says so
        assert report.max_defect < report.tolerance and report.resolution > 1e-6


# ------------------------------------------------------------------ gradient-module SympNets


class GradientModule(nn.Module):
    """p ← p + Kᵀ(a ⊙ tanh(Kq + b)) ("up") or q ← q + Kᵀ(a ⊙ tanh(Kp + b)) ("low"): a shear by
    the gradient of Σ a_i log cosh((Kq + b)_i), exactly symplectic."""

    def __init__(self, d, width, side, scale, g):
        super().__init__()
        self.K = nn.Parameter(scale * torch.randn(width, d, generator=g, dtype=F64))
        self.a = nn.Parameter(scale * torch.randn(width, generator=g, dtype=F64))
        self.b = nn.Parameter(torch.randn(width, generator=g, dtype=F64))
        self.side = side

    def forward(self, z):
        d = z.shape[-1] // 2
        q, p = z[..., :d], z[..., d:]
        if self.side == "up":
            p = p + (self.a * torch.tanh(q @ self.K.T + self.b)) @ self.K
        else:
            q = q + (self.a * torch.tanh(p @ self.K.T + self.b)) @ self.K
        return torch.cat([q, p], -1)


def sympnet(scale, dtype, layers=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    return nn.Sequential(*[GradientModule(2, 8, ("up", "low")[i % 2], scale, g)
                           for i in range(layers)]).to(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gradient_module_sympnets_pass_and_a_rescaled_one_fails(dtype):
    net, z = sympnet(0.5, dtype), seeded(4, 4, seed=1, dtype=dtype, scale=0.5)
    assert_symplectic(net, z)
    assert_volume_preserving(net, z)
    with pytest.raises(StructureViolation, match=r"Points violating: 4 / 4"):
        assert_symplectic(lambda v: 1.005 * net(v), z)  # DᵀJD = 1.010025 J


def test_a_large_jacobian_sympnet_with_a_1_percent_defect_is_never_passed():
    """At a point where ‖Df‖_F² > 1e4, float32's tolerance 16 eps ‖Df‖_F² exceeds 1e-2: the
    1% defect of 1.005·net cannot be told from rounding, so the check is Undecidable (it used to
    pass), and so is the exact net (never a violation); float64 resolves both."""
    net64 = sympnet(1.5, F64)
    z = seeded(16, 4, seed=1, scale=0.5)
    D = jacobian(net64, z)
    z = z[int(torch.argmax(torch.linalg.matrix_norm(D)))][None]
    assert torch.linalg.matrix_norm(jacobian(net64, z)).item() ** 2 > 1e4  # the premise
    net32 = sympnet(1.5, F32)
    for f in (lambda v: 1.005 * net32(v), net32):
        with pytest.raises(Undecidable) as err:
            assert_symplectic(f, z.float())
        report = err.value.report
        assert report.outcome == "undecidable" and report.max_defect <= report.tolerance
        assert report.resolution > 1e-2 and "Cannot decide whether" in str(err.value)
        assert "float64" in str(err.value)  # the fix is named
        assert not isinstance(err.value, AssertionError)
    assert_symplectic(net64, z)
    with pytest.raises(StructureViolation):
        assert_symplectic(lambda v: 1.005 * net64(v), z)


# ------------------------------------------------------------------ NICE additive couplings


class AdditiveCoupling(nn.Module):
    """NICE (Dinh et al. 2014): (x₁, x₂) ↦ (x₁, x₂ + m(x₁)), m a ReLU MLP; `swap` acts on x₂ first."""

    def __init__(self, d, swap, g):
        super().__init__()
        self.m = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, d)).to(F64)
        with torch.no_grad():
            for p in self.m.parameters():
                p.copy_(torch.randn(p.shape, generator=g, dtype=F64))
        self.swap = swap

    def forward(self, x):
        d = x.shape[-1] // 2
        a, b = (x[..., d:], x[..., :d]) if self.swap else (x[..., :d], x[..., d:])
        b = b + self.m(a)
        return torch.cat([b, a], -1) if self.swap else torch.cat([a, b], -1)


def test_nice_couplings_preserve_volume_and_are_not_symplectic():
    """det = 1 exactly (triangular with unit diagonal) however large m's Jacobian; symplectic
    only if ∂m/∂x₁ were symmetric, which a generic MLP's is not."""
    g = torch.Generator().manual_seed(3)
    flow = nn.Sequential(*[AdditiveCoupling(3, i % 2 == 1, g) for i in range(4)])
    x = seeded(5, 6, seed=2)
    report = assert_volume_preserving(flow, x)
    assert torch.all(report.sign == 1)
    with pytest.raises(StructureViolation, match="not symplectic"):
        assert_symplectic(flow, x)


@given(symplectic_matrices(d=st.integers(1, 4), shears=st.integers(1, 4)),
       st.sampled_from(DTYPES), st.floats(1e-3, 0.1))
def test_linear_symplectic_maps_pass_or_are_undecidable_and_rescalings_fail(M, dtype, delta):
    """x ↦ Mx is never reported a violation: it passes, or (a float32 M with a large ‖M‖_F²)
    is Undecidable with its resolution above 1e-3. (1 + δ)M has DᵀJD = (1 + δ)²J: refused
    wherever the dtype resolves it (defect 2δ + δ² above twice the tolerance), conformally
    symplectic with factor (1 + δ)² otherwise or Undecidable. Volume: the same, in log|det|."""
    A = torch.from_numpy(M).to(dtype)
    x = seeded(2, len(M), dtype=dtype)
    for check in (assert_symplectic, assert_volume_preserving):
        try:
            assert check(lambda v: A @ v, x).resolution <= RESOLUTION
        except Undecidable as err:
            assert err.report.resolution > RESOLUTION
    tol = RTOL_ULPS * torch.finfo(dtype).eps
    if 2 * delta + delta ** 2 > 2 * tol * (1 + delta) ** 2 * np.linalg.norm(M) ** 2:
        with pytest.raises(StructureViolation, match="not symplectic"):
            assert_symplectic(lambda v: (1 + delta) * (A @ v), x)
    try:
        assert_conformally_symplectic(lambda v: (1 + delta) * (A @ v), x, (1 + delta) ** 2)
    except Undecidable as err:
        assert err.report.resolution > RESOLUTION


# ------------------------------------------------------------------ damped maps and factors


@pytest.mark.parametrize("dtype", DTYPES)
def test_damped_symplectic_euler_is_conformally_symplectic(dtype):
    W, h, gamma = weights(dtype), 0.1, 0.5
    step = damped_symplectic_euler(W, h, gamma)
    assert_conformally_symplectic(step, points(dtype), math.exp(-gamma * h))
    # the factor may vary over the batch (a tensor), and a wrong factor is refused
    assert_conformally_symplectic(step, points(dtype), torch.full((5,), math.exp(-gamma * h), dtype=F64))
    with pytest.raises(StructureViolation, match="not conformally symplectic"):
        assert_conformally_symplectic(step, points(dtype), 1.0)
    with pytest.raises(StructureViolation, match="not symplectic"):
        assert_symplectic(step, points(dtype))


def test_a_factor_that_varies_over_the_points_is_said_to_test_a_pointwise_identity():
    """A state-dependent friction p ← e^{−γ(q)h}p − h sin q in 2-D satisfies Dfᵀ J Df = c(x)·J with
    c = det Df = e^{−γ(q)h} at every point, though it is not conformally symplectic (one constant
    c): a per-point factor passes and the report says what it tested (second audit); the one
    constant factor is refused."""
    h = 0.1

    def gamma(q):
        return 0.5 + 0.4 * torch.tanh(q)

    def damped(z):
        q, p = z[..., :1], z[..., 1:]
        p = torch.exp(-gamma(q) * h) * p - h * torch.sin(q)
        return torch.cat([q + h * p, p], -1)
    z = torch.randn(8, 2, generator=torch.Generator().manual_seed(0), dtype=F64)
    report = assert_conformally_symplectic(damped, z, torch.exp(-gamma(z[:, 0]) * h))
    assert "the factor varies over the points" in str(report)
    with pytest.raises(StructureViolation):
        assert_conformally_symplectic(damped, z, math.exp(-0.5 * h))


def test_a_float32_tensor_factor_beside_a_float64_map_is_taken_at_its_own_precision():
    """torch.exp(torch.tensor(-0.05)) is e^{−0.05} rounded to float32 (relative 3e-8 off): the
    float64 map passes with the factor's rounding in the tolerance, the message prints c in full
    (0.951229453086853, not 0.951229); a factor off by 1e-6 is still refused."""
    step, z = damped_symplectic_euler(weights(F64)), points(F64)
    c32 = torch.exp(torch.tensor(-0.05))
    report = assert_conformally_symplectic(step, z, c32)
    assert f"c = {c32.double().item()!r}, a torch.float32 tensor" in str(report)
    with pytest.raises(StructureViolation, match=r"c = 0\.9512304530868531"):
        assert_conformally_symplectic(step, z, c32.double() + 1e-6)


def test_tolerances_given_as_tensors_are_taken_exactly_and_printed_in_full():
    W = weights(F64)
    report = assert_symplectic(explicit_euler(W), points(F64), rtol=torch.tensor(0.1),
                               resolution=1.0)
    assert f"rtol {torch.tensor(0.1).double().item()!r}" in str(report)  # 0.10000000149011612
    with pytest.raises(StructureViolation, match=r"atol 1e-06 \+ rtol 0\.0"):
        assert_symplectic(explicit_euler(W), points(F64), rtol=torch.tensor(0.0, dtype=F64),
                          atol=torch.tensor(1e-6, dtype=F64))


def test_an_exactly_volume_preserving_ill_conditioned_map_passes_in_float32():
    """diag(1e4, 1e-4, 1, 1): κ₂ = 1e8, so a tolerance n κ₂ eps would be 800 (it was reported
    "too ill-conditioned"); the entrywise first-order bound Σ|D⁻¹_ji D_ij| = 4 resolves it."""
    D = torch.diag(torch.tensor([1e4, 1e-4, 1.0, 1.0]))
    report = assert_volume_preserving(lambda v: D @ v, seeded(3, 4, dtype=F32))
    assert report.resolution < 1e-5
    with pytest.raises(StructureViolation):
        assert_volume_preserving(lambda v: 1.001 * (D @ v), seeded(3, 4, dtype=F32))


# ------------------------------------------------------------------ inputs as users have them


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_is_refused(dtype):
    """A bfloat16 Euler step used to pass with a tolerance of ~0.5: refused, with the fix."""
    z = points(F64)[0].to(dtype)
    for check in (assert_symplectic, assert_volume_preserving):
        with pytest.raises(TypeError, match=rf"x is {dtype}.*float32 or float64"):
            check(explicit_euler(weights(dtype)), z)


def test_a_single_unbatched_state():
    W = weights(F64)
    z = points(F64)[0]
    volume = assert_volume_preserving(leapfrog(W), z)
    assert volume.points == 1 and volume.sign.shape == () and volume.log_volume.shape == ()
    assert "at point ()" in str(volume)
    assert assert_symplectic(leapfrog(W), z).residual.shape == (6, 6)
    with pytest.raises(StructureViolation, match=r"Points violating: 1 / 1"):
        assert_volume_preserving(explicit_euler(W), z)


def test_tuple_and_dict_outputs_need_a_selector():
    W = weights(F64)
    with pytest.raises(TypeError, match=r"returned a tuple; pass output="):
        assert_symplectic(lambda z: (leapfrog(W)(z), z.sum()), points(F64))
    assert_symplectic(lambda z: (leapfrog(W)(z), z.sum()), points(F64), output=0)
    assert_volume_preserving(lambda z: {"state": leapfrog(W)(z)}, points(F64), output="state")
    assert_symplectic(lambda z: [z, (leapfrog(W)(z),)], points(F64), output=lambda o: o[1][0])


def test_maps_that_break_under_vmap_fall_back_to_autograd_or_name_the_fix():
    """.item() for control flow, and a force by autograd after requires_grad_() (a Hamiltonian
    network's step), run point by point with a note; a .item() the output depends on, or numpy,
    is refused naming vmap and the fix (torch operations only)."""
    W = weights(F64)

    def clipped(z):  # data-dependent control flow through .item()
        return leapfrog(W)(z) if z.abs().max().item() < 100 else z

    def hnn_step(z, h=0.1):  # symplectic Euler with ∇H by autograd inside
        z = z.requires_grad_()
        H = 0.5 * (z[D_HALF:] ** 2).sum() - torch.cos(W @ z[:D_HALF]).sum()
        dH = torch.autograd.grad(H, z, create_graph=True)[0]
        p = z[D_HALF:] - h * dH[:D_HALF]
        q = z[:D_HALF] + h * p  # ∂H/∂p = p
        return torch.cat([q, p])

    for f in (clipped, hnn_step):
        report = assert_symplectic(f, points(F64))
        assert any("torch.func.vmap" in n and "point by point" in n for n in report.notes)
    with pytest.warns(UserWarning, match=r"torch\.func\.vmap"):  # the measurement says so too
        assert jacobian(clipped, points(F64)).shape == (5, 6, 6)
    # a ReLU flow in float32 (kinks near the finite-difference steps) behind .item() control flow
    flow = AdditiveCoupling(3, False, torch.Generator().manual_seed(3)).float()
    assert_volume_preserving(lambda z: flow(z) if z.abs().max().item() < 1e3 else z,
                             seeded(32, 6, seed=9, dtype=F32))
    with pytest.raises(ValueError, match=r"torch\.func\.vmap.*finite differences.*Fix: write f "
                                         r"with torch operations"):
        assert_symplectic(lambda z: leapfrog(W)(z) * z[0].item(), points(F64))
    with pytest.raises(ValueError, match=r"torch\.func\.vmap.*cannot be taken.*Fix"):
        assert_symplectic(lambda z: torch.from_numpy(np.sin(z.numpy())), points(F64))
    # a state-dependent step size taken with float(): the missed term (∂f/∂h)(∂h/∂z)ᵀ is only ~2%
    # of Df·v, which a fixed 10% gate let through as symplectic (true defect ~1e-2, audit of 26 Nov
    # 2026), yet far above the finite differences' own error
    def adaptive(z, h0=0.1):
        h = h0 / (1 + 0.1 * float(z[-1] ** 2))
        q, p = z[:D_HALF], z[D_HALF:]
        p = p - h / 2 * torch.sin(q)
        q = q + h * p
        return torch.cat([q, p - h / 2 * torch.sin(q)])
    for check in (assert_symplectic, assert_volume_preserving):
        for dtype in (F64, F32):  # float32: the differences are taken in float64 (a float32 one
            # resolves Df only to ~eps^(2/3); the gate passed this map, second audit of 26 Nov 2026)
            with pytest.raises(ValueError, match=r"finite differences.*leaves the autograd graph"):
                check(adaptive, points(dtype))
    # an f written for batches only (z[:, 0]) fails on one state: ValueError with the fix, not a
    # bare IndexError from the user's code
    with pytest.raises(ValueError, match=r"fails on one state of shape \(6,\).*z\[\.\.\., 0\]"):
        assert_symplectic(lambda z: torch.stack([z[:, 3], z[:, 4], z[:, 5], -z[:, 0], -z[:, 1], -z[:, 2]], -1),
                          points(F64))


def test_nondeterministic_maps_are_refused_never_reported_as_violations():
    """Dropout in train mode, weights created per call, numpy randomness: ValueError naming the
    fix (.eval(), create weights once, fix the randomness), not StructureViolation."""
    drop = nn.Sequential(nn.Linear(6, 6), nn.Dropout(0.5)).to(F64).train()
    rng = np.random.default_rng(0)
    for f in (drop, lambda z: nn.Linear(6, 6).double()(z),
              lambda z: z + torch.from_numpy(rng.standard_normal(6))):
        for check in (assert_symplectic, assert_volume_preserving):
            with pytest.raises(NondeterministicError, match=r"not deterministic.*\.eval\(\)"):
                check(f, points(F64))
    assert issubclass(NondeterministicError, ValueError)


def test_nan_and_inf_name_f_and_the_point():
    """NaN in f(x) at the fourth point; a Jacobian NaN (√(z²) at z = 0: 0 · ∞) where f is finite."""
    z = points(F64)

    def poles(v):
        return leapfrog(weights(F64))(v) / (v[0] - z[3, 0])

    for check in (assert_symplectic, assert_volume_preserving):
        with pytest.raises(NonFiniteError, match=r"f = poles \(test_verify\.py:\d+\) returned NaN "
                                                 r"or inf at point \(3,\)"):
            check(poles, z)
    z0 = z.clone()
    z0[1, 2] = 0.0
    with pytest.raises(NonFiniteError, match=r"Jacobian of f = .* at point \(1,\), entry \(\d, 2\)"):
        assert_volume_preserving(lambda v: torch.sqrt(v ** 2), z0)


# ------------------------------------------------------------------ forms, shapes, tolerances


def test_another_form_J_is_accepted_and_used():
    """In interleaved coordinates (q₁, p₁, q₂, p₂, …) the form is P J Pᵀ; the leapfrog step
    written in them is symplectic for that J and not for the default one."""
    W = weights(F64)
    perm = torch.tensor([0, 3, 1, 4, 2, 5])  # interleaved index -> canonical index
    inv = torch.argsort(perm)
    J = torch.from_numpy(canonical_J(D_HALF))[perm][:, perm]
    x = points(F64)[:, perm]
    assert_symplectic(lambda y: leapfrog(W)(y[inv])[perm], x, J=J)
    with pytest.raises(StructureViolation, match="not symplectic"):
        assert_symplectic(lambda y: leapfrog(W)(y[inv])[perm], x)


def test_volume_preserving_but_not_symplectic_and_orientation_reversing_maps():
    """(q₁, q₂, p₁, p₂) ↦ (q₁ + q₂², q₂, p₁, p₂) has det 1 but is not symplectic; in R²,
    (q, p) ↦ (−q, p) has |det| = 1 with sign −1 and is anti-symplectic (DᵀJD = −J)."""
    x = seeded(3, 4, seed=5)
    shear = lambda z: torch.stack([z[0] + z[1] ** 2, z[1], z[2], z[3]])  # noqa: E731
    assert_volume_preserving(shear, x)
    with pytest.raises(StructureViolation, match="not symplectic"):
        assert_symplectic(shear, x)
    flip = lambda z: torch.stack([-z[0], z[1]])  # noqa: E731
    assert torch.all(assert_volume_preserving(flip, x[:, :2]).sign == -1)
    assert_conformally_symplectic(flip, x[:, :2], -1.0)
    with pytest.raises(StructureViolation, match=r"sign of det -1"):
        assert_volume_preserving(lambda z: 2 * flip(z), x[:, :2])


def test_a_singular_jacobian_is_a_violation_named_as_such():
    x = seeded(3, 4, seed=5)
    with pytest.raises(StructureViolation, match=r"violating: 3 / 3(.|\n)*singular at 3 point"):
        assert_volume_preserving(lambda z: torch.stack([z[0], z[0], z[2], z[3]]), x)


def test_matrix_states_use_row_major_flattening():
    """A 2d×T token cloud Z (event_dims=2, d = 1, T = 5): Z ↦ M Z with M ∈ Sp(2) on every token
    is M ⊗ I_T on the row-major Z_vec, symplectic for J_{2dT} = J_2 ⊗ I_T of seed 001 eq. (23)."""
    M = torch.from_numpy(canonical_J(1) @ np.array([[1.0, 0.0], [0.3, 1.0]]))  # det 1, 2×2
    Z = seeded(2, 2, 5, seed=6)
    assert_symplectic(lambda z: M @ z, Z, event_dims=2)
    with pytest.raises(StructureViolation, match="not symplectic"):
        assert_symplectic(lambda z: 2 * M @ z, Z, event_dims=2)


def test_the_default_tolerance_is_stated_and_overridable():
    """rtol=… replaces the 16·eps default: with rtol = 1 even explicit Euler passes, with rtol = 0
    the exactly symplectic linear map still passes (its residual is exactly 0)."""
    W = weights(F64)
    assert RTOL_ULPS == 16.0 and RESOLUTION == 1e-3
    assert_symplectic(explicit_euler(W), points(F64), rtol=1.0, resolution=10.0)
    with pytest.raises(Undecidable):  # rtol = 1 cannot resolve 1e-3: it passes only if asked
        assert_symplectic(explicit_euler(W), points(F64), rtol=1.0)
    shear = torch.eye(4, dtype=F64)
    shear[0, 2] = 0.5
    report = assert_symplectic(lambda v: shear @ v, points(F64)[:, :4], rtol=0.0)
    assert torch.count_nonzero(report.residual) == 0 and report.resolution == 0.0


def test_symplectic_residual_is_the_measurement():
    W = weights(F64)
    R, D = symplectic_residual(explicit_euler(W), points(F64))
    J = torch.from_numpy(canonical_J(D_HALF))
    assert torch.allclose(R, D.transpose(-1, -2) @ J @ D - J, rtol=0, atol=1e-15)


LIN = lambda v: v  # noqa: E731
X4 = torch.zeros(2, 4, dtype=F64)


@pytest.mark.parametrize("call,error,match", [
    (lambda: assert_symplectic("f", X4), TypeError, "f must"),
    (lambda: assert_symplectic(LIN, np.zeros((2, 4))), TypeError, "x must"),
    (lambda: assert_symplectic(LIN, torch.zeros(2, 4, dtype=torch.long)), TypeError, "x must"),
    (lambda: assert_symplectic(LIN, torch.tensor([[0.0] * 4, [math.nan] + [0.0] * 3], dtype=F64)),
     ValueError, r"x contains NaN or inf at point \(1,\)"),
    (lambda: assert_symplectic(LIN, torch.zeros(2, 3, dtype=F64)), ValueError, "x: .*odd.*pass J"),
    (lambda: assert_symplectic(LIN, X4, J=torch.eye(4, dtype=F64)), ValueError, "J must be antisymmetric"),
    (lambda: assert_symplectic(LIN, X4, J=torch.zeros(4, 4)), ValueError, "J must be antisymmetric"),
    (lambda: assert_symplectic(LIN, X4, J=torch.from_numpy(canonical_J(1))), ValueError, "J must be 4×4"),
    (lambda: assert_symplectic(LIN, X4, J=torch.tensor([[0., 1, 0, 0], [-1, 0, 0, 0], [0, 0, 0, 0],
                                                         [0, 0, 0, 0]])), ValueError, "J must be invertible"),
    (lambda: assert_symplectic(LIN, X4, J=[[0, 1], [-1, 0]]), TypeError, "J must"),
    (lambda: assert_symplectic(LIN, X4, rtol=-1.0), ValueError, "rtol"),
    (lambda: assert_symplectic(LIN, X4, atol="0"), TypeError, "atol"),
    (lambda: assert_symplectic(LIN, X4, atol=torch.ones(2)), TypeError, "atol"),
    (lambda: assert_symplectic(LIN, X4, resolution=0.0), ValueError, "resolution"),
    (lambda: assert_symplectic(LIN, X4, event_dims=0), ValueError, "event_dims"),
    (lambda: assert_symplectic(LIN, X4, output=1.5), TypeError, "output"),
    (lambda: assert_conformally_symplectic(LIN, X4, "1"), TypeError, "factor"),
    (lambda: assert_conformally_symplectic(LIN, X4, True), TypeError, "factor"),
    (lambda: assert_conformally_symplectic(LIN, X4, 1j), TypeError, "factor"),
    (lambda: assert_conformally_symplectic(LIN, X4, math.inf), ValueError, "factor"),
    (lambda: assert_conformally_symplectic(LIN, X4, torch.ones(3)), ValueError, "factor"),
    (lambda: assert_volume_preserving(lambda v: v[:2], X4), ValueError, "same size"),
])
def test_bad_arguments_raise_naming_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()

"""theory.symplectic and particles.geometry: canonical forms, the eq. (17)-(18) reordering,
defects and volumes, exact sympy residuals, torch.func Jacobians."""
import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import given
from hypothesis import strategies as st

from particles import geometry
from theory import symplectic as S

dims = st.integers(1, 4)
# Products of O(1) matrices of size <= 16 in float64: entries are sums of <= 16^2 terms of size
# O(10), so rounding errors stay below 1e-12 in Frobenius norm.
TOL = 1e-12


def random_symplectic(d, rng):
    """exp(J S) with S symmetric is symplectic; compose with a shear for non-normality."""
    from scipy.linalg import expm
    A = rng.standard_normal((2 * d, 2 * d))
    Ssym = 0.3 * (A + A.T)
    shear = np.eye(2 * d)
    B = rng.standard_normal((d, d))
    shear[:d, d:] = B + B.T
    return expm(S.canonical_J(d) @ Ssym) @ shear


@given(dims)
def test_J_is_skew_orthogonal_and_squares_to_minus_identity(d):
    J = S.canonical_J(d)
    assert np.array_equal(J.T, -J)
    assert np.array_equal(J @ J, -np.eye(2 * d))
    assert S.symplectic_defect(J) == 0.0  # J itself is symplectic


@given(dims, st.integers(1, 5))
def test_reordering_isomorphism_maps_product_form_to_J_2dT(d, T):
    """Seed 001 eq. (17)-(18), (23): P (I_T ⊗ J_2d) Pᵀ = J_2dT and P is a permutation."""
    P = S.reorder_permutation(d, T)
    assert np.array_equal(P @ P.T, np.eye(2 * d * T))
    assert np.array_equal(P @ S.product_J(d, T) @ P.T, S.canonical_J(d * T))
    Z = np.arange(2 * d * T, dtype=float).reshape(2 * d, T)
    tokens = Z.T.reshape(-1)  # z^(1), ..., z^(T) concatenated
    assert np.array_equal(P @ tokens, S.vec(Z))
    assert np.array_equal(S.unvec(S.vec(Z), T), Z)


@given(dims, st.integers(0, 2**32 - 1), st.floats(0.1, 3.0))
def test_defects_vanish_exactly_on_their_class(d, seed, sigma):
    rng = np.random.default_rng(seed)
    M = random_symplectic(d, rng)
    scale = np.sqrt(sigma)
    tol = TOL * np.linalg.norm(M) ** 2
    assert S.symplectic_defect(M) < tol
    assert S.conformal_defect(scale * M, sigma) < sigma * tol
    assert abs(S.best_conformal_factor(scale * M) - sigma) < sigma * tol
    # Theorem 2 of seed 001 in matrix form: symplectic ⇒ |det| = 1.
    assert abs(S.log_volume(M)) < 1e-10


def test_volume_preserving_but_not_symplectic_exists():
    """diag(2, 1/2, 1, 1) on R^4: det 1, but DᵀJD ≠ J (the converse of Theorem 2 fails)."""
    D = np.diag([2.0, 0.5, 1.0, 1.0])  # scales q1 by 2 and q2 by ½: volume 1, not symplectic
    assert abs(S.log_volume(D)) < 1e-15
    assert S.symplectic_defect(D) > 1.0


@given(dims, st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_defect_batches_over_leading_axes(d, b, seed):
    rng = np.random.default_rng(seed)
    D = rng.standard_normal((b, 3, 2 * d, 2 * d))
    batched = S.symplectic_defect(D)
    assert batched.shape == (b, 3)
    one = S.symplectic_defect(D[b - 1, 2])
    assert abs(batched[b - 1, 2] - one) <= 1e-12 * max(1.0, one)


def test_stiefel_lift_maps_between_dimensions():
    """Seed 001 eq. (29)-(31): diag(Φ,Φ)ᵀ J_2N diag(Φ,Φ) = J_2d for ΦᵀΦ = I."""
    rng = np.random.default_rng(0)
    Phi, _ = np.linalg.qr(rng.standard_normal((5, 2)))
    A = S.stiefel_lift(Phi)
    assert S.symplectic_defect(A) < 1e-14
    with pytest.raises(ValueError, match="Phi"):
        S.stiefel_lift(2 * Phi)


def test_sympy_residual_proves_shear_and_refutes_scaling():
    q1, q2, p1, p2, a, b = sp.symbols("q1 q2 p1 p2 a b", real=True)
    z = [q1, q2, p1, p2]
    shear = [q1 + sp.diff(a * sp.cos(p1) + b * p1 * p2, p1), q2 + b * p1, p1, p2]
    assert S.is_symplectic_sym(shear, z)
    assert not S.is_symplectic_sym([2 * q1, q2, p1, p2], z)
    assert S.is_symplectic_sym([2 * q1, 2 * q2, p1, p2], z, sigma=2)


@pytest.mark.parametrize("call, match", [
    (lambda: S.canonical_J(0), "d must be >= 1"),
    (lambda: S.canonical_J(1.5), "d must be an int"),
    (lambda: S.symplectic_defect(np.eye(3)), "even-dimensional"),
    (lambda: S.log_volume(np.ones((2, 3))), "square"),
    (lambda: S.symplectic_defect(np.full((2, 2), np.nan)), "NaN"),
    (lambda: S.vec(np.ones((3, 2))), "even-dimensional"),
    (lambda: S.reorder_permutation(1, 0), "T must be >= 1"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


# ------------------------------------------------------------------ torch.func Jacobians


@given(dims, st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_jacobian_of_linear_map_is_the_matrix(d, b, seed):
    g = torch.Generator().manual_seed(seed)
    M = torch.randn(2 * d, 2 * d, generator=g, dtype=torch.float64)
    x = torch.randn(b, 2 * d, generator=g, dtype=torch.float64)
    D = geometry.jacobian(lambda v: M @ v, x)
    assert D.shape == (b, 2 * d, 2 * d)
    assert torch.equal(D, M.expand(b, -1, -1))


@given(st.integers(1, 3), st.integers(0, 2**32 - 1), st.floats(0.01, 1.0))
def test_symplectic_euler_step_is_symplectic_and_explicit_euler_is_not(d, seed, h):
    """Symplectic Euler for H = ½|p|² + Σ cos(q) has DφᵀJDφ = J; explicit Euler does not."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(3, 2 * d, generator=g, dtype=torch.float64)

    def symplectic_euler(z):
        q, p = z[:d], z[d:]
        p = p + h * torch.sin(q)  # −∂H/∂q
        return torch.cat([q + h * p, p])

    def explicit_euler(z):
        q, p = z[:d], z[d:]
        return torch.cat([q + h * p, p + h * torch.sin(q)])

    assert geometry.symplectic_defect(symplectic_euler, x).max() < 1e-13
    # log|det| of explicit Euler is log|1 − h² cos(q)| summed: nonzero unless cos(q) = 0.
    lv = geometry.log_volume(explicit_euler, x)
    expect = np.log(np.abs(1 - h**2 * np.cos(x[:, :d].numpy()))).sum(-1)
    assert np.allclose(lv, expect, atol=1e-12)


def test_jacobian_of_matrix_valued_map_uses_row_major_flattening():
    Z = torch.arange(12, dtype=torch.float64).reshape(1, 4, 3)
    A = torch.randn(3, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    D = geometry.jacobian(lambda z: z @ A, Z, event_dims=2)
    # vec(Z A) = (I_4 ⊗ Aᵀ) vec(Z) for the row-major vec of eq. (18).
    assert torch.allclose(D[0], torch.kron(torch.eye(4, dtype=torch.float64), A.T.contiguous()), atol=1e-14)


def test_geometry_rejects_float32_and_nan():
    with pytest.raises(TypeError, match="float64"):
        geometry.jacobian(lambda v: v, torch.zeros(2, 2))
    with pytest.raises(ValueError, match="NaN"):
        geometry.jacobian(lambda v: v, torch.full((2, 2), float("nan"), dtype=torch.float64))

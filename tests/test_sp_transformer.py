"""The counterexamples and corrections of the seed-001 claims (claims/sp_transformer/theorems.py), as tests."""
import math

import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.sp_transformer import theorems as c001
from claims.sp_transformer import attention as c001_attention
from particles import geometry
from particles.sympnet import CayleyAttention, cayley, cayley_activation, correlation, lambda_tilde
from theory.symplectic import best_conformal_factor, canonical_J, log_volume, symplectic_defect

F64 = torch.float64
seeds = st.integers(0, 2**31 - 1)


def gen(seed):
    return torch.Generator().manual_seed(seed)


def test_printed_cayley_of_a_rotation_generator_is_half_a_rotation():
    # eq. (20): ½(I − Y)(I + Y)⁻¹ with Y = [[0, 1], [−1, 0]] is ½·[[0, −1], [1, 0]], Gram = I/4
    Y = torch.tensor([[0.0, 1.0], [-1.0, 0.0]], dtype=F64)
    Q = cayley(Y, printed=True)
    torch.testing.assert_close(Q, torch.tensor([[0.0, -0.5], [0.5, 0.0]], dtype=F64), rtol=0, atol=1e-16)
    torch.testing.assert_close(Q.T @ Q, torch.eye(2, dtype=F64) / 4, rtol=0, atol=1e-16)


def test_eq_22_printed_blocks_represent_Z_Lambda_transposed():
    # Z = [[1, 2], [0, 0]], A = I: Λ = rotation by θ = 2 arctan 2; (I ⊗ Λ) Z_vec ≠ vec(ZΛ)
    Z = torch.tensor([[1.0, 2.0], [0.0, 0.0]], dtype=F64)
    Lam = cayley_activation(correlation(Z, torch.eye(2, dtype=F64)))
    printed = lambda_tilde(Lam, 1) @ Z.reshape(-1)
    assert torch.linalg.vector_norm(printed - (Z @ Lam).reshape(-1)) > 1.0
    torch.testing.assert_close(lambda_tilde(Lam.T, 1) @ Z.reshape(-1), (Z @ Lam).reshape(-1), rtol=0, atol=1e-15)


@given(d=st.integers(1, 3), T=st.integers(2, 5), seed=seeds)
def test_printed_cayley_makes_lambda_tilde_conformal_with_factor_one_quarter(d, T, seed):
    att = CayleyAttention(2 * d, printed=True, generator=gen(seed))
    Z = torch.randn(2 * d, T, generator=gen(seed + 1), dtype=F64)
    L = lambda_tilde(att.weights(Z).detach(), d).numpy()
    J = canonical_J(d * T)
    np.testing.assert_allclose(L.T @ J @ L, J / 4, atol=1e-13)  # one LU solve per Λ
    assert best_conformal_factor(L, J) == pytest.approx(0.25, abs=1e-13)


@given(d=st.integers(1, 2), T=st.integers(2, 4), seed=seeds)
def test_printed_cayley_attention_shrinks_volume_by_two_to_the_2dT(d, T, seed):
    # with skew A the standard layer preserves volume, so the printed ½ alone gives det = 2^{-2dT}
    A = torch.randn(2 * d, 2 * d, generator=gen(seed), dtype=F64)
    att = CayleyAttention(2 * d, A=A - A.T, printed=True)
    Z = torch.randn(2, 2 * d, T, generator=gen(seed + 1), dtype=F64)
    logdet = log_volume(geometry.jacobian(att, Z, 2).detach().numpy())
    np.testing.assert_allclose(logdet, -2 * d * T * math.log(2), atol=1e-10)


@given(d=st.integers(1, 3), T=st.integers(2, 5), alpha=st.floats(-3, 3), seed=seeds)
def test_cayley_attention_with_A_proportional_to_J_is_symplectic(d, T, alpha, seed):
    # Σ = ZᵀJZ is invariant and Z ↦ ZΛ(Σ) is the time-1 flow of a Hamiltonian function of Σ
    att = CayleyAttention(2 * d, A=alpha * torch.from_numpy(canonical_J(d)))
    Z = torch.randn(3, 2 * d, T, generator=gen(seed), dtype=F64)
    D = geometry.jacobian(att, Z, 2).detach().numpy()
    assert np.all(symplectic_defect(D) < 1e-12 * np.maximum(1, np.linalg.norm(D, axis=(1, 2)) ** 2))


def test_general_skew_A_preserves_volume_but_is_not_symplectic_in_d_2():
    A = torch.tensor([[0.0, 1.0, 0.3, -0.2], [-1.0, 0.0, 0.5, 0.1],
                      [-0.3, -0.5, 0.0, 0.7], [0.2, -0.1, -0.7, 0.0]], dtype=F64)
    att = CayleyAttention(4, A=A)
    Z = torch.randn(1, 4, 3, generator=gen(0), dtype=F64)
    D = geometry.jacobian(att, Z, 2).detach().numpy()
    assert abs(log_volume(D)[0]) < 1e-12
    assert symplectic_defect(D)[0] > 0.1


def test_volume_preserving_maps_that_are_not_symplectic():
    D = np.diag([2.0, 0.5, 1.0, 1.0])  # (q1, q2, p1, p2) ↦ (2q1, q2/2, p1, p2)
    assert np.linalg.det(D) == 1.0
    assert symplectic_defect(D) == pytest.approx(math.sqrt(2 * (1.0 ** 2 + 0.5 ** 2)), rel=1e-15)


def test_pfaffian_helper():
    a = sp.symbols("a12 a13 a14 a23 a24 a34")
    A = sp.Matrix([[0, a[0], a[1], a[2]], [-a[0], 0, a[3], a[4]],
                   [-a[1], -a[3], 0, a[5]], [-a[2], -a[4], -a[5], 0]])
    assert sp.expand(c001._pfaffian(A) - (a[0] * a[5] - a[1] * a[4] + a[2] * a[3])) == 0
    assert sp.expand(c001._pfaffian(A) ** 2 - A.det()) == 0
    assert c001._pfaffian(sp.Matrix(canonical_J(2).astype(int))) == -1  # (−1)^{d(d−1)/2}


@pytest.mark.parametrize("check, key, value, verdict", [
    # ‖I/4 − I‖_F/√T: the printed ½ fails under every reading of eq. (20)
    (c001_attention.eq_19_20, "printed_gram_defect_over_sqrtT", [0.75, 0.75], "holds-with-correction"),
    # Λ̃ᵀJΛ̃ = J/4 with the printed ½, but eq. (24)'s implication from ΛᵀΛ = I holds: an ambiguity
    (c001_attention.eq_22_24, "printed_cayley_conformal_factor", [0.25, 0.25], "holds-with-correction"),
])
def test_claim_numbers_match_the_closed_forms(check, key, value, verdict):
    ev = check("quick")
    assert ev.verdict == verdict
    np.testing.assert_allclose(ev.numbers[key], value, atol=1e-12)
    assert [r["verdict"] for r in ev.readings][0] == "fails"


@given(d=st.integers(1, 3), seed=seeds)
def test_attention_determinant_for_two_tokens(d, seed):
    # T = 2: Λ = rotation by θ = 2 arctan c, c = z¹ᵀAz²; the matrix determinant lemma gives
    # det D = 1 + θ'(c) (z²ᵀAz² − z¹ᵀAz¹), θ'(c) = 2/(1 + c²), for every d and every A
    A = torch.randn(2 * d, 2 * d, generator=gen(seed), dtype=F64)
    Z = torch.randn(2 * d, 2, generator=gen(seed + 1), dtype=F64)
    D = geometry.jacobian(CayleyAttention(2 * d, A=A), Z[None], 2)[0].detach().numpy()
    z1, z2 = Z[:, 0], Z[:, 1]
    c = float(z1 @ A @ z2)
    predicted = 1 + 2 / (1 + c ** 2) * float(z2 @ A @ z2 - z1 @ A @ z1)
    assert np.linalg.det(D) == pytest.approx(predicted, rel=1e-10, abs=1e-12)


@settings(max_examples=10)  # two Jacobians per example; the volume test in test_sympnet samples more
@given(d=st.integers(1, 3), T=st.integers(2, 5), seed=seeds)
def test_skew_A_attention_preserves_the_form_of_A(d, T, seed):
    # A skew: Dᵀ(A ⊗ I_T)D = A ⊗ I_T (the layer is symplectic for the form Σ_t z_tᵀAz'_t, whence
    # det D = ±1); a general A breaks it. Entries of DᵀWD are ~‖A‖‖D‖²: rounding ~1e-16 of that.
    G = torch.randn(2 * d, 2 * d, generator=gen(seed), dtype=F64)
    Z = torch.randn(2, 2 * d, T, generator=gen(seed + 1), dtype=F64)
    for A, preserved in (((G - G.T) / 2, True), (G, False)):
        D = geometry.jacobian(CayleyAttention(2 * d, A=A), Z, 2).detach().numpy()
        W = np.kron(A.numpy(), np.eye(T))
        scale = max(1.0, np.linalg.norm(W, 2)) * np.maximum(1.0, np.linalg.norm(D, axis=(1, 2)) ** 2)
        relative = symplectic_defect(D, W, W) / scale
        if preserved:
            assert np.all(relative < 1e-12)
        else:
            assert np.all(relative > 1e-8)

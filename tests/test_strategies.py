"""theory.strategies and particles.strategies: every strategy yields what its docstring promises."""
import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from particles.strategies import particle_clouds, token_batches
from theory.strategies import skew_symmetric_matrices, spd_matrices, symplectic_matrices
from theory.symplectic import canonical_J

EPS = np.finfo(np.float64).eps


@given(spd_matrices(n=st.integers(1, 6), cond=(10.0, 1e6), scale=(0.5, 2.0)))
def test_spd_matrices_have_the_condition_number_asked_for(A):
    """Symmetric (exactly), positive definite, κ₂ ∈ [10, 1e6] and λ_min ∈ [0.5, 2] up to the
    rounding of Q Λ Qᵀ: eigenvalues move by ≲ n·eps·λ_max, so κ by a relative 10·n·eps·κ."""
    n = len(A)
    assert n >= 2  # κ > 1 is impossible for 1×1: those sizes are skipped
    assert np.array_equal(A, A.T)
    lam = np.linalg.eigvalsh(A)
    kappa = lam[-1] / lam[0]
    slack = 10 * n * EPS * kappa
    assert lam[0] > 0
    assert 10.0 * (1 - slack) <= kappa <= 1e6 * (1 + slack)
    assert 0.5 * (1 - slack) <= lam[0] <= 2.0 * (1 + slack)


@given(spd_matrices(n=3, cond=(1.0, 1.0)))
def test_spd_matrices_with_unit_condition_are_multiples_of_the_identity(A):
    assert np.allclose(A, A[0, 0] * np.eye(3), rtol=0, atol=10 * EPS * A[0, 0])


@given(skew_symmetric_matrices(n=st.integers(1, 8)))
def test_skew_symmetric_matrices_are_exactly_antisymmetric(A):
    assert np.array_equal(A.T, -A)
    assert np.all(np.diag(A) == 0)


@given(symplectic_matrices(d=st.integers(1, 4), shears=st.integers(1, 6), scale=(0.01, 1.0)))
def test_symplectic_matrices_preserve_J_to_rounding(M):
    """MᵀJM = J to float64 rounding: |MᵀJM − J| ≤ shears·2d·eps·‖M‖_F² (shears ≤ 6), and M is
    not trivially the identity."""
    d = len(M) // 2
    J = canonical_J(d)
    defect = np.abs(M.T @ J @ M - J).max()
    assert defect <= 6 * 2 * d * EPS * np.linalg.norm(M) ** 2
    assert not np.array_equal(M, np.eye(2 * d))
    assert np.linalg.slogdet(M)[1] == pytest.approx(0.0, abs=1e-8 * np.linalg.cond(M))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@given(data=st.data())
def test_particle_clouds_are_finite_distinct_and_in_the_cube(dtype, data):
    X = data.draw(particle_clouds(N=st.integers(1, 20), d=st.integers(1, 5), radius=(0.1, 3.0),
                                  dtype=dtype))
    assert X.dtype == dtype and X.ndim == 2
    assert 1 <= X.shape[0] <= 20 and 1 <= X.shape[1] <= 5
    assert torch.isfinite(X).all()
    assert X.abs().max().item() <= 3.0 * (1 + torch.finfo(dtype).eps)
    assert len(torch.unique(X, dim=0)) == X.shape[0]


@given(token_batches(batch=st.integers(1, 3), T=st.integers(1, 40), vocab_size=7))
def test_token_batches_are_long_tokens_in_the_vocabulary(idx):
    assert idx.dtype == torch.long and idx.ndim == 2
    assert 1 <= idx.shape[0] <= 3 and 1 <= idx.shape[1] <= 40
    assert idx.min() >= 0 and idx.max() < 7


@pytest.mark.parametrize("make,error,match", [
    (lambda: spd_matrices(n=1, cond=(2.0, 3.0)), ValueError, "n"),
    (lambda: spd_matrices(cond=(0.5, 2.0)), ValueError, "cond"),
    (lambda: spd_matrices(cond=(3.0, 2.0)), ValueError, "cond"),
    (lambda: spd_matrices(cond=2.0), TypeError, "cond"),
    (lambda: skew_symmetric_matrices(n=0), ValueError, "n"),
    (lambda: symplectic_matrices(d=1.5), TypeError, "d"),
    (lambda: symplectic_matrices(scale=(0.0, 1.0)), ValueError, "scale"),
    (lambda: particle_clouds(dtype=torch.long), TypeError, "dtype"),
    (lambda: particle_clouds(radius=(1.0, float("inf"))), ValueError, "radius"),
    (lambda: token_batches(vocab_size=0), ValueError, "vocab_size"),
])
def test_bad_arguments_name_the_parameter(make, error, match):
    with pytest.raises(error, match=match):
        make()

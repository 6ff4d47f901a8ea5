"""theory.checks: every validator names the parameter and separates TypeError from ValueError."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from theory import checks


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_real_returns_the_float(x):
    assert checks.real(x, "x") == x and checks.real(np.float32(1.5), "x") == 1.5


@pytest.mark.parametrize("fn, value, exc, match", [
    (checks.real, "1.0", TypeError, "eps must be a real number"),
    (checks.real, True, TypeError, "eps must be a real number"),
    (checks.real, math.nan, ValueError, "eps must be finite"),
    (checks.real, -math.inf, ValueError, "eps must be finite"),
    (checks.positive, 0.0, ValueError, "eps must be > 0"),
    (checks.positive, -1e-300, ValueError, "eps must be > 0"),
    (checks.nonnegative, -1e-300, ValueError, "eps must be >= 0"),
    (checks.positive_int, 2.0, TypeError, "eps must be an int"),
    (checks.positive_int, 0, ValueError, "eps must be >= 1"),
])
def test_bad_values_raise_with_the_name(fn, value, exc, match):
    with pytest.raises(exc, match=match):
        fn(value, "eps")


def test_boundaries_accepted():
    assert checks.nonnegative(0, "x") == 0.0 and checks.positive(5e-324, "x") == 5e-324
    assert checks.positive_int(np.int64(3), "n") == 3


@pytest.mark.parametrize("M, match", [
    (np.ones((2, 3)), "square"),
    (np.eye(3), "2×2"),
    (np.array([[1.0, np.nan], [0.0, 1.0]]), "NaN"),
    (np.array([[1.0, 1.0], [0.0, 1.0]]), "symmetric"),
    (np.array([[1.0, 2.0], [2.0, 1.0]]), "positive definite; smallest eigenvalue -1"),
])
def test_spd_rejects_with_the_name(M, match):
    with pytest.raises(ValueError, match=match):
        checks.spd(M, "Sigma", d=2)


@given(st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_spd_accepts_gram_matrices(d, seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((d, d))
    M = A @ A.T + 1e-3 * np.eye(d)  # eigenvalues >= 1e-3; symmetric up to rounding of A Aᵀ
    assert checks.spd(M, "M") is not None and checks.symmetric(M, "M").shape == (d, d)

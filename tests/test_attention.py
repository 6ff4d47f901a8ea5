"""particles.attention: the attention fields of eq. (21)/(23), their energies, causality, oracle counting."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from particles import attention as att

DT = torch.float64


def _problem(seed, N, d, scale=0.5):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(N, d, generator=g, dtype=DT)
    Q = torch.randn(d, d, generator=g, dtype=DT)
    A = scale * (Q @ Q.T / d + 0.3 * torch.eye(d, dtype=DT))
    V = torch.randn(d, d, generator=g, dtype=DT)
    return X, A, 0.5 * (V + V.T)


sizes = dict(seed=st.integers(0, 2**31 - 1), N=st.integers(1, 9), d=st.integers(1, 4))


@given(**sizes)
def test_softmax_attention_is_the_naive_formula(seed, N, d):
    X, A, V = _problem(seed, N, d)
    K = torch.tensor([[math.exp(float(X[j] @ A @ X[i])) for j in range(N)] for i in range(N)], dtype=DT)
    naive = (K / K.sum(1, keepdim=True)) @ X @ V.T
    # float64 sums of ≤ 9 positive terms: 1e-13 relative
    torch.testing.assert_close(att.softmax_attention(X, A, V), naive, rtol=1e-13, atol=1e-13)


@given(**sizes)
def test_linear_attention_is_the_stein_flow_of_F_lin(seed, N, d):
    """(23) at ρ_N: Γ(X_i) = (1/N) Σ_j k(X_i, X_j) (−N ∇_{X_j} F^lin), k(x, y) = yᵀAx (claim eq-23)."""
    X, A, V = _problem(seed, N, d)
    Xr = X.clone().requires_grad_(True)
    (gF,) = torch.autograd.grad(att.energy_lin(Xr, V), Xr)
    stein = (X @ A.T @ X.T) @ (-N * gF) / N
    torch.testing.assert_close(att.linear_attention(X, A, V), stein, rtol=1e-12, atol=1e-12)


@given(**sizes)
def test_softmax_attention_is_the_mobility_gradient_flow_of_F_SM(seed, N, d):
    """(32): Γ(X_i) = −B (N ∇_{X_i} F^SM) / Z(X_i), Z(x) = (1/N) Σ_j exp(X_jᵀAx), B = V A^{-1}."""
    g = torch.Generator().manual_seed(seed)
    U, _ = torch.linalg.qr(torch.randn(d, d, generator=g, dtype=DT))
    a = 0.3 + 0.5 * torch.rand(d, generator=g, dtype=DT)
    b = 0.5 + torch.rand(d, generator=g, dtype=DT)
    A, B = U @ torch.diag(a) @ U.T, U @ torch.diag(b) @ U.T
    A, B = 0.5 * (A + A.T), 0.5 * (B + B.T)
    X = torch.randn(N, d, generator=g, dtype=DT)
    Xr = X.clone().requires_grad_(True)
    (gF,) = torch.autograd.grad(att.energy_sm(Xr, A), Xr)
    Z = torch.exp(X @ A @ X.T).mean(1)
    torch.testing.assert_close(att.softmax_attention(X, A, B @ A), -(N * gF) @ B.T / Z[:, None],
                               rtol=1e-12, atol=1e-12)


@given(**sizes)
def test_energies_are_the_naive_sums(seed, N, d):
    X, A, V = _problem(seed, N, d)
    lin = -0.5 * sum(float(x @ V @ x) for x in X) / N
    sm = -0.5 * sum(math.exp(float(X[j] @ A @ X[i])) for i in range(N) for j in range(N)) / N ** 2
    assert float(att.energy_lin(X, V)) == pytest.approx(lin, rel=1e-13, abs=1e-14)
    assert float(att.energy_sm(X, A)) == pytest.approx(sm, rel=1e-13)


def test_softmax_attention_is_stable_for_huge_logits():
    """Logits ±2500 overflow exp in float64; the logsumexp form returns the hard-attention limit: token i
    attends only to argmax_j X_jᵀ A X_i (the runner-up is e^{-2500} ≈ 0 behind)."""
    X = 50 * torch.tensor([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]], dtype=DT)
    eye = torch.eye(2, dtype=DT)
    out = att.softmax_attention(X, eye, eye)
    torch.testing.assert_close(out, X, rtol=0, atol=0)


@given(seed=st.integers(0, 2**31 - 1), N=st.integers(2, 9), d=st.integers(1, 3), data=st.data())
def test_causal_fields_ignore_future_tokens(seed, N, d, data):
    t = data.draw(st.integers(0, N - 2))
    X, A, V = _problem(seed, N, d)
    X2 = X.clone()
    X2[t + 1:] += torch.randn(N - t - 1, d, generator=torch.Generator().manual_seed(seed + 1), dtype=DT)
    for field in (att.softmax_attention, att.linear_attention):
        a, b = field(X, A, V, causal=True), field(X2, A, V, causal=True)
        assert torch.equal(a[: t + 1], b[: t + 1])  # exact: masked entries never enter
        assert not torch.equal(field(X, A, V)[: t + 1], field(X2, A, V)[: t + 1])  # unmasked: they do


def test_causal_softmax_first_token_attends_to_itself():
    X, A, V = _problem(1, 5, 2)
    torch.testing.assert_close(att.softmax_attention(X, A, V, causal=True)[0], V @ X[0], rtol=1e-15, atol=0)


def test_counting_oracle_counts_new_token_configurations():
    calls = []
    oracle = att.CountingOracle(lambda X, Y=None: calls.append(1) or X.sum())
    X = torch.zeros(3, 2, dtype=DT)
    oracle(X)
    oracle(X.clone(), torch.ones(3, 2, dtype=DT))  # same positions: one attention matrix
    oracle(X + 1)
    assert (oracle.calls, oracle.evaluations, len(calls)) == (2, 3, 3)
    with pytest.raises(TypeError, match="field"):
        att.CountingOracle(3)


# ------------------------------------------------------------------ bad input


def test_bad_tokens_and_matrices_raise_naming_the_parameter():
    X, A, V = _problem(0, 4, 2)
    with pytest.raises(ValueError, match="X contains NaN"):
        att.softmax_attention(torch.full((3, 2), float("nan"), dtype=DT), A, V)
    with pytest.raises(ValueError, match="X must have shape"):
        att.linear_attention(X[0], A, V)
    with pytest.raises(TypeError, match="X must be a floating"):
        att.linear_attention(torch.ones(3, 2, dtype=torch.int64), A, V)
    with pytest.raises(TypeError, match="X must be a torch.Tensor"):
        att.energy_lin(np.ones((3, 2)), V)
    with pytest.raises(ValueError, match="A must be 2×2"):
        att.softmax_attention(X, torch.eye(3, dtype=DT), V)
    with pytest.raises(ValueError, match="V must be symmetric"):
        att.energy_lin(X, torch.tensor([[0.0, 1.0], [0.0, 0.0]], dtype=DT))
    with pytest.raises(ValueError, match="A must be symmetric"):
        att.energy_sm(X, torch.tensor([[1.0, 1.0], [0.0, 1.0]], dtype=DT))

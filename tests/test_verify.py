"""particles.verify: the public assertions accept structure-preserving maps and refuse broken ones,
in float64 and float32, on third-party modules and on ours; docs/verify.md runs as written."""
import doctest
import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from torch import nn

from particles.lm.model import GPT, GPTConfig
from particles.lm.variants import NON_CAUSAL, VARIANTS
from particles.strategies import symplectic_matrices, token_batches
from particles.sympnet import SympNet
from particles.threads import torch_threads
from particles.verify import (RTOL_ULPS, assert_causal, assert_conformally_symplectic,
                              assert_symplectic, assert_volume_preserving, causal_dependence,
                              symplectic_residual)
from theory.symplectic import canonical_J

F64, F32 = torch.float64, torch.float32
DTYPES = [F64, F32]
DOCS = Path(__file__).resolve().parents[1] / "docs" / "verify.md"


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """Tiny maps: one intra-op thread (idle pool threads spin on a shared 2-core machine)."""
    with torch_threads(1):
        yield


# ------------------------------------------------------------------ maps of a pendulum chain
# H(q, p) = ½|p|² + V(q), V(q) = Σ_i −cos(W q)_i: a nonlinear, coupled potential.

D_HALF = 3


def force(q, W):
    return -(W.T @ torch.sin(W @ q))  # −∇V


def weights(dtype):
    return (torch.randn(D_HALF, D_HALF, generator=torch.Generator().manual_seed(0), dtype=F64)
            / math.sqrt(D_HALF)).to(dtype)


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


def points(dtype, n=5, seed=1):
    return 2 * torch.randn(n, 2 * D_HALF, generator=torch.Generator().manual_seed(seed), dtype=F64).to(dtype)


# ------------------------------------------------------------------ symplectic


@pytest.mark.parametrize("dtype", DTYPES)
def test_leapfrog_is_symplectic_and_volume_preserving(dtype):
    W = weights(dtype)
    R = assert_symplectic(leapfrog(W), points(dtype))
    assert R.shape == (5, 2 * D_HALF, 2 * D_HALF) and R.dtype == F64
    sign, logdet = assert_volume_preserving(leapfrog(W), points(dtype))
    assert torch.all(sign == 1)
    # one point without a batch axis
    assert_symplectic(leapfrog(W), points(dtype)[0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_explicit_euler_is_refused_with_defect_tolerance_and_location(dtype):
    """Explicit Euler: DᵀJD = J + O(h²) (h = 0.1: defect ~1e-2 ≫ 16 eps ‖D‖_F² in both dtypes)."""
    W = weights(dtype)
    with pytest.raises(AssertionError) as err:
        assert_symplectic(explicit_euler(W), points(dtype))
    msg = str(err.value)
    assert "not symplectic" in msg and "tolerance" in msg and "at point (" in msg and "entry (" in msg
    assert str(dtype) in msg
    with pytest.raises(AssertionError, match="not volume preserving"):
        assert_volume_preserving(explicit_euler(W), points(dtype))


def test_the_reported_location_is_the_largest_entry():
    """A linear map symplectic except for one scaled pair: the message names that point/entry."""
    M = torch.eye(4, dtype=F64)
    x = torch.zeros(3, 4, dtype=F64)
    x[2, 0] = 1.0

    def f(z):  # q₁ ↦ (1 + z[0]·1e-3) q₁ at the third point only: D = diag(1 + 1e-3, 1, 1, 1)
        return M @ z + torch.stack([1e-3 * z[0] ** 2 / 2, z[0] * 0, z[0] * 0, z[0] * 0])

    with pytest.raises(AssertionError, match=r"1\.000e-03 at point \(2,\), entry \(0, 2\)"):
        assert_symplectic(f, x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sympnet_module_is_symplectic(dtype):
    """An nn.Module (our G-SympNet, seed 001 §3) in its own dtype."""
    net = SympNet(2, 8, n_layers=4, generator=torch.Generator().manual_seed(2), dtype=dtype)
    assert_symplectic(net, torch.randn(4, 4, generator=torch.Generator().manual_seed(3)).to(dtype))


@given(symplectic_matrices(d=st.integers(1, 4), shears=st.integers(1, 4)),
       st.sampled_from(DTYPES), st.floats(1e-3, 0.1))
def test_linear_symplectic_maps_pass_and_their_rescalings_fail(M, dtype, delta):
    """x ↦ Mx passes in float64 and float32 (the rounding of M to the dtype stays inside the
    tolerance 16 eps ‖M‖_F²); (1 + δ)M has DᵀJD = (1 + δ)²J and is refused wherever the dtype
    resolves it, i.e. when its defect 2δ + δ² exceeds twice the tolerance; it is conformally
    symplectic with factor (1 + δ)². Volume: decided when 16 eps · n · κ₂(M) < 1, else refused
    as undecidable (an ill-conditioned float32 Jacobian cannot tell |det| = 1); the band where
    the rounding of M to the dtype moves κ₂ across that line is not asserted."""
    A = torch.from_numpy(M).to(dtype)
    x = torch.randn(2, len(M), generator=torch.Generator().manual_seed(0)).to(dtype)
    assert_symplectic(lambda v: A @ v, x)
    tol = RTOL_ULPS * torch.finfo(dtype).eps
    resolution = tol * len(M) * np.linalg.cond(M)  # decided below 1 (the rounding of M moves κ₂)
    if resolution < 0.5:
        assert_volume_preserving(lambda v: A @ v, x)
    elif resolution > 2.0:
        with pytest.raises(AssertionError, match="too ill-conditioned"):
            assert_volume_preserving(lambda v: A @ v, x)
    if 2 * delta + delta ** 2 > 2 * tol * (1 + delta) ** 2 * np.linalg.norm(M) ** 2:
        with pytest.raises(AssertionError, match="not symplectic"):
            assert_symplectic(lambda v: (1 + delta) * (A @ v), x)
    assert_conformally_symplectic(lambda v: (1 + delta) * (A @ v), x, (1 + delta) ** 2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_damped_symplectic_euler_is_conformally_symplectic(dtype):
    W, h, gamma = weights(dtype), 0.1, 0.5
    step = damped_symplectic_euler(W, h, gamma)
    assert_conformally_symplectic(step, points(dtype), math.exp(-gamma * h))
    # the factor may vary over the batch (a tensor), and a wrong factor is refused
    assert_conformally_symplectic(step, points(dtype), torch.full((5,), math.exp(-gamma * h), dtype=F64))
    with pytest.raises(AssertionError, match="not conformally symplectic"):
        assert_conformally_symplectic(step, points(dtype), 1.0)
    with pytest.raises(AssertionError, match="not symplectic"):
        assert_symplectic(step, points(dtype))


def test_another_form_J_is_accepted_and_used():
    """In interleaved coordinates (q₁, p₁, q₂, p₂) the form is P J Pᵀ; the leapfrog step written in
    them is symplectic for that J and not for the default one."""
    W = weights(F64)
    perm = torch.tensor([0, 3, 1, 4, 2, 5])  # interleaved index -> canonical index
    inv = torch.argsort(perm)
    J = torch.from_numpy(canonical_J(D_HALF))[perm][:, perm]

    def interleaved(y):
        return leapfrog(W)(y[inv])[perm]

    x = points(F64)[:, perm]
    assert_symplectic(interleaved, x, J=J)
    with pytest.raises(AssertionError, match="not symplectic"):
        assert_symplectic(interleaved, x)


def test_volume_preserving_but_not_symplectic_and_orientation_reversing_maps():
    """(q₁, q₂, p₁, p₂) ↦ (q₁ + q₂², q₂, p₁, p₂) has det 1 but is not symplectic; in R²,
    (q, p) ↦ (−q, p) has |det| = 1 with sign −1 (reported) and is anti-symplectic (DᵀJD = −J);
    2·(−q, p) is refused, the sign reported."""
    x = torch.randn(3, 4, generator=torch.Generator().manual_seed(5), dtype=F64)
    shear = lambda z: torch.stack([z[0] + z[1] ** 2, z[1], z[2], z[3]])  # noqa: E731
    assert_volume_preserving(shear, x)
    with pytest.raises(AssertionError, match="not symplectic"):
        assert_symplectic(shear, x)
    flip = lambda z: torch.stack([-z[0], z[1]])  # noqa: E731
    sign, _ = assert_volume_preserving(flip, x[:, :2])
    assert torch.all(sign == -1)
    assert_conformally_symplectic(flip, x[:, :2], -1.0)
    with pytest.raises(AssertionError, match=r"sign of det -1"):
        assert_volume_preserving(lambda z: 2 * flip(z), x[:, :2])


def test_matrix_states_use_row_major_flattening():
    """A 2d×T token cloud Z (event_dims=2, d = 1, T = 5): Z ↦ M Z with M ∈ Sp(2) acting on every
    token (column) is M ⊗ I_T on the row-major Z_vec, symplectic for J_{2dT} = J_2 ⊗ I_T of
    seed 001 eq. (23), the default J of the flattened state; Z ↦ 2 M Z is not."""
    M = torch.from_numpy(canonical_J(1) @ np.array([[1.0, 0.0], [0.3, 1.0]]))  # det 1, 2×2
    Z = torch.randn(2, 2, 5, generator=torch.Generator().manual_seed(6), dtype=F64)
    assert_symplectic(lambda z: M @ z, Z, event_dims=2)
    with pytest.raises(AssertionError, match="not symplectic"):
        assert_symplectic(lambda z: 2 * M @ z, Z, event_dims=2)


def test_the_default_tolerance_is_stated_and_overridable():
    """rtol=… replaces the 16·eps default: with rtol = 1 even explicit Euler passes, with rtol = 0
    the exactly symplectic linear map still passes (its residual is exactly 0)."""
    W = weights(F64)
    assert RTOL_ULPS == 16.0
    assert_symplectic(explicit_euler(W), points(F64), rtol=1.0)
    shear = torch.tensor([[1.0, 0.0, 0.5, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0],
                          [0.0, 0.0, 0.0, 1.0]], dtype=F64)
    R = assert_symplectic(lambda v: shear @ v, points(F64)[:, :4], rtol=0.0)
    assert torch.count_nonzero(R) == 0


# ------------------------------------------------------------------ causality

T, D_MODEL = 10, 8


def encoder_layer(dtype, seed=0):
    torch.manual_seed(seed)
    return nn.TransformerEncoderLayer(D_MODEL, 2, 16, dropout=0.0, batch_first=True).to(dtype)


def causal_mask(dtype, shift=0):
    """0 on and below the diagonal (+ `shift` diagonals above: a leak), −inf elsewhere."""
    return torch.full((T, T), -math.inf, dtype=dtype).triu(1 + shift)


def sequences(dtype, B=2):
    return torch.randn(B, T, D_MODEL, generator=torch.Generator().manual_seed(7), dtype=F64).to(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_transformer_encoder_layer_with_causal_mask_is_causal(dtype):
    layer, mask = encoder_layer(dtype), causal_mask(dtype)
    dep = assert_causal(lambda x: layer(x, src_mask=mask, is_causal=True), sequences(dtype))
    lower = dep.dependence[~torch.ones(T, T, dtype=torch.bool).triu(1)]
    assert lower.min() > 0  # every output sees itself and every earlier position
    assert dep.method == "jacobian" and dep.leak == 0.0


@pytest.mark.parametrize("dtype", DTYPES)
def test_transformer_encoder_layer_without_mask_is_refused(dtype):
    layer = encoder_layer(dtype)
    with pytest.raises(AssertionError, match=rf"45 of 45 pairs s > t leak \(method jacobian, {dtype}"):
        assert_causal(layer, sequences(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_mask_shifted_by_one_position_is_refused(dtype):
    """Output t sees input t + 1 only: exactly the T − 1 pairs (t, t + 1) leak."""
    layer, mask = encoder_layer(dtype), causal_mask(dtype, shift=1)
    with pytest.raises(AssertionError) as err:
        assert_causal(lambda x: layer(x, src_mask=mask), sequences(dtype))
    assert f"{T - 1} of 45 pairs" in str(err.value)
    t, s = map(int, re.search(r"t=(\d+) depends on input position s=(\d+)", str(err.value)).groups())
    assert s == t + 1


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_statistics_leak_is_refused(dtype):
    """BatchNorm in train mode normalizes with statistics over batch and positions."""
    bn = nn.BatchNorm1d(D_MODEL).to(dtype).train()
    with pytest.raises(AssertionError, match="not causal"):
        assert_causal(lambda x: bn(x.transpose(1, 2)).transpose(1, 2), sequences(dtype))


def test_sequence_statistics_leak_is_refused():
    with pytest.raises(AssertionError, match="45 of 45 pairs"):
        assert_causal(lambda x: x - x.mean(dim=1, keepdim=True), sequences(F64))


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_leak_at_a_single_pair_is_found_and_located(dtype):
    """out_3 gets 1e-6 · in_7[feature 0] added: one pair of 45 leaks, and it is (t, s) = (3, 7)."""
    layer, mask = encoder_layer(dtype), causal_mask(dtype)

    def f(x):
        y = layer(x, src_mask=mask)
        leak = torch.zeros_like(y)
        leak[:, 3] = 1e-6 * x[:, 7, :1]
        return y + leak

    with pytest.raises(AssertionError, match=r"t=3 depends on input position s=7 > t.*1 of 45 pairs"):
        assert_causal(f, sequences(dtype))


def test_single_sequence_without_batch_axis_and_position_axis_zero():
    """x of shape (T, d) with dim=0 (and a time-major TransformerEncoderLayer, (T, B, d))."""
    layer = nn.TransformerEncoderLayer(D_MODEL, 2, 16, dropout=0.0).to(F64)
    mask = causal_mask(F64)
    assert_causal(lambda x: layer(x, src_mask=mask), sequences(F64).transpose(0, 1), dim=0)
    assert_causal(lambda x: torch.cumsum(x, 0), torch.randn(T, 3, dtype=F64), dim=0)
    with pytest.raises(AssertionError, match="not causal"):
        assert_causal(lambda x: torch.flip(torch.cumsum(torch.flip(x, [0]), 0), [0]),
                      torch.randn(T, 3, dtype=F64), dim=0)


# tokens


def tiny_gpt(name, T_max=12):
    torch.manual_seed(0)
    return GPT(GPTConfig(block_size=T_max, n_layer=2, n_head=2, n_embd=16), name).to(F64)


@pytest.mark.parametrize("name", sorted(set(VARIANTS) - NON_CAUSAL))
def test_every_gpt_variant_is_causal_on_tokens(name):
    """Our decoders (float64) on integer tokens: bit-identical prefixes for every t, and every
    output depends on every position up to its own (the support is exactly the lower triangle)."""
    idx = torch.randint(0, 256, (2, 12), generator=torch.Generator().manual_seed(1))
    dep = assert_causal(tiny_gpt(name), idx, vocab_size=256)
    assert dep.method == "perturbation"
    assert dep.dependence[~torch.ones(12, 12, dtype=torch.bool).triu(1)].min() > 0


@given(token_batches(batch=st.integers(1, 3), T=st.integers(1, 12), vocab_size=256))
def test_gpt_is_causal_for_any_token_batch(idx):
    assert_causal(tiny_gpt("gd-lt"), idx, vocab_size=256)


class TokenModel(nn.Module):
    """Embedding + a causal TransformerEncoderLayer, with optional breakages."""

    def __init__(self, shift=0, batchnorm=False, pair=None):
        super().__init__()
        torch.manual_seed(0)
        self.emb = nn.Embedding(50, D_MODEL).to(F64)
        self.layer = encoder_layer(F64)
        self.mask = causal_mask(F64, shift)
        self.bn = nn.BatchNorm1d(D_MODEL).to(F64).train() if batchnorm else None
        self.pair = pair

    def forward(self, idx):
        x = self.emb(idx)
        if self.bn is not None:
            x = self.bn(x.transpose(1, 2)).transpose(1, 2)
        y = self.layer(x, src_mask=self.mask)
        if self.pair is not None:
            t, s = self.pair
            y = y + torch.zeros_like(y).index_fill(1, torch.tensor([t]), 1.0) * 1e-9 * x[:, s:s + 1]
        return y


def tokens(B=2):
    return torch.randint(0, 50, (B, T), generator=torch.Generator().manual_seed(8))


@pytest.mark.parametrize("broken,match", [
    (dict(shift=1), r"9 of 45 pairs"),
    (dict(batchnorm=True), r"45 of 45 pairs"),
    (dict(pair=(2, 6)), r"t=2 changes when input position s=6 > t.*1 of 45 pairs"),
])
def test_broken_token_models_are_refused(broken, match):
    with pytest.raises(AssertionError, match=match):
        assert_causal(TokenModel(**broken), tokens(), vocab_size=50)
    assert_causal(TokenModel(), tokens(), vocab_size=50)


def test_batch_coupled_models_are_checked_one_call_per_perturbation():
    """With BatchNorm the stacked copies would share statistics and hide the leak; the check sees
    that f(x) changes when copies are added and runs every perturbation on x's own shape."""
    calls = []
    model = TokenModel(batchnorm=True)

    def f(idx):
        calls.append(idx.shape[0])
        return model(idx)

    with pytest.raises(AssertionError):
        assert_causal(f, tokens(), vocab_size=50)
    assert calls.count(2) >= 2 * T - 1  # base + every perturbation on (B, T)


def test_float_perturbation_method_sees_through_detached_maps():
    """A map autograd cannot see through (it detaches) is refused by the Jacobian method with a
    pointer to method='perturbation', which decides it."""
    def detached_cumsum(x):
        return torch.cumsum(x.detach(), dim=1)

    with pytest.raises(ValueError, match="perturbation"):
        assert_causal(detached_cumsum, sequences(F64))
    assert_causal(detached_cumsum, sequences(F64), method="perturbation")
    with pytest.raises(AssertionError, match="method perturbation"):
        assert_causal(lambda x: x.detach().flip(1), sequences(F64), method="perturbation")


def test_causal_dependence_is_the_measurement_behind_the_assertion():
    layer, mask = encoder_layer(F64), causal_mask(F64, shift=1)
    dep = causal_dependence(lambda x: layer(x, src_mask=mask), sequences(F64))
    future = torch.ones(T, T, dtype=torch.bool).triu(1)
    assert torch.equal(dep.dependence[future] > 0, torch.ones(T, T, dtype=torch.bool).triu(1)[future]
                       & ~torch.ones(T, T, dtype=torch.bool).triu(2)[future])
    assert dep.leak == dep.dependence[future].max().item()


# ------------------------------------------------------------------ bad arguments


LIN = lambda v: v  # noqa: E731
X4 = torch.zeros(2, 4, dtype=F64)


@pytest.mark.parametrize("call,error,match", [
    (lambda: assert_symplectic("f", X4), TypeError, "f must"),
    (lambda: assert_symplectic(LIN, np.zeros((2, 4))), TypeError, "x must"),
    (lambda: assert_symplectic(LIN, torch.zeros(2, 4, dtype=torch.long)), TypeError, "x must"),
    (lambda: assert_symplectic(LIN, torch.full((2, 4), math.nan, dtype=F64)), ValueError, "x contains"),
    (lambda: assert_symplectic(LIN, torch.zeros(2, 3, dtype=F64)), ValueError, "x: .*odd.*pass J"),
    (lambda: assert_symplectic(LIN, X4, J=torch.eye(4, dtype=F64)), ValueError, "J must be antisymmetric"),
    (lambda: assert_symplectic(LIN, X4, J=torch.zeros(4, 4)), ValueError, "J must be antisymmetric"),
    (lambda: assert_symplectic(LIN, X4, J=torch.from_numpy(canonical_J(1))), ValueError, "J must be 4×4"),
    (lambda: assert_symplectic(LIN, X4, J=torch.tensor([[0., 1, 0, 0], [-1, 0, 0, 0], [0, 0, 0, 0],
                                                         [0, 0, 0, 0]])), ValueError, "J must be invertible"),
    (lambda: assert_symplectic(LIN, X4, J=[[0, 1], [-1, 0]]), TypeError, "J must"),
    (lambda: assert_symplectic(LIN, X4, rtol=-1.0), ValueError, "rtol"),
    (lambda: assert_symplectic(LIN, X4, atol="0"), TypeError, "atol"),
    (lambda: assert_symplectic(LIN, X4, event_dims=0), ValueError, "event_dims"),
    (lambda: assert_conformally_symplectic(LIN, X4, "1"), TypeError, "factor"),
    (lambda: assert_conformally_symplectic(LIN, X4, True), TypeError, "factor"),
    (lambda: assert_conformally_symplectic(LIN, X4, 1j), TypeError, "factor"),
    (lambda: assert_conformally_symplectic(LIN, X4, math.inf), ValueError, "factor"),
    (lambda: assert_conformally_symplectic(LIN, X4, torch.ones(3)), ValueError, "factor"),
    (lambda: assert_volume_preserving(lambda v: v[:2], X4), ValueError, "same size"),
    (lambda: assert_causal(LIN, X4, dim=2), ValueError, "dim"),
    (lambda: assert_causal(LIN, X4, dim=1.0), TypeError, "dim"),
    (lambda: assert_causal(LIN, X4, method="fd"), ValueError, "method"),
    (lambda: assert_causal(LIN, torch.zeros(2, 4, dtype=torch.long), method="jacobian"),
     ValueError, "method"),
    (lambda: assert_causal(LIN, torch.zeros(2, 4, dtype=torch.long)), ValueError, "vocab_size"),
    (lambda: assert_causal(LIN, torch.full((2, 4), 9), vocab_size=5), ValueError, "vocab_size"),
    (lambda: assert_causal(LIN, X4, atol=-1.0), ValueError, "atol"),
    (lambda: assert_causal(LIN, X4, chunk=0), ValueError, "chunk"),
    (lambda: assert_causal(lambda v: v.sum(1), X4), ValueError, "f: its output"),
    (lambda: assert_causal(lambda v: (v, v), X4), TypeError, "f must return"),
    (lambda: assert_causal(LIN, torch.zeros(2, 4, dtype=torch.long), vocab_size=5, batch_dim=1),
     ValueError, "batch_dim"),
])
def test_bad_arguments_raise_naming_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_symplectic_residual_is_the_measurement():
    W = weights(F64)
    R, D = symplectic_residual(explicit_euler(W), points(F64))
    J = torch.from_numpy(canonical_J(D_HALF))
    assert torch.allclose(R, D.transpose(-1, -2) @ J @ D - J, rtol=0, atol=1e-15)


# ------------------------------------------------------------------ the documentation runs


def test_docs_examples_run_as_written():
    """Every `>>>` example of docs/verify.md, with the output printed there (doctest)."""
    result = doctest.testfile(str(DOCS), module_relative=False, verbose=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 20 and result.failed == 0


# ------------------------------------------------------------------ the ledger's causality claims


def _leaky_sdpa(original):
    """scaled_dot_product_attention whose causal mask lets every query see one later key."""
    def sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, **kw):
        if is_causal:
            T = q.shape[-2]
            attn_mask = torch.ones(T, T, dtype=torch.bool, device=q.device).tril(1)
        return original(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p, **kw)
    return sdpa


@pytest.mark.parametrize("claim_id,patch", [
    ("sympformer:causal-hamiltonian", "visible"),
    ("momentum_streams:ns-causal", "sdpa"),
])
def test_causality_claims_fail_when_the_mask_leaks_one_position(monkeypatch, claim_id, patch):
    """The verdict is computed from the measured dependence maps, not pinned: with a causal mask
    shifted by one position inside the models (SympFormer's masked kernel; softmax attention's
    mask), each claim's verdict changes from its pinned one to `fails`."""
    import claims.lm_structure  # noqa: F401  (registers the claims)
    from claims import registry
    from particles.lm import blocks

    c = registry()[claim_id]
    if patch == "visible":
        visible = blocks._visible
        monkeypatch.setattr(blocks, "_visible", lambda T, device, dtype: (
            torch.ones(T, T, device=device, dtype=torch.bool).tril(1), visible(T, device, dtype)[1]))
    else:
        monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention",
                            _leaky_sdpa(torch.nn.functional.scaled_dot_product_attention))
    evidence = c.check("quick")
    assert c.expect in ("holds", "holds-with-correction")
    assert evidence.verdict == "fails"

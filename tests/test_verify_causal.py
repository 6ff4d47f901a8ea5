"""particles.verify.assert_causal: causal maps pass with a report, every leak is refused and
located, on torch's own layers (TransformerEncoderLayer, MultiheadAttention), on token models
and on our decoders; leaks autograd cannot see (.detach(), a sign gate) are caught by default,
and a non-deterministic or non-finite f gets its own error, never a verdict."""
import math
import re

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from torch import nn

from particles.lm.model import GPT, GPTConfig
from particles.lm.variants import NON_CAUSAL, VARIANTS
from particles.strategies import token_batches
from particles.threads import torch_threads
from particles.verify import (CausalReport, NondeterministicError, NonFiniteError,
                              StructureViolation, assert_causal, causal_dependence)

F64, F32 = torch.float64, torch.float32
DTYPES = [F64, F32]
T, D_MODEL = 10, 8


@pytest.fixture(autouse=True)
def _one_torch_thread():
    with torch_threads(1):
        yield


def encoder_layer(dtype, seed=0, dropout=0.0):
    torch.manual_seed(seed)
    return nn.TransformerEncoderLayer(D_MODEL, 2, 16, dropout=dropout, batch_first=True).to(dtype)


def causal_mask(dtype, shift=0):
    """0 on and below the diagonal (+ `shift` diagonals above: a leak), −inf elsewhere."""
    return torch.full((T, T), -math.inf, dtype=dtype).triu(1 + shift)


def sequences(dtype, B=2):
    return torch.randn(B, T, D_MODEL, generator=torch.Generator().manual_seed(7), dtype=F64).to(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_transformer_encoder_layer_with_causal_mask_passes_both_passes(dtype):
    layer, mask = encoder_layer(dtype), causal_mask(dtype)
    report = assert_causal(lambda x: layer(x, src_mask=mask, is_causal=True), sequences(dtype))
    assert isinstance(report, CausalReport) and report.outcome == "holds"
    assert report.method == "jacobian+perturbation" and set(report.maps) == {"jacobian", "perturbation"}
    assert report.points == 45 and report.violating == 0 and report.leak == 0.0
    assert report.resolution == 0.0 and "Resolution: exact" in str(report)
    for dep in report.maps.values():  # every output sees itself and every earlier position
        assert dep.dependence[~torch.ones(T, T, dtype=torch.bool).triu(1)].min() > 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_transformer_encoder_layer_without_mask_is_refused(dtype):
    with pytest.raises(StructureViolation) as err:
        assert_causal(encoder_layer(dtype), sequences(dtype))
    msg = str(err.value)
    assert "is not causal!\nPairs s > t violating: 45 / 45 (100.0%)" in msg
    assert re.search(r"Greatest dependence of an output on a later input: \S+ \(output position "
                     r"t=\d+ depends on input position s=\d+ > t", msg)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_mask_shifted_by_one_position_is_refused(dtype):
    """Output t sees input t + 1 only: exactly the T − 1 pairs (t, t + 1) leak."""
    layer, mask = encoder_layer(dtype), causal_mask(dtype, shift=1)
    with pytest.raises(StructureViolation) as err:
        assert_causal(lambda x: layer(x, src_mask=mask), sequences(dtype))
    assert f"violating: {T - 1} / 45" in str(err.value)
    t, s = map(int, re.search(r"t=(\d+) depends on input position s=(\d+)", str(err.value)).groups())
    assert s == t + 1


def test_train_mode_and_weights_made_per_call_are_nondeterministic_not_leaks():
    """TransformerEncoderLayer in train mode (dropout) used to be "not causal, 45 of 45 pairs";
    so was an f that re-creates its weights on every call. Both: ValueError naming .eval()."""
    layer, mask = encoder_layer(F64, dropout=0.1).train(), causal_mask(F64)
    fs = (lambda x: layer(x, src_mask=mask, is_causal=True),
          lambda x: nn.Linear(D_MODEL, D_MODEL).double()(x))
    for f in fs:
        with pytest.raises(NondeterministicError, match=r"two calls on the same input differ.*\.eval\(\)"):
            assert_causal(f, sequences(F64))
    layer.eval()
    assert_causal(fs[0], sequences(F64))


def test_leaks_autograd_cannot_see_are_caught_by_the_default_check():
    """x + roll(x).detach() and the sign gate x · (roll(x) > 0) (position t sees t + 1): the
    Jacobian pass sees nothing, the perturbation pass run by default finds the T − 1 pairs."""
    shift = lambda x: torch.roll(x, -1, dims=1)  # noqa: E731
    for f in (lambda x: x + shift(x).detach(), lambda x: x * (shift(x) > 0)):
        assert causal_dependence(f, sequences(F64), method="jacobian").leak == 0.0
        with pytest.raises(StructureViolation) as err:
            assert_causal(f, sequences(F64))
        msg = str(err.value)
        assert f"violating: {T - 1} / 45" in msg and "perturbation pass" in msg
        assert "found by the perturbation pass only" in msg


def test_a_map_without_an_autograd_path_is_decided_by_perturbation():
    """A detached cumulative sum: the Jacobian pass is skipped with a note; asking for it alone
    is refused with a pointer to method='perturbation'."""
    report = assert_causal(lambda x: torch.cumsum(x.detach(), dim=1), sequences(F64))
    assert report.method == "perturbation" and any("Jacobian pass was skipped" in n for n in report.notes)
    with pytest.raises(ValueError, match="perturbation"):
        assert_causal(lambda x: torch.cumsum(x.detach(), dim=1), sequences(F64), method="jacobian")
    with pytest.raises(StructureViolation, match="perturbation"):
        assert_causal(lambda x: x.detach().flip(1), sequences(F64))


def test_nan_names_f_and_the_position():
    """NaN at output position 4 (the default Jacobian method used to pass it); a NaN
    vector-Jacobian product (√ at 0) where f is finite."""
    def poles(x):
        return x / (torch.arange(T, dtype=x.dtype)[None, :, None] - 4)

    with pytest.raises(NonFiniteError, match=r"f = poles \(test_verify_causal\.py:\d+\) returned "
                                             r"NaN or inf at output position t=4"):
        assert_causal(poles, sequences(F64))
    x = sequences(F64)
    x[0, 6, 1] = 0.0
    with pytest.raises(NonFiniteError, match=r"vector-Jacobian product .* input index \(0, 6, 1\)"):
        assert_causal(lambda v: torch.sqrt(v ** 2), x, method="jacobian")


@pytest.mark.parametrize("dtype", DTYPES)
def test_multihead_attention_returns_a_tuple_selected_by_output(dtype):
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(D_MODEL, 2, batch_first=True).to(dtype).eval()
    mask = causal_mask(dtype)
    with pytest.raises(TypeError, match=r"returned a tuple; pass output="):
        assert_causal(lambda x: mha(x, x, x, attn_mask=mask), sequences(dtype))
    assert_causal(lambda x: mha(x, x, x, attn_mask=mask), sequences(dtype), output=0)
    with pytest.raises(StructureViolation, match="violating: 45 / 45"):
        assert_causal(lambda x: mha(x, x, x), sequences(dtype), output=0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_and_sequence_statistics_leak(dtype):
    """BatchNorm in train mode normalizes with statistics over batch and positions."""
    bn = nn.BatchNorm1d(D_MODEL).to(dtype).train()
    with pytest.raises(StructureViolation, match="not causal"):
        assert_causal(lambda x: bn(x.transpose(1, 2)).transpose(1, 2), sequences(dtype))
    with pytest.raises(StructureViolation, match="violating: 45 / 45"):
        assert_causal(lambda x: x - x.mean(dim=1, keepdim=True), sequences(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_leak_at_a_single_pair_is_found_and_located(dtype):
    """out_3 gets 1e-6 · in_7[feature 0] added: one pair of 45 leaks, and it is (t, s) = (3, 7)."""
    layer, mask = encoder_layer(dtype).eval(), causal_mask(dtype)

    def f(x):
        y = layer(x, src_mask=mask)
        leak = torch.zeros_like(y)
        leak[:, 3] = 1e-6 * x[:, 7, :1]
        return y + leak

    with pytest.raises(StructureViolation, match=r"violating: 1 / 45.*\n.*t=3 depends on input "
                                                 r"position s=7 > t"):
        assert_causal(f, sequences(dtype))


def test_single_sequence_without_batch_axis_and_position_axis_zero():
    """x of shape (T, d) with dim=0 (and a time-major TransformerEncoderLayer, (T, B, d))."""
    layer = nn.TransformerEncoderLayer(D_MODEL, 2, 16, dropout=0.0).to(F64)
    mask = causal_mask(F64)
    assert_causal(lambda x: layer(x, src_mask=mask), sequences(F64).transpose(0, 1), dim=0)
    assert_causal(lambda x: torch.cumsum(x, 0), torch.randn(T, 3, dtype=F64), dim=0)
    with pytest.raises(StructureViolation, match="not causal"):
        assert_causal(lambda x: torch.flip(torch.cumsum(torch.flip(x, [0]), 0), [0]),
                      torch.randn(T, 3, dtype=F64), dim=0)


# ------------------------------------------------------------------ tokens


def tiny_gpt(name, T_max=12):
    torch.manual_seed(0)
    return GPT(GPTConfig(block_size=T_max, n_layer=2, n_head=2, n_embd=16), name).to(F64)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_gpt_variant_is_causal_on_tokens_but_the_leaky_ones(name):
    """Our decoders (float64) on integer tokens: bit-identical prefixes for every t, and every
    output depends on every position up to its own; the variants that leak by construction
    (`NON_CAUSAL`: −∇H of the masked Hamiltonian through queries and keys) are refused."""
    idx = torch.randint(0, 256, (2, 12), generator=torch.Generator().manual_seed(1))
    if name in NON_CAUSAL:
        with pytest.raises(StructureViolation, match="method perturbation|perturbation pass"):
            assert_causal(tiny_gpt(name), idx, vocab_size=256)
        return
    report = assert_causal(tiny_gpt(name), idx, vocab_size=256)
    assert report.method == "perturbation" and report.dtype == torch.int64
    assert report.dependence[~torch.ones(12, 12, dtype=torch.bool).triu(1)].min() > 0


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
    (dict(shift=1), r"violating: 9 / 45"),
    (dict(batchnorm=True), r"violating: 45 / 45"),
    (dict(pair=(2, 6)), r"violating: 1 / 45.*\n.*t=2 changes when input position s=6 > t"),
])
def test_broken_token_models_are_refused(broken, match):
    with pytest.raises(StructureViolation, match=match):
        assert_causal(TokenModel(**broken), tokens(), vocab_size=50)
    assert_causal(TokenModel(), tokens(), vocab_size=50)


def test_a_leak_opened_by_one_later_token_id_needs_a_draw_that_hits_it():
    """Position t sees whether token t + 1 is the id V − 1 (a special token): with one random
    alternative per position no draw hits it here and the pass says it is sampled (audit of 26 Nov
    2026, finding 10); with enough draws (seeds 0, 1, …: deterministic) one does, and the leak is
    refused at the pair (t, t + 1)."""
    V = 20
    emb = nn.Embedding(V, 4).double()

    def special(idx):
        next_is_special = nn.functional.pad((idx[:, 1:] == V - 1).double(), (0, 1))
        return emb(idx).cumsum(1) + next_is_special.unsqueeze(-1)

    idx = torch.randint(0, V - 1, (2, 8), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        once = assert_causal(special, idx, vocab_size=V)
        assert "sampled: 1 random token offset(s) per position" in str(once)
        with pytest.raises(StructureViolation, match=r"t=\d changes when input position s=\d > t"):
            assert_causal(special, idx, vocab_size=V, draws=60)


def test_batch_coupled_models_are_checked_one_call_per_perturbation():
    """With BatchNorm the stacked copies would share statistics and hide the leak; the check sees
    that f(x) changes when copies are added and runs every perturbation on x's own shape."""
    calls = []
    model = TokenModel(batchnorm=True)

    def f(idx):
        calls.append(idx.shape[0])
        return model(idx)

    with pytest.raises(StructureViolation):
        assert_causal(f, tokens(), vocab_size=50)
    assert calls.count(2) >= 2 * T - 1 + 2  # determinism check, base, every perturbation on (B, T)


def test_copies_coupled_across_the_batch_are_run_one_call_each():
    """Stacked perturbed copies that read each other (a row read across the batch) show nothing in
    the unperturbed first copy; three copies of the first call are also run alone. A leak from the
    next token of row 0, blind to autograd, is then found (it hid behind the stacked x, audit of 26
    Nov 2026), and a causal map whose row b reads the prefix of row b − 1 is not called leaking."""
    x = torch.randn(2, 8, 4, generator=torch.Generator().manual_seed(1), dtype=F64)

    def ref0(x):   # every row gated by the NEXT token of row 0, detached
        return x * (torch.roll(x[0:1], -1, 1).detach() > 0)

    def carry(x):  # rows are consecutive chunks of one stream
        return x + torch.cat([torch.zeros_like(x[:1]), x[:-1]], 0).cumsum(1)
    with pytest.raises(StructureViolation):   # the premise: one call per perturbation sees it
        assert_causal(ref0, x, batch_dim=None)
    with pytest.raises(StructureViolation):
        assert_causal(ref0, x)
    assert assert_causal(carry, x).outcome == "holds"


def test_a_perturbation_that_leaves_the_domain_is_an_error_not_a_leak():
    """sqrt of positive inputs under a lower-triangular matmul is causal; a perturbed input below 0
    gives NaN, and 0·NaN reaches earlier positions: NonFiniteError naming the perturbed position
    and the fix, never a StructureViolation; the Jacobian pass alone holds."""
    x = torch.rand(2, 8, 4, generator=torch.Generator().manual_seed(0), dtype=F64) + 0.5
    L = torch.tril(torch.ones(8, 8, dtype=F64))
    with pytest.raises(NonFiniteError, match=r"perturbed.*leave f's domain.*not counted as a dependence"):
        assert_causal(lambda x: L @ torch.sqrt(x), x)
    assert assert_causal(lambda x: L @ torch.sqrt(x), x, method="jacobian").outcome == "holds"
    # NaN only at and after the perturbed position (elementwise sqrt, a prefix sum of logs) is
    # not scored: both are causal (a NonFiniteError until 26 Nov 2026, second audit), and a
    # detached gate reading the next position is still refused by the same pass
    for causal in (torch.sqrt, lambda v: torch.log(v).cumsum(1)):
        assert assert_causal(causal, x).outcome == "holds"
    with pytest.raises(StructureViolation, match="perturbation pass"):
        assert_causal(lambda v: torch.sqrt(v) * (v.roll(-1, 1).detach() > 0.9), x)


def test_causal_dependence_is_the_measurement_behind_the_assertion():
    layer, mask = encoder_layer(F64), causal_mask(F64, shift=1)
    dep = causal_dependence(lambda x: layer(x, src_mask=mask), sequences(F64))
    future = torch.ones(T, T, dtype=torch.bool).triu(1)
    assert dep.method == "jacobian"  # the measurement's default for floats (the claims' one)
    assert torch.equal(dep.dependence[future] > 0, torch.ones(T, T, dtype=torch.bool).triu(1)[future]
                       & ~torch.ones(T, T, dtype=torch.bool).triu(2)[future])
    assert dep.leak == dep.dependence[future].max().item()


LIN = lambda v: v  # noqa: E731
X4 = torch.zeros(2, 4, dtype=F64)


@pytest.mark.parametrize("call,error,match", [
    (lambda: assert_causal(LIN, X4, dim=2), ValueError, "dim"),
    (lambda: assert_causal(LIN, X4, dim=1.0), TypeError, "dim"),
    (lambda: assert_causal(LIN, X4, method="fd"), ValueError, "method"),
    (lambda: assert_causal(LIN, torch.zeros(2, 4, dtype=torch.long), method="jacobian"),
     ValueError, "method"),
    (lambda: assert_causal(LIN, torch.zeros(2, 4, dtype=torch.long)), ValueError, "vocab_size"),
    (lambda: assert_causal(LIN, torch.full((2, 4), 9), vocab_size=5), ValueError, "vocab_size"),
    (lambda: assert_causal(LIN, X4, atol=-1.0), ValueError, "atol"),
    (lambda: assert_causal(LIN, X4, chunk=0), ValueError, "chunk"),
    (lambda: assert_causal(LIN, X4, draws=0), ValueError, "draws"),
    (lambda: assert_causal(lambda v: v.sum(1), X4), ValueError, "f: its output"),
    (lambda: assert_causal(lambda v: (v, v), X4), TypeError, "f = <lambda> .* must return a tensor"),
    (lambda: assert_causal(LIN, torch.zeros(2, 4, dtype=torch.long), vocab_size=5, batch_dim=1),
     ValueError, "batch_dim"),
    (lambda: assert_causal(LIN, torch.tensor([[0.0, math.inf]])), ValueError, r"x contains NaN or inf"),
])
def test_bad_arguments_raise_naming_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ------------------------------------------------------------------ the ledger's causality claims


def _leaky_sdpa(original):
    """scaled_dot_product_attention whose causal mask lets every query see one later key."""
    def sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, **kw):
        if is_causal:
            n = q.shape[-2]
            attn_mask = torch.ones(n, n, dtype=torch.bool, device=q.device).tril(1)
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
    import claims.momentum_streams.architecture  # noqa: F401  (register the claims)
    import claims.sympformer.training  # noqa: F401
    from claims import registry
    from particles.lm import blocks

    c = registry()[claim_id]
    assert c.check("quick").verdict == c.expect  # the premise: unpatched, the pinned verdict
    if patch == "visible":
        visible = blocks._visible
        monkeypatch.setattr(blocks, "_visible", lambda n, device, dtype: (
            torch.ones(n, n, device=device, dtype=torch.bool).tril(1), visible(n, device, dtype)[1]))
    else:
        monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention",
                            _leaky_sdpa(torch.nn.functional.scaled_dot_product_attention))
    assert c.expect in ("holds", "holds-with-correction")
    assert c.check("quick").verdict == "fails"

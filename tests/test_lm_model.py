"""The GPT backbone: parameter counts by formula, weight tying, streams, and bad input."""
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles.lm.model import GPT, GPTConfig, count_parameters, meta_model
from particles.threads import torch_threads
from particles.lm.variants import VARIANTS, get_variant


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """One intra-op thread: these models are tiny and idle pool threads spin on a shared CPU."""
    with torch_threads(1):
        yield


def gd_count(V, T, L, d):
    """nanoGPT without biases: tied V*d, positions T*d, per block 12 d^2 + 2 LayerNorm weights, final LN."""
    return V * d + T * d + L * (12 * d * d + 2 * d) + d


@settings(max_examples=8)
@given(V=st.integers(10, 60000), T=st.integers(1, 2048), L=st.integers(1, 16),
       H=st.sampled_from([1, 2, 4, 8]), dh=st.sampled_from([8, 16, 64]))
def test_meta_counts_match_the_formula(V, T, L, H, dh):
    d = H * dh
    cfg = GPTConfig(vocab_size=V, block_size=T, n_layer=L, n_head=H, n_embd=d)
    gd = meta_model(cfg, "gd-lt")
    assert count_parameters(gd) == gd_count(V, T, L, d)
    assert count_parameters(gd, non_positional=True) == gd_count(V, T, L, d) - T * d
    # a velocity stream adds its own token + position tables, LN_v per substep and 6 scalars per layer
    tmm = meta_model(cfg, "tmm")
    assert count_parameters(tmm) == gd_count(V, T, L, d) + V * d + T * d + L * (2 * d + 8)
    assert next(gd.parameters()).device.type == "meta"


def test_head_is_weight_tied_and_streams_have_shapes():
    cfg = GPTConfig(block_size=8, n_layer=1, n_head=2, n_embd=8)
    m = GPT(cfg, "soap")
    assert m.lm_head_weight is m.wte.weight
    idx = torch.zeros(3, 5, dtype=torch.long)
    s = m.initial_state(idx)
    assert s["x"].shape == (3, 5, 8) and s["m"].shape == (3, 5, 8)
    assert torch.equal(s["r"], torch.eye(4).expand(3, 5, 4, 4))  # R_0 = I_D per token
    assert torch.equal(GPT(cfg, "rmsprop").initial_state(idx)["s"], torch.ones(3, 5, 8))  # S_0 = 1
    assert GPT(cfg, "symp-linear-plain-euler").initial_state(idx)["y"].abs().max() == 0  # y_0 = 0


def test_every_variant_has_a_locator_and_known_paper():
    for name, v in VARIANTS.items():
        assert v.paper in ("yurii", "momentum_streams", "sympformer") and v.locator and v.label


def test_bad_input_raises():
    with pytest.raises(ValueError, match="n_embd"):
        GPTConfig(n_embd=10, n_head=4)
    with pytest.raises(ValueError, match="n_layer"):
        GPTConfig(n_layer=0)
    with pytest.raises(ValueError, match="variant"):
        get_variant("transformer-xl")
    with pytest.raises(TypeError, match="config"):
        GPT({"n_layer": 2})
    m = GPT(GPTConfig(block_size=4, n_layer=1, n_head=1, n_embd=4))
    with pytest.raises(TypeError, match="idx"):
        m(torch.zeros(2, 3))
    with pytest.raises(ValueError, match="block_size"):
        m(torch.zeros(1, 5, dtype=torch.long))

"""Seed 002 App. I (SAWD's overhead) and Remark E.2 on trained streams
(`claims.momentum_streams.overhead`): the exact arithmetic of schedule (9) and the overhead, and
the second-moment measurement the Remark E.2 check waits for."""
from fractions import Fraction

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from claims.momentum_streams.overhead import (D_PRINTED, T_PRINTED, W_PRINTED, sawd_overhead,
                                              wsd_multiplier)
from particles.lm.diagnostics import second_moment_balance
from particles.lm.model import GPT, GPTConfig

fractions = st.fractions(min_value=0, max_value=1)


def test_schedule_9_decays_on_the_final_sixth():
    """Eq. (9) is 1 on [W, D), falls linearly to the floor at T, and (T − D)/T = 1/6 exactly."""
    assert wsd_multiplier(0) == 0 and wsd_multiplier(W_PRINTED) == 1 == wsd_multiplier(D_PRINTED)
    assert wsd_multiplier(T_PRINTED) == Fraction(1, 10)
    decaying = [t for t in range(T_PRINTED) if wsd_multiplier(t + 1) < wsd_multiplier(t)]
    assert decaying[0] == D_PRINTED and len(decaying) == T_PRINTED - D_PRINTED
    assert Fraction(len(decaying), T_PRINTED) == Fraction(1, 6)
    assert sawd_overhead(Fraction(1, 6), Fraction(2)) == Fraction(1, 6)


@given(fractions, fractions, st.fractions(min_value=1, max_value=5))
def test_overhead_is_linear_in_the_sam_share(f, g, c):
    """The overhead is the SAM share times the extra cost of a SAM step: additive in the share,
    zero without SAM, and c − 1 with SAM on every step."""
    if f + g <= 1:
        assert sawd_overhead(f + g, c) == sawd_overhead(f, c) + sawd_overhead(g, c)
    assert sawd_overhead(Fraction(0), c) == 0 and sawd_overhead(Fraction(1), c) == c - 1


@pytest.mark.parametrize("f, c", [(Fraction(-1, 6), Fraction(2)), (Fraction(7, 6), Fraction(2)),
                                  (Fraction(1, 6), Fraction(1, 2))])
def test_overhead_rejects_impossible_inputs(f, c):
    with pytest.raises(ValueError):
        sawd_overhead(f, c)


@pytest.mark.parametrize("variant", ["adam", "rmsprop"])
def test_second_moment_balance_recomputes_the_stream(variant):
    """The measurement recomputes the block's own S from the hooked oracle outputs (to rounding),
    and every ratio s_max/s_min is at least 1; at initialization (S_0 = 1, β₂ = 0.99) the stream is
    balanced, as momentum_streams:balance-premise finds."""
    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=64, block_size=8, n_layer=2, n_head=2, n_embd=16), variant).eval()
    idx = torch.randint(0, 64, (3, 8), generator=torch.Generator().manual_seed(1))
    got = second_moment_balance(model, idx)
    assert got["substeps"] == 4 and got["tokens"] == 24
    assert got["recurrence_error"] <= 1e-6
    assert 1.0 <= got["ratio_median"] <= got["ratio_max"]
    assert all(r >= 1.0 for r in got["ratio_max_per_substep"])
    assert got["share_balanced"] == 1.0 and 0.0 <= got["deviation_max"] < 1.0


def test_second_moment_balance_needs_a_diagonal_stream():
    model = GPT(GPTConfig(vocab_size=64, block_size=8, n_layer=1, n_head=2, n_embd=16), "gd-lt")
    with pytest.raises(ValueError, match="diagonal"):
        second_moment_balance(model, torch.zeros((1, 8), dtype=torch.long))

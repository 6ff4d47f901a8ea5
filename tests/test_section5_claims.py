"""Seed 001 §5, text below Figure 7 (`claims.sp_transformer.section5`): the warm-up on the paper's
grid, and the structure behind "similar trajectories regardless of k" (a one-step network's
rollout depends on its warm-up only through the last state, for any weights)."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.sp_transformer.section5 import H, _grid, committed_warmup, spread, warmups
from particles import oscillator, sp_rollouts
from particles.sp_networks import Table2, build


def test_five_steps_of_the_grid():
    """5 × 0.4 = 2 exactly; five states from t_0 end at 1.6, five implicit-midpoint steps at 2.0."""
    assert 5 * H == 2
    assert _grid(0, 5)[-1] == Fraction(8, 5) and _grid(1, 5)[-1] == 2
    assert len(_grid(0, 6)) == 6 and _grid(0, 6)[-1] == 2


def test_committed_runs_start_predicting_at_t_2():
    """Our committed n40 rollouts give the networks z(0), ..., z(1.6) and predict from t = 2.0."""
    got = committed_warmup()
    assert got and all(v == {"warmup_rows": 5, "first_prediction_t": 2.0} for v in got.values())


@settings(max_examples=10, deadline=None)
@given(name=st.sampled_from(["resnet", "sympnet"]), seed=st.integers(0, 50),
       i=st.integers(0, 39), j=st.integers(0, 39))
def test_one_step_rollout_ignores_the_warmup_history(name, seed, i, j):
    """For any weights, the rollout from the warm-up of k_i equals the rollout from the warm-up of
    k_j with only its last state replaced by k_i's: the earlier states never enter."""
    W = warmups(oscillator.K_TRAIN[[i, j]])
    net = build(name, Table2(upscale=8, width=8), seed=seed).eval()
    swapped = W[1].copy()
    swapped[-1] = W[0][-1]
    a, b = sp_rollouts.rollout(net, W[0], 10), sp_rollouts.rollout(net, swapped, 10)
    np.testing.assert_array_equal(a[5:], b[5:])


def test_spread_is_the_largest_range_over_k():
    t = sp_rollouts.times(46)
    one = np.stack([np.sin(t)[:, None] * np.ones(4)] * 3)
    assert spread(one, 18.0) == 0.0
    shifted = one + np.array([0.0, 0.5, -0.25])[:, None, None]
    assert spread(shifted, 18.0) == pytest.approx(0.75)
    assert spread(shifted, 10.0) == pytest.approx(0.75)

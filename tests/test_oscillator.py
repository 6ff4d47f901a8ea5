"""The coupled-oscillator data of seed 001 §5 (particles.oscillator)."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles import oscillator
from theory import hamiltonian


def test_training_grid_is_forty_equally_spaced_values_in_0_4():
    k = oscillator.K_TRAIN
    assert k.shape == (40,) and k[0] == 0.0 and k[-1] == 4.0
    np.testing.assert_allclose(np.diff(k), 4.0 / 39, rtol=1e-12)


def test_test_value_k_3_5_is_not_on_the_printed_training_grid():
    # §5 says k = 3.5 "was part of the training set"; 40 equally spaced values in [0, 4] have spacing
    # 4/39, and 3.5 · 39/4 = 34.125 is not an integer: the nearest grid value is 136/39 ≈ 3.487.
    gap = np.min(np.abs(oscillator.K_TRAIN - 3.5))
    assert gap == pytest.approx(0.5 / 39, rel=1e-12)


def test_trajectory_grid_and_initial_condition():
    traj = oscillator.trajectory(1.0)
    assert traj.shape == (251, 4)                                  # t = 0, 0.4, …, 100
    np.testing.assert_array_equal(traj[0], hamiltonian.Z0)          # eq. (27)


@settings(max_examples=4)  # each example integrates 1000 implicit-midpoint steps
@given(k=st.floats(0.0, 4.0))
def test_implicit_midpoint_energy_error_stays_bounded(k):
    # Implicit midpoint is symplectic: H is conserved up to O(h²) for exponentially long times (no
    # drift). Over [0, 400] the largest energy error is within 5% of the one over [0, 100] (the orbit
    # is quasi-periodic; 5% leaves room for it to reach a slightly higher point), and it stays below
    # 5% of H(z0) at h = 0.4 (measured: ≤ 3.8% for k ≤ 4).
    long = oscillator.trajectory(k, 400.0)
    E = oscillator.energy(long, k)
    err_long = np.max(np.abs(E - E[0]))
    err_short = np.max(np.abs(E[:251] - E[0]))
    assert err_long <= 1.05 * err_short + 1e-12
    assert err_long <= 0.05 * E[0]


@settings(max_examples=4)
@given(k=st.floats(1.0, 4.0))
def test_energy_error_is_second_order_in_h(k):
    # The modified-Hamiltonian error is C h² + O(h⁴): halving h divides it by ≈ 4 (3.2-4.8 allows
    # the O(h⁴) term at h = 0.4; measured ratios 3.6-3.9).
    errs = []
    for h in (0.4, 0.2):
        E = oscillator.energy(oscillator.trajectory(k, 100.0, h), k)
        errs.append(np.max(np.abs(E - E[0])))
    assert 3.2 <= errs[0] / errs[1] <= 4.8


def test_k_zero_is_quadratic_and_conserved_to_rounding():
    # At k = 0, eq. (26) is quadratic; implicit midpoint conserves quadratic invariants exactly, so
    # only the Newton tolerance (1e-13 scaled) and rounding remain.
    E = oscillator.energy(oscillator.trajectory(0.0), 0.0)
    assert np.max(np.abs(E - E[0])) < 1e-12


@given(n=st.integers(2, 12), sl=st.integers(1, 6), dim=st.sampled_from([2, 4]))
def test_windows_are_consecutive_states_and_their_successor(n, sl, dim):
    traj = torch.arange(n * dim, dtype=torch.float64).reshape(n, dim)
    if n <= sl:
        with pytest.raises(ValueError, match="seq_len"):
            oscillator.windows(traj, sl)
        return
    Z, target = oscillator.windows(traj, sl)
    assert Z.shape == (n - sl, dim, sl) and target.shape == (n - sl, dim)
    for j in range(n - sl):
        torch.testing.assert_close(Z[j], traj[j:j + sl].T, rtol=0, atol=0)   # columns are states
        torch.testing.assert_close(target[j], traj[j + sl], rtol=0, atol=0)


def test_training_pairs_stack_every_trajectory():
    data = oscillator.training_data(oscillator.K_TRAIN[::20], t_end=4.0)
    assert data.trajectories.shape == (2, 11, 4)
    Z, target = data.training_pairs(5)
    assert Z.shape == (12, 4, 5) and target.shape == (12, 4)
    torch.testing.assert_close(target[6], data.trajectories[1, 5])


@pytest.mark.parametrize("kwargs, match", [
    (dict(k=float("nan")), "k"), (dict(k=1.0, h=0.0), "h"), (dict(k=1.0, h=0.3, t_end=1.0), "multiple"),
    (dict(k=1.0, t_end=-1.0), "t_end"), (dict(k=1.0, z0=np.zeros(3)), "z0")])
def test_bad_trajectory_input_raises(kwargs, match):
    with pytest.raises(ValueError, match=match):
        oscillator.trajectory(**kwargs)


def test_bad_window_input_raises():
    traj = torch.zeros(10, 4, dtype=torch.float64)
    with pytest.raises(ValueError, match="seq_len"):
        oscillator.windows(traj, 0)
    with pytest.raises(ValueError, match="traj"):
        oscillator.windows(traj[0], 2)
    with pytest.raises(ValueError, match="ks"):
        oscillator.training_data(np.zeros((2, 2)))

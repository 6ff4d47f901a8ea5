"""Seed 001 §5, text below Figure 7 (`claims.sp_transformer.section5`): the warm-up on the paper's
grid, the structure behind "similar trajectories regardless of k" (a one-step network's rollout
depends on its warm-up only through the last state, for any weights), and the decision on the
trained networks' rollouts from the warm-ups of the training k (synthetic committed runs)."""
import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.sp_transformer.section5 import (H, ONE_STEP, _grid, committed_warmup, fig_7ab_similar_trajectories,
                                           follows_own_k, k_blind_calibration, k_blind_q1, spread, spread_q1,
                                           warmups)
from particles import oscillator, sp_rollouts, sp_train
from particles.sp_networks import NETWORKS, Table2, build


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


# ------------------------------------------------------------------ the trained networks' rollouts over k


def _refs(ks=oscillator.K_TRAIN):
    return np.stack([oscillator.trajectory(k, t_end=18.0)[:, 0] for k in ks])


def test_the_references_follow_their_own_k_and_a_k_blind_flow_does_not():
    """The decision's calibration: the implicit-midpoint trajectories are each nearest their own k
    (40 of 40); the exact flow of k = 3.5 from the 40 last warm-up states (blind to k beyond its
    starting state) is nearer its own k's reference than the median of the others in 20 of 40, what
    chance gives, and spreads over k less than the references."""
    refs = _refs()
    for t_end in (10.0, 18.0):
        f = follows_own_k(refs, refs, t_end)
        assert f["nearer_own"] == 40 and f["p_sign"] < 1e-11 and f["median_distance_own"] == 0.0
        assert f["mean_rank_of_own_reference"] == 0.0
    cal = k_blind_calibration(oscillator.K_TRAIN)
    for w in ("2-10", "2-18"):
        assert cal[w]["nearer_own"] == 20 and cal[w]["p_sign"] > 0.5
        assert 0.5 < cal[w]["spread_ratio"] < 1.0
    np.testing.assert_array_equal(k_blind_q1(oscillator.K_TRAIN)[:, :5], warmups(oscillator.K_TRAIN)[:, :, 0])


def test_a_blown_up_rollout_is_near_no_reference_and_spreads_to_the_guard():
    refs = _refs(oscillator.K_TRAIN[::4])
    x = refs.copy()
    x[3, 20:] = np.nan                                    # rollout 3 blew up at t = 8
    f = follows_own_k(x, refs, 10.0)
    assert f["nearer_own"] == 9                           # the other nine are their own reference
    assert spread_q1(x, 10.0) >= sp_rollouts.BLOWUP_GUARD - 2 and spread_q1(x, 7.6) == spread_q1(refs, 7.6)


@pytest.fixture
def n40(tmp_path, monkeypatch):
    """The deciding budget n40 cut to 10 epochs and 3 seeds, results under tmp_path, never trained."""
    small = dict(epochs={n: 10 for n in NETWORKS}, seeds=(0, 1, 2))
    b = dataclasses.replace(sp_train.BUDGETS["n40"], **small)
    monkeypatch.setitem(sp_train.BUDGETS, "n40", b)
    monkeypatch.setitem(sp_train.BUDGETS, "full", dataclasses.replace(sp_train.BUDGETS["full"], **small))
    monkeypatch.setattr(sp_train, "RESULTS", tmp_path)
    monkeypatch.setattr(sp_train, "train", lambda *a, **k: pytest.fail("a claim trained"))
    return b


def _commit(b, network: str, seed: int, q1: np.ndarray | None) -> None:
    """A synthetic finished n40 run: the k = 3.5 reference as its rollout and, unless None, `q1` as
    its rollouts from the warm-ups of the training k."""
    n, ref = b.epochs[network], sp_train.reference(b.t_rollout)
    loss = list(np.geomspace(1.0, 1e-2, n))
    result = {"config": sp_train.run_config(network, seed, b), "epochs": n, "train_loss": loss,
              "val_loss": loss, "final": {}, "rollout": {"h": 0.4, "states": sp_train.round_digits(ref, 8)},
              "milestones": sp_train.round_digits([{"epoch": e, **sp_train.rollout_summary(ref, b.t_rollout)}
                                             for e in sp_train.milestone_epochs(n)], 7),
              "provenance": {"commit": "synthetic", "seconds_per_epoch": 0.0}}
    if network == "resnet":
        result["output_bound"] = [20.0] * 4
    if q1 is not None:
        result["k_rollouts"] = {"spec": sp_train.k_rollouts_spec(network, b),
                                "k": [float(k) for k in oscillator.K_TRAIN], "q1": sp_train.round_digits(q1, 8)}
    sp_train.write_result(sp_train.RESULTS / "n40" / f"{network}-seed{seed}.json", result)


def test_rollouts_that_follow_their_own_k_fail_the_sentence(n40):
    """Each rollout is its own k's reference damped by 4-6% in amplitude (per seed): all 40 are
    nearest their own k in every seed, so the trajectories depend on k as the true ones do: fails,
    although their spread over k is below the references' (the not-admitted spread reading holds)."""
    refs = _refs()
    for name in ONE_STEP:
        for s in n40.seeds:
            _commit(n40, name, s, refs * (0.96 - 0.01 * s))
    ev = fig_7ab_similar_trajectories("full")
    assert ev.verdict == "fails" and [r["verdict"] for r in ev.readings] == ["fails", "holds", "holds"]
    assert ev.readings[1]["not_admitted"] and ev.readings[2]["not_admitted"]
    summary = ev.numbers["trained"]
    for name in ONE_STEP:
        for w in ("2-10", "2-18"):
            assert summary[name][w]["nearer_own_per_seed"] == [40, 40, 40]
            assert summary[name][w]["follows_k_in_every_seed"]
            assert summary[name][w]["spread_ratio_per_seed"] == pytest.approx([0.96, 0.95, 0.94])
    assert ev.numbers["decided_on"]["budget"] == "n40" and ev.numbers["n_seeds"] == 3
    assert ev.counterexample["follows_own_k"]["resnet"]["2-10"] == [40, 40, 40]


def test_k_blind_rollouts_leave_the_sentence_undecided_and_a_wide_spread_fails_it(n40):
    """The exact flow of k = 3.5 from each last warm-up state does not follow its own k and spreads
    less than the references: no failing condition, and 'similar' has no printed tolerance, so the
    claim stays inconclusive; the same rollouts with the spread over k tripled fail it."""
    blind = k_blind_q1(oscillator.K_TRAIN)
    for name in ONE_STEP:
        for s in n40.seeds:
            _commit(n40, name, s, blind)
    ev = fig_7ab_similar_trajectories("full")
    assert ev.verdict == "inconclusive" and ev.readings[0]["verdict"] == "inconclusive"
    assert not any(ev.numbers["trained"][n][w]["follows_k_in_every_seed"] for n in ONE_STEP
                   for w in ("2-10", "2-18"))
    mean = blind.mean(0)
    for s in n40.seeds:
        _commit(n40, "sympnet", s, mean + 3.0 * (blind - mean))
    ev = fig_7ab_similar_trajectories("full")
    assert ev.verdict == "fails" and ev.numbers["trained"]["sympnet"]["2-10"]["spread_not_below_in_every_seed"]
    assert ev.counterexample["spread_not_below"] == {"sympnet": ["2-10", "2-18"]}


def test_runs_without_the_k_rollouts_are_stale_for_this_claim_and_named_with_the_command(n40):
    """A one-step result written before sp_train recorded the k rollouts: usable by the other claims
    (its configuration is unchanged), stale for this one, which names the command that rebuilds it."""
    for name in ONE_STEP:
        for s in n40.seeds:
            _commit(n40, name, s, None)
    assert sp_train.collect("n40", ONE_STEP).complete
    ev = fig_7ab_similar_trajectories("full")
    command = "python -m particles.sp_train --budget n40 --networks resnet sympnet --seeds 0 1 2"
    assert ev.verdict == "inconclusive" and ev.numbers["waiting_for"] == command and command in ev.criterion
    stale = ev.numbers["runs_not_usable"]["stale"]
    assert set(stale) == {f"{n}-seed{s}" for n in ONE_STEP for s in n40.seeds}
    assert stale["resnet-seed0"] == ["k_rollouts: <absent> -> version 1 (40 k, q1 to t = 18)"]


def test_committed_n40_runs_decide_the_sentence_once_they_carry_the_k_rollouts():
    """On the committed n40 runs: until they carry the rollouts from every training k (written by
    sp_train since the k rollouts were added) the claim is inconclusive and names the command; with
    them, the ResNet's and the SympNet's rollouts follow their own k on (2, 10] in every seed."""
    got = sp_train.collect("n40", ONE_STEP, k_rollouts=True)
    ev = fig_7ab_similar_trajectories("full")
    if not got.complete:
        assert ev.verdict == "inconclusive"
        assert ev.numbers["waiting_for"].startswith("python -m particles.sp_train --budget n40 --networks")
        return
    assert ev.verdict == "fails" and ev.numbers["n_seeds"] == 5
    for name in ONE_STEP:
        assert ev.numbers["trained"][name]["2-10"]["follows_k_in_every_seed"]

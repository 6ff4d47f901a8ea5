"""The paired decision rule of the experiment claims (claims._stats), on synthetic seeds."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from claims._stats import decide, holm, mde, n_needed, paired_difference


def _seeds(mean, sd, n, seed=0):
    """n paired differences with exactly this sample mean and sd (standardised noise)."""
    z = np.random.default_rng(seed).standard_normal(n)
    z = (z - z.mean()) / z.std(ddof=1)
    return np.zeros(n), mean + sd * z


def test_ci_is_the_student_interval_of_the_differences():
    a, b = _seeds(0.01, 0.004, 5)
    c = paired_difference(a, b)
    half = stats.t.ppf(0.975, 4) * 0.004 / math.sqrt(5)
    assert c["mean_diff"] == pytest.approx(0.01) and c["sd_diff"] == pytest.approx(0.004)
    assert c["ci95"] == pytest.approx([0.01 - half, 0.01 + half])
    assert c["p_sign"] == pytest.approx(2 * stats.t.sf(0.01 / (0.004 / math.sqrt(5)), 4))


@settings(max_examples=25, deadline=None)
@given(sd=st.floats(1e-4, 1.0), n=st.integers(3, 60))
def test_mde_is_detected_with_the_stated_power(sd, n):
    """At the MDE the noncentral t power of the two-sided test equals 0.8 (the approximation
    t_{1-a/2} + t_{power} is exact up to the noncentrality correction: within 0.05)."""
    effect = mde(sd, n)
    df, nc = n - 1, effect / (sd / math.sqrt(n))
    crit = stats.t.ppf(0.975, df)
    power = stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc)
    assert 0.75 < power < 0.85
    assert mde(sd, n + 1) < effect  # more seeds detect smaller effects
    needed = n_needed(sd, effect)
    assert needed is not None and needed <= n and mde(sd, needed) <= effect


def test_holm_steps_down_and_stops_at_the_first_kept_hypothesis():
    assert holm({"a": 0.001, "b": 0.02, "c": 0.04}) == {"a": True, "b": True, "c": True}
    assert holm({"a": 0.001, "b": 0.03, "c": 0.04}) == {"a": True, "b": False, "c": False}
    assert holm({"a": 0.03, "b": 0.04}) == {"a": False, "b": False}  # 0.03 >= 0.05 / 2


@pytest.mark.parametrize("mean, sd, claimed, n, status, verdict", [
    (0.05, 0.01, None, 5, "agree", "holds"),           # clearly on the claimed side
    (-0.05, 0.01, None, 5, "reversed", "fails"),       # clearly reversed
    (0.001, 0.02, None, 3, "undecided", "inconclusive"),  # the seed spread covers the gap
    (0.0, 0.001, 0.05, 5, "smaller", "fails"),         # the claimed size is excluded
    (0.03, 0.05, 0.05, 3, "undecided", "inconclusive"),   # neither side excluded
    (0.02, 0.002, 0.05, 5, "agree", "holds"),          # right sign, smaller size: the order holds
])
def test_status_and_verdict(mean, sd, claimed, n, status, verdict):
    a, b = _seeds(mean, sd, n)
    v, rows = decide({"x": paired_difference(a, b, claimed)})
    assert rows["x"]["status"] == status and v == verdict
    if status == "undecided":
        n_more = rows["x"]["n_needed"]
        assert n_more is None or n_more > n


def test_holm_over_the_family_can_leave_a_single_significant_pair_undecided():
    """p = 0.03 decides alone, not in a family of three comparisons."""
    a, b = _seeds(0.0, 1.0, 8)
    alone = paired_difference(a, b)
    # a difference with p_sign = 0.03: mean = t * sd / sqrt(n)
    t = stats.t.isf(0.015, 7)
    a, b = _seeds(t / math.sqrt(8), 1.0, 8)
    one = paired_difference(a, b)
    assert one["p_sign"] == pytest.approx(0.03)
    assert decide({"x": one})[0] == "holds"
    assert decide({"x": one, "y": alone, "z": alone})[1]["x"]["status"] == "undecided"


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="paired"):
        paired_difference([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="claimed"):
        paired_difference([1.0, 2.0], [1.0, 2.0], claimed=-1.0)

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


@settings(deadline=None)
@given(sd=st.floats(1e-4, 1e-1), ratio=st.floats(0.3, 3.0), looks=st.integers(1, 6))
def test_seeds_beyond_a_plan_are_found_at_the_level_of_the_looks_they_add(sd, ratio, looks):
    """n_needed at the level a plan extended to n seeds has (0.05 over max(looks, n - 2) looks) is
    the fewest seeds whose mde at that level reaches the effect: never fewer than at the plan's
    own level, and the same when that many seeds lie within the plan (effects of 0.3-3 sd: below,
    the looks the seeds add grow past N_MAX seeds, no practical n)."""
    effect = ratio * sd
    at = lambda n: 0.05 / max(looks, n - 2)  # noqa: E731
    fixed, grown = n_needed(sd, effect, 0.05 / looks), n_needed(sd, effect, at)
    assert fixed is not None and grown is not None and grown >= fixed
    assert mde(sd, grown, at(grown)) <= effect < mde(sd, grown - 1, at(grown - 1))
    if grown - 2 <= looks:
        assert grown == fixed


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


# ------------------------------------------------------------------ sign first (issue 25)

from claims._stats import EQUIVALENCE_MARGIN, sign_first, table_agreement  # noqa: E402


def _arms(mean_d, sd, n, level=1.0, seed=0):
    """Two paired arms (a, b) around `level` whose differences b - a have exactly this mean and sd."""
    a, d = _seeds(mean_d, sd, n, seed)
    base = level + 0.01 * np.random.default_rng(seed + 1).standard_normal(n)
    return base, base + d


@settings(max_examples=20, deadline=None)
@given(gap=st.floats(0.01, 0.1), sd=st.floats(1e-4, 2e-3), n=st.integers(3, 8))
def test_a_clear_difference_holds_on_its_side_and_fails_on_the_other(gap, sd, n):
    """d = gap >> sd / sqrt(n): the asserted side holds, the reversed assertion fails; no size is
    tested (a gap 100x smaller than any printed one decides the same way)."""
    a, b = _arms(gap, sd, n)
    verdict, rows = sign_first({"a < b": (a, b, "less"), "b < a": (b, a, "less")})
    assert rows["a < b"]["status"] == "holds" and rows["b < a"]["status"] == "fails"
    assert verdict == "fails" and "claimed" not in rows["a < b"]


def test_a_tie_inside_the_margin_is_no_detectable_difference_and_decides_nothing():
    a, b = _arms(0.0, 1e-5, 6)
    verdict, rows = sign_first({"a < b": (a, b, "less")})
    assert rows["a < b"]["status"] == "no detectable difference" and verdict == "inconclusive"
    assert rows["a < b"]["margin"] == pytest.approx(EQUIVALENCE_MARGIN * np.mean((a + b) / 2), rel=1e-9)


def test_an_undecided_difference_says_how_many_seeds_would_decide():
    a, b = _arms(0.003, 0.01, 4)
    verdict, rows = sign_first({"a < b": (a, b, "less")})
    assert verdict == "inconclusive" and rows["a < b"]["status"] == "undecided"
    assert rows["a < b"]["n_needed"] > 4


@pytest.mark.parametrize("mean_d, status", [(0.0, "holds"), (0.02, "holds"), (-0.02, "fails")])
def test_not_worse_is_non_inferiority_within_the_margin(mean_d, status):
    """'a is tied for best against b': holds while a is not above b by more than 0.1% of the loss
    (a tie holds), fails when a is significantly above b by more than that."""
    a, b = _arms(mean_d, 1e-5, 5)
    _, rows = sign_first({"a <= b": (a, b, "not-worse")})
    assert rows["a <= b"]["status"] == status


def test_holm_makes_a_family_of_marginal_differences_harder_to_decide():
    """p ~ 0.02 for each: decided alone, not among five (Holm's first step needs p < 0.01)."""
    a, b = _arms(0.01, 0.01 * math.sqrt(5) / stats.t.ppf(0.99, 4), 5)
    assert sign_first({"x": (a, b, "less")})[1]["x"]["status"] == "holds"
    many = sign_first({f"x{k}": (a, b, "less") for k in range(5)})[1]
    assert all(r["status"] == "undecided" for r in many.values())


def test_table_agreement_counts_printed_pairs_and_ranks():
    printed = {"a": 1.0, "b": 1.1, "c": 1.2}
    values = {"a": [1.0, 1.01, 0.99], "b": [1.3, 1.31, 1.29], "c": [1.2, 1.21, 1.19]}
    t = table_agreement(printed, values, n_boot=200)
    assert t["pairs"]["a < b"]["status"] == "agree" and t["pairs"]["b < c"]["status"] == "reversed"
    assert t["status_counts"] == {"agree": 2, "reversed": 1, "undecided": 0}
    assert t["share_reproduced"] == pytest.approx(2 / 3)
    assert t["kendall_tau"] == pytest.approx(1 / 3)  # one discordant pair of three
    lo, hi = t["kendall_tau_ci95"]
    assert lo <= t["kendall_tau"] <= hi
    assert "a < a" not in t["pairs"] and table_agreement({"x": 1.0, "y": 1.0}, {"x": [1, 1], "y": [1, 1]})["pairs"] == {}


# ------------------------------------------------- sizing a confirmatory sample (fail_power)

from claims._stats import ALPHA, fail_power  # noqa: E402

DRAWS = 300  # Monte Carlo draws where a probability near 1 is asserted


def _explored(mean: float, sd: float, seeds: int = 3) -> list[float]:
    """Per-seed differences with exactly this mean and sample sd (seeds >= 2)."""
    z = np.linspace(-1.0, 1.0, seeds)
    return list(mean + sd * z / np.std(z, ddof=1))


@pytest.mark.parametrize("effect, missing", [(0.0, False), (0.0, True), (1.2, False), (1.2, True)])
def test_fail_power_is_the_noncentral_t_power_of_the_failing_side(effect, missing):
    """One sub-assertion whose explored differences a - b have mean `effect` sds: at n fresh seeds
    it fails when the two-sided paired t rejects at Holm's first step with a above b, so its
    probability is the noncentral t's tail P(T > t_{1 - level/2, n-1}), T ~ t_{n-1}(effect sqrt n),
    at level 0.05 alone and 0.025 beside a sub-assertion without runs (Holm over two, p = 1).
    Within 4 Monte Carlo standard errors (DRAWS = 1000 here); the four cases differ by more."""
    n, draws = 4, 1000
    exact = stats.nct.sf(stats.t.ppf(1 - (ALPHA / 2 if missing else ALPHA) / 2, n - 1), n - 1, effect * math.sqrt(n))
    p = fail_power({"a < b": _explored(effect * 0.01, 0.01)}, n, {"a < b": 1.0},
                   missing={"c < b": "no runs"} if missing else None, draws=draws, seed=1)
    assert abs(p - exact) <= 4 * math.sqrt(exact * (1 - exact) / draws)


@pytest.mark.parametrize("n", [4, 6])
def test_an_explored_reversal_many_deviations_wide_fails_almost_surely(n):
    """Mean a - b at 10 sds: the paired t at n seeds is ~10 sqrt(n), far past Holm's threshold in
    nearly every draw; a sub-assertion without runs (p = 1) does not stop it."""
    p = fail_power({"a < b": _explored(0.1, 0.01)}, n, {"a < b": 1.0}, missing={"c < b": "no runs"},
                   draws=DRAWS)
    assert p >= 0.99


def test_fail_power_refuses_bad_input_by_name():
    with pytest.raises(ValueError, match="n must"):
        fail_power({"x": [0.1, 0.2, 0.3]}, 2, {"x": 1.0})
    with pytest.raises(ValueError, match="levels"):
        fail_power({"x": [0.1, 0.2, 0.3]}, 4, {"y": 1.0})
    with pytest.raises(ValueError, match="differences"):
        fail_power({"x": [0.1, float("nan"), 0.3]}, 4, {"x": 1.0})
    with pytest.raises(ValueError, match="differences"):
        fail_power({"x": [0.1, 0.2, 0.3], "y": [0.1, 0.2]}, 4, {"x": 1.0, "y": 1.0})


def test_a_second_test_of_an_undecided_comparison_errs_at_the_level_in_each_direction():
    """What deciding a comparison left undecided at a plan's last look costs (claims._experiment,
    docs/architecture.md "Looks"): one paired comparison with no true difference, two-sided t at
    0.05 at three seeds (a plan of three, one look), then when undecided either a confirmatory
    sample (three fresh seeds at 0.05) or the plan grown to five (0.05/3 at four and five). In
    either direction together the sample errs with ~0.098 and the grown plan with ~0.061, above
    the 0.05 the same three looks planned from the start keep (~0.037); in the one direction a
    verdict takes (a hold or a fail): the sample 0.04875 exactly (0.025 + 0.95 x 0.025), the grown
    plan ~0.030. 40000 draws: standard errors <= 0.0015, against margins >= 0.004 to the level.
    The numbers of docs/architecture.md ("Looks")."""
    rng = np.random.default_rng(0)
    x, fresh = rng.standard_normal((40000, 5)), rng.standard_normal((40000, 3))

    def t_test(d):
        t = d.mean(1) / (d.std(1, ddof=1) / math.sqrt(d.shape[1]))
        return 2 * stats.t.sf(np.abs(t), d.shape[1] - 1), t < 0  # two-sided p, the failing sign
    (p3, f3), (p4, f4), (p5, f5), (pc, fc) = *(t_test(x[:, :k]) for k in (3, 4, 5)), t_test(fresh)
    look = p3 <= ALPHA
    planned = np.mean((p3 <= ALPHA / 3) | (p4 <= ALPHA / 3) | (p5 <= ALPHA / 3))
    grown = np.mean(look | (p4 <= ALPHA / 3) | (p5 <= ALPHA / 3))
    grown_fail = np.mean((look & f3) | (~look & (p4 <= ALPHA / 3) & f4)
                         | (~look & (p4 > ALPHA / 3) & (p5 <= ALPHA / 3) & f5))
    confirmed = np.mean(look | (pc <= ALPHA))
    confirmed_fail = np.mean((look & f3) | (~look & (pc <= ALPHA) & fc))
    se = 0.0015
    assert planned < ALPHA - 5 * se and grown > ALPHA + 5 * se and confirmed > 1.9 * ALPHA - 5 * se
    assert grown_fail < ALPHA - 5 * se and abs(confirmed_fail - ALPHA / 2 * (2 - ALPHA)) <= 3 * se
    # a member of a some-scheme reading: Holm over its two sub-assertions, correlated as Table 2's
    # plain Euler's were explored (rho = -0.43), looked at on 3 seeds, then its sample on 4 fresh
    # ones: in the failing direction each test errs with ~0.0257, both together with ~0.050
    cov = [[1.0, -0.43], [-0.43, 1.0]]

    def member(k):
        d = rng.multivariate_normal([0.0, 0.0], cov, size=(40000, k))
        t = d.mean(1) / (d.std(1, ddof=1) / math.sqrt(k))
        p = 2 * stats.t.sf(np.abs(t), k - 1)
        first = p.min(1) <= ALPHA / 2
        rejected = np.where(p == p.min(1, keepdims=True), first[:, None], (first & (p.max(1) <= ALPHA))[:, None])
        return (rejected & (t > 0)).any(1), rejected.any(1)
    (look_fail, look_any), (sample_fail, _) = member(3), member(4)
    assert abs(np.mean(look_fail | (~look_any & sample_fail)) - 0.050) <= 3 * se

"""The statistical criterion of the training-table claims (claims.lm.paired_ordering)."""
from hypothesis import given
from hypothesis import strategies as st

from claims.lm import paired_ordering

PRINTED = {"a": 1.0, "b": 1.1, "c": 1.2}
noise = st.lists(st.floats(-1e-3, 1e-3), min_size=5, max_size=5)


@given(noise, noise, noise)
def test_well_separated_losses_in_the_printed_order_hold(na, nb, nc):
    # gaps of 0.1 against per-seed noise <= 1e-3: every paired t is >~ 40, p << 0.05 / 3
    values = {"a": [1 + x for x in na], "b": [1.1 + x for x in nb], "c": [1.2 + x for x in nc]}
    verdict, pairs = paired_ordering(PRINTED, values)
    assert verdict == "holds" and [p["status"] for p in pairs] == ["agree"] * 3


@given(noise, noise, noise)
def test_one_significant_reversal_fails(na, nb, nc):
    values = {"a": [1.2 + x for x in na], "b": [1.1 + x for x in nb], "c": [1.3 + x for x in nc]}
    verdict, pairs = paired_ordering(PRINTED, values)
    assert verdict == "fails"
    assert {(p["lower"], p["higher"]) for p in pairs if p["status"] == "disagree"} == {("a", "b")}


def test_spread_covering_the_gap_is_inconclusive():
    # per-seed differences alternate in sign: mean gap 0.002 against spread 0.1, p ~ 0.97
    values = {"a": [1.0, 1.1, 0.9, 1.05, 0.95], "b": [1.05, 1.0, 1.0, 1.0, 1.0],
              "c": [2.0, 2.1, 1.9, 2.05, 1.95]}
    verdict, pairs = paired_ordering(PRINTED, values)
    status = {(p["lower"], p["higher"]): p["status"] for p in pairs}
    assert verdict == "inconclusive" and status[("a", "b")] == "undecided"
    assert status[("a", "c")] == status[("b", "c")] == "agree"


def test_holm_is_stricter_than_unadjusted_tests():
    # three pairs with p just under 0.05 each: unadjusted they would all agree, Holm keeps none
    # unless the smallest p is below 0.05 / 3.
    values = {"a": [0.0] * 5, "b": [0.1, 0.12, 0.06, -0.01, 0.15], "c": [0.2, 0.25, 0.1, 0.0, 0.3]}
    verdict, pairs = paired_ordering(PRINTED, values, alpha=0.05)
    ps = sorted(p["p"] for p in pairs)
    assert 0.05 / 3 < ps[0] and ps[-1] < 0.05  # each pair significant alone, none after Holm
    assert verdict == "inconclusive"


def test_tied_printed_losses_are_not_compared():
    verdict, pairs = paired_ordering({"a": 1.0, "b": 1.0}, {"a": [1, 2, 3], "b": [3, 2, 1]})
    assert pairs == [] and verdict == "holds"

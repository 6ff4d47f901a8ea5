"""claims/sympformer/consistency.py: seed 000 against itself. The rounding-interval comparison of
printed numbers, the counterexample of Appendix B's minimum learning rate, and the table rows the
'outperforms' sentences cannot mean."""
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

import claims
from claims._printed import printed_interval
from claims.sympformer.consistency import (BASELINE, TABLES, YURII, _setting_readings, below,
                                           outperform_readings, sympformer_rows)


@given(x=st.floats(-1e4, 1e4, allow_nan=False), k=st.integers(1, 6))
def test_the_rounding_interval_contains_the_value_and_has_the_printed_width(x, k):
    """Decimals (the tables print no integers; an integer's trailing zeros are not significant,
    tests/test_lm_ordering.py)."""
    printed = f"{x:.{k}f}"
    lo, hi = printed_interval(printed, exact=True)
    assert hi - lo == Decimal(1).scaleb(-k)
    assert lo <= Decimal(x) <= hi  # formatting rounds the exact binary value correctly
    assert printed_interval(printed) == (float(lo), float(hi))  # the float ends: the exact ends rounded once


@given(a=st.decimals(-10, 10, places=4), b=st.decimals(-10, 10, places=4))
def test_below_is_decided_only_outside_the_rounding_intervals(a, b):
    sa, sb = f"{a:.4f}", f"{b:.4f}"
    result = below(sa, sb)
    if result is True:
        assert below(sb, sa) is False and Decimal(sa) < Decimal(sb)
    if sa == sb:
        assert result is None  # the same printed number: undecided, never counted
    if Decimal(sb) - Decimal(sa) == Decimal("0.0001"):
        assert result is True  # adjacent printed values: half-open intervals that only touch


def test_appendix_b_minimum_lr_describes_no_reported_run_under_either_reading():
    """Counterexample of sympformer:appendix-b-min-lr as printed: 0.1×peak in the general text, 0.4
    in each of the three tables. Read as every run's setting it conflicts with all three; read as a
    default each table overrides ("We train ... with" says what was done) no reported experiment
    uses it. Both readings admitted and failing, one rule with appendix-b-scalar-lr (7 Dec 2026):
    a misprint for 0.4×peak."""
    general, per_table = _setting_readings("min_lr_ratio")
    assert general["verdict"] == "fails" and per_table["verdict"] == "fails"
    assert "not_admitted" not in general and "not_admitted" not in per_table
    result = claims.run(claims.load(["sympformer"])["sympformer:appendix-b-min-lr"], "quick")
    assert result.kind == "misprint" and result.as_expected
    assert set(general["per_table"].values()) == {"0.4"}
    assert per_table["tables_using_the_default"] == []
    assert per_table["tables_overriding"] == {"Table 1": "0.4", "Table 2": "0.4", "Table 3": "0.4"}


def test_appendix_b_scalar_boost_is_table_1s_default():
    """The same two readings of the 5x boost: Table 1 states no multiplier, so the default reading
    holds by its run, while every run's setting fails against the 100x of Tables 2-3: an ambiguity."""
    general, per_table = _setting_readings("scalar_lr_multiplier")
    assert general["verdict"] == "fails" and per_table["verdict"] == "holds"
    assert per_table["tables_using_the_default"] == ["Table 1"]
    result = claims.run(claims.load(["sympformer"])["sympformer:appendix-b-scalar-lr"], "quick")
    assert result.kind == "ambiguity" and result.as_expected


def test_two_softmax_variants_are_above_the_baseline_in_table_1():
    """The issue's example: Presymp Euler 2.4592 and Presymp AB2 2.6546 above the Baseline 2.4473
    (best column), so 'every variant outperforms' fails while the best variant of each table wins."""
    t1 = TABLES["Table 1"]
    assert [n for n in sympformer_rows("Table 1") if below(t1[n][1], t1[BASELINE][1]) is False] == \
        ["Presymp Euler", "Presymp AB2"]
    every, best = outperform_readings(lambda t: (BASELINE,), "best", slower=False)
    assert every["verdict"] == "fails" and best["verdict"] == "holds"
    # the generic 'the SympFormer' states no 'every': that reading is invented (R3, issue 38)
    assert every["not_admitted"].startswith("R3") and "not_admitted" not in best
    assert best["variants_read"] == {"Table 1": ["Presymp ETD-AB2"], "Table 2": ["Presymp Euler"],
                                     "Table 3": ["plain Euler"]}


def test_every_sympformer_is_slower_than_both_rivals():
    for table, rows in TABLES.items():
        for n in sympformer_rows(table):
            assert below(rows[BASELINE][2], rows[n][2]) and below(rows[YURII[table]][2], rows[n][2])


def test_the_every_variant_extension_fails_on_the_rows_the_reviews_name():
    """The invented every-variant reading, registered as an extension outside the tally: its
    counterexample is exactly Table 1's Presymp Euler and AB2 (both rivals) and Table 2's plain
    Euler against YuriiFormer (best column), every pair decided by the rounding intervals."""
    ev = claims.registry()["sympformer:every-variant-outperforms"].check("quick")
    assert ev.verdict == "fails"
    best = ev.counterexample["not below a rival (best)"]
    assert sorted(best) == ["Table 1: Presymp AB2 vs Baseline", "Table 1: Presymp AB2 vs YuriiFormer-Lie-Trotter",
                            "Table 1: Presymp Euler vs Baseline", "Table 1: Presymp Euler vs YuriiFormer-Lie-Trotter",
                            "Table 2: plain Euler vs YuriiFormer"]
    for pair, (variant, rival) in best.items():
        assert below(variant, rival) is not True, pair


def test_adjacent_printed_values_are_ordered():
    """[1.1055, 1.1065) lies wholly below [1.1065, 1.1075): adjacent printed values decide 'below'."""
    assert below("1.106", "1.107") is True and below("1.107", "1.106") is False
    assert below("1.106", "1.106") is None

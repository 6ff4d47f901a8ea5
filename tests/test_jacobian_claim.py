"""Seed 002 §5.3's ledger claim (`momentum_streams:sec-5.3-jacobian`): the exact Spearman test it
decides 'tracks lower loss' by, the committed counterexample at our cutoff, and the design of its
rank-tolerance reading (an exploration on `main-replica`, a confirmatory sample `main-confirm` of
a size fixed before its runs, decided on all of it and never on part of it)."""
import pytest

import claims
from claims.momentum_streams import diagnostics as lmd
from particles.lm.studies import get_study


def _above_vanilla(per: dict, variant: str) -> bool:
    """`variant`'s 𝒫 at float64's rank tolerance is above vanilla's in every paired seed."""
    key = "persistence_rank_tolerance"
    return all(m > b for m, b in zip(per[variant][key], per[lmd.VANILLA][key]))


def test_spearman_permutation_test_is_exact():
    # n = 5: ρ = 1 − Σd²/20; ρ = 1 only for the identity (p = 1/120), ρ ≥ 0.9 for the identity and
    # the 4 adjacent transpositions (p = 5/120 < 0.05), ρ ≥ 0.8 adds the 3 double swaps (8/120).
    x = [1.0, 2.0, 3.0, 4.0, 5.0]
    up = lmd.spearman_test(x, [10.0, 20.0, 30.0, 40.0, 50.0])
    assert up["rho"] == pytest.approx(1.0) and up["p_greater"] == pytest.approx(1 / 120)
    assert up["p_less"] == pytest.approx(1.0)
    swap = lmd.spearman_test(x, [20.0, 10.0, 30.0, 40.0, 50.0])
    assert swap["rho"] == pytest.approx(0.9) and swap["p_greater"] == pytest.approx(5 / 120)
    two = lmd.spearman_test(x, [20.0, 10.0, 40.0, 30.0, 50.0])
    assert two["rho"] == pytest.approx(0.8) and two["p_greater"] == pytest.approx(8 / 120)
    down = lmd.spearman_test(x, x[::-1])
    assert down["rho"] == pytest.approx(-1.0) and down["p_less"] == pytest.approx(1 / 120)
    with pytest.raises(ValueError, match="length"):
        lmd.spearman_test(x, x[:4])


def test_jacobian_persistence_is_reversed_at_our_cutoff_and_at_the_rank_tolerance():
    """The committed counterexample of seed 002 §5.3 at our cutoff (seeds 0-4 of the main study):
    every momentum variant's 𝒫 is above vanilla's (the sub-assertion fails). The paper leaves its
    cutoff open; at float64's rank tolerance the exploration (main-replica's recorded spectra
    tails, seeds 0-4) has 𝒫 above vanilla's in every paired seed too, and that reading is decided
    only on its confirmatory sample (main-confirm) once all of its fixed seeds are committed; the
    claim fails only if both readings fail (else it is inconclusive, never an erratum by one
    cutoff the check chose). With all eight committed both fail (a fail at proxy scale)."""
    ev = claims.load()["momentum_streams:sec-5.3-jacobian"].check("full")
    if ev.numbers["missing_runs"]:
        pytest.skip(f"not committed: {ev.numbers['missing_runs']}")
    momentum = ("HBFormer", "YuriiFormer", "TMMFormer")
    ours, smaller = ev.numbers["sub_assertions"].values()
    assert {k: ours[f"{k} persistence < vanilla's"]["status"] for k in momentum} == dict.fromkeys(momentum, "fails")
    verdicts = [r["verdict"] for r in ev.readings]
    assert verdicts[0] == "fails"
    assert ev.verdict == ("fails" if verdicts == ["fails", "fails"] else "inconclusive")
    explored = ev.numbers["rank_tolerance_exploration"]
    per = explored["per_model"]
    for v, label in zip(("hb", "yurii", "tmm"), momentum):
        assert _above_vanilla(per, v)
        assert explored["sub_assertions"][f"{label} persistence < vanilla's"]["status"] in ("fails", "undecided")
    source = ev.numbers["rank_tolerance_source"]
    if source["seeds"] != source["planned_seeds"]:
        assert verdicts[1] == "inconclusive" and not smaller
        return
    # the confirmatory sample's counterexample (main-confirm, seeds 5-12, decided 27 Nov 2026):
    # YuriiFormer's and TMMFormer's 𝒫 is above vanilla's in every seed and Holm rejects the
    # printed direction for both, so the rank-tolerance reading fails as ours does
    confirm = source["per_model"]
    for v, label in (("yurii", "YuriiFormer"), ("tmm", "TMMFormer")):
        assert _above_vanilla(confirm, v)
        assert smaller[f"{label} persistence < vanilla's"]["status"] == "fails"
    assert verdicts == ["fails", "fails"] and ev.verdict == "fails"


def test_the_confirmatory_sample_is_the_smallest_with_the_target_power():
    """§5.3's rank-tolerance reading is decided on `main-confirm`, whose seed count was fixed before
    its runs as the smallest n at which the reading fails with probability >= CONFIRM_POWER if the
    explored differences (main-replica, seeds 0-4) are the truth: the power at n - 1 is below the
    target and at n above it (Monte Carlo, 1000 draws: standard error <= 0.016, against gaps of
    0.03 and 0.05 to the target), and the sample holds Figure 2's five models at fresh seeds."""
    study, seeds = lmd.replica_study()
    if len(seeds) < lmd.MIN_SEEDS:
        pytest.skip(f"the exploration has {len(seeds)} paired seeds")
    confirm = get_study(lmd.CONFIRM)
    assert set(confirm.variants) == set(lmd.JACOBIAN_VARIANTS) and not set(confirm.seeds) & set(seeds)
    per = lmd._per_model(study, rank_tolerance=True)
    n = len(confirm.seeds)
    assert lmd.confirm_power(per, n - 1) < lmd.CONFIRM_POWER <= lmd.confirm_power(per, n)


def test_a_partial_confirmatory_sample_decides_nothing(monkeypatch):
    """No look before the confirmatory sample is complete: with the exploration's rows standing in
    for 5 of main-confirm's 8 seeds the rank-tolerance reading stays undecided, whatever they show;
    with all 8 (the exploration's reversal, seeds reused) it fails, and with our cutoff's fail the
    claim fails. The rule under test is the gate, not the data (rows relabelled on purpose)."""
    explored, seeds = lmd.replica_study()
    if len(seeds) < lmd.MIN_SEEDS or lmd.diagnostics("full", lmd.JACOBIAN_VARIANTS)[2]["missing_runs"]:
        pytest.skip("the exploration or main's diagnostics are not committed")
    planned = tuple(get_study(lmd.CONFIRM).seeds)

    def relabelled(k: int):
        rows = {v: [dict(rs[i % len(rs)], seed=s) for i, s in enumerate(planned[:k])] for v, rs in explored.items()}
        return rows, list(planned[:k]), planned
    for k, reading, claim in ((5, "inconclusive", "inconclusive"), (8, "fails", "fails")):
        monkeypatch.setattr(lmd, "confirm_study", lambda k=k: relabelled(k))
        ev = lmd.jacobian_claim("full")
        assert [r["verdict"] for r in ev.readings] == ["fails", reading]
        assert ev.verdict == claim

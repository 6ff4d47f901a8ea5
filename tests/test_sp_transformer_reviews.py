"""Seed 001's re-judgements of issue 38 (claims/sp_transformer/reviews.json, docs/rejudging.md):
each re-classified claim computes the class its review decided from its evidence, with the readings
the rules exclude kept on the page but out of the decision; the misprints both referees confirmed
(claims/sp_transformer/misprints.py) quote the seed verbatim and are items of the inventory."""
from pathlib import Path

import numpy as np
import pytest

import claims
from claims._ledger import NOT_ADMITTED, PAPERS
from claims.sp_transformer.inventory import ITEMS
from claims.sp_transformer.misprints import MISPRINTS

ALL = claims.load(["sp_transformer"])
SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / PAPERS["sp_transformer"]

# claim -> (class decided, the rule tag of each reading in order: None where it decides)
REJUDGED = {
    "eq-22-24": ("erratum", [None, "correction"]),
    "eq-6-convex": ("misprint", [None, "correction"]),
    "lambda-symplectic-matrix": ("misprint", [None, "correction"]),
    "thm-2-sketch": ("misprint", [None, "correction", "unsupported"]),
    "fig-7-horizons": ("holds", [None, "invented", "invented"]),
    "symplectic-integrators": ("holds", ["invented", None]),
    "psd-downscaling": ("holds", [None, "invented"]),
    # 7 Dec 2026, referees C and D: 'in the interval [0,4]' gives no endpoint convention
    "k-3.5-training-set": ("holds", ["invented", None, None]),
    # 7 Dec 2026, referees H and I: set volumes for every symplectic map, no injectivity asked
    "thm-2": ("erratum", [None, "rescue"]),
}


def _run(label: str) -> claims.Result:
    return claims.run(ALL[f"sp_transformer:{label}"], "quick")


@pytest.mark.parametrize("label", sorted(REJUDGED))
def test_a_rejudged_claim_computes_the_class_its_review_decided(label):
    decided, tags = REJUDGED[label]
    result = _run(label)
    assert result.evidence is not None, result.error
    assert result.kind == decided == result.claim.review["decided"] and result.as_expected
    assert [r.get("not_admitted") for r in result.evidence.readings] == [
        NOT_ADMITTED[t] if t else None for t in tags]
    assert result.evidence.ambiguity is None


def test_eq_22_24_fails_only_through_the_half_of_eq_20_and_counts_under_eq_19_20():
    # Λ̃ᵀJΛ̃ = J/4 with the printed ½; with the standard Cayley map (the correction) Λ̃ is symplectic
    result = _run("eq-22-24")
    printed, corrected = result.evidence.readings
    np.testing.assert_allclose(printed["conformal_factor"], [0.25, 0.25], atol=1e-12)
    assert printed["verdict"] == "fails" and corrected["verdict"] == "holds"
    assert result.claim.root_cause == "sp_transformer:eq-19-20" and not result.claim.slip.intended_at
    assert ALL["sp_transformer:eq-19-20"].slip is not None


def test_thm_2_fails_for_a_symplectic_map_that_covers_its_image_twice():
    # the action-angle map over two turns is symplectic and halves the volume; over one turn
    # (injective) it preserves it, as the corrected theorem says
    from claims.sp_transformer.theorems import _annulus_counterexample
    two, one = _annulus_counterexample(2), _annulus_counterexample(1)
    assert two["symplectic"] and one["symplectic"]
    assert (two["vol_U"], two["vol_phi_U"], two["equal"]) == ("4*pi", "2*pi", False)
    assert (one["vol_U"], one["vol_phi_U"], one["equal"]) == ("2*pi", "2*pi", True)
    assert _run("thm-2").evidence.counterexample["vol_phi_U"] == "2*pi"


def test_psd_downscaling_is_the_transpose_and_the_pullback_sense_is_not_the_texts():
    # D = diag(Φ, Φ)ᵀ exactly; DᵀJ_{2d}D = J_{2N} fails by exactly √(2(N − d)) (shown, not admitted);
    # D J_{2N} Dᵀ = J_{2d} and D L = I_{2d}: the symplectic inverse of the up-scaling (the extension)
    ev = _run("psd-downscaling").evidence
    text, pullback = ev.readings
    assert text["verdict"] == "holds" and text["max_deviation_from_transpose"] == 0.0
    assert pullback["verdict"] == "fails" and pullback["equals_sqrt_2_N_minus_d"]
    np.testing.assert_allclose(ev.numbers["pullback_defect"], ev.numbers["predicted_sqrt_2(N-d)"], rtol=1e-12)
    assert max(ev.numbers["extension_symplectic_inverse"].values()) < 1e-13


def test_each_confirmed_misprint_is_a_claim_of_kind_misprint_and_an_inventory_item():
    ids = {f"sp_transformer:{m.label}" for m in MISPRINTS}
    assert len(ids) == len(MISPRINTS) == 13
    for cid in sorted(ids):
        result = claims.run(ALL[cid], "quick")
        assert result.kind == "misprint" and result.as_expected, result.as_dict()
    covered = {c for item in ITEMS if item.kind == "misprint" for c in item.claims}
    assert covered == ids


@pytest.mark.skipif(not SEED.exists(), reason="the seed file is not checked out beside the repository")
@pytest.mark.parametrize("m", MISPRINTS, ids=lambda m: m.label)
def test_misprint_passages_are_verbatim_from_the_seed(m):
    text = SEED.read_text(encoding="utf-8")
    assert m.printed_passage in text and m.intended_passage in text

"""Every registered claim, at the quick budget: the computed verdict equals the pinned `expect`,
and an experiment's evidence carries what issue 12 asks of it (seeds; for a trained language
model the corpus, its unigram floor and the baseline's loss; the MDE when underpowered)."""
import pytest

import claims
from claims.lm import MIN_SEEDS
from particles.lm.studies import STUDIES

ALL = claims.load()


@pytest.mark.parametrize("claim_id", sorted(ALL))
def test_claim_verdict_matches_expect(claim_id):
    result = claims.run(ALL[claim_id], "quick")
    assert result.evidence is not None, result.error
    assert result.verdict == ALL[claim_id].expected("quick"), result.as_dict()
    if ALL[claim_id].method != "experiment":
        return
    numbers = result.evidence.numbers
    assert "n_seeds" in numbers, sorted(numbers)
    if numbers.get("study") in STUDIES:  # decided from committed language-model runs
        assert {"corpus_sha256", "unigram_entropy", "baseline_val_loss"} <= set(numbers), sorted(numbers)
        undecided = [c for c in numbers.get("comparisons", {}).values() if c.get("status") == "undecided"]
        if result.verdict == "inconclusive" and numbers["n_seeds"] >= MIN_SEEDS and undecided:
            assert "mde" in numbers and "n_needed" in numbers, sorted(numbers)

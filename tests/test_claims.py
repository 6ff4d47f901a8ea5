"""Every registered claim, at the quick budget: the computed verdict equals the pinned `expect`."""
import pytest

import claims

ALL = claims.load()


@pytest.mark.parametrize("claim_id", sorted(ALL))
def test_claim_verdict_matches_expect(claim_id):
    result = claims.run(ALL[claim_id], "quick")
    assert result.evidence is not None, result.error
    assert result.verdict == ALL[claim_id].expected("quick"), result.as_dict()

"""The inventory (claims/<paper>/inventory.py) and the ledger agree: every registered claim is named by an
item of its own paper, every claim an item names is registered, and docs/coverage.md is the page
the inventory generates."""
from pathlib import Path

import pytest

import claims
from claims._inventory import KINDS, Item, coverage, coverage_markdown, items

ROOT = Path(__file__).resolve().parent.parent
ALL = claims.load()
ITEMS = items()


def test_every_registered_claim_is_named_by_an_item_of_its_own_paper():
    named = {(i.paper, c) for i in ITEMS for c in i.claims}
    orphans = sorted(cid for cid, c in ALL.items() if (c.paper, cid) not in named)
    assert not orphans, f"claims missing from the inventory (claims/<paper>/inventory.py): {orphans}"


def test_every_claim_an_item_names_is_registered_and_of_that_paper():
    unknown = sorted({(i.paper, i.locator, c) for i in ITEMS for c in i.claims
                      if c not in ALL or ALL[c].paper != i.paper})
    assert not unknown, f"inventory items name unknown or foreign claims: {unknown}"


def test_items_are_unique_per_paper_and_locator_and_kind():
    keys = [(i.paper, i.locator, i.what) for i in ITEMS]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)


def test_an_item_needs_claims_or_a_reason_and_a_known_kind():
    with pytest.raises(ValueError, match="reason"):
        Item("yurii", "Table 3", "table", "OpenWebText losses")
    with pytest.raises(ValueError, match="kind"):
        Item("yurii", "Table 3", "tabel", "OpenWebText losses", reason="x")
    assert "table" in KINDS


def test_coverage_is_counted_from_the_items():
    toy = [Item("yurii", "Table 3", "table", "a", ("yurii:table-2",)),
           Item("yurii", "Table 4", "table", "b", reason="needs HellaSwag, not available offline")]
    assert coverage(toy) == {"yurii": {"items": 2, "covered": 1, "share": 0.5}}


def test_committed_coverage_page_is_the_generated_one():
    assert (ROOT / "docs" / "coverage.md").read_text() == coverage_markdown(ITEMS), \
        "docs/coverage.md is stale: run `python -m claims --coverage --markdown docs/coverage.md`"

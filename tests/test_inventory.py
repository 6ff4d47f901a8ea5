"""The inventory (claims/<paper>/inventory.py) and the ledger agree: every registered claim is named by an
item of its own paper, every claim an item names is registered, every item's level agrees with the
claims that check it (premise and extension claims never cover), every setting of the training
protocols (claims._protocol.PROTOCOLS) has an item, and docs/coverage.md is the page the inventory
generates."""
import importlib
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

import claims
from claims.__main__ import main
from claims._inventory import (COVERED, KINDS, LEVELS, Item, coverage, coverage_markdown, covering, items,
                               level_problems)
from claims._ledger import PAPERS
from claims._protocol import PROTOCOLS

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
        Item("yurii", "Table 3", "table", "OpenWebText losses", level="none")
    with pytest.raises(ValueError, match="kind"):
        Item("yurii", "Table 3", "tabel", "OpenWebText losses", reason="x", level="none")
    assert "table" in KINDS and "protocol" in KINDS


def test_an_item_states_a_level_consistent_with_its_claims_and_a_note():
    with pytest.raises(ValueError, match="level must be one of"):
        Item("yurii", "Table 3", "table", "losses", ("yurii:table-2",), level="most")
    with pytest.raises(ValueError, match="no claims is level 'none'"):
        Item("yurii", "Table 3", "table", "losses", reason="needs OpenWebText", level="full")
    for level in ("partial", "proxy", "prose-only"):
        with pytest.raises(ValueError, match="needs its note"):
            Item("yurii", "Table 3", "table", "losses", ("yurii:table-2",), level=level)
    assert Item("yurii", "Table 3", "table", "losses", ("yurii:table-2",)).level == "full"


def test_every_item_has_a_level_and_every_level_but_full_a_note():
    assert {i.level for i in ITEMS} <= set(LEVELS)
    missing = [(i.paper, i.locator, i.what) for i in ITEMS if i.level != "full" and not i.note.strip()]
    assert not missing, missing


def test_levels_agree_with_the_registry():
    """none <=> no covering claim; a premise or an extension claim never covers (claims.load())."""
    problems = level_problems(ITEMS, ALL)
    assert not problems, "\n".join(problems)
    for i in ITEMS:
        assert (i.level == "none") == (not covering(i, ALL)), (i.paper, i.locator, i.what)
        for c in i.claims:
            if ALL[c].premise or ALL[c].extension:
                assert c not in covering(i, ALL)


def test_a_premise_or_extension_claim_never_covers():
    registry = {"yurii:p": SimpleNamespace(premise=True, extension=False),
                "yurii:e": SimpleNamespace(premise=False, extension=True),
                "yurii:c": SimpleNamespace(premise=False, extension=False)}
    only_premises = Item("yurii", "§5.1", "prose", "causal", ("yurii:p", "yurii:e"), reason="x", level="proxy")
    assert covering(only_premises, registry) == ()
    assert any("no claim covers it" in p for p in level_problems([only_premises], registry))
    unnamed = Item("yurii", "§5.1", "prose", "causal", ("yurii:p",), reason="a premise", level="none")
    assert any("does not name" in p for p in level_problems([unnamed], registry))
    named = Item("yurii", "§5.1", "prose", "causal", ("yurii:p",), reason="only yurii:p, a premise", level="none")
    covered = Item("yurii", "§5.1", "prose", "causal", ("yurii:p", "yurii:c"))
    wrong_none = Item("yurii", "§5.1", "prose", "causal", ("yurii:c",), reason="yurii:c", level="none")
    assert level_problems([named, covered], registry) == []
    assert any("level 'none' but covered" in p for p in level_problems([wrong_none], registry))


def test_coverage_is_counted_from_the_items():
    toy = [Item("yurii", "Table 2", "table", "a", ("yurii:table-2",), "proxy scale", "proxy"),
           Item("yurii", "Table 3", "table", "b", ("yurii:sec-5-orderings",), "against the prose", "prose-only"),
           Item("yurii", "Table 4", "table", "c", reason="needs HellaSwag, not available offline", level="none"),
           Item("yurii", "Table 1", "table", "d", ("yurii:param-count",))]
    assert coverage(toy) == {"yurii": {
        "items": 4, "covered": 2, "share": 0.5, "full": 1, "full_share": 0.25,
        "levels": {"full": 1, "partial": 0, "proxy": 1, "prose-only": 1, "none": 1}}}
    for paper, row in coverage(ITEMS).items():
        mine = [i for i in ITEMS if i.paper == paper]
        assert row["items"] == len(mine) == sum(row["levels"].values())
        assert row["full_share"] == sum(i.level == "full" for i in mine) / len(mine)
        assert row["share"] == sum(i.level in COVERED for i in mine) / len(mine)
        assert row["covered"] == sum(i.covered for i in mine)


def test_every_protocol_setting_has_an_item():
    carried = {}
    for i in ITEMS:
        for key in i.settings:
            assert i.kind == "protocol", (i.locator, i.what)
            carried[key] = i
    for p in PROTOCOLS.values():
        for name in (*p.settings, *p.fixed, *p.open_choices):
            key = f"{p.tables}|{name}"
            assert key in carried, f"no inventory item for {key} (claims/{p.paper}/inventory.py: protocol_items)"
            assert carried[key].paper == p.paper


def _protocol_runs() -> dict[str, tuple]:
    out = {}
    for paper in PAPERS:
        out |= getattr(importlib.import_module(f"claims.{paper}.inventory"), "PROTOCOL_RUNS", {})
    return out


def test_protocol_runs_name_the_claims_that_use_each_protocol():
    """Each (claim, study) of a PROTOCOL_RUNS is a registered claim whose module names the protocol
    and the study; every protocol="..." in claims/ is in some PROTOCOL_RUNS."""
    runs = _protocol_runs()
    assert set(runs) == set(PROTOCOLS)
    for tables, pairs in runs.items():
        for cid, study in pairs:
            assert cid in ALL, cid
            source = Path(importlib.import_module(ALL[cid].check.__module__).__file__).read_text()
            assert f'"{tables}"' in source and f'"{study}"' in source, (cid, tables, study)
    used = {m for f in (ROOT / "claims").rglob("*.py") if not f.name.endswith("inventory.py")
            for m in re.findall(r'protocol="([^"]+)"', f.read_text())}
    assert used, "no protocol=\"...\" found in claims/"
    assert used <= set(runs), sorted(used - set(runs))


def test_protocol_item_levels_follow_the_run_configurations():
    for i in (i for i in ITEMS if i.settings):
        if i.level == "proxy":
            assert "the deviation is recorded" in i.note, i.what
        if i.level == "partial":
            assert "left open" in i.what or "no committed run" in i.note, i.what


def test_coverage_json_gives_every_item_its_level_and_note(capsys):
    assert main(["--coverage", "--json", "--only", "heatflow"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and all({"level", "note", "claims"} <= set(r) for r in rows)
    assert main(["--coverage", "--only", "yurii"]) == 0
    out = capsys.readouterr().out
    assert "prose-only" in out and "f+pa+px" in out


def test_committed_coverage_page_is_the_generated_one():
    assert (ROOT / "docs" / "coverage.md").read_text() == coverage_markdown(ITEMS), \
        "docs/coverage.md is stale: run `python -m claims --coverage --markdown docs/coverage.md`"

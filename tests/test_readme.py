"""The README's ledger summary and docs/training.md's loss tables are generated from the committed
ledger page docs/claims.md (`python tools/sync_readme.py`), never typed: these tests fail as soon
as they disagree."""
import re
from pathlib import Path

import pytest

from claims._report import (SUMMARY_BEGIN, SUMMARY_END, TABLES_BEGIN, TABLES_END, ordering_blocks,
                            ordering_tables, page_verdicts, sync_readme, sync_tables)

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "claims.md").read_text()
README = (ROOT / "README.md").read_text()
TRAINING = (ROOT / "docs" / "training.md").read_text()


def test_readme_summary_and_verdict_mentions_match_the_ledger_page():
    assert sync_readme(README, page_verdicts(PAGE)) == README, \
        "README.md is out of date with docs/claims.md: run `.venv/bin/python tools/sync_readme.py`"


def test_page_rows_agree_with_the_page_count_table():
    table = dict(re.findall(r"^\| (holds|holds-with-correction|fails|inconclusive|error) \| (\d+) \|$",
                            PAGE, re.M))
    verdicts = page_verdicts(PAGE)
    assert {v: int(n) for v, n in table.items()} == {v: list(verdicts.values()).count(v) for v in table}
    assert sum(map(int, table.values())) == len(verdicts)


def test_sync_rewrites_stale_counts_and_mentions():
    verdicts = {"yurii:a": "holds", "yurii:b": "fails", "heatflow:c": "holds-with-correction"}
    stale = (f"x\n{SUMMARY_BEGIN}\n7 claims: 7 hold as printed.\n{SUMMARY_END}\n"
             "finding (`yurii:b` → holds), other (`heatflow:c` → fails)\n")
    new = sync_readme(stale, verdicts)
    assert "3 claims: 1 hold as printed, 1 hold only with a stated correction, 1 fail, 0 are inconclusive." in new
    assert "- Fail (1): `yurii:b`." in new and "(`yurii:b` → fails)" in new
    assert "(`heatflow:c` → holds-with-correction)" in new
    assert sync_readme(new, verdicts) == new


def test_sync_refuses_unknown_ids_and_a_missing_block():
    with pytest.raises(ValueError, match="yurii:zzz"):
        sync_readme(f"{SUMMARY_BEGIN}\n{SUMMARY_END}\n`yurii:zzz` → holds\n", {"yurii:a": "holds"})
    with pytest.raises(ValueError, match="no block"):
        sync_readme("no markers here", {"yurii:a": "holds"})
    with pytest.raises(ValueError, match="no claim rows"):
        page_verdicts("# empty page\n")


def test_training_doc_tables_match_the_ledger_page():
    assert sync_tables(TRAINING, PAGE) == TRAINING, \
        "docs/training.md is out of date with docs/claims.md: run `.venv/bin/python tools/sync_readme.py`"


def test_an_ordering_table_shows_the_printed_and_our_numbers_and_round_trips():
    numbers = {"n_seeds": 3, "printed": {"A": 1.083, "B": 1.099},
               "measured": {"A": {"mean": 1.3453, "std": 0.0009}, "B": {"mean": 1.3708, "std": 0.0025}},
               "comparisons": {"A < B": {"printed": [1.083, 1.099], "claimed": 0.0199, "mean_diff": 0.0254,
                                         "ci95": [0.0174, 0.0335], "mde": 0.0283, "status": "agree"}}}
    lines = ordering_tables("yurii:table-2", numbers)
    assert "| A | 1.083 | 1.3453 ± 0.0009 |" in lines and "| B | 1.099 | 1.3708 ± 0.0025 |" in lines
    assert "| A < B | 1.083, 1.099 | +0.0199 | +0.0254 [+0.0174, +0.0335] | 0.0283 | agree |" in lines
    assert ordering_tables("yurii:x", {"printed": {}}) == []
    page = "| `yurii:table-2` | l | s | experiment | holds |\n" + "\n".join(lines)
    doc = f"intro\n{TABLES_BEGIN}\nSTALE\n{TABLES_END}\nrest"
    new = sync_tables(doc, page)
    assert "#### `yurii:table-2` → holds" in new and ordering_blocks(page)["yurii:table-2"] in new
    assert new.startswith("intro\n") and new.endswith("\nrest") and "STALE" not in new
    assert sync_tables(new, page) == new

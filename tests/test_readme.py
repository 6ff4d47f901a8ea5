"""The README's ledger summary is generated from the committed ledger page docs/claims.md
(`python tools/sync_readme.py`), never typed: this test fails as soon as they disagree."""
import re
from pathlib import Path

import pytest

from claims._report import SUMMARY_BEGIN, SUMMARY_END, page_verdicts, sync_readme

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "claims.md").read_text()
README = (ROOT / "README.md").read_text()


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

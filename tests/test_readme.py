"""The README's ledger summary and docs/training.md's loss tables are generated from the committed
ledger pages docs/ledger/<paper>.md (`python tools/sync_readme.py`), never typed: these tests fail
as soon as they disagree."""
import re
from pathlib import Path

import pytest

from claims._ledger import PAPERS
from claims._pages import read_pages
from claims._report import (COVERAGE_BEGIN, COVERAGE_END, SUMMARY_BEGIN, SUMMARY_END, TABLES_BEGIN,
                            TABLES_END, ordering_blocks, ordering_tables, page_kinds, page_verdicts,
                            sync_coverage, sync_readme, sync_tables)

ROOT = Path(__file__).resolve().parent.parent
INDEX = (ROOT / "docs" / "claims.md").read_text()
PAGE = read_pages(ROOT / "docs" / "claims.md")
README = (ROOT / "README.md").read_text()
TRAINING = (ROOT / "docs" / "training.md").read_text()


def test_readme_summary_and_verdict_mentions_match_the_ledger_page():
    assert sync_readme(README, page_kinds(PAGE)) == README, \
        "README.md is out of date with docs/ledger/: run `.venv/bin/python tools/sync_readme.py`"


def test_readme_coverage_table_is_the_coverage_pages_with_both_shares_per_paper():
    coverage = (ROOT / "docs" / "coverage.md").read_text()
    assert sync_coverage(README, coverage) == README, \
        "README.md's coverage table is out of date with docs/coverage.md: run `.venv/bin/python tools/sync_readme.py`"
    block = README[README.index(COVERAGE_BEGIN):README.index(COVERAGE_END)]
    assert "| full share | full + partial + proxy share |" in block
    assert all(f"| `{paper}` |" in block for paper in PAPERS)
    with pytest.raises(ValueError, match="no block"):
        sync_coverage("no markers", coverage)


def test_the_index_counts_are_the_per_paper_rows():
    """The index's last table row ('all') counts every class over the per-paper pages' rows."""
    kinds = page_kinds(PAGE)
    header = re.search(r"^\| paper \| claims \| (.*?) \| misprints, errata", INDEX, re.M).group(1).split(" | ")
    cells = re.search(r"^\| all \| (\d+) \| (.*?) \| (\d+), (\d+) \|", INDEX, re.M)
    assert int(cells.group(1)) == len(kinds)
    assert dict(zip(header, map(int, cells.group(2).split(" | ")))) == {
        k: sum(kind == k for _, kind, _ in kinds.values()) for k in header}
    roots = {k: len({r for _, kind, r in kinds.values() if kind == k}) for k in ("misprint", "erratum")}
    assert (int(cells.group(3)), int(cells.group(4))) == (roots["misprint"], roots["erratum"])


def test_sync_counts_misprints_and_errata_by_root_cause_and_proxy_holds_apart():
    kinds = {"yurii:a": ("holds", "holds", "yurii:a"), "yurii:b": ("fails", "erratum", "yurii:b"),
             "heatflow:c": ("holds-with-correction", "misprint", "heatflow:c"),
             "heatflow:c2": ("holds-with-correction", "misprint", "heatflow:c"),
             "heatflow:d": ("holds", "ambiguity", "heatflow:d"),
             "sympformer:e": ("fails", "premise", "sympformer:e"),
             "yurii:f": ("holds", "proxy", "yurii:f"), "yurii:g": ("fails", "proxy", "yurii:g")}
    stale = (f"x\n{SUMMARY_BEGIN}\n7 claims: 7 hold as printed.\n{SUMMARY_END}\n"
             "finding (`yurii:b` → holds), other (`heatflow:c` → fails)\n")
    new = sync_readme(stale, kinds)
    flat = " ".join(new.split())
    assert "8 claims. Of the 7 that check a statement the paper makes: 1 hold as printed;" in flat
    assert "1 misprint (false as printed" in flat and "and 1 erratum (false" in flat
    assert "2 errors of the papers, counted once per root cause, which make 1 further statement fail" in flat
    assert "1 ambiguity" in flat and "2 experiments decided at proxy scale (1 hold, 1 fail there" in flat
    assert "1 claim checks an unstated premise" in flat
    assert "(1): `heatflow:c` (with `heatflow:c2`)." in flat and "(`yurii:b` → fails)" in new
    assert "- Unstated premises (1): `sympformer:e` (fails)." in new
    assert "(1): `heatflow:d`." in new and "`yurii:f` (holds), `yurii:g` (fails)" in new
    assert "(`heatflow:c` → holds-with-correction)" in new
    assert sync_readme(new, kinds) == new


def test_sync_refuses_unknown_ids_and_a_missing_block():
    with pytest.raises(ValueError, match="yurii:zzz"):
        sync_readme(f"{SUMMARY_BEGIN}\n{SUMMARY_END}\n`yurii:zzz` → holds\n",
                    {"yurii:a": ("holds", "holds", "yurii:a")})
    with pytest.raises(ValueError, match="no block"):
        sync_readme("no markers here", {"yurii:a": ("holds", "holds", "yurii:a")})
    with pytest.raises(ValueError, match="no claim rows"):
        page_verdicts("# empty page\n")


def test_training_doc_tables_match_the_ledger_page():
    assert sync_tables(TRAINING, PAGE) == TRAINING, \
        "docs/training.md is out of date with docs/ledger/: run `.venv/bin/python tools/sync_readme.py`"


def test_an_ordering_table_shows_the_printed_and_our_numbers_and_round_trips():
    """An experiment claim's block: scale and deviations in words, every sub-assertion with its
    CI and status, the paper's table beside ours, the table agreement with every printed pair,
    and the flatness of every arm; a claim without these keys has no block."""
    side = {"params": 217664, "layers_heads_width": "4/4/64", "context": 64, "tokens_seen": 8192000,
            "tokenizer": "bytes", "corpus": "Shakespeare", "hardware": "CPU"}
    numbers = {"n_seeds": 3, "printed": {"A": 1.083, "B": 1.099},
               "measured": {"A": {"mean": 1.3453, "std": 0.0009}, "B": {"mean": 1.3708, "std": 0.0025}},
               "scale": {"ours": side, "paper": dict(side, params=124e6, params_printed="124M", source="App. A",
                                                     tokens_seen=4.9e9),
                         "params_ratio_paper_over_ours": 571.0, "tokens_ratio_paper_over_ours": 600.0},
               "deviations": [{"setting": "n_layer", "paper": 12, "ours": 4}],
               "sub_assertions": {"A lowest": {"A < B": {"mean_diff": 0.0254, "ci95": [0.0174, 0.0335],
                                                         "status": "holds"}},
                                  "A's member (its confirmatory sample)": {
                                      "A < B": {"mean_diff": 0.03, "ci95": [0.02, 0.04], "status": "holds",
                                                "n_seeds": 4}}},
               "table_agreement": {"pairs": {"A < B": {"printed": [1.083, 1.099], "mean_diff": 0.0254,
                                                       "ci95": [0.0174, 0.0335], "status": "agree"}},
                                   "status_counts": {"agree": 1, "reversed": 0, "undecided": 0},
                                   "share_reproduced": 1.0, "kendall_tau": 1.0, "kendall_tau_ci95": [1.0, 1.0]},
               "flatness": {"rule": "last 20% < 2%", "arms_above_rule": ["B"],
                            "per_arm": {"A": {"mean": 0.01, "max": 0.015}, "B": {"mean": 0.02, "max": 0.025}}}}
    lines = ordering_tables("yurii:table-2", numbers)
    assert "| A | 1.083 | 1.3453 ± 0.0009 |" in lines and "| B | 1.099 | 1.3708 ± 0.0025 |" in lines
    assert "| A lowest | A < B | +0.0254 [+0.0174, +0.0335] | holds |" in lines
    # a member decided on other seeds than the table's says how many
    assert "| A's member (its confirmatory sample) | A < B | +0.0300 [+0.0200, +0.0400], 4 seeds | holds |" in lines
    assert "| A < B | 1.083, 1.099 | +0.0254 [+0.0174, +0.0335] | agree |" in lines
    text = "\n".join(lines)
    assert "571x our parameters" in text and "n_layer 12 → 4" in text and "Above the rule: B." in text
    assert ordering_tables("yurii:x", {"printed": {}}) == []
    page = "| `yurii:table-2` | l | s | experiment | holds |\n" + "\n".join(lines)
    doc = f"intro\n{TABLES_BEGIN}\nSTALE\n{TABLES_END}\nrest"
    new = sync_tables(doc, page)
    assert "#### `yurii:table-2` → holds" in new and ordering_blocks(page)["yurii:table-2"] in new
    assert new.startswith("intro\n") and new.endswith("\nrest") and "STALE" not in new
    assert sync_tables(new, page) == new

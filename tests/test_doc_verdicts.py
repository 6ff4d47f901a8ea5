"""The hand-written pages of docs/ state verdicts and classes that the ledger computes: every
mention of a claim with its verdict (`` `id` — verdict ``, a table row `` | `id` | verdict | ``,
a bold ``**verdict**`` after the id on its line) must agree with the committed ledger pages
docs/ledger/<paper>.md, which `python -m figures` regenerates. A class named after the verdict,
"(misprint)", "(erratum)", "(ambiguity)" or ", with an ambiguity", must be the class the ledger
computes. A page that tells a claim's history writes the current verdict first ("**inconclusive**
(was: fails)"). Generated pages (the ledger, the errata sheets, the coverage page) and the
referees' record docs/rejudging.md (each referee's finding, not the ledger's) are not read here."""
import re
from pathlib import Path

import pytest

from claims._ledger import PAPERS
from claims._pages import read_pages
from claims._report import page_kinds

ROOT = Path(__file__).resolve().parent.parent
NOT_NARRATIVE = {"claims.md", "coverage.md", "rejudging.md"}
NARRATIVE = sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name not in NOT_NARRATIVE)
KINDS = page_kinds(read_pages(ROOT / "docs" / "claims.md"))

_ID = r"`((?:" + "|".join(PAPERS) + r"):[\w.\-]+)`"
_VERDICT = r"(holds-with-correction|holds with correction|holds|fails|inconclusive)"
_CLASS = r"(\s*\((?:misprint|erratum|ambiguity|ambiguous)\)|,? with an ambiguity)?"
# the verdict introduced by a dash, an arrow, a table bar or bold type, later on the id's line
MENTION = re.compile(_ID + r"[^`\n]{0,160}?(?:—|→|\||\*\*)\s*\**" + _VERDICT + r"\b\**" + _CLASS,
                     re.IGNORECASE)


def mentions(text: str):
    """(claim id, verdict, class or None) for each verdict mention in `text`."""
    for m in MENTION.finditer(text):
        verdict = m.group(2).lower().replace(" with correction", "-with-correction")
        marker = (m.group(3) or "").strip(" ,()").lower()
        kind = {"": None, "ambiguous": "ambiguity", "with an ambiguity": "ambiguity"}.get(marker, marker)
        yield m.group(1), verdict, kind


def test_the_mention_pattern_reads_the_forms_the_pages_use():
    text = ("### `heatflow:a` — the bound — **holds with correction** (misprint)\n"
            "| `heatflow:b` | fails | none |\n"
            "- **`heatflow:c` — holds, with an ambiguity.** For ...\n"
            "`heatflow:d` **inconclusive** (was: fails); `heatflow:e` checks that it holds\n")
    assert list(mentions(text)) == [("heatflow:a", "holds-with-correction", "misprint"),
                                    ("heatflow:b", "fails", None), ("heatflow:c", "holds", "ambiguity"),
                                    ("heatflow:d", "inconclusive", None)]


@pytest.mark.parametrize("name", NARRATIVE)
def test_every_verdict_a_page_states_is_the_ledgers(name):
    wrong = []
    for cid, verdict, kind in mentions((ROOT / "docs" / name).read_text()):
        if cid not in KINDS:
            wrong.append(f"{cid}: no such claim on the ledger pages")
            continue
        ledger_verdict, ledger_kind, _ = KINDS[cid]
        if verdict != ledger_verdict or (kind is not None and kind != ledger_kind):
            wrong.append(f"{cid}: the page says {verdict}{f' ({kind})' if kind else ''}, "
                         f"the ledger {ledger_verdict} ({ledger_kind})")
    assert not wrong, f"docs/{name} disagrees with docs/ledger/:\n" + "\n".join(wrong)

"""Every claim of the sympformer modules quotes seed 000 verbatim (issue 28).

A `paper_text` is prose with the paper's formulas in LaTeX between `$…$` (the extraction prints
each formula rendered, then in LaTeX, then sometimes spoken; the quote keeps the LaTeX form), and
" … " marks an omission. Each piece (a run of prose between formulas and omissions, or one
formula) must occur in the seed text as printed, whitespace collapsed. The seed texts live
outside the repository (../shared/seeds/); without them the test is skipped, saying why.
"""
from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import pytest

import claims

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "000_63047fa14d9c3172.txt"
MODULES = ("claims.sympformer.hamiltonian", "claims.sympformer.schemes", "claims.sympformer.nesterov",
           "claims.sympformer.linear", "claims.sympformer.softmax", "claims.sympformer.flows",
           "claims.sympformer.remarks", "claims.sympformer.consistency")
for _module in MODULES:  # only these modules: the test does not depend on other papers' modules
    if importlib.util.find_spec(_module) is not None:
        importlib.import_module(_module)
MINE = sorted(cid for cid, c in claims.registry().items()
              if cid.startswith("sympformer:") and c.check.__module__ in MODULES)


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def pieces(paper_text: str) -> list[str]:
    """The prose runs and formulas of a quote, in order (empty pieces dropped)."""
    out = []
    for i, part in enumerate(paper_text.split("$")):
        if i % 2:  # a formula
            out.append(_collapse(part))
        else:
            out += [_collapse(p) for p in part.split("…")]
    return [p for p in out if p]


def test_pieces_split_prose_formulas_and_omissions():
    assert pieces(r"a $x^{2}$ b … c $y$") == ["a", "x^{2}", "b", "c", "y"]
    assert pieces("no formula") == ["no formula"]


def test_the_modules_register_claims():
    # the list below is not empty: a renamed module would otherwise make the quote test vacuous
    assert len(MINE) >= 29, MINE


@pytest.mark.parametrize("claim_id", MINE)
def test_paper_text_is_verbatim(claim_id):
    if not SEED.exists():
        pytest.skip(f"seed text not found at {SEED} (outside the repository)")
    seed = _collapse(SEED.read_text(encoding="utf-8"))
    quote = claims.registry()[claim_id].paper_text
    assert quote.strip(), f"{claim_id}: no paper_text"
    assert quote.count("$") % 2 == 0, f"{claim_id}: unbalanced $ in paper_text"
    missing = [p for p in pieces(quote) if p not in seed]
    assert not missing, f"{claim_id}: not verbatim in seed 000: {missing}"

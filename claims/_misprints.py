"""Misprints inside quoted passages (issue 38): a symbol, label, index or reference printed at one
place for the object the paper itself names otherwise at another. Each is one claim of method
`consistency`, held against the paper's own text, never against ours:

- the printed form occurs in the passage quoted from its locator;
- the intended form occurs in the passage quoted from the place where the paper shows it
  (`intended_at`), and the printed form does not occur there (the paper names the object by the
  intended form, not by the printed one);
- the printed form is not defined anywhere the claim quotes (`undefined`: the definitions the
  passage relies on, quoted, none of which binds the printed form).

The printed text is false as printed when all three hold; the correction (the intended form)
holds by the same evidence. A transcription that does not contain what it should is an error of
ours, not a verdict: the check then raises, and the ledger shows an error row.
"""
from __future__ import annotations

from dataclasses import dataclass

from ._ledger import PAPERS, Slip, claim, decide_readings, reading


@dataclass(frozen=True)
class Misprint:
    label: str              # the claim id after "PAPER:" ("misprint-result-3-labels")
    locator: str            # where the misprint is printed
    statement: str          # in our words
    printed_passage: str    # verbatim from the paper at `locator`
    printed: str            # the misprinted form, a substring of `printed_passage`
    intended_at: str        # where the paper shows the intended form
    intended_passage: str   # verbatim from the paper at `intended_at`
    intended: str           # the intended form, a substring of `intended_passage`
    should_read: str        # what the passage at `locator` should read
    referee: str            # the two referees' finding
    root_cause: str = ""


def _check(m: Misprint):
    def check(budget: str):
        missing = [name for name, text, part in (("printed", m.printed_passage, m.printed),
                                                 ("intended", m.intended_passage, m.intended))
                   if part not in text]
        if missing:
            raise ValueError(f"{m.label}: the transcription lacks the {' and '.join(missing)} form")
        elsewhere = m.printed in m.intended_passage
        printed_holds = elsewhere   # the paper names the object by the printed form where it shows it
        return decide_readings(
            [reading(f"as printed: {m.printed!r} at {m.locator}", printed_holds,
                     printed_in_intended_passage=elsewhere)],
            correction_holds=m.intended in m.intended_passage and not elsewhere,
            correction=m.should_read,
            criterion=("the printed form occurs at the locator; the paper's own form of the same "
                       f"object, {m.intended!r}, occurs at {m.intended_at} and the printed form does "
                       "not: false as printed, the intended form shown by the paper (string search in "
                       "the two verbatim passages)"),
            numbers={"printed": m.printed, "intended": m.intended, "intended_at": m.intended_at},
            counterexample={"printed_at": m.locator, "printed": m.printed, "paper_shows": m.intended})
    return check


def register_misprints(paper: str, misprints: tuple[Misprint, ...]) -> None:
    """Register each misprint of `paper` as the claim `paper:label` (kind `misprint`)."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {sorted(PAPERS)}, got {paper!r}")
    for m in misprints:
        claim(f"{paper}:{m.label}", locator=m.locator, statement=m.statement, method="consistency",
              expect="holds-with-correction", referee=m.referee,
              paper_text=f"[{m.locator}] {m.printed_passage}\n[{m.intended_at}] {m.intended_passage}",
              slip=Slip(printed=m.printed, should_read=m.should_read, intended_at=m.intended_at,
                        root_cause=m.root_cause))(_check(m))


def inventory_items(paper: str, misprints: tuple[Misprint, ...]) -> tuple:
    """One inventory item per misprint (a checkable item of the paper, covered by its claim)."""
    from ._inventory import Item
    return tuple(Item(paper, m.locator, "misprint", m.statement, (f"{paper}:{m.label}",)) for m in misprints)

"""The inventory: every checkable item of each paper, section by section, and what checks it.

An `Item` is one checkable statement of a paper as an independent reader would list it (a
theorem, proposition, lemma, remark with mathematical content, an equation that states a
property, a table or figure that reports a result, a prose claim of a result, a parameter count).
It names the ledger claims that check it, or the reason none can; a reason that names a proxy
claim lists that claim too (the item is then covered by the proxy, and the reason says so).
Coverage is measured from this registry, never asserted: `python -m claims --coverage`.

One module per paper (`claims/<paper>/inventory.py`, beside its claims) defines ``ITEMS``, in the paper's order.
`tests/test_inventory.py` keeps it in sync with the ledger: every registered claim is named by an
item of its own paper, and every claim an item names is registered.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Iterable

from ._ledger import PAPERS

KINDS = ("theorem", "proposition", "lemma", "corollary", "remark", "example", "equation",
         "algorithm", "table", "figure", "prose", "count",
         "misprint")  # a symbol, label or index printed for the object the paper names otherwise


@dataclass(frozen=True)
class Item:
    """One checkable item: `locator` as the paper numbers it ("Proposition 4.3", "§6.2, Table 1"),
    its `kind`, a one-line `what` in our words, the ledger `claims` that check it, and the
    `reason` when none can (or what a proxy claim checks instead)."""

    paper: str
    locator: str
    kind: str
    what: str
    claims: tuple[str, ...] = ()
    reason: str = ""

    def __post_init__(self):
        if self.paper not in PAPERS:
            raise ValueError(f"paper must be one of {sorted(PAPERS)}, got {self.paper!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r} ({self.locator})")
        if not self.locator or not self.what:
            raise ValueError(f"an item needs a locator and a description, got {self!r}")
        object.__setattr__(self, "claims", tuple(self.claims))
        if not self.claims and not self.reason:
            raise ValueError(f"item {self.paper} {self.locator!r}: name the claims that check it "
                             "or the reason none can")

    @property
    def covered(self) -> bool:
        return bool(self.claims)

    def as_dict(self) -> dict:
        return {"paper": self.paper, "locator": self.locator, "kind": self.kind, "what": self.what,
                "claims": list(self.claims), "reason": self.reason}


def items(papers: Iterable[str] | None = None) -> list[Item]:
    """Every item of `papers` (default: all five), paper by paper in the papers' order."""
    out: list[Item] = []
    for paper in papers or PAPERS:
        module = importlib.import_module(f"claims.{paper}.inventory")
        for item in module.ITEMS:
            if item.paper != paper:
                raise ValueError(f"claims/{paper}/inventory.py lists an item of {item.paper}: {item}")
            out.append(item)
    return out


def coverage(all_items: list[Item]) -> dict[str, dict]:
    """Per paper: items, covered, share (covered / items)."""
    out = {}
    for paper in PAPERS:
        mine = [i for i in all_items if i.paper == paper]
        if mine:
            n = sum(i.covered for i in mine)
            out[paper] = {"items": len(mine), "covered": n, "share": n / len(mine)}
    return out


def coverage_table(all_items: list[Item]) -> str:
    rows = coverage(all_items)
    lines = [f"{'paper':18s} {'items':>5s} {'covered':>7s} {'share':>6s}"]
    lines += [f"{p:18s} {r['items']:5d} {r['covered']:7d} {r['share']:6.1%}" for p, r in rows.items()]
    return "\n".join(lines)


def coverage_markdown(all_items: list[Item]) -> str:
    """docs/coverage.md: the per-paper shares, then every item with its claims or reason."""
    rows = coverage(all_items)
    out = ["# Coverage: every checkable item of the five papers", "",
           "Generated from the inventory (`claims/<paper>/inventory.py`) by `python -m figures` "
           "(or `python -m claims --coverage --markdown docs/coverage.md`); do not edit by hand.",
           "An item is covered when a ledger claim checks it (a proxy claim counts when the reason "
           "names what the proxy checks instead); verdicts are on [claims.md](claims.md).", "",
           "| paper | items | covered | share |", "|---|---|---|---|"]
    out += [f"| `{p}` | {r['items']} | {r['covered']} | {r['share']:.1%} |" for p, r in rows.items()]
    for paper in rows:
        out += ["", f"## `{paper}` ({PAPERS[paper]})", "",
                "| locator | kind | item | claims | note |", "|---|---|---|---|---|"]
        for i in (i for i in all_items if i.paper == paper):
            cl = ", ".join(f"`{c}`" for c in i.claims) or "—"
            out.append(f"| {i.locator} | {i.kind} | {i.what} | {cl} | {i.reason} |")
    return "\n".join(out) + "\n"

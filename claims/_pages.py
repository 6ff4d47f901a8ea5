"""The ledger's pages: an index (docs/claims.md: the tally, the counts per paper by class, links),
one page per paper (docs/ledger/<paper>.md: every claim with its evidence) and one errata sheet
per paper (docs/errata/<paper>.md: what an author can act on). `pages` renders them all from one
list of results, as paths relative to the index's folder; `write_pages` writes them atomically;
`read_pages` reads the per-paper pages back (the README's summary and docs/training.md's tables
are generated from them by tools/sync_readme.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from theory.io import atomic_write_text

from ._ledger import KINDS, PAPERS, Result
from ._report import (_APART, _MARK, _TABLED, _fmt, _full, _tally_line, _verdict_cell, ordering_tables,
                      tallies)

INDEX = "claims.md"
LEDGER_DIR, ERRATA_DIR = "ledger", "errata"


def ledger_path(paper: str) -> str:
    return f"{LEDGER_DIR}/{paper}.md"


def errata_path(paper: str) -> str:
    return f"{ERRATA_DIR}/{paper}.md"


def _rows(results: Iterable[Result]) -> list[tuple[str, str, str]]:
    return [(r.verdict, r.kind, r.claim.root_cause) for r in results]


def _anchor(cid: str) -> str:
    """The anchor of a claim's section on its paper's page (an explicit `<a id>` before its heading)."""
    return "".join(ch for ch in cid.lower() if ch.isalnum() or ch in "-_ ").replace(" ", "-")


INTRO = (
    "Verdicts are computed by each check from its evidence by the criterion shown; `expect` is the "
    "verdict established earlier, kept as a regression pin. Each claim's class says what the verdict "
    "says of the paper (docs/architecture.md, \"Verdict classes\"): *holds* as printed; a "
    "*misprint* is false as printed with the intended form shown by the paper itself (an erratum of "
    "the typo class); an *erratum* is false under every admissible reading, its correction derived; "
    "an *ambiguity* holds under one reading the words support and fails under another; *premise* and "
    "*extension* claims check what the paper does not state and are never counted as its error. A "
    "reading must be supported by the words as printed: a reading that changes a printed symbol is a "
    "correction, and a stricter or rescuing statement the check invents is no reading (both are shown "
    "as *not admitted*, with the rule). One slip that makes several statements fail is counted once, "
    "at its root cause.")
PROXY = (
    "Language-model experiment verdicts are at proxy scale: byte-level models of 0.2-0.4M parameters "
    "on a pinned Shakespeare corpus, trained on a CPU (the papers: BPE tokens of TinyStories or "
    "OpenWebText on GPUs; seed 000's models have 3.4-3.7M parameters, 9-15x ours, seeds 002 and "
    "004's 124-354M, about 500-1600x); each states its `scale` and its `deviations` from the paper's "
    "protocol. A verdict there says what holds at that scale, on the sign of each difference the "
    "paper asserts (at 3-5 seeds a \"tie\" can be shown only as a significant difference of the other "
    "side being absent, never proven); holds and fails there are counted apart, as *proxy*. An "
    "experiment at the paper's own scale that fails is *not reproduced*, never an erratum.")


def _claim_rows(rows: list[Result]) -> list[str]:
    out = ["| claim | locator | statement | method | verdict |", "|---|---|---|---|---|"]
    for r in rows:
        c = r.claim
        verdict = _verdict_cell(r) + ("" if r.as_expected else f" (expected {c.expected(r.budget)})")
        out.append(f"| `{c.id}` | {c.locator} | {c.statement} | {c.method} | {verdict} |")
    return out


def _quote(text: str) -> list[str]:
    return ["- paper text:", ""] + [f"  > {line}" if line else "  >" for line in text.splitlines()] + [""]


def _details(r: Result) -> list[str]:
    c = r.claim
    out = ["", f'<a id="{_anchor(c.id)}"></a>', "", f"### `{c.id}`: {_verdict_cell(r)}", ""]
    if c.paper_text:
        out += _quote(c.paper_text)
    if c.repeats:
        out.append(f"- repeats: `{c.repeats}` checks the same sentence; it is counted once, there")
    if r.evidence is None:
        return out + ["```", (r.error or "").strip(), "```"]
    e = r.evidence.as_dict()
    out.append(f"- criterion: {e['criterion']}")
    for rd in e["readings"]:
        extra = {k: v for k, v in rd.items() if k not in ("reading", "verdict", "not_admitted")}
        out.append(f"- reading{' (not admitted)' if rd.get('not_admitted') else ''}: {rd['reading']} "
                   f"→ {rd['verdict']}" + (f" ({_fmt(extra)})" if extra else "")
                   + (f"; {rd['not_admitted']}" if rd.get("not_admitted") else ""))
    if e["ambiguity"]:
        out.append(f"- ambiguity: {e['ambiguity']}")
    tables = ordering_tables(c.id, e["numbers"])
    for k, v in e["numbers"].items():
        if not (tables and k in _TABLED):
            out.append(f"- {k}: {_fmt(v, _full(k))}")
    out += tables
    if e["correction"]:
        out.append(f"- correction: {e['correction']}")
    if e["counterexample"]:
        out.append(f"- counterexample: {_fmt(e['counterexample'])}")
    if c.slip is not None:
        out.append(f"- printed: {c.slip.printed}; should read: {c.slip.should_read}"
                   + (f"; the paper shows the intended form at {c.slip.intended_at}" if c.slip.intended_at else "")
                   + (f"; a consequence of `{c.slip.root_cause}`" if c.slip.root_cause else ""))
    if c.referee:
        out.append(f"- referee: {c.referee}")
    for who, finding in (c.review or {}).items():
        if who == "decided" and c.method == "experiment":
            # the review decided the sentence's readings; the class follows the committed runs
            finding += (" (at the time of the review; an experiment's class follows its committed "
                        "runs, `Result.as_reviewed`)")
        out.append(f"- review {who}: {finding}")
    if c.figures:
        out.append("- figures: " + ", ".join(f"[{f}](../figures/{f}.png)" for f in c.figures))
    return out


def paper_page(results: list[Result], paper: str, budget: str) -> str:
    rows = [r for r in results if r.claim.paper == paper]
    statements = [r for r in rows if r.kind not in _APART]
    apart = [r for r in rows if r.kind in _APART]
    out = [f"# The claims ledger: `{paper}` ({PAPERS[paper]})", "",
           f"Generated by `python -m figures` (or `python -m claims --markdown docs/claims.md`); do not "
           f"edit by hand. Budget: `{budget}`. The index of all five papers: [claims.md](../{INDEX}); "
           f"this paper's errata sheet: [{errata_path(paper)}](../{errata_path(paper)}).", "",
           INTRO, "", PROXY, "", _tally_line(tallies(_rows(rows))), ""] + _claim_rows(statements)
    if apart:
        out += ["", "## Unstated premises, extensions and repeats", "",
                "Not statements of the paper: assumptions its arguments need, sharper statements than "
                "it makes, or a sentence another claim counts. Never counted as the paper's errors.", ""]
        out += _claim_rows(apart)
    out += ["", "## Evidence"]
    for r in statements + apart:
        out += _details(r)
    return "\n".join(out) + "\n"


def index_page(results: list[Result], budget: str) -> str:
    t = tallies(_rows(results))
    shown = [k for k in KINDS if t[k]]
    out = ["# The claims ledger", "",
           "Generated by `python -m figures` (or `python -m claims --markdown docs/claims.md`); do not "
           f"edit by hand. Budget: `{budget}`. Every claim, with its quote, criterion, readings and "
           "evidence, is on its paper's page; each paper's errors are on its errata sheet.", "",
           INTRO, "", PROXY, "", _tally_line(t), "",
           "| paper | claims | " + " | ".join(shown) + " | misprints, errata by root cause | page | errata sheet |",
           "|---|---|" + "---|" * len(shown) + "---|---|---|"]
    for paper, seed in PAPERS.items():
        rows = [r for r in results if r.claim.paper == paper]
        if not rows:
            continue
        pt = tallies(_rows(rows))
        out.append(f"| `{paper}` ({seed[:3]}) | {len(rows)} | " + " | ".join(str(pt[k]) for k in shown)
                   + f" | {pt['misprint_roots']}, {pt['erratum_roots']} | [{ledger_path(paper)}]({ledger_path(paper)})"
                   f" | [{errata_path(paper)}]({errata_path(paper)}) |")
    out.append(f"| all | {t['claims']} | " + " | ".join(str(t[k]) for k in shown)
               + f" | {t['misprint_roots']}, {t['erratum_roots']} | | |")
    out += ["", "Columns are the classes of `Result.kind` (`python -m claims --json`, key `kind`); "
            f"{', '.join(f'`{k}`' for k in _APART)} are not statements of the papers and are never "
            "counted as their errors. The coverage of each paper's checkable items: "
            "[coverage.md](coverage.md)."]
    return "\n".join(out) + "\n"


def _one_line(x, limit: int = 300) -> str:
    text = " ".join(_fmt(x).split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def errata_page(results: list[Result], paper: str) -> str:
    """The paper's errata sheet, in the form of a journal erratum: each root cause (location, the
    printed text, what it should read, class, consequences, the evidence in one line and a link to
    its claim), then the clarifications suggested (ambiguities) and the premises its arguments
    need."""
    rows = [r for r in results if r.claim.paper == paper]
    slips = [r for r in rows if r.kind in ("misprint", "erratum")]
    roots = [r for r in slips if r.claim.root_cause == r.claim.id]
    link = f"../{ledger_path(paper)}"
    out = [f"# Errata: `{paper}` ({PAPERS[paper]})", "",
           "Generated from the claims ledger by `python -m figures` (or `python -m claims --errata "
           f"{paper}`); do not edit by hand. Each entry is one root cause; the statements that fail "
           f"only as its consequence are listed under it. The evidence is on the [ledger page]({link}).",
           "", f"{_n_roots(roots)}.", ""]
    for i, r in enumerate(sorted(roots, key=lambda r: (r.kind != "misprint", r.claim.locator)), 1):
        c, e = r.claim, r.evidence
        cons = [s for s in slips if s.claim.root_cause == c.id and s is not r]
        printed = c.slip.printed if c.slip else c.paper_text.splitlines()[0] if c.paper_text else c.statement
        should = c.slip.should_read if c.slip else (e.correction or "(no correction: the statement fails)")
        out += [f"## {i}. {c.locator}: {r.kind}", "",
                f"- printed: {printed}", f"- should read: {should}",
                f"- class: {r.kind}" + (f" (the paper shows the intended form at {c.slip.intended_at})"
                                        if r.kind == "misprint" else " (the correction is derived)"),
                "- consequences: " + ("; ".join(f"[`{s.claim.id}`]({link}#{_anchor(s.claim.id)}) ({s.claim.locator})"
                                                for s in cons) if cons else "none"),
                f"- evidence: {_one_line(e.counterexample) if e.counterexample else e.criterion} "
                f"([`{c.id}`]({link}#{_anchor(c.id)}))", ""]
    amb = [r for r in rows if r.kind == "ambiguity"]
    out += ["## Clarifications suggested", "",
            "Sentences the words let a reader take two ways, one true and one false: not errors.", ""]
    out += [f"- {r.claim.locator} ([`{r.claim.id}`]({link}#{_anchor(r.claim.id)})): {r.evidence.ambiguity}"
            for r in amb] or ["None."]
    prem = [r for r in rows if r.kind == "premise"]
    out += ["", "## Premises the arguments need", "",
            "Assumptions the paper does not state; never counted as its errors.", ""]
    out += [f"- {r.claim.locator} ([`{r.claim.id}`]({link}#{_anchor(r.claim.id)})): {r.claim.statement} → "
            f"{_MARK[r.verdict]}" for r in prem] or ["None."]
    return "\n".join(out) + "\n"


def _n_roots(roots: list[Result]) -> str:
    m = sum(r.kind == "misprint" for r in roots)
    return (f"{len(roots)} root cause{'s' if len(roots) != 1 else ''}: {m} misprint{'s' if m != 1 else ''} "
            f"(typo class), {len(roots) - m} errat{'a' if len(roots) - m != 1 else 'um'}")


def pages(results: Iterable[Result], budget: str) -> dict[str, str]:
    """{path relative to the index's folder: text} of every ledger page."""
    results = list(results)
    papers = [p for p in PAPERS if any(r.claim.paper == p for r in results)]
    out = {INDEX: index_page(results, budget)}
    for paper in papers:
        out[ledger_path(paper)] = paper_page(results, paper, budget)
        out[errata_path(paper)] = errata_page(results, paper)
    return out


def write_pages(index: Path, results: Iterable[Result], budget: str) -> list[Path]:
    """Write every page of `pages` next to `index` (the index itself at `index`)."""
    written = []
    for rel, text in pages(results, budget).items():
        path = index if rel == INDEX else index.parent / rel
        atomic_write_text(path, text)
        written.append(path)
    return written


def read_pages(index: Path) -> str:
    """The per-paper ledger pages next to `index`, concatenated in the papers' order."""
    return "\n".join((index.parent / ledger_path(p)).read_text() for p in PAPERS
                     if (index.parent / ledger_path(p)).exists())

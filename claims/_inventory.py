"""The inventory: every checkable item of each paper, section by section, and what checks it.

An `Item` is one checkable statement of a paper as an independent reader would list it (a
theorem, proposition, lemma, remark with mathematical content, an equation that states a
property, a table or figure that reports a result, a prose claim of a result, a parameter count,
a setting of a training protocol). It names the ledger claims that check it, or the reason none
can, and states its **level** of coverage (`LEVELS`), with a note for every level but "full":

- ``full``: a claim checks the item as the paper states it (an experiment at the paper's own
  setting; a protocol setting whose value in our run configuration equals the paper's);
- ``partial``: a claim checks part of it; the note says what is missing;
- ``proxy``: an experiment claim decides it at a proxy of the paper's setting (our small
  byte-level models, a stand-in corpus), or a protocol setting differs from the paper's and the
  deviation is recorded in the claims' evidence; the note says what the proxy covers and what not;
- ``prose-only``: a result we cannot reproduce (a results table or figure, the prose reporting
  it) whose printed numbers are checked only against the paper's own prose and tables
  (`consistency` claims);
- ``none``: nothing checks it; the note gives the reason (e.g. "needs HellaSwag, not available
  offline").

One standard for the five papers (stated in `STANDARD`, applied by every `claims/<paper>/inventory.py`):
a claim that is a premise (`Claim.premise`) or an extension (`Claim.extension`) never covers an
item (an item checked only by such claims is "none" and its reason names them); an item whose
parts are covered at different levels takes the lowest of them (full > partial > proxy >
prose-only > none), its note naming the parts; downstream accuracies (HellaSwag, ARC-Easy) are
"prose-only" where a consistency claim holds the printed numbers against the prose, else "none";
a protocol setting is "full" when our run configuration has the paper's value, "proxy" when it
differs and the deviation is recorded in the evidence of the experiment claims that use the
protocol, "partial" when the paper leaves it open (our choice is recorded, the paper's is
missing) or when no study that has it has a committed run yet, "none" when no run configuration
records it (or it differs and no deviation list records the difference). Protocol items come from
`claims._protocol.PROTOCOLS` (`protocol_items`) plus the settings the papers print that the
protocols do not carry (listed by hand in each paper's inventory).

Coverage is measured from this registry, never asserted: `python -m claims --coverage` reports per
paper the `full` share and the `full + partial + proxy` share (and the count per level).

One module per paper (`claims/<paper>/inventory.py`, beside its claims) defines ``ITEMS``, in the paper's order.
`tests/test_inventory.py` keeps it in sync with the ledger: every registered claim is named by an
item of its own paper, every claim an item names is registered, the levels agree with the claims
(`level_problems`), and every setting of `PROTOCOLS` has an item.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from ._ledger import PAPERS

KINDS = ("theorem", "proposition", "lemma", "corollary", "remark", "example", "equation",
         "algorithm", "table", "figure", "prose", "count",
         "misprint",   # a symbol, label or index printed for the object the paper names otherwise
         "protocol")   # a setting of a training table (optimizer, learning rate, batch, corpus, ...)
LEVELS = ("full", "partial", "proxy", "prose-only", "none")
COVERED = ("full", "partial", "proxy")  # the levels counted in the `full + partial + proxy` share

STANDARD = (
    "**full**: a claim checks the item as the paper states it (an experiment at the paper's own "
    "setting; a protocol setting whose value in our run configuration equals the paper's). "
    "**partial**: a claim checks part of it (the note says what is missing; a protocol setting the "
    "paper leaves open: ours is recorded, the paper's is missing; a setting whose studies have no "
    "committed run yet). "
    "**proxy**: an experiment claim decides it at a proxy of the paper's setting (our small "
    "byte-level models on the pinned corpus), or a protocol setting differs from the paper's and "
    "the deviation is recorded in the experiment claims' evidence (the note says what the proxy "
    "covers and what not). "
    "**prose-only**: a result we cannot reproduce (a results table or figure, or the prose "
    "reporting it) whose printed numbers are checked only against the paper's own prose and tables. "
    "**none**: nothing checks it (the note gives the reason; a protocol setting no run configuration "
    "records, or whose difference from ours no deviation list records). "
    "A premise or extension claim never covers an item; an item whose parts are covered at "
    "different levels takes the lowest; downstream accuracies are prose-only where a consistency "
    "claim holds the printed numbers against the prose, else none.")


@dataclass(frozen=True)
class Item:
    """One checkable item: `locator` as the paper numbers it ("Proposition 4.3", "§6.2, Table 1"),
    its `kind`, a one-line `what` in our words, the ledger `claims` that check it, its coverage
    `level` (`LEVELS`) and the `reason` (the note: required for every level but "full"; for
    "none", why nothing checks it). `settings`: for a protocol item generated from
    `claims._protocol.PROTOCOLS`, the ``"<tables>|<setting>"`` keys it stands for."""

    paper: str
    locator: str
    kind: str
    what: str
    claims: tuple[str, ...] = ()
    reason: str = ""
    level: str = "full"
    settings: tuple[str, ...] = ()

    def __post_init__(self):
        where = f"item {self.paper} {self.locator!r} ({self.what[:60]!r})"
        if self.paper not in PAPERS:
            raise ValueError(f"paper must be one of {sorted(PAPERS)}, got {self.paper!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r} ({self.locator})")
        if not self.locator or not self.what:
            raise ValueError(f"an item needs a locator and a description, got {self!r}")
        object.__setattr__(self, "claims", tuple(self.claims))
        object.__setattr__(self, "settings", tuple(self.settings))
        if self.level not in LEVELS:
            raise ValueError(f"{where}: level must be one of {LEVELS}, got {self.level!r}")
        if not self.claims and not self.reason:
            raise ValueError(f"{where}: name the claims that check it or the reason none can")
        if not self.claims and self.level != "none":
            raise ValueError(f"{where}: an item with no claims is level 'none', got {self.level!r}")
        if self.level != "full" and not self.reason:
            raise ValueError(f"{where}: a {self.level!r} item needs its note (the reason: "
                             + {"partial": "what is missing", "proxy": "what the proxy covers and what not",
                                "prose-only": "which prose and tables the numbers are held against",
                                "none": "why nothing checks it"}[self.level] + ")")

    @property
    def note(self) -> str:
        return self.reason

    @property
    def covered(self) -> bool:
        """Counted in the `full + partial + proxy` share."""
        return self.level in COVERED

    def as_dict(self) -> dict:
        out = {"paper": self.paper, "locator": self.locator, "kind": self.kind, "what": self.what,
               "level": self.level, "note": self.reason, "claims": list(self.claims)}
        if self.settings:
            out["settings"] = list(self.settings)
        return out


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


def covering(item: Item, registry: Mapping) -> tuple[str, ...]:
    """The claims of `item` that cover it: those of `registry` (claim id -> Claim) that are neither
    a premise nor an extension."""
    return tuple(c for c in item.claims if c in registry
                 and not (registry[c].premise or registry[c].extension))


def level_problems(all_items: Iterable[Item], registry: Mapping) -> list[str]:
    """Where the stated levels disagree with the claims of `registry`: an item is "none" exactly
    when no claim covers it (`covering`), and a "none" item that names premise or extension
    claims says so in its reason (names each of them)."""
    out = []
    for i in all_items:
        cov = covering(i, registry)
        if i.level == "none" and cov:
            out.append(f"{i.paper} {i.locator!r}: level 'none' but covered by {list(cov)}")
        if i.level != "none" and not cov:
            out.append(f"{i.paper} {i.locator!r}: level {i.level!r} but no claim covers it "
                       f"(premise or extension only: {list(i.claims)}); make it 'none' and name them")
        if i.level == "none":
            unnamed = [c for c in i.claims if c not in i.reason]
            if unnamed:
                out.append(f"{i.paper} {i.locator!r}: a 'none' item whose reason does not name {unnamed}")
    return out


def coverage(all_items: list[Item]) -> dict[str, dict]:
    """Per paper: items; covered (full + partial + proxy) and share (covered / items), the keys
    of the first inventory; full and full_share; the count per level (`levels`)."""
    out = {}
    for paper in PAPERS:
        mine = [i for i in all_items if i.paper == paper]
        if mine:
            levels = {lv: sum(i.level == lv for i in mine) for lv in LEVELS}
            n = sum(levels[lv] for lv in COVERED)
            out[paper] = {"items": len(mine), "covered": n, "share": n / len(mine),
                          "full": levels["full"], "full_share": levels["full"] / len(mine),
                          "levels": levels}
    return out


def _cell(text: str) -> str:
    """`text` inside a markdown table cell (a '|' would end the cell)."""
    return text.replace("|", "\\|")


def _table_rows(rows: dict[str, dict]) -> list[str]:
    return [f"| `{p}` | {r['items']} | " + " | ".join(str(r["levels"][lv]) for lv in LEVELS)
            + f" | {r['full_share']:.1%} | {r['share']:.1%} |" for p, r in rows.items()]


def coverage_table(all_items: list[Item]) -> str:
    rows = coverage(all_items)
    head = (f"{'paper':18s} {'items':>5s} " + " ".join(f"{lv:>10s}" for lv in LEVELS)
            + f" {'full':>6s} {'f+pa+px':>7s}")
    lines = [head]
    lines += [f"{p:18s} {r['items']:5d} " + " ".join(f"{r['levels'][lv]:10d}" for lv in LEVELS)
              + f" {r['full_share']:6.1%} {r['share']:7.1%}" for p, r in rows.items()]
    lines.append("shares: full = full / items; f+pa+px = (full + partial + proxy) / items")
    return "\n".join(lines)


def coverage_markdown(all_items: list[Item]) -> str:
    """docs/coverage.md: the per-paper counts and shares (all items, then without the protocol
    items), the standard, then every item with its level, claims and note."""
    rows = coverage(all_items)
    head = ("| paper | items | " + " | ".join(LEVELS) + " | full share | full + partial + proxy share |",
            "|---|" + "---|" * (len(LEVELS) + 3))
    out = ["# Coverage: every checkable item of the five papers", "",
           "Generated from the inventory (`claims/<paper>/inventory.py`, `claims/_inventory.py`) by "
           "`python -m figures` (or `python -m claims --coverage --markdown docs/coverage.md`); do not "
           "edit by hand. Verdicts are on [claims.md](claims.md).", "",
           "Each item states its level of coverage. " + STANDARD, "",
           *head, *_table_rows(rows), "",
           "Without the protocol items (the settings of the training tables):", "",
           *head, *_table_rows(coverage([i for i in all_items if i.kind != "protocol"]))]
    for paper in rows:
        out += ["", f"## `{paper}` ({PAPERS[paper]})", "",
                "| locator | kind | item | level | claims | note |", "|---|---|---|---|---|---|"]
        for i in (i for i in all_items if i.paper == paper):
            cl = ", ".join(f"`{c}`" for c in i.claims) or "—"
            cells = (_cell(i.locator), i.kind, _cell(i.what), i.level, cl, _cell(i.reason))
            out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ protocol items

SETTING_LABELS = {
    "n_layer": "layers", "n_head": "attention heads", "n_embd": "width (embedding dimension)",
    "block_size": "context length (block size)",
    "batch_size": "effective batch (sequences per optimizer step)", "steps": "optimizer steps",
    "warmup": "warm-up steps", "lr": "peak learning rate (AdamW groups)",
    "min_lr_ratio": "minimum learning rate (fraction of the peak)",
    "optimizer": "parameter-training optimizer", "muon_lr": "Muon peak learning rate",
    "scalar_lr_mult": "learning-rate multiplier of the learned scalars",
    "h0": "initial integrator step size h_0", "tokenizer": "tokenizer", "corpus": "corpus",
    "precision": "precision", "hardware": "hardware", "evaluation": "evaluation"}


def _shown(v) -> str:
    if v is None:
        return "each variant's own"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def _ids(claims) -> str:
    return ", ".join(claims)


def protocol_items(paper: str, runs: Mapping[str, tuple[tuple[str, str], ...]],
                   notes: Mapping[tuple[str, str], str] | None = None) -> tuple[Item, ...]:
    """One item of kind "protocol" per setting of `paper`'s protocols (`claims._protocol.PROTOCOLS`:
    each Protocol's `settings`, `fixed` and `open_choices`); a setting with the same value in
    several protocols (a paper's TinyStories and OpenWebText columns, an ablation arm's unchanged
    settings) is one item standing for all of them (`Item.settings`).

    `runs`: protocol tables -> ((claim id, study), ...), the experiment claims that use the
    protocol (``protocol="<tables>"``) and the `particles.lm.studies` study whose `TrainConfig`
    their verdict is decided on. Level: "full" when every configuration has the paper's value;
    "proxy" when one differs and `claims._protocol.deviations` records it (the claims named are
    those whose deviations carry it); "partial" for a choice the paper leaves open (`open_choices`:
    ours recorded beside "not stated"), or a setting equal to the paper's in studies none of which
    has a committed run yet; "none" when a configuration differs and no deviation records it. A
    study without committed runs is named in the note. `notes`: (tables, setting) -> a sentence
    appended to that item's note."""
    from particles.lm.studies import RESULTS_ROOT, get_study  # torch: only when the inventory is built

    from ._protocol import COMPARED, OURS_FIXED, PROTOCOLS, deviations

    mine = [p for p in PROTOCOLS.values() if p.paper == paper]
    missing = sorted(p.tables for p in mine if p.tables not in runs)
    unknown = sorted(t for t in runs if t not in PROTOCOLS or PROTOCOLS[t].paper != paper)
    if missing or unknown:
        raise ValueError(f"runs of {paper}: protocols without their claims {missing}, "
                         f"unknown protocols {unknown}")
    notes = notes or {}
    groups: dict[tuple, list] = {}   # (part, setting, value) -> [protocol, ...], in PROTOCOLS order
    for p in mine:
        for name in COMPARED:
            if name in p.settings:
                groups.setdefault(("setting", name, repr(p.settings[name])), []).append(p)
        for name, value in p.fixed.items():
            groups.setdefault(("fixed", name, value), []).append(p)
        for name, ours in p.open_choices.items():
            groups.setdefault(("open", name, ours), []).append(p)

    out = []
    for (part, name, _), protos in groups.items():
        first = protos[0]
        short = "; ".join(p.tables.removeprefix(paper + " ") for p in protos)
        # an ablation arm ("<tables>, <arm>") inherits its table's settings: its locator is named only
        # for what the arm changes
        tables = [p for p in protos if ", " not in p.tables] or protos
        locator = " / ".join(dict.fromkeys(re.sub(r"^seed \d{3} ", "", p.locator) for p in tables))
        keys = tuple(f"{p.tables}|{name}" for p in protos)
        pairs = [(p, c, s) for p in protos for c, s in runs[p.tables]]
        all_claims = tuple(dict.fromkeys(c for _, c, _ in pairs))
        extra = " ".join(notes[(p.tables, name)] for p in protos if (p.tables, name) in notes)
        untrained = sorted({s for _, _, s in pairs if not any((RESULTS_ROOT / s).glob("*.json"))})
        waiting = (f"study {', '.join(untrained)} has no committed run yet (its claims wait for it)"
                   if untrained else "")
        if part == "open":
            what = f"left open: {name} [{short}]"
            note = (f"the paper states no value (a modelling choice it leaves open); ours, "
                    f"{first.open_choices[name]}, is recorded beside 'not stated' in the deviations of "
                    f"{_ids(all_claims)}; the paper's own choice is what is missing")
            out.append(Item(paper, locator, "protocol", what, all_claims, _join(_join(note, waiting), extra),
                            "partial", keys))
            continue
        paper_value = first.settings[name] if part == "setting" else first.fixed[name]
        what = f"{SETTING_LABELS.get(name, name)} = {_shown(paper_value)} [{short}]"
        equal, recorded, unrecorded = [], [], []
        ours_by_study: dict[str, str] = {}
        for p, c, s in pairs:
            config = get_study(s).config
            if part == "setting":
                ours = getattr(config, name)
                carried = {d["setting"] for d in deviations(config, p)}
            else:
                ours, carried = OURS_FIXED.get(name, "—"), set(p.fixed)
            ours_by_study[s] = _shown(ours)
            if ours == paper_value:
                equal.append(c)
            elif name in carried:
                recorded.append(c)
            else:
                unrecorded.append(c)
        equal, recorded, unrecorded = (tuple(dict.fromkeys(x)) for x in (equal, recorded, unrecorded))
        by_value: dict[str, list[str]] = {}
        for s, v in ours_by_study.items():
            by_value.setdefault(v, []).append(s)
        ours_text = "; ".join(f"{v} (study {', '.join(st)})" for v, st in by_value.items())
        if unrecorded:
            level = "none" if not (equal or recorded) else "partial"
            claims = equal + recorded
            note = (f"ours: {ours_text}; the difference is recorded by no deviation list "
                    f"({_ids(unrecorded)} do not carry it)")
        elif recorded:
            level, claims = "proxy", recorded
            note = (f"ours: {ours_text}; the deviation is recorded in the evidence of {_ids(recorded)}"
                    + (f"; the paper's value in {_ids(equal)}" if equal else ""))
        elif set(untrained) == {s for _, _, s in pairs}:
            level, claims = "partial", equal
            note = f"the configuration has the paper's value; missing: {waiting}"
        else:
            level, claims = "full", equal
            note = ""
        if untrained and waiting not in note:
            note = _join(note, waiting)
        out.append(Item(paper, locator, "protocol", what, claims, _join(note, extra), level, keys))
    return tuple(out)


def _join(note: str, extra: str) -> str:
    return f"{note}; {extra}" if note and extra else note or extra

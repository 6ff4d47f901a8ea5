"""The claims ledger: one registered `Claim` per numbered statement, one `Evidence` per run.

A claim's check computes numbers and derives its verdict from them by an explicit criterion
(stated in `Evidence.criterion`). `Claim.expect` is the verdict we established once; it pins
regressions and is never consulted when computing a verdict.

`settings` holds the process-wide switches the command lines set before any check runs
(`python -m claims --recompute`, `python -m figures --recompute`); a check reads them, never the
environment. `settings.recompute` is False by default: a long study (training sweeps, the
oscillator experiment, benchmarks) then reads its committed results under `results/` and never
retrains; True recomputes it. A check passes the value down as an argument
(`sweep(..., recompute=settings.recompute)`), since `particles/` never imports `claims/`.
"""
from __future__ import annotations

import functools
import json
import math
import traceback
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

VERDICTS = ("holds", "holds-with-correction", "fails", "inconclusive")
ERROR = "error"
# `consistency`: the paper held against itself (prose against its own tables, printed averages and
# counts recomputed from printed numbers, an appendix against the main text); no training needed.
METHODS = ("symbolic", "property", "convergence", "experiment", "count", "consistency")
# The verdict of the printed text under one reading of it (`Evidence.readings`).
READING_VERDICTS = ("holds", "fails", "inconclusive")
BUDGETS = ("quick", "full")


@dataclass
class Settings:
    """Switches set once per process by a command line (see the module docstring)."""

    recompute: bool = False  # recompute long studies instead of reading committed results


settings = Settings()

# Paper tags and their seed files (../shared/seeds/README.md).
PAPERS: dict[str, str] = {
    "sympformer": "000_63047fa14d9c3172.txt",
    "sp_transformer": "001_d3cec3f2b99ca2ba.txt",
    "momentum_streams": "002_395af419a1c7ba67.txt",
    "heatflow": "003_7e01566b1ff8f023.txt",
    "yurii": "004_bfbae7e9ba22b155.txt",
}


@dataclass(frozen=True)
class Evidence:
    """What a check measured, and the verdict that follows from it.

    numbers:        the measured quantities (errors, rates, slopes, seeds, sizes)
    criterion:      the rule that turns `numbers` into `verdict`, in words
    counterexample: inputs that refute the printed statement (when it fails)
    correction:     the corrected statement that passes (verdict holds-with-correction)
    readings:       every reasonable reading of the quoted text with the printed statement's verdict
                    under it (`reading`); an erratum (holds-with-correction, fails) must fail under
                    every one of them, so a verdict that says the paper is wrong cannot sit beside a
                    reading that holds (checked here)
    ambiguity:      when some readings hold and others fail: the clarification the authors could
                    make, naming the readings (the verdict is then `holds`)
    """

    verdict: str
    criterion: str
    numbers: Mapping[str, Any] = field(default_factory=dict)
    counterexample: Mapping[str, Any] | None = None
    correction: str | None = None
    readings: tuple[Mapping[str, Any], ...] = ()
    ambiguity: str | None = None

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not self.criterion:
            raise ValueError("criterion must state how the verdict follows from the numbers")
        if self.verdict == "holds-with-correction" and not self.correction:
            raise ValueError("verdict 'holds-with-correction' needs the correction that passes")
        object.__setattr__(self, "readings", tuple(self.readings))
        for r in self.readings:
            if not isinstance(r, Mapping) or not r.get("reading") or r.get("verdict") not in READING_VERDICTS:
                raise ValueError(f"readings: each needs a 'reading' text and a 'verdict' in "
                                 f"{READING_VERDICTS} (use claims.reading), got {r!r}")
        held = [r["reading"] for r in admitted(self.readings) if r["verdict"] == "holds"]
        if self.verdict in ("holds-with-correction", "fails") and held:
            raise ValueError(f"verdict {self.verdict!r} says the paper is wrong, but the printed text "
                             f"holds under the reading(s) {held}: an erratum must fail under every "
                             "reasonable reading (use claims.decide_readings)")
        split = held and any(r["verdict"] == "fails" for r in admitted(self.readings))
        if split and not self.ambiguity:
            raise ValueError("readings: some readings hold and others fail; name the ambiguity "
                             "(the clarification the authors could make)")

    def as_dict(self) -> dict[str, Any]:
        return {
            "criterion": self.criterion,
            "numbers": jsonable(self.numbers),
            "counterexample": jsonable(self.counterexample),
            "correction": self.correction,
            "readings": jsonable(list(self.readings)),
            "ambiguity": self.ambiguity,
        }


def verdict_from(printed_holds: bool, correction_holds: bool | None = None, *,
                 decided: bool = True) -> str:
    """The ledger's verdict rule.

    printed statement passes                         -> holds
    printed fails, a named correction passes         -> holds-with-correction
    printed fails, no correction (or it fails too)   -> fails
    the evidence cannot decide at this budget        -> inconclusive
    """
    if not decided:
        return "inconclusive"
    if printed_holds:
        return "holds"
    if correction_holds:
        return "holds-with-correction"
    return "fails"


def decide(printed_holds: bool, correction_holds: bool | None = None, *, criterion: str,
           numbers: Mapping[str, Any] | None = None, counterexample: Mapping[str, Any] | None = None,
           correction: str | None = None, decided: bool = True) -> Evidence:
    """The last step of every check: the criterion, then the verdict it gives, with its numbers.

    A check reads like a worked example (setup, computed value, the independent value it is
    compared with, criterion) and ends with

        return decide(err < 1e-13, criterion="relative error vs the closed form < 1e-13 (rounding)",
                      numbers={"rel_error": err})

    `printed_holds` / `correction_holds` / `decided` are the arguments of `verdict_from`; the rest
    are the fields of `Evidence` (`correction` is the corrected statement, required when only the
    correction passes)."""
    correction_holds = None if correction_holds is None else bool(correction_holds)
    return Evidence(verdict=verdict_from(bool(printed_holds), correction_holds, decided=bool(decided)),
                    criterion=criterion, numbers=dict(numbers or {}), counterexample=counterexample,
                    correction=correction)


# Why a reading is not admitted (docs/architecture.md, "Admissible readings"): the rule's tag
# and what it says. A reading must be supported by the words as printed, with the paper's own
# definitions and notation (R1).
NOT_ADMITTED = {
    "unsupported": "R1: the words as printed, with the paper's own definitions and notation, do "
                   "not support it (a formula read other than as well-formed, a symbol not as defined)",
    "correction": "R2: it changes a printed sign, factor, index, symbol or variable: a correction, "
                  "never a reading",
    "invented": "R3: it adds to the text what the text does not say (an 'only', an 'every', a "
                "horizon, tolerance or value the text does not give or contradicts)",
    "consequence": "R5: it fails only through a slip another claim counts (its root cause): a "
                   "consequence, not a second reading of this sentence",
    "rescue": "R4: it rescues the text with what the text does not say (a mean the paper never "
              "reports, a subset of its templates, a class it does not name)",
}


def reading(text: str, holds: bool | None, *, not_admitted: str | None = None,
            **numbers: Any) -> dict[str, Any]:
    """One reading of the quoted text and the printed statement's verdict under it: `holds` True
    (holds), False (fails) or None (the evidence cannot decide under this reading).

    `not_admitted` (a key of `NOT_ADMITTED`) keeps a reading on the page, with the rule that
    excludes it, but out of the decision: a `correction` reading (a misprint read by its intent)
    becomes the correction of `decide_readings` when no other is named; a `rescue` (the text with
    what it does not say), an `invented`, `unsupported` or `consequence` one is only shown."""
    if not_admitted is not None and not_admitted not in NOT_ADMITTED:
        raise ValueError(f"not_admitted must be one of {sorted(NOT_ADMITTED)}, got {not_admitted!r}")
    verdict = "inconclusive" if holds is None else "holds" if holds else "fails"
    out = {"reading": text, "verdict": verdict, **numbers}
    if not_admitted:
        out["not_admitted"] = NOT_ADMITTED[not_admitted]
    return out


def admitted(readings) -> list[Mapping[str, Any]]:
    """The readings that decide (those without `not_admitted`)."""
    return [r for r in readings if not r.get("not_admitted")]


def disagreement(readings, subject: str = "the readings") -> str | None:
    """The ambiguity note of readings built by one shared rule (an experiment's sentences): their
    verdicts side by side, or None where fewer than two are admitted, so no ambiguity can arise."""
    deciding = admitted(readings)
    return (f"{subject} disagree: " + "; ".join(f"{r['reading']} -> {r['verdict']}" for r in deciding)
            if len(deciding) > 1 else None)


def decide_readings(readings, correction_holds: bool | None = None, *, criterion: str,
                    numbers: Mapping[str, Any] | None = None,
                    counterexample: Mapping[str, Any] | None = None, correction: str | None = None,
                    ambiguity: str | None = None) -> Evidence:
    """The verdict of a statement that can be read more than one way (issue 28).

    The printed statement is an erratum only if it fails under every admissible reading (readings
    with `not_admitted` are shown, not counted: `reading`):

    some reading holds                        -> holds (with `ambiguity` when another reading fails)
    every reading fails, the correction holds -> holds-with-correction
    every reading fails, no correction holds  -> fails
    no reading holds, one is undecided        -> inconclusive

    `readings` are `reading(...)` dicts; the correction and counterexample belong to the erratum
    case and are kept as evidence in every case."""
    readings = tuple(readings)
    deciding = admitted(readings)
    if not deciding:
        raise ValueError("readings: at least one admissible reading of the quoted text is needed")
    if ambiguity is not None and len(deciding) < 2:
        raise ValueError("ambiguity: two readings the printed words support are needed; with one "
                         "admitted reading the note could never be shown")
    # a misprint read by its intent (R2) is the correction when the check names none; a rescue (R4)
    # never is: what the text does not say is no correction of it (an experiment's spread, a mean
    # the paper never reports), so a check whose erratum adds a hypothesis names that correction
    corrections = [r for r in readings if r.get("not_admitted") == NOT_ADMITTED["correction"]]
    if correction is None and corrections:   # the first that holds, else the first
        if correction_holds is not None:
            raise ValueError("correction_holds: name the correction it decides (correction=...), or "
                             "leave it to the reading marked not_admitted='correction'")
        chosen = next((r for r in corrections if r["verdict"] == "holds"), corrections[0])
        correction, correction_holds = chosen["reading"], chosen["verdict"] == "holds"
    verdicts = [r["verdict"] for r in deciding]
    printed_holds = "holds" in verdicts
    decided = printed_holds or all(v == "fails" for v in verdicts)
    correction_holds = None if correction_holds is None else bool(correction_holds)
    verdict = verdict_from(printed_holds, correction_holds, decided=decided)
    return Evidence(verdict=verdict, criterion=criterion, numbers=dict(numbers or {}),
                    counterexample=counterexample,
                    correction=correction,
                    readings=readings, ambiguity=ambiguity if printed_holds and "fails" in verdicts else None)


# What a verdict says of the paper (`Result.kind`), in the order the tallies list them
# (docs/architecture.md, "Verdict classes").
KINDS = ("holds", "misprint", "erratum", "ambiguity", "proxy", "not-reproduced", "inconclusive",
         "premise", "extension", "repeat", "error")


@dataclass(frozen=True)
class Slip:
    """What a statement that is false as printed gets wrong, for the paper's errata sheet.

    printed:      the printed text at fault, quoted short (LaTeX where the paper prints a formula)
    should_read:  what it should read
    intended_at:  for a misprint, the locator where the paper itself shows the intended form (the
                  same formula correct elsewhere, the proposition a proof proves, the next slide's
                  sign); "" for an erratum, whose correction had to be derived
    root_cause:   the id of the claim that counts the slip when this statement fails only as its
                  consequence (one slip, one count); "" when this claim is the root
    """

    printed: str
    should_read: str
    intended_at: str = ""
    root_cause: str = ""

    def __post_init__(self):
        if not self.printed or not self.should_read:
            raise ValueError("a slip needs the printed text and what it should read")


@dataclass(frozen=True)
class Claim:
    id: str
    source: tuple[str, str]  # (seed file, locator as the paper numbers it)
    statement: str
    method: str
    check: Callable[[str], Evidence]
    expect: str
    figures: tuple[str, ...] = ()
    # The verdict pinned at the quick budget when it legitimately differs from `expect`
    # (an experiment whose seconds-long run cannot decide is `inconclusive` there).
    expect_quick: str | None = None
    # The verbatim sentence(s) or formula (LaTeX form) of the paper that the claim checks.
    paper_text: str = ""
    # True when the claim checks something the paper does not state (an assumption its argument
    # needs, a setting it does not discuss): shown under "unstated premises and extensions" and
    # never counted among the paper's errors.
    premise: bool = False
    # The id of another claim that checks the same sentence of the paper (this one at another level:
    # a trained network beside the layer): the sentence is counted once, under that claim; this
    # one is listed with its own verdict and evidence but is not a statement of its own.
    repeats: str = ""
    # The referee's finding on a verdict that says the paper is wrong (issue 28): confirmed or
    # changed, and why.
    referee: str = ""
    # True when the claim checks a sharper statement than the paper makes (a horizon, an "every",
    # a level the text does not give): like a premise, outside the paper's tally (issue 38).
    extension: bool = False
    # For a statement false as printed: what it gets wrong, whether the paper shows the intended
    # form (a misprint) or the correction had to be derived (an erratum), and its root cause.
    slip: Slip | None = None
    # The independent re-judgement of the verdict's class (issue 38): each referee's finding
    # ("A", "B") and the rule that decided ("rule"), shown on the page.
    review: Mapping[str, str] | None = None

    def __post_init__(self):
        paper, sep, rest = self.id.partition(":")
        if not sep or not rest or paper not in PAPERS:
            raise ValueError(f"claim id must be 'PAPER:label' with PAPER in {sorted(PAPERS)}, "
                             f"got {self.id!r}")
        if self.source[0] != PAPERS[paper]:
            raise ValueError(f"source of {self.id} must be seed {PAPERS[paper]}, got {self.source[0]}")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")
        if self.slip is not None and self.slip.root_cause == self.id:
            object.__setattr__(self, "slip", Slip(self.slip.printed, self.slip.should_read,
                                                  self.slip.intended_at, ""))
        if self.premise and self.extension:
            raise ValueError(f"{self.id}: a claim is a premise or an extension, not both")
        for name in ("expect", "expect_quick"):
            value = getattr(self, name)
            if value not in VERDICTS and not (name == "expect_quick" and value is None):
                raise ValueError(f"{name} must be one of {VERDICTS}, got {value!r}")

    def expected(self, budget: str) -> str:
        return self.expect_quick if budget == "quick" and self.expect_quick else self.expect

    @property
    def paper(self) -> str:
        return self.id.partition(":")[0]

    @property
    def root_cause(self) -> str:
        """The claim that counts this claim's slip (itself when it is the root)."""
        return (self.slip.root_cause or self.id) if self.slip is not None else self.id

    @property
    def locator(self) -> str:
        return self.source[1]


@dataclass(frozen=True)
class Result:
    claim: Claim
    budget: str
    evidence: Evidence | None
    error: str | None = None

    @property
    def verdict(self) -> str:
        return self.evidence.verdict if self.evidence is not None else ERROR

    @property
    def as_reviewed(self) -> bool:
        """The class computed is the one the referees' review decided (`Claim.review["decided"]`,
        claims/<paper>/reviews.json), where the claim has a review. An experiment is not held to
        it: the review decided which readings of its sentence are admissible, while its class
        follows its committed runs (inconclusive until they are trained, then proxy or
        not-reproduced), and runs trained since the review may change it."""
        decided = (self.claim.review or {}).get("decided")
        if decided is None or self.claim.method == "experiment":
            return True
        return self.kind == decided

    @property
    def as_expected(self) -> bool:
        """The verdict is the claim's `expect` and the class is the review's decision."""
        return self.verdict == self.claim.expected(self.budget) and self.as_reviewed

    def as_dict(self) -> dict[str, Any]:
        c = self.claim
        evidence = self.evidence.as_dict() if self.evidence is not None else {"error": self.error}
        evidence = {"paper_text": c.paper_text, "premise": c.premise, **evidence}
        return {"id": c.id, "paper": c.paper, "source": c.source[0], "locator": c.locator,
                "statement": c.statement, "method": c.method, "verdict": self.verdict,
                "expect": c.expected(self.budget), "premise": c.premise, "repeats": c.repeats or None,
                "kind": self.kind, "root_cause": c.root_cause if self.kind in ("misprint", "erratum") else None,
                "slip": None if c.slip is None else {"printed": c.slip.printed, "should_read": c.slip.should_read,
                                                     "intended_at": c.slip.intended_at or None},
                "referee": c.referee, "review": dict(c.review) if c.review else None,
                "extension": c.extension, "evidence": evidence}

    @property
    def at_proxy_scale(self) -> bool:
        """An experiment whose evidence states a `scale` smaller than the paper's (its models have
        fewer parameters than the paper's: `claims._protocol.scale`)."""
        scale = (self.evidence.numbers or {}).get("scale") if self.evidence is not None else None
        return (self.claim.method == "experiment" and isinstance(scale, dict)
                and scale.get("params_ratio_paper_over_ours", 1.0) > 1.0)

    @property
    def kind(self) -> str:
        """What the verdict says of the paper, for the tallies (`KINDS`; docs/architecture.md):

        - `premise`, `extension`: the claim checks what the paper does not state (an assumption
          its argument needs; a sharper statement than the text), never the paper's error;
          `repeat`: the sentence another claim counts (`Claim.repeats`);
        - experiments: `proxy` when decided (holds or fails) at a proxy scale of the paper's
          models, `not-reproduced` when one at the paper's own scale fails; an experiment's fail
          is never an erratum;
        - a statement false as printed (holds-with-correction, fails): `misprint` when the paper
          itself shows the intended form (`Slip.intended_at`), else `erratum`;
        - `ambiguity` (holds under one admissible reading, fails under another), `holds`,
          `inconclusive`, `error`."""
        if self.claim.premise:
            return "premise"
        if self.claim.extension:
            return "extension"
        if self.claim.repeats:
            return "repeat"
        if self.evidence is None:
            return "error"
        if self.claim.method == "experiment" and self.verdict != "inconclusive":
            if self.at_proxy_scale:
                return "proxy"
            if self.verdict in ("holds-with-correction", "fails"):
                return "not-reproduced"
        if self.verdict in ("holds-with-correction", "fails"):
            slip = self.claim.slip
            return "misprint" if slip is not None and slip.intended_at else "erratum"
        if self.verdict == "holds" and self.evidence.ambiguity:
            return "ambiguity"
        return self.verdict


_REGISTRY: dict[str, Claim] = {}


@functools.lru_cache(maxsize=None)
def reviews(paper: str) -> dict[str, dict]:
    """The independent re-judgements of a paper's claims (issue 38), committed as
    ``claims/<paper>/reviews.json``: per claim id, each referee's finding ("A", "B"; "C" to "F" where
    further referees re-judged it, 7 Dec 2026: docs/rejudging.md), the class
    decided ("decided") and the rule that decided it ("rule"), and for a misprint or erratum what
    is printed, what it should read, where the paper shows the intended form and the root cause.
    {} when the paper has none."""
    path = Path(__file__).resolve().parent / paper / "reviews.json"
    return json.loads(path.read_text()) if path.exists() else {}


# the referees' findings in reviews.json: A and B (issue 38), then each further referee by the next letter
REFEREE_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _slip_from_review(cid: str, review: Mapping[str, Any] | None) -> Slip | None:
    """The Slip of a claim the referees decided is a misprint or an erratum."""
    if not review or review.get("decided") not in ("misprint", "erratum"):
        return None
    return Slip(printed=review["printed"], should_read=review["should_read"],
                intended_at=review.get("intended_at") or "", root_cause=review.get("root_cause") or "")


def register(claim: Claim) -> Claim:
    if claim.id in _REGISTRY and _REGISTRY[claim.id] is not claim:
        raise ValueError(f"claim {claim.id} registered twice")
    _REGISTRY[claim.id] = claim
    return claim


def claim(id: str, *, locator: str, statement: str, method: str, expect: str,
          figures: tuple[str, ...] | list[str] = (), expect_quick: str | None = None,
          threads: int | None = None, paper_text: str = "", premise: bool = False,
          repeats: str = "", referee: str = "", extension: bool = False, slip: Slip | None = None,
          review: Mapping[str, str] | None = None):
    """Decorator registering `check(budget) -> Evidence` as the claim `id`.

    `threads`: run the registered check with that many intra-op torch threads
    (`particles.threads.torch_threads`; tiny particle systems run fastest on one); the decorated
    function itself is returned unchanged."""

    def wrap(check: Callable[[str], Evidence]) -> Callable[[str], Evidence]:
        paper = id.partition(":")[0]
        found = reviews(paper).get(id) if paper in PAPERS else None
        registered = check
        if threads is not None:
            from particles.threads import torch_threads

            @functools.wraps(check)
            def registered(budget: str) -> Evidence:
                with torch_threads(threads):
                    return check(budget)
        register(Claim(id=id, source=(PAPERS.get(paper, "?"), locator), statement=statement,
                       method=method, check=registered, expect=expect, figures=tuple(figures),
                       expect_quick=expect_quick, paper_text=paper_text, premise=premise,
                       repeats=repeats, referee=referee, extension=extension,
                       slip=slip or _slip_from_review(id, found),
                       review=review or (None if found is None else {
                           k: v for k, v in found.items() if v and (k in REFEREE_LETTERS or k in ("decided", "rule"))})))
        return check

    return wrap


def registry() -> dict[str, Claim]:
    return dict(_REGISTRY)


def run(claim: Claim, budget: str = "quick") -> Result:
    """Run one claim; a check that raises becomes an error row, never a dropped one."""
    if budget not in BUDGETS:
        raise ValueError(f"budget must be one of {BUDGETS}, got {budget!r}")
    try:
        evidence = claim.check(budget)
        if not isinstance(evidence, Evidence):
            raise TypeError(f"check of {claim.id} returned {type(evidence).__name__}, not Evidence")
        return Result(claim, budget, evidence)
    except Exception as exc:  # reported, not swallowed: the row says 'error' with the traceback
        return Result(claim, budget, None,
                      error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}")


class RoundingLevel(float):
    """A float64 error at rounding level, shown on the ledger page as the bound `bound` it lies
    below (its digits differ between CPUs; the JSON keeps the value)."""

    def __new__(cls, value: float, bound: float):
        if not value < bound:
            raise ValueError(f"value {value!r} is not below its rounding bound {bound!r}")
        self = super().__new__(cls, value)
        self.bound = bound
        return self

    def __reduce__(self):   # pickled with its bound (the worker pools of claims._jobs send evidence)
        return RoundingLevel, (float(self), self.bound)


def jsonable(x: Any) -> Any:
    """Numbers and containers as plain JSON values (numpy/torch scalars and arrays included)."""
    if x is None or isinstance(x, (bool, str, int)):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else repr(x)  # a RoundingLevel stays one (JSON: its value)
    if isinstance(x, Mapping):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if hasattr(x, "tolist"):  # numpy / torch
        return jsonable(x.tolist())
    if hasattr(x, "item"):
        return jsonable(x.item())
    return str(x)

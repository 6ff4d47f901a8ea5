"""Every registered claim, at the quick budget: the computed verdict equals the pinned `expect`;
the claim quotes the paper and, where its verdict says the paper is wrong, weighs every reading
(issue 28); an experiment's evidence carries what issues 12 and 25 ask of it (seeds, scale,
deviations, flatness; for a trained language model the corpus, its unigram floor and the
baseline's loss; the MDE when underpowered)."""
import pytest

import claims
from claims._experiment import MIN_SEEDS
from particles.lm.studies import STUDIES

ALL = claims.load()


# what an experiment claim states beside its verdict (issue 25): its proxy scale, its deviations
# from the paper's protocol, and whether every arm's loss curve flattened (or why that does not apply)
EXPERIMENT_KEYS = {"n_seeds", "scale", "deviations", "flatness"}


@pytest.mark.parametrize("claim_id", sorted(ALL))
def test_claim_verdict_matches_expect(claim_id):
    c = ALL[claim_id]
    result = claims.run(c, "quick")
    assert result.evidence is not None, result.error
    assert result.verdict == c.expected("quick"), result.as_dict()
    # issue 28: the claim quotes the text it checks; a verdict that says the paper is wrong (at
    # the quick or the full budget) weighs every reasonable reading, and carries a referee finding
    assert c.paper_text.strip(), f"{claim_id}: no paper_text (the verbatim sentence or formula it checks)"
    if result.verdict in ("holds-with-correction", "fails"):
        readings = result.evidence.readings
        assert readings and all(r["verdict"] in ("holds", "fails", "inconclusive") for r in readings), \
            f"{claim_id}: an erratum needs its readings, each with a verdict"
    if c.expect in ("holds-with-correction", "fails"):
        assert c.referee.strip() or c.review, \
            f"{claim_id}: a verdict that says the paper is wrong needs a referee finding"
    # issue 38: a misprint or erratum says what is printed, what it should read and its root cause;
    # a misprint names where the paper shows the intended form; a slip sits only on such a claim
    if result.kind in ("misprint", "erratum"):
        assert c.slip is not None, f"{claim_id}: a {result.kind} needs its Slip (printed, should read, root)"
        assert c.root_cause in ALL and ALL[c.root_cause].paper == c.paper, c.root_cause
        if c.slip.root_cause:
            assert ALL[c.root_cause].slip is not None and not ALL[c.root_cause].slip.root_cause
    else:
        assert c.slip is None or c.method == "experiment" or result.verdict == "inconclusive", \
            f"{claim_id}: a Slip on a claim of kind {result.kind}"
    if c.method != "experiment":
        return
    numbers = result.evidence.numbers
    assert EXPERIMENT_KEYS <= set(numbers), sorted(EXPERIMENT_KEYS - set(numbers))
    if numbers.get("study") in STUDIES:  # decided from committed language-model runs
        assert {"corpus_sha256", "unigram_entropy", "baseline_val_loss"} <= set(numbers), sorted(numbers)
        undecided = [c for subs in numbers.get("sub_assertions", {}).values() for c in subs.values()
                     if c.get("status") == "undecided" and "mean_diff" in c]  # measured, not missing
        if result.verdict == "inconclusive" and numbers["n_seeds"] >= MIN_SEEDS and undecided:
            assert "mde" in numbers and "n_needed" in numbers, sorted(numbers)


def test_no_premise_is_counted_among_a_papers_errors():
    """A claim labelled `premise` or `extension` checks something the paper does not state: its
    verdict is never one of the paper's errata, in the tallies or on the page."""
    from claims._ledger import Evidence, Result
    from claims._report import tallies
    apart = [c for c in ALL.values() if c.premise or c.extension]
    for c in apart:
        r = Result(c, "full", Evidence(c.expect, "pinned", correction="x"))
        assert r.kind in ("premise", "extension")
    t = tallies((c.expect, "premise" if c.premise else "extension" if c.extension else "erratum" if c.expect in (
        "holds-with-correction", "fails") else c.expect, c.id) for c in ALL.values())
    assert t["erratum"] == sum(1 for c in ALL.values() if not (c.premise or c.extension) and c.expect in (
        "holds-with-correction", "fails"))
    assert t["premise"] + t["extension"] == len(apart)



@pytest.mark.parametrize("paper", sorted(claims.PAPERS))
def test_a_papers_package_alone_registers_every_claim_of_the_paper(paper):
    """The layout shows the architecture (DESIGN.md: one package per paper): importing the modules
    of `claims/<paper>/` alone, in a fresh interpreter, registers every claim of the paper (the
    shared machinery `claims/_*.py` registers none by itself), and no claim's check is defined in
    another paper's package."""
    import json
    import subprocess
    import sys
    code = ("import importlib, json, pkgutil, claims\n"
            f"pkg = importlib.import_module('claims.{paper}')\n"
            "for m in pkgutil.iter_modules(pkg.__path__):\n"
            f"    importlib.import_module('claims.{paper}.' + m.name)\n"
            f"print(json.dumps(sorted(k for k in claims.registry() if k.startswith('{paper}:'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert json.loads(out.stdout.splitlines()[-1]) == sorted(k for k, c in ALL.items() if c.paper == paper)
    elsewhere = {c.id: c.check.__module__ for c in ALL.values() if c.paper == paper and any(
        c.check.__module__.startswith(f"claims.{other}.") for other in claims.PAPERS if other != paper)}
    assert not elsewhere, elsewhere

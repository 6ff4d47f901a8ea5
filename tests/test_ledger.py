"""The ledger machinery: verdict rule, validation, error rows, JSON keys, CLI exit status."""
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

import claims
from claims import Claim, Evidence, verdict_from
from claims._pages import errata_page, paper_page
from claims._report import page_kinds, tallies, table, to_json

SEED = claims.PAPERS["sp_transformer"]


def _claim(check, expect="holds", id="sp_transformer:test-claim", expect_quick=None):
    return Claim(id=id, source=(SEED, "Theorem 0"), statement="a test statement", method="property",
                 check=check, expect=expect, expect_quick=expect_quick)


@pytest.mark.parametrize("printed, corrected, decided, verdict", [
    (True, None, True, "holds"), (True, False, True, "holds"),
    (False, True, True, "holds-with-correction"), (False, False, True, "fails"),
    (False, None, True, "fails"), (True, True, False, "inconclusive")])
def test_verdict_rule(printed, corrected, decided, verdict):
    assert verdict_from(printed, corrected, decided=decided) == verdict



@pytest.mark.parametrize("printed, corrected, decided", [
    (True, None, True), (False, True, True), (False, False, True), (False, None, True), (True, True, False)])
def test_decide_is_verdict_from_and_evidence(printed, corrected, decided):
    kw = dict(criterion="err < 1e-13", numbers={"err": 1e-14}, counterexample={"x": 1},
              correction="the corrected statement")
    ev = claims.decide(np.bool_(printed), corrected, decided=decided, **kw)
    assert ev == Evidence(verdict_from(printed, corrected, decided=decided), **kw)
    with pytest.raises(ValueError, match="correction"):
        claims.decide(False, True, criterion="x")  # only the correction passes: it must be named


def test_claim_threads_runs_the_registered_check_with_that_many_torch_threads():
    import torch

    from claims import _ledger

    def check(budget):
        return Evidence("holds", f"ran with {torch.get_num_threads()} threads")

    before = torch.get_num_threads()
    try:
        returned = claims.claim("yurii:threads-test", locator="x", statement="s", method="count",
                                expect="holds", threads=1)(check)
        registered = claims.registry()["yurii:threads-test"]
    finally:
        _ledger._REGISTRY.pop("yurii:threads-test", None)  # keep the global registry clean
    assert returned is check and registered.check is not check
    assert registered.check.__module__ == check.__module__
    assert claims.run(registered, "quick").evidence.criterion == "ran with 1 threads"
    assert torch.get_num_threads() == before

def test_evidence_validation():
    with pytest.raises(ValueError, match="verdict"):
        Evidence(verdict="true", criterion="x")
    with pytest.raises(ValueError, match="criterion"):
        Evidence(verdict="holds", criterion="")
    with pytest.raises(ValueError, match="correction"):
        Evidence(verdict="holds-with-correction", criterion="x")


def test_claim_validation():
    ok = lambda b: Evidence("holds", "trivial")  # noqa: E731
    with pytest.raises(ValueError, match="PAPER:label"):
        _claim(ok, id="nopaper")
    with pytest.raises(ValueError, match="PAPER:label"):
        _claim(ok, id="unknown:x")
    with pytest.raises(ValueError, match="expect"):
        _claim(ok, expect="true")
    with pytest.raises(ValueError, match="source"):
        Claim(id="yurii:x", source=(SEED, "Eq. 1"), statement="s", method="property", check=ok,
              expect="holds")
    with pytest.raises(ValueError, match="method"):
        Claim(id="sp_transformer:x", source=(SEED, "Eq. 1"), statement="s", method="vibes",
              check=ok, expect="holds")


def test_raising_check_is_an_error_row_not_dropped():
    def boom(budget):
        raise ZeroDivisionError("bad")
    r = claims.run(_claim(boom), "quick")
    assert r.verdict == "error" and not r.as_expected
    assert "ZeroDivisionError" in r.error
    d = r.as_dict()
    assert d["verdict"] == "error" and "ZeroDivisionError" in d["evidence"]["error"]
    assert "ERROR" in paper_page([r], "sp_transformer", "quick")
    assert table([r]).splitlines()[-1] == "error in sp_transformer:test-claim: ZeroDivisionError: bad"


def test_check_returning_wrong_type_is_an_error():
    r = claims.run(_claim(lambda b: True), "quick")
    assert r.verdict == "error" and "not Evidence" in r.error


def test_expect_quick_pins_the_quick_budget_only():
    c = _claim(lambda b: Evidence("inconclusive" if b == "quick" else "holds", "seeds"),
               expect="holds", expect_quick="inconclusive")
    assert claims.run(c, "quick").as_expected and claims.run(c, "full").as_expected
    assert claims.run(c, "quick").as_dict()["expect"] == "inconclusive"


def test_unknown_budget():
    with pytest.raises(ValueError, match="budget"):
        claims.run(_claim(lambda b: Evidence("holds", "x")), "medium")


def test_a_sentence_checked_twice_is_counted_once():
    """A claim that `repeats` another (the same sentence, checked at another level) is kind
    `repeat` whatever its verdict: listed with its verdict and a pointer, never a second erratum or
    statement in the tallies; and every registered `repeats` names a claim of the same paper whose
    quoted text the repeat's quote contains or is contained in."""
    def run(verdict, repeats=""):
        ev = Evidence(verdict, "c", correction="fix", readings=[claims.reading("a", verdict == "holds")])
        c = Claim(id="sp_transformer:k", source=(SEED, "Theorem 0"), statement="s", method="property",
                  check=lambda b: ev, expect=verdict, paper_text="quoted", repeats=repeats)
        return claims.run(c, "quick")
    first, again = run("fails"), run("fails", repeats="sp_transformer:other")
    assert first.kind == "erratum" and again.kind == "repeat" and again.as_dict()["repeats"] == "sp_transformer:other"
    t = tallies([(first.verdict, first.kind, first.claim.id), (again.verdict, again.kind, again.claim.id)])
    assert (t["erratum"], t["statements"], t["repeat"], t["claims"]) == (1, 1, 1, 2)
    page = paper_page([first, again], "sp_transformer", "quick")
    assert "FAILS · repeats a counted sentence" in page and "- repeats: `sp_transformer:other`" in page
    registry = claims.load()
    repeats = {c.id: c.repeats for c in registry.values() if c.repeats}
    assert repeats, "no registered repeat: the test would check nothing"

    def sentences(text):
        return {" ".join(t.split()) for t in text.replace("$", "").split(". ") if len(t.split()) > 3}
    for cid, other in repeats.items():
        assert other in registry and registry[other].paper == registry[cid].paper and other != cid
        assert sentences(registry[cid].paper_text) & sentences(registry[other].paper_text), (cid, other)


def test_json_keys_are_stable_and_values_plain():
    ev = Evidence("fails", "err < 1e-12", numbers={"err": np.float64(0.5), "v": np.arange(3),
                                                  "inf": math.inf},
                  counterexample={"Z": np.eye(2)})
    r = claims.run(_claim(lambda b: ev, expect="fails"), "quick")
    [row] = json.loads(to_json([r]))
    assert list(row) == ["id", "paper", "source", "locator", "statement", "method", "verdict",
                         "expect", "premise", "repeats", "kind", "root_cause", "slip", "referee", "review",
                         "extension", "evidence"]
    assert list(row["evidence"]) == ["paper_text", "premise", "criterion", "numbers", "counterexample",
                                     "correction", "readings", "ambiguity"]
    assert row["paper"] == "sp_transformer" and row["locator"] == "Theorem 0"
    assert row["evidence"]["numbers"] == {"err": 0.5, "v": [0, 1, 2], "inf": "inf"}
    assert row["evidence"]["counterexample"] == {"Z": [[1.0, 0.0], [0.0, 1.0]]}
    assert "sp_transformer:test-claim" in table([r])


def test_select_rejects_unknown_filters():
    with pytest.raises(ValueError, match="only"):
        claims.select(["no-such-paper"])


def test_cli_json_roundtrip(capsys):
    from claims.__main__ import main
    ids = ["sp_transformer:eq-17-18", "sp_transformer:thm-2-converse"]  # two second-long claims
    main(["--json", "--only", *ids])
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == ids and all(r["paper"] == "sp_transformer" for r in rows)
    assert all(r["verdict"] in claims.VERDICTS for r in rows)


# ------------------------------------------------------------------ readings (issue 28)

@pytest.mark.parametrize("verdicts, corrected, verdict, ambiguous", [
    (("holds",), None, "holds", False),
    (("holds", "fails"), True, "holds", True),           # one reading holds: not an erratum
    (("fails", "fails"), True, "holds-with-correction", False),
    (("fails", "fails"), False, "fails", False),
    (("fails", "inconclusive"), True, "inconclusive", False),
    (("holds", "inconclusive"), None, "holds", False)])
def test_decide_readings_accuses_only_when_every_reading_fails(verdicts, corrected, verdict, ambiguous):
    rds = [claims.reading(f"reading {i}", {"holds": True, "fails": False, "inconclusive": None}[v], x=i)
           for i, v in enumerate(verdicts)]
    ev = claims.decide_readings(rds, corrected, criterion="c", correction="the fix",
                                ambiguity="reading 0 vs reading 1" if len(verdicts) > 1 else None)
    assert ev.verdict == verdict
    assert (ev.ambiguity is not None) == ambiguous
    assert [r["verdict"] for r in ev.readings] == list(verdicts) and ev.readings[0]["x"] == 0


def test_an_erratum_beside_a_reading_that_holds_is_refused():
    with pytest.raises(ValueError, match="every reasonable reading"):
        Evidence("fails", "c", readings=[claims.reading("a", True), claims.reading("b", False)],
                 ambiguity="a vs b")
    with pytest.raises(ValueError, match="ambiguity"):
        Evidence("holds", "c", readings=[claims.reading("a", True), claims.reading("b", False)])
    with pytest.raises(ValueError, match="readings"):
        Evidence("holds", "c", readings=[{"reading": "a", "verdict": "maybe"}])
    with pytest.raises(ValueError, match="readings"):
        claims.decide_readings([], criterion="c")


def test_result_kind_keeps_premises_and_ambiguities_apart_from_errata():
    def run(verdict, premise=False, ambiguity=None):
        rds = ([claims.reading("a", True), claims.reading("b", False)] if ambiguity else ())
        ev = Evidence(verdict, "c", correction="fix", readings=rds, ambiguity=ambiguity)
        c = Claim(id="sp_transformer:k", source=(SEED, "Theorem 0"), statement="s", method="property",
                  check=lambda b: ev, expect=verdict, premise=premise, paper_text="quoted")
        return claims.run(c, "quick")
    assert run("fails").kind == "erratum" and run("holds-with-correction").kind == "erratum"
    assert run("fails", premise=True).kind == "premise"
    assert run("holds", ambiguity="a vs b").kind == "ambiguity" and run("holds").kind == "holds"
    d = run("fails", premise=True).as_dict()
    assert d["evidence"]["paper_text"] == "quoted" and d["evidence"]["premise"] is True
    page = paper_page([run("fails", premise=True), run("holds", ambiguity="a vs b")], "sp_transformer", "quick")
    assert "Unstated premises, extensions and repeats" in page and "holds · ambiguous" in page
    assert "FAILS · premise" in page and "> quoted" in page


def test_a_class_other_than_the_reviews_decision_is_flagged_like_a_verdict_other_than_expect():
    """A reviewed claim (claims/<paper>/reviews.json) must compute the class its review decided:
    a check still computing an ambiguity the referees re-judged as `holds` is not as expected,
    is flagged in the table and makes `python -m claims` exit 1; an experiment's class follows its
    runs, trained since the review or not, at every budget."""
    ambiguous = Evidence("holds", "c", readings=[claims.reading("a", True), claims.reading("b", False)],
                         ambiguity="a vs b")

    def run(decided, method="property", budget="quick"):
        c = Claim(id="sp_transformer:k", source=(SEED, "Theorem 0"), statement="s", method=method,
                  check=lambda b: ambiguous, expect="holds", review={"decided": decided, "rule": "R3"})
        return claims.run(c, budget)
    assert run("ambiguity").as_expected and run("ambiguity").as_reviewed
    stale = run("holds")
    assert stale.verdict == stale.claim.expect and not stale.as_reviewed and not stale.as_expected
    assert "class ambiguity, the review decided holds" in table([stale])
    assert run("holds", method="experiment").as_expected
    assert run("holds", method="experiment", budget="full").as_expected
    assert not run("holds", budget="full").as_expected


def test_an_experiments_review_decision_is_shown_as_of_its_time():
    """An experiment's class follows its committed runs, not its review (`Result.as_reviewed`):
    the page says so beside the decision, so a review that predates the runs does not read as a
    contradiction of the verdict."""
    ev = Evidence("fails", "c", numbers={"scale": {"params_ratio_paper_over_ours": 9.0}},
                  readings=[claims.reading("a", False)])

    def page(method):
        c = Claim(id="sp_transformer:k", source=(SEED, "Table 9"), statement="s", method=method,
                  check=lambda b: ev, expect="fails", review={"decided": "inconclusive", "rule": "R3"})
        return paper_page([claims.run(c, "quick")], "sp_transformer", "quick")
    assert "review decided: inconclusive (at the time of the review; an experiment's class follows" in page("experiment")
    assert "- review decided: inconclusive\n" in page("property")


def test_an_experiment_that_fails_at_proxy_scale_is_not_an_erratum():
    """An experiment whose evidence states a smaller model than the paper's (`scale`) and fails is
    kind `proxy`, tagged on the page and counted apart; at the paper's scale (or without a scale)
    it is `not-reproduced` (the paper's report of its own runs is not shown wrong either); a
    property check that fails is an erratum."""
    def run(ratio, method="experiment"):
        ev = Evidence("fails", "c", numbers={"scale": {"params_ratio_paper_over_ours": ratio}},
                      readings=[claims.reading("a", False)])
        c = Claim(id="sp_transformer:k", source=(SEED, "Table 9"),
                  statement="s", method=method, check=lambda b: ev, expect="fails", paper_text="quoted")
        return claims.run(c, "quick")
    assert run(571.0).kind == "proxy" and run(1.0).kind == "not-reproduced"
    assert run(571.0, method="property").kind == "erratum"
    page = paper_page([run(571.0)], "sp_transformer", "quick")
    assert "FAILS · at proxy scale" in page and "1 experiment decided at proxy scale (0 hold, 1 fail" in page
    page = paper_page([run(1.0)], "sp_transformer", "quick")
    assert "FAILS · not reproduced" in page and "1 experiment at the paper's own scale" in page
    assert page_kinds(page)["sp_transformer:k"] == ("fails", "not-reproduced", "sp_transformer:k")


def _slip_claim(cid, slip, verdict="holds-with-correction", **kw):
    ev = Evidence(verdict, "c", correction="fix", readings=[claims.reading("as printed", False)])
    return Claim(id=cid, source=(SEED, "eq. (9)"), statement="s", method="property",
                 check=lambda b: ev, expect=verdict, paper_text="quoted", slip=slip, **kw)


def test_a_misprint_shows_its_intended_form_and_one_slip_counts_once():
    """A statement false as printed is a `misprint` when the paper shows the intended form
    (`Slip.intended_at`), else an `erratum`; consequences name their root cause, and the tallies,
    the page cells and the errata sheet count the root once (issue 38)."""
    root = _slip_claim("sp_transformer:a", claims.Slip("+x", "-x", intended_at="eq. (10)"))
    cons = _slip_claim("sp_transformer:b", claims.Slip("y(+x)", "y(-x)", intended_at="eq. (10)",
                                                       root_cause="sp_transformer:a"))
    derived = _slip_claim("sp_transformer:c", claims.Slip("2", "4"))
    results = [claims.run(c, "quick") for c in (root, cons, derived)]
    assert [r.kind for r in results] == ["misprint", "misprint", "erratum"]
    assert [r.claim.root_cause for r in results] == ["sp_transformer:a", "sp_transformer:a", "sp_transformer:c"]
    t = tallies((r.verdict, r.kind, r.claim.root_cause) for r in results)
    assert (t["misprint"], t["misprint_roots"], t["misprint_consequences"], t["erratum_roots"]) == (2, 1, 1, 1)
    page = paper_page(results, "sp_transformer", "quick")
    assert "holds (corrected) · misprint, consequence of `sp_transformer:a`" in page
    assert page_kinds(page)["sp_transformer:b"] == ("holds-with-correction", "misprint", "sp_transformer:a")
    sheet = errata_page(results, "sp_transformer")
    assert "2 root causes: 1 misprint (typo class), 1 erratum" in sheet and "shows the intended form at eq. (10)" in sheet
    assert sheet.count("## ") == 2 + 2 and "[`sp_transformer:b`]" in sheet
    assert results[0].as_dict()["root_cause"] == "sp_transformer:a"
    with pytest.raises(ValueError, match="slip"):
        claims.Slip("", "x")


def test_readings_not_admitted_are_shown_but_do_not_decide():
    """A reading that changes a printed symbol is a correction (R2): it does not make the printed
    text hold, and it becomes the correction; an invented failing reading (R3) does not make an
    ambiguity (issue 38)."""
    misprint = claims.decide_readings([claims.reading("as printed", False),
                                       claims.reading("a misprint for -x", True, not_admitted="correction")],
                                      criterion="c")
    assert misprint.verdict == "holds-with-correction" and misprint.correction == "a misprint for -x"
    assert misprint.ambiguity is None and len(misprint.readings) == 2
    rds = [claims.reading("as printed", True), claims.reading("only at t = 1", False, not_admitted="invented")]
    invented = claims.decide_readings(rds, criterion="c", ambiguity=claims.disagreement(rds))
    assert invented.verdict == "holds" and invented.ambiguity is None
    with pytest.raises(ValueError, match="not_admitted"):
        claims.reading("x", True, not_admitted="because")
    with pytest.raises(ValueError, match="correction_holds"):   # a correction decided, another shown
        claims.decide_readings([claims.reading("as printed", False),
                                claims.reading("a misprint for -x", True, not_admitted="correction")],
                               False, criterion="c")
    with pytest.raises(ValueError, match="admissible"):
        claims.decide_readings([claims.reading("x", True, not_admitted="rescue")], criterion="c")


def test_a_rescue_is_never_the_correction():
    """A rescue (R4) is the text with what it does not say: it is shown, it never decides, and it
    never becomes the correction, even when it holds (an experiment not reproduced stays a fail; an
    erratum that adds a hypothesis names its correction)."""
    printed_fails = claims.reading("as printed", False)
    spread = claims.reading("a weaker property the text does not state", True, not_admitted="rescue")
    ev = claims.decide_readings([printed_fails, spread], criterion="c")
    assert ev.verdict == "fails" and ev.correction is None and len(ev.readings) == 2
    named = claims.decide_readings([printed_fails, spread], True, criterion="c",
                                   correction="with the hypothesis the text omits")
    assert named.verdict == "holds-with-correction" and named.correction == "with the hypothesis the text omits"
    undecided = claims.decide_readings([claims.reading("as printed", None), spread], criterion="c")
    assert undecided.verdict == "inconclusive" and undecided.correction is None


def test_rounding_level_errors_and_float_keys_print_the_same_on_every_machine():
    from claims._ledger import RoundingLevel, jsonable
    from claims._report import _fmt
    assert _fmt(jsonable({"e": RoundingLevel(1.72e-10, 1e-8)})) == _fmt({"e": RoundingLevel(4.66e-10, 1e-8)})
    assert json.loads(json.dumps(jsonable({"e": RoundingLevel(1.72e-10, 1e-8)}))) == {"e": 1.72e-10}
    assert _fmt({"9.391585430568988": 1}) == _fmt({"9.39158543056899": 1}) == "{9.39159: 1}"
    with pytest.raises(ValueError, match="bound"):
        RoundingLevel(1.0, 1e-8)


def test_the_page_says_how_many_entries_a_shortened_list_or_dict_hides():
    from claims._report import _fmt
    assert _fmt(list(range(10))) == "[0, 1, 2, 3, 4, 5, … (4 more in the JSON)]"
    assert "more in the JSON" not in _fmt(list(range(10)), full=True)
    assert _fmt({str(i): i for i in range(14)}).endswith("… (2 more in the JSON)}")
    assert _fmt(1.55e-16) == _fmt(1.54e-16) == _fmt(3.06e-13) == "|x| < 1e-12" and _fmt(0.0) == "0"


def test_every_committed_errata_entry_shows_its_counterexample():
    """An errata sheet's entry reads as a journal erratum: the inputs that refute the printed text,
    not the check's criterion (the sheet's fallback when a check records no counterexample), and no
    value missing from the sweep it was looked up in (a κ = 100 the full grid lacks printed None)."""
    sheets = sorted((Path(__file__).parents[1] / "docs" / "errata").glob("*.md"))
    assert len(sheets) == len(claims.PAPERS)
    for sheet in sheets:
        for line in re.findall(r"^- evidence: (.*)$", sheet.read_text(), re.M):
            assert line.startswith("{") and ": None" not in line, f"{sheet.name}: {line[:160]}"


def test_an_ambiguity_note_needs_two_admitted_readings():
    """An ambiguity is two readings the printed words support (docs/architecture.md): a note given
    with one admitted reading could never be shown, so it is refused, and the experiments' shared
    note (`disagreement`) names only the admitted readings."""
    one = [claims.reading("as printed", False), claims.reading("a rescue", True, not_admitted="rescue")]
    with pytest.raises(ValueError, match="ambiguity"):
        claims.decide_readings(one, criterion="c", ambiguity="a note")
    assert claims.disagreement(one) is None
    two = [claims.reading("the first", True), claims.reading("the second", False), *one[1:]]
    assert claims.disagreement(two) == "the readings disagree: the first -> holds; the second -> fails"
    ev = claims.decide_readings(two, criterion="c", ambiguity=claims.disagreement(two))
    assert ev.verdict == "holds" and ev.ambiguity == claims.disagreement(two)


def test_every_referee_finding_in_reviews_json_reaches_its_claim():
    """claims/<paper>/reviews.json: each referee's finding (A, B, then C, D, …) is shown with its
    claim, never dropped by the loader, whatever letter the referee has."""
    import claims
    from claims._ledger import PAPERS, reviews
    registry = claims.load(sorted(PAPERS))
    letters_seen = set()
    for paper in PAPERS:
        for cid, review in reviews(paper).items():
            for key, finding in review.items():
                if len(key) == 1 and finding:
                    letters_seen.add(key)
                    assert registry[cid].review[key] == finding, (cid, key)
    assert {"A", "B", "H", "I"} <= letters_seen

"""The ledger machinery: verdict rule, validation, error rows, JSON keys, CLI exit status."""
import json
import math

import numpy as np
import pytest

import claims
from claims import Claim, Evidence, verdict_from
from claims._report import markdown, table, to_json

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
    assert "ERROR" in markdown([r], "quick")
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


def test_json_keys_are_stable_and_values_plain():
    ev = Evidence("fails", "err < 1e-12", numbers={"err": np.float64(0.5), "v": np.arange(3),
                                                  "inf": math.inf},
                  counterexample={"Z": np.eye(2)})
    r = claims.run(_claim(lambda b: ev, expect="fails"), "quick")
    [row] = json.loads(to_json([r]))
    assert list(row) == ["id", "paper", "source", "locator", "statement", "method", "verdict",
                         "expect", "evidence"]
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

"""`--jobs N` (issue 39): `python -m figures` and `python -m claims` in a process pool write the
bytes of the sequential run, a claim a figure shows is computed once (in the figure's task), the
timing table goes where the rule says, and a worker that dies or a claim a worker does not know
becomes what the sequential run would give."""
import hashlib
import json
import os
from pathlib import Path

import pytest

import claims
from claims import _jobs
from claims.__main__ import main as claims_main
from figures import Context
from figures import __main__ as figures_cli
from figures._pool import Task, plan, tasks_of

# Three cheap figures at the quick budget; threshold-N0 and transient-growth share a claim
# (momentum_streams:lemma-F.2), so they are one task.
FIGURES = ["jacobian-diagnostics", "threshold-N0", "transient-growth"]
OTHER = ["sp_transformer:eq-4", "yurii:param-count"]  # ledger claims no figure of these shows


@pytest.fixture(autouse=True)
def _restore_recompute(monkeypatch):
    monkeypatch.setattr(claims.settings, "recompute", False)


def _digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_pool_writes_the_bytes_of_the_sequential_run_and_computes_each_claim_once(tmp_path,
                                                                                monkeypatch):
    registered = claims.load()
    shown = sorted({c for f in FIGURES for c in figures_cli.load()[f].claims})
    few = [registered[i] for i in sorted({*shown, *OTHER})]
    monkeypatch.setattr(claims, "select", lambda only=None: few)
    contexts = []

    class Spy(Context):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            contexts.append(self)

    monkeypatch.setattr(figures_cli, "Context", Spy)
    pooled_tasks, real_run = [], figures_cli._pool.run
    monkeypatch.setattr(figures_cli._pool, "run", lambda ctx, figs, tasks, *a: (
        pooled_tasks.append(tasks), real_run(ctx, figs, tasks, *a))[1])
    for jobs in (1, 2):
        assert figures_cli.main(["--quick", "--only", *FIGURES, "ledger", "--jobs", str(jobs),
                                 "--out", str(tmp_path / f"jobs{jobs}")]) == 0
    sequential, pooled = (_digests(tmp_path / f"jobs{j}") for j in (1, 2))
    assert sequential == pooled
    assert {"claims.md", "coverage.md", "ledger/momentum_streams.md", "jacobian-diagnostics.png",
            "threshold-N0.png", "transient-growth.png"} <= set(pooled)
    assert "timings.md" not in pooled  # a run with --only writes no timing table
    assert sorted(t.figures for t in pooled_tasks[0]) == [  # --jobs 2 only, in the pool
        (), (), ("jacobian-diagnostics",), ("threshold-N0", "transient-growth")]
    for ctx in contexts:
        ran = [cid for cid, _, _ in ctx.runs]
        assert sorted(ran) == sorted(c.id for c in few)  # each claim once, none twice
    # the claims a figure draws were computed while it drew them, in its task
    where = {cid: w for cid, w, _ in contexts[1].runs}
    assert where["momentum_streams:lemma-F.2"] in ("threshold-N0", "transient-growth")
    assert where["momentum_streams:thm-F.4"] == "threshold-N0"
    assert where["momentum_streams:sec-5.3-jacobian"] == "jacobian-diagnostics"
    assert all(where[c] == "" for c in OTHER)
    assert set(contexts[1].drawn) == set(FIGURES)


def test_claims_json_is_the_same_with_a_pool_and_a_claim_only_this_process_knows(capfd, monkeypatch):
    """`python -m claims --json --jobs 2`: stdout is the JSON of `--jobs 1`, whatever the checks
    print; a claim registered here at run time (the workers do not know it) runs here."""
    check = claims.claim("yurii:jobs-test-claim", locator="Test", statement="s", method="count",
                         expect="holds")(lambda budget: claims.decide(True, criterion="runs here"))
    pooled, real = [], _jobs.run_pooled
    monkeypatch.setattr(_jobs, "run_pooled",
                        lambda c, *a, **k: pooled.append(len(c)) or real(c, *a, **k))
    try:
        out = []
        for jobs in ("1", "2"):
            assert claims_main(["--json", "--jobs", jobs, "--only", "yurii:param-count",
                                "yurii:jobs-test-claim", "sp_transformer:eq-4"]) == 0
            out.append(capfd.readouterr().out)
    finally:
        claims._ledger._REGISTRY.pop("yurii:jobs-test-claim", None)
    assert check is not None and out[0] == out[1] and pooled == [3]
    assert [r["id"] for r in json.loads(out[1])] == ["sp_transformer:eq-4", "yurii:jobs-test-claim",
                                                     "yurii:param-count"]  # the ledger's order


def test_a_worker_that_dies_is_reported_for_its_task():
    received, failed = [], []
    _jobs.pool([(os._exit, (3,))], 2, lambda i, v: received.append(i),
               lambda i, exc: failed.append((i, type(exc).__name__)))
    assert received == [] and failed == [(0, "BrokenProcessPool")]
    assert _jobs.worker_error(RuntimeError("gone")).startswith("RuntimeError: gone\n")


def test_plan_groups_figures_by_shared_claims_and_puts_the_slowest_first():
    figures = {"a": ["p:1"], "b": ["p:2"], "c": ["p:1", "p:3"], "d": ["p:3", "p:4"], "e": []}
    ledger = ["p:0", "p:1", "p:2", "p:3", "p:4", "p:5"]
    tasks = plan(figures, list(figures), ledger)
    assert tasks == [Task(("a", "c", "d"), ("p:1", "p:3", "p:4")), Task(("b",), ("p:2",)),
                     Task(("e",), ()), Task((), ("p:0",)), Task((), ("p:5",))]
    slow = plan(figures, ["b", "e"], ledger, {"p:5": 9.0, "e": 1.0, "p:2": 0.5})
    assert slow == [Task((), ("p:5",)), Task(("e",), ()), Task(("b",), ("p:2",)),
                    Task((), ("p:0",)), Task((), ("p:1",)), Task((), ("p:3",)), Task((), ("p:4",))]


def test_rounding_level_evidence_travels_back_as_it_left():
    from claims._ledger import Result, RoundingLevel
    from claims._report import _fmt
    claim = claims.load()["yurii:param-count"]
    ev = claims.decide(True, criterion="c", numbers={"err": RoundingLevel(1e-17, 1e-13), "v": [1.5]})
    back = _jobs.unpack(_jobs.pack(Result(claim, "quick", ev), 0.1), claim, "quick")
    assert back.evidence == ev and _fmt(back.evidence.numbers["err"]) == "< 1e-13 (rounding level)"
    unpicklable = claims.decide(True, criterion="c", numbers={"f": lambda: 0})
    assert "does not pickle" in _jobs.pack(Result(claim, "quick", unpicklable), 0.1).missing


def test_timing_table_replaces_its_section_and_is_read_back(tmp_path):
    table = _jobs.timing_table({"p:a": 3.25, "p:b": 10.0}, {"fig": 2.0}, budget="full", jobs=2,
                               wall=12.0)
    assert _jobs.known_seconds("full", _write(tmp_path / "t.md", table)) == {"p:a": 3.2, "p:b": 10.0,
                                                                            "fig": 2.0}
    doc = _write(tmp_path / "testing.md", f"# T\n\nbefore\n\n{_jobs.MARK_BEGIN}\nold\n{_jobs.MARK_END}\n\nafter\n")
    text = _jobs.with_table(doc.read_text(), table)
    assert text.startswith("# T\n\nbefore\n\n" + table.rstrip("\n")) and text.endswith("\n\nafter\n")
    assert "old" not in text and _jobs.with_table(text, table) == text
    assert _jobs.with_table("# T\n", table) == "# T\n\n## Timings of the full run\n\n" + table


def test_the_committed_timing_section_is_in_docs_testing():
    text = _jobs.TESTING.read_text()
    assert text.count(_jobs.MARK_BEGIN) == 1 and text.count(_jobs.MARK_END) == 1


@pytest.mark.parametrize("main", [claims_main, figures_cli.main])
def test_jobs_below_one_is_a_one_line_error(main, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--jobs", "0"])
    assert exc.value.code == 2 and "--jobs: must be a whole number >= 1" in capsys.readouterr().err


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_every_claim_runs_once_in_the_task_of_the_figures_it_names_or_that_name_it():
    figs, ledger = figures_cli.load(), list(claims.load().values())
    tasks = tasks_of(figs, list(figs), ledger, "quick")
    assert sorted(c for t in tasks for c in t.claims) == sorted(c.id for c in ledger)
    assert sorted(f for t in tasks for f in t.figures) == sorted(figs)
    task_of = {x: t for t in tasks for x in (*t.figures, *t.claims)}
    for c in ledger:
        for f in (f for f in c.figures if f in figs):
            assert task_of[c.id] is task_of[f], (c.id, f)
    for f in figs.values():
        assert all(task_of[c] is task_of[f.name] for c in f.claims), f.name

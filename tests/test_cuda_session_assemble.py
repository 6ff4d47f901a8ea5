"""tools/cuda_session.py assemble: a lent GPU's part files merged into the committed
results/bench/cuda-measurements.json (no CUDA needed: only the bookkeeping is tested)."""
import json
import sys
from pathlib import Path

import claims._committed as committed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import cuda_session  # noqa: E402


def _part(variants):
    return {"momentum_streams": {"variants": {v: {"median_step_s": t} for v, t in variants.items()}}}


def test_a_part_found_replaces_its_committed_part_and_keeps_the_others(monkeypatch, tmp_path):
    """Re-measuring one part (here the compiled one) must not erase the committed eager part, and the
    committed part's exclusions go with it while a new exclusion is recorded with its reason."""
    monkeypatch.setattr(committed, "RESULTS", tmp_path / "results")
    (tmp_path / "results").mkdir()
    old = {"config": {}, "eager": _part({"gd-lt": 1.0, "tmm": 1.2}), "compiled": _part({"gd-lt": 0.5}),
           "provenance": {"note": "old", "excluded": {"wallclock-compiled:momentum_streams:tmm": "ran eager",
                                                      "wallclock:momentum_streams:adam": "kept"}}}
    (tmp_path / "results" / "cuda-measurements.json").write_text(json.dumps(old))
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "wallclock-compiled.json").write_text(json.dumps(_part({"gd-lt": 0.6, "tmm": 0.7, "hb": 9.0})))
    cuda_session.assemble([parts], ["wallclock-compiled:momentum_streams:hb=recompiled"], "new")
    out = json.loads((tmp_path / "results" / "cuda-measurements.json").read_text())
    assert out["eager"] == old["eager"]
    assert out["compiled"] == _part({"gd-lt": 0.6, "tmm": 0.7})
    assert out["provenance"] == {"note": "new", "excluded": {"wallclock:momentum_streams:adam": "kept",
                                                             "wallclock-compiled:momentum_streams:hb": "recompiled"}}


def test_an_extra_compiled_group_is_added_beside_the_part_and_decides_its_own_pairs(monkeypatch, tmp_path):
    """A group measured later (its own vanilla) is added beside the committed compiled part, not
    merged into it: a ratio pairs rounds only within one group (`measured_groups`)."""
    import claims._gpu as lw
    monkeypatch.setattr(committed, "RESULTS", tmp_path / "results")
    (tmp_path / "results").mkdir()
    steps = {"gd-lt": [1.0, 1.0, 1.0], "tmm": [1.2, 1.1, 1.2]}
    main = {"device": "GPU", "torch": "t", "rounds": 3, "variants": {v: {"step_seconds": s} for v, s in steps.items()}}
    (tmp_path / "results" / "cuda-measurements.json").write_text(json.dumps(
        {"config": {}, "compiled": {"momentum_streams": main}, "provenance": {"excluded": {}}}))
    parts = tmp_path / "parts"
    parts.mkdir()
    extra = {"device": "GPU", "torch": "t", "rounds": 3,
             "variants": {"gd-lt": {"step_seconds": [2.0, 2.0, 2.0]}, "muon": {"step_seconds": [6.0, 7.0, 8.0]}}}
    (parts / "wallclock-compiled-extra.json").write_text(json.dumps({"momentum_streams/muon": extra}))
    cuda_session.assemble([parts], [], "n")
    out = json.loads((tmp_path / "results" / "cuda-measurements.json").read_text())
    assert set(out["compiled"]) == {"momentum_streams", "momentum_streams/muon"}
    monkeypatch.setattr(lw, "cuda_measurements", lambda: out)
    assert [g["variants"].keys() for g in lw.measured_groups("compiled", "momentum_streams")] == [
        steps.keys(), extra["variants"].keys()]
    assert lw.measured_on_cuda("momentum_streams", "muon", "gd-lt")["compiled"]["median"] == 3.5   # 7/2, not 7/1
    assert lw.measured_on_cuda("momentum_streams", "tmm", "gd-lt")["compiled"]["median"] == 1.2
    assert lw.measured_on_cuda("momentum_streams", "muon", "tmm") == {}   # never timed together


def test_every_timed_part_writes_its_groups_as_measured(monkeypatch, tmp_path):
    """The eager, compiled and extra parts are one routine over groups (key -> (paper, variants)):
    each group measured at its paper's size with the part's rounds and execution, the file
    rewritten after each group (measure_steps replaced: no CUDA here)."""
    import particles.lm.bench as bench
    calls = []

    def fake(setting, variants, *, device, compile, rounds):
        calls.append((setting.n_layer, tuple(variants), device, compile, rounds))
        return {"variants": {v: {} for v in variants}}
    monkeypatch.setattr(bench, "measure_steps", fake)
    monkeypatch.setattr(cuda_session.torch.cuda, "empty_cache", lambda: None)
    cuda_session.wallclock_compiled_extra(tmp_path)
    cuda_session.wallclock(tmp_path)
    extra = json.loads((tmp_path / "wallclock-compiled-extra.json").read_text())
    eager = json.loads((tmp_path / "wallclock.json").read_text())
    assert list(extra) == ["momentum_streams/muon"] and set(eager) == {"yurii", "sympformer", "momentum_streams"}
    assert calls[0] == (12, ("gd-lt", "muon", "adamw"), "cuda", True, cuda_session.COMPILED_ROUNDS)
    order = ("yurii", "sympformer", "momentum_streams")   # cheapest first
    assert [c[4] for c in calls[1:]] == [cuda_session.ROUNDS[p] for p in order] and not any(c[3] for c in calls[1:])


def test_the_keops_probe_reports_a_crash_instead_of_taking_the_part_down(monkeypatch):
    """GeomLoss's KeOps backend is probed in a child process: a child that dies (here: no CUDA in
    this torch build, or a segfault as on the H200 of 26 Nov 2026) gives the reason, never raises."""
    monkeypatch.setattr(cuda_session, "KEOPS_PROBE", "import os; os.kill(os.getpid(), 11)")
    why = cuda_session.keops_on_cuda()
    assert why.startswith("KeOps failed in a probe") and "exit status -11" in why
    monkeypatch.setattr(cuda_session, "KEOPS_PROBE", "pass")
    assert cuda_session.keops_on_cuda() is None

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

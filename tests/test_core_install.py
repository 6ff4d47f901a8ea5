"""Every command runs on the core install (numpy, scipy, sympy, matplotlib, torch, tqdm): the
optional packages (POT, PEPit, GeomLoss, datasets) and the test extras (pytest, hypothesis) are
imported only inside the code paths that need them, each guarded. CI runs the whole core path in a
venv without the extras (`make test-core`); these tests keep the import rule and the PEPit-less
bench fast to check."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from figures import Context
from figures import bench_pepit

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = ("ot", "PEPit", "geomloss", "pykeops", "datasets", "cvxpy", "hypothesis", "pytest")

# a fresh interpreter in which importing any OPTIONAL package fails as if it were not installed
BLOCKED_IMPORTS = f"""
import importlib.abc, sys
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {OPTIONAL!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked by the test)", name=name)
sys.meta_path.insert(0, NotInstalled())
"""


def test_the_ledger_and_the_figures_load_without_the_optional_packages():
    """Registering every claim and figure imports no optional package at module level."""
    script = BLOCKED_IMPORTS + (
        "import claims, figures\n"
        "print(len(claims.load()), len(figures.load()))\n"
        "print(sorted(m for m in sys.modules if m.partition('.')[0] in " + repr(OPTIONAL) + "))\n")
    p = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    counts, loaded = p.stdout.splitlines()
    assert all(int(n) > 0 for n in counts.split()) and loaded == "[]", p.stdout


def test_bench_pepit_without_pepit_draws_our_worst_cases_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_pepit, "pepit_installed", lambda: False)
    ctx = Context(out=tmp_path, budget="quick", name="bench-pepit")
    bench_pepit.draw(ctx)
    data = json.loads((tmp_path / "bench-pepit.json").read_text())
    assert data["summary"] == {"skipped": bench_pepit.NO_PEPIT}
    assert (tmp_path / "bench-pepit.png").stat().st_size > 0
    cfg = bench_pepit.config("quick")
    assert len(data["rows"]) == len(cfg["kappa"]) * len(bench_pepit.METHODS) * len(cfg["n"])
    # our value is the exact worst case over the class: max over λ ∈ [μ, L] of q_N(λ)², at least
    # its value at the endpoints λ = μ, L (and GD's is ρ^{2N} exactly, ρ = (κ−1)/(κ+1))
    for r in data["rows"]:
        if r["method"] == "gd":
            rho = (r["kappa"] - 1) / (r["kappa"] + 1)
            assert r["ours"] == pytest.approx(rho ** (2 * r["N"]), rel=1e-12)
    with pytest.raises(RuntimeError, match=r"pip install '\.\[pepit\]'"):
        bench_pepit.measure("full")  # re-measuring the committed file needs the peer

"""The figure registry: listing, argument errors, deterministic bytes, the ledger page."""
import pathlib
import hashlib
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest

import claims
import figures
from figures import Context
from figures.__main__ import main

ROOT = Path(__file__).resolve().parents[1]


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}


def test_every_figure_names_existing_claims():
    import claims
    ledger = claims.load()
    registered = figures.load()
    assert registered, "no figures registered"
    for f in registered.values():
        missing = [c for c in f.claims if c not in ledger]
        assert not missing, f"figure {f.name} names unknown claims {missing}"


def test_list(capsys):
    assert main(["--list"]) == 0
    listed = capsys.readouterr().out
    assert all(name in listed for name in figures.load())


def test_context_writes_identical_bytes_twice(tmp_path):
    digests = []
    for run in range(2):
        ctx = Context(out=tmp_path / str(run), budget="quick", name="probe")
        fig, ax = plt.subplots()
        ax.plot(np.linspace(0, 1, 50) ** 2)
        ctx.save(fig)
        ctx.save_csv(["x", "y"], [(0.1, 1), (0.2, 2)])
        ctx.save_json({"a": np.float64(1.5), "b": [1, 2]})
        digests.append(_digest(tmp_path / str(run)))
    assert digests[0] == digests[1] and len(digests[0]) == 3


def test_cached_reuses_the_stored_result(tmp_path):
    ctx = Context(out=tmp_path, budget="quick", name="probe")
    calls = []
    first = ctx.cached("k", lambda: calls.append(1) or {"v": 1.0})
    second = ctx.cached("k", lambda: calls.append(1) or {"v": 2.0})
    assert first == second == {"v": 1.0} and calls == [1]


def test_cached_recomputes_under_recompute(tmp_path, monkeypatch):
    ctx = Context(out=tmp_path, budget="quick", name="probe")
    ctx.cached("k", lambda: {"v": 1.0})
    monkeypatch.setattr(claims.settings, "recompute", True)
    assert ctx.recompute and ctx.cached("k", lambda: {"v": 2.0}) == {"v": 2.0}
    monkeypatch.setattr(claims.settings, "recompute", False)
    assert ctx.cached("k", lambda: {"v": 3.0}) == {"v": 2.0}


def test_failed_recompute_keeps_the_good_cache(tmp_path, monkeypatch):
    """A computation that dies midway writes nothing: the previous result survives intact."""
    ctx = Context(out=tmp_path, budget="quick", name="probe")
    ctx.cached("k", lambda: {"v": 1.0})
    before = {p.name: p.read_bytes() for p in (tmp_path / ".cache").iterdir()}
    monkeypatch.setattr(claims.settings, "recompute", True)

    def dies():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ctx.cached("k", dies)
    assert {p.name: p.read_bytes() for p in (tmp_path / ".cache").iterdir()} == before


def test_cli_figure_is_deterministic(tmp_path):
    """Two quick runs of one figure give identical bytes, image and data."""
    name = "symplectic-defects"
    assert name in figures.load()
    digests = []
    for run in range(2):
        out = tmp_path / f"run{run}"
        subprocess.run([sys.executable, "-m", "figures", "--quick", "--only", name,
                        "--out", str(out)], cwd=ROOT, check=True, capture_output=True)
        digests.append(_digest(out))
    assert digests[0] == digests[1]
    assert f"{name}.png" in digests[0]
    assert any(n.startswith(name) and not n.endswith(".png") for n in digests[0]), "no data file"


def test_ledger_page_is_deterministic(tmp_path):
    from claims.__main__ import main as claims_main
    pages = []
    for run in range(2):
        page = tmp_path / f"run{run}" / "claims.md"
        claims_main(["--only", "sp_transformer", "--markdown", str(page)])
        pages.append({p.relative_to(page.parent): p.read_text() for p in sorted(page.parent.rglob("*.md"))})
    assert pages[0] == pages[1]
    assert sorted(map(str, pages[0])) == ["claims.md", "errata/sp_transformer.md", "ledger/sp_transformer.md"]
    assert pages[0][pathlib.Path("claims.md")].startswith("# The claims ledger")
    assert "`sp_transformer:eq-4`" in pages[0][pathlib.Path("ledger/sp_transformer.md")]


def test_atomic_write_gives_ordinary_permissions(tmp_path):
    import os
    from theory.io import atomic_write_text
    umask = os.umask(0)
    os.umask(umask)
    path = atomic_write_text(tmp_path / "a" / "b.txt", "x")
    assert path.read_text() == "x"
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert [p.name for p in path.parent.iterdir()] == ["b.txt"]  # no temp file left behind


def test_interrupted_write_keeps_the_good_file(tmp_path):
    from theory.io import atomic_write, atomic_write_text
    path = atomic_write_text(tmp_path / "result.json", '{"v": 1}')

    def dies_midway(tmp):
        Path(tmp).write_text('{"v": 2')
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, dies_midway)
    assert path.read_text() == '{"v": 1}' and list(tmp_path.iterdir()) == [path]

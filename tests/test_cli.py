"""The command lines `python -m figures` and `python -m claims`: every bad input is answered by one
line naming the parameter and its accepted values, exit status 2, no traceback and no file
written; output goes where the rule of `figures/__main__.py` says, never into docs/ unless it is
the full budget; a corrupt or stale cache file is named and rebuilt."""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

import claims
from claims.__main__ import main as claims_main
from figures import Context
from figures import __main__ as figures_cli
from figures._registry import _FIGURES, Figure

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


@pytest.fixture(autouse=True)
def _restore_recompute(monkeypatch):
    """The command lines set the process-wide `claims.settings.recompute`; undo it after a test."""
    monkeypatch.setattr(claims.settings, "recompute", False)


def _digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _unwritable_folder(tmp_path: Path) -> Path:
    """A folder in which no file can be created: read-only for a user, /sys (EACCES) for root."""
    if os.geteuid() != 0:
        folder = tmp_path / "read-only"
        folder.mkdir(mode=0o555)
        return folder
    try:
        tempfile.TemporaryFile(dir="/sys").close()
    except OSError:
        return Path("/sys")
    pytest.skip("no unwritable folder available to root here")


def _exit_code(main, argv) -> int:
    try:
        return main([str(a) for a in argv])
    except SystemExit as exc:
        return exc.code


# (command, argv builder from tmp_path, parameter named, accepted values / remedy named)
BAD_INPUTS = [
    ("figures", lambda t: ["--only", "no-such-figure"], "--only", "accepted: ab2-order"),
    ("figures", lambda t: ["--only", "ab2-order", "--ledger", t / "p.md"], "--ledger",
     "add 'ledger' to --only"),
    ("figures", lambda t: ["--quick", "--out", DOCS / "figures"], "--out", "under docs/"),
    ("figures", lambda t: ["--quick", "--only", "ledger", "--ledger", DOCS / "claims.md"],
     "--ledger", "under docs/"),
    ("figures", lambda t: ["--quick", "--out", t / "a-file"], "--out", "give a folder path"),
    ("figures", lambda t: ["--quick", "--out", t / "a-file" / "sub"], "--out", "is a file"),
    ("figures", lambda t: ["--quick", "--out", _unwritable_folder(t) / "new"], "--out",
     "choose a writable path"),
    ("figures", lambda t: ["--quick", "--only", "ledger", "--ledger", t], "--ledger",
     "give a file path"),
    ("figures", lambda t: ["--quick", "--out"], "--out", "expected one argument"),
    ("figures", lambda t: ["--quick", "--bogus"], "--bogus", "unrecognized arguments"),
    ("figures", lambda t: ["--check", "--quick"], "--quick", "drop --quick"),
    ("figures", lambda t: ["--check", "--recompute"], "--recompute", "drop --recompute"),
    ("figures", lambda t: ["--check", "--out", t / "new"], "--out", "drop --out"),
    ("claims", lambda t: ["--budget", "medium"], "--budget", "choose from 'quick', 'full'"),
    ("claims", lambda t: ["--only", "no-such-paper"], "--only", "papers are ['heatflow'"),
    ("claims", lambda t: ["--only", "yurii:no-such-claim"], "--only", "python -m claims --list"),
    ("claims", lambda t: ["--markdown", DOCS / "claims.md"], "--markdown", "under docs/"),
    ("claims", lambda t: ["--budget", "full", "--only", "yurii", "--markdown", DOCS / "claims.md"],
     "--markdown", "under docs/"),
    ("claims", lambda t: ["--markdown", t / "a-file" / "page.md"], "--markdown", "is a file"),
    ("claims", lambda t: ["--markdown", t], "--markdown", "give a file path"),
    ("claims", lambda t: ["--json", "--markdown", _unwritable_folder(t) / "page.md"], "--markdown",
     "choose a writable path"),
]


@pytest.mark.parametrize("command, argv, param, accepted", BAD_INPUTS,
                         ids=[f"{c}-{i}" for i, (c, *_) in enumerate(BAD_INPUTS)])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(command, argv, param, accepted,
                                                         tmp_path, capsys):
    (tmp_path / "a-file").write_text("not a folder")
    args = argv(tmp_path)
    before, docs_before = _digests(tmp_path), _digests(DOCS)
    code = _exit_code(figures_cli.main if command == "figures" else claims_main, args)
    out, err = capsys.readouterr()
    assert code == 2
    assert out == "" and err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(f"python -m {command}: error: ") and param in err and accepted in err
    assert "Traceback" not in err
    assert _digests(tmp_path) == before and _digests(DOCS) == docs_before  # nothing written


@pytest.mark.parametrize("argv", [["-m", "figures", "--only", "no-such-figure"],
                                  ["-m", "claims", "--markdown", "/dev/null/page.md"]])
def test_bad_input_from_a_shell_has_no_traceback(argv):
    p = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr


def test_json_and_markdown_together(tmp_path, capsys):
    page = tmp_path / "page.md"
    assert claims_main(["--json", "--only", "sp_transformer:eq-4", "yurii:param-count",
                        "--markdown", str(page)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == ["sp_transformer:eq-4", "yurii:param-count"]
    ledger = "".join((tmp_path / "ledger" / f"{paper}.md").read_text() for paper in ("sp_transformer", "yurii"))
    assert all(f"`{r['id']}`" in ledger for r in rows) and "ledger/yurii.md" in page.read_text()


def test_json_stdout_is_the_json_alone_whatever_the_checks_print(capfd, monkeypatch):
    """A check that prints (KeOps warns on stdout when it finds no CUDA; a compiler child process
    writes to descriptor 1) must not corrupt `python -m claims --json`: both go to stderr."""
    import claims.__main__ as cli
    real = cli.run_all

    def noisy(*args, **kwargs):
        print("[KeOps] Warning : CUDA libraries not found")
        os.system("echo compiler log")   # a child process writing to descriptor 1
        return real(*args, **kwargs)

    monkeypatch.setattr(cli, "run_all", noisy)
    assert claims_main(["--json", "--only", "yurii:param-count"]) == 0
    out, err = capfd.readouterr()
    assert [r["id"] for r in json.loads(out)] == ["yurii:param-count"]
    assert "[KeOps] Warning" in err and "compiler log" in err


# ------------------------------------------------------------------------------- output folders

QUICK, FULL = ROOT / "runs" / "figures" / "quick", ROOT / "runs" / "figures" / "full"


@pytest.mark.parametrize("quick, only, out, ledger, expected", [
    (False, None, None, None, (DOCS / "figures", DOCS / "claims.md")),  # the committed full run
    (True, None, None, None, (QUICK, QUICK / "claims.md")),
    (False, ["ab2-order", "ledger"], None, None, (FULL, FULL / "claims.md")),
    (True, None, Path("/tmp/f"), None, (Path("/tmp/f"), Path("/tmp/f/claims.md"))),
    (False, ["ab2-order"], DOCS / "figures", None, (DOCS / "figures", DOCS / "claims.md")),
    (True, None, None, Path("/tmp/p.md"), (QUICK, Path("/tmp/p.md")))])
def test_output_rule(quick, only, out, ledger, expected):
    assert figures_cli.outputs(quick, only, out, ledger) == expected


def test_quick_run_writes_only_inside_its_out(tmp_path, monkeypatch):
    """`python -m figures --quick` (one figure, the ledger page and the coverage page next to it)
    writes runs/figures/quick/ and nothing else: the repository root is moved to tmp_path, docs/
    is compared byte for byte."""
    monkeypatch.setattr(figures_cli, "ROOT", tmp_path)
    few = [claims.load()[i] for i in ("sp_transformer:eq-4", "yurii:param-count")]
    monkeypatch.setattr(claims, "select", lambda only=None: few)
    docs_before = _digests(DOCS)
    assert figures_cli.main(["--quick", "--only", "symplectic-defects", "ledger"]) == 0
    written = sorted(_digests(tmp_path))
    assert written == sorted(f"runs/figures/quick/{n}" for n in
                             ("claims.md", "coverage.md", "symplectic-defects.png",
                              "symplectic-defects.csv", "ledger/sp_transformer.md", "ledger/yurii.md",
                              "errata/sp_transformer.md", "errata/yurii.md"))
    assert "`yurii:param-count`" in (tmp_path / "runs/figures/quick/ledger/yurii.md").read_text()
    assert _digests(DOCS) == docs_before


# ------------------------------------------------------------------------------ the figure cache

def _record(**changes) -> str:
    return json.dumps({"figure": "probe", "key": "k", "budget": "quick", "value": {"v": 1.0},
                       **changes})


CORRUPT = {
    "truncated JSON": (_record()[:40], "unreadable (JSONDecodeError"),
    "empty file": ("", "unreadable (JSONDecodeError"),
    "not UTF-8": (b"\xff\xfe\x00", "unreadable (UnicodeDecodeError"),
    "bare value (no record)": ('{"v": 1.0}', "not a cache record"),
    "a list": ("[1, 2]", "not a cache record"),
    "other budget": (_record(budget="full"), "stale (written for"),
    "other key": (_record(key="n300"), "stale (written for"),
    "other figure": (_record(figure="ab2-order"), "stale (written for"),
}


@pytest.mark.parametrize("case", CORRUPT)
def test_corrupt_or_stale_cache_is_named_and_rebuilt(case, tmp_path, capsys):
    content, problem = CORRUPT[case]
    ctx = Context(out=tmp_path, budget="quick", name="probe")
    path = tmp_path / ".cache" / "probe-k-quick.json"
    path.parent.mkdir()
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    calls = []
    assert ctx.cached("k", lambda: calls.append(1) or {"v": 2.0}) == {"v": 2.0} and calls == [1]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and problem in err
    assert "rebuilding it now" in err and "python -m figures --quick --only probe --out" in err
    assert json.loads(path.read_text()) == json.loads(_record(value={"v": 2.0}))
    assert ctx.cached("k", lambda: calls.append(1)) == {"v": 2.0} and calls == [1]  # reused


def test_cli_recovers_from_a_truncated_cache(tmp_path, monkeypatch, capsys):
    """A truncated cache file of a figure: the run names it, rebuilds it and succeeds."""
    def draw(ctx):
        data = ctx.cached("k", lambda: {"v": [1.0, 2.0]})
        fig, ax = plt.subplots()
        ax.plot(data["v"])
        ctx.save(fig)

    monkeypatch.setitem(_FIGURES, "probe", Figure("probe", draw, (), "a probe"))
    cache = tmp_path / ".cache" / "probe-k-quick.json"
    cache.parent.mkdir()
    cache.write_text(_record(value={"v": [1.0, 2.0]})[:30])
    assert figures_cli.main(["--quick", "--only", "probe", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert str(cache) in err and "unreadable" in err and "Traceback" not in err
    assert json.loads(cache.read_text())["value"] == {"v": [1.0, 2.0]}
    assert (tmp_path / "probe.png").stat().st_size > 0


def test_recompute_flag_reaches_the_context_and_the_claims(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setitem(_FIGURES, "probe", Figure("probe", lambda ctx: seen.append(
        (ctx.recompute, claims.settings.recompute)), (), "a probe"))
    for argv, flag in ((["--recompute"], True), ([], False)):
        assert figures_cli.main(["--quick", "--only", "probe", "--out", str(tmp_path), *argv]) == 0
        assert seen.pop() == (flag, flag)

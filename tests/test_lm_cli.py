"""`python -m particles.lm`: every bad input is one line naming the parameter, exit code 2, no
traceback and no file written; a finished run is reported, not retrained."""
import json
import re

import pytest

from particles.lm.__main__ import cli
from particles.lm.train import QUICK
from particles.threads import torch_threads

TINY = ["--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--block-size", "16", "--batch-size", "4",
        "--eval-interval", "2", "--eval-batches", "1", "--max-bytes", str(QUICK["max_bytes"]),
        "--threads", "1"]


@pytest.mark.parametrize("args, names", [
    (["train", "--amp", "maybe"], ["--amp", "true", "false"]),
    (["train", "--lr", "1e30x"], ["--lr", "number"]),
    (["train", "--lr", "inf"], ["--lr", "finite"]),
    (["train", "--lr", "-1"], ["lr", "> 0"]),
    (["train", "--steps", "0"], ["steps", ">= 1"]),
    (["train", "--steps", "ten"], ["--steps", "integer"]),
    (["train", "--steps", "10", "--warmup", "20"], ["warmup", "[0, 10)"]),
    (["train", "--device", "cuda:7"], ["device", "cpu"]),
    (["train", "--device", "tpu"], ["device", "cpu"]),
    (["train", "--variant", "foo"], ["variant", "gd-lt"]),
    (["train", "--optimizer", "sgd"], ["optimizer", "adamw"]),
    (["train", "--data", "no/such/file.txt"], ["data", "shakespeare"]),
    (["sweep", "--seeds", "a,b"], ["--seeds", "integers"]),
    (["sweep", "--seeds", "-1"], ["--seeds", "non-negative"]),
    (["sweep", "--variants", "gd-lt,nope"], ["--variants", "nope", "presets"]),
    (["study", "run"], ["study", "main", "all"]),
    (["study", "run", "all", "--seeds", "1"], ["--seeds", "PLAN"]),
    (["study", "run", "nope"], ["study", "main"]),
    (["study", "run", "honesty", "--variants", "tmm"], ["--variants", "honesty", "gd-lt"]),
    (["study", "walk"], ["action", "status", "run", "diagnose"]),
])
def test_bad_input_is_one_line_naming_the_parameter(args, names, tmp_path, capsys):
    root = tmp_path / "runs"
    rc = cli([*args, "--root", str(root)] if args[0] in ("train", "sweep") else args)
    err = capsys.readouterr().err
    assert rc == 2
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("note:")]
    assert len(lines) == 1 and re.match(r"python -m particles\.lm( \w+)*: error: ", lines[0]), err
    assert "Traceback" not in err
    for name in names:
        assert name in lines[0], (name, lines[0])
    assert not list(root.rglob("*.json")) and not list(root.rglob("*.pt"))


def test_unwritable_root_fails_before_training(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert cli(["train", "--root", str(blocker / "sub"), *TINY]) == 2
    err = capsys.readouterr().err
    assert "--root" in err and f"cannot create {blocker / 'sub'}" in err and "is a file" in err
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_short_runs_clamp_the_default_warmup_and_say_so(tmp_path, capsys):
    with torch_threads(1):
        assert cli(["train", "--steps", "4", "--root", str(tmp_path), *TINY]) == 0
    captured = capsys.readouterr()
    assert "warmup set to 0" in captured.err
    result = json.loads((tmp_path / "compact" / "gd-lt-seed0.json").read_text())
    assert result["config"]["warmup"] == 0 and result["config"]["steps"] == 4
    # a second call reports the finished run instead of retraining it
    assert cli(["train", "--steps", "4", "--root", str(tmp_path), *TINY]) == 0
    assert "finished earlier" in capsys.readouterr().out
    # another configuration on top of a finished run: the differing field is named
    assert cli(["train", "--steps", "6", "--root", str(tmp_path), *TINY]) == 2
    err = capsys.readouterr().err
    assert "stale" in err and "steps (result 4, wanted 6)" in err


def test_help_lists_the_commands(capsys):
    assert cli(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(cmd in out for cmd in ("train", "sweep", "study", "report", "variants"))

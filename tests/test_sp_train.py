"""Training, rollouts, committed results and the command line of the seed-001 §5 experiment
(particles.sp_train)."""
import dataclasses
import json
import subprocess
import sys

import numpy as np
import pytest
import torch

from particles import oscillator, sp_rollouts, sp_train
from particles.sp_networks import NETWORKS, build


def _budget(name: str = "tiny", epochs: int = 2, **kw) -> sp_train.Budget:
    """A seconds-long budget with checkpoints: 10 of the 40 k values, rollout to t = 4."""
    kw = {"t_rollout": 4.0, "checkpoint_every": 1, "structure_windows": 3, **kw}
    return dataclasses.replace(sp_train.BUDGETS["quick"], name=name,
                               epochs={n: epochs for n in NETWORKS}, **kw)


@pytest.fixture
def committed(tmp_path, monkeypatch):
    """A tiny committed 'full' budget whose results and checkpoints live under tmp_path."""
    b = _budget("full", committed=True, seeds=(0, 1))
    monkeypatch.setitem(sp_train.BUDGETS, "full", b)
    monkeypatch.setattr(sp_train, "RESULTS", tmp_path / "results")
    monkeypatch.setattr(sp_train, "RUNS", tmp_path / "runs")
    return b


# ------------------------------------------------------------------ training and rollouts


@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_quick_training_reduces_the_one_step_loss(name):
    rec = sp_train.collect("quick", (name,)).records[name][0]
    assert len(rec["losses"]) == len(rec["val_losses"]) == sp_train.BUDGETS["quick"].epochs[name]
    assert rec["losses"][-1] < rec["losses"][0] and rec["val_losses"][-1] < rec["val_losses"][0]
    assert rec["rollout"].shape == (251, 4)
    # the warm-up is implicit midpoint, stored to 8 significant digits
    np.testing.assert_allclose(rec["rollout"][:5], sp_train.reference(100.0)[:5], rtol=1e-7, atol=1e-12)


def test_validation_set_is_the_held_out_test_trajectory():
    Z, target = sp_train.validation_pairs(5)
    ref = oscillator.trajectory(oscillator.K_TEST)
    assert Z.shape == (len(ref) - 5, 4, 5)
    np.testing.assert_array_equal(target.numpy(), ref[5:])
    assert np.min(np.abs(oscillator.K_TRAIN - oscillator.K_TEST)) > 0.01   # not a training value


def test_training_keeps_psd_matrices_on_the_stiefel_manifold(tmp_path):
    sp_train.train("sp_transformer", 0, _budget(), cache=tmp_path)
    model = build("sp_transformer")
    model.load_state_dict(torch.load(tmp_path / "sp_transformer-seed0.pt", weights_only=False)["model"])
    for Phi in model.stiefel_parameters():
        eye = torch.eye(Phi.shape[1], dtype=torch.float64)
        torch.testing.assert_close(Phi.T @ Phi, eye, rtol=0, atol=1e-12)


def test_resumed_training_equals_uninterrupted_training(tmp_path, monkeypatch):
    budget = _budget(epochs=3)
    order = sp_train._epoch_order

    class Interrupted(Exception):
        pass

    def interrupt_at_epoch_2(seed, epoch, n):
        if epoch == 2:
            raise Interrupted
        return order(seed, epoch, n)

    monkeypatch.setattr(sp_train, "_epoch_order", interrupt_at_epoch_2)
    with pytest.raises(Interrupted):
        sp_train.train("sympnet", 0, budget, cache=tmp_path)
    assert torch.load(tmp_path / "sympnet-seed0.pt", weights_only=False)["epoch"] == 2
    monkeypatch.setattr(sp_train, "_epoch_order", order)
    resumed = sp_train.train("sympnet", 0, budget, cache=tmp_path)
    fresh = sp_train.train("sympnet", 0, dataclasses.replace(budget, checkpoint_every=0))
    for key in ("train_loss", "val_loss", "rollout", "milestones", "epochs"):
        assert resumed[key] == fresh[key], key
    assert len(resumed["provenance"]["sessions"]) == 2               # two training sessions


def test_finished_checkpoint_extends_to_more_epochs_but_is_never_cut_back(tmp_path):
    sp_train.train("resnet", 0, _budget(epochs=2), cache=tmp_path)
    extended = sp_train.train("resnet", 0, _budget(epochs=3), cache=tmp_path)
    fresh = sp_train.train("resnet", 0, _budget(epochs=3, checkpoint_every=0))
    assert extended["epochs"] == 3 and extended["train_loss"] == fresh["train_loss"]
    assert extended["rollout"] == fresh["rollout"]
    with pytest.raises(sp_train.ResultError, match="epoch 3 > n_epochs 2.*--recompute"):
        sp_train.train("resnet", 0, _budget(epochs=2), cache=tmp_path)


def test_a_budget_that_extends_another_continues_its_checkpoints(tmp_path, monkeypatch):
    monkeypatch.setattr(sp_train, "RUNS", tmp_path)
    sp_train.train("resnet", 0, _budget("short", epochs=2))
    longer = sp_train.train("resnet", 0, _budget("longer", epochs=3, extends="short"))
    fresh = sp_train.train("resnet", 0, _budget(epochs=3, checkpoint_every=0))
    assert longer["train_loss"] == fresh["train_loss"] and longer["rollout"] == fresh["rollout"]
    assert [s["from_epoch"] for s in longer["provenance"]["sessions"]] == [0, 2]
    assert torch.load(tmp_path / "short" / "resnet-seed0.pt", weights_only=False)["epoch"] == 2


def test_a_diverging_run_stops_naming_the_epoch_and_keeps_its_last_checkpoint(tmp_path, monkeypatch):
    loss_fn = sp_train.loss_fn
    calls = {"n": 0}

    def nan_in_epoch_2(model, Z, target):
        calls["n"] += 1
        loss = loss_fn(model, Z, target)
        return loss * float("nan") if calls["n"] > 6 else loss   # 5 batches + 1 validation per epoch

    monkeypatch.setattr(sp_train, "loss_fn", nan_in_epoch_2)
    with pytest.raises(sp_train.ResultError, match=r"training loss nan at epoch 2 \(learning rate"):
        sp_train.train("resnet", 0, _budget(epochs=3), cache=tmp_path)
    assert torch.load(tmp_path / "resnet-seed0.pt", weights_only=False)["epoch"] == 1


class _Linear(torch.nn.Module):
    seq_len = 1

    def __init__(self, A):
        super().__init__()
        self.A = A

    def forward(self, Z):
        return Z[..., -1] @ self.A.T


def test_rollout_feeds_predictions_back_and_stops_at_blow_up():
    theta = 0.3
    R = torch.tensor([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]],
                     dtype=torch.float64)
    z0 = np.array([[1.0, 0.0]])
    out = sp_rollouts.rollout(_Linear(R), z0, 10)
    for n in range(11):
        np.testing.assert_allclose(out[n], np.linalg.matrix_power(R.numpy(), n) @ z0[0], atol=1e-14)
    grow = sp_rollouts.rollout(_Linear(10 * torch.eye(2, dtype=torch.float64)), z0, 10)
    assert np.isnan(grow[7:]).all() and np.isfinite(grow[:6]).all()   # 10^6 >= blow-up guard
    ref = np.ones((11, 2))
    assert sp_rollouts.blowup_time(grow, ref, factor=2.0) == pytest.approx(0.4)   # 10 > 2 at step 1
    assert sp_rollouts.blowup_time(ref, ref) == float("inf")
    # a state past the guard counts as the guard: the window's max is 1e6, not NaN
    assert sp_rollouts.max_abs(grow, 0.0, 4.0) == sp_rollouts.BLOWUP_GUARD
    assert sp_rollouts.max_abs(grow, 0.0, 0.8) == 100.0                   # states 1, 2: 10, 100


def test_diagnostics_vanish_on_the_reference():
    ref = sp_train.reference(100.0)
    assert sp_rollouts.q1_error(ref, ref, 2.0, 20.0) == 0.0
    drift = sp_rollouts.energy_drift(ref)
    # implicit midpoint: bounded O(h²) oscillation of H, no drift (|slope| · 100 ≪ 1% of H ≈ 3).
    assert abs(drift["slope"]) * 100 < 1e-2 and abs(drift["relative_change"]) < 1e-2
    s = sp_train.rollout_summary(ref, 100.0)
    assert s["q1_error"] == {"2-10": 0.0, "2-18": 0.0, "2-20": 0.0}
    assert s["max_abs"]["2-100"] == np.abs(ref[6:]).max()


def test_structure_windows_stop_where_a_rollout_blew_up():
    traj = np.arange(40.0).reshape(10, 4)
    traj[7:] = np.nan                                      # blew up after 7 states
    W = sp_rollouts.rollout_windows(traj, seq_len=5, n_windows=10)
    assert W.shape == (3, 4, 5)                            # starts 0, 1, 2: windows inside states 0..6
    torch.testing.assert_close(W[-1], torch.as_tensor(traj[2:7].T), rtol=0, atol=0)
    assert not sp_rollouts.energy_drift(traj)["finite"]


@pytest.mark.parametrize("drop, converged", [(0.03, False), (0.015, True), (0.0, True)])
def test_convergence_criterion_on_a_step_in_the_last_tenth(drop, converged):
    # loss 1 up to epoch 1900, then 1 − drop: the means over epochs 1701-1800 and 1901-2000
    # differ by exactly `drop` (relative)
    losses = np.r_[np.ones(1900), np.full(100, 1 - drop)]
    c = sp_rollouts.convergence(losses)
    assert c["relative_drop"] == pytest.approx(drop, abs=1e-12) and c["converged"] is converged


def test_convergence_of_geometric_and_power_law_curves():
    e = np.arange(1, 2001)
    assert sp_rollouts.convergence(0.1 + np.exp(-e / 100))["converged"]  # at its floor by epoch 1700
    assert not sp_rollouts.convergence(1 / e)["converged"]               # 1/e: −10% over the last tenth
    assert not sp_rollouts.convergence(np.r_[np.ones(1999), np.nan])["converged"]


# ------------------------------------------------------------------ results on disk


def test_result_round_trip_and_size(tmp_path):
    result = sp_train.train("sp_transformer", 0, _budget(), cache=tmp_path)
    path = sp_train.write_result(tmp_path / "sp_transformer-seed0.json", result)
    assert json.loads(path.read_text()) == json.loads(json.dumps(result))
    rec = sp_train.record(sp_train.read_result(path))
    assert rec["epochs"] == 2 and rec["structure"] == result["structure"]
    assert result["provenance"]["threads"] == 1 and result["provenance"]["commit"]
    # a full-budget result: 2000-epoch curves and a 1501-state rollout stay well under 200 kB
    big = {**result, "epochs": 2000, "train_loss": [1.234567e-3] * 2000, "val_loss": [1.234567e-3] * 2000,
           "rollout": {"h": 0.4, "states": [[-1.2345678, 2.3456789, -3.4567891, 0.12345678]] * 1501}}
    assert sp_train.write_result(tmp_path / "big.json", big).stat().st_size < 200_000


@pytest.mark.parametrize("damage", ["truncate", "short_curve"])
def test_a_damaged_result_is_reported_corrupt_in_one_line(committed, damage):
    sp_train.fill("full", ("resnet",), (0,), log=lambda *_: None)
    path = sp_train.RESULTS / "resnet-seed0.json"
    if damage == "truncate":
        path.write_text(path.read_text()[:1000])
    else:
        r = json.loads(path.read_text())
        r["train_loss"] = r["train_loss"][:1]
        sp_train.write_result(path, r)
    got = sp_train.collect("full", ("resnet",), (0,))
    msg = got.corrupt["resnet-seed0"]
    assert not got.records["resnet"] and "\n" not in msg
    assert str(path) in msg and "python -m particles.sp_train --networks resnet --seeds 0 --recompute" in msg


def test_stale_results_name_the_fields_that_differ(committed, monkeypatch):
    sp_train.fill("full", ("resnet",), (0,), log=lambda *_: None)
    monkeypatch.setitem(sp_train.BUDGETS, "full", dataclasses.replace(committed, epochs={n: 3 for n in NETWORKS}))
    got = sp_train.collect("full", ("resnet",), (0,))
    assert got.stale == {"resnet-seed0": ["table3.n_epochs: 2 -> 3"]} and not got.records["resnet"]
    assert got.problems()["to_train"] == "python -m particles.sp_train --networks resnet --seeds 0"


def test_one_step_results_carry_the_rollouts_from_every_training_k(committed):
    """At a budget that asks for them (n40, quick; here the tiny committed budget cut from quick:
    10 k), a ResNet or SympNet result holds q1 of its rollouts from the warm-up of every training k
    to t = 18, the warm-up rows implicit midpoint; the transformers and the budgets full and long
    are not asked, and no run configuration changes."""
    sp_train.fill("full", ("resnet",), (0,), log=lambda *_: None)
    r = sp_train.read_result(sp_train.RESULTS / "resnet-seed0.json")
    kr, spec = r["k_rollouts"], sp_train.k_rollouts_spec("resnet", committed)
    assert kr["spec"] == spec and spec["n_k"] == 10 and spec["t_end"] == 18.0 and spec["version"] == 1
    q1 = sp_train.record(r)["k_rollouts"]["q1"]
    assert q1.shape == (10, 46) and np.isfinite(q1).all()
    warm = np.stack([oscillator.trajectory(k, 1.6)[:, 0] for k in oscillator.K_TRAIN[::4]])
    np.testing.assert_allclose(q1[:, :5], warm, rtol=1e-7, atol=1e-12)
    assert kr["k"] == [float(k) for k in oscillator.K_TRAIN[::4]]
    for network in ("transformer", "sp_transformer"):
        assert sp_train.k_rollouts_spec(network, "n40") is None
    assert sp_train.k_rollouts_spec("sympnet", "long") is None and sp_train.k_rollouts_spec("resnet", "n40")
    assert all("k_rollouts" not in sp_train.run_config(n, 0, b) for n in NETWORKS for b in sp_train.BUDGETS)


def test_a_one_step_result_without_its_k_rollouts_is_stale_for_them_and_rolled_out_again(committed, capsys):
    """A result written before the k rollouts were recorded: complete for `collect` (the other
    claims), stale for `collect(..., k_rollouts=True)`; `fill` (the plain command) rolls the finished
    checkpoint out again, nothing else changes. A damaged k_rollouts is corrupt."""
    sp_train.fill("full", ("resnet",), (0,), log=lambda *_: None)
    path = sp_train.RESULTS / "resnet-seed0.json"
    before = json.loads(path.read_text())
    sp_train.write_result(path, {k: v for k, v in before.items() if k != "k_rollouts"})
    assert sp_train.collect("full", ("resnet",), (0,)).complete
    got = sp_train.collect("full", ("resnet",), (0,), k_rollouts=True)
    assert got.stale == {"resnet-seed0": ["k_rollouts: <absent> -> version 1 (10 k, q1 to t = 18)"]}
    assert got.problems()["to_train"] == "python -m particles.sp_train --networks resnet --seeds 0"
    rc, out, _ = _cli(["--status", "--networks", "resnet", "--seeds", "0"], capsys)
    assert rc == 0 and "stale: {'resnet-seed0': ['k_rollouts: <absent>" in out
    rc, out, _ = _cli(["--networks", "resnet", "--seeds", "0"], capsys)
    assert rc == 0 and "resnet-seed0: training (stale (k_rollouts: <absent>" in out
    after = json.loads(path.read_text())
    assert {k: v for k, v in after.items() if k != "provenance"} == \
        {k: v for k, v in before.items() if k != "provenance"}
    after["k_rollouts"]["q1"][3] = after["k_rollouts"]["q1"][3][:-1]
    sp_train.write_result(path, after)
    corrupt = sp_train.collect("full", ("resnet",), (0,)).corrupt["resnet-seed0"]
    assert "k_rollouts has the wrong shape" in corrupt


def test_missing_runs_are_listed_and_nothing_is_trained_by_collect(committed, monkeypatch):
    monkeypatch.setattr(sp_train, "train", lambda *a, **k: pytest.fail("collect trained"))
    got = sp_train.collect("full", ("resnet", "sympnet"))
    assert got.missing == ["resnet-seed0", "resnet-seed1", "sympnet-seed0", "sympnet-seed1"]
    assert not got.complete and not sp_train.RESULTS.exists()


# ------------------------------------------------------------------ command line


def _cli(argv, capsys):
    try:
        rc = sp_train.main(argv)
    except SystemExit as exc:
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("argv, message", [
    (["--budget", "medium"], "argument --budget: invalid choice: 'medium' (choose from 'full', 'long', 'n40', 'quick')"),
    (["--networks", "lstm"], "argument --networks: invalid choice: 'lstm' (choose from 'resnet', "
                             "'sp_transformer', 'sympnet', 'transformer')"),
    (["--seeds", "a"], "argument --seeds: must be a non-negative integer, got 'a'"),
    (["--seeds", "1.5"], "argument --seeds: must be a non-negative integer, got '1.5'"),
    (["--seeds", "-1"], "argument --seeds: must be a non-negative integer, got '-1'"),
    (["--out", "/proc/sp_results"], "argument --out: cannot write /proc/sp_results"),
    (["--cache", "/proc/sp_cache"], "argument --cache: cannot write /proc/sp_cache"),
    (["--out", "FILE"], "argument --out: FILE is a file; give a folder"),
    (["--budget", "quick", "--out", "x"], "argument --out/--cache: budget 'quick' trains in memory"),
])
def test_cli_bad_input_is_one_line_exit_2_and_writes_nothing(argv, message, committed, tmp_path, capsys):
    afile = tmp_path / "a_file"
    afile.write_text("")
    argv = [str(afile) if a == "FILE" else a for a in argv]
    message = message.replace("FILE", str(afile))
    rc, out, err = _cli(argv, capsys)
    assert rc == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("python -m particles.sp_train: error: ") and message in err
    assert not sp_train.RESULTS.exists() and not sp_train.RUNS.exists()


def test_cli_corrupt_checkpoint_is_one_line_naming_file_and_command(committed, capsys):
    path = sp_train.RUNS / "full" / "resnet-seed0.pt"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x80\x02truncated")
    rc, out, err = _cli(["--networks", "resnet", "--seeds", "0"], capsys)
    assert rc == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert f"{path}: unreadable checkpoint" in err
    assert "`python -m particles.sp_train --networks resnet --seeds 0 --recompute`" in err
    assert not (sp_train.RESULTS / "resnet-seed0.json").exists()


def test_cli_reports_a_finished_run_and_retrains_only_with_recompute(committed, capsys, monkeypatch):
    rc, out, _ = _cli(["--networks", "resnet", "--seeds", "0"], capsys)
    assert rc == 0 and "resnet-seed0: training (missing)" in out
    first = (sp_train.RESULTS / "resnet-seed0.json").read_text()
    train = sp_train.train
    monkeypatch.setattr(sp_train, "train", lambda *a, **k: pytest.fail("finished run retrained"))
    rc, out, _ = _cli(["--networks", "resnet", "--seeds", "0"], capsys)
    assert rc == 0 and "resnet-seed0: finished (2 epochs" in out and "--recompute retrains it" in out
    monkeypatch.setattr(sp_train, "train", train)
    rc, out, _ = _cli(["--networks", "resnet", "--seeds", "0", "--recompute"], capsys)
    assert rc == 0 and "resnet-seed0: training (--recompute)" in out
    same = lambda text: {k: v for k, v in json.loads(text).items() if k != "provenance"}  # noqa: E731
    assert same((sp_train.RESULTS / "resnet-seed0.json").read_text()) == same(first)  # deterministic


def test_cli_status_lists_missing_runs_and_the_command_that_trains_them(committed, capsys):
    rc, out, _ = _cli(["--status", "--networks", "sympnet"], capsys)
    assert rc == 0 and "missing: ['sympnet-seed0', 'sympnet-seed1']" in out
    assert "to train them: python -m particles.sp_train --networks sympnet --seeds 0 1" in out
    assert not sp_train.RESULTS.exists()


def test_cli_in_a_subprocess_prints_no_traceback():
    r = subprocess.run([sys.executable, "-m", "particles.sp_train", "--seeds", "x"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("python -m particles.sp_train: error: argument --seeds: must be a "
                        "non-negative integer, got 'x' (see --help)\n")


@pytest.mark.parametrize("make, match", [
    (lambda: sp_train.get_budget("medium"), "budget"),
    (lambda: sp_train.train("lstm", 0), "network"),
    (lambda: sp_train.train("resnet", -1), "seed"),
    (lambda: sp_train.train("resnet", 1.0), "seed"),
    (lambda: sp_rollouts.rollout(build("transformer"), np.zeros((3, 4)), 2), "warmup"),
])
def test_bad_input_raises_naming_the_parameter(make, match):
    with pytest.raises(ValueError, match=match):
        make()

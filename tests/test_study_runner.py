"""`python -m particles.lm study run ... --jobs N --deadline-s S` (particles.lm.runner) on a test-only
study of 6-step runs of a tiny model: every run trained once by the processes together (one progress
bar over their steps), results valid and read back, a second invocation trains nothing, the device
in the provenance, the deadline keeps runs from starting and stops a running one at a checkpoint
that resumes it; the device kinds of paired runs (`Collected.devices`); tools/cuda_session.py's plan
part and arguments without CUDA; no import circle between particles.lm.bench and cost_model."""
import ast
import json
import sys
import tarfile
from dataclasses import replace
from pathlib import Path

import pytest

import particles.lm.__main__ as lm_main
from particles.lm import runner, studies
from particles.lm.train import QUICK, ResultError, TrainConfig, config_hash, train

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import cuda_session  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TINY = replace(TrainConfig(), **QUICK)  # 2 layers, width 32, 6 steps, a checkpoint at step 3
ARMS, SEEDS = ("gd-lt", "hb"), (0, 1)


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """A study 'tiny' in its own results and weights folders, alone in STUDIES and PLAN."""
    monkeypatch.setattr(studies, "RESULTS_ROOT", tmp_path / "results")
    monkeypatch.setattr(studies, "WEIGHTS_ROOT", tmp_path / "runs")
    study = studies.Study("tiny", TINY, ARMS, SEEDS)
    monkeypatch.setattr(studies, "STUDIES", {"tiny": study})
    monkeypatch.setattr(lm_main, "STUDIES", {"tiny": study})
    monkeypatch.setattr(studies, "PLAN", (("tiny", ARMS, SEEDS),))
    return study


def _files(study):
    return sorted(p.name for p in study.folder.iterdir()) if study.folder.exists() else []


def test_two_processes_train_every_run_once_and_a_second_invocation_trains_nothing(tiny, capsys):
    assert lm_main.cli(["study", "run", "all", "--device", "cpu", "--jobs", "2", "--threads", "1"]) == 0
    out, err = capsys.readouterr()
    assert f"{len(ARMS) * len(SEEDS) * TINY.steps}/{len(ARMS) * len(SEEDS) * TINY.steps}" in err  # the parent's bar
    stems = [f"{v}-seed{s}" for s in SEEDS for v in ARMS]
    assert _files(tiny) == sorted(f"{stem}.json" for stem in stems)  # one result per run, nothing else
    assert all(out.count(f"trained tiny/{stem}:") == 2 for stem in stems)  # as it finished + summary
    assert "4 runs in" in out and "4 trained" in out
    got = tiny.collect()
    assert not got.missing and not got.invalid and got.paired_seeds(ARMS) == list(SEEDS)
    for v in ARMS:
        for s in SEEDS:
            r = got.results[v][s]
            assert r["device"] == "cpu" and r["config"]["device"] == "cpu" and r["threads"] == 1
            assert r["config_hash"] == tiny.run_config(v, s).hash() and r["resumed_from_step"] == 0
    assert got.devices(ARMS) == {"cpu"} and got.paired_seeds(ARMS, device="cuda") == []
    weights = studies.WEIGHTS_ROOT / "tiny"
    assert not list(weights.glob("*.lock")) and not list(weights.glob("*.ckpt"))
    stamps = {p: p.stat().st_mtime_ns for p in tiny.folder.iterdir()}
    assert lm_main.cli(["study", "run", "all", "--device", "cpu", "--jobs", "2"]) == 0
    assert "4 runs in" in capsys.readouterr().out  # ... "4 done"
    assert {p: p.stat().st_mtime_ns for p in tiny.folder.iterdir()} == stamps


def test_the_deadline_starts_no_run_that_its_estimate_ends_after(tiny, monkeypatch):
    """Seed 0 committed gives each arm a step time; with a start-up cost past the deadline the
    seed-1 runs are not started, with none they are (the estimate is then a few seconds)."""
    s0 = runner.plan_tasks("tiny", seeds=[0])
    assert runner.run_tasks(s0).named("trained") == ["tiny/gd-lt-seed0", "tiny/hb-seed0"]
    # retraining everything: a result written since the invocation started is not trained twice
    assert tiny.train_run("gd-lt", 0, recompute=True, since=0.0)[0] == "done"
    monkeypatch.setattr(runner, "STARTUP_S", 1000.0)
    summary = runner.run_tasks(runner.plan_tasks("all"), deadline_s=100)
    assert summary.named("done") == ["tiny/gd-lt-seed0", "tiny/hb-seed0"]
    assert summary.named("not-started") == ["tiny/gd-lt-seed1", "tiny/hb-seed1"]
    assert "could not finish by the deadline (estimate 1000 s" in summary.details["tiny/hb-seed1"]
    assert _files(tiny) == ["gd-lt-seed0.json", "hb-seed0.json"]
    monkeypatch.setattr(runner, "STARTUP_S", 0.0)
    assert runner.run_tasks(runner.plan_tasks("all"), deadline_s=100).named("trained") == [
        "tiny/gd-lt-seed1", "tiny/hb-seed1"]


def test_a_run_that_cannot_finish_by_the_deadline_stops_at_a_checkpoint_that_resumes_it(tiny, monkeypatch):
    """No committed run: no estimate, the run starts; at its checkpoint (step 3 of 6) its own pace
    (inflated here) ends it after the deadline, so it stops there; the next invocation resumes it
    and its curves equal a run trained in one go."""
    monkeypatch.setattr(runner, "EVAL_MARGIN", 1e9)
    task = runner.plan_tasks("tiny", ["gd-lt"], [0])
    summary = runner.run_tasks(task, deadline_s=3600)
    assert summary.named("stopped") == ["tiny/gd-lt-seed0"]
    assert "at step 3 of 6" in summary.details["tiny/gd-lt-seed0"]
    assert _files(tiny) == [] and (studies.WEIGHTS_ROOT / "tiny" / "gd-lt-seed0.ckpt").exists()
    assert runner.run_tasks(task).named("trained") == ["tiny/gd-lt-seed0"]
    r = tiny.read("gd-lt", 0)
    whole = train(tiny.run_config("gd-lt", 0))
    assert r["resumed_from_step"] == 3 and r["curves"]["val_loss"] == whole["curves"]["val_loss"]
    assert r["val_loss_full"] == whole["val_loss_full"]


@pytest.mark.parametrize("partial", [False, True])
def test_the_deadline_rules_on_a_fake_clock(tiny, monkeypatch, partial):
    """A run of 12 steps with a checkpoint every 3, at 10 s per step, 100 s before the deadline:
    it would need 12 x 10 x 1.15 + 15 = 153 s, so it is not started -- unless `partial`, since its
    first checkpoint comes at 3 x 11.5 + 15 = 49.5 s. Running, it stops at the first checkpoint
    from which it cannot finish; with `partial` at the last one before the deadline."""
    clock = [0.0]
    monkeypatch.setattr(runner, "_now", lambda: clock[0])
    task = runner.Task(replace(tiny, config=replace(TINY, steps=12, eval_interval=3)), "gd-lt", 0)
    why = runner._no_start(task, 10.0, 100.0, partial)
    assert (why is None) if partial else why == "could not finish by the deadline (estimate 153 s, 100 s left)"
    assert runner._no_start(task, None, 100.0, partial) is None  # no pace: started
    assert runner._no_start(task, 6.0, 100.0, partial) is None  # 12 x 6 x 1.15 + 15 = 97.8 s
    clock[0] = 100.0
    assert runner._no_start(task, None, 100.0, partial) == "the deadline has passed"
    reports = []
    hook = runner._deadline_hook(task, 100.0, partial, lambda *a, **k: reports.append((a, k)))
    stopped_at = None
    for now, step in ((0.0, 3), (40.0, 6), (80.0, 9)):  # 10 s per step of training
        clock[0] = now
        try:
            hook(step, 10.0 * step)
        except runner.Stopped:
            stopped_at = step
            break
    assert stopped_at == (9 if partial else 3)
    (task_, outcome, detail), extra = reports[0]
    assert outcome == "stopped" and f"at step {stopped_at} of 12" in detail and extra["pace"] == 10.0


def test_one_slow_interval_does_not_stop_a_run_that_its_pace_so_far_finishes(tiny, monkeypatch):
    """A run at 10 s per step whose second interval took 20 s per step (another job shared its
    core): projected at the whole run's 15 s per step it ends at 60 + 6 x 15 x 1.15 = 163.5 s,
    before the deadline at 180 s, so it goes on (at the last interval's 20 s it would end at 198 s
    and have stopped); once the run's pace so far is too slow as well, it stops."""
    clock = [0.0]
    monkeypatch.setattr(runner, "_now", lambda: clock[0])
    task = runner.Task(replace(tiny, config=replace(TINY, steps=12, eval_interval=3)), "gd-lt", 0)
    reports = []
    hook = runner._deadline_hook(task, 180.0, False, lambda *a, **k: reports.append((a, k)))
    clock[0] = 0.0
    hook(3, 30.0)
    clock[0] = 60.0
    hook(6, 90.0)  # 20 s per step over the last interval, 15 s per step so far
    assert not reports
    clock[0] = 150.0
    with pytest.raises(runner.Stopped):
        hook(9, 240.0)  # 50 s per step, 26.7 so far: 150 + 3 x 26.7 x 1.15 = 242 s > 180 s
    assert reports[0][0][1] == "stopped"


def test_a_cuda_result_is_valid_for_its_study_and_its_device_kind_is_reported(tiny):
    """A result of the study's configuration on 'cuda' (its hash recomputed: no GPU here) is read
    back, named by `devices`, and never paired with a CPU run by `paired_seeds(device=...)`."""
    runner.run_tasks(runner.plan_tasks("tiny", seeds=[0]))
    cpu = json.loads(tiny.path("hb", 0).read_text())
    config = dict(cpu["config"], device="cuda", seed=1)
    gpu = cpu | {"config": config, "config_hash": config_hash(config), "seed": 1, "device": "NVIDIA H100"}
    tiny.path("hb", 1).write_text(json.dumps(gpu))
    assert tiny.read("hb", 1)["device"] == "NVIDIA H100"
    got = tiny.collect()
    assert got.paired_seeds(["hb"]) == [0, 1] and got.devices(["hb"]) == {"cpu", "cuda"}
    assert got.devices(["gd-lt", "hb"]) == {"cpu"} and got.paired_seeds(["hb"], device="cuda") == [1]
    assert studies.device_kind(gpu) == "cuda" and studies.device_kind(cpu) == "cpu"
    stale = dict(config, lr=1.0)
    tiny.path("hb", 1).write_text(json.dumps(gpu | {"config": stale, "config_hash": config_hash(stale)}))
    with pytest.raises(ResultError, match=r"stale: its configuration differs in lr \(result 1.0"):
        tiny.read("hb", 1)
    assert "hb-seed1" in tiny.collect().invalid


def test_a_confirmatory_sample_trains_its_other_runs_on_the_device_kind_it_started_on(tiny, monkeypatch):
    """A confirmatory sample is decided on one device kind (claims._experiment.confirmatory_wait):
    with one run committed from CUDA, a CPU invocation trains none of its other runs (outcome
    'other-device', named); a sample not marked confirmatory, with the same run, trains them."""
    runner.run_tasks(runner.plan_tasks("tiny", variants=["hb"], seeds=[0]))
    cpu = json.loads(tiny.path("hb", 0).read_text())
    config = dict(cpu["config"], device="cuda")
    tiny.path("hb", 0).write_text(json.dumps(cpu | {"config": config, "config_hash": config_hash(config),
                                                    "device": "NVIDIA H100"}))
    for confirmatory, trained in ((True, 0), (False, 3)):
        study = replace(tiny, confirmatory=confirmatory)
        monkeypatch.setattr(studies, "STUDIES", {"tiny": study})
        summary = runner.run_tasks(runner.plan_tasks("tiny"))
        assert len(summary.named("trained")) == trained and summary.named("done") == ["tiny/hb-seed0"]
        if confirmatory:
            assert len(summary.named("other-device")) == 3
            assert all("has runs on cuda" in summary.details[n] for n in summary.named("other-device"))


def test_the_plan_part_returns_results_weights_and_checkpoints_as_archives_of_their_paths(
        tiny, tmp_path, capsys, monkeypatch):
    """tools/cuda_session.py plan on the CPU (one process). A first call whose runs cannot finish
    (their pace inflated) returns the stopped run's checkpoint, which `--resume-checkpoints` puts
    back; a second call returns the results of the runs it finished as results/lm/<study>/<file>
    members, their weights as runs/lm/... members, and a summary."""
    import shutil
    monkeypatch.setenv("PARTICLES_COMMIT", "abc")  # --commit sets it (used where there is no .git)
    first = tmp_path / "first"
    monkeypatch.setattr(runner, "EVAL_MARGIN", 1e9)
    cuda_session.plan(first, cuda_session.parse_args(
        ["plan", "--out", str(first), "--device", "cpu", "--jobs", "1", "--study", "tiny", "--commit", "abc"]))
    assert not (first / "plan-results.tar.gz").exists()
    with tarfile.open(first / "plan-checkpoints-1.tar.gz") as tar:
        assert tar.getnames() == ["runs/lm/tiny/gd-lt-seed0.ckpt"]
    summary = json.loads((first / "plan-summary.json").read_text())
    assert summary["outcomes"]["tiny/gd-lt-seed0"] == "stopped" and summary["commit"] != "unknown"
    assert set(summary["outcomes"].values()) == {"stopped", "not-started"}
    shutil.rmtree(studies.WEIGHTS_ROOT)
    monkeypatch.setattr(runner, "EVAL_MARGIN", 0.15)
    out = tmp_path / "out"
    args = cuda_session.parse_args(["plan", "--out", str(out), "--device", "cpu", "--jobs", "1", "--study", "tiny",
                                    "--skip", "tiny/hb-seed1", "--commit", "abc",
                                    "--resume-checkpoints", str(first / "plan-checkpoints-1.tar.gz")])
    capsys.readouterr()
    cuda_session.plan(out, args)
    printed = capsys.readouterr().out
    assert "checkpoints put back from" in printed and "returned: 3 results, 3 weights, 0 checkpoints" in printed
    with tarfile.open(out / "plan-results.tar.gz") as tar:
        names = sorted(tar.getnames())
        assert json.load(tar.extractfile("results/lm/tiny/gd-lt-seed0.json"))["resumed_from_step"] == 3
    assert names == ["results/lm/tiny/gd-lt-seed0.json", "results/lm/tiny/gd-lt-seed1.json",
                     "results/lm/tiny/hb-seed0.json"]
    with tarfile.open(out / "plan-weights.tar.gz") as tar:
        assert sorted(tar.getnames()) == [n.replace("results", "runs").replace(".json", ".pt") for n in names]
    summary = json.loads((out / "plan-summary.json").read_text())
    assert summary["outcomes"] == {"tiny/gd-lt-seed0": "trained", "tiny/hb-seed0": "trained",
                                   "tiny/gd-lt-seed1": "trained"}
    assert not list(out.glob("plan-checkpoints*"))


def test_cuda_session_arguments_are_checked_without_cuda(capsys):
    args = cuda_session.parse_args(["plan", "--out", "x"])
    assert (args.jobs, args.deadline_s, args.threads, args.device) == (8, 480, 1, "cuda")
    args = cuda_session.parse_args(["throughput", "--out", "x", "--steady-only", "--steady-steps", "20"])
    assert args.steady_only and args.steady_steps == 20 and args.steady_warmup == cuda_session.STEADY_WARMUP
    assert callable(cuda_session.steady_compiled)
    for bad, name in ((["plan", "--jobs", "0"], "--jobs"), (["plan", "--deadline-s", "-5"], "--deadline-s"),
                      (["plan", "--skip", "main/nope-seed0"], "--skip"), (["plan", "--study", "nope"], "--study"),
                      (["throughput", "--steady-warmup", "x"], "--steady-warmup")):
        with pytest.raises(SystemExit):
            cuda_session.parse_args([*bad, "--out", "x"])
        assert name in capsys.readouterr().err


def test_the_steady_row_alone_is_written_beside_the_committed_throughput_rows(tmp_path, monkeypatch):
    """`assemble` replaces a part whole: `throughput --steady-only` keeps the committed rows."""
    from claims._committed import committed_path
    monkeypatch.setattr(cuda_session, "steady_compiled", lambda cfg, warmup, steps: {
        "config": cfg.as_dict(), "warmup_steps": warmup, "timed_steps": steps})
    monkeypatch.setattr(cuda_session, "replace", lambda cfg, **kw: replace(cfg, **{**kw, "device": "cpu"}))
    cuda_session.throughput(tmp_path, cuda_session.parse_args(["throughput", "--out", str(tmp_path), "--steady-only"]))
    rows = json.loads((tmp_path / "throughput.json").read_text())
    committed = json.loads(committed_path(cuda_session.CUDA_MEASUREMENTS).read_text())["throughput"]
    assert {k: v for k, v in rows.items() if k != cuda_session.STEADY_ROW} == committed
    steady = rows[cuda_session.STEADY_ROW]
    assert steady["config"]["optimizer"] == "adamw" and steady["config"]["compile"] is True
    assert (steady["config"]["n_embd"], steady["config"]["block_size"], steady["timed_steps"]) == (768, 1024, 50)


@pytest.mark.parametrize("argv, words", [
    (["study", "run", "honesty", "--jobs", "0"], ["--jobs", "positive"]),
    (["study", "run", "honesty", "--deadline-s", "0"], ["--deadline-s", "> 0"]),
    (["study", "run", "honesty", "--device", "cuda:7"], ["device"]),
])
def test_bad_runner_input_is_one_line(argv, words, capsys):
    assert lm_main.cli(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and all(w in err for w in words), err


def test_bench_and_cost_model_import_neither_each_other():
    """Issue 36: the timing primitives both need live in particles.lm.timing, which imports neither;
    every name other code imports from bench is still there."""
    def imports(name):
        tree = ast.parse((ROOT / "particles" / "lm" / f"{name}.py").read_text())
        return {(n.module or "").lstrip(".").split(".")[-1] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "cost_model" not in imports("bench") and "bench" not in imports("cost_model")
    assert not {"bench", "cost_model"} & imports("timing")
    from particles.lm import bench, cost_model, timing
    for name in ("time_training", "time_interleaved", "logits_cross_entropy", "Timing", "ratio_summary",
                 "median_interval", "measure_steps"):
        assert hasattr(bench, name), name
    assert bench.time_training is timing.time_training and cost_model.time_training is timing.time_training


def test_a_replica_study_is_diagnosed_as_each_run_finishes(tiny, monkeypatch):
    """`main-replica`'s mechanism on the tiny study: each finished run is diagnosed while its weights
    are here; the record carries the spectra tails (§5.3's second cutoff reading) and, for a diagonal
    second-moment variant, the balance of Remark E.2; it reads back as valid diagnostics."""
    from particles.lm import diagnostics as dg
    monkeypatch.setitem(dg.FLATNESS_SETTINGS, "full", dg.FLATNESS_SETTINGS["quick"])  # seconds, not minutes
    monkeypatch.setitem(dg.JACOBIAN_SETTINGS, "full", dg.JACOBIAN_SETTINGS["quick"])
    replica = replace(tiny, variants=("gd-lt", "adam"), diagnosed_when_trained=True)
    for v in replica.variants:
        assert replica.train_run(v, 0)[0] == "trained"
    got = replica.collect_diagnostics(replica.variants, seeds=[0])
    assert not got.missing and not got.invalid
    for v in replica.variants:
        spectra = got.results[v][0]["jacobian"]["spectra"]
        assert len(spectra) == dg.JACOBIAN_SETTINGS["quick"]["sequences"]
        assert all(len(t) == min(dg.SIGMA_TAIL, s["n_total"]) for s in spectra for t in s["sigma_tail"])
        p, _ = dg.persistence_at(spectra, lambda smax, n: dg.SIGMA_CUTOFF)
        assert p == pytest.approx(got.results[v][0]["jacobian"]["persistence"], rel=1e-12)
    assert "second_moment_balance" in got.results["adam"][0] and "second_moment_balance" not in got.results["gd-lt"][0]
    assert got.results["adam"][0]["second_moment_balance"]["ratio_max"] >= 1.0
    # a lent GPU's plan returns the diagnostics beside the result
    from types import SimpleNamespace
    task = runner.Task(replica, "adam", 0)
    assert [n for _, n in cuda_session.result_files(SimpleNamespace(tasks=[task]), [task.name])] == \
        ["results/lm/tiny/adam-seed0.json", "results/lm/tiny-diagnostics/adam-seed0.json"]
    assert tiny.train_run("gd-lt", 1)[0] == "trained"   # a study without the flag is not diagnosed
    assert not (tiny.diagnostics_folder / "gd-lt-seed1.json").exists()

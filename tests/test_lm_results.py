"""The committed training results (results/lm/): valid, of their study's configuration, and
reproducible: CI retrains the committed `honesty` run and compares it with its JSON."""
import json
import platform
from dataclasses import replace

import pytest

from particles.lm import data as lm_data
from particles.lm import studies
from particles.lm import train as lm_train

PROVENANCE = ("commit", "torch", "python", "platform", "cpu", "device", "threads")
# Tolerance across platforms: a relative perturbation of 2^-23 (one float32 ulp) of every initial
# weight moves the honesty run's curve by up to 1.2e-4 and its full-split loss by 2.7e-5 nats after
# 100 steps (measured); kernels of another CPU differ by ulp-level rounding in every op, so we allow
# ten times the larger response. On the platform that wrote the JSON the run is bit-identical.
CROSS_PLATFORM_ATOL = 1e-3


def _committed():
    """Every committed run result (the diagnostics folders hold other files, tested with them)."""
    return sorted(p for name in studies.STUDIES for p in (studies.RESULTS_ROOT / name).glob("*.json")
                  if not p.name.endswith(".diverged.json"))


def test_every_committed_divergence_is_of_its_studys_configuration_and_has_no_result():
    for name, study in studies.STUDIES.items():
        for path in study.folder.glob("*.diverged.json"):
            record = json.loads(path.read_text())
            assert study.divergence(record["variant"], record["seed"]) == record  # not stale
            assert not study.path(record["variant"], record["seed"]).exists()
            assert "training loss is nan" in record["message"] or "inf" in record["message"]
            assert record["commit"] != "unknown"


def test_a_run_whose_loss_becomes_nan_is_recorded_as_diverged_and_not_retrained(tmp_path, monkeypatch):
    """Study.run: a learning rate of 1e4 makes the loss NaN within a few steps; the run is committed
    as `<stem>.diverged.json`, `collect` names it (neither missing nor a result), a second `run`
    does not train it again."""
    from dataclasses import replace
    monkeypatch.setattr(studies, "RESULTS_ROOT", tmp_path / "results")
    monkeypatch.setattr(studies, "WEIGHTS_ROOT", tmp_path / "runs")
    cfg = replace(studies.HONESTY, steps=30, warmup=1, eval_interval=10, eval_batches=1, lr=1e4, batch_size=2)
    study = studies.Study("blowup", cfg, ("gd-lt",), (0,))
    study.run(progress=False)
    got = study.collect()
    assert got.missing == [] and not got.results and list(got.diverged) == ["gd-lt-seed0"]
    assert "training loss is nan" in got.diverged["gd-lt-seed0"] or "inf" in got.diverged["gd-lt-seed0"]
    record = study.divergence("gd-lt", 0)
    stamp = study.divergence_path("gd-lt", 0).stat().st_mtime_ns
    study.run(progress=False)
    assert study.divergence_path("gd-lt", 0).stat().st_mtime_ns == stamp and record["seed"] == 0
    # another configuration makes the record stale: the run is missing again
    other = studies.Study("blowup", replace(cfg, lr=1e3), ("gd-lt",), (0,))
    assert other.collect().missing == ["gd-lt-seed0"]


def test_every_results_folder_is_a_study_or_its_diagnostics():
    folders = {p.name for p in studies.RESULTS_ROOT.iterdir() if p.is_dir()}
    known = set(studies.STUDIES) | {studies.STUDIES[n].diagnostics_folder.name for n in studies.STUDIES}
    assert folders <= known, sorted(folders - known)


def test_every_committed_result_is_valid_for_its_study():
    paths = _committed()
    assert paths, "no committed results under results/lm"
    for path in paths:
        study = studies.get_study(path.parent.name)
        r = lm_train.read_result(path)
        cfg = study.run_config(r["variant"], r["seed"])
        assert path.name == f"{lm_train.run_stem(r['variant'], r['seed'])}.json"
        # not stale: the study's configuration on the device kind the run names (cpu or cuda)
        assert study.read(r["variant"], r["seed"])["config_hash"] == r["config_hash"]
        assert studies.device_kind(r) in studies.DEVICE_KINDS
        assert r["data"]["sha256"] == lm_data.SHAKESPEARE_SHA256
        assert all(k in r for k in PROVENANCE) and r["commit"] != "unknown"
        assert len(r["curves"]["val_loss"]) == -(-cfg.steps // cfg.eval_interval)
        # the looks at a comparison are counted on its studies' plans (claims._experiment.planned_looks):
        # a plan may grow, never drop a run it has committed (which would lower the looks it spent)
        assert r["variant"] in study.variants and r["seed"] in study.seeds, path


def test_the_committed_honesty_run_is_reproduced():
    study = studies.get_study("honesty")
    path = study.path("gd-lt", 0)
    committed = json.loads(path.read_text())
    r = lm_train.train(study.run_config("gd-lt", 0))
    same_platform = all(committed.get(k) == r[k] for k in ("torch", "platform", "cpu", "cpu_capability",
                                                           "threads"))
    if same_platform:
        assert r["curves"]["val_loss"] == committed["curves"]["val_loss"]
        assert r["val_loss_full"] == committed["val_loss_full"]
    else:
        assert r["curves"]["val_loss"] == pytest.approx(committed["curves"]["val_loss"],
                                                        abs=CROSS_PLATFORM_ATOL)
        assert r["val_loss_full"] == pytest.approx(committed["val_loss_full"], abs=CROSS_PLATFORM_ATOL)


def test_collect_names_missing_stale_and_corrupt_runs(tmp_path, monkeypatch):
    committed = json.loads(studies.get_study("honesty").path("gd-lt", 0).read_text())
    monkeypatch.setattr(studies, "RESULTS_ROOT", tmp_path)
    study = replace(studies.get_study("honesty"), variants=("gd-lt", "hb"), seeds=(0, 1))
    (tmp_path / "honesty").mkdir()
    study.path("gd-lt", 0).write_text(json.dumps(committed))
    stale = dict(committed, config=dict(committed["config"], lr=1.0), config_hash="0" * 16)
    study.path("gd-lt", 1).write_text(json.dumps(stale | {"seed": 1}))
    study.path("hb", 0).write_text("{truncated")
    got = study.collect()
    assert set(got.results) == {"gd-lt"} and set(got.results["gd-lt"]) == {0}
    assert got.missing == ["hb-seed1"]
    assert "stale" in got.invalid["gd-lt-seed1"] and "lr (result 1.0" in got.invalid["gd-lt-seed1"]
    assert "corrupt" in got.invalid["hb-seed0"] and "hb-seed0.json" in got.invalid["hb-seed0"]
    assert got.paired_seeds(["gd-lt"]) == [0] and got.paired_seeds(["gd-lt", "hb"]) == []


def test_provenance_names_this_machine():
    p = lm_train.provenance(lm_train.torch.device("cpu"))
    assert p["platform"] == f"{platform.system()}-{platform.machine()}" and p["device"] == "cpu"
    assert len(p["commit"].split("-")[0]) == 40 or p["commit"] == "unknown"


def test_remaining_core_hours_uses_each_variants_committed_speed_else_the_bench_ratios(monkeypatch):
    """A missing run of a variant with committed runs costs their median step time; one of a
    variant without costs the vanilla step time (a committed run of variant a at step time t is
    t / r_a of vanilla) times its ratio r_b."""
    monkeypatch.setattr(studies, "step_time_ratios", lambda: {"hb": 2.0, "soap": 16.0})
    study = replace(studies.get_study("main"), variants=("gd-lt", "hb", "soap"), seeds=(0, 1))
    got = studies.Collected({"hb": {0: {"step_time_s": 0.4}}}, missing=["gd-lt-seed0", "soap-seed1"])
    assert study.remaining_core_hours(got) == pytest.approx(0.2 * (1 + 16) * study.config.steps / 3600)
    got = studies.Collected({"hb": {0: {"step_time_s": 0.4}}, "soap": {0: {"step_time_s": 5.0}}},
                            missing=["hb-seed1", "soap-seed1"])
    assert study.remaining_core_hours(got) == pytest.approx((0.4 + 5.0) * study.config.steps / 3600)
    assert study.remaining_core_hours(studies.Collected({}, missing=["hb-seed0"])) is None


def test_step_time_ratios_read_the_committed_benchmark():
    """Every arm's cost can be estimated (`Study.remaining_core_hours`): from its own committed
    runs' step time, else from its ratio in the committed training benchmark."""
    ratios = studies.step_time_ratios()
    assert ratios["gd-lt"] == 1.0 and all(r > 0 for r in ratios.values())
    timed = {v for study in studies.STUDIES.values() for v, runs in study.collect().results.items() if runs}
    arms = {v for study in studies.STUDIES.values() for v in study.variants}
    assert arms <= set(ratios) | timed, sorted(arms - set(ratios) - timed)


def test_the_plan_fills_every_run_of_every_training_study_once():
    planned = [(name, v, s) for name, variants, seeds in studies.PLAN for v in variants for s in seeds]
    assert len(planned) == len(set(planned))
    wanted = {(name, v, s) for name, study in studies.STUDIES.items() if name != "honesty"
              for v in study.variants for s in study.seeds}
    assert set(planned) == wanted


def test_every_committed_diagnostics_file_is_current():
    n = 0
    for study in studies.STUDIES.values():
        for path in study.diagnostics_folder.glob("*.json"):
            variant, _, seed = path.stem.rpartition("-seed")
            got = study.collect_diagnostics([variant], [int(seed)])
            assert not got.invalid and not got.missing, (path, got.invalid)
            n += 1
    assert n >= 1  # results/lm/main-diagnostics/ holds at least gd-lt seed 0

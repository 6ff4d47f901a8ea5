"""Data, training, checkpoints and sweeps of the compact path (quick configurations)."""
import json
from dataclasses import replace

import numpy as np
import pytest
import torch

from particles.lm import data as lm_data
from particles.lm import train as lm_train
from particles.lm.data import Batches, load_corpus
from particles.lm.train import QUICK, TrainConfig, lr_factor, sweep, train
from particles.threads import torch_threads
from particles.lm.variants import VARIANTS


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """One intra-op thread: these models are tiny and idle pool threads spin on a shared CPU."""
    with torch_threads(1):
        yield

Q = TrainConfig(**QUICK)


def test_stdlib_corpus_is_deterministic_and_split_by_document():
    a, b = load_corpus(max_bytes=QUICK["max_bytes"]), load_corpus(max_bytes=QUICK["max_bytes"])
    assert a.sha256 == b.sha256 and len(a.sha256) == 64
    assert a.train.size > 10 * a.val.size > 0
    assert a.train.dtype == np.uint8
    full = load_corpus()
    assert full.sha256 != a.sha256 and full.train.size > a.train.size


def test_batches_are_a_function_of_seed_and_index_and_ranks_partition_them():
    tok = np.arange(1000, dtype=np.uint8)
    b = Batches(tok, 16, 8, seed=3)
    x1, y1 = b.batch(5)
    x2, y2 = b.batch(5)
    assert torch.equal(x1, x2) and torch.equal(y1[:, :-1], x1[:, 1:])  # targets shift inputs by one
    ranks = [Batches(tok, 16, 8, seed=3, rank=r, world_size=2).batch(5)[0] for r in (0, 1)]
    assert torch.equal(torch.cat(ranks).sort(0).values, x1.sort(0).values)


def test_bad_data_raises():
    with pytest.raises(ValueError, match="data"):
        load_corpus("no/such/corpus.txt")
    with pytest.raises(ValueError, match="block_size"):
        Batches(np.zeros(10, dtype=np.uint8), 64, 2, seed=0)
    with pytest.raises(ValueError, match="max_bytes"):
        load_corpus(max_bytes=0)


def test_tinystories_without_datasets_is_a_clear_error(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == "datasets":
            raise ImportError("no datasets")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    lm_data._load_tinystories.cache_clear()
    with pytest.raises(RuntimeError, match="datasets"):
        load_corpus("tinystories")


def test_local_text_file(tmp_path):
    p = tmp_path / "t.txt"
    p.write_text("hello world " * 200)
    c = load_corpus(str(p))
    assert c.train.size + c.val.size == 2400 and c.val.size == 120


def test_lr_schedule_warms_up_then_decays_to_the_floor():
    cfg = TrainConfig(steps=100, warmup=10, min_lr_ratio=0.1)
    assert lr_factor(0, cfg) == pytest.approx(0.1) and lr_factor(9, cfg) == pytest.approx(1.0)
    assert lr_factor(10, cfg) == pytest.approx(1.0)
    assert lr_factor(100, cfg) == pytest.approx(0.1)
    vals = [lr_factor(s, cfg) for s in range(10, 101)]
    assert all(a >= b for a, b in zip(vals, vals[1:]))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_quick_training_of_every_variant(name):
    """Six AdamW steps of a 2-layer model: finite losses, and the validation loss falls below
    the uniform byte loss ln 256 (every variant learns the byte unigram within a few steps)."""
    r = train(replace(Q, variant=name))
    assert np.isfinite(r["curves"]["val_loss"]).all()
    assert r["best_val_loss"] < np.log(256)
    assert r["n_params"] > r["n_params_non_positional"]


def test_muon_hybrid_trains():
    r = train(replace(Q, optimizer="muon"))
    assert r["best_val_loss"] < np.log(256)


def test_checkpoint_resume_reproduces_the_uninterrupted_run(tmp_path, monkeypatch):
    cfg = replace(Q, variant="nesterov-lt")
    ref = train(cfg, tmp_path / "ref")
    real_batch = Batches.batch

    def interrupted(self, k):
        if self.seed == cfg.seed and k == 4:
            raise KeyboardInterrupt
        return real_batch(self, k)

    monkeypatch.setattr(Batches, "batch", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(cfg, tmp_path / "run")
    assert (tmp_path / "run" / "nesterov-lt-seed0.ckpt").exists()
    monkeypatch.setattr(Batches, "batch", real_batch)
    resumed = train(cfg, tmp_path / "run")
    assert resumed["resumed_from_step"] == 3
    # same data, same optimizer state: identical curves (CPU kernels are deterministic)
    assert resumed["curves"]["val_loss"] == ref["curves"]["val_loss"]


def test_corrupt_checkpoint_is_a_clear_error(tmp_path):
    (tmp_path / "gd-lt-seed0.ckpt").write_bytes(b"not a checkpoint")
    with pytest.raises(RuntimeError, match="corrupt"):
        train(Q, tmp_path)


def test_sweep_skips_finished_runs_and_results_are_complete(tmp_path, monkeypatch):
    first = sweep(["gd-lt", "hb"], [0], Q, "s", tmp_path)
    keys = {"config", "config_hash", "data", "curves", "best_val_loss", "final_val_loss",
            "tokens_per_s", "wall_clock_s", "n_params", "oracle_calls"}
    assert all(keys <= set(r) for r in first)
    assert first[0]["data"]["sha256"] == first[1]["data"]["sha256"]
    monkeypatch.setattr(lm_train, "train", lambda *a, **k: pytest.fail("a finished run was retrained"))
    again = sweep(["gd-lt", "hb"], [0], Q, "s", tmp_path)
    assert [r["best_val_loss"] for r in again] == [r["best_val_loss"] for r in first]
    assert json.loads((tmp_path / "s" / "hb-seed0.json").read_text())["variant"] == "hb"
    assert {r["variant"] for r in lm_train.load_results("s", tmp_path)} == {"gd-lt", "hb"}


def test_bad_config_raises():
    with pytest.raises(ValueError, match="variant"):
        TrainConfig(variant="nope")
    with pytest.raises(ValueError, match="optimizer"):
        TrainConfig(optimizer="sgd")
    with pytest.raises(ValueError, match="warmup"):
        TrainConfig(steps=5, warmup=10)


def test_cli_documents_its_commands_and_reports_bad_input(capsys, tmp_path):
    from particles.lm.__main__ import cli
    with pytest.raises(SystemExit) as exit_:
        cli(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert all(cmd in out for cmd in ("train", "sweep", "report", "variants"))
    assert cli(["train", "--variant", "foo", "--root", str(tmp_path)]) == 2
    assert "unknown variant" in capsys.readouterr().err
    assert cli(["train", "--data", str(tmp_path / "none.txt"), "--root", str(tmp_path)]) == 2
    assert cli(["report", "--root", str(tmp_path)]) == 1


def _ddp_worker(rank, world, port, out_dir, variant):
    import os
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), WORLD_SIZE=str(world),
                      RANK=str(rank))
    try:
        train(replace(Q, variant=variant), out_dir)
    finally:
        torch.distributed.destroy_process_group()


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["nesterov-lt", "symp-softmax-presymp-etd-ab2"])
def test_ddp_on_two_cpu_ranks_matches_one_process(tmp_path, variant):
    """torchrun's path on CPU (gloo): two ranks each take half of every global batch; DDP averages
    their gradients, which is the single-process gradient of the whole batch, so the curves agree
    to float32 reduction-order rounding (1e-5 on losses of O(5))."""
    import socket
    import torch.multiprocessing as mp
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(_ddp_worker, args=(2, port, str(tmp_path), variant), nprocs=2, join=True)
    ddp = json.loads((tmp_path / f"{variant}-seed0.json").read_text())
    single = train(replace(Q, variant=variant))
    assert ddp["world_size"] == 2
    assert np.allclose(ddp["curves"]["val_loss"], single["curves"]["val_loss"], rtol=0, atol=1e-5)


def test_load_model_rebuilds_the_trained_weights(tmp_path):
    r = train(replace(Q, variant="tmm"), tmp_path)
    model, result = lm_train.load_model(tmp_path / "tmm-seed0.json")
    assert result["config_hash"] == r["config_hash"]
    batches = Batches(load_corpus(max_bytes=Q.max_bytes).val, Q.block_size, Q.batch_size, seed=10_007)
    val = lm_train.evaluate(model, batches, Q.eval_batches, "cpu", torch.no_grad())
    assert val == pytest.approx(r["final_val_loss"], abs=1e-6)  # same weights, same batches
    (tmp_path / "tmm-seed0.pt").write_bytes(b"garbage")
    with pytest.raises(RuntimeError, match="corrupt"):
        lm_train.load_model(tmp_path / "tmm-seed0.json")

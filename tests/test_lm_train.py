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
from theory.io import run_lock
from particles.lm.variants import VARIANTS


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """One intra-op thread: these models are tiny and idle pool threads spin on a shared CPU."""
    with torch_threads(1):
        yield

Q = TrainConfig(**QUICK)


def test_shakespeare_corpus_is_pinned_and_split_within_every_play():
    c = load_corpus()
    assert c.sha256 == lm_data.SHAKESPEARE_SHA256 and c.n_documents == lm_data.SHAKESPEARE_PLAYS
    assert c.train.size + c.val.size == lm_data.SHAKESPEARE_BYTES
    assert 0.09 < c.val.size / lm_data.SHAKESPEARE_BYTES < 0.11  # the last 10% of every play
    plays = lm_data.shakespeare_plays()
    # the validation split is the concatenated tails of the plays, each cut at a line start
    tails = [data[lm_data._split_at_line(data, lm_data.VAL_FRACTION):] for _, data in plays]
    assert c.val.tobytes() == b"".join(tails)
    assert all(data[lm_data._split_at_line(data, 0.1) - 1:][:1] == b"\n" for _, data in plays)
    small = load_corpus(max_bytes=QUICK["max_bytes"])
    assert small.sha256 == c.sha256 and small.train.size + small.val.size == QUICK["max_bytes"]


def test_corpus_hash_mismatch_names_both_hashes(monkeypatch):
    plays = lm_data.shakespeare_plays()
    monkeypatch.setattr(lm_data, "shakespeare_plays", lambda: plays[:-1] + [(plays[-1][0], b"x")])
    lm_data._load_shakespeare.cache_clear()
    try:
        with pytest.raises(lm_data.CorpusError, match=lm_data.SHAKESPEARE_SHA256) as err:
            load_corpus()
        assert "sha256" in str(err.value) and str(err.value).count("expected") == 1
    finally:
        lm_data._load_shakespeare.cache_clear()


def test_byte_entropies_are_the_plug_in_entropies():
    """A periodic stream abab...: H(X) = ln 2, and the next byte is determined: H(X_t|X_t-1) = 0;
    i.i.d. uniform bytes: both ln 256 up to the plug-in bias O(256^2 / n)."""
    e = lm_data.byte_entropies(np.tile(np.array([97, 98], dtype=np.uint8), 500))
    assert e["unigram"] == pytest.approx(np.log(2)) and e["bigram"] == pytest.approx(0.0, abs=1e-12)
    u = lm_data.byte_entropies(np.random.default_rng(0).integers(0, 256, 2_000_000).astype(np.uint8))
    assert u["unigram"] == pytest.approx(np.log(256), abs=1e-3)
    assert u["bigram"] == pytest.approx(np.log(256), abs=0.05)
    c = load_corpus()  # the floors docs/training.md states
    e = lm_data.byte_entropies(c.train)
    assert e["unigram"] == pytest.approx(3.302, abs=1e-3) and e["bigram"] == pytest.approx(2.469, abs=1e-3)


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
    with pytest.raises(lm_data.CorpusError, match="datasets"):
        load_corpus("tinystories")


def test_local_text_file(tmp_path):
    p = tmp_path / "t.txt"
    p.write_text("hello world " * 200)
    c = load_corpus(str(p))
    assert c.train.size + c.val.size == 2400 and c.val.size == 240  # the last VAL_FRACTION = 10%
    assert c.sha256 == lm_data.sha256(p.read_bytes())


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
    before = torch.load(tmp_path / "run" / "nesterov-lt-seed0.ckpt", weights_only=False)["elapsed"]
    monkeypatch.setattr(Batches, "batch", real_batch)
    resumed = train(cfg, tmp_path / "run")
    assert resumed["resumed_from_step"] == 3
    # the timing covers every step, those trained before the interruption included
    assert resumed["wall_clock_s"] > before > 0
    assert resumed["step_time_s"] == pytest.approx(resumed["wall_clock_s"] / cfg.steps, rel=1e-12)
    # same data, same optimizer state: identical curves (CPU kernels are deterministic)
    assert resumed["curves"]["val_loss"] == ref["curves"]["val_loss"]


def test_corrupt_checkpoint_is_a_clear_error(tmp_path):
    (tmp_path / "gd-lt-seed0.ckpt").write_bytes(b"not a checkpoint")
    with pytest.raises(lm_train.ResultError, match="corrupt"):
        train(Q, tmp_path)


def test_sweep_skips_finished_runs_and_results_are_complete(tmp_path, monkeypatch):
    first = sweep(["gd-lt", "hb"], [0], Q, "s", tmp_path)
    keys = {"config", "config_hash", "data", "curves", "best_val_loss", "final_val_loss",
            "tokens_per_s", "wall_clock_s", "n_params", "oracle_calls"}
    assert all(keys <= set(r) for r in first)
    assert first[0]["data"]["sha256"] == first[1]["data"]["sha256"]
    monkeypatch.setattr(lm_train, "_train", lambda *a, **k: pytest.fail("a finished run was retrained"))
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
    with pytest.raises(ValueError, match="lr"):
        TrainConfig(lr=float("nan"))
    with pytest.raises(TypeError, match="steps"):
        TrainConfig(steps=1.5)
    with pytest.raises(ValueError, match="device"):
        TrainConfig(device="tpu")
    for bad in (0.0, -0.1, float("inf"), True):
        with pytest.raises(ValueError, match="h0"):
            TrainConfig(h0=bad)


@pytest.mark.parametrize("variant", ["symp-softmax-presymp-euler", "symp-linear-presymp-etd-ab2", "nesterov-lt"])
def test_h0_sets_the_initial_sympformer_step_size_and_nothing_else(variant):
    """seed 000 App. B's per-table h_0: h_X = h_Y = h0 = softplus(raw) at init in every block;
    every other scalar keeps its init, and a variant without a step size is built unchanged."""
    plain, moved = replace(Q, variant=variant), replace(Q, variant=variant, h0=0.3)
    torch.manual_seed(0)
    a = lm_train.GPT(plain.model_config, plain.model_variant)
    torch.manual_seed(0)
    b = lm_train.GPT(moved.model_config, moved.model_variant)
    value = lambda scalars, name: float(torch.as_tensor(scalars[name]).detach())  # noqa: E731
    for ba, bb in zip(a.blocks, b.blocks):
        for name in ba.scalars.specs:
            want = 0.3 if name in ("h_x", "h_y") else value(ba.scalars, name)
            assert value(bb.scalars, name) == pytest.approx(want, rel=1e-6), name
    if "h_x" not in a.blocks[0].scalars.specs:
        assert all(torch.equal(p, q) for p, q in zip(a.state_dict().values(), b.state_dict().values()))


def test_a_later_field_at_its_default_leaves_the_hash_and_json_unchanged():
    """Fields added after results were committed (`LATER_FIELDS`) enter the configuration only
    when set, so the committed results stay valid; set, they change the hash."""
    assert "h0" not in Q.as_dict() and Q.hash() == replace(Q, h0=None).hash()
    assert replace(Q, h0=0.1).as_dict()["h0"] == 0.1 and replace(Q, h0=0.1).hash() != Q.hash()
    assert TrainConfig(**replace(Q, h0=0.1).as_dict()) == replace(Q, h0=0.1)


def test_torchrun_on_two_cpu_ranks_matches_one_process(tmp_path):
    """The documented command `torchrun --nproc_per_node=2 -m particles.lm sweep ...` on CPU (gloo):
    two ranks each take half of every global batch; DDP averages their gradients, which is the
    single-process gradient of the whole batch, so the curves agree to float32 reduction-order
    rounding (1e-5 on losses of O(5); measured differences ~1e-7)."""
    import os
    import subprocess
    import sys
    variants = ["nesterov-lt", "symp-softmax-presymp-etd-ab2"]
    args = ["sweep", "--variants", ",".join(variants), "--seeds", "0", "--root", str(tmp_path),
            "--name", "ddp"]
    for f in ("n_layer", "n_head", "n_embd", "block_size", "steps", "batch_size", "warmup",
              "eval_interval", "eval_batches", "max_bytes", "threads"):
        args += [f"--{f.replace('_', '-')}", str(QUICK[f])]
    torchrun = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
                "-m", "particles.lm", *args]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    done = subprocess.run(torchrun, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    for v in variants:
        ddp = json.loads((tmp_path / "ddp" / f"{v}-seed0.json").read_text())
        single = train(replace(Q, variant=v))
        assert ddp["world_size"] == 2 and single["world_size"] == 1
        assert np.allclose(ddp["curves"]["val_loss"], single["curves"]["val_loss"], rtol=0, atol=1e-5)
        assert ddp["val_loss_full"] == pytest.approx(single["val_loss_full"], abs=1e-5)


def test_load_model_rebuilds_the_trained_weights(tmp_path):
    r = train(replace(Q, variant="tmm"), tmp_path)
    model, result = lm_train.load_model(tmp_path / "tmm-seed0.json")
    assert result["config_hash"] == r["config_hash"]
    batches = Batches(load_corpus(max_bytes=Q.max_bytes).val, Q.block_size, Q.batch_size, seed=10_007)
    val = lm_train.evaluate(model, batches, Q.eval_batches, "cpu", torch.no_grad())
    assert val == pytest.approx(r["final_val_loss"], abs=1e-6)  # same weights, same batches
    cfg = replace(Q, variant="symp-linear-plain-euler", h0=0.3)  # a configuration-set init
    r = train(cfg, tmp_path)
    model, _ = lm_train.load_model(tmp_path / "symp-linear-plain-euler-seed0.json")
    val = lm_train.evaluate(model, batches, Q.eval_batches, "cpu", torch.no_grad())
    assert val == pytest.approx(r["final_val_loss"], abs=1e-6)
    (tmp_path / "tmm-seed0.pt").write_bytes(b"garbage")
    with pytest.raises(lm_train.ResultError, match="corrupt"):
        lm_train.load_model(tmp_path / "tmm-seed0.json")


def test_a_finished_run_is_read_back_not_retrained(tmp_path, monkeypatch):
    first = train(Q, tmp_path)
    monkeypatch.setattr(lm_train, "_train", lambda *a, **k: pytest.fail("a finished run was retrained"))
    again = train(Q, tmp_path)
    assert again["val_loss_full"] == first["val_loss_full"]
    monkeypatch.undo()
    assert train(Q, tmp_path, force=True)["val_loss_full"] == first["val_loss_full"]  # deterministic


def test_a_stale_result_names_the_fields_that_differ(tmp_path):
    train(Q, tmp_path)
    with pytest.raises(lm_train.ResultError, match=r"stale.*lr \(result 0.003, wanted 0.001\)"):
        train(replace(Q, lr=1e-3), tmp_path)


def test_resuming_with_another_config_names_the_fields(tmp_path, monkeypatch):
    real_batch = Batches.batch

    def interrupted(self, k):
        if k == 4 and self.seed == Q.seed:
            raise KeyboardInterrupt
        return real_batch(self, k)

    monkeypatch.setattr(Batches, "batch", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(Q, tmp_path)
    monkeypatch.setattr(Batches, "batch", real_batch)
    with pytest.raises(lm_train.ResultError, match=r"batch_size \(checkpoint 4, this run 8\)"):
        train(replace(Q, batch_size=8), tmp_path)


def test_a_diverging_run_stops_naming_the_step_and_keeps_its_checkpoint(tmp_path, monkeypatch):
    real_ce = lm_train.F.cross_entropy
    calls = {"n": 0}

    def nan_after_five(*args, **kwargs):
        loss = real_ce(*args, **kwargs)
        if torch.is_grad_enabled():
            calls["n"] += 1
            if calls["n"] > 5:
                return loss * float("nan")
        return loss

    monkeypatch.setattr(lm_train.F, "cross_entropy", nan_after_five)
    with pytest.raises(lm_train.TrainingDiverged, match=r"at step 5 .*learning rate") as err:
        train(replace(Q, steps=8, eval_interval=2), tmp_path)
    assert "checkpoint" in str(err.value) and (tmp_path / "gd-lt-seed0.ckpt").exists()
    assert not (tmp_path / "gd-lt-seed0.json").exists()


def test_full_validation_loss_counts_every_target_byte_once():
    """On a model whose logits ignore the input (zero weights: uniform over 256 bytes) the loss is
    ln 256 on every byte; on the true model it is the mean of the windowed losses."""
    model = lm_train.GPT(Q.model_config, "gd-lt")
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
    tokens = np.arange(1000, dtype=np.int64).astype(np.uint8)
    val = lm_train.evaluate_full(model, tokens, Q.block_size, 5, "cpu", torch.no_grad())
    assert val == pytest.approx(np.log(256), abs=1e-6)
    with pytest.raises(ValueError, match="tokens"):
        lm_train.evaluate_full(model, tokens[:10], Q.block_size, 5, "cpu", torch.no_grad())


@pytest.mark.parametrize("variant, attn, mlp", [("gd-lt", 1, 1), ("imex-k2-am", 1, 2), ("prk-verlet-ama", 2, 1)])
def test_flops_per_token_counts_every_oracle_call(variant, attn, mlp):
    """6 x (weights touched per token) + attention scores: for width d, L layers, vocabulary V and
    block T a block's attention has 4 d^2 weights and its MLP 8 d^2 (no biases)."""
    from particles.lm.blocks import count_oracle_calls
    from particles.lm.model import flops_per_token
    L, d, T, V = 3, 16, 8, 256
    model = lm_train.GPT(lm_train.GPTConfig(n_layer=L, n_head=2, n_embd=d, block_size=T), variant)
    calls = count_oracle_calls(model.blocks[0], model.initial_state(torch.zeros(1, T, dtype=torch.long)))
    assert (calls.attn, calls.mlp) == (attn, mlp)
    expected = 6 * (L * (attn * 4 * d * d + mlp * 8 * d * d) + V * d) + 12 * L * attn * T * d
    assert flops_per_token(model, calls.attn, calls.mlp) == expected


def test_mfu_is_reported_only_against_a_known_peak():
    from particles.lm.model import peak_flops
    assert peak_flops("NVIDIA H100 80GB HBM3") == 989.4e12 and peak_flops("cpu") is None
    r = train(Q)
    assert r["mfu"] is None and r["flops_per_token"] > 0


def test_run_lock_lets_one_process_train_a_run(tmp_path):
    import os
    import subprocess
    import sys
    with run_lock(tmp_path, "x") as mine:
        assert mine and (tmp_path / "x.lock").read_text() == str(os.getpid())
        with run_lock(tmp_path, "x") as again:  # held by a live process (this one)
            assert not again
    assert not (tmp_path / "x.lock").exists()
    # a lock left by a process that has exited is taken over
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    (tmp_path / "y.lock").write_text(dead)
    with run_lock(tmp_path, "y") as mine:
        assert mine
    assert not list(tmp_path.iterdir())


def test_sweep_skips_a_run_another_process_is_training(tmp_path, monkeypatch):
    import os
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "hb-seed0.lock").write_text(str(os.getppid()))  # a live process
    done = sweep(["gd-lt", "hb"], [0], Q, "s", tmp_path)
    assert [r["variant"] for r in done] == ["gd-lt"]
    assert not (tmp_path / "s" / "hb-seed0.json").exists()

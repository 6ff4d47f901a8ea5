"""The roofline cost model (particles.lm.cost_model) and the wall-clock claims' use of it
(claims._wallclock): FLOPs against torch's FlopCounterMode and nanoGPT's closed form, bytes of
single ops against their tensor sizes, fusion on a known chain, the roofline's arithmetic, and the
committed counts against the code."""
import functools
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles.lm import bench
from particles.lm import cost_model as cm
from particles.lm.model import flops_per_token, meta_model

F32 = torch.float32


def record(fn):
    with cm.Recorder() as rec:
        fn()
    return rec


def compute_ops(rec):
    return [op for op in rec.ops if op.kind not in ("view", "free")]


# ---------------------------------------------------------------- bytes of single ops

@given(n=st.integers(1, 64), m=st.integers(1, 64))
def test_bytes_of_elementwise_and_broadcast_ops_are_their_operands(n, m):
    x, w = torch.ones(n, 1), torch.ones(1, m)
    rec = record(lambda: x * w)
    (op,) = compute_ops(rec)
    # reads the two operands once each (4 bytes per float32), writes the n x m product
    assert (op.read, op.written, op.flops) == (4 * (n + m), 4 * n * m, 0.0)


@given(n=st.integers(1, 32), rows=st.integers(1, 8))
def test_an_expanded_operand_counts_its_stored_elements_and_views_move_nothing(n, rows):
    v = torch.ones(n)
    rec = record(lambda: v.expand(rows, n) + 1.0)
    kinds = [op.kind for op in rec.ops]
    assert kinds == ["view", "pointwise"]  # expand is a view; the add reads n stored floats
    add = rec.ops[1]
    assert (add.read, add.written) == (4 * n, 4 * rows * n)


@given(b=st.integers(1, 4), i=st.integers(1, 8), k=st.integers(1, 8), j=st.integers(1, 8))
def test_matmul_flops_are_flop_counters(b, i, k, j):
    x, y = torch.ones(b, i, k), torch.ones(b, k, j)
    rec = record(lambda: torch.bmm(x, y))
    (op,) = compute_ops(rec)
    assert op.kind == "matmul" and op.flops == 2 * b * i * k * j and op.batch == b
    assert (op.read, op.written) == (4 * b * (i * k + k * j), 4 * b * i * j)


def test_in_place_ops_write_the_buffer_they_mutate():
    x, y = torch.ones(10), torch.ones(10)
    rec = record(lambda: x.add_(y))
    (op,) = compute_ops(rec)
    assert (op.read, op.written) == (80, 40)


# ---------------------------------------------------------------- fusion

def test_fusion_of_a_pointwise_chain_feeding_a_matmul():
    """x -> (x + 1) * 2 -> exp -> z @ w: eager moves every intermediate; fused, the chain is one
    kernel reading x once and writing z once (the matmul reads it); the matmul's result is never
    read again, so ideal fusion does not write it."""
    n = 16
    x, w = torch.ones(n, n), torch.ones(n, n)
    out = []
    rec = record(lambda: out.append(((x + 1.0) * 2.0).exp() @ w))
    ops = compute_ops(rec)
    assert [op.name for op in ops] == ["add", "mul", "exp", "mm"]
    eager = sum(op.read + op.written for op in ops)
    assert eager == 3 * (2 * 4 * n * n) + 3 * 4 * n * n
    kernels = cm.fuse(rec.ops, rec.created, rec.readers)
    assert [k.name for k in kernels] == ["add+mul+exp", "mm"]
    chain, mm = kernels
    assert (chain.read, chain.written) == (4 * n * n, 4 * n * n)
    assert (mm.read, mm.written, mm.flops) == (8 * n * n, 0, 2 * n ** 3)


# ---------------------------------------------------------------- a traced training step

TOY = cm.StepSetting(n_layer=2, n_head=2, n_embd=16, block_size=16, vocab_size=256, batch_size=2)


@functools.lru_cache(maxsize=None)
def toy_trace(variant: str, fake: bool = False, accumulation: int = 1) -> cm.StepTrace:
    """One trace per (variant, fake, accumulation), shared by the tests below (seconds each)."""
    return cm.trace_step(variant, cm.StepSetting(**{**TOY.as_dict(), "accumulation": accumulation}), fake=fake)


@settings(max_examples=6, deadline=None)
@given(n_layer=st.integers(1, 2), n_head=st.sampled_from([1, 2]), width=st.sampled_from([4, 8]),
       block=st.sampled_from([4, 8]), batch=st.integers(1, 2), accumulation=st.integers(1, 3))
def test_vanilla_step_flops_are_nanogpts_closed_form(n_layer, n_head, width, block, batch, accumulation):
    """GPT + AdamW: the counted FLOPs of a step are accumulation x B x T x nanoGPT's
    6 (L (P_attn + P_mlp) + V d) + 12 L T d per token (model.flops_per_token; AdamW has no
    matmul) plus 2 L T d: torch's formula for the flash-attention backward also counts the
    recomputation of the scores QK^T (5 matmuls of T x T x D per head, not 4). Equal to
    FlopCounterMode's own total: exact integers."""
    s = cm.StepSetting(n_layer, n_head, n_head * width, block, 64, batch, accumulation)
    trace = cm.trace_step("gd-lt", s, fake=False)
    per_token = flops_per_token(meta_model(s.gpt_config(), "gd-lt")) + 2 * n_layer * block * s.n_embd
    assert trace.flops == accumulation * batch * block * per_token == trace.flop_counter_total


@pytest.mark.parametrize("variant", ["tmm", "symp-softmax-presymp-etd-ab2"])
def test_fake_tensors_trace_the_same_ops_as_real_ones(variant):
    """The paper sizes are traced under FakeTensorMode; at a toy size the real tensors give the
    same ops, FLOPs and bytes."""
    real, fake = (toy_trace(variant, fake=f) for f in (False, True))
    assert [op.name for op in real.micro_rest] == [op.name for op in fake.micro_rest]
    for fused in (False, True):
        assert real.bytes_moved(fused) == fake.bytes_moved(fused)
    assert real.flops == fake.flops == real.flop_counter_total


def test_fused_traffic_is_at_most_eager_and_kernels_fewer():
    trace = toy_trace("tmm")
    assert 0 < trace.bytes_moved(fused=True) < trace.bytes_moved()
    assert len(trace.kernels(fused=True)) < len(trace.kernels()) < trace.dispatched()


def test_accumulation_adds_micro_batches_not_updates():
    one, four = (toy_trace("gd-lt", accumulation=a) for a in (1, 4))
    micro = sum(op.read + op.written for op in one.micro_rest if op.kind not in ("view", "free"))
    assert four.bytes_moved() == pytest.approx(one.bytes_moved() + 3 * micro, rel=1e-12)


# ---------------------------------------------------------------- the roofline

def machine(**kw):
    base = dict(name="m", peak_flops=100.0, bandwidth=((1.0, 10.0),), op_overhead=0.0, synchronous=True)
    return cm.Machine(**{**base, **kw})


def op(**kw):
    return cm.Op(**{"index": 0, "name": "x", "phase": "forward", "kind": "pointwise", **kw})


@given(flops=st.floats(0, 1e4), nbytes=st.integers(0, 10_000), causal=st.booleans())
def test_kernel_time_is_the_roofline(flops, nbytes, causal):
    m = machine()
    k = op(kind="attention", flops=flops, causal=causal, reads=((1, 1, nbytes),))
    tc, tm = m.kernel_seconds(k)
    assert tc == pytest.approx(flops * (cm.CAUSAL_FRACTION if causal else 1.0) / 100.0, rel=1e-15)
    assert tm == pytest.approx(nbytes / 10.0, rel=1e-15)


def trace_of(ops):
    return cm.StepTrace(TOY, "gd-lt", 0, list(ops), [], [], {}, {}, 0.0)


def test_cpu_adds_the_dispatch_cost_and_gpu_overlaps_it():
    ops = [op(index=0, flops=0.0, reads=((1, 1, 10),)), op(index=1, kind="view")]  # 1 s of memory
    cpu = cm.predict_seconds(trace_of(ops), machine(op_overhead=0.25))
    assert cpu["seconds"] == pytest.approx(1.0 + 2 * 0.25)  # every dispatched op, views too
    gpu = machine(op_overhead=0.25, synchronous=False)
    assert cm.predict_seconds(trace_of(ops), gpu)["seconds"] == pytest.approx(1.0)  # kernel > launch
    slow_launch = machine(op_overhead=3.0, synchronous=False)
    assert cm.predict_seconds(trace_of(ops), slow_launch)["overhead"] == pytest.approx(3.0)


def test_bandwidth_is_interpolated_in_log_bytes():
    m = machine(bandwidth=((10.0, 1.0), (1000.0, 3.0)))
    assert m.bandwidth_at(1.0) == 1.0 and m.bandwidth_at(1e6) == 3.0
    assert m.bandwidth_at(100.0) == pytest.approx(2.0, rel=1e-12)


def test_bad_inputs_raise_naming_the_parameter():
    with pytest.raises(ValueError, match="n_embd"):
        cm.StepSetting(1, 3, 8, 4, 16, 1)
    with pytest.raises(ValueError, match="accumulation"):
        cm.StepSetting(1, 1, 8, 4, 16, 1, accumulation=0)
    with pytest.raises(ValueError, match="autocast"):
        cm.StepSetting(1, 1, 8, 4, 16, 1, autocast="float16")
    with pytest.raises(ValueError, match="optimizer"):
        cm.StepSetting(1, 1, 8, 4, 16, 1, optimizer="sgd")
    with pytest.raises(ValueError, match="bandwidth"):
        machine(bandwidth=((10.0, 1.0), (5.0, 2.0)))
    with pytest.raises(ValueError, match="peak_flops"):
        machine(peak_flops=0.0)
    with pytest.raises(ValueError, match="variant"):
        cm.trace_step("no-such-variant", TOY, fake=False)


# ---------------------------------------------------------------- the claims' decision rule

def test_a_band_decides_only_when_it_lies_on_one_side():
    from claims._wallclock import status
    assert status([1.02, 1.08], at_most=1.1) == "holds"
    assert status([1.12, 1.3], at_most=1.1) == "fails"
    assert status([1.05, 1.2], at_most=1.1) == "undecided"
    assert status([2.5, 4.0], at_least=3.0, at_most=5.0) == "undecided"
    assert status([1.8, 2.7], at_least=3.0, at_most=5.0) == "fails"


def test_the_committed_cost_model_describes_the_code():
    """results/bench/cost-model.json: its config is the code's, the toy-size counts of every
    compared variant are re-traced and equal, every FLOP count equals FlopCounterMode's, ideal
    fusion never moves more bytes than eager, and at seed 000's size (AdamW, no Muon FLOPs) the
    vanilla step is nanoGPT's closed form (with the flash backward's recomputation, as above)."""
    from claims import _wallclock as lw
    model = lw.cost_model(check_code=True)
    for where in (model["proxy"], *model["papers"].values()):
        for v, c in where.items():
            assert c["flops"] == c["flop_counter_total"], v
            assert c["bytes_fused"] <= c["bytes_eager"], v
    s = lw.PAPER_STEPS["sympformer"]
    per_token = flops_per_token(meta_model(s.gpt_config(), "gd-lt")) + 2 * s.n_layer * s.block_size * s.n_embd
    assert model["papers"]["sympformer"]["gd-lt"]["flops"] == s.accumulation * s.batch_size * s.block_size * per_token
    val = lw.validation(model)
    assert math.isfinite(val["max_rel_error"]) and set(val["per_variant"]) >= {
        v for vs in lw.PAPER_VARIANTS.values() for v in vs} - {"gd-lt"}


# ---------------------------------------------------------------- measured steps and the GPU record

def test_measured_steps_are_accumulated_micro_batches_plus_one_update():
    """`measure_steps` on CPU at a toy size: per round, step = accumulation x micro + update
    (exactly: it is how the step time is assembled), the first variant's ratio to itself is 1 in
    every round, and an unknown variant is refused by name."""
    s = cm.StepSetting(2, 2, 16, 16, 256, batch_size=2, accumulation=5, optimizer="muon")
    r = bench.measure_steps(s, ["gd-lt", "tmm"], device="cpu", rounds=3, micro_repeat=1, progress=False)
    assert r["first"] == "gd-lt" and r["rounds"] == 3 and not r["compiled"]
    assert r["variants"]["gd-lt"]["ratio_to_first"]["median"] == 1.0
    for v in ("gd-lt", "tmm"):
        assert len(r["variants"][v]["step_seconds"]) == 3
        assert all(t > 0 for t in r["variants"][v]["step_seconds"])
    with pytest.raises(ValueError, match="no-such-variant"):
        bench.measure_steps(s, ["gd-lt", "no-such-variant"], device="cpu", rounds=1, progress=False)


def _fake_measurement(ratios, execution="compiled", paper="momentum_streams"):
    base = [1.0] * len(ratios)
    return {execution: {paper: {"device": "GPU", "torch": "x", "rounds": len(ratios), "variants": {
        "gd-lt": {"step_seconds": base}, "tmm": {"step_seconds": [r * b for r, b in zip(ratios, base)]}}}}}


def test_a_gpu_measurement_decides_only_with_a_95_percent_interval(monkeypatch):
    """decide_pair: the measurement under the paper's execution decides when its order-statistic
    interval has >= 95% coverage (6+ rounds); with 5 rounds (coverage 1 - 2^-4 = 0.9375) the band
    decides and the measured status is shown beside it; without a measurement, the band."""
    from claims import _gpu as lm_gpu
    from claims import _wallclock as lw
    band = [1.0, 1.5]  # straddles 1.10: undecided on its own
    monkeypatch.setattr(lm_gpu, "cuda_measurements", lambda: _fake_measurement([1.16, 1.17, 1.15, 1.16, 1.17, 1.16, 1.15]))
    row = lw.decide_pair("momentum_streams", "tmm", "gd-lt", band, None, 1.10)
    assert row["status"] == "fails" and row["decided_by"].startswith("measured: compiled")
    monkeypatch.setattr(lm_gpu, "cuda_measurements", lambda: _fake_measurement([1.16, 1.17, 1.15, 1.16, 1.17]))
    row = lw.decide_pair("momentum_streams", "tmm", "gd-lt", band, None, 1.10)
    assert row["status"] == "undecided" and row["measured_status"] == "fails"
    assert row["decided_by"].startswith("cost-model band")
    # an eager measurement does not decide a paper that times compiled steps
    monkeypatch.setattr(lm_gpu, "cuda_measurements", lambda: _fake_measurement([1.05] * 9, execution="eager"))
    row = lw.decide_pair("momentum_streams", "tmm", "gd-lt", [1.12, 1.3], None, 1.10)
    assert row["status"] == "fails" and "no compiled GPU measurement" in row["decided_by"]


def test_the_committed_gpu_measurement_matches_the_papers_settings():
    """results/bench/cuda-measurements.json (when committed): its config is the code's, every
    measured part is at the paper's setting, rounds are paired (every variant has one step time
    per round), and an excluded measurement is absent from its part."""
    from claims import _gpu, _wallclock as lw
    m = _gpu.cuda_measurements()
    if m is None:
        pytest.skip("no GPU measurement committed")
    for execution in lw.EXECUTIONS_MEASURED:
        for group, part in (m.get(execution) or {}).items():
            paper = group.partition("/")[0]   # a group measured beside the paper's part
            assert part["setting"] == lw.PAPER_STEPS[paper].as_dict()
            assert {len(v["step_seconds"]) for v in part["variants"].values()} == {part["rounds"]}
            assert set(part["variants"]) <= set(lw.PAPER_VARIANTS[paper])
    for where in m["provenance"]["excluded"]:
        part, paper, variant = where.split(":")
        assert variant not in m[{"wallclock": "eager", "wallclock-compiled": "compiled"}[part]][paper]["variants"]


def test_benchmarks_page_quotes_the_committed_gpu_measurement():
    """docs/benchmarks.md's GPU section is `figures.cost_model.summary_markdown` of the committed file."""
    from pathlib import Path

    from claims._gpu import cuda_measurements
    from figures.cost_model import summary_markdown
    m = cuda_measurements()
    if m is None:
        pytest.skip("no GPU measurement committed")
    page = (Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert summary_markdown(m) in page


def test_a_timing_reading_with_a_tolerance_the_text_does_not_give_is_shown_not_deciding():
    """momentum_streams:wall-clock: both referees call the 10% reading of 'comparable' invented
    (R3): it stays on the page, fails, and does not decide; the paper's own D.6 spread decides
    (undecided there). A tag naming no reading is an error of ours, not a silent no-op."""
    import claims
    from claims._ledger import NOT_ADMITTED
    from claims._wallclock import BAND, timing_evidence
    ev = claims.run(claims.load(["momentum_streams"])["momentum_streams:wall-clock"], "quick").evidence
    tenth, own = ev.readings
    assert tenth["not_admitted"] == NOT_ADMITTED["invented"] and tenth["verdict"] == "fails"
    assert "not_admitted" not in own and own["verdict"] == "inconclusive" and ev.verdict == "inconclusive"
    with pytest.raises(ValueError, match="not_admitted names no reading"):
        timing_evidence("quick", "momentum_streams", {"a": {}}, criterion=BAND, not_admitted={"b": "invented"})

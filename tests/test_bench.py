"""The benchmarks' plumbing (figures/_bench.py, bench-sinkhorn, bench-lm-peer, bench-pepit,
bench-ensemble):
ratio statistics, interleaving, the log-stabilized Sinkhorn updates, equal plans with POT, equal
worst cases with PEPit, committed measurements. No timing is asserted anywhere."""
import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import claims
from figures import Context, _bench
from figures import bench_ensemble, bench_lm_peer, bench_pepit, bench_sinkhorn
from particles import sinkhorn as sk
from particles.lm import bench
from theory import rates as R

F64 = torch.float64
BENCHES = {"bench-sinkhorn": bench_sinkhorn, "bench-lm-peer": bench_lm_peer, "bench-pepit": bench_pepit,
           "bench-ensemble": bench_ensemble}


# ---------------------------------------------------------------- ratio statistics, interleaving

@given(st.lists(st.floats(0.01, 100.0), min_size=1, max_size=40))
def test_ratio_summary_is_the_order_statistics_of_the_ratios(ratios):
    s = bench.ratio_summary(ratios)
    lo, hi, coverage = bench.median_interval(len(ratios))
    r = np.sort(ratios)
    assert s["median"] == pytest.approx(float(np.median(ratios)), rel=1e-15)
    assert (s["ci_lo"], s["ci_hi"], s["ci_coverage"], s["rounds"]) == (r[lo - 1], r[hi - 1], coverage, len(r))
    assert s["ci_lo"] <= s["median"] <= s["ci_hi"]


def test_ratio_summary_rejects_non_ratios():
    for bad in ([], [1.0, 0.0], [1.0, float("nan")], [[1.0]]):
        with pytest.raises(ValueError, match="ratios"):
            bench.ratio_summary(bad)


def test_time_interleaved_rotates_the_order_and_averages_repeats():
    calls, ticks = [], iter(range(10_000))
    # a fake clock advancing 1 per reading: each timed block reads it twice, so its value is exact
    seconds = bench.time_interleaved({k: (lambda k=k: calls.append(k)) for k in "abc"}, 4, repeat=2,
                                     clock=lambda: float(next(ticks)))
    assert calls == list("aabbcc" "bbccaa" "ccaabb" "aabbcc")
    assert seconds == {k: (0.5, 0.5, 0.5, 0.5) for k in "abc"}
    with pytest.raises(ValueError, match="rounds"):
        bench.time_interleaved({"a": lambda: None}, 0)
    with pytest.raises(TypeError, match="repeat"):
        bench.time_interleaved({"a": lambda: None}, 1, repeat=1.5)


# ---------------------------------------------------------------- Sinkhorn: scaling form, POT

def _definition(C, eps, v, log_w, over):
    """−ε log Σ exp((v − C)/ε + log w) over `over`, straight from the formula."""
    arg = (v.unsqueeze(-2) - C) / eps + log_w.unsqueeze(-2) if over == -1 else \
        (v.unsqueeze(-1) - C) / eps + log_w.unsqueeze(-1)
    return -eps * torch.logsumexp(arg, dim=over)


@pytest.mark.parametrize("eps", [1.0, 0.05, 1e-3])
def test_log_stabilized_updates_equal_the_logsumexp_definition(eps):
    """rows/cols in scaling form (scalings inside e^{±τ}) and after a log-domain fallback (a jump
    of the potential by 2τε) both equal the definition; the fallback absorbs the new pair."""
    g0 = torch.Generator().manual_seed(0)
    C = sk.pairwise_cost(torch.randn(30, 2, dtype=F64, generator=g0), torch.randn(20, 2, dtype=F64, generator=g0))
    w = torch.rand(20, dtype=F64, generator=g0) + 0.1
    log_b, log_a = torch.log(w / w.sum()), torch.full((30,), -math.log(30), dtype=F64)
    upd = sk._Updates(C, eps)
    g = torch.zeros(20, dtype=F64)
    f = upd.rows(g, log_b)                                  # first call: absorbs (0, g)
    # C/ε ≤ |x − y|²/(2ε) stays within τ ≈ 168 only for ε ≥ 0.05 here: the smallest ε falls back
    torch.testing.assert_close(f, _definition(C, eps, g, log_b, -1), rtol=1e-13, atol=1e-13 * eps)
    g = upd.cols(f, log_a)
    torch.testing.assert_close(g, _definition(C, eps, f, log_a, -2), rtol=1e-13, atol=1e-13 * eps)
    g_small = g + 0.3 * eps * torch.linspace(-1, 1, 20, dtype=F64)   # scaled path (|log v| ≤ 0.3)
    absorbed = upd.g_abs
    f = upd.rows(g_small, log_b)
    assert upd.g_abs is absorbed                            # no re-absorption: the matrix–vector path
    torch.testing.assert_close(f, _definition(C, eps, g_small, log_b, -1), rtol=1e-13, atol=1e-13 * eps)
    g_far = g + 2 * upd.tau * eps                           # outside e^{±τ}: log-domain fallback
    f = upd.rows(g_far, log_b)
    assert upd.g_abs is g_far
    torch.testing.assert_close(f, _definition(C, eps, g_far, log_b, -1), rtol=1e-13, atol=1e-13 * eps)


@pytest.mark.parametrize("eps", [0.1, 0.01])
def test_pot_iterates_the_same_sequence_and_stops_on_the_same_residual(eps):
    """POT given Cᵀ runs our iterates: stopped at our iteration count its plan is ours to rounding
    (1e-13 in ℓ1 for 60² entries summing to 1); at its own stop (first multiple of its check period
    at or after ours) it is within the bound 2|Δk|√N r of bench_sinkhorn's docstring."""
    pytest.importorskip("ot")
    C = bench_sinkhorn.cost(60)
    P, k, r = bench_sinkhorn.solvers(C, eps)[bench_sinkhorn.OURS]()
    assert r <= bench_sinkhorn.TOL
    at_our_k = bench_sinkhorn.solvers(C, eps, max_iter=k)
    for name, run in bench_sinkhorn.solvers(C, eps).items():
        if name == bench_sinkhorn.OURS:
            continue
        Pp, kp, rp = run()
        period = 20 if "stabilized" in name else 10
        assert kp >= k and (kp - 1) % period == 0 and rp <= bench_sinkhorn.TOL
        assert float((at_our_k[name]()[0] - P).abs().sum()) <= 1e-13
        check = bench_sinkhorn.same_plan(P, k, r, Pp, kp, rp, 60)
        assert check["same_plan"]


def test_same_plan_bound_fails_for_a_different_plan():
    P = torch.full((4, 4), 1 / 16, dtype=F64)
    Q = P.clone()
    Q[0, 0] += 1e-6
    Q[0, 1] -= 1e-6
    assert not bench_sinkhorn.same_plan(P, 10, 1e-9, Q, 11, 1e-9, 4)["same_plan"]   # 2e-6 > 4e-9
    assert bench_sinkhorn.same_plan(P, 10, 1e-9, Q, 1010, 1e-9, 4)["same_plan"]     # 2e-6 ≤ 4e-6


# ---------------------------------------------------------------- PEPit

@pytest.mark.parametrize("name", bench_pepit.METHODS)
def test_pepit_quadratic_worst_case_equals_the_filter_bound(name):
    """κ = 10, N = 2: PEPit's SDP (SCS, eps 1e-9) equals max_λ q_N(λ)² within the bench tolerance."""
    pytest.importorskip("PEPit")
    mu, L = 0.1, 1.0
    m = bench_pepit.method(name, mu, L)
    ours = bench_pepit.ours_quadratic(m, mu, L, 2)
    assert abs(bench_pepit.pepit("quadratic", m, mu, L, 2) - ours) <= bench_pepit.TOLERANCE * max(1, ours)


def test_pepit_full_class_gradient_descent_is_the_rate_power():
    pytest.importorskip("PEPit")
    mu, L = 0.01, 1.0
    ours = bench_pepit.ours_gd_full_class(mu, L, 1)
    assert ours == pytest.approx(((L - mu) / (L + mu)) ** 2, rel=1e-14)   # ρ = (κ − 1)/(κ + 1)
    value = bench_pepit.pepit("smooth-strongly-convex", R.gd_tuned(mu, L), mu, L, 1)
    assert abs(value - ours) <= bench_pepit.TOLERANCE


# ---------------------------------------------------------------- the LM peer model

def test_reference_model_matches_the_vanilla_backbone():
    """Same width, depth, heads, MLP ratio 4, pre-norm, GELU, no biases, parameter count."""
    from particles.lm.model import GPT
    cfg = bench.bench_settings("quick")["config"]
    ref = bench.ReferenceGPT(cfg.vocab_size, cfg.block_size, cfg.n_layer, cfg.n_head, cfg.n_embd)
    assert bench.parameter_count(ref) == bench.parameter_count(GPT(cfg, bench.BASELINE))
    assert len(ref.blocks.layers) == cfg.n_layer
    for layer in ref.blocks.layers:
        assert layer.norm_first and layer.activation is torch.nn.functional.gelu
        assert layer.self_attn.num_heads == cfg.n_head and layer.linear1.out_features == 4 * cfg.n_embd
    assert not any(name.endswith("bias") for name, _ in ref.named_parameters())


def test_bench_pools_the_rounds_of_every_seed_and_builds_each_seed_alike(monkeypatch):
    """bench(seeds=...) builds every model from each seed (the same init for all models of that
    seed), times `rounds` rounds per seed, and pools them: `rounds × seeds` paired ratios, each
    seed's own median beside the pooled one. The clock is replaced by a per-call counter so the
    pooled ratios are known exactly: model 'b' costs 2 units per call, 'a' 1."""
    built = []

    class Tiny(torch.nn.Module):
        def __init__(self, cost):
            super().__init__()
            self.w = torch.nn.Parameter(torch.randn(3))
            self.cost = cost
            built.append(float(self.w[0]))

        def forward(self, idx):
            return self.w.expand(*idx.shape, 3)

    seen = []

    def fake_time_training(models, idx, targets, *, rounds, steps, warmup):
        seen.append(idx.tolist())
        return {n: bench.Timing(n, tuple(float(m.cost) * (1 + r) for r in range(rounds)), idx.numel())
                for n, m in models.items()}

    monkeypatch.setattr(bench, "time_training", fake_time_training)
    out = bench.bench({"a": lambda: Tiny(1), "b": lambda: Tiny(2)}, baseline="a", vocab_size=3,
                      batch_size=2, block_size=8, rounds=3, steps=1, seeds=(5, 6))
    assert out["seeds"] == [5, 6] and out["rounds"] == 6 and out["rounds_per_seed"] == 3
    assert built[0] == built[1] and built[2] == built[3] and built[0] != built[2]  # per-seed inits
    assert seen[0] != seen[1]  # each seed its own batch
    ratio = out["models"]["b"]["ratio_to_baseline"]
    assert ratio["rounds"] == 6 and ratio["median"] == 2.0
    assert out["models"]["b"]["median_ratio_per_seed"] == {"5": 2.0, "6": 2.0}
    assert out["models"]["b"]["step_seconds"] == [2.0, 4.0, 6.0, 2.0, 4.0, 6.0]
    for bad in ((), (1, 1)):
        with pytest.raises(ValueError, match="seeds"):
            bench.bench({"a": lambda: Tiny(1)}, baseline="a", vocab_size=3, batch_size=2,
                        block_size=4, rounds=1, steps=1, seeds=bad)


@pytest.mark.parametrize("variant", [bench.BASELINE, "nesterov-lt"])
def test_ensemble_step_is_each_models_own_adamw_step(variant):
    """The torch.func ensemble (stacked parameters, vmapped gradients, one AdamW) takes exactly the
    step each model takes alone on its own batch. float64: the vmapped reductions differ from the
    per-model ones by rounding (~1e-16 relative); AdamW's first step g/(|g| + 1e-8) amplifies a
    gradient error by at most 1e8, times lr = 1e-4: parameter differences stay below 1e-10."""
    from particles.lm.model import GPT
    cfg = bench.ensemble_settings("quick")["toy"]["config"]
    models = []
    for seed in range(2):
        torch.manual_seed(seed)
        models.append(GPT(cfg, variant).double())
    batches = [bench.fixed_batch(cfg.vocab_size, 3, cfg.block_size, seed=seed) for seed in range(2)]
    ensemble = bench.Ensemble(models)
    ensemble.step(*(torch.stack(t) for t in zip(*batches)))
    moved = 0
    for i, (m, (x, y)) in enumerate(zip(models, batches)):
        before = {n: p.detach().clone() for n, p in m.named_parameters()}
        opt = torch.optim.AdamW(m.parameters(), lr=1e-4)
        bench.logits_cross_entropy(m, x, y).backward()
        opt.step()
        for name, p in m.named_parameters():
            torch.testing.assert_close(ensemble.params[name][i], p.detach(), rtol=0, atol=1e-10)
            moved += not torch.equal(p.detach(), before[name])
    assert moved == 2 * len(before)  # every parameter of both models took a step


def test_momentum_variants_carry_a_velocity_stream():
    names = bench_lm_peer.momentum_variants()
    assert {"hb", "tmm", "yurii", "nesterov-lt", "polyak-lt"} <= set(names)
    assert bench.BASELINE not in names and not any("linear" in n for n in names)


# ---------------------------------------------------------------- committed measurements

@pytest.fixture
def results(tmp_path, monkeypatch):
    from claims import _committed
    monkeypatch.setattr(_committed, "RESULTS", tmp_path / "results")
    return tmp_path


def test_measured_reads_commits_and_names_stale_fields(results, monkeypatch):
    ctx = Context(out=results / "out", budget="full", name="bench-x")
    calls = []

    def measure(budget):
        calls.append(budget)
        return {"config": {"n": [1, 2], "budget": budget}, "provenance": {}, "value": len(calls)}

    with pytest.raises(FileNotFoundError, match="--recompute"):
        _bench.measured(ctx, lambda b: {"n": [1, 2], "budget": b}, measure)
    monkeypatch.setattr(claims.settings, "recompute", True)
    assert _bench.measured(ctx, lambda b: {"n": [1, 2], "budget": b}, measure)["value"] == 1
    monkeypatch.setattr(claims.settings, "recompute", False)
    assert _bench.measured(ctx, lambda b: {"n": [1, 2], "budget": b}, measure)["value"] == 1  # read back
    with pytest.raises(_bench.StaleResult, match=r"\['n'\]"):
        _bench.measured(ctx, lambda b: {"n": [1, 3], "budget": b}, measure)
    quick = Context(out=results / "out", budget="quick", name="bench-x")
    assert _bench.measured(quick, lambda b: {}, measure)["value"] == 2 and calls == ["full", "quick"]
    assert json.loads(_bench.committed_path("bench-x").read_text())["config"]["budget"] == "full"


@pytest.mark.parametrize("name", sorted(BENCHES))
def test_committed_measurement_is_current_and_draws(name, tmp_path):
    """Each bench figure has a committed full-budget measurement whose config is the code's, with
    its provenance, and draws from it without measuring."""
    module = BENCHES[name]
    result = _bench.read_committed(name, module.config("full"))
    prov = result["provenance"]
    assert prov["threads"] == _bench.THREADS == 1 and prov["commit"] != "unknown"
    assert {"torch", "numpy", "cpu", "packages"} <= set(prov)
    ctx = Context(out=tmp_path, budget="full", name=name)
    module.draw_from(ctx, result)
    assert (tmp_path / f"{name}.png").stat().st_size > 0
    assert json.loads((tmp_path / f"{name}.json").read_text())["config"] == result["config"]


@pytest.mark.parametrize("name", sorted(BENCHES))
def test_benchmarks_page_quotes_the_committed_measurement(name):
    """docs/benchmarks.md carries each bench's summary as generated from its committed result."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    module = BENCHES[name]
    assert module.summary_markdown(_bench.read_committed(name, module.config("full"))) in page

"""bench-sinkhorn's new plumbing (figures/bench_sinkhorn.py): GeomLoss stopped at equal tolerance,
residuals verified with and without the N×N cost, peak memory, and the core install (no POT, no
GeomLoss: ours alone, with the reason). No timing is asserted."""
import sys

import pytest
import torch

from figures import Context, bench_sinkhorn as bs
from particles import sinkhorn as sk


def test_chunked_residual_equals_the_dense_one():
    """The residual evaluated chunk by chunk (no N×M cost) is the dense plan's, for an unconverged
    pair (both marginals off) and a converged one; rounding of N·M ≈ 5000 terms summing to 1."""
    x, y = bs.points(70)
    f, g, _ = sk.sinkhorn_points(x, y, 0.05, max_iter=3, raise_on_fail=False)
    C = sk.pairwise_cost(x, y)
    for pair in ((f, g + 0.01 * torch.linspace(0, 1, 70, dtype=torch.float64)),
                 sk.sinkhorn_points(x, y, 0.05, tol=1e-12)[:2]):
        assert bs.chunked_residual(x, y, 0.05, *pair) == pytest.approx(bs.plan_residual(C, 0.05, *pair),
                                                                      rel=1e-8, abs=1e-15)


@pytest.mark.parametrize("eps", [0.1, 0.02])
def test_geomloss_stops_at_the_first_iteration_count_that_meets_tol(eps):
    """The oracle stop: GeomLoss run for n_iter = the returned count meets the tolerance (checked on
    its actual output, final extrapolation included), one iteration fewer does not."""
    pytest.importorskip("geomloss")
    x, y = bs.points(50)
    C = sk.pairwise_cost(x, y)
    n = bs.geomloss_iterations(x, y, eps)
    f, g, updates = bs.geomloss(x, y, eps, n)()
    assert updates == n + 1
    assert bs.plan_residual(C, eps, f, g) <= bs.TOL
    assert bs.plan_residual(C, eps, *bs.geomloss(x, y, eps, n - 1)()[:2]) > bs.TOL
    f0, g0, _ = sk.sinkhorn_points(x, y, eps, tol=1e-13)
    # the same entropic problem: GeomLoss's |x − y|² at 2ε is ours at ε (plans within 1e-6 in ℓ1
    # at residual 1e-9 on 50 points; a wrong ε convention moves the plan by O(1))
    assert float((torch.exp(sk.log_plan(C, eps, f, g)) - torch.exp(sk.log_plan(C, eps, f0, g0))).abs().sum()) < 1e-6


def test_peak_rss_sees_an_allocation():
    """A 200 MB tensor touched inside the call raises the high-water mark by about that much."""
    if not sys.platform.startswith("linux"):
        pytest.skip("/proc/self/clear_refs is Linux-only")
    size = 200 * 2 ** 20

    def allocate():
        t = torch.ones(size // 8, dtype=torch.float64)
        return float(t[-1])

    out, memory = bs.peak_rss(allocate)
    assert out == 1.0
    assert 0.95 * size <= memory["peak_rss_increase_bytes"] <= 1.5 * size
    assert memory["peak_rss_bytes"] >= memory["peak_rss_increase_bytes"]
    _, small = bs.peak_rss(lambda: None)
    assert small["peak_rss_increase_bytes"] < 0.05 * size


def test_core_install_draws_ours_alone_and_says_why(monkeypatch, tmp_path):
    """Without POT and GeomLoss (import fails) the bench measures ours (the entry point, dense and online), skips
    the peers with the reason, and draws and summarizes without error."""
    monkeypatch.setitem(sys.modules, "ot", None)          # `import ot` raises ImportError
    monkeypatch.setitem(sys.modules, "geomloss", None)
    monkeypatch.setitem(bs.SETTINGS, "quick", {"cases": [[40, 0.1]], "rounds": 2, "online_only": [[80, 0.1]]})
    result = bs.measure("quick")
    assert set(result["rows"][0]["solvers"]) == {bs.ENTRY, bs.OURS, bs.ONLINE}
    assert result["rows"][0]["entry_choice"] == result["rows"][0]["solvers"][bs.ENTRY]["solver"] == "dense"
    assert set(result["summary"]["skipped"]) == {"POT", "GeomLoss"}
    assert all("not installed" in why for why in result["summary"]["skipped"].values())
    assert result["summary"]["all_meet_tol"] and result["summary"][bs.ONLINE]["at_most_half_of_pot_sinkhorn_log"] is None
    bs.draw_from(Context(out=tmp_path, budget="quick", name="bench-sinkhorn"), result)
    assert (tmp_path / "bench-sinkhorn.png").stat().st_size > 0
    assert "Not measured: POT not installed" in bs.summary_markdown(result)


def test_a_geomloss_loop_left_early_leaves_autograd_on():
    """GeomLoss's loop turns autograd off until its end; stopping it at the first iteration that
    meets the tolerance must not leave the process without gradients (it broke later tests)."""
    import pytest
    pytest.importorskip("geomloss")
    import torch
    from figures.bench_sinkhorn import geomloss_iterations
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(40, 2, generator=g, dtype=torch.float64), torch.randn(40, 2, generator=g, dtype=torch.float64)
    assert torch.is_grad_enabled()
    geomloss_iterations(x, y, 0.1)
    assert torch.is_grad_enabled()

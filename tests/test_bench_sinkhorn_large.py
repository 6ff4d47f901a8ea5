"""bench-sinkhorn-large's plumbing (figures/bench_sinkhorn_large.py): POT's lazy solver in our
convention, its resumable calls equal to one uninterrupted call, the saved state validated on load,
and the figure drawn with and without a committed measurement. No timing is asserted."""
import pytest
import torch

from figures import Context, bench_sinkhorn as bs, bench_sinkhorn_large as large
from particles import sinkhorn as sk

pytest.importorskip("ot")


@pytest.mark.parametrize("eps", [0.1, 0.03])
def test_pot_lazy_returns_our_potentials_of_the_same_plan(eps):
    """POT's |x − y|² at 2ε is our ½|x − y|² at ε: after the convention change f = ε(f̂ + log N) its
    potentials meet our tolerance on our residual and give our plan (ℓ1 within 1e-6 at residual
    1e-9 on 60 points; the wrong ε or the missing log N moves it by O(1))."""
    x, y = bs.points(60)
    f, g, k = bs.pot_lazy(x, y, eps)()
    C = sk.pairwise_cost(x, y)
    assert k % large.POT_TEST_PERIOD == 0 and bs.plan_residual(C, eps, f, g) <= bs.TOL
    f0, g0, _ = sk.sinkhorn_points(x, y, eps, tol=1e-13)
    assert float((torch.exp(sk.log_plan(C, eps, f, g)) - torch.exp(sk.log_plan(C, eps, f0, g0))).abs().sum()) < 1e-6


def test_resumed_calls_are_one_uninterrupted_call(tmp_path):
    """Calls of 10 iterations warm-started from the saved potentials give POT's one-call iterates
    exactly (the same floating-point operations), the same iteration count, and a rerun resumes
    from the saved state without iterating again."""
    x, y = bs.points(80)
    f1, g1, k1 = bs.pot_lazy(x, y, 0.05)()
    out = large.pot_lazy_resumable(x, y, 0.05, tmp_path)
    assert out["converged"] and out["iterations"] == k1 and len(out["calls"]) == k1 // large.POT_TEST_PERIOD >= 2
    assert torch.equal(out["f"], f1) and torch.equal(out["g"], g1)
    again = large.pot_lazy_resumable(x, y, 0.05, tmp_path)
    assert again["calls"] == out["calls"] and torch.equal(again["f"], f1)


def test_a_saved_state_of_another_problem_or_a_torn_file_is_not_resumed(tmp_path):
    """The state is validated on load: a file for other points, or an unreadable one, restarts the
    solve (and the solve still converges to the same answer)."""
    x, y = bs.points(80)
    reference = large.pot_lazy_resumable(x, y, 0.05, tmp_path / "ref")
    path = tmp_path / "pot-lazy-n80-eps0.05.pt"
    other = {**torch.load(tmp_path / "ref" / path.name, weights_only=True)}
    other["fingerprint"] = {**other["fingerprint"], "points_sha256": "0" * 64}
    torch.save(other, path)
    assert large._load_state(path, large._fingerprint(x, y, 0.05)) is None
    path.write_bytes(b"torn")
    assert large._load_state(path, large._fingerprint(x, y, 0.05)) is None
    out = large.pot_lazy_resumable(x, y, 0.05, tmp_path)
    assert out["iterations"] == reference["iterations"] and torch.equal(out["f"], reference["f"])


def test_a_second_process_cannot_resume_the_same_solve(tmp_path):
    """One process at a time: a live lock holder (this test's own pid) makes a second caller raise."""
    import os
    x, y = bs.points(20)
    (tmp_path / "pot-lazy-n20-eps0.1.lock").write_text(str(os.getpid()))
    with pytest.raises(RuntimeError, match="another process"):
        large.pot_lazy_resumable(x, y, 0.1, tmp_path)


def test_quick_measurement_and_the_pending_figure(monkeypatch, tmp_path):
    """The quick budget measures both solvers (each meets the tolerance, the ratio is recorded) and
    draws; without a committed measurement the full budget draws the pending notice instead of failing."""
    monkeypatch.setattr(large, "STATE", tmp_path / "state")
    monkeypatch.setitem(large.SETTINGS, "quick", {"cases": [[60, 0.1]]})
    result = large.measure("quick")
    row = result["rows"][0]
    keops = large.keops_missing() is None
    assert set(row["solvers"]) == {bs.ONLINE, bs.POT_LAZY} | ({bs.GEOMLOSS_ONLINE} if keops else set())
    assert result["summary"]["all_meet_tol"] and row["ours_online_over_pot_lazy"] > 0
    assert bs.GEOMLOSS in row["skipped"] and (keops or bs.GEOMLOSS_ONLINE in row["skipped"])
    large.draw_from(Context(out=tmp_path, budget="quick", name="bench-sinkhorn-large"), result)
    assert (tmp_path / "bench-sinkhorn-large.png").stat().st_size > 0
    monkeypatch.setattr(large._bench, "committed_path", lambda name: tmp_path / "absent.json")
    monkeypatch.setattr(large._bench, "read_committed", lambda name, cfg: (_ for _ in ()).throw(
        FileNotFoundError("committed benchmark absent.json is missing")))
    ctx = Context(out=tmp_path / "full", budget="full", name="bench-sinkhorn-large")
    large.draw(ctx)
    assert (tmp_path / "full" / "bench-sinkhorn-large.png").stat().st_size > 0


def test_the_full_budget_reads_prepared_peers_and_names_what_is_pending(monkeypatch, tmp_path):
    """At the full budget the figure never runs the peers' hours-long solves: before they are
    prepared it times ours alone and lists each peer as pending with the command that continues
    it (and draws); after `prepare` (here on a toy case) it reads them, ratios and all."""
    monkeypatch.setattr(large, "STATE", tmp_path / "state")
    monkeypatch.setitem(large.SETTINGS, "full", {"cases": [[60, 0.1]]})
    monkeypatch.setattr(large, "pot_lazy_resumable", _refuse(large.pot_lazy_resumable))
    monkeypatch.setattr(large, "geomloss_online_cached", _refuse(large.geomloss_online_cached))
    keops = large.keops_missing() is None
    before = large.measure("full")
    row = before["rows"][0]
    assert set(row["solvers"]) == {bs.ONLINE} and not before["summary"]["complete"]
    assert set(row["pending"]) == {bs.POT_LAZY} | ({bs.GEOMLOSS_ONLINE} if keops else set())
    assert "nothing saved" in row["pending"][bs.POT_LAZY] and large.PREPARE[bs.POT_LAZY] in row["pending"][bs.POT_LAZY]
    large.draw_from(Context(out=tmp_path, budget="full", name="bench-sinkhorn-large"), before)
    monkeypatch.undo()
    monkeypatch.setattr(large, "STATE", tmp_path / "state")
    monkeypatch.setitem(large.SETTINGS, "full", {"cases": [[60, 0.1]]})
    large.prepare("pot")
    if keops:
        large.prepare("geomloss")
    monkeypatch.setattr(large, "pot_lazy_resumable", _refuse(large.pot_lazy_resumable))
    after = large.measure("full")
    row = after["rows"][0]
    assert after["summary"]["complete"] and not row["pending"] and row["ours_online_over_pot_lazy"] > 0
    assert keops == ("ours_online_over_geomloss_online" in row)


def _refuse(fn):
    def refuse(*args, **kwargs):
        raise AssertionError(f"{fn.__name__} ran inside the full budget's measurement")
    return refuse


@pytest.mark.parametrize("eps", [0.1, 0.03])
def test_geomloss_online_timed_stops_where_the_oracle_does(eps):
    """One run, checks every 8th iterate and the ones between on demand: the same first iterate
    that meets tol as bench_sinkhorn's oracle (which checks every one), for every check spacing;
    its output meets tol, the iterate before does not; the time excludes the checks."""
    pytest.importorskip("pykeops")
    x, y = bs.points(60)
    n = bs.geomloss_iterations(x, y, eps, matrix_type="lazy")
    for every in (1, 3, 8):
        out = large.geomloss_online_timed(x, y, eps, check_every=every)
        assert out["n_iter"] == n and out["updates"] == n + 1
        assert bs.chunked_residual(x, y, eps, out["f"], out["g"]) <= bs.TOL
        assert 0 < out["seconds"] <= out["run_seconds"] - out["check_seconds"] + 1e-9
    f, g, _ = bs.geomloss(x, y, eps, n - 1, matrix_type="lazy")()
    assert bs.chunked_residual(x, y, eps, f, g) > bs.TOL


def test_geomloss_online_result_is_saved_and_reused(tmp_path, monkeypatch):
    """The hour-long run happens once per problem: a second call loads the saved result (the timed
    function is not called again), and a saved result of other points is not reused."""
    pytest.importorskip("pykeops")
    x, y = bs.points(40)
    first = large.geomloss_online_cached(x, y, 0.1, tmp_path)
    monkeypatch.setattr(large, "geomloss_online_timed", lambda *a, **k: pytest.fail("recomputed"))
    again = large.geomloss_online_cached(x, y, 0.1, tmp_path)
    assert again["n_iter"] == first["n_iter"] and torch.equal(again["f"], first["f"])
    with pytest.raises(pytest.fail.Exception):
        large.geomloss_online_cached(*bs.points(40, seed=3), 0.1, tmp_path)

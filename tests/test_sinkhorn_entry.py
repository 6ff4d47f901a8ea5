"""`sinkhorn_points`, the entry point a user calls (particles/sinkhorn.py): its two evaluations
(dense on the N×M cost, online chunk by chunk) run the same iterates, the memory rule of
`choose_solver` picks dense below the budget and online above it, the report names the choice,
and bad input raises ValueError naming the parameter. float64 throughout."""
import math
import sys

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles import sinkhorn as sk
from theory import gaussian_ot as go

F64 = torch.float64
EPS_MACH = torch.finfo(F64).eps


def cloud(seed, shape, scale=1.0, shift=0.0, dtype=F64):
    return shift + scale * torch.randn(*shape, dtype=dtype, generator=torch.Generator().manual_seed(seed))


def dirichlet(seed, shape):
    w = torch.rand(*shape, dtype=F64, generator=torch.Generator().manual_seed(seed)) + 0.1
    return w / w.sum(-1, keepdim=True)


def rounding_scale(x, y, f, g, eps, cost):
    """Potential units of the exponents' rounding (as tests/test_sinkhorn_online.py): κ·R² (R the
    largest distance to the clouds' common mean) + the potentials + ε·log of the sums."""
    both = torch.cat([x, y], dim=-2)
    R2 = float((both - both.mean(dim=-2, keepdim=True)).square().sum(-1).max())
    n = max(x.shape[-2], y.shape[-2])
    return go.cost_kappa(cost) * R2 + float(torch.cat([f.abs(), g.abs()], -1).max()) + eps * (1 + math.log(n))


# ---------------------------------------------------------------- the two paths agree


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.sampled_from([1, 2, 3]), st.floats(0.05, 5.0),
       st.sampled_from([(), (2,)]), st.sampled_from([None, 1, 7]), st.sampled_from(sorted(go.COSTS)),
       st.sampled_from([None, 0.5]), st.integers(0, 10 ** 6))
def test_dense_and_online_paths_give_the_same_iterates_and_plan(n, m, d, eps, batch, chunk, cost, q, seed):
    """solver="dense" and solver="online" run the same updates from the same start with the same
    stopping rule: the same iteration count, potentials within 4·(k + 1)·ε_mach·scale (each update
    is a softmin, 1-Lipschitz in the sup norm, so the per-update rounding of the exponents adds up
    at most linearly in the k iterations), and plans within ℓ1 distance (e^{2δ/ε} − 1)·B, δ that
    potential bound (log π moves by at most 2δ/ε per entry; the plan has mass 1 per batch entry)."""
    x, y = cloud(seed, batch + (n, d), scale=0.5), cloud(seed + 1, batch + (m, d), scale=0.5, shift=0.3)
    a, b = dirichlet(seed, batch + (n,)), dirichlet(seed + 2, batch + (m,))
    kw = dict(cost=cost, tol=1e-11, max_iter=50_000, eps_scaling=q)
    f0, g0, r0 = sk.sinkhorn_points(x, y, eps, a, b, solver="dense", **kw)
    f1, g1, r1 = sk.sinkhorn_points(x, y, eps, a, b, solver="online", chunk=chunk, **kw)
    assert (r0.solver, r1.solver) == ("dense", "online")
    assert r0.converged and r1.converged and r1.iterations == r0.iterations and r1.annealing == r0.annealing
    delta = 4 * (r0.iterations + 1) * EPS_MACH * rounding_scale(x, y, f0, g0, eps, cost)
    assert float((f1 - f0).abs().max()) <= delta and float((g1 - g0).abs().max()) <= delta
    C = sk.pairwise_cost(x, y, cost)
    P0, P1 = (torch.exp(sk.log_plan(C, eps, f, g, a, b)) for f, g in ((f0, g0), (f1, g1)))
    batch_size = math.prod(batch)
    assert float((P1 - P0).abs().sum()) <= math.expm1(2 * delta / eps) * batch_size + 1e-15 * n * m


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 30), st.integers(2, 30), st.floats(0.1, 2.0), st.integers(0, 10 ** 6))
def test_the_dense_path_is_sinkhorn_log_on_the_cost(n, m, eps, seed):
    """Without ε-scaling the dense path is `sinkhorn_log(pairwise_cost(x, y))`: the same updates on
    the same matrix, so the same numbers bit for bit."""
    x, y = cloud(seed, (n, 2), scale=0.5), cloud(seed + 1, (m, 2), scale=0.5)
    f0, g0, r0 = sk.sinkhorn_log(sk.pairwise_cost(x, y), eps, tol=1e-10, max_iter=50_000)
    f1, g1, r1 = sk.sinkhorn_points(x, y, eps, tol=1e-10, max_iter=50_000, solver="dense")
    assert torch.equal(f0, f1) and torch.equal(g0, g1) and r0.iterations == r1.iterations
    assert r0.solver == "dense" and "cost matrix is given" in r0.solver_reason


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3) | st.just(-math.inf), min_size=1, max_size=12),
       st.integers(1, 5), st.sampled_from([-1, -2]))
def test_in_place_logsumexp_is_torch_logsumexp(values, rows, dim):
    """The dense path's log-domain workspace is reduced in place by the operations of
    torch.logsumexp: the same numbers bit for bit, −inf entries (zero weights) included."""
    E = torch.tensor(values, dtype=F64).repeat(rows, 1) + torch.arange(rows, dtype=F64).unsqueeze(-1)
    expected = torch.logsumexp(E, dim=dim)
    assert torch.equal(sk._logsumexp_(E.clone(), dim), expected)


# ---------------------------------------------------------------- the choice and its report


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.sampled_from([(), (3,), (2, 2)]),
       st.sampled_from([torch.float64, torch.float32]))
def test_choice_is_dense_at_or_below_the_budget_and_online_above(n, m, batch, dtype):
    """The rule: dense iff DENSE_MATRICES·B·N·M·itemsize ≤ memory_budget. A budget of exactly that
    many bytes solves densely, one byte less online; the report says which and why."""
    x, y = cloud(0, batch + (n, 2), dtype=dtype), cloud(1, batch + (m, 2), dtype=dtype)
    need = sk.dense_bytes(x, y)
    assert need == sk.DENSE_MATRICES * math.prod(batch) * n * m * x.element_size()
    for budget, solver, sign in ((need, "dense", "<="), (need - 1, "online", ">")):
        if budget <= 0:
            continue
        choice, reason = sk.choose_solver(x, y, memory_budget=budget)
        assert choice == solver and sign in reason and "memory_budget" in reason
        f, g, report = sk.sinkhorn_points(x, y, 0.5, tol=1e-6 if dtype == F64 else 1e-4, memory_budget=budget)
        assert (report.solver, report.solver_reason) == (choice, reason)
        assert torch.isfinite(f).all() and torch.isfinite(g).all() and report.converged


def test_default_budget_is_one_gib_dense_up_to_n_6688_in_float64():
    """DENSE_BUDGET = 1 GiB, three float64 N×N matrices: N = 6688 fits (1023.8 MiB), 6689 does not;
    a batch of two halves the N·M that fits (N = 4729). (choose_solver reads only the shapes.)"""
    assert sk.DENSE_BUDGET == 2 ** 30 and sk.DENSE_MATRICES == 3
    pts = lambda *shape: torch.zeros(*shape, dtype=F64)  # noqa: E731
    assert sk.choose_solver(pts(6688, 2), pts(6688, 2))[0] == "dense"
    assert sk.choose_solver(pts(6689, 2), pts(6689, 2))[0] == "online"
    assert sk.choose_solver(pts(2, 4729, 2), pts(2, 4729, 2))[0] == "dense"
    assert sk.choose_solver(pts(2, 4730, 2), pts(2, 4730, 2))[0] == "online"
    assert sk.choose_solver(pts(10 ** 5, 2), pts(10 ** 5, 2))[0] == "online"


def test_forced_solvers_and_chunk_are_obeyed_and_reported():
    x, y = cloud(0, (20, 2)), cloud(1, (15, 2))
    for solver in ("dense", "online"):
        report = sk.sinkhorn_points(x, y, 0.2, solver=solver, memory_budget=1)[2]
        assert report.solver == solver and repr(solver) in report.solver_reason
    report = sk.sinkhorn_points(x, y, 0.2, chunk=4)[2]      # a block size asks for the chunked evaluation
    assert report.solver == "online" and "chunk=4" in report.solver_reason
    assert sk.sinkhorn_points(x, y, 0.2)[2].solver == "dense"   # 20·15 entries: far below 1 GiB
    with pytest.raises(ValueError, match="chunk"):
        sk.sinkhorn_points(x, y, 0.2, solver="dense", chunk=4)
    # the other solvers report theirs too
    assert sk.schrodinger_bridge(x, 0.2).report.solver == "dense"
    assert sk.schrodinger_bridge(x, 0.2, chunk=3).report.solver == "online"
    with pytest.raises(sk.SinkhornNotConverged, match=r"Sinkhorn \(online\)"):
        sk.sinkhorn_points(x, y, 0.01, max_iter=2, memory_budget=1)


def test_dense_path_stays_within_its_stated_memory():
    """The peak resident-set growth of a dense solve (the cost built inside the call, a log-domain
    update forced by a starting potential ε·10³ above the fixed point) is at most dense_bytes:
    DENSE_MATRICES N×M matrices (measured: 3.00 with the log-domain update, 2 without), plus N-independent
    library buffers (BLAS workspace, allocated by a first call: a small solve runs before, and 8 MB
    are allowed). N = 2600: 54 MB matrices, above glibc's largest mmap threshold (32 MB), so each is
    mapped and unmapped and the high-water mark sees it."""
    if not sys.platform.startswith("linux"):
        pytest.skip("/proc/self/clear_refs is Linux-only")
    from figures.bench_sinkhorn import peak_rss
    n = 2600
    x, y = cloud(0, (n, 2)), cloud(1, (n, 2))
    fallbacks = []
    log_domain = sk._Updates._log_domain

    def counted(self, *args):
        fallbacks.append(1)
        return log_domain(self, *args)

    sk.sinkhorn_points(x[:300], y[:300], 0.1, f=torch.full((300,), 100.0, dtype=F64), max_iter=5,
                       raise_on_fail=False)   # the libraries' one-time buffers
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sk._Updates, "_log_domain", counted)
        (f, g, report), memory = peak_rss(lambda: sk.sinkhorn_points(
            x, y, 0.1, f=torch.full((n,), 100.0, dtype=F64), max_iter=5, raise_on_fail=False))
    assert report.solver == "dense" and fallbacks
    assert memory["peak_rss_increase_bytes"] <= sk.dense_bytes(x, y) + 8 * 2 ** 20


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("solver", ["auto", "dense", "online"])
def test_bad_input_raises_value_error_naming_the_parameter(solver):
    x, y = cloud(0, (5, 2)), cloud(1, (4, 2))

    def call(*args, **kw):
        return sk.sinkhorn_points(*args, solver=kw.pop("solver", solver), **kw)

    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="eps"):
            call(x, y, bad)
    nan = x.clone()
    nan[1, 0] = float("nan")
    with pytest.raises(ValueError, match="x contains NaN"):
        call(nan, y, 0.1)
    with pytest.raises(ValueError, match="y contains NaN"):
        call(x, torch.full_like(y, float("nan")), 0.1)
    with pytest.raises(ValueError, match="x must have shape"):
        call(x[0], y, 0.1)
    with pytest.raises(ValueError, match="y must have the batch shape and dimension"):
        call(x, cloud(1, (4, 3)), 0.1)
    with pytest.raises(ValueError, match="y must have the batch shape and dimension"):
        call(x, cloud(1, (2, 4, 2)), 0.1)
    with pytest.raises(ValueError, match="y must have the dtype"):
        call(x, y.float(), 0.1)
    with pytest.raises(ValueError, match="a must have last dimension 5"):
        call(x, y, 0.1, a=torch.full((4,), 0.25, dtype=F64))
    with pytest.raises(ValueError, match="b must be finite"):
        call(x, y, 0.1, b=torch.tensor([0.5, float("nan"), 0.25, 0.25], dtype=F64))
    with pytest.raises(ValueError, match="g must have shape"):
        call(x, y, 0.1, g=torch.zeros(5, dtype=F64))
    with pytest.raises(ValueError, match="f contains NaN"):
        call(x, y, 0.1, f=torch.full((5,), float("nan"), dtype=F64))
    with pytest.raises(ValueError, match="tol"):
        call(x, y, 0.1, tol=-1e-9)
    with pytest.raises(ValueError, match="cost"):
        call(x, y, 0.1, cost="l1")
    for bad in (0, -5, float("nan")):
        with pytest.raises(ValueError, match="memory_budget"):
            call(x, y, 0.1, memory_budget=bad)
    for bad in ("fast", "Dense", None):
        with pytest.raises(ValueError, match="solver"):
            call(x, y, 0.1, solver=bad)

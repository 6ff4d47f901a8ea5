"""Log-domain Sinkhorn, same-marginal Schrödinger bridges, and the particle updates of seed 003
(Agarwal, Mulcahy, Pal, Harchaoui, "Heat flow through pretrained transformer", slides on
[AHMP24] and the Sinkformers of [SABP22]).

Objects (for a cloud x ∈ R^{N×d} with weights a, batched over leading axes):

* `sinkhorn_log`: the entropic plan π_ij = a_i b_j exp((f_i + g_j − C_ij)/ε) with marginals a, b,
  by alternating row/column normalization in the log domain (seed 003, slide "Sinkformer
  Self-Attention Mechanism": K^{ℓ+1} = N_R(K^ℓ) for even ℓ, N_C(K^ℓ) for odd ℓ, K⁰ = exp(C)),
  optionally after ε-scaling (one iteration at each of ε₀, ε₀q, … above the target).
* `sinkhorn_points`: the same solver for C_ij = κ|x_i − y_j|² on point clouds, the entry point a
  user calls. It chooses its evaluation by memory (`choose_solver`): dense (`sinkhorn_log`'s updates
  on the N×M cost) when DENSE_MATRICES N×M matrices fit `memory_budget` (default DENSE_BUDGET =
  1 GiB), else online, the cost never formed: an online logsumexp over chunks of rows
  (`particles.sinkhorn_online`), O(N + M) memory, which reaches N = 10⁵ (seed 003, slide "Sinkhorn
  Algorithm"). The report names the choice and why.
* `schrodinger_bridge`: the same-marginal SB π_{ρ,ε} of ρ = Σ aᵢδ_{xᵢ} for the cost κ|x−y|²
  (``cost="half_sq"``: κ = 1/2, which is the plan of Sinkhorn(xᵀy/ε); ``"sq"``: κ = 1, the slide
  "Entropic Regularization"). It solves the symmetric fixed point f = T(f) by the averaged
  iteration f ← (f + T(f))/2, which converges much faster than alternating updates when a = b.
* `barycentric_projection` B_{ρ,ε}(x) = E_π[Y | X = x], `sb_step` the SB update (2Id − B)#ρ,
  `euler_step` the explicit Euler update (Id − (ε/2)∇log ρ)#ρ with a given score (closed form or
  `kde_score`), and `sinkformer_attention` the literal attention step x_i ← Σ_j K^∞_ij W_V x_j.

Everything is vectorized torch (no loop over particles), keeps the dtype and device of its inputs
(use float64 for checks), and never sets torch global defaults. The dense solvers share `_Updates`:
the log-domain updates evaluated as matrix–vector products around absorbed potentials
(log-stabilized scaling), the same iterates up to rounding at a fraction of the cost of a
logsumexp per update; `OnlineUpdates` has the same interface, so one loop (`_alternate`) serves
`sinkhorn_log` and both paths of `sinkhorn_points`, and `schrodinger_bridge(..., chunk=c)` runs
the bridge and its barycentric projection chunk by chunk. docs/benchmarks.md compares them with POT and GeomLoss.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import torch

from particles.sinkhorn_online import OnlineUpdates, default_chunk
from theory.checks import positive, positive_int, real
from theory.gaussian_ot import cost_kappa

# ------------------------------------------------------------------ validation


def _check_points(x, name: str = "x") -> torch.Tensor:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    if not x.is_floating_point():
        raise TypeError(f"{name} must be a floating tensor, got {x.dtype}")
    if x.ndim < 2:
        raise ValueError(f"{name} must have shape (..., N, d), got {tuple(x.shape)}")
    if not torch.isfinite(x).all():
        raise ValueError(f"{name} contains NaN or inf")
    return x


def _log_weights(w, shape: torch.Size, like: torch.Tensor, name: str) -> torch.Tensor:
    """log of the weights (uniform 1/N when None); they must be >= 0 and sum to 1."""
    if w is None:
        return torch.full(shape, -math.log(shape[-1]), dtype=like.dtype, device=like.device)
    if not isinstance(w, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor or None, got {type(w).__name__}")
    w = w.to(dtype=like.dtype, device=like.device)
    if w.shape[-1] != shape[-1]:
        raise ValueError(f"{name} must have last dimension {shape[-1]}, got shape {tuple(w.shape)}")
    if not torch.isfinite(w).all() or (w < 0).any():
        raise ValueError(f"{name} must be finite and >= 0")
    total = w.sum(-1)
    if ((total - 1).abs() > 1e-9).any():
        raise ValueError(f"{name} must sum to 1 over the last axis, got sums {total.flatten()[:4].tolist()}")
    return torch.log(w).expand(shape)


# ------------------------------------------------------------------ Sinkhorn


@dataclass(frozen=True)
class SinkhornReport:
    """iterations run (each a column and a row update), `annealing` of them at ε above the target
    (ε-scaling) and at most max_iter at the target; residual: max over the batch of
    ‖row marginal − a‖₂ of the returned plan at the target ε (its column marginal is exact);
    converged: residual <= tol; solver: the evaluation of the updates, "dense" (the N×M cost held)
    or "online" (chunk by chunk), and solver_reason: why (`choose_solver`)."""

    iterations: int
    residual: float
    tol: float
    converged: bool
    annealing: int = 0
    solver: str = "dense"
    solver_reason: str = ""


class SinkhornNotConverged(RuntimeError):
    """Raised when the marginal residual is still above `tol` after `max_iter` iterations."""

    def __init__(self, report: SinkhornReport):
        self.report = report
        at = report.iterations - report.annealing
        super().__init__(f"Sinkhorn ({report.solver}) did not converge in max_iter={at} iterations at "
                         f"the target eps ({report.annealing} more while annealing): marginal residual "
                         f"{report.residual:.3e} > tol {report.tol:.1e} (raise max_iter or eps)")


def pairwise_cost(x: torch.Tensor, y: torch.Tensor, cost: str = "half_sq") -> torch.Tensor:
    """C_ij = κ|x_i − y_j|² (κ from `cost`), batched over leading axes; exact differences."""
    kappa = cost_kappa(cost)
    return kappa * torch.cdist(x, y, compute_mode="donot_use_mm_for_euclid_dist").square()


def _marginal_residual(log_a: torch.Tensor, delta: torch.Tensor) -> torch.Tensor:
    """‖a·(exp(Δ) − 1)‖₂ over the last axis, max over the batch (Δ = log(row marginal / a))."""
    return (torch.exp(log_a) * torch.expm1(delta.clamp(max=50.0))).norm(dim=-1).max()


def _logsumexp_(E: torch.Tensor, dim: int) -> torch.Tensor:
    """torch.logsumexp(E, dim) by the same operations (max, shift, exp, sum, log, unshift), in place:
    E is overwritten, no second N×M buffer."""
    m = E.amax(dim=dim, keepdim=True)
    m.masked_fill_(m.abs() == math.inf, 0.0)
    return E.sub_(m).exp_().sum(dim).log_().add_(m.squeeze(dim))


class _Updates:
    """The two Sinkhorn updates of one cost C at temperature ε, in log-stabilized scaling form.

        rows(g, log b)_i = −ε log Σ_j b_j exp((g_j − C_ij)/ε),   cols(f, log a)_j = −ε log Σ_i a_i exp((f_i − C_ij)/ε).

    Around absorbed potentials (f̃, g̃) with K̃ = exp((f̃ ⊕ g̃ − C)/ε) they are matrix–vector products,
    rows(g)_i = f̃_i − ε log Σ_j K̃_ij b_j e^{(g_j − g̃_j)/ε} — the same numbers up to rounding, without
    the exp of every entry that a logsumexp over C costs (≈10× faster on CPU). While both scalings
    e^{(g − g̃)/ε} (in) and e^{(f − f̃)/ε} (out) lie within e^{±τ}, τ = ¼ log(ε_mach/tiny), an entry of
    K̃ flushed below `tiny` carries relative weight ≤ tiny·e^{2τ} = √(ε_mach·tiny) ≪ ε_mach in its sum.
    The first update absorbs the given potential and zero; an update whose scalings leave that range
    is recomputed by logsumexp in the log domain and its pair absorbed into K̃ (Schmitzer, SIAM J.
    Sci. Comput. 41 (2019), A1443, §3.1). Memory: C, K̃ and, during a log-domain update, one N×M
    workspace (DENSE_MATRICES = 3 matrices at most; the old K̃ is freed before the new one is built).
    """

    def __init__(self, C: torch.Tensor, eps: float):
        self.C, self.eps = C, eps
        info = torch.finfo(C.dtype)
        self.tau = 0.25 * math.log(info.eps / info.tiny)
        self.f_abs = self.g_abs = self.K = None

    def set_eps(self, eps: float) -> None:
        """Change the temperature (ε-scaling): K̃ is re-absorbed at the next update."""
        if eps != self.eps:
            self.eps, self.K = eps, None

    def _log_domain(self, v: torch.Tensor, log_w: torch.Tensor, over: int) -> torch.Tensor:
        """−ε log Σ exp((v − C)/ε + log w), summed over the axis `over` that v indexes (-1: columns,
        -2: rows), by logsumexp in one N×M workspace."""
        E = torch.div(self.C, -self.eps).add_((v / self.eps + log_w).unsqueeze(-3 - over))
        return -self.eps * _logsumexp_(E, over)

    def _absorb(self, f: torch.Tensor, g: torch.Tensor) -> None:
        self.f_abs, self.g_abs, self.K = f, g, None
        K = (f / self.eps).unsqueeze(-1) + (g / self.eps).unsqueeze(-2)
        self.K = K.sub_(self.C, alpha=1 / self.eps).exp_()

    def _scaled(self, log_in: torch.Tensor, s: torch.Tensor, absorbed: torch.Tensor):
        """absorbed − ε log s, or None when the input or output scaling leaves e^{±τ}."""
        log_out = -torch.log(s)
        if bool((log_in.abs() <= self.tau).all() & (log_out.abs() <= self.tau).all()):
            return absorbed + self.eps * log_out
        return None

    def rows(self, g: torch.Tensor, log_b: torch.Tensor) -> torch.Tensor:  # row normalization N_R
        if self.K is None:
            self._absorb(torch.zeros_like(self.C[..., 0]), g)
        log_v = (g - self.g_abs) / self.eps
        f = self._scaled(log_v, (self.K @ torch.exp(log_b + log_v).unsqueeze(-1)).squeeze(-1), self.f_abs)
        if f is None:
            f = self._log_domain(g, log_b, -1)
            self._absorb(f, g)
        return f

    def cols(self, f: torch.Tensor, log_a: torch.Tensor) -> torch.Tensor:  # column normalization N_C
        if self.K is None:
            self._absorb(f, torch.zeros_like(self.C[..., 0, :]))
        log_u = (f - self.f_abs) / self.eps
        g = self._scaled(log_u, (torch.exp(log_a + log_u).unsqueeze(-2) @ self.K).squeeze(-2), self.g_abs)
        if g is None:
            g = self._log_domain(f, log_a, -2)
            self._absorb(f, g)
        return g


def _eps_scaling(eps_scaling) -> float | None:
    if eps_scaling is None:
        return None
    q = real(eps_scaling, "eps_scaling")
    if not 0 < q < 1:
        raise ValueError(f"eps_scaling must lie in (0, 1) (the ratio of successive ε), got {q}")
    return q


def _stages(eps: float, eps0: float, q: float | None) -> list[float]:
    """ε-scaling: the temperatures ε₀, ε₀q, ε₀q², … above the target ε, one iteration each
    (ε₀ the largest cost difference, the scale at which every plan is nearly the product; Feydy,
    "Geometric data analysis, beyond convolutions", 2020, §3.3). None: no stage."""
    stages = []
    while q is not None and eps0 > eps:
        stages.append(eps0)
        eps0 *= q
    return stages


def _potential(v, shape: torch.Size, like: torch.Tensor, name: str) -> torch.Tensor | None:
    """A starting potential: None, or a finite tensor of the given shape (cast to `like`)."""
    if v is None:
        return None
    if not isinstance(v, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor or None, got {type(v).__name__}")
    if v.shape != shape:
        raise ValueError(f"{name} must have shape {tuple(shape)}, got {tuple(v.shape)}")
    if not torch.isfinite(v).all():
        raise ValueError(f"{name} contains NaN or inf")
    return v.to(dtype=like.dtype, device=like.device)


def _settings(eps, tol, max_iter, eps_scaling):
    eps = positive(eps, "eps")
    max_iter = positive_int(max_iter, "max_iter")
    return eps, positive(tol, "tol"), max_iter, _eps_scaling(eps_scaling)


def _alternate(updates, eps: float, log_a, log_b, *, tol, max_iter, f, g, raise_on_fail, stages,
               solver: tuple[str, str]):
    """The alternating iteration shared by `sinkhorn_log` and `sinkhorn_points`: row update first
    (from g, or zero), one column + row update per stage of `stages`, then at ε until the row
    residual of (f, g = cols(f)) is <= tol. The residual costs no pass over C: the rows of the plan
    (f, g) are a_i exp((f_i − rows(g)_i)/ε). `solver`: (name, reason) for the report."""
    updates.set_eps(stages[0] if stages else eps)
    if f is None:
        f = updates.rows(torch.zeros_like(log_b) if g is None else g, log_b)
    for e in stages:
        updates.set_eps(e)
        f = updates.rows(updates.cols(f, log_a), log_b)
    updates.set_eps(eps)
    annealing, residual = len(stages), float("inf")
    for it in range(1, max_iter + 1):
        g = updates.cols(f, log_a)
        f_next = updates.rows(g, log_b)
        residual = float(_marginal_residual(log_a, (f - f_next) / eps))
        if residual <= tol:
            return f, g, SinkhornReport(annealing + it, residual, tol, True, annealing, *solver)
        f = f_next
    report = SinkhornReport(annealing + max_iter, residual, tol, False, annealing, *solver)
    if raise_on_fail:
        raise SinkhornNotConverged(report)
    return f, g, report


def sinkhorn_log(C: torch.Tensor, eps: float, a: torch.Tensor | None = None,
                 b: torch.Tensor | None = None, *, tol: float = 1e-9, max_iter: int = 10_000,
                 f: torch.Tensor | None = None, g: torch.Tensor | None = None,
                 raise_on_fail: bool = True, eps_scaling: float | None = None):
    """Entropic OT plan π = diag(a)·exp((f ⊕ g − C)/ε)·diag(b) with marginals (a, b).

    C: cost (..., N, M); a (..., N), b (..., M) weights (uniform when None). The updates are the
    row and column normalizations of seed 003 (slide "Sinkformer Self-Attention Mechanism"),
    starting with a row normalization of K⁰ = exp(−C/ε) when f, g are not given:

        f_i = −ε log Σ_j b_j exp((g_j − C_ij)/ε),     g_j = −ε log Σ_i a_i exp((f_i − C_ij)/ε),

    evaluated in log-stabilized scaling form (`_Updates`: the same iterates up to rounding).
    `eps_scaling` = q ∈ (0, 1) anneals first: one iteration at each of ε₀, ε₀q, … > ε, ε₀ the range
    of C (`_stages`); None (default) starts at ε. Returns (f, g, report); the returned pair has
    exact columns and a row residual <= tol, at ε. Raises `SinkhornNotConverged` (with the
    residual reached) after `max_iter` iterations at ε unless `raise_on_fail` is False. `sinkhorn_points` is the same solver on point clouds in O(N + M) memory.
    """
    C = _check_points(C, "C")
    eps, tol, max_iter, q = _settings(eps, tol, max_iter, eps_scaling)
    log_a = _log_weights(a, C.shape[:-1], C, "a")
    log_b = _log_weights(b, C.shape[:-2] + C.shape[-1:], C, "b")
    f, g = _potential(f, log_a.shape, C, "f"), _potential(g, log_b.shape, C, "g")
    stages = _stages(eps, float(C.max() - C.min()), q)
    return _alternate(_Updates(C, eps), eps, log_a, log_b, tol=tol, max_iter=max_iter, f=f, g=g,
                      raise_on_fail=raise_on_fail, stages=stages,
                      solver=("dense", "sinkhorn_log: the cost matrix is given"))


def _check_clouds(x, y) -> None:
    if x.shape[-1] != y.shape[-1] or x.shape[:-2] != y.shape[:-2]:
        raise ValueError(f"y must have the batch shape and dimension of x {tuple(x.shape)}, "
                         f"got {tuple(y.shape)}")
    if y.dtype != x.dtype or y.device != x.device:
        raise ValueError(f"y must have the dtype and device of x ({x.dtype}, {x.device}), "
                         f"got {y.dtype}, {y.device}")


# ------------------------------------------------------------------ the entry point's choice

DENSE_BUDGET = 1 << 30   # bytes (1 GiB): `sinkhorn_points`'s default memory_budget for the dense path
DENSE_MATRICES = 3       # N×M matrices the dense path holds at once: C, K̃, one logsumexp workspace
SOLVERS = ("auto", "dense", "online")


def dense_bytes(x: torch.Tensor, y: torch.Tensor) -> int:
    """Memory of the dense path on clouds x (..., N, d), y (..., M, d): DENSE_MATRICES·B·N·M·itemsize
    (B the batch size). Building C = κ·cdist² holds two matrices at once, the solve at most three
    (`_Updates`); tests/test_sinkhorn_entry.py measures the peak resident-set growth against it."""
    batch = math.prod(x.shape[:-2])
    return DENSE_MATRICES * batch * x.shape[-2] * y.shape[-2] * x.element_size()


def _mib(n: float) -> str:
    return f"{n / 2 ** 20:.1f} MiB"


def choose_solver(x: torch.Tensor, y: torch.Tensor, solver: str = "auto", memory_budget: float | None = None,
                  chunk: int | None = None) -> tuple[str, str]:
    """The evaluation `sinkhorn_points` runs, and why: ("dense" | "online", reason).

    solver "dense" / "online" is obeyed. "auto" (default): online when `chunk` is given (a block
    size asks for the chunked evaluation), else dense iff `dense_bytes(x, y)` ≤ `memory_budget`
    (bytes; default DENSE_BUDGET = 1 GiB, a fixed constant rather than a share of the free memory,
    so that a call makes the same choice on every machine and in every state of it), else online.
    Both run the same iterates to rounding; dense is faster (matrix–vector products around absorbed
    potentials, no exp per entry per update: 0.08–0.6× the online time in docs/benchmarks.md, the
    least gain at the largest N), online needs O((N + M)·d + chunk·max(N, M)) memory. In float64
    with B = 1 and N = M the default budget is dense up to N = 6688.
    """
    if not isinstance(solver, str) or solver not in SOLVERS:
        raise ValueError(f"solver must be one of {SOLVERS}, got {solver!r}")
    budget = DENSE_BUDGET if memory_budget is None else positive(memory_budget, "memory_budget")
    if chunk is not None and solver == "dense":
        raise ValueError(f"chunk={chunk!r} applies to the online solver only, got solver='dense'")
    if solver != "auto":
        return solver, f"solver={solver!r} requested"
    if chunk is not None:
        return "online", f"chunk={chunk} given (the chunked evaluation)"
    need = dense_bytes(x, y)
    shape = f"{DENSE_MATRICES} × {math.prod(x.shape[:-2])} × {x.shape[-2]} × {y.shape[-2]} {x.dtype}"
    if need <= budget:
        return "dense", f"dense memory {shape} = {_mib(need)} <= memory_budget {_mib(budget)}"
    return "online", f"dense memory {shape} = {_mib(need)} > memory_budget {_mib(budget)}"


def _chunk(chunk, m: int) -> int:
    return default_chunk(m) if chunk is None else positive_int(chunk, "chunk")


def sinkhorn_points(x: torch.Tensor, y: torch.Tensor, eps: float, a: torch.Tensor | None = None,
                    b: torch.Tensor | None = None, *, cost: str = "half_sq", tol: float = 1e-9,
                    max_iter: int = 10_000, f: torch.Tensor | None = None,
                    g: torch.Tensor | None = None, raise_on_fail: bool = True,
                    eps_scaling: float | None = None, chunk: int | None = None,
                    solver: str = "auto", memory_budget: float | None = None):
    """Entropic OT between point clouds for C_ij = κ|x_i − y_j|² (κ from `cost`): the updates,
    stopping rule and returned (f, g, report) of `sinkhorn_log(pairwise_cost(x, y, cost), eps, a, b,
    ...)`, with ε-scaling from ε₀ = κ·diam² (diam the diagonal of the clouds' bounding box). x (..., N,
    d), y (..., M, d) with the same batch shape, dtype and device.

    The updates are evaluated one of two ways, chosen by `choose_solver` and named in
    `report.solver` with `report.solver_reason`: "dense" (the N×M cost formed, log-stabilized
    scaling as in `sinkhorn_log`; DENSE_MATRICES·B·N·M·itemsize bytes) when that fits `memory_budget`
    (default DENSE_BUDGET = 1 GiB), else "online" (`particles.sinkhorn_online`: `chunk` rows at a
    time by an online logsumexp, memory O((N + M)·d + chunk·max(N, M)); the default chunk holds
    ~2^18 entries). `solver="dense"` or `"online"` forces one; `chunk` implies online. Both give the
    dense solver's iterates up to rounding of the exponents, ≈ ε_mach·κ·max|x − x̄|²/ε (x̄ the
    clouds' mean), and the same iteration count."""
    x, y = _check_points(x, "x"), _check_points(y, "y")
    _check_clouds(x, y)
    eps, tol, max_iter, q = _settings(eps, tol, max_iter, eps_scaling)
    kappa = cost_kappa(cost)
    chunk = None if chunk is None else positive_int(chunk, "chunk")
    choice = choose_solver(x, y, solver, memory_budget, chunk)
    log_a = _log_weights(a, x.shape[:-1], x, "a")
    log_b = _log_weights(b, y.shape[:-1], x, "b")
    f, g = _potential(f, log_a.shape, x, "f"), _potential(g, log_b.shape, x, "g")
    both = torch.cat([x, y], dim=-2)
    diameter = float((both.amax(dim=-2) - both.amin(dim=-2)).norm(dim=-1).max())
    stages = _stages(eps, kappa * diameter ** 2, q)
    if choice[0] == "dense":
        updates = _Updates(pairwise_cost(x, y, cost), eps)
    else:
        updates = OnlineUpdates(x, y, eps, cost, _chunk(chunk, max(x.shape[-2], y.shape[-2])))
    return _alternate(updates, eps, log_a, log_b, tol=tol, max_iter=max_iter, f=f, g=g,
                      raise_on_fail=raise_on_fail, stages=stages, solver=choice)


def log_plan(C: torch.Tensor, eps: float, f: torch.Tensor, g: torch.Tensor,
             a: torch.Tensor | None = None, b: torch.Tensor | None = None) -> torch.Tensor:
    """log π_ij = log a_i + log b_j + (f_i + g_j − C_ij)/ε."""
    eps = positive(eps, "eps")
    log_a = _log_weights(a, C.shape[:-1], C, "a")
    log_b = _log_weights(b, C.shape[:-2] + C.shape[-1:], C, "b")
    return _log_plan(C, eps, f, g, log_a, log_b)


def _log_plan(C, eps, f, g, log_a, log_b) -> torch.Tensor:
    """(f_i/ε + log a_i) + (g_j/ε + log b_j) − C_ij/ε: two passes over N×M (an outer sum, then C)."""
    return torch.sub((f / eps + log_a).unsqueeze(-1) + (g / eps + log_b).unsqueeze(-2), C, alpha=1 / eps)


# ------------------------------------------------------------------ same-marginal Schrödinger bridge


@dataclass(frozen=True)
class SchrodingerBridge:
    """π_{ρ,ε} of ρ = Σ aᵢδ_{xᵢ}: π_ij = a_i a_j exp((f_i + f_j − C_ij)/ε), C_ij = κ|x_i − x_j|²."""

    x: torch.Tensor
    log_a: torch.Tensor
    eps: float
    cost: str
    f: torch.Tensor
    report: SinkhornReport
    chunk: int | None = None   # set: the projection is evaluated chunk by chunk, never N×N

    def cost_matrix(self) -> torch.Tensor:
        return pairwise_cost(self.x, self.x, self.cost)

    def log_plan(self) -> torch.Tensor:
        return _log_plan(self.cost_matrix(), self.eps, self.f, self.f, self.log_a, self.log_a)

    def barycentric_projection(self) -> torch.Tensor:
        """B_{ρ,ε}(x_i) = E_π[Y | X = x_i] = Σ_j π_ij x_j / Σ_j π_ij (seed 003, slide "Entropic
        Regularization"), a softmax over j of (f_j − C_ij)/ε + log a_j."""
        if self.chunk is not None:
            return OnlineUpdates(self.x, self.x, self.eps, self.cost, self.chunk).barycentric(self.f, self.log_a)
        logits = (self.f.unsqueeze(-2) - self.cost_matrix()) / self.eps + self.log_a.unsqueeze(-2)
        return torch.softmax(logits, dim=-1) @ self.x


def schrodinger_bridge(x: torch.Tensor, eps: float, weights: torch.Tensor | None = None, *,
                       cost: str = "half_sq", tol: float = 1e-10, max_iter: int = 10_000,
                       f: torch.Tensor | None = None, eps_scaling: float | None = None,
                       chunk: int | None = None) -> SchrodingerBridge:
    """The same-marginal Schrödinger bridge π_{ρ,ε}, ρ = Σ aᵢδ_{xᵢ} (seed 003, slide "Self-attention
    update via same marginal Schrödinger bridges").

    With a = b and a symmetric cost the optimal potentials coincide (f = g), and f is the fixed
    point of T(f)_i = −ε log Σ_j a_j exp((f_j − C_ij)/ε); the averaged iteration f ← (f + T(f))/2
    converges to it. `f` warm-starts (e.g. from the previous step of a particle scheme).
    The residual is ‖row marginal − a‖₂ (= the column one, by symmetry). `eps_scaling` and the
    iteration count as in `sinkhorn_log` (ε₀ = κ·diam²); `chunk` (rows per block) evaluates T and
    the barycentric projection chunk by chunk in O(N·chunk) memory (`sinkhorn_points`), None the
    dense N×N cost.
    """
    x = _check_points(x)
    eps, tol, max_iter, q = _settings(eps, tol, max_iter, eps_scaling)
    log_a = _log_weights(weights, x.shape[:-1], x, "weights")
    f = _potential(f, log_a.shape, x, "f")
    if chunk is None:
        T = _Updates(pairwise_cost(x, x, cost), eps)   # T(f) = T.rows(f, log_a), log-stabilized
        solver = ("dense", "chunk=None: the N×N cost")
    else:
        chunk = positive_int(chunk, "chunk")
        T = OnlineUpdates(x, x, eps, cost, chunk)
        solver = ("online", f"chunk={chunk} given")
    diameter = float((x.amax(dim=-2) - x.amin(dim=-2)).norm(dim=-1).max())
    stages = _stages(eps, cost_kappa(cost) * diameter ** 2, q)
    f = torch.zeros_like(log_a) if f is None else f
    for e in stages:
        T.set_eps(e)
        f = 0.5 * (f + T.rows(f, log_a))
    T.set_eps(eps)
    annealing, residual = len(stages), float("inf")
    for it in range(1, max_iter + 1):
        Tf = T.rows(f, log_a)
        residual = float(_marginal_residual(log_a, (f - Tf) / eps))
        if residual <= tol:
            report = SinkhornReport(annealing + it, residual, tol, True, annealing, *solver)
            return SchrodingerBridge(x, log_a, eps, cost, f, report, chunk)
        f = 0.5 * (f + Tf)
    raise SinkhornNotConverged(SinkhornReport(annealing + max_iter, residual, tol, False, annealing, *solver))


def barycentric_projection(x: torch.Tensor, eps: float, weights: torch.Tensor | None = None,
                           **kw) -> torch.Tensor:
    """B_{ρ,ε}(x_i) for the empirical ρ = Σ aᵢδ_{xᵢ}; keywords as in `schrodinger_bridge`."""
    return schrodinger_bridge(x, eps, weights, **kw).barycentric_projection()


def sb_step(x: torch.Tensor, eps: float, weights: torch.Tensor | None = None, **kw):
    """One SB update SB¹_ε(ρ) = (2Id − B_{ρ,ε})#ρ (seed 003, slide "Result 2"): the particles move
    to 2xᵢ − B(xᵢ) and keep their weights. Returns (new x, the bridge) — pass `f=bridge.f` to the
    next step to warm-start it."""
    bridge = schrodinger_bridge(x, eps, weights, **kw)
    return 2 * x - bridge.barycentric_projection(), bridge


def euler_step(x: torch.Tensor, eps: float,
               score: torch.Tensor | Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor:
    """Explicit Euler update S¹_ε(ρ) = (Id − (ε/2)∇log ρ)#ρ (seed 003, slide "Result 2"), with
    `score` either ∇log ρ at the particles or a callable returning it (closed form, `kde_score`)."""
    x = _check_points(x)
    eps = positive(eps, "eps")
    s = score(x) if callable(score) else score
    if not isinstance(s, torch.Tensor) or s.shape != x.shape:
        raise ValueError(f"score must have the shape of x {tuple(x.shape)}, "
                         f"got {getattr(s, 'shape', type(s).__name__)}")
    return x - 0.5 * eps * s


def kde_score(at: torch.Tensor, x: torch.Tensor, bandwidth: float,
              weights: torch.Tensor | None = None) -> torch.Tensor:
    """Score of the Gaussian kernel estimate ρ_h = Σ_j a_j N(x_j, h²I) at the points `at`:
    ∇log ρ_h(y) = Σ_j softmax_j(−|y − x_j|²/(2h²) + log a_j)·(x_j − y)/h²."""
    at, x = _check_points(at, "at"), _check_points(x)
    h = positive(bandwidth, "bandwidth")
    log_a = _log_weights(weights, x.shape[:-1], x, "weights")
    logits = -pairwise_cost(at, x, "half_sq") / h ** 2 + log_a.unsqueeze(-2)
    return (torch.softmax(logits, dim=-1) @ x - at) / h ** 2


# ------------------------------------------------------------------ the Sinkformer attention step


def sinkformer_attention(x: torch.Tensor, eps: float, W_Q: torch.Tensor, W_K: torch.Tensor,
                         W_V: torch.Tensor, *, tol: float = 1e-10, max_iter: int = 10_000):
    """The Sinkformer self-attention update of seed 003 (slide "Temperature Parameter"):

        x_i ← Σ_j K^∞_ij W_V x_j,   K^∞ = Sinkhorn(C/ε),   C_ij = (W_Q x_i)ᵀ(W_K x_j),

    K^∞ the limit of alternating row/column normalizations of exp(C/ε) (row first), computed as
    N·π with π the plan of `sinkhorn_log` for the cost −C and uniform marginals. Returns
    (updated x, K^∞, report).
    """
    x = _check_points(x)
    for name, W in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
        if not isinstance(W, torch.Tensor) or W.ndim != 2 or W.shape[-1] != x.shape[-1]:
            raise ValueError(f"{name} must be a matrix with {x.shape[-1]} columns, "
                             f"got {getattr(W, 'shape', type(W).__name__)}")
    q, k = x @ W_Q.T, x @ W_K.T
    C = q @ k.transpose(-1, -2)
    f, g, report = sinkhorn_log(-C, eps, tol=tol, max_iter=max_iter)
    K = torch.exp(log_plan(-C, eps, f, g) + math.log(x.shape[-2]))
    return K @ (x @ W_V.T), K, report


def sb_scheme(x0: torch.Tensor, eps: float, n_steps: int, weights: torch.Tensor | None = None,
              **kw):
    """The iterated SB scheme SB^{k+1}_ε(ρ) = SB¹_ε(SB^k_ε(ρ)), k < n_steps (seed 003, slide
    "Result 3: Uniform Convergence"), warm-starting each bridge from the previous potential.
    Returns (iterates of shape (n_steps + 1, *x0.shape), total Sinkhorn iterations)."""
    x = _check_points(x0, "x0")
    n_steps = positive_int(n_steps, "n_steps")
    iterates, f, total = [x], None, 0
    for _ in range(n_steps):
        x, bridge = sb_step(x, eps, weights, f=f, **kw)
        f, total = bridge.f, total + bridge.report.iterations
        iterates.append(x)
    return torch.stack(iterates), total


def euler_scheme(x0: torch.Tensor, eps: float, n_steps: int,
                 score: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor:
    """The explicit Euler scheme S^{k+1}_ε(ρ) = S¹_ε(S^k_ε(ρ)) (seed 003, slide "Result 3"), with
    `score(x)` the score of the current measure at its own particles (e.g. `kde_score(x, x, h, a)`,
    or a closed form). Returns the iterates, shape (n_steps + 1, *x0.shape)."""
    x = _check_points(x0, "x0")
    n_steps = positive_int(n_steps, "n_steps")
    iterates = [x]
    for _ in range(n_steps):
        x = euler_step(x, eps, score)
        iterates.append(x)
    return torch.stack(iterates)

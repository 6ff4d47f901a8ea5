"""Loss-landscape and forward-propagation diagnostics of trained language models.

Two families, both from seed 002 (Gai, Huang, Wu, "Momentum streams"):

Flatness (§6.1 "Loss landscape", Figure 3(a); estimators and defaults of Appendix G)
    hessian_vector_product   Hv = ∇_θ⟨∇_θ L(θ), v⟩ by double backward, App. G eq. (4)
    hutchinson_trace         tr(H) ≈ (1/P) Σ_j v⁽ʲ⁾ᵀ H v⁽ʲ⁾ with Rademacher probes v⁽ʲ⁾ ∈ {±1}^N
    power_iteration          λ⁽ᵏ⁾ = v_kᵀ H v_k, v_{k+1} = H v_k / ‖H v_k‖, v_0 ~ N(0, I_N)
    filter_normalized_direction, loss_curve
                             d⁽ˡ⁾ ← d⁽ˡ⁾ ‖θ⁽ˡ⁾‖ / ‖d⁽ˡ⁾‖ (eq. (5)), φ(α) = L(θ + α d)
    flatness                 the three together, with App. G's hyperparameters as defaults

Full-block Jacobian (§5.3 "Full-Block Jacobian Diagnostic", Figure 2)
    block_jacobian           J_ℓ = ∂F_ℓ/∂X_ℓ at the trained activation X̄_ℓ (torch.func)
    jacobian_spectrum        σ^eff_max, σ^eff_min (singular values above one fixed cutoff),
                             stable rank r_st = ‖J‖_F² / ‖J‖_2², spread κ_eff = σ^eff_max/σ^eff_min
    minimum_gain_persistence 𝒫 = Σ_ℓ log σ^eff_min(J_ℓ)

Second-moment balance (Remark E.2 on trained streams; Theorem E.1's ρ_max²/ρ_min²)
    second_moment_balance    per token and substep, s_max/s_min of an AdamFormer's or
                             RMSPropFormer's second-moment stream S, and D_s's non-scalar deviation

The loss is given as `loss_fn(batch) -> scalar` evaluated with the current values of `params`
(a closure over a model), averaged over a fixed list of `batches` as App. G prescribes ("each HVP
is averaged over the B fixed validation minibatches"). Attention is evaluated with the math
kernel inside the HVPs, because fused attention kernels have no double backward (App. G).
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

from particles.geometry import jacobian

LossFn = Callable[[Any], torch.Tensor]

# Appendix G, "Hyperparameters": T_pow = 15, τ = 1e-3, P = 10 probes, G = 11 points on [-0.5, 0.5].
POWER_ITERS, POWER_TOL, PROBES, GRID, ALPHA_MAX = 15, 1e-3, 10, 11, 0.5


# ---------------------------------------------------------------------------------------------
# input validation


def _check_params(params: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    params = list(params)
    if not params:
        raise ValueError("params must be a non-empty sequence of tensors")
    for i, p in enumerate(params):
        if not isinstance(p, torch.Tensor):
            raise TypeError(f"params[{i}] must be a torch.Tensor, got {type(p).__name__}")
        if not p.requires_grad:
            raise ValueError(f"params[{i}] must require grad")
        if not p.dtype.is_floating_point:
            raise TypeError(f"params[{i}] must be floating point, got {p.dtype}")
    return params


def _check_batches(batches: Sequence[Any]) -> list[Any]:
    batches = list(batches)
    if not batches:
        raise ValueError("batches must hold at least one (validation) batch")
    return batches


def _check_like(name: str, vs: Sequence[torch.Tensor], params: list[torch.Tensor]) -> list[torch.Tensor]:
    vs = list(vs)
    if len(vs) != len(params):
        raise ValueError(f"{name} must have one tensor per parameter ({len(params)}), got {len(vs)}")
    for i, (v, p) in enumerate(zip(vs, params)):
        if not isinstance(v, torch.Tensor) or v.shape != p.shape:
            raise ValueError(f"{name}[{i}] must be a tensor of shape {tuple(p.shape)}")
        if not torch.isfinite(v).all():
            raise ValueError(f"{name}[{i}] contains NaN or inf")
    return vs


def _positive_int(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be >= 1, got {value}")
    return value


def _dot(a: Sequence[torch.Tensor], b: Sequence[torch.Tensor]) -> torch.Tensor:
    return sum((x * y).sum() for x, y in zip(a, b))


def _norm(a: Sequence[torch.Tensor]) -> torch.Tensor:
    return torch.sqrt(_dot(a, a))


@contextmanager
def _math_attention() -> Iterator[None]:
    """App. G: the HVP needs a double backward, which only the math SDPA kernel provides."""
    with sdpa_kernel([SDPBackend.MATH]):
        yield


# ---------------------------------------------------------------------------------------------
# Hessian oracles (seed 002, Appendix G)


def mean_loss(loss_fn: LossFn, batches: Sequence[Any]) -> float:
    """(1/B) Σ_b L(θ; batch_b) without gradients."""
    batches = _check_batches(batches)
    with torch.no_grad():
        return float(sum(float(loss_fn(b)) for b in batches) / len(batches))


def hessian_vector_product(loss_fn: LossFn, params: Sequence[torch.Tensor], batches: Sequence[Any],
                           v: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    """H v = ∇_θ ⟨∇_θ L(θ), v⟩ by double backward (Pearlmutter), averaged over `batches`.

    Seed 002, Appendix G, eq. (4). Parameters that the loss does not use contribute zero rows.
    """
    params = _check_params(params)
    batches = _check_batches(batches)
    v = _check_like("v", v, params)
    hv = [torch.zeros_like(p) for p in params]
    with _math_attention():
        for batch in batches:
            loss = loss_fn(batch)
            if loss.ndim != 0:
                raise ValueError(f"loss_fn must return a scalar, got shape {tuple(loss.shape)}")
            g = torch.autograd.grad(loss, params, create_graph=True, materialize_grads=True)
            hv_b = torch.autograd.grad(_dot(g, v), params, materialize_grads=True)
            for acc, h in zip(hv, hv_b):
                acc.add_(h.detach(), alpha=1.0 / len(batches))
    return hv


def rademacher_like(params: Sequence[torch.Tensor], generator: torch.Generator) -> list[torch.Tensor]:
    """One Rademacher probe v ∈ {-1, +1}^N shaped like `params` (drawn on the generator's device)."""
    return [(2 * torch.randint(0, 2, p.shape, generator=generator, device=generator.device) - 1)
            .to(dtype=p.dtype, device=p.device) for p in params]


def gaussian_like(params: Sequence[torch.Tensor], generator: torch.Generator) -> list[torch.Tensor]:
    """One standard normal vector shaped like `params`."""
    return [torch.randn(p.shape, generator=generator, device=generator.device, dtype=p.dtype)
            .to(p.device) for p in params]


@dataclass(frozen=True)
class HutchinsonTrace:
    """Hutchinson's estimate of tr(H): the per-probe values v⁽ʲ⁾ᵀHv⁽ʲ⁾, their mean and spread."""

    per_probe: tuple[float, ...]
    n_params: int

    @property
    def trace(self) -> float:
        return float(np.mean(self.per_probe))

    @property
    def std(self) -> float:
        """Sample standard deviation over probes (App. G reports mean and std over P probes)."""
        return float(np.std(self.per_probe, ddof=1)) if len(self.per_probe) > 1 else math.nan

    @property
    def stderr(self) -> float:
        return self.std / math.sqrt(len(self.per_probe))

    @property
    def trace_per_param(self) -> float:
        """The scale-normalized trace tr(H)/N compared across variants (§6.1, Figure 3(a))."""
        return self.trace / self.n_params


def hutchinson_trace(loss_fn: LossFn, params: Sequence[torch.Tensor], batches: Sequence[Any], *,
                     probes: int = PROBES, generator: torch.Generator) -> HutchinsonTrace:
    """tr(H) ≈ (1/P) Σ_j v⁽ʲ⁾ᵀ H v⁽ʲ⁾ with Rademacher probes (seed 002, Appendix G, "Hessian trace").

    Unbiased because E[vvᵀ] = I; for a fixed H one probe has variance 2 Σ_{i≠j} H_ij², so the
    estimate is exact for diagonal H.
    """
    params = _check_params(params)
    _positive_int("probes", probes)
    values = []
    for _ in range(probes):
        v = rademacher_like(params, generator)
        values.append(float(_dot(v, hessian_vector_product(loss_fn, params, batches, v))))
    return HutchinsonTrace(tuple(values), sum(p.numel() for p in params))


@dataclass(frozen=True)
class PowerIteration:
    """λ⁽ᵏ⁾ of the power iteration; `lambda_max` is the last one (the dominant eigenvalue)."""

    history: tuple[float, ...]
    converged: bool

    @property
    def lambda_max(self) -> float:
        return self.history[-1]


def power_iteration(loss_fn: LossFn, params: Sequence[torch.Tensor], batches: Sequence[Any], *,
                    iters: int = POWER_ITERS, tol: float = POWER_TOL,
                    generator: torch.Generator) -> PowerIteration:
    """Dominant Hessian eigenvalue by power iteration on HVPs (seed 002, Appendix G).

    v_0 ~ N(0, I_N), λ⁽ᵏ⁾ = v_kᵀ H v_k, v_{k+1} = H v_k / ‖H v_k‖, at most `iters` steps, stopped once
    |λ⁽ᵏ⁾ − λ⁽ᵏ⁻¹⁾| / |λ⁽ᵏ⁾| < tol. The iteration converges to the eigenvalue of largest modulus,
    which is λ_max(H) at a minimum (H ⪰ 0) but may be a negative eigenvalue elsewhere.
    """
    params = _check_params(params)
    _positive_int("iters", iters)
    if not (isinstance(tol, (int, float)) and tol > 0 and math.isfinite(tol)):
        raise ValueError(f"tol must be a positive finite number, got {tol!r}")
    v = gaussian_like(params, generator)
    norm = _norm(v)
    v = [x / norm for x in v]
    history: list[float] = []
    for _ in range(iters):
        hv = hessian_vector_product(loss_fn, params, batches, v)
        history.append(float(_dot(v, hv)))
        if len(history) > 1 and abs(history[-1] - history[-2]) < tol * abs(history[-1]):
            return PowerIteration(tuple(history), True)
        norm = _norm(hv)
        if norm == 0:  # H v = 0: v is an eigenvector with eigenvalue 0
            return PowerIteration(tuple(history), True)
        v = [x / norm for x in hv]
    return PowerIteration(tuple(history), False)


# ---------------------------------------------------------------------------------------------
# filter-normalized 1-D loss curve (seed 002, Appendix G; Li et al. 2018)


def filter_normalized_direction(params: Sequence[torch.Tensor], generator: torch.Generator, *,
                                granularity: str = "tensor") -> list[torch.Tensor]:
    """A Gaussian direction d rescaled to the scale of θ (seed 002, Appendix G, eq. (5)).

    granularity="tensor" is eq. (5) as printed: d⁽ˡ⁾ ← d⁽ˡ⁾ ‖θ⁽ˡ⁾‖ / ‖d⁽ˡ⁾‖ per parameter tensor.
    granularity="filter" is Li et al. (2018): the same rescaling per filter (row along dim 0) of
    every tensor with ≥ 2 dims, and d = 0 on 1-D tensors (biases, normalization gains).
    """
    params = _check_params(params)
    if granularity not in ("tensor", "filter"):
        raise ValueError(f"granularity must be 'tensor' or 'filter', got {granularity!r}")
    direction = []
    for p, d in zip(params, gaussian_like(params, generator)):
        theta = p.detach()
        if granularity == "tensor":
            d = d * (theta.norm() / d.norm())
        elif theta.ndim < 2:
            d = torch.zeros_like(d)
        else:
            rows = (slice(None),) + (None,) * (theta.ndim - 1)
            d = d * (theta.flatten(1).norm(dim=1) / d.flatten(1).norm(dim=1))[rows]
        direction.append(d)
    return direction


def loss_curve(loss_fn: LossFn, params: Sequence[torch.Tensor], batches: Sequence[Any],
               direction: Sequence[torch.Tensor], alphas: Sequence[float] | np.ndarray) -> np.ndarray:
    """φ(α) = L(θ + α d) on the grid `alphas`; θ is restored afterwards, also on error."""
    params = _check_params(params)
    direction = _check_like("direction", direction, params)
    alphas = np.asarray(alphas, dtype=np.float64)
    if alphas.ndim != 1 or alphas.size == 0 or not np.isfinite(alphas).all():
        raise ValueError("alphas must be a non-empty 1-D array of finite numbers")
    theta = [p.detach().clone() for p in params]
    values = np.empty_like(alphas)
    try:
        for i, alpha in enumerate(alphas):
            with torch.no_grad():
                for p, t, d in zip(params, theta, direction):
                    p.copy_(t + float(alpha) * d)
            values[i] = mean_loss(loss_fn, batches)
    finally:
        with torch.no_grad():
            for p, t in zip(params, theta):
                p.copy_(t)
    return values


@dataclass(frozen=True)
class Flatness:
    """The three sharpness diagnostics of seed 002 §6.1 at one set of parameters."""

    loss: float
    lambda_max: float
    power_converged: bool
    trace: HutchinsonTrace
    alphas: tuple[float, ...]
    curve: tuple[float, ...]

    @property
    def curve_range(self) -> float:
        """max_α φ(α) − min_α φ(α), the 1-D summary of App. G."""
        return max(self.curve) - min(self.curve)

    def as_dict(self) -> dict[str, Any]:
        return {"loss": self.loss, "lambda_max": self.lambda_max,
                "power_converged": self.power_converged, "trace": self.trace.trace,
                "trace_std": self.trace.std, "trace_per_param": self.trace.trace_per_param,
                "n_params": self.trace.n_params, "curve_range": self.curve_range,
                "alphas": list(self.alphas), "curve": list(self.curve)}


def flatness(loss_fn: LossFn, params: Sequence[torch.Tensor], batches: Sequence[Any], *,
             generator: torch.Generator, probes: int = PROBES, power_iters: int = POWER_ITERS,
             tol: float = POWER_TOL, grid: int = GRID, alpha_max: float = ALPHA_MAX,
             granularity: str = "tensor") -> Flatness:
    """λ_max, Hutchinson tr(H) (and tr(H)/N), and the filter-normalized loss range at θ.

    Seed 002 §6.1 with the estimators and default hyperparameters of Appendix G; every variant
    must be probed on the same `batches`.
    """
    params = _check_params(params)
    _positive_int("grid", grid)
    if not (alpha_max > 0 and math.isfinite(alpha_max)):
        raise ValueError(f"alpha_max must be positive and finite, got {alpha_max!r}")
    power = power_iteration(loss_fn, params, batches, iters=power_iters, tol=tol, generator=generator)
    trace = hutchinson_trace(loss_fn, params, batches, probes=probes, generator=generator)
    alphas = np.linspace(-alpha_max, alpha_max, grid)
    direction = filter_normalized_direction(params, generator, granularity=granularity)
    curve = loss_curve(loss_fn, params, batches, direction, alphas)
    return Flatness(mean_loss(loss_fn, batches), power.lambda_max, power.converged, trace,
                    tuple(alphas.tolist()), tuple(curve.tolist()))


# ---------------------------------------------------------------------------------------------
# full-block Jacobian diagnostic (seed 002, §5.3)


def block_jacobian(block: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor) -> torch.Tensor:
    """J_ℓ = ∂F_ℓ/∂X_ℓ at X̄_ℓ = `x` (one sequence, shape (T, d)), as a (T·d) × (T·d) matrix.

    `block` is the complete layer map X_ℓ ↦ X_{ℓ+1} with the auxiliary streams fixed to their
    trajectory values (seed 002 §5.3); tokens are flattened row by row. float64, torch.func.
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 2:
        raise ValueError(f"x must be one sequence of shape (T, d), got "
                         f"{tuple(x.shape) if isinstance(x, torch.Tensor) else type(x).__name__}")
    with _math_attention():
        J = jacobian(block, x, event_dims=2)
    if J.shape[0] != x.numel():
        raise ValueError(f"block must map (T, d) to (T, d); output has {J.shape[0]} entries, "
                         f"input {x.numel()}")
    return J


SIGMA_TAIL = 32  # the smallest singular values kept per layer: 𝒫 at any cutoff that cuts fewer


@dataclass(frozen=True)
class JacobianSpectrum:
    """Seed 002 §5.3 summaries of one layer Jacobian, with the `SIGMA_TAIL` smallest singular
    values (ascending) so that σ^eff_min can be recomputed at another cutoff (`sigma_min_at`)."""

    sigma_max_eff: float
    sigma_min_eff: float
    stable_rank: float
    n_kept: int
    n_total: int
    sigma_tail: tuple[float, ...] = ()

    @property
    def spread(self) -> float:
        """κ_eff = σ^eff_max / σ^eff_min."""
        return self.sigma_max_eff / self.sigma_min_eff

    @property
    def log_min_gain(self) -> float:
        """log σ^eff_min, one layer's term of the minimum-gain persistence 𝒫."""
        return math.log(self.sigma_min_eff)


def jacobian_spectrum(J: torch.Tensor | np.ndarray, cutoff: float = 1e-6) -> JacobianSpectrum:
    """σ^eff_max, σ^eff_min (singular values > `cutoff`), r_st = ‖J‖_F²/‖J‖_2² (seed 002 §5.3).

    The paper keeps singular values "by the same fixed numerical cutoff across all variants": an
    absolute `cutoff`, shared by every model compared. The stable rank uses the full spectrum.
    """
    J = J.detach().cpu().numpy() if isinstance(J, torch.Tensor) else np.asarray(J)
    if J.ndim != 2 or J.shape[0] != J.shape[1] or J.shape[0] == 0:
        raise ValueError(f"J must be a non-empty square matrix, got shape {J.shape}")
    if not np.isfinite(J).all():
        raise ValueError("J contains NaN or inf")
    if not (cutoff > 0 and math.isfinite(cutoff)):
        raise ValueError(f"cutoff must be positive and finite, got {cutoff!r}")
    sigma = np.linalg.svd(J.astype(np.float64), compute_uv=False)
    kept = sigma[sigma > cutoff]
    if kept.size == 0:
        raise ValueError(f"cutoff={cutoff} removes every singular value (largest {sigma[0]:.3g})")
    return JacobianSpectrum(float(kept[0]), float(kept[-1]), float((sigma ** 2).sum() / sigma[0] ** 2),
                            int(kept.size), int(sigma.size), tuple(float(v) for v in sigma[::-1][:SIGMA_TAIL]))


def rank_tolerance(sigma_max: float, n: int) -> float:
    """The float64 numerical-rank cutoff σ_max · n · ε (`numpy.linalg.matrix_rank`'s default): the
    smallest cutoff a float64 SVD of an n × n matrix can resolve, one reading of §5.3's unstated
    'fixed numerical cutoff'."""
    return float(sigma_max) * int(n) * float(np.finfo(np.float64).eps)


def sigma_min_at(sigma_tail: Sequence[float], n_total: int, cutoff: float) -> float:
    """σ^eff_min at another `cutoff`, from the recorded smallest singular values (ascending): the
    smallest of them above it. ValueError when every recorded value is at or below the cutoff
    (σ^eff_min is then not known from the record, or nothing is kept)."""
    tail = np.asarray(sigma_tail, float)
    if tail.ndim != 1 or tail.size == 0 or np.any(np.diff(tail) < 0):
        raise ValueError("sigma_tail must be the smallest singular values in ascending order")
    if not (cutoff > 0 and math.isfinite(cutoff)):
        raise ValueError(f"cutoff must be positive and finite, got {cutoff!r}")
    above = tail[tail > cutoff]
    if above.size == 0:
        raise ValueError(f"cutoff={cutoff:g}: every recorded singular value is at or below it "
                         f"({tail.size} of {n_total} recorded)")
    return float(above[0])


def persistence_at(spectra: Sequence[dict], cutoff: Callable[[float, int], float]) -> tuple[float, float]:
    """(𝒫, mean spread) at another cutoff from `model_diagnostics`' per-sequence ``spectra``
    records, averaged over the sequences as `model_diagnostics` averages; `cutoff(σ_max, n)` gives
    each layer's cutoff (e.g. `rank_tolerance`)."""
    if not spectra:
        raise ValueError("spectra: one record per validation sequence is needed")
    persistence, spread = [], []
    for seq in spectra:
        n = int(seq["n_total"])
        mins = [sigma_min_at(tail, n, cutoff(smax, n)) for smax, tail in zip(seq["sigma_max_eff"], seq["sigma_tail"])]
        persistence.append(sum(math.log(m) for m in mins))
        spread.extend(smax / m for smax, m in zip(seq["sigma_max_eff"], mins))
    return float(np.mean(persistence)), float(np.mean(spread))


def minimum_gain_persistence(spectra: Sequence[JacobianSpectrum]) -> float:
    """𝒫 = Σ_ℓ log σ^eff_min(J_ℓ) over the layers of one model (seed 002 §5.3)."""
    if not spectra:
        raise ValueError("spectra must hold one JacobianSpectrum per layer")
    return float(sum(s.log_min_gain for s in spectra))


def full_block_diagnostics(blocks: Sequence[Callable[[torch.Tensor], torch.Tensor]],
                           activations: Sequence[torch.Tensor], cutoff: float = 1e-6) -> dict[str, Any]:
    """Per-layer spectra of J_ℓ at X̄_ℓ and the model's minimum-gain persistence (seed 002 §5.3).

    `blocks[ℓ]` is F_ℓ with its auxiliary streams fixed; `activations[ℓ]` the trained X̄_ℓ (T, d).
    """
    if len(blocks) != len(activations) or not blocks:
        raise ValueError(f"blocks and activations must be non-empty and of equal length, got "
                         f"{len(blocks)} and {len(activations)}")
    spectra = [jacobian_spectrum(block_jacobian(f, x), cutoff) for f, x in zip(blocks, activations)]
    return {"persistence": minimum_gain_persistence(spectra),
            "log_min_gain": [s.log_min_gain for s in spectra],
            "stable_rank": [s.stable_rank for s in spectra],
            "spread": [s.spread for s in spectra],
            "sigma_max_eff": [s.sigma_max_eff for s in spectra],
            "n_kept": [s.n_kept for s in spectra], "cutoff": cutoff,
            "sigma_tail": [list(s.sigma_tail) for s in spectra], "n_total": spectra[0].n_total}


# ---------------------------------------------------------------------------------------------
# both diagnostics of one trained run (what the ledger's seed-002 claims compare across variants)

FLATNESS_SETTINGS = {
    # quick: a handful of HVPs on one batch, to exercise the path; decides nothing
    "quick": {"batches": 1, "probes": 2, "power_iters": 3, "grid": 5},
    # full: Appendix G's hyperparameters (T_pow = 15, tau = 1e-3, P = 10, G = 11, alpha_max = 0.5)
    "full": {"batches": 4, "probes": PROBES, "power_iters": POWER_ITERS, "grid": GRID},
}
JACOBIAN_SETTINGS = {"quick": {"sequences": 1, "tokens": 8}, "full": {"sequences": 2, "tokens": 16}}
SIGMA_CUTOFF = 1e-6  # the one absolute singular-value cutoff shared by every model (§5.3)
PROBE_SEED = 1234  # the generator of the probes, power-iteration start and loss-curve direction


def validation_batches(result: dict, n: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """The first `n` fixed validation batches of a run's corpus: the batches its validation curve
    was measured on, identical for every variant and seed (App. G: "shared across all variants")."""
    from .data import Batches, load_corpus
    from .train import VAL_SEED
    cfg = result["config"]
    corpus = load_corpus(cfg["data"], max_bytes=cfg["max_bytes"])
    val = Batches(corpus.val, cfg["block_size"], cfg["batch_size"], seed=VAL_SEED)
    return [val.batch(k) for k in range(n)]


def block_maps(model: torch.nn.Module, idx: torch.Tensor) -> tuple[list, list]:
    """F_ℓ: X_ℓ ↦ X_{ℓ+1} for one sequence `idx` (1, T) with the auxiliary streams (and SympFormer's
    time) fixed to their trajectory values, and the trained activations X̄_ℓ (seed 002 §5.3)."""
    state = model.initial_state(idx)
    maps, xs = [], []
    for block in model.blocks:
        frozen = {k: v.detach() for k, v in state.items()}
        maps.append(lambda X, block=block, frozen=frozen: block({**frozen, "x": X[None]})["x"][0])
        xs.append(frozen["x"][0])
        with torch.no_grad():
            state = block(frozen)
    return maps, xs


def model_diagnostics(model: torch.nn.Module, result: dict, budget: str = "full") -> dict[str, Any]:
    """Flatness (App. G) and full-block Jacobian summaries (§5.3) of one trained model, in float64,
    on the run's shared validation batches; `budget` picks FLATNESS/JACOBIAN_SETTINGS."""
    if budget not in FLATNESS_SETTINGS:
        raise ValueError(f"budget must be one of {sorted(FLATNESS_SETTINGS)}, got {budget!r}")
    fs, js = FLATNESS_SETTINGS[budget], JACOBIAN_SETTINGS[budget]
    model = model.double()
    batches = validation_batches(result, fs["batches"])
    params = [p for p in model.parameters() if p.requires_grad]
    loss = lambda b: torch.nn.functional.cross_entropy(model(b[0]).flatten(0, 1), b[1].flatten())  # noqa: E731
    rep = flatness(loss, params, batches, generator=torch.Generator().manual_seed(PROBE_SEED),
                   probes=fs["probes"], power_iters=fs["power_iters"], grid=fs["grid"])
    flat = rep.as_dict() | {"trace_stderr": rep.trace.stderr}
    idx = batches[0][0][: js["sequences"], : js["tokens"]]
    per_seq = [full_block_diagnostics(*block_maps(model, row[None]), SIGMA_CUTOFF) for row in idx]
    mean = lambda k: np.mean([d[k] for d in per_seq], axis=0).tolist()  # noqa: E731
    jac = {"persistence": float(np.mean([d["persistence"] for d in per_seq])),
           "log_min_gain": mean("log_min_gain"), "stable_rank": mean("stable_rank"),
           "spread": mean("spread"), "n_kept": mean("n_kept"),
           # per sequence, what 𝒫 and the spread at another cutoff need (`sigma_min_at`)
           "spectra": [{k: d[k] for k in ("sigma_max_eff", "sigma_tail", "n_total")} for d in per_seq]}
    out = {"flatness": flat, "jacobian": jac,
           "settings": {"flatness": fs, "jacobian": js, "cutoff": SIGMA_CUTOFF, "probe_seed": PROBE_SEED}}
    if getattr(model, "variant", None) is not None and model.variant.kwargs.get("precond") == "diag":
        # Remark E.2 on the trained stream: every token of the first validation batch
        out["second_moment_balance"] = second_moment_balance(model.eval(), batches[0][0])
    return out


# ------------------------------------------------------------------ second-moment balance

BALANCED = 2.0    # Theorem E.1: ρ_max²/ρ_min² ≤ 1 + ε with ε ∈ [0, 1]


@torch.no_grad()
def second_moment_balance(model, idx: torch.Tensor) -> dict:
    """The per-token balance of the second-moment stream S of an AdamFormer / RMSPropFormer
    (`particles.lm.blocks.preconditioned` with precond "diag") on the token batch `idx`, after each
    substep: s_max/s_min over the d channels (Theorem E.1's ρ_max²/ρ_min², ρ_i² = s_i) and the
    non-scalar deviation ‖D_s/α − I‖₂ = (ρ_max − ρ_min)/(ρ_max + δ) of D_s = diag(1/(√s_i + δ)).

    The oracle outputs are caught by forward hooks on each block's attention and MLP modules and S
    is advanced by the recurrence S ← β₂S + (1 − β₂)g⊙g with the block's learned β₂; the result
    after the MLP substep is held against the S the block itself returns (`recurrence_error`)."""
    if model.variant.kwargs.get("precond") != "diag":
        raise ValueError(f"model: a diagonal second-moment variant is needed, got "
                         f"{model.variant.name!r}")
    state = model.initial_state(idx)
    eps = float(model.variant.kwargs.get("eps", 1e-8))
    ratios, deviations, err = [], [], 0.0
    for blk in model.blocks:
        caught = {}
        hooks = [blk.attn.register_forward_hook(lambda m, a, out: caught.__setitem__("a", out)),
                 blk.mlp.register_forward_hook(lambda m, a, out: caught.__setitem__("m", out))]
        try:
            S = state["s"]
            out = blk(state)
        finally:
            for h in hooks:
                h.remove()
        for sub in ("a", "m"):
            b2 = blk.scalars[f"beta2_{sub}"]
            S = b2 * S + (1 - b2) * caught[sub] * caught[sub]
            rho2_max, rho2_min = S.amax(-1), S.amin(-1)
            ratios.append((rho2_max / rho2_min).flatten())
            rmax, rmin = rho2_max.sqrt(), rho2_min.sqrt()
            deviations.append(((rmax - rmin) / (rmax + eps)).flatten())
        scale = float(out["s"].abs().max())
        err = max(err, float((S - out["s"]).abs().max()) / scale)
        state = out
    r, dv = torch.stack(ratios), torch.stack(deviations)       # (substeps, tokens)
    return {"substeps": int(r.shape[0]), "tokens": int(r.shape[1]),
            "ratio_max": float(r.max()), "ratio_median": float(r.median()),
            "ratio_max_per_substep": [float(x) for x in r.amax(1)],
            "share_balanced": float((r <= BALANCED).double().mean()),
            "deviation_max": float(dv.max()), "deviation_median": float(dv.median()),
            "recurrence_error": err}

"""Assert the theorems on anyone's model: symplecticity, conformal symplecticity, volume
preservation and causality of a torch map, measured exactly and reported with where they fail.

    from particles.verify import assert_symplectic, assert_causal
    assert_symplectic(leapfrog_step, torch.randn(8, 2 * d))      # D fᵀ J D f = J at 8 points
    assert_causal(decoder, torch.randint(0, V, (2, T)))           # no output sees a later input

Conventions (seed 001 §1, §4; `theory.symplectic`):

* A state is z = (q, p) ∈ R^{2d}, the last `event_dims` axes of `x` (default: the last axis);
  leading axes are a batch of points and `f` is applied to one point at a time through
  `torch.func.vmap`, so `f` may, but need not, accept batches. A state with several axes (a 2d×T
  token cloud Z) is flattened row by row: the Z_vec identification of seed 001 eq. (18).
* J defaults to the canonical form J = [[0, I_d], [−I_d, 0]] in those flattened coordinates (first
  half q, second half p); any antisymmetric invertible matrix may be passed instead.
  f is symplectic when D f(x)ᵀ J D f(x) = J, conformally symplectic with factor c when
  D fᵀ J D f = c J, and volume preserving when |det D f(x)| = 1.
* Causality along the axis `dim` (the position axis of input and output): output position t may
  depend on input positions s ≤ t only.

Precision. Jacobians are computed in the dtype of `x` (the map as the user runs it, float32
included) with `torch.func.jacrev`; the algebra on them (DᵀJD − cJ, slogdet) is
`theory.symplectic`'s, on a float64 copy of D (one implementation for torch maps and for the
theory layer's matrices), so the only rounding that matters is the Jacobian's own. Default
tolerances follow from that: relative `RTOL_ULPS · eps(dtype)`, eps of the lower-precision of
the input and output dtypes, scaled by the size of the map (stated in each assertion). Causality is
decided exactly (tolerance 0) by default: a causal computation produces exact zeros, not small
numbers, in the blocks it must not fill.

Every assertion raises `AssertionError` whose message gives the measured defect, the tolerance and
the location (point and entry, or positions t and s) where the defect is largest; bad arguments
raise `TypeError`/`ValueError` naming the parameter. The measurements behind them (`jacobian`,
`symplectic_residual`, `log_volume`, `causal_dependence`) are public: the toolkit's own claims and
`particles.geometry` use the same functions.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
from torch.func import jacrev, vmap

from theory import symplectic as sy
from theory.checks import nonnegative, positive_int, real

__all__ = ["assert_symplectic", "assert_conformally_symplectic", "assert_volume_preserving",
           "assert_causal", "jacobian", "symplectic_residual", "log_volume", "causal_dependence",
           "CausalDependence", "canonical_J", "RTOL_ULPS"]

# Default relative tolerance in units of eps(dtype), against the scale ‖D‖_F² ‖J‖₂ (symplectic)
# or n κ₂(D) (volume). Measured on leapfrog maps of a coupled pendulum chain (d = 8, float32 and
# float64): max |DᵀJD − J| / ‖D‖_F² is 0.03 eps after 1 step, 0.15 eps after 10, 0.5 eps after
# 100; |log|det D|| / (n κ₂) stays below 0.3 eps. 16 leaves a factor 30 over 100 steps and is
# still 1e-3 of the O(h²) defect of an explicit Euler step with h = 0.1 in float32.
# Pass rtol for longer compositions.
RTOL_ULPS = 16.0

Map = Callable[[torch.Tensor], torch.Tensor]


# ------------------------------------------------------------------ validation


def _check_map(f) -> None:
    if not callable(f):
        raise TypeError(f"f must be a callable or an nn.Module, got {type(f).__name__}")


def _check_x(x, *, floating: bool, min_ndim: int = 1) -> torch.Tensor:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if x.is_complex() or x.dtype == torch.bool:
        raise TypeError(f"x must be real (floating or integer tokens), got {x.dtype}")
    if floating and not x.is_floating_point():
        raise TypeError(f"x must be a floating tensor (float32 or float64), got {x.dtype}")
    if x.ndim < min_ndim:
        raise ValueError(f"x must have at least {min_ndim} axes, got shape {tuple(x.shape)}")
    if x.numel() == 0:
        raise ValueError(f"x must not be empty, got shape {tuple(x.shape)}")
    if x.is_floating_point() and not torch.isfinite(x).all():
        raise ValueError("x contains NaN or inf")
    return x


def _tolerance(value, name: str):
    return None if value is None else nonnegative(value, name)


def _eps(*dtypes: torch.dtype) -> float:
    return max(torch.finfo(d).eps for d in dtypes if d.is_floating_point)


def canonical_J(n: int, *, dtype: torch.dtype = torch.float64, device=None) -> torch.Tensor:
    """J = [[0, I_d], [−I_d, 0]] of size n = 2d (seed 001 §1), as a tensor."""
    n = positive_int(n, "n")
    if n % 2:
        raise ValueError(f"n must be even (a (q, p) state in R^(2d)), got {n}")
    return torch.as_tensor(sy.canonical_J(n // 2), dtype=dtype, device=device)


def _form(J, n: int, name: str, device) -> torch.Tensor:
    """J as a float64 (n, n) tensor; canonical when None. Antisymmetric and invertible, or raise."""
    if J is None:
        if n % 2:
            space = "x" if name == "J" else "f(x)"
            raise ValueError(f"{space}: the flattened state has odd dimension {n}; {name} defaults "
                             f"to [[0, I], [-I, 0]] on (q, p) in R^(2d): pass {name} for another form")
        return canonical_J(n, device=device)
    if not isinstance(J, (torch.Tensor, np.ndarray)):
        raise TypeError(f"{name} must be a torch.Tensor or numpy array, got {type(J).__name__}")
    J = torch.as_tensor(J).to(device=device, dtype=torch.float64)
    if J.shape != (n, n):
        raise ValueError(f"{name} must be {n}×{n} to match the state, got shape {tuple(J.shape)}")
    if not torch.isfinite(J).all():
        raise ValueError(f"{name} contains NaN or inf")
    size = J.abs().max().item()
    if size == 0 or (J + J.T).abs().max().item() > 1e-12 * size:
        raise ValueError(f"{name} must be antisymmetric and non-zero ({name}ᵀ = -{name})")
    sv = torch.linalg.svdvals(J)
    if sv[-1] <= n * torch.finfo(torch.float64).eps * sv[0]:
        raise ValueError(f"{name} must be invertible (smallest singular value {sv[-1].item():.3g})")
    return J


def _factor(factor, batch: torch.Size, device) -> torch.Tensor:
    """The conformal factor as a float64 tensor broadcast to the batch shape."""
    if isinstance(factor, torch.Tensor):
        if factor.is_complex() or factor.dtype == torch.bool:
            raise TypeError(f"factor must be real, got a {factor.dtype} tensor")
        c = factor.detach().to(device=device, dtype=torch.float64)
        if not torch.isfinite(c).all():
            raise ValueError("factor contains NaN or inf")
        try:
            return torch.broadcast_to(c, batch)
        except RuntimeError:
            raise ValueError(f"factor of shape {tuple(c.shape)} does not broadcast to the batch "
                             f"shape {tuple(batch)} of x") from None
    return torch.full(batch, real(factor, "factor"), dtype=torch.float64, device=device)


# ------------------------------------------------------------------ Jacobians and their algebra


def jacobian(f: Map, x: torch.Tensor, *, event_dims: int = 1) -> torch.Tensor:
    """Batched Jacobian of `f` at the points `x`: shape batch + (m, n), m and n the flattened
    output and input sizes of one point (the last `event_dims` axes of `x`), by
    `torch.func.vmap(torch.func.jacrev(f))`, in the dtype of `x`. `f` maps one point to one
    output; row-major flattening makes a 2d×T matrix Z into Z_vec of seed 001 eq. (18)."""
    _check_map(f)
    event_dims = positive_int(event_dims, "event_dims")
    x = _check_x(x, floating=True, min_ndim=event_dims)
    batch, event = x.shape[: x.ndim - event_dims], x.shape[x.ndim - event_dims:]
    n = math.prod(event)

    def flat(v: torch.Tensor) -> torch.Tensor:
        return f(v.reshape(event)).reshape(-1)

    D = vmap(jacrev(flat))(x.reshape(-1, n))
    return D.reshape(*batch, D.shape[-2], n)


def _np64(D: torch.Tensor) -> np.ndarray:
    return D.detach().to(torch.float64).cpu().numpy()


def _residual(f, x, J, J_out, factor, event_dims):
    D = jacobian(f, x, event_dims=event_dims)
    m, n = D.shape[-2:]
    J = _form(J, n, "J", D.device)
    J_out = J if J_out is None and m == n else _form(J_out, m, "J_out", D.device)
    c = _factor(factor, D.shape[:-2], D.device)
    R = sy.conformal_residual(_np64(D), c.cpu().numpy(), J_out.cpu().numpy(), J.cpu().numpy())
    return torch.from_numpy(R).to(D.device), D, J_out, c


def symplectic_residual(f: Map, x: torch.Tensor, *, J=None, J_out=None, factor=1.0,
                        event_dims: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    """(R, D) with D = D f(x) (dtype of x) and R = Dᵀ J_out D − factor · J in float64, batched.

    J is the form on the input space (canonical [[0, I], [−I, 0]] by default), J_out the form on
    the output space (J when both spaces have the same dimension, else canonical): maps between
    spaces of different dimension (seed 001 eq. (31)) are covered. R = 0 iff f is (conformally,
    with `factor`) symplectic at x; `factor` is a real number or a tensor over the batch."""
    R, D, _, _ = _residual(f, x, J, J_out, factor, event_dims)
    return R, D


def log_volume(f: Map, x: torch.Tensor, *, event_dims: int = 1
               ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(sign, log|det D f(x)|, D) by slogdet (`theory.symplectic.signed_log_volume`) on a float64
    copy of the Jacobian (log|det| = 0 iff volume preserving; −inf if singular), batched."""
    D = jacobian(f, x, event_dims=event_dims)
    if D.shape[-1] != D.shape[-2]:
        raise ValueError(f"f must map a state to a state of the same size for a volume, got a "
                         f"{D.shape[-2]}×{D.shape[-1]} Jacobian")
    sign, logabsdet = (torch.from_numpy(v).to(D.device) for v in sy.signed_log_volume(_np64(D)))
    return sign, logabsdet, D


def _where(index: int, shape: torch.Size) -> str:
    return str(tuple(int(i) for i in np.unravel_index(index, tuple(shape))))


def _symplectic_check(f, x, factor, J, J_out, rtol, atol, event_dims, what: str) -> torch.Tensor:
    rtol, atol = _tolerance(rtol, "rtol"), _tolerance(atol, "atol")
    R, D, J_out, c = _residual(f, x, J, J_out, factor, event_dims)
    rtol = RTOL_ULPS * _eps(x.dtype, D.dtype) if rtol is None else rtol
    atol = 0.0 if atol is None else atol
    # |δ(DᵀJD)| ≤ 2‖D‖‖J_out‖‖δD‖ for a Jacobian error δD: the scale is ‖D‖_F² ‖J_out‖₂ per point
    scale = torch.linalg.matrix_norm(D.detach().to(torch.float64)) ** 2 * torch.linalg.matrix_norm(
        J_out, ord=2)
    tol = atol + rtol * scale
    defect = R.abs().amax(dim=(-2, -1))
    worst = int(torch.argmax((defect - tol).reshape(-1)))
    if (defect - tol).reshape(-1)[worst] > 0:
        Rw = R.reshape(-1, *R.shape[-2:])[worst]
        i, j = divmod(int(torch.argmax(Rw.abs())), Rw.shape[-1])
        point = _where(worst, R.shape[:-2]) if R.ndim > 2 else "()"
        form = "[[0, I], [-I, 0]]" if J is None else "the J given"
        measured = ("max |Dfᵀ J Df - J|" if what == "symplectic" else
                    f"max |Dfᵀ J Df - c·J| (c = {c.reshape(-1)[worst].item():.6g})")
        raise AssertionError(
            f"not {what}: {measured} = {defect.reshape(-1)[worst].item():.3e} at "
            f"point {point}, entry ({i}, {j}); tolerance {tol.reshape(-1)[worst].item():.3e} "
            f"(atol {atol:.1e} + rtol {rtol:.1e} × ‖Df‖_F² {scale.reshape(-1)[worst].item():.3g}, "
            f"{D.dtype}; J = {form})")
    return R


def assert_symplectic(f: Map, x: torch.Tensor, *, J=None, J_out=None, rtol: float | None = None,
                      atol: float | None = None, event_dims: int = 1) -> torch.Tensor:
    """Assert D f(x)ᵀ J D f(x) = J at every point of `x` (seed 001 §1: symplectic maps).

    J defaults to [[0, I_d], [−I_d, 0]] for a state (q, p) (first half q); any antisymmetric
    invertible (n, n) matrix is accepted (J_out for the output space when its dimension differs).
    The Jacobian is taken in the dtype of x (float32 or float64); the test is
    max_ij |(DᵀJD − J)_ij| ≤ atol + rtol · ‖D‖_F² ‖J_out‖₂ per point, with rtol = 16 · eps(dtype)
    (`RTOL_ULPS`) and atol = 0 by default (‖D‖_F² ≥ n for a symplectic D: the tolerance grows with the size of
    the map). Returns the residual DᵀJD − J (float64, batched). Raises AssertionError with the
    largest entry, the tolerance, the point and the entry (i, j)."""
    return _symplectic_check(f, x, 1.0, J, J_out, rtol, atol, event_dims, "symplectic")


def assert_conformally_symplectic(f: Map, x: torch.Tensor, factor, *, J=None, J_out=None,
                                  rtol: float | None = None, atol: float | None = None,
                                  event_dims: int = 1) -> torch.Tensor:
    """Assert D f(x)ᵀ J D f(x) = factor · J at every point (conformally symplectic, e.g. a damped
    symplectic Euler step with factor e^{−γh} or 1 − γh). `factor` is a real number or a tensor
    broadcastable to the batch shape of x; J, tolerances and message as `assert_symplectic`."""
    return _symplectic_check(f, x, factor, J, J_out, rtol, atol, event_dims,
                             "conformally symplectic")


def assert_volume_preserving(f: Map, x: torch.Tensor, *, rtol: float | None = None,
                             atol: float | None = None, event_dims: int = 1
                             ) -> tuple[torch.Tensor, torch.Tensor]:
    """Assert |det D f(x)| = 1 at every point, via slogdet on a float64 copy of the Jacobian
    (computed in the dtype of x). Test: |log|det D|| ≤ atol + rtol · n · κ₂(D), the first-order
    effect of a relative Jacobian error rtol (|tr(D⁻¹δD)| ≤ n κ₂ ‖δD‖/‖D‖), with rtol =
    16 · eps(dtype) (`RTOL_ULPS`) and atol = 0 by default. A Jacobian too ill-conditioned for that bound to
    decide (tolerance ≥ 1) or singular fails. Returns (sign, log|det|); the message reports the
    sign of det at the worst point (−1: the map reverses orientation)."""
    rtol, atol = _tolerance(rtol, "rtol"), _tolerance(atol, "atol")
    sign, logabsdet, D = log_volume(f, x, event_dims=event_dims)
    rtol = RTOL_ULPS * _eps(x.dtype, D.dtype) if rtol is None else rtol
    atol = 0.0 if atol is None else atol
    n = D.shape[-1]
    D64 = D.detach().to(torch.float64)
    cond = torch.linalg.cond(D64)
    tol = atol + rtol * n * torch.where(torch.isfinite(cond), cond, torch.inf)
    defect = logabsdet.abs()
    bad = ~torch.isfinite(logabsdet) | (defect > tol) | (tol >= 1.0)
    if bad.any():
        flat_bad = bad.reshape(-1)
        key = torch.where(flat_bad, defect.reshape(-1).nan_to_num(posinf=math.inf), -1.0)
        worst = int(torch.argmax(key))
        point = _where(worst, logabsdet.shape) if logabsdet.ndim else "()"
        ld, t = logabsdet.reshape(-1)[worst].item(), tol.reshape(-1)[worst].item()
        s = int(sign.reshape(-1)[worst].item())
        reason = ("the Jacobian is too ill-conditioned to decide at this dtype "
                  f"(κ₂ = {cond.reshape(-1)[worst].item():.3g})" if t >= 1.0 and math.isfinite(ld)
                  else f"|det Df| = exp({ld:.3e})")
        raise AssertionError(
            f"not volume preserving: |log|det Df|| = {abs(ld):.3e} at point {point} "
            f"(sign of det {s:+d}); tolerance {t:.3e} (atol {atol:.1e} + rtol {rtol:.1e} × n {n} "
            f"× κ₂(Df), {D.dtype}); {reason}")
    return sign, logabsdet


# ------------------------------------------------------------------ causality


@dataclass(frozen=True)
class CausalDependence:
    """How output positions depend on input positions, measured along the position axis.

    dependence[t, s] (T×T, float64) is, for method "jacobian", max |cᵀ ∂out_t/∂in_s| over the
    batch and the features, with c a fixed random cotangent on output position t (non-zero iff
    the block ∂out_t/∂in_s is, for almost every c); for method "perturbation", the largest change
    of the outputs at position t when the inputs at position s alone are perturbed.
    suffix[t] (perturbation only) is the largest change of the outputs at positions ≤ t when every
    input after t is perturbed (the literal criterion for tokens); nan at t = T − 1.
    worst: a sentence locating the largest dependence on a later position (None if there is none).
    """

    dependence: torch.Tensor
    suffix: torch.Tensor | None
    method: str
    worst: str | None

    @property
    def leak(self) -> float:
        """The largest dependence of an output position on a later input position."""
        T = self.dependence.shape[0]
        future = torch.ones(T, T, dtype=torch.bool).triu(1)
        values = [self.dependence[future]]
        if self.suffix is not None:
            values.append(self.suffix[:-1])
        return float(torch.cat(values).max()) if T > 1 else 0.0


def _position_axis(dim, x: torch.Tensor) -> int:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"dim must be an int, got {type(dim).__name__}")
    if not -x.ndim <= dim < x.ndim:
        raise ValueError(f"dim must index an axis of x (ndim {x.ndim}), got {dim}")
    return dim % x.ndim


def _output(f, x: torch.Tensor, dim: int, T: int) -> torch.Tensor:
    out = f(x)
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"f must return a tensor, got {type(out).__name__}")
    if out.ndim <= dim or out.shape[dim] != T:
        raise ValueError(f"f: its output must have the position axis dim={dim} of length {T}, "
                         f"got shape {tuple(out.shape)}")
    return out


def _by_position(values: torch.Tensor, dim: int) -> torch.Tensor:
    """max over every axis but `dim`: shape (T,)."""
    return values.movedim(dim, 0).reshape(values.shape[dim], -1).amax(dim=1)


def _jacobian_dependence(f, x, dim: int, chunk: int) -> CausalDependence:
    T = x.shape[dim]
    xr = x.detach().requires_grad_(True)
    out = _output(f, xr, dim, T)
    if not out.requires_grad:
        raise ValueError("f: its output does not depend on x through autograd (detached, integer "
                         "or computed outside torch); use method='perturbation'")
    g = torch.Generator(device="cpu").manual_seed(0)
    c = torch.randn(out.shape, generator=g, dtype=torch.float64).to(device=out.device,
                                                                     dtype=out.dtype)
    c = c.movedim(dim, 0)
    dep = torch.zeros(T, T, dtype=torch.float64)
    worst, where = 0.0, None
    for start in range(0, T, chunk):
        ts = torch.arange(start, min(start + chunk, T))
        cot = torch.zeros(len(ts), *c.shape, dtype=c.dtype, device=c.device)
        cot[torch.arange(len(ts)), ts] = c[ts]  # one output position per cotangent
        cot = cot.movedim(1, dim + 1)
        with warnings.catch_warnings():  # some backward kernels have no vmap rule: a loop, same numbers
            warnings.filterwarnings("ignore", message=".*batching rule.*")
            (grads,) = torch.autograd.grad(out, xr, cot, retain_graph=True, is_grads_batched=True,
                                           allow_unused=True, materialize_grads=True)
        grads = grads.detach().abs().to(torch.float64).cpu()  # (k, *x.shape)
        for k, t in enumerate(ts.tolist()):
            gk = grads[k]
            dep[t] = _by_position(gk, dim)
            later = gk.narrow(dim, t + 1, T - t - 1)
            if later.numel() and later.max().item() > worst:
                worst = later.max().item()
                idx = np.unravel_index(int(torch.argmax(later)), tuple(later.shape))
                idx = tuple(int(i) + (t + 1 if a == dim else 0) for a, i in enumerate(idx))
                where = (t, idx[dim], idx)
    text = None
    if where is not None:
        t, s, idx = where
        text = (f"output position t={t} depends on input position s={s} > t: "
                f"|cᵀ ∂out_t/∂in_s| = {worst:.3e} at input index {idx}")
    return CausalDependence(dep, None, "jacobian", text)


def _change(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """|a − b| in float64, 0 where bit-equal (inf == inf included), inf where one side is NaN."""
    a64, b64 = a.detach().to(torch.float64), b.detach().to(torch.float64)
    d = (a64 - b64).abs()
    d = torch.where(a64 == b64, torch.zeros_like(d), d)
    return d.nan_to_num(nan=math.inf)


def _perturbation_dependence(f, x, dim: int, vocab_size, batch_dim, chunk: int) -> CausalDependence:
    T = x.shape[dim]
    g = torch.Generator(device="cpu").manual_seed(0)
    if x.is_floating_point():
        scale = x.detach().abs().max().item() or 1.0
        other = x + scale * torch.randn(x.shape, generator=g, dtype=torch.float64).to(x)
    else:
        V = int(x.max().item()) + 1 if vocab_size is None else positive_int(vocab_size, "vocab_size")
        if x.min().item() < 0 or x.max().item() >= V:
            raise ValueError(f"x: tokens must lie in [0, vocab_size={V})")
        if V < 2:
            raise ValueError("vocab_size must be >= 2 to perturb a token (pass vocab_size)")
        other = (x + torch.randint(1, V, x.shape, generator=g).to(x.device)) % V
    pos = torch.arange(T, device=x.device)
    shape = [1] * x.ndim
    shape[dim] = T
    # perturbation k < T changes position k alone; k = T + t changes every position after t
    masks = [pos == s for s in range(T)] + [pos > t for t in range(T - 1)]
    dep = torch.zeros(T, T, dtype=torch.float64)
    suffix = torch.full((T,), math.nan, dtype=torch.float64)
    worst = [0.0, None]  # largest dependence on a later position, and its sentence

    def perturbed(k: int) -> torch.Tensor:
        return torch.where(masks[k].reshape(shape), other, x)

    def record(k: int, change: torch.Tensor) -> None:
        by_pos = _by_position(change, dim).cpu()
        if k >= T:
            suffix[k - T] = by_pos[: k - T + 1].max()
            return
        dep[:, k] = by_pos
        if k and by_pos[:k].max().item() > worst[0]:
            t = int(torch.argmax(by_pos[:k]))
            ch = change.narrow(dim, t, 1)
            idx = np.unravel_index(int(torch.argmax(ch)), tuple(ch.shape))
            idx = tuple(int(i) + (t if a == dim else 0) for a, i in enumerate(idx))
            worst[:] = [by_pos[t].item(), f"output position t={t} changes when input position "
                        f"s={k} > t is perturbed: |Δout| = {by_pos[t].item():.3e} at output index {idx}"]

    # f runs in the caller's grad mode (a force computed by autograd inside f needs it)
    base = _output(f, x, dim, T)
    stacked = batch_dim is not None
    if stacked:  # copies along the batch axis, the unperturbed x first in every call
        B = x.shape[batch_dim]
        for start in range(0, len(masks), chunk):
            ks = range(start, min(start + chunk, len(masks)))
            out = f(torch.cat([x] + [perturbed(k) for k in ks], dim=batch_dim))
            if (not isinstance(out, torch.Tensor) or out.ndim != base.ndim
                    or out.shape[batch_dim] != B * (1 + len(ks))):
                stacked = False
                break
            pieces = out.split(B, dim=batch_dim)
            if _change(pieces[0], base).max().item() != 0.0:
                stacked = False  # f couples the batch (or rounds by batch size): one call each
                break
            for k, piece in zip(ks, pieces[1:]):
                record(k, _change(piece, pieces[0]))
    if not stacked:  # every perturbation again, each in its own call (record overwrites)
        worst[:] = [0.0, None]
        for k in range(len(masks)):
            record(k, _change(_output(f, perturbed(k), dim, T), base))
    text = worst[1]
    if text is None and T > 1 and suffix[:-1].max().item() > 0:
        t = int(torch.argmax(suffix[:-1]))
        text = (f"outputs at positions <= t={t} change when every input after t is perturbed: "
                f"|Δout| = {suffix[t].item():.3e}")
    return CausalDependence(dep, suffix, "perturbation", text)


_DEFAULT_BATCH = object()


def causal_dependence(f: Map, x: torch.Tensor, *, dim: int = 1, method: str | None = None,
                      vocab_size: int | None = None, batch_dim=_DEFAULT_BATCH,
                      chunk: int = 32) -> CausalDependence:
    """Measure the dependence of every output position t on every input position s (T×T).

    method "jacobian" (default for floating x): one vector-Jacobian product per output position,
    batched through autograd (`is_grads_batched`, `chunk` positions per backward pass), each with
    a fixed random cotangent on that position; the gradient at input position s is zero exactly
    when the Jacobian block ∂out_t/∂in_s is (for almost every cotangent), so exact zeros decide.
    The whole x goes through f at once: dependence through batch statistics is seen.

    method "perturbation" (the only one for integer tokens; for floats, maps autograd cannot see
    through): perturb the inputs at position s alone (dependence map) and every input after t
    (suffix), compare outputs with the unperturbed ones bit by bit. Tokens move by a random
    non-zero offset modulo `vocab_size` (default: max(x) + 1). The copies are stacked along
    `batch_dim` (default 0 when dim > 0, None otherwise), `chunk` per call, the unperturbed x
    first in every call; if f's outputs for that first copy differ from f(x) alone, f couples
    the batch (e.g. BatchNorm in train mode) and each perturbation is run as its own call with
    the shape of x (2T − 1 calls). f runs in the caller's grad mode: call under torch.no_grad()
    to save memory unless f differentiates inside."""
    _check_map(f)
    x = _check_x(x, floating=False)
    dim = _position_axis(dim, x)
    chunk = positive_int(chunk, "chunk")
    if method is None:
        method = "jacobian" if x.is_floating_point() else "perturbation"
    if method not in ("jacobian", "perturbation"):
        raise ValueError(f"method must be 'jacobian' or 'perturbation', got {method!r}")
    if method == "jacobian":
        if not x.is_floating_point():
            raise ValueError("method='jacobian' needs floating x; integer tokens use 'perturbation'")
        return _jacobian_dependence(f, x, dim, chunk)
    if batch_dim is _DEFAULT_BATCH:
        batch_dim = 0 if dim > 0 else None
    elif batch_dim is not None:
        batch_dim = _position_axis(batch_dim, x)
        if batch_dim == dim:
            raise ValueError(f"batch_dim must differ from dim, got {batch_dim}")
    return _perturbation_dependence(f, x, dim, vocab_size, batch_dim, chunk)


def assert_causal(f: Map, x: torch.Tensor, *, dim: int = 1, atol: float = 0.0,
                  method: str | None = None, vocab_size: int | None = None,
                  batch_dim=_DEFAULT_BATCH, chunk: int = 32) -> CausalDependence:
    """Assert that no output at position t depends on an input at a later position s > t.

    `dim` is the position axis of x and of f(x) (default 1: x of shape (B, T, ...)). Floating x:
    every Jacobian block ∂out_t/∂in_s with s > t must vanish, measured by one vector-Jacobian
    product per output position (`causal_dependence`, method "jacobian"), in the dtype of x.
    Integer tokens: perturbing the token at any s > t, or all tokens after t, must leave every
    output up to t bit-identical, for every t. The default tolerance atol = 0 is exact whatever
    the dtype: masked attention, prefix sums and per-token maps produce exact zeros; pass
    atol > 0 only for a causal map computed with rounding across positions (an FFT convolution).
    Leaks through batch statistics (BatchNorm in train mode) and sequence statistics (a mean over
    positions) are leaks: f sees the whole x. Returns the measured `CausalDependence`; raises
    AssertionError with the largest leak, the tolerance and the positions (t, s)."""
    atol = nonnegative(atol, "atol")
    dep = causal_dependence(f, x, dim=dim, method=method, vocab_size=vocab_size,
                            batch_dim=batch_dim, chunk=chunk)
    leak = dep.leak
    if leak > atol:
        T = dep.dependence.shape[0]
        future = torch.ones(T, T, dtype=torch.bool).triu(1)
        n_bad = int((dep.dependence[future] > atol).sum())
        raise AssertionError(
            f"not causal: {dep.worst}; tolerance {atol:.1e} ({'exact' if atol == 0 else 'atol'}); "
            f"{n_bad} of {T * (T - 1) // 2} pairs s > t leak (method {dep.method}, {x.dtype})")
    return dep

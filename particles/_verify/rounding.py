"""particles.verify, the rounding of a Jacobian: how large a structural defect rounding alone can
produce at each point, measured where possible and modeled otherwise. A defect above the
first-order bound (the pass tolerance) but inside this rounding zone is `Undecidable`, never a
violation, whatever the resolution.

Measured: the same Jacobian computed again with other rounding,
  * for a float32 check, the map run in float64 (when it computes there): Df_64's own error is
    ~1e-9 of Df_32's, so |Df_32 − Df_64| is the float32 Jacobian's rounding;
  * in float64 (or for a float32 map that cannot run in float64), the same mode seeded with
    SEEDS · e_i instead of e_i (cotangents in reverse mode, tangents in forward mode) and divided
    by the seed: every product along the composition then rounds differently (3·x·y is not
    3·(x·y) in floating point), while the primal values and each operation's local derivative
    are shared; the largest difference over the seeds is the measurement.
The defect that rounding |ΔD| can make is then computed exactly to second order (`*_effect`).
Modeled: a composition of `n_steps` steps when the caller states it, each rounding its Jacobian
by rtol relative to ‖Df‖ (a product of n factors spreads the rounding of one column over all of
them), accumulated linearly; and, at the default rtol and without n_steps, ROUNDING_ZONE times
the one-step bound, for the rounding no reseeding sees (the shared local derivatives), unless Df
was measured against float64.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch.func import jvp, vmap, vjp

from particles._verify.outcome import ROUNDING_ZONE, clip, computes_in_float64, name_of
from particles._verify.jacobians import point_map

# The measured zone is MARGIN × the defect |ΔD| can make (`*_effect`).
# Against a float64 reference the effect bounds |R_32 − R_64| exactly (to its float64 rounding),
# and R_64 is the float64 map's own defect, ~1e-9 of float32's rounding for a symplectic map
# (2000 leapfrog steps of an oscillator: |R_32| / effect ≤ 0.87): margin 2.
# Reseeded (SEEDS 3 and 1.2345, the larger difference): |R| / effect was at most 0.70 over 24
# points × 16 entries of 50-1500 leapfrog steps of Hénon–Heiles at E = 0.16 (h = 0.02 … 0.1,
# ‖Df‖_F up to 1e7) in float64, 0.91 in float32 (300-600 steps), 0.74 for 100-5000 steps of
# the oscillator: margin 4. (Forward against reverse mode, tried first, gave 1.0 on Hénon–Heiles
# but 8.8 on the oscillator, whose exact coefficients make both modes round alike, at 3x the
# cost.) One seed alone: up to 4.3 (seed 3, oscillator) or 2.3 (seed 1.2345, Hénon–Heiles).
SEEDS = (3.0, 1.2345)
REFERENCE_MARGIN = 2.0
RESEEDED_MARGIN = 4.0


@dataclass(frozen=True)
class Rounding:
    """error: |Df − Df_ref| per entry (float64, points × m × n), None when not measured;
    margin: the factor on its effect; how: the sentence saying what was compared (or why not);
    exact: the reference has a higher precision (the measurement replaces the fixed zone)."""

    error: torch.Tensor | None
    margin: float
    how: str
    exact: bool = False


def _seeded(flat, X: torch.Tensor, seed: float, forward: bool) -> torch.Tensor:
    """Df at the rows of X (points × m × n) by reverse mode (rows, cotangents seed · e_i) or
    forward mode (columns, tangents seed · e_j), divided by the seed; under vmap, or point by
    point with torch.autograd where f does not run under vmap."""
    n = X.shape[-1]
    m = flat(X[0]).numel()
    if forward:
        eye = seed * torch.eye(n, dtype=X.dtype, device=X.device)
        def one(x):
            return vmap(lambda t: jvp(flat, (x,), (t,))[1], out_dims=1)(eye)
    else:
        eye = seed * torch.eye(m, dtype=X.dtype, device=X.device)
        def one(x):
            return vmap(vjp(flat, x)[1])(eye)[0]
    try:
        return vmap(one)(X) / seed
    except Exception:  # noqa: BLE001  not vmappable (.item(), data-dependent control flow)
        pass
    if forward:
        raise RuntimeError("f does not run under vmap: no point-by-point forward-mode Jacobian")
    out = []
    for x in X:
        x = x.detach().clone().requires_grad_(True)
        with torch.enable_grad():
            y = flat(x)
        out.append(torch.stack([torch.autograd.grad(y, x, seed * e, retain_graph=True)[0]
                                for e in torch.eye(m, dtype=y.dtype, device=y.device)]))
    return torch.stack(out) / seed


def measured_rounding(f, x: torch.Tensor, event_dims: int, output, D: torch.Tensor,
                      mode: str = "reverse", which: torch.Tensor | None = None) -> Rounding:
    """The rounding of D = Df at the points of x (D taken in `mode`: "reverse", "forward" or
    "per-point", i.e. reverse mode point by point), measured against the same Jacobian in
    float64 for a float32 x when f computes in float64, else reseeded (SEEDS) in x's dtype.
    `which` (bool per point): measure there only (elsewhere the error is 0, unused)."""
    event = x.shape[x.ndim - event_dims:]
    X_all = x.detach().reshape(-1, math.prod(event))
    D_all = D.detach().to(torch.float64).reshape(X_all.shape[0], -1, X_all.shape[-1])
    which = (torch.ones(X_all.shape[0], dtype=torch.bool) if which is None else
             which.reshape(-1)).to(X_all.device)
    X, D64 = X_all[which], D_all[which]
    flat = point_map(f, event, output, name_of(f))
    forward = mode == "forward"

    def rounding(refs, margin: float, how: str, exact: bool = False) -> Rounding | None:
        refs = [r.detach().to(torch.float64) for r in refs]
        if any(r.shape != D64.shape or not torch.isfinite(r).all() for r in refs):
            return None
        error = torch.zeros_like(D_all)
        error[which] = torch.stack([(D64 - r).abs() for r in refs]).amax(0)
        return Rounding(error, margin, how, exact)

    why = ""
    if x.dtype != torch.float64:
        try:
            X64 = X.to(torch.float64)
            if not computes_in_float64(flat(X64[0]), x.dtype):
                why = "f does not compute in float64; "
            else:
                done = rounding([_seeded(flat, X64, 1.0, forward)], REFERENCE_MARGIN,
                                "against the same map's Jacobian in float64", exact=True)
                if done is not None:
                    return done
                why = "its float64 Jacobian is not finite; "
        except Exception as err:  # noqa: BLE001  float32 parameters, a dtype check inside f
            why = f"f does not run in float64 ({clip(err, 80)}); "
    seeds = ", ".join(f"{s:g}" for s in SEEDS)
    try:
        done = rounding([_seeded(flat, X, s, forward) for s in SEEDS], RESEEDED_MARGIN,
                        f"{why}against the same Jacobian seeded with {seeds}·e_i")
    except Exception as err:  # noqa: BLE001  a map whose Jacobian ran once but not reseeded
        return Rounding(None, 0.0, f"not measured: {why}{clip(err, 80)}")
    return done or Rounding(None, 0.0, f"not measured: {why}the reseeded Jacobian is not finite")


def symplectic_effect(D: torch.Tensor, E: torch.Tensor, J_out: torch.Tensor) -> torch.Tensor:
    """max |(D+Δ)ᵀJ(D+Δ) − DᵀJD| over |Δ| ≤ E entrywise, bounded per entry (i, j):
    (Eᵀ|J|(|D| + E) + |D|ᵀ|J|E)_ij, exact to second order (points × n × n)."""
    A, Jabs = D.detach().to(torch.float64).abs(), J_out.abs()
    return E.mT @ Jabs @ (A + E) + A.mT @ Jabs @ E


def volume_effect(D: torch.Tensor, E: torch.Tensor) -> torch.Tensor:
    """The change of log|det D| that |Δ| ≤ E entrywise can make, per point: with X = D⁻¹Δ,
    log det(I + X) = Σ log(1 + λ_i), so it is at most |tr X| + n ρ² / (2(1 − ρ)) for
    ρ(X) ≤ s = ‖|D⁻¹| E‖_∞ < 1, and |tr X| ≤ Σ_ij |(D⁻¹)_ji| E_ij; inf where s ≥ 1 (Δ may reach a
    singular matrix: the determinant, even its sign, is not determined). Entrywise, so a diagonal
    diag(1e4, 1e-4) with a relative rounding in each entry keeps a small effect. 0 where E = 0."""
    D = D.detach().to(torch.float64)
    n = D.shape[-1]
    inverse, info = torch.linalg.inv_ex(D)
    first = (inverse.mT.abs() * E).sum((-2, -1))
    s = (inverse.abs() @ E).sum(-1).amax(-1)
    effect = first + n * s ** 2 / (2 * (1 - s).clamp_min(torch.finfo(torch.float64).tiny))
    measured = E.flatten(-2).amax(-1) > 0
    undetermined = measured & ((info != 0) | (s >= 1) | ~torch.isfinite(effect))
    effect = torch.where(measured, effect, torch.zeros_like(effect))   # no rounding measured: none
    return torch.where(undetermined, torch.full_like(effect, math.inf), effect)


def composition_model(rtol: float, n_steps: int, D: torch.Tensor) -> torch.Tensor:
    """The rounding of a composition of n_steps steps beyond the first one, per column of D and
    per point: (n_steps − 1) · rtol · ‖D‖₂ (each step rounds by rtol relative to the product's
    size, which mixes the columns; accumulated linearly, the worst case)."""
    return (n_steps - 1) * rtol * torch.linalg.matrix_norm(D.detach().to(torch.float64), ord=2)


def zone_factor(default_rtol: bool, n_steps, rounding: Rounding | None) -> float:
    """The fixed factor on the one-step bound: ROUNDING_ZONE for an unknown composition at the
    default rtol (unless measured against float64), 1 where n_steps or the user's rtol says."""
    if not default_rtol or n_steps is not None or (rounding is not None and rounding.exact):
        return 1.0
    return ROUNDING_ZONE


def zone_sentence(default_rtol: bool, n_steps, rounding: Rounding | None) -> str:
    """How the zone at the worst point was made, for the report's notes."""
    parts = []
    factor = zone_factor(default_rtol, n_steps, rounding)
    if factor != 1.0:
        parts.append(f"{factor:g}x the one-step bound (rounding accumulated over a composition of "
                     "unknown length, as measured on leapfrog flows)")
    else:
        parts.append("the bound itself" + ("" if default_rtol else " (rtol as given)"))
    if n_steps is not None:
        parts.append(f"the composition model over n_steps = {n_steps} (each further step rounding "
                     "by rtol relative to ‖Df‖₂, accumulated linearly)")
    if rounding is not None and rounding.error is not None:
        parts.append(f"{rounding.margin:g}x the effect of the measured rounding of Df ({rounding.how})")
    elif rounding is not None:
        parts.append(f"rounding {rounding.how}")
    return parts[0] if len(parts) == 1 else "the largest of " + "; ".join(parts)

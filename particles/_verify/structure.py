"""particles.verify, structure of a map: the symplectic, conformally symplectic and
volume-preserving assertions (seed 001 §1), each deciding holds / violated / undecidable.
"""
from __future__ import annotations

import math

import torch

from particles._verify.jacobians import checked_jacobian, factor_of, residual_of, signed_log_volume
from particles._verify.outcome import (RESOLUTION, RTOL_ULPS, Map, SymplecticReport, VolumeReport,
                                       check_map, check_x, conclude, eps_of, name_of,
                                       output_selector, point_label, scalar, tolerance_or_none)
from particles._verify.rounding import (composition_model, measured_rounding, symplectic_effect,
                                        volume_effect, zone_factor, zone_sentence)
from theory.checks import positive, positive_int


# ------------------------------------------------------------------ symplectic and volume


def _structure_args(f, x, event_dims, rtol, atol, resolution, output, n_steps):
    check_map(f)
    event_dims = positive_int(event_dims, "event_dims")
    x = check_x(x, floating=True, min_ndim=event_dims, structure=True, event_dims=event_dims)
    return (x, event_dims, tolerance_or_none(rtol, "rtol"), tolerance_or_none(atol, "atol"),
            positive(scalar(resolution, "resolution"), "resolution"), output_selector(output),
            None if n_steps is None else positive_int(n_steps, "n_steps"))


# Advice never loosens the check: a larger rtol= or resolution= can pass a map whose defect is
# real (RK4 at h = 0.01 in float64, 2x its bound, passed with the rtol=1e-12 that the note of a
# rounding zone suggested until issue 37); a higher precision, a stated n_steps (which only moves
# the line between Undecidable and a violation) or a smaller Jacobian decide without that risk.
_LOOSER = ("a larger rtol= or resolution= would not decide it: it can pass a map whose defect "
           "is real")


def _undecidable_fix(dtype: torch.dtype, default_rtol: bool) -> str:
    better = ("run f and x in float64 (module.double(), x.double())" if dtype != torch.float64 else
              "check points where the Jacobian is smaller (the tolerance grows with it)")
    if not default_rtol:
        better = "a smaller rtol (the default, 16 eps, is the Jacobian's own rounding), or " + better
    return (f"the tolerance at {dtype} cannot resolve a defect of that size: a violation this small "
            f"cannot be told from rounding. Fix: {better}; {_LOOSER}")


def rounding_note(dtype: torch.dtype, ratio: float, zone: float, how: str, fixed: bool) -> str:
    fixes = (["run f and x in float64 (module.double(), x.double())"] if dtype != torch.float64 else [])
    if fixed:
        fixes.append("pass n_steps= the number of steps f composes (n_steps=1 for one step: the "
                     "one-step bound decides)")
    fixes.append("check a shorter composition, or points where Df is smaller (rounding grows with "
                 "‖Df‖ and the number of steps)")
    return (f"the defect exceeds the first-order rounding bound ({ratio:.3g}x) but not the rounding "
            f"zone there ({zone:.3e}: {how}): rounding can make it, so it is neither a pass nor a "
            f"violation. To decide: {'; or '.join(fixes)}; {_LOOSER}")


def _to_measure(dtype: torch.dtype, over: torch.Tensor, beyond_model: torch.Tensor) -> torch.Tensor:
    """The points whose Jacobian's rounding is measured: in float64 those beyond the modeled zone
    (a reseeded measurement only widens it), below float64 every point above its bound (a float64
    reference replaces the fixed factor, so it may narrow the zone too)."""
    return beyond_model if dtype == torch.float64 else over


def _beyond_note(defect: float, zone: float, how: str) -> str:
    return (f"at that entry the defect is {defect / zone:.3g}x the largest that rounding can make "
            f"there ({zone:.3e}: {how})")


def _symplectic_check(f, x, factor, J, J_out, rtol, atol, resolution, event_dims, output,
                      check: str, n_steps=None) -> SymplecticReport:
    x, event_dims, rtol, atol, resolution, output, n_steps = _structure_args(
        f, x, event_dims, rtol, atol, resolution, output, n_steps)
    D, notes, mode = checked_jacobian(f, x, event_dims, output)
    batch = D.shape[:-2]
    if factor is None:  # symplectic: c = 1 exactly
        c, c_eps, given = torch.ones(batch, dtype=torch.float64, device=D.device), 0.0, ""
    else:
        c, c_eps, given = factor_of(factor, batch, D.device)
        if c.numel() > 1 and not torch.all(c == c.reshape(-1)[0]):
            notes += ("the factor varies over the points: this tests Dfᵀ J Df = c(x)·J point by point. "
                      "One map is conformally symplectic only with one constant c (forced for d ≥ 2; "
                      "in 2-D every map satisfies the pointwise identity with c = det Df, so a "
                      "state-dependent friction passes); a per-point factor means a batch of different "
                      "maps (a step size per row)",)
    R, J_in, J_out = residual_of(D, J, J_out, c)
    default_rtol = rtol is None
    rtol = RTOL_ULPS * eps_of(x.dtype, D.dtype) if rtol is None else rtol
    atol = 0.0 if atol is None else atol
    # entry (i, j) of DᵀJD is d_iᵀ J d_j (d_i the i-th column of D): a Jacobian error of relative
    # size rtol per column moves it by at most 2 rtol ‖d_i‖ ‖J_out‖₂ ‖d_j‖, the scale per entry
    # (until 26 Nov 2026 one scale per point, ‖D‖_F²‖J_out‖₂, ≥ it: a stiff 2-D map with columns
    # of norms 1e5 and 1e-5 had a tolerance 1e10 times its rounding and passed with |det D| =
    # 1 − 1e-6); a factor given at lower precision adds its own rounding eps(factor) · |c| · max|J|
    J_max = J_in.abs().max()
    J2 = torch.linalg.matrix_norm(J_out, ord=2)
    cols = torch.linalg.vector_norm(D.detach().to(torch.float64), dim=-2)       # (..., n)
    scale = 2 * cols.unsqueeze(-1) * cols.unsqueeze(-2) * J2
    c = c.reshape(-1)
    def per_point(t: torch.Tensor) -> torch.Tensor:   # (points, n·n): one row of entries per point
        return t.reshape(c.numel(), -1)
    extra = atol + c_eps * c.abs() * J_max                               # (points,)
    base = per_point(rtol * scale)
    tol_ij = base + extra[:, None]
    absR = per_point(R.abs())
    over = absR > tol_ij
    zone_ij, rounding = tol_ij, None
    if over.any():
        # the rounding zone (particles._verify.rounding): the largest defect rounding can make at
        # each entry, the one-step bound times the fixed factor, the n_steps model or the measured
        # rounding of Df, whichever is largest; beyond it a defect is a violation, inside it (and
        # above the bound) Undecidable whatever the resolution (issue 37)
        def zone_with(rounding):
            model = base * zone_factor(default_rtol, n_steps, rounding)
            if n_steps is not None:
                e = composition_model(rtol, n_steps, D)[..., None, None]   # per column, per point
                model = torch.maximum(model, per_point(
                    J2 * e * (cols.unsqueeze(-1) + cols.unsqueeze(-2) + e) + rtol * scale))
            if rounding is not None and rounding.error is not None:
                effect = symplectic_effect(D, rounding.error.reshape(D.shape), J_out)
                model = torch.maximum(model, rounding.margin * per_point(effect))
            return extra[:, None] + model
        zone_ij = zone_with(None)
        need = _to_measure(x.dtype, over.any(-1), (absR > zone_ij).any(-1))
        if need.any():
            rounding = measured_rounding(f, x, event_dims, output, D, mode, need)
            zone_ij = zone_with(rounding)
    beyond = absR > zone_ij
    violated = beyond.any()
    rounding_pts = over.any(-1) & ~beyond.any(-1)
    tiny = torch.finfo(torch.float64).tiny
    # the entry furthest past (or nearest) its bound, relative to it: on a pass the entry with
    # the largest |R_ij| / tol_ij (until 26 Nov 2026 the largest |R_ij| − tol_ij, which on a pass
    # picked the entry of smallest tolerance, often an exact 0, second audit); on a violation
    # the entry furthest beyond its rounding zone
    ratio = absR / (zone_ij if violated else tol_ij).clamp_min(tiny)
    at = torch.where(ratio.amax(-1, keepdim=True) > 0, ratio.argmax(-1, keepdim=True),
                     tol_ij.argmin(-1, keepdim=True))   # an exact residual: its most stringent entry
    defect, tol, norm, zone = (t.gather(-1, at).squeeze(-1)
                               for t in (absR, tol_ij, per_point(scale), zone_ij))
    largest, at_largest = absR.max(-1, keepdim=True)
    ref = torch.where(c != 0, c.abs(), torch.ones_like(c)) * J_max  # the size of c·J
    rel = tol_ij.amax(-1) / ref
    worst = int(torch.argmax(defect / (zone if violated else tol).clamp_min(tiny)))
    i, j = divmod(int(at[worst]), R.shape[-1])
    outcome = ("violated" if violated else
               "undecidable" if rounding_pts.any() or (rel > resolution).any() else "holds")
    how = zone_sentence(default_rtol, n_steps, rounding)
    if violated:
        notes += (_beyond_note(defect[worst].item(), zone[worst].item(), how),)
    elif rounding_pts.any():
        k = int(torch.argmax(torch.where(rounding_pts, defect / tol.clamp_min(tiny), 0)))
        notes += (rounding_note(x.dtype, (defect[k] / tol[k]).item(), zone[k].item(), how,
                                zone_factor(default_rtol, n_steps, rounding) != 1.0),)
    if largest.max() > defect[worst]:
        k = int(torch.argmax(largest))
        notes += (f"largest |entry| of the residual: {largest[k].item():.3e} at point "
                  f"{point_label(k, batch)}, against its own tolerance "
                  f"{tol_ij[k, at_largest[k]].item():.3e}",)
    form = "[[0, I], [-I, 0]]" if J is None else "the J given"
    factor_rule = "" if factor is None else (
        f" + factor rounding {c_eps!r} × |c| max|J| (c = {c[worst].item()!r}, {given})")
    if outcome == "undecidable" and (rel > resolution).any():
        notes += (_undecidable_fix(x.dtype, default_rtol),)
    report = SymplecticReport(
        check=check, f=name_of(f), outcome=outcome, max_defect=defect[worst].item(),
        tolerance=tol[worst].item(), resolution=rel.max().item(), points=defect.numel(),
        violating=int(beyond.any(-1).sum()), dtype=x.dtype,
        measure="max|Dfᵀ J Df - J|" if factor is None else "max|Dfᵀ J Df - c·J|",
        where=f"at point {point_label(worst, batch)}, entry ({i}, {j})",
        rule=f"atol {atol!r} + rtol {rtol!r} × 2‖d_i‖‖d_j‖‖J‖₂ per entry (d_i: column i of Df; "
             f"{norm[worst].item():.3g} at that entry){factor_rule}; J = {form}",
        scale=f"relative to max|c·J| (a pass needs at most resolution={resolution!r} at every point)",
        notes=notes, residual=R, jacobian=D)
    return conclude(report)


def assert_symplectic(f: Map, x: torch.Tensor, *, J=None, J_out=None, rtol=None, atol=None,
                      resolution=RESOLUTION, event_dims: int = 1, output=None,
                      n_steps: int | None = None) -> SymplecticReport:
    """Assert D f(x)ᵀ J D f(x) = J at every point of `x` (seed 001 §1: symplectic maps).

    x: one state (shape (2d,)) or a batch (B, 2d) (`event_dims` trailing axes per state).
    J defaults to [[0, I_d], [−I_d, 0]] for a state (q, p) (first half q); any antisymmetric
    invertible (n, n) matrix is accepted (J_out for the output space when its dimension differs).
    `output` selects the state from a tuple / dict output (an index, a key or a callable).
    f gets a fresh copy of its input at every call: it may update its argument in place, and x
    is never changed. The Jacobian is taken in the dtype of x (float32 or float64; half
    precision: TypeError); a pass needs |(DᵀJD − J)_ij| ≤ atol + rtol · 2‖d_i‖‖d_j‖‖J_out‖₂ for
    every entry (d_i the i-th column of D: the first-order effect of a relative error rtol in
    each column), with rtol = 16 · eps(dtype) (`RTOL_ULPS`) and atol = 0 by default; rtol/atol
    may be 0-d tensors.

    A defect above that bound is a violation only beyond the rounding zone of its entry, the
    largest defect rounding can make there (`particles._verify.rounding`): the largest of the
    bound times `ROUNDING_ZONE` (4: a composition of unknown length, at the default rtol), the
    composition model when `n_steps` (the number of steps f composes) is given, and the measured
    rounding of D (against D in float64 for a float32 x, else forward mode against reverse mode).
    Inside the zone, whatever the resolution: `Undecidable`.

    Returns a `SymplecticReport` (the defect and tolerance at the worst point, the resolution
    reached: tolerance / max|J|, the points checked; `.residual` = DᵀJD − J in float64).
    Raises `StructureViolation` (AssertionError) when an entry exceeds its rounding zone, with the
    defect, the tolerance, the point and the entry (i, j); `Undecidable` when a defect lies in
    its rounding zone, or some tolerance exceeds `resolution` (1e-3) relative to J: a large
    Jacobian in float32 cannot tell a 1% defect from rounding. f is evaluated twice first:
    `NondeterministicError` / `NonFiniteError` (ValueErrors naming f and the point)."""
    return _symplectic_check(f, x, None, J, J_out, rtol, atol, resolution, event_dims, output,
                             "symplectic", n_steps)


def assert_conformally_symplectic(f: Map, x: torch.Tensor, factor, *, J=None, J_out=None,
                                  rtol=None, atol=None, resolution=RESOLUTION,
                                  event_dims: int = 1, output=None,
                                  n_steps: int | None = None) -> SymplecticReport:
    """Assert D f(x)ᵀ J D f(x) = factor · J at every point (conformally symplectic, e.g. a damped
    symplectic Euler step with factor e^{−γh} or 1 − γh). `factor` is a real number or a tensor
    broadcastable to the batch shape of x, taken at its own precision: a float32 tensor factor
    beside a float64 map adds its rounding eps(float32) · |c| · max|J| to the tolerance, and the
    message prints c in full. Resolution relative to max|c·J|. J, tolerances, rounding zone,
    n_steps, return value and failures as `assert_symplectic`."""
    return _symplectic_check(f, x, factor, J, J_out, rtol, atol, resolution, event_dims, output,
                             "conformally symplectic", n_steps)


def assert_volume_preserving(f: Map, x: torch.Tensor, *, rtol=None, atol=None,
                             resolution=RESOLUTION, event_dims: int = 1, output=None,
                             n_steps: int | None = None) -> VolumeReport:
    """Assert |det D f(x)| = 1 at every point, via slogdet on a float64 copy of the Jacobian
    (computed in the dtype of x; half precision: TypeError). A pass needs per point
    |log|det D|| ≤ atol + rtol · Σ_ij |(D⁻¹)_ji D_ij|, the first-order effect on log|det| of a
    relative error rtol in each entry of D (|tr(D⁻¹δD)| ≤ Σ|D⁻¹_ji||δD_ij|: n for a diagonal D
    however ill-conditioned, at most n κ(D)), rtol = 16 · eps(dtype) and atol = 0 by default.
    As in `assert_symplectic`, a defect above that bound is a violation only beyond its rounding
    zone (4x the bound at the default rtol, the n_steps model, the measured rounding of D:
    Σ|D⁻¹_ji| |ΔD_ij|, unbounded where ΔD may reach a singular matrix); inside it, `Undecidable`.

    Returns a `VolumeReport` (`.sign` of det per point, −1 where the map reverses orientation;
    `.log_volume`). Raises `StructureViolation` when a point exceeds its rounding zone or D is
    singular beyond rounding (the message gives the sign at the worst point); `Undecidable` when
    a defect lies in its rounding zone or some tolerance exceeds `resolution` (in log|det|, i.e.
    relative volume); NondeterministicError / NonFiniteError as `assert_symplectic`."""
    x, event_dims, rtol, atol, resolution, output, n_steps = _structure_args(
        f, x, event_dims, rtol, atol, resolution, output, n_steps)
    D, notes, mode = checked_jacobian(f, x, event_dims, output)
    sign, logabsdet = signed_log_volume(D)
    default_rtol = rtol is None
    rtol = RTOL_ULPS * eps_of(x.dtype, D.dtype) if rtol is None else rtol
    atol = 0.0 if atol is None else atol
    D64 = D.detach().to(torch.float64)
    inverse, info = torch.linalg.inv_ex(D64)
    inverse_size = inverse.abs().sum(dim=(-2, -1)).reshape(-1)
    size = (inverse.transpose(-1, -2).abs() * D64.abs()).sum(dim=(-2, -1))
    singular = (info != 0).reshape(-1) | ~torch.isfinite(logabsdet.reshape(-1))
    size = torch.where(singular, torch.zeros_like(size.reshape(-1)), size.reshape(-1))
    tol = atol + rtol * size
    ld = logabsdet.reshape(-1)
    defect = ld.abs()
    bad = singular | (defect > tol)
    zone, rounding = tol, None
    if bad.any():
        # the rounding zone, as in the symplectic check (10000 leapfrog steps of Hénon–Heiles in
        # float64: 1.6x the bound; 3000 of an oscillator in float32: 1.05x; a chaotic orbit's
        # Jacobian, ‖Df‖ ~ 1e12, is not even determined: its measured zone is unbounded)
        def zone_with(rounding):
            model = rtol * size * zone_factor(default_rtol, n_steps, rounding)
            if n_steps is not None:
                e = composition_model(rtol, n_steps, D).reshape(-1)        # per entry of D, per point
                model = torch.maximum(model, rtol * size + e * inverse_size)
            if rounding is not None and rounding.error is not None:
                effect = volume_effect(D64, rounding.error.reshape(D64.shape)).reshape(-1)
                model = torch.maximum(model, rounding.margin * effect)
            return atol + model
        zone = zone_with(None)
        need = _to_measure(x.dtype, bad, bad & (singular | (defect > zone)))
        if need.any():
            rounding = measured_rounding(f, x, event_dims, output, D, mode, need)
            zone = zone_with(rounding)
    how = zone_sentence(default_rtol, n_steps, rounding)
    # a singular Df is a violation unless its measured rounding may reach a singular matrix
    beyond = torch.where(singular, ~torch.isinf(zone), defect > zone)
    rounding_pts = bad & ~beyond
    violated = beyond.any()
    tiny = torch.finfo(torch.float64).tiny
    worst = int(torch.argmax(torch.where(beyond, defect / zone.clamp_min(tiny), -1.0) if violated else
                             defect / tol.clamp_min(tiny) if bad.any() else defect))
    if singular.any():
        notes += (f"Df is singular at {int(singular.sum())} point(s) (det Df = 0: log|det Df| = -inf)",)
    outcome = ("violated" if violated else
               "undecidable" if rounding_pts.any() or (tol > resolution).any() else "holds")
    if violated and not singular[worst]:
        notes += (_beyond_note(defect[worst].item(), zone[worst].item(), how).replace(
            "at that entry", "at that point"),)
    elif rounding_pts.any() and not violated:
        k = int(torch.argmax(torch.where(rounding_pts, defect / tol.clamp_min(tiny), -1.0)))
        notes += (rounding_note(x.dtype, (defect[k] / tol[k]).item(), zone[k].item(), how,
                                zone_factor(default_rtol, n_steps, rounding) != 1.0),)
    if outcome == "undecidable" and (tol > resolution).any():
        notes += (_undecidable_fix(x.dtype, default_rtol),)
    reached = tol[~singular].max().item() if not singular.all() else math.inf
    report = VolumeReport(
        check="volume preserving", f=name_of(f), outcome=outcome, max_defect=defect[worst].item(),
        tolerance=tol[worst].item(), resolution=reached, points=ld.numel(),
        violating=int(beyond.sum()), dtype=x.dtype, measure="|log|det Df||",
        where=f"at point {point_label(worst, D.shape[:-2])} (sign of det "
              f"{int(sign.reshape(-1)[worst].item()):+d})",
        rule=f"atol {atol!r} + rtol {rtol!r} × Σ_ij |(Df⁻¹)_ji (Df)_ij| ({size[worst].item():.3g} "
             f"at that point; n = {D.shape[-1]} for a diagonal Df)",
        scale=f"in log|det Df| (relative volume; a pass needs at most resolution={resolution!r})",
        notes=notes, sign=sign, log_volume=logabsdet)
    return conclude(report)

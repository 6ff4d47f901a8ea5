"""particles.verify, structure of a map: the symplectic, conformally symplectic and
volume-preserving assertions (seed 001 §1), each deciding holds / violated / undecidable.
"""
from __future__ import annotations

import math

import torch

from particles._verify.jacobians import checked_jacobian, factor_of, residual_of, signed_log_volume
from particles._verify.outcome import (RESOLUTION, ROUNDING_ZONE, RTOL_ULPS, Map, SymplecticReport, VolumeReport,
                                       check_map, check_x, conclude, eps_of, name_of,
                                       output_selector, point_label, scalar, tolerance_or_none)
from theory.checks import positive, positive_int


# ------------------------------------------------------------------ symplectic and volume


def _structure_args(f, x, event_dims, rtol, atol, resolution, output):
    check_map(f)
    event_dims = positive_int(event_dims, "event_dims")
    x = check_x(x, floating=True, min_ndim=event_dims, structure=True, event_dims=event_dims)
    return (x, event_dims, tolerance_or_none(rtol, "rtol"), tolerance_or_none(atol, "atol"),
            positive(scalar(resolution, "resolution"), "resolution"), output_selector(output))


def _undecidable_fix(dtype: torch.dtype) -> str:
    better = ("run f and x in float64 (module.double(), x.double())" if dtype != torch.float64 else
              "check points where the Jacobian is smaller (the tolerance grows with it)")
    return (f"the tolerance at {dtype} cannot resolve a defect of that size: a violation this small "
            f"cannot be told from rounding. Fix: {better}, or pass resolution=... to accept a "
            "coarser pass")


def rounding_note(dtype: torch.dtype) -> str:
    example = "1e-12" if dtype == torch.float64 else "1e-5"
    return (f"the defect exceeds the first-order rounding bound but by at most {ROUNDING_ZONE:g}x, as far "
            "as rounding accumulated over a long composition (a flow map of many steps, a deep network) "
            f"was measured to reach: pass rtol= (e.g. rtol={example} for {str(dtype).removeprefix('torch.')}) "
            "to decide at a stated resolution")


def _symplectic_check(f, x, factor, J, J_out, rtol, atol, resolution, event_dims, output,
                      check: str) -> SymplecticReport:
    x, event_dims, rtol, atol, resolution, output = _structure_args(f, x, event_dims, rtol, atol,
                                                                    resolution, output)
    D, notes = checked_jacobian(f, x, event_dims, output)
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
    zone = ROUNDING_ZONE if rtol is None else 1.0   # a user's rtol is a stated resolution
    rtol = RTOL_ULPS * eps_of(x.dtype, D.dtype) if rtol is None else rtol
    atol = 0.0 if atol is None else atol
    # entry (i, j) of DᵀJD is d_iᵀ J d_j (d_i the i-th column of D): a Jacobian error of relative
    # size rtol per column moves it by at most 2 rtol ‖d_i‖ ‖J_out‖₂ ‖d_j‖, the scale per entry
    # (until 26 Nov 2026 one scale per point, ‖D‖_F²‖J_out‖₂, ≥ it: a stiff 2-D map with columns
    # of norms 1e5 and 1e-5 had a tolerance 1e10 times its rounding and passed with |det D| =
    # 1 − 1e-6); a factor given at lower precision adds its own rounding eps(factor) · |c| · max|J|
    J_max = J_in.abs().max()
    cols = torch.linalg.vector_norm(D.detach().to(torch.float64), dim=-2)       # (..., n)
    scale = 2 * cols.unsqueeze(-1) * cols.unsqueeze(-2) * torch.linalg.matrix_norm(J_out, ord=2)
    c = c.reshape(-1)
    def per_point(t: torch.Tensor) -> torch.Tensor:   # (points, n·n): one row of entries per point
        return t.reshape(c.numel(), -1)
    tol_ij = per_point(atol + rtol * scale) + per_point(c_eps * c.abs() * J_max)
    # the entry furthest past (or nearest) its bound, relative to it: on a pass the entry with
    # the largest |R_ij| / tol_ij (until 26 Nov 2026 the largest |R_ij| − tol_ij, which on a pass
    # picked the entry of smallest tolerance, often an exact 0, second audit)
    ratio = per_point(R.abs()) / tol_ij.clamp_min(torch.finfo(torch.float64).tiny)
    at = torch.where(ratio.amax(-1, keepdim=True) > 0, ratio.argmax(-1, keepdim=True),
                     tol_ij.argmin(-1, keepdim=True))   # an exact residual: its most stringent entry
    defect, tol, norm = (per_point(t).gather(-1, at).squeeze(-1) for t in (R.abs(), tol_ij, scale))
    largest, at_largest = per_point(R.abs()).max(-1, keepdim=True)
    ref = torch.where(c != 0, c.abs(), torch.ones_like(c)) * J_max  # the size of c·J
    rel = tol_ij.amax(-1) / ref
    bad = defect > tol
    rounding = bad & (defect <= zone * tol) & (defect / ref <= resolution)
    violated = (bad & ~rounding).any()
    worst = int(torch.argmax(defect / tol))
    i, j = divmod(int(at[worst]), R.shape[-1])
    outcome = ("violated" if violated else
               "undecidable" if rounding.any() or (rel > resolution).any() else "holds")
    if rounding.any() and not violated:
        notes += (rounding_note(x.dtype),)
    if largest.max() > defect[worst]:
        k = int(torch.argmax(largest))
        notes += (f"largest |entry| of the residual: {largest[k].item():.3e} at point "
                  f"{point_label(k, batch)}, against its own tolerance "
                  f"{tol_ij[k, at_largest[k]].item():.3e}",)
    form = "[[0, I], [-I, 0]]" if J is None else "the J given"
    factor_rule = "" if factor is None else (
        f" + factor rounding {c_eps!r} × |c| max|J| (c = {c[worst].item()!r}, {given})")
    if outcome == "undecidable":
        notes += (_undecidable_fix(x.dtype),)
    report = SymplecticReport(
        check=check, f=name_of(f), outcome=outcome, max_defect=defect[worst].item(),
        tolerance=tol[worst].item(), resolution=rel.max().item(), points=defect.numel(),
        violating=int(bad.sum()), dtype=x.dtype,
        measure="max|Dfᵀ J Df - J|" if factor is None else "max|Dfᵀ J Df - c·J|",
        where=f"at point {point_label(worst, batch)}, entry ({i}, {j})",
        rule=f"atol {atol!r} + rtol {rtol!r} × 2‖d_i‖‖d_j‖‖J‖₂ per entry (d_i: column i of Df; "
             f"{norm[worst].item():.3g} at that entry){factor_rule}; J = {form}",
        scale=f"relative to max|c·J| (a pass needs at most resolution={resolution!r} at every point)",
        notes=notes, residual=R, jacobian=D)
    return conclude(report)


def assert_symplectic(f: Map, x: torch.Tensor, *, J=None, J_out=None, rtol=None, atol=None,
                      resolution=RESOLUTION, event_dims: int = 1, output=None) -> SymplecticReport:
    """Assert D f(x)ᵀ J D f(x) = J at every point of `x` (seed 001 §1: symplectic maps).

    x: one state (shape (2d,)) or a batch (B, 2d) (`event_dims` trailing axes per state).
    J defaults to [[0, I_d], [−I_d, 0]] for a state (q, p) (first half q); any antisymmetric
    invertible (n, n) matrix is accepted (J_out for the output space when its dimension differs).
    `output` selects the state from a tuple / dict output (an index, a key or a callable).
    The Jacobian is taken in the dtype of x (float32 or float64; half precision: TypeError); the
    test is |(DᵀJD − J)_ij| ≤ atol + rtol · 2‖d_i‖‖d_j‖‖J_out‖₂ for every entry (d_i the i-th
    column of D: the first-order effect of a relative error rtol in each column), with
    rtol = 16 · eps(dtype) (`RTOL_ULPS`) and atol = 0 by default; rtol/atol may be 0-d tensors.
    At the default rtol, a defect above that bound but within `ROUNDING_ZONE` (4) times it, and
    below `resolution` relative to J, is `Undecidable` (rounding accumulated over a long
    composition reaches it), not a violation; a given rtol decides without that zone.

    Returns a `SymplecticReport` (the defect and tolerance at the worst point, the resolution
    reached: tolerance / max|J|, the points checked; `.residual` = DᵀJD − J in float64).
    Raises `StructureViolation` (AssertionError) when a point exceeds its tolerance, with the
    defect, the tolerance, the point and the entry (i, j); `Undecidable` when every point is
    within tolerance but some tolerance exceeds `resolution` (1e-3) relative to J: a large
    Jacobian in float32 cannot tell a 1% defect from rounding. f is evaluated twice first:
    `NondeterministicError` / `NonFiniteError` (ValueErrors naming f and the point)."""
    return _symplectic_check(f, x, None, J, J_out, rtol, atol, resolution, event_dims, output,
                             "symplectic")


def assert_conformally_symplectic(f: Map, x: torch.Tensor, factor, *, J=None, J_out=None,
                                  rtol=None, atol=None, resolution=RESOLUTION,
                                  event_dims: int = 1, output=None) -> SymplecticReport:
    """Assert D f(x)ᵀ J D f(x) = factor · J at every point (conformally symplectic, e.g. a damped
    symplectic Euler step with factor e^{−γh} or 1 − γh). `factor` is a real number or a tensor
    broadcastable to the batch shape of x, taken at its own precision: a float32 tensor factor
    beside a float64 map adds its rounding eps(float32) · |c| · max|J| to the tolerance, and the
    message prints c in full. Resolution relative to max|c·J|. J, tolerances, return value and
    failures as `assert_symplectic`."""
    return _symplectic_check(f, x, factor, J, J_out, rtol, atol, resolution, event_dims, output,
                             "conformally symplectic")


def assert_volume_preserving(f: Map, x: torch.Tensor, *, rtol=None, atol=None,
                             resolution=RESOLUTION, event_dims: int = 1, output=None
                             ) -> VolumeReport:
    """Assert |det D f(x)| = 1 at every point, via slogdet on a float64 copy of the Jacobian
    (computed in the dtype of x; half precision: TypeError). Test per point:
    |log|det D|| ≤ atol + rtol · Σ_ij |(D⁻¹)_ji D_ij|, the first-order effect on log|det| of a
    relative error rtol in each entry of D (|tr(D⁻¹δD)| ≤ Σ|D⁻¹_ji||δD_ij|: n for a diagonal D
    however ill-conditioned, at most n κ(D)), rtol = 16 · eps(dtype) and atol = 0 by default.
    At the default rtol, a defect above that bound but within `ROUNDING_ZONE` (4) times it, and
    below `resolution`, is `Undecidable` (rounding accumulated over a long composition), as in
    `assert_symplectic`; a given rtol decides without that zone.

    Returns a `VolumeReport` (`.sign` of det per point, −1 where the map reverses orientation;
    `.log_volume`). Raises `StructureViolation` when a point exceeds its tolerance or D is
    singular (the message gives the sign at the worst point); `Undecidable` when every point is
    within tolerance but some tolerance exceeds `resolution` (in log|det|, i.e. relative volume);
    NondeterministicError / NonFiniteError as `assert_symplectic`."""
    x, event_dims, rtol, atol, resolution, output = _structure_args(f, x, event_dims, rtol, atol,
                                                                    resolution, output)
    D, notes = checked_jacobian(f, x, event_dims, output)
    sign, logabsdet = signed_log_volume(D)
    zone = ROUNDING_ZONE if rtol is None else 1.0   # a user's rtol is a stated resolution
    rtol = RTOL_ULPS * eps_of(x.dtype, D.dtype) if rtol is None else rtol
    atol = 0.0 if atol is None else atol
    D64 = D.detach().to(torch.float64)
    inverse, info = torch.linalg.inv_ex(D64)
    size = (inverse.transpose(-1, -2).abs() * D64.abs()).sum(dim=(-2, -1))
    singular = (info != 0).reshape(-1) | ~torch.isfinite(logabsdet.reshape(-1))
    size = torch.where(singular, torch.zeros_like(size.reshape(-1)), size.reshape(-1))
    tol = atol + rtol * size
    ld = logabsdet.reshape(-1)
    defect = ld.abs()
    bad = singular | (defect > tol)
    # as in the symplectic check: within ROUNDING_ZONE times the bound (default rtol) and below
    # the resolution, a defect is rounding a long composition can reach (10000 leapfrog steps of
    # Hénon–Heiles in float64: 1.6x the bound; 3000 of an oscillator in float32: 1.05x)
    rounding = bad & ~singular & (defect <= zone * tol) & (defect <= resolution)
    violated = (bad & ~rounding).any()
    worst = int(torch.argmax(defect - tol if bad.any() else defect))
    if singular.any():
        notes += (f"Df is singular at {int(singular.sum())} point(s) (det Df = 0: log|det Df| = -inf)",)
    outcome = ("violated" if violated else
               "undecidable" if rounding.any() or (tol > resolution).any() else "holds")
    if rounding.any() and not violated:
        notes += (rounding_note(x.dtype),)
    if outcome == "undecidable":
        notes += (_undecidable_fix(x.dtype),)
    reached = tol[~singular].max().item() if not singular.all() else math.inf
    report = VolumeReport(
        check="volume preserving", f=name_of(f), outcome=outcome, max_defect=defect[worst].item(),
        tolerance=tol[worst].item(), resolution=reached, points=ld.numel(),
        violating=int(bad.sum()), dtype=x.dtype, measure="|log|det Df||",
        where=f"at point {point_label(worst, D.shape[:-2])} (sign of det "
              f"{int(sign.reshape(-1)[worst].item()):+d})",
        rule=f"atol {atol!r} + rtol {rtol!r} × Σ_ij |(Df⁻¹)_ji (Df)_ij| ({size[worst].item():.3g} "
             f"at that point; n = {D.shape[-1]} for a diagonal Df)",
        scale=f"in log|det Df| (relative volume; a pass needs at most resolution={resolution!r})",
        notes=notes, sign=sign, log_volume=logabsdet)
    return conclude(report)

"""particles.verify, outcomes and inputs: the `Report` every check returns (and prints as its
failure message, in the style of `torch.testing`), the exceptions (`StructureViolation`,
`Undecidable`, `NondeterministicError`, `NonFiniteError`), the default tolerances, and the
validation shared by every check (argument types, names of maps and points, output selectors).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import torch

from theory.checks import real


# Default relative tolerance in units of eps(dtype), against the scale ‖D‖_F² ‖J‖₂ (symplectic)
# or Σ_ij |(D⁻¹)_ji D_ij| (volume). Measured on leapfrog maps of a coupled pendulum chain and of
# Hénon–Heiles (float32 and float64): max |DᵀJD − J| / (eps ‖D‖_F²) is 0.1-0.6 after 1-10 steps,
# 2 after 100 and 4-7 after 300 (κ₂(D) = 2e4); |log|det D|| / (eps Σ|D⁻¹ᵀ∘D|) stays below 6.
# 16 is still 1e-3 of the O(h²) defect of an explicit Euler step with h = 0.1 in float32.
# Longer compositions accumulate more: a defect within ROUNDING_ZONE times the bound is Undecidable
# at the default rtol (without n_steps), not a violation. Measured accumulation: 2000 leapfrog steps
# of an oscillator 2.1x (33 eps), 10000 of Henon-Heiles 1.6x, 300-3000 of a pendulum at most 1.44x
# (second audit). Until 26 Nov 2026 the zone was 100x, which withheld the verdict on a single Euler
# or friction step 26-80x above its bound. A chaotic flow accumulates far more (1500 steps of
# Hénon–Heiles at E = 0.16: up to 52x): the zone also holds the measured rounding of the Jacobian
# and the n_steps model (particles._verify.rounding, issue 37), whatever rtol or the resolution.
RTOL_ULPS = 16.0
ROUNDING_ZONE = 4.0
# A pass certifies the structure to this relative resolution at least (a Jacobian check whose
# tolerance is coarser is Undecidable unless the defect exceeds the tolerance).
RESOLUTION = 1e-3
HALF = (torch.float16, torch.bfloat16)

Map = Callable[[torch.Tensor], torch.Tensor]


# ------------------------------------------------------------------ outcomes


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class Report:
    """What a check measured and how it decided, for a pass and (as the message) for a failure.

    check: the property ("symplectic", "causal", "of order 4", ...); f: the name of the map;
    outcome: "holds", "violated" or "undecidable"; max_defect and tolerance: the defect at the
    worst point (the one exceeding its tolerance most when the check fails, the largest defect
    when it passes) and the tolerance there; where: that point; measure: what the defect is;
    rule: how the tolerance is made; resolution: the relative size of the smallest defect the
    check could resolve (0: exact), relative to `scale`; points: how many points (pairs,
    trajectories, step sizes) were checked, violating: how many failed (None where the verdict
    is one number); notes: fallbacks taken and data behind the verdict."""

    check: str
    f: str
    outcome: str
    max_defect: float
    tolerance: float
    resolution: float
    points: int
    violating: int | None
    dtype: torch.dtype
    measure: str
    where: str
    rule: str
    scale: str
    unit: str = "points"
    notes: tuple[str, ...] = ()

    def __str__(self) -> str:
        counted = self.violating is not None
        head = {"holds": f"{self.f} is {self.check}" + (
                    f": {self.points - self.violating} of {self.points} {self.unit} within tolerance"
                    if counted else "") + f" ({self.dtype})",
                "violated": f"{self.f} is not {self.check}!",
                "undecidable": f"Cannot decide whether {self.f} is {self.check} at {self.dtype} "
                               "precision!"}[self.outcome]
        lines = [head]
        if counted:
            lines.append(f"{self.unit[0].upper()}{self.unit[1:]} violating: {self.violating} / "
                         f"{self.points} ({100.0 * self.violating / self.points:.1f}%)")
        else:
            lines.append(f"{self.unit[0].upper()}{self.unit[1:]} checked: {self.points}")
        lines += [f"Greatest {self.measure}: {self.max_defect:.3e} {self.where} "
                  f"(up to {self.tolerance:.3e} allowed)",
                  f"Tolerance: {self.rule}",
                  "Resolution: " + ("exact" if self.resolution == 0 else f"{self.resolution:.3e}")
                  + f" {self.scale}"]
        return "\n".join(lines + [f"Note: {n}" for n in self.notes])

    __repr__ = __str__


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class SymplecticReport(Report):
    """residual: Dᵀ J_out D − c J (float64, batch + (n, n)); jacobian: D (dtype of the map)."""

    residual: torch.Tensor
    jacobian: torch.Tensor


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class VolumeReport(Report):
    """sign: sign of det D per point (−1: orientation reversed); log_volume: log|det D|."""

    sign: torch.Tensor
    log_volume: torch.Tensor


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class OrderReport(Report):
    """h: the step sizes, errors: the global errors at t_end (max norm), observed_order: the
    fitted slope of log error against log h over the levels above the rounding floor,
    local_orders: the slopes between consecutive fitted levels."""

    h: tuple[float, ...]
    errors: tuple[float, ...]
    observed_order: float
    local_orders: tuple[float, ...]
    # with `rhs`: the slope of log max|step(x0, h) − x0 − h·rhs(x0)| against log h (2 or more for a
    # step consistent with dx/dt = rhs(x); None when the defects are at rounding or no rhs was given)
    consistency_order: float | None = None


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class EnergyReport(Report):
    """energy_error: H(x_k) − H(x_0), float64, shape (n_steps + 1,) + batch; drift_rate: the
    least-squares slope of it per step, per trajectory (divide by h for per unit time)."""

    energy_error: torch.Tensor
    drift_rate: torch.Tensor


class StructureViolation(AssertionError):
    """The check decided that the structure is violated; `report` holds the measurement."""

    def __init__(self, report: Report):
        super().__init__(str(report))
        self.report = report


class Undecidable(Exception):
    """The check cannot tell a violation from rounding at this precision: neither a pass nor a
    violation. `report` holds the measurement and the resolution reached; its notes name the fix."""

    def __init__(self, report: Report):
        super().__init__(str(report))
        self.report = report


class NondeterministicError(ValueError):
    """f gave two different outputs for the same input (dropout in train mode, re-created
    weights, unseeded randomness): no structure can be measured."""


class NonFiniteError(ValueError):
    """f (or its Jacobian, or a rollout) produced NaN or inf; the message names f and the point."""


def conclude(report: Report) -> Report:
    if report.outcome == "violated":
        raise StructureViolation(report)
    if report.outcome == "undecidable":
        raise Undecidable(report)
    return report


# ------------------------------------------------------------------ validation and names


def name_of(f) -> str:
    """A readable name for f: the module's class, the function's name with file and line. A
    decorated function (functools.wraps: @torch.no_grad(), @functools.cache) is named by the
    function it wraps (`__wrapped__`), not by the decorator's file; a functools.partial by its
    function."""
    func = f
    for _ in range(64):   # unwrap partials and decorators (a cycle stops here)
        if isinstance(func, torch.nn.Module):
            return type(func).__name__
        inner = func.func if isinstance(func, functools.partial) else getattr(func, "__wrapped__", None)
        if inner is None or inner is func or not callable(inner):
            break
        func = inner
    name = getattr(func, "__name__", None) or type(func).__name__
    code = getattr(func, "__code__", None)
    return name if code is None else f"{name} ({Path(code.co_filename).name}:{code.co_firstlineno})"


def clip(text, limit: int = 160) -> str:
    """The first line of `text` (an exception's message), at most about `limit` characters, cut
    at a word boundary (never mid-word) and marked with "…" when cut."""
    line = str(text).strip().splitlines()[0] if str(text).strip() else ""
    if len(line) <= limit:
        return line
    cut = line[:limit + 1].rsplit(" ", 1)[0] if " " in line[:limit + 1] else line
    return cut.rstrip(" ,;:") + " …"


def on_copy(f, x: torch.Tensor, *args):
    """f(x, *args) on a fresh copy of x: f may update its argument in place (z[..., 0] += ...)
    and return it; the caller's tensors, and the copies the checks compare, stay unchanged."""
    return f(x.clone(), *args)


def show(v: torch.Tensor) -> str:
    return np.array2string(v.detach().to(torch.float64).cpu().numpy(), precision=6, threshold=16,
                           separator=", ")


def check_map(f, role: str = "f") -> None:
    if not callable(f):
        raise TypeError(f"{role} must be a callable or an nn.Module, got {type(f).__name__}")


def check_x(x, *, floating: bool, name: str = "x", min_ndim: int = 1, structure: bool = False,
             event_dims: int = 1) -> torch.Tensor:
    """x validated; `structure`: a Jacobian or rollout check, which refuses half precision."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    if x.is_complex() or x.dtype == torch.bool:
        raise TypeError(f"{name} must be real (floating or integer tokens), got {x.dtype}")
    if floating and not x.is_floating_point():
        raise TypeError(f"{name} must be a floating tensor (float32 or float64), got {x.dtype}")
    if structure and x.dtype in HALF:
        raise TypeError(f"{name} is {x.dtype}: its eps {torch.finfo(x.dtype).eps:.1e} cannot resolve "
                        "a structural defect (a bfloat16 Euler step would pass); run the map and "
                        f"{name} in float32 or float64 (module.float() / .double(), {name}.double())")
    if x.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} axes, got shape {tuple(x.shape)}")
    if x.numel() == 0:
        raise ValueError(f"{name} must not be empty, got shape {tuple(x.shape)}")
    if x.is_floating_point() and not torch.isfinite(x).all():
        batch = x.shape[: max(x.ndim - event_dims, 0)]
        bad = (~torch.isfinite(x)).reshape(*batch, -1).any(-1).reshape(-1)
        where = point_label(int(torch.argmax(bad.int())), batch)
        raise ValueError(f"{name} contains NaN or inf at point {where}")
    return x


def scalar(value, name: str) -> float:
    """A real number, numpy scalar or 0-d real tensor (taken exactly in float64), as a float."""
    if isinstance(value, torch.Tensor):
        if value.ndim or value.is_complex() or value.dtype == torch.bool:
            raise TypeError(f"{name} must be a real number or a 0-d real tensor, got a "
                            f"{value.dtype} tensor of shape {tuple(value.shape)}")
        value = value.detach().to(torch.float64).item()
    return real(value, name)


def tolerance_or_none(value, name: str) -> float | None:
    if value is None:
        return None
    value = scalar(value, name)
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return value


def output_selector(output):
    if output is None or callable(output) or isinstance(output, (int, str)) and not isinstance(output, bool):
        return output
    raise TypeError(f"output must be None, an index, a key or a callable, got {type(output).__name__}")


def select_output(out, output, name: str) -> torch.Tensor:
    """The state in f's output: `output` selects it from a tuple / dict / pytree."""
    if output is not None:
        out = output(out) if callable(output) else out[output]
    if not isinstance(out, torch.Tensor):
        how = (f"output={output!r} selected a {type(out).__name__}" if output is not None else
               f"it returned a {type(out).__name__}; pass output=<index, key or callable> to select "
               "the state (output=0 for nn.MultiheadAttention's (attn_output, attn_weights))")
        raise TypeError(f"f = {name} must return a tensor: {how}")
    return out


def computes_in_float64(y, low: torch.dtype) -> bool:
    """Whether `y`, an output of f on float64 input promoted from `low`, is a float64 computation:
    a float64 tensor that is not merely `low` values widened (f casting to float32 weights inside
    returns those)."""
    return isinstance(y, torch.Tensor) and y.dtype == torch.float64 and not torch.equal(
        y, y.to(low).to(torch.float64))


def eps_of(*dtypes: torch.dtype) -> float:
    return max(torch.finfo(d).eps for d in dtypes if d.is_floating_point)


def point_label(index: int, shape) -> str:
    """The batch index of flat point `index` ("()" for a single state)."""
    return str(tuple(int(i) for i in np.unravel_index(index, tuple(shape)))) if len(shape) else "()"


def differing(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Where two evaluations differ bit for bit (NaN equals NaN), as a bool tensor."""
    return ~((a == b) | (torch.isnan(a) & torch.isnan(b)))


def nondeterministic(name: str, how: str, role: str = "f") -> NondeterministicError:
    return NondeterministicError(
        f"{role} = {name} is not deterministic: {how}. A structure check needs one fixed map: call "
        ".eval() on modules with dropout or batch statistics, create weights once outside f, or "
        "fix the randomness (a seeded generator inside f)")

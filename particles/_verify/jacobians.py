"""particles.verify, measurements: Jacobians of a map at a batch of points (vmap of jacrev, or
per point with autograd where f cannot run under vmap), checked for determinism and finiteness,
and the algebra on them (`theory.symplectic`: DᵀJD − cJ, slogdet).
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import torch
from torch.func import jacfwd, jacrev, vmap

from particles._verify.outcome import (RTOL_ULPS, Map, NonFiniteError, check_map, check_x, clip,
                                       computes_in_float64, differing, name_of, nondeterministic,
                                       output_selector, point_label, select_output, show)
from theory import symplectic as sy
from theory.checks import positive_int, real


# The per-point (no-vmap) Jacobian is refused as not f's (the graph was left) when its directional
# derivative differs from a central difference at ε/2 by more than _FD_MARGIN times that
# difference's own error, estimated by Richardson (|fd(ε) − fd(ε/2)|, three times the error of
# fd(ε/2) for a smooth f) plus its rounding. A fixed share of the derivative (10% until 26 Nov
# 2026) let a step size taken with float() pass as symplectic: its missed term was 2% of Df·v but
# 1e14 times the symplectic tolerance.
_FD_MARGIN = 10.0

def canonical_J(n: int, *, dtype: torch.dtype = torch.float64, device=None) -> torch.Tensor:
    """J = [[0, I_d], [−I_d, 0]] of size n = 2d (seed 001 §1), as a tensor."""
    n = positive_int(n, "n")
    if n % 2:
        raise ValueError(f"n must be even (a (q, p) state in R^(2d)), got {n}")
    return torch.as_tensor(sy.canonical_J(n // 2), dtype=dtype, device=device)


def form_of(J, n: int, name: str, device) -> torch.Tensor:
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


def factor_of(factor, batch: torch.Size, device) -> tuple[torch.Tensor, float, str]:
    """(c as float64 over the batch, the relative rounding of c as given, how it was given).

    A tensor factor is taken exactly at its own precision (a float32 0-d tensor beside a
    float64 map carries float32 rounding: eps(float32) · |c| joins the tolerance)."""
    if isinstance(factor, torch.Tensor):
        if factor.is_complex() or factor.dtype == torch.bool:
            raise TypeError(f"factor must be real, got a {factor.dtype} tensor")
        c = factor.detach().to(device=device, dtype=torch.float64)
        if not torch.isfinite(c).all():
            raise ValueError("factor contains NaN or inf")
        try:
            c = torch.broadcast_to(c, batch)
        except RuntimeError:
            raise ValueError(f"factor of shape {tuple(c.shape)} does not broadcast to the batch "
                             f"shape {tuple(batch)} of x") from None
        eps = torch.finfo(factor.dtype).eps if factor.is_floating_point() else 0.0
        return c, eps, f"a {factor.dtype} tensor"
    value = real(factor, "factor")
    return (torch.full(batch, value, dtype=torch.float64, device=device),
            torch.finfo(torch.float64).eps, "a Python number")


# ------------------------------------------------------------------ Jacobians




def _checked_outputs(Y: torch.Tensor, Y2: torch.Tensor, X: torch.Tensor, name: str, batch) -> None:
    """Two evaluations of f at the points X (rows): equal bit for bit, and finite."""
    differ = differing(Y, Y2)
    if differ.any():
        i = int(torch.argmax(differ.any(-1).int()))
        gap = (Y[i].double() - Y2[i].double()).abs().nan_to_num(nan=math.inf).max().item()
        raise nondeterministic(name, f"two calls on the same input differ by up to {gap:.3e} "
                                      f"at point {point_label(i, batch)}")
    bad = ~torch.isfinite(Y)
    if bad.any():
        i = int(torch.argmax(bad.any(-1).int()))
        raise NonFiniteError(f"f = {name} returned NaN or inf at point {point_label(i, batch)}: "
                             f"f(x) = {show(Y[i])} for x = {show(X[i])}")


def _difference_point(flat, xi: torch.Tensor) -> tuple[torch.Tensor, float]:
    """(the point to take finite differences at, the relative rounding of Df to allow beside
    them): xi in float64 with RTOL_ULPS · eps(xi) when f really computes in float64 there, else
    xi itself with 0."""
    if xi.dtype == torch.float64:
        return xi, 0.0
    x64 = xi.double()
    try:
        in_float64 = computes_in_float64(flat(x64), xi.dtype)
    except Exception:  # noqa: BLE001  float32 parameters, a dtype check: differences in xi's dtype
        in_float64 = False
    return (x64, RTOL_ULPS * torch.finfo(xi.dtype).eps) if in_float64 else (xi, 0.0)


def _per_point_jacobian(flat, X: torch.Tensor, Y: torch.Tensor, name: str, batch,
                        vmap_error: Exception) -> torch.Tensor:
    """Jacobians one point at a time with torch.autograd (f does not run under vmap), each
    checked against central differences along random directions: a value f depends on that
    leaves the graph (.item(), numpy) would make it a Jacobian of another map."""
    why = clip(vmap_error, 200)
    fix = (f"f = {name} does not run under torch.func.vmap ({why}), and its per-point autograd "
           "Jacobian")
    how = ("Fix: write f with torch operations only (torch.sin, not np.sin; keep tensors instead "
           "of .item() / float() of values the output depends on; no requires_grad_() on its input)")
    g = torch.Generator().manual_seed(0)
    Ds = []
    for i, xi in enumerate(X):
        try:
            Di = torch.autograd.functional.jacobian(flat, xi, strict=True, vectorize=False)
        except RuntimeError as err:
            if in_place(err):
                raise ValueError(f"{fix} cannot be taken either: f modifies its input, or a tensor "
                                 f"autograd saved, in place ({clip(err, 120)}). Fix: update a copy "
                                 "(z = z.clone() first) or build the output with torch.cat") from err
            raise ValueError(f"{fix} cannot be taken either: {clip(err, 200).rstrip('.')}. "
                             f"{how}") from err
        # central differences along a random direction at ε = eps^(1/3) · max(1, |x|) and ε/2 (their
        # gap estimates the error: a kink of ReLU or abs between x ± εv makes it large and the
        # test lenient), and again along another direction at ε/16 (30 of 2000 float32 points of a
        # ReLU coupling have a kink within ε, none within ε/16): a graph that misses a dependence
        # disagrees at both, by more than the differences' own error
        # in float64 when f runs there (a float32 difference resolves Df only to ~eps^(2/3) = 2e-5,
        # so a float() step size whose missed term was 4e-3 passed float32's gate, second audit of
        # 26 Nov 2026); then the float32 Jacobian may differ from it by its own rounding
        base, extra = _difference_point(flat, xi)
        eps = torch.finfo(base.dtype).eps
        failures = []
        for shrink in (1, 16):
            v = torch.randn(xi.shape, generator=g, dtype=torch.float64).to(base)
            v = v / v.abs().max()
            step = eps ** (1 / 3) * max(1.0, base.abs().max().item()) / shrink
            # in the caller's grad mode: f may differentiate inside (a force as −∇H by autograd)
            fd, fd_half = (((flat(base + e * v) - flat(base - e * v)) / (2 * e)).detach().double()
                           for e in (step, step / 2))
            dv = Di.double() @ v.double()
            noise = (RTOL_ULPS * eps * max(1.0, Y[i].abs().max().item()) / (step / 2)
                     + extra * Di.double().abs().sum(-1).max().item())
            allowed = _FD_MARGIN * ((fd - fd_half).abs().max().item() + noise)
            mismatch = (fd_half - dv).abs().max().item()
            if mismatch <= allowed:
                break
            failures.append(f"{mismatch:.3e} against an allowed {allowed:.3e} at ε = {step / 2:.2g}")
        else:
            raise ValueError(f"{fix} disagrees with finite differences at point {point_label(i, batch)} "
                             f"(|Df·v − (f(x+εv) − f(x−εv))/2ε| = {'; '.join(failures)}): f leaves "
                             f"the autograd graph. {how}")
        Ds.append(Di)
    return torch.stack(Ds)


def point_map(f: Map, event: torch.Size, output, name: str):
    """f on one flattened point: v (n,) ↦ the selected output, flattened (m,). f gets a fresh copy
    of its input at every call, so a step that updates its argument in place (z[..., 0] += ...)
    is differentiated like one that copies it (jacrev and autograd refuse an in-place update of
    their own input), and neither the caller's x nor the points compared are changed."""
    def flat(v: torch.Tensor) -> torch.Tensor:
        return select_output(f(v.reshape(event).clone()), output, name).reshape(-1)
    return flat


def _fails_on_one_state(name: str, event, own: Exception, dtype: torch.dtype) -> ValueError:
    """f raised on one state: a dtype mismatch (float32 weights, float64 x) or, most often
    otherwise, an index into a batch axis (z[:, 0]) that one state has not."""
    text = clip(own, 160)
    if any(w in text for w in ("dtype", "Double", "Float", "Half", "BFloat16", "scalar type")):
        hint = (f"its parameters and x (a {dtype} state) seem to differ in dtype: convert one to "
                "the other (module.double() for float64 x, or x.float() for a float32 module)")
    else:
        hint = ("f is applied to one state at a time (through torch.func.vmap): index the "
                "state's own axes from the end (z[..., 0], not z[:, 0])")
    return ValueError(f"f = {name} fails on one state of shape {tuple(event)} "
                      f"({type(own).__name__}: {text}); {hint}")


def in_place(err: Exception) -> bool:
    """Whether autograd refused an in-place update (of f's input or of a tensor it saved)."""
    return "inplace" in str(err) or "in-place" in str(err)


def _reverse_sees(flat, x0: torch.Tensor) -> bool:
    """Whether f's output at x0 has an autograd path to x0 (False under torch.no_grad() in f)."""
    try:
        with torch.enable_grad():
            y = flat(x0.detach().clone().requires_grad_(True))
    except Exception:  # noqa: BLE001  f refuses an input that requires grad: keep reverse mode
        return True
    return bool(y.requires_grad)


def checked_jacobian(f: Map, x: torch.Tensor, event_dims: int, output
                     ) -> tuple[torch.Tensor, tuple[str, ...], str]:
    """(D, notes, mode): D = Df at every point of x (batch + (m, n), dtype of f's output), after
    two evaluations of f at the points (equal and finite, or raise naming f and the point); mode
    "reverse" (vmap of jacrev), "forward" (vmap of jacfwd: f updates in place a tensor that
    reverse mode saved) or "per-point" (torch.autograd, f does not run under vmap)."""
    name = name_of(f)
    batch, event = x.shape[: x.ndim - event_dims], x.shape[x.ndim - event_dims:]
    X = x.reshape(-1, math.prod(event))
    flat = point_map(f, event, output, name)

    notes: tuple[str, ...] = ()
    mode = "reverse"
    try:
        Y, Y2 = vmap(flat)(X), vmap(flat)(X)
    except Exception as err:  # noqa: BLE001  f's own errors are raised again below, point by point
        # (a random operation under vmap too: called twice point by point, a seeded one passes)
        try:
            Y, Y2 = (torch.stack([flat(xi) for xi in X]) for _ in range(2))
        except (IndexError, RuntimeError) as own:
            raise _fails_on_one_state(name, event, own, x.dtype) from own
        _checked_outputs(Y, Y2, X, name, batch)
        D = _per_point_jacobian(flat, X, Y, name, batch, err)
        mode = "per-point"
        notes = (f"f does not run under torch.func.vmap ({clip(err, 120)}): its "
                 "Jacobian was taken point by point with torch.autograd and checked against a "
                 "central difference",)
    else:
        _checked_outputs(Y, Y2, X, name, batch)
        try:
            D = vmap(jacrev(flat))(X)
        except RuntimeError as err:
            if not in_place(err):
                raise
            # z[..., 1:] -= h * sin(z[..., :1]) changes the q that sin saved for its backward
            # pass; forward mode saves nothing, so it differentiates such a step as written
            try:
                D, mode = vmap(jacfwd(flat))(X), "forward"
            except RuntimeError as again:
                raise ValueError(f"f = {name} modifies its input, or a tensor autograd saved, in "
                                 f"place ({clip(err, 120)}), and its forward-mode Jacobian fails too "
                                 f"({clip(again, 120)}). Fix: update a copy (z = z.clone() first) or "
                                 "build the output with torch.cat") from again
            notes = (f"f updates in place a tensor that reverse mode saved ({clip(err, 100)}): its "
                     "Jacobian was taken in forward mode (torch.func.jacfwd), which saves none",)
        if mode == "reverse" and not _reverse_sees(flat, X[0]):
            # under @torch.no_grad() (or torch.inference_mode) inside f reverse mode sees no
            # dependence and jacrev returns 0 (a false violation); forward mode is not blocked
            Dfwd = vmap(jacfwd(flat))(X)
            if Dfwd.abs().max() > 0:
                D, mode = Dfwd, "forward"
                notes = ("f's output has no reverse-mode (autograd) path to its input (torch.no_grad() "
                         "inside f?): its Jacobian was taken in forward mode (torch.func.jacfwd)",)
    bad = ~torch.isfinite(D)
    if bad.any():
        i = int(torch.argmax(bad.flatten(1).any(-1).int()))
        r, c = divmod(int(torch.argmax(bad[i].reshape(-1).int())), D.shape[-1])
        raise NonFiniteError(f"the Jacobian of f = {name} contains NaN or inf at point "
                             f"{point_label(i, batch)}, entry ({r}, {c}), where f is finite; "
                             f"x = {show(X[i])}")
    return D.reshape(*batch, D.shape[-2], D.shape[-1]), notes, mode


def jacobian(f: Map, x: torch.Tensor, *, event_dims: int = 1, output=None) -> torch.Tensor:
    """Batched Jacobian of `f` at the points `x`: shape batch + (m, n), m and n the flattened
    output and input sizes of one point (the last `event_dims` axes of `x`), by
    `torch.func.vmap(torch.func.jacrev(f))`, in the dtype of `x`. `f` maps one point to one
    output (`output` selects it from a tuple / dict); row-major flattening makes a 2d×T matrix Z
    into Z_vec of seed 001 eq. (18). f is evaluated twice first: NondeterministicError or
    NonFiniteError (naming f and the point) when the two differ or are not finite. An f that
    cannot run under vmap (.item(), data-dependent control flow) is differentiated point by
    point with torch.autograd (a UserWarning says so), checked against a central difference.
    f gets a copy of its input at every call (it may update it in place; x is never changed);
    a step that updates in place a tensor reverse mode saved, or an f under torch.no_grad(), is
    differentiated in forward mode (torch.func.jacfwd; a UserWarning says so)."""
    check_map(f)
    event_dims = positive_int(event_dims, "event_dims")
    x = check_x(x, floating=True, min_ndim=event_dims, event_dims=event_dims)
    D, notes, _ = checked_jacobian(f, x, event_dims, output_selector(output))
    for note in notes:
        warnings.warn(note, stacklevel=2)
    return D


def np64(D: torch.Tensor) -> np.ndarray:
    return D.detach().to(torch.float64).cpu().numpy()


def symplectic_residual(f: Map, x: torch.Tensor, *, J=None, J_out=None, factor=1.0,
                        event_dims: int = 1, output=None) -> tuple[torch.Tensor, torch.Tensor]:
    """(R, D) with D = D f(x) (dtype of x) and R = Dᵀ J_out D − factor · J in float64, batched.

    J is the form on the input space (canonical [[0, I], [−I, 0]] by default), J_out the form on
    the output space (J when both spaces have the same dimension, else canonical): maps between
    spaces of different dimension (seed 001 eq. (31)) are covered. R = 0 iff f is (conformally,
    with `factor`) symplectic at x; `factor` is a real number or a tensor over the batch."""
    D = jacobian(f, x, event_dims=event_dims, output=output)
    return residual_of(D, J, J_out, factor_of(factor, D.shape[:-2], D.device)[0])[0], D


def residual_of(D: torch.Tensor, J, J_out, c: torch.Tensor):
    m, n = D.shape[-2:]
    J = form_of(J, n, "J", D.device)
    J_out = J if J_out is None and m == n else form_of(J_out, m, "J_out", D.device)
    R = sy.conformal_residual(np64(D), c.cpu().numpy(), J_out.cpu().numpy(), J.cpu().numpy())
    return torch.from_numpy(np.asarray(R)).to(D.device), J, J_out


def signed_log_volume(D: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    if D.shape[-1] != D.shape[-2]:
        raise ValueError(f"f must map a state to a state of the same size for a volume, got a "
                         f"{D.shape[-2]}×{D.shape[-1]} Jacobian")
    return tuple(torch.from_numpy(np.asarray(v)).to(D.device)
                 for v in sy.signed_log_volume(np64(D)))


def log_volume(f: Map, x: torch.Tensor, *, event_dims: int = 1, output=None
               ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(sign, log|det D f(x)|, D) by slogdet (`theory.symplectic.signed_log_volume`) on a float64
    copy of the Jacobian (log|det| = 0 iff volume preserving; −inf if singular), batched (0-d
    tensors for a single state)."""
    D = jacobian(f, x, event_dims=event_dims, output=output)
    sign, logabsdet = signed_log_volume(D)
    return sign, logabsdet, D

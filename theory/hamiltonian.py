"""Canonical Hamiltonian systems: the coupled oscillator of seed 001, its exact flow, implicit midpoint.

Conventions (seed 001, §1): z = (q, p) ∈ R^{2d}, J = [[0, I_d], [-I_d, 0]], ż = J ∇H(z) (eq. (2)).
Every function is batched over leading axes: a point is the last axis, of length 2d. A gradient
`grad_H` maps (..., 2d) → (..., 2d); a Hessian `hess_H` maps (..., 2d) → (..., 2d, 2d).

- The coupled oscillator, eq. (26): two harmonic oscillators with a sigmoid-switched coupling,
      H = p1²/(2 m1) + p2²/(2 m2) + k1 q1²/2 + k2 q2²/2 + k σ̄(q1) (q1 − q2)²/2,  σ̄(x) = 1/(1+e^{-x}),
  with the parameter values of Table 1 and the initial condition of eq. (27).
- The exact flow φ_t by `scipy.integrate.solve_ivp` (DOP853, rtol = atol = 1e-12 by default), and
  with the variational equation Ḋ = J ∇²H(z) D, D(0) = I, for the flow's Jacobian (Theorem 1).
- The implicit midpoint rule, eq. (4): z_{n+1} = z_n + h J ∇H((z_n + z_{n+1})/2). The printed
  formula writes ∇H((y_{n+1} + y_n)/2); the y are the z (there is no other variable in the scheme).
  The step is solved by Newton's method with the Jacobian I − (h/2) J ∇²H(midpoint) (the Hessian
  when given, else central differences of ∇H; the fixed point does not depend on that choice, only
  the speed of convergence), and it raises `ConvergenceError` with the residual when it does not
  converge. Its Jacobian follows by implicit differentiation (`implicit_midpoint_jacobian`).
"""
from __future__ import annotations

from typing import Callable, Mapping

import numpy as np
from scipy.integrate import solve_ivp

from theory.symplectic import canonical_J
from theory.checks import positive as _positive
from theory.checks import real as _finite

Array = np.ndarray
Grad = Callable[[Array], Array]

# Table 1 of seed 001: masses and spring constants; the coupling k ranges over [0, 4].
TABLE_1: Mapping[str, float | tuple[float, float]] = {
    "m1": 2.0, "m2": 1.0, "k1": 1.5, "k2": 0.3, "k_range": (0.0, 4.0)}
# Eq. (27): q(t0) = (1, 0), p(t0) = (2, 0), as z = (q1, q2, p1, p2).
Z0: Array = np.array([1.0, 0.0, 2.0, 0.0])
Z0.setflags(write=False)


class ConvergenceError(RuntimeError):
    """An implicit step whose nonlinear solve did not reach the requested residual."""


# ------------------------------------------------------------------ validation


def _points(z, name: str = "z", even: bool = True) -> Array:
    z = np.asarray(z, dtype=np.float64)
    if z.ndim < 1 or z.shape[-1] == 0:
        raise ValueError(f"{name} must have a last axis of length 2d, got shape {z.shape}")
    if even and z.shape[-1] % 2:
        raise ValueError(f"{name} must be even-dimensional (2d) on its last axis, got {z.shape[-1]}")
    if not np.all(np.isfinite(z)):
        raise ValueError(f"{name} contains NaN or inf")
    return z


def hamiltonian_vector_field(grad_H: Grad, z) -> Array:
    """V_H(z) = J ∇H(z) (seed 001 eq. (2)), batched."""
    z = _points(z)
    return _apply_J(grad_H(z))


def _apply_J(g: Array) -> Array:
    d = g.shape[-1] // 2
    return np.concatenate([g[..., d:], -g[..., :d]], axis=-1)


# ------------------------------------------------------------------ the coupled oscillator (eq. 26)


def _sigmoid(x: Array) -> Array:
    # σ̄(x) = 1/(1+e^{-x}), evaluated without overflow for large |x|
    return np.where(x >= 0, 1.0 / (1.0 + np.exp(-np.abs(x))),
                    np.exp(-np.abs(x)) / (1.0 + np.exp(-np.abs(x))))


def _oscillator_args(z, k, params):
    z = _points(z)
    if z.shape[-1] != 4:
        raise ValueError(f"z must have last axis 4 = (q1, q2, p1, p2), got shape {z.shape}")
    k = _finite(k, "k")
    p = dict(TABLE_1 if params is None else params)
    for name in ("m1", "m2"):
        _positive(p[name], f"params['{name}']")
    return z, k, p


def coupled_oscillator_hamiltonian(z, k: float, params: Mapping[str, float] | None = None) -> Array:
    """H of seed 001 eq. (26) at z = (q1, q2, p1, p2), parameters of Table 1 unless `params`."""
    z, k, p = _oscillator_args(z, k, params)
    q1, q2, p1, p2 = np.moveaxis(z, -1, 0)
    return (p1 ** 2 / (2 * p["m1"]) + p2 ** 2 / (2 * p["m2"]) + p["k1"] * q1 ** 2 / 2
            + p["k2"] * q2 ** 2 / 2 + k * _sigmoid(q1) * (q1 - q2) ** 2 / 2)


def coupled_oscillator_grad(z, k: float, params: Mapping[str, float] | None = None) -> Array:
    """∇H of eq. (26), (..., 4) → (..., 4), using σ̄' = σ̄(1 − σ̄)."""
    z, k, p = _oscillator_args(z, k, params)
    q1, q2, p1, p2 = np.moveaxis(z, -1, 0)
    s, u = _sigmoid(q1), q1 - q2
    ds = s * (1 - s)
    dq1 = p["k1"] * q1 + k * (ds * u ** 2 / 2 + s * u)
    dq2 = p["k2"] * q2 - k * s * u
    return np.stack([dq1, dq2, p1 / p["m1"], p2 / p["m2"]], axis=-1)


def coupled_oscillator_hessian(z, k: float, params: Mapping[str, float] | None = None) -> Array:
    """∇²H of eq. (26), (..., 4) → (..., 4, 4), using σ̄'' = σ̄(1 − σ̄)(1 − 2σ̄)."""
    z, k, p = _oscillator_args(z, k, params)
    q1, q2 = z[..., 0], z[..., 1]
    s, u = _sigmoid(q1), q1 - q2
    ds = s * (1 - s)
    dds = ds * (1 - 2 * s)
    Hs = np.zeros(z.shape + (4,))
    Hs[..., 0, 0] = p["k1"] + k * (dds * u ** 2 / 2 + 2 * ds * u + s)
    Hs[..., 0, 1] = Hs[..., 1, 0] = -k * (ds * u + s)
    Hs[..., 1, 1] = p["k2"] + k * s
    Hs[..., 2, 2] = 1 / p["m1"]
    Hs[..., 3, 3] = 1 / p["m2"]
    return Hs


def oscillator(k: float, params: Mapping[str, float] | None = None):
    """(H, ∇H, ∇²H) of eq. (26) at coupling k, as functions of z only."""
    _finite(k, "k")
    return (lambda z: coupled_oscillator_hamiltonian(z, k, params),
            lambda z: coupled_oscillator_grad(z, k, params),
            lambda z: coupled_oscillator_hessian(z, k, params))


# ------------------------------------------------------------------ the exact flow (Theorem 1)


def _times(t) -> Array:
    t = np.atleast_1d(np.asarray(t, dtype=np.float64))
    if t.ndim != 1 or not np.all(np.isfinite(t)) or np.any(t < 0) or np.any(np.diff(t) < 0):
        raise ValueError(f"t must be finite, >= 0 and nondecreasing, got {t}")
    return t


def exact_flow(grad_H: Grad, z0, t, rtol: float = 1e-12, atol: float = 1e-12) -> Array:
    """φ_t(z0) for each time in `t` (nondecreasing, >= 0): shape (len(t), 2d).

    High-accuracy reference solution of ż = J ∇H(z): DOP853 with tolerances rtol, atol.
    """
    z0 = _points(z0, "z0")
    if z0.ndim != 1:
        raise ValueError(f"z0 must be one point (2d,), got shape {z0.shape}")
    t = _times(t)
    sol = solve_ivp(lambda _, z: _apply_J(grad_H(z)), (0.0, t[-1]), z0, method="DOP853",
                    t_eval=t, rtol=_positive(rtol, "rtol"), atol=_positive(atol, "atol"))
    if not sol.success:
        raise ConvergenceError(f"solve_ivp failed: {sol.message}")
    return sol.y.T


def exact_flow_with_jacobian(grad_H: Grad, hess_H: Callable[[Array], Array], z0, t,
                             rtol: float = 1e-12, atol: float = 1e-12) -> tuple[Array, Array]:
    """(φ_t(z0), Dφ_t(z0)) for each time in `t`: shapes (len(t), 2d) and (len(t), 2d, 2d).

    The Jacobian solves the variational equation Ḋ = J ∇²H(φ_t) D, D(0) = I, integrated together
    with the flow (DOP853), so its accuracy is that of the ODE solver.
    """
    z0 = _points(z0, "z0")
    if z0.ndim != 1:
        raise ValueError(f"z0 must be one point (2d,), got shape {z0.shape}")
    t = _times(t)
    n = z0.size
    J = canonical_J(n // 2)

    def rhs(_, y):
        z, D = y[:n], y[n:].reshape(n, n)
        return np.concatenate([_apply_J(grad_H(z)), (J @ hess_H(z) @ D).ravel()])

    y0 = np.concatenate([z0, np.eye(n).ravel()])
    sol = solve_ivp(rhs, (0.0, t[-1]), y0, method="DOP853", t_eval=t,
                    rtol=_positive(rtol, "rtol"), atol=_positive(atol, "atol"))
    if not sol.success:
        raise ConvergenceError(f"solve_ivp failed: {sol.message}")
    y = sol.y.T
    return y[:, :n], y[:, n:].reshape(-1, n, n)


# ------------------------------------------------------------------ implicit midpoint (eq. 4)


def _grad_jacobian(grad_H: Grad, hess_H, z: Array) -> Array:
    """∇²H at z: the given Hessian, else central differences of ∇H (step ∝ ε^{1/3})."""
    if hess_H is not None:
        return hess_H(z)
    n = z.shape[-1]
    step = np.finfo(np.float64).eps ** (1 / 3) * np.maximum(1.0, np.abs(z))
    cols = []
    for j in range(n):
        e = np.zeros(n)
        e[j] = 1.0
        dz = step[..., j:j + 1] * e
        cols.append((grad_H(z + dz) - grad_H(z - dz)) / (2 * step[..., j:j + 1]))
    return np.stack(cols, axis=-1)


def implicit_midpoint_step(grad_H: Grad, z, h: float, tol: float = 1e-13, max_iter: int = 50,
                           hess_H: Callable[[Array], Array] | None = None) -> Array:
    """One step of the implicit midpoint rule, seed 001 eq. (4), batched over leading axes.

    Solves F(z⁺) = z⁺ − z − h J ∇H((z + z⁺)/2) = 0 by Newton's method from the explicit Euler
    guess, until ‖F‖_∞ <= tol · max(1, ‖z‖_∞) for every point of the batch. Raises
    `ConvergenceError` (with the residual) after `max_iter` iterations otherwise.
    """
    z = _points(z)
    h = _finite(h, "h")
    _positive(tol, "tol")
    if int(max_iter) < 1:
        raise ValueError(f"max_iter must be >= 1, got {max_iter}")
    n = z.shape[-1]
    J = canonical_J(n // 2)
    scale = np.maximum(1.0, np.max(np.abs(z), axis=-1, keepdims=True))
    z_next = z + h * _apply_J(grad_H(z))
    residual = np.inf
    for _ in range(int(max_iter)):
        mid = (z + z_next) / 2
        F = z_next - z - h * _apply_J(grad_H(mid))
        residual = float(np.max(np.abs(F) / scale))
        if residual <= tol:
            return z_next
        DF = np.eye(n) - (h / 2) * J @ _grad_jacobian(grad_H, hess_H, mid)
        z_next = z_next - np.linalg.solve(DF, F[..., None])[..., 0]
    raise ConvergenceError(f"implicit midpoint did not converge in {max_iter} iterations: "
                           f"scaled residual {residual:.3g} > tol {tol:.3g} (h={h})")


def implicit_midpoint_jacobian(hess_H: Callable[[Array], Array], z, z_next, h: float) -> Array:
    """Dφ_mp(z) by implicit differentiation of eq. (4) at a solved step z ↦ z_next:

        (I − (h/2) J S) Dφ = I + (h/2) J S,   S = ∇²H((z + z_next)/2).
    """
    z, z_next = _points(z), _points(z_next, "z_next")
    if z.shape != z_next.shape:
        raise ValueError(f"z {z.shape} and z_next {z_next.shape} must have the same shape")
    n = z.shape[-1]
    JS = (_finite(h, "h") / 2) * canonical_J(n // 2) @ hess_H((z + z_next) / 2)
    return np.linalg.solve(np.eye(n) - JS, np.eye(n) + JS)


def implicit_midpoint_trajectory(grad_H: Grad, z0, h: float, n_steps: int, tol: float = 1e-13,
                                 max_iter: int = 50,
                                 hess_H: Callable[[Array], Array] | None = None) -> Array:
    """z_0, z_1, …, z_{n_steps} of the implicit midpoint rule: shape (n_steps + 1,) + z0.shape."""
    z = _points(z0, "z0")
    if isinstance(n_steps, bool) or not isinstance(n_steps, (int, np.integer)) or n_steps < 0:
        raise ValueError(f"n_steps must be a nonnegative int, got {n_steps!r}")
    out = np.empty((int(n_steps) + 1,) + z.shape)
    out[0] = z
    for i in range(int(n_steps)):
        z = implicit_midpoint_step(grad_H, z, h, tol=tol, max_iter=max_iter, hess_H=hess_H)
        out[i + 1] = z
    return out


# ------------------------------------------------------------------ random Hamiltonians for property checks


def random_hamiltonian(rng: np.random.Generator, d: int, quadratic: bool = False, n_modes: int = 3):
    """A random smooth Hamiltonian on R^{2d} with its gradient and Hessian, for property checks:

        H(z) = ½ zᵀ S z                                  (quadratic; S symmetric, indefinite in general)
        H(z) = ½ zᵀ S z + Σ_i c_i cos(w_iᵀ z) + ¼ ‖z‖⁴    (non-quadratic, non-separable)
    """
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d must be a positive int, got {d!r}")
    n = 2 * int(d)
    G = rng.normal(size=(n, n))
    S = (G + G.T) / 2
    c = np.zeros(n_modes) if quadratic else rng.normal(size=n_modes)
    W = rng.normal(size=(n_modes, n))
    quartic = 0.0 if quadratic else 0.25

    def H(z):
        z = _points(z)
        r2 = np.sum(z * z, axis=-1)
        return (0.5 * np.einsum("...i,ij,...j->...", z, S, z) + np.cos(z @ W.T) @ c
                + quartic * r2 ** 2)

    def grad(z):
        z = _points(z)
        r2 = np.sum(z * z, axis=-1, keepdims=True)
        return z @ S - (c * np.sin(z @ W.T)) @ W + 4 * quartic * r2 * z

    def hess(z):
        z = _points(z)
        r2 = np.sum(z * z, axis=-1)[..., None, None]
        cosines = c * np.cos(z @ W.T)
        return (S - np.einsum("...m,mi,mj->...ij", cosines, W, W)
                + 4 * quartic * (r2 * np.eye(n) + 2 * z[..., :, None] * z[..., None, :]))

    return H, grad, hess

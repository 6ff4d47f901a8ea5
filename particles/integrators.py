"""Time discretizations of the linearly damped Hamiltonian system of seed 000, eq. (4):

    ẋ = ∇_p H(x, p),        ṗ = −α(t) p − ∇_x H(x, p).

One calling convention for every scheme (batched over leading axes, float64 in all checks):

    step(q, p, t, h, field, damping, memo=None, **options) -> Step(q, p, memo)

* `q`, `p`: tensors of one shape (batch + event); `t` the current time t_k; `h` the step h_k > 0.
* `field`: a `HamiltonianField` (∇_q H, ∇_p H as batched callables). Build it from explicit
  formulas (an attention oracle) or from a scalar Hamiltonian with `from_hamiltonian`.
* `damping`: a `theory.schemes.Damping` schedule; σ_k and the exponential-Euler weight come
  from there, in closed form.
* `memo`: what a multistep method carries from the previous step (None for one-step methods,
  and on the first step of AB-2, which is then an explicit Euler step as the paper prescribes).

Schemes (seed 000 §2): `explicit_euler` (14), `conformal_symplectic_euler` (15),
`exponential_euler` (16), `ab2` (17) applied to (4), `etd_ab2` (17) applied to the undamped form
(12) via the change of variables (13), plus two conformally symplectic schemes for non-separable
H: `conformal_symplectic_euler_implicit` (symplectic Euler, implicit in p, then exact damping)
and `conformal_midpoint` (Strang: damp h/2, implicit midpoint, damp h/2), and classical `rk4` as
the four-oracle reference. `counted(field)` counts oracle calls.

Implicit schemes solve their equations by a fixed number of fixed-point iterations (no
data-dependent control flow, so they run under `torch.func` transforms); the iteration contracts
when h·Lip(∇H) < 1.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

import torch
from torch.func import grad, vmap

from particles.attention import CountingOracle, under_transform
from theory.checks import positive, real
from theory.schemes import Damping, ab2_coefficients

Tensor = torch.Tensor


class HamiltonianField(NamedTuple):
    """∇_q H(q, p) and ∇_p H(q, p), each taking and returning tensors of the state's shape."""

    grad_q: Callable[[Tensor, Tensor], Tensor]
    grad_p: Callable[[Tensor, Tensor], Tensor]


class Step(NamedTuple):
    q: Tensor
    p: Tensor
    memo: Any = None


def from_hamiltonian(H: Callable[[Tensor, Tensor], Tensor], event_dims: int = 1) -> HamiltonianField:
    """The field of a scalar Hamiltonian H(q, p) defined on ONE point (event shape), with
    torch.func.grad, vmapped over any leading batch axes."""
    if not callable(H):
        raise TypeError(f"H must be callable, got {type(H).__name__}")
    if isinstance(event_dims, bool) or not isinstance(event_dims, int) or event_dims < 1:
        raise ValueError(f"event_dims must be an int >= 1, got {event_dims!r}")
    dH = grad(H, argnums=(0, 1))

    def batched(which: int) -> Callable[[Tensor, Tensor], Tensor]:
        def g(q: Tensor, p: Tensor) -> Tensor:
            event = q.shape[q.ndim - event_dims:]
            batch = q.shape[: q.ndim - event_dims]
            out = vmap(lambda a, b: dH(a, b)[which])(q.reshape(-1, *event), p.reshape(-1, *event))
            return out.reshape(*batch, *event)
        return g

    return HamiltonianField(batched(0), batched(1))


# ------------------------------------------------------------------ validation


def _check(q: Tensor, p: Tensor, t, h, damping: Damping) -> tuple[float, float]:
    for name, x in (("q", q), ("p", p)):
        if not isinstance(x, torch.Tensor):
            raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
        if not x.is_floating_point():
            raise TypeError(f"{name} must be a floating tensor, got {x.dtype}")
        if not under_transform(x) and not bool(torch.isfinite(x).all()):
            raise ValueError(f"{name} contains NaN or inf")
    if q.shape != p.shape:
        raise ValueError(f"q and p must have one shape, got {tuple(q.shape)} and {tuple(p.shape)}")
    if not isinstance(damping, Damping):
        raise TypeError(f"damping must be a theory.schemes.Damping, got {type(damping).__name__}")
    t, h = real(t, "t"), positive(h, "h")
    damping.alpha(t)  # raises for t < 0, or t = 0 with α = r/t + m singular there
    return t, h


def _check_solved(name: str, x: Tensor, fx: Tensor, rtol: float = 1e-12) -> None:
    """Raise when the fixed-point iteration x = f(x) has not converged (outside transforms)."""
    if under_transform(x):
        return
    res = float((x - fx).abs().max())
    if not res <= rtol * (1.0 + float(x.abs().max())):
        raise ValueError(f"h: the fixed-point solve for {name} did not converge (residual {res:.3g}); "
                         "reduce h or raise iterations")


# ------------------------------------------------------------------ one-step schemes


def explicit_euler(q: Tensor, p: Tensor, t: float, h: float, field: HamiltonianField,
                   damping: Damping, memo=None, *, alpha_k: float | None = None) -> Step:
    """Plain explicit Euler, seed 000 eq. (14):

        x⁺ = x + h ∇_p H(x, p),     p⁺ = α_k p − h ∇_x H(x, p).

    `alpha_k` defaults to 1 − h α(t_k) (forward Euler of (4)); the paper also uses (k−1)/(k+2)
    or a constant (Table 4, `plain Euler`)."""
    t, h = _check(q, p, t, h, damping)
    a_k = 1.0 - h * damping.alpha(t) if alpha_k is None else float(alpha_k)
    return Step(q + h * field.grad_p(q, p), a_k * p - h * field.grad_q(q, p))


def conformal_symplectic_euler(q: Tensor, p: Tensor, t: float, h: float, field: HamiltonianField,
                               damping: Damping, memo=None) -> Step:
    """Conformally symplectic Euler ("kick then damp"), seed 000 eq. (15), as printed:

        p⁺ = σ_k (p − h ∇_x H(x, p)),     x⁺ = x + h ∇_p H(x, p⁺).

    Conformally symplectic with factor σ_k when H is separable (claim `sympformer:eq-15`);
    for non-separable H use `conformal_symplectic_euler_implicit`."""
    t, h = _check(q, p, t, h, damping)
    p_new = damping.sigma(t, h) * (p - h * field.grad_q(q, p))
    return Step(q + h * field.grad_p(q, p_new), p_new)


def conformal_symplectic_euler_implicit(q: Tensor, p: Tensor, t: float, h: float,
                                        field: HamiltonianField, damping: Damping, memo=None, *,
                                        iterations: int = 60) -> Step:
    """Lie–Trotter split of (4) with symplectic Euler (implicit in p) for the conservative part,
    then the exact damping flow — conformally symplectic with factor σ_k for every H:

        p̂ = p − h ∇_x H(x, p̂),     x⁺ = x + h ∇_p H(x, p̂),     p⁺ = σ_k p̂.

    For separable H, p̂ is explicit; the correction of claim `sympformer:eq-15-nonseparable`."""
    t, h = _check(q, p, t, h, damping)
    p_hat = p - h * field.grad_q(q, p)
    for _ in range(iterations):
        p_hat = p - h * field.grad_q(q, p_hat)
    _check_solved("p̂", p_hat, p - h * field.grad_q(q, p_hat))
    return Step(q + h * field.grad_p(q, p_hat), damping.sigma(t, h) * p_hat)


def conformal_midpoint(q: Tensor, p: Tensor, t: float, h: float, field: HamiltonianField,
                       damping: Damping, memo=None, *, iterations: int = 60) -> Step:
    """Strang split of (4): exact damping on [t, t+h/2], implicit midpoint for the conservative
    part, exact damping on [t+h/2, t+h]. Conformally symplectic with factor σ_k for every H,
    order 2."""
    t, h = _check(q, p, t, h, damping)
    p0 = damping.sigma(t, h / 2) * p
    q1, p1 = q, p0
    for _ in range(iterations):
        qm, pm = (q + q1) / 2, (p0 + p1) / 2
        q1, p1 = q + h * field.grad_p(qm, pm), p0 - h * field.grad_q(qm, pm)
    qm, pm = (q + q1) / 2, (p0 + p1) / 2
    _check_solved("(q⁺, p⁺)", torch.cat((q1, p1)),
                  torch.cat((q + h * field.grad_p(qm, pm), p0 - h * field.grad_q(qm, pm))))
    return Step(q1, damping.sigma(t + h / 2, h / 2) * p1)


WEIGHTS = ("exact", "printed", "text")


def exponential_euler(q: Tensor, p: Tensor, t: float, h: float, field: HamiltonianField,
                      damping: Damping, memo=None, *, weight: str = "exact") -> Step:
    """Exponential Euler, seed 000 eq. (16):

        p⁺ = σ_k p − w ∇_x H(x, p),     x⁺ = x + h ∇_p H(x, p).

    weight = "exact":   w = ∫_{t_k}^{t_k+h} exp(−∫_s^{t_k+h} α) ds (variation of constants)
             "printed": w = h ∫_0^h exp(−∫_s^h α) ds, as printed in (16)
             "text":    w = ∫_0^h exp(−∫_s^h α) ds, the values h/(r+1), (1−e^{−mh})/m of the text.
    """
    t, h = _check(q, p, t, h, damping)
    if weight == "exact":
        w = damping.weight(t, h)
    elif weight == "printed":
        w = damping.weight_printed(h)
    elif weight == "text":
        w = damping.weight_text(h)
    else:
        raise ValueError(f"weight must be one of {WEIGHTS}, got {weight!r}")
    return Step(q + h * field.grad_p(q, p), damping.sigma(t, h) * p - w * field.grad_q(q, p))


def rk4(q: Tensor, p: Tensor, t: float, h: float, field: HamiltonianField, damping: Damping,
        memo=None) -> Step:
    """Classical Runge–Kutta 4 on (4): the single-step method of order 4 that seed 000 §2 contrasts
    with AB-2 ("Runge-Kutta-4 need[s] four oracle calls per step"). Neither conformally
    symplectic nor oracle-economical; a reference."""
    t, h = _check(q, p, t, h, damping)

    def f(s: float, x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
        return field.grad_p(x, y), -damping.alpha(s) * y - field.grad_q(x, y)

    k1 = f(t, q, p)
    k2 = f(t + h / 2, q + h / 2 * k1[0], p + h / 2 * k1[1])
    k3 = f(t + h / 2, q + h / 2 * k2[0], p + h / 2 * k2[1])
    k4 = f(t + h, q + h * k3[0], p + h * k3[1])
    return Step(q + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
                p + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]))


# ------------------------------------------------------------------ multistep schemes


def ab2(q: Tensor, p: Tensor, t: float, h: float, field: HamiltonianField, damping: Damping,
        memo=None) -> Step:
    """Variable-step two-step Adams–Bashforth, seed 000 eq. (17), on y = (x, p), f = RHS of (4):

        y_{k+1} = y_k + h_k (β₀ f(t_k, y_k) − β₁ f(t_{k−1}, y_{k−1})),
        β₀ = (2h_{k−1} + h_k)/(2h_{k−1}),  β₁ = h_k/(2h_{k−1}).

    memo = (h_{k−1}, f_x(t_{k−1}), f_p(t_{k−1})); memo None: the explicit Euler start
    y₁ = y₀ + h₀ f(t₀, y₀). One evaluation of the field per step."""
    t, h = _check(q, p, t, h, damping)
    f_q = field.grad_p(q, p)
    f_p = -damping.alpha(t) * p - field.grad_q(q, p)
    if memo is None:
        return Step(q + h * f_q, p + h * f_p, (h, f_q, f_p))
    h_prev, fq_prev, fp_prev = memo
    b0, b1 = ab2_coefficients(h, h_prev)
    return Step(q + h * (b0 * f_q - b1 * fq_prev), p + h * (b0 * f_p - b1 * fp_prev), (h, f_q, f_p))


def etd_ab2(q: Tensor, p: Tensor, t: float, h: float, field: HamiltonianField, damping: Damping,
            memo=None) -> Step:
    """AB-2 (17) applied to the undamped time-dependent Hamiltonian system (12) in the variable
    P = e^{η(t)} p of (13), written back in p (so e^{η} never overflows):

        ẋ = ∇_p H(x, e^{−η}P),   Ṗ = −e^{η} ∇_x H(x, e^{−η}P)
        x_{k+1} = x_k + h(β₀ ∇_pH_k − β₁ ∇_pH_{k−1})
        p_{k+1} = σ_k p_k − h σ_k (β₀ ∇_xH_k − β₁ σ_{k−1} ∇_xH_{k−1}).

    memo = (h_{k−1}, σ_{k−1}, ∇_xH_{k−1}, ∇_pH_{k−1}); memo None: explicit Euler on (12)."""
    t, h = _check(q, p, t, h, damping)
    sigma = damping.sigma(t, h)
    g_q, g_p = field.grad_q(q, p), field.grad_p(q, p)
    if memo is None:
        return Step(q + h * g_p, sigma * (p - h * g_q), (h, sigma, g_q, g_p))
    h_prev, sigma_prev, gq_prev, gp_prev = memo
    b0, b1 = ab2_coefficients(h, h_prev)
    return Step(q + h * (b0 * g_p - b1 * gp_prev),
                sigma * (p - h * (b0 * g_q - b1 * sigma_prev * gq_prev)),
                (h, sigma, g_q, g_p))


SCHEMES: dict[str, Callable[..., Step]] = {
    "explicit_euler": explicit_euler,
    "conformal_symplectic_euler": conformal_symplectic_euler,
    "conformal_symplectic_euler_implicit": conformal_symplectic_euler_implicit,
    "conformal_midpoint": conformal_midpoint,
    "exponential_euler": exponential_euler,
    "rk4": rk4,
    "ab2": ab2,
    "etd_ab2": etd_ab2,
}
ONE_STEP = ("explicit_euler", "conformal_symplectic_euler", "conformal_symplectic_euler_implicit",
            "conformal_midpoint", "exponential_euler", "rk4")


def counted(field: HamiltonianField) -> tuple[HamiltonianField, CountingOracle]:
    """`field` routed through one `particles.attention.CountingOracle` keyed on the positions q:
    `.evaluations` counts every gradient evaluation, `.calls` the oracle calls — evaluations at
    new positions (∇_qH and ∇_pH at the same q share one attention kernel, as in Algorithm 1)."""
    oracle = CountingOracle(lambda q, p, which: field.grad_q(q, p) if which == "q"
                            else field.grad_p(q, p))
    return HamiltonianField(lambda q, p: oracle(q, p, "q"), lambda q, p: oracle(q, p, "p")), oracle


def get_scheme(name: str) -> Callable[..., Step]:
    if name not in SCHEMES:
        raise ValueError(f"scheme: unknown scheme {name!r}; known: {sorted(SCHEMES)}")
    return SCHEMES[name]


def integrate(scheme: str, q0: Tensor, p0: Tensor, t0: float, steps: Sequence[float],
              field: HamiltonianField, damping: Damping, **options) -> tuple[list[float], Tensor, Tensor]:
    """Run `scheme` over the grid t_{k+1} = t_k + h_k (h_k = steps[k]); returns the times and the
    stacked states (len(steps)+1, *q0.shape)."""
    step = get_scheme(scheme)
    if len(steps) == 0:
        raise ValueError("steps must contain at least one step size")
    times, Q, P = [float(t0)], [q0], [p0]
    q, p, memo = q0, p0, None
    for h in steps:
        q, p, memo = step(q, p, times[-1], h, field, damping, memo, **options)
        times.append(times[-1] + float(h))
        Q.append(q)
        P.append(p)
    return times, torch.stack(Q), torch.stack(P)


def step_map(scheme: str, t: float, h: float, field: HamiltonianField, damping: Damping,
             **options) -> Callable[[Tensor], Tensor]:
    """The one-step map z = stack(q, p) ↦ stack(q⁺, p⁺) (z of shape (2, *event)), for
    `particles.geometry.jacobian(f, z, event_dims=1 + len(event))`. Flattening z row by row puts
    all q before all p, which is the ordering of the canonical J."""
    if scheme not in ONE_STEP:
        raise ValueError(f"scheme: {scheme!r} is not a one-step scheme; one-step: {ONE_STEP}")
    step = SCHEMES[scheme]

    def f(z: Tensor) -> Tensor:
        out = step(z[0], z[1], t, h, field, damping, None, **options)
        return torch.stack((out.q, out.p))

    return f

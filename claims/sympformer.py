"""Seed 000 (SympFormer), Section 2 and Appendix B: Nesterov rates, the damped Hamiltonian form
(4), its undamped form (12)-(13), the time discretizations (14)-(17) and Table 4.

Sections 4-5 (linear and softmax attention) live in `claims/sympformer_attention.py`.
Test Hamiltonians (float64, gradients written out, d = 3):

    separable      H(q, p) = ½ pᵀ M p + Σ_i (1 − cos q_i) + ½ qᵀ S q + ¼ ‖q‖⁴/10
    non-separable  H(q, p) = ½ (1 + ½‖q‖²) ‖p‖² + Σ_i (1 − cos q_i) + ½ ‖q‖²

(the second has a position-dependent mass like H^SM of eq. (35)).
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
import torch
from scipy import special
from scipy.integrate import quad, solve_ivp
from scipy.optimize import minimize_scalar

from claims import Evidence, claim, verdict_from
from claims._pepit import worst_case as pepit_worst_case
from particles import integrators as I
from particles.geometry import jacobian
from theory import schemes as S
from theory.rates import Momentum
from theory.symplectic import best_conformal_factor, canonical_J, conformal_defect

F64 = torch.float64
D_TEST = 3
# relative tolerance for "conformally symplectic": DᵀJD has O(1) entries computed in float64 from
# O(10) products, so rounding is ~1e-15; 1e-12 leaves a 1000× margin.
CONFORMAL_TOL = 1e-12
# "not conformally symplectic" needs a residual far above rounding: 1e-6.
NONCONFORMAL_TOL = 1e-6

# ------------------------------------------------------------------ test Hamiltonians

_M = torch.tensor([[1.0, 0.2, 0.0], [0.2, 0.8, 0.1], [0.0, 0.1, 1.2]], dtype=F64)
_S = torch.tensor([[0.5, -0.2, 0.0], [-0.2, 1.0, 0.3], [0.0, 0.3, 2.0]], dtype=F64)


def _sep_H(q, p):
    return (0.5 * torch.einsum("...i,ij,...j->...", p, _M, p) + (1 - torch.cos(q)).sum(-1)
            + 0.5 * torch.einsum("...i,ij,...j->...", q, _S, q) + 0.025 * (q * q).sum(-1) ** 2)


SEPARABLE = I.HamiltonianField(
    grad_q=lambda q, p: torch.sin(q) + q @ _S + 0.1 * (q * q).sum(-1, keepdim=True) * q,
    grad_p=lambda q, p: p @ _M)


def _nonsep_H(q, p):
    return (0.5 * (1 + 0.5 * (q * q).sum(-1)) * (p * p).sum(-1) + (1 - torch.cos(q)).sum(-1)
            + 0.5 * (q * q).sum(-1))


NONSEPARABLE = I.HamiltonianField(
    grad_q=lambda q, p: 0.5 * (p * p).sum(-1, keepdim=True) * q + torch.sin(q) + q,
    grad_p=lambda q, p: (1 + 0.5 * (q * q).sum(-1, keepdim=True)) * p)

HAMILTONIANS = {"separable": (_sep_H, SEPARABLE), "non-separable": (_nonsep_H, NONSEPARABLE)}


def _points(n: int, seed: int) -> torch.Tensor:
    """n phase-space points z = (q, p) of shape (n, 2, d), entries N(0, 1/4), fixed seed (small
    enough for the fixed-point solves of the implicit schemes to contract at h ≤ 0.2)."""
    g = torch.Generator().manual_seed(seed)
    return 0.5 * torch.randn(n, 2, D_TEST, generator=g, dtype=F64)


def _rel_defects(scheme: str, field, damping: S.Damping, t: float, h: float, z: torch.Tensor,
                 **options) -> tuple[np.ndarray, np.ndarray, float]:
    """Per point: ‖DᵀJD − σ_k J‖/‖σ_k J‖ and the relative residual of the best constant factor
    ‖DᵀJD − σ* J‖/‖σ* J‖ (σ* fitted per point); and σ_k."""
    D = jacobian(I.step_map(scheme, t, h, field, damping, **options), z, event_dims=2).numpy()
    sigma = damping.sigma(t, h)
    normJ = np.linalg.norm(canonical_J(D_TEST))
    best = best_conformal_factor(D)
    return (conformal_defect(D, sigma) / (sigma * normJ),
            conformal_defect(D, best) / (np.abs(best) * normJ), sigma)


DEFECT_SCHEMES = ("explicit_euler", "conformal_symplectic_euler", "exponential_euler",
                  "conformal_symplectic_euler_implicit", "conformal_midpoint")


def _defect_sweep(field, budget: str) -> dict:
    """max over points of the relative conformal defect (factor σ_k) of every one-step scheme,
    for a range of step sizes; log-linear damping r = 3, m = 0.5 at t_k = 1 (data of the
    `scheme-defects` figure)."""
    damp = S.damping("log-linear", r=3.0, m=0.5)
    hs = [0.2, 0.1, 0.05, 0.025] if budget == "quick" else list(0.2 / 2.0 ** np.arange(8))
    z = _points(8 if budget == "quick" else 32, seed=11)
    table = {s: [float(_rel_defects(s, field, damp, 1.0, h, z)[0].max()) for h in hs]
             for s in DEFECT_SCHEMES}
    return {"h": hs, "relative_defect": table, "schedule": "r/t + m, r=3, m=0.5, t_k=1"}


# ------------------------------------------------------------------ (12)-(13)


@claim("sympformer:eq-12-13", locator="Section 2, eqs. (12)-(13)",
       statement="with P = e^{η(t)} p, η' = α, the damped system (4) is the undamped Hamiltonian "
                 "system (12) of H̃(t,q,P) = e^{η}H(q, e^{−η}P), for any H (also non-separable)",
       method="symbolic", expect="holds")
def eq_12_13(budget: str) -> Evidence:
    """Symbolic, for a generic H(q, p) (d = 1 and d = 2) and a generic α(t): along any solution
    of (4), (q, P = e^η p) satisfies q̇ = ∂_P H̃ and Ṗ = −∂_q H̃ identically."""
    t = sp.Symbol("t", real=True)
    eta = sp.Function("eta")(t)
    alpha = sp.diff(eta, t)  # η' = α by definition of η
    residuals = {}
    for d in (1, 2):
        q = [sp.Function(f"q{i}")(t) for i in range(1, d + 1)]
        p = [sp.Function(f"p{i}")(t) for i in range(1, d + 1)]
        P = sp.symbols(f"P1:{d + 1}", real=True)
        H = sp.Function("H")
        Hqp = H(*q, *p)
        # the damped system (4): q̇ = ∂_pH, ṗ = −αp − ∂_qH
        flow = {sp.Derivative(p[i], t): -alpha * p[i] - sp.diff(Hqp, q[i]) for i in range(d)}
        Ht = sp.exp(eta) * H(*q, *[sp.exp(-eta) * Pi for Pi in P])   # H̃(t, q, P) of (12)
        on_shell = {Pi: sp.exp(eta) * pi for Pi, pi in zip(P, p)}     # (13): P = e^η p
        res = []
        for i in range(d):
            res.append(sp.diff(Hqp, p[i]) - sp.diff(Ht, P[i]).subs(on_shell))   # q̇ = ∂_P H̃
            Pdot = sp.diff(sp.exp(eta) * p[i], t).subs(flow)                  # d/dt (e^η p_i)
            res.append(Pdot + sp.diff(Ht, q[i]).subs(on_shell))                # Ṗ = −∂_q H̃
        residuals[d] = [sp.simplify(sp.expand(r.doit())) for r in res]
    ok = all(r == 0 for rs in residuals.values() for r in rs)
    return Evidence(verdict=verdict_from(ok), criterion="every residual simplifies to exactly 0 "
                    "(generic H and η, d = 1, 2)",
                    numbers={"residuals": {str(k): [str(r) for r in v] for k, v in residuals.items()}})


# ------------------------------------------------------------------ (14)


@claim("sympformer:eq-14", locator="Section 2, eq. (14)",
       statement="the plain explicit Euler scheme (14) is not conformally symplectic",
       method="property", expect="holds", figures=["scheme-defects"])
def eq_14(budget: str) -> Evidence:
    """Counterexample to conformal symplecticity: the quadratic H = ½‖p‖² + ½qᵀSq, S = diag(1, 4),
    α_k = (k−1)/(k+2) at k = 5, h = 0.1. Then DᵀJD = [[0, α_k I + h²S], [−(α_k I + h²S), 0]],
    not a multiple of J. Also on the nonlinear test Hamiltonians (no constant factor fits).
    Exception kept in the numbers: d = 1 and quadratic H gives the constant factor α_k + h²λ."""
    h, k = 0.1, 5
    a_k = (k - 1) / (k + 2)
    damp = S.damping("nesterov")
    Sdiag = torch.tensor([1.0, 4.0], dtype=F64)
    quad_field = I.HamiltonianField(grad_q=lambda q, p: q * Sdiag, grad_p=lambda q, p: p)
    z = torch.zeros(1, 2, 2, dtype=F64)
    f = I.step_map("explicit_euler", k * h, h, quad_field, damp, alpha_k=a_k)
    D = jacobian(f, z, event_dims=2).numpy()[0]
    J = canonical_J(2)
    predicted = np.block([[np.zeros((2, 2)), a_k * np.eye(2) + h * h * np.diag([1, 4])],
                          [-(a_k * np.eye(2) + h * h * np.diag([1, 4])), np.zeros((2, 2))]])
    sigma_star = float(best_conformal_factor(D))
    residual = float(conformal_defect(D, sigma_star) / (abs(sigma_star) * np.linalg.norm(J)))
    formula_err = float(np.abs(D.T @ J @ D - predicted).max())
    # exception: d = 1, quadratic: DᵀJD = (α_k + h²λ) J exactly
    f1 = I.step_map("explicit_euler", k * h, h,
                    I.HamiltonianField(lambda q, p: 4.0 * q, lambda q, p: p), damp, alpha_k=a_k)
    D1 = jacobian(f1, torch.zeros(1, 2, 1, dtype=F64), event_dims=2).numpy()
    exception = float(conformal_defect(D1, a_k + 4 * h * h)[0])
    # nonlinear test Hamiltonians, default α_k = 1 − hα(t_k)
    worst = {name: float(_rel_defects("explicit_euler", field, damp, 1.0, h,
                                      _points(8, seed=5))[1].min())
             for name, (_, field) in HAMILTONIANS.items()}
    ok = residual > NONCONFORMAL_TOL and min(worst.values()) > NONCONFORMAL_TOL
    return Evidence(
        verdict=verdict_from(ok),
        criterion=f"relative residual of the best constant factor > {NONCONFORMAL_TOL:g} on the "
                  "quadratic counterexample and at every sample point of both test Hamiltonians",
        numbers={"h": h, "k": k, "alpha_k": a_k, "best_factor": sigma_star,
                 "relative_residual_quadratic": residual, "DtJD_formula_max_error": formula_err,
                 "min_relative_residual_nonlinear": worst,
                 "exception_d1_quadratic_defect_with_factor_alpha_k_plus_h2_lambda": exception},
        counterexample={"H": "½‖p‖² + ½qᵀ diag(1,4) q", "h": h, "alpha_k": a_k})


# ------------------------------------------------------------------ (15)


@claim("sympformer:eq-15", locator="Section 2, eq. (15)",
       statement="the conformally symplectic Euler scheme (15) is conformally symplectic with "
                 "factor σ_k for separable H",
       method="property", expect="holds", figures=["scheme-defects"])
def eq_15(budget: str) -> Evidence:
    """Jacobian (torch.func) of the printed (15) at random points, for three schedules and
    several (t_k, h); max relative defect ‖DᵀJD − σ_kJ‖/‖σ_kJ‖."""
    n = 16 if budget == "quick" else 64
    z = _points(n, seed=1)
    cases = [(S.damping("constant", mu=0.7), 0.0, 0.3), (S.damping("nesterov"), 0.5, 0.1),
             (S.damping("log-linear", r=2.0, m=0.3), 2.0, 0.25)]
    worst = max(float(_rel_defects("conformal_symplectic_euler", SEPARABLE, d, t, h, z)[0].max())
                for d, t, h in cases)
    ok = worst < CONFORMAL_TOL
    return Evidence(verdict=verdict_from(ok),
                    criterion=f"max relative defect < {CONFORMAL_TOL:g} (float64 rounding of DᵀJD)",
                    numbers={"max_relative_defect": worst, "points": n,
                             "cases": [(d.kind, d.r, d.m, t, h) for d, t, h in cases],
                             "sweep": _defect_sweep(SEPARABLE, budget)})


@claim("sympformer:eq-15-nonseparable", locator="Section 2, eq. (15), applied to the "
       "non-separable H^SM of eq. (35) in Section 5",
       statement="the scheme (15) as printed stays conformally symplectic (factor σ_k) for a "
                 "non-separable H",
       method="property", expect="holds-with-correction", figures=["scheme-defects"])
def eq_15_nonseparable(budget: str) -> Evidence:
    """On the non-separable test Hamiltonian the printed (15) admits no constant conformal factor
    (the drift x + h∇_pH(x, p⁺) at the old x is not the second half of a symplectic map).
    Correction: symplectic Euler implicit in p, then exact damping —
    p̂ = p − h∇_xH(x, p̂), x⁺ = x + h∇_pH(x, p̂), p⁺ = σ_k p̂ (and the conformal midpoint)."""
    n = 16 if budget == "quick" else 64
    z = _points(n, seed=2)
    damp, t, h = S.damping("log-linear", r=3.0, m=0.5), 1.0, 0.1
    printed_sigma, printed_best, sigma = _rel_defects("conformal_symplectic_euler", NONSEPARABLE,
                                                      damp, t, h, z)
    corrected = max(float(_rel_defects(s, NONSEPARABLE, damp, t, h, z)[0].max())
                    for s in ("conformal_symplectic_euler_implicit", "conformal_midpoint"))
    printed_ok = float(printed_best.min()) < CONFORMAL_TOL
    i = int(np.argmax(printed_best))
    return Evidence(
        verdict=verdict_from(printed_ok, corrected < CONFORMAL_TOL),
        criterion=f"printed holds iff the best constant factor fits to {CONFORMAL_TOL:g} at every "
                  f"point; correction holds iff its defect with σ_k is < {CONFORMAL_TOL:g}",
        numbers={"sigma_k": sigma, "h": h, "t_k": t,
                 "printed_max_relative_defect_sigma_k": float(printed_sigma.max()),
                 "printed_min_best_factor_residual": float(printed_best.min()),
                 "corrected_max_relative_defect": corrected,
                 "sweep": _defect_sweep(NONSEPARABLE, budget)},
        counterexample={"H": "½(1 + ½‖q‖²)‖p‖² + Σ(1 − cos q_i) + ½‖q‖²", "h": h, "t_k": t,
                        "schedule": "3/t + 0.5", "z": z[i].tolist(),
                        "best_factor_residual": float(printed_best[i])},
        correction="for non-separable H, evaluate the kick implicitly: p̂ = p − h∇_xH(x, p̂), "
                   "x⁺ = x + h∇_pH(x, p̂), p⁺ = σ_k p̂ (symplectic Euler, then exact damping); "
                   "conformally symplectic with factor σ_k for every H")


# ------------------------------------------------------------------ (16)


@claim("sympformer:eq-16-premise", locator="Section 2, text before eq. (16)",
       statement="for H with kinetic energy ½‖p‖², the dynamics (4) read ṗ + αp − ∇_xH(x,p) = 0",
       method="symbolic", expect="holds-with-correction")
def eq_16_premise(budget: str) -> Evidence:
    """The second row of (4): ṗ + αp − (J∇H)_p = ṗ + αp + ∇_xH = 0. Residual of the printed form."""
    x, p, a = sp.symbols("x p alpha", real=True)
    F = sp.Function("F")
    H = p ** 2 / 2 + F(x)
    pdot = -a * p - sp.diff(H, x)  # (4): ṗ = −αp − ∇_xH
    printed = sp.simplify(pdot + a * p - sp.diff(H, x))
    corrected = sp.simplify(pdot + a * p + sp.diff(H, x))
    return Evidence(verdict=verdict_from(printed == 0, corrected == 0),
                    criterion="residual of the equation along (4) simplifies to exactly 0",
                    numbers={"printed_residual": str(printed), "corrected_residual": str(corrected)},
                    counterexample={"residual": str(printed)},
                    correction="ṗ + αp + ∇_xH(x, p) = 0 (sign of the force term)")


def _exp_euler_error(weight: str, h: float, T: float = 2.0, t0: float = 1.0) -> float:
    """Global error at t0 + T of exponential Euler (16) on the oscillator ẍ + (3/t)ẋ + x = 0."""
    field = I.HamiltonianField(lambda q, p: q, lambda q, p: p)
    damp = S.damping("nesterov")
    n = int(round(T / h))
    q0, p0 = torch.tensor([1.0], dtype=F64), torch.tensor([0.0], dtype=F64)
    _, Q, P = I.integrate("exponential_euler", q0, p0, t0, [h] * n, field, damp, weight=weight)
    ref = solve_ivp(lambda t, y: [y[1], -3 / t * y[1] - y[0]], (t0, t0 + T), [1.0, 0.0],
                    method="DOP853", rtol=1e-12, atol=1e-12).y[:, -1]
    return float(np.hypot(Q[-1, 0] - ref[0], P[-1, 0] - ref[1]))


@claim("sympformer:eq-16", locator="Section 2, eq. (16) and the text after it",
       statement="exponential Euler (16): p⁺ = σ_k p − h∫_0^h exp(−∫_s^h α) ds ∇_xH, with weight "
                 "h/(r+1) for α = r/s, (1 − e^{−mh})/m for α = m, and a ₁F₁ form for r/s + m",
       method="symbolic", expect="holds-with-correction", figures=["ab2-order"])
def eq_16(budget: str) -> Evidence:
    """Three checks. (a) sympy: the text's values equal ∫_0^h exp(−∫_s^h α) ds WITHOUT the factor
    h printed in (16), so (16) and the text disagree by a factor h. (b) variation of constants:
    the exact one-step solution of ṗ = −αp − g (g frozen) on [t_k, t_k+h] has the weight
    w_k = ∫_{t_k}^{t_k+h} exp(−∫_s^{t_k+h} α) ds, which equals the text's value only at t_k = 0
    (or for constant α); the ₁F₁ form is checked by its ODE and by quadrature. (c) convergence:
    exponential Euler on ẍ + (3/t)ẋ + x = 0 from t = 1 converges (order 1) with w_k and does not
    converge with the printed or the text weight."""
    # (a) symbolic values at t_k = 0
    sym = {k: S.exp_euler_weight_sym(k) for k in ("constant", "power")}
    h, r, m = sp.symbols("h r m", positive=True)
    text_ok = (sp.simplify(sym["power"]["at_zero"] - h / (r + 1)) == 0
               and sp.simplify(sym["constant"]["at_zero"] - (1 - sp.exp(-m * h)) / m) == 0)
    general_ok = all(sp.simplify(v["integral"] - v["closed_form"]) == 0 for v in sym.values())
    ratio_printed_over_text = sp.simplify(h * sym["power"]["at_zero"] / sym["power"]["at_zero"])
    hyper_residual = S.primitive_weight_ode_residual(6 if budget == "quick" else 10)
    # (b) the exact frozen-force step, by quadrature, vs the closed forms
    probes = [(3.0, 0.0, 0.0, 0.1), (3.0, 0.0, 2.0, 0.1), (2.5, 0.7, 0.0, 0.3), (2.5, 0.7, 1.3, 0.3),
              (0.0, 0.5, 1.0, 0.2)]
    quad_err, text_vs_exact = 0.0, {}
    for rr, mm, tk, hh in probes:
        exact = quad(lambda s: (s / (tk + hh)) ** rr * math.exp(-mm * (tk + hh - s)), tk, tk + hh,
                     epsabs=0, epsrel=1e-13)[0]
        quad_err = max(quad_err, abs(S.exp_euler_weight(rr, mm, tk, hh) / exact - 1))
        text_vs_exact[f"r={rr},m={mm},t_k={tk},h={hh}"] = S.exp_euler_weight(rr, mm, 0.0, hh) / exact
    # (c) global errors
    hs = [0.1, 0.05, 0.025] if budget == "quick" else [0.1, 0.05, 0.025, 0.0125, 0.00625]
    errors = {w: [_exp_euler_error(w, hh) for hh in hs] for w in I.WEIGHTS}
    slopes = {w: float(np.polyfit(np.log(hs), np.log(e), 1)[0]) for w, e in errors.items()}
    printed_ok = text_ok and slopes["printed"] > 0.8
    corrected_ok = (general_ok and hyper_residual == 0 and quad_err < 1e-10
                    and abs(slopes["exact"] - 1) < 0.15)
    return Evidence(
        verdict=verdict_from(printed_ok, corrected_ok),
        criterion="printed holds iff (16) agrees with the text and its global error converges "
                  "(fitted order > 0.8); correction holds iff the sympy integral equals the closed "
                  "form, the ₁F₁ form solves tW' = t − (r+mt)W exactly (series), the closed form "
                  "matches quadrature to 1e-10, and the scheme converges with order 1 ± 0.15",
        numbers={"text_values_equal_integral_without_h": text_ok,
                 "printed_weight_over_text_weight": str(ratio_printed_over_text),
                 "hyp1f1_ode_series_residual": str(hyper_residual),
                 "closed_form_vs_quadrature_max_rel_error": quad_err,
                 "text_weight_over_exact_weight": text_vs_exact,
                 "h": hs, "global_error": errors, "fitted_order": slopes},
        counterexample={"oscillator": "ẍ + (3/t)ẋ + x = 0, x(1) = 1, ẋ(1) = 0, T = 2",
                        "printed_weight_errors": errors["printed"],
                        "text_weight_errors": errors["text"]},
        correction="p⁺ = σ_k p − w_k ∇_xH with w_k = ∫_{t_k}^{t_k+h} exp(−∫_s^{t_k+h} α(z) dz) ds "
                   "(no factor h); for α = r/s: w_k = (t_{k+1}^{r+1} − t_k^{r+1})/((r+1)t_{k+1}^r) "
                   "(= h/(r+1) only at t_k = 0); for α = m: (1 − e^{−mh})/m; for r/s + m: "
                   "W(t_{k+1}) − σ_k W(t_k), W(t) = t·₁F₁(1; r+2; −mt)/(r+1)")


# ------------------------------------------------------------------ (17)

T_ORDER, T0_ORDER = 2.0, 1.0
ORDER_SCHEMES = ("ab2", "etd_ab2", "conformal_midpoint", "explicit_euler",
                 "conformal_symplectic_euler", "exponential_euler")


def _reference(field, damp: S.Damping, y0: np.ndarray, t0: float, T: float) -> np.ndarray:
    d = y0.size // 2

    def rhs(t, y):
        q, p = torch.from_numpy(y[:d]), torch.from_numpy(y[d:])
        return np.concatenate([field.grad_p(q, p).numpy(),
                               (-damp.alpha(t) * p - field.grad_q(q, p)).numpy()])

    return solve_ivp(rhs, (t0, t0 + T), y0, method="DOP853", rtol=1e-13, atol=1e-13).y[:, -1]


def _grid(n: int, variable: bool) -> list[float]:
    """The n steps of a grid on [t0, t0 + T]: uniform, or the image of the uniform grid of [0, 1]
    under s ↦ s + 0.3 sin(2πs)/(2π), scaled by T (a smooth grid whose steps vary by ±30 %)."""
    s = np.linspace(0.0, 1.0, n + 1)
    nodes = s + (0.3 / (2 * np.pi)) * np.sin(2 * np.pi * s) if variable else s
    return list(np.diff(nodes * T_ORDER))


def order_study(budget: str) -> dict:
    """Global error at t0 + T of each scheme versus the (maximal) step size, on the non-separable
    test Hamiltonian with α = 3/t + 0.5 from t0 = 1, against a DOP853 reference (rtol 1e-13)."""
    field, damp = NONSEPARABLE, S.damping("log-linear", r=3.0, m=0.5)
    q0 = torch.tensor([0.8, -0.4, 0.3], dtype=F64)
    p0 = torch.tensor([0.0, 0.5, -0.2], dtype=F64)
    ref = _reference(field, damp, np.concatenate([q0.numpy(), p0.numpy()]), T0_ORDER, T_ORDER)
    ns = [20, 40, 80, 160] if budget == "quick" else [20, 40, 80, 160, 320, 640, 1280]
    out = {}
    for grid in ("uniform", "variable"):
        steps = {n: _grid(n, grid == "variable") for n in ns}
        errs = {}
        for s in ORDER_SCHEMES:
            errs[s] = []
            for n in ns:
                _, Q, P = I.integrate(s, q0, p0, T0_ORDER, steps[n], field, damp)
                errs[s].append(float(np.linalg.norm(np.concatenate([Q[-1], P[-1]]) - ref)))
        hmax = [float(max(steps[n])) for n in ns]
        out[grid] = {"h_max": hmax, "errors": errs,
                     "slopes": {s: float(np.polyfit(np.log(hmax), np.log(e), 1)[0])
                                for s, e in errs.items()}}
    return out


@claim("sympformer:eq-17-order", locator="Section 2, eq. (17)",
       statement="the variable-step AB-2 scheme (17), started by one explicit Euler step, has "
                 "order 2 (weights (2h_{k−1}+h_k)/(2h_{k−1}), −h_k/(2h_{k−1}))",
       method="convergence", expect="holds", figures=["ab2-order"])
def eq_17_order(budget: str) -> Evidence:
    """Weights derived with sympy (integral of the linear interpolant), compared with (17); then
    the empirical order (least-squares slope of log error vs log h) of AB-2 on (4) and of
    ETD-AB2 (AB-2 on the undamped form (12)), on uniform and smoothly varying grids."""
    coeffs = S.ab2_coefficients_sym()
    hk, hkm = sp.symbols("h_k h_km1", real=True)
    printed = {"beta0": (2 * hkm + hk) / (2 * hkm), "beta1": hk / (2 * hkm)}
    weights_ok = all(sp.simplify(coeffs[k] - printed[k]) == 0 for k in printed)
    study = order_study(budget)
    ab_slopes = {f"{g}/{s}": study[g]["slopes"][s] for g in study for s in ("ab2", "etd_ab2")}
    ok = weights_ok and all(abs(v - 2) < 0.1 for v in ab_slopes.values())
    return Evidence(verdict=verdict_from(ok),
                    criterion="sympy weights equal the printed ones and every fitted AB-2 / "
                              "ETD-AB2 order is within 2 ± 0.1",
                    numbers={"weights_derived": {k: str(v) for k, v in coeffs.items()},
                             "weights_match": weights_ok, "ab2_fitted_orders": ab_slopes,
                             "study": study})


@claim("sympformer:ab2-optimal-order", locator="Section 2, text before eq. (17)",
       statement="order two is the best order achievable by an explicit two-step multistep method",
       method="symbolic", expect="holds-with-correction")
def ab2_optimal_order(budget: str) -> Evidence:
    """The order conditions of y_{n+2} + a₁y_{n+1} + a₀y_n = h(b₁f_{n+1} + b₀f_n) admit a unique
    order-3 solution, y_{n+2} + 4y_{n+1} − 5y_n = h(4f_{n+1} + 2f_n); its characteristic
    polynomial has the root −5, so it is not zero-stable and diverges (shown on y' = −y).
    With zero-stability (Dahlquist's first barrier) order 2 is optimal."""
    info = S.explicit_two_step_max_order()
    roots = [complex(r) for r in info["roots"]]
    errs = []
    for n in (10, 20, 40):
        h, y = 1.0 / n, [1.0, math.exp(-1.0 / n)]
        for k in range(n - 1):
            y.append(-4 * y[-1] + 5 * y[-2] + h * (4 * -y[-1] + 2 * -y[-2]))
        errs.append(abs(y[-1] - math.exp(-1.0)))
    order3_exists = info["error_constant_order4"] != 0 and len(info["method"]) == 4
    zero_stable = all(abs(r) <= 1 + 1e-12 for r in roots)
    diverges = errs[-1] > errs[0] > 1.0
    return Evidence(
        verdict=verdict_from(not order3_exists, order3_exists and not zero_stable and diverges),
        criterion="printed holds iff no explicit two-step method of order 3 exists; correction "
                  "holds iff the order-3 method is not zero-stable and its error grows as h → 0",
        numbers={"order3_method": {str(k): str(v) for k, v in info["method"].items()},
                 "roots": [str(r) for r in info["roots"]],
                 "error_constant_order4": str(info["error_constant_order4"]),
                 "order3_errors_at_t1_for_h_1_10_20_40": errs},
        counterexample={"method": "y_{n+2} + 4y_{n+1} − 5y_n = h(4f_{n+1} + 2f_n)", "order": 3},
        correction="order 2 is the best order of a zero-stable (hence convergent) explicit "
                   "two-step method (Dahlquist's first barrier)")


@claim("sympformer:oracle-calls-text", locator="Section 2, paragraph before eq. (17)",
       statement="first-order discretizations evaluate the oracle once per iteration, AB-2 keeps "
                 "that budget by reusing the previous value, RK4 needs four calls per step",
       method="count", expect="holds")
def oracle_calls_text(budget: str) -> Evidence:
    """Count, do not assume: every scheme gets the non-separable test field through
    `particles.integrators.counted` (a `CountingOracle` keyed on the positions: ∇_qH and ∇_pH at
    one q share one attention kernel, as F and G do in Algorithm 1) and runs n steps."""
    n = 10
    q0 = torch.tensor([0.8, -0.4, 0.3], dtype=F64)
    p0 = torch.tensor([0.0, 0.5, -0.2], dtype=F64)
    damp = S.damping("log-linear", r=3.0, m=0.5)
    printed = {"explicit_euler": 1, "conformal_symplectic_euler": 1, "exponential_euler": 1,
               "ab2": 1, "etd_ab2": 1, "rk4": 4}
    calls, evaluations = {}, {}
    for scheme in (*printed, "conformal_symplectic_euler_implicit", "conformal_midpoint"):
        field, oracle = I.counted(NONSEPARABLE)
        I.integrate(scheme, q0, p0, 1.0, [0.05] * n, field, damp)
        calls[scheme], evaluations[scheme] = oracle.calls / n, oracle.evaluations / n
    ok = all(calls[s] == c for s, c in printed.items())
    return Evidence(verdict=verdict_from(ok),
                    criterion="counted oracle calls per step equal the stated ones exactly",
                    numbers={"steps": n, "calls_per_step": calls,
                             "gradient_evaluations_per_step": evaluations, "stated": printed})


# ------------------------------------------------------------------ (2)-(3): Nesterov rates


@claim("sympformer:eq-2-limit", locator="Section 2, eq. (2) and the sentence before it",
       statement="with t = k√τ and τ → 0, the Nesterov scheme (2) (left) tends to the ODE (2) (right)",
       method="convergence", expect="holds")
def eq_2_limit(budget: str) -> Evidence:
    """On F = ½λx² (every convex quadratic is a sum of such modes) compare the iterates x^{(k)} of
    the scheme with the ODE solution 2J₁(√λt)/(√λt) at t = k√τ, over t ∈ [0, 10], for three
    curvatures; the sup error should vanish like √τ (Su–Boyd–Candès 2016, Theorem 2)."""
    lam, T = np.array([0.3, 1.0, 3.0]), 10.0
    taus = [1e-2, 1e-3, 1e-4] if budget == "quick" else [1e-2, 1e-3, 1e-4, 1e-5, 1e-6]
    errors = []
    for tau in taus:
        K = int(round(T / math.sqrt(tau)))
        xs = np.array(list(S.nesterov_modes(lam, tau, K)))
        t = np.arange(K + 1) * math.sqrt(tau)
        errors.append(float(np.abs(xs - S.nesterov_ode_quadratic(lam[None, :], t[:, None])).max()))
    order = float(np.polyfit(np.log(np.sqrt(taus)), np.log(errors), 1)[0])
    ok = abs(order - 1) < 0.15 and errors[-1] < errors[0] / 5
    return Evidence(verdict=verdict_from(ok),
                    criterion="sup_k |x^{(k)} − x(k√τ)| decreases with fitted order 1 ± 0.15 in √τ",
                    numbers={"tau": taus, "sup_error": errors, "fitted_order_in_sqrt_tau": order,
                             "lambda": lam, "T": T})


@claim("sympformer:eq-2-3-rate", locator="Section 2, eqs. (2)-(3) and the rates after (2)",
       statement="for convex F and τ < 1/L: F(x^{(k)}) − F* ≤ O(‖x₀ − x*‖/(τk²)) for the scheme (2), "
                 "and F(x(t)) − F* ≤ O(‖x₀ − x*‖/t²) for the ODE (2)-(3)",
       method="convergence", expect="holds-with-correction")
def eq_2_3_rate(budget: str) -> Evidence:
    """On convex quadratics (exact worst case over the spectrum: max over λ ∈ (0, L] of the mode
    ½λ c_k(λ)²). Printed bound: its right side is linear in ‖x₀ − x*‖ while F − F* is quadratic,
    so no constant works (scaling counterexample). Correction (Su–Boyd–Candès): the bounds
    2‖x₀−x*‖²/(τ(k+1)²) and 2‖x₀−x*‖²/t². The ODE is solved in closed form,
    x(t) = x₀·2J₁(√λ t)/(√λ t), and checked against solve_ivp; both rates are tight (k²·worst
    case tends to a positive constant, fitted slope −2)."""
    L, tau = 1.0, 1.0
    K = 2000 if budget == "quick" else 20000
    lam = L * np.logspace(-9, 0, 1500 if budget == "quick" else 6000)
    # F(x_k) − F* per unit ‖x₀ − x*‖², worst mode
    worst = np.array([float((0.5 * lam * x * x).max()) for x in S.nesterov_modes(lam, tau, K)])
    k = np.arange(K + 1)
    scaled = tau * (k + 1) ** 2 * worst
    discrete_bound_ok = bool(np.all(scaled <= 2.0 + 1e-12))
    tail = slice(K // 4, K + 1)
    slope_k = float(np.polyfit(np.log(k[tail]), np.log(worst[tail]), 1)[0])
    tail_const = float((tau * k[tail] ** 2 * worst[tail]).min())
    # printed (non-squared) bound: ratio (F − F*)·τk²/‖x₀ − x*‖ on F = ¼x², k = 10, x₀ = 10^j
    c10 = list(S.nesterov_modes(np.array([0.5 * L]), tau, 10))[10][0]
    scale = [1.0, 10.0, 100.0, 1000.0]
    printed_ratio = [0.5 * 0.5 * L * (c10 * s) ** 2 * tau * 100 / s for s in scale]
    printed_ok = max(printed_ratio) / min(printed_ratio) < 10  # bounded under scaling?
    # continuous: t²(F − F*)/‖x₀‖² = 2 J₁(s)², s = √λ t
    sup_cont = -minimize_scalar(lambda s: -2 * special.j1(s) ** 2, bounds=(0.5, 3.5),
                                method="bounded", options={"xatol": 1e-12}).fun
    ode_err = 0.0
    for lam1 in (0.3, 2.0):
        eps = 1e-4  # start off the singularity with the series x ≈ 1 − λt²/8, ẋ ≈ −λt/4
        sol = solve_ivp(lambda t, y: [y[1], -3 / t * y[1] - lam1 * y[0]], (eps, 20.0),
                        [1 - lam1 * eps ** 2 / 8, -lam1 * eps / 4], method="DOP853",
                        rtol=1e-12, atol=1e-13, dense_output=True)
        ts = np.linspace(1.0, 20.0, 40)
        ode_err = max(ode_err, float(np.abs(sol.sol(ts)[0] - S.nesterov_ode_quadratic(lam1, ts)).max()))
    continuous_ok = sup_cont <= 2.0 and ode_err < 1e-8
    # beyond quadratics: exact worst case over all L-smooth convex F (PEPit, optional), the
    # same iteration written as x̃ = x + c_j v, v⁺ = c_j v − τ∇F(x̃), x⁺ = x + v⁺, c_j = 1 − 3/(j+2)
    pep = {}
    for N in ((3, 6) if budget == "quick" else (3, 6, 10, 15, 20)):
        steps = [Momentum(a=1 - 3 / (j + 2), b=1 - 3 / (j + 2), c=1.0, eta=tau) for j in range(N)]
        value = pepit_worst_case("smooth-convex", steps, "value", L=L)
        if value is None:
            break
        pep[N] = value * tau * (N + 1) ** 2
    # PEPit's SDP solver is accurate to ~1e-7 relative
    pep_ok = all(v <= 2.0 * (1 + 1e-6) for v in pep.values())
    corrected_ok = (discrete_bound_ok and continuous_ok and abs(slope_k + 2) < 0.1
                    and tail_const > 0.01 and pep_ok)
    return Evidence(
        verdict=verdict_from(printed_ok, corrected_ok),
        criterion="printed holds iff (F − F*)τk²/‖x₀ − x*‖ stays bounded (ratio < 10) when x₀ − x* "
                  "is scaled by 1..1000; correction holds iff τ(k+1)²·worst ≤ 2 for all k ≤ K, "
                  "sup_s 2J₁(s)² ≤ 2 with the Bessel solution matching solve_ivp to 1e-8, the "
                  "fitted slope is −2 ± 0.1, k²·worst stays > 0.01 (tight), and (when PEPit is "
                  "installed) τ(N+1)²·worst case over L-smooth convex F ≤ 2",
        numbers={"K": K, "tau": tau, "L": L, "max_tau_(k+1)^2_worst": float(scaled.max()),
                 "fitted_slope_worst_vs_k": slope_k, "min_tail_k2_worst": tail_const,
                 "printed_ratio_for_scales": dict(zip(map(str, scale), printed_ratio)),
                 "sup_t2_gap_continuous": float(sup_cont), "bessel_vs_solve_ivp": ode_err,
                 "pepit_smooth_convex_tau_(N+1)^2_worst": {str(k): v for k, v in pep.items()}
                 or "PEPit not installed"},
        counterexample={"F": "¼x² (λ = L/2)", "k": 10, "tau": tau, "x0": scale,
                        "ratio_(F-F*)τk²/‖x0−x*‖": printed_ratio},
        correction="F(x^{(k)}) − F* ≤ 2‖x₀ − x*‖²/(τ(k+1)²) and F(x(t)) − F* ≤ 2‖x₀ − x*‖²/t² "
                   "(squared distance; constants of Su–Boyd–Candès, tight up to the constant)")


# ------------------------------------------------------------------ Table 4


@claim("sympformer:table-4", locator="Appendix B, Table 4 (with Algorithm 1)",
       statement="Table 4's (ζ₁, ζ₂) are the prefactors of the schemes (14), (15), (16) in the "
                 "update y ← ζ₁y + h_Y ζ₂ G of Algorithm 1",
       method="symbolic", expect="holds-with-correction")
def table_4(budget: str) -> Evidence:
    """Derive (ζ₁, ζ₂) from one step of each integrator (G = −∇_xH frozen) and compare with the
    printed rows. Plain Euler: ζ = (α_k, 1) as printed. Presymp Euler: (15) gives ζ₁ = ζ₂ = σ_k;
    printed 1 − α(t_k)h and 1 agree only to O(h²) and O(h). The printed pair is itself a valid
    first-order scheme (damp-then-kick split p ← c·p − h∇_xH with c = 1 − α(t_k)h, conformally
    symplectic with factor c for separable H); it is simply not (15). Presymp ExpEuler: ζ₁ = e^{−Δη_k}
    exact; α_eff is undefined — read as the effective rate Δη_k/h, h_Yζ₂ = h·w_k carries the
    extra factor h of the printed (16); read as Δη_k it is exact for constant damping."""
    cases = [(S.damping("constant", mu=0.8), 1.0, 0.25), (S.damping("nesterov"), 1.0, 0.1),
             (S.damping("log-linear", r=3.0, m=0.5), 2.0, 0.3)]
    g = torch.tensor([[0.7, -1.1, 0.4]], dtype=F64)         # frozen force G = −∇_xH
    field = I.HamiltonianField(lambda q, p: -g.expand_as(q), lambda q, p: torch.zeros_like(p))
    q, p = torch.zeros(1, 3, dtype=F64), torch.tensor([[0.3, 0.2, -0.5]], dtype=F64)
    rows, derived_max_err = [], 0.0
    for damp, t, h in cases:
        sigma, w, a = damp.sigma(t, h), damp.weight(t, h), damp.alpha(t)
        d_eta = damp.delta_eta(t, h)
        # derived prefactors reproduce the integrators' steps
        for scheme, step in (("presymp-euler", I.conformal_symplectic_euler),
                             ("presymp-expeuler", I.exponential_euler)):
            z1, z2 = S.zeta_derived(scheme, damp, t, h)
            p_new = step(q, p, t, h, field, damp).p
            derived_max_err = max(derived_max_err, float((p_new - (z1 * p + h * z2 * g)).abs().max()))
        printed_euler = S.zeta_table4("presymp-euler", h=h, alpha_t_k=a)
        rate = S.zeta_table4("presymp-expeuler", h=h, delta_eta=d_eta, alpha_eff=d_eta / h)
        dimless = S.zeta_table4("presymp-expeuler", h=h, delta_eta=d_eta, alpha_eff=d_eta)
        rows.append({"schedule": f"{damp.kind} r={damp.r} m={damp.m}", "t_k": t, "h": h,
                     "sigma_k": sigma, "w_k/h": w / h,
                     "presymp_euler_printed": printed_euler,
                     "presymp_euler_zeta1_minus_sigma_over_h2": (printed_euler[0] - sigma) / h ** 2,
                     "presymp_euler_zeta2_minus_sigma": printed_euler[1] - sigma,
                     "expeuler_zeta1_minus_sigma": rate[0] - sigma,
                     "expeuler_hzeta2_over_w_alpha_eff_rate": h * rate[1] / w,
                     "expeuler_hzeta2_over_w_alpha_eff_delta_eta": h * dimless[1] / w})
    tol = 1e-14  # ζ's are O(1) scalars from exp/log in float64
    printed_ok = all(abs(r["presymp_euler_zeta2_minus_sigma"]) < tol
                     and abs(r["presymp_euler_printed"][0] - r["sigma_k"]) < tol
                     and abs(r["expeuler_hzeta2_over_w_alpha_eff_rate"] - 1) < tol for r in rows)
    # Algorithm 1: α_ℓ = c_log/t + c_lin is the derivative of η = c_log ln t + c_lin t
    t_, cl, cn = sp.symbols("t c_log c_lin", positive=True)
    eta_ok = sp.simplify(sp.diff(cl * sp.log(t_) + cn * t_, t_) - (cl / t_ + cn)) == 0
    corrected_ok = derived_max_err < 1e-14 and eta_ok
    return Evidence(
        verdict=verdict_from(printed_ok, corrected_ok),
        criterion=f"printed holds iff the printed ζ's equal the derived ones to {tol:g}; the "
                  "correction holds iff the derived ζ's reproduce one step of (15) and corrected "
                  f"(16) to {tol:g} (and η̇ = α of Algorithm 1 symbolically)",
        numbers={"rows": rows, "derived_reproduce_steps_max_error": derived_max_err,
                 "algorithm1_eta_derivative_ok": eta_ok},
        counterexample={"row": "Presymp Euler", **rows[1]},
        correction="Presymp Euler per (15): ζ₁ = ζ₂ = σ_k = e^{−Δη_k} (the printed 1 − α(t_k)h_Y, 1 "
                   "is the other Lie-Trotter order, damp then kick, with σ_k linearized: a valid "
                   "first-order scheme, but not (15)); Presymp ExpEuler: ζ₁ = e^{−Δη_k}, "
                   "h_Yζ₂ = w_k = ∫_{t_k}^{t_{k+1}} e^{−(η(t_{k+1})−η(s))} ds, i.e. ζ₂ = "
                   "(1 − e^{−Δη_k})/Δη_k for constant damping (α_eff must be Δη_k, not a rate)")

"""Seed 000 (SympFormer), Section 2, eqs. (2)-(3): the Nesterov scheme, its ODE limit and the
O(1/k²), O(1/t²) rates.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special
from scipy.integrate import solve_ivp
from scipy.optimize import minimize_scalar

from claims import Evidence, claim, decide, decide_readings, reading
from claims._pepit import SKIPPED, worst_case as pepit_worst_case
from theory import schemes as S
from theory.rates import nesterov_convex_schedule


# ------------------------------------------------------------------ (2)-(3): Nesterov rates

RATE_TEXT = (
    r"For a convex function $F$ and any step size $\tau\in(0,\frac{1}{L})$, where $L$ is the "
    r"Lipschitz constant of $\nabla F$, the discrete scheme exhibits a convergence rate "
    r"$F(x^{(k)})-F^{*}\leq\mathcal{O}(\frac{\|x_{0}-x^{*}\|}{\tau k^{2}})$, where $x^{*}$ is a "
    r"minimizer of $F$ and $F^{*}=F(x^{*})$. … For the continuous dynamics, we have similarly $F(x(t))-F^{*}\leq\mathcal{O}(\frac{\|x_{0}-x^{*}\|}{t^{2}})$.")


def _grad_log_cosh_pair(x: np.ndarray) -> np.ndarray:
    """∇F of the convex, non-quadratic, non-separable F(x) = log cosh x₁ + log cosh(x₂ − x₁/2)."""
    u = np.tanh(x[1] - 0.5 * x[0])
    return np.array([np.tanh(x[0]) - 0.5 * u, u])


@claim("sympformer:eq-2-limit", locator="Section 2, eq. (2) and the sentence before it",
       statement="with t = k√τ and τ → 0, the Nesterov scheme (2) (left) tends to the ODE (2) (right)",
       method="convergence", expect="holds",
       paper_text=r"Nesterov’s accelerated gradient descent is obtained by choosing an extrapolation "
                  r"coefficient, as in the left part of (2). Substituting $t=k\sqrt{\tau}$ and letting "
                  r"$\tau\to 0$, Nesterov’s method can be interpreted through a continuous-time "
                  r"dynamical system [33]: $\begin{cases}x^{(k+1)}=y^{(k)}-\tau\nabla F(y^{(k)}),\\[5.69054pt] "
                  r"y^{(k+1)}=x^{(k+1)}+(1-\frac{3}{k+3})(x^{(k+1)}-x^{(k)}),\\ x^{(0)}=x_{0},\ "
                  r"y^{(0)}=x_{0}.\end{cases}\qquad\begin{cases}\ddot{x}(t)+\dfrac{3}{t}\dot{x}(t)+"
                  r"\nabla F(x(t))=0,\\[5.69054pt] x(0)=x_{0},\ \dot{x}(0)=0.\end{cases}$ (2)")
def eq_2_limit(budget: str) -> Evidence:
    """On F = ½λx² (every convex quadratic is a sum of such modes) compare the iterates x^{(k)} of
    the scheme with the ODE solution 2J₁(√λt)/(√λt) at t = k√τ, over t ∈ [0, 10], for three
    curvatures; the sup error should vanish like √τ (Su–Boyd–Candès 2016, Theorem 2). The sentence
    is about general F: the same on F(x) = log cosh x₁ + log cosh(x₂ − x₁/2), against the ODE solved
    by DOP853 (rtol 1e-12) from t = 1e-4 on its series x₀ − ∇F(x₀)t²/8 (error O(t⁴))."""
    lam, T = np.array([0.3, 1.0, 3.0]), 10.0
    taus = [1e-2, 1e-3, 1e-4] if budget == "quick" else [1e-2, 1e-3, 1e-4, 1e-5, 1e-6]
    x0, eps = np.array([2.0, -1.0]), 1e-4
    g0 = _grad_log_cosh_pair(x0)
    ode = solve_ivp(lambda t, z: np.concatenate([z[2:], -3 / t * z[2:] - _grad_log_cosh_pair(z[:2])]),
                    (eps, T), np.concatenate([x0 - g0 * eps ** 2 / 8, -g0 * eps / 4]), method="DOP853",
                    rtol=1e-12, atol=1e-13, dense_output=True)
    errors, general = [], []
    for tau in taus:
        K = int(round(T / math.sqrt(tau)))
        xs = np.array(list(S.nesterov_modes(lam, tau, K)))
        t = np.arange(K + 1) * math.sqrt(tau)
        errors.append(float(np.abs(xs - S.nesterov_ode_quadratic(lam[None, :], t[:, None])).max()))
        x_ode = np.where(t[:, None] < eps, x0, ode.sol(np.maximum(t, eps)).T[:, :2])
        general.append(float(np.abs(np.array(list(S.nesterov_scheme(_grad_log_cosh_pair, x0, tau, K))) - x_ode).max()))
    order = float(np.polyfit(np.log(np.sqrt(taus)), np.log(errors), 1)[0])
    order_general = float(np.polyfit(np.log(np.sqrt(taus)), np.log(general), 1)[0])
    ok = (abs(order - 1) < 0.15 and errors[-1] < errors[0] / 5
          and abs(order_general - 1) < 0.15 and general[-1] < general[0] / 5)
    return decide(ok,
                  criterion="sup_k |x^{(k)} − x(k√τ)| decreases with fitted order 1 ± 0.15 in √τ, on "
                            "quadratics and on a non-quadratic, non-separable convex F",
                  numbers={"tau": taus, "sup_error": errors, "fitted_order_in_sqrt_tau": order,
                           "lambda": lam, "T": T, "log_cosh_pair_sup_error": general,
                           "log_cosh_pair_fitted_order_in_sqrt_tau": order_general})


@claim("sympformer:eq-2-3-rate", locator="Section 2, eqs. (2)-(3) and the rates after (2)",
       statement="for convex F and τ < 1/L: F(x^{(k)}) − F* ≤ O(‖x₀ − x*‖/(τk²)) for the scheme (2), "
                 "and F(x(t)) − F* ≤ O(‖x₀ − x*‖/t²) for the ODE (2)-(3)",
       method="convergence", expect="holds-with-correction", paper_text=RATE_TEXT,
       referee="confirmed: F − F* scales with the square of x₀ − x* (F = ¼x² with x₀ scaled by "
               "1..1000 at k = 10 multiplies the printed ratio (F − F*)τk²/‖x₀ − x*‖ by 1000, and "
               "likewise t²(F − F*)/‖x₀ − x*‖ for the ODE), so no constant independent of x₀ "
               "works, whether or not it may depend on F or L; the cited bounds (Nesterov [24], "
               "Su–Boyd–Candès [33]) have ‖x₀ − x*‖², for which the worst case over quadratics "
               "and PEPit's over smooth convex F stay ≤ 2/(τ(k+1)²). A dropped square; reading O(·) "
               "with a constant that may depend on x₀ would make the displayed factor void")
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
    # the printed continuous bound under the same scaling: t²(F(x(t)) − F*)/‖x₀ − x*‖ at t = 2
    t_fix, lam_fix = 2.0, 0.5 * L
    cont_ratio = [0.5 * lam_fix * (s * S.nesterov_ode_quadratic(lam_fix, t_fix)) ** 2 * t_fix ** 2 / s
                  for s in scale]
    cont_printed_ok = max(cont_ratio) / min(cont_ratio) < 10
    # beyond quadratics: exact worst case over all L-smooth convex F (PEPit, optional), the
    # same iteration in the template's form (theory.rates.nesterov_convex_schedule, step τ):
    # x̃ = x + c_j v, v⁺ = c_j v − τ∇F(x̃), x⁺ = x + v⁺, c_j = 1 − 3/(j+2) (c_0 acts on v_0 = 0)
    pep = {}
    for N in ((3, 6) if budget == "quick" else (3, 6, 10, 15, 20)):
        value = pepit_worst_case("smooth-convex", nesterov_convex_schedule(1 / tau, N), "value", L=L)
        if value is None:
            break
        pep[N] = value * tau * (N + 1) ** 2
    # PEPit's SDP solver is accurate to ~1e-7 relative
    pep_ok = all(v <= 2.0 * (1 + 1e-6) for v in pep.values())
    corrected_ok = (discrete_bound_ok and continuous_ok and abs(slope_k + 2) < 0.1
                    and tail_const > 0.01 and pep_ok)
    readings = [
        reading("O(·) hides an absolute constant (uniform over convex L-smooth F, x₀ and τ)",
                printed_ok and cont_printed_ok),
        reading("O(·) hides a constant that may depend on F (its L, its shape) but not on the "
                "starting point x₀: F fixed, x₀ scaled", printed_ok and cont_printed_ok,
                discrete_ratio_spread=max(printed_ratio) / min(printed_ratio),
                continuous_ratio_spread=max(cont_ratio) / min(cont_ratio)),
        # every rate O(1/k²) holds with a constant allowed to depend on x₀, which voids the
        # displayed ‖x₀ − x*‖ and τ: no reading of a bound that displays them (R1)
        reading("O(·) hides a constant that may depend on x₀ (the worst case decays as k^−2: fitted "
                "slope within 0.1 of −2)", abs(slope_k + 2) < 0.1, not_admitted="unsupported",
                fitted_slope=slope_k),
    ]
    return decide_readings(
        readings, corrected_ok,
        criterion="a reading holds iff (F − F*)τk²/‖x₀ − x*‖ (k = 10) and t²(F(x(t)) − F*)/‖x₀ − x*‖ "
                  "(t = 2) stay bounded (spread < 10) when x₀ − x* is scaled by 1..1000 with F fixed; "
                  "correction holds iff τ(k+1)²·worst ≤ 2 for all k ≤ K, "
                  "sup_s 2J₁(s)² ≤ 2 with the Bessel solution matching solve_ivp to 1e-8, the "
                  "fitted slope is −2 ± 0.1, k²·worst stays > 0.01 (tight), and (when PEPit is "
                  "installed) τ(N+1)²·worst case over L-smooth convex F ≤ 2",
        numbers={"K": K, "tau": tau, "L": L, "max_tau_(k+1)^2_worst": float(scaled.max()),
                 "fitted_slope_worst_vs_k": slope_k, "min_tail_k2_worst": tail_const,
                 "printed_ratio_for_scales": dict(zip(map(str, scale), printed_ratio)),
                 "printed_continuous_ratio_for_scales": dict(zip(map(str, scale), cont_ratio)),
                 "sup_t2_gap_continuous": float(sup_cont), "bessel_vs_solve_ivp": ode_err,
                 "pepit_smooth_convex_tau_(N+1)^2_worst": {str(k): v for k, v in pep.items()}
                 or SKIPPED},
        counterexample={"F": "¼x² (λ = L/2)", "k": 10, "tau": tau, "x0": scale,
                        "ratio_(F-F*)τk²/‖x0−x*‖": printed_ratio},
        correction="F(x^{(k)}) − F* ≤ 2‖x₀ − x*‖²/(τ(k+1)²) and F(x(t)) − F* ≤ 2‖x₀ − x*‖²/t² "
                   "(squared distance; constants of Su–Boyd–Candès, tight up to the constant)")

"""Seed 004 (Zimin, Polyanskiy, Rigollet: YuriiFormer), §3.1 and §6: the optimization facts the
architecture rests on. The training tables are checked in `claims/yurii/training.py`, the parameter
counts in `claims/yurii/architecture.py`.
"""
from __future__ import annotations

import numpy as np

from claims import Evidence, claim, decide
from claims._pepit import SKIPPED, available, worst_case
from theory import rates as R


def _yurii_lie_trotter(X, V, attn, mlp, mu, beta, gamma):
    """One YuriiFormer block with Lie–Trotter splitting, transcribed from seed 004 §3.2
    (scalars per substep: index 0 for t, 1 for t + ½)."""
    X_in = X + mu[0] * V
    V_half = beta[0] * V + gamma[0] * attn(X_in)
    X_half = X + V_half
    X_half_in = X_half + mu[1] * V_half
    V_next = beta[1] * V_half + gamma[1] * mlp(X_half_in)
    return X_half + V_next, V_next


def _polyak_lie_trotter(X, V, attn, mlp, beta, gamma):
    """One Polyak (heavy-ball) block with Lie–Trotter splitting, transcribed from seed 004 §6."""
    V_half = beta[0] * V + gamma[0] * attn(X)
    X_half = X + V_half
    V_next = beta[1] * V_half + gamma[1] * mlp(X_half)
    return X_half + V_next, V_next


@claim("yurii:eq-6-heavy-ball", locator="§3.1, eq. (6); §6",
       statement="Polyak's heavy ball is NAG (6) with μ_t = 0, also for the Lie–Trotter blocks",
       method="symbolic", expect="holds",
       paper_text=r"$$\begin{aligned} (\text{Lookahead}) \quad &x_{t+\frac{1}{2}} = x_t + \mu_t v_t, \\ "
                  r"(\text{Velocity update}) \quad &v_{t+1} = \beta_t v_t - \gamma_t \nabla "
                  r"f(x_{t+\frac{1}{2}}), \quad (6) \\ (\text{State update}) \quad &x_{t+1} = x_t + "
                  r"v_{t+1}, \end{aligned}$$ [...] Polyak’s heavy-ball method (Polyak, 1964) omits the "
                  r"lookahead step and evaluates the gradient at the current iterate, $$v_{t+1} = \beta_t "
                  r"v_t - \gamma_t \nabla f(x_t), \quad x_{t+1} = x_t + v_{t+1}.$$ This corresponds to "
                  r"taking  $\mu_t = 0$  in NAG. [§6] Equivalently, it corresponds to the  $\mu_t = 0$  "
                  r"(no-lookahead) specialization of YURIIFORMER")
def eq6_heavy_ball(budget: str) -> Evidence:
    rng = np.random.default_rng(17)
    W1, W2 = rng.standard_normal((2, 5, 5)) / 3
    attn = lambda X: -np.tanh(X @ W1)                   # two smooth, non-linear oracles
    mlp = lambda X: -np.sin(X @ W2)
    steps = 30 if budget == "quick" else 300
    betas, gammas = rng.uniform(0, 1, (steps, 2)), rng.uniform(0, 0.5, (steps, 2))
    # eq. (6) with μ_t = 0 against the printed heavy-ball recursion, time-varying β_t, γ_t
    grad = lambda x: -attn(x)
    x0 = rng.standard_normal((4, 5))
    nag = R.run_momentum(grad, x0, [R.nesterov(0.0, b, g)
                                    for b, g in zip(betas[:, 0], gammas[:, 0])])
    x, v, hb = x0, 0 * x0, [x0]
    for b, g in zip(betas[:, 0], gammas[:, 0]):
        v = b * v - g * grad(x)
        x = x + v
        hb.append(x)
    single = max(float(np.abs(p - q).max()) for p, q in zip(nag, hb))
    # the Lie–Trotter blocks of §3.2 (μ = 0) and §6
    X1 = X2 = x0
    V1 = V2 = rng.standard_normal((4, 5))
    block = 0.0
    for b, g in zip(betas, gammas):
        X1, V1 = _yurii_lie_trotter(X1, V1, attn, mlp, (0.0, 0.0), b, g)
        X2, V2 = _polyak_lie_trotter(X2, V2, attn, mlp, b, g)
        block = max(block, float(np.abs(X1 - X2).max()), float(np.abs(V1 - V2).max()))
    matrices = float(np.abs(R.iteration_matrix(R.nesterov(0.0, 0.7, 0.1), np.linspace(0, 5, 9))
                            - R.iteration_matrix(R.heavy_ball(0.7, 0.1), np.linspace(0, 5, 9))
                            ).max())
    ok = single == 0.0 and block == 0.0 and matrices == 0.0
    return decide(
        ok,
        criterion="bitwise equality (0 difference) of eq. (6) at μ_t = 0 and the printed "
                  "heavy-ball recursion, of the Lie–Trotter YuriiFormer block at μ = 0 and the "
                  "Polyak block, and of their per-mode iteration matrices",
        numbers={"steps": steps, "single_oracle_max_diff": single, "lie_trotter_max_diff": block,
                 "iteration_matrix_max_diff": matrices})


@claim("yurii:momentum-template-text", locator="§3.1",
       statement="classical momentum schemes collapse into the single acceleration template (6)",
       method="property", expect="holds",
       paper_text=r"Consequently, classical momentum schemes collapse into a single *acceleration "
                  r"template* when expressed at the level of modulated gradient oracles.")
def momentum_template(budget: str) -> Evidence:
    """Heavy ball is (6) with μ = 0 (entry eq-6-heavy-ball); here the triple momentum method of
    Van Scoy–Freeman–Lynch, run in its own three-sequence form, against (6) with (μ, β, γ) =
    (γ_T, β_T, α_T), and seed 002's (μ,β,γ,ν) form against (6) with (μ/ν, β, νγ)."""
    rng = np.random.default_rng(19)
    A = rng.standard_normal((15, 6))
    grad = lambda x: A.T @ np.tanh(A @ x) + 0.1 * x   # smooth, strongly convex, not quadratic
    L = float(np.linalg.eigvalsh(A.T @ A).max()) + 0.1
    tm, _ = R.triple_momentum_vsfl(0.1, L)
    rho = 1 - np.sqrt(0.1 / L)
    alpha, beta = (1 + rho) / L, rho**2 / (2 - rho)
    gamma = rho**2 / ((1 + rho) * (2 - rho))
    steps = 50 if budget == "quick" else 500
    xi_prev = xi = rng.standard_normal(6)
    vsfl = [xi]
    for _ in range(steps):  # ξ⁺ = (1+β)ξ − βξ⁻ − α∇f((1+γ)ξ − γξ⁻)
        xi, xi_prev = (1 + beta) * xi - beta * xi_prev - alpha * grad((1 + gamma) * xi
                                                                      - gamma * xi_prev), xi
        vsfl.append(xi)
    template = R.run_momentum(grad, vsfl[0], [tm] * steps)
    vsfl_err = max(float(np.abs(p - q).max()) for p, q in zip(vsfl, template))
    mu, b, g, nu = 0.3, 0.8, 0.5 / L, 1.7
    tmm = R.run_momentum(grad, vsfl[0], [R.triple_momentum(mu, b, g, nu)] * steps)
    nag = R.run_momentum(grad, vsfl[0], [R.nesterov(mu / nu, b, nu * g)] * steps)
    tmm_err = max(float(np.abs(p - q).max()) for p, q in zip(tmm, nag))
    ok = vsfl_err < 1e-10 and tmm_err < 1e-10
    return decide(
        ok,
        criterion="trajectories of VSFL triple momentum (own form) and of the (μ,β,γ,ν) form agree "
                  "with template (6) runs to < 1e-10 (rounding of the two algebraic orders)",
        numbers={"steps": steps, "vsfl_vs_template": vsfl_err, "tmm_nu_vs_template": tmm_err,
                 "vsfl_as_template": {"mu": tm.a, "beta": tm.b, "gamma": tm.eta}})


def _nesterov_hard_quadratic(n: int, L: float):
    """Nesterov's worst smooth convex quadratic (Introductory Lectures, §2.1.2):
    f(x) = L/4 (½ xᵀAx − x₁), A = tridiag(−1, 2, −1) of size n; x*_i = 1 − i/(n+1)."""
    def A(x):  # tridiag(−1, 2, −1) x as a stencil
        Ax = 2 * x
        Ax[1:] -= x[:-1]
        Ax[:-1] -= x[1:]
        return Ax

    e1 = np.eye(n)[0]
    f = lambda x: L / 4 * (0.5 * x @ A(x) - x[0])
    grad = lambda x: L / 4 * (A(x) - e1)
    xstar = 1 - np.arange(1, n + 1) / (n + 1)
    return f, grad, xstar


def _log_cosh_regression(seed: int, L: float):
    """f(x) = Σ_i w_i log cosh(a_iᵀ(x − x*)): smooth, convex, not strongly convex far from x*
    (log cosh grows linearly), f* = 0; scaled so that its smoothness constant is L."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((30, 10))
    w = rng.uniform(0.1, 1.0, 30)
    A *= np.sqrt(L / np.linalg.eigvalsh(A.T @ (w[:, None] * A)).max())  # (log cosh)'' ≤ 1
    xstar = rng.standard_normal(10)
    f = lambda x: float(w @ np.logaddexp(A @ (x - xstar), -A @ (x - xstar)) - w.sum() * np.log(2))
    grad = lambda x: A.T @ (w * np.tanh(A @ (x - xstar)))
    return f, grad, xstar


@claim("yurii:nag-rate-convex", locator="§3.1",
       statement="NAG achieves the optimal O(1/t²) rate on smooth convex objectives (GD does not)",
       method="convergence", expect="holds",
       paper_text=r"It was proposed in the early eighties by Yurii Nesterov to achieve the optimal "
                  r"iteration complexity  $O(1/t^2)$  on smooth convex objectives after the realization "
                  r"that the pervasive Gradient Descent (GD) algorithm was suboptimal.")
def nag_rate_convex(budget: str) -> Evidence:
    L = 1.0
    T = 200 if budget == "quick" else 2000
    problems = {"nesterov_hard_quadratic": _nesterov_hard_quadratic(2 * T + 1, L)}
    for seed in range(2 if budget == "quick" else 10):
        problems[f"log_cosh_{seed}"] = _log_cosh_regression(seed, L)
    schedule = R.nesterov_convex_schedule(L, T)
    t = np.arange(T + 1)
    worst_ratio, gd_growth, lower_ratio = {}, None, None
    for name, (f, grad, xstar) in problems.items():
        fstar = f(xstar)
        x0 = np.zeros_like(xstar) if name.startswith("nesterov") else xstar + 3.0
        R0 = float(np.sum((x0 - xstar) ** 2))
        bound = 2 * L * R0 / (t + 1.0) ** 2    # Su–Boyd–Candès, Theorem 1 (s = 1/L)
        gaps = np.array([f(x) - fstar for x in R.run_momentum(grad, x0, schedule)])
        worst_ratio[name] = float(np.max(gaps / bound))
        if name.startswith("nesterov"):
            # optimality (Nesterov, Introductory Lectures, Thm 2.1.7): x_k lies in span(e_1..e_k), so
            # f(x_k) − f* ≥ f*_k − f*_n = (L/8)(1/(k+1) − 1/(n+1)) for every first-order method; at
            # k = T (n = 2T+1) this is ≥ 3L‖x₀ − x*‖²/(32(T+1)²): the order 1/t² cannot be beaten
            n = len(xstar)
            lower = L / 8 * (1 / (t[1:] + 1.0) - 1 / (n + 1.0))
            lower_ratio = {"min_gap_over_krylov_bound": float(np.min(gaps[1:] / lower)),
                           "gap_at_T_over_3LR0/(32(T+1)^2)": float(gaps[T] / (3 * L * R0 / (32 * (T + 1.0) ** 2)))}
            gd = np.array([f(x) - fstar for x in R.run_momentum(
                grad, x0, [R.gradient_descent(1.0 / L)] * T)])
            gd_growth = {T // 2: float((gd / bound)[T // 2]), T: float((gd / bound)[T])}
    pepit = ({N: {"worst": worst_case("smooth-convex", R.nesterov_convex_schedule(L, N), "value",
                                      L=L), "bound": 2 * L / (N + 1) ** 2}
              for N in ((1, 2, 3) if budget == "quick" else (1, 2, 3, 5, 8))}
             if available() else SKIPPED)
    pepit_ok = pepit == SKIPPED or all(v["worst"] <= v["bound"] * (1 + 1e-4) for v in pepit.values())
    gd_suboptimal = gd_growth[T] > 1.5 * gd_growth[T // 2]     # GD's gap·t² keeps growing
    ok = (max(worst_ratio.values()) <= 1.0 and pepit_ok and gd_suboptimal
          and lower_ratio["min_gap_over_krylov_bound"] >= 1.0 - 1e-9)   # rounding of the gaps
    return decide(
        ok,
        criterion="f(x_t) − f* ≤ 2L‖x_0 − x*‖²/(t+1)² for every t ≤ T on Nesterov's worst "
                  "quadratic "
                  "(dimension 2T+1) and on log-cosh regressions; PEPit's exact worst case over "
                  "L-smooth convex f (when installed) within the bound up to the SDP solver's "
                  "accuracy (1e-4 relative); optimal: on that quadratic NAG's gap stays above the "
                  "Krylov bound (L/8)(1/(k+1) − 1/(n+1)) that binds every first-order method (at k = T "
                  "it is ≥ 3L‖x_0 − x*‖²/(32(T+1)²), so 1/t² cannot be improved); GD suboptimal: its "
                  "gap over the 1/t² bound grows by > 1.5x from T/2 to T",
        numbers={"T": T, "max_gap_over_bound": worst_ratio,
                 "gd_gap_over_nag_bound_at_T/2_and_T (grows: GD is only O(1/t))": gd_growth,
                 "lower_bound": lower_ratio, "pepit": pepit})

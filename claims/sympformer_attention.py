"""Seed 000 (SympFormer), Sections 4-5 and the abstract: linear attention as a Stein flow, the
elliptical moment ODEs, the accelerated softmax particle system and its Hamiltonians, Example 5.5,
and the 'faster at the same number of oracle calls' claim.

Claim ids are `sympformer:...`; the time-discretization claims of Section 2 live in
`claims/sympformer.py`. Every check is float64 with fixed seeds.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
import torch
from scipy.integrate import solve_ivp
from torch.func import grad, hessian, vmap

from claims import Evidence, claim, verdict_from
from particles import accelerated as acc
from particles import attention as att
from particles.threads import torch_threads
from theory import elliptical as ell

DT = torch.float64


def _t(a) -> torch.Tensor:
    return torch.as_tensor(np.asarray(a, dtype=np.float64), dtype=DT)


def _spd(rng: np.random.Generator, d: int, lo: float = 0.5) -> np.ndarray:
    Q = rng.standard_normal((d, d))
    return Q @ Q.T / d + lo * np.eye(d)


def _sym(rng: np.random.Generator, d: int) -> np.ndarray:
    Q = rng.standard_normal((d, d))
    return 0.5 * (Q + Q.T)


def _rel(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300))


# ====================================================================== Section 4: linear attention


@claim("sympformer:eq-23", locator="Section 4.1, eq. (23)",
       statement="the linear-attention transformer PDE (23) is the Stein gradient flow (5) of "
                 "F^lin(ρ) = −½∫yᵀVyρ with kernel k(x,y) = yᵀAx (V symmetric)",
       method="symbolic", expect="holds")
@torch_threads(1)
def eq_23(budget: str) -> Evidence:
    d = 2
    x = sp.Matrix(sp.symbols("x1:3"))
    y = sp.Matrix(sp.symbols("y1:3"))
    A = sp.Matrix(d, d, lambda i, j: sp.Symbol(f"a{min(i, j)}{max(i, j)}"))
    V = sp.Matrix(d, d, lambda i, j: sp.Symbol(f"v{min(i, j)}{max(i, j)}"))
    V_general = sp.Matrix(d, d, lambda i, j: sp.Symbol(f"w{i}{j}"))

    def flux_residual(V_):
        # F^lin is linear in ρ with integrand −½ yᵀVy, so δF^lin/δρ (y) = −½ yᵀVy; its gradient:
        dF = (-sp.Rational(1, 2) * y.T * V_ * y)[0]
        grad_dF = sp.Matrix([sp.diff(dF, yi) for yi in y])
        k = (y.T * A * x)[0]
        # −(G^S)^{-1}[δF/δρ] = ∇·(ρ ∫ k ∇δF/δρ ρ) must equal −∇·(ρ ∫ yᵀAx V y ρ) of (23): compare
        # the integrands of the two fluxes pointwise in (x, y).
        return (-k * grad_dF - (y.T * A * x)[0] * V_ * y).applyfunc(sp.expand)

    res_sym = flux_residual(V)
    res_gen = flux_residual(V_general)
    printed_grad = sp.Matrix([sp.diff((-sp.Rational(1, 2) * y.T * V * y)[0], yi) for yi in y]) + V * y
    ok = res_sym.is_zero_matrix and printed_grad.applyfunc(sp.expand).is_zero_matrix
    return Evidence(
        verdict=verdict_from(bool(ok)),
        criterion="sympy: the flux integrands of −(G^S_ρ)^{-1}[δF^lin/δρ] with k(x,y)=yᵀAx and of (23) "
                  "agree identically for generic symmetric V, A (d=2), and ∇_y δF^lin/δρ = −Vy as printed",
        numbers={"residual_symmetric_V": str(list(res_sym)), "gradient_residual": str(list(printed_grad)),
                 "residual_general_V": str(list(res_gen)),
                 "note": "for non-symmetric V the flow is that of the symmetric part (V+Vᵀ)/2: the "
                         "residual above is nonzero, so the paper's assumption 'V symmetric' is needed"})


@claim("sympformer:stein-kernel", locator="Section 4.1 with eq. (5)",
       statement="k(x,y) = yᵀAx is an admissible Stein kernel of (5): symmetric, integrally strictly "
                 "positive definite, ∫k(x,x)dx < ∞, so G^lin is an invertible metric tensor",
       method="property", expect="holds-with-correction")
@torch_threads(1)
def stein_kernel(budget: str) -> Evidence:
    rng = np.random.default_rng(0)
    d = 2
    A = _spd(rng, d)
    # Integral strict positive definiteness fails: for a signed measure μ, ∫∫ k dμ dμ =
    # (∫x dμ)ᵀ A (∫y dμ), which vanishes for every μ with zero first moment, e.g. μ = δ_e1 + δ_{−e1}.
    pts = np.array([[1.0, 0.0], [-1.0, 0.0]])
    mu = np.array([1.0, 1.0])
    quad_form = float(mu @ (pts @ A @ pts.T) @ mu)
    # ∫ k(x,x) dx = ∫ xᵀAx dx over R^d diverges: the integral over the ball of radius R grows like R^{d+2}.
    radii = [1.0, 2.0, 4.0, 8.0]
    sphere = 2 * math.pi ** (d / 2) / math.gamma(d / 2)  # |S^{d-1}|
    ball = [float(np.trace(A) / d * sphere * R ** (d + 2) / (d + 2)) for R in radii]  # ∫_{|x|<R} xᵀAx dx
    # The metric is degenerate: for ρ = N(0, 1) in d = 1, Φ(y) = y³ − 3y (Hermite He3) is not
    # constant but ∫ Φ'(y) y ρ(y) dy = 0, so (G^lin_ρ)^{-1}[Φ] = −∂_x(ρ(x) x a ∫Φ'(y) y ρ dy) = 0.
    yy = sp.Symbol("y", real=True)
    rho = sp.exp(-yy ** 2 / 2) / sp.sqrt(2 * sp.pi)
    phi = yy ** 3 - 3 * yy
    moment = sp.integrate(sp.diff(phi, yy) * yy * rho, (yy, -sp.oo, sp.oo))
    # The correction: k is a symmetric positive semi-definite kernel of rank d (Gram matrices PSD, rank ≤ d).
    Xs = rng.standard_normal((12, d))
    gram = Xs @ A @ Xs.T
    eig = np.linalg.eigvalsh(gram)
    rank = int(np.sum(eig > 1e-10 * eig[-1]))
    printed = quad_form > 0 and sp.simplify(moment) != 0
    correction_ok = eig[0] > -1e-12 * eig[-1] and rank == d
    return Evidence(
        verdict=verdict_from(printed, correction_ok),
        criterion="ISPD needs ∫∫k dμdμ > 0 for every nonzero μ; G^lin invertible needs G^{-1}[Φ] ≠ 0 for "
                  "non-constant Φ; the correction passes if Gram matrices are PSD (λ_min ≥ −1e-12 λ_max, "
                  "float64) with numerical rank exactly d",
        numbers={"quadratic_form_zero_mean_measure": quad_form, "int_ball_k_xx": dict(zip(radii, ball)),
                 "moment_He3": str(moment), "gram_eigenvalues": eig, "gram_rank": rank, "d": d},
        counterexample={"measure": "δ_(1,0) + δ_(−1,0)", "value": quad_form,
                        "degenerate_direction": "ρ = N(0,1), Φ = y³ − 3y ⇒ (G^lin_ρ)^{-1}[Φ] = 0"},
        correction="k(x,y) = yᵀAx is symmetric positive semi-definite of rank d (not ISPD, ∫k(x,x)dx = ∞); "
                   "G^lin is degenerate (only ∫∇Φ(y)yᵀρ(y)dy enters), so the Stein-flow identification of "
                   "(23) is formal: the flow moves only along linear maps x ↦ Cx")


def _psi_weights(w, pts, grad_phi, A):
    """Ψ(ρ) = ½ ∫∫ ⟨∇Φ(x), ∇Φ(y)⟩ yᵀAx ρ(x)ρ(y) for ρ = Σ w_i δ_{pts_i}."""
    G = grad_phi @ grad_phi.T * (pts @ A @ pts.T).T
    return 0.5 * w @ G @ w


@claim("sympformer:prop-4.1", locator="Proposition 4.1, eq. (24); proof in Appendix A",
       statement="(9) with G^lin and F^lin is (24): δ/δρ ½∫Φ(G^lin)^{-1}[Φ] = ∫⟨∇Φ(x),∇Φ(y)⟩yᵀAxρ(y)dy "
                 "(A symmetric) and δF^lin/δρ = −½xᵀVx",
       method="property", expect="holds")
@torch_threads(1)
def prop_4_1(budget: str) -> Evidence:
    rng = np.random.default_rng(1)
    n, d = 7, 3
    A, A_ns = _t(_spd(rng, d)), _t(rng.standard_normal((d, d)))
    P, b = _t(_sym(rng, d)), _t(rng.standard_normal(d))
    pts, w0 = _t(rng.standard_normal((n, d))), _t(rng.uniform(0.1, 1.0, n))

    def phi(x):  # a non-quadratic potential: ½xᵀPx + bᵀx + Σ sin(x)
        return 0.5 * x @ P @ x + b @ x + torch.sin(x).sum()

    grad_phi = vmap(grad(phi))(pts)

    def printed_variation(A_):
        return (grad_phi @ grad_phi.T * (pts @ A_ @ pts.T).T) @ w0  # ∫⟨∇Φ(x),∇Φ(y)⟩ yᵀAx ρ(y)dy at x_i

    errs = {}
    for name, A_ in (("symmetric_A", A), ("nonsymmetric_A", A_ns)):
        w = w0.clone().requires_grad_(True)
        (g,) = torch.autograd.grad(_psi_weights(w, pts, grad_phi, A_), w)
        errs[name] = _rel(g.numpy(), printed_variation(A_).numpy())
    # Integration by parts in the proof (d = 1, ρ Gaussian, Φ a cubic): ½∫Φ (G^lin)^{-1}[Φ] = Ψ(ρ).
    x, y = sp.symbols("x y", real=True)
    a = sp.Rational(3, 2)
    rho = lambda z: sp.exp(-(z - sp.Rational(1, 3)) ** 2 / 2) / sp.sqrt(2 * sp.pi)  # noqa: E731
    Phi = lambda z: z ** 3 / 3 - z / 2  # noqa: E731
    inner = sp.integrate(y * a * sp.diff(Phi(y), y) * rho(y), (y, -sp.oo, sp.oo))  # ∫ y a Φ'(y) ρ(y) dy
    lhs = sp.Rational(1, 2) * sp.integrate(Phi(x) * (-sp.diff(rho(x) * x * inner, x)), (x, -sp.oo, sp.oo))
    rhs = sp.Rational(1, 2) * sp.integrate(sp.diff(Phi(x), x) * x * rho(x), (x, -sp.oo, sp.oo)) * inner
    ibp = sp.simplify(lhs - rhs)
    ok = errs["symmetric_A"] < 1e-13 and ibp == 0
    return Evidence(
        verdict=verdict_from(ok),
        criterion="autograd first variation of Ψ over atom weights equals the printed derivative to "
                  "< 1e-13 relative (float64 rounding of O(n²) sums), and the integration by parts is "
                  "exactly zero in sympy",
        numbers={"rel_error_symmetric_A": errs["symmetric_A"], "rel_error_nonsymmetric_A": errs["nonsymmetric_A"],
                 "integration_by_parts_residual": str(ibp), "atoms": n, "d": d,
                 "note": "for non-symmetric A the derivative is ½∫⟨∇Φ(x),∇Φ(y)⟩(yᵀAx + xᵀAy)ρ(y)dy; "
                         "Section 4 assumes A symmetric"})


@claim("sympformer:ex-4.2", locator="Example 4.2 and condition i) of Section 4.2",
       statement="κ_g = 1 (Gaussian) and v/(v−2) (Student-t, v>2); the printed generators satisfy "
                 "normalization i); further families of [30, Sec. 6] have explicit κ_g",
       method="symbolic", expect="holds")
@torch_threads(1)
def ex_4_2(budget: str) -> Evidence:
    v = sp.Symbol("v", positive=True)
    dims = (1, 2, 3) if budget == "quick" else (1, 2, 3, 4, 5)
    rows, ok = {}, True
    for d in dims:
        kg, kt = ell.kappa_g(ell.g_gaussian(d), d), ell.kappa_g(ell.g_student_t(d, v), d)
        ng, nt = ell.normalization(ell.g_gaussian(d), d), ell.normalization(ell.g_student_t(d, v), d)
        res = [sp.simplify(kg - 1), sp.simplify(kt - v / (v - 2)), sp.simplify(ng - 1), sp.simplify(nt - 1)]
        rows[f"d={d}"] = {"kappa_gaussian": str(kg), "kappa_student_t": str(kt),
                          "norm_gaussian": str(ng), "norm_student_t": str(nt)}
        ok &= all(r == 0 for r in res)
    # Power-exponential family: normalization and κ_g by integration vs the closed form.
    pe = {}
    for d in (1, 2):
        for beta in (sp.Rational(1, 2), sp.Integer(2)):
            g = ell.g_power_exponential(d, beta)
            k = ell.kappa_g(g, d)
            res = sp.simplify(k - ell.kappa_power_exponential(d, beta))
            nrm = sp.simplify(ell.normalization(g, d) - 1)
            pe[f"d={d},beta={beta}"] = {"kappa": str(k), "float": float(k)}
            ok &= res == 0 and nrm == 0
    # Logistic family: closed form via the Dirichlet eta function vs 30-digit quadrature.
    logi = {d: (ell.kappa_logistic(d), ell.kappa_logistic_quadrature(d)) for d in (1, 2, 3)}
    logi_err = max(abs(a - b) / b for a, b in logi.values())
    ok &= logi_err < 1e-13 and abs(logi[2][0] - math.log(2)) < 1e-15
    return Evidence(
        verdict=verdict_from(bool(ok)),
        criterion="sympy residuals exactly 0 (Gaussian, Student-t with symbolic v, power-exponential); "
                  "logistic closed form vs mpmath quadrature < 1e-13 relative (float64 of a 30-digit value)",
        numbers={"gaussian_student_t": rows, "power_exponential": pe,
                 "logistic_closed_vs_quadrature": {str(d): list(vv) for d, vv in logi.items()},
                 "logistic_max_rel_error": logi_err})


# ---------------------------------------------------------------------- Proposition 4.3 / Cor. 4.4


def _nesterov(t: float) -> float:
    """α_t = 3/t (the Nesterov damping of (2)-(3)); the linear-attention checks start at t0 = 1."""
    return 3.0 / t


LINEAR_SETUP = {"d": 2, "t0": 1.0, "T": 3.0, "m0": [0.6, -0.4], "v": 5.0}


def _linear_problem():
    """A SPD, V symmetric indefinite, Σ_0 SPD (fixed, O(1) scales: the quadratic moment ODEs blow up
    in finite time for large A, Σ_0 or V, and [1, 3] stays well inside the existence interval)."""
    A = np.array([[1.0, 0.3], [0.3, 0.6]])
    V = np.array([[-0.5, 0.2], [0.2, 0.3]])
    Sigma0 = np.array([[0.4, 0.1], [0.1, 0.25]])
    return A, V, Sigma0


def _empirical(X: np.ndarray):
    """Empirical mean, (biased) covariance and second moment of the rows of X."""
    m = X.mean(axis=0)
    K = (X - m).T @ (X - m) / X.shape[0]
    return m, K, X.T @ X / X.shape[0]


def linear_particles_vs_moments(family: str, N: int, seed: int, t_eval, empirical: bool,
                                rtol: float = 1e-11):
    """Run the particle system (28) from N samples of E(m0, Σ0, g) with Y(t0) = 0 and compare with the
    moment ODEs (25)-(26), started either from the empirical moments of the sample
    (`empirical=True`: the exact finite-N statement) or from the population (m0, Σ0)."""
    from functools import partial
    A, V, Sigma0 = _linear_problem()
    m0 = np.array(LINEAR_SETUP["m0"])
    v = LINEAR_SETUP["v"]
    kappa = ell.kappa_value(family, v)
    X0 = ell.sample_elliptical(family, m0, Sigma0, N, np.random.default_rng(seed), v=v)
    t0 = LINEAR_SETUP["t0"]
    Xt, Yt = acc.solve_particles(partial(acc.linear_oracles, A=_t(A), V=_t(V)), _t(X0), _t(np.zeros_like(X0)),
                                 _nesterov, t_eval, t0=t0, rtol=rtol, atol=rtol * 0.1)
    if empirical:
        m_N, K_N, _ = _empirical(X0)
        path = ell.solve_25_26(m_N, K_N / kappa, A, V, kappa, _nesterov, t_eval, t0=t0)
    else:
        path = ell.solve_25_26(m0, Sigma0, A, V, kappa, _nesterov, t_eval, t0=t0)
    Xt, Yt = Xt.numpy(), Yt.numpy()
    out = {"mean": [], "cov": [], "Y_eq_XP": [], "linear_pushforward": [], "particle_cov": [],
           "ode_cov": path.covariance}
    for k in range(len(t_eval)):
        m_k, K_k, _ = _empirical(Xt[k])
        out["particle_cov"].append(K_k)
        out["mean"].append(float(np.linalg.norm(m_k - path.m[k]) / max(np.linalg.norm(path.m[k]), 1e-12)))
        out["cov"].append(_rel(K_k, path.covariance[k]))
        out["Y_eq_XP"].append(_rel(Yt[k], Xt[k] @ path.P[k]))
        G, *_ = np.linalg.lstsq(X0, Xt[k], rcond=None)  # X(t) = X(0) Gᵀ for one matrix G?
        out["linear_pushforward"].append(_rel(X0 @ G, Xt[k]))
    return out


@claim("sympformer:prop-4.3", locator="Proposition 4.3, eqs. (25)-(26)",
       statement="particles of (28) started from Gaussian / Student-t samples stay elliptical and their "
                 "moments follow (25)-(26); exactly at finite N with empirical moments in place of "
                 "(m, κ_gΣ), with Y_i = P_t X_i",
       method="property", expect="holds", figures=["elliptical-covariance"])
@torch_threads(1)
def prop_4_3(budget: str) -> Evidence:
    N = 200 if budget == "quick" else 1000
    t_eval = np.linspace(LINEAR_SETUP["t0"], LINEAR_SETUP["T"], 9)
    worst, numbers, series = 0.0, {"N": N, "t_eval": t_eval, **LINEAR_SETUP}, {}
    A, V, Sigma0 = _linear_problem()
    for family in ("gaussian", "student_t"):
        res = linear_particles_vs_moments(family, N, seed=11, t_eval=t_eval, empirical=True)
        numbers[family] = {k: max(v) for k, v in res.items() if k not in ("particle_cov", "ode_cov")}
        worst = max(worst, *numbers[family].values())
        kappa = ell.kappa_value(family, LINEAR_SETUP["v"])
        population = ell.solve_25_26(LINEAR_SETUP["m0"], Sigma0, A, V, kappa, _nesterov, t_eval, t0=LINEAR_SETUP["t0"])
        series[family] = {"particles": np.array(res["particle_cov"]), "ode_empirical_start": res["ode_cov"],
                          "ode_population_start": population.covariance, "kappa": kappa}
    numbers["series"] = series
    return Evidence(
        verdict=verdict_from(worst < 1e-8),
        criterion="max relative error over t of: particle mean/covariance vs (25)-(26) started at the "
                  "empirical moments, Y(t) vs X(t)P_t, and the best linear map X(0) ↦ X(t), all < 1e-8 "
                  "(both sides integrated by DOP853 at rtol 1e-11 over t ∈ [1, 3])",
        numbers={**numbers, "worst": worst,
                 "derivation": "with Y_i = P X_i, (28) gives Ẋ_i = P S_N A X_i, S_N = (1/N)XᵀX, so X(t) = "
                               "X(0)G_tᵀ and (m_N, K_N, P) obey (25)-(26) with κ_gΣ ↦ K_N exactly"})


@claim("sympformer:prop-4.3-mean-field", locator="Proposition 4.3 (mean-field limit of Proposition 4.5)",
       statement="the particle covariance at time T converges to the population κ_gΣ_T of (25)-(26) at the "
                 "Monte-Carlo rate N^{-1/2} (Gaussian and Student-t with v = 5)",
       method="convergence", expect="holds", figures=["elliptical-covariance"])
@torch_threads(1)
def prop_4_3_mean_field(budget: str) -> Evidence:
    Ns = [100, 400, 1600] if budget == "quick" else [50, 200, 800, 3200, 12800]
    seeds = range(6) if budget == "quick" else range(32)
    t_eval = [LINEAR_SETUP["t0"], LINEAR_SETUP["T"]]
    numbers, ok = {"N": Ns, "seeds": len(seeds)}, True
    for family in ("gaussian", "student_t"):
        err = [float(np.sqrt(np.mean([linear_particles_vs_moments(family, N, 1000 + s, t_eval, False, 1e-8)["cov"][-1] ** 2
                                      for s in seeds]))) for N in Ns]
        slope = float(np.polyfit(np.log(Ns), np.log(err), 1)[0])
        numbers[family] = {"rms_rel_cov_error_T": err, "slope": slope}
        ok &= -0.75 < slope < -0.25
    return Evidence(
        verdict=verdict_from(ok),
        criterion="least-squares slope of log(rms relative covariance error at T) vs log N within "
                  "(−0.75, −0.25) for both families (Monte-Carlo rate −½; band allows the sampling "
                  "noise of the rms over the seeds; solver rtol 1e-8 ≪ errors ≥ 1e-2)",
        numbers=numbers)


@claim("sympformer:cor-4.4", locator="Corollary 4.4, eq. (27)",
       statement="with m_0 = 0, (25)-(26) reduce to (27)",
       method="symbolic", expect="holds")
@torch_threads(1)
def cor_4_4(budget: str) -> Evidence:
    res_S, res_P = ell.corollary_4_4_residual_sym(2 if budget == "quick" else 3)
    A, V, Sigma0 = _linear_problem()
    t_eval = np.linspace(LINEAR_SETUP["t0"], LINEAR_SETUP["T"], 5)
    p43 = ell.solve_25_26(np.zeros(2), Sigma0, A, V, 1.5, _nesterov, t_eval, t0=LINEAR_SETUP["t0"])
    p44 = ell.solve_27(Sigma0, A, V, 1.5, _nesterov, t_eval, t0=LINEAR_SETUP["t0"])
    num = max(_rel(p43.Sigma, p44.Sigma), _rel(p43.P, p44.P))
    ok = res_S.is_zero_matrix and res_P.is_zero_matrix and num < 1e-9
    return Evidence(
        verdict=verdict_from(bool(ok)),
        criterion="sympy residuals of (25)-(26)|_{m=0} − (27) vanish identically for generic symmetric "
                  "A, V, Σ, P; numerically the two solve_ivp solutions agree to < 1e-9 (rtol 1e-11)",
        numbers={"sym_residual_Sigma": str(list(res_S)), "sym_residual_P": str(list(res_P)),
                 "numeric_rel_difference": num, "kappa": 1.5})


# ---------------------------------------------------------------------- Proposition 4.5


@claim("sympformer:prop-4.5", locator="Proposition 4.5, eq. (28)",
       statement="the component form and the matrix form (28) of the accelerated linear-attention "
                 "particle system agree, and their conservative part is Hamiltonian",
       method="property", expect="holds")
@torch_threads(1)
def prop_4_5(budget: str) -> Evidence:
    rng = np.random.default_rng(5)
    worst, worst_ham, nonsym = 0.0, 0.0, 0.0
    for N, d in ((3, 1), (7, 2), (16, 4), (40, 3)):
        X, Y = _t(rng.standard_normal((N, d))), _t(rng.standard_normal((N, d)))
        A, V = _t(_spd(rng, d)), _t(_sym(rng, d))
        comp, mat = acc.linear_component_rhs(X, Y, A, V, 0.7), acc.linear_matrix_rhs(X, Y, A, V, 0.7)
        worst = max(worst, *(_rel(a.numpy(), b.numpy()) for a, b in zip(comp, mat)))
        Xr, Yr = X.clone().requires_grad_(True), Y.clone().requires_grad_(True)
        gX, gY = torch.autograd.grad(acc.hamiltonian_lin(Xr, Yr, A, V), (Xr, Yr))
        F, G = acc.linear_oracles(X, Y, A, V)
        worst_ham = max(worst_ham, _rel(gY.numpy(), F.numpy()), _rel(-gX.numpy(), G.numpy()))
        A_ns = A + _t(0.5 * rng.standard_normal((d, d)))
        if d > 1:
            c2, m2 = acc.linear_component_rhs(X, Y, A_ns, V), acc.linear_matrix_rhs(X, Y, A_ns, V)
            nonsym = max(nonsym, _rel(c2[0].numpy(), m2[0].numpy()))
    ok = worst < 1e-13 and worst_ham < 1e-13
    return Evidence(
        verdict=verdict_from(ok),
        criterion="max relative difference component vs matrix form < 1e-13 and of (∂H/∂Y, −∂H/∂X) "
                  "(autograd of H^lin = tr(YᵀXAXᵀY)/(2N) − tr(XVXᵀ)/2) vs (28) < 1e-13 (float64 sums)",
        numbers={"component_vs_matrix": worst, "hamiltonian_vs_28": worst_ham,
                 "component_vs_matrix_nonsymmetric_A": nonsym,
                 "note": "the two forms agree only for symmetric A (Section 4's assumption)"})


@claim("sympformer:prop-4.5-euler", locator="Proposition 4.5, explicit Euler form printed after (28)",
       statement="the printed explicit-Euler update (Y⁺ = α_kY − (h/N)YYᵀXA + XV) is (14) applied to (28), "
                 "a consistent first-order scheme",
       method="convergence", expect="holds-with-correction")
@torch_threads(1)
def prop_4_5_euler(budget: str) -> Evidence:
    rng = np.random.default_rng(6)
    N, d, mu = 12, 2, 0.5
    X, Y = _t(rng.standard_normal((N, d))), _t(0.3 * rng.standard_normal((N, d)))
    A, V = _t(_spd(rng, d)), _t(_sym(rng, d))
    X_dot, Y_dot = acc.linear_matrix_rhs(X, Y, A, V, mu)
    hs = [2.0 ** -k for k in range(4, 12)]
    printed, corrected = [], []
    for h in hs:
        alpha_k = 1 - mu * h  # constant damping μ: (14) with α_k = 1 − μh is consistent
        Xp, Yp = acc.linear_euler_printed(X, Y, h, alpha_k, A, V)
        F, G = acc.linear_oracles(X, Y, A, V)
        Xc, Yc = X + h * F, alpha_k * Y + h * G  # (14) applied to (28): h on every force term
        # consistency defect ‖(z⁺ − z)/h − f(z)‖: → 0 as h → 0 iff the one-step map is consistent with (28)
        printed.append(float(torch.linalg.norm(torch.cat([(Xp - X) / h - X_dot, (Yp - Y) / h - Y_dot]))))
        corrected.append(float(torch.linalg.norm(torch.cat([(Xc - X) / h - X_dot, (Yc - Y) / h - Y_dot]))))
    scale = float(torch.linalg.norm(torch.cat([X_dot, Y_dot])))
    slope_p = float(np.polyfit(np.log(hs), np.log(printed), 1)[0])
    # consistent: the defect shrinks as h shrinks (an explicit Euler step has defect 0 up to rounding)
    printed_ok = printed[-1] < 1e-8 * scale or slope_p > 0.5
    corrected_ok = max(corrected) < 1e-8 * scale
    return Evidence(
        verdict=verdict_from(printed_ok, corrected_ok),
        criterion="consistency defect ‖(z⁺−z)/h − f(z)‖ → 0 as h → 0: below 1e-8‖f‖ (explicit Euler is "
                  "exactly consistent up to rounding) or decaying (fitted slope in h > 0.5)",
        numbers={"h": hs, "defect_printed": printed, "defect_corrected": corrected,
                 "slope_printed": slope_p, "rhs_norm": scale},
        counterexample={"N": N, "d": d, "seed": 6, "defect_printed_at_smallest_h": printed[-1],
                        "reason": "X V enters without the factor h_k, so the defect grows like 1/h"},
        correction="Y⁽ᵏ⁺¹⁾ = α_k Y⁽ᵏ⁾ − (h_k/N) Y⁽ᵏ⁾(Y⁽ᵏ⁾)ᵀX⁽ᵏ⁾A + h_k X⁽ᵏ⁾V (first order, with α_k = 1 − μh_k "
                   "or the Nesterov α_k)")


# ====================================================================== Section 5: softmax attention


def _commuting_AB(rng: np.random.Generator, d: int, scale: float = 0.5):
    """A, B symmetric positive definite with a common eigenbasis, so that V = B A is symmetric too
    and B = V A^{-1} is SPD (Section 5.1's assumption)."""
    U, _ = np.linalg.qr(rng.standard_normal((d, d)))
    a, b = scale * rng.uniform(0.5, 1.5, d), rng.uniform(0.5, 1.5, d)
    A, B = U @ np.diag(a) @ U.T, U @ np.diag(b) @ U.T
    return _t(0.5 * (A + A.T)), _t(0.5 * (B + B.T)), _t(B @ A)


@claim("sympformer:eq-29-32", locator="Section 5.1, eqs. (29)-(32)",
       statement="δF^SM/δρ = −∫exp(yᵀAx)ρ(y)dy (30), its gradient (31), and −(G^SM_ρ)^{-1}[δF^SM/δρ] is the "
                 "softmax transformer PDE (velocity Γ_ρ)",
       method="property", expect="holds")
@torch_threads(1)
def eq_29_32(budget: str) -> Evidence:
    rng = np.random.default_rng(7)
    n, d = 9, 3
    A, B, V = _commuting_AB(rng, d)
    pts, w0 = _t(rng.standard_normal((n, d))), _t(rng.uniform(0.2, 1.0, n))
    # (30): derivative of F^SM(Σ w_i δ_{x_i}) = −½ Σ w_i w_j exp(x_jᵀAx_i) in the weights
    w = w0.clone().requires_grad_(True)
    (dF,) = torch.autograd.grad(-0.5 * w @ torch.exp(pts @ A @ pts.T) @ w, w)
    printed_30 = -torch.exp(pts @ A @ pts.T) @ w0
    err_30 = _rel(dF.numpy(), printed_30.numpy())
    # (31): gradient in x of x ↦ −Σ_j w_j exp(x_jᵀ A x)
    first_var = lambda x: -(torch.exp(pts @ A @ x) * w0).sum()  # noqa: E731
    grads = vmap(grad(first_var))(pts)
    printed_31 = -(torch.exp(pts @ A @ pts.T) * w0) @ (pts @ A.T)
    err_31 = _rel(grads.numpy(), printed_31.numpy())
    # (32): velocity −B ∇(δF/δρ)(x) / Z(x) vs the attention field Γ_ρ(x) = Σ_j w_j e^{x_jᵀAx} V x_j / Z(x)
    Z = torch.exp(pts @ A @ pts.T) @ w0
    velocity = -(grads @ B.T) / Z[:, None]
    gamma = (torch.exp(pts @ A @ pts.T) * w0) @ (pts @ V.T) / Z[:, None]
    err_32 = _rel(velocity.numpy(), gamma.numpy())
    # the same with uniform weights is particles.attention.softmax_attention (eq. (21))
    err_21 = _rel((-(vmap(grad(lambda x: -torch.exp(pts @ A @ x).sum() / n))(pts)) @ B.T
                   / (torch.exp(pts @ A @ pts.T).mean(1))[:, None]).numpy(),
                  att.softmax_attention(pts, A, V).numpy())
    ok = max(err_30, err_31, err_32, err_21) < 1e-13
    return Evidence(
        verdict=verdict_from(ok),
        criterion="autograd derivatives vs printed (30), (31), and the (32)-velocity vs Γ_ρ, all < 1e-13 "
                  "relative (float64 rounding of n-term sums), with A, B = VA^{-1} SPD and commuting",
        numbers={"rel_error_30": err_30, "rel_error_31": err_31, "rel_error_32_velocity": err_32,
                 "rel_error_vs_softmax_attention_21": err_21, "atoms": n, "d": d})


def _phi_factory(P: torch.Tensor, b: torch.Tensor):
    """A non-quadratic potential Φ(x) = ½xᵀPx + bᵀx + ¼Σ sin(2x) (one point x ∈ R^d)."""
    return lambda x: 0.5 * x @ P @ x + b @ x + 0.25 * torch.sin(2 * x).sum()


@claim("sympformer:prop-5.1", locator="Proposition 5.1, eq. (33); proof in Appendix A",
       statement="the Φ-equation of (33) is (9) for G^SM and F^SM: δℋ/δρ = ½‖∇Φ(x)‖²_B/Z(x) − "
                 "½∫e^{yᵀAx}(‖∇Φ(y)‖²_B/Z(y)² + 2)ρ(y)dy",
       method="property", expect="holds")
@torch_threads(1)
def prop_5_1(budget: str) -> Evidence:
    rng = np.random.default_rng(8)
    n, d = 8, 2
    A, B, _ = _commuting_AB(rng, d)
    pts, w0 = _t(rng.standard_normal((n, d))), _t(rng.uniform(0.2, 1.0, n))
    phi = _phi_factory(_t(_sym(rng, d)), _t(rng.standard_normal(d)))
    gphi = vmap(grad(phi))(pts)
    w = w0.clone().requires_grad_(True)
    (dH,) = torch.autograd.grad(acc.hamiltonian_functional_sm(w, pts, gphi, A, B), w)
    printed = acc.first_variation_33(pts, gphi, pts, w0, gphi, A, B)
    err = _rel(dH.numpy(), printed.numpy())
    # The last display of the proof has Z(x) where Z(y) belongs:
    # ‖∇Φ(x)‖²/Z(x) − ∫ e^{xᵀAy} ‖∇Φ(y)‖² ρ(y) dy / Z(x)² (this is δ/δρ of ∫Φ G^{-1}Φ, i.e. twice the kinetic part).
    E = torch.exp(pts @ A @ pts.T)
    Z = E @ w0
    q = torch.einsum("id,de,ie->i", gphi, B, gphi)
    proof_line = 0.5 * (q / Z - (E * w0) @ q / Z ** 2) - E @ w0
    err_proof = _rel(dH.numpy(), proof_line.numpy())
    return Evidence(
        verdict=verdict_from(err < 1e-13),
        criterion="autograd δℋ/δρ over atom weights vs the printed (33) terms < 1e-13 relative",
        numbers={"rel_error_printed_33": err, "rel_error_proof_last_display": err_proof,
                 "note": "(33) is right; the last display of the proof of Proposition 5.1 divides by "
                         "(∫exp(zᵀAx)ρ(z)dz)² where (∫exp(zᵀAy)ρ(z)dz)² is meant (a typo the statement "
                         "does not inherit)"})


def _gauss_hermite(Sigma: np.ndarray, n_q: int):
    """Tensor Gauss–Hermite nodes and weights for N(0, Σ) in d = 2 (exact for polynomials of degree
    < 2 n_q per axis; spectrally accurate for the smooth integrands of (33))."""
    x, w = np.polynomial.hermite_e.hermegauss(n_q)
    w = w / w.sum()
    L = np.linalg.cholesky(Sigma)
    g = np.stack(np.meshgrid(x, x, indexing="ij"), -1).reshape(-1, 2)
    return g @ L.T, np.outer(w, w).ravel()


@claim("sympformer:prop-5.2", locator="Proposition 5.2 (with (33) and its proof in Appendix A)",
       statement="the printed particle system of Proposition 5.2 is the empirical-measure discretization "
                 "of (33) (Y_i = ∇Φ_t(X_i))",
       method="convergence", expect="holds-with-correction")
@torch_threads(1)
def prop_5_2(budget: str) -> Evidence:
    rng = np.random.default_rng(9)
    d = 2
    A, B, _ = _commuting_AB(rng, d, scale=0.4)
    alpha = 0.7
    # (a) at the same (X, Y): printed vs (33) on ρ_N (w = 1/N), at several N
    exact = {}
    for N in (4, 16, 64):
        X, Y = _t(rng.standard_normal((N, d))), _t(rng.standard_normal((N, d)))
        w = torch.full((N,), 1.0 / N, dtype=DT)
        ch = acc.softmax_characteristics(X, Y, X, w, Y, A, B, alpha)
        pr = acc.softmax_component_rhs(X, Y, A, B, alpha)
        co = acc.softmax_component_rhs(X, Y, A, B, alpha, potential_scale=1.0 / N ** 2)
        exact[N] = {"printed_X": _rel(pr[0].numpy(), ch[0].numpy()), "printed_Y": _rel(pr[1].numpy(), ch[1].numpy()),
                    "corrected_Y": _rel(co[1].numpy(), ch[1].numpy())}
        # time-rescaling equivalence: printed field at (X, N Y) = (N F_c, N² G_c)(X, Y)
        Fp, Gp = acc.softmax_oracles(X, N * Y, A, B)
        Fc, Gc = acc.softmax_oracles(X, Y, A, B, potential_scale=1.0 / N ** 2)
        exact[N]["rescaling"] = max(_rel(Fp.numpy(), N * Fc.numpy()), _rel(Gp.numpy(), N ** 2 * Gc.numpy()))
    # (b) the proof's Hessian cancellation: d/dt ∇Φ_t(X_t) = ∇(∂_tΦ) + ∇²Φ Ẋ with ∂_tΦ from (33)
    n = 6
    pts, w0 = _t(rng.standard_normal((n, d))), _t(rng.uniform(0.2, 1.0, n))
    phi = _phi_factory(_t(_sym(rng, d)), _t(rng.standard_normal(d)))
    gphi_pts = vmap(grad(phi))(pts)

    def dphi_dt(x):  # (33): ∂_tΦ(x) = −αΦ(x) − δℋ/δρ(x), at one point x
        return -alpha * phi(x) - acc.first_variation_33(x[None], grad(phi)(x)[None], pts, w0, gphi_pts, A, B)[0]

    x_dot, y_dot = acc.softmax_characteristics(pts, gphi_pts, pts, w0, gphi_pts, A, B, alpha)
    chain = vmap(grad(dphi_dt))(pts) + torch.einsum("ide,ie->id", vmap(hessian(phi))(pts), x_dot)
    err_hessian = _rel(chain.numpy(), y_dot.numpy())
    # (c) growing N: particles sampled from ρ = N(0, Σ), Φ = ½xᵀPx, at 4 fixed tokens, vs (33) by quadrature
    Sigma = np.array([[0.5, 0.1], [0.1, 0.3]])
    P = _t(np.array([[0.4, -0.1], [-0.1, 0.2]]))
    queries = _t(np.array([[0.3, -0.2], [-0.5, 0.4], [0.8, 0.1], [0.0, -0.7]]))
    nodes, wq = _gauss_hermite(Sigma, 40)
    nodes, wq = _t(nodes), _t(wq)
    ref = acc.softmax_characteristics(queries, queries @ P, nodes, wq, nodes @ P, A, B, alpha)[1]
    nodes60, wq60 = (_t(a) for a in _gauss_hermite(Sigma, 60))
    quad_err = _rel(acc.softmax_characteristics(queries, queries @ P, nodes60, wq60, nodes60 @ P, A, B, alpha)[1].numpy(),
                    ref.numpy())
    Ns = [64, 256, 1024] if budget == "quick" else [64, 256, 1024, 4096]
    seeds = range(8) if budget == "quick" else range(32)
    err_p, err_c = [], []
    for N in Ns:
        ep, ec = [], []
        for s in seeds:
            sample = np.random.default_rng(100 + s).multivariate_normal(np.zeros(d), Sigma, N - 4)
            X = torch.cat([queries, _t(sample)])
            Y = X @ P
            ep.append(_rel(acc.softmax_component_rhs(X, Y, A, B, alpha)[1][:4].numpy(), ref.numpy()))
            ec.append(_rel(acc.softmax_component_rhs(X, Y, A, B, alpha, 1.0 / N ** 2)[1][:4].numpy(), ref.numpy()))
        err_p.append(float(np.sqrt(np.mean(np.square(ep)))))
        err_c.append(float(np.sqrt(np.mean(np.square(ec)))))
    slope_p = float(np.polyfit(np.log(Ns), np.log(err_p), 1)[0])
    slope_c = float(np.polyfit(np.log(Ns), np.log(err_c), 1)[0])
    printed_ok = all(v["printed_Y"] < 1e-12 for v in exact.values()) and slope_p < -0.25
    corrected_ok = (all(v["corrected_Y"] < 1e-12 and v["printed_X"] < 1e-12 and v["rescaling"] < 1e-12
                        for v in exact.values())
                    and err_hessian < 1e-12 and -0.75 < slope_c < -0.25 and quad_err < 1e-12)
    return Evidence(
        verdict=verdict_from(printed_ok, corrected_ok),
        criterion="(a) particle field = (33) on ρ_N to < 1e-12; (b) chain rule with ∂_tΦ from (33) = the "
                  "characteristic field to < 1e-12; (c) rms error vs the quadrature mean field decays with "
                  "slope in (−0.75, −0.25) in log N (Monte-Carlo −½), Gauss–Hermite 40 vs 60 nodes < 1e-12",
        numbers={"same_X_Y": exact, "hessian_cancellation_rel_error": err_hessian, "N": Ns, "seeds": len(seeds),
                 "rms_rel_error_printed": err_p, "rms_rel_error_corrected": err_c,
                 "slope_printed": slope_p, "slope_corrected": slope_c, "quadrature_self_error": quad_err},
        counterexample={"N": 4, "relative_error_Ydot": exact[4]["printed_Y"],
                        "reason": "the '+2' term is (N/2)·2·Σ_j M_ij A X_j = N Σ_j M_ij A X_j, but ρ_N gives "
                                  "∫e^{yᵀAx}Ay ρ_N(dy) = (1/N) Σ_j M_ij A X_j: N² too large"},
        correction="replace '+2' by '+2/N²' in Proposition 5.2 (equivalently the potential term of (35) by "
                   "−(1/(2N))𝟙ᵀM𝟙 = N·F^SM(ρ_N)); the printed system equals the corrected one under "
                   "t ↦ N t, Y ↦ N Y (exactly, for α = r/t)")


@claim("sympformer:rem-5.3", locator="Remark 5.3, eqs. (34)-(35)",
       statement="the matrix form (34) (with R and the anti-commutator) equals Proposition 5.2's component "
                 "form, and its conservative part is (∂H^SM/∂Y, −∂H^SM/∂X) for the Hamiltonian (35)",
       method="property", expect="holds")
@torch_threads(1)
def rem_5_3(budget: str) -> Evidence:
    rng = np.random.default_rng(10)
    worst_form, worst_ham = 0.0, 0.0
    for N, d in ((2, 1), (5, 2), (12, 3), (30, 4)):
        A, B, _ = _commuting_AB(rng, d, scale=0.3)
        X, Y = _t(rng.standard_normal((N, d))), _t(rng.standard_normal((N, d)))
        comp, mat = acc.softmax_component_rhs(X, Y, A, B, 0.4), acc.softmax_matrix_rhs(X, Y, A, B, 0.4)
        worst_form = max(worst_form, *(_rel(a.numpy(), b.numpy()) for a, b in zip(comp, mat)))
        Xr, Yr = X.clone().requires_grad_(True), Y.clone().requires_grad_(True)
        gX, gY = torch.autograd.grad(acc.hamiltonian_sm(Xr, Yr, A, B), (Xr, Yr))
        F, G = acc.softmax_oracles(X, Y, A, B)
        worst_ham = max(worst_ham, _rel(gY.numpy(), F.numpy()), _rel(-gX.numpy(), G.numpy()))
    ok = worst_form < 1e-12 and worst_ham < 1e-12
    return Evidence(
        verdict=verdict_from(ok),
        criterion="component vs matrix form and autograd of (35) vs (34), max relative difference < 1e-12 "
                  "(float64; log-domain vs direct exponentials differ by rounding of O(N) sums)",
        numbers={"component_vs_matrix": worst_form, "hamiltonian_35_vs_34": worst_ham})


@claim("sympformer:ex-5.4", locator="Example 5.4, eq. (36)",
       statement="(36) is the time-dependent Hamiltonian of (12)-(13) for (35): with Q = X, P = e^{η(t)}Y, "
                 "Hamilton's equations of H̃^SM are the damped (34) with α = η̇",
       method="property", expect="holds")
@torch_threads(1)
def ex_5_4(budget: str) -> Evidence:
    rng = np.random.default_rng(12)
    worst = 0.0
    for N, d, eta in ((3, 1, 0.3), (6, 2, 1.7), (10, 3, -0.4)):
        A, B, _ = _commuting_AB(rng, d, scale=0.3)
        X, Y = _t(rng.standard_normal((N, d))), _t(rng.standard_normal((N, d)))
        e = torch.tensor(eta, dtype=DT)
        Q, P = X.clone().requires_grad_(True), (torch.exp(e) * Y).requires_grad_(True)
        gQ, gP = torch.autograd.grad(acc.hamiltonian_sm_tilde(e, Q, P, A, B), (Q, P))
        F, G = acc.softmax_oracles(X, Y, A, B)
        # Q̇ = ∂H̃/∂P must be Ẋ = F; Ṗ = e^η(Ẏ + η̇Y) = e^η G must be −∂H̃/∂Q
        worst = max(worst, _rel(gP.numpy(), F.numpy()), _rel(-gQ.numpy(), (torch.exp(e) * G).numpy()))
    return Evidence(
        verdict=verdict_from(worst < 1e-12),
        criterion="autograd of (36) at (X, e^ηY) vs (F, e^η G) of (34), max relative difference < 1e-12",
        numbers={"max_rel_error": worst})


@claim("sympformer:causal-34-structure", locator="Remark 5.3, eq. (34), under the causal mask of Section 6",
       statement="with the causal mask of the Section 6 decoder, the (row-masked) conservative part of (34) "
                 "is still a Hamiltonian vector field",
       method="property", expect="fails")
@torch_threads(1)
def causal_34_structure(budget: str) -> Evidence:
    from particles.geometry import jacobian
    rng = np.random.default_rng(13)
    N, d = 5, 2
    A, B, _ = _commuting_AB(rng, d, scale=0.4)
    z = _t(rng.standard_normal((2, N, d)))
    J = torch.as_tensor(np.block([[np.zeros((N * d, N * d)), np.eye(N * d)],
                                  [-np.eye(N * d), np.zeros((N * d, N * d))]]), dtype=DT)

    def field(causal):
        return lambda z: torch.stack(acc.softmax_oracles(z[0], z[1], A, B, causal=causal))

    asym = {}
    for causal in (False, True):
        S = J.T @ jacobian(field(causal), z[None], event_dims=3)[0]  # = ∇²H iff f = J∇H
        asym["causal" if causal else "unmasked"] = float(torch.linalg.norm(S - S.T) / torch.linalg.norm(S))
    # causality of the row-masked (34): perturb tokens after t, rows ≤ t unchanged
    t = 2
    z2 = z.clone()
    z2[:, t + 1:] += 0.7
    F1, G1 = acc.softmax_oracles(z[0], z[1], A, B, causal=True)
    F2, G2 = acc.softmax_oracles(z2[0], z2[1], A, B, causal=True)
    leak = float(max((F1 - F2)[: t + 1].abs().max(), (G1 - G2)[: t + 1].abs().max()))
    printed_ok = asym["causal"] < 1e-12
    return Evidence(
        verdict=verdict_from(printed_ok),
        criterion="a vector field f on R^{2Nd} is (locally) Hamiltonian iff Jᵀ Df is symmetric; relative "
                  "asymmetry ‖S − Sᵀ‖/‖S‖ must be < 1e-12 (float64 Jacobians by torch.func)",
        numbers={"relative_asymmetry_JtDf": asym, "row_masked_causal_leak": leak, "N": N, "d": d},
        counterexample={"seed": 13, "N": N, "d": d, "relative_asymmetry": asym["causal"],
                        "meaning": "the row-masked (34) is causal (leak 0) but not J∇H for any H, so the "
                                   "symplectic/conformal-symplectic structure that motivates the schemes "
                                   "is lost under the causal mask; the masked-(35) gradient flow is "
                                   "Hamiltonian but not causal (see sympformer:causal-hamiltonian)"})


# ====================================================================== Example 5.5 and the schemes on (34)


def _field_34(A, B, potential_scale: float = 1.0, counter=None):
    """(34) as a `particles.integrators.HamiltonianField`: ∇_p H = F, ∇_q H = −G (H = H^SM of (35))."""
    from particles.integrators import HamiltonianField
    oracle = counter if counter is not None else (lambda X, Y: acc.softmax_oracles(X, Y, A, B, False, potential_scale))
    return HamiltonianField(grad_q=lambda q, p: -oracle(q, p)[1], grad_p=lambda q, p: oracle(q, p)[0])


def _softmax_problem(N: int = 5, d: int = 2, scale: float = 0.4, seed: int = 14):
    rng = np.random.default_rng(seed)
    A, B, V = _commuting_AB(rng, d, scale=scale)
    X0, Y0 = _t(0.8 * rng.standard_normal((N, d))), _t(0.5 * rng.standard_normal((N, d)))
    return A, B, V, X0, Y0


@claim("sympformer:ex-5.5", locator="Example 5.5 (with eqs. (14), (16), (34))",
       statement="Example 5.5's two printed updates are the explicit Euler (14) and the exponential Euler (16) "
                 "applied to (34), consistent first-order discretizations of (34)",
       method="convergence", expect="holds-with-correction")
@torch_threads(1)
def ex_5_5(budget: str) -> Evidence:
    from functools import partial

    from particles import integrators as integ
    from theory.schemes import damping
    mu, T = 0.5, 0.5
    damp = damping("constant", mu=mu)
    A, B, _, X0, Y0 = _softmax_problem(scale=0.1)  # the printed (34) explodes within t ≈ 1 for larger A
    field = _field_34(A, B)
    # (i) one step at (X0, Y0): literal Example 5.5 vs the generic schemes of Section 2
    h = 0.05
    pe = acc.example_5_5_euler_printed(X0, Y0, h, 1 - mu * h, A, B)
    e14 = integ.explicit_euler(X0, Y0, 0.0, h, field, damp)
    px = acc.example_5_5_expeuler_printed(X0, Y0, h, damp.sigma(0.0, h), damp.weight_text(h), A, B)
    e16 = integ.exponential_euler(X0, Y0, 0.0, h, field, damp, weight="printed")
    one_step = {"euler_printed_vs_14": max(_rel(pe[0].numpy(), e14.q.numpy()), _rel(pe[1].numpy(), e14.p.numpy())),
                "expeuler_printed_vs_16_printed": max(_rel(px[0].numpy(), e16.q.numpy()),
                                                      _rel(px[1].numpy(), e16.p.numpy()))}
    # (ii) global error at T against a DOP853 reference of (34)
    Xr, Yr = acc.solve_particles(partial(acc.softmax_oracles, A=A, B=B), X0, Y0, mu, [0.0, T])
    ref = torch.cat([Xr[-1], Yr[-1]])
    hs = [0.05, 0.025, 0.0125, 0.00625] if budget == "quick" else [0.05, 0.025, 0.0125, 0.00625, 0.003125, 0.0015625]
    runs = {
        "euler_printed": lambda X, Y, t, h: acc.example_5_5_euler_printed(X, Y, h, 1 - mu * h, A, B),
        "expeuler_printed": lambda X, Y, t, h: acc.example_5_5_expeuler_printed(
            X, Y, h, damp.sigma(t, h), damp.weight_text(h), A, B),
        "euler_14": lambda X, Y, t, h: tuple(integ.explicit_euler(X, Y, t, h, field, damp)[:2]),
        "expeuler_16_exact_weight": lambda X, Y, t, h: tuple(integ.exponential_euler(X, Y, t, h, field, damp)[:2]),
    }
    errors = {}
    for name, step in runs.items():
        errors[name] = []
        for hh in hs:
            X, Y, t = X0, Y0, 0.0
            for _ in range(round(T / hh)):
                X, Y = step(X, Y, t, hh)
                t += hh
            err = _rel(torch.cat([X, Y]).numpy(), ref.numpy())
            errors[name].append(err if math.isfinite(err) else float("inf"))
    slopes = {k: float(np.polyfit(np.log(hs), np.log(np.minimum(v, 1e300)), 1)[0]) for k, v in errors.items()}
    converges = {k: 0.8 < slopes[k] < 1.2 and errors[k][-1] < 0.05 for k in errors}
    printed_ok = converges["euler_printed"] and converges["expeuler_printed"]
    corrected_ok = converges["euler_14"] and converges["expeuler_16_exact_weight"]
    return Evidence(
        verdict=verdict_from(printed_ok, corrected_ok),
        criterion="first-order convergence to a DOP853 reference of (34) at T = 0.5 (constant damping μ = 0.5): "
                  "fitted slope of the global error in h within (0.8, 1.2) and error < 5% at the smallest h",
        numbers={"one_step_rel_difference": one_step, "h": hs, "global_rel_error": errors, "slopes": slopes},
        counterexample={"euler_printed": "Y⁺ = −α_k Y + …: the sign flips the momentum every step (and X⁽ᵏ⁺¹⁾ "
                                         "replaces X⁽ᵏ⁾), so the iteration does not approximate (34)",
                        "expeuler_printed": "the printed weight h·∫_0^h e^{−∫_s^h α} ≈ h² makes the force "
                                            "vanish as h → 0: the scheme converges to Ẏ = −αY",
                        "errors_at_smallest_h": {k: v[-1] for k, v in errors.items()}},
        correction="Euler: Y⁽ᵏ⁺¹⁾ = α_k Y⁽ᵏ⁾ + τ(N/2)({R⁽ᵏ⁾, M⁽ᵏ⁾} + 2M⁽ᵏ⁾) X⁽ᵏ⁾ A (eq. (14), α_k = 1 − τμ); "
                   "exponential Euler: weight ∫_{t_k}^{t_k+h} e^{−∫_s^{t_k+h} α} ds without the extra factor h")


SCHEMES_34 = ("explicit_euler", "conformal_symplectic_euler", "exponential_euler",
              "conformal_symplectic_euler_implicit", "conformal_midpoint")


@claim("sympformer:eq-15-on-34", locator="eq. (15) applied to (34)-(35); Section 2 and Remark 5.3",
       statement="the conformally symplectic Euler scheme (15), applied to the accelerated softmax system (34), "
                 "is conformally symplectic with factor σ_k",
       method="property", expect="holds-with-correction", figures=["accelerated-vs-classical"])
@torch_threads(1)
def eq_15_on_34(budget: str) -> Evidence:
    from particles import integrators as integ
    from particles.geometry import jacobian
    from theory.schemes import Damping, damping
    from theory.symplectic import conformal_defect

    A, B, _, X0, Y0 = _softmax_problem(N=4, scale=0.03)
    field = _field_34(A, B)
    damp, h, t = damping("constant", mu=0.5), 0.05, 0.0
    sigma = damp.sigma(t, h)
    z = torch.stack([X0, Y0])[None]
    norm_J = math.sqrt(2 * X0.numel())  # ‖σJ‖_F / σ
    defects = {}
    for name in SCHEMES_34:
        options = {"iterations": 25} if "implicit" in name or "midpoint" in name else {}  # contraction h·Lip ≈ 0.05
        D = jacobian(integ.step_map(name, t, h, field, damp, **options), z, event_dims=3)[0].numpy()
        defects[name] = float(conformal_defect(D, sigma) / (sigma * norm_J))
    # Long horizons, undamped (α ≡ 0): energy error of H^SM (35) along each scheme (AB-2 variants included).
    # H^SM is unbounded below and tokens escape (|Y| ~ 1e17 by t = 10 here), so the horizon is t = 4.
    h_long = 0.02
    K = round(4.0 / h_long)
    undamped = Damping("constant", 0.0, 0.0)
    H = lambda X, Y: float(acc.hamiltonian_sm(X, Y, A, B))  # noqa: E731
    H0 = H(X0, Y0)
    drift = {}
    for name in (*SCHEMES_34, "ab2", "etd_ab2") if budget == "full" else ():  # ~1 min: full budget only
        _, Xs, Ys = integ.integrate(name, X0, Y0, 0.0, [h_long] * K, field, undamped)
        errs = [abs(H(Xs[k], Ys[k]) - H0) / abs(H0) for k in range(0, K + 1, max(1, K // 50))]
        drift[name] = {"max_rel_energy_error": max(errs), "final_rel_energy_error": errs[-1],
                       "max_abs_X": float(Xs.abs().max()), "max_abs_Y": float(Ys.abs().max())}
    printed_ok = defects["conformal_symplectic_euler"] < 1e-10
    corrected_ok = defects["conformal_symplectic_euler_implicit"] < 1e-10 and defects["conformal_midpoint"] < 1e-10
    return Evidence(
        verdict=verdict_from(printed_ok, corrected_ok),
        criterion="relative conformal defect ‖DᵀJD − σ_kJ‖_F/‖σ_kJ‖_F of the one-step map (torch.func Jacobian, "
                  "float64) < 1e-10 (fixed-point solves converge to 1e-12)",
        numbers={"h": h, "sigma_k": sigma, "N": 4, "d": 2, "relative_conformal_defect": defects,
                 "undamped_steps": K, "undamped_h": h_long, "energy_drift_undamped": drift},
        counterexample={"scheme": "conformal_symplectic_euler (15)", "defect": defects["conformal_symplectic_euler"],
                        "reason": "H^SM is non-separable (the kinetic term depends on X through M𝟙), so "
                                  "evaluating ∇_xH at (x⁽ᵏ⁾, p⁽ᵏ⁾) instead of (x⁽ᵏ⁾, p̂) breaks symplecticity"},
        correction="for (34) use symplectic Euler implicit in p followed by exact damping, or the conformal "
                   "(Strang-split) implicit midpoint: both conformally symplectic with factor σ_k")


# ====================================================================== the abstract's claim


ACCELERATED = ("explicit_euler", "conformal_symplectic_euler", "exponential_euler", "ab2", "etd_ab2")


def _energy_per_call(step, X0, energy, oracle, K: int) -> np.ndarray:
    """Run `step(X, Y, t, memo) -> (X, Y, t, memo)` until the counted oracle reaches K calls; entry k
    is the energy after the step that used the k-th call (nan once the iterate is not finite). A run
    whose |energy| falls below 1e-100 |F_0| has collapsed onto the minimizer: it stops there and keeps
    that value (continuing would only produce subnormal floats, 100× slower and meaningless)."""
    out = np.full(K + 1, np.nan)
    out[0] = energy(X0)
    X, Y, t, memo = X0, torch.zeros_like(X0), None, None
    while oracle.calls < K:
        X, Y, t, memo = step(X, Y, t, memo)
        if not bool(torch.isfinite(X).all() and torch.isfinite(Y).all()):
            break
        out[oracle.calls] = energy(X)
        if abs(out[oracle.calls]) < 1e-100 * abs(out[0]):
            out[oracle.calls:] = out[oracle.calls]
            break
    return out


def abstract_study(budget: str) -> dict:
    """Energy after k counted oracle calls, classical flow vs every accelerated scheme (see the claim)."""
    from particles import integrators as integ
    from particles.integrators import HamiltonianField
    from theory.schemes import damping

    K = 32 if budget == "quick" else 128
    hs = [0.1 * 2 ** k for k in range(0, 9, 2)]  # 0.1 … 25.6
    dampings = {"nesterov(t0=1)": (damping("nesterov"), 1.0), "constant(1)": (damping("constant", mu=1.0), 0.0)}
    # linear attention, V = −W (W SPD): F^lin = ½ E yᵀWy ≥ 0 is bounded below with minimum 0 at δ_0
    A_np, _, Sigma0 = _linear_problem()
    A_lin, V_lin = _t(A_np), _t(-np.array([[0.8, 0.2], [0.2, 0.5]]))
    X_lin = _t(ell.sample_elliptical("gaussian", np.array(LINEAR_SETUP["m0"]), Sigma0, 64, np.random.default_rng(0)))
    # softmax attention, A, B = VA^{-1} SPD (Section 5): F^SM is unbounded below
    rng = np.random.default_rng(20)
    N_sm = 16
    A_sm, B_sm, V_sm = _commuting_AB(rng, 2, scale=0.3)
    X_sm = _t(0.7 * rng.standard_normal((N_sm, 2)))
    problems = {
        "linear": dict(X0=X_lin, energy=lambda X: float(att.energy_lin(X, V_lin)),
                       classical=lambda X: att.linear_attention(X, A_lin, V_lin),
                       oracles=lambda X, Y: acc.linear_oracles(X, Y, A_lin, V_lin), hs=hs, dampings=dampings),
        # matched step h = 0.1 (the paper's initial h_0 for Table 1); the particle system of (33) (c = 1/N²)
        "softmax": dict(X0=X_sm, energy=lambda X: float(att.energy_sm(X, A_sm)),
                        classical=lambda X: att.softmax_attention(X, A_sm, V_sm),
                        oracles=lambda X, Y: acc.softmax_oracles(X, Y, A_sm, B_sm, potential_scale=1.0 / N_sm ** 2),
                        hs=[0.1], dampings={"nesterov(t0=1)": dampings["nesterov(t0=1)"]}),
    }
    study = {"K": K}
    for pname, pr in problems.items():
        curves = {}
        for h in pr["hs"]:
            oracle = att.CountingOracle(pr["classical"])

            def classical_step(X, Y, t, memo, h=h, oracle=oracle):
                return X + h * oracle(X), Y, t, memo

            curves[("classical", h, "-")] = _energy_per_call(classical_step, pr["X0"], pr["energy"], oracle, K)
            for name in ACCELERATED:
                for dname, (damp, t0) in pr["dampings"].items():
                    oracle = att.CountingOracle(pr["oracles"])
                    field = HamiltonianField(lambda q, p, o=oracle: -o(q, p)[1], lambda q, p, o=oracle: o(q, p)[0])
                    scheme = integ.get_scheme(name)

                    def acc_step(X, Y, t, memo, h=h, scheme=scheme, field=field, damp=damp, t0=t0):
                        t = t0 if t is None else t
                        q, p, memo = scheme(X, Y, t, h, field, damp, memo)
                        return q, p, t + h, memo

                    curves[(name, h, dname)] = _energy_per_call(acc_step, pr["X0"], pr["energy"], oracle, K)
        # best configuration per method and budget k (lowest energy; diverged runs never win)
        best = {}
        for method in ("classical", *ACCELERATED):
            mine = {key: c for key, c in curves.items() if key[0] == method}
            table = np.stack([np.where(np.isfinite(c), c, np.inf) for c in mine.values()])
            keys = list(mine)
            idx = table.argmin(axis=0)
            best[method] = {"energy": table.min(axis=0), "config": [f"h={keys[i][1]:g}, α={keys[i][2]}" for i in idx]}
        study[pname] = {"F0": float(pr["X0"].new_tensor(0).item() + pr["energy"](pr["X0"])), "best": best}
    return study


@claim("sympformer:abstract", locator="Abstract; Section 7 (Conclusion)",
       statement="accelerated attention blocks decrease the attention energy faster than the classical blocks "
                 "at the same (counted) number of oracle calls",
       method="experiment", expect="fails", figures=["accelerated-vs-classical"])
@torch_threads(1)
def abstract(budget: str) -> Evidence:
    study = abstract_study(budget)
    K = study["K"]
    budgets = [k for k in (8, 32, 128) if k <= K]
    compare, counter = {}, []
    for pname in ("linear", "softmax"):
        best = study[pname]["best"]
        cls = best["classical"]["energy"]
        compare[pname] = {}
        for name in ACCELERATED:
            e = best[name]["energy"]
            compare[pname][name] = {k: {"accelerated": e[k], "classical": cls[k], "faster": bool(e[k] < cls[k]),
                                        "config": best[name]["config"][k]} for k in budgets}
            counter += [(pname, name, k) for k in budgets if not e[k] < cls[k]]
    printed = not counter
    wins = {p: {k: [n for n in ACCELERATED if compare[p][n][k]["faster"]] for k in budgets} for p in compare}
    return Evidence(
        verdict=verdict_from(printed),
        criterion="best energy after k counted oracle calls (CountingOracle: one call per new token "
                  "configuration) over the step-size/damping grid; 'faster' iff accelerated < classical; the "
                  "printed claim needs this for every scheme, k ∈ {8, 32, 128} (≤ budget) and both energies",
        numbers={"comparison": compare, "accelerated_schemes_that_win": wins,
                 "F0": {p: study[p]["F0"] for p in ("linear", "softmax")},
                 "curves": {p: {m: v["energy"] for m, v in study[p]["best"].items()} for p in ("linear", "softmax")},
                 "K": K, "oracle_calls_per_step": "1 for every scheme (counted; (15) reuses M(x⁽ᵏ⁾))"},
        counterexample={"losing (energy, scheme, k)": counter[:15],
                        "note": "F^lin (V = −W): (15), (16), ETD-AB2 win from k = 8 (tuned h, α); explicit Euler "
                                "and AB-2 lose until k = 32 and win at k = 128. F^SM (29) is unbounded below for "
                                "A SPD, so 'converge' has no target; at the matched step h = 0.1 the classical "
                                "flow lowers F^SM faster at every k. The printed (34) (potential N² too strong, "
                                "sympformer:prop-5.2) instead blows up"})

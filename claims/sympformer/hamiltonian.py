"""Seed 000 (SympFormer), Section 2 and Appendix B: the damped Hamiltonian form (4), its undamped
form (12)-(13), the conformal symplecticity of the schemes (14)-(15), and Table 4.

The weights of exponential Euler (16) and AB-2 (17) are checked in `claims/sympformer/schemes.py`,
the Nesterov rates (2)-(3) in `claims/sympformer/nesterov.py`, Sections 4-5 in
`claims/sympformer/linear.py`, `claims/sympformer/softmax.py` and `claims/sympformer/abstract.py`.
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
from scipy.integrate import quad

from claims import Evidence, claim, decide, decide_readings, reading
from particles import integrators as I
from particles.geometry import jacobian
from theory import schemes as S
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


def damping_by_quadrature(damping: S.Damping, t: float, h: float) -> tuple[float, float]:
    """σ_k = exp(−∫_{t_k}^{t_k+h} α) and w_k = ∫_{t_k}^{t_k+h} exp(−∫_s^{t_k+h} α) ds by scipy
    quadrature of α(s) = r/s + m (seed 000 §2), independent of the closed forms of theory.schemes
    that the integrators use (relative accuracy ~1e-14; t_k > 0 when r > 0)."""
    t1 = t + h

    def eta(a: float) -> float:  # ∫_a^{t_k+h} α
        return quad(lambda s: damping.r / s + damping.m, a, t1, epsabs=0, epsrel=1e-13)[0]

    return math.exp(-eta(t)), quad(lambda s: math.exp(-eta(s)), t, t1, epsabs=0, epsrel=1e-13)[0]


def _rel_defects(scheme: str, field, damping: S.Damping, t: float, h: float, z: torch.Tensor,
                 **options) -> tuple[np.ndarray, np.ndarray, float]:
    """Per point: ‖DᵀJD − σ_k J‖/‖σ_k J‖ and the relative residual of the best constant factor
    ‖DᵀJD − σ* J‖/‖σ* J‖ (σ* fitted per point); and σ_k (by quadrature, not the scheme's own)."""
    D = jacobian(I.step_map(scheme, t, h, field, damping, **options), z, event_dims=2).numpy()
    sigma = damping_by_quadrature(damping, t, h)[0]
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
       method="symbolic", expect="holds",
       paper_text=r"Later, we will leverage that (4) can be rewritten as the undamped Hamiltonian system "
                  r"$\begin{cases}\dot{x}(t)=\partial_{P}\tilde{H}\big(t,x(t),P(t)\big),&x(0)=x_{0},\\ "
                  r"\dot{P}(t)=-\partial_{q}\tilde{H}\big(t,x(t),P(t)\big),&P(0)=0,\end{cases}$ (12) with the "
                  r"time-dependent Hamiltonian $\tilde{H}(t,q,P)\coloneqq e^{\eta(t)}H(q,e^{-\eta(t)}P),\qquad "
                  r"t\geq t_{0},$ using the change of variables $P=e^{\eta(t)}p,$ (13)")
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
    return decide(ok, criterion="every residual simplifies to exactly 0 "
                  "(generic H and η, d = 1, 2)",
                  numbers={"residuals": {str(k): [str(r) for r in v] for k, v in residuals.items()}})


# ------------------------------------------------------------------ (14)


@claim("sympformer:eq-14", locator="Section 2, eq. (14)",
       statement="the plain explicit Euler scheme (14) is not conformally symplectic",
       method="property", expect="holds", figures=["scheme-defects"],
       paper_text=r"$\begin{cases}x^{(k+1)}=x^{(k)}+h_{k}\nabla_{p}H(x^{(k)},p^{(k)}),\\ "
                  r"p^{(k+1)}=\alpha_{k}p^{(k)}-h_{k}\nabla_{x}H(x^{(k)},p^{(k)}),\end{cases}$ (14) where "
                  r"$\alpha_{k}=\frac{k-1}{k+2}$ or $\alpha_{k}$ is constant. This Nesterov-style "
                  r"discretization is not conformally symplectic [10, 11].")
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
    return decide(
        ok,
        criterion=f"relative residual of the best constant factor > {NONCONFORMAL_TOL:g} on the "
                  "quadratic counterexample and at every sample point of both test Hamiltonians",
        numbers={"h": h, "k": k, "alpha_k": a_k, "best_factor": sigma_star,
                 "relative_residual_quadratic": residual, "DtJD_formula_max_error": formula_err,
                 "min_relative_residual_nonlinear": worst,
                 "exception_d1_quadratic_defect_with_factor_alpha_k_plus_h2_lambda": exception},
        counterexample={"H": "½‖p‖² + ½qᵀ diag(1,4) q", "h": h, "alpha_k": a_k})


# ------------------------------------------------------------------ (15)

EQ_15_TEXT = (
    r"A geometric approach [15, 4] is to split the vector field $(\partial_{p}H,-\alpha p-\partial_{q}H)$ "
    r"driving the evolution (4) into its conservative part $(\partial_{p}H,-\partial_{q}H)$ and the "
    r"dissipative part $(0,-\alpha p)$. We apply a Lie-Trotter split: integrate the dissipative part "
    r"exactly and use a symplectic integrator for the conservative part. This is known as the "
    r"conformally symplectic Euler or ?kick then damp? scheme, which reads "
    r"$\begin{cases}p^{(k+1)}=\sigma_{k}\left(p^{(k)}-h_{k}\nabla_{x}H(x^{(k)},p^{(k)})\right),\\ "
    r"x^{(k+1)}=x^{(k)}+h_{k}\nabla_{p}H(x^{(k)},p^{(k+1)}).\end{cases}$ (15)")


@claim("sympformer:eq-15", locator="Section 2, eq. (15)",
       statement="the conformally symplectic Euler scheme (15) is conformally symplectic with "
                 "factor σ_k for separable H",
       method="property", expect="holds", figures=["scheme-defects"], paper_text=EQ_15_TEXT)
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
    return decide(ok,
                  criterion=f"max relative defect < {CONFORMAL_TOL:g} (float64 rounding of DᵀJD)",
                  numbers={"max_relative_defect": worst, "points": n,
                           "cases": [(d.kind, d.r, d.m, t, h) for d, t, h in cases],
                           "sweep": _defect_sweep(SEPARABLE, budget)})


@claim("sympformer:eq-15-nonseparable", locator="Section 2, eq. (15), applied to the "
       "non-separable H^SM of eq. (35) in Section 5",
       statement="the scheme (15) as printed stays conformally symplectic (factor σ_k) for a "
                 "non-separable H",
       method="property", expect="holds", figures=["scheme-defects"],
       paper_text=EQ_15_TEXT + r" … For a simple Hamiltonian, whose kinetic energy term is just "
                  r"$\frac{1}{2}\|p\|^{2}$, … to approximately discretize (4) for general Hamiltonians. … "
                  r"This Hamiltonian is non-separable: its first summand depends on $\mathbf{Y}$ and on "
                  r"$\mathbf{X}$ simultaneously",
       referee="changed: the mathematics stands (on a non-separable H the explicit kick "
               "∇_xH(x^{(k)}, p^{(k)}) leaves no constant conformal factor; the implicit kick and the "
               "conformal midpoint have factor σ_k), but (4) is introduced with the separable "
               "H = ½‖p‖² + F, for which (15) is conformally symplectic as printed (claim eq-15), and "
               "the paper never writes (15) out for the non-separable H^SM (Example 5.5 applies (14) "
               "and (16), §6.1 uses a simultaneous update instead of (15)); the general-H reading "
               "fails, the separable one holds: an ambiguity, not an erratum")
def eq_15_nonseparable(budget: str) -> Evidence:
    """Two readings of which H the §2 text means. Read with a general H (the arguments
    ∇_xH(x^{(k)}, p^{(k)}) of (15), 'general Hamiltonians' in the next paragraph, H^SM of (35) in
    §5), the printed (15) admits no constant conformal factor on the non-separable test
    Hamiltonian (the kick at the old p is not the first half of a symplectic map). Read with the
    H of (4), ½‖p‖² + F (separable), it is conformally symplectic with factor σ_k.
    The clarification: for non-separable H, symplectic Euler implicit in p, then exact damping —
    p̂ = p − h∇_xH(x, p̂), x⁺ = x + h∇_pH(x, p̂), p⁺ = σ_k p̂ (and the conformal midpoint); the
    readings are decided only when that named fix passes its own check."""
    n = 16 if budget == "quick" else 64
    z = _points(n, seed=2)
    damp, t, h = S.damping("log-linear", r=3.0, m=0.5), 1.0, 0.1
    printed_sigma, printed_best, sigma = _rel_defects("conformal_symplectic_euler", NONSEPARABLE,
                                                      damp, t, h, z)
    separable_sigma = float(_rel_defects("conformal_symplectic_euler", SEPARABLE, damp, t, h, z)[0].max())
    corrected = max(float(_rel_defects(s, NONSEPARABLE, damp, t, h, z)[0].max())
                    for s in ("conformal_symplectic_euler_implicit", "conformal_midpoint"))
    corrected_ok = corrected < CONFORMAL_TOL
    i = int(np.argmax(printed_best))
    readings = [
        reading("H general, possibly non-separable (the arguments of (15), the 'general "
                "Hamiltonians' of the next paragraph, H^SM of (35)): the conservative step of (15) is "
                "a symplectic integrator, so (15) is conformally symplectic with factor σ_k",
                float(printed_best.min()) < CONFORMAL_TOL if corrected_ok else None,
                min_best_factor_residual_nonseparable=float(printed_best.min())),
        reading("H the Hamiltonian of (4), ½‖p‖² + F(x) (separable; the setting of (3)-(4) and of "
                "the cited [15, 4])",
                separable_sigma < CONFORMAL_TOL if corrected_ok else None,
                max_relative_defect_separable=separable_sigma),
    ]
    return decide_readings(
        readings, corrected_ok,
        criterion=f"a reading holds iff the relative conformal defect with σ_k (by quadrature) is < "
                  f"{CONFORMAL_TOL:g} at every point (non-separable: iff even the best constant "
                  f"factor fits to {CONFORMAL_TOL:g}); decided only when the named fix (implicit "
                  f"kick, conformal midpoint) has defect < {CONFORMAL_TOL:g} with σ_k",
        numbers={"sigma_k": sigma, "h": h, "t_k": t,
                 "printed_max_relative_defect_sigma_k": float(printed_sigma.max()),
                 "printed_min_best_factor_residual": float(printed_best.min()),
                 "separable_max_relative_defect_sigma_k": separable_sigma,
                 "corrected_max_relative_defect": corrected,
                 "sweep": _defect_sweep(NONSEPARABLE, budget)},
        ambiguity="(15) is conformally symplectic with factor σ_k for separable H (the H of (4)); "
                  "written with the general arguments ∇_xH(x^{(k)}, p^{(k)}) and applied to a "
                  "non-separable H such as H^SM of (35) it is not (no constant factor fits). The "
                  "authors could say that (15) needs separable H and that for non-separable H the "
                  "kick is implicit: p̂ = p − h∇_xH(x, p̂), x⁺ = x + h∇_pH(x, p̂), p⁺ = σ_k p̂",
        counterexample={"H": "½(1 + ½‖q‖²)‖p‖² + Σ(1 − cos q_i) + ½‖q‖²", "h": h, "t_k": t,
                        "schedule": "3/t + 0.5", "z": z[i].tolist(),
                        "best_factor_residual": float(printed_best[i])},
        correction="for non-separable H, evaluate the kick implicitly: p̂ = p − h∇_xH(x, p̂), "
                   "x⁺ = x + h∇_pH(x, p̂), p⁺ = σ_k p̂ (symplectic Euler, then exact damping); "
                   "conformally symplectic with factor σ_k for every H")


# ------------------------------------------------------------------ Table 4


TABLE_4_TEXT = (
    r"Next, we list the scalar prefactors $\zeta_{1},\zeta_{2}>0$ used in Algorithm˜1 by the "
    r"first-order methods in Table˜4. architecture $\zeta_{1}$ $\zeta_{2}$ plain Euler $\alpha$ $1$ "
    r"Presymp Euler $1-\alpha(t_{k})h_{Y}$ $1$ Presymp ExpEuler $e^{-\Delta\eta_{k}}$ "
    r"$\frac{1-e^{-\Delta\eta_{k}}}{\alpha_{\text{eff}}}$ Table 4: Scalar prefactors $\zeta_{i}$ for the "
    r"different first-order time discretizations. … $y\;\leftarrow\;\zeta_{1,\ell}y+{h_{Y}}_{\ell}\zeta_{2,\ell}G$ "
    r"… the SympFormer uses a simultaneous forward Euler update on both $\mathbf{X}$ and $\mathbf{Y}$ "
    r"instead of the conformally symplectic Euler scheme (15), in which the momentum is updated first, "
    r"and then the position update uses the new momentum.")

# the readings of the two rows Table 4 leaves open (numbers of `table_4`)
PRESYMP_EULER_READINGS = {
    "(15)": "Presymp Euler is (15), kick then damp: ζ₁ = ζ₂ = σ_k",
    "simultaneous": "Presymp Euler is §6.1's simultaneous first-order update that replaces (15), with "
                    "the damping σ_k linearized: ζ₁ = σ_k + O(h²), ζ₂ = 1",
}
ALPHA_EFF_READINGS = {
    "delta_eta": "α_eff = Δη_k, dimensionless like the other rows' ζ₂ = 1",
    "rate": "α_eff = Δη_k/h, the mean damping rate over the step (ζ₂ then carries a time)",
    "alpha_t_k": "α_eff = α(t_k), the instantaneous rate of Algorithm 1",
}


def _table_4_rows(damp: S.Damping, t: float, hs) -> dict:
    """Per step size h: σ_k and w_k by quadrature of α (independent of theory.schemes) and the
    printed ζ's of Table 4 under each reading of α_eff."""
    out = {"h": list(hs), "sigma_k": [], "w_k": [], "presymp_euler_zeta1": [],
           **{f"expeuler_h_zeta2[{k}]": [] for k in ALPHA_EFF_READINGS}}
    for h in hs:
        sigma, w = damping_by_quadrature(damp, t, h)
        d_eta = -math.log(sigma)
        out["sigma_k"].append(sigma)
        out["w_k"].append(w)
        out["presymp_euler_zeta1"].append(S.zeta_table4("presymp-euler", h=h, alpha_t_k=damp.alpha(t))[0])
        for k, a_eff in (("delta_eta", d_eta), ("rate", d_eta / h), ("alpha_t_k", damp.alpha(t))):
            out[f"expeuler_h_zeta2[{k}]"].append(
                h * S.zeta_table4("presymp-expeuler", h=h, delta_eta=d_eta, alpha_eff=a_eff)[1])
    return out


def _slope(hs, errs) -> float:
    """Least-squares slope of log err against log h (errors floored at 1e-300)."""
    return float(np.polyfit(np.log(hs), np.log(np.maximum(errs, 1e-300)), 1)[0])


@claim("sympformer:table-4", locator="Appendix B, Table 4 (with Algorithm 1)",
       statement="Table 4's (ζ₁, ζ₂) are the prefactors of first-order discretizations of the damped "
                 "momentum equation in the update y ← ζ₁y + h_Y ζ₂ G of Algorithm 1 (plain Euler (14), "
                 "Presymp Euler, Presymp ExpEuler (16))",
       method="symbolic", expect="holds", paper_text=TABLE_4_TEXT,
       referee="changed: re-derived from the paper alone, the printed ζ's are not (15)'s (σ_k, σ_k) "
               "nor, with α_eff a rate, (16)'s exact weight; but §6.1 says the SympFormer uses a "
               "simultaneous forward Euler update instead of (15), and 1 − α(t_k)h_Y, 1 is such an "
               "update with σ_k linearized (O(h²)); α_eff is nowhere defined, and as the "
               "dimensionless Δη_k the ExpEuler row is exact exponential Euler for constant damping "
               "and consistent otherwise. One reading holds: an ambiguity (α_eff undefined, 'Presymp "
               "Euler' not (15)), not an erratum. 7 Dec 2026: the 'Presymp Euler is (15)' readings are "
               "shown not admitted (R3: §6.1 says the simultaneous update replaces (15)), as two "
               "independent referees ruled; the class rests on α_eff, undefined: unchanged")
def table_4(budget: str) -> Evidence:
    """What the rows are is left open by the paper: 'Presymp Euler' could be (15) or §6.1's
    simultaneous update that replaces it, and α_eff is undefined. Each combination is one reading;
    it holds iff both rows are first-order prefactors of the momentum update
    y⁺ = ζ₁y + hζ₂G of ẏ = −α(t)y + G: ζ₁ = σ_k exactly (reading '(15)') or σ_k + O(h²) (fitted
    slope of |ζ₁ − σ_k| in h ≥ 1.8), and hζ₂ equal to (15)'s hσ_k, or to the exponential-Euler
    weight w_k up to O(h²) (|hζ₂ − w_k|/h → 0: fitted slope ≥ 0.8) and exactly (1e-12) for
    constant damping. σ_k and w_k come from quadrature of α, not from the closed forms.
    The readings are decided only when the toolkit's derived ζ's of (15) and corrected (16)
    reproduce one step of the integrators and Algorithm 1's α_ℓ is η̇ (sympy)."""
    cases = [(S.damping("constant", mu=0.8), 1.0), (S.damping("nesterov"), 1.0),
             (S.damping("log-linear", r=3.0, m=0.5), 2.0)]
    hs = [0.2, 0.1, 0.05, 0.025] if budget == "quick" else [0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625]
    tol = 1e-12  # ζ's are O(1) scalars; σ_k, w_k by quadrature to ~1e-14
    # the toolkit's derived prefactors reproduce one step of (15) and of corrected (16)
    g = torch.tensor([[0.7, -1.1, 0.4]], dtype=F64)         # frozen force G = −∇_xH
    field = I.HamiltonianField(lambda q, p: -g.expand_as(q), lambda q, p: torch.zeros_like(p))
    q, p = torch.zeros(1, 3, dtype=F64), torch.tensor([[0.3, 0.2, -0.5]], dtype=F64)
    derived_max_err = 0.0
    for damp, t in cases:
        h = hs[1]
        sigma, w = damping_by_quadrature(damp, t, h)
        for scheme, step, zeta in (("presymp-euler", I.conformal_symplectic_euler, (sigma, sigma)),
                                   ("presymp-expeuler", I.exponential_euler, (sigma, w / h))):
            z1, z2 = S.zeta_derived(scheme, damp, t, h)
            p_new = step(q, p, t, h, field, damp).p
            derived_max_err = max(derived_max_err, abs(z1 - zeta[0]), abs(z2 - zeta[1]),
                                  float((p_new - (zeta[0] * p + h * zeta[1] * g)).abs().max()))
    # Algorithm 1: α_ℓ = c_log/t + c_lin is the derivative of η = c_log ln t + c_lin t
    t_, cl, cn = sp.symbols("t c_log c_lin", positive=True)
    eta_ok = sp.simplify(sp.diff(cl * sp.log(t_) + cn * t_, t_) - (cl / t_ + cn)) == 0
    tools_ok = derived_max_err < tol and eta_ok
    # each row under each reading, on every schedule
    rows = {f"{d.kind} r={d.r} m={d.m}, t_k={t}": _table_4_rows(d, t, hs) for d, t in cases}
    euler_ok = {"(15)": True, "simultaneous": True}
    expeuler_ok = dict.fromkeys(ALPHA_EFF_READINGS, True)
    fits = {}
    for name, (damp, _), r in zip(rows, cases, rows.values()):
        sig, w, h = np.array(r["sigma_k"]), np.array(r["w_k"]), np.array(hs)
        z1 = np.array(r["presymp_euler_zeta1"])
        # (15) needs ζ₁ = σ_k and ζ₂ = σ_k; the row prints ζ₂ = 1
        euler_ok["(15)"] &= bool(np.all(np.abs(z1 - sig) < tol) and np.all(np.abs(1.0 - sig) < tol))
        fits[name] = {"presymp_euler_zeta1_minus_sigma_slope": _slope(h, np.abs(z1 - sig))}
        euler_ok["simultaneous"] &= fits[name]["presymp_euler_zeta1_minus_sigma_slope"] >= 1.8
        for k in ALPHA_EFF_READINGS:
            hz2 = np.array(r[f"expeuler_h_zeta2[{k}]"])
            slope = _slope(h, np.abs(hz2 - w) / h)
            fits[name][f"expeuler_consistency_slope[{k}]"] = slope
            exact = damp.r == 0 and bool(np.all(np.abs(hz2 / w - 1) < tol))
            expeuler_ok[k] &= (exact if damp.r == 0 else slope >= 0.8)
    # §6.1 says the SympFormer replaces (15) by the simultaneous update: reading the row as (15)
    # gives it a meaning the text contradicts (R3; two independent referees, 7 Dec 2026)
    readings = [reading(f"{PRESYMP_EULER_READINGS[e]}; {ALPHA_EFF_READINGS[a]}",
                        (euler_ok[e] and expeuler_ok[a]) if tools_ok else None,
                        not_admitted="invented" if e == "(15)" else None,
                        presymp_euler_row=euler_ok[e], presymp_expeuler_row=expeuler_ok[a])
                for e in PRESYMP_EULER_READINGS for a in ALPHA_EFF_READINGS]
    log_linear = rows[next(iter(k for k in rows if k.startswith("log-linear")))]
    return decide_readings(
        readings, tools_ok,
        criterion="a reading holds iff both rows are first-order prefactors of ẏ = −α(t)y + G: "
                  f"ζ₁ = σ_k to {tol:g} (reading (15)) or σ_k + O(h²) (slope ≥ 1.8), and hζ₂ = hσ_k "
                  f"(15) or w_k + O(h²) (slope of |hζ₂ − w_k|/h ≥ 0.8), exactly ({tol:g}) for "
                  "constant damping; σ_k, w_k by quadrature of α; decided only when the derived ζ's "
                  "reproduce one integrator step and η̇ = α of Algorithm 1 (sympy)",
        numbers={"rows": rows, "fits": fits, "presymp_euler_row": euler_ok,
                 "presymp_expeuler_row": expeuler_ok,
                 "derived_reproduce_steps_max_error": derived_max_err,
                 "algorithm1_eta_derivative_ok": eta_ok},
        counterexample={"reading": "Presymp Euler = §6.1's simultaneous update, α_eff a rate",
                        "schedule": "log-linear 3/t + 0.5 at t_k = 2",
                        "h": hs, "expeuler_h_zeta2_rate": log_linear["expeuler_h_zeta2[rate]"],
                        "w_k": log_linear["w_k"]},
        correction="Presymp Euler as printed is the simultaneous damp-and-kick update with σ_k "
                   "linearized (a valid first-order scheme; (15) would be ζ₁ = ζ₂ = σ_k); Presymp "
                   "ExpEuler: ζ₁ = e^{−Δη_k}, "
                   "h_Yζ₂ = w_k = ∫_{t_k}^{t_{k+1}} e^{−(η(t_{k+1})−η(s))} ds, i.e. ζ₂ = "
                   "(1 − e^{−Δη_k})/Δη_k for constant damping (α_eff must be Δη_k, not a rate)",
        ambiguity="Table 4 leaves two things open: α_eff is not defined, and 'Presymp Euler' is not "
                  "(15) (§6.1: a simultaneous update replaces it). Read with α_eff = Δη_k and Presymp "
                  "Euler as that simultaneous update, both rows are first-order prefactors (ExpEuler "
                  "exact for constant damping); with α_eff a rate, h_Yζ₂ ≈ h² and the force vanishes "
                  "as h → 0, and with α_eff = α(t_k) as well. The authors could define α_eff (= Δη_k) "
                  "and say that 'Presymp Euler' is the simultaneous update (read as (15), which §6.1 "
                  "says it replaces, its row would need ζ₁ = ζ₂ = σ_k: not admitted)")

"""Seed 002 (momentum streams), Appendices C and E: token-side preconditioning (Proposition C.1,
Remark C.2), the balanced diagonal preconditioner of Theorem E.1 and the LayerNorm scale
invariance its proof uses.
"""
from __future__ import annotations

import math

import numpy as np

from claims import Evidence, claim, decide
from theory import preconditioning as P


# ------------------------------------------------------------------ Appendix E


@claim("momentum_streams:thm-E.1", locator="Theorem E.1",
       statement="a balanced diagonal preconditioner D_s is within (√(1+ε)−1)/(1+δ/ρ_max) ≤ ε/2 "
                 "of a scalar matrix; every step of the proof chain holds",
       method="property", expect="holds",
       paper_text=r"Consider an Adam- or RMSProp-style diagonal preconditioner D_{s}=\operatorname"
                  r"{diag}\!\left(\frac{1}{\sqrt{s_{i}}+\delta}\right)_{i=1}^{d}, with \delta\geq 0, "
                  r"applied to an update direction before the update LayerNorm \operatorname{LN}_{u} "
                  r"used in AdamFormer and RMSPropFormer. [...] Assume the second-moment stream is "
                  r"nearly coordinate-balanced: \frac{\rho_{\max}^{2}}{\rho_{\min}^{2}}\leq 1+"
                  r"\epsilon\quad\text{for some }\epsilon\in[0,1],\quad\rho_{\min}>0. Then there "
                  r"exists a scalar \alpha>0 such that \left\|\frac{D_{s}}{\alpha}-I\right\|_{2}"
                  r"\leq\frac{\sqrt{1+\epsilon}-1}{1+\delta/\rho_{\max}}\leq\frac{\epsilon}{2}. "
                  r"[...] Thus any nontrivial contribution of diagonal preconditioning must come "
                  r"from the O(\epsilon) non-scalar deviation of D_{s} from a scalar matrix.")
def thm_e1(budget: str) -> Evidence:
    rng = np.random.default_rng(11)
    n = 400 if budget == "quick" else 20_000
    worst = {k: -np.inf for k in ("exact", "step1", "step2", "step3", "step4", "statement")}
    slack_min, ln_ratio, ln_excess = np.inf, 0.0, -np.inf
    for _ in range(n):
        eps = float(rng.choice([0.0, 1.0, rng.uniform(0, 1)]))
        delta = float(rng.choice([0.0, rng.exponential(1.0)]))
        rmin = float(rng.exponential(1.0)) + 1e-3
        d = int(rng.integers(2, 9))
        # ρ_min attained; ρ_max²/ρ_min² either exactly 1 + ε (the extreme case) or inside
        rho = rmin * np.sqrt(1.0 + eps * rng.uniform(0, 1, d))
        rho[:2] = rmin, rmin * math.sqrt(1.0 + eps * rng.choice([1.0, rng.uniform(0, 1)]))
        c = P.theorem_e1_chain(rho**2, delta, eps)
        order = ["deviation", "exact", "step1", "step2", "step3", "step4"]
        worst["exact"] = max(worst["exact"], abs(c["deviation"] - c["exact"]))
        for prev, nxt in zip(order[1:], order[2:]):
            worst[nxt] = max(worst[nxt], c[prev] - c[nxt])
        worst["statement"] = max(worst["statement"], c["deviation"] - c["statement"],
                                 c["statement"] - c["step4"])
        slack_min = min(slack_min, c["step4"] - c["deviation"])
        # the consequence: after LN_u only the non-scalar part is left, ‖LN(D_s z) − LN(z)‖ = O(ε)
        z = rng.standard_normal(d)
        moved = float(np.linalg.norm(P.layer_norm(P.diagonal_preconditioner(rho**2, delta) * z)
                                     - P.layer_norm(z)))
        bound = P.layer_norm_perturbation_bound(z, c["deviation"])
        ln_excess = max(ln_excess, moved - bound)
        ln_ratio = max(ln_ratio, moved / bound if bound > 0 else 0.0)
    ok = (worst["exact"] < 1e-12 and all(worst[k] <= 1e-12 for k in worst if k != "exact")
          and ln_excess <= 1e-12)
    return decide(
        ok,
        criterion="over random (ρ, δ, ε, d) satisfying the balance assumption (ε = 0 and ε = 1 "
                  "included): ‖D_s/α − I‖₂ = (ρ_max−ρ_min)/(ρ_max+δ) and each ≤ of the chain, and "
                  "the printed bound's two ≤, hold to 1e-12 (rounding); and the consequence "
                  "‖LN(D_s z) − LN(z)‖ ≤ 2√d‖D_s/α − I‖‖z‖/‖z − z̄‖ (excess ≤ 1e-12, rounding)",
        numbers={"samples": n, "max_violation_per_step": worst, "min_slack_to_eps/2": slack_min,
                 "max_LN_change_over_bound": ln_ratio, "max_LN_change_minus_bound": ln_excess})


@claim("momentum_streams:ln-scale-invariance", locator="App. E (proof of Theorem E.1)",
       statement="LN_u(cz) = LN_u(z) for c > 0, up to the LayerNorm's numerical epsilon",
       method="property", expect="holds",
       paper_text=r"This does not make every diagonal preconditioner algebraically redundant: in "
                  r"general, \operatorname{LN}(Dx)\neq\operatorname{LN}(x) for a non-scalar positive "
                  r"diagonal matrix D. (App. E) [...] For any positive scalar c, \operatorname{LN}_{u}"
                  r"(cz)=\operatorname{LN}_{u}(z) up to the fixed numerical epsilon in the LayerNorm "
                  r"denominator. (proof of Theorem E.1)")
def ln_scale_invariance(budget: str) -> Evidence:
    rng = np.random.default_rng(13)
    n = 200 if budget == "quick" else 5000
    exact_err, eps_formula_err = 0.0, 0.0
    eps = 1e-5  # torch.nn.LayerNorm default
    for _ in range(n):
        d = int(rng.integers(2, 65))
        z = rng.standard_normal(d) * rng.exponential(1.0)
        c = float(np.exp(rng.uniform(-6, 6)))
        exact_err = max(exact_err, float(np.abs(P.layer_norm(c * z) - P.layer_norm(z)).max()))
        # eps > 0: LN_eps(cz) = LN_{eps/c²}(z) exactly, a relative change of
        # √((v + eps)/(v + eps/c²)) − 1 with v = var(z)
        v = float(np.var(z))
        predicted = P.layer_norm(z, eps) * math.sqrt((v + eps) / (v + eps / c**2))
        eps_formula_err = max(eps_formula_err, float(np.abs(P.layer_norm(c * z, eps)
                                                            - predicted).max()))
    z = rng.standard_normal(64)
    breakdown = {c: float(np.linalg.norm(P.layer_norm(c * z, eps) - P.layer_norm(z, eps))
                          / np.linalg.norm(P.layer_norm(z, eps))) for c in (1e-1, 1e-2, 1e-3)}
    D = np.diag(rng.uniform(0.5, 2.0, 64))
    non_scalar = float(np.linalg.norm(P.layer_norm(D @ z) - P.layer_norm(z)))
    ok = exact_err < 1e-12 and eps_formula_err < 1e-12 and non_scalar > 1e-3
    return decide(
        ok,
        criterion="without eps LN(cz) = LN(z) to 1e-12 for c ∈ [e⁻⁶, e⁶]; with eps the deviation "
                  "is exactly the factor √((v+eps)/(v+eps/c²)) (1e-12), i.e. negligible iff "
                  "c²·var(z) ≫ eps; a non-scalar diagonal D does change LN (> 1e-3)",
        numbers={"samples": n, "max_exact_error": exact_err,
                 "max_error_vs_eps_formula": eps_formula_err,
                 "relative_change_eps1e-5_by_c": breakdown, "non_scalar_D_change": non_scalar})


# ------------------------------------------------------------------ Appendix C


def _token_side_example(seed: int, T: int = 8, d: int = 6):
    rng = np.random.default_rng(seed)
    A = P.causal_softmax_attention(rng.standard_normal((T, T)) * 2.0)
    X, W = rng.standard_normal((T, d)), rng.standard_normal((d, d)) / math.sqrt(d)
    Pm = P.token_preconditioner(rng.standard_normal((4, T, d)), damping=1e-2)
    return A, X, W, Pm


@claim("momentum_streams:prop-C.1", locator="Proposition C.1",
       statement="a token-side preconditioner P = L^{-1/2} applied to AXW equals the token mixer "
                 "Ã = PA applied to XW",
       method="property", expect="holds",
       paper_text=r"Consider a linearized attention oracle \mathrm{Attn}(X)=AXW, where X\in\mathbb{R}"
                  r"^{T\times d}, A\in\mathbb{R}^{T\times T} is a token-mixing matrix, and W\in"
                  r"\mathbb{R}^{d\times d} is a channel map. Let a token-side preconditioner act as "
                  r"G\mapsto PG,\qquad P=L^{-1/2}\in\mathbb{R}^{T\times T}. Then there exists another "
                  r"linear token-mixing matrix \widetilde{A}=PA such that P\,\mathrm{Attn}(X)="
                  r"\widetilde{A}XW.")
def prop_c1(budget: str) -> Evidence:
    err = 0.0
    for seed in range(10 if budget == "quick" else 200):
        A, X, W, Pm = _token_side_example(seed)
        err = max(err, float(np.abs(Pm @ (A @ X @ W) - (Pm @ A) @ X @ W).max()
                        / np.abs(Pm @ A @ X @ W).max()))
    return decide(err < 1e-12,
                  criterion="relative max difference of P(AXW) and (PA)XW < 1e-12 "
                            "(associativity in float64)",
                  numbers={"max_relative_error": err})


@claim("momentum_streams:remark-C.2", locator="Remark C.2",
       statement="Ã = PA need not be row-stochastic, non-negative or causal",
       method="property", expect="holds",
       paper_text=r"The matrix \widetilde{A}=PA need not be a valid softmax attention matrix: it may "
                  r"fail to be nonnegative, row-stochastic, or causal.")
def remark_c2(budget: str) -> Evidence:
    A, _, _, Pm = _token_side_example(0)
    At = Pm @ A
    row_sum_dev = float(np.abs(At.sum(axis=1) - 1).max())
    min_entry = float(At.min())
    upper_mass = float(np.abs(np.triu(At, 1)).max())
    # a diagonal L keeps PA causal and non-negative, but rows now sum to P_ii ≠ 1
    Pd = np.diag(1 / np.sqrt(np.diag(np.linalg.inv(Pm @ Pm))))
    diag_row_dev = float(np.abs((Pd @ A).sum(axis=1) - 1).max())
    ok = row_sum_dev > 1e-3 and min_entry < -1e-3 and upper_mass > 1e-3
    return decide(
        ok,
        criterion="one example (T = 8, causal softmax A, P = (ΣGGᵀ + 0.01 I)^{-1/2}) exhibits all "
                  "three failures by margins > 1e-3",
        numbers={"max_|row_sum-1|": row_sum_dev, "min_entry": min_entry,
                 "max_|upper_triangle|": upper_mass, "diagonal_P_max_|row_sum-1|": diag_row_dev},
        counterexample={"A_tilde": At.round(4).tolist()})

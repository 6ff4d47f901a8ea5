"""Seed 003, slides "Result 1" and "Result 2: One Step Approximation": the same-marginal
Schrödinger bridge against the law of the Langevin diffusion, and the barycentric projection
B_{ρ,ε}(x) ≈ x + (ε/2)∇log ρ(x) it implies. Closed forms for Gaussian ρ (theory/gaussian_ot.py),
the slides' mixture on a weighted grid (claims/heatflow/bridges.py).

Readings (see claims/heatflow/bridges.py): π_{ρ,ε} is the slide's |x−y|² plan or the Sinkformer's
½|x−y|² plan; the Langevin drift is printed +½∇g while the stationary Langevin SDE of ρ = e^{−g}
(the one slide "Result 2" uses: x − (ε/2)∇g) is −½∇g; dB is a standard Brownian motion
(E B_t² = t) or one with E B_t² = 2t (generator Δ, the convention that makes ∂ₜρ = Δρ its law).
"""
from __future__ import annotations

import itertools

import numpy as np

from claims import Evidence, claim, decide_readings, reading
from claims.heatflow.bridges import PI_READINGS, RHO0, _grid, _slope, one_step_mixture
from theory import gaussian_ot as go

# Two test laws of Result 1 (Gaussian ρ = e^{−g}: both couplings are Gaussian).
_R = np.array([[np.cos(0.4), -np.sin(0.4)], [np.sin(0.4), np.cos(0.4)]])
LAWS = {"N(0,1)": np.eye(1), "N(0,RΛRᵀ), Λ=diag(0.5,2)": _R @ np.diag([0.5, 2.0]) @ _R.T}
DRIFTS = {+1: "the drift +½∇g as printed",
          -1: "the drift −½∇g of the stationary Langevin SDE of ρ (slide 'Result 2' uses x − (ε/2)∇g)"}
BROWNIAN = {1.0: "dB a standard Brownian motion (E B_t² = t, generator ½Δ)",
            2.0: "dB with E B_t² = 2t (generator Δ)"}
O_EPS2 = 2.0 - 0.05   # O(ε²) ⇔ observed order ≥ 2 (5% slack for the fit over a finite ladder)


def ou_jeffreys(v: float, eps: float, cost: str, drift: int, bm_variance: float) -> float:
    """H(𝒞|π) + H(π|𝒞) for ρ = N(0, v) on the line, 𝒞 = Law(X₀, X_ε) of the Ornstein-Uhlenbeck
    process dX = drift·½∇g dt + σ dW (σ² = `bm_variance`, θ = drift/(2v)):
    Cov(X₀, X_ε) = v e^{θε}, Var(X_ε) = v e^{2θε} + σ²(e^{2θε} − 1)/(2θ); π the same-marginal SB
    of κ|x−y|² at ε (closed form). Direct formulas: accurate while the divergence is not tiny."""
    e = go.effective_eps(eps, cost)
    theta = drift / (2 * v)
    cross = v * np.exp(theta * eps)
    var = v * np.exp(2 * theta * eps) + bm_variance * np.expm1(2 * theta * eps) / (2 * theta)
    c = np.sqrt(v * v + e * e / 4) - e / 2
    return go.jeffreys_gaussian([[v, cross], [cross, var]], [[v, c], [c, v]])


def langevin_jeffreys(Sigma, eps: float, cost: str, drift: int, bm_variance: float = 1.0) -> float:
    """H(𝒞|π) + H(π|𝒞) for ρ = N(0, Σ) (seed 003, Result 1), summed over the eigenvalues of Σ
    (both couplings are functions of Σ). For σ² = 1, where the divergence can be O(ε⁴), it is
    `theory.gaussian_ot.result1_jeffreys` (computed without cancellation); otherwise `ou_jeffreys`."""
    if bm_variance == 1.0:
        return go.result1_jeffreys(Sigma, eps, cost, drift)
    return sum(ou_jeffreys(v, eps, cost, drift, bm_variance) for v in np.linalg.eigvalsh(np.atleast_2d(Sigma)))


@claim("heatflow:result-1", locator="Result 1 [AHMP24, Theorem 1]",
       statement="for ρ = e^{−g} Gaussian, H(𝒞_{ρ,ε}|π_{ρ,ε}) + H(π_{ρ,ε}|𝒞_{ρ,ε}) = O(ε²), 𝒞 the law "
                 "of (X₀, X_ε) for dX = ½∇g dt + dB, X₀ ~ ρ",
       method="convergence", expect="holds-with-correction",
       paper_text=r"Let $\rho=e^{-g}$ be a probability density on \mathbb{R}^d with enough regularity "
                  r"such that there is a strong solution to the Langevin SDE $dX_t=\frac{1}{2}\,\nabla "
                  r"g(X_t)dt+dB_t$ with initial distribution $X_0\sim \rho$. Let "
                  r"$\mathscr{C}_{\rho,\varepsilon}=\operatorname{Law}(X_0,X_\varepsilon)$, then "
                  r"$$H(\mathscr{C}_{\rho,\varepsilon} \mid \pi_{\rho,\varepsilon}) + H(\pi_{\rho,\varepsilon} "
                  r"\mid \mathscr{C}_{\rho,\varepsilon}) \leq C\varepsilon^2 \left(I(\rho) + \int_0^1 "
                  r"I(\rho_t^\varepsilon) dt\right)^{1/2}.$$",
       referee="changed (was holds-with-correction): the printed +½∇g cannot be meant: with X₀ ~ ρ "
               "it is not 'the Langevin SDE' of ρ = e^{−g} (not stationary), and the next slide "
               "expands E_ℓ[Y|X=x] ≈ x − (ε/2)∇g(x), i.e. drift −½∇g: a sign typo with an evident "
               "intent. With it and π the Sinkformer's plan (heat kernel of variance ε, matching a "
               "standard dB over time ε) the divergence is O(ε⁴) for Gaussians, inside Cε²; with "
               "the |x−y|² plan (variance ε/2) or dB of variance 2t it is Θ(1) or Θ(ε)")
def result_1(budget: str) -> Evidence:
    eps = np.geomspace(1e-1, 1e-3, 5 if budget == "quick" else 13)
    numbers, orders, kl = {"eps": eps}, {}, {}
    for law, Sigma in LAWS.items():
        for cost, drift, bm in itertools.product(("sq", "half_sq"), (+1, -1), BROWNIAN):
            J = kl[(law, cost, drift, bm)] = np.array([langevin_jeffreys(Sigma, e, cost, drift, bm) for e in eps])
            name = f"cost {'|x−y|²' if cost == 'sq' else '½|x−y|²'}, drift {'+' if drift > 0 else '−'}½∇g, E B_t² = {bm:g}t"
            orders[(law, cost, drift, bm)] = _slope(eps, J)
            numbers[f"{law} | {name}"] = {"order": orders[(law, cost, drift, bm)],
                                          "J/eps^2 at smallest eps": J[-1] / eps[-1] ** 2,
                                          "symmetrized_KL": J}
        numbers[f"{law} | Fisher information I(ρ)"] = go.fisher_information_gaussian(Sigma)
    # the drift −½∇g changes a printed sign (R2: the misprint this claim counts), and π the
    # Sinkformer's ½‖x−y‖² plan is the correction of heatflow:sinkhorn-sb (R5): both shown, not
    # admitted as readings of the printed sentence
    readings = [reading(f"{DRIFTS[drift]}; {PI_READINGS[cost]}; {BROWNIAN[bm]}",
                        all(orders[(law, cost, drift, bm)] >= O_EPS2 for law in LAWS),
                        order_N01=orders[("N(0,1)", cost, drift, bm)],
                        not_admitted="correction" if drift < 0 or cost == "half_sq" else None)
                for drift, cost, bm in itertools.product((+1, -1), ("sq", "half_sq"), BROWNIAN)]
    # the printed statement at its first test law: the drift +½∇g and π of the |x−y|² problem,
    # under the standard Brownian motion (the other admitted reading fails there as well)
    printed = ("N(0,1)", "sq", +1, 1.0)
    return decide_readings(
        readings,
        criterion="observed order p of the symmetrized KL (closed form, both couplings Gaussian) "
                  "over ε ∈ [1e-3, 1e-1] satisfies p ≥ 1.95 for every test law",
        numbers=numbers,
        counterexample=None if orders[printed] >= O_EPS2 else {
            "rho": "N(0,1)", "drift": "+½∇g (as printed)", "pi": "argmin of the |x−y|² problem",
            "E B_t²": "t", "eps": [eps[0], eps[-1]], "symmetrized_KL": [kl[printed][0], kl[printed][-1]],
            "order": orders[printed]},
        ambiguity="as printed (drift +½∇g, π the argmin of the |x−y|² problem) the bound then "
                  "depends on the Brownian motion: standard, or of variance 2t")


def _interpolation_gap(Sigma, eps: float, cost: str, nodes: int = 24) -> float:
    """I(ρ) − ∫₀¹ I(ρ_t) dt for ρ = N(0, Σ) and ρ_t the time-t marginal of the entropic
    interpolation of π_{ρ,ε} (a Brownian bridge of variance ε' = ε/(2κ) between the endpoints of
    π): per eigenvalue v, Var ρ_t = v + t(1−t)(2(c − v) + ε') with c − v from the closed form,
    written without cancellation as 2(c − v) + ε' = 2a²/(√(v² + a²) + v), a = ε'/2;
    I(N(0, s)) = 1/s. Gauss–Legendre in t."""
    a = go.effective_eps(eps, cost) / 2
    t, w = np.polynomial.legendre.leggauss(nodes)
    t, w = (t + 1) / 2, w / 2
    gap = 0.0
    for v in np.linalg.eigvalsh(np.atleast_2d(Sigma)):
        excess = t * (1 - t) * 2 * a * a / (np.sqrt(v * v + a * a) + v)      # Var ρ_t − v ≥ 0
        gap += float(w @ (excess / (v * (v + excess))))                      # 1/v − 1/Var ρ_t
    return gap


@claim("heatflow:result-1-rhs", locator="Result 1 [AHMP24, Theorem 1], remark after the bound",
       statement="the right-hand side Cε²(I(ρ) + ∫₀¹ I(ρ_t^ε)dt)^{1/2} of Result 1 is o(ε²)",
       method="convergence", expect="holds-with-correction",
       paper_text=r"$$H(\mathscr{C}_{\rho,\varepsilon} \mid \pi_{\rho,\varepsilon}) + H(\pi_{\rho,\varepsilon} "
                  r"\mid \mathscr{C}_{\rho,\varepsilon}) \leq C\varepsilon^2 \left(I(\rho) + \int_0^1 "
                  r"I(\rho_t^\varepsilon) dt\right)^{1/2}.$$ In particular, the right hand side is "
                  r"$o(\varepsilon^2)$. $I(\alpha) = \int_{\mathbb{R}^d} \|\nabla \log \alpha\|^2 d\alpha$.",
       referee="new claim. As printed the bracket is at least I(ρ) > 0, so the right-hand side is "
               "Θ(ε²), not o(ε²): the sentence contradicts the display it follows. The sentence "
               "states its intent (o(ε²)), which a difference I(ρ) − ∫I(ρ_t^ε)dt delivers (ρ_t^ε, "
               "undefined on the slide, read as the bridge's entropic interpolation): then O(ε³) "
               "for Gaussians. The left-hand side is O(ε⁴) (heatflow:result-1). Second referee (26 "
               "Nov 2026), ambiguity -> erratum: the minus sign (and ρ_t^ε) is printed nowhere in the "
               "slides, so the fix must be derived (the misprint convention of docs/architecture.md); "
               "as printed RHS/(Cε²) ≥ √I(ρ) under every reading of ρ_t^ε: holds with the difference "
               "as the correction")
def result_1_rhs(budget: str) -> Evidence:
    eps = np.geomspace(1e-1, 1e-3, 5 if budget == "quick" else 13)
    xq, aq = _grid(RHO0, 0.01)
    fisher = {law: go.fisher_information_gaussian(S) for law, S in LAWS.items()}
    fisher["½N(−2,1) + ½N(2,1)"] = float((aq.numpy() * RHO0.score(xq.numpy())[:, 0] ** 2).sum())
    # RHS/(Cε²) as printed: (I(ρ) + ∫I(ρ_t^ε)dt)^{1/2} ≥ I(ρ)^{1/2}, whatever ρ_t^ε is (I ≥ 0)
    plus_floor = {law: np.sqrt(i) for law, i in fisher.items()}
    minus = {(law, cost): np.sqrt([_interpolation_gap(S, e, cost) for e in eps])
             for law, S in LAWS.items() for cost in ("sq", "half_sq")}
    minus_order = {k: _slope(eps, v) for k, v in minus.items()}
    jeffreys = {law: np.array([go.result1_jeffreys(S, e, "half_sq", -1) for e in eps]) for law, S in LAWS.items()}
    lhs = {law: _slope(eps, v) for law, v in jeffreys.items()}
    # the corrected bound itself, LHS ≤ Cε²(I(ρ) − ∫₀¹I(ρ_t^ε)dt)^{1/2}, with π the bridge of ½|x−y|²
    # (heatflow:sinkhorn-sb's correction; with the printed |x−y|² plan LHS does not vanish:
    # heatflow:result-1): LHS/(ε²√gap) ~ ε^q with q > 0 is bounded on the ladder and tends to 0
    ratio = {law: jeffreys[law] / (eps ** 2 * minus[(law, "half_sq")]) for law in LAWS}
    ratio_order = {law: _slope(eps, v) for law, v in ratio.items()}
    need = 0.5   # RHS/ε² ~ ε^p decays (o(ε²)) iff p > 0; p ≥ 0.5 over the ladder (and q likewise)
    readings = [
        reading("the bracket as printed, I(ρ) + ∫₀¹ I(ρ_t^ε)dt, for any ρ_t^ε: RHS/(Cε²) ≥ √I(ρ)",
                min(plus_floor.values()) == 0.0, rhs_over_C_eps2_lower_bound=plus_floor),
    ]
    corrected_ok = all(p >= need for p in (*minus_order.values(), *ratio_order.values()))
    return decide_readings(
        readings, corrected_ok,
        correction="the bracket I(ρ) − ∫₀¹ I(ρ_t^ε)dt, ρ_t^ε the marginals of the entropic interpolation "
                   "of π_{ρ,ε} (for the plan of either cost, |x−y|² or ½|x−y|²): RHS/ε² ~ ε^p, p = "
                   + ", ".join(f"{p:.2f}" for p in minus_order.values())
                   + "; the bound with it holds, π the bridge of ½|x−y|²: LHS/(ε²√gap) ~ ε^q, q = "
                   + ", ".join(f"{q:.2f}" for q in ratio_order.values()) + ", so the smallest C "
                   "for ε ∈ [1e-3, 0.1] is its largest value, "
                   + ", ".join(f"{v.max():.1e}" for v in ratio.values()),
        counterexample={"rhs_over_C_eps2_lower_bound": plus_floor},
        criterion="o(ε²) ⇔ RHS/ε² → 0: as printed it is bounded below by C√I(ρ) > 0 for every "
                  "density (I(ρ) > 0); with the difference, RHS/ε² ~ ε^p with observed p ≥ 0.5 "
                  "over ε ∈ [1e-3, 1e-1] (Gaussian laws, closed form, Gauss–Legendre in t), and the "
                  "corrected bound holds: LHS/(ε²√gap) ~ ε^q with q ≥ 0.5 (closed-form Jeffreys "
                  "divergence, π the bridge of ½|x−y|²)",
        numbers={"eps": eps, "fisher_information": fisher, "sqrt_I_lower_bound": plus_floor,
                 "sqrt_gap_minus": {f"{law} | {c}": v for (law, c), v in minus.items()},
                 "lhs_order_drift_minus_cost_half_sq": lhs,
                 "lhs_over_eps2_sqrt_gap_half_sq": ratio, "order_of_lhs_over_eps2_sqrt_gap": ratio_order,
                 "order_of_rhs_over_eps2_corrected": {f"{law} | {c}": p for (law, c), p in minus_order.items()}})


@claim("heatflow:bp-expansion", locator="slide 'Result 2: One Step Approximation' (first); "
       "slide 'Schrödinger Bridge between two N(0,1) random variables with ε = 0.01'",
       statement="B_{ρ,ε}(x) ≈ E_ℓ[Y|X=x] ≈ x − (ε/2)∇g(x) = x + (ε/2)∇log ρ(x): (B(x) − x)/ε → "
                 "½∇log ρ(x), which matches the explicit Euler step of the particle picture",
       method="convergence", expect="holds-with-correction",
       paper_text=r"Based on intuition from Result 1, $\pi_{\rho,\varepsilon} \approx \ell_{\rho,\varepsilon}$, "
                  r"$$\mathcal{B}_{\rho,\varepsilon}(x) \approx \mathbb{E}_{\ell_{\rho,\varepsilon}}\left[Y|X=x\right] "
                  r"\approx x - \frac{\varepsilon}{2}\nabla g(x) = x + \frac{\varepsilon}{2}\nabla\log\rho(x)$$ "
                  r"Matches explicit Euler approximation from particle picture [...] Want to calculate "
                  r"precisely the deviation of BP from identity.",
       referee="new claim. With the Sinkformer's plan B(x) = x + (ε/2)∇log ρ(x) + O(ε²) (Gaussian: "
               "A = (Σ² + ε²/4)^{1/2}Σ⁻¹ − (ε/2)Σ⁻¹); with the |x−y|² plan the displacement is "
               "(ε/4)∇log ρ: the same factor-2 ambiguity as Result 2. The Langevin expectation "
               "x e^{−ε/2v} ≈ x − (ε/2)∇g confirms the drift sign −½∇g")
def bp_expansion(budget: str) -> Evidence:
    eps = np.geomspace(1e-1, 1e-3, 9)
    eps_mix = [0.04, 0.02, 0.01]   # the ladder of heatflow:result-2 at the quick budget (cached)
    numbers, holds = {"eps_gaussian": eps, "eps_mixture": eps_mix}, {}
    for cost in ("sq", "half_sq"):
        err = {law: np.array([np.abs((go.barycentric_matrix(S, e, cost) - np.eye(len(S))) / e
                                     + 0.5 * np.linalg.inv(S)).max() for e in eps])
               for law, S in LAWS.items()}
        mix = np.array([one_step_mixture(e, cost)["max_|(B−x)/ε − ½∇logρ|, |x|<4"] for e in eps_mix])
        gauss_orders = {law: _slope(eps, v) for law, v in err.items()}
        numbers[cost] = {"gaussian_max_error": err, "gaussian_order": gauss_orders,
                         "mixture_max_error_|x|<4": mix, "mixture_order": _slope(eps_mix, mix)}
        holds[cost] = min(gauss_orders.values()) >= 0.5 and numbers[cost]["mixture_order"] >= 0.5
    # the slide's Gaussian example: N(0,1), ε = 0.01, B(x) = A x
    A = {c: float(go.barycentric_matrix(np.eye(1), 0.01, c)[0, 0]) for c in ("sq", "half_sq")}
    numbers["N(0,1), eps=0.01: (A − 1) vs −ε/2 = −0.005"] = {c: a - 1 for c, a in A.items()}
    # E_ℓ[Y | X = x] for the Langevin coupling: Cov(X₀, X_ε)/v = e^{sε/2v}, for N(0,1)
    numbers["langevin (E[Y|X=x]/x − 1)/eps, N(0,1), drift −½∇g and +½∇g"] = {
        s: float(np.expm1(s * eps[-1] / 2) / eps[-1]) for s in (-1, +1)}
    # π the Sinkformer's ½‖x−y‖² plan is heatflow:sinkhorn-sb's correction (R5), not a reading
    readings = [reading(PI_READINGS[c], holds[c], mixture_order=numbers[c]["mixture_order"],
                        gaussian_error_at_smallest_eps=float(numbers[c]["gaussian_max_error"]["N(0,1)"][-1]),
                        not_admitted="correction" if c == "half_sq" else None)
                for c in ("sq", "half_sq")]
    return decide_readings(
        readings,
        criterion="max |(B(x) − x)/ε − ½∇log ρ(x)| → 0: observed order ≥ 0.5 in ε, for two "
                  "Gaussians (closed-form barycentric matrix, every x) and the slides' mixture "
                  "(weighted grid, |x| < 4)",
        numbers=numbers)

"""Seed 002 (momentum streams), the printed rates of named methods on the quadratic model: NAG's
contraction factor (§3.2, App. A.1), triple momentum's optimality (§1, App. D.7) and its rate
against Nesterov's (§4.2), each weighed over its readings (issue 28). The worst-case rates come from
`claims.momentum_streams.families.rates_table`; docs/contraction.md §3.4-3.5 explains them.
"""
from __future__ import annotations

import functools
import math

import numpy as np
from scipy.optimize import minimize

from claims import Evidence, claim, decide_readings, reading
from claims import _pepit
from claims.momentum_streams.contraction import DOUBLE_ROOT_TOL, KAPPAS, pepit_note
from claims.momentum_streams.families import rates_table
from theory import rates as R


def nesterov_lrp(kappa: float) -> R.Momentum:
    """NAG (lookahead = momentum) with the tuning of Lessard, Recht & Packard (SIAM J. Optim.
    2016, §3.2) for quadratics: step 4/(3L + μ), β = (√(3κ+1) − 2)/(√(3κ+1) + 2); their rate
    1 − 2/√(3κ+1)."""
    s = math.sqrt(3 * kappa + 1)
    beta = (s - 2) / (s + 2)
    return R.nesterov(mu=beta, beta=beta, gamma=4.0 / (3 * kappa + 1))


def nag_form_minimax(kappa: float) -> float:
    """min over (β, γ) of the worst-case spectral radius over [1, κ] of NAG in its classical form
    (lookahead μ = β), Nelder–Mead from the LRP and the classical tunings (endpoint objective)."""
    ends = np.array([1.0, kappa])

    def objective(x) -> float:
        beta, gamma_L = x
        if not (0 <= beta <= 1 and gamma_L > 0):
            return np.inf
        return float(R.spectral_radius(R.nesterov(beta, beta, gamma_L / kappa), ends).max())

    starts = [(nesterov_lrp(kappa).b, nesterov_lrp(kappa).eta * kappa),
              (R.nesterov_classical(1.0, kappa).b, 1.0)]
    return min(minimize(objective, np.asarray(x0), method="Nelder-Mead",
                        options=dict(xatol=1e-13, fatol=1e-15, maxiter=3000)).fun for x0 in starts)


def swept_kappa(kappas, target: float = 100.0) -> float:
    """The swept condition number nearest `target` on a log scale: the κ an erratum's
    counterexample shows (the full sweep, a geometric grid, does not contain 100)."""
    return min(kappas, key=lambda k: abs(math.log(k / target)))


@claim("momentum_streams:nesterov-rate-text", locator="§3.2 and App. A.1",
       statement="on the strongly convex quadratic model NAG has contraction factor "
                 "(√L−√m)/(√L+√m)",
       method="property", expect="holds-with-correction", figures=["rates-vs-kappa"],
       paper_text=r"Nesterov’s accelerated gradient (Nesterov, 1983) additionally evaluates the "
                  r"gradient at a lookahead point x_{k}+\mu_{k}v_{k} and, on the strongly convex "
                  r"quadratic model with curvature range [m,L], has contraction factor "
                  r"(\sqrt{L}-\sqrt{m})/(\sqrt{L}+\sqrt{m}). (§3.2) [...] Heavy-ball is the special "
                  r"case \mu_{k}=0. For the strongly convex quadratic model with curvature range "
                  r"[m,L], NAG has contraction factor (\sqrt{L}-\sqrt{m})/(\sqrt{L}+\sqrt{m}). (A.1)",
       referee="confirmed: re-derived for classical NAG (μ = β = (√κ−1)/(√κ+1), γ = 1/L): "
               "α(λ) = (1+β)(1−λ/L), θ(λ) = β(1−λ/L); at λ = m, α² = 4θ, a double root "
               "α/2 = 1 − 1/√κ, above the printed factor. Every reading of 'NAG has contraction "
               "factor' fails: the asymptotic radius, the per-step norm, the quadratic-optimal NAG "
               "tuning (1 − 2/√(3κ+1)) and any fixed lookahead. Only the lookahead-free case μ = 0, "
               "heavy ball, attains it; §3.2 gives the factor to the method that 'additionally "
               "evaluates the gradient at a lookahead point', so that reading is set aside.")
def nesterov_rate_text(budget: str) -> Evidence:
    t = rates_table(budget)
    kappas = KAPPAS[budget]
    printed = {k: R.rate_momentum(k) for k in kappas}
    classical_excess = {k: t["nesterov_classical"][k] - printed[k] for k in printed}
    lookahead_excess = {k: t["nesterov_lookahead_0.1b/L"][k] - printed[k] for k in printed}
    classical_err = max(abs(t["nesterov_classical"][k] - R.rate_accelerated(k)) for k in printed)
    family_err = max(abs(t["minimax_nesterov"][k] - printed[k]) for k in printed)
    mu0_at_opt = max(t["lookahead_at_nesterov_optimum"].values())
    # NAG in its classical form, tuned for quadratics (LRP), and the best such tuning
    lrp = {k: R.worst_case_rate(nesterov_lrp(k), 1.0, k)[0] for k in kappas}
    lrp_formula_err = max(abs(lrp[k] - (1 - 2 / math.sqrt(3 * k + 1))) for k in kappas)
    nag_form = {k: nag_form_minimax(k) for k in kappas}
    # per-step factor: the worst operator norm of one layer's T(λ) over the spectrum
    per_step = {k: float(R.power_norms(R.nesterov_classical(1.0, k), np.linspace(1.0, k, 513),
                                       1)[1].max()) for k in kappas}
    # optimizer-free probe: no member on a (b, pL, qL) grid beats the heavy-ball rate
    n_grid = 61 if budget == "quick" else 101
    grid_excess = {k: R.family_grid_minimum(1.0, k, n_grid)[0] - printed[k] for k in printed}
    readings = [
        reading("classical NAG (μ = β = (√κ−1)/(√κ+1), γ = 1/L), the factor its asymptotic "
                "worst-case rate (max_λ spectral radius)",
                max(classical_excess.values()) < DOUBLE_ROOT_TOL, excess_over_printed=classical_excess),
        reading("the factor a per-step contraction, max_λ ‖T(λ)‖₂ of classical NAG",
                max(per_step[k] - printed[k] for k in kappas) < DOUBLE_ROOT_TOL,
                per_step_norm=per_step),
        reading("NAG in its classical form (lookahead = momentum) with the tuning best on "
                "quadratics (Lessard–Recht–Packard: 1 − 2/√(3κ+1)); Nelder–Mead over (β, γ) "
                "finds no better", max(min(lrp[k], nag_form[k]) - printed[k] for k in kappas)
                < DOUBLE_ROOT_TOL, lrp_rate=lrp, nag_form_minimax=nag_form),
        reading("NAG with a genuine lookahead (pinned away from zero, aη = 0.1·b/L) and the "
                "rest tuned", min(lookahead_excess.values()) < DOUBLE_ROOT_TOL,
                excess_over_printed=lookahead_excess),
    ]
    readings.append(reading(
        "the A.1 template at its best member, the lookahead-free special case μ = 0 included: it "
        "attains the factor only at μ = 0, i.e. as heavy ball, which §3.2 distinguishes from NAG "
        "('additionally evaluates the gradient at a lookahead point') and A.1 names separately "
        "('Heavy-ball is the special case')", family_err < 1e-8 and mu0_at_opt < 1e-6,
        attained_at_lookahead=mu0_at_opt, not_admitted="unsupported"))
    ok_correction = (classical_err < DOUBLE_ROOT_TOL and family_err < 1e-8 and mu0_at_opt < 1e-6
                     and min(lookahead_excess.values()) > 1e-6 and lrp_formula_err < DOUBLE_ROOT_TOL
                     and min(grid_excess.values()) >= -1e-12)
    return decide_readings(
        readings, ok_correction,
        criterion="per reading, the printed factor holds when the rate read is within 1e-7 "
                  "(double-root sensitivity) of (√κ−1)/(√κ+1) at every κ swept; correction: "
                  "classical NAG's radius equals 1 − 1/√κ (1e-7), LRP's tuning 1 − 2/√(3κ+1) "
                  "(1e-7), the (μ,β,γ) minimax equals (√κ−1)/(√κ+1) (1e-8, Nelder–Mead from heavy "
                  "ball and classical NAG; nothing is below it by the Chebyshev bound on degree-N "
                  "filters with q(0) = 1) at μ ≈ 0 (< 1e-6), no member on an n³ grid of "
                  "(b, pL, qL) ∈ [−1,1]²×(0,4] is below it (−1e-12, rounding), and a pinned "
                  "lookahead stays > 1e-6 above it",
        numbers={"kappas": kappas, "printed": printed, "classical_nag": t["nesterov_classical"],
                 "classical_minus_printed": classical_excess, "lrp_nag": lrp,
                 "nag_form_minimax": nag_form, "per_step_norm_classical": per_step,
                 "minimax_family": t["minimax_nesterov"], "lookahead_constrained": t[
                     "nesterov_lookahead_0.1b/L"], "max_|a|_at_family_optimum": mu0_at_opt,
                 f"grid_{n_grid}^3_minimum_minus_printed": grid_excess,
                 "rates_table": t},
        counterexample={"kappa": (k := swept_kappa(kappas)), "classical_nag_rate": t["nesterov_classical"][k],
                        "lrp_nag_rate": lrp[k], "printed": printed[k]},
        correction="classical NAG contracts at 1 − 1/√κ = 1 − √(m/L) on the quadratic model, and "
                   "at best 1 − 2/√(3κ+1) when tuned for quadratics; (√L−√m)/(√L+√m) is the "
                   "infimum over the (μ,β,γ) family, attained only at μ = 0 (heavy ball); any "
                   "fixed lookahead μ > 0 is strictly slower")


@functools.lru_cache(maxsize=None)
def tmm_rates(budget: str) -> dict:
    """Triple momentum against heavy ball, Nesterov and GD on the quadratic model, and beyond it
    on the Lessard–Recht–Packard function (κ = 25), where TMM converges and heavy ball cycles."""
    t = rates_table(budget)
    kappas = KAPPAS[budget]
    tm, _ = R.triple_momentum_vsfl(1.0, 25.0)
    x_tmm = R.run_momentum(R.lessard_gradient, np.array(3.3), [tm] * 300)
    pepit = None
    if budget == "full" and _pepit.available():
        pepit = {N: _pepit.worst_case("smooth-strongly-convex", [tm] * N, "distance", mu=1.0,
                                      L=25.0) for N in (2, 5, 10, 20)}
    return {
        "kappas": kappas, "t": t,
        "tmm_minus_heavy_ball": {k: t["tmm_vsfl"][k] - t["heavy_ball_tuned"][k] for k in kappas},
        "tmm_minus_classical_nag": {k: t["tmm_vsfl"][k] - t["nesterov_classical"][k] for k in kappas},
        "tmm_minus_lrp_nag": {k: t["tmm_vsfl"][k] - R.worst_case_rate(nesterov_lrp(k), 1.0, k)[0]
                              for k in kappas},
        "tmm_minus_gd": {k: t["tmm_vsfl"][k] - t["gd_tuned"][k] for k in kappas},
        # the template with a lookahead: NAG's rates (TMM(μ,β,γ,ν) = NAG(μ/ν,β,νγ) on iterates)
        "lookahead_excess": {k: t["nesterov_lookahead_0.1b/L"][k] - R.rate_momentum(k) for k in kappas},
        "lookahead_at_optimum": max(t["lookahead_at_nesterov_optimum"].values()),
        "template_iteration_ratio_vs_lower_bound": {k: math.log(R.rate_momentum(k))
                                                    / math.log(t["nesterov_classical"][k]) for k in kappas},
        "minimax_tmm_minus_minimax_nesterov": {k: t["minimax_tmm"][k] - t["minimax_nesterov"][k]
                                               for k in kappas},
        "minimax_tmm_minus_heavy_ball": {k: t["minimax_tmm"][k] - t["minimax_heavy_ball"][k]
                                         for k in kappas},
        # iterations to reach ε relative to the Chebyshev lower bound's: log ρ_mom / log ρ_TMM
        "iteration_ratio_vs_lower_bound": {k: math.log(R.rate_momentum(k))
                                           / math.log(t["tmm_vsfl"][k]) for k in kappas},
        "tmm_vs_formula": max(abs(t["tmm_vsfl"][k] - R.rate_accelerated(k)) for k in kappas),
        "tmm_on_lessard_|x_300|": float(abs(x_tmm[-1])),
        "pepit_tmm_worst_|x_N-x*|^2_kappa25": pepit_note(budget, pepit)}


@claim("momentum_streams:tmm-optimal-quadratics-text", locator="§1 and App. D.7",
       statement="triple momentum is an optimal first-order method for strongly convex "
                 "quadratics (it has an optimal rate on the quadratic model)",
       method="property", expect="holds", figures=["rates-vs-kappa"],
       paper_text="The advantage is architectural—robust to the parameter-training optimizer and "
                  "learning rate—and is consistent with the optimization theory in which triple "
                  "momentum is an optimal first-order method for strongly convex quadratics "
                  "(Section 4). (§1) [...] consistent with the optimization view of Section 3 "
                  "(triple momentum has an optimal rate on the strongly-convex quadratic model "
                  "used to study the depth recurrence) (App. D.7)",
       referee="changed (was holds-with-correction; the referee had confirmed the mathematics and "
               "asked for its readings): the mathematics stands, the Van Scoy-Freeman-Lynch "
               "method's quadratic radius is 1 − 1/√κ > (√κ−1)/(√κ+1). But 'an optimal "
               "first-order method' in the standard complexity sense (O(√κ log 1/ε) iterations; "
               "here within a factor < 2 of the Chebyshev lower bound) holds, and so does 'an "
               "optimal rate' for the paper's own four-parameter TMM template (A.2), whose minimax "
               "is the Chebyshev rate. The sentence that fails under every reading, §4.2's 'a "
               "stronger first-order rate than the Nesterov ... templates', is now its own claim "
               "(tmm-stronger-than-nesterov-text). Changed 7 Dec 2026, ambiguity -> holds, two further "
               "referees agreeing: the paper defines its Triple Momentum Method itself (§3.2, A.2: a "
               "template with learned μ, β, γ, ν, fixing no coefficients) and neither names nor cites the "
               "Van Scoy-Freeman-Lynch method (no 'Scoy' in the text or its references), so the reading "
               "that gives 'triple momentum' that method's tuning is not the paper's definition (R1, "
               "shown, not counted); the paper's own sense of optimal (Thm 5.2's (√κ−1)/(√κ+1)) is "
               "reached by its template. Changed again 7 Dec 2026, holds -> ambiguity, by a third "
               "referee (F) and for consistency with nesterov-rate-text: the template reaches that rate "
               "only at μ = 0, the lookahead-free member the paper calls heavy ball, which "
               "nesterov-rate-text's referees (A, B, F) do not admit as NAG; by the same rule it is not "
               "triple momentum (R1). With its lookahead (TMM(μ,β,γ,ν) = NAG(μ/ν,β,νγ)) the template is "
               "optimal in the complexity sense (holds) and never exactly (fails): an ambiguity, now "
               "between the paper's own template's two senses of 'optimal'.")
def tmm_optimal_text(budget: str) -> Evidence:
    r = tmm_rates(budget)
    readings = [
        reading("the Van Scoy–Freeman–Lynch triple momentum method; 'optimal' = the smallest "
                "worst-case rate on quadratics (the Chebyshev rate (√κ−1)/(√κ+1))",
                max(r["tmm_minus_heavy_ball"].values()) < 1e-9,
                tmm_minus_heavy_ball=r["tmm_minus_heavy_ball"], not_admitted="unsupported"),
        reading("the Van Scoy–Freeman–Lynch method; 'optimal' in the complexity sense: iterations to "
                "reach ε within a constant factor (here 2) of the lower bound's",
                max(r["iteration_ratio_vs_lower_bound"].values()) <= 2.0,
                iteration_ratio=r["iteration_ratio_vs_lower_bound"], not_admitted="unsupported"),
        reading("the paper's TMM template (A.2, (μ,β,γ,ν)) at its best coefficients, the lookahead-free "
                "μ = 0 included; 'optimal' = the smallest worst-case rate: attained only at μ = 0, the "
                "member the paper calls heavy ball (App. B: HBFormer is 'the special case of TMMFormer "
                "with μ≡0 and ν≡1'), as for nesterov-rate-text's NAG",
                max(map(abs, r["minimax_tmm_minus_heavy_ball"].values())) < 1e-8,
                minimax_tmm_minus_heavy_ball=r["minimax_tmm_minus_heavy_ball"], not_admitted="unsupported"),
        reading("the paper's TMM template with its gradient lookahead (μ ≠ 0); 'optimal' = the smallest "
                "worst-case rate (√κ−1)/(√κ+1): TMM(μ,β,γ,ν) has NAG(μ/ν,β,νγ)'s iterates, and NAG with "
                "a lookahead stays above the rate (pinned at 0.1·b/L: by at least the excess shown; the "
                "(μ,β,γ) optimum lies at lookahead 0)", min(r["lookahead_excess"].values()) <= 1e-6,
                lookahead_excess=r["lookahead_excess"], lookahead_at_optimum=r["lookahead_at_optimum"]),
        reading("the paper's TMM template with its gradient lookahead (μ ≠ 0); 'optimal' in the "
                "complexity sense (O(√κ log 1/ε) iterations, within a factor 2 of the lower bound's): "
                "at classical NAG's coefficients (ν = 1, μ = β) its rate 1 − 1/√κ",
                max(r["template_iteration_ratio_vs_lower_bound"].values()) <= 2.0,
                iteration_ratio=r["template_iteration_ratio_vs_lower_bound"]),
    ]
    return decide_readings(
        readings,
        criterion="the Van Scoy–Freeman–Lynch TMM's worst-case spectral radius over [μ,L] "
                  "against the Chebyshev rate (√κ−1)/(√κ+1) (1e-9); its iteration count "
                  "log ε/log ρ against the lower bound's (ratio log ρ_mom/log ρ_TMM ≤ 2); the "
                  "minimax of the (μ,β,γ,ν) template against the heavy-ball rate (1e-8); the "
                  "template with a lookahead: within 1e-6 of the Chebyshev rate (exact sense), its "
                  "iteration count at classical NAG's coefficients within 2x the lower bound's "
                  "(complexity sense)",
        numbers={"kappas": r["kappas"], "tmm_vsfl": r["t"]["tmm_vsfl"],
                 "heavy_ball": r["t"]["heavy_ball_tuned"], "minimax_tmm_family": r["t"]["minimax_tmm"],
                 "tmm_vsfl_vs_1-1/sqrt(kappa)": r["tmm_vs_formula"],
                 "tmm_on_lessard_|x_300|": r["tmm_on_lessard_|x_300|"],
                 "pepit_tmm_worst_|x_N-x*|^2_kappa25": r["pepit_tmm_worst_|x_N-x*|^2_kappa25"]},
        ambiguity="'an optimal method' / 'an optimal rate' in which sense: the paper's TMM template with "
                  "its gradient lookahead reaches O(√κ log 1/ε) iterations (within 2x the lower bound: "
                  "optimal in the complexity sense) but never the smallest rate (√κ−1)/(√κ+1), which "
                  "only its lookahead-free member, heavy ball, attains")


@claim("momentum_streams:tmm-stronger-than-nesterov-text", locator="§4.2 (Main Results)",
       statement="on the quadratic local model, triple momentum has a stronger first-order rate "
                 "than the Nesterov and gradient-descent templates",
       method="property", expect="holds-with-correction", figures=["rates-vs-kappa"],
       paper_text="This is consistent with the optimization view of Section 3: on the quadratic "
                  "local model used to analyze the depth recurrence, triple momentum has a "
                  "stronger first-order rate than the Nesterov and gradient-descent templates.",
       referee="confirmed (the referee's finding on tmm-optimal-quadratics-text, for this "
               "sentence): re-derived, the Van Scoy-Freeman-Lynch state recurrence is NAG with "
               "lookahead ρ²/((1+ρ)(2−ρ)), momentum ρ²/(2−ρ), step (1+ρ)/L, ρ = 1 − 1/√κ; its "
               "quadratic radius is 1 − 1/√κ, equal to classical NAG's and above the "
               "quadratic-tuned NAG's 1 − 2/√(3κ+1); as templates, TMM(μ,β,γ,ν) = NAG(μ/ν,β,νγ), "
               "so their best rates coincide. Stronger than gradient descent, not than Nesterov, "
               "under every reading.")
def tmm_stronger_text(budget: str) -> Evidence:
    r = tmm_rates(budget)
    beats_gd = max(r["tmm_minus_gd"].values()) < 0
    readings = [
        # the paper defines its TMM as the A.2 template and never names or cites the Van
        # Scoy-Freeman-Lynch method: the readings that compare that method are shown, not counted
        reading("the named methods with their standard tunings (Van Scoy–Freeman–Lynch TMM, "
                "classical NAG, GD with 2/(L+μ)), worst-case rates on quadratics",
                beats_gd and max(r["tmm_minus_classical_nag"].values()) < -2e-8,
                tmm_minus_classical_nag=r["tmm_minus_classical_nag"], not_admitted="unsupported"),
        reading("the Van Scoy–Freeman–Lynch TMM against NAG tuned for quadratics (Lessard–Recht–Packard)",
                beats_gd and max(r["tmm_minus_lrp_nag"].values()) < -2e-8,
                tmm_minus_lrp_nag=r["tmm_minus_lrp_nag"], not_admitted="unsupported"),
        reading("the templates, each at its best coefficients ((μ,β,γ,ν) against (μ,β,γ))",
                beats_gd and max(r["minimax_tmm_minus_minimax_nesterov"].values()) < -1e-8,
                minimax_tmm_minus_minimax_nesterov=r["minimax_tmm_minus_minimax_nesterov"]),
    ]
    ok_correction = (r["tmm_vs_formula"] < 1e-9 and beats_gd
                     and max(map(abs, r["tmm_minus_classical_nag"].values())) < 2e-8
                     and max(map(abs, r["minimax_tmm_minus_minimax_nesterov"].values())) < 1e-8
                     and r["tmm_on_lessard_|x_300|"] < 1e-8)
    return decide_readings(
        readings, ok_correction,
        criterion="'stronger' = a strictly smaller worst-case spectral radius over [μ, L] (by "
                  "more than the double-root sensitivity 2e-8; 1e-8 between minimax values) than "
                  "each Nesterov variant, and than GD, at every κ swept; correction: TMM's radius "
                  "equals 1 − 1/√κ (1e-9) = classical NAG's (2e-8), the two templates' minimax "
                  "values agree (1e-8), TMM beats GD, and TMM converges on the LRP function "
                  "(|x_300| < 1e-8) where tuned heavy ball cycles",
        numbers={"kappas": r["kappas"], "tmm_minus_classical_nag": r["tmm_minus_classical_nag"],
                 "tmm_minus_lrp_nag": r["tmm_minus_lrp_nag"], "tmm_minus_gd": r["tmm_minus_gd"],
                 "minimax_tmm_minus_minimax_nesterov": r["minimax_tmm_minus_minimax_nesterov"],
                 "tmm_on_lessard_|x_300|": r["tmm_on_lessard_|x_300|"]},
        counterexample={"kappa": (k := swept_kappa(r["kappas"])), "tmm_rate": r["t"]["tmm_vsfl"][k],
                        "classical_nag_rate": r["t"]["nesterov_classical"][k],
                        "minimax_tmm_minus_minimax_nesterov": r["minimax_tmm_minus_minimax_nesterov"][k]},
        correction="on the quadratic model TMM is stronger than gradient descent but not than "
                   "Nesterov: the Van Scoy–Freeman–Lynch TMM and classical NAG share the radius "
                   "1 − 1/√κ (NAG tuned for quadratics reaches 1 − 2/√(3κ+1), smaller), and the "
                   "(μ,β,γ,ν) and (μ,β,γ) templates share the best rate (√κ−1)/(√κ+1). TMM's "
                   "advantage is on the wider class of L-smooth μ-strongly convex functions, "
                   "where its 1 − 1/√κ holds and heavy ball can fail")

"""Seed 002 (momentum streams), Appendix F at finite depth: Theorem F.4 (the depth N₀ after which
the momentum loss bound is below the vanilla one) and the finite-depth sentence of Lemma F.2,
each weighed over its readings (issue 28), and that sentence's sharper form at the paper's 12
layers (an extension, outside the tally). Shared sweep and helpers:
`claims/momentum_streams/contraction.py`.

All three read one computation (`depth_study`): the depth N*(κ) at which the sup over the spectrum of
tuned heavy ball's filter drops below vanilla's for good, the momentum family tuned for depth 12,
and Chebyshev momentum (the Chebyshev semi-iteration as heavy-ball layers with per-layer
coefficients, `theory.rates.chebyshev_momentum`), a momentum recurrence whose error obeys
‖E_N‖ ≤ 2ρ_mom^N‖E_0‖ at exactly the rate of Lemma F.2.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from claims import Evidence, claim, decide_readings, reading
from claims.momentum_streams.contraction import KAPPAS, hb_sup_ratio, mode_grid
from theory import rates as R


def chebyshev_sup(kappa: float, N: int) -> np.ndarray:
    """max over the spectrum [1, κ] of |q_n| of Chebyshev momentum (`theory.rates`), n = 0..N."""
    lam = mode_grid(kappa)
    xs = R.run_momentum(lambda x: lam * x, np.ones_like(lam), R.chebyshev_momentum(1.0, kappa, N))
    return np.array([float(np.abs(x).max()) for x in xs])


@functools.lru_cache(maxsize=None)
def depth_study(budget: str) -> dict:
    """Tuned heavy ball against vanilla at finite depth, the depth-12 tuning, Chebyshev momentum."""
    kappas = KAPPAS[budget]
    n_true, n_check, n_gpt2, heavy_ball_crossing_ok = {}, {}, {}, True
    for kappa in kappas:
        rv, rm = R.rate_vanilla(kappa), R.rate_momentum(kappa)
        n_star = R.threshold_true(lambda n: R.heavy_ball_transient(rm, n), rv, rm)
        n_true[kappa] = n_star
        # the crossing read off the filters themselves (no closed form): sup_λ |q_N| < ρ_van^N
        depth = n_star + 40
        sup = R.worst_filter(R.heavy_ball_tuned(1.0, kappa), 1.0, kappa, depth)
        below = sup[1:] < rv ** np.arange(1, depth + 1)
        n_check[kappa] = R.below_for_good(below)
        heavy_ball_crossing_ok &= n_check[kappa] == n_star and bool(below[n_star - 1:].all())
        n_gpt2[kappa] = bool(sup[12] < rv**12)
    # tuned for the depth instead of asymptotically (constant coefficients), at depth 12
    tuned_kappas = sorted({100.0, *(kappas[::4] if budget == "full" else [])})
    depth_tuned = {k: {"depth_tuned": R.depth_tuning(1.0, k, 12)[1],
                       "heavy_ball_tuned": float(R.worst_filter(R.heavy_ball_tuned(1.0, k), 1.0, k,
                                                                12)[-1]),
                       "vanilla": R.rate_vanilla(k) ** 12,
                       "chebyshev_floor": R.chebyshev_floor(k, 12)}
                   for k in tuned_kappas}
    # Chebyshev momentum: its worst case equals the Chebyshev floor 2ρ^N/(1 + ρ^{2N}) ≤ 2ρ^N
    # (relative 1e-9: rounding of 60 layers of the recurrence) and is below vanilla for N ≥ 2
    N_cheb = 60
    cheb = {}
    for kappa in kappas:
        sup = chebyshev_sup(kappa, N_cheb)
        n = np.arange(1, N_cheb + 1)
        floor = np.array([R.chebyshev_floor(kappa, int(k)) for k in n])
        cheb[kappa] = {"max_rel_error_vs_floor": float(np.abs(sup[1:] / floor - 1).max()),
                       "sup_over_rho_mom^N": float((sup[1:] / R.rate_momentum(kappa) ** n).max()),
                       "below_vanilla_for_N>=2": bool(np.all(sup[2:] < R.rate_vanilla(kappa)
                                                             ** n[1:]))}
    return {"kappas": kappas, "true_threshold_N*": n_true, "threshold_from_filters": n_check,
            "heavy_ball_crossing_ok": heavy_ball_crossing_ok,
            "momentum_below_vanilla_at_depth_12": n_gpt2, "depth_12_worst_cases": depth_tuned,
            "chebyshev_momentum": cheb, "chebyshev_depth": N_cheb}


def _threshold_arithmetic(kappa: float) -> dict:
    """The printed N₀ = max{0, ⌈log C/log r⌉} and its intended form (the first depth with
    C < r^N: ⌊log C/log r⌋ + 1 for C ≥ 1, 0 for C < 1) on a grid of constants C that includes
    the boundary cases C = r^k (log C/log r an integer, C = 1 among them); r = ρ_van/ρ_mom.
    A comparison counts as strict when log C − N log r < −1e-9 (rounding of the logs)."""
    r = R.rate_vanilla(kappa) / R.rate_momentum(kappa)
    Cs = sorted({*(r**k for k in range(0, 6)), 0.5, 1.5, 2.0, 3.7, 10.0, 100.0})
    printed_fail, intended_fail = [], []
    for C in Cs:
        N0 = R.threshold_printed(C, R.rate_vanilla(kappa), R.rate_momentum(kappa))
        x = math.log(C) / math.log(r)
        intended = 0 if C < 1 and x < 0 else math.floor(x + 1e-12) + 1
        for N_start, fails in ((N0, printed_fail), (intended, intended_fail)):
            if any(math.log(C) - N * math.log(r) >= -1e-9 for N in range(N_start, N_start + 50)):
                fails.append({"C_mom": C, "N0": N_start})
    return {"r": r, "constants": Cs, "printed_N0_not_strict": printed_fail,
            "intended_N0_not_strict": intended_fail}


@claim("momentum_streams:thm-F.4", locator="Theorem F.4",
       statement="for N ≥ N₀ = max{0, ⌈log C_mom / log(ρ_van/ρ_mom)⌉} the momentum loss bound "
                 "is strictly below the vanilla one",
       method="property", expect="holds-with-correction", figures=["threshold-N0"],
       paper_text=r"Let X_{N}^{M} be the representation produced by a momentum Transformer after "
                  r"N layers, where one layer is represented by the corresponding effective "
                  r"linearized residual update. If both models start from the same X_{0}, then "
                  r"\mathcal{L}_{\mathrm{LM}}(X_{N}^{V})-\mathcal{L}_{\mathrm{LM}}(X^{\star})\leq"
                  r"\frac{C}{2}\rho_{\mathrm{vanilla}}^{2N}\|X_{0}-X^{\star}\|_{F}^{2}, "
                  r"\mathcal{L}_{\mathrm{LM}}(X_{N}^{M})-\mathcal{L}_{\mathrm{LM}}(X^{\star})\leq"
                  r"\frac{C}{2}C_{\mathrm{mom}}^{2}\rho_{\mathrm{mom}}^{2N}\|X_{0}-X^{\star}\|_{F}"
                  r"^{2}. Since \rho_{\mathrm{mom}}<\rho_{\mathrm{vanilla}}, for any fixed "
                  r"C_{\mathrm{mom}}<\infty there exists N_{0}=\max\left\{0,\,\left\lceil\frac{\log "
                  r"C_{\mathrm{mom}}}{\log(\rho_{\mathrm{vanilla}}/\rho_{\mathrm{mom}})}\right"
                  r"\rceil\right\} such that for all N\geq N_{0}, the momentum upper bound is "
                  r"strictly lower than the vanilla upper bound. [...] (proof) Similarly, applying "
                  r"the effective momentum layer contraction from Lemma F.2 for N layers gives",
       referee="changed (was holds-with-correction): the theorem is a conditional on a finite "
               "constant ('for any fixed C_mom < ∞'), and re-deriving it, C·ρ_mom^N < ρ_van^N iff "
               "N > log C/log r, so the threshold holds for every C except that ⌈·⌉ gives "
               "equality when log C/log r is an integer (⌊·⌋ + 1 is meant). Its hypothesis is "
               "met at exactly the rate ρ_mom by a momentum recurrence: the Chebyshev "
               "semi-iteration as heavy-ball layers with per-layer coefficients, C_mom = 2. It "
               "fails only when instantiated, as its proof does, with Lemma F.2's stationary "
               "heavy ball, which has no finite C_mom: that is Lemma F.2's erratum, not a second "
               "one. Holds, with the ambiguity noted. Second referee (26 Nov 2026), ambiguity -> "
               "erratum: the theorem prints N₀ = ⌈·⌉ with 'for all N ≥ N₀ ... strictly lower', and "
               "⌊·⌋ + 1 (or 'N > N₀') is printed nowhere, the proof repeating the claim; whenever "
               "log C_mom/log(ρ_van/ρ_mom) is an integer (any valid constant enlarged to r^k) the "
               "bounds are equal at N = N₀ (κ = 100, C = r²: both 0.960788...). A boundary case, "
               "but the printed statement fails under both readings: holds with ⌊·⌋ + 1")
def thm_f4(budget: str) -> Evidence:
    study = depth_study(budget)
    kappas = study["kappas"]
    # the printed N₀ with the smallest heavy-ball constants valid up to depth 12 and 48 (a
    # constant valid for all depths does not exist), and the bounds at κ = 100 (figure data)
    printed_with = {depth: {k: R.threshold_printed(
        float(R.heavy_ball_transient(R.rate_momentum(k), depth)), R.rate_vanilla(k),
        R.rate_momentum(k)) for k in kappas} for depth in (12, 48)}
    depth_curve = 60
    curve = {"sup_filter_heavy_ball": R.worst_filter(R.heavy_ball_tuned(1.0, 100.0), 1.0, 100.0,
                                                     depth_curve).tolist(),
             "vanilla": (R.rate_vanilla(100.0) ** np.arange(depth_curve + 1)).tolist(),
             "rho_mom^N": (R.rate_momentum(100.0) ** np.arange(depth_curve + 1)).tolist(),
             "true_threshold": R.threshold_true(
                 lambda n: R.heavy_ball_transient(R.rate_momentum(100.0), n),
                 R.rate_vanilla(100.0), R.rate_momentum(100.0))}
    # the κ above which tuned heavy ball is worse than vanilla at depth 12 (GPT-2 small)
    from scipy.optimize import brentq
    kappa_12 = brentq(lambda k: R.heavy_ball_transient(R.rate_momentum(k), 12)
                      * R.rate_momentum(k) ** 12 - R.rate_vanilla(k) ** 12, 2.0, 1e3, xtol=1e-12)
    # Reading (a): Lemma F.2's heavy ball has no finite C_mom (the smallest admissible constant
    # through depth N is the unbounded 1 + (1+ρ)N, Lemma F.2 entry).
    kappa = 100.0
    sup_ratio = float(hb_sup_ratio(kappa, 200)[-1])
    no_constant = abs(sup_ratio / R.heavy_ball_transient(R.rate_momentum(kappa), 200) - 1) < 1e-9
    # Readings (b), (c): a momentum recurrence with a finite C_mom at rate ρ_mom exists
    # (Chebyshev momentum, C_mom = 2), and the threshold arithmetic over a grid of constants.
    cheb = study["chebyshev_momentum"]
    has_constant = all(v["max_rel_error_vs_floor"] < 1e-9 and v["sup_over_rho_mom^N"] <= 2 * (1 + 1e-9)
                       for v in cheb.values())
    arithmetic = {k: _threshold_arithmetic(k) for k in kappas}
    printed_strict = not any(a["printed_N0_not_strict"] for a in arithmetic.values())
    intended_strict = not any(a["intended_N0_not_strict"] for a in arithmetic.values())
    readings = [
        reading("the momentum Transformer is Lemma F.2's tuned heavy ball (the proof applies 'the "
                "effective momentum layer contraction from Lemma F.2'), C_mom an N-independent "
                "constant", False if no_constant else None,
                sup_ratio_at_N200_kappa100=sup_ratio),
        reading("a conditional: any momentum recurrence whose error obeys ‖E_N‖ ≤ C_mom ρ_mom^N "
                "‖E_0‖ with a finite C_mom (e.g. Chebyshev momentum, C_mom = 2); N₀ = ⌈·⌉ as "
                "printed, strict for every C_mom", has_constant and printed_strict,
                boundary_cases={k: a["printed_N0_not_strict"][:3] for k, a in arithmetic.items()
                                if a["printed_N0_not_strict"]}),
    ]
    return decide_readings(
        readings, has_constant and intended_strict and study["heavy_ball_crossing_ok"] and all(
            v["chebyshev_floor"] - 1e-12 <= v["depth_tuned"] < v["vanilla"]
            for v in study["depth_12_worst_cases"].values()),
        criterion="(a) fails when sup_λ|q_N|/ρ^N of Lemma F.2's heavy ball equals the unbounded "
                  "1 + (1+ρ)N to 1e-9 at N = 200; (b), (c) need a momentum recurrence with rate "
                  "ρ_mom and a finite constant (Chebyshev momentum: its worst case equals "
                  "2ρ^N/(1+ρ^{2N}) to 1e-9 and stays ≤ 2ρ_mom^N at N ≤ 60) and strict "
                  "C·ρ_mom^N < ρ_van^N (log gap < −1e-9) at every N ≥ N₀ on a grid of C including "
                  "C = r^k; the heavy-ball correction: its true threshold N* (the closed form "
                  "(1+(1+ρ)N)ρ^N < ρ_van^N for good) equals the depth read off the filters, and "
                  "the depth-12-tuned family sits between the Chebyshev floor (−1e-12) and vanilla",
        numbers={"kappas": kappas, "true_threshold_N*": study["true_threshold_N*"],
                 "threshold_from_filters": study["threshold_from_filters"],
                 "momentum_below_vanilla_at_depth_12": study["momentum_below_vanilla_at_depth_12"],
                 "kappa_above_which_heavy_ball_loses_at_depth_12": kappa_12,
                 "printed_N0_with_C_valid_to_depth": printed_with,
                 "depth_12_worst_cases": study["depth_12_worst_cases"],
                 "bounds_vs_depth_kappa100": curve, "chebyshev_momentum": cheb,
                 "threshold_arithmetic": arithmetic},
        counterexample={"no finite C_mom for Lemma F.2's heavy ball":
                            "sup_λ|q_N|/ρ^N = 1 + (1+ρ)N (Lemma F.2 entry)",
                        "non-strict at the printed N0": {
                            k: a["printed_N0_not_strict"][:2] for k, a in arithmetic.items()
                            if a["printed_N0_not_strict"]}},
        correction="N₀ = max{0, ⌊log C_mom/log(ρ_van/ρ_mom)⌋ + 1} (or 'for all N > N₀' with the "
                   "printed ⌈·⌉): strict at every N ≥ N₀ on the grid of C, C = r^k included. "
                   "For Lemma F.2's heavy ball, with the sharp factor 1 + (1+ρ_mom)N, the momentum "
                   "bound is strictly below the vanilla bound exactly for N ≥ N*(κ), the smallest "
                   "N with 1 + (1+ρ_mom)n < (ρ_van/ρ_mom)^n for all n ≥ N (N*(10) = 5, "
                   "N*(100) = 21, N*(1000) = 84); for a genuine constant the threshold is "
                   "⌊log C/log r⌋ + 1. Coefficients tuned for the depth N beat vanilla already at "
                   "N = 12 (κ = 100: 0.193 vs 0.787; Chebyshev floor 0.179)")


@claim("momentum_streams:lemma-F.2-finite-depth", locator="Lemma F.2 (statement, last sentence)",
       statement="a second-order momentum recurrence can have a strictly better finite-depth "
                 "worst-case contraction factor than the vanilla recurrence",
       method="property", expect="holds",
       paper_text=r"If \kappa>1, there exist stable momentum coefficients such that "
                  r"\rho_{\mathrm{mom}}=\frac{\sqrt{\kappa}-1}{\sqrt{\kappa}+1}<\frac{\kappa-1}"
                  r"{\kappa+1}=\rho_{\mathrm{vanilla}}. Thus a second-order momentum recurrence can "
                  r"have a strictly better finite-depth worst-case contraction factor than the "
                  r"vanilla recurrence.")
def lemma_f2_finite_depth(budget: str) -> Evidence:
    """Lemma F.2's last sentence (seed 002): 'can have' is existential. Coefficients chosen for the
    depth beat vanilla at every N ≥ 2, the lemma's own from N*(κ) on; that the lemma's coefficients
    win at every depth N ≥ 1 is an 'every' the sentence does not state (R3: shown, not deciding)."""
    study = depth_study(budget)
    n_true, cheb = study["true_threshold_N*"], study["chebyshev_momentum"]
    depth12 = study["depth_12_worst_cases"]
    readings = [
        reading("the lemma's coefficients (Polyak's tuning of the proof), better than vanilla at "
                "every depth N ≥ 1", all(n == 1 for n in n_true.values()),
                first_depth_below_vanilla_for_good=n_true,
                not_admitted="invented"),   # an 'every' the sentence does not state (R3)
        reading("the lemma's coefficients, better than vanilla at every sufficiently large finite "
                "depth (N ≥ N*(κ), read off the filters)", study["heavy_ball_crossing_ok"],
                threshold_from_filters=study["threshold_from_filters"]),
        reading("'can have': some stable momentum coefficients, better than vanilla at each given "
                "depth N ≥ 2 (Chebyshev momentum with per-layer coefficients; constant "
                "coefficients tuned for the depth)",
                all(v["below_vanilla_for_N>=2"] for v in cheb.values())
                and all(v["depth_tuned"] < v["vanilla"] for v in depth12.values()),
                depth_12_tuned_vs_vanilla={k: (v["depth_tuned"], v["vanilla"])
                                           for k, v in depth12.items()}),
    ]
    return decide_readings(
        readings,
        criterion="the finite-depth worst-case factor of a recurrence at depth N is "
                  "max_λ∈[μ,L]|q_N(λ)| (v_0 = 0), compared with vanilla's ρ_van^N: Polyak's heavy "
                  "ball from the filters (the first depth N* after which it stays below, equal to "
                  "the closed form's), Chebyshev momentum's worst case (below vanilla at every "
                  "2 ≤ N ≤ 60), and the constant coefficients minimizing the depth-12 worst case",
        numbers={"kappas": study["kappas"], "true_threshold_N*": n_true,
                 "momentum_below_vanilla_at_depth_12": study["momentum_below_vanilla_at_depth_12"],
                 "chebyshev_momentum": cheb, "depth_12_worst_cases": depth12})


@claim("momentum_streams:lemma-F.2-depth-12", locator="Lemma F.2 (statement, last sentence)",
       statement="a sharper statement than Lemma F.2's: the lemma's own (Polyak-tuned heavy-ball) "
                 "coefficients have a smaller worst-case factor than vanilla at the paper's depth "
                 "N = 12, for every condition number κ",
       method="property", expect="fails", extension=True,
       paper_text=r"Thus a second-order momentum recurrence can have a strictly better finite-depth "
                  r"worst-case contraction factor than the vanilla recurrence.",
       referee="the extension both referees name on momentum_streams:lemma-F.2-finite-depth (issue "
               "38): the sentence is existential and holds; with the lemma's coefficients at the "
               "paper's 12 layers the heavy ball's worst case is above vanilla's once κ is large "
               "(N*(100) = 21)")
def lemma_f2_depth_12(budget: str) -> Evidence:
    """Lemma F.2 at the paper's depth (seed 002, 12 layers, Table 3): sup over [μ, L] of the tuned
    heavy ball's |q_12| against vanilla's ρ_van^12 on the κ sweep of `depth_study`."""
    study = depth_study(budget)
    below = study["momentum_below_vanilla_at_depth_12"]
    holds_at = [k for k, b in below.items() if b]
    fails_at = [k for k, b in below.items() if not b]
    return decide_readings(
        [reading("the lemma's coefficients beat vanilla at N = 12 for every κ of the sweep",
                 not fails_at, largest_kappa_below_vanilla=max(holds_at, default=None),
                 smallest_kappa_not_below_vanilla=min(fails_at, default=None))],
        criterion="max_λ∈[μ,L]|q_12(λ)| of Polyak's tuned heavy ball (v_0 = 0) below ρ_van^12 at "
                  "every κ of the sweep",
        numbers={"kappas": study["kappas"], "below_vanilla_at_depth_12": below,
                 "true_threshold_N*": study["true_threshold_N*"]},
        counterexample={"kappa": min(fails_at)} if fails_at else None)

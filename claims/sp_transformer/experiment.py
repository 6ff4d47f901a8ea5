"""Seed 001 §5 (Brantner et al.), the experiment: four networks learn the coupled oscillator.

The networks of fig. 6 are trained on implicit-midpoint data (particles.oscillator) for Table 3's
2000 epochs and rolled out on the test case k = 3.5 from five implicit-midpoint warm-up states
(particles.sp_train). At the full budget the claims decide on the committed runs at N = 20
(2N = 40, M = 2N = 40: sp_train budget `n40`, `results/sp_transformer/n40/`), the setting the text
fixes (sp_transformer:table-2-dimensions); the earlier 2N = 20 runs (`results/sp_transformer/`) and
their 8000-epoch continuation (`long/`) are sensitivity rows of the evidence, not readings. The
claims never train: a run that is missing, stale or corrupt is named in the evidence and the
verdict is `inconclusive` until `python -m particles.sp_train --budget n40` has trained it. The
quick budget trains a few epochs in memory and cannot decide (`inconclusive`).

The per-seed quantities, the statistics and the decision rule are those of
`claims.sp_transformer.oscillator_runs` (its docstring states them).
"""
from __future__ import annotations

import math

import numpy as np

from claims import Evidence, claim, decide, decide_readings, reading
from claims.sp_transformer.oscillator_runs import (DEPARTURES_7AB, DEPARTURES_7CD, ENERGY_TOL, FIT_TOL,
                                                   _blowup_times, _box, _decide_experiment, _energy,
                                                   _experiment, _fit, _log_peak, _training, combine,
                                                   deciding_budget, fit_on, flatness_rows,
                                                   reading_verdict, recipe_flatness, seed_test)
from particles import oscillator, sp_rollouts, sp_train
from theory import hamiltonian

__all__ = ["DEPARTURES_7AB", "DEPARTURES_7CD", "combine", "recipe_flatness", "seed_test"]

@claim("sp_transformer:k-3.5-training-set", locator="§5, text below fig. 7",
       statement="the test value k = 3.5 is one of the 40 equally spaced training values of k in [0, 4]",
       method="count", expect="holds", figures=["oscillator-trajectories"],
       paper_text="For the training set we pick k to be 40 equally-spaced values in the interval [0,4] "
                  "[...] (note that the trajectory for this value was part of the training set)",
       referee="changed, holds-with-correction -> holds with an ambiguity (issue 28): the old check "
               "assumed linspace(0, 4, 40) and called the authors' explicit statement about their own "
               "data an error; the grids 0, 0.1, ..., 3.9 and 0.1, ..., 4.0 are also 40 equally spaced "
               "values in [0, 4], and under both 3.5 is a training value. Our experiment trains on "
               "linspace(0, 4, 40), a stated deviation of fig-7ab/fig-7cd. Changed 7 Dec 2026, ambiguity "
               "-> holds, two further referees agreeing: 'in the interval [0,4]' does not say 'from 0 to "
               "4', so the both-endpoints grid adds an endpoint convention the text does not give (R3, "
               "shown, not counted), and nothing printed fixes the grid against the authors' note on "
               "their own training set")
def k_in_training_set(budget: str) -> Evidence:
    """'40 equally-spaced values in the interval [0, 4]' leaves the grid open: a step of 0.1 from
    either end (0, ..., 3.9 or 0.1, ..., 4.0), or both endpoints (linspace(0, 4, 40), spacing 4/39:
    an endpoint convention the text does not give, shown, not counted). Each reading is decided by
    whether 3.5 is on its grid (to 1e-12: the grids' rounding is ~1e-15)."""
    grids = {"both endpoints: numpy.linspace(0, 4, 40), spacing 4/39": oscillator.K_TRAIN,
             "step 0.1 from 0: 0, 0.1, ..., 3.9": np.arange(40) * 0.1,
             "step 0.1 to 4: 0.1, 0.2, ..., 4.0": (np.arange(40) + 1) * 0.1}
    rds, gaps = [], {}
    for text, grid in grids.items():
        assert len(grid) == 40 and grid.min() >= 0 and grid.max() <= 4 + 1e-12
        gap = float(np.min(np.abs(grid - oscillator.K_TEST)))
        gaps[text] = gap
        # 'in the interval [0,4]' is not 'from 0 to 4': the endpoints are a convention the text does not give
        rds.append(reading(text, gap < 1e-12, gap=gap,
                           not_admitted="invented" if text.startswith("both endpoints") else None))
    spacing = float(oscillator.K_TRAIN[1] - oscillator.K_TRAIN[0])
    nearest = float(oscillator.K_TRAIN[np.argmin(np.abs(oscillator.K_TRAIN - oscillator.K_TEST))])
    return decide_readings(
        rds, criterion="per reading of the grid: 3.5 is a training value iff min_j |k_j - 3.5| < 1e-12",
        numbers={"gaps": gaps, "linspace_spacing": spacing, "linspace_nearest_training_k": nearest,
                 "index_3.5_over_linspace_spacing": oscillator.K_TEST / spacing,
                 "our_experiment_grid": "numpy.linspace(0, 4, 40): 3.5 is not a training value there"})




FIG_7AB_TEXT = ("If we only look at the first ten time steps in fig. 6(a) it is not immediately clear "
                "which of the two networks performs better; they both seem to give a reasonable fit to "
                "the data [...] But looking at the system at time step 18 in fig. 6(b) the advantage of "
                "the SympNet over the ResNet becomes obvious: the ResNet was trained to minimize errors "
                "for a single time step but has no notion of symplecticity or other long-term stability "
                "encoded in it. This leads to the trajectory quickly blowing up as soon as it sees input "
                "data that only mildly differs from the training data.")
ONE_STEP = ("resnet", "sympnet")
# the parts of the sentence read as printed, beside the two readings of 'blowing up'
_7AB_COMMON = ("resnet_fits_2_10", "sympnet_fits_2_10", "sympnet_minus_resnet_fit_2_18",
               "sympnet_in_box_to_18")


def _7ab_readings(comp: dict, decided: bool) -> dict:
    """The two readings of 'blowing up' on one setting's components: leaving the physical region by
    t ~ 20 (with the other parts as printed), and diverging (impossible for the printed ResNet)."""
    return {"leaving_the_physical_region_by_t_20": reading_verdict(
                comp, (*_7AB_COMMON, "resnet_leaves_box_by_20"), decided),
            "diverging": False if decided and comp else None}


@claim("sp_transformer:fig-7ab", locator="Figure 7(a,b), §5",
       statement="ResNet and SympNet both fit the k = 3.5 trajectory on [0, 10]; by t ≈ 18 the "
                 "SympNet fits better than the ResNet, which blows up while the SympNet stays "
                 "bounded (decided at N = 20: 2N = 40, M = 40)",
       method="experiment", expect="fails", expect_quick="inconclusive",
       figures=["oscillator-rollouts", "oscillator-energy", "oscillator-training"],
       paper_text=FIG_7AB_TEXT,
       referee="issue 35: decided at N = 20 (2N = 40, M = 2N = 40: budget n40, 5 seeds), the setting "
               "the text fixes (sp_transformer:table-2-dimensions); the 2N = 20 runs are sensitivity "
               "rows, not a reading (R1: a setting the text contradicts is not admissible). A reviewer "
               "found 'the advantage of the SympNet over the ResNet becomes obvious' at t = 18 "
               "reversed in 13 of 13 runs (n40, full, long): now a component (the paired q1 error on "
               "(2, 18]), which fails at every setting. 26 Nov 2026 (third referee): counted as not "
               "reproduced, not as an erratum: the sentence reports the authors' own trained ResNet, "
               "and our runs fill in seven settings the paper does not give (the deviations), so a "
               "fail says the printed recipe does not reproduce it, not that the paper misreports "
               "its run. Earlier: a second referee asked for inconclusive, since the runs used "
               "2N = 20 while the reading of Table 2 under which the paper agrees with itself is "
               "N = 20, 2N = 40; that setting was then trained (budget n40, 5 seeds, the printed "
               "recipe): the ResNet stays inside the physical region to t = 20 there too (log peak "
               "−0.31 box units, CI [−0.32, −0.29]), stable at the 80/90% milestones. What fails is "
               "the printed recipe's network (loss unstated: mean squared one-step error; curves "
               "decaying as a power law at the printed 2000 epochs and still inside at 8000), not the "
               "authors' plotted run, which the printed architecture cannot have diverged in. Earlier "
               "(issue 25): 'blowing up' read as diverging, the printed ResNet cannot do it for any "
               "weights (its up-scaled state passes through tanh, so y + tanh(Wy + b) lies in "
               "[-2, 2]^{2N} and any continuous down-scaling keeps the output bounded: "
               "2 |W_down|_inf + |c| <= 30 for our trained weights); read as leaving the physical "
               "region by t ~ 20, our five seeds stay inside at the printed 2000 epochs and at 8000. "
               "Fits and the SympNet's boundedness hold. The printed recipe (constant Adam rate) "
               "decays as a power law and cannot meet the flatness rule at any length: stated, the "
               "verdict rests on the printed recipe")
def fig_7ab(budget: str) -> Evidence:
    t_end = sp_train.get_budget(deciding_budget(budget)).t_rollout
    box = _box(t_end)

    def components(s: dict) -> dict:
        res, sym = s["resnet"], s["sympnet"]
        peak = {n: [_log_peak(x, "2-18", box) for x in s[n]] for n in s}
        return {
            "resnet_fits_2_10": ([_fit(x, "2-10") for x in res], "<", FIT_TOL),
            "sympnet_fits_2_10": ([_fit(x, "2-10") for x in sym], "<", FIT_TOL),
            # "looking at the system at time step 18 in fig. 6(b) the advantage of the SympNet over
            # the ResNet becomes obvious": the SympNet's q1 error below the ResNet's, paired by seed,
            # on fig. 7(b)'s plotted interval [0, 18] after the warm-up (the window every milestone
            # saves; (10, 18] is reported beside it, `fit_10_18`)
            "sympnet_minus_resnet_fit_2_18": (
                [_fit(b, "2-18") - _fit(a, "2-18") for a, b in zip(res, sym)], "<", 0.0),
            # "by t ≈ 18": out of the box by t = 20 (the next plotted horizon, fig. 7(c))
            "resnet_leaves_box_by_20": ([_log_peak(x, "2-20", box) for x in res], ">", 0.0),
            "sympnet_in_box_to_18": (peak["sympnet"], "<", 0.0),
            "resnet_minus_sympnet_log_peak_2_18": (
                [a - b for a, b in zip(peak["resnet"], peak["sympnet"])], ">", 0.0)}

    def extra(recs: dict) -> dict:
        fits = {w: {n: [fit_on(r, *w, t_end) for r in recs[n]] for n in ONE_STEP}
                for w in ((2.0, 18.0), (10.0, 18.0))}
        diff = {f"{w[0]:g}-{w[1]:g}": [b - a for a, b in zip(f["resnet"], f["sympnet"])]
                for w, f in fits.items()}
        return {"box": box, "blowup_time": _blowup_times(recs, t_end),
                "resnet_output_bound_max": [float(max(r["output_bound"])) for r in recs["resnet"]],
                "fit_10_18": fits[(10.0, 18.0)],
                "sympnet_minus_resnet_fit": diff,
                "seeds_sympnet_fits_worse": {w: f"{sum(d > 0 for d in v)} of {len(v)}"
                                             for w, v in diff.items()}}

    ev = _decide_experiment(budget, ONE_STEP, components, DEPARTURES_7AB, extra, _7ab_readings,
                            sensitivity=("full", "long"))
    n = ev.numbers
    bound = max(n.get("resnet_output_bound_max") or [math.inf])
    rd = _7ab_readings(n["components"], n["decidable"])
    rds = [reading("'blowing up' = leaving the physical region (twice the reference's largest "
                   "coordinate) by t ~ 20, the other parts as printed (both fit on (2, 10], the "
                   "SympNet fits better on (2, 18] and stays in the region)",
                   rd["leaving_the_physical_region_by_t_20"]),
           reading("'blowing up' = diverging: impossible for the printed ResNet (bounded output for "
                   "every input and weight; largest bound of the trained seeds "
                   f"{bound:.3g})", rd["diverging"])]
    numbers = dict(n, scale="the paper's own networks and data sizes (Tables 2-3): not a proxy",
                   deviations=DEPARTURES_7AB, flatness=flatness_rows(ONE_STEP, budget),
                   resnet_can_diverge=False,
                   resnet_can_leave_box=bool(bound > box) if math.isfinite(bound) else None)
    return decide_readings(rds, criterion=ev.criterion + "; 'blowing up' read two ways (readings)",
                           numbers=numbers, counterexample=ev.counterexample,
                           ambiguity="'blowing up': leaving the physical region is possible for the "
                                     "printed ResNet, diverging is not")


FIG_7CD_TEXT = ("The transformer and the structure-preserving transformer, in particular the latter, "
                "show a much better fit to the data in fig. 6(c). [...] In fig. 6(d) we can see that the "
                "classical transformer (without any structure-preserving properties) eventually becomes "
                "unstable and seems to loose energy. For the new structure-preserving tranformer this is "
                "not the case: the trajectories evolve on paths that may diverge from the numerical "
                "solution, but still seem to keep the same energy levels.")
TRANSFORMERS = ("transformer", "sp_transformer")
_7CD_COMMON = ("transformer_fits_2_20", "sp_transformer_fits_2_20", "sp_minus_transformer_fit_2_20",
               "sp_transformer_keeps_energy")


def _7cd_readings(comp: dict, decided: bool) -> dict:
    """The two readings of 'seems to loose energy' on one setting's components."""
    return {"energy_loss_over_10pct": reading_verdict(comp, (*_7CD_COMMON, "transformer_loses_energy"),
                                                      decided),
            "any_energy_decrease": reading_verdict(comp, (*_7CD_COMMON, "transformer_energy_decreases"),
                                                   decided)}


@claim("sp_transformer:fig-7cd", locator="Figure 7(c,d), §5",
       statement="both transformers fit the k = 3.5 trajectory to t ≈ 20, the structure-preserving one "
                 "better; over [0, 600] the standard transformer loses energy while the "
                 "structure-preserving one keeps its energy level (decided at N = 20: 2N = 40, M = 40)",
       method="experiment", expect="inconclusive", expect_quick="inconclusive",
       figures=["oscillator-rollouts", "oscillator-energy", "oscillator-training"],
       paper_text=FIG_7CD_TEXT,
       referee="issue 35: decided at N = 20 (2N = 40, M = 2N = 40: budget n40), the setting the text "
               "fixes (sp_transformer:table-2-dimensions), on five seed pairs (27 Nov 2026): a loss of "
               "energy over 10% fails (the standard transformer's change −0.7%, CI [−6.9%, +5.6%]), any "
               "decrease is undecided, and the SP transformer's better fit is undecided (it fits worse "
               "in four of five pairs); the 2N = 20 runs are a sensitivity row (inconclusive there "
               "too). Earlier: changed, fails -> inconclusive (issue 25): 'seems to loose "
               "energy' was decided only as a loss of more than 10% (our threshold); read as any "
               "decrease of the energy level, the standard transformer's change (+2.6% mean, 5 seeds "
               "at 2N = 20) is undecided, so the text is not shown wrong under every reading. The "
               "structure-preserving transformer keeping its energy level holds at 2N = 20; 'in "
               "particular the latter' fits better is undecided")
def fig_7cd(budget: str) -> Evidence:
    t_end = sp_train.get_budget(deciding_budget(budget)).t_rollout

    def components(s: dict) -> dict:
        tr, sp = s["transformer"], s["sp_transformer"]
        return {
            "transformer_fits_2_20": ([_fit(x, "2-20") for x in tr], "<", FIT_TOL),
            "sp_transformer_fits_2_20": ([_fit(x, "2-20") for x in sp], "<", FIT_TOL),
            # "the transformer and the structure-preserving transformer, in particular the latter,
            # show a much better fit" (fig. 7(c)): paired by seed
            "sp_minus_transformer_fit_2_20": (
                [_fit(b, "2-20") - _fit(a, "2-20") for a, b in zip(tr, sp)], "<", 0.0),
            "transformer_loses_energy": ([_energy(x) for x in tr], "<", -ENERGY_TOL),
            "transformer_energy_decreases": ([_energy(x) for x in tr], "<", 0.0),
            "sp_transformer_keeps_energy": ([_energy(x) for x in sp], "within",
                                            (-ENERGY_TOL, ENERGY_TOL)),
            "transformer_minus_sp_energy_change": (
                [_energy(a) - _energy(b) for a, b in zip(tr, sp)], "<", 0.0)}

    def extra(recs: dict) -> dict:
        drift = {n: [sp_rollouts.energy_drift(r["rollout"]) for r in recs[n]] for n in recs}
        return {"reference_energy": float(oscillator.energy(hamiltonian.Z0, oscillator.K_TEST)),
                "blowup_time": _blowup_times(recs, t_end),
                "energy_relative_change": {n: [d["relative_change"] for d in drift[n]] for n in recs},
                "energy_slope": {n: [d["slope"] for d in drift[n]] for n in recs}}

    ev = _decide_experiment(budget, TRANSFORMERS, components, DEPARTURES_7CD, extra, _7cd_readings,
                            sensitivity=("full",))
    n = ev.numbers
    rd = _7cd_readings(n["components"], n["decidable"])
    rds = [reading("'becomes unstable and seems to loose energy' = an energy loss of more than 10% "
                   "over [2, 600]", rd["energy_loss_over_10pct"],
                   not_admitted="invented"),   # a threshold the text does not give (R3, both referees)
           reading("'seems to loose energy' = any decrease of the energy level over [2, 600]",
                   rd["any_energy_decrease"])]
    numbers = dict(n, scale="the paper's own networks and data sizes (Tables 2-3): not a proxy",
                   deviations=DEPARTURES_7CD, flatness=flatness_rows(TRANSFORMERS, budget))
    return decide_readings(rds, criterion=ev.criterion + "; 'loses energy' read two ways (readings)",
                           numbers=numbers, counterexample=ev.counterexample)




@claim("sp_transformer:sp-transformer-structure", locator="end of §4; §5",
       statement="the trained structure-preserving transformer preserves phase-space volume but is not "
                 "symplectic (measured along its k = 3.5 rollout)",
       method="property", expect="holds-with-correction", repeats="sp_transformer:eq-21-volume",
       paper_text="We should also note that the eq. 21 is not perfectly symplectic; even though Λ(Z) is a "
                  "symplectic matrix it still depends on Z and so the Jacobian of this transformation has "
                  "extra terms. As a result our adapted transformer preserves phase space volume, but is "
                  "not symplectic in the classical sense, which is a stronger property.",
       referee="confirmed: measured on the five trained networks, the feed-forward SympNet layers are "
               "symplectic and the Cayley attention carries the whole volume change (chain rule to 1e-6), "
               "which is not zero; the architecture fails for an unconstrained A as well "
               "(sp_transformer:eq-21-volume's exact counterexample), and a skew A, the one reading "
               "under which (21) preserves volume, is not what the paper trains (its A is a free weight)")
def sp_structure(budget: str) -> Evidence:
    got, b = _experiment(budget, ("sp_transformer",))
    records = got.records["sp_transformer"]
    if not records:
        return decide(False, decided=False, criterion=f"no usable run: {got.problems()['to_train']}",
                        numbers={"n_seeds": 0, "runs_not_usable": got.problems()})
    st = {k: np.asarray([v for r in records for v in r["structure"][k]], dtype=np.float64)
          for k in records[0]["structure"]}
    logdet, defect = st["core_log_det"], st["core_relative_defect"]
    attention_logdet, feedforward_logdet = st["attention_log_det"], st["feedforward_log_det"]
    # 100×100 Jacobians with entries O(1-10): log|det| and DᵀJD are exact to ~1e-12; 1e-8 is far
    # above rounding and far below the O(0.1-1) values a non-preserving map shows.
    tol = 1e-8
    volume_preserved = float(np.max(np.abs(logdet))) < tol
    not_symplectic = float(np.min(defect)) > tol
    chain = float(np.max(np.abs(logdet - attention_logdet - feedforward_logdet)))
    corrected_ok = (not_symplectic and np.max(np.abs(feedforward_logdet)) < tol
                    and np.max(st["feedforward_defect"]) < tol and chain < 1e-6
                    and float(np.median(np.abs(attention_logdet))) > tol)
    worst = int(np.argmax(np.abs(logdet)))
    decided = b.committed and got.complete
    rds = [reading("the trained network, along its rollout (as measured here)",
                   (volume_preserved and not_symplectic) if decided or not b.committed else None),
           reading("the architecture, for every weight A of eq. (21): sp_transformer:eq-21-volume",
                   _architecture_preserves_volume())]
    return decide_readings(
        rds, corrected_ok if decided or not b.committed else None,
        criterion=f"printed: max |log|det D core| < {tol:g} and min ‖DᵀJD − J‖_F/‖J‖_F > {tol:g} over "
                  f"{b.structure_windows} windows of each trained rollout (all seeds); correction: "
                  f"the SympNet feed-forward parts have |log det| and defect < {tol:g}, the attention "
                  "layers carry the whole volume change (chain rule to 1e-6) and it is not zero"
                  + ("" if decided or not b.committed else
                     f"; undecided: runs not usable, {got.problems()['to_train']} trains them"),
        numbers={"n_seeds": len(records), "seeds": [r["seed"] for r in records],
                 "training": _training(records), "n_windows_per_seed": b.structure_windows,
                 "core_log_det_median_per_seed": [float(np.median(r["structure"]["core_log_det"]))
                                                  for r in records],
                 "core_log_det_median": float(np.median(logdet)),
                 "core_log_det_max_abs": float(np.max(np.abs(logdet))),
                 "core_log_det_quantiles_10_50_90": np.quantile(logdet, [0.1, 0.5, 0.9]).tolist(),
                 "core_relative_defect_median": float(np.median(defect)),
                 "core_relative_defect_min": float(np.min(defect)),
                 "attention_log_det_median_abs": float(np.median(np.abs(attention_logdet))),
                 "feedforward_log_det_max_abs": float(np.max(np.abs(feedforward_logdet))),
                 "feedforward_defect_max": float(np.max(st["feedforward_defect"])),
                 "chain_rule_residual": chain,
                 **({} if got.complete else {"runs_not_usable": got.problems()})},
        counterexample=None if volume_preserved else {
            "window_index": worst, "log_det": float(logdet[worst]),
            "attention_log_det": float(attention_logdet[worst])},
        correction="the SympNet feed-forward layers are symplectic (hence volume preserving) along the "
                   "rollout, but the trained Cayley attention Z ↦ ZΛ(Z) changes volume (its A is not "
                   "skew; see sp_transformer:eq-21-volume), so the network is neither symplectic nor "
                   "volume preserving")


def _architecture_preserves_volume() -> bool | None:
    """The verdict of sp_transformer:eq-21-volume on the printed statement (volume preserved for
    the paper's weight A): True when it holds, False when it is an erratum, None otherwise."""
    from claims import registry
    ev = registry()["sp_transformer:eq-21-volume"].check("quick")
    return {"holds": True, "holds-with-correction": False, "fails": False}.get(ev.verdict)

"""Seed 001 §5 (Brantner et al.), the experiment: four networks learn the coupled oscillator.

The networks of fig. 6 are trained on implicit-midpoint data (particles.oscillator) and rolled out
on the test case k = 3.5 from five implicit-midpoint warm-up states (particles.sp_train). Every
verdict follows from rollout diagnostics by a criterion fixed before looking at the numbers:

- a rollout *blows up* when a state leaves the box 2 · max‖z_ref‖_∞ (twice the largest coordinate
  of the implicit-midpoint reference on [0, 600]); the blow-up time is the first such time;
- it *fits* on (2, t1] when the RMS error of q1 there is below half the RMS of q1_ref (relative
  error < 0.5: the networks see no k, so the paper only asks for a "reasonable fit");
- it *loses energy* when the mean of H(ẑ(t); 3.5) over the last tenth of [2, 600] is more than
  10% below its mean over the first tenth; it *keeps its energy level* when the change is within
  ±10%;
- a statement about the trained networks holds when it holds for a majority of the seeds.

At the quick budget the networks are trained for a few epochs on a quarter of the data: the
rollouts are computed and reported, but the experiment claims cannot be decided (`inconclusive`).
"""
from __future__ import annotations

import numpy as np

from claims import Evidence, claim, verdict_from
from particles import oscillator, sp_train
from theory import symplectic

BLOWUP_FACTOR = 2.0
FIT_TOL = 0.5
ENERGY_TOL = 0.10

# Where our networks and training depart from §5 (docs/sp_transformer_experiment.md, "Could the
# verdicts be artifacts?"), carried in the evidence of the two experiment claims.
DEPARTURES_7AB = {
    "epochs": "ResNet and SympNet: 1000 of Table 3's 2000 epochs",
    "resnet_upscaling": "tanh(Ax + b) as printed in §5; with it the output is bounded by "
                        "2·‖W_down‖_∞ + |c| for every weight value, so no amount of training makes "
                        "the fig. 6 ResNet diverge to infinity, only leave the physical box",
    "resnet_downscaling": "linear (the text does not state it)",
    "loss": "mean squared one-step error (not stated in the paper)",
}
DEPARTURES_7CD = {
    "epochs": "transformers: 150 of Table 3's 2000 epochs (SP transformer's loss still falling; "
              "seed 0 continued to 600 epochs in the docs)",
    "standard_attention": "multi-head per [34]: per-head Q, K, V projections, 1/√d_h scaling, no "
                          "output projection; eq. (6) (single head) has no V and no scaling",
    "feedforward": "one tanh layer with add connection (fig. 2 and the ResNet footnote)",
    "cayley": "standard Cayley transform (I − Y)(I + Y)⁻¹, not eq. (20)'s ½(I − Y)(I + Y)⁻¹",
    "loss": "mean squared one-step error (not stated in the paper)",
}


def _experiment(budget: str, networks: tuple[str, ...]) -> tuple[dict, np.ndarray, sp_train.Budget]:
    b = sp_train.get_budget(budget)
    got = sp_train.collect(b, networks)
    if not got.complete:
        raise _Missing(got)
    return got.records, sp_train.reference(b.t_rollout), b


class _Missing(Exception):
    def __init__(self, got):
        self.got = got


def _majority(flags: list[bool]) -> bool:
    return sum(flags) * 2 > len(flags)


def _training(recs: list[dict]) -> dict:
    """Epochs, seeds and the training loss after 0, ¼, ½, ¾ and all of the epochs (per seed): a loss
    still falling at the end means the budget, not the architecture, limits the fit."""
    n = recs[0]["epochs"]
    marks = sorted({max(0, round(f * n) - 1) for f in (0.0, 0.25, 0.5, 0.75, 1.0)})
    return {"epochs": n, "batch_size": recs[0]["batch_size"], "seeds": [r["seed"] for r in recs],
            "final_loss": [r["losses"][-1] for r in recs],
            "loss_at_epochs": [m + 1 for m in marks],
            "loss_history": [[r["losses"][m] for m in marks] for r in recs]}


@claim("sp_transformer:k-3.5-training-set", locator="§5, text below fig. 7",
       statement="the test value k = 3.5 is one of the 40 equally spaced training values of k in [0, 4]",
       method="count", expect="holds-with-correction", figures=["oscillator-trajectories"])
def k_in_training_set(budget: str) -> Evidence:
    grid = oscillator.K_TRAIN                      # np.linspace(0, 4, 40): spacing 4/39
    gap = float(np.min(np.abs(grid - oscillator.K_TEST)))
    nearest = float(grid[np.argmin(np.abs(grid - oscillator.K_TEST))])
    spacing = float(grid[1] - grid[0])
    # 3.5 is on the grid iff 3.5 / (4/39) = 34.125 is an integer; rounding of linspace is ~1e-15.
    printed_ok = gap < 1e-12
    # Correction: k = 3.5 is an interpolation inside the training range, within half a spacing of a
    # training value; it is a training value only for the step-0.1 grids 0, 0.1, …, 3.9 (or 0.1, …, 4).
    step_grid = np.arange(40) * 0.1
    corrected_ok = 0 < gap <= spacing / 2 and bool(np.any(np.abs(step_grid - 3.5) < 1e-12))
    return Evidence(
        verdict=verdict_from(printed_ok, corrected_ok),
        criterion="printed: min_j |k_j − 3.5| < 1e-12 on the 40-point grid with both endpoints; "
                  "correction: 0 < gap <= spacing/2 and 3.5 on the grid 0, 0.1, …, 3.9",
        numbers={"grid_spacing": spacing, "nearest_training_k": nearest, "gap": gap,
                 "index_3.5_over_spacing": oscillator.K_TEST / spacing},
        counterexample={"grid": "np.linspace(0, 4, 40)", "3.5/spacing": oscillator.K_TEST / spacing,
                        "nearest": nearest},
        correction="with 40 equally spaced values including 0 and 4 (spacing 4/39), k = 3.5 is not a "
                   "training value: the nearest is 136/39 ≈ 3.487, so the test is an interpolation "
                   "within half a grid spacing; 3.5 is a training value only for the grid 0, 0.1, …, 3.9")


@claim("sp_transformer:fig-7ab", locator="Figure 7(a,b), §5",
       statement="ResNet and SympNet both fit the k = 3.5 trajectory on [0, 10]; by t ≈ 18 the "
                 "ResNet blows up while the SympNet stays bounded",
       method="experiment", expect="fails", expect_quick="inconclusive",
       figures=["oscillator-rollouts", "oscillator-energy"])
def fig_7ab(budget: str) -> Evidence:
    res, ref, b = _experiment(budget, ("resnet", "sympnet"))
    blow = {n: [sp_train.blowup_time(r["rollout"], ref, BLOWUP_FACTOR) for r in res[n]] for n in res}
    err10 = {n: [sp_train.q1_error(r["rollout"], ref, 2.0, 10.0) for r in res[n]] for n in res}
    err18 = {n: [sp_train.q1_error(r["rollout"], ref, 2.0, 18.0) for r in res[n]] for n in res}
    both_fit = _majority([e < FIT_TOL for e in err10["resnet"]]) and \
        _majority([e < FIT_TOL for e in err10["sympnet"]])
    # "by t ≈ 18": blow-up at t <= 20 (the next plotted horizon is fig. 7(c)'s 20)
    resnet_blows = _majority([t <= 20.0 for t in blow["resnet"]])
    sympnet_bounded = _majority([t > 18.0 for t in blow["sympnet"]])
    bounds = [float(max(r["output_bound"])) for r in res["resnet"]]
    box = BLOWUP_FACTOR * float(np.max(np.abs(ref)))
    ok = both_fit and resnet_blows and sympnet_bounded
    return Evidence(
        verdict=verdict_from(ok, decided=b.name == "full"),
        criterion=f"majority of seeds: relative q1 RMS error on (2, 10] < {FIT_TOL} for both; ResNet "
                  f"leaves the box {BLOWUP_FACTOR}·max|z_ref| by t = 20; SympNet stays inside it up to "
                  f"t = 18 (undecided at the quick budget); decided at {b.epochs['resnet']} of "
                  "Table 3's 2000 epochs",
        numbers={"training": {n: _training(res[n]) for n in res},
                 "blowup_time": blow, "q1_rel_error_2_10": err10, "q1_rel_error_2_18": err18,
                 "both_fit_early": both_fit, "resnet_blows_up_by_20": resnet_blows,
                 "sympnet_bounded_to_18": sympnet_bounded, "box": box,
                 "resnet_output_bound_max": bounds,
                 "resnet_max_abs_state": [float(np.nanmax(np.abs(r["rollout"]))) for r in res["resnet"]],
                 "sympnet_max_abs_state": [float(np.nanmax(np.abs(r["rollout"]))) for r in res["sympnet"]],
                 "departures_from_paper": DEPARTURES_7AB},
        counterexample=None if ok else {
            "k": oscillator.K_TEST, "seeds": _training(res["resnet"])["seeds"],
            "resnet_blowup_time": blow["resnet"], "sympnet_blowup_time": blow["sympnet"],
            "note": "the fig. 6 ResNet's output is bounded a priori by 2‖W_down‖_∞ + |c| (tanh "
                    "upscaling): it cannot diverge, only leave the physical region"})


@claim("sp_transformer:fig-7cd", locator="Figure 7(c,d), §5",
       statement="both transformers fit the k = 3.5 trajectory to t ≈ 20; over [0, 600] the standard "
                 "transformer loses energy while the structure-preserving one keeps its energy level",
       method="experiment", expect="fails", expect_quick="inconclusive",
       figures=["oscillator-rollouts", "oscillator-energy"])
def fig_7cd(budget: str) -> Evidence:
    res, ref, b = _experiment(budget, ("transformer", "sp_transformer"))
    err20 = {n: [sp_train.q1_error(r["rollout"], ref, 2.0, 20.0) for r in res[n]] for n in res}
    drift = {n: [sp_train.energy_drift(r["rollout"]) for r in res[n]] for n in res}
    change = {n: [d["relative_change"] if d["finite"] else float("nan") for d in drift[n]] for n in res}
    blow = {n: [sp_train.blowup_time(r["rollout"], ref, BLOWUP_FACTOR) for r in res[n]] for n in res}
    both_fit = all(_majority([e < FIT_TOL for e in err20[n]]) for n in res)
    # an unbounded or non-finite rollout has no energy level to keep; a blown-up standard
    # transformer "eventually becomes unstable", which the paper counts with the energy loss
    standard_loses = _majority([c < -ENERGY_TOL or not np.isfinite(c)
                                for c in change["transformer"]])
    sp_keeps = _majority([bool(np.isfinite(c) and abs(c) <= ENERGY_TOL)
                          for c in change["sp_transformer"]])
    ok = both_fit and standard_loses and sp_keeps
    return Evidence(
        verdict=verdict_from(ok, decided=b.name == "full"),
        criterion=f"majority of seeds: relative q1 RMS error on (2, 20] < {FIT_TOL} for both; standard "
                  f"transformer's mean energy over the last tenth of [2, {b.t_rollout:g}] is > "
                  f"{ENERGY_TOL:.0%} below the first tenth (or the rollout is not finite); the SP "
                  f"transformer's changes by at most {ENERGY_TOL:.0%} (undecided at the quick budget); "
                  f"decided at {b.epochs['transformer']} of Table 3's 2000 epochs",
        numbers={"training": {n: _training(res[n]) for n in res}, "t_rollout": b.t_rollout,
                 "q1_rel_error_2_20": err20, "energy_relative_change": change,
                 "energy_slope": {n: [d["slope"] for d in drift[n]] for n in res},
                 "blowup_time": blow, "reference_energy": float(oscillator.energy(ref[0], oscillator.K_TEST)),
                 "both_fit_to_20": both_fit, "standard_loses_energy": standard_loses,
                 "sp_keeps_energy_level": sp_keeps, "departures_from_paper": DEPARTURES_7CD},
        counterexample=None if ok else {"k": oscillator.K_TEST, "seeds": _training(res["transformer"])["seeds"],
                                        "q1_rel_error_2_20": err20, "energy_relative_change": change})


@claim("sp_transformer:sp-transformer-structure", locator="end of §4; §5",
       statement="the trained structure-preserving transformer preserves phase-space volume but is not "
                 "symplectic (measured along its k = 3.5 rollout)",
       method="property", expect="holds-with-correction")
def sp_structure(budget: str) -> Evidence:
    res, _, b = _experiment(budget, ("sp_transformer",))
    return _sp_structure(res["sp_transformer"], b)


def _sp_structure(records: list[dict], b: sp_train.Budget) -> Evidence:
    n_windows = b.structure_windows
    st = {k: [v for r in records for v in r["structure"][k]] for k in records[0]["structure"]}
    logdet, defect = st["core_log_det"], st["core_relative_defect"]
    attention_logdet, feedforward_logdet = st["attention_log_det"], st["feedforward_log_det"]
    feedforward_defect = st["feedforward_defect"]
    # 100×100 Jacobians with entries O(1-10): log|det| and DᵀJD are exact to ~1e-12; 1e-8 is far
    # above rounding and far below the O(0.1-1) values a non-preserving map shows.
    tol = 1e-8
    logdet, attention_logdet = np.asarray(logdet), np.asarray(attention_logdet)
    volume_preserved = float(np.max(np.abs(logdet))) < tol
    not_symplectic = float(np.min(defect)) > tol
    chain = float(np.max(np.abs(logdet - attention_logdet - np.asarray(feedforward_logdet))))
    corrected_ok = (not_symplectic and max(np.abs(feedforward_logdet)) < tol
                    and max(feedforward_defect) < tol and chain < 1e-6
                    and float(np.median(np.abs(attention_logdet))) > tol)
    worst = int(np.argmax(np.abs(logdet)))
    return Evidence(
        verdict=verdict_from(volume_preserved and not_symplectic, corrected_ok),
        criterion=f"printed: max |log|det D core| < {tol:g} and min ‖DᵀJD − J‖_F/‖J‖_F > {tol:g} over "
                  "windows of the trained rollouts (all seeds); correction: the SympNet feed-forward "
                  f"parts have |log det| and defect < {tol:g}, the attention layers carry the whole "
                  "volume change (chain rule to 1e-6) and it is not zero",
        numbers={"training": _training(records), "n_windows_per_seed": n_windows,
                 "core_log_det_median": float(np.median(logdet)),
                 "core_log_det_max_abs": float(np.max(np.abs(logdet))),
                 "core_log_det_quantiles_10_50_90": np.quantile(logdet, [0.1, 0.5, 0.9]).tolist(),
                 "core_relative_defect_median": float(np.median(defect)),
                 "core_relative_defect_min": float(np.min(defect)),
                 "attention_log_det_median_abs": float(np.median(np.abs(attention_logdet))),
                 "feedforward_log_det_max_abs": float(np.max(np.abs(feedforward_logdet))),
                 "feedforward_defect_max": float(np.max(feedforward_defect)),
                 "chain_rule_residual": chain},
        counterexample=None if volume_preserved else {
            "window_index": worst, "log_det": float(logdet[worst]),
            "attention_log_det": float(attention_logdet[worst])},
        correction="the SympNet feed-forward layers are symplectic (hence volume preserving) along the "
                   "rollout, but the trained Cayley attention Z ↦ ZΛ(Z) changes volume (its A is not "
                   "skew; see sp_transformer:eq-21-volume), so the network is neither symplectic nor "
                   "volume preserving")

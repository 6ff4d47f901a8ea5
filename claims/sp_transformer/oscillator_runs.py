"""Seed 001 §5: the committed oscillator runs, the per-seed quantities and the statistics the
experiment claims (`claims.sp_transformer.experiment`, `claims.sp_transformer.comparison`) decide
with.

**The setting that decides.** Table 2 prints "upscale dimension 20" and §5 "M = 2N = 40", "twice
the upscale dimension": the one reading under which the paper agrees with itself is N = 20, the
networks working in R^{2N} = R^40 with gradient-layer width M = 40
(`sp_transformer:table-2-dimensions`). A working dimension 2N = 20 contradicts the printed
M = 2N = 40, so it is not an admissible reading of the text (docs/architecture.md, R1). At the full
budget the claims therefore decide on the runs of `particles.sp_train`'s budget `n40`
(Table2(upscale=40, width=40), Table 3's recipe, seeds 0-4); the earlier 2N = 20 runs (budget
`full`) and their 8000-epoch continuation (budget `long`, ResNet and SympNet) are *sensitivity
rows*: evaluated with the same components and reported in the evidence (`sensitivity`), never a
reading and never the verdict. The quick budget trains a few epochs in memory and cannot decide.

Per-seed quantities, fixed before looking at the numbers (fig. 7 shows curves, not numbers):

- *fit* on (2, t1]: relative q1 error RMS(q1 − q1_ref)/RMS(q1_ref) < 0.5 (`_fit`; the networks see
  no k, so the paper only asks for a "reasonable fit"); a blown-up rollout counts as error 10;
- *blow-up*: the rollout leaves the box 2 · max‖z_ref‖_∞ (twice the largest coordinate of the
  implicit-midpoint reference on [0, 600]): log10(max‖ẑ‖∞ / box) > 0 on the window;
- *energy change*: mean of H(ẑ(t); 3.5) over the last tenth of [2, 600] relative to the first
  tenth; it *loses energy* below −10%, *keeps its energy level* within ±10%; a rollout that is not
  finite counts as −100% (it "becomes unstable", which the paper counts with the energy loss).

Statistics (issue 12): each component of a claim is a mean over n ≥ 3 seeds with a t-based 95% CI
(a comparison between two networks is paired by seed). A component *holds* when its 95% CI lies on
the claimed side of the threshold; it *fails* when the claimed effect is rejected at family-wise
level 0.05 (Bonferroni over the m components of the claim): the one-sided (1 − 0.05/m) confidence
bound facing the threshold lies on the other side (the reported `ci_family` is the two-sided
interval mean ± t_{1−0.05/m}·SE whose ends are these bounds); otherwise it is *inconclusive* and
carries the n at which it would be decided if mean and SD stayed as measured.
Every component reports the seed SD and the minimal detectable effect (two-sided 5%, power 80%) at
its n. A claim holds when all components hold (an intersection-union test, no correction needed),
fails when one fails, and is inconclusive otherwise. The verdict is decided only when the rollouts
saved at 80% and 90% of the epochs do not give the opposite decided verdict (the decision does not
flip over the last fifth of training; an underpowered milestone is reported, not held against it);
the loss-curve convergence of every run is reported beside it.
"""
from __future__ import annotations

import math
from dataclasses import asdict

import numpy as np
from scipy import stats

from claims import Evidence, decide, settings
from particles import oscillator, sp_rollouts, sp_train
from particles.sp_networks import Table3

BLOWUP_FACTOR = 2.0
FIT_TOL = 0.5
ENERGY_TOL = 0.10
FIT_ERROR_BLOWN_UP = 10.0       # the q1 error of a blown-up rollout (no fit at all)
ENERGY_UNSTABLE = -1.0          # the energy change of a rollout that is not finite (H >= 0: -100%)
ALPHA, POWER = 0.05, 0.80
MIN_SEEDS = 3
STABLE_FROM = (0.8, 0.9)        # fractions of the epochs whose rollouts may not contradict the verdict

# The sp_train budget each claims budget decides on (module docstring): N = 20 at the full budget.
DECIDING = {"full": "n40"}
SETTING = {"n40": "N = 20: 2N = 40, M = 2N = 40 (Table 2's 20 read as N, the setting the text fixes)",
           "full": "2N = 20, M = 40 (Table 2's 20 read as the working dimension, against the printed "
                   "M = 2N = 40), 2000 epochs",
           "long": "2N = 20, M = 40, ResNet and SympNet continued to 8000 epochs (seeds 0-2)",
           "quick": "quick: a few epochs in memory, cannot decide"}


def deciding_budget(budget: str) -> str:
    """The sp_train budget whose runs decide a claim run at the claims budget `budget`."""
    return DECIDING.get(budget, budget)


# Where our networks and training depart from §5 (docs/sp_transformer_experiment.md, "Could the
# verdicts be artifacts?"), carried in the evidence of the experiment claims.
_COMMON = {
    "loss": "mean squared one-step error (not stated in the paper)",
    "k_grid": "k = numpy.linspace(0, 4, 40): 3.5 is not a training value here; on the step-0.1 "
              "grids the text also allows it is (sp_transformer:k-3.5-training-set)",
    "validation": "one-step loss on the k = 3.5 trajectory on [0, 100] (the paper has none)",
    "table2_dimension": "decided at N = 20 (2N = 40, M = 2N = 40: budget n40), the reading under which "
                        "the paper agrees with itself (sp_transformer:table-2-dimensions); the earlier "
                        "2N = 20 runs (M = 40 = 4N, budget full) are a sensitivity row. Parameter counts "
                        "ResNet/SympNet/transformer/SP transformer 2004/1840/13244/6800 at 2N = 40, "
                        "604/1000/3424/2760 at 2N = 20",
    "warm_up": "the five implicit-midpoint warm-up states at t = 0, ..., 1.6 (the text also allows "
               "t = 0.4, ..., 2.0)",
}
DEPARTURES_7AB = {
    **_COMMON,
    "resnet_upscaling": "tanh(Ax + b) as printed in §5; with it the output is bounded by "
                        "2·‖W_down‖_∞ + |c| for every weight value, so no amount of training makes "
                        "the fig. 6 ResNet diverge to infinity, only leave the physical box",
    "resnet_downscaling": "linear (the text does not state it)",
}
DEPARTURES_7CD = {
    **_COMMON,
    "standard_attention": "multi-head per [34]: 4 heads of 2N/4 = 10 dimensions, per-head Q, K, V "
                          "projections, 1/√d_h scaling, no output projection; eq. (6) (single head) "
                          "has no V and no scaling",
    "feedforward": "one tanh layer with add connection (fig. 2 and the ResNet footnote)",
    "cayley": "standard Cayley transform (I − Y)(I + Y)⁻¹, not eq. (20)'s ½(I − Y)(I + Y)⁻¹",
}


# ------------------------------------------------------------------ statistics over seeds


def _t(q: float, df: int) -> float:
    return float(stats.t.ppf(q, df))


def seed_test(values, side: str, bound, family: int = 1) -> dict:
    """One component of a claim: the mean of per-seed `values` against the claimed region
    (`side` '<' or '>' a threshold `bound`, or 'within' an interval `bound`), by the rule of the
    module docstring. Returns the numbers and the component's verdict."""
    v = np.asarray(values, dtype=np.float64)
    if side not in ("<", ">", "within"):
        raise ValueError(f"side must be '<', '>' or 'within', got {side!r}")
    lo, hi = (-math.inf, bound) if side == "<" else (bound, math.inf) if side == ">" else bound
    n = v.size
    out = {"n_seeds": n, "claimed": f"mean {side} {bound}", "values": v.tolist()}
    if n < MIN_SEEDS or not np.all(np.isfinite(v)):
        return {**out, "verdict": "inconclusive",
                "reason": f"{n} finite seeds, {MIN_SEEDS} needed" if n < MIN_SEEDS else "non-finite"}
    mean, sd = float(v.mean()), float(v.std(ddof=1))
    se = sd / math.sqrt(n)
    q_hold, q_fail = 1 - ALPHA / 2, 1 - ALPHA / family   # two-sided 95%; one-sided α/m
    ci = (mean - _t(q_hold, n - 1) * se, mean + _t(q_hold, n - 1) * se)
    ci_fail = (mean - _t(q_fail, n - 1) * se, mean + _t(q_fail, n - 1) * se)
    holds = lo < ci[0] and ci[1] < hi
    fails = ci_fail[0] >= hi or ci_fail[1] <= lo
    out.update(mean=mean, sd=sd, ci95=list(ci), ci_family=list(ci_fail), family_size=family,
               mde=(_t(q_hold, n - 1) + _t(POWER, n - 1)) * se,
               verdict="holds" if holds else "fails" if fails else "inconclusive")
    if out["verdict"] == "inconclusive":
        # the n at which the CI would clear the nearest threshold if mean and SD stayed as measured
        inside = lo <= mean <= hi
        gap, q = (min(mean - lo, hi - mean), q_hold) if inside else (max(lo - mean, mean - hi), q_fail)
        out["n_to_decide"] = next((m for m in range(n + 1, 10_001)
                                   if _t(q, m - 1) * sd / math.sqrt(m) < gap), None)
    return out


def combine(components: dict) -> str:
    """A claim is the conjunction of its components: fails if one fails, holds if all hold."""
    verdicts = [c["verdict"] for c in components.values()]
    return "fails" if "fails" in verdicts else "holds" if all(v == "holds" for v in verdicts) \
        else "inconclusive"


def reading_verdict(components: dict, keys, decided: bool = True) -> bool | None:
    """A reading made of the components `keys`: True when they all hold, False when one fails,
    None when undecided (or when the claim is not `decided`)."""
    if not decided or not components:
        return None
    return {"holds": True, "fails": False}.get(combine({k: components[k] for k in keys}))


# ------------------------------------------------------------------ per-seed quantities


def _value(x, missing: float) -> float:
    return missing if x is None or not math.isfinite(x) else float(x)


def _box(t_end: float) -> float:
    return BLOWUP_FACTOR * float(np.max(np.abs(sp_train.reference(t_end))))


def _blowup_times(recs: dict, t_end: float) -> dict:
    """Per network, the first time each seed's rollout leaves the box (inf: never)."""
    ref = sp_train.reference(t_end)
    return {n: [sp_rollouts.blowup_time(r["rollout"], ref, BLOWUP_FACTOR) for r in recs[n]] for n in recs}


def _log_peak(summary: dict, window: str, box: float) -> float:
    """log10 of max‖ẑ‖∞ on the window in units of the box (> 0: the rollout left the box)."""
    return math.log10(_value(summary["max_abs"][window], sp_rollouts.BLOWUP_GUARD) / box)


def _fit(summary: dict, window: str) -> float:
    """The relative q1 error on a window of fig. 7 ('2-10', '2-18', '2-20'), 10 after a blow-up."""
    return _value(summary["q1_error"][window], FIT_ERROR_BLOWN_UP)


def _energy(summary: dict) -> float:
    return _value(summary["energy_relative_change"], ENERGY_UNSTABLE)


def fit_on(rec: dict, t0: float, t1: float, t_end: float) -> float:
    """`_fit`'s measure on any window (t0, t1] of a run's final rollout (not saved at milestones)."""
    return _value(sp_rollouts.q1_error(rec["rollout"], sp_train.reference(t_end), t0, t1),
                  FIT_ERROR_BLOWN_UP)


# ------------------------------------------------------------------ committed runs


_RECOMPUTED: set = set()  # (budget, network) retrained in this process under `settings.recompute`


def _experiment(budget: str, networks: tuple[str, ...]) -> tuple[sp_train.Collected, sp_train.Budget]:
    """The committed runs of `networks` at the sp_train budget (never trained here), or, under
    `python -m claims/figures --recompute`, retrained first (once per process, budget and network)."""
    b = sp_train.get_budget(budget)
    todo = tuple(n for n in networks if (b.name, n) not in _RECOMPUTED)
    if settings.recompute and b.committed and todo:
        sp_train.fill(b, todo, recompute=True, progress=True)
        _RECOMPUTED.update((b.name, n) for n in todo)
    return sp_train.collect(b, networks), b


def _summaries(rec: dict, t_end: float) -> dict:
    """epoch -> rollout diagnostics: the final rollout (recomputed from the stored states) and the
    milestones saved during training."""
    out = {m["epoch"]: m for m in rec["milestones"]}
    out[rec["epochs"]] = sp_train.rollout_summary(rec["rollout"], t_end)
    return out


def _training(recs: list[dict]) -> dict:
    """Epochs, seeds, final train/validation loss and the convergence of every run's loss curve."""
    conv = [sp_rollouts.convergence(r["losses"]) for r in recs]
    return {"epochs": sorted({r["epochs"] for r in recs}), "seeds": [r["seed"] for r in recs],
            "final_loss": [float(r["losses"][-1]) for r in recs],
            "final_val_loss": [float(r["val_losses"][-1]) for r in recs],
            "last_10pct_relative_drop": [c["relative_drop"] for c in conv],
            "converged": [c["converged"] for c in conv]}
    # (seconds per epoch and commits are the runs' provenance, in their committed files: a timing
    # on the page would differ between two runs of the same check)


def _evaluate(got: sp_train.Collected, b: sp_train.Budget, networks, components) -> dict:
    """Evaluate `components(summaries)` (component -> (values, side, bound)) on the final rollouts of
    the seeds every network has, and the claim's verdict at the milestones nearest 80%/90% of the
    epochs."""
    recs = got.records
    seeds = sorted(set.intersection(*({r["seed"] for r in recs[n]} for n in networks))) \
        if all(recs[n] for n in networks) else []
    by_seed = {n: {r["seed"]: r for r in recs[n]} for n in networks}
    summ = {n: {s: _summaries(by_seed[n][s], b.t_rollout) for s in seeds} for n in networks}
    n_epochs = max(b.epochs[n] for n in networks)

    def at(epoch: int) -> dict:
        specs = components({n: [summ[n][s][epoch] for s in seeds if epoch in summ[n][s]]
                            for n in networks})
        return {k: seed_test(vals, side, bound, family=len(specs)) for k, (vals, side, bound) in specs.items()}

    final = at(n_epochs) if seeds else {}
    verdict = combine(final) if final else "inconclusive"
    earlier = sorted({e for n in networks for s in seeds for e in summ[n][s]} - {n_epochs})
    checks = sorted({min(earlier, key=lambda e: abs(e - f * n_epochs)) for f in STABLE_FROM}) \
        if earlier else []
    history = {e: combine(at(e)) for e in checks}
    return {"seeds": seeds, "components": final, "verdict": verdict,
            "verdict_at_epochs": {**history, n_epochs: verdict},
            "stable": bool(checks) and not any(v != verdict and v != "inconclusive"
                                                for v in history.values())}


def _sensitivity_row(name: str, networks, components, readings=None, extra=None) -> dict:
    """One sensitivity row: the runs of sp_train budget `name`, evaluated like the deciding ones
    (components, their verdict, the milestones, the training, what `readings(components)` gives),
    or the runs it lacks."""
    b = sp_train.get_budget(name)
    got = sp_train.collect(b, networks)
    row = {"setting": SETTING.get(name, name), "budget": name, "table2": asdict(b.table2),
           "epochs": {n: b.epochs[n] for n in networks}}
    if not got.complete:
        return {**row, "runs_not_usable": got.problems()}
    e = _evaluate(got, b, networks, components)
    comp = e["components"]
    rd = readings(comp, e["stable"]) if readings and comp else None
    # the claim's verdict on this row: by the readings' rule when the claim has readings (some
    # holds: holds; all fail: fails), else the conjunction of the components
    verdict = e["verdict"] if rd is None else "holds" if True in rd.values() else \
        "fails" if all(v is False for v in rd.values()) else "inconclusive"
    return {**row, "n_seeds": len(e["seeds"]), "seeds": e["seeds"], "verdict": verdict,
            "components_verdict": e["verdict"], "stable": e["stable"],
            "components_verdict_at_epochs": e["verdict_at_epochs"],
            "components": {k: {x: c.get(x) for x in ("verdict", "mean", "ci95", "values")}
                           for k, c in comp.items()},
            **({"readings": rd} if rd is not None else {}),
            **(extra(got.records) if extra and e["seeds"] else {}),
            "training": {n: _training(got.records[n]) for n in networks}}


def _decide_experiment(budget: str, networks: tuple[str, ...], components, departures: dict,
                       extra=None, readings=None, sensitivity: tuple[str, ...] = ()) -> Evidence:
    """Shared by the experiment claims: collect the runs of the deciding setting
    (`deciding_budget`), evaluate the components (`_evaluate`) and turn them into Evidence; at the
    full budget each sensitivity row (the sp_train budgets `sensitivity`) is evaluated the same way
    and reported, never used for the verdict. `readings(components, decided)` -> {text: bool |
    None} is reported per sensitivity row."""
    setting = deciding_budget(budget)
    got, b = _experiment(setting, networks)
    e = _evaluate(got, b, networks, components)
    seeds, final, verdict = e["seeds"], e["components"], e["verdict"]
    decided = b.committed and got.complete and e["stable"]
    numbers = {"decided_on": {"budget": b.name, "setting": SETTING.get(b.name, b.name),
                              "table2": asdict(b.table2)},
               "n_seeds": len(seeds), "seeds": seeds, "components": final, "decidable": decided,
               "verdict_at_epochs": e["verdict_at_epochs"],
               "training": {n: _training(got.records[n]) for n in networks if got.records[n]},
               "paper_epochs": Table3.n_epochs, "departures_from_paper": departures,
               **(extra(got.records) if extra and seeds else {})}
    if not got.complete:
        numbers["runs_not_usable"] = got.problems()
        numbers["waiting_for"] = got.problems()["to_train"]
    if budget in DECIDING and sensitivity:
        numbers["sensitivity"] = {name: _sensitivity_row(name, networks, components, readings, extra)
                                  for name in sensitivity}
    counter = None
    if verdict == "fails":
        counter = {"k": oscillator.K_TEST, "seeds": seeds, "setting": b.name,
                   "failed_components": {k: {x: c[x] for x in ("claimed", "mean", "ci_family", "values")}
                                         for k, c in final.items() if c["verdict"] == "fails"}}
    return decide(verdict == "holds", decided=decided and verdict != "inconclusive",
                  criterion=_criterion(b, got, e["stable"], networks),
                  numbers=numbers, counterexample=counter if decided else None)


def _criterion(b, got, stable: bool, networks) -> str:
    why = ("" if b.committed else f" Undecided at the {b.name} budget (a few epochs, in memory).")
    if b.committed and not got.complete:
        why = (f" Undecided until the {b.name} runs are committed: {got.problems()['to_train']} "
               f"trains them.")
    elif b.committed and not stable:
        why = " Undecided: a milestone at 80%/90% of the epochs gives the opposite verdict (train longer)."
    where = (f"decided on the runs at {SETTING[b.name]} (sp_train budget {b.name}); the 2N = 20 runs "
             f"are sensitivity rows, not readings (R1). " if b.name in DECIDING.values() else "")
    return (f"{where}per component, mean over ≥ {MIN_SEEDS} seeds with a 95% t-interval (paired by "
            f"seed for comparisons): holds when the CI lies on the claimed side; fails when the "
            f"one-sided (1 − {ALPHA}/m) bound (Bonferroni over the m components) lies on the other "
            f"side; the claim holds when "
            f"every component holds and fails when one fails; decided only when the rollouts at "
            f"{' and '.join(f'{f:.0%}' for f in STABLE_FROM)} of the epochs give no opposite decided "
            f"verdict; "
            f"trained {', '.join(f'{n} {b.epochs[n]}' for n in networks)} epochs (Table 3: "
            f"{Table3.n_epochs}).{why}")


def recipe_flatness(networks, budgets=("full", "long")) -> dict:
    """Issue 25 item 4: does each network's training curve meet the flatness rule (the last 10% of
    the epochs lower the training loss by < 2%, `sp_rollouts.convergence`), per seed, in the
    sp_train `budgets` (a budget that continues another, e.g. long after full, listed after it)?
    And can the printed recipe (Adam at a constant eta = 1e-3, Table 3) meet it at any length? A
    loss decaying as a power law L(e) ~ e^(-a) lowers itself over the last fraction f of any run by
    1 - (1 - f)^a, whatever the length: the exponent a is fitted (least squares in log-log) on the
    second half of the longest committed curve of each network and seed."""
    out = {"rule": f"last {sp_rollouts.CONVERGED_TAIL:.0%} of the epochs lower the training loss by "
                   f"< {sp_rollouts.CONVERGED_DROP:.0%}", "budgets": list(budgets)}
    for budget in budgets:
        got = sp_train.collect(sp_train.get_budget(budget), networks)
        for n in networks:
            for r in got.records.get(n, []):
                losses = np.asarray(r["losses"], dtype=np.float64)
                conv = sp_rollouts.convergence(losses)
                e = np.arange(1, len(losses) + 1)
                half = slice(len(losses) // 2, None)
                a = -float(np.polyfit(np.log(e[half]), np.log(losses[half]), 1)[0])
                row = out.setdefault(n, {}).setdefault(r["seed"], {})
                row[f"drop_at_{len(losses)}"] = conv["relative_drop"]
                row["power_law_exponent"] = a  # the longest run seen last
                row["drop_at_any_length"] = 1 - (1 - sp_rollouts.CONVERGED_TAIL) ** a
    for n in networks:
        seeds = out.get(n, {})
        out[n] = {"per_seed": seeds,
                  "meets_rule": all(min(v for k, v in row.items() if k.startswith("drop_at_") and k != "drop_at_any_length")
                                    < sp_rollouts.CONVERGED_DROP for row in seeds.values()) if seeds else False,
                  "recipe_can_meet_rule": bool(seeds) and all(row["drop_at_any_length"] < sp_rollouts.CONVERGED_DROP
                                                              for row in seeds.values())}
    return out


def flatness_rows(networks, budget: str) -> dict:
    """The flatness of the deciding runs, and at the full budget of the 2N = 20 runs beside them."""
    setting = deciding_budget(budget)
    out = recipe_flatness(networks, (setting,)) if sp_train.get_budget(setting).committed \
        else {"rule": "not measured at the quick budget (in-memory runs of a few epochs)"}
    if budget in DECIDING:
        out["sensitivity_2N_20"] = recipe_flatness(networks, ("full", "long"))
    return out

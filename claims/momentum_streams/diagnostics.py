"""Diagnostics of the compact training path: seed 002's flatness (§6.1, App. G) and full-block
Jacobian (§5.3) findings on trained compact models, and the CPU measurement behind the papers'
wall-clock statements (decided by a validated cost model: `claims._wallclock`).

Wall clock. Every model is timed in one process, interleaved round by round against vanilla
(GD + Lie–Trotter = nanoGPT), by `particles.lm.bench.training_throughput`, once: the measurement is
committed (results/bench/bench-training.json, with provenance) and read by the ledger,
re-measured only with `--recompute` (timings are not byte-reproducible): three model
initialisations (seeds 0-2) of every variant, 7 rounds each, CPU time of one thread at compact
scale (4 layers, width 128). The per-round ratios t_variant / t_vanilla are summarized by their
median and its distribution-free 95% confidence interval (`bench.median_interval`). They are the
proxy evidence of the wall-clock claims and the target the cost model is validated against; the
claims themselves are decided at the papers' sizes (`claims._wallclock`).

Flatness and Jacobians. The trained models of the committed `main` study
(`claims.momentum_streams.training`: same runs, same seeds) are probed with
`particles.lm.diagnostics.model_diagnostics`; the numbers are committed
under results/lm/main-diagnostics/ (`python -m particles.lm study diagnose main`) and read here,
never recomputed by the ledger. Each claim quotes its sentences, splits them into sub-assertions
and decides each on the sign of the paired difference over seeds (`claims._stats.sign_first`:
Holm over a reading's sub-assertions, equivalence margin 0.1% of the level), under every reading
of the text; the paper is wrong only if every reading fails. Definitions, numbers and findings:
docs/diagnostics.md.
"""
from __future__ import annotations

import itertools
import json
import math
import tempfile
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from claims import Evidence, claim, decide_readings, jsonable, reading, settings
from claims._committed import THREADS, StaleResult, committed_path, provenance, read_committed, write_committed
from claims import _experiment
from claims._protocol import collected_runs, deviations, get_protocol, run_hardware, scale
from claims._stats import fail_power, sign_first
from particles.lm import bench
from particles.lm import diagnostics as dg
from particles.lm import train as lm_train
from particles.lm.studies import JACOBIAN, get_study
from particles.lm.variants import VARIANTS
from particles.threads import torch_threads

# Seed 002 App. D.6 (OpenWebText, s/step as printed by the training loop; hardware varies).
PAPER_002_S_PER_STEP = {"gd-lt": (3.3, 3.4), "tmm": (2.7, 3.9), "yurii": (2.8, 2.8),
                        "adam": (3.4, 3.4), "muon": (10.0, 16.0)}
# Seed 000 Table 1 (softmax attention, TinyStories, 10000 steps), wall clock in seconds.
PAPER_000_TABLE_1_SECONDS = {"gd-lt": 2409.4, "nesterov-lt": 2835.2,
                             "symp-softmax-plain-euler": 5036.1,
                             "symp-softmax-presymp-euler": 4979.0,
                             "symp-softmax-presymp-expeuler": 5623.4,
                             "symp-softmax-presymp-ab2": 5249.4,
                             "symp-softmax-presymp-etd-ab2": 5798.2}
MOMENTUM_002 = ("tmm", "yurii", "hb", "adam")
SYMPFORMER_SOFTMAX = tuple(k for k in PAPER_000_TABLE_1_SECONDS if k.startswith("symp-"))
NEGLIGIBLE = 1.10  # "negligible" / "comparable" read as at most 10% more time per step
MUON_SLOWER = (3.0, 5.0)  # seed 002 App. D.6: "≈3–5× slower"
# Seed 002's optimizer-inspired variants outside the Muon family (same Newton–Schulz operator).
NON_MUON_002 = (*MOMENTUM_002, "adamw", "rmsprop", "soap", "shampoo")
LARGE_PENALTY = 2.0  # "large penalty" read as at least twice vanilla's step time
WALL_CLOCK_VARIANTS = ("gd-lt", "polyak-lt", "nesterov-lt", "polyak-euler", "nesterov-euler",
                       *NON_MUON_002, "muon", *SYMPFORMER_SOFTMAX)


THROUGHPUT = "bench-training"  # results/bench/bench-training.json: the committed measurement


def throughput_config(budget: str) -> dict:
    """What the measurement depends on (a committed one with another config is stale; at the
    full budget its variants need only include every variant the wall-clock claims compare)."""
    s = bench.bench_settings(budget)
    return jsonable({**s, "config": s["config"].as_dict(), "threads": THREADS,
                     "variants": sorted(VARIANTS) if budget == "full" else list(WALL_CLOCK_VARIANTS)})


@lru_cache(maxsize=1)
def committed_throughput() -> dict:
    """The committed full-budget measurement as it is, never re-measured: every setting as the
    code's, and every variant the wall-clock claims compare measured (a variant added to the
    code since is simply not in it)."""
    path = committed_path(THROUGHPUT)
    wanted = throughput_config("full")
    try:
        got = json.loads(path.read_text(encoding="utf-8"))["config"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise FileNotFoundError(f"committed benchmark {path} is missing or unreadable ({type(exc).__name__}); "
                                f"`python -m figures --only {THROUGHPUT} --recompute` re-measures it") from exc
    missing = sorted(set(WALL_CLOCK_VARIANTS) - set(got.get("variants", ())))
    if missing:
        raise StaleResult(f"committed benchmark {path} lacks the compared variants {missing}; "
                          f"`python -m figures --only {THROUGHPUT} --recompute` re-measures it")
    return read_committed(THROUGHPUT, {**wanted, "variants": got["variants"]})["throughput"]


@lru_cache(maxsize=2)
def throughput(budget: str) -> dict:
    """The benchmark of `bench-training`: every variant at the full budget, read from its
    committed measurement (`committed_throughput`; measured again and rewritten with
    `--recompute`); the variants the wall-clock claims compare, measured, at quick."""
    if budget == "quick":
        return bench.training_throughput(budget, WALL_CLOCK_VARIANTS, threads=THREADS)
    if settings.recompute:
        result = {"config": throughput_config(budget), "provenance": provenance("torch", "numpy"),
                  "throughput": bench.training_throughput(budget, None, threads=THREADS)}
        write_committed(THROUGHPUT, result)
        committed_throughput.cache_clear()
        return result["throughput"]
    return committed_throughput()


# ---------------------------------------------------------------------------------------------
# Trained models: the committed diagnostics of the `main` study at the full budget
# (`particles.lm.studies.Study.diagnose`), seconds-long in-memory runs at the quick budget.

VANILLA = "gd-lt"
MOMENTUM = ("hb", "yurii", "tmm")  # seed 002's momentum-stream variants (§4.1, App. B.3.1)
FLATNESS_VARIANTS = (VANILLA, "adam", "yurii", "tmm")  # seed 002 Figure 3(a)
JACOBIAN_VARIANTS = JACOBIAN  # seed 002 Figure 2: vanilla, AdamFormer and MOMENTUM (the studies' arms)
QUICK_VARIANTS = (VANILLA, "yurii")
LABELS = {VANILLA: "vanilla", "adam": "AdamFormer", "hb": "HBFormer", "yurii": "YuriiFormer", "tmm": "TMMFormer"}
# Seed 002 Figure 3(a): tr(H)/N in units of 1e-3 (OpenWebText, best checkpoints).
PAPER_TRACE_PER_PARAM = {VANILLA: 0.316, "adam": 0.210, "yurii": 0.139, "tmm": 0.142}
STUDY = "main"
REPLICA = "main-replica"  # main's diagnosed arms retrained and diagnosed on one machine
CONFIRM = "main-confirm"  # §5.3's rank-tolerance reading: its confirmatory sample (fresh seeds)
CONFIRM_POWER = _experiment.CONFIRM_POWER  # the confirmatory sample's size (`confirm_power`)
PROTOCOL = "momentum_streams OpenWebText"  # §5.3 "the analyzed OpenWebText variants"; Fig. 3's OWT models
MIN_SEEDS = _experiment.MIN_SEEDS
ALPHA = 0.05  # family-wise level of the Holm-corrected comparisons over seeds (claims._stats)


@lru_cache(maxsize=2)
@torch_threads(1)
def _quick_diagnostics() -> dict[str, dict[int, dict]]:
    """Quick budget: `model_diagnostics` of seconds-long runs (one seed), to exercise the path."""
    out: dict[str, dict[int, dict]] = {}
    for v in QUICK_VARIANTS:
        cfg = replace(lm_train.TrainConfig(**lm_train.QUICK), variant=v, seed=0)
        with tempfile.TemporaryDirectory() as tmp:
            lm_train.train(cfg, tmp)
            model, result = lm_train.load_model(Path(tmp) / f"{lm_train.run_stem(v, 0)}.json")
        out[v] = {0: dg.model_diagnostics(model, result, "quick") | {"val_loss_full": result["val_loss_full"]}}
    return out


def diagnostics(budget: str, variants) -> tuple[dict[str, dict[int, dict]], list[int], dict]:
    """({variant: {seed: diagnostics}}, paired seeds, provenance numbers) at `budget`."""
    if budget == "quick":
        got = _quick_diagnostics()
        return {v: got[v] for v in variants if v in got}, [0], {"source": "quick in-memory runs"}
    study = get_study(STUDY)
    if settings.recompute:  # `--recompute`: retrain the runs, then diagnose the new weights
        study.run(variants, recompute=True)
        study.diagnose(variants, recompute=True)
    got = study.collect_diagnostics(variants)
    seeds = got.paired_seeds(variants)
    gate = _experiment.learned(STUDY)
    return got.results, seeds, {"study": STUDY, "missing_runs": got.missing, "invalid_runs": got.invalid,
                                **{k: gate.get(k) for k in ("corpus_sha256", "unigram_entropy",
                                                            "baseline_val_loss", "learned")}}


def _summary(values: list[float]) -> dict:
    v = np.asarray(values, float)
    return {"mean": float(v.mean()), "std": float(v.std(ddof=1)) if v.size > 1 else None,
            "values": v.tolist()}


def _lower(x: list[float], y: list[float], kind: str = "less", loss_level: float | None = None) -> tuple:
    """The `sign_first` sub-assertion 'x below y' ("less"; "not-worse": not above by more than the
    margin). Its margin is relative to the pair's mean level; a quantity that can be negative (log
    gains) gets the margin at `loss_level`, the mean validation loss of the two arms (its own level
    would make the margin meaningless)."""
    return (list(x), list(y), kind) + ((loss_level,) if loss_level is not None else ())


def study_context(variants) -> dict:
    """What every diagnostics claim states beside its verdict, at both budgets (committed runs):
    the proxy scale and deviations of the `main` study against seed 002's OpenWebText protocol,
    and the flatness of every arm's learning curve (`claims._experiment.flatness`)."""
    study = get_study(STUDY)
    prot = get_protocol(PROTOCOL)
    rows = {LABELS[v]: v for v in variants}
    got = study.collect(list(variants))
    hardware = run_hardware(collected_runs(got))
    return {"scale": scale(study.config, prot, hardware=hardware),
            "deviations": deviations(study.config, prot, hardware=hardware),
            "flatness": _experiment.flatness(got, rows)}


def _decided(budget: str, seeds: list[int], prov: dict) -> str | None:
    """Why the committed diagnostics cannot decide (None when they can)."""
    if budget == "quick":
        return "the quick budget (1 seed, toy runs) decides nothing"
    if len(seeds) < MIN_SEEDS:
        return f"only {len(seeds)} paired seeds committed (need {MIN_SEEDS})"
    if not prov.get("learned"):
        return "the study's baseline has not learned (claims._experiment.learned)"
    return None


def _readings_evidence(readings: dict[str, tuple[dict, dict]], why: str | None, criterion: str,
                       numbers: dict) -> Evidence:
    """Decide each reading {text: (sign_first sub-assertions, {other sub-assertion: status})}:
    it holds when every sub-assertion holds, fails when one fails (`claims.decide_readings` then
    combines the readings); nothing is decided when `why` says the data cannot."""
    rds, subs_out = [], {}
    for text, (subs, others) in readings.items():
        rows = sign_first(subs)[1] if subs and len(numbers["seeds"]) > 1 else {}
        subs_out[text] = rows
        statuses = {k: r["status"] for k, r in rows.items()} | others
        held = [s == "holds" for s in statuses.values()]
        verdict = False if "fails" in statuses.values() else True if held and all(held) else None
        rds.append(reading(text, None if why else verdict, statuses=statuses))
    numbers = dict(numbers, sub_assertions=subs_out)
    if not why:
        numbers |= _experiment.undecided_power(subs_out)
    failing = {f"{t}: {k}": r for t, rows in subs_out.items() for k, r in rows.items() if r["status"] == "fails"}
    return decide_readings(rds, criterion=criterion + (f"; here: {why}" if why else ""), numbers=numbers,
                           counterexample=None if why else failing or None,
                           ambiguity="the readings disagree: " + "; ".join(
                               f"{r['reading']} -> {r['verdict']}" for r in rds))


SIGN_RULE = ("each sub-assertion decided on the sign of the paired difference over the committed seeds "
             "(claims._stats.sign_first: Holm over a reading's sub-assertions at family-wise level 0.05; "
             "'no detectable difference' when the (1 - 2 x level) CI, the 90% CI at 0.05, lies inside +-0.1% of the level); a reading "
             "holds when every sub-assertion holds, fails when one fails; the paper is wrong only if "
             f"every reading fails. Needs >= {MIN_SEEDS} paired seeds and a learned baseline")


# ---------------------------------------------------------------------------------------------
# seed 002 §6.1: flatness of the trained minima

FLAT_KEYS = ("trace_per_param", "trace_per_vanilla_param", "trace", "lambda_max", "curve_range")
FLATTER_BY = 2.0  # "roughly 2.2x flatter": every value a reader would call roughly 2.2 is above 2


def flatness_study(budget: str) -> dict:
    """App. G diagnostics of every (variant, paired seed): {variant: [per-seed rows]}."""
    results, seeds, _ = diagnostics(budget, FLATNESS_VARIANTS if budget == "full" else QUICK_VARIANTS)
    out = {v: [dict(results[v][s]["flatness"], seed=s, val_loss_full=results[v][s]["val_loss_full"])
               for s in seeds] for v in results if all(s in results[v] for s in seeds)}
    for rows in out.values():  # tr(H) over the vanilla parameter count: removes the 1/N credit
        for row in rows:       # that a variant's auxiliary embedding tables give tr(H)/N
            row["trace_per_vanilla_param"] = row["trace"] / out[VANILLA][0]["n_params"]
    return out


@claim("momentum_streams:sec-6.1-flatness", locator="§6.1, Figure 3(a), Appendix G",
       statement="the vanilla transformer sits in the sharpest minimum; AdamFormer is flatter, and the "
                 "momentum variants (YuriiFormer, TMMFormer) flatter still, by App. G's tr(H)/N (proxy: "
                 "the main study's trained models, 4 layers, width 64, byte-level Shakespeare)",
       method="experiment", expect="inconclusive", figures=["flatness"],
       # quoted verbatim: the seed's non-breaking and thin spaces are kept
       paper_text=r"Figure 3(a) reports the parameter-normalized Hessian trace $\operatorname{tr}(H)/N$ "
                  r"($\times 10^{-3}$). The vanilla transformer sits in the sharpest minimum ($0.316$). "
                  r"AdamFormer already flattens it substantially ($0.210$), and the momentum variants reach "
                  r"the flattest minima by a wide margin—$0.139$ for YuriiFormer and $0.142$ for TMMFormer, "
                  r"roughly $2.2\times$ flatter than vanilla and about a third lower than AdamFormer. [...] "
                  r"Lower $\lambda_{\max}$, lower $\operatorname{tr}(H)/N$, and a smaller curve range each "
                  r"indicate a flatter loss landscape.")
def flatness_claim(budget: str) -> Evidence:
    """Readings: (1) Figure 3(a)'s ordering on tr(H)/N, on sign: vanilla above AdamFormer,
    YuriiFormer and TMMFormer, both momentum variants below AdamFormer; (2) the same on each of the
    three other diagnostics App. G says indicate flatness (λ_max, tr(H), loss range); (3) reading
    1 with the size the sentence states in words: vanilla's tr(H)/N above 2x each momentum
    variant's ('roughly 2.2x flatter')."""
    variants = FLATNESS_VARIANTS if budget == "full" else QUICK_VARIANTS
    _, seeds, prov = diagnostics(budget, variants)
    study = flatness_study(budget)
    per = {v: {k: [r[k] for r in rows] for k in FLAT_KEYS} for v, rows in study.items()}
    summary = {v: {k: _summary([r[k] for r in rows]) for k in FLAT_KEYS + ("val_loss_full",)}
               for v, rows in study.items()}
    momentum = [v for v in ("yurii", "tmm") if v in per]
    others = [v for v in ("adam", *momentum) if v in per]

    def ordering(key: str) -> dict:
        subs = {f"{LABELS[v]} {key} < vanilla's": _lower(per[v][key], per[VANILLA][key]) for v in others}
        if "adam" in per:
            subs |= {f"{LABELS[m]} {key} < AdamFormer's": _lower(per[m][key], per["adam"][key]) for m in momentum}
        return subs

    readings = {"Figure 3(a): the ordering on tr(H)/N": (ordering("trace_per_param"), {}),
                "every App. G diagnostic: the ordering on lambda_max, tr(H) and the loss range":
                    ({k: sub for key in ("lambda_max", "trace", "curve_range") for k, sub in ordering(key).items()}, {}),
                f"Figure 3(a) with its stated size: vanilla's tr(H)/N above {FLATTER_BY}x each momentum variant's":
                    (ordering("trace_per_param") | {f"{FLATTER_BY} x {LABELS[m]} tr(H)/N < vanilla's": _lower(
                        [FLATTER_BY * x for x in per[m]["trace_per_param"]], per[VANILLA]["trace_per_param"])
                        for m in momentum}, {})}
    numbers = {"stats": summary, "paper_trace_per_param_1e-3": PAPER_TRACE_PER_PARAM,
               "trace_per_vanilla_param": {v: summary[v]["trace_per_vanilla_param"] for v in summary},
               "settings": dg.FLATNESS_SETTINGS[budget], "n_seeds": len(seeds), "seeds": seeds, **prov,
               **study_context(variants), "diagnostic_deviations": FLATNESS_DEVIATIONS}
    return _readings_evidence(readings, _decided(budget, seeds, prov), criterion=(
        "tr(H)/N and the other App. G estimators on the shared validation batches of the committed "
        "`main` study, per seed; " + SIGN_RULE), numbers=numbers)


FLATNESS_DEVIATIONS = [
    {"setting": "checkpoint", "paper": "best validation checkpoint (§6.1)", "ours": "the final model (the "
     "schedule decays to the last step)"},
    {"setting": "validation batches B", "paper": "not stated", "ours": dg.FLATNESS_SETTINGS["full"]["batches"]},
    {"setting": "tr(H)/N normalisation", "paper": "N = the variant's own parameters (TMMFormer 163.8M vs 124.4M)",
     "ours": "the same; tr(H)/N_vanilla reported beside it (removes the auxiliary tables' 1/N credit)"},
]


# ---------------------------------------------------------------------------------------------
# seed 002 §5.3: full-block Jacobian diagnostic


def jacobian_study(budget: str) -> dict:
    """Per (variant, paired seed): 𝒫, layerwise log σ_min^eff, stable rank and spread (mean over
    the validation sequences), with the run's full-split validation loss."""
    results, seeds, _ = diagnostics(budget, JACOBIAN_VARIANTS if budget == "full" else QUICK_VARIANTS)
    return _jacobian_rows(results, seeds)


def _jacobian_rows(results: dict[str, dict[int, dict]], seeds: list[int]) -> dict:
    """{variant: [its Jacobian summary at each of `seeds`, with seed and full-split loss]} for the
    variants diagnosed at every one of `seeds`."""
    return {v: [dict(results[v][s]["jacobian"], seed=s, val_loss_full=results[v][s]["val_loss_full"])
                for s in seeds] for v in results if all(s in results[v] for s in seeds)}


def _spearman(x: list[float], y: list[float]) -> float:
    rx, ry = np.argsort(np.argsort(x)), np.argsort(np.argsort(y))
    return float(np.corrcoef(rx, ry)[0, 1])


def spearman_test(x: list[float], y: list[float]) -> dict:
    """Spearman's ρ with exact one-sided permutation p-values (all n! rank orders; n ≤ 8):
    p_greater = P(ρ_perm ≥ ρ), p_less = P(ρ_perm ≤ ρ) under independence (ties broken by order)."""
    n = len(x)
    if n != len(y) or not 3 <= n <= 8:
        raise ValueError(f"x and y must have equal length in [3, 8], got {len(x)} and {len(y)}")
    rho = _spearman(x, y)
    rx = np.argsort(np.argsort(x))
    perms = np.array(list(itertools.permutations(range(n))), dtype=float)
    rhos = np.array([np.corrcoef(rx, p)[0, 1] for p in perms])
    eps = 1e-12  # ρ takes values on a grid of spacing 6/(n³ − n); compare with a rounding margin
    return {"rho": rho, "n": n, "p_greater": float(np.mean(rhos >= rho - eps)),
            "p_less": float(np.mean(rhos <= rho + eps))}


def replica_study() -> tuple[dict, list[int]]:
    """`jacobian_study` rows of `main-replica` (committed diagnostics), with its paired seeds."""
    got = get_study(REPLICA).collect_diagnostics(JACOBIAN_VARIANTS)
    seeds = got.paired_seeds(JACOBIAN_VARIANTS)
    return (_jacobian_rows(got.results, seeds) if seeds else {}), seeds


def confirm_study() -> tuple[dict, list[int], tuple[int, ...]]:
    """`jacobian_study` rows of `main-confirm` (committed diagnostics), its paired seeds, and the
    seeds its design fixed before its runs."""
    study = get_study(CONFIRM)
    got = study.collect_diagnostics(JACOBIAN_VARIANTS)
    seeds = got.paired_seeds(JACOBIAN_VARIANTS)
    return (_jacobian_rows(got.results, seeds) if seeds else {}), seeds, tuple(study.seeds)


def confirm_power(per: dict, n: int, draws: int = 1000, seed: int = 0) -> float:
    """The probability that the rank-tolerance reading fails at `n` fresh paired seeds if the
    exploratory effects are the truth: that `sign_first` (Holm over the reading's sub-assertions
    at level 0.05) finds a momentum variant's 𝒫 significantly above vanilla's, by Monte Carlo
    (`draws`, fixed `seed`) from the normal with the mean and covariance of the exploratory
    per-seed differences in `per` (`_per_model` at the rank tolerance). A lower bound: the other
    sub-assertions enter Holm's family with p = 1, so their rejections cannot lower its thresholds
    (`claims._stats.fail_power`)."""
    momentum = [m for m in MOMENTUM if m in per]
    key = "persistence_rank_tolerance"
    base = np.asarray(per[VANILLA][key])
    cut, stable, _, _ = _at_cutoff(per, key, "spread_rank_tolerance")
    names = [f"{LABELS[m]} persistence < vanilla's" for m in momentum]
    others = {k: "not simulated (p = 1)" for k in (cut | stable) if k not in names}
    level = {k: float(np.mean(per[m]["val_loss_full"] + per[VANILLA]["val_loss_full"])) for m, k in zip(momentum, names)}
    diffs = {k: list(np.asarray(per[m][key]) - base) for m, k in zip(momentum, names)}
    return fail_power(diffs, n, level, missing=others, draws=draws, seed=seed)


@lru_cache(maxsize=4)
def _confirm_power_cached(n: int) -> float:
    """`confirm_power` of the committed exploration (`main-replica`) at `n` seeds."""
    study, _ = replica_study()
    return confirm_power(_per_model(study, rank_tolerance=True), n)


def replica_equals_main(runs: dict[str, list[int]]) -> dict[str, bool]:
    """Per `main-replica` run ({variant: seeds}), whether its full-split validation loss equals the
    committed `main` run's exactly (the same training, bit for bit: its diagnostics are main's)."""
    main, replica = get_study(STUDY).collect(list(runs)), get_study(REPLICA).collect(list(runs))
    return {f"{v}-seed{s}": s in main.results.get(v, {}) and s in replica.results.get(v, {})
            and main.results[v][s]["val_loss_full"] == replica.results[v][s]["val_loss_full"]
            for v, seeds in runs.items() for s in seeds}


def _per_model(study: dict, rank_tolerance: bool = False) -> dict:
    """Per variant, per seed: 𝒫, the mean stable rank and spread, the loss (and 𝒫 and the spread
    at float64's rank tolerance, from the recorded spectra, with `rank_tolerance`)."""
    per = {}
    for v, rows in study.items():
        per[v] = {"persistence": [r["persistence"] for r in rows],
                  "persistence_uncut_layers": [float(np.sum(np.asarray(r["log_min_gain"])[np.asarray(r["n_kept"]) == max(r["n_kept"])]))
                                               for r in rows],
                  "stable_rank": [float(np.mean(r["stable_rank"])) for r in rows],
                  "spread": [float(np.mean(r["spread"])) for r in rows],
                  "val_loss_full": [r["val_loss_full"] for r in rows]}
        if rank_tolerance:
            at = [dg.persistence_at(r["spectra"], dg.rank_tolerance) for r in rows]
            per[v] |= {"persistence_rank_tolerance": [p for p, _ in at], "spread_rank_tolerance": [q for _, q in at]}
    return per


def _at_cutoff(per: dict, persistence: str, spread: str) -> tuple[dict, dict, dict, dict | None]:
    """The sub-assertions of §5.3 at one cutoff, from `_per_model` rows: (𝒫 lower, spread larger
    and AdamFormer's 𝒫 not below vanilla's; stable rank higher; 'tracks lower loss'; Spearman test)."""
    momentum = [v for v in MOMENTUM if v in per]

    def loss(*vs) -> float:
        return float(np.mean([x for v in vs for x in per[v]["val_loss_full"]]))
    cut = {f"{LABELS[m]} persistence < vanilla's": _lower(per[m][persistence], per[VANILLA][persistence],
                                                          loss_level=loss(m, VANILLA)) for m in momentum}
    cut |= {f"{LABELS[m]} spread > vanilla's": _lower(per[VANILLA][spread], per[m][spread]) for m in momentum}
    if "adam" in per:
        cut["AdamFormer persistence not below vanilla's"] = _lower(per[VANILLA][persistence], per["adam"][persistence],
                                                                   "not-worse", loss_level=loss(VANILLA, "adam"))
    stable = {f"{LABELS[m]} stable rank > vanilla's": _lower(per[VANILLA]["stable_rank"], per[m]["stable_rank"])
              for m in momentum}
    mean = {v: (float(np.mean(d[persistence])), float(np.mean(d["val_loss_full"]))) for v, d in per.items()}
    rank = spearman_test([p for p, _ in mean.values()], [q for _, q in mean.values()]) if len(mean) > 2 else None
    tracks = {"lower persistence tracks lower loss (Spearman, exact permutation test)":
              "undecided" if rank is None else "holds" if rank["p_greater"] < ALPHA
              else "fails" if rank["p_less"] < ALPHA else "undecided"}
    return cut, stable, tracks, rank


JACOBIAN_TEXT = (  # verbatim, with the seed's non-breaking space in "Figure 2"
    r"Our main finding is that momentum changes how perturbations propagate across depth: momentum "
    r"variants have lower minimum-gain persistence than Vanilla while preserving a broad transition "
    r"spectrum. [...] We write $\sigma_{\max}^{\mathrm{eff}}(J_{\ell})$ and $\sigma_{\min}^{\mathrm{eff}}"
    r"(J_{\ell})$ for the largest and smallest singular values kept by the same fixed numerical cutoff "
    r"across all variants. [...] Figure 2 summarizes the result. Across the analyzed OpenWebText "
    r"variants, lower minimum-gain persistence tracks lower validation loss: the momentum variants move "
    r"to the low-persistence, low-loss region, whereas AdamFormer does not. At the same time, the "
    r"momentum variants have higher stable rank and larger spectral spread, indicating that they do not "
    r"simply collapse the transition spectrum.")


@claim("momentum_streams:sec-5.3-jacobian", locator="§5.3, Figure 2",
       statement="momentum variants have lower minimum-gain persistence 𝒫 = Σ_ℓ log σ_min^eff(J_ℓ) than "
                 "vanilla (AdamFormer does not), with higher stable rank and larger spread; lower 𝒫 tracks "
                 "lower validation loss (proxy: the main study's trained models)",
       method="experiment", expect="fails", expect_quick="inconclusive", figures=["jacobian-diagnostics"],
       paper_text=JACOBIAN_TEXT,
       referee="changed, fails -> inconclusive (issue 28): the fail rested on 𝒫 at our absolute "
               "cutoff 1e-6, which binds in the first layer (where the momentum variants' σ_min^eff is "
               "the lower, with 6-14 singular values cut against vanilla's 1-3); the paper leaves its "
               "cutoff open, and at a smaller numerical cutoff the first layer's term is not known from "
               "the committed diagnostics, so 'lower 𝒫' is undecided under that reading; at ours, and in "
               "the three layers no cutoff <= 1e-6 touches, the momentum variants' 𝒫 is higher "
               "(reversed), as before. Issue 35: the rank-tolerance reading, computed on "
               "main-replica (seeds 0-4, all 25 runs main's bit for bit): every momentum variant's 𝒫 "
               "is again above vanilla's in every seed (15 of 15 pairs; means -40.2, -38.0, -36.6 "
               "against -45.3; paired p 0.010-0.040), but at 5 seeds Holm over the reading's 10 paired "
               "sub-assertions rejects none (smallest p 0.0057, YuriiFormer's stable rank, > 0.05/10; "
               "n_needed 7-12 seeds for the 𝒫 comparisons), so that reading, and the claim, stay "
               "undecided. Rather than add seeds to it until p is small, that look is the "
               "exploration and the reading is decided on a confirmatory sample fixed before its "
               "runs (27 Nov 2026): main-confirm, the five arms at 8 fresh seeds (5-12), the "
               "smallest count at which the reading fails with probability >= 0.9 if the explored "
               "differences are the truth (confirm_power: 0.95 at 8, 0.87 at 7). Decided 27 Nov "
               "2026 on all 40 runs, changed inconclusive -> fails: at the rank tolerance "
               "YuriiFormer's and TMMFormer's 𝒫 is above vanilla's in 8 of 8 seeds (paired "
               "differences +9.2 and +12.4, 95% CI [6.0, 12.5] and [9.0, 15.7], p 2.8e-4 and 5.0e-5, "
               "Holm rejects both), HBFormer's in 6 of 8 (+4.1, p 0.034: undecided), so the reading "
               "fails as ours does; the stable rank is higher for all three (holds), the spread and "
               "'tracks lower loss' stay undecided. A fail at proxy scale, never an erratum")
def jacobian_claim(budget: str) -> Evidence:
    """Sub-assertions, for each momentum variant (HB, Yurii, TMM) against vanilla: 𝒫 lower,
    mean stable rank higher, mean spread larger; AdamFormer's 𝒫 not below vanilla's
    (non-inferiority); and 'lower 𝒫 tracks lower loss': Spearman ρ(𝒫, loss) across the five
    variants' means significantly > 0 (exact permutation test, level 0.05; 5 variants need ρ >= 0.9).
    Readings of the unstated cutoff: ours (absolute 1e-6, the same for every variant), or
    float64's numerical rank tolerance σ_max·n·ε per layer, where 𝒫 and the spread come from the
    recorded smallest singular values (`dg.persistence_at`). At the full budget that reading is
    decided on `main-confirm` alone, once all of its seeds are committed (a confirmatory sample,
    its size fixed by `confirm_power` from the exploration on `main-replica`, seeds 0-4, whose
    sub-assertions are reported beside it and decide nothing), and is undecided until then."""
    variants = JACOBIAN_VARIANTS if budget == "full" else QUICK_VARIANTS
    _, seeds, prov = diagnostics(budget, variants)
    study = jacobian_study(budget)
    per = _per_model(study)
    means = {v: {k: float(np.mean(x)) for k, x in d.items()} for v, d in per.items()}
    cut, stable, tracks, rank = _at_cutoff(per, "persistence", "spread")
    # the other reading of the unstated cutoff: float64's numerical rank tolerance σ_max·n·ε per
    # layer, from each layer's recorded smallest singular values; `main`'s committed diagnostics
    # predate the record and its weights were not kept, so at the full budget the reading was
    # explored on `main-replica` (the same arms retrained and diagnosed as they finish; bit for bit
    # main's runs where `replica_equals_main`; Holm rejected none of its sub-assertions at seeds
    # 0-4) and is decided on `main-confirm`, the confirmatory sample whose size `confirm_power`
    # fixed from that exploration before its runs: on all of its seeds, never on a part of them
    if budget == "quick":
        tail_study, tail_seeds, planned = study, seeds, tuple(seeds)
        explored, explored_seeds = {}, []
    else:
        explored, explored_seeds = replica_study()
        tail_study, tail_seeds, planned = confirm_study()

    def spectra(rows: dict, paired: list[int], need: int) -> bool:
        return len(paired) >= need and all("spectra" in r for v in rows.values() for r in v)
    exploration = {"study": REPLICA, "seeds": explored_seeds}
    if spectra(explored, explored_seeds, MIN_SEEDS):
        explored_per = _per_model(explored, rank_tolerance=True)
        e_cut, e_stable, e_tracks, e_rank = _at_cutoff(explored_per, "persistence_rank_tolerance",
                                                       "spread_rank_tolerance")
        powers = {n: _confirm_power_cached(n) for n in (len(planned) - 1, len(planned))}
        exploration |= {"per_model": explored_per, "sub_assertions": sign_first(e_cut | e_stable)[1],
                        "tracks_lower_loss": e_tracks, "spearman_test": e_rank,
                        "replica_equals_main": replica_equals_main(
                            {v: [r["seed"] for r in rows] for v, rows in explored.items()}),
                        "confirm_power": {"target": CONFIRM_POWER, "by_n_seeds": powers,
                                          "n_seeds": len(planned)}}
    recorded = spectra(tail_study, tail_seeds, len(planned)) and tuple(tail_seeds) == planned
    tail_per = _per_model(tail_study, rank_tolerance=True) if recorded else {}
    rule = ("float64's numerical rank tolerance (σ_max·n·ε per layer, numpy's matrix_rank default; "
            + ("quick runs)" if budget == "quick" else
               f"decided on {CONFIRM}, seeds {planned[0]}-{planned[-1]}: a confirmatory sample fixed "
               f"before its runs; explored on {REPLICA}, seeds {', '.join(map(str, explored_seeds))})"))
    if recorded:
        small, small_stable, small_tracks, small_rank = _at_cutoff(
            tail_per, "persistence_rank_tolerance", "spread_rank_tolerance")
        smaller = (rule, (small | small_stable, small_tracks))
    else:
        small_rank = None
        smaller = (rule, ({}, {f"the confirmatory sample ({len(tail_seeds)} of its {len(planned)} "
                               f"seeds committed: python -m particles.lm study run {CONFIRM})": "undecided"}))
    readings = {f"our cutoff (absolute {dg.SIGMA_CUTOFF:g}, every variant)": (cut | stable, tracks),
                smaller[0]: smaller[1]}
    numbers = {"per_model": per, "means": means,
               "spearman_persistence_vs_loss": rank["rho"] if rank else math.nan, "spearman_test": rank,
               "spearman_test_rank_tolerance": small_rank, "spectra_recorded": recorded,
               "rank_tolerance_source": {"study": CONFIRM if budget == "full" else "quick",
                                         "seeds": tail_seeds, "planned_seeds": list(planned),
                                         "per_model": tail_per},
               "rank_tolerance_exploration": exploration,
               "layers_cut": {v: [r["n_kept"] for r in rows] for v, rows in study.items()},
               "settings": dg.JACOBIAN_SETTINGS[budget], "cutoff": dg.SIGMA_CUTOFF,
               "n_seeds": len(seeds), "seeds": seeds, **prov, **study_context(variants),
               "diagnostic_deviations": [
                   {"setting": "singular-value cutoff", "paper": "'the same fixed numerical cutoff' (value not stated)",
                    "ours": f"absolute {dg.SIGMA_CUTOFF:g}"},
                   {"setting": "sequences x tokens", "paper": "not stated",
                    "ours": f"{dg.JACOBIAN_SETTINGS['full']['sequences']} x {dg.JACOBIAN_SETTINGS['full']['tokens']}"},
                   {"setting": "checkpoint", "paper": "trained OpenWebText models", "ours": "the final model"}]}
    return _readings_evidence(readings, _decided(budget, seeds, prov), criterion=(
        "J_ℓ by torch.func (float64) on validation sequences of the committed `main` study; 'lower 𝒫 "
        f"tracks lower loss' by an exact permutation test of Spearman's ρ at level {ALPHA} (5 variants: "
        "rho >= 0.9 supports it, <= -0.9 refutes it); " + SIGN_RULE), numbers=numbers)

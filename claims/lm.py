"""Claims of the training path (`particles.lm`) decided by trained models: the orderings of the
papers' loss tables, read from the committed studies (`particles.lm.studies`, results/lm/). No
check trains: a run that is not committed is listed as missing, one whose configuration differs
from its study's as stale, and the claim decides from the valid runs or says it cannot.

(Counts, containments, oracle calls and causality need no training: `claims.lm_structure`.)

Reading of a table. The paper prints one loss per row (best validation loss at its scale); the
claim is the printed ordering. We sort the rows by printed loss and compare consecutive printed
levels (every row of one level with every row of the next; equal printed losses are not
compared): the printed ordering holds exactly when each of these comparisons does. For a
comparison a < b the claimed effect is the printed relative gap transferred to our loss level,
c = (P_b - P_a) / ((P_a + P_b) / 2) x (mean of our two arms). Our loss per run is the final model's
next-byte loss on the whole validation split (`val_loss_full`; the schedule decays to the last
step, so the last evaluation is the best one up to evaluation noise).

Decision: `claims._stats` over the seeds that every arm of the table has (paired: seed k fixes the
data order and the initialisation stream of every arm): mean difference with 95% CI, seed SD,
minimal detectable effect, Holm over the table's hypotheses. `holds` when every comparison
agrees, `fails` when one is reversed or significantly smaller than printed, `inconclusive` when
underpowered (with the number of seeds that would decide), when fewer than `MIN_SEEDS` paired
seeds are committed, or when the study's baseline has not learned (`learned`).

With `claims.settings.recompute` (`python -m claims|figures --recompute`) a table's check first
retrains every run of its arms into results/lm/ (hours on a CPU: docs/training.md), then reads.
"""
from __future__ import annotations

import math
import statistics

from claims import Evidence, claim, settings, verdict_from
from claims._stats import decide, paired_difference
from particles.lm.studies import Collected, get_study

MIN_SEEDS = 3
# A model has learned when its validation loss is at most this fraction of the corpus's unigram
# entropy and its curve is flat: the last FLAT_TAIL of steps lower it by less than FLAT_DROP.
LEARNED_FRACTION, FLAT_TAIL, FLAT_DROP = 0.75, 0.2, 0.02


def learned(study_name: str, baseline: str | None = None) -> dict:
    """Whether a baseline of the study (default the study's: GD + Lie-Trotter with the study's
    attention; every committed seed) has learned: mean full-split validation loss vs
    `LEARNED_FRACTION` x the corpus's unigram entropy, and the mean relative drop of its
    validation curve over the last `FLAT_TAIL` of steps vs `FLAT_DROP`."""
    study = get_study(study_name)
    baseline = baseline or study.baseline
    runs = list(study.collect([baseline]).results.get(baseline, {}).values())
    if not runs:
        return {"learned": False, "why": f"no committed {baseline} run in study {study_name}"}
    drops = []
    for r in runs:
        steps, val = r["curves"]["step"], r["curves"]["val_loss"]
        start = min(range(len(steps)), key=lambda i: abs(steps[i] - (1 - FLAT_TAIL) * steps[-1]))
        drops.append((val[start] - val[-1]) / val[start])
    unigram = runs[0]["data"]["entropy_nats_per_byte"]["unigram"]
    out = {"baseline": baseline,
           "baseline_val_loss": statistics.mean(r["val_loss_full"] for r in runs),
           "unigram_entropy": unigram,
           "bigram_entropy": runs[0]["data"]["entropy_nats_per_byte"]["bigram"],
           "corpus_sha256": runs[0]["data"]["sha256"], "baseline_seeds": len(runs),
           "baseline_tail_drop": statistics.mean(drops)}
    out["learned"] = (out["baseline_val_loss"] <= LEARNED_FRACTION * unigram
                      and out["baseline_tail_drop"] < FLAT_DROP)
    return out


def not_learned(gate: dict) -> str:
    """Why `learned` refused a study's baseline, in words."""
    if "why" in gate:
        return gate["why"]
    reasons = []
    if gate["baseline_val_loss"] > LEARNED_FRACTION * gate["unigram_entropy"]:
        reasons.append(f"its full-split validation loss {gate['baseline_val_loss']:.3f} is above "
                       f"{LEARNED_FRACTION} x the unigram entropy {gate['unigram_entropy']:.3f}")
    if gate["baseline_tail_drop"] >= FLAT_DROP:
        reasons.append(f"its last {FLAT_TAIL:.0%} of steps still lowered the validation loss by "
                       f"{gate['baseline_tail_drop']:.1%} (not flat: needs < {FLAT_DROP:.0%})")
    return f"the baseline {gate['baseline']} has not learned: " + " and ".join(reasons)


def printed_comparisons(printed: dict[str, float]) -> list[tuple[str, str]]:
    """(a, b) with P_a < P_b for every row a of a printed level and b of the next level."""
    levels = sorted(set(printed.values()))
    by_level = {v: sorted(k for k, p in printed.items() if p == v) for v in levels}
    return [(a, b) for lo, hi in zip(levels, levels[1:]) for a in by_level[lo] for b in by_level[hi]]


def ordering_decision(printed: dict[str, float], values: dict[str, list[float]],
                      pairs: list[tuple[str, str]] | None = None) -> tuple[str, dict]:
    """The module's criterion on per-seed losses `values` (label -> one loss per paired seed),
    over the comparisons `pairs` (a, b), each claiming a < b (default: `printed_comparisons`)."""
    comparisons = {}
    for a, b in printed_comparisons(printed) if pairs is None else pairs:
        if not printed[a] < printed[b]:
            raise ValueError(f"pairs: {a} < {b} is not what the printed losses say "
                             f"({printed[a]}, {printed[b]})")
        level = (statistics.mean(values[a]) + statistics.mean(values[b])) / 2
        claimed = (printed[b] - printed[a]) / ((printed[a] + printed[b]) / 2) * level
        comparisons[f"{a} < {b}"] = paired_difference(values[a], values[b], claimed) | {
            "printed": [printed[a], printed[b]]}
    return decide(comparisons)


def ordering_evidence(printed: dict[str, float], rows: dict[str, str], study_name: str,
                      source: str = "", pairs: list[tuple[str, str]] | None = None) -> Evidence:
    """Decide the printed ordering of `printed` (row label -> loss) from the committed runs of
    `study_name`; `rows` maps each row label to its variant. `pairs` names the comparisons a
    claim's sentence makes when it asserts fewer than the whole ordering of its numbers (default:
    consecutive printed levels). The learned gate is on the table's own GD + Lie-Trotter row
    (gd-lt-linear for a linear-attention table in a softmax study), the study's baseline when the
    table has none."""
    study = get_study(study_name)
    which = ("by consecutive printed levels" if pairs is None else
             "restricted to the comparisons " + ", ".join(f"{a} < {b}" for a, b in pairs))
    criterion = (f"the printed ordering, {which}: paired differences over "
                 f"the committed seeds of study '{study_name}' of the full-split validation loss, "
                 f"95% CI, Holm over the table's sign and size hypotheses at family-wise level 0.05 "
                 f"(claimed size = printed relative gap x our loss level); holds if every comparison "
                 f"agrees, fails if one is reversed or significantly smaller than printed, else "
                 f"inconclusive (underpowered: n_needed). Needs >= {MIN_SEEDS} paired seeds and a "
                 f"learned baseline (val <= {LEARNED_FRACTION} x unigram entropy, last "
                 f"{FLAT_TAIL:.0%} of steps lower it by < {FLAT_DROP:.0%})")
    variants = list(dict.fromkeys(rows.values()))
    if settings.recompute:  # `--recompute`: retrain this table's arms (every seed of the study)
        study.run(variants, recompute=True)
    got: Collected = study.collect(variants)
    seeds = got.paired_seeds(variants)
    gate = learned(study_name, study.baseline if study.baseline in rows.values() else
                   next((v for v in rows.values() if v.startswith("gd-lt")), study.baseline))
    numbers = {"printed": printed, "source": source, "study": study_name,
               "config": study.config.as_dict() | {"variant": None, "seed": None},
               "n_seeds": len(seeds), "seeds": seeds, **{k: gate.get(k) for k in (
                   "baseline", "corpus_sha256", "unigram_entropy", "bigram_entropy", "baseline_val_loss",
                   "baseline_tail_drop", "learned")},
               "missing_runs": got.missing, "invalid_runs": got.invalid}
    if len(seeds) < MIN_SEEDS:
        return Evidence("inconclusive", numbers=numbers, criterion=criterion +
                        f"; here: only {len(seeds)} paired seeds committed (need {MIN_SEEDS})")
    values = {label: [got.results[v][s]["val_loss_full"] for s in seeds] for label, v in rows.items()}
    verdict, comparisons = ordering_decision(printed, values, pairs)
    if not gate["learned"]:  # the comparisons are reported, not decided
        verdict, criterion = "inconclusive", criterion + f"; here: {not_learned(gate)}, so the " \
                                                         "comparisons below are shown, not decided"
    undecided = [c for c in comparisons.values() if c["status"] == "undecided"]
    measured = {label: {"mean": statistics.mean(v), "std": statistics.stdev(v), "values": v}
                for label, v in values.items()}
    numbers |= {"measured": measured, "comparisons": comparisons,
                "status_counts": {s: sum(c["status"] == s for c in comparisons.values())
                                  for s in ("agree", "reversed", "smaller", "undecided")},
                "measured_order": sorted(values, key=lambda l: measured[l]["mean"])}
    if verdict == "inconclusive" and undecided:
        needed = [c.get("n_needed") for c in undecided]
        numbers |= {"mde": max(c["mde"] for c in undecided),
                    "n_needed": None if None in needed else max(needed)}
    return Evidence(verdict, criterion=criterion, numbers=numbers,
                    counterexample={k: c for k, c in comparisons.items()
                                    if c["status"] in ("reversed", "smaller")} or None
                    if verdict == "fails" else None)


YURII_TABLE_2 = {"GD+Euler": 1.107, "Polyak+Euler": 1.099, "Nesterov+Euler": 1.101,
                 "GD+Lie-Trotter": 1.106, "Polyak+Lie-Trotter": 1.083, "Nesterov+Lie-Trotter": 1.078}
YURII_ROWS = {"GD+Euler": "gd-euler", "Polyak+Euler": "polyak-euler", "Nesterov+Euler": "nesterov-euler",
              "GD+Lie-Trotter": "gd-lt", "Polyak+Lie-Trotter": "polyak-lt",
              "Nesterov+Lie-Trotter": "nesterov-lt"}


@claim("yurii:table-2", locator="Table 2 (TinyStories small, best val loss)",
       statement="The best-validation-loss ordering of GD/Polyak/Nesterov x Euler/Lie-Trotter "
                 "(Nesterov+Lie-Trotter lowest) reproduces on the main study (4 layers, 4 heads, width 64, Muon hybrid as App. D.3 / A.3)",
       method="experiment", expect="fails",
       figures=["ordering-table", "training-curves"])
def yurii_table_2(budget: str) -> Evidence:
    return ordering_evidence(YURII_TABLE_2, YURII_ROWS, "main", source="seed 004 Table 2, Best")


MS_TABLE_1 = {"VanillaTransformer": 1.1569, "AdamFormer": 1.1528, "AdamWFormer": 1.1472,
              "YuriiFormer": 1.1317, "TMMFormer": 1.1284}
MS_TABLE_1_ROWS = {"VanillaTransformer": "gd-lt", "AdamFormer": "adam", "AdamWFormer": "adamw",
                   "YuriiFormer": "yurii", "TMMFormer": "tmm"}


@claim("momentum_streams:table-1", locator="Table 1 (TS best val loss)",
       statement="Vanilla > AdamFormer > AdamWFormer > YuriiFormer > TMMFormer in best validation "
                 "loss reproduces on the main study (4 layers, 4 heads, width 64, Muon hybrid as App. D.3 / A.3)",
       method="experiment", expect="fails",
       figures=["ordering-table", "training-curves"])
def ms_table_1(budget: str) -> Evidence:
    return ordering_evidence(MS_TABLE_1, MS_TABLE_1_ROWS, "main", source="seed 002 Table 1, TS column")


MS_TABLE_2 = {"Vanilla": 3.008, "RMSProp": 3.015, "Ortho": 3.033, "HB": 2.945, "AdamFormer": 2.991,
              "Muon": 3.010}
MS_TABLE_2_ROWS = {"Vanilla": "gd-lt", "RMSProp": "rmsprop", "Ortho": "ortho", "HB": "hb",
                   "AdamFormer": "adam", "Muon": "muon"}


@claim("momentum_streams:table-2", locator="Table 2 (momentum x preconditioning, OWT val loss)",
       statement="The momentum x preconditioning ordering (HB lowest, Ortho highest; momentum helps "
                 "in every preconditioning column) reproduces on the main study (4 layers, 4 heads, width 64, Muon hybrid as App. D.3 / A.3)",
       method="experiment", expect="fails",
       figures=["ordering-table", "training-curves"])
def ms_table_2(budget: str) -> Evidence:
    return ordering_evidence(MS_TABLE_2, MS_TABLE_2_ROWS, "main", source="seed 002 Table 2 (OWT)")


SYMP_TABLE_1 = {"Baseline": 2.4473, "YuriiFormer-Lie-Trotter": 2.3872, "Plain Euler": 2.3234,
                "Presymp Euler": 2.4592, "Presymp ExpEuler": 2.2523, "Presymp AB2": 2.6546,
                "Presymp ETD-AB2": 1.8386}
SYMP_TABLE_1_ROWS = {"Baseline": "gd-lt", "YuriiFormer-Lie-Trotter": "nesterov-lt",
                     "Plain Euler": "symp-softmax-plain-euler",
                     "Presymp Euler": "symp-softmax-presymp-euler",
                     "Presymp ExpEuler": "symp-softmax-presymp-expeuler",
                     "Presymp AB2": "symp-softmax-presymp-ab2",
                     "Presymp ETD-AB2": "symp-softmax-presymp-etd-ab2"}


@claim("sympformer:table-1", locator="Table 1 (softmax, TinyStories, best val loss)",
       statement="The best-validation-loss ordering of Baseline, YuriiFormer-LT and the five "
                 "SympFormer schemes (softmax attention; ETD-AB2 lowest) reproduces on the deep study "
                 "(8 layers, 8 heads, width 64, AdamW, minimum lr 0.4x peak, h_0 = 0.1 as App. B)",
       method="experiment", expect="inconclusive",
       figures=["ordering-table", "training-curves"])
def symp_table_1(budget: str) -> Evidence:
    return ordering_evidence(SYMP_TABLE_1, SYMP_TABLE_1_ROWS, "deep", source="seed 000 Table 1, best")


SYMP_TABLE_2 = {"Baseline": 2.961427, "YuriiFormer": 2.765975, "plain Euler": 2.920602,
                "Presymp Euler": 2.731363}
# seed 000 §6.2: the linear-attention tables compare the baseline and YuriiFormer-Lie-Trotter with
# the same linear attention (`gd-lt-linear`, `nesterov-lt-linear`), not the softmax models
SYMP_LINEAR_ROWS = {"Baseline": "gd-lt-linear", "YuriiFormer": "nesterov-lt-linear",
                    "plain Euler": "symp-linear-plain-euler",
                    "Presymp Euler": "symp-linear-presymp-euler"}
SYMP_TABLE_2_ROWS = SYMP_LINEAR_ROWS


@claim("sympformer:table-2", locator="Table 2 (linear attention, smaller configuration, best)",
       statement="With linear attention, Presymp Euler < YuriiFormer < plain Euler < Baseline in best "
                 "validation loss reproduces on the linear study (4 layers, 4 heads, width 64, AdamW as App. B; all four rows linear attention)",
       method="experiment", expect="fails",
       figures=["ordering-table", "training-curves"])
def symp_table_2(budget: str) -> Evidence:
    """Decided on the `linear` study (scalars at 5x the learning rate, App. B's general text).
    App. B also prints 100x for Table 2: `numbers['scalar_lr_100']` shows the committed runs of
    the `linear-slr100` study beside it (each arm's loss per seed, and the comparisons once every
    arm has >= MIN_SEEDS seeds); they inform, they do not enter the verdict."""
    ev = ordering_evidence(SYMP_TABLE_2, SYMP_TABLE_2_ROWS, "linear", source="seed 000 Table 2, best")
    got = get_study("linear-slr100").collect(list(SYMP_TABLE_2_ROWS.values()))
    side = {"study": "linear-slr100", "val_loss_full": {
        label: {s: r["val_loss_full"] for s, r in got.results.get(v, {}).items()}
        for label, v in SYMP_TABLE_2_ROWS.items()}, "missing_runs": got.missing}
    seeds = got.paired_seeds(SYMP_TABLE_2_ROWS.values())
    if len(seeds) >= MIN_SEEDS:
        side["verdict"], side["comparisons"] = ordering_decision(
            SYMP_TABLE_2, {label: [side["val_loss_full"][label][s] for s in seeds] for label in SYMP_TABLE_2})
    return Evidence(ev.verdict, criterion=ev.criterion, numbers=dict(ev.numbers, scalar_lr_100=side),
                    counterexample=ev.counterexample)


SYMP_TABLE_3 = {"Baseline": 2.917168, "YuriiFormer": 2.765023, "plain Euler": 2.656692,
                "Presymp Euler": 2.690885}
# App. B, Table 3: "a look-ahead step for the presymplectic discretizations"
SYMP_TABLE_3_ROWS = SYMP_LINEAR_ROWS | {"Presymp Euler": "symp-linear-presymp-euler-lookahead"}


@claim("sympformer:table-3", locator="Table 3 (linear attention, larger configuration, best)",
       statement="With linear attention in the larger configuration, plain Euler < Presymp Euler < "
                 "YuriiFormer < Baseline in best validation loss reproduces on the deep-linear study "
                 "(8 layers, 8 heads, width 64, AdamW, minimum lr 0.4x peak, h_0 = 0.3, 100x "
                 "scalar lr, look-ahead for Presymp Euler as App. B; all four rows linear attention)",
       method="experiment", expect="inconclusive")
def symp_table_3(budget: str) -> Evidence:
    return ordering_evidence(SYMP_TABLE_3, SYMP_TABLE_3_ROWS, "deep-linear", source="seed 000 Table 3, best")


YURII_TABLE_5 = YURII_TABLE_2 | {
    "Hamiltonian (symplectic Euler)": 1.080, "IMEX k=1 (MAM)": 1.083, "IMEX k=1 (AMA)": 1.086,
    "IMEX+LN_v k=1 (MAM)": 1.112, "IMEX+LN_v k=1 (AMA)": 1.078, "PRK-Verlet (MAM)": 1.077,
    "PRK-Verlet (AMA)": 1.074, "IMEX k=2 (MAM)": 1.081, "IMEX k=2 (AMA)": 1.078,
    "IMEX+LN_v k=2 (MAM)": 1.097, "IMEX+LN_v k=2 (AMA)": 1.070}
YURII_TABLE_5_ROWS = YURII_ROWS | {
    "Hamiltonian (symplectic Euler)": "hamiltonian", "IMEX k=1 (MAM)": "imex-k1-ma",
    "IMEX k=1 (AMA)": "imex-k1-am", "IMEX+LN_v k=1 (MAM)": "imex-lnv-k1-ma",
    "IMEX+LN_v k=1 (AMA)": "imex-lnv-k1-am", "PRK-Verlet (MAM)": "prk-verlet-mam",
    "PRK-Verlet (AMA)": "prk-verlet-ama", "IMEX k=2 (MAM)": "imex-k2-ma", "IMEX k=2 (AMA)": "imex-k2-am",
    "IMEX+LN_v k=2 (MAM)": "imex-lnv-k2-ma", "IMEX+LN_v k=2 (AMA)": "imex-lnv-k2-am"}


@claim("yurii:table-5", locator="Appendix B.3, Table 5 (TinyStories small, best val loss)",
       statement="The best-validation-loss ordering of all 17 update rules (GD/Polyak/Nesterov, "
                 "Hamiltonian, IMEX(+LN_v) k in {1,2}, PRK-Verlet) reproduces on the main study (4 layers, 4 heads, width 64, Muon hybrid as App. D.3 / A.3)",
       method="experiment", expect="fails",
       figures=["ordering-table", "training-curves"])
def yurii_table_5(budget: str) -> Evidence:
    return ordering_evidence(YURII_TABLE_5, YURII_TABLE_5_ROWS, "main", source="seed 004 Table 5, Best")


MS_PRECOND_TEXT = {"TMMFormer": 1.1284, "YuriiFormer": 1.1317, "SOAPFormer": 1.1431,
                   "MuonFormer": 1.1503}
MS_PRECOND_TEXT_ROWS = {"TMMFormer": "tmm", "YuriiFormer": "yurii", "SOAPFormer": "soap",
                        "MuonFormer": "muon"}
# "MuonFormer and SOAPFormer ... trail every momentum-stream design"
MS_PRECOND_TEXT_PAIRS = [(m, p) for p in ("SOAPFormer", "MuonFormer") for m in ("TMMFormer", "YuriiFormer")]


@claim("momentum_streams:muon-soap-text", locator="§4.2 Main Results; Appendix D.7 (TS values)",
       statement="MuonFormer and SOAPFormer converge but trail every momentum-stream design "
                 "(TS best val: SOAP 1.1431, Muon 1.1503 vs Yurii 1.1317, TMM 1.1284)",
       method="experiment", expect="fails",
       figures=["ordering-table", "training-curves"])
def ms_muon_soap_text(budget: str) -> Evidence:
    """The sentence's comparisons, by the criterion of the module docstring: each of MuonFormer
    and SOAPFormer trails each momentum-stream design (TMMFormer, YuriiFormer), by the printed
    gap. The sentence asserts nothing between TMM and Yurii (that is Table 1's claim) or between
    Muon and SOAP, so those are not compared here. "Converge" is checked as training: every seed's
    full-split validation loss at least 1 nat below the byte-uniform level ln 256; a
    preconditioned arm that does not train fails the claim. The paper also says (App. B.2)
    'empirically SOAPFormer fails to converge' while §4.2 and D.7 report it converging on TS;
    `numbers['converges']` records what happens here."""
    ev = ordering_evidence(MS_PRECOND_TEXT, MS_PRECOND_TEXT_ROWS, "main",
                           source="seed 002 §4.2 / D.7, TS column", pairs=MS_PRECOND_TEXT_PAIRS)
    if "measured" not in ev.numbers:
        return ev
    converges = {label: all(v < math.log(256) - 1.0 for v in ev.numbers["measured"][label]["values"])
                 for label in ("SOAPFormer", "MuonFormer")}
    not_training = {f"{label} does not train": True for label, ok in converges.items() if not ok}
    verdict = "fails" if not_training else ev.verdict
    return Evidence(verdict, criterion=ev.criterion + "; and both preconditioned arms train "
                    "(every seed's loss < ln 256 - 1 nat)",
                    numbers=dict(ev.numbers, converges=converges),
                    counterexample=(ev.counterexample or {}) | not_training if verdict == "fails" else None)


@claim("momentum_streams:ablation-arithmetic", locator="§4.2 Ablation Study; Appendix D.5, D.7",
       statement="The derived numbers of the ablations follow from the printed losses: TMM-Vanilla "
                 "gap 0.0306 = ~15x the pooled seed std; width-900 closes ~40% of the gap, the rest "
                 "~0.018 = ~9x the per-seed std; halving the Muon lr shrinks the OWT gap ~11% "
                 "(0.074 -> 0.066); pure AdamW moves TMM 14x more than Vanilla",
       method="count", expect="holds-with-correction")
def ms_ablation_arithmetic(budget: str) -> Evidence:
    """Recompute every derived number from the printed ones. The pooled standard deviation of
    two samples of equal size is sqrt((s1^2 + s2^2) / 2); 'roughly/~' is read as within 5% of
    the printed multiple or percentage (the printed inputs carry 4 significant digits)."""
    v_mean, v_sd, t_mean, t_sd = 1.1578, 0.0028, 1.1272, 0.0013  # three-seed TS runs
    gap = v_mean - t_mean
    pooled = ((v_sd ** 2 + t_sd ** 2) / 2) ** 0.5
    derived = {
        "gap_0.0306": (gap, 0.0306),
        "gap_over_pooled_sd_15x": (gap / pooled, 15.0),
        "width900_closes_40pct": ((v_mean - 1.1454) / gap * 100, 40.0),
        "remaining_0.018": (1.1454 - t_mean, 0.018),
        "remaining_over_seed_sd_9x": ((1.1454 - t_mean) / ((v_sd + t_sd) / 2), 9.0),
        "lr_gap_shrinks_11pct": ((0.074 - (3.029 - 2.963)) / 0.074 * 100, 11.0),
        "adamw_tmm_vs_vanilla_14x": ((2.9696 - 2.9342) / (3.0103 - 3.0078), 14.0),
        "ts_improvement_0.029": (1.1569 - 1.1284, 0.029),
        "owt_improvement_0.074": (3.0078 - 2.9342, 0.074),
    }
    rel = {k: abs(a / b - 1) for k, (a, b) in derived.items()}
    bad = {k: derived[k][0] for k, r in rel.items() if r > 0.05}
    # Correction: the 15x multiple holds for the mean of the two stds (0.00205), not the pooled one.
    mean_sd_multiple = gap / ((v_sd + t_sd) / 2)
    corrected = set(bad) <= {"gap_over_pooled_sd_15x"} and abs(mean_sd_multiple / 15 - 1) <= 0.05
    return Evidence(verdict_from(not bad, corrected),
                    criterion="each derived quantity within 5% of the printed one",
                    numbers={"derived_vs_printed": derived, "relative_error": rel,
                             "pooled_sd": pooled, "gap_over_mean_sd": mean_sd_multiple},
                    counterexample=bad or None,
                    correction="The 0.0306 gap is 14.0x the pooled seed std (sqrt((0.0028^2 + "
                               "0.0013^2)/2) = 0.00218) and 14.9x the mean of the two stds; '~15x' "
                               "holds for the latter reading")

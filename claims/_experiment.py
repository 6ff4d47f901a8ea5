"""The decision machinery of the experiment claims (`claims/<paper>/training.py`,
`claims.momentum_streams.ablation`, `claims.momentum_streams.ablation_arithmetic`): what the
papers' sentences assert about their loss tables, read from the committed studies
(`particles.lm.studies`, results/lm/). No check trains: a run that is not committed is listed as
missing, one whose configuration differs from its study's as stale, and the claim decides from
the valid runs or says it cannot.

(Counts, containments, oracle calls and causality need no training: `claims._structure` and
`claims/<paper>/architecture.py`.)

The claim is the paper's assertion (issue 25). Each claim quotes the sentence(s) it checks
(`paper_text`) and splits them into the sub-assertions they make ("Nesterov+Lie-Trotter has a
lower loss than GD+Euler"); each is decided on the sign of the paired difference over seeds
(`claims._stats.sign_first`: Holm over the claim's sub-assertions, an equivalence margin of 0.1%
of the loss, the rule stated there), and the claim holds when every sub-assertion holds, fails
when one fails, and is inconclusive otherwise. No verdict is decided by a size converted from a
printed table gap: the printed table is the paper's evidence, and how well ours agrees with it is
reported beside the verdict (`claims._stats.table_agreement`: a sign-only status per printed
pair, the share of printed pairs reproduced, Kendall's tau with a bootstrap CI), never turned
into one. Where a sentence can be read more than one way, every reasonable reading is decided and
the paper is said to be wrong only if the assertion fails under every one
(`claims.decide_readings`); a reading that one member of a family suffices for ("some scheme of
the five") is the union over its members: it holds when one member holds at 0.05 / (number of
members) and fails when every member fails at 0.05 (`member_verdict`, `one_suffices`).

A study's seeds are trained a few at a time and the ledger is regenerated as runs land, so a
comparison is looked at with every count of paired seeds from `MIN_SEEDS` to the fewer seeds its
two arms' studies plan (`Study.seeds`): each look may decide, and extending the seeds after an
undecided look must not buy a verdict. Every level above is therefore spent over the looks the
plans allow (`planned_looks`: Bonferroni over the looks; a reading at the most looks of its
comparisons: 0.05 / 3 where both arms' study plans five seeds). A plan's last look is final: what
it leaves undecided is decided on a confirmatory sample (`Study.confirmatory`: fresh seeds, its
size fixed before its runs by the power the exploration's differences give it,
`claims._stats.fail_power`), at one look when none of its planned runs is missing
(`confirmatory_wait`): a second test of the comparison, which with the look errs in the direction
of its verdict with about 0.05 (docs/architecture.md, "Looks"), on seeds the look did not select.

Our loss per run is the final model's next-byte loss on the whole validation split
(`val_loss_full`; the schedule decays to the last step). Every verdict states its proxy scale
(`scale`) and every setting that differs from the paper's stated protocol (`deviations`,
generated from the run configuration and `claims._protocol`), and the flatness of every arm's
learning curve (`flatness`: the last-20% drop per arm and seed; arms above the rule are named).
A study whose baseline has not learned (`learned`) decides nothing. Fewer than `MIN_SEEDS`
paired seeds decide nothing.

With `claims.settings.recompute` (`python -m claims|figures --recompute`) a check first retrains
every run of its arms into results/lm/ (hours on a CPU: docs/training.md), then reads.

Here: the learned gate, per-arm flatness, the readings of a quoted sentence decided on sign
(`experiment_evidence`), the headline gaps against model size (`scale_trend`) and the union
readings (`one_suffices`, `with_union_reading`); the rule is also stated in docs/architecture.md.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass

from claims import Evidence, decide_readings, disagreement, reading, settings
from claims._protocol import _params, collected_runs, deviations, get_protocol, run_hardware, scale
from claims._stats import ALPHA, N_MAX, paired_difference, sign_first, table_agreement
from particles.lm.studies import Collected, get_study

MIN_SEEDS = 3
# a confirmatory sample's size: the smallest number of fresh seeds with this power, conditional on
# the exploration's differences being the truth (`claims._stats.fail_power`)
CONFIRM_POWER = 0.9


def confirmatory_wait(got: Collected, variants) -> str:
    """Why a confirmatory sample (`Study.confirmatory`) cannot be looked at yet ('' when it can): it
    is decided once, when every one of its planned runs of `variants` is committed or recorded
    diverged (a diverged run's seed then drops out of the pairing: fixed before its runs, never a
    replacement seed), and on one device kind."""
    if got.missing or got.invalid:
        return (f"has {len(got.missing) + len(got.invalid)} of its planned runs missing or invalid "
                f"({', '.join([*got.missing, *got.invalid][:3])}{', ...' if len(got.missing) + len(got.invalid) > 3 else ''})")
    kinds = got.devices(variants, seeds=sorted({s for runs in got.results.values() for s in runs}))
    return f"mixes device kinds ({', '.join(sorted(kinds))})" if len(kinds) > 1 else ""


def planned_looks(*studies) -> int:
    """The looks at one comparison between arms of `studies` that their plans allow: one at each
    count of paired seeds from `MIN_SEEDS` to the fewest seeds one of them plans (`Study.seeds`),
    since the ledger is regenerated as runs land and any of those counts may decide. A comparison
    is decided at its level / this (Bonferroni over the looks), so that the plan's seeds may be
    looked at as they land. Its last look is final: what it leaves undecided goes to a confirmatory
    sample, not to seeds added to the plan. A comparison within confirmatory samples
    (`Study.confirmatory`) has one look, once none of their planned runs is missing
    (`confirmatory_wait`)."""
    if all(st.confirmatory for st in studies):
        return 1
    return max(1, min(len(st.seeds) for st in studies) - MIN_SEEDS + 1)


# A model has learned when its validation loss is at most this fraction of the corpus's unigram
# entropy and its curve is flat: the last FLAT_TAIL of steps lower it by less than FLAT_DROP.
LEARNED_FRACTION, FLAT_TAIL, FLAT_DROP = 0.75, 0.2, 0.02
# The same run configuration trained on another CPU and torch build ends about this far apart in
# validation loss (nats/byte; measured by the review of issue 35 on the committed studies, whose
# arms ran on two machines): a paired difference within 3x of it, between runs of different
# builds, is stated beside the verdict (`build_pairing`).
CROSS_BUILD_DIFFERENCE = 1e-3


def _build(run: dict) -> str:
    """Where a run was trained: device, CPU model and capability, torch build."""
    return (f"{run.get('device', 'cpu')}: {run.get('cpu', '?')} ({run.get('cpu_capability', '?')}), "
            f"torch {run.get('torch', '?')}")


def build_pairing(arms: dict, got: dict, seeds: list[int], subs_out: dict, derived) -> dict | None:
    """The sub-assertions whose paired runs come from different machines or torch builds with a
    mean difference within 3x `CROSS_BUILD_DIFFERENCE` (None when every pair shares its build):
    such a verdict rests on a difference of the size the build alone makes."""
    builds = {label: {s: _build(got[st].results[v][s]) for s in seeds if s in got[st].results.get(v, {})}
              for label, (st, v) in arms.items()}
    mixed = {label for label in builds for other in builds
             if any(builds[label].get(s) not in (None, builds[other].get(s)) for s in seeds
                    if builds[other].get(s) is not None)}
    if not mixed:
        return None
    close = sorted(f"{reading}: {name}" for reading, subs in subs_out.items() for name, row in subs.items()
                   if "mean_diff" in row and abs(row["mean_diff"]) < 3 * CROSS_BUILD_DIFFERENCE
                   and (any(lab in name for lab in mixed) or derived))
    return {"builds": {label: sorted(set(b.values())) for label, b in builds.items()},
            "cross_build_difference": CROSS_BUILD_DIFFERENCE,
            "within_3x_across_builds": close,
            "note": ("runs paired across machines or torch builds; the sub-assertions listed rest on a "
                     "difference within 3x of what the build alone makes (~0.001 nats/byte)") if close else
                    "runs paired across machines or torch builds; every decided difference is beyond 3x "
                    "what the build alone makes (~0.001 nats/byte)"}


def learned(study_name: str, baseline: str | None = None, flat_required: bool = True) -> dict:
    """Whether a baseline of the study (default the study's: GD + Lie-Trotter with the study's
    attention; every committed seed) has learned: mean full-split validation loss vs
    `LEARNED_FRACTION` x the corpus's unigram entropy, and the mean relative drop of its
    validation curve over the last `FLAT_TAIL` of steps vs `FLAT_DROP`. `flat_required=False`
    (a study that trains the paper's own step budget: `experiment_evidence`) reports the drop
    without requiring it: the paper's sentence is about the loss after its steps, so a curve still
    falling there is the paper's setting, not an under-trained proxy."""
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
    out["flatness_required"] = flat_required
    out["learned"] = (out["baseline_val_loss"] <= LEARNED_FRACTION * unigram
                      and (out["baseline_tail_drop"] < FLAT_DROP or not flat_required))
    return out


def not_learned(gate: dict) -> str:
    """Why `learned` refused a study's baseline, in words."""
    if "why" in gate:
        return gate["why"]
    reasons = []
    if gate["baseline_val_loss"] > LEARNED_FRACTION * gate["unigram_entropy"]:
        reasons.append(f"its full-split validation loss {gate['baseline_val_loss']:.3f} is above "
                       f"{LEARNED_FRACTION} x the unigram entropy {gate['unigram_entropy']:.3f}")
    if gate["baseline_tail_drop"] >= FLAT_DROP and gate.get("flatness_required", True):
        reasons.append(f"its last {FLAT_TAIL:.0%} of steps still lowered the validation loss by "
                       f"{gate['baseline_tail_drop']:.1%} (not flat: needs < {FLAT_DROP:.0%})")
    return f"the baseline {gate['baseline']} has not learned: " + " and ".join(reasons)


@dataclass(frozen=True)
class Reading:
    """One reading of a quoted sentence: its sub-assertions, (a, b, kind) on row labels, each
    asserting that row a has the lower loss ("less") or is not above b ("not-worse")."""

    text: str
    subs: tuple[tuple[str, str, str], ...]

    def named(self) -> dict[str, tuple[str, str, str]]:
        sym = {"less": "<", "not-worse": "≤"}
        return {f"{a} {sym[k]} {b}": (a, b, k) for a, b, k in self.subs}


def flatness(got: Collected, rows: dict[str, str]) -> dict:
    """Per arm: the last-`FLAT_TAIL` relative drop of the validation curve of every committed
    seed, its mean and max, and the arms whose max is at or above `FLAT_DROP` (named)."""
    per_arm = {}
    for label, v in rows.items():
        drops = {}
        for s, r in sorted(got.results.get(v, {}).items()):
            steps, val = r["curves"]["step"], r["curves"]["val_loss"]
            start = min(range(len(steps)), key=lambda i: abs(steps[i] - (1 - FLAT_TAIL) * steps[-1]))
            drops[s] = (val[start] - val[-1]) / val[start]
        if drops:
            per_arm[label] = {"mean": statistics.mean(drops.values()), "max": max(drops.values()),
                              "per_seed": drops}
    above = sorted(label for label, f in per_arm.items() if f["max"] >= FLAT_DROP)
    return {"rule": f"last {FLAT_TAIL:.0%} of steps lower the validation loss by < {FLAT_DROP:.0%}",
            "per_arm": per_arm, "arms_above_rule": above}


def _gate_variant(study, variants) -> str:
    """The arm whose learning curve gates a study: its baseline when it is an arm, else the first
    GD + Lie-Trotter arm (gd-lt-linear for a linear-attention table in a softmax study)."""
    return study.baseline if study.baseline in variants else next(
        (v for v in variants if v.startswith("gd-lt")), study.baseline)


def experiment_evidence(printed: dict[str, float], rows: dict, study_name: str, *, protocol: str,
                        readings: list[Reading], source: str = "", derived: dict | None = None,
                        extra_deviations=(), alpha: float = ALPHA) -> Evidence:
    """Decide the quoted sentence's sub-assertions under each of its `readings` from committed runs.

    `rows`: row label -> variant of study `study_name`, or -> (study, variant) for an arm of
    another study (an ablation: seed k fixes the data order and the initialisation in every
    study, so runs pair by seed across studies); possibly more rows than the printed table holds.
    `derived`: label -> f(values) giving a per-seed series from the rows' losses (e.g. an arm's
    change between two studies), usable in sub-assertions like a row. `printed`: the paper's
    table, reported as table agreement only. Every study's gate (`learned`) is on its baseline
    arm (`_gate_variant`); `study_name` gives the scale, configuration and deviations, the other
    studies are listed under `other_studies`. `alpha`: the family-wise level of each reading's
    Holm family (0.05; a member of an existential reading over m members holds at 0.05/m), spent
    over the looks the plans allow (`planned_looks`: a reading at the most of its comparisons')."""
    arms = {label: v if isinstance(v, tuple) else (study_name, v) for label, v in rows.items()}
    names = list(dict.fromkeys([study_name, *(st for st, _ in arms.values())]))
    variants = {n: list(dict.fromkeys(v for st, v in arms.values() if st == n)) for n in names}
    prot = get_protocol(protocol)
    studies = {n: get_study(n) for n in names}
    planned = {n: len(studies[n].seeds) for n in names}

    def looks(a: str, b: str) -> int:  # a derived row pairs on the seeds every arm shares
        return planned_looks(*(studies[st] for st, _ in (arms.values() if {a, b} & set(derived or {})
                                                          else (arms[a], arms[b]))))
    reading_looks = {r.text: max(looks(a, b) for a, b, _ in r.subs) for r in readings}
    criterion = (f"every sub-assertion of the quoted sentence decided on the sign of the paired "
                 f"difference over the committed seeds its two arms share, study '{', '.join(names)}' (full-split "
                 f"validation loss; Holm over the sub-assertions of a reading at family-wise level {alpha:.3g}"
                 + (f" / (its looks: {', '.join(sorted({str(k) for k in reading_looks.values()}))}), Bonferroni "
                    f"over the looks the plans allow, one at each count of paired seeds from {MIN_SEEDS} to the "
                    f"fewer seeds its arms' studies plan ({', '.join(f'{n}: {k}' for n, k in planned.items())})"
                    if max(reading_looks.values()) > 1 else "") + "; "
                 "'no detectable difference' when the (1 - 2 x level) CI, the 90% CI at 0.05, lies inside +-0.1% of the loss, "
                 "claims._stats.sign_first); a reading holds when every sub-assertion holds, fails "
                 "when one fails; the paper is wrong only if every reading fails. The printed "
                 "table's ordering is reported (table_agreement), never decided. Needs "
                 f">= {MIN_SEEDS} paired seeds and a learned baseline (val <= {LEARNED_FRACTION} x "
                 f"unigram entropy, last {FLAT_TAIL:.0%} of steps lower it by < {FLAT_DROP:.0%}; at the "
                 "paper's own step budget the level alone, the drop reported)")
    if settings.recompute:  # `--recompute`: retrain this claim's arms (every seed of the study)
        for n in names:
            studies[n].run(variants[n], recompute=True)
    got: dict[str, Collected] = {n: studies[n].collect(variants[n]) for n in names}
    seeds = sorted(set.intersection(*(set(got[st].paired_seeds([v])) for st, v in arms.values())))
    # a study at the paper's own step budget is gated on the loss level only (`learned`)
    papers_budget = {n: not any(d["setting"] == "steps" for d in deviations(studies[n].config, prot)) for n in names}
    gates = {n: learned(n, _gate_variant(studies[n], variants[n]), flat_required=not papers_budget[n]) for n in names}

    def context(n: str) -> dict:
        study, hardware = studies[n], run_hardware(collected_runs(got[n]))
        return {"config": study.config.as_dict() | {"variant": None, "seed": None},
                "scale": scale(study.config, prot, hardware=hardware),
                "deviations": deviations(study.config, prot, hardware=hardware) + list(extra_deviations),
                "flatness": flatness(got[n], {lab: v for lab, (st, v) in arms.items() if st == n}),
                **{k: gates[n].get(k) for k in ("baseline", "corpus_sha256", "unigram_entropy", "bigram_entropy",
                                                "baseline_val_loss", "baseline_tail_drop", "flatness_required",
                                                "learned")},
                "missing_runs": got[n].missing, "invalid_runs": got[n].invalid, "diverged_runs": got[n].diverged}

    main = context(study_name)
    numbers = {"printed": printed, "source": source, "study": study_name, "config": main.pop("config"),
               "n_seeds": len(seeds), "seeds": seeds,
               "looks": {"planned_seeds": planned, "per_reading": reading_looks}, **main}
    if len(names) > 1:
        numbers["other_studies"] = {n: context(n) for n in names[1:]}
    undecidable = [f"{not_learned(gates[n])}" + (f" (study {n})" if len(names) > 1 else "")
                   + ", so the sub-assertions below are shown, not decided"
                   for n in names if not gates[n]["learned"]]
    # a confirmatory sample looks once, when none of its planned runs is missing (a diverged run's
    # seed drops out of the pairing, named), on one device kind: before that nothing of it is tested
    waiting = {n: why for n in names if studies[n].confirmatory and (why := confirmatory_wait(got[n], variants[n]))}
    undecidable += [f"the confirmatory sample {n} {why}, so its comparisons are not tested yet"
                    for n, why in waiting.items()]
    # every sub-assertion between two rows is decided on the seeds its two arms share, so one
    # comparison has one n in every reading; a derived row, the printed table's agreement and the
    # build pairing are on the seeds every arm shares (`seeds`)
    per_arm = {label: {s: r["val_loss_full"] for s, r in got[st].results.get(v, {}).items()}
               for label, (st, v) in arms.items()}
    if len(seeds) >= MIN_SEEDS:
        common = {label: [per_arm[label][s] for s in seeds] for label in arms}
        common |= {label: list(f(common)) for label, f in (derived or {}).items()}
    elif derived:
        undecidable.insert(0, f"only {len(seeds)} paired seeds committed (need {MIN_SEEDS})")
        return decide_readings([reading(r.text, None) for r in readings],
                               criterion=criterion + "; here: " + "; ".join(undecidable), numbers=numbers)
    else:
        common = None
    measured = {label: {"mean": statistics.mean(v), "std": statistics.stdev(v), "values": v}
                for label, v in (common or {lab: list(x.values()) for lab, x in per_arm.items()}).items()
                if label in arms and len(v) >= 2}
    rds, subs_out, pair_seeds = [], {}, {}
    # a derived row (a change of loss) is compared with a margin at the loss level of the arms
    loss_level = statistics.mean(m["mean"] for m in measured.values()) if measured else None

    def level(a, b) -> tuple:
        return (loss_level,) if derived and (a in derived or b in derived) and loss_level else ()
    for r in readings:
        ready, missing = {}, {}
        for name, (a, b, k) in r.named().items():
            if a in (derived or {}) or b in (derived or {}):
                ready[name] = (common[a], common[b], k, *level(a, b))
                continue
            shared = pair_seeds[name] = sorted(set(per_arm[a]) & set(per_arm[b]))
            if wait := [f"the confirmatory sample {arms[x][0]} {waiting[arms[x][0]]}" for x in (a, b)
                        if arms[x][0] in waiting]:
                missing[name] = wait[0]
            elif len(shared) >= MIN_SEEDS:
                ready[name] = ([per_arm[a][s] for s in shared], [per_arm[b][s] for s in shared], k)
            else:
                missing[name] = f"{len(shared)} paired seeds of {a} and {b} committed (need {MIN_SEEDS})"
        k = reading_looks[r.text]  # a plan extended to n seeds looks once more per seed beyond its own
        verdict, subs = sign_first(ready, alpha=alpha / k, missing=missing,
                                   alpha_at=lambda n, k=k: alpha / max(k, n - MIN_SEEDS + 1))
        subs_out[r.text] = subs
        rds.append(reading(r.text, None if undecidable else {"holds": True, "fails": False}.get(verdict),
                           statuses={name: row["status"] for name, row in subs.items()}))
    table = {k: v for k, v in printed.items() if k in common} if common else {}
    numbers |= {"measured": measured, "sub_assertions": subs_out,
                **({"table_agreement": table_agreement(table, {k: common[k] for k in table})} if table else {}),
                **({"seeds_per_sub_assertion": pair_seeds} if any(v != seeds for v in pair_seeds.values()) else {}),
                "measured_order": sorted(measured, key=lambda lab: measured[lab]["mean"])}
    numbers |= undecided_power(subs_out)
    if common and (pairing := build_pairing(arms, got, sorted({s for v in per_arm.values() for s in v}),
                                            subs_out, derived)):
        numbers["build_pairing"] = pairing
    failing = {f"{r.text}: {name}": row for r, subs in zip(readings, subs_out.values())
               for name, row in subs.items() if row["status"] == "fails"}
    ev = decide_readings(rds, criterion=criterion + ("; here: " + "; ".join(undecidable) if undecidable else ""),
                         numbers=numbers, counterexample=failing or None,
                         ambiguity=disagreement(rds, "the readings of the sentence"))
    return ev


def with_scale_trend(claim_id: str, ev: Evidence) -> Evidence:
    """`ev` with its headline gaps against model size (`scale_trend`) in the numbers."""
    return Evidence(ev.verdict, ev.criterion, dict(ev.numbers, scale_trend=scale_trend(claim_id)),
                    ev.counterexample, ev.correction, ev.readings, ev.ambiguity)


# ------------------------------------------------------------------ one size up (issue 25 item 7)

# claim -> its headline comparisons (label, a, b: the paper asserts loss(a) < loss(b)) and the
# studies, smallest first, at which they are trained (`wide`, `deep-wide`: width 128)
SCALE_TREND = {
    "yurii:table-2": [("Nesterov+Lie-Trotter < GD+Lie-Trotter", "nesterov-lt", "gd-lt", ("main", "wide"))],
    "momentum_streams:table-1": [("TMMFormer < Vanilla", "tmm", "gd-lt", ("main", "wide", "wide-tpp")),
                                 ("YuriiFormer < Vanilla", "yurii", "gd-lt", ("main", "wide"))],
    "sympformer:table-1": [("Presymp ETD-AB2 < Baseline", "symp-softmax-presymp-etd-ab2", "gd-lt",
                            ("deep", "deep-wide"))],
}


def scale_trend(claim_id: str) -> dict:
    """The claim's headline gaps against model size: per comparison and study, the paired
    difference d = loss(b) - loss(a) (positive: the paper's sign) with its 95% CI over the
    study's paired seeds (>= MIN_SEEDS, else the missing runs), the model's parameters, the
    largest last-20% drop of the two arms' curves (a size whose runs have not flattened is named),
    the training tokens per parameter, and whether the gap moves toward the paper's sign from the
    first to the last study trained, in SCALE_TREND's order (by size; at one size, more tokens per
    parameter last) (the mean of d grows; None below two). Evidence beside the verdict, never the
    verdict."""
    from particles.lm.model import VOCAB_SIZE
    out = {}
    for label, a, b, names in SCALE_TREND[claim_id]:
        points, missing = [], []
        for name in names:
            study = get_study(name)
            got = study.collect([a, b])
            seeds = got.paired_seeds([a, b])
            c = study.config
            params = _params(c.n_layer, c.n_head, c.n_embd, c.block_size, VOCAB_SIZE, b)
            if len(seeds) < MIN_SEEDS:
                missing.append({"study": name, "params": params, "missing_runs": got.missing})
                continue
            d = paired_difference([got.results[a][s]["val_loss_full"] for s in seeds],
                                  [got.results[b][s]["val_loss_full"] for s in seeds])
            flat = flatness(got, {a: a, b: b})
            points.append({"study": name, "params": params, "n_seeds": len(seeds),
                           "tokens_per_param": c.steps * c.batch_size * c.block_size / params,
                           "mean_diff": d["mean_diff"], "ci95": d["ci95"],
                           "last_20pct_drop_max": max(f["max"] for f in flat["per_arm"].values()),
                           "arms_above_flatness_rule": flat["arms_above_rule"]})
        out[label] = {"points": points, "not_yet_trained": missing,
                      "toward_paper_sign": (points[-1]["mean_diff"] > points[0]["mean_diff"])
                      if len(points) >= 2 else None}
    return out


def undecided_power(sub_assertions: dict[str, dict]) -> dict:
    """Over the measured undecided sub-assertions of every reading ({reading: {name: row}}): the
    largest minimum detectable effect (`mde`) and the most seeds one would need (`n_needed`; None,
    with `n_needed_why`, where a row needs more than `N_MAX` seeds); {} when none is undecided (a
    row without runs has no power to state)."""
    undecided = [row for subs in sub_assertions.values() for row in subs.values()
                 if row["status"] == "undecided" and "mde" in row]
    if not undecided:
        return {}
    needed = [row.get("n_needed") for row in undecided]
    out = {"mde": max(row["mde"] for row in undecided), "n_needed": None if None in needed else max(needed)}
    if None in needed:
        out["n_needed_why"] = (f"{needed.count(None)} of the {len(needed)} undecided sub-assertions would need "
                               f"more than {N_MAX:,} seeds (no practical number)")
    return out


def member_verdict(corrected: Evidence, alone: Evidence) -> str:
    """A member of an existential reading over m members, from its evidence at 0.05/m
    (`corrected`) and at 0.05 (`alone`): "holds" when it holds at 0.05/m (Bonferroni: a false
    "holds" of the reading needs one of the m members' tests to err), "fails" when it fails at
    0.05 (intersection-union: the reading fails only when every member fails, so a false "fails"
    needs the test of a member that does hold to err), else "inconclusive"."""
    return "holds" if corrected.verdict == "holds" else "fails" if alone.verdict == "fails" else "inconclusive"


def one_suffices(verdicts) -> bool | None:
    """An existential reading from its members' verdicts (`member_verdict`): holds when one holds,
    fails when all fail, else undecided."""
    verdicts = list(verdicts)
    return True if "holds" in verdicts else False if all(v == "fails" for v in verdicts) else None


def with_union_reading(ev: Evidence, members: dict[str, Evidence], text: str, *, at: int, sentence: str,
                       alone: dict[str, Evidence], label=lambda name: name, criterion: str = "") -> Evidence:
    """`ev` with one more reading, `text`, at position `at` of its readings: "one member suffices",
    the union over the members ({name: the evidence of that member's single reading}, decided at
    0.05/m in `members` and at 0.05 in `alone`), which holds when one member holds and fails when
    all fail (`member_verdict`, `one_suffices`). The sub-assertions of the evidence that decided
    each member (`alone` for a failing member, else `members`) join `ev`'s under `label(name)` and
    its level; the verdict is decided over every reading (`claims.decide_readings`; `sentence`:
    the words the readings disagree on)."""
    m = len(members)
    verdicts = {name: member_verdict(members[name], alone[name]) for name in members}
    deciding = {name: alone[name] if v == "fails" else members[name] for name, v in verdicts.items()}
    rds = list(ev.readings)
    rds.insert(at, reading(text, one_suffices(verdicts.values()), statuses=verdicts))

    def level(name: str, e: Evidence) -> str:  # the member's level before Holm over its sub-assertions
        k = max(e.numbers.get("looks", {}).get("per_reading", {}).values(), default=1)
        per_look, looks = (f"/{k}", f" {k} looks") if k > 1 else ("", "")
        return (f"fails at 0.05{per_look}: intersection-union" + (f", over{looks}" if looks else "")
                if verdicts[name] == "fails" else
                f"at 0.05/{m}{per_look}: Bonferroni over {m} members" + (f" and{looks}" if looks else ""))
    subs = {**ev.numbers.get("sub_assertions", {}), **{
        f"{label(name)}; {level(name, e)}": e.numbers["sub_assertions"][e.readings[0]["reading"]]
        for name, e in deciding.items() if "sub_assertions" in e.numbers}}
    numbers = {k: v for k, v in ev.numbers.items() if k not in ("mde", "n_needed")}
    numbers |= {"sub_assertions": subs, **undecided_power(subs)}
    counter = {k: v for e in (ev, *deciding.values()) for k, v in (e.counterexample or {}).items()}
    return decide_readings(rds, criterion=ev.criterion + criterion, numbers=numbers, counterexample=counter or None,
                           ambiguity=disagreement(rds, f"the readings of '{sentence}'"))

"""Seed 000 (SympFormer), §6-§7 and App. B, on the training path: Tables 1-3 decided on the
committed training studies (results/lm/; the rule: `claims._experiment`), with what the leak of the
printed Hamiltonian force is worth beside Table 1; the causal decoder's force (§5.2 eqs. (34)-(35),
an unstated premise); and the wall-time sentence of §6 (`claims._wallclock`)."""
from __future__ import annotations

import dataclasses
import statistics
from functools import lru_cache

import numpy as np
import torch

from claims import Evidence, claim, decide_readings, reading
from claims._experiment import CONFIRM_POWER, Reading, experiment_evidence, scale_trend, with_union_reading
from claims._stats import ALPHA, fail_power, sign_first
from claims._structure import F64, against_causal_reference, model_dependence
from claims._wallclock import BAND, timing_evidence
from claims.momentum_streams.diagnostics import PAPER_000_TABLE_1_SECONDS, SYMPFORMER_SOFTMAX
from particles.lm.blocks import explicit_force_G, hamiltonian_oracle_G
from particles.lm.studies import get_study
from particles.lm.variants import NON_CAUSAL, VARIANTS
from particles.verify import causal_dependence


# -------------------------------------------------------- seed 000 §6, Tables 1-3: the loss tables

SYMP_SENTENCE = ("We observe that the oracle-preserving SympFormer outperforms the baseline and the "
                 "Yuriiformer architecture, achieving lower validation loss at higher wall-time costs "
                 "for the same number of iterations.")
SYMP_CONCLUSION = ("Our numerical experiments showed that our novel SympFormer architecture "
                   "outperforms the vanilla transformer architecture on small datasets while "
                   "requiring the same number of oracle calls.")


def symp_readings(best: str, schemes: tuple[str, ...], baseline="Baseline", yurii="YuriiFormer") -> list[Reading]:
    """'The SympFormer outperforms the baseline and the YuriiFormer', read as the table's best
    SympFormer scheme (`best`) or as every scheme of the table (`schemes`)."""
    return [Reading(f"the table's best SympFormer scheme ({best}) below Baseline and YuriiFormer",
                    ((best, baseline, "less"), (best, yurii, "less"))),
            Reading("every SympFormer scheme of the table below Baseline and YuriiFormer",
                    tuple((s, other, "less") for s in schemes for other in (baseline, yurii)))]


SYMP_TABLE_1 = {"Baseline": 2.4473, "YuriiFormer": 2.3872, "Plain Euler": 2.3234,
                "Presymp Euler": 2.4592, "Presymp ExpEuler": 2.2523, "Presymp AB2": 2.6546,
                "Presymp ETD-AB2": 1.8386}
SYMP_TABLE_1_ROWS = {"Baseline": "gd-lt", "YuriiFormer": "nesterov-lt",
                     "Plain Euler": "symp-softmax-plain-euler",
                     "Presymp Euler": "symp-softmax-presymp-euler",
                     "Presymp ExpEuler": "symp-softmax-presymp-expeuler",
                     "Presymp AB2": "symp-softmax-presymp-ab2",
                     "Presymp ETD-AB2": "symp-softmax-presymp-etd-ab2"}
# the arms the sentence's first reading needs (trained first: studies.PLAN)
SYMP_TABLE_1_HEADLINE = ("Baseline", "YuriiFormer", "Presymp ETD-AB2")
LEAK_ROWS = {"Baseline": "gd-lt", "causal -grad H": "symp-softmax-presymp-etd-ab2-hamgrad",
             "leaky -grad H (as printed)": "symp-softmax-presymp-etd-ab2-hamgrad-leaky"}


SYMP_TABLE_1_BEST = "Presymp ETD-AB2"   # Table 1's lowest printed SympFormer loss


def symp_scheme(table: dict[str, float], rows: dict[str, str], study: str, scheme: str, best: str, *,
                protocol: str, source: str, alpha: float = ALPHA) -> Evidence:
    """The sentence for one scheme of a SympFormer table (`table`: printed, `rows`: label -> variant):
    `scheme` below the Baseline and YuriiFormer, on its own three arms of `study` (the best-scheme
    reading when it is `best`, the table's lowest printed scheme), at family-wise level `alpha`
    (0.05 / number of schemes as a member of the some-scheme reading)."""
    schemes = tuple(k for k in rows if k not in ("Baseline", "YuriiFormer"))
    text = (symp_readings(best, schemes)[0].text if scheme == best
            else f"{scheme} below Baseline and YuriiFormer")
    arms = {k: rows[k] for k in ("Baseline", "YuriiFormer", scheme)}
    return experiment_evidence({k: table[k] for k in arms}, arms, study, protocol=protocol, source=source,
                               alpha=alpha, readings=[Reading(
                                   text, ((scheme, "Baseline", "less"), (scheme, "YuriiFormer", "less")))])


NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
SOME_SCHEME_RULE = ("; the some-scheme reading holds when one scheme holds at 0.05 / (number of schemes) "
                    "(Bonferroni over the members: the union of their tests keeps family-wise level 0.05) and "
                    "fails when every scheme fails at 0.05 (intersection-union), each scheme decided on its own "
                    "arms with Holm over its two sub-assertions at the level it is held or failed at, both "
                    "levels then spent over the looks")


def some_scheme_members(table: dict[str, float], rows: dict[str, str], study: str, best: str, *,
                        protocol: str, source: str) -> tuple[dict[str, Evidence], dict[str, Evidence]]:
    """The members of the reading "some SympFormer scheme of the table is below the Baseline and
    YuriiFormer" ("the SympFormer outperforms" read as the architecture family, whose table prints
    several schemes; one suffices): each scheme decided by `symp_scheme` at 0.05 / (number of
    schemes), the level a member holds at, and at 0.05, the level it fails at
    (`claims._experiment.member_verdict`), on `study`, or on the confirmatory sample that
    `CONFIRMATORY` names for the scheme there (its arms at fresh seeds, one look)."""
    schemes = tuple(k for k in rows if k not in ("Baseline", "YuriiFormer"))
    return tuple({s: symp_scheme(table, rows, CONFIRMATORY.get((study, s), study), s, best, protocol=protocol,
                                 source=source, alpha=alpha)
                  for s in schemes} for alpha in (ALPHA / len(schemes), ALPHA))


def with_some_scheme(ev: Evidence, members: dict[str, Evidence], alone: dict[str, Evidence],
                     table: dict[str, float], number: int, criterion: str = SOME_SCHEME_RULE) -> Evidence:
    """`ev` (the best-scheme reading first) with the some-scheme reading of Table `number` after
    it (`claims._experiment.with_union_reading` over the schemes, from `some_scheme_members`:
    each at 0.05/m in `members`, at 0.05 in `alone`)."""
    m = len(members)
    below = sum(table[s] < min(table["Baseline"], table["YuriiFormer"]) for s in members)
    text = (f"some SympFormer scheme of the table below Baseline and YuriiFormer (one of the {NUMBER_WORDS[m]} "
            f"suffices; the paper's own Table {number} prints {NUMBER_WORDS.get(below, below)}; a scheme "
            f"holds at family-wise 0.05/{m}, Bonferroni over the {NUMBER_WORDS[m]}, and fails at 0.05, "
            f"intersection-union)")
    def label(s: str) -> str:
        sample = members[s].numbers.get("study")
        return (f"{s} below Baseline and YuriiFormer, a member of the some-scheme reading"
                + (f" (on its confirmatory sample {sample})" if sample != ev.numbers.get("study") else ""))
    return with_union_reading(ev, members, text, at=1, sentence="the SympFormer outperforms", criterion=criterion,
                              alone=alone, label=label)


@claim("sympformer:table-1", locator="§6 (opening), §7; Table 1 (softmax attention)",
       statement="The SympFormer (softmax attention) reaches a lower validation loss than the Baseline "
                 "and YuriiFormer-Lie-Trotter (proxy: the deep study, 8 layers, width 64, byte-level "
                 "Shakespeare)",
       method="experiment", expect="fails", figures=["ordering-table", "training-curves"],
       paper_text=SYMP_SENTENCE + "\n" + SYMP_CONCLUSION,
       referee="changed (26 Nov 2026), fails at proxy scale -> inconclusive, after an independent "
               "referee: choosing Table 1's best printed scheme as the only arm turns a printed gap "
               "into the reading; 'the SympFormer outperforms' also reads as some scheme of the five "
               "(three are printed below both rivals), undecided while four schemes are untrained in "
               "`deep`. Decided so far, at 3 paired seeds and proxy scale (8 layers, width 64, bytes; "
               "App. B's model, optimizer, schedule floor and h_0): Presymp ETD-AB2 ends above the "
               "Baseline (+0.017, 95% CI [0.001, 0.033]) and above YuriiFormer (+0.065), so the "
               "headline and every-scheme readings fail at this scale. The global-Hamiltonian force, "
               "which the paper does not state it trains (premise sympformer:causal-hamiltonian), leaks "
               "later tokens under the causal mask: at main's size the leak alone lowers the loss by "
               "98% over the paired seeds 0, 1, 3, 4 (the leaky run of seed 2 diverged), beside the "
               "printed ETD-AB2 gain over the Baseline of 25%. 27 Nov 2026, all seven arms at seeds 0-2: "
               "every scheme ends above YuriiFormer (by 0.038-0.067 nats/byte); at 0.05/5 Presymp "
               "ExpEuler fails as ETD-AB2 does, Plain Euler, Presymp Euler and AB2 are undecided (p "
               "0.014, 0.010, 0.049; 4-6 seeds would decide), so the some-scheme reading waits for "
               "seeds 3-4 (studies.PLAN). Changed 28 Nov 2026, inconclusive -> fails at proxy scale: "
               "with seed 3 of six arms and seed 4 of YuriiFormer and Presymp AB2 (the plan, fixed "
               "before these runs), every scheme ends above YuriiFormer at 0.05/5: Plain Euler +0.043 "
               "(p 0.0014), Presymp Euler +0.038 (p 0.0008), Presymp ExpEuler +0.066 (p 0.0001), Presymp "
               "AB2 +0.043 (p 0.0017, 5 seeds), Presymp ETD-AB2 +0.065 (p 0.0013, 3 seeds), so the "
               "some-scheme reading fails as the other two do. These seeds were added after looks at 3 "
               "and 4 seeds; the reading's fail needs every member to fail, an intersection of "
               "fails, which keeps its level at 0.05 with each member tested at 0.05 "
               "(intersection-union), so even a Bonferroni split over three looks (Holm's first step "
               "0.05/3/2 = 0.0083) leaves every member failing; the ledger's 0.05/5 is the "
               "conservative side. 7 Dec 2026, the rule as that argument gives it, no verdict changed: "
               "a member now fails at 0.05 (intersection-union) and holds at 0.05/5, and every level is "
               "spent over `deep`'s three planned looks (at 3, 4 and 5 paired seeds: claims._experiment.planned_looks); "
               "every member still fails (largest p 0.0017 against the 0.0083 of Holm's first step at "
               "0.05/3), while Presymp ETD-AB2 above the Baseline (p 0.043) is no longer decided, so the "
               "best-scheme reading fails on YuriiFormer alone. This fail rests on the intersection-union rule: "
               "with members failing at 0.05/5/3 instead (the looks alone), Presymp AB2 (p 0.00171 against "
               "Holm's first step 0.00167) would be undecided and the some-scheme reading inconclusive (an "
               "independent referee's recomputation from the result files, 7 Dec 2026)")
def symp_table_1(budget: str) -> Evidence:
    """Three readings of "the SympFormer outperforms the baseline and the Yuriiformer": Table 1's
    best scheme (Presymp ETD-AB2, printed 1.84 against the Baseline's 2.45), some scheme of the
    five (the paper's own Table 1 prints three below both rivals; one suffices), every scheme. Each
    scheme's comparison is decided on its own three arms of `deep` (an untrained scheme's is
    undecided and listed as missing). Beside it, `numbers['leak']`: what the global-Hamiltonian
    force, which the paper does not state it trains (`sympformer:causal-hamiltonian`, a premise),
    is worth under the causal mask at main's size: the leaky force, the same force made causal,
    and the Baseline, with the printed relative gain of ETD-AB2 over the Baseline for scale (a
    size the paper prints, compared, not decided)."""
    schemes = tuple(k for k in SYMP_TABLE_1_ROWS if k not in ("Baseline", "YuriiFormer"))
    best = SYMP_TABLE_1_BEST
    where = dict(protocol="sympformer Table 1", source="seed 000 §6-7, Table 1, best")
    corrected, per_scheme = some_scheme_members(SYMP_TABLE_1, SYMP_TABLE_1_ROWS, "deep", best, **where)
    verdicts = {s: e.verdict for s, e in per_scheme.items()}
    verdicts_corrected = {s: e.verdict for s, e in corrected.items()}
    # every scheme below both: it fails when one scheme fails (a union of fail tests: at 0.05/5)
    every = (False if "fails" in verdicts_corrected.values()
             else True if all(v == "holds" for v in verdicts.values()) else None)
    headline = per_scheme[best]
    base = Evidence(headline.verdict, headline.criterion, counterexample=headline.counterexample, readings=(
        *headline.readings, reading(symp_readings(best, schemes)[1].text, every, statuses=verdicts_corrected)),
        numbers=dict(headline.numbers, printed_full_table=SYMP_TABLE_1, leak=leak_evidence(),
                     scale_trend=scale_trend("sympformer:table-1"),
                     missing_runs=sorted({r for e in per_scheme.values() for r in e.numbers["missing_runs"]})))
    return with_some_scheme(base, corrected, per_scheme, SYMP_TABLE_1, 1, criterion=(
        "; each scheme is decided on its own arms; the some-scheme reading holds when one scheme holds at "
        "0.05/5 and fails when all five fail at 0.05, the every-scheme reading holds when all five hold at 0.05 "
        "and fails when one fails at 0.05/5 (a union of five tests at 0.05/5 keeps family-wise level 0.05, "
        "Bonferroni; an intersection keeps it with each at 0.05, intersection-union); both levels then spent "
        "over the looks"))


def leak_evidence() -> dict:
    """The leak of the printed force, measured: main-study runs of the causal and the leaky
    -grad H force and the Baseline over their paired seeds (sign-first differences), and the
    leak's relative gain beside the relative gain Table 1 prints for ETD-AB2 over the Baseline."""
    study = get_study("main")
    got = study.collect(list(LEAK_ROWS.values()))
    seeds = got.paired_seeds(LEAK_ROWS.values())
    printed_gain = (SYMP_TABLE_1["Baseline"] - SYMP_TABLE_1["Presymp ETD-AB2"]) / SYMP_TABLE_1["Baseline"]
    out = {"study": "main", "rows": LEAK_ROWS, "seeds": seeds, "missing_runs": got.missing,
           "diverged_runs": got.diverged,
           "printed_relative_gain_etd_ab2_over_baseline": printed_gain}
    if len(seeds) < 2:
        return out
    values = {k: [got.results[v][s]["val_loss_full"] for s in seeds] for k, v in LEAK_ROWS.items()}
    _, subs = sign_first({"leaky < causal": (values["leaky -grad H (as printed)"], values["causal -grad H"], "less"),
                          "causal < Baseline": (values["causal -grad H"], values["Baseline"], "less")})
    causal, leaky = statistics.mean(values["causal -grad H"]), statistics.mean(values["leaky -grad H (as printed)"])
    gain = (causal - leaky) / causal
    return out | {"val_loss_full": values, "comparisons": subs, "leak_relative_gain": gain,
                  "leak_reaches_printed_gain": gain >= printed_gain,
                  "reading": "the leak alone is worth a gain of the printed size when the causal force's "
                             "loss drops by at least the printed relative gain once the leak is allowed"}


SYMP_TABLE_2 = {"Baseline": 2.961427, "YuriiFormer": 2.765975, "plain Euler": 2.920602,
                "Presymp Euler": 2.731363}
# seed 000 §6.2: the linear-attention tables compare the baseline and YuriiFormer-Lie-Trotter with
# the same linear attention (`gd-lt-linear`, `nesterov-lt-linear`), not the softmax models
SYMP_LINEAR_ROWS = {"Baseline": "gd-lt-linear", "YuriiFormer": "nesterov-lt-linear",
                    "plain Euler": "symp-linear-plain-euler",
                    "Presymp Euler": "symp-linear-presymp-euler"}
SYMP_TABLE_2_ROWS = SYMP_LINEAR_ROWS


SYMP_TABLE_2_READINGS = symp_readings("Presymp Euler", ("plain Euler", "Presymp Euler"))


def symp_table_2_at(study: str) -> Evidence:
    """sympformer:table-2's sentence decided on the committed runs of `study` (one of App. B's
    protocol, `linear-appb`, or the proxy settings `linear` and `linear-slr100`)."""
    where = dict(protocol="sympformer Table 2", source="seed 000 §6, Table 2, best")
    ev = experiment_evidence(SYMP_TABLE_2, SYMP_TABLE_2_ROWS, study, readings=SYMP_TABLE_2_READINGS, **where)
    members = some_scheme_members(SYMP_TABLE_2, SYMP_TABLE_2_ROWS, study, "Presymp Euler", **where)
    return with_some_scheme(ev, *members, SYMP_TABLE_2, 2)


@claim("sympformer:table-2", locator="§6 (opening); §6.2, Table 2 (linear attention, smaller configuration)",
       statement="With linear attention (smaller configuration) the SympFormer reaches a lower "
                 "validation loss than the Baseline and YuriiFormer (decided at App. B's own Table 2 "
                 "protocol at its layer and width shape and token budget, the study linear-appb: 4 "
                 "layers, width 64, byte-level Shakespeare, 0.22M parameters against the paper's 3.42M; "
                 "plain Euler's member of the some-scheme reading on its confirmatory sample "
                 "linear-appb-confirm; the earlier settings are sensitivity rows)",
       method="experiment", expect="fails", figures=["ordering-table", "training-curves"],
       paper_text=SYMP_SENTENCE + "\n" + "Lastly, we also report results for the SympFormer with "
                  "linear attention in Tables 2 and 3.",
       referee="changed (26 Nov 2026), fails -> inconclusive: the fail was decided at a setting that "
               "departs from App. B's Table 2 protocol (peak lr 3e-3 for 3e-4, scalar multiplier 5x for "
               "100x, block 64 for 128, 32 sequences per step for 72), and issue 25 asks that a protocol "
               "affordable at the paper's layer and width shape decide; that study (linear-appb) is not yet "
               "trained. The proxy setting's fail (both readings, 5 seeds) stays as the sensitivity row "
               "`sensitivity.linear`, with its counterexample test. 7 Dec 2026, all 12 runs of "
               "linear-appb (3 seeds, its one look): the best-scheme and every-scheme readings fail "
               "(Presymp Euler above YuriiFormer, p 0.009); the some-scheme reading is undecided, as "
               "plain Euler's member is (above YuriiFormer, p 0.0275 against Holm's first step 0.025; "
               "not told from the Baseline, p 0.89). Rather than grow the plan until a look decides, "
               "the look is the exploration and plain Euler's member is decided on a "
               "confirmatory sample fixed before its runs (7 Dec 2026): linear-appb-confirm, its three "
               "arms at 4 fresh seeds (3-6), the smallest count at which the member fails with "
               "probability >= 0.9 if the explored differences are the truth (confirm_power: 0.943 at "
               "4, 0.611 at 3); undecided while one of its 12 runs is missing. 7 Dec 2026, inconclusive -> "
               "fails, all 12 runs of linear-appb-confirm (its one look): plain Euler ends above YuriiFormer "
               "(0.074 nats/byte, 95% CI 0.056-0.092, p 0.0010 at 4 seeds; not told from the Baseline, p "
               "0.31), so its member fails as Presymp Euler's does and every reading fails at proxy scale")
def symp_table_2(budget: str) -> Evidence:
    """Decided on `linear-appb` (App. B's Table 2 protocol: block 128, 72 sequences per step,
    10000 steps, peak lr 3e-4, scalars at 100x). `numbers['sensitivity']` holds the same sentence
    decided at the settings the ledger used first: `linear` (lr 3e-3, scalars at 5x, App. B's
    general text) and `linear-slr100` (the same at 100x); they inform, never decide. Plain Euler's
    member of the some-scheme reading is decided on its confirmatory sample (`CONFIRMATORY`,
    `numbers['confirmatory_samples']`), once all of its seeds are committed."""
    ev = symp_table_2_at("linear-appb")
    sensitivity = {}
    for name in ("linear", "linear-slr100"):
        side = symp_table_2_at(name)
        sensitivity[name] = {"verdict_at_this_setting": side.verdict, "readings": list(side.readings),
                             "counterexample": side.counterexample, **{
                                 k: side.numbers.get(k) for k in ("n_seeds", "seeds", "measured", "sub_assertions",
                                                                  "table_agreement", "deviations", "missing_runs",
                                                                  "flatness")}}
    return Evidence(ev.verdict, criterion=ev.criterion + "; the settings of `sensitivity` inform, never decide",
                    numbers=dict(ev.numbers, sensitivity=sensitivity, confirmatory_samples=confirmatory_samples("linear-appb")),
                    counterexample=ev.counterexample,
                    correction=ev.correction, readings=ev.readings, ambiguity=ev.ambiguity)


SYMP_TABLE_3 = {"Baseline": 2.917168, "YuriiFormer": 2.765023, "plain Euler": 2.656692,
                "Presymp Euler": 2.690885}
# App. B, Table 3: "a look-ahead step for the presymplectic discretizations"
SYMP_TABLE_3_ROWS = SYMP_LINEAR_ROWS | {"Presymp Euler": "symp-linear-presymp-euler-lookahead"}


# A member of a some-scheme reading left undecided at its study's last look is decided on a
# confirmatory sample, never on seeds added to a plan whose last look is done (`claims._experiment`):
# {(explored study, scheme): the sample}, each sized before its runs by `confirm_power`
# (`particles.lm.studies`). 7 Dec 2026: plain Euler above YuriiFormer, p 0.0275 at linear-appb's one
# look (Holm's first step 0.025), p 0.0115 at deep-linear's last of three (0.0083)
CONFIRMATORY = {("linear-appb", "plain Euler"): "linear-appb-confirm",
                ("deep-linear", "plain Euler"): "deep-linear-confirm"}
EXPLORED_ROWS = {"linear-appb": SYMP_TABLE_2_ROWS, "deep-linear": SYMP_TABLE_3_ROWS}


@lru_cache(maxsize=16)
def confirm_power(n: int, explored: str, scheme: str, draws: int = 1000, seed: int = 0) -> float:
    """The probability that `scheme`'s member of a some-scheme reading fails (one of its two
    sub-assertions, Holm at 0.05, the level a member fails at in its sample's one look) at `n` fresh
    paired seeds, if the differences explored on study `explored` are the truth
    (`claims._stats.fail_power`: Monte Carlo from their mean and covariance)."""
    rows = {k: EXPLORED_ROWS[explored][k] for k in ("Baseline", "YuriiFormer", scheme)}
    got = get_study(explored).collect(list(rows.values()))
    seeds = got.paired_seeds(rows.values())
    loss = {k: np.asarray([got.results[v][s]["val_loss_full"] for s in seeds]) for k, v in rows.items()}
    names = {f"{scheme} < {o}": o for o in ("Baseline", "YuriiFormer")}
    return fail_power({k: list(loss[scheme] - loss[o]) for k, o in names.items()}, n,
                      {k: float(loss[scheme].mean() + loss[o].mean()) / 2 for k, o in names.items()},
                      draws=draws, seed=seed)


def confirmatory_samples(explored: str) -> list[dict]:
    """The record of each confirmatory sample of a member explored on `explored`: its planned and
    committed seeds, the exploration's, and the power at its size and one seed fewer."""
    out = []
    for (study, scheme), name in CONFIRMATORY.items():
        if study != explored:
            continue
        sample, rows = get_study(name), [EXPLORED_ROWS[study][k] for k in ("Baseline", "YuriiFormer", scheme)]
        n = len(sample.seeds)
        out.append({"member": scheme, "study": name, "planned_seeds": list(sample.seeds),
                    "committed_seeds": sample.collect(rows).paired_seeds(rows), "explored_on": study,
                    "explored_seeds": get_study(study).collect(rows).paired_seeds(rows),
                    "confirm_power": {"target": CONFIRM_POWER,
                                      "by_n_seeds": {k: confirm_power(k, study, scheme) for k in (n - 1, n)}},
                    "rule": "sized before its runs as the smallest number of fresh seeds at which the member "
                            f"fails with probability >= {CONFIRM_POWER} if the explored differences are the "
                            "truth; decided once (one look), when none of its planned runs is missing (a diverged "
                            "run's seed drops out), on one device kind (claims._experiment.confirmatory_wait); the "
                            "exploration's comparisons are shown under the every-scheme reading and decide that "
                            "member nothing"})
    return out


@claim("sympformer:table-3", locator="§6 (opening); §6.2, Table 3 (linear attention, larger configuration)",
       statement="With linear attention (larger configuration) the SympFormer reaches a lower "
                 "validation loss than the Baseline and YuriiFormer (proxy: the deep-linear study, "
                 "8 layers, width 64, App. B's Table 3 h_0, scalar rate and look-ahead; at 10x "
                 "App. B's peak learning rate, 3e-3 against 3e-4, 1/16 of its context, 64 against "
                 "1024, and batch 32 against 72)",
       method="experiment", expect="inconclusive", figures=["ordering-table", "training-curves"],
       paper_text=SYMP_SENTENCE + "\n" + "Lastly, we also report results for the SympFormer with "
                  "linear attention in Tables 2 and 3.",
       referee="decided 26 Nov 2026 at 3 paired seeds, at proxy scale (8 layers, width 64, bytes, "
               "12000 steps; App. B's Table 3 h_0 = 0.3, scalars at 100x and look-ahead): both schemes "
               "end above YuriiFormer (plain Euler by 0.061, 95% CI [0.027, 0.094]; Presymp Euler by "
               "0.053 [0.035, 0.070]) and neither is told from the Baseline (plain Euler +0.007 "
               "[-0.015, 0.029], Presymp Euler -0.001 [-0.018, 0.016]), so the best-scheme and the "
               "every-scheme readings both fail. Changed 27 Nov 2026, fails -> inconclusive: the same "
               "sentence is read the same three ways in Tables 1-3, and the referee's some-scheme "
               "reading of Table 1 ('the SympFormer' as the family, one scheme suffices) was missing "
               "here. Each scheme decided at 0.05/2 (Bonferroni over the two): Presymp Euler fails "
               "(above YuriiFormer, p 0.0057), plain Euler is undecided (above YuriiFormer, p 0.016 "
               "against the 0.0125 its first Holm step needs; about 4 seeds would decide), so that "
               "reading, and the claim, wait for seeds 3-4 of deep-linear's Baseline, YuriiFormer and "
               "plain Euler (studies.PLAN). Changed 27 Nov 2026 (later), after an independent referee: the "
               "best-scheme reading decided plain Euler vs YuriiFormer on the seeds all four arms share "
               "(0-2: p 0.016, fails) while the some-scheme reading used the seeds its arms share (0-3: "
               "p 0.042, undecided); every comparison is now decided on its own arms' shared seeds, so "
               "at seed 3 the best-scheme reading is undecided as well, the every-scheme reading fails "
               "through Presymp Euler, and the claim stays inconclusive. Changed 28 Nov 2026, "
               "inconclusive -> fails at proxy scale: at seed 4 (5 paired seeds) plain Euler ends above "
               "YuriiFormer by 0.048 (95% CI [0.018, 0.078], p 0.0115 against the 0.0125 of its first "
               "Holm step at 0.05/2), so both members, and every reading, fail. This fail is the "
               "fragile one: plain Euler's seeds 3-4 were added after looks at 3 and 4 seeds; an "
               "intersection of fails keeps level 0.05 with each member at 0.05 (first step 0.025), "
               "but a Bonferroni split over its three looks (0.05/3/2 = 0.0083) would leave plain "
               "Euler undecided and the claim inconclusive; the ledger's rule has no look correction "
               "yet (a proposal of the closing note of 28 Nov 2026). Changed 7 Dec 2026, fails at proxy "
               "scale -> inconclusive, by that correction, now the ledger's rule for every experiment "
               "(claims._experiment.planned_looks): each level is spent over the looks a comparison's plan "
               "allows, three for `deep-linear`'s five planned seeds. Plain Euler above YuriiFormer (p "
               "0.0115 at 5 seeds) is undecided at Holm's first step 0.05/3/2 = 0.0083 and cannot be "
               "decided within the plan; Presymp Euler above YuriiFormer (p 0.0057 at 3 seeds) fails as a "
               "member (0.05/3/2, intersection-union) but not inside the every-scheme reading's "
               "Holm family of four (0.0042); its seeds 3-4 (studies.PLAN) would decide the every-scheme "
               "reading, not the some-scheme one, so the claim is undecided at proxy scale. 7 Dec 2026 "
               "(later): that member is decided on a confirmatory sample fixed before its runs, as Table "
               "2's is: deep-linear-confirm, its three arms at 6 fresh seeds (5-10), the smallest count "
               "at which it fails with probability >= 0.9 if deep-linear's differences are the truth "
               "(confirm_power: 0.906 at 6, 0.767 at 5); undecided while one of its 18 runs is missing")
def symp_table_3(budget: str) -> Evidence:
    """Decided on `deep-linear` (8 layers, App. B's Table 3 h_0, scalar rate and look-ahead), plain
    Euler's member of the some-scheme reading on its confirmatory sample (`CONFIRMATORY`,
    `numbers['confirmatory_samples']`), once all of its seeds are committed."""
    where = dict(protocol="sympformer Table 3", source="seed 000 §6, Table 3, best")
    ev = experiment_evidence(SYMP_TABLE_3, SYMP_TABLE_3_ROWS, "deep-linear",
                             readings=symp_readings("plain Euler", ("plain Euler", "Presymp Euler")), **where)
    members = some_scheme_members(SYMP_TABLE_3, SYMP_TABLE_3_ROWS, "deep-linear", "plain Euler", **where)
    ev = with_some_scheme(ev, *members, SYMP_TABLE_3, 3)
    return dataclasses.replace(ev, numbers=dict(ev.numbers, confirmatory_samples=confirmatory_samples("deep-linear")))


# ------------------------------------------------ seed 000 §5.2 and §6: the causal decoder's force

@claim("sympformer:causal-hamiltonian", locator="§5.2 eqs. (34)-(35); §6 (causal decoder); Algorithm 1",
       statement="(unstated premise) a causal decoder of the accelerated softmax layer could take its "
                 "force as -grad_X of the Hamiltonian (35) with the causal mask applied to M",
       method="property", expect="holds-with-correction", premise=True,
       paper_text=r"Consider the conservative part of (34), i.e., (34) without the term "
                  r"$\alpha(t)\mathbf{Y}(t)$. A Hamiltonian for the system is $$H^{\operatorname{SM}}"
                  r"\colon\operatorname{\mathbb{R}}^{N\times d}\times\operatorname{\mathbb{R}}^{N\times d}"
                  r"\to\operatorname{\mathbb{R}},\quad(\mathbf{X},\mathbf{Y})\mapsto\frac{N}{2}"
                  r"\operatorname{tr}(\operatorname{diag}(\mathbf{M}\operatorname{\mathds{1}})^{-1}\mathbf{Y}"
                  r"B^{\mathrm{T}}\mathbf{Y}^{\mathrm{T}})-\frac{N}{2}\operatorname{\mathds{1}}^{\mathrm{T}}"
                  r"\mathbf{M}\operatorname{\mathds{1}}. (35)$$ [§6] The goal of the decoder-only causal "
                  r"nanoGTP-style transformer is to predict the next token. [Algorithm 1] evaluate oracles  "
                  r"$F$  and  $G$  (right hand side in (34) or (28))",
       referee="changed (was counted as an erratum): the paper never says how the causal mask enters "
               "(34) or (35), and never computes the force as a gradient of (35): Algorithm 1 "
               "evaluates the right-hand side of (34), which with a row mask is causal (checked "
               "below) and equals -grad_X H unmasked. The leak appears only for a force obtained by "
               "differentiating a masked (35), a route an implementer might take; so this is an "
               "unstated premise (a warning), not the paper's error")
def symp_causal_hamiltonian(budget: str) -> Evidence:
    g = torch.Generator().manual_seed(3)
    N, d = 8, 4
    x, y = torch.randn(N, d, generator=g, dtype=F64), torch.randn(N, d, generator=g, dtype=F64)
    a = torch.randn(d, d, generator=g, dtype=F64) * 0.3
    b = torch.randn(d, d, generator=g, dtype=F64)
    A, B = (a + a.T) / 2, (b + b.T) / 2
    # the masked Hamiltonian's gradient is computed by autograd inside (it detaches x): measured by
    # perturbation; the row-masked force (34) by its Jacobian blocks. Token axis 0, no batch.
    printed = against_causal_reference(causal_dependence(
        lambda z: hamiltonian_oracle_G(z, y, A, B, True), x, dim=0, method="perturbation"))
    clean = against_causal_reference(causal_dependence(
        lambda z: explicit_force_G(z, y, A, B, True), x, dim=0))
    unmasked = (hamiltonian_oracle_G(x, y, A, B, False) - explicit_force_G(x, y, A, B, False)).abs().max()
    scale = explicit_force_G(x, y, A, B, False).abs().max()
    models = {n: model_dependence(n) for n in VARIANTS if n.startswith("symp-") and n not in NON_CAUSAL}
    # the model whose force differentiates the masked (35) (built to leak, particles.lm.variants)
    leaky = {n: model_dependence(n) for n in sorted(NON_CAUSAL) if n.startswith("symp-")}
    corrected_ok = (clean["support_is_lower_triangle"] and unmasked.item() < 1e-10 * scale.item()
                    and all(m["support_is_lower_triangle"] for m in models.values()))
    readings = [reading("the force of the causal decoder taken as -grad_X of (35) with the causal "
                        "mask applied to M (M_ij = 0 for j > i)", printed["causal"],
                        max_dependence_on_later_tokens=printed["max_dependence_on_later"],
                        models_with_that_force={n: m["causal"] for n, m in leaky.items()})]
    return decide_readings(readings, corrected_ok,
                    criterion="causal iff the dependence map of the force on the tokens "
                              "(particles.verify.causal_dependence, float64) is exactly zero on "
                              "every pair s > t of the independent reference, and non-zero on "
                              "every s <= t (support = lower triangle); the correction must have "
                              "that support, equal -grad H without the mask (1e-10 relative), and "
                              "keep every SympFormer model's token dependence map on it",
                    numbers={"masked_hamiltonian_gradient": printed, "row_masked_force": clean,
                             "unmasked_agreement_abs": unmasked.item(), "force_scale": scale.item(),
                             "sympformer_models": models, "masked_hamiltonian_gradient_models": leaky},
                    counterexample={"N": N, "d": d, "max_dependence_on_later_tokens":
                                    printed["max_dependence_on_later"]},
                    correction="Differentiating the causally masked global Hamiltonian makes token i "
                               "feel later tokens through their keys; the training path uses the "
                               "row-masked explicit force of (34) (mean-field form of (33)), which is "
                               "causal and equals -grad_X H when unmasked")


# ------------------------------------------------------------- seed 000 §6: the wall-time sentence

@claim("sympformer:wall-clock", locator="§6, Table 1",
       statement="the SympFormer variants (softmax attention) cost more wall time per iteration than "
                 "the baseline transformer and YuriiFormer (decided at Table 1's 8L/8H/64, block 512 by "
                 "a GPU measurement at that size, else the validated cost model's H100 band)",
       method="experiment", expect="holds", figures=["cost-model", "bench-training"],
       paper_text=SYMP_SENTENCE)
def sympformer_wall_clock(budget: str) -> Evidence:
    """Each of Table 1's five SympFormer rows costs more per iteration (ratio > 1) than the
    Baseline; second reading: than both the Baseline and YuriiFormer-Lie-Trotter."""
    base = {f"{v} above Baseline": (v, "gd-lt", 1.0, None) for v in SYMPFORMER_SOFTMAX}
    yurii = {f"{v} above YuriiFormer": (v, "nesterov-lt", 1.0, None) for v in SYMPFORMER_SOFTMAX}
    t1 = PAPER_000_TABLE_1_SECONDS
    return timing_evidence(budget, "sympformer", {"higher than the Baseline": base,
                                          "higher than the Baseline and YuriiFormer": base | yurii},
                           criterion=BAND, extra={"paper_table_1_ratio": {k: v / t1["gd-lt"] for k, v in t1.items()}})

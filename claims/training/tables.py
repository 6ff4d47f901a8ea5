"""Claims of the training path (`particles.lm`) decided by trained models: what the papers'
sentences assert about their loss tables, read from the committed studies
(`particles.lm.studies`, results/lm/). No check trains: a run that is not committed is listed as
missing, one whose configuration differs from its study's as stale, and the claim decides from
the valid runs or says it cannot.

(Counts, containments, oracle calls and causality need no training: `claims.training.structure`.)

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
(`claims.decide_readings`).

Our loss per run is the final model's next-byte loss on the whole validation split
(`val_loss_full`; the schedule decays to the last step). Every verdict states its proxy scale
(`scale`) and every setting that differs from the paper's stated protocol (`deviations`,
generated from the run configuration and `claims._protocol`), and the flatness of every arm's
learning curve (`flatness`: the last-20% drop per arm and seed; arms above the rule are named).
A study whose baseline has not learned (`learned`) decides nothing. Fewer than `MIN_SEEDS`
paired seeds decide nothing.

With `claims.settings.recompute` (`python -m claims|figures --recompute`) a check first retrains
every run of its arms into results/lm/ (hours on a CPU: docs/training.md), then reads.
"""
from __future__ import annotations

import math
import statistics

from claims import Evidence, claim, decide_readings, reading
from claims.momentum_streams import consistency as ms_consistency
from claims.yurii import tables as yurii_tables
from claims._experiment import (FLAT_DROP, FLAT_TAIL, LEARNED_FRACTION, MIN_SEEDS, SCALE_TREND,  # noqa: F401
                                Reading, experiment_evidence, flatness, learned, not_learned,
                                scale_trend, with_scale_trend)
from claims._protocol import collected_runs, deviations, get_protocol, run_hardware
from claims._stats import ALPHA, sign_first
from particles.lm.studies import get_study


# ------------------------------------------------------------------ seed 004 (YuriiFormer)

# the printed tables are transcribed once, in the consistency modules; the Best column here
YURII_TABLE_2 = {row: float(best) for row, (best, *_) in yurii_tables.TABLE_2.items()}
YURII_ROWS = {"GD+Euler": "gd-euler", "Polyak+Euler": "polyak-euler", "Nesterov+Euler": "nesterov-euler",
              "GD+Lie-Trotter": "gd-lt", "Polyak+Lie-Trotter": "polyak-lt",
              "Nesterov+Lie-Trotter": "nesterov-lt"}
NLT = "Nesterov+Lie-Trotter"


@claim("yurii:table-2", locator="§5.2 (TinyStories paragraph); Table 2",
       statement="Nesterov+Lie-Trotter reaches the lowest validation loss of the six GD/Polyak/"
                 "Nesterov x Euler/Lie-Trotter blocks (proxy: the main study, 4 layers, width 64, "
                 "byte-level Shakespeare)",
       method="experiment", expect="inconclusive", figures=["ordering-table", "training-curves"],
       paper_text="Nesterov+Lie–Trotter achieves the lowest validation loss; Table 2 lists best and "
                  "final losses.",
       referee="changed, fails -> inconclusive (issue 25): the claim was the whole printed "
               "ordering and failed only on Polyak+Euler vs Nesterov+Euler (printed 1.099 vs 1.101), "
               "a pair the paper never asserts (its §5.4 prose even ranks them the other way); it is "
               "now the sentence's own five comparisons on sign: four hold, Nesterov+LT vs "
               "Polyak+LT is undecided at 5 seeds")
def yurii_table_2(budget: str) -> Evidence:
    return with_scale_trend("yurii:table-2", experiment_evidence(
        YURII_TABLE_2, YURII_ROWS, "main", protocol="yurii TinyStories",
        source="seed 004 §5.2 and Table 2, Best", readings=[Reading(
            "lower than each of the other five blocks",
            tuple((NLT, other, "less") for other in YURII_TABLE_2 if other != NLT))]))


@claim("yurii:lie-trotter-text", locator="§5.4 (Discussion)",
       statement="Lie-Trotter splitting outperforms Euler discretization for each of GD, Polyak and "
                 "Nesterov (proxy: the main study)",
       method="experiment", expect="holds", figures=["training-curves"],
       paper_text="We observe that Lie-Trotter splitting consistently outperforms Euler "
                  "discretization. This superiority is less pronounced for OWT than for TinyStories.")
def yurii_lie_trotter_text(budget: str) -> Evidence:
    """The sentence's three comparisons, one per momentum scheme of Table 2 (the OWT clause needs
    a second corpus: not checked)."""
    pairs = (("GD+Lie-Trotter", "GD+Euler"), ("Polyak+Lie-Trotter", "Polyak+Euler"), (NLT, "Nesterov+Euler"))
    return experiment_evidence(YURII_TABLE_2, YURII_ROWS, "main", protocol="yurii TinyStories",
                               source="seed 004 §5.4; Table 2", readings=[Reading(
                                   "Lie-Trotter below Euler for each scheme",
                                   tuple((a, b, "less") for a, b in pairs))])


YURII_TABLE_5 = YURII_TABLE_2 | {row: float(best) for panel in (yurii_tables.TABLE_5_STANDARD,
                                                               yurii_tables.TABLE_5_EXTRA)
                                 for row, (best, *_) in panel.items()}
YURII_TABLE_5_ROWS = YURII_ROWS | {
    "Hamiltonian (symplectic Euler)": "hamiltonian", "IMEX k=1 (MAM)": "imex-k1-ma",
    "IMEX k=1 (AMA)": "imex-k1-am", "IMEX+LN_v k=1 (MAM)": "imex-lnv-k1-ma",
    "IMEX+LN_v k=1 (AMA)": "imex-lnv-k1-am", "PRK-Verlet (MAM)": "prk-verlet-mam",
    "PRK-Verlet (AMA)": "prk-verlet-ama", "IMEX k=2 (MAM)": "imex-k2-ma", "IMEX k=2 (AMA)": "imex-k2-am",
    "IMEX+LN_v k=2 (MAM)": "imex-lnv-k2-ma", "IMEX+LN_v k=2 (AMA)": "imex-lnv-k2-am"}
# seed 004 Table 5's panels: standard compute (1 Attn + 1 MLP per block) and the rest
STANDARD_COMPUTE = (*YURII_TABLE_2,
                    *(row for row in yurii_tables.TABLE_5_STANDARD if row not in YURII_TABLE_2))
EXTRA_COMPUTE = tuple(yurii_tables.TABLE_5_EXTRA)


@claim("yurii:table-5", locator="§6 (Additional architectures); Appendix B.3, Table 5",
       statement="Among the one-attention/one-MLP update rules Nesterov+Lie-Trotter is tied for "
                 "best, and a rule with extra oracle calls reaches a lower loss (proxy: the main study)",
       method="experiment", expect="inconclusive", figures=["ordering-table", "training-curves"],
       paper_text="On TinyStories (small), under a matched budget of one attention and one MLP oracle "
                  "call per block, Nesterov+Lie–Trotter is tied for best among the one-attention/"
                  "one-MLP variants. Variants that use additional attention/MLP oracle calls per block "
                  "can achieve lower losses at higher compute.",
       referee="changed, fails -> inconclusive (issue 25): the claim was the whole 17-row printed "
               "ordering and failed on PRK-Verlet (MAM) vs Nesterov+LT, a printed gap of 0.001 the "
               "text does not assert; "
               "it is now the two sentences: a tie for best (non-inferiority within 0.1% against "
               "each of the other nine standard-compute rules) and 'can achieve lower' (at least "
               "one of the six extra-compute rules below Nesterov+LT)")
def yurii_table_5(budget: str) -> Evidence:
    """Two readings of 'can achieve lower losses': some extra-compute rule is below Nesterov+LT
    (existential: each of the six tested, the sentence holds if one is below), or every one is.
    Both share the tie-for-best sub-assertions."""
    tie = tuple((NLT, other, "not-worse") for other in STANDARD_COMPUTE if other != NLT)
    # the existential reading is the union over the six members: each at 0.05/6 (Bonferroni)
    ev_some = [experiment_evidence(YURII_TABLE_5, YURII_TABLE_5_ROWS, "main", protocol="yurii TinyStories",
                                   source="seed 004 §6, Table 5, Best", alpha=ALPHA / len(EXTRA_COMPUTE),
                                   readings=[Reading(f"tied for best; {x} below Nesterov+Lie-Trotter",
                                                     tie + ((x, NLT, "less"),))])
               for x in EXTRA_COMPUTE]
    every = experiment_evidence(YURII_TABLE_5, YURII_TABLE_5_ROWS, "main", protocol="yurii TinyStories",
                                source="seed 004 §6, Table 5, Best", readings=[Reading(
                                    "tied for best; every extra-compute rule below Nesterov+Lie-Trotter",
                                    tie + tuple((x, NLT, "less") for x in EXTRA_COMPUTE))])
    return _existential(ev_some, every, "tied for best, and some extra-compute rule is below "
                                        "Nesterov+Lie-Trotter (one of the six suffices; each decided at "
                                        "family-wise level 0.05/6, Bonferroni over the six)")


def _one_suffices(verdicts) -> bool | None:
    """An existential reading from its members' verdicts: holds when one holds, fails when all
    fail, else undecided."""
    verdicts = list(verdicts)
    return True if "holds" in verdicts else False if all(v == "fails" for v in verdicts) else None


def _existential(some: list[Evidence], every: Evidence, text: str) -> Evidence:
    """Combine 'one of these suffices' evidences into one reading beside `every`'s: it holds when
    one of `some` holds, fails when all fail, else is undecided."""
    holds = _one_suffices([e.verdict for e in some])
    first = some[0]
    if "sub_assertions" not in first.numbers:  # not decidable yet: the same numbers for all
        return Evidence(every.verdict, criterion=every.criterion, numbers=every.numbers,
                        readings=(reading(text, None), *every.readings))
    numbers = dict(every.numbers, sub_assertions={**every.numbers["sub_assertions"], **{
        e.readings[0]["reading"]: e.numbers["sub_assertions"][e.readings[0]["reading"]] for e in some}})
    rds = [reading(text, holds, statuses={e.readings[0]["reading"]: e.verdict for e in some}),
           *every.readings]
    counter = {k: v for e in (*some, every) for k, v in (e.counterexample or {}).items()}
    return decide_readings(rds, criterion=every.criterion, numbers=numbers, counterexample=counter or None,
                           ambiguity="the readings of 'can achieve lower losses' disagree: " + "; ".join(
                               f"{r['reading']} -> {r['verdict']}" for r in rds))


# ------------------------------------------------------------------ seed 002 (momentum streams)

MS_TABLE_1 = {("VanillaTransformer" if row == "Vanilla" else row): float(ts)
              for row, (ts, *_) in ms_consistency.TABLE_1.items()}
MS_TABLE_1_ROWS = {"VanillaTransformer": "gd-lt", "AdamFormer": "adam", "AdamWFormer": "adamw",
                   "YuriiFormer": "yurii", "TMMFormer": "tmm"}


@claim("momentum_streams:table-1", locator="§4.2 Main Results; Table 1 (TS column)",
       statement="TMMFormer reaches the lowest validation loss of the main comparison, below "
                 "Vanilla, AdamFormer, AdamWFormer and YuriiFormer (proxy: the main study, "
                 "TinyStories column's assertion on byte-level Shakespeare)",
       method="experiment", expect="inconclusive", figures=["ordering-table", "training-curves"],
       referee="changed, fails -> inconclusive (issue 25): the fail rested on printed relative gaps "
               "of a 124M-parameter BPE model carried to our byte-level scale as claimed sizes; on "
               "sign, TMMFormer is below Vanilla and the three other comparisons are undecided",
       paper_text="TMMFormer gives the best validation loss in our main comparison (Table 4.2, "
                  "Figure 1): it attains the lowest validation loss on both corpora (1.1284 TS, "
                  "2.9342 OWT) [...] Among the rows reported in Table 4.2, it is best in every "
                  "column, and in particular surpasses YuriiFormer (Zimin et al., 2026), the prior "
                  "momentum-stream architecture that it generalizes")
def ms_table_1(budget: str) -> Evidence:
    return with_scale_trend("momentum_streams:table-1", experiment_evidence(
        MS_TABLE_1, MS_TABLE_1_ROWS, "main", protocol="momentum_streams TinyStories",
        source="seed 002 §4.2, Table 1 (TS)", readings=[Reading(
            "TMMFormer below each other row",
            tuple(("TMMFormer", other, "less") for other in MS_TABLE_1 if other != "TMMFormer"))]))


MS_TABLE_2 = {row: float(owt) for row, owt in ms_consistency.TABLE_2.items()}
MS_TABLE_2_ROWS = {"Vanilla": "gd-lt", "RMSProp": "rmsprop", "Ortho": "ortho", "HB": "hb",
                   "AdamFormer": "adam", "Muon": "muon"}
_MS_TABLE_2_COMMON = (("HB", "Vanilla", "less"),           # "improves ... from 3.008 to 2.945"
                      ("Vanilla", "RMSProp", "less"),      # "RMSPropFormer is slightly worse than Vanilla"
                      ("HB", "AdamFormer", "less"), ("HB", "Muon", "less"),  # "both worse than ... HBFormer"
                      ("AdamFormer", "RMSProp", "less"), ("Muon", "Ortho", "less"))  # "each momentum row beats ..."


@claim("momentum_streams:table-2", locator="§5.1-5.2; Table 2 (momentum x preconditioning, OWT)",
       statement="Momentum helps in every preconditioning column, heavy ball alone beats Vanilla and "
                 "both preconditioned momentum rows, preconditioning without momentum is worse than "
                 "Vanilla (proxy: the main study, the OWT table's assertions on byte-level Shakespeare)",
       method="experiment", expect="fails", figures=["ordering-table", "training-curves"],
       paper_text="Adding only a heavy-ball momentum stream improves OpenWebText validation loss from "
                  "3.008 to 2.945. [...] Without momentum, RMSPropFormer is slightly worse than Vanilla "
                  "(3.015 versus 3.008) and OrthoFormer worse still (3.033). With momentum, AdamFormer "
                  "(2.991) and MuonFormer (3.010) are both worse than the plain heavy-ball HBFormer "
                  "(2.945), so in these runs the preconditioned momentum variants underperform the "
                  "unpreconditioned momentum variant. The momentum effect, by contrast, holds in every "
                  "column—each momentum row beats its no-momentum counterpart.",
       referee="changed basis, verdict kept (issue 25): the old fail came from printed gaps of "
               "0.002 and 0.005 that the text never states; the claim is now the sentences' seven "
               "comparisons on sign, 'OrthoFormer worse still' read two ways. It still fails under "
               "both readings, on a sentence the text does state: RMSPropFormer is below Vanilla at "
               "proxy scale, not 'slightly worse' (5 seeds, CI excludes 0); HB below Vanilla and "
               "Muon, and momentum helping in every column, hold")
def ms_table_2(budget: str) -> Evidence:
    return experiment_evidence(MS_TABLE_2, MS_TABLE_2_ROWS, "main", protocol="momentum_streams OpenWebText",
                               source="seed 002 §5.1-5.2, Table 2 (OWT)", readings=[
                                   Reading("'OrthoFormer worse still': worse than RMSPropFormer",
                                           _MS_TABLE_2_COMMON + (("RMSProp", "Ortho", "less"),)),
                                   Reading("'OrthoFormer worse still': worse than Vanilla",
                                           _MS_TABLE_2_COMMON + (("Vanilla", "Ortho", "less"),))])


MS_PRECOND_TEXT = {"TMMFormer": 1.1284, "YuriiFormer": 1.1317, "SOAPFormer": 1.1431,
                   "MuonFormer": 1.1503}  # HBFormer: no TS value printed
MS_PRECOND_TEXT_ROWS = {"TMMFormer": "tmm", "YuriiFormer": "yurii", "SOAPFormer": "soap",
                        "MuonFormer": "muon", "HBFormer": "hb"}


@claim("momentum_streams:muon-soap-text", locator="§4.2 Main Results; Appendix D.7 (TS values)",
       statement="MuonFormer and SOAPFormer converge but trail every momentum-stream design "
                 "(TinyStories; proxy: the main study)",
       method="experiment", expect="inconclusive", figures=["ordering-table", "training-curves"],
       referee="changed, fails -> inconclusive (issue 25): the fail rested on the printed gaps "
               "carried to our scale as claimed sizes; on sign MuonFormer trails every design as "
               "printed, SOAPFormer's differences are undecided (it ties them within a CI of "
               "+-0.009 nats at 5 seeds)",
       paper_text="Among the preconditioned variants, MuonFormer and SOAPFormer converge but trail "
                  "every momentum-stream design—best TinyStories validation loss 1.1503 (Muon) and "
                  "1.1431 (SOAP), and on OpenWebText MuonFormer reaches only 3.0096, no better than "
                  "the vanilla stream—consistent with preconditioning being a weak inductive bias for "
                  "the residual stream (Section 5).")
def ms_muon_soap_text(budget: str) -> Evidence:
    """The sentence's TinyStories comparisons: each of MuonFormer and SOAPFormer above each
    momentum-stream design. Its OpenWebText clause (MuonFormer "no better than the vanilla
    stream") is not carried to our corpus: on TinyStories, the corpus our small pinned one stands
    in for, the paper's own numbers put MuonFormer below Vanilla (1.1503 < 1.1569).
    'Momentum-stream design' is read two ways: the two of the main comparison (TMMFormer,
    YuriiFormer), or also §5's HBFormer. "Converge" is checked as training: every seed's
    full-split loss at least 1 nat below the byte-uniform ln 256; a preconditioned arm that does
    not train fails the claim. (App. B.2 says 'SOAPFormer fails to converge' while §4.2 and D.7
    report it converging on TS: a consistency item of the inventory.)"""
    def subs(designs):
        return tuple((m, p, "less") for p in ("SOAPFormer", "MuonFormer") for m in designs)
    ev = experiment_evidence(MS_PRECOND_TEXT, MS_PRECOND_TEXT_ROWS, "main",
                             protocol="momentum_streams TinyStories",
                             source="seed 002 §4.2 / D.7, TS column",
                             readings=[Reading("momentum-stream designs: TMMFormer and YuriiFormer",
                                               subs(("TMMFormer", "YuriiFormer"))),
                                       Reading("momentum-stream designs: TMMFormer, YuriiFormer and HBFormer",
                                               subs(("TMMFormer", "YuriiFormer", "HBFormer")))])
    omitted = ("; the OpenWebText clause (MuonFormer 'no better than the vanilla stream') is not carried "
               "to our corpus: on TinyStories, which ours stands in for, the paper's own numbers put "
               "MuonFormer below Vanilla (1.1503 < 1.1569)")
    if "measured" not in ev.numbers:
        return Evidence(ev.verdict, ev.criterion + omitted, ev.numbers, ev.counterexample, ev.correction,
                        ev.readings, ev.ambiguity)
    converges = {label: all(v < math.log(256) - 1.0 for v in ev.numbers["measured"][label]["values"])
                 for label in ("SOAPFormer", "MuonFormer")}
    if all(converges.values()):
        return Evidence(ev.verdict, ev.criterion + "; and both preconditioned arms train (every seed's "
                        "loss < ln 256 - 1 nat)" + omitted, dict(ev.numbers, converges=converges),
                        ev.counterexample, ev.correction, ev.readings, ev.ambiguity)
    not_training = {f"{label} does not train": True for label, ok in converges.items() if not ok}
    rds = [dict(r, verdict="fails") for r in ev.readings]
    return Evidence("fails", ev.criterion + "; and both preconditioned arms train" + omitted, dict(
        ev.numbers, converges=converges), (ev.counterexample or {}) | not_training, readings=rds)


# ------------------------------------------------------------------ seed 000 (SympFormer)

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


def symp_table_1_scheme(scheme: str, alpha: float = ALPHA) -> Evidence:
    """sympformer:table-1's sentence for one scheme of Table 1: `scheme` below the Baseline and
    YuriiFormer, on its own three arms of `deep` (the headline reading when it is Table 1's best),
    at family-wise level `alpha` (0.05/5 as a member of the some-scheme reading)."""
    schemes = tuple(k for k in SYMP_TABLE_1_ROWS if k not in ("Baseline", "YuriiFormer"))
    text = (symp_readings(SYMP_TABLE_1_BEST, schemes)[0].text if scheme == SYMP_TABLE_1_BEST
            else f"{scheme} below Baseline and YuriiFormer")
    rows = {k: SYMP_TABLE_1_ROWS[k] for k in ("Baseline", "YuriiFormer", scheme)}
    return experiment_evidence({k: SYMP_TABLE_1[k] for k in rows}, rows, "deep", protocol="sympformer Table 1",
                               source="seed 000 §6-7, Table 1, best", alpha=alpha, readings=[Reading(
                                   text, ((scheme, "Baseline", "less"), (scheme, "YuriiFormer", "less")))])


@claim("sympformer:table-1", locator="§6 (opening), §7; Table 1 (softmax attention)",
       statement="The SympFormer (softmax attention) reaches a lower validation loss than the Baseline "
                 "and YuriiFormer-Lie-Trotter (proxy: the deep study, 8 layers, width 64, byte-level "
                 "Shakespeare)",
       method="experiment", expect="inconclusive", figures=["ordering-table", "training-curves"],
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
               "printed ETD-AB2 gain over the Baseline of 25%")
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
    per_scheme = {s: symp_table_1_scheme(s) for s in schemes}
    # a union over the five members: each member decided at 0.05/5 (Bonferroni), so that 'one of
    # them holds' (and 'one of them fails', for the every-scheme reading) keeps family-wise 0.05
    corrected = {s: symp_table_1_scheme(s, alpha=ALPHA / len(schemes)) for s in schemes}
    verdicts = {s: e.verdict for s, e in per_scheme.items()}
    verdicts_corrected = {s: e.verdict for s, e in corrected.items()}
    some = _one_suffices(verdicts_corrected.values())
    every = (False if "fails" in verdicts_corrected.values()
             else True if all(v == "holds" for v in verdicts.values()) else None)
    headline = per_scheme[best]
    rds = [*headline.readings,
           reading("some SympFormer scheme of the table below Baseline and YuriiFormer (one of the five "
                   "suffices; the paper's own Table 1 prints three; each scheme decided at family-wise "
                   "0.05/5, Bonferroni over the five)", some, statuses=verdicts_corrected),
           reading(symp_readings(best, schemes)[1].text, every, statuses=verdicts_corrected)]
    numbers = dict(headline.numbers, printed_full_table=SYMP_TABLE_1, leak=leak_evidence(),
                   scale_trend=scale_trend("sympformer:table-1"),
                   sub_assertions={k: v for e in per_scheme.values() for k, v in e.numbers["sub_assertions"].items()},
                   missing_runs=sorted({r for e in per_scheme.values() for r in e.numbers["missing_runs"]}))
    counter = {k: v for e in per_scheme.values() for k, v in (e.counterexample or {}).items()}
    return decide_readings(rds, criterion=headline.criterion + "; each scheme is decided on its own "
                           "arms; the some-scheme reading holds when one scheme holds and fails when all "
                           "five fail, the every-scheme reading fails when one fails, each scheme then "
                           "decided at 0.05/5 (Bonferroni over the five members: the union of five "
                           "tests keeps family-wise level 0.05)",
                           numbers=numbers, counterexample=counter or None,
                           ambiguity="the readings of 'the SympFormer outperforms' disagree: " + "; ".join(
                               f"{r['reading']} -> {r['verdict']}" for r in rds))


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
    return experiment_evidence(SYMP_TABLE_2, SYMP_TABLE_2_ROWS, study, protocol="sympformer Table 2",
                               source="seed 000 §6, Table 2, best", readings=SYMP_TABLE_2_READINGS)


@claim("sympformer:table-2", locator="§6 (opening); §6.2, Table 2 (linear attention, smaller configuration)",
       statement="With linear attention (smaller configuration) the SympFormer reaches a lower "
                 "validation loss than the Baseline and YuriiFormer (decided at App. B's own Table 2 "
                 "protocol at its layer and width shape and token budget, the study linear-appb: 4 "
                 "layers, width 64, byte-level Shakespeare, 0.22M parameters against the paper's 3.42M; "
                 "the earlier settings are sensitivity rows)",
       method="experiment", expect="inconclusive", figures=["ordering-table", "training-curves"],
       paper_text=SYMP_SENTENCE + "\n" + "Lastly, we also report results for the SympFormer with "
                  "linear attention in Tables 2 and 3.",
       referee="changed (26 Nov 2026), fails -> inconclusive: the fail was decided at a setting that "
               "departs from App. B's Table 2 protocol (peak lr 3e-3 for 3e-4, scalar multiplier 5x for "
               "100x, block 64 for 128, 32 sequences per step for 72), and issue 25 asks that a protocol "
               "affordable at the paper's layer and width shape decide; that study (linear-appb) is not yet "
               "trained. The proxy setting's fail (both readings, 5 seeds) stays as the sensitivity row "
               "`sensitivity.linear`, with its counterexample test")
def symp_table_2(budget: str) -> Evidence:
    """Decided on `linear-appb` (App. B's Table 2 protocol: block 128, 72 sequences per step,
    10000 steps, peak lr 3e-4, scalars at 100x). `numbers['sensitivity']` holds the same sentence
    decided at the settings the ledger used first: `linear` (lr 3e-3, scalars at 5x, App. B's
    general text) and `linear-slr100` (the same at 100x); they inform, never decide."""
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
                    numbers=dict(ev.numbers, sensitivity=sensitivity), counterexample=ev.counterexample,
                    correction=ev.correction, readings=ev.readings, ambiguity=ev.ambiguity)


SYMP_TABLE_3 = {"Baseline": 2.917168, "YuriiFormer": 2.765023, "plain Euler": 2.656692,
                "Presymp Euler": 2.690885}
# App. B, Table 3: "a look-ahead step for the presymplectic discretizations"
SYMP_TABLE_3_ROWS = SYMP_LINEAR_ROWS | {"Presymp Euler": "symp-linear-presymp-euler-lookahead"}


@claim("sympformer:table-3", locator="§6 (opening); §6.2, Table 3 (linear attention, larger configuration)",
       statement="With linear attention (larger configuration) the SympFormer reaches a lower "
                 "validation loss than the Baseline and YuriiFormer (proxy: the deep-linear study, "
                 "8 layers, width 64, App. B's Table 3 h_0, scalar rate and look-ahead; decided at 10x "
                 "App. B's peak learning rate, 3e-3 against 3e-4, 1/16 of its context, 64 against "
                 "1024, and batch 32 against 72)",
       method="experiment", expect="fails", figures=["ordering-table", "training-curves"],
       paper_text=SYMP_SENTENCE + "\n" + "Lastly, we also report results for the SympFormer with "
                  "linear attention in Tables 2 and 3.",
       referee="decided 26 Nov 2026 at 3 paired seeds, at proxy scale (8 layers, width 64, bytes, "
               "12000 steps; App. B's Table 3 h_0 = 0.3, scalars at 100x and look-ahead): both schemes "
               "end above YuriiFormer (plain Euler by 0.061, 95% CI [0.027, 0.094]; Presymp Euler by "
               "0.053 [0.035, 0.070]) and neither is told from the Baseline (plain Euler +0.007 "
               "[-0.015, 0.029], Presymp Euler -0.001 [-0.018, 0.016]), so the best-scheme and the "
               "every-scheme readings both fail; what holds at this scale, not a refutation of the "
               "paper's runs")
def symp_table_3(budget: str) -> Evidence:
    return experiment_evidence(SYMP_TABLE_3, SYMP_TABLE_3_ROWS, "deep-linear", protocol="sympformer Table 3",
                               source="seed 000 §6, Table 3, best",
                               readings=symp_readings("plain Euler", ("plain Euler", "Presymp Euler")))

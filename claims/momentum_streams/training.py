"""Seed 002 (momentum streams) decided on the committed training studies (results/lm/; the rule:
`claims._experiment`): Table 1's main comparison (§4.2, TinyStories column), Table 2's sentences on
momentum and preconditioning (§5.1-5.2) and "MuonFormer and SOAPFormer converge but trail" (§4.2,
App. D.7). The ablations of §4.2 are in `claims.momentum_streams.ablation`, the wall-clock
sentences of App. D.6 in `claims.momentum_streams.wallclock`."""
from __future__ import annotations

import math

from claims import Evidence, claim
from claims._experiment import Reading, experiment_evidence, with_scale_trend
from claims.momentum_streams import consistency as ms_consistency


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
                   "MuonFormer": 1.1503, "AdamFormer": 1.1528}  # HBFormer: no TS value printed
MS_PRECOND_TEXT_ROWS = {"TMMFormer": "tmm", "YuriiFormer": "yurii", "SOAPFormer": "soap",
                        "MuonFormer": "muon", "HBFormer": "hb", "AdamFormer": "adam"}


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
    'Momentum-stream design' is read three ways: the two of the main comparison (TMMFormer,
    YuriiFormer), also §5's HBFormer, or as App. D.6 uses the term (AdamFormer included). "Converge" is checked as training: every seed's
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
                                               subs(("TMMFormer", "YuriiFormer", "HBFormer"))),
                                       # App. D.6 lists AdamFormer among 'the momentum-stream variants'
                                       # (referees H and I, 7 Dec 2026; main-results-text's ambiguity)
                                       Reading("momentum-stream designs as App. D.6 uses the term: "
                                               "TMMFormer, YuriiFormer and AdamFormer",
                                               subs(("TMMFormer", "YuriiFormer", "AdamFormer")))])
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

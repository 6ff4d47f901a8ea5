"""Seed 002 (momentum streams), §4.2 and App. D.6: the step times of the momentum streams, of
MuonFormer, and "the only variant with a large penalty", decided at the paper's size by the
committed GPU measurement or the validated cost model (`claims._wallclock`: the rule)."""
from __future__ import annotations

from claims import Evidence, claim
from claims._wallclock import BAND, comparison, cost_model, timing_evidence
from claims.momentum_streams.diagnostics import (LARGE_PENALTY, MUON_SLOWER, NEGLIGIBLE, NON_MUON_002,
                                                 PAPER_002_S_PER_STEP)


# Quoted from seed 002 App. D.6 (LaTeX form; the extraction drops the en dash of each printed
# range, e.g. "≈3.3–3.4", whose pieces it keeps as {\approx}3.3 and 3.4: restored here).
D6 = (r"The vanilla transformer and the momentum-stream variants are all comparable: "
      r"VanillaTransformer ${\approx}3.3$–$3.4$ s/step, TMMFormer ${\approx}2.7$–$3.9$ s/step, YuriiFormer "
      r"${\approx}2.8$ s/step, and AdamFormer ${\approx}3.4$ s/step. The TMMFormer auxiliary velocity "
      r"stream and per-layer scalars add negligible cost relative to attention and the MLP, so TMMFormer "
      r"does not materially increase runtime over the vanilla baseline.")
D6_MUON = (r"The only variant with a large penalty is MuonFormer, whose per-token Newton–Schulz iteration "
           r"runs at ${\approx}10$–$16$ s/step (${\approx}3$–$5\times$ slower).")
# "comparable" as the paper's own D.6 numbers are: TMMFormer's printed range against vanilla's
COMPARABLE_D6 = PAPER_002_S_PER_STEP["tmm"][1] / PAPER_002_S_PER_STEP["gd-lt"][0]  # 3.9 / 3.3 = 1.18


def _comparable(margin: float) -> dict[str, tuple]:
    return {"TMMFormer does not materially increase runtime": ("tmm", "gd-lt", None, margin),
            **{f"{label} comparable to vanilla": (v, "gd-lt", 1 / margin, margin)
               for label, v in (("YuriiFormer", "yurii"), ("AdamFormer", "adam"))}}


@claim("momentum_streams:wall-clock", locator="§4.2, Appendix D.6",
       statement="momentum-stream blocks (TMMFormer, YuriiFormer) and AdamFormer train at a step time "
                 "comparable to the vanilla transformer's; TMMFormer's velocity stream adds negligible "
                 "cost (decided at 12L/768/T=1024 by a GPU measurement at that size, else the validated cost model's H100 band)",
       method="experiment", expect="inconclusive", figures=["cost-model", "bench-training"],
       referee="changed, fails -> inconclusive: the fail was CPU process time at 4 layers, width 128. "
               "Now decided by the GPU measurement at the paper's size and execution (torch.compile, "
               "NVIDIA H200, 7 interleaved rounds; the H100 roofline band is reported beside it): "
               "step time over vanilla's TMMFormer 1.168 [1.160, 1.187], YuriiFormer 1.153 [1.147, "
               "1.160], AdamFormer 1.223 [1.166, 1.231]; all three fail the 10% reading of 'comparable' "
               "/ 'negligible'; under the paper's own D.6 spread (18%) YuriiFormer holds while "
               "TMMFormer's and AdamFormer's intervals straddle 1.18, so that reading is undecided",
       paper_text=r"TMMFormer also does not materially increase runtime: it and the vanilla transformer both "
                  r"train at ${\approx}3$ s/step on OpenWebText (no significant difference), with full "
                  r"per-variant wall-clock in Appendix D.6. [...] " + D6)
def momentum_wall_clock(budget: str) -> Evidence:
    """Sub-assertions: TMMFormer <= vanilla x m (§4.2, D.6 'negligible', 'not materially'),
    YuriiFormer and AdamFormer within [1/m, m] ('all comparable'). Readings of m: 1.10 (a tenth:
    'negligible'), or the spread the paper itself calls comparable (3.9 / 3.3 = 1.18). HBFormer
    is not in the sentence's list; its ratio is reported."""
    tenth = f"negligible / comparable = within {NEGLIGIBLE - 1:.0%}"
    readings = {tenth: _comparable(NEGLIGIBLE),
                f"comparable as the paper's own D.6 spread (TMMFormer {PAPER_002_S_PER_STEP['tmm'][1]} vs "
                f"vanilla {PAPER_002_S_PER_STEP['gd-lt'][0]} s/step: within {COMPARABLE_D6 - 1:.0%})":
                    _comparable(COMPARABLE_D6)}
    return timing_evidence(budget, "momentum_streams", readings, criterion=BAND, extra={
        "reported_not_decided": {"hb / gd-lt": comparison(cost_model(), "momentum_streams", "hb", "gd-lt")},
        "paper_ratio_range_D6": _paper_002_ranges()},
        not_admitted={tenth: "invented"})  # a tolerance the text does not give (R3, both referees)


def _paper_002_ranges() -> dict:
    lo_b, hi_b = PAPER_002_S_PER_STEP["gd-lt"]
    return {v: [lo / hi_b, hi / lo_b] for v, (lo, hi) in PAPER_002_S_PER_STEP.items() if v != "gd-lt"}


@claim("momentum_streams:wall-clock-muon", locator="Appendix D.6",
       statement="MuonFormer, with its per-token head-wise Newton–Schulz iteration, trains ≈3–5× slower "
                 "per step than the vanilla transformer (decided at 12L/768/T=1024 by a GPU measurement at "
                 "that size, else the validated cost model's H100 band)",
       method="experiment", expect="holds", figures=["cost-model", "bench-training"],
       paper_text=D6_MUON,
       referee="changed, fails -> inconclusive -> holds (ambiguous) -> holds: the fail was CPU process "
               "time at 4 layers, width 128 (2.0-2.6x); the roofline band at the paper's size straddled "
               "3; the compiled measurement at the paper's size (H200, 26 Nov 2026, 7 rounds) gives "
               "2.79x [2.69, 2.88]: inside '≈3' read to its one significant digit. Issue 38 (both "
               "referees): the failing readings take 3 or the paper's own 10/3.4 = 2.94 as exact "
               "bounds, dropping the printed '≈', a tolerance the text does not give (R3): not admitted")
def muon_wall_clock(budget: str) -> Evidence:
    """App. D.6 (seed 002): MuonFormer at '≈10–16 s/step (≈3–5× slower)', values the paper calls
    indicative ('hardware varies across SLURM jobs'). Sub-assertions: MuonFormer slower than vanilla,
    by the printed factor. Readings of '≈3–5×': over its one-digit rounding [2.5, 5.5), the '≈' the
    text prints; as exact bounds [3, 5], or the paper's own seconds (10/3.4 to 16/3.3 = [2.94, 4.85])
    as exact bounds, which drop the '≈' (R3: shown, not deciding)."""
    lo_b, hi_b = PAPER_002_S_PER_STEP["gd-lt"]
    lo_m, hi_m = PAPER_002_S_PER_STEP["muon"]
    exact = "3-5x as exact bounds (the printed '≈' dropped)"
    seconds = f"the paper's own seconds ({lo_m}-{hi_m} vs {lo_b}-{hi_b} s/step) as exact bounds"
    ranges = {exact: MUON_SLOWER, "≈3-5x to its one significant digit": (2.5, 5.5),
              seconds: (lo_m / hi_b, hi_m / lo_b)}
    readings = {text: {"MuonFormer slower than vanilla": ("muon", "gd-lt", 1.0, None),
                       f"by {lo:.2f}-{hi:.2f}x": ("muon", "gd-lt", lo, hi)} for text, (lo, hi) in ranges.items()}
    return timing_evidence(budget, "momentum_streams", readings, criterion=BAND,
                           extra={"paper_ratio_range_D6": _paper_002_ranges()},
                           not_admitted={exact: "invented", seconds: "invented"})  # a tolerance the text does not give (R3)


@claim("momentum_streams:wall-clock-only-muon", locator="Appendix D.6",
       statement="the only optimizer-inspired variant with a large per-step penalty is MuonFormer "
                 "(decided at 12L/768/T=1024 by a GPU measurement at that size, else the validated cost model's H100 band)",
       method="experiment", expect="holds", figures=["cost-model", "bench-training"],
       paper_text=D6_MUON,
       referee="changed, fails -> inconclusive -> holds (ambiguous): the fail was SOAPFormer/ShampooFormer "
               "at 20x on CPU; D.6 reports the OpenWebText runs, which SOAPFormer did not complete (D.7), "
               "so 'the only variant' is read two ways: among the timed runs (the compiled H200 "
               "measurement at the paper's size, 26 Nov 2026: MuonFormer 2.79x, every other timed "
               "stream <= 1.23x: holds) and among every variant (SOAP/Shampoo >= 15x: fails)")
def only_muon_wall_clock(budget: str) -> Evidence:
    """'Large' read as at least `LARGE_PENALTY` x vanilla's step time (the paper's example is 3-5x).
    Readings of 'the only variant': among the variants D.6 times (TMMFormer, YuriiFormer,
    AdamFormer beside Vanilla and MuonFormer; not every OpenWebText run: Table 2's HB, RMSProp and
    Ortho runs are not timed there), or among every optimizer-inspired variant of the paper.
    OrthoFormer, "the special case of MuonFormer" with no EMA (App. B), shares its per-token
    Newton-Schulz cost and is not timed here (neither the paper-size cost counts nor the GPU
    measurement hold it): it could only add a fail to the every-variant reading, which fails."""
    muon = {"MuonFormer has a large penalty": ("muon", "gd-lt", LARGE_PENALTY, None)}
    timed = {f"{v} has no large penalty": (v, "gd-lt", None, LARGE_PENALTY) for v in ("tmm", "yurii", "adam")}
    every = {f"{v} has no large penalty": (v, "gd-lt", None, LARGE_PENALTY) for v in NON_MUON_002}
    readings = {"among the variants D.6 times (Vanilla, TMMFormer, YuriiFormer, AdamFormer, MuonFormer)": muon | timed,
                "among every optimizer-inspired variant of the paper": muon | every}
    return timing_evidence(budget, "momentum_streams", readings, criterion=BAND + f"; 'large' = at least "
                           f"{LARGE_PENALTY}x vanilla's step time")

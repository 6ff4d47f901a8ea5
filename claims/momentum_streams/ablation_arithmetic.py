"""Seed 002 §4.2 (Ablation Study), App. D.5 and D.7: the derived numbers of the ablations
recomputed from the printed ones, each over the rounding box of its printed inputs."""
from __future__ import annotations

from claims import Evidence, claim, decide_readings, reading
from claims._printed import derived_range, meets, printed_interval


@claim("momentum_streams:ablation-arithmetic", locator="§4.2 Ablation Study; Appendix D.5, D.7",
       statement="The derived numbers of the ablations follow from the printed losses: TMM-Vanilla "
                 "gap 0.0306 = ~15x the pooled seed std; width-900 closes ~40% of the gap, the rest "
                 "~0.018 = ~9x the per-seed std; halving the Muon lr shrinks the OWT gap ~11% "
                 "(0.074 -> 0.066); pure AdamW moves TMM 14x more than Vanilla",
       method="count", expect="holds",
       paper_text="Separate three-seed TinyStories runs (10k steps) give Vanilla 1.1578 ± 0.0028 and "
                  "TMMFormer 1.1272 ± 0.0013 [...] The gap of 0.0306 is ≈15× the pooled seed standard "
                  "deviation, so it is not seed luck. [...] On TinyStories it closes only about 40% of "
                  "the TMM–Vanilla gap (best val 1.1454, vs. TMMFormer’s 1.1272 and the default "
                  "Vanilla’s 1.1578); the remaining ≈0.018 nats is roughly 9× the per-seed standard "
                  "deviation [...] the architectural gap shrinks only ≈11% (from 0.074 to 0.066)",
       referee="changed, holds-with-correction -> holds (issue 28): the old check scored 15x "
               "against the root-mean-square pooled sd (14.0x) but 9x against the mean of the two "
               "stds; with one convention and the printed rounding, both multiples follow from the "
               "mean of the stds (14.9x, 8.9x); 'pooled' as RMS is the reading under which 15x "
               "fails, so it is an ambiguity of the word, not an arithmetic error")
def ms_ablation_arithmetic(budget: str) -> Evidence:
    """Recompute every derived number from the printed ones, each over the rounding box of its
    printed inputs, against the rounding interval of the printed result (issue 28: printed
    rounding is part of the reading; an integer multiple such as '15x' stands for [14.5, 15.5),
    '40%' for [35, 45)). One convention for both seed-std multiples, read two ways: 'pooled'
    (and 'per-seed') standard deviation as the mean of the two arms' stds, or as the
    root-mean-square pooled sd of two equal-size samples sqrt((s1^2 + s2^2) / 2)."""
    V, T, sV, sT, W = "1.1578", "1.1272", "0.0028", "0.0013", "1.1454"

    def check(f, inputs, printed):
        lo, hi = derived_range(f, *inputs)
        e_lo, e_hi = printed_interval(printed, exact=True)   # shown exactly, half-open
        return {"derived_range": [lo, hi], "printed": printed, "printed_interval": f"[{e_lo}, {e_hi})",
                "holds": meets(printed_interval(printed), lo, hi)}

    fixed = {
        "gap_0.0306": check(lambda v, t: v - t, (V, T), "0.0306"),
        "width900_closes_40pct": check(lambda v, t, w: (v - w) / (v - t) * 100, (V, T, W), "40"),
        "remaining_0.018": check(lambda t, w: w - t, (T, W), "0.018"),
        "lr_gap_shrinks_11pct": check(lambda a, b, c: (a - (b - c)) / a * 100, ("0.074", "3.029", "2.963"), "11"),
        "adamw_tmm_vs_vanilla_14x": check(lambda a, b, c, d: (a - b) / (c - d),
                                          ("2.9696", "2.9342", "3.0103", "3.0078"), "14"),
        "ts_improvement_0.029": check(lambda a, b: a - b, ("1.1569", "1.1284"), "0.029"),
        "owt_improvement_0.074": check(lambda a, b: a - b, ("3.0078", "2.9342"), "0.074"),
    }
    sd = {"mean of the two stds": lambda a, b: (a + b) / 2,
          "root-mean-square pooled sd": lambda a, b: ((a * a + b * b) / 2) ** 0.5}
    rds, per_reading = [], {}
    for name, pooled in sd.items():
        multiples = {
            "gap_over_pooled_sd_15x": check(lambda v, t, a, b: (v - t) / pooled(a, b), (V, T, sV, sT), "15"),
            "remaining_over_seed_sd_9x": check(lambda w, t, a, b: (w - t) / pooled(a, b), (W, T, sV, sT), "9"),
        }
        per_reading[name] = multiples
        ok = all(c["holds"] for c in (*fixed.values(), *multiples.values()))
        rds.append(reading(f"'pooled' / 'per-seed' standard deviation = {name}", ok,
                           failing=sorted(k for k, c in {**fixed, **multiples}.items() if not c["holds"])))
    return decide_readings(
        rds, criterion="each derived number, over the rounding box of its printed inputs, reaches the "
                       "rounding interval of the printed figure (an integer's trailing zeros not "
                       "significant); one sd convention for both multiples, each reading decided",
        numbers={"derived": fixed, "seed_std_multiples": per_reading},
        ambiguity="'pooled seed standard deviation' (and 'per-seed standard deviation'): the printed "
                  "15x and 9x both follow from the mean of the two arms' stds (0.00205); with the "
                  "root-mean-square pooled sd the gap is at most 14.4x over the printed rounding")

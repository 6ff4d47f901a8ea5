"""Seed 002 §4.2 (Ablation Study) at proxy scale: TMMFormer against Vanilla under the
parameter-training optimizer swapped to pure AdamW (`main-adamw`), under half the Muon learning
rate (`main-half-lr`), and against a Vanilla widened to TMMFormer's parameter count
(`main-matched`); each paired by seed with the `main` study (seed k fixes the data order and the
initialisation). The sentences speak of OpenWebText (optimizer, LR) and TinyStories (matched
size); our one pinned corpus stands in for both, stated in each claim's deviations."""
from __future__ import annotations

import numpy as np

from claims import Evidence, claim
from claims._experiment import Reading, experiment_evidence
from claims._printed import printed_interval

OPTIMIZER_TEXT = (
    "Parameter-training optimizer. We swap the optimizer on the 2D weight matrices (default Muon "
    "hybrid → a single pure AdamW for every parameter group) [...] On OpenWebText, Vanilla barely "
    "moves (3.008→3.010, +0.002 nats), while TMMFormer moves more (2.934→2.970, +0.035); TMMFormer "
    "still beats Vanilla under both optimizers (gap 0.074 under Muon hybrid, 0.041 under pure AdamW).")
ARMS = {"Vanilla": "gd-lt", "TMMFormer": "tmm"}


def _arms(**studies: str) -> dict[str, tuple[str, str]]:
    """Vanilla's and TMMFormer's rows in each study: 'Vanilla (tag)' -> (study, variant)."""
    return {f"{lab} ({tag})": (study, v) for tag, study in studies.items() for lab, v in ARMS.items()}


def _change(label: str, before: str, after: str):
    """The per-seed change of an arm's loss from one study to the other (a derived row)."""
    return lambda values: [b - a for a, b in zip(values[f"{label} ({before})"], values[f"{label} ({after})"])]


@claim("momentum_streams:optimizer-ablation-text", locator="§4.2 Ablation Study (parameter-training optimizer)",
       statement="TMMFormer beats Vanilla under both the Muon hybrid and pure AdamW, and the switch to "
                 "AdamW moves TMMFormer more than Vanilla (proxy: main and main-adamw, 4 layers, width 64)",
       method="experiment", expect="inconclusive", paper_text=OPTIMIZER_TEXT)
def optimizer_ablation(budget: str) -> Evidence:
    """The sentence's three sub-assertions, on sign: TMMFormer below Vanilla under the Muon hybrid,
    and under pure AdamW; and the switch raises TMMFormer's loss more than Vanilla's (per seed, the
    change of each arm between the studies)."""
    return experiment_evidence(
        {}, _arms(**{"Muon hybrid": "main", "pure AdamW": "main-adamw"}), "main-adamw",
        protocol="momentum_streams OpenWebText, pure AdamW", source="seed 002 §4.2",
        readings=[Reading("TMMFormer below Vanilla under both optimizers; the switch moves TMMFormer more", (
            ("TMMFormer (Muon hybrid)", "Vanilla (Muon hybrid)", "less"),
            ("TMMFormer (pure AdamW)", "Vanilla (pure AdamW)", "less"),
            ("Vanilla's change", "TMMFormer's change", "less")))],
        derived={f"{lab}'s change": _change(lab, "Muon hybrid", "pure AdamW") for lab in ARMS})


LR_TEXT = ("Peak learning rate. We halve the Muon peak learning rate (4×10^{-3} → 2×10^{-3}) with the "
           "rest of the recipe held fixed. On OpenWebText, Vanilla degrades from 3.008 to 3.029 (+0.021 "
           "nats) and TMMFormer from 2.934 to 2.963 (+0.029); the architectural gap shrinks only ≈11% "
           "(from 0.074 to 0.066), so the ordering is robust to LR perturbation.")


@claim("momentum_streams:lr-ablation-text", locator="§4.2 Ablation Study (peak learning rate)",
       statement="At half the Muon peak learning rate both Vanilla and TMMFormer degrade and TMMFormer "
                 "stays below Vanilla (proxy: main and main-half-lr)",
       method="experiment", expect="inconclusive", paper_text=LR_TEXT)
def lr_ablation(budget: str) -> Evidence:
    return experiment_evidence(
        {}, _arms(**{"full lr": "main", "half lr": "main-half-lr"}), "main-half-lr",
        protocol="momentum_streams OpenWebText, half Muon lr", source="seed 002 §4.2",
        readings=[Reading("both degrade at half the learning rate; TMMFormer stays below Vanilla", (
            ("Vanilla (full lr)", "Vanilla (half lr)", "less"),
            ("TMMFormer (full lr)", "TMMFormer (half lr)", "less"),
            ("TMMFormer (half lr)", "Vanilla (half lr)", "less")))])


MATCHED_TEXT = ("Parameter-matched controls. We train a Vanilla variant with the same parameter count as "
                "TMMFormer (≈163M, achieved by widening d_model to 900). On TinyStories it closes only "
                "about 40% of the TMM–Vanilla gap (best val 1.1454, vs. TMMFormer’s 1.1272 and the "
                "default Vanilla’s 1.1578); the remaining ≈0.018 nats is roughly 9× the per-seed standard "
                "deviation, so the bulk of TMMFormer’s gain is not a parameter-count effect.")


@claim("momentum_streams:param-matched-text", locator="§4.2 Ablation Study (parameter-matched controls)",
       statement="A Vanilla widened to TMMFormer's parameter count improves on Vanilla but stays above "
                 "TMMFormer (proxy: main and main-matched, width 68)",
       method="experiment", expect="holds", paper_text=MATCHED_TEXT)
def param_matched(budget: str) -> Evidence:
    """'Closes only about 40% of the gap' on sign: the widened Vanilla is below Vanilla (it closes
    some) and above TMMFormer (not all); the 40% itself is a size the sentence states, reported as
    the measured share, not decided (its printed inputs are single runs)."""
    rows = {"Vanilla": ("main", "gd-lt"), "TMMFormer": ("main", "tmm"), "Vanilla, matched size": ("main-matched", "gd-lt")}
    ev = experiment_evidence(
        {}, rows, "main-matched", protocol="momentum_streams TinyStories", source="seed 002 §4.2",
        readings=[Reading("the matched Vanilla closes part of the gap, not all of it", (
            ("Vanilla, matched size", "Vanilla", "less"), ("TMMFormer", "Vanilla, matched size", "less")))],
        extra_deviations=[{"setting": "matched size", "paper": "width 900, 0.6% below TMMFormer",
                           "ours": "width 68, 2.4% above TMMFormer"}])
    if "measured" not in ev.numbers:
        return ev
    return Evidence(ev.verdict, ev.criterion, dict(ev.numbers, share_of_gap_closed=share_closed(
        *(ev.numbers["measured"][k]["values"] for k in ("Vanilla", "Vanilla, matched size", "TMMFormer")))),
        ev.counterexample, ev.correction, ev.readings, ev.ambiguity)


def share_closed(vanilla, matched, tmm, n_boot: int = 2000, seed: int = 0) -> dict:
    """The share of the Vanilla-TMMFormer gap the matched Vanilla closes, (V - M) / (V - T) of the
    means over seeds, with a percentile bootstrap interval (seeds resampled jointly, a fixed
    generator), beside the printed 'about 40%' and its rounding interval [35%, 45%): a size the
    sentence states, reported; at 600x fewer parameters it is not decided (the sign is)."""
    v, m, t = (np.asarray(x, dtype=float) for x in (vanilla, matched, tmm))
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(v), size=(n_boot, len(v)))
    gaps = v[idx].mean(1) - t[idx].mean(1)
    boot = np.where(gaps > 0, (v[idx].mean(1) - m[idx].mean(1)) / np.where(gaps > 0, gaps, 1.0), np.nan)
    lo, hi = np.nanpercentile(boot, [2.5, 97.5])
    return {"measured": float((v.mean() - m.mean()) / (v.mean() - t.mean())), "ci95": [float(lo), float(hi)],
            "printed": "about 40%", "printed_interval": [x / 100 for x in printed_interval("40")],
            "paper_values": {"Vanilla": 1.1578, "Vanilla, matched size": 1.1454, "TMMFormer": 1.1272,
                             "share": (1.1578 - 1.1454) / (1.1578 - 1.1272)},
            "decided": False, "why": "a size at proxy scale: reported beside the sign-first verdict"}

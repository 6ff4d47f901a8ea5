"""Seed 002 §4.2 (Ablation Study) at proxy scale: TMMFormer against Vanilla under the
parameter-training optimizer swapped to pure AdamW (`main-adamw`), under half the Muon learning
rate (`main-half-lr`), and against a Vanilla widened to TMMFormer's parameter count
(`main-matched`); each paired by seed with the `main` study (seed k fixes the data order and the
initialisation). The sentences speak of OpenWebText (optimizer, LR) and TinyStories (matched
size); our one pinned corpus stands in for both, stated in each claim's deviations."""
from __future__ import annotations

from claims import Evidence, claim, decide_readings, reading
from claims._experiment import MIN_SEEDS, flatness, learned, not_learned
from claims._protocol import collected_runs, deviations, get_protocol, run_hardware, scale
from claims._stats import sign_first
from particles.lm.studies import get_study

OPTIMIZER_TEXT = (
    "Parameter-training optimizer. We swap the optimizer on the 2D weight matrices (default Muon "
    "hybrid → a single pure AdamW for every parameter group) [...] On OpenWebText, Vanilla barely "
    "moves (3.008→3.010, +0.002 nats), while TMMFormer moves more (2.934→2.970, +0.035); TMMFormer "
    "still beats Vanilla under both optimizers (gap 0.074 under Muon hybrid, 0.041 under pure AdamW).")
ARMS = {"Vanilla": "gd-lt", "TMMFormer": "tmm"}


def ablation_evidence(text: str, studies: dict[str, str], arms: dict[str, tuple[str, str]],
                      subs, protocol: str, extra_deviations=()) -> Evidence:
    """Decide `subs` (name -> (label a, label b, kind), or callables of the losses) on sign over
    the seeds every (study, variant) of `arms` (label -> (study key, variant)) has."""
    st = {k: get_study(name) for k, name in studies.items()}
    got = {k: s.collect(sorted({v for kk, v in arms.values() if kk == k})) for k, s in st.items()}
    seeds = sorted(set.intersection(*(set(got[k].paired_seeds([v])) for k, v in arms.values())))
    prot = get_protocol(protocol)
    main = st[next(iter(st))]
    numbers = {"study": ", ".join(studies.values()), "n_seeds": len(seeds), "seeds": seeds,
               "scale": scale(main.config, prot, hardware=run_hardware(collected_runs(*got.values()))),
               "deviations": {name: deviations(s.config, prot, hardware=run_hardware(collected_runs(got[k])))
                              for k, name, s in zip(st, studies.values(), st.values())}
               | ({"also": list(extra_deviations)} if extra_deviations else {}),
               "flatness": {k: flatness(got[k], {lab: v for lab, (kk, v) in arms.items() if kk == k})
                            for k in st},
               "baseline_learned": {k: learned(s.name, "gd-lt")["learned"] for k, s in st.items()},
               "missing_runs": {k: g.missing for k, g in got.items()}}
    criterion = ("the sentence's sub-assertions on sign (Holm, claims._stats.sign_first) over the "
                 f"seeds every arm has (>= {MIN_SEEDS}, every study's Vanilla learned)")
    if len(seeds) < MIN_SEEDS or not all(numbers["baseline_learned"].values()):
        why = [f"{len(seeds)} paired seeds"] if len(seeds) < MIN_SEEDS else []
        why += [f"{k}: {not_learned(learned(s.name, 'gd-lt'))}" for k, s in st.items()
                if not numbers["baseline_learned"][k]]
        return decide_readings([reading(text, None)], criterion=criterion + "; undecided here: "
                               + "; ".join(why), numbers=numbers)
    loss = {lab: [got[k].results[v][s]["val_loss_full"] for s in seeds] for lab, (k, v) in arms.items()}
    verdict, rows = sign_first({name: (f(loss) if callable(f) else (loss[f[0]], loss[f[1]], f[2]))
                                for name, f in subs.items()})
    numbers |= {"val_loss_full": loss, "sub_assertions": {text: rows}}
    return decide_readings([reading(text, {"holds": True, "fails": False}.get(verdict),
                                    statuses={k: r["status"] for k, r in rows.items()})],
                           criterion=criterion, numbers=numbers,
                           counterexample={k: r for k, r in rows.items() if r["status"] == "fails"} or None)


def _change(loss, label, before, after):
    return [b - a for a, b in zip(loss[f"{label} ({before})"], loss[f"{label} ({after})"])]


@claim("momentum_streams:optimizer-ablation-text", locator="§4.2 Ablation Study (parameter-training optimizer)",
       statement="TMMFormer beats Vanilla under both the Muon hybrid and pure AdamW, and the switch to "
                 "AdamW moves TMMFormer more than Vanilla (proxy: main and main-adamw, 4 layers, width 64)",
       method="experiment", expect="inconclusive", paper_text=OPTIMIZER_TEXT)
def optimizer_ablation(budget: str) -> Evidence:
    """The sentence's three sub-assertions, on sign: TMMFormer below Vanilla under the Muon hybrid,
    and under pure AdamW; and the switch raises TMMFormer's loss more than Vanilla's (per seed, the
    change of each arm between the studies)."""
    arms = {f"{lab} ({opt})": (opt, v) for opt in ("Muon hybrid", "pure AdamW") for lab, v in ARMS.items()}
    return ablation_evidence(
        "TMMFormer below Vanilla under both optimizers; the switch moves TMMFormer more",
        {"Muon hybrid": "main", "pure AdamW": "main-adamw"}, arms, {
            "TMMFormer < Vanilla (Muon hybrid)": ("TMMFormer (Muon hybrid)", "Vanilla (Muon hybrid)", "less"),
            "TMMFormer < Vanilla (pure AdamW)": ("TMMFormer (pure AdamW)", "Vanilla (pure AdamW)", "less"),
            "Vanilla's change < TMMFormer's change": lambda loss: (
                _change(loss, "Vanilla", "Muon hybrid", "pure AdamW"),
                _change(loss, "TMMFormer", "Muon hybrid", "pure AdamW"), "less")},
        "momentum_streams OpenWebText", [{"setting": "pure-AdamW peak lr", "paper": 6e-4,
                                          "ours": get_study("main-adamw").config.lr}])


LR_TEXT = ("Peak learning rate. We halve the Muon peak learning rate (4×10^{-3} → 2×10^{-3}) with the "
           "rest of the recipe held fixed. On OpenWebText, Vanilla degrades from 3.008 to 3.029 (+0.021 "
           "nats) and TMMFormer from 2.934 to 2.963 (+0.029); the architectural gap shrinks only ≈11% "
           "(from 0.074 to 0.066), so the ordering is robust to LR perturbation.")


@claim("momentum_streams:lr-ablation-text", locator="§4.2 Ablation Study (peak learning rate)",
       statement="At half the Muon peak learning rate both Vanilla and TMMFormer degrade and TMMFormer "
                 "stays below Vanilla (proxy: main and main-half-lr)",
       method="experiment", expect="inconclusive", paper_text=LR_TEXT)
def lr_ablation(budget: str) -> Evidence:
    arms = {f"{lab} ({lr})": (lr, v) for lr in ("full lr", "half lr") for lab, v in ARMS.items()}
    return ablation_evidence(
        "both degrade at half the learning rate; TMMFormer stays below Vanilla",
        {"full lr": "main", "half lr": "main-half-lr"}, arms, {
            "Vanilla (full lr) < Vanilla (half lr)": ("Vanilla (full lr)", "Vanilla (half lr)", "less"),
            "TMMFormer (full lr) < TMMFormer (half lr)": ("TMMFormer (full lr)", "TMMFormer (half lr)", "less"),
            "TMMFormer < Vanilla (half lr)": ("TMMFormer (half lr)", "Vanilla (half lr)", "less")},
        "momentum_streams OpenWebText")


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
    arms = {"Vanilla": ("main", "gd-lt"), "TMMFormer": ("main", "tmm"), "Vanilla, matched size": ("matched", "gd-lt")}
    return ablation_evidence(
        "the matched Vanilla closes part of the gap, not all of it",
        {"main": "main", "matched": "main-matched"}, arms, {
            "Vanilla, matched size < Vanilla": ("Vanilla, matched size", "Vanilla", "less"),
            "TMMFormer < Vanilla, matched size": ("TMMFormer", "Vanilla, matched size", "less")},
        "momentum_streams TinyStories", [{"setting": "matched size", "paper": "width 900, 0.6% below TMMFormer",
                                          "ours": "width 68, 2.4% above TMMFormer"}])

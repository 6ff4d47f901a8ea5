"""Seed 002 (momentum streams), two statements about cost and the trained streams: App. I's SAWD
overhead ("≈17% rather than ≈2×", recomputed from schedule (9), the printed budget and SAM's two
passes, exact rational arithmetic), and Remark E.2 on the trained models (the balance of the
second-moment stream of a trained AdamFormer / RMSPropFormer, an extension of the remark,
measured by `particles.lm.diagnostics.second_moment_balance` on the `main-replica` runs as they
finish; undecided until three seeds of each are diagnosed).
"""
from __future__ import annotations

import tempfile
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import torch

from claims import Evidence, claim, decide, decide_readings, reading
from claims._printed import printed_interval
from claims.momentum_streams.diagnostics import replica_equals_main
from particles.lm.diagnostics import BALANCED, second_moment_balance

# ------------------------------------------------------------------ App. I: SAWD's overhead

# App. I, eq. (9) and the sentence before it: W = 3,000, D = 25,000, floor 0.1; "total step budget
# (T = 30,000 on OpenWebText)", as Table 4's OWT "Total steps 30,000"
W_PRINTED, D_PRINTED, T_PRINTED = 3_000, 25_000, 30_000
SAM_PASSES = 2      # App. I, SAM: "Each step uses two forward/backward passes on the same minibatch"


def wsd_multiplier(t: int, W: int = W_PRINTED, D: int = D_PRINTED, T: int = T_PRINTED,
                   floor: Fraction = Fraction(1, 10)) -> Fraction:
    """Eq. (9) of seed 002, exactly: the learning-rate multiplier at step t."""
    if t < W:
        return Fraction(t, W)
    if t < D:
        return Fraction(1)
    return 1 - (1 - floor) * Fraction(t - D, T - D)


def sawd_overhead(decay_fraction: Fraction, cost_ratio: Fraction) -> Fraction:
    """Extra cost of SAWD over the same schedule without SAM, as a fraction of the plain run: a
    share `decay_fraction` of the steps costs `cost_ratio` plain steps instead of one."""
    if not (0 <= decay_fraction <= 1) or cost_ratio < 1:
        raise ValueError(f"need 0 <= decay_fraction <= 1 and cost_ratio >= 1, got "
                         f"{decay_fraction}, {cost_ratio}")
    return decay_fraction * (cost_ratio - 1)


@claim("momentum_streams:sawd-overhead-arithmetic", locator="App. I (SAWD); eq. (9); Table 4",
       statement="with schedule (9) (decay from D = 25,000 to T = 30,000) SAM runs on the final 1/6 "
                 "of the steps; at two forward/backward passes per SAM step the overhead is "
                 "1/6 ≈ 16.7% (≈17%), against a cost of 2× with SAM on every step",
       method="consistency", expect="holds",
       paper_text=r"SAWD uses the WSD schedule of (9) and turns SAM on only during the decay phase "
                  r"(t\geq D). Since SAM then runs for the final {\approx}1/6 of training, the "
                  r"overhead is {\approx}17\% rather than {\approx}2\times. [App. I] With warmup "
                  r"W=3{,}000 steps, decay start D=25{,}000, and floor \eta_{\min}=0.1 of the peak "
                  r"[...] (9) [App. I, SAM] Each step uses two forward/backward passes on the same "
                  r"minibatch [...] and roughly doubles the per-step cost. [App. I] the architecture, "
                  r"data, and total step budget (T=30{,}000 on OpenWebText) are held fixed. "
                  r"[Table 4] Total steps 10{,}000 30{,}000")
def sawd_overhead_arithmetic(budget: str) -> Evidence:
    # the decay phase of (9): the steps t >= D of a T-step run, counted on t = 0..T-1 (T - D steps)
    # and on t = 1..T (T - D + 1 steps, the step t = T included)
    decay = {"t = 0..T-1": Fraction(T_PRINTED - D_PRINTED, T_PRINTED),
             "t = 1..T": Fraction(T_PRINTED - D_PRINTED + 1, T_PRINTED)}
    schedule = {"lr(W) = 1": wsd_multiplier(W_PRINTED) == 1, "lr(D) = 1": wsd_multiplier(D_PRINTED) == 1,
                "lr(T) = floor 0.1": wsd_multiplier(T_PRINTED) == Fraction(1, 10),
                "decays only for t >= D":
                    wsd_multiplier(D_PRINTED - 1) == 1 > wsd_multiplier(D_PRINTED + 1)}
    cost = Fraction(SAM_PASSES)                       # SAM step / plain step, passes counted
    overhead = {k: sawd_overhead(f, cost) for k, f in decay.items()}
    lo17, hi17 = printed_interval("17")               # "≈17%": [16.5, 17.5)
    in_17 = {k: lo17 <= 100 * float(v) < hi17 for k, v in overhead.items()}
    one_sixth = {k: abs(float(f) - 1 / 6) < 1e-3 for k, f in decay.items()}   # "≈1/6"
    # the SAM step costs for which 1/6 (c − 1) rounds to the printed 17 %: c ∈ [1.99, 2.05)
    c_range = (1 + 6 * lo17 / 100, 1 + 6 * hi17 / 100)
    sam_everywhere = sawd_overhead(Fraction(1), cost)   # overhead with SAM on all T steps: +100 %
    common = all(schedule.values()) and all(one_sixth.values()) and all(in_17.values())
    readings = [
        reading("'≈2×' as the cost of SAM on every step relative to plain training (the paper's own "
                "'roughly doubles the per-step cost'): 1 + 1·(2 − 1) = 2, against SAWD's 1 + 1/6 ≈ 1.17",
                common and 1 + sam_everywhere == cost, sam_everywhere_cost=float(1 + sam_everywhere)),
        reading("'≈2×' as the overhead (extra cost) of SAM on every step, i.e. +200%: SAM's two passes "
                "give +100%", common and sam_everywhere == 2, not_admitted="unsupported",
                sam_everywhere_overhead=float(sam_everywhere)),
    ]
    return decide_readings(
        readings,
        criterion="exact rational arithmetic on the printed budget: the decay phase t >= D of (9) is "
                  "(T − D)/T of the steps (≈1/6 within 1e-3 under either step count); a SAM step costs "
                  "two forward/backward passes, so the overhead is (T − D)/T · (2 − 1), which must lie "
                  "in the rounding interval of the printed 17 ([16.5, 17.5) %)",
        numbers={"printed": {"W": W_PRINTED, "D": D_PRINTED, "T": T_PRINTED, "sam_passes": SAM_PASSES},
                 "schedule_9": schedule,
                 "decay_fraction": {k: str(v) for k, v in decay.items()},
                 "overhead_percent": {k: 100 * float(v) for k, v in overhead.items()},
                 "overhead_in_printed_17": in_17,
                 "sam_step_cost_ratios_that_round_to_17_percent": c_range,
                 "sawd_cost_relative_to_plain": {k: float(1 + v) for k, v in overhead.items()},
                 "sam_everywhere_cost_relative_to_plain": float(1 + sam_everywhere)})


# ------------------------------------------------------------------ Remark E.2 on trained models

REMARK_E2_VARIANTS = ("adam", "rmsprop")   # the diagonal (Adam-/RMSProp-style) second-moment streams
DIAGNOSTIC_KEY = "second_moment_balance"   # the field of a diagnosed diagonal-moment run
# main's weights were not kept: the balance is measured on main's arms retrained (bit for bit, on
# the machine and thread count that trained them) and diagnosed as they finish
STUDY = "main-replica"
MIN_RUNS = 3   # diagnosed runs per variant before the check decides


@lru_cache(maxsize=1)
def _quick_balance() -> dict:
    """Quick budget: the measurement on seconds-long in-memory runs (one seed) of the two variants."""
    from particles.lm import train as lm_train
    from particles.threads import torch_threads

    out = {}
    with torch_threads(1):
        for v in REMARK_E2_VARIANTS:
            cfg = replace(lm_train.TrainConfig(**lm_train.QUICK), variant=v, seed=0)
            with tempfile.TemporaryDirectory() as tmp:
                lm_train.train(cfg, tmp)
                model, _ = lm_train.load_model(Path(tmp) / f"{lm_train.run_stem(v, 0)}.json")
            g = torch.Generator().manual_seed(4)
            idx = torch.randint(0, model.config.vocab_size, (4, model.config.block_size), generator=g)
            out[v] = second_moment_balance(model.eval(), idx)
    return out


def _committed_balance() -> dict:
    """What the committed `main-replica` runs hold for Remark E.2: per variant, the runs trained and
    diagnosed (`Study.collect`, `Study.collect_diagnostics`: validated against their runs), and
    those whose diagnostics carry `DIAGNOSTIC_KEY`."""
    from particles.lm.studies import get_study
    from particles.lm.train import run_stem

    study = get_study(STUDY)
    trained = study.collect(REMARK_E2_VARIANTS).results
    diagnosed = study.collect_diagnostics(REMARK_E2_VARIANTS).results
    out = {}
    for v in REMARK_E2_VARIANTS:
        runs = dict(sorted(diagnosed.get(v, {}).items()))
        seeds = sorted(trained.get(v, {}))
        out[v] = {"trained_runs_committed": [run_stem(v, s) for s in seeds],
                  "diagnosed": [run_stem(v, s) for s in runs],
                  "with_second_moment_balance": {run_stem(v, s): d[DIAGNOSTIC_KEY] for s, d in runs.items()
                                                 if DIAGNOSTIC_KEY in d},
                  # bit for bit main's run (the same training): the balance is then main's model's
                  "replica_equals_main": replica_equals_main({v: seeds})}
    return out


@claim("momentum_streams:remark-E.2-trained", locator="Remark E.2",
       statement="extension of Remark E.2 to trained models: in the trained AdamFormer and "
                 "RMSPropFormer of the main study the per-token second-moment stream is balanced in "
                 "Theorem E.1's sense (s_max/s_min ≤ 2 at every token and substep), so D_s is nearly "
                 "scalar there; waits for the measurement on the trained weights",
       method="property", expect="fails", expect_quick="inconclusive", extension=True,
       referee="changed, inconclusive -> fails (issue 35): on main's arms retrained bit for bit "
               "(main-replica, seeds 0-2, 2,048 tokens x 8 substeps each) the trained stream is "
               "not balanced: s_max/s_min reaches 47-82 (AdamFormer) and 18-23 (RMSPropFormer), "
               "and even the median token-substep is above Theorem E.1's 2 in all six runs (2.2-4.5); "
               "21-40% of token-substeps are balanced. The balance holds at the first substep "
               "(max 1.3-2.0, S_0 = 1 still dominating) and breaks from the second on. An "
               "extension: the remark calls the balance 'natural' and states no level, so this is "
               "no error of the paper",
       paper_text=r"The balance assumption is natural in this setting because the Adam- or "
                  r"RMSProp-style second-moment stream is driven by oracle outputs q=\mathcal{O}_{"
                  r"\ell}(\operatorname{LN}(x)), rather than raw, unnormalized token states. The oracle "
                  r"input is normalized, the coordinate projections are dense and learned, and the final "
                  r"adaptive update is again normalized by \operatorname{LN}_{u} before entering the "
                  r"residual stream. These architectural features make large persistent "
                  r"coordinate-scale disparities less central than in parameter-space optimization, "
                  r"where Adam is most useful. The theorem shows that, under this balanced-second-moment "
                  r"condition, the Adam- or RMSProp-style diagonal preconditioner in token space is "
                  r"nearly a scalar matrix.")
def remark_e2_trained(budget: str) -> Evidence:
    if budget == "quick":
        got = _quick_balance()
        waits = "the quick budget measures 6-step toy runs (the pipeline only); it decides nothing"
        source = "quick in-memory runs (QUICK config, seed 0)"
    else:
        committed = _committed_balance()
        got = {v: c["with_second_moment_balance"] for v, c in committed.items()
               if c["with_second_moment_balance"]}
        missing = {v: len(c["with_second_moment_balance"]) for v, c in committed.items()
                   if len(c["with_second_moment_balance"]) < MIN_RUNS}
        waits = ("" if not missing else
                 "main's committed diagnostics record flatness and Jacobians, not the second-moment "
                 "stream, and main's weights were not kept: the check waits for `python -m "
                 "particles.lm study run main-replica`, which retrains main's diagnosed arms and "
                 "records the per-token balance of S (`particles.lm.diagnostics.second_moment_balance`) "
                 f"under the key {DIAGNOSTIC_KEY!r} as each run finishes; diagnosed so far: "
                 + ", ".join(f"{v} {n} of {MIN_RUNS}" for v, n in sorted(missing.items())))
        source = {"study": STUDY, "committed": committed}
    decided = not waits
    balanced = all(r["ratio_max"] <= BALANCED for runs in got.values()
                   for r in (runs.values() if budget != "quick" else [runs]))
    return decide(
        balanced, decided=decided,
        criterion="the trained stream S after every substep, per token: s_max/s_min ≤ 2 (Theorem E.1 "
                  "with ε ≤ 1) at every token, substep and seed; S recomputed from the oracle outputs "
                  "by S ← β₂S + (1 − β₂)g⊙g and held against the block's own S (rounding level). The "
                  "remark calls the balance 'natural' and gives no level: 'at every token' is sharper "
                  "(an extension, outside the tally); momentum_streams:balance-premise checks it at "
                  "initialization",
        numbers={"source": source, "measured": got, "waits_for": waits or None,
                 "balanced_if": f"s_max/s_min <= {BALANCED}"})

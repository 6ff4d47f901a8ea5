"""Seed 004 (YuriiFormer) decided on the committed training studies (results/lm/; the rule:
`claims._experiment`): Table 2's sentence (§5.2), the Lie-Trotter sentence (§5.4) and Table 5's
two sentences (§6, App. B.3); and §6's "the same compute" (FLOPs counted, step time measured on a
GPU or bounded by the cost model: `claims._wallclock`)."""
from __future__ import annotations

from claims import Evidence, claim, decide_readings, reading
from claims._experiment import Reading, experiment_evidence, with_scale_trend, with_union_reading
from claims._stats import ALPHA
from claims._wallclock import BAND, cost_model, reading_verdict, timing_evidence
from claims.momentum_streams.diagnostics import NEGLIGIBLE
from claims.yurii import tables as yurii_tables


# --------------------------------------------------------- seed 004 §5.2-§5.4, §6: the loss tables

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

    def members(alpha: float) -> dict[str, Evidence]:
        return {f"tied for best; {x} below Nesterov+Lie-Trotter": experiment_evidence(
            YURII_TABLE_5, YURII_TABLE_5_ROWS, "main", protocol="yurii TinyStories", source="seed 004 §6, Table 5, Best",
            alpha=alpha, readings=[Reading(f"tied for best; {x} below Nesterov+Lie-Trotter", tie + ((x, NLT, "less"),))])
            for x in EXTRA_COMPUTE}
    every = experiment_evidence(YURII_TABLE_5, YURII_TABLE_5_ROWS, "main", protocol="yurii TinyStories",
                                source="seed 004 §6, Table 5, Best", readings=[Reading(
                                    "tied for best; every extra-compute rule below Nesterov+Lie-Trotter",
                                    tie + tuple((x, NLT, "less") for x in EXTRA_COMPUTE))])
    # the existential reading is the union over the six members: one holds at 0.05/6 (Bonferroni),
    # all fail at 0.05 (intersection-union)
    return with_union_reading(every, members(ALPHA / len(EXTRA_COMPUTE)),
                              "tied for best, and some extra-compute rule is below Nesterov+Lie-Trotter (one of "
                              "the six suffices; a rule holds at family-wise level 0.05/6, Bonferroni over the "
                              "six, and fails at 0.05, intersection-union)", at=0, sentence="can achieve lower losses",
                              alone=members(ALPHA))


# ------------------------------------------------------------------- seed 004 §6: the same compute

@claim("yurii:wall-clock", locator="§6 (Polyak vs Nesterov)",
       statement="Nesterov's lookahead comes at the same compute as Polyak's heavy ball (no extra "
                 "attention/MLP oracle calls), Euler and Lie–Trotter (FLOPs, and step time measured "
                 "on a GPU at 12L/768/T=1024)",
       method="experiment", expect="holds", figures=["cost-model", "bench-training"],
       paper_text="Compared to Polyak, Nesterov’s lookahead yields a small additional loss improvement at "
                  "the same compute and parameter budget (no extra attention/MLP oracle calls).")
def yurii_wall_clock(budget: str) -> Evidence:
    """Readings of 'the same compute': the same FLOPs per step (counted, exact: the equivalence
    margin is 0), or the same step time within 10% (`decide_pair`: the GPU measurement, else the
    cost-model band)."""
    model = cost_model()
    pp = model["papers"]["yurii"]
    flops = {s: pp[f"nesterov-{s}"]["flops"] / pp[f"polyak-{s}"]["flops"] for s in ("euler", "lt")}
    params = {s: pp[f"nesterov-{s}"]["params"] - pp[f"polyak-{s}"]["params"] for s in ("euler", "lt")}
    time = {f"Nesterov+{s} step time = Polyak+{s}'s": (f"nesterov-{s}", f"polyak-{s}", 1 / NEGLIGIBLE, NEGLIGIBLE)
            for s in ("euler", "lt")}
    ev = timing_evidence(budget, "yurii", {"the same step time, within 10%": time}, criterion=BAND)
    flop_rows = {f"Nesterov+{s} FLOPs = Polyak+{s}'s": {"ratio": r, "status": "holds" if r == 1.0 else "fails"}
                 for s, r in flops.items()}
    rds = [reading("the same FLOPs per step (matmul FLOPs counted by FlopCounterMode: the oracle calls)",
                   reading_verdict(flop_rows), statuses={k: r["status"] for k, r in flop_rows.items()}),
           *ev.readings]
    numbers = dict(ev.numbers, flops_ratio=flops, extra_parameters=params,
                   sub_assertions={rds[0]["reading"]: flop_rows, **ev.numbers["sub_assertions"]})
    return decide_readings(rds, criterion="FLOPs per step at the paper's size equal (exact count); or " + BAND,
                           numbers=numbers, ambiguity="the readings disagree: " + "; ".join(
                               f"{r['reading']} -> {r['verdict']}" for r in rds))

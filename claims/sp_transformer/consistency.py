"""Seed 001 (structure-preserving transformers) held against itself (method `consistency`): the
prose of §5 against its own eq. (28), Table 2 and the captions of Figure 7. Decided from the printed
numbers alone, no training; each claim quotes both places ([locator] before each quote) and weighs
every reading of the words that link them.
"""
from __future__ import annotations

from claims import Evidence, claim, decide_readings, reading
from particles.sp_networks import NETWORKS, Table2, build
from particles.sp_train import BUDGETS

# Printed values: Table 2 (upscale dimension, L, n_heads, sl, pl), §5 (M = 2N = 40; step 0.4)
UPSCALE, L, N_HEADS, SL, PL = 20, 2, 4, 5, 1
M_PRINTED, H_STEP = 40, 0.4


@claim("sp_transformer:table-2-dimensions", locator="Table 2 and §5, text around it",
       statement="Table 2's upscale dimension 20, 'the dimension in which the transformer operates', "
                 "and the text's 'twice the upscale dimension (i.e. M = 2N = 40)' agree",
       method="consistency", expect="holds",
       referee="7 Dec 2026: the first reading (2N = 20, N = 10) is shown not admitted (R3: the text's own "
               "'M = 2N = 40' contradicts it; an independent referee's audit of the ambiguities); the class "
               "rests on the two counts of 'the dimension in which the transformer operates': unchanged",
       paper_text=r"""[§5] The upscaling maps the low-dimensional input in $\mathbb{R}^{2d}$ to a higher-dimensional space $\mathbb{R}^{2N}$ in which we work with the transformer.
[§5] The integer $M$ for the gradient layers is chosen to be twice the upscale dimension (i.e. $M=2N=40$).
[§5] The hyperparameters for the network architecture are the following: the dimension in which the transformer operates, the number of transformer components $L$, the number of heads in the multi-head attention layer
[Table 2] Table 2: Choice for hyperparameters in the networks in fig. 6.
[Table 2] upscale dimension $L$ $\mathtt{n\_heads}$ $\mathtt{sl}$ $\mathtt{pl}$ 20 2 4 5 1
[§1, Example 1] For a one-dimensional harmonic oscillator""")
def table_2_dimensions(budget: str) -> Evidence:
    def checks(N: int, operates_in: int) -> dict:
        """The printed relations when the transformer works in R^{2N} and Table 2's 20 is `operates_in`."""
        return {"M = twice the upscale dimension": M_PRINTED == 2 * UPSCALE, "M = 2N": M_PRINTED == 2 * N,
                "Table 2 = the dimension in which the transformer operates": UPSCALE == operates_in,
                "n_heads divides 2N": (2 * N) % N_HEADS == 0}
    r1 = checks(N=UPSCALE // 2, operates_in=UPSCALE)   # 20 = dim R^{2N}
    r2 = checks(N=UPSCALE, operates_in=UPSCALE)        # 20 = N, counted as Example 1 counts
    r3 = checks(N=UPSCALE, operates_in=2 * UPSCALE)    # 20 = N, 'operates' in dim R^{2N} = 40
    readings = [
        reading("'upscale dimension' = 'the dimension in which the transformer operates' = dim R^{2N}: "
                "2N = 20, N = 10", all(r1.values()), not_admitted="invented", **r1),  # M = 2N = 40 says N = 20
        reading("'upscale dimension' = N (Φ ∈ St(d, N) is N×d), and 'the dimension in which the "
                "transformer operates' counted in degrees of freedom, as Example 1 calls the oscillator "
                "on R² one-dimensional: N = 20, the transformer on R^40", all(r2.values()), **r2),
        reading("'upscale dimension' = N = 20, and 'the dimension in which the transformer operates' "
                "the vector-space dimension 2N = 40", all(r3.values()), **r3),
    ]

    n40 = BUDGETS["n40"].table2

    def n_parameters(upscale: int) -> dict:
        cfg = Table2(upscale=upscale, width=M_PRINTED, n_layers=L, n_heads=N_HEADS, seq_len=SL)
        return {name: sum(p.numel() for p in build(name, cfg).parameters()) for name in sorted(NETWORKS)}
    return decide_readings(
        readings,
        criterion="each printed relation evaluated on the printed numbers under each reading of "
                  "'upscale dimension' and 'the dimension in which the transformer operates'",
        numbers={"printed": {"upscale_dimension": UPSCALE, "M": M_PRINTED, "n_heads": N_HEADS},
                 "n_parameters_if_2N_is_20": n_parameters(UPSCALE),
                 "n_parameters_if_2N_is_40": n_parameters(2 * UPSCALE),
                 "ledger_experiment_table2": {
                     "deciding (budget n40)": {"upscale_2N": n40.upscale, "width_M": n40.width,
                                               "reading": "N = 20: 2N = 40, M = 2N = 40 (the second "
                                                          "and third readings)"},
                     "sensitivity row (budget full)": {"upscale_2N": Table2().upscale,
                                                       "width_M": Table2().width,
                                                       "reading": "2N = 20 with M = 40 = 4N (the first "
                                                                  "reading, keeping 'twice the upscale "
                                                                  "dimension')"}}},
        ambiguity="Table 2's 20 is N (the text's M = 2N = 40 fixes it), 'the dimension in which the "
                  "transformer operates' under the degrees-of-freedom count of Example 1; counted as the "
                  "dimension of the space the transformer works in, R^{2N} = R^40, it is not Table 2's 20. "
                  "The authors could state N and which count Table 2 uses")


@claim("sp_transformer:eq-28-sequence-length", locator="eq. (28), §5 and Table 2",
       statement="eq. (28) feeds sl vectors and predicts pl, consistently with the definition of sl, "
                 "the one-step networks' sl = pl = 1 ('one vector at a time') and Table 2's sl = 5",
       method="consistency", expect="holds-with-correction",
       referee="confirmed: the index range z^(t), …, z^(t+sl) has sl + 1 entries under the inclusive "
               "convention the paper uses everywhere (z^(1), …, z^(T) are T tokens in §2; the output "
               "range of the same eq. (28) has exactly pl entries only when inclusive), so sl = 1 feeds "
               "two vectors, against 'sl = pl = 1 ... only ever see one vector at a time' and 'sl denotes "
               "... the length of the sequence that we feed into the network'. An off-by-one in the "
               "indices of eq. (28); the prose and Table 2 agree with each other. Second referee (26 Nov "
               "2026) asked for an ambiguity, since the prose states what sl means; kept as an erratum "
               "under the misprint convention of docs/architecture.md: the paper prints the intended "
               "meaning in words only, and the corrected index ranges (t … t+sl−1, t+sl … t+sl+pl−1) "
               "must be derived, in a formula the text points to as the definition. Issue 38 (both "
               "referees, R2): the intended content is printed in words next to the formula and the "
               "two index fixes differ only by relabelling t: a misprint",
       paper_text=r"""[eq. (28)] $$\mathcal{NN}:[z^{(t)},\ldots,z^{(t+\mathtt{sl})}]\mapsto[\hat{z}^{(t+\mathtt{sl}+1)},\ldots,\hat{z}^{(t+\mathtt{sl}+\mathtt{pl})}],$$
[§5] here $\mathtt{sl}$ denotes the sequence length, i.e. the length of the sequence that we feed into the network and $\mathtt{pl}$ is the prediction length, i.e. the length of the output sequence that is predicted by the network.
[§5] The ResNet and the SympNet cannot resolve time series data, which means for both of these $\mathtt{sl}=\mathtt{pl}=1$. These networks only ever see one vector at a time.
[§5, below Figure 7] We provide each of them with a sequence of 5 time steps (equivalent to $t=2.0$ as the time step was chosen as 0.4); these 5 time steps are obtained with implict midpoint. We start the prediction after this point (i.e. $t=2.0$).
[Table 2] upscale dimension $L$ $\mathtt{n\_heads}$ $\mathtt{sl}$ $\mathtt{pl}$ 20 2 4 5 1""")
def eq_28_sequence_length(budget: str) -> Evidence:
    def count(first: int, last: int, inclusive: bool) -> int:
        return last - first + (1 if inclusive else 0)

    def relations(n_in, n_out, length=lambda n: n) -> dict:
        """The printed statements, given how many vectors eq. (28) takes in (n_in(sl)) and gives out
        (n_out(pl)), and how the 'length' of a sequence of n vectors is counted."""
        return {"one-step networks (sl = 1) see one vector": n_in(1) == 1,
                "sl is the length of the input sequence": all(length(n_in(s)) == s for s in (1, SL)),
                "pl is the length of the output sequence": all(n_out(p) == p for p in (1, 2, SL))}
    t = 0
    inclusive = relations(lambda s: count(t, t + s, True), lambda p: count(t + SL + 1, t + SL + p, True))
    steps = relations(lambda s: count(t, t + s, True), lambda p: count(t + SL + 1, t + SL + p, True),
                      length=lambda n: n - 1)          # a sequence of n vectors spans n − 1 steps
    exclusive = relations(lambda s: count(t, t + s, False), lambda p: count(t + SL + 1, t + SL + p, False))
    corrected = relations(lambda s: count(t, t + s - 1, True), lambda p: count(t + SL, t + SL + p - 1, True))
    readings = [
        reading("index ranges inclusive, as z^(1), …, z^(T) in §2: eq. (28) takes sl + 1 vectors",
                all(inclusive.values()), **inclusive),
        reading("sl counts time steps (intervals) of the input, not vectors: eq. (28) spans sl steps",
                all(steps.values()), **steps),
        reading("both ranges end-exclusive: sl inputs but pl − 1 outputs", all(exclusive.values()),
                **exclusive),
    ]
    return decide_readings(
        readings, all(corrected.values()),
        criterion="count the vectors eq. (28) takes in and gives out under each reading and evaluate the "
                  "printed statements on them (sl = 1, Table 2's sl = 5, pl = 1)",
        numbers={"printed": {"sl_table2": SL, "pl_table2": PL, "step": H_STEP,
                             "five_steps_times_step": round(5 * H_STEP, 12)},
                 "corrected_relations": corrected,
                 "warmup_left_open": "with 5 input vectors the warm-up is t = 0, …, 1.6 (first prediction "
                                     "at t = 2.0) or t = 0.4, …, 2.0 (five implicit-midpoint steps from "
                                     "z(0), first prediction at 2.4); 'we start the prediction after this "
                                     "point (i.e. t = 2.0)' allows both"},
        counterexample={"sl": 1, "vectors_fed_by_eq_28": count(t, t + 1, True),
                        "text": "These networks only ever see one vector at a time."},
        correction="𝒩𝒩: [z^(t), …, z^(t+sl−1)] ↦ [ẑ^(t+sl), …, ẑ^(t+sl+pl−1)]: sl vectors in, pl out; "
                   "the one-step networks see one vector, the transformers the 5 of Table 2")


@claim("sp_transformer:fig-7-horizons", locator="Figure 7 captions and §5, text below Figure 7",
       statement="the text's horizons for Figure 7(a, b), 'up to time t = 10 in the first case and "
                 "t = 18 in the second', with its 'first ten time steps' and 'time step 18', are the "
                 "captions' intervals [0, 10] and [0, 18]",
       method="consistency", expect="holds",
       referee="changed (issue 38, R3), holds with an ambiguity -> holds: the passage itself says "
               "t = 10 and t = 18, as the captions do. Read with §5's integrator step of 0.4, 'the "
               "first ten time steps' and 'time step 18' are t ≤ 4 and t = 7.2 (9.2 from the start of "
               "the prediction), sub-windows of the same panels about which the sentences assert "
               "nothing false; that these steps must equal the captions' end times is the check's "
               "requirement, not the text's",
       paper_text=r"""[Figure 7] (a) Comparison between ResNet and Sympnet for interval [0, 10].
[Figure 7] (b) Comparison between ResNet and Sympnet for interval [0, 18].
[§5] Figures 6(a) and 6(b) show a comparison between ResNet and SympNet up to time $t=10$ in the first case and $t=18$ in the second. If we only look at the first ten time steps in fig. 6(a) it is not immediately clear which of the two networks performs better
[§5] But looking at the system at time step 18 in fig. 6(b) the advantage of the SympNet over the ResNet becomes obvious
[§5] We provide each of them with a sequence of 5 time steps (equivalent to $t=2.0$ as the time step was chosen as 0.4)""")
def fig_7_horizons(budget: str) -> Evidence:
    captions = (10.0, 18.0)
    start = 2.0   # "We start the prediction after this point (i.e. t = 2.0)"
    as_time = (10.0, 18.0)
    as_steps = (10 * H_STEP, 18 * H_STEP)
    as_steps_after_start = (start + 10 * H_STEP, start + 18 * H_STEP)
    # integrator steps of 0.4 give sub-windows of the same panels; requiring them to end at the
    # captions' end times is a horizon the text does not give (R3)
    readings = [
        reading("'time step' as a unit of time, as the passage's 'up to time t = 10 … and t = 18': "
                "t = 10 and t = 18", as_time == captions, t=as_time),
        reading("'time step' as integrator steps of 0.4, the paper's own use in 'a sequence of 5 time "
                "steps (equivalent to t = 2.0 ...)', counted from t = 0, required to end at the "
                "captions' end times", as_steps == captions, t=as_steps, not_admitted="invented"),
        reading("integrator steps counted from the start of the prediction at t = 2.0, required to end "
                "at the captions' end times", as_steps_after_start == captions, t=as_steps_after_start,
                not_admitted="invented"),
    ]
    return decide_readings(
        readings,
        criterion="the horizon each reading gives equals the caption's end time (10 and 18)",
        numbers={"caption_end_times": captions, "step": H_STEP,
                 "note": "the text cites Figure 7's panels as 'figs. 6(a)–6(d)' "
                         "(sp_transformer:misprint-fig-7-panels; Figure 6 is the architecture diagram)"})

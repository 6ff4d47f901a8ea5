"""Seed 004 (YuriiFormer) on the training path's models, without training: App. A.1's parameter
counts (meta device), the Polyak blocks as the mu = 0 case of the Nesterov blocks (§6), the oracle
calls per block counted by hooks (§6, App. B.2-B.3), the causality of every update rule (§5.1),
and the same parameter budget of Nesterov and Polyak (§6, App. A.1)."""
from __future__ import annotations

import torch

from claims import Evidence, claim, decide_readings, reading, verdict_from
from claims._structure import MEDIUM, millions, model_dependence, pair_equal, small
from particles.lm.model import GPT, GPTConfig, count_parameters, meta_model
from particles.lm.variants import VARIANTS
from particles.threads import torch_threads


@claim("yurii:param-count", locator="Appendix A.1; Table 1",
       statement="GD baselines have 123.6M (12L/12H/768d) and 353.6M (24L/16H/1024d) non-positional "
                 "parameters; the v0 token tables add 38.6M (d=768) and 51.5M (d=1024)",
       method="count", expect="holds",
       paper_text=r"Under this convention, the 12L/12H/768d and 24L/16H/1024d GD baselines (GD+Lie–Trotter "
                  r"(nanoGPT) and GD+Euler) have 123.6M and 353.6M non-positional parameters, respectively. "
                  r"[...] a token embedding table (size  $Vd$ , adding 38.6M parameters for  $d=768$  and "
                  r"51.5M for  $d=1024$ ) [Table 1: MODEL SIZE 123.6M 123.6M 353.6M]")
def yurii_param_count(budget: str) -> Evidence:
    counts = {}
    for size, cfg, printed, table in (("small", small(), 123.6, 38.6), ("medium", MEDIUM, 353.6, 51.5)):
        for v in ("gd-lt", "gd-euler"):
            counts[f"{v}/{size}"] = (count_parameters(meta_model(cfg, v), non_positional=True), printed)
        counts[f"v0-token-table/{size}"] = (cfg.vocab_size * cfg.n_embd, table)
    ok = all(millions(n) == p for n, p in counts.values())
    return Evidence(verdict_from(ok), criterion="every count rounds to the printed value at the "
                    "printed precision (0.1M); models instantiated on the meta device, V=50304, T=1024, "
                    "no biases, LayerNorm weights only",
                    numbers={k: {"count": n, "printed_M": p} for k, (n, p) in counts.items()})


@claim("yurii:param-count-momentum", locator="Appendix A.1; §5.1",
       statement="The Nesterov variants have the same non-positional parameter counts as the GD "
                 "baselines (123.6M / 353.6M) up to a negligible overhead from the update rule",
       method="count", expect="holds-with-correction",
       paper_text=r"We follow a common GPT non-positional counting convention: letting  $V$  be the "
                  r"vocabulary size and  $d$  the embedding dimension, we exclude the learned positional "
                  r"embedding table (which scales with context length) but include the token embedding "
                  r"matrix (size  $V \times d$ ) since it is weight-tied to the output projection used for "
                  r"next-token logits. [...] The Nesterov-accelerated variants (Nesterov+Euler and "
                  r"Nesterov+Lie–Trotter) keep the same token embedding and Transformer weight matrices as "
                  r"the GD baselines. Under this convention, they therefore have the same non-positional "
                  r"parameter counts as above (123.6M for 12L/12H/768d and 353.6M for 24L/16H/1024d), up "
                  r"to a negligible overhead from the update rule. [...] Momentum variants also learn "
                  r"separate  $v_0$  embedding tables used to initialize the velocity: a token embedding "
                  r"table (size  $Vd$ , adding 38.6M parameters for  $d=768$  and 51.5M for  $d=1024$ ), "
                  r"and a positional embedding table (size  $Td$ ), which is excluded from non-positional "
                  r"parameter counts by the convention above. [§5.1] Using a standard convention both the "
                  r"GD baselines and YURIIFORMER variants come at 124M parameters for *small* and 354M "
                  r"parameters for *medium*.",
       referee="confirmed: the convention excludes only positional tables, and A.1 itself says the "
               "v0 positional table is the one it excludes while the v0 token table 'adds 38.6M'; so "
               "the Nesterov count is 162.2M (small) and 405.1M (medium), 31% and 15% above the "
               "printed counts, not a negligible overhead. A reading that also drops the v0 token "
               "table (the convention includes the token matrix 'since it is weight-tied', which the "
               "v0 table is not) contradicts A.1's own 'adding 38.6M' and 'positional ... excluded', "
               "and nanoGPT's standard count (§5.1) drops only position embeddings")
def yurii_param_count_momentum(budget: str) -> Evidence:
    rows = {}
    for size, cfg, printed in (("small", small(), 123.6), ("medium", MEDIUM, 353.6)):
        for v in ("nesterov-lt", "nesterov-euler"):
            n = count_parameters(meta_model(cfg, v), non_positional=True)
            without_v0 = n - cfg.vocab_size * cfg.n_embd
            rows[f"{v}/{size}"] = {"non_positional": n, "overhead_vs_printed": n / (printed * 1e6) - 1,
                                   "without_v0_token_table": without_v0,
                                   "printed_M": printed, "section_5.1_M": round(printed)}
    worst = max(r["overhead_vs_printed"] for r in rows.values())
    fixed = all(millions(r["without_v0_token_table"]) == r["printed_M"] for r in rows.values())
    readings = [
        reading("A.1's convention as stated (only positional tables excluded; the v0 token table, "
                "which A.1 says adds 38.6M / 51.5M, counted), 'negligible' as < 1% above the printed "
                "count", worst < 0.01, largest_overhead=worst),
        reading("the same count, 'negligible' read generously as < 5%", worst < 0.05,
                largest_overhead=worst),
        reading("§5.1's 'standard convention' (nanoGPT's non-embedding count: the position "
                "embeddings subtracted, every other table counted) against 124M / 354M",
                all(round(r["non_positional"] / 1e6) == r["section_5.1_M"] for r in rows.values()),
                counts_M={k: millions(r["non_positional"], 0) for k, r in rows.items()}),
    ]
    return decide_readings(
        readings, fixed, criterion="'negligible' read as < 1% (or < 5%) above the printed count; "
        "correction passes when the count without the v0 token table rounds to it",
        numbers=rows,
        counterexample={"nesterov-lt/small": rows["nesterov-lt/small"]["non_positional"]},
        correction="The Nesterov/Polyak variants have 123.6M + 38.6M = 162.2M (d=768) and "
                   "353.6M + 51.5M = 405.1M (d=1024) non-positional parameters: the v0 token "
                   "table is not positional; the printed counts hold only without it")


@claim("yurii:sec-6-polyak-blocks", locator="§6 (Polyak = mu_t = 0 specialization)",
       statement="The Polyak heavy-ball blocks (Euler and Lie-Trotter) are the mu_t = 0 "
                 "specialisations of the YuriiFormer blocks",
       method="property", expect="holds",
       paper_text=r"The resulting architecture is obtained by applying a heavy-ball update to the same "
                  r"attention and MLP oracles, with gradients evaluated at  $X_t$  rather than at a "
                  r"lookahead point  $X_t^{\text{in}}$ . Equivalently, it corresponds to the  $\mu_t = 0$  "
                  r"(no-lookahead) specialization of YURIIFORMER, mirroring the classical relationship "
                  r"between Nesterov acceleration and Polyak momentum.")
def yurii_polyak_blocks(budget: str) -> Evidence:
    results = {"nesterov-lt(mu=0) == polyak-lt": pair_equal("nesterov-lt", {"mu_a": 0.0, "mu_m": 0.0},
                                                             "polyak-lt"),
               "nesterov-euler(mu=0) == polyak-euler": pair_equal("nesterov-euler", {"mu": 0.0},
                                                                   "polyak-euler")}
    return Evidence(verdict_from(all(results.values())), criterion="bit-for-bit equal float64 logits, "
                    "3 seeds", numbers=results)


def printed_calls(name: str) -> tuple[int, int]:
    """(attention, MLP) oracle calls per block of variant `name` as the papers print them (seed 004
    App. B.2: "1 Attn + k MLP", "2 Attn + 1 MLP for Attn->MLP->Attn"; every other variant keeps
    1 + 1, seed 004 §6, seed 002 §4)."""
    if name.startswith("prk-verlet-"):
        return (2, 1) if name.endswith("ama") else (1, 2)
    if name.startswith("imex"):
        k = int(name.split("-k")[1][0])
        return (1, k) if name.endswith("-am") else (k, 1)
    return (1, 1)


@claim("yurii:oracle-calls", locator="§6 ('no extra oracle calls'); Appendix B.2, B.3",
       statement="Momentum variants keep 1 Attn + 1 MLP per block; IMEX uses 1 Attn + k MLP (AMA) "
                 "or k Attn + 1 MLP (MAM); PRK-Verlet 2 Attn + 1 MLP (AMA) or 1 Attn + 2 MLP (MAM)",
       method="count", expect="holds",
       paper_text=r"Compared to Polyak, Nesterov’s lookahead yields a small additional loss improvement at "
                  r"the same compute and parameter budget (no extra attention/MLP oracle calls). [...] "
                  r"Compute per block is 1 Attn +  $k$  MLP (Attn $\rightarrow$ MLP) or 1 MLP +  $k$  Attn "
                  r"(MLP $\rightarrow$ Attn). [...] compute per block is 2 Attn + 1 MLP for "
                  r"Attn→MLP→Attn and 2 MLP + 1 Attn for MLP→Attn→MLP (1.5× in oracle calls; actual FLOPs "
                  r"depend on ordering). [§7] Both the Nesterov and Polyak variants of YURIIFORMER embed "
                  r"momentum directly at the representation level without increasing the number of "
                  r"attention or MLP evaluations per block.")
def yurii_oracle_calls(budget: str) -> Evidence:
    from particles.lm.blocks import count_oracle_calls
    cfg = GPTConfig(block_size=8, n_layer=1, n_head=2, n_embd=8)
    idx = torch.zeros(1, 8, dtype=torch.long)
    counted = {}
    for name, v in sorted(VARIANTS.items()):
        if v.paper != "yurii":
            continue
        m = GPT(cfg, name)
        with torch_threads(1):
            c = count_oracle_calls(m.blocks[0], m.initial_state(idx))
        counted[name] = {"attn": c.attn, "mlp": c.mlp, "printed": printed_calls(name)}
    ok = all((c["attn"], c["mlp"]) == tuple(c["printed"]) for c in counted.values())
    return Evidence(verdict_from(ok), criterion="forward hooks on the attention and MLP input "
                    "projections count the calls of one block; equal to the printed compute",
                    numbers=counted)


@claim("yurii:causal", locator="§5.1 Models (causal attention mask); §2.1 footnote 1",
       statement="(unstated premise) every YuriiFormer update rule, with its velocity stream started "
                 "from per-token v0 tables, keeps the decoder causal",
       method="property", expect="holds", premise=True,
       paper_text=r"We use decoder-only Transformer language models trained autoregressively with a "
                  r"causal attention mask. [§2.1, footnote 1] Additional components such as "
                  r"normalization, multi-head structure, and causal masking are standard in practice and "
                  r"used in our experiments")
def yurii_causal(budget: str) -> Evidence:
    names = sorted(n for n, v in VARIANTS.items() if v.paper == "yurii")
    maps = {n: model_dependence(n) for n in names}
    return Evidence(verdict_from(all(m["support_is_lower_triangle"] for m in maps.values())),
                    criterion="float64 logits of every seed-004 variant: the token dependence map "
                              "(each token and each suffix perturbed, outputs compared bit for bit) "
                              "is exactly zero on every pair s > t and non-zero on every s <= t",
                    numbers={n: {k: m[k] for k in ("max_dependence_on_later", "support_is_lower_triangle")}
                             for n, m in maps.items()})


@claim("yurii:sec-6-same-budget", locator="§6 (Empirical comparison); Appendix A.1",
       statement="Nesterov and Polyak variants have the same parameter budget: they differ by the "
                 "lookahead scalars only, and the update rule adds O(Ld) + O(L) parameters beyond the "
                 "v0 tables (velocity LayerNorm and scalars), a negligible overhead",
       method="count", expect="holds",
       paper_text=r"Compared to Polyak, Nesterov’s lookahead yields a small additional loss improvement at "
                  r"the same compute and parameter budget (no extra attention/MLP oracle calls). [A.1] "
                  r"Additional learned parameters include a velocity Layer-Norm ( $O(Ld)$ , with  $L$  "
                  r"layers) and  $O(L)$  learned scalars.")
def yurii_same_budget(budget: str) -> Evidence:
    rows = {}
    for size, cfg in (("small", small()), ("medium", MEDIUM)):
        counts = {v: count_parameters(meta_model(cfg, v), non_positional=True)
                  for v in ("gd-lt", "gd-euler", "polyak-lt", "nesterov-lt", "polyak-euler", "nesterov-euler")}
        table = cfg.vocab_size * cfg.n_embd
        L, d = cfg.n_layer, cfg.n_embd
        for split in ("lt", "euler"):
            rule = counts[f"nesterov-{split}"] - table - counts[f"gd-{split}"]
            rows[f"{size}/{split}"] = {
                "nesterov_minus_polyak": counts[f"nesterov-{split}"] - counts[f"polyak-{split}"],
                "update_rule_parameters": rule, "per_layer_over_d": rule / (L * d), "layers": L,
                "relative_to_gd": rule / counts[f"gd-{split}"]}
    ok = all(0 < r["nesterov_minus_polyak"] <= 2 * r["layers"] and r["per_layer_over_d"] <= 4
             and r["relative_to_gd"] < 1e-3 for r in rows.values())
    return Evidence(verdict_from(ok),
                    criterion="models on the meta device (V = 50304, T = 1024): Nesterov − Polyak is a "
                              "positive count of at most 2 lookahead scalars per layer; the "
                              "update rule's parameters beyond the v0 token table are ≤ 4d per layer "
                              "(LN_v weights and scalars: O(Ld) + O(L)) and < 0.1% of the GD count",
                    numbers=rows)

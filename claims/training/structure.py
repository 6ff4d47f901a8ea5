"""Claims of the training path (`particles.lm`) that need no training: parameter counts on the
meta device, containments as exact equalities, oracle calls counted by hooks, and causality.
The loss-table orderings (trained models) are in `claims.training.tables`.
"""
from __future__ import annotations

import torch

from claims import Evidence, claim, decide_readings, reading, verdict_from
from particles.lm.blocks import explicit_force_G, hamiltonian_oracle_G
from particles.lm.model import GPT, GPTConfig, count_parameters, meta_model
from particles.lm.variants import NON_CAUSAL, VARIANTS
from particles.threads import torch_threads
from particles.verify import CausalDependence, causal_dependence

F64 = torch.float64


def small(V=50304, T=1024, L=12, H=12, d=768) -> GPTConfig:
    return GPTConfig(vocab_size=V, block_size=T, n_layer=L, n_head=H, n_embd=d)


MEDIUM = small(L=24, H=16, d=1024)


def millions(n: int, digits: int = 1) -> float:
    return round(n / 1e6, digits)


# ------------------------------------------------------------------------------------ counts

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


@claim("momentum_streams:param-count", locator="Appendix D.5 (parameter-matched controls); §4.2",
       statement="Vanilla 124.4M vs TMMFormer 163.8M; width-900 control 162.86M (0.6% below TMM); "
                 "depth-18 control 166.85M; over 99% of the extra ~39M is the velocity embedding table",
       method="count", expect="holds",
       paper_text=r"TMMFormer carries  ${\approx}39$ M more parameters than the vanilla  $12$ L/ $768$ d "
                  r"backbone ( $163.8$ M vs.  $124.4$ M); over  $99\%$  of this is the duplicate token "
                  r"$+$ position embedding table that initializes the velocity stream [...] width- $900$  "
                  r"( $12$ L,  $d_{\mathrm{model}}{=}900$ ,  $12$  heads,  $d_{\mathrm{head}}{=}75$ ,  "
                  r"$162.86$ M— $0.6\%$  below TMMFormer) is the clean control. A secondary depth- $18$  "
                  r"run ( $18$ L,  $d_{\mathrm{model}}{=}768$ ,  $166.85$ M)")
def ms_param_count(budget: str) -> Evidence:
    vanilla = count_parameters(meta_model(small(), "gd-lt"))
    tmm_model = meta_model(small(), "tmm")
    tmm = count_parameters(tmm_model)
    width = count_parameters(meta_model(small(H=12, d=900), "gd-lt"))
    depth = count_parameters(meta_model(small(L=18), "gd-lt"))
    tables = sum(p.numel() for n, p in tmm_model.named_parameters() if n.startswith("aux_"))
    checks = {"vanilla_124.4M": millions(vanilla) == 124.4, "tmm_163.8M": millions(tmm) == 163.8,
              "width900_162.86M": millions(width, 2) == 162.86,
              "depth18_166.85M": millions(depth, 2) == 166.85,
              "width900_0.6pct_below": round(100 * (1 - width / tmm), 1) == 0.6,
              "extra_over_99pct_tables": tables / (tmm - vanilla) > 0.99}
    return Evidence(verdict_from(all(checks.values())), criterion="each count rounds to the printed "
                    "value at its printed precision; tables/extra > 0.99",
                    numbers={"vanilla": vanilla, "tmm": tmm, "width900": width, "depth18": depth,
                             "aux_tables": tables, "extra": tmm - vanilla, "checks": checks})


# the optimizer-inspired variants trained in seed 002 §4.2 (main table and text: Muon, SOAP)
SECTION_4_2 = ("tmm", "yurii", "adam", "adamw", "muon", "soap")


@claim("momentum_streams:param-count-aux", locator="Appendix D.1; §4.2 Experimental Setup",
       statement="Every auxiliary-stream variant has ~163M parameters, the extra ~39M coming from "
                 "the learned embeddings that initialise the auxiliary streams; <= 8 scalars per layer",
       method="count", expect="holds",
       paper_text=r"This appendix gives the full training and evaluation configuration used for every "
                  r"optimizer-inspired Transformer variant in Section 4.2. [...] The vanilla model has  "
                  r"$124$ M parameters; every auxiliary-stream variant has  $\approx 163$ M, the extra  "
                  r"$\approx 39$ M coming entirely from the separate learned token+position embeddings that "
                  r"initialize the auxiliary stream(s) ( $V_{0}$ ,  $M_{0}$ ,  $\ldots$ ). The per-layer "
                  r"learned scalars  $\omega_{\ell}$  are a negligible parameter count ( $\leq 8$  per "
                  r"layer) [§4.2] All variants, including the vanilla baseline of Section 3, share an "
                  r"identical  $12$ -layer pre-norm Transformer backbone [...] and differ only in the "
                  r"optimizer template of Section 4.1: vanilla has  $124$ M parameters and every "
                  r"auxiliary-stream variant  $\approx 163$ M.",
       referee="changed (was holds-with-correction; the count itself was confirmed): D.1 states its "
               "scope, 'every optimizer-inspired Transformer variant in Section 4.2', and §4.2 "
               "trains TMM, Yurii, Adam, AdamW, Muon and SOAP, each with a stream started from a "
               "learned embedding (V_0 or M_0): all 163.8M with <= 8 scalars per layer. The "
               "124.4M variants with a stream, RMSProp (S_0 = 1) and Shampoo (R_0 = I_D), appear "
               "only in §5 and App. B.3; read over the whole paper the sentence fails for them")
def ms_param_count_aux(budget: str) -> Evidence:
    aux = [n for n, v in VARIANTS.items() if v.paper == "momentum_streams" and v.streams]
    counts = {n: count_parameters(meta_model(small(), n)) for n in aux}
    scalars = {n: len(VARIANTS[n].scalars) for n in aux}
    near_163 = {n: abs(c / 163.8e6 - 1) < 0.01 for n, c in counts.items()}
    embedded = [n for n in aux if "embedding" in VARIANTS[n].streams.values()]
    holds_for = lambda names: all(near_163[n] and scalars[n] <= 8 for n in names)
    readings = [
        reading("'every auxiliary-stream variant' within D.1's stated scope, the variants of §4.2 "
                "(TMM, Yurii, Adam, AdamW, Muon, SOAP); '~163M' as within 1% of 163.8M",
                holds_for(SECTION_4_2), counts={n: counts[n] for n in SECTION_4_2}),
        reading("every variant of the paper that propagates an auxiliary stream (§4.1's V, M, S or "
                "R), including §5's RMSPropFormer and App. B.3's ShampooFormer",
                holds_for(aux), counterexample={n: counts[n] for n in aux if not near_163[n]}),
    ]
    corrected_ok = all(near_163[n] for n in embedded) and not any(near_163[n] for n in aux
                                                                  if n not in embedded)
    return decide_readings(
        readings, corrected_ok,
        criterion="'~163M' read as within 1% of 163.8M, with <= 8 learned scalars per layer, for "
                  "every variant in the reading's scope (S_0 = 1 and R_0 = I_D have no embedding table)",
        numbers={"counts": counts, "scalars_per_layer": scalars},
        counterexample={n: counts[n] for n in aux if not near_163[n]} or None,
        correction="Only the variants whose stream starts from learned embeddings (V_0, M_0: TMM, "
                   "Yurii, HB, Adam, AdamW, Muon, SOAP) have ~163.8M; RMSProp (S_0 = 1) and Shampoo "
                   "(R_0 = I_D) carry a stream but keep 124.4M",
        ambiguity="within D.1's stated scope (the §4.2 variants TMM, Yurii, Adam, AdamW, Muon, SOAP) "
                  "every auxiliary-stream variant has 163.8M; RMSPropFormer and ShampooFormer (§5, "
                  "App. B.3) carry a stream started from S_0 = 1 or R_0 = I_D, no embedding table, and "
                  "keep 124.4M, which the sentence, read over the whole paper, misses")



# ------------------------------------------------------------------------ structural properties

def _pair_equal(general: str, pins: dict, special: str, seeds=(0, 1, 2)) -> bool:
    with torch_threads(1):  # tiny models: one thread avoids spinning pool threads
        return all(_pair_equal_seed(general, pins, special, seed) for seed in seeds)


def _pair_equal_seed(general: str, pins: dict, special: str, seed: int) -> bool:
    """Bit-for-bit equal float64 logits of the pinned general model and the special one
    carrying the same weights (every weight of the special model comes from the general one)."""
    cfg = GPTConfig(block_size=16, n_layer=2, n_head=2, n_embd=16)
    torch.manual_seed(seed)
    g = GPT(cfg, general, pins=pins).to(F64)
    s = GPT(cfg, special).to(F64)
    if s.load_state_dict(g.state_dict(), strict=False).missing_keys:
        return False
    idx = torch.randint(0, 256, (2, 16), generator=torch.Generator().manual_seed(seed))
    with torch.no_grad():
        return torch.equal(g(idx), s(idx))


MS_CONTAINMENTS = (("tmm", {"nu_a": 1.0, "nu_m": 1.0}, "yurii"),
                   ("yurii", {"mu_a": 0.0, "mu_m": 0.0}, "hb"),
                   ("adam", {"beta1_a": 0.0, "beta1_m": 0.0}, "rmsprop"),
                   ("adamw", {"lambda_a": 0.0, "lambda_m": 0.0}, "adam"),
                   ("muon", {"beta1_a": 0.0, "beta1_m": 0.0}, "ortho"),
                   ("soap", {"beta1_a": 0.0, "beta1_m": 0.0}, "shampoo"))


@claim("momentum_streams:containments", locator="§4.1; Appendix B.1, B.3",
       statement="TMM with nu=1 is YuriiFormer; YuriiFormer with mu=0 is HBFormer; AdamFormer with "
                 "beta1=0 is RMSPropFormer; AdamWFormer with lambda=0 is AdamFormer; MuonFormer with "
                 "beta=0 is OrthoFormer; SOAPFormer with beta1=0 is ShampooFormer",
       method="property", expect="holds",
       paper_text=r"Setting  $\nu\equiv 1$  recovers YuriiFormer (Zimin et al., 2026) [...] HBFormer keeps "
                  r"the velocity stream of TMM/YuriiFormer but removes lookahead and fixes the  $\nu$  "
                  r"iterate-gain scalar to  $\nu\equiv 1$ —i.e., classical Polyak heavy-ball. [...] "
                  r"RMSPropFormer is the special case of AdamFormer with  $\beta_{1}^{(a)}\equiv\beta_{1}^{(m)}"
                  r"\equiv 0$ , so that the first moment  $M$  collapses to the raw oracle  $G$ . [...] "
                  r"AdamWFormer keeps the AdamFormer first/second-moment streams [...] implementing the "
                  r"AdamW-style decoupled weight decay: before the adaptive update is applied, the residual "
                  r"is contracted by  $1-\lambda$ . [...] OrthoFormer is MuonFormer with the momentum EMA "
                  r"removed: the oracle output is orthogonalized directly. [...] ShampooFormer is the special "
                  r"case of SOAPFormer with  $\beta_{1}^{(a)}\equiv\beta_{1}^{(m)}\equiv 0$ , so the first "
                  r"moment  $M$  collapses to the raw oracle  $G$ .")
def ms_containments(budget: str) -> Evidence:
    results = {f"{g} -> {s}": _pair_equal(g, p, s) for g, p, s in MS_CONTAINMENTS}
    return Evidence(verdict_from(all(results.values())), criterion="bit-for-bit equal float64 logits "
                    "of the pinned general model and the special model with the same weights, 3 seeds",
                    numbers=results)


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
    results = {"nesterov-lt(mu=0) == polyak-lt": _pair_equal("nesterov-lt", {"mu_a": 0.0, "mu_m": 0.0},
                                                             "polyak-lt"),
               "nesterov-euler(mu=0) == polyak-euler": _pair_equal("nesterov-euler", {"mu": 0.0},
                                                                   "polyak-euler")}
    return Evidence(verdict_from(all(results.values())), criterion="bit-for-bit equal float64 logits, "
                    "3 seeds", numbers=results)


def _printed_calls(name: str) -> tuple[int, int]:
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
        counted[name] = {"attn": c.attn, "mlp": c.mlp, "printed": _printed_calls(name)}
    ok = all((c["attn"], c["mlp"]) == tuple(c["printed"]) for c in counted.values())
    return Evidence(verdict_from(ok), criterion="forward hooks on the attention and MLP input "
                    "projections count the calls of one block; equal to the printed compute",
                    numbers=counted)


def _against_causal_reference(dep: CausalDependence) -> dict:
    """Compare a measured dependence map with the causal reference, built here independently of
    any model's mask: the index set {(t, s): s > t} must carry exactly zero dependence (and the
    suffix perturbations must move no output up to t), every (t, s) with s <= t a non-zero one,
    so the measured support equals the lower triangle. A single output seeing a single later
    input, even one position ahead, makes `causal` False."""
    T = dep.dependence.shape[0]
    t, s = torch.meshgrid(torch.arange(T), torch.arange(T), indexing="ij")
    later = dep.dependence[s > t]
    suffix = dep.suffix[:-1] if dep.suffix is not None else torch.zeros(0, dtype=F64)
    max_later = max([0.0] + [float(v.max()) for v in (later, suffix) if v.numel()])
    min_earlier = float(dep.dependence[s <= t].min())
    return {"max_dependence_on_later": max_later, "min_dependence_on_earlier": min_earlier,
            "causal": max_later == 0.0, "support_is_lower_triangle": max_later == 0.0 and min_earlier > 0}


def _model_dependence(name: str, T: int = 12) -> dict:
    """The token-level dependence map of a 2-layer float64 model of variant `name` on 2 random
    sequences (`particles.verify.causal_dependence`: every single token and every suffix
    perturbed, outputs compared bit for bit), against the causal reference."""
    torch.manual_seed(0)
    m = GPT(GPTConfig(block_size=T, n_layer=2, n_head=2, n_embd=16), name).to(F64)
    idx = torch.randint(0, 256, (2, T), generator=torch.Generator().manual_seed(1))
    with torch_threads(1), torch.no_grad():
        return _against_causal_reference(causal_dependence(m, idx, vocab_size=256))


@claim("sympformer:causal-hamiltonian", locator="§5.2 eqs. (34)-(35); §6 (causal decoder); Algorithm 1",
       statement="(unstated premise) a causal decoder of the accelerated softmax layer could take its "
                 "force as -grad_X of the Hamiltonian (35) with the causal mask applied to M",
       method="property", expect="holds-with-correction", premise=True,
       paper_text=r"Consider the conservative part of (34), i.e., (34) without the term "
                  r"$\alpha(t)\mathbf{Y}(t)$. A Hamiltonian for the system is $$H^{\operatorname{SM}}"
                  r"\colon\operatorname{\mathbb{R}}^{N\times d}\times\operatorname{\mathbb{R}}^{N\times d}"
                  r"\to\operatorname{\mathbb{R}},\quad(\mathbf{X},\mathbf{Y})\mapsto\frac{N}{2}"
                  r"\operatorname{tr}(\operatorname{diag}(\mathbf{M}\operatorname{\mathds{1}})^{-1}\mathbf{Y}"
                  r"B^{\mathrm{T}}\mathbf{Y}^{\mathrm{T}})-\frac{N}{2}\operatorname{\mathds{1}}^{\mathrm{T}}"
                  r"\mathbf{M}\operatorname{\mathds{1}}. (35)$$ [§6] The goal of the decoder-only causal "
                  r"nanoGTP-style transformer is to predict the next token. [Algorithm 1] evaluate oracles  "
                  r"$F$  and  $G$  (right hand side in (34) or (28))",
       referee="changed (was counted as an erratum): the paper never says how the causal mask enters "
               "(34) or (35), and never computes the force as a gradient of (35): Algorithm 1 "
               "evaluates the right-hand side of (34), which with a row mask is causal (checked "
               "below) and equals -grad_X H unmasked. The leak appears only for a force obtained by "
               "differentiating a masked (35), a route an implementer might take; so this is an "
               "unstated premise (a warning), not the paper's error")
def symp_causal_hamiltonian(budget: str) -> Evidence:
    g = torch.Generator().manual_seed(3)
    N, d = 8, 4
    x, y = torch.randn(N, d, generator=g, dtype=F64), torch.randn(N, d, generator=g, dtype=F64)
    a = torch.randn(d, d, generator=g, dtype=F64) * 0.3
    b = torch.randn(d, d, generator=g, dtype=F64)
    A, B = (a + a.T) / 2, (b + b.T) / 2
    # the masked Hamiltonian's gradient is computed by autograd inside (it detaches x): measured by
    # perturbation; the row-masked force (34) by its Jacobian blocks. Token axis 0, no batch.
    printed = _against_causal_reference(causal_dependence(
        lambda z: hamiltonian_oracle_G(z, y, A, B, True), x, dim=0, method="perturbation"))
    clean = _against_causal_reference(causal_dependence(
        lambda z: explicit_force_G(z, y, A, B, True), x, dim=0))
    unmasked = (hamiltonian_oracle_G(x, y, A, B, False) - explicit_force_G(x, y, A, B, False)).abs().max()
    scale = explicit_force_G(x, y, A, B, False).abs().max()
    models = {n: _model_dependence(n) for n in VARIANTS if n.startswith("symp-") and n not in NON_CAUSAL}
    # the model whose force differentiates the masked (35) (built to leak, particles.lm.variants)
    leaky = {n: _model_dependence(n) for n in sorted(NON_CAUSAL) if n.startswith("symp-")}
    corrected_ok = (clean["support_is_lower_triangle"] and unmasked.item() < 1e-10 * scale.item()
                    and all(m["support_is_lower_triangle"] for m in models.values()))
    readings = [reading("the force of the causal decoder taken as -grad_X of (35) with the causal "
                        "mask applied to M (M_ij = 0 for j > i)", printed["causal"],
                        max_dependence_on_later_tokens=printed["max_dependence_on_later"],
                        models_with_that_force={n: m["causal"] for n, m in leaky.items()})]
    return decide_readings(readings, corrected_ok,
                    criterion="causal iff the dependence map of the force on the tokens "
                              "(particles.verify.causal_dependence, float64) is exactly zero on "
                              "every pair s > t of the independent reference, and non-zero on "
                              "every s <= t (support = lower triangle); the correction must have "
                              "that support, equal -grad H without the mask (1e-10 relative), and "
                              "keep every SympFormer model's token dependence map on it",
                    numbers={"masked_hamiltonian_gradient": printed, "row_masked_force": clean,
                             "unmasked_agreement_abs": unmasked.item(), "force_scale": scale.item(),
                             "sympformer_models": models, "masked_hamiltonian_gradient_models": leaky},
                    counterexample={"N": N, "d": d, "max_dependence_on_later_tokens":
                                    printed["max_dependence_on_later"]},
                    correction="Differentiating the causally masked global Hamiltonian makes token i "
                               "feel later tokens through their keys; the training path uses the "
                               "row-masked explicit force of (34) (mean-field form of (33)), which is "
                               "causal and equals -grad_X H when unmasked")


@claim("momentum_streams:ns-causal", locator="§4.1 (MuonFormer); Appendix B.2",
       statement="The per-token, head-wise Newton-Schulz operator (and SOAP's per-token covariance) "
                 "preserves causality for autoregressive training",
       method="property", expect="holds",
       paper_text=r"The update uses its orthogonal polar factor, computed per token and per head by the "
                  r"Newton–Schulz operator  $\operatorname{NS}$  (driving singular values to  $1$  "
                  r"(Boreiko et al., 2025), which preserves causality for autoregressive training. [App. "
                  r"B.2] A first-moment stream  $M_{\ell}\in\mathbb{R}^{T\times H\times D}$  in head space "
                  r"and a per-token right covariance  $R_{\ell}\in\mathbb{R}^{T\times D\times D}$  are "
                  r"propagated alongside the residual")
def ms_ns_causal(budget: str) -> Evidence:
    maps = {n: _model_dependence(n) for n in ("muon", "ortho", "soap", "shampoo")}
    ok = all(m["support_is_lower_triangle"] for m in maps.values())
    return Evidence(verdict_from(ok), criterion="float64 logits of each variant: the token "
                    "dependence map (particles.verify.causal_dependence: each token and each suffix "
                    "perturbed, outputs compared bit for bit) is exactly zero on every pair s > t "
                    "of the independent reference and non-zero on every s <= t",
                    numbers=maps)


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
    maps = {n: _model_dependence(n) for n in names}
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

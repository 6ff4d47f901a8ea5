"""The checkable items of seed 002_395af419a1c7ba67.txt (`momentum_streams`: Gai, Huang, Wu,
Momentum streams for optimizer-inspired transformers), section by section in the paper's order.

An item is a statement with content a reader could check: a theorem, lemma, proposition,
corollary or remark with mathematics, an equation that states a property, a table or figure
reporting a result, a prose claim of a result, a count. Definitions of the update rules are not
items (they are what the items are about); restatements (§7, the abstract's summary of a later
section) are listed once, where the paper first makes the claim checkable.

Results that need training at the paper's scale or on other corpora are listed with the proxy
claim that checks them on our pinned corpus, or with the reason none does (the lead's training
studies; nothing here trains). A consistency claim covers the paper's prose against its own
tables, never the replication of the experiment behind the table: where both exist they are
separate items.
"""
from claims._inventory import Item

MS = "momentum_streams:"


def _i(locator, kind, what, claims=(), reason=""):
    return Item("momentum_streams", locator, kind, what, tuple(MS + c for c in claims), reason)


TRAINING = ("needs training runs the ledger does not have ({}); nothing here trains: the lead's "
            "training studies would add the proxy")

ITEMS = (
    # ------------------------------------------------------------------ §1 Introduction, abstract
    _i("§1 (Optimizer-inspired design); App. D.7", "prose",
       "triple momentum is an optimal first-order method / has an optimal rate on strongly convex "
       "quadratics",
       ("tmm-optimal-quadratics-text",)),
    # ------------------------------------------------------------------ §3 Preliminary
    _i("§3.1 (surrogate energy)", "equation",
       "attention and MLP act as learned negative-gradient oracles: Attn ≈ −∇ℰ, MLP ≈ −∇ℱ",
       ("gradient-oracles",)),
    _i("§3.1 (vanilla block); §2", "equation",
       "the vanilla pre-norm block is the Lie–Trotter splitting of gradient descent on ℰ + ℱ",
       ("lie-trotter-block",)),
    _i("§3.2 and App. A.1", "equation",
       "on the strongly convex quadratic model NAG has contraction factor (√L−√m)/(√L+√m)",
       ("nesterov-rate-text",)),
    _i("§3.2, App. A.2, Remark F.5", "prose",
       "learning ν gives TMM a larger second-order update/filter class than Nesterov/YuriiFormer; "
       "ν ≡ 1 recovers it",
       ("tmm-larger-class-text", "containments")),
    _i("§3.2 (Muon); App. A.4, D.2", "equation",
       "the polar factor is steepest descent under the spectral norm; K = 5 Newton–Schulz steps give "
       "singular values ≈ 1",
       ("newton-schulz-polar",)),
    # ------------------------------------------------------------------ §4 design and results
    _i("§4.1 (TMMFormer); App. B.1, B.3", "equation",
       "special cases: TMM with ν ≡ 1 is YuriiFormer, Yurii with μ ≡ 0 is HBFormer, AdamW with λ ≡ 0 "
       "is AdamFormer, Adam with β1 ≡ 0 is RMSPropFormer, Muon with β ≡ 0 is OrthoFormer, SOAP with "
       "β1 ≡ 0 is ShampooFormer",
       ("containments",)),
    _i("§4.1 (MuonFormer); App. B.2", "prose",
       "the per-token, head-wise Newton–Schulz operator (and SOAP's per-token covariance) preserves "
       "causality",
       ("ns-causal",)),
    _i("§4.1; App. B; App. D.1", "count",
       "learned scalars per layer: TMM 8, Adam 6, Muon 4, AdamW 8, SOAP 6, HB 4, RMSProp 4, Ortho 2, "
       "Shampoo 4 (≤ 8)",
       ("config-arithmetic",)),
    _i("§4.2 (Setup); App. D.1; Table 3", "count",
       "vanilla 124M parameters, every auxiliary-stream variant ≈163M, the extra ≈39M from the "
       "auxiliary embeddings",
       ("param-count-aux", "param-count")),
    _i("§4.2 (Setup); App. D.4, Tables 4-6", "count",
       "effective batch 480 = 8 × 60 with 2-GPU DDP, tokens/step ≈4.9×10⁵, configuration values "
       "printed twice agree",
       ("config-arithmetic", "batch-ddp-text")),
    _i("§4.2 (Main Results); Table 1 (TS column); abstract, §1, §7", "table",
       "best validation loss on TinyStories: TMMFormer < YuriiFormer < AdamWFormer < AdamFormer < "
       "Vanilla",
       ("table-1",), "proxy: the main study on the pinned byte-level corpus"),
    _i("§4.2 (Main Results); Table 1 (OWT column)", "table",
       "best validation loss on OpenWebText, same ordering",
       ("table-1",),
       "proxy: OpenWebText is not available offline; table-1's pinned corpus stands in for both "
       "columns (one ordering decided)"),
    _i("§4.2 (Main Results); Table 1 (HellaSwag, ARC-Easy); App. D.5", "table",
       "downstream acc_norm of the OWT checkpoints: TMMFormer best on both benchmarks (and the TS "
       "checkpoints at chance)",
       reason=TRAINING.format("GPT-2-scale OpenWebText checkpoints and lm-eval's HellaSwag and "
                              "ARC-Easy, not available offline; our proxy models are far below "
                              "the scale at which these benchmarks leave chance") + "; the prose "
                                                                                    "about them is checked by downstream-transfer-text"),
    _i("§4.2 (Main Results); App. D.7", "prose",
       "TMMFormer best in every column, ≈0.029 / ≈0.074 below vanilla, Muon between the Adam "
       "variants, Figure 4(c)'s ordering: the prose against Tables 1 and 7",
       ("main-results-text",)),
    _i("§4.2 (Main Results)", "prose",
       "on the quadratic model triple momentum has a stronger rate than the Nesterov and GD templates",
       ("tmm-stronger-than-nesterov-text",)),
    _i("§4.2 (Main Results); App. D.6", "prose",
       "TMMFormer does not materially increase runtime (≈3 s/step like vanilla); only MuonFormer is "
       "much slower",
       ("wall-clock",)),
    _i("App. D.6", "table",
       "MuonFormer's per-token Newton–Schulz runs ≈3–5× slower per step than vanilla",
       ("wall-clock-muon", "wall-clock-only-muon")),
    _i("§4.2 (Main Results); App. D.7", "prose",
       "MuonFormer and SOAPFormer converge but trail every momentum-stream design (TS 1.1503, "
       "1.1431); Muon no better than vanilla on OWT",
       ("muon-soap-text", "main-results-text"),
       "proxy: muon-soap-text on the pinned corpus; main-results-text holds the printed values "
       "against Table 1"),
    _i("Figure 1 (a–d)", "figure",
       "matched-compute comparison: best val loss TS/OWT, OWT downstream acc_norm, OWT val-loss curves",
       ("table-1", "main-results-text"),
       "the figure's bars are Table 1's values (checked by main-results-text); the curves' claim, "
       "TMMFormer below vanilla, is table-1's proxy; (c) downstream as in the Table 1 HS/ARC item"),
    _i("§4.2 (Ablation: peak LR, optimizer); App. D.7; Table 8", "prose",
       "+0.021, +0.029, gap 0.074 → 0.066 (≈11%), +0.002 / +0.035, ≈14×, gaps 0.074 / 0.041, Table "
       "8's Δ column decaying monotonically: recomputed from the printed losses",
       ("owt-ablation-arithmetic",)),
    _i("App. D.7 (optimizer and LR ablation)", "prose",
       "the architectural effect is an order of magnitude larger than the optimizer- or LR-induced "
       "effect on either architecture",
       ("ablation-order-of-magnitude-text",)),
    _i("§4.2 (Ablation: parameter-matched); App. D.7", "count",
       "TMMFormer 163.8M vs 124.4M; width-900 control 162.86M (0.6% below), depth-18 166.85M; over 99% "
       "of the extra is the embedding table",
       ("param-count",)),
    _i("§4.2 (Ablation: parameter-matched, multi-seed); App. D.5, D.7", "count",
       "the width-900 control closes ≈40% of the gap, the remaining 0.018 is ≈9× the per-seed std; "
       "the 0.0306 gap is ≈15× the pooled seed std",
       ("ablation-arithmetic",)),
    _i("§4.2 (Ablation: parameter-training optimizer); App. D.7", "prose",
       "TMMFormer and Vanilla retrained under pure AdamW: TMMFormer still beats Vanilla, and the "
       "switch moves TMMFormer more than Vanilla",
       ("optimizer-ablation-text",),
       "proxy: main vs main-adamw on the pinned corpus (4 layers, width 64), decided on sign; the "
       "printed OWT arithmetic is checked by owt-ablation-arithmetic"),
    _i("§4.2 (Ablation: peak learning rate); App. D.7", "prose",
       "at half the Muon peak learning rate both degrade and the ordering is robust",
       ("lr-ablation-text",),
       "proxy: main vs main-half-lr on the pinned corpus, decided on sign; the printed ≈11% is "
       "recomputed by ablation-arithmetic"),
    _i("§4.2 (Ablation: parameter-matched); App. D.7", "prose",
       "a Vanilla widened to TMMFormer's parameter count closes only part of the gap",
       ("param-matched-text",),
       "proxy: main vs main-matched (Vanilla at width 68, 2.4% above TMMFormer's count); the "
       "depth-18 control is not retrained; the printed 40% and 9x are recomputed by ablation-arithmetic"),
    _i("§4.2 (Ablation: multi-seed)", "prose",
       "three seeds per architecture: the TMMFormer–Vanilla gap is not seed luck",
       ("table-1", "ablation-arithmetic"),
       "proxy: table-1 pairs five seeds per arm on the pinned corpus and decides TMMFormer below "
       "Vanilla on sign; ablation-arithmetic recomputes the printed multiple"),
    _i("§4.2 (Ablation: multi-seed); App. D.7 (parameter-matched)", "prose",
       "TinyStories has the tighter gap, the seed noise is a few thousandths of a nat and the "
       "effect dominates it, the width-900 control recovers under half the gap and the depth-18 one "
       "a larger fraction",
       ("ts-ablation-text",)),
    _i("App. D.5, Table 6 vs §4.2 (multi-seed)", "prose",
       "all runs use a single seed (42)",
       ("seed-text",)),
    # ------------------------------------------------------------------ §5 Momentum
    _i("§5; Table 2; abstract, §1 (contribution 2), §7", "table",
       "momentum x preconditioning (OWT): HB lowest, Ortho highest, momentum helps in every column",
       ("table-2",), "proxy: the momentum x preconditioning study on the pinned corpus"),
    _i("§5.1-5.3 vs Table 2 and Table 1", "prose",
       "3.008 > 2.945 > 2.941 > 2.934, HB recovers most of the vanilla-to-Yurii gap, preconditioning "
       "never helps, each momentum row beats its counterpart; Vanilla < HB < Yurii < TMM",
       ("table-2-text",)),
    _i("Theorem 5.1 (§5.2)", "theorem",
       "informal: a balanced second-moment stream gives a near-scalar diagonal preconditioner, "
       "absorbed by LN_u",
       ("thm-E.1", "ln-scale-invariance")),
    _i("§5.3, Figure 2; §1 (Why momentum helps)", "figure",
       "full-block Jacobians: momentum variants have lower minimum-gain persistence, higher stable "
       "rank and spread",
       ("sec-5.3-jacobian",)),
    _i("Theorem 5.2 (§5.3); §1 (a strictly better forward filter)", "theorem",
       "vanilla is a first-order filter, momentum a second-order one with worst-case factor "
       "(√κ−1)/(√κ+1) < (κ−1)/(κ+1)",
       ("thm-5.2",)),
    _i("§5.3 (after Theorem 5.2)", "prose",
       "TMMFormer contains YuriiFormer (ν = 1), supporting the empirical ordering Vanilla < HBFormer < "
       "YuriiFormer < TMMFormer",
       ("cor-F.3", "table-2-text")),
    # ------------------------------------------------------------------ §6 Loss landscape
    _i("§6.1, Figure 3(a); App. G; abstract, §1 (contribution 3)", "figure",
       "tr(H)/N: vanilla 0.316, AdamFormer 0.210, YuriiFormer 0.139, TMMFormer 0.142",
       ("sec-6.1-flatness",), "proxy: the flatness study on the pinned corpus's trained models"),
    _i("§6.1 (Results); §6.3", "prose",
       "≈2.2× flatter than vanilla, a third lower than AdamFormer, SAM ≈2.3× below cosine: "
       "recomputed from the printed values",
       ("flatness-text",)),
    _i("§6.2, Figure 3(b, c, d); App. H, Table 9", "table",
       "forgetting under sequential fine-tuning (both directions) and zero-shot OOD perplexity: "
       "momentum variants forget less and generalize better",
       reason=TRAINING.format("fine-tuning on a second corpus and zero-shot evaluation on "
                              "WikiText-103, LAMBADA and C4, none available offline or pinned") +
              "; the prose about Table 9 is checked by forgetting-ood-text"),
    _i("§6.2 (Results); App. H", "prose",
       "forgetting decreases from vanilla to the momentum variants in both directions ('the same "
       "ordering'), OOD averages 48.2 / 47.3 / 44.8 / 44.1, YuriiFormer slightly better on "
       "robustness: the prose against Table 9",
       ("forgetting-ood-text",)),
    _i("Table 9 (OWT column) vs Table 1; eq. (8)", "equation",
       "in-distribution OpenWebText perplexity = exp(cross-entropy) against Table 1's OWT loss",
       ("ppl-vs-val-loss",)),
    _i("§6.3; App. I", "table",
       "WSD lowers tr(H)/N to 0.106 and OWT loss to 2.924; SAM flattens (0.062) without improving "
       "the loss (2.940)",
       reason=TRAINING.format("TMMFormer retrained with WSD and with SAM on OpenWebText") +
              "; the printed ratios are checked by flatness-text"),
    # ------------------------------------------------------------------ Appendix A, B
    _i("App. A.1", "equation",
       "heavy ball is NAG with μ_k = 0",
       ("containments", "eq-F.3-recurrence")),
    _i("App. A.3", "equation",
       "Adam's step as displayed, m_k/(√s_k + ε), beside the bias-corrected m̂_k, ŝ_k it defines",
       ("adam-bias-correction-text",)),
    _i("App. B.2", "prose",
       "SOAPFormer's right covariance stays PD from R_0 = I, each update has rank ≤ H = 12 in D = 64, "
       "K = 10 Newton iterations for R^{-1/2}: poorly conditioned",
       ("soap-covariance",)),
    _i("App. B.2 vs §4.2 and D.7", "prose",
       "'SOAPFormer fails to converge (Section 4.2)' against §4.2's 'converge' and D.7's TS loss 1.1431",
       ("soap-convergence-text",)),
    _i("App. B.1", "count", "λ_raw = −5 gives σ(λ_raw) ≈ 0.007", ("config-arithmetic",)),
    _i("App. B (Summary)", "prose",
       "the nine variants fill the momentum x preconditioner table; each cell's result is reported "
       "in Section 4.2",
       ("factorial-cells-text",)),
    # ------------------------------------------------------------------ Appendix C
    _i("Proposition C.1", "proposition",
       "a token-side preconditioner P = L^{-1/2} applied to AXW equals the token mixer PA applied to XW",
       ("prop-C.1",)),
    _i("Remark C.2", "remark",
       "Ã = PA need not be row-stochastic, non-negative or causal",
       ("remark-C.2",)),
    # ------------------------------------------------------------------ Appendix D
    _i("App. D.1; Table 3", "count",
       "GPT-2 BPE (tiktoken gpt2) with |V| = 50,304",
       ("vocab-size-text",)),
    _i("App. D.3 vs Tables 4 and 5", "prose",
       "the Muon learning rate is the only optimization hyperparameter that differs between corpora",
       ("corpus-hyperparameters-text",)),
    _i("App. D.3; H eq. (7); I eq. (9); Table 4", "equation",
       "the warmup–cosine (floor 0.1) and WSD schedules are continuous and end at the floor, as the "
       "prose describes",
       ("schedules",)),
    _i("Table 7 (App. D.7) vs Table 1", "table",
       "the full-results table lists every variant with results on every task, with Table 1's numbers",
       ("table-7-rows",)),
    _i("App. D.7 (Full results)", "prose",
       "the pretraining ordering transfers exactly to downstream accuracy",
       ("downstream-transfer-text",)),
    _i("App. D.7 (SOAPFormer)", "prose",
       "SOAPFormer's 1.1431 is the weakest matrix-preconditioned variant",
       ("soap-weakest-text",)),
    _i("Figure 4 (a–c)", "figure",
       "OWT training curves: Vanilla under both optimizers, all variants, the late-training ordering",
       ("owt-ablation-arithmetic", "main-results-text", "table-1"),
       "the curves are not in the text: (a)'s step-aligned values are Table 8 "
       "(owt-ablation-arithmetic), (c)'s ordering is checked against Table 1 (main-results-text), "
       "and table-1's proxy study has its own curves"),
    # ------------------------------------------------------------------ Appendix E
    _i("App. E (opening)", "prose",
       "LN(Dx) ≠ LN(x) for a non-scalar positive diagonal D",
       ("ln-scale-invariance",)),
    _i("Theorem E.1", "theorem",
       "a balanced diagonal preconditioner is within (√(1+ε)−1)/(1+δ/ρ_max) ≤ ε/2 of a scalar matrix",
       ("thm-E.1",)),
    _i("App. E (proof of Theorem E.1)", "equation",
       "LN_u(cz) = LN_u(z) for c > 0, up to the LayerNorm's epsilon",
       ("ln-scale-invariance",)),
    _i("Remark E.2", "remark",
       "the balance assumption is natural in trained pre-norm models (normalized oracle inputs, "
       "dense learned projections)",
       ("balance-premise",),
       "proxy at initialization (premise claim): random dense projections of LayerNormed inputs, "
       "24 substeps; a trained AdamFormer's stream is not checked (the committed results keep no "
       "activations; the lead's diagnostics could record ρ_max²/ρ_min²)"),
    # ------------------------------------------------------------------ Appendix F
    _i("App. F.1, eq. (3); Remark F.5", "equation",
       "the readout loss is C-smooth, so at a minimizer ℒ(X) − ℒ(X*) ≤ (C/2)‖X − X*‖²",
       ("eq-3-smooth-readout",)),
    _i("Lemma F.1", "lemma",
       "best vanilla step 2/(L+μ), worst-case factor (κ−1)/(κ+1), ‖E_N‖ ≤ ρ^N‖E_0‖",
       ("lemma-F.1",)),
    _i("App. F.3 (second-order recurrence)", "equation",
       "e_{ℓ+1} = α(λ)e_ℓ − θ(λ)e_{ℓ−1}, α = 1+b−(a+c)ηλ, θ = b−aηλ; E_N = q_N(H)E_0, a richer family",
       ("eq-F.3-recurrence",)),
    _i("Lemma F.2", "lemma",
       "tuned heavy ball has rate (√κ−1)/(√κ+1) < (κ−1)/(κ+1) and ‖E_N‖ ≤ C_mom ρ_mom^N ‖E_0‖",
       ("lemma-F.2",)),
    _i("Lemma F.2 (statement, last sentence)", "lemma",
       "a second-order momentum recurrence can have a strictly better finite-depth worst-case "
       "contraction factor",
       ("lemma-F.2-finite-depth",)),
    _i("Lemma F.2 (proof: 'for the quadratic energy')", "remark",
       "the heavy-ball rate is a quadratic-model statement (premise: it does not extend to smooth "
       "strongly convex f)",
       ("hb-quadratic-scope",)),
    _i("Remark F.5", "remark",
       "in the local linearized regime momentum gives a faster filter for slow token-feature modes",
       ("slow-modes-text",)),
    _i("Corollary F.3", "corollary",
       "the TMM filter family contains YuriiFormer's, so its minimax worst case is ≤ YuriiFormer's",
       ("cor-F.3",)),
    _i("Theorem F.4", "theorem",
       "for N ≥ N₀ = max{0, ⌈log C_mom / log(ρ_van/ρ_mom)⌉} the momentum loss bound is strictly below "
       "the vanilla one",
       ("thm-F.4",)),
    # ------------------------------------------------------------------ Appendix G, I
    _i("§6.1 (Setup); App. G (Hessian trace)", "prose",
       "tr(H)/N is the scale-invariant (scale-normalized) trace, the mean curvature per parameter",
       ("trace-scale-text",)),
    _i("App. G (Top Hessian eigenvalue)", "equation",
       "power iteration on HVPs estimates the dominant curvature λ_max(H)",
       ("power-iteration-text",)),
    _i("App. G (eqs. (4), (5), Hutchinson)", "equation",
       "double backward gives Hv; Hutchinson's estimator is unbiased; the filter-normalized curve is "
       "comparable across scales",
       ("sharpness-estimators",)),
    _i("App. G (Hessian–vector products)", "prose",
       "the fused/flash attention kernels do not support the double backward; the math kernel does",
       ("double-backward-kernels",)),
    _i("App. I, eq. (10)", "equation",
       "SAM's ascent step ε* = ρg/‖g‖ is the worst-case point of the ρ-ball",
       ("sam-ascent",)),
)

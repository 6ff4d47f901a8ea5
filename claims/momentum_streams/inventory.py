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
separate items. At the end, every setting of App. D-I's training protocols (kind "protocol":
claims._protocol's TinyStories, OpenWebText and ablation-arm protocols, generated, and the
settings Tables 3-6 and App. G-I print that the protocols do not carry), and last the misprints
inside quoted passages (kind "misprint", `claims/momentum_streams/misprints.py`).
"""
from claims._inventory import Item, protocol_items
from claims._misprints import inventory_items
from claims.momentum_streams.misprints import MISPRINTS

MS = "momentum_streams:"


def _i(level, locator, kind, what, claims=(), reason=""):
    return Item("momentum_streams", locator, kind, what, tuple(MS + c for c in claims), reason, level)


TRAINING = ("needs training runs the ledger does not have ({}); nothing here trains: the lead's "
            "training studies would add the proxy")

ITEMS = (
    # ------------------------------------------------------------------ §1 Introduction, abstract
    _i("full", "§1 (Optimizer-inspired design); App. D.7", "prose",
       "triple momentum is an optimal first-order method / has an optimal rate on strongly convex "
       "quadratics",
       ("tmm-optimal-quadratics-text",)),
    # ------------------------------------------------------------------ §3 Preliminary
    _i("full", "§3.1 (surrogate energy)", "equation",
       "attention and MLP act as learned negative-gradient oracles: Attn ≈ −∇ℰ, MLP ≈ −∇ℱ",
       ("gradient-oracles",)),
    _i("full", "§3.1 (vanilla block); §2", "equation",
       "the vanilla pre-norm block is the Lie–Trotter splitting of gradient descent on ℰ + ℱ",
       ("lie-trotter-block",)),
    _i("full", "§3.2 and App. A.1", "equation",
       "on the strongly convex quadratic model NAG has contraction factor (√L−√m)/(√L+√m)",
       ("nesterov-rate-text",)),
    _i("full", "§3.2, App. A.2, Remark F.5", "prose",
       "learning ν gives TMM a larger second-order update/filter class than Nesterov/YuriiFormer; "
       "ν ≡ 1 recovers it",
       ("tmm-larger-family-text", "tmm-larger-class-text", "containments")),
    _i("full", "§3.2 (Muon); App. A.4, D.2", "equation",
       "the polar factor is steepest descent under the spectral norm; K = 5 Newton–Schulz steps give "
       "singular values ≈ 1",
       ("newton-schulz-polar",)),
    # ------------------------------------------------------------------ §4 design and results
    _i("full", "§4.1 (TMMFormer); App. B.1, B.3", "equation",
       "special cases: TMM with ν ≡ 1 is YuriiFormer, Yurii with μ ≡ 0 is HBFormer, AdamW with λ ≡ 0 "
       "is AdamFormer, Adam with β1 ≡ 0 is RMSPropFormer, Muon with β ≡ 0 is OrthoFormer, SOAP with "
       "β1 ≡ 0 is ShampooFormer",
       ("containments",)),
    _i("full", "§4.1 (MuonFormer); App. B.2", "prose",
       "the per-token, head-wise Newton–Schulz operator (and SOAP's per-token covariance) preserves "
       "causality",
       ("ns-causal",)),
    _i("full", "§4.1; App. B; App. D.1", "count",
       "learned scalars per layer: TMM 8, Adam 6, Muon 4, AdamW 8, SOAP 6, HB 4, RMSProp 4, Ortho 2, "
       "Shampoo 4 (≤ 8)",
       ("config-arithmetic",)),
    _i("full", "§4.2 (Setup); App. D.1; Table 3", "count",
       "vanilla 124M parameters, every auxiliary-stream variant ≈163M, the extra ≈39M from the "
       "auxiliary embeddings",
       ("param-count-aux", "param-count")),
    _i("full", "§4.2 (Setup); App. D.4, Tables 4-6", "count",
       "effective batch 480 = 8 × 60 with 2-GPU DDP, tokens/step ≈4.9×10⁵, configuration values "
       "printed twice agree",
       ("config-arithmetic", "batch-ddp-text")),
    _i("proxy", "§4.2 (Main Results); Table 1 (TS column); abstract, §1, §7", "table",
       "best validation loss on TinyStories: TMMFormer < YuriiFormer < AdamWFormer < AdamFormer < "
       "Vanilla",
       ("table-1",), "at proxy scale by table-1: the main study (4 layers, width 64, byte-level "
       "Shakespeare standing in for TinyStories; its deviations from the TinyStories protocol recorded), "
       "the ordering decided on sign over paired seeds; the printed losses are not reproduced"),
    _i("prose-only", "§4.2 (Main Results); Table 1 (OWT column)", "table",
       "best validation loss on OpenWebText, same ordering",
       ("main-results-text",),
       "the column's numbers are held against the prose of §4.2 and App. D.7 and against Table 7 "
       "(main-results-text); not covered by table-1's proxy run, which follows the TinyStories protocol "
       "(10k steps, Muon lr 0.02) on our pinned corpus: OpenWebText is not available offline"),
    _i("prose-only", "§4.2 (Main Results); Table 1 (HellaSwag, ARC-Easy); App. D.5", "table",
       "downstream acc_norm of the OWT checkpoints: TMMFormer best on both benchmarks (and the TS "
       "checkpoints at chance)",
       ("downstream-transfer-text", "main-results-text"),
       "the printed accuracies are held against the prose (downstream-transfer-text: the ordering "
       "transfers exactly; main-results-text: TMMFormer best in every column); a reproduction "
       + TRAINING.format("GPT-2-scale OpenWebText checkpoints and lm-eval's HellaSwag and "
                              "ARC-Easy, not available offline; our proxy models are far below "
                              "the scale at which these benchmarks leave chance")),
    _i("prose-only", "§4.2 (Main Results); App. D.7", "prose",
       "TMMFormer best in every column, ≈0.029 / ≈0.074 below vanilla, Muon between the Adam "
       "variants, Figure 4(c)'s ordering: the prose against Tables 1 and 7",
       ("main-results-text",),
       "the prose reports the results of the paper's 124M runs, held against Tables 1 and 7 only "
       "(consistency); the TinyStories ordering is also table-1's proxy item"),
    _i("full", "§4.2 (Main Results)", "prose",
       "on the quadratic model triple momentum has a stronger rate than the Nesterov and GD templates",
       ("tmm-stronger-than-nesterov-text",)),
    _i("full", "§4.2 (Main Results); App. D.6", "prose",
       "TMMFormer does not materially increase runtime (≈3 s/step like vanilla); only MuonFormer is "
       "much slower",
       ("wall-clock",)),
    _i("full", "App. D.6", "table",
       "MuonFormer's per-token Newton–Schulz runs ≈3–5× slower per step than vanilla",
       ("wall-clock-muon", "wall-clock-only-muon")),
    _i("proxy", "§4.2 (Main Results); App. D.7", "prose",
       "MuonFormer and SOAPFormer converge but trail every momentum-stream design (TS 1.1503, "
       "1.1431); Muon no better than vanilla on OWT",
       ("muon-soap-text", "main-results-text"),
       "proxy: muon-soap-text on the pinned corpus; main-results-text holds the printed values "
       "against Table 1"),
    _i("prose-only", "Figure 1 (a–d)", "figure",
       "matched-compute comparison: best val loss TS/OWT, OWT downstream acc_norm, OWT val-loss curves",
       ("table-1", "main-results-text"),
       "the lowest of its parts: the bars are Table 1's values, held against the prose "
       "(main-results-text), the OpenWebText bars (b), the downstream accuracies (c) and the OpenWebText "
       "curves (d) only so; the TinyStories bars (a) are table-1's proxy"),
    _i("full", "§4.2 (Ablation: peak LR, optimizer); App. D.7; Table 8", "prose",
       "+0.021, +0.029, gap 0.074 → 0.066 (≈11%), +0.002 / +0.035, ≈14×, gaps 0.074 / 0.041, Table "
       "8's Δ column decaying monotonically: recomputed from the printed losses",
       ("owt-ablation-arithmetic",)),
    _i("prose-only", "App. D.7 (optimizer and LR ablation)", "prose",
       "the architectural effect is an order of magnitude larger than the optimizer- or LR-induced "
       "effect on either architecture",
       ("ablation-order-of-magnitude-text",),
       "held against the printed ablation losses (Table 1, §4.2, Table 8) only; the ablation runs "
       "themselves are the proxy items of §4.2's ablations"),
    _i("full", "§4.2 (Ablation: parameter-matched); App. D.7", "count",
       "TMMFormer 163.8M vs 124.4M; width-900 control 162.86M (0.6% below), depth-18 166.85M; over 99% "
       "of the extra is the embedding table",
       ("param-count",)),
    _i("full", "§4.2 (Ablation: parameter-matched, multi-seed); App. D.5, D.7", "count",
       "the width-900 control closes ≈40% of the gap, the remaining 0.018 is ≈9× the per-seed std; "
       "the 0.0306 gap is ≈15× the pooled seed std",
       ("ablation-arithmetic",)),
    _i("proxy", "§4.2 (Ablation: parameter-training optimizer); App. D.7", "prose",
       "TMMFormer and Vanilla retrained under pure AdamW: TMMFormer still beats Vanilla, and the "
       "switch moves TMMFormer more than Vanilla",
       ("optimizer-ablation-text",),
       "proxy: main vs main-adamw on the pinned corpus (4 layers, width 64), decided on sign; the "
       "printed OWT arithmetic is checked by owt-ablation-arithmetic"),
    _i("proxy", "§4.2 (Ablation: peak learning rate); App. D.7", "prose",
       "at half the Muon peak learning rate both degrade and the ordering is robust",
       ("lr-ablation-text",),
       "proxy: main vs main-half-lr on the pinned corpus, decided on sign; the printed ≈11% is "
       "recomputed by ablation-arithmetic"),
    _i("proxy", "§4.2 (Ablation: parameter-matched); App. D.7", "prose",
       "a Vanilla widened to TMMFormer's parameter count closes only part of the gap",
       ("param-matched-text",),
       "proxy: main vs main-matched (Vanilla at width 68, 2.4% above TMMFormer's count); the "
       "depth-18 control is not retrained; the printed 40% and 9x are recomputed by ablation-arithmetic"),
    _i("proxy", "§4.2 (Ablation: multi-seed)", "prose",
       "three seeds per architecture: the TMMFormer–Vanilla gap is not seed luck",
       ("table-1", "ablation-arithmetic"),
       "proxy: table-1 pairs five seeds per arm on the pinned corpus and decides TMMFormer below "
       "Vanilla on sign; ablation-arithmetic recomputes the printed multiple"),
    _i("prose-only", "§4.2 (Ablation: multi-seed); App. D.7 (parameter-matched)", "prose",
       "TinyStories has the tighter gap, the seed noise is a few thousandths of a nat and the "
       "effect dominates it, the width-900 control recovers under half the gap and the depth-18 one "
       "a larger fraction",
       ("ts-ablation-text",),
       "held against the printed TinyStories losses and seed spreads (consistency); the multi-seed and "
       "parameter-matched runs are reproduced only at proxy scale (table-1, param-matched-text)"),
    _i("full", "App. D.5, Table 6 vs §4.2 (multi-seed)", "prose",
       "all runs use a single seed (42)",
       ("seed-text",)),
    # ------------------------------------------------------------------ §5 Momentum
    _i("proxy", "§5; Table 2; abstract, §1 (contribution 2), §7", "table",
       "momentum x preconditioning (OWT): HB lowest, Ortho highest, momentum helps in every column",
       ("table-2",), "at proxy scale by table-2: the main study (4 layers, width 64, byte-level "
       "Shakespeare) against the OpenWebText protocol, deviations recorded; decided on sign, the printed "
       "losses not reproduced"),
    _i("prose-only", "§5.1-5.3 vs Table 2 and Table 1", "prose",
       "3.008 > 2.945 > 2.941 > 2.934, HB recovers most of the vanilla-to-Yurii gap, preconditioning "
       "never helps, each momentum row beats its counterpart; Vanilla < HB < Yurii < TMM",
       ("table-2-text",),
       "held against Tables 1 and 2 (consistency); the experiment behind them is table-2's proxy item"),
    _i("full", "Theorem 5.1 (§5.2)", "theorem",
       "informal: a balanced second-moment stream gives a near-scalar diagonal preconditioner, "
       "absorbed by LN_u",
       ("thm-E.1", "ln-scale-invariance")),
    _i("proxy", "§5.3, Figure 2; §1 (Why momentum helps)", "figure",
       "full-block Jacobians: momentum variants have lower minimum-gain persistence, higher stable "
       "rank and spread",
       ("sec-5.3-jacobian",),
       "at proxy scale: the full-block Jacobians of the main study's trained models (4 layers, width 64, "
       "byte-level Shakespeare), deviations from the OpenWebText protocol and the diagnostic's own "
       "(cutoff, sequences, final checkpoint) recorded"),
    _i("full", "Theorem 5.2 (§5.3); §1 (a strictly better forward filter)", "theorem",
       "vanilla is a first-order filter, momentum a second-order one with worst-case factor "
       "(√κ−1)/(√κ+1) < (κ−1)/(κ+1)",
       ("thm-5.2",)),
    _i("prose-only", "§5.3 (after Theorem 5.2)", "prose",
       "TMMFormer contains YuriiFormer (ν = 1), supporting the empirical ordering Vanilla < HBFormer < "
       "YuriiFormer < TMMFormer",
       ("cor-F.3", "table-2-text"),
       "the lowest of its parts: the containment fully (cor-F.3), the empirical ordering only against "
       "Tables 1-2 (table-2-text)"),
    # ------------------------------------------------------------------ §6 Loss landscape
    _i("proxy", "§6.1, Figure 3(a); App. G; abstract, §1 (contribution 3)", "figure",
       "tr(H)/N: vanilla 0.316, AdamFormer 0.210, YuriiFormer 0.139, TMMFormer 0.142",
       ("sec-6.1-flatness",), "at proxy scale: App. G's estimators on the main study's trained models "
       "(4 layers, width 64, byte-level Shakespeare), deviations recorded (final model for the best "
       "checkpoint; 4 validation batches); the printed values are not reproduced"),
    _i("full", "§6.1 (Results); §6.3", "prose",
       "≈2.2× flatter than vanilla, a third lower than AdamFormer, SAM ≈2.3× below cosine: "
       "recomputed from the printed values",
       ("flatness-text",)),
    _i("prose-only", "§6.2, Figure 3(b, c, d); App. H, Table 9", "table",
       "forgetting under sequential fine-tuning (both directions) and zero-shot OOD perplexity: "
       "momentum variants forget less and generalize better",
       ("forgetting-ood-text", "ppl-vs-val-loss"),
       "the printed numbers are held against the prose (forgetting-ood-text) and the OWT column against "
       "Table 1 (ppl-vs-val-loss); a reproduction " + TRAINING.format(
           "fine-tuning on a second corpus and zero-shot evaluation on WikiText-103, LAMBADA and C4, "
           "none available offline or pinned")),
    _i("prose-only", "§6.2 (Results); App. H", "prose",
       "forgetting decreases from vanilla to the momentum variants in both directions ('the same "
       "ordering'), OOD averages 48.2 / 47.3 / 44.8 / 44.1, YuriiFormer slightly better on "
       "robustness: the prose against Table 9",
       ("forgetting-ood-text",),
       "held against Table 9 only (consistency): the fine-tuning and zero-shot runs are not reproduced"),
    _i("full", "Table 9 (OWT column) vs Table 1; eq. (8)", "equation",
       "in-distribution OpenWebText perplexity = exp(cross-entropy) against Table 1's OWT loss",
       ("ppl-vs-val-loss",)),
    _i("prose-only", "§6.3; App. I", "table",
       "WSD lowers tr(H)/N to 0.106 and OWT loss to 2.924; SAM flattens (0.062) without improving "
       "the loss (2.940)",
       ("flatness-text",),
       "the printed ratios are held against the printed values (flatness-text); a reproduction "
       + TRAINING.format("TMMFormer retrained with WSD and with SAM on OpenWebText")),
    # ------------------------------------------------------------------ Appendix A, B
    _i("full", "App. A.1", "equation",
       "heavy ball is NAG with μ_k = 0",
       ("containments", "eq-F.3-recurrence")),
    _i("full", "App. A.3", "equation",
       "Adam's step as displayed, m_k/(√s_k + ε), beside the bias-corrected m̂_k, ŝ_k it defines",
       ("adam-bias-correction-text",)),
    _i("full", "App. B.2", "prose",
       "SOAPFormer's right covariance stays PD from R_0 = I, each update has rank ≤ H = 12 in D = 64, "
       "K = 10 Newton iterations for R^{-1/2}: poorly conditioned",
       ("soap-covariance",)),
    _i("full", "App. B.2 vs §4.2 and D.7", "prose",
       "'SOAPFormer fails to converge (Section 4.2)' against §4.2's 'converge' and D.7's TS loss 1.1431",
       ("soap-convergence-text",)),
    _i("full", "App. B.1", "count", "λ_raw = −5 gives σ(λ_raw) ≈ 0.007", ("config-arithmetic",)),
    _i("full", "App. B (Summary)", "prose",
       "the nine variants fill the momentum x preconditioner table; each cell's result is reported "
       "in Section 4.2",
       ("factorial-cells-text",)),
    # ------------------------------------------------------------------ Appendix C
    _i("full", "Proposition C.1", "proposition",
       "a token-side preconditioner P = L^{-1/2} applied to AXW equals the token mixer PA applied to XW",
       ("prop-C.1",)),
    _i("full", "Remark C.2", "remark",
       "Ã = PA need not be row-stochastic, non-negative or causal",
       ("remark-C.2",)),
    # ------------------------------------------------------------------ Appendix D
    _i("full", "App. D.1; Table 3", "count",
       "GPT-2 BPE (tiktoken gpt2) with |V| = 50,304",
       ("vocab-size-text",)),
    _i("full", "App. D.3 vs Tables 4 and 5", "prose",
       "the Muon learning rate is the only optimization hyperparameter that differs between corpora",
       ("corpus-hyperparameters-text",)),
    _i("full", "App. D.3; H eq. (7); I eq. (9); Table 4", "equation",
       "the warmup–cosine (floor 0.1) and WSD schedules are continuous and end at the floor, as the "
       "prose describes",
       ("schedules",)),
    _i("full", "Table 7 (App. D.7) vs Table 1", "table",
       "the full-results table lists every variant with results on every task, with Table 1's numbers",
       ("table-7-rows",)),
    _i("prose-only", "App. D.7 (Full results)", "prose",
       "the pretraining ordering transfers exactly to downstream accuracy",
       ("downstream-transfer-text",),
       "held against Table 7 only (consistency): the downstream evaluation needs HellaSwag and "
       "ARC-Easy, not available offline"),
    _i("prose-only", "App. D.7 (SOAPFormer)", "prose",
       "SOAPFormer's 1.1431 is the weakest matrix-preconditioned variant",
       ("soap-weakest-text",),
       "held against the printed TinyStories losses only (consistency); muon-soap-text decides "
       "MuonFormer and SOAPFormer against the momentum designs at proxy scale, not this ranking"),
    _i("prose-only", "Figure 4 (a–c)", "figure",
       "OWT training curves: Vanilla under both optimizers, all variants, the late-training ordering",
       ("owt-ablation-arithmetic", "main-results-text", "table-1"),
       "the curves are not in the text: (a)'s step-aligned values are Table 8 "
       "(owt-ablation-arithmetic), (c)'s ordering is checked against Table 1 (main-results-text); the "
       "OpenWebText curves themselves are not reproduced (table-1's proxy study, on the TinyStories "
       "protocol, has its own curves)"),
    # ------------------------------------------------------------------ Appendix E
    _i("full", "App. E (opening)", "prose",
       "LN(Dx) ≠ LN(x) for a non-scalar positive diagonal D",
       ("ln-scale-invariance",)),
    _i("full", "Theorem E.1", "theorem",
       "a balanced diagonal preconditioner is within (√(1+ε)−1)/(1+δ/ρ_max) ≤ ε/2 of a scalar matrix",
       ("thm-E.1",)),
    _i("full", "App. E (proof of Theorem E.1)", "equation",
       "LN_u(cz) = LN_u(z) for c > 0, up to the LayerNorm's epsilon",
       ("ln-scale-invariance",)),
    _i("none", "Remark E.2", "remark",
       "the balance assumption is natural in trained pre-norm models (normalized oracle inputs, "
       "dense learned projections)",
       ("balance-premise", "remark-E.2-trained"),
       "checked only by a premise and an extension claim, which never cover an item: "
       "momentum_streams:balance-premise at initialization (random dense projections of LayerNormed "
       "inputs, 24 substeps), and momentum_streams:remark-E.2-trained on the trained AdamFormer and "
       "RMSPropFormer of the main study's configuration (s_max/s_min ≤ 2 at every token and substep), "
       "which fails on main's arms retrained bit for bit (main-replica, seeds 0-2: ratios up to "
       "18-82, medians 2.2-4.5)"),
    # ------------------------------------------------------------------ Appendix F
    _i("full", "App. F.1, eq. (3); Remark F.5", "equation",
       "the readout loss is C-smooth, so at a minimizer ℒ(X) − ℒ(X*) ≤ (C/2)‖X − X*‖²",
       ("eq-3-smooth-readout",)),
    _i("full", "Lemma F.1", "lemma",
       "best vanilla step 2/(L+μ), worst-case factor (κ−1)/(κ+1), ‖E_N‖ ≤ ρ^N‖E_0‖",
       ("lemma-F.1",)),
    _i("full", "App. F.3 (second-order recurrence)", "equation",
       "e_{ℓ+1} = α(λ)e_ℓ − θ(λ)e_{ℓ−1}, α = 1+b−(a+c)ηλ, θ = b−aηλ; E_N = q_N(H)E_0, a richer family",
       ("eq-F.3-recurrence",)),
    _i("full", "Lemma F.2", "lemma",
       "tuned heavy ball has rate (√κ−1)/(√κ+1) < (κ−1)/(κ+1) and ‖E_N‖ ≤ C_mom ρ_mom^N ‖E_0‖",
       ("lemma-F.2",)),
    _i("full", "Lemma F.2 (statement, last sentence)", "lemma",
       "a second-order momentum recurrence can have a strictly better finite-depth worst-case "
       "contraction factor",
       ("lemma-F.2-finite-depth", "lemma-F.2-depth-12")),
    _i("none", "Lemma F.2 (proof: 'for the quadratic energy')", "remark",
       "the heavy-ball rate is a quadratic-model statement (premise: it does not extend to smooth "
       "strongly convex f)",
       ("hb-quadratic-scope",),
       "checked only by hb-quadratic-scope (momentum_streams:hb-quadratic-scope), a premise claim (the "
       "rate does not extend beyond the quadratic model), which never covers an item; Lemma F.2 itself "
       "is covered by lemma-F.2"),
    _i("full", "Remark F.5", "remark",
       "in the local linearized regime momentum gives a faster filter for slow token-feature modes",
       ("slow-modes-text",)),
    _i("full", "Corollary F.3", "corollary",
       "the TMM filter family contains YuriiFormer's, so its minimax worst case is ≤ YuriiFormer's",
       ("cor-F.3",)),
    _i("full", "Theorem F.4", "theorem",
       "for N ≥ N₀ = max{0, ⌈log C_mom / log(ρ_van/ρ_mom)⌉} the momentum loss bound is strictly below "
       "the vanilla one",
       ("thm-F.4",)),
    # ------------------------------------------------------------------ Appendix G, I
    _i("full", "§6.1 (Setup); App. G (Hessian trace)", "prose",
       "tr(H)/N is the scale-invariant (scale-normalized) trace, the mean curvature per parameter",
       ("trace-scale-text",)),
    _i("full", "App. G (Top Hessian eigenvalue)", "equation",
       "power iteration on HVPs estimates the dominant curvature λ_max(H)",
       ("power-iteration-text",)),
    _i("full", "App. G (eqs. (4), (5), Hutchinson)", "equation",
       "double backward gives Hv; Hutchinson's estimator is unbiased; the filter-normalized curve is "
       "comparable across scales",
       ("sharpness-estimators",)),
    _i("full", "App. G (Hessian–vector products)", "prose",
       "the fused/flash attention kernels do not support the double backward; the math kernel does",
       ("double-backward-kernels",)),
    _i("full", "App. I, eq. (10)", "equation",
       "SAM's ascent step ε* = ρg/‖g‖ is the worst-case point of the ρ-ball",
       ("sam-ascent",)),
    _i("full", "App. I (SAWD)", "count",
       "SAM only in the decay phase t ≥ D of (9) runs for the final ≈1/6 of training (D = 25,000, "
       "T = 30,000): overhead ≈17% rather than ≈2×", ("sawd-overhead-arithmetic",)),
)

# ------------------------------------------------------------------ App. D-I's protocols (kind "protocol")
# The claims that use each protocol of claims._protocol (protocol="<tables>", or the diagnostics'
# PROTOCOL) and the study their verdict is decided on; then the settings Tables 3-6 and App. G-I
# print that the protocols do not carry.
PROTOCOL_RUNS = {
    "momentum_streams TinyStories": ((MS + "table-1", "main"), (MS + "muon-soap-text", "main"),
                                     (MS + "param-matched-text", "main-matched")),
    "momentum_streams OpenWebText": ((MS + "table-2", "main"), (MS + "sec-6.1-flatness", "main"),
                                     (MS + "sec-5.3-jacobian", "main")),
    "momentum_streams OpenWebText, pure AdamW": ((MS + "optimizer-ablation-text", "main-adamw"),),
    "momentum_streams OpenWebText, half Muon lr": ((MS + "lr-ablation-text", "main-half-lr"),),
}
RUNS = ("table-1", "muon-soap-text", "param-matched-text", "table-2", "lr-ablation-text")  # Muon runs
_CODE = "fixed in code (particles/lm: model.py, train.py), the same in every study"
_NO_HARNESS = ("no downstream evaluation is run: HellaSwag and ARC-Easy (lm-eval) are not available "
               "offline and the OpenWebText checkpoints they are run on do not exist here (Table 1's "
               "HS/ARC columns are prose-only)")
_NO_FT = TRAINING.format("fine-tuning on a second corpus and zero-shot evaluation on WikiText-103, "
                         "LAMBADA and C4, none available offline or pinned") + " (Table 9 is prose-only)"
_NO_WSD = TRAINING.format("TMMFormer retrained with WSD, SAM and SAWD on OpenWebText") + \
    " (§6.3's numbers are prose-only)"
WALL = ("wall-clock", "wall-clock-muon", "wall-clock-only-muon")


def _p(level, locator, what, claims=RUNS, reason=""):
    return _i(level, locator, "protocol", what, claims, reason)


ITEMS += protocol_items("momentum_streams", PROTOCOL_RUNS) + (
    # Tables 3-5, App. D.3
    _p("full", "App. D.4, Table 3", "output head weight-tied", reason=_CODE),
    _p("full", "Table 4", "learning-rate schedule: linear warm-up, then cosine",
       reason="particles.lm.train.lr_factor; " + _CODE),
    _p("partial", "Table 4; App. D.4", "micro-batch 8 with 60 gradient-accumulation steps on 2-GPU DDP "
       "(480 sequences per step)", WALL,
       "the effective batch (480) is the protocols' batch item; the split is recorded only by the "
       "wall-clock claims' paper-size timing setting (micro-batch 8, one GPU's 30 accumulation steps: the "
       "paper's); missing: the training runs take their whole batch in one micro-batch, which no "
       "deviation list records (accumulation changes only the summation order)"),
    _p("full", "Table 5; App. D.3", "Muon on the 2-D weight matrices: momentum 0.95, Nesterov, weight "
       "decay 0", reason="particles.lm.train.build_optimizers; " + _CODE),
    _p("full", "Table 5; App. D.3", "AdamW on the token/position embeddings: weight decay 0.1 (learning "
       "rate: the AdamW peak, the protocols' item)", reason="weight_decay = 0.1 in the run configuration"),
    _p("full", "Table 5; App. D.3", "AdamW on the LayerNorm gains: weight decay 0 (learning rate: the "
       "AdamW peak)", reason="particles.lm.train.build_optimizers; " + _CODE),
    _p("full", "Table 5; App. D.3", "AdamW on the learned scalars: weight decay 0 (learning rate 3e-3, "
       "5x the AdamW peak: the protocols' multiplier item)",
       reason="particles.lm.train.build_optimizers; " + _CODE),
    _p("full", "App. D.3", "one global schedule multiplier for the four groups (their learning-rate "
       "ratios fixed)", reason="particles.lm.train: every group's rate is its base rate x lr_factor; " + _CODE),
    # Table 6, App. D.5
    _p("proxy", "Table 6", "compilation: torch.compile", WALL,
       "recorded in the wall-clock claims' deviations ('execution': the paper's torch.compile against "
       "our measured eager and fused executions at the paper's size); the training runs (CPU, eager) "
       "record nothing about it, and their losses do not depend on it"),
    _p("none", "Table 6; App. D.5; §4.2 (Ablation: multi-seed)", "seeds: a single seed (42) for every run "
       "(three per architecture in §4.2's multi-seed ablation)", (),
       "ours trains five paired seeds per arm (each experiment claim's evidence lists them), but no "
       "deviation list records the paper's seed or seed count (the two statements' disagreement is "
       "momentum_streams:seed-text)"),
    _p("none", "Table 6; App. D.5", "downstream harness: lm-evaluation-harness v0.4.3 on the best "
       "OpenWebText checkpoint", (), _NO_HARNESS),
    _p("none", "Table 6; App. D.5", "shots: HellaSwag 10-shot, ARC-Easy 25-shot", (), _NO_HARNESS),
    _p("none", "Table 6; App. D.5", "downstream metric: acc_norm", (), _NO_HARNESS),
    # §4.2 ablation arms the protocols do not carry
    _p("proxy", "§4.2 (Ablation: parameter-matched); App. D.7", "parameter-matched control: Vanilla widened "
       "to d_model = 900 (162.86M, 0.6% below TMMFormer)", ("param-matched-text",),
       "recorded in param-matched-text's deviations ('matched size'): ours is Vanilla at width 68, 2.4% "
       "above TMMFormer's count at width 64"),
    _p("none", "§4.2 (Ablation: parameter-matched); App. D.7", "depth-18 control (166.85M)", (),
       "not retrained: no study of ours has a depth-matched Vanilla"),
    # App. G (the sharpness diagnostics of sec-6.1-flatness)
    _p("full", "App. G (Hyperparameters)", "power iteration: at most T_pow = 15 iterations",
       ("sec-6.1-flatness",), "the evidence's settings: power_iters = 15"),
    _p("full", "App. G (Hyperparameters)", "power-iteration tolerance τ = 1e-3", ("sec-6.1-flatness",),
       "particles.lm.diagnostics.POWER_TOL, a constant of the diagnostic (not in the evidence's settings)"),
    _p("full", "App. G (Hyperparameters)", "Hutchinson's estimator with P = 10 Rademacher probes",
       ("sec-6.1-flatness",), "the evidence's settings: probes = 10"),
    _p("full", "App. G (Hyperparameters)", "filter-normalized loss curve: G = 11 points over α ∈ [−0.5, 0.5]",
       ("sec-6.1-flatness",), "the evidence's settings: grid = 11; α_max = 0.5 is "
                              "particles.lm.diagnostics.ALPHA_MAX"),
    _p("partial", "App. G", "B validation minibatches (B not stated), drawn once with a fixed seed and "
       "shared by every variant and probe", ("sec-6.1-flatness",),
       "shared and fixed as stated; B is a choice the paper leaves open: ours (4) is recorded beside 'not "
       "stated' in the claim's diagnostic_deviations, the paper's is missing"),
    _p("proxy", "App. G; §6.1", "every diagnostic at the best (lowest validation loss) checkpoint",
       ("sec-6.1-flatness",), "recorded in the claim's diagnostic_deviations ('checkpoint'): ours is the "
                              "final model (the schedule decays to the last step)"),
    # App. H (forgetting and zero-shot generalization)
    _p("none", "App. H; §6.2", "fine-tuning optimizer: AdamW, lr 1e-4, weight decay 0.01, β = (0.9, 0.95), "
       "the same for every variant", (), _NO_FT),
    _p("none", "App. H; §6.2", "fine-tuning: both directions (OpenWebText → TinyStories, TinyStories → "
       "OpenWebText), 1000 steps, linear warm-up over W steps (W not stated), cosine to 0.1 of the peak "
       "(eq. (7))", (), _NO_FT),
    _p("none", "App. H", "forgetting evaluation: source and target losses every 100 steps on 50 fixed "
       "validation minibatches (seed 0), bfloat16 autocast", (), _NO_FT),
    _p("none", "App. H", "zero-shot corpora: WikiText-103 (validation), LAMBADA (OpenAI test), C4 (English "
       "validation), OpenWebText validation as reference, fixed minibatches (seed 0); ppl = exp(mean CE)",
       (), _NO_FT),
    # App. I (WSD, SAM, SAWD)
    _p("none", "App. I, eq. (9)", "WSD schedule: warm-up W = 3,000, constant to D = 25,000, linear decay to "
       "the floor 0.1 at T = 30,000", (), _NO_WSD),
    _p("none", "App. I, eq. (10)", "SAM: ρ = 0.05, ascent and update on the same minibatch (true SAM)", (),
       _NO_WSD),
    _p("none", "App. I (SAWD)", "SAWD: the WSD schedule with SAM only in the decay phase", (), _NO_WSD),
) + inventory_items("momentum_streams", MISPRINTS)

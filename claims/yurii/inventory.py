"""The checkable items of seed 004_bfbae7e9ba22b155.txt (`yurii`), section by section in the
paper's order. Architecture diagrams (Figures 1 and 4) and the related-work survey (§4) report no
result and are not items; the GPT-2 and nanoGPT numbers quoted in §5.4 are external references
(the items are the paper's comparisons with them).

Training items: the paper trains 124M/354M GPT-2-BPE models on TinyStories and OpenWebText; the
ledger's training proxy is the byte-level Shakespeare `main` study (claims/yurii/training.py). A
table's own prose is checked against its numbers without training (`consistency`); where a proxy claim
checks the same sentence at proxy scale it is listed and the reason says so. At the end, every
setting of §5.1 and App. A's training protocol (kind "protocol": claims._protocol's TinyStories
protocol, generated, and the settings the paper prints that it does not carry, the OpenWebText
columns of Table 1 and the evaluation harness included).
"""
from claims._inventory import Item, protocol_items


def _i(level, locator, kind, what, claims=(), reason=""):
    return Item("yurii", locator, kind, what, tuple(claims), reason, level)


OWT = ("a reproduction needs OpenWebText at 124M/354M parameters (not available offline; training, "
       "for the lead)")

ITEMS = (
    # Abstract, §1
    _i("full", "Abstract; §2", "prose",
       "self-attention implements a gradient step of an interaction energy, MLP layers gradient updates "
       "of a potential energy", ("yurii:sec-2-oracles",)),
    _i("full", "Abstract; §2.3; §7", "prose",
       "standard GPT-style transformers are vanilla gradient descent on E + F via Lie–Trotter splitting",
       ("yurii:eq-4-5", "yurii:sec-3.2-splitting")),
    _i("full", "Abstract; §3", "prose",
       "a Nesterov-style accelerated transformer that preserves the same attention and MLP oracles",
       ("yurii:sec-3.2-splitting", "yurii:oracle-calls")),
    _i("proxy", "Abstract; §1", "prose",
       "the resulting architecture consistently outperforms a nanoGPT baseline on TinyStories",
       ("yurii:abstract-outperforms", "yurii:table-2"),
       "at proxy scale by yurii:table-2 (Nesterov+Lie-Trotter below every other block, the nanoGPT one "
       "included; the main study, 4 layers, width 64, byte-level Shakespeare); against every row of "
       "Tables 2 and 5 by abstract-outperforms (consistency)"),
    _i("prose-only", "Abstract; §1", "prose",
       "the resulting architecture consistently outperforms a nanoGPT baseline on OpenWebText",
       ("yurii:abstract-outperforms",),
       "held against every row of Tables 3-4 (consistency); " + OWT),
    # §2
    _i("full", "§2.1, display after eq. (1)", "equation",
       "w.r.t. a suitable Riemannian metric, ∇_{x_i}E = Σ_j x_j e^{⟨x_i,x_j⟩}/Σ_j e^{⟨x_i,x_j⟩} for "
       "E(X) = Σ_ij e^{⟨x_i,x_j⟩}", ("yurii:sec-2-oracles",)),
    _i("full", "§2.1 (comparison with eq. (1))", "equation",
       "attention (1) is that gradient modulated by V_t (preconditioning) and ⟨Q_t x_i, K_t x_j⟩ "
       "(change of coordinates)", ("yurii:sec-2-oracles",)),
    _i("full", "§2.2, eq. (2)", "equation",
       "∇V = σ for V(x) = Σ_ℓ v(x^(ℓ)), v' = σ; the MLP update is a gradient step on F modulated by W_t "
       "and x ↦ A_t x + b_t", ("yurii:sec-2-oracles",)),
    _i("full", "§2.3, eqs. (3)-(5)", "equation",
       "forward Euler of Ẋ = Attn(X) + MLP(X) is the parallel update (4); Lie–Trotter splitting is the "
       "sequential update (5)", ("yurii:eq-4-5",)),
    # §3
    _i("full", "§3 (opening)", "prose",
       "(4) and (5) are gradient descent on E + F; the Attn/MLP alternation comes from the Lie–Trotter "
       "splitting, not from gradient descent", ("yurii:eq-4-5", "yurii:sec-3.2-splitting")),
    _i("full", "§3.1", "prose",
       "NAG achieves the optimal O(1/t²) iteration complexity on smooth convex objectives; GD is "
       "suboptimal", ("yurii:nag-rate-convex",)),
    _i("full", "§3.1, eq. (6)", "equation",
       "NAG's three steps (6); Polyak's heavy ball is (6) with μ_t = 0", ("yurii:eq-6-heavy-ball",)),
    _i("full", "§3.1 (adaptive methods)", "prose",
       "Adam's coordinate-wise rescaling can be folded into the learned preconditioning matrix",
       ("yurii:adam-folding",)),
    _i("full", "§3.1", "prose",
       "classical momentum schemes collapse into a single acceleration template",
       ("yurii:momentum-template-text",)),
    _i("full", "§3.2 (YuriiFormer with Euler / Lie–Trotter)", "equation",
       "the two YuriiFormer blocks preserve the same optimization template and differ only in the "
       "splitting", ("yurii:sec-3.2-splitting",)),
    _i("prose-only", "§3.2 (end)", "prose",
       "Nesterov-style acceleration yields consistent improvements over non-accelerated baselines",
       ("yurii:abstract-outperforms",),
       "held against every row of Tables 2-5 (consistency); the improvements themselves are results of "
       "the paper's 124M/354M runs, reproduced here only for TinyStories' Table 2 sentence (yurii:table-2)"),
    # §5.1
    _i("none", "§5.1 Models; §2.1 footnote 1", "prose",
       "decoder-only models trained autoregressively with a causal attention mask (every update rule, "
       "with its velocity stream, must stay causal)", ("yurii:causal",),
       "checked only by yurii:causal, a premise claim (every update rule with its v0 tables keeps the "
       "decoder causal, which the paper does not state); a premise never covers an item"),
    _i("full", "§5.1 Models", "count",
       "with a standard convention the GD baselines and YuriiFormer variants come at 124M (small) and "
       "354M (medium)", ("yurii:param-count", "yurii:param-count-momentum")),
    _i("full", "Table 1", "table",
       "model sizes 123.6M/353.6M; train tokens = steps × tokens/step (4.92B, 14.75B)",
       ("yurii:param-count", "yurii:training-arithmetic")),
    _i("full", "§5.1 Training", "count",
       "491,520 tokens per step; about 960 steps per TinyStories epoch and 17.5k per OpenWebText epoch; "
       "about 10.4 and 1.7 epochs", ("yurii:training-arithmetic",)),
    # §5.2
    _i("prose-only", "§5.2 (TinyStories paragraph); Figure 2", "figure",
       "validation loss reaches its minimum around step 7.6k for all methods (about 10 epochs)",
       ("yurii:figure-2-minimum",),
       "held against Table 2 (every Best below its Final: a minimum before the last evaluation) and the "
       "token budget (10.4 epochs), which cannot place it: the step is read off Figure 2's curves of the "
       "TinyStories runs at 124M (not in the text, not available offline), so the claim is inconclusive; "
       "our proxy (main, 1.7 passes over its corpus) has every minimum at its last evaluation and cannot "
       "stand in"),
    _i("prose-only", "§5.2 (TinyStories paragraph); Figure 2", "figure",
       "after its minimum the validation loss changes little while the training loss keeps decreasing "
       "(overfitting late in training)", ("yurii:sec-5-orderings",),
       "held against Table 2's Best, Final and Train columns (consistency); the curves need the "
       "TinyStories runs at 124M"),
    _i("proxy", "§5.2 (TinyStories paragraph); Figure 2", "figure",
       "Nesterov+Lie–Trotter achieves the lowest validation loss", ("yurii:table-2", "yurii:sec-5-orderings"),
       "at proxy scale by yurii:table-2 (the main study, 4 layers, width 64, byte-level Shakespeare); "
       "against Table 2 by sec-5-orderings"),
    _i("proxy", "Table 2", "table",
       "TinyStories best/final/train losses of GD, Polyak, Nesterov × Euler, Lie–Trotter",
       ("yurii:table-2", "yurii:sec-5-orderings", "yurii:table-5-text"),
       "the sentence the table supports (Nesterov+Lie-Trotter lowest) at proxy scale by yurii:table-2; "
       "the table against its prose and against Table 5 by consistency"),
    _i("prose-only", "§5.2 (OpenWebText paragraph); Figure 3", "figure",
       "after warmup the ordering is stable at both sizes: GD+Euler highest, Nesterov+Lie-Trotter lowest, "
       "the others in between", ("yurii:sec-5-orderings",),
       "the curves: " + OWT + "; the ordering the prose states is checked against Table 3"),
    _i("prose-only", "Table 3", "table",
       "OpenWebText best/final validation losses, small and medium",
       ("yurii:sec-5-orderings", "yurii:abstract-outperforms", "yurii:nesterov-vs-polyak"),
       OWT + "; checked: the table against the prose of §5.2, §5.4, §6, Figures 3 and 5"),
    # §5.3
    _i("prose-only", "§5.3", "prose",
       "the OpenWebText validation-loss ordering largely holds for downstream acc_norm; the quoted "
       "examples (30.0 → 31.8, 35.5 → 36.8, ARC 40.5 → 42.6 vs 39.4 → 41.1)",
       ("yurii:downstream-ordering",),
       "held against Tables 3 and 4 (consistency); the accuracies need the OpenWebText checkpoints and "
       "the LM Evaluation Harness on HellaSwag / ARC-Easy (not available offline)"),
    _i("prose-only", "Table 4", "table",
       "HellaSwag and ARC-Easy acc_norm at the best OpenWebText checkpoints; boldface = top two",
       ("yurii:downstream-ordering", "yurii:abstract-outperforms", "yurii:conclusion"),
       "the accuracies need the OpenWebText checkpoints and the LM Evaluation Harness on HellaSwag / "
       "ARC-Easy (not available offline); checked: every use the text makes of the table"),
    # §5.4
    _i("prose-only", "§5.4 (GPT-2 and nanoGPT comparison)", "prose",
       "our small model reaches 2.92 < 3.12 (GPT-2 124M), medium 2.70 < 2.84; nanoGPT's 2.85 uses "
       "600k steps / 294.9B tokens vs our 30k / 14.75B",
       ("yurii:sec-5-orderings", "yurii:training-arithmetic"),
       "2.92 and 2.70 held against Table 3 (consistency), the token budgets recomputed "
       "(training-arithmetic); the losses are results of the OpenWebText runs: " + OWT),
    _i("prose-only", "§5.4 (Harness sanity check)", "prose",
       "GPT-2 small's 31.53% (HS) and 39.48% (ARC) are broadly consistent with our small checkpoints "
       "(29.9–31.8%, 38.5–41.2%)", ("yurii:downstream-ordering",),
       "the quoted ranges held against Table 4 (consistency); GPT-2's numbers are external and the "
       "harness runs need HellaSwag / ARC-Easy (not available offline)"),
    _i("proxy", "§5.4 (Discussion)", "prose", "Lie-Trotter splitting consistently outperforms Euler discretization",
       ("yurii:lie-trotter-vs-euler", "yurii:lie-trotter-text"),
       "against Tables 2-4 (consistency) and, on TinyStories' three pairs, at proxy scale by "
       "yurii:lie-trotter-text"),
    _i("prose-only", "§5.4 (Discussion)", "prose",
       "the Lie-Trotter superiority is less pronounced for OWT than for TinyStories",
       ("yurii:lie-trotter-gap-owt",),
       "the printed Lie-Trotter-Euler gaps of Tables 2 and 3 compared (consistency); the OpenWebText "
       "half: " + OWT),
    _i("proxy", "§5.4 (Discussion)", "prose",
       "the combination Nesterov + Lie-Trotter yields the maximal improvement over the baseline",
       ("yurii:lie-trotter-vs-euler", "yurii:table-2"),
       "on TinyStories at proxy scale by yurii:table-2 (Nesterov+Lie-Trotter below every block); against "
       "Tables 2-4 by lie-trotter-vs-euler (consistency); the OpenWebText runs: " + OWT),
    # §6
    _i("full", "§6 (Polyak with Euler / Lie-Trotter)", "equation",
       "the Polyak blocks are the μ_t = 0 (no-lookahead) specialization of YuriiFormer",
       ("yurii:sec-6-polyak-blocks", "yurii:eq-6-heavy-ball")),
    _i("prose-only", "§6 (Empirical comparison)", "prose",
       "Polyak achieves losses comparable to Nesterov and improves over the GD baselines (Tables 2, 3)",
       ("yurii:nesterov-vs-polyak",),
       "held against Tables 2 and 3 (consistency); no claim decides the Polyak rows on our runs"),
    _i("prose-only", "§6 (Empirical comparison)", "prose",
       "Nesterov's lookahead yields a small additional loss improvement at the same compute and "
       "parameter budget (no extra oracle calls)",
       ("yurii:nesterov-vs-polyak", "yurii:oracle-calls", "yurii:sec-6-same-budget", "yurii:wall-clock"),
       "the lowest of its parts: the loss improvement only against Tables 2-3 (nesterov-vs-polyak, "
       "consistency); the same compute and parameter budget fully (oracle-calls, sec-6-same-budget, "
       "wall-clock at the paper's size)"),
    _i("proxy", "§6 (Additional architectures)", "prose",
       "on TinyStories Nesterov+Lie–Trotter is tied for best among the 1 Attn + 1 MLP variants; "
       "variants with extra oracle calls can achieve lower losses",
       ("yurii:table-5-text", "yurii:table-5"),
       "against Table 5 (consistency) and at proxy scale by yurii:table-5"),
    # §7, §8
    _i("full", "§7", "prose",
       "both variants embed momentum without increasing the number of attention or MLP evaluations "
       "per block", ("yurii:oracle-calls",)),
    _i("prose-only", "§7", "prose",
       "both architectures consistently outperform vanilla transformers of the same size and training "
       "budget; Nesterov gives the strongest, most stable loss improvements and consistently improved "
       "downstream accuracy", ("yurii:conclusion", "yurii:nesterov-vs-polyak"),
       "held against Tables 2-4 (consistency); the runs behind them (124M/354M on TinyStories and "
       "OpenWebText, the harness) are reproduced here only for TinyStories' Table 2 sentence"),
    _i("prose-only", "§8 Limitations", "prose",
       "the observed improvements are consistent across datasets, model sizes and tasks",
       ("yurii:conclusion",),
       "held against Tables 2-4 (consistency): every dataset, size and task the sentence ranges over "
       "is a run of the paper's that is not reproduced here"),
    # Appendix A
    _i("full", "Appendix A.1", "count",
       "GD baselines have 123.6M and 353.6M non-positional parameters; the v0 token tables add 38.6M "
       "and 51.5M", ("yurii:param-count",)),
    _i("full", "Appendix A.1", "count",
       "the Nesterov variants have the same non-positional counts (123.6M / 353.6M) up to a negligible "
       "overhead from the update rule", ("yurii:param-count-momentum",)),
    _i("full", "Appendix A.1", "count",
       "the update rule adds a velocity LayerNorm (O(Ld)) and O(L) learned scalars",
       ("yurii:sec-6-same-budget",)),
    _i("full", "Appendix A.2", "count",
       "vocabulary 50,257 padded to 50,304; OpenWebText 7,630,278 + 383,491 documents (8.62B + 432M "
       "tokens) in a split targeting 95/5", ("yurii:training-arithmetic",)),
    _i("none", "Appendix A.2", "count",
       "the TinyStories split contains 471.6M training and 2.37M validation tokens",
       reason="needs the GPT-2-BPE tokenized TinyStories corpus (not available offline); "
              "yurii:training-arithmetic uses the count, it does not check it"),
    _i("full", "Appendix A.3", "count", "each evaluation averages 160 validation batches (4,915,200 tokens)",
       ("yurii:training-arithmetic",)),
    # Appendix B
    _i("prose-only", "Appendix B.1; Figure 5", "figure",
       "OpenWebText Nesterov vs Polyak curves: nearly identical across sizes, a small but consistent "
       "advantage for Nesterov", ("yurii:sec-5-orderings", "yurii:nesterov-vs-polyak"),
       "the curves: " + OWT + "; the caption's ordering is checked against Table 3"),
    _i("full", "Appendix B.2 (IMEX)", "algorithm",
       "IMEX with k unrolled refinements; the k = 1 update; 1 Attn + k MLP per block; k = 1 differs "
       "from Lie–Trotter because of the lookahead X_t + μ_{t+½}V^{(0)}_{t+1}",
       ("yurii:imex-k1", "yurii:oracle-calls")),
    _i("full", "Appendix B.2 (PRK-Verlet)", "algorithm",
       "the Strang symmetric composition, a second-order, time-reversible update; 2 Attn + 1 MLP per "
       "block (1.5× oracle calls)", ("yurii:prk-verlet", "yurii:oracle-calls")),
    _i("partial", "Appendix B.2 (Hamiltonian, symplectic Euler)", "algorithm",
       "the Attn-kick → drift → MLP-kick update motivated by symplectic Euler",
       ("yurii:hamiltonian-block", "yurii:oracle-calls"),
       "oracle-calls checks its oracle count (1 Attn + 1 MLP); missing: what 'motivated by symplectic "
       "Euler' asserts, checked only by yurii:hamiltonian-block, an extension claim (sharper than the "
       "text), which covers nothing"),
    _i("proxy", "Appendix B.3; Table 5", "table",
       "all 17 update rules on TinyStories, standard (1 Attn + 1 MLP) and extra-compute panels",
       ("yurii:table-5", "yurii:table-5-text", "yurii:oracle-calls"),
       "the text's sentence about the table at proxy scale by yurii:table-5; the table against Table 2 "
       "and the text by consistency"),
)

# ------------------------------------------------------------------ §5.1 and App. A's protocol (kind "protocol")
# The experiment claims that use claims._protocol's "yurii TinyStories" (protocol="yurii TinyStories")
# and the study they are decided on; then the settings §5 and App. A print that the protocol does
# not carry.
PROTOCOL_RUNS = {"yurii TinyStories": (("yurii:table-2", "main"), ("yurii:lie-trotter-text", "main"),
                                       ("yurii:table-5", "main"))}
RUNS = ("yurii:table-2", "yurii:lie-trotter-text", "yurii:table-5")
_CODE = "fixed in code (particles/lm: model.py, blocks.py, train.py), the same in every study and arm"
_NO_OWT = ("no OpenWebText run: the corpus is not available offline and no protocol of claims._protocol "
           "carries the OpenWebText columns (training, for the lead)")
_NO_HARNESS = ("no downstream evaluation is run: HellaSwag and ARC-Easy are not available offline and the "
               "OpenWebText checkpoints they are run on do not exist here (Table 4 is prose-only)")


def _p(level, locator, what, claims=RUNS, reason=""):
    return _i(level, locator, "protocol", what, claims, reason)


ITEMS += protocol_items("yurii", PROTOCOL_RUNS) + (
    # §5.1 Models, App. A.1
    _p("full", "§5.1 Models", "decoder-only, causal attention mask, a learned position embedding added "
       "to each token embedding", reason=_CODE),
    _p("full", "§5.1 Models", "pre-normalization (a LayerNorm before the attention and before the MLP), "
       "a final LayerNorm, a weight-tied output projection", reason=_CODE),
    _p("full", "§5.1 Models", "attention: fused QKV projection, causal scaled dot-product attention, "
       "output projection; MLP: GELU with 4x expansion", reason=_CODE),
    _p("full", "§5.1 Models", "a dedicated LayerNorm on the velocity after each velocity update (after "
       "each substep in split updates)", reason="particles.lm.blocks.kicks (LN_v); " + _CODE),
    _p("none", "§5.1 Models; Table 1", "the medium configuration 24L/16H/1024d (353.6M) on OpenWebText",
       (), _NO_OWT),
    _p("full", "Appendix A.1", "dropout 0 and no bias terms", reason=_CODE),
    _p("full", "Appendix A.1", "the velocity v0 is initialized from token and positional embedding tables "
       "separate from the main ones", reason="the aux_ embeddings of particles.lm.model; " + _CODE),
    _p("full", "Appendix A.1", "update-rule scalars in (0, 1) stored as logits through a sigmoid, positive "
       "ones through softplus", reason="particles.lm.blocks.Scalar; " + _CODE),
    # §5.1 Training, Table 1
    _p("full", "§5.1 Training", "AdamW (β1, β2) = (0.9, 0.95)",
       reason="beta1 = 0.9, beta2 = 0.95 in the run configuration of study main"),
    _p("full", "§5.1 Training", "Muon momentum β = 0.95",
       reason="particles.lm.train.build_optimizers (torch.optim.Muon, momentum 0.95, Nesterov); " + _CODE),
    _p("full", "§5.1 Training", "global gradient-norm clipping at 1.0",
       reason="grad_clip = 1.0 in the run configuration of study main"),
    _p("full", "§5.1 Training", "cosine learning-rate schedule with linear warm-up",
       reason="particles.lm.train.lr_factor; " + _CODE),
    _p("partial", "§5.1 Training", "a global batch of 30 sequences with 16-step gradient accumulation",
       ("yurii:wall-clock",),
       "the effective batch (480) is the protocol's batch item; the split is recorded only by "
       "yurii:wall-clock's paper-size timing setting (15 sequences per GPU on 2 GPUs, 16 accumulation "
       "steps: the paper's); missing: the training runs take their whole batch in one micro-batch, "
       "which no deviation list records (accumulation changes only the summation order)"),
    _p("none", "Table 1 (OWT 12L, OWT 24L)", "OpenWebText: 30K train steps", (), _NO_OWT),
    _p("none", "Table 1 (OWT 12L, OWT 24L)", "OpenWebText: 3K warm-up steps", (), _NO_OWT),
    _p("none", "Table 1 (OWT 12L)", "OpenWebText small: Muon LR 0.004", (), _NO_OWT),
    _p("none", "Table 1 (OWT 24L)", "OpenWebText medium: Muon LR 0.006", (), _NO_OWT),
    _p("none", "Table 1 (OWT 12L, OWT 24L)", "OpenWebText: AdamW LR 6e-4", (), _NO_OWT),
    _p("full", "§5.2", "every method is trained on the same deterministic sequence of training batches",
       reason="the run's seed fixes the batch sequence, the same for every arm (particles.lm.data); "
              "runs pair by seed"),
    # App. A.2, A.3
    _p("proxy", "Appendix A.2", "an end-of-text token between documents/stories",
       reason="covered in bulk by the tokenizer and corpus deviations every claim records: ours is one "
              "continuous byte stream of the pinned corpus, with no document separator; the separator "
              "itself is in no deviation list"),
    _p("none", "Appendix A.2", "epochs over non-overlapping T-token blocks, block boundaries shifted by a "
       "seeded offset and the block order reshuffled between epochs", (),
       "ours samples random windows (particles.lm.data: uniformly drawn start positions), not epochs of "
       "non-overlapping blocks; no deviation list records the difference"),
    _p("full", "Appendix A.3", "parameter groups: Muon on non-embedding matrices (weight decay 0); AdamW on "
       "the embeddings, the tied output matrix and the velocity embeddings included (weight decay 0.1); "
       "AdamW without weight decay on normalization parameters and learned scalars",
       reason="particles.lm.train.param_groups and build_optimizers; weight_decay = 0.1 in the run "
              "configuration"),
    # §5.3 evaluation harness
    _p("none", "§5.3", "downstream harness: Language Model Evaluation Harness at the best-validation "
       "OpenWebText checkpoint", (), _NO_HARNESS),
    _p("none", "§5.3; Table 4", "shots: 10-shot HellaSwag, 25-shot ARC-Easy (0-shot for reference)", (),
       _NO_HARNESS),
    _p("none", "§5.3", "the harness's default few-shot seed (fewshot_seed = 1234) and left-truncation at "
       "1024 tokens", (), _NO_HARNESS),
    _p("none", "§5.3; Table 4", "metric: length-normalized accuracy (acc_norm) with standard errors", (),
       _NO_HARNESS),
)

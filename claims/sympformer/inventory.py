"""The checkable items of seed 000_63047fa14d9c3172.txt (`sympformer`), section by section in the
paper's order: abstract, §1, §2 (Nesterov flows and their discretizations), §3 (transformer
layers), §4 (linear attention), §5 (softmax attention), §6 (implementation and experiments), §7,
Appendix A (proofs, listed with the result they prove unless a proof step states something of
its own) and Appendix B; then the misprints (claims/sympformer/misprints.py) and every setting of
App. B's training protocol (kind "protocol": claims._protocol's Tables 1-3, generated, and the
settings App. B prints that the protocols do not carry).

Not items: definitions and assumptions that state no result (the metrics of (5) as definitions,
'A symmetric', 'B symmetric positive definite', the weight-sharing remark), the outlook and the
related-work paragraphs. Restatements of a result in the section roadmap of §1 are not listed
again; the abstract's and the conclusion's claims are.

Training items: the paper trains GPT-2-BPE models on TinyStories; the ledger's proxy is the
byte-level Shakespeare studies of claims/sympformer/training.py (scale and deviations in each
experiment claim's evidence). Prose about the tables is checked against the printed numbers without training
(`consistency`, claims/sympformer/consistency.py).
"""
from claims._inventory import Item, protocol_items
from claims._misprints import inventory_items
from claims.sympformer.misprints import MISPRINTS


def _i(level, locator, kind, what, claims=(), reason=""):
    return Item("sympformer", locator, kind, what, tuple(claims), reason, level)


PROXY_LM = ("the paper trains GPT-2-BPE models on TinyStories (not available offline); the claim "
            "reproduces the comparison at proxy scale on the pinned Shakespeare corpus")
TABLE_1_PROXY = (PROXY_LM + " (study deep, 8 layers, width 64): all seven of Table 1's rows, each "
                 "comparison decided on the seeds its two arms share (the claim's evidence)")

ITEMS = (
    # Abstract
    _i("full", "Abstract", "prose",
       "for linear self-attention the attention blocks approximate a Stein variational gradient flow "
       "with a bilinear kernel of a potential energy", ("sympformer:eq-23", "sympformer:stein-kernel")),
    _i("full", "Abstract", "prose",
       "elliptically contoured distributions are preserved by the accelerated attention blocks",
       ("sympformer:prop-4.3", "sympformer:prop-4.3-mean-field")),
    _i("full", "Abstract", "prose",
       "the accelerated attention blocks converge faster than the classical ones while preserving the "
       "number of oracle calls", ("sympformer:abstract", "sympformer:oracle-calls-text"),
       "sympformer:abstract decides 'converge faster' on the attention energies of the particle systems "
       "at counted oracle calls; the oracle count is sympformer:oracle-calls-text"),
    # §1
    _i("full", "§1 (Introduction)", "prose",
       "Nesterov's method improves the rate of convex optimization from O(1/k) to O(1/k²)",
       ("sympformer:intro-rates",)),
    _i("full", "§1 (Introduction)", "prose",
       "in continuous time Nesterov's method is a second-order system related to heavy-ball or damped "
       "Hamiltonian dynamics", ("sympformer:eq-3-4",)),
    _i("proxy", "§1 (Introduction)", "prose",
       "the numerical comparison with [41] (YuriiFormer) shows the advantage in cross-entropy loss",
       ("sympformer:intro-advantage", "sympformer:table-1", "sympformer:table-2", "sympformer:table-3"),
       "intro-advantage holds the sentence against Tables 1-3; the table claims: " + PROXY_LM),
    # §2
    _i("full", "§2, eq. (2) and the sentence before it", "equation",
       "with t = k√τ and τ → 0 the Nesterov scheme (2) tends to the ODE (2)", ("sympformer:eq-2-limit",)),
    _i("full", "§2, the rates after eq. (2)", "equation",
       "F(x^{(k)}) − F* ≤ O(‖x₀ − x*‖/(τk²)) for (2) and O(‖x₀ − x*‖/t²) for its ODE",
       ("sympformer:eq-2-3-rate",)),
    _i("full", "§2, after eq. (2)", "prose",
       "this rate is optimal among methods using only gradients at consecutive iterates [24]",
       ("sympformer:rate-optimal",)),
    _i("full", "§2, eqs. (3)-(4)", "equation",
       "the ODE (2) is the first-order system (3), α_t = 3/t, which is the damped Hamiltonian flow (4) of "
       "H = ½‖p‖² + F", ("sympformer:eq-3-4",)),
    _i("full", "§2, the metric before eq. (5)", "equation",
       "⟨σ₁, σ₂⟩ = ∫σ₁G[σ₂] = ∫Φ₁G^{-1}[Φ₂] (symmetric) for the Wasserstein and Stein metrics of (5)",
       ("sympformer:eq-7-11",)),
    _i("full", "§2, eqs. (7)-(9)", "equation",
       "the accelerated flow (7) with the Hamiltonian (8) is the system (9)", ("sympformer:eq-7-11",)),
    _i("full", "§2, eqs. (10)-(11)", "equation",
       "(9) for the Wasserstein metric is (10) and for the Stein metric (11)", ("sympformer:eq-7-11",)),
    _i("full", "§2, §4.3 and §5.2: the empirical measure", "equation",
       "ρ_t is approximated by the empirical measure (1/N)Σ_{j=1}^N δ_{X_i(t)} (printed three times)",
       ("sympformer:empirical-measure",)),
    _i("full", "§2, before eq. (12)", "prose",
       "the particle discretization with Y_i = ∇Φ_t(X_i) is a finite-dimensional linearly damped "
       "Hamiltonian system (4)", ("sympformer:prop-4.5", "sympformer:rem-5.3")),
    _i("full", "§2, eqs. (12)-(13)", "equation",
       "with P = e^{η}p the damped system (4) is the undamped Hamiltonian system (12) of H̃",
       ("sympformer:eq-12-13",)),
    _i("full", "§2, η and σ_k ('Time discretizations')", "equation",
       "η(t) = μt and 3 ln(t/t₀) for α ≡ μ and 3/t; σ_k is available in closed form",
       ("sympformer:damping-schedules",)),
    _i("full", "§2, eq. (14): α_k", "equation",
       "(14)'s α_k = (k−1)/(k+2) (Nesterov-style) or constant", ("sympformer:damping-schedules",)),
    _i("full", "§2, eq. (14)", "equation",
       "the plain explicit Euler scheme (14) is not conformally symplectic", ("sympformer:eq-14",)),
    _i("full", "§2, eq. (15)", "equation",
       "the Lie–Trotter 'kick then damp' scheme (15) is the conformally symplectic Euler method",
       ("sympformer:eq-15", "sympformer:eq-15-nonseparable")),
    _i("full", "§2, text before eq. (16)", "equation",
       "for kinetic energy ½‖p‖² the dynamics (4) read ṗ + αp − ∇_xH(x, p) = 0", ("sympformer:eq-16-premise",)),
    _i("full", "§2, eq. (16) and the text after it", "equation",
       "exponential Euler (16) and its weights h/(r+1), (1 − e^{−mh})/m, a ₁F₁ form for r/s + m",
       ("sympformer:eq-16-leading-h", "sympformer:eq-16")),
    _i("full", "§2, paragraph before eq. (17)", "count",
       "first-order methods make one oracle call per step, multistep methods reach higher order at that "
       "budget, RK4 needs four", ("sympformer:oracle-calls-text",)),
    _i("full", "§2, text before eq. (17)", "prose",
       "order two is the best order achievable by an explicit two-step multistep method",
       ("sympformer:ab2-optimal-order",)),
    _i("full", "§2, eq. (17)", "equation",
       "the variable-step AB-2 scheme (17), started by an explicit Euler step, has order two",
       ("sympformer:eq-17-order",)),
    # §3
    _i("full", "§3, eqs. (18)-(21)", "equation",
       "the attention layer (19) with κ of (18), A = KᵀQ, is an explicit Euler step of the ODE (21)",
       ("sympformer:eq-18-21",)),
    _i("full", "§3, eq. (22)", "equation",
       "the mean-field limit of (21) is the continuity equation (22) with the velocity Γ_ρ",
       ("sympformer:eq-22-mean-field",)),
    # §4
    _i("full", "§4.1, eq. (23) and F^lin", "equation",
       "the linear transformer PDE (23) is −(G^lin)^{-1}[δF^lin/δρ], δF^lin/δρ = −½yᵀVy",
       ("sympformer:eq-23",)),
    _i("full", "§4.1, the sentence after (23)", "prose",
       "(23) is exactly the Stein variational gradient flow (5) with kernel k(x, y) = yᵀAx",
       ("sympformer:stein-kernel", "sympformer:eq-23")),
    _i("full", "Proposition 4.1, eq. (24); proof in Appendix A", "proposition",
       "the accelerated linear-attention flow (9) is (24)", ("sympformer:prop-4.1",)),
    _i("full", "§4.2, before Example 4.2", "prose",
       "elliptical distributions are invariant under affine pushforwards: E(Am + b, AΣAᵀ, g)",
       ("sympformer:affine-pushforward",)),
    _i("full", "Example 4.2", "example",
       "Gaussian and Student-t generators, κ_g = 1 and v/(v − 2); other families", ("sympformer:ex-4.2",)),
    _i("full", "§4.2, conditions ii)-iii) and the moments", "equation",
       "E(m, Σ, g) has mean m and covariance κ_gΣ; finite expectation and variance conditions",
       ("sympformer:elliptical-moments",)),
    _i("full", "Proposition 4.3, eqs. (25)-(26); proof in Appendix A", "proposition",
       "(24) preserves elliptical distributions, with moments and Φ_t = ½xᵀP_tx following (25)-(26)",
       ("sympformer:prop-4.3", "sympformer:prop-4.3-mean-field")),
    _i("full", "Corollary 4.4, eq. (27)", "corollary",
       "for zero mean, (25)-(26) reduce to (27)", ("sympformer:cor-4.4",)),
    _i("full", "Proposition 4.5, eq. (28)", "proposition",
       "the particle system of (24), in component and matrix form (28)",
       ("sympformer:prop-4.5", "sympformer:prop-4.3-mean-field")),
    _i("full", "Appendix A, proof of Proposition 4.5", "equation",
       "∂_t∇Φ_t as printed, and the ∇²Φ terms cancel along the particles", ("sympformer:prop-4.5-proof",)),
    _i("full", "Proposition 4.5, the explicit Euler form after (28)", "equation",
       "the explicit Euler discretization (14) of (28)", ("sympformer:prop-4.5-euler",)),
    # §5
    _i("full", "§5.1, eqs. (29)-(32)", "equation",
       "δF^SM/δρ (30), its gradient (31), and the softmax PDE as −(G^SM)^{-1}[δF^SM/δρ] (32)",
       ("sympformer:eq-29-32",)),
    _i("full", "§5.1, after (32)", "equation",
       "with B = VA^{-1} symmetric positive definite the softmax PDE is a Wasserstein-type gradient flow "
       "with mobility χ(ρ)", ("sympformer:mobility-chi",)),
    _i("full", "Proposition 5.1, eq. (33)", "proposition",
       "the accelerated softmax-attention flow (9) is (33)", ("sympformer:prop-5.1",)),
    _i("full", "Appendix A, proof of Proposition 5.1 (last display)", "equation",
       "the first variation of ∫Φ(G^SM)^{-1}[Φ]", ("sympformer:prop-5.1-proof",)),
    _i("full", "Proposition 5.2; proof in Appendix A", "proposition",
       "the particle system associated to (33)", ("sympformer:prop-5.2",)),
    _i("full", "Remark 5.3, eqs. (34)-(35)", "remark",
       "the matrix form (34), and (35) a Hamiltonian of its conservative part", ("sympformer:rem-5.3",)),
    _i("full", "Remark 5.3, after (35)", "remark",
       "the second summand of H^SM is a constant multiple of F^SM(ρ_N); H^SM is non-separable",
       ("sympformer:rem-5.3-text",)),
    _i("full", "§5.2, before Example 5.4", "prose",
       "the time discretizations of §2 applied to (34) ((15): conformally symplectic?)",
       ("sympformer:eq-15-on-34",)),
    _i("full", "Example 5.4, eq. (36)", "example",
       "the time-dependent Hamiltonian (36) of (34)", ("sympformer:ex-5.4",)),
    _i("full", "Example 5.5", "example",
       "explicit Euler (14) and exponential Euler (16) written out for (34)", ("sympformer:ex-5.5",)),
    # §6
    _i("none", "§6 (causal decoder) with §5.2 and Algorithm 1", "prose",
       "the accelerated softmax layer runs in a decoder-only causal transformer",
       ("sympformer:causal-hamiltonian", "sympformer:causal-34-structure"),
       "checked only by premise claims, which never cover an item: sympformer:causal-34-structure (the "
       "masked (34) stays Hamiltonian) and sympformer:causal-hamiltonian (the gradient of the global "
       "Hamiltonian (35) leaks later tokens under the mask); the sentence states an architecture, "
       "and what the causal decoder needs is what the paper does not state"),
    _i("full", "§6 (opening)", "prose",
       "score matrices averaged over heads before exponentiation (the theory models a single head)",
       ("sympformer:head-averaging",)),
    _i("proxy", "§6 (opening)", "prose",
       "the SympFormer outperforms the baseline and YuriiFormer, with lower validation loss at higher "
       "wall-time cost", ("sympformer:section-6-outperforms", "sympformer:table-1", "sympformer:wall-clock",
                          "sympformer:every-variant-outperforms"),
       "the loss at proxy scale (sympformer:table-1: " + PROXY_LM + "); the wall-time cost at Table 1's "
       "size (sympformer:wall-clock); section-6-outperforms holds the sentence against Tables 1-3, and "
       "every-variant-outperforms its invented every-variant reading (an extension, outside the tally)"),
    _i("full", "§6.1, 'Simplified time discretization'", "prose",
       "a simultaneous forward Euler update instead of (15) limits the evaluations of κ",
       ("sympformer:simultaneous-rationale",)),
    _i("full", "§6.1, the damping schedule", "prose",
       "the log-linear schedule r/t + m decreases over time with a damping floor m",
       ("sympformer:damping-schedules",)),
    _i("full", "§6.1 and Algorithm 1", "algorithm",
       "Algorithm 1 implements §6.1: α_ℓ = η̇(t_ℓ), per-layer step sizes and damping schedules",
       ("sympformer:algorithm-1", "sympformer:table-4")),
    _i("full", "Figure 1", "figure",
       "the accelerated attention and MLP blocks 'as described in Algorithm 1'", ("sympformer:figure-1",)),
    _i("none", "§6.2", "prose",
       "TinyStories contains the text of over 2000 short stories",
       reason="a fact about the TinyStories corpus, which is not available offline; the ledger's proxy "
              "corpus is the pinned Shakespeare text"),
    _i("proxy", "§6.2, Table 1 (losses)", "table",
       "validation losses of Baseline, YuriiFormer-LT and five SympFormer schemes (softmax)",
       ("sympformer:table-1",), TABLE_1_PROXY),
    _i("full", "§6.2, Table 1 (wall clock)", "table",
       "the SympFormer schemes cost more wall time than the baseline", ("sympformer:wall-clock",),
       "decided at Table 1's size (8 layers, width 64, block 512, batch 6 x 16) by the committed GPU "
       "measurement or the roofline cost model (claims._wallclock); the paper's times are for "
       "RTX 6000 Ada GPUs"),
    _i("proxy", "§6.2, Figure 2", "figure",
       "validation and training loss curves of the Table 1 runs", ("sympformer:table-1",),
       "the curves are not in the text extraction; the proxy runs behind sympformer:table-1 give the "
       "curves (figure training-curves): " + TABLE_1_PROXY),
    _i("proxy", "§6.2, Table 2", "table",
       "linear attention, smaller configuration: validation losses", ("sympformer:table-2",),
       PROXY_LM + "; decided at App. B's own Table 2 protocol at width 64 (study linear-appb, 0.22M "
       "against 3.42M parameters; all four rows; plain Euler's member of the some-scheme reading on "
       "its confirmatory sample linear-appb-confirm); the settings linear and linear-slr100 (lr 3e-3, "
       "block 64, batch 32) inform, never decide"),
    _i("proxy", "§6.2, Table 3", "table",
       "linear attention, larger configuration: validation losses", ("sympformer:table-3",),
       PROXY_LM + " (study deep-linear: all four rows; plain Euler's member of the some-scheme reading "
       "on its confirmatory sample deep-linear-confirm; at 10x App. B's peak learning rate, "
       "1/16 of its context and batch 32 against 72, recorded in the claim's deviations)"),
    _i("prose-only", "§6.2, Tables 2-3 (wall clock)", "table",
       "the linear SympFormers cost more wall time than the baseline and YuriiFormer",
       ("sympformer:section-6-outperforms",),
       "the printed times are held against the prose ('at higher wall-time costs'); the linear variants "
       "are not re-timed (sympformer:wall-clock times the softmax ones)"),
    _i("full", "Tables 1-3 with Appendix B", "table",
       "each row's best loss is at most its last; Table 3's configuration is larger than Table 2's",
       ("sympformer:tables-internal",)),
    # §7
    _i("full", "§7 (Conclusion)", "prose",
       "the outlined time discretizations respect the underlying damped Hamiltonian dynamics",
       ("sympformer:conclusion-structure",)),
    _i("proxy", "§7 (Conclusion)", "prose",
       "the SympFormer outperforms the vanilla transformer on small datasets with the same number of "
       "oracle calls", ("sympformer:conclusion-outperforms", "sympformer:oracle-calls-text",
                        "sympformer:abstract", "sympformer:table-1"),
       "'outperforms on small datasets' at proxy scale by sympformer:table-1 (whose quoted text is this "
       "sentence with §6's; " + PROXY_LM + ") and against Tables 1-3 by conclusion-outperforms; the "
       "oracle count by oracle-calls-text; sympformer:abstract on the particle systems' energies"),
    # Appendix B
    _i("full", "Appendix B, general settings and the per-table settings", "prose",
       "minimum learning rate: 0.1×peak in the general text, 0.4 in each experiment",
       ("sympformer:appendix-b-min-lr",)),
    _i("full", "Appendix B, general settings and Tables 2-3", "prose",
       "scalar learning rate: a 5x boost in the general text, 100x for Tables 2 and 3",
       ("sympformer:appendix-b-scalar-lr",)),
    _i("none", "Appendix B", "prose",
       "unlike [41], the experiments use AdamW only, not a mixed AdamW–Muon optimizer",
       reason="a statement about the optimizer of [41] (seed 004); nothing of this paper to compute (the "
              "toolkit's SympFormer studies train with AdamW as App. B says)"),
    _i("full", "Appendix B, Table 4 (with Algorithm 1)", "table",
       "the prefactors (ζ₁, ζ₂) of the first-order schemes in Algorithm 1's momentum update",
       ("sympformer:table-4",)),
) + inventory_items("sympformer", MISPRINTS)

# ------------------------------------------------------------------ App. B's protocol (kind "protocol")
# The experiment claims that use each protocol of claims._protocol (protocol="<tables>") and the
# study their verdict is decided on.
PROTOCOL_RUNS = {
    "sympformer Table 1": (("sympformer:table-1", "deep"),),
    "sympformer Table 2": (("sympformer:table-2", "linear-appb"),),
    "sympformer Table 3": (("sympformer:table-3", "deep-linear"),),
}
RUNS = ("sympformer:table-1", "sympformer:table-2", "sympformer:table-3")
_CODE = "fixed in code (particles/lm), the same in every study"


def _p(level, locator, what, claims=RUNS, reason=""):
    return _i(level, locator, "protocol", what, claims, reason)


ITEMS += protocol_items("sympformer", PROTOCOL_RUNS, notes={
    ("sympformer Table 2", "h0"): "App. B prints h_0 = 0.25 for the first-order and 0.01 for the "
                                  "second-order schemes: each variant's initial step in "
                                  "particles/lm/variants.py"}) + (
    _p("full", "Appendix B (general)", "MLP: GELU, 4x expansion, zero dropout, no bias terms",
       reason="our model (particles/lm/model.py, blocks.py); " + _CODE),
    _p("full", "Appendix B (general)", "global gradient-norm clip at 1.0",
       reason="grad_clip = 1.0 in every study's run configuration"),
    _p("none", "Appendix B (general)", "the learned scalars are excluded from gradient clipping", (),
       "ours clips the global norm over every parameter, the scalars included (particles/lm/train.py: "
       "clip_grad_norm_ over model.parameters()); no deviation list records the difference "
       "(claims._protocol carries no such setting)"),
    _p("full", "Appendix B (general)", "the learned scalars form a separate optimizer parameter group "
       "and are constrained by a softplus or sigmoid parametrization",
       reason="particles.lm.train.param_groups ('scalar') and blocks.Scalar; " + _CODE),
    _p("full", "Appendix B (general)", "cosine learning-rate schedule with linear warm-up",
       reason="particles.lm.train.lr_factor; " + _CODE),
    _p("proxy", "Appendix B (Tables 1-3)", "evaluation batches of size 20",
       reason="ours evaluates the final model on the whole validation split (the 'evaluation' deviation "
              "every claim records), so an evaluation batch size has no counterpart; the printed 20 "
              "itself is in no deviation list"),
    _p("partial", "Appendix B (Tables 1-3)", "micro-batch 6 with 16 (Table 1) or 12 (Tables 2-3) "
       "gradient-accumulation steps", ("sympformer:wall-clock",),
       "the effective batch (96, 72) is the protocol's batch item; the split is recorded only by "
       "sympformer:wall-clock's paper-size timing setting (Table 1: micro-batch 6, 16 accumulation "
       "steps, the paper's); missing: the training runs take their whole batch in one micro-batch, "
       "which no deviation list records (accumulation changes only the summation order)"),
    _p("full", "Appendix B (Table 3)", "a look-ahead step for the presymplectic discretizations",
       ("sympformer:table-3",), "the arm symp-linear-presymp-euler-lookahead of study deep-linear (its "
                                "weight, which App. B does not give, is the open-choice item)"),
    _p("none", "Appendix B (Table 3)", "h_0 = 0.01 for the second-order methods", (),
       "Table 3 prints no second-order scheme (its SympFormer rows, plain Euler and Presymp Euler, are "
       "first order): no run uses the value"),
)

"""The checkable items of seed 001_d3cec3f2b99ca2ba.txt (`sp_transformer`: Brantner, de Romemont,
Kraus, Li, structure-preserving transformers), section by section in the paper's order.

Listed: theorems, remarks and footnotes with mathematical content, equations that state a property,
prose claims of a result, the figures and tables that report one or that the prose is held
against, the misprints inside quoted passages (kind "misprint": symbols, indices and the
figure/equation cross-references of §5, `claims/sp_transformer/misprints.py`), and (kind
"protocol", at the end) every setting of §5's training setup: Table 1's system
parameters, eq. (27), the integrator of Figure 5, Table 2's network and Table 3's optimizer
settings, each against the configuration our committed runs record (`particles.sp_train`,
results/sp_transformer/). Not listed: definitions (Definitions 1-2, eq. (25), (26), (27), (29)-(30) as
definitions), schematic figures (Figures 1-4, 6), statements about other work (GPT-2's context length, the abstract's "for
the first time", §4's "It treats symplecticity the same way it is defined for a multistep method
(see [11])", an attribution to Feng's step-transition operators that the paper does not state
precisely enough to check).
"""
from claims._inventory import Item
from claims._misprints import inventory_items
from claims.sp_transformer.misprints import MISPRINTS


def _i(level, locator, kind, what, claims=(), reason=""):
    return Item("sp_transformer", locator, kind, what, tuple(f"sp_transformer:{c}" for c in claims), reason, level)


ITEMS = (
    # ------------------------------------------------------------------ Abstract
    _i("full", "Abstract", "prose",
       "a transformer-inspired network imbued with structure-preserving properties learns a non-linear "
       "dynamical system with improved long-term stability ('shown to be extremely important' in applications)",
       ("fig-7ab", "fig-7cd"),
       "the paper's only evidence is the oscillator of §5 (no real-world application is run): checked there"),
    # ------------------------------------------------------------------ §1 Hamiltonian systems
    _i("full", "§1, footnote 5", "remark",
       "any skew non-degenerate matrix defines a symplectic structure that a global linear change of "
       "coordinates makes canonical (J)", ("footnote-5",)),
    _i("full", "eq. (1)-(3), §1", "equation",
       "V_H = J∇H (eq. (2), with J of eq. (1)) written out is q̇ = ∂H/∂p, ṗ = −∂H/∂q (eq. (3))", ("eq-1-3",)),
    _i("full", "Example 1 and its Remark, §1", "example",
       "the harmonic oscillator H = p²/2m + kq²/2 has q̇ = p/m, ṗ = −kq and is separable", ("eq-1-3",)),
    _i("full", "Theorem 1", "theorem",
       "the exact flow of a Hamiltonian system is symplectic for each fixed t", ("thm-1",)),
    _i("full", "§1.1, the form ω", "equation",
       "ω(W, V) = WᵀJV = Σ(W^qV^p − V^qW^p) = Σ det of the projections on the (q_i, p_i) planes "
       "(a sum of oriented areas)", ("omega-areas",)),
    _i("full", "§1.1, text before Figure 1", "equation",
       "a linear map A is symplectic iff ω(AW, AV) = ω(W, V) for all W, V", ("omega-areas",)),
    _i("full", "§1.1, the argument before Theorem 2 and footnote 6", "prose",
       "symplectic linear maps preserve the volume spanned by vectors U_i: the determinant reduces by "
       "Laplace expansion to terms like ω(W, V)", ("thm-2-sketch", "thm-2")),
    _i("full", "Theorem 2", "theorem",
       "symplectic maps preserve phase-space volume, vol(φ(U)) = vol(U)", ("thm-2",)),
    _i("full", "Theorem 2, footnote 7 and the text after it", "remark",
       "volume preservation does not imply symplecticity", ("thm-2-converse",)),
    _i("full", "§1.2, second paragraph", "prose",
       "symplectic integrators achieve long-term stability, higher accuracy and near conservation of energy",
       ("symplectic-integrators",)),
    _i("full", "eq. (4), §1.2", "equation",
       "the implicit midpoint rule is symplectic (its printed argument (y_{n+1} + y_n)/2 read as z)", ("eq-4",)),
    # ------------------------------------------------------------------ §2 Transformers
    _i("full", "§2, eq. (5)-(6)", "equation",
       "attention outputs convex combinations of its inputs: the column-wise softmax gives probability "
       "vectors (printed: 'd' of them in [0, 1]^d), and the coefficient map (5) is nonlinear", ("eq-6-convex",)),
    # ------------------------------------------------------------------ §3 SympNets
    _i("full", "eq. (15), §3", "equation",
       "gradient layers (either update, any K, a, b, σ) and their compositions are symplectic", ("eq-15-16",)),
    _i("full", "§3, text after eq. (15)", "equation",
       "the layer increment Kᵀdiag(a)σ(Kp + b) is the gradient of aᵀσ̃(Kp + b), σ̃ an antiderivative of σ",
       ("eq-15-gradient",)),
    _i("full", "eq. (16), §3", "equation",
       "[[I, H], [O, I]] J [[I, O], [H, I]] = [[−H, I], [−I, O]] [[I, O], [H, I]] = J", ("eq-15-16",)),
    _i("partial", "Theorem 3 and the text before it, §3", "theorem",
       "G-SympNets are r-uniformly dense on compacta in the C^r symplectic maps (universal approximation)",
       ("thm-3",),
       "a density theorem: checked constructively (r = 1) on one target, the time-0.4 flow of eq. (26) at "
       "k = 3.5 on [−1, 1]⁴, with the C¹ distance falling at every refinement; missing: the theorem's "
       "class (every C^r symplectic map, r > 1, non-separable targets are not constructed)"),
    # ------------------------------------------------------------------ §4 Structure-preserving attention
    _i("full", "eq. (17) and footnotes 14-15, §4", "equation",
       "J̃ is a skew-symmetric, bilinear, non-degenerate form on the product space (footnote 15's proof)",
       ("eq-17-form",)),
    _i("full", "eq. (18), (23) and footnote 17, §4", "equation",
       "under Z ↦ Z_vec (eq. (18)) the form J̃ of eq. (17) is Z¹_vecᵀ J_{2dT} Z²_vec", ("eq-17-18",)),
    _i("full", "§4, first paragraph after eq. (18)", "prose",
       "softmax attention cannot preserve symplecticity", ("softmax-not-symplectic",)),
    _i("full", "eq. (19)-(20) and footnote 16, §4", "equation",
       "the Cayley transform of eq. (20), ½(I − Y)(I + Y)⁻¹, maps skew-symmetric matrices to orthonormal "
       "ones (and Φ maps arbitrary matrices to skew ones)", ("eq-19-20",)),
    _i("full", "eq. (21)-(22), §4", "equation",
       "in the coordinates Z_vec of eq. (18), Z ↦ ZΛ(Z) is multiplication by Λ̃(Z) = blockdiag(Λ(Z), …) "
       "from the left", ("eq-22",)),
    _i("full", "eq. (22)-(24), §4", "equation",
       "Λ̃(Z) is symplectic because Λ(Z) is orthonormal (eq. (24))", ("eq-22-24",)),
    _i("full", "§4, text after eq. (25)", "prose",
       "an add connection around the attention would destroy its structure (why fig. 4 removes it)",
       ("add-connection",)),
    _i("full", "end of §4", "prose", "'Λ(Z) is a symplectic matrix'", ("lambda-symplectic-matrix",)),
    _i("full", "end of §4", "prose",
       "eq. (21) is not symplectic: its Jacobian has extra terms from the Z-dependence of Λ",
       ("eq-21-not-symplectic", "sp-transformer-structure")),
    _i("full", "end of §4", "prose",
       "the adapted transformer preserves phase-space volume",
       ("eq-21-volume", "sp-transformer-structure")),
    # ------------------------------------------------------------------ §5 Experiments
    _i("full", "Figure 5, §5", "figure",
       "the q1 orbits of eq. (26) for seven k (implicit midpoint, h = 0.4, [0, 100]) change dramatically "
       "with k", ("fig-5",)),
    _i("full", "§5, text after Table 1 and below Figure 7", "prose",
       "the test value k = 3.5 is one of the 40 equally spaced training values of k in [0, 4]",
       ("k-3.5-training-set",)),
    _i("full", "eq. (28) and §5, text after it", "equation",
       "the networks map sl input vectors to pl predictions; the ResNet and SympNet (sl = pl = 1) see one "
       "vector; the transformers get 5 (Table 2)", ("eq-28-sequence-length",)),
    _i("full", "§5, text after eq. (28)", "prose",
       "a transformer layer has the same input as output size; the ResNet and the SympNet cannot resolve "
       "time series (one vector at a time)", ("time-series",)),
    _i("full", "eq. (29)-(31), §5", "equation",
       "the PSD-like up-scaling diag(Φ, Φ), Φ ∈ St(d, N), is symplectic in the sense of eq. (31)",
       ("eq-29-31",)),
    _i("full", "§5, text after eq. (31)", "prose",
       "the down-scaling is 'the same, just with a transpose', a linear layer R^{2N} → R^{2d}",
       ("psd-downscaling",)),
    _i("full", "Table 2 and §5, text around it", "table",
       "Table 2's upscale dimension 20 ('the dimension in which the transformer operates') against the "
       "text's 'twice the upscale dimension (i.e. M = 2N = 40)'", ("table-2-dimensions",)),
    _i("full", "Figure 7(a,b), §5", "figure",
       "ResNet and SympNet both fit the k = 3.5 trajectory on [0, 10]; by t ≈ 18 the ResNet blows up while "
       "the SympNet stays bounded", ("fig-7ab",)),
    _i("full", "Figure 7 captions and §5, text below Figure 7", "figure",
       "the text's horizons t = 10 and t = 18 ('the first ten time steps', 'time step 18') are the "
       "captions' [0, 10] and [0, 18]", ("fig-7-horizons",)),
    _i("full", "§5, text below Figure 7; eq. (27); Table 2", "prose",
       "the networks get 'a sequence of 5 time steps (equivalent to t = 2.0 as the time step was chosen as "
       "0.4)' and predict 'after this point (i.e. t = 2.0)': consistent with the grid from eq. (27) and "
       "Table 2's sl = 5", ("warm-up-timing",)),
    _i("full", "§5, text below Figure 7", "prose",
       "the ResNet and the SympNet yield similar trajectories regardless of the k used to simulate the first "
       "five data points", ("fig-7ab-similar-trajectories",),
       "decided on the trained n40 ResNet and SympNet (5 seeds) rolled out from the warm-ups of the 40 "
       "training k to t = 18 (particles.sp_train's k_rollouts): the rollouts follow their own k (on (2, 10] "
       "nearer their own k's reference than the median of the others in 35-40 of 40 cases in every seed; a "
       "k-blind flow from the same states: 20 of 40); the structure (k only through the last warm-up state) "
       "holds for any weights"),
    _i("full", "Figure 7(c,d), §5", "figure",
       "both transformers fit the k = 3.5 trajectory to t ≈ 20, the structure-preserving one better; over "
       "[0, 600] the standard transformer loses energy while the structure-preserving one keeps its level",
       ("fig-7cd",)),
    _i("full", "§5, text below Figure 7", "prose",
       "the transformers fit the data much better than the one-step networks (fig. 7(c) against 7(a, b))",
       ("fig-7-transformers-fit-better",)),
    # ------------------------------------------------------------------ §6 Conclusion
    _i("full", "§6, Conclusion", "prose",
       "superior long-term behaviour of the structure-preserving transformer against the classical one",
       ("fig-7cd",)),
    _i("full", "§6, Conclusion", "prose",
       "the structure-preserving transformer can resolve time-series data", ("time-series",)),
) + inventory_items("sp_transformer", MISPRINTS)

# ------------------------------------------------------------------ §5's training setup (kind "protocol")
# Each setting §5 prints, against the configuration of our committed runs (particles.sp_train: the
# result JSONs record `table2`, `table3` and the data grid; the budget `n40` decides). No
# claims._protocol.PROTOCOLS entry: the oscillator runs are at the paper's own size.
RUNS = ("fig-7ab", "fig-7cd", "fig-7-transformers-fit-better")
TRANSFORMERS = ("fig-7cd", "fig-7-transformers-fit-better")
_TABLE_1 = "the data of every run: theory.hamiltonian.TABLE_1 (the result's config records the data grid)"
_TABLE_3 = "recorded in every committed result's config (`table3`), equal to Table 3"


def _p(level, locator, what, claims=RUNS, reason=""):
    return _i(level, locator, "protocol", what, claims, reason)


ITEMS += (
    *(_p("full", "§5, Table 1", f"system parameter {name} = {value} (eq. (26))", reason=_TABLE_1)
      for name, value in (("m₁", "2.0"), ("m₂", "1.0"), ("k₁", "1.5"), ("k₂", "0.3"))),
    _p("full", "§5, Table 1 and the text after it", "training set: k at 40 equally spaced values in [0, 4]",
       reason="the config's data grid: numpy.linspace(0, 4, 40) (whether 3.5 is one of them: "
              "sp_transformer:k-3.5-training-set)"),
    _p("full", "eq. (27)", "initial condition q(t₀) = (1, 0), p(t₀) = (2, 0)",
       reason="theory.hamiltonian.Z0, the start of every training trajectory"),
    _p("full", "Figure 5 caption; §5", "trajectories by implicit midpoint with step 0.4 on [0, 100]",
       reason="the config's data: h = 0.4, t_end = 100, Newton tolerance 1e-13"),
    _p("partial", "Table 2 and §5, text around it", "upscale dimension = 20",
       reason="read as N = 20 (2N = 40, the one reading under which the paper agrees with itself: "
              "sp_transformer:table-2-dimensions); the deciding budget n40 records upscale 40 and is "
              "committed for all four networks, five seeds each; the runs at 2N = 20 are a "
              "sensitivity row recorded in `departures_from_paper`"),
    _p("full", "§5, text after eq. (31)", "gradient-layer width M = 2N = 40 (SympNet and the SympNet "
       "layers of the structure-preserving transformer)", reason="`table2.width` = 40 in every committed run"),
    _p("full", "Table 2", "transformer layers L = 2", TRANSFORMERS, "`table2.n_layers` = 2"),
    _p("full", "Table 2 and footnote 18", "attention heads n_heads = 4 (the standard transformer only)",
       TRANSFORMERS, "`table2.n_heads` = 4"),
    _p("full", "Table 2; §5, text after eq. (28)", "sequence length sl = 5 for the transformers, "
       "sl = pl = 1 for the ResNet and the SympNet", reason="`table2.seq_len` = 5; the one-step networks "
       "see one state (particles.oscillator)"),
    _p("full", "Table 2; eq. (28)", "prediction length pl = 1",
       reason="fixed in code (particles.oscillator: the next state), not a config field"),
    *(_p("full", "Table 3", what, reason=_TABLE_3) for what in (
        "Adam learning rate η = 1e-3", "Adam first moment ρ₁ = 0.9", "Adam second moment ρ₂ = 0.99",
        "Adam stabilisation δ = 1e-8", "epochs n_epochs = 2000", "batch size = 512")),
    _p("full", "§5, text after Table 2", "optimizer: Adam [22] with Table 3's values",
       reason="torch.optim.Adam on the Euclidean weights (particles.sp_networks.optimizers)"),
    _p("partial", "§5, text after Table 3", "the PSD layers (Stiefel weights) are trained with the "
       "manifold version of Adam of [4]",
       reason="ours: StiefelAdam (particles/sp_networks.py: Riemannian gradient in the embedded metric, "
              "Cayley retraction, first moment transported by projection) with Table 3's values; "
              "missing: that it is [4]'s algorithm (the paper does not spell it out) and a departure "
              "entry that records the difference if it is not"),
)

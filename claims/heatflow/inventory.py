"""The checkable items of seed 003_7e01566b1ff8f023.txt (`heatflow`), slide by slide in the talk's
order. The seed is a set of slides: the figures are images the extraction does not contain, so a
figure is covered where the ledger recomputes the setting it shows (the reason says so). The
slides on prior work ([VBC20], [GLPR24], [CAP24]) report other papers' results and are not items.
"""
from claims._inventory import Item
from claims._misprints import inventory_items
from claims.heatflow.misprints import MISPRINTS


def _i(level, locator, kind, what, claims=(), reason=""):
    return Item("heatflow", locator, kind, what, tuple(claims), reason, level)


ITEMS = (
    _i("full", "slide 'Previous Work on Understanding Self-Attention'", "prose",
       "we derive the mean-field limit of Sinkformers (the N-particle update converges to the measure "
       "update as N → ∞)", ("heatflow:mean-field-limit",)),
    _i("full", "slides 'Sinkformer Self-Attention Mechanism', 'Temperature Parameter', 'Let's dive deeper...', "
       "'Entropic Regularization'", "equation",
       "alternating row/column normalization of exp(C/ε) converges to a doubly stochastic K^∞, which is "
       "N·π_{ρ,ε} for the slides' |x−y|² entropic problem at the same ε",
       ("heatflow:sinkhorn-sb",)),
    _i("full", "slide 'Finite particles' (figure, t = 0, …, 5)", "figure",
       "the position of each particle is influenced by the overall distribution",
       ("heatflow:finite-particles",),
       "the figure is an image; the prose's assertion (every new position depends on every particle) "
       "is checked on the update"),
    _i("full", "slide 'Infinite particles'", "equation",
       "the measure form ρ^{k+1} = (T_ρ)#ρ with the continuous Sinkhorn iteration is the Sinkformer update "
       "of a particle cloud's empirical measure (and its N → ∞ limit)",
       ("heatflow:empirical-measure", "heatflow:mean-field-limit"),
       "exact at every N on the empirical measure; the N → ∞ limit is heatflow:mean-field-limit"),
    _i("full", "slide 'Let's dive deeper...'; slide 'Self-attention update via same marginal Schrödinger "
       "bridges'", "equation",
       "with W_KᵀW_Q = W_QᵀW_K = −W_V = I the Sinkformer update is ρ^{k+1} = (2I − ∫k^∞_ε(x,·)dρ(x))#ρ = "
       "(2I − B_{ρ,ε})#ρ = (Id − ε(B − Id)/ε)#ρ",
       ("heatflow:sinkformer-update",)),
    _i("full", "slide 'Claim'", "equation",
       "the Sinkformer flow ρ_ε(t) = ρ_ε^k on [kε, (k+1)ε) converges uniformly on [0, T] to the heat "
       "flow ∂ₜρ = Δρ", ("heatflow:claim-heat-flow",)),
    _i("full", "slide 'Notation' (Transport Map)", "equation",
       "T#μ = ν if and only if (Id, T)#μ ∈ Π(μ, ν)", ("heatflow:pushforward-coupling",)),
    _i("full", "slide 'Optimal Transport'", "theorem",
       "Brenier: the W2-optimal coupling is (Id, T)#μ with T the unique gradient of a convex function",
       ("heatflow:brenier",)),
    _i("full", "slide 'Sinkhorn Algorithm'", "prose",
       "Sinkhorn computes Schrödinger bridges in near-linear time via alternating projections",
       ("heatflow:near-linear-time", "heatflow:sinkhorn-sb"),
       "the time against N by heatflow:near-linear-time; that Sinkhorn's fixed point is the bridge "
       "by heatflow:sinkhorn-sb"),
    _i("full", "slide 'Schrödinger Bridge between two N(0,1) random variables with ε = 0.01' (figure)", "figure",
       "the Gaussian same-marginal bridge at ε = 0.01 and the deviation of its barycentric projection "
       "from the identity", ("heatflow:bp-expansion",),
       "the figure is an image; the bridge and B(x) − x at ε = 0.01 are computed in closed form"),
    _i("full", "Result 1 [AHMP24, Theorem 1]", "theorem",
       "for the Langevin SDE of ρ = e^{−g}, H(𝒞|π) + H(π|𝒞) ≤ Cε²(I(ρ) + ∫₀¹I(ρ_t^ε)dt)^{1/2}",
       ("heatflow:result-1",)),
    _i("full", "Result 1, remark after the bound", "remark",
       "in particular, the right-hand side is o(ε²)", ("heatflow:result-1-rhs",)),
    _i("full", "slide 'Heat Flow: Particle Approach'", "equation",
       "X₀ ~ ρ₀ and ẋₜ = −½∇log ρ(t) give (xₜ)#ρ₀ = ρ(t) for the heat flow ∂ₜρ = Δρ",
       ("heatflow:particle-ode",)),
    _i("full", "slide 'Heat Flow: Particle Approach' (figures 'Flow of Measures', 'Particle Trajectories')",
       "figure", "the particle trajectories ẋₜ = −½∇log ρₜ(x) carry ρ₀ along the heat flow",
       ("heatflow:particle-ode",),
       "the figures are images; the trajectories are integrated from the quantiles of the slides' "
       "mixture (the heatflow-mixture figure draws them)"),
    _i("full", "slide 'Result 2: One Step Approximation' (first)", "equation",
       "B_{ρ,ε}(x) ≈ E_ℓ[Y|X=x] ≈ x − (ε/2)∇g(x) = x + (ε/2)∇log ρ(x), matching the explicit Euler step "
       "of the particle picture", ("heatflow:bp-expansion",)),
    _i("full", "slide 'Result 2: One Step Approximation' (takeaway)", "prose",
       "the score function is accessible via entropic OT objects, which can be estimated from samples",
       ("heatflow:score-from-samples", "heatflow:bp-expansion")),
    _i("full", "Result 2 [AHMP24, Theorem 2]", "theorem",
       "lim_{ε↓0} W2(SB¹_ε(ρ), S¹_ε(ρ))/ε = 0", ("heatflow:result-2",)),
    _i("full", "Result 3 [AHMP24, Theorem 3]", "theorem",
       "the explicit Euler scheme S^k_ε converges uniformly to the heat equation: "
       "lim sup_{k ≤ N_ε} W2(S^k_ε(ρ₀), ρ(kε)) = 0", ("heatflow:result-3",)),
    _i("full", "Result 3, corollary", "corollary",
       "the SB scheme SB^k_ε converges uniformly to the heat equation", ("heatflow:result-3",)),
    _i("full", "slides 'Simulations: Mixture of Gaussians' (two figures)", "figure",
       "the SB scheme on ρ₀ = ½N(−2,1) + ½N(2,1) at ε = 0.01 follows the heat flow",
       ("heatflow:result-3",),
       "the figures are images; the same setting (ρ₀, ε = 0.01, N = 100-1600 particles at the full "
       "budget, the continuum scheme on a grid) is rerun in heatflow:result-3 and drawn in the "
       "heatflow-mixture figure"),
) + inventory_items("heatflow", MISPRINTS)

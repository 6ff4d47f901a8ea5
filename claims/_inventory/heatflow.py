"""The checkable items of seed 003_7e01566b1ff8f023.txt (`heatflow`), in the paper's order."""
from . import Item


def _i(locator, kind, what, claims=(), reason=""):
    return Item("heatflow", locator, kind, what, tuple(claims), reason)


ITEMS = (
    _i("slide 'Heat Flow: Particle Approach'", 'equation',
       'X₀ ~ ρ₀ and ẋₜ = −½∇log ρ(t)(xₜ), with ρ the heat flow ∂ₜρ = Δρ, give (xₜ)#ρ₀ = ρ(t)',
       ('heatflow:particle-ode',)),
    _i('Result 1 [AHMP24, Theorem 1]', 'equation',
       'for ρ = e^{−g} Gaussian, H(𝒞_{ρ,ε}|π_{ρ,ε}) + H(π_{ρ,ε}|𝒞_{ρ,ε}) = O(ε²), 𝒞 the law of (X₀, X_ε) for dX = ½...',
       ('heatflow:result-1',)),
    _i('Result 2 [AHMP24, Theorem 2]', 'equation',
       "lim_{ε↓0} W2(SB¹_ε(ρ), S¹_ε(ρ))/ε = 0, SB¹ = (2Id − B_{ρ,ε})#ρ with the SB of the slides' entropic problem,...",
       ('heatflow:result-2',)),
    _i("Result 3 [AHMP24, Theorem 3] and slide 'Claim'", 'equation',
       'sup_{k ≤ T/ε} W2(SB^k_ε(ρ₀), ρ(kε)) → 0 (and for S^k_ε) with ρ the heat flow ∂ₜρ = Δρ, for ρ₀ = ½N(−2,1) + ...',
       ('heatflow:result-3',)),
    _i("slide 'Let's dive deeper...'", 'equation',
       'with W_KᵀW_Q = W_QᵀW_K = −W_V = I the Sinkformer update x ↦ Σ_j K^∞_ij W_V x_j is ρ^{k+1} = (2I − ∫k^∞_ε(x,...',
       ('heatflow:sinkformer-update',)),
    _i("slides 'Sinkformer Self-Attention Mechanism', 'Entropic Regularization'", 'equation',
       'alternating row/column normalization of exp(x_iᵀx_j/ε) converges to a doubly stochastic K^∞ = N·π_{ρ,ε}, th...',
       ('heatflow:sinkhorn-sb',)),
)

"""Seed 003's misprints inside quoted passages (issue 38): symbols and labels the slides print at
one place for the object they name otherwise at another (`claims._misprints`). Found by two
independent referee passes (26-27 Nov 2026), both confirming each entry."""
from __future__ import annotations

from claims._misprints import Misprint, register_misprints

BOTH = "confirmed by both independent referees (issue 38): "

MISPRINTS = (
    Misprint("misprint-result-3-labels", "slide 'Result 3: Uniform Convergence' (first)",
             "the Result-3 slide labels the SB recursion 'Explicit Euler Update' and the explicit-Euler "
             "recursion 'SB Update' (swapped)",
             printed_passage="Explicit Euler Update\n$$SB_{\\varepsilon}^{k+1}(\\rho) = SB_{\\varepsilon}^{1}(SB_{\\varepsilon}^{k}(\\rho))$$",
             printed="Explicit Euler Update\n$$SB_",
             intended_at="slide 'Result 2: One Step Approximation'",
             intended_passage="Explicit Euler Update\n\n$$S^1_{\\varepsilon}(\\rho) = \\left(\\operatorname{Id} - "
                              "\\frac{\\varepsilon}{2} \\nabla \\log \\rho\\right)_{\\#} \\rho$$",
             intended="Explicit Euler Update\n\n$$S^1",
             should_read="Explicit Euler Update S^{k+1}_ε(ρ) = S^1_ε(S^k_ε(ρ)); SB Update "
                         "SB^{k+1}_ε(ρ) = SB^1_ε(SB^k_ε(ρ)) (the two labels swapped back)",
             referee=BOTH + "Result 2 defines S^1 as the explicit Euler update and SB^1 as the SB "
                            "update, and Theorem 3 below states the Euler result for S^k, its "
                            "corollary for SB^k"),
    Misprint("misprint-result-3-index-set", "slide 'Result 3: Uniform Convergence' (first)",
             "the index set of Result 3 is printed [N_c], undefined; the slide defines N_ε",
             printed_passage="Let $N_{\\varepsilon} = \\lfloor N\\varepsilon^{-1} \\rfloor$, then for any $k \\in [N_c]$",
             printed="[N_c]",
             intended_at="slide 'Result 3: Uniform Convergence', Theorem 3",
             intended_passage="\\sup_{k \\in [N_{\\varepsilon}]} W_2 \\left(S_{\\varepsilon}^k(\\rho_0), \\rho(k\\varepsilon) \\right)",
             intended="[N_{\\varepsilon}]", should_read="for any k ∈ [N_ε]",
             referee=BOTH + "N_c is never defined; the sentence defines N_ε and Theorem 3 takes the "
                            "supremum over k ∈ [N_ε]"),
    Misprint("misprint-infinite-particles-cost", "slide 'Infinite particles' (Sinkhorn initialisation)",
             "the mean-field cost is printed with W_O, a matrix the slides never define; the "
             "finite-particle cost uses the query matrix W_Q",
             printed_passage="Initialize $k^0 = \\exp(c)$ where $c(x,y) = (W_O x)^{\\mathsf{T}} (W_K y)$.",
             printed="W_O x", intended_at="slide 'Transformer Self-Attention Mechanism'",
             intended_passage="$C_{i,j} = (W_Q x_i)^ op (W_K x_j)$ Query matrix",
             intended="(W_Q x_i)", should_read="c(x,y) = (W_Q x)ᵀ(W_K y)",
             referee=BOTH + "W_O appears nowhere else; the finite-particle score C_ij = (W_Q x_i)ᵀ(W_K x_j) "
                            "is the cost whose mean-field form this is"),
    Misprint("misprint-infinite-particles-parity", "slide 'Infinite particles' (Sinkhorn update)",
             "the parity condition of the Sinkhorn update is printed on ℓ', undefined; the iteration "
             "index is ℓ",
             printed_passage="& \\text{if } \\ell' \\text{ is even,} \\\\",
             printed="\\ell'", intended_at="slide 'Sinkformer Self-Attention Mechanism'",
             intended_passage="N_R(K^\\ell) & \\text{if } \\ell \\text{ is even,}",
             intended="\\text{if } \\ell \\text{ is even", should_read="k^{ℓ+1} = … if ℓ is even, … if ℓ is odd",
             referee=BOTH + "the update maps k^ℓ to k^{ℓ+1}; ℓ' is not defined; the finite-particle "
                            "slide states the same alternation on ℓ"),
    Misprint("misprint-sinkformer-sum-range", "slide 'Sinkformer [SABP22] Self-Attention Mechanism'",
             "the Sinkformer update sums to m, undefined; the number of tokens is n",
             printed_passage="$$x_i \\leftarrow \\sum_{j=1}^m K_{i,j}^\\infty W_V x_j$$",
             printed="\\sum_{j=1}^m", intended_at="slide 'Sinkformer Self-Attention Mechanism'",
             intended_passage="$$x_i \\leftarrow \\sum_{j=1}^n K_{i,j}^{\\infty} W_V x_j$$",
             intended="\\sum_{j=1}^n", should_read="x_i ← Σ_{j=1}^n K^∞_{i,j} W_V x_j",
             referee=BOTH + "m is never defined; the next slide prints the same update with Σ_{j=1}^n"),
    Misprint("misprint-result-2-coupling", "slide 'Result 2: One Step Approximation' (first)",
             "the approximating coupling is printed ℓ_{ρ,ε}, undefined; Result 1 names it 𝒞_{ρ,ε}",
             printed_passage="Based on intuition from Result 1, $\\pi_{\\rho,\\varepsilon} \\approx \\ell_{\\rho,\\varepsilon}$,",
             printed="\\ell_{\\rho,\\varepsilon}", intended_at="slide 'Result 1'",
             intended_passage="Let $\\mathscr{C}_{\\rho,\\varepsilon} = \\operatorname{Law}(X_0,X_\\varepsilon)$, then",
             intended="\\mathscr{C}_{\\rho,\\varepsilon}",
             should_read="π_{ρ,ε} ≈ 𝒞_{ρ,ε}, B_{ρ,ε}(x) ≈ E_{𝒞_{ρ,ε}}[Y | X = x]",
             referee=BOTH + "'based on intuition from Result 1' refers to Result 1's Langevin coupling "
                            "𝒞_{ρ,ε} = Law(X_0, X_ε); ℓ_{ρ,ε} is never defined"),
    Misprint("misprint-bridge-update-measure", "slide 'Self-attention update via same marginal Schrödinger bridges'",
             "the update's barycentric projection is printed at ρ, unbound, instead of the current "
             "measure ρ^k_ε",
             printed_passage="$$\\rho_{\\varepsilon}^{k+1} = (2I - \\mathcal{B}_{\\rho,\\varepsilon})_{\\#} \\rho_{\\varepsilon}^{k}$$",
             printed="\\mathcal{B}_{\\rho,\\varepsilon})", intended_at="slide 'Let's dive deeper...'",
             intended_passage="$$= \\left(2I - \\mathcal{B}_{\\rho_{\\varepsilon}^{k}, \\varepsilon}\\right)_{\\#} \\rho_{\\varepsilon}^{k}$$",
             intended="\\mathcal{B}_{\\rho_{\\varepsilon}^{k}, \\varepsilon}",
             should_read="ρ^{k+1}_ε = (2I − B_{ρ^k_ε,ε})_# ρ^k_ε",
             referee=BOTH + "ρ is not bound in the recursion; the derivation on 'Let's dive deeper...' "
                            "takes the projection at the current measure ρ^k_ε"),
    Misprint("misprint-sinkformer-update-integrand", "slide 'Let's dive deeper...'",
             "the map of the infinite-particle Sinkformer update is printed ∫k^∞_ε(x,·)dρ^k_ε(x), "
             "with no vector factor: identically 1 by the kernel's normalization, not the "
             "barycentric projection B the same display equates it with",
             printed_passage="$$\\rho_{\\varepsilon}^{k+1} = \\left(2I - \\int k_{\\varepsilon}^{\\infty}(x, \\cdot) "
                             "d\\rho_{\\varepsilon}^{k}(x)\\right)_{\\#} \\rho_{\\varepsilon}^{k}$$",
             printed="\\int k_{\\varepsilon}^{\\infty}(x, \\cdot) d\\rho_{\\varepsilon}^{k}(x)",
             intended_at="slide 'Temperature Parameter' (second, 'Concretely')",
             intended_passage="$$T_{\\rho_{\\varepsilon}^{k},\\varepsilon}(x) = \\int k_{\\varepsilon}^{\\infty}(x,y) "
                              "W_{V} y d\\rho_{\\varepsilon}^{k}(y)$$",
             intended="\\int k_{\\varepsilon}^{\\infty}(x,y) W_{V} y d\\rho_{\\varepsilon}^{k}(y)",
             should_read="(2I − ∫k^∞_ε(·,y) y dρ^k_ε(y))_# ρ^k_ε = (2I − B_{ρ^k_ε,ε})_# ρ^k_ε",
             referee="referee B of heatflow:sinkformer-update (issue 38) and an independent referee "
                     "of the split (7 Dec 2026): the integrand lacks its vector factor (≡ 1 as printed); "
                     "the slides' own integral form of the attention, T(x) = ∫k^∞_ε(x,y) W_V y dρ^k_ε(y) "
                     "with −W_V = I, and the display's second line (2I − B)# give the intended map B. "
                     "A slip of its own: the 2I stays heatflow:sinkformer-update"),
)

register_misprints("heatflow", MISPRINTS)

"""Seed 000's misprints inside quoted passages (issue 38): symbols the paper prints at one place
for the object it names otherwise at another (`claims._misprints`). Found by two independent
referee passes (26-27 Nov 2026), both confirming each entry."""
from __future__ import annotations

from claims._misprints import Misprint, register_misprints

MISPRINTS = (
    Misprint("misprint-euler-step-size", "§2, the sentence before (14)",
             "the text introduces the explicit Euler step size as τ, while the scheme it introduces, "
             "(14), steps with h_k (τ is left unbound)",
             printed_passage="The most simple time discretization of (4) is a plain explicit forward Euler "
                             "discretization with step size τ>0\\tau>0, which does not take any geometry into "
                             "account. Its kk-th iteration is",
             printed="step size τ>0", intended_at="eq. (14)",
             intended_passage="\\begin{cases}x^{(k+1)}=x^{(k)}+h_{k}\\nabla_{p}H(x^{(k)},p^{(k)}),\\\\ "
                              "p^{(k+1)}=\\alpha_{k}p^{(k)}-h_{k}\\nabla_{x}H(x^{(k)},p^{(k)}),\\end{cases} (14)",
             intended="h_{k}", should_read="a plain explicit forward Euler discretization with step sizes h_k > 0",
             referee="confirmed by both independent referees (issue 38): (14), the scheme the sentence "
                     "introduces, is written with h_k and contains no τ"),
)

register_misprints("sympformer", MISPRINTS)

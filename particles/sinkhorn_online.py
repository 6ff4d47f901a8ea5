"""Sinkhorn's log-domain updates on point clouds in O((N + M)·d + chunk·M) memory, never the
N×M cost (seed 003, slides "Sinkformer Self-Attention Mechanism" and "Sinkhorn Algorithm").

For the cost C_ij = κ|x_i − y_j|² (κ from `cost`, as `particles.sinkhorn.pairwise_cost`) the
softmin of a potential v on the points p, seen from the points o,

    u_i = −ε log Σ_j w_j exp((v_j − κ|o_i − p_j|²)/ε)
        = κ|o_i|² − ε log Σ_j exp(r_ij),   r_ij = h_j + (2κ/ε) o_i·p_j,   h_j = (v_j − κ|p_j|²)/ε + log w_j,

is evaluated `chunk` rows i at a time: one (chunk × (d + 2)) · ((d + 2) × M) product gives
r_ij − s_i for a per-row shift s_i, then one in-place exp and a row sum (online logsumexp: the
block is all that is ever held). The shift is the previous output's log-sum, so near convergence
σ_i = Σ_j exp(r_ij − s_i) ≈ 1 and no max pass over the row is needed; a chunk whose σ_i leaves
[e^{−τ}, e^{τ}], τ = ¼ log(ε_mach/tiny) (the range of `particles.sinkhorn._Updates`, where no term
that matters to the sum underflows or overflows), is recomputed by a two-pass logsumexp. Both
clouds are first translated by one common vector (C is invariant), which keeps the expanded
|o|² − 2o·p + |p|² close to the exact differences: the exponents carry an absolute rounding error
≈ ε_mach·κ·max(|o|², |p|²)/ε, the price of never forming o − p.

`particles.sinkhorn` uses this class for `sinkhorn_points`'s online path (chosen when the dense
path's N×M matrices exceed its memory budget, or forced by `solver="online"` or a `chunk`) and for
`schrodinger_bridge(..., chunk=...)`; it has the `rows` / `cols` interface of the dense `_Updates`,
so both share one loop.
"""
from __future__ import annotations

import math

import torch

from theory.gaussian_ot import cost_kappa

BLOCK_ENTRIES = 1 << 18   # default chunk: rows per block so that a block holds ~2^18 entries (2 MB)


def default_chunk(m: int) -> int:
    """Rows per block for M columns: BLOCK_ENTRIES // M (at least 1)."""
    return max(1, BLOCK_ENTRIES // m)


class OnlineUpdates:
    """The two Sinkhorn updates of C_ij = κ|x_i − y_j|² at temperature `eps` (settable between
    calls, for ε-scaling), chunk by chunk:

        rows(g, log b)_i = −ε log Σ_j b_j exp((g_j − C_ij)/ε),   cols(f, log a)_j = −ε log Σ_i a_i exp((f_i − C_ij)/ε).

    Each remembers its last output as the shift of its next call (module docstring)."""

    def __init__(self, x: torch.Tensor, y: torch.Tensor, eps: float, cost: str, chunk: int):
        self.kappa = cost_kappa(cost)
        self.center = torch.cat([x, y], dim=-2).mean(dim=-2, keepdim=True)
        self.x, self.y = x - self.center, y - self.center
        self.sq_x = self.kappa * self.x.square().sum(-1)
        self.sq_y = self.kappa * self.y.square().sum(-1)
        self.eps, self.chunk = eps, chunk
        info = torch.finfo(x.dtype)
        self.tau = 0.25 * math.log(info.eps / info.tiny)
        # exp below log(tiny) is subnormal (≈3× slower on x86); those terms weigh ≤ M·tiny·e^τ ≪ ε_mach
        self.floor = math.log(info.tiny)
        self.f_prev = self.g_prev = None

    def set_eps(self, eps: float) -> None:
        self.eps = eps

    def rows(self, g: torch.Tensor, log_b: torch.Tensor) -> torch.Tensor:  # row normalization N_R
        self.f_prev = self.softmin(self.x, self.sq_x, self.y, self.sq_y, g, log_b, self.f_prev)
        return self.f_prev

    def cols(self, f: torch.Tensor, log_a: torch.Tensor) -> torch.Tensor:  # column normalization N_C
        self.g_prev = self.softmin(self.y, self.sq_y, self.x, self.sq_x, f, log_a, self.g_prev)
        return self.g_prev

    # -------------------------------------------------------------- the chunked softmin

    def _operands(self, sq_p, p, v, log_w):
        """P_aug = [(2κ/ε)pᵀ; 1; h] of shape (..., d + 2, M)."""
        h = (v - sq_p) / self.eps + log_w
        ones = torch.ones_like(h).unsqueeze(-2)
        return torch.cat([(2 * self.kappa / self.eps) * p.transpose(-1, -2), ones, h.unsqueeze(-2)], dim=-2)

    def _lse(self, o, sq_o, P, prev, values=None):
        """log Σ_j exp(r_ij) for every row of o and, with `values` (..., M, k), the softmax
        means Σ_j softmax_j(r_ij) values_j (chunk by chunk; the module docstring's shift)."""
        n = o.shape[-2]
        shift = (torch.zeros_like(sq_o) if prev is None else (sq_o - prev) / self.eps).unsqueeze(-1)
        O = torch.cat([o, -shift, torch.ones_like(shift)], dim=-1)   # (..., N, d + 2)
        lse = torch.empty_like(sq_o)
        means = None if values is None else o.new_empty(*o.shape[:-1], values.shape[-1])
        for s in range(0, n, self.chunk):
            rows = slice(s, min(s + self.chunk, n))
            E = O[..., rows, :] @ P                                  # r_ij − s_i
            if prev is not None:
                E.clamp_(min=self.floor).exp_()
                sigma = E.sum(-1)
                if bool(((sigma >= math.exp(-self.tau)) & (sigma <= math.exp(self.tau))).all()):
                    lse[..., rows] = shift[..., rows, 0] + torch.log(sigma)
                    if values is not None:
                        means[..., rows, :] = (E @ values) / sigma.unsqueeze(-1)
                    continue
                E = O[..., rows, :] @ P                              # recompute: two-pass logsumexp
            E.add_(shift[..., rows, :])                              # r_ij
            lse[..., rows] = torch.logsumexp(E, dim=-1)
            if values is not None:
                means[..., rows, :] = torch.softmax(E, dim=-1) @ values
        return lse, means

    def softmin(self, o, sq_o, p, sq_p, v, log_w, prev):
        """u_i = −ε log Σ_j w_j exp((v_j − κ|o_i − p_j|²)/ε); `prev` (the last u, or None) sets the shift."""
        lse, _ = self._lse(o, sq_o, self._operands(sq_p, p, v, log_w), prev)
        return sq_o - self.eps * lse

    def barycentric(self, f: torch.Tensor, log_a: torch.Tensor) -> torch.Tensor:
        """Σ_j softmax_j((f_j − C_ij)/ε + log a_j) y_j for every x_i: E_π[Y | X = x_i] for the
        plan π_ij = a_i a_j exp((f_i + f_j − C_ij)/ε) of a same-marginal bridge (x = y)."""
        P = self._operands(self.sq_y, self.y, f, log_a)
        _, means = self._lse(self.x, self.sq_x, P, f, values=self.y)
        return means + self.center

"""The four integrators of seed 001 §5, fig. 6 / Table 2, and the Stiefel-manifold Adam for PSD layers.

Every network maps a window Z of shape (B, 2d, sl) (columns are states, eq. (18)) to the predicted
next state (B, 2d) (prediction length pl = 1: "X ↦ X[:, end]", fig. 6).

    ResNet                      x ↦ W_dn(y + tanh(W y + b)) + c,  y = tanh(A x + b_A)      (sl = 1)
    SympNetIntegrator           Ψᵀ ∘ G_p ∘ G_q ∘ Ψ, Ψ = diag(Φ, Φ) PSD-like (eq. (29))     (sl = 1)
    StandardTransformer         tanh-upscaling, L × [Z + MHA(Z), Z + tanh(WZ + b)], linear down
    StructurePreservingTransformer
                                Ψ, L × [Z ↦ ZΛ(Z) (no add), G_p ∘ G_q], Ψᵀ                (§4, fig. 4)

Table 2: upscale dimension 20, L = 2, 4 heads, sl = 5, pl = 1. We read "upscale dimension" as the
dimension 2N = 20 in which the transformer operates (Table 2 calls it that), so N = 10 and the
gradient-layer width is M = 2 · 20 = 40 ("twice the upscale dimension"); the text's "M = 2N = 40"
conflicts with 2N = 20 and is one of the two readings (see docs/sp_transformer_experiment.md).

The PSD matrices Φ ∈ St(N, d) are trained with `StiefelAdam` (Adam moments in the tangent space,
vector transport by projection, Cayley retraction), the "manifold version of Adam" the paper
cites ([4]); everything else with Adam at Table 3's η, ρ1, ρ2, δ.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from particles import sympnet


@dataclass(frozen=True)
class Table2:
    """Hyperparameters of the networks (seed 001, Table 2 and the text of §5)."""

    dim: int = 4             # 2d: phase space of the coupled oscillator
    upscale: int = 20        # 2N: dimension in which the transformers operate
    n_layers: int = 2        # L
    n_heads: int = 4         # n_heads (standard transformer only)
    seq_len: int = 5         # sl
    width: int = 40          # M of the gradient layers: twice the upscale dimension

    def __post_init__(self):
        for name in ("dim", "upscale", "n_layers", "n_heads", "seq_len", "width"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if self.dim % 2 or self.upscale % 2:
            raise ValueError(f"dim and upscale must be even (2d, 2N), got {self.dim}, {self.upscale}")
        if self.upscale < self.dim:
            raise ValueError(f"upscale must be >= dim for a Stiefel lift, got {self.upscale} < {self.dim}")
        if self.upscale % self.n_heads:
            raise ValueError(f"n_heads={self.n_heads} must divide upscale={self.upscale}")


def _check_window(Z: torch.Tensor, dim: int) -> None:
    if not isinstance(Z, torch.Tensor):
        raise TypeError(f"Z must be a torch.Tensor, got {type(Z).__name__}")
    if Z.ndim != 3 or Z.shape[1] != dim:
        raise ValueError(f"Z must have shape (batch, {dim}, seq_len), got {tuple(Z.shape)}")


class _Integrator(nn.Module):
    """Common interface: forward(Z (B, 2d, sl)) -> next state (B, 2d)."""

    seq_len: int

    def stiefel_parameters(self) -> list[nn.Parameter]:
        """The Φ's of PSD-like layers, which live on the Stiefel manifold St(N, d)."""
        return [m.Phi for m in self.modules() if isinstance(m, sympnet.PSDLayer)]


class ResNet(_Integrator):
    """Fig. 6, ResNet: feed-forward upscaling tanh(Ax + b), one layer x ↦ x + tanh(Wx + b), linear
    downscaling; sees one state (sl = pl = 1)."""

    def __init__(self, cfg: Table2 = Table2(), *, dtype=torch.float64, generator=None):
        super().__init__()
        self.cfg, self.seq_len = cfg, 1
        kw = dict(dtype=dtype)
        self.up = nn.Linear(cfg.dim, cfg.upscale, **kw)
        self.layer = nn.Linear(cfg.upscale, cfg.upscale, **kw)
        self.down = nn.Linear(cfg.upscale, cfg.dim, **kw)
        _reinit(self, generator)

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        _check_window(Z, self.cfg.dim)
        y = torch.tanh(self.up(Z[..., -1]))
        return self.down(y + torch.tanh(self.layer(y)))

    @torch.no_grad()
    def output_bound(self) -> torch.Tensor:
        """A bound on |𝒩𝒩(Z)_i| for every input: y + tanh(Wy + b) ∈ [−2, 2]^{2N} because y = tanh(·),
        so |𝒩𝒩_i| <= 2 Σ_j |W_dn,ij| + |c_i|. The ResNet of fig. 6 cannot diverge to infinity."""
        return 2 * self.down.weight.abs().sum(-1) + self.down.bias.abs()


class SympNetIntegrator(_Integrator):
    """Fig. 6, SympNet: PSD-like upscaling Ψ = diag(Φ, Φ) (eq. (29)), a q-gradient layer then a
    p-gradient layer (eq. (15), width M), PSD downscaling Ψᵀ; sees one state (sl = pl = 1)."""

    def __init__(self, cfg: Table2 = Table2(), *, dtype=torch.float64, generator=None):
        super().__init__()
        self.cfg, self.seq_len = cfg, 1
        self.up, self.down = _psd_pair(cfg, dtype, generator)
        self.sympnet = _gradient_pair(cfg, dtype, generator)

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        _check_window(Z, self.cfg.dim)
        return self.down(self.sympnet(self.up(Z[..., -1])))


class MultiHeadAttention(nn.Module):
    """Softmax attention of seed 001 eq. (6), multi-head: head h maps the columns z^(j) to
    Σ_i softmax_i(⟨Q_h z^(j), K_h z^(i)⟩/√d_h) V_h z^(i); the heads are concatenated."""

    def __init__(self, dim: int, n_heads: int, *, dtype=torch.float64):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False, dtype=dtype)

    def forward(self, X: torch.Tensor) -> torch.Tensor:          # X: (B, T, D), tokens as rows
        B, T, D = X.shape
        q, k, v = self.qkv(X).view(B, T, 3, self.n_heads, D // self.n_heads).permute(2, 0, 3, 1, 4)
        return F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(B, T, D)


class StandardTransformer(_Integrator):
    """Fig. 2 / fig. 6: tanh upscaling, L × [multi-head attention + add, feed-forward + add], linear
    downscaling, last column (pl = 1)."""

    def __init__(self, cfg: Table2 = Table2(), *, dtype=torch.float64, generator=None):
        super().__init__()
        self.cfg, self.seq_len = cfg, cfg.seq_len
        D = cfg.upscale
        self.up = nn.Linear(cfg.dim, D, dtype=dtype)
        self.attention = nn.ModuleList(MultiHeadAttention(D, cfg.n_heads, dtype=dtype)
                                       for _ in range(cfg.n_layers))
        self.feedforward = nn.ModuleList(nn.Linear(D, D, dtype=dtype) for _ in range(cfg.n_layers))
        self.down = nn.Linear(D, cfg.dim, dtype=dtype)
        _reinit(self, generator)

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        _check_window(Z, self.cfg.dim)
        X = torch.tanh(self.up(Z.transpose(1, 2)))               # (B, T, 2N)
        for attention, feedforward in zip(self.attention, self.feedforward):
            X = X + attention(X)
            X = X + torch.tanh(feedforward(X))
        return self.down(X[:, -1])


class StructurePreservingTransformer(_Integrator):
    """Seed 001 §4, fig. 4 / fig. 6: PSD upscaling of every column, L × [Cayley attention
    Z ↦ ZΛ(Z) (eq. (21), first add connection removed), SympNet feed-forward G_p ∘ G_q acting on
    every column], PSD downscaling, last column (pl = 1).

    `core(X)` is the layer stack alone, a map R^{2N×T} → R^{2N×T}: the map §4 calls volume
    preserving but not symplectic.
    """

    def __init__(self, cfg: Table2 = Table2(), *, dtype=torch.float64, generator=None):
        super().__init__()
        self.cfg, self.seq_len = cfg, cfg.seq_len
        self.up, self.down = _psd_pair(cfg, dtype, generator)
        self.attention = nn.ModuleList(
            sympnet.CayleyAttention(cfg.upscale, dtype=dtype, generator=generator)
            for _ in range(cfg.n_layers))
        self.feedforward = nn.ModuleList(_gradient_pair(cfg, dtype, generator)
                                         for _ in range(cfg.n_layers))

    def core(self, X: torch.Tensor) -> torch.Tensor:
        """The L transformer layers on upscaled windows X (…, 2N, T)."""
        for attention, feedforward in zip(self.attention, self.feedforward):
            X = attention(X)
            X = feedforward(X.transpose(-1, -2)).transpose(-1, -2)
        return X

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        _check_window(Z, self.cfg.dim)
        X = self.up(Z.transpose(1, 2)).transpose(1, 2)           # Ψ on every column: (B, 2N, T)
        return self.down(self.core(X)[..., -1])


NETWORKS = {"resnet": ResNet, "sympnet": SympNetIntegrator, "transformer": StandardTransformer,
            "sp_transformer": StructurePreservingTransformer}


def build(name: str, cfg: Table2 = Table2(), *, seed: int = 0, dtype=torch.float64) -> _Integrator:
    """The network `name` of fig. 6 with parameters drawn from a generator seeded by `seed`."""
    if name not in NETWORKS:
        raise ValueError(f"name must be one of {sorted(NETWORKS)}, got {name!r}")
    return NETWORKS[name](cfg, dtype=dtype, generator=torch.Generator().manual_seed(seed))


def _gradient_pair(cfg: Table2, dtype, generator) -> sympnet.SympNet:
    """Fig. 6: two gradient layers (eq. (15)) of width M on R^{2N}, the first changes q, the second p."""
    return sympnet.SympNet(cfg.upscale // 2, cfg.width, n_layers=2, first="q", generator=generator,
                           dtype=dtype)


def _psd_pair(cfg: Table2, dtype, generator) -> tuple[sympnet.PSDLayer, sympnet.PSDLayer]:
    """PSD-like upscaling diag(Φ, Φ) and downscaling diag(Φ', Φ')ᵀ (eq. (29)), Φ, Φ' ∈ St(d, N) drawn
    independently: fig. 6 draws them as two layers."""
    N, d = cfg.upscale // 2, cfg.dim // 2
    return (sympnet.PSDLayer.random(N, d, generator=generator, dtype=dtype),
            sympnet.PSDLayer.random(N, d, transpose=True, generator=generator, dtype=dtype))


def _reinit(module: nn.Module, generator) -> None:
    """Redraw every nn.Linear from `generator` (PyTorch's default uniform ±1/√fan_in), so that a
    network is a function of its seed alone, never of the global RNG."""
    with torch.no_grad():
        for m in module.modules():
            if isinstance(m, nn.Linear):
                bound = 1.0 / math.sqrt(m.in_features)
                m.weight.uniform_(-bound, bound, generator=generator)
                if m.bias is not None:
                    m.bias.uniform_(-bound, bound, generator=generator)


# ------------------------------------------------------------------ Stiefel-manifold Adam


def stiefel_project(Phi: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Orthogonal projection of V onto the tangent space T_Φ St = {ξ : Φᵀξ + ξᵀΦ = 0}:
    V − Φ sym(ΦᵀV)."""
    S = Phi.mT @ V
    return V - Phi @ (S + S.mT) / 2


def cayley_retraction(Phi: torch.Tensor, xi: torch.Tensor) -> torch.Tensor:
    """R_Φ(ξ) = (I − W/2)⁻¹(I + W/2) Φ with the skew W = PξΦᵀ − ΦξᵀP, P = I − ΦΦᵀ/2.

    W Φ = ξ for tangent ξ, so R_Φ(tξ) = Φ + tξ + O(t²); (I − W/2)⁻¹(I + W/2) is orthogonal (Cayley
    transform of a skew matrix), so R_Φ(ξ) has orthonormal columns up to rounding.
    """
    eye = torch.eye(Phi.shape[-2], dtype=Phi.dtype, device=Phi.device)
    P_xi = xi - Phi @ (Phi.mT @ xi) / 2
    W = P_xi @ Phi.mT - Phi @ P_xi.mT
    return torch.linalg.solve(eye - W / 2, (eye + W / 2) @ Phi)


class StiefelAdam(torch.optim.Optimizer):
    """Adam on St(N, n) = {Φ ∈ R^{N×n}: ΦᵀΦ = I} (seed 001 §5 trains the PSD layers with "the manifold
    version of Adam" of its ref. [4]).

    Per step: Riemannian gradient g = Π_Φ(∇Φ) (embedded metric); moments m ← ρ1 m + (1−ρ1) g,
    v ← ρ2 v + (1−ρ2) g⊙g; direction ξ = Π_Φ(−η m̂/(√v̂ + δ)); Φ ← R_Φ(ξ) (Cayley retraction); the
    first moment is transported to the new tangent space by projection.
    """

    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.99), eps: float = 1e-8):
        if not lr > 0:
            raise ValueError(f"lr must be positive, got {lr}")
        if not all(0 <= b < 1 for b in betas):
            raise ValueError(f"betas must lie in [0, 1), got {betas}")
        if not eps > 0:
            raise ValueError(f"eps must be positive, got {eps}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))
        for group in self.param_groups:
            for Phi in group["params"]:
                if Phi.ndim != 2 or Phi.shape[0] < Phi.shape[1]:
                    raise ValueError(f"params must be N×n matrices with N >= n, got {tuple(Phi.shape)}")

    @torch.no_grad()
    def step(self, closure=None):
        loss = None if closure is None else closure()
        for group in self.param_groups:
            (rho1, rho2), eta, delta = group["betas"], group["lr"], group["eps"]
            for Phi in group["params"]:
                if Phi.grad is None:
                    continue
                state = self.state[Phi]
                if not state:
                    state["t"] = 0
                    state["m"] = torch.zeros_like(Phi)
                    state["v"] = torch.zeros_like(Phi)
                state["t"] += 1
                t, m, v = state["t"], state["m"], state["v"]
                g = stiefel_project(Phi, Phi.grad)
                m.mul_(rho1).add_(g, alpha=1 - rho1)
                v.mul_(rho2).addcmul_(g, g, value=1 - rho2)
                step = -eta * (m / (1 - rho1 ** t)) / ((v / (1 - rho2 ** t)).sqrt() + delta)
                Phi.copy_(cayley_retraction(Phi, stiefel_project(Phi, step)))
                m.copy_(stiefel_project(Phi, m))
        return loss


@dataclass(frozen=True)
class Table3:
    """Optimizer settings (seed 001, Table 3): Adam's η, ρ1, ρ2, δ; epochs; batch size."""

    eta: float = 1e-3
    rho1: float = 0.9
    rho2: float = 0.99
    delta: float = 1e-8
    n_epochs: int = 2000
    batch_size: int = 512


def optimizers(model: _Integrator, settings: Table3 = Table3()) -> list[torch.optim.Optimizer]:
    """Adam for the Euclidean weights, StiefelAdam for the PSD matrices Φ, both with Table 3's values."""
    stiefel = model.stiefel_parameters()
    ids = {id(p) for p in stiefel}
    euclidean = [p for p in model.parameters() if id(p) not in ids]
    kw = dict(lr=settings.eta, betas=(settings.rho1, settings.rho2), eps=settings.delta)
    opts: list[torch.optim.Optimizer] = [torch.optim.Adam(euclidean, **kw)]
    if stiefel:
        opts.append(StiefelAdam(stiefel, **kw))
    return opts

"""The layers of seed 001 (Brantner et al., structure-preserving transformers), in torch.

Conventions. A phase-space point is z = (q, p) ∈ R^{2d} on the last axis. A token sequence is the
2d×T matrix Z = [Q; P] whose column t is the token z^(t) (seed 001 §4, eq. (18)); its Z_vec is the
row-by-row flattening `Z.reshape(-1)`. Layers never set torch defaults: pass `dtype`, `device` and a
`torch.Generator` for the random initialization (float64 by default, for geometric checks).

- `GradientLayer`, `SympNet`: the gradient-type SympNet layers of eq. (15),
      q-update (q, p) ↦ (q + Kᵀ diag(a) σ(K p + b), p),   p-update (q, p) ↦ (q, p + Kᵀ diag(a) σ(K q + b)),
  K ∈ R^{M×d}, a, b ∈ R^M, and their compositions (the G-SympNets Ψ_G of §3).
- `PSDLayer`: the PSD-like up-scaling z ↦ diag(Φ, Φ) z of eq. (29), Φ ∈ St(d, N) (eq. (30)), and
  the down-scaling "with a transpose", z ↦ diag(Φᵀ, Φᵀ) z.
- `phi_skew`, `cayley`, `cayley_activation`: the activation σ(C) = Cayley(Φ(C)) of eq. (19)-(20).
  `cayley(Y, printed=True)` is the printed ½(I − Y)(I + Y)⁻¹; the default is the standard Cayley
  transform (I − Y)(I + Y)⁻¹, which (unlike the printed one) maps skew matrices to orthogonal ones.
- `CayleyAttention`: the structure-preserving attention Z ↦ Z Λ(Z), Λ(Z) = σ(Zᵀ A Z), eq. (21), with
  the weighted correlation matrix C = Zᵀ A Z of §2 inside σ.
- `SoftmaxAttention`: the plain attention of §2, Z ↦ Z softmax(Zᵀ A Z) with the column-wise
  softmax of eq. (6), for comparison.
- `lambda_tilde`: the block matrix Λ̃ = I_{2d} ⊗ Λ of eq. (22) acting on Z_vec.
"""
from __future__ import annotations

from typing import Callable

import torch
from torch import nn

from theory.checks import positive_int as _positive_int

Activation = Callable[[torch.Tensor], torch.Tensor]


# ------------------------------------------------------------------ validation


def _tensor(x, name: str, min_ndim: int = 1) -> torch.Tensor:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    if x.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dims, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"{name} must be a floating-point tensor, got {x.dtype}")
    # Inside torch.func transforms (jacrev/vmap) a data-dependent check cannot run; the values were
    # checked where the transform was entered (particles.geometry validates its points).
    if not _is_functorch_wrapped(x) and not torch.isfinite(x).all():
        raise ValueError(f"{name} contains NaN or inf")
    return x


_is_functorch_wrapped = getattr(torch._C._functorch, "is_functorch_wrapped_tensor", lambda x: False)


def _square(x, name: str) -> torch.Tensor:
    x = _tensor(x, name, 2)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{name} must be (a batch of) square matrices, got shape {tuple(x.shape)}")
    return x


def _half(n: int, name: str) -> int:
    if n < 2 or n % 2:
        raise ValueError(f"{name} must be even (a phase space R^{{2d}}), got {n}")
    return n // 2


def _randn(shape, generator, dtype, device, scale: float = 1.0) -> torch.Tensor:
    return scale * torch.randn(shape, generator=generator, dtype=dtype, device=device)


# ------------------------------------------------------------------ SympNet gradient layers (eq. 15)


class GradientLayer(nn.Module):
    """One gradient-type SympNet layer, seed 001 eq. (15).

    update="q": (q, p) ↦ (q + Kᵀ diag(a) σ(K p + b), p); update="p": (q, p) ↦ (q, p + Kᵀ diag(a) σ(K q + b)).
    The increment is ∇g of g(x) = aᵀ σ̃(K x + b) (σ̃' = σ), so the Jacobian is [[I, S], [0, I]] or
    [[I, 0], [S, I]] with S = Kᵀ diag(a ⊙ σ'(Kx + b)) K symmetric: symplectic by eq. (16).
    K (M×d), a, b (M) are drawn N(0, 1/d), N(0, 1), N(0, 1) unless given.
    """

    def __init__(self, d: int, M: int, update: str = "q", activation: Activation = torch.tanh, *,
                 K: torch.Tensor | None = None, a: torch.Tensor | None = None,
                 b: torch.Tensor | None = None, generator: torch.Generator | None = None,
                 dtype: torch.dtype = torch.float64, device: torch.device | str | None = None):
        super().__init__()
        self.d, self.M = _positive_int(d, "d"), _positive_int(M, "M")
        if update not in ("q", "p"):
            raise ValueError(f"update must be 'q' or 'p', got {update!r}")
        if not callable(activation):
            raise TypeError("activation must be callable")
        self.update, self.activation = update, activation
        K = _randn((M, d), generator, dtype, device, d ** -0.5) if K is None else _tensor(K, "K", 2)
        a = _randn((M,), generator, dtype, device) if a is None else _tensor(a, "a")
        b = _randn((M,), generator, dtype, device) if b is None else _tensor(b, "b")
        if K.shape != (M, d) or a.shape != (M,) or b.shape != (M,):
            raise ValueError(f"K must be M×d = {M}×{d} and a, b of length M = {M}; got "
                             f"K {tuple(K.shape)}, a {tuple(a.shape)}, b {tuple(b.shape)}")
        self.K, self.a, self.b = nn.Parameter(K), nn.Parameter(a), nn.Parameter(b)

    def increment(self, x: torch.Tensor) -> torch.Tensor:
        """Kᵀ diag(a) σ(K x + b) for x of shape (..., d) (row-vector form)."""
        return (self.a * self.activation(x @ self.K.T + self.b)) @ self.K

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        z = _tensor(z, "z")
        if z.shape[-1] != 2 * self.d:
            raise ValueError(f"z must have last axis 2d = {2 * self.d}, got shape {tuple(z.shape)}")
        q, p = z[..., : self.d], z[..., self.d:]
        if self.update == "q":
            return torch.cat([q + self.increment(p), p], dim=-1)
        return torch.cat([q, p + self.increment(q)], dim=-1)


class SympNet(nn.Module):
    """A G-SympNet ψ = l_k ∘ … ∘ l_0 (seed 001 §3): `n_layers` gradient layers alternating the q- and
    p-updates, starting with `first` (the experiments of §5 use two: a q- then a p-update)."""

    def __init__(self, d: int, M: int, n_layers: int = 2, activation: Activation = torch.tanh, *,
                 first: str = "q", generator: torch.Generator | None = None,
                 dtype: torch.dtype = torch.float64, device: torch.device | str | None = None):
        super().__init__()
        if first not in ("q", "p"):
            raise ValueError(f"first must be 'q' or 'p', got {first!r}")
        order = ("q", "p") if first == "q" else ("p", "q")
        self.layers = nn.ModuleList(
            GradientLayer(d, M, order[i % 2], activation, generator=generator, dtype=dtype,
                          device=device) for i in range(_positive_int(n_layers, "n_layers")))

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            z = layer(z)
        return z


# ------------------------------------------------------------------ PSD-like layers (eq. 29-31)


def stiefel_random(N: int, d: int, *, generator: torch.Generator | None = None,
                   dtype: torch.dtype = torch.float64,
                   device: torch.device | str | None = None) -> torch.Tensor:
    """A random Φ ∈ St(d, N) = {Φ ∈ R^{N×d}: ΦᵀΦ = I_d} (eq. (30)): Q of a Gaussian matrix."""
    N, d = _positive_int(N, "N"), _positive_int(d, "d")
    if N < d:
        raise ValueError(f"St(d, N) needs N >= d, got N={N}, d={d}")
    Q, R = torch.linalg.qr(_randn((N, d), generator, dtype, device))
    return Q * torch.sign(torch.diagonal(R))


def stiefel_defect(Phi: torch.Tensor) -> float:
    """‖ΦᵀΦ − I_d‖_F."""
    eye = torch.eye(Phi.shape[-1], dtype=Phi.dtype, device=Phi.device)
    return float(torch.linalg.matrix_norm(Phi.mT @ Phi - eye))


class PSDLayer(nn.Module):
    """The PSD-like layer of seed 001 eq. (29): z = (q, p) ↦ (Φ q, Φ p), R^{2d} → R^{2N}, Φ ∈ St(d, N).

    With `transpose=True` it is the down-scaling of §5, (Q, P) ↦ (Φᵀ Q, Φᵀ P), R^{2N} → R^{2d}.
    Φ must have orthonormal columns (‖ΦᵀΦ − I‖_F <= atol), else ValueError. After an unconstrained
    optimizer step, `retract_()` moves Φ back to the closest point of St(d, N) (polar factor).
    """

    def __init__(self, Phi: torch.Tensor, transpose: bool = False, atol: float = 1e-10):
        super().__init__()
        Phi = _tensor(Phi, "Phi", 2)
        if Phi.ndim != 2 or Phi.shape[0] < Phi.shape[1]:
            raise ValueError(f"Phi must be N×d with N >= d, got shape {tuple(Phi.shape)}")
        err = stiefel_defect(Phi)
        if not err <= atol:
            raise ValueError(f"Phi must lie on the Stiefel manifold (ΦᵀΦ = I); ‖ΦᵀΦ − I‖_F = {err:.3g}")
        self.Phi, self.transpose, self.atol = nn.Parameter(Phi), bool(transpose), atol

    @classmethod
    def random(cls, N: int, d: int, transpose: bool = False, *, generator=None,
               dtype: torch.dtype = torch.float64, device=None) -> "PSDLayer":
        return cls(stiefel_random(N, d, generator=generator, dtype=dtype, device=device), transpose)

    @property
    def in_dim(self) -> int:
        return 2 * self.Phi.shape[0 if self.transpose else 1]

    def matrix(self) -> torch.Tensor:
        """diag(Φ, Φ) (2N×2d), or its transpose for the down-scaling."""
        M = torch.block_diag(self.Phi, self.Phi)
        return M.mT if self.transpose else M

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        z = _tensor(z, "z")
        if z.shape[-1] != self.in_dim:
            raise ValueError(f"z must have last axis {self.in_dim}, got shape {tuple(z.shape)}")
        half = self.in_dim // 2
        W = self.Phi if self.transpose else self.Phi.T  # row-vector form of x ↦ Φᵀx or Φx
        return torch.cat([z[..., :half] @ W, z[..., half:] @ W], dim=-1)

    @torch.no_grad()
    def retract_(self) -> "PSDLayer":
        U, _, Vh = torch.linalg.svd(self.Phi, full_matrices=False)
        self.Phi.copy_(U @ Vh)
        return self


# ------------------------------------------------------------------ the Cayley activation (eq. 19-20)


def phi_skew(C: torch.Tensor) -> torch.Tensor:
    """Φ(C) of seed 001 eq. (20): Φ_ij = c_ij (i < j), −c_ji (i > j), 0 (i = j); batched."""
    upper = torch.triu(_square(C, "C"), diagonal=1)
    return upper - upper.mT


def cayley(Y: torch.Tensor, *, printed: bool = False) -> torch.Tensor:
    """Cayley(Y) = (I − Y)(I + Y)⁻¹ = (I + Y)⁻¹(I − Y) (the factors commute), batched.

    `printed=True` returns the formula as printed in seed 001 eq. (20), ½(I − Y)(I + Y)⁻¹.
    For skew Y, I + Y is invertible (eigenvalues 1 + iλ) and the standard transform is orthogonal.
    """
    Y = _square(Y, "Y")
    eye = torch.eye(Y.shape[-1], dtype=Y.dtype, device=Y.device)
    Q = torch.linalg.solve(eye + Y, eye - Y)
    return Q / 2 if printed else Q


def cayley_activation(C: torch.Tensor, *, printed: bool = False) -> torch.Tensor:
    """σ(C) = Cayley(Φ(C)), seed 001 eq. (19)."""
    return cayley(phi_skew(C), printed=printed)


def correlation(Z: torch.Tensor, A: torch.Tensor) -> torch.Tensor:
    """The weighted correlation matrix C = Zᵀ A Z of seed 001 §2 (c_ij = z^(i)ᵀ A z^(j)), batched."""
    return Z.mT @ A @ Z


def lambda_tilde(Lam: torch.Tensor, d: int) -> torch.Tensor:
    """Λ̃ = I_{2d} ⊗ Λ (block diagonal, 2d blocks Λ), seed 001 eq. (22), batched over Λ's leading axes.

    Note: Z_vec ↦ (I_{2d} ⊗ M) Z_vec is Z ↦ Z Mᵀ, so the map Z ↦ Z Λ of eq. (21) is I_{2d} ⊗ Λᵀ.
    """
    Lam = _square(Lam, "Lam")
    n = 2 * _positive_int(d, "d")
    T = Lam.shape[-1]
    eye = torch.eye(n, dtype=Lam.dtype, device=Lam.device)
    return torch.einsum("ij,...kl->...ikjl", eye, Lam).reshape(*Lam.shape[:-2], n * T, n * T)


class _TokenAttention(nn.Module):
    """Z ↦ Z M(Zᵀ A Z) on token matrices Z (…, 2d, T), A (2d×2d) drawn N(0, 1/(2d)) unless given."""

    def __init__(self, n: int, *, A: torch.Tensor | None = None,
                 generator: torch.Generator | None = None, dtype: torch.dtype = torch.float64,
                 device: torch.device | str | None = None):
        super().__init__()
        self.n = _positive_int(n, "n")
        _half(self.n, "n")
        A = _randn((n, n), generator, dtype, device, n ** -0.5) if A is None else _square(A, "A")
        if A.shape != (n, n):
            raise ValueError(f"A must be {n}×{n}, got shape {tuple(A.shape)}")
        self.A = nn.Parameter(A)

    def weights(self, Z: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def _check(self, Z: torch.Tensor) -> torch.Tensor:
        Z = _tensor(Z, "Z", 2)
        if Z.shape[-2] != self.n:
            raise ValueError(f"Z must be (…, {self.n}, T) with tokens as columns, got {tuple(Z.shape)}")
        return Z

    def forward(self, Z: torch.Tensor) -> torch.Tensor:
        Z = self._check(Z)
        return Z @ self.weights(Z)


class CayleyAttention(_TokenAttention):
    """Structure-preserving attention Z ↦ Z Λ(Z), Λ(Z) = Cayley(Φ(Zᵀ A Z)), seed 001 eq. (19)-(21).

    `printed=True` uses the printed Cayley ½(I − Y)(I + Y)⁻¹ of eq. (20); the default is the standard
    transform, for which Λ(Z) is orthogonal.
    """

    def __init__(self, n: int, *, printed: bool = False, **kwargs):
        super().__init__(n, **kwargs)
        self.printed = bool(printed)

    def weights(self, Z: torch.Tensor) -> torch.Tensor:
        """Λ(Z) (T×T)."""
        return cayley_activation(correlation(self._check(Z), self.A), printed=self.printed)


class SoftmaxAttention(_TokenAttention):
    """Plain single-head attention of seed 001 §2: Z ↦ Z softmax(Zᵀ A Z), the softmax taken over each
    column (eq. (6)), so each output token is a convex combination of the input tokens."""

    def weights(self, Z: torch.Tensor) -> torch.Tensor:
        return torch.softmax(correlation(self._check(Z), self.A), dim=-2)

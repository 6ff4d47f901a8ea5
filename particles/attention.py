"""Softmax and linear self-attention vector fields on token clouds, their energies, and an oracle
counter.

Seed 000 (SympFormer), Section 3. Tokens are the rows X_i of X ∈ R^{N×d}; A = KᵀQ. The attention
weight of token j seen from token i is (eq. (18))

    softmax:  κ(X_i, X_j) = exp(X_jᵀ A X_i) / Σ_ℓ exp(X_ℓᵀ A X_i),      linear:  κ(X_i, X_j) = X_jᵀ A X_i,

and the attention field of the ODE (21) is Γ_X(X_i) = Σ_j κ(X_i, X_j) V X_j. We use the mean-field
normalization of (22)-(23) (the empirical measure ρ_N = (1/N) Σ_j δ_{X_j}): for softmax this is
the same field, for linear attention it carries the factor 1/N that the sum in (19) omits.

The energies of Sections 4-5 at ρ_N:

    F^lin(ρ_N) = −(1/(2N)) Σ_i X_iᵀ V X_i,          F^SM(ρ_N) = −(1/(2N²)) Σ_{i,j} exp(X_jᵀ A X_i)   (29).

A causal mask (decoder-only transformers, Section 6) lets token i attend to j ≤ i only; for the
softmax field the normalization then runs over j ≤ i. Everything is computed in the log domain
(logsumexp) and in the dtype/device of X; nothing here sets torch defaults.
"""
from __future__ import annotations

import math
from typing import Callable

import torch

# ------------------------------------------------------------------ validation


def check_tokens(X, name: str = "X") -> torch.Tensor:
    """X must be a finite floating torch tensor of shape N×d."""
    if not isinstance(X, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(X).__name__}")
    if not X.is_floating_point():
        raise TypeError(f"{name} must be a floating tensor, got {X.dtype}")
    if X.ndim != 2 or X.shape[0] < 1 or X.shape[1] < 1:
        raise ValueError(f"{name} must have shape N×d, got {tuple(X.shape)}")
    if not under_transform(X) and not torch.isfinite(X).all():
        raise ValueError(f"{name} contains NaN or inf")
    return X


def under_transform(x: torch.Tensor) -> bool:
    """True inside torch.func transforms (vmap/jacrev), where value-dependent checks cannot run."""
    return torch._C._functorch.is_functorch_wrapped_tensor(x)


def check_square(M, name: str, d: int, symmetric: bool = False, spd: bool = False,
                 rtol: float = 1e-12) -> torch.Tensor:
    """M must be a finite d×d tensor; optionally symmetric (relative to ‖M‖) or SPD."""
    if not isinstance(M, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(M).__name__}")
    if M.shape != (d, d):
        raise ValueError(f"{name} must be {d}×{d}, got shape {tuple(M.shape)}")
    if not torch.isfinite(M).all():
        raise ValueError(f"{name} contains NaN or inf")
    if symmetric or spd:
        asym = torch.linalg.matrix_norm(M - M.T).item()
        if asym > rtol * max(1.0, torch.linalg.matrix_norm(M).item()):
            raise ValueError(f"{name} must be symmetric; ‖{name} − {name}ᵀ‖_F = {asym:.3g}")
    if spd:
        lam = torch.linalg.eigvalsh(0.5 * (M + M.T))[0].item()
        if lam <= 0:
            raise ValueError(f"{name} must be positive definite; smallest eigenvalue {lam:.3g}")
    return M


def causal_mask(N: int, device=None) -> torch.Tensor:
    """Boolean N×N mask, True where token i may attend to token j (j ≤ i)."""
    return torch.ones(N, N, dtype=torch.bool, device=device).tril()


# ------------------------------------------------------------------ attention fields (21)


def logits(X: torch.Tensor, A: torch.Tensor) -> torch.Tensor:
    """L_ij = X_jᵀ A X_i = Q X_i · K X_j (query i, key j), eq. (18); L = X Aᵀ Xᵀ."""
    return X @ A.T @ X.T


def softmax_attention(X: torch.Tensor, A: torch.Tensor, V: torch.Tensor,
                      causal: bool = False) -> torch.Tensor:
    """Γ_X(X_i) = Σ_j softmax_j(L_i·) V X_j for every token (rows), eq. (21); logsumexp-stable."""
    X = check_tokens(X)
    d = X.shape[1]
    A, V = check_square(A, "A", d), check_square(V, "V", d)
    L = logits(X, A)
    if causal:
        L = L.masked_fill(~causal_mask(X.shape[0], X.device), -math.inf)
    return torch.softmax(L, dim=1) @ X @ V.T


def linear_attention(X: torch.Tensor, A: torch.Tensor, V: torch.Tensor,
                     causal: bool = False) -> torch.Tensor:
    """Γ_{ρ_N}(X_i) = (1/N) Σ_j (X_jᵀ A X_i) V X_j, the velocity of (23) at the tokens."""
    X = check_tokens(X)
    N, d = X.shape
    A, V = check_square(A, "A", d), check_square(V, "V", d)
    K = logits(X, A)
    if causal:
        K = K.masked_fill(~causal_mask(N, X.device), 0.0)
    return K @ X @ V.T / N


# ------------------------------------------------------------------ energies


def energy_lin(X: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """F^lin(ρ_N) = −½ ∫ yᵀ V y dρ_N(y) = −(1/(2N)) Σ_i X_iᵀ V X_i (Section 4.1)."""
    X = check_tokens(X)
    V = check_square(V, "V", X.shape[1], symmetric=True)
    return -0.5 * torch.einsum("id,de,ie->", X, V, X) / X.shape[0]


def energy_sm(X: torch.Tensor, A: torch.Tensor) -> torch.Tensor:
    """F^SM(ρ_N) = −½ ∫∫ exp(yᵀAx) dρ_N dρ_N = −½ exp(logsumexp(L) − 2 log N), eq. (29)."""
    X = check_tokens(X)
    A = check_square(A, "A", X.shape[1], symmetric=True)
    return -0.5 * torch.exp(torch.logsumexp(logits(X, A).reshape(-1), 0) - 2 * math.log(X.shape[0]))


# ------------------------------------------------------------------ oracle counting


class CountingOracle:
    """Wraps a token field f(X, ...) and counts attention evaluations (oracle calls).

    The abstract's 'same number of oracle calls' is checked by counting, not assumed: every
    integrator gets the field only through this wrapper. A call at the same token positions X as
    the previous call reuses that attention matrix (Algorithm 1 evaluates both oracles F and G from
    one kernel evaluation) and is not counted again; `evaluations` counts every call."""

    def __init__(self, field: Callable[..., object]):
        if not callable(field):
            raise TypeError(f"field must be callable, got {type(field).__name__}")
        self.field = field
        self.calls = 0
        self.evaluations = 0
        self._last_X: torch.Tensor | None = None

    def __call__(self, X: torch.Tensor, *args, **kwargs):
        self.evaluations += 1
        if self._last_X is None or self._last_X.shape != X.shape or not torch.equal(self._last_X, X):
            self.calls += 1
            self._last_X = X.detach().clone()
        return self.field(X, *args, **kwargs)

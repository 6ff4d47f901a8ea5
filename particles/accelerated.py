"""Accelerated (inertial) attention particle systems of seed 000 (SympFormer), Sections 4.3 and 5.2.

Tokens carry a position X_i and a momentum Y_i = ∇Φ_t(X_i); X, Y ∈ R^{N×d} hold them as rows.
Each system is written as its conservative part (the two 'oracles' F, G of Section 6.1) plus the
damping −α_t Y:

    Ẋ = F(X, Y),     Ẏ = −α_t Y + G(X, Y).

Linear attention, Proposition 4.5 (component form) and eq. (28) (matrix form):

    F = (1/N) X A Xᵀ Y,     G = −(1/N) Y Yᵀ X A + X V.

Softmax attention, Proposition 5.2 (component form) and Remark 5.3, eq. (34) (matrix form), with
M_ij = exp(X_iᵀ A X_j), s = M𝟙, R = diag(‖Y_i‖²_B / s_i²), {R, M} = RM + MR, B = V A^{-1}:

    F = N diag(s)^{-1} Y Bᵀ,     G = (N/2) ({R, M} + 2 c M) X A,

where c = 1 is the system as printed. The empirical-measure discretization of the accelerated PDE
(33) gives c = 1/N² instead (see `softmax_characteristics` and the ledger claim
sympformer:prop-5.2): the printed potential force is N² times the mean-field one.

Hamiltonians (conservative parts are (Ẋ, Ẏ) = (∂H/∂Y, −∂H/∂X)):

    H^lin(X, Y) = (1/(2N)) tr(Yᵀ X A Xᵀ Y) − ½ tr(X V Xᵀ)                (derived here; = N·ℋ(ρ_N, Φ))
    H^SM(X, Y)  = (N/2) tr(diag(M𝟙)^{-1} Y Bᵀ Yᵀ) − c (N/2) 𝟙ᵀ M 𝟙        (35), c = 1 printed
    H̃^SM(t, Q, P) = (N/2)(e^{−η(t)} tr(diag(M(Q)𝟙)^{-1} P Bᵀ Pᵀ) − e^{η(t)} 𝟙ᵀ M(Q) 𝟙)   (36).

All functions are torch, float64-friendly, dtype/device from the inputs; matrix forms are computed
in the log domain (logsumexp of the logits X A Xᵀ).
"""
from __future__ import annotations

import math

import torch
from scipy.integrate import solve_ivp

from particles.attention import causal_mask, check_square, check_tokens
from theory.checks import nonnegative, positive

# ------------------------------------------------------------------ validation


def _pair(X, Y) -> tuple[torch.Tensor, torch.Tensor]:
    X, Y = check_tokens(X, "X"), check_tokens(Y, "Y")
    if X.shape != Y.shape:
        raise ValueError(f"X and Y must have the same shape, got {tuple(X.shape)} and {tuple(Y.shape)}")
    return X, Y


def check_B(A: torch.Tensor, B: torch.Tensor, d: int) -> None:
    """Section 5.1 assumes B = V A^{-1} symmetric positive definite (and A symmetric for M = Mᵀ)."""
    check_square(A, "A", d, symmetric=True)
    check_square(B, "B", d, spd=True)


def B_from(A: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """B = V A^{-1}; ValueError unless it is symmetric positive definite (Section 5.1)."""
    d = A.shape[0]
    check_square(A, "A", d, symmetric=True)
    check_square(V, "V", d)
    B = torch.linalg.solve(A.T, V.T).T
    check_square(B, "B = V A^{-1}", d, spd=True, rtol=1e-10)
    return 0.5 * (B + B.T)


# ------------------------------------------------------------------ linear attention (Prop. 4.5)


def linear_component_rhs(X, Y, A, V, alpha: float = 0.0):
    """Proposition 4.5, component form, literally:
    Ẋ_i = (1/N) Σ_j Y_j X_jᵀ A X_i,   Ẏ_i = −α Y_i − (1/N) Σ_j ⟨Y_i, Y_j⟩ A X_j + V X_i."""
    X, Y = _pair(X, Y)
    N, d = X.shape
    A, V = check_square(A, "A", d), check_square(V, "V", d)
    X_dot = torch.einsum("jd,je,ef,if->id", Y, X, A, X) / N
    Y_dot = (-nonnegative(alpha, "alpha") * Y - torch.einsum("ie,je,df,jf->id", Y, Y, A, X) / N
             + torch.einsum("de,ie->id", V, X))
    return X_dot, Y_dot


def linear_oracles(X, Y, A, V, causal: bool = False):
    """Conservative part of eq. (28): F = (1/N) X A Xᵀ Y, G = −(1/N) Y Yᵀ X A + X V.
    With causal=True both N×N interaction matrices are masked to j ≤ i."""
    X, Y = _pair(X, Y)
    N, d = X.shape
    A, V = check_square(A, "A", d), check_square(V, "V", d)
    if not causal:  # associate to the d×d products: O(N d²) (the linear-attention trick)
        return X @ (A @ (X.T @ Y)) / N, -Y @ (Y.T @ X) @ A / N + X @ V
    keep = causal_mask(N, X.device)
    K, YY = (X @ A @ X.T) * keep, (Y @ Y.T) * keep
    return K @ Y / N, -YY @ X @ A / N + X @ V


def linear_matrix_rhs(X, Y, A, V, alpha: float = 0.0, causal: bool = False):
    """Eq. (28): Ẋ = (1/N) X A Xᵀ Y, Ẏ = −α Y − (1/N) Y Yᵀ X A + X V."""
    F, G = linear_oracles(X, Y, A, V, causal)
    return F, G - nonnegative(alpha, "alpha") * Y


def hamiltonian_lin(X, Y, A, V) -> torch.Tensor:
    """H^lin(X, Y) = (1/(2N)) tr(Yᵀ X A Xᵀ Y) − ½ tr(X V Xᵀ), generating the conservative part of
    (28) for symmetric A, V (not printed in the paper; derived: it is N times the Hamiltonian
    functional (8) at ρ_N with ∇Φ(X_i) = Y_i)."""
    X, Y = _pair(X, Y)
    N, d = X.shape
    A, V = check_square(A, "A", d, symmetric=True), check_square(V, "V", d, symmetric=True)
    return 0.5 * torch.trace(Y.T @ X @ A @ X.T @ Y) / N - 0.5 * torch.trace(X @ V @ X.T)


def linear_euler_printed(X, Y, h, alpha_k, A, V):
    """The explicit Euler form printed after Proposition 4.5, literally:
    X⁺ = X + (h/N) X A Xᵀ Y,   Y⁺ = α_k Y − (h/N) Y Yᵀ X A + X V   (no h on X V)."""
    X, Y = _pair(X, Y)
    N, d = X.shape
    h = positive(h, "h")
    A, V = check_square(A, "A", d), check_square(V, "V", d)
    return X + h / N * X @ A @ X.T @ Y, alpha_k * Y - h / N * Y @ Y.T @ X @ A + X @ V


# ------------------------------------------------------------------ softmax attention (Prop. 5.2)


def softmax_component_rhs(X, Y, A, B, alpha: float = 0.0, potential_scale: float = 1.0):
    """Proposition 5.2, component form, literally (M_ij = exp(X_iᵀ A X_j)):
    Ẋ_i = N B Y_i / Σ_j M_ij,
    Ẏ_i = −α Y_i + (N/2) A Σ_j X_j M_ij (‖Y_i‖²_B/(Σ_k M_ik)² + ‖Y_j‖²_B/(Σ_k M_jk)² + 2c),
    with c = potential_scale (1 as printed)."""
    X, Y = _pair(X, Y)
    N, d = X.shape
    check_B(A, B, d)
    M = torch.exp(torch.einsum("id,de,je->ij", X, A, X))
    s = M.sum(dim=1)
    q = torch.einsum("id,de,ie->i", Y, B, Y)  # ‖Y_i‖²_B
    X_dot = N * torch.einsum("de,ie->id", B, Y) / s[:, None]
    bracket = (q / s ** 2)[:, None] + (q / s ** 2)[None, :] + 2 * potential_scale
    Y_dot = -nonnegative(alpha, "alpha") * Y + N / 2 * torch.einsum("de,je,ij->id", A, X, M * bracket)
    return X_dot, Y_dot


def _masked_logits(X, A, causal: bool) -> torch.Tensor:
    L = X @ A @ X.T  # L_ij = X_iᵀ A X_j = log M_ij
    if causal:
        L = L.masked_fill(~causal_mask(X.shape[0], X.device), -math.inf)
    return L


def _softmax_parts(X, Y, A, B, causal: bool, potential_scale: float):
    """F = N diag(M𝟙)^{-1} Y Bᵀ and the interaction matrix W = {R, M} + 2cM of eq. (34),
    in the log domain (M_ij = exp(L_ij), s_i = (M𝟙)_i = exp(logsumexp_j L_ij))."""
    X, Y = _pair(X, Y)
    N, d = X.shape
    check_B(A, B, d)
    L = _masked_logits(X, A, causal)
    lse = torch.logsumexp(L, dim=1)  # log s_i
    q = torch.einsum("id,de,ie->i", Y, B, Y)  # ‖Y_i‖²_B
    F = N * torch.exp(-lse)[:, None] * (Y @ B.T)
    W = (q[:, None] * torch.exp(L - 2 * lse[:, None])        # (R M)_ij = R_ii M_ij
         + torch.exp(L - 2 * lse[None, :]) * q[None, :]       # (M R)_ij = M_ij R_jj
         + 2 * potential_scale * torch.exp(L))                # 2 M_ij
    return F, W


def softmax_oracles(X, Y, A, B, causal: bool = False, potential_scale: float = 1.0):
    """Conservative part (F, G) of Remark 5.3's eq. (34):
    F = N diag(M𝟙)^{-1} Y Bᵀ,  G = (N/2)({R, M} + 2c M) X A,  R = diag(‖Y_i‖²_B / (M𝟙)_i²).
    causal=True masks M to j ≤ i (row sums over j ≤ i), keeping the formula as printed."""
    F, W = _softmax_parts(X, Y, A, B, causal, potential_scale)
    return F, X.shape[0] / 2 * W @ X @ A


def softmax_matrix_rhs(X, Y, A, B, alpha: float = 0.0, causal: bool = False,
                       potential_scale: float = 1.0):
    """Eq. (34): Ẋ = N diag(M𝟙)^{-1} Y Bᵀ, Ẏ = −α Y + (N/2)({R, M} + 2M) X A."""
    F, G = softmax_oracles(X, Y, A, B, causal, potential_scale)
    return F, G - nonnegative(alpha, "alpha") * Y


def hamiltonian_sm(X, Y, A, B, causal: bool = False, potential_scale: float = 1.0) -> torch.Tensor:
    """Eq. (35): H^SM = (N/2) tr(diag(M𝟙)^{-1} Y Bᵀ Yᵀ) − c (N/2) 𝟙ᵀ M 𝟙 (c = 1 as printed)."""
    X, Y = _pair(X, Y)
    N, d = X.shape
    check_B(A, B, d)
    L = _masked_logits(X, A, causal)
    lse = torch.logsumexp(L, dim=1)
    kinetic = N / 2 * torch.sum(torch.exp(-lse) * torch.einsum("id,ed,ie->i", Y, B, Y))
    return kinetic - potential_scale * N / 2 * torch.exp(torch.logsumexp(L.reshape(-1), 0))


def hamiltonian_sm_tilde(eta, Q, P, A, B) -> torch.Tensor:
    """Eq. (36) at η = η(t): (N/2)(e^{−η} tr(diag(M(Q)𝟙)^{-1} P Bᵀ Pᵀ) − e^{η} 𝟙ᵀ M(Q) 𝟙)."""
    Q, P = _pair(Q, P)
    N, d = Q.shape
    check_B(A, B, d)
    L = Q @ A @ Q.T
    lse = torch.logsumexp(L, dim=1)
    kinetic = torch.sum(torch.exp(-lse) * torch.einsum("id,ed,ie->i", P, B, P))
    return N / 2 * (torch.exp(-eta) * kinetic - torch.exp(eta + torch.logsumexp(L.reshape(-1), 0)))


# ------------------------------------------------------------------ the PDE (33) on a weighted measure


def _weighted(Xw, w, name="Xw"):
    Xw = check_tokens(Xw, name)
    if not isinstance(w, torch.Tensor) or w.shape != (Xw.shape[0],):
        raise ValueError(f"w must be a tensor of shape ({Xw.shape[0]},)")
    if not torch.isfinite(w).all() or (w < 0).any():
        raise ValueError("w must be finite and non-negative")
    return Xw


def first_variation_33(x, grad_phi_x, Xw, w, grad_phi_w, A, B):
    """δℋ/δρ(x) as printed in (33) (ℋ the Hamiltonian functional (8) for G^SM, F^SM), for
    ρ = Σ_j w_j δ_{Xw_j}:  ½ ‖∇Φ(x)‖²_B / Z(x) − ½ Σ_j w_j e^{Xw_jᵀ A x}(‖∇Φ(Xw_j)‖²_B / Z(Xw_j)² + 2),
    Z(y) = Σ_k w_k exp(Xw_kᵀ A y). Then (33) reads ∂_t Φ = −α Φ − δℋ/δρ."""
    Xw = _weighted(Xw, w)
    check_B(A, B, Xw.shape[1])
    Ex, Ew = torch.exp(x @ A @ Xw.T), torch.exp(Xw @ A @ Xw.T)  # e^{Xw_jᵀ A x}
    Zx, Zw = Ex @ w, Ew @ w
    qx = torch.einsum("id,de,ie->i", grad_phi_x, B, grad_phi_x)
    qw = torch.einsum("id,de,ie->i", grad_phi_w, B, grad_phi_w)
    return 0.5 * qx / Zx - 0.5 * Ex @ (w * (qw / Zw ** 2 + 2))


def hamiltonian_functional_sm(w, Xw, grad_phi_w, A, B) -> torch.Tensor:
    """ℋ(ρ, Φ) = ½ ∫ Φ (G^SM_ρ)^{-1}[Φ] dx + F^SM(ρ) = ½ Σ_i w_i ‖∇Φ(Xw_i)‖²_B / Z(Xw_i)
    − ½ Σ_{i,j} w_i w_j exp(Xw_jᵀ A Xw_i) for ρ = Σ w_i δ_{Xw_i} (eqs. (8), (29), (32), after
    integration by parts). Differentiating in w gives the first variation at the atoms."""
    Xw = _weighted(Xw, w)
    E = torch.exp(Xw @ A @ Xw.T)
    q = torch.einsum("id,de,ie->i", grad_phi_w, B, grad_phi_w)
    return 0.5 * torch.sum(w * q / (E @ w)) - 0.5 * w @ E @ w


def softmax_characteristics(x, grad_phi_x, Xw, w, grad_phi_w, A, B, alpha: float = 0.0):
    """(33) along characteristics (proof of Proposition 5.2, after (40), Hessian terms cancelled),
    for ρ = Σ_j w_j δ_{Xw_j}, at query points x with momenta ∇Φ(x):
    Ẋ = B ∇Φ(x) / Z(x),
    Ẏ = −α ∇Φ(x) + ½ ‖∇Φ(x)‖²_B / Z(x)² Σ_j w_j e^{Xw_jᵀAx} A Xw_j
        + ½ Σ_j w_j e^{Xw_jᵀAx} (‖∇Φ(Xw_j)‖²_B / Z(Xw_j)² + 2) A Xw_j.
    With w = 1/N and x = Xw = X this is `softmax_component_rhs(..., potential_scale=1/N²)`."""
    Xw = _weighted(Xw, w)
    check_B(A, B, Xw.shape[1])
    Ex, Ew = torch.exp(x @ A @ Xw.T), torch.exp(Xw @ A @ Xw.T)
    Zx, Zw = Ex @ w, Ew @ w
    qx = torch.einsum("id,de,ie->i", grad_phi_x, B, grad_phi_x)
    qw = torch.einsum("id,de,ie->i", grad_phi_w, B, grad_phi_w)
    X_dot = grad_phi_x @ B.T / Zx[:, None]
    AXw = Xw @ A.T
    Y_dot = (-nonnegative(alpha, "alpha") * grad_phi_x + 0.5 * (qx / Zx ** 2)[:, None] * ((Ex * w) @ AXw)
             + 0.5 * (Ex * (w * (qw / Zw ** 2 + 2))) @ AXw)
    return X_dot, Y_dot


# ------------------------------------------------------------------ Example 5.5, as printed


def example_5_5_euler_printed(X, Y, tau, alpha_k, A, B):
    """Example 5.5, 'plain explicit Euler (14)' for (34), literally:
    X⁺ = X + τN diag(M𝟙)^{-1} Y Bᵀ,  Y⁺ = −α_k Y + (τ/2) N ({R, M} + 2M) X⁺ A,
    with M, R evaluated at (X, Y) (note −α_k and X⁺, where (14) has +α_k and X)."""
    tau = positive(tau, "tau")
    F, W = _softmax_parts(X, Y, A, B, False, 1.0)
    X_next = X + tau * F
    return X_next, -alpha_k * Y + tau * X.shape[0] / 2 * W @ X_next @ A


def example_5_5_expeuler_printed(X, Y, h, sigma_k, weight, A, B):
    """Example 5.5, 'exponential Euler (16)' for (34), literally:
    X⁺ = X + hN diag(M𝟙)^{-1} Y Bᵀ,  Y⁺ = σ_k Y + h · w · (N/2)({R, M} + 2M) X A,
    where w = ∫_0^h exp(−∫_s^h α) ds is passed as `weight` (the printed update multiplies it by h)."""
    h = positive(h, "h")
    F, G = softmax_oracles(X, Y, A, B)
    return X + h * F, sigma_k * Y + h * weight * G



# ------------------------------------------------------------------ accurate reference trajectories


def solve_particles(oracles, X0, Y0, alpha, t_eval, t0: float = 0.0, rtol: float = 1e-11,
                    atol: float = 1e-12):
    """Integrate Ẋ = F(X, Y), Ẏ = −α(t) Y + G(X, Y) from (X0, Y0) at time t0 with scipy's DOP853.

    `oracles(X, Y) -> (F, G)` is any conservative part above (e.g. a `functools.partial` of
    `linear_oracles`); `alpha` is a callable t ↦ α(t) ≥ 0 or a constant. Returns (X, Y) of shape
    (len(t_eval), N, d) in the dtype of X0."""
    X0, Y0 = _pair(X0, Y0)
    shape, n = X0.shape, X0.numel()
    damping = alpha if callable(alpha) else (lambda t, a=nonnegative(alpha, "alpha"): a)

    def f(t, z):
        Z = torch.as_tensor(z, dtype=X0.dtype)
        X, Y = Z[:n].reshape(shape), Z[n:].reshape(shape)
        F, G = oracles(X, Y)
        return torch.cat([F.reshape(-1), (G - damping(t) * Y).reshape(-1)]).numpy()

    z0 = torch.cat([X0.reshape(-1), Y0.reshape(-1)]).numpy()
    t_eval = [float(t) for t in t_eval]
    sol = solve_ivp(f, (t0, t_eval[-1]), z0, method="DOP853", t_eval=t_eval, rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(f"solve_ivp failed: {sol.message}")
    Z = torch.as_tensor(sol.y.T, dtype=X0.dtype)
    return Z[:, :n].reshape(-1, *shape), Z[:, n:].reshape(-1, *shape)

"""Symplectic linear algebra: canonical forms, defects, volumes; numeric (numpy) and exact (sympy).

Conventions (seed 001, §1 and §4): a phase-space point is z = (q, p) ∈ R^{2d} and

    J_{2d} = [[0, I_d], [-I_d, 0]],        V_H(z) = J_{2d} ∇H(z).

A map φ is symplectic when Dφᵀ J Dφ = J, conformally symplectic with factor σ when
Dφᵀ J Dφ = σ J, and volume preserving when |det Dφ| = 1.

For T tokens z^(1), …, z^(T) ∈ R^{2d}, seed 001 eq. (17) puts the form
J̃(z, z̄) = Σ_t z^(t)ᵀ J_{2d} z̄^(t) on the product space. Eq. (18) identifies the 2d×T matrix
Z = [Q; P] (column t is z^(t)) with Z_vec = (q_1^(1..T), …, q_d^(1..T), p_1^(1..T), …), which is
Z flattened row by row; under that identification J̃ becomes J_{2dT} (eq. (23)).

Jacobians are computed elsewhere (particles.geometry, with torch.func); everything here takes
matrices, batched over leading axes.
"""
from __future__ import annotations

import numpy as np
import sympy as sp
from theory.checks import positive_int as _positive_int

# ------------------------------------------------------------------ validation


def _square_batch(D, name: str = "D") -> np.ndarray:
    D = np.asarray(D, dtype=np.float64)
    if D.ndim < 2 or D.shape[-1] != D.shape[-2]:
        raise ValueError(f"{name} must be a (batch of) square matrices, got shape {D.shape}")
    if not np.all(np.isfinite(D)):
        raise ValueError(f"{name} contains NaN or inf")
    return D


def _even(n: int, name: str) -> int:
    if n % 2:
        raise ValueError(f"{name} must be even-dimensional (2d), got {n}")
    return n // 2


# ------------------------------------------------------------------ canonical forms


def canonical_J(d: int) -> np.ndarray:
    """J_{2d} = [[0, I_d], [-I_d, 0]] (seed 001 §1)."""
    d = _positive_int(d, "d")
    eye, zero = np.eye(d), np.zeros((d, d))
    return np.block([[zero, eye], [-eye, zero]])


def product_J(d: int, T: int) -> np.ndarray:
    """The form J̃ of seed 001 eq. (17) on R^{2d} × … × R^{2d} (token-major order): I_T ⊗ J_{2d}."""
    return np.kron(np.eye(_positive_int(T, "T")), canonical_J(d))


def reorder_permutation(d: int, T: int) -> np.ndarray:
    """Permutation matrix P with Z_vec = P · (z^(1), …, z^(T)) (seed 001 eq. (18)).

    Token-major index t·2d + r (row r of column t of Z) goes to row-major index r·T + t.
    Then P (I_T ⊗ J_{2d}) Pᵀ = J_{2dT}, which is the content of eq. (23).
    """
    d, T = _positive_int(d, "d"), _positive_int(T, "T")
    n = 2 * d * T
    P = np.zeros((n, n))
    for t in range(T):
        for r in range(2 * d):
            P[r * T + t, t * 2 * d + r] = 1.0
    return P


def vec(Z: np.ndarray) -> np.ndarray:
    """Z (2d × T, columns are tokens) ↦ Z_vec of eq. (18): the row-major flattening."""
    Z = np.asarray(Z)
    if Z.ndim != 2:
        raise ValueError(f"Z must be a 2d×T matrix, got shape {Z.shape}")
    _even(Z.shape[0], "Z.shape[0]")
    return Z.reshape(-1)


def unvec(z: np.ndarray, T: int) -> np.ndarray:
    """Inverse of `vec`."""
    z = np.asarray(z)
    T = _positive_int(T, "T")
    if z.ndim != 1 or z.size % (2 * T):
        raise ValueError(f"z must be a vector of length 2dT with T={T}, got shape {z.shape}")
    return z.reshape(-1, T)


def stiefel_lift(Phi: np.ndarray, atol: float = 1e-10) -> np.ndarray:
    """The PSD-like matrix diag(Φ, Φ): R^{2d} → R^{2N} of seed 001 eq. (29), Φ ∈ St(d, N)."""
    Phi = np.asarray(Phi, dtype=np.float64)
    if Phi.ndim != 2 or Phi.shape[0] < Phi.shape[1]:
        raise ValueError(f"Phi must be N×d with N >= d, got shape {Phi.shape}")
    if not np.all(np.isfinite(Phi)):
        raise ValueError("Phi contains NaN or inf")
    err = np.linalg.norm(Phi.T @ Phi - np.eye(Phi.shape[1]))
    if err > atol:
        raise ValueError(f"Phi must have orthonormal columns (ΦᵀΦ = I); ‖ΦᵀΦ − I‖ = {err:.3g}")
    zero = np.zeros_like(Phi)
    return np.block([[Phi, zero], [zero, Phi]])


# ------------------------------------------------------------------ defects (numeric)


def symplectic_defect(D, J_out: np.ndarray | None = None, J_in: np.ndarray | None = None):
    """‖Dᵀ J_out D − J_in‖_F, batched over leading axes of D (…, m, n).

    J_out defaults to the canonical form of the output space, J_in to that of the input space, so
    maps between spaces of different dimension (eq. (31)) are covered.
    """
    return conformal_defect(D, 1.0, J_out, J_in)


def conformal_defect(D, sigma, J_out: np.ndarray | None = None, J_in: np.ndarray | None = None):
    """‖Dᵀ J_out D − σ J_in‖_F: zero iff D is conformally symplectic with factor σ."""
    return np.linalg.norm(conformal_residual(D, sigma, J_out, J_in), axis=(-2, -1))


def conformal_residual(D, sigma, J_out: np.ndarray | None = None, J_in: np.ndarray | None = None):
    """Dᵀ J_out D − σ J_in (batched; σ a number or an array over the batch). The one place this
    residual is computed: `particles.verify` evaluates it on torch Jacobians."""
    D = np.asarray(D, dtype=np.float64)
    if D.ndim < 2:
        raise ValueError(f"D must be a (batch of) matrices, got shape {D.shape}")
    if not np.all(np.isfinite(D)):
        raise ValueError("D contains NaN or inf")
    m, n = D.shape[-2:]
    J_out = canonical_J(_even(m, "rows of D")) if J_out is None else np.asarray(J_out)
    J_in = canonical_J(_even(n, "columns of D")) if J_in is None else np.asarray(J_in)
    if J_out.shape != (m, m) or J_in.shape != (n, n):
        raise ValueError(f"J_out {J_out.shape} / J_in {J_in.shape} do not fit D {D.shape[-2:]}")
    sigma = np.asarray(sigma, dtype=np.float64)[..., None, None]
    return np.swapaxes(D, -1, -2) @ J_out @ D - sigma * J_in


def log_volume(D):
    """log|det D| (0 iff volume preserving), batched; -inf for singular D."""
    return signed_log_volume(D)[1]


def signed_log_volume(D) -> tuple[np.ndarray, np.ndarray]:
    """(sign of det D, log|det D|) by slogdet, batched (`particles.verify` reports the sign)."""
    return np.linalg.slogdet(_square_batch(D))


def best_conformal_factor(D, J: np.ndarray | None = None):
    """The least-squares σ in Dᵀ J D ≈ σ J: ⟨DᵀJD, J⟩_F / ‖J‖_F², batched."""
    D = _square_batch(D)
    J = canonical_J(_even(D.shape[-1], "D")) if J is None else np.asarray(J)
    M = np.swapaxes(D, -1, -2) @ J @ D
    return np.einsum("...ij,ij->...", M, J) / np.sum(J * J)


# ------------------------------------------------------------------ exact (sympy)


def canonical_J_sym(d: int) -> sp.Matrix:
    """J_{2d} as an exact sympy matrix."""
    return sp.Matrix(canonical_J(d).astype(int))


def jacobian_sym(phi: list[sp.Expr] | sp.Matrix, z: list[sp.Symbol]) -> sp.Matrix:
    phi = sp.Matrix(phi)
    return phi.jacobian(sp.Matrix(z))


def symplectic_residual_sym(phi, z, sigma: sp.Expr = sp.Integer(1)) -> sp.Matrix:
    """Dφᵀ J Dφ − σ J, simplified entrywise: the zero matrix is a proof of (conformal)
    symplecticity for all values of the symbols involved."""
    D = jacobian_sym(phi, z)
    m, n = D.shape
    J_out, J_in = canonical_J_sym(_even(m, "len(phi)")), canonical_J_sym(_even(n, "len(z)"))
    return (D.T * J_out * D - sigma * J_in).applyfunc(lambda e: sp.simplify(sp.expand(e)))


def is_symplectic_sym(phi, z, sigma: sp.Expr = sp.Integer(1)) -> bool:
    return symplectic_residual_sym(phi, z, sigma).is_zero_matrix is True

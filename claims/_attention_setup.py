"""Shared setup of the seed-000 attention claims (Sections 4-5 and the abstract): float64 tensors,
random SPD / symmetric matrices, the fixed linear-attention problem of Proposition 4.3 and the
commuting (A, B) of Section 5.1. Used by claims/sympformer/linear.py, sympformer/softmax.py and
sympformer/abstract.py.
"""
from __future__ import annotations

import numpy as np
import torch

DT = torch.float64


def f64(a) -> torch.Tensor:
    return torch.as_tensor(np.asarray(a, dtype=np.float64), dtype=DT)


def random_spd(rng: np.random.Generator, d: int, lo: float = 0.5) -> np.ndarray:
    Q = rng.standard_normal((d, d))
    return Q @ Q.T / d + lo * np.eye(d)


def random_sym(rng: np.random.Generator, d: int) -> np.ndarray:
    Q = rng.standard_normal((d, d))
    return 0.5 * (Q + Q.T)


def rel_error(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300))


def nesterov_alpha(t: float) -> float:
    """α_t = 3/t (the Nesterov damping of (2)-(3)); the linear-attention checks start at t0 = 1."""
    return 3.0 / t


LINEAR_SETUP = {"d": 2, "t0": 1.0, "T": 3.0, "m0": [0.6, -0.4], "v": 5.0}


def linear_problem():
    """A SPD, V symmetric indefinite, Σ_0 SPD (fixed, O(1) scales: the quadratic moment ODEs blow up
    in finite time for large A, Σ_0 or V, and [1, 3] stays well inside the existence interval)."""
    A = np.array([[1.0, 0.3], [0.3, 0.6]])
    V = np.array([[-0.5, 0.2], [0.2, 0.3]])
    Sigma0 = np.array([[0.4, 0.1], [0.1, 0.25]])
    return A, V, Sigma0


def commuting_AB(rng: np.random.Generator, d: int, scale: float = 0.5):
    """A, B symmetric positive definite with a common eigenbasis, so that V = B A is symmetric too
    and B = V A^{-1} is SPD (Section 5.1's assumption)."""
    U, _ = np.linalg.qr(rng.standard_normal((d, d)))
    a, b = scale * rng.uniform(0.5, 1.5, d), rng.uniform(0.5, 1.5, d)
    A, B = U @ np.diag(a) @ U.T, U @ np.diag(b) @ U.T
    return f64(0.5 * (A + A.T)), f64(0.5 * (B + B.T)), f64(B @ A)

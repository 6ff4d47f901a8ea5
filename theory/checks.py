"""Input validation shared by every layer: each check names the parameter it rejects.

`real`, `positive`, `nonnegative` and `positive_int` return the value as a Python float / int
or raise TypeError (wrong type) / ValueError (NaN, inf, out of range) with the parameter's name.
"""
from __future__ import annotations

import math

import numpy as np

_REAL = (int, float, np.integer, np.floating)


def real(value, name: str) -> float:
    """A finite real number (bools are rejected: they are flags, not numbers)."""
    if isinstance(value, bool) or not isinstance(value, _REAL):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def positive(value, name: str) -> float:
    value = real(value, name)
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    return value


def nonnegative(value, name: str) -> float:
    value = real(value, name)
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value


def positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be >= 1, got {value}")
    return int(value)


def square_matrix(M, name: str, d: int | None = None) -> np.ndarray:
    """M as a finite float64 square matrix (d×d when `d` is given)."""
    M = np.asarray(M, dtype=np.float64)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {M.shape}")
    if d is not None and M.shape[0] != d:
        raise ValueError(f"{name} must be {d}×{d}, got shape {M.shape}")
    if not np.all(np.isfinite(M)):
        raise ValueError(f"{name} contains NaN or inf")
    return M


def symmetric(M, name: str, d: int | None = None, rtol: float = 1e-12) -> np.ndarray:
    """M unchanged; ValueError unless ‖M − Mᵀ‖_F ≤ rtol·max(1, ‖M‖_F)."""
    M = square_matrix(M, name, d)
    asym = np.linalg.norm(M - M.T)
    if asym > rtol * max(1.0, np.linalg.norm(M)):
        raise ValueError(f"{name} must be symmetric; ‖{name} − {name}ᵀ‖_F = {asym:.3g}")
    return M


def spd(M, name: str, d: int | None = None, rtol: float = 1e-12) -> np.ndarray:
    """M unchanged; ValueError unless M is symmetric positive definite."""
    M = symmetric(M, name, d, rtol)
    lam_min = np.linalg.eigvalsh(0.5 * (M + M.T))[0]
    if lam_min <= 0:
        raise ValueError(f"{name} must be positive definite; smallest eigenvalue {lam_min:.3g}")
    return M

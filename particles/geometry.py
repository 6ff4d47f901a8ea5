"""Jacobians of torch maps with `torch.func` (jacrev + vmap), and the symplectic diagnostics of
`theory.symplectic` evaluated on them.

A map `f` acts on one point x of shape `event_shape`; `jacobian(f, x)` takes a batch of points
(shape `batch + event_shape`) and returns the flattened Jacobians (batch + (m, n)), with m and n
the flattened output and input sizes. Matrices such as a 2d×T token cloud Z are flattened row by
row, which is exactly the Z_vec identification of seed 001 eq. (18).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np
import torch
from torch.func import jacrev, vmap

from theory import symplectic


def _check_points(x: torch.Tensor, event_dims: int) -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if x.dtype != torch.float64:
        raise TypeError(f"x must be float64 for geometric diagnostics, got {x.dtype}")
    if x.ndim < event_dims:
        raise ValueError(f"x must have at least {event_dims} event dims, got shape {tuple(x.shape)}")
    if not torch.isfinite(x).all():
        raise ValueError("x contains NaN or inf")


def jacobian(f: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor,
             event_dims: int = 1) -> torch.Tensor:
    """Batched Jacobian of `f` at the points `x` (the last `event_dims` axes are one point)."""
    _check_points(x, event_dims)
    batch = x.shape[: x.ndim - event_dims]
    event = x.shape[x.ndim - event_dims:]
    n = math.prod(event)

    def flat(v: torch.Tensor) -> torch.Tensor:
        return f(v.reshape(event)).reshape(-1)

    xs = x.reshape(-1, n)
    D = vmap(jacrev(flat))(xs)
    return D.reshape(*batch, D.shape[-2], n)


def _np(D: torch.Tensor) -> np.ndarray:
    return D.detach().cpu().numpy()


def symplectic_defect(f, x: torch.Tensor, event_dims: int = 1, J_out=None, J_in=None) -> np.ndarray:
    """‖Dfᵀ J Df − J‖_F at each point of the batch `x`."""
    return symplectic.symplectic_defect(_np(jacobian(f, x, event_dims)), J_out, J_in)


def conformal_defect(f, x: torch.Tensor, sigma, event_dims: int = 1) -> np.ndarray:
    """‖Dfᵀ J Df − σ J‖_F at each point of the batch `x`."""
    return symplectic.conformal_defect(_np(jacobian(f, x, event_dims)), sigma)


def log_volume(f, x: torch.Tensor, event_dims: int = 1) -> np.ndarray:
    """log|det Df| at each point of the batch `x`."""
    return symplectic.log_volume(_np(jacobian(f, x, event_dims)))

"""The float64 front of `particles.verify` for the toolkit's theory checks: Jacobians of torch maps
and their symplectic diagnostics as numpy arrays.

The measurements live in `particles.verify` (one implementation: Jacobians by `torch.func`,
residuals DᵀJD − σJ, slogdet); this module adds only what the theory checks want on top: float64
points (the toolkit's convention for every theory check; `particles.verify` also accepts float32)
and numpy results with the Frobenius norms of `theory.symplectic`.

A map `f` acts on one point x of shape `event_shape`; `jacobian(f, x)` takes a batch of points
(shape `batch + event_shape`) and returns the flattened Jacobians (batch + (m, n)), with m and n
the flattened output and input sizes. Matrices such as a 2d×T token cloud Z are flattened row by
row, which is exactly the Z_vec identification of seed 001 eq. (18).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import torch

from particles import verify


def _float64(x) -> torch.Tensor:
    if isinstance(x, torch.Tensor) and x.dtype != torch.float64:
        raise TypeError(f"x must be float64 for geometric diagnostics, got {x.dtype} "
                        "(particles.verify accepts float32)")
    return x


def jacobian(f: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor,
             event_dims: int = 1) -> torch.Tensor:
    """Batched Jacobian of `f` at the float64 points `x` (`particles.verify.jacobian`)."""
    return verify.jacobian(f, _float64(x), event_dims=event_dims)


def symplectic_defect(f, x: torch.Tensor, event_dims: int = 1, J_out=None, J_in=None) -> np.ndarray:
    """‖Dfᵀ J_out Df − J_in‖_F at each point of the batch `x` (canonical forms by default)."""
    R, _ = verify.symplectic_residual(f, _float64(x), J=J_in, J_out=J_out, event_dims=event_dims)
    return torch.linalg.matrix_norm(R).cpu().numpy()


def conformal_defect(f, x: torch.Tensor, sigma, event_dims: int = 1) -> np.ndarray:
    """‖Dfᵀ J Df − σ J‖_F at each point of the batch `x`."""
    R, _ = verify.symplectic_residual(f, _float64(x), factor=sigma, event_dims=event_dims)
    return torch.linalg.matrix_norm(R).cpu().numpy()


def log_volume(f, x: torch.Tensor, event_dims: int = 1) -> np.ndarray:
    """log|det Df| at each point of the batch `x`."""
    return verify.log_volume(f, _float64(x), event_dims=event_dims)[1].cpu().numpy()

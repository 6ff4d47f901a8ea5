"""Hypothesis strategies for torch-side inputs: particle (token) clouds and token batches, plus the
matrix strategies of `theory.strategies` (numpy float64; `torch.from_numpy` turns them into
tensors). For `@given` in anyone's test file (needs the `test` extra: hypothesis).

    from hypothesis import given
    from particles.strategies import particle_clouds, token_batches
    from particles.verify import assert_causal

    @given(token_batches(T=st.integers(2, 16), vocab_size=V))
    def test_my_decoder_is_causal(idx):
        assert_causal(my_decoder, idx, vocab_size=V)

tests/test_strategies.py checks every promise stated below.
"""
from __future__ import annotations

import numpy as np
import torch
from hypothesis import reject
from hypothesis import strategies as st

from theory.checks import positive_int
from theory.strategies import (log_range, sizes, skew_symmetric_matrices, spd_matrices,
                               symplectic_matrices)

__all__ = ["particle_clouds", "token_batches", "spd_matrices", "skew_symmetric_matrices",
           "symplectic_matrices"]

_SEEDS = st.integers(0, 2**32 - 1)


def particle_clouds(N=st.integers(1, 16), d=st.integers(1, 4), radius=(0.1, 10.0),
                    dtype: torch.dtype = torch.float64, device=None) -> st.SearchStrategy[torch.Tensor]:
    """Clouds of N particles in R^d: tensors (N, d) of `dtype` on `device`, the rows drawn
    uniformly in the cube [−r, r]^d with r log-uniform in `radius`: finite, |x_ij| ≤ r ≤
    radius[1] (up to the rounding to `dtype`), pairwise distinct rows (redrawn in the measure-zero event of a repeat). N and d
    are ints or strategies."""
    if not (isinstance(dtype, torch.dtype) and dtype.is_floating_point):
        raise TypeError(f"dtype must be a floating torch dtype, got {dtype!r}")
    r_lo, r_hi = log_range(radius, "radius")
    Ns, ds = sizes(N, "N"), sizes(d, "d")

    @st.composite
    def draw_cloud(draw) -> torch.Tensor:
        n, k = draw(Ns), draw(ds)
        r = r_lo if r_lo == r_hi else float(np.exp(draw(st.floats(np.log(r_lo), np.log(r_hi)))))
        X = torch.from_numpy(r * np.random.default_rng(draw(_SEEDS)).uniform(-1, 1, (n, k)))
        X = X.to(dtype=dtype, device=device)
        if len(torch.unique(X, dim=0)) < n:  # rounding to dtype merged two particles
            reject()
        return X

    return draw_cloud()


def token_batches(batch=st.integers(1, 4), T=st.integers(1, 32), vocab_size: int = 256,
                  device=None) -> st.SearchStrategy[torch.Tensor]:
    """Batches of token sequences: LongTensors (batch, T) on `device` with entries in
    [0, vocab_size), uniformly drawn. batch and T are ints or strategies."""
    V = positive_int(vocab_size, "vocab_size")
    Bs, Ts = sizes(batch, "batch"), sizes(T, "T")

    @st.composite
    def draw_tokens(draw) -> torch.Tensor:
        b, t = draw(Bs), draw(Ts)
        idx = np.random.default_rng(draw(_SEEDS)).integers(0, V, (b, t))
        return torch.from_numpy(idx).to(dtype=torch.long, device=device)

    return draw_tokens()

"""torch_threads(n): run a block, or decorate a function, with `n` intra-op torch threads.

The particle systems and models of the checks are tiny (N up to a few thousand, widths 32-128):
their cost is per-op overhead, and on a shared 2-core machine the idle threads of a larger pool
spin and multiply it (measured 83 ms vs 0.4 ms per evaluation of seed 000 eq. (28) at N = 200).
The previous setting is restored afterwards; `None` leaves torch's setting alone.
"""
from __future__ import annotations

from contextlib import contextmanager

import torch


@contextmanager
def torch_threads(n: int | None):
    if n is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)

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

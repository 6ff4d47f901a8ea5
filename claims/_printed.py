"""Printed numbers as readings: a number printed to k digits stands for its rounding interval
(issue 28: printed rounding is part of the reading)."""
from __future__ import annotations

import itertools
from decimal import Decimal

import numpy as np


def printed_interval(text: str, exact: bool = False) -> tuple[float, float] | tuple[Decimal, Decimal]:
    """The values a number printed as `text` stands for: its rounding interval at the printed
    digits, half-open ("0.0306" -> [0.03055, 0.03065), so adjacent printed values do not overlap);
    an integer's trailing zeros are not significant: "40" -> [35, 45), "15" -> [14.5, 15.5).
    Computed in exact decimals; `exact` returns them as `Decimal` (for comparisons of adjacent
    printed values, whose shared end two float computations may round apart), else as floats."""
    value = Decimal(text)
    _, digits, exponent = value.as_tuple()
    if "." not in text:
        exponent = len(digits) - len("".join(map(str, digits)).rstrip("0") or "0")
    half = Decimal(1).scaleb(exponent) / 2
    lo, hi = value - half, value + half
    return (lo, hi) if exact else (float(lo), float(hi))


def rounds_to(value: float, text: str, scale: float = 1.0) -> bool:
    """A recomputed `value` lies in the rounding interval of the number printed as `text` in units
    of `scale` ("4.92B": `rounds_to(v, "4.92", 1e9)`), half-open as `printed_interval`."""
    lo, hi = printed_interval(text)
    return lo * scale <= value < hi * scale


# float rounding of the recomputed ends (values below 10^3 carry errors below 1e-13)
ROUNDING = 1e-12


def meets(interval: tuple[float, float], lo: float, hi: float) -> bool:
    """A printed number's rounding interval [p_lo, p_hi) (half-open: `printed_interval`) meets the
    values [lo, hi] recomputed from printed inputs: they overlap by more than float rounding, or the
    recomputed value is one point inside. The recomputed ends are themselves limits of half-open
    boxes (a difference a − b of two rounding intervals never reaches a_lo − b_hi nor a_hi − b_lo), so
    intervals that only touch, 0.0655 against [0.0655, 0.0665), do not meet."""
    p_lo, p_hi = interval
    if hi - lo <= ROUNDING:
        return p_lo - ROUNDING <= lo < p_hi - ROUNDING
    return min(p_hi, hi) - max(p_lo, lo) > ROUNDING


def derived_range(f, *printed: str, grid: int = 5) -> tuple[float, float]:
    """The range of f over the rounding box of its printed inputs (every input on a grid of
    `grid` points of its interval, endpoints included: f is monotone in each input here, so the
    extremes are at corners, and the grid also covers gentle curvature)."""
    axes = [np.linspace(*printed_interval(t), grid) for t in printed]
    values = [f(*point) for point in itertools.product(*axes)]
    return min(values), max(values)

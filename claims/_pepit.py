"""Optional PEPit cross-checks (the `pepit` extra): exact worst cases over a function class.

Each helper returns None when PEPit is not installed, so a claim decides without it and adds the
PEPit numbers to its evidence when present; `available()` says which, and a claim that skips its
cross-check records `SKIPPED` in its evidence (issue 27: every command runs on the core install).
The method is run by `theory.rates.run_momentum` on PEPit points, so the iteration checked is
literally the one the claims use.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from theory.rates import Momentum, run_momentum

SKIPPED = "cross-check skipped: PEPit not installed"


def available() -> bool:
    """True when PEPit (the `pepit` extra) can be imported."""
    try:
        import PEPit  # noqa: F401
    except ImportError:
        return False
    return True


def worst_case(function_class: str, steps: Sequence[Momentum], metric: str, *, L: float,
               mu: float = 0.0, solver_options: Mapping[str, Any] | None = None) -> float | None:
    """max over f in the class and x_0 with ‖x_0 − x*‖² ≤ 1 of the metric at the last iterate.

    function_class: "smooth-convex" (L), "smooth-strongly-convex" (μ, L) or "quadratic"
    (½xᵀQx with μ ≤ Q ≤ L, Bousselmi–Hendrickx–Glineur interpolation);
    metric: "distance" ‖x_N − x*‖² or "value" f(x_N) − f*; solver_options: passed to cvxpy's solve
    (default: PEPit's choice, SCS at its default accuracy when MOSEK is absent)."""
    try:
        from PEPit import PEP
        from PEPit.functions import (SmoothConvexFunction, SmoothStronglyConvexFunction,
                                     SmoothStronglyConvexQuadraticFunction)
    except ImportError:
        return None
    classes = {"smooth-convex": (SmoothConvexFunction, {"L": L}),
               "smooth-strongly-convex": (SmoothStronglyConvexFunction, {"mu": mu, "L": L}),
               "quadratic": (SmoothStronglyConvexQuadraticFunction, {"mu": mu, "L": L})}
    if function_class not in classes:
        raise ValueError(f"function_class must be one of {sorted(classes)}, got {function_class!r}")
    if metric not in ("distance", "value"):
        raise ValueError(f"metric must be 'distance' or 'value', got {metric!r}")
    cls, params = classes[function_class]
    problem = PEP()
    f = problem.declare_function(cls, **params)
    xs = f.stationary_point()
    fs = f(xs)
    x0 = problem.set_initial_point()
    problem.set_initial_condition((x0 - xs) ** 2 <= 1)
    xN = run_momentum(f.gradient, x0, steps)[-1]
    problem.set_performance_metric((xN - xs) ** 2 if metric == "distance" else f(xN) - fs)
    return float(problem.solve(verbose=0, **(solver_options or {})))

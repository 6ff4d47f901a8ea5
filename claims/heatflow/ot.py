"""Seed 003, slides "Notation" and "Optimal Transport": push-forwards, couplings and Brenier's
theorem, the optimal-transport facts the slides recall before the entropic problem.

Discrete measures are exact (rational weights); the Gaussian case uses the closed forms of
theory/gaussian_ot.py; discrete optimal couplings of uniform clouds are assignments (Hungarian
method, scipy's linear_sum_assignment).
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from scipy.optimize import linear_sum_assignment

from claims import Evidence, claim, decide
from theory import gaussian_ot as go

SEED = 3


def pushforward(weights: dict, T) -> dict:
    """T#μ for μ = Σ aᵢδ_{xᵢ} given as {x: a}: ν(A) = μ(T⁻¹(A)), i.e. the weights of T-images summed."""
    out: dict = {}
    for x, a in weights.items():
        out[T(x)] = out.get(T(x), 0) + a
    return out


def graph_coupling(weights: dict, T) -> dict:
    """(Id, T)#μ as {(x, T(x)): a}."""
    return {(x, T(x)): a for x, a in weights.items()}


def in_couplings(gamma: dict, mu: dict, nu: dict) -> bool:
    """γ ∈ Π(μ, ν): γ(A × ℝ) = μ(A) and γ(ℝ × B) = ν(B) for every atom (hence every set)."""
    first, second = {}, {}
    for (x, y), g in gamma.items():
        first[x] = first.get(x, 0) + g
        second[y] = second.get(y, 0) + g
    clean = lambda m: {k: v for k, v in m.items() if v != 0}
    return clean(first) == clean(mu) and clean(second) == clean(nu)


def _random_instance(rng: np.random.Generator):
    """μ on n atoms with rational weights, a map T into m < n points (so it may merge atoms),
    and ν either T#μ or T#μ with mass moved between two atoms."""
    n, m = int(rng.integers(2, 7)), int(rng.integers(1, 5))
    raw = rng.integers(1, 9, n)
    mu = {i: Fraction(int(r), int(raw.sum())) for i, r in enumerate(raw)}
    image = rng.integers(0, m, n)
    T = lambda x: int(image[x])
    nu = pushforward(mu, T)
    if rng.random() < 0.5 and len(nu) > 1:
        a, b = sorted(nu)[:2]
        moved = min(nu[a], Fraction(1, 97))
        nu = nu | {a: nu[a] - moved, b: nu[b] + moved}
    return mu, T, nu


@claim("heatflow:pushforward-coupling", locator="slide 'Notation' (Transport Map)",
       statement="T#μ = ν if and only if (Id, T)#μ ∈ Π(μ, ν)",
       method="property", expect="holds",
       paper_text=r"A measurable function $T: \mathbb{R}^d \to \mathbb{R}^d$ is a push forward from μ to ν , "
                  r"denoted by $T_{\#}\mu = \nu$, if for all measurable $A \subset \mathbb{R}^d$, "
                  r"$$\nu(A) = \mu(T^{-1}(A))$$ $T_{\#}\mu = \nu$ if and only if $(Id, T)_{\#}\mu \in "
                  r"\Pi(\mu, \nu)$.")
def pushforward_coupling(budget: str) -> Evidence:
    rng = np.random.default_rng(SEED)
    trials = 200 if budget == "quick" else 5000
    agree, pushes, sets_checked = 0, 0, 0
    for _ in range(trials):
        mu, T, nu = _random_instance(rng)
        is_push = pushforward(mu, T) == {k: v for k, v in nu.items() if v != 0}
        # the definition ν(A) = μ(T⁻¹(A)) on every subset A of the atoms of ν and of T's image
        atoms = sorted(set(nu) | {T(x) for x in mu})
        by_sets = all(sum((nu.get(y, 0) for y in A), Fraction(0)) ==
                      sum((a for x, a in mu.items() if T(x) in A), Fraction(0))
                      for r in range(len(atoms) + 1) for A in itertools.combinations(atoms, r))
        sets_checked += 2 ** len(atoms)
        coupled = in_couplings(graph_coupling(mu, T), mu, nu)
        agree += (is_push == coupled == by_sets)
        pushes += is_push
    return decide(
        agree == trials,
        criterion="on random discrete μ (rational weights, exact arithmetic) and maps T that may "
                  "merge atoms, with ν = T#μ or a perturbed ν: 'ν(A) = μ(T⁻¹(A)) for every set A' "
                  "and '(Id, T)#μ ∈ Π(μ, ν)' agree in every trial",
        numbers={"trials": trials, "agreeing": agree, "trials_with_nu_the_pushforward": pushes,
                 "sets_checked": sets_checked})


def brenier_map_gaussian(S1, S2) -> np.ndarray:
    """The optimal map between N(0, S1) and N(0, S2): T = S1^{-1/2}(S1^{1/2} S2 S1^{1/2})^{1/2}S1^{-1/2},
    the gradient of the convex quadratic ½xᵀTx."""
    r, ri = go.sym_fn(S1, np.sqrt), go.sym_fn(S1, lambda v: 1 / np.sqrt(v))
    return ri @ go.sym_fn(r @ S2 @ r, lambda v: np.sqrt(np.clip(v, 0, None))) @ ri


def _linear_pushforwards(S1, S2, angles) -> list[np.ndarray]:
    """Linear maps L with L S1 Lᵀ = S2 (those pushing N(0, S1) to N(0, S2)): L = S2^{1/2} U S1^{-1/2},
    U ∈ O(2), here the rotation and the reflection of each angle."""
    r2, ri1 = go.sym_fn(S2, np.sqrt), go.sym_fn(S1, lambda v: 1 / np.sqrt(v))
    out = []
    for a in angles:
        c, s = np.cos(a), np.sin(a)
        for U in (np.array([[c, -s], [s, c]]), np.array([[c, s], [s, -c]])):
            out.append(r2 @ U @ ri1)
    return out


def _is_convex_gradient(L, tol: float) -> bool:
    """A linear map is the gradient of a convex function iff it is symmetric positive semidefinite."""
    return bool(np.abs(L - L.T).max() <= tol and np.linalg.eigvalsh(0.5 * (L + L.T)).min() >= -tol)


def _assignment_gap(x: np.ndarray, y: np.ndarray) -> dict:
    """Uniform n-point clouds: the optimal assignment for ½|x−y|² and the gap to the second-best
    (forbid each edge of the optimum in turn and re-solve): > 0 iff the optimal plan is unique."""
    C = 0.5 * ((x[:, None, :] - y[None, :, :]) ** 2).sum(-1)
    rows, cols = linear_sum_assignment(C)
    best = C[rows, cols].sum()
    second = np.inf
    for i, j in zip(rows, cols):
        D = C.copy()
        D[i, j] = C.max() * len(x) + 1.0                     # more than any whole assignment costs
        r, c = linear_sum_assignment(D)
        second = min(second, D[r, c].sum())
    return {"n": len(x), "cost": float(best / len(x)), "gap_to_second_best": float((second - best) / len(x)),
            "scale": float(C.max())}


@claim("heatflow:brenier", locator="slide 'Optimal Transport' (Brenier's theorem)",
       statement="the W2-optimal coupling is γ* = (Id, T)#μ with T the unique gradient of a convex "
                 "function (Gaussian μ, ν in closed form); the discrete analogue: generic uniform "
                 "clouds have a unique optimal plan, a tie shows why the theorem assumes more",
       method="property", expect="holds",
       paper_text=r"$$\mathbb{W}_2^2(\mu,\nu) = \inf_{\gamma \in \Pi(\mu,\nu)} \int_{\mathbb{R}^d \times "
                  r"\mathbb{R}^d} \|x-y\|^2 d\gamma$$ Brenier's Theorem gives the structure of optimal "
                  r"coupling. Under moderate assumptions: $$\gamma^* = (\operatorname{Id}, T)_\# \mu$$ "
                  r"where *T* is the unique gradient of a convex function.")
def brenier(budget: str) -> Evidence:
    """Gaussians: T is built twice, as S1^{-1/2}(S1^{1/2}S2S1^{1/2})^{1/2}S1^{-1/2} and as
    S2^{1/2}(S2^{1/2}S1S2^{1/2})^{-1/2}S2^{1/2}; both are positive definite solutions of
    L S1 L = S2, so uniqueness says they coincide. Sixteen other linear push-forwards S2^{1/2}US1^{-1/2}
    per pair (U the rotation and the reflection of eight random angles) each cost strictly more and
    none is a convex gradient (tests/test_heatflow_claims.py shows it for any angle away from T's). The discrete
    clouds (outside the theorem's assumption that μ has a density) are drawn from densities: their
    optimal plan is unique (a strictly positive gap to the second-best assignment); the
    symmetric 2-point tie ({(±1, 0)} to {(0, ±1)}) has gap 0, recorded as the case the assumption
    excludes. Tolerances: 1e-9 relative, rounding of 2×2 eigendecompositions."""
    rng = np.random.default_rng(SEED)
    gauss = []
    for _ in range(20 if budget == "quick" else 200):
        M1, M2 = rng.standard_normal((2, 2, 2))
        S1, S2 = M1 @ M1.T + 0.2 * np.eye(2), M2 @ M2.T + 0.2 * np.eye(2)
        T = brenier_map_gaussian(S1, S2)
        r2 = go.sym_fn(S2, np.sqrt)
        T_other_way = r2 @ go.sym_fn(r2 @ S1 @ r2, lambda v: 1 / np.sqrt(v)) @ r2
        cost = np.trace(S1) + np.trace(S2) - 2 * np.trace(S1 @ T)      # E|X − TX|², X ~ N(0, S1)
        w2 = go.w2_gaussian([0, 0], S1, [0, 0], S2) ** 2                # Bures formula, independently
        scale = np.trace(S1) + np.trace(S2)
        others = _linear_pushforwards(S1, S2, rng.uniform(0, 2 * np.pi, 8))
        other_costs = [np.trace(S1) + np.trace(S2) - 2 * np.trace(S1 @ L) for L in others]
        gauss.append({"symmetric": float(np.abs(T - T.T).max()), "min_eig": float(np.linalg.eigvalsh(T).min()),
                      "pushforward": float(np.abs(T @ S1 @ T - S2).max()),
                      "two_constructions": float(np.abs(T - T_other_way).max() / np.abs(T).max()),
                      "cost_minus_w2sq": float(abs(cost - w2)),
                      "min_other_minus_cost": float((min(other_costs) - cost) / scale),
                      "other_convex_gradients": sum(_is_convex_gradient(L, 1e-9 * np.abs(L).max())
                                                    for L in others)})
    discrete = []
    for n in ((8, 16) if budget == "quick" else (8, 16, 32, 48)):
        x = rng.standard_normal((n, 2))
        discrete.append(_assignment_gap(x, rng.standard_normal((n, 2)) @ np.array([[1.5, 0.4], [0.0, 0.6]]) + 1.0))
    tie = _assignment_gap(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([[0.0, 1.0], [0.0, -1.0]]))
    gauss_ok = all(g["symmetric"] < 1e-10 and g["min_eig"] > 0 and g["pushforward"] < 1e-9
                   and g["two_constructions"] < 1e-9 and g["cost_minus_w2sq"] < 1e-9
                   and g["min_other_minus_cost"] > 1e-9 and g["other_convex_gradients"] == 0 for g in gauss)
    discrete_ok = all(d["gap_to_second_best"] > 1e-9 * d["scale"] for d in discrete)
    return decide(
        gauss_ok and discrete_ok,
        criterion="Gaussians: the closed-form T is symmetric positive definite (the gradient of the "
                  "convex ½xᵀTx), pushes N(0,S1) to N(0,S2), attains the Bures W2², and its two "
                  "constructions coincide (1e-9, rounding); sixteen other linear push-forwards per pair, "
                  "S2^{1/2}US1^{-1/2} (U the rotation and reflection of 8 random angles), each cost more (by > 1e-9 of "
                  "tr S1 + tr S2) and is not symmetric positive semidefinite; generic uniform clouds: "
                  "the optimal assignment is unique (gap to the second-best > 1e-9 of the largest cost)",
        numbers={"gaussian_pairs": len(gauss),
                 "gaussian_max_asymmetry": max(g["symmetric"] for g in gauss),
                 "gaussian_min_eigenvalue_of_T": min(g["min_eig"] for g in gauss),
                 "gaussian_max_pushforward_error": max(g["pushforward"] for g in gauss),
                 "gaussian_max_difference_of_the_two_constructions": max(g["two_constructions"] for g in gauss),
                 "gaussian_max_|cost − W2²|": max(g["cost_minus_w2sq"] for g in gauss),
                 "gaussian_min_(other map's cost − T's cost)/(tr S1 + tr S2)":
                     min(g["min_other_minus_cost"] for g in gauss),
                 "gaussian_other_maps_that_are_convex_gradients": sum(g["other_convex_gradients"] for g in gauss),
                 "discrete": discrete,
                 "tie_outside_the_assumptions_{(±1,0)}_to_{(0,±1)}": tie})

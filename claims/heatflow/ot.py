"""Seed 003, slides "Notation" and "Optimal Transport": push-forwards, couplings and Brenier's
theorem, the optimal-transport facts the slides recall before the entropic problem.

Discrete measures are exact (rational weights); the Gaussian case uses the closed forms of
theory/gaussian_ot.py; the discrete optimal coupling is the linear program over Π(μ, ν) (HiGHS),
whose dual gives the convex potential.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from scipy.optimize import linear_sum_assignment, linprog

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
    lam, U = np.linalg.eigh(S1)
    r = (U * np.sqrt(lam)) @ U.T
    ri = (U / np.sqrt(lam)) @ U.T
    mid_l, mid_U = np.linalg.eigh(r @ S2 @ r)
    mid = (mid_U * np.sqrt(np.clip(mid_l, 0, None))) @ mid_U.T
    return ri @ mid @ ri


def _discrete_brenier(n: int, rng: np.random.Generator) -> dict:
    """Uniform n-point clouds in ℝ²: the LP optimum over Π(μ, ν) for ½|x−y|², its support, and the
    convex potential φ(x) = max_j (⟨x, y_j⟩ − ψ_j) from the LP dual (ψ_j = ½|y_j|² − v_j)."""
    x = rng.standard_normal((n, 2))
    y = rng.standard_normal((n, 2)) @ np.array([[1.5, 0.4], [0.0, 0.6]]) + 1.0
    C = 0.5 * ((x[:, None, :] - y[None, :, :]) ** 2).sum(-1)
    rows, cols = linear_sum_assignment(C)
    A = np.zeros((2 * n, n * n))
    for i in range(n):
        A[i, i * n:(i + 1) * n] = 1          # Σ_j γ_ij = 1/n
        A[n + i, i::n] = 1                   # Σ_i γ_ij = 1/n
    lp = linprog(C.ravel(), A_eq=A, b_eq=np.full(2 * n, 1 / n), bounds=(0, None), method="highs")
    gamma = lp.x.reshape(n, n)
    u, v = lp.eqlin.marginals[:n], lp.eqlin.marginals[n:]
    psi = 0.5 * (y ** 2).sum(1) - v
    values = x @ y.T - psi[None, :]                     # ⟨x_i, y_j⟩ − ψ_j
    scale = np.abs(values).max()
    in_subgradient = values[rows, cols] >= values.max(1) - 1e-9 * scale
    return {"n": n, "lp_cost": float(lp.fun), "assignment_cost": float(C[rows, cols].sum() / n),
            "lp_plan_is_a_map": bool(np.allclose(np.sort(gamma, 1)[:, -1], 1 / n, atol=1e-9)
                                     and np.allclose((gamma > 1e-12).sum(1), 1)),
            "dual_feasible_violation": float(max(0.0, (u[:, None] + v[None, :] - C).max())),
            "T(x_i) in the subdifferential of phi at x_i": bool(in_subgradient.all())}


@claim("heatflow:brenier", locator="slide 'Optimal Transport' (Brenier's theorem)",
       statement="the W2-optimal coupling is γ* = (Id, T)#μ with T the unique gradient of a convex "
                 "function (Gaussian μ, ν in closed form; uniform discrete clouds through the LP)",
       method="property", expect="holds",
       paper_text=r"$$\mathbb{W}_2^2(\mu,\nu) = \inf_{\gamma \in \Pi(\mu,\nu)} \int_{\mathbb{R}^d \times "
                  r"\mathbb{R}^d} \|x-y\|^2 d\gamma$$ Brenier's Theorem gives the structure of optimal "
                  r"coupling. Under moderate assumptions: $$\gamma^* = (\operatorname{Id}, T)_\# \mu$$ "
                  r"where *T* is the unique gradient of a convex function.")
def brenier(budget: str) -> Evidence:
    rng = np.random.default_rng(SEED)
    gauss = []
    for _ in range(20 if budget == "quick" else 200):
        M1, M2 = rng.standard_normal((2, 2, 2))
        S1, S2 = M1 @ M1.T + 0.2 * np.eye(2), M2 @ M2.T + 0.2 * np.eye(2)
        T = brenier_map_gaussian(S1, S2)
        cost = np.trace(S1) + np.trace(S2) - 2 * np.trace(S1 @ T)      # E|X − TX|², X ~ N(0, S1)
        w2 = go.w2_gaussian([0, 0], S1, [0, 0], S2) ** 2                # Bures formula, independently
        # every other linear map pushing N(0,S1) to N(0,S2): S2^{1/2} U S1^{-1/2}, U orthogonal ≠ the optimum
        lam, V = np.linalg.eigh(S2)
        r2 = (V * np.sqrt(lam)) @ V.T
        lam1, V1 = np.linalg.eigh(S1)
        ri1 = (V1 / np.sqrt(lam1)) @ V1.T
        others = []
        for a in rng.uniform(0, 2 * np.pi, 8):
            U = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            L = r2 @ U @ ri1
            others.append(np.trace(S1) + np.trace(S2) - 2 * np.trace(S1 @ L))
        gauss.append({"symmetric": float(np.abs(T - T.T).max()), "min_eig": float(np.linalg.eigvalsh(T).min()),
                      "pushforward": float(np.abs(T @ S1 @ T - S2).max()),
                      "cost_minus_w2sq": float(abs(cost - w2)), "min_other_minus_cost": float(min(others) - cost)})
    discrete = [_discrete_brenier(n, rng) for n in ((8, 16) if budget == "quick" else (8, 16, 32, 48))]
    gauss_ok = all(g["symmetric"] < 1e-10 and g["min_eig"] > 0 and g["pushforward"] < 1e-9
                   and g["cost_minus_w2sq"] < 1e-9 and g["min_other_minus_cost"] > -1e-9 for g in gauss)
    discrete_ok = all(d["lp_plan_is_a_map"] and abs(d["lp_cost"] - d["assignment_cost"]) < 1e-9
                      and d["dual_feasible_violation"] < 1e-9 and d["T(x_i) in the subdifferential of phi at x_i"]
                      for d in discrete)
    return decide(
        gauss_ok and discrete_ok,
        criterion="Gaussians: the closed-form T is symmetric positive definite (the gradient of the "
                  "convex ½xᵀTx), pushes N(0,S1) to N(0,S2) and attains the Bures W2² (1e-9, "
                  "rounding), and every other linear push-forward S2^{1/2}US1^{-1/2} costs at least "
                  "as much; uniform discrete clouds: the LP optimum over Π(μ,ν) is a permutation "
                  "(a map) with the assignment's cost, and T(xᵢ) lies in ∂φ(xᵢ) for the convex φ "
                  "built from the LP dual",
        numbers={"gaussian_pairs": len(gauss),
                 "gaussian_max_asymmetry": max(g["symmetric"] for g in gauss),
                 "gaussian_min_eigenvalue_of_T": min(g["min_eig"] for g in gauss),
                 "gaussian_max_pushforward_error": max(g["pushforward"] for g in gauss),
                 "gaussian_max_|cost − W2²|": max(g["cost_minus_w2sq"] for g in gauss),
                 "gaussian_min_(other map's cost − T's cost)": min(g["min_other_minus_cost"] for g in gauss),
                 "discrete": discrete})

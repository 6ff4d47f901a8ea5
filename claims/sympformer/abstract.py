"""Seed 000 (SympFormer), the abstract: accelerated attention blocks lower the attention energy
faster than the classical ones at the same number of counted oracle calls.
"""
from __future__ import annotations

import numpy as np
import torch

from claims import Evidence, claim, decide_readings, reading
from claims._attention_setup import LINEAR_SETUP, commuting_AB, f64, linear_problem
from particles import accelerated as acc
from particles import attention as att
from theory import elliptical as ell


# ====================================================================== the abstract's claim


ACCELERATED = ("explicit_euler", "conformal_symplectic_euler", "exponential_euler", "ab2", "etd_ab2")


def _energy_per_call(step, X0, energy, oracle, K: int) -> np.ndarray:
    """Run `step(X, Y, t, memo) -> (X, Y, t, memo)` until the counted oracle reaches K calls; entry k
    is the energy after the step that used the k-th call (nan once the iterate is not finite). A run
    whose |energy| falls below 1e-100 |F_0| has collapsed onto the minimizer: it stops there and keeps
    that value (continuing would only produce subnormal floats, 100× slower and meaningless)."""
    out = np.full(K + 1, np.nan)
    out[0] = energy(X0)
    X, Y, t, memo = X0, torch.zeros_like(X0), None, None
    while oracle.calls < K:
        X, Y, t, memo = step(X, Y, t, memo)
        if not bool(torch.isfinite(X).all() and torch.isfinite(Y).all()):
            break
        out[oracle.calls] = energy(X)
        if abs(out[oracle.calls]) < 1e-100 * abs(out[0]):
            out[oracle.calls:] = out[oracle.calls]
            break
    return out


SEEDS = (0, 1, 2)  # independent draws of the particles (and of the softmax problem's A, B, V)


def abstract_study(budget: str, seed: int = 0) -> dict:
    """Energy after k counted oracle calls, classical flow vs every accelerated scheme (see the claim),
    on the particles drawn from `seed` (linear: N = 64 Gaussian particles, generator `seed`;
    softmax: A, B, V and N = 16 particles, generator 20 + `seed`)."""
    from particles import integrators as integ
    from particles.integrators import HamiltonianField
    from theory.schemes import damping

    K = 32 if budget == "quick" else 128
    hs = [0.1 * 2 ** k for k in range(0, 9, 2)]  # 0.1 … 25.6
    dampings = {"nesterov(t0=1)": (damping("nesterov"), 1.0), "constant(1)": (damping("constant", mu=1.0), 0.0)}
    # linear attention, V = −W (W SPD): F^lin = ½ E yᵀWy ≥ 0 is bounded below with minimum 0 at δ_0
    A_np, _, Sigma0 = linear_problem()
    A_lin, V_lin = f64(A_np), f64(-np.array([[0.8, 0.2], [0.2, 0.5]]))
    X_lin = f64(ell.sample_elliptical("gaussian", np.array(LINEAR_SETUP["m0"]), Sigma0, 64, np.random.default_rng(seed)))
    # softmax attention, A, B = VA^{-1} SPD (Section 5): F^SM is unbounded below
    rng = np.random.default_rng(20 + seed)
    N_sm = 16
    A_sm, B_sm, V_sm = commuting_AB(rng, 2, scale=0.3)
    X_sm = f64(0.7 * rng.standard_normal((N_sm, 2)))
    problems = {
        "linear": dict(X0=X_lin, energy=lambda X: float(att.energy_lin(X, V_lin)),
                       classical=lambda X: att.linear_attention(X, A_lin, V_lin),
                       oracles=lambda X, Y: acc.linear_oracles(X, Y, A_lin, V_lin), hs=hs, dampings=dampings),
        # matched step h = 0.1 (the paper's initial h_0 for Table 1); the particle system of (33) (c = 1/N²)
        "softmax": dict(X0=X_sm, energy=lambda X: float(att.energy_sm(X, A_sm)),
                        classical=lambda X: att.softmax_attention(X, A_sm, V_sm),
                        oracles=lambda X, Y: acc.softmax_oracles(X, Y, A_sm, B_sm, potential_scale=1.0 / N_sm ** 2),
                        hs=[0.1], dampings={"nesterov(t0=1)": dampings["nesterov(t0=1)"]}),
    }
    study = {"K": K, "seed": seed}
    for pname, pr in problems.items():
        curves = {}
        for h in pr["hs"]:
            oracle = att.CountingOracle(pr["classical"])

            def classical_step(X, Y, t, memo, h=h, oracle=oracle):
                return X + h * oracle(X), Y, t, memo

            curves[("classical", h, "-")] = _energy_per_call(classical_step, pr["X0"], pr["energy"], oracle, K)
            for name in ACCELERATED:
                for dname, (damp, t0) in pr["dampings"].items():
                    oracle = att.CountingOracle(pr["oracles"])
                    field = HamiltonianField(lambda q, p, o=oracle: -o(q, p)[1], lambda q, p, o=oracle: o(q, p)[0])
                    scheme = integ.get_scheme(name)

                    def acc_step(X, Y, t, memo, h=h, scheme=scheme, field=field, damp=damp, t0=t0):
                        t = t0 if t is None else t
                        q, p, memo = scheme(X, Y, t, h, field, damp, memo)
                        return q, p, t + h, memo

                    curves[(name, h, dname)] = _energy_per_call(acc_step, pr["X0"], pr["energy"], oracle, K)
        # best configuration per method and budget k (lowest energy; diverged runs never win)
        best = {}
        for method in ("classical", *ACCELERATED):
            mine = {key: c for key, c in curves.items() if key[0] == method}
            table = np.stack([np.where(np.isfinite(c), c, np.inf) for c in mine.values()])
            keys = list(mine)
            idx = table.argmin(axis=0)
            best[method] = {"energy": table.min(axis=0), "config": [f"h={keys[i][1]:g}, α={keys[i][2]}" for i in idx]}
        study[pname] = {"F0": float(pr["X0"].new_tensor(0).item() + pr["energy"](pr["X0"])), "best": best}
    return study


ABSTRACT_TEXT = ("We present implementable particle-based algorithms and demonstrate that the proposed "
                 "accelerated attention blocks converge faster than the classical attention blocks while "
                 "preserving the number of oracle calls.")


def _on_every_draw(flags: list[bool]) -> bool | None:
    """A reading's verdict over the independent draws: True if it holds on every draw, False if it
    fails on every draw, None (undecided) if the draws disagree."""
    return True if all(flags) else False if not any(flags) else None


@claim("sympformer:abstract", locator="Abstract; Section 7 (Conclusion)",
       statement="accelerated attention blocks decrease the attention energy faster than the classical blocks "
                 "at the same (counted) number of oracle calls",
       method="experiment", expect="holds", figures=["accelerated-vs-classical"], threads=1,
       paper_text=ABSTRACT_TEXT, extension=True,
       referee="changed, fails -> holds with an ambiguity (issues 25, 28): the old verdict ranked the "
               "schemes on F^SM too, which is unbounded below (the 'winner' is whichever flow diverged "
               "further), and required every scheme at every budget. On the bounded F^lin the "
               "abstract holds for the best accelerated scheme at every budget and for every scheme at "
               "the largest budget, on every draw; it fails only if every proposed scheme must win from "
               "k = 8 (explicit Euler and AB-2 do not). The paper's own demonstration is the training "
               "of §6 (sympformer:table-1), reported as a reading. Issue 38 (R3): the particle-level "
               "check is an extension, outside the tally (the sentence's training demonstration is "
               "decided by sympformer:table-1), and its every-scheme-at-every-budget reading is invented")
def abstract(budget: str) -> Evidence:
    """'Converge faster' needs a target: decided on the linear-attention energy F^lin (V = -W, bounded
    below with minimum 0), energy after k counted oracle calls, best (h, damping) per method and k,
    on every independent draw. F^SM (29) is unbounded below for SPD A: its curves are reported, never
    decided (a lower F^SM means tokens flying apart faster). Readings of "the proposed accelerated
    attention blocks converge faster": (every) each of the five schemes below the classical flow at
    every budget k; (best) the best of the proposed schemes below it at every k; (eventually) each
    scheme below it at the largest budget; (training) the paper's own demonstration, §6's training
    runs: the headline reading of sympformer:table-1."""
    from claims.sympformer.training import symp_table_1
    K = 32 if budget == "quick" else 128
    budgets = [k for k in (8, 32, 128) if k <= K]
    per_seed = {}
    for seed in SEEDS:
        study = abstract_study(budget, seed)
        best = study["linear"]["best"]
        cls = best["classical"]["energy"]
        per_seed[seed] = {"study": study, "comparison": {
            name: {k: {"accelerated": best[name]["energy"][k], "classical": cls[k],
                       "faster": bool(best[name]["energy"][k] < cls[k]), "config": best[name]["config"][k]}
                   for k in budgets} for name in ACCELERATED}}
    faster = {seed: {name: {k: c[name][k]["faster"] for k in budgets} for name in ACCELERATED}
              for seed, c in ((s, v["comparison"]) for s, v in per_seed.items())}
    every = [all(all(f[n].values()) for n in ACCELERATED) for f in faster.values()]
    best_any = [all(any(f[n][k] for n in ACCELERATED) for k in budgets) for f in faster.values()]
    eventually = [all(f[n][budgets[-1]] for n in ACCELERATED) for f in faster.values()]
    training = symp_table_1(budget).verdict
    losing = {seed: [(n, k) for n in ACCELERATED for k in budgets if not f[n][k]] for seed, f in faster.items()}
    rds = [reading("every proposed scheme below the classical flow at every budget k", _on_every_draw(every),
                   not_admitted="invented", losing_per_seed=losing),
           reading("the best proposed scheme below the classical flow at every budget k", _on_every_draw(best_any)),
           reading(f"every proposed scheme below the classical flow at the largest budget k = {budgets[-1]}",
                   _on_every_draw(eventually)),
           reading("the paper's demonstration: training (§6), decided as sympformer:table-1, at proxy scale",
                   {"holds": True, "fails": False}.get(training))]
    first = per_seed[SEEDS[0]]["study"]
    return decide_readings(
        rds,
        criterion="best F^lin after k counted oracle calls (CountingOracle: one call per new token "
                  "configuration) over the step-size/damping grid, k in {8, 32, 128} (<= budget); a "
                  f"reading holds if it holds on each of {len(SEEDS)} independent draws of the particles, "
                  "fails if it fails on each, else undecided; F^SM (unbounded below) is reported, not "
                  "decided",
        numbers={"n_seeds": len(SEEDS), "seeds": list(SEEDS), "comparison_linear": per_seed[SEEDS[0]]["comparison"],
                 "faster_per_seed": faster,
                 "softmax_reported_not_decided": {
                     "why": "F^SM is unbounded below for SPD A: 'converge' has no target",
                     "energy_at_K": {m: first["softmax"]["best"][m]["energy"][K] for m in ("classical", *ACCELERATED)}},
                 "F0": {p: first[p]["F0"] for p in ("linear", "softmax")},
                 "curves": {p: {m: v["energy"] for m, v in first[p]["best"].items()} for p in ("linear", "softmax")},
                 "curves_seed": SEEDS[0], "K": K,
                 "oracle_calls_per_step": "1 for every scheme (counted; (15) reuses M(x⁽ᵏ⁾))",
                 "scale": "particle systems, not trained networks: N = 64 Gaussian particles in R^2 "
                          "(linear attention), k <= 128 oracle calls; the paper demonstrates its claim "
                          "with trained language models (§6)",
                 "deviations": "the paper runs no particle experiment for this sentence; ours is an "
                               "extension at particle level, with the step size and damping tuned per "
                               "method over a grid",
                 "flatness": "not applicable: no training (energies of a deterministic particle flow)"},
        ambiguity="'the proposed accelerated attention blocks converge faster': every scheme at every "
                  "budget fails (explicit Euler and AB-2 lose at k = 8), the best scheme and every scheme "
                  "eventually hold, on every draw")

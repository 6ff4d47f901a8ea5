"""bench-pepit: the worst cases of `theory.rates` against PEPit's performance estimation (an SDP):
equal values, and our time over theirs (figures/_bench.py: committed measurement, one thread).

Quadratic class (the model of theory.rates). On f = ½(x − x*)ᵀH(x − x*) with μ ≤ H ≤ L, N steps of a
momentum method from v_0 = 0 give x_N − x* = q_N(H)(x_0 − x*), so the exact worst case of
‖x_N − x*‖² over the class and ‖x_0 − x*‖² ≤ 1 is max_{λ∈[μ,L]} q_N(λ)² — ours is
`theory.rates.worst_filter(m, μ, L, N)[N]²` (endpoints and a 2049-point Chebyshev grid; seed 002
§F.3). PEPit solves the same worst case over its quadratic class (Bousselmi–Hendrickx–Glineur
interpolation) with the iteration run by `theory.rates.run_momentum` on its points
(`claims._pepit.worst_case`). Methods: gradient descent η = 2/(L + μ), tuned heavy ball, classical
Nesterov, triple momentum (Van Scoy et al.), at κ ∈ {10, 100}, N ∈ {1, 2, 4, 8}, L = 1.

Full class of L-smooth μ-strongly convex functions. For gradient descent the worst case is
ρ^{2N}, ρ = max(|1 − ημ|, |1 − ηL|) = `worst_case_rate(gd_tuned)` (tight on quadratics; PEPit's
example tutorials/gradient_descent_contraction): an equality as well. For the momentum methods the
quadratic-model rates are not worst cases over the full class (Lessard, Recht & Packard 2016): the
figure shows PEPit's full-class value over the quadratic one, a ratio ≥ 1, not an equality.

Solver and tolerance. PEPit → cvxpy → SCS (MOSEK is not installed) with eps_abs = eps_rel = 1e-9.
PEPit's default (SCS at its default accuracy) is not enough here: at L = 10, κ = 10, N = 8 it
returns 6.6e-4 for heavy ball's worst case 4.87e-3. With L = 1 the SDP data are O(1), and the
criterion is |PEPit − ours| ≤ 1e-6·max(1, ours): SCS's residual tolerance 1e-9 times a conditioning
margin of 1e3 (PEPit's own duality-gap report on these problems is ≤ 1e-8).

Without PEPit (the `pepit` extra; the core install has no PEPit): the full budget draws the committed
measurement as always; the quick budget draws our worst cases alone, titled with the reason;
re-measuring (`--recompute`) raises, naming the extra.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from claims._pepit import worst_case
from figures import Context, figure
from figures import _bench
from particles.lm.bench import ratio_summary, time_interleaved
from particles.threads import torch_threads
from theory import rates as R

L = 1.0
SOLVER = {"solver": "SCS", "eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 1_000_000}
TOLERANCE = 1e-6  # |PEPit − ours| ≤ TOLERANCE · max(1, ours)
METHODS = ("gd", "heavy_ball", "nesterov", "tmm")
SETTINGS = {"quick": {"kappa": [10.0], "n": [1, 2], "full_class_n": [], "rounds": 2},
            # 6 rounds: the smallest count whose order-statistic CI for a median reaches 95%
            "full": {"kappa": [10.0, 100.0], "n": [1, 2, 4, 8], "full_class_n": [1, 2, 4, 8], "rounds": 6}}


def config(budget: str) -> dict:
    if budget not in SETTINGS:
        raise ValueError(f"budget must be one of {sorted(SETTINGS)}, got {budget!r}")
    return {**SETTINGS[budget], "L": L, "solver": SOLVER, "tolerance": TOLERANCE,
            "methods": list(METHODS), "threads": _bench.THREADS}


def method(name: str, mu: float, L: float) -> R.Momentum:
    """The tuned member of theory.rates for the method `name`."""
    if name == "tmm":
        return R.triple_momentum_vsfl(mu, L)[0]
    tuned = {"gd": R.gd_tuned, "heavy_ball": R.heavy_ball_tuned, "nesterov": R.nesterov_classical}
    if name not in tuned:
        raise ValueError(f"name must be one of {METHODS}, got {name!r}")
    return tuned[name](mu, L)


def ours_quadratic(m: R.Momentum, mu: float, L: float, N: int) -> float:
    """max over λ ∈ [μ, L] of q_N(λ)²: the exact worst ‖x_N − x*‖² over the quadratic class."""
    return float(R.worst_filter(m, mu, L, N)[-1] ** 2)


def ours_gd_full_class(mu: float, L: float, N: int) -> float:
    """ρ^{2N} with ρ the worst-case rate of tuned gradient descent."""
    return R.worst_case_rate(R.gd_tuned(mu, L), mu, L)[0] ** (2 * N)


def pepit(function_class: str, m: R.Momentum, mu: float, L: float, N: int) -> float:
    return worst_case(function_class, [m] * N, "distance", mu=mu, L=L, solver_options=SOLVER)


def equal_case(ours, theirs, rounds: int) -> dict:
    """Time ours and PEPit interleaved; the values and the criterion of the module docstring."""
    last = {}
    seconds = time_interleaved({"ours": lambda: last.__setitem__("ours", ours()),
                                "pepit": lambda: last.__setitem__("pepit", theirs())}, rounds)
    diff = abs(last["pepit"] - last["ours"])
    return {"ours": last["ours"], "pepit": last["pepit"], "abs_diff": diff,
            "allowed": TOLERANCE * max(1.0, abs(last["ours"])),
            "equal": diff <= TOLERANCE * max(1.0, abs(last["ours"])),
            "ours_seconds": float(np.median(seconds["ours"])), "pepit_seconds": float(np.median(seconds["pepit"])),
            "ours_over_pepit": ratio_summary(np.asarray(seconds["ours"]) / np.asarray(seconds["pepit"]))}


NO_PEPIT = "PEPit is not installed: our worst cases alone, no comparison (pip install '.[pepit]')"


def pepit_installed() -> bool:
    try:
        import PEPit  # noqa: F401
    except ImportError:
        return False
    return True


def measure(budget: str) -> dict:
    if not pepit_installed():
        if budget != "quick":
            raise RuntimeError("re-measuring bench-pepit needs PEPit (pip install '.[pepit]'); without "
                               "--recompute the committed measurement is drawn")
        return measure_ours(budget)
    cfg = config(budget)
    rows = []
    with torch_threads(_bench.THREADS):
        for kappa in cfg["kappa"]:
            mu = L / kappa
            for name in METHODS:
                m = method(name, mu, L)
                for N in cfg["n"]:
                    rows.append({"class": "quadratic", "method": name, "kappa": kappa, "N": N,
                                 **equal_case(lambda: ours_quadratic(m, mu, L, N),
                                              lambda: pepit("quadratic", m, mu, L, N), cfg["rounds"])})
                for N in cfg["full_class_n"]:
                    if name == "gd":
                        rows.append({"class": "smooth-strongly-convex", "method": name, "kappa": kappa, "N": N,
                                     **equal_case(lambda: ours_gd_full_class(mu, L, N),
                                                  lambda: pepit("smooth-strongly-convex", m, mu, L, N),
                                                  cfg["rounds"])})
                    else:  # not an equality: the full class is larger than the quadratic model
                        full = pepit("smooth-strongly-convex", m, mu, L, N)
                        rows.append({"class": "smooth-strongly-convex", "method": name, "kappa": kappa,
                                     "N": N, "pepit": full, "quadratic_model": ours_quadratic(m, mu, L, N),
                                     "full_over_quadratic": full / ours_quadratic(m, mu, L, N)})
        provenance = _bench.provenance("PEPit", "cvxpy", "scs", "torch", "numpy", "scipy")
    timed = [r for r in rows if "equal" in r]
    summary = {"all_equal": all(r["equal"] for r in timed),
               "largest_relative_difference": max(r["abs_diff"] / max(1.0, abs(r["ours"])) for r in timed),
               "largest_ours_over_pepit_median": max(r["ours_over_pepit"]["median"] for r in timed),
               "smallest_ours_over_pepit_median": min(r["ours_over_pepit"]["median"] for r in timed)}
    return {"config": cfg, "rows": rows, "summary": summary, "provenance": provenance}


def measure_ours(budget: str) -> dict:
    """Our side of `measure` alone, for an install without PEPit: the quadratic-class worst cases."""
    cfg = config(budget)
    rows = [{"class": "quadratic", "method": name, "kappa": kappa, "N": N,
             "ours": ours_quadratic(method(name, L / kappa, L), L / kappa, L, N)}
            for kappa in cfg["kappa"] for name in METHODS for N in cfg["n"]]
    return {"config": cfg, "rows": rows, "summary": {"skipped": NO_PEPIT},
            "provenance": _bench.provenance("PEPit", "cvxpy", "scs", "torch", "numpy", "scipy")}


def draw_ours(ctx: Context, result: dict) -> None:
    """The figure of `measure_ours`: worst ‖x_N − x*‖² over the quadratic class against N."""
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, name in enumerate(METHODS):
        for kappa, ls in zip(result["config"]["kappa"], ("-", "--")):
            sel = [r for r in result["rows"] if r["method"] == name and r["kappa"] == kappa]
            ax.semilogy([r["N"] for r in sel], [r["ours"] for r in sel], ls, marker="o",
                        color=f"C{i}", label=f"{name}, κ = {kappa:g}")
    ax.set(xlabel="N", ylabel="worst ‖x_N − x*‖² over the quadratic class (ours)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    _bench.save(ctx, fig, result, result["summary"]["skipped"])


def draw_from(ctx: Context, result: dict) -> None:
    if "skipped" in result["summary"]:
        return draw_ours(ctx, result)
    rows, cfg = result["rows"], result["config"]
    timed = [r for r in rows if "equal" in r]
    labels = [f"{r['method']} κ={r['kappa']:g} N={r['N']}" + (" (full class)" if r["class"] != "quadratic" else "")
              for r in timed]
    fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(16, 0.18 * len(timed) + 3),
                                     gridspec_kw={"width_ratios": [1.2, 1.2, 1]})
    y = np.arange(len(timed))
    rel = [max(r["abs_diff"] / max(1.0, abs(r["ours"])), 1e-17) for r in timed]
    a1.semilogx(rel, y, "o", color="C0")
    a1.axvline(cfg["tolerance"], color="k", ls=":", lw=0.8)
    a1.set_yticks(y, labels, fontsize=6)
    a1.set(xlabel="|PEPit − ours| / max(1, ours)",
           title=f"equal values (≤ {cfg['tolerance']:g}): {result['summary']['all_equal']}\n"
                 f"SCS eps {cfg['solver']['eps_abs']:g}", )
    ratios = [r["ours_over_pepit"] for r in timed]
    med = np.array([s["median"] for s in ratios])
    a2.errorbar(med, y, xerr=[med - [s["ci_lo"] for s in ratios], [s["ci_hi"] for s in ratios] - med],
                fmt="o", color="C1", capsize=2)
    a2.set_xscale("log")
    a2.set_yticks(y, [])
    a2.set(xlabel="time ours / time PEPit (median, CI)",
           title=f"{ratios[0]['ci_coverage']:.1%} CI over {cfg['rounds']} interleaved rounds")
    for ax in (a1, a2):
        ax.invert_yaxis()
        ax.grid(alpha=0.3, which="both")
    for i, name in enumerate(m for m in cfg["methods"] if m != "gd"):
        for kappa, ls in zip(cfg["kappa"], ("-", "--")):
            sel = [r for r in rows if r["method"] == name and r["kappa"] == kappa and "full_over_quadratic" in r]
            if sel:
                a3.semilogy([r["N"] for r in sel], [r["full_over_quadratic"] for r in sel], ls, marker="o",
                            color=f"C{i + 2}", label=f"{name}, κ = {kappa:g}")
    a3.axhline(1.0, color="k", lw=0.8)
    a3.set(xlabel="N", ylabel="PEPit worst case, full class / quadratic model",
           title="L-smooth μ-strongly convex: momentum worst cases\nexceed the quadratic model (not an equality)")
    a3.grid(alpha=0.3, which="both")
    if a3.lines[1:]:
        a3.legend(fontsize=7)
    pk = result["provenance"]["packages"]
    _bench.save(ctx, fig, result, f"PEPit {pk['PEPit']}, cvxpy {pk['cvxpy']}, SCS {pk['scs']}")


# Data precision (figures/_registry.py): the committed measurement copied as read (a timing is
# measured, not recomputed: the full budget reads results/bench/, so the file reproduces byte
# for byte); no rounding.
DIGITS, FLOOR = None, 0.0


@figure("bench-pepit", claims=["momentum_streams:lemma-F.1", "momentum_streams:lemma-F.2",
                               "momentum_streams:hb-quadratic-scope"], digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """theory.rates worst cases vs PEPit (SCS): equal values and the time ratio ours/PEPit."""
    draw_from(ctx, _bench.measured(ctx, config, measure))


def summary_markdown(result: dict) -> str:
    """The docs/benchmarks.md table of a measurement (tests/test_bench.py checks the page quotes it)."""
    rows, s = result["rows"], result["summary"]
    lines = ["| class | method | cases | max \\|PEPit − ours\\| / max(1, ours) | time ours / PEPit (medians) |",
             "|---|---|---|---|---|"]
    for cls in ("quadratic", "smooth-strongly-convex"):
        for name in METHODS:
            sel = [r for r in rows if r["class"] == cls and r["method"] == name and "equal" in r]
            if sel:
                rel = max(r["abs_diff"] / max(1.0, abs(r["ours"])) for r in sel)
                med = [r["ours_over_pepit"]["median"] for r in sel]
                lines.append(f"| {cls} | {name} | {len(sel)} | {rel:.1e} | {min(med):.1e} – {max(med):.1e} |")
    full = [r for r in rows if "full_over_quadratic" in r and r["N"] == max(result["config"]["full_class_n"])]
    lines += ["", f"All values equal within the tolerance: {s['all_equal']} (largest relative difference "
                  f"{s['largest_relative_difference']:.1e}). Beyond quadratics (not an equality): PEPit's "
                  f"worst case over the full class at N = {max(result['config']['full_class_n'])} is "
              + ", ".join(f"{r['full_over_quadratic']:.1f}× ({r['method']}, κ = {r['kappa']:g})" for r in full)
              + " the quadratic-model value."]
    return "\n".join(lines)

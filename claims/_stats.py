"""Paired statistics over seeds: the decision rule of every comparative experiment claim.

Seed k fixes the data order and the initialisation stream of every arm, so arms are compared by
the per-seed differences d_k = loss_b(k) - loss_a(k), where the paper claims b above a (d > 0).
For each comparison we report the mean difference, its 95% confidence interval (Student t, n - 1
degrees of freedom), the seed-to-seed standard deviation of d and of each arm, and the minimal
detectable effect at this n (power 0.8 at the comparison's family-wise level). Decisions are
Holm-corrected over all hypotheses of one claim (family-wise level `ALPHA`): for every comparison

* H_sign:  d = 0           (two-sided t test; rejected with mean d > 0: *agree*, < 0: *reversed*)
* H_size:  d >= c          (one-sided, only when the claim carries a size c > 0: rejected means the
                            claimed size is excluded from above)

and a comparison is *agree*, *reversed*, *smaller* (H_sign kept, H_size rejected: the difference is
significantly smaller than claimed and its sign is not resolved) or *undecided* (neither: the seeds
cannot tell; `n_needed` is the number of seeds at which the minimal detectable effect reaches the
observed |mean d|, or the distance to c, whichever is smaller). A claim holds when every comparison
agrees, fails when one is reversed or smaller, and is inconclusive otherwise.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import stats

ALPHA = 0.05
POWER = 0.8
N_MAX = 10_000


def mde(sd: float, n: int, alpha: float = ALPHA, power: float = POWER) -> float:
    """Minimal detectable mean difference of a two-sided paired t test at level `alpha` with
    power `power`: (t_{1-alpha/2, n-1} + t_{power, n-1}) sd / sqrt(n)."""
    if n < 2:
        return math.inf
    df = n - 1
    return float((stats.t.ppf(1 - alpha / 2, df) + stats.t.ppf(power, df)) * sd / math.sqrt(n))


def n_needed(sd: float, effect: float, alpha: float | Callable[[int], float] = ALPHA,
             power: float = POWER) -> int | None:
    """The smallest n with `mde(sd, n) <= effect` (None beyond N_MAX seeds: no practical n).
    `alpha` may be a function of n, the level a sample of n seeds would be decided at (a plan
    extended to n seeds spends its level over more looks: `claims._experiment.planned_looks`);
    it must fall slower than the mde, as alpha / n does."""
    if effect <= 0 or not math.isfinite(effect):
        return None
    if sd == 0:
        return 2
    level = alpha if callable(alpha) else (lambda n: alpha)
    lo, hi = 2, N_MAX
    if mde(sd, hi, level(hi), power) > effect:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if mde(sd, mid, level(mid), power) <= effect else (mid + 1, hi)
    return lo


def paired_difference(a, b, claimed: float | None = None) -> dict:
    """Summary of d = b - a over paired seeds (the claim: d > 0, of size `claimed` when given):
    mean, sd, 95% CI, the two p-values of the module docstring (unadjusted) and the arms' SDs."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"a and b must be 1-D of equal length (paired seeds), got {a.shape}, {b.shape}")
    if claimed is not None and not (math.isfinite(claimed) and claimed > 0):
        raise ValueError(f"claimed must be a positive finite size, got {claimed!r}")
    d = b - a
    n = d.size
    mean = float(d.mean()) if n else math.nan
    sd = float(d.std(ddof=1)) if n > 1 else math.nan
    out = {"n_seeds": n, "mean_diff": mean, "sd_diff": sd, "claimed": claimed,
           "sd_a": float(a.std(ddof=1)) if n > 1 else math.nan,
           "sd_b": float(b.std(ddof=1)) if n > 1 else math.nan}
    if n < 2:
        return out | {"ci95": [math.nan, math.nan], "p_sign": 1.0, "p_size": 1.0}
    se = sd / math.sqrt(n)
    half = float(stats.t.ppf(0.975, n - 1) * se)
    if se == 0:  # identical differences: exact
        p_sign = 1.0 if mean == 0 else 0.0
        p_size = 0.0 if claimed is not None and mean < claimed else 1.0
    else:
        p_sign = float(2 * stats.t.sf(abs(mean) / se, n - 1))
        p_size = float(stats.t.cdf((mean - claimed) / se, n - 1)) if claimed is not None else 1.0
    return out | {"ci95": [mean - half, mean + half], "p_sign": p_sign, "p_size": p_size}


def holm(pvalues: dict, alpha: float = ALPHA) -> dict:
    """Holm's step-down over a family {key: p}: {key: rejected?} at family-wise level `alpha`."""
    rejected = {k: False for k in pvalues}
    m = len(pvalues)
    for rank, (k, p) in enumerate(sorted(pvalues.items(), key=lambda kv: kv[1])):
        if p >= alpha / (m - rank):
            break
        rejected[k] = True
    return rejected


def decide(comparisons: dict[str, dict], alpha: float = ALPHA) -> tuple[str, dict[str, dict]]:
    """The claim's verdict from its comparisons ({name: paired_difference(...)}), Holm over all
    their hypotheses; each comparison gains `status`, `mde` and (when undecided) `n_needed`."""
    family = {}
    for name, c in comparisons.items():
        family[(name, "sign")] = c["p_sign"]
        if c["claimed"] is not None:
            family[(name, "size")] = c["p_size"]
    rejected = holm(family, alpha)
    m = max(len(family), 1)
    out = {}
    for name, c in comparisons.items():
        sign, size = rejected[(name, "sign")], rejected.get((name, "size"), False)
        if sign:
            status = "agree" if c["mean_diff"] > 0 else "reversed"
        else:
            status = "smaller" if size else "undecided"
        # Bonferroni's level alpha/m is Holm's first (strictest) step: the MDE at which this
        # comparison is sure to be decided whatever the others do
        row = dict(c, status=status, mde=mde(c["sd_diff"], c["n_seeds"], alpha / m))
        if status == "undecided":
            targets = [abs(c["mean_diff"])]
            if c["claimed"] is not None:
                targets.append(c["claimed"] - c["mean_diff"])
            ns = [n for n in (n_needed(c["sd_diff"], t, alpha / m) for t in targets) if n is not None]
            row["n_needed"] = min(ns) if ns else None
        out[name] = row
    statuses = [r["status"] for r in out.values()]
    verdict = ("fails" if any(s in ("reversed", "smaller") for s in statuses)
               else "holds" if statuses and all(s == "agree" for s in statuses) else "inconclusive")
    return verdict, out


# ------------------------------------------------------------------ sign first (issue 25)
#
# An experiment claim is the paper's sentence, split into the sub-assertions it makes ("A has a
# lower loss than B"). Each is decided on the SIGN of the paired difference d = loss_B - loss_A
# over seeds, never by a size converted from a printed table gap:
#
#   holds                     Holm rejects d = 0 (two-sided t, family = the claim's
#                             sub-assertions) and the mean is on the asserted side: the CI at
#                             the adjusted level lies on that side
#   fails                     the same, on the other side
#   no detectable difference  not the above, and the (1 - 2 alpha) CI lies inside +-margin (two
#                             one-sided tests at the family's level alpha: equivalence; the 90%
#                             CI at 0.05, wider where alpha is spent over members or looks),
#                             margin = EQUIVALENCE_MARGIN x the pair's mean loss
#   undecided                 otherwise; n_needed = seeds at which the MDE reaches the observed
#                             |mean d| (or the margin, whichever is larger)
#
# "A is not worse than B" (a tie for best) is a non-inferiority sub-assertion: holds when the
# CI's lower end is above -margin (one-sided, Holm), fails when its upper end is below -margin.
#
# The margin rule, one for every claim: the papers print their losses to four significant
# digits (1.1569, 3.008, 2.4473), so one unit of the fourth digit, 0.1% of the loss, is the
# smallest difference a printed table can show; a difference whose CI stays inside +-0.1% of the
# loss is below anything the papers' tables could assert. A claim holds when every sub-assertion
# holds, fails when one fails, and is inconclusive otherwise (its statuses are reported).

EQUIVALENCE_MARGIN = 1e-3  # relative to the pair's mean loss: one unit of the fourth printed digit
SUB_KINDS = ("less", "not-worse")


def sign_first(subs: dict[str, tuple], alpha: float = ALPHA,
               margin: float = EQUIVALENCE_MARGIN, missing: dict[str, str] | None = None,
               alpha_at: Callable[[int], float] | None = None) -> tuple[str, dict[str, dict]]:
    """Decide sub-assertions {name: (a_values, b_values, kind[, level])} (paired per seed; the text
    asserts a below b: kind "less", or a not above b by more than the margin: "not-worse") by the
    rule above. The margin is `margin` times the pair's mean level, or times `level` where given:
    the loss level for a quantity that is not a loss (a change of loss between studies, a
    diagnostic that can be negative), whose own level would make the margin meaningless. Returns the claim's verdict and one row per sub-assertion: mean difference d = b - a,
    its 95% CI, the margin, the Holm decision, `status` and (undecided) `n_needed`. `missing`
    names sub-assertions without enough runs ({name: why}): undecided, and counted in the Holm
    family with p = 1 (so the others are corrected for them too). `alpha_at(n)`: the family's
    level were its sample extended to n seeds (default `alpha` at every n), at which `n_needed`
    is found."""
    rows, family = {}, {}
    for name, why in (missing or {}).items():
        rows[name] = {"status": "undecided", "why": why}
        family[name] = 1.0
    for name, (a, b, kind, *given) in subs.items():
        if kind not in SUB_KINDS:
            raise ValueError(f"kind must be one of {SUB_KINDS}, got {kind!r} ({name})")
        row = {k: v for k, v in paired_difference(a, b).items() if k not in ("claimed", "p_size")}
        level = float(given[0]) if given else (float(np.mean(a)) + float(np.mean(b))) / 2
        if not level > 0:
            raise ValueError(f"level: the margin's level must be positive, got {level!r} ({name}); "
                             "give the loss level for a quantity that can be negative")
        row |= {"kind": kind, "margin": margin * level} | ({"margin_level": "the loss level"} if given else {})
        n, mean, sd = row["n_seeds"], row["mean_diff"], row["sd_diff"]
        se = sd / math.sqrt(n) if n > 1 else math.nan
        if kind == "less":
            family[name] = row["p_sign"]
        else:  # H0: d <= -margin (a worse than b by more than the margin)
            family[name] = (float(stats.t.sf((mean + row["margin"]) / se, n - 1)) if se > 0
                            else float(mean + row["margin"] <= 0))
        rows[name] = row
    rejected = holm(family, alpha)
    m = max(len(family), 1)
    for name, row in rows.items():
        if name in (missing or {}):
            continue
        n, mean, sd, margin_abs = row["n_seeds"], row["mean_diff"], row["sd_diff"], row["margin"]
        se = sd / math.sqrt(n) if n > 1 else math.nan
        if n >= 2 and se > 0:
            half_tost = float(stats.t.ppf(1 - alpha, n - 1) * se)
            ci_tost = [mean - half_tost, mean + half_tost]
        else:
            ci_tost = [mean, mean]
        if row["kind"] == "less":
            status = ("holds" if mean > 0 else "fails") if rejected[name] else (
                "no detectable difference" if -margin_abs < ci_tost[0] and ci_tost[1] < margin_abs else "undecided")
        else:
            fails = n >= 2 and ((se > 0 and float(stats.t.cdf((mean + margin_abs) / se, n - 1)) < alpha / m)
                                or (se == 0 and mean < -margin_abs))
            status = "holds" if rejected[name] else "fails" if fails else "undecided"
        row |= {"ci_tost": ci_tost, "status": status, "mde": mde(sd, n, alpha / m)}
        if status == "undecided":
            row["n_needed"] = n_needed(sd, max(abs(mean), margin_abs),
                                       (lambda k: alpha_at(k) / m) if alpha_at else alpha / m)
    statuses = [r["status"] for r in rows.values()]
    verdict = ("fails" if "fails" in statuses else
               "holds" if statuses and all(s == "holds" for s in statuses) else "inconclusive")
    return verdict, rows


def fail_power(differences: dict[str, list[float]], n: int, levels: dict[str, float], *,
               missing: dict[str, str] | None = None, draws: int = 1000, seed: int = 0) -> float:
    """The probability that `sign_first` finds one of the "less" sub-assertions failing at `n`
    fresh paired seeds if the explored per-seed differences a - b ({name: one per explored seed,
    the same seeds for every name}) are the truth: Monte Carlo (`draws`, fixed `seed`) from the
    normal with their mean and covariance, b at 0 and a at the simulated difference. `levels`: each
    sub-assertion's loss level (its margin; a difference has none of its own). `missing`: the
    family's other sub-assertions, not simulated, in Holm's family with p = 1 (a lower bound: their
    rejections cannot lower its thresholds). This sizes a confirmatory sample before its runs."""
    if not isinstance(n, int) or n < 3:
        raise ValueError(f"n must be an integer >= 3 paired seeds, got {n!r}")
    if not differences or set(levels) != set(differences):
        raise ValueError(f"levels must name the sub-assertions of differences, got {sorted(levels)} "
                         f"for {sorted(differences)}")
    names = list(differences)
    if len({len(differences[k]) for k in names}) != 1 or len(differences[names[0]]) < 2:
        raise ValueError("differences must hold the same >= 2 explored seeds for every sub-assertion")
    diff = np.asarray([differences[k] for k in names], dtype=float).T  # seeds x sub-assertions
    if not np.all(np.isfinite(diff)):
        raise ValueError("differences must be finite")
    rng = np.random.default_rng(seed)
    samples = rng.multivariate_normal(diff.mean(0), np.atleast_2d(np.cov(diff.T)), size=(draws, n))
    hits = 0
    for x in samples:
        subs = {k: (list(x[:, j]), [0.0] * n, "less", levels[k]) for j, k in enumerate(names)}
        hits += any(r["status"] == "fails" for r in sign_first(subs, missing=missing)[1].values())
    return hits / draws


def kendall_tau(x, y) -> float:
    """Kendall's tau-b between two equally long sequences (scipy.stats.kendalltau)."""
    return float(stats.kendalltau(x, y).statistic)


def table_agreement(printed: dict[str, float], values: dict[str, list[float]], *,
                    n_boot: int = 2000, seed: int = 0) -> dict:
    """How well our arms reproduce a printed table: a sign-only status for every printed pair
    a < b (unadjusted 95% CI of the paired difference: agree / reversed / undecided; equal printed
    values are not compared), the share of printed pairs reproduced (agree), and Kendall's tau
    between printed values and our means with a percentile bootstrap CI over seeds (resampled
    jointly for every arm, `n_boot` draws from a fixed generator). Evidence, never a verdict."""
    labels = [k for k in printed if k in values]
    pairs = {}
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if printed[a] == printed[b]:
                continue
            lo, hi = (a, b) if printed[a] < printed[b] else (b, a)
            row = paired_difference(values[lo], values[hi])
            ci = row["ci95"]
            status = "agree" if ci[0] > 0 else "reversed" if ci[1] < 0 else "undecided"
            pairs[f"{lo} < {hi}"] = {"printed": [printed[lo], printed[hi]], "mean_diff": row["mean_diff"],
                                     "ci95": ci, "status": status}
    p = [printed[k] for k in labels]
    data = np.array([values[k] for k in labels], dtype=float)  # arms x seeds
    tau = kendall_tau(p, data.mean(axis=1))
    rng = np.random.default_rng(seed)
    n = data.shape[1]
    boot = [kendall_tau(p, data[:, rng.integers(0, n, n)].mean(axis=1)) for _ in range(n_boot)] if n > 1 else []
    boot = [b for b in boot if math.isfinite(b)]
    counts = {s: sum(r["status"] == s for r in pairs.values()) for s in ("agree", "reversed", "undecided")}
    return {"pairs": pairs, "status_counts": counts,
            "share_reproduced": counts["agree"] / len(pairs) if pairs else math.nan,
            "kendall_tau": tau,
            "kendall_tau_ci95": [float(np.percentile(boot, 2.5)), float(np.percentile(boot, 97.5))]
            if boot else [math.nan, math.nan], "n_boot": n_boot}

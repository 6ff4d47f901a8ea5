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


def n_needed(sd: float, effect: float, alpha: float = ALPHA, power: float = POWER) -> int | None:
    """The smallest n with `mde(sd, n) <= effect` (None beyond N_MAX seeds: no practical n)."""
    if effect <= 0 or not math.isfinite(effect):
        return None
    if sd == 0:
        return 2
    lo, hi = 2, N_MAX
    if mde(sd, hi, alpha, power) > effect:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if mde(sd, mid, alpha, power) <= effect else (mid + 1, hi)
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

"""Mutation testing of the core numerics: do the fast tests, and separately the ledger, notice a
plausible bug?

    .venv/bin/python tools/mutation.py                  # every mutant: tests, then ledger
    .venv/bin/python tools/mutation.py --list           # the mutants and what each one breaks
    .venv/bin/python tools/mutation.py --only ab2-constant-weights causal-mask-sees-next
    .venv/bin/python tools/mutation.py --json runs/mutation.json

Each mutant is one textual edit (`old` -> `new`, `old` must occur exactly once in the file) of a
plausible kind: a sign flip, an off-by-one in a mask, a factor 2 in ε, transposed blocks, a
weight that is only wrong for unequal steps. It is applied to a copy of the working tree (the
files git tracks or does not ignore) in a temporary directory, never to the working tree itself,
and the copy is imported (PYTHONPATH and the working directory point at it). For each mutant:

* tests:  `pytest -m "not slow"` on the test files of the mutated module (never tests/test_claims.py,
  which runs the ledger); killed iff pytest fails;
* ledger: `python -m claims --json --only <ids>` at the quick budget on the claims of the modules
  that use the mutated code; killed iff some verdict differs from its pinned `expect` (an error
  row included).

The unmutated copy is run first: a test file or claim that already fails there is reported and
left out (it cannot tell a mutant apart). Everything runs in one process at a time with one thread
(OMP/MKL/torch), so the harness uses at most one CPU core. The kill rates are printed for the tests
alone and for the ledger alone; docs/testing.md records the last result.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    old: str
    new: str
    why: str


# What each mutated module is checked by: its fast test files and the claim modules using it.
TESTS = {
    "particles/integrators.py": ["tests/test_conventions.py", "tests/test_integrators.py"],
    "theory/schemes.py": ["tests/test_conventions.py", "tests/test_schemes.py"],
    "particles/attention.py": ["tests/test_conventions.py", "tests/test_attention.py"],
    "particles/accelerated.py": ["tests/test_accelerated.py"],
    "particles/sympnet.py": ["tests/test_conventions.py", "tests/test_sympnet.py"],
    "particles/sinkhorn.py": ["tests/test_conventions.py", "tests/test_sinkhorn.py"],
    "theory/gaussian_ot.py": ["tests/test_conventions.py", "tests/test_gaussian_ot.py"],
    "theory/rates.py": ["tests/test_conventions.py", "tests/test_rates.py"],
    "theory/symplectic.py": ["tests/test_conventions.py", "tests/test_symplectic.py"],
    "theory/elliptical.py": ["tests/test_elliptical.py"],
}
SCHEMES_000 = ["claims.sympformer.hamiltonian", "claims.sympformer.schemes", "claims.sympformer.softmax",
               "claims.sympformer.abstract"]
ATTENTION_000 = ["claims.sympformer.linear", "claims.sympformer.softmax", "claims.sympformer.abstract"]
SEED_001 = ["claims.sp_transformer.theorems", "claims.sp_transformer.attention"]
CLAIMS = {
    "particles/integrators.py": SCHEMES_000,
    "theory/schemes.py": SCHEMES_000 + ["claims.sympformer.nesterov"],
    "particles/attention.py": ATTENTION_000 + ["claims.sympformer.training", "claims.yurii.architecture",
                                                "claims.momentum_streams.architecture"],
    "particles/accelerated.py": ATTENTION_000,
    "particles/sympnet.py": SEED_001,
    "particles/sinkhorn.py": ["claims.heatflow.bridges"],
    "theory/gaussian_ot.py": ["claims.heatflow.bridges"],
    "theory/rates.py": ["claims.momentum_streams.contraction", "claims.momentum_streams.families", "claims.yurii.optimization",
                        "claims.sympformer.nesterov"],
    "theory/symplectic.py": ["claims.sympformer.hamiltonian", "claims.sympformer.softmax"] + SEED_001,
    "theory/elliptical.py": ["claims.sympformer.linear", "claims.sympformer.abstract"],
}

AB2_WEIGHTS = "return (2.0 * h_prev + h) / (2.0 * h_prev), h / (2.0 * h_prev)"
MUTANTS = [
    # ---------------------------------------------------------------- integrators and weights
    Mutant("ab2-weights-reversed-ratio", "theory/schemes.py", AB2_WEIGHTS,
           "return (2.0 * h + h_prev) / (2.0 * h), h_prev / (2.0 * h)",
           "AB-2 (17) weights with h_k and h_{k−1} exchanged: consistent, exact for equal steps, and "
           "its errors cancel in pairs on smooth and alternating grids (order 2 stays)"),
    Mutant("ab2-constant-weights", "theory/schemes.py", AB2_WEIGHTS, "return 1.5, 0.5",
           "the constant-step weights (3/2, 1/2) used for every step ratio"),
    Mutant("ab2-beta1-inconsistent", "theory/schemes.py", AB2_WEIGHTS,
           "return (2.0 * h_prev + h) / (2.0 * h_prev), h_prev / (2.0 * h)",
           "β₁ = h_{k−1}/(2h_k): β₀ − β₁ ≠ 1 unless the steps are equal"),
    Mutant("etd-ab2-drops-sigma-prev", "particles/integrators.py", "b1 * sigma_prev * gq_prev",
           "b1 * gq_prev", "ETD-AB2 forgets the factor σ_{k−1} on the old force of (12)"),
    Mutant("eq15-drift-at-old-momentum", "particles/integrators.py",
           "return Step(q + h * field.grad_p(q, p_new), p_new)",
           "return Step(q + h * field.grad_p(q, p), p_new)",
           "(15) drifts with the old momentum: not symplectic"),
    Mutant("eq15-damp-then-kick", "particles/integrators.py",
           "p_new = damping.sigma(t, h) * (p - h * field.grad_q(q, p))",
           "p_new = damping.sigma(t, h) * p - h * field.grad_q(q, p)",
           "(15) damps before the kick (the other Lie–Trotter order): not the printed scheme"),
    Mutant("expeuler-extra-h", "particles/integrators.py", "w = damping.weight(t, h)",
           "w = h * damping.weight(t, h)", "the exact exponential-Euler weight times h (the bug of (16))"),
    Mutant("midpoint-second-half-damped-at-t", "particles/integrators.py",
           "return Step(q1, damping.sigma(t + h / 2, h / 2) * p1)",
           "return Step(q1, damping.sigma(t, h / 2) * p1)",
           "the Strang split damps its second half over [t, t+h/2] again"),
    Mutant("explicit-euler-force-sign", "particles/integrators.py",
           "return Step(q + h * field.grad_p(q, p), a_k * p - h * field.grad_q(q, p))",
           "return Step(q + h * field.grad_p(q, p), a_k * p + h * field.grad_q(q, p))",
           "(14) with the force sign flipped"),
    Mutant("rk4-third-stage-from-first", "particles/integrators.py",
           "k3 = f(t + h / 2, q + h / 2 * k2[0], p + h / 2 * k2[1])",
           "k3 = f(t + h / 2, q + h / 2 * k1[0], p + h / 2 * k1[1])",
           "RK4's third stage built from k1: still four calls, no longer order 4"),
    Mutant("delta-eta-wrong-log", "theory/schemes.py",
           "return (self.r * math.log1p(h / t_k) if self.r else 0.0) + self.m * h",
           "return (self.r * math.log1p(h / (t_k + h)) if self.r else 0.0) + self.m * h",
           "Δη_k = r log(1 + h/t_{k+1}) instead of r log(1 + h/t_k): σ_k wrong for α = r/t"),
    Mutant("power-weight-exponent", "theory/schemes.py",
           "return -t1 * math.expm1((r + 1.0) * math.log1p(-h / t1)) / (r + 1.0)",
           "return -t1 * math.expm1(r * math.log1p(-h / t1)) / (r + 1.0)",
           "exponential-Euler weight for α = r/t with exponent r instead of r + 1"),
    Mutant("weight-quadrature-sign", "theory/schemes.py",
           "np.exp(r * np.log(s / t1) - m * (t1 - s))", "np.exp(r * np.log(s / t1) + m * (t1 - s))",
           "the Gauss–Legendre branch of the weight with e^{+m(t−s)}"),
    Mutant("hypergeometric-parameter", "theory/schemes.py", "special.hyp1f1(1.0, r + 2.0, -m * t)",
           "special.hyp1f1(1.0, r + 1.0, -m * t)", "₁F₁(1; r+1; −mt) instead of ₁F₁(1; r+2; −mt)"),
    # ---------------------------------------------------------------- attention, masks, particles
    Mutant("causal-mask-sees-next", "particles/attention.py",
           "return torch.ones(N, N, dtype=torch.bool, device=device).tril()",
           "return torch.ones(N, N, dtype=torch.bool, device=device).tril(1)",
           "the causal mask lets token i see token i + 1"),
    Mutant("logits-transposed", "particles/attention.py", "return X @ A.T @ X.T",
           "return X @ A @ X.T", "L_ij = X_iᵀAX_j instead of X_jᵀAX_i (differs for non-symmetric A)"),
    Mutant("linear-attention-no-mean", "particles/attention.py", "return K @ X @ V.T / N",
           "return K @ X @ V.T", "linear attention without the mean-field 1/N"),
    Mutant("energy-sm-normalization", "particles/attention.py", "2 * math.log(X.shape[0])",
           "math.log(X.shape[0])", "F^SM normalized by 1/N instead of 1/N²"),
    Mutant("softmax-potential-factor", "particles/accelerated.py",
           "+ 2 * potential_scale * torch.exp(L))", "+ potential_scale * torch.exp(L))",
           "the '+2' potential term of (34) halved"),
    Mutant("linear-oracle-no-mean", "particles/accelerated.py",
           "-Y @ (Y.T @ X) @ A / N + X @ V", "-Y @ (Y.T @ X) @ A + X @ V",
           "(28)'s kinetic force without 1/N"),
    # ---------------------------------------------------------------- SympNet, Cayley, Λ̃
    Mutant("cayley-printed-flag-ignored", "particles/sympnet.py", "return Q / 2 if printed else Q",
           "return Q", "the printed ½ of eq. (20) silently dropped"),
    Mutant("phi-not-skew", "particles/sympnet.py", "upper - upper.mT", "upper + upper.mT",
           "Φ(C) of eq. (20) symmetric instead of skew"),
    Mutant("gradient-layer-wrong-argument", "particles/sympnet.py",
           "return torch.cat([q + self.increment(p), p], dim=-1)",
           "return torch.cat([q + self.increment(q), p], dim=-1)",
           "the q-update of eq. (15) driven by q: not symplectic"),
    Mutant("lambda-tilde-transposed-blocks", "particles/sympnet.py",
           'return torch.einsum("ij,...kl->...ikjl", eye, Lam)',
           'return torch.einsum("ij,...lk->...ikjl", eye, Lam)',
           "Λ̃ of eq. (22) with blocks Λᵀ"),
    Mutant("canonical-J-sign", "theory/symplectic.py",
           "return np.block([[zero, eye], [-eye, zero]])", "return np.block([[zero, eye], [eye, zero]])",
           "J with a symmetric lower block"),
    # ---------------------------------------------------------------- Sinkhorn, κ, closed forms
    Mutant("cost-factor-2", "particles/sinkhorn.py", "kappa * torch.cdist", "2 * kappa * torch.cdist",
           "C = 2κ|x−y|²: a factor 2 in ε of every bridge"),
    Mutant("sinkformer-temperature-2", "particles/sinkhorn.py", "q, k = x @ W_Q.T, x @ W_K.T",
           "q, k = x @ W_Q.T / 2, x @ W_K.T", "the Sinkformer kernel exp(C/(2ε))"),
    Mutant("euler-step-factor-2", "particles/sinkhorn.py", "return x - 0.5 * eps * s",
           "return x - eps * s", "S¹_ε = Id − ε∇log ρ instead of Id − (ε/2)∇log ρ"),
    Mutant("barycentric-ignores-weights", "particles/sinkhorn.py",
           "logits = (self.f.unsqueeze(-2) - self.cost_matrix()) / self.eps + self.log_a.unsqueeze(-2)",
           "logits = (self.f.unsqueeze(-2) - self.cost_matrix()) / self.eps",
           "B(x_i) averages over j without the weights a_j (visible for non-uniform ρ only)"),
    Mutant("effective-eps-factor-2", "theory/gaussian_ot.py",
           'return _positive(eps, "eps") / (2.0 * cost_kappa(cost))',
           'return _positive(eps, "eps") / cost_kappa(cost)', "ε' = ε/κ instead of ε/(2κ)"),
    Mutant("half-square-kappa", "theory/gaussian_ot.py", 'COSTS = {"half_sq": 0.5, "sq": 1.0}',
           'COSTS = {"half_sq": 1.0, "sq": 1.0}', "the half-square cost with κ = 1"),
    # ---------------------------------------------------------------- rates on the quadratic model
    Mutant("momentum-rate-formula", "theory/rates.py", "    return (s - 1.0) / (s + 1.0)\n",
           "    return (s - 1.0) / s\n", "(√κ−1)/√κ instead of (√κ−1)/(√κ+1)"),
    Mutant("iteration-matrix-nu-in-gradient-row", "theory/rates.py",
           "T[..., 1, 0] = -m.eta * lam", "T[..., 1, 0] = -m.c * m.eta * lam",
           "T(λ) with ν on the velocity's gradient entry (differs for TMM, ν ≠ 1)"),
    Mutant("tmm-nu-ignored", "theory/rates.py", 'c=_positive(nu, "nu")', "c=1.0",
           "TMM built with ν = 1 whatever ν"),
    Mutant("complex-root-radius", "theory/rates.py", "np.sqrt(np.abs(theta))", "np.abs(theta)",
           "the radius of a complex pair is |θ| instead of √|θ|"),
    Mutant("heavy-ball-transient", "theory/rates.py", "1.0 + (1.0 + rho) * N", "1.0 + rho * N",
           "the Jordan-block growth 1 + (1+ρ)N written 1 + ρN"),
    # ---------------------------------------------------------------- elliptical moments
    Mutant("kappa-student-t", "theory/elliptical.py", "return v / (v - 2)", "return v / (v - 1)",
           "κ_g of Student-t as v/(v−1)"),
]


# ------------------------------------------------------------------ running


def _env(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=str(copy), HYPOTHESIS_PROFILE="ci", OMP_NUM_THREADS="1",
               MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


def _copy_tree(dest: Path) -> None:
    """The files git tracks or does not ignore, as they are in the working tree."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def _run_tests(copy: Path, files: list[str], timeout: float) -> tuple[bool, str]:
    """True iff the tests pass."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not slow",
           "-o", "addopts=", *files]
    try:
        r = subprocess.run(cmd, cwd=copy, env=_env(copy), capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    if r.returncode == 5:
        raise RuntimeError(f"no tests collected from {files}")
    tail = (r.stdout + r.stderr).strip().splitlines()
    return r.returncode == 0, tail[-1] if tail else ""


def _run_claims(copy: Path, ids: list[str], timeout: float) -> dict[str, str]:
    """{claim id: 'ok' or 'verdict (expected expect)'}; every id 'crash: ...' when the run fails."""
    # one process: a mutant's copy must not spawn a pool per claim run (`claims --jobs`)
    cmd = [sys.executable, "-m", "claims", "--json", "--jobs", "1", "--only", *ids]
    try:
        r = subprocess.run(cmd, cwd=copy, env=_env(copy), capture_output=True, text=True,
                           timeout=timeout)
        rows = json.loads(r.stdout)
    except subprocess.TimeoutExpired:
        return {i: "crash: timeout" for i in ids}
    except json.JSONDecodeError:
        last = (r.stderr.strip().splitlines() or ["no output"])[-1]
        return {i: f"crash: stdout is not JSON (it starts {r.stdout[:60]!r}); stderr ends {last!r}" for i in ids}
    return {row["id"]: "ok" if row["verdict"] == row["expect"]
            else f"{row['verdict']} (expected {row['expect']})" for row in rows}


def _claim_ids(copy: Path, modules: list[str]) -> list[str]:
    code = ("import json, claims; print(json.dumps(sorted(c.id for c in claims.load().values() "
            f"if c.check.__module__ in {modules!r})))")
    r = subprocess.run([sys.executable, "-c", code], cwd=copy, env=_env(copy), capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tools/mutation.py", description=__doc__.splitlines()[0])
    p.add_argument("--list", action="store_true", help="list the mutants and exit")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutants")
    p.add_argument("--json", metavar="PATH", help="write the per-mutant results as JSON")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds per pytest / ledger run")
    args = p.parse_args(argv)
    mutants = MUTANTS
    if args.only:
        unknown = set(args.only) - {m.name for m in MUTANTS}
        if unknown:
            p.error(f"--only: unknown mutants {sorted(unknown)}")
        mutants = [m for m in MUTANTS if m.name in args.only]
    if args.list:
        for m in mutants:
            print(f"{m.name:40s} {m.path:26s} {m.why}")
        return 0
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        copy = Path(tmp)
        _copy_tree(copy)
        for m in mutants:  # every mutant must apply to the current sources, exactly once
            n = (copy / m.path).read_text().count(m.old)
            if n != 1:
                raise SystemExit(f"mutant {m.name}: {m.old!r} occurs {n} times in {m.path}")
        paths = sorted({m.path for m in mutants})
        ids = {path: _claim_ids(copy, CLAIMS[path]) for path in paths}
        # baseline: what fails without a mutant cannot tell one apart
        test_files = sorted({f for path in paths for f in TESTS[path]})
        good_files = [f for f in test_files if _run_tests(copy, [f], args.timeout)[0]]
        base = _run_claims(copy, sorted({i for v in ids.values() for i in v}), args.timeout)
        bad = sorted(i for i, v in base.items() if v != "ok")
        reasons = sorted({base[i] for i in bad})
        print(f"baseline: test files failing without a mutant {sorted(set(test_files) - set(good_files))}; "
              f"claims differing from expect {bad}" + (f" (why: {reasons[:3]})" if bad else ""), flush=True)
        if bad and len(bad) == len(base):
            raise SystemExit("every claim differs from expect without a mutant: the ledger cannot "
                             f"judge a mutant ({reasons[0]})")
        rows = []
        for m in mutants:
            target = copy / m.path
            original = target.read_text()
            target.write_text(original.replace(m.old, m.new))
            try:
                files = [f for f in TESTS[m.path] if f in good_files]
                t_ok, t_msg = _run_tests(copy, files, args.timeout)
                verdicts = _run_claims(copy, [i for i in ids[m.path] if i not in bad], args.timeout)
            finally:
                target.write_text(original)
            changed = {i: v for i, v in verdicts.items() if v != "ok"}
            rows.append({"mutant": m.name, "path": m.path, "why": m.why,
                         "killed_by_tests": not t_ok, "tests": t_msg,
                         "killed_by_ledger": bool(changed), "claims": changed})
            print(f"{m.name:40s} tests: {'killed' if not t_ok else 'SURVIVED':8s} "
                  f"ledger: {'killed' if changed else 'SURVIVED':8s} {sorted(changed)[:4]}", flush=True)
    n = len(rows)
    k_t = sum(r["killed_by_tests"] for r in rows)
    k_l = sum(r["killed_by_ledger"] for r in rows)
    k_b = sum(r["killed_by_tests"] and r["killed_by_ledger"] for r in rows)
    print(f"\n{n} mutants: tests alone kill {k_t}/{n} ({100 * k_t / n:.0f}%), ledger alone kills "
          f"{k_l}/{n} ({100 * k_l / n:.0f}%), both {k_b}/{n}; {time.time() - start:.0f} s")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0 if k_t == k_l == n else 1


if __name__ == "__main__":
    sys.exit(main())

"""What a lent CUDA machine measures for the ledger, in one call (docs/training.md, "On a GPU").

    python tools/cuda_session.py PART --out DIR

Parts (each writes DIR/<part>.json atomically; run them in separate processes so that one
part's failure or time-out loses nothing of the others):

* ``wallclock``: one optimizer step of every compared variant at each paper's own size
  (`claims.training.wallclock.PAPER_STEPS`: seed 002's and seed 004's 12-layer width-768 GPT at
  T = 1024 with the Muon hybrid, seed 000 Table 1's 8-layer width-64 model at T = 512 with AdamW;
  the paper's vocabulary, micro-batch, accumulation and bf16 autocast), timed interleaved by
  `particles.lm.bench.measure_steps` (7 rounds): what `sympformer:wall-clock`,
  `momentum_streams:wall-clock`, `wall-clock-muon` and `yurii:wall-clock` decide on when present,
  and what the H100 roofline prediction is checked against.
* ``wallclock-compiled``: the same under `torch.compile` (seed 002 App. D.4 trains compiled), for
  the variants of the momentum-stream and Nesterov/Polyak statements (compilation dominates the
  part's time; `COMPILED_ROUNDS` rounds).
* ``wallclock-compiled-extra``: further compiled groups beside that part (`COMPILED_EXTRA`:
  MuonFormer and AdamWFormer with their own vanilla), which `assemble` adds to it.
* ``bench``: the training benchmark of figure `bench-training` (every variant against vanilla, at
  the proxy size) on CUDA.
* ``sinkhorn``: figure bench-sinkhorn's O(N)-memory solvers on the GPU (float64, equal tolerance):
  ours online (`sinkhorn_points`, blocks of 2^28 entries) against GeomLoss's online backend (KeOps
  LazyTensors, its own ε-scaling, stopped at the first iteration that meets tol) at N = 10⁴ and
  10⁵, and GeomLoss tensorized where its two N×N matrices fit; wall-clock seconds with device
  synchronization, `SINKHORN_ROUNDS` interleaved rounds, peak GPU memory per solve.
* ``kernels``: what each CUDA attention kernel (flash, memory-efficient, cuDNN, math) does with
  the double backward of App. G's Hessian-vector products, in bf16, fp16 and fp32
  (`claims.momentum_streams.remarks.double_backward_outcome`): what
  `momentum_streams:double-backward-kernels` decides on when present.
* ``throughput``: tokens/s and model-FLOPs utilisation of the training path (`particles.lm.train`,
  bf16 autocast) at the studies' size and at GPT-2-small's size (byte vocabulary), eager and
  compiled.

Nothing here runs in CI or without CUDA. Back on a machine with the repository,

    python tools/cuda_session.py assemble DIR [DIR ...] [--exclude PART:PAPER:VARIANT=WHY ...]

merges the parts' JSONs into the committed results/bench/cuda-measurements.json (read by
claims/training/wallclock.py and docs/benchmarks.md), dropping excluded measurements with the reason.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from theory.io import atomic_write_json  # noqa: E402

PARTS = ("wallclock", "wallclock-compiled", "wallclock-compiled-extra", "bench", "throughput", "sinkhorn", "kernels")
# seed 000's model is small and its step short: launch-bound, so more rounds for the same seconds
ROUNDS = {"momentum_streams": 7, "yurii": 7, "sympformer": 15}


def _timed_groups(out: Path, part: str, groups: dict[str, tuple[str, tuple[str, ...]]], *, compile: bool) -> None:
    """One optimizer step of each group's variants at its paper's size (`measure_steps`,
    interleaved rounds: `COMPILED_ROUNDS` compiled, `ROUNDS[paper]` eager); group key -> (paper,
    variants); DIR/<part>.json is rewritten atomically after each group."""
    from claims.training.wallclock import PAPER_STEPS
    from particles.lm.bench import measure_steps
    result = {}
    for key, (paper, variants) in groups.items():
        start = time.perf_counter()
        result[key] = measure_steps(PAPER_STEPS[paper], variants, device="cuda", compile=compile,
                                    rounds=COMPILED_ROUNDS if compile else ROUNDS[paper])
        result[key]["elapsed_s"] = time.perf_counter() - start
        torch.cuda.empty_cache()
        atomic_write_json(out / f"{part}.json", result)


def wallclock(out: Path) -> None:
    from claims.training.wallclock import PAPER_VARIANTS
    _timed_groups(out, "wallclock", {p: (p, PAPER_VARIANTS[p]) for p in ("yurii", "sympformer", "momentum_streams")},
                  compile=False)   # cheapest first


# 7 rounds: the order-statistic interval of a median reaches 95% coverage from 6 (5 gave 93.75%,
# so the 26 Nov 2026 compiled measurement could not decide `momentum_streams:wall-clock`)
COMPILED_ROUNDS = 7
# the statements' variants (seed 002 §4.2: the four momentum streams against vanilla; seed 004 §6)
COMPILED = {"momentum_streams": ("gd-lt", "tmm", "yurii", "hb", "adam"),
            "yurii": ("gd-lt", "polyak-euler", "nesterov-euler", "polyak-lt", "nesterov-lt")}
# measurement groups added beside a committed compiled part (`claims.training.gpu.measured_groups`):
# group key -> (paper, variants); vanilla is timed again in each group, whose rounds pair only within it
COMPILED_EXTRA = {"momentum_streams/muon": ("momentum_streams", ("gd-lt", "muon", "adamw"))}


def wallclock_compiled(out: Path) -> None:
    _timed_groups(out, "wallclock-compiled", {p: (p, v) for p, v in COMPILED.items()}, compile=True)


def wallclock_compiled_extra(out: Path) -> None:
    _timed_groups(out, "wallclock-compiled-extra", COMPILED_EXTRA, compile=True)


def bench(out: Path) -> None:
    from particles.lm.bench import training_throughput
    atomic_write_json(out / "bench.json", training_throughput("full", device="cuda", threads=None))


def throughput(out: Path) -> None:
    from particles.lm.studies import MAIN
    from particles.lm.train import TrainConfig, train
    gpt2 = replace(TrainConfig(), n_layer=12, n_head=12, n_embd=768, block_size=1024, batch_size=16,
                   optimizer="muon")
    rows = {}
    for name, cfg in (("main", MAIN), ("gpt2-small-bytes", gpt2)):
        for compiled in (False, True):
            c = replace(cfg, device="cuda", steps=60, warmup=5, eval_interval=60, eval_batches=2,
                        compile=compiled)
            start = time.perf_counter()
            r = train(c)
            rows[f"{name}{'-compiled' if compiled else ''}"] = {
                k: r[k] for k in ("tokens_per_s", "mfu", "flops_per_token", "n_params", "step_time_s",
                                  "device", "torch")} | {"config": r["config"], "elapsed_s": time.perf_counter() - start}
            atomic_write_json(out / "throughput.json", rows)


# (N, ε): 10⁵ is the size the issue asks for; ε = 0.01 at 10⁴ is the case the CPU bench leaves out
SINKHORN_CASES = ((10_000, 0.1), (10_000, 0.01), (100_000, 0.1))
SINKHORN_ROUNDS = 6   # the smallest count whose order-statistic CI for a median reaches 95%
GPU_BLOCK_ENTRIES = 1 << 28   # ours online on the GPU: 2 GB blocks (the CPU default, 2^18, is launch-bound)


KEOPS_PROBE = ("import torch; from figures import bench_sinkhorn as bs; x, y = (t.cuda() for t in bs.points(50)); "
               "bs.geomloss(x, y, 0.1, 5, matrix_type='lazy')()")


def keops_on_cuda() -> str | None:
    """Why GeomLoss's KeOps backend cannot run on this GPU (None when it can), probed in a child
    process: on the H200 of 26 Nov 2026 (CUDA 13) KeOps segfaulted compiling its first formula,
    which took the whole part down with it."""
    import subprocess
    probe = subprocess.run([sys.executable, "-c", KEOPS_PROBE], capture_output=True, text=True, timeout=300,
                           cwd=Path(__file__).resolve().parents[1])
    if probe.returncode:
        tail = (probe.stderr.strip().splitlines() or ["(no message)"])[-1][:300]
        return f"KeOps failed in a probe on 50 points (exit status {probe.returncode}): {tail}"
    return None


def sinkhorn(out: Path) -> None:
    from claims._committed import package_versions
    from figures import bench_sinkhorn as bs
    from particles.lm.bench import ratio_summary, time_interleaved
    rows = []
    keops = keops_on_cuda()
    for n, eps in SINKHORN_CASES:
        x, y = (t.cuda() for t in bs.points(n))
        chunk = max(1, GPU_BLOCK_ENTRIES // n)
        calls, skipped = {bs.ONLINE: bs.online(x, y, eps, chunk=chunk)}, {}
        if keops is None:
            k = bs.geomloss_iterations(x, y, eps, matrix_type="lazy", chunk=chunk)
            calls[bs.GEOMLOSS_ONLINE] = bs.geomloss(x, y, eps, k, matrix_type="lazy")
        else:
            skipped[bs.GEOMLOSS_ONLINE] = keops
        if 2 * n * n * 8 <= torch.cuda.get_device_properties(0).total_memory / 4:
            calls[bs.GEOMLOSS] = bs.geomloss(x, y, eps, bs.geomloss_iterations(x, y, eps))
        else:
            skipped[bs.GEOMLOSS] = f"its two N×N cost matrices need {2 * n * n * 8 / 1e9:.0f} GB in float64"
        entries = {}
        for name, call in calls.items():
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            base = torch.cuda.memory_allocated()
            f, g, k = call()
            torch.cuda.synchronize()
            residual = bs.chunked_residual(x, y, eps, f, g, chunk)
            entries[name] = {"iterations": k, "verified_residual": residual, "meets_tol": residual <= bs.TOL + 1e-15,
                             "peak_cuda_bytes": torch.cuda.max_memory_allocated() - base}
            del f, g
        seconds = time_interleaved(calls, SINKHORN_ROUNDS, clock=time.perf_counter, sync=torch.cuda.synchronize)
        for name, entry in entries.items():
            entry |= {"seconds": list(seconds[name]), "median_seconds": float(sorted(seconds[name])[len(seconds[name]) // 2])}
            if name != bs.ONLINE:
                entry["ours-online_over_peer"] = ratio_summary([a / b for a, b in zip(seconds[bs.ONLINE], seconds[name])])
        rows.append({"n": n, "eps": eps, "chunk": chunk, "solvers": entries, "skipped": skipped,
                     "device": torch.cuda.get_device_name(), "clock": "wall (time.perf_counter), synchronized"})
        del x, y
        torch.cuda.empty_cache()
        atomic_write_json(out / "sinkhorn.json", {"rows": rows, "tol": bs.TOL, "rounds": SINKHORN_ROUNDS,
                                                  "packages": package_versions("torch", "geomloss", "pykeops")})


def kernels(out: Path) -> None:
    from claims.momentum_streams.remarks import FUSED_KERNELS, double_backward_outcome
    outcomes = {f"{k}/{str(dtype).removeprefix('torch.')}": double_backward_outcome(k, "cuda", dtype, (2, 4, 64, 64))
                for k in (*FUSED_KERNELS, "MATH") for dtype in (torch.bfloat16, torch.float16, torch.float32)}
    atomic_write_json(out / "kernels.json", {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                                             "outcomes": outcomes})


CUDA_MEASUREMENTS = "cuda-measurements"  # results/bench/cuda-measurements.json


def assemble(dirs: list[Path], exclude: list[str], note: str) -> Path:
    """Merge the parts found in `dirs` into the committed file (config: the papers' step settings
    and variants, as `claims.training.wallclock.cuda_config` checks): a part found replaces the committed
    one, the others are kept; `exclude` entries 'PART:PAPER:VARIANT=WHY' drop a measurement of a
    part found and keep the reason; `note` replaces the provenance note."""
    from claims._committed import committed_path, write_committed
    from claims.training.wallclock import cuda_config
    keys = {"wallclock": "eager", "wallclock-compiled": "compiled", "bench": "bench_training",
            "throughput": "throughput", "sinkhorn": "sinkhorn", "kernels": "double_backward",
            "wallclock-compiled-extra": None}
    path = committed_path(CUDA_MEASUREMENTS)
    out = json.loads(path.read_text()) if path.exists() else {"provenance": {"excluded": {}}}
    found = {}
    for d in dirs:
        for part in keys:
            if (d / f"{part}.json").exists():
                found[part] = json.loads((d / f"{part}.json").read_text())
    excluded = {k: v for k, v in out["provenance"].get("excluded", {}).items() if k.split(":")[0] not in found}
    for item in exclude:
        where, _, why = item.partition("=")
        part, paper, variant = where.split(":")
        del found[part][paper]["variants"][variant]
        excluded[where] = why
    extra = found.pop("wallclock-compiled-extra", None)
    out |= {keys[part]: value for part, value in found.items()}
    if extra:   # groups beside the compiled part (a re-measured compiled part drops the old groups)
        out["compiled"] = {**(out.get("compiled") or {}), **extra}
    out |= {"config": cuda_config(), "provenance": {"note": note, "excluded": excluded}}
    return write_committed(CUDA_MEASUREMENTS, out)


def main(argv=None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["assemble"]:
        a = argparse.ArgumentParser(prog="cuda_session.py assemble")
        a.add_argument("dirs", type=Path, nargs="+")
        a.add_argument("--exclude", action="append", default=[])
        a.add_argument("--note", default="")
        args = a.parse_args(argv[1:])
        print(assemble(args.dirs, args.exclude, args.note))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("part", choices=PARTS)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        print("cuda_session: CUDA is not available on this machine", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    {"wallclock": wallclock, "wallclock-compiled": wallclock_compiled,
     "wallclock-compiled-extra": wallclock_compiled_extra, "bench": bench, "throughput": throughput,
     "sinkhorn": sinkhorn, "kernels": kernels}[args.part](args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""python -m particles.lm {train,sweep,study,report,variants}: the compact training path.

  train     one run (variant x seed) -> <root>/<name>/<variant>-seed<k>.json (+ .pt)
  sweep     variants x seeds, skipping finished runs, resuming interrupted ones
  study     the ledger's committed studies: `study status [NAME]` lists what is committed, missing
            or stale; `study run NAME` trains what is missing into results/lm/NAME/ (tracked),
            `study run all` every study in the planned order (start it once per core, or
            once with --jobs N: N processes; --device cuda shares one GPU between them;
            --deadline-s S starts no run that would end after S seconds);
            `study diagnose NAME` computes seed 002's flatness and Jacobian diagnostics of its
            trained models into results/lm/NAME-diagnostics/
  report    mean +- std of best/final validation loss per variant of a finished sweep
  variants  the variant table (paper, locator, oracle calls counted per block)

train and sweep write to runs/lm/ (git-ignored) unless --root says otherwise; a finished run is
reported, not retrained, unless --recompute. GPU: --device cuda (bf16 autocast, TF32, fused
AdamW; --compile true for torch.compile). Several processes: torchrun --nproc_per_node=N -m
particles.lm train|sweep ... (gloo on CPU, NCCL on CUDA, each rank cuda:LOCAL_RANK; the global
batch is split across ranks). Bad input is one line naming the parameter, exit code 2.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path

import torch

from particles.threads import torch_threads
from theory.cli import Parser, number, writable

from .data import SOURCES, CorpusError
from .runner import plan_tasks, run_tasks
from .studies import DIAGNOSED, STUDIES, device_kind, get_study
from .train import DEFAULT_ROOT, ResultError, TrainConfig, TrainingDiverged, load_results, sweep, train
from .variants import VARIANTS

# "tables": every variant a ledger ordering claim reads (claims/<paper>/training.py), 36 variants.
PRESETS = {
    "tables": list(dict.fromkeys(v for name in ("main", "linear", "deep", "deep-linear")
                                 for v in STUDIES[name].variants)),
    "all": sorted(VARIANTS),
}
TRUE, FALSE = ("1", "true", "yes"), ("0", "false", "no")
PROG = "python -m particles.lm"


class UsageError(ValueError):
    """Bad command-line input: one line naming the parameter and the accepted values."""


def _bool(text: str) -> bool:
    if text.lower() in TRUE:
        return True
    if text.lower() in FALSE:
        return False
    raise argparse.ArgumentTypeError(f"expected one of {', '.join(TRUE + FALSE)}, got {text!r}")


def _seeds(text: str) -> list[int]:
    try:
        seeds = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated non-negative integers such as "
                                         f"0,1,2, got {text!r}") from None
    if not seeds or min(seeds) < 0:
        raise argparse.ArgumentTypeError(f"expected comma-separated non-negative integers, got {text!r}")
    return seeds


def _add_config_args(p: argparse.ArgumentParser) -> None:
    for f in fields(TrainConfig):
        if f.name in ("variant", "seed", "data"):
            continue
        annotation = str(f.type).replace(" | None", "")
        kind = {"int": number(int), "float": number(float), "bool": _bool}.get(annotation, str)
        metavar = {"bool": "BOOL"}.get(annotation)
        p.add_argument(f"--{f.name.replace('_', '-')}", type=kind, default=None, metavar=metavar,
                       help=f"(default {f.default})")
    p.add_argument("--data", dest="data", default=None,
                   help=f"one of {SOURCES} (default shakespeare: pinned, offline)")


def _config(args) -> TrainConfig:
    overrides = {f.name: getattr(args, f.name) for f in fields(TrainConfig)
                 if getattr(args, f.name, None) is not None}
    if "LOCAL_RANK" in os.environ and overrides.get("device", "").startswith("cuda"):
        overrides["device"] = f"cuda:{os.environ['LOCAL_RANK']}"
    steps = overrides.get("steps", TrainConfig.steps)
    if "warmup" not in overrides and TrainConfig.warmup >= steps:
        overrides["warmup"] = steps // 10
        print(f"note: --steps {steps} is not above the default warmup {TrainConfig.warmup}; "
              f"warmup set to {overrides['warmup']}", file=sys.stderr)
    return replace(TrainConfig(), **overrides)


def _variants(spec: str) -> list[str]:
    names = []
    for part in spec.split(","):
        names.extend(PRESETS.get(part, [part]))
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise UsageError(f"--variants: unknown variant(s) {unknown}; accepted: the names of "
                         f"`python -m particles.lm variants` or the presets {sorted(PRESETS)}")
    return names


def _report(name: str, root: str) -> int:
    results = load_results(name, root)
    if not results:
        print(f"no finished runs under {root}/{name}", file=sys.stderr)
        return 1
    by = {}
    for r in results:
        by.setdefault(r["variant"], []).append(r)
    print(f"{'variant':32s} {'n':>2s} {'val (full split)':>17s} {'best val (curve)':>17s} {'step s':>8s}")
    sd = (lambda v: statistics.stdev(v) if len(v) > 1 else 0.0)
    for name_, rs in sorted(by.items(), key=lambda kv: statistics.mean(r["val_loss_full"] for r in kv[1])):
        full = [r["val_loss_full"] for r in rs]
        best = [r["best_val_loss"] for r in rs]
        print(f"{name_:32s} {len(rs):2d} {statistics.mean(full):8.4f} +- {sd(full):.4f} "
              f"{statistics.mean(best):8.4f} +- {sd(best):.4f} "
              f"{statistics.mean(r['step_time_s'] for r in rs):8.4f}")
    return 0


def _study_status(names: list[str]) -> int:
    for name in names:
        study = get_study(name)
        got = study.collect()
        n_ok = sum(len(s) for s in got.results.values())
        kinds = Counter(device_kind(r) for runs in got.results.values() for r in runs.values())
        on = f" ({', '.join(f'{n} on {k}' for k, n in sorted(kinds.items()))})" if set(kinds) - {"cpu"} else ""
        print(f"study {name}: {n_ok} committed{on}, {len(got.diverged)} diverged, {len(got.missing)} missing, "
              f"{len(got.invalid)} invalid of {len(study.variants) * len(study.seeds)} runs ({study.folder})")
        hours = study.remaining_core_hours(got) if got.missing else None
        if hours is not None:
            print(f"  missing runs: ~{hours:.1f} core-hours at the committed runs' speed "
                  "(each variant's committed step time, else vanilla's x its bench-training ratio; "
                  "evaluation not counted)")
        for stem, why in sorted(got.invalid.items()):
            print(f"  invalid {stem}: {why}")
        for stem, how in sorted(got.diverged.items()):
            print(f"  diverged {stem}: {how}")
        by_variant: dict[str, list[str]] = {}
        for stem in got.missing:
            variant, _, seed = stem.rpartition("-seed")
            by_variant.setdefault(variant, []).append(seed)
        for variant, seeds in by_variant.items():
            print(f"  missing {variant}: seeds {','.join(seeds)}")
    return 0


def _run(tasks, args, names: list[str]) -> int:
    """`study run`: train the missing runs of `tasks` (`particles.lm.runner`), then the status; exit
    status 1 when a run failed or a result is stale or corrupt (named in the summary)."""
    summary = run_tasks(tasks, device=args.device, jobs=args.jobs, threads=args.threads,
                        deadline_s=args.deadline_s, partial=args.partial, recompute=args.recompute,
                        progress=True)
    print("\n".join(summary.lines()))
    status = _study_status(names)
    return 1 if summary.named("failed") or summary.named("invalid") else status


def main(argv=None) -> int:
    ap = Parser(prog=PROG, description=__doc__,
                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    p_train = sub.add_parser("train", help="train one variant and seed")
    p_train.add_argument("--variant", default="gd-lt", help="a name from `variants`")
    p_train.add_argument("--seed", type=number(int), default=0)
    p_sweep = sub.add_parser("sweep", help="train variants x seeds, skipping finished runs")
    p_sweep.add_argument("--variants", default="tables",
                         help=f"comma-separated names or presets {sorted(PRESETS)} (default: tables)")
    p_sweep.add_argument("--seeds", type=_seeds, default=[0, 1, 2], help="comma-separated seeds (default 0,1,2)")
    for p in (p_train, p_sweep):
        _add_config_args(p)
        p.add_argument("--name", default="compact", help="sweep folder name (default compact)")
        p.add_argument("--root", default=str(DEFAULT_ROOT), help=f"results root (default {DEFAULT_ROOT})")
        p.add_argument("--recompute", action="store_true", help="retrain finished runs")
    p_study = sub.add_parser("study", help="status or run of a committed study (results/lm/NAME)")
    p_study.add_argument("action", choices=("status", "run", "diagnose"))
    p_study.add_argument("study", nargs="?", default=None,
                         help=f"one of {sorted(STUDIES)}; 'run all' follows the plan of studies.PLAN")
    p_study.add_argument("--variants", default=None, help="a subset of the study's variants")
    p_study.add_argument("--seeds", type=_seeds, default=None, help="a subset of seeds (default: the study's)")
    p_study.add_argument("--threads", type=number(int), default=None,
                         help="torch threads per run (default: the cores shared out between --jobs)")
    p_study.add_argument("--device", default="cpu", help="cpu or cuda (default cpu); run: where to train")
    p_study.add_argument("--jobs", type=number(int), default=1,
                         help="run: processes training at once, each taking the next run nobody trains")
    p_study.add_argument("--deadline-s", type=number(float), default=None, metavar="S",
                         help="run: start no run whose estimate ends after S seconds; stop a running "
                              "one at the checkpoint from which it could not finish (resumable)")
    p_study.add_argument("--partial", action="store_true",
                         help="run, with --deadline-s: also start runs that cannot finish by it; each "
                              "trains to its last checkpoint before the deadline")
    p_study.add_argument("--recompute", action="store_true", help="retrain committed runs")
    p_report = sub.add_parser("report", help="mean +- std of a finished sweep")
    p_report.add_argument("--name", default="compact")
    p_report.add_argument("--root", default=str(DEFAULT_ROOT))
    sub.add_parser("variants", help="list the variants")
    args = ap.parse_args(argv)

    if args.cmd == "variants":
        for name, v in sorted(VARIANTS.items()):
            print(f"{name:32s} {v.paper:17s} {v.label:40s} {v.locator}")
        return 0
    if args.cmd == "report":
        return _report(args.name, args.root)
    if args.cmd == "study":
        if args.study is None:
            if args.action == "run":
                raise UsageError(f"study: name the study to run, one of {sorted(STUDIES)} or 'all'")
            return _study_status(sorted(STUDIES))
        if args.action == "run" and args.jobs < 1:
            raise UsageError(f"--jobs: expected a positive number of processes, got {args.jobs}")
        if args.action == "run" and args.deadline_s is not None and args.deadline_s <= 0:
            raise UsageError(f"--deadline-s: expected seconds > 0, got {args.deadline_s}")
        if args.partial and args.deadline_s is None:
            raise UsageError("--partial: it only changes what --deadline-s stops; give --deadline-s too")
        if args.study == "all" and args.action == "run":
            if args.variants or args.seeds:
                raise UsageError("--variants/--seeds: 'study run all' follows studies.PLAN; name a study to choose")
            for study in STUDIES.values():
                writable(ap, "results folder", study.folder, folder=True, into_docs=True)
            return _run(plan_tasks("all"), args, sorted(STUDIES))
        study = get_study(args.study)
        if args.action == "status":
            return _study_status([study.name])
        variants = _variants(args.variants) if args.variants else None
        outside = sorted(set(variants or ()) - set(study.variants))
        if args.action == "diagnose" and variants:
            outside = sorted(set(variants) - set(DIAGNOSED))
        if outside:
            raise UsageError(f"--variants: {outside} are not arms of study {study.name}; accepted: "
                             f"{', '.join(study.variants)}")
        if args.threads is not None:
            study = replace(study, config=replace(study.config, threads=args.threads))
        if args.action == "diagnose":
            writable(ap, "diagnostics folder", study.diagnostics_folder, folder=True, into_docs=True)
            with torch_threads(args.threads):
                written = study.diagnose(variants, args.seeds, recompute=args.recompute)
            print(f"study {study.name}: diagnostics written for {len(written)} runs: {', '.join(written)}")
            return 0
        writable(ap, "results folder", study.folder, folder=True, into_docs=True)
        return _run(plan_tasks(study.name, variants, args.seeds), args, [study.name])

    cfg = _config(args)
    writable(ap, "--root/--name", Path(args.root) / args.name, folder=True, into_docs=True)
    rank = int(os.environ.get("RANK", "0"))  # torchrun: rank 0 writes and reports
    if args.cmd == "train":
        cfg = replace(cfg, variant=args.variant, seed=args.seed)
        out = Path(args.root) / args.name
        finished = (out / f"{cfg.variant}-seed{cfg.seed}.json").exists() and not args.recompute
        r = train(cfg, out, progress=rank == 0, force=args.recompute)
        what = "finished earlier (--recompute retrains)" if finished else "trained"
        if rank == 0:
            print(f"{cfg.variant} seed {cfg.seed} {what}: val (full split) {r['val_loss_full']:.4f}, "
                  f"best val {r['best_val_loss']:.4f}, {r['tokens_per_s']:.0f} tokens/s")
    else:
        sweep(_variants(args.variants), args.seeds, cfg, args.name, args.root, progress=rank == 0,
              force=args.recompute)
    if torch.distributed.is_initialized():
        torch.distributed.barrier()  # rank 0 has written every result
        torch.distributed.destroy_process_group()
    return _report(args.name, args.root) if args.cmd == "sweep" and rank == 0 else 0


def cli(argv=None) -> int:
    """`main` with bad input, a corrupt or stale file, or a diverged run as one line, exit 2."""
    try:
        return main(argv)
    except SystemExit as exc:  # argparse: --help (0) or its one-line error (2)
        return exc.code if isinstance(exc.code, int) else 2
    except (UsageError, CorpusError, ResultError, TrainingDiverged, ValueError, TypeError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(cli())

"""python -m particles.lm {train,sweep,report,variants}: the compact training path.

  train     one run (variant x seed) -> runs/lm/<sweep>/<variant>-seed<k>.json (+ .pt)
  sweep     variants x seeds, skipping finished runs, resuming interrupted ones
  report    mean +- std of best/final validation loss per variant of a finished sweep
  variants  the variant table (paper, locator, oracle calls counted per block)

GPU: --device cuda (bf16 autocast). Several GPUs: torchrun --nproc_per_node=N -m particles.lm
train|sweep --device cuda (each rank picks cuda:LOCAL_RANK; the global batch is split across ranks).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from dataclasses import fields, replace

from .train import DEFAULT_ROOT, TrainConfig, load_results, sweep, train
from .variants import VARIANTS

# "tables": every variant a ledger ordering claim reads (claims/lm.py) on the compact sweep, 35 variants.
PRESETS = {
    "tables": ["gd-euler", "gd-lt", "polyak-euler", "polyak-lt", "nesterov-euler", "nesterov-lt",
               "tmm", "yurii", "hb", "adam", "adamw", "rmsprop", "muon", "ortho",
               "symp-softmax-plain-euler", "symp-softmax-presymp-euler",
               "symp-softmax-presymp-expeuler", "symp-softmax-presymp-ab2",
               "symp-softmax-presymp-etd-ab2", "symp-linear-plain-euler",
               "symp-linear-presymp-euler", "gd-lt-linear", "nesterov-lt-linear", "soap", "hamiltonian", "prk-verlet-ama", "prk-verlet-mam",
               *(f"imex{lnv}-k{k}-{order}" for lnv in ("", "-lnv") for k in (1, 2)
                 for order in ("am", "ma"))],
    "all": sorted(VARIANTS),
}


def _add_config_args(p: argparse.ArgumentParser) -> None:
    for f in fields(TrainConfig):
        if f.name in ("variant", "seed", "data"):
            continue
        kind = {"int": int, "float": float, "str": str, "bool": None}.get(
            str(f.type).replace(" | None", ""), str)
        if kind is None:
            p.add_argument(f"--{f.name.replace('_', '-')}", type=lambda s: s.lower() in ("1", "true", "yes"),
                           default=None, metavar="BOOL", help=f"(default {f.default})")
        else:
            p.add_argument(f"--{f.name.replace('_', '-')}", type=kind, default=None,
                           help=f"(default {f.default})")
    p.add_argument("--data", dest="data", default=None,
                   help="'stdlib' (default, offline), 'tinystories' (needs `datasets`), or a text file")


def _config(args) -> TrainConfig:
    overrides = {f.name: getattr(args, f.name) for f in fields(TrainConfig)
                 if getattr(args, f.name, None) is not None}
    if "LOCAL_RANK" in os.environ and overrides.get("device", "").startswith("cuda"):
        overrides["device"] = f"cuda:{os.environ['LOCAL_RANK']}"
    return replace(TrainConfig(), **overrides)


def _variants(spec: str) -> list[str]:
    names = []
    for part in spec.split(","):
        names.extend(PRESETS.get(part, [part]))
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise SystemExit(f"unknown variant(s) {unknown}; known: {', '.join(sorted(VARIANTS))} "
                         f"or presets {sorted(PRESETS)}")
    return names


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m particles.lm", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p_train = sub.add_parser("train", help="train one variant and seed")
    p_train.add_argument("--variant", default="gd-lt", help="a name from `variants`")
    p_train.add_argument("--seed", type=int, default=0)
    p_sweep = sub.add_parser("sweep", help="train variants x seeds, skipping finished runs")
    p_sweep.add_argument("--variants", default="tables",
                         help=f"comma-separated names or presets {sorted(PRESETS)} (default: tables)")
    p_sweep.add_argument("--seeds", default="0,1,2,3,4", help="comma-separated seeds (default 0,1,2,3,4)")
    for p in (p_train, p_sweep):
        _add_config_args(p)
        p.add_argument("--name", default="compact", help="sweep folder name (default compact)")
        p.add_argument("--root", default=str(DEFAULT_ROOT), help=f"results root (default {DEFAULT_ROOT})")
    p_report = sub.add_parser("report", help="mean +- std of a finished sweep")
    p_report.add_argument("--name", default="compact")
    p_report.add_argument("--root", default=str(DEFAULT_ROOT))
    sub.add_parser("variants", help="list the variants")
    args = ap.parse_args(argv)

    if args.cmd == "variants":
        for name, v in sorted(VARIANTS.items()):
            print(f"{name:32s} {v.paper:17s} {v.label:40s} {v.locator}")
        return 0
    if args.cmd == "train":
        cfg = replace(_config(args), variant=args.variant, seed=args.seed)
        r = train(cfg, f"{args.root}/{args.name}", progress=True)
        print(f"{cfg.variant} seed {cfg.seed}: best val {r['best_val_loss']:.4f}, final "
              f"{r['final_val_loss']:.4f}, {r['tokens_per_s']:.0f} tokens/s")
        return 0
    if args.cmd == "sweep":
        seeds = [int(s) for s in args.seeds.split(",")]
        sweep(_variants(args.variants), seeds, _config(args), args.name, args.root, progress=True)
        args.cmd = "report"
    results = load_results(args.name, args.root)
    if not results:
        print(f"no finished runs under {args.root}/{args.name}", file=sys.stderr)
        return 1
    by = {}
    for r in results:
        by.setdefault(r["variant"], []).append(r)
    print(f"{'variant':32s} {'n':>2s} {'best val':>17s} {'final val':>17s} {'step s':>8s}")
    for name, rs in sorted(by.items(), key=lambda kv: statistics.mean(r["best_val_loss"] for r in kv[1])):
        best = [r["best_val_loss"] for r in rs]
        final = [r["final_val_loss"] for r in rs]
        sd = (lambda v: statistics.stdev(v) if len(v) > 1 else 0.0)
        print(f"{name:32s} {len(rs):2d} {statistics.mean(best):8.4f} +- {sd(best):.4f} "
              f"{statistics.mean(final):8.4f} +- {sd(final):.4f} "
              f"{statistics.mean(r['step_time_s'] for r in rs):8.4f}")
    return 0


def cli(argv=None) -> int:
    """`main` with bad input (unknown variant or data source, corrupt checkpoint) as one line."""
    try:
        return main(argv)
    except (ValueError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(cli())

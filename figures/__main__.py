"""python -m figures [--list] [--only NAME ...] [--quick] [--out DIR] [--ledger PATH]

Regenerates every registered figure (PNG + data next to it) and, unless --only restricts the
run to figures, the ledger page (docs/claims.md) from the same memoized claim runs."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tqdm import tqdm

import claims
from claims._report import markdown
from theory.io import atomic_write_text

from ._registry import Context, load

LEDGER = "ledger"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m figures", description=__doc__.splitlines()[0])
    p.add_argument("--list", action="store_true", help="list figures and the claims they show")
    p.add_argument("--only", nargs="+", metavar="NAME", help=f"figure names (or '{LEDGER}')")
    p.add_argument("--quick", action="store_true", help="quick budget (seconds per figure)")
    p.add_argument("--out", type=Path, default=Path("docs/figures"))
    p.add_argument("--ledger", type=Path, default=None,
                   help="ledger page path (default: OUT/../claims.md)")
    args = p.parse_args(argv)
    figures = load()
    if args.list:
        for f in figures.values():
            print(f"{f.name:28s} {', '.join(f.claims) or '-':60s} {f.description}")
        return 0
    names = args.only or [*figures, LEDGER]
    unknown = [n for n in names if n not in figures and n != LEDGER]
    if unknown:
        p.error(f"--only: unknown figure {unknown}; see --list")
    budget = "quick" if args.quick else "full"
    ctx = Context(out=args.out, budget=budget)
    failed = []
    for name in tqdm([n for n in names if n != LEDGER], desc=f"figures ({budget})", unit="fig"):
        ctx.name = name
        try:
            figures[name].draw(ctx)
        except Exception as exc:  # keep going; report at the end with a non-zero exit
            failed.append(f"{name}: {type(exc).__name__}: {exc}")
    if LEDGER in names:
        results = [ctx.result(c.id) for c in tqdm(claims.select(), desc="ledger", unit="claim")]
        page = args.ledger or args.out.parent / "claims.md"
        atomic_write_text(page, markdown(results, budget))
        differs = [r.claim.id for r in results if not r.as_expected]
        if differs:
            failed.append(f"ledger: verdict differs from expect for {differs}")
    for line in failed:
        print("FAILED", line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""python -m figures: draw the figures and the ledger page.

Draws every registered figure (PNG + data next to it) and, unless --only leaves it out, the
ledger page from the same memoized claim runs. Long studies read their committed results
(results/) unless --recompute.

Where it writes: the full-budget run of everything (no --quick, no --only) writes the committed
docs/figures/ and docs/claims.md. Every other run writes runs/figures/<budget>/ (git-ignored)
and its ledger page to runs/figures/<budget>/claims.md. --out DIR moves the figures to DIR and
the page to DIR/claims.md (docs/claims.md when DIR is docs/figures); --ledger PATH moves the
page. The coverage page (coverage.md, from the inventory claims/_inventory/) is written next to
the ledger page. A quick-budget run never writes under docs/."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tqdm import tqdm

import claims
from theory.cli import DOCS, ROOT, Parser, writable
from claims._inventory import coverage_markdown, items
from claims._report import markdown
from theory.io import atomic_write_text

from ._registry import Context, load

LEDGER = "ledger"
COMMITTED_OUT = DOCS / "figures"
COMMITTED_LEDGER = DOCS / "claims.md"
COVERAGE = "coverage.md"  # the inventory's page, written next to the ledger page


def outputs(quick: bool, only: list[str] | None, out: Path | None,
            ledger: Path | None) -> tuple[Path, Path]:
    """The figure folder and the ledger page of a run (the rule in the module docstring)."""
    if out is None:
        budget = "quick" if quick else "full"
        out = COMMITTED_OUT if not quick and not only else ROOT / "runs" / "figures" / budget
    if ledger is None:
        ledger = COMMITTED_LEDGER if out.resolve() == COMMITTED_OUT else out / "claims.md"
    return out, ledger


def main(argv: list[str] | None = None) -> int:
    p = Parser(prog="python -m figures", description=__doc__.splitlines()[0],
               formatter_class=argparse.RawDescriptionHelpFormatter,
               epilog="\n".join(__doc__.splitlines()[2:]))
    p.add_argument("--list", action="store_true", help="list figures and the claims they show")
    p.add_argument("--only", nargs="+", metavar="NAME", help=f"figure names (or '{LEDGER}')")
    p.add_argument("--quick", action="store_true", help="quick budget (seconds per figure)")
    p.add_argument("--recompute", action="store_true",
                   help="recompute long studies and cached results instead of reading them (slow)")
    p.add_argument("--out", type=Path, metavar="DIR", help="figure folder (default: see below)")
    p.add_argument("--ledger", type=Path, metavar="PATH", help="ledger page path (default: see below)")
    args = p.parse_args(argv)
    figures = load()
    if args.list:
        for f in figures.values():
            print(f"{f.name:28s} {', '.join(f.claims) or '-':60s} {f.description}")
        return 0
    names = list(dict.fromkeys(args.only or [*figures, LEDGER]))
    unknown = [n for n in names if n not in figures and n != LEDGER]
    if unknown:
        p.error(f"--only: unknown figure {', '.join(unknown)}; accepted: {', '.join(figures)}, "
                f"{LEDGER}")
    if args.ledger is not None and LEDGER not in names:
        p.error(f"--ledger: this run writes no ledger page; add '{LEDGER}' to --only or drop "
                f"--ledger")
    budget = "quick" if args.quick else "full"
    out, page = outputs(args.quick, args.only, args.out, args.ledger)
    writable(p, "--out", out, folder=True, into_docs=not args.quick)
    if LEDGER in names:
        writable(p, "--ledger", page, folder=False, into_docs=not args.quick)

    claims.settings.recompute = args.recompute
    ctx = Context(out=out, budget=budget)
    failed = []
    for name in tqdm([n for n in names if n != LEDGER], desc=f"figures ({budget})", unit="fig"):
        ctx.name = name
        try:
            figures[name].draw(ctx)
        except Exception as exc:  # keep going; report at the end with a non-zero exit
            failed.append(f"{name}: {type(exc).__name__}: {' '.join(str(exc).split())}")
    if LEDGER in names:
        results = [ctx.result(c.id) for c in tqdm(claims.select(), desc="ledger", unit="claim")]
        atomic_write_text(page, markdown(results, budget))
        atomic_write_text(page.with_name(COVERAGE), coverage_markdown(items()))
        differs = [r.claim.id for r in results if not r.as_expected]
        if differs:
            failed.append(f"ledger: verdict differs from expect for {differs}")
    print(f"figures ({budget}) in {out}" + (f", ledger page {page}" if LEDGER in names else ""))
    for line in failed:
        print("FAILED", line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

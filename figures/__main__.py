"""python -m figures: draw the figures and the ledger page.

Draws every registered figure (PNG + data next to it) and, unless --only leaves it out, the
ledger page from the same memoized claim runs. Long studies read their committed results
(results/) unless --recompute.

Where it writes: the full-budget run of everything (no --quick, no --only) writes the committed
docs/figures/ and the ledger pages (docs/claims.md, the index; docs/ledger/<paper>.md;
docs/errata/<paper>.md). Every other run writes runs/figures/<budget>/ (git-ignored) and its
ledger pages under runs/figures/<budget>/ (claims.md, ledger/, errata/). --out DIR moves the
figures to DIR and the pages beside DIR/claims.md (docs/ when DIR is docs/figures); --ledger PATH
moves the index (the other pages beside it). The coverage page (coverage.md, from the inventory claims/<paper>/inventory.py) is written next to
the ledger page. A quick-budget run never writes under docs/.

--jobs N (default: the machine's cores) draws the figures and runs the ledger's claims in N
worker processes, each figure with the claims it shows in one task, so that a claim is computed
once (figures/_pool.py); the files are those of --jobs 1, which runs everything here, in order.
A run of every figure (no --only) writes its timing table, the slowest ten claims and figures in
seconds, into timings.md in its figure folder's run folder (the committed run:
runs/figures/full/timings.md; the quick run: runs/figures/quick/timings.md), so that a rerun of
the committed run leaves git status clean; --record-timings (the committed run only) copies it
into docs/testing.md, between the markers of its "Timings" section. They are measurements,
compared by no check; --jobs submits the slowest first by the last table.

--check regenerates at the full budget (committed results, as the committed run) into the
scratch folder runs/figures/check/ (emptied first), compares every file with its committed
counterpart in docs/figures/, docs/claims.md and docs/coverage.md within the precision each is
written at (figures/_check.py), names every difference and exits 1 on one; with --only, just
those figures (and the pages if 'ledger' is named). The peer benchmarks (bench-*) are read from
results/bench/, not re-measured, so they must reproduce byte for byte."""
from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from tqdm import tqdm

import claims
from theory.cli import DOCS, ROOT, Parser, writable
from claims._inventory import coverage_markdown, items
from claims._jobs import TESTING, TIMINGS, check_jobs, jobs_argument, timing_table, write_timings
from claims._ledger import PAPERS
from claims._pages import INDEX, errata_path, ledger_path, write_pages
from theory.io import atomic_write_text

from . import _check, _pool
from ._registry import Context, load

LEDGER = "ledger"
COMMITTED_OUT = DOCS / "figures"
COMMITTED_LEDGER = DOCS / "claims.md"
COVERAGE = "coverage.md"  # the inventory's page, written next to the ledger page
CHECK_OUT = ROOT / "runs" / "figures" / "check"


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
    p.add_argument("--check", action="store_true",
                   help="regenerate (full budget) into runs/figures/check/ and compare with the "
                        "committed files; exit 1 on a difference (see below)")
    jobs_argument(p)
    p.add_argument("--record-timings", action="store_true",
                   help="the committed full run: also write its timing table into docs/testing.md")
    args = p.parse_args(argv)
    check_jobs(p, args.jobs)
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
    if args.check:
        for flag, value in (("--quick", args.quick), ("--recompute", args.recompute),
                            ("--out", args.out), ("--ledger", args.ledger)):
            if value:
                p.error(f"{flag}: --check regenerates the committed full budget from the committed "
                        f"results into {_check_folder()}; drop {flag}")
        out, page = CHECK_OUT, CHECK_OUT / "claims.md"
        writable(p, "--check", out, folder=True, into_docs=False)
        shutil.rmtree(out, ignore_errors=True)  # our scratch folder: regenerate from nothing
    else:
        out, page = outputs(args.quick, args.only, args.out, args.ledger)
        writable(p, "--out", out, folder=True, into_docs=not args.quick)
        if LEDGER in names:
            writable(p, "--ledger", page, folder=False, into_docs=not args.quick)

    claims.settings.recompute = args.recompute
    start = time.perf_counter()
    ctx = Context(out=out, budget=budget)
    drawn = [n for n in names if n != LEDGER]
    ledger = claims.select() if LEDGER in names else []
    tasks = _pool.tasks_of(figures, drawn, ledger, budget) if args.jobs > 1 else []
    if len(tasks) > 1:  # the figures with their claims, and the other claims, in a process pool
        failures = _pool.run(ctx, figures, tasks, ledger, args.jobs)
    else:
        failures = {}
        for name in tqdm(drawn, desc=f"figures ({budget})", unit="fig"):
            if (failure := ctx.draw(figures[name])) is not None:
                failures[name] = failure
        ctx.name = ""
    failed = [failures[n] for n in drawn if n in failures]
    if LEDGER in names:
        results = [ctx.result(c.id) for c in tqdm(ledger, desc="ledger", unit="claim")]
        write_pages(page, results, budget)
        atomic_write_text(page.with_name(COVERAGE), coverage_markdown(items()))
        differs = [r.claim.id for r in results if not r.as_expected]
        if differs:
            failed.append(f"ledger: verdict differs from expect, or class from the review, for {differs}")
    if not args.only:  # a run of every figure: its timing table (measured, never compared)
        table = timing_table(_claim_seconds(ctx), ctx.drawn, budget=budget, jobs=args.jobs,
                             wall=time.perf_counter() - start)
        committed = out.resolve() == COMMITTED_OUT.resolve() and not args.check and not args.quick
        write_timings(ROOT / "runs" / "figures" / "full" / TIMINGS if committed else out / TIMINGS, table)
        if committed and args.record_timings:
            write_timings(TESTING, table)
    print(f"figures ({budget}) in {out}" + (f", ledger page {page}" if LEDGER in names else ""))
    for line in failed:
        print("FAILED", line, file=sys.stderr)
    if args.check:
        differences = check(figures, names, page)
        for line in differences:
            print("DIFFERS", line, file=sys.stderr)
        print(f"check: {len(differences)} difference(s) from the committed files"
              + ("" if differences else " (within the precision each file is written at)"))
        failed += differences
    return 1 if failed else 0


def _claim_seconds(ctx: Context) -> dict[str, float]:
    seconds: dict[str, float] = {}
    for cid, _, s in ctx.runs:
        seconds[cid] = seconds.get(cid, 0.0) + s
    return seconds


def check(figures: dict, names: list[str], page: Path) -> list[str]:
    """The differences between the committed files of `names` and their regeneration in
    CHECK_OUT (figures/_check.py); the whole figure folder is checked for strays when every
    figure was drawn."""
    pairs = _check.figure_pairs([figures[n] for n in names if n != LEDGER], COMMITTED_OUT, CHECK_OUT)
    if LEDGER in names:
        pairs += [(COMMITTED_LEDGER.parent / rel, page.parent / rel, _check.LEDGER)
                  for rel in sorted(_committed_pages())]
        pairs += [(COMMITTED_LEDGER.with_name(COVERAGE), page.with_name(COVERAGE), _check.EXACT)]
    strays = _check.strays(COMMITTED_OUT, figures) if set(figures) <= set(names) else []
    return strays + _check.compare(pairs)


def _committed_pages() -> set[str]:
    """The ledger pages of the committed run (index, per-paper pages, errata sheets), relative to
    docs/, with any committed page no run writes any more (compared: a stray fails the check)."""
    names = {"claims.md", *(f"{d}/{p.name}" for d in ("ledger", "errata")
                            for p in (COMMITTED_LEDGER.parent / d).glob("*.md"))}
    return names | {INDEX, *(f(p) for p in PAPERS for f in (ledger_path, errata_path))}


def _check_folder() -> str:
    return str(CHECK_OUT.relative_to(ROOT)) + "/"


if __name__ == "__main__":
    sys.exit(main())

"""python -m claims: run the ledger's checks at a budget and print their verdicts.

Exit status 1 when any verdict differs from the claim's `expect` (errors included) or a reviewed
claim's class from its review's decision (`Result.as_reviewed`); 2 for bad
arguments. Long studies read their committed results (results/) unless --recompute. The committed
pages (docs/claims.md, the index; docs/ledger/<paper>.md; docs/errata/<paper>.md) are written only
by the whole ledger at the full budget (`--budget full --markdown docs/claims.md`); quick or --only
pages go elsewhere. --errata PAPER prints that paper's errata sheet (the page
docs/errata/<paper>.md holds the same text at the full budget). --jobs N (default: the machine's
cores) runs the checks in N worker processes, the slowest first (claims/_jobs.py), with the
verdicts, table and pages of --jobs 1, which runs them here, one after the other (a worker runs
one torch thread: a full-precision float of --json may differ in its last bits)."""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from theory.cli import Parser, stdout_to_stderr, writable
from theory.io import atomic_write_text

from . import BUDGETS, run_all, select, settings
from ._jobs import check_jobs, jobs_argument
from ._inventory import coverage_markdown, coverage_table, items
from ._ledger import PAPERS
from ._pages import errata_page, write_pages
from ._report import table, to_json


def main(argv: list[str] | None = None) -> int:
    p = Parser(prog="python -m claims", description=__doc__.splitlines()[0],
               formatter_class=argparse.RawDescriptionHelpFormatter,
               epilog="\n".join(__doc__.splitlines()[2:]))
    p.add_argument("--list", action="store_true", help="list the claims (id, method, locator) "
                   "without running them")
    p.add_argument("--coverage", action="store_true", help="the inventory of each paper's checkable "
                   "items: per paper the items per level (full, partial, proxy, prose-only, none), the "
                   "full share and the full + partial + proxy share (--json: every item with its level "
                   "and note; --markdown PATH: the coverage page); nothing is run")
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout "
                   "(may be combined with --markdown)")
    p.add_argument("--markdown", metavar="PATH", type=Path,
                   help="also write the ledger pages: the index to PATH, the per-paper pages and "
                   "errata sheets beside it in ledger/ and errata/ (under docs/ only with --budget "
                   "full and no --only)")
    p.add_argument("--errata", metavar="PAPER", choices=sorted(PAPERS),
                   help="print the paper's errata sheet (runs its claims at --budget)")
    p.add_argument("--only", nargs="+", metavar="TAG_OR_ID", help="paper tags or claim ids")
    p.add_argument("--budget", choices=BUDGETS, default="quick")
    p.add_argument("--recompute", action="store_true",
                   help="recompute long studies instead of reading committed results (slow)")
    jobs_argument(p)
    args = p.parse_args(argv)
    check_jobs(p, args.jobs)
    if args.errata:
        if args.only or args.json or args.markdown or args.coverage or args.list:
            p.error("--errata: prints one paper's sheet; drop --only, --json, --markdown, --coverage, --list")
        args.only = [args.errata]
    try:
        claims = select(args.only)
    except ValueError as exc:  # its message starts with the parameter's name, 'only: ...'
        p.error(f"--{exc}; claim ids: python -m claims --list")
    if args.list:
        print("\n".join(f"{c.id:44s} {c.method:12s} {c.locator}" for c in claims))
        return 0
    if args.coverage:
        papers = sorted({c.paper for c in claims}) if args.only else None
        found = items(papers)
        if args.markdown is not None:
            writable(p, "--markdown", args.markdown, folder=False, into_docs=not args.only)
            atomic_write_text(args.markdown, coverage_markdown(found))
        print(json.dumps([i.as_dict() for i in found], indent=2) if args.json else coverage_table(found))
        return 0
    if args.markdown is not None:
        writable(p, "--markdown", args.markdown, folder=False,
                 into_docs=args.budget == "full" and not args.only)
    settings.recompute = args.recompute
    # with --json, stdout is the JSON alone: what the checks print goes to stderr
    with stdout_to_stderr() if args.json or args.errata else contextlib.nullcontext():
        results = run_all(claims, args.budget, progress=not args.json and sys.stderr.isatty(),
                          jobs=args.jobs)
    if args.errata:
        print(errata_page([r for r in results if r.claim.paper == args.errata], args.errata), end="")
        return 0 if all(r.as_expected for r in results) else 1
    print(to_json(results) if args.json else table(results))
    if args.markdown is not None:
        write_pages(args.markdown, results, args.budget)
    return 0 if all(r.as_expected for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

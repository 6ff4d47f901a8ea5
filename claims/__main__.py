"""python -m claims [--json] [--markdown PATH] [--only TAG_OR_ID ...] [--budget quick|full]

Exit status 1 when any verdict differs from the claim's `expect` (errors included)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from theory.io import atomic_write_text

from . import BUDGETS, run_all, select
from ._report import markdown, table, to_json


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m claims", description=__doc__.splitlines()[0])
    p.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    p.add_argument("--markdown", metavar="PATH", help="write the ledger page (e.g. docs/claims.md)")
    p.add_argument("--only", nargs="+", metavar="TAG_OR_ID", help="paper tags or claim ids")
    p.add_argument("--budget", choices=BUDGETS, default="quick")
    args = p.parse_args(argv)
    try:
        claims = select(args.only)
    except ValueError as exc:
        p.error(str(exc))
    results = run_all(claims, args.budget, progress=not args.json and sys.stderr.isatty())
    print(to_json(results) if args.json else table(results))
    if args.markdown:
        atomic_write_text(Path(args.markdown), markdown(results, args.budget))
    return 0 if all(r.as_expected for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

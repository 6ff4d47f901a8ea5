"""Rewrite the README's ledger summary from the committed ledger page.

    .venv/bin/python tools/sync_readme.py            # rewrite README.md from docs/claims.md
    .venv/bin/python tools/sync_readme.py --check    # exit 1 if README.md is out of date

The block between the `ledger-summary` markers of README.md (counts and the ids of every verdict
other than `holds`) and every `` `id` → verdict `` mention in README.md are generated from
docs/claims.md (`claims._report.sync_readme`); tests/test_readme.py fails while they differ.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from claims._report import page_verdicts, sync_readme  # noqa: E402
from theory.io import atomic_write_text  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tools/sync_readme.py", description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="only report whether README.md is current")
    p.add_argument("--readme", type=Path, default=ROOT / "README.md")
    p.add_argument("--page", type=Path, default=ROOT / "docs" / "claims.md")
    args = p.parse_args(argv)
    readme = args.readme.read_text()
    new = sync_readme(readme, page_verdicts(args.page.read_text()))
    if args.check:
        print(f"{args.readme}: {'up to date' if new == readme else 'OUT OF DATE (run tools/sync_readme.py)'}")
        return 0 if new == readme else 1
    if new != readme:
        atomic_write_text(args.readme, new)
    print(f"{args.readme}: {'rewritten' if new != readme else 'unchanged'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

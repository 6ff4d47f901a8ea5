"""Rewrite the README's ledger summary and docs/training.md's loss tables from the ledger pages.

    .venv/bin/python tools/sync_readme.py            # rewrite README.md and docs/training.md
    .venv/bin/python tools/sync_readme.py --check    # exit 1 if either is out of date

The block between the `ledger-summary` markers of README.md (counts and the ids of every verdict
other than `holds`) and every `` `id` → verdict `` mention in README.md are generated from
the per-paper pages docs/ledger/<paper>.md beside the index docs/claims.md
(`claims._report.sync_readme`), and so is the block between the `ledger-tables`
markers of docs/training.md (every loss table beside the paper's, `claims._report.sync_tables`),
and the block between the `coverage-summary` markers of README.md (the per-paper coverage table
of docs/coverage.md: both shares, `claims._report.sync_coverage`); tests/test_readme.py fails while
they differ.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from claims._pages import read_pages  # noqa: E402
from claims._report import page_kinds, sync_coverage, sync_readme, sync_tables  # noqa: E402
from theory.io import atomic_write_text  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tools/sync_readme.py", description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="only report whether the files are current")
    p.add_argument("--readme", type=Path, default=ROOT / "README.md")
    p.add_argument("--training", type=Path, default=ROOT / "docs" / "training.md")
    p.add_argument("--page", type=Path, default=ROOT / "docs" / "claims.md",
                   help="the ledger's index; its per-paper pages are read from ledger/ beside it")
    p.add_argument("--coverage", type=Path, default=ROOT / "docs" / "coverage.md")
    args = p.parse_args(argv)
    page, coverage = read_pages(args.page), args.coverage.read_text()
    stale = []
    for path, sync in ((args.readme, lambda text: sync_coverage(sync_readme(text, page_kinds(page)), coverage)),
                       (args.training, lambda text: sync_tables(text, page))):
        text = path.read_text()
        new = sync(text)
        if new != text:
            stale.append(path)
            if not args.check:
                atomic_write_text(path, new)
        state = "up to date" if new == text else (
            "OUT OF DATE (run tools/sync_readme.py)" if args.check else "rewritten")
        print(f"{path}: {state}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())

"""Where a result came from: the checkout's git state (`git`, `code_session`) and the fields in
which the configuration a result was written with differs from the one asked (`config_diff`),
for the committed training results that are validated on load (`particles.sp_train`)."""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def git(*args: str) -> str:
    """`git ARGS` in the toolkit's checkout, stripped; "unknown" outside one or when git fails."""
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=20, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def code_session(code: tuple[str, ...]) -> dict:
    """The code a training session runs: HEAD and the uncommitted changes of the paths `code`."""
    modified = git("status", "--porcelain", "--", *code)
    return {"commit": git("rev-parse", "HEAD"),
            "modified": sorted(line.split(maxsplit=1)[1] for line in modified.splitlines())
            if modified != "unknown" else "unknown"}


def config_diff(a: dict, b: dict, prefix: str = "") -> list[str]:
    """Dotted names of the fields where two configurations differ, with both values."""
    out = []
    for k in sorted(set(a) | set(b)):
        name = f"{prefix}{k}"
        va, vb = a.get(k, "<absent>"), b.get(k, "<absent>")
        if isinstance(va, dict) and isinstance(vb, dict):
            out += config_diff(va, vb, f"{name}.")
        elif va != vb:
            out.append(f"{name}: {va!r} -> {vb!r}")
    return out

"""No module of the toolkit is over 600 lines (issue 15): a longer one is split by topic."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 600


def test_every_module_is_at_most_600_lines():
    modules = sorted(p for folder in ("theory", "particles", "claims", "figures", "tools", "tests")
                     for p in (ROOT / folder).rglob("*.py"))
    assert len(modules) > 50  # the packages were found
    long = {str(p.relative_to(ROOT)): n for p in modules
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > LIMIT}
    assert not long, f"modules over {LIMIT} lines (split them by topic): {long}"

"""The verification API's pytest plugin and its documentation: the plugin loads by its entry
point (group pytest11) and provides the float64 fixture, the `particles-verify` hypothesis
profile (without overriding the project's) and the `structural` marker; docs/verify.md runs as
written, its example test file included."""
import doctest
import os
import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import torch
from hypothesis import settings

from particles import pytest_plugin

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "verify.md"


def test_the_plugin_loads_by_its_entry_point(request):
    (ep,) = [e for e in entry_points(group="pytest11") if e.name == "particles_verify"]
    assert ep.value == "particles.pytest_plugin" and ep.load() is pytest_plugin
    assert request.config.pluginmanager.has_plugin("particles_verify")  # auto-loaded here too
    assert any(line.startswith("structural:") for line in request.config.getini("markers"))


def test_the_float64_fixture_sets_the_default_dtype(float64):
    assert float64 is torch.float64 and torch.get_default_dtype() == torch.float64
    assert torch.ones(1).dtype == torch.float64


def test_the_default_dtype_is_restored_after_the_fixture():
    """Runs after the test above in this file's process: float32 again."""
    assert torch.get_default_dtype() == torch.float32


def test_the_plugin_registers_its_profile_without_loading_it():
    """The project's profile (tests/conftest.py: HYPOTHESIS_PROFILE, default ci) stays in force
    with the plugin loaded; the plugin's is registered, with its own settings."""
    ours = settings.get_profile(pytest_plugin.PROFILE)
    assert ours.max_examples == 50 and ours.deadline is None and ours.derandomize
    project = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
    assert settings.default.max_examples == project.max_examples != ours.max_examples


def example_test_file() -> str:
    """The python block after the 'example test file' marker of docs/verify.md."""
    text = DOCS.read_text(encoding="utf-8")
    (block,) = re.findall(r"<!-- example test file:[^>]*-->\n```python\n(.*?)```", text, re.S)
    return block


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HYPOTHESIS", "PYTEST"))}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(folder), *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_documented_test_file_passes_with_the_plugin_from_its_entry_point(tmp_path):
    """A fresh pytest run outside the project (no conftest): the docs' example file passes with
    --strict-markers and the plugin's profile; without the plugin its fixture is missing."""
    (tmp_path / "test_my_integrators.py").write_text(example_test_file(), encoding="utf-8")
    done = run_pytest(tmp_path, "--strict-markers", "--hypothesis-profile=particles-verify")
    assert done.returncode == 0 and "3 passed" in done.stdout, done.stdout + done.stderr
    (tmp_path / "test_fixture_only.py").write_text("def test_it(float64):\n    pass\n")
    done = run_pytest(tmp_path, "-p", "no:particles_verify", "test_fixture_only.py")
    assert done.returncode != 0 and "fixture 'float64' not found" in done.stdout


def test_docs_examples_run_as_written():
    """Every `>>>` example of docs/verify.md, with the output printed there (doctest)."""
    result = doctest.testfile(str(DOCS), module_relative=False, verbose=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 30 and result.failed == 0


@pytest.mark.parametrize("name", ["assert_symplectic", "assert_conformally_symplectic",
                                  "assert_volume_preserving", "assert_causal", "assert_order",
                                  "assert_energy_bounded", "jacobian", "symplectic_residual",
                                  "log_volume", "causal_dependence", "canonical_J",
                                  "energy_shell_states", "particle_clouds", "token_batches",
                                  "spd_matrices", "skew_symmetric_matrices", "symplectic_matrices"])
def test_docs_give_every_public_function_with_its_signature(name):
    """docs/verify.md names each public function with its parameters in order."""
    import inspect

    import particles.strategies
    import particles.verify
    import theory.strategies
    func = next(getattr(m, name) for m in (particles.verify, theory.strategies, particles.strategies)
                if hasattr(m, name))
    params = [p for p in inspect.signature(func).parameters]
    text = DOCS.read_text(encoding="utf-8")
    line = next((ln for ln in text.splitlines() if f"`{name}" in ln and all(p in ln for p in params)), None)
    assert line is not None, f"docs/verify.md: no line gives {name}({', '.join(params)})"

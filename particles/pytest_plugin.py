"""The pytest plugin of the verification API, loaded by the entry point ``pytest11``
(``particles_verify = particles.pytest_plugin``, setup.cfg) in every pytest run of an environment
where this package is installed; ``-p no:particles_verify`` turns it off. docs/verify.md has a
complete test file that uses it.

* fixture ``float64``: runs the test with torch's default dtype set to float64 (modules and
  tensors created inside the test are float64, the precision of every theory check) and yields
  ``torch.float64``; the previous default is restored afterwards.
* hypothesis profile ``particles-verify`` (registered, never loaded here: select it with
  ``--hypothesis-profile=particles-verify``): 50 derandomized examples, no deadline (the first
  Jacobian of a test compiles kernels), ``too_slow`` and ``data_too_large`` health checks off.
  A profile your conftest loads (or ``HYPOTHESIS_PROFILE``) stays in force.
* marker ``structural``: a slow structural check (Jacobians of a large map, long rollouts);
  deselect with ``-m "not structural"``. Registered here, so ``--strict-markers`` accepts it.
"""
from __future__ import annotations

import pytest

PROFILE = "particles-verify"
MARKER = "structural"


def _register_profile() -> None:
    try:  # hypothesis belongs to the test extra: without it the fixture and marker still work
        from hypothesis import HealthCheck, settings
    except ImportError:
        return
    settings.register_profile(PROFILE, max_examples=50, derandomize=True, deadline=None,
                              print_blob=True,
                              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


_register_profile()  # at import: before hypothesis's own plugin reads --hypothesis-profile


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{MARKER}: a slow structural check (particles.verify: Jacobians of a large "
                   f"map, long rollouts); deselect with -m \"not {MARKER}\"")


@pytest.fixture
def float64():
    """torch's default dtype is float64 for the test (restored after it); yields torch.float64."""
    import torch  # here, not at import: the plugin loads in every pytest run of the environment

    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        yield torch.float64
    finally:
        torch.set_default_dtype(previous)

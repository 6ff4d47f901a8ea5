"""Hypothesis profiles: `ci` (derandomized, modest example counts; the default for `make test`)
and `dev` (thorough, randomized). Select with HYPOTHESIS_PROFILE=ci|dev."""
import os

import torch
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, max_examples=25, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "dev", max_examples=300, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# pytest-xdist runs one worker per core: keep each worker's torch single-threaded so two workers
# on a 2-core machine do not oversubscribe it.
if os.environ.get("PYTEST_XDIST_WORKER"):
    torch.set_num_threads(1)

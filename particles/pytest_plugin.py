"""The pytest plugin of the verification API (entry point ``pytest11``: ``particles_verify``).

Placeholder registered by setup.cfg; its fixtures, hypothesis profile and marker are defined by
issue 27's plugin work (docs/verify.md)."""

"""The implementation of `particles.verify`, one module per topic (outcome, jacobians,
structure, causal, integrators); import the public API from `particles.verify`."""

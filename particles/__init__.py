"""Finite-N particle systems, integrators, Sinkhorn, networks and the training path (torch).

Device and dtype are always explicit; nothing here changes torch's global defaults."""

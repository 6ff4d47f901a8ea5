"""Figures: one module per figure; `python -m figures` regenerates all of them and the ledger page."""
from ._registry import Context, Figure, figure, load

__all__ = ["Context", "Figure", "figure", "load"]

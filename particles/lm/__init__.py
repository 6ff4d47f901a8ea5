"""The compact torch training path for the transformer papers' residual-update variants.

Modules: `blocks` (the one block template and its update rules), `variants` (the variant table),
`model` (GPT backbone, `GPTConfig`, `GPT(config, variant)`), `data` (byte corpora),
`train` (training, sweeps, cached results under ``runs/lm/<sweep>/<variant>-seed<k>.json``).
Entry point: ``python -m particles.lm --help``; docs/training.md describes the variants.
"""
from .model import GPT, GPTConfig, count_parameters, meta_model
from .variants import VARIANTS, Variant, get_variant

__all__ = ["GPT", "GPTConfig", "count_parameters", "meta_model", "VARIANTS", "Variant", "get_variant"]

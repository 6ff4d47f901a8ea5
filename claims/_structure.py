"""What the claims on the training path's models that need no training share
(`claims/<paper>/architecture.py`, `claims.sympformer.training`): the papers' GPT sizes on the meta
device (`small`, `MEDIUM`), counts in millions, containments as bit-for-bit equal float64 logits
(`pair_equal`), and a model's token dependence map held against the causal reference
(`model_dependence`)."""
from __future__ import annotations

import torch

from particles.lm.model import GPT, GPTConfig
from particles.threads import torch_threads
from particles.verify import CausalDependence, causal_dependence

F64 = torch.float64


def small(V=50304, T=1024, L=12, H=12, d=768) -> GPTConfig:
    """The papers' GPT-2 small (12 layers, width 768, GPT-2 BPE, context 1024); other sizes by keyword."""
    return GPTConfig(vocab_size=V, block_size=T, n_layer=L, n_head=H, n_embd=d)


MEDIUM = small(L=24, H=16, d=1024)


def millions(n: int, digits: int = 1) -> float:
    return round(n / 1e6, digits)


def pair_equal(general: str, pins: dict, special: str, seeds=(0, 1, 2)) -> bool:
    """Variant `general` with its scalars pinned to `pins` is variant `special`: equal logits at
    every seed (`_pair_equal_seed`)."""
    with torch_threads(1):  # tiny models: one thread avoids spinning pool threads
        return all(_pair_equal_seed(general, pins, special, seed) for seed in seeds)


def _pair_equal_seed(general: str, pins: dict, special: str, seed: int) -> bool:
    """Bit-for-bit equal float64 logits of the pinned general model and the special one
    carrying the same weights (every weight of the special model comes from the general one)."""
    cfg = GPTConfig(block_size=16, n_layer=2, n_head=2, n_embd=16)
    torch.manual_seed(seed)
    g = GPT(cfg, general, pins=pins).to(F64)
    s = GPT(cfg, special).to(F64)
    if s.load_state_dict(g.state_dict(), strict=False).missing_keys:
        return False
    idx = torch.randint(0, 256, (2, 16), generator=torch.Generator().manual_seed(seed))
    with torch.no_grad():
        return torch.equal(g(idx), s(idx))


def against_causal_reference(dep: CausalDependence) -> dict:
    """Compare a measured dependence map with the causal reference, built here independently of
    any model's mask: the index set {(t, s): s > t} must carry exactly zero dependence (and the
    suffix perturbations must move no output up to t), every (t, s) with s <= t a non-zero one,
    so the measured support equals the lower triangle. A single output seeing a single later
    input, even one position ahead, makes `causal` False."""
    T = dep.dependence.shape[0]
    t, s = torch.meshgrid(torch.arange(T), torch.arange(T), indexing="ij")
    later = dep.dependence[s > t]
    suffix = dep.suffix[:-1] if dep.suffix is not None else torch.zeros(0, dtype=F64)
    max_later = max([0.0] + [float(v.max()) for v in (later, suffix) if v.numel()])
    min_earlier = float(dep.dependence[s <= t].min())
    return {"max_dependence_on_later": max_later, "min_dependence_on_earlier": min_earlier,
            "causal": max_later == 0.0, "support_is_lower_triangle": max_later == 0.0 and min_earlier > 0}


def model_dependence(name: str, T: int = 12) -> dict:
    """The token-level dependence map of a 2-layer float64 model of variant `name` on 2 random
    sequences (`particles.verify.causal_dependence`: every single token and every suffix
    perturbed, outputs compared bit for bit), against the causal reference."""
    torch.manual_seed(0)
    m = GPT(GPTConfig(block_size=T, n_layer=2, n_head=2, n_embd=16), name).to(F64)
    idx = torch.randint(0, 256, (2, T), generator=torch.Generator().manual_seed(1))
    with torch_threads(1), torch.no_grad():
        return against_causal_reference(causal_dependence(m, idx, vocab_size=256))

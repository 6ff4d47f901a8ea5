"""The GPT backbone shared by every variant (nanoGPT layout; seed 004 §5 "Models", App. A.1).

Token + learned position embeddings, pre-norm blocks (`particles.lm.blocks.Block`: causal
multi-head attention through `scaled_dot_product_attention`, GELU MLP 4x, no biases, dropout 0),
final LayerNorm, weight-tied head. Auxiliary streams that start from learned embeddings get their
own token and position tables (seed 004 App. A.1, seed 002 §4.1).

Use:
    model = GPT(GPTConfig(n_layer=4, n_head=4, n_embd=64, block_size=64), variant="nesterov-lt")
    logits = model(idx)                      # (B, T, V)
    loss = model.loss(idx, targets)
    state = model.initial_state(idx)         # dict: x and the variant's auxiliary streams
    for block in model.blocks: state = block(state)   # one residual update per block
    logits = model.head(state)

`pins={"nu_a": 1.0, ...}` fixes learned scalars to exact constants in every block (containments).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .blocks import Block, LayerNorm
from .data import VOCAB_SIZE
from .variants import Variant, get_variant


@dataclass(frozen=True)
class GPTConfig:
    vocab_size: int = VOCAB_SIZE
    block_size: int = 64
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 64

    def __post_init__(self):
        for name in ("vocab_size", "block_size", "n_layer", "n_head", "n_embd"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if self.n_embd % self.n_head:
            raise ValueError(f"n_embd {self.n_embd} must be divisible by n_head {self.n_head}")

    def as_dict(self) -> dict:
        return asdict(self)


class GPT(nn.Module):
    """Decoder-only language model whose residual update is `variant` (a name in VARIANTS)."""

    def __init__(self, config: GPTConfig, variant: str | Variant = "gd-lt",
                 pins: dict[str, float] | None = None):
        super().__init__()
        if not isinstance(config, GPTConfig):
            raise TypeError(f"config must be a GPTConfig, got {type(config).__name__}")
        self.config = config
        self.variant = variant if isinstance(variant, Variant) else get_variant(variant)
        v, d = self.variant, config.n_embd
        self.wte = nn.Embedding(config.vocab_size, d)
        self.wpe = nn.Embedding(config.block_size, d)
        self.aux_wte = nn.ModuleDict({s: nn.Embedding(config.vocab_size, d)
                                      for s, kind in v.streams.items() if kind == "embedding"})
        self.aux_wpe = nn.ModuleDict({s: nn.Embedding(config.block_size, d)
                                      for s, kind in v.streams.items() if kind == "embedding"})
        self.blocks = nn.ModuleList(
            Block(d, config.n_head, v.rule, v.kwargs, v.scalars, v.norms, pins, v.extra_linear)
            for _ in range(config.n_layer))
        self.ln_f = LayerNorm(d)
        self._init_weights()

    def _init_weights(self) -> None:
        """nanoGPT init: N(0, 0.02), residual output projections N(0, 0.02 / sqrt(2 L)),
        SympFormer's velocity map B = I (as the published code)."""
        std_proj = 0.02 / math.sqrt(2 * self.config.n_layer)
        for name, p in self.named_parameters():
            if name.endswith("c_proj.weight"):
                nn.init.normal_(p, 0.0, std_proj)
            elif name.endswith("extra.B.weight"):
                nn.init.eye_(p)
            elif p.ndim == 2:
                nn.init.normal_(p, 0.0, 0.02)

    @property
    def lm_head_weight(self) -> torch.Tensor:
        return self.wte.weight  # weight tying

    def initial_state(self, idx: torch.Tensor) -> dict[str, torch.Tensor]:
        """x_0 = TokEmb(idx) + PosEmb(pos) and the variant's auxiliary streams at depth 0."""
        if not isinstance(idx, torch.Tensor) or idx.dtype != torch.long or idx.ndim != 2:
            raise TypeError("idx must be a LongTensor of shape (B, T)")
        B, T = idx.shape
        if T > self.config.block_size:
            raise ValueError(f"idx: sequence length {T} exceeds block_size {self.config.block_size}")
        pos = torch.arange(T, device=idx.device)
        state = {"x": self.wte(idx) + self.wpe(pos)}
        dtype, dev = state["x"].dtype, idx.device
        D = self.config.n_embd // self.config.n_head
        for stream, kind in self.variant.streams.items():
            if kind == "embedding":
                state[stream] = self.aux_wte[stream](idx) + self.aux_wpe[stream](pos)
            elif kind == "ones":
                state[stream] = torch.ones_like(state["x"])
            elif kind == "zeros":
                state[stream] = torch.zeros_like(state["x"])
            elif kind == "identity":
                state[stream] = torch.eye(D, dtype=dtype, device=dev).expand(B, T, D, D)
            else:
                raise ValueError(f"stream init {kind!r} of {stream} is unknown")
        if "y" in self.variant.streams:  # SympFormer's integration time, t_0 = 1
            state["t"] = torch.ones((), dtype=dtype, device=dev)
        return state

    def head(self, state: dict[str, torch.Tensor]) -> torch.Tensor:
        return F.linear(self.ln_f(state["x"]), self.lm_head_weight)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        state = self.initial_state(idx)
        for block in self.blocks:
            state = block(state)
        return self.head(state)

    def loss(self, idx: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        """Mean next-token cross-entropy (nats/token)."""
        logits = self(idx)
        return F.cross_entropy(logits.float().flatten(0, 1), targets.flatten())


def count_parameters(model: GPT, *, non_positional: bool = False) -> int:
    """Number of parameters; `non_positional` drops every position table (seed 004 App. A.1)."""
    return sum(p.numel() for name, p in model.named_parameters()
               if not (non_positional and (name == "wpe.weight" or name.startswith("aux_wpe."))))


def meta_model(config: GPTConfig, variant: str = "gd-lt") -> GPT:
    """The model instantiated on the meta device (shapes only, no memory): for parameter counts."""
    with torch.device("meta"):
        return GPT(config, variant)


def flops_per_token(model: GPT, attn_calls: int = 1, mlp_calls: int = 1) -> float:
    """Training FLOPs per token (forward + backward = 3 x forward), the estimate of nanoGPT's
    `estimate_mfu` (PaLM, App. B) with each oracle counted as often as a block calls it:
    6 (L (a P_attn + m P_mlp) + V d) + 12 L a T d, for `a` attention and `m` MLP calls per block,
    P_* the oracle's weight count, V d the (tied) head, T the block size. Update-rule arithmetic
    (elementwise, O(d) per token) and embedding lookups are not counted."""
    cfg = model.config
    block = model.blocks[0]
    p_attn = sum(p.numel() for p in block.attn.parameters())
    p_mlp = sum(p.numel() for p in block.mlp.parameters())
    matmul = cfg.n_layer * (attn_calls * p_attn + mlp_calls * p_mlp) + cfg.vocab_size * cfg.n_embd
    return 6.0 * matmul + 12.0 * cfg.n_layer * attn_calls * cfg.block_size * cfg.n_embd


# Dense bf16 tensor-core peaks (FLOP/s) of the GPUs the toolkit has run on, by device-name prefix.
PEAK_BF16_FLOPS = {"NVIDIA H100": 989.4e12, "NVIDIA H200": 989.4e12, "NVIDIA A100": 312e12}


def peak_flops(device_name: str) -> float | None:
    """The dense bf16 peak of a CUDA device by name (None when unknown: MFU is then not reported)."""
    return next((v for k, v in PEAK_BF16_FLOPS.items() if device_name.startswith(k)), None)

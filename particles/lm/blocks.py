"""The residual update, the single axis of variation of the training path.

Every variant of the three transformer papers shares one block template:

* two first-order *oracles*, ``Attn(LN x)`` and ``MLP(LN x)`` (``Block.attn_oracle``,
  ``Block.mlp_oracle``; seed 004 §2, eqs. (3)-(5)), each a pre-norm sub-layer of the GPT backbone;
* *auxiliary streams* carried from block to block next to the residual ``x`` (a velocity ``v``,
  Adam moments ``m, s``, a per-token channel covariance ``r``, SympFormer's momentum ``y``),
  stabilised by auxiliary LayerNorms (``LN_v``, ``LN_u``, ``LN_Y``);
* learned per-substep *scalars* with the papers' parametrisations: scalars in (0, 1) are
  ``sigmoid(raw)``, positive scalars ``softplus(raw)`` (seed 004 App. A.1, seed 002 §4.1);
* an *update rule* (`gd`, `kicks`, `imex`, `preconditioned`, `sympformer`) that composes oracle
  calls, streams and scalars.

A variant (see `particles.lm.variants`) is a configuration of this template: a rule with its
keyword arguments, the streams it carries, its scalars with their inits, and its auxiliary
norms. No variant has its own block class.

The state passed from block to block is a dict of tensors: ``x`` (B, T, d) and the variant's
streams (``v``, ``m``, ``s``: (B, T, d); ``r``: (B, T, D, D); ``y``: (B, T, d); SympFormer also
carries its integration time ``t`` and the previous force ``g_prev`` for the AB2 schemes).
Every rule is causal: token i's outputs depend on tokens <= i only (tested for every variant).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Mapping

import torch
import torch.nn.functional as F
from torch import nn

from theory.schemes import zeta_table4

# Quintic Newton-Schulz coefficients of Muon (seed 002 App. A.4; Jordan et al. 2024).
NS_COEFFICIENTS = (3.4445, -4.7750, 2.0315)


class LayerNorm(nn.Module):
    """LayerNorm with a weight and no bias (seed 004 App. A.1: "no bias terms")."""

    def __init__(self, d: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.layer_norm(x, x.shape[-1:], self.weight, None, 1e-5)


ATTENTIONS = ("softmax", "linear")


LINEAR_ATTENTION_CHUNK = 64  # chunk length of the prefix-sum form (`causal_linear_mean`)


def causal_linear_mean(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor,
                       chunk: int = LINEAR_ATTENTION_CHUNK) -> torch.Tensor:
    """(1/n_i) sum_{j<=i} (a_i . b_j) c_j for a, b: (..., T, p), c: (..., T, r), n_i = i + 1.

    Causal prefix-sum form of linear attention, by chunks of `chunk` positions: the state
    S = sum_{j < chunk start} b_j c_j^T (p x r) is carried from chunk to chunk (prefix sums), and
    inside a chunk the masked (chunk x chunk) kernel adds the visible keys of the chunk itself:

        out_i = a_i S + sum_{chunk start <= j <= i} (a_i . b_j) c_j.

    `chunk=1` is the pure prefix sum S_i = sum_{j<=i} b_j c_j^T; chunk >= T is the masked
    quadratic kernel. Cost O(T chunk (p + r) + (T / chunk) p r): linear in T, and at the compact
    block sizes (T <= chunk) no (T, p, r) outer-product tensor is formed (it costs ~40x on CPU).
    """
    if chunk < 1:
        raise ValueError(f"chunk must be >= 1, got {chunk}")
    T = a.shape[-2]
    state = a.new_zeros(*a.shape[:-2], a.shape[-1], c.shape[-1])
    out = []
    for start in range(0, T, chunk):
        ac, bc, cc = (t[..., start: start + chunk, :] for t in (a, b, c))
        mask = torch.ones(ac.shape[-2], ac.shape[-2], dtype=torch.bool, device=a.device).tril()
        out.append(ac @ state + ((ac @ bc.transpose(-1, -2)) * mask) @ cc)
        state = state + bc.transpose(-1, -2) @ cc
    n = torch.arange(1, T + 1, device=a.device, dtype=a.dtype).unsqueeze(-1)
    return torch.cat(out, dim=-2) / n


class CausalSelfAttention(nn.Module):
    """Fused-QKV causal multi-head attention.

    ``kind="softmax"``: `scaled_dot_product_attention` (nanoGPT). ``kind="linear"``: the linear
    attention of seed 000 §4 and eq. (28) as the SympFormer linear variants use it (scores
    averaged over heads, no normalisation, mean over the visible keys):

        Attn_i = c_proj( (1/n_i) sum_{j<=i} (mean_h q_i^h . k_j^h / sqrt(D)) v_j ),

    computed in the causal prefix-sum form (`causal_linear_mean`); mean_h q^h . k^h / sqrt(D) is
    q . k / (H sqrt(D)) on the concatenated heads.
    """

    def __init__(self, d: int, n_head: int, kind: str = "softmax"):
        super().__init__()
        if d % n_head:
            raise ValueError(f"n_embd {d} must be divisible by n_head {n_head}")
        if kind not in ATTENTIONS:
            raise ValueError(f"attention must be one of {ATTENTIONS}, got {kind!r}")
        self.n_head, self.kind = n_head, kind
        self.c_attn = nn.Linear(d, 3 * d, bias=False)
        self.c_proj = nn.Linear(d, d, bias=False)

    def heads(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """q, k, v of shape (B, H, T, D)."""
        B, T, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=2)
        return tuple(t.view(B, T, self.n_head, d // self.n_head).transpose(1, 2) for t in (q, k, v))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, d = x.shape
        if self.kind == "linear":
            q, k, v = self.c_attn(x).split(d, dim=2)
            D = d // self.n_head
            return self.c_proj(causal_linear_mean(q / (self.n_head * math.sqrt(D)), k, v))
        q, k, v = self.heads(x)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).reshape(B, T, d))


class MLP(nn.Module):
    """Two-layer GELU MLP with 4x expansion, no biases."""

    def __init__(self, d: int):
        super().__init__()
        self.c_fc = nn.Linear(d, 4 * d, bias=False)
        self.c_proj = nn.Linear(4 * d, d, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.c_proj(F.gelu(self.c_fc(x)))


@dataclass(frozen=True)
class Scalar:
    """A learned per-substep scalar: kind "unit" is sigmoid(raw) in (0, 1), "pos" softplus(raw) > 0."""

    kind: str
    init: float

    def __post_init__(self):
        if self.kind not in ("unit", "pos"):
            raise ValueError(f"kind must be 'unit' or 'pos', got {self.kind!r}")
        if self.kind == "unit" and not 0.0 < self.init < 1.0:
            raise ValueError(f"init of a unit scalar must be in (0, 1), got {self.init}")
        if self.kind == "pos" and not self.init > 0.0:
            raise ValueError(f"init of a positive scalar must be > 0, got {self.init}")

    def raw_init(self) -> float:
        if self.kind == "unit":
            return math.log(self.init) - math.log1p(-self.init)
        return self.init + math.log(-math.expm1(-self.init))  # softplus^{-1}, stable


class Scalars(nn.Module):
    """The learned scalars of one block; `pins` fixes some of them to exact constants.

    Pins express the papers' containments literally (e.g. TMMFormer with nu == 1 is
    YuriiFormer): a pinned scalar returns the Python float itself, so ``1.0 * v`` and
    ``0.0 * m`` are exact in floating point.
    """

    def __init__(self, specs: Mapping[str, Scalar], pins: Mapping[str, float] | None = None):
        super().__init__()
        pins = dict(pins or {})
        unknown = sorted(set(pins) - set(specs))
        if unknown:
            raise ValueError(f"pins: unknown scalar(s) {unknown}; this variant has {sorted(specs)}")
        self.specs = dict(specs)
        self.pins = pins
        self.raw = nn.ParameterDict({name: nn.Parameter(torch.tensor(spec.raw_init()))
                                     for name, spec in specs.items() if name not in pins})

    def __getitem__(self, name: str) -> torch.Tensor | float:
        if name in self.pins:
            return self.pins[name]
        raw = self.raw[name]
        return torch.sigmoid(raw) if self.specs[name].kind == "unit" else F.softplus(raw)


# ---------------------------------------------------------------------------------------------
# Matrix functions of the preconditioned streams (seed 002 §4.1, App. B.2)

def newton_schulz(m: torch.Tensor, n_head: int, steps: int = 5, eps: float = 1e-7) -> torch.Tensor:
    """Per-token, head-wise quintic Newton-Schulz polar factor (seed 002 §4.1, App. A.4, D.2).

    Each token's d-vector is viewed as an (H, D) matrix, Frobenius-normalised and iterated
    Y <- a Y + (b Y Y^T + c (Y Y^T)^2) Y (= Y (a I + b Y^T Y + c (Y^T Y)^2)) `steps` times.
    """
    *lead, d = m.shape
    y = m.reshape(*lead, n_head, d // n_head)
    y = y / (torch.linalg.matrix_norm(y, keepdim=True) + eps)
    a, b, c = NS_COEFFICIENTS
    for _ in range(steps):
        gram = y @ y.transpose(-1, -2)
        y = a * y + (b * gram + c * gram @ gram) @ y
    return y.reshape(*lead, d)


def inverse_sqrt_newton(r: torch.Tensor, steps: int = 10) -> torch.Tensor:
    """R^{-1/2} of SPD matrices (..., D, D) by the coupled Newton iteration (seed 002 App. B.2).

    With R normalised by its Frobenius norm c, Y_0 = R / c, Z_0 = I and
    T = (3 I - Z Y) / 2, Y <- Y T, Z <- T Z; then Z -> (R / c)^{-1/2} and R^{-1/2} = Z / sqrt(c).
    """
    c = torch.linalg.matrix_norm(r, keepdim=True)
    eye = torch.eye(r.shape[-1], dtype=r.dtype, device=r.device).expand_as(r)
    y, z = r / c, eye
    for _ in range(steps):
        t = 0.5 * (3.0 * eye - z @ y)
        y, z = y @ t, t @ z
    return z / c.sqrt()


# ---------------------------------------------------------------------------------------------
# The block template

State = dict  # str -> Tensor (and SympFormer's time t, a 0-dim tensor)


class Block(nn.Module):
    """One layer: the oracles, the auxiliary norms and scalars, and the variant's update rule.

    ``rule_kwargs["attention"]`` ("softmax" by default, or "linear") selects the attention of the
    block's attention oracle; it is a property of the block, not a keyword of the rule (the
    SympFormer rule reads it as ``blk.attention``)."""

    def __init__(self, d: int, n_head: int, rule: Callable[..., State], rule_kwargs: Mapping,
                 scalars: Mapping[str, Scalar], norms: tuple[str, ...],
                 pins: Mapping[str, float] | None = None, extra_linear: tuple[str, ...] = ()):
        super().__init__()
        self.n_head = n_head
        self.rule, self.rule_kwargs = rule, dict(rule_kwargs)
        self.attention = self.rule_kwargs.pop("attention", "softmax")
        self.ln_1, self.attn = LayerNorm(d), CausalSelfAttention(d, n_head, self.attention)
        self.ln_2, self.mlp = LayerNorm(d), MLP(d)
        self.norms = nn.ModuleDict({name: LayerNorm(d) for name in norms})
        self.scalars = Scalars(scalars, pins)
        self.extra = nn.ModuleDict({name: nn.Linear(d, d, bias=False) for name in extra_linear})

    def attn_oracle(self, x: torch.Tensor) -> torch.Tensor:
        return self.attn(self.ln_1(x))

    def mlp_oracle(self, x: torch.Tensor) -> torch.Tensor:
        return self.mlp(self.ln_2(x))

    def oracle(self, which: str, x: torch.Tensor) -> torch.Tensor:
        """Oracle `which`: "a" = Attn(LN x), "m" = MLP(LN x), "am" = both at x, summed (Euler)."""
        if which == "a":
            return self.attn_oracle(x)
        if which == "m":
            return self.mlp_oracle(x)
        return self.attn_oracle(x) + self.mlp_oracle(x)

    def forward(self, state: State) -> State:
        return self.rule(self, dict(state), **self.rule_kwargs)


# ---------------------------------------------------------------------------------------------
# Update rules. Each reads like the equations it cites; `blk.scalars[name]` are the learned scalars.

def gd(blk: Block, s: State, *, split: str) -> State:
    """Gradient descent on E + F (seed 004 §2): Euler eq. (4) or Lie-Trotter eq. (5) (= nanoGPT)."""
    x = s["x"]
    if split == "euler":
        s["x"] = x + blk.attn_oracle(x) + blk.mlp_oracle(x)
    else:
        x = x + blk.attn_oracle(x)
        s["x"] = x + blk.mlp_oracle(x)
    return s


@dataclass(frozen=True)
class Kick:
    """One momentum substep: lookahead, velocity update, drift (seed 004 eq. (6), §3.2, §6, App. B.2).

        x_in = x + mu v                       (no lookahead when mu is None: Polyak / heavy ball)
        v    = LN_v(beta v + sign * scale * gamma * O(x_in))
        x    = x + nu v                       (drift: nu = 1 when "one", a scalar name, or none)
    """

    oracle: str  # "a", "m", or "am" (Euler: both oracles at the same point, one gamma)
    beta: str
    gamma: str
    mu: str | None = None
    drift: str | None = "one"
    scale: float = 1.0
    sign: float = 1.0
    norm: str = "v"


def kicks(blk: Block, s: State, *, steps: tuple[Kick, ...]) -> State:
    """Momentum templates as a sequence of kicks: Polyak/Nesterov (Euler or Lie-Trotter),
    TMMFormer, HBFormer, PRK-Verlet (Strang) and the Hamiltonian symplectic-Euler variant."""
    x, v, sc = s["x"], s["v"], blk.scalars
    for k in steps:
        x_in = x + sc[k.mu] * v if k.mu is not None else x
        v = blk.norms[k.norm](sc[k.beta] * v + (k.sign * k.scale) * sc[k.gamma] * blk.oracle(k.oracle, x_in))
        if k.drift == "one":
            x = x + v
        elif k.drift is not None:
            x = x + sc[k.drift] * v
    s["x"], s["v"] = x, v
    return s


def imex(blk: Block, s: State, *, order: str, k: int, ln_each: bool) -> State:
    """IMEX (seed 004 App. B.2): explicit step of the first oracle at the lookahead, then k
    unrolled refinements of the implicit map of the second; LN_v once at the end (IMEX) or after
    every velocity update (IMEX+LN_v)."""
    x, v, sc = s["x"], s["v"], blk.scalars
    first, second = order[0], order[1]
    ln_v = blk.norms["v"]
    v_half = sc["beta"] * v + sc["gamma_e"] * blk.oracle(first, x + sc["mu_e"] * v)
    if ln_each:
        v_half = ln_v(v_half)
    v_j = v_half
    for _ in range(k):
        v_j = sc["beta"] * v_half + sc["gamma_i"] * blk.oracle(second, x + sc["mu_i"] * v_j)
        if ln_each:
            v_j = ln_v(v_j)
    v_next = v_j if ln_each else ln_v(v_j)
    s["x"], s["v"] = x + v_next, v_next
    return s


def preconditioned(blk: Block, s: State, *, first_moment: bool, precond: str | None,
                   decay: bool = False, eps: float = 1e-8, ns_steps: int = 5,
                   newton_steps: int = 10) -> State:
    """Optimizer-inspired blocks of seed 002 (§4.1, App. B), per substep a in {attn, mlp}:

        G = O(LN x);  M = beta1 M + (1 - beta1) G           (M = G without a first moment)
        diag:     S = beta2 S + (1 - beta2) G*G,  D = M / (sqrt(S) + eps)   (Adam, RMSProp)
        spectral: D = NS(M)                                               (Muon, Ortho)
        right:    R = betaR R + (1 - betaR) G^T G,  D = reshape(M R^{-1/2})  (SOAP, Shampoo)
        x = (1 - lambda) x + gamma LN_u(D)                  (lambda = 0 without decoupled decay)
    """
    x, sc, H = s["x"], blk.scalars, blk.n_head
    for sub in ("a", "m"):
        g = blk.oracle(sub, x)
        if first_moment:
            b1 = sc[f"beta1_{sub}"]
            s["m"] = b1 * s["m"] + (1 - b1) * g
            m = s["m"]
        else:
            m = g
        if precond == "diag":
            b2 = sc[f"beta2_{sub}"]
            s["s"] = b2 * s["s"] + (1 - b2) * g * g
            d = m / (s["s"].sqrt() + eps)
        elif precond == "spectral":
            d = newton_schulz(m, H, ns_steps)
        elif precond == "right":
            br = sc[f"betaR_{sub}"]
            gh = g.unflatten(-1, (H, -1))
            s["r"] = br * s["r"] + (1 - br) * gh.transpose(-1, -2) @ gh
            d = (m.unflatten(-1, (H, -1)) @ inverse_sqrt_newton(s["r"], newton_steps)).flatten(-2)
        else:
            raise ValueError(f"precond must be 'diag', 'spectral' or 'right', got {precond!r}")
        shrink = (1 - sc[f"lambda_{sub}"]) * x if decay else x
        x = shrink + sc[f"gamma_{sub}"] * blk.norms[f"u_{sub}"](d)
    s["x"] = x
    return s


# ---------------------------------------------------------------------------------------------
# SympFormer (seed 000, Algorithm 1, Table 4, eqs. (28), (33)-(34))

SYMPFORMER_SCORE_CLAMP = 30.0  # exp of head-averaged scores is unnormalised in G: keep it finite


def _visible(T: int, device, dtype) -> tuple[torch.Tensor, torch.Tensor]:
    """Causal mask (T, T) as 0/1 and the number of visible keys n_i = i + 1, shape (T, 1)."""
    mask = torch.ones(T, T, device=device, dtype=torch.bool).tril()
    n = torch.arange(1, T + 1, device=device, dtype=dtype).unsqueeze(-1)
    return mask, n


def softmax_oracles(blk: Block, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The causal mean-field accelerated softmax attention field (F, G) of seed 000 eq. (33)-(34).

    Scores are averaged over heads *before* exponentiation (§6): E_ij = exp(mean_h q_i^h.k_j^h /
    sqrt(D)) for j <= i, z_i = mean_{j<=i} E_ij, s_i = <y_i, B y_i> / z_i^2 and

        F_i = B y_i / z_i,     G_i = (1/2) mean_{j<=i} E_ij (s_i + s_j + 2) (x_j A)

    with x_j A realised by the value and output projections. Row-wise masking keeps it causal;
    the gradient of the masked *global* Hamiltonian (35) is not (`hamiltonian_oracle_G`).
    """
    B, T, d = x.shape
    xn = blk.ln_1(x)
    q, k, v = blk.attn.heads(xn)
    scores = (q @ k.transpose(-1, -2)).mean(dim=1) / math.sqrt(q.shape[-1])  # (B, T, T)
    mask, n = _visible(T, x.device, x.dtype)
    e = torch.exp(scores.clamp(max=SYMPFORMER_SCORE_CLAMP)) * mask
    z = e.sum(-1, keepdim=True) / n  # (B, T, 1)
    by = blk.extra["B"](y)
    s_ = (y * by).sum(-1, keepdim=True) / z ** 2  # (B, T, 1)
    weights = e * (s_ + s_.transpose(-1, -2) + 2.0)
    values = v.transpose(1, 2).reshape(B, T, d)
    G = blk.attn.c_proj(weights @ values / (2.0 * n))
    return by / z, G


def hamiltonian_softmax_oracles(blk: Block, x: torch.Tensor, y: torch.Tensor, *,
                                leaky: bool) -> tuple[torch.Tensor, torch.Tensor]:
    """(F, G) with the force G = -grad_x H by autograd, H the *global* masked softmax Hamiltonian
    of seed 000 eq. (35) in the mean-field normalisation of `softmax_oracles`:

        H(x, y) = sum_i ( <y_i, B y_i> / (2 z_i) - z_i ),   z_i = mean_{j<=i} E_ij,

    E_ij = exp(mean_h q_i^h . k_j^h / sqrt(D)) on LN(x), masked to j <= i (F_i = B y_i / z_i as in
    `softmax_oracles`). The gradient is taken with respect to a zero offset d of x (x + d), so the
    force is a function of the parameters and of x that training differentiates through.

    ``leaky=True`` is the printed scheme under the causal mask: d enters queries *and* keys, so
    token i feels every later token k > i through its key in row k -- the force is not causal
    (the leak of `sympformer:causal-hamiltonian`; the training path names it
    `...-hamgrad-leaky` and trains it only to measure what the leak is worth).
    ``leaky=False``: d enters the queries only (the keys are held at x), so row i's force sums
    its own row j <= i: the same Hamiltonian's gradient, made causal.
    """
    create_graph = torch.is_grad_enabled()
    with torch.enable_grad():
        d = torch.zeros_like(x, requires_grad=True)
        B = x.shape[0]
        # one attention-oracle call on the offset and the plain input: queries (and, when leaky,
        # keys) from x + d, causal keys from x
        q, k, _ = blk.attn.heads(torch.cat((blk.ln_1(x + d), blk.ln_1(x))))
        q, k = q[:B], (k[:B] if leaky else k[B:])
        scores = (q @ k.transpose(-1, -2)).mean(dim=1) / math.sqrt(q.shape[-1])
        mask, n = _visible(x.shape[1], x.device, x.dtype)
        e = torch.exp(scores.clamp(max=SYMPFORMER_SCORE_CLAMP)) * mask
        z = e.sum(-1, keepdim=True) / n
        by = blk.extra["B"](y)
        H = ((y * by).sum(-1, keepdim=True) / (2 * z) - z).sum()
        (grad,) = torch.autograd.grad(H, d, create_graph=create_graph)
    return by / z, -grad


def linear_oracles(blk: Block, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The causal accelerated linear-attention field of seed 000 eq. (28):

        F_i = (1/n_i) sum_{j<=i} (x_i A x_j^T) y_j,
        G_i = -(1/n_i) sum_{j<=i} (y_i . y_j) x_j A + x_i V,

    with x A x^T the head-averaged scores and x A = q W_k^T / (H sqrt(D)).
    """
    B, T, d = x.shape
    xn = blk.ln_1(x)
    q, k, v = blk.attn.heads(xn)
    H, D = q.shape[1], q.shape[-1]
    mask, n = _visible(T, x.device, x.dtype)
    scores = (q @ k.transpose(-1, -2)).mean(dim=1) / math.sqrt(D) * mask
    w_k = blk.attn.c_attn.weight[d: 2 * d]  # (d_k, d): k = x W_k^T
    xA = q.transpose(1, 2).reshape(B, T, d) @ w_k / (H * math.sqrt(D))
    yy = (y @ y.transpose(-1, -2)) * mask
    values = blk.attn.c_proj(v.transpose(1, 2).reshape(B, T, d))
    return scores @ y / n, -(yy @ xA) / n + values


def sympformer_prefactors(scheme: str, sc: Scalars, t: torch.Tensor, h_x, h_y):
    """(zeta_1, zeta_2) as printed in seed 000 Table 4 (`theory.schemes.zeta_table4`, evaluated
    on torch tensors so gradients reach the scalars), with alpha(t) = c_log / t + c_lin and
    eta(t) = c_log ln t + c_lin t (Algorithm 1). Table 4 leaves alpha_eff undefined; we read it
    as the effective rate Delta eta_k / h_X. The AB2 schemes use the prefactors of their
    first-order base (presymplectic Euler resp. exponential Euler)."""
    c_log, c_lin = sc["c_log"], sc["c_lin"]
    base = {"presymp-ab2": "presymp-euler", "presymp-etd-ab2": "presymp-expeuler"}.get(scheme, scheme)
    if base not in ("plain-euler", "presymp-euler", "presymp-expeuler"):
        raise ValueError(f"scheme: unknown SympFormer scheme {scheme!r}")
    if base == "plain-euler":
        return zeta_table4(base, h=h_y, alpha_learned=sc["alpha"], xp=torch)
    if base == "presymp-euler":
        return zeta_table4(base, h=h_y, alpha_t_k=c_log / t + c_lin, xp=torch)
    delta_eta = c_log * torch.log((t + h_x) / t) + c_lin * h_x
    return zeta_table4(base, h=h_y, delta_eta=delta_eta, alpha_eff=delta_eta / h_x, xp=torch)


FORCES = ("row-masked", "hamgrad", "hamgrad-leaky")


def sympformer(blk: Block, s: State, *, scheme: str, lookahead: bool = False,
               force: str = "row-masked") -> State:
    """One SympFormer layer, seed 000 Algorithm 1 (lines 4-13):

        y <- zeta_1 y + h_Y zeta_2 G,  x <- x + h_X F   (simultaneous forward step, F, G at (x, y))
        y <- LN_Y(y);  x~ = x + m y;  y <- LN_V(beta y + gamma MLP(LN x~));  x <- x + y;  t <- t + h_X

    AB2 schemes replace G by the variable-step Adams-Bashforth combination (eq. (17)) of this
    layer's and the previous layer's force (plain forward step in the first layer).

    `lookahead`: the oracles F, G are evaluated at the look-ahead point x_bar = x + mu_att y
    (learned mu_att in (0, 1)) instead of x, as Figure 1 draws the attention input
    (x_bar_l = x_l + mu^att_l y_l) and App. B uses "a look-ahead step for the presymplectic
    discretizations" for Table 3; the MLP substep already looks ahead (x~ = x + m y).

    `force` (softmax attention): "row-masked", the causal explicit field (34) of
    `softmax_oracles`; "hamgrad", -grad H of the masked Hamiltonian (35) by autograd with the keys
    held fixed (causal); "hamgrad-leaky", the same gradient through queries and keys, i.e. the
    printed global-Hamiltonian force under the causal mask, which is not causal
    (`hamiltonian_softmax_oracles`).
    """
    if force not in FORCES:
        raise ValueError(f"force must be one of {FORCES}, got {force!r}")
    x, y, t, sc = s["x"], s["y"], s["t"], blk.scalars
    h_x, h_y = sc["h_x"], sc["h_y"]
    x_bar = x + sc["mu_att"] * y if lookahead else x
    if force != "row-masked":
        if blk.attention != "softmax":
            raise ValueError(f"force {force!r} needs softmax attention, got {blk.attention!r}")
        F_, G = hamiltonian_softmax_oracles(blk, x_bar, y, leaky=force == "hamgrad-leaky")
    else:
        F_, G = (softmax_oracles if blk.attention == "softmax" else linear_oracles)(blk, x_bar, y)
    zeta_1, zeta_2 = sympformer_prefactors(scheme, sc, t, h_x, h_y)
    force = G
    if scheme.endswith("ab2"):
        if "g_prev" in s:
            h_prev = s["h_prev"]
            force = (2 * h_prev + h_y) / (2 * h_prev) * G - h_y / (2 * h_prev) * s["g_prev"]
        s["g_prev"], s["h_prev"] = G, h_y
    y = zeta_1 * y + h_y * zeta_2 * force
    x = x + h_x * F_
    y = blk.norms["y"](y)
    d = blk.mlp_oracle(x + sc["m_mlp"] * y)
    y = blk.norms["v"](sc["beta_mlp"] * y + sc["gamma_mlp"] * d)
    s["x"], s["y"], s["t"] = x + y, y, t + h_x
    return s


def hamiltonian_oracle_G(x: torch.Tensor, y: torch.Tensor, A: torch.Tensor, Bm: torch.Tensor,
                         causal: bool) -> torch.Tensor:
    """-dH/dX of the printed global softmax Hamiltonian (seed 000 eq. (35)), by autograd:

        H(X, Y) = (N/2) tr(diag(M 1)^{-1} Y B^T Y^T) - (N/2) 1^T M 1,  M = exp(X A X^T)

    optionally with M causally masked (M_ij = 0 for j > i). Without the mask and with symmetric
    A, B this is the explicit force of eq. (34); with the mask it is *not causal*: row i depends
    on later tokens through their keys (the counterexample of the ledger claim).
    x, y: (N, d); A, B: (d, d).
    """
    x = x.detach().requires_grad_(True)
    N = x.shape[0]
    M = torch.exp(x @ A @ x.T)
    if causal:
        M = M * torch.ones(N, N, dtype=x.dtype, device=x.device).tril()
    row = M.sum(-1)
    H = 0.5 * N * ((y @ Bm.T * y).sum(-1) / row).sum() - 0.5 * N * M.sum()
    (grad,) = torch.autograd.grad(H, x)
    return -grad


def explicit_force_G(x: torch.Tensor, y: torch.Tensor, A: torch.Tensor, Bm: torch.Tensor,
                     causal: bool) -> torch.Tensor:
    """The printed force of seed 000 eq. (34): (N/2)({R, M} + 2M) X A, row-masked when causal."""
    N = x.shape[0]
    M = torch.exp(x @ A @ x.T)
    if causal:
        M = M * torch.ones(N, N, dtype=x.dtype, device=x.device).tril()
    m1 = M.sum(-1)
    R = ((y * (y @ Bm.T)).sum(-1) / m1 ** 2)
    anti = R[:, None] * M + M * R[None, :]
    return 0.5 * N * (anti + 2.0 * M) @ x @ A


# ---------------------------------------------------------------------------------------------
# Instrumentation

@dataclass
class OracleCount:
    attn: int = 0
    mlp: int = 0
    calls: list = field(default_factory=list)


def count_oracle_calls(block: Block, state: State) -> OracleCount:
    """Run `block` once on `state` and count the calls of its attention and MLP modules
    (forward hooks, not assumptions). SympFormer's kernel oracle counts as one attention call."""
    count = OracleCount()

    def hook(name):
        def f(module, args, out):
            setattr(count, name, getattr(count, name) + 1)
            count.calls.append(name)
        return f

    handles = [block.attn.c_attn.register_forward_hook(hook("attn")),
               block.mlp.c_fc.register_forward_hook(hook("mlp"))]
    try:
        with torch.no_grad():
            block(state)
    finally:
        for h in handles:
            h.remove()
    return count

"""particles.verify, causality: the dependence of every output position on every input
position, by vector-Jacobian products and by perturbation, and `assert_causal`.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import torch

from particles._verify.outcome import (Map, NonFiniteError, Report, check_map, check_x, conclude,
                                       differing, name_of, nondeterministic, on_copy,
                                       output_selector, select_output, tolerance_or_none)
from theory.checks import positive_int


# ------------------------------------------------------------------ causality


@dataclass(frozen=True)
class CausalDependence:
    """How output positions depend on input positions, measured along the position axis.

    dependence[t, s] (T×T, float64) is, for method "jacobian", max |cᵀ ∂out_t/∂in_s| over the
    batch and the features, with c a fixed random cotangent on output position t (non-zero iff
    the block ∂out_t/∂in_s is, for almost every c); for method "perturbation", the largest change
    of the outputs at position t when the inputs at position s alone are perturbed.
    suffix[t] (perturbation only) is the largest change of the outputs at positions ≤ t when every
    input after t is perturbed (the literal criterion for tokens); nan at t = T − 1.
    worst: a sentence locating the largest dependence on a later position (None if there is none).
    """

    dependence: torch.Tensor
    suffix: torch.Tensor | None
    method: str
    worst: str | None

    @property
    def leak(self) -> float:
        """The largest dependence of an output position on a later input position."""
        T = self.dependence.shape[0]
        future = torch.ones(T, T, dtype=torch.bool).triu(1)
        values = [self.dependence[future]]
        if self.suffix is not None:
            values.append(self.suffix[:-1])
        return float(torch.cat(values).max()) if T > 1 else 0.0


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class CausalReport(Report):
    """maps: the `CausalDependence` of each method run ("jacobian", "perturbation").
    `dependence` is the first one's T×T map, `method` the methods joined by "+", `leak` the
    largest dependence on a later position over all of them."""

    maps: dict

    @property
    def dependence(self) -> torch.Tensor:
        return next(iter(self.maps.values())).dependence

    @property
    def method(self) -> str:
        return "+".join(self.maps)

    @property
    def leak(self) -> float:
        return max(m.leak for m in self.maps.values())


def _position_axis(dim, x: torch.Tensor, name: str = "dim") -> int:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"{name} must be an int, got {type(dim).__name__}")
    if not -x.ndim <= dim < x.ndim:
        raise ValueError(f"{name} must index an axis of x (ndim {x.ndim}), got {dim}")
    return dim % x.ndim


def _sequence_output(f, x: torch.Tensor, dim: int, output, name: str) -> torch.Tensor:
    """f(x) with the position axis `dim` of x's length, finite (or raise naming f and where)."""
    out = select_output(on_copy(f, x), output, name)   # f may update its input in place
    T = x.shape[dim]
    if out.ndim <= dim or out.shape[dim] != T:
        raise ValueError(f"f: its output must have the position axis dim={dim} of length {T}, "
                         f"got shape {tuple(out.shape)}")
    if out.is_floating_point() and not torch.isfinite(out).all():
        idx = np.unravel_index(int(torch.argmax((~torch.isfinite(out)).reshape(-1).int())),
                               tuple(out.shape))
        raise NonFiniteError(f"f = {name} returned NaN or inf at output position t={int(idx[dim])} "
                             f"(output index {tuple(int(i) for i in idx)})")
    return out


def _by_position(values: torch.Tensor, dim: int) -> torch.Tensor:
    """max over every axis but `dim`: shape (T,)."""
    return values.movedim(dim, 0).reshape(values.shape[dim], -1).amax(dim=1)


def _jacobian_dependence(f, x, dim: int, chunk: int, output, name: str) -> CausalDependence | None:
    """None when f's output does not depend on x through autograd."""
    T = x.shape[dim]
    with torch.enable_grad():
        xr = x.detach().requires_grad_(True)
        out = _sequence_output(f, xr, dim, output, name)
    if not out.requires_grad:
        return None
    g = torch.Generator(device="cpu").manual_seed(0)
    c = torch.randn(out.shape, generator=g, dtype=torch.float64).to(device=out.device,
                                                                     dtype=out.dtype)
    c = c.movedim(dim, 0)
    dep = torch.zeros(T, T, dtype=torch.float64)
    worst, where = 0.0, None
    for start in range(0, T, chunk):
        ts = torch.arange(start, min(start + chunk, T))
        cot = torch.zeros(len(ts), *c.shape, dtype=c.dtype, device=c.device)
        cot[torch.arange(len(ts)), ts] = c[ts]  # one output position per cotangent
        cot = cot.movedim(1, dim + 1)
        with warnings.catch_warnings():  # some backward kernels have no vmap rule: a loop, same numbers
            warnings.filterwarnings("ignore", message=".*batching rule.*")
            (grads,) = torch.autograd.grad(out, xr, cot, retain_graph=True, is_grads_batched=True,
                                           allow_unused=True, materialize_grads=True)
        grads = grads.detach().abs().to(torch.float64).cpu()  # (k, *x.shape)
        if not torch.isfinite(grads).all():
            k, *idx = np.unravel_index(int(torch.argmax((~torch.isfinite(grads)).reshape(-1).int())),
                                       tuple(grads.shape))
            raise NonFiniteError(f"the vector-Jacobian product of f = {name} for output position "
                                 f"t={int(ts[k])} is NaN or inf at input index "
                                 f"{tuple(int(i) for i in idx)}, where f is finite")
        for k, t in enumerate(ts.tolist()):
            gk = grads[k]
            dep[t] = _by_position(gk, dim)
            later = gk.narrow(dim, t + 1, T - t - 1)
            if later.numel() and later.max().item() > worst:
                worst = later.max().item()
                idx = np.unravel_index(int(torch.argmax(later)), tuple(later.shape))
                idx = tuple(int(i) + (t + 1 if a == dim else 0) for a, i in enumerate(idx))
                where = (t, idx[dim], idx)
    text = None
    if where is not None:
        t, s, idx = where
        text = (f"output position t={t} depends on input position s={s} > t: "
                f"|cᵀ ∂out_t/∂in_s| = {worst:.3e} at input index {idx}")
    return CausalDependence(dep, None, "jacobian", text)


def _change(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """|a − b| in float64, 0 where bit-equal (inf == inf included), inf where one side is NaN."""
    a64, b64 = a.detach().to(torch.float64), b.detach().to(torch.float64)
    d = (a64 - b64).abs()
    d = torch.where(a64 == b64, torch.zeros_like(d), d)
    return d.nan_to_num(nan=math.inf)


def _perturbation_dependence(f, x, dim: int, vocab_size, batch_dim, chunk: int, output, name: str,
                             draws: int = 1) -> CausalDependence:
    """The perturbation pass with `draws` independent draws of the alternative inputs (seeds 0,
    1, …): per (t, s) and per suffix the largest change over the draws, and the sentence of the
    draw with the largest leak. One draw tries one alternative per position, so a leak that only a
    particular later value opens (a special token id, an inactive ReLU) is found only when a draw
    hits it."""
    runs = [_perturbation_draw(f, x, dim, vocab_size, batch_dim, chunk, output, name, seed)
            for seed in range(draws)]
    worst = max(runs, key=lambda r: r.leak)
    return CausalDependence(torch.stack([r.dependence for r in runs]).amax(0),
                            torch.stack([r.suffix for r in runs]).amax(0), "perturbation", worst.worst)


def _perturbation_draw(f, x, dim: int, vocab_size, batch_dim, chunk: int, output, name: str,
                       seed: int) -> CausalDependence:
    T = x.shape[dim]
    g = torch.Generator(device="cpu").manual_seed(seed)
    scale_text = "a random token"
    if x.is_floating_point():
        scale = x.detach().abs().max().item() or 1.0
        scale_text = f"{scale:.3g}·N(0, 1)"
        other = x + scale * torch.randn(x.shape, generator=g, dtype=torch.float64).to(x)
    else:
        V = int(x.max().item()) + 1 if vocab_size is None else positive_int(vocab_size, "vocab_size")
        if x.min().item() < 0 or x.max().item() >= V:
            raise ValueError(f"x: tokens must lie in [0, vocab_size={V})")
        if V < 2:
            raise ValueError("vocab_size must be >= 2 to perturb a token (pass vocab_size)")
        other = (x + torch.randint(1, V, x.shape, generator=g).to(x.device)) % V
    pos = torch.arange(T, device=x.device)
    shape = [1] * x.ndim
    shape[dim] = T
    # perturbation k < T changes position k alone; k = T + t changes every position after t
    masks = [pos == s for s in range(T)] + [pos > t for t in range(T - 1)]
    dep = torch.zeros(T, T, dtype=torch.float64)
    suffix = torch.full((T,), math.nan, dtype=torch.float64)
    worst = [0.0, None]  # largest dependence on a later position, and its sentence

    def perturbed(k: int) -> torch.Tensor:
        return torch.where(masks[k].reshape(shape), other, x)

    def record(k: int, change: torch.Tensor) -> None:
        by_pos = _by_position(change, dim).cpu()
        if k >= T:
            suffix[k - T] = by_pos[: k - T + 1].max()
            return
        dep[:, k] = by_pos
        if k and by_pos[:k].max().item() > worst[0]:
            t = int(torch.argmax(by_pos[:k]))
            ch = change.narrow(dim, t, 1)
            idx = np.unravel_index(int(torch.argmax(ch)), tuple(ch.shape))
            idx = tuple(int(i) + (t if a == dim else 0) for a, i in enumerate(idx))
            worst[:] = [by_pos[t].item(), f"output position t={t} changes when input position "
                        f"s={k} > t is perturbed: |Δout| = {by_pos[t].item():.3e} at output index {idx}"]

    def call(z: torch.Tensor):
        return select_output(on_copy(f, z), output, name)

    def finite(k: int, out: torch.Tensor) -> torch.Tensor:
        """out, or NonFiniteError: a perturbation that leaves f's domain (sqrt or log of a positive
        input, exp overflow) gives NaN or inf, which a multiplicative mask (0·NaN) spreads to
        earlier positions; that is not a dependence of the function, so it is not scored as one.
        Only the positions the perturbation is scored at (before s, or up to t) must be finite:
        NaN at and after the perturbed position is f's own business (sqrt of a negative input)."""
        scored = out.narrow(dim, 0, k if k < T else k - T + 1)
        if not torch.isfinite(scored).all():
            where = f"input position s={k}" if k < T else f"every input after t={k - T}"
            raise NonFiniteError(
                f"f = {name} returned NaN or inf when {where} was perturbed (floats move by "
                f"max|x|·N(0, 1) = {scale_text}, which can leave f's domain: sqrt or log of positive "
                "inputs, exp overflow); not counted as a dependence. Use method='jacobian', or inputs "
                "whose perturbed values stay in f's domain")
        return out

    # f runs in the caller's grad mode (a force computed by autograd inside f needs it)
    base = _sequence_output(f, x, dim, output, name)
    stacked = batch_dim is not None
    if stacked:  # copies along the batch axis, the unperturbed x first in every call
        B = x.shape[batch_dim]
        for start in range(0, len(masks), chunk):
            ks = range(start, min(start + chunk, len(masks)))
            out = call(torch.cat([x] + [perturbed(k) for k in ks], dim=batch_dim))
            if out.ndim != base.ndim or out.shape[batch_dim] != B * (1 + len(ks)):
                stacked = False
                break
            pieces = out.split(B, dim=batch_dim)
            if _change(pieces[0], base).max().item() != 0.0:
                stacked = False  # f couples the batch (or rounds by batch size): one call each
                break
            if start == 0 and any(_change(call(perturbed(k)), piece).max().item() != 0.0
                                  for k, piece in zip(ks, pieces[1:])):
                # a perturbed copy alone differs from its stacked piece: f couples the copies
                # (a row read across the batch), which the unperturbed first copy cannot show
                stacked = False
                break
            for k, piece in zip(ks, pieces[1:]):
                record(k, _change(finite(k, piece), pieces[0]))
    if not stacked:  # every perturbation again, each in its own call (record overwrites)
        worst[:] = [0.0, None]
        for k in range(len(masks)):
            out = call(perturbed(k))
            if out.shape != base.shape:
                raise ValueError(f"f: its output shape changed from {tuple(base.shape)} to "
                                 f"{tuple(out.shape)} when an input was perturbed")
            record(k, _change(finite(k, out), base))
    text = worst[1]
    if text is None and T > 1 and suffix[:-1].max().item() > 0:
        t = int(torch.argmax(suffix[:-1]))
        text = (f"outputs at positions <= t={t} change when every input after t is perturbed: "
                f"|Δout| = {suffix[t].item():.3e}")
    return CausalDependence(dep, suffix, "perturbation", text)


_DEFAULT_BATCH = object()


def _causal_args(f, x, dim, method, batch_dim, chunk, output, draws):
    check_map(f)
    x = check_x(x, floating=False, event_dims=0)
    dim = _position_axis(dim, x)
    chunk = positive_int(chunk, "chunk")
    positive_int(draws, "draws")
    if method not in (None, "jacobian", "perturbation"):
        raise ValueError(f"method must be None, 'jacobian' or 'perturbation', got {method!r}")
    if method == "jacobian" and not x.is_floating_point():
        raise ValueError("method='jacobian' needs floating x; integer tokens use 'perturbation'")
    if batch_dim is _DEFAULT_BATCH:
        batch_dim = 0 if dim > 0 else None
    elif batch_dim is not None:
        batch_dim = _position_axis(batch_dim, x, "batch_dim")
        if batch_dim == dim:
            raise ValueError(f"batch_dim must differ from dim, got {batch_dim}")
    return x, dim, batch_dim, chunk, output_selector(output)


def _measure(f, x, dim, method, vocab_size, batch_dim, chunk, output, name, draws):
    if method == "jacobian":
        return _jacobian_dependence(f, x, dim, chunk, output, name)
    return _perturbation_dependence(f, x, dim, vocab_size, batch_dim, chunk, output, name, draws)


def causal_dependence(f: Map, x: torch.Tensor, *, dim: int = 1, method: str | None = None,
                      vocab_size: int | None = None, batch_dim=_DEFAULT_BATCH,
                      chunk: int = 32, output=None, draws: int = 1) -> CausalDependence:
    """Measure the dependence of every output position t on every input position s (T×T).

    method "jacobian" (default for floating x): one vector-Jacobian product per output position,
    batched through autograd (`is_grads_batched`, `chunk` positions per backward pass), each with
    a fixed random cotangent on that position; the gradient at input position s is zero exactly
    when the Jacobian block ∂out_t/∂in_s is (for almost every cotangent), so exact zeros decide.
    The whole x goes through f at once: dependence through batch statistics is seen. Blind to
    paths autograd cannot see (.detach(), a comparison such as a sign gate, integer ops).

    method "perturbation" (the only one for integer tokens): perturb the inputs at position s
    alone (dependence map) and every input after t (suffix), compare outputs with the
    unperturbed ones bit by bit. Floats move by max|x| · N(0, 1); tokens by a random non-zero
    offset modulo `vocab_size` (default: max(x) + 1). The copies are stacked along `batch_dim`
    (default 0 when dim > 0, None otherwise), `chunk` per call, the unperturbed x first in every
    call; if f's outputs for that first copy differ from f(x) alone, or a perturbed copy of the
    first call differs from f on that copy alone (each is run alone once), f couples the batch
    (BatchNorm in train mode, a row read across the batch) and each perturbation is run as its own
    call with the shape of x (2T − 1 calls). A perturbed output with NaN or inf raises
    NonFiniteError (a perturbation left f's domain), never scored as a dependence. f runs in the caller's grad mode: call under torch.no_grad() to save memory
    unless f differentiates inside. `output` selects the sequence from a tuple / dict output.
    Raises NonFiniteError (naming f and the position) when f(x) or a vector-Jacobian product is
    not finite."""
    x, dim, batch_dim, chunk, output = _causal_args(f, x, dim, method, batch_dim, chunk, output, draws)
    method = method or ("jacobian" if x.is_floating_point() else "perturbation")
    dep = _measure(f, x, dim, method, vocab_size, batch_dim, chunk, output, name_of(f), draws)
    if dep is None:
        raise ValueError("f: its output does not depend on x through autograd (detached, integer "
                         "or computed outside torch); use method='perturbation'")
    return dep


def assert_causal(f: Map, x: torch.Tensor, *, dim: int = 1, atol=0.0, method: str | None = None,
                  vocab_size: int | None = None, batch_dim=_DEFAULT_BATCH, chunk: int = 32,
                  output=None, draws: int = 1) -> CausalReport:
    """Assert that no output at position t depends on an input at a later position s > t.

    `dim` is the position axis of x and of f(x) (default 1: x of shape (B, T, ...); dim=0 for a
    single sequence (T, ...)); `output` selects the sequence from a tuple / dict output
    (output=0 for nn.MultiheadAttention). f is first called twice on x: different outputs raise
    `NondeterministicError` (dropout in train mode: call .eval()), NaN or inf in f(x) raises
    `NonFiniteError` naming f and the position.

    Floating x, by default both passes of `causal_dependence` (method=None; pass method= for one):
    the Jacobian pass (every block ∂out_t/∂in_s with s > t must vanish: T vector-Jacobian products
    in ⌈T/chunk⌉ batched backward passes) and the perturbation pass, which sees what autograd
    cannot (a .detach() path, a sign gate x·(shift(x) > 0)): 2T − 1 perturbed copies of x in
    ⌈(2T − 1)/chunk⌉ forward calls of chunk + 1 copies (2T − 1 calls of x's shape when f couples
    the batch). Total: 4 + ⌈(2T − 1)/chunk⌉ forward calls (2 for the determinism check) and
    ⌈T/chunk⌉ backward passes. The Jacobian pass is skipped (a note says so) when f's output has
    no autograd path to x.
    Integer tokens: the perturbation pass only; perturbing the token at any s > t, or all tokens
    after t, must leave every output up to t bit-identical, for every t.
    The perturbation pass is sampled: `draws` (default 1) independent draws of one alternative per
    position (seeds 0, 1, …; the dependence is the largest over the draws, the cost `draws` times
    one). A leak that only particular later values open (a special token id, EOS or padding
    handling, a gate inactive at x) is found when a draw hits one: raise draws= or put those values
    in x. The report's notes say how many draws were made.

    The default tolerance atol = 0 is exact whatever the dtype: masked attention, prefix sums and
    per-token maps produce exact zeros; pass atol > 0 only for a causal map computed with rounding
    across positions (an FFT convolution). Leaks through batch statistics (BatchNorm in train
    mode) and sequence statistics (a mean over positions) are leaks: f sees the whole x.

    Returns a `CausalReport` (`.maps` per method, `.dependence` the first T×T map, `.leak`);
    raises `StructureViolation` (AssertionError) with the largest leak seen by the first pass
    that finds one (Jacobian, then perturbation), the tolerance, the positions (t, s), the
    number of leaking pairs over both passes and the pass that found it."""
    x, dim, batch_dim, chunk, output = _causal_args(f, x, dim, method, batch_dim, chunk, output, draws)
    atol = tolerance_or_none(atol, "atol") or 0.0
    name = name_of(f)
    first, second = (_sequence_output(f, x, dim, output, name) for _ in range(2))
    differ = differing(first, second)
    if differ.any():
        idx = np.unravel_index(int(torch.argmax(differ.reshape(-1).int())), tuple(first.shape))
        raise nondeterministic(name, f"two calls on the same input differ at output position "
                                      f"t={int(idx[dim])} (output index {tuple(int(i) for i in idx)})")
    methods = ((method,) if method else ("jacobian", "perturbation") if x.is_floating_point()
               else ("perturbation",))
    maps, notes = {}, ()
    for m in methods:
        dep = _measure(f, x, dim, m, vocab_size, batch_dim, chunk, output, name, draws)
        if dep is None and method == "jacobian":
            raise ValueError("f: its output does not depend on x through autograd (detached, "
                             "integer or computed outside torch); use method='perturbation'")
        if dep is None:
            notes += ("the Jacobian pass was skipped: f's output has no autograd path to x (the "
                      "perturbation pass decides)",)
            continue
        maps[m] = dep
    T = x.shape[dim]
    future = torch.ones(T, T, dtype=torch.bool).triu(1)
    leaking = torch.zeros(int(future.sum()), dtype=torch.bool)
    for dep in maps.values():
        leaking |= dep.dependence[future] > atol
    # the first pass that finds a leak reports it (the passes measure in different units)
    worst_method = next((m for m in maps if maps[m].leak > atol), next(iter(maps)))
    worst = maps[worst_method]
    leak = worst.leak
    if leak > atol and len(maps) > 1 and any(m.leak <= atol for m in maps.values()):
        notes += (f"found by the {worst_method} pass only: "
                  + ("autograd sees no dependence on later positions (a .detach() path, a "
                     "comparison or integer operation)" if worst_method == "perturbation" else
                     "the perturbation left the outputs unchanged"),)
    if "perturbation" in maps and leak <= atol:   # a pass of a sampled test: say what was tried
        tried = "random token offset" if not x.is_floating_point() else "Gaussian perturbation"
        notes += (f"sampled: {draws} {tried}(s) per position (draws=); a leak that only particular later "
                  "values open (a special token id) can be missed",)
    if leak > atol and not leaking.any():
        notes += ("no later position leaks alone: outputs up to t change only when every input "
                  "after t is perturbed together",)
    report = CausalReport(
        check="causal", f=name, outcome="violated" if leak > atol else "holds",
        max_defect=leak, tolerance=atol, resolution=atol, points=int(future.sum()),
        violating=int(leaking.sum()), dtype=x.dtype, unit="pairs s > t",
        measure="dependence of an output on a later input",
        where=(f"({worst.worst}; {worst_method} pass)" if worst.worst else
               f"(no output depends on a later input; method {'+'.join(maps)})"),
        rule=f"atol {atol!r} ({'exact' if atol == 0 else 'absolute'})",
        scale="(bit-for-bit outputs under perturbation; exact zeros of vector-Jacobian products)"
              if atol == 0 else "(absolute, in the units of the dependence map)",
        notes=notes, maps=maps)
    return conclude(report)

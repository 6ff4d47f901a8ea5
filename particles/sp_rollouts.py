"""Rollout diagnostics of the oscillator networks of seed 001 §5 (fig. 7): what the claims and
figures measure on a trained network's k = 3.5 rollout.

`rollout` feeds a network its own predictions; `q1_error`, `max_abs`, `blowup_time` and
`energy_drift` read fig. 7's sentences off a rollout (fit, boundedness, blow-up, energy level);
`every_warmup_rollouts` rolls a one-step network out from the warm-up of every training k ("similar
trajectories regardless of the parameter k", §5);
`convergence` is the loss-curve criterion of a finished run; `structure` measures the volume and
symplecticity of the SP transformer's layer stack (end of §4) along its rollout. Training and the
committed results are `particles.sp_train`.
"""
from __future__ import annotations

import numpy as np
import torch

from particles import geometry, oscillator
from theory import symplectic

BLOWUP_GUARD = 1e6                              # a rollout stops once max‖ẑ‖∞ exceeds this
CONVERGED_TAIL, CONVERGED_DROP = 0.10, 0.02     # the convergence criterion (see `convergence`)
ONE_STEP = ("resnet", "sympnet")                # sl = pl = 1: the networks rolled out from every k
K_ROLLOUTS_T_END = 18.0                         # fig. 7(b): the horizon of the text on the one-step nets
K_ROLLOUTS_VERSION = 1                          # version of a result's `k_rollouts` (its `spec`)

@torch.no_grad()
def rollout(model, warmup: np.ndarray, n_steps: int, blowup: float = BLOWUP_GUARD) -> np.ndarray:
    """Feed the network its own predictions: states (len(warmup) + n_steps, 2d).

    The window is the last `model.seq_len` states. Once a state exceeds `blowup` in max-norm (or is
    not finite), the trajectory has blown up and the remaining states are NaN.
    """
    warmup = np.asarray(warmup, dtype=np.float64)
    if warmup.ndim != 2 or warmup.shape[0] < model.seq_len:
        raise ValueError(f"warmup must be (T0 >= {model.seq_len}, 2d), got {warmup.shape}")
    out = np.full((warmup.shape[0] + n_steps, warmup.shape[1]), np.nan)
    out[: warmup.shape[0]] = warmup
    window = torch.as_tensor(warmup[-model.seq_len:].T[None], dtype=torch.float64)
    for i in range(warmup.shape[0], out.shape[0]):
        z = model(window)[0]
        if not (torch.isfinite(z).all() and z.abs().max() < blowup):
            break
        out[i] = z.numpy()
        window = torch.cat([window[..., 1:], z[None, :, None]], dim=-1)
    return out


# ------------------------------------------------------------------ rollout diagnostics


def times(n: int, h: float = oscillator.H_STEP) -> np.ndarray:
    return h * np.arange(n)


def blowup_time(traj: np.ndarray, ref: np.ndarray, factor: float = 10.0,
                h: float = oscillator.H_STEP) -> float:
    """First time at which the rollout leaves the ball of radius `factor` · max‖ref‖_∞ (or stops
    being finite); +inf when it never does."""
    bound = factor * np.max(np.abs(ref))
    bad = ~np.all(np.isfinite(traj) & (np.abs(traj) <= bound), axis=-1)
    return float(h * np.argmax(bad)) if bad.any() else float("inf")


def max_abs(traj: np.ndarray, t0: float, t1: float, h: float = oscillator.H_STEP) -> float:
    """max‖ẑ(t)‖∞ over t ∈ (t0, t1]; a non-finite state (blown past the rollout's guard) counts as
    the guard itself."""
    t = times(len(traj), h)
    sel = (t > t0 + 1e-9) & (t <= t1 + 1e-9)
    return float(np.where(np.isfinite(traj[sel]), np.abs(traj[sel]), BLOWUP_GUARD).max())


def q1_error(traj: np.ndarray, ref: np.ndarray, t0: float, t1: float,
             h: float = oscillator.H_STEP) -> float:
    """RMS of q1 − q1_ref over t ∈ (t0, t1], divided by the RMS of q1_ref there (inf after a blow-up)."""
    t = times(len(ref), h)
    sel = (t > t0 + 1e-9) & (t <= t1 + 1e-9)
    e = traj[sel, 0] - ref[sel, 0]
    if not np.all(np.isfinite(e)):
        return float("inf")
    return float(np.sqrt(np.mean(e ** 2)) / np.sqrt(np.mean(ref[sel, 0] ** 2)))


def energy_drift(traj: np.ndarray, k: float = oscillator.K_TEST, t0: float = 2.0,
                 h: float = oscillator.H_STEP) -> dict:
    """Energy H(ẑ(t); k) along a rollout: least-squares slope over t ≥ t0, and the relative change
    of the mean energy of the last tenth against the first tenth of [t0, t_end]."""
    t = times(len(traj), h)
    sel = t >= t0 - 1e-9
    if not np.all(np.isfinite(traj[sel])):
        return {"slope": float("nan"), "relative_change": float("nan"), "finite": False}
    E, ts = oscillator.energy(traj[sel], k), t[sel]
    slope = float(np.polyfit(ts, E, 1)[0])
    m = max(1, len(E) // 10)
    first, last = float(E[:m].mean()), float(E[-m:].mean())
    return {"slope": slope, "relative_change": (last - first) / abs(first), "finite": True,
            "energy_first": first, "energy_last": last}


def convergence(losses, tail: float = CONVERGED_TAIL, drop: float = CONVERGED_DROP) -> dict:
    """The convergence criterion: the last `tail` of the epochs lowers the training loss by less than
    `drop` (relative). Adam's per-epoch loss is noisy, so the loss "at" an epoch e is the mean over
    the `tail`/2 epochs ending at e: relative_drop = (L̄(n − tail·n) − L̄(n)) / L̄(n − tail·n)."""
    losses = np.asarray(losses, dtype=np.float64)
    n = len(losses)
    w, m = max(1, round(tail * n / 2)), max(1, round(tail * n))
    if n < 2 * m or not np.all(np.isfinite(losses)):
        return {"relative_drop": float("nan"), "converged": False, "window": w, "epochs": n}
    before, end = losses[n - m - w:n - m].mean(), losses[n - w:].mean()
    rel = float((before - end) / before)
    return {"relative_drop": rel, "converged": bool(rel < drop), "window": w, "epochs": n}


# ------------------------------------------------------------------ structure along a rollout


def rollout_windows(traj: np.ndarray, seq_len: int, n_windows: int) -> torch.Tensor:
    """Up to `n_windows` evenly spaced windows (B, 4, seq_len) along a rollout's finite part."""
    finite = np.all(np.isfinite(traj), axis=-1)
    n = int(np.argmin(finite)) if not finite.all() else len(traj)
    starts = np.unique(np.linspace(0, n - seq_len, n_windows).astype(int))
    return torch.as_tensor(np.stack([traj[s:s + seq_len].T for s in starts]), dtype=torch.float64)


def structure(model, traj: np.ndarray, n_windows: int) -> dict[str, list[float]]:
    """Volume and symplecticity of the SP transformer's layer stack (end of seed 001 §4) at windows
    of its rollout `traj`, per window: log|det D| and ‖DᵀJD − J‖_F/‖J‖_F of the core R^{2N×T} →
    R^{2N×T} (Z_vec order of eq. (18), so J = J_{2NT} of eq. (23)), and the chain-rule split of
    log|det| between the Cayley attention and the SympNet feed-forward layers (with the largest
    symplectic defect of a feed-forward layer at one token)."""
    with torch.no_grad():
        X = model.up(rollout_windows(traj, model.seq_len, n_windows).transpose(1, 2)).transpose(1, 2)
    D = geometry.jacobian(model.core, X, event_dims=2).detach().numpy()
    att_ld, ff_ld, ff_def = np.zeros(len(X)), np.zeros(len(X)), np.zeros(len(X))
    Y = X
    for attention, feedforward in zip(model.attention, model.feedforward):
        att_ld += symplectic.log_volume(geometry.jacobian(attention, Y, event_dims=2).detach().numpy())
        with torch.no_grad():
            Y = attention(Y)
        tokens = Y.transpose(1, 2).reshape(-1, Y.shape[1])
        Dff = geometry.jacobian(feedforward, tokens).detach().numpy()
        ff_ld += symplectic.log_volume(Dff).reshape(len(X), -1).sum(-1)
        ff_def = np.maximum(ff_def, symplectic.symplectic_defect(Dff).reshape(len(X), -1).max(-1))
        with torch.no_grad():
            Y = feedforward(Y.transpose(1, 2)).transpose(1, 2)
    return {"core_log_det": symplectic.log_volume(D).tolist(),
            "core_relative_defect": (symplectic.symplectic_defect(D) / np.sqrt(D.shape[-1])).tolist(),
            "attention_log_det": att_ld.tolist(), "feedforward_log_det": ff_ld.tolist(),
            "feedforward_defect": ff_def.tolist()}


def round_digits(x, digits: int):
    """Floats (in lists and dicts) to `digits` significant digits; NaN and inf become None (JSON has
    no NaN); other values unchanged."""
    if isinstance(x, dict):
        return {k: round_digits(v, digits) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [round_digits(v, digits) for v in x]
    if isinstance(x, (bool, int, str)) or x is None:
        return x
    x = float(x)
    return float(f"{x:.{digits}g}") if np.isfinite(x) else None


def every_warmup_spec(network: str, k_stride: int, t_end: float) -> dict | None:
    """What a one-step network's `k_rollouts` holds (None for the transformers): q1 of the rollouts
    from the first `warmup` implicit-midpoint states of every training k (every `k_stride`-th), on
    [0, t_end] (warm-up rows included), 8 significant digits."""
    if network not in ONE_STEP:
        return None
    return {"version": K_ROLLOUTS_VERSION, "k": f"numpy.linspace(0, 4, 40)[::{k_stride}]",
            "n_k": len(oscillator.K_TRAIN[::k_stride]), "warmup": oscillator.WARMUP,
            "h": oscillator.H_STEP, "t_end": t_end, "coordinate": "q1", "digits": 8,
            "blowup_guard": BLOWUP_GUARD}


def every_warmup_rollouts(model, spec: dict, data: oscillator.OscillatorData) -> dict:
    """The rollouts `spec` asks for: `q1` (n_k, t_end / h + 1), row i from the warm-up of `k[i]` (its
    first `warmup` entries are that warm-up; NaN, stored as null, after a blow-up)."""
    n_steps = int(round(spec["t_end"] / spec["h"])) + 1 - spec["warmup"]
    q1 = [rollout(model, traj[: spec["warmup"]].numpy(), n_steps)[:, 0] for traj in data.trajectories]
    return {"spec": spec, "k": [float(k) for k in data.ks], "q1": round_digits(np.stack(q1), spec["digits"])}

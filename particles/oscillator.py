"""The coupled-oscillator data of seed 001 §5, as training windows for the four networks of fig. 6.

Seed 001, §5: the Hamiltonian of eq. (26) with the Table 1 values, the initial condition eq. (27),
implicit midpoint (eq. (4)) with step h = 0.4 on [0, 100] for 40 equally spaced k ∈ [0, 4]. A network
maps a window of `seq_len` consecutive states (columns of a 2d×T matrix Z, as in eq. (18)) to the
next state (prediction length pl = 1, Table 2; eq. (28)). The ResNet and the SympNet see one state
(sl = pl = 1); the two transformers see sl = 5.

The physics (eq. (26), (27), implicit midpoint) lives in `theory.hamiltonian`; this module only
integrates it on the paper's grid and cuts the trajectories into windows (torch, float64).

Test case (§5, text below fig. 7): k = 3.5, five implicit-midpoint states t = 0, 0.4, …, 1.6 as
warm-up ("a sequence of 5 time steps"), the first network prediction at t = 2.0.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from theory import hamiltonian

H_STEP = 0.4                       # fig. 5 caption: time step of implicit midpoint
T_END = 100.0                      # fig. 5 caption: integration interval [0, 100]
K_TRAIN = np.linspace(0.0, 4.0, 40)  # §5: "40 equally-spaced values in the interval [0, 4]"
K_FIG5 = (0.0, 0.5, 0.75, 1.0, 2.0, 3.0, 4.0)  # §5: the seven k of fig. 5
K_TEST = 3.5                       # §5: the test case of fig. 7
SEQ_LEN = 5                        # Table 2: sl
WARMUP = 5                         # §5: "a sequence of 5 time steps ... obtained with implicit midpoint"
NEWTON_TOL = 1e-13                 # scaled residual of each implicit-midpoint Newton solve


def _n_steps(t_end: float, h: float) -> int:
    if not (np.isfinite(h) and h > 0):
        raise ValueError(f"h must be a positive finite step, got {h}")
    if not (np.isfinite(t_end) and t_end > 0):
        raise ValueError(f"t_end must be positive and finite, got {t_end}")
    n = int(round(t_end / h))
    if abs(n * h - t_end) > 1e-9 * t_end:
        raise ValueError(f"t_end={t_end} is not a multiple of h={h}")
    return n


def _check_k(k) -> float:
    k = float(k)
    if not np.isfinite(k):
        raise ValueError(f"k must be finite, got {k}")
    return k


def trajectory(k: float, t_end: float = T_END, h: float = H_STEP,
               z0: np.ndarray | None = None) -> np.ndarray:
    """Implicit-midpoint trajectory (n+1, 4) of eq. (26) at stiffness k from eq. (27) (or z0).

    Rows are z = (q1, q2, p1, p2) at t = 0, h, …, t_end (fig. 5 caption).
    """
    k = _check_k(k)
    z0 = hamiltonian.Z0 if z0 is None else np.asarray(z0, dtype=np.float64)
    if z0.shape != (4,) or not np.all(np.isfinite(z0)):
        raise ValueError(f"z0 must be a finite vector of shape (4,), got {z0.shape}")
    _, grad_H, hess_H = hamiltonian.oscillator(k)
    return hamiltonian.implicit_midpoint_trajectory(grad_H, z0, h, _n_steps(t_end, h), tol=NEWTON_TOL,
                                                    hess_H=hess_H)


def energy(z, k: float) -> np.ndarray:
    """H(z; k) of eq. (26) along states z (..., 4) (numpy or torch input)."""
    z = z.detach().cpu().numpy() if isinstance(z, torch.Tensor) else np.asarray(z, np.float64)
    return np.asarray(hamiltonian.coupled_oscillator_hamiltonian(z, _check_k(k)))


def windows(traj: torch.Tensor, seq_len: int) -> tuple[torch.Tensor, torch.Tensor]:
    """All (input, target) pairs of one trajectory (n, 2d): inputs (n−sl, 2d, sl), targets (n−sl, 2d).

    Input j is Z = [z^(j), …, z^(j+sl−1)] (columns are states, eq. (18)); its target is z^(j+sl).
    """
    if not isinstance(traj, torch.Tensor) or traj.ndim != 2:
        raise ValueError(f"traj must be a torch tensor (n, 2d), got {getattr(traj, 'shape', traj)}")
    if isinstance(seq_len, bool) or not isinstance(seq_len, int) or seq_len < 1:
        raise ValueError(f"seq_len must be a positive int, got {seq_len!r}")
    if traj.shape[0] <= seq_len:
        raise ValueError(f"traj has {traj.shape[0]} states, needs more than seq_len={seq_len}")
    Z = traj.unfold(0, seq_len, 1)[:-1]          # (n − sl, 2d, sl)
    return Z, traj[seq_len:]


@dataclass(frozen=True)
class OscillatorData:
    """Trajectories (n_k, n_t, 4) for the parameter values `ks` and their training windows."""

    ks: np.ndarray
    trajectories: torch.Tensor
    h: float

    def training_pairs(self, seq_len: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Windows of every trajectory, stacked: inputs (B, 4, sl), targets (B, 4)."""
        pairs = [windows(traj, seq_len) for traj in self.trajectories]
        return torch.cat([p[0] for p in pairs]), torch.cat([p[1] for p in pairs])


def training_data(ks=K_TRAIN, t_end: float = T_END, h: float = H_STEP,
                  dtype: torch.dtype = torch.float64) -> OscillatorData:
    """The training set of §5: implicit-midpoint trajectories for every k in `ks`."""
    ks = np.asarray(ks, dtype=np.float64)
    if ks.ndim != 1 or ks.size == 0:
        raise ValueError(f"ks must be a non-empty 1-d array, got shape {ks.shape}")
    trajs = np.stack([trajectory(k, t_end, h) for k in ks])
    return OscillatorData(ks, torch.as_tensor(trajs, dtype=dtype), h)

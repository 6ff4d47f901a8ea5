"""The CUDA path of the training loop: bf16 autocast, TF32, fused AdamW, torch.compile, MFU.
Skipped without CUDA; run on a CUDA machine whenever one is available (docs/training.md)."""
from dataclasses import replace

import numpy as np
import pytest
import torch

from particles.lm.train import QUICK, TrainConfig, train

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
Q = replace(TrainConfig(**QUICK), steps=20, eval_interval=10, warmup=2)


@pytest.mark.parametrize("variant", ["gd-lt", "nesterov-lt", "symp-softmax-presymp-etd-ab2", "muon"])
def test_bf16_training_tracks_float32_on_cuda(variant):
    """bf16 autocast changes the loss by rounding only: within 0.05 nats of the float32 CUDA run
    after 20 steps (bf16 has 8 mantissa bits: relative 4e-3 per op)."""
    amp = train(replace(Q, variant=variant, device="cuda"))
    fp32 = train(replace(Q, variant=variant, device="cuda", amp=False))
    assert np.isfinite(amp["val_loss_full"]) and amp["val_loss_full"] < np.log(256)
    assert abs(amp["val_loss_full"] - fp32["val_loss_full"]) < 0.05
    assert amp["mfu"] is None or 0 < amp["mfu"] < 1


def test_compiled_model_matches_eager_on_cuda():
    eager = train(replace(Q, device="cuda", amp=False))
    compiled = train(replace(Q, device="cuda", amp=False, compile=True))
    assert compiled["val_loss_full"] == pytest.approx(eager["val_loss_full"], abs=1e-3)


def test_cuda_and_cpu_agree_in_float32():
    cpu = train(Q)
    gpu = train(replace(Q, device="cuda", amp=False))
    assert gpu["val_loss_full"] == pytest.approx(cpu["val_loss_full"], abs=1e-3)

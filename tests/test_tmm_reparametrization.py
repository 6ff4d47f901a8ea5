"""Seed 002: TMMFormer is YuriiFormer reparametrized (`momentum_streams:tmm-larger-class-text`).

With LN_v's learned gain, W_s = ν_{s−1}V_s turns the TMMFormer substep (μ_s, β_s, γ_s, ν_s; gain
g_s, bias b_s) into YuriiFormer's with (μ_s/ν_{s−1}, β_s/ν_{s−1}, γ_s; gain ν_s g_s, bias ν_s b_s)
(`claims.momentum_streams.families.tmm_to_yurii`), checked on the project's float64 blocks."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from claims.momentum_streams.families import ARCH_TOL_ULPS, ULP, tmm_as_yurii_error, tmm_to_yurii
from particles.threads import torch_threads

positive_nu = st.floats(0.05, 20.0, allow_nan=False, allow_infinity=False)



@pytest.fixture(autouse=True, scope="module")
def one_torch_thread():  # tiny blocks: per-op overhead, which idle threads of a pool multiply
    with torch_threads(1):
        yield


@given(st.integers(1, 4), st.integers(2, 8), st.integers(1, 6), st.lists(positive_nu, min_size=8,
       max_size=8), st.booleans(), st.integers(0, 2**31 - 1))
def test_tmmformer_equals_rescaled_yuriiformer_to_rounding(depth, half_width, T, nus, bias, seed):
    """Every layer's residual X and ν·V agree to rounding: below 256 ulps (relative to max|X|) per
    substep, two substeps a layer (measured ≤ ~3: the different roundings of the rescaled
    products and of LN_v, carried through the later substeps)."""
    err = tmm_as_yurii_error(depth, 2 * half_width, T, nus[:2 * depth], seed, bias=bias)
    assert err < ARCH_TOL_ULPS * ULP * 2 * depth


@given(st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.floats(0.01, 5.0)),
                min_size=1, max_size=6), st.sampled_from(["exact", "scale-invariant"]))
def test_rescaling_is_the_identity_at_nu_one(scalars, form):
    """ν ≡ 1 (YuriiFormer inside TMMFormer): the rescaled scalars are the scalars, bit for bit."""
    subs = [(mu, beta, gamma, 1.0) for mu, beta, gamma in scalars]
    assert tmm_to_yurii(subs, form) == subs


def test_nu_one_stacks_agree_bit_for_bit():
    assert tmm_as_yurii_error(3, 8, 5, [1.0] * 6, seed=7, bias=True) == 0.0
    assert tmm_as_yurii_error(2, 6, 4, [1.0] * 4, seed=8, bias=False) == 0.0


def test_scale_invariant_form_is_exact_only_without_eps():
    """Referee A's form (μ/ν_{s−1}, β, ν_{s−1}γ) multiplies LN_v's input by ν_{s−1}: exact at
    ε = 0, off by O(ε/ν²) at the project's ε = 1e-5 (LN_ε(cz) = LN_{ε/c²}(z))."""
    nus = [0.3, 2.5, 0.2, 4.0]
    tol = ARCH_TOL_ULPS * ULP * 4
    assert tmm_as_yurii_error(2, 8, 5, nus, seed=3, eps=0.0, form="scale-invariant") < tol
    assert tmm_as_yurii_error(2, 8, 5, nus, seed=3, eps=1e-5, form="scale-invariant") > 1e-6
    assert tmm_as_yurii_error(2, 8, 5, nus, seed=3, eps=1e-5, form="exact") < tol

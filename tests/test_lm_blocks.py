"""The block template: containments as exact equalities, oracle calls counted, causality of every
variant, the matrix functions of the preconditioned streams, and the SympFormer oracles."""
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.yurii.architecture import printed_calls
from particles.verify import assert_causal
from particles.lm.blocks import (CausalSelfAttention, Scalar, Scalars, causal_linear_mean,
                                 count_oracle_calls, explicit_force_G, hamiltonian_oracle_G,
                                 inverse_sqrt_newton, linear_oracles, newton_schulz)
from particles.lm.model import GPT, GPTConfig
from particles.threads import torch_threads
from particles.lm.variants import NON_CAUSAL, VARIANTS


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """One intra-op thread: these models are tiny and idle pool threads spin on a shared CPU."""
    with torch_threads(1):
        yield


F64 = torch.float64
TINY = GPTConfig(block_size=12, n_layer=2, n_head=2, n_embd=16)


def model(variant, pins=None, seed=0, config=TINY):
    torch.manual_seed(seed)
    return GPT(config, variant, pins=pins).to(F64)


def tokens(seed, B=2, T=12):
    return torch.randint(0, 256, (B, T), generator=torch.Generator().manual_seed(seed))


# The containments printed in seed 002 (§4.1, App. B.1, B.3) and seed 004 §6: (general variant,
# pins that specialise it, the special variant). "ν ≡ 1" pins every layer's ν to the float 1.0.
CONTAINMENTS = [
    ("tmm", {"nu_a": 1.0, "nu_m": 1.0}, "yurii"),
    ("yurii", {"mu_a": 0.0, "mu_m": 0.0}, "hb"),
    ("adam", {"beta1_a": 0.0, "beta1_m": 0.0}, "rmsprop"),
    ("adamw", {"lambda_a": 0.0, "lambda_m": 0.0}, "adam"),
    ("muon", {"beta1_a": 0.0, "beta1_m": 0.0}, "ortho"),
    ("soap", {"beta1_a": 0.0, "beta1_m": 0.0}, "shampoo"),
    ("nesterov-lt", {"mu_a": 0.0, "mu_m": 0.0}, "polyak-lt"),
    ("nesterov-euler", {"mu": 0.0}, "polyak-euler"),
    # seed 000 Table 3's look-ahead: with mu_att = 0 the oracles are evaluated at x itself
    ("symp-linear-presymp-euler-lookahead", {"mu_att": 0.0}, "symp-linear-presymp-euler"),
]


def specialised_pair(general, pins, special, seed):
    """The pinned general model and the special model carrying the same weights."""
    g = model(general, pins, seed)
    s = model(special, seed=seed + 1)
    result = s.load_state_dict(g.state_dict(), strict=False)
    assert result.missing_keys == []  # every weight of the special model comes from the general one
    return g, s


@pytest.mark.parametrize("general,pins,special", CONTAINMENTS, ids=[c[0] + ">" + c[2] for c in CONTAINMENTS])
@settings(max_examples=3)
@given(seed=st.integers(0, 2**16))
def test_containment_is_exact(general, pins, special, seed):
    g, s = specialised_pair(general, pins, special, seed)
    idx = tokens(seed)
    with torch.no_grad():
        assert torch.equal(g(idx), s(idx))  # bit-for-bit: 1.0*v == v, 0.0*m == 0 exactly


@pytest.mark.parametrize("general,pins,special", [CONTAINMENTS[i] for i in (0, 1, -1)],
                         ids=["tmm", "yurii", "sympformer-lookahead"])
def test_containment_test_can_fail(general, pins, special):
    """Moving a pinned scalar off its special value separates the outputs (the test has teeth)."""
    name = next(iter(pins))
    g, s = specialised_pair(general, {k: v for k, v in pins.items() if k != name}, special, 0)
    with torch.no_grad():
        for blk in g.blocks:
            blk.scalars.raw[name].fill_(-1.0 if name.startswith("nu") else 0.5)
        assert not torch.allclose(g(tokens(0)), s(tokens(0)))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_oracle_calls_counted(name):
    """Hooks count the oracle calls of one block as the papers print them (`printed_calls`)."""
    m = model(name)
    calls = count_oracle_calls(m.blocks[0], m.initial_state(tokens(0)))
    assert (calls.attn, calls.mlp) == printed_calls(name)


@pytest.mark.parametrize("name", sorted(set(VARIANTS) - NON_CAUSAL))
def test_every_variant_is_causal(name):
    """For every t, perturbing the tokens after t leaves the float64 logits up to t bit-identical
    (`particles.verify.assert_causal` on tokens), and every position depends on itself and on
    the earlier ones (the dependence map is lower triangular with a non-zero diagonal band)."""
    dep = assert_causal(model(name), tokens(1), vocab_size=256)
    T = dep.dependence.shape[0]
    assert all(dep.dependence[t, s] > 0 for t in range(T) for s in range(t + 1))


@pytest.mark.parametrize("name", sorted(NON_CAUSAL))
def test_the_printed_global_hamiltonian_force_leaks_later_tokens(name):
    """The one non-causal variant, named as such: with the causal mask, -grad of the global
    Hamiltonian (35) makes early logits depend on later tokens (float64, by perturbation)."""
    with pytest.raises(AssertionError, match="not causal"):
        assert_causal(model(name), tokens(1), vocab_size=256)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**16), T=st.integers(2, 7), leaky=st.booleans())
def test_hamgrad_force_is_minus_the_gradient_of_the_masked_hamiltonian(seed, T, leaky):
    """`hamiltonian_softmax_oracles`: G = -dH/dx of H = sum_i <y_i, B y_i>/(2 z_i) - z_i (masked
    E_ij, z_i the mean over j <= i), by an independent torch.func.grad of H written out here
    (leaky: queries and keys move with x; causal: the keys stay at the given x). Float64,
    agreement to 1e-10 relative (a handful of reductions of size T)."""
    from particles.lm.blocks import hamiltonian_softmax_oracles
    blk = model("symp-softmax-presymp-etd-ab2-hamgrad", seed=seed).blocks[0]
    g = torch.Generator().manual_seed(seed)
    x, y = torch.randn(2, T, 16, generator=g, dtype=F64), torch.randn(2, T, 16, generator=g, dtype=F64)

    def H(xq, xk):
        q, _, _ = blk.attn.heads(blk.ln_1(xq))
        _, k, _ = blk.attn.heads(blk.ln_1(xk))
        e = torch.exp((q @ k.transpose(-1, -2)).mean(1) / math.sqrt(q.shape[-1])).tril()
        z = e.sum(-1, keepdim=True) / torch.arange(1, T + 1, dtype=F64).unsqueeze(-1)
        return ((y * blk.extra["B"](y)).sum(-1, keepdim=True) / (2 * z) - z).sum()

    want = -torch.func.grad(lambda u: H(u, u if leaky else x))(x)
    F_, G = hamiltonian_softmax_oracles(blk, x, y, leaky=leaky)
    assert (G - want).abs().max() <= 1e-10 * want.abs().max()
    assert G.shape == x.shape and F_.shape == x.shape


@settings(max_examples=10)
@given(seed=st.integers(0, 2**16), heads=st.sampled_from([1, 2, 4]), head_dim=st.sampled_from([4, 8]))
def test_newton_schulz_drives_singular_values_towards_one(seed, heads, head_dim):
    """Quintic NS with Muon's coefficients maps every singular value into ~[0.68, 1.13]
    (its fixed band, Jordan et al. 2024) in 5 steps for a generic head matrix."""
    g = torch.Generator().manual_seed(seed)
    m = torch.randn(3, 5, heads * head_dim, generator=g, dtype=F64)
    out = newton_schulz(m, heads, steps=5).reshape(3, 5, heads, head_dim)
    sv = torch.linalg.svdvals(out)
    assert sv.min() > 0.6 and sv.max() < 1.2
    # per token and head: the polar direction U V^T of the input is kept (cosine > 0.9)
    u, _, vh = torch.linalg.svd(m.reshape(3, 5, heads, head_dim), full_matrices=False)
    polar = u @ vh
    cos = (polar * out).sum((-1, -2)) / (polar.norm(dim=(-1, -2)) * out.norm(dim=(-1, -2)))
    assert cos.min() > 0.9


@settings(max_examples=10)
@given(seed=st.integers(0, 2**16), D=st.integers(2, 8), cond=st.floats(1.0, 5.0))
def test_inverse_sqrt_newton_on_well_conditioned_spd(seed, D, cond):
    """10 coupled Newton steps give R^{-1/2} to 1e-8 for cond(R) <= 5 (quadratic convergence
    from eigenvalues of R/||R||_F in [1/(5 sqrt D), 1])."""
    g = torch.Generator().manual_seed(seed)
    q, _ = torch.linalg.qr(torch.randn(D, D, generator=g, dtype=F64))
    lam = torch.linspace(1.0, cond, D, dtype=F64) * 0.37
    r = q @ torch.diag(lam) @ q.T
    z = inverse_sqrt_newton(r, steps=10)
    assert (z @ r @ z - torch.eye(D, dtype=F64)).abs().max() < 1e-8


def test_inverse_sqrt_newton_is_inaccurate_when_ill_conditioned():
    """Seed 002 App. B.2 warns the per-token covariance is poorly conditioned: at cond 1e4 the
    10-step Newton iteration has not converged (residual > 0.1), as the paper's failure suggests."""
    r = torch.diag(torch.tensor([1.0, 1e-4], dtype=F64))
    z = inverse_sqrt_newton(r, steps=10)
    assert (z @ r @ z - torch.eye(2, dtype=F64)).abs().max() > 0.1


def _sym(seed, d, scale):
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(d, d, generator=g, dtype=F64) * scale
    return (a + a.T) / 2


@settings(max_examples=10)
@given(seed=st.integers(0, 2**16), N=st.integers(2, 7), d=st.integers(1, 4))
def test_explicit_force_is_the_hamiltonian_gradient_without_mask(seed, N, d):
    """Seed 000 eq. (34) = -grad_X of the Hamiltonian (35) for symmetric A, B (no mask);
    relative tolerance 1e-10: both are O(N^2) float64 sums of exponentials of O(1)."""
    g = torch.Generator().manual_seed(seed)
    x, y = torch.randn(N, d, generator=g, dtype=F64), torch.randn(N, d, generator=g, dtype=F64)
    A, B = _sym(seed + 1, d, 0.3), _sym(seed + 2, d, 1.0)
    auto = hamiltonian_oracle_G(x, y, A, B, causal=False)
    explicit = explicit_force_G(x, y, A, B, causal=False)
    assert torch.allclose(auto, explicit, rtol=1e-10, atol=1e-10 * explicit.abs().max().item())


def test_masked_hamiltonian_gradient_leaks_the_future_and_the_row_masked_force_does_not():
    g = torch.Generator().manual_seed(3)
    N, d = 6, 3
    x, y = torch.randn(N, d, generator=g, dtype=F64), torch.randn(N, d, generator=g, dtype=F64)
    A, B = _sym(4, d, 0.3), _sym(5, d, 1.0)
    x2 = x.clone()
    x2[-1] += 0.5  # perturb the last token only
    leak = (hamiltonian_oracle_G(x, y, A, B, True) - hamiltonian_oracle_G(x2, y, A, B, True))[:-1]
    clean = (explicit_force_G(x, y, A, B, True) - explicit_force_G(x2, y, A, B, True))[:-1]
    assert leak.abs().max() > 1e-3
    assert clean.abs().max() == 0.0


@settings(max_examples=20)
@given(p=st.floats(1e-4, 1 - 1e-4), gain=st.floats(1e-3, 20.0))
def test_scalar_parametrisations_hit_their_inits(p, gain):
    """sigmoid(raw_init(p)) = p and softplus(raw_init(g)) = g to float64 rounding (1e-12 relative)."""
    assert math.isclose(torch.sigmoid(torch.tensor(Scalar("unit", p).raw_init(), dtype=F64)).item(), p,
                        rel_tol=1e-12)
    assert math.isclose(torch.nn.functional.softplus(
        torch.tensor(Scalar("pos", gain).raw_init(), dtype=F64)).item(), gain, rel_tol=1e-12)


def test_bad_scalars_and_pins_raise():
    with pytest.raises(ValueError, match="kind"):
        Scalar("angle", 0.5)
    with pytest.raises(ValueError, match="init"):
        Scalar("unit", 1.5)
    with pytest.raises(ValueError, match="init"):
        Scalar("pos", 0.0)
    with pytest.raises(ValueError, match="pins"):
        Scalars({"beta": Scalar("unit", 0.9)}, {"gamma": 1.0})
    with pytest.raises(ValueError, match="pins"):
        GPT(TINY, "tmm", pins={"nu": 1.0})


def test_sympformer_prefactors_are_table_4_as_printed():
    """The block's (zeta_1, zeta_2) equal theory.schemes' printed Table 4 on float inputs."""
    from theory import schemes
    from particles.lm.blocks import sympformer_prefactors
    m = model("symp-softmax-presymp-expeuler")
    sc = m.blocks[0].scalars
    t = torch.tensor(1.7, dtype=F64)
    hx, hy = sc["h_x"], sc["h_y"]
    z1, z2 = sympformer_prefactors("presymp-expeuler", sc, t, hx, hy)
    d_eta = (sc["c_log"] * math.log((1.7 + hx.item()) / 1.7) + sc["c_lin"] * hx).item()
    e1, e2 = schemes.zeta_table4("presymp-expeuler", h=hy.item(), delta_eta=d_eta,
                                 alpha_eff=d_eta / hx.item())
    assert math.isclose(z1.item(), e1, rel_tol=1e-12) and math.isclose(z2.item(), e2, rel_tol=1e-12)
    with pytest.raises(ValueError, match="scheme"):
        sympformer_prefactors("rk4", sc, t, hx, hy)


@pytest.mark.parametrize("name,order", [("prk-verlet-ama", ["attn", "mlp", "attn"]),
                                        ("prk-verlet-mam", ["mlp", "attn", "mlp"]),
                                        ("imex-k2-am", ["attn", "mlp", "mlp"]),
                                        ("imex-lnv-k2-ma", ["mlp", "attn", "attn"]),
                                        ("hamiltonian", ["attn", "mlp"]),
                                        ("nesterov-lt", ["attn", "mlp"])])
def test_oracle_call_order_is_the_printed_splitting(name, order):
    """Strang (PRK-Verlet) is the symmetric A-M-A / M-A-M composition; IMEX calls its explicit
    oracle once, then the implicit one k times (seed 004 App. B.2)."""
    m = model(name)
    assert count_oracle_calls(m.blocks[0], m.initial_state(tokens(0))).calls == order


# ---------------------------------------------------------------------------------------------
# Linear attention (seed 000 §6.2, Tables 2-3): the baseline and YuriiFormer-LT with the linear
# attention of the SympFormer linear variants

@settings(max_examples=15)
@given(seed=st.integers(0, 2**16), T=st.integers(1, 20), p=st.integers(1, 6), r=st.integers(1, 6),
       chunk=st.integers(1, 24))
def test_causal_linear_mean_is_the_masked_mean_for_every_chunk(seed, T, p, r, chunk):
    """The chunked prefix-sum form equals (1/n_i) sum_{j<=i} (a_i . b_j) c_j summed term by term;
    float64, O(1) entries and <= 20 terms: 1e-12 is rounding."""
    g = torch.Generator().manual_seed(seed)
    a, b = torch.randn(2, T, p, generator=g, dtype=F64), torch.randn(2, T, p, generator=g, dtype=F64)
    c = torch.randn(2, T, r, generator=g, dtype=F64)
    direct = torch.stack([sum((a[:, i] * b[:, j]).sum(-1, keepdim=True) * c[:, j] for j in range(i + 1))
                          / (i + 1) for i in range(T)], dim=1)
    assert (causal_linear_mean(a, b, c, chunk) - direct).abs().max() < 1e-12


@pytest.mark.parametrize("name", ["gd-lt-linear", "nesterov-lt-linear"])
def test_linear_attention_oracle_is_the_sympformer_linear_kernel(name):
    """The attention oracle of the linear baselines is SympFormer's linear kernel (eq. (28)): with
    the value vectors as momentum y, `linear_oracles`' F is (1/n_i) sum_j (x_i A x_j^T) v_j, and
    its output projection is Attn(LN x). float64, O(1) activations: 1e-12 is rounding."""
    blk = model(name).blocks[0]
    x = torch.randn(2, 12, 16, generator=torch.Generator().manual_seed(5), dtype=F64)
    _, _, v = blk.attn.heads(blk.ln_1(x))
    values = v.transpose(1, 2).reshape(2, 12, 16)
    F_, _ = linear_oracles(blk, x, values)
    with torch.no_grad():
        assert (blk.attn_oracle(x) - blk.attn.c_proj(F_)).abs().max() < 1e-12


@pytest.mark.parametrize("linear,softmax", [("gd-lt-linear", "gd-lt"), ("nesterov-lt-linear", "nesterov-lt")])
def test_linear_variants_differ_from_softmax_only_in_the_attention(linear, softmax):
    """Same parameters (strict load both ways, same count), same update rule; only the attention
    kernel differs, so the logits differ."""
    lin, soft = model(linear), model(softmax, seed=1)
    soft.load_state_dict(lin.state_dict(), strict=True)
    assert sum(p.numel() for p in lin.parameters()) == sum(p.numel() for p in soft.parameters())
    assert lin.variant.rule is soft.variant.rule
    assert all(b.attention == "linear" for b in lin.blocks) and all(b.attention == "softmax" for b in soft.blocks)
    with torch.no_grad():
        assert (lin(tokens(2)) - soft(tokens(2))).abs().max() > 1e-6


def test_bad_attention_and_chunk_raise():
    with pytest.raises(ValueError, match="attention"):
        CausalSelfAttention(8, 2, "cosine")
    z = torch.zeros(1, 3, 2)
    with pytest.raises(ValueError, match="chunk"):
        causal_linear_mean(z, z, z, chunk=0)

"""The helpers behind seed 004's new claims (claims/yurii/schemes.py, yurii/appendix.py,
yurii/tables.py, yurii/consistency.py), asserted directly in float64; the places where the
paper's text and its tables part (the failing readings of its ambiguities) reproduced here."""
import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from claims.yurii import appendix as ya
from claims.yurii import consistency as yc
from claims.yurii import schemes as ys
from claims.yurii import tables as yt

F64 = torch.float64
unit = st.floats(0.0, 1.0)


@given(st.integers(0, 2 ** 31 - 1), unit, unit, unit, unit, st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_lie_trotter_block_is_two_template_steps(seed, mu0, mu1, b0, b1, g0, g1):
    """§3.2: the Lie–Trotter YuriiFormer block is eq. (6) on Attn, then eq. (6) on MLP."""
    attn, mlp = ys.toy_oracles()
    X, V = np.random.default_rng(seed).standard_normal((2, 5, 4))
    lt = ys.yurii_lie_trotter(X, V, attn, mlp, (mu0, mu1), (b0, b1), (g0, g1))
    two = ys.nag_step(*ys.nag_step(X, V, attn, mu0, b0, g0), mlp, mu1, b1, g1)
    np.testing.assert_allclose(lt[0], two[0], rtol=0, atol=1e-13)
    np.testing.assert_allclose(lt[1], two[1], rtol=0, atol=1e-13)


def test_gelu_potential_is_an_antiderivative_of_gelu():
    assert ys._gelu_potential_residual() == 0
    x = torch.linspace(-6, 6, 101, dtype=F64, requires_grad=True)
    (g,) = torch.autograd.grad(ys.gelu_potential(x).sum(), x)
    torch.testing.assert_close(g, torch.nn.functional.gelu(x.detach()), rtol=0, atol=1e-14)


@given(st.integers(0, 2 ** 31 - 1), unit, unit, unit, st.floats(0.01, 0.5), st.floats(0.01, 0.5))
def test_imex_loop_at_k1_is_the_printed_update(seed, mu, mu_h, beta, gamma, gamma_h):
    attn, mlp = ys.toy_oracles()
    X, V = np.random.default_rng(seed).standard_normal((2, 5, 4))
    a = ya.imex_refinements(X, V, attn, mlp, mu, mu_h, beta, gamma, gamma_h, 1)
    b = ya.imex_k1_printed(X, V, attn, mlp, mu, mu_h, beta, gamma, gamma_h)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


@given(st.integers(0, 2 ** 31 - 1), unit, unit, unit, st.floats(0.01, 0.5), st.floats(0.01, 0.5))
def test_imex_k1_and_lie_trotter_differ_by_the_half_velocity(seed, mu, mu_h, beta, gamma, gamma_h):
    """The imex-k1 ambiguity: with the Lie–Trotter lookahead shifted by one (μ_{t+½} − 1) the two
    blocks evaluate the same points and give the same velocity, and their states differ by
    exactly V_{t+½}: the lookahead is not what separates them."""
    attn, mlp = ys.toy_oracles()
    X, V = np.random.default_rng(seed).standard_normal((2, 5, 4))
    Xi, Vi, it = ya.imex_refinements(X, V, attn, mlp, mu, mu_h, beta, gamma, gamma_h, 1, ln=lambda v: v)
    Xl, Vl = ys.yurii_lie_trotter(X, V, attn, mlp, (mu, mu_h - 1), (beta, beta), (gamma, gamma_h))
    np.testing.assert_allclose(Vi, Vl, rtol=0, atol=1e-13)
    np.testing.assert_allclose(Xl - Xi, it[0], rtol=0, atol=1e-13)


def test_printed_prk_verlet_is_first_order_and_not_reversible():
    """yurii:prk-verlet's counterexample: the printed block (β = 1, μ = 0, no LN_v) converges with order 1
    to ẍ = −(a+m)x/3 and fails Φ(RΦ(z)) = Rz; the classical Strang composition is order 2 and
    reversible to rounding."""
    a, m, x0, u0, T = 1.3, 0.4, 0.8, 0.3, 3.0
    err = []
    for h in (0.02, 0.01):
        x, v = x0, u0 * h
        for _ in range(int(round(T / (3 * h)))):
            x, v = ya.prk_verlet_printed(x, v, h, a, m)
        err.append(abs(x - ya._exact(x0, u0, T, (a + m) / 3)[0]))
    assert np.log2(err[0] / err[1]) == pytest.approx(1.0, abs=0.05)
    x1, v1 = ya.prk_verlet_printed(x0, 0.01, 0.05, a, m)
    x2, v2 = ya.prk_verlet_printed(x1, -v1, 0.05, a, m)
    assert abs(x2 - x0) > 1e-4
    y1, w1 = ya.strang(x0, u0, 0.05, a, m)
    y2, w2 = ya.strang(y1, -w1, 0.05, a, m)
    assert abs(y2 - x0) < 1e-14 and abs(-w2 - u0) < 1e-14


@given(st.floats(0.3, 1.0), st.floats(0.05, 1.0), st.integers(0, 2 ** 31 - 1))
def test_hamiltonian_block_is_conformally_symplectic_without_lookahead(beta, delta, seed):
    n = 3
    gen = torch.Generator().manual_seed(seed)
    W = torch.randn(n, n, dtype=F64, generator=gen)
    grad_E = lambda x: W.T @ torch.tanh(W @ x)
    grad_F = lambda x: x ** 3 + x
    z = torch.randn(2 * n, dtype=F64, generator=gen)
    J = torch.zeros(2 * n, 2 * n, dtype=F64)
    J[:n, n:], J[n:, :n] = torch.eye(n, dtype=F64), -torch.eye(n, dtype=F64)
    block = lambda y: torch.cat(ya.hamiltonian_block(y[:n], y[n:], grad_E, grad_F, 0.0, beta, (0.3, 0.2), delta))
    D = torch.autograd.functional.jacobian(block, z)
    scale = float(D.abs().max()) ** 2
    assert float((D.T @ J @ D - beta ** 2 * J).abs().max()) < 1e-13 * max(1.0, scale)


@given(st.lists(st.floats(-5, 5).filter(lambda v: abs(v) > 1e-3), min_size=3, max_size=3))
def test_adams_first_step_does_not_scale_with_the_gradient(g):
    """The adam-folding counterexample: from M = S = 0 Adam's first step at 2g equals its step at g
    (up to ε: the step is γ(1−β₁)g/(√(1−β₂)|g| + ε), relative change ≤ ε/(√(1−β₂)|g|) = 1e-7/|g|),
    while any fixed preconditioner P would double it."""
    g = np.array(g)
    s1, _, _ = ya.adam_step(g, 0 * g, 0 * g)
    s2, _, _ = ya.adam_step(2 * g, 0 * g, 0 * g)
    np.testing.assert_allclose(s2, s1, rtol=1e-7 / np.abs(g).min())
    assert np.abs(s2 - 2 * s1).max() > 0.5 * np.abs(s1).max()


@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 5), min_size=1), st.integers(1, 3),
       st.booleans())
def test_extreme_rows_is_competition_ranking(values, top, largest):
    rows = yt.extreme_rows(values, top=top, largest=largest)
    for r, v in values.items():
        rank = 1 + sum((w > v) if largest else (w < v) for w in values.values())
        assert (r in rows) == (rank <= top)


@given(st.sampled_from(["GD", "Polyak", "Nesterov"]), st.sampled_from(sorted(yc.DATASETS)))
def test_split_gap_bounds_contain_the_printed_gap(template, data):
    b = yc._split_gap_bounds(template, *yc.DATASETS[data])
    for kind in ("absolute", "relative"):
        lo, mid, hi = b[kind]
        assert lo < mid < hi


def test_the_tables_where_the_prose_parts_from_them():
    """The failing readings behind yurii's ambiguities, on the printed numbers: Table 2 prints
    Polyak+Euler below Nesterov+Euler (best and final), GD's Final favours Euler, and in nats the
    Lie-Trotter advantage is larger on OWT than on TinyStories."""
    assert yt.TABLE_2["Polyak+Euler"][0] < yt.TABLE_2["Nesterov+Euler"][0]
    assert yt.TABLE_2["Polyak+Euler"][1] < yt.TABLE_2["Nesterov+Euler"][1]
    assert yt.TABLE_2["GD+Euler"][1] < yt.TABLE_2["GD+Lie-Trotter"][1]
    ts = np.mean([yc._split_gap_bounds(t, *yc.DATASETS["TinyStories"])["absolute"][2] for t in ("GD", "Polyak", "Nesterov")])
    owt = np.mean([yc._split_gap_bounds(t, *yc.DATASETS["OWT small"])["absolute"][0] for t in ("GD", "Polyak", "Nesterov")])
    assert owt > ts
    assert all(yt.TABLE_5_STANDARD[r] == yt.TABLE_2[r] for r in yt.METHODS)


def test_the_owt_gap_sentence_holds_only_under_rescues():
    """'This superiority is less pronounced for OWT than for TinyStories' (§5.4): in nats and
    template by template it fails, the mean relative gap over the templates is undecided at the
    printed rounding on OWT small, and the two readings that hold (the momentum templates only,
    OWT's sizes pooled) are rescues (R4, referees C and D, 7 Dec 2026): inconclusive, not an
    ambiguity."""
    import claims
    result = claims.run(claims.load(["yurii"])["yurii:lie-trotter-gap-owt"], "quick")
    verdicts = [(r["verdict"], r.get("not_admitted", "")[:2]) for r in result.evidence.readings]
    assert verdicts == [("fails", ""), ("inconclusive", ""), ("fails", ""), ("holds", "R4"), ("holds", "R4")]
    assert result.kind == "inconclusive" and result.as_expected


@pytest.mark.parametrize("label, expected", [
    # the matched pair fails at TinyStories/Euler, the families hold, OWT only and the mean are rescues
    ("nesterov-vs-polyak", [("fails", ""), ("holds", ""), ("holds", "R4"), ("holds", "R4")]),
    # Best holds, Best and Final fails at TinyStories' GD pair, every metric is invented
    ("lie-trotter-vs-euler", [("holds", ""), ("fails", ""), ("fails", "R3")]),
])
def test_the_two_discussion_sentences_are_ambiguities(label, expected):
    """§6's 'Nesterov's lookahead yields a small additional loss improvement' and §5.4's 'Lie-Trotter
    consistently outperforms Euler' (referees H and I, 7 Dec 2026): one admitted reading holds and
    one fails on the printed tables, so each is an ambiguity, and its failing reading names the
    reversed comparison."""
    import claims
    result = claims.run(claims.load(["yurii"])[f"yurii:{label}"], "quick")
    readings = result.evidence.readings
    assert [(r["verdict"], r.get("not_admitted", "")[:2]) for r in readings] == expected
    assert result.kind == "ambiguity" and result.as_expected
    reversed_ = readings[0]["reversed_pairs"] if label == "nesterov-vs-polyak" else readings[1]["reversed"]
    assert set(reversed_) == ({"Euler | TinyStories"} if label == "nesterov-vs-polyak"
                              else {"Table 2 Final: GD+Lie-Trotter vs GD+Euler"})

"""particles.integrators: the schemes (14)-(17) of seed 000 §2 and their geometry."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles import integrators as I
from particles.geometry import jacobian
from theory import schemes as S
from theory.symplectic import best_conformal_factor, canonical_J, conformal_defect

F64 = torch.float64
SCHEDULES = [S.damping("constant", mu=0.7), S.damping("nesterov"),
             S.damping("power", r=1.5), S.damping("log-linear", r=3.0, m=0.5)]
schedule_ = st.sampled_from(SCHEDULES)
h_ = st.floats(0.01, 0.2)
d_ = st.integers(1, 4)
seed_ = st.integers(0, 2 ** 16)


def _spd(d, seed):
    g = torch.Generator().manual_seed(seed)
    A = torch.randn(d, d, generator=g, dtype=F64)
    return A @ A.T / d + 0.5 * torch.eye(d, dtype=F64)


def _separable(d, seed):
    """H = ½pᵀMp + Σ(1 − cos q) + ½qᵀSq: field written out."""
    M, Sm = _spd(d, seed), _spd(d, seed + 1)
    return I.HamiltonianField(lambda q, p: torch.sin(q) + q @ Sm, lambda q, p: p @ M)


def _nonseparable_H(q, p):
    return 0.5 * (1 + 0.5 * (q * q).sum()) * (p * p).sum() + (1 - torch.cos(q)).sum()


NONSEP = I.from_hamiltonian(_nonseparable_H)


def _z(d, seed, n=4, scale=0.5):
    g = torch.Generator().manual_seed(seed)
    return scale * torch.randn(n, 2, d, generator=g, dtype=F64)


def _rel_defect(scheme, field, damp, t, h, z, **kw):
    D = jacobian(I.step_map(scheme, t, h, field, damp, **kw), z, event_dims=2).numpy()
    sigma = damp.sigma(t, h)
    return conformal_defect(D, sigma) / (sigma * np.linalg.norm(canonical_J(z.shape[-1])))


# relative conformal defects are computed from O(1) Jacobian entries in float64: rounding ~1e-15
TOL = 1e-12


# ------------------------------------------------------------------ geometry


@given(d_, h_, schedule_, seed_)
def test_eq15_is_conformally_symplectic_with_sigma_k_for_separable_H(d, h, damp, seed):
    assert _rel_defect("conformal_symplectic_euler", _separable(d, seed), damp, 1.0, h,
                       _z(d, seed)).max() < TOL


@pytest.mark.slow  # fast: claim sympformer:eq-15-nonseparable, tests/test_conventions.py
@given(d_, h_, schedule_, seed_, st.sampled_from(["conformal_symplectic_euler_implicit",
                                                   "conformal_midpoint"]))
def test_corrected_schemes_are_conformally_symplectic_for_non_separable_H(d, h, damp, seed, scheme):
    assert _rel_defect(scheme, NONSEP, damp, 1.0, h, _z(d, seed)).max() < TOL


def test_eq15_as_printed_is_not_conformally_symplectic_for_non_separable_H():
    # counterexample of claim eq-15-nonseparable: no constant factor fits at all
    z = _z(3, 2, n=8)
    D = jacobian(I.step_map("conformal_symplectic_euler", 1.0, 0.1, NONSEP,
                            S.damping("log-linear", r=3.0, m=0.5)), z, event_dims=2).numpy()
    best = best_conformal_factor(D)
    assert (conformal_defect(D, best) / np.abs(best)).min() > 1e-4


@given(st.floats(0.01, 0.3), st.floats(0.0, 1.0), st.lists(st.floats(0.1, 5.0), min_size=2, max_size=4))
def test_eq14_jacobian_form_for_quadratic_H(h, a_k, lams):
    # H = ½‖p‖² + ½Σλ_i q_i²: DᵀJD = [[0, a_kI + h²Λ], [−(a_kI + h²Λ), 0]] (exact up to rounding)
    lam = torch.tensor(lams, dtype=F64)
    field = I.HamiltonianField(lambda q, p: lam * q, lambda q, p: p)
    d = len(lams)
    D = jacobian(I.step_map("explicit_euler", 1.0, h, field, S.damping("nesterov"), alpha_k=a_k),
                 torch.zeros(1, 2, d, dtype=F64), event_dims=2).numpy()[0]
    B = a_k * np.eye(d) + h * h * np.diag(lams)
    expected = np.block([[np.zeros((d, d)), B], [-B, np.zeros((d, d))]])
    np.testing.assert_allclose(D.T @ canonical_J(d) @ D, expected, atol=1e-14)
    # best factor σ* = a_k + h²·mean(λ); the residual √2 h²‖λ − mean λ‖ vanishes iff all λ_i are
    # equal, so (14) is conformally symplectic only in that degenerate case (e.g. d = 1)
    lam_np = np.asarray(lams)
    residual = conformal_defect(D, best_conformal_factor(D))
    expected_residual = math.sqrt(2) * h * h * np.linalg.norm(lam_np - lam_np.mean())
    assert residual == pytest.approx(expected_residual, abs=1e-13)


# ------------------------------------------------------------------ the updates themselves


@given(h_, schedule_, seed_)
def test_exponential_euler_is_exact_for_a_constant_force(h, damp, seed):
    # H = ½‖p‖² + gᵀq: ṗ = −αp − g has p(t+h) = σ_k p − w_k g exactly, w_k by quadrature
    g = torch.randn(3, generator=torch.Generator().manual_seed(seed), dtype=F64)
    field = I.HamiltonianField(lambda q, p: g.expand_as(q), lambda q, p: p)
    q, p = torch.zeros(3, dtype=F64), torch.ones(3, dtype=F64)
    t = 1.3
    from scipy.integrate import solve_ivp
    exact = solve_ivp(lambda s, y: -damp.alpha(s) * y - g.numpy(), (t, t + h), p.numpy(),
                      method="DOP853", rtol=1e-13, atol=1e-14).y[:, -1]
    out = I.exponential_euler(q, p, t, h, field, damp)
    np.testing.assert_allclose(out.p.numpy(), exact, rtol=1e-10, atol=1e-12)


def test_exponential_euler_printed_weight_does_not_converge():
    # counterexample of claim eq-16-leading-h: with h∫_0^h the force is lost as h → 0
    field = I.HamiltonianField(lambda q, p: q, lambda q, p: p)
    damp = S.damping("nesterov")
    q0, p0 = torch.tensor([1.0], dtype=F64), torch.tensor([0.0], dtype=F64)
    finals = {}
    for w in ("exact", "printed"):
        finals[w] = [I.integrate("exponential_euler", q0, p0, 1.0, [2.0 / n] * n, field, damp,
                                 weight=w)[1][-1, 0].item() for n in (40, 80)]
    # the exact-weight runs agree to O(h); the printed ones stay near x(1) = 1 (force ~ h²)
    assert abs(finals["exact"][0] - finals["exact"][1]) < 0.02
    assert min(finals["printed"]) > 0.9 > max(finals["exact"])


@settings(max_examples=10)
@given(st.floats(0.1, 2.0), st.sampled_from([64, 128, 256]))
def test_the_leading_h_of_16_loses_the_force_where_the_limits_do_not_matter(m, n):
    # counterexample of claim eq-16-leading-h for α ≡ m, whose weight does not depend on t_k: the
    # printed weight h(1 − e^{−mh})/m ≤ h² gives |p_k| ≤ 2kh² ≤ 2Th while |x| ≤ 2, so
    # |x_n − 1| ≤ Σ h|p_k| ≤ 2T²h: the run tends to ẍ + mẋ = 0 from (1, 0), which rests at x = 1.
    # With the text's weight it follows ẍ + mẋ + x = 0, whose x(2) is ≤ 3e^{−2} < 0.41 for m ≤ 2.
    field = I.HamiltonianField(lambda q, p: q, lambda q, p: p)
    damp, T = S.damping("constant", mu=m), 2.0
    q0, p0 = torch.tensor([1.0], dtype=F64), torch.tensor([0.0], dtype=F64)
    x = {w: I.integrate("exponential_euler", q0, p0, 1.0, [T / n] * n, field, damp,
                        weight=w)[1][-1, 0].item() for w in ("printed", "text")}
    assert abs(x["printed"] - 1) <= 2 * T ** 2 * (T / n)
    assert x["text"] < 0.5


@given(h_, st.floats(0.01, 0.2), schedule_, seed_)
def test_etd_ab2_is_ab2_on_the_undamped_form_12(h, h2, damp, seed):
    # AB-2 on (12) in (q, P = e^{η}p), written in P explicitly, equals `etd_ab2` mapped back
    field, t0 = _separable(2, seed), 1.0
    z = _z(2, seed, n=1)[0]
    steps = [h, h2, h, h2]
    times, Q, P = I.integrate("etd_ab2", z[0], z[1], t0, steps, field, damp)

    def rhs(t, q, Pv):
        e = math.exp(damp.eta(t, t0))
        return field.grad_p(q, Pv / e), -e * field.grad_q(q, Pv / e)

    q, Pv, prev = z[0], z[1].clone(), None
    for k, hk in enumerate(steps):
        f = rhs(times[k], q, Pv)
        if prev is None:
            q, Pv = q + hk * f[0], Pv + hk * f[1]
        else:
            b0, b1 = S.ab2_coefficients(hk, prev[0])
            q, Pv = q + hk * (b0 * f[0] - b1 * prev[1][0]), Pv + hk * (b0 * f[1] - b1 * prev[1][1])
        prev = (hk, f)
        np.testing.assert_allclose(q.numpy(), Q[k + 1].numpy(), rtol=1e-12, atol=1e-13)
        p_back = Pv / math.exp(damp.eta(times[k + 1], t0))
        np.testing.assert_allclose(p_back.numpy(), P[k + 1].numpy(), rtol=1e-12, atol=1e-13)


@given(h_, schedule_, seed_)
def test_ab2_starts_with_an_explicit_euler_step_of_4(h, damp, seed):
    field = _separable(3, seed)
    z = _z(3, seed, n=5)
    a = I.ab2(z[:, 0], z[:, 1], 1.0, h, field, damp)
    e = I.explicit_euler(z[:, 0], z[:, 1], 1.0, h, field, damp)
    torch.testing.assert_close(a.q, e.q, rtol=0, atol=0)
    torch.testing.assert_close(a.p, e.p, rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize("scheme,order", [("ab2", 2), ("etd_ab2", 2), ("conformal_midpoint", 2),
                                          ("exponential_euler", 1), ("rk4", 4),
                                          ("conformal_symplectic_euler", 1)])
def test_order_on_the_damped_oscillator(scheme, order):
    # ẍ + μẋ + x = 0 (μ = 0.5) has a closed-form solution; halving h divides the error by 2^order
    mu, T = 0.5, 2.0
    field = I.HamiltonianField(lambda q, p: q, lambda q, p: p)
    damp = S.damping("constant", mu=mu)
    w = math.sqrt(1 - mu ** 2 / 4)
    x = lambda t: math.exp(-mu * t / 2) * (math.cos(w * t) + mu / (2 * w) * math.sin(w * t))  # noqa: E731
    errs = []
    for n in (100, 200):
        _, Q, _ = I.integrate(scheme, torch.tensor([1.0], dtype=F64), torch.tensor([0.0], dtype=F64),
                              0.0, [T / n] * n, field, damp)
        errs.append(abs(Q[-1, 0].item() - x(T)))
    assert math.log2(errs[0] / errs[1]) == pytest.approx(order, abs=0.15)


@given(st.sampled_from(sorted(I.SCHEMES)), seed_)
def test_batched_step_equals_pointwise_steps(scheme, seed):
    field, damp = _separable(2, seed), S.damping("log-linear", r=3.0, m=0.5)
    z = _z(2, seed, n=3)
    steps = [0.1, 0.07, 0.12]
    _, Qb, Pb = I.integrate(scheme, z[:, 0], z[:, 1], 1.0, steps, field, damp)
    for i in range(3):
        _, Qi, Pi = I.integrate(scheme, z[i, 0], z[i, 1], 1.0, steps, field, damp)
        torch.testing.assert_close(Qb[:, i], Qi, rtol=1e-14, atol=1e-15)
        torch.testing.assert_close(Pb[:, i], Pi, rtol=1e-14, atol=1e-15)


def test_from_hamiltonian_matches_the_written_out_gradient():
    z = _z(3, 7, n=5)
    q, p = z[:, 0], z[:, 1]
    s2 = (p * p).sum(-1, keepdim=True)
    torch.testing.assert_close(NONSEP.grad_q(q, p), 0.5 * s2 * q + torch.sin(q))
    torch.testing.assert_close(NONSEP.grad_p(q, p), (1 + 0.5 * (q * q).sum(-1, keepdim=True)) * p)


# ------------------------------------------------------------------ bad input


def test_bad_input_raises_naming_the_parameter():
    field, damp = _separable(2, 0), S.damping("nesterov")
    q = torch.zeros(2, dtype=F64)
    with pytest.raises(ValueError, match="h"):
        I.explicit_euler(q, q, 1.0, 0.0, field, damp)
    with pytest.raises(ValueError, match="h"):
        I.ab2(q, q, 1.0, float("nan"), field, damp)
    with pytest.raises(ValueError, match="q"):
        I.conformal_symplectic_euler(torch.tensor([0.0, float("nan")], dtype=F64), q, 1.0, 0.1,
                                     field, damp)
    with pytest.raises(ValueError, match="p"):
        I.exponential_euler(q, torch.tensor([float("inf"), 0.0], dtype=F64), 1.0, 0.1, field, damp)
    with pytest.raises(ValueError, match="one shape"):
        I.etd_ab2(q, torch.zeros(3, dtype=F64), 1.0, 0.1, field, damp)
    with pytest.raises(TypeError, match="q"):
        I.explicit_euler(torch.zeros(2, dtype=torch.int64), q, 1.0, 0.1, field, damp)
    with pytest.raises(TypeError, match="damping"):
        I.explicit_euler(q, q, 1.0, 0.1, field, "nesterov")
    with pytest.raises(TypeError, match="h"):
        I.explicit_euler(q, q, 1.0, "0.1", field, damp)
    with pytest.raises(ValueError, match="t"):
        I.explicit_euler(q, q, float("inf"), 0.1, field, damp)
    with pytest.raises(ValueError, match="t"):
        I.explicit_euler(q, q, 0.0, 0.1, field, damp)  # α = 3/t is singular at t = 0
    with pytest.raises(ValueError, match="weight"):
        I.exponential_euler(q, q, 1.0, 0.1, field, damp, weight="midpoint")
    with pytest.raises(ValueError, match="scheme"):
        I.integrate("dopri5", q, q, 1.0, [0.1], field, damp)
    with pytest.raises(ValueError, match="steps"):
        I.integrate("ab2", q, q, 1.0, [], field, damp)
    with pytest.raises(ValueError, match="scheme"):
        I.step_map("ab2", 1.0, 0.1, field, damp)
    with pytest.raises(ValueError, match="h"):  # fixed-point solve cannot contract
        I.conformal_midpoint(torch.full((2,), 3.0, dtype=F64), torch.full((2,), 3.0, dtype=F64),
                             1.0, 2.0, NONSEP, damp, iterations=5)
    with pytest.raises(ValueError, match="event_dims"):
        I.from_hamiltonian(_nonseparable_H, event_dims=0)


@pytest.mark.parametrize("name", ["separable", "non-separable"])
def test_claim_test_hamiltonians_have_the_written_out_gradients(name):
    # the fields used by claims/sympformer/hamiltonian.py are the autograd gradients of their Hamiltonians
    from claims.sympformer.hamiltonian import HAMILTONIANS
    H, field = HAMILTONIANS[name]
    auto = I.from_hamiltonian(H)
    z = _z(3, 9, n=6)
    q, p = z[:, 0], z[:, 1]
    torch.testing.assert_close(field.grad_q(q, p), auto.grad_q(q, p), rtol=1e-13, atol=1e-14)
    torch.testing.assert_close(field.grad_p(q, p), auto.grad_p(q, p), rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("scheme,calls", [("explicit_euler", 1), ("conformal_symplectic_euler", 1),
                                          ("ab2", 1), ("etd_ab2", 1), ("rk4", 4)])
def test_counted_oracle_calls_per_step(scheme, calls):
    field, oracle = I.counted(_separable(2, 3))
    z = _z(2, 3, n=1)[0]
    I.integrate(scheme, z[0], z[1], 1.0, [0.1] * 6, field, S.damping("nesterov"))
    assert oracle.calls == 6 * calls
    assert oracle.evaluations == 6 * 2 * calls  # ∇_qH and ∇_pH per oracle call


@given(h_, schedule_, st.floats(0.2, 5.0), seed_)
def test_zeta_derived_reproduces_the_momentum_update_of_15_and_16(h, damp, t, seed):
    # Algorithm 1's y ← ζ₁y + hζ₂G with G = −∇_xH frozen: (15) and exact-weight (16) in that form
    g = torch.randn(3, generator=torch.Generator().manual_seed(seed), dtype=F64)
    field = I.HamiltonianField(lambda q, p: -g.expand_as(q), lambda q, p: torch.zeros_like(p))
    q, p = torch.zeros(3, dtype=F64), torch.ones(3, dtype=F64)
    for scheme, step in (("presymp-euler", I.conformal_symplectic_euler),
                         ("presymp-expeuler", I.exponential_euler)):
        z1, z2 = S.zeta_derived(scheme, damp, t, h)
        torch.testing.assert_close(step(q, p, t, h, field, damp).p, z1 * p + h * z2 * g,
                                   rtol=1e-14, atol=1e-15)

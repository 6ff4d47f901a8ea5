"""theory.rates: the per-eigenmode momentum recurrences of seed 002 App. F / seed 004 eq. (6)."""
import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given
from hypothesis import strategies as st

from theory import rates as R

kappas = st.floats(1.05, 1e4)
members = st.builds(R.Momentum, a=st.floats(-1, 2), b=st.floats(-1, 1), c=st.floats(-2, 3),
                    eta=st.floats(1e-3, 1.0))
lams = st.floats(0.0, 10.0)


# ------------------------------------------------------------------ the recurrence itself


@given(members, lams)
def test_trace_and_determinant_are_alpha_and_theta(m, lam):
    """tr T(λ) = 1 + b − (a+c)ηλ and det T(λ) = b − aηλ (seed 002 §F.3)."""
    T = R.iteration_matrix(m, lam)
    alpha, theta = R.char_coefficients(m, lam)
    scale = 1 + abs(m.a) + abs(m.b) + abs(m.c) * (1 + abs(m.a)) * (1 + lam)  # entry size
    assert np.trace(T) == pytest.approx(1 + m.b - (m.a + m.c) * m.eta * lam, abs=1e-13 * scale)
    assert np.trace(T) == pytest.approx(float(alpha), abs=1e-13 * scale)
    assert np.linalg.det(T) == pytest.approx(float(theta), abs=1e-12 * scale**2)


@given(members, st.lists(lams, min_size=1, max_size=5), st.integers(2, 25))
def test_filter_obeys_second_order_recurrence(m, lam, N):
    """e_{ℓ+1} = α e_ℓ − θ e_{ℓ−1} with e_{−1} = e_0 when v_0 = 0 (seed 002, before Lemma F.2)."""
    lam = np.array(lam)
    q = R.filter_values(m, lam, N)
    alpha, theta = R.char_coefficients(m, lam)
    prev = np.vstack([q[:1], q[:-1]])  # e_{−1} = e_0
    scale = np.abs(q).max() + 1
    assert np.allclose(q[1:], alpha * q[:-1] - theta * prev[:-1], atol=1e-10 * scale, rtol=0)


@given(members, st.floats(0.01, 1.0), st.floats(1.0, 50.0))
def test_worst_spectral_radius_is_at_an_endpoint(m, mu, ratio):
    """Schur–Cohn: the radius constraints are affine in λ, so the max over [μ, L] sits at μ or L.
    Interior values may exceed it only by the error of a double root, √(rounding of α² − 4θ)
    ≈ 1e-8·(1 + |α|): the tolerance is 1e-7·(1 + max |α|)."""
    L = mu * ratio
    interior, _ = R.worst_case_rate(m, mu, L, n_interior=512)
    ends, _ = R.worst_case_rate(m, mu, L, n_interior=0)
    alpha_max = float(np.abs(R.char_coefficients(m, np.array([mu, L]))[0]).max())
    assert interior <= ends + 1e-7 * (1 + alpha_max)


@given(members, lams)
def test_closed_form_radius_matches_eigenvalues_away_from_double_roots(m, lam):
    alpha, theta = R.char_coefficients(m, lam)
    assume(abs(alpha**2 - 4 * theta) > 1e-6)  # eigvals of a near-Jordan block lose √eps
    eig = np.abs(np.linalg.eigvals(R.iteration_matrix(m, lam))).max()
    assert float(R.spectral_radius(m, lam)) == pytest.approx(eig, rel=1e-9, abs=1e-12)


@given(members, st.integers(1, 30))
def test_power_norms_lie_between_radius_and_norm_powers(m, N):
    """ρ(T)^n ≤ ‖Tⁿ‖₂ ≤ ‖T‖₂ⁿ for every n (rounding slack 1e-12 relative)."""
    lam = np.array([0.3, 1.7])
    norms = R.power_norms(m, lam, N)
    rho = R.spectral_radius(m, lam)
    n = np.arange(N + 1)[:, None]
    assert np.all(norms >= rho**n * (1 - 1e-9) - 1e-300)
    assert np.all(norms <= norms[1] ** n * (1 + 1e-9) + 1e-300)


def test_run_momentum_on_a_quadratic_reproduces_the_filters():
    lam = np.array([1.0, 3.0, 10.0])
    m = R.nesterov(0.4, 0.6, 0.12)
    xs = np.array(R.run_momentum(lambda x: lam * x, np.ones(3), [m] * 25))
    assert np.allclose(xs, R.filter_values(m, lam, 25), atol=1e-14, rtol=1e-12)


# ------------------------------------------------------------------ tunings and closed forms


@given(kappas)
def test_tuned_worst_case_rates(kappa):
    """GD (κ−1)/(κ+1) (Lemma F.1); heavy ball (√κ−1)/(√κ+1) (Lemma F.2, double roots at both
    endpoints: tolerance 1e-7); classical NAG and VSFL TMM 1 − 1/√κ (double root at μ or L)."""
    assert R.worst_case_rate(R.gd_tuned(1, kappa), 1, kappa)[0] == pytest.approx(
        R.rate_vanilla(kappa), abs=1e-13)
    assert R.worst_case_rate(R.heavy_ball_tuned(1, kappa), 1, kappa)[0] == pytest.approx(
        R.rate_momentum(kappa), abs=1e-7)
    assert R.worst_case_rate(R.nesterov_classical(1, kappa), 1, kappa)[0] == pytest.approx(
        R.rate_accelerated(kappa), abs=1e-7)
    assert R.worst_case_rate(R.triple_momentum_vsfl(1, kappa)[0], 1, kappa)[0] == pytest.approx(
        R.rate_accelerated(kappa), abs=1e-7)


@given(st.floats(1.5, 1e4))
def test_printed_nesterov_factor_is_the_heavy_ball_rate_not_nesterovs(kappa):
    """Counterexample to seed 002 §3.2/A.1: classical NAG is slower than (√κ−1)/(√κ+1)."""
    nag = R.worst_case_rate(R.nesterov_classical(1, kappa), 1, kappa)[0]
    s = math.sqrt(kappa)
    gap = (1 - 1 / s) - (s - 1) / (s + 1)  # = (s − 1)/(s(s + 1)) > 0
    assert gap == pytest.approx((s - 1) / (s * (s + 1)), rel=1e-9)
    assert nag > R.rate_momentum(kappa) + gap - 1e-7


@pytest.mark.parametrize("kappa", [4.0, 100.0, 1e3])
def test_minimax_tuning_of_each_family(kappa):
    """Numerical minimax reproduces η* (GD) and the heavy-ball rate; the Nesterov and TMM
    families reach exactly the heavy-ball rate, at zero lookahead; a pinned lookahead costs."""
    gd, r_gd = R.minimax_tuning("gd", 1, kappa)
    assert r_gd == pytest.approx(R.rate_vanilla(kappa), abs=1e-10)
    assert gd.eta == pytest.approx(2 / (1 + kappa), rel=1e-8)
    for family in ("heavy_ball", "nesterov", "tmm"):
        m, r = R.minimax_tuning(family, 1, kappa)
        assert r == pytest.approx(R.rate_momentum(kappa), abs=1e-8)
        assert abs(m.a) < 1e-6
    pinned = R.minimax_tuning("nesterov", 1, kappa, lookahead_ratio=0.1)[1]
    assert pinned > R.rate_momentum(kappa) + 1e-6


@pytest.mark.parametrize("kappa", [1.5, 30.0, 3000.0])
def test_no_grid_member_beats_heavy_ball(kappa):
    """An optimizer-free probe of the (b, p, q) family: the grid minimum sits above the heavy-ball
    rate (it is the infimum), and the probe is not vacuous: it finds members that beat GD."""
    best, (b, p, q) = R.family_grid_minimum(1.0, kappa, 41)
    assert R.rate_momentum(kappa) <= best < R.rate_vanilla(kappa)
    assert best == pytest.approx(float(R.spectral_radius(R.Momentum.from_effective(b, p, q),
                                                         np.array([1.0, kappa])).max()), abs=1e-15)


@given(st.floats(1.5, 1e4), st.floats(-1, 1), st.floats(-1, 1), st.floats(0.01, 4))
def test_grid_radius_formula_matches_the_member(kappa, b, pL, qL):
    m = R.Momentum.from_effective(b, pL / kappa, qL / kappa) if pL != qL else R.gd_tuned(1, kappa)
    lam = np.array([1.0, kappa])
    assert np.array_equal(R.root_radius(*R.char_coefficients(m, lam)), R.spectral_radius(m, lam))


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.floats(0.01, 0.3), st.floats(0.1, 3.0))
def test_tmm_is_nesterov_with_a_rescaled_velocity(mu, beta, gamma, nu):
    """TMM(μ,β,γ,ν) = NAG(μ/ν, β, νγ): same effective coefficients, same filters (Cor. F.3 is an
    equality; the ν of seed 002 A.2 adds no filter)."""
    tmm, nag = R.triple_momentum(mu, beta, gamma, nu), R.nesterov(mu / nu, beta, nu * gamma)
    assert np.allclose(tmm.effective, nag.effective, rtol=1e-12, atol=1e-15)
    lam = np.linspace(0.5, 20, 33)
    assert np.allclose(R.filter_values(tmm, lam, 15), R.filter_values(nag, lam, 15), rtol=1e-9,
                       atol=1e-12)


@given(st.floats(1.5, 1e3), st.floats(-2, 2), st.floats(-2, 2))
def test_vsfl_triple_momentum_is_the_template_in_its_own_form(kappa, x0, x1):
    """ξ⁺ = (1+β)ξ − βξ⁻ − α∇f((1+γ)ξ − γξ⁻) equals `triple_momentum_vsfl` run through (6)."""
    grad = lambda x: np.array([1.0, kappa]) * x
    tm, delta = R.triple_momentum_vsfl(1.0, kappa)
    rho = 1 - 1 / math.sqrt(kappa)
    alpha, beta, gamma = (1 + rho) / kappa, rho**2 / (2 - rho), rho**2 / ((1 + rho) * (2 - rho))
    assert delta == pytest.approx(rho**2 / (1 - rho**2), rel=1e-12)
    xi_prev = xi = np.array([x0, x1])
    ours = R.run_momentum(grad, xi, [tm] * 20)
    for n in range(20):
        xi, xi_prev = (1 + beta) * xi - beta * xi_prev - alpha * grad((1 + gamma) * xi
                                                                      - gamma * xi_prev), xi
        assert np.allclose(ours[n + 1], xi, rtol=1e-10, atol=1e-12)


@given(members)
def test_from_effective_round_trip(m):
    b, p, q = m.effective
    assume(abs(q - p) > 1e-6)
    assert np.allclose(R.Momentum.from_effective(b, p, q).effective, (b, p, q), rtol=1e-9,
                       atol=1e-12)


# ------------------------------------------------------------------ finite depth (F.2, F.4)


@given(st.floats(1.5, 1e4), st.integers(0, 60))
def test_heavy_ball_transient_is_sharp_at_L(kappa, N):
    """At λ = L the tuned heavy ball has the double root −ρ and e_N = (1 + (1+ρ)N)(−ρ)^N."""
    rho = R.rate_momentum(kappa)
    q = R.filter_values(R.heavy_ball_tuned(1, kappa), np.array([kappa]), N)[-1, 0]
    assert q == pytest.approx((1 + (1 + rho) * N) * (-rho) ** N, rel=1e-8, abs=1e-300)


@given(st.floats(1.5, 1e3), st.integers(1, 40), st.floats(-3, 3))
def test_heavy_ball_transient_with_initial_velocity(kappa, N, v0):
    """With v_0 ≠ 0: max_λ |e_N| = ρ^N (1 + (1+ρ)N + ρN|v_0|) (e_0 = 1), attained at λ = L for the
    adverse sign of v_0 — the constant of Lemma F.2 depends on N, not only on v_0."""
    rho = R.rate_momentum(kappa)
    hb = R.heavy_ball_tuned(1, kappa)
    lam = np.concatenate([[1.0, kappa], np.linspace(1.0, kappa, 513)])
    sup = np.abs(R.filter_values(hb, lam, N, v0=v0)[-1]).max()
    bound = R.heavy_ball_transient(rho, N, v0) * rho**N
    assert sup <= bound * (1 + 1e-9)
    at_L = abs(R.filter_values(hb, np.array([kappa]), N, v0=-abs(v0))[-1, 0])
    assert at_L == pytest.approx(bound, rel=1e-8)


@pytest.mark.parametrize("kappa", [3.0, 100.0, 2000.0])
def test_heavy_ball_transient_is_the_supremum_over_the_spectrum(kappa):
    rho = R.rate_momentum(kappa)
    sup = R.worst_filter(R.heavy_ball_tuned(1, kappa), 1, kappa, 80)
    assert np.allclose(sup / rho ** np.arange(81), R.heavy_ball_transient(rho, np.arange(81)),
                       rtol=1e-9)


def test_lemma_f2_counterexample_first_layer_amplifies():
    """κ = 100, λ = L, v_0 = 0: the tuned step 4/(√L+√μ)² overshoots, |e_1| = 1 − ηL = −2.31."""
    hb = R.heavy_ball_tuned(1, 100)
    q = R.filter_values(hb, np.array([100.0]), 12)[:, 0]
    assert q[1] == pytest.approx(1 - 400 / 121, rel=1e-12)
    assert abs(q[12]) > 1 > R.rate_vanilla(100) ** 12


@given(st.floats(1.0001, 1e6), st.floats(1.5, 1e3))
def test_threshold_for_a_constant(C, kappa):
    """With a genuine constant C the momentum bound is below vanilla iff C < r^N, r = ρ_v/ρ_m:
    the exact threshold is ⌊log C/log r⌋ + 1; the printed ⌈·⌉ agrees unless log C/log r ∈ ℤ."""
    rv, rm = R.rate_vanilla(kappa), R.rate_momentum(kappa)
    x = math.log(C) / math.log(rv / rm)
    assume(abs(x - round(x)) > 1e-9)
    exact = R.threshold_true(lambda n: np.full_like(n, C), rv, rm)
    assert exact == math.floor(x) + 1 == R.threshold_printed(C, rv, rm)


def test_printed_threshold_is_not_strict_when_the_log_ratio_is_an_integer():
    rv, rm = R.rate_vanilla(100), R.rate_momentum(100)
    C = (rv / rm) ** 3
    N0 = R.threshold_printed(C, rv, rm)
    assert N0 == 3
    assert C * rm**N0 == pytest.approx(rv**N0, rel=1e-12)  # equal, not strictly below


@pytest.mark.parametrize("below,expected", [
    ([True, True], 1), ([False, True, True], 2), ([True, False, True, True], 3),
    ([True, True, False], 4), ([], 1)])
def test_below_for_good(below, expected):
    assert R.below_for_good(np.array(below, dtype=bool)) == expected


@pytest.mark.parametrize("kappa,expected", [(10.0, 5), (100.0, 21), (1000.0, 84)])
def test_true_heavy_ball_threshold(kappa, expected):
    rv, rm = R.rate_vanilla(kappa), R.rate_momentum(kappa)
    assert R.threshold_true(lambda n: R.heavy_ball_transient(rm, n), rv, rm) == expected


@given(members, st.floats(1.5, 200.0), st.integers(1, 20))
def test_every_filter_lies_above_the_chebyshev_floor(m, kappa, N):
    """max_λ |q_N(λ)| ≥ 1/T_N((κ+1)/(κ−1)) for every member: q_N has degree ≤ N and q_N(0) = 1.
    The grid max under-estimates the sup, so the slack is relative 1e-9 plus the grid effect,
    which is nil here because the grid contains the endpoints and the floor is far below."""
    sup = R.worst_filter(m, 1.0, kappa, N, n_grid=1025)[-1]
    assert sup >= R.chebyshev_floor(kappa, N) * (1 - 1e-9)


@given(st.floats(1.05, 1e4), st.integers(1, 60))
def test_chebyshev_momentum_attains_the_floor(kappa, N):
    """The Chebyshev semi-iteration written as heavy-ball layers with per-layer (β_k, γ_k) has
    max_λ |q_N| = 1/T_N((κ+1)/(κ−1)) ≤ 2ρ^N: a momentum recurrence at exactly the rate of Lemma
    F.2 with a finite constant C_mom = 2 (relative 1e-9: rounding of N layers)."""
    steps = R.chebyshev_momentum(1.0, kappa, N)
    assert len(steps) == N and all(0 <= m.b < 1 and m.a == 0 and m.c == 1 for m in steps)
    lam = np.concatenate([[1.0, kappa], np.linspace(1.0, kappa, 1025)])
    q = R.run_momentum(lambda e: lam * e, np.ones_like(lam), steps)[-1]
    floor = R.chebyshev_floor(kappa, N)
    assert np.abs(q).max() == pytest.approx(floor, rel=1e-9)
    assert floor <= 2 * R.rate_momentum(kappa) ** N * (1 + 1e-12)


def test_chebyshev_momentum_rejects_a_degenerate_interval():
    with pytest.raises(ValueError, match="L must be > mu"):
        R.chebyshev_momentum(1.0, 1.0, 3)
    with pytest.raises(TypeError, match="N"):
        R.chebyshev_momentum(1.0, 2.0, 2.5)


@given(st.floats(1.5, 1e3), st.integers(1, 40), st.floats(-5, 5))
def test_no_velocity_proportional_to_the_error_bounds_heavy_ball(kappa, N, k):
    """v_0 = k·e_0: the secular coefficients of the double roots at μ and L are (1−ρ)+ρk and
    (1+ρ)−ρk; they sum to 2, so max_λ |e_N|/(ρ^N|e_0|) ≥ 1 + N for every k (Lemma F.2's
    'constant depending on the initial velocity' does not exist for any such velocity)."""
    rho = R.rate_momentum(kappa)
    ends = np.array([1.0, kappa])
    e = R.filter_values(R.heavy_ball_tuned(1.0, kappa), ends, N, v0=k)[-1]
    assert np.abs(e).max() / rho**N >= (1 + N) * (1 - 1e-8)


def test_per_mode_velocity_removes_the_heavy_ball_transient():
    """V_0 = (ηH − (1−β)I)E_0/(2β) makes e_1 = (α/2)e_0, hence e_N = ρ^N cos(Nφ)e_0: the bound holds
    with C_mom = 1, but the velocity needs the error E_0 = X_0 − X* itself."""
    kappa, N = 100.0, 60
    hb, rho = R.heavy_ball_tuned(1.0, kappa), R.rate_momentum(kappa)
    lam = np.linspace(1.0, kappa, 2049)
    v0 = (hb.eta * lam - (1 - hb.b)) / (2 * hb.b)
    xs = R.run_momentum(lambda e: lam * e, np.ones_like(lam), [hb] * N, v0=v0)
    assert max(np.abs(x).max() / rho**n for n, x in enumerate(xs)) <= 1 + 1e-9


def test_chebyshev_floor_is_attained_at_depth_one_by_gd():
    for kappa in (2.0, 50.0):
        assert R.chebyshev_floor(kappa, 1) == pytest.approx(R.rate_vanilla(kappa), rel=1e-12)


@pytest.mark.slow
def test_depth_tuned_momentum_beats_vanilla_at_depth_12():
    """Tuned for N = 12 (not asymptotically), the momentum family beats vanilla at κ = 100 and
    comes within 10 % of the Chebyshev floor."""
    m, worst = R.depth_tuning(1.0, 100.0, 12)
    assert R.chebyshev_floor(100.0, 12) - 1e-12 <= worst < 0.3 * R.rate_vanilla(100.0) ** 12
    assert worst < 1.1 * R.chebyshev_floor(100.0, 12)


# ------------------------------------------------------------------ sympy and the counterexample


def test_symbolic_steps():
    f1 = R.lemma_f1_symbolic()
    L, mu = sp.symbols("L mu", positive=True)
    assert sp.simplify(f1["eta_star"] - 2 / (L + mu)) == 0 and f1["rho_minus_printed"] == 0
    assert R.rate_gap_symbolic()["gap_minus_printed"] == 0
    hb = R.heavy_ball_charpoly_symbolic()
    assert hb["charpoly_minus_printed"] == 0 and hb["disc_at_mu"] == 0 and hb["disc_at_L"] == 0


@given(st.floats(-5, 5), st.floats(-5, 5))
def test_lessard_function_is_smooth_and_strongly_convex(x, y):
    assume(abs(x - y) > 1e-6)
    slope = float((R.lessard_gradient(x) - R.lessard_gradient(y)) / (x - y))
    assert 1 - 1e-9 <= slope <= 25 + 1e-9


def test_heavy_ball_cycles_on_the_lessard_function():
    xs = R.run_momentum(R.lessard_gradient, np.array(3.3), [R.heavy_ball_tuned(1, 25)] * 300)
    tail = np.array(xs[-30:], dtype=float)
    assert np.abs(tail[3:] - tail[:-3]).max() < 1e-10 and np.abs(tail).max() > 1


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize("call,match", [
    (lambda: R.gd_tuned(0.0, 1.0), "mu"),
    (lambda: R.gd_tuned(2.0, 1.0), "L"),
    (lambda: R.heavy_ball_tuned(float("nan"), 1.0), "mu"),
    (lambda: R.spectral_radius(R.gd_tuned(1, 2), [1.0, np.nan]), "lam"),
    (lambda: R.filter_values(R.gd_tuned(1, 2), 1.0, -1), "N"),
    (lambda: R.minimax_tuning("adam", 1, 10), "family"),
    (lambda: R.minimax_tuning("gd", 1, 10, lookahead_ratio=0.1), "lookahead_ratio"),
    (lambda: R.Momentum(0, 0, 1, float("inf")), "eta"),
    (lambda: R.Momentum.from_effective(0.5, 0.1, 0.1), "q"),
    (lambda: R.threshold_printed(-1.0, 0.9, 0.5), "C_mom"),
    (lambda: R.threshold_printed(2.0, 0.5, 0.9), "rho_mom"),
    (lambda: R.worst_case_rate(R.gd_tuned(1, 2), 1.0, 2.0, n_interior=-1), "n_interior"),
    (lambda: R.chebyshev_floor(0.5, 3), "kappa"),
    (lambda: R.family_grid_minimum(1.0, 10.0, 1), "n"),
    (lambda: R.heavy_ball_transient(0.5, 3, float("nan")), "v0_over_e0"),
    (lambda: R.nesterov_convex_schedule(0.0, 3), "L"),
    (lambda: R.filter_values(R.gd_tuned(1, 2), 1.0, 3, v0=float("inf")), "v0"),
    (lambda: R.threshold_true(lambda n: np.full_like(n, 1e300), 0.9, 0.89, N_max=10), "N_max"),
    (lambda: R.threshold_true(lambda n: n + 1.0, 1.0, 0.5), "rho_vanilla"),
    (lambda: R.threshold_printed(2.0, 1.5, 0.5), "rho_vanilla"),
    (lambda: R.gradient_descent(0.0), "eta"),
    (lambda: R.heavy_ball(1.5, 0.1), "beta"),
    (lambda: R.heavy_ball(-0.1, 0.1), "beta"),
    (lambda: R.heavy_ball(0.5, -0.1), "gamma"),
    (lambda: R.nesterov(-0.5, 0.5, 0.1), "mu"),
    (lambda: R.nesterov(0.5, 0.5, 0.0), "gamma"),
    (lambda: R.triple_momentum(0.5, 0.5, 0.1, 0.0), "nu"),
    (lambda: R.heavy_ball_transient(1.0, 3), "rho"),
    (lambda: R.heavy_ball_transient(0.5, -1), "N"),
    (lambda: R.worst_filter(R.gd_tuned(1, 2), 1.0, 2.0, 3, n_grid=1), "n_grid"),
    (lambda: R.depth_tuning(1.0, 2.0, 3, n_grid=1), "n_grid"),
    (lambda: R.lessard_gradient(1.0, mu=2.0, L=1.0), "L"),
    (lambda: R.root_radius(np.nan, 0.5), "alpha"),
])
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call,match", [
    (lambda: R.Momentum(0, 0, 1, "0.1"), "eta"),
    (lambda: R.filter_values(R.gd_tuned(1, 2), 1.0, 2.5), "N"),
    (lambda: R.gd_tuned(True, 2.0), "mu"),
    (lambda: R.rate_vanilla("10"), "kappa"),
    (lambda: R.heavy_ball(0.5, None), "gamma"),
    (lambda: R.threshold_true(lambda n: n + 1.0, 0.9, 0.5, N_max=10.0), "N_max"),
    (lambda: R.run_momentum(lambda x: x, 1.0, [(0.0, 0.5, 1.0, 0.1)]), "steps"),
])
def test_bad_type_raises_type_error(call, match):
    with pytest.raises(TypeError, match=match):
        call()


RATES = (R.rate_vanilla, R.rate_momentum, R.rate_accelerated)


@pytest.mark.parametrize("rate", RATES)
@given(st.floats(-1e6, 1.0, exclude_max=True))
def test_rates_refuse_a_condition_number_below_one(rate, kappa):
    """κ = L/μ ≥ 1 by definition: below 1 the formulas return meaningless (negative) numbers."""
    with pytest.raises(ValueError, match="kappa"):
        rate(kappa)


@pytest.mark.parametrize("rate", RATES)
@given(st.floats(1.0, 1e12))
def test_rates_are_contraction_factors(rate, kappa):
    """For every κ ≥ 1 each rate is a number in [0, 1), and 0 at κ = 1 (no contraction needed)."""
    rho = rate(kappa)
    assert 0.0 <= rho < 1.0
    assert rate(1.0) == 0.0

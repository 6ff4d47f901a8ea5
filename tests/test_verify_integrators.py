"""particles.verify on one-step integrators: assert_order classifies explicit Euler (1), leapfrog
(2), RK4 (4) and Yoshida's composition (4) and refuses a wrong claimed order; assert_energy_bounded
separates symplectic steps from drifting ones on the pendulum and on Hénon–Heiles states drawn on
an energy shell (`theory.strategies.energy_shell_states`, whose promise is checked here too)."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from particles.threads import torch_threads
from particles.verify import (EnergyReport, NondeterministicError, NonFiniteError, OrderReport,
                              StructureViolation, Undecidable, assert_energy_bounded, assert_order)
from theory.strategies import SHELL_RTOL, energy_shell_states

F64 = torch.float64


@pytest.fixture(autouse=True)
def _one_torch_thread():
    with torch_threads(1):
        yield


# ------------------------------------------------------------------ pendulum steps, written plainly
# H(q, p) = p²/2 − cos q; states (..., 2) = (q, p).


def force(q):
    return -torch.sin(q)


def euler(x, h):
    q, p = x[..., :1], x[..., 1:]
    return torch.cat([q + h * p, p + h * force(q)], -1)


def leapfrog(x, h):
    q, p = x[..., :1], x[..., 1:]
    p = p + h / 2 * force(q)
    q = q + h * p
    p = p + h / 2 * force(q)
    return torch.cat([q, p], -1)


def field(z):
    """The pendulum's vector field: (q, p)' = (p, −sin q)."""
    return torch.cat([z[..., 1:], force(z[..., :1])], -1)


def rk4(x, h):
    k1 = field(x)
    k2 = field(x + h / 2 * k1)
    k3 = field(x + h / 2 * k2)
    return x + h / 6 * (k1 + 2 * k2 + 2 * k3 + field(x + h * k3))


W1 = 1 / (2 - 2 ** (1 / 3))
W0 = 1 - 2 * W1


def yoshida(x, h):
    """Yoshida (1990): leapfrog steps w₁h, w₀h, w₁h, w₁ = 1/(2 − 2^{1/3}), w₀ = 1 − 2w₁: order 4."""
    return leapfrog(leapfrog(leapfrog(x, W1 * h), W0 * h), W1 * h)


def energy(x):
    return x[..., 1] ** 2 / 2 - torch.cos(x[..., 0])


X0 = torch.tensor([[1.0, 0.5], [2.0, -0.3]], dtype=F64)  # two trajectories, libration


@pytest.mark.parametrize("step,order", [(euler, 1), (leapfrog, 2), (rk4, 4), (yoshida, 4)])
def test_assert_order_classifies_the_four_methods(step, order):
    """Observed slopes over h = 2/8 … 2/128 against a 4-128× finer run: within 0.05 of the order
    (tolerance 0.25); claiming the next order up, or down, is refused with the observed order."""
    report = assert_order(step, X0, 2.0, order, rhs=field)
    assert isinstance(report, OrderReport) and abs(report.observed_order - order) < 0.05
    assert report.points == 5 and len(report.local_orders) == 4 and report.tolerance == 0.25
    assert all(abs(p - order) < 0.1 for p in report.local_orders)
    assert f"is of order {order}" in str(report)
    for wrong in (order + 1, order - 0.5):  # (the finer reference run depends on the claim)
        with pytest.raises(StructureViolation, match=rf"is not of order {wrong:g}!") as err:
            assert_order(step, X0, 2.0, wrong, rhs=field)
        observed = err.value.report.observed_order
        assert abs(observed - order) < 0.05 and f"observed order {observed:.3f}" in str(err.value)


@pytest.mark.parametrize("factor", [2.0, -1.0, 0.5])
def test_a_step_that_solves_another_equation_is_refused_though_it_converges_at_its_order(factor):
    """A leapfrog whose force is scaled by 2, −1 or ½ converges at order 2, to the solution of
    another equation: compared with itself it would pass; against the solution of dx/dt = rhs(x)
    its errors do not decrease (observed order ≈ 0), and its one-step defect
    step(x0, h) − x0 − h·rhs(x0) is O(h) (slope ≈ 1 < 1.75). The correct force's defect is O(h²)
    (slope 2 within 0.01)."""
    def scaled(x, h):
        q, p = x[..., :1], x[..., 1:]
        p = p + factor * h / 2 * force(q)
        q = q + h * p
        return torch.cat([q, p + factor * h / 2 * force(q)], -1)
    with pytest.raises(StructureViolation, match="NOT consistent with rhs") as err:
        assert_order(scaled, X0, 2.0, 2, rhs=field)
    assert abs(err.value.report.observed_order) < 0.1 and abs(err.value.report.consistency_order - 1) < 0.05
    assert abs(assert_order(leapfrog, X0, 2.0, 2, rhs=field).consistency_order - 2) < 0.01


@pytest.mark.parametrize("delta", [1e-2, 1e-4])
def test_a_step_with_a_slightly_wrong_force_is_refused_against_the_equations_solution(delta):
    """A force off by 1% or 0.01% (a wrong physical constant): the one-step defect δ·h·F + C·h² still
    has slope ≈ 2 over these h, and self-convergence measured order 2 for the wrong equation
    (audit 2 of 26 Nov 2026, finding 2); against the RK4 solution of dx/dt = rhs(x) the errors
    level off at O(δ t) and the claim is refused. So is a float64 RK4 whose Butcher weights are a
    float32 tensor (they sum to 1 + 3e-8)."""
    def leap_off(x, h):
        q, p = x[..., :1], x[..., 1:]
        p = p + (1 + delta) * h / 2 * force(q)
        q = q + h * p
        return torch.cat([q, p + (1 + delta) * h / 2 * force(q)], -1)
    with pytest.raises(StructureViolation, match="is not of order 2"):
        assert_order(leap_off, X0, 2.0, 2, rhs=field)
    b = torch.tensor([1 / 6, 1 / 3, 1 / 3, 1 / 6], dtype=torch.float32)

    def rk4_float32_weights(x, h):
        k1 = field(x)
        k2 = field(x + h / 2 * k1)
        k3 = field(x + h / 2 * k2)
        ks = torch.stack([k1, k2, k3, field(x + h * k3)])
        return x + h * (b.reshape(4, *[1] * x.ndim) * ks).sum(0)
    with pytest.raises(StructureViolation, match="is not of order 4"):
        assert_order(rk4_float32_weights, X0, 2.0, 4, rhs=field)


def test_step_counts_may_be_an_array():
    assert assert_order(euler, X0, 2.0, 1, rhs=field, steps=np.array([8, 16, 32, 64])).points == 4


def test_a_fit_inside_the_claim_with_the_finest_pair_outside_is_undecidable():
    """RK4 plus an order-1 defect δ·h·x (it solves dx/dt = rhs(x) + δx): with δ = 3e-10 the fitted
    slope against the equation's solution is 3.9 (inside 4 ± 0.25) but the local order falls to
    3.4 at the finest pair: not yet asymptotic, Undecidable naming the fix, not a pass (audit of 26
    Nov 2026); with δ = 1e-8 the errors level off at 3e-8 and the claim is refused; plain RK4
    still passes."""
    def rk4_defect(delta):
        return lambda x, h: rk4(x, h) + delta * h * x
    with pytest.raises(Undecidable, match="not yet in their asymptotic regime") as err:
        assert_order(rk4_defect(3e-10), X0, 2.0, 4, rhs=field)
    assert abs(err.value.report.observed_order - 4) <= 0.25 and err.value.report.local_orders[-1] < 3.75
    with pytest.raises(StructureViolation):
        assert_order(rk4_defect(1e-8), X0, 2.0, 4, rhs=field)
    assert assert_order(rk4, X0, 2.0, 4, rhs=field).outcome == "holds"


def test_a_closed_form_reference():
    """The harmonic oscillator q̈ = −q: exact flow a rotation; leapfrog is order 2 against it."""
    def harmonic_leapfrog(x, h):
        q, p = x[..., :1], x[..., 1:]
        p = p - h / 2 * q
        q = q + h * p
        return torch.cat([q, p - h / 2 * q], -1)

    t = 3.0
    rotation = torch.tensor([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]], dtype=F64)
    exact = X0 @ rotation  # (q, p)(t) = (q cos t + p sin t, −q sin t + p cos t)
    report = assert_order(harmonic_leapfrog, X0, t, 2, reference=exact)
    assert "the reference given" in str(report) and abs(report.observed_order - 2) < 0.05


def test_errors_at_the_rounding_floor_are_undecidable_not_violations():
    """RK4 in float32 over h = 2/8 … 2/128 reaches its rounding (~1e-7, measured against the
    float64 shadow) at h = 2/32: fewer than 3 step sizes above 16× it, Undecidable naming the fix,
    never a violation."""
    with pytest.raises(Undecidable, match=r"only [0-2] step sizes.*larger steps") as err:
        assert_order(rk4, X0.float(), 2.0, 4, rhs=field)
    assert not isinstance(err.value, AssertionError) and err.value.report.points < 3
    assert "rounding floor: measured" in str(err.value)


@pytest.mark.parametrize("method, order", [(euler, 1), (leapfrog, 2), (rk4, 4)])
def test_float32_rounding_is_measured_so_resolved_errors_decide(method, order):
    """In float32 the floor is 16× the rounding each rollout accumulated (its distance to the same
    rollout in float64), not a model ~10-100× above it: RK4 at h = 2/4, 2/8, 2/16 (errors 9.5e-4,
    5.8e-5, 3.3e-6, rounding ~1e-7) decides, where the modeled floor (√(16 + 64) · 16 eps · max|x|
    ≈ 3e-5) left 2 step sizes (audit of 26 Nov 2026, finding 11); a claimed order one too high
    is still refused."""
    steps = (4, 8, 16) if order == 4 else (8, 16, 32, 64, 128)
    report = assert_order(method, X0.float(), 2.0, order, rhs=field, steps=steps)
    assert report.points == len(steps) and abs(report.observed_order - order) < 0.25
    assert "in float64" in report.notes[0] and "rounding floor: measured" in str(report)
    with pytest.raises(StructureViolation):
        assert_order(method, X0.float(), 2.0, order + 1, rhs=field, steps=steps)


@pytest.mark.parametrize("kind", ["casts", "asserts"])
def test_a_step_that_computes_in_float32_inside_keeps_the_modeled_floor(kind):
    """A step that casts its state to float32 weights and back returns float32 values widened: its
    "float64 shadow" would be the float32 run bit for bit (rounding measured as 0: a correct
    leapfrog was refused at fine steps, second audit of 26 Nov 2026); one that asserts float32
    would raise a bare AssertionError. Both keep the modeled floor, and the note says why."""
    def leap32(x, h):
        if kind == "asserts":
            assert x.dtype == torch.float32
            return leapfrog(x, h)
        return leapfrog(x.float(), h).to(x.dtype)
    report = assert_order(leap32, X0.float(), 2.0, 2, rhs=field, steps=(32, 64, 128, 256, 512))
    assert report.outcome == "holds" and "modeled" in str(report)
    assert ("computes in float32 inside" if kind == "casts" else "AssertionError") in str(report)


def test_a_float32_only_bug_is_judged_not_called_rounding():
    """A step whose float32 branch adds a momentum bias of 0.01·h (its float64 branch is a correct
    leapfrog): the float32 and float64 runs differ by 1e4x what rounding accumulates; that gap
    is not used as a rounding floor (it made every step size "rounding", Undecidable with the
    advice to use float64, which tests the other branch: second audit of 26 Nov 2026). The
    float32 errors level off and the claim is refused, with a note naming the dtype dependence."""
    def biased(x, h):
        y = leapfrog(x, h)
        return torch.cat([y[..., :1], y[..., 1:] + 0.01 * h], -1) if x.dtype == torch.float32 else y
    with pytest.raises(StructureViolation, match="computes something else in float64"):
        assert_order(biased, X0.float(), 2.0, 2, rhs=field)


def test_a_step_that_cannot_run_in_float64_keeps_the_modeled_floor_and_says_so():
    """A step with float32 parameters fails on a float64 state (a dtype error): its rounding is
    not measured, the conservative modeled floor decides, and the note names the reason."""
    identity32 = torch.eye(2)

    def leapfrog_float32_weights(x, h):
        return leapfrog(x, h) @ identity32

    report = assert_order(leapfrog_float32_weights, X0.float(), 2.0, 2, rhs=field)
    assert abs(report.observed_order - 2) < 0.25
    assert "modeled" in str(report) and "does not run in float64 (RuntimeError" in str(report)


def test_order_refuses_nan_nondeterminism_and_bad_steps():
    def blow_up(x, h):
        return x + h * x ** 5

    with pytest.raises(NonFiniteError, match=r"step = blow_up \(test_verify_integrators\.py:\d+\) "
                                             r"returned NaN or inf at step \d+ .* trajectory \(1,\)"):
        assert_order(blow_up, X0 * torch.tensor([[1.0], [3.0]], dtype=F64), 2.0, 1, rhs=lambda x: x ** 5)
    noise = torch.Generator().manual_seed(0)
    with pytest.raises(NondeterministicError, match="two steps from the same state"):
        assert_order(lambda x, h: euler(x, h) + 1e-12 * torch.randn(x.shape, generator=noise,
                                                                    dtype=F64), X0, 2.0, 1, rhs=field)
    with pytest.raises(TypeError, match=r"must return a tensor of the state's shape \(2, 2\)"):
        assert_order(lambda x, h: euler(x, h)[0], X0, 2.0, 1, rhs=field)


# ------------------------------------------------------------------ energy


def test_energy_bounded_separates_leapfrog_from_explicit_euler_on_the_pendulum():
    """2000 steps of h = 0.1 (≈ 30 periods): leapfrog's energy error oscillates (drift 2e-5
    against a first-quarter amplitude 3e-3), explicit Euler's grows (drift 3.6-3.9× its
    first-quarter maximum), and the report says so."""
    report = assert_energy_bounded(leapfrog, energy, X0, 2000, h=0.1)
    assert isinstance(report, EnergyReport) and report.points == 2 and report.violating == 0
    assert report.energy_error.shape == (2001, 2) and report.drift_rate.shape == (2,)
    assert report.max_defect < 0.01 * report.tolerance
    with pytest.raises(StructureViolation) as err:
        assert_energy_bounded(euler, energy, X0, 2000, h=0.1)
    msg = str(err.value)
    assert "is not energy-bounded!" in msg and "Trajectories violating: 2 / 2" in msg
    assert "per unit time" in msg and err.value.report.max_defect > 3 * err.value.report.tolerance


def test_energy_check_states_its_detection_limit_and_a_longer_rollout_lowers_it():
    """Leapfrog with friction γ = 1e-5 (energy decays without bound) passes over 2000 steps: its
    drift is below the first-quarter oscillation. The pass report states the slowest drift it
    would have caught, above this one's rate; the friction of γ = 1e-4 is caught at 2000 steps."""
    def damped(x, h=0.1, gamma=1e-5):
        y = leapfrog(x, h)
        return torch.cat([y[..., :1], y[..., 1:] * (1 - gamma * h)], -1)
    report = assert_energy_bounded(damped, energy, X0, 2000)
    limit = next(n for n in report.notes if n.startswith("detection limit"))
    rate = float(limit.split("slower than ")[1].split(" per step")[0])
    assert rate > report.drift_rate.abs().max().item()
    with pytest.raises(StructureViolation):
        assert_energy_bounded(lambda x: damped(x, gamma=1e-4), energy, X0, 2000)


def test_energy_bounded_for_yoshida_and_drift_for_rk4_at_large_h():
    """Yoshida is symplectic (bounded); RK4 is not, and at h = 0.5 its energy decays linearly."""
    assert_energy_bounded(lambda x: yoshida(x, 0.1), energy, X0, 1000)
    with pytest.raises(StructureViolation, match="not energy-bounded"):
        assert_energy_bounded(rk4, energy, X0[0], 1000, h=0.5)  # one unbatched state


def hh_energy_np(z):
    x, y, px, py = z
    return 0.5 * (px ** 2 + py ** 2) + 0.5 * (x ** 2 + y ** 2) + x ** 2 * y - y ** 3 / 3


def hh_energy(z):
    x, y, px, py = z.unbind(-1)
    return 0.5 * (px ** 2 + py ** 2) + 0.5 * (x ** 2 + y ** 2) + x ** 2 * y - y ** 3 / 3


def hh_leapfrog(z, h=0.1):
    def accel(q):
        x, y = q.unbind(-1)
        return torch.stack([-(x + 2 * x * y), -(y + x * x - y * y)], -1)
    q, p = z[..., :2], z[..., 2:]
    p = p + h / 2 * accel(q)
    q = q + h * p
    return torch.cat([q, p + h / 2 * accel(q)], -1)


@settings(max_examples=5)
@given(energy_shell_states(hh_energy_np, (0.02, 1 / 8), np.zeros(4), n=3))
def test_henon_heiles_leapfrog_is_energy_bounded_on_any_shell_below_escape(Z):
    """Three states on one shell H = E ∈ [0.02, 1/8] (escape at 1/6), 1000 leapfrog steps (≈ 16 periods)."""
    x0 = torch.from_numpy(Z)
    E = hh_energy(x0)
    assert (E - E[0]).abs().max() <= 2 * SHELL_RTOL  # one shell for the three states
    assert_energy_bounded(hh_leapfrog, hh_energy, x0, 1000)


def test_energy_refuses_nan_nondeterminism_and_bad_arguments():
    with pytest.raises(NonFiniteError, match=r"H = .* is NaN or inf after 0 steps"):
        assert_energy_bounded(lambda x: x, lambda x: energy(x) / 0 * 0, X0, 10)
    with pytest.raises(NondeterministicError, match="two evaluations of H"):
        assert_energy_bounded(lambda x: x, lambda x: energy(x) + torch.rand(2, dtype=F64), X0, 10)
    with pytest.raises(TypeError, match=r"one energy per state"):
        assert_energy_bounded(lambda x: x, lambda x: energy(x).sum(), X0, 10)
    with pytest.raises(ValueError, match="n_steps must be >= 8"):
        assert_energy_bounded(lambda x: x, energy, X0, 4)
    with pytest.raises(TypeError, match="x0 is torch.bfloat16"):
        assert_energy_bounded(lambda x: x, energy, X0.bfloat16(), 10)


@pytest.mark.parametrize("call,error,match", [
    (lambda: assert_order(euler, X0, 2.0, 1, rhs=field, steps=(8, 16)), ValueError, "steps"),
    (lambda: assert_order(lambda x, h: euler(x, h).float(), X0, 2.0, 1, rhs=field), TypeError,
     "must keep the state's dtype torch.float64, got torch.float32"),
    (lambda: assert_order(euler, X0, 2.0, 1, rhs=field, steps=(8, 16, 16)), ValueError, "steps"),
    (lambda: assert_order(euler, X0, 0.0, 1, rhs=field), ValueError, "t_end"),
    (lambda: assert_order(euler, X0, 2.0, 0, rhs=field), ValueError, "order"),
    (lambda: assert_order(euler, X0, 2.0, 1), ValueError, "reference= .* or rhs="),
    (lambda: assert_order(euler, X0, 2.0, 1, rhs=lambda x: x[0]), TypeError, "rhs must return"),
    (lambda: assert_order(euler, X0, 2.0, 1, rhs=field, slope_tol=-1), ValueError, "slope_tol"),
    (lambda: assert_order(euler, X0, 2.0, 1, rhs=field, reference=X0[0]), ValueError, "reference"),
    (lambda: assert_order("euler", X0, 2.0, 1, rhs=field), TypeError, "step must"),
    (lambda: assert_order(euler, X0.long(), 2.0, 1, rhs=field), TypeError, "x0 must"),
    (lambda: assert_energy_bounded(leapfrog, "H", X0, 10), TypeError, "H must"),
    (lambda: assert_energy_bounded(leapfrog, energy, X0, 10, h=0.1, drift_tol=0), ValueError, "drift_tol"),
])
def test_bad_arguments_raise_naming_the_parameter(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ------------------------------------------------------------------ the energy-shell strategy


def pendulum_np(z):
    return z[1] ** 2 / 2 - math.cos(z[0])


@given(energy_shell_states(pendulum_np, 0.3, [0.0, 0.0], n=st.integers(1, 4)))
def test_energy_shell_states_lie_on_the_shell_asked_for(Z):
    assert Z.ndim == 2 and 1 <= len(Z) <= 4 and Z.dtype == np.float64
    assert all(abs(pendulum_np(z) - 0.3) <= SHELL_RTOL * 1.0 for z in Z)


@given(energy_shell_states(hh_energy_np, (0.01, 1 / 8), np.zeros(4)))
def test_energy_shell_states_from_a_range_lie_inside_it(z):
    assert z.shape == (4,)
    assert 0.01 - SHELL_RTOL <= hh_energy_np(z) <= 1 / 8 + SHELL_RTOL


@pytest.mark.parametrize("args,error,match", [
    ((pendulum_np, -2.0, [0.0, 0.0]), ValueError, "center must lie below the shell"),
    ((pendulum_np, (0.5, 0.1), [0.0, 0.0]), ValueError, "lo <= hi"),
    ((pendulum_np, (0.1, 0.2, 0.3), [0.0, 0.0]), TypeError, "energy"),
    (("H", 0.3, [0.0, 0.0]), TypeError, "H must"),
    ((pendulum_np, 0.3, [[0.0, 0.0]]), ValueError, "center"),
])
def test_energy_shell_states_refuse_bad_arguments(args, error, match):
    with pytest.raises(error, match=match):
        energy_shell_states(*args)


def test_an_additive_constant_in_h_does_not_hide_a_drift_in_float32():
    """Leapfrog with friction 1e-3 loses 0.23 energy units over 2000 steps in float32. H + 1e4 is the
    same physics; the old floor 16·eps·max|H|·√n (0.85) let it pass (second audit of 26 Nov 2026).
    H's evaluation rounding does not accumulate, the states' does through ∇H: refused for either
    zero of energy, and the frictionless leapfrog still holds."""
    x0 = X0.float()

    def damped(x, h=0.1, gamma=1e-3):
        y = leapfrog(x, h)
        return torch.cat([y[..., :1], y[..., 1:] * (1 - gamma * h)], -1)
    for offset in (0.0, 1e4):
        def H(x):
            return x[..., 1] ** 2 / 2 - torch.cos(x[..., 0]) + offset
        with pytest.raises(StructureViolation, match=r"max Σ\|x_i ∂H/∂x_i\|"):
            assert_energy_bounded(damped, H, x0, 2000)
        assert assert_energy_bounded(lambda x: leapfrog(x, 0.1), H, x0, 2000).outcome == "holds"

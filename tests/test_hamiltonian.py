"""theory.hamiltonian: the oscillator of seed 001 eq. (26), the exact flow, implicit midpoint eq. (4)."""
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.linalg import expm

from theory import hamiltonian as ham
from theory.symplectic import canonical_J, symplectic_defect

seeds = st.integers(0, 2**32 - 1)
couplings = st.floats(0.0, 4.0)  # Table 1: k ∈ [0, 4]
dims = st.integers(1, 3)


def central_difference(f, z, eps=1e-6):
    return np.stack([(f(z + eps * e) - f(z - eps * e)) / (2 * eps) for e in np.eye(z.shape[-1])], -1)


def quadratic(rng, d):
    G = rng.normal(size=(2 * d, 2 * d))
    S = (G + G.T) / 2
    return S, (lambda z: z @ S), (lambda z: np.broadcast_to(S, z.shape + (2 * d,)))


def test_table_1_and_initial_condition():
    assert dict(ham.TABLE_1) == {"m1": 2.0, "m2": 1.0, "k1": 1.5, "k2": 0.3, "k_range": (0.0, 4.0)}
    np.testing.assert_array_equal(ham.Z0, [1.0, 0.0, 2.0, 0.0])  # q(t0) = (1, 0), p(t0) = (2, 0)


def test_hamiltonian_at_initial_condition_by_hand():
    # H(Z0) = p1²/(2 m1) + k1 q1²/2 + k σ̄(1)·1/2 = 1 + 0.75 + k/(2(1 + e^{-1}))
    k = 2.0
    expected = 4.0 / 4.0 + 1.5 / 2 + k / (2 * (1 + np.exp(-1.0)))
    assert ham.coupled_oscillator_hamiltonian(ham.Z0, k) == pytest.approx(expected, rel=1e-15)


@given(seed=seeds, k=couplings)
def test_gradient_and_hessian_are_derivatives(seed, k):
    z = np.random.default_rng(seed).normal(size=(3, 4)) * 2
    H, grad, hess = ham.oscillator(k)
    # central differences with eps = 1e-6: truncation ~eps²·|H'''| plus rounding ~1e-16·|H|/eps
    np.testing.assert_allclose(central_difference(H, z), grad(z), atol=1e-7 * (1 + np.abs(H(z)).max()))
    np.testing.assert_allclose(central_difference(grad, z), hess(z), atol=1e-7 * (1 + np.abs(grad(z)).max()))
    np.testing.assert_array_equal(hess(z), np.swapaxes(hess(z), -1, -2))


def test_sigmoid_is_stable_for_large_arguments():
    z = np.array([[800.0, 0.0, 0.0, 0.0], [-800.0, 0.0, 0.0, 0.0]])
    g = ham.coupled_oscillator_grad(z, 1.0)
    assert np.all(np.isfinite(g))
    # σ̄(800) = 1, σ̄'(800) = 0: ∂H/∂q1 = k1 q1 + k q1
    assert g[0, 0] == pytest.approx(1.5 * 800 + 800)


@given(seed=seeds, d=dims)
def test_exact_flow_of_quadratic_hamiltonian_is_expm(seed, d):
    rng = np.random.default_rng(seed)
    S, grad, hess = quadratic(rng, d)
    z0, t = rng.normal(size=2 * d), np.array([0.0, 0.5, 1.0])
    # ż = J S z (z as a column): φ_t = expm(t J S)
    expected = np.stack([expm(s * canonical_J(d) @ S) @ z0 for s in t])
    z, D = ham.exact_flow_with_jacobian(grad, hess, z0, t)
    scale = max(1.0, np.abs(expected).max())
    np.testing.assert_allclose(z, expected, atol=1e-9 * scale)  # DOP853 at rtol = atol = 1e-12
    np.testing.assert_allclose(ham.exact_flow(grad, z0, t), expected, atol=1e-9 * scale)
    Dexp = np.stack([expm(s * canonical_J(d) @ S) for s in t])
    np.testing.assert_allclose(D, Dexp, atol=1e-9 * max(1.0, np.abs(Dexp).max()))


@pytest.mark.parametrize("k", [0.0, 0.75, 3.5, 4.0])  # values of Figure 5 and the test value 3.5
def test_exact_flow_conserves_the_oscillator_energy(k):
    H, grad, _ = ham.oscillator(k)
    z = ham.exact_flow(grad, ham.Z0, np.linspace(0, 20, 5))
    assert np.abs(H(z) - H(ham.Z0)).max() < 1e-9  # tolerance 1e-12 per unit time, t <= 20


@given(seed=seeds, d=dims, h=st.floats(0.01, 0.5))
def test_implicit_midpoint_on_quadratic_hamiltonian_is_the_cayley_map(seed, d, h):
    rng = np.random.default_rng(seed)
    S, grad, hess = quadratic(rng, d)
    X = h / 2 * canonical_J(d) @ S
    assume(np.linalg.cond(np.eye(2 * d) - X) < 1e6)  # else the step is (nearly) undefined
    z = rng.normal(size=2 * d)
    expected = np.linalg.solve(np.eye(2 * d) - X, (np.eye(2 * d) + X) @ z)
    z1 = ham.implicit_midpoint_step(grad, z, h, hess_H=hess)
    np.testing.assert_allclose(z1, expected, atol=1e-10 * max(1, np.abs(expected).max()))
    # quadratic invariants (here H itself) are conserved exactly by implicit midpoint
    assert abs(z1 @ S @ z1 - z @ S @ z) < 1e-9 * max(1.0, abs(z @ S @ z), np.abs(z1).max() ** 2)


@given(seed=seeds, d=dims, quadratic_H=st.booleans())
def test_implicit_midpoint_solves_eq_4_and_is_symplectic(seed, d, quadratic_H):
    rng = np.random.default_rng(seed)
    _, grad, hess = ham.random_hamiltonian(rng, d, quadratic=quadratic_H)
    z, h = rng.normal(size=(5, 2 * d)), 0.1
    z1 = ham.implicit_midpoint_step(grad, z, h, hess_H=hess)
    residual = z1 - z - h * ham.hamiltonian_vector_field(grad, (z + z1) / 2)
    assert np.abs(residual).max() <= 1e-13 * max(1, np.abs(z).max())
    D = ham.implicit_midpoint_jacobian(hess, z, z1, h)
    assert np.all(symplectic_defect(D) < 1e-12 * np.maximum(1, np.linalg.norm(D, axis=(1, 2)) ** 2))
    # batched step == pointwise steps; finite-difference Newton converges to the same point
    for zi, z1i in zip(z, z1):
        np.testing.assert_allclose(ham.implicit_midpoint_step(grad, zi, h, hess_H=hess), z1i, atol=1e-12)
    np.testing.assert_allclose(ham.implicit_midpoint_step(grad, z, h), z1, atol=1e-12)


def test_implicit_midpoint_is_second_order_on_the_oscillator():
    _, grad, hess = ham.oscillator(3.5)
    t_end = 2.0
    reference = ham.exact_flow(grad, ham.Z0, [t_end])[0]
    errors = []
    for n in (20, 40, 80):
        traj = ham.implicit_midpoint_trajectory(grad, ham.Z0, t_end / n, n, hess_H=hess)
        assert traj.shape == (n + 1, 4)
        errors.append(np.abs(traj[-1] - reference).max())
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(np.abs(orders - 2) < 0.1), orders


def test_implicit_midpoint_raises_with_the_residual_when_not_converged():
    _, grad, hess = ham.oscillator(4.0)
    with pytest.raises(ham.ConvergenceError, match="residual"):
        ham.implicit_midpoint_step(grad, ham.Z0, 0.4, tol=1e-15, max_iter=1, hess_H=hess)


@pytest.mark.parametrize("call, match", [
    (lambda: ham.coupled_oscillator_grad([1.0, np.nan, 0.0, 0.0], 1.0), "z contains NaN"),
    (lambda: ham.coupled_oscillator_grad(np.zeros(6), 1.0), "last axis 4"),
    (lambda: ham.coupled_oscillator_grad(np.zeros(3), 1.0), "even-dimensional"),
    (lambda: ham.coupled_oscillator_hamiltonian(np.zeros(4), np.inf), "k must be finite"),
    (lambda: ham.coupled_oscillator_grad(np.zeros(4), 1.0, {"m1": 0.0, "m2": 1.0, "k1": 1, "k2": 1}), "m1"),
    (lambda: ham.implicit_midpoint_step(lambda z: z, np.zeros(2), np.nan), "h must be finite"),
    (lambda: ham.implicit_midpoint_step(lambda z: z, np.zeros(2), 0.1, max_iter=0), "max_iter"),
    (lambda: ham.implicit_midpoint_step(lambda z: z, np.zeros(2), 0.1, tol=0.0), "tol"),
    (lambda: ham.implicit_midpoint_trajectory(lambda z: z, np.zeros(2), 0.1, -1), "n_steps"),
    (lambda: ham.exact_flow(lambda z: z, np.zeros(2), [1.0, 0.5]), "nondecreasing"),
    (lambda: ham.exact_flow(lambda z: z, np.zeros((2, 2)), [1.0]), "one point"),
    (lambda: ham.hamiltonian_vector_field(lambda z: z, np.zeros(3)), "even-dimensional"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call, match", [
    (lambda: ham.coupled_oscillator_hamiltonian(np.zeros(4), "2.0"), "k must be a real number"),
    (lambda: ham.implicit_midpoint_step(lambda z: z, np.zeros(2), None), "h must be a real number"),
    (lambda: ham.coupled_oscillator_grad(np.zeros(4), True), "k must be a real number"),
])
def test_bad_type_names_the_parameter(call, match):
    with pytest.raises(TypeError, match=match):
        call()

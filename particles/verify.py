"""Assert the theorems on anyone's model: symplecticity, conformal symplecticity, volume
preservation and causality of a torch map, the order of a one-step integrator and the bounded
energy error of its long rollouts; each measured, decided by a stated criterion, and reported.

    from particles.verify import assert_symplectic, assert_causal, assert_order
    assert_symplectic(leapfrog_step, torch.randn(8, 2 * d))      # D fᵀ J D f = J at 8 points
    assert_causal(decoder, torch.randint(0, V, (2, T)))           # no output sees a later input
    assert_order(rk4_step, x0, t_end=2.0, order=4, rhs=field)     # global error ∝ h⁴ for x' = field(x)

Conventions (seed 001 §1, §4; `theory.symplectic`):

* A state is z = (q, p) ∈ R^{2d}, the last `event_dims` axes of `x` (default: the last axis);
  leading axes are a batch of points (none: one state) and `f` is applied to one point at a time
  through `torch.func.vmap`, so `f` may, but need not, accept batches. A state with several axes
  (a 2d×T token cloud Z) is flattened row by row: the Z_vec identification of seed 001 eq. (18).
* J defaults to the canonical form J = [[0, I_d], [−I_d, 0]] in those flattened coordinates (first
  half q, second half p); any antisymmetric invertible matrix may be passed instead.
  f is symplectic when D f(x)ᵀ J D f(x) = J, conformally symplectic with factor c when
  D fᵀ J D f = c J, and volume preserving when |det D f(x)| = 1.
* Causality along the axis `dim` (the position axis of input and output): output position t may
  depend on input positions s ≤ t only.

Outcomes. A check that holds returns a `Report` (the defect at the worst point, its tolerance,
the resolution the check reached, the number of points); a violation raises `StructureViolation`
(an AssertionError) whose message is that report, in the style of `torch.testing`; a check that
cannot tell a violation from rounding at the precision given raises `Undecidable` (never reported
as a violation): in the symplectic and volume checks a defect above the one-step bound is a
violation only beyond its rounding zone (`particles._verify.rounding`: the measured rounding of
the Jacobian, and `n_steps`, the number of steps a composition makes), whatever the resolution,
and no note suggests a looser rtol or resolution. Every call of a user's map gets a fresh copy
of its input (a step may update its argument in place; the caller's tensors never change).
Before measuring, f is called twice on the same input: a non-deterministic f
(dropout in train mode, weights re-created per call) raises `NondeterministicError` (a
ValueError), and NaN or inf in its output or Jacobian raises `NonFiniteError` (a ValueError)
naming f and the point. Bad arguments raise `TypeError`/`ValueError` naming the parameter.

Precision. Jacobians are computed in the dtype of `x` (the map as the user runs it, float32
included; float16/bfloat16 are refused) with `torch.func.jacrev`; the algebra on them (DᵀJD − cJ,
slogdet) is `theory.symplectic`'s, on a float64 copy of D, so the only rounding that matters is
the Jacobian's own. Default tolerances follow from that: relative `RTOL_ULPS · eps(dtype)`, eps
of the lower-precision of the input and output dtypes, scaled by the size of the map (stated in
each assertion); a pass is reported only when that tolerance resolves defects of `RESOLUTION`
relative to the structure's own scale, otherwise the check is `Undecidable`. Causality is
decided exactly (tolerance 0) by default: a causal computation produces exact zeros, not small
numbers, in the blocks it must not fill.

The measurements behind the assertions (`jacobian`, `symplectic_residual`, `log_volume`,
`causal_dependence`) are public: the toolkit's own claims and `particles.geometry` use them.
The implementation lives in `particles._verify`, one module per topic; docs/verify.md gives every
signature, return value and failure mode, and the pytest plugin (`particles.pytest_plugin`).
"""
from particles._verify.causal import CausalDependence, CausalReport, assert_causal, causal_dependence
from particles._verify.integrators import assert_energy_bounded, assert_order
from particles._verify.jacobians import canonical_J, jacobian, log_volume, symplectic_residual
from particles._verify.outcome import (RESOLUTION, RTOL_ULPS, EnergyReport, NondeterministicError,
                                       NonFiniteError, OrderReport, Report, StructureViolation,
                                       SymplecticReport, Undecidable, VolumeReport)
from particles._verify.structure import (assert_conformally_symplectic, assert_symplectic,
                                         assert_volume_preserving)

__all__ = ["assert_symplectic", "assert_conformally_symplectic", "assert_volume_preserving",
           "assert_causal", "assert_order", "assert_energy_bounded",
           "Report", "SymplecticReport", "VolumeReport", "CausalReport", "OrderReport",
           "EnergyReport", "StructureViolation", "Undecidable", "NondeterministicError",
           "NonFiniteError", "jacobian", "symplectic_residual", "log_volume", "causal_dependence",
           "CausalDependence", "canonical_J", "RTOL_ULPS", "RESOLUTION"]

# the classes are documented, raised and pickled as particles.verify's (tracebacks and doctests
# print particles.verify.StructureViolation, not the private module they are defined in)
for _cls in (CausalDependence, CausalReport, EnergyReport, NondeterministicError, NonFiniteError,
             OrderReport, Report, StructureViolation, SymplecticReport, Undecidable, VolumeReport):
    _cls.__module__ = __name__
del _cls

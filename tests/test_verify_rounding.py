"""particles.verify's tolerances at the edges of rounding: a stiff (anisotropic) Jacobian is tested
at its own rounding, entry by entry, and rounding accumulated over a long composition is
Undecidable, never a violation (the audit of 26 Nov 2026)."""
import math

import pytest
import torch

from particles._verify.outcome import ROUNDING_ZONE
from particles.verify import StructureViolation, Undecidable, assert_symplectic, assert_volume_preserving

F64 = torch.float64


def seeded(n: int, d: int, seed: int, dtype=F64) -> torch.Tensor:
    return torch.randn(n, d, generator=torch.Generator().manual_seed(seed), dtype=dtype)


@pytest.mark.parametrize("w", [1e3, 1e5])
def test_a_stiff_map_is_tested_at_its_own_rounding_entry_by_entry(w):
    """A 2-D map with columns of norms √c·w and √c/w and det D = c = 1 − 1e-6: symplectic ⇔ det = 1
    in 2-D, so both checks refuse it. The per-point scale ‖D‖_F² (1e10 at w = 1e5) let the
    symplectic check pass it (audit of 26 Nov 2026); the per-entry scale 2‖d_0‖‖d_1‖ = 2c is w-free."""
    c = 1 - 1e-6

    def stiff(z):
        q, p = z[..., :1], z[..., 1:]
        return math.sqrt(c) * torch.cat([p / w, -w * q], -1)
    z = seeded(8, 2, seed=0, dtype=F64)
    for check in (assert_symplectic, assert_volume_preserving):
        with pytest.raises(StructureViolation):
            check(stiff, z)
    exact = assert_symplectic(lambda z: torch.cat([z[..., 1:] / w, -w * z[..., :1]], -1), z)
    assert exact.tolerance < 1e-13


def test_rounding_accumulated_over_a_long_composition_is_undecidable_not_a_violation():
    """2000 leapfrog steps of the harmonic oscillator (linear, symplectic) in float64: the defect,
    ~33 eps, is rounding of the Jacobian product, above the 16-eps first-order bound but within
    ROUNDING_ZONE of it: Undecidable naming n_steps= (never a looser rtol, issue 37), never a
    violation; with rtol=1e-12 it holds. A real defect of the same composition (one Euler step
    inside it) is still a violation."""
    def flow(n, euler_at=None):
        def f(z):
            for k in range(n):
                q, p = z[..., :1], z[..., 1:]
                if k == euler_at:
                    q, p = q + 0.5 * p, p - 0.5 * q
                else:
                    p = p - 0.25 * q
                    q = q + 0.5 * p
                    p = p - 0.25 * q
                z = torch.cat([q, p], -1)
            return z
        return f
    z = seeded(8, 2, seed=0, dtype=F64)
    with pytest.raises(Undecidable, match="n_steps=") as err:
        assert_symplectic(flow(2000), z)
    assert not isinstance(err.value, AssertionError)
    assert assert_symplectic(flow(2000), z, rtol=1e-12).outcome == "holds"
    with pytest.raises(StructureViolation):
        assert_symplectic(flow(2000, euler_at=7), z)
    # the volume check, the same rule: |log det| of the composition is ~17 eps · Σ|D⁻¹ᵀ∘D| (1.05x
    # its 16-eps bound here; a violation until 26 Nov 2026); the Euler step (det = 1.25) is a
    # violation; a user's rtol is a stated resolution (no fixed zone), but the measured rounding
    # still holds: at rtol = 2 eps the same rounding (~8x) is inside it, Undecidable (a violation
    # until issue 37)
    eps = torch.finfo(F64).eps
    assert not isinstance(_outcome(assert_volume_preserving, flow(2000), z), AssertionError)
    assert assert_volume_preserving(flow(2000), z, rtol=1e-12).outcome == "holds"
    with pytest.raises(StructureViolation):
        assert_volume_preserving(flow(2000, euler_at=7), z)
    with pytest.raises(Undecidable, match="measured rounding"):
        assert_volume_preserving(flow(2000), z, rtol=2 * eps)


@pytest.mark.parametrize("dtype, gh", [(torch.float32, 1e-4), (torch.float64, 1e-12)])
def test_one_dissipative_step_well_above_its_bound_is_a_violation(dtype, gh):
    """A leapfrog step followed by friction (det Df = 1 − γh exactly), one map, no composition:
    |log det| = γh is 26x (float32, 1e-4) or 140x (float64, 1e-12) the first-order bound, beyond
    any measured accumulation (≤ 2.1x): a violation, not Undecidable (it was, under the 100x zone
    until 26 Nov 2026, second audit), in both checks; a user's rtol decides without a zone."""
    def friction(z):
        q, p = z[..., :1], z[..., 1:]
        p = p - 0.05 * torch.sin(q)
        q = q + 0.1 * p
        return torch.cat([q, (1 - gh) * (p - 0.05 * torch.sin(q))], -1)
    z = seeded(8, 2, seed=0, dtype=dtype)
    for check in (assert_volume_preserving, assert_symplectic):
        with pytest.raises(StructureViolation):
            check(friction, z)
    # rtol = γh/4: the tolerance is ~γh/2 (Σ|D⁻¹ᵀ∘D| ≈ 2), the defect ~2x it, inside the default
    # zone, and a violation at the resolution the user stated
    with pytest.raises(StructureViolation) as err:
        assert_volume_preserving(friction, z, rtol=gh / 4)
    assert 1 < err.value.report.max_defect / err.value.report.tolerance < ROUNDING_ZONE


def _outcome(check, f, z):
    """The report or the exception of one check (a pass and an Undecidable are both not a violation)."""
    try:
        return check(f, z)
    except (StructureViolation, Undecidable) as exc:
        return exc


def test_a_pass_reports_the_entry_closest_to_its_own_bound():
    """A shear q ← q + s·c·p, p ← c·p with s = 1e5, c = 1 − 1e-10: the residual's (0, 1) entry is
    1e-10, within its tolerance 2·16 eps·‖d_0‖‖d_1‖ ≈ 7e-10 (the map is symplectic to the
    resolution the report states). The report names that entry, not one with an exact 0 and a
    tolerance of 7e-15 (the largest |R| − tol did, until 26 Nov 2026: second audit)."""
    s, c = 1e5, 1 - 1e-10

    def shear(z):
        q, p = z[..., :1], c * z[..., 1:]
        return torch.cat([q + s * p, p], -1)
    report = assert_symplectic(shear, seeded(8, 2, seed=0))
    assert report.outcome == "holds" and 0.5e-10 < report.max_defect < report.tolerance
    assert "entry (0, 1)" in str(report) or "entry (1, 0)" in str(report)
    with pytest.raises(StructureViolation):  # the same map's volume: |log det| = 1e-10 ≫ 16 eps · 2
        assert_volume_preserving(shear, seeded(8, 2, seed=0))

"""particles.verify's tolerances at the edges of rounding: a stiff (anisotropic) Jacobian is tested
at its own rounding, entry by entry, and rounding accumulated over a long composition is
Undecidable, never a violation (the audit of 26 Nov 2026)."""
import math

import pytest
import torch

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
    ROUNDING_ZONE of it: Undecidable naming rtol=, never a violation; with rtol=1e-12 it holds. A
    real defect of the same composition (one Euler step inside it) is still a violation."""
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
    with pytest.raises(Undecidable, match="rtol=") as err:
        assert_symplectic(flow(2000), z)
    assert not isinstance(err.value, AssertionError)
    assert assert_symplectic(flow(2000), z, rtol=1e-12).outcome == "holds"
    with pytest.raises(StructureViolation):
        assert_symplectic(flow(2000, euler_at=7), z)
    # the volume check, the same rule: |log det| of the composition is ~17 eps · Σ|D⁻¹ᵀ∘D| (1.05x
    # its 16-eps bound here; a violation until 26 Nov 2026); at rtol = 2 eps it is ~8x the bound,
    # inside the zone on any rounding order; the Euler step (det = 1 + h² = 1.25) is a violation
    eps = torch.finfo(F64).eps
    assert not isinstance(_outcome(assert_volume_preserving, flow(2000), z), AssertionError)
    with pytest.raises(Undecidable, match="rtol=") as err:
        assert_volume_preserving(flow(2000), z, rtol=2 * eps)
    assert 1 < err.value.report.max_defect / err.value.report.tolerance < 100
    assert assert_volume_preserving(flow(2000), z, rtol=1e-12).outcome == "holds"
    with pytest.raises(StructureViolation):
        assert_volume_preserving(flow(2000, euler_at=7), z)


def _outcome(check, f, z):
    """The report or the exception of one check (a pass and an Undecidable are both not a violation)."""
    try:
        return check(f, z)
    except (StructureViolation, Undecidable) as exc:
        return exc

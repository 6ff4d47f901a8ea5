"""particles.verify on long compositions (issue 37, cases 1, 2 and 4): the rounding zone grows with
the rounding the Jacobian of a composition really carries (measured: against float64 for a float32
check, reseeded in float64) and with the number of composed steps when stated (`n_steps`), so a
long chaotic symplectic flow is never called a violation; a real defect beyond that rounding still
is; and no advice in a message, followed, passes a map that violates the property."""
import math
import re

import pytest
import torch

from particles._verify.outcome import ROUNDING_ZONE
from particles.threads import torch_threads
from particles.verify import (StructureViolation, Undecidable, assert_symplectic,
                              assert_volume_preserving)

F64, F32 = torch.float64, torch.float32


@pytest.fixture(autouse=True)
def _one_torch_thread():
    with torch_threads(1):
        yield


# ------------------------------------------------------------------ Hénon–Heiles, leapfrog
# H = (p_x² + p_y²)/2 + (x² + y²)/2 + x²y − y³/3, state (x, y, p_x, p_y); at E = 0.16 (escape
# energy 1/6) most of the shell is chaotic.


def hh_force(x, y):
    return -x - 2 * x * y, -y - x * x + y * y


def hh_flow(n, h, euler_at=None):
    """n Störmer–Verlet (leapfrog) steps of size h: symplectic by construction. euler_at=k makes
    step k an explicit Euler step (DᵀJD = J + O(h²) there): a real defect inside the flow."""
    def flow(z):
        x, y, px, py = z[..., 0], z[..., 1], z[..., 2], z[..., 3]
        for k in range(n):
            fx, fy = hh_force(x, y)
            if k == euler_at:
                x, y, px, py = x + h * px, y + h * py, px + h * fx, py + h * fy
                continue
            px, py = px + h / 2 * fx, py + h / 2 * fy
            x, y = x + h * px, y + h * py
            fx, fy = hh_force(x, y)
            px, py = px + h / 2 * fx, py + h / 2 * fy
        return torch.stack([x, y, px, py], -1)
    return flow


def on_shell(E, ys, dtype):
    """States (0, y, p_x, 0) with H = E (p_x > 0 from the energy)."""
    rows = [[0.0, y, math.sqrt(2 * (E - (y * y / 2 - y ** 3 / 3))), 0.0] for y in ys]
    return torch.tensor(rows, dtype=F64).to(dtype)


def outcome(check, f, z, **kwargs):
    """The report of a check, whatever its outcome (a violation, Undecidable or a pass)."""
    try:
        return check(f, z, **kwargs)
    except (StructureViolation, Undecidable) as exc:
        return exc.report


def test_a_long_chaotic_leapfrog_flow_is_not_a_violation_in_float64():
    """Case 1: 1500 leapfrog steps (h = 0.05) of Hénon–Heiles at E = 0.16, from y = −0.25 (‖Df‖_F
    2.6e5) and y = 0.2, where the defect is 52x the one-step bound, 13x ROUNDING_ZONE: a
    violation until issue 37, though the map is symplectic by construction (the defect is the
    rounding of a product of 1500 Jacobians). The reseeded Jacobian measures that rounding: the
    defect lies inside it, so the check is Undecidable (naming the measurement), never violated."""
    z = on_shell(0.16, (-0.25, 0.2), F64)
    report = outcome(assert_symplectic, hh_flow(1500, 0.05), z)
    assert report.outcome == "undecidable"
    assert report.max_defect / report.tolerance > ROUNDING_ZONE      # beyond the old fixed zone
    assert torch.linalg.matrix_norm(report.jacobian).max() > 1e5
    assert any("measured rounding of Df" in n and "seeded" in n for n in report.notes)
    # the same flow with one explicit Euler step inside (step 1400): a real defect, 1e8 times its
    # bound and far beyond its measured rounding, is still a violation
    with pytest.raises(StructureViolation, match="largest that rounding can make"):
        assert_symplectic(hh_flow(1500, 0.05, euler_at=1400), z)


def test_a_stated_number_of_steps_widens_the_zone_with_the_composition():
    """n_steps (the number of steps f composes) replaces the fixed zone by the composition model,
    (n − 1) · rtol · ‖Df‖₂ per column, linear in n: 1500 steps of the chaotic flow stay
    Undecidable with n_steps=1500; n_steps=1 states a single step, whose zone is the one-step
    bound."""
    z = on_shell(0.16, (0.2,), F64)
    flow = hh_flow(1500, 0.05)
    report = outcome(assert_symplectic, flow, z, n_steps=1500)
    assert report.outcome == "undecidable"
    assert any("n_steps = 1500" in n for n in report.notes)
    with pytest.raises(ValueError, match="n_steps"):
        assert_symplectic(flow, z, n_steps=0)


def test_float32_defects_inside_the_measured_rounding_are_undecidable_whatever_the_resolution():
    """Case 2: 600 leapfrog steps (h = 0.05) in float32, from y = −0.05 (the defect 2.5x its
    bound, the bound 1.7e-3 relative to J: coarser than resolution=1e-3, so the defect was
    "beyond the resolution" and a violation), y = 0.05 (8.4x) and y = −0.2 (resolution 1.7,
    coarser than the defect). Measured against the same flow in float64, every defect is the
    float32 Jacobian's rounding: Undecidable, with the fix (float64), not a violation. One
    Euler step at step 150 of 300 is a violation in float32 too."""
    z = on_shell(0.16, (-0.05, 0.05, -0.2), F32)
    for check in (assert_symplectic, assert_volume_preserving):
        report = outcome(check, hh_flow(600, 0.05), z)
        assert report.outcome == "undecidable", check.__name__
        assert any("float64" in n for n in report.notes)
    report = outcome(assert_symplectic, hh_flow(600, 0.05), z)
    assert report.max_defect > report.tolerance and report.resolution > 1e-3
    assert any("Jacobian in float64" in n for n in report.notes)
    with pytest.raises(StructureViolation):
        assert_symplectic(hh_flow(300, 0.05, euler_at=150), z)


# ------------------------------------------------------------------ advice, followed


def oscillator_rk4(z, h=0.01):
    """Classical RK4 for q' = p, p' = −q: |R(ih)|² = 1 − h⁶/72, so det Df = 1 − 1.4e-14 at
    h = 0.01: not symplectic, by 2x its one-step float64 bound and ~60x its measured rounding."""
    def field(v):
        return torch.cat([v[..., 1:], -v[..., :1]], -1)
    k1 = field(z)
    k2 = field(z + h / 2 * k1)
    k3 = field(z + h / 2 * k2)
    return z + h / 6 * (k1 + 2 * k2 + 2 * k3 + field(z + h * k3))


def explicit_euler(z, h=0.1):
    q, p = z[..., :1], z[..., 1:]
    return torch.cat([q + h * p, p - h * torch.sin(q)], -1)


def advice_followed(report, kwargs, z, steps):
    """Each fix the notes name, applied: (kwargs, x) for a re-check. "n_steps=" is answered
    truthfully (the steps f composes), "float64" by x.double(), "a smaller rtol" by the default."""
    text = " ".join(report.notes)
    runs = []
    if "n_steps=" in text:
        runs.append(({**kwargs, "n_steps": steps}, z))
    if "float64" in text and z.dtype != F64:
        runs.append((kwargs, z.double()))
    if "a smaller rtol" in text:
        runs.append(({k: v for k, v in kwargs.items() if k != "rtol"}, z))
    return runs


@pytest.mark.parametrize("check", [assert_symplectic, assert_volume_preserving])
@pytest.mark.parametrize("f, steps, dtype, kwargs", [
    (oscillator_rk4, 1, F64, {}),                  # case 4: Undecidable, its advice was rtol=1e-12
    (explicit_euler, 1, F32, {"rtol": 0.1}),       # too coarse: its advice was resolution=...
    (explicit_euler, 1, F64, {"rtol": 0.1}),
])
def test_no_advice_followed_passes_a_map_that_violates_the_property(check, f, steps, dtype, kwargs):
    """Case 4: RK4 on the oscillator at h = 0.01 in float64 (defect 1.4e-14, 2x its bound, inside
    the fixed zone) is Undecidable or violated; its notes never suggest a looser rtol= or
    resolution= (rtol=1e-12 passed it), and every fix they do name, applied, gives a violation
    or Undecidable again, never a pass. So for explicit Euler checked at a coarse rtol."""
    z = torch.randn(8, 2, generator=torch.Generator().manual_seed(0), dtype=F64).to(dtype)
    report = outcome(check, f, z, **kwargs)
    assert report.outcome != "holds"
    text = " ".join(report.notes)
    assert not re.search(r"(rtol|resolution)=\s*[0-9.]", text), text
    assert "rtol=..." not in text and "resolution=..." not in text
    runs = advice_followed(report, kwargs, z, steps)
    if report.outcome == "undecidable":
        assert runs, f"an Undecidable with no fix to follow: {text}"
    for again, x in runs:
        assert outcome(check, f, x, **again).outcome != "holds", (again, x.dtype)
    if f is oscillator_rk4:
        with pytest.raises(StructureViolation):   # one step, stated: decided at its own bound
            check(f, z, n_steps=1)

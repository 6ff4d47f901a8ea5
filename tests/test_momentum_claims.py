"""Seed 002 (momentum streams) claims of Appendix F and the rate texts: the counterexamples and
corrections behind their verdicts, the readings they weigh, and the core-install path (no PEPit)."""
import math
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import claims
from claims import _pepit
from claims.momentum_streams.contraction import hb_quadratic_scope
from claims.momentum_streams.families import _ln_momentum
from claims.momentum_streams.rates import nag_form_minimax, nesterov_lrp
from theory import preconditioning as P
from theory import rates as R

ALL = claims.load()


def test_hb_quadratic_scope_decides_without_pepit(monkeypatch):
    """Issue 27: on the core install (PEPit not importable) the full budget keeps the verdict of
    the core computation and says the cross-check was skipped (it raised a TypeError before)."""
    monkeypatch.setitem(sys.modules, "PEPit", None)  # `import PEPit` now raises ImportError
    assert not _pepit.available()
    assert _pepit.worst_case("quadratic", [R.gd_tuned(1.0, 4.0)], "distance", mu=1.0, L=4.0) is None
    evidence = hb_quadratic_scope("full")
    assert evidence.verdict == "holds"
    assert evidence.numbers["pepit"] == "cross-check skipped: PEPit not installed"


@given(st.floats(1.5, 1e4))
def test_nesterov_tuned_for_quadratics_is_still_slower_than_printed(kappa):
    """Lessard–Recht–Packard's NAG tuning has radius 1 − 2/√(3κ+1) (double root: 1e-7), strictly
    above the printed (√κ−1)/(√κ+1): the 'different tuning' reading of §3.2 fails too."""
    rate = R.worst_case_rate(nesterov_lrp(kappa), 1.0, kappa)[0]
    assert rate == pytest.approx(1 - 2 / math.sqrt(3 * kappa + 1), abs=1e-7)
    assert rate > R.rate_momentum(kappa) + 1e-6


@pytest.mark.parametrize("kappa", [2.0, 100.0])
def test_no_nag_form_tuning_beats_lrp(kappa):
    """Nelder–Mead over (β, γ) with lookahead = momentum finds nothing below LRP's rate (1e-7)."""
    assert nag_form_minimax(kappa) >= 1 - 2 / math.sqrt(3 * kappa + 1) - 1e-7


@given(st.floats(1.5, 1e4))
def test_classical_nag_has_a_double_root_at_m(kappa):
    """§3.2's counterexample: α(m)² = 4θ(m) for classical NAG, the root α/2 = 1 − 1/√κ."""
    alpha, theta = R.char_coefficients(R.nesterov_classical(1.0, kappa), np.array([1.0]))
    assert alpha[0] ** 2 == pytest.approx(4 * theta[0], rel=1e-12)
    assert alpha[0] / 2 == pytest.approx(1 - 1 / math.sqrt(kappa), rel=1e-12)


@given(st.floats(0.0, 1.0), st.floats(0.0, 0.99), st.floats(0.01, 0.5), st.floats(0.2, 3.0),
       st.integers(0, 2**32 - 1))
def test_layer_norm_velocity_fixes_the_step_length(mu, beta, gamma, nu, seed):
    """With LN_v (§4.1) every step of the velocity form moves each token row by exactly ν√d: ν is
    a genuine degree of freedom there (YuriiFormer, ν = 1, has √d), unlike in the optimizer form."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((6, 5))
    X0 = rng.standard_normal((3, 5))
    xs = _ln_momentum(lambda X: np.tanh(X @ A.T) @ A, X0, [(mu, beta, gamma, nu)] * 8)
    steps = np.linalg.norm(np.diff(xs, axis=0), axis=-1)
    assert np.allclose(steps, nu * math.sqrt(5), rtol=1e-12)
    assert np.allclose(P.layer_norm(xs[1] - xs[0]) * nu, xs[1] - xs[0], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("claim_id", [
    "momentum_streams:lemma-F.2", "momentum_streams:nesterov-rate-text",
    "momentum_streams:tmm-stronger-than-nesterov-text", "momentum_streams:thm-F.4"])
def test_errata_fail_under_every_reading_and_keep_their_correction(claim_id):
    evidence = claims.run(ALL[claim_id], "quick").evidence
    assert evidence.verdict == "holds-with-correction"
    assert evidence.readings and all(r["verdict"] == "fails" for r in evidence.readings)
    assert evidence.correction and evidence.counterexample


def test_thm_f4_printed_threshold_is_not_strict_at_an_integer_ratio():
    """Theorem F.4's counterexample: C_mom = r² (r = ρ_van/ρ_mom at κ = 100) gives the printed
    N₀ = ⌈log C/log r⌉ = 2, where C·ρ_mom^N = ρ_van^N (equality, not 'strictly lower'); the
    corrected ⌊·⌋ + 1 = 3 is strict from there on."""
    import math

    from claims.momentum_streams.depth import _threshold_arithmetic
    from theory import rates as R
    kappa = 100.0
    rv, rm = R.rate_vanilla(kappa), R.rate_momentum(kappa)
    C = (rv / rm) ** 2
    N0 = R.threshold_printed(C, rv, rm)
    assert N0 == 2 and math.isclose(C * rm ** N0, rv ** N0, rel_tol=1e-12)
    a = _threshold_arithmetic(kappa)
    assert any(f["C_mom"] == pytest.approx(C) and f["N0"] == 2 for f in a["printed_N0_not_strict"])
    assert not a["intended_N0_not_strict"]


def test_an_existential_can_have_holds_and_its_invented_every_depth_reading_does_not_decide():
    """Lemma F.2's "can have a strictly better finite-depth worst-case factor" (issue 38, R3): the
    reading that demands the lemma's own coefficients win at every depth is shown, not admitted,
    and the verdict is a plain hold."""
    evidence = claims.run(ALL["momentum_streams:lemma-F.2-finite-depth"], "quick").evidence
    failing = [r.get("not_admitted", "") for r in evidence.readings if r["verdict"] == "fails"]
    assert evidence.verdict == "holds" and not evidence.ambiguity
    assert failing and all(reason.startswith("R3") for reason in failing)


def test_triple_momentum_is_the_papers_template_not_a_method_it_never_cites():
    """'triple momentum is an optimal first-order method for strongly convex quadratics' (§1, D.7):
    the paper defines its TMM as a template (A.2) and never cites Van Scoy-Freeman-Lynch, whose
    radius 1 − 1/√κ misses the Chebyshev rate: those readings are shown, not admitted (R1); the
    template at its best coefficients reaches the Chebyshev rate, a plain hold (7 Dec 2026)."""
    result = claims.run(ALL["momentum_streams:tmm-optimal-quadratics-text"], "quick")
    vsfl_exact, vsfl_complexity, template = result.evidence.readings
    assert vsfl_exact["verdict"] == "fails" and vsfl_exact["not_admitted"].startswith("R1")
    assert vsfl_complexity["not_admitted"].startswith("R1") and "not_admitted" not in template
    assert template["verdict"] == "holds" and result.kind == "holds" and not result.evidence.ambiguity
    assert result.as_expected

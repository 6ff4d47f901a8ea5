"""particles.verify and the maps as users write them (issue 37, cases 3 and 5): a step that
updates its argument in place is checked like one that copies it, and no check changes the
caller's tensors; a decorated map is named by the user's function; a dtype mismatch is named as
one; no error text is cut mid-word."""
import functools
import math

import pytest
import torch
from torch import nn

from particles._verify.outcome import clip
from particles.threads import torch_threads
from particles.verify import (StructureViolation, assert_causal, assert_conformally_symplectic,
                              assert_energy_bounded, assert_order, assert_symplectic,
                              assert_volume_preserving, causal_dependence, jacobian, log_volume,
                              symplectic_residual)

F64 = torch.float64


@pytest.fixture(autouse=True)
def _one_torch_thread():
    with torch_threads(1):
        yield


def pendulum_field(z):
    return torch.cat([z[..., 1:], -torch.sin(z[..., :1])], -1)


def energy(z):
    return z[..., 1] ** 2 / 2 - torch.cos(z[..., 0])


def leapfrog_in_place(z, h=0.1):
    """A leapfrog step of the pendulum written in place: it updates z and returns it (sin saves
    the q it reads, which the next update changes: reverse mode refuses it)."""
    q, p = z[..., :1], z[..., 1:]
    p -= h / 2 * torch.sin(q)
    q += h * p
    p -= h / 2 * torch.sin(q)
    return z


def leapfrog_in_place_copy(z, h=0.1):
    """The same step, returning a copy of the updated argument (it was called non-deterministic:
    the first call changed the input of the second)."""
    return leapfrog_in_place(z, h).clone()


def damped_in_place(z, h=0.1, gamma=0.5):
    """Damped symplectic Euler in place: conformally symplectic with factor e^{−γh}."""
    q, p = z[..., :1], z[..., 1:]
    p.mul_(math.exp(-gamma * h)).sub_(h * torch.sin(q))
    q += h * p
    return z


def euler_in_place(z, h=0.1):
    q, p = z[..., :1], z[..., 1:]
    old_q = q.clone()
    q += h * p
    p -= h * torch.sin(old_q)
    return z


def energy_in_place(z):
    """H written in place: squares the momenta of its argument."""
    p2 = z[..., 1].square_()
    return p2 / 2 - torch.cos(z[..., 0])


def bits(t):
    return t.detach().clone().view(torch.int64 if t.dtype == F64 else torch.int32)


def measured(measurement, step, z):
    """A public measurement of an in-place step: its Jacobian is taken in forward mode, with a
    UserWarning saying so (reverse mode refuses the in-place update of a tensor it saved)."""
    with pytest.warns(UserWarning, match="forward mode"):
        return measurement(step, z)


@pytest.mark.parametrize("step", [leapfrog_in_place, leapfrog_in_place_copy])
def test_a_step_that_updates_its_argument_is_checked_like_one_that_copies_it(step):
    """Case 3: each check gets a fresh copy of its input at every call; the in-place step (which
    raised torch's RuntimeError from inside jacrev) and its copying twin (called non-deterministic,
    with advice to call .eval()) pass, and the caller's tensor is bitwise unchanged after each
    public assert_* and measurement."""
    z = torch.randn(6, 2, generator=torch.Generator().manual_seed(0), dtype=F64)
    before = bits(z)
    checks = [
        lambda: assert_symplectic(step, z),
        lambda: assert_volume_preserving(step, z),
        lambda: assert_conformally_symplectic(damped_in_place, z, math.exp(-0.05)),
        lambda: measured(jacobian, step, z),
        lambda: measured(symplectic_residual, step, z),
        lambda: measured(log_volume, step, z),
        lambda: assert_order(lambda x, h: step(x, h), z, 1.0, 2, rhs=pendulum_field),
        lambda: assert_energy_bounded(step, energy_in_place, z, 2000),   # many periods
    ]
    for check in checks:
        check()
        assert torch.equal(bits(z), before)
    with pytest.raises(StructureViolation, match="not symplectic"):   # a verdict, not a crash
        assert_symplectic(euler_in_place, z)
    assert torch.equal(bits(z), before)


def test_causal_checks_leave_the_callers_tensor_unchanged():
    """An in-place causal map (a prefix sum written with cumsum_) passes both passes of
    assert_causal, and x is bitwise unchanged after it and after causal_dependence."""
    x = torch.randn(2, 6, 3, generator=torch.Generator().manual_seed(1), dtype=F64)
    before = bits(x)
    assert assert_causal(lambda v: v.cumsum_(1), x).method == "jacobian+perturbation"
    assert torch.equal(bits(x), before)
    causal_dependence(lambda v: v.cumsum_(1), x)
    assert torch.equal(bits(x), before)


# ------------------------------------------------------------------ names and messages


@torch.no_grad()
def leapfrog_no_grad(z, h=0.1):
    q, p = z[..., :1], z[..., 1:]
    p = p - h / 2 * torch.sin(q)
    q = q + h * p
    p = p - h / 2 * torch.sin(q)
    return torch.cat([q, p], -1)


@torch.no_grad()
def stretch_no_grad(z):
    return 1.01 * z


def logged(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)
    return wrapper


def test_a_decorated_map_is_named_by_the_users_function():
    """Case 5: @torch.no_grad() (torch's wrapper, in _contextlib.py) and any functools.wraps
    decorator: the report names the function it wraps, with this file and line. Under no_grad
    reverse mode sees no dependence (jacrev returns 0, a false violation): the Jacobian is taken
    in forward mode, so the symplectic step passes and the stretch is refused."""
    z = torch.randn(4, 2, generator=torch.Generator().manual_seed(2), dtype=F64)
    report = assert_symplectic(leapfrog_no_grad, z)
    assert report.f.startswith("leapfrog_no_grad (test_verify_inputs.py:")
    assert any("forward mode" in n for n in report.notes)
    with pytest.raises(StructureViolation, match=r"^stretch_no_grad \(test_verify_inputs\.py:\d+\) "
                                                 r"is not symplectic"):
        assert_symplectic(stretch_no_grad, z)
    for f in (logged(leapfrog_no_grad), functools.partial(logged(leapfrog_no_grad), h=0.1)):
        assert assert_symplectic(f, z).f.startswith("leapfrog_no_grad (test_verify_inputs.py:")
    assert "_contextlib" not in assert_volume_preserving(leapfrog_no_grad, z).f


def test_a_dtype_mismatch_is_named_as_one_not_as_an_indexing_error():
    """A float32 module on a float64 state fails inside f: the hint names the dtypes and the
    conversion, not indexing axes (it said "index the state's own axes from the end")."""
    layer = nn.Linear(2, 2)                      # float32 weights
    z = torch.randn(4, 2, dtype=F64)
    with pytest.raises(ValueError) as err:
        assert_symplectic(layer, z)
    text = str(err.value)
    assert "dtype" in text and "module.double()" in text
    assert "index" not in text and "z[..., 0]" not in text


def test_error_text_is_never_cut_mid_word():
    """A long error of f is shortened at a word boundary and marked "…"; every word kept is a
    whole word of the original."""
    words = [f"word{k}" for k in range(80)]

    def fails(z):
        raise RuntimeError(" ".join(words))
    with pytest.raises(ValueError) as err:
        assert_symplectic(fails, torch.zeros(2, 2, dtype=F64))
    kept = str(err.value).split("RuntimeError: ", 1)[1].split(" …", 1)[0].split()
    assert kept and all(w in words for w in kept)
    long = "x" * 20 + " " + " ".join(words)
    for limit in (5, 21, 40, 77, 120):
        short = clip(long, limit)
        assert short == long or short.endswith(" …")
        assert all(w in long.split() for w in short.removesuffix(" …").split())

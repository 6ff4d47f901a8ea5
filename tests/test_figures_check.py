"""Reproducible figure data and `python -m figures --check` (figures/_registry.py, figures/_check.py),
on small synthetic folders: the full regeneration is never run here."""
import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import figures
from figures import Context
from figures import __main__ as figures_cli
from figures._check import (EXACT, LEDGER, SHOWN, Tolerance, compare, compare_png, compare_text,
                            figure_pairs, strays)
from figures._registry import _FIGURES, Figure, rounded

# normal floats (below 1e-300 the subnormals lose relative precision on their own)
finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300,
                   max_value=1e300).filter(lambda v: v == 0 or abs(v) > 1e-300)


# --------------------------------------------------------------------------------- the writer

@given(x=finite, digits=st.integers(1, 15))
def test_rounding_keeps_digits_significant_digits(x, digits):
    """|round(x) − x| ≤ ½ unit in the digits-th significant digit (5·10^−digits·|x|), and the
    rounded value is its own rounding (it has at most `digits` significant digits)."""
    r = rounded(x, digits)
    assert abs(r - x) <= 5 * 10.0 ** -digits * abs(x) * (1 + 1e-12)
    assert rounded(r, digits) == r


@given(x=finite, digits=st.integers(2, 12),
       noise=st.floats(-1e-13, 1e-13))
def test_two_machines_write_files_the_check_accepts(x, digits, noise):
    """The contract between writer and checker: values that differ by float-kernel noise (relative
    1e-13, three orders above one ulp) are written either identically or one unit apart in the
    last digit, which --check accepts."""
    y = x * (1 + noise)
    a, b = repr(rounded(x, digits)), repr(rounded(y, digits))
    assert compare_text(f"v,{a}\n", f"v,{b}\n", Tolerance.at(digits)) == []


def test_floor_writes_rounding_noise_as_zero_and_keeps_the_rest():
    data = {"defect": [3e-16, -2e-14, -0.0, 0.125, float("1e-12")], "n": 3, "label": "x"}
    assert rounded(data, 3, floor=1e-13) == {"defect": [0.0, 0.0, 0.0, 0.125, 1e-12], "n": 3,
                                             "label": "x"}
    assert math.copysign(1, rounded(-1e-20, 6, floor=1e-13)) == 1.0  # never "-0.0"
    assert rounded([0.1 + 0.2, "nan"], None) == [0.30000000000000004, "nan"]  # None: as computed


def test_float_keys_are_rounded_too_and_may_not_collide():
    """A κ grid used as keys is written at the figure's precision (`9.391585430568988` with AVX-512
    kernels, `9.39158543056899` with AVX2 ones: both `9.39159`)."""
    assert rounded({9.391585430568988: np.float64(1 / 3), "k": np.arange(2)}, 6) == {
        9.39159: 0.333333, "k": [0, 1]}
    with pytest.raises(ValueError, match="round to the same"):
        rounded({1.0000001: 1, 1.0000002: 2}, 6)


@pytest.mark.parametrize("digits, floor", [(0, 0.0), (18, 0.0), (2.0, 0.0), (True, 0.0),
                                           (6, -1.0), (6, float("nan"))])
def test_figure_refuses_a_bad_precision(digits, floor):
    with pytest.raises(ValueError, match="digits" if floor == 0.0 else "floor"):
        figures.figure("probe-bad", digits=digits, floor=floor)


@pytest.fixture
def probe(monkeypatch):
    """A registered figure `probe` at 3 digits above a floor 1e-10 (removed after the test)."""
    def draw(ctx):
        """probe"""
    monkeypatch.setitem(_FIGURES, "probe", Figure("probe", draw, (), "probe", 3, 1e-10))
    return _FIGURES["probe"]


def test_context_writes_data_at_the_figures_precision(tmp_path, probe):
    ctx = Context(out=tmp_path, budget="quick", name="probe")
    ctx.save_csv(["x", "defect", "n"], [(np.float64(0.123456), 1e-12, 3), (2.0, 0.5, 4)])
    ctx.save_json({"x": [np.float64(2 / 3), 1e-11], "k": 7})
    assert (tmp_path / "probe.csv").read_text() == "x,defect,n\n0.123,0.0,3\n2.0,0.5,4\n"
    assert (tmp_path / "probe.json").read_text() == '{\n  "k": 7,\n  "x": [\n    0.667,\n    0.0\n  ]\n}\n'


def test_a_figure_draws_the_values_its_data_file_holds(tmp_path, probe):
    """`ctx.written`: rounding-level values are drawn as written (0.0), not as this machine's
    noise, so the image does not depend on the float kernels either."""
    ctx = Context(out=tmp_path, budget="quick", name="probe")
    assert ctx.written(np.array([0.123456, 1e-12, -2.0])).tolist() == [0.123, 0.0, -2.0]


def test_every_computed_figure_states_its_precision():
    """Only the peer benchmarks, whose data is the committed measurement copied as read, may write
    full precision; every other figure rounds (its module says why)."""
    for f in figures.load().values():
        assert f.digits is not None or f.name.startswith("bench-"), f"{f.name}: no digits"


# -------------------------------------------------------------------------------- the checker

def test_text_within_one_last_digit_is_the_same():
    tol = Tolerance.at(6)
    assert compare_text("a,0.164304\nb,2.5e-07\n", "a,0.164305\nb,2.50001e-07\n", tol) == []


def test_text_differences_are_named_with_line_and_values():
    tol = Tolerance.at(6)
    found = compare_text("t,q\n0.4,1.21485\n0.8,1.33\n", "t,q\n0.4,1.21495\n0.8,1.33\n", tol)
    assert len(found) == 1 and found[0].startswith("line 2: 1.21485 -> 1.21495"), found


def test_integers_must_be_equal_even_within_the_relative_tolerance():
    """Counts, seeds and sizes are exact: 100 -> 101 is within rtol 0.1 but named."""
    assert len(compare_text("n = 100\n", "n = 101\n", Tolerance(rtol=0.1))) == 1
    assert compare_text("n = 100.0\n", "n = 101.0\n", Tolerance(rtol=0.1)) == []


def test_numbers_inside_names_are_text():
    """`seed0`, `x86`, `fig-7ab` are words: a change there is a text difference, not a number."""
    found = compare_text("H_resnet_seed0,1.0\n", "H_resnet_seed1,1.0\n", Tolerance(rtol=1.0))
    assert len(found) == 2 and "committed `H_resnet_seed0,1.0`" in found[0]


def test_an_inserted_line_is_named_once_and_the_rest_still_compared():
    tol = Tolerance.at(6)
    found = compare_text("a 1.0\nb 2.0\nc 3.0\n", "a 1.0\nnew 9.0\nb 2.0\nc 3.5\n", tol)
    assert found == ["line 2: regenerated `new 9.0` is not committed",
                     "line 3: 3.0 -> 3.5 (allowed: rtol 1e-05, atol 0e+00) in `c 3.0`"], found


def test_values_at_the_floor_may_be_zero_on_one_side():
    tol = Tolerance.at(6, floor=1e-13)
    assert compare_text("d 0.0\n", "d 1.5e-13\n", tol) == []
    assert len(compare_text("d 0.0\n", "d 3e-13\n", tol)) == 1


def test_ledger_page_bound_reads_as_the_floor():
    """claims._report prints floats below FLOAT_FLOOR (1e-12) as `|x| < 1e-12`; one just above
    prints as a number: the same at the page's precision. A clearly larger value is named."""
    from claims._report import FLOAT_FLOOR
    assert FLOAT_FLOOR == 1e-12
    assert compare_text("err |x| < 1e-12 ok\n", "err 1.02e-12 ok\n", LEDGER) == []
    assert compare_text("err 0.441\n", "err 0.442\n", LEDGER) == []
    assert len(compare_text("err |x| < 1e-12 ok\n", "err 5e-11 ok\n", LEDGER)) == 1
    assert len(compare_text("err 0.441\n", "err 1.25\n", LEDGER)) == 1


def _png(path, y):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1, 2], y)
    fig.savefig(path, dpi=60, metadata={"Software": None})
    plt.close(fig)
    return path


def test_png_same_drawing_is_the_same_and_a_moved_curve_is_named(tmp_path):
    a = _png(tmp_path / "a.png", [0, 1, 0])
    assert compare_png(a, _png(tmp_path / "b.png", [0, 1, 0])) == []
    assert compare_png(a, _png(tmp_path / "c.png", [0, 1 + 1e-9, 0])) == []  # below a pixel
    found = compare_png(a, _png(tmp_path / "d.png", [0, 0.5, 0]))
    assert len(found) == 1 and found[0].startswith("image RMS difference"), found


def test_png_of_another_size_is_named(tmp_path):
    a = _png(tmp_path / "a.png", [0, 1, 0])
    fig = plt.figure(figsize=(4, 2))
    fig.savefig(tmp_path / "b.png", dpi=60)
    plt.close(fig)
    assert compare_png(a, tmp_path / "b.png")[0].startswith("image size")


def test_save_keeps_a_png_that_is_the_same_image_and_rewrites_a_changed_one(tmp_path):
    """What another machine's rerun does to a committed PNG: an image within --check's tolerance
    keeps its bytes (git sees no change), a changed drawing is written."""
    import matplotlib.image as mpimg

    def draw(y):
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.plot([0, 1, 2], y)
        return fig

    ctx = Context(out=tmp_path, budget="quick", name="probe")
    path = ctx.save(draw([0, 1, 0]))
    image = mpimg.imread(path)
    image[10, 10, :3] = np.clip(image[10, 10, :3] + 2 / 255, 0, 1)  # one edge pixel, 2 levels
    mpimg.imsave(path, image)
    other_machine = path.read_bytes()
    ctx.save(draw([0, 1, 0]))
    assert path.read_bytes() == other_machine
    ctx.save(draw([0, 0.5, 0]))
    fresh = Context(out=tmp_path / "fresh", budget="quick", name="probe").save(draw([0, 0.5, 0]))
    assert path.read_bytes() == fresh.read_bytes() != other_machine


def test_compare_names_missing_files_and_counts_what_it_does_not_list(tmp_path):
    committed, regenerated = tmp_path / "docs", tmp_path / "check"
    committed.mkdir()
    regenerated.mkdir()
    (committed / "only-committed.csv").write_text("x\n")
    (regenerated / "only-regenerated.csv").write_text("x\n")
    n = SHOWN + 5
    (committed / "many.csv").write_text("".join(f"{i}.0\n" for i in range(n)))
    (regenerated / "many.csv").write_text("".join(f"{i}.5\n" for i in range(n)))
    report = compare([(committed / f, regenerated / f, EXACT)
                      for f in ("only-committed.csv", "only-regenerated.csv", "many.csv")])
    assert "only-committed.csv: committed, not regenerated" in report[0]
    assert "only-regenerated.csv: not committed, regenerated as" in report[1]
    assert len(report) == 2 + SHOWN + 1 and report[-1].endswith("… 5 more differences")


def test_figure_pairs_and_strays(tmp_path):
    committed, regenerated = tmp_path / "docs", tmp_path / "check"
    committed.mkdir()
    regenerated.mkdir()
    for folder in (committed, regenerated):
        for f in ("rates.png", "rates.csv", "rates-extra.png"):
            (folder / f).write_text("")
    (committed / "gone.json").write_text("")
    (committed / ".cache").mkdir()
    spec = Figure("rates", lambda ctx: None, (), "", 4, 1e-12)
    pairs = figure_pairs([spec], committed, regenerated)
    assert [p[0].name for p in pairs] == ["rates.csv", "rates.png"]  # not rates-extra's files
    assert pairs[0][2] == Tolerance(1e-3, 2e-12)
    assert [s.split(": ")[1] for s in strays(committed, ["rates", "rates-extra"])] == [
        "committed, written by no figure"]


# ------------------------------------------------------------------------ the command line

@pytest.fixture
def folders(tmp_path, monkeypatch):
    """docs/figures and runs/figures/check of `python -m figures --check` moved under tmp_path,
    with a committed probe figure whose draw writes probe.csv = `x\\n0.5\\n` at 3 digits."""
    committed, scratch = tmp_path / "docs" / "figures", tmp_path / "runs" / "check"
    committed.mkdir(parents=True)
    monkeypatch.setattr(figures_cli, "COMMITTED_OUT", committed)
    monkeypatch.setattr(figures_cli, "CHECK_OUT", scratch)

    def draw(ctx):
        ctx.save_csv(["x"], [(0.5004,)])
    monkeypatch.setitem(_FIGURES, "probe", Figure("probe", draw, (), "probe", 3, 0.0))
    return committed, scratch


@pytest.mark.parametrize("committed_value, code", [("0.5", 0), ("0.501", 0), ("0.51", 1)])
def test_check_command_compares_with_the_committed_files(folders, capsys, committed_value, code):
    committed, scratch = folders
    (committed / "probe.csv").write_text(f"x\n{committed_value}\n")
    (scratch / "stale").mkdir(parents=True)  # emptied before regenerating
    assert figures_cli.main(["--check", "--only", "probe"]) == code
    out, err = capsys.readouterr()
    assert (scratch / "probe.csv").read_text() == "x\n0.5\n" and not (scratch / "stale").exists()
    if code:
        assert "DIFFERS" in err and "probe.csv: line 2: 0.51 -> 0.5" in err
        assert "check: 1 difference(s)" in out
    else:
        assert "DIFFERS" not in err and "check: 0 difference(s)" in out


def test_check_names_a_committed_file_the_figure_no_longer_writes(folders, capsys):
    committed, _ = folders
    (committed / "probe.csv").write_text("x\n0.5\n")
    (committed / "probe.json").write_text("{}\n")
    assert figures_cli.main(["--check", "--only", "probe"]) == 1
    assert "probe.json: committed, not regenerated" in capsys.readouterr().err

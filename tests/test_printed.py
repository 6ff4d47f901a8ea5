"""claims/_printed.py: a printed number stands for its half-open rounding interval, one helper for
every paper (printed_interval, rounds_to, meets)."""
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from claims._printed import meets, printed_interval, rounds_to

decimals = st.decimals(min_value="-1000", max_value="1000", places=3, allow_nan=False).map(str)


@given(decimals)
def test_rounds_to_is_the_half_open_interval(text):
    """Its lower end rounds to the printed number, its upper end to the next one (round half up)."""
    lo, hi = printed_interval(text, exact=True)
    assert rounds_to(float(lo), text) and not rounds_to(float(hi), text)
    assert rounds_to(float(Decimal(text)), text)


@given(decimals, st.sampled_from([1e3, 1e6, 1e9]))
def test_rounds_to_reads_the_printed_unit(text, scale):
    """'4.92B' is rounds_to(v, "4.92", 1e9): the interval of the printed digits, in that unit."""
    value = float(Decimal(text)) * scale
    assert rounds_to(value, text, scale)
    step = float(Decimal(1).scaleb(Decimal(text).as_tuple().exponent)) * scale
    assert not rounds_to(value + step, text, scale) and not rounds_to(value - step, text, scale)


@given(st.floats(0, 100), st.integers(0, 3))
def test_a_value_rounds_to_its_own_printed_digits(x, k):
    """A float formatted at k digits lies in the interval of what is printed (formatting rounds the
    exact binary value; at an exact tie it rounds half to even, onto the interval's open end)."""
    text = f"{x:.{k}f}"
    assert rounds_to(x, text) or x == float(printed_interval(text, exact=True)[1])


def test_adjacent_printed_numbers_share_no_value():
    """0.065 and 0.066 touch at 0.0655, which only 0.066 stands for (its lower end)."""
    assert rounds_to(0.0655, "0.066") and not rounds_to(0.0655, "0.065")
    assert not meets(printed_interval("0.066"), 0.0650, 0.0655)

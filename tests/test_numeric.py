"""The numeric engine: the paper's evidence numbers, the high-precision targets, wrong inputs."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symnorm.engines.numeric import (
    _Map,
    batch_pair,
    closed_jacobian,
    cross_check,
    finite_difference_error,
    float64_fd_error,
    mp_context,
)
from symnorm.errors import LimitError, SpecError
from symnorm.spec import layer_norm, rms_norm

TENTH = sympy.Rational(1, 10)
# the paper's evidence (math.md), typed in
PAPER_J = [[0.23993835872757036, -0.3286112304312372, 0.08867287170366717],
           [-0.3286112304312372, 0.5007409225618855, -0.17212969213064816],
           [0.08867287170366717, -0.17212969213064816, 0.08345682042698094]]
PAPER_FLOAT64_ERROR = 1.384497516632166e-10
PAPER_BN = 0.9950371902099893


def test_paper_point_high_precision():
    res = cross_check(layer_norm(3, TENTH), [1, 2, 4], dps=50)
    assert res.max_abs_error < mpmath.mpf("1e-45")
    assert res.agreeing_digits >= 45
    for row, paper_row in zip(res.jacobian_floats(), PAPER_J):
        for a, b in zip(row, paper_row):
            assert abs(a - b) < 1e-15


def test_paper_float64_error_reproduced():
    err = float64_fd_error(layer_norm(3, TENTH), [1, 2, 4])
    assert err == pytest.approx(PAPER_FLOAT64_ERROR, rel=1e-15, abs=0)


def test_float64_error_depends_on_step():
    spec = layer_norm(3, TENTH)
    assert float64_fd_error(spec, [1, 2, 4], h=1e-3) > 1e-8
    assert float64_fd_error(spec, [1, 2, 4], h=1e-6) != float64_fd_error(spec, [1, 2, 4],
                                                                          h=1e-5)


def test_batch_pair_paper_values():
    plus, minus = batch_pair(2, "1/100"), batch_pair(-2, "1/100")
    assert plus["float64"] == pytest.approx(-PAPER_BN, abs=1e-15)
    assert minus["float64"] == pytest.approx(PAPER_BN, abs=1e-15)
    assert sympy.simplify(plus["exact"] + 2 / sympy.sqrt(4 + 4 * sympy.Rational(1, 100))) == 0
    assert abs(plus["mp"] - plus["float64"]) < 1e-15
    with pytest.raises(SpecError, match="zero variance"):
        batch_pair(0, 0)
    with pytest.raises(SpecError, match="eps must be >= 0"):
        batch_pair(2, -1)


def test_precision_increases_agreement():
    spec = layer_norm(4, TENTH)
    lo = cross_check(spec, [1, -2, 3, 5], dps=20)
    hi = cross_check(spec, [1, -2, 3, 5], dps=80)
    assert lo.max_abs_error < mpmath.mpf("1e-17")
    assert hi.max_abs_error < mpmath.mpf("1e-75")
    assert hi.agreeing_digits > lo.agreeing_digits


def test_plain_central_differences_stall():
    # without managing the step, 50-digit central differences cannot reach 1e-45
    m = _Map.of(layer_norm(3, TENTH), 3)
    ctx = mp_context(50)
    xs = [ctx.mpf(1), ctx.mpf(2), ctx.mpf(4)]
    J = closed_jacobian(ctx, m, xs)
    h = ctx.mpf("1e-16")
    from symnorm.engines.numeric import normalize
    worst = 0
    for j in range(3):
        xp, xm = list(xs), list(xs)
        xp[j] += h
        xm[j] -= h
        fp, fm = normalize(ctx, m, xp), normalize(ctx, m, xm)
        worst = max(worst, max(abs((fp[i] - fm[i]) / (2 * h) - J[i][j]) for i in range(3)))
    assert worst > mpmath.mpf("1e-45")


@pytest.mark.parametrize("wrong", [layer_norm(3, TENTH, eps_inside=False),
                                   layer_norm(3, TENTH, var_denominator="N-1"),
                                   rms_norm(3, TENTH), layer_norm(3, "1/5")])
def test_wrong_closed_form_is_caught(wrong):
    # J from a different map must not pass as the Jacobian of LayerNorm(eps = 1/10)
    right = _Map.of(layer_norm(3, TENTH), 3)
    ctx = mp_context(50)
    xq = [Fraction(1), Fraction(2), Fraction(4)]
    J_wrong = closed_jacobian(ctx, _Map.of(wrong, 3), [ctx.mpf(q) for q in (1, 2, 4)])
    err, _, _ = finite_difference_error(right, xq, J_wrong, ctx.prec)
    assert err > mpmath.mpf("1e-3")
    J_right = closed_jacobian(ctx, right, [ctx.mpf(q) for q in (1, 2, 4)])
    assert finite_difference_error(right, xq, J_right, ctx.prec)[0] < mpmath.mpf("1e-45")


@pytest.mark.parametrize("dps", [5, 9, 1001, 10 ** 7, "50", 50.0, True])
def test_dps_validation(dps):
    with pytest.raises((SpecError, LimitError), match="dps"):
        cross_check(layer_norm(3, TENTH), [1, 2, 4], dps=dps)


@pytest.mark.parametrize("spec, x, fragment", [
    (layer_norm(3, 0), [3, 3, 3], "zero variance"),
    (layer_norm(3, TENTH), [1, 2], "d=3 entries"),
    (layer_norm(3, TENTH), [1, "two", 3], "x\\[2\\]"),
    (layer_norm(None, TENTH), [1, 2, 3], "symbolic d"),
])
def test_bad_inputs(spec, x, fragment):
    with pytest.raises(SpecError, match=fragment):
        cross_check(spec, x)


def test_global_precision_untouched():
    mpmath.mp.dps = 15
    cross_check(layer_norm(5, TENTH), [1, 2, 3, 4, 6], dps=200)
    assert mpmath.mp.dps == 15


def test_d256():
    rng = random.Random(0)
    x = [sympy.Rational(rng.randint(-100, 100), rng.randint(1, 9)) for _ in range(256)]
    res = cross_check(layer_norm(256, TENTH), x, dps=50)
    assert res.max_abs_error < mpmath.mpf("1e-45")


rationals = st.fractions(min_value=-50, max_value=50, max_denominator=20)


@settings(deadline=None, max_examples=30)
@given(d=st.integers(2, 10), data=st.data(), eps=st.sampled_from(["1/10", "2", "1/1000"]),
       kind=st.integers(0, 3))
def test_property_agreement(d, data, eps, kind):
    x = data.draw(st.lists(rationals, min_size=d, max_size=d))
    spec = [layer_norm(d, eps), rms_norm(d, eps), layer_norm(d, eps, eps_inside=False),
            layer_norm(d, eps, var_denominator="N-1")][kind]
    centered = [xi - sum(x) / d for xi in x] if spec.center else x
    if not any(centered) and not spec.eps_inside:
        with pytest.raises(SpecError):
            cross_check(spec, x, dps=30)
        return
    res = cross_check(spec, x, dps=30)
    # the closed form's rounding is relative to its terms (~1/s), which can cancel to a tiny J
    scale = max(1, max(abs(e) for row in res.jacobian for e in row))
    assert res.max_abs_error <= scale * mpmath.mpf("1e-25")

"""The zero test's shortcuts (issue 12) decide exactly what the long way decides.

A polynomial skips ``together``; radicand factorizations and cancellations are kept across
calls (each entry of a claim is tested on its own, with the same radicands).  True
identities must still be proved, and one-term changes of them must still not be.
"""

from __future__ import annotations

import pytest
import sympy as sp

from symnorm.engines import zero
from symnorm.engines.zero import is_zero

x, y, z = sp.symbols("x y z", real=True)
v, e = sp.symbols("v eps", positive=True)
s = sp.sqrt(v + e)

CASES = [
    ((x + y) ** 3 - (x**3 + 3 * x**2 * y + 3 * x * y**2 + y**3), True),
    ((x + y) ** 3 - (x**3 + 3 * x**2 * y + 2 * x * y**2 + y**3), False),  # a factor
    ((x - y) * (x + y) - x**2 + y**2, True),
    ((x - y) * (x + y) - x**2 - y**2, False),  # a sign
    (x * y * z - z * y * x + 0 * x, True),
    (x**2 - x, False),
    (1 / s - s / (v + e), True),
    (1 / s - s / (v + 2 * e), False),  # a factor inside the root
    (x / s - x * s / (v + e), True),
    (x / s + x * s / (v + e), False),  # a sign
    (sp.sqrt(4 * v**2 * (v + e)) - 2 * v * s, True),
    (sp.sqrt(4 * v**2 * (v + e)) - 2 * s, False),  # a dropped factor
]


@pytest.mark.parametrize("expr, zero_", CASES, ids=[str(c[0])[:40] for c in CASES])
def test_zero_test_with_and_without_kept_work(expr, zero_):
    zero._cancel.cache_clear()
    zero._sqrt_parts.cache_clear()
    assert is_zero(expr) is zero_  # nothing kept
    assert is_zero(expr) is zero_  # everything kept from the first call


def test_kept_radicands_do_not_leak_between_expressions():
    zero._sqrt_parts.cache_clear()
    for _ in range(2):  # the same radicand, true and false claims in turn
        assert is_zero(y / s - y * s / (v + e))
        assert not is_zero(y / s - y * s / (v + e) + 1 / s)
        assert not is_zero(y / s)


POLYNOMIALS = [
    (x + y) ** 2 / 2,
    (x - 1) * (x + y) / 7 - sp.Rational(3, 4) * z ** 3,
    ((v + e) * x - y) ** 3,
    sp.Integer(5),
]
NOT_POLYNOMIALS = [x / y, sp.sqrt(x) + 1, sp.pi * x + x, sp.exp(x) * x, abs(x) + x, x ** -2]


@pytest.mark.parametrize("expr", POLYNOMIALS)
def test_a_polynomial_is_cancelled_by_expanding_it_exactly_as_cancel_does(expr):
    zero._cancel.cache_clear()
    assert zero._polynomial(expr)
    assert zero._cancel(expr) == sp.cancel(expr) == sp.expand(expr)


@pytest.mark.parametrize("expr", NOT_POLYNOMIALS)
def test_anything_else_still_goes_through_cancel(expr):
    zero._cancel.cache_clear()
    assert not zero._polynomial(expr)
    assert zero._cancel(expr) == sp.cancel(expr)


@pytest.mark.parametrize("expr", POLYNOMIALS + [(x - y) ** 4 * (z + sp.Rational(1, 3)) - x])
@pytest.mark.parametrize("polys", ["auto", "sympy"])
def test_flint_expansion_is_sympys_expression(expr, polys, monkeypatch):
    """The same SymPy expression term for term (not only an equal value): the zero test's
    later steps see the form, so a different one could change what it proves."""
    monkeypatch.setenv("SYMNORM_POLYS", polys)
    got = zero.expand_polynomial(expr)
    assert got == sp.expand(expr) and sp.srepr(got) == sp.srepr(sp.expand(expr))
    assert zero.expand_polynomial(expr + x) != sp.expand(expr)  # a dropped term shows

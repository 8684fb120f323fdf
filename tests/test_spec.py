"""The layer spec: valid values are kept exactly, near-miss invalid values name field and value."""

from __future__ import annotations

import pytest
import sympy

from symnorm.errors import SpecError, SymnormError
from symnorm.spec import as_rational, layer_norm, rms_norm


@pytest.mark.parametrize("text, expected", [
    ("0.1", sympy.Rational(1, 10)), ("1/10", sympy.Rational(1, 10)), (0.1, sympy.Rational(1, 10)),
    (3, sympy.Integer(3)), ("-2", sympy.Integer(-2)), (sympy.Rational(2, 7), sympy.Rational(2, 7)),
    ("1e-3", sympy.Rational(1, 1000)),
])
def test_as_rational_is_exact(text, expected):
    assert as_rational(text, "eps") == expected


@pytest.mark.parametrize("bad", ["abc", "", "1/0", "nan", float("nan"), float("inf"), True,
                                 None, [1], "1/10/3"])
def test_as_rational_rejects(bad):
    with pytest.raises(SpecError, match="eps"):
        as_rational(bad, "eps")


def test_layer_norm_fields():
    spec = layer_norm(3, "1/10")
    assert (spec.d, spec.eps, spec.center, spec.eps_inside, spec.var_denominator) == (
        3, sympy.Rational(1, 10), True, True, "N")
    assert layer_norm(4, 0, eps_inside=False, var_denominator="N-1").eps_inside is False
    assert rms_norm(3, "1/10").center is False


@pytest.mark.parametrize("kwargs, fragment", [
    ({"d": 1}, "got 1"), ({"d": 0}, "got 0"), ({"d": -3}, "got -3"), ({"d": 2.5}, "got 2.5"),
    ({"d": True}, "got True"), ({"d": "3"}, "got '3'"),
    ({"d": 3, "eps": -1}, "eps must be >= 0 (got -1)"),
    ({"d": 3, "eps": "-1/10"}, "got -1/10"), ({"d": 3, "eps": "x"}, "eps"),
    ({"d": 3, "var_denominator": "N-2"}, "var_denominator"),
])
def test_layer_norm_rejects_with_field_and_value(kwargs, fragment):
    with pytest.raises(SpecError) as info:
        layer_norm(**kwargs)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, SymnormError)


def test_spec_is_frozen():
    spec = layer_norm(3, "1/10")
    with pytest.raises(AttributeError):
        spec.eps = 1  # type: ignore[misc]

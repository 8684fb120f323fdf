"""The notebook API (``symnorm.layer_norm`` / ``symnorm.rms_norm``) and the teaching notebook."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy

import symnorm
from symnorm.errors import LimitError, SpecError

ROOT = Path(__file__).resolve().parents[1]
TENTH = sympy.Rational(1, 10)


def test_api_objects_and_paper_values():
    ln = symnorm.layer_norm(d=3, eps=TENTH)
    assert isinstance(ln, symnorm.Layer) and ln.spec.d == 3 and ln.eps == TENTH
    assert ln.projector == sympy.eye(3) - sympy.ones(3, 3) / 3
    assert list(ln.centered([1, 2, 4])) == [sympy.Rational(-4, 3), sympy.Rational(-1, 3),
                                             sympy.Rational(5, 3)]
    s = sympy.sqrt(sympy.Rational(149, 90))
    assert sympy.simplify(ln.forward([1, 2, 4])[0] + sympy.Rational(4, 3) / s) == 0
    assert abs(float(ln.jacobian([1, 2, 4])[1, 1]) - 0.5007409225618855) < 1e-15
    assert all(c.holds for c in ln.verify())
    assert ln.cross_check([1, 2, 4]).max_abs_error < 1e-45
    assert "LayerNorm" in ln._repr_latex_() and ln._repr_latex_().startswith("$$")


def test_symbolic_jacobian_definitions():
    ln = symnorm.layer_norm(3, TENTH)
    J = ln.jacobian()
    defs = ln.engine().definitions()
    # substitute the definitions and compare with the closed form at a rational point
    point = {sympy.Symbol("x1"): 1, sympy.Symbol("x2"): 2, sympy.Symbol("x3"): 4}
    vals = {k: v.subs(point) for k, v in defs.items()}
    Jp = J.subs(vals)
    ref = ln.jacobian([1, 2, 4])
    assert all(abs(sympy.N(a - b, 40)) < 1e-35 for a, b in zip(Jp, ref))


def test_rms_api():
    rms = symnorm.rms_norm(4, TENTH)
    assert rms.projector == sympy.eye(4)
    spaces = rms.eigen([1, 2, 3, 4])
    assert [e.multiplicity for e in spaces] == [1, 3]
    assert "RMSNorm" in repr(rms)


@pytest.mark.parametrize("call, fragment", [
    (lambda: symnorm.layer_norm(d=1), "got 1"),
    (lambda: symnorm.layer_norm(d=None), "got None"),
    (lambda: symnorm.layer_norm(d=3, eps=-1), "eps must be >= 0 (got -1)"),
    (lambda: symnorm.layer_norm(d=3, eps="abc"), "got 'abc'"),
    (lambda: symnorm.rms_norm(d=1), "got 1"),
    (lambda: symnorm.layer_norm(3, TENTH).forward([1, 2]), "d=3 entries (got 2)"),
    (lambda: symnorm.layer_norm(3, TENTH).forward("124"), "sequence"),
    (lambda: symnorm.layer_norm(3, TENTH).jacobian([1, "x", 2]), "x[2]"),
    (lambda: symnorm.layer_norm(3, 0).jacobian([3, 3, 3]), "zero variance"),
    (lambda: symnorm.layer_norm(3, 0).cross_check([3, 3, 3]), "zero variance"),
    (lambda: symnorm.layer_norm(3, TENTH).cross_check([1, 2, 4], dps=10 ** 7), "dps"),
])
def test_validation_names_field_and_value(call, fragment):
    with pytest.raises((SpecError, LimitError)) as info:
        call()
    assert fragment in str(info.value)


def test_spec_constructors_still_in_spec_module():
    from symnorm.spec import NormSpec, layer_norm
    assert isinstance(layer_norm(3, TENTH), NormSpec)


@pytest.mark.parametrize("module", ["symnorm.engines.exact", "symnorm.engines.surd",
                                    "symnorm.engines.wfrac", "symnorm.engines.numeric",
                                    "symnorm.layer", "symnorm.derivation"])
def test_doctests(module):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_docs_examples():
    import doctest
    result = doctest.testfile(str(ROOT / "docs" / "derive.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 5 and result.failed == 0

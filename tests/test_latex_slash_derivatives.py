r"""Plain-text derivative fractions (``dE/dX``, ``dL/dx``, ``dE/dY``: issue threads and
docstrings) read as ``\frac{\partial E}{\partial X}``: the declared upstream gradient itself
(``vector dE_dY``, or ``vector dy`` in differential notation) and the adjoint through the
layer; refused without that declaration, with the line to add.  Truths by PyTorch autograd
(``test_latex_real_world4``) or numpy, never by symnorm."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_refused, assert_variant_refuted
from test_latex_real_world2 import _DY, _X, EPS, GAMMA, _same, verdicts


def _bn_dx(dy, gamma=GAMMA, eps=EPS):
    """dL/dx of L = dy . (gamma * BN(x) + beta) by central differences (numpy only)."""
    def loss(x):
        return float(dy @ (gamma * (x - x.mean()) / np.sqrt(x.var() + eps)))
    h = 1e-6
    return np.array([(loss(_X + h * e) - loss(_X - h * e)) / (2 * h) for e in np.eye(len(_X))])


def _bn_formula(dy, sign=-1.0, eps=EPS):
    xhat = (_X - _X.mean()) / np.sqrt(_X.var() + eps)
    return GAMMA / np.sqrt(_X.var() + eps) * (dy - dy.mean() + sign * xhat * (dy @ xhat)
                                             / len(_X))


_RHS = (r"\frac{\gamma}{\sqrt{\sigma^2+\epsilon}} (dE/dY - \frac1m \sum_i dE/dY_i - \hat x "
        r"\frac{1}{m}\sum_i dE/dY_i \hat x_i)")
CASES = {
    # Caffe's names: X the input, Y the output, the upstream gradient declared as dE_dY
    "caffe.names": ("use batchnorm\nlet X = x\nlet Y = y\nvector dE_dY", "dE/dX = " + _RHS,
                    lambda: _same(_bn_dx(_DY), _bn_formula(_DY))),
    "lower.names": ("use batchnorm\nvector dE_dy", "dE/dx = " + _RHS.replace("dY", "dy"),
                    lambda: True),
    # differential notation: vector dy is the upstream gradient of any loss letter
    "dy": ("use batchnorm\nvector dy",
           r"dL/dx = \frac{\gamma}{\sqrt{\sigma^2+\epsilon}} (dy - \frac1m \sum_i dy_i - \hat x "
           r"\frac{1}{m}\sum_i dy_i \hat x_i)", lambda: True),
    "dbeta": ("use batchnorm\nvector dy", r"dL/d\beta = \sum_i dy_i", lambda: True),
    # Caffe's plain-text formula (the layer without affine parameters: gamma = 1, beta = 0)
    "caffe.plain": ("use batchnorm\nlet X = x\nlet Y = y\nvector dE_dY",
                    r"dE/dX = (1/sqrt(var+eps)) * (dE/dY - mean(dE/dY) - mean(dE/dY * Y) * Y)"
                    r" \quad \text{if}\ \gamma = 1,\ \beta = 0",
                    lambda: _same(_bn_dx(_DY, gamma=1.0), _bn_formula(_DY) / GAMMA)),
}

VARIANTS = {
    "caffe.names": (r"- \hat x", r"+ \hat x",
                    lambda: _same(_bn_dx(_DY), _bn_formula(_DY, sign=1.0))),
    "lower.names": (r"\sigma^2+\epsilon", r"\sigma^2+2\epsilon",
                    lambda: _same(_bn_dx(_DY), GAMMA / np.sqrt(_X.var() + 2 * EPS) * (
                        _DY - _DY.mean() - (_X - _X.mean()) / np.sqrt(_X.var() + EPS)
                        * (_DY @ ((_X - _X.mean()) / np.sqrt(_X.var() + EPS))) / len(_X)))),
    "dy": (r"\frac1m \sum_i dy_i", r"\frac2m \sum_i dy_i",
           lambda: _same(_bn_dx(_DY), _bn_formula(_DY) - GAMMA / np.sqrt(_X.var() + EPS)
                         * _DY.mean())),
    "dbeta": (r"\sum_i dy_i", r"\sum_i 2 dy_i", lambda: _same(_DY.sum(), 2 * _DY.sum())),
    "caffe.plain": ("mean(dE/dY) -", "2 mean(dE/dY) -",
                    lambda: _same(_bn_dx(_DY, gamma=1.0),
                                  _bn_formula(_DY) / GAMMA - _DY.mean() / np.sqrt(_X.var()
                                                                                   + EPS))),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_slash_derivative_is_proved(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_one_token_variant_is_refuted(key: str) -> None:
    preamble, latex, _ = CASES[key]
    assert_variant_refuted(preamble, latex, *VARIANTS[key])


def test_slash_upstream_is_the_declared_vector() -> None:
    # dE/dy_i is entry i of the declared dE_dy, as \frac{\partial E}{\partial y_i} is
    eq = r"\sum_i dE/dy_i \hat x_i = \sum_i \frac{\partial E}{\partial y_i} \hat x_i"
    got = verdicts("use batchnorm\nvector dE_dy", eq)
    assert [s for _, s, _ in got if s != "defined"] == ["proved"], got
    got = verdicts("use batchnorm\nvector dE_dy", eq.replace("= \\sum", "= 2\\sum"))
    assert [s for _, s, _ in got if s != "defined"] == ["refuted"], got


@pytest.mark.parametrize("preamble, latex, words", [
    # no upstream gradient declared: the line to add is named
    ("use batchnorm", r"dE/dx = x", ("dE/dx: E is neither declared nor defined",
                                     "`vector dE_dy`")),
    ("use layernorm\nvector u", r"dE/dX = u", ("dE/dX: the document has no quantity X",)),
    # d against a name without the fraction stays a differential
    ("use layernorm", r"dE = x", ("'dE' looks like a differential",)),
])
def test_slash_derivative_refusals(preamble: str, latex: str, words: tuple[str, ...]) -> None:
    assert_refused(preamble, latex, words)


# --- Caffe's formula without affine parameters (red team 13, the latex5 helper's doubt) -----

_CAFFE = r"dE/dX = (1/sqrt(var+eps)) * (dE/dY - mean(dE/dY) - mean(dE/dY * Y) * Y)"
_CAFFE_PRE = "use batchnorm\nlet X = x\nlet Y = y\nvector dE_dY"
_CAFFE_PRE_NONE = _CAFFE_PRE.replace("use batchnorm", "use batchnorm(affine=none)")


def _caffe_numpy(dy, two=1.0):
    """Caffe's right side with Y its layer's output, the normalized x (no gamma, beta)."""
    y = (_X - _X.mean()) / np.sqrt(_X.var() + EPS)
    return (dy - two * dy.mean() - (dy * y).mean() * y) / np.sqrt(_X.var() + EPS)


def _caffe_dx(dy):
    """dE/dX of E = dy . Y for Caffe's layer (Y = BN(x), no affine parameters)."""
    return _bn_dx(dy, gamma=1.0)


def test_caffe_formula_without_affine_parameters_is_about_that_layer() -> None:
    """No gamma, beta written: Caffe's BatchNorm layer has none, which the use line says
    (affine=none); under plain use batchnorm it is two readings (false with them)."""
    assert _same(_caffe_dx(_DY), _caffe_numpy(_DY))
    assert not _same(_bn_dx(_DY), _caffe_numpy(_DY))  # with the gain and bias: false
    got = [r for r in verdicts(_CAFFE_PRE_NONE, _CAFFE) if r[1] != "defined"]
    assert [s for _, s, _ in got] == ["proved"], got
    got = [r for r in verdicts(_CAFFE_PRE, _CAFFE) if r[1] != "defined"]
    assert [s for _, s, _ in got] == ["error"], got
    assert "two readings" in got[0][2] and "`use batchnorm(affine=none)`" in got[0][2], got


@pytest.mark.parametrize("old, new, two", [
    ("- mean(dE/dY) -", "- 2 mean(dE/dY) -", 2.0),
    ("- mean(dE/dY) -", "+ mean(dE/dY) -", -1.0),
])
def test_caffe_formula_variants_are_refuted(old, new, two) -> None:
    assert not _same(_caffe_dx(_DY), _caffe_numpy(_DY, two=two))
    assert _CAFFE.count(old) == 1
    got = verdicts(_CAFFE_PRE_NONE, _CAFFE.replace(old, new))
    assert [s for _, s, _ in got if s != "defined"] == ["refuted"], got


def test_a_formula_that_writes_the_gain_keeps_the_full_layer() -> None:
    """gamma written (\\gamma, or a word the vocabulary reads as gamma): no hypothesis; the
    formula with gamma is true for the affine layer."""
    assert _same(_bn_dx(_DY), _bn_formula(_DY))
    from symnorm.check.run import check_text
    text = f"```symnorm\n{CASES['caffe.names'][0]}\n```\n\n```latex eq\n" \
           f"{CASES['caffe.names'][1]}\n```\n"
    got = [v for v in check_text(text, "c.md", sandbox=False).verdicts if v.status != "defined"]
    assert [v.status for v in got] == ["proved"] and "gamma == 1" not in got[0].statement, got

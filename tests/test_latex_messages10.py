r"""Branch wp-latex10: small constructs of corpora 4-6 and messages red teams found misleading.

Accepted (each a true row proved and a one-token false variant refuted, truth by numpy):

* the channel superscript and the layer letter on an operand of ``\partial``
  (``\frac{\partial \ell}{\partial\gamma^{(k)}}``, ``\partial \hat x_i^l`` after ``layer l``),
  dropped exactly as on the same names elsewhere;
* ``\mathrm{d}L/\mathrm{d}\beta``, read as ``dL/d\beta`` (the loss's derivative).

Refused, each with the message asserted: a transpose inside a superscript group, a
plain-text d-fraction by a power, a channel superscript on a number, the words ``norm(`` and
``sum(`` of docstrings, and the messages that named the wrong thing (the operator partial's
operand, the root sign's next factor, a compound sum bound, a where-clause's shadowing, a loss
with no declared gradient and no layer).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from construct_checks import assert_proved, assert_refused, assert_variant_refuted

from symnorm.check.run import check_text

Q = Fraction
_X = np.array([float(v) for v in (Q(1), Q(-2), Q(4), Q(7, 2))])
_DY = np.array([float(v) for v in (Q(1), Q(-3), Q(1, 2), Q(2))])
EPS, GAMMA, BETA = float(Q(1, 10)), float(Q(3, 2)), float(Q(-1, 3))
H = 1e-6


def _xhat(x: np.ndarray) -> np.ndarray:
    """BatchNorm of one feature in training mode (population variance), by its definition."""
    return (x - x.mean()) / np.sqrt(x.var() + EPS)


def _loss(x: np.ndarray = _X, gamma: float = GAMMA, beta: float = BETA) -> float:
    """A loss whose gradient by the output y is _DY (linear in y)."""
    return float(_DY @ (gamma * _xhat(x) + beta))


def _d(f, a: float) -> float:
    return (f(a + H) - f(a - H)) / (2 * H)


def _close(a, b) -> bool:
    return bool(np.allclose(a, b, rtol=1e-6, atol=1e-6))


# the adjoints, by central differences of the loss (never by symnorm)
_DGAMMA = _d(lambda g: _loss(gamma=g), GAMMA)
_DBETA = _d(lambda b: _loss(beta=b), BETA)
# dL/dxhat_i with xhat held as the graph's node: y = gamma xhat + beta, so the local
# derivative of the loss by entry i of xhat
_DXHAT = np.array([_d(lambda t, i=i: float(_DY @ (GAMMA * (_xhat(_X) + t * np.eye(4)[i])
                                                   + BETA)), 0.0) for i in range(4)])

BN_G = "use batchnorm\nvector dl_dy"
BN_L = "use batchnorm\nlayer l\nvector dl_dy"
BN_LG = "use batchnorm\nvector dL_dy"

ACCEPTED = [
    # (id, preamble, latex, truth, (old, new, numeric truth of the variant))
    ("channel.gamma", BN_G,
     r"\frac{\partial \ell}{\partial\gamma^{(k)}} = \sum_i \frac{\partial \ell}{\partial y_i} "
     r"\hat x_i",
     lambda: _close(_DGAMMA, _DY @ _xhat(_X)),
     (r"\hat x_i", "x_i", lambda: _close(_DGAMMA, _DY @ _X))),
    ("channel.xhat", BN_G,
     r"\frac{\partial \ell}{\partial \hat x_i^{(k)}} = \frac{\partial \ell}{\partial y_i^{(k)}}"
     r" \gamma^{(k)}",
     lambda: _close(_DXHAT, _DY * GAMMA),
     ("= ", "= 2", lambda: _close(_DXHAT, 2 * _DY * GAMMA))),
    ("layer.xhat", BN_L,
     r"\frac{\partial \ell}{\partial \hat x_i^l} = \frac{\partial \ell}{\partial y_i^l} \gamma^l",
     lambda: _close(_DXHAT, _DY * GAMMA),
     ("= ", "= 2", lambda: _close(_DXHAT, 2 * _DY * GAMMA))),
    ("mathrm.d.beta", BN_LG, r"\mathrm{d}L/\mathrm{d}\beta = \sum_i dL/dy_i",
     lambda: _close(_DBETA, _DY.sum()),
     (r"\sum_i", r"2\sum_i", lambda: _close(_DBETA, 2 * _DY.sum()))),
    ("mathrm.d.gamma", BN_LG, r"\mathrm d L/\mathrm d\gamma = \sum_i dL/dy_i \hat x_i",
     lambda: _close(_DGAMMA, _DY @ _xhat(_X)),
     (r"\hat x_i", "x_i", lambda: _close(_DGAMMA, _DY @ _X))),
]


@pytest.mark.parametrize("row", ACCEPTED, ids=[r[0] for r in ACCEPTED])
def test_accepted_true_row_proved(row) -> None:
    _, preamble, latex, truth, _ = row
    assert_proved(preamble, latex, truth)


@pytest.mark.parametrize("row", ACCEPTED, ids=[r[0] for r in ACCEPTED])
def test_accepted_variant_refuted(row) -> None:
    _, preamble, latex, _, (old, new, numeric) = row
    assert_variant_refuted(preamble, latex, old, new, numeric)


BN = "use batchnorm"
REFUSED = [
    # Part 2.1: a transpose inside a superscript group with the channel (or a power)
    ("top.channel", BN, r"x^{(k)\top} x^{(k)} = d (\sigma^2 + \mu^2)",
     (r"\top after (k) in one superscript {(k)\top}", r"(x^{(k)})^\top")),
    ("top.power", BN, r"x^{2\top} x = 1", (r"\top after 2 in one superscript",)),
    ("top.first", BN, r"x^{\top 2} x = 1", (r"\top with more after it", r"(x^\top)^2")),
    ("top.alone", BN, r"a + \top = 1", (r"\top here transposes nothing",)),
    # Part 2.2: what an operand of \partial may carry, and what it may not
    ("partial.digit.channel", BN_G, r"\frac{\partial \ell}{\partial\gamma^{(2)}} = 1",
     ("a power 2, or channel 2", "two readings")),
    ("partial.undeclared.layer", BN_G, r"\frac{\partial \ell}{\partial\gamma^{k}} = 1",
     ("superscript k is not a defined name", "declare `layer k`")),
    ("partial.other.layer", BN_L, r"\frac{\partial \ell}{\partial \hat x_i^{l+1}} = 1",
     ("only the layer l itself is modelled",)),
    ("partial.transpose", BN_G, r"\frac{\partial \ell}{\partial \hat x^\top} = 1",
     ("an operand of \\partial may carry only a digit exponent", "channel superscript",
      "layer letter")),
    # Part 2.3: the operand as written, \left( included, and a valid suggestion
    ("operator.left", BN, r"\frac{\partial}{\partial x_i} \left( \mu \right) x_i = 1",
     (r"a product after \frac{\partial}{\partial x_i} \left( \mu \right): the derivative of "
      r"\left( \mu \right) times",
      r"\left(\frac{\partial}{\partial x_i} \left( \mu \right)\right) before")),
    # Part 2.4: the root sign's next factor shown whole
    ("root.sign", "scalar a, b", "√4 √9 = 6",
     ("√ before the product 4 √9", "write √(4 √9) or (√4) √9")),
    ("root.frac", "scalar a, b", r"√2 \frac{a}{b} = 1",
     (r"√ before the product 2 \frac{a}{b}", r"(√2) \frac{a}{b}")),
    # Part 2.5: the bound as written
    ("bound.plus", BN, r"\sum_{i=1}^{N+1} x_i = 1",
     ("upper bound N+1 of \\sum: a sum runs over all d entries", "write ^d")),
    ("bound.plus.dim", "use batchnorm\nlet N = d", r"\sum_{i=1}^{N+1} x_i = 1",
     ("upper bound N+1 of \\sum", "N is d here, so N+1 is not")),
    ("bound.minus", BN, r"\sum_{i=1}^{N-1} x_i = 1",
     ("upper bound N-1 of \\sum: N is not the dimension d",)),
    ("bound.name", BN, r"\sum_{i=1}^{N} x_i = 1", ("upper bound N of \\sum is not the dimension",)),
    # Part 2.6: a plain-text d-fraction by a power
    ("slash.power", BN_LG, r"dL/d\sigma^2 = 1",
     (r"dL/d\sigma^2: a plain-text d-fraction followed by a superscript is not read",
      r"\frac{\partial L}{\partial \sigma^2}")),
    # Part 2.7: \mathrm{d} on one side only, and of a quantity that is not the loss
    ("mathrm.d.mixed", BN_LG, r"\mathrm{d}L/d\beta = 1",
     (r"\mathrm{d} is a differential", r"\mathrm{d}L/\mathrm{d}\beta")),
    ("mathrm.d.not.loss", BN_LG, r"\mathrm{d}y/\mathrm{d}\beta = 1",
     ("y is not the loss", "two readings")),
    # Part 2.8: a channel superscript on a number
    ("channel.number", BN, r"2^{(k)}\mu = 1",
     ("superscript (k) on the number 2: a number has no channel", r"2\mu^{(k)}")),
    ("channel.group", BN, r"(x - \mu)^{(k)} = x - \mu", ("on a group",)),
    # Part 1.2: no layer, no declared gradient: what to declare
    ("nabla.no.layer", "scalar g\nvector v", r"\nabla_{g} L = 1",
     ("L is neither declared nor defined", "`let w = ...`", "`vector dL_dw`")),
    ("partial.layer.loss", "use layernorm", r"\frac{\partial L}{\partial \gamma} = 1",
     ("`vector dL_dy` for the layer's output",)),
    # Part 1.3: words of docstrings
    ("word.norm", "use layernorm(affine=elementwise)\nlet X = x\nlet Y = y",
     "Y = norm(X) * γ + β",
     ("'norm' is written as a word", "the Euclidean norm", "two readings", r"write \hat x")),
    ("word.sum", "use layernorm\nlet k = d", "mean_i = sum(x_i[j] for j in range(k)) / k",
     ("'sum' is written as a word", r"\sum_{j=1}^{k} x_j", "mean(x)")),
    # Part 1.1: tanh of a vector stays refused (no entrywise function in the engines)
    ("tanh.vector", "scalar alpha\nvector x, gamma, beta",
     r"\text{DyT}(x) = \gamma \odot \tanh(\alpha x) + \beta",
     ("tanh() of a vector: tanh applied entrywise",)),
]


@pytest.mark.parametrize("row", REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_with_message(row) -> None:
    _, preamble, latex, words = row
    assert_refused(preamble, latex, words)


def test_accepted_forms_named_by_the_messages() -> None:
    """The forms the refusals point to are accepted (true) and refuted (false)."""
    true = [(BN, r"(x^{(k)})^\top x^{(k)} = d (\sigma^2 + \mu^2)",
             lambda: _close(_X @ _X, len(_X) * (_X.var() + _X.mean() ** 2))),
            ("use batchnorm\nlet N = d", r"\sum_{i=0}^{N - 1} x_i = \sum_{i=1}^{N} x_i",
             lambda: True),
            ("use layernorm\nlet k = d", r"mean = \frac{1}{k}\sum_{j=1}^{k} x_j",
             lambda: _close(_X.mean(), _X.sum() / len(_X))),
            ("scalar g\nvector v\nlet w = g*v/norm(v)\nvector dL_dw",
             r"\nabla_{g} L = \frac{(\nabla_{\mathbf{w}} L)^\top \mathbf{v}}{\|\mathbf{v}\|}",
             _wn_truth)]
    for preamble, latex, truth in true:
        assert_proved(preamble, latex, truth)
    assert_variant_refuted(BN, true[0][1], r"\sigma^2 + \mu^2", r"\sigma^2 - \mu^2",
                           lambda: _close(_X @ _X, len(_X) * (_X.var() - _X.mean() ** 2)))
    assert_variant_refuted(true[3][0], true[3][1], r"\frac{(", r"\frac{2(",
                           lambda: _wn_truth(2))


def _wn_truth(factor: float = 1) -> bool:
    """Weight normalization w = g v/|v|: dL/dg = (dL/dw . v)/|v| (central differences)."""
    v, g, dw = _X, GAMMA, _DY
    dg = _d(lambda t: float(dw @ (t * v / np.linalg.norm(v))), g)
    return _close(dg, factor * (dw @ v) / np.linalg.norm(v))


def test_where_clause_shadowing_says_what_conflicts() -> None:
    """Part 2.9: a where-clause's own definition of \\hat x holds for the rest of the
    document; a later equation's \\hat x is refused naming that definition, not a clash of
    vocabularies, and the row form the hint names is accepted."""
    head = "```symnorm\nuse batchnorm\n```\n\n"
    later = "```latex e2\n\\frac{1}{d}\\sum_i \\hat x_i = 0\n```\n"
    where = ("```latex e1\ny = \\gamma \\hat x + \\beta, \\quad \\text{where } \\hat x = "
             "\\frac{x-\\mu}{\\sqrt{\\sigma^2+\\epsilon}}\n```\n\n")
    res = check_text(head + where + later, "w.md", sandbox=False)
    err = [v.message for v in res.verdicts if v.status == "error"]
    assert len(err) == 1
    for words in ("defined as", "by the where-clause of equation e1 (line 6)",
                  "holds for the rest of the document", "shadowing the vocabulary's xhat, BN(x)",
                  "two readings", "on a row of its own before the equation that uses it"):
        assert words in err[0], err
    assert "the vocabularies of this block" not in err[0]
    rows = ("```latex e1\n\\hat x = \\frac{x-\\mu}{\\sqrt{\\sigma^2+\\epsilon}} \\\\ y = "
            "\\gamma \\hat x + \\beta\n```\n\n")
    res = check_text(head + rows + later, "w.md", sandbox=False)
    assert {v.status for v in res.verdicts} <= {"proved", "defined"}
    assert [v.label for v in res.verdicts if v.status == "proved"] == ["e1.1", "e1.2", "e2.1"]
    assert np.allclose(_xhat(_X).mean(), 0.0)  # e2 is true

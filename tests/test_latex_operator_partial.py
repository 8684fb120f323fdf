r"""The derivative written as an operator, ``\frac{\partial}{\partial x_i}\left( A \right)``
(``symnorm/lang/latex_operator.py``; corpus 5's dsse.website and dsse.quotient): the
operand is the bracketed group right after the operator, or the one factor after it when
the term ends there; it is differentiated as ``\frac{\partial A}{\partial v}`` of a defined
A by a declared variable v.  Truths by numpy central differences, never by symnorm."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_refused, assert_variant_refuted
from test_latex_real_world2 import _X, EPS, _grad, _jac, _same

M = len(_X)
_MU, _VAR = _X.mean(), _X.var()
_S = np.sqrt(_VAR + EPS)
_XH = (_X - _MU) / _S
BN = "use batchnorm\nlet N = d"
LN = "use layernorm"


def _xhat(x):
    return (x - x.mean()) / np.sqrt(x.var() + EPS)


def _d_gamma(gamma=1.5, beta=0.25, h=1e-6):
    """d/d gamma of gamma * xhat + beta (entrywise), by central differences."""
    return ((gamma + h) * _XH + beta - ((gamma - h) * _XH + beta)) / (2 * h)


CASES = {
    # a bracketed operand by an entry of x: entry i of the gradient of the variance
    "var.bracket": (BN, r"\frac{\partial}{\partial x_i}\left( \sigma^2 \right) = "
                        r"\frac{2(x_i - \mu)}{N}",
                    lambda: _same(_grad(lambda x: x.var(), _X), 2 * (_X - _MU) / M)),
    # two indices: entry (i, j) of the Jacobian of x - mu (mu = mean(x) moves with x)
    "centre.matrix": (BN, r"\frac{\partial}{\partial x_j}\left( x_i - \mu \right) = "
                          r"\delta_{ij} - \frac{1}{N}",
                      lambda: _same(_jac(lambda x: x - x.mean(), _X),
                                    np.eye(M) - np.ones((M, M)) / M)),
    # one factor after the operator, the term ending there
    "root.factor": (BN, r"\frac{\partial}{\partial x_i} \sqrt{\sigma^2 + \epsilon} = "
                        r"\frac{x_i - \mu}{N\sqrt{\sigma^2+\epsilon}}",
                    lambda: _same(_grad(lambda x: np.sqrt(x.var() + EPS), _X),
                                  (_X - _MU) / (M * _S))),
    # by a scalar parameter: entry i of the vector derivative
    "gamma.entry": (LN, r"\frac{\partial}{\partial \gamma}(\gamma \hat x_i + \beta) = \hat x_i",
                    lambda: _same(_d_gamma(), _XH)),
    # a bracketed operand followed by a sum: the derivative of the group, plus the rest
    "bracket.sum": (LN, r"\frac{\partial}{\partial \beta}\left(\gamma \hat x + \beta\right) "
                        r"+ \mathbf 1 = 2 \cdot \mathbf 1",
                    lambda: _same(np.ones(M) + np.ones(M), 2 * np.ones(M))),
}

VARIANTS = {
    "var.bracket": (r"\frac{2(x_i - \mu)}{N}", r"\frac{(x_i - \mu)}{N}",
                    lambda: _same(_grad(lambda x: x.var(), _X), (_X - _MU) / M)),
    "centre.matrix": (r"- \frac{1}{N}", r"+ \frac{1}{N}",
                      lambda: _same(_jac(lambda x: x - x.mean(), _X),
                                    np.eye(M) + np.ones((M, M)) / M)),
    "root.factor": (r"{N\sqrt", r"{2N\sqrt",
                    lambda: _same(_grad(lambda x: np.sqrt(x.var() + EPS), _X),
                                  (_X - _MU) / (2 * M * _S))),
    "gamma.entry": (r"= \hat x_i", r"= x_i", lambda: _same(_d_gamma(), _X)),
    "bracket.sum": (r"= 2 \cdot", r"= 3 \cdot",
                    lambda: _same(np.ones(M) + np.ones(M), 3 * np.ones(M))),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_operator_partial_is_proved(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_false_variant_is_refuted(key: str) -> None:
    pre, latex, _ = CASES[key]
    assert_variant_refuted(pre, latex, *VARIANTS[key])


def test_read_as_is_the_jacobian() -> None:
    from test_latex_real_world2 import verdicts

    got = verdicts(BN, CASES["var.bracket"][1])
    assert [s for _, s, _ in got if s != "defined"] == ["proved"], got
    from symnorm.check.run import check_text

    text = f"```symnorm\n{BN}\n```\n\n```latex eq\n{CASES['centre.matrix'][1]}\n```\n"
    res = check_text(text, "t.md", sandbox=False)
    assert "jacobian(x - mu * ones, x)" in str(res.verdicts[0].statement), res.verdicts[0]


REFUSED = {
    # a product after the operator: the derivative of a times b, or of a b
    "product": (BN + "\nscalar a, b", r"\frac{\partial}{\partial x} a b = 0",
                ("a product after", "two readings")),
    # the asker's quotient rule (dsse.quotient): (x_i - mu) times the root, or the product
    "product.bracket": (BN, r"\frac{\partial}{\partial x_j} (x_i-\mu)\sqrt{\sigma^2+\epsilon} "
                            r"= 0", ("a product after", "(x_i-\\mu)", "two readings")),
    "cdot.after": (BN, r"\frac{\partial}{\partial x}(\mu) \cdot \sigma = 0",
                   ("a product after", "two readings")),
    # a sum after an operand without brackets: the first term or the whole sum
    "sum": (BN, r"\frac{\partial}{\partial x} \mu + \sigma = 0",
            ("a sum after", "of the whole sum", "two readings")),
    "script": (BN, r"\frac{\partial}{\partial x}(\mu)^2 = 0",
               ("on the bracketed operand", "two readings")),
    # dsse.website: the same index on the operand and the variable (the diagonal, or the
    # partial along the graph with mu, sigma held, as the website means it): both readings
    # are checked (latex_same_index.py), and they disagree
    "diagonal": (BN, r"\frac{\partial}{\partial x_i} \frac{x_i - \mu}{\sqrt{\sigma^2+\epsilon}}"
                     r" = \frac{1}{\sqrt{\sigma^2+\epsilon}}",
                 ("two readings, and they disagree", "computation graph", "it is proved",
                  "it is refuted")),
    # by a node of the graph: which written quantities are held is not said
    "node": (BN, r"\frac{\partial}{\partial \mu}\left(x_i - \mu\right) = -1",
             ("mu is not a declared scalar or vector", "held")),
    "power": (BN, r"\frac{\partial}{\partial x^2}(\mu) = 0", ("by the power",)),
    "nothing": (BN, r"\frac{\partial}{\partial x} = 0", ("no expression follows",)),
    # braces print nothing: {\mu \sigma} looks like the product after the operator
    "braces": (BN, r"\frac{\partial}{\partial x}{\mu \sigma} = 0", ("the braces print nothing",)),
    # the output without any affine parameter written: the layer with or without them
    "output.plain": (BN, r"\frac{\partial}{\partial x} y = \frac{\partial \hat x}{\partial x}",
                     ("of the output y", "writes no affine parameter", "two readings")),
    "row": (BN, r"\frac{\partial}{\partial x}(x_i - \mu) = 0", ("a row of the Jacobian",)),
    "column": (BN, r"\frac{\partial}{\partial x_i}(x - \mu) = 0", ("a column",)),
    "scalar.entry": (LN, r"\frac{\partial}{\partial \gamma_i}(\gamma \hat x) = 0",
                     ("an entry of gamma, which is a scalar",)),
}


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_unsafe_neighbours_are_refused(key: str) -> None:
    pre, latex, words = REFUSED[key]
    assert_refused(pre, latex, words)


def test_the_gamma_free_output_is_read_with_gamma_written() -> None:
    # the refusal above is about the missing parameters: with gamma written it is proved
    truth = _same(1.5 * _jac(_xhat, _X), 1.5 * _jac(_xhat, _X))
    assert truth
    assert_proved(BN, r"\frac{\partial}{\partial x} y = \gamma \frac{\partial \hat x}{\partial x}",
                  lambda: truth)

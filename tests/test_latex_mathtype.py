"""LaTeX written by equation editors (MathType, Mathpix, CSDN/Zhihu): ``\\mathop \\sum
\\limits``, ``{\\rm{mean}}``, ``\\operatorname*``, and brace groups that render as nothing
(``symnorm/lang/latex_mathtype.py``).  Each row is true by numpy / torch autograd and
proved; one changed token makes it false by numpy and refuted; each unsafe neighbour is
refused with its message.
"""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_refused, assert_variant_refuted
from test_latex_real_world2 import _X, EPS, _ln, _same, _torch

from symnorm.lang.latex_tokens import tokenize

LN = "use layernorm"
D = len(_X)
MU = float(np.mean(_X))
VAR = float(np.mean((_X - MU) ** 2))
S = float(np.sqrt(VAR + EPS))


def _jac() -> np.ndarray:
    torch, F = _torch()
    x = torch.tensor(_X, dtype=torch.float64)
    return torch.autograd.functional.jacobian(
        lambda v: F.layer_norm(v, (D,), eps=EPS), x).numpy()


def _jac_formula(sign: float) -> np.ndarray:
    xh = (_X - MU) / S
    return (np.eye(D) - 1 / D) / S + sign * np.outer(xh, xh) / (D * S)


def _dmu() -> np.ndarray:
    torch, _ = _torch()
    x = torch.tensor(_X, dtype=torch.float64)
    return torch.autograd.functional.jacobian(lambda v: v.mean(), x).numpy()


#: (latex, truth, (old, new, numeric truth of the variant))
ROWS = {
    "mathop-limits": (r"\mu = \frac{1}{d}\mathop \sum \limits_{i=1}^{d} {x_i}",
                      lambda: _same(MU, np.sum(_X) / D),
                      (r"\frac{1}{d}", r"\frac{2}{d}", lambda: _same(MU, 2 * np.sum(_X) / D))),
    "mathop-braced": (r"\sigma^2 = \frac{1}{d}\mathop{\sum}\nolimits_{i=1}^{d} (x_i-\mu)^2",
                      lambda: _same(VAR, np.sum((_X - MU) ** 2) / D),
                      ("(x_i-", "(x_i+", lambda: _same(VAR, np.sum((_X + MU) ** 2) / D))),
    "mathop-rm-E": (r"\mu = \mathop{\rm E}[x]", lambda: _same(MU, np.mean(_X)),
                    ("[x]", "[2x]", lambda: _same(MU, np.mean(2 * _X)))),
    "rm-braced-word": (r"\mu = {\rm{mean}}(x)", lambda: _same(MU, np.mean(_X)),
                       ("(x)", r"(x+\mathbf 1)", lambda: _same(MU, np.mean(_X + 1)))),
    "operatorname-star": (r"\mu = \operatorname*{mean}(x)", lambda: _same(MU, np.mean(_X)),
                          ("(x)", "(3x)", lambda: _same(MU, np.mean(3 * _X)))),
    # Mathpix: {{x}_{i}}, {{\sigma }^{2}}, {{\hat{x}}_{i}}
    "mathpix-xhat": (r"{{\hat{x}}_{i}} = \frac{{{x}_{i}}-\mu }{\sqrt{{{\sigma }^{2}}+\epsilon }}",
                     lambda: _same(_ln(_X), (_X - MU) / np.sqrt(VAR + EPS)),
                     (r"+\epsilon", r"-\epsilon",
                      lambda: _same(_ln(_X), (_X - MU) / np.sqrt(VAR - EPS)))),
    "mathpix-var": (r"\sigma^2 = \frac{1}{d}\sum_{i=1}^{d}{{\left( {{x}_{i}}-\mu  \right)}^{2}}",
                    lambda: _same(VAR, np.mean((_X - MU) ** 2)),
                    ("^{2}}", "^{3}}", lambda: _same(VAR, np.mean((_X - MU) ** 3)))),
    "accent-group-sub": (r"{\hat x}_i = \frac{ {x_i} - \mu}{s}",
                         lambda: _same(_ln(_X), (_X - MU) / S),
                         (r"- \mu", r"+ \mu", lambda: _same(_ln(_X), (_X + MU) / S))),
    # MathType: braces around a partial's numerator, denominator and operands
    "mathtype-dmu": (r"\frac{ {\partial \mu} }{ {\partial {x_i} } } = \frac{1}{ { {d} } }",
                     lambda: _same(_dmu(), np.full(D, 1 / D)),
                     (r"\frac{1}", r"\frac{2}", lambda: _same(_dmu(), np.full(D, 2 / D)))),
    "mathtype-jacobian": (
        r"\frac{ {\partial {\hat x_i} } }{ {\partial {x_j} } } = \frac{1}{s}\left( "
        r"{\delta_{ij} - \frac{1}{d} } \right) - \frac{ {\hat x_i}{\hat x_j} }{d s}",
        lambda: _same(_jac(), _jac_formula(-1)),
        (r"\right) - ", r"\right) + ", lambda: _same(_jac(), _jac_formula(1)))),
}


@pytest.mark.parametrize("key", list(ROWS))
def test_editor_latex_is_proved(key: str) -> None:
    latex, truth, _ = ROWS[key]
    assert_proved(LN, latex, truth)


@pytest.mark.parametrize("key", list(ROWS))
def test_one_token_variant_is_refuted(key: str) -> None:
    latex, _, (old, new, numeric) = ROWS[key]
    assert_variant_refuted(LN, latex, old, new, numeric, no_error=True)


#: neighbours with another reading (or none): refused, and the message names the construct
REFUSED = [
    (r"\mu = \mathop{\frac{1}{d}} x_1", ("\\mathop around", "\\frac")),
    (r"\mu = \mathop{x}", ("\\mathop around", "x")),
    (r"\mu = \rm mean(x)", ("\\rm switches to upright type",)),
    (r"\mu = {a \rm mean}(x)", ("\\rm switches to upright type",)),
    # braces around a sum used as grouping stay refused, doubled or not
    (r"\hat x_i = {x_i - \mu}/s", ("braces {...} around a sum or quotient are invisible",)),
    (r"\hat x_i = { {x_i - \mu} }/s", ("braces {...} around a sum or quotient are invisible",)),
    # a script that would stack on a script inside the group is not dropped
    (r"\hat x_i = {x_i}_j", ("subscript _j is not accepted here",)),
    # \partial inside a group with a power after it: (\partial x)^2, not \partial (x^2)
    (r"y = {\partial x}^2", ("\\partial is accepted only as",)),
    # what the old "expected '}'" errors really were
    (r"y_i = \gamma \hat x_i + \beta \equiv BN{\gamma,\beta}(x_i)",
     ("a comma inside a brace group", "BN_{\\gamma,\\beta}")),
    (r"\frac{\partial \ell}{\partial \gamma \hat{x_i}} = 1",
     ("a partial by (or of) a product", "\\hat{x_i}")),
    (r"\mu = \frac{1}{d}\sum_{kl} x_k", ("\\sum_{kl}: a sum over two indices k and l",)),
]


@pytest.mark.parametrize(("latex", "words"), REFUSED)
def test_unsafe_neighbour_is_refused(latex: str, words: tuple[str, ...]) -> None:
    assert_refused(LN, latex, words)


@pytest.mark.parametrize(("latex", "tokens"), [
    (r"{{x}_{i}}", "x _ { i }"),
    (r"{x_i}^2", "x _ i ^ 2"),
    (r"a{b}", "a { b }"),  # letters would touch: left as the product of groups
    (r"{2}3", "{ 2 } 3"),
    (r"{x_i}_j", "{ x _ i } _ j"),
    (r"{x^2}^3", "{ x ^ 2 } ^ 3"),
    (r"\sum_i {\hat x_i} y", "\\sum _ i { \\hat x _ i } y"),  # the sum's body: kept
    (r"\sqrt{\sigma^2}", "\\sqrt { \\sigma ^ 2 }"),  # an argument: kept
    (r"\frac{a}{ {b} }", "\\frac { a } { b }"),
    (r"\left( {a - b} \right)", "( a - b )"),
    (r"\partial {w_c}", "\\partial w _ c"),
    (r"{\partial x}", "{ \\partial x }"),  # a partial is no atom
    ("\u221a{x^2}", "\u221a { x ^ 2 }"),  # the root sign's radicand: kept
    (r"a {{+ b}}", "a { { + b } }"),  # a group opening with an operator: the parser judges
])
def test_which_braces_are_dropped(latex: str, tokens: str) -> None:
    assert " ".join(t.text for t in tokenize(latex, "<t>", 1, 1)) == tokens

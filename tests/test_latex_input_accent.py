"""The accent of a document's alias of the vocabulary's input (``let X = x``: ``\\hat X`` is
the vocabulary's ``\\hat x``; symnorm/lang/latex_accent.py; corpus 6's Yeh and Thorey): a
true form proved, a one-token false variant refuted (truth by numpy / PyTorch, never by
symnorm), and the neighbours that are not the input's accent, by their readings or the
words of their errors.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import _DY, _X, BETA, EPS, GAMMA, _bn, _grad, _same, verdicts
from test_latex_real_world6 import _bn_affine, _bn_grads

M = len(_X)
_MU = _X.mean()
_XH = (_X - _MU) / np.sqrt(_X.var() + EPS)
YEH = "use batchnorm\nlet N = d\nlet X = x\nlet Y = y\nvector dJ_dY"
THOREY = "use batchnorm\nlet N = d\nlet h = x"


def _dj_dxhat(scale: float = 1.0) -> bool:
    """dJ/d xhat along the graph (xhat a node, J = dJ_dY . y) against gamma dJ_dY scale."""
    return _same(_grad(lambda xh: float(_DY @ (GAMMA * xh + BETA)), _XH), GAMMA * _DY * scale)


#: (preamble, true latex, false variant, truth of the true form, truth of the variant)
CASES = [
    (THOREY, r"y = \gamma \hat{h}+\beta", r"y = \gamma \hat{h}-\beta",
     lambda: _same(GAMMA * _bn(_X) + BETA, _bn_affine()),
     lambda: _same(GAMMA * _bn(_X) - BETA, _bn_affine())),
    (THOREY, r"\hat{h}= (h-\mu)(\sigma^2+\epsilon)^{-1/2}",
     r"\hat{h}= (h-\mu)(\sigma^2+\epsilon)^{-3/2}",
     lambda: _same((_X - _MU) * (_X.var() + EPS) ** -0.5, _bn(_X)),
     lambda: _same((_X - _MU) * (_X.var() + EPS) ** -1.5, _bn(_X))),
    (YEH, r"\hat{X}_i = \frac{X_i - \mu}{\sqrt{\sigma^2 + \epsilon}}",
     r"\hat{X}_i = \frac{X_i - \mu}{\sqrt{\sigma^2 - \epsilon}}",
     lambda: _same((_X - _MU) / np.sqrt(_X.var() + EPS), _bn(_X)),
     lambda: _same((_X - _MU) / np.sqrt(_X.var() - EPS), _bn(_X))),
    # the graph node: X-hat held as a leaf, y = gamma X-hat + beta
    (YEH, r"\frac{\partial J}{\partial \hat X} = \gamma \frac{\partial J}{\partial Y}",
     r"\frac{\partial J}{\partial \hat X} = \gamma^2 \frac{\partial J}{\partial Y}",
     _dj_dxhat, lambda: _dj_dxhat(GAMMA)),
    (YEH, r"\frac{\partial J}{\partial \hat X_i} = \frac{\partial J}{\partial y_i} \gamma",
     r"\frac{\partial J}{\partial \hat X_i} = \frac{\partial J}{\partial y_i} \beta",
     _dj_dxhat, lambda: _same(_grad(lambda xh: float(_DY @ (GAMMA * xh + BETA)), _XH),
                              BETA * _DY)),
    # the gradient of the gain through the whole layer, with X-hat's transpose
    (YEH, r"\frac{\partial J}{\partial \gamma} = \hat{X}^T \frac{\partial J}{\partial Y}",
     r"\frac{\partial J}{\partial \gamma} = X^T \frac{\partial J}{\partial Y}",
     lambda: _same(_bn_grads()[1], _XH @ _DY), lambda: _same(_bn_grads()[1], _X @ _DY)),
]


@pytest.mark.parametrize("pre, true, false, truth, false_truth", CASES,
                         ids=[c[1][:40] for c in CASES])
def test_accent_of_the_input_alias_is_the_input_accent(pre, true, false, truth,
                                                       false_truth) -> None:
    assert truth() is True and false_truth() is False
    got = verdicts(pre, true)
    claims = [s for _, s, _ in got if s != "defined"]
    assert claims and set(claims) <= {"proved"}, got
    bad = [s for _, s, _ in verdicts(pre, false) if s != "defined"]
    assert "refuted" in bad and "error" not in bad, bad


def _read_as(pre: str, latex: str) -> list[tuple[str, str]]:
    from symnorm.check.run import check_text
    text = f"```symnorm\n{pre}\n```\n\n```latex eq\n{latex}\n```\n"
    return [(v.status, str(v.statement)) for v in check_text(text, "a.md", sandbox=False).verdicts]


def test_read_as_shows_the_vocabulary_xhat() -> None:
    got = _read_as(THOREY, r"y = \gamma \hat{h}+\beta")
    assert got[0] == ("proved", "y == gamma * xhat + beta * ones"), got
    assert ("defined", "let xhat = BN(x)") in got, got


def test_the_documents_own_accented_name_wins() -> None:
    """A document that declares or defines Xhat itself keeps it: the free vector Xhat is no
    normalized batch (refuted), the document's own Xhat = X - mu its own (proved)."""
    xhat = r"\hat X = \frac{X - \mu}{\sqrt{\sigma^2 + \epsilon}}"
    got = _read_as("use batchnorm\nlet X = x\nvector Xhat", xhat)
    assert got[0] == ("refuted", "Xhat == (X - mu * ones) / sqrt(sigma ** 2 + eps)"), got
    own = "use batchnorm\nlet X = x\nlet Xhat = x - mean(x)*ones"
    assert _read_as(own, r"\hat X = X - \mu")[0] == ("proved", "Xhat == X - mu * ones")
    assert _read_as(own, xhat)[0][0] == "refuted"


def test_an_alias_that_is_not_exactly_the_input_keeps_its_own_name() -> None:
    """let X = 2x: X-hat is not the hat of the input (then \\hat X is the name Xhat: unknown
    on the right, a new definition on the left, as before)."""
    got = verdicts("use batchnorm\nlet X = 2*x", r"y = \gamma \hat X + \beta")
    assert [s for _, s, _ in got] == ["error"] and "unknown name 'Xhat'" in got[0][2], got
    got = _read_as("use batchnorm\nlet X = 2*x", r"\hat X = \frac{X - \mu}{\sigma}")
    assert got[0] == ("defined", "let Xhat = (X - mu * ones) / sigma"), got
    # no layer vocabulary: x is the document's own vector, its accent the document's name
    got = _read_as("vector x\nlet X = x", r"\hat X = X - \frac{1}{d}\sum_i X_i")
    assert got[0][0] == "defined" and got[0][1].startswith("let Xhat ="), got


@pytest.mark.parametrize("pre, latex", [
    ("use batchnorm\nlet X = x", r"\bar X = \frac{1}{d}\sum_i X_i"),
    ("use batchnorm\nlet h = x", r"y = \gamma \tilde{h} + \beta"),
    ("use batchnorm\nlet X = x\nvector dJ_dY\nlet Y = y",
     r"\frac{\partial J}{\partial \bar X} = \gamma \frac{\partial J}{\partial Y}"),
])
def test_an_accent_without_meaning_for_the_input_names_both_readings(pre, latex) -> None:
    got = verdicts(pre, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors, got
    assert "is the document's alias of the input x" in errors[0], errors
    assert "has no meaning in this block" in errors[0] and "two readings" in errors[0], errors


def test_the_input_accent_defined_by_the_document_is_that_name() -> None:
    """The document's own xbar is \\bar x, so \\bar X (X the input's alias) is xbar too."""
    got = _read_as("use batchnorm\nlet X = x\nlet xbar = x - mean(x)*ones",
                   r"\bar X = X - \mu")
    assert got[0] == ("proved", "xbar == X - mu * ones"), got

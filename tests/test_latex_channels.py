r"""Channel superscripts under ``use batchnorm`` (``symnorm/lang/latex_channel.py``; corpus 5
ov.bn.xhat, ov.bn.y): ``x^{(k)}``, ``\hat x^{(k)}``, ``\gamma^{(k)}``, ``\mathrm{E}[x^{(k)}]``
name the one channel the vocabulary models (Ioffe and Szegedy, section 3), never a power.
Truths by PyTorch's batch_norm or numpy, never by symnorm."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_refused, assert_variant_refuted
from test_latex_real_world2 import _X, BETA, EPS, GAMMA, _bn, _same, _t, _torch

M = len(_X)
_MU = _X.mean()
_XH = (_X - _MU) / np.sqrt(_X.var() + EPS)
BN = "use batchnorm"


def _bn_affine() -> np.ndarray:
    """PyTorch's BatchNorm of one feature (the entries of x its mini-batch), gamma and beta."""
    _, F = _torch()
    w, b = _t([GAMMA]), _t([BETA])
    return F.batch_norm(_t(_X).reshape(-1, 1), None, None, weight=w, bias=b, training=True,
                        eps=EPS).numpy().ravel()

CASES = {
    "xhat": (BN, r"\hat{x}^{(k)}=\frac{x^{(k)} - \mathrm{E}[x^{(k)}]}{\sqrt{\mathrm{Var}"
                 r"[x^{(k)}] + \epsilon}}",
             lambda: _same((_X - _MU) / np.sqrt(_X.var() + EPS), _bn(_X))),
    "y": (BN, r"y^{(k)} = \gamma^{(k)}\hat{x}^{(k)} + \beta^{(k)}",
          lambda: _same(GAMMA * _XH + BETA, _bn_affine())),
    # a bare vocabulary name beside the channel's: the vocabulary is that one channel
    "mean": (BN + "\nlet m = d", r"\mu^{(k)} = \frac{1}{m}\sum_{i=1}^m x_i",
             lambda: _same(np.sum(_X) / M, _MU)),
    # the document's own scalar keeps its power
    "own.power": (BN + "\nscalar a", r"a^{(2)} = a \cdot a", lambda: True),
}

VARIANTS = {
    "xhat": (r"+ \epsilon", r"- \epsilon",
             lambda: _same((_X - _MU) / np.sqrt(_X.var() - EPS), _bn(_X))),
    "y": (r"+ \beta", r"- \beta", lambda: _same(GAMMA * _XH - BETA, _bn_affine())),
    "mean": (r"\frac{1}{m}", r"\frac{2}{m}", lambda: _same(2 * np.sum(_X) / M, _MU)),
    "own.power": (r"a \cdot a", r"a \cdot a \cdot a", lambda: _same(2.0 ** 2, 2.0 ** 3)),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_channel_superscript_is_proved(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_false_variant_is_refuted(key: str) -> None:
    pre, latex, _ = CASES[key]
    assert_variant_refuted(pre, latex, *VARIANTS[key])


def test_a_new_name_with_the_channel_is_defined() -> None:
    from test_latex_real_world2 import verdicts

    got = verdicts(BN, r"\hat{y}^{(k)}=\gamma^{(k)}\hat{x}^{(k)} + \beta^{(k)}")
    assert [(lb, s) for lb, s, _ in got if s != "defined" or lb == "eq.yhat"] == \
        [("eq.yhat", "defined")], got


REFUSED = {
    "two.channels": (BN, r"\hat{x}^{(k)}=\frac{x^{(j)} - \mu}{\sqrt{\sigma^2 + \epsilon}}",
                     ("(k) at", "and (j) in one equation")),
    "digit": (BN, r"\gamma^{(2)} \hat x = \gamma \hat x", ("a power 2, or channel 2",
                                                            "two readings")),
    "digit.x": (BN, r"x^{(2)} = x", ("a power 2, or channel 2",)),
    "own.symbol": (BN + "\nscalar a", r"a^{(k)} \hat x = \hat x",
                   ("the document's own a has a meaning of its own",)),
    "defined.letter": (BN + "\nscalar k", r"\gamma^{(k)} = \gamma",
                       ("k is a name of the document", "two readings")),
    "group": (BN, r"(x - \mu)^{(k)} = x - \mu", ("on a group",)),
    "index.too": (BN, r"\mu^{(k)} = \frac{1}{d}\sum_{k=1}^d x_k",
                  ("k is also an index of the equation", "two readings")),
    "dimension": (BN, r"d^{(k)} = d", ("meaning of its own",)),
    # not under another layer's vocabulary: there it stays the layer-index error
    "layernorm": ("use layernorm", r"\hat{x}^{(k)}=\frac{x^{(k)} - \mu}{\sigma}",
                  ("superscript k is not a defined name",)),
    "two.vocabularies": ("use batchnorm\nuse layernorm", r"\gamma^{(k)} = \gamma",
                         ("superscript k is not a defined name",)),
}


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_unsafe_neighbours_are_refused(key: str) -> None:
    pre, latex, words = REFUSED[key]
    assert_refused(pre, latex, words)

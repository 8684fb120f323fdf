r"""A per-element gain written against its vector, ``y = \gamma\hat{x} + \beta`` with
``use layernorm(affine=elementwise)`` (``symnorm/lang/latex_gain.py``; corpus 5 kaixih.y):
read as ``hadamard(gamma, xhat)``, the layer's own product; every other juxtaposition of two
vectors (``u v``, ``x x``, ``\mathbf 1 x``, ``\gamma\gamma``, three vectors, ``\cdot``) stays
refused.  Truths by PyTorch's layer_norm or numpy, never by symnorm."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_refused, assert_variant_refuted
from test_latex_real_world2 import _X, EPS, _same
from test_latex_real_world5 import _B, _G, _ln_affine

_MU = _X.mean()
_XH = (_X - _MU) / np.sqrt(_X.var() + EPS)
LN_E = "use layernorm(affine=elementwise)"
RMS_E = "use rmsnorm(affine=elementwise)"


def _rms_affine() -> np.ndarray:
    from test_latex_real_world2 import _rms
    return _rms(_X, weight=_G)


CASES = {
    "kaixih": (LN_E, r"y=\gamma\hat{x} + \beta", lambda: _same(_G * _XH + _B, _ln_affine())),
    # an alias of the gain, and the normalized vector written out
    "alias": (LN_E + "\nlet w = gamma",
              r"y = w \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}} + \beta",
              lambda: _same(_G * (_X - _MU) / np.sqrt(_X.var() + EPS) + _B, _ln_affine())),
    # scalars in the run: 2 gamma xhat
    "scaled": (LN_E, r"y = 2\gamma\hat{x} + \beta - \gamma\hat x",
               lambda: _same(2 * _G * _XH + _B - _G * _XH, _ln_affine())),
    "rms": (RMS_E, r"y = \gamma \frac{x}{\sqrt{\frac{1}{d}\sum_i x_i^2 + \epsilon}}",
            lambda: _same(_G * _X / np.sqrt(np.mean(_X ** 2) + EPS), _rms_affine())),
}

VARIANTS = {
    "kaixih": (r"+ \beta", r"- \beta", lambda: _same(_G * _XH - _B, _ln_affine())),
    "alias": (r"\sigma^2+\epsilon", r"\sigma^2", lambda: _same(
        _G * (_X - _MU) / np.sqrt(_X.var()) + _B, _ln_affine())),
    "scaled": (r"- \gamma\hat x", r"+ \gamma\hat x",
               lambda: _same(3 * _G * _XH + _B, _ln_affine())),
    "rms": (r"+ \epsilon", r"- \epsilon", lambda: _same(
        _G * _X / np.sqrt(np.mean(_X ** 2) - EPS), _rms_affine())),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_juxtaposed_gain_is_proved(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_false_variant_is_refuted(key: str) -> None:
    pre, latex, _ = CASES[key]
    assert_variant_refuted(pre, latex, *VARIANTS[key])


def test_read_as_is_the_entrywise_product() -> None:
    from symnorm.check.run import check_text

    text = f"```symnorm\ndocument {LN_E}\n```\n\n```latex eq\n{CASES['kaixih'][1]}\n```\n"
    res = check_text(text, "t.md", sandbox=False)
    assert str(res.verdicts[0].statement) == "y == hadamard(gamma, xhat) + beta", res.verdicts


_VV = "cannot multiply a vector by a vector"
REFUSED = {
    # Triton's \cdot between vectors is its dot product: never entrywise here
    "cdot": (LN_E, r"y = \gamma \cdot \hat{x} + \beta", (_VV,)),
    # the gain times itself: entrywise square or gamma^T gamma
    "gain.twice": (LN_E, r"y = \gamma\gamma + \beta", (_VV,)),
    # ones beside a vector: 1^T x (a sum) as often as anything
    "ones": (LN_E, r"y = \gamma \mathbf 1 + \beta", (_VV,)),
    # three vectors side by side
    "three": (LN_E, r"y = \gamma \hat x \hat x + \beta", (_VV,)),
    # two vectors of the document (w x + b is w^T x + b in much of machine learning)
    "generic": (LN_E + "\nlet u = x\nlet w = beta", r"y = u w + \beta", (_VV,)),
    # a transposed factor: the outer product, a matrix
    "transposed": (LN_E, r"y = \gamma \hat x^\top + \beta", ("a matrix and a vector",)),
    # without affine=elementwise gamma is a scalar: an ordinary product (proved below)
}


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_other_vector_juxtapositions_stay_refused(key: str) -> None:
    pre, latex, words = REFUSED[key]
    assert_refused(pre, latex, words)


def test_a_scalar_gain_is_the_ordinary_product() -> None:
    from test_latex_real_world2 import BETA, GAMMA, _ln
    assert_proved("use layernorm", r"y = \gamma\hat{x} + \beta",
                  lambda: _same(GAMMA * _XH + BETA, GAMMA * _ln(_X) + BETA))

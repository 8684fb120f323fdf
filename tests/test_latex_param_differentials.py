r"""The differential of a per-element parameter with ``vector dy`` (red team 12):
``d\gamma_i = dy_i \hat x_i``, ``d\beta_i = dy_i`` with ``use layernorm(affine=elementwise)``
or ``use rmsnorm(affine=elementwise)`` are entry i of the gradient by gamma (beta); each true
form proved, each one-token false variant refuted, the truth by numpy central differences of
L = dy . y (never by symnorm)."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_variant_refuted
from test_latex_real_world2 import _DY, _G, _X, EPS, _same, verdicts

_B = np.array([0.5, -1.0, 0.25, 2.0])


def _ln_hat(x):
    return (x - x.mean()) / np.sqrt(x.var() + EPS)


def _rms_hat(x):
    return x / np.sqrt(np.mean(x ** 2) + EPS)


def _grad(f, at):
    h = 1e-6
    return np.array([(f(at + h * e) - f(at - h * e)) / (2 * h) for e in np.eye(len(at))])


def _ln_dgamma():
    return _grad(lambda g: float(_DY @ (g * _ln_hat(_X) + _B)), _G)


def _ln_dbeta():
    return _grad(lambda b: float(_DY @ (_G * _ln_hat(_X) + b)), _B)


def _rms_dgamma():
    return _grad(lambda g: float(_DY @ (g * _rms_hat(_X))), _G)


LN = "use layernorm(affine=elementwise)\nvector dy"
RMS = "use rmsnorm(affine=elementwise)\nvector dy"
CASES = {
    "ln.dgamma": (LN, r"d\gamma_i = dy_i \hat x_i", lambda: _same(_ln_dgamma(), _DY * _ln_hat(_X))),
    "ln.dbeta": (LN, r"d\beta_i = dy_i", lambda: _same(_ln_dbeta(), _DY)),
    "ln.both": (LN, r"d\gamma_i = dy_i \cdot \hat{x}_i, \quad d\beta_i = dy_i",
                lambda: _same(_ln_dgamma(), _DY * _ln_hat(_X)) and _same(_ln_dbeta(), _DY)),
    "rms.dgamma": (RMS, r"d\gamma_i = dy_i \hat x_i",
                   lambda: _same(_rms_dgamma(), _DY * _rms_hat(_X))),
}

VARIANTS = {
    "ln.dgamma": (r"\hat x_i", "x_i", lambda: _same(_ln_dgamma(), _DY * _X)),
    "ln.dbeta": ("= dy_i", "= -dy_i", lambda: _same(_ln_dbeta(), -_DY)),
    "ln.both": (r"d\beta_i = dy_i", r"d\beta_i = dy_i \hat x_i",
                lambda: _same(_ln_dbeta(), _DY * _ln_hat(_X))),
    "rms.dgamma": (r"\hat x_i", "x_i", lambda: _same(_rms_dgamma(), _DY * _X)),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_parameter_differential_is_proved(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_one_token_variant_is_refuted(key: str) -> None:
    preamble, latex, _ = CASES[key]
    assert_variant_refuted(preamble, latex, *VARIANTS[key])


def test_a_scalar_gain_in_the_block_is_refused_with_the_option() -> None:
    # the option of a `use` line holds for its block: a latex block after it has scalars
    from symnorm.check.run import check_text
    text = ("```symnorm\nuse layernorm(affine=elementwise)\nvector dy\n```\n\n"
            "```latex e\nd\\gamma_i = dy_i \\hat x_i\n```\n")
    got = [(v.status, v.message) for v in check_text(text, "b.md", sandbox=False).verdicts]
    assert got and got[0][0] == "error", got
    assert "dgamma_i: an entry of gamma, which is a scalar in this block" in got[0][1], got
    assert "document use ...(affine=elementwise)" in got[0][1], got
    assert "b.md:7:1:" in got[0][1], got

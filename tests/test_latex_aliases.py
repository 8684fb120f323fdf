r"""Aliases of a vocabulary's LaTeX-only names (``let Y = y``, ``let B = beta``, ``let g =
gamma``, ``let M = mu``) in symnorm blocks: each reads in LaTeX as the name it aliases, so a
statement ``Y = ...`` is a claim about the output; truths by PyTorch's functional layers
(``test_latex_real_world2``), one-token false variants refuted, refusals located."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_variant_refuted
from test_latex_real_world2 import _X, BETA, EPS, GAMMA, _ln, _rms, _same, verdicts

_XH = (_X - _X.mean()) / np.sqrt(_X.var() + EPS)

#: (preamble, LaTeX, numpy truth of the formula as written)
CASES = {
    "Y": ("use layernorm\nlet Y = y", r"Y = \gamma \hat x + \beta",
          lambda: _same(GAMMA * _XH + BETA, GAMMA * _ln(_X) + BETA)),
    # the layer without affine parameters, as the use line says
    "Y.noaffine": ("use layernorm(affine=none)\nlet Y = y", r"Y = \hat x", lambda: _same(_XH, _ln(_X))),
    "B": ("use layernorm\nlet B = beta", r"y = \gamma \hat x + B",
          lambda: _same(GAMMA * _XH + BETA, GAMMA * _ln(_X) + BETA)),
    "g": ("use layernorm\nlet g = gamma", r"y = g \hat x + \beta",
          lambda: _same(GAMMA * _XH + BETA, GAMMA * _ln(_X) + BETA)),
    # mltalks' capital X, Y (corpus 4), with the aliases declared
    "XY": ("use layernorm\nlet X = x\nlet Y = y",
           r"Y = \frac{X - E[X]}{\sqrt{Var[X] + \epsilon}} * \gamma + \beta",
           lambda: _same((_X - _X.mean()) / np.sqrt(_X.var() + EPS) * GAMMA + BETA,
                         _ln(_X) * GAMMA + BETA)),
    "M": ("use layernorm\nlet M = mu", r"M = \frac{1}{d}\sum_i x_i",
          lambda: _same(np.sum(_X) / len(_X), _X.mean())),
    # a scalar weight w of RMSNorm made the vocabulary's gain (the suggested fix)
    "w": ("use rmsnorm(affine=gain)\nlet w = gamma", r"x / \mathrm{RMS}(x) * w",
          lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * GAMMA, _rms(_X) * GAMMA)),
}

VARIANTS = {
    "Y": (r"+ \beta", r"- \beta", lambda: _same(GAMMA * _XH - BETA, GAMMA * _ln(_X) + BETA)),
    "Y.noaffine": (r"\hat x", r"2\hat x", lambda: _same(2 * _XH, _ln(_X))),
    "B": ("+ B", "- B", lambda: _same(GAMMA * _XH - BETA, GAMMA * _ln(_X) + BETA)),
    "g": (r"g \hat x", r"g^2 \hat x",
          lambda: _same(GAMMA ** 2 * _XH + BETA, GAMMA * _ln(_X) + BETA)),
    "XY": (r"+ \epsilon", r"+ 2\epsilon",
           lambda: _same((_X - _X.mean()) / np.sqrt(_X.var() + 2 * EPS) * GAMMA + BETA,
                         _ln(_X) * GAMMA + BETA)),
    "M": (r"\frac{1}{d}", r"\frac{2}{d}", lambda: _same(2 * np.sum(_X) / len(_X), _X.mean())),
    "w": ("* w", "* w * w",
          lambda: _same(_rms(_X) * GAMMA * GAMMA, _rms(_X) * GAMMA)),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_alias_reads_as_the_vocabulary_name(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_one_token_false_variant_is_refuted(key: str) -> None:
    preamble, latex, _ = CASES[key]
    assert_variant_refuted(preamble, latex, *VARIANTS[key])


def _errors(preamble: str, latex: str = "y = y") -> list[str]:
    return [m for _, s, m in verdicts(preamble, latex) if s == "error"]


def test_alias_in_a_claim_is_a_located_error() -> None:
    (msg,) = _errors("use layernorm\nlet Y = y\nclaim c: Y == N(x)")
    assert msg.startswith("rw2.md:4:10: 'Y' is the alias of y (line 3), which has a meaning "
                          "only in LaTeX equations"), msg


def test_alias_defined_twice_is_an_error() -> None:
    (msg,) = _errors("use layernorm\nlet B = beta\nlet B = gamma")
    assert msg.startswith("rw2.md:4:1: 'B' is already defined (line 3)"), msg


def test_alias_of_a_name_the_vocabulary_lacks_is_unknown() -> None:
    # use rmsnorm gives mu no meaning: let M = mu stays an unknown name
    (msg,) = _errors("use rmsnorm\nlet M = mu")
    assert "rw2.md:3:9: unknown name 'mu'" in msg, msg


def test_declared_weight_message_suggests_the_alias_that_works() -> None:
    msg, = _errors("use rmsnorm\nvector w", r"y = x / \mathrm{RMS}(x) * w")
    assert "`let w = gamma`" in msg and "affine=elementwise" in msg, msg
    # the fix it names: a scalar gain (proved above, "w"), or a per-element one
    got = verdicts("document use rmsnorm(affine=elementwise)\nlet w = gamma",
                   r"y = x / \mathrm{RMS}(x) \odot w")
    assert [s for _, s, _ in got if s != "defined"] == ["proved"], got

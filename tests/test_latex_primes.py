r"""Primes are part of a name: ``x'``, ``x'_i``, ``x^{\prime}_i``, ``\mathbf{x}^{\prime}``
read as the name ``xprime`` (entry i of it), distinct from ``x``, as ``\hat x`` is ``xhat``;
a symnorm block names it ``x'`` or ``xprime`` (``let x' = y`` aliases the output).  Truths
come from numpy (PyTorch's functional BatchNorm for the layer), never from symnorm."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_variant_refuted
from test_latex_real_world2 import _X, BETA, EPS, GAMMA, _bn, _same, verdicts

from symnorm.check.run import check_text


def _bn_formula(x, eps=EPS):
    return (x - x.mean()) / np.sqrt(x.var() + eps) * GAMMA + BETA


CASES = {
    # PyTorch Geometric's BatchNorm docstring writes the output x'; `let x' = y` names it
    "pyg.output": ("use batchnorm\nlet x' = y",
                   r"\mathbf{x}^{\prime} = \frac{\mathbf{x} - \textrm{E}[\mathbf{x}]}{\sqrt{"
                   r"\textrm{Var}[\mathbf{x}] + \epsilon}} \gamma + \beta",
                   lambda: _same(_bn_formula(_X), GAMMA * _bn(_X) + BETA)),
    "entry": ("use layernorm\nlet x' = x + 3*ones", r"x'_i = x_i + 3",
              lambda: _same(_X + 3, _X + 3)),
    "sup.entry": ("use layernorm\nlet xprime = x + 3*ones", r"x^{\prime}_i = 3 + x_i",
                  lambda: True),
    # with the layer map: a shifted input x' normalizes as x does
    "layer": ("use layernorm\nlet x' = x + 3*ones", r"\mathrm{LN}(x') = \mathrm{LN}(x)",
              lambda: True),
}

VARIANTS = {
    "pyg.output": (r"+ \epsilon", r"+ 2\epsilon",
                   lambda: _same(_bn_formula(_X, 2 * EPS), GAMMA * _bn(_X) + BETA)),
    "entry": ("+ 3", "+ 2", lambda: _same(_X + 3, _X + 2)),
    "sup.entry": ("3 + x_i", "3 x_i", lambda: _same(_X + 3, 3 * _X)),
    # the prime contributes: LN(x) against itself shifted by 3 and scaled
    "layer": (r"\mathrm{LN}(x')", r"\mathrm{LN}(2x')",
              lambda: _same(((2 * (_X + 3)) - (2 * (_X + 3)).mean())
                            / np.sqrt((2 * (_X + 3)).var() + EPS),
                            (_X - _X.mean()) / np.sqrt(_X.var() + EPS))),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_primed_name_is_proved(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_one_token_variant_is_refuted(key: str) -> None:
    preamble, latex, _ = CASES[key]
    assert_variant_refuted(preamble, latex, *VARIANTS[key])


def test_the_prime_is_part_of_the_name() -> None:
    # x' is another name than x: with x' = 2x, x' = x is refuted (x = 0 is excluded by numpy's
    # truth at the sample point: 2x != x)
    assert not _same(2 * _X, _X)
    got = verdicts("use layernorm\nlet x' = 2*x", r"x' = x")
    assert [s for _, s, _ in got] == ["refuted"], got
    # the claim language spells it x' or xprime: the same name
    got = verdicts("use layernorm\nlet xprime = 2*x\nclaim c: x' == 2*x", r"x' = 2x")
    assert [s for _, s, _ in got] == ["proved", "proved"], got


def test_an_undeclared_primed_name_on_the_left_is_a_definition() -> None:
    got = verdicts("use layernorm", r"y' = \hat x")
    rows = {lb: (s, m) for lb, s, m in got}
    assert rows["eq.yprime"][0] == "defined", got
    assert not [s for _, s, _ in got if s not in ("defined",)], got


@pytest.mark.parametrize("latex, words", [
    (r"f'(x) = x", "a prime on a function is its derivative"),
    (r"a = (x+1)'", "a prime on (: \\prime is read only as a decoration of a name"),
    (r"a = x^{\prime 2}", "a prime and a power in one superscript"),
    (r"a = x_1'", "a prime here is not a name's decoration"),
    (r"a = \prime", "unsupported LaTeX command \\prime"),
])
def test_a_prime_that_is_no_decoration_is_refused(latex: str, words: str) -> None:
    got = verdicts("use layernorm\nscalar a", latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and words in errors[0], got


def test_primes_inside_partials_name_the_primed_quantity() -> None:
    # red team 14: \partial x'_i was refused with a hint recommending x'_i; with let x' = y
    # the partial by (of) x' is the output's.  d y_i / d gamma = xhat_i (y = gamma xhat +
    # beta), not x_i
    xhat = (_X - _X.mean()) / np.sqrt(_X.var() + EPS)
    assert not np.allclose(xhat, _X)
    text = ("```symnorm\nuse layernorm\nvector dl_dy\nlet x' = y\n"
            r"latex t1: \frac{\partial \ell}{\partial x'_i} = \frac{\partial \ell}{\partial y_i}"
            "\n"
            r"latex t3: \frac{\partial \mathbf{x}^{\prime}_i}{\partial \gamma} = \hat x_i" "\n"
            r"latex f3: \frac{\partial \mathbf{x}^{\prime}_i}{\partial \gamma} = x_i" "\n```\n")
    got = {v.label: v.status for v in check_text(text, "p.md", sandbox=False).verdicts}
    assert (got["t1.1"], got["t3.1"], got["f3.1"]) == ("proved", "proved", "refuted"), got

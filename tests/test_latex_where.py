r"""A vocabulary name defined by the equation that used it (a where-clause) has the source's
meaning (issue 10: the usual meaning "unless the document says otherwise"): ``\hat x =
\frac{x-\mu}{\sigma}, \text{ where } \sigma = \sqrt{\mathrm{Var}[x]+\epsilon}`` holds, as the
source means it, although the vocabulary's sigma has no eps.  Alone, ``\sigma = ...`` is a
claim about the vocabulary's sigma; a listing that defines a name before it uses it states the
vocabulary's quantities.  A claim-language name that is no LaTeX convention (use rmsnorm's r,
which derivations write for the root mean square and for its inverse) cannot be given the
source's meaning inside an equation: refused.  Truths by numpy and PyTorch's functional
layers (``test_latex_real_world2``); one-token false variants refuted."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_variant_refuted
from test_latex_real_world2 import _X, BETA, EPS, GAMMA, _ln, _rms, _same, verdicts

M = len(_X)
_MU, _VAR = _X.mean(), _X.var()


def _xhat_with(sigma: float) -> bool:
    """Whether (x - mu)/sigma is LayerNorm's normalized x."""
    return _same((_X - _MU) / sigma, _ln(_X))


CASES = {
    "sigma.eps": ("use layernorm", r"\hat x = \frac{x-\mu}{\sigma}, \quad \text{where } "
                  r"\sigma = \sqrt{\frac1d\sum_i (x_i-\mu)^2 + \epsilon}",
                  lambda: _xhat_with(np.sqrt(_VAR + EPS))),
    "sigma.comma": ("use layernorm", r"\hat x_i = \frac{x_i-\mu}{\sigma}, \quad "
                    r"\sigma = \sqrt{\mathrm{Var}[x] + \epsilon}",
                    lambda: _xhat_with(np.sqrt(_VAR + EPS))),
    "mu.where": ("use layernorm", r"y = \gamma\frac{x - m}{\sqrt{\sigma^2+\epsilon}} + \beta"
                 r",\quad m = \frac{1}{d}\sum_i x_i",
                 lambda: True),  # m is no name of use layernorm: a plain definition
    # the listing defines mu, then uses it: both rows are claims about the vocabulary's
    "listing": ("use layernorm", r"\mu = \frac1d\sum_i x_i,\quad "
                r"\sigma^2 = \frac1d\sum_i (x_i-\mu)^2",
                lambda: _same(np.sum(_X) / M, _MU) and _same(np.sum((_X - _MU) ** 2) / M, _VAR)),
    # the paper's notation is use layernorm's: its P, c are the vocabulary's, claims
    "paper": ("use layernorm", r"P=I-\frac{\mathbf1\mathbf1^\top}{d},\quad c=Px,\quad "
              r"\hat x = \frac{c}{\sqrt{c^\top c/d+\epsilon}}",
              lambda: _same((_X - _MU) / np.sqrt(np.sum((_X - _MU) ** 2) / M + EPS), _ln(_X))),
    # a where-clause's own vector (red team 15: "cannot add a vector and a scalar")
    "xhat.where": ("use layernorm", r"y = \gamma\hat x + \beta, \text{ where } \hat x = "
                   r"\frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}",
                   lambda: _same(GAMMA * (_X - _MU) / np.sqrt(_VAR + EPS) + BETA,
                                 GAMMA * _ln(_X) + BETA)),
    "rms.where": ("use rmsnorm", r"\hat x = \frac{x}{s},\quad \text{where } "
                  r"s = \sqrt{\frac1d\sum_i x_i^2 + \epsilon}",
                  lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS), _rms(_X))),
}

VARIANTS = {
    # the source's own sigma without eps: no longer LayerNorm's normalized x
    "sigma.eps": (r" + \epsilon}", "}", lambda: _xhat_with(np.sqrt(_VAR))),
    "sigma.comma": (r"\mathrm{Var}[x] + \epsilon", r"\mathrm{Var}[x] + 2\epsilon",
                    lambda: _xhat_with(np.sqrt(_VAR + 2 * EPS))),
    "listing": (r"\frac1d\sum_i (x_i", r"\frac{1}{d-1}\sum_i (x_i",
                lambda: _same(np.sum((_X - _MU) ** 2) / (M - 1), _VAR)),
    "xhat.where": (r"\sigma^2+\epsilon", r"\sigma^2", lambda: _same(
        GAMMA * (_X - _MU) / np.sqrt(_VAR) + BETA, GAMMA * _ln(_X) + BETA)),
    "rms.where": (r"\frac1d\sum_i x_i^2", r"\frac1d\sum_i x_i",
                  lambda: _same(_X / np.sqrt(np.mean(_X) + EPS), _rms(_X))),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_where_clause_reads_the_sources_meaning(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_one_token_false_variant_is_refuted(key: str) -> None:
    preamble, latex, _ = CASES[key]
    assert_variant_refuted(preamble, latex, *VARIANTS[key])


def test_a_where_clause_defines_the_name_and_the_listing_checks_it() -> None:
    where = verdicts(*CASES["sigma.eps"][:2])
    assert ("eq.sigma", "defined") in [(lb, s) for lb, s, _ in where], where
    listing = verdicts(*CASES["listing"][:2])
    assert [s for _, s, _ in listing if s != "defined"] == ["proved", "proved"], listing


def test_alone_the_relation_is_a_claim_about_the_vocabulary_name() -> None:
    # the vocabulary's sigma has no eps: sigma = sqrt(Var + 2 eps) alone is false of it, and
    # with eps it is the source's own sigma, checked to be the layer's denominator
    # (test_latex_own_sigma.py): sqrt(Var + 2 eps) is not
    assert not _same(np.sqrt(_VAR + 2 * EPS), np.sqrt(_VAR + EPS))
    got = verdicts("use layernorm", r"\sigma = \sqrt{\frac1d\sum_i (x_i-\mu)^2 + 2\epsilon}")
    assert "refuted" in [s for _, s, _ in got], got
    # without eps, a claim about the vocabulary's sigma: sqrt(2 Var) is not sqrt(Var)
    assert not _same(np.sqrt(2 * _VAR), np.sqrt(_VAR))
    got = verdicts("use layernorm", r"\sigma = \sqrt{\frac2d\sum_i (x_i-\mu)^2}")
    assert [s for _, s, _ in got if s != "defined"] == ["refuted"], got


@pytest.mark.parametrize("latex", [
    # limei1221/triton-rmsnorm: r = 1/RMS(x) there, the root mean square in use rmsnorm
    r"\hat x = r x = \frac{x}{\mathrm{RMS}(x)}, \quad r = \frac{1}{\mathrm{RMS}(x)}",
    r"\hat x_i = r x_i,\quad \text{where } r = \frac{1}{\sqrt{\frac1d\sum_j x_j^2+\epsilon}}",
])
def test_a_claim_language_name_in_a_where_clause_is_refused(latex: str) -> None:
    # true as the source means it (r the inverse root mean square) ...
    r = 1 / np.sqrt(np.mean(_X ** 2) + EPS)
    assert _same(r * _X, _rms(_X))
    got = verdicts("use rmsnorm", latex)
    errors = [m for _, s, m in got if s == "error"]
    # ... and never refuted against the vocabulary's r: refused, naming both readings
    assert errors and "r is a claim-language name of the vocabulary" in errors[0], got
    assert "two readings" in errors[0] and "refuted" not in [s for _, s, _ in got], got


def test_a_where_clause_of_the_vocabularys_function_with_its_eps_is_a_claim() -> None:
    # PyTorch's RMSNorm docstring: RMS(x) with eps inside, as use rmsnorm's RMS
    assert _same(_X / np.sqrt(EPS + np.mean(_X ** 2)), _rms(_X))
    got = verdicts("document use rmsnorm(affine=elementwise)",
                   r"y_i = \frac{x_i}{\mathrm{RMS}(x)} * \gamma_i, \quad \text{where} \quad "
                   r"\text{RMS}(x) = \sqrt{\epsilon + \frac{1}{n} \sum_{i=1}^{n} x_i^2}")
    assert [s for _, s, _ in got if s != "defined"] == ["proved", "proved"], got


def test_a_where_clause_of_the_vocabularys_function_without_its_eps_is_refused() -> None:
    # Zhang and Sennrich's README: RMS(x) without eps; use rmsnorm's RMS holds eps, so the first
    # relation could use either (red team 13: the source's own x-bar was refuted after it)
    assert not _same(np.sqrt(np.mean(_X ** 2)), np.sqrt(np.mean(_X ** 2) + EPS))
    got = verdicts("use rmsnorm\nvector g",
                   r"\bar x_i = \frac{x_i}{\mathrm{RMS}(x)} g_i \quad\text{where}\ "
                   r"\mathrm{RMS}(x) = \sqrt{\frac{1}{n}\sum_{i=1}^{n} x_i^2}")
    errors = [m for _, s, m in got if s == "error"]
    assert errors and "defines RMS(...) after the equation used it, without eps" in errors[0]
    assert "two readings" in errors[0]

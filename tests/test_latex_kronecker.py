"""The Kronecker delta in index notation (symnorm/lang/latex_kronecker.py; corpus 6's
Thorey): ``\\delta_{ik}``, ``\\delta_{i,k}`` and ``\\delta_{ik}(..)`` inside sums over one of
its indices and in two-index (Jacobian-entry) equations, each true form proved and a
one-token false variant refuted (truth by numpy / PyTorch, never by symnorm); the other
subscripts of an undeclared delta refused by name; a document's own delta kept.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import _X, EPS, _bn, _grad, _jac, _same, verdicts

M = len(_X)
_MU, _VAR = _X.mean(), _X.var()
_A = np.array([2.0, -1.0, 0.5, 3.0])
_E = np.eye(M)
BN_N = "use batchnorm\nlet N = d"
VEC = "vector a"


def _dvar(scale: float = 2.0) -> bool:
    """The gradient of the batch variance against scale / N (x - mu)."""
    return _same(_grad(lambda v: v.var(), _X), scale / M * (_X - _MU))


def _jac_bn(mean_sign: float = -1.0) -> bool:
    """d xhat_i / d x_k of BatchNorm against 1/s (delta_ik + mean_sign/N) - xhat_i xhat_k/(N s)."""
    s = np.sqrt(_VAR + EPS)
    xh = (_X - _MU) / s
    want = (_E + mean_sign / M) / s - np.outer(xh, xh) / (M * s)
    return _same(_jac(_bn, _X), want)


#: (preamble, true latex, false variant, truth of the true form, truth of the variant)
CASES = [
    # a sum over one of the delta's indices: written together, with a comma, either order
    (VEC, r"\sum_k \delta_{i,k} a_k = a_i", r"\sum_k \delta_{i,k} a_k = 2a_i",
     lambda: _same(_E @ _A, _A), lambda: _same(_E @ _A, 2 * _A)),
    (VEC, r"\sum_k a_k \delta_{k,i} = a_i", r"\sum_k a_k \delta_{k,i} = -a_i",
     lambda: _same(_A @ _E, _A), lambda: _same(_A @ _E, -_A)),
    # the delta before a bracket is a product (Thorey's \delta_{jl}\left(h_{pl}-\mu_l\right))
    (BN_N, r"\frac{\partial \sigma^2}{\partial x_k} = \frac{2}{N}\sum_i \delta_{ik}(x_i - \mu)",
     r"\frac{\partial \sigma^2}{\partial x_k} = \frac{1}{N}\sum_i \delta_{ik}(x_i - \mu)",
     _dvar, lambda: _dvar(1.0)),
    (BN_N, r"\frac{\partial \sigma^2}{\partial x_i} = \frac{1}{N}\sum_p 2\left(\delta_{ip}-"
     r"\frac{1}{N}\right)\left(x_p-\mu\right)",
     r"\frac{\partial \sigma^2}{\partial x_i} = \frac{1}{N}\sum_p 3\left(\delta_{ip}-"
     r"\frac{1}{N}\right)\left(x_p-\mu\right)",
     _dvar, lambda: _same(_grad(lambda v: v.var(), _X),
                          3 / M * ((_E - 1 / M) @ (_X - _MU)))),
    # a two-index (Jacobian-entry) equation
    (BN_N, r"\frac{\partial \hat x_i}{\partial x_k} = \frac{1}{\sqrt{\sigma^2+\epsilon}}"
     r"\left(\delta_{i,k} - \frac{1}{N}\right) - \frac{\hat x_i \hat x_k}{N\sqrt{\sigma^2+"
     r"\epsilon}}",
     r"\frac{\partial \hat x_i}{\partial x_k} = \frac{1}{\sqrt{\sigma^2+\epsilon}}"
     r"\left(\delta_{i,k} + \frac{1}{N}\right) - \frac{\hat x_i \hat x_k}{N\sqrt{\sigma^2+"
     r"\epsilon}}",
     _jac_bn, lambda: _jac_bn(1.0)),
    (BN_N, r"\frac{\partial}{\partial x_k}\left( x_i - \mu \right) = \delta_{ik} - \frac{1}{N}",
     r"\frac{\partial}{\partial x_k}\left( x_i - \mu \right) = \delta_{ik} - \frac{2}{N}",
     lambda: _same(_jac(lambda v: v - v.mean(), _X), _E - 1 / M),
     lambda: _same(_jac(lambda v: v - v.mean(), _X), _E - 2 / M)),
]


@pytest.mark.parametrize("pre, true, false, truth, false_truth", CASES,
                         ids=[c[1][:48] for c in CASES])
def test_kronecker_delta_proved_and_variant_refuted(pre, true, false, truth,
                                                    false_truth) -> None:
    assert truth() is True and false_truth() is False
    got = verdicts(pre, true)
    claims = [s for _, s, _ in got if s != "defined"]
    assert claims and set(claims) <= {"proved"}, got
    bad = [s for _, s, _ in verdicts(pre, false) if s != "defined"]
    assert "refuted" in bad and "error" not in bad, bad


_ANY = "delta is not a name the document declares or defines, and \\delta with a subscript " \
    "is read only as the Kronecker delta"


@pytest.mark.parametrize("latex, fragment", [
    (r"\delta_i = a_i", "\\delta_{i}: " + _ANY),                 # one index (a new vector?)
    (r"y_i = \delta_{1} a_i", "\\delta_{1}: delta"),             # a number
    (r"\sum_k \delta_{k1} a_k = a_1", "one index or a number"),
    (r"\sum_i \delta_{ii} = d", "the same index twice"),         # a count, or a typo
    (r"a_i = \delta_{i,i} a_i", "the same index twice"),
    (r"\sum_k \delta_{kl} a_k = a_l", "a letter that is no index of the equation (l;"),
    (r"a_i = \delta_{ijk}", "\\delta_{ijk}: delta"),
])
def test_other_subscripts_of_an_undeclared_delta_are_refused(latex: str, fragment: str) -> None:
    got = verdicts(VEC, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and fragment in errors[0], got


def test_a_documents_own_delta_is_the_documents() -> None:
    # a declared vector delta: \delta_i is its entry (a free vector, so refuted, not refused)
    got = verdicts("vector a, delta", r"\delta_i = a_i")
    assert [s for _, s, _ in got] == ["refuted"], got
    # a declared scalar delta is no matrix: \delta_{ij} is refused, never the identity
    got = verdicts("vector a\nscalar delta", r"\sum_j \delta_{ij} a_j = a_i")
    errors = [m for _, s, m in got if s == "error"]
    assert errors and "\\delta_{ij} is the Kronecker delta where the document does not " \
        "define delta" in errors[0], got
    # ... and before a bracket its product is the document's (its own value times a_i)
    got = verdicts("vector a\nscalar delta", r"\delta (a_i + a_i) = 2\delta a_i")
    assert [s for _, s, _ in got] == ["proved"], got


def test_bare_delta_is_still_a_name() -> None:
    """Without a subscript \\delta is a name as before: defined on the left."""
    got = verdicts(VEC, r"\delta = \sum_i a_i")
    assert [s for _, s, _ in got] == ["defined"], got


def test_batchnorm_reference_is_independent() -> None:
    # the truth labels above use PyTorch's BatchNorm; check the helper's own identity once
    assert _same(_bn(_X), (_X - _MU) / np.sqrt(_VAR + EPS))

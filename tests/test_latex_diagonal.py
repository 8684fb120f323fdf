"""``\\partial y_i/\\partial\\gamma_i``: the same index on both, read where it has one meaning.

With per-element parameters the vocabulary's output is ``hadamard(gamma, xhat) + beta``:
y_i depends on gamma_i and beta_i alone, so the Jacobians by gamma and beta are diagonal and
their diagonal (``jacobian(y, gamma) * ones``) is also the local partial along the graph.
Elsewhere (``\\partial y_i/\\partial x_i``, ``\\partial\\hat x_i/\\partial x_i``) the two
readings differ and the form stays an error.  Truth by numpy central differences.
"""

from __future__ import annotations

import numpy as np
import pytest

from symnorm.check.run import check_text

X = np.array([1.0, -2.0, 4.0, 3.5])
G = np.array([2.0, -0.5, 0.75, 1.0])
B = np.array([0.5, 1.0, -1.0, 2.0])
EPS = 0.1
H = 1e-6


def _xhat(x):
    c = x - x.mean()
    return c / np.sqrt((c ** 2).mean() + EPS)


def _rms(x):
    return x / np.sqrt((x ** 2).mean() + EPS)


def _diag(f, v):
    e = np.eye(len(v))
    return np.array([(f(v + H * e[i])[i] - f(v - H * e[i])[i]) / (2 * H) for i in range(len(v))])


LN = "document use layernorm(affine=elementwise)"
RMS = "document use rmsnorm(affine=elementwise)"
CASES = [  # preamble, latex, the diagonal by numpy, the right side by numpy
    (LN, r"\frac{\partial y_i}{\partial \gamma_i} = \hat x_i",
     _diag(lambda g: g * _xhat(X) + B, G), _xhat(X)),
    (LN, r"\frac{\partial y_i}{\partial \gamma_i} = 2\hat x_i",
     _diag(lambda g: g * _xhat(X) + B, G), 2 * _xhat(X)),
    (LN, r"\frac{\partial y_i}{\partial \beta_i} = 1", _diag(lambda b: G * _xhat(X) + b, B),
     np.ones(4)),
    (LN, r"\frac{\partial y_i}{\partial \beta_i} = \hat x_i",
     _diag(lambda b: G * _xhat(X) + b, B), _xhat(X)),
    (RMS, r"\frac{\partial y_i}{\partial \gamma_i} = \frac{x_i}{r}",
     _diag(lambda g: g * _rms(X), G), _rms(X)),
    (RMS, r"\frac{\partial y_i}{\partial \gamma_i} = \frac{x_i}{r^2}",
     _diag(lambda g: g * _rms(X), G), X / ((X ** 2).mean() + EPS)),
]


def _claims(preamble: str, latex: str) -> list[tuple[str, str]]:
    text = f"```symnorm\n{preamble}\n```\n\n```latex a\n{latex}\n```\n"
    return [(v.status, v.message) for v in check_text(text, "t.md", sandbox=False).verdicts
            if v.status != "defined"]


@pytest.mark.parametrize("preamble, latex, lhs, rhs", CASES, ids=[c[1] for c in CASES])
def test_a_diagonal_entry_by_a_per_element_parameter(preamble, latex, lhs, rhs) -> None:
    truth = bool(np.allclose(lhs, rhs, atol=1e-6))
    assert [s for s, _ in _claims(preamble, latex)] == ["proved" if truth else "refuted"]


@pytest.mark.parametrize("latex, why", [
    # y has no local partial by x (x is not in its formula): the total derivative only
    (r"\frac{\partial y_i}{\partial x_i} = 1", "the same index on both is ambiguous"),
    # both readings are checked (latex_same_index.py) and disagree: local proved, total not
    (r"\frac{\partial \hat x_i}{\partial x_i} = \frac{1}{\sqrt{\sigma^2+\epsilon}}",
     "two readings, and they disagree"),
])
def test_the_same_index_stays_refused_where_the_readings_differ(latex, why) -> None:
    got = _claims(LN, latex)
    assert [s for s, _ in got if s != "defined"] == ["error"], got
    assert why in got[0][1], got


def test_a_scalar_gain_has_no_entries() -> None:
    got = _claims("use layernorm", r"\frac{\partial y_i}{\partial \gamma_i} = \hat x_i")
    assert [s for s, _ in got] == ["error"], got

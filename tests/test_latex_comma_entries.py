"""``A_{i,j}``, ``x_{i,j}``: a comma between two index letters is entry (i, j), read as
``A_{ij}`` is (docs/latex.md, "Data matrices: one vector at a time"; CS182's notes write
``\\hat{x}_{i,j} = (x_{i,j} - \\mu_j)(\\sigma^2_j + \\epsilon)^{-1/2}``).  Truth by numpy."""

from __future__ import annotations

import numpy as np
import pytest

from construct_checks import assert_refused
from test_latex_real_world2 import verdicts

LN = "use layernorm\nlet F = d\nlet X = x\nlet Y = y"
BN = "use batchnorm\nlet N = d"
X = np.array([[1.0, -2.0, 4.0], [3.0, 0.5, -1.0]])  # rows are samples
EPS = 0.25


def _ln_xhat(power: float) -> np.ndarray:
    mu = X.mean(axis=1, keepdims=True)
    return (X - mu) * (((X - mu) ** 2).mean(axis=1, keepdims=True) + EPS) ** power


def _bn_xhat(power: float) -> np.ndarray:
    mu = X.mean(axis=0, keepdims=True)
    return (X - mu) * (((X - mu) ** 2).mean(axis=0, keepdims=True) + EPS) ** power


def _layer_norm() -> np.ndarray:
    mu = X.mean(axis=1, keepdims=True)
    return (X - mu) / np.sqrt(X.var(axis=1, keepdims=True) + EPS)


def _batch_norm() -> np.ndarray:
    return (X - X.mean(axis=0)) / np.sqrt(X.var(axis=0) + EPS)


CASES = [
    # (preamble, latex, truth by numpy): the comma form reads as the two-letter form
    (LN, r"\hat X_{i,j} = \frac{X_{i,j}-\mu_i}{\sqrt{\sigma_i^2+\epsilon}}",
     np.allclose(_ln_xhat(-0.5), _layer_norm())),
    (LN, r"\hat X_{i,j} = \frac{X_{i,j}-\mu_i}{\sqrt{\sigma_i^2+2\epsilon}}",
     np.allclose((X - X.mean(axis=1, keepdims=True))
                 / np.sqrt(X.var(axis=1, keepdims=True) + 2 * EPS), _layer_norm())),
    (BN, r"\hat{x}_{i,j} = (x_{i,j} - \mu_j) \cdot (\sigma^2_j + \epsilon)^{-1/2}",
     np.allclose(_bn_xhat(-0.5), _batch_norm())),
    (BN, r"\hat{x}_{i,j} = (x_{i,j} - \mu_j) \cdot (\sigma^2_j + \epsilon)^{-1/4}",
     np.allclose(_bn_xhat(-0.25), _batch_norm())),
    ("matrix A", r"A_{i,j} = A_{ij}", True),
]


@pytest.mark.parametrize("preamble, latex, truth", CASES, ids=[c[1] for c in CASES])
def test_comma_entry_reads_as_the_entry(preamble: str, latex: str, truth: bool) -> None:
    statuses = [s for _, s, _ in verdicts(preamble, latex) if s != "defined"]
    want = ("proved", "proved-for") if truth else ("refuted",)
    assert statuses and all(s in want for s in statuses), (latex, statuses)


@pytest.mark.parametrize("preamble, latex, words", [
    # the letters in the other order: the sum runs along the other axis (layernorm's rows)
    (LN, r"\mu_i = \frac{1}{F}\sum_{j=1}^{F} X_{j,i}", ("X_ji", "runs along a column")),
    # a comma between more than two letters, or between a letter and a number, stays refused
    (LN, r"\mu_i = \frac{1}{F}\sum_{j=1}^{F} X_{i,j,k}", ("comma in the subscript of X",)),
    ("matrix A", r"A_{i,2} = A_{i,2}", ("comma in the subscript of A",)),
    # a declared vector is no matrix: its comma entry is no entry
    ("vector u", r"u_{i,j} = u_{i,j}", ("u_ij: entry (i, j) of u, which is not a matrix here",)),
])
def test_other_comma_subscripts_are_refused(preamble: str, latex: str, words) -> None:
    assert_refused(preamble, latex, words)

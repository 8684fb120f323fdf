r"""An unindexed gradient against a column or a scalar (``symnorm/lang/latex_layout.py``):
``\frac{\partial\sigma^2}{\partial x} = \frac{2(x-\mu)}{m}`` and ``\frac{\partial\mu}{\partial x}
= \frac{1}{m}`` (Feng's and Kaixi Hou's backward notes) are read entrywise, the gradient in
the denominator layout.  Truth by finite differences in numpy.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import verdicts

X = np.array([0.5, -1.25, 2.0, 3.5])
M = X.size
H = 1e-6


def grad(f) -> np.ndarray:
    """Central differences of the scalar function f at X."""
    return np.array([(f(X + H * e) - f(X - H * e)) / (2 * H) for e in np.eye(M)])


def mean(x: np.ndarray) -> float:
    return float(x.mean())


def var(x: np.ndarray) -> float:
    return float(((x - x.mean()) ** 2).mean())


def claims(preamble: str, latex: str) -> list[tuple[str, str]]:
    return [(s, m) for _, s, m in verdicts(preamble, latex) if s != "defined"]


CASES = [
    # (latex, holds by numpy)
    (r"\frac{\partial \mu}{\partial x} = \frac{1}{m}", np.allclose(grad(mean), 1 / M)),
    (r"\frac{\partial \mu}{\partial x} = \frac{2}{m}", np.allclose(grad(mean), 2 / M)),
    (r"\frac{\partial \sigma^{2}}{\partial x} = \frac{2 (x - \mu)}{m}",
     np.allclose(grad(var), 2 * (X - X.mean()) / M, atol=1e-6)),
    (r"\frac{\partial \sigma^{2}}{\partial x} = \frac{(x - \mu)}{m}",
     np.allclose(grad(var), (X - X.mean()) / M, atol=1e-6)),
    (r"\frac{\partial \sigma^{2}}{\partial x} = \frac{2 (x + \mu)}{m}",
     np.allclose(grad(var), 2 * (X + X.mean()) / M, atol=1e-6)),
    # the scalar on the left
    (r"\frac{1}{m} = \frac{\partial \mu}{\partial x}", np.allclose(grad(mean), 1 / M)),
]


@pytest.mark.parametrize("latex, holds", CASES)
def test_gradient_against_a_column_or_a_scalar(latex: str, holds: bool) -> None:
    got = claims("use batchnorm", latex)
    assert [s for s, _ in got] == (["proved"] if holds else ["refuted"]), got


def test_read_as_shows_the_layout() -> None:
    from symnorm.check.run import check_text
    text = ("```symnorm\nuse batchnorm\n```\n\n```latex eq\n"
            r"\frac{\partial \mu}{\partial x} = \frac{1}{m}" "\n```\n")
    v = next(v for v in check_text(text, "g.md", sandbox=False).verdicts if v.status == "proved")
    assert "jacobian(mu, x).T == 1 / m * ones" in v.statement, v.statement


def test_a_row_on_the_other_side_keeps_the_row() -> None:
    latex = r"\frac{\partial \mu}{\partial x} = \frac{1}{m}\mathbf{1}^\top"
    assert [s for s, _ in claims("use batchnorm", latex)] == ["proved"]


def test_a_matrix_partial_against_a_scalar_stays_an_error() -> None:
    # the Jacobian of xhat, its diagonal or the local partial: not one reading
    got = claims("use batchnorm", r"\frac{\partial \hat{x}}{\partial x} = "
                 r"\frac{1}{\sqrt{\sigma^{2} + \epsilon}}")
    assert got[0][0] == "error" and "cannot compare a matrix with a scalar" in got[0][1]


def test_a_product_of_partials_keeps_its_shapes() -> None:
    # a row times a column is a scalar, the sum of the gradient's entries: 1, not 1/m
    assert np.isclose(grad(mean).sum(), 1) and not np.isclose(grad(mean).sum(), 1 / M)
    latex = r"\frac{\partial \mu}{\partial x} \mathbf{1} = "
    assert [s for s, _ in claims("use batchnorm", latex + "1")] == ["proved"]
    assert [s for s, _ in claims("use batchnorm", latex + r"\frac{1}{m}")] == ["refuted"]

r"""Differential notation with the upstream gradient declared (``vector dy``) is reverse mode:
``d\hat x_i = dy_i \gamma_i`` is an adjoint.  A relation that writes ``dA`` by the differentials
of what A is computed from (``d\hat x = r\,dx + x\,dr``, limei1221/triton-rmsnorm's README, a
forward differential) reads the other way, with another value: refused, never read as adjoints
(corpus 5: it was refuted as an adjoint relation, a wrong verdict)."""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import _X, EPS, verdicts

RMS_G = "use rmsnorm(affine=elementwise)\nvector dy"
LN_G = "use layernorm(affine=elementwise)\nvector dy"


def test_the_forward_differential_is_true_as_a_tangent() -> None:
    # x_hat = r x with r = 1/rms(x): d x_hat = r dx + x dr along any direction dx
    def xhat(x):
        return x / np.sqrt(np.mean(x ** 2) + EPS)

    def inv_rms(x):
        return 1 / np.sqrt(np.mean(x ** 2) + EPS)

    dx, h = np.array([0.3, -1.0, 0.5, 2.0])[:len(_X)], 1e-6
    tangent = (xhat(_X + h * dx) - xhat(_X - h * dx)) / (2 * h)
    dr = (inv_rms(_X + h * dx) - inv_rms(_X - h * dx)) / (2 * h)
    assert np.allclose(tangent, inv_rms(_X) * dx + _X * dr, atol=1e-8)


@pytest.mark.parametrize("preamble, latex, upstream", [
    (RMS_G, r"d\hat{\mathbf{x}} = r\, d\mathbf{x} + \mathbf{x}\, dr.", "d"),
    (RMS_G, r"d\hat x_i = \frac{dx_i}{r}", "dx"),
    (LN_G, r"d\hat x_i = \gamma_i\, d\mu", "dmu"),
    (LN_G, r"d\hat x_i = \frac{dx_i - d\mu}{\sqrt{\sigma^2+\epsilon}}", "d"),
])
def test_a_differential_of_an_upstream_quantity_is_refused(preamble: str, latex: str,
                                                           upstream: str) -> None:
    got = verdicts(preamble, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and "a forward (tangent) differential" in errors[0], got
    assert "two readings" in errors[0] and upstream in errors[0], got
    assert {s for _, s, _ in got} <= {"error", "defined"}, got


@pytest.mark.parametrize("latex", [
    r"d\hat x_i = dy_i \gamma_i",
    r"d\sigma^2 = \sum_i d\hat x_i (x_i - \mu)\frac{-1}{2}(\sigma^2+\epsilon)^{-3/2}",
    r"d\mu = \sum_i d\hat x_i \frac{-1}{\sqrt{\sigma^2+\epsilon}}",
])
def test_adjoints_by_downstream_quantities_are_still_read(latex: str) -> None:
    got = verdicts(LN_G, latex)
    assert [s for _, s, _ in got if s != "defined"] == ["proved"], got

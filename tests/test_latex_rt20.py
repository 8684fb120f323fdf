r"""Red team 20's false proofs, each a class: an index on a scalar inside a sum, and a script
on braces around more than one symbol.  Truth by numpy."""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import verdicts

X = np.array([1.0, 3.0, 4.0])


@pytest.mark.parametrize("preamble, latex, name", [
    ("scalar a", r"\sum_{i=1}^{d} a_i^2 = a^2", "a_i"),
    ("use layernorm", r"\sum_{i=1}^{d}\sigma_i^2=\sigma^2", "sigma_i"),
    ("use batchnorm", r"\sum_{i=1}^{d}\sigma_i^2=\sigma^2", "sigma_i"),
    ("use layernorm", r"\sum_{i=1}^{d}\gamma_i^2=\gamma^2", "gamma_i"),
    ("use layernorm", r"\frac1d\sum_{i=1}^{d}\mu_i^2=\frac{\mu^2}{d}", "mu_i"),
    ("use layernorm", r"\sum_i\gamma_i\hat x_i=0", "gamma_i"),
    ("use batchnorm", r"\sum_{i=1}^{m}\epsilon_i^2=\epsilon^2", "eps_i"),
])
def test_an_index_on_a_scalar_is_an_error(preamble: str, latex: str, name: str) -> None:
    # read with the scalar in every term, sum_i mu^2 / d is mu^2, not mu^2 / d: the old
    # reading proved the false one
    mu = X.mean()
    assert not np.isclose(np.sum([mu ** 2] * X.size) / X.size, mu ** 2 / X.size)
    got = [(s, m) for _, s, m in verdicts(preamble, latex) if s != "defined"]
    assert got[0][0] == "error", got
    base = name.split("_")[0]
    assert "is a scalar here, which has no entry" in got[0][1] and base in got[0][1], got


@pytest.mark.parametrize("latex", [
    r"{\frac{1}{d}\sum_i x_i}^2 = \mu^2",
    r"{\sum_{i=1}^{d} x_i}^2 = d^2\mu^2",
    r"{\mathop \sum \limits_i {x_i}}^2 = d^2\mu^2",
    r"\frac1d{\sum_i x_i}^{2}=\frac1d\sum_i x_i^2",
])
def test_a_script_on_braces_around_a_sum_is_an_error(latex: str) -> None:
    # as printed, {\frac1d \sum_i x_i}^2 shows x_i^2: E[x^2] = 8.67, not mu^2 = 7.11
    assert not np.isclose(np.mean(X ** 2), X.mean() ** 2)
    got = [(s, m) for _, s, m in verdicts("use layernorm", latex) if s != "defined"]
    assert got[0][0] == "error" and "a script on braces" in got[0][1], got


def test_a_script_on_braces_around_one_symbol_is_read() -> None:
    got = [s for _, s, _ in verdicts("use layernorm", r"\sum_i {x_i}^2 = d\,\mu^2 + d\,\sigma^2")
           if s != "defined"]
    assert got == ["proved"]

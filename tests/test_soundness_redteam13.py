r"""Red team 13's classes of false claims that were proved, each refused now.

* Odd roots: a fractional power was read as defined only where its base is >= 0, so
  ``d + 0*(2 - d)**(1/3) == 2`` was "proved for every d >= 2" (it holds only at d = 2, where
  the radicand is >= 0; the real cube root of a negative number exists).  An exponent with an
  odd denominator is refused, in the claim language and in LaTeX (``\sqrt[3]{..}``).
* ``rsqrt(...)`` in a plain-text formula was read as the vocabulary's r times sqrt(...): a
  letter run before a bracket that ends in a function word is refused.

Each refused claim is checked false independently first (numpy / fractions).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import _X, EPS, verdicts

from symnorm.check.run import check_text


def _claims(block: str) -> list[tuple[str, str, str]]:
    res = check_text(f"```symnorm\n{block}\n```\n", "rt13.md", sandbox=False)
    return [(v.label, v.status, v.message) for v in res.verdicts]


def _cbrt(b: float) -> float:
    return float(np.sign(b) * abs(b) ** (1 / 3))


@pytest.mark.parametrize("claim, false_at", [
    ("d + 0*(2 - d)**(1/3) == 2", lambda: 3 + 0 * _cbrt(2 - 3) != 2),
    ("mean(x) + 0*(mean(x) - 5)**(1/3) >= 5", lambda: 0 + 0 * _cbrt(0 - 5) < 5),
    ("b + 0*b**(1/5) >= 0", lambda: -1 + 0 * _cbrt(-1) < 0),
    ("(b**3)**(1/3) == abs(b)", lambda: _cbrt((-2) ** 3) != abs(-2)),
])
def test_an_odd_root_is_refused_in_the_claim_language(claim: str, false_at) -> None:
    assert false_at()
    got = _claims(f"use layernorm\nscalar b\nclaim c: {claim}")
    assert [s for _, s, _ in got] == ["error"], got
    assert "an odd root" in got[0][2], got


def test_an_odd_root_is_refused_even_where_the_claim_is_true() -> None:
    # b**(2/3) = (b**2)**(1/3) >= 0 for the real root too: refused all the same
    got = _claims("scalar b\nclaim c: b**(2/3) >= 0")
    assert [s for _, s, _ in got] == ["error"] and "an odd root" in got[0][2], got


@pytest.mark.parametrize("latex", [
    r"d + 0\cdot\sqrt[3]{2 - d} = 2",
    r"\mu + 0\cdot\sqrt[3]{\mu - 5} \ge 5",
    r"\sqrt[3]{\mu^3} = |\mu|",
    r"\mu + 0\cdot\mu^{1/3} \ge 0",
])
def test_an_odd_root_is_refused_in_latex(latex: str) -> None:
    got = verdicts("use layernorm", latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and "an odd root" in errors[0], got
    assert not {"proved", "confirmed"} & {s for _, s, _ in got}, got


@pytest.mark.parametrize("claim", ["(v + eps)**(3/2) >= 0", "s**(-3) > 0",
                                   "(v + eps)**(1/2) == s"])
def test_even_roots_and_integer_powers_are_still_read(claim: str) -> None:
    got = _claims(f"use layernorm\nassume eps > 0\nclaim c: {claim}")
    assert [s for _, s, _ in got] == ["proved"], got


def test_rsqrt_is_never_r_times_sqrt() -> None:
    # the true formula with rsqrt(a) = 1/sqrt(a) ...
    rsqrt = 1 / np.sqrt(np.mean(_X ** 2) + EPS)
    assert np.allclose(_X * rsqrt, _X / np.sqrt(np.mean(_X ** 2) + EPS))
    for latex in (r"out = x * rsqrt(mean(x^2) + eps) * weight",
                  r"rsqrt(mean(x^2) + eps) = r^2"):
        got = verdicts("use rmsnorm", latex)
        errors = [m for _, s, m in got if s == "error"]
        assert errors and "'rsqrt' before a bracket is a word" in errors[0], got


@pytest.mark.parametrize("latex", [r"0^{\epsilon} \approx 1",
                                   r"0^{\epsilon}\,\hat x \approx \hat x"])
def test_approx_with_eps_in_an_exponent_is_refused(latex: str) -> None:
    # 0**eps is 0 for every eps > 0: the value 1 at eps = 0 is not the limit eps -> 0
    assert all(0.0 ** e == 0.0 for e in (1e-3, 1e-9, 1e-300)) and 0.0 ** 0 == 1
    got = verdicts("use layernorm", latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and "eps is in an exponent" in errors[0], got


def test_a_count_of_d_before_a_bracket_is_not_a_product() -> None:
    # use rmsnorm's N is d: N(2x) = 2N(x) read as d*2x == 2*d*x was proved, while the
    # normalizer it names is scale invariant (N(2x) = N(x) up to eps), not homogeneous
    got = verdicts("use rmsnorm", r"N(2x) = 2N(x)")
    errors = [m for _, s, m in got if s == "error"]
    assert errors and "N is a name of the dimension d here" in errors[0], got
    # d itself before a bracket stays the product (d(d-1) = d^2 - d)
    assert [s for _, s, _ in verdicts("use layernorm", r"d(d-1) = d^2 - d")] == ["proved"]


@pytest.mark.parametrize("claim", ["abs(b)**(1/3) >= 0", "(x.T*x)**(1/3) >= 0",
                                   "(b**2)**(1/3) == abs(b)**(2/3)", "8**(1/3) == 2"])
def test_an_odd_root_of_a_base_nonnegative_by_its_form_is_read(claim: str) -> None:
    got = _claims(f"scalar b\nvector x\nclaim c: {claim}")
    assert [s for _, s, _ in got] == ["proved"], got

r"""A document's own count named like a vocabulary's function: ``let N = d`` under
``use layernorm`` (the Triton tutorial's ``\frac{1}{N}``; corpus 5 triton.dx, triton.dwdb).

Where the document never applied N, its N is the value d from the let on, and the
vocabulary's normalizer keeps its meaning under the name ``N_layernorm`` (what ``\hat x``,
``y`` and the layer's other LaTeX names mean, shown in ``read as``); the claim-language names
defined through N (J, y) keep theirs.  N(...) afterwards is an error naming both meanings,
and the let stays refused where the document applied N before it.  Truths by numpy and
PyTorch, never by symnorm."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_refused, assert_variant_refuted
from test_latex_real_world2 import _DY, _G, _X, EPS, _jac, _ln, _same
from test_latex_real_world5 import _B, _ln_grads, _triton_dwdb

from symnorm.check.run import check_text

M = len(_X)
_MU = _X.mean()
LN_N = "use layernorm\nlet N = d"
TRITON = "use layernorm(affine=elementwise)\nlet w = gamma\nlet b = beta\nlet N = d\nvector dy"


def _np_ln(x: np.ndarray) -> np.ndarray:
    return (x - x.mean()) / np.sqrt(x.var() + EPS)


CASES = {
    "count": (LN_N, r"\mu = \frac{1}{N}\sum_{i=1}^{N} x_i", lambda: _same(np.sum(_X) / M, _MU)),
    # the vocabulary's \hat x is still the normalizer, not the document's N
    "xhat": (LN_N, r"\hat x = \frac{x - \mu}{\sqrt{\frac{1}{N}\sum_i (x_i - \mu)^2 + \epsilon}}",
             lambda: _same((_X - _MU) / np.sqrt(np.sum((_X - _MU) ** 2) / M + EPS), _ln(_X))),
    # Triton's gradients of w and b (its preamble with b the bias)
    "triton.dwdb": (TRITON, r"\nabla_{w} = \nabla_{y} \odot \hat{x} \quad \text{and} \quad "
                            r"\nabla_{b} = \nabla_{y}", _triton_dwdb),
}

VARIANTS = {
    "count": (r"\frac{1}{N}", r"\frac{2}{N}", lambda: _same(2 * np.sum(_X) / M, _MU)),
    "xhat": (r"+ \epsilon", r"- \epsilon", lambda: _same(
        (_X - _MU) / np.sqrt(np.sum((_X - _MU) ** 2) / M - EPS), _ln(_X))),
    "triton.dwdb": (r"\odot \hat{x}", r"\odot x",
                    lambda: _same(_ln_grads(_X, _DY, _G, _B)[1], _DY * _X)),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_documents_count_is_read(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_false_variant_is_refuted(key: str) -> None:
    pre, latex, _ = CASES[key]
    assert_variant_refuted(pre, latex, *VARIANTS[key])


def _rows(text: str) -> dict[str, tuple[str, str, str]]:
    res = check_text(text, "t.md", sandbox=False)
    return {v.label: (v.status, v.message, str(v.statement)) for v in res.verdicts}


def test_read_as_names_the_vocabularys_normalizer() -> None:
    rows = _rows(f"```symnorm\n{LN_N}\n```\n\n```latex eq\n{CASES['xhat'][1]}\n```\n")
    assert rows["eq.1"][0] == "proved", rows
    assert "N_layernorm(x)" in rows["eq.xhat"][2], rows


def test_claim_language_names_keep_their_meaning() -> None:
    """J = jacobian(N(x), x) and y were defined through the vocabulary's N: they keep it."""
    xh = _np_ln(_X)
    s = np.sqrt(_X.var() + EPS)
    c = _X - _MU
    jac = _jac(_np_ln, _X)
    assert _same(jac @ c, EPS / s ** 3 * c) and not _same(jac @ c, EPS / s ** 2 * c)
    g = np.array([2.0, -1.0, 0.5, 3.0])
    assert _same(g * xh + 1.0, g * xh + 1.0)
    rows = _rows("```symnorm\nuse layernorm(affine=elementwise)\nlet N = d\n"
                 "claim radial: J*c == eps/s**3*c\nclaim radial2: J*c == eps/s**2*c\n"
                 "claim out: y == hadamard(gamma, (x - mean(x)*ones)/sqrt(v + eps)) + beta\n"
                 "claim count: N == d\n```\n")
    assert [rows[k][0] for k in ("radial", "radial2", "out", "count")] == \
        ["proved", "refuted", "proved", "proved"], rows


REFUSED = {
    # N applied after the let: the document's value or the vocabulary's normalizer
    "latex.call": (LN_N, r"\mathcal N(x) = \hat x", ("N is the document's value `let N = d`",
                                                     "normalizer function N(y)",
                                                     "two meanings of one name")),
    "claim.call": (LN_N + "\nclaim k: N(x) == N(x)", r"\mu = \mu",
                   ("N is the document's value", "two meanings of one name")),
    # N applied before the let: the let is refused (the claims would mean the function)
    "applied.before": ("use layernorm\nclaim k: N(x + 3*ones) == N(x)\nlet N = d", r"\mu = \mu",
                       ("'N' is the normalizer function N(y) of `use layernorm",
                        "would replace by a value")),
    # the name the normalizer would keep is taken: refused as before
    "kept.taken": ("use layernorm\nscalar N_layernorm\nlet N = d", r"\mu = \mu",
                   ("'N' is the normalizer function N(y) of `use layernorm",)),
}


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_two_meanings_are_refused(key: str) -> None:
    pre, latex, words = REFUSED[key]
    got = _rows(f"```symnorm\n{pre}\n```\n\n```latex eq\n{latex}\n```\n")
    errors = [m for s, m, _ in got.values() if s == "error"]
    assert errors, got
    for w in words:
        assert w in errors[0], errors


def test_assert_refused_sees_the_latex_call() -> None:
    assert_refused(LN_N, r"\mathcal N(x) = \hat x", ("two meanings of one name",))

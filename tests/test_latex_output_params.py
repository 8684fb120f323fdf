"""The vocabulary's own parameters in ``y = ...`` (integration of wp-latex and wp-affine).

``y = ...`` with a gain the document declared (Breloff's ``g``) is refused: the source's
gain is not the vocabulary's gamma.  ``use rmsnorm(affine=elementwise)`` declares its vector
gamma itself, so PyTorch's RMSNorm docstring with ``\\gamma_i`` was refused as if gamma
were the document's.  The names the output's own meaning uses are the vocabulary's.
"""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text


def rows(pre: str, latex: str) -> list[tuple[str, str]]:
    text = f"```symnorm\n{pre}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "out.md", sandbox=False, timeout=60)
    return [(v.status, v.message) for v in res.verdicts if v.status != "defined"]


RMS = "document use rmsnorm(affine=elementwise)"
LN = "document use layernorm(affine=elementwise)"


@pytest.mark.parametrize("pre, latex, status", [
    (RMS, r"y_i = \frac{x_i}{\sqrt{\frac{1}{n}\sum_{j=1}^n x_j^2 + \epsilon}}\gamma_i", "proved"),
    # the weight dropped: true without it, false with it (two readings, an error)
    (RMS, r"y_i = \frac{x_i}{\sqrt{\frac{1}{n}\sum_{j=1}^n x_j^2 + \epsilon}}", "error"),
    (RMS, r"y_i = \frac{2x_i}{\sqrt{\frac{1}{n}\sum_{j=1}^n x_j^2 + \epsilon}}", "refuted"),
    (LN, r"y = \gamma \odot \hat x + \beta", "proved"),
    (LN, r"y = \gamma \odot \hat x - \beta", "refuted"),
])
def test_the_vocabularys_vector_gain_is_its_own(pre, latex, status):
    out = rows(pre, latex)
    assert [s for s, _ in out] == [status], out


def test_a_gain_the_document_declares_is_still_refused():
    out = rows(LN + "\nvector g", r"y = g \odot \hat x + \beta")
    assert [s for s, _ in out] == ["error"], out
    assert "out.md:7:1: y = ... uses g, declared by the document" in out[0][1], out

"""Messages that must say what happened, where it happened (red-team round 10, minor).

``\\frac{N_\\epsilon(x) - N_0(x)}{\\epsilon} \\approx 0`` was refused because its sides
"do not depend on eps", which they plainly do; and an error inside a vocabulary's meaning
was reported at ``line 1:17`` of the document (a position in the vocabulary's own text).
"""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text


def messages(pre: str, latex: str) -> list[tuple[str, str]]:
    text = f"```symnorm\n{pre}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "msg.md", sandbox=False, timeout=60)
    return [(v.status, v.message) for v in res.verdicts if v.status != "defined"]


@pytest.mark.parametrize("latex", [
    r"\frac{\mathcal N_\epsilon(x) - \mathcal N_0(x)}{\epsilon} \approx 0",
    r"\epsilon\log(\epsilon) \approx 1",
])
def test_approx_through_an_unexpanded_function_of_eps_says_so(latex):
    out = messages("use layernorm", latex)
    assert [s for s, _ in out] == ["error"], out
    assert out[0][1].startswith("msg.md:6:"), out
    assert "use eps through a function or quotient" in out[0][1], out
    assert "do not depend on eps" not in out[0][1], out


def test_approx_without_eps_keeps_its_message():
    out = messages("use layernorm", r"\mu \approx \frac{1}{d}\sum_i x_i")
    assert [s for s, _ in out] == ["error"], out
    assert "do not depend on eps" in out[0][1], out


def test_an_error_in_a_vocabulary_meaning_points_into_the_equation():
    # the block-local `use` ends with its block, so RMS (inside y's meaning) is gone here
    out = messages("use rmsnorm(affine=elementwise)",
                   r"y_i = \frac{x_i}{\sqrt{\frac{1}{d}\sum_{j=1}^d x_j^2 + \epsilon}}\gamma_i")
    errors = [m for s, m in out if s == "error"]
    assert errors and all(m.startswith("msg.md:6:") for m in errors), out

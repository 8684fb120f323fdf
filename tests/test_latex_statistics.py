"""A statistic word on the left of ``=`` is a claim about its meaning (red-team round 10, M5).

``\\mathrm{RMS}[x]`` defined nowhere is the root mean square sqrt(x.T x / d), yet
``\\mathrm{RMS}[x] = \\sqrt{\\mathrm{MS}[x]} + 1`` became the definition ``let RMS(x) = ...``
(never checked), while ``\\mathrm{Var}[x] = ...`` and ``\\mathrm{MS}[x] = ...`` were claims.
It is now a claim too; only a where-clause of an equation that uses the word defines it
(OneFlow's docstring).  Truth by hand: RMS[x]^2 = MS[x] = x.T x / d.
"""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text


def verdicts(latex: str, pre: str = "use layernorm") -> list[tuple[str, str, str]]:
    text = f"```symnorm\n{pre}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "st.md", sandbox=False, timeout=60)
    return [(v.status, v.label, v.statement) for v in res.verdicts]


@pytest.mark.parametrize("latex, status", [
    (r"\mathrm{RMS}[x] = \sqrt{\mathrm{MS}[x]}", "proved"),
    (r"\mathrm{RMS}[x] = \sqrt{\mathrm{MS}[x]} + 1", "refuted"),
    (r"\mathrm{RMS}[x] = \sqrt{\mathrm{MS}[x] + \epsilon}", "refuted"),
    (r"\mathrm{RMS}(x) = \sqrt{\frac{1}{d}\sum_{i=1}^d x_i^2}", "proved"),
    (r"\mathrm{RMS}(x) = \sqrt{\sum_{i=1}^d x_i^2}", "refuted"),
    (r"\mathrm{RMS}[x]^2 = \mathrm{MS}[x]", "proved"),
    (r"\mathrm{RMS}[x] = \mathrm{MS}[x]", "refuted"),
])
def test_rms_on_the_left_is_a_claim(latex, status):
    out = verdicts(latex)
    assert [s for s, _, _ in out] == [status], out


def test_a_where_clause_still_defines_rms_and_the_equation_uses_it():
    out = verdicts(r"z = \frac{x}{\mathrm{RMS}[x]} \text{ where } "
                   r"\mathrm{RMS}[x] = \sqrt{\mathrm{MS}[x] + \epsilon}")
    defs = {label: st for s, label, st in out if s == "defined"}
    assert defs.get("eq.RMS") == "let RMS(x) = sqrt(x.T * x / d + eps)", out
    assert defs.get("eq.z") == "let z = x / RMS(x)", out


def test_with_use_rmsnorm_the_where_clause_is_checked_against_the_vocabulary():
    out = verdicts(r"y = \frac{x}{\mathrm{RMS}[x]} \text{ where } "
                   r"\mathrm{RMS}[x] = \sqrt{\mathrm{MS}[x] + 2\epsilon}", "use rmsnorm")
    assert "refuted" in [s for s, _, _ in out], out
    assert not any(label == "eq.RMS" for _, label, _ in out), out

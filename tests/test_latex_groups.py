"""Braced groups that open with an operator (red-team round 10, M1).

TeX's braces are invisible: ``a {+ b}`` and ``a \\color{red}{+ b}`` print "a + b".  The
reader dropped the sign and read the group as the factor ``b``, so ``\\mu = E[x] {+ 1}`` was
proved as ``mu == mean(x) * 1``.  A group opening with ``+``/``-`` after an operand now
continues the sum (a product after it continues its last term, as printed); a group opening
with any other operator, nested braces around one, and a script on one are refused.
Truth of each row is by hand: a, b, q are free scalars; under ``use layernorm`` mu is the
mean, sigma^2 the variance and s^2 = sigma^2 + eps.
"""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text

PRE = "use layernorm\nscalar a, b, q"


def rows(latex: str, preamble: str = PRE) -> list[tuple[str, str, str]]:
    text = f"```symnorm\n{preamble}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "groups.md", sandbox=False, timeout=60)
    return [(v.status, v.message, v.statement) for v in res.verdicts if v.status != "defined"]


TRUE = [
    r"\mu = \mathrm{E}[x] \color{red}{+ 0}",
    r"s^2 = \sigma^2 \color{blue}{+ \epsilon}",
    r"\mathrm{E}[x^2] = \sigma^2 {+ \mu^2}",
    r"a \color{red}{+ b} = b + a",
    r"a {- b} = a - b",
    r"a \boxed{+ b} = a + b",
    r"a \boxed{- b} = a - b",
    r"a {+ b} q = a + b q",            # the product continues the group's last term
    r"a {+ b} \cdot q = a + b q",
    r"a {+ b - a} = b",
    r"2 a \color{red}{- b} = 2a - b",
    r"\frac{a}{2} {+ b} = \frac{a + 2b}{2}",
    r"\sqrt{\sigma^2 \color{red}{+ \epsilon}} = s",
    r"\frac{1}{d}\sum_{i=1}^d x_i {+ 1} = \mu + 1",  # the sum's body ends at the group
    r"\hat x = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x] \color{red}{+ \epsilon}}}",
    r"a \cdot {+ b} = a b",            # after an explicit operator the sign is unary
    r"a = {+ a}",
    r"\mathrm{Var}[x] = \mathrm{E}[x^2] {+ 1}\,\mathrm{Var}[x] - \mathrm{E}[x^2]",
]

FALSE = [  # one token (the sign, a factor, the operand) away from a TRUE row
    r"\mu = \mathrm{E}[x] \color{red}{+ 1}",
    r"\mu = \mathrm{E}[x] {+ 1}",
    r"\mu = \mathrm{E}[x] \boxed{+ 1}",
    r"\mu^2 = \mu \color{red}{+ \mu}",
    r"a {+ b} = a b",
    r"a {- b} = a + b",
    r"a \boxed{- b} = -a b",
    r"a {+ b} q = (a + b) q",
    r"\sqrt{\sigma^2 \color{red}{+ \epsilon}} = \sigma \sqrt{\epsilon}",
    r"\frac{1}{d}\sum_{i=1}^d x_i {+ 1} = \mu",
    r"\sigma^2 = \sigma^2 {+ 1}",
    r"0 = \mu \color{red}{+ 0}",
    r"s^2 = \sigma^2 \color{blue}{- \epsilon}",
    r"\hat x = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x] \color{red}{- \epsilon}}}",
]


@pytest.mark.parametrize("latex", TRUE)
def test_a_group_opening_with_a_sign_continues_the_sum(latex):
    out = rows(latex)
    assert [s for s, _, _ in out] == ["proved"], out


@pytest.mark.parametrize("latex", FALSE)
def test_one_token_variants_are_refuted(latex):
    out = rows(latex)
    assert [s for s, _, _ in out] == ["refuted"], out


def test_the_sum_is_what_is_read():
    out = rows(r"\mu = \mathrm{E}[x] \color{red}{+ 1}")
    assert "mean(x) + 1" in out[0][2], out


@pytest.mark.parametrize("latex, col, fragment", [
    (r"a {\cdot b} = a b", 3, "starts with '\\\\cdot' after an operand"),
    (r"a \color{red}{\pm b} = a", 14, "starts with '\\\\pm' after an operand"),
    (r"a \color{red}{* b} = a b", 14, "starts with '*' after an operand"),
    (r"a \boxed{\times b} = a b", 9, "starts with '\\\\times' after an operand"),
    (r"a \boxed{/ b} = a", 9, "starts with '/' after an operand"),
    (r"a {{+ b}} = a + b", 3, "nested braces around a group that starts with '+'"),
    (r"a {+ b}^2 = a + b^2", 8, "'^' on the braced group {+ ...} at 7:3"),
    (r"a {- b}_i = a", 8, "'_' on the braced group {- ...} at 7:3"),
    (r"a = {\cdot b}", 6, "a braced group that starts with '\\\\cdot'"),
    (r"a {= b}", 4, "a braced group that starts with the relation '='"),
    (r"a = b {\le a}", 8, "a braced group that starts with the relation '\\\\le'"),
])
def test_groups_opening_with_other_operators_are_refused_where_they_stand(latex, col,
                                                                         fragment):
    out = rows(latex)
    assert [s for s, _, _ in out] == ["error"], out
    assert f"groups.md:7:{col}:" in out[0][1], out
    assert fragment in out[0][1], out

"""Rows, tags and conditions of a LaTeX equation (red-team round 5).

Two relations written with no separator between them (``E[x] = 0 \\tag{1} E[y] = 0``,
``E[x] = 0\\ E[y] = 0``) were read as one chain whose middle member is the product
``0 * E[y]``, so both links were proved although ``E[y] = 0`` is false. A tag or label now
ends its row, and a product across written spacing in the middle of a chain is refused.
Condition words (``\\text{if}``, ``for``, ``when`` ...) make the relations after them
hypotheses of the chain just before them, instead of separate claims.
"""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text

PRE = "use layernorm\nscalar gamma, beta, a"


def rows(latex: str, preamble: str = PRE) -> list[tuple[str, str, str]]:
    text = f"```symnorm\n{preamble}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "rows.md", sandbox=False, timeout=60)
    return [(v.status, v.message, v.statement) for v in res.verdicts if v.status != "defined"]


def statuses(latex: str, preamble: str = PRE) -> list[str]:
    return [s for s, _, _ in rows(latex, preamble)]


@pytest.mark.parametrize("latex", [
    r"\mathrm{E}[\hat x] = 0 \label{eq:a} \mathrm{E}[y] = 0",
    r"\mathrm{E}[\hat x] = 0 \tag{1} \mathrm{Var}[\hat x] = 0",
    r"\sum_{i=1}^d \hat x_i = 0 \label{a} \sum_{i=1}^d \hat x_i^2 = 0",
    r"\mathrm{E}[\hat x] = 0 \tag*{(2)} + 1",
    r"\mathrm{E}[\hat x] = 0 \label{x} \left(1\right) = 1",
])
def test_text_after_a_tag_in_its_row_is_an_error(latex):
    out = rows(latex)
    assert [s for s, _, _ in out] == ["error"], out
    assert "ends an equation's row" in out[0][1]


@pytest.mark.parametrize("space", [r"\ ", r"\;", r"\:", r"\,", "~", r"\quad"])
def test_two_relations_joined_by_spacing_are_never_a_product(space):
    out = rows(rf"\mathrm{{E}}[\hat x] = 0{space}\mathrm{{Var}}[y] = 0")
    # \quad separates two relations: the second (Var[y] = 0) is false and refuted
    if space == r"\quad":
        assert [s for s, _, _ in out] == ["proved", "refuted"], out
    else:
        assert [s for s, _, _ in out] == ["error"], out
        assert "between two relations" in out[0][1]


@pytest.mark.parametrize("latex", [
    r"\label{eq:mean} \mathrm{E}[\hat x] = 0",
    r"\mathrm{E}[\hat x] = 0 \tag{3}",
    r"\mathrm{E}[\hat x] = 0 \label{a} \\ \sum_{i=1}^d \hat x_i = 0 \tag{b}",
    r"\frac{1}{d}\; \sum_{i=1}^d \hat x_i = 0",  # spacing in a chain's end member: a product
])
def test_tags_at_the_ends_of_rows_and_spacing_in_a_product_still_read(latex):
    assert set(statuses(latex)) == {"proved"}


def test_a_condition_becomes_a_hypothesis_of_the_chain_before_it():
    out = rows(r"y = \hat x \quad \text{if}\ \gamma = 1,\ \beta = 0")
    assert [s for s, _, _ in out] == ["proved"], out
    assert "given" in out[0][2] and "gamma == 1" in out[0][2] and "beta == 0" in out[0][2]


@pytest.mark.parametrize("latex", [
    r"y = \hat x \quad \text{if}\ \gamma = 2",  # the wrong condition
    r"a = 1 \quad \text{if } a^2 = 1",
    r"\hat x = \frac{x-\mu}{\sigma}\quad\text{for}\ \epsilon = 1",
])
def test_a_claim_false_under_its_condition_is_refuted(latex):
    assert statuses(latex) == ["refuted"]


def test_a_condition_that_leaves_the_bias_free_is_two_readings():
    # gamma = 1 with beta free: false for the layer with a bias, true for one without
    out = rows(r"y = \hat x \quad \text{if}\ \gamma = 1")
    assert [s for s, _, _ in out] == ["error"], out
    assert "two readings" in out[0][1] or "two readings" in out[0][2], out


def test_conditions_apply_row_by_row():
    out = rows(r"a^2 = 1 \quad \text{if } a = -1 \\ a = 2 \quad \text{when } a \ge 2")
    assert [s for s, _, _ in out] == ["proved", "refuted"], out


@pytest.mark.parametrize("latex, words", [
    (r"y = \hat x, \quad y = \gamma \hat x \quad \text{if}\ \beta = 0", "ambiguous"),
    (r"\text{if}\ \gamma = 1,\ y = \hat x", "no relation before it"),
    (r"y = \hat x \quad \text{if}\ q = 1", "defines q"),
    (r"y = \hat x \quad \text{if}\ \gamma = 1 \quad \text{when}\ \beta = 0",
     "second condition word"),
])
def test_conditions_that_cannot_be_placed_are_errors(latex, words):
    out = rows(latex)
    assert [s for s, _, _ in out] == ["error"], out
    assert words in out[0][1]


def test_a_refutation_at_eps_le_0_says_the_claim_left_eps_open():
    out = rows(r"\|\hat x\|_2^2 \le d")
    assert [s for s, _, _ in out] == ["refuted"], out
    assert "add `assume eps > 0`" in out[0][1]
    # with eps > 0 assumed the same equation is proved, and a refutation at eps > 0 says
    # nothing about eps
    assert statuses(r"\|\hat x\|_2^2 \le d", PRE + "\ndocument assume eps > 0") == ["proved"]
    wrong = rows(r"\|\hat x\|_2^2 \le d - 1", PRE + "\ndocument assume eps > 0")
    assert [s for s, _, _ in wrong] == ["refuted"] and "eps > 0" not in wrong[0][1]


# --- red-team round 6 --------------------------------------------------------------------

FIXED = "use layernorm\ndocument let d = 4\nvector g\nscalar a, gamma"


@pytest.mark.parametrize("latex", [
    r"g \odot 2x = 2(\mathbf 1^\top g)\, x",  # was (g odot 2) x, proved
    r"g \odot \frac{1}{2} x = \frac{1}{2}\,\mathbf 1^\top g\, x",
    r"g \odot a x = a\,(\mathbf 1^\top g)\, x",
    r"g \odot 3 = 3\,\mathbf 1^\top g",  # a vector odot a number was a contraction
    r"a \odot x = a\, \mathbf 1^\top x",
    r"g \odot a = a\, \mathbf 1^\top g",
])
def test_entrywise_products_of_a_number_or_an_unbracketed_product_are_errors(latex):
    assert statuses(latex, FIXED) == ["error"]


@pytest.mark.parametrize("latex, status", [
    (r"2 g\odot x = g \odot (2x)", "proved"),  # was refuted: the operand cut at '2'
    (r"g \odot (a x) = a\, (g \odot x)", "proved"),
    (r"g \odot x = x \odot g", "proved"),
    (r"g \odot x = (g^\top x) \mathbf 1", "refuted"),
])
def test_entrywise_products_of_two_vectors_still_read(latex, status):
    assert statuses(latex, FIXED) == [status]


@pytest.mark.parametrize("latex", [
    r"\sum_i \hat x_i^2 = \frac{d\,\sigma^2}{\sigma^2+\epsilon} ~~ (4)",
    r"\mathrm{E}[\hat x] = 1 \ (3)",
])
def test_a_hand_written_equation_number_is_not_a_factor(latex):
    out = rows(latex)
    assert [s for s, _, _ in out] == ["error"], out
    assert "equation number" in out[0][1]


def test_a_relation_set_apart_after_a_condition_is_an_error():
    out = rows(r"\hat x = \frac{x-\mu}{\sqrt{\sigma^2+\epsilon}} \quad \text{provided}\ "
               r"\epsilon = 0 \quad y = \hat x")
    assert [s for s, _, _ in out] == ["error"], out
    assert "another condition or a claim" in out[0][1]
    # conditions joined by a comma or \text{and} are one list
    both = rows(r"y = \gamma \hat x \quad \text{if}\ \gamma = 1 \text{ and } \beta = 0")
    assert [s for s, _, _ in both] == ["proved"], both  # y = gamma*xhat + beta*ones
    assert "beta == 0" in both[0][2]
    wrong = rows(r"y = 2 \hat x \quad \text{if}\ \gamma = 1 \text{ and } \beta = 0")
    assert [s for s, _, _ in wrong] == ["refuted"], wrong

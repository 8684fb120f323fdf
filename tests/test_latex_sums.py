"""The body of a sum is read as a whole (red-team round 10, M2).

``\\sum_i x^2 * w`` was read ``w * x.T*x``: the square was taken entrywise (sources write
x^2 for x_i^2 in a sum) and the rest of the body multiplied outside the sum, so the scalar
sum_i x_i^2 w_i was "proved" equal to the vector ``w d sigma^2``.  A summand with no indexed
entry that holds a vector's square or two vectors is now read entrywise as a whole
(sum_i x_i^2 w_i), with or without an index on the sum; any other such summand is constant
in i (``\\sum_i a x`` is d a x, as docs/latex.md says).  Truth of each row is by hand:
x, w are vectors, a a scalar, W a matrix; mu, sigma^2, xhat are layernorm's.
"""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text

PRE = "use layernorm\nvector w\nscalar a\nmatrix W"


def rows(latex: str, preamble: str = PRE) -> list[tuple[str, str, str]]:
    text = f"```symnorm\n{preamble}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "sums.md", sandbox=False, timeout=60)
    return [(v.status, v.message, v.statement) for v in res.verdicts if v.status != "defined"]


TRUE = [
    r"\sum_i x^2 * w = \sum_i w * x^2",
    r"\sum_i x * w = x^\top w",                # was an error, now as \sum x * w reads
    r"\sum x * w = x^\top w",
    r"\sum_i x\, w = w^\top x",
    r"\sum_i (x-\mu)^2 * \mathbf 1 = d\,\sigma^2",
    r"\sum_i a x^2 = a\, x^\top x",
    r"\sum_i x^2 a = a \sum_i x^2",
    r"\sum_i a x = d\, a\, x",                 # a summand constant in i: d times it
    r"\frac{1}{d}\sum_{i=1}^d x^2 * \hat x = \frac{1}{d}\sum_i \hat x * x^2",
    r"\sum_i \hat x * \hat x = \frac{d\,\sigma^2}{\sigma^2 + \epsilon}",
    r"\sum_i \hat x^2 * w = \sum_i (\hat x * \hat x) * w",
    r"\sum x^2 * w = \sum_i w\, x^2",
    r"\sum_i a \hat x_i = 0",                # a scalar beside an entry: constant in i
    r"\frac{1}{d}\sum_i a x_i = a\mu",
]

FALSE = [  # one token away from a TRUE row
    r"\sum_i x * w = x^\top x",
    r"\sum x * w = w^\top w",
    r"\sum_i (x-\mu)^2 * \mathbf 1 = d\,\sigma",
    r"\sum_i a x^2 = a^2\, x^\top x",
    r"\sum_i x^2 * w = \sum_i x * w",
    r"\sum_i \hat x * \hat x = d",
    r"\sum_i a x = a\, x",
    r"\sum_i x^2 * \mathbf 1 = 2 \sum_i x^2",
    r"\frac{1}{d}\sum_i a x_i = 2 a\mu",
]


@pytest.mark.parametrize("latex", TRUE)
def test_a_sum_reads_its_whole_body(latex):
    out = rows(latex)
    assert [s for s, _, _ in out] == ["proved"], out


@pytest.mark.parametrize("latex", FALSE)
def test_one_token_variants_are_refuted(latex):
    out = rows(latex)
    assert [s for s, _, _ in out] == ["refuted"], out


def test_the_entrywise_body_is_what_is_read():
    out = rows(r"\sum_i x^2 * w = x^\top w")
    assert "sum(hadamard(hadamard(x, x), w))" in out[0][2], out


@pytest.mark.parametrize("latex, col, fragment", [
    # the red team's fB1, fB3, fB5: a scalar sum was proved equal to a vector
    (r"\sum_i (x-\mu)^2 * w = w\, d\,\sigma^2", 1, "cannot compare a scalar with a vector"),
    (r"\sum_i x^2 * w = w \sum_i x^2", 1, "cannot compare a scalar with a vector"),
    (r"\sum_i w * x^2 = w\,\sum_i x^2", 1, "cannot compare a scalar with a vector"),
    (r"\sum_i x^2 W = a", 1, "a summand read entrywise"),
    (r"a = \sum_i W x * w", 5, "a summand read entrywise"),
    # beside an indexed entry an unindexed vector is never multiplied outside the sum
    (r"\sum_i \hat x_i x = 0", 1, "the vector x beside indexed entries in a summand"),
    (r"\sum_i x_i\, w = w \sum_i x_i", 1, "the vector w beside indexed entries"),
])
def test_shape_clashes_of_a_whole_body_are_located(latex, col, fragment):
    out = rows(latex)
    assert [s for s, _, _ in out] == ["error"], out
    assert f"sums.md:9:{col}:" in out[0][1], out
    assert fragment in out[0][1], out

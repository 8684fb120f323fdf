"""Refusal classes of corpus 8 (issue 10; brief latex16): a parenthesised gloss at the end of
a row (Arat's ``\\qquad (\\text{mini-batch mean})``), a partial of a bracketed expression
(Shreyansh Singh's ``\\frac{\\partial (x_k - \\mu)}{\\partial x_j}``), a trailing index range
after a formula (coremltools' ``\\;,\\; i=1,....,C``) and group superscripts under the grouped
vocabularies (NNabla's ``\\mu^g``, ``x_i^i``).  Each accepted form is proved, a one-token
false variant refuted, and the unsafe neighbours are refused with their message asserted.
Expected verdicts come from the mathematics (checked with numpy below), not from the reader.
"""

from __future__ import annotations

import numpy as np
import pytest

from symnorm.check.run import check_text


def run(preamble: str, latex: str) -> list[tuple[str, str, str]]:
    """(label, status, message) of each row; the latex line is line ``len(preamble) + 5``."""
    text = f"```symnorm\n{preamble}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "g.md", sandbox=False)
    return [(v.label, v.status, v.message) for v in res.verdicts]


def claims(got: list[tuple[str, str, str]]) -> list[str]:
    return [s for _, s, _ in got if s != "defined"]


def error(got: list[tuple[str, str, str]]) -> str:
    errs = [m for _, s, m in got if s == "error"]
    assert errs, got
    return errs[0]


BN = "use batchnorm"
_X = np.array([0.5, -1.25, 2.0, 3.5])


def test_the_truths_used_below() -> None:
    # the batch mean is (1/d) sum x_i, not (2/d) sum x_i; the variance divides by d
    assert np.isclose(np.sum(_X) / 4, _X.mean()) and not np.isclose(2 * np.sum(_X) / 4,
                                                                      _X.mean())
    assert np.isclose(np.sum((_X - _X.mean()) ** 2) / 4, _X.var())


# --- 1. a parenthesised gloss at the end of a row ----------------------------------------

MEAN = r"\mu = \frac{1}{d}\sum_i x_i"
MEAN_FALSE = r"\mu = \frac{2}{d}\sum_i x_i"

PAREN_GLOSSED = [
    r"{} \qquad (\text{mini-batch mean})",
    r"{} \quad \left(\text{mini-batch mean}\right).",
    r"{} \; (\text{the mean of the batch}),",
    r"(\text{Mini-batch mean})\ {}",
    r"(\text{Step one}) \quad {} \qquad (\text{mini-batch mean})",
]


@pytest.mark.parametrize("form", PAREN_GLOSSED)
def test_a_parenthesised_gloss_at_the_edge_of_a_row_is_presentation(form: str) -> None:
    assert claims(run(BN, form.replace("{}", MEAN))) == ["proved"]
    assert claims(run(BN, form.replace("{}", MEAN_FALSE))) == ["refuted"]


def test_parenthesised_glosses_in_the_rows_of_a_split_block() -> None:
    latex = (r"\begin{split} \mu &\leftarrow \frac{1}{d} \sum_{i=1}^{d} x_{i} \qquad "
             r"(\text{mini-batch mean})\\ \sigma^{2} &\leftarrow \frac{1}{d} \sum_{i=1}^{d} "
             r"(x_i - \mu)^2 \qquad (\text{mini-batch variance}) \end{split}")
    assert claims(run(BN, latex)) == ["proved", "proved"]
    got = run(BN, latex.replace(r"\frac{1}{d} \sum_{i=1}^{d} (x_i", r"\frac{2}{d} \sum_{i=1}^{d} (x_i"))
    assert claims(got) == ["proved", "refuted"], got


@pytest.mark.parametrize("latex,what", [
    # against the math: not set apart
    (MEAN + r"(\text{mini-batch mean})", "inside an equation"),
    # a script on the parentheses: part of the expression
    (MEAN + r" \qquad (\text{mini-batch mean})^2", "inside an equation"),
    # more than the gloss inside the parentheses
    (MEAN + r" \qquad (\text{mini-batch mean} + 1)", "inside an equation"),
    # between operands
    (r"\mu = (\text{mini-batch mean}) \; \frac{1}{d}\sum_i x_i", "inside an equation"),
    # a condition word: dropping it would drop a hypothesis
    (MEAN + r" \qquad (\text{for every batch})", "states a condition ('every')"),
    (MEAN + r" \qquad (\text{with \(d > 2\)})", "math inside the gloss"),
    # inside a root: not at the edge of a row
    (r"\mu = \frac{1}{d}\sum_i x_i \sqrt{(\text{mini-batch mean})}", "inside an equation"),
])
def test_parentheses_around_prose_elsewhere_are_refused(latex: str, what: str) -> None:
    msg = error(run(BN, latex))
    assert what in msg and msg.startswith("g.md:6:"), msg


def test_a_parenthesised_gloss_naming_the_affine_parameters_is_still_judged() -> None:
    msg = error(run("use batchnorm(affine=none)",
                    r"y = \frac{x-\mu}{\sqrt{\sigma^2+\epsilon}} \qquad (\text{learnable "
                    r"scale and shift})"))
    assert "names the affine parameters ('learnable')" in msg and "two readings" in msg, msg

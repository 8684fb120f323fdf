"""Glosses, braces with labels, and the vocabulary's output in LaTeX (issue 10, corpus 4).

Prose at the edges of a row (Talwar's ``\\text{(Mean)} \\space``, Patil's ``\\qquad\\text{(...)}``),
``\\underbrace{A}_{..}`` and friends, relations that involve the output ``y`` and write
another declared symbol (the source's weight ``w``), and ``y(x)``.  Each true form is
proved, one-token false variants are refuted, and refusals name the construct at
file:line:column.  Expected verdicts come from the mathematics (docs/latex.md), not from
the reader.
"""

from __future__ import annotations

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


LN = "use layernorm"
MEAN = r"\mu = \frac{1}{d}\sum_i x_i"
MEAN_FALSE = r"\mu = \frac{2}{d}\sum_i x_i"

# --- 1. prose glosses at the edges of a row ------------------------------------------------

GLOSSED = [
    r"\text{(Mean)} \space {}",
    r"\text{(Mean)}\ {}",
    r"\text{(Mean)} \quad {}",
    r"{} \qquad\text{(mean of the entries)}",
    r"{} \quad \text{(mean)}",
    r"{} \;\text{(mean)}",
    r"{}, \text{(mean)}",
    r"{} \qquad\text{(mean \& spread)}.",
    r"\text{(Mean)} \space {} \qquad \text{(of x)}",
]


@pytest.mark.parametrize("form", GLOSSED)
def test_a_gloss_at_the_edge_of_a_row_is_presentation(form: str) -> None:
    assert claims(run(LN, form.replace("{}", MEAN))) == ["proved"]
    assert claims(run(LN, form.replace("{}", MEAN_FALSE))) == ["refuted"]


def test_glosses_in_the_rows_of_an_alignment() -> None:
    latex = (r"\begin{aligned} \text{(Mean)}\ \mu &= \frac{1}{d}\sum_i x_i \quad \text{(first)} "
             r"\\ \text{(Gain)}\ y &= \gamma \hat x + \beta \qquad\text{(second)} \end{aligned}")
    assert claims(run(LN, latex)) == ["proved", "proved"]
    got = run(LN, latex.replace(r"+ \beta", r"- \beta"))
    assert claims(got) == ["proved", "refuted"], got


@pytest.mark.parametrize("latex,at,what", [
    (r"\mu = \text{(Mean)}\; \frac{1}{d}\sum_i x_i", r"\text{(Mean)}",
     "prose '\\\\text{(Mean)}' inside an equation"),                  # between operands
    (r"\mu = \frac{1}{d}\sum_i x_i \text{(mean)}", r"\text", "inside an equation"),  # not apart
    (r"\text{(Mean)}\mu = \frac{1}{d}\sum_i x_i", r"\text", "inside an equation"),
    (r"\mu = \frac{1}{d} \; \text{(the count)} \; \sum_i x_i", r"\text", "inside an equation"),
    (r"\mu = \frac{1}{d}\sum_i x_i \quad \text{(if d > 2)}", r"\text",
     "states a condition ('if')"),
    (r"\mu = \frac{1}{d}\sum_i x_i \quad \text{(for all x)}", r"\text", "states a condition"),
    (r"\mu = \frac{1}{d}\sum_i x_i \quad \text{(where x is the input)}", r"\text",
     "states a condition ('where')"),
    (r"\mu = \frac{1}{d}\sum_i x_i \quad \text{(with \(d>2\))}", r"\text",
     "math inside the gloss"),
    (r"\mu = \frac{1}{d}\sum_i x_i \quad \text{(with $d>2$)}", r"\text", "math inside the gloss"),
    (r"\mu = \frac{1}{d}\sum_i x_i \\ \text{(alone)}", r"\text", "alone in a row"),
])
def test_prose_that_is_not_a_gloss_is_refused(latex: str, at: str, what: str) -> None:
    msg = error(run(LN, latex))
    assert msg.startswith(f"g.md:6:{latex.index(at) + 1}:") and what in msg, msg


def test_the_refusal_suggests_the_accepted_form() -> None:
    msg = error(run(LN, r"\mu = \text{(Mean)}\; \frac{1}{d}\sum_i x_i"))
    assert "start or the end of a row" in msg and "\\text{if}" in msg, msg
    msg = error(run(LN, r"\mu = \frac{1}{d}\sum_i x_i \quad \text{(if d > 2)}"))
    assert "after \\text{if}" in msg, msg


def test_condition_and_connective_words_keep_their_meaning() -> None:
    # \text{if}: a hypothesis (true only with gamma = 1, beta = 0)
    got = run(LN, r"y = \hat x \quad \text{if}\ \gamma = 1,\ \beta = 0")
    assert claims(got) == ["proved"], got
    # with gamma = 1 and beta free it is false for the layer with a bias, true without one:
    # two readings, so an error naming both (docs/latex.md)
    got = run(LN, r"y = \hat x \quad \text{if}\ \gamma = 1")
    assert claims(got) == ["error"] and "two readings" in error(got), got
    got = run(LN, r"y = \hat x + \beta \quad \text{if}\ \gamma = 1")
    assert claims(got) == ["proved"], got
    # \text{where}: a separator
    got = run(LN, r"\mu = \frac{1}{d} q \quad\text{where}\quad q = \sum_i x_i")
    assert claims(got) == ["proved"], got


def test_a_macro_named_like_the_gloss_token_is_not_a_gloss() -> None:
    msg = error(run(LN, r"\gloss\ \mu = \frac{1}{d}\sum_i x_i"))
    assert "unsupported LaTeX command \\gloss" in msg, msg


def test_space_is_spacing() -> None:
    # \space before a factor in the last member is a product, like '\ '
    assert claims(run(LN, r"\mu = \frac{1}{d}\space\sum_i x_i")) == ["proved"]
    msg = error(run(LN, r"\mu = 0 \space \sigma = 0"))
    assert "a product across" in msg, msg


# --- 2. \underbrace, \overbrace, \underset, \overset ---------------------------------------

def test_a_text_label_is_a_gloss_and_the_group_reads_as_itself() -> None:
    latex = r"\mu = \frac{1}{d}\underbrace{\sum_i x_i}_{\text{(the total)}}"
    assert claims(run(LN, latex)) == ["proved"]
    assert claims(run(LN, latex.replace("{1}{d}", "{2}{d}"))) == ["refuted"]
    latex = r"\mu = \overbrace{\frac{1}{d}\sum_i x_i}^{\text{mean}}"
    assert claims(run(LN, latex)) == ["proved"]
    latex = r"\mu = \underset{\text{(mean)}}{\frac{1}{d}\sum_i x_i}"
    assert claims(run(LN, latex)) == ["proved"]
    latex = r"\mu = \frac{1}{d}\underbrace{\sum_i x_i}"       # no label: the frame alone
    assert claims(run(LN, latex)) == ["proved"]


def test_the_group_is_one_operand() -> None:
    # \underbrace{a + b} c is (a + b) c, as the brace shows
    got = run("scalar a, b, c", r"(a + b) c = \underbrace{a + b}_{\text{sum}} c")
    assert claims(got) == ["proved"], got


LABELLED = (r"\mu = \frac{1}{d}\underbrace{\sum_i x_i}_{=\,\mathbf 1^\top x}")


def test_a_math_label_is_a_claim_of_its_own() -> None:
    got = run(LN, LABELLED)
    assert [(lb, s) for lb, s, _ in got if s != "defined"] == [("eq.1", "proved"),
                                                               ("eq.underbrace1", "proved")]
    # the label is checked, never dropped: a false label is refuted, the equation proved
    got = run(LN, LABELLED.replace(r"\mathbf 1^\top x", r"\mathbf 1^\top x + 1"))
    assert [(lb, s) for lb, s, _ in got if s != "defined"] == [("eq.1", "proved"),
                                                               ("eq.underbrace1", "refuted")]
    got = run(LN, LABELLED.replace("{1}{d}", "{2}{d}"))
    assert [(lb, s) for lb, s, _ in got if s != "defined"] == [("eq.1", "refuted"),
                                                               ("eq.underbrace1", "proved")]


def test_labels_of_other_braces_and_their_numbering() -> None:
    latex = (r"\mu = \overbrace{\frac{1}{d}\sum_i x_i}^{=\,\mathbf 1^\top x / d} + "
             r"\underset{=\,0}{\underbrace{\sum_i (x_i - \mu)}_{=\,0}}")
    got = run(LN, latex)
    assert sorted((lb, s) for lb, s, _ in got if s != "defined") == [
        ("eq.1", "proved"), ("eq.overbrace1", "proved"), ("eq.underbrace1", "proved"),
        ("eq.underset1", "proved")], got
    got = run(LN, latex.replace(r"\underset{=\,0}", r"\underset{=\,1}"))
    assert ("eq.underset1", "refuted") in [(lb, s) for lb, s, _ in got], got


def test_a_label_on_a_derivative_states_it() -> None:
    pre = "document use layernorm(affine=elementwise)\nvector dL_dy"
    latex = (r"\frac{\partial L}{\partial \gamma} = \underbrace{\frac{\partial y}{\partial "
             r"\gamma}}_{=\,\mathrm{diag}(\hat x)} \frac{\partial L}{\partial y}")
    got = run(pre, latex)
    assert claims(got) == ["proved", "proved"], got
    got = run(pre, latex.replace(r"\mathrm{diag}(\hat x)", r"\mathrm{diag}(x)"))
    assert [(lb, s) for lb, s, _ in got if s != "defined"] == [("eq.1", "proved"),
                                                               ("eq.underbrace1", "refuted")]


@pytest.mark.parametrize("latex,at,what", [
    (r"\mu = \underbrace{\frac{1}{d}\sum_i x_i}_{1}", "1}", "is neither text nor an equation"),
    (r"\mu = \underbrace{\frac{1}{d}\sum_i x_i}_{> 0}", ">", "is neither text nor an equation"),
    (r"\mu = \underbrace{\frac{1}{d}\sum_i x_i}_{\mu}", r"\mu}", "is neither text nor an equation"),
    (r"\mu = \underbrace \mu + 1", r"\mu +", "\\underbrace needs a braced group"),
    (r"y = \underbrace{\hat x}_{=\,\hat x} \quad \text{if}\ \gamma = 1, \beta = 0", r"\under",
     "in an equation with a condition"),
    # a text label that states something is not a gloss either
    (r"\mu = \underbrace{\mu}_{\text{(if d > 2)}}", r"\text", "states a condition ('if')"),
    (r"\mu = \underbrace{\mu}_{\text{(the mean $\mu$)}}", r"\text", "math inside the gloss"),
    # prose in the subscript of a name is no label
    (r"\mu = x_{\text{(first)}}", r"\text", "prose '\\\\text{(first)}' inside an equation"),
])
def test_labels_that_are_not_read_are_refused(latex: str, at: str, what: str) -> None:
    msg = error(run(LN, latex))
    assert msg.startswith(f"g.md:6:{latex.rindex(at) + 1}:") and what in msg, msg


def test_the_label_refusal_suggests_both_forms() -> None:
    msg = error(run(LN, r"\mu = \underbrace{\frac{1}{d}\sum_i x_i}_{1}"))
    assert "_{\\text{...}}" in msg and "_{= ...}" in msg, msg


# --- 3. the output with the document's own symbols ----------------------------------------

RMS_W = "use rmsnorm\nvector w, dL_dy"


@pytest.mark.parametrize("latex,col", [
    # the chain rule through dL_dy: the source's weight w is not in the vocabulary's y
    (r"\frac{\partial L}{\partial x} = \frac{w \odot \frac{\partial L}{\partial y}}{r}", 39),
    # a Jacobian of y
    (r"\frac{\partial y}{\partial \beta} = w", 37),
    # y itself, not stated on the left
    (r"y - \beta\mathbf 1 = w", 22),
])
def test_a_relation_of_the_output_with_a_foreign_symbol_is_refused(latex: str, col: int
                                                                    ) -> None:
    msg = error(run(RMS_W, latex))
    assert msg.startswith(f"g.md:7:{col}:"), msg
    assert "output y" in msg and "uses w, declared by the document" in msg, msg
    assert "let w = gamma" in msg and "\\gamma" in msg, msg


def test_a_foreign_symbol_through_a_definition_is_named() -> None:
    msg = error(run("use rmsnorm\nvector w, dL_dy\nlet h = 2*w",
                    r"\frac{\partial y}{\partial \beta} = h"))
    assert "uses w (through h), declared by the document" in msg, msg


def test_the_vocabulary_parameters_and_relations_without_the_output_are_read() -> None:
    got = run(RMS_W, r"\frac{\partial y}{\partial \beta} = \mathbf 1")
    assert claims(got) == ["proved"], got
    got = run(RMS_W, r"\frac{\partial y}{\partial \beta} = 2 \mathbf 1")
    assert claims(got) == ["refuted"], got
    # w beside the input but not the output: nothing to compare with gamma
    got = run(RMS_W, r"w^\top x = x^\top w")
    assert claims(got) == ["proved"], got
    # the upstream gradient itself is the document's, and allowed
    got = run(RMS_W, r"\frac{\partial L}{\partial \beta} = \mathbf 1^\top \frac{\partial L}"
                     r"{\partial y}")
    assert claims(got) == ["proved"], got


# --- 4. y(x): the output called on the input -------------------------------------------------

BN = "use batchnorm"
Y_OF_X = r"y(x) = \frac{x - E[x]}{\sqrt{Var[x] + \epsilon}}"


def test_the_output_called_on_its_input_is_the_output() -> None:
    none = "document " + BN + "(affine=none)"    # the layer without gamma and beta
    assert claims(run(none, Y_OF_X)) == ["proved"]
    assert claims(run(none, Y_OF_X.replace("+ \\epsilon", "- \\epsilon"))) == ["refuted"]
    assert "two readings" in error(run(BN, Y_OF_X))
    assert claims(run(BN, r"y(x) = \gamma \hat x + \beta")) == ["proved"]
    assert claims(run(BN, r"y(x) = \gamma \hat x - \beta")) == ["refuted"]


def test_the_output_called_on_anything_else_is_refused() -> None:
    msg = error(run(BN + "\nvector t", r"y(t) = \hat x"))
    assert msg.startswith("g.md:7:1:") and "y(t): the vocabulary's output y" in msg, msg
    assert "not a function" in msg and "let F(t) = ..." in msg, msg
    msg = error(run(BN, r"y(2x) = \hat x"))
    assert "y(2x)" in msg, msg


def test_a_new_function_of_the_input_is_defined_with_the_vocabulary_names_expanded() -> None:
    got = run(BN, r"\mathrm{batchnorm}(x) = \gamma \hat x + \beta")
    assert [(lb, s) for lb, s, _ in got] == [("eq.batchnorm", "defined")], got
    pre = BN + "\nscalar a"
    true = r"F(x) = \gamma \hat x + \beta, \quad F(x + a\mathbf 1) = \gamma \hat x + \beta"
    assert claims(run(pre, true)) == ["proved"]                      # shift invariance
    assert claims(run(pre, true.replace("F(x + a", "F(x - a"))) == ["proved"]
    assert claims(run(pre, true.replace(r"a\mathbf 1) =", r"a x) ="))) == ["refuted"]
    assert claims(run(pre, true.replace(r"\hat x + \beta,", r"\hat x - \beta,"))) == ["refuted"]


def test_the_gain_times_the_output_is_refused() -> None:
    # MyGrad's batchnorm(x) = gamma * y(x) + beta: its y(x) is the normalized x, while the
    # vocabulary's y already holds gamma
    msg = error(run(BN, r"\mathrm{batchnorm}(x) = \gamma y(x) + \beta"))
    assert msg.startswith("g.md:6:32:") and "apply it twice" in msg, msg
    assert "gamma times the vocabulary's output y" in msg and "\\hat x" in msg, msg
    msg = error(run(BN, r"z = y \cdot \gamma"))
    assert "gamma times the vocabulary's output y" in msg, msg


# --- a gloss naming the affine parameters (red team 13, finding G) --------------------------

_X4 = (1.0, -2.0, 4.0, 3.5)
_LN_ROW = r"y = {g}\frac{{x - \mathrm{{E}}[x]}}{{\sqrt{{\mathrm{{Var}}[x]+\epsilon}}}}{b}"


def _ln_numpy(gamma: float, beta: float, sign: float = 1.0) -> bool:
    """Whether gamma * LN(x) + sign * beta equals torch-style LayerNorm with affine (gamma,
    beta) at one point: the independent truth of the rows below."""
    import numpy as np
    x, eps = np.array(_X4), 0.1
    layer = gamma * (x - x.mean()) / np.sqrt(x.var() + eps) + beta
    return bool(np.allclose(gamma * (x - x.mean()) / np.sqrt(x.var() + eps) + sign * beta,
                            layer))


@pytest.mark.parametrize("gloss", [
    r"\qquad \text{(with learnable scale and shift)}", r"\quad \text{(affine)}",
    r"\qquad\text{(gain and bias)}", r"\qquad \text{(learned weights)}",
])
def test_a_gloss_naming_the_affine_parameters_beside_a_formula_without_them_is_refused(
        gloss: str) -> None:
    """The formula without gamma, beta is the layer without them, the gloss says the layer
    has them: with gamma = 3/2, beta = -1/3 the formula is false for the glossed layer."""
    import numpy as np
    x, eps, gamma, beta = np.array(_X4), 0.1, 1.5, -1 / 3
    plain = (x - x.mean()) / np.sqrt(x.var() + eps)
    assert not np.allclose(plain, gamma * plain + beta)  # the two readings differ
    row = _LN_ROW.format(g="", b="") + " " + gloss
    msg = error(run(LN, row))
    assert msg.startswith("g.md:6:") and "names the affine parameters" in msg, msg
    assert "writes neither \\gamma nor \\beta" in msg and "two readings" in msg, msg


def test_a_gloss_naming_the_affine_parameters_beside_them_is_presentation() -> None:
    gloss = r" \qquad \text{(with learnable scale and shift)}"
    assert _ln_numpy(1.5, -1 / 3) and not _ln_numpy(1.5, -1 / 3, sign=-1.0)
    row = _LN_ROW.format(g=r"\gamma", b=r" + \beta") + gloss
    assert claims(run(LN, row)) == ["proved"]
    assert claims(run(LN, row.replace(r"+ \beta", r"- \beta"))) == ["refuted"]

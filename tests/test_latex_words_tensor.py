"""Issue 10: plain-text words, sum indices other than i, j, k, and oneDNN's tensor notation.

Each construct: the true form is proved (through a whole document, so the verdict is the
engines'), one-token false variants are refuted (each false by its own numpy check, computed
without symnorm), and the refusals name the construct at file:line:column.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from symnorm.check.run import check_text

# --- the numbers the false variants are checked at, without symnorm ----------------------

X = np.array([1.0, -2.0, 4.0, 3.5])
G = np.array([2.0, -0.5, 0.75, 1.0])   # a per-element gain
B = np.array([0.25, 1.0, -1.0, 0.5])   # a per-element bias
GAMMA, BETA, EPS = 1.5, -1 / 3, 0.1
D = len(X)
MU = X.mean()
VAR = ((X - MU) ** 2).mean()           # biased, as every vocabulary here
LN = (X - MU) / np.sqrt(VAR + EPS)


def _same(a: object, b: object) -> bool:
    return bool(np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-12))


def verdicts(preamble: str, latex: str) -> list[tuple[str, str, str]]:
    """(label, status, message) of each row; ``use`` lines hold document-wide."""
    pre = "\n".join(f"document {ln}" if ln.startswith("use ") else ln
                    for ln in preamble.splitlines())
    text = f"```symnorm\n{pre}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "w.md", sandbox=False)
    return [(v.label, v.status, v.message) for v in res.verdicts]


def claims(preamble: str, latex: str) -> list[str]:
    got = verdicts(preamble, latex)
    assert all(s != "error" for _, s, _ in got), got
    return [s for _, s, _ in got if s != "defined"]


def error(preamble: str, latex: str) -> str:
    got = verdicts(preamble, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors, got
    return errors[0]


def reading(preamble: str, latex: str) -> list[str]:
    text = "\n".join(f"document {ln}" if ln.startswith("use ") else ln
                     for ln in preamble.splitlines())
    res = check_text(f"```symnorm\n{text}\n```\n\n```latex eq\n{latex}\n```\n", "w.md",
                     sandbox=False)
    return [v.statement for v in res.verdicts if v.status != "defined"]


# --- 1. words of plain-text formulas -------------------------------------------------------

ONNX = "y = scale * (x - mean) / sqrt(variance + epsilon) + bias"
CUDNN = r"output = scale*{input - mean \over \sqrt{variance + epsilon}} + offset"
ONNX_ALIASED = "Y = scale * (X - mean) / sqrt(variance + epsilon) + B"
ALIASES = "use layernorm(affine=elementwise)\nlet X = x\nlet Y = y\nlet B = beta"

WORDS_TRUE = [
    ("use layernorm", ONNX),
    ("use layernorm", CUDNN),
    ("use batchnorm", ONNX),
    ("use batchnorm", CUDNN),
    ("use layernorm(affine=none)", r"output = \frac{input - mean}{\sqrt{var + eps}}"),
    ("use rmsnorm(affine=none)", r"outputs = \frac{inputs}{rms(inputs)}"),
    ("use layernorm", r"\mu = mean(x), \quad \sigma^2 = var(x)"),
    ("use batchnorm", r"\mu = \mathrm{mean}, \quad \sigma^2 = \operatorname{variance}(x)"),
    ("use rmsnorm(affine=gain)", r"y = \frac{x}{rms(x)} \gamma, \quad rms(x) = sqrt(mean(x^2) + eps)"),
    (ALIASES, ONNX_ALIASED),
]


@pytest.mark.parametrize("preamble, latex", WORDS_TRUE)
def test_words_true_forms_are_proved(preamble: str, latex: str) -> None:
    got = claims(preamble, latex)
    assert got and set(got) == {"proved"}, verdicts(preamble, latex)


# (preamble, latex, old, new, numpy truth of the variant)
WORDS_FALSE: list[tuple[str, str, str, str, Callable[[], bool]]] = [
    ("use layernorm", ONNX, "+ bias", "- bias",
     lambda: _same(GAMMA * LN - BETA, GAMMA * LN + BETA)),
    ("use layernorm", ONNX, "(x - mean)", "(x + mean)",
     lambda: _same(GAMMA * (X + MU) / np.sqrt(VAR + EPS) + BETA, GAMMA * LN + BETA)),
    ("use layernorm", ONNX, "variance + epsilon", "variance",
     lambda: _same(GAMMA * (X - MU) / np.sqrt(VAR) + BETA, GAMMA * LN + BETA)),
    ("use batchnorm", CUDNN, "input - mean", "input + mean",
     lambda: _same(GAMMA * (X + MU) / np.sqrt(VAR + EPS) + BETA, GAMMA * LN + BETA)),
    ("use layernorm", r"\sigma^2 = var(x)", "var(x)", "2 var(x)",
     lambda: _same(2 * VAR, VAR)),
    ("use rmsnorm", r"rms(x) = sqrt(mean(x^2) + eps)", "mean(x^2)", "mean(x)",
     lambda: _same(np.sqrt(X.mean() + EPS), np.sqrt((X ** 2).mean() + EPS))),
    (ALIASES, ONNX_ALIASED, "+ B", "- B",
     lambda: _same(G * LN - B, G * LN + B)),
]


@pytest.mark.parametrize("preamble, latex, old, new, truth", WORDS_FALSE)
def test_words_false_variants_are_refuted(preamble, latex, old, new, truth) -> None:
    assert latex.count(old) == 1 and truth() is False
    got = claims(preamble, latex.replace(old, new))
    assert "refuted" in got, verdicts(preamble, latex.replace(old, new))


def test_words_read_as_the_vocabulary_names() -> None:
    """read as shows what each word spells: mean is mu, scale gamma, offset beta."""
    [row] = reading("use layernorm", CUDNN)
    assert row == "y == scale * (x - mu * ones) / sqrt(variance + eps) + offset * ones"
    got = verdicts("use layernorm", CUDNN)
    lets = {lb: m for lb, s, m in got if s == "defined"}
    assert {"eq.mu", "eq.scale", "eq.offset", "eq.variance"} <= set(lets), got
    [row] = reading("use layernorm", r"\mu = mean(x)")
    assert row == "mu == mean(x)"


def test_a_declared_alias_of_the_output_makes_a_claim() -> None:
    """`let Y = y`: Y = ... is checked against the layer, never a silent definition."""
    got = verdicts(ALIASES, ONNX_ALIASED)
    assert [(lb, s) for lb, s, _ in got if s != "defined"] == [("eq.1", "proved")], got
    assert not any(lb == "eq.Y" for lb, _, _ in got)
    # an undeclared name on the left is a visible definition, as documented
    got = verdicts(ALIASES, ONNX_ALIASED.replace("Y =", "Z ="))
    assert [s for _, s, _ in got] == ["defined"] * len(got) and ("eq.Z", "defined") in [
        (lb, s) for lb, s, _ in got], got


@pytest.mark.parametrize("preamble, latex, at, message", [
    # no vocabulary: the words have no meaning
    ("vector x\nscalar eps", ONNX, "w.md:7:5", "'scale' is written as a word"),
    ("vector x\nscalar eps", "y = x - mean", "w.md:7:9", "'mean' is written as a word"),
    # rmsnorm does not centre: no mean or variance of its own
    ("use rmsnorm", "y = x - mean", "w.md:6:9", "'mean' is written as a word"),
    ("use rmsnorm", "y = x / sqrt(variance)", "w.md:6:14", "'variance' is written as a word"),
    # a bare rms: only the statistic applied, rms(x), is read
    ("use rmsnorm", r"y = \frac{x}{rms}", "w.md:6:14", "'rms' is written as a word"),
    # the document's own mu: the word mean is not it
    ("use layernorm\nscalar mu", r"\mu = mean", "w.md:7:7", "'mean' is written as a word"),
    # a declared word is the document's symbol, which the output may not use
    ("use layernorm\nscalar bias", ONNX, "w.md:7:1", "bias is declared by the document"),
    ("use layernorm\nscalar B", ONNX.replace("bias", "B"), "w.md:7:1",
     "uses B, declared by the document"),
])
def test_words_refusals_name_the_word(preamble, latex, at, message) -> None:
    got = error(preamble, latex)
    assert got.startswith(at + ":") and message in got, got


def test_words_are_the_documents_own_when_declared() -> None:
    """A document that declares the word keeps its own symbol (cuDNN's preamble)."""
    got = claims("scalar variance, epsilon, scale, output",
                 "output = scale*{1 \\over \\sqrt{variance + epsilon}}")
    assert got == ["refuted"]  # output is a free scalar, not the formula
    # `mean` is built in: it cannot be declared, and without a vocabulary it means nothing
    assert "'mean' is written as a word" in error("vector input\nscalar scale",
                                                  "scale = input - mean")


# --- 2. sum indices other than i, j, k -----------------------------------------------------

@pytest.mark.parametrize("preamble, latex", [
    ("use layernorm", r"\mu = \frac{1}{n}\sum_r^n x_r"),
    ("use layernorm", r"\sigma^2 = \frac{1}{d}\sum_{p=1}^{d} (x_p - \mu)^2"),
    ("use batchnorm", r"\mu = \frac{1}{m}\sum_{b=1}^{m} x_b"),
    ("use layernorm", r"\hat x_i = \frac{x_i - \frac1d\sum_r x_r}{\sqrt{\sigma^2+\epsilon}}"),
])
def test_other_sum_indices_are_read(preamble: str, latex: str) -> None:
    got = claims(preamble, latex)
    assert got and set(got) == {"proved"}, verdicts(preamble, latex)


@pytest.mark.parametrize("preamble, latex, truth", [
    ("use layernorm", r"\mu = \frac{2}{n}\sum_r^n x_r", lambda: _same(2 * MU, MU)),
    ("use layernorm", r"\sigma^2 = \frac{1}{d}\sum_{p=1}^{d} (x_p + \mu)^2",
     lambda: _same(((X + MU) ** 2).mean(), VAR)),
    ("use layernorm", r"\sigma^2 = \frac{1}{d}\sum_{p=1}^{d} (x_p - \mu)",
     lambda: _same((X - MU).mean(), VAR)),
])
def test_other_sum_indices_false_variants_are_refuted(preamble, latex, truth) -> None:
    assert truth() is False
    assert "refuted" in claims(preamble, latex), verdicts(preamble, latex)


@pytest.mark.parametrize("preamble, latex, at, message", [
    # c and s are layernorm's centred vector and its scale
    ("use layernorm", r"\mu = \frac{1}{d}\sum_c x_c", "w.md:6:23",
     "sum index 'c' is a name of the document"),
    ("use layernorm\nscalar r", r"\mu = \frac{1}{d}\sum_r x_r", "w.md:7:23",
     "sum index 'r' is a name of the document"),
    ("use layernorm", r"\mu = \frac{1}{d}\sum_d x_d", "w.md:6:23",
     "sum index 'd' is the dimension"),
    ("use layernorm\nlayer l", r"\mu = \frac{1}{d}\sum_l x_l", "w.md:7:23",
     "sum index 'l' is the layer index"),
    # the sum's letter binds only inside its body
    ("use layernorm", r"\mu = \frac{1}{d}\sum_r x_r + x_r", "w.md:6:31", "unknown name 'x_r'"),
    ("vector a\nscalar k, n", r"b = \sum_{c'=1}^{n} a_{c'}", "w.md:7:12",
     "sum index c': a decorated index"),
])
def test_other_sum_index_refusals(preamble, latex, at, message) -> None:
    got = error(preamble, latex)
    assert got.startswith(at + ":") and message in got, got


# --- 3. oneDNN's tensor-index notation -----------------------------------------------------

LN_MU = r"\mu(t, n) = \frac{1}{C} \sum\limits_{c} \src(t, n, c)_{}"
LN_VAR = r"\sigma^2(t, n) = \frac{1}{C} \sum\limits_{c} {}_{} (\src(t, n, c) - \mu(t, n))^2"
LN_DST = (r"dst(t, n, c) = \gamma(c) \cdot \frac{src(t, n, c) - \mu(t, n)}"
          r"{\sqrt{\sigma^2(t, n) + \varepsilon}} + \beta(c)")
BN_MU = r"\mu(c) = \frac{1}{NHW} \sum\limits_{nhw} \src(n, c, h, w)_{}"
BN_VAR = r"\sigma^2(c) = \frac{1}{NHW} \sum\limits_{nhw} (\src(n, c, h, w) - \mu(c))^2"
BN_DST = (r"\dst(n, c, h, w) = \gamma(c) \cdot \frac{\src(n, c, h, w) - \mu(c)}"
          r"{\sqrt{\sigma^2(c) + \varepsilon}} + \beta(c)")
LNE = "use layernorm(affine=elementwise)"

TENSOR_TRUE = [
    ("use layernorm", LN_MU), ("use layernorm", LN_VAR), (LNE, LN_DST),
    ("use batchnorm", BN_MU), ("use batchnorm", BN_VAR), ("use batchnorm", BN_DST),
    # the same layout written in another order is the same tensor
    ("use layernorm", r"\mu(t, n) = \frac{1}{C} \sum_{c} src(t, c, n)"),
    # no sum: the statistics at the fixed indices say which index is the vector's
    ("use batchnorm(affine=none)",
     BN_DST.replace(r"\gamma(c) \cdot ", "").replace(r" + \beta(c)", "")),
    # the document's own src
    ("vector src", r"\frac{1}{C}\sum_c 2 src(n, c) = \frac{2}{C}\sum_c src(n, c)"),
]


@pytest.mark.parametrize("preamble, latex", TENSOR_TRUE)
def test_tensor_notation_true_forms_are_proved(preamble: str, latex: str) -> None:
    got = claims(preamble, latex)
    assert got and set(got) == {"proved"}, verdicts(preamble, latex)


def test_tensor_notation_reads_as_vector_algebra() -> None:
    assert reading("use layernorm", LN_MU) == ["mu == 1 / d * sum(x)"]
    # NHW, the capitals of the summed n, h, w: their number of values, d (tensor counts)
    assert reading("use batchnorm", BN_MU) == ["mu == 1 / d * sum(x)"]
    assert reading(LNE, LN_DST) == [
        "y == hadamard(gamma, (x - mu * ones) / sqrt(sigma ** 2 + eps)) + beta"]
    assert reading("use batchnorm", BN_DST) == [
        "y == gamma * (x - mu * ones) / sqrt(sigma ** 2 + eps) + beta * ones"]


TENSOR_FALSE: list[tuple[str, str, str, str, Callable[[], bool]]] = [
    # sign, factor, exponent, dropped eps
    (LNE, LN_DST, "+ \\beta(c)", "- \\beta(c)", lambda: _same(G * LN - B, G * LN + B)),
    (LNE, LN_DST, "src(t, n, c) - \\mu", "src(t, n, c) + \\mu",
     lambda: _same(G * (X + MU) / np.sqrt(VAR + EPS) + B, G * LN + B)),
    (LNE, LN_DST, " + \\varepsilon", "", lambda: _same(G * (X - MU) / np.sqrt(VAR) + B,
                                                      G * LN + B)),
    ("use layernorm", LN_MU, "\\frac{1}{C}", "\\frac{2}{C}", lambda: _same(2 * MU, MU)),
    ("use layernorm", LN_VAR, "))^2", "))", lambda: _same((X - MU).mean(), VAR)),
    ("use batchnorm", BN_VAR, "))^2", "))^2 + 1", lambda: _same(VAR + 1, VAR)),
    ("use batchnorm", BN_DST, "- \\mu(c)", "+ \\mu(c)",
     lambda: _same(GAMMA * (X + MU) / np.sqrt(VAR + EPS) + BETA, GAMMA * LN + BETA)),
    ("use batchnorm", BN_DST, " + \\varepsilon", "",
     lambda: _same(GAMMA * (X - MU) / np.sqrt(VAR) + BETA, GAMMA * LN + BETA)),
    # wrong denominator: C (the channel count) for NHW in a batch norm mean; T for C
    ("use batchnorm", BN_MU, "NHW", "C", lambda: _same(X.sum() / 3, MU)),
    ("use layernorm", LN_MU, "\\frac{1}{C}", "\\frac{1}{T}", lambda: _same(X.sum() / 3, MU)),
]


@pytest.mark.parametrize("preamble, latex, old, new, truth", TENSOR_FALSE)
def test_tensor_notation_false_variants_are_refuted(preamble, latex, old, new, truth) -> None:
    """The numpy truth of a count variant takes C = 3 channels (any count but d is false)."""
    assert latex.count(old) == 1 and truth() is False
    got = claims(preamble, latex.replace(old, new))
    assert "refuted" in got, verdicts(preamble, latex.replace(old, new))


@pytest.mark.parametrize("preamble, latex, at, message", [
    # wrong index: the sum over another index than the statistic leaves out
    ("use layernorm", r"\mu(t, n) = \frac{1}{C} \sum_{n} src(t, n, c)", "w.md:6:1",
     "mu(t, n): an entry lists either the fixed indices (t, c) or the vector index (n)"),
    ("use batchnorm", BN_MU.replace("nhw}", "nh}"), "w.md:6:1",
     "mu(c): an entry lists either the fixed indices (c, w)"),
    ("use layernorm", r"\mu(t) = \frac{1}{C} \sum_{c} src(t, n, c)", "w.md:6:1",
     "mu(t): an entry lists either"),
    ("use layernorm", r"\mu(t, n) = \frac{1}{C} \sum_{c} src(t, n, c) + src(t, c)",
     "w.md:6:34", "src(t, n, c) and src(t, c) list different indices"),
    # LN's gamma(c) is per element: a scalar gamma cannot be indexed by the vector index
    ("use layernorm", LN_DST, "w.md:6:16", "gamma(c) is at the vector index c"),
    (LNE, LN_DST.replace(r"\gamma(c)", r"\gamma(t, n)"), "w.md:6:16",
     "gamma(t, n) is at the fixed indices t, n, but gamma is a vector"),
    # an index letter used as a name: layernorm's c or the index c?
    ("use layernorm", LN_MU + " + c", "w.md:6:60", "the index letter c is used outside"),
    # neither a statistic nor a sum says which index is the vector's
    ("use batchnorm", r"dst(n, c) = \gamma(c) src(n, c)", "w.md:6:1",
     "which of its indices is the vector index"),
    # one notation per equation: a sum over i (or a defined letter) beside the tensor
    ("use layernorm", LN_MU + r" + \sum_i x_i", "w.md:6:60", "a sum over i that is not over"),
    ("use layernorm", LN_MU + r" + \sum_s x_s", "w.md:6:60", "a sum over s that is not over"),
    # a tensor entry anywhere puts the whole equation in the notation: no defined letter
    # becomes a sum index through it
    ("use layernorm\nvector src", r"\mu = \frac{1}{d}\sum_c x_c + 0 src(a)", "w.md:7:18",
     "a sum over c that is not over indices of src(a)"),
    ("vector z", r"\mu(c) = \frac{1}{N}\sum_n src(n, c)", "w.md:6:28",
     "src and dst are the input and output of a layer vocabulary"),
])
def test_tensor_notation_refusals(preamble, latex, at, message) -> None:
    got = error(preamble, latex)
    assert got.startswith(at + ":") and message in got, got


def test_tensor_words_without_notation_stay_refused() -> None:
    """Without an entry src(...)/dst(...) the words are not read (never s*r*c)."""
    assert "'src' is written as a word" in error("use layernorm", "src = x")
    assert "\\mu(...): mu is not a declared symbol" in error(
        "use layernorm", r"\mu(t, n) = \frac{1}{d}\sum_i x_i")


# --- 4. d2l's map x -> LN(x), whose body uses the statistics of its own argument ------------

D2L_MAP = (r"\mathbf{x} \rightarrow \textrm{LN}(\mathbf{x}) = \gamma \odot \frac{\mathbf{x} - "
           r"\hat{\mu}}{\hat\sigma} + \beta")


def _map_doc(latex: str) -> list[tuple[str, str, str]]:
    text = f"```symnorm\ndocument {LNE}\nvector z\n```\n\n```latex m\n{latex}\n```\n"
    return [(v.label, v.status, v.message)
            for v in check_text(text, "m.md", sandbox=False).verdicts]


def test_d2l_map_of_the_blocks_layer_is_a_claim() -> None:
    """x -> LN(x) = gamma (x - muhat)/sigmahat + beta names the block's layer: a claim about
    it (the hats are the statistics of x), never a definition of LN (red team 13: a false
    formula so written was listed `defined`, and later rows were checked against it)."""
    assert _same(G * (X - MU) / np.sqrt(VAR + EPS) + B, G * LN + B)
    got = _map_doc(D2L_MAP)
    assert [s for _, s, _ in got if s != "defined"] == ["proved"], got
    assert not any(lab == "m.LN" for lab, _, _ in got), got


@pytest.mark.parametrize("old, new, truth", [
    ("+ \\beta", "- \\beta", lambda: _same(G * LN - B, G * LN + B)),
    ("\\mathbf{x} - \\hat{\\mu}", "\\mathbf{x} + \\hat{\\mu}",
     lambda: _same(G * (X + MU) / np.sqrt(VAR + EPS) + B, G * LN + B)),
    ("{\\hat\\sigma}", "{\\hat\\sigma^2}",
     lambda: _same(G * (X - MU) / (VAR + EPS) + B, G * LN + B)),
])
def test_d2l_map_false_variants_are_refuted(old, new, truth) -> None:
    assert truth() is False
    assert D2L_MAP.count(old) == 1
    got = _map_doc(D2L_MAP.replace(old, new))
    assert [s for _, s, _ in got if s != "defined"] == ["refuted"], got


def test_d2l_map_on_another_variable_is_refused() -> None:
    """z -> LN(z) = gamma (z - muhat)/sigmahat + beta: by the arrow the hats are z's
    statistics (true), by the block's names x's (false at z != x): two readings."""
    assert not _same(G * (2 * X - MU) / np.sqrt(VAR + EPS) + B,
                     G * (2 * X - 2 * MU) / np.sqrt(4 * VAR + EPS) + B)
    got = _map_doc(D2L_MAP.replace("mathbf{x}", "mathbf{z}"))
    assert [s for _, s, _ in got] == ["error"], got
    assert "written with an arrow on z" in got[0][2] and "two readings" in got[0][2], got

"""Issue 10, second half: names and vocabulary conventions of real-world LaTeX.

Each construct has a test of its reading (through a whole document, so the verdict is the
engines'), a mutant that must be refuted, and a test of its refusal message where refused.
"""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text
from symnorm.errors import SourceError
from symnorm.lang.latex import parse_latex_equation
from symnorm.lang.syntax import Claim, Let


def verdicts(preamble: str, latex: str) -> list[tuple[str, str]]:
    text = f"```symnorm\n{preamble}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "n.md", sandbox=False)
    return [(v.status, v.message) for v in res.verdicts]


def claims(preamble: str, latex: str) -> list[str]:
    return [s for s, _ in verdicts(preamble, latex) if s != "defined"]


def read(text: str, known: set[str]) -> list:
    return parse_latex_equation(text, "t", is_defined=lambda n: n in known)


# --- readings, each with a mutant ----------------------------------------------------------

@pytest.mark.parametrize("preamble, true, false", [
    # \hat{x_i}: the subscript indexes the accented name, as \hat x_i
    ("use layernorm",
     r"\hat{x_i} = \frac{x_i-\mu}{\sqrt{\sigma^2+\epsilon}}",
     r"\hat{x_i} = \frac{x_i+\mu}{\sqrt{\sigma^2+\epsilon}}"),
    ("use layernorm",
     r"\widehat{x_{i}} = \frac{x_i-\mu}{\sqrt{\sigma^2+\epsilon}}",
     r"\widehat{x_{i}} = \frac{x_i-\mu}{\sqrt{\sigma^2+2\epsilon}}"),
    # words and \_ in names
    ("scalar momentum, running_mean\nvector x",
     (r"new\_mean = (1 - momentum) \times running\_mean + momentum \times \frac{1}{d}"
      r"\sum_i x_i, \quad new\_mean - running\_mean = momentum (\frac{1}{d}\sum_i x_i - "
      r"running\_mean)"),
     (r"new\_mean = (1 - momentum) \times running\_mean + momentum \times \frac{1}{d}"
      r"\sum_i x_i, \quad new\_mean - running\_mean = momentum (\frac{1}{d}\sum_i x_i + "
      r"running\_mean)")),
    ("scalar momentum, running_mean",
     r"\text{running\_mean} - \mathrm{running\_mean} = \text{momentum} - \text{momentum}",
     r"\text{running\_mean} - \mathrm{running\_mean} = \text{momentum} + \text{momentum}"),
    ("scalar momentum, a", r"momentum\,a = a\,momentum", r"momentum\,a = a + momentum"),
    # batchnorm: Ioffe and Szegedy's mini-batch statistics
    ("use batchnorm", r"\mu_\mathcal{B} = \frac{1}{m}\sum_{i=1}^m x_i",
     r"\mu_\mathcal{B} = \frac{1}{m-1}\sum_{i=1}^m x_i"),
    ("use batchnorm", r"\sigma_\mathcal{B}^2 = \frac{1}{m}\sum_{i=1}^m (x_i - \mu_\mathcal{B})^2",
     r"\sigma_\mathcal{B}^2 = \frac{1}{m-1}\sum_{i=1}^m (x_i - \mu_\mathcal{B})^2"),
    ("use batchnorm",
     r"\widehat{x}_i = \frac{x_i - \mu_\mathcal{B}}{\sqrt{\sigma_\mathcal{B}^2 + \epsilon}}",
     r"\widehat{x}_i = \frac{x_i - \mu_\mathcal{B}}{\sqrt{\sigma_\mathcal{B}^2} + \epsilon}"),
    ("use batchnorm", r"y = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}\gamma + \beta",
     r"y = \frac{x - \mu}{\sqrt{\sigma+\epsilon}}\gamma + \beta"),
    # an assignment to a vocabulary name is checked against it
    ("use batchnorm", r"\mu_\mathcal{B} \leftarrow \frac{1}{m}\sum_{i=1}^m x_i",
     r"\mu_\mathcal{B} \leftarrow \frac{1}{m}\sum_{i=1}^m x_i^2"),
    ("use layernorm", r"\mu := \frac{1}{d}\sum_i x_i", r"\mu := \frac{2}{d}\sum_i x_i"),
    # rmsnorm: n is the dimension
    ("use rmsnorm", r"\frac{1}{n} \sum_{i=1}^{n} x_i^2 = \frac{x^\top x}{d}",
     r"\frac{1}{n} \sum_{i=1}^{n} x_i^2 = \frac{x^\top x}{d-1}"),
    # entrywise products (per-element gains) at a fixed d, written out over unit vectors
    ("document use layernorm(d=3)\nvector g, b",
     r"z = g \odot \hat x + b, \quad z_i = g_i \hat x_i + b_i",
     r"z = g \odot \hat x + b, \quad z_i = g_i \hat x_i - b_i"),
    ("document use layernorm(d=3)\nvector g",
     r"z = g \odot \hat x, \quad \sum_i z_i = \sum_i g_i \hat x_i",
     r"z = g \odot \hat x, \quad \sum_i z_i = \sum_i \hat x_i"),
    ("document let d = 3\nvector a, g",
     r"\bar a = g \odot a, \quad \bar a = a \odot g, \quad \bar a^\top \mathbf 1 = g^\top a",
     r"\bar a = g \odot a, \quad \bar a = a \odot a"),
    ("document let d = 2\nvector a, g\nscalar c",
     r"\bar a_i = c\, g_i a_i, \quad \bar a = c (g \odot a)",
     r"\bar a_i = c\, g_i a_i, \quad \bar a = c (g \odot a) + c a"),
    # sums over the mini-batch (use batchnorm): x in B runs over the entries of x, |B| is d
    ("use batchnorm",
     r"\mu_\mathcal{B} = \frac{1}{|\mathcal{B}|} \sum_{\mathbf{x} \in \mathcal{B}} \mathbf{x}",
     r"\mu_\mathcal{B} = \frac{1}{|\mathcal{B}|-1} \sum_{\mathbf{x} \in \mathcal{B}} \mathbf{x}"),
    ("use batchnorm",
     r"\sigma_\mathcal{B}^2 = \frac{1}{|\mathcal B|} \sum_{x \in \mathcal B} (x - \mu_\mathcal{B})^2",
     r"\sigma_\mathcal{B}^2 = \frac{1}{|\mathcal B|} \sum_{x \in \mathcal B} (x - \mu_\mathcal{B})"),
    # a named map: f: x \mapsto ... defines f(x)
    ("vector x\nscalar eps",
     r"f: x \mapsto \frac{x}{\sqrt{x^\top x/d + \epsilon}}, \quad f(2x) = \frac{2x}{\sqrt{4x^\top x/d + \epsilon}}",
     r"f: x \mapsto \frac{x}{\sqrt{x^\top x/d + \epsilon}}, \quad f(2x) = \frac{2x}{\sqrt{2x^\top x/d + \epsilon}}"),
    ("vector x", r"\operatorname{LN}: x \mapsto 2x, \quad \operatorname{LN}(x) = x + x",
     r"\operatorname{LN}: x \mapsto 2x, \quad \operatorname{LN}(x) = x"),
    # a function the document defines is a call
    ("use layernorm\nlet f(y) = 2*y", r"z = f(\hat x), \quad z = 2\hat x",
     r"z = f(\hat x), \quad z = 3\hat x"),
])
def test_reading_and_mutant(preamble: str, true: str, false: str) -> None:
    got = claims(preamble, true)
    assert got and set(got) == {"proved"}, verdicts(preamble, true)
    bad = claims(preamble, false)
    assert "refuted" in bad and "error" not in bad and "proved" not in bad[-1:], \
        verdicts(preamble, false)


def test_assignment_to_vocabulary_name_is_a_claim_not_a_definition() -> None:
    got = verdicts("use batchnorm", r"\mu_\mathcal{B} \leftarrow 0")
    assert [s for s, _ in got if s != "defined"] == ["refuted"]
    assert not any("defines mu_B" in m and "0" == m for _, m in got)


def test_algorithm_one_each_row_checked() -> None:
    alg = ("\\begin{aligned}\n\\mu_\\mathcal{B} &\\leftarrow \\frac{1}{m}\\sum_{i=1}^m x_i \\\\\n"
           "\\sigma_\\mathcal{B}^2 &\\leftarrow \\frac{1}{m}\\sum_{i=1}^m (x_i - "
           "\\mu_\\mathcal{B})^2 \\\\\n\\widehat{x}_i &\\leftarrow \\frac{x_i - \\mu_\\mathcal{B}}"
           "{\\sqrt{\\sigma_\\mathcal{B}^2 + \\epsilon}} \\\\\ny_i &\\leftarrow "
           "\\gamma\\widehat{x}_i + \\beta\n\\end{aligned}")
    assert claims("use batchnorm", alg) == ["proved"] * 4
    wrong = alg.replace("^2 + \\epsilon", "^2 - \\epsilon")
    assert claims("use batchnorm", wrong) == ["proved", "proved", "refuted", "proved"]


def test_dimension_name_yields_to_the_document() -> None:
    # the document's own n is not the dimension: the bound is refused, never assumed
    got = verdicts("use rmsnorm\nscalar n", r"\frac{1}{n} \sum_{i=1}^{n} x_i^2 = 1")
    assert got[0][0] == "error" and "upper bound n" in got[0][1]


def test_word_reading_at_parser_level() -> None:
    (st,) = read(r"running\_mean = a", {"a"})
    assert isinstance(st, Let) and st.name == "running_mean"
    (c,) = [s for s in read(r"momentum = a", {"a", "momentum"}) if isinstance(s, Claim)]
    assert str(c.relation) == "momentum == a"
    # letters that are no defined word stay a product
    (c,) = [s for s in read(r"ab = b a", {"a", "b", "ab2"}) if isinstance(s, Claim)]
    assert str(c.relation) == "a * b == b * a"


# --- refusals name the construct ------------------------------------------------------------

@pytest.mark.parametrize("text, known, fragment", [
    (r"y = 2 \odot x", {"y", "x"}, "of a number: an entrywise product takes two vectors"),
    (r"y = \gamma \circ x", {"y", "gamma", "x"}, "entrywise (Hadamard) product"),
    (r"x \mapsto 2x", {"x"}, "read only as a definition f: x \\mapsto"),
    (r"x \rightarrow 2x", {"x"}, "\\rightarrow: a map"),
    (r"a = b \to c", {"a", "b", "c"}, "a map written with an arrow"),
    (r"z = f(x)", {"z", "x"}, "unknown function f: declare f"),
    (r"z = g(x) + 1", {"z", "x"}, "unknown function g"),
    (r"\mu^l = a", {"mu", "a"}, "superscript l is not a defined name: a layer index"),
    (r"\mu = a^{(l)}", {"mu", "a"}, "a layer index"),
    (r"a = mean", {"a"}, "'mean' is written as a word but the document does not define it"),
    (r"a = momentum", {"a"}, "'momentum' is written as a word"),
    (r"a = scales", {"a"}, "'scales' is written as a word"),
    (r"ab = 1", {"ab", "a", "b"}, "both a defined name and a product"),
    (r"a = b\_", {"a", "b"}, "'\\_' must join letters"),
    (r"a = \mathrm{b\_}", {"a", "b"}, "is not a name"),
])
def test_refusal_messages(text: str, known: set[str], fragment: str) -> None:
    with pytest.raises(SourceError) as info:
        read(text, known)
    assert fragment in str(info.value)
    assert info.value.line == 1 and info.value.column >= 1


def test_refusals_in_a_document_are_errors() -> None:
    # use layernorm's gamma is a scalar: an entrywise product with it is a shape error that
    # names the per-element option
    got = [v for v in verdicts("use layernorm", r"y = \gamma \odot \hat x + \beta")
           if v[0] != "defined"]
    assert [s for s, _ in got] == ["error"], got
    assert "not a scalar" in got[0][1] and "affine=elementwise" in got[0][1], got
    got = verdicts("use layernorm", r"z = f(\hat x)")
    assert any(s == "error" and "declare f" in m for s, m in got)


# --- layer superscripts (`layer l`) --------------------------------------------------------

BA = "vector a\nlet H = d\nlayer l"


def test_declared_layer_superscript_names_the_layer() -> None:
    ok = (r"\mu^l = \frac{1}{H}\sum_{i=1}^{H} a_i^l, \quad \mu^{(l)} = \frac{1}{d}\sum_i a_i"
          r", \quad (\mu^l)^2 = \mu^2")
    assert claims(BA, ok) == ["proved", "proved"]
    bad = r"\mu^l = \frac{1}{H}\sum_{i=1}^{H} a_i^l, \quad \mu^{(l)} = \frac{2}{d}\sum_i a_i"
    assert claims(BA, bad) == ["refuted"]


@pytest.mark.parametrize("latex, fragment", [
    (r"\mu^l = a_1, \quad \mu^{l+1} = \mu^l", "only the layer l itself is modelled"),
    (r"\mu^l = a_1, \quad \mu^{(l-1)} = \mu^l", "only the layer l itself is modelled"),
    (r"\mu^l = a_1, \quad \mu^{2l} = \mu^l", "only the layer l itself is modelled"),
])
def test_other_layers_are_refused(latex: str, fragment: str) -> None:
    got = verdicts(BA, latex)
    assert got[0][0] == "error" and fragment in got[0][1], got



# Red team 8: the layer superscript was dropped from any base, so each of these false
# equations (read with ^l as a power, l = 2, they fail) was proved for every d.
@pytest.mark.parametrize("latex", [
    r"2^l \mu^l = 2\mu^{(l)}",
    r"\left(\mu^2+\epsilon\right)^l = \mu^2 + \epsilon",
    r"d^l \mu = d\,\mu",
    r"\left(\frac{1}{2}\right)^{(l)} \mu = \frac{\mu}{2}",
    r"|\mu - 2|^{l} = |\mu^l - 2|",
    r"\|a\|^{(l)} = \|a^l\|_2",
    r"\sqrt{\epsilon}^{\,l} = \sqrt{\epsilon}",
    r"\left(1+\epsilon\right)^{(l)} = 1 + \epsilon",
    r"2^{l} = 2",
])
def test_layer_superscript_only_on_names(latex: str) -> None:
    got = verdicts(BA + "\nscalar mu, eps", latex)
    assert got and all(s == "error" for s, _ in got), got
    assert "belongs to a name" in got[0][1], got

@pytest.mark.parametrize("preamble, fragment", [
    ("layer l\nlayer k", "a second layer letter 'k'"),
    ("scalar l\nlayer l", "already a name"),
    ("layer l\nscalar l", "'l' is the layer letter"),
    ("layer l\nlet l = 2", "'l' is the layer letter"),
    ("layer ab", "the layer is one letter"),
])
def test_layer_declaration_errors(preamble: str, fragment: str) -> None:
    got = verdicts("vector a\n" + preamble, "a = a")
    assert any(s == "error" and fragment in m for s, m in got), got


def test_entrywise_product_scope_names_the_fixed_d() -> None:
    text = ("```symnorm\ndocument let d = 3\nvector a, g\n```\n\n"
            "```latex h\n\\bar a = g \\odot a, \\quad \\bar a = a \\odot g\n```\n")
    res = check_text(text, "h.md", sandbox=False)
    (v,) = [v for v in res.verdicts if v.status != "defined"]
    assert v.status == "proved" and "d = 3" in v.scope and "every d" not in v.scope


@pytest.mark.parametrize("preamble, latex, fragment", [
    ("vector a, g", r"\bar a_i = g_i \odot a", "between an indexed entry"),
    ("vector a, g\nscalar c", r"\bar a = c \odot a", "not a scalar"),
    ("vector a, g\nmatrix W", r"\bar a = W \odot a", "not a matrix"),
    ("vector a, g", r"\bar a = g \circ a", "\\circ: not read as an entrywise"),
    ("document let d = 3\nvector a, g", r"\bar a_i = \frac{a_i}{g_i}", "quotient or power"),
])
def test_entrywise_refusals(preamble: str, latex: str, fragment: str) -> None:
    got = verdicts(preamble, latex)
    assert got[0][0] == "error" and fragment in got[0][1], got


@pytest.mark.parametrize("preamble, latex, fragment", [
    ("use batchnorm", r"\mu_\mathcal{B} = \frac{1}{m} \sum_{x \in \mathcal{S}} x",
     "a sum over the set S: sums over sets are not modelled"),
    ("use layernorm", r"\mu = \frac{1}{d} \sum_{x \in \mathcal{B}} x", "a sum over the set B"),
    ("use batchnorm\nscalar B", r"\mu = \frac{1}{d} \sum_{x \in \mathcal{B}} x",
     "a sum over the set B"),  # the document's own B is no mini-batch
    ("use batchnorm", r"\mu = \frac{1}{d} \sum_{y \in \mathcal{B}} y", "a sum over the set B"),
    ("use batchnorm", r"\mu_\mathcal{B} = \frac{1}{m} \sum_{x \in \mathcal{B}}^m x",
     "takes no upper bound"),
    ("use batchnorm", r"\mu_\mathcal{B} = \frac{1}{m} \sum_{x \in \mathcal{B}} x_i",
     "an indexed entry inside a sum over x in a set"),
    ("use batchnorm", r"\mu_\mathcal{B} = \frac{1}{m} \sum_{x \in \mathcal{B}} 1",
     "does not use x"),
    ("vector x\nscalar eps", r"\mu = \frac{1}{m}\sum_{k\in\mathcal{S}_i} x_k", "the set S"),
])
def test_set_sum_refusals(preamble: str, latex: str, fragment: str) -> None:
    got = verdicts(preamble, latex)
    assert any(s == "error" and fragment in m for s, m in got), got


@pytest.mark.parametrize("preamble, latex, fragment", [
    ("use layernorm", r"\mathcal N: x \mapsto \frac{x}{2}", "\\mapsto redefines 'N'"),
    ("vector x", r"f: x + 1 \mapsto 2x", "with one variable"),
    ("vector x", r"f g: x \mapsto 2x", "must be one name"),
    ("vector x", r"x \mapsto 2x", "read only as a definition"),
])
def test_map_refusals(preamble: str, latex: str, fragment: str) -> None:
    got = verdicts(preamble, latex)
    assert any(s == "error" and fragment in m for s, m in got), got


def test_rms_is_the_scalar_root_mean_square_with_rmsnorm() -> None:
    text = ("```symnorm\nuse rmsnorm\n```\n\n```latex r\n"
            "a = \\mathrm{RMS}(x), \\quad a^2 = \\frac{x^\\top x}{d} + \\epsilon\n```\n")
    res = check_text(text, "r.md", sandbox=False)
    assert [v.status for v in res.verdicts] == ["defined", "proved"]
    # the eps-free RMS of Zhang and Sennrich is refuted against it, not proved
    assert claims("use rmsnorm", r"\mathrm{RMS}(x) = \sqrt{\frac{1}{n}\sum_{i=1}^n x_i^2}") \
        == ["refuted"]


@pytest.mark.parametrize("latex, fragment", [
    (r"a = \mathrm{RMS}(x, x)", "RMS takes one argument here"),
    (r"a = \mathrm{RMS}_\epsilon(x)", "RMS takes one argument here"),
])
def test_rms_call_refusals(latex: str, fragment: str) -> None:
    got = verdicts("use rmsnorm", latex)
    assert any(s == "error" and fragment in m for s, m in got), got


def test_accent_subscript_rewrite_is_bounded_and_keeps_the_source() -> None:
    import time

    hostile = "a = " + r"\hat{x_{" * 1900 + "i" + "}}" * 1900
    t0 = time.monotonic()
    with pytest.raises(SourceError):
        read(hostile, {"a", "x"})
    assert time.monotonic() - t0 < 10  # was quadratic: about 30 s
    (c,) = [s for s in read(r"a = \hat{x_{ij}}", {"a", "x", "xhat_ij"}) if isinstance(s, Claim)]
    assert c.source == r"a = \hat{x_{ij}}" and str(c.relation) == "a == xhat_ij"
    with pytest.raises(SourceError):  # a long subscript is not moved: the parser refuses it
        read(r"a = \hat{x_{aaaaaaaaaaaaaaaaaaaaaa}}", {"a", "x"})

r"""A layer's name of the block's vocabulary is never redefined by an equation (red team 13,
finding E): ``\mathrm{LN}(z) = ...``, ``\mathrm{RMSNorm}(w) = ...``, ``\operatorname{LN}: x
\mapsto ...`` and d2l's ``x \rightarrow LN(x) = ...`` are claims about the layer, so the same
row gets the same verdict before and after them; a definition of the name made where no
vocabulary named that layer is refused where the block's layer is meant.  Truths by numpy
(the layer computed directly, as torch.nn.functional.layer_norm / rms_norm compute it)."""

from __future__ import annotations

import numpy as np
import pytest

from symnorm.check.run import check_text

X = np.array([0.0, 2.0, -1.0, 3.5])
EPS = 0.25


def _ln(v: np.ndarray, eps: float = EPS) -> np.ndarray:
    return (v - v.mean()) / np.sqrt(v.var() + eps)


def _rms(v: np.ndarray, eps: float = EPS) -> np.ndarray:
    return v / np.sqrt(np.mean(v ** 2) + eps)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.allclose(a, b, rtol=1e-12, atol=1e-12))


def _rows(*blocks: str) -> dict[str, tuple[str, str]]:
    text = "\n\n".join(f"```symnorm\n{b}\n```" for b in blocks) + "\n"
    res = check_text(text, "e.md", sandbox=False)
    out: dict[str, tuple[str, str]] = {}
    for v in res.verdicts:
        if v.status != "defined":
            out[v.label.split(".")[0]] = (v.status, v.message)
    return out


def test_the_same_row_before_and_after_an_equation_for_the_layer_name() -> None:
    """t45: line 6 and line 8 are the same text; the row between them is a claim too."""
    assert not _same(_ln(X), (X - X.mean()) / X.std())             # eps dropped: false
    got = _rows("use layernorm(affine=none)\nvector z\n"
                r"latex a: \mathrm{LN}(x) = \frac{x - \mu}{\sigma}" "\n"
                r"latex def: \mathrm{LN}(z) = \frac{z - \mathrm{E}[z]\mathbf 1}"
                r"{\sqrt{\mathrm{Var}[z]}}" "\n"
                r"latex b: \mathrm{LN}(x) = \frac{x - \mu}{\sigma}" "\n"
                r"latex t: \mathrm{LN}(x) = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}" "\n"
                r"latex t2: \mathrm{LN}(x) = \hat x")
    assert {k: s for k, (s, _) in got.items()} == {
        "a": "refuted", "def": "refuted", "b": "refuted", "t": "proved", "t2": "proved"}, got


@pytest.mark.parametrize("preamble, defining, false_row, true_row, truths", [
    # t29 (RMSNorm without eps, written with n)
    ("use rmsnorm(affine=none)\nvector w",
     r"\mathrm{RMSNorm}(w) = \frac{w}{\sqrt{\frac{1}{n}\sum_i w_i^2}}",
     r"\mathrm{RMSNorm}(x) = \frac{x}{\sqrt{\frac{1}{n}\sum_i x_i^2}}",
     r"\mathrm{RMSNorm}(x) = \frac{x}{\sqrt{\frac{1}{n}\sum_i x_i^2 + \epsilon}}",
     lambda: (_same(_rms(X), X / np.sqrt(np.mean(X ** 2))),
              _same(_rms(X), X / np.sqrt(np.mean(X ** 2) + EPS)))),
    # t33 (a text name of the layer)
    ("use layernorm(affine=none)\nvector q", r"\text{LayerNormalization}(q) = q - \mathrm{E}[q]\mathbf 1",
     r"\text{LayerNormalization}(x) = x - \mu", r"\text{LayerNormalization}(x) = \hat x",
     lambda: (_same(_ln(X), X - X.mean()), True)),
    # t30 block 2 (batchnorm's BN on another vector)
    ("use batchnorm(affine=none)\nvector w",
     r"\operatorname{BN}(w) = w - \Big(\frac{1}{m}\sum_i w_i\Big) \mathbf 1",
     r"\operatorname{BN}(x) = x - \mu",
     r"\operatorname{BN}(x) = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}",
     lambda: (_same(_ln(X), X - X.mean()), True)),
    # t30 block 3 (a named map of the layer's input)
    ("use layernorm(affine=none)", r"\operatorname{LN}: x \mapsto \frac{x - \mu}{\sigma^2}",
     r"\operatorname{LN}(x) = \frac{x - \mu}{\sigma^2}",
     r"\operatorname{LN}(x) = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}",
     lambda: (_same(_ln(X), (X - X.mean()) / X.var()), True)),
    # t29 block 2 (d2l's arrow map)
    ("use layernorm",
     r"\mathbf{x} \rightarrow \mathrm{LayerNorm}(\mathbf{x}) = \gamma\,\frac{\mathbf x - "
     r"\hat\mu}{\hat\sigma^2} + \beta",
     r"\mathrm{LayerNorm}(x) = \gamma\,\frac{x - \mu}{\sigma^2 + \epsilon} + \beta",
     r"\mathrm{LayerNorm}(x) = \gamma\,\frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} + \beta",
     lambda: (_same(1.5 * _ln(X) - 1, 1.5 * (X - X.mean()) / (X.var() + EPS) - 1), True)),
])
def test_an_equation_for_the_layer_name_is_a_claim(preamble, defining, false_row, true_row,
                                                   truths) -> None:
    """The defining row is false (refuted, never `defined`), so it cannot change the verdicts
    of the rows after it: the false row is refuted and the true row proved."""
    false_is_true, true_is_true = truths()
    assert (false_is_true, true_is_true) == (False, True)
    got = _rows(f"{preamble}\nlatex def: {defining}\nlatex f: {false_row}\n"
                f"latex t: {true_row}")
    assert {k: s for k, (s, _) in got.items()} == {
        "def": "refuted", "f": "refuted", "t": "proved"}, got


def test_a_true_named_map_of_the_layer_is_proved_and_a_variant_refuted() -> None:
    assert _same(_ln(X), (X - X.mean()) / np.sqrt(X.var() + EPS))
    assert not _same(_ln(X), (X - X.mean()) / np.sqrt(X.var() + 2 * EPS))
    row = r"\operatorname{LN}: x \mapsto \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}"
    got = _rows(f"use layernorm(affine=none)\nlatex t: {row}\nlatex f: " + row.replace(
        r"\epsilon", r"2\epsilon"))
    assert {k: s for k, (s, _) in got.items()} == {"t": "proved", "f": "refuted"}, got


@pytest.mark.parametrize("row, words", [
    (r"\operatorname{LN}: z \mapsto \frac{z - \mu}{\sigma}", "written with an arrow on z"),
    (r"\mathbf z \rightarrow \mathrm{LN}(\mathbf z) = \frac{\mathbf z - \hat\mu}{\hat\sigma}",
     "written with an arrow on z"),
    (r"x \rightarrow \mathrm{LN}(z) = z", "a map written with an arrow is read only as"),
])
def test_an_arrow_map_of_the_layer_on_another_variable_is_refused(row, words) -> None:
    """By the arrow the body's statistics are z's, by the block's names x's: two readings."""
    got = _rows(f"use layernorm\nvector z\nlatex m: {row}")
    assert got["m"][0] == "error" and words in got["m"][1], got


@pytest.mark.parametrize("first", [
    "vector x\nlatex m: \\operatorname{LN}: x \\mapsto 2x",
    "vector x\nlet LN(t) = 2*t",
])
def test_a_definition_made_where_no_layer_had_the_name_does_not_leak(first) -> None:
    """t30 T_s11 / a let before any vocabulary: the later block's LN is the layer, so the
    definition's meaning is refused there (naming its line), never silently used."""
    assert not _same(_ln(X), 2 * X)
    got = _rows(first, "use layernorm\nlatex f: \\operatorname{LN}(x) = 2x\n"
                "latex t: \\operatorname{LN}(x) = \\frac{x - \\mu}{\\sqrt{\\sigma^2 + "
                "\\epsilon}}")
    for k in ("f", "t"):
        assert got[k][0] == "error", got
        assert "names this block's layer, and the document defined LN itself on line 3" \
            in got[k][1], got


def test_a_let_beside_the_vocabulary_keeps_its_meaning() -> None:
    """`use layernorm` then `let LN(t) = 2*t`: the document's declaration picks LN's meaning."""
    got = _rows("use layernorm\nlet LN(t) = 2*t\nlatex t: \\operatorname{LN}(x) = 2x\n"
                "latex f: \\operatorname{LN}(x) = 3x")
    assert {k: s for k, (s, _) in got.items()} == {"t": "proved", "f": "refuted"}, got


def test_a_layer_name_where_no_single_output_reads_it_is_refused() -> None:
    """t29 (verbatim): `use layernorm` document-wide, `use rmsnorm` in the third block:
    RMSNorm(w) = ... was a definition, after which the eps-free (false) RMSNorm(x) row was
    proved.  Now neither row is defined or proved (refused where no single output reads
    the name, refuted where the block's layer does)."""
    assert not _same(_rms(X), X / np.sqrt(np.mean(X ** 2)))
    rms = ("use rmsnorm\nvector w\n"
           r"latex defR: \mathrm{RMSNorm}(w) = \frac{w}{\sqrt{\frac{1}{n}\sum_i w_i^2}}" "\n"
           r"latex F_s6: \mathrm{RMSNorm}(x) = \frac{x}{\sqrt{\frac{1}{n}\sum_i x_i^2}}")
    for first in ("use layernorm\nlatex t: \\mathrm{LN}(x) = \\hat x",
                  "use layernorm\nvector z\n"
                  r"latex F_s0: \mathrm{LN}(x) = \frac{x - \mu}{\sigma}" "\n"
                  r"latex defLN: \mathrm{LN}(z) = \frac{z - \mathrm{E}[z]}"
                  r"{\sqrt{\mathrm{Var}[z]}}"):
        got = _rows(first, "use layernorm\n" r"latex defN: \mathbf{x} \rightarrow "
                    r"\mathrm{LayerNorm}(\mathbf{x}) = \gamma\,\frac{\mathbf x - \hat\mu}"
                    r"{\hat\sigma^2} + \beta", rms)
        assert got["defN"][0] == "refuted", got
        for k in ("defR", "F_s6"):
            assert got[k][0] in ("refuted", "error"), got
    # the rmsnorm block reads its own layer: the eps-free formula is refuted
    assert got["F_s6"][0] == "refuted", got

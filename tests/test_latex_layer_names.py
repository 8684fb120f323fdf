r"""A layer's name applied to its input is the layer's output (``\mathrm{RMSNorm}(x)``,
``\text{LayerNorm}(x)``, ``\operatorname{BN}(x)``, ``LN(x)``): each true formula is proved,
each one-token false variant refuted, with the truth computed by PyTorch's functional
layers (``test_latex_real_world2``); another layer's name is a located error."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_variant_refuted
from test_latex_real_world2 import _DY, _G, _X, BETA, EPS, GAMMA, _bn, _ln, _rms, _same, verdicts

_LN_RHS = r"\gamma \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} + \beta"
_RMS_RHS = r"\frac{x}{\sqrt{\frac{1}{d}\sum_i x_i^2 + \epsilon}}"

#: (preamble, LaTeX, the numpy truth of the formula as written)
CASES = {
    "ln.mathrm": ("use layernorm", r"\mathrm{LN}(x) = " + _LN_RHS,
                  lambda: _same(GAMMA * (_X - _X.mean()) / np.sqrt(_X.var() + EPS) + BETA,
                                GAMMA * _ln(_X) + BETA)),
    "ln.plain": ("use layernorm", "LN(x) = " + _LN_RHS, lambda: True),
    "ln.text": ("use layernorm", r"\text{LayerNorm}(x) = " + _LN_RHS, lambda: True),
    "ln.bold": ("use layernorm", r"\operatorname{LayerNorm}(\mathbf{x}) = " + _LN_RHS,
                lambda: True),
    # the layer without affine parameters, as the use line says
    "ln.noaffine": ("use layernorm(affine=none)", r"\mathrm{LN}(x) = \frac{x - \mu}{\sqrt{\sigma^2 + "
                    r"\epsilon}}", lambda: _same((_X - _X.mean()) / np.sqrt(_X.var() + EPS),
                                                  _ln(_X))),
    "bn.operatorname": ("use batchnorm", r"\operatorname{BN}(x) = " + _LN_RHS,
                        lambda: _same(GAMMA * (_X - _X.mean()) / np.sqrt(_X.var() + EPS)
                                      + BETA, GAMMA * _bn(_X) + BETA)),
    "bn.word": ("use batchnorm", r"\mathrm{BatchNorm}(x) = " + _LN_RHS, lambda: True),
    "rms.gain": ("use rmsnorm(affine=gain)", r"\mathrm{RMSNorm}(x) = " + _RMS_RHS + r" \gamma",
                 lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * GAMMA, _rms(_X) * GAMMA)),
    "rms.plain": ("use rmsnorm(affine=none)", r"\mathrm{RMSNorm}(x) = " + _RMS_RHS,
                  lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS), _rms(_X))),
    "rms.affine": ("use rmsnorm", r"\mathrm{RMSNorm}(x) = " + _RMS_RHS + r" \gamma + \beta",
                   lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * GAMMA + BETA,
                                 _rms(_X) * GAMMA + BETA)),
    # on the right-hand side too: the output stated through the layer's name
    "ln.right": ("use layernorm", r"y = \mathrm{LN}(x)", lambda: True),
}

#: key: (token, replacement, numpy check that the variant is false)
VARIANTS = {
    "ln.mathrm": (r"+ \beta", r"- \beta",
                  lambda: _same(GAMMA * _ln(_X) - BETA, GAMMA * _ln(_X) + BETA)),
    "ln.plain": (r"\sigma^2 + \epsilon", r"\sigma^2 + 2\epsilon",
                 lambda: _same(GAMMA * _ln(_X, eps=2 * EPS) + BETA, GAMMA * _ln(_X) + BETA)),
    "ln.text": (r"\gamma \frac", r"\gamma^2 \frac",
                lambda: _same(GAMMA ** 2 * _ln(_X) + BETA, GAMMA * _ln(_X) + BETA)),
    "bn.operatorname": (r"x - \mu", r"x + \mu",
                        lambda: _same(GAMMA * (_X + _X.mean()) / np.sqrt(_X.var() + EPS)
                                      + BETA, GAMMA * _bn(_X) + BETA)),
    "rms.gain": (r"\frac{1}{d}", r"\frac{2}{d}",
                 lambda: _same(_X / np.sqrt(2 * np.mean(_X ** 2) + EPS) * GAMMA,
                               _rms(_X) * GAMMA)),
    # dropping the mean's 1/d: the sum of squares
    "rms.plain": (r"\frac{1}{d}", "", lambda: _same(_X / np.sqrt(np.sum(_X ** 2) + EPS),
                                                     _rms(_X))),
    "rms.affine": (r"+ \beta", r"+ 2\beta",
                   lambda: _same(_rms(_X) * GAMMA + 2 * BETA, _rms(_X) * GAMMA + BETA)),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_layer_name_on_the_input_is_the_output(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_one_token_false_variant_is_refuted(key: str) -> None:
    preamble, latex, _ = CASES[key]
    assert_variant_refuted(preamble, latex, *VARIANTS[key])


def _error(preamble: str, latex: str) -> str:
    got = verdicts(preamble, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors, got
    return errors[0]


@pytest.mark.parametrize("preamble, latex, layer, col", [
    ("use layernorm", r"\mathrm{BatchNorm}(x) = " + _LN_RHS, "batchnorm", 1),
    ("use layernorm", r"y = \operatorname{BN}(x)", "batchnorm", 5),
    ("use batchnorm", r"\text{LayerNorm}(x) = " + _LN_RHS, "layernorm", 1),
    ("use rmsnorm", r"\mathrm{LN}(x) = x", "layernorm", 1),
    # GroupNorm and InstanceNorm are vocabularies too (use groupnorm(...), issue 10)
    ("use layernorm", r"\mathrm{GroupNorm}(x) = x", "groupnorm", 1),
    ("use batchnorm", r"\mathrm{IN}(x) = x", "instancenorm", 1),
])
def test_another_layers_name_is_a_located_error(preamble, latex, layer, col) -> None:
    msg = _error(preamble, latex)
    assert f"is a name of the layer {layer}, not of this block's layer" in msg, msg
    assert f"rw2.md:6:{col}:" in msg, msg
    assert f"`use {layer}`" in msg, msg


def test_layer_name_on_another_argument_is_not_the_output() -> None:
    # LN(a) = ... is a claim about the layer map at a (never a definition of LN): false
    assert not _same(_ln(_X), _X)
    got = verdicts("use layernorm(affine=none)\nvector a", r"\mathrm{LN}(a) = a")
    assert [s for _, s, _ in got] == ["refuted"], got
    # the vocabulary's own map BN(v) of use batchnorm keeps its meaning on another vector:
    # shift invariance holds (eps > 0 included), scale invariance does not (eps > 0)
    shift = r"\operatorname{BN}(v + 2\mathbf{1}) = \operatorname{BN}(v)"
    got = verdicts("use batchnorm\nvector v", shift)
    assert [s for _, s, _ in got if s != "defined"] == ["proved"], got
    got = verdicts("use batchnorm\nvector v", r"\operatorname{BN}(2 v) = \operatorname{BN}(v)")
    assert "refuted" in [s for _, s, _ in got], got


def test_the_documents_own_function_keeps_its_name() -> None:
    got = verdicts("use layernorm\nlet LN(t) = 2*t", r"\mathrm{LN}(x) = 2x")
    assert [s for _, s, _ in got if s != "defined"] == ["proved"], got
    got = verdicts("use layernorm\nlet LN(t) = 2*t", r"\mathrm{LN}(x) = 3x")
    assert "refuted" in [s for _, s, _ in got], got


# --- the layer's name on another argument: the same layer map there -----------------------

_A, _B = 2.5, -0.75  # the scalars a, b of the numpy truths (the claims hold for all a, b)


def _ln_plain(x, eps=EPS):
    return (x - x.mean()) / np.sqrt(x.var() + eps)


#: (preamble, LaTeX, the numpy truth): invariance and scaling claims about the layer map,
#: proved for every d
ARG_CASES = {
    "ln.shift": ("use layernorm", "LN(x+3) = LN(x)", lambda: _same(_ln(_X + 3), _ln(_X))),
    "ln.shift_b": ("use layernorm\nscalar b", r"\mathrm{LN}(x + b\mathbf 1) = \mathrm{LN}(x)",
                   lambda: _same(_ln(_X + _B), _ln(_X))),
    "ln.scale_ab": ("use layernorm(affine=none)\nscalar a, b",
                    r"\mathrm{LN}(a x + b\mathbf 1) = \frac{a (x - \mu)}{\sqrt{a^2\sigma^2 + "
                    r"\epsilon}}",
                    lambda: _same(_ln(_A * _X + _B),
                                  _A * (_X - _X.mean()) / np.sqrt(_A ** 2 * _X.var() + EPS))),
    "ln.vector": ("use layernorm\nvector u", r"\mathrm{LN}(u) = \mathrm{LN}(u + 2\mathbf 1)",
                  lambda: _same(_ln(_G), _ln(_G + 2))),
    # the equation writes gamma and beta: the layer map with them, at x + 3
    "ln.gain": ("use layernorm", r"\mathrm{LN}(x + 3\mathbf 1) = \gamma \hat x + \beta",
                lambda: _same(GAMMA * _ln(_X + 3) + BETA, GAMMA * _ln(_X) + BETA)),
    "ln.elementwise": ("use layernorm(affine=elementwise)",
                       r"\mathrm{LN}(x + 3\mathbf 1) = \mathrm{LN}(x)",
                       lambda: _same(_G * _ln(_X + 3) + _DY, _G * _ln(_X) + _DY)),
    # RMSNorm at 2x: eps seen as eps/4 by x
    "rms.scale": ("use rmsnorm(affine=none)", r"\mathrm{RMSNorm}(2x) = \frac{x}{\sqrt{\frac{1}{d}\sum_i "
                  r"x_i^2 + \epsilon/4}}",
                  lambda: _same(_rms(2 * _X), _X / np.sqrt(np.mean(_X ** 2) + EPS / 4))),
    "rms.gain": ("use rmsnorm(affine=gain)", r"\mathrm{RMSNorm}(2x) = \frac{x}{\sqrt{\frac{1}{d}\sum_i "
                 r"x_i^2 + \epsilon/4}} \gamma",
                 lambda: _same(GAMMA * _rms(2 * _X),
                               GAMMA * _X / np.sqrt(np.mean(_X ** 2) + EPS / 4))),
    # a plain-text docstring formula at a shifted input (words: mean, var, weight, bias)
    "ln.words": ("use layernorm", "LN(x + 1) = (x - mean(x)) / sqrt(var(x) + epsilon) * weight"
                 " + bias", lambda: _same(GAMMA * _ln(_X + 1) + BETA,
                                          GAMMA * _ln_plain(_X) + BETA)),
}

ARG_VARIANTS = {
    "ln.shift": ("= LN(x)", "= LN(x) + 3", lambda: _same(_ln(_X + 3), _ln(_X) + 3)),
    "ln.shift_b": (r"(x + b", r"(2x + b", lambda: _same(_ln(2 * _X + _B), _ln(_X))),
    "ln.scale_ab": (r"a^2\sigma^2", r"a\sigma^2",
                    lambda: _same(_ln(_A * _X + _B),
                                  _A * (_X - _X.mean()) / np.sqrt(_A * _X.var() + EPS))),
    "ln.vector": (r"u + 2\mathbf 1", r"2u", lambda: _same(_ln(_G), _ln(2 * _G))),
    "ln.gain": (r"+ \beta", r"- \beta",
                lambda: _same(GAMMA * _ln(_X + 3) + BETA, GAMMA * _ln(_X) - BETA)),
    "ln.elementwise": (r"x + 3\mathbf 1", "3x",
                       lambda: _same(_G * _ln(3 * _X) + _DY, _G * _ln(_X) + _DY)),
    "rms.scale": (r"\epsilon/4", r"\epsilon/2",
                  lambda: _same(_rms(2 * _X), _X / np.sqrt(np.mean(_X ** 2) + EPS / 2))),
    "rms.gain": (r"(2x)", r"(4x)",
                 lambda: _same(GAMMA * _rms(4 * _X),
                               GAMMA * _X / np.sqrt(np.mean(_X ** 2) + EPS / 4))),
    "ln.words": ("+ bias", "- bias", lambda: _same(GAMMA * _ln(_X + 1) + BETA,
                                                   GAMMA * _ln_plain(_X) - BETA)),
}


@pytest.mark.parametrize("key", sorted(ARG_CASES))
def test_layer_name_on_another_argument_is_the_layer_map(key: str) -> None:
    assert_proved(*ARG_CASES[key])


@pytest.mark.parametrize("key", sorted(ARG_VARIANTS))
def test_layer_map_one_token_variant_is_refuted(key: str) -> None:
    preamble, latex, _ = ARG_CASES[key]
    assert_variant_refuted(preamble, latex, *ARG_VARIANTS[key])


@pytest.mark.parametrize("preamble, latex, truth", [
    ("use layernorm", "LN(2x) = 2LN(x)", lambda: _same(_ln(2 * _X), 2 * _ln(_X))),
    ("use layernorm", "LN(x+3) = LN(x) + 3", lambda: _same(_ln(_X + 3), _ln(_X) + 3)),
    # eps > 0: the layer is not scale invariant
    ("use layernorm", r"\mathrm{LN}(2x) = \mathrm{LN}(x)", lambda: _same(_ln(2 * _X), _ln(_X))),
    ("use rmsnorm", r"\mathrm{RMSNorm}(2x) = \mathrm{RMSNorm}(x)",
     lambda: _same(_rms(2 * _X), _rms(_X))),
])
def test_false_layer_map_claims_are_refuted(preamble, latex, truth) -> None:
    assert truth() is False
    got = verdicts(preamble, latex)
    assert [s for _, s, _ in got if s != "defined"] == ["refuted"], got


@pytest.mark.parametrize("preamble, latex, words, col", [
    # a formula for the map without the gain and bias the layer has: two readings
    ("use layernorm", r"\mathrm{LN}(x + 3\mathbf 1) = \hat x",
     ("states the layer map LN(...) as y without \\gamma and \\beta",
      "gamma * N(x) + beta * ones: two readings", "`use layernorm(affine=none)`"), 1),
    ("use layernorm", r"LN(x_i) = y_i", ("a layer's name applied to an indexed entry",), 1),
    # the source's own gain w beside the layer map: an error naming w, never a refutation
    ("use layernorm\nscalar w", r"\mathrm{LN}(2x) = w \mathrm{LN}(x)",
     ("uses w, declared by the document",), 19),
])
def test_layer_map_refusals(preamble, latex, words, col) -> None:
    msg = _error(preamble, latex)
    for w in words:
        assert w in msg, msg
    assert f":{col}:" in msg.split(" ")[0], msg


def test_the_layer_name_on_the_left_is_a_claim_on_any_argument() -> None:
    # \mathrm{LN}(u) = ... is a claim about the layer at u, with or without LN on the right
    got = verdicts("use layernorm\nvector u", r"\mathrm{LN}(u) = \mathrm{LN}(u + 2\mathbf 1)")
    assert [s for _, s, _ in got] == ["proved"], got
    got = verdicts("use layernorm(affine=none)\nvector u", r"\mathrm{LN}(u) = u")
    assert [s for _, s, _ in got] == ["refuted"], got
    # the map and the output y beside it are one layer, with its gain and bias
    got = verdicts("use layernorm", r"\mathrm{LN}(x + 3\mathbf 1) = y")
    assert [s for _, s, _ in got if s != "defined"] == ["proved"], got
    assert not _same(GAMMA * _ln(_X + 3) + BETA, _ln(_X + 3))  # the readings differ


@pytest.mark.parametrize("preamble, latex", [
    ("use layernorm", r"\gamma \mathrm{LN}(2x) + \beta = \gamma \hat x + \beta"),
    ("use layernorm(affine=elementwise)", r"\gamma \odot \mathrm{LN}(2x) = \mathrm{LN}(x)"),
])
def test_the_gain_times_a_layer_map_that_holds_it_is_refused(preamble, latex) -> None:
    msg = _error(preamble, latex)
    assert "gamma times the layer map LN(...), which holds the gain already here" in msg, msg

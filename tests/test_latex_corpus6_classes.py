"""The classes of corpus 6's refusals (issue 10), each as a general rule: a true form proved,
a one-token false variant refuted (truth computed with numpy / PyTorch, never with
symnorm), and the refusal of what stays ambiguous, by the words of its message.

1. upright-d derivatives of the loss (``\\frac{dL}{dv}``, ``dL/dx``); 2. a group left open
over several lines of a ``latex`` block is one equation; 3. capitalised words (``Output``,
``Mean(..)``) and the block's layer name as a label (``RMSNorm:``); 4. Unicode Greek and
math symbols as their macros; 5. ``\\mathbf{1}_N`` with N a name of the dimension.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import (
    _DY, _X, BETA, EPS, GAMMA, _bn, _grad, _ln, _rms, _same, verdicts,
)
from test_latex_real_world6 import _B, _G, _bn_affine, _bn_grads, _dl_dvar, _ln_affine

M = len(_X)
_XH = (_X - _X.mean()) / np.sqrt(_X.var() + EPS)
BN = "use batchnorm"
BN_DY = "use batchnorm\nvector dl_dy"
BN_N = "use batchnorm\nlet N = d\nvector dl_dy"
LN_E = "use layernorm(affine=elementwise)"
RMS_E = "use rmsnorm(affine=elementwise)"
BN_L = "use batchnorm\nvector dL_dy"


def _dl_dxhat(scale: float = 1.0) -> bool:
    """dL/d xhat along the graph (xhat a node) against dy * gamma * scale."""
    return _same(_grad(lambda xh: float(_DY @ (GAMMA * xh + BETA)), _XH), _DY * GAMMA * scale)


def _statuses(pre: str, latex: str) -> list[str]:
    return [s for _, s, _ in verdicts(pre, latex) if s != "defined"]


#: (class, preamble, true latex, false variant, truth of the true form, truth of the variant)
CASES = [
    # 1. upright-d derivatives of the loss: the adjoint, as \partial
    ("d", BN_DY, "\\frac{dl}{d\\beta} = \\sum_i \\frac{\\partial l}{\\partial y_i}",
     "\\frac{dl}{d\\beta} = 2\\sum_i \\frac{\\partial l}{\\partial y_i}",
     lambda: _same(_bn_grads()[2], np.sum(_DY)),
     lambda: _same(_bn_grads()[2], 2 * np.sum(_DY))),
    ("d", BN_DY, "\\frac{d\\ell}{d\\hat x_i} = \\frac{\\partial \\ell}{\\partial y_i}\\gamma",
     "\\frac{d\\ell}{d\\hat x_i} = \\frac{\\partial \\ell}{\\partial y_i}\\gamma^2",
     _dl_dxhat, lambda: _dl_dxhat(GAMMA)),
    ("d", BN_L, "\\frac{d\\mathcal L}{d\\gamma} = \\sum_i \\frac{d \\mathcal{L}}{d y_i} \\hat x_i",
     "\\frac{d\\mathcal L}{d\\gamma} = \\sum_i \\frac{d \\mathcal{L}}{d y_i} x_i",
     lambda: _same(_bn_grads()[1], np.sum(_DY * _XH)),
     lambda: _same(_bn_grads()[1], np.sum(_DY * _X))),
    ("d", BN_DY, "\\frac{\\mathrm{d} l}{\\mathrm{d} \\sigma^2} = -\\frac{\\gamma}{2}(\\sigma^2+"
     "\\epsilon)^{-3/2}\\sum_i \\frac{\\partial l}{\\partial y_i}(x_i - \\mu)",
     "\\frac{\\mathrm{d} l}{\\mathrm{d} \\sigma^2} = -\\frac{\\gamma}{2}(\\sigma^2+"
     "\\epsilon)^{-1/2}\\sum_i \\frac{\\partial l}{\\partial y_i}(x_i - \\mu)",
     lambda: _same(_dl_dvar(), -GAMMA / 2 * (_X.var() + EPS) ** -1.5 * np.sum(_DY * (_X - _X.mean()))),
     lambda: _same(_dl_dvar(), -GAMMA / 2 * (_X.var() + EPS) ** -0.5
                   * np.sum(_DY * (_X - _X.mean())))),
    ("d", BN_DY, "dl/d\\gamma = \\sum_i \\frac{dl}{dy_i} \\hat x_i",
     "dl/d\\gamma = \\sum_i \\frac{dl}{dy_i} \\hat x_i^2",
     lambda: _same(_bn_grads()[1], np.sum(_DY * _XH)),
     lambda: _same(_bn_grads()[1], np.sum(_DY * _XH ** 2))),
    # 2. a group open at the end of a line continues on the next lines
    ("lines", BN_DY,
     "\\boxed{\n\\frac{\\partial l}{\\partial \\beta} = \\sum_i \\frac{\\partial l}"
     "{\\partial y_i}\n}",
     "\\boxed{\n\\frac{\\partial l}{\\partial \\beta} = 2\\sum_i \\frac{\\partial l}"
     "{\\partial y_i}\n}",
     lambda: _same(_bn_grads()[2], np.sum(_DY)),
     lambda: _same(_bn_grads()[2], 2 * np.sum(_DY))),
    ("lines", BN,
     "y = \\gamma \\left( \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}}\n\\right) + \\beta",
     "y = \\gamma \\left( \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}}\n\\right) - \\beta",
     lambda: _same(GAMMA * _XH + BETA, _bn_affine()),
     lambda: _same(GAMMA * _XH - BETA, _bn_affine())),
    ("lines", BN, "\\hat x = \\frac{x - \\mu}{\n  \\sqrt{\\sigma^2 + \\epsilon}\n}",
     "\\hat x = \\frac{x - \\mu}{\n  \\sqrt{\\sigma^2 - \\epsilon}\n}",
     lambda: _same(_XH, _bn(_X)),
     lambda: _same((_X - _X.mean()) / np.sqrt(_X.var() - EPS), _bn(_X))),
    # 4. Unicode Greek and math symbols as their macros; the root sign of a bracketed group
    ("unicode", BN, "\\hat x = (x \u2212 \u03bc) / \u221a(\u03c3^2 + \u03b5)",
     "\\hat x = (x \u2212 \u03bc) / \u221a(\u03c3^2 \u2212 \u03b5)",
     lambda: _same(_XH, _bn(_X)),
     lambda: _same((_X - _X.mean()) / np.sqrt(_X.var() - EPS), _bn(_X))),
    ("unicode", BN, "y = \u03b3\u00b7\\hat x + \u03b2", "y = \u03b3\u00d7\\hat x \u2212 \u03b2",
     lambda: _same(GAMMA * _XH + BETA, _bn_affine()),
     lambda: _same(GAMMA * _XH - BETA, _bn_affine())),
    ("unicode", LN_E, "y = \u03b3 \u2299 \\hat x + \u03b2", "y = \u03b3 \u2299 x + \u03b2",
     lambda: _same(_G * _XH + _B, _ln_affine()),
     lambda: _same(_G * _X + _B, _ln_affine())),
    ("unicode", BN, "\u2211_i (x_i \u2212 \u03bc) = 0", "\u2211_i (x_i \u2212 \u03bc) = 1",
     lambda: _same(np.sum(_X - _X.mean()), 0.0), lambda: _same(np.sum(_X - _X.mean()), 1.0)),
    ("unicode", BN, "\u03c3 = \u221a{\u03c3^2}, \\quad \u03c3 \u2265 0",
     "\u03c3 = \u221a{\u03c3^2}, \\quad \u03c3 \u2264 -1",
     lambda: _same(np.sqrt(_X.var()), np.sqrt(_X.var())), lambda: bool(np.sqrt(_X.var()) <= -1)),
    # 5. the ones vector (and I) subscripted with a name the document defines as d
    ("ones", BN_N, "\\frac{\\partial l}{\\partial \\beta} = \\mathbf{1}_N^T \\frac{\\partial l}"
     "{\\partial y}", "\\frac{\\partial l}{\\partial \\beta} = \\mathbf{1}_N^T \\frac{\\partial l}"
     "{\\partial x}",
     lambda: _same(_bn_grads()[2], np.ones(M) @ _DY),
     lambda: _same(_bn_grads()[2], np.ones(M) @ _bn_grads()[0])),
    ("ones", BN_N, "\\mathbf 1_{N}^\\top (x - \\mu \\mathbf 1_N) = 0",
     "\\mathbf 1_{N}^\\top (x - \\mu \\mathbf 1_N) = N",
     lambda: _same(np.ones(M) @ (_X - _X.mean()), 0.0),
     lambda: _same(np.ones(M) @ (_X - _X.mean()), float(M))),
    ("ones", "use layernorm\nlet m = d", "I_m \\mathbf 1_m = \\mathbf{1}", "I_m \\mathbf 1_m = 2\\mathbf{1}",
     lambda: _same(np.eye(M) @ np.ones(M), np.ones(M)),
     lambda: _same(np.eye(M) @ np.ones(M), 2 * np.ones(M))),
    # 3. capitalised words as their lower-case words; the block's layer name as a label
    ("words", RMS_E, "RMSNorm: y =\\frac {x} {\\sqrt{Mean(x^2)+\\epsilon}} *\\gamma",
     "RMSNorm: y =\\frac {x} {\\sqrt{Mean(x^2)+2\\epsilon}} *\\gamma",
     lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * _G, _rms(_X, weight=_G)),
     lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + 2 * EPS) * _G, _rms(_X, weight=_G))),
    ("words", LN_E, "Output = \\gamma \\odot \\frac{Input - Mean}{\\sqrt{Var(Input) + \\epsilon}}"
     " + \\beta", "Output = \\gamma \\odot \\frac{Input + Mean}{\\sqrt{Var(Input) + \\epsilon}}"
     " + \\beta",
     lambda: _same(_G * _XH + _B, _ln_affine()),
     lambda: _same(_G * (_X + _X.mean()) / np.sqrt(_X.var() + EPS) + _B, _ln_affine())),
    ("words", BN, "Mean(x) = \\frac{1}{d}\\sum_i x_i", "Mean(x) = \\frac{2}{d}\\sum_i x_i",
     lambda: _same(_X.mean(), np.sum(_X) / M), lambda: _same(_X.mean(), 2 * np.sum(_X) / M)),
    ("words", "use layernorm", "LayerNorm: y = \\gamma \\hat x + \\beta",
     "LayerNorm: y = \\gamma \\hat x - \\beta",
     lambda: _same(GAMMA * _XH + BETA, GAMMA * _ln(_X) + BETA),
     lambda: _same(GAMMA * _XH - BETA, GAMMA * _ln(_X) + BETA)),
    ("words", "use layernorm", "\\operatorname{LN}: y = \\hat x \\quad \\text{if}\\ \\gamma = 1,"
     "\\ \\beta = 0", "\\operatorname{LN}: y = x \\quad \\text{if}\\ \\gamma = 1,\\ \\beta = 0",
     lambda: _same(_XH, _ln(_X)), lambda: _same(_X, _ln(_X))),
]


@pytest.mark.parametrize("kind, pre, true, false, truth, false_truth", CASES,
                         ids=[f"{c[0]}:{c[2][:40]}" for c in CASES])
def test_true_form_proved_and_variant_refuted(kind, pre, true, false, truth, false_truth) -> None:
    assert truth() is True and false_truth() is False
    got = _statuses(pre, true)
    assert got and set(got) <= {"proved"}, verdicts(pre, true)
    bad = _statuses(pre, false)
    assert "refuted" in bad and "error" not in bad, verdicts(pre, false)


#: (preamble, latex, fragment of the first error)
REFUSALS = [
    # 1. a d-derivative of anything but the loss: the total derivative or the graph partial
    (BN_DY, "\\frac{d\\hat x_i}{d\\mu} = -\\frac{1}{\\sigma}", "derivative notation "
     "\\frac{dxhat_i}{dmu}: xhat is not the loss (a name the document neither declares nor "
     "defines, whose upstream gradient it declares), so the d reads two ways: the total "
     "derivative of xhat by mu"),
    (BN_DY, "\\frac{dy}{d\\gamma} = \\hat x", "y is not the loss"),
    (BN_DY, "\\frac{d\\sigma^2}{dx_i} = \\frac{2}{d}(x_i - \\mu)", "sigma is not the loss"),
    (BN_DY, "d\\mu/dx_i = \\frac{1}{d}", "derivative notation dmu/dx_i: mu is not the loss"),
    (BN_DY, "\\frac{d\\mu}{d \\hat x_i} = \\frac{\\mu}{\\hat x_i}", "mu is not the loss"),
    # ... a second derivative, the operator form, an expression after d: never a quotient
    (BN_DY, "\\frac{d^2 l}{d\\gamma^2} = 0", "derivative notation \\frac{d}{dx} is not "
     "accepted in this form: an upright-d fraction is read only as \\frac{dL}{dv}"),
    (BN_DY, "\\frac{d}{d\\gamma} l = 0", "is not accepted in this form"),
    (BN, "\\frac{d \\mu}{d (\\mu)} = 1", "never as a quotient of products with the dimension"),
    (BN, "\\frac{d \\mu}{d \\left( \\mu \\right)} = 1", "is not accepted in this form"),
    # ... the loss without its upstream gradient
    (BN, "\\frac{dl}{d\\beta} = 1", "no upstream gradient of it is declared"),
    # 2. a group still open where the block ends: at the position of what opened it
    (BN, "a = 2 \\boxed{\nb", "rw2.md:6:7: '\\boxed{' is never closed: the latex block ends"),
    (BN, "\\mu = 1\na = \\left( b\n+ 1", "rw2.md:7:5: '\\left' is never closed"),
    (BN, "a = \\frac{1}{2} { b", "rw2.md:6:17: '{' is never closed"),
    # 4. other non-ASCII: homoglyphs, the micro sign, bidi controls
    (BN, "a = \u0430", "non-ASCII character '\u0430' (U+0430)"),
    (BN, "\u00b5 = \u00b5", "non-ASCII character '\u00b5' (U+00B5)"),
    (BN, "\u03bc = \u202e\u03bc", "(U+202E)"),
    (BN, "\u03bc = \u039c", "(U+039C)"),  # the capital Greek Mu, the Latin M's homoglyph
    # 4. the root sign where it could reach further
    (BN, "a = \u221a\u03c3^2", "a script after \u221a\u03c3: on the root or on its argument? Two"),
    (BN, "a = \u221ax_i", "a script after \u221ax"),
    (BN, "a = \u221a\u03b3\u03b2", "\u221a before the product \u03b3\u03b2: the root of the product or"),
    (BN, "a = \u221a2 \u03b3", "\u221a before the product 2 \u03b3"),
    (BN, "a = \u221a\u03b3 \u221a\u03b2", "\u221a before the product"),
    (BN, "a = \u221a[\u03b3]", "\u221a before '[': the sign is read only before a letter"),
    (BN, "a = \u221a\\hat x", "\u221a before '\\hat'"),
    # 5. any other subscript of the ones vector: a size that is not d, an index, a free name
    ("use batchnorm\nscalar N", "\\mu = \\frac{1}{d}\\mathbf 1_N^\\top x",
     "subscript _N is not accepted here (only \\mathbf 1_d or a name the document defines as"),
    (BN_N, "\\mu = \\frac{1}{d}\\mathbf 1_M^\\top x", "subscript _M is not accepted here"),
    (BN_N, "\\mu = \\frac{1}{d}\\mathbf 1_i^\\top x", "subscript _i is not accepted here"),
    (BN_N, "\\mu = \\frac{1}{d}\\mathbf 1_{N,N}^\\top x", "subscript _N,N is not accepted"),
    # 3. another layer's name as a label, another word before ':'; a spelling the document
    # defines; Var alone; words outside the list; an identifier before a bracket
    (RMS_E, "LayerNorm: y = x", "'LayerNorm:' before the equation labels it with a layer "
     "that is not this block's (its layers are named RMSNorm, RMSNormalization)"),
    ("vector x", "LayerNorm: x = x", "'LayerNorm:' before the equation labels it with a layer"),
    (RMS_E, "Foo: y = x", "got ':'"),
    (RMS_E, "RMSNorm: x \\mapsto x", "the name of a map before ':' must be one name"),
    ("use layernorm\nscalar output", "Output = y", "'Output' is written as a word"),
    ("use layernorm", "\\mu = Var", "'Var' is written as a word"),
    ("use layernorm", "y = Scale x", "'Scale' is written as a word"),
    ("use layernorm", "y = FusedActivation(x)", "unknown function FusedActivation: the "
     "document does not define it"),
]


@pytest.mark.parametrize("pre, latex, fragment", REFUSALS, ids=[r[1] for r in REFUSALS])
def test_ambiguous_forms_are_refused_by_name(pre: str, latex: str, fragment: str) -> None:
    got = verdicts(pre, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and fragment in errors[0], got


def test_d_written_as_a_product_stays_a_quotient() -> None:
    """The dimension d with an explicit product, or d alone, in a fraction is no derivative:
    (d mu)/d = mu and d/(d+1) are proved as quotients; 2 d mu / d = mu refuted."""
    assert _statuses(BN, "\\frac{d \\cdot \\mu}{d} = \\mu") == ["proved"]
    assert _statuses(BN, "\\frac{d}{d+1} = 1 - \\frac{1}{d+1}") == ["proved"]
    assert _statuses(BN, "\\frac{2 d \\cdot \\mu}{d} = \\mu") == ["refuted"]


def test_lines_of_one_group_are_one_equation_and_the_next_line_another() -> None:
    """The box's three lines are equation ``eq``; the line after it is ``eq-2`` (refuted on
    its own); ``\\leftarrow``, ``\\{`` and ``\\\\`` open no group."""
    latex = ("\\boxed{\n\\frac{\\partial l}{\\partial \\beta} = \\sum_i \\frac{\\partial l}"
             "{\\partial y_i}\n}\n\\frac{\\partial l}{\\partial \\beta} = 2 \\sum_i "
             "\\frac{\\partial l}{\\partial y_i}")
    got = [(lb, s) for lb, s, _ in verdicts(BN_DY, latex) if s != "defined"]
    assert got == [("eq.1", "proved"), ("eq-2.1", "refuted")], got
    latex = "\\mu \\leftarrow \\frac{1}{d}\\sum_i x_i\n\\mu \\leftarrow \\frac{2}{d}\\sum_i x_i"
    got = [(lb, s) for lb, s, _ in verdicts(BN, latex) if s != "defined"]
    assert got == [("eq.1", "proved"), ("eq-2.1", "refuted")], got

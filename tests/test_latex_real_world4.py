"""The fourth real-world corpus (``tests/real_world_corpus4.py``): what symnorm accepts
verbatim, with which verdict, and each entry's ``truth`` computed with numpy and PyTorch
(functional layers and autograd as the reference) without symnorm, as in
``test_latex_real_world3.py``."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from construct_checks import assert_corpus_verdict
from real_world_corpus4 import CORPUS
from test_latex_real_world2 import (
    _DY, _G, _X, BETA, EPS, GAMMA, _bn, _jac, _ln, _rms, _same, _t, _torch, verdicts,
)

ENTRIES = {c[0]: c for c in CORPUS}
M = len(_X)
Q = Fraction

#: refused entries, by the construct their first error names
REFUSED = {
    # plain-text formulas: a word the document does not define
    # sum(... for j in range(k)): a Python generator, not read (the message names \sum_{j=1}^{k})
    "keras.mean": "'sum' is written as a word: a sum is read only as \\sum",
    "keras.var": "'sum' is written as a word: a sum is read only as \\sum",
    "keras.normalized": "double subscript",                  # x_i_normalized
    "keras.output": "double subscript",                      # x_i_normalized
    # out, data are MXNet's output and input words, but mean(data, axis) takes an axis
    # mean(data, axis): the document does not say which axis (let axis = -1 would)
    "mxnet.layernorm": "mean(.., axis): the document does not say which axes",
    "max.rms_norm": "uses input, declared by the document",  # its own input vector
    # plain-text sqrt(...) (y(x) is the output y; gamma * y(x) would apply gamma twice)
    "mygrad.batchnorm": "expected ']' to close '['",        # the typo Var[x}
    # MyGrad's own y(x), the normalized value, under use batchnorm's output y: two readings
    # (then batchnorm(x) = gamma * y(x) + beta: 'norm' is written as a word)
    "mygrad.batchnorm.fn": "writes the output y without \\gamma and \\beta",
    # the source's own weight w instead of the vocabulary's gamma, in the output or in a
    # relation that involves it (the chain rule through dL_dy)
    "nki.rms_norm": "uses w, declared by the document",
    "chrisjob.rmsnorm.dx": "uses w, declared by the document",
    # NeMo's X_ij, \hat X_ij, Y_ij (let X = x, let Y = y) are read one row at a time
    # (latex_rows.py) and proved, and so is its graph partial by \hat X; its (false) input
    # gradient multiplies two vectors with \cdot
    "nemo.lnb.dx": "cannot multiply a vector by a vector",
    "mltalks.Y": "unknown name 'X'",
    # derivatives: an entry of a Jacobian, a differential, an inline \partial
    # \sigma [x]: sigma times the vector x, not the standard deviation of x
    "aidge.xhat": "cannot divide by a vector",
    "aidge.dx": "cannot divide by a vector",
    # a sum over samples n
    "aidge.dgamma": "sum index 'n'",
    "aidge.dbeta": "sum index 'n'",
    # issue threads: plain-text dE/dY is read (a derivative where the upstream gradient is
    # declared); dE(Y)/dX (the loss applied to Y) is not, and MATLAB's ./ (elementwise
    # division) and markdown bold ** inside the formula are not LaTeX
    "caffe.issue4110.proposal": "'dE' looks like a differential",
    "caffe.issue3912": "unexpected '.' after a relation",
    "caffe.issue3878": "unexpected '*'",
    # Patil's \qquad\text{(...)} glosses are read; a gloss with math states something, and
    # rms, \widehat{x} are defined by earlier equations of the page
    "tanmay.rms": "math inside the gloss",                  # \text{(... \(\epsilon>0\))}
    "tanmay.xhat": "unknown name 'rms'",
    "tanmay.y": "unknown name 'beta'",                     # rmsnorm's gain only
}
#: accepted true entries whose rows are all definitions (Patil's a; a partial by a quantity
#: the document lacks is an error, never a definition)
DEFINED_ONLY = {"tanmay.a": "a"}
#: chrisjob.rmsnorm.dx (false) was refuted, but against the vocabulary's y = gamma RMS(x) +
#: beta, in which the source's weight w does not occur; it is now refused like nki.rms_norm
#: (see test_true_gradient_with_the_sources_weight_is_refused)


@pytest.mark.parametrize("key", list(ENTRIES))
def test_corpus4_verdicts(key: str) -> None:
    _, _, preamble, latex, truth = ENTRIES[key]
    assert_corpus_verdict(key, preamble, latex, truth, REFUSED, defined_only=DEFINED_ONLY)

def test_corpus4_size_and_acceptance() -> None:
    assert len(CORPUS) >= 30 and set(REFUSED) | set(DEFINED_ONLY) <= set(ENTRIES)
    assert not set(REFUSED) & set(DEFINED_ONLY)
    # at least 8 public sources, by key prefix
    assert len({k.split(".")[0] for k in ENTRIES}) >= 8
    # 23 of 50 accepted verbatim, every accepted entry with the right verdict (7 at
    # first): plain words, glosses, two-index entries (talwar.grad, koonce.center), RMSNorm's
    # graph and the adjoints in differential notation where the upstream gradient is declared
    # as dy (yue.*, yuerms.dr, xla.dgamma), the diagonal by a per-element parameter (yue.dbeta,
    # yue.dgamma, yuerms.dgamma), a layer's name applied to x (edifice.rmsnorm), running_mean
    # as one declared name (CS231n's updates, refuted); Patil's a is a definition only.
    # chrisjob.rmsnorm.dx (the source's w) is refused.  Then 28: NeMo's data matrix X (let X
    # = x, let Y = y), read one row at a time (latex_rows.py), its mean, variance, X-hat, Y
    # and the graph partial by X-hat proved
    accepted = len(CORPUS) - len(REFUSED)
    assert len(CORPUS) == 50 and accepted == 28 and accepted - len(DEFINED_ONLY) == 27


def test_no_entry_repeats_an_earlier_corpus() -> None:
    from real_world_corpus import CORPUS as C1
    from real_world_corpus2 import CORPUS as C2
    from real_world_corpus3 import CORPUS as C3
    earlier = {c[3] for c in C1 + C2 + C3}
    assert not [k for k, _, _, latex, _ in CORPUS if latex in earlier]


# --- the truth labels, computed without symnorm --------------------------------------------

_MU, _VAR = _X.mean(), _X.var()
_S = np.sqrt(_VAR + EPS)
_XH = (_X - _MU) / _S
_B = np.array([float(v) for v in (Q(1, 2), Q(0), Q(-2), Q(1, 3))])   # a per-element beta
_X2 = np.array([_X, [float(v) for v in (Q(3), Q(1, 2), Q(-1), Q(2))]])  # rows: samples
_DY2 = np.array([_DY, [float(v) for v in (Q(-1), Q(2), Q(0), Q(1, 4))]])
_MOM = float(Q(9, 10))


def _rows(f):
    return np.array([f(r) for r in _X2])


def _ln_grads(x, dy, weight, bias):
    """(dL/dx, dL/dweight, dL/dbias) of L = dy . layer_norm(x) by autograd, rows of x."""
    torch, F = _torch()
    xt, w, b = (_t(np.asarray(v, float)).requires_grad_() for v in (x, weight, bias))
    out = F.layer_norm(xt, (xt.shape[-1],), weight=w, bias=b, eps=EPS)
    (out * _t(dy)).sum().backward()
    return xt.grad.numpy(), w.grad.numpy(), b.grad.numpy()


def _graph_grad_xhat(gamma) -> np.ndarray:
    """dL/d xhat with xhat a leaf of y = gamma * xhat + beta (a partial along the graph)."""
    torch, _ = _torch()
    xh = _t(_XH).requires_grad_()
    ((_t(gamma) * xh + _t(_B)) * _t(_DY)).sum().backward()
    return xh.grad.numpy()


def _d(f, v, h=1e-6):
    return (f(v + h) - f(v - h)) / (2 * h)


def _yue_dvar() -> bool:
    dxh = _DY * _G
    graph = _d(lambda s2: float(np.sum(dxh * (_X - _MU) / np.sqrt(s2 + EPS))), _VAR)
    return _same(graph, np.sum(dxh * (_X - _MU) * (-0.5 * (_VAR + EPS) ** -1.5)))


def _yue_path1() -> bool:
    dxh = _DY * _G
    graph = _d(lambda mu: float(np.sum(dxh * (_X - mu) / _S)), _MU)
    return _same(graph, np.sum(dxh * -1 / _S))


def _yue_path2() -> bool:
    dvar = float(np.sum(_DY * _G * (_X - _MU) * -0.5 * (_VAR + EPS) ** -1.5))
    lhs = dvar * _d(lambda mu: float(np.mean((_X - mu) ** 2)), _MU)
    mid = dvar * -2 / M * np.sum(_X - _MU)
    return _same(lhs, mid) and _same(mid, 0.0)


def _nemo_dx() -> bool:
    gx, _, _ = _ln_grads(_X2, _DY2, GAMMA * np.ones(M), BETA * np.ones(M))
    dxh = GAMMA * _DY2
    mu, s2 = _X2.mean(axis=1, keepdims=True), _X2.var(axis=1, keepdims=True)
    xh = (_X2 - mu) / np.sqrt(s2 + EPS)
    page = (dxh / np.sqrt(s2 + EPS) - xh / (s2 + EPS) * dxh * xh) / M
    return _same(page, gx)


def _talwar_grad() -> bool:
    def loss(x):
        return float(_DY @ (GAMMA * _bn(x) + BETA))
    e, h = np.eye(M), 1e-6
    grad = np.array([(loss(_X + h * e[i]) - loss(_X - h * e[i])) / (2 * h) for i in range(M)])
    jac = _jac(lambda x: GAMMA * _bn(x) + BETA, _X)       # jac[k, i] = d y_k / d x_i
    return _same([sum(_DY[k] * jac[k, i] for k in range(M)) for i in range(M)], grad)


def _aidge_dx() -> bool:
    gx, _, _ = _ln_grads(_X, _DY, _G, _B)
    proj = np.eye(M) - np.ones((M, M)) / M - np.outer(_XH, _XH) / M
    return _same(proj @ (_DY * _G) / _S, gx)


def _running(stat: float, sample: float) -> bool:
    return _same(stat, _MOM * stat + (1 - _MOM) * sample)


def _dE_dX() -> np.ndarray:
    """dE/dX of E = dy . Y, Y = (X - mean X) / sqrt(var X + eps), by autograd (caffe's Y)."""
    return _ln_grads(_X, _DY, np.ones(M), np.zeros(M))[0]


def _caffe_proposal() -> bool:
    y, g = _XH, _DY
    return _same((g - g.mean() - (g * y).mean() * y + (g * y).mean() * y.mean()) / _S, _dE_dX())


def _caffe_3912() -> bool:
    y, g = _XH, _DY
    tmp = (g - (g * y).mean() * y) / _S
    return _same(tmp - tmp.mean(), _dE_dX())


def _rms_grads(x, dy, weight):
    """(dL/dx, dL/dweight) of L = dy . rms_norm(x; weight) by autograd."""
    torch, F = _torch()
    xt, w = _t(x).requires_grad_(), _t(weight).requires_grad_()
    (F.rms_norm(xt, (len(x),), weight=w, eps=EPS) * _t(dy)).sum().backward()
    return xt.grad.numpy(), w.grad.numpy()


_R = float(np.sqrt(np.mean(_X ** 2) + EPS))


def _chrisjob_dx() -> bool:
    gx, _ = _rms_grads(_X, _DY, _G)
    page = _DY * _G / _R - _G * _X / (M * _R ** 3) * np.sum(_DY * _X)
    return _same(page, gx)


def _yuerms_dr() -> bool:
    dxh = _DY * _G
    graph = _d(lambda r: float(np.sum(dxh * _X / r)), _R)
    mid = np.sum(dxh * -_X / _R ** 2)
    return _same(graph, mid) and _same(mid, -np.sum(dxh * _X) / _R ** 2)


def _xla_dgamma() -> bool:
    graph = _d(lambda g: float(_DY @ (g * _bn(_X) + BETA)), GAMMA)
    return _same(graph, np.sum(_DY * (_X - _MU) / np.sqrt(_VAR + EPS)))


NUMERIC = {
    "keras.mean": lambda: _same(sum(_X[j] for j in range(M)) / M, _X.mean()),
    "keras.var": lambda: _same(sum((_X[j] - _MU) ** 2 for j in range(M)) / M, _X.var()),
    "keras.normalized": lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS), _ln(_X)),
    "keras.output": lambda: _same(_XH * GAMMA + BETA, _ln(_X) * GAMMA + BETA),
    "mxnet.layernorm": lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS) * GAMMA + BETA,
                                     _ln(_X) * GAMMA + BETA),
    "ms.ops.layernorm": lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS) * GAMMA + BETA,
                                      _ln(_X) * GAMMA + BETA),
    "max.rms_norm": lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * _G,
                                  _rms(_X, weight=_G)),
    "edifice.rmsnorm": lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * GAMMA,
                                     _rms(_X) * GAMMA),
    # NKI's RMS(x) takes its epsilon: sqrt(mean(x^2) + eps)
    "nki.rms_norm": lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * _G,
                                  _rms(_X, weight=_G)),
    # y(x) the normalized x, batchnorm(x) = gamma y(x) + beta: PyTorch's batch_norm
    "mygrad.batchnorm.fn": lambda: _same(GAMMA * (_X - _MU) / np.sqrt(_VAR + EPS) + BETA,
                                         GAMMA * _bn(_X) + BETA),
    "nemo.lnb.mu": lambda: _same(_rows(lambda r: sum(r[j] for j in range(M)) / M),
                                 _X2.mean(axis=1)),
    "nemo.lnb.var": lambda: _same(_rows(lambda r: sum((r[j] - r.mean()) ** 2
                                                      for j in range(M)) / M), _X2.var(axis=1)),
    "nemo.lnb.xhat": lambda: _same(_rows(lambda r: (r - r.mean()) / np.sqrt(r.var() + EPS)),
                                   _rows(_ln)),
    "nemo.lnb.y": lambda: _same(_rows(lambda r: GAMMA * (r - r.mean()) / np.sqrt(r.var() + EPS)
                                      + BETA), _rows(_ln) * GAMMA + BETA),
    "nemo.lnb.dxhat": lambda: _same(_graph_grad_xhat(GAMMA * np.ones(M)), GAMMA * _DY),
    "nemo.lnb.dx": _nemo_dx,
    "talwar.mu": lambda: _same(sum(_X[j] for j in range(M)) / M, _X.mean()),
    "talwar.var": lambda: _same(sum((_X[j] - _MU) ** 2 for j in range(M)) / M, _X.var()),
    "talwar.xhat": lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS), _bn(_X)),
    "talwar.y": lambda: _same(GAMMA * _XH + BETA, GAMMA * _bn(_X) + BETA),
    "talwar.grad": _talwar_grad,
    "yue.y": lambda: _same(_G * _XH + _B, _ln_forward_elementwise()),
    "yue.dbeta": lambda: _same(_ln_grads(_X, _DY, _G, _B)[2], _DY),
    "yue.dgamma": lambda: _same(_ln_grads(_X, _DY, _G, _B)[1], _DY * _XH),
    "yue.dxhat": lambda: _same(_graph_grad_xhat(_G), _DY * _G),
    "yue.dvar": _yue_dvar,
    "yue.path1": _yue_path1,
    "yue.path2": _yue_path2,
    "koonce.center": lambda: _same(_jac(lambda x: x - x.mean(), _X),
                                   np.eye(M) - np.ones((M, M)) / M),
    "aidge.forward": lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS) * _G + _B,
                                   _ln_forward_elementwise()),
    "aidge.xhat": lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS), _ln(_X)),
    "aidge.dx": _aidge_dx,
    "mltalks.Y": lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS) * GAMMA + BETA,
                               _ln(_X) * GAMMA + BETA),
    "cs231n.running_mean": lambda: _running(float(Q(1)), float(Q(2))),
    "cs231n.running_var": lambda: _running(float(Q(3, 2)), float(Q(1, 2))),
    "xla.dgamma": _xla_dgamma,
    "caffe.issue4110.proposal": _caffe_proposal,
    "caffe.issue3912": _caffe_3912,
    "chrisjob.rmsnorm.dx": _chrisjob_dx,
    # a = the mean square, rms = sqrt(a + eps) = x_i / RMSNorm(x)_i (PyTorch's rms_norm)
    "tanmay.a": lambda: _same(np.sum(_X ** 2) / M, (_X[0] / _rms(_X)[0]) ** 2 - EPS),
    "tanmay.rms": lambda: _same(np.sqrt(np.mean(_X ** 2) + EPS), _X / _rms(_X)),
    "tanmay.xhat": lambda: _same(_X / _R, _rms(_X)),
    "tanmay.y": lambda: _same(_G * _X / _R + _B, _rms(_X, weight=_G) + _B),
    "yuerms.dxhat.dr": lambda: _same(_d(lambda r: _X / r, _R), -_X / _R ** 2),
    "yuerms.dr": _yuerms_dr,
    "yuerms.dgamma": lambda: _same(_rms_grads(_X, _DY, _G)[1], _DY * _X / _R),
}
NOT_NUMERIC = {
    "mygrad.batchnorm": "ill-formed as written (Var[x} closes a bracket with a brace)",
    "aidge.dgamma": "ill-formed as written (\\partial L / y^{(n)}: no \\partial below)",
    "aidge.dbeta": "ill-formed as written (\\partial L / y^{(n)}: no \\partial below)",
    "caffe.issue3878": "ill-formed as written (markdown bold ** around a term that vanishes)",
}


def _ln_forward_elementwise() -> np.ndarray:
    _, F = _torch()
    return F.layer_norm(_t(_X), (M,), weight=_t(_G), bias=_t(_B), eps=EPS).numpy()


def test_every_truth_is_accounted_for() -> None:
    assert set(NUMERIC) | set(NOT_NUMERIC) == set(ENTRIES)
    assert not set(NUMERIC) & set(NOT_NUMERIC)
    assert all(not ENTRIES[k][4] for k in NOT_NUMERIC)


@pytest.mark.parametrize("key", sorted(NUMERIC))
def test_corpus4_truth(key: str) -> None:
    assert NUMERIC[key]() is ENTRIES[key][4]


# --- one-token false variants of the accepted entries, and a misreading --------------------

VARIANTS = {
    # key: (original token, replacement, numeric check that the variant is false)
    "talwar.mu": (r"\frac{1}{N}", r"\frac{2}{N}",
                  lambda: _same(2 * sum(_X[j] for j in range(M)) / M, _X.mean())),
    "talwar.var": (r"\frac{1}{N}", r"\frac{1}{N - 1}",
                   lambda: _same(sum((_X[j] - _MU) ** 2 for j in range(M)) / (M - 1), _X.var())),
    "talwar.xhat": (r"\sigma^2 + \epsilon", r"\sigma^2 - \epsilon",
                    lambda: _same((_X - _MU) / np.sqrt(_VAR - EPS), _bn(_X))),
    "talwar.y": (r"+ \beta", r"- \beta", lambda: _same(GAMMA * _XH - BETA, GAMMA * _XH + BETA)),
    # NeMo's rows of X (let X = x): a changed sign, a doubled gain in the graph partial
    "nemo.lnb.y": (r"+ \beta", r"- \beta", lambda: _same(GAMMA * _XH - BETA, GAMMA * _XH + BETA)),
    "nemo.lnb.var": (r"- \mu", r"+ \mu",
                     lambda: _same(np.sum((_X + _MU) ** 2) / M, _VAR)),
    "nemo.lnb.dxhat": (r"= \gamma", r"= 2\gamma",
                       lambda: _same(_graph_grad_xhat(GAMMA * np.ones(M)), 2 * GAMMA * _DY)),
    "yue.y": (r"+ \beta_i", r"+ \gamma_i",
              lambda: _same(_G * _XH + _G, _ln_forward_elementwise())),
    # RMSNorm(x) is the output: a doubled eps is refuted
    "edifice.rmsnorm": ("+ eps", "+ 2*eps", lambda: _same(
        _X / np.sqrt(np.mean(_X ** 2) + 2 * EPS) * GAMMA, _rms(_X) * GAMMA)),
    "aidge.forward": (r"+\epsilon", "", lambda: _same((_X - _MU) / np.sqrt(_VAR) * _G + _B,
                                                      _ln_forward_elementwise())),
    # RMSNorm's graph partial by r: a dropped sign, a changed exponent
    "yuerms.dxhat.dr": (r"= -\frac", r"= \frac",
                        lambda: _same(_d(lambda r: _X / r, _R), _X / _R ** 2)),
    # the adjoints in differential notation (dy declared): a changed factor, exponent, sign
    "yue.dxhat": (r"\gamma_i", r"\beta_i", lambda: _same(_graph_grad_xhat(_G), _DY * _B)),
    "yue.dvar": (r"^{-3/2}", r"^{-1/2}", lambda: _same(
        _d(lambda s2: float(np.sum(_DY * _G * (_X - _MU) / np.sqrt(s2 + EPS))), _VAR),
        np.sum(_DY * _G * (_X - _MU) * (-0.5 * (_VAR + EPS) ** -0.5)))),
    "yue.path1": (r"\frac{-1}", r"\frac{1}", lambda: _same(
        _d(lambda mu: float(np.sum(_DY * _G * (_X - mu) / _S)), _MU),
        np.sum(_DY * _G / _S))),
    "yue.path2": (r"(x_j - \mu)", r"(x_j + \mu)", lambda: _same(np.sum(_X + _MU), 0.0)),
    "yuerms.dr": (r"-\frac{1}{r^2}", r"-\frac{1}{r^3}",
                  lambda: _same(-np.sum(_DY * _G * _X) / _R ** 2,
                                -np.sum(_DY * _G * _X) / _R ** 3)),
    "xla.dgamma": (r"x - \mu", r"x + \mu", lambda: _same(
        _d(lambda g: float(_DY @ (g * _bn(_X) + BETA)), GAMMA),
        np.sum(_DY * (_X + _MU) / np.sqrt(_VAR + EPS)))),
}


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_false_variant_of_an_accepted_entry_is_refuted(key: str) -> None:
    _, _, preamble, latex, _ = ENTRIES[key]
    old, new, numeric = VARIANTS[key]
    assert latex.count(old) == 1 and numeric() is False
    got = verdicts(preamble, latex.replace(old, new))
    assert "refuted" in [s for _, s, _ in got], got


def test_partial_by_a_quantity_the_document_lacks_is_refused() -> None:
    """nemo.lnb.dxhat differentiates by an X-hat the document does not have: once read as a
    definition of dL_dXhat (its false variant 2 gamma was `defined`, nothing checked), it is
    an error at the partial that names X-hat and the graph's nodes, true or false alike."""
    _, _, _, latex, _ = ENTRIES["nemo.lnb.dxhat"]
    preamble = "use layernorm\nlet F = d\nvector dL_dY"  # no `let X = x`: no X-hat
    for text in (latex, latex.replace(r"= \gamma", r"= 2\gamma")):
        got = verdicts(preamble, text)
        assert [s for _, s, _ in got] == ["error"], got
        msg = got[0][2]
        assert "rw2.md:8:1:" in msg and "no quantity Xhat" in msg, msg
        assert "(mu, sigma^2, xhat, y)" in msg, msg


_GRAD_W = (r"\frac{\partial \mathcal{L}}{\partial x}=\frac{w \odot \frac{\partial "
           r"\mathcal{L}}{\partial y}}{r}-\frac{x}{d r^3} x^\top \left(w \odot \frac{\partial "
           r"\mathcal{L}}{\partial y}\right)")


def test_true_gradient_with_the_sources_weight_is_refused() -> None:
    """The true RMSNorm input gradient with the source's weight w (chrisjob.rmsnorm.dx
    corrected, in vector form) was refuted against the vocabulary's gamma; it is refused,
    at w, with the fix (w as the vocabulary's gain)."""
    gx, _ = _rms_grads(_X, _DY, _G)
    assert _same(_G * _DY / _R - _X / (M * _R ** 3) * (_X @ (_G * _DY)), gx)  # it is true
    got = verdicts("use rmsnorm\nvector w, dL_dy", _GRAD_W)
    assert [s for _, s, _ in got] == ["error"], got
    msg = got[0][2]
    assert "rw2.md:7:47:" in msg and "uses w, declared by the document" in msg, msg
    assert "output y" in msg and "let w = gamma" in msg and "affine=elementwise" in msg, msg


FIXED = "use rmsnorm(affine=elementwise)\nvector dL_dy\nlet w = gamma"


def test_the_suggested_fix_proves_the_true_gradient() -> None:
    got = verdicts(FIXED, _GRAD_W)
    assert [s for _, s, _ in got] == ["proved"], got


@pytest.mark.parametrize("old,new,numeric", [
    ("d r^3", "d r^2", lambda: _G * _DY / _R - _X / (M * _R ** 2) * (_X @ (_G * _DY))),
    (r"}{r}-", r"}{r}+", lambda: _G * _DY / _R + _X / (M * _R ** 3) * (_X @ (_G * _DY))),
    (r"\frac{x}{d r^3}", r"\frac{x}{r^3}",
     lambda: _G * _DY / _R - _X / (_R ** 3) * (_X @ (_G * _DY))),
])
def test_the_suggested_fix_refutes_a_one_token_false_gradient(old, new, numeric) -> None:
    assert _GRAD_W.count(old) == 1 and not _same(numeric(), _rms_grads(_X, _DY, _G)[0])
    got = verdicts(FIXED, _GRAD_W.replace(old, new))
    assert [s for _, s, _ in got] == ["refuted"], got

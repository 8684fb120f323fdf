r"""Partials by and of data-matrix entries, read one vector at a time
(``symnorm/lang/latex_row_partials.py``): true forms proved, one-token false variants
refuted, unsafe neighbours refused with their messages.

Truth by PyTorch autograd on a data matrix X (rows samples, columns features), without
symnorm: BatchNorm normalizes each column (its gamma, beta per feature), LayerNorm each row
(one scalar gamma, beta shared by the rows); the loss is ``sum(DY * Y)``, so DY is its
gradient by Y.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from construct_checks import assert_proved, assert_refused, assert_variant_refuted

_RNG = np.random.default_rng(1402)
N, F = 5, 3
_XM = _RNG.normal(size=(N, F)) * 1.5 + 0.5
_DYM = _RNG.normal(size=(N, F))
_GF, _BF = _RNG.normal(size=F) + 2, _RNG.normal(size=F)   # batchnorm: per feature
_GS, _BS = 1.7, -0.4                                        # layernorm: shared scalars
EPS = 1e-3


def _bn_parts() -> dict[str, np.ndarray]:
    """Gradients of L = sum(DY * Y), Y = gamma * xhat + beta (batchnorm over the columns)."""
    x = torch.tensor(_XM, requires_grad=True)
    g = torch.tensor(_GF, requires_grad=True)
    b = torch.tensor(_BF, requires_grad=True)
    mu = x.mean(0)
    var = x.var(0, unbiased=False)
    var.retain_grad()
    xh = (x - mu) / torch.sqrt(var + EPS)
    xh.retain_grad()
    y = g * xh + b
    (torch.tensor(_DYM) * y).sum().backward()
    xh0 = ((_XM - _XM.mean(0)) / np.sqrt(_XM.var(0) + EPS))
    return {"dbeta": b.grad.numpy(), "dgamma": g.grad.numpy(), "dxhat": xh.grad.numpy(),
            "xhat": xh0, "dx": x.grad.numpy()}


def _dxhat_dvar() -> np.ndarray:
    """d xhat_{ij} / d sigma^2_j with mu held (the graph partial), by autograd."""
    v = torch.tensor(_XM.var(0), requires_grad=True)
    out = np.zeros_like(_XM)
    for i in range(N):
        for j in range(F):
            xh = (torch.tensor(_XM[i, j]) - _XM[:, j].mean()) / torch.sqrt(v[j] + EPS)
            (gr,) = torch.autograd.grad(xh, v)
            out[i, j] = gr[j].item()
    return out


def _ln_dxhat() -> np.ndarray:
    """dL/d xhat with xhat a leaf (the graph partial), layernorm rows, shared gamma."""
    xh = torch.tensor((_XM - _XM.mean(1, keepdims=True)) / np.sqrt(
        _XM.var(1, keepdims=True) + EPS), requires_grad=True)
    (torch.tensor(_DYM) * (_GS * xh + _BS)).sum().backward()
    return xh.grad.numpy()


def _same(a: object, b: object) -> bool:
    return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                            rtol=1e-9, atol=1e-10))


_P = _bn_parts()
_MU, _VAR = _XM.mean(0), _XM.var(0)

BN_DY = "use batchnorm\nlet N = d\nvector dy"
BN_G = "use batchnorm\nlet N = d\nvector dL_dy"
LN_G = "use layernorm\nlet F = d\nlet X = x\nlet Y = y\nvector dL_dY"

DBETA = (r"\frac{\partial \mathcal{L}}{\partial \beta_j} = \sum_{i=1}^N \frac{\partial "
         r"\mathcal{L}}{\partial y_{i,j}} = \sum_{i=1}^N dy_{i,j}")
DGAMMA = (r"\frac{\partial \mathcal{L}}{\partial \gamma_j} = \sum_{i=1}^N \frac{\partial "
          r"\mathcal{L}}{\partial y_{i,j}} \cdot \frac{\partial y_{i,j}}{\partial \gamma_j} = "
          r"\sum_{i=1}^N dy_{i,j} \cdot \hat{x}_{i,j}")
DXHAT = (r"\frac{\partial \mathcal{L}}{\partial \hat{x}_{i,j}} = \frac{\partial \mathcal{L}}"
         r"{\partial y_{i,j}} \cdot \frac{\partial y_{i,j}}{\partial \hat{x}_{i,j}} = dy_{i,j} "
         r"\cdot \gamma_j")
DVAR = (r"\frac{\partial \hat{x}_{i,j}}{\partial \sigma^2_j} = (x_{i,j} - \mu_j) \cdot "
        r"\left(-\frac{1}{2}\right)(\sigma^2_j + \epsilon)^{-3/2}")
DBETA_G = r"\frac{\partial L}{\partial \beta_j} = \sum_{i=1}^N \frac{\partial L}{\partial y_{ij}}"
LN_DXHAT = r"\frac{\partial L}{\partial \hat{X}_{ij}} = \gamma \frac{\partial L}{\partial Y_{ij}}"
SLASH = r"\frac{\partial L}{\partial \beta} = \sum_i \frac{dL}{dy_{ij}}"

def _ln_dx() -> np.ndarray:
    """dL/dX of layernorm over the rows (shared scalar gamma, beta), by autograd."""
    x = torch.tensor(_XM, requires_grad=True)
    mu = x.mean(1, keepdim=True)
    var = x.var(1, unbiased=False, keepdim=True)
    y = _GS * (x - mu) / torch.sqrt(var + EPS) + _BS
    (torch.tensor(_DYM) * y).sum().backward()
    return x.grad.numpy()


def _ln_dx_formula(sum_axis: int = 1) -> np.ndarray:
    mu, var = _XM.mean(1, keepdims=True), _XM.var(1, keepdims=True)
    xh = (_XM - mu) / np.sqrt(var + EPS)
    return _GS / (F * np.sqrt(var + EPS)) * (F * _DYM - _DYM.sum(sum_axis, keepdims=True)
                                               - xh * (_DYM * xh).sum(1, keepdims=True))


# the entries of the same vector summed over a third letter k (Thorey's \sum_k dL/dy_{kj})
LN_DX = (r"\frac{\partial L}{\partial X_{ij}} = \frac{\gamma}{F\sqrt{\sigma_i^2+\epsilon}}"
         r"\left(F\frac{\partial L}{\partial Y_{ij}} - \sum_k \frac{\partial L}{\partial Y_{ik}}"
         r" - \hat X_{ij}\sum_k \frac{\partial L}{\partial Y_{ik}}\hat X_{ik}\right)")

TRUE = [
    ("ln.dx", LN_G, LN_DX, lambda: _same(_ln_dx(), _ln_dx_formula())),
    # CS182's three backward steps, with the upstream gradient declared once (vector dy)
    ("cs182.dbeta", BN_DY, DBETA, lambda: _same(_P["dbeta"], _DYM.sum(0))),
    ("cs182.dgamma", BN_DY, DGAMMA, lambda: _same(_P["dgamma"], (_DYM * _P["xhat"]).sum(0))),
    ("cs182.dxhat", BN_DY, DXHAT, lambda: _same(_P["dxhat"], _DYM * _GF)),
    ("cs182.dvar", "use batchnorm\nlet N = d", DVAR, lambda: _same(
        _dxhat_dvar(), (_XM - _MU) * -0.5 * (_VAR + EPS) ** -1.5)),
    ("bn.dbeta", BN_G, DBETA_G, lambda: _same(_P["dbeta"], _DYM.sum(0))),
    ("bn.slash", BN_G, SLASH, lambda: _same(_P["dbeta"], _DYM.sum(0))),
    ("ln.dxhat", LN_G, LN_DXHAT, lambda: _same(_ln_dxhat(), _GS * _DYM)),
]


@pytest.mark.parametrize("key, preamble, latex, truth", TRUE, ids=[t[0] for t in TRUE])
def test_true_forms_proved(key, preamble, latex, truth) -> None:
    assert_proved(preamble, latex, truth)


#: one-token false variants: (key, preamble, latex, old, new, numpy truth of the variant)
VARIANTS = [
    # a factor 2
    ("bn.dbeta:factor", BN_G, DBETA_G, r"\sum_{i=1}^N", r"\sum_{i=1}^N 2",
     lambda: _same(_P["dbeta"], 2 * _DYM.sum(0))),
    # wrong factor: beta_j for gamma_j
    ("cs182.dxhat:factor", BN_DY, DXHAT, r"\cdot \gamma_j", r"\cdot \beta_j",
     lambda: _same(_P["dxhat"], _DYM * _BF)),
    # wrong factor: x for x-hat
    ("cs182.dgamma:factor", BN_DY, DGAMMA, r"dy_{i,j} \cdot \hat{x}_{i,j}",
     r"dy_{i,j} \cdot x_{i,j}", lambda: _same(_P["dgamma"], (_DYM * _XM).sum(0))),
    # wrong exponent
    ("cs182.dvar:exponent", "use batchnorm\nlet N = d", DVAR, "^{-3/2}", "^{-1/2}",
     lambda: _same(_dxhat_dvar(), (_XM - _MU) * -0.5 * (_VAR + EPS) ** -0.5)),
    # wrong sign
    ("cs182.dvar:sign", "use batchnorm\nlet N = d", DVAR, r"(x_{i,j} - \mu_j)",
     r"(x_{i,j} + \mu_j)", lambda: _same(_dxhat_dvar(), (_XM + _MU) * -0.5 * (_VAR + EPS) ** -1.5)),
    # the gradient by the input h, not by the output y
    ("bn.slash:input", BN_G + "\nlet h = x", SLASH, r"{dy_{ij}}", r"{dh_{ij}}",
     lambda: _same(_P["dbeta"], _P["dx"].sum(0))),
    ("ln.dx:factor", LN_G, LN_DX, r"- \hat X_{ij}\sum_k", r"- 2\hat X_{ij}\sum_k",
     lambda: _same(_ln_dx(), _ln_dx_formula() - _GS / (F * np.sqrt(
         _XM.var(1, keepdims=True) + EPS)) * ((_XM - _XM.mean(1, keepdims=True)) / np.sqrt(
             _XM.var(1, keepdims=True) + EPS)) * (_DYM * (_XM - _XM.mean(1, keepdims=True))
                                                   / np.sqrt(_XM.var(1, keepdims=True) + EPS)
                                                   ).sum(1, keepdims=True))),
    ("ln.dxhat:factor", LN_G, LN_DXHAT, r"= \gamma", r"= 2\gamma",
     lambda: _same(_ln_dxhat(), 2 * _GS * _DYM)),
]


@pytest.mark.parametrize("key, preamble, latex, old, new, numeric", VARIANTS,
                         ids=[v[0] for v in VARIANTS])
def test_false_variants_refuted(key, preamble, latex, old, new, numeric) -> None:
    assert_variant_refuted(preamble, latex, old, new, numeric, no_error=True)


TWO_GRADIENTS = "dL_dy and dy are both declared upstream gradients of y"
ONE_VECTOR = "cannot be represented by the one-vector model"
REFUSED = [
    # wrong bound: a sum over the fixed (feature) letter
    ("bn.dbeta:bound", BN_G, r"\frac{\partial L}{\partial \beta_j} = \sum_{j=1}^N "
     r"\frac{\partial L}{\partial y_{ij}}", ("says in two ways", "the sum over j makes it j")),
    # the indices swapped: the sum runs along a row, across the features
    ("bn.dbeta:swap", BN_G, DBETA_G.replace("y_{ij}", "y_{ji}"), ("runs along a row",)),
    # beta at the vector (sample) letter
    ("bn.dbeta:letter", BN_G, r"\frac{\partial L}{\partial \beta_i} = \sum_{i=1}^N "
     r"\frac{\partial L}{\partial y_{ij}}", ("says in two ways",)),
    # a scalar partial by beta_j beside no data-matrix entry
    ("bn.dbeta:alone", BN_G, r"\frac{\partial L}{\partial \beta_j} = \sum_{i=1}^N "
     r"\frac{\partial L}{\partial y_i}", ("an entry of beta, which is a scalar",)),
    # layernorm's gamma serves every sample: its gradient sums over all of them
    ("ln.dgamma", LN_G, r"\frac{\partial L}{\partial \gamma} = \sum_j \frac{\partial L}"
     r"{\partial Y_{ij}} \hat X_{ij}", ("a derivative by gamma", "shared by every sample",
                                        ONE_VECTOR)),
    ("ln.dgamma.elementwise", LN_G.replace("use layernorm", "use layernorm(affine=elementwise)"),
     r"\frac{\partial L}{\partial \gamma_j} = \frac{\partial L}{\partial Y_{ij}} \hat X_{ij}",
     ("a derivative by gamma", ONE_VECTOR)),
    ("ln.dgamma.sum", LN_G, r"\frac{\partial L}{\partial \gamma} = \sum_{i} \frac{\partial L}"
     r"{\partial Y_{ij}} \hat X_{ij}", (ONE_VECTOR,)),
    ("ln.dgamma.i", LN_G, r"\frac{\partial L}{\partial \gamma_i} = \sum_{j} \frac{\partial L}"
     r"{\partial Y_{ij}} \hat X_{ij}", ("shared by every sample", "names nothing")),
    # entries with other letters: a Jacobian across the data matrix
    ("ln.jacobian", LN_G, r"\frac{\partial \hat X_{ij}}{\partial X_{ik}} = 0",
     ("an entry of a Jacobian across the data matrix",)),
    # a statistic by an entry
    ("ln.dmu", LN_G, r"\frac{\partial \mu}{\partial X_{ij}} = \frac{1}{F}",
     ("except the loss's partial by an entry",)),
    # a scalar at a letter the entry does not have
    ("bn.dvar:letter", "use batchnorm\nlet N = d", DVAR.replace(r"\sigma^2_j}", r"\sigma^2_k}"),
     ("neither letter of the entry",)),
    # the third letter summed at the fixed index's place: across the samples
    ("ln.dx:axis", LN_G, LN_DX.replace(r"- \sum_k \frac{\partial L}{\partial Y_{ik}}",
                                        r"- \sum_k \frac{\partial L}{\partial Y_{kj}}"),
     ("dL/dy_kj beside the data-matrix entry",)),
    # a summed entry where nothing says which letter runs along the vector
    ("bn.summed:ambiguous", "use batchnorm\nlet N = d\nlet h = x",
     r"h_{ij} - h_{ij} = \sum_k h_{kj} - \sum_k h_{kj}",
     ("an entry summed over another letter is read only where",)),
    # two declared upstream gradients of y, used together: one gradient or two vectors
    ("cs182.two", "use batchnorm\nlet N = d\nvector dL_dy, dy", DBETA, (TWO_GRADIENTS,)),
    ("two.vector", "use batchnorm\nlet N = d\nvector dL_dy, dy",
     r"\frac{\partial \mathcal{L}}{\partial \hat x} = \gamma dy", (TWO_GRADIENTS, "two readings")),
]


@pytest.mark.parametrize("key, preamble, latex, words", REFUSED, ids=[r[0] for r in REFUSED])
def test_unsafe_neighbours_refused(key: str, preamble: str, latex: str,
                                   words: tuple[str, ...]) -> None:
    assert_refused(preamble, latex, words)


# --- red team of these rules: false claims, each refuted or refused, never proved ------------

def _bn_dx_naive() -> bool:
    """dL/dx_{ij} = dL/dy_{ij} gamma_j / sqrt(sigma_j^2 + eps) drops the mean terms."""
    return _same(_P["dx"], _DYM * _GF / np.sqrt(_VAR + EPS))


RED_TEAM = [
    # drops the mean and variance paths of the input gradient (false by autograd)
    (BN_G, r"\frac{\partial L}{\partial x_{ij}} = \frac{\partial L}{\partial y_{ij}} "
     r"\frac{\gamma_j}{\sqrt{\sigma_j^2+\epsilon}}", _bn_dx_naive),
    (LN_G, r"\frac{\partial L}{\partial X_{ij}} = \frac{\partial L}{\partial \hat X_{ij}} "
     r"\frac{1}{\sqrt{\sigma_i^2+\epsilon}}", None),
    # the sign of the mean's partial dropped
    (BN_G, r"\frac{\partial L}{\partial \mu} = \sum_{i=1}^N \frac{\partial L}{\partial \hat "
     r"x_{ij}} \cdot \frac{1}{\sqrt{\sigma^2_j+\epsilon}}", None),
    # the gain dropped, in differential notation
    (BN_DY, r"d\hat x_{ij} = dy_{ij}", lambda: _same(_P["dxhat"], _DYM)),
    # the local partial written for the total one (the diagonal disagrees)
    (BN_G, r"\frac{\partial y_{ij}}{\partial x_{ij}} = \frac{\gamma_j}{\sqrt{\sigma_j^2+\epsilon}}",
     None),
    (BN_G, r"\frac{\partial L}{\partial \sigma^2} = \sum_{i} \frac{\partial L}{\partial \hat x_{ij}}"
     r" (x_{ij} - \mu_j) \cdot \frac{-1}{2}(\sigma_j^2+\epsilon)^{-1/2}", None),
    (BN_G, r"\frac{\partial L}{\partial y_{ij}} = \frac{\partial L}{\partial \hat x_{ij}}", None),
    # one sample's share for the whole parameter gradient
    (BN_G, r"\frac{\partial L}{\partial \beta_j} = \frac{\partial L}{\partial y_{ij}}",
     lambda: _same(np.broadcast_to(_P["dbeta"], _DYM.shape), _DYM)),
    (LN_G, r"\frac{\partial L}{\partial \gamma} = \sum_j \frac{\partial L}{\partial Y_{ij}} "
     r"\hat X_{ij}", None),
    (LN_G, r"\frac{\partial L}{\partial \gamma} = \sum_{i}\sum_{j} \frac{\partial L}{\partial "
     r"Y_{ij}} X_{ij}", None),
    ("use batchnorm\nlet N = d\nlet h = x", r"\mu_l = \frac{1}{N}\sum_p\sum_l h_{pl}", None),
    # odot with the per-feature gain, a wrong form
    ("use batchnorm", r"y = \gamma \odot \hat x \odot \gamma + \beta", None),
    (BN_G, r"\frac{\partial L}{\partial \gamma} = \frac{\partial L}{\partial y}^\top (\gamma "
     r"\odot \hat x)", None),
]


@pytest.mark.parametrize("preamble, latex, numeric", RED_TEAM,
                         ids=[f"rt{k}" for k in range(len(RED_TEAM))])
def test_red_team_false_claims_are_not_proved(preamble, latex, numeric) -> None:
    from test_latex_real_world2 import verdicts
    if numeric is not None:
        assert numeric() is False
    got = verdicts(preamble, latex)
    statuses = [s for _, s, _ in got if s != "defined"]
    # a chain may prove a true link; the false one is refuted, or the equation refused
    assert "refuted" in statuses or "error" in statuses, got

"""The sixth real-world corpus (``tests/real_world_corpus6.py``): what symnorm accepts
verbatim, with which verdict, and each entry's ``truth`` computed with numpy and PyTorch
(functional layers and autograd as the reference) without symnorm, as in
``test_latex_real_world5.py``.

As collected, no accepted entry got a wrong verdict.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from construct_checks import assert_corpus_verdict, assert_variant_refuted
from real_world_corpus6 import CORPUS
from test_latex_real_world2 import (
    _DY, _G, _X, BETA, EPS, GAMMA, _bn, _grad, _jac, _ln, _rms, _same, _t, _torch,
)

ENTRIES = {c[0]: c for c in CORPUS}
M = len(_X)
Q = Fraction

#: refused entries, by the construct their first error names
REFUSED = {
    # norm(X), Burn's normalization x-hat, against the claim language's norm (the Unicode
    # Greek beside it is read as \gamma, \beta)
    # norm(X): the Euclidean norm, or Burn's normalization x-hat (two readings)
    "burn.layernorm": "'norm' is written as a word: norm(...) is the Euclidean norm",
    "burn.batchnorm": "'norm' is written as a word: norm(...) is the Euclidean norm",
    # attribute access self.moving_mean
    "keras.bn.infer": "expected ')' to close '('",
    # a line break after '=' inside one relation (the block's lines read as rows)
    "onednn.graph.groupnorm": "equation ended, expected an expression",
    # DirectML's optional activation, a function it does not define (its Output, Input,
    # Mean are read as the words output, input, mean)
    "directml.mvn": "unknown function FusedActivation",
    # \boxed{ ... } spanning lines is one equation (its lines are read together); inside,
    # \odot before a bracket the product continues into
    "yeh.dx": "ambiguous operand of \\odot: a product continues with '['",
    # an equation's own definition of a declared name
    "yeh.R": "y = ... uses R, declared by the document",
    # \frac{\partial}{\partial R} applied to an expression
    # the operator on a bracketed group raised to a power: the derivative of the power or
    # the power of the derivative
    "yeh.dc": "'^' on the bracketed operand of \\frac{\\partial}{\\partial R}",
    # \hat{X} is the vocabulary's \hat x (X the alias of the input, latex_accent.py) and
    # \mathbf{1}_N, ones of the batch size N, is read (let N = d); the bare \mathbf{1}
    # beside I is Yeh's N x N matrix of ones, which the ones vector is not
    "yeh.dx.scalar": "cannot subtract a matrix and a vector",
    # h_{pj} in a sum over p beside mu_l (a typo in the source; refused, so never confirmed)
    "thorey.mu": "mu_l beside the data-matrix entry h_pj: its index l is neither letter",
    # Thorey's four-index entries (h_{kl} by h_{ij}): the Kronecker delta is read with the
    # index letters i, j, k and those of enclosing sums (latex_kronecker.py: \delta_{i,k}
    # and \delta_{ip}(..) inside \sum_p are), his feature index l is none; \sum_{kl}, h_{ij}
    # (his upright-d derivatives are read: of the loss L as \partial L, of anything else
    # refused as two readings, where the equation gets that far)
    "thorey.translation": "\\delta_{j,l}: delta is not a name the document declares",
    "thorey.dvar": "\\delta_{jl}: delta is not a name the document declares",
    "thorey.dhhat": "\\delta_{jl}: delta is not a name the document declares",
    "thorey.dgamma": "\\sum_{kl}: a sum over two indices k and l",
    "thorey.dbeta": "\\sum_{kl}: a sum over two indices k and l",
    # \partial \hat x_i / \partial x_i: the diagonal entry or the graph partial, both checked
    # (latex_same_index.py): true as the graph partial, false as the diagonal, so an error
    # naming both (costa.dx.paths and vishal.dx.paths, the chain rule over the graph, read it
    # as the graph partial and are proved; vishal.dxhat's \partial y_i/\partial\hat x_i has
    # one reading and is proved)
    "costa.dxhat": "two readings, and they disagree",
    "vishal.partials": "two readings, and they disagree",
    # \frac{\partial l}{\sigma^2_B}: the source's missing \partial (a false entry)
    "costa.dmu": "expected '\\\\partial', got '\\\\sigma'",
    # \partial \gamma \hat{x_i}: a derivative by a product (gamma x-hat_i as a node)
    "vishal.dgxhat": "a partial by (or of) a product",
    "vishal.dgamma": "a partial by (or of) a product",
    # \partial(\gamma x_i + \beta): a derivative of a bracket
    # \frac{\partial(\gamma x_i + \beta)}{\partial \beta}: a bracketed numerator by a scalar
    "vishal.dbeta": "a bracketed numerator is read only differentiated by an entry of a "
                    "declared vector",
    # ^(-1.5): TeX raises '(' alone (a false entry)
    "vishal.dxhat.dvar": "superscript '(' must be one letter or digit or a group",
}
#: accepted true entries whose rows are all definitions
DEFINED_ONLY: dict[str, str] = {}


@pytest.mark.parametrize("key", list(ENTRIES))
def test_corpus6_verdicts(key: str) -> None:
    _, _, preamble, latex, truth = ENTRIES[key]
    assert_corpus_verdict(key, preamble, latex, truth, REFUSED, defined_only=DEFINED_ONLY)


def test_corpus6_size_and_acceptance() -> None:
    assert set(REFUSED) | set(DEFINED_ONLY) <= set(ENTRIES)
    assert not set(REFUSED) & set(DEFINED_ONLY)
    # at least 12 public sources, by key prefix
    assert len({k.split(".")[0] for k in ENTRIES}) >= 12
    # 21 of 56 accepted verbatim (38%; 17 as collected), every one with the right verdict:
    # 16 true entries proved, 1 defined only (thorey.hhat), 4 false ones refuted (MLX's
    # GroupNorm and BatchNorm docstrings with eps outside the root, Keras's two moving-average
    # updates).  Moved since: Yeh's two boxed gradients (a group open over lines is one
    # equation), the README's RMSNorm and its mean square (Mean(x^2), the label 'RMSNorm:');
    # then 24 with the per-element gain written by juxtaposition (MLX's LayerNorm, refuted:
    # eps outside the root; leo's Wx and onlearn's (x / sqrt(..)) gamma, proved); then 26
    # with the accent of the input's alias (\hat X, \hat h: Yeh's dJ/dgamma and dJ/dbeta as
    # sums and products, Thorey's y proved; his h-hat, defined only before, now proved);
    # then 28 with his data matrix h_{pl} read one feature's batch at a time (latex_rows.py:
    # his entrywise h-hat and the variance proved); then 31 with the same index on both
    # sides of a partial read both ways (costa.dx.paths and vishal.dx.paths, the chain rule
    # over the graph, and vishal.dxhat proved); then 32 with \gamma \odot \hat X, batchnorm's
    # per-feature gain times the vector (yeh.layer proved; latex_odot.py); then 33 with
    # partials by data-matrix entries read one feature at a time (yeh.dxhat: dJ/dx-hat_{ij};
    # latex_row_partials.py); then 34 with the entries of the same vector summed over a
    # third letter (thorey.dx.result: \sum_k dL/dy_{kj} beside dL/dh_{ij}, latex_rows.py)
    accepted = len(CORPUS) - len(REFUSED)
    assert len(CORPUS) == 56 and accepted == 34 and accepted - len(DEFINED_ONLY) == 34


def test_no_entry_repeats_an_earlier_corpus() -> None:
    from real_world_corpus import CORPUS as C1
    from real_world_corpus2 import CORPUS as C2
    from real_world_corpus3 import CORPUS as C3
    from real_world_corpus4 import CORPUS as C4
    from real_world_corpus5 import CORPUS as C5
    earlier = C1 + C2 + C3 + C4 + C5
    latexes = {c[3].strip() for c in earlier}
    # Yeh's x-hat is the textbook line an earlier source also printed; it stays, counted
    # once more, from another source
    assert [k for k, _, _, latex, _ in CORPUS if latex.strip() in latexes] == ["yeh.xhat"]
    sources = {c[1] for c in earlier}
    assert not [k for k, src, _, _, _ in CORPUS if src in sources]
    assert not set(ENTRIES) & {c[0] for c in earlier}


# --- the truth labels, computed without symnorm --------------------------------------------

_MU, _VAR = _X.mean(), _X.var()
_S = np.sqrt(_VAR + EPS)
_XH = (_X - _MU) / _S
_B = np.array([float(v) for v in (Q(1, 2), Q(0), Q(-2), Q(1, 3))])   # a per-element bias
# Thorey's h: N = 4 samples (rows) of H = 2 features; its upstream gradient
_H = np.stack([_X, np.array([float(v) for v in (Q(3), Q(1, 2), Q(-1), Q(2))])], axis=1)
_DYH = np.stack([_DY, np.array([float(v) for v in (Q(-1), Q(2), Q(0), Q(1, 4))])], axis=1)
_GH = np.array([float(Q(3, 2)), float(Q(-2, 3))])                 # gamma_l, one per feature
_BH = np.array([float(Q(1, 4)), float(Q(-1))])
_MOM, _MM, _MV = float(Q(9, 10)), float(Q(1, 4)), float(Q(5, 2))  # momentum, moving stats


def _bn_affine(x=_X, w=GAMMA, b=BETA):
    """BatchNorm in training mode with a scalar gain and bias (one feature, x the batch)."""
    _, F = _torch()
    return F.batch_norm(_t(x).reshape(-1, 1), None, None, weight=_t([w]), bias=_t([b]),
                        training=True, eps=EPS).numpy().ravel()


def _bn_grads(x=_X, dy=_DY):
    """(dL/dx, dL/dgamma, dL/dbeta) of L = dy . BN_{gamma,beta}(x) by autograd."""
    _, F = _torch()
    xt = _t(x).reshape(-1, 1).requires_grad_()
    w, b = _t([GAMMA]).requires_grad_(), _t([BETA]).requires_grad_()
    out = F.batch_norm(xt, None, None, weight=w, bias=b, training=True, eps=EPS)
    (out.ravel() * _t(dy)).sum().backward()
    return xt.grad.numpy().ravel(), w.grad.item(), b.grad.item()


def _bn_matrix_grads():
    """The same for Thorey's N x H batch h with per-feature gamma_l, beta_l."""
    _, F = _torch()
    ht = _t(_H).requires_grad_()
    w, b = _t(_GH).requires_grad_(), _t(_BH).requires_grad_()
    (F.batch_norm(ht, None, None, weight=w, bias=b, training=True, eps=EPS)
     * _t(_DYH)).sum().backward()
    return ht.grad.numpy(), w.grad.numpy(), b.grad.numpy()


def _graph_loss(x=_X, mu=_MU, var=_VAR, dy=_DY):
    """L = dy . (gamma (x - mu)/sqrt(var + eps) + beta) with mu, var nodes of the graph."""
    return float(dy @ (GAMMA * (x - mu) / np.sqrt(var + EPS) + BETA))


def _d(f, v, h=1e-6):
    return (f(v + h) - f(v - h)) / (2 * h)


def _dl_dvar():
    return _d(lambda v: _graph_loss(var=v), _VAR)


def _dl_dmu():
    """Costa's dl/dmu_B: through x-hat directly and through sigma^2_B."""
    return (_d(lambda m: _graph_loss(mu=m), _MU)
            + _dl_dvar() * _d(lambda m: float(np.mean((_X - m) ** 2)), _MU))


def _paths() -> bool:
    """dl/dx_i by the three graph paths equals autograd's input gradient."""
    gx, _, _ = _bn_grads()
    xhat_path = _DY * GAMMA / _S                      # dl/dxhat_i * dxhat_i/dx_i (held)
    return _same(xhat_path + _dl_dvar() * 2 * (_X - _MU) / M + _dl_dmu() / M, gx)


def _ln_affine(x=_X, w=_G, b=_B):
    _, F = _torch()
    return F.layer_norm(_t(x), (M,), weight=_t(w), bias=_t(b), eps=EPS).numpy()


# use groupnorm(groups=2, channels=4, spatial=2): one sample of 4 channels x 2 positions
_XG = np.array([float(v) for v in (Q(1), Q(-2), Q(4), Q(7, 2), Q(0), Q(3), Q(-1), Q(1, 2))])
_GG = np.array([float(v) for v in (Q(2), Q(-1, 2), Q(3, 4), Q(1))])


def _group_norm():
    _, F = _torch()
    return F.group_norm(_t(_XG).reshape(1, 4, 2), 2, weight=_t(_GG), bias=_t(_B),
                        eps=EPS).numpy().ravel()


def _group_formula(eps_inside: bool):
    out = np.empty_like(_XG)
    for g in range(2):
        sl = slice(4 * g, 4 * g + 4)
        v = _XG[sl]
        den = np.sqrt(v.var() + EPS) if eps_inside else np.sqrt(v.var()) + EPS
        out[sl] = (v - v.mean()) / den
    return out * np.repeat(_GG, 2) + np.repeat(_B, 2)


def _yeh_R() -> bool:
    ones = np.ones((M, M))
    return (_same(_X - _MU, _X - ones @ _X / M)
            and _same(_X - ones @ _X / M, (np.eye(M) - ones / M) @ _X))


def _yeh_dc() -> bool:
    r = _X - _MU
    c_grad = _grad(lambda v: (v @ v / M + EPS) ** -0.5, r)
    inner = _grad(lambda v: v @ v / M + EPS, r)
    return (_same(inner, 2 / M * r)
            and _same(c_grad, -0.5 * (r @ r / M + EPS) ** -1.5 * inner)
            and _same(c_grad, -1 / M * (_VAR + EPS) ** -1.5 * r))


def _yeh_dx_scalar() -> bool:
    gx, dg, db = _bn_grads()
    ones = np.ones((M, M))
    mat = -np.outer(_XH, _XH) / M + np.eye(M) - ones / M
    line1 = _S ** -1 * mat @ (GAMMA * _DY)
    line2 = GAMMA * _S ** -1 * (-np.outer(_XH, _XH) @ _DY / M + _DY - ones @ _DY / M)
    line3 = GAMMA * _S ** -1 / M * (-dg * _XH + M * _DY - np.ones(M) * db)
    return _same(line1, gx) and _same(line2, gx) and _same(line3, gx)


def _yeh_dparams() -> bool:
    _, dg, db = _bn_grads()
    return (_same(dg, np.sum(_DY * _XH)) and _same(dg, _XH @ _DY)
            and _same(db, np.sum(_DY)) and _same(db, np.ones(M) @ _DY))


def _thorey_mu() -> bool:
    """mu_l = 1/N sum_p h_pj, read at l != j (the sum over the other feature)."""
    return _same(_H[:, 0].mean(), _H[:, 1].sum() / M)


def _thorey_translation() -> bool:
    n, hh = _H.shape
    jac = _jac(lambda v: (v.reshape(n, hh) - v.reshape(n, hh).mean(axis=0)).ravel(),
               _H.ravel())
    want = np.zeros((n * hh, n * hh))
    for k in range(n):
        for l in range(hh):
            for i in range(n):
                for j in range(hh):
                    want[k * hh + l, i * hh + j] = (i == k) * (j == l) - (j == l) / n
    return _same(jac, want)


def _thorey_dvar() -> bool:
    n, hh = _H.shape
    jac = _jac(lambda v: v.reshape(n, hh).var(axis=0), _H.ravel())   # rows l, cols (i, j)
    mu = _H.mean(axis=0)
    want = np.array([[2 / n * (_H[i, l] - mu[l]) * (j == l) for i in range(n)
                      for j in range(hh)] for l in range(hh)])
    return _same(jac, want)


def _thorey_dhhat() -> bool:
    n, hh = _H.shape
    mu, var = _H.mean(axis=0), _H.var(axis=0)

    def hhat(v):
        m = v.reshape(n, hh)
        return ((m - m.mean(axis=0)) / np.sqrt(m.var(axis=0) + EPS)).ravel()

    want = np.zeros((n * hh, n * hh))
    for k in range(n):
        for l in range(hh):
            for i in range(n):
                for j in range(hh):
                    want[k * hh + l, i * hh + j] = (
                        ((i == k) * (j == l) - (j == l) / n) * (var[l] + EPS) ** -0.5
                        - (_H[k, l] - mu[l]) * (_H[i, l] - mu[l]) * (j == l)
                        * (var[l] + EPS) ** -1.5 / n)
    return _same(_jac(hhat, _H.ravel()), want)


def _thorey_dx() -> bool:
    gh, _, _ = _bn_matrix_grads()
    mu, var = _H.mean(axis=0), _H.var(axis=0)
    want = (1 / M * _GH * (var + EPS) ** -0.5
            * (M * _DYH - _DYH.sum(axis=0) - (_H - mu) * (var + EPS) ** -1
               * np.sum(_DYH * (_H - mu), axis=0)))
    return _same(want, gh)


def _thorey_dx_plus() -> bool:
    """Thorey's input gradient with (h_kj + mu_j) in the last sum: false."""
    gh, _, _ = _bn_matrix_grads()
    mu, var = _H.mean(axis=0), _H.var(axis=0)
    want = (1 / M * _GH * (var + EPS) ** -0.5
            * (M * _DYH - _DYH.sum(axis=0) - (_H - mu) * (var + EPS) ** -1
               * np.sum(_DYH * (_H + mu), axis=0)))
    return _same(want, gh)


def _costa_dmu() -> bool:
    """The third line keeps (sum_i x_i) - mu_B, which is not 0: it differs from the others."""
    total = _dl_dmu()
    last = -GAMMA / _S * np.sum(_DY)
    third = last - _dl_dvar() * 2 / M * (np.sum(_X) - _MU)
    return _same(total, last) and _same(third, last)


def _vishal_dxhat_dvar() -> bool:
    graph = _d(lambda v: (_X - _MU) / np.sqrt(v + EPS), _VAR)
    return _same(graph, -0.5 * (_XH - _MU) * (_VAR + EPS) ** -1.5)


def _vishal_dgxhat() -> bool:
    """The middle link differentiates gamma x_i + beta (x_i a leaf) by the node gamma x-hat_i:
    zero, where dC/dy_i is not."""
    middle = _DY * _d(lambda u: GAMMA * _X + BETA + 0 * u, 0.0)
    return _same(middle, _DY)


NUMERIC = {
    "mlx.layernorm": lambda: _same((_X - _MU) / (np.sqrt(_VAR) + EPS) * _G + _B, _ln_affine()),
    "mlx.groupnorm": lambda: _same(_group_formula(eps_inside=False), _group_norm()),
    "mlx.batchnorm": lambda: _same((_X - _MU) / (np.sqrt(_VAR) + EPS) * GAMMA + BETA,
                                   _bn_affine()),
    "burn.layernorm": lambda: _same(_ln(_X) * _G + _B, _ln_affine()),
    "burn.batchnorm": lambda: _same(_bn(_X) * GAMMA + BETA, _bn_affine()),
    "burn.rmsnorm": lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * _G,
                                  _rms(_X, weight=_G)),
    "keras.bn.train": lambda: _same(GAMMA * (_X - _MU) / np.sqrt(_VAR + EPS) + BETA,
                                    _bn_affine()),
    "keras.bn.infer": lambda: _same(
        GAMMA * (_X - _MM) / np.sqrt(_MV + EPS) + BETA,
        _torch()[1].batch_norm(_t(_X).reshape(-1, 1), _t([_MM]), _t([_MV]), _t([GAMMA]),
                               _t([BETA]), training=False, eps=EPS).numpy().ravel()),
    "keras.bn.moving_mean": lambda: _same(_MM, _MM * _MOM + _MU * (1 - _MOM)),
    "keras.bn.moving_var": lambda: _same(_MV, _MV * _MOM + _VAR * (1 - _MOM)),
    "onednn.graph.groupnorm": lambda: _same(_group_formula(eps_inside=True), _group_norm()),
    "directml.mvn": lambda: _same(_G * ((_X - _MU) / np.sqrt(_VAR + EPS)) + _B, _ln_affine()),
    "zq.rmsnorm": lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * _G, _rms(_X, weight=_G)),
    "zq.mean": lambda: _same(np.mean(_X ** 2), sum(_X[i] ** 2 for i in range(M)) / M),
    "leo.rmsnorm": lambda: _same(_G * _X / np.sqrt(np.mean(_X ** 2) + EPS), _rms(_X, weight=_G)),
    "onlearn.rmsnorm": lambda: _same((_X / np.sqrt(np.mean(_X ** 2) + EPS)) * _G,
                                     _rms(_X, weight=_G)),
    "yeh.xhat": lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS), _bn(_X)),
    "yeh.stats": lambda: _same([np.sum(_X) / M, np.sum((_X - _MU) ** 2) / M],
                               [_t(_X).mean().item(), _t(_X).var(unbiased=False).item()]),
    "yeh.y": lambda: _same(GAMMA * _XH + BETA, _bn_affine()),
    "yeh.layer": lambda: _same(_XH, _bn(_X)) and _same(GAMMA * _XH + BETA, _bn_affine()),
    "yeh.dgamma": lambda: _same(_bn_grads()[1], np.sum(_DY * _XH)),
    "yeh.dbeta": lambda: _same(_bn_grads()[2], np.sum(_DY)),
    # along the graph: Y = gamma X-hat + beta with X-hat a leaf
    "yeh.dxhat": lambda: _same(_grad(lambda xh: float(_DY @ (GAMMA * xh + BETA)), _XH),
                               _DY * GAMMA),
    "yeh.R": _yeh_R,
    "yeh.dc": _yeh_dc,
    "yeh.dx.scalar": _yeh_dx_scalar,
    "yeh.dparams.scalar": _yeh_dparams,
    "yeh.dx": lambda: _same(1 / M * GAMMA / _S * (-_bn_grads()[1] * _XH + M * _DY
                                                  - np.ones(M) * _bn_grads()[2]),
                            _bn_grads()[0]),
    "thorey.y": lambda: _same(GAMMA * _bn(_X) + BETA, _bn_affine()),
    "thorey.hhat": lambda: _same((_X - _MU) * (_VAR + EPS) ** -0.5, _bn(_X)),
    "thorey.hhat.kl": lambda: _same((_H - _H.mean(axis=0)) * (_H.var(axis=0) + EPS) ** -0.5,
                                    _torch()[1].batch_norm(_t(_H), None, None, training=True,
                                                           eps=EPS).numpy()),
    "thorey.mu": _thorey_mu,
    "thorey.var": lambda: _same(np.sum((_H - _H.mean(axis=0)) ** 2, axis=0) / M,
                                _t(_H).var(dim=0, unbiased=False).numpy()),
    "thorey.translation": _thorey_translation,
    "thorey.dvar": _thorey_dvar,
    "thorey.dhhat": _thorey_dhhat,
    "thorey.dgamma": lambda: _same(_bn_matrix_grads()[1], np.sum(
        _DYH * (_H - _H.mean(axis=0)) * (_H.var(axis=0) + EPS) ** -0.5, axis=0)),
    "thorey.dbeta": lambda: _same(_bn_matrix_grads()[2], _DYH.sum(axis=0)),
    "thorey.dx.result": _thorey_dx,
    "costa.xhat": lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS), _bn(_X)),
    "costa.stats": lambda: _same([np.sum(_X) / M, np.sum((_X - _MU) ** 2) / M],
                                 [_t(_X).mean().item(), _t(_X).var(unbiased=False).item()]),
    "costa.dparams": lambda: (_same(_bn_grads()[1], np.sum(_DY * _XH))
                              and _same(_bn_grads()[2], np.sum(_DY))),
    "costa.dx.paths": _paths,
    "costa.dxhat": lambda: (_same(_grad(lambda xh: float(_DY @ (GAMMA * xh + BETA)), _XH),
                                  _DY * GAMMA)
                            and _same(np.diag(_jac(lambda x: (x - _MU) / _S, _X)), _S ** -1)),
    "costa.dvar": lambda: _same(_dl_dvar(), np.sum(_DY * GAMMA * (_X - _MU) * -0.5
                                                   * (_VAR + EPS) ** -1.5)),
    "costa.dmu": _costa_dmu,
    "costa.sum0": lambda: _same(np.sum(_X - _MU), 0.0)
    and _same(np.sum(_X) - M * _MU, np.sum(_X) - M * np.sum(_X) / M),
    "costa.dx": lambda: _same(GAMMA / _S / M * (M * _DY - _bn_grads()[1] * _XH
                                                - _bn_grads()[2]), _bn_grads()[0]),
    "vishal.forward": lambda: _same([_X.mean(), _X.var()], [np.sum(_X) / M,
                                                           np.sum((_X - _MU) ** 2) / M])
    and _same(GAMMA * (_X - _MU) / np.sqrt(_VAR + EPS) + BETA, _bn_affine()),
    "vishal.dgxhat": _vishal_dgxhat,
    # dC/dy_i (one entry) for the sum: false at the entries
    "vishal.dbeta": lambda: _same(_DY, np.sum(_DY)),
    "vishal.dgamma": lambda: _same(_DY * _XH, np.sum(_DY * _XH)),
    "vishal.dxhat": lambda: _same(_grad(lambda xh: float(_DY @ (GAMMA * xh + BETA)), _XH),
                                  _DY * GAMMA),
    "vishal.dx.paths": _paths,
    "vishal.partials": lambda: (_same(np.diag(_jac(lambda x: (x - _MU) / _S, _X)), 1 / _S)
                                and _same(_grad(lambda x: x.mean(), _X), 1 / M)
                                and _same(_grad(lambda x: x.var(), _X), 2 * (_X - _MU) / M)),
    "vishal.dxhat.dvar": _vishal_dxhat_dvar,
}


def test_every_truth_is_accounted_for() -> None:
    assert set(NUMERIC) == set(ENTRIES)


@pytest.mark.parametrize("key", sorted(NUMERIC))
def test_corpus6_truth(key: str) -> None:
    assert NUMERIC[key]() is ENTRIES[key][4]


# --- one-token false variants of the accepted true entries ---------------------------------

VARIANTS = {
    # key: (original token, replacement, numeric check that the variant is false)
    "burn.rmsnorm": ("+ eps", "- eps", lambda: _same(
        _X / np.sqrt(np.mean(_X ** 2) - EPS) * _G, _rms(_X, weight=_G))),
    "keras.bn.train": ("+ beta", "- beta", lambda: _same(
        GAMMA * _XH - BETA, _bn_affine())),
    "yeh.stats": (r"(x_i - \mu)^2", r"(x_i + \mu)^2", lambda: _same(
        np.sum((_X + _MU) ** 2) / M, _VAR)),
    "yeh.dgamma": (r"= \sum_i", r"= 2 \sum_i", lambda: _same(
        _bn_grads()[1], 2 * np.sum(_DY * _XH))),
    "yeh.dbeta": (r"= \sum_i", r"= 2 \sum_i", lambda: _same(_bn_grads()[2], 2 * np.sum(_DY))),
    "zq.rmsnorm": (r"+\epsilon", r"-\epsilon", lambda: _same(
        _X / np.sqrt(np.mean(_X ** 2) - EPS) * _G, _rms(_X, weight=_G))),
    "zq.mean": (r"\frac{1}{N}", r"\frac{2}{N}", lambda: _same(
        np.mean(_X ** 2), 2 * sum(_X[i] ** 2 for i in range(M)) / M)),
    "yeh.y": (r"+ \beta", r"- \beta", lambda: _same(GAMMA * _XH - BETA, _bn_affine())),
    # \gamma \odot \hat X: batchnorm's per-feature gain (latex_odot.py)
    "yeh.layer": (r"\odot \hat{X} + \beta", r"\odot \hat{X} - \beta", lambda: _same(
        GAMMA * _XH - BETA, _bn_affine())),
    # the input gradient by entries, its sums over k of the same feature's entries
    "thorey.dx.result": (r"(h_{kj}-\mu_j)", r"(h_{kj}+\mu_j)", lambda: _thorey_dx_plus()),
    # dJ/dx-hat_{ij} read one feature at a time (latex_row_partials.py)
    "yeh.dxhat": (r"{\partial y_{ij}} \cdot \gamma_j", r"{\partial y_{ij}} \cdot \beta_j",
                  lambda: _same(_grad(lambda xh: float(_DY @ (GAMMA * xh + BETA)), _XH),
                                _DY * BETA)),
    "costa.xhat": (r"\sigma^2_B + \epsilon", r"\sigma^2_B - \epsilon", lambda: _same(
        (_X - _MU) / np.sqrt(_VAR - EPS), _bn(_X))),
    "costa.dvar": (r"(-\frac{1}{2})", r"(-\frac{3}{2})", lambda: _same(
        _dl_dvar(), np.sum(_DY * GAMMA * (_X - _MU) * -1.5 * (_VAR + EPS) ** -1.5))),
    "costa.dx": (r"N \frac{\partial l}{\partial y_i}", r"\frac{\partial l}{\partial y_i}",
                 lambda: _same(GAMMA / _S / M * (_DY - _bn_grads()[1] * _XH - _bn_grads()[2]),
                               _bn_grads()[0])),
    "vishal.forward": (r"y_i &= \gamma \hat{x_i} + \beta", r"y_i &= \gamma \hat{x_i} - \beta",
                       lambda: _same(GAMMA * _XH - BETA, _bn_affine())),
}


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_false_variant_of_an_accepted_entry_is_refuted(key: str) -> None:
    _, _, preamble, latex, _ = ENTRIES[key]
    assert key not in REFUSED
    assert_variant_refuted(preamble, latex, *VARIANTS[key], no_error=True)

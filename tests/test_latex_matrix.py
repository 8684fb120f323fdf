"""Two-index (matrix-entry) equations (``symnorm/lang/latex_matrix.py``): true forms proved,
one-token false variants refuted, and the refusals located.

Every expected verdict comes from numpy: each case carries a function that evaluates the
equation entry by entry (loops over i and j, central differences for the Jacobians) at one
rational point, without symnorm, and says whether it holds.  The case must then be proved
when that function says True and refuted when it says False.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from test_latex_real_world2 import _DY, EPS, GAMMA, _jac, _same, _var, _X, _xhat, verdicts

from symnorm.check.run import check_text

Q = Fraction
M = len(_X)
_A = np.array([[float(Q(v)) for v in row] for row in
               (("1", "-2", "1/2", "3"), ("2/3", "1", "-1", "0"), ("0", "5/4", "2", "-1/3"),
                ("-1", "1/5", "3/2", "1"))])
_B = np.array([[float(Q(v)) for v in row] for row in
               (("2", "1", "0", "-1"), ("1/2", "-3", "1", "2"), ("1", "0", "-2/3", "1"),
                ("3", "1/4", "1", "0"))])
_a = np.array([float(v) for v in (Q(1), Q(-1, 2), Q(3), Q(2, 3))])
_b = np.array([float(v) for v in (Q(-2), Q(1), Q(1, 4), Q(5))])
_I = np.eye(M)


def _entries(f) -> np.ndarray:
    """The matrix of f(i, j), written entry by entry."""
    return np.array([[f(i, j) for j in range(M)] for i in range(M)])


def _xhat_entries(den: float, mean_sign: float = -1, quad_den: float = M,
                  delta: bool = True, quad_sign: float = -1) -> np.ndarray:
    xh = _xhat(_X)
    return _entries(lambda i, j: (float(delta and i == j) + mean_sign / M
                                  + quad_sign * xh[i] * xh[j] / quad_den) / den)


S = float(np.sqrt(_var(_X) + EPS))
SIGMA = float(np.sqrt(_var(_X)))
J_LN = _jac(_xhat, _X)
J_LN0 = _jac(lambda x: _xhat(x, 0.0), _X)
LN = "use layernorm"
MAT = "matrix A, B\nvector a, b"
JAC_RIGHT = (r"\left(\delta_{ij} - \frac{1}{d} - \frac{\hat x_i \hat x_j}{d}\right)")

#: (key, preamble, latex, whether it holds by numpy)
CASES = [
    # the LayerNorm Jacobian entry by entry (sigma: the vocabulary's sqrt(v), no eps)
    ("ln.jac", LN, r"\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{\sqrt{\sigma^2+\epsilon}}"
     + JAC_RIGHT, lambda: _same(J_LN, _xhat_entries(S))),
    ("ln.jac.sigma", LN, r"\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{\sigma}" + JAC_RIGHT,
     lambda: _same(J_LN, _xhat_entries(SIGMA))),
    ("ln.jac.sigma.eps0", LN, r"\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{\sigma}"
     + JAC_RIGHT + r" \quad \text{if}\ \epsilon = 0",
     lambda: _same(J_LN0, _entries(lambda i, j: (float(i == j) - 1 / M - _xhat(_X, 0.0)[i]
                                                 * _xhat(_X, 0.0)[j] / M) / SIGMA))),
    ("ln.jac.transposed", LN, r"\frac{\partial \hat x_j}{\partial x_i} = \frac{1}{s}"
     + JAC_RIGHT, lambda: _same(J_LN.T, _xhat_entries(S))),
    # one-token mutants of the true form
    ("ln.jac.mean_sign", LN, r"\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{s}\left("
     r"\delta_{ij} + \frac{1}{d} - \frac{\hat x_i \hat x_j}{d}\right)",
     lambda: _same(J_LN, _xhat_entries(S, mean_sign=1))),
    ("ln.jac.quad_sign", LN, r"\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{s}\left("
     r"\delta_{ij} - \frac{1}{d} + \frac{\hat x_i \hat x_j}{d}\right)",
     lambda: _same(J_LN, _xhat_entries(S, quad_sign=1))),
    ("ln.jac.d2", LN, r"\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{s}\left("
     r"\delta_{ij} - \frac{1}{d} - \frac{\hat x_i \hat x_j}{d^2}\right)",
     lambda: _same(J_LN, _xhat_entries(S, quad_den=M * M))),
    ("ln.jac.no_delta", LN, r"\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{s}\left("
     r"1 - \frac{1}{d} - \frac{\hat x_i \hat x_j}{d}\right)",
     lambda: _same(J_LN, _xhat_entries(S, delta=False) + 1 / S)),
    ("ln.jac.no_sqrt", LN, r"\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{\sigma^2+\epsilon}"
     + JAC_RIGHT, lambda: _same(J_LN, _xhat_entries(S * S))),
    ("ln.jac.ii", LN, r"\frac{\partial \hat x_i}{\partial x_j} = \frac{1}{s}\left("
     r"\delta_{ij} - \frac{1}{d} - \frac{\hat x_i \hat x_i}{d}\right)",
     lambda: _same(J_LN, _entries(lambda i, j: (float(i == j) - 1 / M
                                                - _xhat(_X)[i] ** 2 / M) / S))),
    # a non-symmetric Jacobian: the row is the numerator's index
    ("lin.jac", "matrix A\nvector x\nlet z = A*x", r"\frac{\partial z_i}{\partial x_j} = A_{ij}",
     lambda: _same(_jac(lambda x: _A @ x, _X), _A)),
    ("lin.jac.swapped", "matrix A\nvector x\nlet z = A*x", r"\frac{\partial z_i}{\partial x_j} = A_{ji}",
     lambda: _same(_jac(lambda x: _A @ x, _X), _A.T)),
    # outer products and a vector broadcast along j
    ("outer", "vector a, b, x\nlet z = a*(b.T*x)", r"\frac{\partial z_i}{\partial x_j} = a_i b_j",
     lambda: _same(_jac(lambda x: _a * (_b @ x), _X), _entries(lambda i, j: _a[i] * _b[j]))),
    ("outer.swapped", "vector a, b, x\nlet z = a*(b.T*x)",
     r"\frac{\partial z_i}{\partial x_j} = a_j b_i",
     lambda: _same(_jac(lambda x: _a * (_b @ x), _X), _entries(lambda i, j: _a[j] * _b[i]))),
    ("broadcast", "vector a, x\nlet z = a*(ones.T*x)", r"\frac{\partial z_i}{\partial x_j} = a_i",
     lambda: _same(_jac(lambda x: _a * x.sum(), _X), _entries(lambda i, j: _a[i]))),
    ("broadcast.j", "vector a, x\nlet z = a*(ones.T*x)", r"\frac{\partial z_i}{\partial x_j} = a_j",
     lambda: _same(_jac(lambda x: _a * x.sum(), _X), _entries(lambda i, j: _a[j]))),
    ("delta.scaled", "vector a, x\nlet z = hadamard(a, x)",
     r"\frac{\partial z_i}{\partial x_j} = a_i \delta_{ij}",
     lambda: _same(_jac(lambda x: _a * x, _X), _entries(lambda i, j: _a[i] * (i == j)))),
    ("delta.scaled.off", "vector a, x\nlet z = hadamard(a, x)",
     r"\frac{\partial z_i}{\partial x_j} = a_i \delta_{ij} + a_j",
     lambda: _same(_jac(lambda x: _a * x, _X),
                   _entries(lambda i, j: _a[i] * (i == j) + _a[j]))),
    # sums contract over their index
    ("matmul", MAT + "\nlet C = A*B", r"C_{ij} = \sum_k A_{ik} B_{kj}",
     lambda: _same(_A @ _B, _entries(lambda i, j: sum(_A[i, k] * _B[k, j] for k in range(M))))),
    ("matmul.AtB", MAT + "\nlet C = A*B", r"C_{ij} = \sum_k A_{ki} B_{kj}",
     lambda: _same(_A @ _B, _entries(lambda i, j: sum(_A[k, i] * _B[k, j] for k in range(M))))),
    ("matvec", MAT + "\nlet u = A*a", r"u_i = \sum_k A_{ik} a_k",
     lambda: _same(_A @ _a, [sum(_A[i, k] * _a[k] for k in range(M)) for i in range(M)])),
    ("matvec.T", MAT + "\nlet u = A*a", r"u_i = \sum_k A_{ki} a_k",
     lambda: _same(_A @ _a, [sum(_A[k, i] * _a[k] for k in range(M)) for i in range(M)])),
    ("rowsum", MAT + "\nlet u = A*ones", r"u_i = \sum_k A_{ik}",
     lambda: _same(_A.sum(axis=1), [sum(_A[i, k] for k in range(M)) for i in range(M)])),
    ("rowsum.T", MAT + "\nlet u = A*ones", r"u_i = \sum_k A_{ki}",
     lambda: _same(_A.sum(axis=1), [sum(_A[k, i] for k in range(M)) for i in range(M)])),
    ("delta.sum", "vector a", r"\sum_j \delta_{ij} a_j = a_i",
     lambda: _same([sum(float(i == j) * _a[j] for j in range(M)) for i in range(M)], _a)),
    ("delta.sum.ji", "vector a", r"\sum_j \delta_{ij} a_j = a_j",
     lambda: _same(_entries(lambda i, j: sum(float(i == k) * _a[k] for k in range(M))),
                   _entries(lambda i, j: _a[j]))),
    # Talwar's chain rule, summed over the batch (BN's Jacobian is symmetric)
    ("talwar.grad", "use batchnorm\nlet N = d\nvector dL_dy",
     r"\frac{\partial L}{\partial x_i} = \sum_{k=1}^N \left( \frac{\partial L}{\partial y_k} "
     r"\times \frac{\partial y_k}{\partial x_i} \right)", lambda: True),
    ("talwar.grad.twice", "use batchnorm\nlet N = d\nvector dL_dy",
     r"\frac{\partial L}{\partial x_i} = 2\sum_{k=1}^N \left( \frac{\partial L}{\partial y_k} "
     r"\times \frac{\partial y_k}{\partial x_i} \right)",
     lambda: _same(_jac(lambda x: GAMMA * _xhat(x), _X).T @ _DY,
                   2 * _jac(lambda x: GAMMA * _xhat(x), _X).T @ _DY)),
    ("talwar.grad.dropped", "use batchnorm\nlet N = d\nvector dL_dy",
     r"\frac{\partial L}{\partial x_i} = \sum_{k=1}^N \frac{\partial L}{\partial y_k}",
     lambda: _same(_jac(lambda x: GAMMA * _xhat(x), _X).T @ _DY, np.full(M, _DY.sum()))),
    # the Lean blueprint's centring partial, inline \partial
    ("koonce", "use batchnorm\nlet n = d", r"\partial (x_j - \mu ) / \partial x_i = \delta _{ij} "
     r"- 1/n", lambda: _same(_jac(lambda x: x - x.mean(), _X).T, _I - 1 / M)),
    ("koonce.sign", "use batchnorm\nlet n = d",
     r"\partial (x_j - \mu ) / \partial x_i = \delta _{ij} + 1/n",
     lambda: _same(_jac(lambda x: x - x.mean(), _X).T, _I + 1 / M)),
    ("koonce.dropped", "use batchnorm\nlet n = d",
     r"\partial (x_j - \mu ) / \partial x_i = \delta _{ij}",
     lambda: _same(_jac(lambda x: x - x.mean(), _X).T, _I)),
    ("koonce.n2", "use batchnorm\nlet n = d",
     r"\partial (x_j - \mu ) / \partial x_i = \delta _{ij} - 1/n^2",
     lambda: _same(_jac(lambda x: x - x.mean(), _X).T, _I - 1 / M ** 2)),
]
_NEMO = "use layernorm\nlet F = d\nlet X = x"
_ROWS = np.array([_X, _X[::-1] * 2 + 1])  # two samples; every row is read as the vector x


def _rows(f) -> bool:
    return all(f(r) for r in _ROWS)


CASES += [
    # the rows of a data matrix X (B x F), one sample each (nemo.lnb.*)
    ("nemo.mu", _NEMO, r"\mu = \frac{1}{F} \sum_{j=1}^{F} X_{ij}", lambda: True),
    ("nemo.mu.F1", _NEMO, r"\mu = \frac{1}{F-1} \sum_{j=1}^{F} X_{ij}",
     lambda: _rows(lambda r: _same(r.mean(), r.sum() / (M - 1)))),
    ("nemo.var", _NEMO, r"\sigma^2 = \frac{1}{F} \sum_{j=1}^{F} (X_{ij} - \mu)^2", lambda: True),
    ("nemo.var.sign", _NEMO, r"\sigma^2 = \frac{1}{F} \sum_{j=1}^{F} (X_{ij} + \mu)^2",
     lambda: _rows(lambda r: _same(_var(r), ((r + r.mean()) ** 2).mean()))),
    ("nemo.var.mu_i", _NEMO, r"\sigma_i^2 = \frac{1}{F} \sum_{j=1}^{F} (X_{ij} - \mu_i)^2",
     lambda: True),
    ("nemo.xhat", _NEMO + "\nlet Xhat = N(x)",
     r"\hat X_{ij} = \frac{X_{ij} - \mu_i}{\sqrt{\sigma_i^2+\epsilon}}", lambda: True),
    ("nemo.xhat.eps_out", _NEMO + "\nlet Xhat = N(x)",
     r"\hat X_{ij} = \frac{X_{ij} - \mu_i}{\sqrt{\sigma_i^2}+\epsilon}",
     lambda: _rows(lambda r: _same(_xhat(r), (r - r.mean()) / (np.sqrt(_var(r)) + EPS)))),
]


@pytest.mark.parametrize("key", [c[0] for c in CASES])
def test_two_index_verdict_follows_numpy(key: str) -> None:
    _, preamble, latex, truth = next(c for c in CASES if c[0] == key)
    got = verdicts(preamble, latex)
    claims = [s for _, s, _ in got if s != "defined"]
    assert claims, got
    if truth():
        assert set(claims) <= {"proved", "proved-for"}, got
    else:
        assert "refuted" in claims, got


def test_the_brief_form_holds_only_without_eps() -> None:
    # sigma is sqrt(v) without eps: the Jacobian's 1/s is 1/sigma exactly when eps = 0
    assert not _same(J_LN, _xhat_entries(SIGMA)) and _same(J_LN, _xhat_entries(S))


#: (preamble, latex, the construct the error names, where it points)
REFUSALS = [
    # y has no local partial by x (latex_same_index.py reads xhat_i by x_i both ways)
    (LN, r"\frac{\partial y_i}{\partial x_i} = 1", "the same index on both is ambiguous",
     r"\frac"),
    # both readings checked: true as the diagonal of the Jacobian, false as the local partial
    ("use batchnorm\nlet n = d", r"\partial (x_i - \mu ) / \partial x_i = 1 - 1/n",
     "two readings, and they disagree", r"\partial"),
    (MAT, r"a_{ij} = A_{ij}", "a_ij: entry (i, j) of a, which is not a matrix", "a_{ij}"),
    (MAT, r"A_{ij} = a_k", "three index letters", "a_k"),
    (MAT, r"A_{ij} = A_{ij} B_{ij}", "a product of two matrix entries", "A_{ij} B"),
    (MAT, r"A_{ij} = \sqrt{B_{ij}}", "sqrt(...) applied to indexed entries", r"\sqrt"),
    (MAT, r"A_{ij} = \frac{1}{B_{ij}}", "an indexed entry in a denominator", r"\frac"),
    (MAT, r"A_{ij} = a \delta_{ij}", "beside indexed entries is not a scalar", r"a \delta"),
    (MAT, r"a_i = \sum_k A_{ik} B_{ki}", "a diagonal entry of a product", r"\sum"),
    (_NEMO, r"\mu_i = \frac{1}{F} \sum_{i=1}^{F} X_{ij}", "says in two ways", r"\mu_i"),
    ("use layernorm\nlet F = d", r"\mu = \frac{1}{F} \sum_{j=1}^{F} X_{ij}",
     "`let X = x`", "X_{ij}"),
    (_NEMO, r"\mu = \frac{1}{F} \sum_{j=1}^{F} X_{ij} \delta_{ij}",
     "beside the data-matrix entry", r"\delta"),
    ("use batchnorm", r"\partial (x - \mu ) / \partial x_i = 1", "one free index letter",
     r"\partial"),
]


@pytest.mark.parametrize("preamble, latex, fragment, at", REFUSALS)
def test_two_index_refusals_are_located(preamble: str, latex: str, fragment: str,
                                        at: str) -> None:
    got = verdicts(preamble, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and fragment in errors[0], got
    line = 5 + len(preamble.splitlines())  # the fences, the preamble, the latex fence
    column = latex.index(at) + 1
    assert errors[0].startswith(f"rw2.md:{line}:{column}:"), (errors[0], column)


def test_a_column_of_a_data_matrix_is_not_a_row() -> None:
    # red team 12: with X = [[1, 2], [3, 4]] the column mean (1/F) sum_j X_ji at i = 1 is 2,
    # the row mean 1.5; the column form was proved as the row's mean
    X = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert X[:, 0].mean() != X[0, :].mean()
    text = ("```symnorm\nuse layernorm\nlet X = x\nlet F = d\n```\n\n```latex a\n"
            r"\mu_i = \frac{1}{F}\sum_{j=1}^{F} X_{ji}" "\n```\n")
    got = [(v.status, v.message) for v in check_text(text, "t.md", sandbox=False).verdicts
           if v.status != "defined"]
    assert [s for s, _ in got] == ["error"] and "the rows of a data matrix" in got[0][1], got
    assert [v.status for v in check_text(text.replace("X_{ji}", "X_{ij}"), "t.md",
                                         sandbox=False).verdicts
            if v.status != "defined"] == ["proved"]

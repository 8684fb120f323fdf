r"""RMSNorm's computation graph, adjoints in differential notation, and partials by nothing.

The truth of every line is computed here with numpy alone: RMSNorm's graph (the mean square,
r = sqrt(ms + eps), xhat = x/r, y = gamma*xhat (+ beta)) and LayerNorm's (mu, sigma^2, xhat,
y) are evaluated with one node *cut* (replaced by an independent value, the nodes downstream
recomputed from it) and perturbed by central differences at one rational point.  symnorm must
prove each true line and refute each one-token variant that numpy finds false; the refusals
are located and name the construct.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from symnorm.check.run import check_text

Q = Fraction
X = np.array([float(v) for v in (Q(1), Q(-2), Q(4), Q(7, 2))])
DY = np.array([float(v) for v in (Q(1), Q(-3), Q(1, 2), Q(2))])
G = np.array([float(v) for v in (Q(3, 2), Q(-1, 2), Q(2), Q(1, 3))])  # a per-element gain
EPS, GAMMA, BETA = float(Q(1, 10)), float(Q(3, 2)), float(Q(-1, 3))
M = len(X)
H = 1e-6

RMS_E = "use rmsnorm(affine=elementwise)\nvector dl_dy"   # y = gamma (.) xhat, gamma a vector
RMS_S = "use rmsnorm\nvector dl_dy"                       # y = gamma*xhat + beta, scalars
DIFF = "use layernorm(affine=elementwise)\nvector dy"     # the upstream gradient as dy
DIFF_RMS = "use rmsnorm(affine=elementwise)\nvector dy"


def verdicts(preamble: str, latex: str) -> list[tuple[str, str, str]]:
    preamble = "\n".join(f"document {ln}" if ln.startswith("use ") and "(" in ln else ln
                         for ln in preamble.splitlines())
    text = f"```symnorm\n{preamble}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "g.md", sandbox=False)
    return [(v.label, v.status, v.message) for v in res.verdicts]


def _line(preamble: str) -> int:
    """The line of the equation in the document :func:`verdicts` writes."""
    return preamble.count("\n") + 6


def claims(preamble: str, latex: str) -> list[str]:
    got = verdicts(preamble, latex)
    assert not [m for _, s, m in got if s == "error"], got
    return [s for _, s, _ in got if s != "defined"]


def _d(f: Callable[[object], object], at: float) -> np.ndarray:
    return (np.asarray(f(at + H)) - np.asarray(f(at - H))) / (2 * H)


def _same(a: object, b: object) -> bool:
    return bool(np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-6, atol=1e-7))


# --- RMSNorm's graph in numpy, with a cut ---------------------------------------------------

MS = float(np.mean(X ** 2))
R = float(np.sqrt(MS + EPS))
XH = X / R


def rms_y(cut: str, value: object, elementwise: bool) -> np.ndarray:
    """y with node ``cut`` (ms, r or xhat) at ``value``, the nodes after it recomputed."""
    ms = value if cut == "ms" else MS
    r = value if cut == "r" else np.sqrt(ms + EPS)
    xh = value if cut == "xhat" else X / r
    return G * xh if elementwise else GAMMA * xh + BETA


def rms_adjoint_r(elementwise: bool) -> float:
    return float(_d(lambda r: DY @ rms_y("r", r, elementwise), R))


def test_the_numpy_graph_is_rmsnorm() -> None:
    torch = pytest.importorskip("torch")
    out = torch.nn.functional.rms_norm(torch.tensor(X, dtype=torch.float64), (M,),
                                       weight=torch.tensor(G, dtype=torch.float64), eps=EPS)
    assert _same(rms_y("r", R, True), out.numpy())


# (latex, preamble, truth by numpy)
RMS_LINES = [
    # the local partial of xhat by its parent r (yueyiming2009's rmsnorm page, step B)
    (r"\frac{\partial \hat x_j}{\partial r} = -\frac{x_j}{r^2}", "use rmsnorm",
     lambda: _same(_d(lambda r: X / r, R), -X / R ** 2)),
    (r"\frac{\partial \hat x_j}{\partial r} = \frac{x_j}{r^2}", "use rmsnorm",
     lambda: _same(_d(lambda r: X / r, R), X / R ** 2)),
    (r"\frac{\partial \hat x_j}{\partial r} = -\frac{x_j}{r^3}", "use rmsnorm",
     lambda: _same(_d(lambda r: X / r, R), -X / R ** 3)),
    # the adjoint of r, with the vector gain and with scalar gain and bias
    (r"\frac{\partial \ell}{\partial r} = -\frac{1}{r^2} x^\top (\gamma \odot "
     r"\frac{\partial \ell}{\partial y})", RMS_E,
     lambda: _same(rms_adjoint_r(True), -X @ (G * DY) / R ** 2)),
    (r"\frac{\partial \ell}{\partial r} = -\frac{2}{r^2} x^\top \frac{\partial \ell}"
     r"{\partial y}", RMS_E, lambda: _same(rms_adjoint_r(True), -2 * X @ DY / R ** 2)),
    (r"\frac{\partial \ell}{\partial r} = -\frac{\gamma}{r^2} x^\top \frac{\partial \ell}"
     r"{\partial y}", RMS_S, lambda: _same(rms_adjoint_r(False), -GAMMA * X @ DY / R ** 2)),
    (r"\frac{\partial \ell}{\partial r} = -\frac{\gamma}{r} x^\top \frac{\partial \ell}"
     r"{\partial y}", RMS_S, lambda: _same(rms_adjoint_r(False), -GAMMA * X @ DY / R)),
    # the adjoint of xhat, and y's local partial by its parent xhat
    (r"\frac{\partial \ell}{\partial \hat x} = \gamma \odot \frac{\partial \ell}{\partial y}",
     RMS_E, lambda: _same(np.array([_d(lambda v: DY @ rms_y("xhat", XH + v * e, True), 0.0)
                                    for e in np.eye(M)]), G * DY)),
    (r"\frac{\partial \ell}{\partial \hat x} = 2\gamma \odot \frac{\partial \ell}{\partial y}",
     RMS_E, lambda: _same(np.array([_d(lambda v: DY @ rms_y("xhat", XH + v * e, True), 0.0)
                                    for e in np.eye(M)]), 2 * G * DY)),
]


def test_an_adjoint_that_drops_the_per_element_gain_is_two_readings() -> None:
    # true for the layer without its weight (gamma = 1), false with it
    latex = (r"\frac{\partial \ell}{\partial r} = -\frac{1}{r^2} x^\top \frac{\partial "
             r"\ell}{\partial y}")
    assert not _same(rms_adjoint_r(True), -X @ DY / R ** 2)
    assert _same(-X @ DY / R ** 2, -X @ (np.ones_like(G) * DY) / R ** 2)
    assert [s for _, s, _ in verdicts(RMS_E, latex) if s != "defined"] == ["error"]


@pytest.mark.parametrize("k", range(len(RMS_LINES)))
def test_rmsnorm_graph_partials(k: int) -> None:
    latex, preamble, truth = RMS_LINES[k]
    expected = "proved" if truth() else "refuted"
    assert expected in claims(preamble, latex)
    assert set(claims(preamble, latex)) == {expected}


@pytest.mark.parametrize("latex, fragment", [
    # y's parent is xhat, not r: a local partial of one by the other has no meaning
    (r"\frac{\partial y}{\partial r} = x", "r is not a parent of y"),
    # the mean square is a node without a LaTeX name; a partial of the loss needs dl_dy
    (r"\frac{\partial L}{\partial r} = x^\top x", "no upstream gradient is declared"),
])
def test_rmsnorm_graph_refusals(latex: str, fragment: str) -> None:
    got = verdicts("use rmsnorm", latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and fragment in errors[0] and "g.md:6:" in errors[0], got


def test_rmsnorm_graph_is_refused_when_the_document_defines_xhat_itself() -> None:
    got = verdicts("use rmsnorm\nlet xhat = x/sqrt(x.T*x/d)",
                   r"\frac{\partial \hat x_j}{\partial r} = -\frac{x_j}{r^2}")
    errors = [m for _, s, m in got if s == "error"]
    assert errors and "the document defines xhat itself" in errors[0], got
    assert "(r, xhat, y)" in errors[0], got


# --- adjoints in differential notation ------------------------------------------------------

MU, VAR = float(X.mean()), float(X.var())
S = float(np.sqrt(VAR + EPS))
LXH = (X - MU) / S


def ln_y(cut: str, value: object) -> np.ndarray:
    mu = value if cut == "mu" else MU
    var = value if cut == "var" else float(np.mean((X - mu) ** 2))
    xh = value if cut == "xhat" else (X - mu) / np.sqrt(var + EPS)
    return G * xh


def ln_adjoint(cut: str, at: float) -> float:
    return float(_d(lambda b: DY @ ln_y(cut, b), at))


DIFF_LINES = [
    # yueyiming2009's layernorm page, step A: d xhat_i = dy_i gamma_i
    (r"d\hat{x}_i = dy_i \cdot \gamma_i", DIFF, True),
    (r"d\hat{x}_i = -dy_i \cdot \gamma_i", DIFF, _same(G * DY, -G * DY)),
    # step B: d sigma^2 (the variance's adjoint)
    (r"d\sigma^2 = \sum_j d\hat x_j (x_j-\mu)(-\tfrac12)(\sigma^2+\varepsilon)^{-3/2}", DIFF,
     _same(ln_adjoint("var", VAR), np.sum(G * DY * (X - MU)) * -0.5 * (VAR + EPS) ** -1.5)),
    (r"d\sigma^2 = \sum_j d\hat x_j (x_j-\mu)(-\tfrac12)(\sigma^2+\varepsilon)^{-1/2}", DIFF,
     _same(ln_adjoint("var", VAR), np.sum(G * DY * (X - MU)) * -0.5 * (VAR + EPS) ** -0.5)),
    # d mu (the mean's adjoint, through xhat and sigma^2; the sigma^2 path vanishes)
    (r"d\mu = -\frac{1}{\sqrt{\sigma^2+\varepsilon}} \sum_j d\hat x_j", DIFF,
     _same(ln_adjoint("mu", MU), -np.sum(G * DY) / S)),
    (r"d\mu = \frac{1}{\sqrt{\sigma^2+\varepsilon}} \sum_j d\hat x_j", DIFF,
     _same(ln_adjoint("mu", MU), np.sum(G * DY) / S)),
    # dx: the input gradient (x a declared variable: the chain rule through dy)
    (r"dx = \frac{1}{\sqrt{\sigma^2+\varepsilon}}(d\hat x - \frac{1}{d}\sum_j d\hat x_j"
     r" - \hat x \frac{1}{d}\sum_j d\hat x_j \hat x_j)", DIFF, True),
    (r"dx = \frac{1}{\sqrt{\sigma^2+\varepsilon}}(d\hat x - \frac{1}{d}\sum_j d\hat x_j"
     r" + \hat x \frac{1}{d}\sum_j d\hat x_j \hat x_j)", DIFF, False),
    # yueyiming2009's rmsnorm page, step B: dr
    (r"dr = -\frac{1}{r^2} \sum_{j} d\hat{x}_j\, x_j", DIFF_RMS,
     _same(float(_d(lambda r: DY @ (G * X / r), R)), -np.sum(G * DY * X) / R ** 2)),
    (r"dr = -\frac{1}{r} \sum_{j} d\hat{x}_j\, x_j", DIFF_RMS,
     _same(float(_d(lambda r: DY @ (G * X / r), R)), -np.sum(G * DY * X) / R)),
    # XLA's \nabla: \nabla y is the declared dy, \nabla\gamma the gain's adjoint
    (r"\nabla \gamma = \sum_j \nabla y_j \hat x_j", "use batchnorm\nvector dy", True),
    (r"\nabla \gamma = \sum_j \nabla y_j x_j", "use batchnorm\nvector dy", False),
]


def _ln_dx_true() -> bool:
    torch = pytest.importorskip("torch")
    xt = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    out = torch.nn.functional.layer_norm(xt, (M,), weight=torch.tensor(G, dtype=torch.float64),
                                         eps=EPS)
    (out * torch.tensor(DY, dtype=torch.float64)).sum().backward()
    g = G * DY
    page = (g - g.mean() - LXH * (g * LXH).mean()) / S
    return _same(xt.grad.numpy(), page)


def test_differential_truths_by_numpy() -> None:
    # the rows marked True above: d xhat, dx (against autograd) and the XLA gain gradient
    assert _same(np.array([_d(lambda v: DY @ ln_y("xhat", LXH + v * e), 0.0)
                           for e in np.eye(M)]), DY * G)
    assert _ln_dx_true()
    bn = (X - MU) / S
    assert _same(_d(lambda g: DY @ (g * bn + BETA), GAMMA), np.sum(DY * bn))
    assert not _same(_d(lambda g: DY @ (g * bn + BETA), GAMMA), np.sum(DY * X))


@pytest.mark.parametrize("k", range(len(DIFF_LINES)))
def test_adjoints_in_differential_notation(k: int) -> None:
    latex, preamble, truth = DIFF_LINES[k]
    got = claims(preamble, latex)
    assert got and set(got) == {"proved" if truth else "refuted"}, (latex, got)


@pytest.mark.parametrize("preamble, latex, fragment, col", [
    # no opt-in: d sigma^2 could be a differential or d times sigma^2
    ("use layernorm(affine=elementwise)\nvector dl_dy", r"d\sigma^2 = 1",
     "'d\\sigma' looks like a differential", 1),
    ("use layernorm(affine=elementwise)\nvector dl_dy", r"a = d\hat x_i",
     "'d\\hat' looks like a differential", 5),
    ("use batchnorm", r"\nabla \gamma = 1", "\\nabla: a gradient in this notation is read", 1),
    # opted in: a quantity the document lacks, and the standard deviation (not a node)
    (DIFF, r"dE = 1", "the document has no quantity E", 1),
    (DIFF, r"d\sigma = 1", "the node of the computation graph is the variance", 1),
])
def test_differential_refusals(preamble: str, latex: str, fragment: str, col: int) -> None:
    got = verdicts(preamble, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and fragment in errors[0], got
    assert errors[0].startswith(f"g.md:{_line(preamble)}:{col}:"), errors[0]


def test_dy_declared_is_the_upstream_gradient_of_a_partial_too() -> None:
    """With `vector dy` alone, \\partial L/\\partial y is dy and \\partial L/\\partial x the
    chain rule through it: one upstream gradient in two notations."""
    assert claims(DIFF, r"\frac{\partial L}{\partial \beta_i} = dy_i") == ["proved"]
    assert claims(DIFF, r"\frac{\partial L}{\partial y_i} = dy_i") == ["proved"]
    assert claims(DIFF, r"\frac{\partial L}{\partial \beta_i} = 2 dy_i") == ["refuted"]


# --- partials by a quantity the document does not have -------------------------------------

@pytest.mark.parametrize("preamble, latex, fragment", [
    ("use layernorm\nvector dL_dY", r"\frac{\partial L}{\partial \hat X} = \gamma",
     "no quantity Xhat"),
    ("scalar a", r"\frac{\partial f}{\partial t} = a", "no quantity t"),
    # the loss with no upstream gradient: once a definition of dL_dx, nothing checked
    ("use layernorm", r"\frac{\partial L}{\partial x} = x", "no upstream gradient of it"),
    ("use layernorm\nmatrix M", r"\frac{\partial L}{\partial M} = x",
     "a derivative by a matrix is not modelled"),
    ("use layernorm\nmatrix M", r"\frac{\partial M}{\partial x} = x",
     "a derivative of a matrix is not modelled"),
    ("use layernorm", r"\frac{\partial N}{\partial x} = x",
     "a derivative of a function is not modelled"),
    ("use layernorm", r"\frac{\partial L}{\partial d} = 1", "d is not a declared scalar"),
    # in differential notation the error names the differential as written
    ("use rmsnorm\nvector dy", r"d\mu = 1", "dmu: the document has no quantity mu"),
])
def test_partial_with_no_value_is_an_error_never_a_definition(preamble: str, latex: str,
                                                               fragment: str) -> None:
    got = verdicts(preamble, latex)
    assert [s for _, s, _ in got] == ["error"], got
    assert fragment in got[0][2] and got[0][2].startswith(f"g.md:{_line(preamble)}:1:"), got

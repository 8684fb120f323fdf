r"""The same index on both sides of a partial (``symnorm/lang/latex_same_index.py``).

``\frac{\partial \hat x_i}{\partial x_i}`` is read twice: as the local partial along the
computation graph (the numerator's formula differentiated by x, mu and sigma^2 held) and as
the diagonal entry of the Jacobian (the total derivative).  Both proved: proved; both false:
refuted; otherwise an error naming both readings and their verdicts.  A row that is the chain
rule over the graph (a sum of links ``\partial l/\partial q \cdot \partial q/\partial x_i``,
through the node and through a parent of it) reads the local partial.

Truth labels are computed without symnorm: the Jacobian's diagonal by PyTorch autograd of
the functional layers, the local partials by the hand-derived formulas (1/sqrt(var + eps),
1/r) evaluated in numpy, and the input gradients by autograd.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import _DY, _X, BETA, EPS, GAMMA, _same, _t, _torch, verdicts

M = len(_X)
MU, VAR = _X.mean(), _X.var()
S = np.sqrt(VAR + EPS)
XH = (_X - MU) / S
R = np.sqrt((_X ** 2).mean() + EPS)

BN = "use batchnorm\nlet N = d"
LN = "use layernorm"
RMS = "use rmsnorm\nlet N = d"
DXH = r"\frac{\partial \hat x_i}{\partial x_i}"

LOCAL = {"bn": np.full(M, 1 / S), "ln": np.full(M, 1 / S), "rms": np.full(M, 1 / R)}


def _total(layer: str) -> np.ndarray:
    """The diagonal of the Jacobian of the normalized vector by x (autograd)."""
    torch, F = _torch()
    f = {"bn": lambda t: F.batch_norm(t.reshape(-1, 1), None, None, training=True,
                                       eps=EPS).reshape(-1),
         "ln": lambda t: F.layer_norm(t, (M,), eps=EPS),
         "rms": lambda t: F.rms_norm(t, (M,), eps=EPS)}[layer]
    return np.diag(torch.autograd.functional.jacobian(f, _t(_X)).numpy())


#: (layer, preamble, latex, right side): left side the same-index partial
CASES = [
    ("bn", BN, DXH + r" = \frac{1}{\sqrt{\sigma^2+\epsilon}}", 1 / S),          # the website's
    ("bn", BN, DXH + r" = \frac{1}{\sqrt{\sigma^2+\epsilon}}\left(1 - \frac{1}{N} - "
     r"\frac{\hat x_i \hat x_i}{N}\right)", (1 - 1 / M - XH * XH / M) / S),     # the diagonal
    ("bn", BN, DXH + r" = \frac{1}{\sqrt{\sigma^2+\epsilon}}\left(1 - \frac{1}{N} + "
     r"\frac{\hat x_i \hat x_i}{N}\right)", (1 - 1 / M + XH * XH / M) / S),     # sign: neither
    ("bn", BN, DXH + r" = \frac{1}{\sigma}", 1 / np.sqrt(VAR)),                   # no eps
    ("bn", BN, DXH + " = 0", 0 * _X),
    ("ln", LN, DXH + r" = \frac{1}{\sqrt{\sigma^2+\epsilon}}", 1 / S),
    ("ln", LN, DXH + r" = \frac{1}{\sqrt{\sigma^2+\epsilon}} - \frac{1}{d\sqrt{\sigma^2+"
     r"\epsilon}}", (1 - 1 / M) / S),                                              # a term lost
    ("rms", RMS, DXH + r" = \frac{1}{r}", 1 / R),
    ("rms", RMS, DXH + r" = \frac{1}{r} - \frac{x_i x_i}{N r^3}", 1 / R - _X * _X / (M * R ** 3)),
    ("rms", RMS, DXH + r" = \frac{1}{r} + \frac{x_i x_i}{N r^3}", 1 / R + _X * _X / (M * R ** 3)),
    ("rms", RMS, DXH + r" = \frac{1}{r^2}", 1 / R ** 2),
]


def _expected(local: bool, total: bool) -> str:
    return "proved" if local and total else "refuted" if not (local or total) else "error"


def _claims(preamble: str, latex: str) -> list[tuple[str, str]]:
    return [(s, m) for _, s, m in verdicts(preamble, latex) if s != "defined"]


@pytest.mark.parametrize("layer, preamble, latex, rhs", CASES, ids=[c[2] for c in CASES])
def test_both_readings_are_checked(layer, preamble, latex, rhs) -> None:
    local, total = _same(LOCAL[layer], rhs), _same(_total(layer), rhs)
    got = _claims(preamble, latex)
    assert [s for s, _ in got] == [_expected(local, total)], got
    if local != total:
        msg = got[0][1]
        word = {True: "proved", False: "refuted"}
        assert "two readings, and they disagree" in msg, msg
        assert (f"read as the local partial along the computation graph (the numerator's "
                f"other parents held) it is {word[local]}") in msg, msg
        assert (f"read as the diagonal entry of the Jacobian (the total derivative) it is "
                f"{word[total]}") in msg, msg
        assert "write two indices" in msg and "chain rule over the graph" in msg, msg


def test_a_proof_in_both_readings_says_so() -> None:
    from symnorm.check.run import check_text
    text = ("```symnorm\nuse layernorm\n```\n\n```latex eq\n" + DXH
            + r" = \frac{\partial}{\partial x_i}\frac{x_i-\mu}{\sqrt{\sigma^2+\epsilon}}"
            + "\n```\n")
    v = [v for v in check_text(text, "t.md", sandbox=False).verdicts if v.status != "defined"]
    assert [x.status for x in v] == ["proved"], v
    assert any("proved in both" in n for n in v[0].notes), v[0].notes
    text = text.replace(r"\frac{\partial}{\partial x_i}", "2")
    v = [v for v in check_text(text, "t.md", sandbox=False).verdicts if v.status != "defined"]
    assert [x.status for x in v] == ["refuted"] and any("refuted in both" in n
                                                          for n in v[0].notes), v


#: (preamble, latex, local truth, total truth): the operator and inline forms
FORMS = [
    (BN, r"\frac{\partial}{\partial x_i}\left(x_i - \mu\right) = 1", True, False),
    (BN, r"\frac{\partial}{\partial x_i}\left(x_i - \mu\right) = 1 - \frac{1}{N}", False, True),
    (BN, r"\partial (x_i - \mu ) / \partial x_i = 1 - 1/N", False, True),
    (BN, r"\partial (x_i - \mu ) / \partial x_i = 1 + 1/N", False, False),
    # nothing the operand holds depends on x: one reading
    (BN, r"\frac{\partial}{\partial x_i}\left(2 x_i + \epsilon\right) = 2", True, True),
    (BN, r"\frac{\partial}{\partial x_i}\left(2 x_i + \epsilon\right) = 3", False, False),
]


@pytest.mark.parametrize("preamble, latex, local, total", FORMS, ids=[f[1] for f in FORMS])
def test_operator_and_inline_forms(preamble, latex, local, total) -> None:
    # the truths by hand: d(x_i - mu)/dx_i is 1 with mu held, 1 - 1/N through mu
    got = _claims(preamble, latex)
    assert [s for s, _ in got] == [_expected(local, total)], got
    if local != total:
        assert "two readings, and they disagree" in got[0][1], got


#: the readings are one where the numerator's only parent is the variable's node:
#: (preamble, latex, per-element parameters, the right side from (gamma, beta))
ONE_READING = [
    ("use batchnorm\nvector dl_dy", r"\frac{\partial y_i}{\partial \hat x_i} = \gamma", False,
     lambda g, b: g),
    ("use batchnorm\nvector dl_dy", r"\frac{\partial y_i}{\partial \hat x_i} = 2\gamma", False,
     lambda g, b: 2 * g),
    ("use batchnorm\nvector dl_dy", r"\frac{\partial y_i}{\partial \hat x_i} = \gamma + \beta",
     False, lambda g, b: g + b),
    ("use layernorm(affine=elementwise)\nvector dl_dy",
     r"\frac{\partial y_i}{\partial \hat x_i} = \gamma_i", True, lambda g, b: g),
    ("use layernorm(affine=elementwise)\nvector dl_dy",
     r"\frac{\partial y_i}{\partial \hat x_i} = \beta_i", True, lambda g, b: b),
]


@pytest.mark.parametrize("preamble, latex, vector, rhs", ONE_READING,
                         ids=[c[1] for c in ONE_READING])
def test_one_reading_where_the_only_path_is_direct(preamble, latex, vector, rhs) -> None:
    torch, _ = _torch()
    g = _t([2.0, -0.5, 0.75, 1.0]) if vector else _t([GAMMA] * M)
    b = _t([0.5, 0.0, -2.0, 1 / 3]) if vector else _t([BETA] * M)
    # y = gamma xhat + beta as a function of xhat: its Jacobian's diagonal by autograd
    jac = torch.autograd.functional.jacobian(lambda h: g * h + b, _t(XH)).numpy()
    truth = _same(np.diag(jac), rhs(g.numpy(), b.numpy()))
    got = _claims(preamble, latex)
    assert [s for s, _ in got] == ["proved" if truth else "refuted"], got


# --- the chain rule over the graph reads the local partial ----------------------------------

GRAPH = "use batchnorm\nlet N = d\nvector dl_dy"
LINK_XHAT = r"\frac{\partial l}{\partial \hat x_i} \cdot " + DXH
LINK_VAR = r"\frac{\partial l}{\partial \sigma^2} \cdot \frac{\partial \sigma^2}{\partial x_i}"
LINK_MU = r"\frac{\partial l}{\partial \mu} \cdot \frac{\partial \mu}{\partial x_i}"


def _grad_x() -> np.ndarray:
    torch, F = _torch()
    x = _t(_X).requires_grad_()
    y = F.batch_norm(x.reshape(-1, 1), None, None, weight=_t([GAMMA]), bias=_t([BETA]),
                     training=True, eps=EPS).reshape(-1)
    (y * _t(_DY)).sum().backward()
    return x.grad.numpy()


def _paths(diag: np.ndarray, var: bool = True, mu: bool = True) -> np.ndarray:
    """dl/dxhat_i dxhat_i/dx_i + dl/dsigma^2 dsigma^2/dx_i + dl/dmu dmu/dx_i, with the
    adjoints by hand (Ioffe and Szegedy's formulas) and ``diag`` for dxhat_i/dx_i."""
    dxh = GAMMA * _DY
    dvar = float(np.sum(dxh * (_X - MU)) * -0.5 * (VAR + EPS) ** -1.5)
    dmu = float(np.sum(dxh * -1 / S)) + dvar * float(np.mean(-2 * (_X - MU)))
    return dxh * diag + var * dvar * 2 * (_X - MU) / M + mu * dmu / M


#: (latex, the right side by hand, with local partials)
CHAINS = [
    (r"\frac{\partial l}{\partial x_i} = " + LINK_XHAT + " + " + LINK_VAR + " + " + LINK_MU,
     _paths(LOCAL["bn"])),
    (LINK_XHAT + " + " + LINK_MU + " + " + LINK_VAR + r" = \frac{\partial l}{\partial x_i}",
     _paths(LOCAL["bn"])),
    # one path dropped, or one sign changed: false
    (r"\frac{\partial l}{\partial x_i} = " + LINK_XHAT + " + " + LINK_MU,
     _paths(LOCAL["bn"], var=False)),
    (r"\frac{\partial l}{\partial x_i} = " + LINK_XHAT + " + " + LINK_VAR,
     _paths(LOCAL["bn"], mu=False)),
    (r"\frac{\partial l}{\partial x_i} = " + LINK_XHAT + " + " + LINK_MU + " - " + LINK_VAR,
     _paths(LOCAL["bn"], var=-1)),
    # a link's two factors in the other order (red team 19's e10): the same link, a product
    # of two scalars; true, and false with the sigma^2 path dropped
    (r"\frac{\partial l}{\partial x_i} = " + DXH + r"\frac{\partial l}{\partial \hat x_i} + "
     + LINK_VAR + " + " + LINK_MU, _paths(LOCAL["bn"])),
    (r"\frac{\partial l}{\partial x_i} = " + DXH + r"\frac{\partial l}{\partial \hat x_i} + "
     r"\frac{\partial \mu}{\partial x_i}\frac{\partial l}{\partial \mu}",
     _paths(LOCAL["bn"], var=False)),
]


@pytest.mark.parametrize("latex, value", CHAINS, ids=[c[0] for c in CHAINS])
def test_the_chain_rule_over_the_graph_reads_the_local_partial(latex, value) -> None:
    truth = _same(_grad_x(), value)
    # the total reading would count the paths through mu and sigma^2 twice: false there
    assert not _same(_grad_x(), _paths(_total("bn")))
    got = verdicts(GRAPH, latex)
    claims = [(s, m) for _, s, m in got if s != "defined"]
    assert [s for s, _ in claims] == ["proved" if truth else "refuted"], got


def test_the_local_reading_is_stated() -> None:
    from symnorm.check.run import check_text
    text = (f"```symnorm\n{GRAPH}\n```\n\n```latex eq\n" + CHAINS[0][0] + "\n```\n")
    v = [v for v in check_text(text, "t.md", sandbox=False).verdicts if v.status != "defined"]
    assert [x.status for x in v] == ["proved"], v
    assert any("read as the local partial along the computation graph" in n
               and "count the paths through the parents twice" in n for n in v[0].notes), v[0].notes
    assert "x_node" in v[0].statement, v[0].statement


def test_rmsnorm_chain_rule_through_r() -> None:
    torch, F = _torch()
    x = _t(_X).requires_grad_()
    (F.rms_norm(x, (M,), eps=EPS) * GAMMA + BETA).mul(_t(_DY)).sum().backward()
    dxh = GAMMA * _DY
    dr = float(np.sum(dxh * -_X / R ** 2))
    by_hand = dxh / R + dr * _X / (M * R)              # dr/dx_i = x_i/(N r)
    assert _same(x.grad.numpy(), by_hand)
    line = (r"\frac{\partial l}{\partial x_i} = \frac{\partial l}{\partial \hat x_i} "
            r"\frac{\partial \hat x_i}{\partial x_i} + \frac{\partial l}{\partial r} "
            r"\frac{\partial r}{\partial x_i}")
    pre = "use rmsnorm\nvector dl_dy"
    assert [s for _, s, _ in verdicts(pre, line) if s != "defined"] == ["proved"]
    assert [s for _, s, _ in verdicts(pre, line.replace(" + ", " + 2")) if s != "defined"] \
        == ["refuted"]


#: rows that look like a path sum but are not the chain rule's shape: both readings
NOT_CHAINS = [
    # the partial alone on one side: the chain rule for the total derivative (true as the
    # diagonal, false as the local partial)
    (DXH + r" = \frac{1}{\sqrt{\sigma^2+\epsilon}} + \frac{\partial \hat x_i}{\partial \mu}"
     r"\frac{\partial \mu}{\partial x_i} + \frac{\partial \hat x_i}{\partial \sigma^2}"
     r"\frac{\partial \sigma^2}{\partial x_i}"),
    # a factor by mu beside it, times 0: no link of a chain rule
    DXH + r" + \frac{\partial \hat x_i}{\partial \mu}\cdot 0 = \frac{1}{\sqrt{\sigma^2+\epsilon}}",
    # the partial outside the path sum it stands beside: only links of the sum read locally
    (DXH + r" = \frac{1}{\sqrt{\sigma^2+\epsilon}}\left(1 - \frac{1}{N} - \frac{\hat x_i "
     r"\hat x_i}{N}\right) + 0 \cdot \left(" + LINK_XHAT + " + " + LINK_MU + r"\right)"),
    # a third factor in a link
    (r"\frac{\partial l}{\partial x_i} = 2 \frac{\partial l}{\partial \hat x_i} " + DXH + " + "
     + LINK_MU),
]


@pytest.mark.parametrize("latex", NOT_CHAINS)
def test_other_shapes_keep_both_readings(latex) -> None:
    got = [(s, m) for _, s, m in verdicts(GRAPH, latex) if s != "defined"]
    assert [s for s, _ in got] in (["error"], ["refuted"]), got
    if got[0][0] == "error":
        assert "two readings, and they disagree" in got[0][1], got


def test_the_first_row_is_the_total_chain_rule() -> None:
    # NOT_CHAINS[0] is true as the diagonal of the Jacobian: dxhat_i/dx_i = 1/s - 1/(N s)
    # - (x_i - mu)^2/(N s^3), so an error (never refuted) is right
    via = 1 / S - 1 / (M * S) + (-(_X - MU) / 2 * (VAR + EPS) ** -1.5) * 2 * (_X - MU) / M
    assert _same(_total("bn"), via)
    got = [s for _, s, _ in verdicts(GRAPH, NOT_CHAINS[0]) if s != "defined"]
    assert got == ["error"], got


def test_refusals_that_stay() -> None:
    # y has no local partial by x; the document's own graph is not read both ways
    got = verdicts("use batchnorm", r"\frac{\partial y_i}{\partial x_i} = \gamma")
    assert "x is not in the numerator's own formula" in got[0][2], got


def _document(rhs: str) -> list[tuple[str, str]]:
    from symnorm.check.run import check_text
    text = ("```symnorm\nvector x\n```\n\n```latex a\nu = \\frac{1}{d}\\sum_{i=1}^d x_i\n```\n\n"
            "```latex b\nw_i = 3 (x_i - u)\n```\n\n```latex c\n\\frac{\\partial w_i}{\\partial "
            f"x_i}} = {rhs}\n```\n")
    return [(v.status, v.message) for v in check_text(text, "t.md", sandbox=False).verdicts
            if v.status != "defined"]


@pytest.mark.parametrize("rhs, local, total", [
    ("3", True, False), (r"3 - \frac{3}{d}", False, True), ("0", False, False),
])
def test_the_documents_own_definitions(rhs, local, total) -> None:
    # w = 3 (x - u), u = mean(x): with u held dw_i/dx_i = 3; through u, 3 (1 - 1/d)
    x = _X.copy()
    jac = np.array([[3 * ((i == j) - 1 / M) for j in range(M)] for i in range(M)])
    assert _same(np.diag(jac), 3 * (1 - 1 / M)) and M == len(x)
    got = _document(rhs)
    assert [s for s, _ in got] == [_expected(local, total)], got


# --- red team: false variants built to be proved by mistake --------------------------------

def _red_team() -> list[tuple[str, str, bool, str]]:
    """(preamble, latex, truth in the reading symnorm must use, expected verdict)."""
    grad = _grad_x()
    dxh = GAMMA * _DY
    one_link = dxh / S                                          # the x-hat path alone
    dmu = float(np.sum(dxh * -1 / S))
    rows = [
        # eps dropped: false in both readings
        (GRAPH, DXH + r" = \frac{1}{\sqrt{\sigma^2}}",
         _same(LOCAL["bn"], 1 / np.sqrt(VAR)) or _same(_total("bn"), 1 / np.sqrt(VAR)),
         "refuted"),
        # a fourth term that is no link: both readings, false in both
        (GRAPH, CHAINS[0][0] + r" + \frac{\partial l}{\partial \mu}",
         _same(grad, CHAINS[0][1] + dmu), "refuted"),
        # one link alone: no sum, both readings, false in both
        (GRAPH, r"\frac{\partial l}{\partial x_i} = " + LINK_XHAT, _same(grad, one_link),
         "refuted"),
        # the chain continued by a line that drops the paths: the second link is false
        (GRAPH, CHAINS[0][0] + r" \\ &= \frac{\partial l}{\partial \hat x_i}\frac{1}{\sqrt{"
         r"\sigma^2+\epsilon}}", _same(grad, one_link), "proved refuted"),
        # the mu path through x-hat only, written as a three-factor term: no chain rule
        (GRAPH, r"\frac{\partial l}{\partial x_i} = " + LINK_XHAT + r" + \frac{\partial l}"
         r"{\partial \hat x_i}\frac{\partial \hat x_i}{\partial \mu}\frac{\partial \mu}"
         r"{\partial x_i}", _same(grad, one_link - dxh / S / M), "refuted"),
        # a sub-sum that is a chain rule inside a sum with a zero three-factor term (true as
        # the local partial, false as the diagonal): only whole sums decide, so an error
        (GRAPH, CHAINS[0][0] + r" + \frac{\partial l}{\partial \sigma^2}\frac{\partial "
         r"\sigma^2}{\partial \mu}\frac{\partial \mu}{\partial x_i}", True, "error"),
        # the link written in the other order is a link of the chain rule (red team 19): read
        # locally, and the total reading's double count is never checked
        (GRAPH, r"\frac{\partial l}{\partial x_i} = " + DXH + r"\frac{\partial l}{\partial "
         r"\hat x_i} + " + LINK_VAR + " + " + LINK_MU, True, "proved"),
        # the operand holds nothing x-dependent: d(x_i^2)/dx_i is 2 x_i, not x_i
        (GRAPH, r"\frac{\partial}{\partial x_i}\left(x_i x_i\right) = x_i",
         _same(2 * _X, _X), "refuted"),
        # no graph where the vocabulary's map differs (eps outside the root)
        ("use layernorm(eps_inside=0)\nvector dl_dy", DXH + r" = \frac{1}{\sigma}", False,
         "error"),
    ]
    # RMSNorm: the path through r counted twice
    dr = float(np.sum(dxh * -_X / R ** 2))
    rows.append(("use rmsnorm\nvector dl_dy",
                 r"\frac{\partial l}{\partial x_i} = \frac{\partial l}{\partial \hat x_i}"
                 r"\frac{\partial \hat x_i}{\partial x_i} + 2\frac{\partial l}{\partial r}"
                 r"\frac{\partial r}{\partial x_i}", False, "refuted"))
    assert not _same(dxh / R + 2 * dr * _X / (M * R), dxh / R + dr * _X / (M * R))
    return rows


def test_red_team_false_variants_are_never_proved() -> None:
    for pre, latex, truth, want in _red_team():
        got = [s for _, s, _ in verdicts(pre, latex) if s != "defined"]
        assert got == want.split(), (latex, got)
        assert truth or "refuted" in got or "error" in got, (latex, got)

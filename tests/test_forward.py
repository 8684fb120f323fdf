"""Forward-mode Jacobians of the numeric engine (symnorm/engines/forward.py, issue 12).

The derivatives are checked three ways: against values worked out by hand (or with plain
mpmath formulas written here), against the engine's own Richardson-extrapolated central
differences on a table of bodies that uses every rule, and end to end (true Jacobian
claims proved, one-token false variants refuted, with either method).
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from symnorm.check.run import check_text
from symnorm.engines import numclaim
from symnorm.engines.forward import NoForward, forward_enabled
from symnorm.engines.forward import jacobian as forward_jacobian
from symnorm.lang.document import parse_text
from symnorm.lang.syntax import Call


def _claim(decls: str, body: str, var: str):
    text = f"```symnorm\n{decls}\nclaim c: jacobian({body}, {var}) == 0\n```\n"
    claim = parse_text(text, "t.md").scope.claims[0]
    jac = claim.relation.left  # the outermost jacobian
    assert isinstance(jac, Call) and jac.func == "jacobian"
    return claim, jac.args[0]


def _both(decls: str, body: str, var: str, values: dict, d: int, dps: int = 60):
    claim, tree = _claim(decls, body, var)
    point = numclaim.Point(d, values)
    with mpmath.workdps(dps):
        ev = numclaim._Eval(claim, point)
        fwd = ev._compute(tree, var, True)
        diff = numclaim._Eval(claim, point)._differences(tree, var)
    return fwd, diff


def _entries(v) -> list:
    if isinstance(v, mpmath.matrix):
        return [v[i, j] for i in range(v.rows) for j in range(v.cols)]
    return [v]


X3 = {"x": [F(1), F(2), F(4)]}

#: (declarations, body, variable, point, d): every forward rule, at exact points
TABLE = [
    ("vector x", "x.T*x", "x", X3, 3),
    ("vector x", "x*(x.T*x)", "x", X3, 3),
    ("vector x\nscalar a", "exp(a*x.T*ones)*x", "x", {"x": [F(1, 3), F(-1, 2)], "a": F(2, 7)}, 2),
    ("vector x", "log(x.T*x + 1)*x", "x", X3, 3),
    ("vector x", "abs(x.T*ones - 1)*x", "x", X3, 3),
    ("vector x", "sqrt(x.T*x)*x", "x", X3, 3),
    ("vector x", "(x.T*x)**(3/2)", "x", X3, 3),
    ("vector x", "(x.T*x)**(-2)*x", "x", X3, 3),
    ("vector x, u", "u.T*x/(x.T*x + 1)", "x", {"x": [F(1), F(-3)], "u": [F(2), F(5)]}, 2),
    ("vector x", "trace(x*x.T)*x", "x", X3, 3),
    ("vector x\nmatrix W", "W*x/sqrt(x.T*W*x + 1)", "x",
     {"x": [F(1), F(2)], "W": [[F(2), F(1)], [F(0), F(3)]]}, 2),
    ("vector x", "-(x.T)*x + 3*x.T*ones", "x", X3, 3),
    ("use layernorm", "N(x)", "x", {"x": [F(1), F(2), F(4)], "eps": F(1, 10)}, 3),
    ("use rmsnorm", "RMS(x)", "x", {"x": [F(1), F(2), F(4), F(-3)], "eps": F(1, 10)}, 4),
    ("scalar t", "t**t", "t", {"t": F(3, 2)}, 2),
    ("scalar t", "sqrt(t**2 + 1)*exp(-t)", "t", {"t": F(-2, 3)}, 2),
    ("scalar t\nvector x", "t*x/(t**2 + x.T*x)", "t", {"t": F(5), "x": [F(1), F(1)]}, 2),
    ("let d = 3\nscalar t", "[t, t**2, 1/t]", "t", {"t": F(7, 3)}, 3),
    ("scalar t\nvector x", "x.T*x", "t", {"t": F(1), "x": [F(1), F(2)]}, 2),
]


@pytest.mark.parametrize("decls, body, var, values, d", TABLE,
                         ids=[row[1] for row in TABLE])
def test_forward_mode_agrees_with_central_differences(decls, body, var, values, d):
    fwd, diff = _both(decls, body, var, values, d)
    assert type(fwd) is type(diff)
    if isinstance(fwd, mpmath.matrix):
        assert (fwd.rows, fwd.cols) == (diff.rows, diff.cols)
    with mpmath.workdps(60):
        for a, b in zip(_entries(fwd), _entries(diff)):
            assert abs(a - b) <= mpmath.mpf(10) ** -45 * max(1, abs(b)), (a, b)


def test_gradient_of_the_square_norm_by_hand():
    fwd, _ = _both("vector x", "x.T*x", "x", X3, 3)
    assert [fwd[0, j] for j in range(3)] == [2, 4, 8]  # 2 x^T, exactly


def test_layer_norm_jacobian_matches_the_closed_form():
    # J = P/s - c c^T/(d s^3), written here in plain mpmath
    fwd, _ = _both("use layernorm", "N(x)", "x", {"x": [F(1), F(2), F(4)], "eps": F(1, 10)},
                   3, dps=60)
    with mpmath.workdps(60):
        x = mpmath.matrix([1, 2, 4])
        c = x - mpmath.ones(3, 1) * (sum(x) / 3)
        s = mpmath.sqrt((c.T * c)[0, 0] / 3 + mpmath.mpf(1) / 10)
        closed = (mpmath.eye(3) - mpmath.ones(3, 3) / 3) / s - c * c.T / (3 * s ** 3)
        assert mpmath.mnorm(fwd - closed, 1) < mpmath.mpf(10) ** -55


@pytest.mark.parametrize("decls, body, values, d", [
    ("vector x", "abs(x.T*ones)*x", {"x": [F(1), F(-1)]}, 2),  # a kink of abs at 0
    ("vector x", "sqrt(x.T*x)", {"x": [F(0), F(0)]}, 2),  # sqrt at 0
    ("vector x", "(x.T*x)**(1/3)", {"x": [F(0), F(0)]}, 2),  # a power below 1 of 0
    ("vector x", "(x.T*ones)**(3/2)", {"x": [F(1), F(-1)]}, 2),  # the edge of its domain
])
def test_points_that_are_not_differentiable_are_skipped(decls, body, values, d):
    claim, tree = _claim(decls, body, "x")
    with mpmath.workdps(60), pytest.raises(numclaim.Undefined):
        ev = numclaim._Eval(claim, numclaim.Point(d, values))
        forward_jacobian(ev, tree, "x", ev.mp(values["x"]))


def test_a_nested_jacobian_falls_back_to_differences(monkeypatch):
    claim, tree = _claim("vector x", "jacobian(x.T*x, x).T", "x")
    calls = []
    original = numclaim._Eval._differences

    def counted(self, body, var):
        calls.append(str(body))
        return original(self, body, var)
    monkeypatch.setattr(numclaim._Eval, "_differences", counted)
    point = numclaim.Point(2, {"x": [F(1), F(3)]})
    with mpmath.workdps(60):
        ev = numclaim._Eval(claim, point)
        with pytest.raises(NoForward):
            forward_jacobian(ev, tree, "x", ev.mp([F(1), F(3)]))
        hess = ev._compute(tree, "x", True)
        assert calls  # the outer derivative came from differences
        for i in range(2):
            for j in range(2):
                assert abs(hess[i, j] - 2 * (i == j)) < mpmath.mpf(10) ** -40


def test_environment_switch(monkeypatch):
    monkeypatch.delenv("SYMNORM_JACOBIAN", raising=False)
    assert forward_enabled()
    monkeypatch.setenv("SYMNORM_JACOBIAN", "differences")
    assert not forward_enabled()


CLAIMS = """\
```symnorm
use layernorm
vector u
matrix W
claim radial: J*c == eps/s**3*c
claim radial.power: J*c == eps/s**2*c
claim radial.sign: J*c == -eps/s**3*c
claim closed: J == P/s - c*c.T/(d*s**3)
claim closed.dropped: J == P/s
claim closed.factor: J == P/s - c*c.T/(2*d*s**3)
claim linear: jacobian(W*u, u) == W
claim linear.transposed: jacobian(W*u, u) == W.T
claim quad: jacobian(sqrt(u.T*W*u + 1), u) == u.T*(W + W.T)/(2*sqrt(u.T*W*u + 1))
claim quad.sign: jacobian(sqrt(u.T*W*u + 1), u) == -u.T*(W + W.T)/(2*sqrt(u.T*W*u + 1))
```
"""

EXPECTED = {"radial": "proved", "radial.power": "refuted", "radial.sign": "refuted",
            "closed": "proved", "closed.dropped": "refuted", "closed.factor": "refuted",
            "linear": "proved-for", "linear.transposed": "refuted",
            "quad": "proved-for", "quad.sign": "refuted"}


@pytest.mark.parametrize("method", ["forward", "differences"])
def test_true_jacobian_claims_proved_and_one_token_variants_refuted(monkeypatch, method):
    monkeypatch.setenv("SYMNORM_JACOBIAN", method)
    numclaim._JACOBIANS.clear()
    result = check_text(CLAIMS, sandbox=False)
    got = {v.label: v.status for v in result.verdicts}
    assert got == EXPECTED, result

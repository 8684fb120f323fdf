"""Symbolic analysis per spec: spectrum for every d, Jacobians, coupling, invariances."""

from __future__ import annotations

import numpy as np
import pytest
import sympy
from sympy import Rational as R
from sympy import sqrt

from symnorm.family.analysis import (
    EPS,
    D,
    V,
    coupling,
    cross_sample_entry,
    invariances,
    jacobian,
    jacobian_formula,
    sample_tensor,
    spectrum,
)
from symnorm.family.apply import forward
from symnorm.spec import batch_norm, group_norm, instance_norm, layer_norm, rms_norm

S = sqrt(V + EPS)


def values(spec):  # type: ignore[no-untyped-def]
    return {e.direction: (sympy.simplify(e.value), e.multiplicity) for e in spectrum(spec)}


def test_layer_norm_spectrum_matches_the_paper() -> None:
    got = values(layer_norm())
    assert got["ones"] == (0, 1)
    assert sympy.simplify(got["c"][0] - EPS / S**3) == 0 and got["c"][1] == 1
    assert sympy.simplify(got["u"][0] - 1 / S) == 0 and got["u"][1] == D - 2
    # mutant: the radial value is not 1/s**3 nor eps/s**2
    assert sympy.simplify(got["c"][0] - 1 / S**3) != 0
    assert sympy.simplify(got["c"][0] - EPS / S**2) != 0


def test_rms_norm_spectrum_has_no_null_direction() -> None:
    got = values(rms_norm())
    assert set(got) == {"c", "u"}
    assert sympy.simplify(got["c"][0] - EPS / S**3) == 0 and got["u"][1] == D - 1
    assert all(v[0] != 0 for v in got.values())


def test_eps_outside_spectrum() -> None:
    got = values(layer_norm(eps_inside=False))
    g = sqrt(V) + EPS
    assert sympy.simplify(got["c"][0] - EPS / g**2) == 0
    assert sympy.simplify(got["u"][0] - 1 / g) == 0


def test_jacobian_formula() -> None:
    inv_g, kappa, a = jacobian_formula(layer_norm(var_denominator="N-1"))
    assert a == "P" and sympy.simplify(kappa - 1 / ((D - 1) * S**3)) == 0
    assert sympy.simplify(inv_g - 1 / S) == 0
    assert jacobian_formula(rms_norm())[2] == "I"


# The paper's evidence (shared/guides/math.md): x = (1, 2, 4), eps = 1/10
PAPER_J = [[0.23993835872757036, -0.3286112304312372, 0.08867287170366717],
           [-0.3286112304312372, 0.5007409225618855, -0.17212969213064816],
           [0.08867287170366717, -0.17212969213064816, 0.08345682042698094]]


def test_paper_jacobian_exact() -> None:
    jac = jacobian(layer_norm(3, "1/10"), [1, 2, 4])
    for i in range(3):
        for j in range(3):
            assert abs(float(jac[i, j]) - PAPER_J[i][j]) < 1e-15
    assert jac == jac.T


def test_concrete_jacobian_has_the_predicted_eigenvectors() -> None:
    # d = 4, x = 1, 2, 4, 7: mean 7/2, c = (-5, -3, 1, 7)/2, c.c = 21, v = 21/4, eps = 1/10
    jac = jacobian(layer_norm(4, "1/10"), [1, 2, 4, 7])
    c = sympy.Matrix([-5, -3, 1, 7]) / 2
    s = sqrt(R(21, 4) + R(1, 10))
    assert jac * sympy.ones(4, 1) == sympy.zeros(4, 1)
    assert sympy.simplify(jac * c - R(1, 10) / s**3 * c) == sympy.zeros(4, 1)
    u = sympy.Matrix([1, -1, -1, 1])  # u.ones = 0; remove its c component (u.c = 2)
    u = u - c * (u.dot(c) / c.dot(c))
    assert sympy.simplify(jac * u - u / s) == sympy.zeros(4, 1)
    assert sympy.simplify(jac.trace() - (2 / s + R(1, 10) / s**3)) == 0


def test_batch_norm_cross_sample_jacobian_is_layer_norm_with_d_batch() -> None:
    # one channel, batch 1, 2, 4 at eps = 1/10: same as LayerNorm of (1, 2, 4)
    jb = jacobian(batch_norm("N C", "1/10", sizes="N=3 C=1"), [[1], [2], [4]])
    assert jb == jacobian(layer_norm(3, "1/10"), [1, 2, 4])
    # mean 7/3, c = (-4/3, -1/3, 5/3), v = 42/27 = 14/9
    entry = cross_sample_entry(batch_norm()).subs(
        {D: 3, V: R(14, 9), EPS: R(1, 10), sympy.Symbol("c_i", real=True): R(-4, 3),
         sympy.Symbol("c_j", real=True): R(-1, 3)})
    assert sympy.simplify(jb[0, 1] - entry) == 0 and jb[0, 1] != 0


@pytest.mark.parametrize("spec, coupled", [
    (batch_norm("N C", "1/10", sizes="N=3 C=2"), True),
    (batch_norm("N C H", "1/10", sizes="N=2 C=1 H=2"), True),
    (layer_norm(layout="N C", sizes="N=2 C=3", eps="1/10"), False),
    (instance_norm("N C H", "1/10", sizes="N=2 C=2 H=2"), False),
    (group_norm(2, "N C H", "1/10", sizes="N=2 C=2 H=2"), False),
    (rms_norm(layout="N D", sizes="N=2 D=2", eps="1/10"), False),
])
def test_coupling_blocks(spec, coupled: bool) -> None:  # type: ignore[no-untyped-def]
    blocks = coupling(spec)
    assert blocks[(0, 0)] and blocks[(1, 1)]
    assert blocks[(0, 1)] is coupled and blocks[(1, 0)] is coupled
    assert spec.couples_samples is coupled


def test_batch_of_two_jacobian_vanishes_without_eps() -> None:
    # d = 2, eps = 0: the output is the constant sign pattern (-1, 1), so J = 0
    assert jacobian(batch_norm("N C", sizes="N=2 C=1"), [[0], [3]]) == sympy.zeros(2, 2)


# expected (shift, shared-bias gradient, scale, unit weight rescaling), reasoned by hand
@pytest.mark.parametrize("spec, expected", [
    (batch_norm("N C", sizes="N=3 C=2"), (True, True, True, True)),
    (batch_norm("N C", "1/10", sizes="N=3 C=2"), (True, True, False, False)),
    (layer_norm(layout="N C", sizes="N=2 C=3"), (True, True, True, False)),
    (instance_norm("N C H", sizes="N=2 C=2 H=3"), (True, True, True, True)),
    (group_norm(2, "N C H", sizes="N=2 C=4 H=2"), (True, True, True, False)),
    (group_norm(4, "N C H", sizes="N=2 C=4 H=2"), (True, True, True, True)),
    (rms_norm(layout="N D", sizes="N=2 D=3"), (False, False, True, False)),
    (rms_norm(layout="N D", sizes="N=2 D=3", eps="1/100"), (False, False, False, False)),
    (layer_norm(3, eps_inside=False, eps="1/10"), (True, True, False, False)),
])
def test_invariances(spec, expected) -> None:  # type: ignore[no-untyped-def]
    found = {f.name: f for f in invariances(spec)}
    got = tuple(found[k].holds for k in ("shift", "shared-bias gradient", "scale",
                                         "unit weight rescaling"))
    assert got == expected
    for f in found.values():
        if not f.holds and "y(x)[k]" in f.witness:
            assert f.witness["y(x)[k]"] != f.witness["y(x')[k]"]


def test_weight_rescaling_gradient_scales_as_one_over_a() -> None:
    # one channel fed by z_n = w.u_n with u = (1,0), (0,1), (1,1); loss y_1 + 2*y_2
    w1, w2 = sympy.symbols("w1 w2", real=True)
    spec = batch_norm("N C", sizes="N=3 C=1")
    y = forward(spec, [[w1], [w2], [w1 + w2]]).y.ravel()
    loss = y[0] + 2 * y[1]
    grad = [sympy.diff(loss, w) for w in (w1, w2)]
    at = lambda p: [sympy.radsimp(g.subs({w1: p[0], w2: p[1]})) for g in grad]
    g1, g3 = at((1, 2)), at((3, 6))
    assert all(sympy.simplify(a - b / 3) == 0 for a, b in zip(g3, g1))
    assert any(g != 0 for g in g1)
    assert [sympy.simplify(v.subs({w1: 1, w2: 2}) - v.subs({w1: 3, w2: 6})) for v in y] == [0] * 3


def test_sample_tensor_has_no_constant_group() -> None:
    x = sample_tensor(group_norm(2, "N C H W", sizes="C=4"))
    assert x.shape == (3, 4, 3, 3) and len(set(x.ravel().tolist())) == x.size
    assert np.asarray(x).dtype == object

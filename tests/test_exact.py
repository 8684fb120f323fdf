"""The explicit engine: every identity at d = 2..8 with symbolic x, paper values, mutants."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symnorm.engines.exact import ExactEngine
from symnorm.engines.exact_checks import _eigen_check, run_checks
from symnorm.errors import LimitError, SpecError
from symnorm.spec import layer_norm, rms_norm

TENTH = sympy.Rational(1, 10)
# the paper's matrix (math.md), typed in from the paper, not produced by symnorm
PAPER_J = [[0.23993835872757036, -0.3286112304312372, 0.08867287170366717],
           [-0.3286112304312372, 0.5007409225618855, -0.17212969213064816],
           [0.08867287170366717, -0.17212969213064816, 0.08345682042698094]]

LABELS_CENTERED = {"closed_form", "symmetric", "null_ones", "eigen_radial", "eigen_complement",
                   "eigenbasis", "trace", "projector"}
LABELS_RMS = {"closed_form", "symmetric", "eigen_radial", "eigen_complement", "eigenbasis",
              "trace"}


def _specs(d):
    return [layer_norm(d, TENTH), layer_norm(d, 0), layer_norm(d, 3),
            layer_norm(d, TENTH, eps_inside=False), layer_norm(d, TENTH, var_denominator="N-1"),
            rms_norm(d, TENTH), rms_norm(d, 0)]


def _all_hold(checks, expected_labels):
    assert {c.label for c in checks} == expected_labels
    failed = [(c.label, c.detail) for c in checks if not c.holds]
    assert not failed


@pytest.mark.parametrize("d", range(2, 9))
@pytest.mark.parametrize("variant", range(7))
def test_symbolic_identities_d2_to_8(d, variant):
    spec = _specs(d)[variant]
    eng = ExactEngine(spec)
    _all_hold(eng.verify(), LABELS_CENTERED if spec.center else LABELS_RMS)


@pytest.mark.parametrize("d", [2, 3, 5])
@pytest.mark.parametrize("variant", range(7))
def test_symbolic_identities_pure_python_polynomials(d, variant):
    spec = _specs(d)[variant]
    eng = ExactEngine(spec, polys="sympy")
    _all_hold(eng.verify(), LABELS_CENTERED if spec.center else LABELS_RMS)
    checks = {c.label: c for c in run_checks(eng, eng.closed_form("wrong_sign"))}
    assert checks["closed_form"].holds is False


def test_backends_agree_on_jacobian():
    a = ExactEngine(layer_norm(4, TENTH), polys="sympy").jacobian()
    b = ExactEngine(layer_norm(4, TENTH), polys="flint").jacobian() if _has_flint() else a
    assert sympy.simplify(a - b) == sympy.zeros(4, 4)


def _has_flint():
    try:
        import flint  # noqa: F401
    except ImportError:
        return False
    return True


def _reference_jacobian(spec, x):
    """An independent route: SymPy's Matrix.jacobian of the typed-in map, at the point."""
    d = len(x)
    X = sympy.Matrix(sympy.symbols(f"y1:{d + 1}"))
    n = d if spec.var_denominator == "N" else d - 1
    c = X - sympy.ones(d, 1) * (sum(X) / d) if spec.center else X
    v = sum(ci ** 2 for ci in c) / n
    den = sympy.sqrt(v + spec.eps) if spec.eps_inside else sympy.sqrt(v) + spec.eps
    N = c / den
    return N.jacobian(X).subs(dict(zip(X, x)))


@pytest.mark.parametrize("variant", range(7))
@pytest.mark.parametrize("x", [(1, 2, 4), (sympy.Rational(-3, 7), 5, sympy.Rational(1, 2))])
def test_jacobian_matches_sympy_at_points(variant, x):
    spec = _specs(3)[variant]
    J = ExactEngine(spec, x).jacobian()
    ref = _reference_jacobian(spec, x)
    for a, b in zip(J, ref):
        assert abs(sympy.N(a - b, 60)) < sympy.Float("1e-50")


def test_paper_point_values():
    eng = ExactEngine(layer_norm(3, TENTH), (1, 2, 4))
    assert list(eng.c) == [sympy.Rational(-4, 3), sympy.Rational(-1, 3), sympy.Rational(5, 3)]
    assert eng.v == sympy.Rational(14, 9)
    assert sympy.simplify(eng.s ** 2 - sympy.Rational(149, 90)) == 0
    J = eng.jacobian()
    for i in range(3):
        for j in range(3):
            assert abs(float(sympy.N(J[i, j], 30)) - PAPER_J[i][j]) < 1e-15


def test_paper_eigen_decomposition():
    eng = ExactEngine(layer_norm(3, TENTH), (1, 2, 4))
    s = sympy.sqrt(sympy.Rational(149, 90))
    spaces = eng.eigen()
    values = [es.value for es in spaces]
    expected = [0, TENTH / s ** 3, 1 / s]
    assert [sympy.simplify(a - b) for a, b in zip(values, expected)] == [0, 0, 0]
    J = eng.jacobian()
    for es in spaces:
        for vec in es.vectors:
            assert sympy.simplify(J * vec - es.value * vec) == sympy.zeros(3, 1)
    # the complement vector is orthogonal to 1 and c
    u = spaces[2].vectors[0]
    assert sum(u) == 0 and (u.T * eng.c)[0] == 0
    assert sum(es.multiplicity for es in spaces) == 3


@pytest.mark.parametrize("d", [2, 3, 5])
def test_trace_and_multiplicities(d):
    spaces = ExactEngine(layer_norm(d, TENTH)).eigen()
    assert [es.multiplicity for es in spaces] == [1, 1, d - 2][: 3 if d > 2 else 2]
    spaces = ExactEngine(rms_norm(d, TENTH)).eigen()
    assert [es.multiplicity for es in spaces] == [1, d - 1]


MUTANTS = ["no_rank_one", "wrong_power", "wrong_sign", "identity"]


@pytest.mark.parametrize("variant", MUTANTS)
@pytest.mark.parametrize("x", [None, (1, 2, 4)])
def test_wrong_closed_forms_do_not_verify(variant, x):
    eng = ExactEngine(layer_norm(3, TENTH), x)
    checks = {c.label: c for c in run_checks(eng, eng.closed_form(variant))}
    assert checks["closed_form"].holds is False


def test_denominator_mutant_only_matters_for_unbiased_variance():
    eng = ExactEngine(layer_norm(4, TENTH, var_denominator="N-1"))
    checks = {c.label: c for c in run_checks(eng, eng.closed_form("d_not_n"))}
    assert checks["closed_form"].holds is False
    eng = ExactEngine(layer_norm(4, TENTH))
    checks = {c.label: c for c in run_checks(eng, eng.closed_form("d_not_n"))}
    assert checks["closed_form"].holds is True


@pytest.mark.parametrize("x", [None, (1, 2, 4, -1)])
def test_wrong_eigenvalues_are_refuted(x):
    eng = ExactEngine(layer_norm(4, TENTH), x)
    lam_c, lam_u = eng.lambdas()
    c = list(eng._st.cvals)
    u = eng.complement_basis()[0]
    assert _eigen_check(eng, c, lam_c)[0] and _eigen_check(eng, u, lam_u)[0]
    assert not _eigen_check(eng, c, lam_u)[0]        # 1/s on c: wrong
    assert not _eigen_check(eng, u, lam_c)[0]        # eps/s^3 on u: wrong
    assert not _eigen_check(eng, c, lam_c * 2)[0]
    ones = [eng._st.alg.one_f] * 4
    assert not _eigen_check(eng, ones, lam_u)[0]     # 1 is in the kernel, not 1/s


def test_eps_zero_radial_eigenvalue_is_zero():
    eng = ExactEngine(layer_norm(4, 0))
    assert eng.eigen()[1].value == 0
    assert all(c.holds for c in eng.verify())


def test_zero_variance_with_eps_zero_raises():
    with pytest.raises(SpecError, match="zero variance"):
        ExactEngine(layer_norm(3, 0), (3, 3, 3))
    with pytest.raises(SpecError, match="zero vector .*accepted: eps > 0, or a nonzero x"):
        ExactEngine(rms_norm(3, 0), (0, 0, 0))
    with pytest.raises(SpecError, match="eps outside"):
        ExactEngine(layer_norm(3, TENTH, eps_inside=False), (2, 2, 2))


def test_zero_variance_with_eps_positive_is_isotropic():
    eng = ExactEngine(layer_norm(3, TENTH), (3, 3, 3))
    spaces = eng.eigen()
    assert [es.multiplicity for es in spaces] == [1, 2]
    assert sympy.simplify(spaces[1].value - 1 / sympy.sqrt(TENTH)) == 0
    assert all(c.holds for c in eng.verify())


def test_bad_points_and_sizes():
    with pytest.raises(SpecError, match="d=3 entries"):
        ExactEngine(layer_norm(3, TENTH), (1, 2))
    with pytest.raises(SpecError, match="x\\[2\\]"):
        ExactEngine(layer_norm(3, TENTH), (1, "a", 2))
    with pytest.raises(SpecError, match="symbolic d"):
        ExactEngine(layer_norm(None, TENTH))
    with pytest.raises(LimitError):
        ExactEngine(layer_norm(200, TENTH))


rationals = st.fractions(min_value=-20, max_value=20, max_denominator=12)


@settings(deadline=None, max_examples=25)
@given(d=st.integers(2, 7), data=st.data(),
       eps=st.sampled_from([0, TENTH, sympy.Rational(7, 3)]), variant=st.integers(0, 2))
def test_property_random_points(d, data, eps, variant):
    x = data.draw(st.lists(rationals, min_size=d, max_size=d))
    spec = [layer_norm(d, eps), rms_norm(d, eps), layer_norm(d, eps, eps_inside=False)][variant]
    centered = [xi - sum(x) / d for xi in x] if spec.center else x
    if not any(centered) and (eps == 0 or not spec.eps_inside):
        with pytest.raises(SpecError):
            ExactEngine(spec, x)
        return
    eng = ExactEngine(spec, x)
    assert all(c.holds for c in eng.verify())
    assert sum(es.multiplicity for es in eng.eigen()) == d


@pytest.mark.slow
@pytest.mark.parametrize("d", [16, 32])
def test_symbolic_identities_large_d(d):
    _all_hold(ExactEngine(layer_norm(d, TENTH)).verify(), LABELS_CENTERED)


@pytest.mark.parametrize("polys", ["auto", "sympy"])
def test_projector_idempotence_check_fails_on_a_wrong_matrix(monkeypatch, polys):
    # the projector law is computed by flint's fmpq_mat (or the plain sum): both must see a
    # changed entry, and both must accept the true P = I - 1 1^T/d
    from sympy.polys.domains import QQ

    from symnorm.engines.exact_checks import _idempotent
    monkeypatch.setenv("SYMNORM_POLYS", polys)
    d = 6
    P = [[(QQ(1) if i == j else QQ(0)) - QQ(1, d) for j in range(d)] for i in range(d)]
    assert _idempotent(P)
    P[2][3] = QQ(1, 7)
    assert not _idempotent(P)
    Q = [[QQ(1) if i == j else QQ(0) for j in range(d)] for i in range(d)]
    Q[0][0] = QQ(2)  # diag(2, 1, ...): not idempotent
    assert not _idempotent(Q)

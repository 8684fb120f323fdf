"""The fast path (python-flint, gmpy2) and the pure-SymPy fallback give the same answers.

``SYMNORM_POLYS=sympy`` forces SymPy's polynomials and factoring, ``SYMPY_GROUND_TYPES=python``
and ``MPMATH_NOGMPY=1`` pure-Python integers: the fallback of an install without the
compiled dependencies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import reduce
from pathlib import Path

import sympy as sp

from symnorm.engines import zero

ROOT = Path(__file__).resolve().parents[1]

DOC = """\
```symnorm
use layernorm
scalar a
claim proj.idempotent: P*P == P
claim jacobian.mean_direction: J*ones == 0
claim jacobian.wrong: J*ones == ones
claim scale.law: N(a*x) == a*c/sqrt(a**2*v + eps)
claim scale.wrong: N(a*x) == N(x)
```
"""

EXPECTED = {"proj.idempotent": "proved", "jacobian.mean_direction": "proved",
            "jacobian.wrong": "refuted", "scale.law": "proved",
            "scale.wrong": "refuted"}


def _factor_cases():
    a, b, c = sp.symbols("a b c", real=True)
    t = sp.Dummy("t", positive=True)
    return [4 * a**2 - b**2, (a + b)**3 * (a - 2 * c) * 6, sp.Rational(3, 4) * a**2 * t
            + sp.Rational(1, 2) * a * b * t, a**2 + b**2 + 1, sp.Integer(12),
            sp.sqrt(2) * a**2 - b**2]


def test_factor_list_is_a_factorization_on_both_paths(monkeypatch):
    for path in ("auto", "sympy"):
        monkeypatch.setenv("SYMNORM_POLYS", path)
        for e in _factor_cases():
            coeff, factors = zero.factor_list(e)
            product = reduce(lambda x, y: x * y, (f**m for f, m in factors), coeff)
            assert sp.expand(product - e) == 0, (path, e, coeff, factors)


def test_flint_factors_what_sympy_factors(monkeypatch):
    a, b = sp.symbols("a b", real=True)
    e = 4 * a**2 - b**2
    monkeypatch.setenv("SYMNORM_POLYS", "auto")
    _, factors = zero.factor_list(e)
    assert len(factors) == 2 and all(m == 1 for _, m in factors)


def test_is_zero_same_on_both_paths(monkeypatch):
    v, e, k = sp.symbols("v eps k", positive=True)
    x = sp.Symbol("x", real=True)
    cases = [(1 / sp.sqrt(v + e) - sp.sqrt(v + e) / (v + e), True),
             (1 / sp.sqrt(v + e) - sp.sqrt(v + e) / (v + 2 * e), False),
             (k * x / sp.sqrt(k**2 * x**2 * v) - x / sp.sqrt(x**2 * v), True),
             (x / sp.sqrt(k**2 * x**2) - x / sp.sqrt(x**2), False)]
    for path in ("auto", "sympy"):
        monkeypatch.setenv("SYMNORM_POLYS", path)
        assert [zero.is_zero(c) for c, _ in cases] == [want for _, want in cases], path


def _check_in(env: dict, tmp: Path) -> dict[str, str]:
    doc = tmp / "doc.md"
    doc.write_text(DOC, encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "symnorm", "check", str(doc), "--json"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                       check=False)
    assert p.returncode in (0, 1), p.stderr
    return {v["label"]: v["status"] for v in json.loads(p.stdout)["claims"]}


def test_check_with_the_pure_python_fallback(tmp_path):
    env = dict(os.environ, SYMNORM_POLYS="sympy", SYMPY_GROUND_TYPES="python",
               MPMATH_NOGMPY="1")
    code = ("import mpmath.libmp, sympy.external.gmpy as g; "
            "print(mpmath.libmp.BACKEND, g.GROUND_TYPES)")
    probe = subprocess.run([sys.executable, "-c", code],
                           env=env, capture_output=True, text=True, check=True)
    assert probe.stdout.split() == ["python", "python"]
    assert _check_in(env, tmp_path) == EXPECTED
    assert _check_in(dict(os.environ), tmp_path) == EXPECTED

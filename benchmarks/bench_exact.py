"""Benchmark: the explicit engine vs the plain SymPy route, measured in the same run.

The task: with symbolic x at dimension d, verify the closed form J == P/s - c c^T/(d s^3)
and the three eigen-relations (J 1 = 0, J c = eps/s^3 c, J u = u/s for a basis u of the
complement of span{1, c}).

* baseline: ``Matrix.jacobian`` of N written with ``sqrt``, then ``simplify`` of
  ``J - closed``, ``J 1``, ``J c - eps/s^3 c`` and ``J u - u/s``;
* engine: :class:`symnorm.engines.exact.ExactEngine` (differentiation in F(s), s**2 = W)
  followed by ``verify()`` (which also proves symmetry, trace, basis and projector laws).

Usage::

    python3 benchmarks/bench_exact.py            # baseline at d = 16 (minutes), engine 16, 64
    python3 benchmarks/bench_exact.py --quick    # baseline at d = 8
    python3 benchmarks/bench_exact.py --closed-only   # baseline: closed form only (d = 16)
    python3 benchmarks/bench_exact.py --ground-types   # engine with/without python-flint

Prints one line per measurement and the ratio baseline/engine at the baseline's d.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import sympy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symnorm.engines.exact import ExactEngine
from symnorm.spec import layer_norm

EPS = sympy.Rational(1, 10)


def baseline(d: int, eigen: bool = True) -> tuple[float, bool]:
    """The plain SymPy route; returns (seconds, all residuals simplified to zero)."""
    t0 = time.perf_counter()
    X = sympy.Matrix(sympy.symbols(f"x1:{d + 1}", real=True))
    ones = sympy.ones(d, 1)
    P = sympy.eye(d) - ones * ones.T / d
    c = P * X
    v = (c.T * c)[0, 0] / d
    s = sympy.sqrt(v + EPS)
    N = c / s
    J = N.jacobian(X)
    closed = P / s - c * c.T / (d * s ** 3)
    ok = sympy.simplify(J - closed) == sympy.zeros(d, d)
    if not eigen:
        return time.perf_counter() - t0, bool(ok)
    ok &= sympy.simplify(J * ones) == sympy.zeros(d, 1)
    ok &= sympy.simplify(J * c - EPS / s ** 3 * c) == sympy.zeros(d, 1)
    for k in range(2, d):  # u_k = cross product of 1 and c on coordinates (1, 2, k)
        u = sympy.zeros(d, 1)
        u[0], u[1], u[k] = c[k] - c[1], c[0] - c[k], c[1] - c[0]
        ok &= sympy.simplify(J * u - u / s) == sympy.zeros(d, 1)
    return time.perf_counter() - t0, bool(ok)


def engine(d: int) -> tuple[float, bool]:
    """The explicit engine: build (differentiate) and verify every identity."""
    t0 = time.perf_counter()
    checks = ExactEngine(layer_norm(d, EPS)).verify()
    return time.perf_counter() - t0, all(c.holds for c in checks)


def _engine_in_subprocess(d: int, ground: str, polys: str) -> str:
    env = dict(os.environ, SYMPY_GROUND_TYPES=ground, SYMNORM_POLYS=polys)
    here = str(Path(__file__).resolve().parent)
    code = (f"import sys; sys.path.insert(0, {here!r}); from bench_exact import engine; "
            "from sympy.external.gmpy import GROUND_TYPES as G; engine(4); "
            f"t, ok = engine({d}); print(f'{{G}} {{t:.3f}} s, all proved: {{ok}}')")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=600)
    return out.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="baseline at d = 8 instead of 16")
    ap.add_argument("--baseline-d", type=int, default=None)
    ap.add_argument("--large-d", type=int, default=64)
    ap.add_argument("--closed-only", action="store_true",
                    help="baseline verifies only the closed form (the eigen simplifications "
                         "dominate the baseline; at d = 16 they take many minutes)")
    ap.add_argument("--ground-types", action="store_true",
                    help="engine at d = 32 with SYMPY_GROUND_TYPES=python and =flint")
    args = ap.parse_args()
    bd = args.baseline_d or (8 if args.quick else 16)
    engine(4)  # warm-up: imports and caches
    te, ok_e = engine(bd)
    print(f"engine    d={bd:<3} {te:9.3f} s   all proved: {ok_e}", flush=True)
    tb, ok_b = baseline(bd, eigen=not args.closed_only)
    what = "closed form only" if args.closed_only else "closed form + eigen-relations"
    print(f"baseline  d={bd:<3} {tb:9.3f} s   all zero:   {ok_b}   ({what})", flush=True)
    print(f"ratio baseline/engine at d={bd}: {tb / te:.0f}x (target >= 50x at d = 16)")
    tl, ok_l = engine(args.large_d)
    print(f"engine    d={args.large_d:<3} {tl:9.3f} s   all proved: {ok_l} (target < 10 s at d = 64)")
    if args.ground_types:
        for ground, polys in (("python", "sympy"), ("flint", "sympy"), ("flint", "flint")):
            print(f"engine d=32, SYMPY_GROUND_TYPES={ground:<6} SYMNORM_POLYS={polys:<6}: "
                  f"{_engine_in_subprocess(32, ground, polys)}", flush=True)


if __name__ == "__main__":
    main()

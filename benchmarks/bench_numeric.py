"""Benchmark: the mpmath cross-check (time at d = 256, digits at the paper's point).

Usage::

    python3 benchmarks/bench_numeric.py             # d = 256 at 50 digits, paper point
    python3 benchmarks/bench_numeric.py --d 512 --dps 100
    python3 benchmarks/bench_numeric.py --backends   # gmpy2 vs pure-Python mpmath

Prints the time of ``cross_check`` at a random rational point of dimension d (target < 5 s
at d = 256), the agreeing digits at x = (1, 2, 4), eps = 1/10 for several precisions, and for
contrast the error of plain central differences at 50 digits with a fixed step (which stalls
near 1e-31) and the paper's float64 figure.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import sympy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symnorm.engines.numeric import (
    _Map,
    closed_jacobian,
    cross_check,
    mp_context,
    normalize,
)
from symnorm.spec import layer_norm

EPS = sympy.Rational(1, 10)


def plain_central(dps: int, h_digits: int) -> float:
    """Central differences at ``dps`` digits with step 10**-h_digits, no extra precision."""
    m = _Map.of(layer_norm(3, EPS), 3)
    ctx = mp_context(dps)
    xs = [ctx.mpf(1), ctx.mpf(2), ctx.mpf(4)]
    J = closed_jacobian(ctx, m, xs)
    h = ctx.mpf(10) ** (-h_digits)
    worst = ctx.zero
    for j in range(3):
        xp, xm = list(xs), list(xs)
        xp[j] += h
        xm[j] -= h
        fp, fm = normalize(ctx, m, xp), normalize(ctx, m, xm)
        worst = max(worst, max(abs((fp[i] - fm[i]) / (2 * h) - J[i][j]) for i in range(3)))
    return float(worst)


def _timed_in_subprocess(d: int, dps: int, nogmpy: bool) -> str:
    env = dict(os.environ)
    if nogmpy:
        env["MPMATH_NOGMPY"] = "1"
    here = str(Path(__file__).resolve().parents[1])
    code = (f"import sys, random, time; sys.path.insert(0, {here!r}); import mpmath, sympy; "
            "from symnorm.engines.numeric import cross_check; "
            "from symnorm.spec import layer_norm; rng = random.Random(0); "
            f"x = [sympy.Rational(rng.randint(-100, 100), rng.randint(1, 9)) for _ in range({d})]; "
            "t = time.perf_counter(); "
            f"cross_check(layer_norm({d}, '1/10'), x, dps={dps}); "
            "print(f'mpmath backend {mpmath.libmp.BACKEND}: {time.perf_counter() - t:.3f} s')")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True, timeout=600).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--d", type=int, default=256)
    ap.add_argument("--dps", type=int, default=50)
    ap.add_argument("--backends", action="store_true",
                    help="also time d with mpmath on gmpy2 and on pure Python (MPMATH_NOGMPY)")
    args = ap.parse_args()
    rng = random.Random(0)
    x = [sympy.Rational(rng.randint(-100, 100), rng.randint(1, 9)) for _ in range(args.d)]
    cross_check(layer_norm(3, EPS), [1, 2, 4])  # warm-up
    t0 = time.perf_counter()
    res = cross_check(layer_norm(args.d, EPS), x, dps=args.dps)
    t = time.perf_counter() - t0
    print(f"cross-check d={args.d} dps={args.dps}: {t:.3f} s, max |J_fd - J| = "
          f"{float(res.max_abs_error):.3e}, {res.agreeing_digits} agreeing digits "
          f"(target < 5 s at d = 256)")
    for dps in (15, 30, 50, 100, 200):
        r = cross_check(layer_norm(3, EPS), [1, 2, 4], dps=dps)
        print(f"paper point dps={dps:<4} max error {float(r.max_abs_error):.3e}  "
              f"digits {r.agreeing_digits:<4} step {float(r.step):.2e}  "
              f"work {r.workdps} digits  {r.seconds * 1000:.1f} ms")
    best = min(plain_central(50, k) for k in (10, 12, 14, 16, 18, 20))
    print(f"plain central differences at 50 digits, best fixed step 1e-10..1e-20: {best:.3e}")
    print(f"float64 central differences, h = 1e-6 (paper's figure): {res.float64_error!r} at d="
          f"{args.d}; at (1, 2, 4): {cross_check(layer_norm(3, EPS), [1, 2, 4]).float64_error!r}")
    if args.backends:
        for nogmpy in (False, True):
            print(f"cross-check d={args.d}: {_timed_in_subprocess(args.d, args.dps, nogmpy)}")


if __name__ == "__main__":
    main()

"""Benchmark: where the time of ``symnorm precision`` goes, as ratios to one baseline.

Usage::

    python3 benchmarks/bench_precision.py              # float32, n = 1024, 64 rows
    python3 benchmarks/bench_precision.py --dtype bfloat16 --n 4096 --rows 16

The baseline is the two-pass variance (two sequential sums over the n columns, vectorized
over the rows), measured in the same run. Printed: each method, the exact reference (integer
statistics plus mpmath outputs), and, for contrast, the exact variance by Fractions, each as
seconds and as a multiple of the baseline.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction as F
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symnorm.audit.precision import (
    METHODS,
    Case,
    _reference_outputs,
    exact_stats,
    inputs,
    variance,
)


def _time(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--rows", type=int, default=64)
    args = ap.parse_args()
    case = Case("ratio", "ratio 1e3", "random", F(1000), F(1), F(1, 10**5), F(1000))
    x = inputs(case, args.dtype, args.n, args.rows, seed=0)
    base = _time(lambda: variance(x, "two-pass", args.dtype))
    print(f"{args.dtype}, n = {args.n}, {args.rows} rows; baseline two-pass {base:.4f} s")
    for m in METHODS:
        t = _time(lambda m=m: variance(x, m, args.dtype))
        print(f"  {m:<18} {t:8.4f} s  {t / base:7.2f} x")
    rows = x.astype(np.float64)

    def reference() -> None:
        for r in rows:
            _reference_outputs(exact_stats(r), case.eps, 30)

    t = _time(reference, 1)
    print(f"  {'exact reference':<18} {t:8.4f} s  {t / base:7.2f} x  (integer stats + mpmath y)")

    def fractions() -> None:
        for r in rows[:4]:
            vals = [F(float(v)) for v in r]
            mean = sum(vals) / len(vals)
            sum((v - mean) ** 2 for v in vals)

    t = _time(fractions, 1) * len(rows) / 4
    print(f"  {'Fraction variance':<18} {t:8.4f} s  {t / base:7.2f} x  (variance only, "
          "for contrast)")


if __name__ == "__main__":
    main()

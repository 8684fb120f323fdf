"""The SMT step's cost against the numeric engine's, claim by claim, in one run.

    python benchmarks/bench_smt.py [--repeat 3]

For each claim: the SMT outcome and its time (z3, cvc5 confirmation, realization and exact
re-verification included), and the time the numeric engine takes to sample the same claim
(what `confirmed` used to rest on).  The ratio SMT / numeric is printed per claim and as a
median, so the figures are comparable on a loaded machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from symnorm.check.decide import DEFAULT_DS, _Numeric, _numeric_dims
from symnorm.engines.smt import decide_smt
from symnorm.lang.document import parse_text

CLAIMS = [
    ("use layernorm", "v >= 0"),
    ("use layernorm", "s > 0  given eps > 0"),
    ("use layernorm", "v/(v + eps) <= 1  given eps > 0"),
    ("use layernorm", "N(x).T*N(x) <= d  given eps >= 0"),
    ("use layernorm", "N(x).T*N(x) < d  given eps >= 0"),
    ("vector x, u", "(u.T*x)**2 <= (u.T*u)*(x.T*x)"),
    ("vector x", "(ones.T*x)**2 <= 12*(x.T*x)"),
    ("vector x", "(ones.T*x)**2 <= 100*(x.T*x)"),
    ("", "d*(d - 1) <= 60  given d <= 12"),
    ("scalar a, b", "a*b == 1  given a == 1/b"),
    ("scalar a", "exp(a) < 10**10"),
    ("use layernorm", "v*d**4 >= v*2**d"),
]


def _claim(pre: str, body: str):
    doc = parse_text(f"```symnorm\n{pre}\nclaim c: {body}\n```\n")
    assert not doc.errors, doc.errors
    return doc.scope.claims[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    ratios = []
    print(f"{'claim':48} {'smt':>16} {'smt s':>7} {'numeric s':>9} {'ratio':>6}")
    for pre, body in CLAIMS:
        c = _claim(pre, body)
        t_smt, t_num = [], []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            out = decide_smt(c, c.relation, budget=10)
            t_smt.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            num = _Numeric(c, 50, time.monotonic() + 20)
            num.rng = random.Random(0)
            num.run(c.relation, _numeric_dims(c, DEFAULT_DS), per_d=4, stop_on_differ=False)
            t_num.append(time.perf_counter() - t0)
        s, n = min(t_smt), min(t_num)
        ratios.append(s / n)
        print(f"{body[:48]:48} {out.status:>16} {s:7.2f} {n:9.2f} {s / n:6.2f}")
    print(f"median SMT / numeric time: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()

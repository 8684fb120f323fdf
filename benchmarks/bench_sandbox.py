"""Cost of the per-claim sandbox on the paper's derivation.

Checks ``derivations/paper.md`` in-process (no limits) and in killable worker processes
(time and memory limits), alternating, and prints the ratio of the medians. Target: the
sandbox makes the paper's document at most 20% slower (ratio <= 1.20).

    python benchmarks/bench_sandbox.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from symnorm.check.run import check_document

PAPER = Path(__file__).resolve().parents[1] / "derivations" / "paper.md"


def timed(sandbox: bool) -> tuple[float, int]:
    t = time.perf_counter()
    res = check_document(PAPER, sandbox=sandbox)
    proved = sum(v.status == "proved" for v in res.verdicts)
    return time.perf_counter() - t, proved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    timed(False)  # warm caches and imports once for both
    plain, boxed = [], []
    for _ in range(args.repeat):
        t, n1 = timed(False)
        plain.append(t)
        t, n2 = timed(True)
        boxed.append(t)
        assert n1 == n2, "the sandbox changed verdicts"
    p, b = statistics.median(plain), statistics.median(boxed)
    print(f"paper.md: {n1} claims proved")
    print(f"in-process  median {p:.2f} s  ({', '.join(f'{x:.2f}' for x in plain)})")
    print(f"sandboxed   median {b:.2f} s  ({', '.join(f'{x:.2f}' for x in boxed)})")
    print(f"ratio sandboxed / in-process = {b / p:.2f}  (target <= 1.20)")


if __name__ == "__main__":
    main()

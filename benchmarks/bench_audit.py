"""Benchmark: spec inference and conformance on the acceptance table (target < 2 s each).

Usage::

    python3 benchmarks/bench_audit.py            # every row, numpy and (if installed) torch
    python3 benchmarks/bench_audit.py --large    # also larger tensors (BatchNorm N=16 C=64 ...)

For each row of ``symnorm.audit.examples`` prints whether the inferred spec equals the
true one (eps within 1%), the inference time of a fresh implementation (the first, cold,
in the process and a second one), the number of implementation calls, and the ratio of the
inference time to the same number of plain calls of the implementation measured in this
run (the probes' own overhead).  Then the conformance time against the true spec.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symnorm.audit import as_target, infer, spec_differences
from symnorm.audit.conform import conforms
from symnorm.audit.examples import Case, numpy_cases
from symnorm.family.layout import parse_layout, parse_sizes


def _cases(large: bool) -> list[Case]:
    out = numpy_cases()
    try:
        from symnorm.audit.examples import torch_cases
        out += torch_cases()
    except ImportError:
        print("torch not installed: numpy rows only")
    if large:
        import torch

        from symnorm.presets import torch as PT
        out += [
            Case("nn.BatchNorm2d N=16 C=64 H=W=8", lambda: torch.nn.BatchNorm2d(64),
                 "N C H W", "N=16 C=64 H=8 W=8",
                 lambda: PT.batch_norm2d(sizes="N=16 C=64 H=8 W=8")),
            Case("nn.LayerNorm N=4 T=16 D=512", lambda: torch.nn.LayerNorm(512), "N T D",
                 "N=4 T=16 D=512", lambda: PT.layer_norm(sizes="N=4 T=16 D=512")),
            Case("nn.GroupNorm(32) C=64 H=W=8", lambda: torch.nn.GroupNorm(32, 64), "N C H W",
                 "N=4 C=64 H=8 W=8", lambda: PT.group_norm(32, sizes="N=4 C=64 H=8 W=8")),
        ]
    return out


def _plain_calls(case: Case, calls: int) -> float:
    lay = parse_layout(case.layout)
    shape = tuple(int(n) for _, n in parse_sizes(case.sizes, lay))  # type: ignore[arg-type]
    t = as_target(case.make())
    x = np.random.default_rng(0).standard_normal(shape)
    t(x)
    start = time.perf_counter()
    for _ in range(calls):
        t(x)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--large", action="store_true", help="also larger tensors")
    args = ap.parse_args()
    try:  # one thread: tiny tensors, and the machine is shared with other jobs
        import torch
        torch.set_num_threads(1)
    except ImportError:
        pass
    print(f"{'implementation':34} {'equal':6} {'cold s':>7} {'warm s':>7} {'calls':>6} "
          f"{'x plain':>8} {'conform s':>9}")
    worst, failures = 0.0, 0
    for case in _cases(args.large):
        t0 = time.perf_counter()
        r = infer(case.make(), case.layout, case.sizes)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        r = infer(case.make(), case.layout, case.sizes)
        warm = time.perf_counter() - t0
        diff = ["no spec"] if r.spec is None else spec_differences(r.spec, case.truth())
        ratio = warm / max(_plain_calls(case, r.calls), 1e-9)
        t0 = time.perf_counter()
        ok = conforms(case.make(), case.truth()).agree
        conf = time.perf_counter() - t0
        worst = max(worst, cold, warm)
        failures += bool(diff) + (not ok)
        print(f"{case.name:34} {'yes' if not diff else 'NO':6} {cold:7.3f} {warm:7.3f} "
              f"{r.calls:6d} {ratio:8.1f} {conf:9.3f}" + (f"  {diff}" if diff else "")
              + ("" if ok else "  (does not conform)"))
    print(f"slowest inference {worst:.3f} s (target < 2 s); {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

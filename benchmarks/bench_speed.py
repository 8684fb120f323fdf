"""Benchmark: the speed targets of issue 12, each against a baseline measured in the same run.

Usage::

    python3 benchmarks/bench_speed.py                   # baseline: commit f678d26
    python3 benchmarks/bench_speed.py --baseline REV    # any other commit
    python3 benchmarks/bench_speed.py --only check,paper
    python3 benchmarks/bench_speed.py --only derive512  # derive --d 512 (minutes; not default)

The default baseline, f678d26, is main just before the second round of speed work was
merged, a commit that reads today's ``derivations/`` (33ec5e2, the round's merge base,
ends 4 claims of it in ``error`` and reads 3 fewer, so its verdicts are not comparable).  The baseline is
the package as it was at ``REV`` (``git archive`` into a temporary folder);
both trees run the same commands in fresh processes, one after the other, so machine load
affects both alike (the figures are wall-clock seconds on a shared machine: compare the
ratios, not the absolute values). Each line prints the target, the time of this tree, the
time of the baseline and their ratio, as wall-clock and as CPU seconds (the process and
the workers it started; on a loaded machine CPU time is the steadier figure).
``check derivations/`` also prints its slowest claim (the issue's 2 s per claim), the default
per-claim limit as a multiple of it (the issue's 10x), and whether every verdict (file,
label, status, scope, engine) is the same in both trees.  ``claims`` decides every claim of
``derivations/`` in turn in one process and prints, in place of (wall, CPU), the slowest
claim's CPU seconds and all claims' CPU seconds: the per-claim figure that competing
processes do not inflate.  The load average is printed before and after: wall-clock targets
mean something only on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAPER = ROOT / "derivations" / "paper.md"

NUMERIC_256 = (
    "import random, time, sympy\n"
    "from symnorm.engines.numeric import cross_check\n"
    "from symnorm.spec import layer_norm\n"
    "rng = random.Random(256)\n"
    "x = [sympy.Rational(rng.randint(-20, 20), rng.randint(1, 9)) for _ in range(256)]\n"
    "t, c = time.monotonic(), time.process_time()\n"
    "cross_check(layer_norm(256, '1/10'), x, dps=50)\n"
    "print(time.monotonic() - t, time.process_time() - c)\n")
EXPLICIT_64 = (
    "import time, sympy\n"
    "from symnorm.engines.exact import ExactEngine\n"
    "from symnorm.spec import layer_norm\n"
    "t, c = time.monotonic(), time.process_time()\n"
    "ExactEngine(layer_norm(64, sympy.Rational(1, 10))).verify()\n"
    "print(time.monotonic() - t, time.process_time() - c)\n")

CLAIMS_CPU = (
    "import glob, sys, time\n"
    "from symnorm.check.decide import decide\n"
    "from symnorm.lang.document import read_document\n"
    "rows = []\n"
    "for path in sorted(glob.glob(sys.argv[1] + '/*.md')):\n"
    "    doc = read_document(path)\n"
    "    for c in doc.scope.claims:\n"
    "        t = time.process_time()\n"
    "        decide(c)\n"
    "        rows.append((time.process_time() - t, c.label))\n"
    "top = max(rows)\n"
    "print(f'{top[1]} {top[0]:.2f}')\n"
    "print(sum(r[0] for r in rows))\n")

#: name -> (target seconds, what is timed)
TARGETS = {
    "check": (15.0, "symnorm check derivations/ (cold, wall)"),
    "paper": (3.0, "symnorm check derivations/paper.md (wall)"),
    "derive": (3.0, "symnorm derive (wall)"),
    "report": (5.0, "symnorm report derivations/paper.md (wall)"),
    "explicit64": (5.0, "explicit (exact) engine, symbolic x at d = 64"),
    "numeric256": (2.0, "numeric cross-check at d = 256, 50 digits"),
    "claims": (2.0, "slowest claim of derivations/, CPU, one process"),
    "derive512": (0.0, "symnorm derive --d 512 --no-any-d (wall)"),
}
#: targets run unless ``--only`` names others (derive512 takes minutes in the baseline)
DEFAULT_TARGETS = ("check", "claims", "paper", "derive", "report", "explicit64", "numeric256")


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - no load average on this platform
        return "unknown"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(tree: Path, args: list[str]) -> tuple[tuple[float, float], str]:
    """(wall, CPU) seconds of a fresh process (CPU includes its workers) and its output."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    c = _children_cpu()
    t = time.monotonic()
    # run from the tree itself: Python puts the working folder first on sys.path, before
    # PYTHONPATH (and an editable install of this checkout)
    p = subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True,
                       text=True, check=False)
    took = (time.monotonic() - t, _children_cpu() - c)
    if p.returncode not in (0, 1, 2) or not p.stdout.strip():  # 2: an undecided claim
        raise SystemExit(f"{args} failed in {tree}: {p.stderr[-2000:]}")
    return took, p.stdout


def _one(name: str, tree: Path, tmp: Path) -> tuple[tuple[float, float], dict]:
    extra: dict = {}
    if name == "check":
        took, out = _run(tree, ["-m", "symnorm", "check", str(ROOT / "derivations"), "--json"])
        claims = json.loads(out)["claims"]
        slow = max(claims, key=lambda v: v.get("seconds") or 0)
        extra["slowest"] = f"{slow['label']} {slow['seconds']} s"
        extra["slowest_s"] = float(slow.get("seconds") or 0)
        extra["verdicts"] = sorted((v["file"], v["label"], v["status"], v.get("scope") or "",
                                    v.get("engine") or "") for v in claims)
        return took, extra
    if name == "paper":
        return _run(tree, ["-m", "symnorm", "check", str(PAPER)])[0], extra
    if name == "derive":
        return _run(tree, ["-m", "symnorm", "derive"])[0], extra
    if name == "derive512":
        return _run(tree, ["-m", "symnorm", "derive", "--d", "512", "--no-any-d"])[0], extra
    if name == "report":
        where = tmp / f"report-{tree.name}"
        return _run(tree, ["-m", "symnorm", "report", str(PAPER), "-o",
                           str(where)])[0], extra
    if name == "claims":  # every claim decided in turn in one process: CPU per claim
        _, out = _run(tree, ["-c", CLAIMS_CPU, str(ROOT / "derivations")])
        label, slowest = out.strip().splitlines()[-2].rsplit(" ", 1)
        extra["slowest"] = f"{label} {slowest} s"
        total = float(out.strip().splitlines()[-1])
        extra["total"] = total
        # the figure compared with the target is the slowest claim's CPU seconds
        return (float(slowest), total), extra
    code = {"explicit64": EXPLICIT_64, "numeric256": NUMERIC_256}[name]
    _, out = _run(tree, ["-c", code])
    wall, cpu = map(float, out.strip().splitlines()[-1].split())
    return (wall, cpu), extra


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="f678d26", help="commit to compare against")
    ap.add_argument("--only", default=",".join(DEFAULT_TARGETS),
                    help=f"comma-separated targets of {', '.join(TARGETS)}")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n]
    for n in names:
        if n not in TARGETS:
            raise SystemExit(f"unknown target {n!r}; known: {', '.join(TARGETS)}")
    with tempfile.TemporaryDirectory(prefix="symnorm-bench-") as tmpdir:
        tmp = Path(tmpdir)
        base = tmp / "baseline"
        base.mkdir()
        archive = subprocess.run(["git", "archive", args.baseline, "symnorm"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        probe = "import symnorm; print(symnorm.__file__)"
        for tree in (ROOT, base):
            where = _run(tree, ["-c", probe])[1].strip()
            if not where.startswith(str(tree)):
                raise SystemExit(f"{tree} imports symnorm from {where}")
        print(f"load average before: {_load()}; this tree {ROOT}, baseline {args.baseline}")
        print(f"{'target':<46} {'limit':>5} {'now wall (CPU)':>16} "
              f"{'baseline wall (CPU)':>20} {'ratio wall (CPU)':>17}")
        for n in names:
            limit, what = TARGETS[n]
            now, extra_now = _one(n, ROOT, tmp)
            old, extra_old = _one(n, base, tmp)
            mark = "" if not limit else "ok" if now[0] < limit else "OVER"
            shown = f"{limit:>4.0f}s" if limit else "    -"
            print(f"{what:<46} {shown} {now[0]:>7.2f}s ({now[1]:>5.2f}s) "
                  f"{old[0]:>10.2f}s ({old[1]:>6.2f}s) {old[0] / now[0]:>7.1f}x "
                  f"({old[1] / max(now[1], 1e-9):.1f}x) {mark}", flush=True)
            if n == "claims":
                print(f"    (for this line: slowest claim's CPU s (all claims' CPU s)) now "
                      f"{extra_now['slowest']}, baseline {extra_old['slowest']}")
            if n == "check":
                print(f"    slowest claim (limit 2 s): now {extra_now['slowest']}, "
                      f"baseline {extra_old['slowest']}")
                limit_code = "from symnorm.check.limits import DEFAULT_TIMEOUT; print(DEFAULT_TIMEOUT)"
                DEFAULT_TIMEOUT = float(_run(ROOT, ["-c", limit_code])[1].split()[-1])
                ratio = DEFAULT_TIMEOUT / max(extra_now["slowest_s"], 1e-9)
                print(f"    default per-claim limit {DEFAULT_TIMEOUT:g} s = {ratio:.1f}x the "
                      f"slowest claim (target: at least 10x)")
                same = extra_now["verdicts"] == extra_old["verdicts"]
                print("    verdicts (file, label, status, scope, engine) identical to the "
                      f"baseline: {same}")
                if not same:
                    for a, b in zip(extra_now["verdicts"], extra_old["verdicts"]):
                        if a != b:
                            print(f"      now {a}\n      was {b}")
        print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()

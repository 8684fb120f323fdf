"""Verdicts do not depend on machine load (issue 12).

The corpus is checked once as it is, and once while CPU-bound processes compete for every
core; every claim must get the same status, scope, engine, message, evidence and
counterexample both times.  A claim's budget is CPU time, z3 and cvc5 are bounded by their
resource units and their child's CPU time (``symnorm/engines/child.py``), and wall time is
only a guard, so nothing the engines do depends on how long they waited for a core.  With
the default per-claim limit (``DEFAULT_TIMEOUT``, over 10x the slowest claim of
``derivations/``) even that guard never decides a claim of this corpus.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from symnorm.check.run import check_paths

ROOT = Path(__file__).resolve().parents[1]
#: the slowest documents of derivations/ (explicit engine at d up to 8, SMT, free matrices)
CORPUS = [ROOT / "derivations" / name for name in
          ("paper.md", "published_invariances.md", "family_group_norm.md", "family_fold.md",
           "family_batch_pair.md")]

BUSY = "while True:\n    pass\n"


def _verdicts() -> list[tuple]:
    return sorted((v.file, v.label, v.status, v.scope or "", v.engine or "", v.message or "",
                   repr(v.evidence), repr(v.counterexample))
                  for r in check_paths(CORPUS) for v in r.verdicts)


@pytest.mark.slow
def test_verdicts_identical_under_load():
    quiet = _verdicts()
    assert quiet, "the corpus has claims"
    assert not [v for v in quiet if v[2] in ("undecided", "error")], quiet
    assert any(v[4].startswith("smt") for v in quiet), "the corpus exercises the solvers"
    hogs = [subprocess.Popen([sys.executable, "-c", BUSY])
            for _ in range(max(2, os.cpu_count() or 2))]
    try:
        loaded = _verdicts()
    finally:
        for p in hogs:
            p.kill()
            p.wait()
    assert loaded == quiet

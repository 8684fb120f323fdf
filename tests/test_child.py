"""Work bounded by resources, not by the clock (issue 12): the forked child and z3's units.

A limit that decides what the solvers answer must be one another process cannot eat into:
the child's CPU time (``RLIMIT_CPU``) and z3's resource units.  Wall time is only a guard.
"""

from __future__ import annotations

import os
import time

import pytest

from symnorm.engines import smt
from symnorm.engines.child import forked, wall_guard
from symnorm.lang.document import parse_text


def test_items_arrive_in_order_and_an_exception_ends_the_list():
    def job():
        yield 1
        yield {"a": [2, 3]}
        raise ValueError("stop")
    assert forked(job, 5.0) == [1, {"a": [2, 3]}]


def test_a_spinning_child_is_stopped_by_its_cpu_time():
    """One second of CPU: the child is killed by RLIMIT_CPU long before the wall guard."""
    def job():
        yield "started"
        while True:
            pass
    assert wall_guard(1.0) >= 4.0
    t0 = time.monotonic()
    assert forked(job, 1.0, wall_seconds=60.0) == ["started"]
    assert time.monotonic() - t0 < 30  # not the 60 s guard (generous: a loaded machine)


def test_a_sleeping_child_is_stopped_by_the_wall_guard():
    """Sleeping spends no CPU, so only the guard ends it; what it is stopped at is nothing."""
    def job():
        time.sleep(30)
        yield "late"
    assert forked(job, 1.0, wall_seconds=0.5) == []


def test_the_child_is_reaped():
    forked(lambda: iter(["x"]), 1.0)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


pytestmark_smt = pytest.mark.skipif(not smt.solvers_available(), reason="z3/cvc5 missing")


@pytestmark_smt
def test_z3_work_is_counted_in_units_and_an_empty_allowance_decides_nothing():
    """The allowance is z3's resource count: a tiny one ends as unknown however idle the
    machine is, and a full one proves the claim; both the same on every run."""
    doc = parse_text("```symnorm\nuse layernorm\nclaim v0: v >= 0\n```\n")
    c = doc.scope.claims[0]
    tiny = smt.decide_smt(c, c.relation, budget=1e-6)
    assert tiny.status == "unknown"
    assert smt.decide_smt(c, c.relation, budget=10).status == "proved"
    effort = smt.Effort(1.0)
    assert effort.units == 1000 * smt.Z3_UNITS_PER_MS
    assert effort.cap(10 ** 9) == effort.units and effort.cap(1) == smt.Z3_UNITS_PER_MS


@pytestmark_smt
def test_spent_units_are_what_z3_counted():
    import z3
    x, y = z3.Reals("x y")
    s = z3.Solver()
    s.add(x * x + y * y < 1, x * y > 1)
    effort = smt.Effort(1.0)
    before = effort.units
    assert effort.solve(s, 1000) == z3.unsat
    assert 0 < before - effort.units <= 1000 * smt.Z3_UNITS_PER_MS

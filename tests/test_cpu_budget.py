"""A claim's time limit is a CPU budget that stops even a single long engine step.

The engines check their budget between steps; a worker also gets ``ITIMER_PROF`` for the
whole budget (``symnorm/check/run.py::_work_bounded``), so a claim whose one step outlasts
the budget ends ``undecided`` at that budget of CPU time, whatever the machine's load, and
the wall-clock guard (``symnorm/check/limits.py::wall_guard``) is only a last resort.
"""

from __future__ import annotations

from symnorm.check.limits import wall_guard
from symnorm.check.run import check_text

HEAVY = """```symnorm
use layernorm
let d = 64
claim heavy: jacobian(N(x), x) * jacobian(N(x), x) == J * J * J
```
"""


def test_a_long_step_is_stopped_by_the_cpu_budget() -> None:
    (v,) = check_text(HEAVY, "heavy.md", timeout=1.0).verdicts
    assert v.status == "undecided", (v.status, v.message)
    assert "time limit of 1 s exceeded (CPU time)" in v.message, v.message


def test_a_light_claim_is_decided_within_the_budget() -> None:
    light = HEAVY.replace("let d = 64", "let d = 3").replace("J * J * J", "J * J")
    (v,) = check_text(light, "light.md", timeout=30.0).verdicts
    assert v.status == "proved", (v.status, v.message)  # J is jacobian(N(x), x) itself


def test_the_wall_guard_leaves_the_cpu_budget_room_under_load() -> None:
    # at load 6 on two cores a worker gets about a third of a core
    assert wall_guard(60) >= 3 * 60 and wall_guard(1) > 3

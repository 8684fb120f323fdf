"""``symnorm derive`` shows its steps on a terminal and nothing otherwise (issue 12)."""

from __future__ import annotations

import pytest
from pty_support import in_pty

from symnorm.derivation import derive, derive_steps


def _in_pty(args: list[str], stdout_pipe: bool = False) -> tuple[int, str, str]:
    """Run derive on a terminal 160 columns wide (its step lines are long)."""
    return in_pty(args, stdout_pipe=stdout_pipe, columns=160)


def test_steps_on_a_terminal():
    code, seen, _ = _in_pty(["derive", "--d", "30", "--no-any-d"])
    assert code == 0, seen
    assert "0/5 steps" in seen and "5/5 steps" not in seen.split("symnorm derive:")[0]
    for step in ("differentiating", "proving the identities at x",
                 "eigenvectors of the complement (28 of 28)", "eigen-decomposition",
                 "mpmath cross-check", "BatchNorm companion"):
        assert step in seen, step
    report = seen[seen.index("symnorm derive: LayerNorm"):]
    assert "steps |" not in report  # the bar is gone before the results


@pytest.mark.parametrize("args, stdout_pipe", [(["derive", "--d", "5", "--no-any-d", "--json"],
                                                False),
                                               (["derive", "--d", "5", "--no-any-d"], True)])
def test_no_steps_for_json_or_when_stdout_is_not_a_terminal(args, stdout_pipe):
    code, seen, piped = _in_pty(args, stdout_pipe)
    assert code == 0
    assert "steps |" not in seen + piped and "differentiating" not in seen + piped
    assert "\r" not in piped


def test_the_callback_sees_every_step_in_order():
    calls: list[tuple] = []
    derive(4, any_d=False, progress=lambda *a: calls.append(a))
    steps = [c[0] for c in calls if len(c) == 1]
    assert steps == ["differentiating", "proving the identities at x",
                     "proving them for symbolic x", "eigen-decomposition",
                     "mpmath cross-check", "BatchNorm companion"]
    assert len(steps) == derive_steps(4, any_d=False)
    assert ("proving the identities at x", "eigenvectors of the complement (2 of 2)") in calls
    assert derive_steps(3) == 7 and derive_steps(512, any_d=False) == 5

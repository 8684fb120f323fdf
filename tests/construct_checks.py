"""The two checks every construct table of the LaTeX reader runs on its rows.

A row is ``(preamble, latex, truth)``, where ``truth`` computes with numpy whether the
equation holds. A variant is ``(old, new, numeric)``: one token of ``latex`` changed, and
``numeric`` says with numpy whether the changed equation holds (it must not).
"""

from __future__ import annotations

from collections.abc import Callable

from test_latex_real_world2 import verdicts


def assert_proved(preamble: str, latex: str, truth: Callable[[], bool]) -> None:
    """The row is true by numpy, and every claim it makes is proved."""
    assert truth() is True
    got = verdicts(preamble, latex)
    claims = [s for _, s, _ in got if s != "defined"]
    assert claims and set(claims) == {"proved"}, got


def assert_variant_refuted(preamble: str, latex: str, old: str, new: str,
                           numeric: Callable[[], bool]) -> None:
    """The one-token variant is false by numpy and refuted."""
    assert latex.count(old) == 1 and numeric() is False
    got = verdicts(preamble, latex.replace(old, new))
    assert "refuted" in [s for _, s, _ in got], got

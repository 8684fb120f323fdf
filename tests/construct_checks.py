"""The two checks every construct table of the LaTeX reader runs on its rows.

A row is ``(preamble, latex, truth)``, where ``truth`` computes with numpy whether the
equation holds. A variant is ``(old, new, numeric)``: one token of ``latex`` changed, and
``numeric`` says with numpy whether the changed equation holds (it must not).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from test_latex_real_world2 import verdicts


def assert_proved(preamble: str, latex: str, truth: Callable[[], bool]) -> None:
    """The row is true by numpy, and every claim it makes is proved."""
    assert truth() is True
    got = verdicts(preamble, latex)
    claims = [s for _, s, _ in got if s != "defined"]
    assert claims and set(claims) == {"proved"}, got


def assert_variant_refuted(preamble: str, latex: str, old: str, new: str,
                           numeric: Callable[[], bool], *, no_error: bool = False) -> None:
    """The one-token variant is false by numpy and refuted (with ``no_error``, and none of
    the equation's relations is an error)."""
    assert latex.count(old) == 1 and numeric() is False
    got = verdicts(preamble, latex.replace(old, new))
    assert "refuted" in [s for _, s, _ in got], got
    assert not no_error or "error" not in [s for _, s, _ in got], got


def assert_corpus_verdict(key: str, preamble: str, latex: str, truth: bool,
                          refused: dict[str, str], *,
                          defined_only: dict[str, str] | None = None,
                          unchecked_false: dict[str, str] | None = None,
                          proved_link_of_false: dict[str, tuple[str, str]] | None = None) -> None:
    """One entry of a real-world corpus has the verdict its tables give it.

    ``refused``: key -> a substring of the first error.  ``defined_only``: a true entry whose
    rows are all definitions, key -> the name defined; ``unchecked_false``: the same for a false
    entry.  ``proved_link_of_false``: a false entry of which one link is proved, key -> (that
    link's label, the name defined).  Any other entry is accepted and every claim it makes is
    proved (true) or at least one is refuted (false).
    """
    got = verdicts(preamble, latex)
    errors = [m for _, s, m in got if s == "error"]
    if key in refused:
        assert errors and refused[key] in errors[0], got
        return
    assert not errors, got
    claims = [s for _, s, _ in got if s != "defined"]
    defined = defined_only if truth else unchecked_false
    if defined and key in defined:
        assert claims == [], got
        assert any(lb.endswith("." + defined[key]) for lb, _, _ in got), got
    elif not truth and proved_link_of_false and key in proved_link_of_false:
        link, name = proved_link_of_false[key]
        assert claims == ["proved"] and (link, "proved") in [(lb, s) for lb, s, _ in got], got
        assert any(lb.endswith("." + name) and s == "defined" for lb, s, _ in got), got
    elif truth:
        assert claims and set(claims) <= {"proved"}, got
    else:
        assert "refuted" in claims, got


def assert_refused(preamble: str, latex: str, words: tuple[str, ...]) -> None:
    """The row is refused, and its first error names every one of ``words``."""
    got = verdicts(preamble, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors, got
    for w in words:
        assert w in errors[0], errors


def corpus_param(key: str, wrong_verdict: dict[str, str]) -> object:
    """A corpus entry's test parameter: a known wrong verdict is a strict xfail (its reason the
    finding), so that it fails loudly once fixed, until the table is updated."""
    if key in wrong_verdict:
        return pytest.param(key, marks=pytest.mark.xfail(strict=True,
                                                          reason=wrong_verdict[key]))
    return key

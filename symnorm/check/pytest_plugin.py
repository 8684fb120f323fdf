"""pytest plugin: ``pytest derivations/`` collects each claim of each document as a test.

Refuted, error and undecided claims fail, with the counterexample or message in the
failure report.  A LaTeX equation read as a definition is an item too: it passes (nothing was
checked that could fail) but carries the status ``defined`` in its ``user_properties`` and is
listed in the terminal summary, so that no equation passes in silence.  Only Markdown files
holding a ``symnorm`` or ``latex LABEL`` fence are collected.  The plugin is registered
through the ``pytest11`` entry point when symnorm is installed; from a source checkout that
is not installed use ``pytest -p symnorm.check.pytest_plugin``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..safetext import reproduce_command, visible
from .verdict import DEFINED, Verdict

_DEFINED_KEY = pytest.StashKey[list]()


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".md" and file_path.is_file():
        from ..errors import LimitError
        from ..safeio import read_capped
        try:  # the same bounded read as `symnorm check`: no pipe, nothing over the cap
            text = read_capped(file_path).decode("utf-8", errors="replace")
        except LimitError:  # collected, so that the size error is reported
            return DerivationFile.from_parent(parent, path=file_path)
        except OSError:
            return None
        if "```symnorm" in text or "```latex " in text:
            return DerivationFile.from_parent(parent, path=file_path)
    return None


class DerivationFile(pytest.File):
    def collect(self):
        from .run import check_document
        result = check_document(self.path)
        for v in result.verdicts:
            yield ClaimItem.from_parent(self, name=v.label, verdict=v)


def _was(status: str) -> str:
    """``is refuted``, ``is undecided``, ``has an error``: what happened, as a sentence."""
    return "has an error" if status == "error" else f"is {status}"


class ClaimFailed(Exception):
    pass


class ClaimItem(pytest.Item):
    def __init__(self, *, verdict: Verdict, **kwargs) -> None:
        super().__init__(**kwargs)
        self.verdict = verdict
        self.user_properties.append(("symnorm_status", verdict.status))

    def runtest(self) -> None:
        if self.verdict.status == DEFINED:
            self.config.stash.setdefault(_DEFINED_KEY, []).append(self.verdict)
            return
        if not self.verdict.ok:
            raise ClaimFailed(self.verdict)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ClaimFailed):
            v = self.verdict
            lines = [f"{v.file}:{v.line}: claim {v.label!r} {_was(v.status)}",
                     f"  statement: {v.statement}"]
            if v.counterexample:
                lines.append("  counterexample: " + json.dumps(v.counterexample))
            if v.message:
                lines.append("  " + v.message)
            lines.append("  reproduce: " + reproduce_command(v.file, v.label))
            return visible("\n".join(lines))  # document text must not drive the terminal
        return super().repr_failure(excinfo)

    def reportinfo(self):
        what = "definition" if self.verdict.status == DEFINED else "claim"
        return self.path, self.verdict.line - 1, f"{what} {self.verdict.label}"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    defined = config.stash.get(_DEFINED_KEY, [])
    if defined:
        terminalreporter.section("symnorm definitions (passed, not checked)")
        for v in defined:
            terminalreporter.write_line(f"defined {v.label}: {v.statement}  ({v.file}:{v.line})")

"""A hostile .gitignore never stops or stalls a folder walk (red-team round 7)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from symnorm.check.walk import collect_paths

DOC = "```symnorm\nuse layernorm\nclaim ok: J*ones == 0\n```\n"
ROOT = str(Path(__file__).resolve().parents[1])


def _check(folder: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symnorm", "check", str(folder)],
                          capture_output=True, text=True, timeout=timeout, check=False,
                          env={"PYTHONPATH": ROOT, "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize("rules", ["\\\n", "!\n", "a/**/b\\\n", "\\\n!\n*skip.md\n"])
def test_invalid_gitignore_lines_are_dropped_not_fatal(tmp_path, rules):
    (tmp_path / ".gitignore").write_text(rules)
    (tmp_path / "d.md").write_text(DOC)
    (tmp_path / "skip.md").write_text(DOC)
    p = _check(tmp_path)
    assert "Traceback" not in p.stderr
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 proved" in p.stdout or "2 proved" in p.stdout
    # the valid rule beside invalid ones still applies
    want = [tmp_path / "d.md"] if "*skip.md" in rules else [tmp_path / "d.md",
                                                             tmp_path / "skip.md"]
    assert collect_paths([tmp_path]) == want


def test_refuted_claim_under_hostile_gitignore_exits_by_verdict(tmp_path):
    (tmp_path / ".gitignore").write_text("\\\n!\n")
    (tmp_path / "d.md").write_text("```symnorm\nuse layernorm\nclaim bad: J*ones == ones\n```\n")
    p = _check(tmp_path)
    assert "Traceback" not in p.stderr
    assert p.returncode == 1 and "refuted" in p.stdout


def test_backtracking_gitignore_pattern_is_skipped(tmp_path):
    # with pathspec's regex this pattern against this name backtracks for far longer than
    # the timeout; skipped, the walk is immediate
    (tmp_path / ".gitignore").write_text("*a" * 39 + "*b\n")
    (tmp_path / ("a" * 45 + ".md")).write_text(DOC)
    p = _check(tmp_path, timeout=60)
    assert p.returncode == 0 and "1 proved" in p.stdout, p.stdout + p.stderr


def test_few_star_patterns_still_apply(tmp_path):
    (tmp_path / ".gitignore").write_text("**/x*y*z*.md\n" + "*a" * 9 + "*b\n")
    (tmp_path / "x1y2z3.md").write_text(DOC)
    (tmp_path / "keep.md").write_text(DOC)
    assert collect_paths([tmp_path]) == [tmp_path / "keep.md"]


def test_gitignore_read_is_bounded(tmp_path):
    # lines beyond the first 10,000 are not read: the rule on line 10,001 does not apply
    (tmp_path / ".gitignore").write_text("# c\n" * 10_000 + "d.md\n")
    (tmp_path / "d.md").write_text(DOC)
    assert collect_paths([tmp_path]) == [tmp_path / "d.md"]
    (tmp_path / ".gitignore").write_text("d.md\n" + "# c\n" * 10)
    assert collect_paths([tmp_path]) == []


def test_skipped_folders_are_named_on_stderr(tmp_path):
    (tmp_path / "d.md").write_text(DOC)
    for sub, plant in [("venv", "pyvenv.cfg"), ("rep", "evidence.json"), ("ign", None),
                       ("open", None)]:
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "x.md").write_text(DOC)
        if plant:
            (tmp_path / sub / plant).write_text("")
    (tmp_path / "rep" / "report.html").write_text("")
    (tmp_path / ".gitignore").write_text("ign/\n")
    p = _check(tmp_path)
    assert p.returncode == 0 and "2 proved" in p.stdout, p.stdout + p.stderr
    [line] = [s for s in p.stderr.splitlines() if s.startswith("skipped:")]
    assert line.startswith("skipped: 3 folders (")
    for sub, why in [("venv", "virtual environment"), ("rep", "symnorm report"),
                     ("ign", ".gitignore")]:
        assert f"{tmp_path / sub}: {why}" in line
    assert f"{tmp_path / 'open'}:" not in line


def test_nothing_skipped_says_nothing(tmp_path):
    (tmp_path / "d.md").write_text(DOC)
    p = _check(tmp_path)
    assert p.returncode == 0 and "skipped" not in p.stderr

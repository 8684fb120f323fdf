"""Hardening found by a security red team after the first round (issue 15)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from symnorm.report.texsafe import safe_math
from symnorm.safetext import reproduce_command, visible

BAD = "```symnorm\nscalar a\nclaim wrong: a == a + 1\n```\n"


def _symnorm(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, "-m", "symnorm", *args], cwd=cwd, env=env,
                          capture_output=True, timeout=300, check=False)


def test_reproduce_line_names_the_bytes_of_a_non_utf8_file_name():
    name = os.fsdecode(b"\x85doc.md")  # what Python makes of the byte 0x85
    line = reproduce_command(name, "wrong")
    assert "$'\\x85doc.md'" in line and "udc85" not in line
    out = subprocess.run(["bash", "-c", f"printf '%s' {line.split(' ', 2)[2].split(' --')[0]}"],
                         capture_output=True, check=False)
    assert out.stdout == b"\x85doc.md"  # bash turns the printed quoting into that byte


@pytest.mark.skipif(sys.platform != "linux", reason="byte file names")
def test_report_of_a_non_utf8_file_name_is_written(tmp_path: Path):
    (tmp_path / os.fsdecode(b"\x85doc.md")).write_text(BAD)
    res = _symnorm("report", os.fsdecode(b"\x85doc.md"), "-o", "out", cwd=tmp_path)
    assert res.returncode in (0, 1), res.stderr.decode(errors="replace")
    assert b"Traceback" not in res.stderr
    assert (tmp_path / "out" / "report.html").exists()


def test_a_link_among_the_parents_of_a_relative_output_folder_is_refused(tmp_path: Path):
    (tmp_path / "victim").mkdir()
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "link").symlink_to("../victim")
    (tmp_path / "doc.md").write_text("# ok\n")
    res = _symnorm("report", "doc.md", "-o", "base/link/out", cwd=tmp_path)
    assert res.returncode == 2 and b"symbolic link" in res.stderr
    assert list((tmp_path / "victim").iterdir()) == []


def test_tabs_are_shown_not_passed_to_the_terminal():
    assert visible("a\tb") == "a\\x09b"


def test_math_nested_past_what_tex_allows_is_not_emitted_as_math():
    deep = "\\left(" * 300 + "x" + "\\right)" * 300
    assert safe_math(deep) is None
    assert safe_math("\\left(x\\right)") is not None

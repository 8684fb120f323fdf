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


# --- red-team round 7 ----------------------------------------------------------------------

def test_report_never_replaces_a_file_symnorm_did_not_write(tmp_path):
    (tmp_path / "doc.md").write_text(BAD, encoding="utf-8")
    out = tmp_path / "o"
    out.mkdir()
    (out / "report.html").write_text("my own notes", encoding="utf-8")
    p = _symnorm("report", "doc.md", "-o", "o", cwd=tmp_path)
    assert p.returncode == 2 and b"was not written by symnorm" in p.stderr, p.stderr
    assert b"Traceback" not in p.stderr
    assert (out / "report.html").read_text(encoding="utf-8") == "my own notes"
    # the input document itself, with -o .
    (tmp_path / "report.md").write_text(BAD, encoding="utf-8")
    p = _symnorm("report", "report.md", "-o", ".", cwd=tmp_path)
    assert p.returncode == 2 and (tmp_path / "report.md").read_text(encoding="utf-8") == BAD
    # what symnorm wrote itself it replaces on the next run
    fresh = tmp_path / "fresh"
    assert _symnorm("report", "doc.md", "-o", "fresh", cwd=tmp_path).returncode == 0
    first = (fresh / "report.md").read_bytes()
    assert _symnorm("report", "doc.md", "-o", "fresh", cwd=tmp_path).returncode == 0
    assert (fresh / "report.md").read_bytes().startswith(first[:40])


def test_written_reports_hold_no_raw_controls_or_bidi_overrides(tmp_path):
    doc = ("# Title \u202eevil\u202c with \x1b[31mred\x1b[0m and a bell \x07\n\n"
           "```symnorm\nscalar a\nclaim ok: a == a  # \u202e comment\n```\n")
    (tmp_path / "doc.md").write_text(doc, encoding="utf-8")
    assert _symnorm("report", "doc.md", "-o", "o", cwd=tmp_path).returncode == 0
    for name in ("report.md", "report.html", "report.tex", "evidence.json"):
        text = (tmp_path / "o" / name).read_text(encoding="utf-8")
        assert not any(ch in text for ch in "\u202e\u202c\x1b\x07"), name
    assert "[U+202E]" in (tmp_path / "o" / "report.md").read_text(encoding="utf-8")


def test_latex_reproduce_line_is_never_a_quoted_command(tmp_path):
    name = "x'$(touch PWNED3)'y.md"
    (tmp_path / name).write_text(BAD, encoding="utf-8")
    assert _symnorm("report", name, "-o", "rep", cwd=tmp_path).returncode == 0
    tex = (tmp_path / "rep" / "report.tex").read_text(encoding="utf-8")
    line = next(ln for ln in tex.splitlines() if "Reproduce" in ln)
    assert "touch" not in line and "report.md or report.html" in line
    # a plain file name is printed as the command
    (tmp_path / "plain.md").write_text(BAD, encoding="utf-8")
    assert _symnorm("report", "plain.md", "-o", "rep2", cwd=tmp_path).returncode == 0
    tex = (tmp_path / "rep2" / "report.tex").read_text(encoding="utf-8")
    assert "symnorm check ../plain.md --only wrong" in tex.replace("\\allowbreak{}", "")

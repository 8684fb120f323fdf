"""Hostile claim documents: none executes code, none hangs, each ends as error/undecided/refuted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from symnorm.check.run import check_text

ROOT = Path(__file__).resolve().parents[1]
MARK = "/tmp/symnorm-pwned-marker"

INJECTIONS = [
    f"claim x: __import__('os').system('touch {MARK}') == 0",
    f"claim x: eval(\"open('{MARK}','w')\") == 0",
    f"claim x: exec('open(\"{MARK}\",\"w\")') == 0",
    "claim x: ().__class__.__bases__[0].__subclasses__() == 0",
    f"let y = open('{MARK}', 'w')",
    f"claim x: sympify('open(\"{MARK}\",\"w\")') == 0",
    "claim x: lambda: 0 == 0",
    "claim x: x.__class__ == 0",
    f"use os(system='touch {MARK}')",
    f"latex L: \\input{{{MARK}}}",
    "latex L: \\write18{touch " + MARK + "}",
    "latex L: \\immediate\\write18{rm -rf /}",
]

HEAVY = [
    "claim x: 10**10**10 == 1",
    "claim x: 2**2**2**2**2**2 == 3",
    "claim x: factorial(10**9) == 1",
    "claim x: " + "9" * 5000 + " == 1",
    "claim x: " + "(" * 300 + "1" + ")" * 300 + " == 1",
    "claim x: " + "1+" * 60000 + "1 == 1",
    "claim x: b**(10**6) == b**(10**6) + 1",
    "claim x: b**(1/10**7) == 1",
    "claim x: 1.5e99999 == 1",
    "claim x: sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(b**2+1)))))))) == 0",
    "claim x: " + "-" * 500 + "1 == 1",
    "claim x: jacobian(jacobian(jacobian(N(x), x), x), x) == 0",
    "claim x: N(N(N(N(N(N(N(N(x)))))))) == N(x)",
    "claim x: 1/0 == 1",
    "claim x: sqrt(-1) == 0",
    "claim x: log(0) == 0",
    "claim x: b == b == b",
    "claim x: J*J*J*J*J*J*J*J*J*J*J*J*J*J*J*J == J",
    "claim x: P**1000000 == P",
    "claim x: \x00 == 0",
    "claim x: ☃ == 0",
    "claim : 1 == 1",
    "let d = 100000",
    "use layernorm(d=1)",
    "use layernorm(eps=-1)",
    "let N = 3",
    "let F(y) = F(y)",
    "scalar I",
    "vector eps",
]


def _doc(line: str) -> str:
    return "```symnorm\nuse layernorm\nscalar b\n" + line + "\n```\n"


@pytest.fixture(autouse=True)
def _no_marker():
    Path(MARK).unlink(missing_ok=True)
    yield
    assert not Path(MARK).exists(), "a hostile document executed code"


@pytest.mark.parametrize("line", INJECTIONS + HEAVY, ids=range(len(INJECTIONS + HEAVY)))
def test_hostile_claim_is_contained(line):
    res = check_text(_doc(line), file="hostile.md", sandbox=True, timeout=3.0)
    assert res.verdicts, "every hostile line must produce a verdict"
    for v in res.verdicts:
        assert v.status in ("error", "undecided", "refuted"), (line[:80], v.status, v.message)
        if v.status == "error":
            assert v.file == "hostile.md" and v.line >= 1 and v.column >= 1
            assert v.message


def test_rest_of_document_still_checked_after_a_hostile_claim():
    text = ("```symnorm\nuse layernorm\nscalar b\nclaim bomb: 10**10**10 == 1\n"
            "claim x: " + "(" * 300 + "1" + ")" * 300 + " == 1\n"
            "claim good: J*ones == 0\n```\n")
    res = {v.label: v for v in check_text(text, sandbox=True, timeout=3.0).verdicts}
    assert res["good"].status == "proved"
    assert res["x"].status == "error" and "nested too deeply" in res["x"].message


def test_huge_document_and_line_are_rejected(tmp_path):
    f = tmp_path / "big.md"
    f.write_text("```symnorm\nclaim x: " + "1+" * 60_000 + "1 == 1\n```\n")
    p = subprocess.run([sys.executable, "-m", "symnorm", "check", str(f)], capture_output=True, check=False,
                       text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and "too long" in p.stdout and "Traceback" not in p.stderr
    f.write_bytes(b"x" * 3_000_000)
    p = subprocess.run([sys.executable, "-m", "symnorm", "check", str(f)], capture_output=True, check=False,
                       text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and "larger than" in p.stdout


def test_binary_file_is_a_clear_error(tmp_path):
    f = tmp_path / "bin.md"
    f.write_bytes(b"\xff\xfe\x00garbage")
    p = subprocess.run([sys.executable, "-m", "symnorm", "check", str(f)], capture_output=True, check=False,
                       text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and "UTF-8" in p.stdout and "Traceback" not in p.stderr


def test_figure_caption_is_inert_text():
    line = f"figure eps_scale caption=\"{{__import__('os').system('touch {MARK}')}}\""
    res = check_text(_doc(line), file="hostile.md", sandbox=True, timeout=3.0)
    # figures take no caption option: a located error naming it, nothing executed
    (v,) = res.verdicts
    assert v.status == "error" and "caption" in v.message and v.line == 4
    assert not res.figures


def test_duplicate_label_is_an_error():
    res = check_text(_doc("claim x: 1 == 1\nclaim x: 2 == 2"), sandbox=False)
    assert [v.status for v in res.verdicts] == ["proved", "error"]
    assert "duplicate claim label" in res.verdicts[1].message

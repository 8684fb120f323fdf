"""A document with CJK text gives a ``report.tex`` that compiles with XeLaTeX and xeCJK.

Skipped without ``xelatex`` (Debian: texlive-xetex, texlive-lang-chinese, fonts-noto-cjk),
except under ``CI=true``, where ``.ci/run`` installs them and a missing engine fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from symnorm.check.verdict import DocumentResult, Verdict
from symnorm.report.build import write_report

XELATEX = shutil.which("xelatex")

CJK_DOC = """# 归一化改变学习的几何

本文重述论文的解析模型（"一个已声明的解析模型"）。Notation: $s = \\sqrt{v + \\epsilon}$.

```symnorm
use layernorm
claim 径向: J*c == eps/s**3*c
```

한국어 문장과 日本語のかな、全角＃記号％も、\\input{x} も文字として。
"""


def _xelatex() -> str:
    if XELATEX:
        return XELATEX
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("xelatex is required under CI=true (apt-get install texlive-xetex "
                    "texlive-lang-chinese fonts-noto-cjk)")
    pytest.skip("xelatex not installed (apt-get install texlive-xetex texlive-lang-chinese "
                "fonts-noto-cjk)")


def test_cjk_report_compiles_with_xelatex(tmp_path: Path) -> None:
    xelatex = _xelatex()
    v = Verdict("文档.md", 7, "径向", "J*c == eps/s**3*c", "proved", engine="any-d",
                scope="every d >= 2",
                steps=[{"text": "Write the left side in the basis {1, x}:",
                        "latex": r"\langle x, \mathbf{1}\rangle\,x", "side": "left"}],
                evidence=[{"d": 3, "point": {"d": "3", "eps": "1/10", "x": ["1", "2", "4"]},
                           "dps": 50, "second_dps": 70, "lhs": "[['0.25'], ['-1.5'], ['2.0']]",
                           "rhs": "[['0.25'], ['-1.5'], ['2.0']]", "digits": 50.0,
                           "result": "agree"}])
    write_report(CJK_DOC, DocumentResult("文档.md", [v]), tmp_path, date="2026-01-01",
                 sandbox=False)
    tex = (tmp_path / "report.tex").read_text(encoding="utf-8")
    assert r"\usepackage{xeCJK}" in tex and "归一化改变学习的几何" in tex
    assert "[U+5F52]" not in tex
    done = subprocess.run([xelatex, "-interaction=nonstopmode", "-halt-on-error",
                           "-no-shell-escape", "report.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    log = (tmp_path / "report.log").read_text(errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert (tmp_path / "report.pdf").stat().st_size > 10_000
    assert "Undefined control sequence" not in log
    assert "Missing character" not in log  # every CJK glyph found in the CJK font
    assert not (tmp_path / "x.tex").exists()

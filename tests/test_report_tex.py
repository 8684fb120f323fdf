"""``report.tex`` compiles with pdfLaTeX (skipped when ``pdflatex`` is not installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_report_model import DOC, result
from test_report_safety import HOSTILE_DOC, _hostile_result

from symnorm.check.verdict import DocumentResult
from symnorm.report.build import write_report

PDFLATEX = shutil.which("pdflatex")
pytestmark = pytest.mark.skipif(PDFLATEX is None, reason="pdflatex not installed "
                                "(apt-get install texlive-latex-base)")


def _compile(folder: Path) -> str:
    done = subprocess.run(
        [str(PDFLATEX), "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
         "report.tex"], cwd=folder, capture_output=True, text=True, timeout=180, check=False)
    log = (folder / "report.log").read_text(errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert (folder / "report.pdf").stat().st_size > 10_000
    assert "Undefined control sequence" not in log
    return log


def test_report_tex_compiles_with_figures(tmp_path: Path) -> None:
    write_report(DOC, result(), tmp_path, date="2026-01-01")
    log = _compile(tmp_path)
    assert "figures/batch_flip.png" in log


def test_hostile_report_compiles_and_runs_nothing(tmp_path: Path) -> None:
    write_report(HOSTILE_DOC, _hostile_result(), tmp_path, date="2026-01-01")
    log = _compile(tmp_path)
    assert not (tmp_path / "pwned").exists()
    assert "runsystem(" not in log  # no shell command was attempted
    assert re.findall(r"\\openout\d+ = `([^']*)'", log) == ["report.aux"]  # LaTeX's own


_PIECES = ["x", "1", "+", "=", "^", "_", "{", "}", "\\frac", "\\sqrt", "\\left(", "\\right)",
           "\\\\", "&", "\\begin{pmatrix}", "\\end{pmatrix}", "\\text{a", "'", "\\hat",
           "\\sum", "\\left|", "\\right|", "\\middle|", "(", ")", "\\epsilon", " ",
           "\\mathbf", "\\operatorname{tr}", "\\not", "<", ",", "\\,", "\\{", "\\}",
           "\\begin{array}{cc}", "\\end{array}", "^\\top", "\\partial", "\\sqrt[3]", "~",
           "\\sum", "\\log", "\\dots", "\\iff", "\\binom", "\\begin{cases}", "\\end{cases}",
           "\\lvert", "\\big(", "\\mathrm{", "\\substack{", "\\overset", "\\langle"]


def test_whitelisted_random_math_compiles(tmp_path: Path) -> None:
    """Random math that passes the checks must also compile (inline, display, steps)."""
    import random

    from symnorm.check.verdict import Verdict
    from symnorm.report.texsafe import safe_math

    rng = random.Random(6)
    accepted: list[str] = []
    while len(accepted) < 150:
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 14)))
        if safe_math(text) and "$" not in text:
            accepted.append(text)
    prose = "# Random math\n\n" + "\n\n".join(f"Inline ${t}$ here." for t in accepted) + "\n"
    claims = [Verdict("r.md", 1, f"c{k}", "x == x", "proved", latex=t,
                      steps=[{"text": "s", "latex": t}]) for k, t in enumerate(accepted)]
    write_report(prose, DocumentResult("r.md", claims), tmp_path, date="2026-01-01")
    _compile(tmp_path)

"""``report.tex`` compiles with pdfLaTeX (skipped when ``pdflatex`` is not installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_report_model import DOC, result
from test_report_safety import HOSTILE_DOC, _hostile_result

from symnorm.check.verdict import DocumentResult
from symnorm.report.build import write_report

PDFLATEX = shutil.which("pdflatex")
pytestmark = pytest.mark.skipif(PDFLATEX is None, reason="pdflatex not installed "
                                "(apt-get install texlive-latex-base)")


def _compile(folder: Path, min_size: int = 10_000) -> str:
    done = subprocess.run(
        [str(PDFLATEX), "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
         "report.tex"], cwd=folder, capture_output=True, text=True, timeout=180, check=False)
    log = (folder / "report.log").read_text(errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert (folder / "report.pdf").stat().st_size > min_size
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


# --- issue 15: whatever the prose holds, report.tex compiles ----------------------------

HOSTILE_PROSE = {
    "split inline": "Text $\\begin{split}a&=b\\\\c&=d\\end{split}$ end.\n",
    "array extra &": "Text $\\begin{array}{c}a&b\\end{array}$.\n",
    "array 11 columns": "$\\begin{array}{ccccccccccc}1&2&3&4&5&6&7&8&9&10&11\\end{array}$\n",
    "pmatrix 11 columns": "$\\begin{pmatrix}1&2&3&4&5&6&7&8&9&10&11\\end{pmatrix}$\n",
    "cases 3 columns": "$\\begin{cases}1&2&3\\end{cases}$\n",
    "colspec {|}": "Text $\\begin{array}{|}a\\end{array}$.\n",
    "double superscript": "Text $a'_1'$ end.\n",
    "nested root index": "Text $\\sqrt[\\sqrt[3]{2}]{x}$ end.\n",
    "display in a cell": "| a | b |\n|---|---|\n| $$x$$ | y |\n",
    "item starting with [": "- [x] done\n- [not] this\n",
    "code line starting with [": "```\nfoo\n[bar]\n```\n",
    "hard break then [": "a\\\n[b]\n",
    "lists 7 deep": "".join("  " * k + "- a\n" for k in range(7)),
    "enumerate 6 deep": "".join("   " * k + "1. a\n" for k in range(6)),
    "quotes 7 deep": ">" * 7 + " deep\n",
    "mixed 8 deep": "> - > - > - > - x\n\n  ```\n  [c]\n  ```\n",
    "very long word": "a" * 250_000 + "\n",
    "very long line of math": "$" + "x+" * 60_000 + "x$\n",
}


@pytest.mark.parametrize("name", list(HOSTILE_PROSE))
def test_hostile_prose_compiles(name: str, tmp_path: Path) -> None:
    write_report("# T\n\n" + HOSTILE_PROSE[name], DocumentResult("t.md", []), tmp_path,
                 date="2026-01-01", sandbox=False)
    assert max(len(line) for line in (tmp_path / "report.tex").read_text().split("\n")) <= 1000
    _compile(tmp_path, min_size=1_000)


_PROSE_PIECES = ["x", " ", "\n", "\n\n", "- ", "1. ", "> ", "  ", "[", "]", "(", ")",
                 "`", "```\n", "$", "$$", "\\\\", "\\", "&", "|", "---", "#", "*", "_",
                 "^", "'", "{", "}", "%", "\\begin{array}{c}", "\\end{array}",
                 "\\begin{split}", "\\end{split}", "\\sqrt[", "a'_1'", "| a | b |\n|---|---|\n",
                 "\\frac", "<div>", "\u00e9", "~", "\t", "[x](http://e)", "\\item"]


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from(_PROSE_PIECES), min_size=1, max_size=60))
def test_random_hostile_prose_compiles(pieces: list[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        write_report("# T\n\n" + "".join(pieces) + "\n", DocumentResult("t.md", []), tmp,
                     date="2026-01-01", sandbox=False)
        _compile(Path(tmp), min_size=1_000)

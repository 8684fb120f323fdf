"""Assemble a report directory: check the document, draw its figures, run every printer.

>>> sorted(p.filename for p in PRINTERS)
['evidence.json', 'report.html', 'report.md', 'report.tex']
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..check.verdict import DocumentResult
from ..errors import SymnormError
from .draw import write_figure
from .figures import compute
from .html import HtmlPrinter
from .jsonout import JsonPrinter
from .latex import LatexPrinter
from .markdown import MarkdownPrinter
from .model import FigureBlock, build_model

__all__ = [
    "PAPER",
    "PRINTERS",
    "figure_requests",
    "report_date",
    "report_document",
    "versions",
    "write_report",
]

PRINTERS = (HtmlPrinter, MarkdownPrinter, LatexPrinter, JsonPrinter)
#: The built-in paper derivation shipped as package data.
PAPER = Path(__file__).resolve().parent.parent / "data" / "paper.md"


def versions() -> dict[str, str]:
    """Versions of symnorm and the libraries whose results the report contains."""
    import matplotlib
    import mpmath
    import numpy
    import sympy

    from .. import __version__
    return {"symnorm": __version__, "sympy": sympy.__version__, "mpmath": mpmath.__version__,
            "numpy": numpy.__version__, "matplotlib": matplotlib.__version__,
            "python": platform.python_version()}


def report_date() -> str:
    """Today (UTC) as YYYY-MM-DD, or the date of ``SOURCE_DATE_EPOCH`` when it is set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    now = (_dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc) if epoch.isdigit()
           else _dt.datetime.now(_dt.timezone.utc))
    return now.strftime("%Y-%m-%d")


def figure_requests(result: DocumentResult) -> list[tuple[str, Any, int]]:
    """``(name, options, line)`` of every valid figure statement the checker collected.

    Invalid figure statements never get here: the checker reports them as located
    ``error`` verdicts, which the report shows like any other claim.
    """
    return [(f.name, f.options, f.pos.line) for f in result.figures]


def _draw_figures(result: DocumentResult, outdir: Path, file: str) -> list[FigureBlock]:
    blocks: list[FigureBlock] = []
    used: dict[str, int] = {}
    for number, (name, options, line) in enumerate(figure_requests(result), 1):
        data = compute(name, options, file, line)
        used[name] = used.get(name, 0) + 1
        stem = name if used[name] == 1 else f"{name}_{used[name]}"
        if stem != name:
            data = type(data)(**{**data.__dict__, "name": stem})
        paths = write_figure(data, outdir / "figures")
        files = {ext: f"figures/{p.name}" for ext, p in paths.items()}
        blocks.append(FigureBlock(number, stem, data.title, data.caption, files,
                                  paths["svg"].read_text(encoding="utf-8"), line))
    return blocks


def write_report(source: str, result: DocumentResult, outdir: Path | str, *,
                 source_path: str = "", date: str | None = None) -> dict[str, Path]:
    """Write report.html, report.md, report.tex, evidence.json and figures/ into ``outdir``."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    name = source_path or result.path
    figures = _draw_figures(result, out, name)
    model = build_model(source, result, figures=figures, versions=versions(),
                        date=date if date is not None else report_date(), source_path=name)
    written: dict[str, Path] = {}
    for printer_class in PRINTERS:
        printer = printer_class()
        path = out / printer.filename
        path.write_text(printer.doprint(model), encoding="utf-8")
        written[printer.filename] = path
    return written


def report_document(path: Path | str, outdir: Path | str, *, timeout: float = 20.0,
                    dps: int = 50, only: str | None = None,
                    display_path: str | None = None,
                    progress: Callable[[Any], None] | None = None,
                    ) -> tuple[dict[str, Path], DocumentResult]:
    """Check the document at ``path`` and write its report; return the files and verdicts."""
    try:
        from ..check.run import check_document
    except ImportError as exc:  # the checker ships separately
        raise SymnormError(f"the claim checker is not available ({exc})") from None
    source_file = Path(path)
    try:
        source = source_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SymnormError(f"cannot read {path}: {exc}") from None
    result = check_document(source_file, timeout=timeout, dps=dps, only=only,
                            progress=progress)
    shown = display_path or str(path)
    # the checker names the file as opened; the report names it as the user did
    result = replace(result, verdicts=[
        replace(v, file=shown) if v.file in (str(path), str(source_file)) else v
        for v in result.verdicts])
    files = write_report(source, result, outdir, source_path=shown)
    return files, result

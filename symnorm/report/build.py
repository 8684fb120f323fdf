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

from ..check.limits import DEFAULT_TIMEOUT
from ..check.verdict import ERROR, DocumentResult, Verdict
from ..errors import InternalError, LimitError, SourceError, SymnormError
from ..safeio import OutputDir
from .draw import render_figure
from .figures import compute
from .html import HtmlPrinter
from .jsonout import JsonPrinter
from .latex import LatexPrinter
from .markdown import MarkdownPrinter
from .model import FigureBlock, build_model, reproduce_for

__all__ = [
    "PAPER",
    "PRINTERS",
    "figure_requests",
    "path_from",
    "prepare_output",
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


def _figure_job(name: str, options: Any, file: str, line: int, stem: str
                ) -> tuple[str, str, dict[str, bytes]]:
    """Compute and render one figure (runs in a sandboxed worker)."""
    data = replace(compute(name, options, file, line), name=stem)
    return data.title, data.caption, render_figure(data)


def _figure_error(file: str, name: str, line: int, message: str) -> Verdict:
    return Verdict(file=file, line=line, label=f"figure {name}", statement="", status=ERROR,
                   message=f"figure {name}: {message}")


def _draw_figures(result: DocumentResult, out: OutputDir, file: str, timeout: float,
                  sandbox: bool) -> tuple[list[FigureBlock], list[Verdict]]:
    """Draw every figure under the claims' limits; a failed figure becomes an error card."""
    from ..check.run import MAX_FIGURES, MEMORY_LIMIT, sandbox_pool

    requests = figure_requests(result)
    errors = [_figure_error(file, name, line, f"more than {MAX_FIGURES} figures in one "
                            "document; this one is not drawn")
              for name, _, line in requests[MAX_FIGURES:]]
    jobs, used = [], {}
    for name, options, line in requests[:MAX_FIGURES]:
        used[name] = used.get(name, 0) + 1
        jobs.append((name, options, file, line, name if used[name] == 1 else
                     f"{name}_{used[name]}"))
    if not jobs:
        return [], errors
    outcomes: list[Any] = []
    if sandbox:
        import importlib
        from concurrent.futures import TimeoutError as FutureTimeout
        for module in ("matplotlib.figure", "matplotlib.backends.backend_agg"):
            importlib.import_module(module)  # once, before forking: workers spend their
            # time limit drawing, not importing
        from pebble import ProcessExpired
        with sandbox_pool(min(2, len(jobs))) as pool:
            futures = [pool.schedule(_figure_job, args=job, timeout=timeout) for job in jobs]
            for fut in futures:
                try:
                    outcomes.append(fut.result())
                except FutureTimeout:
                    outcomes.append(f"not drawn: the time limit of {timeout:g} s was reached "
                                    "(figures run under the claims' --timeout)")
                except (ProcessExpired, MemoryError):
                    outcomes.append(f"not drawn: the worker stopped (memory limit "
                                    f"{MEMORY_LIMIT // 1024 ** 3} GiB, or a crash)")
                except Exception as exc:  # noqa: BLE001 - one figure must not stop the report
                    outcomes.append(exc)
    else:
        for job in jobs:
            try:
                outcomes.append(_figure_job(*job))
            except Exception as exc:  # noqa: BLE001
                outcomes.append(exc)
    blocks: list[FigureBlock] = []
    figdir = None
    for number, (job, outcome) in enumerate(zip(jobs, outcomes), 1):
        name, _, _, line, stem = job
        if isinstance(outcome, tuple):
            title, caption, files = outcome
            figdir = figdir or out.sub("figures")
            for ext, blob in files.items():
                figdir.write(f"{stem}.{ext}", blob)
            blocks.append(FigureBlock(len(blocks) + 1, stem, title, caption,
                                      {ext: f"figures/{stem}.{ext}" for ext in files},
                                      files["svg"].decode("utf-8"), line))
            continue
        if isinstance(outcome, SourceError):
            message = outcome.message
        elif isinstance(outcome, InternalError):
            message = f"INTERNAL ERROR (a bug in symnorm, please report): {outcome}"
        elif isinstance(outcome, BaseException):
            message = f"not drawn: {type(outcome).__name__}: {outcome}"
        else:
            message = outcome
        errors.append(_figure_error(file, name, line, message.removeprefix(f"figure {name}: ")))
    return blocks, errors


def prepare_output(outdir: Path | str | OutputDir) -> OutputDir:
    """The output folder, with every file the report writes checked: no link, right kind."""
    out = outdir if isinstance(outdir, OutputDir) else OutputDir(outdir)
    for printer_class in PRINTERS:
        out.check(printer_class.filename)
    out.check("figures", folder=True)
    return out


def path_from(outdir: Path | str, document: Path | str) -> str:
    """``document`` as a path that works from ``outdir``: relative when it stays close
    (at most two ``..``), else absolute."""
    doc = os.path.abspath(document)
    try:
        rel = os.path.relpath(doc, os.path.abspath(outdir))
    except ValueError:  # another drive
        return doc
    return rel if rel.split(os.sep)[:3].count("..") <= 2 else doc


def write_report(source: str, result: DocumentResult, outdir: Path | str | OutputDir, *,
                 source_path: str = "", date: str | None = None, timeout: float = DEFAULT_TIMEOUT,
                 sandbox: bool = True,
                 reproduce: Callable[[Verdict], str] | None = None) -> dict[str, Path]:
    """Write report.html, report.md, report.tex, evidence.json and figures/ into ``outdir``.

    Every file goes through a temporary file renamed into place; a symbolic link in the
    output folder is refused (:class:`symnorm.safeio.UnsafeOutputError`).  Figures are
    drawn in sandboxed workers under ``timeout`` seconds each and the claims' memory limit.
    """
    out = prepare_output(outdir)
    name = source_path or result.path
    figures, failed = _draw_figures(result, out, name, timeout, sandbox)
    if failed:
        result = replace(result, verdicts=result.verdicts + failed)
    model = build_model(source, result, figures=figures, versions=versions(),
                        date=date if date is not None else report_date(), source_path=name,
                        reproduce=reproduce)
    written: dict[str, Path] = {}
    for printer_class in PRINTERS:
        printer = printer_class()
        written[printer.filename] = out.write_text(printer.filename, printer.doprint(model))
    return written


def report_document(path: Path | str, outdir: Path | str, *, timeout: float = DEFAULT_TIMEOUT,
                    dps: int = 50, only: str | None = None,
                    display_path: str | None = None,
                    progress: Callable[[Any], None] | None = None,
                    ) -> tuple[dict[str, Path], DocumentResult]:
    """Check the document at ``path`` and write its report; return the files and verdicts."""
    try:
        from ..check.run import check_parsed
    except ImportError as exc:  # the checker ships separately
        raise SymnormError(f"the claim checker is not available ({exc})") from None
    from ..lang.document import read_document
    source_file = Path(path)
    try:  # the same bounded read and the same Markdown parse as `symnorm check`
        doc = read_document(source_file)
    except (SourceError, LimitError) as exc:
        raise SymnormError(str(exc)) from None
    prepare_output(outdir)  # refuse a planted link before the (long) check, not after it
    source = doc.source
    result = check_parsed(doc, timeout=timeout, dps=dps, only=only, progress=progress)
    shown = display_path or str(path)
    # the checker names the file as opened; the report names it as the user did
    result = replace(result, verdicts=[
        replace(v, file=shown) if v.file in (str(path), str(source_file)) else v
        for v in result.verdicts])
    paper = source_file.resolve() == PAPER.resolve()
    command = reproduce_for(None if paper else path_from(outdir, source_file), paper=paper)
    files = write_report(source, result, outdir, source_path=shown, timeout=timeout,
                         reproduce=command)
    return files, result

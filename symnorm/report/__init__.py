"""Derivation reports: one result model, printed as HTML, Markdown, LaTeX and JSON, plus figures.

``write_report(source, result, outdir)`` writes a report for an already checked document;
``report_document(path, outdir)`` checks it first.  See ``docs/report.md``.
"""

from __future__ import annotations

from .build import PAPER, report_document, write_report
from .figures import FIGURES, compute
from .model import ReportModel, build_model

__all__ = ["FIGURES", "PAPER", "ReportModel", "build_model", "compute", "report_document",
           "write_report"]

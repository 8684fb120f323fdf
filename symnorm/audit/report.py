"""Audit reports: one model (a section per audit) rendered as Markdown, HTML and JSON.

A study (conformance runs, spec inferences, or any audit that produces tables) becomes an
:class:`AuditReport` of :class:`Section` items; printers dispatch on the item class as the
derivation report's printers do, and :func:`write_audit_report` writes ``audit.md``,
``audit.html`` and ``audit.json`` into a folder through :class:`~symnorm.safeio.OutputDir`.

>>> sec = Section("demo", "conform", "agree", ["one line"], [Table(["a", "b"], [["1", "|"]])])
>>> print(MarkdownAuditPrinter().doprint(AuditReport("T", "2026-01-01", {}, [sec])))
... # doctest: +ELLIPSIS
# T
...
| a | b |
|---|---|
| 1 | \\| |
...
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..report.markdown import md_escape
from ..safeio import OutputDir
from .conform import ConformResult
from .infer import InferResult, spec_repr

__all__ = ["AuditReport", "HtmlAuditPrinter", "JsonAuditPrinter", "MarkdownAuditPrinter",
           "Section", "Table", "conform_section", "infer_section", "write_audit_report"]


@dataclass(frozen=True)
class Table:
    """A table of plain-text cells."""

    columns: list[str]
    rows: list[list[str]]


@dataclass
class Section:
    """One audit: a title, its kind, a one-word verdict, prose lines, tables and raw data."""

    title: str
    kind: str
    verdict: str
    lines: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class AuditReport:
    """A study: a title, a date, library versions and the sections."""

    title: str
    date: str
    versions: dict[str, str]
    sections: list[Section]


def _g(v: float) -> str:
    return f"{v:.3g}"


def conform_section(res: ConformResult, title: str = "") -> Section:
    """A section for a conformance run."""
    bad = res.disagreeing()
    verdict = "conforms" if res.agree else "does not conform"
    lines = [f"Implementation {res.target} against spec {res.spec.name}: {verdict}.",
             f"Spec: {spec_repr(res.spec)}.",
             (f"Agreement: max |implementation - spec| <= {res.tol:g} x max(1, |spec|); "
              "the spec is evaluated by mpmath at the same (dyadic, exactly representable) "
              "inputs.")]
    if bad:
        lines.append("Families that disagree: " + ", ".join(bad) + ".")
    rows = [[r.family, r.mode, r.what, "x".join(map(str, r.shape)), _g(r.max_abs_error),
             _g(r.scaled_error), "agree" if r.agree else "differs (expected)" if r.expected
             else "DISAGREE" if r.agree is False else "not run", r.note] for r in res.rows]
    table = Table(["family", "mode", "compared", "shape", "max abs error", "scaled error",
                   "result", "note"], rows)
    return Section(title or f"Conformance: {res.target} vs {res.spec.name}", "conform",
                   verdict, lines, [table], res.as_dict())


def infer_section(res: InferResult, title: str = "") -> Section:
    """A section for a spec inference."""
    verdict = "spec inferred" if res.spec is not None else "no spec"
    lines = [f"Implementation {res.target} probed on layout {' '.join(res.layout)}, sizes "
             + " ".join(f"{a}={n}" for a, n in res.sizes)
             + f": {res.calls} calls in {res.seconds:.2f} s."]
    if res.spec is not None:
        lines.append(f"Inferred spec: {spec_repr(res.spec)}.")
    else:
        lines.append("No spec: " + ("; ".join(res.failures) or "could not tell "
                                    + ", ".join(res.unknown())) + ".")
    rows = []
    for k, e in res.evidence.items():
        d = e.as_dict()
        rows.append([k, str(d["value"]), d["confidence"], "; ".join(e.probes),
                     ", ".join(f"{m}={v:.4g}" if isinstance(v, float) else f"{m}={v}"
                               for m, v in e.measured.items()), e.note])
    table = Table(["field", "value", "confidence", "probes", "measured", "note"], rows)
    return Section(title or f"Spec inference: {res.target}", "infer", verdict, lines, [table],
                   res.as_dict())


class _Printer:
    filename = ""

    def doprint(self, rep: AuditReport) -> str:
        self.rep = rep
        return self.header(rep) + "".join(self.print(s) for s in rep.sections) + \
            self.footer(rep)

    def print(self, item: Any) -> str:
        method = getattr(self, f"_print_{type(item).__name__}", None)
        if method is None:
            raise TypeError(f"{type(self).__name__} cannot print {type(item).__name__}")
        return method(item)

    def header(self, rep: AuditReport) -> str:
        return ""

    def footer(self, rep: AuditReport) -> str:
        return ""


def _cell(text: str) -> str:
    return md_escape(text) if text else ""


class MarkdownAuditPrinter(_Printer):
    """GitHub-flavoured Markdown."""

    filename = "audit.md"

    def header(self, rep: AuditReport) -> str:
        ver = ", ".join(f"{k} {v}" for k, v in rep.versions.items())
        summary = "".join(f"- {_cell(s.title)}: **{s.verdict}**\n" for s in rep.sections)
        return f"# {_cell(rep.title)}\n\n{rep.date}. {_cell(ver)}\n\n{summary}\n"

    def _print_Section(self, s: Section) -> str:
        body = "".join(f"{_cell(line)}\n\n" for line in s.lines)
        return f"## {_cell(s.title)}\n\n{body}" + "".join(self.print(t) for t in s.tables)

    def _print_Table(self, t: Table) -> str:
        head = "| " + " | ".join(_cell(c) for c in t.columns) + " |\n"
        rule = "|" + "|".join("---" for _ in t.columns) + "|\n"
        rows = "".join("| " + " | ".join(_cell(c) for c in r) + " |\n" for r in t.rows)
        return head + rule + rows + "\n"


class HtmlAuditPrinter(_Printer):
    """A self-contained HTML page, no JavaScript; every text is escaped."""

    filename = "audit.html"

    def header(self, rep: AuditReport) -> str:
        e = html.escape
        items = "".join(f"<li>{e(s.title)}: <strong class=\"{e(s.kind)}\">{e(s.verdict)}"
                        "</strong></li>" for s in rep.sections)
        ver = e(", ".join(f"{k} {v}" for k, v in rep.versions.items()))
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                f"<title>{e(rep.title)}</title><style>body{{font-family:sans-serif;"
                "max-width:72em;margin:auto}table{border-collapse:collapse}td,th{border:"
                "1px solid #999;padding:2px 6px;font-size:90%}</style></head><body>"
                f"<h1>{e(rep.title)}</h1><p>{e(rep.date)}. {ver}</p><ul>{items}</ul>\n")

    def footer(self, rep: AuditReport) -> str:
        return "</body></html>\n"

    def _print_Section(self, s: Section) -> str:
        e = html.escape
        body = "".join(f"<p>{e(line)}</p>" for line in s.lines)
        return f"<section><h2>{e(s.title)}</h2>{body}" + "".join(
            self.print(t) for t in s.tables) + "</section>\n"

    def _print_Table(self, t: Table) -> str:
        e = html.escape
        head = "".join(f"<th>{e(c)}</th>" for c in t.columns)
        rows = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>"
                       for r in t.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>\n"


class JsonAuditPrinter(_Printer):
    """Every section's data, for machines."""

    filename = "audit.json"

    def doprint(self, rep: AuditReport) -> str:
        return json.dumps({"title": rep.title, "date": rep.date, "versions": rep.versions,
                           "sections": [{"title": s.title, "kind": s.kind,
                                         "verdict": s.verdict, "data": s.data}
                                        for s in rep.sections]}, indent=2, sort_keys=True,
                          allow_nan=False, default=str) + "\n"


PRINTERS = (MarkdownAuditPrinter, HtmlAuditPrinter, JsonAuditPrinter)


def write_audit_report(sections: list[Section], outdir: str | Path | OutputDir, *,
                       title: str = "symnorm audit") -> dict[str, Path]:
    """Write every format into ``outdir``; returns the paths by file name."""
    from ..report.build import report_date, versions
    rep = AuditReport(title, report_date(), versions(), sections)
    out = outdir if isinstance(outdir, OutputDir) else OutputDir(outdir)
    return {p.filename: out.write_text(p.filename, p().doprint(rep)) for p in PRINTERS}

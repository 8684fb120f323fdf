"""The HTML printer: one self-contained page, MathML math, no scripts, no network.

Every piece of document text passes through :func:`html.escape` or markdown-it's own
escaping (raw HTML is disabled, ``javascript:`` links are not links); math goes through
the whitelist in :mod:`symnorm.report.mathml`.  A Content-Security-Policy forbids scripts
and remote loads, so even a missed escape could not run code.
"""

from __future__ import annotations

import base64
from html import escape
from typing import Any

from .evidence import EvidenceRow, example_tex, point_tex, value_plain, value_tex
from .mathml import code_fallback, to_mathml
from .model import (
    STATUS_INFO,
    ClaimCard,
    FigureBlock,
    Heading,
    Prose,
    ReportModel,
    SourceBlock,
    fmt_value,
    markdown_parser,
)
from .printer import Printer
from .steps import GRAM_LEGEND, GRAM_LEGEND_TEX

__all__ = ["HtmlPrinter"]

_CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
        "base-uri 'none'; form-action 'none'")
_CSS = """
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Source Han Sans SC",
 "PingFang SC","Hiragino Sans GB","Microsoft YaHei","WenQuanYi Micro Hei","Noto Sans CJK JP",
 "Noto Sans CJK KR",sans-serif;color:#1f2937;
 max-width:60rem;margin:0 auto;padding:1.5rem 1.2rem 4rem;background:#fff}
h1,h2,h3{line-height:1.25} code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;
 font-size:.9em} pre{background:#f6f8fa;padding:.7rem;overflow-x:auto;border-radius:4px}
math{font-family:"Latin Modern Math","STIX Two Math","Cambria Math","Latin Modern Roman",
 math,serif;font-size:1.12em} math[display=block]{margin:.3rem 0}
.math-block{overflow-x:auto;overflow-y:hidden;padding:.15rem 0}
mtd{text-align:left}
table{border-collapse:collapse;margin:.5rem 0}
th,td{border:1px solid #d1d5db;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f4f6} .num{font-family:ui-monospace,monospace;font-size:.85em;
 word-break:break-all} .badge{display:inline-block;padding:.1rem .55rem;border-radius:999px;
 color:#fff;font-weight:700;font-size:.85rem;letter-spacing:.03em;border:2px solid #0003}
.claim{border:1px solid #d1d5db;border-left:6px solid var(--c);border-radius:6px;
 padding:.6rem 1rem;margin:1rem 0;background:#fcfcfd}
.claim-head{display:flex;gap:.8rem;align-items:baseline;flex-wrap:wrap}
.where{color:#6b7280;font-size:.85rem} .statement{font-size:1.1rem;margin:.4rem 0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.4rem 0}
dl.facts dt{font-weight:600;color:#374151} dl.facts dd{margin:0}
.source summary,.steps summary,.evidence summary{cursor:pointer;color:#374151;font-weight:600}
.steps li p{margin:.3rem 0 0} .legend{color:#374151;font-size:.92rem}
.evidence table td{vertical-align:middle} .result-agree{color:#15803d}
.result-differ{color:#b91c1c;font-weight:600} .result-unclear,.result-singular{color:#a16207}
.message{margin:.4rem 0;padding:.4rem .6rem;background:#fef3c7;border-radius:4px}
.summary td{text-align:center} figure{margin:1.2rem 0} figure img{width:100%;max-width:44rem;
 border:1px solid #e5e7eb} figcaption{font-size:.92rem;color:#374151}
footer{margin-top:3rem;color:#6b7280;font-size:.85rem;border-top:1px solid #e5e7eb}
"""


def _math_rule(display: bool):
    def rule(self: Any, tokens: list, idx: int, options: Any, env: Any) -> str:
        mathml = to_mathml(tokens[idx].content, display)
        return f'<div class="math-block">{mathml}</div>\n' if display else mathml
    return rule


def _image_rule(self: Any, tokens: list, idx: int, options: Any, env: Any) -> str:
    # no network: an image reference becomes a plain link, never a fetch
    tok = tokens[idx]
    alt = escape(tok.content or "image")
    src = tok.attrGet("src") or ""
    return f'<a class="image-link" href="{escape(str(src))}">[image: {alt}]</a>'


class HtmlPrinter(Printer):
    """Render the report model as one HTML5 page."""

    filename = "report.html"

    def __init__(self) -> None:
        md = markdown_parser()
        for name, display in (("math_inline", False), ("math_inline_double", True),
                              ("math_block", True), ("math_block_label", True)):
            md.add_render_rule(name, _math_rule(display))
        md.add_render_rule("image", _image_rule)
        self.md = md

    def header(self, m: ReportModel) -> str:
        rows = "".join(
            f"<td>{self.badge(s)}<br>{n}</td>" for s, n in m.summary.items())
        toc = "".join(
            f'<li><a href="#claim-{c.number}">{c.kind} {c.number}</a> '
            f'{self.badge(c.verdict.status)}'
            f" <code>{escape(c.verdict.label)}</code></li>"
            for c in m.items if isinstance(c, ClaimCard))
        return (
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(m.title)} \u2014 symnorm report</title>\n<style>{_CSS}</style>\n"
            "</head>\n<body>\n<header>\n"
            f'<p class="where">symnorm derivation report of <code>{escape(m.source_path)}'
            f"</code></p>\n<table class=\"summary\"><tr>{rows}</tr></table>\n"
            f"<details class=\"toc\"><summary>{len(m.verdicts)} claims</summary><ol>{toc}</ol>"
            "</details>\n</header>\n<main>\n")

    def footer(self, m: ReportModel) -> str:
        versions = ", ".join(f"{escape(k)} {escape(v)}" for k, v in m.versions.items())
        return (f"</main>\n<footer><p>Generated by symnorm on {escape(m.date)}; {versions}. "
                "Badges: " + "; ".join(f"{self.badge(s)} {escape(i.meaning)}"
                                       for s, i in STATUS_INFO.items())
                + ".</p></footer>\n</body>\n</html>\n")

    def badge(self, status: str) -> str:
        i = STATUS_INFO[status]
        return (f'<span class="badge st-{status}" style="background:{i.color}" '
                f'title="{escape(i.meaning)}">{i.symbol} {i.word}</span>')

    def math(self, latex: str | None, fallback: str, display: bool = False) -> str:
        return to_mathml(latex, display) if latex else code_fallback(fallback)

    def _print_Heading(self, h: Heading) -> str:
        return f"<h2>{escape(h.text)}</h2>\n"

    def _print_Prose(self, p: Prose) -> str:
        return self.md.renderer.render(list(p.tokens), self.md.options, self.model.env)

    def _print_SourceBlock(self, b: SourceBlock) -> str:
        return (f'<details class="source"><summary>claim source (line {b.line})</summary>'
                f"<pre><code>{escape(b.text)}</code></pre></details>\n")

    def _print_ClaimCard(self, c: ClaimCard) -> str:
        v, info = c.verdict, c.info
        statement = (f'<div class="statement math-block">{self.math(c.latex, c.text, True)}'
                     "</div>\n"
                     if c.latex or c.text else "")
        parts = [
            (f'<article class="claim st-{v.status}" id="claim-{c.number}" '
            f'style="--c:{info.color}">\n<div class="claim-head">{self.badge(v.status)} '
            f"<strong>{c.kind} {c.number}</strong> <code>{escape(v.label)}</code> "
            f'<span class="where">{escape(v.file)}:{v.line}</span></div>\n'),
            statement, '<dl class="facts">']
        facts = [("Status", escape(info.meaning)),
                 ("Scope", escape(v.scope) or "&mdash;"),
                 ("Assumptions", ", ".join(f"<code>{escape(a)}</code>" for a in v.assumptions)
                  or "none"),
                 ("Engine", escape(v.engine) or "&mdash;"),
                 ("Reproduce", f"<code>{escape(c.reproduce)}</code>")]
        parts += [f"<dt>{k}</dt><dd>{val}</dd>" for k, val in facts]
        parts.append("</dl>\n")
        if v.message:
            parts.append(f'<p class="message">{escape(v.message)}</p>\n')
        if v.notes:
            parts.append("<ul class=\"notes\">" + "".join(
                f"<li>{escape(n)}</li>" for n in v.notes) + "</ul>\n")
        if c.steps:
            parts.append('<div class="steps"><p><strong>How it was reached</strong></p><ol>')
            for k, (text, tex) in enumerate(c.steps):
                if k == 0 and c.legend:
                    parts.append(f'<p class="legend">{escape(GRAM_LEGEND)} '
                                 f"{to_mathml(GRAM_LEGEND_TEX)}</p>")
                parts.append(f"<li><p>{escape(text)}</p>" + (
                    f'<div class="math-block">{to_mathml(tex, True)}</div>' if tex else "")
                    + "</li>")
            parts.append("</ol></div>\n")
        if c.rows:
            parts.append(self._evidence(c))
        if v.counterexample:
            parts.append(f'<table class="counterexample"><caption>{c.example_title}</caption>'
                         "<tr><th>name</th><th>value</th></tr>" + "".join(
                             f"<tr><td>{escape(str(k))}</td>{self._example(val)}</tr>"
                             for k, val in v.counterexample.items()) + "</table>\n")
        parts.append("</article>\n")
        return "".join(parts)

    def _evidence(self, c: ClaimCard) -> str:
        """The evidence, collapsed: its one-line summary, then one row per distinct point."""
        head = "".join(f"<th>{h}</th>" for h in ("d", "point", "left side", "right side",
                                                 "digits", "result"))
        body = "".join(self._row(r) for r in c.rows)
        return (f'<details class="evidence"><summary>Numeric evidence: '
                f"{escape(c.evidence_summary)}</summary><table><tr>{head}</tr>{body}"
                "</table></details>\n")

    def _row(self, r: EvidenceRow) -> str:
        point = point_tex(r.point)
        cells = [escape(str(r.d)) if r.d is not None else "",
                 to_mathml(point) if point else
                 escape(", ".join(f"{k} = {value_plain(v)}" for k, v in r.point)) or
                 '<span title="no variable but d">&mdash;</span>',
                 self._value(r.lhs), self._value(r.rhs),
                 r.shown_digits or "&mdash;",
                 f'<span class="result-{escape(r.result)}" title="{escape(r.reason)}">'
                 f"{escape(r.word)}</span>"
                 + (f" ({r.samples} samples)" if r.samples > 1 else "")]
        return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"

    @staticmethod
    def _example(value: object) -> str:
        """A counterexample value: typeset when it is a number, vector or matrix."""
        plain = fmt_value(value)
        tex = example_tex(value)
        if tex:
            return f'<td><span title="{escape(plain)}">{to_mathml(tex)}</span></td>'
        return f'<td class="num">{escape(plain)}</td>'

    def _value(self, value: object) -> str:
        plain = value_plain(value)
        tex = value_tex(value)
        shown = to_mathml(tex) if tex else f'<span class="num">{escape(_short(plain))}</span>'
        return f'<span title="{escape(plain)}">{shown}</span>' if plain else "&mdash;"

    def _print_FigureBlock(self, f: FigureBlock) -> str:
        data = base64.b64encode(f.svg.encode("utf-8")).decode("ascii")
        links = ", ".join(f'<a href="{escape(p)}"><code>{escape(p)}</code></a>'
                          for p in f.files.values())
        return (f'<figure id="fig-{escape(f.name)}"><img src="data:image/svg+xml;base64,'
                f'{data}" alt="{escape(f.title)}">\n<figcaption><strong>Figure {f.number}. '
                f"{escape(f.title)}.</strong> {escape(f.caption)} Files: {links}."
                "</figcaption></figure>\n")


def _short(text: str, width: int = 32) -> str:
    return text if len(text) <= width else text[: width - 1] + "\u2026"

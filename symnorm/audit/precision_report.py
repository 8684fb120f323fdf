"""Tables, figures and report sections (text, Markdown, HTML, JSON) of a precision study.

One model, :class:`~symnorm.audit.precision.PrecisionResult`, rendered by small functions;
the sections can stand alone (``precision.md``, ``precision.html``, ``precision.json``)
or be placed in a larger audit report.  Figures follow ``symnorm report``'s conventions
(:class:`~symnorm.report.figures.FigureData`, SVG/PNG/CSV, byte-reproducible) with a log
y axis, since errors span many decades.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable
from dataclasses import asdict
from fractions import Fraction as F
from html import escape
from pathlib import Path
from typing import Any

from ..report.draw import FIGURE_RC, csv_text
from ..report.figures import FigureData, Series
from ..safeio import OutputDir
from .precision import (
    TORCH,
    Config,
    PrecisionResult,
    Summary,
    short,
    unit_roundoff,
)

__all__ = [
    "ACCURATE",
    "REPORT_FILES",
    "figures",
    "headline",
    "html_section",
    "json_section",
    "latex_section",
    "markdown_section",
    "render_text",
    "write_precision_report",
]

#: A variance is called accurate when its relative error stays below this.
ACCURATE = 0.01
_FLOOR, _CEIL = 1e-18, 1e12  # where 0 and inf are drawn on the log axis
_COLORS = ("#1f5fa8", "#7c3aed", "#c2410c", "#0891b2", "#15803d", "#6b7280")


def _e(x: float) -> str:
    if x == 0:
        return "0"
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf"
    return f"{x:.1e}"


def _cell(s: Summary) -> str:
    flags = [f"{k} {w}" for k, w in ((s.negative, "neg"), (s.zero, "zero"),
                                     (s.nonfinite, "non-finite")) if k]
    return _e(s.var_err_max) + (f" ({', '.join(flags)})" if flags else "")


def _by(result: PrecisionResult) -> dict[tuple[str, str, str], Summary]:
    return {(s.config.label, s.case.label, s.method): s for s in result.summaries}


def _methods(result: PrecisionResult, cfg: Config) -> list[str]:
    """The methods measured in ``cfg`` (torch runs only where it picks the arithmetic)."""
    ran = {s.method for s in result.summaries if s.config == cfg}
    return [m for m in result.params.methods if m in ran]


# --- tables ------------------------------------------------------------------------


def variance_table(result: PrecisionResult, cfg: Config) -> tuple[list[str], list[list[str]]]:
    """Rows: cases; cells: max relative variance error over the samples, with counts."""
    by, methods = _by(result), _methods(result, cfg)
    head = ["case", "v (exact, median)", "eps/v"] + methods
    rows = []
    for case in result.cases:
        if (cfg.label, case.label) in result.unrepresentable or not methods:
            rows.append([case.label, f"inputs overflow {cfg.storage}", ""]
                        + [""] * len(methods))
            continue
        first = by[(cfg.label, case.label, methods[0])]
        rows.append([case.label, _e(first.var_ref_median), _e(first.eps_over_v)]
                    + [_cell(by[(cfg.label, case.label, m)]) for m in methods])
    return head, rows


def output_table(result: PrecisionResult, cfg: Config) -> tuple[list[str], list[list[str]]]:
    """Rows: cases; cells: max error of the normalized outputs, and whether eps mattered."""
    by, methods = _by(result), _methods(result, cfg)
    head = ["case", "eps", "eps dominates", "eps in arithmetic"] + methods
    rows = []
    for case in result.cases:
        if (cfg.label, case.label) in result.unrepresentable or not methods:
            continue
        ss = [by[(cfg.label, case.label, m)] for m in methods]
        first = ss[0]
        if first.eps_stored == 0:
            held = f"rounds to 0 in {cfg.compute}"
        else:
            lost = max(s.eps_absorbed for s in ss)
            held = (f"absorbed (v_hat + eps == v_hat) in up to {lost} of {first.samples} "
                    "samples" if lost else "changes v_hat + eps")
        dom = ("yes (v = 0)" if math.isinf(first.eps_over_v) else
               "yes" if first.eps_dominates else "no")
        rows.append([case.label, short(case.eps), dom, held]
                    + [_e(s.out_err_max) + ("" if s.out_err_relative else " (abs)")
                       for s in ss])
    return head, rows


def headline(result: PrecisionResult) -> list[str]:
    """Sentences with the study's main numbers, computed from the summaries."""
    by, lines = _by(result), []
    ratios = [c for c in result.cases if c.family == "ratio"]
    for cfg in result.configs:
        parts = []
        for m in _methods(result, cfg):
            ok, stop = None, ""
            for case in ratios:
                s = by.get((cfg.label, case.label, m))
                if s is None:
                    stop = f" (from {short(case.ratio)} the inputs overflow {cfg.storage})"
                    break
                if s.var_ref_max == 0:
                    stop = (f" (from {short(case.ratio)} the stored inputs are constant in "
                            f"{cfg.storage})")
                    break
                if not s.var_err_max < ACCURATE:
                    break
                ok = case
            parts.append(f"{m} {short(ok.ratio) if ok else 'none'}{stop}")
        if ratios and parts:
            lines.append(f"{cfg.label}: variance within {ACCURATE:.0%} in every sample at "
                         "each mean/spread tried up to: " + "; ".join(parts))
    for cfg in result.configs:
        key = "51102: mean 2000, std 1"
        one, wel = by.get((cfg.label, key, "one-pass")), by.get((cfg.label, key, "welford"))
        if cfg.label == "float32" and one and wel:
            wild = one.var_err_median > 0.5 and wel.var_err_max < ACCURATE
            lines.append(
                f"PyTorch #51102 {'reproduced' if wild else 'NOT reproduced'} (float32, "
                f"mean 2000, std 1, n = "
                f"{result.params.n}, {one.samples} samples): one-pass E[x^2]-E[x]^2 variance "
                f"relative error median {_e(one.var_err_median)}, max {_e(one.var_err_max)}, "
                f"{one.negative} negative and {one.zero} zero; normalized outputs not finite "
                f"in {one.out_nonfinite} samples, mean square up to {one.out_var_max:.4g} in the "
                f"others (exact {one.out_var_ref:.6f}); Welford variance max relative error "
                f"{_e(wel.var_err_max)}, output mean square up to {wel.out_var_max:.6f}."
                + (f" PyTorch's own kernels: torch.var_mean max relative error "
                   f"{_e(tor.var_err_max)}, layer_norm output error {_e(tor.out_err_max)}."
                   if (tor := by.get((cfg.label, key, TORCH))) else ""))
    return lines


def _text_table(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(fmt.format(*r).rstrip() for r in [head, ["-" * w for w in widths], *rows])


def render_text(result: PrecisionResult) -> str:
    """The terminal view: headline, then per configuration the two tables."""
    p = result.params
    out = [(f"symnorm precision: n = {p.n}, {p.samples} samples per case, seed {p.seed}; "
            "max over samples of the relative error against the exact reference"), ""]
    out += [f"* {line}" for line in headline(result)]
    for cfg in result.configs:
        out += ["", f"== {cfg.label}: variance relative error |v_hat - v| / v ==",
                _text_table(*variance_table(result, cfg)), "",
                f"== {cfg.label}: normalized output error max|y_hat - y| / max|y| ==",
                _text_table(*output_table(result, cfg))]
    return "\n".join(out) + "\n"


# --- figures -------------------------------------------------------------------------


def figures(result: PrecisionResult) -> list[FigureData]:
    """Per configuration: variance error against mean/spread; output error against eps."""
    by, out = _by(result), []
    ratio_cases = [c for c in result.cases if c.family == "ratio"]
    eps_cases = [c for c in result.cases if c.family == "eps"]
    for cfg in result.configs:
        methods = _methods(result, cfg)
        u = unit_roundoff(cfg.compute)
        shown = [c for c in ratio_cases if (cfg.label, c.label) not in result.unrepresentable
                 and methods and by[(cfg.label, c.label, methods[0])].var_ref_max > 0]
        if len(shown) >= 2:
            series = [Series(m, tuple(by[(cfg.label, c.label, m)].var_err_max for c in shown))
                      for m in methods]
            series.append(Series("guide: u (mean/spread)^2",
                                 tuple(u * float(c.ratio) ** 2 for c in shown), "--"))
            out.append(FigureData(
                _names(cfg)[0],
                f"Variance error against mean/spread, {cfg.label}",
                f"Largest relative error |v_hat - v| / v over {result.params.samples} samples "
                f"of n = {result.params.n} inputs (mean = ratio x spread, spread "
                f"{short(result.params.spread)}), stored in {cfg.storage}, arithmetic in "
                f"{cfg.compute} (u = 2^{round(math.log2(u))}); v is the exact variance of the "
                "stored inputs (ratios whose stored inputs overflow or are constant are left "
                "out). One-pass E[x^2]-E[x]^2 grows like the dashed u (mean/spread)^2."
                " An error of 0 is drawn at the bottom, an infinite one (v_hat not finite, or "
                "v = 0 < |v_hat|) at the top; the CSV has the values.",
                "mean / spread (log axis)", "relative error of the variance (log axis)",
                "ratio", tuple(float(c.ratio) for c in shown), tuple(series), "log"))
        shown = [c for c in eps_cases if (cfg.label, c.label) not in result.unrepresentable]
        if len(shown) >= 2 and methods:
            series = [Series(m, tuple(by[(cfg.label, c.label, m)].out_err_max for c in shown))
                      for m in methods]
            first = [by[(cfg.label, c.label, methods[0])] for c in shown]
            series.append(Series("v / (v + eps): output scale left by eps",
                                 tuple(s.out_var_ref for s in first), "--"))
            v = first[0].var_ref_median
            out.append(FigureData(
                _names(cfg)[1],
                f"Output error against eps, {cfg.label}",
                f"Largest error max|y_hat - y| / max|y| of y = (x - mean) / sqrt(v + eps) over "
                f"{result.params.samples} samples (mean 0, spread "
                f"{short(result.params.eps_spread)}, v about {v:.2g}, marked), stored in "
                f"{cfg.storage}, arithmetic in {cfg.compute}; dashed: the exact mean square "
                "v / (v + eps) of the output, which eps pulls towards 0 once it dominates v.",
                "eps (log axis)", "error / mean square (log axis)", "eps",
                tuple(float(c.eps) for c in shown), tuple(series), "log",
                ((v, 1.0, f"eps = v = {v:.2g}"),)))
    return out


def _names(cfg: Config) -> tuple[str, str]:
    return f"precision_variance_{cfg.slug}", f"precision_eps_{cfg.slug}"


def _power_label(value: float, _pos: int) -> str:
    """``1e-6`` for a power of ten, nothing otherwise."""
    if value <= 0:
        return ""
    k = round(math.log10(value))
    return f"1e{k}" if abs(value - 10.0 ** k) <= 1e-9 * value else ""


def render_figure(data: FigureData) -> dict[str, bytes]:
    """SVG, PNG and CSV bytes of a log-log figure (0 and inf clipped to the frame)."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, NullFormatter

    def clip(y: float) -> float:
        return math.nan if math.isnan(y) else min(max(y, _FLOOR), _CEIL)

    files = {ext: io.BytesIO() for ext in ("svg", "png")}
    with matplotlib.rc_context(FIGURE_RC):
        fig = Figure(figsize=(6.4, 4.2))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        for k, s in enumerate(data.series):
            ax.plot(data.x, [clip(y) for y in s.y], s.style, marker="o" if s.style == "-"
                    else None, markersize=3, color=_COLORS[k % len(_COLORS)], label=s.label,
                    linewidth=1.6)
        for x, _, label in data.marks:
            ax.axvline(x, color="black", linewidth=0.8, linestyle=":")
            ax.annotate(label, (x, 0.02), xycoords=("data", "axes fraction"), fontsize=8,
                        xytext=(4, 0), textcoords="offset points")
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):  # plain 1e-6 labels: no mathtext layout (slow)
            axis.set_major_formatter(FuncFormatter(_power_label))
            axis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(data.xlabel)
        ax.set_ylabel(data.ylabel)
        ax.set_title(data.title, fontsize=10)
        ax.legend(fontsize=7, loc="best")
        fig.tight_layout()
        fig.savefig(files["svg"], format="svg", metadata={"Date": None})
        fig.savefig(files["png"], format="png", dpi=110, metadata={"Software": None})
    return {"svg": files["svg"].getvalue(), "png": files["png"].getvalue(),
            "csv": csv_text(data).encode("utf-8")}


# --- sections ------------------------------------------------------------------------


_INTRO = (
    "Variance and normalized outputs y = (x - mean) / sqrt(v + eps) computed with every "
    "operation rounded to the named format, against an exact reference: the stored inputs "
    "are dyadic rationals, so their mean and variance are computed exactly, and y by mpmath. "
    "Inputs are seeded rational points rounded to the storage format; cells give the largest "
    "relative error over the samples, with the number of negative, zero (while v > 0) and "
    "non-finite computed variances.")


def _md_table(head: list[str], rows: list[list[str]]) -> str:
    def esc(t: str) -> str:
        return t.replace("|", "\\|")
    return "\n".join(["| " + " | ".join(esc(h) for h in head) + " |",
                      "|" + "---|" * len(head)]
                     + ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]) + "\n"


def markdown_section(result: PrecisionResult, figure_files: dict[str, dict[str, str]],
                     level: int = 2) -> str:
    """The study as a Markdown section; ``figure_files`` maps a figure to its file paths."""
    h = "#" * level
    parts = [f"{h} Precision\n\n{_INTRO}\n\n" + _params_line(result) + "\n\n"]
    parts += [f"- {line}\n" for line in headline(result)]
    for cfg in result.configs:
        parts.append(f"\n{h}# {cfg.label}\n\nVariance, relative error |v_hat - v| / v:\n\n")
        parts.append(_md_table(*variance_table(result, cfg)))
        parts.append("\nNormalized outputs, max|y_hat - y| / max|y| (abs: y = 0, absolute "
                     "error):\n\n")
        parts.append(_md_table(*output_table(result, cfg)))
        for fig in figures(result):
            if fig.name in _names(cfg) and fig.name in figure_files:
                files = figure_files[fig.name]
                parts.append(f"\n![{fig.title}]({files['svg']})\n\n*{fig.title}.* {fig.caption}"
                             f" Data: `{files['csv']}`.\n")
    return "".join(parts)


def _params_line(result: PrecisionResult) -> str:
    p = result.params
    return (f"Reproduce: `{reproduce(result)}` (n = {p.n} elements, {p.samples} samples per "
            f"case, seed {p.seed}, reference at {p.dps} digits).")


def reproduce(result: PrecisionResult) -> str:
    """The command line that reruns this study."""
    p = result.params
    def lst(xs: Any) -> str:
        return ",".join(short(x) if isinstance(x, F) else str(x) for x in xs)
    words = ["symnorm precision", f"--dtypes {lst(p.dtypes)}", f"--accumulate {p.accumulate}",
             f"--methods {lst(p.methods)}", f"--n {p.n}", f"--samples {p.samples}",
             f"--seed {p.seed}", f"--dps {p.dps}"]
    if p.ratios:
        words.append(f"--ratios {lst(p.ratios)}")
    else:
        words.append("--ratios none")
    words += [f"--spread {short(p.spread)}", f"--eps {short(p.eps)}",
              f"--eps-spread {short(p.eps_spread)}"]
    words.append(f"--eps-values {lst(p.eps_values)}" if p.eps_values else "--eps-values none")
    words.append(f"--constants {lst(p.constants)}" if p.constants else "--constants none")
    if not p.include_51102:
        words.append("--no-51102")
    return " ".join(words)


def html_section(result: PrecisionResult, figure_svgs: dict[str, str]) -> str:
    """The study as an HTML section (figures inlined as data URIs of their SVG)."""
    import base64

    def table(head: list[str], rows: list[list[str]], caption: str) -> str:
        return (f"<table><caption>{escape(caption)}</caption><tr>"
                + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>"
                + "".join("<tr>" + "".join(f'<td class="num">{escape(c)}</td>' for c in r)
                          + "</tr>" for r in rows) + "</table>\n")
    parts = [f'<section id="precision"><h2>Precision</h2>\n<p>{escape(_INTRO)}</p>\n'
             f"<p>{escape(_params_line(result))}</p>\n<ul>"
             + "".join(f"<li>{escape(line)}</li>" for line in headline(result)) + "</ul>\n"]
    figs = {f.name: f for f in figures(result)}
    for cfg in result.configs:
        parts.append(f"<h3>{escape(cfg.label)}</h3>\n")
        parts.append(table(*variance_table(result, cfg),
                           "Variance, relative error |v_hat - v| / v"))
        parts.append(table(*output_table(result, cfg),
                           "Normalized outputs, max|y_hat - y| / max|y|"))
        for name, svg in figure_svgs.items():
            if name in _names(cfg) and name in figs:
                data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
                f = figs[name]
                parts.append(f'<figure><img src="data:image/svg+xml;base64,{data}" '
                             f'alt="{escape(f.title)}"><figcaption><strong>{escape(f.title)}.'
                             f"</strong> {escape(f.caption)}</figcaption></figure>\n")
    parts.append("</section>\n")
    return "".join(parts)


def latex_section(result: PrecisionResult, figure_files: dict[str, dict[str, str]]) -> str:
    """The study as a LaTeX section (graphicx only); every string passes ``escape_text``."""
    from ..report.texsafe import escape_text as t

    def table(head: list[str], rows: list[list[str]], caption: str) -> str:
        cols = "l" * len(head)
        body = "".join(" & ".join(t(c) for c in r) + " \\\\\n" for r in rows)
        return ("\\par\\textbf{" + t(caption) + "}\\par\n\\resizebox{\\textwidth}{!}{"
                f"\\begin{{tabular}}{{{cols}}}\n" + " & ".join(f"\\textbf{{{t(h)}}}"
                                                              for h in head)
                + " \\\\\n\\hline\n" + body + "\\end{tabular}}\n")
    parts = ["\\section*{Precision}\n" + t(_INTRO) + "\n\n" + t(_params_line(result))
             + "\n\\begin{itemize}\n"
             + "".join(f"\\item {t(line)}\n" for line in headline(result))
             + "\\end{itemize}\n"]
    figs = {f.name: f for f in figures(result)}
    for cfg in result.configs:
        parts.append("\\subsection*{" + t(cfg.label) + "}\n")
        parts.append(table(*variance_table(result, cfg),
                           "Variance, relative error |v_hat - v| / v"))
        parts.append(table(*output_table(result, cfg),
                           "Normalized outputs, max|y_hat - y| / max|y|"))
        for name in _names(cfg):
            path = figure_files.get(name, {}).get("png", "")
            if name in figs and re.fullmatch(r"[a-z0-9_]+/[a-z0-9_]+\.png", path):
                # a generated name, written raw: \includegraphics cannot take "\_"
                parts.append("\\begin{figure}[ht]\\centering\n\\includegraphics["
                             "width=0.85\\textwidth]{" + path + "}\\par\n{\\small\\textbf{"
                             + t(figs[name].title) + ".} " + t(figs[name].caption)
                             + "\\par}\n\\end{figure}\n")
    return "".join(parts)


_TEX_PREAMBLE = (
    "\\documentclass[10pt]{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage{graphicx}\n"
    "\\sloppy\n\\setlength{\\parindent}{0pt}\n"
    "\\addtolength{\\textwidth}{3cm}\n\\addtolength{\\oddsidemargin}{-1.5cm}\n"
    "\\title{symnorm precision audit}\n\\date{}\n\\begin{document}\n\\maketitle\n")


def _num(x: float) -> Any:
    return x if math.isfinite(x) else ("nan" if math.isnan(x) else "inf")


def json_section(result: PrecisionResult, figure_files: dict[str, dict[str, str]]) -> dict:
    """The study as JSON-ready data; ``inf`` and ``nan`` are the strings "inf" and "nan"."""
    p = result.params
    params = {k: (short(v) if isinstance(v, F) else [short(x) if isinstance(x, F) else x
                                                     for x in v]
                  if isinstance(v, tuple) else v) for k, v in asdict(p).items()}
    summaries = []
    for s in result.summaries:
        d = {"config": s.config.label, "storage": s.config.storage,
             "compute": s.config.compute, "case": s.case.label, "family": s.case.family,
             "mean": short(s.case.mean), "spread": short(s.case.spread), "eps": short(s.case.eps),
             "method": s.method, "eps_dominates": s.eps_dominates}
        for k, v in asdict(s).items():
            if k not in ("config", "case", "method"):
                d[k] = _num(v) if isinstance(v, float) else v
        summaries.append(d)
    return {"params": params, "reproduce": reproduce(result), "headline": headline(result),
            "unrepresentable": sorted(list(k) for k in result.unrepresentable),
            "summaries": summaries, "figures": figure_files}


def rows_csv(result: PrecisionResult) -> str:
    """Every sample row: the raw measurements behind the tables."""
    import csv
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["config", "case", "sample", "method", "v_exact", "v_hat", "var_rel_err",
                "out_err", "out_err_relative", "out_mean_square", "eps_absorbed",
                "err_over_eps"])
    for r in result.rows:
        w.writerow([r.config.label, r.case.label, r.sample, r.method, repr(float(r.var_ref)),
                    repr(r.var_hat), repr(r.var_err), repr(r.out_err), r.out_err_relative,
                    repr(r.out_var), r.eps_absorbed, r.err_over_eps])
    return buf.getvalue()


#: The files a study writes next to ``figures/``.
REPORT_FILES = ("precision.md", "precision.html", "precision.tex", "precision.json",
                "precision.csv")
_CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
        "base-uri 'none'; form-action 'none'")
_CSS = ("body{font:15px/1.5 system-ui,sans-serif;color:#1f2937;max-width:72rem;margin:0 auto;"
        "padding:1.5rem}table{border-collapse:collapse;margin:.6rem 0}th,td{border:1px solid "
        "#d1d5db;padding:.2rem .45rem;text-align:left}th{background:#f3f4f6}caption{text-align:"
        "left;font-weight:600}.num{font-family:ui-monospace,monospace;font-size:.85em}"
        "figure img{width:100%;max-width:44rem;border:1px solid #e5e7eb}"
        "figcaption{font-size:.9rem}")


def write_precision_report(result: PrecisionResult, outdir: Path | str | OutputDir,
                           progress: Callable[[str], None] | None = None) -> dict[str, Path]:
    """Write precision.{md,html,tex,json,csv} and figures/*.{svg,png,csv}; return the paths."""
    out = outdir if isinstance(outdir, OutputDir) else OutputDir(outdir)
    for name in REPORT_FILES:
        out.check(name)
    out.check("figures", folder=True)
    written: dict[str, Path] = {}
    files: dict[str, dict[str, str]] = {}
    svgs: dict[str, str] = {}
    figdir = None
    for data in figures(result):
        if progress:
            progress(f"figure {data.name}")
        blobs = render_figure(data)
        figdir = figdir or out.sub("figures")
        for ext, blob in blobs.items():
            written[f"figures/{data.name}.{ext}"] = figdir.write(f"{data.name}.{ext}", blob)
        files[data.name] = {ext: f"figures/{data.name}.{ext}" for ext in blobs}
        svgs[data.name] = blobs["svg"].decode("utf-8")
    written["precision.md"] = out.write_text(
        "precision.md", "# symnorm precision audit\n\n" + markdown_section(result, files))
    written["precision.html"] = out.write_text("precision.html", (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        f"<title>symnorm precision audit</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        "<h1>symnorm precision audit</h1>\n" + html_section(result, svgs) + "</body>\n</html>\n"))
    written["precision.json"] = out.write_text(
        "precision.json", json.dumps({"precision": json_section(result, files)}, indent=2,
                                     ensure_ascii=False, allow_nan=False) + "\n")
    written["precision.tex"] = out.write_text(
        "precision.tex", _TEX_PREAMBLE + latex_section(result, files) + "\\end{document}\n")
    written["precision.csv"] = out.write_text("precision.csv", rows_csv(result))
    return written



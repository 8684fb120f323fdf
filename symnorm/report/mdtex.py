"""Markdown tokens (markdown-it-py) to LaTeX, escaping all text and checking all math.

Code blocks are typeset as escaped ``\\texttt`` lines, never ``verbatim`` (a user line
``\\end{verbatim}`` would end it and run what follows), links become their text plus the
URL as escaped text in a footnote, and images become their alt text.

>>> from symnorm.report.model import markdown_parser
>>> md_to_tex(markdown_parser().parse("Hi *there* $\\\\frac{1}{2}$ \\\\input{x}"))
'Hi \\\\emph{there} $\\\\frac{1}{2}$ \\\\textbackslash{}input\\\\{x\\\\}\\n\\n'
"""

from __future__ import annotations

from markdown_it.token import Token

from .texsafe import breakable_text, escape_text, safe_math

__all__ = ["md_to_tex", "tex_code_lines", "tex_math"]

_HEAD = {"h1": r"\section*{", "h2": r"\subsection*{", "h3": r"\subsubsection*{",
         "h4": r"\paragraph{", "h5": r"\paragraph{", "h6": r"\paragraph{"}


def tex_math(latex: str, display: bool = False, fallback: str | None = None) -> str:
    """Math if it passes the whitelist, else the source as escaped monospace text."""
    checked = safe_math(latex)
    if checked is None:
        return r"\texttt{" + breakable_text(fallback if fallback is not None else latex) + "}"
    # \fitmath (report preamble) shrinks a display wider than the line to fit it
    return f"\\begin{{center}}\\fitmath{{{checked}}}\\end{{center}}\n" if display \
        else f"${checked}$"


def tex_code_lines(text: str) -> str:
    """A code block as escaped monospace lines (spaces kept, no verbatim environment)."""
    lines = text.rstrip("\n").split("\n")
    body = "\\\\\n".join(_code_line(line) for line in lines)
    return f"\\begin{{flushleft}}\\ttfamily\\small\n{body}\n\\end{{flushleft}}\n"


def _code_line(line: str) -> str:
    """Indentation kept as hard spaces; long lines may break after operators and spaces."""
    stripped = line.lstrip(" ")
    indent = "~" * (len(line) - len(stripped))
    return indent + breakable_text(stripped) if line.strip() else r"\mbox{}"


def md_to_tex(tokens: list[Token] | tuple[Token, ...]) -> str:
    """Convert block-level markdown-it tokens to LaTeX."""
    out: list[str] = []
    toks = list(tokens)
    i = 0
    while i < len(toks):
        t = toks[i]
        kind = t.type
        if kind == "heading_open":
            out.append(_HEAD.get(t.tag, r"\paragraph{"))
        elif kind == "heading_close":
            out.append("}\n\n")
        elif kind == "paragraph_close":
            out.append("\n\n")
        elif kind == "inline":
            out.append(_inline(t.children or []))
        elif kind in ("bullet_list_open", "ordered_list_open"):
            out.append("\\begin{%s}\n" % ("itemize" if kind[0] == "b" else "enumerate"))
        elif kind in ("bullet_list_close", "ordered_list_close"):
            out.append("\\end{%s}\n" % ("itemize" if kind[0] == "b" else "enumerate"))
        elif kind == "list_item_open":
            out.append(r"\item ")
        elif kind == "blockquote_open":
            out.append("\\begin{quote}\n")
        elif kind == "blockquote_close":
            out.append("\\end{quote}\n")
        elif kind in ("fence", "code_block", "html_block"):
            out.append(tex_code_lines(t.content))
        elif kind in ("math_block", "math_block_label"):
            out.append(tex_math(t.content, display=True))
        elif kind == "hr":
            out.append("\\par\\noindent\\rule{\\linewidth}{0.4pt}\\par\n")
        elif kind == "table_open":
            i = _table(toks, i, out)
        i += 1
    return "".join(out)


def _table(toks: list[Token], i: int, out: list[str]) -> int:
    """Emit a tabular for the table starting at ``i``; return the index of table_close."""
    rows: list[list[str]] = []
    j = i + 1
    while toks[j].type != "table_close":
        if toks[j].type == "tr_open":
            rows.append([])
        elif toks[j].type == "inline":
            rows[-1].append(_inline(toks[j].children or []))
        j += 1
    ncol = max((len(r) for r in rows), default=1)
    out.append("\\begin{center}\\begin{tabular}{|" + "l|" * ncol + "}\\hline\n")
    for r in rows:
        out.append(" & ".join(r + [""] * (ncol - len(r))) + " \\\\ \\hline\n")
    out.append("\\end{tabular}\\end{center}\n")
    return j


def _inline(children: list[Token]) -> str:
    out: list[str] = []
    links: list[str] = []
    for c in children:
        kind = c.type
        if kind in ("text", "html_inline"):
            out.append(escape_text(c.content))
        elif kind == "softbreak":
            out.append("\n")
        elif kind == "hardbreak":
            out.append("\\\\\n")
        elif kind == "code_inline":
            out.append(r"\texttt{" + escape_text(c.content) + "}")
        elif kind in ("em_open", "strong_open", "s_open"):
            out.append({"em_open": r"\emph{", "strong_open": r"\textbf{"}.get(kind, "{"))
        elif kind in ("em_close", "strong_close", "s_close"):
            out.append("}")
        elif kind == "link_open":
            links.append(str(c.attrGet("href") or ""))
        elif kind == "link_close":
            out.append(r"\footnote{\texttt{" + escape_text(links.pop() if links else "")
                       + "}}")
        elif kind == "image":
            out.append("[image: " + escape_text(c.content) + "]")
        elif kind == "math_inline":
            out.append(tex_math(c.content))
        elif kind == "math_inline_double":
            out.append(tex_math(c.content, display=True))
    return "".join(out)

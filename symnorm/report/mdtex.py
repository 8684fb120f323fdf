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
    body = _BREAK.join(_code_line(line) for line in lines)
    return f"\\begin{{flushleft}}\\ttfamily\\small\n{body}\n\\end{{flushleft}}\n"


def _code_line(line: str) -> str:
    """Indentation kept as hard spaces; long lines may break after operators and spaces."""
    stripped = line.lstrip(" ")
    indent = "~" * (len(line) - len(stripped))
    return indent + breakable_text(stripped) if line.strip() else r"\mbox{}"


#: A line break that a following ``[`` cannot turn into ``\\[<length>]``.
_BREAK = "\\\\\\relax\n"
#: Lists and quotes nested deeper than this are typeset flat (LaTeX stops at 4 to 6 levels,
#: and a code block or display inside adds one more).
MAX_NESTING = 3
_OPENERS = {"bullet_list_open": "itemize", "ordered_list_open": "enumerate",
            "blockquote_open": "quote"}
_CLOSERS = {"bullet_list_close", "ordered_list_close", "blockquote_close"}


def md_to_tex(tokens: list[Token] | tuple[Token, ...]) -> str:
    """Convert block-level markdown-it tokens to LaTeX."""
    out: list[str] = []
    toks = list(tokens)
    i = 0
    envs: list[str | None] = []  # open list/quote environments; None where typeset flat
    while i < len(toks):
        t = toks[i]
        kind = t.type
        if kind == "heading_open":
            out.append(_HEAD.get(t.tag, r"\paragraph{"))
        elif kind == "heading_close":
            out.append("}\n\n")
        elif kind == "paragraph_close":
            out.append("\n\n")
        elif kind == "inline":  # a paragraph may be cut in pieces; a heading may not
            paragraph = i > 0 and toks[i - 1].type == "paragraph_open"
            out.append(_inline(t.children or [], split=paragraph))
        elif kind in _OPENERS:
            flat = sum(e is not None for e in envs) >= MAX_NESTING
            envs.append(None if flat else _OPENERS[kind])
            out.append("\\par\n" if flat else f"\\begin{{{_OPENERS[kind]}}}\n")
        elif kind in _CLOSERS:
            env = envs.pop() if envs else None
            out.append("\\par\n" if env is None else f"\\end{{{env}}}\n")
        elif kind == "list_item_open":
            # \item{} so that an item starting with [ is not read as \item[label]
            out.append(r"\item{} " if envs and envs[-1] is not None else r"\par\noindent--~")
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
            rows[-1].append(_inline(toks[j].children or [], in_cell=True))
        j += 1
    ncol = max((len(r) for r in rows), default=1)
    out.append("\\begin{center}\\begin{tabular}{|" + "l|" * ncol + "}\\hline\n")
    for r in rows:
        out.append(" & ".join(r + [""] * (ncol - len(r))) + " \\\\ \\hline\n")
    out.append("\\end{tabular}\\end{center}\n")
    return j


#: A paragraph is cut into paragraphs of about this many characters: TeX's line breaking
#: takes minutes on a single paragraph of 100,000 words.
MAX_PARAGRAPH_CHARS = 4000


def _inline(children: list[Token], in_cell: bool = False, split: bool = False) -> str:
    out: list[str] = []
    links: list[str] = []
    depth, run = 0, 0  # open groups; characters since the last cut

    def cut() -> None:
        nonlocal run
        if split and depth == 0 and run > MAX_PARAGRAPH_CHARS:
            out.append("\n\n")
            run = 0

    for c in children:
        kind = c.type
        depth += kind in ("em_open", "strong_open", "s_open", "link_open")
        depth -= kind in ("em_close", "strong_close", "s_close", "link_close")
        if kind in ("text", "html_inline") and split and depth == 0:
            words = c.content.split(" ")
            for k, word in enumerate(words):
                run += len(word) + 1
                out.append(escape_text(word) + (" " if k < len(words) - 1 else ""))
                cut()
            continue
        run += len(c.content or "") + 1
        if kind in ("text", "html_inline"):
            out.append(escape_text(c.content))
        elif kind == "softbreak":
            out.append("\n")
        elif kind == "hardbreak":
            out.append(_BREAK if out and out[-1] != "\n\n" else "")  # no \\ after a cut
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
        elif kind == "math_inline_double":  # a table cell cannot hold a display
            out.append(tex_math(c.content, display=not in_cell))
        cut()
    return "".join(out)

"""Decide whether document LaTeX is safe to typeset, and escape plain text for TeX.

Report math comes from documents a reviewer did not write, so it passes a whitelist
before it reaches ``report.tex``, ``report.md`` or the MathML converter: only known math
control words, only known environments, balanced braces, and none of the characters TeX
could use to smuggle a command (``#``, ``%``, ``$``, ``^^`` and non-ASCII).  Anything else
is shown as escaped code instead of being typeset.

>>> safe_math(r"\\frac{a}{\\sqrt{v+\\epsilon}}")
'\\\\frac{a}{\\\\sqrt{v+\\\\epsilon}}'
>>> safe_math(r"\\input{/etc/passwd}") is None
True
>>> escape_text("50% of #1 & $x$")
'50\\\\% of \\\\#1 \\\\& \\\\$x\\\\$'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["MAX_LINE_CHARS", "MAX_MATH_CHARS", "breakable_text", "cjk_text", "escape_text",
           "has_cjk", "is_cjk", "safe_math", "short_lines"]

MAX_MATH_CHARS = 4000
_MAX_DEPTH = 40

_GREEK = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
    "nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma "
    "Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega"
)
_SYMBOLS = (
    "frac dfrac tfrac sqrt left right middle cdot cdots ldots dots vdots ddots times div pm "
    "mp top intercal le leq ge geq ne neq approx sim simeq equiv propto to mapsto infty "
    "partial nabla sum prod int lim limsup liminf sup inf max min log ln exp sin cos tan "
    "tanh det dim ker operatorname mathrm mathbf mathit mathsf mathtt mathcal mathbb "
    "boldsymbol bm text textrm textbf textit quad qquad lvert rvert lVert rVert vert Vert "
    "langle rangle lfloor rfloor lceil rceil in notin ni subset subseteq supset cup cap "
    "setminus emptyset forall exists mid parallel perp otimes oplus circ star ast bullet "
    "hat bar tilde vec dot ddot overline underline widehat widetilde overbrace underbrace "
    "big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr displaystyle textstyle scriptstyle "
    "rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow iff implies "
    "colon ell imath jmath hbar prime land lor neg lnot wedge vee ll gg lesssim gtrsim "
    "mathop mathbin mathrel not begin end nonumber tag label ref eqref cases substack "
    "binom tbinom dbinom pmod bmod over underset overset stackrel"
)
#: Control words a math string may contain; everything else (``\input``, ``\write``,
#: ``\def``, ``\catcode``, ``\csname``, ``\href``, ``\color``...) makes it unsafe.
ALLOWED_WORDS = frozenset((_GREEK + " " + _SYMBOLS).split()) - {
    "label", "ref", "eqref", "tag", "nonumber",  # numbering commands outside equations
    "bm",  # needs the bm package, which report.tex does not load
    "cases", "over",  # amsmath rejects plain \cases; two \over in a group do not compile
}
#: Environments ``\begin{...}`` may open (``filecontents`` and friends write files).
ALLOWED_ENVS = frozenset(("matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix",
                          "smallmatrix", "cases", "aligned", "gathered", "split", "array"))
_CONTROL_SYMBOLS = frozenset(",;:! {}|\\_&")
_ENV_ARG = re.compile(r"\{([A-Za-z*]+)\}")


def safe_math(latex: str) -> str | None:
    """Return ``latex`` stripped if every token is whitelisted, else ``None``."""
    text = latex.strip()
    if not text or len(text) > MAX_MATH_CHARS:
        return None
    if any(ch in text for ch in "#%$") or "^^" in text or not text.isascii():
        return None
    if any(ord(ch) < 32 and ch not in "\n\t" for ch in text):
        return None
    depth = groups = 0  # braces and \left..\right pairs: TeX allows 255 levels in all
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            depth += 1
            if depth + groups > _MAX_DEPTH:
                return None
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return None
        elif ch == "\\":
            j = i + 1
            while j < len(text) and text[j].isalpha():
                j += 1
            word = text[i + 1:j]
            if not word:
                if j >= len(text) or text[j] not in _CONTROL_SYMBOLS:
                    return None
                j += 1
            elif word not in ALLOWED_WORDS:
                return None
            elif word in ("left", "right"):
                groups += 1 if word == "left" else -1
                if groups < 0 or depth + groups > _MAX_DEPTH:
                    return None
            elif word in ("begin", "end"):
                m = _ENV_ARG.match(text, j)
                if not m or m.group(1) not in ALLOWED_ENVS:
                    return None
            i = j
            continue
        i += 1
    if depth != 0 or groups != 0:
        return None
    from .texcheck import well_formed  # structure: the emitted TeX must also compile
    return text if well_formed(text) else None


_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$", "%": r"\%",
    "&": r"\&", "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': "''",
}
_UNICODE = {
    "\u2014": "---", "\u2013": "--", "\u2018": "`", "\u2019": "'", "\u201c": "``",
    "\u201d": "''", "\u2026": r"\ldots{}", "\u00a0": "~", "\u00d7": r"$\times$",
    "\u2212": "-", "\u00b2": r"\textsuperscript{2}", "\u00b3": r"\textsuperscript{3}",
    "\u2248": r"$\approx$", "\u2264": r"$\le$", "\u2265": r"$\ge$", "\u2260": r"$\ne$",
    "\u00b1": r"$\pm$", "\u2192": r"$\to$", "\u221a": r"$\surd$", "\u2211": r"$\Sigma$",
    "\u03b5": r"$\varepsilon$", "\u03f5": r"$\epsilon$", "\u03b1": r"$\alpha$",
    "\u03b2": r"$\beta$", "\u03b3": r"$\gamma$", "\u03bc": r"$\mu$", "\u03c3": r"$\sigma$",
    "\u2713": "", "\u2717": "", "\u1d40": r"\textsuperscript{T}",
}


#: CJK ideographs, kana, hangul, CJK punctuation and full-width forms: the characters xeCJK
#: typesets with the CJK font (ranges from the Unicode blocks of those scripts).
_CJK = re.compile("[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f"
                  "\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f"
                  "\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
_PASS_CJK: ContextVar[bool] = ContextVar("pass_cjk", default=False)


def is_cjk(ch: str) -> bool:
    """Whether ``ch`` is a CJK character that xeCJK typesets."""
    return bool(_CJK.match(ch))


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK character (then report.tex is written for XeLaTeX)."""
    return bool(_CJK.search(text))


@contextmanager
def cjk_text() -> Iterator[None]:
    """Within this block :func:`escape_text` keeps CJK characters (for XeLaTeX + xeCJK)."""
    token = _PASS_CJK.set(True)
    try:
        yield
    finally:
        _PASS_CJK.reset(token)


def escape_text(text: str) -> str:
    """Escape ``text`` so TeX prints it literally (pdfLaTeX-safe: other non-ASCII as U+XXXX;
    inside :func:`cjk_text`, CJK characters are kept for XeLaTeX)."""
    keep_cjk = _PASS_CJK.get()
    out: list[str] = []
    for ch in text:
        if ch in _TEXT_ESCAPES:
            out.append(_TEXT_ESCAPES[ch])
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ch == "\n" or ch == "\t":
            out.append(" ")
        elif ord(ch) < 32 or ord(ch) == 127:
            continue
        elif keep_cjk and is_cjk(ch):
            out.append(ch)
        elif not ch.isascii():
            out.append(f"[U+{ord(ch):04X}]\\allowbreak{{}}")
        else:
            out.append(ch)
    return "".join(out)


#: Characters a shell command may hold to be printed in report.tex as it is: none that needs
#: quoting, since a PDF shows ' as a curly quote (copying it gives U+2019) and TeX's "
#: as '' - a quoted argument would not survive the way from the PDF back to a shell.
_PLAIN_COMMAND = re.compile(r"[A-Za-z0-9 _./:=@%+,-]*")


def tex_command(command: str) -> str:
    """A shell command for report.tex: printed when it needs no quoting, otherwise a note
    that sends the reader to report.md or report.html, whose command quoting is exact."""
    if _PLAIN_COMMAND.fullmatch(command) and not command.startswith("-"):
        return "\\texttt{" + breakable_text(command) + "}"
    return ("\\emph{the command names a file that needs shell quoting, which a PDF does not "
            "copy faithfully: take it from report.md or report.html}")


def breakable_text(text: str) -> str:
    """:func:`escape_text`, plus line-break points after operators in long formulas."""
    return "".join(escape_text(ch) + (r"\allowbreak{}" if ch in ",+*/=(;" else "")
                   for ch in text)


#: Longest source line written to a .tex file (TeX reads a line into a 200,000-byte buffer).
MAX_LINE_CHARS = 1000
_CONTROL_WORD_END = re.compile(r"\\[A-Za-z]*$")


def short_lines(tex: str, limit: int = MAX_LINE_CHARS) -> str:
    """``tex`` with every line cut below ``limit`` characters by ``%`` + newline.

    TeX drops a ``%`` and the line end after it, so the text reads the same; a cut never
    falls inside a control word or right after a backslash.

    >>> short_lines("ab" * 6, limit=5)
    'abab%\\nabab%\\nabab'
    >>> short_lines(r"\\textbackslash\\textbackslash", limit=5)
    '\\\\textbackslash%\\n\\\\textbackslash'
    """
    out = []
    for line in tex.split("\n"):
        while len(line) >= limit:
            cut = next((k for k in range(limit - 1, 0, -1) if _cuttable(line, k)), None)
            if cut is None:
                cut = next((k for k in range(limit, len(line)) if _cuttable(line, k)), None)
            if cut is None:
                break
            out.append(line[:cut] + "%")
            line = line[cut:]
        out.append(line)
    return "\n".join(out)


def _cuttable(line: str, k: int) -> bool:
    """Whether ``%`` + newline may go between ``line[k-1]`` and ``line[k]``."""
    if _CONTROL_WORD_END.search(line, max(0, k - 64), k) is None:
        return True
    word = _CONTROL_WORD_END.search(line, max(0, k - 64), k).group()
    return len(word) > 1 and not line[k].isascii() or len(word) > 1 and not line[k].isalpha()

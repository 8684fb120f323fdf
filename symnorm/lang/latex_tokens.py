"""Tokens and name tables of the LaTeX subset read by :mod:`symnorm.lang.latex`.

The tokenizer turns one display equation into a flat list of :class:`Tok` with their
file positions.  It drops spacing commands and ``&``, folds ``\\left(``/``\\big(`` and
friends into the bare delimiter, and rejects everything the subset does not know
(comments, non-ASCII text, macro definitions, file access) before any parsing starts.

>>> [t.text for t in tokenize(r"\\left( a\\,b \\right)^\\top", "<t>", 1, 1)]
['(', 'a', 'b', ')', '^', '\\\\top']
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from symnorm.errors import SourceError
from symnorm.lang.latex_gloss import GLOSS, strip_glosses
from symnorm.lang.latex_range import refuse_index_ranges
from symnorm.lang.latex_mathtype import unwrap_editor_latex

if TYPE_CHECKING:
    from symnorm.lang.latex_macros import Expanded

__all__ = [
    "ACCENTS",
    "BOLD",
    "BUILTIN_NAMES",
    "CONDITIONS",
    "CONNECTIVES",
    "DEFINERS",
    "FORBIDDEN",
    "FRACS",
    "FUNCTION_MACROS",
    "GREEK",
    "IF",
    "LEAD_OPS",
    "MAX_LENGTH",
    "RELATIONS",
    "ROOT_SIGN",
    "SEPARATORS",
    "SPACING",
    "Tok",
    "UNICODE_MACROS",
    "UNICODE_POWERS",
    "tokenize",
]

#: Longest equation accepted (characters); longer input is refused before tokenizing.
MAX_LENGTH = 20_000

#: Greek letters and their names in the claim language.
GREEK = {
    "\\alpha": "alpha", "\\beta": "beta", "\\gamma": "gamma", "\\delta": "delta",
    "\\epsilon": "eps", "\\varepsilon": "eps", "\\zeta": "zeta", "\\eta": "eta",
    "\\theta": "theta", "\\vartheta": "theta", "\\iota": "iota", "\\kappa": "kappa",
    "\\lambda": "lambda", "\\mu": "mu", "\\nu": "nu", "\\xi": "xi", "\\pi": "pi",
    "\\rho": "rho", "\\varrho": "rho", "\\sigma": "sigma", "\\tau": "tau",
    "\\upsilon": "upsilon", "\\phi": "phi", "\\varphi": "phi", "\\chi": "chi",
    "\\psi": "psi", "\\omega": "omega", "\\Gamma": "Gamma", "\\Delta": "Delta",
    "\\Theta": "Theta", "\\Lambda": "Lambda", "\\Xi": "Xi", "\\Pi": "Pi",
    "\\Sigma": "Sigma", "\\Phi": "Phi", "\\Psi": "Psi", "\\Omega": "Omega", "\\ell": "l",
}

#: Unicode letters and symbols that plain-text formulas print (Burn's doc comments:
#: ``Y = norm(X) * γ + β``): each is read as the macro it is, and nothing else outside
#: ASCII is (homoglyphs such as the Cyrillic ``а``, the micro sign, bidi controls stay
#: errors).  ``√`` stays itself: :mod:`latex_atoms` reads its argument (one atom or a
#: bracketed group) strictly.
UNICODE_MACROS = {
    "\u03b3": "\\gamma", "\u03b2": "\\beta", "\u03bc": "\\mu", "\u03c3": "\\sigma",
    "\u03b5": "\\varepsilon", "\u03f5": "\\epsilon", "\u03b1": "\\alpha",
    "\u03bb": "\\lambda", "\u2211": "\\sum", "\u221a": "\u221a", "\u00b7": "\\cdot",
    "\u00d7": "\\times", "\u2212": "-", "\u2248": "\\approx", "\u2264": "\\le",
    "\u2265": "\\ge", "\u2202": "\\partial", "\u2207": "\\nabla", "\u2299": "\\odot",
}
#: Superscript digits of plain-text formulas (``sqrt(mean(x²))``): the powers ``^2``, ``^3``.
UNICODE_POWERS = {"\u00b2": "2", "\u00b3": "3"}
#: The square root sign, read by :func:`symnorm.lang.latex_atoms.parse_factor`.
ROOT_SIGN = "\u221a"

#: Relation macros and characters -> claim-language relation.
RELATIONS = {
    "=": "==", "<": "<", ">": ">", "\\lt": "<", "\\gt": ">", "\\neq": "!=", "\\ne": "!=",
    "\\le": "<=", "\\leq": "<=", "\\leqslant": "<=", "\\ge": ">=", "\\geq": ">=",
    "\\geqslant": ">=",
}
#: Relations that always define their left side (``v := ...``, ``\mu \leftarrow ...``).
DEFINERS = ("\\coloneqq", "\\leftarrow", "\\gets", ":=")
#: Top-level separators between the relations of one equation.
SEPARATORS = (",", ";", "\\quad", "\\qquad", "\\\\")
#: Spacing commands, dropped by the tokenizer.
SPACING = ("\\,", "\\;", "\\:", "\\!", "\\ ", "\\>", "\\space", "\\thinspace",
           "\\enspace", "\\medspace", "\\thickspace", "\\displaystyle", "\\textstyle",
           "\\nonumber", "\\notag")
#: Macros that define macros, read or write files or change the lexer: named in the error.
FORBIDDEN = ("\\input", "\\include", "\\write", "\\immediate", "\\openout", "\\openin",
             "\\read", "\\def", "\\edef", "\\gdef", "\\xdef", "\\let", "\\newcommand",
             "\\renewcommand", "\\providecommand", "\\DeclareMathOperator", "\\catcode",
             "\\csname", "\\endcsname", "\\expandafter", "\\usepackage", "\\special",
             "\\shipout", "\\loop", "\\repeat", "\\begin", "\\end", "\\makeatletter")
#: The definitions :mod:`symnorm.lang.latex_macros` reads on lines of their own.
_MACRO_DEFINERS = ("\\newcommand", "\\renewcommand", "\\providecommand",
                   "\\DeclareMathOperator", "\\def")
#: Display environments whose only content is layout (``&`` columns, ``\\`` rows): their
#: ``\begin{..}``/``\end{..}`` carry no meaning; any other environment is refused.
ENVIRONMENTS = frozenset({"align", "align*", "aligned", "eqnarray", "eqnarray*", "equation",
                          "equation*", "gather", "gather*", "gathered", "split", "multline",
                          "multline*", "flalign", "flalign*", "displaymath"})

#: Operators TeX prints as binary between an operand and a braced group they open
#: (``a {+ b}``, ``a \\color{red}{\\cdot b}``): the braces are invisible, the operator is not
LEAD_OPS = frozenset({"+", "-", "*", "/", "\\cdot", "\\times", "\\odot", "\\pm", "\\mp",
                      "\\div", "\\over"})
#: Named functions written as macros.
FUNCTION_MACROS = {"\\exp": "exp", "\\log": "log", "\\ln": "log", "\\tr": "trace",
                   "\\tanh": "tanh"}  # tanh: (exp(2t)-1)/(exp(2t)+1) of a scalar
#: Bold/blackboard macros (``\mathbf 1`` is the ones vector, ``\mathbf x`` is ``x``).
BOLD = ("\\mathbf", "\\mathbb", "\\boldsymbol", "\\bm", "\\vec", "\\mathbfit")
#: Accents: ``\hat x`` is the name ``xhat``.
ACCENTS = {"\\hat": "hat", "\\widehat": "hat", "\\bar": "bar", "\\overline": "bar",
           "\\tilde": "tilde", "\\widetilde": "tilde"}
FRACS = ("\\frac", "\\dfrac", "\\tfrac")
#: Names the claim language always knows; never the target of a definition.
BUILTIN_NAMES = frozenset({"I", "ones", "sqrt", "abs", "exp", "log", "norm", "sum", "mean",
                           "trace", "jacobian", "tanh"})

_SIZES = ("\\left", "\\right", "\\big", "\\Big", "\\bigg", "\\Bigg", "\\bigl", "\\bigr",
          "\\Bigl", "\\Bigr", "\\biggl", "\\biggr", "\\Biggl", "\\Biggr", "\\middle")
_DELIMS = {"(": "(", ")": ")", "[": "[", "]": "]", "|": "|", "\\|": "\\|", "\\{": "\\{",
           "\\}": "\\}", "\\langle": "\\langle", "\\rangle": "\\rangle", "\\lvert": "|",
           "\\rvert": "|", "\\lVert": "\\|", "\\rVert": "\\|", "\\vert": "|", "\\Vert": "\\|"}
_SCIENTIFIC = re.compile(r"(?<![A-Za-z\\])\d+(?:\.\d+)?[eE][+-]?\d+")
_TEXT = re.compile(r"\\(?:text|textrm|textnormal|mbox)\s*\{(?:[^{}\\]|\\_)*\}")
#: any ``\text{..}`` with one level of braces inside (``\text{(scale \& shift)}``): prose
#: unless :data:`_TEXT` reads it as a word, a gloss judged by :func:`strip_glosses`
_PROSE = re.compile(r"\\(?:text|textrm|textnormal|mbox)\s*\{(?:[^{}]|\{[^{}]*\})*\}")
_ENV = re.compile(r"\\(begin|end)\s*\{([A-Za-z]+\*?)\}")
#: a tag's text may hold inline math (``\tag{$\epsilon = 0$}``): a name, like the rest of it
_LABEL = re.compile(r"\\(?:tag\*?|label)\s*\{(?:[^{}\\$]|\$[^$]*\$)*\}")
_COLOR = re.compile(r"\\color\s*\{[A-Za-z!0-9]*\}")
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
#: PaddlePaddle's row comments: ``//`` directly after an alignment ``&`` runs to the end of
#: its row (the next ``\\``, ``\end{..}`` or the end of the line); ``a // b`` elsewhere is
#: not a comment (it stays an error)
_ROW_COMMENT = re.compile(r"&[ \t]*//(?:[^\n\\]|\\(?![\\]|end\b))*")
#: ``\stackrel{\text{def}}{=}``, ``\overset{def}{=}``, ``\stackrel{\triangle}{=}``: a
#: definition, like ``:=``
_DEF_EQ = re.compile(r"\\(?:stackrel|overset)\s*\{\s*(?:\\(?:textrm|text|mathrm|mbox)\s*"
                     r"\{\s*def\s*\}|def|\\triangle|\\Delta)\s*\}\s*\{\s*=\s*\}")
#: ``\stackrel{(a)}{=}``, ``\overset{(2)}{=}``: an equality tagged by a proof step's mark
#: (a parenthesized letter, numeral or roman numeral), which the text refers to: ``=``
_TAGGED_EQ = re.compile(r"\\(?:stackrel|overset)\s*\{\s*\(\s*(?:[A-Za-z]|\d{1,2}|[ivx]{1,4})"
                        r"\s*\)\s*\}\s*\{\s*=\s*\}")
_TOKEN = re.compile(_TAGGED_EQ.pattern + "|" + _DEF_EQ.pattern + "|" + _ENV.pattern + "|" + _LABEL.pattern + "|"
                    + _COLOR.pattern + "|" + _PROSE.pattern + r"|\\[A-Za-z]+|\\.|\d+(?:\.\d+)?|:=|\|\||\s+|.", re.DOTALL)
#: Words of ``\text{...}`` that separate relations like ``\quad`` does.
CONNECTIVES = frozenset({"where", "and", "with", "since", "such that", "s.t.",
                         "i.e.", "so", "hence", "then"})
#: Words of ``\text{...}`` that make the relations after them (to the end of the row)
#: conditions of the relation or chain just before them: ``y = \hat x \text{ if }
#: \gamma = 1, \beta = 0`` is the claim ``y == xhat given gamma == 1, beta == 0``.
CONDITIONS = frozenset({"if", "for", "when", "whenever", "provided", "provided that",
                        "given", "assuming"})
#: The token a condition word becomes.
IF = "\\if"
#: Macros read as another token: ``\triangleq`` defines like ``:=``; ``\equiv`` (identically
#: equal) is ``=``, which a claim already means for every value; ``\ast`` is ``*``.
_ALIASES = {"\\triangleq": ":=", "\\equiv": "=", "\\ast": "*"}
#: Spacing that is not a product: dropped, but remembered in ``Tok.gap``.
_SILENT = ("\\!", "\\displaystyle", "\\textstyle", "\\nonumber", "\\notag")


@dataclass(frozen=True)
class Tok:
    """One token: its text (``\\frac``, ``x``, ``12``), offsets in the equation, position."""

    text: str
    start: int
    end: int
    line: int
    col: int
    #: the layout written just before this token: a spacing command (``\\ ``, ``\\;``) or a
    #: ``\\tag``/``\\label`` that the tokenizer dropped ("" when none). The parser uses it
    #: to refuse a product that joins two relations written without a separator
    #: (``E[x] = 0\\ E[y] = 0`` is two relations, not ``0 * E[y]``).
    gap: str = ""

    @property
    def is_cmd(self) -> bool:
        return self.text.startswith("\\")


class _Locator:
    """Maps offsets in the equation to (line, column) of the file; in an equation whose
    macros were expanded (:mod:`symnorm.lang.latex_macros`), through ``origin`` to the
    offsets of the equation as written (``source``)."""

    def __init__(self, text: str, line: int, column: int,
                 origin: Sequence[int] | None = None, source: str | None = None) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text if source is None
                                                             else source)]
        self.line, self.column = line, column
        self.origin = origin

    def __call__(self, offset: int) -> tuple[int, int]:
        if self.origin is not None and self.origin:
            offset = self.origin[min(offset, len(self.origin) - 1)]
        lo = bisect.bisect_right(self.starts, offset) - 1
        col = offset - self.starts[lo] + 1
        return self.line + lo, col + (self.column - 1 if lo == 0 else 0)


def tokenize(text: str, file: str, line: int, column: int,
             expanded: Expanded | None = None) -> list[Tok]:
    """Split ``text`` into tokens, or raise :class:`SourceError` at the first bad one;
    ``expanded``, when ``text`` is an equation with its macros expanded, places each token
    in the equation as written."""
    if expanded is not None and expanded.text != text:  # pragma: no cover - a caller's slip
        raise ValueError("tokenize: expanded.text is not the text to tokenize")
    where = _Locator(text, line, column, *((expanded.origin, expanded.source)
                                           if expanded is not None else ()))

    def fail(msg: str, offset: int, hint: str = "") -> SourceError:
        ln, col = where(offset)
        return SourceError(msg, file, ln, col, hint)

    if len(text) > MAX_LENGTH:
        raise fail(f"LaTeX equation too long ({len(text)} characters; the limit is "
                   f"{MAX_LENGTH})", 0, "split it into several equations")
    sci = _SCIENTIFIC.search(text)
    if sci:
        raise fail(f"scientific notation {sci.group()!r}", sci.start(),
                   "write 10^{-5} or \\frac{1}{10^5}")
    # a comment runs to the end of its line; blanked (not cut) so positions stay true
    text = _COMMENT.sub(lambda c: " " * len(c.group()), text)
    text = _ROW_COMMENT.sub(lambda c: " " * len(c.group()), text)
    toks: list[Tok] = []
    size_at: int | None = None  # offset of a pending \left / \big
    envs: list[tuple[str, int]] = []
    null_left = 0  # open \left. (whose \right| would be an evaluation bar)
    gap = ""  # the spacing or \tag/\label just dropped (Tok.gap of the next token)
    label_at: tuple[int, str] | None = None  # a \tag/\label after a relation's text
    for m in _TOKEN.finditer(text):
        s, off = m.group(), m.start()
        if s.isspace() or s == "&" or s in _SILENT:
            continue
        if s in SPACING or s == "~":
            gap = gap or s
            continue
        env = _ENV.fullmatch(s)
        if env:
            _environment(env.group(1), env.group(2), off, envs, fail)
            continue
        if _COLOR.fullmatch(s):  # \color{red}: a colour, no meaning (see _unbox)
            ln, col = where(off)
            toks.append(Tok("\\color", off, m.end(), ln, col, gap))
            gap = ""
            continue
        if _DEF_EQ.fullmatch(s):
            s = ":="
        elif _TAGGED_EQ.fullmatch(s):
            s = "="
        if _LABEL.fullmatch(s):
            # \tag{2}, \label{eq:x}: a name, no meaning; it begins or ends a row, so text
            # after it in the same row (checked at the next token) is refused
            if toks and toks[-1].text not in SEPARATORS and toks[-1].text != IF:
                label_at = (off, s.split("{")[0])
            gap = s.split("{")[0]
            continue
        if size_at is not None and s == ".":  # \left. or \right.: an empty delimiter
            null_left += text.startswith("\\left", size_at)
            size_at = None
            continue
        if (size_at is not None and null_left and text.startswith("\\right", size_at)
                and _DELIMS.get(s, s) == "|"):
            raise fail("an evaluation bar \\left. ... \\right| (a value at a point) is not "
                       "modelled", size_at, "substitute the point yourself, or state the "
                       "claim with `given` in a symnorm line")
        if s in UNICODE_POWERS:  # x², σ³: the power, two tokens
            ln, col = where(off)
            toks += [Tok("^", off, m.end(), ln, col, gap),
                     Tok(UNICODE_POWERS[s], off, m.end(), ln, col)]
            gap = ""
            continue
        if not s.isascii():
            if s not in UNICODE_MACROS:
                raise fail(f"non-ASCII character {s!r} (U+{ord(s[0]):04X}) in LaTeX", off,
                           "write the LaTeX macro instead (\\epsilon, \\le, ...); of the "
                           "Unicode letters and symbols only " + "".join(UNICODE_MACROS)
                           + " and the powers " + "".join(UNICODE_POWERS) + " are read")
            s = UNICODE_MACROS[s]
        if s == "%":  # only after a row break written against it (\\\\%): say what it is
            raise fail("'%' directly after \\\\ (a comment?)", off,
                       "put a space between \\\\ and the comment")
        if s == "\\%":
            raise fail("percent sign \\% inside an equation", off, "write the number as a "
                       "fraction (5\\% is \\frac{5}{100})")
        if s in FORBIDDEN or s.rstrip("*") in FORBIDDEN:
            if s in _MACRO_DEFINERS:
                raise fail(f"LaTeX command {s} inside an equation", off,
                           "a macro definition (\\newcommand, \\renewcommand, "
                           "\\providecommand, \\DeclareMathOperator, \\def) stands on "
                           "lines of its own, before the equations that use it")
            raise fail(f"LaTeX command {s} is not accepted", off,
                       "symnorm reads a fixed math subset; file access, \\let and lexer "
                       "changes are never expanded")
        if s == "\\" or s == "\\\n":
            raise fail("stray backslash", off)
        if s in _SIZES:
            if size_at is not None:
                raise fail(f"{s} after a sizing command", off)
            size_at = off
            continue
        sized = size_at  # \left( spans its sizing command: the source shows it whole
        if size_at is not None:
            if s not in _DELIMS:
                raise fail(f"{text[size_at:m.end()].split()[0]} must be followed by a "
                           f"delimiter such as ( [ | \\| \\langle, got {s!r}", off)
            size_at = None
        if label_at is not None and s not in SEPARATORS and s != ".":
            raise fail(f"{s!r} after {label_at[1]}{{...}} in the same row", off,
                       f"{label_at[1]} ends an equation's row: separate relations with ',', "
                       "'\\quad' or '\\\\', and put the tag at the end of its row")
        label_at = None
        if _PROSE.fullmatch(s):
            new = _text_tokens(s, off, where) if _TEXT.fullmatch(s) else \
                [Tok(GLOSS, off, m.end(), *where(off))]
            if new and gap:
                new[0] = replace(new[0], gap=gap)
            toks += new
            gap = ""
            continue
        s = "\\|" if s == "||" else _DELIMS.get(s, _ALIASES.get(s, s)) if s.startswith("\\") else s
        ln, col = where(off)
        toks.append(Tok(s, off if sized is None else sized, m.end(), ln, col, gap))
        gap = ""
    if size_at is not None:
        raise fail("sizing command at the end of the equation without a delimiter", size_at)
    if envs:
        raise fail(f"\\begin{{{envs[-1][0]}}} is never closed", envs[-1][1],
                   f"end it with \\end{{{envs[-1][0]}}}")
    refuse_index_ranges(toks, text, fail)  # y_i = ... \;,\; i=1,....,C (latex_range.py)
    toks = _accent_subscripts(unwrap_editor_latex(
        _unbox(strip_glosses(toks, text, fail), fail), fail))
    if not toks:
        raise fail("empty LaTeX equation", 0)
    return toks


def _environment(kind: str, name: str, off: int, envs: list[tuple[str, int]],
                 fail: Callable[..., SourceError]) -> None:
    """``\\begin{aligned}`` ... ``\\end{aligned}``: layout only; other environments fail."""
    if name not in ENVIRONMENTS:
        raise fail(f"LaTeX environment {{{name}}} is not accepted", off,
                   "accepted: " + ", ".join(sorted(ENVIRONMENTS)) + " (layout only)")
    if kind == "begin":
        envs.append((name, off))
    elif not envs or envs[-1][0] != name:
        raise fail(f"\\end{{{name}}} without a matching \\begin{{{name}}}", off)
    else:
        envs.pop()


def _unbox(toks: list[Tok], fail: Callable[..., SourceError]) -> list[Tok]:
    """``\\boxed{...}`` and ``\\color{red}{...}``: around whole relations the wrapper carries
    no meaning (it must then end its row: ``\\boxed{a = b} + c`` would otherwise read as
    ``a = b + c``); around a part of an expression ``\\boxed`` groups what it frames, like
    parentheses, and a colour's braces are an ordinary group (so is a box whose content
    starts with an operator: ``a \\boxed{+ b}`` is ``a {+ b}``, the sum).  ``\\color{red} a`` (no
    braces) colours what follows: no meaning."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text not in ("\\boxed", "\\color"):
            out.append(t)
            i += 1
            continue
        if i + 1 >= len(toks) or toks[i + 1].text != "{":
            if t.text == "\\color":
                i += 1
                continue
            raise fail("\\boxed needs a braced argument", t.start)
        depth, j, rel = 0, i + 1, False
        while j < len(toks):
            depth += {"{": 1, "}": -1}.get(toks[j].text, 0)
            if depth == 1 and (toks[j].text in RELATIONS or toks[j].text in DEFINERS):
                rel = True
            if depth == 0:
                break
            j += 1
        if j >= len(toks):
            raise fail(f"{t.text}{{ is never closed", t.start)
        inner = _unbox(toks[i + 2:j], fail)
        if rel:
            after = toks[j + 1] if j + 1 < len(toks) else None
            if after is not None and after.text not in SEPARATORS and after.text != IF \
                    and not (after.text == "." and j + 2 == len(toks)):
                raise fail(f"{after.text!r} after {t.text}{{...}} around a relation", after.start,
                           f"{t.text} around whole relations must end its row; separate what "
                           "follows with ',', '\\quad' or '\\\\'")
            out += inner
        elif t.text == "\\color" or inner and inner[0].text in LEAD_OPS:
            # \boxed{+ b} frames "+ b": after an operand that is the sum TeX prints, never
            # the product a (+b), so its frame is an invisible group like a colour's braces
            out += [toks[i + 1], *inner, toks[j]]
        else:
            o, c = toks[i + 1], toks[j]
            out += [Tok("(", o.start, o.end, o.line, o.col), *inner,
                    Tok(")", c.start, c.end, c.line, c.col)]
        i = j + 1
    return out


#: Longest braced subscript moved out of an accent (``\\hat{x_{ij}}``), in tokens.
_ACCENT_SUB_TOKENS = 12


def _accent_subscripts(toks: list[Tok]) -> list[Tok]:
    """``\\hat{x_i}`` is ``\\hat{x}_i``: the accent is on the letter, the subscript indexes the
    accented name (both spellings are printed for the same quantity).  Only a subscript
    that ends the braced argument moves; anything else is left for the parser to judge."""
    out = list(toks)
    i = 0
    while i + 4 < len(out):
        a, o, x, u = out[i:i + 4]
        if (a.text in ACCENTS and o.text == "{" and u.text == "_"
                and (len(x.text) == 1 and x.text.isalpha() or x.text in GREEK)):
            j = i + 4  # the subscript: one token or a braced group (of a few tokens: a
            # longer one is left to the parser, so the scan stays linear in the input)
            closed = out[j].text != "{"
            if not closed:
                depth = 0
                while j < min(len(out), i + 4 + _ACCENT_SUB_TOKENS):
                    depth += {"{": 1, "}": -1}.get(out[j].text, 0)
                    if depth == 0:
                        closed = True
                        break
                    j += 1
            if closed and j + 1 < len(out) and out[j + 1].text == "}":
                out[i + 3:j + 2] = [out[j + 1], *out[i + 3:j + 1]]
        i += 1
    return out


def _text_tokens(s: str, off: int, where: _Locator) -> list[Tok]:
    """``\\text{where}`` separates relations; ``\\text{RMS}`` is a name; other prose is a
    gloss (:data:`GLOSS`), accepted only at the edge of a row."""
    inner_at = s.index("{") + 1
    content = s[inner_at:-1]
    word = content.replace("~", " ").strip().rstrip(",:").strip()
    if word.lower() in CONDITIONS:
        ln, col = where(off)
        return [Tok(IF, off, off + len(s), ln, col)]
    if word.lower() in CONNECTIVES or not word:
        ln, col = where(off)
        return [Tok("\\quad", off, off + len(s), ln, col)]
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*(?:\\_[A-Za-z0-9]+)*", word):
        return [Tok(GLOSS, off, off + len(s), *where(off))]
    start = off + inner_at + content.index(word)
    out = [Tok("\\operatorname", off, off + inner_at, *where(off)),
           Tok("{", off, off + inner_at, *where(off))]
    for piece in re.finditer(r"\\_|.", word):  # \text{running\_mean}: \_ joins words
        a = start + piece.start()
        out.append(Tok(piece.group(), a, start + piece.end(), *where(a)))
    end = off + len(s) - 1
    return out + [Tok("}", end, end + 1, *where(end))]

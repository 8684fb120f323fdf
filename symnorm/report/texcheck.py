"""Structural check of whitelisted math LaTeX, so that what the report emits also compiles.

The whitelist in :mod:`symnorm.report.texsafe` keeps TeX from executing anything; this
module keeps it from stopping: every command gets its arguments, ``\\left`` meets its
``\\right`` in the same group, environments nest, ``\\\\`` and ``&`` appear only directly
inside a matrix-like environment, no double superscripts, and ``\\text{...}`` holds text.

>>> well_formed(r"\\left(\\frac{a}{b}\\right)^2"), well_formed(r"a \\\\ b")
(True, False)
>>> well_formed(r"\\begin{pmatrix}a\\\\b\\end{pmatrix}"), well_formed(r"x^2^3")
(True, False)
"""

from __future__ import annotations

import re

__all__ = ["well_formed"]

_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\s+|.", re.DOTALL)
_WORD = re.compile(r"\\[A-Za-z]+")
_ONE = frozenset((
    "sqrt", "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "mathcal", "mathbb",
    "boldsymbol", "bm", "operatorname", "hat", "bar", "tilde", "vec", "dot", "ddot",
    "overline", "underline", "widehat", "widetilde", "overbrace", "underbrace", "not",
    "substack", "pmod", "mathop", "mathbin", "mathrel",
))
_TWO = frozenset((
    "frac", "dfrac", "tfrac", "binom", "tbinom", "dbinom", "overset", "underset", "stackrel",
))
_TEXT = frozenset((
    "text", "textrm", "textbf", "textit",
))
_DELIM_CMDS = frozenset((
    "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
    "biggl", "biggr",
))
_DELIMS = frozenset(["(", ")", "[", "]", "|", ".", "/", "<", ">", "\\{", "\\}", "\\|",
                     "\\langle", "\\rangle", "\\lvert", "\\rvert", "\\lVert", "\\rVert",
                     "\\vert", "\\Vert", "\\lfloor", "\\rfloor", "\\lceil", "\\rceil"])
_TEXT_SAFE = frozenset(["\\,", "\\ ", "\\{", "\\}", "\\_", "\\&", "\\;", "\\:", "\\!"])
#: Control words that are one symbol, so may stand as an unbraced argument (x^\top).
_SIMPLE_NAMES = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
    "nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma "
    "Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega infty partial nabla ell top "
    "prime cdot times pm mp le leq ge geq approx sim equiv in ast star circ bullet emptyset "
    "forall exists perp hbar imath jmath intercal"
)
_SIMPLE = frozenset(_SIMPLE_NAMES.split())
_STOP = frozenset(["}", "&", "\\\\", "^", "_", "'", "~"])  # not an argument
_COLSPEC = re.compile(r"[lcr|]{1,40}")
#: Columns an environment takes (amsmath's matrices: MaxMatrixCols = 10).
_COLUMNS = {"cases": 2, "gathered": 1, "aligned": 40}


class _Bad(Exception):
    pass


class _Checker:
    def __init__(self, text: str) -> None:
        self.toks = [t for t in _TOKEN.findall(text) if not t.isspace()]
        self.i = 0
        # frames: [kind, open \left count, column in the row, columns allowed]
        self.frames: list[list] = [["top", 0, 1, 0]]

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise _Bad("unexpected end")
        self.i += 1
        return tok

    def run(self) -> None:
        while self.peek() is not None:
            self.atom()
        if len(self.frames) != 1 or self.frames[0][1]:
            raise _Bad("unclosed group, environment or \\left")

    def argument(self) -> None:
        """One argument: a braced group or a single token (with its own arguments)."""
        tok = self.peek()
        if tok is None or tok in _STOP:
            raise _Bad("missing argument")
        if tok == "{":
            self.take()
            self.group_body()
        elif tok.startswith("\\") and tok[1:] not in _SIMPLE and tok not in ("\\{", "\\}",
                                                                          "\\|"):
            # amsmath defines \sum, \log, \dots... as several tokens: brace them
            raise _Bad("an unbraced argument must be one simple token")
        else:
            self.take()

    def group_body(self) -> None:
        """The atoms after an opening brace (already taken) up to its closing brace."""
        self.frames.append(["{", 0, 1, 0])
        while self.peek() != "}":
            if self.peek() is None:
                raise _Bad("unclosed brace")
            self.atom()
        self.close_group()

    def close_group(self) -> None:
        self.take()
        kind, lefts = self.frames.pop()[:2]
        if kind != "{" or lefts:
            raise _Bad("group closed across an environment or \\left")

    def scripts(self) -> None:
        seen: set[str] = set()
        while self.peek() in ("^", "_", "'"):
            tok = self.take()
            if tok == "'":  # a prime is a superscript: x'^2 is fine, x^2' and a'_1' are not
                if seen:
                    raise _Bad("prime after a script")
                continue
            if tok in seen:
                raise _Bad("double script")
            seen.add(tok)
            self.argument()

    def atom(self, scripts: bool = True) -> None:
        tok = self.take()
        if tok == "{":
            self.group_body()
        elif tok == "}":
            raise _Bad("unbalanced }")
        elif tok in ("&", "\\\\"):
            frame = self.frames[-1]
            if frame[0] in ("{", "top"):
                raise _Bad(f"{tok} outside a matrix environment")
            if tok == "\\\\":
                frame[2] = 1
            else:  # one more column in this row: no more than the environment has
                frame[2] += 1
                if frame[2] > frame[3]:
                    raise _Bad(f"more than {frame[3]} columns in {frame[0]}")
        elif tok in ("^", "_"):
            raise _Bad("script without a base")
        elif _WORD.fullmatch(tok):
            self.command(tok[1:])
        if scripts:
            self.scripts()

    def command(self, word: str) -> None:
        if word in _TWO:
            self.argument()
            self.argument()
        elif word in _ONE:
            if word == "sqrt" and self.peek() == "[":
                # TeX ends the optional argument at the first ]: no brackets inside
                self.take()
                while (tok := self.take()) != "]":
                    if tok in ("[", "{", "}", "\\sqrt"):
                        raise _Bad("brackets, braces or \\sqrt in a root's index")
            self.argument()
        elif word in _TEXT:
            self.text_argument()
        elif word in _DELIM_CMDS:
            if self.take() not in _DELIMS:
                raise _Bad("not a delimiter")
            frame = self.frames[-1]
            if word == "left":
                frame[1] += 1
            elif word == "right":
                frame[1] -= 1
                if frame[1] < 0:
                    raise _Bad("\\right without \\left")
            elif word == "middle" and frame[1] <= 0:
                raise _Bad("\\middle outside \\left...\\right")
        elif word in ("begin", "end"):
            if self.take() != "{":
                raise _Bad("environment name expected")
            name = ""
            while (tok := self.take()) != "}":
                name += tok
            if word == "begin":
                if name == "split":  # amsmath allows it only in display environments
                    raise _Bad("split outside a display environment")
                columns = self.column_spec() if name == "array" else _COLUMNS.get(name, 10)
                self.frames.append([name, 0, 1, columns])
            else:
                kind, lefts = self.frames.pop()[:2]
                if kind != name or lefts or not self.frames:
                    raise _Bad("mismatched \\end")

    def column_spec(self) -> int:
        """Read an array's column spec; the number of columns it declares."""
        if self.take() != "{":
            raise _Bad("array needs a column spec")
        spec = ""
        while (tok := self.take()) != "}":
            spec += tok
        columns = sum(spec.count(c) for c in "lcr")
        if not _COLSPEC.fullmatch(spec) or not columns:
            raise _Bad("bad column spec")
        return columns

    def text_argument(self) -> None:
        if self.take() != "{":
            raise _Bad("\\text needs braces")
        depth = 1
        while depth:
            tok = self.take()
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth -= 1
            elif tok in ("^", "_", "&") or tok.startswith("\\") and tok not in _TEXT_SAFE:
                raise _Bad("math or commands inside \\text")


def well_formed(text: str) -> bool:
    """True if ``text`` (already whitelisted) is math TeX will typeset without an error."""
    try:
        _Checker(text).run()
    except (_Bad, IndexError):
        return False
    return True

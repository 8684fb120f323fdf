"""``\\underbrace{A}_{label}``, ``\\overbrace{A}^{label}``, ``\\underset{label}{A}``,
``\\overset{label}{A}``: a group A with a label under or over it.

The group reads as A (its braces mark what the label is about, like parentheses).  The
label is either a gloss (one ``\\text{..}``: presentation, no meaning) or a statement
about A (``_{=\\,1}``, ``_{=\\,\\hat x_i}``): then the equation gains the claim ``A =
label``, labelled ``LABEL.underbrace1`` (``overbrace``, ``underset``, ``overset``), which
is checked like every other claim and never dropped.  Any other label is an error.

>>> from symnorm.lang.latex import parse_latex_equation
>>> out = parse_latex_equation(r"a = \\underbrace{b c}_{=\\,c b}", "t",
...                            is_defined=lambda n: n in "abc")
>>> [(s.label, str(s.relation)) for s in out]
[('t.1', 'a == b * c'), ('t.underbrace1', 'b * c == c * b')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from symnorm.lang.latex_gloss import stating
from symnorm.lang.latex_tokens import Tok
from symnorm.lang.syntax import Expr, Pos

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser

__all__ = ["BRACES", "BraceClaim", "read_brace"]

#: macro -> (whether the label comes first, as a braced argument; the script of a label
#: written after the group)
BRACES = {"\\underbrace": (False, "_"), "\\overbrace": (False, "^"),
          "\\underset": (True, ""), "\\overset": (True, "")}
_TEXT = re.compile(r"\\(?:text|textrm|textnormal|mbox)\s*\{(?:[^{}]|\{[^{}]*\})*\}")


@dataclass(frozen=True)
class BraceClaim:
    """The claim a math label states: ``group == label``."""

    macro: str
    op: str
    group: Expr
    label: Expr
    pos: Pos
    source: str


def _braced(p: ExprParser, cmd: Tok, what: str) -> tuple[int, int]:
    """Token span (a, b) of a braced argument after ``cmd``, with the braces consumed."""
    if not p.at("{"):
        raise p.err(f"{cmd.text} needs a braced {what}", p.peek() or cmd,
                    f"write {cmd.text}{{...}}")
    opened = p.next()
    a, depth = p.i, 1
    while p.peek() is not None:
        depth += {"{": 1, "}": -1}.get(p.peek().text, 0)  # type: ignore[union-attr]
        if depth == 0:
            b = p.i
            p.i += 1
            return a, b
        p.i += 1
    raise p.err(f"expected '}}' to close '{{' at {opened.line}:{opened.col}", None)


def _group(p: ExprParser, a: int, b: int, cmd: Tok) -> Expr:
    """The expression of tokens a..b-1 (they must be one expression)."""
    keep = p.i
    p.i = a
    p.closers.append(None)
    try:
        e = p.expr()
    finally:
        p.closers.pop()
    if p.i != b:
        bad = p.toks[p.i]
        raise p.err(f"unexpected {bad.text!r} inside {cmd.text}{{...}}", bad,
                    f"{cmd.text} frames one expression")
    p.i = keep
    return e


def _label(p: ExprParser, a: int, b: int, cmd: Tok, group: Expr, source: str
           ) -> BraceClaim | None:
    """None for a text label; the claim for ``= expr``; an error for anything else."""
    if a == b:
        raise p.err(f"an empty label on {cmd.text}", cmd)
    span = p.span(a, b).strip()
    if _TEXT.fullmatch(span):
        said = stating(span)
        if said is not None:
            raise p.err(said[0], p.toks[a], said[1])
        return None
    first = p.toks[a]
    if first.text == "=":
        label = _group(p, a + 1, b, cmd)
        return BraceClaim(cmd.text, "==", group, label, p.pos(cmd), source)
    raise p.err(f"the label {span!r} of {cmd.text} is neither text nor an equation (= ...)",
                first, f"write {cmd.text}{{...}}_{{\\text{{...}}}} for a gloss or "
                f"{cmd.text}{{...}}_{{= ...}} for what the group equals (checked)")


def read_brace(p: ExprParser, cmd: Tok) -> Expr:
    """After ``cmd`` (consumed): the group, its label consumed and any claim recorded."""
    label_first, script = BRACES[cmd.text]
    start = p.i - 1
    if label_first:
        la, lb = _braced(p, cmd, "label")
        ga, gb = _braced(p, cmd, "group")
    else:
        ga, gb = _braced(p, cmd, "group")
        if not p.at(script):
            return _group(p, ga, gb, cmd)  # no label: the frame alone
        p.next()
        if p.at("{"):
            la, lb = _braced(p, cmd, "label")
        else:
            la, lb = p.i, p.i + 1
            p.i += 1
    group = _group(p, ga, gb, cmd)
    claim = _label(p, la, lb, cmd, group, p.span(start, p.i))
    if claim is not None:
        p.braces.append(claim)
    return group

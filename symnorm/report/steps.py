"""Derivation steps as a proof sketch: one sentence and one display per step, wrapped.

An engine records its steps as ``{"text": sentence, "latex": maths}``; a verdict reached
without steps (the SMT step, exact evaluation, a witness) gets one sentence saying how it
was reached.  A long display is broken at its top-level ``+``/``-`` into left-aligned lines,
so it wraps instead of overflowing.

>>> print(wrap_math("a + b + c", width=3))
\\begin{array}{l}{\\displaystyle a} \\\\ {\\displaystyle \\quad + b} \\\\ {\\displaystyle \\quad + c}\\end{array}
>>> wrap_math(r"\\frac{a + b}{c}", width=4)
'\\\\frac{a + b}{c}'
"""

from __future__ import annotations

import re

from ..check.verdict import Verdict
from .texsafe import safe_math

__all__ = ["GRAM_LEGEND", "GRAM_LEGEND_TEX", "GRAM_MARK", "card_steps", "wrap_math"]

#: A step using the Gram notation contains this.
GRAM_MARK = r"\langle"
#: The legend printed before the first step that uses the Gram notation.
GRAM_LEGEND = ("Notation: the engine writes inner products as Gram symbols, with 1 the "
               "all-ones vector:")
GRAM_LEGEND_TEX = (r"\langle a, b\rangle = a^\top b,\quad \langle \mathbf{1}, \mathbf{1}"
                   r"\rangle = d,\quad \langle x, \mathbf{1}\rangle = \sum_{i} x_{i}")
#: A display wider than about this many symbols is broken into lines (a control word such as
#: ``\\frac`` counts as one symbol, braces and spaces as none).
WRAP_WIDTH = 90

_CONTROL_WORD = re.compile(r"\\[A-Za-z]+")


def _width(latex: str) -> int:
    """A rough count of the symbols ``latex`` shows."""
    return len(re.sub(r"[{}\s]", "", _CONTROL_WORD.sub("x", latex)))


_TOKEN = re.compile(r"\\left.|\\right.|\\[A-Za-z]+|\\.|[{}]|\s[+-]\s|.", re.DOTALL)


def _terms(latex: str) -> list[str]:
    """``latex`` cut before each ``+``/``-`` outside every group."""
    out, start, depth = [], 0, 0
    for m in _TOKEN.finditer(latex):
        tok = m.group()
        if tok == "{" or tok.startswith(r"\left"):
            depth += 1
        elif tok == "}" or tok.startswith(r"\right"):
            depth -= 1
        elif depth == 0 and tok in (" + ", " - ") and m.start() > start:
            out.append(latex[start:m.start()])
            start = m.start() + 1
    out.append(latex[start:])
    return [t.strip() for t in out if t.strip()]


def wrap_math(latex: str, width: int = WRAP_WIDTH) -> str:
    """Break a long sum into lines of about ``width`` characters, each after the first
    starting with its sign; a display that is not a sum stays as it is."""
    if _width(latex) <= width or r"\begin" in latex:
        return latex
    terms = _terms(latex)
    if len(terms) < 2:
        return latex
    lines = [terms[0]]
    for t in terms[1:]:
        if _width(lines[-1]) + _width(t) + 1 <= width:
            lines[-1] += " " + t
        else:
            lines.append(t)
    if len(lines) < 2:
        return latex
    # array cells are set in text style: \displaystyle keeps fractions full size
    return r"\begin{array}{l}" + r" \\ ".join(
        "{\\displaystyle " + (r"\quad " if k else "") + line + "}"
        for k, line in enumerate(lines)) + r"\end{array}"


def _sides(statement: str) -> tuple[str, str] | None:
    """The two sides of a claim-language statement as LaTeX, or None when it does not parse."""
    try:
        from ..lang.parser import parse_statement
        from .texexpr import TexExpr
        relation = parse_statement(f"claim r: {statement}").relation
        tex = TexExpr()
        return tex.print(relation.left), tex.print(relation.right)
    except Exception:  # noqa: BLE001 - no parse: the steps show the values alone
        return None


def _derivative(call: str) -> str | None:
    """``jacobian(f, x)`` (claim-language text from the engine) as ``\\partial f/\\partial x``."""
    try:
        from ..lang.parser import parse_statement
        from ..lang.syntax import Call
        from .texexpr import TexExpr
        node = parse_statement(f"claim r: {call} == 0").relation.left
        if not isinstance(node, Call) or node.func != "jacobian" or len(node.args) != 2:
            return None
        tex = TexExpr()
        return (rf"\frac{{\partial}}{{\partial {tex.print(node.args[1])}}}\left("
                rf"{tex.print(node.args[0])}\right)")
    except Exception:  # noqa: BLE001 - no parse: the step shows the derivative alone
        return None


def card_steps(v: Verdict) -> tuple[tuple[str, str | None], ...]:
    """The steps a claim card prints: the engine's, or one sentence on how it was reached."""
    steps = []
    sides = _sides(v.statement) if any("side" in s for s in v.steps) else None
    for s in v.steps:
        tex = safe_math(s.get("latex", "") or "")
        side = s.get("side")
        if tex and sides and side in ("left", "right"):  # name the side it is the value of
            tex = safe_math(f"{sides[0 if side == 'left' else 1]} = {tex}") or tex
        derivative = _derivative(str(s.get("of", ""))) if tex and s.get("of") else None
        if derivative:  # name what is differentiated
            tex = safe_math(f"{derivative} = {tex}") or tex
        if tex:
            wrapped = wrap_math(tex)
            tex = safe_math(wrapped) or tex
        steps.append((str(s.get("text", "")), tex))
    if steps or v.status not in ("proved", "proved-for", "refuted", "confirmed"):
        return tuple(steps)
    from .model import ENGINE_STEP, engine_key
    sentence = ENGINE_STEP.get(engine_key(v.engine))
    return ((sentence, None),) if sentence else ()

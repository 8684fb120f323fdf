"""Print claim-language syntax trees as LaTeX, for statements that carry no LaTeX of their own.

A printer class in the SymPy style: ``_print_<Node>`` per syntax node, nested parts go
through :meth:`TexExpr.print`.  Names become identifiers (``eps`` -> ``\\epsilon``), never
raw TeX, so user text cannot reach TeX as a command.

>>> from fractions import Fraction
>>> from symnorm.lang.syntax import BinOp, Name, Num, Pos, Relation
>>> p = Pos(1, 1)
>>> TexExpr().print(Relation("==", BinOp("/", Name("eps", p), BinOp("**", Name("s", p),
...     Num(Fraction(3), p), p), p), Num(Fraction(0), p), p))
'\\\\frac{\\\\epsilon}{s^{3}} = 0'
"""

from __future__ import annotations

import re
from typing import Any

from ..lang import syntax as ast

__all__ = ["TexExpr", "name_tex"]

_GREEK = {"eps": r"\epsilon", "epsilon": r"\epsilon", "alpha": r"\alpha", "beta": r"\beta",
          "gamma": r"\gamma", "delta": r"\delta", "lam": r"\lambda", "lambda": r"\lambda",
          "mu": r"\mu", "sigma": r"\sigma", "tau": r"\tau", "theta": r"\theta",
          "rho": r"\rho", "phi": r"\phi", "psi": r"\psi", "omega": r"\omega"}
_FUNCS = {"N": r"\mathcal{N}", "BN": r"\mathrm{BN}", "LN": r"\mathrm{LN}",
          "RMS": r"\mathrm{RMS}", "sqrt": None, "tr": r"\operatorname{tr}",
          "trace": r"\operatorname{tr}", "diag": r"\operatorname{diag}",
          "det": r"\det", "abs": None, "norm": None}
_REL = {"==": "=", "!=": r"\ne", "<": "<", "<=": r"\le", ">": ">", ">=": r"\ge"}
_PREC = {"+": 1, "-": 1, "*": 2, "@": 2, "/": 2, "**": 4}
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*")
_NAMES = {"ones": r"\mathbf{1}"}


def name_tex(name: str) -> str:
    """LaTeX for an identifier: Greek names, ``x_1`` subscripts, long names upright."""
    if not _IDENT.fullmatch(name):
        return r"\mathtt{?}"
    base, _, sub = name.partition("_")
    if base in _NAMES:
        tex = _NAMES[base]
    elif base.endswith("hat") and len(base) > 3:  # xhat -> \hat{x}
        tex = rf"\hat{{{name_tex(base[:-3])}}}"
    else:
        tex = _GREEK.get(base) or (base if len(base) == 1 else rf"\mathrm{{{base}}}")
    return f"{tex}_{{{name_tex(sub)}}}" if sub else tex


class TexExpr:
    """LaTeX printer over :mod:`symnorm.lang.syntax` nodes."""

    def print(self, node: Any) -> str:
        method = getattr(self, f"_print_{type(node).__name__}", None)
        if method is None:
            raise TypeError(f"no LaTeX for {type(node).__name__}")
        return method(node)

    def _print_Relation(self, n: ast.Relation) -> str:
        return f"{self.print(n.left)} {_REL[n.op]} {self.print(n.right)}"

    def _print_Num(self, n: ast.Num) -> str:
        v = n.value
        if v.denominator == 1:
            return str(v.numerator)
        sign = "-" if v < 0 else ""
        return rf"{sign}\frac{{{abs(v.numerator)}}}{{{v.denominator}}}"

    def _print_Name(self, n: ast.Name) -> str:
        return name_tex(n.id)

    def _print_Neg(self, n: ast.Neg) -> str:
        inner = self.print(n.operand)
        return f"-\\left({inner}\\right)" if isinstance(n.operand, (ast.BinOp, ast.Neg)) and \
            getattr(n.operand, "op", "+") in "+-" else f"-{inner}"

    def _print_Transpose(self, n: ast.Transpose) -> str:
        inner = self.print(n.operand)
        simple = isinstance(n.operand, (ast.Name, ast.Call))
        return f"{inner}^\\top" if simple else f"\\left({inner}\\right)^\\top"

    def _print_VectorLit(self, n: ast.VectorLit) -> str:
        return r"\begin{pmatrix}" + r" \\ ".join(self.print(i) for i in n.items) + \
            r"\end{pmatrix}"

    def _print_Call(self, n: ast.Call) -> str:
        args = ", ".join(self.print(a) for a in n.args)
        if n.func == "sqrt":
            return rf"\sqrt{{{args}}}"
        if n.func == "abs":
            return rf"\left|{args}\right|"
        if n.func == "norm":
            return rf"\left\|{args}\right\|"
        if n.func == "hadamard" and len(n.args) == 2:
            return rf"\left({self.print(n.args[0])} \odot {self.print(n.args[1])}\right)"
        head = _FUNCS.get(n.func) or name_tex(n.func)
        if n.params:
            head += "_{" + ", ".join(name_tex(p) for p in n.params) + "}"
        if n.batch is not None:
            args += r";\ \left\{" + ", ".join(self.print(b) for b in n.batch) + r"\right\}"
        return rf"{head}\left({args}\right)"

    def _print_BinOp(self, n: ast.BinOp) -> str:
        if n.op == "/":
            return rf"\frac{{{self.print(n.left)}}}{{{self.print(n.right)}}}"
        if n.op == "**":
            return f"{self._wrap(n.left, n.op, 'l')}^{{{self.print(n.right)}}}"
        left, right = self._wrap(n.left, n.op, "l"), self._wrap(n.right, n.op, "r")
        if n.op in ("+", "-"):
            return f"{left} {n.op} {right}"
        if isinstance(n.right, (ast.Num, ast.Neg)) or isinstance(n.left, ast.Neg):
            return f"{left} \\cdot {right}"  # 2 \cdot 3, not 23
        return f"{left}\\,{right}"  # products read as juxtaposition

    def _wrap(self, e: Any, op: str, side: str) -> str:
        s = self.print(e)
        if isinstance(e, ast.BinOp) and e.op != "/":
            pe, po = _PREC[e.op], _PREC[op]
            if pe < po or (pe == po and (side == "r" and op == "-" or op == "**")):
                return f"\\left({s}\\right)"
        if isinstance(e, ast.Neg) and (side == "r" or op == "**"):
            return f"\\left({s}\\right)"
        if op == "**" and isinstance(e, ast.BinOp) and e.op == "/":
            return f"\\left({s}\\right)"
        if op == "**" and isinstance(e, ast.Num) and e.value.denominator != 1:
            return f"\\left({s}\\right)"
        return s

"""Where a relation AS WRITTEN is defined, read off its syntax tree.

SymPy simplifies ``sqrt(a)*sqrt(a)`` and ``a**(1/2)*a**(1/2)`` to ``a`` and ``b/b`` to 1,
which would lose ``a >= 0`` and ``b != 0``; so both the SMT encoding and the exact
re-verification take the domain from the tree, each argument evaluated by their engine.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..lang.syntax import BinOp, Call, Expr, Relation, nodes
from .anyd import Unsupported

__all__ = ["constant_exponent", "differentiability_conditions", "domain_conditions"]


def constant_exponent(eng: Any, e: Expr) -> sp.Rational | None:
    """The value of an exponent written without names (``2``, ``1/2``, ``(2/4)``)."""
    from ..lang.context import _names
    if _names(e):
        return None
    try:
        v = eng.value(e)
    except (Unsupported, TypeError, ValueError, ZeroDivisionError):
        return None
    return v if isinstance(v, sp.Rational) else None


def domain_conditions(eng: Any, rel: Relation) -> list[tuple[sp.Expr, str]]:
    """``(value, op)`` pairs, each meaning ``value op 0`` (``op`` is ``>=``, ``>`` or
    ``!=``): sqrt and log arguments, denominators, and bases of fractional or negative
    constant powers (``0**0`` is 1 in every engine, so a zero exponent adds nothing)."""
    out: list[tuple[sp.Expr, str]] = []

    def add(e: Expr, op: str) -> None:
        v = eng.value(e)
        if isinstance(v, sp.Expr):
            out.append((v, op))
    for n in nodes(rel):
        if isinstance(n, Call) and n.func in ("sqrt", "log"):
            add(n.args[0], ">=" if n.func == "sqrt" else ">")
        elif isinstance(n, BinOp) and n.op == "/":
            add(n.right, "!=")
        elif isinstance(n, BinOp) and n.op == "**":
            k = constant_exponent(eng, n.right)
            if k is not None and k.q != 1:
                add(n.left, ">=")
            if k is not None and k < 0:
                add(n.left, "!=")
    return out


def differentiability_conditions(eng: Any, rel: Relation) -> list[tuple[sp.Expr, str]]:
    """``(value, op)`` pairs as :func:`domain_conditions` gives them, under which what the
    relation differentiates is differentiable: inside ``jacobian(A, ...)``, a root's, a
    norm's, ``log``'s and a fractional power's argument ``> 0``, ``abs``'s ``!= 0``.  The
    derivative divides by what the relation as written only takes the root of
    (``jacobian(sqrt(a), a)`` is 1/(2 sqrt(a)), undefined at a = 0: red team 19)."""
    out: list[tuple[sp.Expr, str]] = []
    for n in nodes(rel):
        if not (isinstance(n, Call) and n.func == "jacobian" and n.args):
            continue
        for m in nodes(n.args[0]):
            if isinstance(m, Call) and m.func in ("sqrt", "norm", "abs", "log") and m.args:
                v = eng.value(m if m.func == "norm" else m.args[0])
                out.append((v, "!=" if m.func == "abs" else ">"))
            elif isinstance(m, BinOp) and m.op == "**":
                k = constant_exponent(eng, m.right)
                if k is None:
                    raise Unsupported("a power with a variable exponent is differentiated")
                if k.q != 1:
                    out.append((eng.value(m.left), ">"))
    return out

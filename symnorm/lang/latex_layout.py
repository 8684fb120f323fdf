r"""The gradient of a scalar by a vector, written without an index against a column or a
scalar: ``\frac{\partial\sigma^2}{\partial x} = \frac{2(x-\mu)}{m}``, ``\frac{\partial\mu}{\partial
x} = \frac{1}{m}`` (Feng's and Kaixi Hou's BatchNorm/LayerNorm backward notes).

``\frac{\partial A}{\partial x}`` of a scalar A by a vector x is ``jacobian(A, x)``, a row.
Sources that compare it with a column write the gradient in the denominator layout (its
entries are those of the row, one per entry of x), and with a scalar they say that every
entry is that scalar: both have that one reading, so the relation is read entrywise:
``jacobian(A, x).T == ...`` and ``jacobian(A, x).T == s * ones`` (shown in ``read as``).  Only
where a whole side is that one partial; a sum or product of partials keeps its shapes
(``\frac{\partial L}{\partial x} = \frac{\partial L}{\partial \hat x}\frac{\partial \hat
x}{\partial x}`` is a product of a row and a matrix).
"""

from __future__ import annotations

from collections.abc import Callable

from symnorm.lang.syntax import BinOp, Call, Expr, Name, Relation, Transpose

__all__ = ["gradient_layout"]


def _gradient(e: Expr, shape: Callable[[Expr], str | None]) -> bool:
    """Whether ``e`` is ``jacobian(A, v)`` of a scalar A by a vector v (a row)."""
    return isinstance(e, Call) and e.func == "jacobian" and len(e.args) == 2 \
        and shape(e.args[0]) == "scalar" and shape(e.args[1]) == "column"


def gradient_layout(rel: Relation, shape: Callable[[Expr], str | None]) -> Relation:
    """``rel`` with a side that is one unindexed gradient transposed where the other side is
    a column or a scalar (which becomes that scalar times ones); else ``rel`` itself."""
    if rel.op not in ("==", "!="):
        return rel
    sides = [rel.left, rel.right]
    for k in (0, 1):
        grad, other = sides[k], sides[1 - k]
        if not _gradient(grad, shape):
            continue
        theirs = shape(other)
        if theirs not in ("column", "scalar"):
            return rel
        sides[k] = Transpose(grad, grad.pos)
        if theirs == "scalar":
            sides[1 - k] = BinOp("*", other, Name("ones", other.pos), other.pos)
        return Relation(rel.op, sides[0], sides[1], rel.pos)
    return rel

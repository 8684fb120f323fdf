"""``\\sum {o_{k}^2}``: a sum written without an index, whose summand names the index.

OpenVINO's MVN specification prints ``\\sqrt {\\sum {o_{k}^2}+\\epsilon}``: no script on
``\\sum``, and the summand an entry ``o_k``.  Read as the sum over ``k`` of every entry when
``k`` is the summand's only index letter (the bound is implied: every entry, as in
``\\sum_k``); the node built is the one ``\\sum_k`` builds, so every later rule of
``\\sum_k`` (shapes, free indices) holds for it unchanged.  A summand with two index letters
(which one is summed is ambiguous), with a nested sum or derivative entry, or whose letter is
an enclosing sum's, is an error naming it; a summand with no index letter is the sum of the
entries of a vector expression (``\\sum x^2``), as before.

>>> from symnorm.lang.latex import parse_latex_equation
>>> str(parse_latex_equation(r"s = \\sum {x_k^2}", "t", is_defined=lambda n: n == "x")[0].body)
'x.T * x'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from symnorm.lang.latex_index import (
    INDEX_LETTERS,
    SUM_ENTRIES,
    ExprPartial,
    Indexed,
    IndexSum,
    MatrixEntry,
    term_nodes,
)
from symnorm.lang.latex_tokens import Tok
from symnorm.lang.syntax import Call, Expr

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser

__all__ = ["unindexed_sum"]

_HINT = "write the index on the sum: \\sum_k or \\sum_{k=1}^d"


def unindexed_sum(p: ExprParser, t: Tok) -> Expr:
    """After a bare ``\\sum`` (no ``_`` or ``^``): the sum its summand implies."""
    nxt, nxt2 = p.peek(1), p.peek(2)
    if p.at("{") and nxt is not None and nxt.text.isalpha() and nxt2 is not None \
            and nxt2.text == "=":  # \sum{i=1}^m: the bounds, their underscore lost
        raise p.err("\\sum needs an index: \\sum{i=1}^m lost its underscore?", t,
                    "write \\sum_{i=1}^m")
    body = p.term()
    found = term_nodes(body)
    if any(isinstance(n, (IndexSum, ExprPartial, MatrixEntry)) for n in found):
        raise p.err("\\sum without an index over a summand holding a sum, a derivative "
                    "entry or a matrix entry: the index it sums over is not implied", t,
                    _HINT)
    letters = list(dict.fromkeys(n.index for n in found if isinstance(n, Indexed)))
    if not letters:  # \sum x^2 (Marian): the sum of the entries of a vector expression
        return Call(SUM_ENTRIES, (body,), p.pos(t))
    if len(letters) > 1:
        raise p.err(f"\\sum without an index over a summand with the indices "
                    f"{', '.join(letters)}: which one it sums over is ambiguous", t, _HINT)
    (k,) = letters
    if k in p.sum_letters or k not in INDEX_LETTERS:
        raise p.err(f"\\sum without an index over entries at {k}, the index of an enclosing "
                    "sum: a new sum over it or the enclosing sum's entry is ambiguous", t,
                    _HINT)
    return IndexSum(k, body, p.pos(t))  # type: ignore[return-value]

r"""A per-element gain written against its vector: ``y = \gamma\hat{x} + \beta`` with
``use layernorm(affine=elementwise)`` (kaixih/layer_norm's README; corpus 5 kaixih.y).

With ``affine=elementwise`` the vocabulary's gamma is a d-vector and its output is
``hadamard(gamma, N(x)) + beta``.  Two column d-vectors written side by side have no
matrix-product reading; sources that write the gain so mean the entrywise product, the
layer's own.  Elsewhere the same juxtaposition is ambiguous: ``w x`` of two vectors is the
dot product ``w^T x`` in much of machine learning (``y = wx + b``), ``x x`` may be
``x^T x``, and ``\mathbf 1 x`` the sum ``\mathbf 1^\top x``.  So :func:`gain_product`
reads it as ``hadamard`` only where every one of these holds:

* the product is written by juxtaposition (``\cdot``, ``\times`` stay the product the
  checker refuses for two vectors: Triton writes ``\hat x \cdot (..)`` for the dot product;
  ``*`` is already entrywise, docs/latex.md);
* the block's output is the vocabulary's per-element layer (``hadamard(gamma, ...)``), and
  exactly one factor of the juxtaposed run is its gain: ``\gamma``, or a document's alias of
  it (``let w = gamma``);
* exactly one other factor is a column vector, neither the gain again (``\gamma\gamma``:
  entrywise square or ``\gamma^\top\gamma``), nor ``\mathbf 1``, nor transposed; the
  remaining factors are scalars.

Anything else is left to the shape checker, whose error names both fixes
(``cannot multiply a vector by a vector ... u.T*v ... hadamard(u, v)``).

>>> from symnorm.check.run import check_text
>>> doc = ("```symnorm\ndocument use layernorm(affine=elementwise)\n```\n\n"
...        "```latex e\ny = \\gamma\\hat x + \\beta\n```\n")
>>> [(v.status, str(v.statement)) for v in check_text(doc, "d.md").verdicts][0]
('proved', 'y == hadamard(gamma, xhat) + beta')
"""

from __future__ import annotations

from typing import Any

from symnorm.lang.syntax import BinOp, Call, Expr, Name

__all__ = ["gain_product"]


def _run(e: Expr) -> list[Expr]:
    """The factors of a product written by juxtaposition (``2\\gamma\\hat x``), in order."""
    if isinstance(e, BinOp) and e.op == "*" and not e.written:
        return _run(e.left) + _run(e.right)
    return [e]


def _is_gain(reader: Any, e: Expr) -> bool:
    if not isinstance(e, Name):
        return False
    if e.id == "gamma":
        return True
    return reader.kind(e.id) == "let" and e.id not in reader.lets \
        and reader.env.alias(e.id) == "gamma"


def gain_product(reader: Any, e: BinOp, params: set[str]) -> Expr | None:
    """``hadamard(gain, v)`` (times the run's scalars) for a juxtaposed product whose two
    factors ``e.left``, ``e.right`` (already broadcast) are column vectors as above, else
    None."""
    if e.op != "*" or e.written:
        return None
    out = reader.env.output
    if out is None or reader.kind("gamma") != "vector" or not reader._entrywise_in(out, "gamma"):
        return None
    factors = _run(e)
    shapes = [reader._shape(f, params) for f in factors]
    columns = [f for f, s in zip(factors, shapes) if s == "column"]
    if len(columns) != 2 or any(s not in ("scalar", "column") for s in shapes):
        return None
    gains = [f for f in columns if _is_gain(reader, f)]
    if len(gains) != 1:
        return None
    other = columns[1] if columns[0] is gains[0] else columns[0]
    if isinstance(other, Name) and other.id == "ones":
        return None
    scalars = [f for f, s in zip(factors, shapes) if s == "scalar"]
    node: Expr = Call("hadamard", (gains[0], other), e.pos)
    for s in reversed(scalars):
        node = BinOp("*", s, node, e.pos)
    return node

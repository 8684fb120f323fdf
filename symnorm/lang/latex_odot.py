r"""``\odot`` with one scalar operand: the per-feature gain of ``use batchnorm``.

Dive into Deep Learning (``\mathrm{BN}(\mathbf x) = \boldsymbol\gamma \odot \frac{\mathbf x -
\hat{\boldsymbol\mu}_\mathcal{B}}{\hat{\boldsymbol\sigma}_\mathcal{B}} + \boldsymbol\beta``),
PyTorch Geometric's BatchNorm docstring (``\frac{..}{..} \odot \gamma + \beta``) and Chris
Yeh's notes (``Y = \gamma \odot \hat X + \beta``) multiply entrywise by a gain that is a
vector over the features.  The ``batchnorm`` vocabulary models one feature: its vector x is
that feature's batch, and its gamma the feature's entry of that gain vector, a scalar.  The
source's product restricted to the modelled feature is then the scalar times the vector,
the reading :func:`read_odot` gives (``gamma * xhat``, shown in ``read as``), exactly as a
scalar added to a vector is the scalar times ones.

Every other entrywise product with a scalar operand stays ``hadamard(..)``, whose shape
check refuses it (``hadamard() takes column vectors, not a scalar``), because there the
scalar is no stand-in for the source's vector, or stands in for a different one:

* under ``use layernorm`` or ``use rmsnorm`` a per-element gain is the vocabulary's
  ``affine=elementwise`` vector: the scalar gamma of the default layer is another layer
  (``\partial\ell/\partial\gamma`` is a scalar there, a vector for the source), and the
  error's hint names the option;
* a scalar other than the vocabulary's gain (``a \odot x`` with ``scalar a``, ``\beta \odot
  x``, ``\sigma \odot x``, ``(2\gamma) \odot x``): nothing says it is one feature's entry of
  a vector, so the entrywise product of a scalar has no reading;
* a block with another layer vocabulary beside batchnorm (``env.channels`` is False), or
  the document's own gamma (``scalar gamma``): not the vocabulary's per-feature gain;
* an entry product ``\gamma_i \hat x_i``: i runs over the batch, so ``\gamma_i`` would be a
  per-sample gain (only ``\odot`` is marked, :func:`mark`).

>>> from symnorm.check.run import check_text
>>> doc = ("```symnorm\nuse batchnorm\n```\n\n"
...        "```latex e\ny = \\gamma \\odot \\hat x + \\beta\n```\n")
>>> [(v.status, str(v.statement)) for v in check_text(doc, "d.md").verdicts][0]
('proved', 'y == gamma * xhat + beta * ones')
"""

from __future__ import annotations

from typing import Any

from symnorm.lang.syntax import BinOp, Call, Expr, Name, Pos

__all__ = ["ODOT", "is_marked", "mark", "read_odot"]

#: The ``params`` marker of a ``hadamard`` the reader built from ``\odot`` (cleared by
#: :func:`read_odot`; a hadamard that kept it is still the plain entrywise product).
ODOT = "\\odot"


def mark(u: Expr, v: Expr, pos: Pos) -> Call:
    """``u \\odot v`` as ``hadamard(u, v)``, marked as written with ``\\odot``."""
    return Call("hadamard", (u, v), pos, params=(ODOT,))


def is_marked(e: object) -> bool:
    return isinstance(e, Call) and e.func == "hadamard" and e.params == (ODOT,)


def _channel_gain(reader: Any, e: Expr) -> bool:
    """Whether ``e`` is the batchnorm vocabulary's gamma (or a document's alias of it)."""
    if not isinstance(e, Name) or not reader.env.channels:
        return False
    # the vocabulary's gamma: undeclared, or declared as the vocabulary's by an earlier
    # equation (red team 21: the rule held only in the first equation that used gamma)
    vocab = bool(reader._vocab("gamma")) or "gamma" in reader.env.vocab_declared
    if e.id == "gamma":
        return vocab
    return reader.kind(e.id) == "let" and e.id not in reader.lets \
        and reader.env.alias(e.id) == "gamma" and vocab


def read_odot(reader: Any, u: Expr, v: Expr, pos: Pos, params: set[str]) -> Expr:
    """The product ``u \\odot v`` (operands already broadcast): the scalar times the vector
    when one operand is batchnorm's per-feature gain and the other a column vector, else
    ``hadamard(u, v)`` for the shape check."""
    shapes = (reader._shape(u, params), reader._shape(v, params))
    if shapes == ("scalar", "column") and _channel_gain(reader, u) \
            or shapes == ("column", "scalar") and _channel_gain(reader, v):
        return BinOp("*", u, v, pos)
    return Call("hadamard", (u, v), pos)

r"""Partials by and of the entries of a data matrix, read one vector of the layer at a time.

latex_rows.py reads ``X_{ij}`` as entry V of one vector of the layer (V the vector index,
along the axis the vocabulary normalizes; the other letter F fixed, naming the vector).  A
partial with such an entry is read the same way, as the single-index partial of that one
vector (CS182's BatchNorm backward pass, Clement Thorey's and Chris Yeh's notes):

* the loss by an entry, ``\frac{\partial L}{\partial y_{ij}}``, ``dL/dh_{ij}``: entry V of
  the loss's gradient by the vector F names, ``\frac{\partial L}{\partial y_V}`` (the
  declared upstream gradient, or the adjoint along the computation graph for a node such
  as ``\hat x_{ij}``): the loss depends on Y_{ij} only through entry V of vector F;
* an entry by a scalar of its vector, ``\frac{\partial \hat x_{ij}}{\partial \sigma^2_j}``,
  ``\frac{\partial y_{ij}}{\partial \gamma_j}`` (the scalar at the fixed index, or written
  without it): ``\frac{\partial \hat x_V}{\partial \sigma^2}`` of vector F;
* an entry by the same entry of another quantity, ``\frac{\partial y_{ij}}{\partial \hat
  x_{ij}}``: ``\frac{\partial y_V}{\partial \hat x_V}``, with the same-index rule's two
  readings (latex_same_index.py);
* the loss by a scalar at the fixed index, ``\frac{\partial L}{\partial \beta_j}`` under
  ``use batchnorm`` (beta is per feature): the loss's partial by the scalar beta of vector j
  (:class:`symnorm.lang.latex_rows.ScalarAt`; beside no data-matrix entry it stays the error
  ``an entry of beta, which is a scalar``).

Refused, since the one-vector model has no reading of them: a sum over the fixed index (the
gradient of a parameter every vector shares, ``\sum_{i,j}`` under layernorm: latex_rows.py
says so), an entry by an entry of another vector or with other letters
(``\partial \hat X_{ij}/\partial X_{ik}``, ``d\hat h_{kl}/dh_{ij}``: entries of a Jacobian
across the data matrix), a partial of anything but the loss by an entry, and a scalar
written at the vector index.

>>> from symnorm.check.run import check_text
>>> doc = ("```symnorm\nuse batchnorm\nlet N = d\nvector dL_dy\n```\n\n"
...        "```latex e\n\\frac{\\partial L}{\\partial \\beta_j} = \\sum_{i=1}^N "
...        "\\frac{\\partial L}{\\partial y_{ij}}\n```\n")
>>> [(v.status, str(v.statement)) for v in check_text(doc, "d.md").verdicts][0]
('proved', 'jacobian(y, beta).T * dL_dy == sum(dL_dy)')
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from symnorm.errors import SourceError
from symnorm.lang.latex_index import LOSS, Partial
from symnorm.lang.latex_rows import DataPartial, ScalarAt, data_letters_ok, entry_partial, row_axis
from symnorm.lang.syntax import Name, Pos

__all__ = ["read_entry_partial", "scalar_at_fixed"]


def _err(msg: str, pos: Pos, file: str, hint: str = "") -> SourceError:
    return SourceError(msg, file, pos.line, pos.col, hint)


def _two(index: str | None) -> bool:
    return index is not None and len(index) == 2


def _slash_entry(r: Any, name: str) -> tuple[str, str] | None:
    """``h_ij`` of the plain-text ``dL/dh_ij``: (h, ij) where h is a data-matrix name."""
    m = re.fullmatch(r"(.+)_([a-z]{2})", name)
    if m and data_letters_ok(m.group(2), r.defined) and r.data_row(m.group(1)):
        return m.group(1), m.group(2)
    return None


def _shown(name: str, index: str | None, power: int | None) -> str:
    return name + (f"^{power}" if power is not None else "") + (f"_{{{index}}}" if index else "")


def read_entry_partial(r: Any, pt: Partial) -> object | None:
    """The reading of ``pt`` when it has a data-matrix entry (a two-letter index), else None
    (see the module docstring); ``r`` is the equation reader."""
    if pt.var_index is None and (got := _slash_entry(r, pt.var)) is not None:
        pt = replace(pt, var=got[0], var_index=got[1])
    if pt.num_index is None and (got := _slash_entry(r, pt.num)) is not None:
        pt = replace(pt, num=got[0], num_index=got[1])
    if not (_two(pt.num_index) or _two(pt.var_index)):
        return None
    pos, file = pt.pos, r.file
    what = (f"\\partial {_shown(pt.num, pt.num_index, pt.num_power)}/\\partial "
            f"{_shown(pt.var, pt.var_index, pt.var_power)}")
    entry = (pt.var, pt.var_index) if _two(pt.var_index) else (pt.num, pt.num_index)
    msg, hint = entry_partial(*entry)  # type: ignore[arg-type]
    axis, vocab = row_axis(r.env.vocabs)
    if axis is None or not r.env.vocabs:
        raise _err(f"{what}: {msg}; {vocab} give no one axis along which the data matrix "
                   "holds the layer's vectors", pos, file, hint)
    loss = pt.num == LOSS or r._of_the_loss(pt)
    a, b = entry[1][0], entry[1][1]  # type: ignore[index]
    if _two(pt.var_index) and not _two(pt.num_index):
        if not loss or pt.num_index is not None or pt.var_power is not None:
            raise _err(f"{what}: {msg}, except the loss's partial by an entry (\\partial "
                       f"L/\\partial {pt.var}_{{{pt.var_index}}}): the partial of another "
                       "quantity by an entry of a data matrix may cross its vectors", pos,
                       file, hint)
        name = f"d{pt.var}" if pt.num == LOSS else f"d{pt.num}/d{pt.var}"  # dy_{ij} as written
        return DataPartial(name, a, b, pos,
                           reading=lambda v: r._partial(replace(pt, var_index=v)))
    if _two(pt.num_index) and not _two(pt.var_index):
        fixed = pt.var_index
        if fixed is not None and fixed not in (a, b):
            raise _err(f"{what}: the index {fixed} of {pt.var} is neither letter of the entry "
                       f"{pt.num}_{{{pt.num_index}}}, so which vector's {pt.var} it is is not "
                       "said", pos, file, f"write {pt.var} at the fixed index of the entry")
        if r._shape(Name(pt.var, pos), set()) != "scalar" or pt.num_power is not None:
            raise _err(f"{what}: {msg}, except by a scalar of the entry's vector (\\partial "
                       f"{pt.num}_{{{pt.num_index}}}/\\partial \\sigma^2_j): {pt.var} is no "
                       "scalar here", pos, file, hint)
        return DataPartial(f"d{pt.num}/d{pt.var}", a, b, pos, fixed=fixed,
                           reading=lambda v: r._partial(replace(pt, num_index=v,
                                                                var_index=None)))
    if pt.num_index == pt.var_index and pt.num_power is None and pt.var_power is None:
        # \partial y_{ij}/\partial \hat x_{ij}: the same entry of one vector
        return DataPartial(f"d{pt.num}/d{pt.var}", a, b, pos,
                           reading=lambda v: r._partial(replace(pt, num_index=v,
                                                                var_index=v)))
    raise _err(f"{what}: {msg}; between two entries with other letters it is an entry of a "
               "Jacobian across the data matrix (which vectors each entry is of), which the "
               "one-vector model does not represent", pos, file,
               "write the Jacobian of one vector with one index per entry (\\frac{\\partial "
               "\\hat x_j}{\\partial x_k})")


def scalar_at_fixed(r: Any, pt: Partial, error: SourceError, value: object) -> object:
    """``\\partial L/\\partial \\beta_j`` with a scalar beta: beside a data-matrix entry the
    partial by the scalar of the vector j names (``value``); otherwise ``error``."""
    axis, _ = row_axis(r.env.vocabs)
    if axis is None or not r.env.vocabs or pt.var_index is None:
        raise error
    return ScalarAt(pt.var, pt.var_index, pt.pos, value, error)


def gradient_of(r: Any, name: str) -> str | None:
    """The quantity Y whose upstream gradient the declared vector ``name`` is (``dL_dy``,
    or ``dy`` where the document declares its upstream gradient in differential notation),
    else None."""
    if r.kind(name) != "vector":
        return None
    m = re.fullmatch(r"d[A-Za-z]\w*_d(\w+)", name)
    if m:
        y = r.env.latex_aliases.get(m.group(1), m.group(1))
        return y if r.kind(y) == "let" else None
    from symnorm.lang.latex_graph import differential_upstreams
    return name[1:] if name in differential_upstreams(r) else None


def gradient_row(r: Any, name: str) -> bool:
    """Whether ``name_{ij}`` is an entry of the data matrix of upstream gradients: ``name`` a
    declared upstream gradient of a quantity whose entries are data-matrix entries (CS182's
    ``dy_{i,j}`` with ``vector dy``): its vectors are the gradients by the layer's vectors."""
    y = gradient_of(r, name)
    return y is not None and y != name and r.data_row(y)


def two_upstreams(r: Any, names: set[str], pos: Pos) -> None:
    """Refuse a relation that uses two declared upstream gradients of one quantity
    (``dL_dy`` and ``dy``): the notation means one gradient, while the declarations are two
    independent vectors (``\\frac{\\partial L}{\\partial \\hat x} = \\gamma\\, dy`` would be
    refuted although true in the source's meaning): two readings."""
    by: dict[str, list[str]] = {}
    for n in sorted(names):
        y = gradient_of(r, n)
        if y is not None:
            by.setdefault(y, []).append(n)
    for y, grads in by.items():
        if len(grads) > 1:
            raise _err(f"{' and '.join(grads)} are both declared upstream gradients of {y}, "
                       f"and this relation uses both: as the notation reads they are one "
                       f"quantity (the loss's gradient by {y}), as declared two independent "
                       "vectors: two readings", pos, r.file,
                       f"declare one of them: with `vector d{y}` alone, \\frac{{\\partial "
                       f"L}}{{\\partial {y}}} is d{y} too")

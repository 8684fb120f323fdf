r"""The Kronecker delta of index notation: ``\delta_{ik}``, ``\delta_{i,k}`` (Clement Thorey).

Where the document neither declares nor defines ``delta``, ``\delta`` with a subscript of two
different index letters (i, j, k or a letter of an enclosing sum; written together or with a
comma) is 1 where the indices are equal and 0 elsewhere: entry (i, k) of the identity
matrix, read by the two-index machinery of :mod:`symnorm.lang.latex_matrix` (``\sum_k
\delta_{ik} a_k`` is ``I * a``, ``\frac{\partial \hat x_i}{\partial x_k} =
\frac{1}{\sigma}(\delta_{ik} - \frac{1}{m}) - ...`` a matrix equation).  A bracket right
after it, ``\delta_{jl}(h_{pl}-\mu_l)``, is a product: a number is no function.

Any other subscript on the undeclared ``\delta`` (one index ``\delta_i``, a number
``\delta_{1}``, ``\delta_{i1}``, the same letter twice ``\delta_{ii}``, letters that are not
indices of the equation) is an error naming the construct: the source may mean a quantity
of its own (the backpropagated error ``\delta_j``), which the document then declares.  With
``delta`` declared or defined, every ``\delta`` is the document's.

>>> from symnorm.check.run import check_text
>>> doc = ("```symnorm\nvector a\n```\n\n"
...        "```latex e\n\\sum_k \\delta_{i,k} a_k = a_i\n```\n")
>>> [(v.status, str(v.statement)) for v in check_text(doc, "d.md").verdicts]
[('proved', 'I * a == a')]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from symnorm.lang.latex_index import INDEX_LETTERS, MatrixEntry
from symnorm.lang.latex_tokens import Tok

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser

__all__ = ["is_kronecker", "kronecker_entry"]


def is_kronecker(p: ExprParser, name: str) -> bool:
    """Whether ``name`` written with a subscript is read here as the Kronecker delta."""
    return name == "delta" and not p.defined("delta")


def _pair(sub: list[str]) -> tuple[str, str] | None:
    if len(sub) == 2 and all(len(s) == 1 for s in sub):
        return sub[0], sub[1]
    if len(sub) == 1 and len(sub[0]) == 2:
        return sub[0][0], sub[0][1]
    return None


def kronecker_entry(p: ExprParser, sub: list[str], t: Tok) -> MatrixEntry:
    """``\\delta_{ik}``: entry (i, k) of the identity (resolved in latex.py), or the error
    that names what the subscript lacks."""
    letters = INDEX_LETTERS + tuple(p.sum_letters)
    pair = _pair(sub)
    if pair is not None and pair[0] != pair[1] and all(c in letters for c in pair):
        return MatrixEntry("delta", pair[0], pair[1], p.pos(t))
    written = ",".join(sub)
    if pair is not None and pair[0] == pair[1] and pair[0] in letters:
        why = (f"the same index twice (\\delta_{{{written}}} is 1 for every {pair[0]}, "
               f"and under \\sum_{pair[0]} a count)")
    elif pair is not None and not any(c.isdigit() for c in pair):
        why = (f"a letter that is no index of the equation "
               f"({', '.join(c for c in pair if c not in letters)}; the indices are i, j, k "
               "and the letters of enclosing sums)")
    else:
        why = "one index or a number, where the Kronecker delta compares two indices"
    raise p.err(f"\\delta_{{{written}}}: delta is not a name the document declares or "
                f"defines, and \\delta with a subscript is read only as the Kronecker delta "
                f"\\delta_{{ij}}; this subscript has {why}", t,
                "write the Kronecker delta with two different index letters (\\delta_{ij}, "
                "\\delta_{i,k}), or declare delta (`scalar delta`, `vector delta`) for a "
                "quantity of the source's own")

r"""``\nabla_{g} L``, ``\nabla_{\mathbf w} L``, Triton's ``\nabla_{x}``: gradients by a subscript.

Read exactly as the matching partial is read today (same rules, same refusals):

* ``\nabla_{v} A`` with a name A after the subscript is ``\frac{\partial A}{\partial v}``
  (a :class:`Partial`): the upstream gradient where the document declares it, a Jacobian of
  a defined scalar, a partial along the computation graph; refused where the partial would
  be (``L is neither declared nor defined``).  For a vector A, ``\nabla_v A`` is printed for
  the Jacobian and for its transpose (weight normalization's answer writes
  ``(\nabla_v w)^T = \partial w/\partial v``), two layouts, so the equation reader refuses it.
* ``\nabla_{v}`` with no name after it (Triton's tutorial: ``\nabla_{x} = ...``,
  ``\nabla_{y} \odot w``) is the gradient of the document's one loss by v, read like ``dv`` in
  differential notation: only where the document declares the upstream gradient (``vector
  dy``), and otherwise refused.
* After the subscript, anything other than a name or an operator (``\nabla_{x} RMS(x)``, a
  function applied, ``\nabla_{x}(a + b)``) is refused: a gradient of an expression has no
  partial form here, and a bracket could be a product with the loss gradient.

>>> from symnorm.lang.latex_parser import ExprParser
>>> from symnorm.lang.latex_tokens import tokenize
>>> p = ExprParser("\\nabla_{g} L", tokenize("\\nabla_{g} L", "t", 1, 1), "t",
...                lambda n: False, lambda n: False)
>>> p.i = 1
>>> node = read_nabla(p, p.toks[0])
>>> str(node), node.nabla
('dL/dg', True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from symnorm.lang.latex_index import INDEX_LETTERS, LOSS, Partial
from symnorm.lang.latex_tokens import ACCENTS, BOLD, GREEK, Tok

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser

__all__ = ["read_nabla"]

_NAME_STARTS = ("\\mathcal", "\\mathscr")


def _starts_name(tok: Tok | None) -> bool:
    if tok is None:
        return False
    text = tok.text
    return (len(text) == 1 and text.isalpha()) or text in GREEK or text in ACCENTS \
        or text in BOLD or text in _NAME_STARTS


def _operand(p: ExprParser, what: Tok) -> tuple[str, str | None, int | None]:
    """A name with an optional entry index and digit exponent, as ``\\partial`` takes."""
    from symnorm.lang import latex_atoms as atoms  # the parent reader (imports this module)
    from symnorm.lang.syntax import Num

    if p.at(*_NAME_STARTS):
        k = p.next()
        base = atoms._letter_arg(p, k)
    else:
        base = atoms._plain_name(p)
    sub, sup = atoms._scripts(p)
    if sup is atoms._TRANSPOSE or sup is not None and not (
            isinstance(sup, Num) and sup.value.denominator == 1):
        raise p.err("an operand of \\nabla may carry only a digit exponent (\\sigma^2)", what)
    if sub is not None and len(sub) != 1:
        raise p.err(f"comma in the subscript of {base}", what)
    index = sub[0] if sub is not None and (sub[0] in INDEX_LETTERS
                                           or sub[0] in p.sum_letters) else None
    name = base if sub is None or index is not None else f"{base}_{sub[0]}"
    power = int(sup.value) if isinstance(sup, Num) else None
    return name, index, power


def read_nabla(p: ExprParser, t: Tok) -> Any:
    """After ``\\nabla`` (consumed), at its ``_``: the gradient it writes (a Partial)."""
    p.expect("_", t)
    if p.at("{"):
        o = p.next()
        var, var_index, var_power = _operand(p, o)
        p.expect("}", o)
    else:
        var, var_index, var_power = _operand(p, t)
    nxt = p.peek()
    pos = p.pos(t)
    if _starts_name(nxt):
        start = nxt
        num, num_index, num_power = _operand(p, t)
        after = p.peek()
        prev_end = p.toks[p.i - 1].end
        if after is not None and (after.text in ("(", "[") or (
                after.start == prev_end and len(after.text) == 1 and after.text.isalpha())):
            j = p.i
            while j < len(p.toks) and p.toks[j].start == p.toks[j - 1].end \
                    and p.toks[j].text.isalpha():
                j += 1  # the rest of a word (RMS)
            written = p.text[start.start:p.toks[j - 1].end]
            raise p.err(f"\\nabla_{{{var}}} {written}(..): a gradient is read only of a "
                        "name, as \\frac{\\partial L}{\\partial x} is, not of a function "
                        "applied or a product written against the name", start,
                        f"name the quantity (`let f = ...`) and write \\nabla_{{{var}}} f, or "
                        "write jacobian(..) in a symnorm line")
        return Partial(num, num_index, num_power, var, var_index, var_power, pos, nabla=True)
    if nxt is not None and nxt.text in ("(", "["):
        raise p.err(f"\\nabla_{{{var}}} before a bracket: the gradient of the bracket or the "
                    "loss's gradient times it, two readings", nxt,
                    f"name the quantity and write \\nabla_{{{var}}} f, or write "
                    f"\\nabla_{{{var}}} \\cdot (..) for the product")
    if not p.differentials:
        raise p.err(f"\\nabla_{{{var}}} with no function after it is the gradient of the "
                    "document's one loss, read only where the document declares the upstream "
                    "gradient (`vector dy`: \\nabla_{y} and dy are dL/dy)", t,
                    f"declare `vector dy` for the layer's output y, or write the function "
                    f"(\\nabla_{{{var}}} L)")
    return Partial(LOSS, None, None, var, var_index, var_power, pos, differential=True,
                   nabla=True)

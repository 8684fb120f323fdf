r"""The derivative written as an operator: ``\frac{\partial}{\partial x_i}\left( A \right)``.

Sources apply ``\frac{\partial}{\partial v}`` to an expression instead of naming the
derivative (``\frac{\partial \hat x_i}{\partial x_i} = \frac{\partial}{\partial x_i}
\frac{x_i - \mu}{\sqrt{\sigma^2+\epsilon}}``).  Its reach is decided while parsing
(:func:`read_operator`): the operand is

* the bracketed group right after the operator (``(..)``, ``[..]``, ``\left(..\right)``,
  never braces, which print nothing), whatever follows it in the sum
  (``\frac{\partial}{\partial x}(a) + b`` is the derivative of a, plus b), or
* the one factor right after it (``\frac{\partial}{\partial x_i} \sqrt{..}``,
  ``\frac{\partial}{\partial x} \frac{a}{b}``) when the term ends there.

Everything else is refused with both readings named: a product after the operand
(``\frac{\partial}{\partial x} a b``, ``\frac{\partial}{\partial x}(a)\, b``: the
derivative of the first factor times the rest, or of the product), a sum after an
unbracketed operand (``\frac{\partial}{\partial x} a + b``), and a script on a bracketed
operand (``\frac{\partial}{\partial x}(a)^2``).

The equation reader then resolves it (:func:`resolve_operator`) exactly as a partial of a
defined quantity by a declared variable: ``jacobian(A, v)``, one entry per free index, the
same index on the operand and on the variable read in two readings as ``\partial \hat
x_i/\partial x_i`` is (the diagonal of the Jacobian, or the partial along the graph with
the operand's other quantities held: ``symnorm/lang/latex_same_index.py``).  The variable must be
a declared scalar or vector (x, \gamma, \beta, \epsilon, the document's symbols): by a node
of a computation graph (``\frac{\partial}{\partial \mu}``) it would leave unsaid which of
the written quantities are held, so it is an error.

>>> from symnorm.lang.latex import parse_latex_equation
>>> try:
...     parse_latex_equation(r"\frac{\partial}{\partial x} a b = 0", "t")
... except ValueError as exc:
...     print("two readings" in str(exc))
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from symnorm.errors import SourceError
from symnorm.lang.latex_index import Indexed, MatrixEntry, lower
from symnorm.lang.syntax import Call, Expr, Name, Transpose

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser
    from symnorm.lang.latex_tokens import Tok

__all__ = ["OPERATOR", "operator_ahead", "read_operator", "resolve_operator"]

#: the placeholder call of an operator-form partial in a parsed tree: args (operand,
#: variable), the variable a Name or an Indexed entry; resolved by :func:`resolve_operator`
OPERATOR = "<d/dv operator>"
_PRODUCT_OPS = ("\\cdot", "\\times", "*", "/", "\\odot")


def operator_ahead(p: ExprParser) -> bool:
    """Whether ``{\\partial}{\\partial ...}`` follows (after ``\\frac``)."""
    texts = [t.text if t is not None else "" for t in (p.peek(k) for k in range(4))]
    return texts[:4] == ["{", "\\partial", "}", "{"]


def _written(p: ExprParser, a: int, b: int) -> str:
    return p.text[p.toks[a].start:p.toks[b - 1].end] if b > a else ""


def read_operator(p: ExprParser, t: Tok) -> Expr:
    """``\\frac{\\partial}{\\partial v} OPERAND`` (``\\frac`` at ``t`` consumed)."""
    from symnorm.lang.latex_atoms import _partial_operand

    p.i += 3  # { \partial }
    o = p.expect("{")
    var, index, power = _partial_operand(p, o)
    p.expect("}", o)
    op = _written(p, p.toks.index(t), p.i)
    if power is not None:
        raise p.err(f"{op}: a derivative by the power {var}^{power} in operator form is not "
                    "modelled", t, f"differentiate by {var}")
    nxt = p.peek()
    if nxt is None or not p.starts_factor(nxt):
        raise p.err(f"{op} is an operator, and no expression follows it to differentiate", t,
                    f"write {op}\\left( ... \\right) or name the derivative "
                    "(\\frac{\\partial A}{\\partial v})")
    if nxt.text == "{":  # TeX prints no braces: {a b} after the operator reads as a b
        raise p.err(f"a braced operand after {op}: the braces print nothing, so the printed "
                    "formula does not show how far the derivative reaches", nxt,
                    f"write {op}\\left( ... \\right)")
    start = p.i
    if nxt.text in ("(", "["):
        opener = p.next()
        operand = p.group(opener)
        after = p.peek()
        if after is not None and after.text in ("^", "_", "'"):
            raise p.err(f"{after.text!r} on the bracketed operand of {op}: the derivative of "
                        f"the power, or the power of the derivative: two readings", after,
                        f"write {op}\\left( (...)^2 \\right) or "
                        f"\\left({op}(...)\\right)^2")
        bracketed = True
    else:
        operand = p.factor()
        bracketed = False
    after = p.peek()
    what = _written(p, start, p.i)
    if after is not None and (after.text in _PRODUCT_OPS or p.starts_factor(after)):
        raise p.err(f"a product after {op} {what}: the derivative of {what} times what "
                    f"follows, or the derivative of the whole product: two readings", after,
                    f"write {op}\\left( ... \\right) around the whole operand, or "
                    f"\\left({op} {what}\\right) before the other factor")
    if not bracketed and after is not None and (after.text in ("+", "-") or p.signed_group()):
        raise p.err(f"a sum after {op} {what}: the derivative of {what} alone, or of the "
                    f"whole sum: two readings", after,
                    f"write {op}\\left( ... \\right) around what it differentiates")
    pos = p.pos(t)
    variable: Any = Indexed(var, index, pos) if index is not None else Name(var, pos)
    return Call(OPERATOR, (operand, variable), pos)


def _err(msg: str, e: Call, file: str, hint: str = "") -> SourceError:
    return SourceError(msg, file, e.pos.line, e.pos.col, hint)


def resolve_operator(reader: Any, e: Call) -> object:
    """The derivative of the operand as the reader reads ``\\frac{\\partial A}{\\partial v}``
    with A defined and v a declared variable (``jacobian(A, v)``, entries by index)."""
    from symnorm.lang.latex import names_in

    operand, variable = e.args
    var = variable.id  # type: ignore[attr-defined]
    j = variable.index if isinstance(variable, Indexed) else None
    written = f"\\frac{{\\partial}}{{\\partial {var}{'_' + j if j else ''}}}"
    kind = reader.kind(var)
    same = reader.env.alias(var) if kind == "let" and var not in reader.lets else None
    if same is not None:  # another name of a declared variable (let b = x): that variable
        var, kind = same, reader.kind(same)
    if kind not in ("scalar", "vector"):
        raise _err(f"{written}(...): {var} is not a declared scalar or vector; the operator "
                   "form differentiates the written expression by a variable of the "
                   "document, and by a node of a computation graph it would not say which "
                   "of the written quantities are held", e, reader.file,
                   f"write \\frac{{\\partial A}}{{\\partial {var}}} of a named quantity A (a "
                   "partial along the graph), or differentiate by a declared variable")
    if j is not None and kind != "vector":
        raise _err(f"{written}(...): an entry of {var}, which is a scalar here", e,
                   reader.file, f"write \\frac{{\\partial}}{{\\partial {var}}}")
    out = reader.env.output
    outs = {out} | {a for a, t in reader.env.latex_aliases.items() if t == out}
    from symnorm.lang.latex import _affine_params  # latex.py imports this module
    if out is not None and reader.env.plain_output is not None and not reader.writes_affine \
            and _affine_params(reader.env) and names_in(operand) & outs:
        # a derivative of y that writes no affine parameter the layer has could be of the
        # layer with them or of one without them (the two-readings check of latex.py reads
        # named partials, \frac{\partial y}{\partial x}, not this form)
        raise _err(f"{written}(...) of the output {out} in an equation that writes no affine "
                   "parameter: the derivative of the layer with \\gamma, \\beta or of the "
                   "layer without them, two readings", e, reader.file,
                   f"write \\frac{{\\partial {out}}}{{\\partial {var}}}, or write \\gamma "
                   "and \\beta in the operand")
    free: list[str] = []
    body, vec = lower(reader._partials(operand), None, reader.file, free,
                      reader.env.dimension)
    i = free[0] if vec and free else None
    pos = e.pos
    jac = Call("jacobian", (body, Name(var, pos)), pos)
    if i is not None and i == j:  # two readings: latex_same_index.py
        from symnorm.lang.latex_same_index import expression_entry
        return expression_entry(reader, body, var, i, f"d(..)/d{var}", pos,
                                f"{written} of an entry at the same index {i}",
                                f"write two indices (\\frac{{\\partial}}{{\\partial "
                                f"{var}_j}} of the entry i) for the Jacobian's entries")
    if i is not None and j is not None:
        return MatrixEntry(f"d(..)/d{var}", i, j, pos, jac)  # type: ignore[return-value]
    shape = reader._shape(body, set())
    if i is not None:
        if kind != "scalar":
            raise _err(f"{written} of an entry: a row of the Jacobian by the vector {var}",
                       e, reader.file, f"write \\frac{{\\partial}}{{\\partial {var}_j}} for "
                       "its entries")
        return Indexed(f"d(..)/d{var}", i, pos, jac)
    if j is not None:
        if shape != "scalar":
            raise _err(f"{written} of a vector: a column of its Jacobian", e, reader.file,
                       f"write \\frac{{\\partial}}{{\\partial {var}}} for the whole matrix")
        return Indexed(f"d(..)/d{var}", j, pos, Transpose(jac, pos))
    return jac

"""Index notation of the LaTeX reader: ``x_i`` entries and ``\\sum_i`` sums become vector algebra.

The parser marks ``x_i`` (subscript ``i``, ``j`` or ``k``) as :class:`Indexed` and
``\\sum_{i=1}^m body`` as :class:`IndexSum`; :func:`lower` rewrites both into the
claim language, where vectors are whole objects:

* outside a sum, an equation with a free index is elementwise: ``y_i = \\gamma\\hat x_i +
  \\beta`` is ``y == gamma*xhat + beta*ones`` (a scalar added to an entry becomes
  ``scalar*ones``);
* inside a sum, each product term may hold at most two indexed factors: none gives
  ``c*sum(ones)``, one gives ``c*sum(u)``, two give ``c*(u.T*w)`` (``x_i^2`` and
  ``(x_i-\\mu)^2`` count as two).

Outside a sum a product of two entries ``g_i x_i`` is the entrywise product
``hadamard(g, x)``.  Anything else (``\\sqrt{x_i}``, ``x_i / y_i`` outside a sum, nested
sums, two index letters) is refused with a :class:`SourceError`: it is elementwise algebra the claim language
cannot state.

>>> from symnorm.lang.syntax import Pos
>>> p = Pos(1, 1)
>>> e, vec = lower(IndexSum("i", BinOp("*", Indexed("x", "i", p), Indexed("y", "i", p), p),
...                p), None, "<t>")
>>> str(e), vec
('x.T * y', False)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from symnorm.errors import SourceError
from symnorm.lang.latex_odot import mark
from symnorm.lang.syntax import (
    BinOp,
    Call,
    Expr,
    Name,
    Neg,
    Num,
    Pos,
    Transpose,
    VectorLit,
)

__all__ = ["INDEX_LETTERS", "LOSS", "SUM_ENTRIES", "SUM_SQUARES", "SUM_SCALED", "SUM_TERM",
           "ExprPartial", "IndexSum", "Indexed", "MatrixEntry", "Partial",
           "has_index", "lower", "term_nodes"]

#: Subscripts that mean "entry i of the vector" rather than part of a name.
INDEX_LETTERS = ("i", "j", "k")
#: the loss of a partial in differential notation (``d\hat x``: dL/d xhat), a name no
#: document can write, so it is never declared or defined
LOSS = "<loss>"
#: Placeholder calls resolved by shape once the document's names are known
#: (:meth:`symnorm.lang.latex._Equation._broadcast`); never returned to the engines.
#: ``\\sum x^2`` (no index): the sum of the entries of a vector expression.
SUM_ENTRIES = "<sum of entries>"
#: ``\\sum_{i=1}^n x^2`` with x not indexed: sources mean x_i^2 when x is a vector (the sum
#: of its entrywise squares); for a scalar x it is the literal d x^2.
SUM_SQUARES = "<sum of squares>"
#: A summand of ``\\sum_i`` with no indexed entry and several factors (``x^2 * w``,
#: ``c\\,x^2``, ``x * w``), its factors in written order: read as a whole once shapes are
#: known, entrywise (``sum_i x_i^2 w_i``) when it holds a vector's square or two vectors,
#: so that no vector factor is multiplied outside the sum of the others.
SUM_TERM = "<summand>"
#: ``\\sum_i c x_i``: the sum over the indexed entries (first argument) with the summand's
#: other factors, which must be scalars or matrices (constant in i), never a vector.
SUM_SCALED = "<scaled sum>"


@dataclass(frozen=True)
class Indexed:
    """``x_i``: entry ``index`` of the vector ``id`` (parser-internal, never returned)."""

    id: str
    index: str
    pos: Pos = field(compare=False)
    #: the vector whose entry this is, when it is not a plain name (``\partial y_i/\partial
    #: \gamma`` is entry i of ``jacobian(y, gamma)``)
    expr: object = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.id}_{self.index}"


@dataclass(frozen=True)
class MatrixEntry:
    """``A_{ij}``, ``\\delta_{ij}``, ``\\partial y_i/\\partial x_j``: entry (row, col) of a
    matrix (parser-internal, lowered by :mod:`symnorm.lang.latex_matrix`, never returned)."""

    id: str
    row: str
    col: str
    pos: Pos = field(compare=False)
    #: the matrix whose entry this is, when it is not the name ``id`` (``jacobian(y, x)``)
    expr: object = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.id}_{self.row}{self.col}"


@dataclass(frozen=True)
class ExprPartial:
    r"""``\partial (x_j - \mu) / \partial x_i``: the derivative of an expression's entry
    ``num`` (with the free index letter ``num_index``) by the entry ``var_index`` of the
    variable ``var`` (parser-internal, resolved by the equation reader)."""

    num: object
    num_index: str
    var: str
    var_index: str
    pos: Pos = field(compare=False)

    def __str__(self) -> str:
        return f"d({self.num})/d{self.var}_{self.var_index}"


@dataclass(frozen=True)
class Partial:
    r"""``\frac{\partial num}{\partial var}`` (or ``d var``, see ``differential``) as written (parser-internal, resolved by the
    equation reader into a jacobian, a chain-rule product or the derivative's name)."""

    num: str
    num_index: str | None
    num_power: int | None
    var: str
    var_index: str | None
    var_power: int | None
    pos: Pos = field(compare=False)
    #: written in differential notation (``d\hat x_i``, ``d\sigma^2``): the adjoint of the
    #: loss, named ``dxhat``, ``dsigma2`` (the upstream gradient ``dy`` itself, declared)
    differential: bool = False
    #: written as a plain-text fraction (``dE/dX``, Caffe's comments): errors say so
    slash: bool = False
    #: written with a subscripted nabla (``\nabla_{g} L``, ``\nabla_{x}``): errors say so
    nabla: bool = False
    #: written with an upright or italic d (``\frac{dL}{d\gamma}``): read only of the loss
    upright: bool = False

    @property
    def named(self) -> str:
        """The name a document may give this derivative (``dl_dxhat``, ``dl_dsigma2_B``;
        ``dxhat`` in differential notation)."""
        base, _, sub = self.var.partition("_")
        power = self.var_power if self.var_power is not None else ""
        num = f"{self.num}{self.num_power}" if self.num_power is not None else self.num
        head = "d" if self.differential else f"d{num}_d"
        return f"{head}{base}{power}" + (f"_{sub}" if sub else "")

    def __str__(self) -> str:
        return f"d{self.var}" if self.differential else f"d{self.num}/d{self.var}"


@dataclass(frozen=True)
class IndexSum:
    """``\\sum_{index} body`` (parser-internal, never returned)."""

    index: str
    body: object
    pos: Pos = field(compare=False)
    #: ``\sum_{k\in\mathcal S_i}`` of a grouped vocabulary: the selector symbol of the
    #: entry's group (latex_groups.py); None for a sum over every entry
    within: str | None = None

    def __str__(self) -> str:
        return f"sum_{self.index}({self.body})"


def _err(msg: str, pos: Pos, file: str, hint: str = "") -> SourceError:
    return SourceError(msg, file, pos.line, pos.col, hint)


def _ones(pos: Pos) -> Name:
    return Name("ones", pos)


def _spread(e: Expr, pos: Pos) -> Expr:
    """A scalar standing next to vector entries: ``e*ones``."""
    return BinOp("*", e, _ones(pos), pos)


def has_index(e: object) -> bool:
    """Whether ``e`` contains an :class:`Indexed` entry or an :class:`IndexSum`."""
    if isinstance(e, (Indexed, IndexSum, MatrixEntry)):
        return True
    if isinstance(e, BinOp):
        return has_index(e.left) or has_index(e.right)
    if isinstance(e, (Neg, Transpose)):
        return has_index(e.operand)
    if isinstance(e, Call):
        return any(has_index(a) for a in e.args + (e.batch or ()))
    return False


def lower(e: object, bound: str | None, file: str,
          free: list[str] | None = None, dim: int | None = None) -> tuple[Expr, bool]:
    """Rewrite ``e`` without index nodes; the flag says it stands for a vector of entries.

    ``bound`` is the index of the enclosing sum (None outside sums); ``free`` collects the
    free index letter of an elementwise equation so that two letters are refused; ``dim`` is
    the document's fixed dimension, if any (an entrywise product ``g_i x_i``, ``g \\odot x``
    is ``hadamard(g, x)`` at every d).
    """
    free = [] if free is None else free
    if isinstance(e, (Num, Name, VectorLit)):
        return e, False
    if isinstance(e, MatrixEntry):  # routed to latex_matrix before: only inside a definition
        raise _err(f"{e}: an entry of a matrix (two indices) here", e.pos, file,
                   "state the matrix equation as a claim (its entry (i, j) on both sides)")
    if isinstance(e, Indexed):
        if bound is not None and e.index != bound:
            raise _err(f"index {e.index} inside a sum over {bound}", e.pos, file,
                       "one index letter per sum; mixed indices are not supported")
        if bound is None:
            if free and free[0] != e.index:
                raise _err(f"two free indices {free[0]} and {e.index} in one relation",
                           e.pos, file, "use one index letter per relation")
            free.append(e.index)
        entry: Any = e.expr if e.expr is not None else Name(e.id, e.pos)
        return entry, True
    if isinstance(e, IndexSum):
        if bound is not None:
            raise _err("nested sums are not supported", e.pos, file)
        return _lower_sum(e, file), False
    if isinstance(e, Neg):
        inner, vec = lower(e.operand, bound, file, free, dim)
        return Neg(inner, e.pos), vec
    if isinstance(e, Transpose):
        inner, vec = lower(e.operand, bound, file, free, dim)
        if vec:
            raise _err("transpose of an indexed entry", e.pos, file)
        return Transpose(inner, e.pos), False
    if isinstance(e, Call):
        args = [lower(a, bound, file, free, dim) for a in e.args]
        batch = [lower(b, bound, file, free, dim) for b in e.batch] if e.batch is not None else []
        if any(v for _, v in args + batch) and e.func == "mean":
            # \mathbb{E}[\hat x_i] (red team 13): the message names the two readings
            raise _err("mean(...) of an indexed entry: the mean over the index (\\frac{1}{d}"
                       "\\sum_i of the entries) or the expectation of that one entry over the "
                       "data: two readings", e.pos, file,
                       "write the mean over the entries as \\frac{1}{d}\\sum_i \\hat x_i or "
                       "\\mathrm{E}[\\hat x] (a vector's mean)")
        if any(v for _, v in args + batch):
            raise _err(f"{e.func}(...) applied to indexed entries", e.pos, file,
                       "functions of entries are elementwise; write the vector form")
        bind = [(k, lower(v, bound, file, free, dim)) for k, v in e.bind]
        if any(v for _, (_, v) in bind):
            raise _err(f"indexed entry in the subscript of {e.func}", e.pos, file)
        return Call(e.func, tuple(a for a, _ in args), e.pos,
                    tuple(b for b, _ in batch) if e.batch is not None else None,
                    e.params, tuple((k, v) for k, (v, _) in bind)), False
    if isinstance(e, BinOp):
        left, lv = lower(e.left, bound, file, free, dim)
        right, rv = lower(e.right, bound, file, free, dim)
        if e.op in ("+", "-"):
            if lv != rv:
                left, right = (left, _spread(right, e.pos)) if lv else (_spread(left, e.pos),
                                                                       right)
            return BinOp(e.op, left, right, e.pos), lv or rv
        if e.op == "odot":
            if lv != rv:
                raise _err("\\odot between an indexed entry and a vector", e.pos, file,
                           "write both factors as vectors (g \\odot x) or as entries (g_i x_i)")
            product = _entrywise(left, right, dim, "\\odot", e.pos, file)
            return mark(*product.args, e.pos), lv  # type: ignore[attr-defined]
        if lv and rv and e.op in ("*", "@"):
            return _entrywise(left, right, dim, "a product of two entries", e.pos, file), True
        if lv and rv:
            what = "product" if e.op in ("*", "@") else "quotient or power"
            raise _err(f"{what} of two indexed quantities outside a sum", e.pos, file,
                       "entrywise quotients and powers are not modelled; an entrywise product "
                       "g_i x_i (or g \\odot x) is")
        if rv and e.op in ("/", "**"):
            raise _err("indexed entry in a denominator or exponent", e.pos, file)
        if lv and e.op == "**":
            raise _err("power of an indexed entry outside a sum", e.pos, file,
                       "x_i^2 is accepted only as a summand of \\sum")
        return replace(e, left=left, right=right), lv or rv
    raise _err(f"internal: unexpected node {type(e).__name__}", Pos(1, 1), file)


def _plain_scalar(e: Expr) -> bool:
    """A number, or a product or quotient of numbers (``2``, ``\\frac{1}{2}``, ``-3``)."""
    if isinstance(e, Num):
        return True
    if isinstance(e, Neg):
        return _plain_scalar(e.operand)
    return isinstance(e, BinOp) and e.op in ("*", "/") and _plain_scalar(e.left) \
        and _plain_scalar(e.right)


def _entrywise(u: Expr, v: Expr, dim: int | None, what: str, pos: Pos, file: str) -> Expr:
    """The entrywise product ``hadamard(u, v)`` of the vectors ``u`` and ``v``, at any d.

    A number operand is refused here; a scalar or matrix operand by the shape check of the
    claim (``hadamard() takes column vectors, not a scalar``), never a contraction."""
    del dim  # read at every d: the engines prove it for every d or for the listed d
    if _plain_scalar(u) or _plain_scalar(v):
        raise _err(f"{what} of a number: an entrywise product takes two vectors", pos, file,
                   "for a scalar times a vector write a x (or a \\cdot x)")
    return Call("hadamard", (u, v), pos)


def _terms(e: object, sign: int, out: list[tuple[int, object]]) -> None:
    if isinstance(e, BinOp) and e.op in ("+", "-"):
        _terms(e.left, sign, out)
        _terms(e.right, sign if e.op == "+" else -sign, out)
    elif isinstance(e, Neg):
        _terms(e.operand, -sign, out)
    else:
        out.append((sign, e))


def _factors(e: object, num: list[object], den: list[object]) -> int:
    """Split a product into numerator and denominator factors; returns the sign."""
    if isinstance(e, BinOp) and e.op in ("*", "@"):
        return _factors(e.left, num, den) * _factors(e.right, num, den)
    if isinstance(e, BinOp) and e.op == "/" and not has_index(e.right):
        den.append(e.right)
        return _factors(e.left, num, den)
    if isinstance(e, Neg):
        return -_factors(e.operand, num, den)
    num.append(e)
    return 1


#: The most indexed factors a summand may have (a power of an entry counts its exponent)
MAX_FACTORS = 8


def _lower_sum(s: IndexSum, file: str) -> Expr:
    pos = s.pos
    terms: list[tuple[int, object]] = []
    _terms(s.body, 1, terms)
    total: Expr | None = None
    for sign, term in terms:
        num: list[object] = []
        den: list[object] = []
        sign *= _factors(term, num, den)
        coeff: list[Expr] = []
        vecs: list[Expr] = []
        for f in num:
            if not has_index(f):
                coeff.append(lower(f, s.index, file)[0])
            elif (isinstance(f, BinOp) and f.op == "**" and isinstance(f.right, Num)
                  and f.right.value.denominator == 1 and 1 <= f.right.value <= MAX_FACTORS):
                # (x_i - \mu)^3: a power of an entry is that many factors of it
                base, _ = _entry(f.left, s.index, file)
                vecs += [base] * int(f.right.value)
            elif isinstance(f, BinOp) and f.op == "**" and has_index(f.left) \
                    and not has_index(f.right):
                raise _err(f"a power {f.right} of an indexed entry in a summand", f.pos, file,
                           f"powers 1..{MAX_FACTORS} of an entry are read in a sum "
                           "(\\sum_i (x_i - \\mu)^3); write another as a vector function")
            else:
                vecs.append(_entry(f, s.index, file)[0])
        if len(vecs) > MAX_FACTORS:
            raise _err(f"a summand with more than {MAX_FACTORS} indexed factors", pos, file,
                       "split the sum, or write the vector form")
        squares = [c for c in coeff if isinstance(c, BinOp) and c.op == "**"
                   and isinstance(c.right, Num) and c.right.value == 2
                   and not isinstance(c.left, Num)]
        written = [c for c in coeff if not _plain_scalar(c)]
        if s.within is not None and not vecs and (len(written) > 1 or squares):
            raise _err("a summand without an indexed entry in a sum over the set S_i", pos,
                       file, "write the entries with the sum's index: "
                       "\\sum_{k\\in\\mathcal S_i} x_k^2")
        if not vecs and len(written) > 1:
            # the reading (literal d*c*x, or entrywise) needs the factors' shapes
            core: Expr = Call(SUM_TERM, tuple(coeff), pos)
            coeff = []
        elif not vecs and len(squares) == 1:
            coeff.remove(squares[0])
            core = Call(SUM_SQUARES, (squares[0].left,), pos)  # type: ignore[union-attr]
        elif not vecs:
            core = Call("sum", (_within(s, _ones(pos)),), pos)
        elif len(vecs) == 1:
            core = Call("sum", (_within(s, vecs[0]),), pos)
        else:  # sum_i u_i v_i w_i ...: u^T (v . w . ...), the entrywise product of the rest
            rest = vecs[-1]
            for v in reversed(vecs[1:-1]):
                rest = Call("hadamard", (v, rest), pos)
            core = BinOp("*", Transpose(vecs[0], pos), _within(s, rest), pos)
        # coefficients keep their written order (they may be matrices): c1*c2*...*core
        factors = [c for c in coeff if not (isinstance(c, Num) and c.value == 1)]
        if vecs and any(not _plain_scalar(c) for c in factors):
            # beside indexed entries an unindexed vector would be multiplied outside the
            # sum: its shape decides (read_scaled_sum)
            core = Call(SUM_SCALED, (core, *factors), pos)
        elif factors:
            prod = factors[0]
            for c in factors[1:]:
                prod = BinOp("*", prod, c, pos)
            core = BinOp("*", prod, core, pos)
        for d in den:
            core = BinOp("/", core, lower(d, s.index, file)[0], pos)
        if total is None:
            total = core if sign > 0 else Neg(core, pos)
        else:
            total = BinOp("+" if sign > 0 else "-", total, core, pos)
    assert total is not None
    return total


def _within(s: IndexSum, v: Expr) -> Expr:
    """The entries of ``v`` the sum runs over: the entry's group (``S*v``) for a sum over
    the set S_i, all of them otherwise (u.T*(S*w) is the sum of u_k w_k over the group)."""
    return v if s.within is None else BinOp("*", Name(s.within, v.pos), v, v.pos)


def _entry(e: object, index: str, file: str) -> tuple[Expr, bool]:
    out, vec = lower(e, index, file)
    if not vec:  # pragma: no cover - has_index() was true, so lower found an entry
        raise _err("expected an indexed factor", getattr(e, "pos", Pos(1, 1)), file)
    return out, vec



def product_factors(e: Expr) -> list[Expr]:
    """The factors of a product as written (``a x^2 * w`` -> ``[a, x^2, w]``)."""
    if isinstance(e, BinOp) and e.op == "*":
        return product_factors(e.left) + product_factors(e.right)
    return [e]


def read_summand(factors: list[Expr], shape: Any, pos: Pos, file: str,
                 literal: bool = True) -> Expr | None:
    """The sum over i of a summand with no indexed entry, from its factors and their shapes.

    Sources write ``\\sum_i x^2`` for the sum of the squares x_i^2, so a summand holding the
    square of a vector, or two vectors, is read entrywise as a whole: ``\\sum_i x^2 * w``
    is ``sum(hadamard(hadamard(x, x), w))`` (sum_i x_i^2 w_i), scalars multiplying it; a
    matrix or row factor there is an error.  Any other summand is constant in i: its
    ``literal`` reading is ``d`` times it (``\\sum_i a x`` is ``d a x``); without ``literal``
    (``\\sum x * w``, no index) None is returned for the caller's sum of entries.
    """
    cols: list[Expr] = []
    scalars: list[Expr] = []
    others: list[Expr] = []
    squared = False
    for f in factors:
        if isinstance(f, BinOp) and f.op == "**" and isinstance(f.right, Num) \
                and f.right.value == 2 and shape(f.left) == "column":
            cols += [f.left, f.left]
            squared = True
            continue
        kind = shape(f)
        (cols if kind == "column" else scalars if kind == "scalar" else others).append(f)
    if not squared and len(cols) < 2:
        if not literal:
            return None
        prod = factors[0]
        for f in factors[1:]:
            prod = BinOp("*", prod, f, pos)
        return BinOp("*", prod, Call("sum", (_ones(pos),), pos), pos)
    if others:
        raise _err(f"a summand read entrywise (the square of a vector, or two vectors, "
                   f"under a sum is sum_i of their entries) with a factor {others[0]} that "
                   "is neither a scalar nor a vector", pos, file,
                   "write the entries with an index: \\sum_i x_i^2 w_i, or take the "
                   "matrix out of the sum")
    vec = cols[0]
    for c in cols[1:]:
        vec = Call("hadamard", (vec, c), pos)
    total: Expr = Call("sum", (vec,), pos)
    for s in reversed(scalars):
        total = BinOp("*", s, total, pos)
    return total


def read_scaled_sum(core: Expr, factors: list[Expr], shape: Any, pos: Pos, file: str) -> Expr:
    """``\\sum_i c\\, x_i``: ``c * sum(x)`` for factors that are constant in i (scalars,
    matrices); an unindexed vector there (``\\sum_i \\hat x_i x``) is refused: sources
    write x for x_i in sums, and ``x * sum(xhat)`` would take it out of the sum."""
    for f in factors:
        if shape(f) == "column":
            raise _err(f"the vector {f} beside indexed entries in a summand: is it the "
                       "constant vector, or its entries (as sources write x^2 for x_i^2)?",
                       pos, file, "index it (\\sum_i \\hat x_i x_i) or take it out of "
                       "the sum (x \\sum_i \\hat x_i)")
    prod = factors[0]
    for f in factors[1:]:
        prod = BinOp("*", prod, f, pos)
    return BinOp("*", prod, core, pos)


def term_nodes(e: object) -> list[object]:
    """The nodes of a parsed term, the parser-internal index nodes included (``IndexSum``
    bodies are walked; ``nodes`` of the syntax module does not know them)."""
    out, stack = [], [e]
    while stack:
        n = stack.pop()
        out.append(n)
        if isinstance(n, BinOp):
            stack += [n.left, n.right]
        elif isinstance(n, (Neg, Transpose)):
            stack.append(n.operand)
        elif isinstance(n, Call):
            stack += list(n.args) + list(n.batch or ())
        elif isinstance(n, IndexSum):
            stack.append(n.body)
    return out

"""Two-index notation of the LaTeX reader: an equation with two free indices is a matrix equation.

Papers state Jacobians entry by entry: ``\\frac{\\partial \\hat x_i}{\\partial x_j} =
\\frac{1}{s}(\\delta_{ij} - \\frac{1}{d} - \\frac{\\hat x_i \\hat x_j}{d})`` holds for every
(i, j), which is the matrix equation ``jacobian(xhat, x) == (I - ones*ones.T/d -
xhat*xhat.T/d)/s``.  :func:`lower_entries` rewrites the two sides of such a relation:

* every lowered part carries the index letters it depends on (none: a scalar; one: the
  entries of a column vector; two: the entries of a matrix, rows by the first);
* ``A_{ij}`` is entry (i, j) of the matrix A (``A_{ji}`` is entry (i, j) of A.T), the
  Kronecker delta ``\\delta_{ij}`` (where the document does not define delta) the identity,
  ``\\partial y_i/\\partial x_j`` entry (i, j) of ``jacobian(y, x)``;
* an entrywise product with two letters is an outer product (``a_i b_j`` is ``a*b.T``), with
  one letter a ``hadamard`` (``a_i b_i``), a matrix entry times ``u_i`` is ``diag(u)*A``;
* a part that lacks a letter is constant along it: ``a_i`` beside ``A_{ij}`` is ``a*ones.T``,
  a scalar ``c*ones*ones.T``;
* ``\\sum_k`` contracts over k: ``\\sum_k g_k J_{ki}`` is ``J.T*g``, ``\\sum_k A_{ik}
  B_{kj}`` is ``A*B``, ``\\sum_k A_{ik}`` is ``A*ones``.

Which free letter is the row does not matter for the truth of the claim (it holds for every
(i, j) or not; both sides are read in the same orientation): the first free letter read is the
row.  Anything else (three letters in one term, a function or power of entries, an entry in a
denominator, a non-scalar factor without index beside entries, an entry with the same letter
twice, a sum over a letter that is also free) is refused with its location.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from symnorm.errors import SourceError
from symnorm.lang.latex_index import (
    Indexed,
    IndexSum,
    MatrixEntry,
    _factors,
    _terms,
    has_index,
)
from symnorm.lang.syntax import BinOp, Call, Expr, Name, Neg, Num, Pos, Transpose, VectorLit

__all__ = ["lower_entries", "needs_matrix"]

#: A lowered part and the index letters it depends on: () a scalar, (a,) the entries of a
#: column vector along a, (a, b) the entries of a matrix, rows along a.
Tagged = tuple[Expr, tuple[str, ...]]


def _err(msg: str, pos: Pos, file: str, hint: str = "") -> SourceError:
    return SourceError(msg, file, pos.line, pos.col, hint)


def _letters(e: object, bound: frozenset[str], out: list[str], entry: list[bool]) -> None:
    """The free index letters of ``e`` in reading order; ``entry`` notes a matrix entry."""
    if isinstance(e, Indexed):
        if e.index not in bound:
            out.append(e.index)
    elif isinstance(e, MatrixEntry):
        entry.append(True)
        out += [c for c in (e.row, e.col) if c not in bound]
    elif isinstance(e, IndexSum):
        _letters(e.body, bound | {e.index}, out, entry)
    elif isinstance(e, BinOp):
        _letters(e.left, bound, out, entry)
        _letters(e.right, bound, out, entry)
    elif isinstance(e, (Neg, Transpose)):
        _letters(e.operand, bound, out, entry)
    elif isinstance(e, Call):
        for a in e.args + (e.batch or ()):
            _letters(a, bound, out, entry)


def needs_matrix(left: object, right: object) -> bool:
    """Whether a relation is read here: it holds a matrix entry or two free index letters.

    >>> p = Pos(1, 1)
    >>> needs_matrix(Indexed("y", "i", p), Indexed("x", "i", p))
    False
    >>> needs_matrix(Indexed("y", "i", p), BinOp("*", Indexed("x", "i", p),
    ...                                          Indexed("x", "j", p), p))
    True
    """
    out: list[str] = []
    entry: list[bool] = []
    for side in (left, right):
        _letters(side, frozenset(), out, entry)
    return bool(entry) or len(set(out)) > 1


def _mul(a: Expr, b: Expr, pos: Pos) -> Expr:
    return BinOp("*", a, b, pos)


def _ones(pos: Pos) -> Expr:
    return Name("ones", pos)


def _t(e: Expr, pos: Pos) -> Expr:
    """The transpose of ``e`` (``A.T.T`` written as ``A``)."""
    return e.operand if isinstance(e, Transpose) else Transpose(e, pos)


class _Lowering:
    """One relation's lowering; ``resolve`` gives the matrix of an entry written ``A_{ij}``,
    ``shape`` the shape of a lowered part without letters ("scalar", "column", ...)."""

    def __init__(self, file: str, resolve: Callable[[MatrixEntry], Expr],
                 shape: Callable[[Expr], str | None]) -> None:
        self.file, self.resolve, self.shape = file, resolve, shape

    def err(self, msg: str, pos: Pos, hint: str = "") -> SourceError:
        return _err(msg, pos, self.file, hint)

    def scalar(self, e: Expr, beside: tuple[str, ...], pos: Pos) -> None:
        """A part without letters beside entries must be a scalar (constant along them)."""
        if beside and self.shape(e) != "scalar":
            raise self.err(f"{e} beside indexed entries is not a scalar here (its shape is "
                           f"{self.shape(e) or 'not known'}): an entry equation multiplies "
                           "numbers", pos, "index it (x_i, A_{ij}) or take it out of the "
                           "entries")

    def to(self, t: Tagged, target: tuple[str, ...], pos: Pos) -> Expr:
        """``t`` constant along the letters of ``target`` it lacks (broadcast)."""
        e, have = t
        if have == target:
            return e
        self.scalar(e, target if not have else (), pos)
        if len(target) == 1:
            return _mul(e, _ones(pos), pos)
        r, c = target
        if not have:
            return _mul(_mul(e, _ones(pos), pos), Transpose(_ones(pos), pos), pos)
        if have == (r,):
            return _mul(e, Transpose(_ones(pos), pos), pos)
        if have == (c,):
            return _mul(_ones(pos), _t(e, pos), pos)
        return _t(e, pos)  # (c, r)

    def union(self, x: tuple[str, ...], y: tuple[str, ...], pos: Pos) -> tuple[str, ...]:
        out = tuple(dict.fromkeys((x if len(x) == 2 else ()) + (y if len(y) == 2 else ())
                                  + x + y))
        if len(out) > 2:
            raise self.err(f"three index letters ({', '.join(out)}) in one relation: an "
                           "entry equation has at most two free indices (a matrix)", pos,
                           "sum over the third (\\sum_k) or split the equation")
        return out

    def times(self, x: Tagged, y: Tagged, pos: Pos) -> Tagged:
        """The entrywise product of two parts (an outer product across letters)."""
        (a, ta), (b, tb) = x, y
        if not ta or not tb:
            if ta or tb:
                self.scalar(a if not ta else b, ta or tb, pos)
            return _mul(a, b, pos), ta or tb
        if len(ta) == 1 and ta == tb:
            return Call("hadamard", (a, b), pos), ta
        if len(ta) == 1 and len(tb) == 1:
            return _mul(a, _t(b, pos), pos), (ta[0], tb[0])
        if len(ta) == 2 and len(tb) == 2:
            raise self.err("a product of two matrix entries outside a sum (an entrywise "
                           "product of matrices) is not modelled", pos,
                           "sum over a shared index (\\sum_k A_{ik} B_{kj}) for the matrix "
                           "product")
        (m, tm), (u, tu) = (x, y) if len(ta) == 2 else (y, x)
        if tu[0] == tm[0]:
            return _mul(Call("diag", (u,), pos), m, pos), tm
        if tu[0] == tm[1]:
            return _mul(m, Call("diag", (u,), pos), pos), tm
        raise self.err(f"three index letters ({', '.join(tm + tu)}) in one product", pos,
                       "an entry equation has at most two free indices")

    def low(self, e: object, bound: frozenset[str]) -> Tagged:
        pos: Pos = getattr(e, "pos", Pos(1, 1))
        if isinstance(e, (Num, Name, VectorLit)):
            return e, ()
        if isinstance(e, Indexed):
            entry = e.expr if e.expr is not None else Name(e.id, e.pos)
            return entry, (e.index,)  # type: ignore[return-value]
        if isinstance(e, MatrixEntry):
            return self.resolve(e), (e.row, e.col)
        if isinstance(e, IndexSum):
            if e.index in bound:
                raise self.err(f"a sum over {e.index} inside a sum over {e.index}", pos)
            return self.sum(e, bound)
        if isinstance(e, Neg):
            inner, t = self.low(e.operand, bound)
            return Neg(inner, pos), t
        if isinstance(e, Transpose):
            inner, t = self.low(e.operand, bound)
            if t:
                raise self.err("transpose of an indexed entry", pos,
                               "write the entry with its letters swapped (A_{ji})")
            return Transpose(inner, pos), ()
        if isinstance(e, Call):
            args = [self.low(a, bound) for a in e.args]
            batch = [self.low(b, bound) for b in e.batch or ()]
            if any(t for _, t in args + batch) or any(has_index(v) for _, v in e.bind):
                raise self.err(f"{e.func}(...) applied to indexed entries", pos,
                               "functions of entries are elementwise; write the matrix form")
            return Call(e.func, tuple(a for a, _ in args), pos,
                        tuple(b for b, _ in batch) if e.batch is not None else None,
                        e.params, e.bind), ()
        if isinstance(e, BinOp):
            return self.binop(e, bound)
        raise self.err(f"internal: unexpected node {type(e).__name__}", pos)

    def binop(self, e: BinOp, bound: frozenset[str]) -> Tagged:
        pos = e.pos
        x, y = self.low(e.left, bound), self.low(e.right, bound)
        if e.op in ("+", "-"):
            target = self.union(x[1], y[1], pos)
            return BinOp(e.op, self.to(x, target, pos), self.to(y, target, pos), pos), target
        if e.op in ("*", "@", "odot"):
            self.union(x[1], y[1], pos)
            return self.times(x, y, pos)
        if e.op == "/":
            if y[1]:
                raise self.err("an indexed entry in a denominator", pos,
                               "entrywise quotients are not modelled")
            self.scalar(y[0], x[1], pos)
            return BinOp("/", x[0], y[0], pos), x[1]
        if e.op == "**":
            if y[1]:
                raise self.err("an indexed entry in an exponent", pos)
            if not x[1]:
                return BinOp("**", x[0], y[0], pos), ()
            if len(x[1]) == 1 and isinstance(e.right, Num) and e.right.value == 2:
                return Call("hadamard", (x[0], x[0]), pos), x[1]
            raise self.err("a power of an indexed entry other than the square of a vector "
                           "entry", pos, "x_i^2 is the entrywise square; powers of matrix "
                           "entries are not modelled")
        raise self.err(f"operator {e.op} between indexed entries", pos)

    def sum(self, s: IndexSum, bound: frozenset[str]) -> Tagged:
        """``\\sum_k``: each term's factors that carry k are contracted over it."""
        k, pos = s.index, s.pos
        terms: list[tuple[int, object]] = []
        _terms(s.body, 1, terms)
        total: Tagged | None = None
        for sign, term in terms:
            num: list[object] = []
            den: list[object] = []
            sign *= _factors(term, num, den)
            parts = [self.low(f, bound | {k}) for f in num]
            with_k = [p for p in parts if k in p[1]]
            rest: Tagged | None = None
            for p in (p for p in parts if k not in p[1]):
                rest = p if rest is None else self.times(rest, p, pos)
            if not with_k:
                core: Tagged = (Call("sum", (_ones(pos),), pos), ())
            else:
                acc = with_k[0]
                for p in with_k[1:-1]:
                    acc = self.times(acc, p, pos)
                core = self.contract(acc, with_k[-1] if len(with_k) > 1 else None, k, pos)
            value = core
            if rest is not None:
                self.union(rest[1], core[1], pos)
                value = self.times(rest, core, pos)
            for d in den:
                dv = self.low(d, bound | {k})
                if dv[1]:  # pragma: no cover - _factors keeps indexed denominators
                    raise self.err("an indexed entry in a denominator", pos)
                value = (BinOp("/", value[0], dv[0], pos), value[1])
            if sign < 0:
                value = (Neg(value[0], pos), value[1])
            if total is None:
                total = value
            else:
                target = self.union(total[1], value[1], pos)
                total = (BinOp("+", self.to(total, target, pos), self.to(value, target, pos),
                               pos), target)
        assert total is not None
        return total

    def contract(self, x: Tagged, y: Tagged | None, k: str, pos: Pos) -> Tagged:
        """The sum over k of the entrywise product of ``x`` and ``y`` (of ``x`` alone)."""
        def along(t: Tagged) -> tuple[Expr, tuple[str, ...]]:
            """``t`` as a matrix whose rows run along k (a vector: a single column)."""
            e, tags = t
            if tags == (k,):
                return e, ()
            if len(tags) == 2 and tags[0] == k:
                return e, (tags[1],)
            if len(tags) == 2 and tags[1] == k:
                return _t(e, pos), (tags[0],)
            raise self.err(f"the summed index {k} appears twice in one entry", pos)

        a, ta = along(x)
        if y is None:  # sum_k a_k = ones.T a, as a column along the other letter
            out: Expr = Call("sum", (a,), pos) if not ta else _mul(_t(a, pos), _ones(pos),
                                                                   pos)
            return out, ta
        b, tb = along(y)
        if ta and tb and ta == tb:
            raise self.err(f"both factors of the sum over {k} carry {ta[0]}: a diagonal "
                           "entry of a product, not a matrix equation", pos)
        self.union(ta, tb, pos)
        if not ta and tb:  # sum_k a_k B_{kj}: the column B.T a along j
            return _mul(_t(b, pos), a, pos), tb
        return _mul(_t(a, pos), b, pos), ta + tb


def lower_entries(left: object, right: object, file: str,
                  resolve: Callable[[MatrixEntry], Expr],
                  shape: Callable[[Expr], str | None], pos: Pos) -> tuple[Expr, Expr]:
    """The two sides of an entry equation as one matrix (or vector, scalar) equation.

    A side with no letter is constant along them if it is a scalar; a side that names a
    whole vector or matrix (``J = ...`` beside ``\\delta_{ij}``) must already have the
    entries' shape, and the claim's shape check says so.
    """
    low = _Lowering(file, resolve, shape)
    x, y = low.low(left, frozenset()), low.low(right, frozenset())
    target = low.union(x[1], y[1], getattr(right, "pos", pos))  # where the letters meet
    sides = []
    for e, tags in (x, y):
        if not tags and target and shape(e) != "scalar":
            sides.append(e)  # a whole vector or matrix: checked by shape, never broadcast
        else:
            sides.append(low.to((e, tags), target, pos))
    return sides[0], sides[1]


def _walk(e: object, bound: frozenset[str], out: list[tuple[object, frozenset[str]]]) -> None:
    """Every node of ``e`` with the letters of the sums enclosing it."""
    out.append((e, bound))
    if isinstance(e, IndexSum):
        _walk(e.body, bound | {e.index}, out)
    elif isinstance(e, BinOp):
        _walk(e.left, bound, out)
        _walk(e.right, bound, out)
    elif isinstance(e, (Neg, Transpose)):
        _walk(e.operand, bound, out)
    elif isinstance(e, Call):
        for a in e.args + (e.batch or ()):
            _walk(a, bound, out)


def _rewrite(e: object, f: Callable[[object], object | None]) -> object:
    """``e`` with every node for which ``f`` gives a value replaced by it."""
    new = f(e)
    if new is not None:
        return new
    if isinstance(e, IndexSum):
        return replace(e, body=_rewrite(e.body, f))
    if isinstance(e, BinOp):
        return BinOp(e.op, _rewrite(e.left, f), _rewrite(e.right, f),  # type: ignore[arg-type]
                     e.pos, written=e.written)
    if isinstance(e, Neg):
        return Neg(_rewrite(e.operand, f), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Transpose):
        return Transpose(_rewrite(e.operand, f), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Call):
        return Call(e.func, tuple(_rewrite(a, f) for a in e.args), e.pos,  # type: ignore[misc]
                    e.batch, e.params, e.bind)
    return e

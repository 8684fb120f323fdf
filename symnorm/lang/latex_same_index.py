r"""The same index on both sides of a partial: ``\frac{\partial \hat x_i}{\partial x_i}``.

Sources mean two things by it.  Backward-pass blogs mean the **local partial** along the
computation graph: the numerator's local formula differentiated by x with its other parents
(``\mu``, ``\sigma^2``) held (the Data Science Stack Exchange question's website:
``= 1/\sqrt{\sigma^2+\epsilon}``); others mean the **diagonal entry of the Jacobian**, the
total derivative (the asker's quotient rule there).  The claim language has no diagonal of
a matrix, so both are written through the numerator's local formula f, a column in x and
the names it holds (:func:`held_names`), with f entrywise in x (entry i depends on x_i only,
so its Jacobian is diagonal and ``J * ones`` is its diagonal):

* local: ``jacobian(f[x:=b], b) * ones  given b == x``;
* total: that plus, for each held scalar p (``mu``, ``sigma``, ``r``), the path through p,
  ``hadamard(jacobian(f[p:=c], c), jacobian(p, x).T)  given c == p`` (the chain rule
  ``df/dx = \partial_x f + \sum_p \partial_p f \nabla p^T``, whose diagonal is the
  entrywise product of the two columns).

The equation reader runs in one of three modes (``reader.same_index``): None refuses the
construct (:class:`SameIndexError`), as before; :func:`read_both` then reads the equation in
mode ``"local"`` and in mode ``"total"`` and pairs the claims.  A claim that differs between
the two carries the other as ``Claim.alternative``: ``symnorm/check/run.py`` decides both,
and only a verdict both give stands (docs/latex.md, "The same index on both sides of a
partial").  Where the numerator holds nothing that depends on x (``\partial y_i/\partial
\hat x_i``: y's only parent is x-hat) the two readings are one expression.

A row whose chain sums the paths through the graph explicitly is the multivariable chain
rule over the graph: a sum of links ``\frac{\partial l}{\partial q}\frac{\partial q}{\partial
x_i}`` (one l, one x_i), one through the node A of the same-index partial (``q = \hat x_i``),
another through a parent of A (``\mu``, ``\sigma^2``; RMSNorm's ``r``).  There the total
reading would count the paths through the parents twice, so the row's chain is read locally
and a note says so; any other shape (a third factor, a difference, the partial alone on one
side) keeps both readings.

>>> from symnorm.lang.latex_same_index import entrywise
>>> from symnorm.lang.parser import parse_expression
>>> scalar = lambda e: "scalar" if str(e) in ("mu", "d", "sqrt(s + eps)") else "column"
>>> entrywise(parse_expression("(b - mu*ones)/sqrt(s + eps)", "<t>"), "b", scalar)
True
>>> entrywise(parse_expression("b - ones*ones.T*b/d", "<t>"), "b", scalar)
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from symnorm.errors import SourceError
from symnorm.lang.syntax import BinOp, Call, Claim, Declare, Expr, Name, Neg, Pos, Transpose

__all__ = ["LOCAL", "TOTAL", "SameIndexError", "entrywise", "node_by_node", "path_chains",
           "read_both", "same_index_entry"]

LOCAL, TOTAL = "local", "total"
_BUILTIN = frozenset({"d", "ones", "I"})


class SameIndexError(SourceError):
    """The refusal of a same-index partial in the reader's refusing mode: :func:`read_both`
    reads the equation in both readings instead when it can."""

    def __reduce__(self):  # picklable like its base
        return (SourceError, (self.message, self.file, self.line, self.column, self.hint))


def _names(e: object) -> set[str]:
    from symnorm.lang.latex import names_in
    return names_in(e)


def _subst(e: Expr, mapping: dict[str, Expr]) -> Expr:
    from symnorm.lang.latex import subst
    return subst(e, mapping)


def entrywise(e: Expr, var: str, shape: Callable[[Expr], str | None]) -> bool:
    """Whether entry i of the column ``e`` depends on the vector ``var`` through ``var_i``
    only (so ``jacobian(e, var)`` is diagonal).  Structural and conservative: sums,
    differences, negations, scalar multiples and quotients by factors free of ``var``, and
    entrywise products of such columns; anything else (a reduction ``ones.T*var``, a matrix
    product, a call of a document's function) is not."""
    if var not in _names(e):
        return True
    if isinstance(e, Name):
        return e.id == var
    if isinstance(e, Neg):
        return entrywise(e.operand, var, shape)
    if isinstance(e, BinOp) and e.op in ("+", "-"):
        return entrywise(e.left, var, shape) and entrywise(e.right, var, shape)
    if isinstance(e, BinOp) and e.op == "*":
        for a, b in ((e.left, e.right), (e.right, e.left)):
            if var not in _names(a) and shape(a) == "scalar":
                return entrywise(b, var, shape)
        return False
    if isinstance(e, BinOp) and e.op == "/":
        return var not in _names(e.right) and shape(e.right) == "scalar" \
            and entrywise(e.left, var, shape)
    if isinstance(e, Call) and e.func == "hadamard" and len(e.args) == 2 and e.batch is None:
        return all(entrywise(a, var, shape) for a in e.args)
    return False


def _mode(reader: Any) -> str | None:
    return getattr(reader, "same_index", None)


def _refuse(reader: Any, what: str, pos: Pos, hint: str, why: str = "") -> SourceError:
    msg = (f"{what}: the same index on both is ambiguous (the diagonal entry of the "
           "Jacobian, or the partial along the computation graph)")
    if why:
        return SourceError(f"{msg}, and {why}", reader.file, pos.line, pos.col, hint)
    return SameIndexError(msg, reader.file, pos.line, pos.col, hint)


def _plain_names(e: object) -> set[str]:
    """The names in ``e`` (never the functions it calls)."""
    from symnorm.lang.latex import _children
    out: set[str] = set()
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, Name):
            out.add(node.id)
        stack.extend(_children(node))
    return out


def held_names(reader: Any, f: Expr, var: str) -> list[str]:
    """The names of ``f`` other than ``var`` whose value depends on ``var`` (the quantities a
    local partial holds: ``mu``, ``sigma``), in a fixed order.  A call with ``var`` in its
    arguments is no held name: :func:`entrywise` refuses it (``mean(x)``)."""
    return [n for n in sorted(_plain_names(f) - {var} - _BUILTIN)
            if reader.kind(n) not in ("scalar", "vector", "matrix") and reader._reaches(n, var)]


def diagonal(reader: Any, f: Expr, var: str, index: str, label: str, pos: Pos,
             what: str, hint: str) -> object:
    """Entry ``index`` of the diagonal of ``d f/d var`` in the reader's mode (module
    docstring); ``f`` a column in the declared vector ``var`` and the names it holds."""
    from symnorm.lang.latex_index import Indexed
    mode = _mode(reader)

    def shape(e: Expr) -> str | None:
        return reader._shape(e, set())  # type: ignore[no-any-return]

    if var not in _names(f):
        raise _refuse(reader, what, pos, hint, f"{var} is not in the numerator's own formula "
                      f"({f}), so it has no local partial by {var} (only the total derivative, "
                      "which the diagonal needs written with two indices)")
    functions = sorted(n for n in _names(f) if reader.kind(n) == "function"
                       or reader.env.own_function(n))
    if functions:
        raise _refuse(reader, what, pos, hint, f"the numerator is computed with the "
                      f"document's function {functions[0]}, through which the readings are "
                      "not followed")
    held = held_names(reader, f, var)
    if mode is None and held:
        raise _refuse(reader, what, pos, hint)
    if shape(f) != "column":
        raise _refuse(reader, what, pos, hint, f"the numerator ({f}) is not a column here")
    graph = reader.graph_reading()
    ones = Name("ones", pos)
    if not held:  # nothing held depends on var: both readings are this one
        if not entrywise(f, var, shape):
            raise _refuse(reader, what, pos, hint, f"its formula {f} is not entrywise in "
                          f"{var}, and a diagonal of a Jacobian is read only for one that is")
        jac = Call("jacobian", (f, Name(var, pos)), pos)
        return Indexed(label, index, pos, BinOp("*", jac, ones, pos))
    b = graph.fresh(var, "column", Name(var, pos), pos)
    direct = _subst(f, {var: b})
    if not entrywise(direct, b.id, shape):
        raise _refuse(reader, what, pos, hint, f"its formula {f} is not entrywise in {var} "
                      f"with {', '.join(held)} held, and a diagonal of a Jacobian is read only "
                      "for one that is")
    out: Expr = BinOp("*", Call("jacobian", (direct, b), pos), ones, pos)
    if mode == TOTAL:
        for p in held:
            if shape(Name(p, pos)) != "scalar":
                raise _refuse(reader, what, pos, hint, f"the numerator holds the vector {p}, "
                              "through which the diagonal of the total derivative is not "
                              "modelled")
            c = graph.fresh(p, "scalar", Name(p, pos), pos)
            path = Call("hadamard", (Call("jacobian", (_subst(f, {p: c}), c), pos),
                                     Transpose(Call("jacobian", (Name(p, pos), Name(var, pos)),
                                                    pos), pos)), pos)
            out = BinOp("+", out, path, pos)
    return Indexed(label, index, pos, out)


def _num_formula(reader: Any, num: str, power: int | None) -> Expr | None:
    """The numerator's own formula: a node of the vocabulary's graph (its local definition,
    the parents at their values) or the document's definition; None otherwise."""
    from symnorm.lang.latex_graph import Graph, _named_here, node_key
    if power is not None:
        return None
    if num in reader.lets and not reader.lets[num].params:
        return reader.lets[num].body  # type: ignore[no-any-return]
    own = reader.env.definition(num)
    if own is not None:
        return own  # type: ignore[no-any-return]
    graph, output = reader.env.graph, reader.env.output
    if isinstance(graph, Graph) and output is not None:
        key = node_key(graph, output, num, None)
        if key is not None and _named_here(reader, num, output):
            node = graph.node(key)
            return _subst(node.local, {p: graph.node(p).value for p in node.parents})
    return None


def same_index_entry(reader: Any, pt: Any) -> object:
    """``\\partial A_i/\\partial x_i`` with x a declared vector (latex.py's Jacobian entry)."""
    what = f"\\partial {pt.num}_{pt.num_index}/\\partial {pt.var}_{pt.var_index}"
    hint = (f"write two indices (\\partial {pt.num}_i/\\partial {pt.var}_j) for the entries, "
            f"or the matrix \\frac{{\\partial {pt.num}}}{{\\partial {pt.var}}}")
    if reader.kind(pt.var) != "vector":
        raise _refuse(reader, what, pt.pos, hint)
    f = _num_formula(reader, pt.num, pt.num_power)
    if f is None:
        if _mode(reader) is None:
            raise _refuse(reader, what, pt.pos, hint)
        raise _refuse(reader, what, pt.pos, hint, f"{pt.num} is no node of a computation "
                      "graph here, so its local partial is not defined")
    return diagonal(reader, f, pt.var, pt.num_index, pt.num, pt.pos, what, hint)


def expression_entry(reader: Any, f: Expr, var: str, index: str, label: str, pos: Pos,
                     what: str, hint: str) -> object:
    """The operator ``\\frac{\\partial}{\\partial x_i}`` of an entry at i, or ``\\partial
    (..)_i/\\partial x_i``: the expression is its own formula."""
    if reader.kind(var) != "vector":
        raise _refuse(reader, what, pos, hint)
    return diagonal(reader, f, var, index, label, pos, what, hint)


def node_by_node(reader: Any, pt: Any, local: Expr, total: Expr | None, b: Name) -> object:
    """``\\partial y_i/\\partial \\hat x_i`` along the vocabulary's graph (B a node): the local
    partial is ``local`` by the fresh ``b``; where every path from B to A is the direct one
    (``total``, A recomputed from b, is ``local``) the readings are one, and with ``local``
    entrywise in b the diagonal is ``J * ones``.  Otherwise refused."""
    from symnorm.lang.latex_index import Indexed
    what = f"\\partial {pt.num}_{pt.num_index}/\\partial {pt.var}_{pt.var_index}"
    hint = (f"write two indices (\\partial {pt.num}_i/\\partial {pt.var}_j) for the entries, "
            f"or the matrix \\frac{{\\partial {pt.num}}}{{\\partial {pt.var}}}")

    def shape(e: Expr) -> str | None:
        return reader._shape(e, set())  # type: ignore[no-any-return]
    if total is None or str(total) != str(local):
        raise _refuse(reader, what, pt.pos, hint)
    if not entrywise(local, b.id, shape) or shape(local) != "column":
        raise _refuse(reader, what, pt.pos, hint, f"{pt.num}'s local formula ({local}) is not "
                      f"entrywise in {pt.var}")
    jac = Call("jacobian", (local, b), pt.pos)
    return Indexed(pt.num, pt.num_index, pt.pos, BinOp("*", jac, Name("ones", pt.pos), pt.pos))


# --- the chain rule over the graph decides the local reading ------------------------------

def _terms(e: object) -> Iterator[object]:
    """The terms of a sum written with ``+`` only (a difference is no path sum)."""
    if isinstance(e, BinOp) and e.op == "+":
        yield from _terms(e.left)
        yield from _terms(e.right)
    else:
        yield e


def _links(term: object) -> tuple[Any, Any] | None:
    r"""``\frac{\partial L}{\partial q} \cdot \frac{\partial q}{\partial x_i}``: the two
    partials of one link of a chain rule (q the same name, power and index on both), in the
    order (outer, inner), whichever order the source writes the two factors in (a product of
    two scalars: red team 19's ``\frac{\partial \hat x_i}{\partial x_i}\frac{\partial
    l}{\partial \hat x_i}``), else None (a third factor, a number, a pair that links both
    ways, anything else)."""
    from symnorm.lang.latex_index import Partial
    if not (isinstance(term, BinOp) and term.op == "*"):
        return None
    a, b = term.left, term.right
    if not (isinstance(a, Partial) and isinstance(b, Partial)):
        return None
    forward = (a.var, a.var_power, a.var_index) == (b.num, b.num_power, b.num_index)
    backward = (b.var, b.var_power, b.var_index) == (a.num, a.num_power, a.num_index)
    if forward == backward:  # no link, or dA/dB dB/dA: neither factor is the outer one
        return None
    return (a, b) if forward else (b, a)


def _linked(reader: Any, side: object) -> list[object]:
    r"""The same-index partials of ``side`` that are links of the multivariable chain rule
    over the graph: in a sum of links ``\partial L/\partial q \cdot \partial q/\partial x_i``
    (one L, one x_i), the link through a node A by the same index (``\partial\hat
    x_i/\partial x_i``) where another link goes through a parent of A (``\mu``,
    ``\sigma^2``; RMSNorm's ``r``)."""
    from symnorm.lang.latex import _children
    from symnorm.lang.latex_graph import Graph, _named_here, node_key
    graph, output = reader.env.graph, reader.env.output
    if not isinstance(graph, Graph) or output is None:
        return []

    def key(name: str, power: int | None) -> str | None:
        k = node_key(graph, output, name, power)
        return k if k is not None and _named_here(reader, name, output) else None

    found: list[object] = []
    # whole sums only: the terms of ``a + b + c`` are those of the top ``+`` (a sum inside
    # it, ``a + b``, is no chain rule when ``c`` is no link)
    stack: list[tuple[object, bool]] = [(side, False)]
    while stack:
        node, in_sum = stack.pop()
        plus = isinstance(node, BinOp) and node.op == "+"
        stack.extend((c, plus) for c in _children(node))
        if not plus or in_sum:
            continue
        links = [_links(t) for t in _terms(node)]
        if len(links) < 2 or any(lk is None for lk in links):
            continue
        tops = {(a.num, a.num_power, a.num_index) for a, _ in links}  # type: ignore[misc]
        bottoms = {(b.var, b.var_power, b.var_index) for _, b in links}  # type: ignore[misc]
        if len(tops) != 1 or len(bottoms) != 1:
            continue
        var, power, index = next(iter(bottoms))
        if power is not None or index is None or reader.kind(var) != "vector":
            continue
        nodes = [key(b.num, b.num_power) for _, b in links]  # type: ignore[misc]
        for (_, b), a_key in zip(links, nodes):  # type: ignore[misc]
            if a_key is None or a_key == output or b.num_index != index:
                continue
            parents = set(graph.node(a_key).parents)
            if any(n in parents for n in nodes):
                found.append(b)
    return found


def _same_index_forms(e: object) -> list[object]:
    r"""Every partial of ``e`` that may have the same index on both sides: a partial with
    equal indices, an inline ``\partial (..)_i/\partial x_i``, and every operator form by an
    entry (its operand's index is known only once read)."""
    from symnorm.lang.latex import _children
    from symnorm.lang.latex_index import ExprPartial, Indexed, Partial
    from symnorm.lang.latex_operator import OPERATOR
    out: list[object] = []
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, (Partial, ExprPartial)) and node.num_index is not None \
                and node.num_index == node.var_index:
            out.append(node)
        elif isinstance(node, Call) and node.func == OPERATOR \
                and isinstance(node.args[1], Indexed):
            out.append(node)
        stack.extend(_children(node))
    return out


def path_chains(reader: Any, rows: list[tuple[int, Any]]) -> set[int]:
    """The chains (of ``(chain, written row)``) whose every same-index partial is a link of
    the chain rule over the graph (:func:`_linked`): those read the local partial."""
    linked: dict[int, set[int]] = {}
    forms: dict[int, set[int]] = {}
    for chain, w in rows:
        for side in (w.left, w.right):
            linked.setdefault(chain, set()).update(id(p) for p in _linked(reader, side))
            forms.setdefault(chain, set()).update(id(p) for p in _same_index_forms(side))
    return {c for c in forms if forms[c] and forms[c] <= linked[c]}


# --- reading an equation both ways ---------------------------------------------------------

def read_both(parse: Callable[..., list[Any]], text: str, label: str, **kw: Any) -> list[Any]:
    """``parse(text, label, **kw)`` as the reader does, and where it refuses a same-index
    partial, the equation read in both readings with each differing claim paired
    (module docstring)."""
    try:
        return parse(text, label, **kw)
    except SameIndexError as exc:
        env = kw.get("env")
        if env is None or getattr(env.entries, "prefix", None) is not None:
            raise  # no document (the API without kinds), or GroupNorm's per-entry reading
        first = exc
    from symnorm.lang.latex_graph import GraphReading
    readers: list[Any] = []
    local = parse(text, label, same_index=LOCAL, keep=readers, **kw)
    shared: GraphReading | None = readers[0]._graph
    total = parse(text, label, same_index=TOTAL, keep=readers, shared=shared, **kw)
    reader = readers[0]
    claims_l = [s for s in local if isinstance(s, Claim)]
    claims_t = [s for s in total if isinstance(s, Claim)]
    if [c.label for c in claims_l] != [c.label for c in claims_t]:  # pragma: no cover
        raise first
    chains = path_chains(reader, list(reader.claim_rows.values()))
    head = first.message.split(": the same index on both")[0]
    readings = (f"{head}: the same index on both sides of the partial has two readings",
                "the local partial along the computation graph (the numerator's other "
                "parents held)",
                "the diagonal entry of the Jacobian (the total derivative)",
                f"for the Jacobian's entries (the total derivative) {first.hint}; the local "
                "partial has that one reading as a link of the chain rule over the graph (a sum "
                "of links dl/dq dq/dx_i through the node and its parents mu, sigma^2); "
                "`symnorm check -v` shows each reading in the claim language")
    paired: dict[str, Claim] = {}
    for cl, ct in zip(claims_l, claims_t):
        if (str(cl.relation), [str(g) for g in cl.given]) == \
                (str(ct.relation), [str(g) for g in ct.given]):
            paired[cl.label] = cl
        elif reader.claim_rows.get(cl.label, (None,))[0] in chains:
            paired[cl.label] = replace(cl, notes=cl.notes + (
                f"{head}: read as the local partial along the computation graph (the "
                "numerator's other parents held), since the row is the chain rule over the graph "
                "(a sum of links dl/dq dq/dx_i through the node and a parent of it, mu or "
                "sigma^2): the total derivative there would count the paths through the "
                "parents twice",))
        else:
            paired[cl.label] = replace(cl, alternative=ct, readings=readings)
    # the statements of the total reading (its declarations hold the fresh variables of
    # both), its claims replaced by the paired ones, and any statement only the local
    # reading made, before the first claim
    graph_names = set(shared.vars) if shared is not None else set()

    def graph_declare(s: object) -> bool:
        return isinstance(s, Declare) and bool(s.names) and set(s.names) <= graph_names
    out = [paired[s.label] if isinstance(s, Claim) else s for s in total]
    extra = [s for s in local if not isinstance(s, Claim) and not graph_declare(s)
             and s not in out]
    if any(not isinstance(s, Declare) for s in extra):  # pragma: no cover - same definitions
        raise first
    at = next((k for k, s in enumerate(out) if isinstance(s, Claim)), len(out))
    return out[:at] + extra + out[at:]

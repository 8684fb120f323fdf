r"""The computation graphs of BatchNorm, LayerNorm and RMSNorm: a partial along one has a value.

Ioffe and Szegedy (arXiv:1502.03167, Algorithm 1 and section 3) compute the layer as a
graph of named quantities, each with a *local definition* in terms of its parents::

    mu      = ones.T*x/d                          (parents: x)
    sigma2  = (x - mu*ones).T*(x - mu*ones)/d     (parents: x, mu)   biased, as the vocabulary
    xhat    = (x - mu*ones)/sqrt(sigma2 + eps)    (parents: x, mu, sigma2)
    y       = gamma*xhat + beta*ones              (the vocabulary's output, with xhat for N(x))

and their backward pass writes partials along it.  RMSNorm's graph (``LAYER_GRAPHS``) is
the mean square ``ms = x.T*x/d``, ``r = sqrt(ms + eps)`` (the vocabulary's ``r``),
``xhat = x/r`` and the output.  Every such partial is given a value in
the claim language, so an equation that writes one is a claim for the engines:

* the **local partial** ``\partial A/\partial B`` (B a parent of A): A's local definition
  with B replaced by a fresh variable b (A's other parents are their values), differentiated
  by b: ``jacobian(A_local[B:=b], b)  given b == B``;
* the **adjoint** ``\partial\ell/\partial B`` (the loss, with a declared upstream gradient
  ``dl_dY`` of a node Y downstream of B): Y recomputed from b in every node downstream of B
  (the nodes upstream of B unchanged), ``jacobian(Y[B:=b], b).T * dl_dY  given b == B``.

The hypothesis fixes the point after differentiating (docs/claims.md, "Derivatives at an
assumed value").  The graph holds only where the vocabulary's names mean what it says: the
reader asks :func:`vocabulary_graph` for it, which returns None unless the block's
``\hat x``, ``\sigma`` and ``\mu`` are the default map (eps inside the root, the biased
variance); a document that defines a node itself gets a located error, never a second graph.

>>> g = vocabulary_graph({"y": parse_expression("gamma*BN(x) + beta*ones", "<v>")}, "y")
>>> str(g.cut("sigma2", Name("b", _P), "y"))
'gamma * (x - mu * ones) / sqrt(b + eps) + beta * ones'
>>> str(g.local("xhat", "mu", Name("b", _P)))
'(x - b * ones) / sqrt(sigma ** 2 + eps)'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from typing import Any

from .latex_index import Indexed, Partial, term_nodes
from .latex_own import own_node_error
from .parser import parse_expression
from .syntax import BinOp, Call, Expr, Name, Neg, Num, Pos, Relation, Transpose
from .vocab import VOCAB_INPUTS

__all__ = ["DEFAULT_MEANINGS", "GRAPH_VOCABS", "LAYER_GRAPHS", "Graph", "GraphReading",
           "LayerGraph", "Node", "differential_upstreams", "forward_differential", "read_partial", "unknown_quantity",
           "upstreams", "vocabulary_graph"]

_P = Pos(1, 1)


@dataclass(frozen=True)
class LayerGraph:
    """One layer's graph as text: its nodes' local definitions, what the vocabulary must mean
    by the names their values use, the maps whose argument is the normalized vector, and the
    LaTeX names of the nodes."""

    #: key -> (shape, local definition, parents); ``sigma2`` is a placeholder for the
    #: variance node, whose value is ``sigma ** 2``
    local: dict[str, tuple[str, str, tuple[str, ...]]]
    #: node key -> its value in the document's names (the key itself when not listed)
    values: dict[str, str]
    #: what the default vocabulary means by the names the values use (checked against the
    #: block's expansion before the graph is offered: ``use layernorm(eps_inside=0)`` differs)
    defaults: dict[str, str]
    normalizers: tuple[str, ...]
    #: (LaTeX name, power) -> node key
    names: dict[tuple[str, int | None], str]


#: Ioffe and Szegedy's graph (mean, biased variance, xhat), for BatchNorm and LayerNorm
_CENTERED = LayerGraph(
    local={"mu": ("scalar", "ones.T*x/d", ()),
           "sigma2": ("scalar", "(x - mu*ones).T*(x - mu*ones)/d", ("mu",)),
           "xhat": ("column", "(x - mu*ones)/sqrt(sigma2 + eps)", ("mu", "sigma2"))},
    values={"sigma2": "sigma**2"},
    defaults={"xhat": "P*x/sqrt((P*x).T*(P*x)/d + eps)", "sigma": "sqrt((P*x).T*(P*x)/d)",
              "mu": "ones.T*x/d"},
    normalizers=("N", "BN"),
    # Ioffe's mini-batch subscript, PaddlePaddle's beta for the mini-batch
    names={("mu", None): "mu", ("mu_B", None): "mu", ("mu_beta", None): "mu",
           ("sigma", 2): "sigma2", ("sigma_B", 2): "sigma2", ("sigma_beta", 2): "sigma2",
           ("xhat", None): "xhat"})
#: RMSNorm's graph (Zhang and Sennrich; yueyiming2009's rmsnorm-gradient page): the mean
#: square, r = sqrt(mean square + eps) (the vocabulary's r), xhat = x/r.  The mean square has
#: no conventional LaTeX name (sources call it a, ms or mean(x^2)): it is a node, so that r's
#: parent is one, but no partial names it
_RMS = LayerGraph(
    local={"ms": ("scalar", "x.T*x/d", ()),
           "r": ("scalar", "sqrt(ms + eps)", ("ms",)),
           "xhat": ("column", "x/r", ("r",))},
    values={"ms": "x.T*x/d"},
    defaults={"r": "sqrt(x.T*x/d + eps)", "xhat": "x/sqrt(x.T*x/d + eps)"},
    normalizers=("RMS",),
    names={("r", None): "r", ("xhat", None): "xhat"})
#: the vocabularies whose layer has a graph, and which
LAYER_GRAPHS: dict[str, LayerGraph] = {"batchnorm": _CENTERED, "layernorm": _CENTERED,
                                       "rmsnorm": _RMS}
#: the vocabularies whose layer has a graph
GRAPH_VOCABS = frozenset(LAYER_GRAPHS)
#: what the default LayerNorm vocabulary means by the names its graph's values use
DEFAULT_MEANINGS = _CENTERED.defaults


@dataclass(frozen=True)
class Node:
    """One named quantity of the graph: its shape, its value and its local definition."""

    key: str
    shape: str  # "scalar" or "column"
    value: Expr  # what the node is worth, in the document's names (``sigma ** 2``)
    local: Expr  # the local definition, parents written by their keys
    parents: tuple[str, ...]  # the parent nodes (the inputs x, eps, gamma, beta are not nodes)


@dataclass(frozen=True)
class Graph:
    """The nodes in computation order, and the LaTeX names that reach them."""

    nodes: tuple[Node, ...]
    #: (LaTeX name, power) -> node key (the output is reached by its own name)
    names: dict[tuple[str, int | None], str] = field(default_factory=dict)
    #: the names the values and local definitions use: each must take the vocabulary's
    #: meaning in the equation, or the graph is not the document's
    uses: tuple[str, ...] = ()

    def latex(self) -> str:
        """The nodes a partial may name, as a reader writes them (``mu, sigma^2, xhat, y``)."""
        reached = set(self.names.values()) | {self.nodes[-1].key}
        return ", ".join(_latex(k) for k in self.keys() if k in reached)

    def node(self, key: str) -> Node:
        return next(n for n in self.nodes if n.key == key)

    def keys(self) -> tuple[str, ...]:
        return tuple(n.key for n in self.nodes)

    def local(self, key: str, parent: str, var: Name) -> Expr:
        """``key``'s local definition with ``parent`` replaced by ``var``, the other parents
        at their values."""
        node = self.node(key)
        return _subst(node.local, {p: var if p == parent else self.node(p).value
                                   for p in node.parents})

    def cut(self, key: str, var: Name, target: str) -> Expr | None:
        """``target`` with node ``key`` replaced by ``var`` and every node downstream of it
        recomputed from ``var`` (the nodes upstream unchanged); None if ``target`` is not
        downstream of ``key``."""
        values: dict[str, Expr] = {}
        for node in self.nodes:
            if node.key == key:
                values[key] = var
            elif any(p in values for p in node.parents):
                values[node.key] = _subst(node.local, {p: values.get(p, self.node(p).value)
                                                       for p in node.parents})
        return values.get(target) if target != key else None


def vocabulary_graph(meanings: dict[str, Expr], output: str | None,
                     vocab: str = "layernorm") -> Graph | None:
    """The graph of vocabulary ``vocab`` whose output meaning is ``meanings[output]``.

    None when the output is not an affine map of the vocabulary's normalized vector
    (``N(x)``, ``BN(x)``, ``RMS(x)``).
    """
    spec = LAYER_GRAPHS[vocab]
    nodes = []
    for key, (shape, text, parents) in spec.local.items():
        value = parse_expression(spec.values[key], "<graph>") if key in spec.values \
            else Name(key, _P)
        nodes.append(Node(key, shape, value, parse_expression(text, "<graph>"), parents))
    if output is None or output not in meanings:
        return None
    found: list[bool] = []
    local = _replace_normalizer(meanings[output], found, spec.normalizers)
    if not found:
        return None
    nodes.append(Node(output, "column", Name(output, _P), local, ("xhat",)))
    return Graph(tuple(nodes), spec.names, tuple(spec.defaults))


def _replace_normalizer(e: Expr, found: list[bool], normalizers: tuple[str, ...]) -> Expr:
    if isinstance(e, Call) and e.func in normalizers and len(e.args) == 1 \
            and isinstance(e.args[0], Name) and e.args[0].id == "x" and e.batch is None:
        found.append(True)
        return Name("xhat", _P)
    if isinstance(e, Call):
        return Call(e.func, tuple(_replace_normalizer(a, found, normalizers) for a in e.args), _P, e.batch,
                    e.params, e.bind)
    if isinstance(e, BinOp):
        return BinOp(e.op, _replace_normalizer(e.left, found, normalizers),
                     _replace_normalizer(e.right, found, normalizers), _P)
    if isinstance(e, Neg):
        return Neg(_replace_normalizer(e.operand, found, normalizers), _P)
    if isinstance(e, Transpose):
        return Transpose(_replace_normalizer(e.operand, found, normalizers), _P)
    return e


def _subst(e: Expr, mapping: dict[str, Expr]) -> Expr:
    from .latex import subst  # the reader's substitution (names only, simultaneous)
    return subst(e, mapping)


def _placed(e: Expr, pos: Pos) -> Expr:
    from .latex import _placed as placed
    return placed(e, pos)  # type: ignore[no-any-return]


@dataclass
class GraphReading:
    """The fresh variables one equation's graph partials introduce, and their values.

    Each partial by node B gets the variable ``B_node`` (a digit appended while the name is
    taken); ``hypotheses`` fixes it at B's value in every claim that uses it.
    """

    taken: Callable[[str], bool]  # whether the document or the equation uses a name
    vars: dict[str, tuple[str, Expr]] = field(default_factory=dict)  # name -> (shape, value)

    def fresh(self, key: str, shape: str, value: Expr, pos: Pos) -> Name:
        """A new variable ``KEY_node`` standing for a node of shape ``shape`` worth ``value``."""
        base = f"{key}_node"
        name, k = base, 1
        while name in self.vars or self.taken(name):
            k += 1
            name = f"{base}{k}"
        self.vars[name] = (shape, _placed(value, pos))
        return Name(name, pos)

    def declarations(self, pos: Pos) -> list[object]:
        from .syntax import Declare
        out: list[object] = []
        for kind, shape in (("scalar", "scalar"), ("vector", "column")):
            names = tuple(n for n, (s, _) in self.vars.items() if s == shape)
            if names:
                out.append(Declare(kind, names, pos))
        return out

    def hypotheses(self, names: set[str], pos: Pos) -> tuple[Relation, ...]:
        """``b == B`` for each fresh variable among ``names``."""
        return tuple(Relation("==", Name(n, pos), value, pos)
                     for n, (_, value) in self.vars.items() if n in names)

    def standin(self, e: object, shape_of: Callable[[Expr], str | None]) -> object:
        """``e`` with each ``jacobian(.., b)`` by a fresh variable replaced by an expression
        of its shape (``ones``, ``ones.T``, ``I``, ``1``), for shape questions only."""
        return _standin(e, self.vars, shape_of)


def _standin(e: object, vars: dict[str, tuple[str, Expr]],
             shape_of: Callable[[Expr], str | None]) -> object:
    if isinstance(e, Call) and e.func == "jacobian" and len(e.args) == 2 \
            and isinstance(e.args[1], Name) and e.args[1].id in vars:
        var = e.args[1].id
        body = _subst(e.args[0], {n: v for n, (_, v) in vars.items()})
        top = shape_of(body)
        by = vars[var][0]
        if top == "column":
            return Name("ones", e.pos) if by == "scalar" else Name("I", e.pos)
        if top == "scalar":
            return Num(Fraction(1), e.pos) if by == "scalar" else \
                Transpose(Name("ones", e.pos), e.pos)
        return Name(f"<{var}>", e.pos)  # an unknown shape stays unknown
    if isinstance(e, Name) and e.id in vars:
        return Num(Fraction(1), e.pos) if vars[e.id][0] == "scalar" else Name("ones", e.pos)
    if isinstance(e, BinOp):
        return BinOp(e.op, _standin(e.left, vars, shape_of),  # type: ignore[arg-type]
                     _standin(e.right, vars, shape_of), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Neg):
        return Neg(_standin(e.operand, vars, shape_of), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Transpose):
        return Transpose(_standin(e.operand, vars, shape_of), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Call):
        args = tuple(_standin(a, vars, shape_of) for a in e.args)
        return Call(e.func, args, e.pos, e.batch, e.params, e.bind)  # type: ignore[arg-type]
    return e


#: every graph's LaTeX node names (to say why a partial by one is not read along a graph)
_ALL_NAMES = {n for g in LAYER_GRAPHS.values() for n in g.names}


def node_key(graph: Graph, output: str, name: str, power: int | None) -> str | None:
    """The node ``\\partial name^power`` names, or None."""
    if name == output and power is None:
        return output
    return graph.names.get((name, power))


def read_partial(reader: Any, pt: Partial) -> object | None:
    """``pt`` read along a computation graph, or None when B is not a defined quantity.

    A partial by a defined quantity that is a node of no graph (layernorm's ``s``, a
    vocabulary's claim-language name) has no value: an error, never a definition.
    """
    from .latex import _err
    out = _read_partial(reader, pt)
    if out is None and reader.kind(pt.var) == "let":
        graph = reader.env.graph
        nodes = graph.latex() if isinstance(graph, Graph) else ""
        raise _err(f"\\partial {pt.num}/\\partial {pt.var}: {pt.var} is a vocabulary's "
                   "definition that is not a node of a computation graph, so this partial has "
                   "no value here", pt.pos, reader.file,
                   "differentiate by a declared variable"
                   + (f" or by a node of the layer's graph ({nodes})" if nodes else "")
                   + f", or define the derivative yourself (`let {pt.named} = ...`)")
    return out


def _read_partial(reader: Any, pt: Partial) -> object | None:
    """``pt`` read along the computation graph, or None when it is not a graph partial.

    ``reader`` is the equation reader (:class:`symnorm.lang.latex._Equation`): its
    ``graph_reading()``, ``defined``, ``kind``, ``env``, ``file`` and ``_entries`` are used.
    """
    from .latex import _err
    r, p = reader, pt
    reading: GraphReading = r.graph_reading()
    output = r.env.output
    why = r.env.graph
    if isinstance(why, str) and (p.var, p.var_power) in _ALL_NAMES \
            and r.kind(p.var) not in ("scalar", "vector", "matrix"):
        raise _err(f"\\partial {p.num}/\\partial {p.var}: a partial along the computation "
                   f"graph is read only for the vocabulary's default map, and {why}", p.pos,
                   r.file, f"use the vocabulary without the option, or define the derivative "
                   f"yourself (`let {p.named} = ...` before the equation)")
    if not isinstance(why, Graph) or output is None:
        return read_document_partial(r, p)
    graph = why
    if r.env.definition(p.var) is not None or p.var in r.lets:
        return read_document_partial(r, p)  # the document's own definition: its graph
    var_key = node_key(graph, output, p.var, p.var_power)
    if var_key is not None and not _named_here(r, p.var, output):
        # \mu_\mathcal{B} under use layernorm: a node's name of another vocabulary, which
        # an equation here would define afresh; a partial by it must not mean the node
        var_key = None
    if var_key is None or r.kind(p.var) in ("scalar", "vector", "matrix"):
        if p.var in ("sigma", "sigma_B", "sigma_beta") and p.var_power is None \
                and r.kind(p.var) == "let":
            raise _err(f"\\partial {p.var}: the node of the computation graph is the variance "
                       f"{p.var}^2, not the standard deviation", p.pos, r.file,
                       "differentiate by \\sigma^2 (\\frac{\\partial \\ell}{\\partial "
                       "\\sigma^2})")
        return None
    pos = p.pos
    _refuse_own_nodes(r, p, graph)
    num_key = node_key(graph, output, p.num, p.num_power)
    if num_key is not None and not _named_here(r, p.num, output):
        num_key = None
    var_shape = graph.node(var_key).shape
    var_kind = "scalar" if var_shape == "scalar" else "vector"
    if num_key is not None and r.defined(p.num):
        node = graph.node(num_key)
        if var_key not in node.parents:
            parents = ", ".join(_latex(k) for k in node.parents) or "none"
            raise _err(f"\\partial {p.num}/\\partial {p.var}: {_latex(var_key)} is not a parent "
                       f"of {_latex(num_key)} in the computation graph ({_latex(num_key)} = "
                       f"{node.local}; its parents: {parents}), so no local partial of one by "
                       "the other is defined", pos, r.file,
                       f"differentiate {_latex(num_key)} by a parent ("
                       f"{', '.join(_latex(k) for k in node.parents)}), or the loss by "
                       f"{_latex(var_key)} (\\frac{{\\partial \\ell}}{{\\partial "
                       f"{_latex(var_key)}}} with a declared upstream gradient)")
        b = reading.fresh(var_key, graph.node(var_key).shape, graph.node(var_key).value, pos)
        local = _placed(graph.local(num_key, var_key, b), pos)
        if p.num_index is not None and p.num_index == p.var_index:
            # \partial y_i/\partial \hat x_i: one reading where every path is the direct one
            from .latex_same_index import node_by_node
            return node_by_node(r, p, local, graph.cut(var_key, b, num_key), b)
        jac: Expr = Call("jacobian", (local, b), pos)
        return r._entries(p, jac, node.shape, var_kind)
    if r.defined(p.num) or p.num_index is not None or p.num_power is not None:
        raise _err(f"\\partial {p.num}/\\partial {p.var}: {p.num} is not a node of the "
                   f"computation graph ({', '.join(_latex(k) for k in graph.keys())})", pos,
                   r.file, f"differentiate a node, or the loss, by {_latex(var_key)}; or define "
                   f"the derivative yourself (`let {p.named} = ...` before the equation)")
    found = upstreams(r, p)
    ups = [v for v, _ in found]
    if len(ups) != 1:
        what = "several upstream gradients are declared (" + ", ".join(ups) + ")" if ups \
            else "no upstream gradient is declared"
        raise _err(f"\\partial {p.num}/\\partial {p.var}: a partial of the loss {p.num} along "
                   f"the computation graph needs the derivative of {p.num} by the layer's "
                   f"output, and {what}", pos, r.file,
                   f"declare one: `vector d{p.num}_d{output}` (or define {p.named} yourself)")
    up, target_name = found[0]
    target = node_key(graph, output, target_name, None)
    if target == var_key:  # the upstream gradient itself (dL/dy with vector dy)
        index = p.var_index
        return Indexed(up, index, pos) if index else Name(up, pos)
    b = reading.fresh(var_key, graph.node(var_key).shape, graph.node(var_key).value, pos)
    top = graph.cut(var_key, b, target) if target is not None else None
    if top is None:
        raise _err(f"\\partial {p.num}/\\partial {p.var}: the declared upstream gradient {up} "
                   f"is of {target_name}, which is not downstream of {_latex(var_key)} in the "
                   "computation graph", pos, r.file,
                   f"declare the upstream gradient of the output (`vector d{p.num}_d{output}`)")
    chain = BinOp("*", Transpose(Call("jacobian", (_placed(top, pos), b), pos), pos),
                  Name(up, pos), pos)
    return r._entries(p, chain, "scalar", var_kind, gradient=True)


def read_document_partial(r: Any, p: Partial) -> object | None:
    """``p`` along the document's own definitions (each a node whose parents are the defined
    names its body uses), or None when B is not one of them (the name ``dA_dB`` then)."""
    from .latex import _err, names_in

    def body(n: str) -> Expr | None:
        if n in r.lets:
            return None if r.lets[n].params else r.lets[n].body  # type: ignore[no-any-return]
        return r.env.definition(n)  # type: ignore[no-any-return]

    if body(p.var) is None or r.kind(p.var) in ("scalar", "vector", "matrix"):
        return None
    pos = p.pos
    node = p.var if p.var_power is None else f"{p.var}^{p.var_power}"
    # the partial as written (\partial sigma^2, not \partial sigma: red team 20)
    what = f"\\partial {p.num}" + ("" if p.num_power is None else f"^{p.num_power}") \
        + f"/\\partial {node}"
    value: Expr = Name(p.var, pos)
    if p.var_power is not None:
        value = BinOp("**", value, Num(Fraction(p.var_power), pos), pos)
    shape = r._shape(value, set())
    if shape not in ("scalar", "column"):
        raise _err(f"{what}: a partial along the computation graph is read by a scalar or a "
                   f"vector node, and the shape of {node} is {shape or 'not known here'}", pos,
                   r.file, f"define {p.named} yourself (`let {p.named} = ...` before the "
                   "equation)")
    if p.var_power is not None and not _root_of_power(body(p.var), p.var_power):
        # q = k - 5 is not (q^2)^(1/2) = |q|: the cut would lose q's sign
        raise _err(f"{what}: {p.var} is defined as {body(p.var)}, not as the "
                   f"root of its power {p.var_power}, so {p.var} is not ({node})^(1/"
                   f"{p.var_power}) where it is negative, and cutting {node} would change "
                   f"{p.var}", pos, r.file, f"differentiate by {p.var} itself, or define "
                   f"{node} first (a LaTeX `{p.var}^{p.var_power} = ...` defines {p.var} as "
                   "its root)")
    b = r.graph_reading().fresh(p.var + (str(p.var_power) if p.var_power else ""), shape,
                                value, pos)
    # downstream of B^k, B itself is b^(1/k)
    cut: Expr = b if p.var_power is None else BinOp(
        "**", b, Num(Fraction(1, p.var_power), pos), pos)
    var_kind = "scalar" if shape == "scalar" else "vector"
    top = body(p.num)
    if top is not None and r.kind(p.num) not in ("scalar", "vector", "matrix"):
        if p.var not in names_in(top):
            raise _err(f"{what}: {p.var} is not a parent of {p.num} in the document's "
                       f"computation graph ({p.num} = {top}), so no local partial of one by "
                       "the other is defined", pos, r.file,
                       f"differentiate {p.num} by a name its definition uses, or the loss by "
                       f"{node} (with a declared upstream gradient)")
        _refuse_functions(r, top, p.num, what, p.named, pos)
        local = subst_names(top, {p.var: cut})
        if p.num_power is not None:
            local = BinOp("**", local, Num(Fraction(p.num_power), pos), pos)
        num_shape = r._shape(Name(p.num, pos), set()) if p.num_power is None else "scalar"
        jac: Expr = Call("jacobian", (_placed(local, pos), b), pos)
        return r._entries(p, jac, num_shape, var_kind)
    if r.defined(p.num) or p.num_index is not None or p.num_power is not None:
        own = own_node_error(r, p, what, node, f"{p.num} is a node of that graph, not one of "
                             "the document's definitions")
        if own is not None:
            raise own
        raise _err(f"{what}: {p.num} is not a node of the document's computation graph (a "
                   "name the document defines)", pos, r.file,
                   f"differentiate a defined name, or the loss, by {node}; or define the "
                   f"derivative yourself (`let {p.named} = ...` before the equation)")
    found = upstreams(r, p)
    ups = [v for v, _ in found]
    if len(ups) != 1:
        got = "several upstream gradients are declared (" + ", ".join(ups) + ")" if ups \
            else "no upstream gradient is declared"
        raise _err(f"{what}: a partial of the loss {p.num} along the computation graph needs "
                   f"the derivative of {p.num} by a defined output, and {got}", pos, r.file,
                   f"declare one (`vector d{p.num}_dy` for the output y), or define "
                   f"{p.named} yourself")
    target = found[0][1]
    memo: dict[str, Expr] = {}

    def recomputed(n: str, depth: int = 0) -> Expr:
        """n's value with B cut: its definition recomputed when a parent changed."""
        if n == p.var:
            return cut
        if n in memo:
            return memo[n]
        e = body(n)
        out: Expr = Name(n, pos)
        if e is not None:
            _refuse_functions(r, e, n, what, p.named, pos)
        if e is not None and depth < 64:
            mapping = {m: recomputed(m, depth + 1) for m in names_in(e) if m != n}
            changed = {m: v for m, v in mapping.items()
                       if not (isinstance(v, Name) and v.id == m)}
            if changed:
                out = subst_names(e, changed)
        memo[n] = out
        return out

    top = recomputed(target)
    if isinstance(top, Name) and top.id == target:
        own = own_node_error(r, p, what, node, f"{target}, of which {ups[0]} is the "
                             "gradient, is computed along that graph, not from the "
                             "document's definitions")
        if own is not None:
            raise own
        raise _err(f"{what}: the declared upstream gradient {ups[0]} is of {target}, which "
                   f"does not depend on {node} through the document's definitions", pos,
                   r.file, f"declare the upstream gradient of a quantity computed from "
                   f"{node}")
    chain = BinOp("*", Transpose(Call("jacobian", (_placed(top, pos), b), pos), pos),
                  Name(ups[0], pos), pos)
    return r._entries(p, chain, "scalar", var_kind, gradient=True)


def _root_of_power(e: Expr | None, k: int) -> bool:
    """Whether a definition ``e`` is the principal k-th root of something (``sqrt(..)`` for
    k = 2, ``(..) ** (1/k)``), as a LaTeX ``q^k = ...`` defines q: then cutting q^k at b
    and writing q as b^(1/k) downstream is q's own definition."""
    if k == 2 and isinstance(e, Call) and e.func == "sqrt" and len(e.args) == 1:
        return True
    return (isinstance(e, BinOp) and e.op == "**" and isinstance(e.right, Num)
            and e.right.value == Fraction(1, k))


def _refuse_functions(r: Any, e: Expr, n: str, what: str, named: str, pos: Pos) -> None:
    """A node computed with the document's function: refused, since the function's body may
    use the cut node out of sight of the definitions' names (``let F(z) = z + a; w = F(a)``:
    replacing a in F's argument only would differentiate z + a as if its a were fixed)."""
    from .latex import _err, names_in
    opaque = sorted(f for f in names_in(e) if r.env.own_function(f)
                    or f in r.lets and r.lets[f].params)
    if opaque:
        raise _err(f"{what}: {n} is computed with the document's function {opaque[0]}, "
                   "through which the computation graph is not followed", pos, r.file,
                   f"write {n} without the function, or define {named} "
                   f"yourself (`let {named} = ...` before the equation)")


def _named_here(r: Any, name: str, output: str) -> bool:
    r"""Whether ``name`` has its vocabulary meaning in this block, so that a graph node's name
    means the node: the same name in an equation of the block is a claim about it, never a
    fresh definition (red team 12: ``\mu_\mathcal{B} = ...`` was defined under use
    layernorm while ``\partial\ell/\partial\mu_\mathcal{B}`` was the mean's adjoint)."""
    vocab_definition = r.kind(name) == "let" and r.env.definition(name) is None \
        and name not in r.lets  # rmsnorm's r: the vocabulary's claim-language definition
    return name == output or bool(r._vocab(name)) or bool(r.env.vocab_let(name)) \
        or vocab_definition


def subst_names(e: Expr, mapping: dict[str, Expr]) -> Expr:
    """``e`` with names replaced (simultaneously) by expressions."""
    return _subst(e, mapping)


def _refuse_own_nodes(r: Any, p: Partial, graph: Graph) -> None:
    """A graph partial where the document defines a node itself: a located error."""
    from .latex import _err
    output = graph.nodes[-1].key
    for name in (*graph.uses, output):
        # the vocabulary's own claim-language definition (rmsnorm's r) is the graph's too:
        # the graph was offered only after its expansion matched the default map
        vocabularys = r.kind(name) == "let" and name not in r.lets \
            and r.env.definition(name) is None
        if r.defined(name) and not (r._vocab(name) or r.env.vocab_let(name) or vocabularys):
            raise _err(f"\\partial {p.num}/\\partial {p.var}: the document defines {name} "
                       "itself, so the vocabulary's computation graph "
                       f"({graph.latex()}) is not the document's, and a partial along it has no "
                       "value here", p.pos, r.file,
                       f"drop the document's definition of {name}, or define the derivative "
                       f"yourself (`let {p.named} = ...` before the equation)")


def _latex(key: str) -> str:
    return {"sigma2": "sigma^2"}.get(key, key)


def unknown_quantity(r: Any, p: Partial) -> Exception:
    """The error for ``\\partial A/\\partial B`` where B is nothing the document has: it
    names B and what a partial may be taken by here (the graph's nodes, declared variables)."""
    from .latex import _err
    graph = r.env.graph
    var = p.var if p.var_power is None else f"{p.var}^{p.var_power}"
    where = f"a node of the layer's computation graph ({graph.latex()}) or " \
        if isinstance(graph, Graph) else ""
    declared = [v for v in r.env.vectors() if r.kind(v) == "vector"]
    base, _, letters = p.var.rpartition("_")
    if base and len(letters) == 2 and letters.isalpha() and letters.islower() \
            and r.data_row(base):
        # \partial \hat X_{ij}/\partial X_{ik} after `let X = x` (red team 19: the message
        # said X_ik was neither declared nor defined)
        from .latex_rows import entry_partial
        msg, hint = entry_partial(base, letters)
        return _err(f"\\partial {p.num}/\\partial {var}: {msg}", p.pos, r.file, hint)
    return _err(f"\\partial {p.num}/\\partial {var}: the document has no quantity {p.var} (it is "
                "neither declared nor defined), so this partial has no value", p.pos, r.file,
                f"differentiate by {where}a declared variable"
                + (f" ({', '.join(declared)})" if declared else "")
                + f", or declare or define {p.var} before the equation")


def differential_upstreams(r: Any) -> list[str]:
    """The declared vectors ``dY`` of a defined quantity Y (``vector dy``): upstream gradients
    in differential notation, whose declaration turns the notation on (``d\\hat x`` is then
    the adjoint dL/d xhat)."""
    return [v for v in r.env.vectors() if len(v) > 1 and v[0] == "d" and "_" not in v
            and r.kind(v[1:]) == "let"]


def forward_differential(r: Any, left: object, right: object) -> tuple[Partial, Partial] | None:
    r"""(left, right) where ``dA = ... dB ...`` writes B upstream of A: a forward (tangent)
    differential, ``d\hat x = r\,dx + x\,dr`` (a Triton README), not an adjoint.

    With ``vector dy`` the notation is reverse mode: ``dA`` is the loss's derivative by A, a
    sum over what A feeds (``d\hat x_i = dy_i \gamma``).  The differential of the layer's
    input, or of a node A is computed from, on the right of ``dA`` reads the other way; the
    two readings differ in value, so the relation is refused, never guessed.
    """
    if not isinstance(left, Partial) or not left.differential:
        return None
    graph = r.env.graph
    if not isinstance(graph, Graph):
        return None

    def key(p: Partial) -> str | None:
        return graph.names.get((p.var, p.var_power)) or (
            p.var if p.var in graph.keys() else None)

    a = key(left)
    if a is None:
        return None
    ancestors, todo = set(), [a]
    while todo:
        for parent in graph.node(todo.pop()).parents:
            if parent not in ancestors:
                ancestors.add(parent)
                todo.append(parent)
    for n in term_nodes(right):
        if isinstance(n, Partial) and n.differential and (
                n.var in VOCAB_INPUTS or key(n) in ancestors):
            return left, n
    return None


def upstreams(r: Any, p: Partial) -> list[tuple[str, str]]:
    """(declared upstream gradient, the quantity Y it is of) for the loss of ``p``: the vectors
    ``dA_dY`` for a loss A; where none is declared (or ``p`` is in differential notation), the
    vectors ``dY`` of a document that declares its upstream gradient as ``dy``."""
    if not p.differential:
        prefix = f"d{p.num}_d"
        # vector dE_dY after `let Y = y` (Caffe's X, Y): the gradient of the output y
        aliased = {v: r.env.latex_aliases.get(v[len(prefix):], v[len(prefix):])
                   for v in r.env.vectors() if v.startswith(prefix)}
        ups = [(v, y) for v, y in aliased.items() if r.kind(y) == "let"]
        if ups:
            return ups
    return [(v, v[1:]) for v in differential_upstreams(r)]

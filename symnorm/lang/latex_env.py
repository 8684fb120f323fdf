"""What the LaTeX reader learns from the document: kinds, shapes, vocabulary conventions.

:func:`latex_env` wraps a :class:`~symnorm.lang.context.Scope` in the
:class:`~symnorm.lang.latex.LatexEnv` the reader takes, so the reader itself never imports
the scope.  Shapes are asked of the expanded expression; a name the scope does not know
(yet) makes the shape unknown, and an unknown shape changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import LimitError, SourceError
from .latex import LatexEnv, names_in
from .latex_groups import entry_reading
from .latex_graph import GRAPH_VOCABS, LAYER_GRAPHS, Graph, vocabulary_graph
from .parser import parse_expression as parse_text
from .syntax import BinOp, Call, Expr, Name, Neg, Pos, Transpose, VectorLit
from .vocab import (
    AFFINE_WORDS,
    LATEX_CLAIM_NAMES,
    LAYER_NAMES,
    LATEX_FUNCTIONS,
    LATEX_PLAIN_OUTPUT,
    LATEX_SETS,
    LATEX_SOURCE_NAMES,
    LATEX_VECTOR_AFFINE,
    conventional_names,
    conventions,
    vector_affine,
)

if TYPE_CHECKING:
    from .context import Scope

__all__ = ["WHERE_CLAUSE", "latex_env"]

#: how a where-clause's own meaning of a vocabulary name is marked (document.py)
WHERE_CLAUSE = "the where-clause of equation "

_SHAPES = {"scalar": "scalar", "vector": "column", "row vector": "row", "matrix": "matrix"}


def _graph(vocabs: list[str], texts: dict[str, str], meanings: dict[str, Expr],
           output: str | None, expanded: Callable[[str], Expr | None]) -> Graph | str | None:
    r"""The computation graph of the block's layer, when the block's names its values use
    (``\hat x``, ``\sigma``, ``\mu``; RMSNorm's ``r``) expand to the default map's (eps
    inside the root, the biased variance); why not, when such a vocabulary is used
    otherwise; else None."""
    graphs = {LAYER_GRAPHS[v].normalizers: v for v in vocabs if v in GRAPH_VOCABS}
    if not graphs:
        return None
    if len(graphs) > 1:
        return "the block uses layers with different graphs (" + ", ".join(
            f"use {v}" for v in graphs.values()) + ")"
    vocab = next(iter(graphs.values()))
    for name, default in LAYER_GRAPHS[vocab].defaults.items():
        # a name the block's LaTeX conventions do not give is the vocabulary's own
        # claim-language definition (batchnorm's mu, rmsnorm's r)
        text = texts.get(name, LATEX_CLAIM_NAMES.get(vocab, {}).get(name, name))
        if expanded(text) is None or expanded(text) != expanded(default):
            return (f"the block's {name} is {text if expanded(text) is not None else 'undefined'}"
                    f", not the default map's {default} (eps inside the root, the biased "
                    "variance)")
    return vocabulary_graph(meanings, output, vocab)


def latex_env(scope: Scope) -> LatexEnv:
    """The reader's view of ``scope`` (the vocabularies in force and the declared names).

    The conventional names mean what the vocabularies of the equation's own block say
    (:meth:`Scope.latex_vocabs`); two meanings that expand to the same expression are one
    (layernorm's ``N(x)`` and batchnorm's ``BN(x)``).  A name an earlier equation (or a
    vocabulary's own definition) gave a meaning this block's vocabularies do not give it is
    a conflict: the reader refuses every equation that uses it.
    """
    vocabs = scope.latex_vocabs()
    # where the name is the document's value here (a later block's `use` with options may
    # give the name its own function back: then its texts mean that function)
    kept = {n: k for n, (k, _) in scope.shadowed_functions.items()
            if n in scope.lets and not scope.lets[n].stmt.params}

    def parse_expression(text: str, where: str) -> Expr:
        # a vocabulary's text means the vocabulary's function where the document's own value
        # of the name shadows it (let N = d under use layernorm: N(x) is N_layernorm(x))
        return _keep_functions(parse_text(text, where), kept) if kept else \
            parse_text(text, where)

    cache: dict[str, Expr | None] = {}
    why: dict[str, str] = {}  # meaning -> why it cannot be expanded here

    def expanded(text: str) -> Expr | None:
        if text not in cache:
            holders = {a: Name(a, Pos(1, 1)) for a in ("gamma", "beta") if not scope.is_defined(a)}
            try:
                cache[text] = scope.expand(parse_expression(text, "<vocabulary>"), holders)
            except SourceError as exc:
                cache[text], why[text] = None, exc.message
            except (LimitError, RecursionError, TypeError):
                cache[text], why[text] = None, "it cannot be expanded"
        return cache[text]

    def same(a: str, b: str) -> bool:
        ea = expanded(a)
        return a == b or ea is not None and ea == expanded(b)

    conv = conventions(vocabs, scope.elementwise, same, set(scope.block_vocabs),
                       scope.affine_modes)
    texts, affine, output = conv.meanings, conv.affine, conv.output
    # the document's own vector gamma (beta) of use rmsnorm: the output is entrywise
    vectors = set(scope.vectors) if set(vocabs) & LATEX_VECTOR_AFFINE else set()
    if output in texts:
        texts[output] = vector_affine(texts[output], vectors)
    meanings = {n: parse_expression(t, "<vocabulary>") for n, t in texts.items()}
    uses = ", ".join(f"use {v}" for v in vocabs) or "no vocabulary"
    conflicts = {name: f"the vocabularies of this block give {name} different meanings: "
                 + "; ".join(f"{t} ({'use ' + v})" for v, t in pairs)
                 for name, pairs in conv.clashes.items()}
    plains = [LATEX_PLAIN_OUTPUT[v] for v in vocabs if v in LATEX_PLAIN_OUTPUT]
    plain_text = plains[0] if plains and all(same(plains[0], p) for p in plains) else None
    # (whatever the use line says the layer has, an equation that drops one of its affine
    # parameters is two readings: latex.py, _dropped_affine)
    mine: dict[str, str] = {n: t for v in vocabs for n, t in LATEX_CLAIM_NAMES.get(v, {}).items()}
    mine.update(texts)
    for name, text in texts.items():
        if expanded(text) is None and text in why:
            # the meaning uses a name this block lacks (a `use` with options ended): say so
            # at the name in the equation, not at a column of the vocabulary's text
            conflicts[name] = f"{name} would mean {text}, but here {why[text]}"
    hints: dict[str, str] = {}
    conventional = conventional_names()
    for name, let in scope.lets.items():
        where = let.vocab or (let.origin if name in conventional else "")
        if not where or let.stmt.params or name in conflicts:
            continue
        text = mine.get(name)
        if text is not None and let.expanded is not None and expanded(text) == let.expanded:
            continue
        line = let.stmt.pos.line
        if where.startswith(WHERE_CLAUSE) and text is not None:
            # a where-clause's definition outlives its equation: say that it is the document's
            # own meaning shadowing the vocabulary's, not a clash between vocabularies
            label = where.removeprefix(WHERE_CLAUSE).split(",")[0]
            conflicts[name] = (f"{name} was defined as {let.stmt.body} by the where-clause of "
                               f"equation {label} (line {line}), and that definition holds "
                               f"for the rest of the document, shadowing the vocabulary's "
                               f"{name}, {text} ({uses}); the two are written differently, "
                               "so this equation could mean either: two readings")
            hints[name] = (f"in equation {label}, write the relation for {name} on a row of "
                           "its own before the equation that uses it (then it is a claim "
                           "about the vocabulary's meaning, or, for a standard deviation "
                           "with eps, the source's own for the rest of the document, checked "
                           "to be the layer's denominator), or give the source's quantity "
                           "another name there")
            continue
        given = f"{name} means {let.stmt.body} ({where}, line {line})"
        conflicts[name] = (f"{given}, but the vocabularies of this block ({uses}) give it "
                           + (f"another meaning, {text}" if text is not None else "none"))

    def kind(name: str) -> str | None:
        for k, table in (("scalar", scope.scalars), ("vector", scope.vectors),
                         ("matrix", scope.matrices)):
            if name in table:
                return k
        if name in scope.lets:
            return "function" if scope.lets[name].stmt.params else "let"
        return None

    def shape(e: Expr) -> str | None:
        placeholders = {a: Name(a, Pos(1, 1)) for a in affine if kind(a) is None}
        try:
            sh = scope.shape(scope.expand(e, placeholders))
        except (SourceError, LimitError, RecursionError, TypeError):
            return None
        return _SHAPES.get(sh)

    def reaches(e: Expr) -> set[str] | None:
        placeholders = {a: Name(a, Pos(1, 1)) for a in affine if kind(a) is None}
        try:
            return names_in(scope.expand(e, placeholders))
        except (SourceError, LimitError, RecursionError, TypeError):
            return None

    def own(name: str) -> bool:
        """Whether the document defines or declares ``name`` itself (then its meaning wins)."""
        let = scope.lets.get(name)
        if let is None:
            return name in scope.scalars or name in scope.vectors or name in scope.matrices
        return not (let.vocab or let.origin and name in conventional)

    for v in vocabs:
        mode = scope.affine_modes.get(v)
        if mode is None or v in scope.elementwise:
            continue
        has = ("gamma",) if mode == "gain" else ()
        for param in ("gamma", "beta"):
            if param not in has and param not in texts:
                what = "gain" if param == "gamma" else "bias"
                words = ", ".join(w for w, a in AFFINE_WORDS.items() if a == param)
                for name in (param, *(w for w, a in AFFINE_WORDS.items() if a == param)):
                    conflicts.setdefault(name, f"the layer's {what} (\\{param}, {words}): "
                                         f"use {v}(affine={mode}) says the layer has none, "
                                         f"so its output y is {texts.get('y')}")
                    hints[name] = (f"write use {v} for the layer with gain and bias, or "
                                   f"declare {name} yourself if the source's {name} is "
                                   "another quantity")
    conflicts = {n: why for n, why in conflicts.items() if not own(n)}
    functions = {name: (param, parse_expression(body, "<vocabulary>"))
                 for v in vocabs for name, (param, body) in LATEX_FUNCTIONS.get(v, {}).items()}
    plain_output = parse_expression(plain_text, "<vocabulary>") \
        if plain_text is not None and output in meanings else None

    def vocab_let(name: str) -> bool:
        """Whether the document's definition of ``name`` is this block's meaning of it."""
        let = scope.lets.get(name)
        return let is not None and not let.stmt.params and name not in conflicts \
            and bool(let.vocab or let.origin and name in conventional)

    def vocab_private(name: str) -> tuple[str, str] | None:
        let = scope.lets.get(name)
        if let is None or let.stmt.params or let.vocab or not let.origin \
                or name in conventional or name in texts:
            return None
        words = let.origin.replace("(", " ").split()
        vocab = words[words.index("use") + 1] if "use" in words[:-1] else ""
        if name in LATEX_SOURCE_NAMES.get(vocab, ()):
            return None
        return let.origin, str(let.stmt.body)

    def alias(name: str) -> str | None:
        let = scope.lets.get(name)
        if let is None or let.stmt.params or not isinstance(let.expanded, Name):
            return None
        target = let.expanded.id
        return target if target in scope.vectors or target in scope.scalars else None

    def definition(name: str) -> Expr | None:
        """The body of the document's own definition of ``name`` (no parameters, not a
        vocabulary's): a node of the document's computation graph."""
        let = scope.lets.get(name)
        if let is None or let.stmt.params or let.vocab or let.origin:
            return None
        return let.stmt.body

    # the graph finds the normalizer by the vocabulary's own name (N, BN, RMS)
    graph_meanings = {n: _keep_functions(m, {k: n for n, k in kept.items()})
                      for n, m in meanings.items()} if kept else meanings
    return LatexEnv(kind=kind, alias=alias, shape=shape, meanings=meanings, affine=affine,
                    output=output, graph=_graph(vocabs, texts, graph_meanings, output,
                                                expanded),
                    definition=definition, own_function=lambda n: n in scope.lets and bool(
                        scope.lets[n].stmt.params) and not (scope.lets[n].vocab
                                                            or scope.lets[n].origin),
                    foreign_definition=lambda n: scope.lets[n].stmt.pos.line
                    if n in scope.lets and n not in scope.lets[n].layer_names
                    and not (scope.lets[n].vocab or scope.lets[n].origin) else None,
                    plain_output=plain_output, vocabs=tuple(vocabs), vocab_let=vocab_let,
                    vocab_private=vocab_private,
                    vectors=lambda: tuple(scope.vectors), functions=functions,
                    layer=scope.layer, dimension=scope.d_value,
                    layer_names=frozenset(n for v in vocabs for n in LAYER_NAMES.get(v, ())),
                    latex_aliases={a: t for a, (t, _) in scope.latex_aliases.items()},
                    vocab_counts=frozenset(
                        n for n, let in scope.lets.items() if not let.stmt.params
                        and isinstance(let.expanded, Name) and let.expanded.id == "d"),
                    reaches=reaches,
                    conflicts=conflicts, conflict_hints=hints,
                    sets={k: v for voc in vocabs for k, v in LATEX_SETS.get(voc, {}).items()},
                    channels=set(vocabs) & set(LAYER_NAMES) == {"batchnorm"},
                    entries=entry_reading(vocabs, {n for n in texts if not own(n)},
                                          {n for n in ("mu", "sigma")
                                           if kind(n) in ("vector", "matrix")
                                           or kind(n) == "let" and shape(Name(n, Pos(1, 1)))
                                           in ("column", "row", "matrix")}))


def _keep_functions(e: Expr, names: dict[str, str]) -> Expr:
    """``e`` with the calls of the functions ``names`` renamed (``N(x)``: ``N_layernorm(x)``)."""
    if isinstance(e, Call):
        return replace(e, func=names.get(e.func, e.func),
                       args=tuple(_keep_functions(a, names) for a in e.args),
                       batch=None if e.batch is None else tuple(
                           _keep_functions(b, names) for b in e.batch),
                       bind=tuple((k, _keep_functions(v, names)) for k, v in e.bind))
    if isinstance(e, BinOp):
        return replace(e, left=_keep_functions(e.left, names),
                       right=_keep_functions(e.right, names))
    if isinstance(e, (Neg, Transpose)):
        return replace(e, operand=_keep_functions(e.operand, names))
    if isinstance(e, VectorLit):
        return replace(e, items=tuple(_keep_functions(i, names) for i in e.items))
    return e

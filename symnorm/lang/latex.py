"""Read one LaTeX display equation into claim-language statements (``Let`` and ``Claim``).

A hand-written recursive-descent parser for the linear-algebra subset papers use (see
``docs/latex.md``); it builds :mod:`symnorm.lang.syntax` nodes and evaluates nothing, so
``2x = x + x`` is a claim for the engines, never ``True``.  Anything outside the subset is
a :class:`~symnorm.errors.SourceError` naming the offending macro and its file position.

>>> out = parse_latex_equation(r"c=Px,\\quad Jc=\\frac{\\epsilon}{s^3}c", "eq3",
...                            is_defined=lambda n: n in {"P", "x", "J", "s", "eps"})
>>> [type(s).__name__ for s in out], str(out[0].body), str(out[1].relation)
(['Let', 'Claim'], 'P * x', 'J * c == eps / s ** 3 * c')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from symnorm.errors import SourceError
from symnorm.lang.latex_brace import BRACES
from symnorm.lang.latex_group_script import group_superscripts
from symnorm.lang.latex_groups import reading_for
from symnorm.lang.latex_axes import axes_reading
from symnorm.lang.latex_channel import channel_reading
from symnorm.lang.latex_gain import gain_product
from symnorm.lang.latex_odot import is_marked, read_odot
from symnorm.lang.latex_operator import OPERATOR, resolve_operator
from symnorm.lang.latex_index import (
    LOSS,
    SUM_ENTRIES,
    SUM_SCALED,
    SUM_SQUARES,
    SUM_TERM,
    ExprPartial,
    Indexed,
    IndexSum,
    MatrixEntry,
    Partial,
    has_index,
    lower,
    product_factors,
    read_scaled_sum,
    read_summand,
    term_nodes,
)
from symnorm.lang.latex_output import (
    double_affine,
    drop_layer_label,
    foreign_symbol,
    upstream_gradients,
)
from symnorm.lang.latex_output import product_factors as product_factors_all
from symnorm.lang.latex_matrix import lower_entries, needs_matrix
from symnorm.lang.latex_rows import ScalarAt, read_data_rows
from symnorm.lang.latex_own import own_denominator, own_note
from symnorm.lang.latex_layout import gradient_layout
from symnorm.lang.latex_macros import Expanded
from symnorm.lang.latex_parser import ExprParser, RawRel
from symnorm.lang.latex_onnx import REDUCE_MEAN, onnx_mode, reduce_mean
from symnorm.lang.latex_tensor import TensorNames, read_tensor_notation, tensor_mode
from symnorm.lang.latex_tokens import BUILTIN_NAMES, DEFINERS, GREEK, IF, tokenize
from symnorm.lang.vocab import (
    AFFINE_WORDS,
    GAIN_MODE_VOCABS,
    SIZE_NAMES,
    VOCAB_INPUTS,
    WORD_NAMES,
)
from symnorm.lang.syntax import (
    BinOp,
    Call,
    Claim,
    Declare,
    Expr,
    Let,
    Name,
    Neg,
    Num,
    Pos,
    Relation,
    Statement,
    Transpose,
    VectorLit,
)

__all__ = ["DEFAULT_FUNCTIONS", "LATEX_NAMES", "MAX_TREE_DEPTH", "LatexEnv",
           "parse_latex_equation"]

#: Single-letter names read as functions when directly followed by ``(``; any other letter
#: followed by ``(`` is a product (``a(x+b)`` is ``a*(x + b)``).
DEFAULT_FUNCTIONS = frozenset({"N", "R", "f", "g", "h", "F", "G"})
#: Deepest expression tree accepted (a sum of 5,000 terms is 5,000 deep).
MAX_TREE_DEPTH = 120

#: What the reader maps to what (documentation table; ``docs/latex.md`` shows it in full).
LATEX_NAMES: dict[str, str] = {
    **{k: v for k, v in GREEK.items()},
    "\\mathbf 1, \\mathbf{1}, \\mathbb 1, \\boldsymbol 1, \\bm 1": "ones",
    "\\mathbf 0": "0",
    "I, I_d": "I",
    "^\\top, ^T, ^\\intercal, ^{\\mathsf T}": "Transpose (.T)",
    "\\mathcal N_\\epsilon(y)": "N(y) (N must depend on eps)",
    "\\mathcal N_0(y), \\mathcal N_{2\\epsilon}(y)": "N[eps=0](y), N[eps=2 * eps](y)",
    "\\operatorname{BN}_\\epsilon(0;\\{0,b\\})": "BN(0; [0, b]) (BN must depend on eps)",
    "\\log_b(y)": "log(y) / log(b)",
    "\\operatorname{Name}, \\mathrm{Name}": "Name (a function when followed by '(')",
    "\\|y\\|, \\|y\\|_2": "norm(y)",
    "|y|": "abs(y)",
    "\\langle a, b\\rangle": "a.T * b",
    "\\frac{a}{b}": "a / b",
    "\\sqrt{a}": "sqrt(a)",
    "\\sqrt[n]{a}": "a ** (1/n)",
    "\\exp, \\log, \\ln, \\operatorname{tr}": "exp, log, log, trace",
    "\\cdot, \\times, implicit product": "*",
    "\\sum_{i=1}^d (body in x_i)": "sum(x), u.T*w (bound d or a name defined as d)",
    "\\hat x, \\bar x, \\tilde x": "xhat, xbar, xtilde",
    "x_1, \\mu_\\mathcal{B}": "x_1, mu_B",
    "\\frac{\\partial \\ell}{\\partial \\hat x_i}": "entry i of the adjoint of xhat along the "
                                                "computation graph",
    "=, \\neq, <, >, \\le, \\ge": "==, !=, <, >, <=, >=",
    ":=, \\coloneqq, \\leftarrow, \\gets": "definition (let)",
    "\\stackrel{def}{=}, \\overset{def}{=}, \\triangleq": "definition (let)",
    "\\equiv": "==",
    "Var[x], \\mathbb{V}[x], E(x), \\mathrm{MS}[x]": "variance, mean, x.T*x/d",
    "E[x^2], \\sum x^2, \\sum_{i=1}^n x^2 (x a vector)": "x.T*x/d, x.T*x, x.T*x",
    "a \\approx b (a side depends on eps)": "a == b given eps == 0",
}

_INEQ = ("<", ">", "<=", ">=", "!=")


@dataclass(frozen=True)
class LatexEnv:
    """What the document knows beyond ``is_defined``: kinds, shapes and vocabulary meanings.

    ``kind(name)`` is ``"scalar"``, ``"vector"``, ``"matrix"``, ``"let"``, ``"function"`` or
    None; ``shape(expr)`` the shape of an expression over defined names (``"scalar"``,
    ``"column"``, ``"row"``, ``"matrix"``) or None if unknown; ``meanings`` the vocabulary's
    conventional LaTeX names (``mu``, ``sigma``, ``xhat``, ``y``) as ``Let`` bodies, used
    when the document does not define the name; ``affine`` its scalar parameters
    (``gamma``, ``beta``), declared when an equation uses them; ``output`` the name of the
    layer's output (a formula with no relation is a claim about it); ``vectors`` the
    declared vectors (the upstream gradient ``dl_dy`` is one of them).
    """

    kind: Callable[[str], str | None] = lambda n: None
    shape: Callable[[Expr], str | None] = lambda e: None
    meanings: dict[str, Expr] = field(default_factory=dict)
    affine: tuple[str, ...] = ()
    output: str | None = None
    vectors: Callable[[], tuple[str, ...]] = lambda: ()
    #: functions whose LaTeX meaning differs from the vocabulary's claim-language name:
    #: name -> (parameter, body); ``\\mathrm{RMS}(v)`` with ``use rmsnorm`` is the scalar
    #: root mean square of v, while the claim language's ``RMS(y)`` stays the normalized vector
    functions: dict[str, tuple[str, Expr]] = field(default_factory=dict)
    #: the document's layer letter (``layer l``): superscripts ^l, ^{(l)} name the layer
    layer: str | None = None
    #: the dimension d when the document fixes it (``let d = 4``); None for a symbolic d
    dimension: int | None = None
    #: sets the vocabulary names (``use batchnorm``: ``{"B": "x"}``, the mini-batch holds the
    #: entries of x): ``\\sum_{x\\in\\mathcal B}`` runs over them, ``|\\mathcal B|`` is d
    sets: dict[str, str] = field(default_factory=dict)
    #: the names an expression expands to through the document's definitions (None when
    #: unknown): the upstream gradient of Y says nothing about a variable Y does not reach
    reaches: Callable[[Expr], set[str] | None] = lambda e: None
    #: the output without the affine parameters (``N(x)``), where the document did not say
    #: which parameters the layer has (no ``affine=`` mode): an equation that states the
    #: output with fewer parameters than the vocabulary's is then refused as two readings
    plain_output: Expr | None = None
    #: the block's vocabularies (for the ``use`` lines a message suggests)
    vocabs: tuple[str, ...] = ()
    #: whether the document's definition of a name is the vocabulary's LaTeX meaning (an
    #: earlier equation defined it so)
    vocab_let: Callable[[str], bool] = lambda n: False
    #: a vocabulary's own claim-language definition that is no LaTeX convention of sources
    #: (use rmsnorm's r, use layernorm's c, v, s, P): name -> (vocabulary, its body)
    vocab_private: Callable[[str], tuple[str, str] | None] = lambda n: None
    #: conventional names this block may not use: name -> why (two vocabularies of the block
    #: give it different meanings, or an earlier block gave it one this block does not)
    conflicts: dict[str, str] = field(default_factory=dict)
    #: the hint of a conflict where the general one does not fit (name -> hint)
    conflict_hints: dict[str, str] = field(default_factory=dict)
    #: the declared variable a definition is another name of (``let z = x``: ``x``), else None
    alias: Callable[[str], str | None] = lambda n: None
    #: the vocabulary's computation graph (:mod:`symnorm.lang.latex_graph`) when the block's
    #: names mean what it says; partials by its nodes are read along it
    graph: Any = None
    #: the body of the document's own definition of a name (no parameters, not a
    #: vocabulary's), else None: the nodes of the document's computation graph
    definition: Callable[[str], Expr | None] = lambda n: None
    #: whether a name is a function the document defines itself (``let F(t) = ...``)
    own_function: Callable[[str], bool] = lambda n: False
    #: the line of the document's definition of a name made where no vocabulary named its
    #: layer so, else None: a layer's name of this block so defined is refused
    foreign_definition: Callable[[str], int | None] = lambda n: None
    #: the names sources give the block's layers (vocab.LAYER_NAMES): NAME(x) is the output
    layer_names: frozenset[str] = frozenset()
    #: ``let B = beta`` of a symnorm block, beta only a LaTeX name of the vocabulary: B -> beta
    latex_aliases: dict[str, str] = field(default_factory=dict)
    #: the names an earlier equation of the document read with a vocabulary's meaning (a row
    #: of its own that gives one of them the source's meaning would make the order decide)
    read_before: frozenset[str] = frozenset()
    #: the affine parameters an earlier LaTeX equation declared as the vocabulary's
    vocab_declared: frozenset[str] = frozenset()
    #: the vocabulary's names of the dimension defined as ``d`` (batchnorm's ``m``)
    vocab_counts: frozenset[str] = frozenset()
    #: per-entry statistics and index sets (latex_groups.EntryReading), or None
    entries: Any = None
    #: whether the block's one layer vocabulary is batchnorm, which models one channel:
    #: ``x^{(k)}`` names that channel (latex_channel.py)
    channels: bool = False


def parse_latex_equation(
    text: str, label: str, *, file: str = "<latex>", line: int = 1, column: int = 1,
    is_defined: Callable[[str], bool] = lambda n: False,
    is_function: Callable[[str], bool] | None = None,
    is_dimension: Callable[[str], bool] | None = None,
    env: LatexEnv | None = None, expanded: Expanded | None = None,
) -> list[Statement]:
    """Parse one display equation; definitions first, then claims ``LABEL.1``, ``LABEL.2``...

    ``is_defined(name)`` says whether the document already defines ``name`` (then
    ``name = ...`` is a claim, otherwise a definition); ``is_function(letter)`` whether a
    single letter followed by ``(`` is a function call (default :data:`DEFAULT_FUNCTIONS`
    and functions defined earlier in the equation); ``is_dimension(name)`` whether a name
    the document defines stands for d (default: only ``d``), as the upper bound of a sum.
    An equation with the same index on both sides of a partial is read both ways
    (:func:`symnorm.lang.latex_same_index.read_both`).  ``expanded``: ``text`` is an
    equation with the document's macros expanded (:mod:`symnorm.lang.latex_macros`), and
    positions are those of the equation as written.
    """
    from symnorm.lang.latex_same_index import read_both
    return read_both(_parse_equation, text, label, file=file, line=line, column=column,
                     is_defined=is_defined, is_function=is_function,
                     is_dimension=is_dimension, env=env, expanded=expanded)


def _parse_equation(
    text: str, label: str, *, file: str, line: int, column: int,
    is_defined: Callable[[str], bool], is_function: Callable[[str], bool] | None,
    is_dimension: Callable[[str], bool] | None, env: LatexEnv | None,
    same_index: str | None = None, keep: list[Any] | None = None, shared: Any = None,
    expanded: Expanded | None = None,
) -> list[Statement]:
    """:func:`parse_latex_equation` in one reading of a same-index partial (None: refused);
    ``keep`` receives the reader, ``shared`` the fresh variables of another reading."""
    toks = tokenize(text, file, line, column, expanded)
    is_fn = is_function if is_function is not None else (lambda n: n in DEFAULT_FUNCTIONS)
    reader = _Equation(text, file, is_defined, env or LatexEnv())
    reader.same_index = same_index
    if shared is not None:
        reader._graph = shared
    if keep is not None:
        keep.append(reader)
    # \\text{where} (a separator like \\quad): a where-clause setting a free symbol is a condition
    reader.where_marks = [(t.line, t.col) for t in toks if t.text == "\\quad"
                          and "where" in text[t.start:t.end].lower()]
    reader.documented = env is not None  # the document's names are known: RMS may be undefined
    parser = ExprParser(text, toks, file, reader.defined, is_fn)
    # a vocabulary's name for the dimension (rmsnorm's n) bounds a sum like d, unless the
    # document defines the name itself
    vocab_dim = {n for n, m in reader.env.meanings.items()
                 if isinstance(m, Name) and m.id == "d" and reader._vocab(n)}
    if is_dimension is not None or vocab_dim:
        dim = is_dimension or (lambda n: False)
        parser.is_dimension = lambda n: n == "d" or n in vocab_dim or bool(dim(n))
    parser.bare_allowed = reader.output() is not None
    parser.word_name = reader.word_name
    parser.own = lambda n: bool(reader.is_defined(n)) or n in reader.lets
    out = reader.env.output
    if out is not None and (reader._vocab(out) or reader.env.vocab_let(out)):
        parser.output = out
    parser.layer = reader.env.layer
    parser.aliases = dict(reader.env.latex_aliases)
    parser.input_alias = reader.input_alias
    parser.data_row = reader.data_row  # h_{pl}: a data matrix's entry (latex_rows.py)
    parser.layer_names = reader.env.layer_names if parser.output is not None else frozenset()
    drop_layer_label(toks, parser.layer_names, file)  # RMSNorm: y = ... (a README's label)
    parser.layer_clash = lambda n: reader.env.foreign_definition(n) \
        if n in parser.layer_names else None
    parser.own_name = lambda n: n in parser.local_fns or n in reader.lets \
        or reader.env.own_function(n) or reader.env.kind(n) in ("scalar", "vector", "matrix") \
        or reader.env.kind(n) == "let" and not reader.env.vocab_let(n)
    parser.sets = dict(reader.env.sets)
    parser.entries = reading_for(reader.env.entries, toks)  # latex_groups.py
    group_superscripts(toks, parser.entries, reader.defined, reader.env.layer,
                       parser.err, parser.own)  # \mu^g, x_i^g under use groupnorm: latex_group_script.py
    parser.channel = channel_reading(reader)  # x^{(k)} under use batchnorm: latex_channel.py
    parser.axes = axes_reading(reader)  # Mean(X, axes), x.mean(): latex_axes.py
    if env is not None:  # without one, kinds are unknown: juxtaposition is a product
        parser.free_symbol = lambda n: reader.kind(n) in ("scalar", "vector", "matrix")
    parser.tensor_mode = tensor_mode(toks)
    parser.onnx_mode = onnx_mode(toks)  # ReduceMean(X), Sub(X, Mean): latex_onnx.py
    if env is not None:
        from symnorm.lang.latex_graph import differential_upstreams
        parser.differentials = bool(differential_upstreams(reader))
    raws = parser.equation() + _brace_claims(parser, file)
    _no_layer_definition(raws, reader, parser, file)
    if parser.tensor_mode:
        raws = _tensor_rows(raws, reader, file)
    _one_size_name(parser, raws, reader, file)
    layer = _layer_map(toks, raws, reader, parser, file)
    if layer is not None:  # LN(x + 3): the layer map; its output variant is chosen there
        reader.layer_calls, reader.layer_map = layer
        reader.layer_tags = set(parser.layer_tags)
        reader.layer_at = set(parser.layer_at)
    reader.writes_affine = _writes_affine(toks, _affine_params(reader.env),
                                          reader.env.latex_aliases)
    reader.written_params = frozenset(a for a in _affine_params(reader.env) if _writes_affine(
        toks, (a,), reader.env.latex_aliases)) - _bounded_only(raws, _affine_params(reader.env))
    if layer is None and raws:
        reader.dropped = _dropped_affine(_output_form(toks, raws, reader), reader.env,
                                         "writes the output")
    return reader.build(raws, label)


def _no_layer_definition(raws: list[RawRel], reader: _Equation, parser: ExprParser,
                         file: str) -> None:
    """Refuse an equation giving a body to a layer's name of the block's vocabularies where
    no single output reads it (``use layernorm`` and ``use rmsnorm`` in force:
    ``\\mathrm{RMSNorm}(w) = ...``): a definition would hide the vocabulary's meaning for
    the rows after it (red team 13, t29)."""
    if parser.layer_names:
        return  # read as the layer (latex_output.read_layer_call)
    for r in raws:
        left = r.left
        if isinstance(left, Call) and left.func in reader.env.layer_names \
                and not parser.own_name(left.func) and r.cond_of == -1:
            raise _err(f"{left.func}(...) names a layer of this block's vocabularies, whose "
                       "output is not one layer here, so the equation can neither be checked "
                       f"against it nor define {left.func} (that would hide the layer's "
                       "meaning)", r.pos, file,
                       "state it in a block with one layer vocabulary, or name the "
                       "document's function otherwise (F(t) = ..., \\mathcal F)")


def _brace_claims(parser: ExprParser, file: str) -> list[RawRel]:
    """The claims of math labels (``\\underbrace{A}_{=\\,1}``: ``A == 1``), each a chain of
    its own; refused beside a condition word, which would qualify the relation around the
    brace but not the label's claim."""
    if not parser.braces:
        return []
    b = parser.braces[0]
    if any(t.text == IF for t in parser.toks):
        raise _err(f"{b.macro} with a label = ... in an equation with a condition: the "
                   "label's claim would not carry the condition", b.pos, file,
                   "state the label as a relation of its own after the condition")
    # a brace read twice (the parser re-reads a few groups) states its claim once
    once = list({(b.pos.line, b.pos.col): b for b in parser.braces}.values())
    return [RawRel(b.op, b.macro, b.group, b.label, b.pos, b.source, -1 - k)
            for k, b in enumerate(once)]


#: Function words with a meaning where nothing defines them (``\\mathrm{RMS}[x]``: the root
#: mean square, see :meth:`_Equation._calls`): on the left of ``=`` they are claims.
BUILTIN_STATISTICS = frozenset({"RMS"})


def _dropped_affine(written: frozenset[str] | None, env: LatexEnv, what: str
                    ) -> tuple[str, tuple[str, ...]]:
    """The two-readings message of a statement of the output that writes fewer affine
    parameters than the vocabulary's output has, where the ``use`` line does not say which
    the layer has, and the parameters it drops; ("", ()) when there is none.

    ``written``: the affine parameters a statement of the output writes (None: it states
    no formula of the output).  ``y = \\hat x`` under plain ``use layernorm`` is either a
    claim about the layer with gain and bias or one about a layer without them (PyTorch's
    ``affine=False``, Caffe's BatchNorm), and the classic typo that drops the gain reads the
    same.  The claim is checked with the parameters, for all their values: a proof holds at
    gamma = 1, beta = 0 too, so it stands for both readings; a claim refuted with them is
    checked without them (the dropped ones at 1 and 0), and refuted only if false there too;
    else this is the error (red team 15: 26 statements were read as the layer without affine
    parameters, symnorm/check/run.py).
    """
    params = _affine_params(env)
    if written is None or env.plain_output is None or not params or set(params) <= written:
        return "", ()
    out = env.output
    full = env.meanings.get(out) if out is not None else None
    missing = " and ".join(f"\\{a}" for a in params if a not in written)
    use = f"use {env.vocabs[0]}" if env.vocabs else "use ..."
    modes = [f"`{use}(affine=none)` (no gain, no bias: PyTorch's affine=False)"]
    if ("gamma" in written or not written) and use.split()[-1] in GAIN_MODE_VOCABS:
        modes.append(f"`{use}(affine=gain)` (a gain, no bias)")
    return (f"the equation {what} {out} without {missing}, while {use}'s {out} is {full}: "
            "two readings, that layer or one without them, which give different verdicts; "
            "say in the use line which layer the source means: " + ", ".join(modes)
            + f", or write {missing}"), tuple(a for a in params if a not in written)


def _layer_map(toks: list[Any], raws: list[RawRel], reader: _Equation, parser: ExprParser,
               file: str) -> tuple[frozenset[str], Expr] | None:
    """The layer names an equation applies to arguments other than the input x
    (``LN(x + 3\\mathbf 1) = LN(x)``), with the layer map they read as: the vocabulary's
    output with the input replaced by the argument.  None where no such call is made.

    ``LN(x)`` in such an equation is the same map at x.  A formula for the map that writes
    fewer affine parameters than the output has is two readings, as ``y = ...`` is
    (:func:`_dropped_affine`), unless the ``use`` line states the layer (``affine=none``).
    """
    env, out, names = reader.env, parser.output, parser.layer_names
    if out is None or not names or out not in env.meanings:
        return None
    # \mathrm{LN}(z) = ... is a claim about the layer map at z, never a definition of LN:
    # the block's vocabulary gives the name its meaning (red team 13: a definition made the
    # same claim refuted before it and proved after it)
    calls = {n for n in parser.layer_at.values() if not parser.own_name(n)}
    if not calls:
        return None
    full = env.meanings[out]
    own = names_in(full)
    params = tuple(dict.fromkeys((*env.affine, *sorted(
        n for n in own if env.kind(n) in ("scalar", "vector") and n not in VOCAB_INPUTS))))
    allowed = {"x", "ones", "eps", "d", "hadamard", "N", "BN", "RMS", *params}
    if not names_in(full) <= allowed:  # pragma: no cover - the vocabularies' outputs
        raise _err(f"{sorted(calls)[0]}(...): the output {out} = {full} is not a map of its "
                   "input alone, so the layer at another argument cannot be read",
                   raws[0].pos, file)
    if env.plain_output is not None and params and not any(
            t.text == "\\partial" for t in toks) and not parser.differentials:
        # a formula stated for the layer map (\mathrm{LN}(x) = \frac{x-\mu}{\sigma}) that
        # drops an affine parameter has two readings, as y = ... has; an equation between
        # layer maps alone (LN(x + 3) = LN(x)) is about the declared layer
        def layered(side: object) -> bool:
            return any(isinstance(n, Call) and n.func in names or isinstance(
                n, (Name, Indexed)) and n.id == out for n in _walk(side))
        formula = [r for r in raws if r.cond_of == -1 and layered(r.left) != layered(r.right)]
        written = {a for a in params if _writes_affine(toks, (a,), env.latex_aliases)}
        known = True
        for r in raws:
            for n in names_in(r.left) | names_in(r.right):
                if n == out or n in names:
                    continue
                if n in env.meanings and reader._vocab(n):
                    written |= set(params) & names_in(env.meanings[n])  # weight: gamma
                elif n in env.functions:
                    written |= set(params) & names_in(env.functions[n][1])
                elif env.kind(n) in ("let", "function"):
                    found = env.reaches(Name(n, r.pos))
                    known = known and found is not None
                    written |= set(params) & (found or set())
        if formula and known:
            reader.dropped = _dropped_affine(
                frozenset(written), env, f"states the layer map {sorted(calls)[0]}(...) as")
    return frozenset(calls), full


def _affine_params(env: LatexEnv) -> tuple[str, ...]:
    """The vocabulary output's affine parameters (``gamma``, ``beta``), whoever declared
    them (use layernorm(affine=elementwise) declares its vectors gamma, beta)."""
    out = env.output
    own = names_in(env.meanings[out]) if out is not None and out in env.meanings else set()
    return tuple(dict.fromkeys((*env.affine, *sorted(
        n for n in own if env.kind(n) in ("scalar", "vector") and n not in VOCAB_INPUTS))))


def _walk(e: object) -> Iterator[object]:
    """Every node of an expression, without recursion."""
    stack = [e]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(_children(node))




def _tensor_rows(raws: list[RawRel], reader: _Equation, file: str) -> list[RawRel]:
    """The relations of an equation in oneDNN's tensor-index notation as vector algebra
    (:mod:`symnorm.lang.latex_tensor`)."""
    out = reader.output()
    names = TensorNames(
        input="x" if out is not None and reader.kind("x") == "vector" else None, output=out,
        kind=reader.kind, shape=lambda n: reader._shape(Name(n, Pos(1, 1)), set()),
        defined=reader.defined, own=lambda n: bool(reader.is_defined(n)) or n in reader.lets,
        vocab_count=lambda n: n != "d" and (reader._vocab(n) and _is_d(
            reader.env.meanings.get(n)) or n in reader.env.vocab_counts
            and reader.env.vocab_let(n)))
    sides, _, sizes = read_tensor_notation([(r.left, r.right) for r in raws], names, file,
                                           raws[0].pos if raws else Pos(1, 1))
    reader.sizes = tuple(n for n in sizes if not reader.defined(n))
    return [replace(r, left=left, right=right) for r, (left, right) in zip(raws, sides)]


def _is_d(e: object) -> bool:
    """Whether a vocabulary's definition is the dimension itself (batchnorm's ``m = d``)."""
    return isinstance(e, Name) and e.id == "d"


def _one_size_name(parser: ExprParser, raws: list[RawRel], reader: _Equation, file: str
                   ) -> None:
    """A vocabulary's size name of d (``NHW``, ``H``) must be the only name of d in its
    equation: ``\\frac{1}{NHW}\\sum_{i=1}^{m} x_i`` would equate two counts sources keep
    apart (Ioffe and Szegedy's m is not N*H*W for a convolution)."""
    used = set(parser.dims_used)
    for r in raws:
        used |= {n for n in names_in(r.left) | names_in(r.right)
                 if n == "d" or parser.is_dimension(n)}
    sizes = {n for n in used & SIZE_NAMES if reader._vocab(n)}  # the document's own: its call
    if sizes and len(used) > 1:
        pos = raws[0].pos
        raise _err(f"the equation names the dimension both {' and '.join(sorted(used))}: the "
                   f"size name {sorted(sizes)[0]} must be the only count in its equation",
                   pos, file, "write one count throughout (\\frac{1}{NHW}\\sum_{i=1}^{NHW})")
    # two vocabularies' counts (batchnorm's mini-batch size m, rmsnorm's feature count n)
    # are both d here, but no source means them as one number
    counts = sorted(n for n in used - {"d"} if reader._vocab(n) or reader.env.vocab_let(n))
    if len(counts) > 1:
        raise _err(f"the equation names the dimension both {' and '.join(counts)}, the counts "
                   "of two vocabularies (a mini-batch size and a feature count are different "
                   "numbers in the sources)", raws[0].pos, file,
                   f"write one count throughout (d, or {counts[0]} alone)")


def _output_form(toks: list[Any], raws: list[RawRel], reader: _Equation
                 ) -> frozenset[str] | None:
    """The affine parameters (``gamma``, ``beta``) a statement of the output writes, or None
    when the vocabulary's output keeps its full meaning here.

    For an equation that writes the output (``y = ...``, ``\\hat x = y``, a formula alone, an
    alias ``Y`` of y) and takes no derivative: what it writes, directly or through a word
    (``weight``) or a definition of the document, against what the layer has decides whether
    it drops a parameter (:func:`_dropped_affine`).  A statement of the output that uses a declared ``weight`` or
    ``bias`` is an error: the source means the vocabulary's gamma and beta, the document made
    them other symbols.
    """
    env = reader.env
    out = env.output
    if out is None or not (reader._vocab(out) or env.vocab_let(out)):
        return None
    stating = [r for r in raws if r.op == "" or isinstance(r.left, (Name, Indexed))
               and r.left.id == out and getattr(r.left, "expr", None) is None]
    # the names the output's own meaning uses are the vocabulary's parameters, whoever
    # declared them (use layernorm(affine=elementwise) declares its vectors gamma, beta)
    own = names_in(env.meanings[out]) if out in env.meanings else set()
    params = tuple(dict.fromkeys((*env.affine, *sorted(
        n for n in own if env.kind(n) in ("scalar", "vector") and n not in VOCAB_INPUTS))))
    for r in stating:
        for n in sorted(names_in(r.right)):
            if n in AFFINE_WORDS and env.kind(n) is not None and not env.vocab_let(n):
                raise _err(f"{n} is declared by the document, so it is not the vocabulary's "
                           f"{AFFINE_WORDS[n]}, and the output {out} of the vocabulary is "
                           f"{env.meanings[out]}", r.pos, reader.file,
                           f"drop the declaration of {n} (the vocabulary reads {n} as "
                           f"{AFFINE_WORDS[n]}), or define {out} yourself")
            if env.kind(n) in ("scalar", "vector", "matrix") and n not in VOCAB_INPUTS \
                    and n not in params and not (env.entries and n in env.entries.symbols()):
                # y_i = g_i \hat x_i + b_i (Breloff): the source's own gain g, not the
                # vocabulary's gamma; comparing with gamma*N(x) + beta would refute it
                raise _err(f"{out} = ... uses {n}, declared by the document, while the "
                           f"vocabulary's output {out} is {env.meanings[out]}", r.pos,
                           reader.file, f"if {n} is the layer's input, gain or bias, make "
                           f"it the vocabulary's: `let {n} = x`, `let {n} = gamma` or "
                           f"`let {n} = beta` instead of declaring it, with `document use "
                           f"...(affine=elementwise)` for a per-element one; or write "
                           f"\\gamma, \\beta; or define {out} yourself (`let {out} = ...` "
                           "before the equation)")
    if env.plain_output is None or any(t.text == "\\partial" for t in toks):
        return None
    # any relation that writes the output (on either side, or through an alias Y of it)
    # drops the parameters it does not write: \hat x = y is two readings as y = \hat x is
    written = {a for a in params if _writes_affine(toks, (a,), env.latex_aliases)}
    written -= _bounded_only(raws, params)
    outs = {out} | {a for a, t in env.latex_aliases.items() if t == out}
    whole = env.reaches(Name(out, raws[0].pos)) if raws else None
    mentions = bool(stating)
    for r in raws:
        for n in names_in(r.left) | names_in(r.right):
            if n in outs:
                mentions = True
                continue
            if n in env.meanings and reader._vocab(n):
                written |= set(params) & names_in(env.meanings[n])  # weight: gamma
                continue  # the vocabulary's statistics: none uses the affine parameters
            if n in env.functions:  # \mathrm{RMS}(x): its LaTeX meaning, as the call reads
                written |= set(params) & names_in(env.functions[n][1])
                continue
            if env.kind(n) in ("let", "function"):
                found = env.reaches(Name(n, r.pos))
                if found is None:
                    return None
                if whole is not None and found == whole and n not in params:
                    mentions = True  # an alias of the output (let Y = y)
                    continue
                written |= set(params) & found
    return frozenset(written) if mentions else None


def _bounded_only(raws: list[RawRel], params: tuple[str, ...]) -> set[str]:
    """The parameters an equation writes only in inequalities (``\\gamma > 0``): a bound
    does not fix them, so the relations that drop them still drop them (red team 16)."""
    def names(ops: bool) -> set[str]:
        return {n for r in raws if (r.op in ("==", "", "!=")) is ops
                for n in names_in(r.left) | names_in(r.right)}
    return set(params) & names(False) - names(True)


def _err(msg: str, pos: Pos, file: str, hint: str = "") -> SourceError:
    return SourceError(msg, file, pos.line, pos.col, hint)


def _children(e: object) -> tuple[object, ...]:
    if isinstance(e, BinOp):
        return (e.left, e.right)
    if isinstance(e, (Neg, Transpose)):
        return (e.operand,)
    if isinstance(e, Call):
        return e.args + (e.batch or ()) + tuple(v for _, v in e.bind)
    if isinstance(e, IndexSum):
        return (e.body,)
    return ()


def tree_depth(e: object) -> int:
    """Depth of an expression tree, computed without recursion (trees can be deep)."""
    best, stack = 0, [(e, 1)]
    while stack:
        node, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in _children(node))
    return best


def names_in(e: object) -> set[str]:
    """Every name (and called function) in ``e``."""
    out: set[str] = set()
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, (Name, Indexed)):
            out.add(node.id)
        elif isinstance(node, Call):
            out.add(node.func)
        stack.extend(_children(node))
    return out


def subst(e: Expr, mapping: dict[str, Expr]) -> Expr:
    """Replace names by expressions (used to expand local definitions into function bodies)."""
    if isinstance(e, Name):
        return mapping.get(e.id, e)
    if isinstance(e, BinOp):
        return replace(e, left=subst(e.left, mapping), right=subst(e.right, mapping))
    if isinstance(e, Neg):
        return Neg(subst(e.operand, mapping), e.pos)
    if isinstance(e, Transpose):
        return Transpose(subst(e.operand, mapping), e.pos)
    if isinstance(e, Call):
        batch = tuple(subst(b, mapping) for b in e.batch) if e.batch is not None else None
        return Call(e.func, tuple(subst(a, mapping) for a in e.args), e.pos, batch, e.params,
                    tuple((k, subst(v, mapping)) for k, v in e.bind))
    return e


class _Equation:
    """Turns the raw relations of one equation into ordered statements."""

    def __init__(self, text: str, file: str, is_defined: Callable[[str], bool],
                 env: LatexEnv) -> None:
        self.text, self.file, self.is_defined, self.env = text, file, is_defined, env
        self.lets: dict[str, Let] = {}
        #: whether an env describes the document (without one nothing is known undefined)
        self.documented = False
        self.where_marks: list[tuple[int, int]] = []  # the word where (line, col)
        self._shaping: set[str] = set()  # definitions whose body is being shaped
        #: the name a formula alone is about, when not the output (the output without affine)
        #: whether the equation's tokens write an affine parameter (\\gamma, an alias g)
        self.writes_affine = True
        #: (two-readings message, dropped parameters) of an equation that drops affine
        #: parameters (:func:`_dropped_affine`); per written relation for a derivative
        #: (:meth:`_plain_derivative`)
        #: the affine parameters the equation's tokens write, each apart
        self.written_params: frozenset[str] = frozenset()
        self.dropped: tuple[str, tuple[str, ...]] = ("", ())
        self._dropped: dict[int, tuple[str, tuple[str, ...]]] = {}
        #: the written relations read for the layer without affine parameters (ids)
        self.subscripts: dict[str, tuple[tuple[str, ...], Pos]] = {}
        #: the sizes of fixed tensor indices the equation uses (``size_t``), declared scalars
        self.sizes: tuple[str, ...] = ()
        self._graph: Any = None  # the fresh variables of graph partials (latex_graph.py)
        self._own_notes: dict[int, str] = {}  # rows that define the source's sigma
        self._written: set[str] = set()  # every name the equation writes
        #: the layer names applied to arguments other than x (``LN(x + 3)``), the layer map
        #: they read as (the output's meaning at the input x), and where ``LN(x)`` was read
        #: as the output (then the same map)
        self.layer_calls: frozenset[str] = frozenset()
        self.layer_map: Expr | None = None
        self.layer_tags: set[tuple[int, int]] = set()
        self.layer_at: set[tuple[int, int]] = set()  # where the layer calls are (line, col)
        #: how a same-index partial is read (latex_same_index.py: None refuses it), and the
        #: chain and written row of each claim made
        self.same_index: str | None = None
        self.claim_rows: dict[str, tuple[int, RawRel]] = {}

    def _vocab(self, name: str) -> bool:
        """Whether ``name`` takes its vocabulary meaning (the document does not define it)."""
        return (name in self.env.meanings or name in self.env.affine) and not (
            self.is_defined(name) or name in self.lets)

    def defined(self, name: str) -> bool:
        return (name in self.sizes or name in BUILTIN_NAMES or name in self.lets
                or name in self.env.latex_aliases
                or bool(self.is_defined(name))
                or self._vocab(name))

    def word_name(self, word: str) -> str | None:
        """The conventional name a word of a plain-text formula spells (``mean``: ``mu``,
        ``output``: the output ``y``), when that name has its vocabulary meaning here; None
        otherwise (the word stays an error naming it)."""
        target = WORD_NAMES.get(word)
        if target is None:
            return None
        if target == "x":  # input: the layer vocabulary's declared input vector
            return "x" if self.output() is not None and self.env.kind("x") == "vector" \
                and "x" not in self.lets else None
        if target == "y":  # output: the vocabulary's output, whatever its name
            target = self.env.output or ""
        if target in self.env.conflicts:
            return None
        return target if self._vocab(target) or self.env.vocab_let(target) else None

    def input_alias(self, name: str) -> str | None:
        """The vocabulary's input ``x`` when ``name`` is the document's exact alias of it
        (``let X = x``; not a definition of this equation), else None (latex_accent.py)."""
        if self.output() is None or name in self.lets or "x" in self.lets \
                or self.env.kind("x") != "vector" or self.kind(name) != "let":
            return None
        return "x" if self.env.alias(name) == "x" else None

    def output(self) -> str | None:
        out = self.env.output
        return out if out is not None and self.defined(out) else None

    def kind(self, name: str) -> str | None:
        if name in self.sizes:
            return "scalar"
        if name in self.lets:
            return "function" if self.lets[name].params else "let"
        if self._vocab(name):
            return "scalar" if name in self.env.affine else "let"
        return self.env.kind(name)

    def graph_reading(self) -> Any:
        """The fresh variables of this equation's graph partials."""
        if self._graph is None:
            from symnorm.lang.latex_graph import GraphReading
            self._graph = GraphReading(lambda n: self.defined(n) or n in self._written
                                       or n in self.lets)
        return self._graph

    def _plain_derivative(self, written: RawRel, r: RawRel) -> None:
        """Refuse a derivative relation that writes the output (``Y``, ``dE/dY``, ``dy``) but
        no affine parameter, where the ``use`` line does not say the layer has none: as for
        ``y = \\hat x``, it is a claim about the layer with them (Caffe's ``dE/dX =
        (1/sqrt(var+eps)) * (dE/dY - mean(dE/dY) - mean(dE/dY . Y) . Y)``, Y the normalized
        x, is false for it) or about a layer without them (Caffe's BatchNorm layer, true),
        and the classic typo that drops the gain reads the same.  Each parameter the relation
        writes (\\gamma, an alias, a word like ``weight``, a condition) is kept; the others are
        dropped, for adjoints between inner nodes too (dl/dbeta = sum_i dl/dxhat_i holds only
        at gamma = 1)."""
        env, out = self.env, self.env.output
        if out is None or env.plain_output is None or not any(
                isinstance(n, Partial) for side in (written.left, written.right)
                for n in _walk(side)):
            return
        params = set(_affine_params(env))
        if not params or not params <= {"gamma", "beta"}:
            return
        # the parameters the equation writes (its tokens, conditions included), each apart:
        # Caffe's formula with \text{if}\ \gamma = 1 still drops beta
        have = set(self.written_params)
        # every adjoint reaches the output (dl/dsigma^2 through dl/dxhat = gamma dl/dy): the
        # check without the parameters runs only where the claim reaches them (context.py)
        full = env.reaches(Name(out, r.pos))
        outs = {out} | {a for a, t in env.latex_aliases.items() if t == out}
        for n in sorted(names_in(written.left) | names_in(written.right) - outs):
            if n in params:
                have.add(n)  # a parameter the tokens spell otherwise
                continue
            found = env.reaches(Name(n, r.pos)) if env.kind(n) in ("let", "function") \
                or n in env.meanings else None
            if found is not None and found != full:
                have |= found & params  # a word or definition of the document writes it
        if not params <= have:
            self._dropped[id(written)] = _dropped_affine(frozenset(have), env,
                                                         "differentiates")

    def _states_output(self, w: RawRel) -> bool:
        """Whether a written relation is about the output: it writes ``y`` (or an alias) or
        applies the block's layer name (the where-clause about RMS beside it is not)."""
        out = self.env.output
        outs = {out} | {a for a, t in self.env.latex_aliases.items() if t == out}
        return any(isinstance(n, (Name, Indexed)) and n.id in outs or isinstance(n, Call)
                   and n.func in self.env.layer_names
                   for side in (w.left, w.right) for n in _walk(side))

    def _without(self, params: tuple[str, ...], pos: Pos) -> tuple[Relation, ...]:
        """``gamma == 1``, ``beta == 0`` (vectors: ``ones``, ``0 * ones``): the layer without
        the affine parameters ``params``, the other reading of an equation that drops them."""
        out: list[Relation] = []
        for a in params:
            vec = self.env.kind(a) == "vector"
            one: Expr = Name("ones", pos) if vec else Num(Fraction(1), pos)
            zero: Expr = BinOp("*", Num(Fraction(0), pos), Name("ones", pos), pos) if vec \
                else Num(Fraction(0), pos)
            out.append(Relation("==", Name(a, pos), one if a == "gamma" else zero, pos))
        return tuple(out)

    def build(self, raws: list[RawRel], label: str) -> list[Statement]:
        raws = [self._bare(r) for r in raws]
        self._written = {n for r in raws for n in names_in(r.left) | names_in(r.right)}
        for r in raws:
            for side in (r.left, r.right):
                if tree_depth(side) > MAX_TREE_DEPTH:
                    raise _err(f"expression nested more than {MAX_TREE_DEPTH} levels deep "
                               "(or a sum/product of too many terms)", r.pos, self.file,
                               "split the equation")
        pending: list[tuple[RawRel, Relation]] = []
        assumptions: list[Relation] = []
        conditions: dict[int, list[Relation]] = {}
        as_written: dict[int, RawRel] = {}
        for k, w in enumerate(raws):
            self._double_affine(w)
            self._refuse_forward_differential(w)
            r = replace(w, left=self._partials(w.left), right=self._partials(w.right))
            self._plain_derivative(w, r)
            r = self._data_rows(r)
            self._refuse_scalar_entries(r)
            as_written[id(r)] = w
            self._refuse_conflicts(r)
            target = _def_target(r.left)
            if r.cond_of != -1:  # after \text{if}: a hypothesis of the chain before it
                if r.op in DEFINERS or (r.op == "==" and target is not None
                                        and not self.defined(target[0])):
                    raise _err(f"the condition {r.source.strip()!r} defines "
                               f"{target[0] if target else 'a name'}; a condition must be "
                               "about names already defined", r.pos, self.file,
                               "declare the names it uses (scalar a) before the equation")
                conditions.setdefault(r.cond_of, []).append(self._relation(r))
                continue
            chains = self._where_condition(r, target, raws[:k])
            if chains:  # \\text{where } \\gamma = 2 of a free symbol: a condition, as \\text{if}
                for chain in chains:
                    conditions.setdefault(chain, []).append(self._relation(r))
                continue
            where = r.op == "==" and self._where_definition(r, target, raws[:k])
            if r.op in DEFINERS and target is not None and (
                    self._vocab(target[0]) or self.env.vocab_let(target[0])):
                # an assignment to a vocabulary name (Algorithm 1's mu_B <- ..., with
                # use batchnorm) states how the source computes it: a claim checked against
                # the vocabulary's meaning, never a silent redefinition
                r = RawRel("==", r.op_text, r.left, r.right, r.pos, r.source)
            defining = r.op in DEFINERS or where or (
                r.op == "==" and target is not None and not self.defined(target[0])
                and target[0] not in self.layer_calls  # LN(v) = LN(v + 2): the layer map
                and r.op_text not in BRACES  # a label states what A is: never a definition
                and not self._statistic_claim(r, target, raws))
            alone = sum(o.chain == r.chain for o in raws) == 1  # not a link of a chain
            denominator = None if where or r.op != "==" or target is None \
                else self._own_denominator(r, target, in_chain=not alone)
            if denominator is not None:  # sigma with eps on a row of its own (latex_own.py)
                assert target is not None
                self._define(r, target, vocabulary_name=True)
                own = self.lets[target[0]] = replace(self.lets[target[0]], own_meaning=True)
                self._own_notes[id(r)] = own_note(target[0], denominator)
                pending.append((r, Relation("==", own.body, _placed(denominator, r.pos),
                                            r.pos)))
            elif defining:
                self._define(r, target, vocabulary_name=where)
            elif r.op in _INEQ and _is_scalar_bound(r) and self._free_bound(r):
                assumptions.append(Relation(r.op, _plain(r.left), _plain(r.right), r.pos))
            else:
                pending.append((r, self._relation(r)))
        if assumptions and not pending and self.lets:  # it would qualify nothing: say so
            a = assumptions[0]
            raise _err(f"the assumption {a} qualifies no claim: this equation only defines "
                       f"{', '.join(self.lets)}", a.pos, self.file,
                       "put the condition beside a claim, or write `assume ...` in a symnorm "
                       "block")
        for chain, conds in conditions.items():
            if not any(r.chain == chain for r, _ in pending):
                raise _err("a condition qualifies no claim: the relation before it is a "
                           "definition", conds[0].pos, self.file,
                           "state the condition beside a claim, or as `assume ...` in a "
                           "symnorm block")
        for r, rel in pending:
            self._foreign_symbols(as_written.get(id(r), r), rel)
            self._two_upstreams(rel)
        lets = self._ordered_lets()
        pending = [(r, gradient_layout(self._broadcast_rel(Relation(
            rel.op, self._calls(rel.left), self._calls(rel.right), rel.pos)),
            lambda e: self._shape(e, set()))) for r, rel in pending]
        given = {chain: tuple(self._broadcast_rel(Relation(c.op, self._calls(c.left),
                                                           self._calls(c.right), c.pos))
                              for c in conds)
                 for chain, conds in conditions.items()}
        # a map's variable (of_argument) has the shape of the document's variable it names
        lets = [replace(lt, body=self._broadcast(self._calls(lt.body),
                                                 set() if lt.of_argument else set(lt.params)))
                for lt in lets]
        graph_vars = set(self._graph.vars) if self._graph is not None else set()
        for lt in lets:
            if names_in(lt.body) & graph_vars:  # its value would lose the point b == B
                raise _err(f"{lt.name} is defined by a partial along the computation graph; "
                           "such a partial is a value at a point, read only in a claim",
                           lt.pos, self.file, "state it as a claim about a defined name, or "
                           f"write the derivative's name defined beforehand (`let {lt.name} "
                           "= ...`)")

        def hyps(rel: Relation, chain: int) -> tuple[Relation, ...]:
            if not graph_vars:
                return ()
            names = names_in(rel.left) | names_in(rel.right)
            for c in given.get(chain, ()):
                names |= names_in(c.left) | names_in(c.right)
            return self._graph.hypotheses(names, rel.pos)  # type: ignore[no-any-return]
        # conditions are part of the equation: their vocabulary names (weight) are defined too
        graph_given = {id(rel): hyps(rel, r.chain) for r, rel in pending}
        out: list[Statement] = self._vocabulary_names(
            lets, [rel for _, rel in pending] + [c for cs in given.values() for c in cs]
            + [h for hs in graph_given.values() for h in hs],
            raws[0].pos if raws else Pos(1, 1))
        if self.sizes:  # T in oneDNN's tensor notation: the number of values of index t
            out.insert(0, Declare("scalar", self.sizes, raws[0].pos))
        if self._graph is not None:
            out += self._graph.declarations(raws[0].pos if raws else Pos(1, 1))
        out += lets
        counts: dict[str, int] = {}
        for r, rel in pending:
            limit = (self._limit(r),) if r.op_text == "\\approx" else ()
            kind = r.op_text[1:] if r.op_text in BRACES else ""  # underbrace1, ...
            counts[kind] = counts.get(kind, 0) + 1
            w = as_written.get(id(r), r)
            self.claim_rows[f"{label}.{kind}{counts[kind]}"] = (r.chain, w)
            why, dropped = self.dropped if self.dropped[0] and self._states_output(w) \
                else self._dropped.get(id(w), ("", ()))
            out.append(Claim(f"{label}.{kind}{counts[kind]}", rel,
                             given.get(r.chain, ()) + graph_given[id(rel)] + limit,
                             r.pos,
                             source=r.source, origin="latex",
                             local_assumptions=tuple(assumptions), needs_proof=why,
                             other_reading=self._without(dropped, r.pos),
                             notes=(self._own_notes[id(r)],) if id(r) in self._own_notes
                             else ()))
        return out

    def _two_upstreams(self, rel: Relation) -> None:
        """dL_dy beside dy (both declared): one gradient or two vectors (latex_row_partials)."""
        from symnorm.lang.latex_row_partials import two_upstreams
        sides, _ = self._expand_here(BinOp("+", rel.left, rel.right, rel.pos), "")
        two_upstreams(self, names_in(sides) | (self.env.reaches(sides) or set()), rel.pos)

    def _refuse_scalar_entries(self, r: RawRel) -> None:
        """``a_i``, ``\\sigma_i``, ``\\gamma_i`` of a scalar: an error.  Read as the scalar,
        ``\\sum_i a_i^2`` was ``a.T * a``, a squared, where every term being a would make it
        d a squared (red team 20: seven false sums proved)."""
        for side in (r.left, r.right):
            for node in _walk(side):
                if not (isinstance(node, Indexed) and node.expr is None):
                    continue
                if self._shape(Name(node.id, node.pos), set()) == "scalar":
                    raise _err(f"{node.id}_{node.index}: {node.id} is a scalar here, which has "
                               f"no entry {node.index}", node.pos, self.file,
                               f"write {node.id} without the index (a scalar is the same in "
                               f"every term: \\sum_{{{node.index}=1}}^{{d}} {node.id} is d "
                               f"{node.id}), or declare a vector (`vector {node.id}`)")

    def _own_denominator(self, r: RawRel, target: tuple[str, tuple[str, ...], str],
                         in_chain: bool = False) -> Any:
        """The layer's denominator a row ``\\sigma = ...`` with eps is checked against, where
        the row is the source's own sigma (:mod:`symnorm.lang.latex_own`), else None."""
        name = target[0]
        return own_denominator(
            name, target[2], meanings=self.env.meanings, graph=self.env.graph,
            vocab_meaning=self._vocab(name),
            used_before=bool(self.env.vocab_let(name)) or name in self.env.read_before,
            writes_eps=self._writes_eps(r.right), self_reference=name in names_in(r.right),
            pos=r.pos, file=self.file, in_chain=in_chain)

    def _double_affine(self, written: RawRel) -> None:
        """``\\gamma y`` with the vocabulary's y, which holds gamma already: an error."""
        out, env = self.env.output, self.env
        if out is None or out not in env.meanings or not (self._vocab(out)
                                                          or env.vocab_let(out)):
            return
        if "gamma" not in names_in(env.meanings[out]):
            return
        gains = {n for n in ("gamma", *(w for w, a in AFFINE_WORDS.items() if a == "gamma"))
                 if n == "gamma" or self._vocab(n)}
        err = double_affine((written.left, written.right), out, gains, _children, self.file)
        if err is not None:
            raise err
        if self.layer_map is None or "gamma" not in names_in(self.layer_map):
            return
        # \gamma\,\mathrm{LN}(2x) where the layer map holds gamma: the gain twice
        stack: list[object] = [written.left, written.right]
        while stack:
            node = stack.pop()
            if isinstance(node, BinOp) and node.op in ("*", "odot") or isinstance(node, Call) \
                    and node.func == "hadamard":
                odot = isinstance(node, BinOp) and node.op == "odot"
                factors = [node.left, node.right] if odot else product_factors_all(node)  # type: ignore[union-attr]
                layer = next((f for f in factors if isinstance(f, Call)
                              and self._layer_call(f)), None)
                gain = next((f for f in factors if isinstance(f, (Name, Indexed))
                             and f.id in gains), None)
                if layer is not None and gain is not None:
                    raise _err(f"{gain.id} times the layer map {layer.func}(...), which holds "
                               f"the gain already here ({self.layer_map}): the product would "
                               "apply it twice", gain.pos, self.file,
                               f"write \\gamma only once: {layer.func}(...) alone is the "
                               "layer with its gain; for the normalized value write it out "
                               "(\\frac{t - \\mathrm{E}[t]}{\\sqrt{\\mathrm{Var}[t] + "
                               "\\epsilon}})")
            stack.extend(_children(node))

    def _foreign_symbols(self, written: RawRel, rel: Relation) -> None:
        """A claim that involves the vocabulary's output and writes a symbol of the document
        that the output does not contain is an error (see :mod:`symnorm.lang.latex_output`)."""
        out, env = self.env.output, self.env
        if out is None or out not in env.meanings or not (self._vocab(out)
                                                          or env.vocab_let(out)):
            return
        params = {n for n in (*env.affine, *names_in(env.meanings[out]))
                  if env.kind(n) in ("scalar", "vector") or n in env.affine}
        params |= env.entries.symbols() if env.entries is not None else set()  # GroupNorm
        # the symbols the output's meaning reaches (GroupNorm's per-channel ggamma1, gbeta1,
        # through GNy) occur in it: never foreign
        params |= {n for n in (env.reaches(env.meanings[out]) or set())
                   if env.kind(n) in ("scalar", "vector")}

        def reach(e: Expr) -> set[str] | None:
            name = e.id if isinstance(e, Name) else ""
            if name in self.lets:
                body = self.lets[name].body
                return names_in(body) | (env.reaches(body) or set())
            return env.reaches(e)

        # LN(a x + b\\mathbf 1): the symbols of a layer map's argument are its input
        layers, inputs = set(), set()
        stack: list[object] = [written.left, written.right]
        while stack:
            node = stack.pop()
            if isinstance(node, Call) and self._layer_call(node):
                layers.add(node.func)
                inputs |= {n for a in node.args for n in names_in(a)}
            stack.extend(_children(node))
        err = foreign_symbol(
            (written.left, written.right), (rel.left, rel.right), out=out,
            allowed=set(VOCAB_INPUTS) | params | {"d"} | inputs,
            declared=lambda n: self.kind(n) in ("scalar", "vector", "matrix"),
            names_in=names_in, children=_children, reaches=reach,
            upstream=set().union(*(upstream_gradients(o, env.vectors()) for o in (out, *(
                a for a, t in env.latex_aliases.items() if t == out)))) | layers,
            meaning=str(env.meanings[out]), file=self.file)
        if err is not None:
            raise err

    def _free_bound(self, r: RawRel) -> bool:
        """Whether the name of ``a > 0`` is a free symbol, so the inequality may assume it.

        Only a declared symbol (``scalar a``, the vocabulary's ``eps``) or the dimension d
        can be assumed; a defined quantity (a ``let``, a vocabulary meaning such as s,
        sigma, v, this equation's own definition) has a value, and ``s > 1`` is a claim
        about it, checked, never an assumption that makes the rest of the equation true.
        """
        name = r.left if isinstance(r.left, Name) else r.right
        assert isinstance(name, Name)
        if name.id in self.lets:
            return False
        if not self.documented:  # no document (the bare API): kinds are unknown
            return True
        if self._vocab(name.id):  # the vocabulary's affine parameters are free scalars
            return name.id in self.env.affine
        return name.id == "d" or self.env.kind(name.id) in ("scalar", "vector", "matrix")

    def _statistic_claim(self, r: RawRel, target: tuple[str, tuple[str, ...], str],
                         raws: list[RawRel]) -> bool:
        """Whether ``\\mathrm{RMS}[x] = ...`` is a claim about the built-in statistic.

        A statistic word has a meaning even where nothing defines it (RMS: the root mean
        square), so writing it on the left of ``=`` states that meaning, as ``Var[x] = ...``
        and ``MS[x] = ...`` do.  It is a definition only as a where-clause of the equation
        that uses it (OneFlow's ``y = \\frac{x}{\\mathrm{RMS}[x]} g \\text{ where }
        \\mathrm{RMS}[x] = ...``); the vocabulary's meaning (use rmsnorm) is never replaced.
        """
        name = target[0]
        if target[2] != "function" or name not in BUILTIN_STATISTICS or not self.documented:
            return False
        used = any(name in names_in(o.left) | names_in(o.right) for o in raws
                   if o is not r and _def_target(o.left) != target)
        return not used
    # --- vocabulary meanings, derivatives, broadcasting ------------------------------------

    def _refuse_conflicts(self, r: RawRel) -> None:
        """A conventional name whose meaning this block's vocabularies do not establish is an
        error at the name: never a silent definition, never the other block's meaning."""
        if not self.env.conflicts:
            return
        stack: list[object] = [r.left, r.right]
        while stack:
            node = stack.pop()
            # a two-index partial (\\partial \\hat x_i / \\partial x_j) is resolved later, with the
            # matrix entries: its names are checked here, or it takes an earlier block's meaning
            names = [node.id] if isinstance(node, (Name, Indexed, MatrixEntry)) else \
                [n for n in (node.num, node.var) if isinstance(n, str)] \
                if isinstance(node, (Partial, ExprPartial)) else []
            if isinstance(node, ExprPartial):
                stack.append(node.num)
            hit = next((n for n in names if n in self.env.conflicts), None)
            if hit is not None:
                raise _err(self.env.conflicts[hit], node.pos, self.file,
                           self.env.conflict_hints.get(hit) or
                           f"write the equation in a block that uses the vocabulary it "
                           f"belongs to, or name the quantity yourself (`let {hit}_2 = "
                           "...` in a symnorm block before the equation)")
            if isinstance(node, Indexed) and getattr(node, "expr", None) is not None:
                stack.append(node.expr)
            stack.extend(_children(node))

    def _layer_call(self, e: Call) -> bool:
        """Whether ``e`` is a layer's name applied to an argument other than x, read as the
        layer map (not a function this equation defines)."""
        return e.func in self.layer_calls and e.func not in self.lets \
            and (e.pos.line, e.pos.col) in self.layer_at

    def _calls(self, e: Expr) -> Expr:
        """Expand the calls whose LaTeX meaning the vocabulary gives (``\\mathrm{RMS}(x)``)."""
        if self.layer_map is not None and isinstance(e, Name) and e.id == self.env.output \
                and (e.pos.line, e.pos.col) in self.layer_tags:
            return _placed(self.layer_map, e.pos)  # LN(x) beside LN(x + 3): the same map
        if isinstance(e, Call):
            args = tuple(self._calls(a) for a in e.args)
            if self._layer_call(e):
                if len(args) != 1 or e.batch is not None or e.params or e.bind:
                    raise _err(f"{e.func} takes one argument here (no subscript, no batch)",
                               e.pos, self.file)
                assert self.layer_map is not None
                return subst(_placed(self.layer_map, e.pos), {"x": args[0]})
            if e.func in self.env.functions:
                if len(args) != 1 or e.batch is not None or e.params or e.bind:
                    raise _err(f"{e.func} takes one argument here (no subscript, no batch)",
                               e.pos, self.file)
                param, body = self.env.functions[e.func]
                return subst(_placed(body, e.pos), {param: args[0]})
            if e.func == "RMS" and self.documented and not self.defined("RMS") \
                    and len(args) == 1 \
                    and e.batch is None and not e.params and not e.bind:
                # \mathrm{RMS}[x] with no meaning given: the root mean square of the entries
                sq = BinOp("**", args[0], Num(Fraction(2), e.pos), e.pos)
                return Call("sqrt", (BinOp("/", Call(SUM_ENTRIES, (sq,), e.pos),
                                           Name("d", e.pos), e.pos),), e.pos)
            batch = tuple(self._calls(b) for b in e.batch) if e.batch is not None else None
            return Call(e.func, args, e.pos, batch, e.params,
                        tuple((k, self._calls(v)) for k, v in e.bind))
        if isinstance(e, BinOp):
            return replace(e, left=self._calls(e.left), right=self._calls(e.right))
        if isinstance(e, Neg):
            return Neg(self._calls(e.operand), e.pos)
        if isinstance(e, Transpose):
            return Transpose(self._calls(e.operand), e.pos)
        return e

    def _bare(self, r: RawRel) -> RawRel:
        """A formula alone (``\\frac{x-E[x]}{...}*\\gamma+\\beta``) claims the output is it."""
        if r.op != "":
            return r
        out = self.output()
        assert out is not None  # the parser admits a bare formula only then
        return RawRel("==", "=", Name(out, r.pos), r.right, r.pos, r.source)

    def _vocabulary_names(self, lets: list[Let], rels: list[Relation], pos: Pos
                          ) -> list[Statement]:
        """Declarations and definitions of the vocabulary names this equation uses."""
        used: set[str] = set()
        stack: list[object] = [lt.body for lt in lets]
        stack += [x for rel in rels for x in (rel.left, rel.right)]
        seen: set[str] = set()
        while stack:
            e = stack.pop()
            for n in names_in(e):
                if n in seen or not self._vocab(n):
                    continue
                seen.add(n)
                used.add(n)
                if n in self.env.meanings:
                    stack.append(self.env.meanings[n])
        out: list[Statement] = []
        affine = tuple(n for n in self.env.affine if n in used)
        if affine:
            out.append(Declare("scalar", affine, pos))
        order = [n for n in self.env.meanings if n in used]
        out += [Let(n, (), _placed(self.env.meanings[n], pos), pos) for n in order]
        return out

    def _shape(self, e: Expr, params: set[str]) -> str | None:
        """The shape of ``e`` with this equation's definitions and the vocabulary expanded."""
        if self._graph is not None and self._graph.vars:  # jacobian(.., b): by its shape
            e = self._graph.standin(e, lambda f: self._shape(f, params))
        local = {n: self._shaped_body(n) for n, lt in self.lets.items() if not lt.params}
        local.update({n: m for n, m in self.env.meanings.items() if self._vocab(n)})
        for _ in range(len(local) + 1):
            hit = names_in(e) & local.keys()
            if not hit:
                break
            e = subst(e, {n: local[n] for n in hit})
        if names_in(e) & params:
            return None  # inside a function body: the parameter's shape is not known here
        return self.env.shape(e)

    def _shaped_body(self, name: str) -> Expr:
        """The body of this equation's definition of ``name`` with its scalars broadcast (``x -
        \\mu`` of a where-clause's ``\\hat x`` is a vector), so that a relation before it that uses
        the name has its shape; the raw body while that body itself is being shaped."""
        if name in self._shaping:
            return self.lets[name].body
        self._shaping.add(name)
        try:
            return self._broadcast(self._calls(self.lets[name].body), set())
        finally:
            self._shaping.discard(name)

    def _broadcast(self, e: Expr, params: set[str]) -> Expr:
        """``x - \\mu``, ``+ \\beta``: a scalar added to a vector means the scalar times ones."""
        if isinstance(e, BinOp):
            left, right = self._broadcast(e.left, params), self._broadcast(e.right, params)
            if e.op in ("+", "-"):
                # F(x) = \\gamma\\hat x + \\beta: a parameter that is the vocabulary's input
                # has the input's shape (the body expands its conventional names in it)
                shape = self._factor_shape if params == {"x"} and "x" in VOCAB_INPUTS \
                    else self._shape
                a, b = shape(left, params), shape(right, params)
                if a == "scalar" and b == "column":
                    left = BinOp("*", left, Name("ones", e.pos), e.pos)
                elif a == "column" and b == "scalar":
                    right = BinOp("*", right, Name("ones", e.pos), e.pos)
            elif e.op == "*" and e.written == "Mul":  # ONNX's Mul: entrywise, broadcasting
                a, b = self._shape(left, params), self._shape(right, params)
                if a in ("matrix", "row") or b in ("matrix", "row"):
                    raise _err(f"Mul(A, B) of a {a if a in ('matrix', 'row') else b}: ONNX's "
                               "Mul is entrywise with broadcasting, not the matrix product "
                               "symnorm reads for * here", e.pos, self.file,
                               "write the matrix product with * (or \\cdot) outside the "
                               "ONNX syntax")
                if a == b == "column":
                    return Call("hadamard", (left, right), e.pos)
            elif e.op == "*" and not e.written and (gain := gain_product(
                    self, replace(e, left=left, right=right), params)) is not None:
                return gain  # \gamma\hat x with a per-element gain: latex_gain.py
            elif e.op == "*" and e.written == "*" and self._shape(left, params) == "column" \
                    and self._shape(right, params) == "column":
                # a star between two vectors has one well-typed reading, the entrywise
                # product (the docstrings' ``\hat x * \gamma`` with a vector gain)
                return Call("hadamard", (left, right), e.pos)
            return replace(e, left=left, right=right)
        if isinstance(e, Neg):
            return Neg(self._broadcast(e.operand, params), e.pos)
        if isinstance(e, Transpose):
            return Transpose(self._broadcast(e.operand, params), e.pos)
        if isinstance(e, Call):
            if is_marked(e):  # \gamma \odot \hat x: batchnorm's per-feature gain (latex_odot)
                return read_odot(self, self._broadcast(e.args[0], params),
                                 self._broadcast(e.args[1], params), e.pos, params)
            if e.func == REDUCE_MEAN:
                e = reduce_mean(e, self._shape(_square_base(e.args[0]), params), self.file)
            if e.func == SUM_SCALED:
                return read_scaled_sum(self._broadcast(e.args[0], params),
                                       [self._broadcast(f, params) for f in e.args[1:]],
                                       lambda f: self._factor_shape(f, params), e.pos,
                                       self.file)
            if e.func == SUM_TERM or e.func == SUM_ENTRIES and \
                    len(product_factors(e.args[0])) > 1:
                factors = [self._broadcast(f, params) for f in
                           (e.args if e.func == SUM_TERM else product_factors(e.args[0]))]
                read = read_summand(factors, lambda f: self._factor_shape(f, params), e.pos,
                                    self.file, literal=e.func == SUM_TERM)
                if read is not None:
                    return read
            args = tuple(self._broadcast(a, params) for a in e.args)
            if e.func in (SUM_ENTRIES, SUM_SQUARES) or e.func == "mean" and _square(args[0]):
                return self._entries_of(e, args[0], params)
            return Call(e.func, args, e.pos, e.batch, e.params, e.bind)
        return e

    def _factor_shape(self, e: Expr, params: set[str]) -> str | None:
        """The shape of a summand's factor; inside a function body a parameter named like a
        declared vector has that vector's shape (``RMS[x] = \\sqrt{\\sum_i x^2 ...}``)."""
        shape = self._shape(e, params)
        return self._shape(e, set()) if shape is None and params else shape

    def _limit(self, r: RawRel) -> Relation:
        """``a \\approx b``: exact at eps = 0, the limit eps -> 0 of the sides (they are
        continuous in eps there at the points where the variance is positive), checked as
        ``a == b given eps == 0``; without an eps in the document it is not read."""
        if not self.defined("eps"):
            raise _err("\\approx: an approximate equality is not checked here: it is read only "
                       "as the exact claim at eps = 0 (the limit eps -> 0), and the document "
                       "has no eps", r.pos,
                       self.file, "state what it approximates exactly as = with a condition")
        sides = BinOp("+", _plain_sides(r.left), _plain_sides(r.right), r.pos)
        if not self._reaches_expr(sides, "eps") and "eps" in names_in(sides):
            # written with eps, but through what the reader does not expand (\\log, N_eps):
            # whether the value at eps = 0 is the limit cannot be told, so it is not read
            raise _err("\\approx: an approximate equality is not checked here: its sides "
                       "use eps through a function or quotient the reader does not expand, "
                       "so the exact claim at eps = 0 cannot stand for the limit eps -> 0",
                       r.pos, self.file, "state the claim exactly (as = with a condition, or "
                       "a symnorm claim `given eps == 0` where both sides are defined at 0)")
        for n in term_nodes(r.left) + term_nodes(r.right):
            if isinstance(n, BinOp) and n.op == "**" \
                    and self._reaches_expr(_plain_sides(n.right), "eps"):
                # 0^\\epsilon is 0 for every eps > 0 and 1 at eps = 0: the value at 0 is not
                # the limit where eps is in an exponent
                raise _err("\\approx: an approximate equality is not checked here: eps is in "
                           "an exponent, where the value at eps = 0 need not be the limit eps "
                           "-> 0 (0^\\epsilon)", r.pos, self.file,
                           "state the claim exactly (as = with a condition)")
        if _eps_written(r.left) or _eps_written(r.right):
            # s \\approx \\sigma + \\frac{\\epsilon}{2\\sigma}: a term in eps states the order of
            # the approximation, which the claim at eps = 0 would not check (it would count for
            # nothing)
            raise _err("\\approx: an approximate equality is not checked here: a side writes eps "
                       "itself, so it states an expansion in eps (its first-order term), while "
                       "only the value at eps = 0 would be checked", r.pos, self.file,
                       "state the expansion exactly (as = with its remainder), or drop the eps "
                       "terms for the claim at eps = 0")
        if not self._reaches_expr(sides, "eps"):
            raise _err("\\approx: an approximate equality is not checked here: its sides do "
                       "not depend on eps, so what it approximates is not stated", r.pos, self.file,
                       "only an approximation by eps -> 0 is read (checked at eps = 0); state "
                       "any other one exactly")
        return Relation("==", Name("eps", r.pos), Num(Fraction(0), r.pos), r.pos)

    def _reaches_expr(self, e: Expr, var: str) -> bool:
        """Whether ``e``, with this equation's and the vocabulary's definitions and the
        document's expanded, mentions ``var`` (False when unknown)."""
        e, _ = self._expand_here(e, var)
        found = self.env.reaches(e)
        return found is not None and var in found

    def _expand_here(self, e: Expr, var: str) -> tuple[Expr, bool]:
        """``e`` with this equation's definitions and the vocabulary's meanings put in (all
        but ``var``), and whether that ended within 64 rounds."""
        for _ in range(64):
            mapping = {n: (self.lets[n].body if n in self.lets else self.env.meanings[n])
                       for n in names_in(e) if n != var and (
                           n in self.lets and not self.lets[n].params
                           or n not in self.lets and self._vocab(n) and n in self.env.meanings)}
            if not mapping:
                return e, True
            e = subst(e, mapping)
        return e, False

    def _entries_of(self, e: Call, arg: Expr, params: set[str]) -> Expr:
        """``E[x^2]``, ``\\sum x^2``, ``\\sum x``, ``\\sum_{i=1}^n x^2``: sums and means of the
        entries of a vector, with ``x^2`` the entrywise square (only directly inside them)."""
        pos = e.pos
        base = arg.left if _square(arg) and e.func != SUM_SQUARES else arg  # type: ignore[union-attr]
        square = base is not arg or e.func == SUM_SQUARES
        shape = self._shape(base, params)
        if shape is None and params:
            # RMS[x] = \\sqrt{\\frac1n \\sum_i x^2}: a parameter named like a declared vector
            # is read with that vector's shape (an unknown name leaves the shape unknown)
            shape = self._shape(base, set())
        if e.func == SUM_SQUARES and shape == "scalar":  # \sum_{i=1}^d c^2 = d c^2
            return BinOp("*", Call("sum", (Name("ones", pos),), pos),
                         BinOp("**", base, Num(Fraction(2), pos), pos), pos)
        if shape != "column":
            if e.func == "mean":  # E[c^2] of a scalar: left to the checker, as written
                return Call("mean", (arg,), pos, e.batch, e.params, e.bind)
            what = "\\sum without an index" if e.func == SUM_ENTRIES else "a square inside \\sum"
            got = "a scalar" if shape == "scalar" else (shape or "an expression of unknown shape")
            raise _err(f"{what} of {got}: read only over the entries of a vector", pos,
                       self.file, "write the index: \\sum_{i=1}^d x_i^2; MS[...] and RMS[...] "
                       "(read through the same sum) also take a vector")
        if square:
            total: Expr = BinOp("*", Transpose(base, pos), base, pos)
        else:
            total = Call("sum", (base,), pos)
        if e.func == "mean":
            total = BinOp("/", total, Name("d", pos), pos)
        return total

    def _broadcast_rel(self, rel: Relation) -> Relation:
        return Relation(rel.op, self._broadcast(rel.left, set()),
                        self._broadcast(rel.right, set()), rel.pos)

    def _partials(self, e: Any) -> Any:
        """Resolve every :class:`Partial` in a parsed tree (see :meth:`_partial`)."""
        rec = self._partials
        if isinstance(e, Partial):
            return self._partial(e)
        if isinstance(e, ExprPartial):
            return self._expr_partial(e)
        if isinstance(e, BinOp):
            return replace(e, left=rec(e.left), right=rec(e.right))
        if isinstance(e, Neg):
            return Neg(rec(e.operand), e.pos)
        if isinstance(e, Transpose):
            return Transpose(rec(e.operand), e.pos)
        if isinstance(e, Call) and e.func == OPERATOR:
            return resolve_operator(self, e)  # \frac{\partial}{\partial x}(..): latex_operator.py
        if isinstance(e, Call):
            affine = self._affine_transform(e)
            if affine is not None:
                return affine
            batch = tuple(rec(b) for b in e.batch) if e.batch is not None else None
            return Call(e.func, tuple(rec(a) for a in e.args), e.pos, batch, e.params, e.bind)
        if isinstance(e, IndexSum):
            return replace(e, body=rec(e.body))
        return e

    def _affine_transform(self, e: Call) -> object:
        """``BN_{\\gamma,\\beta}(x_i)`` with ``use batchnorm``: Ioffe and Szegedy's batching
        transform with its affine parameters, entry i of ``gamma*BN(x) + beta*ones`` (``x`` the
        mini-batch); ``BN_{\\gamma,\\beta}(x)`` is the whole vector.  None for any other call."""
        batch = self.env.sets.get("B")
        if (e.func != "BN" or batch is None or sorted(e.params) != ["beta", "gamma"]
                or e.bind or e.batch is not None or len(e.args) != 1 or self.is_defined("B")):
            return None
        arg = e.args[0]
        index = arg.index if isinstance(arg, Indexed) and arg.expr is None else None
        if not (isinstance(arg, (Name, Indexed)) and arg.id == batch):
            raise _err(f"BN_{{gamma,beta}}(...) is read only of the mini-batch {batch} or its "
                       f"entry {batch}_i", e.pos, self.file, f"write BN_{{\\gamma,\\beta}}({batch}_i)")
        if isinstance(arg, Indexed) and index is None:
            return None
        pos = e.pos
        out = BinOp("+", BinOp("*", Name("gamma", pos), Call("BN", (Name(batch, pos),), pos), pos),
                    BinOp("*", Name("beta", pos), Name("ones", pos), pos), pos)
        return Indexed("y", index, pos, out) if index is not None else out

    def _nabla_layout(self, pt: Partial) -> None:
        """``\\nabla_v f`` of a quantity the document has (not the loss): refused where its
        layout is not said.  For a vector f sources print it for the Jacobian and for its
        transpose; for a scalar f by a whole vector v it is the gradient, a column, while
        ``\\frac{\\partial f}{\\partial v}`` here is the Jacobian, a row: two layouts."""
        num = self._shape(Name(pt.num, pt.pos), set())
        if num is None or pt.num_index is not None:
            return
        var = self._shape(Name(pt.var, pt.pos), set())
        if num != "scalar":
            what = f"of a vector {pt.num}: sources print it for the Jacobian and for its " \
                "transpose"
        elif var == "column" and pt.var_index is None:
            what = (f"of a scalar by the vector {pt.var}: the gradient (a column, as \\nabla "
                    "means) or the Jacobian (a row, as \\frac{\\partial ..}{\\partial ..} "
                    "is read)")
        else:
            return
        raise _err(f"\\nabla_{{{pt.var}}} {pt.num} {what}, two layouts", pt.pos, self.file,
                   f"write the Jacobian \\frac{{\\partial {pt.num}}}{{\\partial {pt.var}}} "
                   "(a row for a scalar; its transpose with ^\\top is the gradient)")

    def _partial(self, pt: Partial) -> object:
        """:meth:`_read_partial`, its errors naming a differential as written (``d xhat``)."""
        if pt.nabla and pt.num != LOSS:
            self._nabla_layout(pt)
        if (pt.upright or pt.slash) and not self._of_the_loss(pt):
            self._refuse_upright(pt)
        try:
            from symnorm.lang.latex_row_partials import read_entry_partial
            entry = read_entry_partial(self, pt)  # \partial L/\partial y_{ij} (a data matrix)
            got = entry if entry is not None else self._read_partial(pt)
        except SourceError as exc:
            raise self._as_written(pt, exc) from None
        if isinstance(got, ScalarAt) and got.error is not None:  # raised later, as written
            got = replace(got, error=self._as_written(pt, got.error))
        return got

    def _as_written(self, pt: Partial, exc: SourceError) -> SourceError:
        """``exc`` naming the derivative as the source wrote it (``d xhat``, ``\nabla_{g}``)."""
        if pt.nabla:  # \nabla_{g} L as printed: the error names it so
            loss = f"\\partial {LOSS}/\\partial {pt.var}"
            msg = exc.message.replace(loss, f"\\nabla_{{{pt.var}}}").replace(
                f"\\partial {pt.num}/\\partial {pt.var}",
                f"\\nabla_{{{pt.var}}} {pt.num}").replace(LOSS, "the loss")
            return SourceError(msg, exc.file, exc.line, exc.column, exc.hint.replace(LOSS, "L"))
        if pt.slash or pt.upright:  # dE/dX, \\frac{dE}{dX} as printed: errors say so
            return SourceError(exc.message.replace("\\partial ", "d"), exc.file, exc.line,
                               exc.column, exc.hint)
        if not pt.differential:
            return exc
        written = f"\\partial {LOSS}/\\partial "
        return SourceError(exc.message.replace(written, "d").replace(
            f"the loss {LOSS}", "the loss").replace(LOSS, "the loss"), exc.file, exc.line,
            exc.column, exc.hint.replace(LOSS, "L"))

    def _of_the_loss(self, pt: Partial) -> bool:
        """Whether the numerator of ``pt`` is the loss: a plain name the document neither
        declares nor defines, as ``\\frac{\\partial \\ell}{...}`` reads it (through the
        declared upstream gradient).  For the loss the total derivative by a node (the
        adjoint) and the partial along the graph are one quantity, so d and \\partial agree."""
        return pt.num_index is None and pt.num_power is None and self.kind(pt.num) is None \
            and not self.defined(pt.num)

    def _refuse_upright(self, pt: Partial) -> None:
        """``\\frac{d\\hat x_i}{d\\mu}``, ``dy/d\\gamma``: a d-derivative of a quantity the
        document has, which sources write both for the total derivative and for the partial
        along the computation graph; never read."""
        num = pt.num + (f"_{pt.num_index}" if pt.num_index else "") + (
            f"^{pt.num_power}" if pt.num_power is not None else "")
        var = pt.var + (f"_{pt.var_index}" if pt.var_index else "") + (
            f"^{pt.var_power}" if pt.var_power is not None else "")
        shown = f"d{num}/d{var}" if pt.slash else f"\\frac{{d{num}}}{{d{var}}}"
        raise _err(f"derivative notation {shown}: {pt.num} is not the loss (a name the "
                   "document neither declares nor defines, whose upstream gradient it "
                   f"declares), so the d reads two ways: the total derivative of {pt.num} by "
                   f"{pt.var} (through every path of the computation graph) or the partial "
                   "along the graph, the other inputs held fixed (what \\partial means here): "
                   "two readings", pt.pos, self.file,
                   f"write \\frac{{\\partial {num}}}{{\\partial {var}}} for the partial along "
                   "the graph, or jacobian(...) in a symnorm line for the total derivative")

    def _read_partial(self, pt: Partial) -> object:
        """``\\frac{\\partial A}{\\partial B}``, read by what A and B are in the document.

        * the document defines the derivative's name (``dl_dy``, ``let dl_dx = ...``): that
          name;
        * B a defined quantity (``\\partial\\sigma^2``, ``\\partial\\hat x_i``): a partial
          along the computation graph, a value (:mod:`symnorm.lang.latex_graph`);
        * A is a defined quantity and B a declared variable: ``jacobian(A, B)``, one entry
          per free index (``\\partial y_i/\\partial\\gamma``, ``\\partial\\mu/\\partial x_i``);
        * A is undefined (the loss) and exactly one declared vector ``dA_dY`` names the
          upstream gradient of a defined output Y: the chain rule
          ``jacobian(Y, B).T * dA_dY``.
        """
        pos = pt.pos
        named = pt.named
        same = self.env.alias(pt.var) if pt.var not in self.lets and self.kind(pt.var) == "let" \
            and not self.defined(named) else None
        if same is not None:
            # a definition that is another name of a declared variable (batchnorm's z = x)
            # differentiates as that variable: the same Jacobian, never a graph-partial name
            pt = replace(pt, var=same)
            named = pt.named
        if not self.defined(named):
            from symnorm.lang.latex_graph import read_partial
            along = read_partial(self, pt)  # a partial along the computation graph
            if along is not None:
                return along
        index = pt.var_index or pt.num_index
        fallback: object = Indexed(named, index, pos) if index else Name(named, pos)
        var_kind = self.kind(pt.var)
        if var_kind is None and not self.defined(named) and not self.defined(pt.var):
            # a partial by nothing the document has: read as the name dA_dB it would define
            # a derivative no engine checks (a false formula would pass as a definition)
            from symnorm.lang.latex_graph import unknown_quantity
            raise unknown_quantity(self, pt)
        if var_kind in ("matrix", "function") and not self.defined(named):
            raise _err(f"\\partial {pt.num}/\\partial {pt.var}: {pt.var} is a declared "
                       f"{var_kind}, and a derivative by a {var_kind} is not modelled, so this "
                       "partial has no value", pos, self.file,
                       f"differentiate by a declared scalar or vector, or define the "
                       f"derivative yourself (`let {named} = ...` before the equation)")
        if self.defined(named) or var_kind not in ("scalar", "vector"):
            if pt.num_index and pt.var_index:
                raise _err(f"\\partial {pt.num}_{pt.num_index}/\\partial "
                           f"{pt.var}_{pt.var_index}: an entry of a Jacobian", pos, self.file,
                           f"write the matrix \\frac{{\\partial {pt.num}}}{{\\partial "
                           f"{pt.var}}}")
            if not self.defined(named) and self.documented:
                # in a document every name has a kind: this one (d, I, ones) is no quantity
                # a derivative is taken by, and a definition dA_dB would check nothing
                raise _err(f"\\partial {pt.num}/\\partial {pt.var}: {pt.var} is not a declared "
                           "scalar or vector nor a node of a computation graph, so this "
                           "partial has no value", pos, self.file,
                           "differentiate by a declared scalar or vector, or define the "
                           f"derivative yourself (`let {named} = ...` before the equation)")
            return fallback
        if pt.var_power is not None:
            raise _err(f"\\partial {pt.var}^{pt.var_power}: {pt.var} is a declared variable; "
                       "a derivative by its power is not modelled", pos, self.file,
                       f"differentiate by {pt.var}")
        var = Name(pt.var, pos)
        num_kind = self.kind(pt.num)
        if num_kind in ("let", "scalar", "vector"):
            num: Expr = Name(pt.num, pos)
            if pt.num_power is not None:
                num = BinOp("**", num, Num(Fraction(pt.num_power), pos), pos)
            jac: Expr = Call("jacobian", (num, var), pos)
            num_shape = self._shape(num, set())
            return self._entries(pt, jac, num_shape, var_kind)
        if num_kind is None and pt.num_index is None and pt.num_power is None:
            from symnorm.lang.latex_graph import upstreams
            found = upstreams(self, pt)
            ups = [v for v, _ in found]
            if len(ups) > 1:
                raise _err(f"\\partial {pt.num}/\\partial {pt.var}: several upstream "
                           f"gradients are declared ({', '.join(ups)})", pos, self.file,
                           "declare one (the derivative of the loss by the layer's output)")
            if ups:
                target = found[0][1]
                if not self._reaches(target, pt.var):
                    # the loss modelled as a function of Y alone would make this derivative
                    # 0 by construction, while in the network it is not (dl/d eps through s)
                    raise _err(f"\\partial {pt.num}/\\partial {pt.var}: the declared upstream "
                               f"gradient {ups[0]} models {pt.num} as a function of "
                               f"{target} alone, which does not depend on "
                               f"{pt.var}", pos, self.file,
                               "declare the upstream gradient of a quantity that depends on "
                               f"{pt.var} (the layer's output, e.g. `vector d{pt.num}_dy`)")
                out = Name(target, pos)
                chain = BinOp("*", Transpose(Call("jacobian", (out, var), pos), pos),
                              Name(ups[0], pos), pos)
                return self._entries(pt, chain, "scalar", var_kind, gradient=True)
        if num_kind is None and not self.defined(pt.num):
            # read as the name dA_dB, this derivative would be defined by the equation and
            # nothing checked: a false formula for it would pass as a definition
            out = self.output()
            raise _err(f"\\partial {pt.num}/\\partial {pt.var}: {pt.num} is neither declared "
                       "nor defined, and no upstream gradient of it is declared, so this "
                       "partial has no value", pos, self.file,
                       (f"declare the upstream gradient (`vector d{pt.num}_d{out}` for the "
                        "layer's output)" if out else
                        # no layer: the loss's gradient by a quantity the document defines
                        f"define the quantity {pt.num} is computed from as a function of "
                        f"{pt.var} (`let w = ...`) and declare {pt.num}'s gradient by it "
                        f"(`vector d{pt.num}_dw`): this partial is then the chain rule "
                        "through w")
                       + f", or define the derivative yourself (`let {named} = ...`)")
        if self.documented:
            raise _err(f"\\partial {pt.num}/\\partial {pt.var}: {pt.num} is a {num_kind}, and "
                       f"a derivative of a {num_kind} is not modelled, so this partial has no "
                       "value", pos, self.file, "differentiate a defined quantity or the loss, "
                       f"or define the derivative yourself (`let {named} = ...`)")
        return fallback

    def _reaches(self, name: str, var: str) -> bool:
        """Whether the definition of ``name``, expanded, mentions ``var`` (True when unknown)."""
        e, done = self._expand_here(Name(name, Pos(1, 1)), var)
        if not done:
            return True
        found = self.env.reaches(e)  # the document's definitions and calls, expanded
        return found is None or var in found

    def _entries(self, pt: Partial, jac: Expr, num_shape: str | None, var_kind: str | None,
                 gradient: bool = False) -> object:
        """The Jacobian ``jac`` of ``pt``, or one entry per free index."""
        pos = pt.pos
        if num_shape is None and (pt.num_index or pt.var_index):
            raise _err(f"\\partial {pt.num}: the shape of {pt.num} is not known here, so an "
                       "entry of its derivative cannot be read", pos, self.file,
                       f"define {pt.num} before this equation")
        if pt.num_index and pt.var_index:
            return self._jacobian_entry(pt, jac, num_shape, var_kind)
        if pt.num_index:  # d y_i / d gamma: entry i of a vector
            if var_kind != "scalar" or num_shape != "column":
                raise _err(f"\\partial {pt.num}_{pt.num_index}/\\partial {pt.var}: a row of "
                           "a Jacobian", pos, self.file, f"write \\frac{{\\partial {pt.num}}}"
                           f"{{\\partial {pt.var}}} for the whole matrix")
            return Indexed(pt.num, pt.num_index, pos, jac)
        if pt.var_index:  # d mu / d x_i: entry i of the gradient
            if var_kind == "scalar" and pt.var in self.env.affine:
                # d\gamma_i with the scalar gamma: a per-element parameter needs the option,
                # which a `use` line gives its own block only
                err = _err(f"\\partial {pt.num}/\\partial {pt.var}_{pt.var_index}: an entry "
                           f"of {pt.var}, which is a scalar in this block", pos, self.file,
                           f"for per-element parameters write `document use "
                           f"...(affine=elementwise)` (use layernorm, use rmsnorm) before the "
                           f"equation's block, or \\frac{{\\partial {pt.num}}}{{\\partial "
                           f"{pt.var}}} for the scalar's derivative")
                # beside a data matrix's entries: the scalar of the vector j names
                from symnorm.lang.latex_row_partials import scalar_at_fixed
                return scalar_at_fixed(self, pt, err, self._entries(
                    replace(pt, var_index=None), jac, num_shape, var_kind, gradient))
            if var_kind != "vector" or num_shape != "scalar":
                raise _err(f"\\partial {pt.num}/\\partial {pt.var}_{pt.var_index}: a column "
                           "of a Jacobian", pos, self.file, f"write \\frac{{\\partial "
                           f"{pt.num}}}{{\\partial {pt.var}}} for the whole matrix")
            return Indexed(pt.num, pt.var_index, pos, jac if gradient else Transpose(jac, pos))
        if gradient or num_shape != "scalar" or var_kind != "vector":
            return jac
        return jac  # d mu / d x: the row vector of derivatives, as written

    def _expr_partial(self, pt: ExprPartial) -> MatrixEntry:
        """``\\partial (x_j - \\mu) / \\partial x_i``: entry (j, i) of the Jacobian of the
        vector of entries by the declared vector x."""
        pos, what = pt.pos, f"\\partial (..)_{pt.num_index} / \\partial {pt.var}_{pt.var_index}"
        if self.kind(pt.var) != "vector":
            raise _err(f"{what}: {pt.var} is not a declared vector; this form differentiates "
                       "by a variable of the document", pos, self.file,
                       f"declare `vector {pt.var}`")
        num, vec = lower(self._partials(pt.num), None, self.file, [], self.env.dimension)
        if not vec:  # pragma: no cover - the parser admits a numerator with one free letter
            raise _err(f"{what}: the numerator is not an entry", pos, self.file)
        if pt.num_index == pt.var_index:  # two readings (latex_same_index.py)
            from symnorm.lang.latex_same_index import expression_entry
            return expression_entry(self, num, pt.var, pt.num_index, "d(..)", pos, what,
                                    "write two indices for the entries")  # type: ignore[return-value]
        jac = Call("jacobian", (num, Name(pt.var, pos)), pos)
        return MatrixEntry(f"d({pt.num})", pt.num_index, pt.var_index, pos, jac)

    def _jacobian_entry(self, pt: Partial, jac: Expr, num_shape: str | None,
                        var_kind: str | None) -> MatrixEntry:
        """``\\partial y_i/\\partial x_j``: entry (i, j) of ``jacobian(y, x)`` (row: the
        numerator's index); the same index on both is refused: sources mean by it the
        local partial along a graph as often as the diagonal entry of the Jacobian."""
        pos, what = pt.pos, f"\\partial {pt.num}_{pt.num_index}/\\partial {pt.var}_{pt.var_index}"
        if pt.num_index == pt.var_index and self._entrywise_in(pt.num, pt.var):
            # y = gamma o xhat + beta: y_i depends on gamma_i alone, so the Jacobian by gamma
            # is diagonal and its diagonal (J * ones) is also the local partial
            return Indexed(pt.num, pt.num_index, pos, BinOp("*", jac, Name("ones", pos), pos))
        if pt.num_index == pt.var_index:  # two readings (latex_same_index.py)
            from symnorm.lang.latex_same_index import same_index_entry
            return same_index_entry(self, pt)  # type: ignore[return-value]
        if num_shape != "column" or var_kind != "vector":
            raise _err(f"{what}: an entry of a Jacobian needs a vector {pt.num} and a "
                       f"declared vector {pt.var}", pos, self.file,
                       f"write the matrix \\frac{{\\partial {pt.num}}}{{\\partial {pt.var}}}")
        return MatrixEntry(pt.num, pt.num_index, pt.var_index, pos, jac)  # type: ignore[arg-type]

    def _entrywise_in(self, out: str, b: str) -> bool:
        """Whether the vocabulary's ``out`` is ``hadamard(b, E) + F`` (or ``E + b``) with E,
        F free of the declared vector b: then jacobian(out, b) is diagonal, and the diagonal
        entry ``\\partial y_i/\\partial\\gamma_i`` has one reading."""
        if out != self.env.output or not (self._vocab(out) or self.env.vocab_let(out)) \
                or self.kind(b) != "vector" or out not in self.env.meanings:
            return False
        terms: list[Expr] = []

        def split(e: Expr) -> None:
            if isinstance(e, BinOp) and e.op == "+":
                split(e.left)
                split(e.right)
            else:
                terms.append(e)
        split(self.env.meanings[out])
        shaped = False
        for t in terms:
            if b not in names_in(t):
                continue
            if isinstance(t, Name) and t.id == b:
                shaped = True
                continue
            if isinstance(t, Call) and t.func == "hadamard" and len(t.args) == 2:
                rest = [a for a in t.args if not (isinstance(a, Name) and a.id == b)]
                if len(rest) == 1 and b not in names_in(rest[0]):
                    shaped = True
                    continue
            return False
        return shaped

    def _data_rows(self, r: RawRel) -> RawRel:
        """``X_{ij}`` of a vector quantity X (``let X = x``): the rows of a data matrix,
        one sample each (:func:`read_data_rows`)."""
        def shape(name: str) -> str | None:
            return self._shape(Name(name, r.pos), set()) if self.defined(name) else None

        left, right = read_data_rows(r.left, r.right, is_row=self.data_row, shape=shape,
                                     vocabs=self.env.vocabs, file=self.file,
                                     shared=lambda n: (self.env.alias(n) or n) in ("gamma", "beta"),
                                     per_vector=self._per_vector)
        return replace(r, left=left, right=right)

    def _per_vector(self, name: str) -> bool:
        """Whether a scalar written at a data matrix's fixed index can be one of each vector:
        its value depends on the input (mu, sigma^2) or it is an affine parameter."""
        if (self.env.alias(name) or name) in ("gamma", "beta") or name in self.env.affine:
            return True
        return self._reaches_expr(Name(name, Pos(1, 1)), "x")

    def data_row(self, name: str) -> bool:
        """Whether ``X_{ij}`` may be an entry of a data matrix whose rows or columns are the
        layer's vectors: X a defined vector quantity (``let X = x``, the vocabulary's
        ``\\hat x``, ``y``) or the vocabulary's input x itself (latex_rows.py)."""
        if name == "x":
            return self.output() is not None and self.env.kind("x") == "vector" \
                and "x" not in self.lets
        if self.kind(name) == "vector":  # CS182's dy_{i,j}: the gradients by the vectors
            from symnorm.lang.latex_row_partials import gradient_row
            return gradient_row(self, name)
        return self.kind(name) == "let" and self._shape(Name(name, Pos(1, 1)), set()) == "column"

    def _matrix_of(self, e: MatrixEntry) -> Expr:
        """The matrix an entry ``A_{ij}`` reads: a declared matrix, or the Kronecker delta."""
        if e.expr is not None:
            return e.expr  # type: ignore[return-value]
        if e.id == "delta" and self.kind("delta") is None:
            return Name("I", e.pos)  # \delta_{ij}: 1 if i = j, else 0
        if self.kind(e.id) == "matrix" or self._shape(Name(e.id, e.pos), set()) == "matrix":
            return Name(e.id, e.pos)
        raise _err(f"{e}: entry ({e.row}, {e.col}) of {e.id}, which is not a matrix here",
                   e.pos, self.file, f"declare `matrix {e.id}`; for the rows of a data matrix "
                   "(one sample each) say which vector of the layer they are, as `let X "
                   "= x` says of X; "
                   "\\delta_{ij} is the Kronecker delta where the document does not "
                   "define delta")

    def _refuse_forward_differential(self, r: RawRel) -> None:
        """``d\\hat x = r\\,dx + x\\,dr`` with ``vector dy``: a tangent, not an adjoint
        (:func:`symnorm.lang.latex_graph.forward_differential`)."""
        from symnorm.lang.latex_graph import forward_differential
        # the left side is what the relation computes (\\nabla \\hat x = dy is an adjoint)
        hit = forward_differential(self, r.left, r.right)
        if hit is None:
            return
        a, b = (f"d{p.var}" + (f"^{p.var_power}" if p.var_power else "") for p in hit)
        raise _err(f"{a} = ... {b} ...: {b} is the differential of a quantity {a[1:]} is "
                   f"computed from, a forward (tangent) differential; with the upstream "
                   f"gradient declared in differential notation, d before a quantity is "
                   f"the loss's derivative by it (reverse mode), in which {a} is a sum "
                   f"over what {a[1:]} feeds: two readings with different values, so the "
                   "relation is not read", hit[1].pos, self.file,
                   "forward differentials are not modelled: state the local partials "
                   "(\\frac{\\partial \\hat x_i}{\\partial r}) or the adjoints "
                   "(d\\hat x_i = dy_i \\gamma)")

    def _where_condition(self, r: RawRel, target: tuple[str, tuple[str, ...], str] | None,
                         before: list[RawRel]) -> list[int]:
        """The chains a where-clause ``\\gamma = 2`` qualifies (after the word where): a free
        symbol (a declared scalar, the vocabulary's affine parameter, d) that earlier relations
        of the equation use, set to a value that does not name it.  It is read as
        ``\\text{if}``: a condition of those relations (a definition would make gamma a
        constant, and a claim ``\\gamma = 2`` is false), so ``\\frac{\\partial y_i}{\\partial
        \\gamma} = \\hat x_i, \\text{ where } \\gamma = 2`` is the partial at gamma = 2."""
        if r.op != "==" or target is None or target[2] != "plain" or not self.documented \
                or not isinstance(r.left, Name) or target[0] in names_in(r.right):
            return []
        name = target[0]
        if not (name == "d" or name in self.env.affine and self._vocab(name)
                or self.env.kind(name) == "scalar"):
            return []
        def written(o: RawRel) -> set[str]:  # the names, those of partials included
            out = names_in(o.left) | names_in(o.right)
            for n in term_nodes(o.left) + term_nodes(o.right):
                if isinstance(n, Partial):
                    out |= {n.num, n.var}
            if self._states_output(o):  # y = 2\hat x uses gamma through y (red team 16)
                out |= set(_affine_params(self.env))
            return out
        at = (r.pos.line, r.pos.col)
        return sorted({o.chain for o in before if o.cond_of == -1 and name in written(o)
                       and any((o.pos.line, o.pos.col) < w < at for w in self.where_marks)})

    def _where_definition(self, r: RawRel, target: tuple[str, tuple[str, ...], str] | None,
                          before: list[RawRel]) -> bool:
        """Whether ``name = ...`` defines a vocabulary name for this equation, as the source's
        own meaning: the equation used the name in an earlier relation (``\\hat x =
        \\frac{x-\\mu}{\\sigma}, \\text{ where } \\sigma = \\sqrt{\\mathrm{Var}[x]+\\epsilon}``), so
        the document says what it means by it (issue 10: the usual meaning "unless the
        document says otherwise").  Alone (``\\sigma = ...``) the relation is a claim about the
        vocabulary's meaning.  A vocabulary's claim-language name that is no LaTeX convention
        (use rmsnorm's ``r``; not the paper's P, c, v, s of use layernorm,
        ``vocab.LATEX_SOURCE_NAMES``) on the left of ``=`` is refused wherever it stands: a
        claim about the vocabulary's quantity or the source's own definition (a Triton README's
        r = 1/RMS(x)), two readings, never guessed."""
        if target is None or target[0] in self.lets or not self.documented:
            return False
        name = target[0]
        private = self.env.vocab_private(name)
        if private is not None:
            vocab, body = private
            raise _err(f"{r.op_text} with {name} on the left: {name} is a claim-language name "
                       f"of the vocabulary (`{vocab}`: let {name} = {body}), not a LaTeX "
                       f"convention of sources, which write the letter for quantities of their "
                       f"own (r: the root mean square or its inverse); the relation could be a "
                       f"claim about the vocabulary's {name} or the source's own definition of "
                       f"{name}, two readings, so it is not read", r.pos, self.file,
                       f"to check the vocabulary's {name}, state it in a symnorm block (`claim "
                       f"LABEL: {name} == ...`); on the right of an equation {name} is the "
                       "vocabulary's")
        # used before (a where-clause): a listing that defines mu and then uses it
        # (\\mu = ..., \\sigma^2 = \\frac1d\\sum_i (x_i-\\mu)^2) states the vocabulary's mu
        used = any(name in names_in(o.left) | names_in(o.right) for o in before
                   if _def_target(o.left) != target)
        if target[2] == "function" and name in self.env.functions and used and (
                "eps" in names_in(self.env.functions[name][1])) != self._writes_eps(r.right):
            # Zhang and Sennrich's \\bar x_i = \\frac{x_i}{\\mathrm{RMS}(x)} g_i \\text{ where }
            # \\mathrm{RMS}(x) = \\sqrt{\\frac1n\\sum_i x_i^2} under use rmsnorm (whose RMS holds
            # eps): the first relation would use the vocabulary's RMS, the source means its own.
            # Where both hold eps or neither does, the relation stays a claim about the
            # vocabulary's RMS (PyTorch's RMSNorm docstring: proved), so a difference shows
            param, body = self.env.functions[name]
            raise _err(f"{r.op_text} defines {name}(...) after the equation used it, "
                       f"{'without' if 'eps' in names_in(body) else 'with'} eps, while the "
                       f"vocabulary gives {name}({param}) the meaning {body}: the relations "
                       f"before could use the vocabulary's {name} or the source's own, two "
                       "readings, so the equation is not read", r.pos, self.file,
                       f"state {name}(...) = ... as an equation of its own (a claim about the "
                       f"vocabulary's {name}), or read the source without the vocabulary (no "
                       "`use` line in its block)")
        if used and not self._vocab(name) and self.env.vocab_let(name) \
                and name in self.env.meanings and (vocab_eps := self._reaches_expr(
                    self.env.meanings[name], "eps")) != self._writes_eps(r.right):
            # an earlier equation gave sigma the vocabulary's meaning (without eps); this one
            # defines it with eps after using it: the order of equations must not decide
            raise _err(f"{r.op_text} defines {name} after the equation used it, "
                       f"{'without' if vocab_eps else 'with'} eps, while an earlier equation "
                       f"read {name} as the vocabulary's "
                       f"{self.env.meanings[name]}: the relations before could use either, two "
                       "readings, so the equation is not read", r.pos, self.file,
                       f"state {name} = ... as an equation of its own, or give the source's "
                       f"quantity another name")
        return used and self._vocab(name)

    def _writes_eps(self, e: object) -> bool:
        """Whether ``e`` as written, or through what it names, depends on eps."""
        return _eps_written(e) or self._reaches_expr(_plain_sides(e), "eps")

    def _relation(self, r: RawRel) -> Relation:
        if needs_matrix(r.left, r.right):
            # the vocabulary's LaTeX functions first (use rmsnorm's \\mathrm{RMS}(x), a scalar)
            r = replace(r, left=self._calls(r.left), right=self._calls(r.right))
            left, right = lower_entries(r.left, r.right, self.file, self._matrix_of,
                                        lambda e: self._shape(e, set()), r.pos)
            return Relation(r.op if r.op not in DEFINERS else "==", left, right, r.pos)
        free: list[str] = []
        dim = self.env.dimension
        left, lv = lower(r.left, None, self.file, free, dim)
        right, rv = lower(r.right, None, self.file, free, dim)
        if lv and not rv:
            right = BinOp("*", right, Name("ones", r.pos), r.pos)
        elif rv and not lv and self._shape(left, set()) != "column":
            # a scalar against entries: every entry equals it.  A vector left side
            # (y = \frac{x_i}{...}\gamma_i) is the entrywise claim y_i = ..., kept as is
            left = BinOp("*", left, Name("ones", r.pos), r.pos)
        return Relation(r.op if r.op not in DEFINERS else "==", left, right, r.pos)

    def _entry_of_vector(self, r: RawRel, name: str, body: Expr,
                         params: tuple[str, ...]) -> None:
        """``z_i = \\hat x`` (PyG's ``\\mathbf x'_i = \\frac{\\mathbf x - ..}{..}``): an entry
        defined as a whole vector has no reading (i could index the vector's entries or the
        rows of a data matrix); an error here rather than the product ``vector * ones``."""
        try:
            shape = self._shape(self._broadcast(self._calls(body), set(params)), set(params))
        except SourceError:
            return  # the shape check of the claim reports it
        if shape == "column":
            raise _err(f"{name}_i = ...: the entry {name}_i is defined as a vector (its right "
                       "side has no indexed entry), so which entries it equals is not said",
                       r.pos, self.file, f"write {name} = ... for the vector, or index the "
                       "right side's entries (x_i)")

    def _define(self, r: RawRel, target: tuple[str, tuple[str, ...], str] | None, *,
                vocabulary_name: bool = False) -> None:
        if target is None:
            raise _err(f"left side of {r.op_text} is not a name, f(args) or x_i", r.pos,
                       self.file, "only a new name can be defined")
        name, params, kind = target
        if isinstance(r.left, Call) and r.left.bind:
            raise _err(f"{r.op_text} cannot define {name} with a value in its subscript",
                       r.pos, self.file, f"define {name} once with its parameter "
                       f"({name}_\\epsilon(x) = ...) and write {name}_0(x) in claims")
        if self.defined(name) and not (vocabulary_name and self._vocab(name)):
            raise _err(f"{r.op_text} redefines {name!r}", r.pos, self.file,
                       "use = to state a claim about a defined name")
        free = [r.left.index] if isinstance(r.left, Indexed) else []
        body, vec = lower(r.right, None, self.file, free, self.env.dimension)
        if kind == "indexed" and not vec:
            self._entry_of_vector(r, name, body, params)
            body = BinOp("*", body, Name("ones", r.pos), r.pos)
        elif kind != "indexed" and vec and not (kind == "plain" and len(set(free)) == 1):
            raise _err(f"the right side has a free index but {name} has none", r.pos,
                       self.file, f"write {name}_i on the left")
        if kind == "squared":  # sigma^2 = E defines sigma = sqrt(E); it is used squared
            body = Call("sqrt", (body,), r.pos)
        if name in names_in(body) and name not in params:
            raise _err(f"{name} is defined in terms of itself", r.pos, self.file)
        # x \rightarrow LN(x) = ...: the map's variable, so its statistics are the argument's
        self.lets[name] = Let(name, params, body, r.pos,
                              of_argument=bool(r.map_var) and params == (r.map_var,))
        if isinstance(r.left, Call):
            self.subscripts[name] = (r.left.params, r.pos)

    def _ordered_lets(self) -> list[Let]:
        lets = dict(self.lets)
        # c=Px, N(x)=c/...: local definitions that use the parameter x are expanded in the
        # body, so N is a function of its argument as the paper means it.
        plain = {n: lt for n, lt in lets.items() if not lt.params}
        for name, lt in lets.items():
            if not lt.params:
                continue
            body = lt.body
            # F(x) = \\gamma \\hat x + \\beta, x the vocabulary's input: its conventional
            # names (\\hat x is BN(x)) are expanded too, so F is a function of its argument
            vocab = {n: m for n, m in self.env.meanings.items() if self._vocab(n)} \
                if lt.params == ("x",) and "x" in VOCAB_INPUTS else {}
            for _ in range(len(plain) + len(vocab) + 1):
                hits = {n: plain[n].body for n in names_in(body) & plain.keys()
                        if _depends(n, plain, set(lt.params), set())}
                hits.update({n: vocab[n] for n in names_in(body) & vocab.keys()
                             if n not in plain and n not in lt.params})
                if not hits:
                    break
                body = subst(body, hits)
            lets[name] = replace(lt, body=body)
            sub, pos = self.subscripts.get(name, ((), lt.pos))
            for p in sub:  # N_\epsilon(x) = ...: the subscript names a parameter it uses
                if p not in names_in(body):
                    raise _err(f"subscript {p} of {name}: the right side does not use {p}",
                               pos, self.file, f"write {p} in the body of {name}, or drop "
                               "the subscript")
        order: list[Let] = []
        done: set[str] = set()

        def visit(n: str, trail: tuple[str, ...]) -> None:
            if n in done:
                return
            if n in trail:
                raise _err(f"circular definitions: {' -> '.join(trail + (n,))}",
                           lets[n].pos, self.file)
            for m in sorted(names_in(lets[n].body) & lets.keys()):
                if m not in lets[n].params:
                    visit(m, trail + (n,))
            done.add(n)
            order.append(lets[n])

        for n in lets:
            visit(n, ())
        return order


def _depends(name: str, plain: dict[str, Let], params: set[str], seen: set[str]) -> bool:
    if name in seen:
        return False
    seen.add(name)
    used = names_in(plain[name].body)
    return bool(used & params) or any(_depends(m, plain, params, seen)
                                      for m in used & plain.keys())


def _def_target(e: object) -> tuple[str, tuple[str, ...], str] | None:
    """What ``e = ...`` would define: (name, params, kind) or None if not definable."""
    if isinstance(e, Name) and e.id not in BUILTIN_NAMES:
        return e.id, (), "plain"
    if isinstance(e, Indexed) and e.expr is None:  # not an entry of a derivative
        return e.id, (), "indexed"
    if isinstance(e, Call) and e.batch is None and e.func not in BUILTIN_NAMES \
            and e.func not in (SUM_ENTRIES, SUM_SQUARES, SUM_TERM, SUM_SCALED,
                               REDUCE_MEAN):  # \sum x = ..., ReduceMean(X) = ...: never a definition
        ids = [a.id for a in e.args if isinstance(a, Name)]
        if len(ids) == len(e.args) and len(set(ids)) == len(ids):
            return e.func, tuple(ids), "function"
    if (isinstance(e, BinOp) and e.op == "**" and isinstance(e.left, Name)
            and isinstance(e.right, Num) and e.right.value == 2
            and e.left.id not in BUILTIN_NAMES):
        return e.left.id, (), "squared"
    return None


def _placed(e: Any, pos: Pos) -> Any:
    """``e`` with every node at ``pos``: a vocabulary meaning parsed from the vocabulary's
    own text carries positions in that text, which an error must never show as the
    document's (it pointed at ``line 1:17`` of the document, outside the equation)."""
    if isinstance(e, BinOp):
        return replace(e, left=_placed(e.left, pos), right=_placed(e.right, pos), pos=pos)
    if isinstance(e, (Neg, Transpose)):
        return replace(e, operand=_placed(e.operand, pos), pos=pos)
    if isinstance(e, Call):
        return replace(e, args=tuple(_placed(a, pos) for a in e.args),
                       batch=None if e.batch is None else tuple(_placed(b, pos)
                                                                for b in e.batch),
                       bind=tuple((k, _placed(v, pos)) for k, v in e.bind), pos=pos)
    if isinstance(e, VectorLit):
        return replace(e, items=tuple(_placed(i, pos) for i in e.items), pos=pos)
    if hasattr(e, "pos"):
        return replace(e, pos=pos)
    return e


def _writes_affine(toks: list[Any], affine: tuple[str, ...],
                   aliases: dict[str, str] | None = None) -> bool:
    """Whether the equation writes an affine parameter (``\\gamma``, ``\\text{beta}``, a
    derivative by one, an alias ``g`` of ``let g = gamma``): then the output name keeps its
    affine meaning."""
    names = {GREEK.get(t.text, t.text) for t in toks}
    names |= {aliases[n] for n in names if n in (aliases or {})}
    letters = "".join(t.text for t in toks if len(t.text) == 1)
    return any(a in names or a in letters for a in affine)


def _eps_written(e: object) -> bool:
    """Whether ``e`` writes eps itself (``\\epsilon`` as a token, not through a definition)."""
    return any(isinstance(n, (Name, Indexed, MatrixEntry)) and n.id == "eps"
               for n in term_nodes(e))


def _plain_sides(e: object) -> Expr:
    """A stand-in of a side for dependency questions: its names as one sum (index nodes and
    derivatives included by name)."""
    pos = Pos(1, 1)
    total: Expr = Num(Fraction(0), pos)
    for n in sorted(names_in(e)):
        total = BinOp("+", total, Name(n, pos), pos)
    return total


def _square_base(e: Expr) -> Expr:
    """``u`` of ``u^2``, else ``e``."""
    return e.left if _square(e) else e  # type: ignore[union-attr]


def _square(e: object) -> bool:
    """``u^2``: a power 2 of a non-number."""
    return (isinstance(e, BinOp) and e.op == "**" and isinstance(e.right, Num)
            and e.right.value == 2 and not isinstance(e.left, Num))


def _simple(e: object) -> str:
    if isinstance(e, Name):
        return "name"
    if isinstance(e, Num) or isinstance(e, Neg) and isinstance(e.operand, Num):
        return "num"
    return ""


def _is_scalar_bound(r: RawRel) -> bool:
    """``a>0``, ``d\\ge 2``, ``0<a`` (a name against a number): an assumption, not a claim."""
    return {_simple(r.left), _simple(r.right)} == {"name", "num"}


def _plain(e: object) -> Expr:
    if has_index(e):  # pragma: no cover - _is_scalar_bound admits names and numbers only
        raise ValueError("indexed assumption")
    return e  # type: ignore[return-value]

r"""Per-entry statistics of grouped layers in LaTeX: ``\mathrm{E}[x]``, ``\mu_i``, sums over S_i.

PyTorch's GroupNorm and InstanceNorm docstrings write the layer as LayerNorm's formula,
``y = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x] + \epsilon}} * \gamma + \beta``, where
``\mathrm{E}[x]`` at entry i is the mean of i's group and gamma, beta are per channel; Wu
and He (2018) write ``\mu_i = \frac{1}{m}\sum_{k\in\mathcal S_i} x_k`` with S_i the set of
entries that share i's statistics.  With ``use groupnorm(...)`` or ``use instancenorm(...)``
(d fixed by the shape options) the reader writes such a quantity with a **per-entry symbol**
(``gmu_entry``, ``gvar_entry``, the selector ``gS_entry`` of the entry's group; the gain and
bias ``gamma``, ``beta``) and :func:`per_channel` then states the equation once per
channel c, with the symbols replaced by c's group's statistics (``gmu1``, ``gvar1``,
``gS1``) and c's gain and bias (``ggamma1``, ``gbeta1``)::

    L == R   becomes   sum_c C_c * L_c == sum_c C_c * R_c   (vector sides)
                       sum_c e_c * L_c == sum_c e_c * R_c   (scalar sides)

with ``C_c`` the selector and ``e_c`` the indicator of channel c.  Entry i of the vector
equation is the equation at i with the statistics of i's group: exact, so the entrywise
division by a broadcast statistic is modelled as written, never as one scalar.  That holds
only where each symbol enters entrywise: a symbol inside an inner product, a sum over all
entries, a matrix product, a derivative or a function of a vector would be read at entries
of other groups, so there it is an error naming the construct.  Inside a sum over the set
S_i (``u.T*(gS_entry*w)``, see :mod:`symnorm.lang.latex_index`) the group statistics are
the group's own; the per-channel gain and bias are not (a group holds several channels).

With ``use layernorm`` or ``use batchnorm`` the set S_i is every entry (the one group; the
batch), ``\mu_i`` is the vocabulary's mu and ``m`` the dimension; no symbol is written.

>>> from symnorm.lang.syntax import Pos
>>> reading = EntryReading(prefix="g", sets={"S": "gS_entry"})
>>> sorted(reading.symbols())
['beta', 'gS_entry', 'gamma', 'gmu_entry', 'gvar_entry']
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from symnorm.errors import SourceError
from symnorm.lang.syntax import (
    Assume,
    BinOp,
    Call,
    Claim,
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
    nodes,
)

if TYPE_CHECKING:
    from symnorm.lang.context import Scope

__all__ = ["EntryReading", "IndexSet", "check_statement", "entry_reading", "leftover_symbol",
           "per_channel",
           "sigma_forms"]

#: The readings of an undefined sigma under a grouped vocabulary (named in its error).
SIGMA_READINGS = ("sqrt(Var[x]), the standard deviation without eps that "
                  "\\sqrt{\\sigma^2+\\epsilon} sources mean", "Wu and He's "
                  "\\sigma_i = \\sqrt{\\frac{1}{m}\\sum_{k\\in\\mathcal S_i}(x_k-\\mu_i)^2"
                  "+\\epsilon}, which holds eps")


@dataclass(frozen=True)
class EntryReading:
    """What the block's vocabularies say about per-entry statistics (None prefix: no
    grouped vocabulary, so statistics are scalars and S is every entry)."""

    #: the grouped vocabulary's prefix (``g``, ``i``), or None
    prefix: str | None = None
    #: index-set letter -> the per-entry selector symbol (None: every entry)
    sets: dict[str, str | None] = field(default_factory=dict)
    #: the vocabulary's name, for messages (``use groupnorm``)
    uses: str = ""
    #: why E[x] and Var[x] have no single reading here (two vocabularies), else ""
    clash: str = ""
    #: whether sigma has a vocabulary meaning here (LayerNorm's sqrt(v), without eps)
    sigma_meaning: bool = False
    #: mu, sigma where the document declares them as vectors or matrices
    vectors: frozenset[str] = frozenset()

    def symbols(self) -> set[str]:
        """The per-entry symbols the reader writes (and :func:`per_channel` replaces)."""
        if self.prefix is None:
            return set()
        p = self.prefix
        return {f"{p}mu_entry", f"{p}var_entry", f"{p}S_entry", "gamma", "beta"}


@dataclass(frozen=True)
class IndexSet:
    r"""``k \in \mathcal S_i``: the sum's index and the selector of the set (None: every
    entry), as the sum reader of :mod:`symnorm.lang.latex_atoms` takes it."""

    index: str
    select: str | None


def reading_for(reading: EntryReading | None, toks: list[Any]) -> EntryReading | None:
    r"""The reading an equation gets: with a grouped vocabulary always; with LayerNorm's
    or BatchNorm's set of every entry only in an equation that sums over it (elsewhere
    ``\mu_i`` keeps its old reading: an entry of a vector, as NeMo's row means)."""
    if reading is None or reading.prefix is not None or reading.clash:
        return reading
    texts = [t.text for t in toks]
    for k, t in enumerate(texts):
        if t == "\\in" and any(x in reading.sets for x in texts[k + 1:k + 4]):
            return reading
    return None


def entry_reading(vocabs: list[str], meanings: set[str] | dict[str, Any],
                  vectors: set[str] | frozenset[str] = frozenset()) -> EntryReading | None:
    """The reading of the vocabularies ``vocabs`` in force (None when none names a set).

    ``meanings``: the conventional names the block gives a vocabulary meaning; ``vectors``:
    ``mu``, ``sigma`` where the document declares them as vectors or matrices (then
    ``\\mu_i`` is an entry of the document's vector).
    """
    from symnorm.lang.vocab import GROUPED, LATEX_INDEX_SETS
    named = [v for v in vocabs if v in LATEX_INDEX_SETS]
    if not named:
        return None
    grouped = [v for v in named if v in GROUPED]
    stats = [v for v in vocabs if v in ("layernorm", "batchnorm", "rmsnorm") or v in GROUPED]
    uses = ", ".join(f"use {v}" for v in named)
    clash = ""
    if grouped and len(stats) > 1:
        clash = (f"the block's vocabularies ({', '.join('use ' + v for v in stats)}) give "
                 "the statistics of x different groups")
    sets: dict[str, str | None] = {}
    for v in named:
        for letter, sel in LATEX_INDEX_SETS[v].items():
            if letter in sets and sets[letter] != sel:
                clash = clash or f"{uses} give the set {letter} different entries"
            sets.setdefault(letter, sel)
    prefix = GROUPED[grouped[0]] if len(grouped) == 1 and not clash else None
    return EntryReading(prefix, sets if not clash else {}, uses, clash,
                        "sigma" in meanings, frozenset(vectors))


# --- the parser's hooks -----------------------------------------------------------------

def group_statistic(p: Any, name: str, arg: Expr, t: Any) -> Expr | None:
    r"""``\mathrm{E}[x]``, ``\mathrm{Var}[x]`` under a grouped vocabulary: the per-entry
    mean or (biased) variance of x's group; None where the block has no grouped vocabulary
    (the caller reads the statistic of all entries)."""
    reading: EntryReading | None = getattr(p, "entries", None)
    if reading is None or name not in ("E", "Var"):
        return None
    if reading.clash:
        raise p.err(f"{name}[...]: {reading.clash}", t,
                    "use one vocabulary in the block of this equation")
    if reading.prefix is None:
        return None
    if not (isinstance(arg, Name) and arg.id == "x"):
        raise p.err(f"{name}[{arg}] with {reading.uses}: the per-group statistics are "
                    "those of the input x", t, "write \\mathrm{E}[x], \\mathrm{Var}[x]")
    which = "mu" if name == "E" else "var"
    return Name(f"{reading.prefix}{which}_entry", p.pos(t))


def entry_statistic(p: Any, name: str, index: str, t: Any) -> Expr | None:
    r"""``\mu_i``, ``\sigma_i`` (Wu and He): the statistic of entry i's group, the name
    without the index (the per-channel statement makes it i's); None for other names, for a
    vector of the document (``\mu_i`` its entry) or where no vocabulary names a set."""
    reading: EntryReading | None = getattr(p, "entries", None)
    if reading is None or name not in ("mu", "sigma"):
        return None
    if name in reading.vectors:
        return None
    if name == "sigma" and reading.sigma_meaning and not p.own(name):
        raise p.err("\\sigma_i: sources mean two things by it, and the vocabulary's sigma is "
                    "one of them: " + "; ".join(SIGMA_READINGS), t,
                    "write \\sqrt{\\sigma^2+\\epsilon} for the vocabulary's reading, or use "
                    "groupnorm(...)/instancenorm(...) (groups=1 is LayerNorm of the "
                    "sample), where an equation sigma_i = ... defines it")
    return Name(name, p.pos(t))


def entry_variance(p: Any, node: Expr, sup: object, t: Any) -> Expr | None:
    r"""``\sigma^2``, ``\sigma_i^2`` under a grouped vocabulary where nothing defines sigma:
    the variance of the entry's group (read here, so the reader knows it is a scalar);
    None otherwise (a bare sigma is judged by :func:`sigma_forms`)."""
    reading: EntryReading | None = getattr(p, "entries", None)
    if reading is None or reading.prefix is None or not isinstance(node, Name) \
            or node.id != "sigma" or p.own("sigma") or p.defined("sigma"):
        return None
    if isinstance(sup, Num) and sup.value == 2:
        return Name(f"{reading.prefix}var_entry", p.pos(t))
    return None


def index_set(p: Any, k: Any, word: str, s: Any) -> IndexSet | None:
    r"""``\sum_{k\in\mathcal S_i}``: the index set ``word`` the vocabulary names, with its
    subscript (the entry whose group it is) consumed; None when no vocabulary names it."""
    reading: EntryReading | None = getattr(p, "entries", None)
    if reading is not None and (k.text not in ("i", "j", "k") or p.defined(k.text)):
        return None  # \sum_{x\in\mathcal S}: an element, not an index (the old reading)
    if reading is None or word not in reading.sets or p.defined(word):
        if reading is not None and reading.clash and word == "S":
            raise p.err(f"a sum over the set S: {reading.clash}", s)
        return None
    if p.at("_"):
        u = p.next()
        braced = p.at("{")
        if braced:
            p.next()
        i = p.next("the entry of the set")
        if i.text not in ("i", "j", "k") or i.text == k.text:
            raise p.err(f"the set {word}_{i.text}: the subscript names the entry whose group "
                        f"the set is (i, j or k, not the sum's index {k.text})", u)
        if braced:
            p.expect("}", u)
    return IndexSet(k.text, reading.sets[word])


# --- sigma under a grouped vocabulary ---------------------------------------------------

def sigma_forms(stmts: list[Statement], reading: EntryReading | None, defined: Any,
                file: str) -> list[Statement]:
    r"""Under a grouped vocabulary sigma has no vocabulary meaning (its two readings are
    :data:`SIGMA_READINGS`): where neither the document nor this equation defines it,
    ``\sigma^2`` is the group variance and any other sigma an error naming both readings."""
    if reading is None or reading.prefix is None:
        return stmts
    var = Name(f"{reading.prefix}var_entry", Pos(1, 1))
    own = {st.name for st in stmts if isinstance(st, Let)}
    if defined("sigma") or "sigma" in own:
        return stmts

    def fix(e: Expr) -> Expr:
        if isinstance(e, BinOp) and e.op == "**" and isinstance(e.left, Name) \
                and e.left.id == "sigma" and isinstance(e.right, Num) and e.right.value == 2:
            return replace(var, pos=e.pos)
        if isinstance(e, Name) and e.id == "sigma":
            raise SourceError("sigma with " + reading.uses + " means one of two things: "
                              + "; ".join(SIGMA_READINGS), file, e.pos.line, e.pos.col,
                              "write \\sigma^2 (the group variance) or \\mathrm{Var}[x], or "
                              "define sigma first (Wu and He's eq. (2) does)")
        return _map(e, fix)

    out: list[Statement] = []
    for st in stmts:
        if isinstance(st, Claim):
            rel = st.relation
            st = replace(st, relation=replace(rel, left=fix(rel.left), right=fix(rel.right)))
        elif isinstance(st, Let):
            st = replace(st, body=fix(st.body))
        out.append(st)
    return out


def check_statement(st: Statement, scope: Scope, reading: EntryReading | None,
                    file: str) -> None:
    """Refuse a per-entry symbol where the per-channel statement cannot carry it: in a
    definition where it is not entrywise, in an assumption or a condition (those are not
    stated per channel)."""
    if reading is None or reading.prefix is None:
        return
    symbols = reading.symbols() - {"gamma", "beta"}
    if isinstance(st, Let) and not st.params:
        _entrywise(_light(st.body, scope, symbols | {"gamma", "beta"}), scope,
                   reading.prefix, file)
        return
    rels = [st.relation] if isinstance(st, Assume) else list(st.given) + list(
        st.local_assumptions) if isinstance(st, Claim) else []
    for r in rels:
        for side in (r.left, r.right):
            if _has(_light(side, scope, symbols), symbols):
                raise SourceError(f"a condition or assumption on the per-group statistics of "
                                  f"{reading.uses}: it would hold for one symbol, not per "
                                  "group", file, r.pos.line, r.pos.col,
                                  "state it as an equation of its own")


def _map(e: Expr, f: Any) -> Expr:
    """``e`` with ``f`` applied to its children."""
    if isinstance(e, BinOp):
        return BinOp(e.op, f(e.left), f(e.right), e.pos)
    if isinstance(e, Neg):
        return Neg(f(e.operand), e.pos)
    if isinstance(e, Transpose):
        return Transpose(f(e.operand), e.pos)
    if isinstance(e, VectorLit):
        return VectorLit(tuple(f(i) for i in e.items), e.pos)
    if isinstance(e, Call):
        return replace(e, args=tuple(f(a) for a in e.args),
                       batch=tuple(f(b) for b in e.batch) if e.batch is not None else None,
                       bind=tuple((k, f(v)) for k, v in e.bind))
    return e


# --- the per-channel statement ------------------------------------------------------------

def _layout(scope: Scope, prefix: str) -> list[int]:
    """The group index (1-based) of each channel, read from the vocabulary's indicators."""
    def literal(name: str) -> list[Fraction] | None:
        let = scope.lets.get(name)
        e = let.expanded if let is not None else None
        if not isinstance(e, VectorLit) or not all(isinstance(i, Num) for i in e.items):
            return None
        return [i.value for i in e.items]  # type: ignore[union-attr]
    groups: list[list[Fraction]] = []
    while (g := literal(f"{prefix}e{len(groups) + 1}")) is not None:
        groups.append(g)
    out: list[int] = []
    while (c := literal(f"{prefix}c{len(out) + 1}")) is not None:
        first = c.index(1)
        out.append(next(k for k, g in enumerate(groups, start=1) if g[first] == 1))
    return out


def leftover_symbol(e: Expr) -> str | None:
    """A per-entry symbol (``gmu_entry``) in an expanded claim, or None: such a symbol has a
    meaning only inside a LaTeX equation, stated per channel."""
    for n in nodes(e):
        if isinstance(n, Name) and n.id[1:] in ("mu_entry", "var_entry", "S_entry") \
                and n.id[0] in "gi":
            return n.id
    return None


def per_channel(st: Statement, scope: Scope, reading: EntryReading | None,
                file: str) -> Statement:
    """The claim ``st`` stated once per channel (module docstring) when it uses a per-entry
    symbol or the per-channel gain or bias; anything else unchanged."""
    if reading is None or reading.prefix is None or not isinstance(st, Claim):
        return st
    symbols = reading.symbols()
    rel = st.relation
    left, right = _light(rel.left, scope, symbols), _light(rel.right, scope, symbols)
    if not any(_has(side, symbols) for side in (left, right)):
        return st
    prefix = reading.prefix
    for a in ("gamma", "beta"):
        if (a in scope.vectors or a in scope.matrices) and any(_has(s, {a}) for s in (left, right)):
            raise SourceError(f"{a} is declared by the document as a vector or matrix, while "
                              f"with {reading.uses} the LaTeX {a} is the per-channel "
                              f"{'gain' if a == 'gamma' else 'bias'} (one scalar per channel, "
                              "stated per channel)", file, rel.pos.line, rel.pos.col,
                              f"drop the declaration, or write the vocabulary's {prefix}{a}1, "
                              f"{prefix}{a}2, ... in a symnorm block")
    for side in (left, right):
        _entrywise(side, scope, prefix, file)
    if rel.op != "==":
        raise SourceError(f"{rel.op} with the per-group statistics of {reading.uses}: an "
                          "entrywise inequality is one claim per entry, not modelled",
                          file, rel.pos.line, rel.pos.col, "state the equation (=)")
    shapes = {_shape(scope, left), _shape(scope, right)}
    if len(shapes) != 1 or shapes - {"scalar", "vector"}:
        raise SourceError(f"the sides of {st.label} have shapes {' and '.join(sorted(shapes))}"
                          f": with {reading.uses} an equation with per-group statistics is "
                          "read entrywise, so both sides are scalars or both vectors", file,
                          rel.pos.line, rel.pos.col)
    vector = shapes == {"vector"}
    groups = _layout(scope, prefix)
    if not groups:  # pragma: no cover - the vocabulary defines its indicators
        raise SourceError(f"{reading.uses}: its channels are not defined here", file,
                          rel.pos.line, rel.pos.col)

    def state(side: Expr) -> Expr:
        if not _has(side, symbols):  # the same at every channel: sum_c C_c v = v
            return side if vector else BinOp("*", side, Name("ones", side.pos), side.pos)
        total: Expr | None = None
        for c, g in enumerate(groups, start=1):
            names = {f"{prefix}mu_entry": f"{prefix}mu{g}", f"{prefix}var_entry":
                     f"{prefix}var{g}", f"{prefix}S_entry": f"{prefix}S{g}",
                     "gamma": f"{prefix}gamma{c}", "beta": f"{prefix}beta{c}"}
            sel = Name(f"{prefix}{'C' if vector else 'c'}{c}", side.pos)
            term = BinOp("*", sel, _rename(side, names), side.pos)
            total = term if total is None else BinOp("+", total, term, side.pos)
        assert total is not None
        return total

    return replace(st, relation=Relation("==", state(left), state(right), rel.pos))


def per_channel_reading(st: Statement, scope: Scope, reading: EntryReading | None
                        ) -> Statement:
    """A claim's other reading (``gamma == 1, beta == 0``, :class:`Claim`) with the grouped
    vocabularies' per-channel gain and bias: ``ggamma1 == 1, ggamma2 == 1, ...``."""
    if reading is None or reading.prefix is None or not isinstance(st, Claim) \
            or not st.other_reading:
        return st
    prefix, out = reading.prefix, []
    channels = range(1, len(_layout(scope, prefix)) + 1)
    for rel in st.other_reading:
        a = rel.left.id if isinstance(rel.left, Name) else ""
        if a not in ("gamma", "beta"):
            out.append(rel)
            continue
        out += [replace(rel, left=Name(f"{prefix}{a}{c}", rel.left.pos)) for c in channels]
    return replace(st, other_reading=tuple(out))


def _set_sum(e: Expr, sel: str) -> bool:
    """Whether ``e`` is a sum over the set S_i (``sum(S*v)``, ``u.T*(S*w)``) or a product
    chain with one as a factor."""
    if isinstance(e, Call) and e.func == "sum" and len(e.args) == 1:
        a = e.args[0]
        return isinstance(a, BinOp) and a.op == "*" and isinstance(a.left, Name) \
            and a.left.id == sel
    if isinstance(e, BinOp) and e.op in ("*", "/"):
        r = e.right
        if e.op == "*" and isinstance(e.left, Transpose) and isinstance(r, BinOp) \
                and r.op == "*" and isinstance(r.left, Name) and r.left.id == sel:
            return True
        return _set_sum(e.left, sel) or e.op == "*" and _set_sum(e.right, sel)
    return False


def _has(e: Expr, which: set[str]) -> bool:
    return any(isinstance(n, Name) and n.id in which for n in nodes(e))


def _shape(scope: Scope, e: Expr) -> str:
    return scope.shape(scope.expand(e, {}))


def _light(e: Expr, scope: Scope, symbols: set[str]) -> Expr:
    """``e`` with the definitions that reach a per-entry symbol replaced by their bodies
    (``mu``: ``gmu_entry``; the equation's own sigma), the others kept by name (``y``,
    ``xhat``), so the statement per channel reads as the source wrote it."""
    if isinstance(e, Name):
        let = scope.lets.get(e.id)
        if let is not None and not let.stmt.params and let.expanded is not None \
                and _has(let.expanded, symbols):
            return _light(let.stmt.body, scope, symbols)
        return e
    return _map(e, lambda x: _light(x, scope, symbols))


def _rename(e: Expr, names: dict[str, str]) -> Expr:
    if isinstance(e, Name) and e.id in names:
        return Name(names[e.id], e.pos)
    return _map(e, lambda x: _rename(x, names))


def _entrywise(e: Expr, scope: Scope, prefix: str, file: str, inside: bool = False) -> None:
    """Refuse a per-entry symbol where it would not enter entrywise (module docstring).

    ``inside``: within a sum over the set S_i, where the group statistics are the group's
    own but the per-channel gain and bias are not."""
    group = {f"{prefix}mu_entry", f"{prefix}var_entry"}
    channel = {"gamma", "beta"}
    sel = f"{prefix}S_entry"

    def has(x: Expr, which: set[str]) -> str | None:
        return next((n.id for n in nodes(x) if isinstance(n, Name) and n.id in which), None)

    found = has(e, group | channel | {sel})
    if found is None:
        return

    def refuse(what: str, at: Expr) -> SourceError:
        shown = {f"{prefix}mu_entry": "the group mean", f"{prefix}var_entry":
                 "the group variance", sel: "the set S_i", "gamma": "the per-channel gain "
                 "gamma", "beta": "the per-channel bias beta"}.get(found, found)
        return SourceError(f"{shown} inside {what}: there it would be read at the entries "
                           "of other groups (or channels)", file, at.pos.line, at.pos.col,
                           "write the statistic entrywise ((x_i - \\mu_i)/\\sigma_i), or "
                           "sum over the group: \\sum_{k\\in\\mathcal S_i}")

    if inside and has(e, channel):
        found = has(e, channel)
        raise refuse("a sum over the set S_i (a group holds several channels)", e)
    if isinstance(e, Name):
        if e.id == sel:
            raise refuse("a product that is not a sum over S_i", e)
        return
    if isinstance(e, Neg):
        _entrywise(e.operand, scope, prefix, file, inside)
        return
    if isinstance(e, BinOp) and e.op in ("+", "-", "/", "**"):
        if e.op != "+" and e.op != "-" and _shape(scope, e.right) != "scalar":
            raise refuse(f"a {e.op} by a vector", e)
        _entrywise(e.left, scope, prefix, file, inside)
        _entrywise(e.right, scope, prefix, file, inside)
        return
    if isinstance(e, BinOp) and e.op in ("*", "@"):
        # u.T*(S_entry*w): the sum over the entry's group (latex_index._lower_sum)
        r = e.right
        if isinstance(e.left, Transpose) and isinstance(r, BinOp) and r.op == "*" \
                and isinstance(r.left, Name) and r.left.id == sel \
                and has(r.right, {sel}) is None and has(e.left, {sel}) is None:
            _entrywise(e.left.operand, scope, prefix, file, True)
            _entrywise(r.right, scope, prefix, file, True)
            return
        for one, other in ((e.left, e.right), (e.right, e.left)):
            if _set_sum(one, sel) and has(other, channel):
                found = has(other, channel)
                raise refuse("a product with a sum over the set S_i (the gain of which "
                             "channel? a group holds several channels)", e)
        a, b = _shape(scope, e.left), _shape(scope, e.right)
        if a != "scalar" and b != "scalar":
            raise refuse("an inner or matrix product" if a == "row vector"
                         else "a matrix product", e)
        _entrywise(e.left, scope, prefix, file, inside)
        _entrywise(e.right, scope, prefix, file, inside)
        return
    if isinstance(e, Call) and e.func in ("sqrt", "abs", "exp", "log") and len(e.args) == 1 \
            and _shape(scope, e.args[0]) == "scalar":
        _entrywise(e.args[0], scope, prefix, file, inside)
        return
    if isinstance(e, Call) and e.func == "sum" and len(e.args) == 1 \
            and isinstance(a := e.args[0], BinOp) and a.op == "*" \
            and isinstance(a.left, Name) and a.left.id == sel and has(a.right, {sel}) is None:
        _entrywise(a.right, scope, prefix, file, True)  # sum(S_entry*v): over the group
        return
    if isinstance(e, Call) and e.func == "hadamard":
        for a in e.args:
            _entrywise(a, scope, prefix, file, inside)
        return
    what = f"{e.func}(...)" if isinstance(e, Call) else "a transpose" \
        if isinstance(e, Transpose) else type(e).__name__
    raise refuse(what, e)


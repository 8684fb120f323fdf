"""From statements to self-contained claims: name resolution, macro expansion, shapes.

A :class:`Scope` accumulates declarations, definitions and assumptions in document order.
Each claim is turned into a :class:`PreparedClaim`: its relation with every ``let`` and
vocabulary name expanded away (only declared symbols, ``I``, ``ones``, ``d`` and the
built-in functions remain), shapes checked, and everything an engine needs attached.
Prepared claims are plain frozen data, so they can be pickled to a worker process.

>>> from symnorm.lang.parser import parse_statement
>>> sc = Scope("doc.md")
>>> for line in ["vector x", "scalar eps", "let c = x - ones*ones.T*x/d",
...              "claim z: ones.T*c == 0"]:
...     sc.add(parse_statement(line))
>>> str(sc.claims[0].relation)
'ones.T * (x - ones * ones.T * x / d) == 0'
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, fields
from fractions import Fraction

from ..errors import LimitError, SourceError, SpecError
from .syntax import (
    Assume,
    BinOp,
    Call,
    Claim,
    Declare,
    Expr,
    Figure,
    Let,
    Name,
    Neg,
    Num,
    Pos,
    Relation,
    Statement,
    Transpose,
    Use,
    VectorLit,
    nodes,
)

__all__ = ["BUILTIN_FUNCTIONS", "COL", "MAT", "ROW", "SCALAR", "PreparedClaim", "Scope"]

SCALAR, COL, ROW, MAT = "scalar", "vector", "row vector", "matrix"
BUILTIN_NAMES = ("I", "ones", "d")
#: functions the engines implement; ``norm``, ``sum``, ``mean`` and ``BN(t; [..])`` are
#: rewritten into these during expansion.
BUILTIN_FUNCTIONS = ("sqrt", "abs", "exp", "log", "trace", "jacobian", "hadamard", "diag")
SUGAR_FUNCTIONS = ("norm", "sum", "mean", "tanh")
MAX_NODES = 200_000
MAX_POWER = 64  # integer exponent cap for matrix powers and literal powers


@dataclass(frozen=True)
class PreparedClaim:
    """Everything an engine needs to decide one claim, with no reference to text."""

    label: str
    file: str
    pos: Pos
    relation: Relation
    given: tuple[Relation, ...]
    assumptions: tuple[Relation, ...]
    scalars: tuple[str, ...]
    vectors: tuple[str, ...]
    matrices: tuple[str, ...]
    d_value: int | None
    statement: str
    source: str = ""
    origin: str = "text"
    assumption_text: tuple[str, ...] = ()
    #: where the claim as written has two readings (:class:`Claim`): the error it is unless
    #: both readings give one verdict, and the hypotheses of the other reading
    needs_proof: str = ""
    other_reading: tuple[Relation, ...] = ()
    #: the claim in the equation's other reading (:class:`Claim`), decided beside this one
    alternative: PreparedClaim | None = None
    readings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass
class _Def:
    stmt: Let
    expanded: Expr | None = None
    #: depends on a setting of its block (a `use` with options, d fixed in the block):
    #: the name is gone when the block ends
    local: bool = False
    #: the settings its meaning depends on, as shown in the verdicts of claims that use it
    settings: tuple[str, ...] = ()
    block: int = 0  # first line of the block that defined it
    meaning: Expr | None = None  # the expanded body (parameters as names)
    origin: str = ""  # the `use` line that brought it, if any
    #: a LaTeX equation gave it a vocabulary's conventional meaning: the vocabularies of its
    #: block and the equation (``use layernorm, equation fC1``), for errors naming both
    vocab: str = ""
    deps: frozenset[str] = frozenset()  # the definitions it uses, directly or not
    #: the layer names of the vocabularies in force where it was defined: a definition of
    #: LN made where LN named no layer never gives LN(x) its meaning in a block where it does
    layer_names: frozenset[str] = frozenset()


@dataclass
class _Setting:
    """Where a setting came from; ``document`` settings outlive their block."""

    text: str
    document: bool = False


@dataclass
class Scope:
    """Declarations, definitions and assumptions in force at a point of a document.

    Scope rules (docs/claims.md): names (declarations, definitions, vocabulary names) hold
    for the rest of the document; settings (``assume``, ``let d = N``, the options of a
    ``use`` line) hold to the end of their fenced block, unless stated with ``document``;
    a definition that depends on a block's setting ends with the block.
    """

    file: str
    scalars: dict[str, Pos] = field(default_factory=dict)
    vectors: dict[str, Pos] = field(default_factory=dict)
    matrices: dict[str, Pos] = field(default_factory=dict)
    lets: dict[str, _Def] = field(default_factory=dict)
    assumptions: list[Relation] = field(default_factory=list)
    d_value: int | None = None
    #: parallel to ``assumptions``: the text a verdict shows, and whether it is document-wide
    assumption_origin: list[_Setting] = field(default_factory=list)
    d_origin: _Setting | None = None
    block_line: int = 0  # first line of the current block (0: not in a block)
    #: document-wide definitions a `use` with options shadows until its block ends
    shadowed: dict[str, _Def] = field(default_factory=dict)
    #: local definitions whose block has ended: name -> why it is gone (for the error)
    gone: dict[str, str] = field(default_factory=dict)
    #: ``let B = beta`` where ``beta`` is only a LaTeX name of the block's vocabulary (no
    #: claim-language meaning): alias -> (the LaTeX name, the line of the let); LaTeX
    #: equations read the alias as that name
    latex_aliases: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: the affine parameters a LaTeX equation declared as its vocabulary's (``gamma`` of use
    #: batchnorm, declared where an equation first uses it): still the vocabulary's after
    vocab_declared: set[str] = field(default_factory=set)
    #: while the statements of a LaTeX equation are added (document.py): its definitions
    #: (``z = y``) are of the meaning the name has there, never aliases that follow a name
    in_latex: bool = False
    #: a vocabulary's function that the document's own value of the same name shadows
    #: (``let N = d`` under use layernorm, Triton's count): name -> (the name the
    #: vocabulary's function keeps, the line of the document's let)
    shadowed_functions: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: the functions the document's own statements applied (``N(x)`` in a claim)
    applied: set[str] = field(default_factory=set)
    #: (local, settings note, use text) while a `use` adds its lines
    _using: tuple[bool, str, str] | None = None
    #: while a `use` with options adds its lines: the names only its options declare
    _option_decls: frozenset[str] = frozenset()
    vocabs: list[str] = field(default_factory=list)
    #: the vocabularies the current block `use`s, and those stated `document use`: the LaTeX
    #: meanings of conventional names come from these (docs/latex.md)
    block_vocabs: list[str] = field(default_factory=list)
    document_vocabs: list[str] = field(default_factory=list)
    #: vocabularies used with ``affine=elementwise`` in this block or document-wide (vector
    #: gamma, beta; LaTeX reads them so)
    elementwise: set[str] = field(default_factory=set)
    document_elementwise: set[str] = field(default_factory=set)
    #: vocabularies used with ``affine=none`` (the layer without gain and bias) or
    #: ``affine=gain`` (a scalar gain, no bias) in this block or document-wide: vocabulary ->
    #: mode.  Without one, the LaTeX output y has both (an equation that drops them is
    #: refused as two readings, docs/latex.md)
    affine_modes: dict[str, str] = field(default_factory=dict)
    document_affine_modes: dict[str, str] = field(default_factory=dict)
    #: declarations of a `use` line with options (affine=elementwise's vector gamma, beta):
    #: they end with the block (name -> the `use` text and line)
    local_decls: dict[str, str] = field(default_factory=dict)
    #: document declarations such a `use` line shadows until its block ends: name -> kind, pos
    shadowed_decls: dict[str, tuple[str, Pos]] = field(default_factory=dict)
    #: the layer letter of LaTeX superscripts (``layer l``: a^l is a), at most one
    layer: str | None = None
    claims: list[PreparedClaim] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)
    #: the base of each ``**`` as written, by the operator's position (for error hints)
    powers: dict[tuple[int, int], str] = field(default_factory=dict)

    # --- statements -------------------------------------------------------------------
    def is_defined(self, name: str) -> bool:
        return (name in self.scalars or name in self.vectors or name in self.matrices
                or name in self.lets or name in BUILTIN_NAMES)

    def is_function(self, name: str) -> bool:
        return name in self.lets and bool(self.lets[name].stmt.params)

    def snapshot(self) -> dict[str, object]:
        """The scope's state, for :meth:`restore`: an equation is atomic, so when one of its
        statements is an error none of the others (its definitions) may stay behind."""
        state: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, dict):
                value = {k: copy.copy(v) if isinstance(v, _Def) else v for k, v in value.items()}
            elif isinstance(value, (list, set)):
                value = copy.copy(value)
            state[f.name] = value
        return state

    def restore(self, state: dict[str, object]) -> None:
        """Go back to a :meth:`snapshot`."""
        for name, value in state.items():
            setattr(self, name, value)

    def _err(self, msg: str, pos: Pos, hint: str = "") -> SourceError:
        return SourceError(msg, self.file, pos.line, pos.col, hint)

    def begin_block(self, line: int) -> None:
        """A fenced block starts at ``line``: block settings from here on are its own."""
        self.end_block()
        self.block_line = line

    def end_block(self) -> None:
        """Drop the block's settings and the definitions that depend on them."""
        for name, d in list(self.lets.items()):
            if d.local:
                del self.lets[name]
                carry = f" (`document {d.origin}` would hold for the rest of the document)" \
                    if d.origin.startswith("use ") else ""  # red team 20: say how to carry it
                self.gone[name] = (
                    f"it came from `{d.origin}` (line {d.stmt.pos.line}), whose definitions "
                    f"belong to its block{carry}"
                    if d.origin else f"its definition (line {d.stmt.pos.line}) depends on "
                    "definitions or a fixed d of that block")
        for name, how in self.local_decls.items():
            for table in (self.scalars, self.vectors, self.matrices):
                table.pop(name, None)
            self.gone[name] = f"its declaration came from `{how}, whose declarations belong " \
                "to its block"
        for name, (kind, pos) in self.shadowed_decls.items():
            self._table(kind)[name] = pos  # the document's declaration is back
            self.gone.pop(name, None)
        self.local_decls, self.shadowed_decls = {}, {}
        self.block_vocabs = []
        self.elementwise = set(self.document_elementwise)
        self.affine_modes = dict(self.document_affine_modes)
        self.lets.update(self.shadowed)  # the document's definitions are back
        for name in self.shadowed:
            self.gone.pop(name, None)
        self.shadowed = {}
        keep = [i for i, o in enumerate(self.assumption_origin) if o.document]
        self.assumptions = [self.assumptions[i] for i in keep]
        self.assumption_origin = [self.assumption_origin[i] for i in keep]
        if self.d_origin is not None and not self.d_origin.document:
            self.d_value, self.d_origin = None, None
        self.block_line = 0

    def add(self, st: Statement, document: bool = False) -> None:
        """Add one statement; raises SourceError for a malformed one.

        ``document``: the statement was written ``document use|assume|let d = ...``, a
        setting for the rest of the document instead of the rest of its block.
        """
        if document and not (isinstance(st, (Use, Assume))
                             or isinstance(st, Let) and st.name == "d" and not st.params):
            raise self._err("`document` applies to settings only: `document use ...`, "
                            "`document assume ...` or `document let d = N`", st.pos,
                            "declarations and definitions hold for the whole document already")
        if self._using is None:  # the document's own statement: the functions it applies
            self.applied |= _applied(st)
        if isinstance(st, Declare):
            for n in st.names:
                self._declare(st.kind, n, st.pos)
        elif isinstance(st, Let):
            self._let(st, document)
        elif isinstance(st, Assume):
            self._assume(st.relation, document)
        elif isinstance(st, Claim):
            self._claim(st)
        elif isinstance(st, Figure):
            from ..report.figures import validate  # the figure registry owns its options
            validate(st.name, st.options, self.file, st.pos.line)
            self.figures.append(st)
        elif isinstance(st, Use):
            self._use(st, document)
        else:  # pragma: no cover - the parser produces nothing else
            raise TypeError(st)

    def _assume(self, rel: Relation, document: bool, text: str = "") -> None:
        self._check_relation(rel)
        where = f"line {rel.pos.line}"
        if not text:
            text = f"{rel} (document-wide, {where})" if document else str(rel)
        if rel.op == "==" and isinstance(rel.left, Name) and rel.left.id == "d":
            self._fix_d(rel.right, rel.pos, _Setting(text, document))
        self._check_consistent(rel)
        self.assumptions.append(rel)
        self.assumption_origin.append(_Setting(text, document))

    def _check_consistent(self, new: Relation) -> None:
        """Refuse an assumption that contradicts an earlier bound on the same symbol."""
        from ..engines.anyd import _simple_bound
        name, op, value = _simple_bound(new)
        if name is None:
            return
        for old in self.assumptions:
            n2, op2, v2 = _simple_bound(old)
            if n2 != name:
                continue
            if not _compatible(op, value, op2, v2):
                raise self._err(f"assumption '{new}' contradicts '{old}' (line {old.pos.line})",
                                new.pos, "claims under contradictory assumptions prove nothing")

    def _table(self, kind: str) -> dict[str, Pos]:
        return {"scalar": self.scalars, "vector": self.vectors, "matrix": self.matrices}[kind]

    def latex_vocabs(self) -> list[str]:
        """The vocabularies whose conventional LaTeX names hold in the current block: those
        it `use`s itself with the document-wide ones, or, in a block that `use`s none (a
        ``latex`` block), every vocabulary the document used so far."""
        own = self.block_vocabs + self.document_vocabs
        return list(dict.fromkeys(own if self.block_vocabs else self.vocabs))

    def layer_names_in_force(self) -> frozenset[str]:
        """The names sources give the layers of :meth:`latex_vocabs` (``LN``, ``RMSNorm``)."""
        from .vocab import LAYER_NAMES
        return frozenset(n for v in self.latex_vocabs() for n in LAYER_NAMES.get(v, ()))

    def mark_vocabulary(self, name: str, text: str) -> None:
        """Record that ``name`` was defined with a vocabulary's conventional meaning."""
        if name in self.lets:
            self.lets[name].vocab = text

    def _declare(self, kind: str, name: str, pos: Pos) -> None:
        if kind == "layer":
            self._declare_layer(name, pos)
            return
        table = self._table(kind)
        if name in self._option_decls and name not in table:
            # a `use` line with options declares for its block (affine=elementwise's vector
            # gamma): a document declaration of the name as another kind waits for the end
            for other in ("scalar", "vector", "matrix"):
                if name in self._table(other) and name not in self.shadowed_decls:
                    self.shadowed_decls[name] = (other, self._table(other).pop(name))
            if name not in self.lets:
                self.local_decls.setdefault(name, f"{self._using[2]}` (line {pos.line})")
        if name == self.layer:
            raise self._err(f"{name!r} is the layer letter (layer {name})", pos)
        if name in BUILTIN_NAMES or name in BUILTIN_FUNCTIONS or name in SUGAR_FUNCTIONS:
            raise self._err(f"{name!r} is built in and cannot be declared", pos)
        for other, t in (("scalar", self.scalars), ("vector", self.vectors),
                         ("matrix", self.matrices)):
            if name in t and t is not table:
                raise self._err(f"{name!r} is already declared as a {other}", pos)
        if name in self.lets:
            raise self._err(f"{name!r} is already defined by `let`", pos)
        table.setdefault(name, pos)
        self.gone.pop(name, None)

    def _declare_layer(self, name: str, pos: Pos) -> None:
        """``layer l``: in LaTeX, a^l and a^{(l)} are a (one layer is modelled)."""
        if len(name) != 1 or not name.isalpha():
            raise self._err(f"layer {name}: the layer is one letter (layer l)", pos)
        if self.layer is not None and self.layer != name:
            raise self._err(f"a second layer letter {name!r} (the document declared "
                            f"layer {self.layer})", pos,
                            "one layer is modelled: a^l and a^k would both be read as a")
        if self.is_defined(name) or name == "d":
            raise self._err(f"{name!r} is already a name; it cannot be the layer letter", pos)
        self.layer = name

    def _fix_d(self, value: Expr, pos: Pos, origin: _Setting) -> None:
        if not (isinstance(value, Num) and value.value.denominator == 1
                and 2 <= value.value <= 64):
            raise self._err("d must be fixed to an integer between 2 and 64", pos,
                            "e.g. `let d = 3` or `use layernorm(d=3)`")
        d = int(value.value)
        if self.d_value is not None and self.d_value != d:
            where = self.d_origin.text if self.d_origin else ""
            raise self._err(f"d is already fixed to {self.d_value}"
                            + (f" ({where})" if where else ""), pos)
        if self.d_origin is None or origin.document and not self.d_origin.document:
            self.d_origin = origin
        self.d_value = d

    def _d_is_local(self) -> bool:
        return self.d_value is not None and not (self.d_origin and self.d_origin.document)

    def _dependence(self, body: Expr, params: tuple[str, ...]
                    ) -> tuple[bool, tuple[str, ...], frozenset[str]]:
        """Whether an unexpanded body depends on a block setting, the settings it depends
        on (local definitions, d fixed in the block: ``d``, ``mean``, vector literals, and
        the settings of the definitions it uses), and the definitions it uses, directly or
        through others."""
        local, settings, deps = False, [], set()
        stack: list = [body]
        while stack:
            e = stack.pop()
            ref = None
            if isinstance(e, Name) and e.id not in params:
                ref = e.id
            elif isinstance(e, Call):
                ref = e.func
                stack += list(e.args) + list(e.batch or ())
            elif isinstance(e, BinOp):
                stack += [e.left, e.right]
            elif isinstance(e, (Neg, Transpose)):
                stack.append(e.operand)
            elif isinstance(e, VectorLit):
                stack += list(e.items)
                local = local or self._d_is_local()
            if ref in self.local_decls:
                local = True
            if ref in self.lets:
                local = local or self.lets[ref].local
                settings += self.lets[ref].settings
                deps |= {ref, *self.lets[ref].deps}
            elif ref in ("d", "mean"):
                local = local or self._d_is_local()
        return local, tuple(dict.fromkeys(settings)), frozenset(deps)

    def _vocab_function_err(self, st: Let, old: _Def) -> SourceError:
        """``let N = d`` under ``use layernorm``: a value for a vocabulary's function.  Sources
        write N for the count of entries (Triton's ``\\frac{1}{N}``); letting it replace
        layernorm's normalizer N(y) would change every claim that applies N, so it is refused
        with the two ways to say what the source means."""
        f = f"{st.name}({', '.join(old.stmt.params)})"
        use = old.origin.removeprefix("document ")  # every vocabulary function normalizes
        return self._err(
            f"{st.name!r} is the normalizer function {f} of `{use}` (line "
            f"{old.stmt.pos.line}), which `let {st.name} = {st.body}` would replace by a value",
            st.pos,
            f"a `let` never turns a vocabulary's function into a number: for the source's "
            f"count of entries write d in the equation, or give the count another name "
            f"(`let n = d`) and write that name; {f} keeps its meaning")

    def _shadow_function(self, st: Let, old: _Def) -> str | None:
        """``let N = d`` (the dimension, nothing else: a count named like the function) where
        N is a vocabulary's function the document never applied: the
        document's N is its own value from here on, and the vocabulary's function keeps its
        meaning under the name returned (``N_layernorm``), which the vocabulary's LaTeX
        meanings (``\\hat x``: ``N(x)``) use (latex_env.py); its definitions made through N
        (J, y) were expanded when the vocabulary was used.  None where the document applied
        N already (then its claims and the new value would give N two meanings) or the name
        is taken: the caller refuses the let."""
        m = re.search(r"use (\w+)", old.origin)
        kept = f"{st.name}_{m.group(1) if m else 'vocabulary'}"
        count = isinstance(st.body, Name) and st.body.id == "d"
        if not count or st.name in self.applied or kept in self.lets or self.is_defined(kept) \
                or st.name in self.shadowed_functions:
            return None
        self.lets[kept] = old
        self.shadowed_functions[st.name] = (kept, st.pos.line)
        return kept

    def _shadowed_call_err(self, f: str, pos: Pos) -> SourceError:
        """``N(x)`` after ``let N = d`` shadowed the vocabulary's normalizer N(y)."""
        kept, line = self.shadowed_functions[f]
        use = self.lets[kept].origin.removeprefix("document ") if kept in self.lets else "use"
        return self._err(f"{f}(...): {f} is the document's value `let {f} = "
                         f"{self.lets[f].stmt.body}` (line {line}), and `{use}` names its "
                         f"normalizer function {f}(y): two meanings of one name", pos,
                         f"the document's {f} is a value here; for the layer write its "
                         f"quantities (J, y; \\hat x in LaTeX), or give the count another "
                         f"name (`let n = d`) and keep {f}(y)")

    def _let(self, st: Let, document: bool = False) -> None:
        if st.name == self.layer:
            raise self._err(f"{st.name!r} is the layer letter (layer {st.name})", st.pos)
        if st.name == "d" and not st.params:
            how = self._using[2] if self._using else \
                f"{'document ' if document else ''}let d = {st.body}"
            text = f"d = {st.body} ({how}, line {st.pos.line})"
            self._fix_d(st.body, st.pos, _Setting(text, document))
            return
        if st.name in BUILTIN_NAMES or st.name in BUILTIN_FUNCTIONS \
                or st.name in SUGAR_FUNCTIONS:
            raise self._err(f"{st.name!r} is built in and cannot be redefined", st.pos)
        if st.name in self.scalars or st.name in self.vectors or st.name in self.matrices:
            raise self._err(f"{st.name!r} is already declared as a symbol", st.pos,
                            "choose another name for the definition")
        if st.name in self.latex_aliases:
            raise self._err(f"{st.name!r} is already defined (line "
                            f"{self.latex_aliases[st.name][1]})", st.pos)
        target = self._latex_only(st)
        if target is not None:
            self.latex_aliases[st.name] = (target, st.pos.line)
            return
        local, settings, deps = self._dependence(st.body, st.params)
        if self._using is not None:  # a vocabulary line: its `use` decides
            local = local or self._using[0]
            if self._using[1]:
                settings = tuple(dict.fromkeys((*settings, self._using[1])))
        old = self.lets.get(st.name)
        shadowing = False
        if old is not None:
            if (old.stmt == st or self._using is not None and not old.local and not local
                    and old.stmt.params == st.params and (old.vocab or old.origin)) \
                    and old.meaning == self._meaning(st):
                # a vocabulary's definition of a name an earlier vocabulary (or equation
                # with its meaning: \mu = mean(x)) defined as the same expression
                # the same definition twice (vocabularies), with the same meaning
                if old.local and not local:  # needs no setting of this block after all
                    old.local, old.settings = False, settings
                return
            if local and not old.local and self._using is not None \
                    and old.block != self.block_line and st.name not in self.shadowed:
                self.shadowed[st.name] = old  # the block's `use` options: its own names
                shadowing = True
            elif old.origin and old.stmt.params and not st.params and self._using is None:
                kept = self._shadow_function(st, old)  # let N = d: Triton's count
                if kept is None:
                    raise self._vocab_function_err(st, old)
                shadowing = True
            else:
                where = (f"in this block (line {old.stmt.pos.line})"
                         if old.block == self.block_line else f"(line {old.stmt.pos.line})")
                raise self._err(f"{st.name!r} is already defined {where}", st.pos,
                                "each name is defined once per document; a `use` line with "
                                "options in a later block defines its vocabulary's names "
                                "for that block")
        if len(set(st.params)) != len(st.params):
            raise self._err("repeated parameter name", st.pos)
        d = _Def(st, local=local, settings=settings, block=self.block_line,
                 origin=self._using[2] if self._using else "", deps=deps,
                 layer_names=self.layer_names_in_force())
        try:  # expand now so errors point at the definition, not at each use
            if not st.params:
                self.lets[st.name] = d
                d.expanded = d.meaning = self.expand(st.body, {})
                self.shape(d.expanded)
            else:  # registered afterwards: a function cannot call itself
                from .callparams import check_parameters
                if st.of_argument:
                    # x \rightarrow LN(x) = (x - \hat\mu)/\hat\sigma (d2l.ai): the map's
                    # variable is its argument throughout, the statistics of x included
                    st = Let(st.name, st.params, self.expand(st.body, {}), st.pos, True)
                    d.stmt = st
                check_parameters(self, st.name, st.params, st.body, st.pos)
                d.meaning = self._meaning(st)
                self.lets[st.name] = d
        except (SourceError, LimitError, RecursionError) as exc:
            self.lets.pop(st.name, None)
            if shadowing and st.name in self.shadowed_functions:
                kept = self.shadowed_functions.pop(st.name)[0]
                self.lets[st.name] = self.lets.pop(kept)
            elif shadowing:
                self.lets[st.name] = self.shadowed.pop(st.name)
            if isinstance(exc, RecursionError):
                raise self._err("definition nested too deeply", st.pos) from None
            raise
        self.gone.pop(st.name, None)

    def _latex_only(self, st: Let) -> str | None:
        """The LaTeX name ``let B = beta`` makes ``B`` an alias of, when ``beta`` has no
        claim-language meaning here but the block's vocabulary gives it one in LaTeX
        (``beta``, ``gamma`` of ``use layernorm``, its output ``y``, ``mu``); else None."""
        body = st.body
        if st.params or self._using is not None or not isinstance(body, Name):
            return None
        if self.in_latex:  # an equation's z = y is z := this block's y (red team 16's u3)
            return None if self.is_defined(body.id) else self._latex_only_name(body.id)
        return self._alias_target(body.id)

    def _latex_only_name(self, name: str) -> str | None:
        from .vocab import LATEX_AFFINE, LATEX_MEANINGS, LATEX_OUTPUT
        for v in self.latex_vocabs():
            if name in LATEX_MEANINGS.get(v, {}) or name in LATEX_AFFINE.get(v, ()) \
                    or name == LATEX_OUTPUT.get(v):
                return name
        return None

    def _alias_target(self, name: str) -> str | None:
        """What a symnorm block's ``let A = NAME`` makes A an alias of (see _latex_only)."""
        from .vocab import LATEX_CLAIM_NAMES, LATEX_MEANINGS
        for v in self.latex_vocabs():
            if name in LATEX_CLAIM_NAMES.get(v, {}) and name in self.lets \
                    and self.lets[name].origin:
                # use batchnorm's mu (Arat's mu_phi, DJL's mu_batch): a claim-language name
                # that is also the LaTeX convention, so an alias the equations read as that
                # node of the graph (\partial\mu_\phi) and claims expand as mu itself
                return name
        let = self.lets.get(name)
        if let is not None and let.vocab and not let.stmt.params \
                and not let.vocab.startswith("the where-clause of equation ") \
                and any(name in LATEX_MEANINGS.get(v, {}) for v in self.latex_vocabs()):
            # an earlier equation gave sigma its vocabulary meaning: the alias is still of
            # that name (red team 21: let sigma_phi = sigma after such an equation was a
            # plain definition, so \partial\sigma^2_\phi was no node of the graph)
            return name
        if self.is_defined(name):
            return None
        return self._latex_only_name(name)

    def _meaning(self, st: Let) -> Expr:
        """A definition's body with every name in it expanded as the scope stands now."""
        return self.expand(st.body, {p: Name(p, st.pos) for p in st.params})

    def _use(self, st: Use, document: bool = False) -> None:
        from .parser import parse_statement
        from .vocab import AFFINE_MODES, GAIN_MODE_VOCABS, INT_OPTIONS, VOCABULARIES, \
            vocabulary_text
        if st.vocab not in VOCABULARIES:
            raise self._err(f"unknown vocabulary {st.vocab!r}", st.pos,
                            "available: " + ", ".join(sorted(VOCABULARIES)))
        opts: dict[str, object] = {}
        eps_value = None
        mode = None
        shown = ", ".join(f"{k}={v}" for k, v in st.options)
        use_text = f"{'document ' if document else ''}use {st.vocab}" + \
            (f"({shown})" if shown else "")
        where = f"{use_text}, line {st.pos.line}"
        for key, val in st.options:
            if key == "d":
                self._fix_d(val, st.pos, _Setting(f"d = {val} ({where})", document))
            elif key == "eps":
                if not isinstance(val, Num) or val.value < 0:
                    raise self._err("eps must be a non-negative number", st.pos)
                eps_value = val
            elif key == "eps_inside" and isinstance(val, Num):
                opts[key] = bool(val.value)
            elif key == "var_denominator" and isinstance(val, Num) and val.value in (0, 1):
                opts[key] = "N" if val.value == 0 else "N-1"
            elif key in INT_OPTIONS and isinstance(val, Num) and val.value.denominator == 1 \
                    and 1 <= val.value <= 64:
                opts[key] = int(val.value)
            elif key == "affine" and isinstance(val, Name) and val.id == "elementwise":
                opts[key] = True
            elif key == "affine" and isinstance(val, Name) and val.id in AFFINE_MODES:
                if val.id == "gain" and st.vocab not in GAIN_MODE_VOCABS:
                    raise self._err(f"affine=gain does not apply to {st.vocab}", st.pos,
                                    "accepted with layernorm, batchnorm and rmsnorm; "
                                    f"use {st.vocab}(affine=none) for the layer without "
                                    "gain and bias")
                mode = val.id  # a LaTeX convention only: the claim language has no y
            else:
                raise self._err(f"unknown or malformed option {key!r} for {st.vocab}", st.pos,
                                "accepted: d=INT, eps=NUMBER, eps_inside=0|1, "
                                "var_denominator=0|1 (1 means N-1); affine=none (no gain, no "
                                "bias), affine=gain (a gain, no bias; not groupnorm, "
                                "instancenorm); layernorm and rmsnorm: affine=elementwise "
                                "(vector gamma, beta); groupnorm and instancenorm: groups, "
                                "channels, spatial (integers)")
        self._same_affine(st, mode or ("elementwise" if opts.get("affine") else None))
        try:
            text = vocabulary_text(st.vocab, opts)
        except (SpecError, LimitError) as exc:
            raise self._err(f"use {st.vocab}: {exc}", st.pos) from None
        # a `use` with options (not stated document-wide) defines its names for its block;
        # options other than d and eps change the definitions, so claims using them show it
        local = bool(st.options) and not document
        shaping = [k for k, _ in st.options if k not in ("d", "eps")]
        self._using = (local, f"the definitions of {use_text} (line {st.pos.line})"
                       if shaping else "", use_text)
        if local:
            self._option_decls = frozenset(_declared(text) - _declared(vocabulary_text(
                st.vocab, {})))
        try:
            for line in text.splitlines():
                stmt = parse_statement(line, f"<vocabulary {st.vocab}>", st.pos.line)
                # a vocabulary that fixes d (groupnorm) fixes it as its `use` line says
                self.add(stmt, document=document and isinstance(stmt, Let) and stmt.name == "d")
        finally:
            self._using, self._option_decls = None, frozenset()
        if eps_value is not None:
            self._assume(Relation("==", Name("eps", st.pos), eps_value, st.pos), document,
                         f"eps == {eps_value} ({where})")
        self.vocabs.append(st.vocab)
        self.block_vocabs.append(st.vocab)
        if document:
            self.document_vocabs.append(st.vocab)
        if opts.get("affine"):
            self.elementwise.add(st.vocab)
            if document:
                self.document_elementwise.add(st.vocab)
        if mode is not None:
            self.affine_modes[st.vocab] = mode
            if document:
                self.document_affine_modes[st.vocab] = mode
        if not document:
            self._shadow_other_meanings()

    def _same_affine(self, st: Use, mode: str | None) -> None:
        """A `use` of a vocabulary the document already uses document-wide must say the same
        affine parameters (``affine=`` option, or none): the document's names of the layer
        (``y``, ``gamma``) hold in every block, so a block's plain ``use layernorm`` after
        ``document use layernorm(affine=none)`` would silently keep the document's layer
        without them (red team 16)."""
        if st.vocab not in self.document_vocabs:
            return
        doc = self.document_affine_modes.get(st.vocab) or (
            "elementwise" if st.vocab in self.document_elementwise else None)
        if doc != mode:
            said = f"affine={doc}" if doc else "no affine option (gain and bias)"
            now = f"affine={mode}" if mode else "no affine option (gain and bias)"
            raise self._err(f"use {st.vocab} with {now}, while the document uses {st.vocab} "
                            f"with {said} for every block (a `document use` line): one layer "
                            "would have two sets of affine parameters", st.pos,
                            f"write the `document use {st.vocab}` line's option here too, or "
                            "drop `document` from it so that each block says its own layer")

    def _shadow_other_meanings(self) -> None:
        """Hide, until the block ends, the names an earlier block's LaTeX equation defined
        with that block's vocabulary meaning where this block's vocabularies give them
        another (``y`` of ``use layernorm`` in a block of ``use layernorm(affine=none)`` or
        ``use rmsnorm``): this block's equations read its own meaning, and the earlier one
        is back after it.  A where-clause's own meaning is not a vocabulary's, so it stays
        (and is a conflict there, docs/latex.md)."""
        from .parser import parse_expression
        from .vocab import conventions
        meanings = conventions(self.latex_vocabs(), self.elementwise,
                               first=set(self.block_vocabs), modes=self.affine_modes).meanings
        for name, d in list(self.lets.items()):
            text = meanings.get(name)
            if text is None or not d.vocab.startswith("use ") or d.local or d.stmt.params \
                    or d.block == self.block_line or name in self.shadowed:
                continue
            if parse_expression(text, "<vocabulary>") != d.stmt.body:
                self.shadowed[name] = self.lets.pop(name)
                self.gone.pop(name, None)

    def _claim(self, st: Claim) -> None:
        if st.label in self.labels:
            raise self._err(f"duplicate claim label {st.label!r}", st.pos,
                            "labels must be unique within a document")
        self.labels.add(st.label)
        self.claims.append(self._prepared(st))

    def _prepared(self, st: Claim) -> PreparedClaim:
        """The claim ``st`` (and its other reading, if any) ready for the engines."""
        rel = self._expand_relation(st.relation)
        from .latex_groups import leftover_symbol
        for r in (rel, *st.given, *st.local_assumptions):
            left = leftover_symbol(self._expand_relation(r).left) or leftover_symbol(
                self._expand_relation(r).right)
            if left is not None:
                raise self._err(f"{left} is GroupNorm's per-entry symbol of the LaTeX reader: "
                                "it has a meaning only inside a LaTeX equation, stated once "
                                "per channel (docs/family.md)", st.pos,
                                "write the group's own statistic (gmu1, gvar1), or the "
                                "equation in LaTeX")
        # `given a > 0` bounds the claim like an assumption; equations are hypotheses
        given = tuple(self._expand_relation(g) for g in st.given if g.op == "==")
        local_src = tuple(st.local_assumptions) + tuple(g for g in st.given if g.op != "==")
        local = tuple(self._expand_relation(a) for a in local_src)
        used = set().union(*(_names(r.left) | _names(r.right) for r in (rel, *given)))
        # the assumptions that apply: those about d, and every one linked to the claim's
        # symbols through shared symbols (a >= b, b >= 0 constrain a even if b is unused);
        # the symbols they bring in are sampled too, so counterexamples respect them
        pairs = [(self._expand_relation(a), o.text)
                 for a, o in zip(self.assumptions, self.assumption_origin)]
        pairs += [(e, str(a)) for e, a in zip(local, local_src)]
        builtin = {"d", "I", "ones"}
        names = [(_names(e.left) | _names(e.right)) - builtin for e, _ in pairs]
        keep = [not n for n in names]  # about d only
        grown = True
        while grown:
            grown = False
            for i, n in enumerate(names):
                if not keep[i] and n & used:
                    keep[i], used, grown = True, used | n, True
        # an assumption on other symbols still applies: if the assumptions in force cannot
        # hold together, no point is admissible and no counterexample may ignore that
        # (`assume u.T*u < 0` makes `a == 3` vacuous, not refuted at a = 5)
        for n in names:
            used |= n
        # the settings that reach the claim, after its assumptions (same order as those)
        notes = [n for r in (st.relation, *st.given, *st.local_assumptions)
                 for side in (r.left, r.right) for n in self._dependence(side, ())[1]]
        if self.d_value is not None and self.d_origin is not None and _touches_d(
                (rel, *given), self.vectors, self.matrices):
            notes.insert(0, self.d_origin.text)
        texts = [t for _, t in pairs]
        notes = [n for n in dict.fromkeys(notes) if n not in texts]
        return PreparedClaim(
            label=st.label, file=self.file, pos=st.pos, relation=rel, given=given,
            assumptions=tuple(e for e, _ in pairs),
            scalars=tuple(n for n in self.scalars if n in used),
            vectors=tuple(n for n in self.vectors if n in used),
            matrices=tuple(n for n in self.matrices if n in used), d_value=self.d_value,
            statement=str(st.relation) + ("  given " + ", ".join(map(str, st.given))
                                          if st.given else ""),
            source=st.source, origin=st.origin,
            assumption_text=tuple(texts + notes), needs_proof=st.needs_proof,
            other_reading=tuple(self._expand_relation(g) for g in st.other_reading
                                if _names(g.left) & used),
            alternative=self._prepared(st.alternative) if st.alternative is not None
            else None, readings=st.readings, notes=st.notes)

    def _expand_relation(self, rel: Relation) -> Relation:
        """Expand both sides and check the relation's shapes."""
        out = Relation(rel.op, self.expand(rel.left, {}), self.expand(rel.right, {}), rel.pos)
        self._check_relation(out)
        return out

    def _check_relation(self, rel: Relation) -> None:
        left, right = self.shape(rel.left), self.shape(rel.right)
        zero = lambda e: isinstance(e, Num) and e.value == 0
        if rel.op in ("==", "!="):
            if left != right and not zero(rel.left) and not zero(rel.right):
                raise self._err(f"cannot compare a {left} with a {right}", rel.pos,
                                "both sides of a relation must have the same shape")
        elif left != SCALAR or right != SCALAR:
            raise self._err(f"'{rel.op}' compares scalars, not a {left} and a {right}", rel.pos)

    # --- expansion --------------------------------------------------------------------
    def expand(self, e: Expr, local: dict[str, Expr], _count: list[int] | None = None) -> Expr:
        """Replace definitions and sugar by their bodies; only primitives remain."""
        count = _count if _count is not None else [0]
        count[0] += 1
        if count[0] > MAX_NODES:
            raise LimitError(f"{self.file}:{e.pos}: expression too large after expanding "
                             f"definitions (more than {MAX_NODES} nodes)")
        rec = lambda x: self.expand(x, local, count)
        if isinstance(e, Num):
            return e
        if isinstance(e, Name):
            return self._expand_name(e, local)
        if isinstance(e, BinOp):
            if e.op == "**":
                left = str(e.left)
                self.powers[(e.pos.line, e.pos.col)] = \
                    left if isinstance(e.left, (Name, Call)) else f"({left})"
            return BinOp(e.op, rec(e.left), rec(e.right), e.pos)
        if isinstance(e, Neg):
            return Neg(rec(e.operand), e.pos)
        if isinstance(e, Transpose):
            return Transpose(rec(e.operand), e.pos)
        if isinstance(e, VectorLit):
            return VectorLit(tuple(rec(i) for i in e.items), e.pos)
        if isinstance(e, Call):
            return self._expand_call(e, local, count)
        raise TypeError(e)  # pragma: no cover

    def _expand_name(self, e: Name, local: dict[str, Expr]) -> Expr:
        if e.id in local:
            return local[e.id]
        if e.id == "d":
            return Num(Fraction(self.d_value), e.pos) if self.d_value else Name("d", e.pos)
        if e.id in BUILTIN_NAMES or e.id in self.scalars or e.id in self.vectors \
                or e.id in self.matrices:
            return Name(e.id, e.pos)
        if e.id in self.lets:
            d = self._current(e.id, e.pos)
            if d.stmt.params:
                raise self._err(f"{e.id!r} is a function of {len(d.stmt.params)} argument(s)",
                                e.pos, f"call it as {e.id}({', '.join(d.stmt.params)})")
            if d.expanded is None:
                raise self._err(f"{e.id!r} is used in its own definition", e.pos)
            return d.expanded
        if e.id in BUILTIN_FUNCTIONS or e.id in SUGAR_FUNCTIONS:
            raise self._err(f"{e.id!r} is a function", e.pos, f"call it as {e.id}(...)")
        if e.id in self.gone:
            raise self._gone_error(e.id, e.pos)
        if e.id in self.latex_aliases:
            target, line = self.latex_aliases[e.id]
            if target in self.lets:  # the alias of a claim-language name (mu_phi of mu)
                return self._expand_name(Name(target, e.pos), local)
            raise self._err(f"{e.id!r} is the alias of {target} (line {line}), which has a "
                            "meaning only in LaTeX equations of this vocabulary", e.pos,
                            f"use {e.id} in a LaTeX equation, or declare {target} "
                            f"(`scalar {target}`) or define it before `let {e.id} = {target}`")
        raise self._err(f"unknown name {e.id!r}", e.pos,
                        _in_vocabularies(e.id) +
                        f"declare it (`scalar {e.id}`, `vector {e.id}`), define it "
                        f"(`let {e.id} = ...`) or `use` a vocabulary that has it")

    def _expand_call(self, e: Call, local: dict[str, Expr], count: list[int]) -> Expr:
        if e.params or e.bind:  # a subscript selects or fixes a parameter (LaTeX)
            from .callparams import expand_subscripted
            return expand_subscripted(self, e, local, count)
        rec = lambda x: self.expand(x, local, count)
        f = e.func
        if e.batch is not None:
            if f != "BN" or len(e.args) != 1:
                raise self._err("only BN(sample; [batch values]) takes a batch list", e.pos)
            if not 1 <= len(e.batch) <= 64:
                raise self._err("the batch list must hold 1 to 64 values", e.pos)
            return self._batch_norm(rec(e.args[0]), [rec(b) for b in e.batch], e.pos)
        def arity(n: int) -> None:
            if len(e.args) != n:
                raise self._err(f"{f}() takes {n} argument(s), got {len(e.args)}", e.pos)
        if f in ("sqrt", "abs", "exp", "log", "trace", "diag"):
            arity(1)
            return Call(f, (rec(e.args[0]),), e.pos)
        if f == "hadamard":
            arity(2)
            return Call(f, (rec(e.args[0]), rec(e.args[1])), e.pos)
        if f == "jacobian":
            arity(2)
            var = e.args[1]
            if not (isinstance(var, Name) and var.id not in local
                    and (var.id in self.vectors or var.id in self.scalars)):
                raise self._err("jacobian(expr, var) needs a declared vector or scalar as var",
                                var.pos, "e.g. jacobian(N(x), x)")
            return Call(f, (rec(e.args[0]), Name(var.id, var.pos)), e.pos)
        if f in SUGAR_FUNCTIONS:
            arity(1)
            a = rec(e.args[0])
            ones = Name("ones", e.pos)
            if f == "norm":
                return Call("sqrt", (BinOp("*", Transpose(a, e.pos), a, e.pos),), e.pos)
            if f == "tanh":
                return self._tanh(a, e.pos)
            s = BinOp("*", Transpose(ones, e.pos), a, e.pos)
            return s if f == "sum" else BinOp("/", s, self._expand_name(Name("d", e.pos), {}),
                                              e.pos)
        if f in self.shadowed_functions and f in self.lets and not self.lets[f].stmt.params:
            raise self._shadowed_call_err(f, e.pos)
        if f in self.lets and self.lets[f].stmt.params:
            st = self._current(f, e.pos).stmt
            if len(st.params) != len(e.args):
                raise self._err(f"{f}() takes {len(st.params)} argument(s), got {len(e.args)}",
                                e.pos)
            bound = {p: rec(a) for p, a in zip(st.params, e.args)}
            return self.expand(st.body, bound, count)
        if f in self.lets or f in self.scalars or f in self.vectors or f in self.matrices:
            raise self._err(f"{f!r} is not a function", e.pos,
                            "only built-ins and `let F(y) = ...` can be called")
        if f in self.gone:
            raise self._gone_error(f, e.pos)
        raise self._err(f"unknown function {f!r}", e.pos,
                        _in_vocabularies(f) +
                        "built-in: sqrt, abs, exp, log, tanh, norm, sum, mean, trace, "
                        "jacobian, "
                        "hadamard, diag, "
                        "BN(sample; [batch]); define others with `let F(y) = ...`")

    def _tanh(self, a: Expr, pos: Pos) -> Expr:
        """``tanh(t)`` of a scalar as ``(exp(2t) - 1)/(exp(2t) + 1)``: exp is every engine's
        built-in, so each evaluates tanh exactly as it evaluates exp (no new kernel rule).
        A vector argument (Dynamic Tanh's entrywise tanh(alpha x)) is refused: the claim
        language has no entrywise function of a vector."""
        shape = self.shape(a)
        if shape != SCALAR:
            raise self._err(f"tanh() of a {shape}: tanh applied entrywise (Dynamic Tanh's "
                            "\\tanh(\\alpha x)) is not modelled; the claim language has no "
                            "entrywise function of a vector", pos,
                            "state the claim for one entry with scalars (`scalar alpha, t`: "
                            "\\gamma \\tanh(\\alpha t) + \\beta)")
        two = BinOp("*", Num(Fraction(2), pos), a, pos)
        e2 = Call("exp", (two,), pos)
        one = Num(Fraction(1), pos)
        return BinOp("/", BinOp("-", e2, one, pos), BinOp("+", e2, one, pos), pos)

    def _current(self, name: str, pos: Pos) -> _Def:
        """A definition, refused where this block's `use` options redefined a name it uses:
        it would mix the document's definitions with the block's."""
        d = self.lets[name]
        if self.shadowed_decls and not d.local:
            used = _names(d.expanded if d.expanded is not None else d.meaning) \
                if (d.expanded or d.meaning) is not None else set()
            hit = sorted(used & self.shadowed_decls.keys())
            if hit:
                kind = self.shadowed_decls[hit[0]][0]
                raise self._err(f"{name!r} (line {d.stmt.pos.line}) was defined with the "
                                f"document's {kind} {hit[0]!r}, which this block declares "
                                f"otherwise by `{self.local_decls.get(hit[0], 'its use line')}",
                                pos, f"define it again in this block under another name, or "
                                f"use {name!r} in a block without those options")
        stale = sorted(n for n in d.deps if n in self.shadowed) if self.shadowed else []
        if stale and not d.local:
            now = self.lets.get(stale[0])  # shadowed and not yet redefined: the block's own
            how = f"redefines by `{now.origin}`" if now is not None and now.origin else \
                "gives another meaning (its use line)"
            raise self._err(f"{name!r} (line {d.stmt.pos.line}) was defined with the "
                            f"document's {stale[0]!r}, which this block {how}",
                            pos, f"define it again in this block under another name, or use "
                            f"{name!r} in a block without those options")
        return d

    def _gone_error(self, name: str, pos: Pos) -> SourceError:
        return self._err(f"{name!r} is not defined in this block: {self.gone[name]}, and a "
                         "block's settings and the definitions that depend on them end with "
                         "the block", pos, "repeat the `use` (or `let d = ...`) line in this "
                         "block, or state the setting for the whole document with `document "
                         "use ...` / `document let d = ...`")

    def _batch_norm(self, t: Expr, batch: list[Expr], pos: Pos) -> Expr:
        """BN(t; [b1..bk]) = (t - mean)/sqrt(var + eps), population variance over the list."""
        if "eps" not in self.scalars and "eps" not in self.lets:
            raise self._err("BN(sample; [batch]) needs eps", pos,
                            "`use batchnorm` or declare `scalar eps`")
        k = Num(Fraction(len(batch)), pos)
        total: Expr = batch[0]
        for b in batch[1:]:
            total = BinOp("+", total, b, pos)
        mean = BinOp("/", total, k, pos)
        sq: Expr | None = None
        for b in batch:
            dev = BinOp("-", b, mean, pos)
            term = BinOp("**", dev, Num(Fraction(2), pos), pos)
            sq = term if sq is None else BinOp("+", sq, term, pos)
        var = BinOp("/", sq, k, pos)  # type: ignore[arg-type]
        eps = self._expand_name(Name("eps", pos), {})
        return BinOp("/", BinOp("-", t, mean, pos),
                     Call("sqrt", (BinOp("+", var, eps, pos),), pos), pos)

    # --- shapes -----------------------------------------------------------------------
    def shape(self, e: Expr, _memo: dict[int, str] | None = None) -> str:
        """The shape of an expanded expression; SourceError on a mismatch."""
        memo = _memo if _memo is not None else {}
        key = id(e)
        if key not in memo:
            memo[key] = self._shape(e, memo)
        return memo[key]

    def _shape(self, e: Expr, memo: dict[int, str]) -> str:
        sh = lambda x: self.shape(x, memo)
        if isinstance(e, Num):
            return SCALAR
        if isinstance(e, Name):
            if e.id in ("I",) or e.id in self.matrices:
                return MAT
            if e.id == "ones" or e.id in self.vectors:
                return COL
            return SCALAR
        if isinstance(e, Neg):
            return sh(e.operand)
        if isinstance(e, Transpose):
            return {COL: ROW, ROW: COL}.get(sh(e.operand), sh(e.operand))
        if isinstance(e, VectorLit):
            if self.d_value is None or len(e.items) != self.d_value:
                raise self._err("a vector literal needs d fixed to its length", e.pos,
                                f"add `let d = {len(e.items)}` before it")
            for i in e.items:
                if sh(i) != SCALAR:
                    raise self._err("vector literal entries must be scalars", i.pos)
            return COL
        if isinstance(e, Call):
            args = [sh(a) for a in e.args]
            if e.func in ("sqrt", "abs", "exp", "log"):
                if args[0] != SCALAR:
                    raise self._err(f"{e.func}() takes a scalar, not a {args[0]}", e.pos,
                                    "element-wise functions of vectors are not supported")
                return SCALAR
            if e.func == "trace":
                if args[0] != MAT:
                    raise self._err(f"trace() takes a matrix, not a {args[0]}", e.pos)
                return SCALAR
            if e.func in ("hadamard", "diag"):
                return self._entrywise_shape(e, args)
            if e.func == "jacobian":
                if args[1] == SCALAR:
                    return args[0]
                if args[0] == COL:
                    return MAT
                if args[0] == SCALAR:
                    return ROW
                raise self._err(f"jacobian() of a {args[0]} is not supported", e.pos,
                                "differentiate a vector or a scalar")
            raise TypeError(e.func)  # pragma: no cover
        if isinstance(e, BinOp):
            return self._binop_shape(e, sh(e.left), sh(e.right))
        raise TypeError(e)  # pragma: no cover

    def _entrywise_shape(self, e: Call, args: list[str]) -> str:
        """``hadamard(u, v)`` of two column vectors is a column; ``diag(g)`` of a column is
        a matrix.  A scalar or matrix operand is an error naming the accepted form."""
        for a, shape in zip(e.args, args):
            if shape == COL:
                continue
            what = f"{e.func}() takes column vectors, not a {shape}"
            if shape == SCALAR:
                hint = ("a scalar gain multiplies by `*`: write g*x, not hadamard(g, x) (in "
                        "LaTeX \\gamma \\hat x); for a per-element gain declare a vector, "
                        "or write use layernorm(affine=elementwise), whose gamma and beta "
                        "are vectors" if e.func == "hadamard" else "diag(g) needs a vector "
                        "g; for a scalar a write a*I")
            elif shape == ROW:
                hint = "transpose the row vector first (u.T is a column when u is a row)"
            else:
                hint = ("a matrix multiplies by `*`: write W*x; hadamard(u, v) is the "
                        "entrywise product of two vectors" if e.func == "hadamard" else
                        "diag(g) builds the diagonal matrix of a vector g; the diagonal of a "
                        "matrix is not modelled")
            raise self._err(what, a.pos, hint)
        return COL if e.func == "hadamard" else MAT

    def _binop_shape(self, e: BinOp, a: str, b: str) -> str:
        if e.op in "+-":
            if a != b:
                raise self._err(f"cannot {'add' if e.op == '+' else 'subtract'} a {a} and a {b}",
                                e.pos, "both operands must have the same shape")
            return a
        if e.op in ("*", "@"):
            if a == SCALAR:
                return b
            if b == SCALAR:
                return a
            table = {(ROW, COL): SCALAR, (COL, ROW): MAT, (MAT, COL): COL, (ROW, MAT): ROW,
                     (MAT, MAT): MAT}
            if (a, b) not in table:
                hint = ("did you mean u.T*v (the inner product) or hadamard(u, v) (the "
                        "entrywise product, LaTeX \\odot)?") if (a, b) == (COL, COL) else \
                    "the inner dimensions must match"
                raise self._err(f"cannot multiply a {a} by a {b}", e.pos, hint)
            return table[(a, b)]
        if e.op == "/":
            if b != SCALAR:
                raise self._err(f"cannot divide by a {b}", e.pos, "divide by a scalar")
            return a
        if e.op == "**":
            if b != SCALAR:
                raise self._err("an exponent must be a scalar", e.pos)
            if a == MAT:
                r = e.right
                if not (isinstance(r, Num) and r.value.denominator == 1
                        and 1 <= r.value <= MAX_POWER):
                    raise self._err("a matrix power needs a literal integer exponent", e.pos,
                                    f"between 1 and {MAX_POWER}, e.g. P**2")
                return MAT
            k = _constant(e.right)
            if k is not None and k.denominator % 2 == 1 and k.denominator > 1 \
                    and not _nonnegative_form(e.left):  # 8**(1/3), abs(b)**(1/3) are read
                raise self._err(
                    f"an odd root (exponent {k}): a fractional power is read as defined only "
                    "for a nonnegative base, while the real odd root of a negative number "
                    "exists, so a claim with it would hold only where the base is >= 0 "
                    "without saying so",
                    e.pos, "write the root of a quantity that is nonnegative by its form: "
                    "abs(b)**(1/3), (b**2)**(1/6), (x.T*x)**(1/3), or an even root")
            if a != SCALAR:
                base = self.powers.get((e.pos.line, e.pos.col), "y")
                bare = base[1:-1] if base.startswith("(") else base
                raise self._err(f"cannot raise a {a} to a power", e.pos,
                                f"powers apply to scalars; for the squared length write "
                                f"{base}.T*{base} or "
                                f"norm({bare})**2" if a == COL and len(base) <= 60 else "")
            return SCALAR
        raise TypeError(e.op)  # pragma: no cover


def _in_vocabularies(name: str) -> str:
    """``"`use layernorm` defines it; "`` when a vocabulary has ``name``, else ``""``."""
    from .vocab import VOCABULARIES, vocabulary_text
    having = []
    for vocab in VOCABULARIES:
        lines = vocabulary_text(vocab, {}).splitlines()
        defined = {ln.split()[1].split("(")[0].split("=")[0] for ln in lines
                   if ln.startswith("let ")}
        declared = {n.strip() for ln in lines if ln.startswith(("scalar ", "vector ", "matrix "))
                    for n in ln.split(None, 1)[1].split(",")}
        if name in defined | declared:
            having.append(f"`use {vocab}`")
    if not having:
        return ""
    return f"{' and '.join(having)} {'defines' if len(having) == 1 else 'define'} it; "


def _declared(text: str) -> set[str]:
    """The names the declarations of a vocabulary's text declare."""
    kinds = ("scalar ", "vector ", "matrix ")
    return {n.strip() for ln in text.splitlines() if ln.startswith(kinds)
            for n in ln.split(None, 1)[1].split(",")}


def _touches_d(rels, vectors, matrices) -> bool:
    """Whether expanded relations depend on the dimension (vectors, ones, I, d, literals)."""
    for n in nodes(*rels):
        if isinstance(n, VectorLit) or isinstance(n, Name) and (
                n.id in ("d", "I", "ones") or n.id in vectors or n.id in matrices):
            return True
    return False


def _applied(st: Statement) -> set[str]:
    """The functions a statement applies (``N`` of ``claim: N(x) == ...``)."""
    exprs: list[Expr] = []
    if isinstance(st, Let):
        exprs.append(st.body)
    elif isinstance(st, Claim):
        exprs += [r.left for r in (st.relation, *st.given, *st.local_assumptions)]
        exprs += [r.right for r in (st.relation, *st.given, *st.local_assumptions)]
    elif isinstance(st, Assume):
        exprs += [st.relation.left, st.relation.right]
    return {n.func for e in exprs for n in nodes(e) if isinstance(n, Call)}


def _names(e: Expr) -> set[str]:
    """Names occurring in an expanded expression."""
    return {n.id for n in nodes(e) if isinstance(n, Name)}


def _compatible(op1: str, v1: Fraction, op2: str, v2: Fraction) -> bool:
    """Whether ``y op1 v1`` and ``y op2 v2`` can hold together for some real y."""
    def holds(y: Fraction, op: str, v: Fraction) -> bool:
        return {">": y > v, ">=": y >= v, "<": y < v, "<=": y <= v, "==": y == v,
                "!=": y != v}[op]
    # the constraint set is a union of intervals with endpoints v1, v2: test them and
    # points between and beyond them
    lo, hi = min(v1, v2), max(v1, v2)
    probes = [lo - 1, lo, (lo + hi) / 2, hi, hi + 1]
    return any(holds(y, op1, v1) and holds(y, op2, v2) for y in probes)


def _constant(e: Expr) -> Fraction | None:
    """The value of an exponent written with numbers only (``1/3``, ``-(2/3)``), else None."""
    if isinstance(e, Num):
        return e.value
    if isinstance(e, Neg):
        v = _constant(e.operand)
        return -v if v is not None else None
    if isinstance(e, BinOp) and e.op in ("+", "-", "*", "/"):
        a, b = _constant(e.left), _constant(e.right)
        if a is None or b is None or (e.op == "/" and b == 0):
            return None
        if e.op == "/":
            return a / b
        return {"+": a + b, "-": a - b, "*": a * b}[e.op]
    return None


def _nonnegative_form(e: Expr) -> bool:
    """Whether ``e`` is >= 0 by its form alone: a number >= 0, ``abs``, ``sqrt``, ``exp``,
    ``norm``, an even integer power, ``u.T*u``, and sums, products and quotients of these."""
    if isinstance(e, Num):
        return e.value >= 0
    if isinstance(e, Call):
        return e.func in ("abs", "sqrt", "exp", "norm")
    if isinstance(e, BinOp):
        if e.op == "**":
            k = _constant(e.right)
            return (k is not None and k.denominator == 1 and k.numerator % 2 == 0) \
                or _nonnegative_form(e.left)
        if e.op == "*" and isinstance(e.left, Transpose) and e.left.operand == e.right:
            return True
        if e.op in ("+", "*", "/"):
            return _nonnegative_form(e.left) and _nonnegative_form(e.right)
    return False

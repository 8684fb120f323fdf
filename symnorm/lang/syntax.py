"""The typed syntax tree shared by the plain-text claim language and the LaTeX reader.

Every front end (``parser.py`` for plain text, ``latex.py`` for LaTeX) produces these
nodes and nothing else; the engines never read text.  Nodes are frozen dataclasses so a
parsed document can be cached, compared and pickled to a worker process.

>>> from fractions import Fraction
>>> n = BinOp("+", Name("x", Pos(1, 1)), Num(Fraction(1, 10), Pos(1, 5)), Pos(1, 3))
>>> str(n)
'x + 1/10'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

__all__ = [
    "BINOPS",
    "RELATIONS",
    "Assume",
    "BinOp",
    "Call",
    "Claim",
    "Declare",
    "Expr",
    "Figure",
    "Let",
    "Name",
    "Neg",
    "Num",
    "Pos",
    "Relation",
    "Statement",
    "Transpose",
    "Use",
    "VectorLit",
]

RELATIONS = ("==", "!=", "<", "<=", ">", ">=")
#: ``*`` is the product of scalars or matrices (a 1x1 matrix is a scalar), ``@`` the
#: matrix product, ``^`` is the same as ``**``.
BINOPS = ("+", "-", "*", "@", "/", "**")


@dataclass(frozen=True)
class Pos:
    """A 1-based line and column in the source file (``col`` counts characters)."""

    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


@dataclass(frozen=True)
class Num:
    """An exact rational literal; ``0.1`` in a document is ``Fraction(1, 10)``."""

    value: Fraction
    pos: Pos = field(compare=False)

    def __str__(self) -> str:
        v = self.value
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


@dataclass(frozen=True)
class Name:
    """A reference to a symbol, vector, definition or vocabulary name."""

    id: str
    pos: Pos = field(compare=False)

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class BinOp:
    """``left op right`` with ``op`` in :data:`BINOPS`.

    ``written`` is the operator as the LaTeX reader saw it when that matters for reading:
    ``"*"`` for a literal star, which between two vectors is the entrywise product (the
    docstrings' ``\\hat x * \\gamma``); empty otherwise.
    """

    op: str
    left: Expr
    right: Expr
    pos: Pos = field(compare=False)
    written: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{_paren(self.left, self.op, 'l')} {self.op} {_paren(self.right, self.op, 'r')}"


@dataclass(frozen=True)
class Neg:
    """Unary minus."""

    operand: Expr
    pos: Pos = field(compare=False)

    def __str__(self) -> str:
        inner = str(self.operand)
        return f"-({inner})" if isinstance(self.operand, (BinOp, Neg)) else f"-{inner}"


@dataclass(frozen=True)
class Transpose:
    """``operand.T``."""

    operand: Expr
    pos: Pos = field(compare=False)

    def __str__(self) -> str:
        inner = str(self.operand)
        simple = isinstance(self.operand, (Name, Call, Transpose))
        return f"{inner}.T" if simple else f"({inner}).T"


@dataclass(frozen=True)
class Call:
    """``func(args)``; ``batch`` holds the list after ``;`` in ``BN(0; [0, b])``.

    ``params`` records subscript parameters the LaTeX reader saw (``\\mathcal N_\\epsilon``
    gives ``params=("eps",)``): expansion checks that the function depends on each of them.
    ``bind`` holds parameters fixed inside this call only (``\\mathcal N_0(x)`` gives
    ``bind=(("eps", 0),)``: eps is 0 in this application of N, not elsewhere).
    """

    func: str
    args: tuple[Expr, ...]
    pos: Pos = field(compare=False)
    batch: tuple[Expr, ...] | None = None
    params: tuple[str, ...] = ()
    bind: tuple[tuple[str, Expr], ...] = ()

    def __str__(self) -> str:
        inner = ", ".join(str(a) for a in self.args)
        if self.batch is not None:
            inner += "; [" + ", ".join(str(b) for b in self.batch) + "]"
        fixed = "".join(f"[{k}={v}]" for k, v in self.bind)
        return f"{self.func}{fixed}({inner})"


@dataclass(frozen=True)
class VectorLit:
    """A literal column vector ``[1, 2, 4]`` (only where the dimension is concrete)."""

    items: tuple[Expr, ...]
    pos: Pos = field(compare=False)

    def __str__(self) -> str:
        return "[" + ", ".join(str(i) for i in self.items) + "]"


Expr = Num | Name | BinOp | Neg | Transpose | Call | VectorLit


@dataclass(frozen=True)
class Relation:
    """``left op right`` with ``op`` in :data:`RELATIONS`."""

    op: str
    left: Expr
    right: Expr
    pos: Pos = field(compare=False)

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


# --- statements --------------------------------------------------------------------------


@dataclass(frozen=True)
class Use:
    """``use layernorm`` or ``use layernorm(d=3)``."""

    vocab: str
    options: tuple[tuple[str, Expr], ...]
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Declare:
    """``scalar a, b`` / ``vector u, g`` / ``matrix W``."""

    kind: str  # "scalar" | "vector" | "matrix" | "layer" (the LaTeX layer superscript)
    names: tuple[str, ...]
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Let:
    """``let r = ...`` or ``let F(y) = ...`` (``params`` empty for a plain definition)."""

    name: str
    params: tuple[str, ...]
    body: Expr
    pos: Pos = field(compare=False)
    #: a map written with an arrow (``x \\rightarrow LN(x) = ...``): the definitions its
    #: body uses that depend on the map's variable are of the argument (its statistics)
    of_argument: bool = field(default=False, compare=False)
    #: a LaTeX row that gives a vocabulary name the source's own meaning (sigma with eps,
    #: symnorm/lang/latex_own.py): the document's definition, as a symnorm block's let
    own_meaning: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Assume:
    """``assume eps > 0``: holds for the claims that follow in the document."""

    relation: Relation
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Claim:
    """``claim LABEL: relation given hyp, hyp``.

    ``local_assumptions`` are scalar inequalities written beside a LaTeX equation
    (``a>0``); they hold for this claim only.  ``source`` is the text as written, for
    reports; ``origin`` is ``"text"`` or ``"latex"``.
    """

    label: str
    relation: Relation
    given: tuple[Relation, ...]
    pos: Pos = field(compare=False)
    source: str = field(default="", compare=False)
    origin: str = field(default="text", compare=False)
    local_assumptions: tuple[Relation, ...] = ()
    #: where the claim as written has two readings and this one implies the other (a LaTeX
    #: equation that drops the gain and bias is read with them: a proof holds at gamma = 1,
    #: beta = 0 too), the error any verdict but a proof becomes (docs/latex.md)
    needs_proof: str = field(default="", compare=False)
    #: the hypotheses of that other reading (``gamma == 1, beta == 0``)
    other_reading: tuple[Relation, ...] = field(default=(), compare=False)
    #: a claim the same equation makes in its other reading where the two differ in more
    #: than hypotheses (the same index on both sides of a partial: latex_same_index.py);
    #: only a verdict both readings give stands
    alternative: Claim | None = field(default=None, compare=False)
    #: (what has two readings, this reading's name, the other's, how to write each)
    readings: tuple[str, ...] = field(default=(), compare=False)
    #: how the equation was read where its context decided a reading (shown as notes)
    notes: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Figure:
    """``figure NAME key=value ...``: a figure computed from the declared model."""

    name: str
    options: tuple[tuple[str, str], ...]
    pos: Pos = field(compare=False)


Statement = Use | Declare | Let | Assume | Claim | Figure


def nodes(*roots: Expr | Relation):
    """Every node under ``roots``, each shared subtree once (expanded trees share them).

    >>> from fractions import Fraction
    >>> x = Name("x", Pos(1, 1))
    >>> [type(n).__name__ for n in nodes(BinOp("*", x, x, Pos(1, 2)))]
    ['BinOp', 'Name']
    """
    seen: set[int] = set()
    stack: list = list(reversed(roots))
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        if isinstance(e, (BinOp, Relation)):
            stack += [e.right, e.left]
        elif isinstance(e, (Neg, Transpose)):
            stack.append(e.operand)
        elif isinstance(e, Call):
            stack += reversed(e.args + (e.batch or ()) + tuple(v for _, v in e.bind))
        elif isinstance(e, VectorLit):
            stack += reversed(e.items)


_PREC = {"+": 1, "-": 1, "*": 2, "@": 2, "/": 2, "**": 4}


def _paren(e: Expr, op: str, side: str) -> str:
    s = str(e)
    if isinstance(e, BinOp):
        pe, po = _PREC[e.op], _PREC[op]
        if pe < po or (pe == po and (side == "r" and op in "-/" or op == "**")):
            return f"({s})"
    if isinstance(e, Neg) and op in ("*", "/", "**", "@") or isinstance(e, Neg) and side == "r":
        return f"({s})"
    if op in ("**", "*", "/") and isinstance(e, Num) and e.value.denominator != 1 \
            and (op == "**" or side == "r"):
        return f"({s})"  # x ** (1/3), not x ** 1/3
    return s

"""Tensor-index notation of the LaTeX reader: oneDNN's ``src(t, n, c)``, ``\\mu(t, n)``.

oneDNN's developer guide writes its normalizations over the entries of a tensor named by
their indices: ``\\mu(t, n) = \\frac{1}{C}\\sum_c \\src(t, n, c)`` (layer normalization over
c), ``\\mu(c) = \\frac{1}{NHW}\\sum_{nhw} \\src(n, c, h, w)`` (batch normalization over n, h,
w).  An equation is in this notation when it applies ``src`` or ``dst`` to a tuple of index
letters.  Then, with a vocabulary in force:

* the **vector index** V is the set of letters the statistics reduce over: the letters of
  the equation's sums (every sum over the tensor must reduce over the same letters), or,
  in an equation without such a sum, the letters of ``src``/``dst`` that the entries of
  the vocabulary's statistics (``\\mu(t, n)``) do not list;
* the **fixed indices** F are the others: every entry of a statistic lists exactly F, and
  every ``src``/``dst`` entry lists F and V in one order for the whole equation;
* ``src(..)`` is the vocabulary's input x and ``dst(..)`` its output, at entry V (inside a
  sum over V, the sum's entry; outside, a free index: the equation holds entrywise);
* a statistic at F (``\\mu(t, n)``, ``\\sigma^2(t, n)``) is the vocabulary's statistic of x;
  a parameter at F (BN's ``\\gamma(c)``) is a scalar, at V (LN's ``\\gamma(c)``) a vector's
  entry, so it must be a vector (``use layernorm(affine=elementwise)``);
* the capital of a single vector index (``C`` for c) is the number of its values, d; the
  capital of a fixed index (``T`` for t, BN's ``C`` for c) the number of its values, a
  scalar ``size_t``, ``size_c`` of its own (declared by the equation), unless the document
  defines that letter.

Anything else (an index letter used as a name, entries with different letters, a sum over
other letters than V, a parameter indexed by a mix of F and V) is a located error: the
notation is read only where every index has one role.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from symnorm.errors import SourceError
from symnorm.lang.latex_index import Indexed, IndexSum, term_nodes
from symnorm.lang.syntax import BinOp, Call, Name, Neg, Pos, Transpose

__all__ = ["SIZE_PREFIX", "TENSORS", "TensorEntry", "TensorNames", "read_tensor_notation",
           "tensor_mode"]

#: The tensors oneDNN names: its source (the layer's input) and destination (its output).
TENSORS = ("src", "dst")
#: The name of the number of values of a fixed index t (``T`` in the equation): a scalar
#: of its own, never d, so that ``\frac{1}{C}`` in a mean over n, h, w is refuted.
SIZE_PREFIX = "size_"


@dataclass(frozen=True)
class TensorEntry:
    """``src(t, n, c)``, ``\\mu(t, n)``: ``id`` at the index letters ``letters``
    (parser-internal, rewritten by :func:`read_tensor_notation`, never returned)."""

    id: str
    letters: tuple[str, ...]
    pos: Pos = field(compare=False)

    def __str__(self) -> str:
        return f"{self.id}({', '.join(self.letters)})"


@dataclass(frozen=True)
class TensorNames:
    """What the reader tells the rewrite about the document's names."""

    #: the vocabulary's input vector (``x``) and output (``y``); None when there is none
    input: str | None
    output: str | None
    #: kind of a name: "scalar", "vector", "matrix", "let", "function" or None
    kind: Callable[[str], str | None]
    #: shape of a name ("scalar", "column", ...) with the vocabulary expanded, or None
    shape: Callable[[str], str | None]
    #: whether the document (or the vocabulary) defines a name
    defined: Callable[[str], bool]
    #: whether a name is a vocabulary's count of d (batchnorm's m, NHW, H) that the document
    #: does not define: in this notation a count is written with its indices' capitals
    vocab_count: Callable[[str], bool] = lambda n: False
    #: whether the document itself defines a name (not its vocabulary)
    own: Callable[[str], bool] = lambda n: False


def tensor_mode(toks: list[object]) -> bool:
    """Whether the tokens apply ``src`` or ``dst`` (``\\src``, ``\\dst``) to index letters.

    >>> from symnorm.lang.latex_tokens import tokenize
    >>> tensor_mode(tokenize(r"\\mu(c) = \\frac{1}{NHW}\\sum_{nhw} src(n, c, h, w)", "<t>", 1, 1))
    True
    >>> tensor_mode(tokenize(r"y = xsrc(a)", "<t>", 1, 1)), tensor_mode(tokenize(r"src(a+b)",
    ...                                                                         "<t>", 1, 1))
    (False, False)
    """
    texts = [getattr(t, "text", "") for t in toks]
    starts = [getattr(t, "start", 0) for t in toks]
    ends = [getattr(t, "end", 0) for t in toks]

    def letters_at(j: int) -> bool:  # ( a, b, c ): a tuple of index letters
        if j >= len(texts) or texts[j] != "(":
            return False
        j += 1
        while j + 1 < len(texts) and len(texts[j]) == 1 and texts[j].isalpha():
            if texts[j + 1] == ")":
                return True
            if texts[j + 1] != ",":
                return False
            j += 2
        return False

    for k, s in enumerate(texts):
        if s in ("\\src", "\\dst") and letters_at(k + 1):
            return True
        if k + 3 < len(texts) and "".join(texts[k:k + 3]) in TENSORS \
                and all(ends[j] == starts[j + 1] for j in (k, k + 1)) \
                and letters_at(k + 3) and not (k and ends[k - 1] == starts[k]
                                               and texts[k - 1].isalpha()):
            return True
    return False


def _err(msg: str, pos: Pos, file: str, hint: str = "") -> SourceError:
    return SourceError(msg, file, pos.line, pos.col, hint)


def _map(e: object, f: Callable[[object, str | None], object], summed: str | None) -> object:
    """``e`` with ``f(node, index of the enclosing tensor sum)`` applied to its leaves."""
    if isinstance(e, BinOp):
        return replace(e, left=_map(e.left, f, summed), right=_map(e.right, f, summed))
    if isinstance(e, Neg):
        return Neg(_map(e.operand, f, summed), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Transpose):
        return Transpose(_map(e.operand, f, summed), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Call):
        return replace(e, args=tuple(_map(a, f, summed) for a in e.args))
    if isinstance(e, IndexSum):
        return f(e, summed)
    return f(e, summed)


def _joined_counts(e: object, letters: set[str]) -> object:
    """``e`` with products of capitals of index letters (``N H``, as ``\\frac{1}{NH}``
    parses) joined into one count name (``NH``), read by the count rule."""
    def capitals(n: object) -> str | None:
        if isinstance(n, Name):
            ok = n.id.isalpha() and n.id.isupper() and {c.lower() for c in n.id} <= letters
            return n.id if ok else None
        if isinstance(n, BinOp) and n.op == "*":
            a, b = capitals(n.left), capitals(n.right)
            return a + b if a and b else None
        return None
    if isinstance(e, BinOp):
        run = capitals(e) if e.op == "*" else None
        if run is not None:
            return Name(run, e.pos)  # type: ignore[attr-defined]
        return replace(e, left=_joined_counts(e.left, letters),
                       right=_joined_counts(e.right, letters))
    if isinstance(e, Neg):
        return Neg(_joined_counts(e.operand, letters), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Transpose):
        return Transpose(_joined_counts(e.operand, letters), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Call):
        return replace(e, args=tuple(_joined_counts(a, letters) for a in e.args))
    return e  # a sum is left as it is: the rewrite finds its sums by their value


def read_tensor_notation(rels: list[tuple[object, object]], names: TensorNames, file: str,
                         pos: Pos) -> tuple[list[tuple[object, object]], str, tuple[str, ...]]:
    """The sides of an equation in tensor-index notation rewritten as vector algebra, the
    vector index (the free index of entrywise rows) and the sizes of fixed indices it uses
    (``size_t`` for T: scalars the reader declares); see the module docstring."""
    nodes = [n for side in rels for s in side for n in term_nodes(s)]
    entries = [n for n in nodes if isinstance(n, TensorEntry)]
    tensors = [n for n in entries if n.id in TENSORS]
    if not tensors:
        return rels, "", ()
    full = tensors[0].letters
    for t in tensors:
        if t.letters != full:
            raise _err(f"{t} and {tensors[0]} list different indices: a tensor's entries "
                       "are written with the same index letters throughout the equation",
                       t.pos, file, f"write {t.id}({', '.join(full)})")
    if len(set(full)) != len(full):
        raise _err(f"{tensors[0]} repeats an index letter", tensors[0].pos, file)
    sums = [n for n in nodes if isinstance(n, IndexSum) and set(n.index) <= set(full)
            and len(n.index) >= 1 and any(isinstance(m, TensorEntry) for m in term_nodes(n.body))]
    for n in nodes:
        if isinstance(n, IndexSum) and n not in sums:
            # \sum_i x_i beside src(t, n, c): one notation per equation, so that no letter
            # is both an entry index and a tensor index
            raise _err(f"a sum over {n.index} that is not over indices of {tensors[0]}: in "
                       "an equation in tensor-index notation every sum runs over the "
                       "tensor's vector index", n.pos, file,
                       "write the sum with the tensor's entries (\\sum_c src(t, n, c)), or "
                       "put it in an equation of its own")
    stats = [n for n in entries if n.id not in TENSORS and names.kind(n.id) == "let"]
    if sums:
        vec = set(sums[0].index)
        for s in sums:
            if set(s.index) != vec:
                raise _err(f"a sum over {s.index} beside a sum over {sums[0].index}: the sums "
                           "of one equation reduce over the same indices (the vector index)",
                           s.pos, file)
    elif stats:
        vec = set(full) - set(stats[0].letters)
    else:
        raise _err(f"{tensors[0]}: which of its indices is the vector index (the one the "
                   "statistics reduce over) the equation does not say", tensors[0].pos, file,
                   "write a statistic at the fixed indices (\\mu(t, n)) or a sum over the "
                   "vector index (\\sum_c)")
    fixed = tuple(c for c in full if c not in vec)
    vector = tuple(c for c in full if c in vec)
    if not vector or set(vector) != vec:
        where = sums[0].pos if sums else stats[0].pos
        raise _err(f"the vector index {''.join(sorted(vec)) or '(none)'} is not a set of "
                   f"indices of {tensors[0]}", where, file,
                   "sum over indices of the tensor, and write the statistics at the others")
    index = "".join(vector)
    letters = set(full)

    def tensor(n: TensorEntry) -> str:
        """The vector a tensor entry reads: the document's own src (dst), else the
        vocabulary's input (output)."""
        if names.defined(n.id):
            if names.kind(n.id) != "vector" and names.shape(n.id) != "column":
                raise _err(f"{n}: the document's {n.id} is not a vector", n.pos, file,
                           f"declare `vector {n.id}`, or leave {n.id} to the vocabulary")
            return n.id
        own = names.input if n.id == "src" else names.output
        if own is None:
            raise _err(f"{n}: src and dst are the input and output of a layer vocabulary, "
                       "and this block uses none", n.pos, file,
                       "add `use layernorm` or `use batchnorm` to the block, or declare "
                       f"`vector {n.id}`")
        return own

    def entry(n: TensorEntry, summed: str | None) -> object:
        at = summed if summed is not None else index
        if n.id in TENSORS:
            return Indexed(tensor(n), at, n.pos)
        if n.letters == fixed:
            if names.shape(n.id) not in ("scalar", None) or names.kind(n.id) == "vector":
                raise _err(f"{n} is at the fixed indices {', '.join(fixed)}, but {n.id} is "
                           "a vector here", n.pos, file,
                           f"write {n.id}({', '.join(vector)}) for its entries")
            return Name(n.id, n.pos)
        if n.letters == vector:
            if names.kind(n.id) != "vector" and names.shape(n.id) != "column":
                raise _err(f"{n} is at the vector index {', '.join(vector)}, so {n.id} "
                           "would be a vector, but it is a scalar here", n.pos, file,
                           "declare it a vector (per-element parameters: `use "
                           "layernorm(affine=elementwise)`), or write one value per fixed "
                           f"index as {n.id}({', '.join(fixed)})")
            return Indexed(n.id, at, n.pos)
        raise _err(f"{n}: an entry lists either the fixed indices ({', '.join(fixed) or '-'})"
                   f" or the vector index ({', '.join(vector)}) of {tensors[0]}", n.pos, file)

    def leaf(n: object, summed: str | None) -> object:
        if isinstance(n, IndexSum):
            if n in sums:
                return IndexSum(index, _map(n.body, leaf, index), n.pos, n.within)
            return IndexSum(n.index, _map(n.body, leaf, summed), n.pos, n.within)
        if isinstance(n, TensorEntry):
            return entry(n, summed)
        if isinstance(n, (Name, Indexed)) and (n.id in letters or isinstance(n, Indexed)
                                               and n.index in letters):
            raise _err(f"{n}: the index letter {n.id if n.id in letters else n.index} is used "
                       "outside a tensor entry", n.pos, file,
                       "in tensor-index notation the letters are indices only; name "
                       "quantities with other letters")
        if isinstance(n, Name) and n.id.isalpha() and n.id.isupper() and not names.own(n.id) \
                and {c.lower() for c in n.id} <= letters:
            return count(n)
        if isinstance(n, Name) and names.vocab_count(n.id):
            # batchnorm's m under \sum_{nh}: the mini-batch size is not the N*H summed here
            raise _err(f"{n.id}: the vocabulary's count of d is not read in tensor-index "
                       "notation, where a count is the capitals of its indices", n.pos, file,
                       f"write {''.join(c.upper() for c in vector)} for the number of values "
                       f"summed over ({', '.join(vector)})")
        return n

    def count(n: Name) -> Name:
        """C, NHW: the number of values of the indices whose capitals they are."""
        lows = tuple(c.lower() for c in n.id)
        if sorted(lows) == sorted(vector) and len(set(lows)) == len(lows):
            return Name("d", n.pos)  # C for \sum_c, NHW for \sum_{nhw}: the vector's size
        if len(lows) == 1 and lows[0] in fixed:
            # T: the number of values of a fixed index t, a count of its own (not d)
            sizes.append(f"{SIZE_PREFIX}{lows[0]}")
            return Name(sizes[-1], n.pos)
        raise _err(f"{n.id} counts the values of the indices {', '.join(lows)}, but the vector "
                   f"index is ({', '.join(vector)}): the count of the sum would be "
                   f"{''.join(c.upper() for c in vector)}", n.pos, file,
                   f"write {''.join(c.upper() for c in vector)} (the values summed over), or "
                   "name another count with a letter of its own (`scalar K`)")

    sizes: list[str] = []
    out = [tuple(_map(_joined_counts(s, letters), leaf, None) for s in side) for side in rels]
    return out, index, tuple(dict.fromkeys(sizes))  # type: ignore[return-value]

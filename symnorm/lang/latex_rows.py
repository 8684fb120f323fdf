r"""Two-index entries of a data matrix, read one vector of the layer at a time.

Sources write the layer's input as a matrix of samples (rows) and features (columns): NeMo's
LayerNorm ``\mu = \frac{1}{F}\sum_{j=1}^{F} X_{ij}``, Clement Thorey's BatchNorm ``\mu_l =
\frac{1}{N}\sum_p h_{pl}``.  Where the document says which vector of the layer the matrix
holds (``let X = x``, ``let h = x``; also the vocabulary's own ``x``, ``\hat x``, ``y`` and
their aliases), an entry ``X_{ij}`` is entry V of one such vector, the **vector index** V
running along the normalized axis and the other letter a **fixed index** F naming which
vector (as oneDNN's tensor notation reads ``src(t, n, c)``, latex_tensor.py).  The relation
then holds for every vector when it holds for the vocabulary's vector x.

Which letter is V:

* the letter summed over (``\sum_j X_{ij}``), the letter of an entry of a vector of the
  document (``\gamma_j`` under ``affine=elementwise``), the letter a scalar leaves out
  (``\mu_l``, ``\sigma_l^2``: the statistic of the vector F names is the vocabulary's
  ``mu``, ``sigma ** 2``).  Two of these that disagree are refused, naming both;
* where nothing fixes it, the relation is read with each letter as V, and only if both
  readings are the same relation is it read (else refused, naming both).

The axis the vocabulary normalizes decides where V may stand: the rows of a data matrix are
its samples, so under ``use layernorm`` (and rmsnorm: one sample's values) V is the second
letter (a row: ``X_{ij}`` along j), under ``use batchnorm`` the first
(a column: one feature's batch, ``h_{pl}`` along p); under groupnorm and instancenorm,
whose subscripted statistics are a group's, data-matrix entries are refused.  A relation that runs along the other
axis (a column's mean under layernorm) is refused, and so is a sum over F (across the
independent vectors), an unindexed statistic's axis never is: ``\mu`` beside ``X_{ij}`` is
the statistic of the vector F names.

>>> from symnorm.check.run import check_text
>>> doc = ("```symnorm\nuse batchnorm\nlet N = d\nlet h = x\n```\n\n"
...        "```latex e\n\\mu_l = \\frac{1}{N}\\sum_p h_{pl}\n```\n")
>>> [(v.status, str(v.statement)) for v in check_text(doc, "d.md").verdicts][0]
('proved', 'mu == 1 / N * sum(h)')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from symnorm.errors import SourceError
from symnorm.lang.latex_index import Indexed, IndexSum, MatrixEntry
from symnorm.lang.latex_matrix import _rewrite, _walk
from symnorm.lang.syntax import BinOp, Call, Name, Neg, Pos, Transpose

__all__ = ["DataPartial", "ScalarAt", "data_letters_ok", "read_data_rows", "row_axis"]


@dataclass(frozen=True)
class DataPartial(MatrixEntry):
    r"""A partial by or of an entry of a data matrix (``\partial L/\partial y_{ij}``,
    ``\partial \hat x_{ij}/\partial \sigma^2_j``; latex_row_partials.py): an entry with the
    letters (row, col) whose reading for one vector is the single-index partial that
    ``reading(letter)`` gives at the vector index ``letter``."""

    reading: Callable[[str], object] = field(default=lambda v: None, compare=False)
    #: the letter the partial writes at the fixed index (``\sigma^2_j``: j), if any
    fixed: str | None = None


@dataclass(frozen=True)
class ScalarAt:
    r"""``\partial L/\partial \beta_j`` with a scalar beta: the partial by the scalar of the
    vector that the fixed index ``index`` names, ``value``; beside no data-matrix entry it
    is ``error`` (an entry of a scalar)."""

    id: str
    index: str
    pos: Pos = field(compare=False)
    value: object = field(default=None, compare=False)
    error: SourceError | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.id}_{self.index}"

#: the axis of a data matrix (rows the samples) along which each vocabulary normalizes:
#: 1, a row (a sample's features); 0, a column (a feature's batch)
_AXIS = {"layernorm": 1, "rmsnorm": 1, "batchnorm": 0}
#: vocabularies whose statistics are per group of entries: there ``\mu_i`` is the statistic
#: of entry i's group (Wu and He), read before this module sees the subscript
_GROUPED = ("groupnorm", "instancenorm")
_WHAT = {1: "a sample's features, a row", 0: "a feature's batch, a column"}
_ALONG = {1: "a row", 0: "a column"}


def _err(msg: str, pos: Pos, file: str, hint: str = "") -> SourceError:
    return SourceError(msg, file, pos.line, pos.col, hint)


def _shared_at_sample(what: str, n: Any, vocab: str, first: object,
                      file: str) -> SourceError:
    """The error for a shared affine parameter written at the sample's letter."""
    return _err(f"{what}: under {vocab} the scalar {n.id} is one parameter shared by every "
                f"sample, so {n.id} at the sample's letter {n.index} of {first} names "
                "nothing", n.pos, file, f"write {n.id} without the subscript; a per-element "
                "parameter is a vector: `use ...(affine=elementwise)`")


def row_axis(vocabs: tuple[str, ...]) -> tuple[int | None, str]:
    """(the axis, the vocabulary) of the block's layer vocabularies: None where they give
    two axes (layernorm beside batchnorm) or the statistics are a group's."""
    grouped = [v for v in vocabs if v in _GROUPED]
    if grouped:
        return None, grouped[0]
    axes = {v: _AXIS[v] for v in vocabs if v in _AXIS}
    if len(set(axes.values())) > 1:
        return None, " and ".join(sorted(axes))
    if not axes:
        return 1, "the block"
    return next(iter(axes.values())), next(iter(axes))


def entry_partial(base: str, letters: str) -> tuple[str, str]:
    """The message and hint for a partial by ``base_{letters}``, a data matrix's entry:
    derivatives by a data matrix's entries are not read (red team 19)."""
    return (f"a partial by {base}_{{{letters}}}, an entry of a data matrix: derivatives by "
            "the entries of a data matrix are not read (only its relations, one vector at a "
            "time)", "write the derivative for one vector of the layer, with one index "
            "(\\frac{\\partial \\hat x_j}{\\partial x_k})")


def data_letters_ok(sub: str, defined: Callable[[str], bool]) -> bool:
    """Whether a two-letter subscript of a data-matrix name (``h_{pl}``) is two index
    letters: distinct lowercase letters that the document gives no meaning (never d)."""
    return len(sub) == 2 and sub[0] != sub[1] and all(
        c.isascii() and c.isalpha() and c.islower() and c != "d" and not defined(c)
        for c in sub)


def _subscripted(e: object, first: MatrixEntry, shape: Callable[[str], str | None],
                 file: str) -> object | None:
    """``\\mu_l`` read as the name ``mu_l`` where l is no index letter of the reader: the
    entry l of mu when l is a letter of the data entries and ``mu_l`` means nothing; with
    another letter an error (Thorey's typo ``\\mu_l = \\frac{1}{N}\\sum_p h_{pj}`` would
    define a new name mu_l)."""
    if isinstance(e, Name):
        m = re.fullmatch(r"(.+)_([a-z])", e.id)
        if m and shape(e.id) is None and shape(m.group(1)) is not None:
            if m.group(2) in (first.row, first.col):
                return Indexed(m.group(1), m.group(2), e.pos)
            raise _err(f"{m.group(1)}_{m.group(2)} beside the data-matrix entry {first}: "
                       f"its index {m.group(2)} is neither letter of the entry ({first.row}, "
                       f"{first.col}), so which vector its {m.group(1)} is of is not said",
                       e.pos, file, f"write the statistic at the fixed index of {first}")
    return None


def read_data_rows(left: object, right: object, *, is_row: Callable[[str], bool],
                   shape: Callable[[str], str | None], vocabs: tuple[str, ...],
                   file: str, shared: Callable[[str], bool] = lambda n: False,
                   per_vector: Callable[[str], bool] = lambda n: True
                   ) -> tuple[object, object]:
    """The relation ``left ~ right`` over data-matrix entries, read for one vector (see the
    module docstring); unchanged when it has no such entry."""
    nodes: list[tuple[object, frozenset[str]]] = []
    for side in (left, right):
        _walk(side, frozenset(), nodes)
    data = [n for n, _ in nodes if isinstance(n, DataPartial) or isinstance(n, MatrixEntry)
            and n.expr is None and is_row(n.id)]
    if not data:
        scalar = next((n for n, _ in nodes if isinstance(n, ScalarAt)), None)
        if scalar is not None and scalar.error is not None:
            raise scalar.error  # \partial L/\partial \beta_j beside no data-matrix entry
        return left, right
    first = data[0]
    letters = (first.row, first.col)
    axis, vocab = row_axis(vocabs)
    if axis is None and vocab in _GROUPED:
        # red team of this rule: under groupnorm, \hat X_{ij} = \frac{X_{ij} -
        # \mu_i}{\sqrt{\sigma_i^2+\epsilon}} was proved, mu_i read as the group's mean of
        # entry i although i is the sample here
        raise _err(f"{first}: under {vocab} a subscripted statistic (\\mu_i) is the "
                   "statistic of an entry's group, while beside a data matrix's entry it "
                   "would be the statistic of a sample's vector: two readings, so the entries "
                   "of a data matrix are not read here", first.pos, file,
                   "write the vector's entries with one index (x_i) and the group's "
                   "statistics as the vocabulary names them")
    if axis is None:
        raise _err(f"{first}: {vocab} normalize different axes of a data matrix (a sample's "
                   "features, a feature's batch), so which letter of the entry runs along "
                   "the vector has two readings", first.pos, file,
                   "state the data-matrix equations in a block with one layer vocabulary")
    if axis == 1:
        _shared_derivative(nodes, first, vocab, shared, file)
    left, right = (_rewrite(s, lambda e: _subscripted(e, first, shape, file))
                   for s in (left, right))
    nodes = []
    for side in (left, right):
        _walk(side, frozenset(), nodes)
    # entries summed over a third letter at the vector's place (Thorey's \sum_k dL/dy_{kj}
    # beside dL/dh_{ij}): the same vector's entries, checked once the fixed index is known
    summed: dict[int, str] = {}
    for n, bound in nodes:
        if isinstance(n, MatrixEntry) and (n.row, n.col) != letters \
                and (isinstance(n, DataPartial) or n.expr is None and is_row(n.id)):
            new = (n.row, n.col)[axis]
            if new in bound and new not in letters and (n.row, n.col)[1 - axis] in letters:
                summed[id(n)] = new
                continue
        if isinstance(n, MatrixEntry) and ((n.row, n.col) != letters or (
                not isinstance(n, DataPartial) and (n.expr is not None or not (
                    is_row(n.id) or n is left and shape(n.id) is None)))):
            raise _err(f"{n} beside the data-matrix entry {first}: every entry of a relation "
                       "over the vectors of a data matrix is an entry of one of them, with "
                       f"the letters {''.join(letters)}", n.pos, file,
                       "state matrix entries (\\delta_{ij}, Jacobian entries) in an "
                       "equation of their own")
        if isinstance(n, ScalarAt) and n.index not in letters:
            raise _err(f"the partial by {n} beside the data-matrix entry {first}: its index "
                       f"{n.index} is neither letter of the entry ({first.row}, {first.col}), "
                       f"so which vector's {n.id} it is is not said", n.pos, file,
                       f"write it at the fixed index of {first}")
        if isinstance(n, Indexed) and n.expr is None and n.index not in letters \
                and n.index not in bound:
            raise _err(f"{n} beside the data-matrix entry {first}: its index {n.index} is "
                       f"neither letter of the entry ({first.row}, {first.col}) nor summed, "
                       f"so which vector its {n.id} is of is not said", n.pos, file,
                       f"write it at a letter of {first}")
    # what says which letter is the vector index: letter -> the parts that say so
    says: dict[str, list[str]] = {}
    at: list[Pos] = []  # where a part other than a sum says it
    for n, bound in nodes:
        if isinstance(n, DataPartial) and n.fixed is not None:
            other = letters[1] if n.fixed == letters[0] else letters[0]
            says.setdefault(other, []).append(
                f"{n.id} at the fixed index {n.fixed}")
            at.append(n.pos)
        if isinstance(n, ScalarAt) and n.index in letters:
            if shared(n.id) and axis == 1 and n.index == letters[0]:
                raise _shared_at_sample(f"\\partial .../\\partial {n}", n, vocab, first, file)
            other = letters[1] if n.index == letters[0] else letters[0]
            says.setdefault(other, []).append(
                f"the partial by {n}, the scalar {n.id} at the fixed index {n.index}")
            at.append(n.pos)
        if isinstance(n, MatrixEntry):
            for b in sorted(bound & set(letters)):
                says.setdefault(b, []).append(f"the sum over {b}")
        elif isinstance(n, Indexed) and n.index in letters:
            if n.expr is not None:  # an entry of a derivative (\\partial L/\\partial y_j)
                says.setdefault(n.index, []).append(
                    f"{n}, an entry of a vector, along {n.index}")
                at.append(n.pos)
            elif shape(n.id) == "column":
                says.setdefault(n.index, []).append(
                    f"{n}, an entry of the vector {n.id}, along {n.index}")
                at.append(n.pos)
            elif shape(n.id) == "scalar":
                if shared(n.id) and axis == 1 and n.index == letters[0]:
                    # under layernorm one gamma serves every sample, so a gamma of sample i
                    # is no meaning of it (red team of the rule: it was read as the shared
                    # gamma, the subscript dropped); batchnorm's gamma_l is feature l's
                    raise _shared_at_sample(str(n), n, vocab, first, file)
                other = letters[1] if n.index == letters[0] else letters[0]
                says.setdefault(other, []).append(
                    f"{n}, the scalar {n.id} at the fixed index {n.index}")
                at.append(n.pos)
    if any(isinstance(n, MatrixEntry) and set(letters) <= bound for n, bound in nodes):
        # \sum_i\sum_j: every entry of the matrix, across its vectors
        raise _err(f"sums over both letters {''.join(letters)} of {first}: a sum over every "
                   "entry of the data matrix runs across its vectors (samples under "
                   "layernorm, features under batchnorm), which cannot be represented by "
                   "the one-vector model", (at or [first.pos])[0], file,
                   "sum over the vector's letter only, for one vector")
    if len(says) > 1:
        a, b = sorted(says)
        raise _err(f"the letters {''.join(letters)} of {first}: which one runs along the "
                   f"vector (the vector index) the relation says in two ways: "
                   f"{says[a][0]} makes it {a}, {says[b][0]} makes it {b}",
                   (at or [first.pos])[0], file,
                   f"sum over the vector's letter ({first.id}_{{{letters[0]}{letters[1]}}} "
                   "summed over one letter) and write the statistics at the other (\\mu_l)")
    if says:
        (vector,) = says
        if vector != letters[axis]:
            # X_{ji} summed over j is a column of X, not a row (red team 12: the column mean
            # \frac{1}{F}\sum_j X_{ji} was proved as the row's mean)
            place = "second" if axis == 1 else "first"
            affine = any(f"the scalar {a} " in r for r in says[vector] for a in ("gamma", "beta"))
            across = any(isinstance(n, (DataPartial, ScalarAt)) for n, _ in nodes) \
                and says[vector][0].startswith("the sum over")
            raise _err(f"{first}: the rows of a data matrix are its samples, and under "
                       f"{vocab} the vector is {_WHAT[axis]} of {first.id}, along the {place} "
                       f"index {letters[axis]}; but {says[vector][0]} makes the vector "
                       f"index {vector}, so the relation runs along {_ALONG[1 - axis]}" + (
                           ": a derivative summed across the vectors (the gradient of a "
                           "parameter every vector shares) cannot be represented by the "
                           "one-vector model" if across else ""),
                       first.pos, file,
                       f"where the source's {first.id} holds its vectors the other way, write "
                       f"{first.id}_{{{_order(vector, letters, axis)}}}; or use the "
                       "vocabulary that normalizes that axis" + (
                           "; a per-element gain or bias needs `use ...(affine=elementwise)`"
                           if affine else ""))
        return _read(left, right, nodes, letters, vector, shape, first, file, summed=summed,
                     per_vector=per_vector)
    if summed:
        n = next(n for n, _ in nodes if id(n) in summed)
        raise _err(f"{n} beside the data-matrix entry {first}: an entry summed over another "
                   "letter is read only where the relation says which letter runs along the "
                   "vector", n.pos, file, "write the statistics at the fixed index (\\mu_l)")
    # nothing fixes the vector index: each letter as V, read only if the relations agree
    # (each reading's entries written at one letter, so that the same relation compares equal)
    readings = [_read(left, right, nodes, letters, vector, shape, first, file, letters[axis],
                      resolve=False, per_vector=per_vector) for vector in (letters[axis], letters[1 - axis])]
    if readings[0] != readings[1]:
        a, b = letters[axis], letters[1 - axis]
        raise _err(f"the letters {''.join(letters)} of {first}: nothing says which one runs "
                   f"along the vector (no sum over one of them, no statistic at the other), "
                   f"and along {a} the relation is {readings[0][0]} ~ {readings[0][1]}, "
                   f"along {b} it is {readings[1][0]} ~ {readings[1][1]}: two readings",
                   first.pos, file, "sum over the vector's letter or write the statistics "
                   "at the other (\\mu_l)")
    return _read(left, right, nodes, letters, letters[axis], shape, first, file,
                 per_vector=per_vector)


def _jacobian_vars(e: object, out: set[tuple[str, Pos]]) -> None:
    """The variables of the Jacobians in ``e``, also inside read partials (``Indexed.expr``)."""
    if isinstance(e, Call) and e.func == "jacobian" and len(e.args) == 2 \
            and isinstance(e.args[1], Name):
        out.add((e.args[1].id, e.pos))
    if isinstance(e, (Indexed, MatrixEntry)) and e.expr is not None:
        _jacobian_vars(e.expr, out)
    if isinstance(e, BinOp):
        kids: tuple[object, ...] = (e.left, e.right)
    elif isinstance(e, (Neg, Transpose)):
        kids = (e.operand,)
    elif isinstance(e, Call):
        kids = e.args + (e.batch or ())
    elif isinstance(e, IndexSum):
        kids = (e.body,)
    else:
        kids = ()
    for child in kids:
        _jacobian_vars(child, out)


def _shared_derivative(nodes: list[tuple[object, frozenset[str]]], first: MatrixEntry,
                       vocab: str, shared: Callable[[str], bool], file: str) -> None:
    """Under a vocabulary whose vectors are the samples (layernorm, rmsnorm) the affine
    parameters serve every sample: a derivative by one of them beside a data matrix's entries
    is, for the matrix, a sum over all its vectors (\\partial L/\\partial\\gamma_j =
    \\sum_i ...), while read for one vector it would be that vector's share: refused."""
    found: set[tuple[str, Pos]] = set()
    for n, _ in nodes:
        _jacobian_vars(n, found)
    hit = sorted((p.line, p.col, v) for v, p in found if shared(v))
    if hit:
        line, col, var = hit[0]
        raise _err(f"a derivative by {var} beside the data-matrix entry {first}: under {vocab} "
                   f"{var} is one parameter shared by every sample (every vector of the data "
                   f"matrix), so its derivative sums over all of them, which cannot be represented by "
                   "the one-vector model", Pos(line, col), file,
                   f"state the derivative by {var} for one sample's vector, with one index "
                   "(\\frac{\\partial L}{\\partial \\gamma} = \\sum_j ... \\hat x_j)")


def _order(vector: str, letters: tuple[str, str], axis: int) -> str:
    other = letters[0] if vector == letters[1] else letters[1]
    return vector + other if axis == 0 else other + vector


def _read(left: object, right: object, nodes: list[tuple[object, frozenset[str]]],
          letters: tuple[str, str], vector: str, shape: Callable[[str], str | None],
          first: MatrixEntry, file: str, as_letter: str | None = None,
          resolve: bool = True, summed: dict[int, str] | None = None,
          per_vector: Callable[[str], bool] = lambda n: True) -> tuple[object, object]:
    """The relation for one vector, with ``vector`` the vector index (its entries written at
    ``as_letter``, by default ``vector``); without ``resolve`` a partial is left a plain
    entry (the two readings are compared without reading it twice)."""
    fixed = letters[0] if vector == letters[1] else letters[1]
    partial = any(isinstance(n, (DataPartial, ScalarAt)) for n, _ in nodes)
    for n, _ in nodes:
        if isinstance(n, IndexSum) and n.index == fixed:
            raise _err(f"a sum over {fixed}, the fixed index of {first}: the vectors are "
                       "independent (samples under layernorm, features under batchnorm), so "
                       "a sum across them is not a statistic of one vector" + (
                           "; a derivative summed across them (the gradient of a parameter "
                           "every vector shares) cannot be represented by the one-vector "
                           "model" if partial else ""),
                       n.pos, file, f"sum over {vector}")
        if isinstance(n, DataPartial) and n.fixed is not None and n.fixed != fixed:
            raise _err(f"{n.id} at {n.fixed}, the vector index of {first}: a scalar of the "
                       f"vector is written at its fixed index {fixed}", n.pos, file,
                       f"write it at {fixed}")

    summed = summed or {}
    for n, _ in nodes:
        if id(n) in summed and isinstance(n, MatrixEntry) \
                and fixed not in (n.row, n.col):
            raise _err(f"{n} beside the data-matrix entry {first}: summed over "
                       f"{summed[id(n)]}, it is at the fixed index {fixed} of no vector "
                       f"{first} is of", n.pos, file, f"write it at the fixed index {fixed}")

    def one(n: object) -> object | None:
        if id(n) in summed:  # \sum_k h_{kj}: entry k of the same vector
            if isinstance(n, DataPartial):
                return n.reading(summed[id(n)]) if resolve else Indexed(n.id, summed[id(n)],
                                                                        n.pos)
            return Indexed(n.id, summed[id(n)], n.pos)  # type: ignore[attr-defined]
        if isinstance(n, DataPartial):
            if not resolve:
                return Indexed(n.id, as_letter or vector, n.pos)
            return n.reading(as_letter or vector)
        if isinstance(n, ScalarAt):
            if n.index != fixed:
                raise _err(f"the partial by {n}: {n.id} at {n.index}, the vector index of "
                           f"{first}, while a scalar of the vector is written at its fixed "
                           f"index {fixed}", n.pos, file, f"write {n.id}_{fixed}")
            return n.value
        if isinstance(n, MatrixEntry):
            return Indexed(n.id, as_letter or vector, n.pos)
        if isinstance(n, Indexed) and n.index == fixed:
            if n.expr is not None or shape(n.id) != "scalar":
                raise _err(f"{n}: {n.id} at the fixed index {fixed} must be a scalar of "
                           "the vector that index names, but it is not", n.pos, file,
                           f"write {n.id}_{vector} for its entries")
            if not per_vector(n.id):  # \epsilon_j, d_i, m_j: one value for every vector
                raise _err(f"{n}: {n.id} is one scalar for every vector, not a scalar of the "
                           f"vector the index {fixed} names (a statistic, or the gain and "
                           "bias of use batchnorm), so the index means nothing here", n.pos,
                           file, f"write {n.id} without the index")
            return Name(n.id, n.pos)
        return None

    return _rewrite(left, one), _rewrite(right, one)

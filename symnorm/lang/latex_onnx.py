"""ONNX and OpenVINO function syntax: ``ReduceMean<axes=normalized_axes>(X)``, ``Sqrt(..)``.

Operator specifications print a layer as a program of capitalised operators
(ONNX LayerNormalization-17: ``Mean = ReduceMean<axes=normalized_axes>(X)``, ``D = Sub(X,
Mean)``; OpenVINO RMS-14: ``(x / Sqrt(ReduceMean(x^2, axes) + eps))``).  Each operator has
its ONNX meaning on the vectors of the claim language:

==================================  ==========================================================
``ReduceMean(A)``                   the mean of the entries of A (``mean(A)``; ``A^2`` inside
                                    is the entrywise square, as in ``\\mathrm{E}[x^2]``)
``ReduceMean(A, axes)``,            the same: the vocabulary's normalized axes are every entry
``ReduceMean<axes=normalized_axes>``
``Sqrt(A)``                         ``sqrt(A)``
``Add``, ``Sub``, ``Mul``, ``Div``  ``A + B``, ``A - B``, ``A * B``, ``A / B`` with ONNX's
                                    broadcasting: a scalar beside a vector is spread over it,
                                    ``Mul`` of two vectors is the entrywise product, of a
                                    matrix an error (never the matrix product)
``Pow(A, B)``                       ``A ** B``
``Reciprocal(A)``                   ``1 / A``
==================================  ==========================================================

Any other axes (``axes=[0]``, ``ReduceMean(x, 1)``) is an error naming it: symnorm models one
vector per layer, so only the layer's own axes have a meaning.  ``ReduceMean`` of an entry
(``ReduceMean(i_k, axes)``) is an error too: it is either OpenVINO's mean over k or the mean
of the one number i_k (itself), two readings.

An equation that applies one of these operators is read in this syntax (:func:`onnx_mode`):
a run of letters that starts with a capital is one identifier (``NormalizedScaled``,
``InvStdDev``, never N*o*r*m*...), as ONNX writes products only with ``Mul``; where every
letter of the run is itself a defined name, it is an error (two readings), as outside it.

>>> from symnorm.lang.latex_tokens import tokenize
>>> onnx_mode(tokenize("D = Sub(X, Mean)", "<t>", 1, 1)), onnx_mode(tokenize("Sub = 1", "<t>", 1, 1))
(True, False)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from symnorm.lang.latex_index import ExprPartial, Indexed, IndexSum, MatrixEntry, term_nodes
from symnorm.lang.latex_tokens import Tok
from symnorm.errors import SourceError
from symnorm.lang.syntax import BinOp, Call, Expr, Num

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser

__all__ = ["ONNX_OPERATORS", "REDUCE_MEAN", "onnx_identifier", "onnx_mode", "read_onnx_call",
           "reduce_mean"]

#: operator -> (arity, claim-language operator or function)
ONNX_OPERATORS: dict[str, tuple[int, str]] = {
    "ReduceMean": (1, "mean"), "Sqrt": (1, "sqrt"), "Reciprocal": (1, "1/"),
    "Add": (2, "+"), "Sub": (2, "-"), "Mul": (2, "*"), "Div": (2, "/"), "Pow": (2, "**"),
}
#: ``ReduceMean(A)`` until A's shape is known (:func:`reduce_mean`); never reaches the engines
REDUCE_MEAN = "<ReduceMean>"
#: the names operator specifications give the normalized axes of the layer
_AXES_WORDS = ("axes", "normalized_axes")


def _runs(toks: list[Any]) -> list[tuple[int, int, str]]:
    """(first, after, text) of every run of single letters written against each other."""
    out, j = [], 0
    while j < len(toks):
        if not _is_letter(toks[j]):
            j += 1
            continue
        k = j + 1
        while k < len(toks) and _is_letter(toks[k]) and toks[k].start == toks[k - 1].end:
            k += 1
        out.append((j, k, "".join(t.text for t in toks[j:k])))
        j = k
    return out


def _is_letter(t: Any) -> bool:
    text = getattr(t, "text", "")
    return len(text) == 1 and text.isalpha()


def onnx_mode(toks: list[Any]) -> bool:
    """Whether the tokens apply an ONNX operator: its word, then ``(`` or ``<``."""
    for _, k, word in _runs(toks):
        if word in ONNX_OPERATORS and k < len(toks) and toks[k].text in ("(", "<") \
                and toks[k].start == toks[k - 1].end:
            return True
    return False


def onnx_identifier(p: ExprParser, run: list[Tok], word: str) -> str | None:
    """In an equation in ONNX syntax, the identifier a capitalised letter run spells (or an
    operator's word), or None where the run is no such identifier (lower case, one letter)."""
    if len(run) < 2 or not word[0].isupper() or not word.isalpha():
        return None
    if word in ONNX_OPERATORS:
        return word
    letters = {t.text for t in run}
    if all(p.defined(c) for c in letters):  # as _word_run refuses a defined word's letters
        raise p.err(f"{word!r} in ONNX function syntax is an identifier, but each of its "
                    "letters is a defined name too: the identifier or their product, two "
                    "readings", run[0], "rename the identifier, or write the product with "
                    "Mul(..)")
    return word


def read_onnx_call(p: ExprParser, t: Tok, word: str) -> Expr:
    """After an operator's word (consumed): its attributes, arguments and ONNX meaning."""
    arity, op = ONNX_OPERATORS[word]
    pos = p.pos(t)
    if p.at("<"):
        if word != "ReduceMean":
            raise p.err(f"{word}<..>: only ReduceMean takes an attribute here", p.peek())
        _axes_attribute(p, word)
    o = p.expect("(", t)
    p.closers.append(None)
    try:
        args = [p.expr()]
        while p.at(","):
            comma = p.next()
            if word == "ReduceMean" and len(args) == 1:
                _axes_input(p, comma, word)
                break
            args.append(p.expr())
    finally:
        p.closers.pop()
    p.expect(")", o)
    if len(args) != arity:
        raise p.err(f"{word} takes {arity} argument(s) here, got {len(args)}", t,
                    f"ONNX's {word}({', '.join('AB'[:arity])})")
    if word == "ReduceMean":
        if any(isinstance(n, (Indexed, IndexSum, ExprPartial, MatrixEntry))
               for n in term_nodes(args[0])):
            raise p.err("ReduceMean of an indexed entry: the mean over its index (as "
                        "OpenVINO means) or the mean of that one number, two readings", t,
                        "apply ReduceMean to the whole vector (ReduceMean(x, axes)) or write "
                        "the mean over k as \\frac{1}{d}\\sum_k x_k")
        return Call(REDUCE_MEAN, (args[0],), pos)
    if op == "sqrt":
        return Call("sqrt", (args[0],), pos)
    if op == "1/":
        return BinOp("/", Num(Fraction(1), pos), args[0], pos)
    # Mul: between two vectors the entrywise product, of a matrix an error (latex.py's
    # _broadcast reads it by the operands' shapes)
    return BinOp(op, args[0], args[1], pos, written="Mul" if op == "*" else "")


def _axes_attribute(p: ExprParser, word: str) -> None:
    """``<axes=normalized_axes>``: the layer's normalized axes, or an error naming them."""
    lt = p.next()
    j = p.i
    while j < len(p.toks) and p.toks[j].text not in (">", "(", ")"):
        j += 1
    if j >= len(p.toks) or p.toks[j].text != ">":
        raise p.err(f"{word}<: the attribute list has no closing '>'", lt)
    text = "".join(tok.text for tok in p.toks[p.i:j]).replace("\\_", "_")
    key, _, value = text.partition("=")
    if key != "axes" or value not in _AXES_WORDS:
        raise p.err(f"{word}<{text}>: only the layer's normalized axes "
                    "(<axes=normalized_axes>) have a meaning here", p.toks[p.i] if p.i < j
                    else lt, "symnorm models one normalized vector: reduce over its axes")
    p.i = j + 1


def _axes_input(p: ExprParser, comma: Tok, word: str) -> None:
    """``ReduceMean(x^2, axes)``: OpenVINO's axes input, the layer's normalized axes."""
    j = p.i
    while j < len(p.toks) and p.toks[j].text not in (")", ","):
        j += 1
    text = "".join(tok.text for tok in p.toks[p.i:j]).replace("\\_", "_")
    if text not in _AXES_WORDS:
        raise p.err(f"{word}(.., {text}): only the layer's normalized axes (axes, "
                    "normalized_axes) have a meaning here", p.peek() or comma,
                    "symnorm models one normalized vector: reduce over its axes")
    p.i = j


def reduce_mean(e: Call, shape: str | None, file: str) -> Call:
    """``ReduceMean(A)`` once A's shape is known (``shape``; None inside a function body): the
    mean of a vector's entries.  Of a matrix ONNX's default reduces every axis to one number,
    while ``mean`` here would be the row of column means; of a scalar it is the scalar: both
    are refused rather than read another way."""
    if shape not in ("column", None):
        pos = e.pos
        raise SourceError(f"ReduceMean of a {shape}: read only of a vector (the layer's "
                          "normalized entries)", file, pos.line, pos.col,
                          "apply ReduceMean to the layer's vector (x, X)")
    return Call("mean", e.args, e.pos)

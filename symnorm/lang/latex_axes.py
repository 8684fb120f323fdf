r"""Code-like notation of framework docs: a statistic's axis argument, method calls, ``std``.

TensorRT prints ``Mean(X, axes)``, MXNet's Gluon ``mean[data, axis]``, smelte-rs
``x.mean()``, numpy and PyTorch code ``x.mean(axis=-1)``, AllenNLP ``std`` (issue 10).  Every
token contributes to the meaning or is an error:

* **An axis argument** is checked against the reduction of the block's one layer vocabulary:
  ``use layernorm`` and ``use rmsnorm`` reduce over the features of one sample, the last axis
  (numpy's, PyTorch's and Keras's ``axis=-1``); ``use batchnorm`` over the batch of one
  feature, axis 0 of an (N, C) input.  An integer (``Mean(X, -1)``, ``axis=-1``, ``dim=-1``) is
  that axis; a name (``axes``, ``axis``, ``normalized_axes``) is an axis only where the
  document states which (``let axes = -1``), else an error.  Another axis (``axis=0`` under
  layernorm, ``axis=1``: the last axis of a 2-D input only) is an error naming both axes, never
  ignored.  Under a grouped vocabulary (groupnorm, instancenorm), with several layer
  vocabularies or with none, an axis argument is an error (which axes the group spans needs
  the layout).
* **A method call** on the vocabulary's input x or its alias (``let data = x``) is the
  statistic of the whole vector: ``x.mean()`` is ``mean(x)``.  ``x.var()`` and ``x.std()``
  have two readings (PyTorch's Tensor.var/std divide by N-1 by default, numpy's by N), so
  they need the estimator stated: ``ddof=0``, ``unbiased=False``, ``correction=0`` (biased,
  the layers' statistic) or ``ddof=1``, ``unbiased=True``, ``correction=1`` (unbiased,
  ``Var[x] * d/(d - 1)``).  Another method (``data.reshape(...)``), a receiver other than the
  input, or an unknown keyword is an error.
* **The word std** (bare or applied) is an error naming the two estimators, unless the
  document defines it (``let std = sqrt(v)``).

>>> from symnorm.check.run import check_text
>>> doc = ("```symnorm\ndocument use layernorm(affine=none)\n```\n\n"
...        "```latex e\ny = (x - x.mean(axis=-1)) / sqrt(x.var(ddof=0) + epsilon)\n```\n")
>>> [(v.label, v.status) for v in check_text(doc, "d.md").verdicts]
[('e.1', 'proved'), ('e.y', 'defined')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable

from symnorm.lang.syntax import BinOp, Call, Expr, Name, Num, Transpose

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser
    from symnorm.lang.latex_tokens import Tok

__all__ = ["AxesReading", "axes_reading", "axis_argument", "method_call", "std_error",
           "at_method", "method_power"]

#: layer vocabulary -> (its reduction axis in numpy's convention, what that axis holds)
REDUCTION = {
    "layernorm": (-1, "the feature axis (the last, axis=-1): the features of one sample"),
    "rmsnorm": (-1, "the feature axis (the last, axis=-1): the features of one sample"),
    "batchnorm": (0, "the batch axis (axis=0 of an (N, C) input): the batch of one feature"),
}
_GROUPED = ("groupnorm", "instancenorm")
#: keywords that name the axis (numpy, Keras: axis; ONNX, TensorRT: axes; PyTorch: dim)
_AXIS_KEYS = ("axis", "axes", "dim")
#: the estimator keywords of var and std: keyword -> {value: unbiased?}
_ESTIMATOR = {"ddof": {"0": False, "1": True}, "correction": {"0": False, "1": True},
              "unbiased": {"False": False, "True": True}}
_TWO_ESTIMATORS = ("PyTorch's torch.std/torch.var (and Tensor.std(), Tensor.var()) divide by "
                   "N-1 by default (unbiased), numpy's np.std/np.var (and ndarray.std()) by N "
                   "(biased, the layers' statistic): two readings")
_METHODS = {"mean": "E", "var": "Var", "std": "std"}


@dataclass
class AxesReading:
    """What the block says about axes (``p.axes``): its layer vocabularies, the document's
    definition of a name, and whether a name is the vocabulary's input."""

    vocabs: tuple[str, ...]
    definition: Callable[[str], Any]
    is_input: Callable[[str], bool]

    def reduction(self) -> tuple[int, str, str] | str:
        """(axis, what it holds, use text) of the block's one layer vocabulary, or why an axis
        has no meaning here."""
        layers = [v for v in self.vocabs if v in REDUCTION or v in _GROUPED]
        if len(layers) != 1:
            return ("the block uses no layer vocabulary" if not layers else
                    "the block uses " + ", ".join(f"use {v}" for v in layers) +
                    ", whose reductions differ")
        v = layers[0]
        if v in _GROUPED:
            return (f"use {v} reduces over each group's channels and positions, which an "
                    "axis argument names only with the layout")
        axis, what = REDUCTION[v]
        return axis, what, f"use {v}"


def axes_reading(reader: Any) -> AxesReading:
    """The reading for one equation (``reader``: latex.py's equation reader)."""
    env = reader.env

    def is_input(n: str) -> bool:
        if n == "x":
            return env.kind("x") == "vector" and "x" not in reader.lets
        return reader.input_alias(n) == "x"

    return AxesReading(tuple(getattr(env, "vocabs", ())), env.definition, is_input)


# --- the arguments ---------------------------------------------------------------------------

@dataclass
class _Arg:
    key: str | None
    value: str
    tok: Tok


def _read_args(p: ExprParser, closer: str) -> list[_Arg]:
    """The comma-separated arguments up to ``closer`` at depth 0 (consumed), as text."""
    args: list[_Arg] = []
    cur: list[Tok] = []
    depth = 0
    while True:
        t = p.peek()
        if t is None:
            raise p.err(f"expected {closer!r} to close the arguments", p.toks[-1])
        if depth == 0 and t.text in (",", closer):
            args.append(_arg(p, cur, t))
            p.i += 1
            if t.text == closer:
                return args
            cur = []
            continue
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(t.text, 0)
        cur.append(t)
        p.i += 1


def _arg(p: ExprParser, toks: list[Tok], end: Tok) -> _Arg:
    if not toks:
        raise p.err("an empty argument", end)
    text = "".join("_" if t.text == "\\_" else t.text for t in toks)
    key, eq, value = text.partition("=")
    if eq and re.fullmatch(r"[A-Za-z_]+", key):
        return _Arg(key, value, toks[0])
    return _Arg(None, text, toks[0])


def _check_axis(p: ExprParser, what: str, arg: _Arg) -> None:
    """The axis ``arg`` of the statistic ``what`` is the vocabulary's reduction, or an error."""
    reading: AxesReading | None = getattr(p, "axes", None)
    written = f"{arg.key}={arg.value}" if arg.key else arg.value
    red = reading.reduction() if reading is not None else "no vocabulary is known"
    if isinstance(red, str):
        raise p.err(f"{what}(.., {written}): an axis argument has a meaning only against one "
                    f"layer vocabulary's reduction, and {red}", arg.tok,
                    "drop the axis argument (under a grouped vocabulary mean(x), var(x) are "
                    "the statistics of each entry's group), or use layernorm, rmsnorm or "
                    "batchnorm alone")
    axis, holds, use = red
    value = arg.value
    if re.fullmatch(r"[A-Za-z][A-Za-z_]*", value):
        body = reading.definition(value) if reading is not None else None  # type: ignore
        number = _integer(body)
        if number is None:
            said = "defines it as something else than an axis" if body is not None else \
                "does not say which axes it names"
            raise p.err(f"{what}(.., {written}): the document {said} ('{value}' is a name, "
                        f"and the statistic over other axes is another quantity)", arg.tok,
                        f"state it in a symnorm block: `let {value} = {axis}` ({holds}, "
                        f"{use})")
        value, shown = str(number), f"{written} (= {number})"
    else:
        shown = written
    if not re.fullmatch(r"-?\d+", value):
        raise p.err(f"{what}(.., {written}): only one integer axis is read (a tuple or "
                    "expression of axes is not)", arg.tok,
                    f"write axis={axis} ({holds}, {use})")
    if int(value) != axis and axis == -1 and int(value) > 0:
        raise p.err(f"{what}(.., {shown}): axis {value} is the last (feature) axis only of an "
                    f"input with {int(value) + 1} axes, while {use} reduces over {holds} of "
                    "any input: two readings", arg.tok, "write axis=-1")
    if int(value) != axis:
        raise p.err(f"{what}(.., {shown}) reduces over axis {int(value)}, while {use} "
                    f"reduces over {holds}: another statistic, not the layer's", arg.tok,
                    f"write axis={axis}, or drop the axis argument")


def _integer(body: Any) -> int | None:
    """-1, 0, 2: the integer a definition's body is, else None."""
    from symnorm.lang.syntax import Neg
    sign = 1
    if isinstance(body, Neg):
        sign, body = -1, body.operand
    if isinstance(body, Num) and body.value.denominator == 1:
        return sign * int(body.value)
    return None


def axis_argument(p: ExprParser, what: str, closer: str) -> None:
    """At ``,`` after the argument of ``Mean(X, ..``, ``mean[data, ..``, ``Var(X, ..`` (the
    statistic as written, ``what``): reads the axis up to ``closer`` (consumed, so the caller
    must not expect it) and checks it."""
    comma = p.next()
    args = _read_args(p, closer)
    if len(args) != 1 or args[0].key not in (None, *_AXIS_KEYS):
        bad = next((a for a in args if a.key not in (None, *_AXIS_KEYS)), args[-1])
        raise p.err(f"{what}(.., {bad.key + '=' if bad.key else ''}{bad.value}): a statistic "
                    "takes one axis argument here", bad.tok if bad else comma,
                    "write one axis (axis=-1) or none")
    _check_axis(p, what, args[0])


# --- method calls ------------------------------------------------------------------------------

def at_method(p: ExprParser) -> bool:
    """Whether ``.name`` follows the factor just read, touching it (``x.mean()``)."""
    dot, nxt = p.peek(), p.peek(1)
    if not (dot is not None and nxt is not None and dot.text == "." and p.i > 0
            and dot.start == p.toks[p.i - 1].end and nxt.start == dot.end
            and nxt.text[:1].isalpha() and not nxt.is_cmd):
        return False
    k = 2  # the method's letters, then its bracket (an attribute, self.moving_mean, is not)
    while (tok := p.peek(k)) is not None and tok.start == p.peek(k - 1).end and (  # type: ignore
            tok.text[:1].isalpha() and not tok.is_cmd or tok.text == "\\_"):
        k += 1
    tok = p.peek(k)
    return tok is not None and tok.text == "("


def method_call(p: ExprParser, node: Expr, t: Tok) -> Expr:
    """``x.mean()``, ``x.var(ddof=0)``, ``x.std(unbiased=False)``, ``x.mean(axis=-1)`` at the
    ``.`` after the receiver ``node`` (read from token ``t``)."""
    dot = p.next()
    start = p.i
    while (nt := p.peek()) is not None and nt.text[:1].isalpha() and not nt.is_cmd \
            and nt.start == p.toks[p.i - 1].end or nt is not None and nt.text == "\\_":
        p.i += 1
    method = "".join("_" if x.text == "\\_" else x.text for x in p.toks[start:p.i])
    recv = p.text[t.start:dot.start]
    if method not in _METHODS:
        hint = ("drop the reshape line: the vocabulary's options (use groupnorm(groups=..., "
                "channels=..., spatial=...)) state the grouping" if method == "reshape" else
                "write the statistic it computes (\\mathrm{E}[x], \\mathrm{Var}[x])")
        raise p.err(f"method call {recv}.{method}(...) is not read (only .mean(), .var(...), "
                    ".std(...) of the layer's input are)", dot, hint)
    reading: AxesReading | None = getattr(p, "axes", None)
    if not (isinstance(node, Name) and reading is not None and reading.is_input(node.id)):
        raise p.err(f"{recv}.{method}(): a method call is read only on the layer's input x "
                    "(or the document's alias of it, let data = x)", dot,
                    f"write the statistic: \\mathrm{{{'E' if method == 'mean' else 'Var'}}}"
                    f"[{recv}]")
    red = reading.reduction()
    if isinstance(red, str) and any(v in _GROUPED for v in reading.vocabs):
        raise p.err(f"{recv}.{method}(): the statistic of the whole vector, while {red}", dot,
                    "write \\mathrm{E}[x], \\mathrm{Var}[x] for the group statistics")
    p.expect("(")
    args = [] if p.at(")") and p.next() else _read_args(p, ")")
    unbiased: bool | None = None
    for a in args:
        if a.key is None or a.key in _AXIS_KEYS:
            _check_axis(p, f"{recv}.{method}", a)
        elif a.key in _ESTIMATOR and method != "mean":
            if a.value not in _ESTIMATOR[a.key] or unbiased is not None:
                raise p.err(f"{recv}.{method}(.., {a.key}={a.value}): read only once, as "
                            f"{' or '.join(_ESTIMATOR[a.key])}", a.tok)
            unbiased = _ESTIMATOR[a.key][a.value]
        else:
            raise p.err(f"{recv}.{method}(.., {a.key}={a.value}): the keyword {a.key} is not "
                        "read", a.tok, "write axis=... only (and ddof=, unbiased=, "
                        "correction= for var and std)")
    if method != "mean" and unbiased is None:
        raise p.err(f"{recv}.{method}(): {_TWO_ESTIMATORS}", dot,
                    f"state the estimator: {recv}.{method}(ddof=0) (numpy) or "
                    f"{recv}.{method}(unbiased=False) (PyTorch) for the biased one, ddof=1 for "
                    "the unbiased one")
    pos = p.pos(t)
    if method == "mean":
        return Call("mean", (node,), pos)
    mean = Call("mean", (node,), pos)
    dev = BinOp("-", node, BinOp("*", mean, Name("ones", pos), pos), pos)
    var: Expr = BinOp("/", BinOp("*", Transpose(dev, pos), dev, pos), Name("d", pos), pos)
    if unbiased:
        d = Name("d", pos)
        var = BinOp("*", var, BinOp("/", d, BinOp("-", d, Num(Fraction(1), pos), pos), pos),
                    pos)
    return Call("sqrt", (var,), pos) if method == "std" else var


def method_power(p: ExprParser, node: Expr, t: Tok) -> Expr:
    """``x.std(unbiased=False)^2``: a superscript right after a method call's ``)`` is the
    power of the call's value, as TeX prints it over the closing parenthesis (as of
    ``(a+b)^2``), the one reading (red team 20: it was "expected a relation ..., got '^'").
    A subscript, a prime or a transpose there has no meaning: an error naming it."""
    from .latex_atoms import _TRANSPOSE, _sup_arg  # the reader's superscript argument
    nxt = p.peek()
    if nxt is None or nxt.text not in ("^", "_", "'"):  # TeX ignores a space before it
        return node
    call = p.text[t.start:nxt.start]
    if nxt.text != "^":
        raise p.err(f"{nxt.text!r} after the method call {call}: a method call's value takes "
                    "no subscript or prime", nxt, "write the statistic it computes "
                    "(\\mathrm{Var}[x]) and index or decorate that")
    p.i += 1
    sup = _sup_arg(p, nxt)
    if sup is _TRANSPOSE:
        raise p.err(f"a transpose of the method call {call}: its value is a scalar", nxt,
                    f"drop the transpose ({call})")
    if p.at("^", "_", "'"):
        raise p.err(f"a second script after {call}^...", p.peek(),
                    f"use parentheses: ({call}^{{...}})^{{...}}")
    return BinOp("**", node, sup, p.pos(t))  # type: ignore[arg-type]


def std_error(p: ExprParser, t: Tok) -> Exception:
    """The word ``std`` (bare or applied) where the document does not define it."""
    return p.err(f"'std' is written as a word: {_TWO_ESTIMATORS}", t,
                 "write \\sigma or sqrt(var(x)) for the biased standard deviation, or define "
                 "the source's (`let std = sqrt(v)` under use layernorm, the biased one)")

"""The vocabulary's output in a relation that also writes the document's own symbols.

A vocabulary's output (``y`` of ``use rmsnorm``: ``gamma*RMS(x) + beta*ones``) is built
from its input, eps and its affine parameters only.  A relation whose reading involves it
(``y`` itself, a Jacobian ``jacobian(y, x)``, the chain rule through the declared upstream
gradient ``dL_dy``) and that writes another symbol the document declared (the source's own
weight ``w``) compares the source's layer with one in which that symbol does not occur: a
true formula would be refuted.  Such a relation is an error naming the symbol, with the fix
(make the symbol the vocabulary's gain, or write the vocabulary's parameter).  So is a
product of the output and its gain (``\\gamma y``: the gain twice), and the output called on
anything but its input (``y(x)`` is y, ``y(t)`` has no meaning); a layer's name applied
to the input (``\\mathrm{RMSNorm}(x)``) is the output too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from symnorm.errors import SourceError
from symnorm.lang.latex_index import Indexed, has_index
from symnorm.lang.latex_tokens import Tok
from symnorm.lang.syntax import BinOp, Call, Expr, Name, Pos

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser

__all__ = ["double_affine", "foreign_symbol", "product_factors", "read_layer_call",
           "read_output_call", "upstream_gradients"]


def _written(e: object, children: Callable[[object], tuple[object, ...]]
             ) -> Iterable[tuple[str, Pos]]:
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, (Name, Indexed)):
            yield node.id, node.pos
        stack.extend(children(node))


def upstream_gradients(out: str, vectors: Iterable[str]) -> set[str]:
    """The declared vectors that name the upstream gradient of ``out`` (``dL_dy``)."""
    pattern = re.compile(r"d[A-Za-z]\w*_d" + re.escape(out))
    return {v for v in vectors if pattern.fullmatch(v)}


def foreign_symbol(written: tuple[object, object], read: tuple[Expr, Expr], *, out: str,
                   allowed: set[str], declared: Callable[[str], bool],
                   names_in: Callable[[object], set[str]],
                   children: Callable[[object], tuple[object, ...]],
                   reaches: Callable[[Expr], set[str] | None],
                   upstream: set[str], meaning: str, file: str) -> SourceError | None:
    """The error for a relation that involves ``out`` and writes a foreign declared symbol.

    ``written``: the relation's sides as written (derivatives unread); ``read``: as read
    (``jacobian(y, x).T * dL_dy``).  ``allowed``: the vocabulary's input, eps and affine
    parameters; ``declared(n)``: whether the document declares ``n`` (scalar, vector,
    matrix); ``reaches(e)``: the names ``e`` expands to through definitions.
    """
    used = names_in(read[0]) | names_in(read[1])
    if out not in used and not used & upstream:
        return None
    ok = allowed | upstream
    for side in written:
        for name, pos in sorted(_written(side, children), key=lambda p: (p[1].line, p[1].col)):
            through = ""
            if declared(name):
                bad = name if name not in ok else None
            else:
                found = reaches(Name(name, pos)) or set()
                bad = next((n for n in sorted(found) if declared(n) and n not in ok), None)
                through = f" (through {name})" if bad is not None else ""
            if bad is None:
                continue
            return SourceError(
                f"this relation involves the vocabulary's output {out} = {meaning} and uses "
                f"{bad}{through}, declared by the document: {bad} does not occur in {out}, so "
                f"the source's layer would be compared with another one", file, pos.line,
                pos.col,
                f"if {bad} is the layer's gain, make it the vocabulary's: `let {bad} = gamma` "
                f"instead of declaring it (a scalar gain), with `document use "
                f"...(affine=elementwise)` for a per-element one; or write \\gamma")
    return None


def read_output_call(p: ExprParser, t: Tok, name: str) -> Expr:
    """``y(x)``, the vocabulary's output written as a call on its input: the output ``y``.

    Any other argument is an error: the output is the layer at the document's input x, not
    a function (``y(t)`` would be the layer at another input, which ``y`` does not say).
    """
    start = p.i - 1
    opener = p.next()
    args, batch = p.call_args(opener)
    if batch is None and len(args) == 1 and isinstance(args[0], Name) and args[0].id == "x":
        return Name(name, p.pos(t))
    written = p.span(start, p.i)
    raise p.err(f"{written}: the vocabulary's output {name} is the layer at its input x, not a "
                f"function, so {name} applied to another argument has no meaning", t,
                f"write {name} or {name}(x) for the output at x; for the layer at another "
                f"input define a function of it (F(t) = ..., `let F(t) = ...`)")


def read_layer_call(p: ExprParser, t: Tok, name: str) -> Expr | None:
    """``\\mathrm{RMSNorm}(x)``, ``LN(x)``: a layer's name applied to the vocabulary's input
    is the layer's output (read as the output name, so the equation's affine parameters
    choose its meaning as for ``y``).

    On one other argument (``LN(x + 3\\mathbf 1)``) the call ``NAME(arg)``, read by the
    equation as the same layer map at that argument (or, on the left of ``=``, as the
    definition of a function of that name: see ``latex.py``, ``_layer_definitions``).  The
    name of another layer (``BatchNorm`` with ``use layernorm``) is an error.  None (nothing
    consumed) for several arguments or a batch, and where no layer vocabulary gives the
    output its meaning: the name then reads as before (a function the equation defines, or
    an unknown function).
    """
    from symnorm.lang.vocab import ALL_LAYER_NAMES, VOCABULARIES
    if p.output is None or not p.layer_names:  # no layer here, or a map being named
        return None
    if name not in p.layer_names:
        layer, own = ALL_LAYER_NAMES[name], ", ".join(sorted(p.layer_names))
        fix = f"`use {layer}`" if layer in VOCABULARIES else f"no vocabulary models {layer}"
        raise p.err(f"{name}(...) is a name of the layer {layer}, not of this block's layer "
                    f"(named {own})", t,
                    f"write the block's layer ({own}); for {layer}: {fix}; to define a "
                    f"function of that name write `let {name}(t) = ...` first")
    start = p.i
    opener = p.next()
    args, batch = p.call_args(opener)
    if batch is None and len(args) == 1 and isinstance(args[0], Name) and args[0].id == "x":
        p.layer_tags.add((p.pos(t).line, p.pos(t).col))  # the layer at x, as written
        return Name(p.output, p.pos(t))
    if batch is None and len(args) == 1:
        # LN(x + 3\mathbf 1): the layer map at another argument (latex.py, layer_map);
        # \mathrm{LN}(a) = ... on the left of = may still define a function of that name
        if has_index(args[0]):
            raise p.err(f"{name}(...): a layer's name applied to an indexed "
                        "entry (the layer maps a vector to a vector)", t,
                        f"write {name}(x) for the layer at x, and its entry as y_i")
        p.layer_at[(p.pos(t).line, p.pos(t).col)] = name
        return Call(name, (args[0],), p.pos(t))
    p.i = start
    return None


def double_affine(raw: tuple[object, object], out: str, gains: set[str],
                  children: Callable[[object], tuple[object, ...]], file: str
                  ) -> SourceError | None:
    """The error for a product of the output and a gain (``\\gamma y``): the vocabulary's y
    already holds its gain, so the product applies it twice, while a source that writes it
    (MyGrad's ``gamma * y(x) + beta``) means by y the normalized value."""
    stack = list(raw)
    while stack:
        node = stack.pop()
        if isinstance(node, BinOp) and node.op == "*" or isinstance(node, Call) and \
                node.func == "hadamard":
            factors = _factors(node)
            ids = {f.id: f for f in factors if isinstance(f, (Name, Indexed))}
            gain = next((g for g in sorted(gains) if g in ids), None)
            if out in ids and gain is not None:
                pos = ids[out].pos
                return SourceError(
                    f"{gain} times the vocabulary's output {out}, which already holds the gain "
                    f"{gain}: the product would apply it twice", file, pos.line, pos.col,
                    f"if the source's {out} is the normalized value, write \\hat x (or define "
                    f"{out} yourself before the equation)")
        stack.extend(children(node))
    return None


def product_factors(e: object) -> list[object]:
    """The factors of a product (``*`` and ``hadamard`` nested), without recursion."""
    return _factors(e)


def _factors(e: object) -> list[object]:
    """The factors of a product (``*`` and ``hadamard`` nested), without recursion."""
    out, stack = [], [e]
    while stack:
        node = stack.pop()
        if isinstance(node, BinOp) and node.op == "*":
            stack += [node.left, node.right]
        elif isinstance(node, Call) and node.func == "hadamard":
            stack += list(node.args)
        else:
            out.append(node)
    return out


#: the map arrows after ``NAME:`` that make it a map's definition, never a label
_MAP_ARROWS = ("\\mapsto", "\\longmapsto")


def drop_layer_label(toks: list[Tok], layer_names: frozenset[str], file: str) -> None:
    """``RMSNorm: y = ...`` (a README's label before the equation): the block's own layer name
    followed by ``:`` at the start of the equation names the equation, so it is dropped (in
    place).  Another layer's name there is an error; any other word before ``:`` is left to
    the parser (an error), and ``\\operatorname{LN}: x \\mapsto ...`` stays a map."""
    from symnorm.lang.vocab import ALL_LAYER_NAMES
    k, word = 0, ""
    if toks and toks[0].text in ("\\operatorname", "\\mathrm") and len(toks) > 1 \
            and toks[1].text == "{":
        k = 2
        while k < len(toks) and len(toks[k].text) == 1 and toks[k].text.isalpha():
            word += toks[k].text
            k += 1
        if k >= len(toks) or toks[k].text != "}":
            return
        k += 1
    else:
        while k < len(toks) and len(toks[k].text) == 1 and toks[k].text.isalpha() and (
                k == 0 or toks[k].start == toks[k - 1].end):
            word += toks[k].text
            k += 1
    if k >= len(toks) - 1 or toks[k].text != ":" or word not in ALL_LAYER_NAMES \
            or any(t.text in _MAP_ARROWS for t in toks[k + 1:k + 13]):
        return
    if word not in layer_names:
        t = toks[0]
        theirs = ", ".join(sorted(layer_names)) or "none: no vocabulary of this block names " \
            "its output"
        raise SourceError(f"'{word}:' before the equation labels it with a layer that is not "
                          f"this block's (its layers are named {theirs})", file, t.line, t.col,
                          "drop the label, or `use` the vocabulary of that layer")
    del toks[:k + 1]

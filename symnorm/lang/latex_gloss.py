"""Prose glosses at the edges of an equation's rows (presentation, no meaning).

Sources label an equation (``\\text{(Mean)} \\space \\mu = ...``) or explain it after the
math (``a = ... \\qquad \\text{(mean of squares)}``).  Such a ``\\text{..}`` carries no
meaning only where it cannot be a factor or a condition: as the first token of a row set
apart from what follows by spacing or a separator, or as the last token of a row set apart
from what precedes it.  Anywhere else prose is an error, and so is a gloss that states
something: inline math (``\\(\\epsilon>0\\)``, ``$a>0$``) or a condition word (``if``,
``for``, ``where``...), which would be a hypothesis silently dropped.

>>> from symnorm.lang.latex_tokens import tokenize
>>> [t.text for t in tokenize(r"\\text{(Mean)}\\ a = b \\qquad \\text{(a gloss)}", "<t>", 1, 1)]
['a', '=', 'b']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from symnorm.errors import SourceError

__all__ = ["GLOSS", "STATING_WORDS", "stating", "strip_glosses"]

#: The token a prose ``\\text{..}`` becomes until :func:`strip_glosses` judges its place
#: (no input text tokenizes to it: a macro name has no '<')
GLOSS = "<gloss>"
#: Words that make prose a statement (a condition, a quantifier, a definition): a gloss
#: holding one is refused, since dropping it would drop a hypothesis of the claim.
STATING_WORDS = frozenset({"if", "iff", "for", "when", "whenever", "provided", "given",
                           "assuming", "assume", "suppose", "unless", "except", "only",
                           "where", "whereby", "s.t.", "such", "all", "every", "each", "any"})
_MATH = re.compile(r"\$|\\\(|\\\[|\\ensuremath")
#: Words of a gloss that name a layer's affine parameters ("(with learnable scale and
#: shift)"): beside a row that writes none of them, the gloss and the formula describe two
#: layers (with and without gamma, beta), so the gloss is not dropped (red team 13, G).
_AFFINE_WORDS = re.compile(r"\b(learn\w*|trainable|affine|scales?|scaled|scaling|rescal\w*|"
                           r"shift\w*|gains?|bias\w*|offsets?|weights?|gamma|beta)\b")
#: What writes an affine parameter in a row: the Greek letters or a source's word for one
_AFFINE_WRITTEN = frozenset({"\\gamma", "\\beta"})
_AFFINE_TEXT = re.compile(r"(?<![A-Za-z])(gamma|beta|scale|weight|bias|offset|shift|gain)"
                          r"(?![A-Za-z])")
_SEPARATORS = (",", ";", "\\quad", "\\qquad")


class _Tok(Protocol):
    text: str
    start: int
    end: int
    gap: str


def stating(source: str) -> tuple[str, str] | None:
    """(message, hint) when the prose ``source`` states something (math, a condition word)."""
    if _MATH.search(source):
        return (f"math inside the gloss {source!r}: a statement, not a presentation gloss",
                "write the relation in the equation (after \\text{if} for a condition) or move "
                "the gloss out of the math")
    words = set(re.findall(r"[a-z][a-z.]*", source.split("{", 1)[1].lower()))
    found = sorted(w.rstrip(".") if w != "s.t." else w for w in words
                   if w in STATING_WORDS or w.rstrip(".") in STATING_WORDS)
    if found:
        return (f"the gloss {source!r} states a condition ({found[0]!r}): dropping it would "
                "drop a hypothesis", "write the condition as relations after \\text{if} "
                "(y = ... \\quad \\text{if}\\ a > 0), or leave it out")
    return None


def _bracketed(out: list[_Tok], k: int) -> tuple[int, int]:
    """The span (first, last index) of the gloss at ``k``: the gloss itself, or the
    parentheses around it when it is their whole content (Arat's ``\\qquad (\\text{mini-batch
    mean})``).  Prose cannot be a factor, so such parentheses hold nothing but the gloss;
    whether the span stands at the edge of a row is judged as for a bare gloss."""
    if 0 < k < len(out) - 1 and out[k - 1].text == "(" and out[k + 1].text == ")":
        return k - 1, k + 1
    return k, k


def _labels_a_brace(out: list[_Tok], k: int) -> bool:
    """Whether the gloss at ``k`` is the whole label of ``\\underbrace{A}_{..}``,
    ``\\overbrace{A}^{..}`` or the first argument of ``\\underset{..}{A}``."""
    if not (1 < k < len(out) - 1 and out[k - 1].text == "{" and out[k + 1].text == "}"):
        return False
    if out[k - 2].text in ("\\underset", "\\overset"):
        return True
    if out[k - 2].text not in ("_", "^") or k < 4 or out[k - 3].text != "}":
        return False
    depth, j = 0, k - 3
    while j >= 0:  # back to the '{' that opens the group before the script
        depth += {"}": 1, "{": -1}.get(out[j].text, 0)
        if depth == 0:
            return j > 0 and out[j - 1].text in ("\\underbrace", "\\overbrace")
        j -= 1
    return False


def strip_glosses(toks: list[_Tok], text: str, fail: Callable[..., SourceError]) -> list:
    """``toks`` without the glosses at the edges of rows; any other prose is an error."""
    out = list(toks)
    k = 0
    while k < len(out):
        t = out[k]
        if t.text != GLOSS:
            k += 1
            continue
        source = text[t.start:t.end]
        if _labels_a_brace(out, k):
            k += 1  # a label: \underbrace{A}_{\text{..}}, judged by the parser
            continue
        lo, hi = _bracketed(out, k)
        first = lo == 0 or out[lo - 1].text == "\\\\"
        after = [j for j in range(hi + 1, len(out)) if out[j].text not in (".", ",")]
        last = not after or out[after[0]].text == "\\\\"
        nxt = out[hi + 1] if hi + 1 < len(out) else None
        apart_after = nxt is not None and (nxt.gap != "" or nxt.text in _SEPARATORS)
        apart_before = out[lo].gap != "" or lo > 0 and out[lo - 1].text in _SEPARATORS
        if first and last:
            raise fail(f"prose {source!r} alone in a row: no relation to gloss", t.start,
                       "move the words out of the equation")
        if not (first and apart_after or last and apart_before):
            raise fail(f"prose {source!r} inside an equation", t.start,
                       "a gloss \\text{(...)} is read only at the start or the end of a row, "
                       "set apart by a space or a separator; conditions go after \\text{if} "
                       "as relations (a>0); \\text{where}, \\text{and} ... separate relations")
        said = stating(source)
        if said is not None:
            raise fail(said[0], t.start, said[1])
        _affine_gloss(out, k, text, source, t.start, fail)
        k = lo
        if first:
            del out[lo:hi + 1]
            while k < len(out) and out[k].text in _SEPARATORS:
                del out[k]
            if k < len(out):
                out[k] = replace(out[k], gap="")  # type: ignore[type-var]
        else:
            end = after[0] if after else len(out)
            del out[k:end]  # the gloss and a trailing '.' or ',' after it
            while k > 0 and out[k - 1].text in _SEPARATORS:
                del out[k - 1]
                k -= 1
    return out


def _affine_gloss(out: list[_Tok], k: int, text: str, source: str, at: int,
                  fail: Callable[..., SourceError]) -> None:
    """Refuse a gloss naming the affine parameters beside a row that writes neither."""
    words = _AFFINE_WORDS.findall(source.split("{", 1)[-1].lower())
    if not words:
        return
    lo = max((j for j in range(k) if out[j].text == "\\\\"), default=-1) + 1
    hi = next((j for j in range(k + 1, len(out)) if out[j].text == "\\\\"), len(out))
    row = [out[j] for j in range(lo, hi) if j != k and out[j].text != GLOSS]
    if any(r.text in _AFFINE_WRITTEN for r in row) or any(
            _AFFINE_TEXT.search(text[r.start:r.end]) for r in row) or _AFFINE_TEXT.search(
            "".join(text[r.start:r.end] for r in row)):
        return
    raise fail(f"the gloss {source!r} names the affine parameters ({words[0]!r}) while the "
               "formula writes neither \\gamma nor \\beta: the formula reads as the layer "
               "without them, the gloss as the layer with them: two readings", at,
               "write them in the formula (y = \\gamma \\hat x + \\beta), or leave the gloss "
               "out to mean the layer without affine parameters")

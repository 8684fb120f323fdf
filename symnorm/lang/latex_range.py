r"""An index range written after a formula: ``y_i = ... \;,\; i=1,....,C`` (coremltools'
batch_norm docstring), ``i = 1, \ldots, d``.

The range says what the index runs over, and that is where two readings meet.  A
vocabulary's index letter names an entry of the one vector it models (under ``use
batchnorm`` the batch of one channel, under ``use layernorm`` the features of one sample),
and an entrywise equation already holds for every entry; a range up to another count (C,
the channels) says the subscript names something else, so ``x_i``, ``\gamma_i`` would be
channel i's input and gain, which the vocabulary states for one channel without an index.
Neither reading is guessed: the range is an error that names it, with both readings, and
says what to write instead.  Dots of a range (``\ldots``, ``\dots``, ``\cdots``, two or more
``.``) are read nowhere else, so this check only replaces another error by a precise one.

>>> from symnorm.lang.latex_tokens import tokenize
>>> try:
...     tokenize(r"y_i = x_i \;,\; i=1,\ldots,C", "<t>", 1, 1)
... except ValueError as exc:
...     print("index range" in str(exc))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from symnorm.errors import SourceError

__all__ = ["refuse_index_ranges"]

_DOTS = frozenset({"\\ldots", "\\dots", "\\cdots", "\\dotsc", "\\dotsb"})
_SPACING = frozenset({"\\quad", "\\qquad"})


class _Tok(Protocol):
    text: str
    start: int
    end: int


def _atom(t: _Tok) -> bool:
    return t.text.isalnum() and t.text.isascii()


def _dots_end(toks: Sequence[_Tok], k: int) -> int | None:
    """The index after the dots starting at ``k`` (``\\ldots`` or two or more ``.``)."""
    if k < len(toks) and toks[k].text in _DOTS:
        return k + 1
    j = k
    while j < len(toks) and toks[j].text == ".":
        j += 1
    return j if j - k >= 2 else None


def _range_at(toks: Sequence[_Tok], k: int) -> int | None:
    """The end (exclusive) of ``LETTER = A , [B ,] DOTS [,] Z`` starting at ``k``, or None."""
    if not (k + 4 < len(toks) and len(toks[k].text) == 1 and toks[k].text.isalpha()
            and toks[k + 1].text == "=" and _atom(toks[k + 2])):
        return None
    j = k + 3
    if j + 1 < len(toks) and toks[j].text == "," and _atom(toks[j + 1]) and \
            j + 2 < len(toks) and toks[j + 2].text == ",":
        j += 2  # i = 1, 2, \ldots, d
    if toks[j].text == ",":
        j += 1
    end = _dots_end(toks, j)
    if end is None:
        return None
    if end < len(toks) and toks[end].text == ",":
        end += 1
    if end < len(toks) and _atom(toks[end]):
        return end + 1
    return None


def refuse_index_ranges(toks: Sequence[_Tok], text: str,
                        fail: Callable[..., SourceError]) -> None:
    """Raise at the first index range ``i=1,...,C`` in ``toks`` (after a separator)."""
    for k in range(1, len(toks)):
        if toks[k - 1].text not in (",", ";", *_SPACING):
            continue
        end = _range_at(toks, k)
        if end is None:
            continue
        shown = " ".join(text[toks[k].start:toks[end - 1].end].split())
        letter, bound = toks[k].text, toks[end - 1].text
        raise fail(f"an index range {shown!r} after the formula is not read: the index "
                   f"{letter} of the vocabulary is an entry of the one vector it models, and "
                   "an entrywise equation holds for every entry already, while a range up to "
                   f"{bound} may say that {letter} runs over something else (the channels, a "
                   "per-channel formula whose x, gamma, beta are channel "
                   f"{letter}'s): two readings", toks[k].start,
                   "leave the range out when the index runs over the entries; for a "
                   "per-channel formula write it for one channel without the index (use "
                   "batchnorm models one channel: y = \\gamma \\hat x + \\beta)")

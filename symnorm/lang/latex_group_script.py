r"""Group superscripts under the grouped vocabularies: NNabla's ``\mu^g = \frac{1}{H}
\sum_{i=1}^{H} x_i^g``, ``\sigma^g``, ``y = \frac{x - \mu^g}{\sigma^g} \gamma + \beta``.

With ``use groupnorm(...)`` (``use instancenorm(...)``) every statistic is already the one of
the entry's group, so a superscript letter on the statistics names that group: ``\mu^g`` is
the vocabulary's ``\mu`` (the per-entry ``gmu_entry``), ``\sigma^g`` is ``\sigma`` (defined
by the equation, as Wu and He's ``\sigma_i``).  On the input, ``x_i^g`` is entry i *of group
g*, which has a meaning only as the summand of a sum over the group's entries,
``\sum_{i=1}^{H}``: that sum is Wu and He's ``\sum_{i\in\mathcal S_j}`` (the sum over the
group of the entry j the equation is stated at) and its count H is the group size ``m``.
:func:`group_superscripts` rewrites the tokens to exactly those forms, so every rule of
:mod:`symnorm.lang.latex_groups` then holds (a statistic only entrywise, the gain refused
inside the group sum, the equation stated once per channel).

One meaning or none: the rewrite is refused, naming both readings, where the letter could
be read otherwise, namely a letter the document defines, the layer letter, two letters, a
letter that is also an index of the equation (NNabla's InstanceNormalization writes
``\mu^i = \frac{1}{H}\sum_{i=1}^{H} x_i^i``: the instance i, or the sum's own index i, entry
i of instance i), ``x_i^g`` outside a group sum or beside an ``x_i`` without the superscript,
a sum whose summand is not one entry or one bracketed group (its reach would be guessed), a
count H that the document defines or that is not the bound of a group sum.  Without a
grouped vocabulary nothing changes (the superscript stays the layer-index error).

>>> from types import SimpleNamespace
>>> from symnorm.lang.latex_tokens import tokenize
>>> toks = tokenize(r"\mu^g = \frac{1}{H}\sum_{i=1}^{H} x_i^g", "<t>", 1, 1)
>>> group_superscripts(toks, SimpleNamespace(prefix="g"), lambda n: False, None, None)
>>> print(" ".join(t.text for t in toks))
\mu = \frac { 1 } { m } \sum _ { i \in \mathcal S _ j } x _ i
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from symnorm.errors import SourceError

__all__ = ["group_superscripts"]

_STATS = ("\\mu", "\\sigma")
_ENDS = frozenset({"+", "-", "=", "\\\\", ",", ";", "\\quad", "\\qquad", "<", ">", "\\le",
                   "\\ge", "\\neq", "\\leftarrow", "\\gets", ":=", "\\approx"})
_OPEN = frozenset({"{", "(", "["})
_CLOSE = frozenset({"}", ")", "]"})


def _letter_script(toks: Sequence[Any], k: int, mark: str) -> tuple[str, int] | None:
    """``^g`` or ``^{g}`` (``_i``, ``_{i}``) at ``k``: (the letter, the index after it)."""
    if k >= len(toks) or toks[k].text != mark:
        return None
    if k + 1 < len(toks) and len(toks[k + 1].text) == 1 and toks[k + 1].text.isalpha():
        return toks[k + 1].text, k + 2
    if (k + 3 < len(toks) and toks[k + 1].text == "{" and toks[k + 3].text == "}"
            and len(toks[k + 2].text) == 1 and toks[k + 2].text.isalpha()):
        return toks[k + 2].text, k + 4
    return None


def _sum_scripts(toks: Sequence[Any], k: int) -> tuple[str, str, int] | None:
    """``\\sum_{i=1}^{H}`` at ``k``: (index, bound, the index after the scripts)."""
    j = k + 1
    if j < len(toks) and toks[j].text in ("\\limits", "\\nolimits"):
        j += 1
    texts = [t.text for t in toks[j:j + 10]]
    if texts[:7] != ["_", "{", texts[2] if len(texts) > 2 else "", "=", "1", "}", "^"]:
        return None
    index = texts[2]
    if not (len(index) == 1 and index.isalpha()):
        return None
    up = _letter_script(toks, j + 6, "^")
    if up is None:
        return None
    return index, up[0], up[1]


def _summand_end(toks: Sequence[Any], s: int) -> int:
    """The end of the summand that starts at ``s``: one atom with its scripts, or one
    bracketed group with an optional digit exponent (-1: any other shape)."""
    if s >= len(toks):
        return -1
    if toks[s].text == "x":
        j = s + 1
        for mark in ("_", "^"):
            got = _letter_script(toks, j, mark)
            if got is not None:
                j = got[1]
        return j
    if toks[s].text not in ("(", "["):
        return -1
    depth, j = 0, s
    while j < len(toks):
        depth += (toks[j].text in _OPEN) - (toks[j].text in _CLOSE)
        j += 1
        if depth == 0:
            break
    if depth:
        return -1
    if j + 1 < len(toks) and toks[j].text == "^" and toks[j + 1].text.isdigit():
        j += 2
    return j


def group_superscripts(toks: list[Any], entries: Any, defined: Callable[[str], bool],
                       layer: str | None, fail: Callable[..., SourceError],
                       own: Callable[[str], bool] = lambda n: False) -> None:
    """Rewrite ``toks`` in place (see the module docstring), or raise naming both readings.
    ``defined``: any meaning (the document's or a vocabulary's); ``own``: the document's."""
    if entries is None or getattr(entries, "prefix", None) is None:
        return
    found: list[tuple[int, int, int, str | None]] = []  # (host, sup start, sup end, sub)
    for k, t in enumerate(toks):
        if t.text not in (*_STATS, "x"):
            continue
        if k > 0 and (toks[k - 1].text in ("_", "^") or t.text == "x" and toks[k - 1].text
                      .isalpha() and toks[k - 1].end == t.start):
            continue  # a script's letter, or the x of a word
        j, sub = k + 1, None
        if t.text == "x" and (got := _letter_script(toks, j, "_")) is not None:
            sub, j = got
        sup = _letter_script(toks, j, "^")
        if sup is None:
            continue
        letter = sup[0]
        if defined(letter) or letter == layer or letter in ("d", "e"):
            continue
        if t.text == "x" and sub is None and (got := _letter_script(toks, sup[1], "_")):
            sub = got[0]
        found.append((k, j, sup[1], sub))
    if not found:
        return
    letters = {toks[j + 1 + (toks[j + 1].text == "{")].text for _, j, _, _ in found}
    first = toks[found[0][0]]
    if len(letters) > 1:
        raise fail(f"group superscripts {', '.join(sorted(letters))} in one equation: the "
                   "grouped vocabulary models the group of each entry, one letter", first,
                   "write one letter for the group (\\mu^g, x_i^g)")
    (g,) = letters
    _letter_elsewhere(toks, found, g, first, fail)
    sums = [(k, *got) for k in range(len(toks)) if toks[k].text == "\\sum"
            and (got := _sum_scripts(toks, k)) is not None]
    used = {i for _, _, _, sub in found if sub is not None for i in sub}
    inside: set[int] = set()
    rewrites: list[tuple[int, int, str, str]] = []  # (sum token, scripts end, index, bound)
    for k, index, bound, after in sums:
        end = _summand_end(toks, after)
        hosts = [f for f in found if after <= f[0] < max(end, after)]
        xs = [f for f in hosts if toks[f[0]].text == "x"]
        if not xs:
            continue
        if end < 0:
            raise fail(f"the sum over the entries of group {g}: its summand is read only as "
                       f"one entry x_{index}^{g} or one bracketed group, so that its reach is "
                       "not guessed", toks[k], f"write \\sum_{{{index}=1}}^{{{bound}}} "
                       f"(x_{index}^{g} - \\mu^{g})^2")
        if any(f[3] != index for f in xs):
            raise fail(f"x with group superscript {g} inside the sum over {index} with another "
                       "index", toks[k], f"write x_{index}^{g}")
        plain = [j for j in range(after, end) if toks[j].text == "x"
                 and j not in {f[0] for f in xs}]
        if plain:
            raise fail(f"x beside x_{index}^{g} inside the sum over the group {g}: entry "
                       f"{index} of the whole input or of group {g}? Two readings",
                       toks[plain[0]], f"write x_{index}^{g} throughout the sum")
        inside.update(f[0] for f in xs)
        rewrites.append((k, after, index, bound))
    stray = [f for f in found if toks[f[0]].text == "x" and f[0] not in inside
             and f[3] is not None]
    if stray:
        t = toks[stray[0][0]]
        raise fail(f"x_{stray[0][3]}^{g} outside a sum over the entries of group {g}: one "
                   "entry of a group is not modelled (the grouped vocabulary reads each "
                   "entry with its own group's statistics)", t,
                   f"write x (every entry) or \\sum_{{i=1}}^{{H}} x_i^{g}")
    bounds = {b for *_, b in rewrites}
    if len(bounds) > 1:
        raise fail(f"the sums over group {g} have the counts {', '.join(sorted(bounds))}",
                   first, "one name counts the group's entries")
    count = next(iter(bounds), None)
    if count is not None:
        _check_count(toks, count, defined, rewrites, fail)
        if own("m"):
            raise fail(f"the count {count} of the group sum is the group size m, but the "
                       "document defines m itself: two meanings", toks[rewrites[0][0]],
                       "rename the document's m")
    fresh = next((c for c in "jki" if all(t.text != c for t in toks) and c not in used), None)
    if rewrites and fresh is None:
        raise fail("no index letter (i, j, k) is left to name the entry whose group the sum "
                   "runs over", toks[rewrites[0][0]], "write fewer index letters")
    _apply(toks, found, rewrites, count, fresh)


def _letter_elsewhere(toks: Sequence[Any], found: Sequence[tuple[int, int, int, str | None]],
                      g: str, first: Any, fail: Callable[..., SourceError]) -> None:
    """Refuse a group letter that the equation also writes as an index or a name."""
    sup_at = {j + 1 + (toks[j + 1].text == "{") for _, j, _, _ in found}
    for k, t in enumerate(toks):
        if t.text != g or k in sup_at:
            continue
        role = "an index" if k > 0 and toks[k - 1].text in ("_", "{") else "a name"
        raise fail(f"superscript {g} on {first.text}: {g} would name the group (instance) "
                   "of the entry "
                   f"(the grouped vocabulary's statistics), but the equation also writes {g} "
                   f"as {role} (x_{g}^{g} reads as entry {g} of group {g}, the sum's own "
                   f"index, or as an entry of the entry's group): two readings", t,
                   "write another letter for the group (\\mu^g, x_i^g) than the index")


def _check_count(toks: Sequence[Any], count: str, defined: Callable[[str], bool],
                 rewrites: Sequence[tuple[int, int, str, str]],
                 fail: Callable[..., SourceError]) -> None:
    at = toks[rewrites[0][0]]
    if defined(count) or count == "d":
        raise fail(f"\\sum_{{i=1}}^{{{count}}} over the entries of a group: {count} counts "
                   "the group's entries, but the document gives it another meaning",
                   at, "leave the count undefined (it is the group size m), or write m")
    if any(t.text == "m" for t in toks):
        raise fail(f"the group size is written both {count} and m", at, "write one of them")
    sums = [(k, after) for k, after, _, _ in rewrites]
    for k, t in enumerate(toks):
        if t.text != count or any(a < k < b for a, b in sums):
            continue
        if toks[k - 1].text in ("_", "^") or toks[k - 1].text == "{" and k > 1 and \
                toks[k - 2].text in ("_", "^"):
            raise fail(f"{count} in a script: the group size {count} is read only as a "
                       "count (the bound of the group sum, \\frac{1}{" + count + "})", t,
                       f"write the script without {count}")
        touching = (k > 0 and toks[k - 1].text.isalnum() and toks[k - 1].end == t.start) or (
            k + 1 < len(toks) and toks[k + 1].text.isalnum() and toks[k + 1].start == t.end)
        if touching:
            raise fail(f"{count} written against other letters: the group size {count} or "
                       "part of a product or word?", t, f"set {count} apart")


def _apply(toks: list[Any], found: Sequence[tuple[int, int, int, str | None]],
           rewrites: Sequence[tuple[int, int, str, str]], count: str | None,
           fresh: str | None) -> None:
    """Drop the group superscripts, turn each group sum into ``\\sum_{i\\in\\mathcal S_j}``
    and the count into ``m`` (from the end, so indices stay valid)."""
    edits: list[tuple[int, int, list[Any]]] = [(j, e, []) for _, j, e, _ in found]
    for k, after, index, _ in rewrites:
        start = k + 1 + (toks[k + 1].text in ("\\limits", "\\nolimits"))
        s = toks[start]
        new = [replace(s, text=x) for x in ("_", "{", index, "\\in", "\\mathcal", "S", "_",
                                            fresh, "}")]
        edits.append((start, after, new))
    if count is not None:
        covered = [(a, b) for a, b, _ in edits]
        for k, t in enumerate(toks):
            if t.text == count and not any(a <= k < b for a, b in covered):
                edits.append((k, k + 1, [replace(t, text="m")]))
    for a, b, new in sorted(edits, key=lambda e: -e[0]):
        toks[a:b] = new

"""What equation editors (MathType, Mathpix, Word, Typora, CSDN/Zhihu) add to LaTeX that
renders as nothing: ``\\mathop`` around an operator, ``{\\rm word}``, ``\\operatorname*``
and brace groups TeX prints as if they were not there.

The rule for braces is what the rendered formula shows.  TeX draws a brace group as its
content, so a group may be dropped wherever the formula without it renders the same and
is read the same way:

* a group that is the whole content of an enclosing group, ``( )`` or ``[ ]``
  (``\\frac{ {\\partial L} }{..}``, ``\\left( {a - b} \\right)``, ``_{ {N_i} }``): the
  enclosing delimiter groups exactly the same tokens;
* a group around one atom (a letter, a number, a Greek letter, an accented or font-wrapped
  name, a bracketed group, each with at most one sub- and one superscript), when no script
  after the group would stack on a script inside it (``{x}_{i}``, ``{\\hat x}_i``,
  ``{x_i}^2`` are dropped; ``{x_i}_j``, ``{x^2}^3`` are left to the parser), and no letter
  or digit outside it would touch one inside (``a{b}`` is left: it stays the product of
  two groups);
* the operand of ``\\partial`` (``\\partial {w_c}``) is such an atom.

Any other group is left untouched for the parser, which reads a group around an atom as
the atom and refuses one around a sum or quotient used as grouping (invisible when
rendered, so parentheses would not be what the reader sees).  A group that is an argument
(after ``_``, ``^``, a macro, or right after another group, where it may be the second
argument of ``\\frac``) or the body of ``\\sum`` is never dropped.

>>> from symnorm.lang.latex_tokens import tokenize
>>> [t.text for t in tokenize(r"{{x}_{i}} + \\mathop \\sum \\limits_i {\\rm{E}}", "<t>", 1, 1)]
['x', '_', '{', 'i', '}', '+', '\\\\sum', '\\\\limits', '_', 'i', '{', '\\\\mathrm', '{', 'E', '}', '}']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from symnorm.errors import SourceError

if TYPE_CHECKING:
    from symnorm.lang.latex_tokens import Tok

__all__ = ["BIG_OPERATORS", "unwrap_editor_latex"]

#: Operators TeX already sets as ``\\mathop``: around them ``\\mathop`` changes nothing.
BIG_OPERATORS = frozenset({"\\sum", "\\prod", "\\lim", "\\max", "\\min", "\\sup", "\\inf"})
#: Macros whose braced argument is a word: ``\\mathop{\\mathrm{E}}`` is ``\\mathrm{E}``.
_WORD_MACROS = frozenset({"\\mathrm", "\\operatorname"})
#: Macros that take one argument and form one atom with it.
_ATOM_MACROS = frozenset({"\\hat", "\\widehat", "\\bar", "\\overline", "\\tilde",
                          "\\widetilde", "\\mathbf", "\\mathbb", "\\boldsymbol", "\\bm",
                          "\\vec", "\\mathbfit", "\\mathrm", "\\operatorname", "\\mathcal",
                          "\\mathscr"})
_OPENER = {")": "(", "]": "["}
#: a group opening with an operator (``a {{+ b}}``) keeps its braces: the parser judges it
_LEADS = frozenset({"+", "-", "*", "/", "\\cdot", "\\times", "\\odot", "\\pm", "\\mp",
                    "\\div", "\\over"})
#: Longest atom looked at inside a group, in tokens (keeps the scan linear).
_ATOM_TOKENS = 40

Fail = Callable[..., SourceError]


def unwrap_editor_latex(toks: list[Tok], fail: Fail) -> list[Tok]:
    """The tokens with editors' invisible wrappers removed (module docstring)."""
    if not any(t.text in ("{", "\\mathop", "\\rm", "\\operatorname") for t in toks):
        return toks
    toks = _operatorname_star(toks)
    toks = _roman(toks, fail)
    toks = _mathop(toks, fail)
    return _braces(toks)


def _operatorname_star(toks: list[Tok]) -> list[Tok]:
    """``\\operatorname*{mean}``: the star only moves limits under the name."""
    return [t for k, t in enumerate(toks)
            if not (t.text == "*" and k and toks[k - 1].text == "\\operatorname")]


def _letters(toks: list[Tok], a: int) -> int:
    """The end of the run of single letters starting at ``a``."""
    b = a
    while b < len(toks) and len(toks[b].text) == 1 and toks[b].text.isalpha():
        b += 1
    return b


def _synth(t: Tok, text: str) -> Tok:
    return replace(t, text=text, gap="")


def _roman(toks: list[Tok], fail: Fail) -> list[Tok]:
    """``{\\rm mean}``, ``{\\rm{mean}}``: the word in upright type, ``{\\mathrm{mean}}``.
    ``\\rm`` switches to upright type until its group ends, so only a group that it opens
    and that holds one word is read; anything else is an error naming it."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text != "\\rm":
            out.append(t)
            i += 1
            continue
        a = i + 1
        braced = a < len(toks) and toks[a].text == "{"
        b = _letters(toks, a + braced)
        end = b + braced  # the token after the word (and its own closing brace)
        if (not out or out[-1].text != "{" or b == a + braced
                or braced and (b >= len(toks) or toks[b].text != "}")
                or end >= len(toks) or toks[end].text != "}"):
            raise fail("\\rm switches to upright type until the end of its group: it is "
                       "read only as a group that holds one word ({\\rm mean}, "
                       "{\\rm{E}})", t.start, "write \\mathrm{mean} or {\\rm mean}")
        word = toks[a + braced:b]
        out += [_synth(t, "\\mathrm"), _synth(t, "{"), *word, _synth(toks[end], "}")]
        i = end  # the enclosing group's closing brace is kept
    return out


def _mathop(toks: list[Tok], fail: Fail) -> list[Tok]:
    """``\\mathop \\sum``, ``\\mathop{\\sum}``, ``\\mathop{\\mathrm{E}}``: the operator (TeX
    already sets it as one); ``\\mathop`` around anything else is an error."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text != "\\mathop":
            out.append(t)
            i += 1
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt is not None and nxt.text in BIG_OPERATORS:
            i += 1
            continue
        if nxt is not None and nxt.text == "{":
            c = toks[i + 2] if i + 2 < len(toks) else None
            if (c is not None and c.text in BIG_OPERATORS and i + 3 < len(toks)
                    and toks[i + 3].text == "}"):
                out.append(c)
                i += 4
                continue
            if c is not None and c.text in _WORD_MACROS and i + 3 < len(toks) \
                    and toks[i + 3].text == "{":
                b = _letters(toks, i + 4)
                if b > i + 4 and b + 1 < len(toks) and toks[b].text == "}" \
                        and toks[b + 1].text == "}":
                    out += toks[i + 2:b + 1]
                    i = b + 2
                    continue
        shown = " ".join(x.text for x in toks[i + 1:i + 9]) or "nothing"
        raise fail(f"\\mathop around {shown!r}: \\mathop makes a big operator of "
                   "its argument, and is read only around \\sum, \\prod, \\lim, \\max, "
                   "\\min, \\sup, \\inf or one upright word (\\mathop{\\rm E})", t.start,
                   "write the operator itself (\\sum_{i=1}^d, \\mathrm{E}[x]); a name "
                   "needs no \\mathop")
    return out


#: Tokens after which a brace group is not an argument (everything else that is a macro
#: may take one: the group is then left alone).
def _plain_after(t: Tok | None) -> bool:
    from symnorm.lang.latex_tokens import DEFINERS, GREEK, LEAD_OPS, RELATIONS, ROOT_SIGN
    if t is None or not t.is_cmd:  # the sign √ takes its radicand like \sqrt
        return t is None or t.text not in ("_", "^", "}", "]", ROOT_SIGN)
    return (t.text in GREEK or t.text in RELATIONS or t.text in DEFINERS
            or t.text in LEAD_OPS and t.text != "\\over"
            or t.text in ("\\partial", "\\quad", "\\qquad", "\\\\", "\\ell", "\\|",
                          "\\langle", "\\rangle", "\\nabla"))


def _simple(t: Tok) -> bool:
    """A letter or a number (what juxtaposition could join into a word or a numeral)."""
    return t.text.isalnum()


def _atom(toks: list[Tok], nxt: list[int], a: int, end: int, match: dict[int, int]
          ) -> tuple[bool, bool, bool] | None:
    """(has a subscript, has a superscript, is one bare letter or number) when the kept
    tokens from ``a`` to ``end`` (exclusive) are one atom, else None."""
    from symnorm.lang.latex_tokens import GREEK
    if a >= end:
        return None
    t = toks[a]
    i = nxt[a]
    if t.text in _ATOM_MACROS:
        if i >= end:
            return None
        i = nxt[match[i]] if toks[i].text == "{" else nxt[i]
        bare = False
    elif t.text in ("(", "["):
        close = match.get(a)
        if close is None or close >= end:
            return None
        i, bare = nxt[close], False
    elif _simple(t) or t.text in GREEK or t.text == "\\ell":
        bare = _simple(t)
    else:
        return None
    sub = sup = False
    steps = 0
    while i < end and toks[i].text in ("_", "^") and steps < 2:
        steps += 1
        kind = toks[i].text
        if kind == "_" and sub or kind == "^" and sup:
            return None
        sub, sup = sub or kind == "_", sup or kind == "^"
        i = nxt[i]
        if i >= end:
            return None
        i = nxt[match[i]] if toks[i].text == "{" else nxt[i]
    if i < end:
        return None
    return sub, sup, bare and not sub and not sup


def _braces(toks: list[Tok]) -> list[Tok]:
    """Drop the invisible brace groups of the module docstring, innermost first."""
    n = len(toks)
    match: dict[int, int] = {}
    stack: list[int] = []
    parens: list[int] = []
    for k, t in enumerate(toks):
        if t.text == "{":
            stack.append(k)
        elif t.text == "}" and stack:
            match[stack.pop()] = k
        elif t.text in ("(", "["):
            parens.append(k)
        elif t.text in (")", "]") and parens and toks[parens[-1]].text == _OPENER[t.text]:
            match[parens.pop()] = k  # a half-open [0, 1) leaves its opener unmatched
    if stack:  # unbalanced: the parser names the brace
        return toks
    closes = {c: o for o, c in match.items() if toks[o].text == "{"}
    # a doubly linked list of the tokens kept so far (n is the end, -1 the start)
    nxt = list(range(1, n + 1)) + [n]
    prv = list(range(-1, n))
    keep = [True] * n

    def drop(k: int) -> None:
        keep[k] = False
        a, b = prv[k], nxt[k]
        if a >= 0:
            nxt[a] = b
        prv[b] = a

    for m in range(n):
        o = closes.get(m)
        if o is None:
            continue
        before = toks[prv[o]] if prv[o] >= 0 else None
        script = (before is not None and before.text != "{" and prv[prv[o]] >= 0
                  and toks[prv[prv[o]]].text in ("_", "^"))
        after_i = nxt[m]
        after = toks[after_i] if after_i < n else None
        scripted = after is not None and after.text in ("_", "^")
        if script and not scripted or not _plain_after(before):
            continue  # an argument, or the body of \sum_i {..} (a group there bounds it)
        whole = (before is not None and after is not None and prv[o] in match
                 and match[prv[o]] == after_i)
        if whole and not (nxt[o] < m and toks[nxt[o]].text in _LEADS):
            drop(o)
            drop(m)
            continue
        if m - o > _ATOM_TOKENS:
            continue
        atom = _atom(toks, nxt, nxt[o], m, match)
        if atom is None:
            continue
        sub, sup, bare = atom
        nxt_text = after.text if after is not None else ""
        if nxt_text == "_" and (sub or sup) or nxt_text == "^" and sup:
            continue  # a script that would stack on a script inside
        if nxt_text == "'" and not bare:
            continue
        first, last = toks[nxt[o]], toks[prv[m]]
        if (before is not None and _simple(before) and _simple(first)
                or after is not None and _simple(after) and bare and _simple(last)):
            continue  # letters or digits would touch: a{b}, {2}3
        drop(o)
        drop(m)
    return [t for k, t in enumerate(toks) if keep[k]]

r"""Channel superscripts under ``use batchnorm``: ``x^{(k)}``, ``\hat x^{(k)}``, ``\gamma^{(k)}``.

Ioffe and Szegedy (arXiv:1502.03167, section 3) normalize "each dimension"
``\hat x^{(k)} = \frac{x^{(k)} - \mathrm{E}[x^{(k)}]}{\sqrt{\mathrm{Var}[x^{(k)}]}}``, and
OpenVINO's BatchNormInference-5 prints the same with eps; the superscript names the
channel (feature) k.  The ``batchnorm`` vocabulary models one channel (its x is the batch of
one feature), so on its quantities the superscript names that one channel and is dropped,
never read as a power.  The reading holds only where it is the only one
(:func:`channel_superscript`):

* the block uses ``batchnorm`` (its vocabulary is one channel; with another layer in force
  the superscript could mean something else);
* the superscript is a parenthesised letter ``^{(k)}`` that the document does not define
  (nor declares as its layer: then ``layer k`` says what it is);
* it stands on a name of the vocabulary (x, its ``\hat x``, y, \mu, \sigma, \gamma, \beta,
  eps, a document's alias of one of them, ``let b = x``) or on a name the equation itself
  defines (OpenVINO's ``\hat y^{(k)} = ...``); on a quantity with a meaning of its own (a
  symbol the document declares, ``d``, a group ``(x - \mu)^{(k)}``) it is an error;
* the letter is no index of the equation (``x_k``, ``\\sum_k``: the entry or sample k, or
  the channel k);
* every parenthesised superscript of the equation is the same letter (``x^{(k)}`` beside
  ``\gamma^{(j)}`` is an error: two channels);
* a digit (``\gamma^{(2)}``) on such a name is an error naming its two readings (a power,
  or channel 2); on a symbol the document declares it stays a power.

>>> from symnorm.check.run import check_text
>>> doc = ("```symnorm\nuse batchnorm\n```\n\n"
...        "```latex e\ny^{(k)} = \\gamma^{(k)}\\hat x^{(k)} + \\beta\n```\n")
>>> [(v.label, v.status, str(v.statement)) for v in check_text(doc, "d.md").verdicts][0]
('e.1', 'proved', 'y == gamma * xhat + beta * ones')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from symnorm.lang.syntax import Name, Num

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser
    from symnorm.lang.latex_tokens import Tok

__all__ = ["ChannelReading", "channel_reading", "channel_superscript", "parenthesised_script"]


def parenthesised_script(p: ExprParser, start: int, end: int) -> str | None:
    """The letter or digits of a superscript written ``^{(k)}`` between token positions
    ``start`` and ``end`` (the scripts just read), else None."""
    texts = [t.text for t in p.toks[start:end]]
    for k, s in enumerate(texts):
        if s == "^" and texts[k + 1:k + 2] == ["{"] and texts[k + 2:k + 3] == ["("] \
                and texts[k + 4:k + 6] == [")", "}"]:
            inner = texts[k + 3]
            if len(inner) == 1 and inner.isalpha() or inner.isdigit():
                return inner
    return None


def channel_superscript(p: ExprParser, kind: str, val: object, sup: object, start: int,
                        t: Tok) -> object:
    """``sup`` unchanged, or None where it is the channel superscript read as above."""
    chan: Any = getattr(p, "channel", None)
    if chan is None or sup is None:
        return sup
    letter = parenthesised_script(p, start, p.i)
    if letter is None:
        return sup
    name = str(val) if kind == "name" else None
    if letter.isdigit():
        if name is not None and chan.own_symbol(name):
            return sup  # the document's own scalar a: a^{(2)} is its power
        raise p.err(f"superscript ({letter}) on {t.text}: a power {letter}, or channel "
                    f"{letter} (use batchnorm names a channel with a parenthesised "
                    "superscript, x^{(k)}): two readings", t,
                    f"write {t.text}^{letter} for the power, or a letter for the channel "
                    f"({t.text}^{{(k)}})")
    if letter == p.layer or p.defined(letter):
        if letter == p.layer:
            return sup  # the document's layer letter: read as its layer (latex_atoms)
        raise p.err(f"superscript ({letter}) on {t.text}: {letter} is a name of the document, "
                    f"so a power {letter}, while under use batchnorm a parenthesised "
                    f"superscript names the channel: two readings", t,
                    f"write {t.text}^{{{letter}}} for the power, or another letter for the "
                    "channel")
    if not isinstance(sup, Name) or sup.id != letter:  # pragma: no cover - from the tokens
        return sup
    if name is None or not (chan.vocabulary(name) or not p.defined(name)):
        if name is None and isinstance(val, Num):  # 2^{(k)}: a number is no quantity
            raise p.err(f"superscript ({letter}) on the number {t.text}: a number has no "
                        "channel, and use batchnorm's parenthesised superscript names the "
                        "channel of the vocabulary's quantities (x, \\hat x, y, \\mu, "
                        "\\sigma, \\gamma, \\beta), so it is neither a power nor a channel "
                        "here", t, f"drop it, writing the channel on the vocabulary's names "
                        f"({t.text}\\mu^{{({letter})}}), or write "
                        f"{t.text}^{{{letter}}} for a power of a defined {letter}")
        what = f"{t.text}: the document's own {name}" if name is not None else "a group: it"
        raise p.err(f"channel superscript ({letter}) on {what} has a meaning of its "
                    "own, while use batchnorm's channel superscript names the channel of the "
                    "vocabulary's quantities (x, \\hat x, y, \\mu, \\sigma, \\gamma, \\beta)",
                    t, f"write the superscript on the vocabulary's names inside "
                       f"(x^{{({letter})}} - \\mu^{{({letter})}}), or drop it")
    if _indexed_elsewhere(p, letter):
        raise p.err(f"superscript ({letter}) on {t.text}: {letter} is also an index of the "
                    f"equation (x_{letter}, \\sum_{letter}), so the superscript could name "
                    f"the entry (sample) {letter} or the channel {letter}: two readings", t,
                    "use another letter for the channel, or write the entries as x_i")
    seen = chan.letter
    if seen is not None and seen[0] != letter:
        raise p.err(f"channel superscripts ({seen[0]}) at {seen[1]} and ({letter}) in one "
                    "equation: use batchnorm models one channel, so two channels cannot be "
                    "told apart", t, "state the equation for one channel k")
    if seen is None:
        chan.letter = (letter, f"{t.line}:{t.col}")
    return None


def _indexed_elsewhere(p: ExprParser, letter: str) -> bool:
    """Whether the equation writes ``letter`` as a subscript index (``x_k``, ``\\sum_{k=1}``)."""
    texts = [t.text for t in p.toks]
    for k, s in enumerate(texts[:-1]):
        if s != "_":
            continue
        if texts[k + 1] == letter:
            return True
        if texts[k + 1] == "{" and texts[k + 2:k + 3] == [letter] \
                and texts[k + 3:k + 4] in (["}"], ["="], [","]):
            return True
    return False


class ChannelReading:
    """The per-equation state of channel superscripts (``p.channel``; None: not offered)."""

    def __init__(self, vocabulary: Any, own_symbol: Any) -> None:
        #: whether a name is a quantity of the vocabulary (or the document's alias of one)
        self.vocabulary = vocabulary
        #: whether a name is a symbol the document declares or defines itself
        self.own_symbol = own_symbol
        #: the equation's channel letter and where it was first written
        self.letter: tuple[str, str] | None = None


def channel_reading(reader: Any) -> ChannelReading | None:
    """The reading for one equation, when the block uses batchnorm (its vocabulary is one
    channel) and no other layer vocabulary, else None."""
    env = reader.env
    if not getattr(env, "channels", False):
        return None
    from symnorm.lang.vocab import VOCAB_INPUTS

    def vocabulary(n: str) -> bool:
        if reader._vocab(n) or env.vocab_let(n) or n in env.latex_aliases:
            return True
        if n in reader.lets:
            return False
        if n in VOCAB_INPUTS and env.kind(n) is not None:
            return True
        return env.kind(n) == "let" and env.alias(n) in VOCAB_INPUTS

    def own_symbol(n: str) -> bool:
        return not vocabulary(n) and bool(reader.is_defined(n)) and n != "d"

    return ChannelReading(vocabulary, own_symbol)


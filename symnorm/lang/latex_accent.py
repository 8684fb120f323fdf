r"""The accent of a document's alias of the vocabulary's input: ``\hat X`` after ``let X = x``.

Sources name the layer's input their own way (Chris Yeh's batch column ``X``, Clement
Thorey's ``h``) and a symnorm block says so with ``let X = x``.  The same sources then write
the normalized input with their letter, ``\hat X``, ``\hat{h}_{i}``, ``\frac{\partial
J}{\partial \hat X}``: the hat of their x, which is the vocabulary's ``\hat x`` (its meaning
and its node of the computation graph).  :func:`accented_name` gives the name an accent
makes (``\hat X``: ``xhat``, shown so in ``read as``) where all of these hold:

* the name under the accent is the document's exact alias of the vocabulary's input vector
  (``let X = x``; ``let X = 2x`` is not, and ``\hat X`` stays the name ``Xhat``);
* the document does not define or declare the accented name itself (``vector Xhat``,
  ``let Xhat = ...``: then ``\hat X`` is the document's ``Xhat``);
* the same accent of the input has a meaning in this block (the vocabulary's ``\hat x``,
  or the document's own ``xbar``).  Where it has none (``\bar X`` under ``use batchnorm``)
  the accent is neither the input's nor plainly a new name, and it is an error naming both.

>>> from symnorm.check.run import check_text
>>> doc = ("```symnorm\nuse batchnorm\nlet X = x\n```\n\n"
...        "```latex e\n\\hat X = \\frac{X - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}}\n```\n")
>>> [(v.status, str(v.statement)) for v in check_text(doc, "d.md").verdicts][0]
('proved', 'xhat == (X - mu * ones) / sqrt(sigma ** 2 + eps)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from symnorm.lang.latex_tokens import ACCENTS, Tok

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser

__all__ = ["accented_name"]


def accented_name(p: ExprParser, word: str, macro: Tok) -> str:
    """The name ``macro`` (``\\hat``, ``\\bar``, ``\\tilde``...) on ``word`` denotes."""
    suffix = ACCENTS[macro.text]
    own = word + suffix
    target = p.input_alias(word)
    if target is None or p.defined(own):
        return own
    if p.defined(target + suffix):
        return target + suffix
    raise p.err(f"{macro.text} {word}: {word} is the document's alias of the input {target} "
                f"(let {word} = {target}), and {macro.text} {target} has no meaning in this "
                f"block, so {macro.text} {word} is neither {macro.text} {target} nor plainly "
                f"a name of its own ({own}): two readings", macro,
                f"declare or define the source's own {own} in a symnorm block (`vector "
                f"{own}`, `let {own} = ...`), or write the quantity {macro.text} {target} "
                "stands for")

r"""A row that gives a vocabulary's standard deviation the source's own meaning, with eps.

Sources that write ``\sigma`` in the layer's formula often define it first, on a row of its
own, with eps under the root (the allo compiler's AIE kernel README:
``\sigma = \sqrt{\frac1d\sum_i (x_i-\mu)^2 + \epsilon}``, then
``\mathrm{LayerNorm}(x) = \gamma\cdot\frac{x-\mu}{\sigma}``).  The vocabulary's ``\sigma`` is
the standard deviation without eps, so read as a claim about it that row is false, and the
next row, read with the vocabulary's sigma, is false too, although the source is right.

Such a row is read as what the source says it is: the document's own definition of the name
for the rest of the document (as ``let sigma = ...`` in a symnorm block would be), and, so
that its right side is still checked, the claim that it is the layer's denominator
(the vocabulary's ``\hat\sigma``, ``sqrt(v + eps)`` with use layernorm).  Only where that
reading has one meaning:

* the name is one of the vocabulary's eps-free standard deviations (:data:`STD_NAMES`) and
  still has the vocabulary's meaning (neither the document nor an earlier equation defined
  or used it: an earlier use read it without eps, and the order of equations must not decide);
* the block's layer is the default map (eps inside the root, the biased variance), whose
  denominator the vocabulary names;
* the right side depends on eps, and does not write the name itself.

As a link of a chain the row has both readings, and is refused.

A row without eps stays a claim about the vocabulary's meaning (docs/latex.md).
"""

from __future__ import annotations

from typing import Any

from symnorm.errors import SourceError
from symnorm.lang.syntax import Expr, Pos

__all__ = ["STD_NAMES", "own_denominator", "own_node_error", "own_note"]

#: the vocabularies' standard deviations without eps (batchnorm's Ioffe-Szegedy sigma_B and
#: PaddlePaddle's sigma_beta beside the plain sigma)
STD_NAMES = frozenset({"sigma", "sigma_B", "sigma_beta"})
#: the vocabularies' name of the layer's denominator, the standard deviation with eps
DENOMINATOR = "sigmahat"


def own_denominator(name: str, kind: str, *, meanings: dict[str, Expr], graph: object,
                    vocab_meaning: bool, used_before: bool, writes_eps: bool,
                    self_reference: bool, pos: Pos, file: str,
                    in_chain: bool = False) -> Expr | None:
    """The layer's denominator to check a row ``name = ...`` against, when the row is the
    source's own definition of ``name`` with eps; None when it is not (the row is read as
    before).  ``vocab_meaning``: the name still has its vocabulary meaning; ``used_before``:
    an earlier equation of the document read it with that meaning."""
    if name not in STD_NAMES or kind not in ("plain", "squared") or not writes_eps \
            or name not in meanings or DENOMINATOR not in meanings:
        return None
    if graph is None or isinstance(graph, str):
        return None  # eps outside the root, an unbiased variance: no named denominator
    shown = "\\" + name.replace("_", "_{", 1) + "}" if "_" in name else "\\" + name
    if used_before:
        raise SourceError(
            f"{shown} is defined here with eps, but an earlier equation read {name} as the "
            f"vocabulary's {meanings[name]}, without eps: the equations before could use "
            "either, two readings, so the row is not read", file, pos.line, pos.col,
            f"put this row before the first equation that writes {shown}, or give the "
            "source's quantity another name")
    if self_reference:
        raise SourceError(
            f"{shown} on both sides of a row with eps: the source's own {name} defined "
            f"through the vocabulary's (whose {name} has no eps), or a claim about the "
            f"vocabulary's {name}, two readings, so the row is not read", file, pos.line,
            pos.col, "write the variance out (\\sigma = \\sqrt{\\frac{1}{d}\\sum_i "
            "(x_i - \\mu)^2 + \\epsilon}) or use \\mathrm{Var}[x]")
    if not vocab_meaning:
        return None
    if in_chain:
        shown += "^2" if kind == "squared" else ""
        # \sigma^2 = \frac1d\sum_i(x_i-\mu)^2+\epsilon = \mathrm{Var}[x]+\epsilon (red team 20,
        # d24): the row alone is the source's own sigma, but as the first link of a chain it
        # was read as a claim about the vocabulary's (refuted, although the source is right)
        raise SourceError(
            f"{shown} is defined with eps as a link of a chain: the source's own {name} for "
            f"the rest of the document (as on a row of its own), or a claim about the "
            f"vocabulary's {name}, {meanings[name]}, without eps: two readings, so the chain "
            "is not read", file, pos.line, pos.col,
            f"write the row for {shown} on its own, then the chain's other links (with "
            f"{shown} on the left)")
    return meanings[DENOMINATOR]


def own_note(name: str, denominator: Expr) -> str:
    """The note on the claim such a row makes."""
    return (f"{name} is written with eps on a row of its own: read as the source's own "
            f"{name} for the rest of the document (the vocabulary's {name} has no eps), and "
            f"checked to be the layer's denominator {denominator}")



def own_node_error(r: object, p: object, what: str, node: str, why: str) -> Exception | None:
    r"""The refusal of a partial by ``node`` (``\sigma^2``) where the document defines the
    name itself (the source's own sigma with eps, or a ``let``) while the block's vocabulary
    has a computation graph with a node of that name: the partial is not along that graph,
    and the refusal says so (red team 20: after an own-sigma row, ``\partial\ell/\partial
    \sigma^2`` was refused as "y does not depend on sigma^2", which is untrue of the source).
    ``why`` says what then fails (the upstream gradient's quantity is the vocabulary's).
    None where the name is no node of the vocabulary's graph (the caller's message stands)."""
    from .latex import _err
    from .latex_graph import Graph, node_key
    env: Any = getattr(r, "env")
    graph, output = env.graph, env.output
    var, power = getattr(p, "var"), getattr(p, "var_power")
    if not isinstance(graph, Graph) or output is None or env.definition(var) is None \
            or var not in env.meanings:
        return None
    key = node_key(graph, output, var, power)
    if key is None:
        return None
    named = getattr(p, "named")
    return _err(f"{what}: {var} here is the document's own definition ({var} = "
                f"{env.definition(var)}), not the "
                f"vocabulary's {var} ({env.meanings[var]}), so {node} is no node of the "
                f"vocabulary's computation graph ({graph.latex()}), and {why}: this partial "
                "has no value here", getattr(p, "pos"), getattr(r, "file"),
                f"define the derivative yourself (`let {named} = ...` before the equation), "
                f"or drop the document's definition of {var} (then {node} is the "
                "vocabulary's node)")

"""Vocabularies: claim-language definitions generated from a layer spec.

A vocabulary is plain claim-language text (declarations and ``let`` lines) produced from a
:class:`~symnorm.spec.NormSpec`, so the names a document gets with ``use layernorm`` are
exactly the spec's map: centering, variance denominator and epsilon placement included.

>>> print(vocabulary_text("rmsnorm", {}))  # doctest: +NORMALIZE_WHITESPACE
vector x
scalar eps
let r = sqrt(x.T*x/d + eps)
let RMS(y) = y/sqrt(y.T*y/d + eps)
let Jr = jacobian(RMS(x), x)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import NamedTuple

from ..errors import SpecError
from ..spec import NormSpec, layer_norm, rms_norm

__all__ = ["GROUPED", "LATEX_INDEX_SETS", "LATEX_MEANINGS", "LATEX_SOURCE_NAMES", "VOCABULARIES",
           "Conventions", "conventions", "latex_conventions", "normalizer_text", "register",
           "vector_affine", "vocabulary_text"]


def normalizer_text(spec: NormSpec, y: str) -> str:
    """The claim-language expression of ``spec``'s map applied to the vector named ``y``."""
    centered = f"P*{y}" if spec.center else y
    denom = "d" if spec.var_denominator == "N" else "(d - 1)"
    var = f"({centered}).T*({centered})/{denom}" if spec.center else f"{y}.T*{y}/{denom}"
    scale = f"sqrt({var} + eps)" if spec.eps_inside else f"(sqrt({var}) + eps)"
    return f"{centered}/{scale}"


def affine_text(spec: NormSpec, normalized: str) -> str:
    """The output of ``spec``'s per-element affine map on the normalized vector ``normalized``:
    ``hadamard(gamma, ...) + beta`` (no ``beta`` when the spec has no bias, as RMSNorm)."""
    out = f"hadamard(gamma, {normalized})"
    return out + " + beta" if spec.bias else out


def _affine(spec: NormSpec, normalized: str) -> list[str]:
    """``affine=elementwise``: vector gain (and bias) of the shape of x, the output y and its
    Jacobian Jy (PyTorch LayerNorm: gamma and beta have the shape of normalized_shape)."""
    if not spec.affine:
        return []
    return ["vector gamma, beta" if spec.bias else "vector gamma",
            f"let y = {affine_text(spec, normalized)}", "let Jy = jacobian(y, x)"]


def _layernorm(spec: NormSpec) -> list[str]:
    denom = "d" if spec.var_denominator == "N" else "(d - 1)"
    s = "sqrt(v + eps)" if spec.eps_inside else "sqrt(v) + eps"
    return [
        "vector x", "scalar eps",
        "let P = I - ones*ones.T/d",
        "let c = P*x",
        f"let v = c.T*c/{denom}",
        f"let s = {s}",
        f"let N(y) = {normalizer_text(spec, 'y')}",
        "let J = jacobian(N(x), x)",
        *_affine(spec, "N(x)"),
    ]


def _batchnorm(spec: NormSpec) -> list[str]:
    # One channel over a batch: the batch is the vector x, as every source writes it (its
    # size is the document's d, also called m); z is the name earlier documents used, kept
    # as an alias (a definition: jacobian(.., z) is an error, write x).  BN(sample; [batch
    # values]) is built into the language.
    if spec.affine:
        raise SpecError("affine=elementwise does not apply to batchnorm: BatchNorm's gain and "
                        "bias are per channel, so over one channel's batch they are scalars "
                        "(the LaTeX \\gamma, \\beta of use batchnorm)")
    return [
        "vector x", "scalar eps",
        "let z = x",
        "let P = I - ones*ones.T/d",
        "let m = d",
        "let mu = ones.T*x/d",
        f"let BN(y) = {normalizer_text(spec, 'y')}",
        "let Jb = jacobian(BN(x), x)",
    ]


def _rmsnorm(spec: NormSpec) -> list[str]:
    return [
        "vector x", "scalar eps",
        "let r = sqrt(x.T*x/d + eps)",
        f"let RMS(y) = {normalizer_text(spec, 'y')}",
        "let Jr = jacobian(RMS(x), x)",
        *_affine(spec, "RMS(x)"),
    ]


#: Size names a vocabulary gives the dimension d besides d itself (``\\frac{1}{NHW}``): one
#: such name may not share an equation with another name of d (``\\frac{1}{NHW}
#: \\sum_{i=1}^{m}`` would read two different counts as one).
SIZE_NAMES = frozenset({"NHW", "H", "D", "N"})
#: What the layer vocabularies declare themselves (the input and eps): the only declared
#: symbols a statement of the vocabulary's output may use besides its affine parameters.
VOCAB_INPUTS = frozenset({"x", "z", "eps"})
#: The frameworks' own words for the affine parameters (PyTorch's ``weight``/``bias``,
#: cuDNN's ``scale``): the vocabulary's gamma and beta, unless the document declares them.
AFFINE_WORDS = {"weight": "gamma", "scale": "gamma", "bias": "beta", "offset": "beta"}
#: Words that plain-text formulas print for a vocabulary's quantities (ONNX's ``Y = scale *
#: (X - mean) / sqrt(variance + epsilon) + B``, cuDNN's ``output = scale*{input - mean \over
#: ...}``): the conventional name each word spells.  The word takes
#: that name's meaning only where the name has its vocabulary meaning (the document does not
#: define it); ``output`` (MXNet's ``out``) spells the vocabulary's output (``y``),
#: ``input`` (MXNet's ``data``) its input ``x``.
#: A document that defines or declares the word itself keeps its own name.
WORD_NAMES = {"mean": "mu", "var": "variance", "input": "x", "inputs": "x",
              "output": "y", "outputs": "y",
              # MXNet's operator docstrings (LayerNorm: out = (data - mean(data, axis)) ...)
              "data": "x", "out": "y"}
#: Words that mean a statistic when an application bracket follows them (``mean(x^2)`` is
#: ``\mathrm{E}[x^2]``, ``var(X)`` is ``\mathrm{Var}[X]``, ``rms(x)`` is
#: ``\mathrm{RMS}(x)``), wherever the document does not define the word.
WORD_STATISTICS = {"mean": "E", "var": "Var", "variance": "Var", "rms": "RMS"}
#: Conventional LaTeX names of a vocabulary (issue 10): what a paper's or a docstring's
#: ``\mu``, ``\sigma``, ``\hat x``, ``y`` mean with ``use layernorm``.  The LaTeX reader
#: defines one of them (as a visible ``let``) only when an equation uses it and the document
#: does not define the name itself.  ``sigma`` is the standard deviation without eps (so
#: ``\sqrt{\sigma^2+\epsilon}`` is ``s``); the gain and bias are scalars.
LATEX_MEANINGS: dict[str, dict[str, str]] = {
    "layernorm": {"mu": "mean(x)", "sigma": "sqrt(v)", "xhat": "N(x)",
                  "y": "gamma*N(x) + beta*ones", **AFFINE_WORDS,
                  # Ba et al.'s number of hidden units; the feature count D of blogs
                  "H": "d", "D": "d",
                  # the feature count n of textbooks and blogs (d2l.ai, Lior Sinai's
                  # \frac{1}{n}\sum_r^n x_r), as with use rmsnorm
                  "n": "d",
                  # Wu and He's m = |S_i|, the size of the entry's set: every entry
                  "m": "d",
                  # the word variance (ONNX, cuDNN, TF): the variance without eps
                  "variance": "v",
                  # Dive into Deep Learning's estimates; its sigma-hat holds eps (see
                  # the hatted sigma, below)
                  "muhat": "mean(x)", "sigmahat": "sqrt(v + eps)"},
    # the batch is the declared vector x, as sources write it.  The mini-batch statistics of
    # Ioffe and Szegedy: mu_B, sigma_B (biased, without eps).
    "batchnorm": {"xhat": "BN(x)", "y": "gamma*BN(x) + beta*ones",
                  "mu_B": "mean(x)", "sigma": "sqrt((P*x).T*(P*x)/d)",
                  "sigma_B": "sqrt((P*x).T*(P*x)/d)",
                  # PaddlePaddle's docstrings write the mini-batch as beta: \mu_\beta
                  "mu_beta": "mean(x)", "sigma_beta": "sqrt((P*x).T*(P*x)/d)",
                  # Dive into Deep Learning's mini-batch estimates (the hatted sigma, below)
                  "muhat": "mean(x)", "muhat_B": "mean(x)",
                  "sigmahat": "sqrt((P*x).T*(P*x)/d + eps)",
                  "sigmahat_B": "sqrt((P*x).T*(P*x)/d + eps)",
                  **AFFINE_WORDS,
                  "variance": "(P*x).T*(P*x)/d",  # the word: the biased batch variance
                  "NHW": "d"},  # cuDNN, oneDNN: the N*H*W values of one channel
    # the PyTorch RMSNorm docstring's n (Marian's N) is the number of entries averaged: the
    # dimension.  y: the output with gain and bias (Marian's); affine=gain (PyTorch's
    # weight only) and affine=none state the others (LATEX_GAIN_OUTPUT, LATEX_PLAIN_OUTPUT)
    "rmsnorm": {"n": "d", "N": "d", "y": "gamma*RMS(x) + beta*ones", **AFFINE_WORDS,
                # the normalized vector x/r (Zhang and Sennrich's a-bar, the hatted x of
                # RMSNorm's backward derivations): a node of RMSNorm's computation graph
                "xhat": "RMS(x)"},
    # GroupNorm and InstanceNorm (docs/family.md, "LaTeX"): mu and the variance are the
    # statistics of each entry's group, written with the per-entry symbols the LaTeX reader
    # states once per channel (symnorm/lang/latex_groups.py); gamma and beta are per channel
    # (PyTorch's affine=True, shape C); m is the group size |S_i| (Wu and He).  No sigma:
    # Wu and He's sigma_i holds eps, the sqrt(sigma^2 + eps) of other sources does not
    "groupnorm": {"mu": "gmu_entry", "variance": "gvar_entry", "xhat": "GN(x)", "y": "GNy",
                  "m": "gm", **AFFINE_WORDS},
    "instancenorm": {"mu": "imu_entry", "variance": "ivar_entry", "xhat": "IN(x)",
                     "y": "INy", "m": "im", **AFFINE_WORDS},
}
#: The grouped vocabularies: name -> the prefix of their claim-language names (gS1, gmu1).
GROUPED: dict[str, str] = {"groupnorm": "g", "instancenorm": "i"}
#: Index sets a vocabulary names in LaTeX (``\sum_{k\in\mathcal S_i}``, Wu and He): set
#: letter -> the per-entry selector of the entry's group, or None where the set is every
#: entry (LayerNorm's one group; BatchNorm's batch, the vector x).
LATEX_INDEX_SETS: dict[str, dict[str, str | None]] = {
    "layernorm": {"S": None}, "batchnorm": {"S": None},
    "groupnorm": {"S": "gS_entry"}, "instancenorm": {"S": "iS_entry"}}
# The hatted sigma: Dive into Deep Learning writes its estimates with hats and puts eps
# into the variance estimate, \hat\sigma^2_B = 1/|B| \sum (x - \hat\mu_B)^2 + \epsilon, then
# BN(x) = \gamma \odot (x - \hat\mu_B) / \hat\sigma_B + \beta (sections 8.5.1, 8.5.2.3): its
# sigma-hat is sqrt(variance + eps), unlike the eps-free sigma.  A source that means an
# eps-free estimate by the hat is refuted against it (read as shows the meaning).

#: Conventional LaTeX names whose meaning is the vocabulary's own claim-language definition
#: (``use batchnorm`` defines ``mu`` and the mini-batch size ``m``): they hold in LaTeX only
#: in blocks of that vocabulary, like the names of :data:`LATEX_MEANINGS`.
LATEX_CLAIM_NAMES: dict[str, dict[str, str]] = {"batchnorm": {"mu": "ones.T*x/d", "m": "d"}}
#: Claim-language names of a vocabulary that are the LaTeX notation of the source it was
#: built from (symnorm's paper for use layernorm: P, c = Px, v, s, J; Ioffe and Szegedy's
#: batch for use batchnorm): an equation that writes one of them on the left while using it
#: (``P = I - \\frac{\\mathbf 1\\mathbf 1^\\top}{d},\\quad c = Px``) states the vocabulary's
#: quantity, a claim.  The others (use rmsnorm's ``r``, which derivations write both for
#: the root mean square and for its inverse) are refused there: the source may mean its own.
LATEX_SOURCE_NAMES: dict[str, frozenset[str]] = {
    "layernorm": frozenset({"P", "c", "v", "s", "J", "N", "Jy"}),
    "batchnorm": frozenset({"P", "BN", "Jb", "z"}),
    "rmsnorm": frozenset({"RMS", "Jr", "Jy"}),
}


def conventional_names() -> set[str]:
    """The names of :data:`LATEX_MEANINGS` and :data:`LATEX_CLAIM_NAMES` of every vocabulary."""
    return {n for t in (*LATEX_MEANINGS.values(), *LATEX_CLAIM_NAMES.values()) for n in t}


#: Functions whose LaTeX name means something else than the vocabulary's claim-language
#: name: with ``use rmsnorm``, sources' ``\\mathrm{RMS}(x)`` is the scalar root mean square
#: (PyTorch's RMSNorm docstring: eps inside), while the vocabulary's ``RMS(y)`` keeps its old
#: meaning, the normalized vector (claim-language documents are unchanged).
LATEX_FUNCTIONS: dict[str, dict[str, tuple[str, str]]] = {
    "rmsnorm": {"RMS": ("y", "sqrt(y.T*y/d + eps)")},
}
#: Sets a vocabulary names in LaTeX: set letter -> the vector whose entries it holds
#: (``use batchnorm``: the mini-batch B of Ioffe and Szegedy holds the entries of x).
LATEX_SETS: dict[str, dict[str, str]] = {"batchnorm": {"B": "x"}}
#: The names sources give each vocabulary's layer (``\\mathrm{RMSNorm}(x)``, ``LN(x)``,
#: ``\\operatorname{BN}(x)``): applied to the vocabulary's input x, the layer's output (as
#: ``y(x)``), where the document does not define the name.  A vocabulary's own function of
#: that name (``BN`` of ``use batchnorm``) keeps its meaning.
LAYER_NAMES: dict[str, frozenset[str]] = {
    "layernorm": frozenset({"LayerNorm", "LN", "LayerNormalization"}),
    "batchnorm": frozenset({"BatchNorm", "BN", "BatchNormalization", "BatchNorm1d"}),
    "rmsnorm": frozenset({"RMSNorm", "RMSNormalization"}),
    "groupnorm": frozenset({"GroupNorm", "GN", "GroupNormalization"}),
    "instancenorm": frozenset({"InstanceNorm", "IN", "InstanceNormalization",
                               "InstanceNorm1d", "InstanceNorm2d"}),
}
#: Names of layers no vocabulary models (their use under another vocabulary is an error).
OTHER_LAYER_NAMES: dict[str, str] = {}
#: Every layer name, with the layer it names.
ALL_LAYER_NAMES: dict[str, str] = {
    **OTHER_LAYER_NAMES,
    **{n: v for v, names in LAYER_NAMES.items() for n in names}}
#: Scalar affine parameters a vocabulary's output uses (declared when an equation uses them).
LATEX_AFFINE: dict[str, tuple[str, ...]] = {"layernorm": ("gamma", "beta"),
                                            "batchnorm": ("gamma", "beta"),
                                            "rmsnorm": ("gamma", "beta"),
                                            # per channel: stated once per channel
                                            "groupnorm": ("gamma", "beta"),
                                            "instancenorm": ("gamma", "beta")}
#: The name of a vocabulary's output: a formula with no relation is a claim about it.
LATEX_OUTPUT: dict[str, str] = {"layernorm": "y", "batchnorm": "y", "rmsnorm": "y",
                                "groupnorm": "y", "instancenorm": "y"}
#: The output of the layer without affine parameters (PyTorch's ``affine=False``, Inox's
#: BatchNorm): what ``y`` means with ``use VOCAB(affine=none)``
#: (``y = \frac{x - \mu_B}{\sqrt{\sigma_B^2 + \epsilon}}``).
LATEX_PLAIN_OUTPUT: dict[str, str] = {"layernorm": "N(x)", "batchnorm": "BN(x)",
                                      "rmsnorm": "RMS(x)", "groupnorm": "GN(x)",
                                      "instancenorm": "IN(x)"}
#: ``use VOCAB(affine=gain)``: the output with a gain and no bias (PyTorch's RMSNorm and
#: ``LayerNorm(bias=False)``, T5's norm): ``y`` is this, and ``\beta`` has no meaning.
LATEX_GAIN_OUTPUT: dict[str, str] = {"layernorm": "gamma*N(x)", "batchnorm": "gamma*BN(x)",
                                     "rmsnorm": "gamma*RMS(x)"}
#: The ``affine=`` modes that state which affine parameters the layer has, LaTeX conventions
#: only (the claim language names no output): ``none`` (PyTorch's ``affine=False``,
#: ``elementwise_affine=False``; Caffe's BatchNorm layer) and ``gain`` (no bias).  Without a
#: mode the output has both, and an equation that states it with fewer is refused naming
#: both readings: whether a source's ``y = \hat x`` drops the gain by design or by mistake
#: is what the document must say, not what the reader may guess.
AFFINE_MODES = frozenset({"none", "gain"})
#: The vocabularies ``affine=gain`` applies to (the grouped outputs are per channel).
GAIN_MODE_VOCABS = frozenset(LATEX_GAIN_OUTPUT)
#: Vocabularies whose gain (and bias) a document may declare as vectors itself (``use
#: rmsnorm`` with ``vector gamma``: the frameworks' RMSNorm weight is per element): the
#: outputs then take the entrywise product (see :func:`vector_affine`).
LATEX_VECTOR_AFFINE = frozenset({"rmsnorm"})


def vector_affine(text: str, vectors: frozenset[str] | set[str]) -> str:
    """An output of :data:`LATEX_GAIN_OUTPUT` or ``LATEX_MEANINGS[..]["y"]`` with the gain and
    bias the document declares as vectors applied entrywise.

    >>> vector_affine("gamma*RMS(x) + beta*ones", {"gamma"})
    'hadamard(gamma, RMS(x)) + beta*ones'
    >>> vector_affine("gamma*RMS(x) + beta*ones", {"gamma", "beta"})
    'hadamard(gamma, RMS(x)) + beta'
    """
    if "gamma" in vectors and text.startswith("gamma*"):
        head, sep, tail = text[len("gamma*"):].partition(" + ")
        text = f"hadamard(gamma, {head})" + sep + tail
    if "beta" in vectors and text.endswith(" + beta*ones"):
        text = text[: -len("*ones")]
    return text


#: ``use VOCAB(affine=elementwise)``: the output with vector gamma (and beta), written with
#: the vocabulary's claim-language names; gamma and beta are then the vocabulary's vectors.
LATEX_ELEMENTWISE: dict[str, str] = {"layernorm": "hadamard(gamma, N(x)) + beta",
                                     "rmsnorm": "hadamard(gamma, RMS(x))"}


class Conventions(NamedTuple):
    """The LaTeX conventions of the vocabularies in force in one block."""

    meanings: dict[str, str]
    affine: tuple[str, ...]
    output: str | None
    #: names two of the vocabularies give different meanings: name -> [(vocab, meaning)]
    clashes: dict[str, list[tuple[str, str]]]


def conventions(vocabs: list[str], elementwise: frozenset[str] | set[str] = frozenset(),
                same: Callable[[str, str], bool] | None = None,
                first: frozenset[str] | set[str] = frozenset(),
                modes: dict[str, str] | None = None) -> Conventions:
    """The meanings, affine parameters, output and clashes of the vocabularies ``vocabs``.

    Two vocabularies may give a name meanings that are the same map written differently
    (layernorm's ``\\hat x`` is ``N(x)``, batchnorm's ``BN(x)``); ``same(a, b)`` decides
    that (the scope compares the expansions), and only a name whose meanings differ by it
    is a clash, left out of ``meanings``.  Without ``same`` meanings are compared as text.
    ``first``: the vocabularies the block itself uses; where one of them gives a name a
    meaning, the others' (stated ``document use`` elsewhere) do not count, as the block's
    own definitions shadow the document's.  ``modes``: vocabulary -> ``affine=`` mode
    (:data:`AFFINE_MODES`), whose output drops the parameters the layer lacks (the words
    ``weight``, ``bias`` still spell them, so that writing one is an error).
    """
    modes = modes or {}
    meanings: dict[str, str] = {}
    given: dict[str, list[tuple[str, str]]] = {}
    affine: list[str] = []
    outputs = {LATEX_OUTPUT.get(v, "y" if v in elementwise else None) for v in vocabs} - {None}
    for v in vocabs:
        table = dict(LATEX_MEANINGS.get(v, {}))
        kept = LATEX_AFFINE.get(v, ())
        if v in elementwise:
            table["y"] = LATEX_ELEMENTWISE[v]
            kept = ()
        elif v in modes:
            kept = ("gamma",) if modes[v] == "gain" else ()
            table["y"] = LATEX_GAIN_OUTPUT[v] if kept else LATEX_PLAIN_OUTPUT[v]
        for name, text in table.items():
            given.setdefault(name, []).append((v, text))
            meanings.setdefault(name, text)
        affine += [a for a in kept if a not in affine]
    for name, pairs in given.items():
        own = [p for p in pairs if p[0] in first]
        if own:
            given[name], meanings[name] = own, own[0][1]
    equal = same or (lambda a, b: a == b)
    clashes = {name: pairs for name, pairs in given.items()
               if any(not equal(pairs[0][1], text) for _, text in pairs[1:])}
    for name in clashes:
        del meanings[name]
    output = outputs.pop() if len(outputs) == 1 else None
    return Conventions(meanings, tuple(affine), output, clashes)  # type: ignore[arg-type]


def latex_conventions(vocabs: list[str], elementwise: frozenset[str] | set[str] = frozenset(),
                      modes: dict[str, str] | None = None
                      ) -> tuple[dict[str, str], tuple[str, ...], str | None]:
    """(meanings, affine parameters, output) of the vocabularies in force.

    A name two vocabularies give different meanings (as text) is left out; with two outputs
    there is none.  ``elementwise``: the vocabularies used with ``affine=elementwise``, whose
    gain and bias are declared vectors (not scalar affine parameters) and whose ``y`` is
    entrywise.

    >>> latex_conventions(["layernorm"])[2]
    'y'
    >>> latex_conventions(["layernorm"], {"layernorm"})[0]["y"]
    'hadamard(gamma, N(x)) + beta'
    >>> m, affine, _ = latex_conventions(["layernorm"], modes={"layernorm": "none"})
    >>> m["y"], affine
    ('N(x)', ())
    """
    c = conventions(vocabs, elementwise, modes=modes)
    return c.meanings, c.affine, c.output


#: name -> (spec factory from options, definitions generator)
VOCABULARIES: dict[str, tuple[Callable[..., NormSpec], Callable[[NormSpec], list[str]]]] = {
    "layernorm": (layer_norm, _layernorm),
    "batchnorm": (layer_norm, _batchnorm),
    "rmsnorm": (rms_norm, _rmsnorm),
}

#: options a ``use`` line accepts, passed to the spec factory; ``d`` is handled by the
#: document (it fixes the dimension).
OPTIONS = {"eps_inside", "var_denominator", "affine"}
#: integer size options of the grouped vocabularies (``use groupnorm(groups=2, channels=4)``)
INT_OPTIONS = {"groups", "channels", "spatial"}


def register(name: str, factory: Callable[..., NormSpec],
             definitions: Callable[[NormSpec], list[str]]) -> None:
    """Add a vocabulary (used by the family module for groupnorm/instancenorm)."""
    VOCABULARIES[name] = (factory, definitions)


def accepted_options(name: str) -> set[str]:
    """The ``use NAME(...)`` options vocabulary ``name`` accepts (besides d and eps)."""
    factory, _ = VOCABULARIES[name]
    return set(inspect.signature(factory).parameters) & (OPTIONS | INT_OPTIONS)


def vocabulary_text(name: str, options: dict[str, object]) -> str:
    """The definitions of vocabulary ``name`` under ``options`` as claim-language lines."""
    factory, definitions = VOCABULARIES[name]
    unknown = set(options) - accepted_options(name)
    if unknown:
        raise SpecError(f"{name} does not take the option(s) {', '.join(sorted(unknown))}")
    return "\n".join(definitions(factory(**options)))


def _register_family() -> None:
    from ..family.vocabularies import (
        groupnorm_spec,
        groupnorm_vocabulary,
        instancenorm_spec,
        instancenorm_vocabulary,
    )
    register("groupnorm", groupnorm_spec, groupnorm_vocabulary)
    register("instancenorm", instancenorm_spec, instancenorm_vocabulary)


_register_family()

"""Claim-language vocabularies for grouped layers (GroupNorm, InstanceNorm, any concrete spec).

One sample of a layer with concrete sizes is a vector of length L (its non-batch axes
flattened in layout order).  Each normalization group g is described by a selector matrix
``S_g`` (a sum of unit outer products) and its indicator vector ``e_g``; the layer is

    F(y) = sum_g (S_g y - e_g e_g^T y / m) / sqrt(|S_g y - e_g e_g^T y / m|^2 / m + eps)

with m the group size (``m - 1`` for the unbiased denominator, ``sqrt(.) + eps`` for eps
outside).  The lines fix ``d`` to L, so vocabularies of the same length combine.  The lead's :mod:`symnorm.lang.vocab` registers :func:`groupnorm_vocabulary`
and :func:`instancenorm_vocabulary` with their spec factories.

>>> from symnorm.spec import group_norm
>>> spec = group_norm(2, "N C H W", sizes="N=1 C=2 H=1 W=2")
>>> sample_groups(spec)
[[0, 1], [2, 3]]
>>> print("\\n".join(groupnorm_vocabulary(spec)[:5]))
let d = 4
vector x
scalar eps
let gS1 = [1, 0, 0, 0]*[1, 0, 0, 0].T + [0, 1, 0, 0]*[0, 1, 0, 0].T
let ge1 = [1, 1, 0, 0]
"""

from __future__ import annotations

import itertools
import math

from ..errors import LimitError, SpecError
from ..spec import NormSpec, group_norm, instance_norm

__all__ = ["MAX_VECTOR_LENGTH", "channel_groups", "definitions", "groupnorm_spec",
           "groupnorm_vocabulary", "instancenorm_spec", "instancenorm_vocabulary",
           "latex_lines", "sample_groups"]

#: The explicit engine works on concrete vectors; keep them small.
MAX_VECTOR_LENGTH = 16


def sample_groups(spec: NormSpec) -> list[list[int]]:
    """The normalization groups of one sample as lists of flat positions (layout order)."""
    axes = [a for a in spec.layout if a != spec.batch_axis]
    sizes = [spec.size(a) for a in axes]
    if any(n is None for n in sizes):
        raise SpecError(f"sizes: a vocabulary needs every non-batch size of "
                        f"{' '.join(spec.layout)} (got {dict(spec.sizes)})")
    if spec.batch_axis is not None and spec.batch_axis in spec.reduce:
        raise SpecError(f"{spec.name} reduces over the batch: its vector view is one "
                        "channel over the batch (use the batchnorm vocabulary)")
    total = math.prod(sizes)  # type: ignore[arg-type]
    if total > MAX_VECTOR_LENGTH:
        raise LimitError(f"one sample has {total} entries; vocabularies allow at most "
                         f"{MAX_VECTOR_LENGTH}")
    groups: dict[tuple[int, ...], list[int]] = {}
    for flat, idx in enumerate(itertools.product(*(range(n) for n in sizes))):  # type: ignore[arg-type]
        key = []
        for a, i in zip(axes, idx):
            if a == spec.channel_axis and spec.groups is not None:
                key.append(i // (spec.size(a) // spec.groups))  # type: ignore[operator]
            elif a not in spec.reduce:
                key.append(i)
        groups.setdefault(tuple(key), []).append(flat)
    return list(groups.values())


def _vec(length: int, ones: list[int]) -> str:
    return "[" + ", ".join("1" if i in ones else "0" for i in range(length)) + "]"


def definitions(spec: NormSpec, name: str, prefix: str) -> list[str]:
    """Claim-language lines defining ``name(y)`` (and its Jacobian ``J<prefix>``) for ``spec``."""
    if spec.affine:
        raise SpecError("vocabularies describe the map without affine parameters")
    groups = sample_groups(spec)
    length = sum(len(g) for g in groups)
    lines = [f"let d = {length}", "vector x", "scalar eps"]
    terms = []
    for k, grp in enumerate(groups, start=1):
        m = len(grp)
        sel = " + ".join(f"{_vec(length, [i])}*{_vec(length, [i])}.T" for i in grp)
        lines += [f"let {prefix}S{k} = {sel}", f"let {prefix}e{k} = {_vec(length, grp)}"]
        cen = (f"({prefix}S{k}*y - {prefix}e{k}*{prefix}e{k}.T*y/{m})" if spec.center
               else f"({prefix}S{k}*y)")
        den = m if spec.var_denominator == "N" else m - 1
        stat = f"{cen}.T*{cen}/{den}"
        scale = f"sqrt({stat} + eps)" if spec.eps_inside else f"(sqrt({stat}) + eps)"
        terms.append(f"{cen}/{scale}")
    lines.append(f"let {name}(y) = " + " + ".join(terms))
    lines.append(f"let J{prefix} = jacobian({name}(x), x)")
    return lines


def groupnorm_spec(groups: int = 2, channels: int = 4, spatial: int = 2,
                   eps_inside: bool = True, var_denominator: str = "N") -> NormSpec:
    """GroupNorm(groups) of one sample with ``channels`` x ``spatial`` entries (layout N C W)."""
    spec = group_norm(groups, "N C W", sizes={"N": 1, "C": channels, "W": spatial})
    return spec.with_(eps_inside=eps_inside, var_denominator=var_denominator)


def instancenorm_spec(channels: int = 4, spatial: int = 2, eps_inside: bool = True,
                      var_denominator: str = "N") -> NormSpec:
    """InstanceNorm of one sample with ``channels`` x ``spatial`` entries (layout N C W)."""
    spec = instance_norm("N C W", sizes={"N": 1, "C": channels, "W": spatial})
    return spec.with_(eps_inside=eps_inside, var_denominator=var_denominator)


def channel_groups(spec: NormSpec) -> list[tuple[list[int], int]]:
    """The channels of one sample as (flat positions, index of the channel's group), in
    layout order: GroupNorm's groups are blocks of whole channels, so every channel lies in
    one group (InstanceNorm: each channel is its own group).

    >>> from symnorm.spec import group_norm
    >>> channel_groups(group_norm(2, "N C W", sizes="N=1 C=4 W=1"))
    [([0], 0), ([1], 0), ([2], 1), ([3], 1)]
    """
    groups = sample_groups(spec)
    axes = [a for a in spec.layout if a != spec.batch_axis]
    sizes = [spec.size(a) for a in axes]
    where = {flat: g for g, grp in enumerate(groups) for flat in grp}
    channels: dict[int, list[int]] = {}
    entries = itertools.product(*(range(n) for n in sizes))  # type: ignore[arg-type]
    for flat, idx in enumerate(entries):
        channels.setdefault(idx[axes.index(spec.channel_axis)], []).append(flat)
    out = []
    for c in sorted(channels):
        owners = {where[f] for f in channels[c]}
        if len(owners) != 1:  # pragma: no cover - a spec's groups hold whole channels
            raise SpecError(f"channel {c} lies in several groups")
        out.append((channels[c], owners.pop()))
    return out


def latex_lines(spec: NormSpec, name: str, prefix: str) -> list[str]:
    """What the LaTeX reader needs of a grouped vocabulary (docs/family.md, "LaTeX"): the
    group size ``<p>m``, each group's mean ``<p>mu<g>`` and biased variance ``<p>var<g>``
    (``\\mathrm{Var}[x]`` divides by m whatever the layer's denominator, as in
    :func:`symnorm.lang.latex_atoms._statistic`), each
    channel's selector ``<p>C<c>`` and indicator ``<p>c<c>``, the per-channel gain and bias
    ``<p>gamma<c>``, ``<p>beta<c>`` and the output ``<name>y`` with them; and the per-entry
    symbols ``<p>mu_entry``, ``<p>var_entry``, ``<p>S_entry`` the reader writes for "the
    statistic of the entry's group" before it states an equation once per channel
    (:mod:`symnorm.lang.latex_groups`; a claim that keeps them is an error)."""
    groups = sample_groups(spec)
    length = sum(len(g) for g in groups)
    sizes = {len(g) for g in groups}
    if len(sizes) != 1:  # pragma: no cover - every spec's groups have one size
        raise SpecError("groups of different sizes")
    m = sizes.pop()
    chans = channel_groups(spec)
    lines = [f"let {prefix}m = {m}",
             f"scalar {prefix}mu_entry, {prefix}var_entry", f"matrix {prefix}S_entry",
             "scalar " + ", ".join(f"{prefix}{a}{c}" for a in ("gamma", "beta")
                                   for c in range(1, len(chans) + 1))]
    for k in range(1, len(groups) + 1):
        cen = f"({prefix}S{k}*x - {prefix}mu{k}*{prefix}e{k})"
        lines += [f"let {prefix}mu{k} = {prefix}e{k}.T*x/{m}",
                  f"let {prefix}var{k} = {cen}.T*{cen}/{m}"]
    terms = []
    for c, (flat, _) in enumerate(chans, start=1):
        sel = " + ".join(f"{_vec(length, [i])}*{_vec(length, [i])}.T" for i in flat)
        lines += [f"let {prefix}C{c} = {sel}", f"let {prefix}c{c} = {_vec(length, flat)}"]
        terms.append(f"{prefix}gamma{c}*{prefix}C{c}*{name}(x) + {prefix}beta{c}*{prefix}c{c}")
    lines.append(f"let {name}y = " + " + ".join(terms))
    return lines


def groupnorm_vocabulary(spec: NormSpec) -> list[str]:
    """``use groupnorm``: d (fixed), x, eps, selectors gS1.., indicators ge1.., GN(y), Jg, and
    the LaTeX reader's names (:func:`latex_lines`: gm, gmu1.., gvar1.., gC1.., gc1..,
    ggamma1.., gbeta1.., GNy)."""
    return definitions(spec, "GN", "g") + latex_lines(spec, "GN", "g")


def instancenorm_vocabulary(spec: NormSpec) -> list[str]:
    """``use instancenorm``: d (fixed), x, eps, selectors iS1.., indicators ie1.., IN(y), Ji,
    and the LaTeX reader's names (:func:`latex_lines`, prefix i)."""
    return definitions(spec, "IN", "i") + latex_lines(spec, "IN", "i")

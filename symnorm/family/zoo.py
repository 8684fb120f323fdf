"""The normalization zoo: which numbers share a mean, for one layout and its sizes.

For a layout such as ``N C H W`` (seed 003's N=16, C=64, H=W=28), each layer of the family
is built as a spec and described by its reduced axes, its group size (how many numbers
share one mean/variance), the number of statistics it computes and whether one sample's
output depends on the other samples of the batch.

>>> rows = zoo()
>>> [(r.layer, r.group_size, r.stat_pairs, r.cross_sample) for r in rows][:2]
[('BatchNorm', 12544, 64, True), ('LayerNorm', 50176, 16, False)]
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..errors import SpecError
from ..spec import NormSpec, batch_norm, group_norm, instance_norm, layer_norm, rms_norm
from .layout import parse_axes, parse_layout, parse_sizes

__all__ = ["DEFAULT_LAYOUT", "DEFAULT_SIZES", "ZooRow", "render_json", "render_text", "zoo"]

DEFAULT_LAYOUT = "N C H W"
DEFAULT_SIZES = "N=16 C=64 H=28 W=28"
MAX_GROUPS_OPTIONS = 16


@dataclass(frozen=True)
class ZooRow:
    """One layer of the table (``None`` numbers when a size is symbolic)."""

    layer: str
    reduced: tuple[str, ...]
    per: tuple[str, ...]
    group_formula: str
    group_size: int | None
    stat_pairs: int | None
    statistics: str
    cross_sample: bool
    running_stats: bool
    note: str = ""


def _formula(spec: NormSpec) -> str:
    parts = list(spec.reduce)
    if spec.groups is not None:
        parts.insert(0, f"{spec.channel_axis}/{spec.groups}")
    return "*".join(parts)


def _row(layer: str, spec: NormSpec, note: str = "") -> ZooRow:
    per = tuple("group" if a == spec.channel_axis and spec.groups else a
                for a in spec.kept_axes)
    return ZooRow(layer=layer, reduced=spec.reduce, per=per, group_formula=_formula(spec),
                  group_size=spec.group_size, stat_pairs=spec.stat_pairs,
                  statistics="mean, var" if spec.center else "mean square",
                  cross_sample=spec.couples_samples, running_stats=spec.running is not None,
                  note=note)


def zoo(layout: str | Sequence[str] = DEFAULT_LAYOUT, sizes: Any = None,
        groups: Iterable[int] = (32,), *, batch: str | None = None,
        channel: str | None = None, ln_axes: str | Sequence[str] | None = None) -> list[ZooRow]:
    """The table rows for ``layout``; ``sizes`` defaults to seed 003's for the default layout.

    LayerNorm and RMSNorm normalize ``ln_axes`` (default: the channel axis and every axis
    after it, i.e. C H W for ``N C H W`` and D for ``N T D``).
    """
    lay = parse_layout(layout)
    if sizes is None and lay == parse_layout(DEFAULT_LAYOUT):
        sizes = DEFAULT_SIZES
    size_pairs = parse_sizes(sizes, lay)
    b = batch if batch is not None else ("N" if "N" in lay else lay[0])
    c = channel if channel is not None else ("C" if "C" in lay else lay[-1])
    if b not in lay or c not in lay or b == c:
        raise SpecError(f"batch {b!r} and channel {c!r} must be two axes of {' '.join(lay)}")
    if ln_axes is None:
        axes = tuple(a for a in lay[lay.index(c):] if a != b)
    else:
        axes = parse_axes(ln_axes, "ln_axes")
    groups = list(groups)
    if len(groups) > MAX_GROUPS_OPTIONS:
        raise SpecError(f"groups: at most {MAX_GROUPS_OPTIONS} values (got {len(groups)})")
    rows = [
        _tolerant("BatchNorm", lambda sz: batch_norm(lay, sizes=sz, batch=b, channel=c),
                  size_pairs),
        _tolerant("LayerNorm", lambda sz: layer_norm(layout=lay, axes=axes, sizes=sz, batch=b),
                  size_pairs),
    ]
    if any(a not in (b, c) for a in lay):
        rows.append(_tolerant("InstanceNorm", lambda sz: instance_norm(
            lay, sizes=sz, batch=b, channel=c), size_pairs))
    cs = dict(size_pairs)[c]
    for g in groups:
        note = ("= LayerNorm over all non-batch axes" if g == 1 else
                "= InstanceNorm" if cs is not None and g == cs else "")
        rows.append(_tolerant(f"GroupNorm({g})", lambda sz, g=g: group_norm(
            g, lay, sizes=sz, batch=b, channel=c), size_pairs, note))
    rows.append(_tolerant("RMSNorm", lambda sz: rms_norm(layout=lay, axes=axes, sizes=sz,
                                                         batch=b), size_pairs, "no centering"))
    return rows


def _tolerant(layer: str, build: Callable[[Any], NormSpec],
              sizes: tuple[tuple[str, int | None], ...], note: str = "") -> ZooRow:
    """The row of ``build(sizes)``; a group of a single number is shown, not refused."""
    try:
        return _row(layer, build(sizes), note)
    except SpecError as exc:
        if "needs >= 2 numbers" not in str(exc):
            raise
    shape = build(tuple((a, None) for a, _ in sizes))  # learn the reduction set
    hidden = set(shape.reduce) | ({shape.channel_axis} if shape.groups else set())
    spec = build(tuple((a, None if a in hidden else n) for a, n in sizes))
    given = dict(sizes)
    size = math.prod(given[a] for a in spec.reduce)  # type: ignore[misc]
    if spec.groups:
        size *= given[spec.channel_axis] // spec.groups  # type: ignore[index,operator]
    row = _row(layer, spec, "one number per group: the centered output is 0 "
                            "(0/0 without eps)")
    return replace(row, group_size=size)


def _num(n: int | None) -> str:
    return "?" if n is None else f"{n:,}"


def render_text(rows: list[ZooRow], layout: str = "", sizes: str = "") -> str:
    """A fixed-width table for the terminal."""
    head = ("layer", "reduced axes", "one statistic per", "group size", "statistics",
            "other samples?")
    body = [(r.layer, r.group_formula.replace("*", " "),
             ", ".join(r.per) or "-",
             f"{_num(r.group_size)} = {r.group_formula}",
             f"{_num(r.stat_pairs)} ({r.statistics})",
             ("yes (train); running stats in eval" if r.running_stats else "yes")
             if r.cross_sample else "no") for r in rows]
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]

    def fmt(row: tuple[str, ...]) -> str:
        return "  ".join(s.ljust(w) for s, w in zip(row, widths)).rstrip()

    lines = [f"layout {layout}  sizes {sizes}".rstrip()] if layout else []
    lines += [fmt(head), fmt(tuple("-" * w for w in widths))]
    lines += [fmt(row) for row in body]
    notes = [f"{r.layer}: {r.note}" for r in rows if r.note]
    return "\n".join(lines + ([""] + notes if notes else []))


def render_json(rows: list[ZooRow], layout: tuple[str, ...], sizes: Any) -> str:
    """One JSON object: the layout, the sizes and one record per layer."""
    return json.dumps({"layout": list(layout), "sizes": dict(sizes),
                       "layers": [asdict(r) for r in rows]}, indent=2)
